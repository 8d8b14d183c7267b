"""Operating rounds: privates pay, then each floated corporation in share
price order lays track, places a station, runs, pays or withholds, buys
trains.

A corporation's turn is its consecutive actions.  Its steps have an order
(track and station, then run, then dividend, then trains); an action of an
earlier step after a later one is refused.  ``pass`` only ends the step at
hand, so passes may be written or left out.  The turn ends when the next
corporation in order acts (or the round ends); then the end-of-turn duties
are checked: a dividend decision after a run, and owning a train.
Players act in an OR only to raise money for a forced train purchase
(emergency sales) or to exchange a private.
"""

from __future__ import annotations

from typing import Any

import dataclasses

from ..actions import (Bankrupt, BuyCompany, BuyShares, DiscardTrain, Exchange, LayTile,
                       Par, Pass, PlaceToken, RoundMarker, SellShares)
from ..findings import RuleViolation
from ..mechanics.shares import named_not_held, sale_percent, sell_shares
from ..state import Company, Corporation, Player
from ..steps.base import Step
from ..steps.player_power import lay_by_player, player_lay_power
from ..steps.trains import DiscardTrainStep, cheapest_train
from ..steps.track import TrackStep
from ..steps.token import TokenStep
from . import Round


class Turn:
    """One company's operating turn: where it stands among the round's steps
    (``step`` is an index into them; their number means the turn is over)."""

    def __init__(self, corp: Corporation):
        self.corp = corp
        self.step = 0
        self.tile_lays = 0
        self.laid_on: list = []    # the hexes it laid track on in this turn
        self.tokens = 0
        self.revenue = None        # claimed revenue once run
        self.dividend_done = False
        self.emergency = False     # the president has been helping
        #: corporations the president sold in this turn's emergency (a second
        #: sale of one is refused with stock.must_sell_in_blocks)
        self.emergency_sold: set = set()
        self.special_token = None  # a private whose station must be placed next (DH)
        self.acted = False         # the company has done something in this turn
        self.explicit_step = 0     # where its last own action left the turn
        #: (price cell, place in its stack) before a dividend step passed over
        #: unrun (nothing withheld, the price moved left): a run written after
        #: it takes the dividend step up again (see RouteStep.apply)
        self.withheld_unrun = None


#: (the steps' classes, an action class) -> the index of the step that owns
#: such an action, or None (``OperatingRound.step_of``)
_OWNER_INDEX: dict = {}


class OperatingRound(Round):
    kind = "OR"
    #: companies over the train limit discard at once, before anything else
    #: happens and before the round ends (1830); a title whose companies
    #: discard at the start of their own next turn (1860) turns it off
    force_discards = True

    def __init__(self, game):
        super().__init__(game)
        #: the steps of a company's turn, in order (the title's list)
        self.steps = [cls(self) for cls in game.title.operating_steps()]
        self.done = len(self.steps)
        #: the steps' classes when every step owns its actions by their class
        #: alone (``step_of`` then asks ``_OWNER_INDEX``), else None
        self._step_types = tuple(type(s) for s in self.steps) \
            if all(type(s).owns is Step.owns for s in self.steps) else None
        #: steps whose actions come whenever the record gives them
        self.discards = DiscardTrainStep(self)
        self.order: list[Corporation] = []
        self.index = -1
        self.turn: Turn | None = None
        #: the turn that ended by itself (nothing more it could do), while the
        #: next company has not acted yet: an action of its company reopens it
        self.closed_turn: Turn | None = None
        #: companies whose turn waits because the record has them operate later
        #: (said once in the round)
        self.delayed: set = set()
        #: (action, company) of a line written under another company's name
        #: in that company's turn (see written_in_turn)
        self.stand_in = None
        #: (private, the player who sold it) right after a sale to a company
        #: that gives the seller a tile lay (``tile_lay`` with ``window:
        #: on_sale``, 1889's ER): the next action may be that lay or a pass
        self.sold_power = None

    @property
    def label(self) -> str:
        g = self.game
        return f"OR {g.sr_number}.{g.or_number}"

    def describe_turn(self) -> str:
        return self.turn.corp.sym if self.turn else ""

    def describe_step(self) -> str:
        return self.step_name(self.turn.step) if self.turn else ""

    # ------------------------------------------------------------------

    def start(self):
        g = self.game
        g.or_number += 1
        g.pay_private_income()
        self.order = g.operating_order()
        if g.rules.stock["home_station"] == "operating_round":
            # every company that operates in this round puts its home station
            # on the map now, before the first turn (1889)
            for corp in self.order:
                self.place_home(corp)
        self.index = -1
        self.next_corporation()

    def next_corporation(self):
        self.index += 1
        if self.index >= len(self.order):
            self.turn = None
            self.finish_if_done()
            return
        corp = self.order[self.index]
        self.turn = Turn(corp)
        self.start_turn(corp)
        self.settle()

    def discards_due(self) -> bool:
        """Companies over the train limit that must discard before the round ends."""
        return self.force_discards and bool(self.game.excess_trains())

    def at_end(self) -> bool:
        """Every company has had its turn."""
        return self.turn is None and self.index >= len(self.order)

    def finish_if_done(self):
        """After the last turn: the OR ends unless companies over the train limit
        still have to discard, or the last company may still use a private's
        extra tile lay it owns (18xx.games keeps its turn open for that), or
        the seller of a private it just bought may still lay its tile (1889's
        ER); any other action ends the OR (``wants``)."""
        last = self.closed_turn.corp if self.closed_turn else None
        self.finished = not (self.discards_due()
                             or (last is not None and self.extra_lay_left(last))
                             or self.sold_power is not None)

    def extra_lay_left(self, corp) -> bool:
        """``corp`` owns a private whose extra tile lay has uses left (CS)."""
        for c in corp.companies:
            lay = (c.spec.special or {}).get("tile_lay") or {}
            if player_lay_power(c) is not None:
                continue        # a player's lay (1889's MF, ER), not the company's
            if not c.closed and lay.get("extra") and \
                    (lay.get("count") is None or c.uses < int(lay["count"])):
                return True
        return False

    def start_turn(self, corp: Corporation):
        self.place_home(corp)
        corp.operated = True

    def place_home(self, corp: Corporation):
        """``corp``'s home station goes on the map (once)."""
        g = self.game
        if not corp.home_placed:
            corp.home_placed = True
            if corp.spec.home:
                if g.board is not None:
                    try:
                        g.board.place_home_token(corp.sym)
                        if isinstance(corp.spec.home, str) and corp.spec.home in g.laid_hexes:
                            # a tile with several cities lies there: the first station
                            # placement says which city the home station is in
                            g.board.offer_home_choice(corp.sym, corp.spec.home)
                    except RuleViolation as v:
                        g.flag(v.rule, v.message)
                corp.tokens_placed += 1

    def end_turn(self):
        """Close the current corporation's turn, checking its duties."""
        t = self.turn
        if t is None:
            return
        for step in self.steps:
            step.end_of_turn(t)
        self.move_to(t, self.done)
        self.turn = None

    # ------------------------------------------------------------------
    # the steps of a turn

    def step_index(self, step) -> int:
        return self.steps.index(step)

    def step_name(self, index: int) -> str:
        return self.steps[index].name if index < self.done else "the end of its turn"

    def step_of(self, action):
        """The step of the turn that owns ``action``, or None."""
        types = self._step_types
        if types is None:
            return next((s for s in self.steps if s.owns(action)), None)
        key = (types, type(action))
        index = _OWNER_INDEX.get(key, -1)
        if index == -1:
            # (kept outside the round: a refused action changes nothing in it)
            index = _OWNER_INDEX[key] = next(
                (i for i, s in enumerate(self.steps) if s.owns(action)), None)
        return None if index is None else self.steps[index]

    def step_by_type(self, cls):
        return next((s for s in self.steps if isinstance(s, cls)), None)

    def move_to(self, t: Turn, index: int):
        """Move the turn forward to step ``index``; each step passed over
        records what leaving it undone means (a dividend passed over is a
        withhold)."""
        while t.step < index:
            if t.step < self.done:
                self.steps[t.step].leave(t)
            t.step += 1

    def has_route(self, corp) -> bool:
        board = self.game.board
        return True if board is None else board.has_route(corp.sym)

    def home_choice_pending(self, corp) -> bool:
        """The company must say in which city of a multi-city hex its station
        stands, now that track has been laid there."""
        board = self.game.board
        return board is not None and board.pending_relocation_of(corp.sym) is not None

    def settle(self):
        """Pass over steps with nothing to do; end the turn when none is left."""
        t = self.turn
        while t is not None and not self.game.finished:
            if t.special_token is not None or self.home_choice_pending(t.corp):
                return
            while t.step < self.done and not self.steps[t.step].available(t):
                self.move_to(t, t.step + 1)
            if t.step < self.done:
                return
            self.end_turn()
            self.closed_turn = t
            self.next_corporation()
            return

    def cheapest_train(self):
        return cheapest_train(self.game)

    # ------------------------------------------------------------------

    def wants(self, action) -> bool:
        g = self.game
        actor = action.actor
        if g.private_actor(actor) is not None or isinstance(action, Exchange):
            return True
        if actor in g.player_by_name:
            if isinstance(action, (SellShares, Bankrupt)) and self.in_emergency(actor):
                return True
            return False      # a stock round action: this OR is over
        corp = g.corporations.get(actor)
        if corp is None:
            return True
        current = self.turn.corp if self.turn else None
        if isinstance(action, DiscardTrain) and corp is not current:
            return True
        if corp is current:
            step = self.step_of(action)
            stage = self.step_index(step) if step is not None and step.blocking else None
            turn: Any = self.turn
            if stage is not None and stage < turn.step \
                    and self.is_last() and g.or_number < g.or_count:
                return False  # the same company starts its turn of the next OR
            return True
        if corp in self.order[self.index + 1:]:
            return True
        if self.at_end() and self.closed_turn is not None and corp is self.closed_turn.corp \
                and self.extra_lay_left(corp):
            return True       # the last turn, kept open for its private's power: its pass
        if corp in self.order[: self.index + 1] and g.or_number < g.or_count:
            return False      # it operated already: the next OR of the set begins
        return True

    def is_last(self) -> bool:
        return self.index >= len(self.order) - 1

    def in_emergency(self, player_name: str) -> bool:
        """The operating company's president raising money for a train."""
        t = self.turn
        if not (t and t.corp.president and t.corp.president.name == player_name):
            return False
        cheapest = self.cheapest_train()
        return not t.corp.trains and cheapest is not None \
            and t.corp.cash < cheapest.spec.price

    def finish_round(self):
        """End the OR; companies that have not acted take an empty turn."""
        if self.force_discards and self.game.current_action is not None:
            self.discards.enforce(None)     # the record went on without discards
        self.end_turn()
        self.skip_turns_until(None)
        self.index = len(self.order)
        self.finished = True

    def skip_turns_until(self, corp):
        """Companies before ``corp`` in the order (all, when None) that did not
        act take an empty turn, with its duties checked."""
        while self.index < len(self.order) - 1 and self.order[self.index + 1] is not corp:
            self.index += 1
            skipped = self.order[self.index]
            self.turn = Turn(skipped)
            self.start_turn(skipped)
            self.check_skipped_turn(skipped)
            self.end_turn()

    def check_skipped_turn(self, corp):
        """A company left out of the record must have had nothing to run
        (the notation may leave out the passes of an OR)."""
        # without the map (--no-board) nobody can tell whether a route exists
        if corp.trains and self.game.board is not None and self.has_route(corp):
            self.game.flag("or.turn_missing",
                           f"{corp.sym} took no turn in {self.label} although it owns trains "
                           f"({', '.join(t.name for t in corp.trains)}) and has a route to run "
                           f"them")

    # ------------------------------------------------------------------

    def _reopens(self, corp) -> bool:
        """The company whose turn just ended by itself acts again before the
        next company has done anything: its action belongs to that turn."""
        prev = self.closed_turn
        if prev is None or prev.corp is not corp:
            return False
        # the next company has not acted yet, or the round's last turn ended by itself
        return (self.turn is not None and not self.turn.acted) or self.at_end()

    def prepare(self, action):
        """Put the round where the record says the action stands, as the
        record implies: discards forced, the acting company's turn begun
        (companies between take empty turns).  The action itself is checked
        after this, by its step, which changes nothing when it refuses."""
        g = self.game
        if self.prepared is action:     # the engine prepared it already
            return
        self.prepared = action
        if self.force_discards:
            self.discards.enforce(action)
        company = g.private_actor(action.actor)
        if company is not None and isinstance(company.owner, Corporation) and not company.closed:
            self.prepare_private(company.owner)
            return
        corp = g.corporations.get(action.actor)
        if corp is None or isinstance(action, (Exchange, DiscardTrain)):
            return
        if self.turn is not None and corp is self.turn.corp:
            self.closed_turn = None
        elif self._reopens(corp):
            pass
        elif self.written_in_turn(corp, action):
            cur = self.turn.corp
            self.game.flag("turn.order",
                           f"{corp.sym}'s '{action.verb}' is written in {cur.sym}'s turn, and "
                           f"the record goes on with {cur.sym}: taken as {cur.sym}'s")
            self.stand_in = (action, cur)
            self.closed_turn = None
        else:
            self.switch_to(corp)
            self.closed_turn = None

    def written_in_turn(self, corp, action) -> bool:
        """An action of ``corp`` while another company's turn is under way,
        and the record's next action is that company's again: the line was
        written in its turn under a wrong name (a stand-in, not a turn of
        ``corp`` begun out of order)."""
        g = self.game
        t = self.turn
        nxt = g.next_action
        if t is None or corp is t.corp or nxt is None or getattr(nxt, "actor", None) == corp.sym:
            return False
        if not self.goes_on_with_turn(nxt, t):
            return False
        if isinstance(action, BuyCompany):
            # a private bought names its buyer (in a hand-written record the
            # buyer's turn begins there): in an export, whose lines are the
            # site's, taken as the turn's company's when that company could
            # buy it so with no finding
            return g.record_from_export and self.could_buy_private(t, action)
        if self.order and corp is self.order[-1] and isinstance(action, Pass):
            # the round's last company's pass may be its whole turn, and the
            # next line the next round's; not when the record has it act
            # later in this round, after the companies between
            return self.acts_later_in_round(corp)
        return True

    def goes_on_with_turn(self, nxt, t) -> bool:
        """The record's next line belongs to the turn ``t``: the company's
        own, or its president's emergency sale for it."""
        if nxt.actor == t.corp.sym:
            return True
        president = t.corp.president
        return isinstance(nxt, SellShares) and president is not None \
            and nxt.actor == president.name

    def could_buy_private(self, t, action) -> bool:
        step = self.step_of(action)
        if step is None:
            return False
        ok, plan = self.game.clean_attempt(lambda: step.check(t, action))
        if not ok:
            return False
        # (the shared step's plan: the private, a wrong price, a bankrupt's)
        return isinstance(plan, tuple) and len(plan) == 3 and plan[1] is None and plan[2] is None

    def acts_later_in_round(self, corp) -> bool:
        """The record's lines after the current one, past the current
        company's own, have ``corp`` act before the record leaves the round
        (a round marker, a player's line, or a company that has operated in
        it already acting again)."""
        g = self.game
        t = self.turn
        done = set(self.order[: self.index + 1])
        own = True      # still at the current company's own lines
        for a in g.actions_ahead():
            if isinstance(a, RoundMarker) or a.actor in g.player_by_name:
                return False
            other = g.corporations.get(a.actor)
            if other is None or (own and other is t.corp):  # type: ignore[union-attr]
                continue
            own = False
            if other is corp:
                return True
            if other in done:
                return False
        return False

    def prepare_private(self, owner):
        """A private's power is used in its owner's turn: that turn begins now,
        or the owner's turn that just ended by itself goes on with it (a
        private bought in its last step, CS's extra lay used right after:
        18xx.games keeps the turn open while the company owns a usable
        power), whether the next company's turn had begun or the round's
        last turn had ended."""
        if self.turn is not None and self.turn.corp is owner:
            return
        if self._reopens(owner):
            self.index -= 1
            self.turn = self.closed_turn
        elif owner in self.order[self.index + 1:]:
            self.switch_to(owner)

    def process(self, action):
        pending = self.sold_power
        self.process_action(action)
        if pending is not None and self.sold_power is pending:
            self.sold_power = None      # the seller's lay was not taken: declined

    def process_action(self, action):
        g = self.game
        self.prepare(action)
        stand_in = self.stand_in
        if stand_in is not None and stand_in[0] is action:
            # flagged in prepare: checked and applied as the company's whose turn it is
            action = dataclasses.replace(action, actor=stand_in[1].sym)
        actor = action.actor
        if isinstance(action, Exchange):
            return g.title.exchange(action)
        if g.private_actor(actor) is not None:
            return self.process_private(g.companies[actor], action)
        if actor in g.player_by_name:
            return self.process_player(g.player_by_name[actor], action)
        corp = g.corporations.get(actor)
        if corp is None:
            raise RuleViolation("name.unknown", f"unknown actor '{actor}'")
        if isinstance(action, DiscardTrain) and (self.turn is None or corp is not self.turn.corp):
            self.discards.process(None, action)
            if self.at_end():
                self.finish_if_done()
            return
        if self.at_end() and isinstance(action, Pass) and self.closed_turn is not None \
                and self.closed_turn.corp is corp:
            # the last company declines its private's power (discards may still be due)
            self.finished = not self.discards_due()
            return
        if self.turn is None or corp is not self.turn.corp:
            if self.closed_turn is None:
                # no turn of it to take up again (its action came in another's
                # turn after its own ended): refused where it stands
                self.switch_to(corp)
                if self.turn is None or corp is not self.turn.corp:
                    raise RuleViolation("turn.order", f"{corp.sym} cannot act now in "
                                                      f"{self.label}")
            else:
                return self.reopen(self.closed_turn, action)
        self.closed_turn = None
        return self.process_corp(self.turn, action)

    def reopen(self, prev: Turn, action):
        """An action of the company whose turn just ended by itself: check it
        as part of that turn (a refusal then names the real reason, e.g. the
        train limit); if it is legal after all, the turn goes on."""
        saved = (self.index, self.turn)
        self.index -= 1
        self.turn = prev
        prev.step = prev.explicit_step
        try:
            self.process_corp(prev, action)
        except RuleViolation:
            prev.step = self.done
            self.index, self.turn = saved
            raise
        if self.turn is prev:
            return
        # the reopened turn ended again: the next company starts afresh
        self.closed_turn = prev

    def switch_to(self, corp: Corporation):
        rest = self.order[self.index + 1:]
        if corp not in rest:
            if not corp.floated:
                raise RuleViolation("or.not_floated",
                                    f"{corp.sym} has not floated and does not operate")
            done = corp in self.order[: self.index + 1]
            current = self.turn.corp.sym if self.turn else "nobody"
            raise RuleViolation("turn.order",
                                f"{corp.sym} " + ("already operated in " if done else
                                                   "does not operate in ")
                                + f"{self.label}; it is {current}'s turn")
        t = self.turn
        waits = t is not None and not t.acted
        # the record is looked ahead only when a company could be left waiting
        # (not for the next company in the order after a finished turn)
        later = self.record_operates_later() \
            if waits or self.order.index(corp) > self.index + 1 else set()
        if waits and t.corp in later:  # type: ignore[union-attr]
            # the company whose turn began has done nothing, and the record has
            # it operate later in this round: its turn waits
            self.index -= 1
            self.turn = None
        else:
            self.end_turn()
        if not self.take_in_record_order(corp, later):
            self.skip_turns_until(corp)
        self.next_corporation()

    def record_operates_later(self) -> set:
        """The companies the record has operate later in this round: those
        acting after the current action before the record leaves the round
        (a round marker, a player's par or purchase, or a company acting
        again after another one, which starts the next round)."""
        g = self.game
        done = set(self.order[: self.index + (0 if self.turn is not None else 1)])
        seen, last = set(), None
        for a in g.actions_ahead():
            if isinstance(a, RoundMarker) or (isinstance(a, (Par, BuyShares))
                                              and a.actor in g.player_by_name):
                break
            corp = g.corporations.get(a.actor)
            if corp is None:
                continue
            if corp is not last and (corp in seen or corp in done):
                break
            seen.add(corp)
            last = corp
        return seen

    def take_in_record_order(self, corp, later: set) -> bool:
        """``corp`` acts before companies the rules' order puts first, and the
        record has those operate later in this round: flagged once per pair,
        and the round follows the record's order (their turns are kept for
        them instead of being taken empty now)."""
        g = self.game
        pos = self.order.index(corp)
        between = self.order[self.index + 1: pos]
        waiting = [c for c in between if c in later]
        if not waiting:
            return False
        delayed = self.delayed
        fresh = [c for c in waiting
                 if (corp.sym, c.sym) not in g.order_flagged and c not in delayed]
        g.order_flagged.update((corp.sym, c.sym) for c in waiting)
        delayed.update(waiting)
        if fresh:
            names = ", ".join(c.sym for c in waiting)
            g.flag("turn.order",
                   f"{corp.sym} operates before {names} in {self.label}; the rules' order "
                   f"is {', '.join(c.sym for c in self.order[self.index + 1:])}; taken in the "
                   f"record's order")
        self.order = (self.order[: self.index + 1] + [corp]
                      + [c for c in self.order[self.index + 1:] if c is not corp])
        return True

    # ------------------------------------------------------------------
    # corporation actions: each goes to the step that owns it

    def process_corp(self, t: Turn, action):
        """An action of the operating company.  A refusal (RuleViolation)
        leaves the turn exactly as it was."""
        pending = t.special_token
        before = t.step
        if pending is not None and not isinstance(action, PlaceToken):
            t.special_token = None       # the private's station is not placed
            if isinstance(action, Pass):
                t.acted = True
                return self.settle()
        try:
            if isinstance(action, Pass):
                if t.step < self.done:
                    self.steps[t.step].check_pass(t)
                self.move_to(t, min(t.step + 1, self.done))
            else:
                self.process_corp_action(t, action)
        except RuleViolation:
            t.special_token = pending
            raise
        t.acted = True
        if self.turn is t:
            t.explicit_step = t.step
            self.settle()
            if isinstance(action, Pass) and self.at_end():
                # a pass ends the last turn, private powers and all (discards may be
                # due); not a pass of a step before the turn's last (buying trains):
                # 18xx.games then keeps the turn open while the company owns a usable
                # power (its last, blocking step asks for a pass of its own)
                keep = before < self.done - 1 and self.extra_lay_left(t.corp)
                self.finished = not (self.discards_due() or keep)

    def process_corp_action(self, t: Turn, action):
        step = self.step_of(action)
        if step is not None:
            return step.process(t, action)
        if self.discards.owns(action):
            return self.discards.process(t, action)
        if isinstance(action, Bankrupt):
            return self.do_bankrupt(t, action)
        raise RuleViolation("or.action", f"'{action.verb}' is not an operating round action")

    # ------------------------------------------------------------------
    # privates

    def process_private(self, company: Company, action):
        g = self.game
        owner = company.owner
        pending = self.sold_power
        if pending is not None and pending[0] is company and isinstance(action, (LayTile, Pass)):
            # the seller's lay when the private was sold to a company (a pass declines)
            if isinstance(action, LayTile):
                lay_by_player(g, company, action, pending[1])
            self.sold_power = None
            if self.turn is not None:
                self.settle()           # the buyer's turn ends if nothing is left
            elif self.at_end():
                self.finish_if_done()
            return
        if company.closed or owner is None:
            raise RuleViolation("private.closed", f"{company.sym} is closed or unowned")
        power = player_lay_power(company)
        if power is not None and power.get("window") == "on_sale" and isinstance(action, LayTile):
            raise RuleViolation("private.window",
                                f"{company.sym}'s tile lay is made by the player who sells it "
                                f"to a company, at once; {company.sym} is held by "
                                f"{g.holder_name(owner)} and was not just sold")
        if power is not None and power.get("by") == "player" \
                and isinstance(action, (LayTile, Pass)):
            if not isinstance(owner, Player):
                raise RuleViolation("private.power",
                                    f"{company.sym}'s tile lay is its owning player's; it is "
                                    f"owned by {g.holder_name(owner)}")
            if isinstance(action, LayTile):
                lay_by_player(g, company, action, owner,
                              self.outside_player_window(owner, company))
            return
        if not isinstance(owner, Corporation):
            raise RuleViolation("private.power",
                                f"{company.sym}'s power is used by a company that owns it; it is "
                                f"owned by {g.holder_name(owner)}")
        if self.turn is None or self.turn.corp is not owner:
            raise RuleViolation("private.power",
                                f"{company.sym} can be used only in its owner "
                                f"{owner.sym}'s turn")
        t = self.turn
        if isinstance(action, LayTile):
            self.step_by_type(TrackStep).process(t, action, special=company)
        elif isinstance(action, PlaceToken):
            self.step_by_type(TokenStep).process(t, action, special=company)
        elif not isinstance(action, Pass):
            raise RuleViolation("private.power", f"{company.sym} cannot '{action.verb}'")
        elif t.special_token is company:
            t.special_token = None      # the private's pass: its station is not placed
        if self.turn is t:
            self.settle()       # steps left with nothing to do pass by themselves now

    def outside_player_window(self, player, company):
        """Why a power of ``player``'s own (``window: not_in_others_turns``)
        may not be used now, or None: not in the operating turn of a company
        another player presides once it has begun (between turns, before the
        company's first action, it may)."""
        t = self.turn
        if t is None or not t.acted or t.corp.president is player:
            return None
        pres = t.corp.president.name if t.corp.president else "nobody"
        return (f"{player.name}'s {company.sym} may lay its tile only outside the turns of "
                f"companies other players preside; it is {t.corp.sym}'s turn (president {pres}); "
                f"taken as laid, as the record says")

    # ------------------------------------------------------------------
    # players: emergency sales and bankruptcy

    def process_player(self, player: Player, action):
        g = self.game
        if isinstance(action, SellShares):
            t = self.turn
            if t is None or t.corp.president is not player:
                raise RuleViolation("emergency.not_needed",
                                    f"{player.name} may sell shares in an operating round only "
                                    f"to raise money for a train their company must buy")
            corp = t.corp
            cheapest = self.cheapest_train()
            price = cheapest.spec.price if cheapest else 0
            if corp.trains or corp.cash + player.cash >= price:
                raise RuleViolation(
                    "emergency.not_needed",
                    f"{player.name} may not sell shares: {corp.sym} "
                    + ("owns a train" if corp.trains else
                       f"has {g.money(corp.cash)} and {player.name} {g.money(player.cash)}, "
                       f"enough for the cheapest train ({g.money(price)})"))
            if g.rules.stock["must_sell_in_blocks"]:
                for sale in action.sales:
                    c = self.corporation(sale.corporation)
                    if c in t.emergency_sold:
                        raise RuleViolation("stock.sell_blocks",
                                            f"{player.name} already sold {c.sym} to raise money "
                                            f"for {corp.sym}'s train")
            for sale in action.sales:
                c = self.corporation(sale.corporation)
                pct = sale_percent(g, c, sale)
                if c.price is not None and not g.rules.operating.emergency_sell_more_than_needed:
                    bundle = c.price.price * pct // c.share_percent
                    # too much when the bundle less its smallest certificate would do
                    smallest = c.price.price * _smallest_cert(c, player, sale, pct) \
                        // c.share_percent
                    if bundle - smallest + player.cash + corp.cash >= price:
                        raise RuleViolation(
                            "emergency.too_much",
                            f"{player.name} sells more than needed: {pct}% of {c.sym} brings "
                            f"{g.money(bundle)}; with {g.money(player.cash)} in hand and "
                            f"{g.money(corp.cash)} in {corp.sym}'s treasury one certificate "
                            f"fewer ({g.money(smallest)} less) would pay for the "
                            f"{g.money(price)} train")
                wrong = named_not_held(g, player, c, sale.certs, pct)
                sell_shares(g, player, c, pct, emergency_for=corp, certs=sale.certs)
                if wrong:
                    g.flag("stock.sell_not_owned", wrong)
                t.emergency_sold.add(c)
            t.emergency = True
            self.recalculate_order()
            return
        if isinstance(action, Bankrupt):
            t = self.turn
            if t is None or t.corp.president is not player:
                raise RuleViolation("bankrupt.not_president",
                                    f"{player.name} is not the president of the operating "
                                    f"company")
            return self.do_bankrupt(t, action)
        raise RuleViolation("or.player_action",
                            f"players do not '{action.verb}' in an operating round")

    def recalculate_order(self):
        """Share prices changed by sales during the OR: the companies still
        to operate are re-sorted."""
        rest = self.order[self.index + 1:]
        rest.sort(key=self.game.price_order_key)
        self.order[self.index + 1:] = rest

    def do_bankrupt(self, t: Turn, action):
        from ..mechanics.shares import declare_bankruptcy
        declare_bankruptcy(self.game, self, t)


def _smallest_cert(corp, player, sale, percent: int) -> int:
    """The percentage of the smallest certificate in the bundle a sale is made
    of: the certificates it names, else the player's ordinary shares and, when
    they do not cover the sale, the president's certificate."""
    named = [corp.certs[i].percent for i in sale.certs
             if i < len(corp.certs) and corp.certs[i].owner is player]
    if named:
        return min(named)
    ordinary = [c.percent for c in corp.certs_of(player) if not c.president]
    if percent > sum(ordinary) and corp.president is player:
        ordinary.append(corp.certs[0].percent)
    return min(ordinary, default=corp.share_percent)
