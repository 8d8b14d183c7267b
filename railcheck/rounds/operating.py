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

from ..actions import (Bankrupt, DiscardTrain, Exchange, Pass, PlaceToken,
                       SellShares)
from ..findings import RuleViolation
from ..state import Company, Corporation, Player
from ..steps.base import Step
from ..steps.emergency import BankruptStep, EmergencySaleStep
from ..steps.player_power import player_lay_power
from ..steps.powers import PrivatePowerStep
from ..steps.trains import DiscardTrainStep, cheapest_train
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
    #: the class of a company's turn, which the round's steps are given (a title's own
    #: turn keeps what its steps note besides the shared ones: 1890's ``Turn1890``)
    turn_class: type[Turn] = Turn

    def __init__(self, game):
        super().__init__(game)
        self.done = len(self.steps)
        #: the steps' classes when every step owns its actions by their class
        #: alone (``step_of`` then asks ``_OWNER_INDEX``), else None
        self._step_types = tuple(type(s) for s in self.steps) \
            if all(type(s).owns is Step.owns for s in self.steps) else None
        #: steps whose actions come whenever the record gives them
        self.discards = DiscardTrainStep(self)
        #: the players' steps: the operating company's president raising
        #: money for a train, or going bankrupt
        self.player_steps = [EmergencySaleStep(self), BankruptStep(self)]
        #: a private's power (the private is the line's actor)
        self.powers = PrivatePowerStep(self)
        self.order: list[Corporation] = []
        self.index = -1
        self.turn: Turn | None = None
        #: the turn that ended by itself (nothing more it could do), while the
        #: next company has not acted yet: an action of its company reopens it
        self.closed_turn: Turn | None = None
        #: (private, the player who sold it) right after a sale to a company
        #: that gives the seller a tile lay (``tile_lay`` with ``window:
        #: on_sale``, 1889's ER): the next action may be that lay or a pass
        self.sold_power = None

    @property
    def label(self) -> str:
        g = self.game
        return f"OR {g.sr_number}.{g.or_number}"

    def step_classes(self) -> list:
        """The steps of a company's turn, in order (the title's list)."""
        return self.game.title.operating_steps()

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
        self.turn = self.turn_class(corp)
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

    def station_to_place_waits(self, t: Turn) -> bool:
        """Another company's station on a hex of several cities that this
        turn's track reached waits for the operating company to say its city
        (18xx.games asks it at once, before the turn's other steps: until then
        the station stands in no city, so the company's own station step is
        not passed over for a city the waiting station seems to fill)."""
        board = self.game.board
        return board is not None and any(
            c != t.corp.sym for coord in t.laid_on for c in board.relocations_on(coord))

    def settle(self):
        """Pass over steps with nothing to do; end the turn when none is left."""
        t = self.turn
        while t is not None and not self.game.finished:
            if t.special_token is not None or self.home_choice_pending(t.corp) \
                    or self.station_to_place_waits(t):
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
            stage = self.step_index(step) if step is not None and step.ordered else None
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
            self.turn = self.turn_class(skipped)
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

    def process(self, action):
        pending = self.sold_power
        self.process_action(action)
        if pending is not None and self.sold_power is pending:
            self.sold_power = None      # the seller's lay was not taken: declined

    def process_action(self, action):
        g = self.game
        placed = self.placed
        if placed is not None and placed[0] is action and placed[2] == "as":
            # a line the record-following layer placed in another company's
            # turn: checked and applied as that company's
            action = dataclasses.replace(action, actor=placed[1].sym)
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
            if placed is not None and placed[0] is action and placed[2] == "reopen":
                return self.reopen(self.closed_turn, action)
            raise RuleViolation("turn.order", f"{corp.sym} cannot act now in {self.label}")
        self.closed_turn = None
        if placed is not None and placed[0] is action and placed[2] == "passed_over":
            # a pass of a step the rules passed over, the record going on with
            # the step it would leave (the record-following layer's reading)
            self.turn.acted = True
            return None
        return self.process_corp(self.turn, action)

    # ------------------------------------------------------------------
    # the round's turns, as the record-following layer moves them
    # (``following/operating.py``)

    def whose_turn(self):
        """The company whose turn it is, or None."""
        return self.turn.corp if self.turn is not None else None

    def turn_of_steps(self):
        """The steps of a company's turn are given its ``Turn``."""
        return self.turn

    def active_steps(self) -> list:
        """The steps of the turn under way that may take an action now: the
        ordered ones from where the turn stands (an earlier one's action is
        refused, ``or.step_order``) and the unordered ones, each with
        something to do, then the president's when the company must buy a
        train it cannot pay (an emergency sale, bankruptcy); none between
        turns."""
        t = self.turn
        if t is None:
            return []
        return [s for i, s in enumerate(self.steps)
                if (i >= t.step or not s.ordered) and s.takes(t)] \
            + [s for s in self.player_steps if s.takes(t)]

    def enforce_discards(self, action) -> None:
        """Companies over the train limit discard before anything else
        happens (``action`` being one of their discards excepted)."""
        if self.force_discards:
            self.discards.enforce(action)

    def check_may_start(self, corp: Corporation) -> None:
        """Why ``corp``'s turn may not begin now (it does not operate, or
        already operated, in this round)."""
        if corp not in self.order[self.index + 1:]:
            if not corp.floated:
                raise RuleViolation("or.not_floated",
                                    f"{corp.sym} has not floated and does not operate")
            done = corp in self.order[: self.index + 1]
            current = self.turn.corp.sym if self.turn else "nobody"
            raise RuleViolation("turn.order",
                                f"{corp.sym} " + ("already operated in " if done else
                                                   "does not operate in ")
                                + f"{self.label}; it is {current}'s turn")

    def hold_turn(self) -> None:
        """The turn under way, in which its company did nothing, waits: the
        company takes it later in the round."""
        self.index -= 1
        self.turn = None

    def move_up(self, corp: Corporation) -> None:
        """``corp`` operates next, before the companies the order put first."""
        self.order = (self.order[: self.index + 1] + [corp]
                      + [c for c in self.order[self.index + 1:] if c is not corp])

    def take_up_closed_turn(self) -> None:
        """The round's last turn, which ended by itself, goes on (a private's
        power its company may still use: CS's extra lay)."""
        self.index -= 1
        self.turn = self.closed_turn

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
        """A private's power (``steps/powers.py``)."""
        return self.powers.process(self.turn, action)

    # ------------------------------------------------------------------
    # players: emergency sales and bankruptcy

    def process_player(self, player: Player, action):
        """A player's action: the operating company's president raising
        money for a train, or going bankrupt (``steps/emergency.py``)."""
        step = next((s for s in self.player_steps if s.owns(action)), None)
        if step is None:
            raise RuleViolation("or.player_action",
                                f"players do not '{action.verb}' in an operating round")
        return step.process(self.turn, action)

    def recalculate_order(self):
        """Share prices changed by sales during the OR: the companies still
        to operate are re-sorted."""
        rest = self.order[self.index + 1:]
        rest.sort(key=self.game.price_order_key)
        self.order[self.index + 1:] = rest

    def do_bankrupt(self, t: Turn, action):
        from ..mechanics.shares import declare_bankruptcy
        declare_bankruptcy(self.game, self, t)

