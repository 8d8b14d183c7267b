"""1890's stock round as the shared ``StockRound`` with 1890's steps (the move onto the shared
engine, step 3: docs/1890.md, "How it is built").

Each kind of a player's action in a stock round (and in the auction, where the minors and the
par setters' pars are bought too) is a step of the shared protocol (``steps/base.py``,
``steps/stock.py``'s ``TurnStep``): a ``check`` that changes nothing and returns a plan (what
is taken as written, a purchase over cash, a second certificate in one turn, a par that is no
par value, is a note in the plan) or raises ``RuleViolation`` (the action refused), and an
``apply`` that flags the plan's notes and carries it out:

* :class:`ParStep1890`: a par, JR's 100 (J0), the par values on the market's ``p`` cells, KNR's
  and OMS's pars set by M2's and OMER's owners (K6, C5), the president's certificate at 2 x par;
* :class:`BuySharesStep1890`: a minor at its printed price (N0), a share at par or the pool's
  price, KNR's four shares for sale (K7), no rebuying after a sale (SB6);
* :class:`SellSharesStep1890`: the free Hanshin and Keihan shares (C1, C4), no sales in the
  first stock round or of a company that has not operated (SS1), the president's certificate
  exchanged, never sold (SS3, §6.5), the pool's 50% (SS2), the price a row down per share (SS4);
* :class:`BuyPrivateStep1890`: a private bought from a player (S2.1; never OMER, P7, a late
  private, L0, or Hankai Tramway from phase 4, P3);
* :class:`LatePrivateStep1890`: a late private from the bank once the first 3-train is sold (L0).

The round's turns are the shared ``StockRound.turn_action``'s (whose turn, a player who may
do nothing passed over, the passes in a row and the round's end, S2.2), a line in another
player's turn the shared record-following layer's (``StockFollower``); 1890's hooks are what
a player may still do (``has_actions``), the certificate limit at a turn's end (S1), the
turn's one certificate (S2.1) and the round's end (S3.1, S3.2).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Optional

from ...actions import Bid, BuyCompany, BuyShares, Par, Pass, SellShares
from ...findings import RuleViolation
from ...market import restore_price
from ...following.stock import StockFollower
from ...rounds.stock import StockRound
from ...schema import is_unknown
from ...steps.stock import StockTurnStep, TurnStep
from .components import par_values
from .holdings import par_cell


def refused(rule: str, message: str, notes: list, certificate=None) -> RuleViolation:
    """A refusal that comes after findings the line already made (flagged before it, in the
    order the checks met them); ``certificate``: the purchase still counts as the turn's
    certificate (the title's reading since before the move, kept: no verdict changes)."""
    v = RuleViolation(rule, message)
    v.notes = list(notes)                   # type: ignore[attr-defined]
    v.certificate = certificate             # type: ignore[attr-defined]
    return v


class RoundOfTheRecord:
    """A 1890 round as the record plays it: its turns (a turn is one actor's consecutive
    lines; a new actor, or in the auction and a stock round any line after its actor's pass,
    begins another: :meth:`take_action`, :meth:`close_turn`), and as the analyser reads it
    (the shared ``Game.round``): its label the record's marker's (``OR 2.1``), whose turn the
    actor of the turn at hand until a pass ends it, no step named.  Each round says what a
    turn's beginning and end mean (``turn_begins``, ``turn_ends``) and plays a line
    (``play_action``)."""

    replay: Any
    kind: str
    #: the title's replay, its game, flags and map: the state a round refers to, pictured on
    #: their own, not the round's (``snapshot.state_snapshot``)
    not_state = ("replay", "r", "h", "st", "map")
    #: the actor of the turn at hand (a name; None: no turn under way)
    actor: Optional[str] = None
    #: the turn's lines so far (a duty left undone is flagged at its last)
    lines: tuple | list = ()
    #: the turn was ended by its actor's pass (the auction's and a stock round's)
    ended = False

    @property
    def label(self) -> str:
        return self.replay.round_label

    def describe_turn(self) -> str:
        return (self.actor or "") if not self.ended else ""

    def describe_step(self) -> str:
        return ""

    def take_action(self, action) -> None:
        """One line of the record in the round's turns: it begins a turn when its actor is
        not the turn's, or the turn's pass ended it (the turn at hand ends first), then the
        round plays it."""
        if action.actor != self.actor or self.ended:
            self.close_turn()
            self.actor, self.lines = action.actor, []
            self.turn_begins(action.actor)
        self.lines.append(action)
        self.play_action(action)
        if isinstance(action, Pass) and self.kind != "OR":
            self.ended = True

    def close_turn(self, record_ends: bool = False) -> None:
        """The turn at hand is over (another actor acts, a round marker); at the end of the
        record it may be unfinished (unless its pass ended it): its duties are then not
        checked."""
        if self.actor is not None and self.lines and (not record_ends or self.ended):
            self.turn_ends(self.actor, self.lines)
        self.actor, self.lines, self.ended = None, [], False

    def turn_begins(self, actor: str) -> None:
        """``actor``'s turn begins (only players act in the auction and a stock round)."""
        if not self.game.is_player(actor):
            kind = self.replay.kind
            self.replay.flag("turn.actor", f"{actor} is not a player: only players act in the "
                                           f"{'auction' if kind == 'auction' else 'stock round'}")

    def turn_ends(self, actor: str, lines: list) -> None:
        """``actor``'s turn, of ``lines``, is over."""

    def play_action(self, action) -> None:
        """A player's line of the auction or a stock round, by the title's handler."""
        self.replay.stock.process(action)

    def process(self, action) -> None:
        """The engine's loop hands the round the record's line: the title's checks first
        (``TitleKansai.take``: a company not in play, a bankruptcy), then the round's turns
        (:meth:`take_action`)."""
        self.replay.take(action)


class StockFollower1890(StockFollower):
    """The shared stock round's record-following, with one reading of 1890's notation: a
    player's lines in a row are his turn, so a line out of turn whose next line is its own
    player's is his turn taken (not a line written in the turn of the player before him, the
    shared ``stands_in``): his second certificate in it is S2.1's finding."""

    def stands_in(self, action, player) -> bool:
        nxt = self.game.following.next_action
        if getattr(nxt, "actor", None) == player.name:
            return False
        return super().stands_in(action, player)


class StockRound1890(RoundOfTheRecord, StockRound):
    """The shared stock round with 1890's steps, on the game's shared state (``Holdings``,
    a shared ``Game``).  Its turns are the shared round's (``StockRound.turn_action``: whose
    turn it is, a player with nothing he may do passed over, the passes in a row and the
    round's end, S2.2), a line in another player's turn the shared record-following layer's
    (``StockFollower.place``); 1890's own are the certificate limit at a turn's end (S1), the
    turn's one certificate (S2.1) and the round's end (S3.1, S3.2)."""

    def __init__(self, replay):
        #: the title's replay (its flags, its numbers and the ledger)
        self.replay = replay
        super().__init__(replay.holdings)
        #: the turn's certificates bought (what each was; S2.1: one) and whether a sale came
        #: before the first (§8.5)
        self.certificates: list = []
        self.sold_before_buy = False
        #: (player, corporation) sold in this round (SB6: not bought again)
        self.sold_this_round: set = set()
        #: the turn's lines as the record wrote them (a turn ended over the certificate
        #: limit is flagged at its last, S1)
        self.turn_lines: list = []
        #: what the round's end by the rules changed (the priority, the price markers), put
        #: back when the record goes on with the round (``round.continues``)
        self.before_end = None

    # ------------------------------------------------------------------
    # the round and its turns: the shared round's, a line in another player's turn the
    # record-following layer's

    def start(self) -> None:
        """A stock round begins with the priority's holder (S3.1, A7); a player with nothing
        he may do is passed over (the shared ``skip_inactive``)."""
        h = self.game
        self.finished = False
        self.passes = 0
        self.sold_this_round = set()
        self.last_actor = None
        self.acted = False
        self.turns = 0
        self.passed_over, self.auto_passed = set(), set()
        self.ended_by_itself = self.placed = self.before_end = None
        self.actor, self.lines, self.ended = None, [], False
        self.new_turn()
        name = h.priority_name() or (h.names[0] if h.players else None)
        self.current = None if name is None else h.by_name[name]
        h.following.round = StockFollower1890(self)
        if self.current is not None:
            self.skip_inactive()

    def new_turn(self) -> None:
        """A turn's own bookkeeping of 1890's: its certificate and sales (S2.1, §8.5), its
        lines."""
        self.certificates, self.sold_before_buy, self.turn_lines = [], False, []

    def take_turn(self, player) -> None:
        super().take_turn(player)
        self.new_turn()

    def end_turn(self) -> None:
        super().end_turn()
        self.new_turn()

    def take_action(self, action) -> None:
        """One line of the record: the record's view of the turn (the actor of its lines
        until a pass, for the analyser), then the shared round's turn: placed by the
        record-following layer, played by the shared ``turn_action`` through its step."""
        begins = action.actor != self.actor or self.ended
        if begins:
            self.actor, self.lines, self.ended = action.actor, [], False
        self.lines.append(action)
        if isinstance(action, Pass):
            self.ended = True
        h = self.game
        if not h.is_player(action.actor):
            if begins:      # (said once for the lines in a row of one company)
                self.replay.flag("turn.actor", f"{action.actor} is not a player: only players "
                                               f"act in the stock round")
            return
        follower = h.following.round
        if self.finished:
            if follower.passed_over_pass(action):
                return          # a pass the round's end made without a word, written
            self.resume(action)
        self.placed = None
        follower.place(action)      # (its findings stand alone: ``Holdings.flag``)
        self.turn_lines.append(action)
        self.turn_action(action, self.step_for(action))

    def resume(self, action) -> None:
        """S2.2: the round ended by the rules (every player passed in a row), and the record
        goes on with it: taken up again as the record has it (what its end did put back),
        with a finding (the shared ``StockFollower.resume``'s), at the turn of the line's
        player.  A round the rules ended has no turn order to go on with, so the line is not
        also out of turn: one slip (a line after the last pass, the passer's doubled pass
        among them) is one finding (issue 27)."""
        priority, marks = self.before_end
        h = self.game
        h.priority = priority
        for corp, (cell, index) in marks.items():
            restore_price(h.market, corp, cell, index)
        self.finished, self.passes, self.before_end = False, 0, None
        if h.by_name[action.actor] is not self.current:
            self.take_turn(h.by_name[action.actor])
        self.replay.flag("round.continues",
                         f"{self.label} ended by the rules (every player passed in a row), but "
                         f"the record goes on with it: {action.actor}'s '{action.verb}' is taken "
                         f"as part of it")

    def close_turn(self, record_ends: bool = False) -> None:
        """A round marker: the turn at hand, which its player's pass did not end, is over
        (the certificate limit at its end, S1); at the record's end it may be unfinished (its
        duties not checked)."""
        if not record_ends and not self.finished and self.acted and self.current is not None:
            self.check_cert_limit_kept(self.current)
        self.actor, self.lines, self.ended = None, [], False

    def check_cert_limit_kept(self, player) -> None:
        self.over_limit(player.name, self.turn_lines or [self.game.current_action])

    def has_actions(self, player) -> bool:
        """Whether ``player`` may do something when his turn comes: sell, buy a certificate,
        set a par, buy a private from another player (S2.1); a turn under way goes on.  Never
        known to be nothing while money is not tracked or his cash is not sure (each try is a
        pure look: the checks skipped in it are not counted)."""
        if player.bankrupt:
            return False
        if self.acted and player is self.current:
            # the turn under way ends at its player's pass or the next player's line, as the
            # record writes it (a turn is one player's lines in a row): his next line is in
            # his turn (a second certificate is S2.1's, not a line out of turn)
            return True
        r, h = self.replay, self.game
        if not r.ledger.on or not h.unsure.sure(player.name):
            return True
        import copy
        skipped = copy.deepcopy(r.unsure.skipped)
        try:
            return any(self.could(player, a) for a in self.tries(player))
        finally:
            r.unsure.skipped.clear()
            r.unsure.skipped.update(skipped)

    def tries(self, player):
        """The lines ``player`` could write now, one of each kind (a pure look)."""
        h, rules = self.game, self.replay.rules
        name = player.name
        pars = par_values(rules.components) or []
        for spec in rules.corporations:
            corp = spec.sym
            if corp in self.replay.not_in_play:
                continue
            if spec.kind == "minor":
                if h.minor_owner(corp) is None:
                    yield BuyShares(actor=name, corporation=corp)
                continue
            if h.par(corp) is None:
                for price in ([int(spec.extra["par"])] if corp == "JR" else pars[:1]):
                    yield Par(actor=name, corporation=corp, price=price)
                continue
            yield BuyShares(actor=name, corporation=corp, source="ipo")
            yield BuyShares(actor=name, corporation=corp, source="pool")
            if h.percent(corp, name):
                from ...actions import Sale
                yield SellShares(actor=name, sales=[Sale(corporation=corp)])
        for late in rules.late_companies:
            yield Bid(actor=name, company=late.sym)
        for company in h.companies.values():
            owner = company.owner
            if owner is not player and h.is_player(getattr(owner, "name", None)):
                # a private from another player, at a price agreed (S2.1): from 1
                yield BuyCompany(actor=name, company=company.sym, price=1)

    def could(self, player, action) -> bool:
        """``action`` would be taken without a finding (a pure look)."""
        step = self.step_for(action)
        if not isinstance(step, Step1890):
            return False
        try:
            plan = step.check(player, action)
        except RuleViolation:
            return False
        sales = getattr(plan, "sales", None) or []
        return not plan.notes and all(not notes and one is not None for notes, one in sales)

    def over_limit(self, player: str, lines: list) -> None:
        """S1: a player over the certificate limit sells in his turn: a turn
        ending over it while a counting share could still be sold is flagged."""
        r, h = self.replay, self.game
        st, led = r.state, r.ledger
        have = h.cert_limit_exceeded(h.by_name[player], 0)
        if have is None:
            return
        held = [c.sym for c in h.majors() if h.percents(c.sym, player)]
        if any(not led.sure("price:" + c) for c in held):
            r.skip("the certificate limit after a turn (a share price is not sure)",
                   ("market", "rows"), reason="a share price is not sure")
            return
        sellable = [c for c in held
                    if 10 in h.percents(c, player) and h.corporations[c].operated
                    and r.sr_number > 1
                    and h.title.counts_for_cert_limit(h.corporations[c])
                    and h.pool(c) + 10 <= h.pool_limit(h.corporations[c])
                    and not (st.free_share.get(c) == player and not h.president_bought(c))]
        if sellable:
            r.flag("stock.over_cert_limit",
                   f"{player} holds {have} certificates, over the limit of {h.cert_limit}, and "
                   f"ends the turn without selling down to it (S1: {', '.join(sorted(sellable))} could "
                   f"be sold)", action=lines[-1])

    def finish(self) -> None:
        """The round's end: the next starts left of the last player who acted (S3.1: the
        shared ``set_priority``, ``stock.next_sr_order: after_last_to_act``); a company whose
        every share found a buyer moves one row up, not from the top row (S3.2), in the order
        of the pars.  What it changes is kept to put back should the record go on with the
        round (:meth:`resume`)."""
        r, h = self.replay, self.game
        marks = {}
        for c in h.corporations.values():
            if c.price is not None and c in h.market.stack(c.price):
                marks[c] = (c.price, h.market.stack(c.price).index(c))
        self.before_end = (h.priority, marks)
        self.set_priority()
        led = r.ledger
        for corp in list(h.marked):
            if h.pool(corp) == 0 and not led.cell(corp).row == 0:
                if h.sold_percent(corp) >= led.issued(corp):
                    led.move(corp, "up")
        self.finished = True

    def step_classes(self) -> list:
        return [ParStep1890, BuySharesStep1890, SellSharesStep1890, BuyPrivateStep1890,
                LatePrivateStep1890, StockTurnStep1890]

    def play(self, step_class, action, player=None) -> None:
        """``action`` (a player's) through its step: checked, then applied; a refusal is a
        finding (after the notes the line made before it) and changes nothing (which the
        engine's replay proves when it checks purity: ``Replay.purity_after``)."""
        step = self.step_by_type(step_class)
        player = player if player is not None else self.game.by_name[action.actor]
        r = self.replay
        before = r.replayer.purity_before(action)
        try:
            plan = step.check(player, action)
        except RuleViolation as v:
            r.replayer.purity_after(before, action, r.kind, v.rule)
            for rule, message in getattr(v, "notes", ()):
                r.flag(rule, message)
            r.flag(v.rule, v.message)
            if getattr(v, "certificate", None) is not None:
                self.count_certificate(player.name, v.certificate)
            return
        step.apply(player, action, plan)


    # ------------------------------------------------------------------
    # the turn's certificate and sales (read and counted by the steps)

    def in_turn(self, player: str) -> bool:
        """``player``'s line is in his stock-round turn (the auction's purchases are not)."""
        return self.replay.kind == "SR" and self.current is not None \
            and player == self.current.name

    def certificate_note(self, player: str, count: int, what: str):
        """S2.1 ("kupno 1 certyfikatu"), §8.2: a stock round's turn buys one certificate
        (a president's certificate, a share, a minor or a late private); a second one is a
        finding (rule, message), taken as bought, as the record says; None: the first."""
        if not self.in_turn(player):
            return None
        bought = self.certificates
        if bought or count > 1:
            first = bought[0] if bought else what
            return ("stock.one_buy",
                    f"{player} already bought a certificate this turn ({first}); a turn buys "
                    f"one certificate (S2.1)" if bought else
                    f"{player} buys {count} certificates of {what} in one turn; a turn buys one "
                    f"certificate (S2.1)")
        return None

    def count_certificate(self, player: str, what: str) -> None:
        """The turn's purchase of ``what`` (S2.1)."""
        if self.in_turn(player):
            self.certificates.append(what)

    def sales_at_once_note(self, player: str):
        """S2.1 against §8.5: the summary lets a turn sell, buy one certificate and sell again;
        the rule book's "all sales must be done at once" (``rulebook.sales_in_turn:
        all_at_once``) refuses a sale after a purchase that a sale came before: the finding
        (rule, message), or None."""
        if not self.in_turn(player):
            return None
        if self.certificates and self.sold_before_buy and \
                self.replay.rules.number("rulebook", "sales_in_turn") == "all_at_once":
            return ("stock.sell_buy_order",
                    f"{player} sold, bought and sells again in one turn; all sales are made at "
                    f"once, before or after the purchase (rule book §8.5, "
                    f"rulebook.sales_in_turn: all_at_once)")
        return None

    def count_sale(self, player: str) -> None:
        """A sale in the turn, before its purchase (S2.1, §8.5)."""
        if self.in_turn(player) and not self.certificates:
            self.sold_before_buy = True


class StockTurnStep1890(StockTurnStep):
    """The players' turns (passes) and what no other step of 1890's stock round takes: a
    private of the auction bid for, any other kind of action (flagged; the line still counts
    as the player's action in his turn, as the record has him act)."""

    def process(self, player, action) -> None:
        if isinstance(action, Pass):
            return
        r = self.round.replay
        if isinstance(action, Bid):
            r.flag("stock.action", f"{action.company} is sold in the auction, not in a stock "
                                   f"round")
            return
        r.flag("stock.action", f"'{action.verb}' is not an action of the stock round")


class Step1890(TurnStep):
    """A step of 1890's stock round: its findings are the replay's."""

    def process(self, player, action) -> None:
        """Checked, then applied; a refusal is a finding (:meth:`StockRound1890.play`)."""
        self.round.play(type(self), action, player)

    @property
    def r(self):
        return self.round.replay

    @property
    def h(self):
        return self.game

    @property
    def handler(self):
        return self.round.replay.stock

    def flag_notes(self, notes) -> None:
        for rule, message in notes:
            self.r.flag(rule, message)

    def cash_note(self, notes: list, who: str, amount, what: str) -> None:
        """A payment over the payer's cash: a note (taken as paid, as the record says)."""
        over = self.r.ledger.over(who, amount, what)
        if over is not None:
            notes.append(("stock.cash", over))

    def certificate_note(self, notes: list, player: str, count: int, what: str) -> None:
        note = self.round.certificate_note(player, count, what)
        if note is not None:
            notes.append(note)


class ParStep1890(Step1890):
    name = "starting a company"
    actions = (Par,)

    def check(self, player, action: Par):
        r, h = self.r, self.h
        corp, name = action.corporation, player.name
        if h.par(corp) is not None:
            raise RuleViolation("stock.par_twice", f"{corp} already has its par value "
                                                   f"{r.money(h.par(corp))}")
        spec = r.rules.corp_by_sym.get(corp)
        if spec is None or spec.kind == "minor":
            raise RuleViolation("stock.par_price", f"{corp} is a minor: it has no par value")
        notes: list = []
        if corp == "JR" and action.price != int(spec.extra["par"]):
            notes.append(("kansai.jr_par", f"JR's par value is {r.money(spec.extra['par'])}, "
                                           f"not {r.money(action.price)} (J0)"))
        elif corp != "JR":
            pars = par_values(r.rules.components)
            if pars is None:
                r.skip("par values", ("market", "rows"))
            elif action.price not in pars:
                notes.append(("stock.par_price", f"{r.money(action.price)} is not a par value; "
                                                 f"the par cells are "
                                                 f"{', '.join(map(str, pars))}"))
        plan = SimpleNamespace(notes=notes, corp=corp, price=action.price, setter=False,
                               what=f"{corp}'s president's certificate")
        if corp in ("KNR", "OMS") and not (corp == "KNR" and r.knr_normal):
            # K6, C5: set by M2's / OMER's owner
            owner_of = "M2" if corp == "KNR" else "OMER"
            owner = h.minor_owner(owner_of) if corp == "KNR" else h.owner_of(owner_of)
            if owner != name:
                notes.append(("kansai.par_setter", f"{corp}'s par value is set by the owner of "
                                                   f"{owner_of} ({owner or 'nobody yet'}), not "
                                                   f"by {name}"))
            plan.setter = True
            return plan
        self.certificate_note(notes, name, 1, plan.what)
        self.cash_note(notes, name, 2 * action.price,
                       f"{corp}'s president's certificate (2 x par {r.money(action.price)})")
        return plan

    def apply(self, player, action: Par, plan) -> None:
        r, h, led = self.r, self.h, self.r.ledger
        name, corp, price = player.name, plan.corp, plan.price
        self.flag_notes(plan.notes)
        if plan.setter:
            h.corporations[corp].par = par_cell(price)
            led.set_par(corp, price)
            return
        self.round.count_certificate(name, plan.what)
        h.corporations[corp].par = par_cell(price)
        led.set_par(corp, price)
        h.give(corp, name, [20])
        led.pay(name, "bank", 2 * price, f"{name} bought {corp}'s president's certificate for "
                                         f"{r.money(2 * price)}")
        led.check_limits(name, corp)
        self.handler.floats(corp)


class BuySharesStep1890(Step1890):
    name = "buying a certificate"
    actions = (BuyShares,)

    def check(self, player, action: BuyShares):
        r, h, led = self.r, self.h, self.r.ledger
        corp, name = action.corporation, player.name
        spec = r.rules.corp_by_sym.get(corp)
        if spec is None:
            raise RuleViolation("stock.no_share", f"{corp} is not a company")
        notes: list = []
        if spec.kind == "minor":                     # N0: a minor at its printed price
            where = r.number("where the minors are sold", "rulebook", "minors_sold_in")
            round_name = "auction" if r.kind == "auction" else "stock_round"
            if not is_unknown(where) and where != round_name:
                notes.append(("kansai.minor_sale_round",
                              f"the minors are sold in the {where.replace('_', ' ')} "
                              f"(rulebook.minors_sold_in), not in the "
                              f"{round_name.replace('_', ' ')}"))
            if h.minor_owner(corp) is not None:
                raise refused("stock.no_share", f"{corp} is owned by {h.minor_owner(corp)}",
                              notes)
            self.certificate_note(notes, name, 1, corp)
            price, capital = int(spec.extra["price"]), int(spec.extra["capital"])
            self.cash_note(notes, name, price, f"{corp} ({spec.name})")
            return SimpleNamespace(notes=notes, corp=corp, minor=True, price=price,
                                   capital=capital)
        if r.kind != "SR":
            raise refused("stock.action", f"shares of {corp} are bought in a stock round", notes)
        if (name, corp) in self.round.sold_this_round:
            notes.append(("stock.rebuy", f"{name} sold {corp} this round and may not buy it "
                                         f"again (SB6)"))
        if h.par(corp) is None:
            raise refused("stock.not_parred", f"{corp} has no par value yet: its first "
                                              f"certificate is bought with 'par'", notes)
        count = action.count or 1
        self.certificate_note(notes, name, count, corp)
        pool = action.source == "pool"
        each = led.price(corp) if pool else h.par(corp)
        if each is not None:
            self.cash_note(notes, name, each * count,
                           f"{'a' if count == 1 else count} {corp} share{'s' if count > 1 else ''}"
                           f" {'from the pool' if pool else 'at par'}")
        if pool:
            if h.pool(corp) < 10 * count:
                raise refused("stock.no_share", f"the pool holds {h.pool(corp)}% of {corp}",
                              notes, certificate=corp)
        elif corp == "KNR" and not r.knr_normal:     # K7: only 4 KNR shares are for sale
            for_sale = int(r.rules.knr["for_sale_shares"])
            bought = self.handler.knr_bought()
            if bought + count > for_sale:
                raise refused("kansai.knr_reserved_share",
                              f"only {for_sale} KNR shares are for sale and {bought} have been "
                              f"bought; the others are reserved for the minors' conversions "
                              f"(K7)", notes, certificate=corp)
        source = "pool" if pool else "ipo"
        if not h.holds(corp, source, [10] * count):
            raise refused("stock.no_share", f"the IPO holds "
                                            f"{h.corporations[corp].percent_of('ipo')}% of {corp}:"
                                            f" no {10 * count}% to buy", notes, certificate=corp)
        return SimpleNamespace(notes=notes, corp=corp, minor=False, count=count, each=each,
                               source=source)

    def apply(self, player, action: BuyShares, plan) -> None:
        r, h, led = self.r, self.h, self.r.ledger
        name, corp = player.name, plan.corp
        self.flag_notes(plan.notes)
        self.round.count_certificate(name, corp)
        if plan.minor:
            h.buy_minor(corp, name)
            # N0-N5: the printed price to the bank, the printed capital from the bank
            led.pay(name, "bank", plan.price, f"{name} bought {corp} for {r.money(plan.price)}")
            led.pay("bank", corp, plan.capital, f"{corp} starts with its capital "
                                                f"{r.money(plan.capital)}")
            led.check_limits(name, None)
            if r.kind == "auction":
                self.handler.acquired.append((action.line, name))
                self.handler.minor_bought = (action.line, name)
            return
        h.give(corp, name, [10] * plan.count, source=plan.source)
        if plan.each is not None:
            led.pay(name, "bank", plan.each * plan.count,
                    f"{name} bought {10 * plan.count}% of {corp} for "
                    f"{r.money(plan.each * plan.count)}")
            if plan.source == "pool":
                led.price_paid(name, corp)
        led.check_limits(name, corp)
        self.handler.floats(corp)


class SellSharesStep1890(Step1890):
    """A sale of shares (in a stock round, or a president's for a train in an operating
    round, B0): each corporation's sale is checked on its own and refused alone."""

    name = "selling shares"
    actions = (SellShares,)

    def check(self, player, action: SellShares):
        notes: list = []
        note = self.round.sales_at_once_note(player.name)
        if note is not None:
            notes.append(note)
        corps = [s.corporation for s in action.sales]
        # a line that names one company twice: its later sales are checked after the
        # earlier ones are made (:meth:`apply`)
        sequential = len(set(corps)) < len(corps)
        sales = None if sequential else [self.check_sale(player.name, s) for s in action.sales]
        return SimpleNamespace(notes=notes, sales=sales)

    def check_sale(self, player: str, sale):
        """One corporation's part of the line: (its notes, its plan or None: refused)."""
        r, h, st = self.r, self.h, self.r.state
        corp = sale.corporation
        count = sale.count or 1
        held = h.percents(corp, player)
        free_holder = st.free_share.get(corp)
        notes: list = []
        if free_holder == player and not h.president_bought(corp) and sum(held) <= 10 * count:
            notes.append(("kansai.free_share_sale",
                          f"{player}'s {corp} share is the free one of "
                          f"{'Hanshin' if corp == 'HER' else 'Keishin'} Tramway: it may be sold "
                          f"only once {corp}'s president's certificate is bought (C1, C4)"))
        elif r.sr_number <= 1 and r.kind == "SR":
            notes.append(("stock.sell_first_round", "no shares may be sold in the first stock "
                                                    "round (SS1)"))
        elif not h.corporations[corp].operated:
            notes.append(("stock.sell_before_operating", f"{corp} has not operated yet: its "
                                                         f"shares may not be sold (SS1)"))
        tens = [c for c in held if c == 10]
        taker = None
        if len(tens) < count:
            if 20 not in held or sum(held) < 10 * count:
                notes.append(("stock.sell_not_owned", f"{player} holds {sum(held)}% of {corp}, "
                                                      f"not {10 * count}% to sell besides the "
                                                      f"president's certificate (SS3)"))
                return notes, None
            # SS3, §8.3.2, §6.5: the president's certificate is never sold; it changes
            # hands by exchange with a player who would then hold more
            keeps = sum(held) - 10 * count
            taker = self.handler.new_president(corp, player, keeps)
            if taker is None:
                notes.append(("stock.president_cert",
                              f"{player} is president of {corp} with {sum(held)}%; selling "
                              f"{10 * count}% would leave {keeps}% and no other player would "
                              f"hold more to take the president's certificate in exchange "
                              f"(SS3)"))
                return notes, None
        pool = r.rules.stock.pool_limit
        if h.pool(corp) + 10 * count > pool:
            notes.append(("stock.pool_limit", f"selling {10 * count}% of {corp} would put "
                                              f"{h.pool(corp) + 10 * count}% in the pool, over "
                                              f"the {pool}% limit"))
            return notes, None
        return notes, SimpleNamespace(corp=corp, count=count, taker=taker,
                                      free_holder=free_holder)

    def apply(self, player, action: SellShares, plan) -> None:
        self.flag_notes(plan.notes)
        self.round.count_sale(player.name)
        for i, sale in enumerate(action.sales):
            notes, one = plan.sales[i] if plan.sales is not None else \
                self.check_sale(player.name, sale)
            self.flag_notes(notes)
            if one is not None:
                self.apply_sale(player.name, one)

    def apply_sale(self, player: str, one) -> None:
        r, h, st, led = self.r, self.h, self.r.state, self.r.ledger
        corp, count = one.corp, one.count
        if one.taker is not None:       # two of the taker's shares for the certificate
            h.exchange(corp, player, one.taker)
        h.take_back(corp, player, count)
        h.update_president(h.corporations[corp])
        each = led.price(corp)
        if each is not None:            # SS4: at the current price, then a row down per 10%
            led.pay("bank", player, each * count, f"{player} sold {10 * count}% of {corp} for "
                                                  f"{r.money(each * count)}")
            led.price_paid(player, corp)
            led.move(corp, "down", count)
        self.round.sold_this_round.add((player, corp))
        if one.free_holder == player:
            st.free_share.pop(corp, None)


class BuyPrivateStep1890(Step1890):
    """S2.1: a private from another player, at any price; not OMER (P7), not a late private
    (L0), not Hankai Tramway from phase 4 (P3)."""

    name = "buying a private"
    actions = (BuyCompany,)

    def check(self, player, action: BuyCompany):
        r, h = self.r, self.h
        sym, buyer = action.company, player.name
        owner = h.owner_of(sym)
        late = sym in [c.sym for c in r.rules.late_companies] or sym == "M5"
        if owner is None or not h.is_player(owner):
            raise RuleViolation("private.owner", f"{sym} is not held by a player")
        if action.seller is not None and action.seller != owner:
            raise RuleViolation("private.seller", f"{sym} is held by {owner}, not "
                                                  f"{action.seller}")
        if h.private_closed(sym) and not late:
            raise RuleViolation("private.closed", f"{sym} is closed")
        if sym == "OMER" or late or (sym == "HKT" and r.phase_at_least("4")):
            why = {"OMER": "OMER never changes hands (P7)"}.get(
                sym, "a late private is never sold (L0)" if late else
                "Hankai Tramway may no longer be sold from phase 4 (P3)")
            raise RuleViolation("private.no_sale", f"{sym} may not be sold: {why}")
        notes: list = []
        self.cash_note(notes, buyer, action.price, f"{sym} from {owner}")
        return SimpleNamespace(notes=notes, sym=sym, owner=owner)

    def apply(self, player, action: BuyCompany, plan) -> None:
        r = self.r
        buyer = player.name
        self.flag_notes(plan.notes)
        r.ledger.pay(buyer, plan.owner, action.price, f"{buyer} bought {plan.sym} from "
                                                      f"{plan.owner} for "
                                                      f"{r.money(action.price)} (S2.1)")
        self.h.set_owner(plan.sym, buyer)


class LatePrivateStep1890(Step1890):
    """L0: a late private, from the bank, once the first 3-train is sold (in a stock round;
    written as a bid or a purchase)."""

    name = "buying a late private"
    actions = (Bid,)

    def owns(self, action) -> bool:
        return isinstance(action, Bid) and \
            action.company in [c.sym for c in self.r.rules.late_companies]

    def check(self, player, action: Bid):
        r, h = self.r, self.h
        sym, name = action.company, player.name
        notes: list = []
        first = r.rules.late.available_on                                   # L0
        if not h.bought(first):
            notes.append(("kansai.late_private_early",
                          f"{sym} is a late private: it may be bought once the first "
                          f"{first}-train is sold (phase {r.phase.name}, no {first}-train sold "
                          f"yet)"))
        if h.owner_of(sym) is not None:
            raise refused("auction.sold", f"{sym} is already owned by {h.owner_of(sym)}", notes)
        value = r.number("late private prices", "late_companies", sym, "value")
        if action.price is not None:
            if not is_unknown(value) and action.price != value:
                notes.append(("auction.buy_price", f"{sym} costs {r.money(value)}, not "
                                                   f"{r.money(action.price)}"))
        self.certificate_note(notes, name, 1, sym)
        paid = action.price if action.price is not None else value
        if not is_unknown(paid):        # taken as paid at the record's price
            self.cash_note(notes, name, paid, sym)
        return SimpleNamespace(notes=notes, sym=sym, paid=paid)

    def apply(self, player, action: Bid, plan) -> None:
        r, h, led = self.r, self.h, self.r.ledger
        name, sym = player.name, plan.sym
        self.flag_notes(plan.notes)
        self.round.count_certificate(name, sym)
        if is_unknown(plan.paid):
            led.mark_unsure(name, "late private prices", ("late_companies", sym, "value"))
        else:
            led.pay(name, "bank", plan.paid, f"{name} bought {sym} for {r.money(plan.paid)} "
                                             f"(L0)")
        h.set_owner(sym, name)
        if sym == "KRTR":
            r.operating.krtr_starts()
