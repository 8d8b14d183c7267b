"""Kansai's operating rounds: the companies' turns and the title's own rules.

Minors operate by their numbers (N0) and convert into Kinki Nippon Railway in
their turns (K1-K5, N1-N4); KNR operates at once after Osaka Electric
Railroad converts (K8); Kobe Electric Railway may privatise (N5).  JR lays two
tiles on different hexes in phases 1-3 (J3) and pays no or half a dividend
until phase 6 (J2).  OMS operates from phase 4 (C5).  A 2+2 runs through at
most two cities or off-boards (O3b).  Kobe Rapid Transit's station in Kobe is
passed only by the companies that paid its 100 or had a station there before
it started (L2).  Companies buy privates in phases 2-3 only, at half to twice
the face value (O6, F9).
"""

from __future__ import annotations

import dataclasses
from typing import Optional

from ...actions import Bankrupt, Exchange, LayTile, Pass, PlaceToken
from ...findings import RuleViolation
from ...rounds.operating import OperatingRound, Turn
from ...following.operating import OperatingFollower
from ...schema import is_unknown
from .orsteps import (MINOR_NAMES, BankruptStep1890, BuyCompanyStep1890, BuyTrainStep1890,
                      ConvertStep1890, DiscardTrainStep1890, DividendStep1890,
                      EmergencySaleStep1890, IgnoreStationStep1890, LayTileStep1890,
                      PlaceTokenStep1890, PrivatiseStep1890, RunRoutesStep1890)


class Turn1890(Turn):
    """A company's operating turn: the shared ``Turn`` (the hexes laid on, ``laid_on``, Arima's
    and OMER's extra tiles included; the lays of its allowance, ``tile_lays``; the revenue;
    the dividend decided), whether it ran its trains (O3: once; a run may have no written
    revenue) and the record's lines of it (a duty left undone is flagged at the last)."""

    def __init__(self, corp):
        super().__init__(corp)
        self.ran = False
        self.lines: list = []
        #: the company's second turn in the operating round (its turn in its place of the
        #: order was taken): flagged at its first line, taken as written, its end's duties
        #: not run again (:meth:`OperatingRound1890.second_turn`)
        self.again = False


class OperatingFollower1890(OperatingFollower):
    """The shared operating round's record-following (``OperatingFollower``: each company's
    line placed in the order the round walks, a company acting later than the order taking
    its turn with the companies between taking empty ones, or waiting when the record has
    them operate later, a line written in another company's turn taken as that company's),
    with 1890's readings as hooks: a company whose turn may not begin (not floated, a minor
    converted or closed, OMS before phase 4, KNR before M2's conversion) takes the record's
    turn as written, flagged where it begins (:meth:`may_start`); a company that already
    operated in the round takes a second turn, one finding (:meth:`may_start`); which pairs
    of companies taken in the record's order are a finding, and with which rule
    (:meth:`flag_order`: N0, K8, O0b); a discard is its company's line like any other."""

    def in_no_turn(self, action) -> bool:
        # (1890's discard is a line of its company's turn: O5c is flagged at a turn's end)
        return isinstance(action, Exchange)

    def place(self, action) -> None:
        rnd = self.round
        held = rnd.interrupted
        if held is not None and action.actor == held.corp.sym:
            # the turn a second turn interrupted goes on (one finding: the second turn's)
            rnd.take_up_interrupted()
            return
        corp = self.game.corporations.get(action.actor)
        if corp is not None and self.stray_line(corp, action):
            return
        super().place(action)

    def stray_line(self, corp, action) -> bool:
        """A line of ``corp``, a company yet to operate in the round, alone (the record's
        next line is another's), written before companies the order puts first, which the
        record has operate before ``corp`` acts again, in its place.  Each company operates
        once, in its place (the rule book's "Operating Round"), so the line is the slip, one
        finding (the order's: N0, K8, O0b, ``flag_order``), taken as written in
        a turn of its own whose start and end are not run (``OperatingRound1890.stray_turn``);
        the turn under way goes on, and ``corp``'s turn comes in its place."""
        rnd, g = self.round, self.game
        t = rnd.turn
        if (t is not None and t.corp is corp) or corp.sym in rnd.first_turns \
                or corp not in rnd.order[rnd.index + 1:]:
            return False
        nxt = g.following.next_action
        if nxt is None or getattr(nxt, "actor", None) in (None, corp.sym):
            return False
        later = self.record_operates_later()
        if corp not in later:
            return False
        between = rnd.order[rnd.index + 1: rnd.order.index(corp)]
        waiting = [c for c in between if c in later]
        fresh = [c for c in waiting if (corp.sym, c.sym) not in g.following.order_flagged]
        if not fresh:
            return False
        g.following.order_flagged.update((corp.sym, c.sym) for c in waiting)
        if not self.flag_order(corp, waiting):
            return False        # (an order 1890 does not check: the walk's reading)
        rnd.stray_turn(corp)
        return True

    def may_start(self, corp) -> bool:
        """A company that already took its turn in this round acting again takes a second
        turn (:meth:`OperatingRound1890.second_turn`, flagged once); one the order does not
        call for now (why its turn may not begin is flagged where it begins,
        ``OperatingRound1890.start_turn``; with money not tracked the main companies are in
        no order) is moved up: the record's turn is taken as written."""
        rnd = self.round
        if corp in rnd.order[: rnd.index + 1]:
            rnd.second_turn(corp)
            return False
        if corp not in rnd.order[rnd.index + 1:]:
            rnd.move_up(corp)
        return True

    def written_in_turn(self, corp, action) -> bool:
        """The shared reading (a line written in the turn under way, whose company the
        record goes on with, taken as that company's), where that company could take the
        line with no finding: else the line is its own company's (its turn, or its second
        one), which the rules then judge (one finding, not the stand-in's and the
        consequence of reading it so)."""
        if corp.sym in self.round.first_turns or not isinstance(action, (LayTile, PlaceToken)):
            return False
        return super().written_in_turn(corp, action) and \
            self.turn_could_take(self.round.turn, action)

    def turn_could_take(self, t, action) -> bool:
        """The turn's company could take ``action`` under its own name with no finding: its
        step's pure check neither refuses it nor notes anything taken as written."""
        step = self.round.step_of(action)
        if step is None or not step.available(t):
            return False
        mine = dataclasses.replace(action, actor=t.corp.sym)
        ok, plan = self.game.clean_attempt(lambda: step.check(t, mine))
        return ok and not getattr(plan, "notes", None)

    def flag_order(self, corp, waiting: list) -> bool:
        """``corp`` acts before ``waiting``, which the record has operate later in the round:
        KNR's turn at once after M2's conversion (K8, ``kansai.knr_at_once``); the minors by
        number (N0); a minor before a main company only with ``rulebook.minors_operate:
        first``; a main company ranked before by price both at the round's start and now
        (O0b: the summary does not say which; a price not sure skips the pair).  The first
        pair that is a finding is flagged (one finding for the line: True)."""
        rnd = self.round
        r = rnd.r
        for other in waiting:
            if other.sym == "KNR" and rnd.knr_due:
                r.flag("kansai.knr_at_once", f"KNR operates at once after Osaka Electric "
                                             f"Railroad converts (K8), before {corp.sym}; "
                                             f"taken in the record's order")
                return True
            if other.kind == "minor":
                if corp.kind == "minor":
                    r.flag("turn.order", f"minors operate by their numbers (N0): {corp.sym} "
                                         f"before {other.sym}; taken in the record's order")
                    return True
                if r.rules.number("rulebook", "minors_operate") == "first":
                    r.flag("turn.order", f"the minors operate before the main companies "
                                         f"(rulebook.minors_operate: first): {corp.sym} before "
                                         f"{other.sym}; taken in the record's order")
                    return True
                continue
            if corp.kind != "minor" and rnd.price_order_broken(corp.sym, other.sym):
                return True
        return False


class OperatingRound1890(OperatingRound):
    """The shared operating round with 1890's steps (``orsteps.py``), on the game's shared
    state (``Holdings``, a shared ``Game``), and 1890's turns: the order (minors by number,
    N0; KNR at once after M2's conversion, K8; the main companies by price, O0b; OMS from
    phase 4, C5), a turn's end (O4a, O5, O5c, K1), the turns the record left out (O4a), the
    presidents' emergency sales and bankruptcies (B0-B4, E1).  The order is the shared
    ``Game.operating_order`` with 1890's hooks, walked: each company's line is placed by the
    shared record-following layer (``OperatingFollower1890``), which begins its turn in the
    order and gives the companies the record left out their empty turns
    (``skip_turns_until``, with 1890's ``end_turn``)."""

    turn_class = Turn1890
    #: 1890 flags a turn ended over the train limit (O5c) at its end (``end_turn``)
    force_discards = False
    #: the title's replay, its game, flags and map: the state the round refers to, pictured
    #: on their own, not the round's (``snapshot.state_snapshot``)
    not_state = ("replay", "r", "h", "st", "map")
    #: the actor of the record's line at hand (a company, or a president selling for a
    #: train): the analyser's view of whose turn it is (``describe_turn``); None between
    #: turns
    actor: Optional[str] = None

    @property
    def label(self) -> str:
        """The record's round marker's (``OR 2.1``), as the analyser names the round."""
        return self.replay.round_label

    def describe_turn(self) -> str:
        return self.actor or ""

    def describe_step(self) -> str:
        return ""

    def __init__(self, replay):
        #: the title's replay (its flags, its numbers, its turn and the ledger)
        self.replay = self.r = replay
        super().__init__(replay.holdings)
        self.st = replay.state
        self.h = replay.holdings
        self.knr_shares_given = 0
        #: main companies that took a turn in this OR, in order
        self.majors_done: list = []
        self.knr_due = False
        #: B0: the presidents' sales for the current turn: (company, player, proceeds, a share's
        #: price)
        self.sales: list = []
        #: O0b: the main companies' order keys at the OR's start; who operated in it
        self.start_keys: dict = {}
        self.operated_this_or: set = set()
        #: each company's turn in this OR (its first)
        self.first_turns: dict = {}
        #: the turn a second turn interrupted (it goes on when its company acts next)
        self.interrupted: Optional[Turn1890] = None

        #: the shared ``start`` is under way (the first turn begins at the record's first line)
        self.starting = False
        from .mapcheck import KansaiMap
        #: the components file's map on the shared board, when it gives one
        self.map = KansaiMap(replay)
        #: the revenue of the turn's run (JR's half dividend, J2)
        self.last_revenue = None
        #: the players' steps: the operating company's president raising money for a train,
        #: or going bankrupt
        self.player_steps = [EmergencySaleStep1890(self), BankruptStep1890(self)]

    def step_classes(self) -> list:
        return [ConvertStep1890, PrivatiseStep1890, IgnoreStationStep1890, LayTileStep1890,
                PlaceTokenStep1890, RunRoutesStep1890, DividendStep1890, BuyTrainStep1890,
                DiscardTrainStep1890, BuyCompanyStep1890]

    def play(self, step_class, action, steps=None) -> None:
        """``action`` (a company's; a player's: ``steps`` the round's ``player_steps``)
        through its step, for the turn at hand: checked, then applied; a refusal is a finding
        (after the notes the line made before it) and changes nothing (which the engine's
        replay proves when it checks purity: ``Replay.purity_after``)."""
        step = next(s for s in (self.steps if steps is None else steps)
                    if isinstance(s, step_class))
        turn = self.turn
        engine = self.r.replayer
        before = engine.purity_before(action)
        try:
            plan = step.check(turn, action)
        except RuleViolation as v:
            engine.purity_after(before, action, self.kind, v.rule)
            plan = getattr(v, "plan", None)
            if plan is not None:
                step.settle_notes(plan)
            self.replay.flag(v.rule, v.message)
            return
        step.apply(turn, action, plan)

    # ------------------------------------------------------------------
    # turns

    def start(self) -> None:
        """An operating round begins: the shared ``OperatingRound.start`` with 1890's hooks,
        the privates' incomes (``Holdings.pay_private_income``: the ledger's, O0a) and the
        operating order (``Game.operating_order`` with ``TitleKansai.operates`` and
        ``operating_order_key``: the minors by number, N0, the main companies by price, O0b,
        OMS from phase 4, C5); and the main companies' order keys in it (O0b).  No turn
        begins before the record's first line (the layer places it)."""
        self.majors_done = []
        self.knr_due = False
        self.interrupted = None
        self.actor = None
        self.starting = True
        try:
            super().start()
        finally:
            self.starting = False
        led = self.r.ledger
        #: O0b: the main companies' order keys at the start of the OR, in the order
        self.start_keys = {c.sym: led.order_key(c.sym) for c in self.order
                           if c.kind != "minor"}
        self.operated_this_or = set()
        self.first_turns = {}
        self.game.following.begin_round(OperatingFollower1890(self))

    def next_corporation(self) -> None:
        """The next company of the order begins its turn (:meth:`start_turn`); a turn ends
        at the next company's line, never by itself (1890's lines in a row are one turn)."""
        if self.starting:
            return
        self.index += 1
        if self.index >= len(self.order):
            self.turn = None
            return
        corp = self.order[self.index]
        self.keep_sales_of(corp)
        self.turn = self.turn_class(corp)
        self.start_turn(corp)

    def keep_sales_of(self, corp) -> None:
        """B0: the presidents' sales written for ``corp`` before the record's turn of it
        begins are kept for it (the others', whose train was not bought, are dropped; the
        empty turns between take none)."""
        self.sales = [x for x in self.sales if x[0] == corp.sym]

    def take_action(self, action) -> None:
        """One line of the record: the record's view of the turn (the actor of its lines,
        for the analyser), then the round's: a company's line placed by the shared
        record-following layer (its turn begun in the order, the companies between taking
        empty turns; a line written in another company's turn taken as that company's) and
        played through its step."""
        self.actor = action.actor
        r = self.r
        if r.rules.corp_by_sym.get(action.actor) is None:
            r.flag("or.player_action", f"{action.actor} is not a company: in an operating "
                                       f"round the companies act")
            return
        self.placed = None
        self.game.following.round.place(action)
        turn = self.turn
        placed = self.placed
        if placed is not None and placed[0] is action and placed[2] == "as":
            # written in another company's turn: checked and applied as that company's
            action = dataclasses.replace(action, actor=placed[1].sym)
        if turn is None:
            return
        turn.lines.append(action)
        self.play_line(action)
        turn.acted = True

    def second_turn(self, corp) -> None:
        """``corp``, whose turn in this round was taken, acts again: each company operates
        once in an operating round, in its place of the order (O0b, N0; the rule book's
        "Operating Round": "all railway companies that can operate will do so in turn
        order"), so the line is one ``turn.order`` finding, and taken as written in a second
        turn whose start and end are not run again; the turn under way waits for its
        company's next line."""
        r = self.r
        first = self.first_turns.get(corp.sym)
        where = f"its turn from line {first.lines[0].line}" if first is not None and \
            first.lines and first.lines[0].line is not None else \
            "its turn taken empty, the record leaving it out in its place"
        r.flag("turn.order", f"{corp.sym} already operated in {self.label} ({where}); a "
                             f"company operates once in an operating round: the line is taken "
                             f"as written, its turn's end not run again")
        if self.turn is not None and not self.turn.again:
            self.interrupted = self.turn
        self.keep_sales_of(corp)
        turn = self.turn = self.turn_class(corp)
        turn.again = True

    def stray_turn(self, corp) -> None:
        """``corp``'s line written out of its place (``OperatingFollower1890.stray_line``,
        flagged there): taken as written in a turn of its own, its start and end not run (its
        turn in its place comes later, a new one); the turn under way waits for its company's
        next line."""
        if self.turn is not None and not self.turn.again:
            self.interrupted = self.turn
        turn = self.turn = self.turn_class(corp)
        turn.again = True

    def take_up_interrupted(self) -> None:
        """The turn a second turn interrupted goes on (the second one ends: no duties)."""
        held, self.interrupted = self.interrupted, None
        self.keep_sales_of(held.corp)
        self.turn = held

    def start_turn(self, corp) -> None:
        """``corp``'s turn begins in its place of the order (the walk's; N0, K8, O0b and
        their findings are the layer's, ``OperatingFollower1890.flag_order``): why it may
        not begin (C5, not floated, a minor converted or closed) is flagged and the turn
        taken as written; its home station goes on the map (:meth:`place_home`)."""
        r, st = self.r, self.st
        actor = corp.sym
        spec = r.rules.corp_by_sym[actor]
        self.first_turns.setdefault(actor, self.turn)
        at_once = self.knr_due and actor == "KNR"    # K8: whatever the order
        self.knr_due = False
        self.place_home(corp)
        if spec.kind == "minor":
            self.flag_may_start(corp)
            return
        self.operated_this_or.add(actor)
        if actor not in self.majors_done and not at_once:
            self.majors_done.append(actor)
            if is_unknown(r.rules.number("rulebook", "minors_operate")) and \
                    any(not self.h.corporations[m].closed and self.h.minor_owner(m)
                        for m in MINOR_NAMES):
                r.skip("the minors' place among the main companies in the operating order",
                       ("rulebook", "minors_operate"))
        self.flag_may_start(corp)
        corp.operated = True
        if actor == "OMS":
            st.oms_turns += 1
            r.number("how OMS floats (at phase 4, or by 50% from phase 4)", "rulebook",
                     "oms_float")

    def skip_turns_until(self, corp) -> None:
        """The companies before ``corp`` in the order (all, when None) that the record left
        out take an empty turn (the shared walk's, with 1890's :meth:`start_turn` and
        :meth:`end_turn`: O4a's withhold, O5, O5c, K1); one whose turn may no longer begin (a
        minor converted with another since the round began, K3) takes none."""
        while self.index < len(self.order) - 1 and self.order[self.index + 1] is not corp:
            self.index += 1
            skipped = self.order[self.index]
            try:
                self.check_may_start(skipped)
            except RuleViolation:
                continue
            self.turn = self.turn_class(skipped)
            self.start_turn(skipped)
            self.check_skipped_turn(skipped)
            self.end_turn()

    def check_skipped_turn(self, corp) -> None:
        """A main company left out of the record takes an empty turn: nothing run, its
        price moves left (O4a, at its end); said as a kind of check not made (1890 has no
        rule that a company must run)."""
        if corp.kind != "minor":
            self.r.skip("turns left out of the record", (), reason="taken as empty turns: "
                                                                   "nothing run, the price "
                                                                   "moves left (O4a)")

    def check_may_start(self, corp) -> None:
        """Why ``corp``'s turn may not begin (pure: raises ``RuleViolation``, the shared
        round's question): a minor converted or closed, or nobody's (N0); OMS before phase 4
        (C5) or, by ``rulebook.oms_float``, not floated; KNR before M2's conversion (K8); a
        main company not floated.  1890 takes the record's turn as written after flagging why
        (:meth:`flag_may_start`)."""
        r, actor = self.r, corp.sym
        if corp.kind == "minor":
            if corp.closed:
                raise RuleViolation("kansai.minor_closed", f"{actor} ({MINOR_NAMES[actor]}) has "
                                                           f"converted or closed and no longer "
                                                           f"operates")
            if self.h.minor_owner(actor) is None:
                raise RuleViolation("or.not_floated", f"{actor} has no owner: nobody bought it")
            return
        oms_float = r.rules.number("rulebook", "oms_float")
        if actor == "OMS" and not r.phase_at_least("4") and oms_float != "any_phase":
            raise RuleViolation("kansai.oms_early", f"Osaka Municipal Subway starts in phase 4; "
                                                    f"this is phase {r.phase.name} (C5)")
        if actor == "OMS" and not corp.floated and oms_float in ("fifty_percent", "any_phase"):
            raise RuleViolation("or.not_floated",
                                f"OMS has not floated: {self.h.sold_percent(actor)}% sold, "
                                f"{r.rules.stock.float_percent}% needed "
                                f"(rulebook.oms_float: {oms_float})")
        if actor == "KNR" and not r.knr_normal:
            if not self.st.knr_started:
                raise RuleViolation("or.not_floated",
                                    "KNR starts when Osaka Electric Railroad converts (K8)")
        elif actor != "OMS" and not corp.floated:
            raise RuleViolation("or.not_floated",
                                f"{actor} has not floated: {self.h.sold_percent(actor)}% sold, "
                                f"{r.rules.stock.float_percent}% needed")

    def flag_may_start(self, corp) -> None:
        """Why ``corp``'s turn may not begin (:meth:`check_may_start`), flagged: the record's
        turn is taken as written."""
        try:
            self.check_may_start(corp)
        except RuleViolation as v:
            self.r.flag(v.rule, v.message)

    def place_home(self, corp) -> None:
        """``corp``'s home station goes on the map (the components file's, when it gives
        one: ``KansaiMap.home``), once it operates: a minor, a floated company, KNR once
        started; not a closed one."""
        if not corp.closed and (corp.kind == "minor" or corp.floated
                                or (corp.sym == "KNR" and self.st.knr_started)):
            self.map.home(corp.sym)

    def finish(self, record_ends: bool = False) -> None:
        """The round's end: the turn under way ended already (``close_turn``); the companies
        the record left out take their empty turns in the order (:meth:`skip_turns_until`:
        nothing run, so a main company's price moves left, O4a; a company without a train
        owes one, O5).  At the end of a record that ends the game in the round (its ``end``
        tag), or once the game ended, the main companies not reached withhold (O4a), and no
        turn's duty is asked (the game stops there)."""
        r = self.r
        if record_ends or r.finished:
            for corp in self.order[self.index + 1:]:
                if corp.sym in self.start_keys and corp.sym not in self.operated_this_or \
                        and not corp.closed:
                    self.check_skipped_turn(corp)
                    r.ledger.dividend(corp.sym, "withhold", 0)
        else:
            self.skip_turns_until(None)
            self.index = len(self.order)
            self.turn = None

    def next_company(self, done: Optional[str] = None) -> Optional[str]:
        """The company to operate next by the round's order (``next``): KNR at once after
        M2's conversion (K8), else the first open company after the walk's place (the shared
        round's ``order`` after ``index``: the shared ``Game.operating_order`` at the round's
        start, the minors by number, N0, the main companies by price, O0b, with the companies
        the record-following layer moved up in their places); ``done``: with that company's
        turn counted over (None when it would be the one named).  None: every one has
        operated."""
        if self.knr_due:
            nxt: Optional[str] = "KNR"
        else:
            # the walk's: the companies up to ``index`` have begun their turns (taken or
            # empty); a company moved up by the layer is in its new place
            nxt = next((c.sym for c in self.order[self.index + 1:]
                        if not c.closed and c.sym != done), None)
        return None if nxt == done else nxt

    def price_order_broken(self, actor: str, other: str) -> bool:
        """O0b: ``other``, which the record has operate later in this OR, is ranked before
        ``actor`` by the prices at the start of the OR and by the prices now (the summary
        does not say which): flagged at ``actor``'s line (True).  A price not sure skips the
        pair."""
        r, led = self.r, self.r.ledger
        if actor not in self.start_keys or other not in self.start_keys or not led.on \
                or led.cell(other) is None:
            return False
        if not (led.sure("price:" + actor) and led.sure("price:" + other)):
            r.skip("the operating order by share price", ("rulebook", "jr_half_dividend_move"),
                   reason="a share price is not sure")
            return False
        if self.start_keys[other] < self.start_keys[actor] and \
                led.order_key(other) < led.order_key(actor):
            r.flag("turn.order",
                   f"{other} (at {r.money(led.price(other))}) operates before {actor} (at "
                   f"{r.money(led.price(actor))}): the highest price first, on one cell the "
                   f"top marker, at equal prices the one further right (O0b); taken in the "
                   f"record's order")
            return True
        return False

    def close_turn(self, record_ends: bool = False) -> None:
        """A round marker: the turn under way ends (its duties); at the record's end it may
        be unfinished (its duties not checked)."""
        if record_ends:
            self.interrupted = self.turn = None
        else:
            self.end_turn()
        self.actor = None

    def end_turn(self) -> None:
        """The company's turn ends (the shared round's, with 1890's duties; a duty left
        undone is flagged at the turn's last line, or for an empty turn at the action at
        hand): a dividend not decided is withheld (O4a); a minor whose conversion is mandatory
        in this phase ends its turn unconverted (K1): flagged, then converted (and so owes no
        train); a train owed (O5), the limit (O5c).  A second turn runs none (its first did); the turn it
        interrupted ends then."""
        turn = self.turn
        if turn is None:
            return
        if turn.again:
            self.move_to(turn, self.done)
            held, self.interrupted = self.interrupted, None
            self.turn = held
            self.end_turn()
            return
        actor, r = turn.corp.sym, self.r
        at = turn.lines[-1] if turn.lines else None
        spec = r.rules.corp_by_sym[actor]
        closed = turn.corp.closed
        if not closed and not r.finished and \
                not turn.dividend_done and (spec.kind != "minor" or turn.revenue):
            # O4a: a company that runs nothing, or decides no dividend, withholds
            r.ledger.dividend(actor, "withhold", turn.revenue)
        must = self.mandatory_phase(actor) if actor in ("M1", "M2", "M4") and not closed \
            else None
        if must is not None and r.phase_at_least(must):
            r.flag("kansai.conversion_skipped",
                   f"{actor} ({MINOR_NAMES[actor]}) must convert into KNR from phase {must}; "
                   f"its turn in phase {r.phase.name} ended without it (K1)",
                   action=at)
            self.step_by_type(ConvertStep1890).convert(actor, forced=True)
            closed = True       # (converted: no train owed, one slip one finding)
        if not closed and not self.h.train_names(actor) and not r.finished:
            # O5: a company without a train must buy one now
            r.flag("trains.must_own", f"{actor} ends its turn without a train; a company "
                                      f"without one must buy one (O5)",
                   action=at)
        limit = self.h.train_limit(turn.corp)
        if not closed and len(self.h.train_names(actor)) > limit:
            r.flag("trains.discard_required",
                   f"{actor} ends its turn with {len(self.h.train_names(actor))} trains, over "
                   f"the limit of {limit} in phase {r.phase.name}; the excess goes to the pool "
                   f"(O5c)", action=at)
        super().end_turn()

    def mandatory_phase(self, minor: str):
        conv = self.r.rules.conversions[minor]
        must = conv["mandatory"]
        if isinstance(must, list):                 # Kanan: N1 says 4, K4 says 3
            reading = self.r.rules.number("rulebook", "kanan_window")
            return must[0] if reading == "K4" else must[-1]
        return must

    def earliest_phase(self, minor: str):
        conv = self.r.rules.conversions[minor]
        start = conv["from"]
        if isinstance(start, list):
            reading = self.r.rules.number("rulebook", "kanan_window")
            return start[-1] if reading == "N1" else start[0]
        return start

    # ------------------------------------------------------------------

    def process(self, action) -> None:
        """The engine's loop hands the round the record's line: the title's checks first
        (``TitleKansai.take``: a company not in play, a bankruptcy, a president's sale for a
        train), then the round's turns (:meth:`take_action`)."""
        self.r.take(action)

    def play_line(self, action) -> None:
        """A company's line in its turn, through its step."""
        r = self.r
        if r.rules.corp_by_sym.get(action.actor) is None:
            return
        step = self.step_for(action)
        if step is not None:
            self.play(type(step), action)
            return
        if isinstance(action, Bankrupt):
            self.bankrupt(action)
            return
        if not isinstance(action, Pass):
            r.flag("or.action", f"'{action.verb}' is not an action of an operating round")

    # ------------------------------------------------------------------
    # Kobe Rapid Transit (L2)

    def krtr_starts(self) -> None:
        st = self.st
        kobe = self.r.rules.number("map", "places", "Kobe", "hex")
        if is_unknown(kobe):
            self.r.skip("Kobe Rapid Transit's station in Kobe", ("map", "places", "Kobe", "hex"))
            return
        for corp, hexes in st.stations.items():
            if kobe in hexes and corp != "JR":
                if self.r.rules.corp_by_sym[corp].kind != "minor":
                    st.krtr_free.add(corp)
                hexes.discard(kobe)
        st.stations.setdefault("KRTR", set()).add(kobe)
        self.map.krtr_starts(kobe, self.r.rules.number("late_companies", "KRTR", "stations"))

    def map_unchecked(self, kind: str, plan=None) -> None:
        """The map's checks are not made: a key of the map is unknown, or the
        board cannot read it (counted now, or by the step's ``plan`` when it is carried
        out)."""
        r = self.r
        skips: list = [] if plan is None else plan.skips
        for key in ("hexes", "tiles", "layout"):
            if is_unknown(r.rules.number("map", key)):
                skips.append((kind, ("map", key)))
                break
        else:
            if self.map.why:
                skips.append((kind, ("map", "hexes"), self.map.why))
        if plan is None:
            for kind_, keys, *why in skips:
                r.skip(kind_, keys, reason=why[0] if why else "")

    def emergency_sale(self, action) -> None:
        """B0-B2: a player's sale in an operating round (:class:`EmergencySaleStep1890`)."""
        self.play(EmergencySaleStep1890, action, steps=self.player_steps)

    def bankrupt(self, action: Bankrupt) -> None:
        """B0-B4, E1: a player's bankruptcy (:class:`BankruptStep1890`)."""
        self.play(BankruptStep1890, action, steps=self.player_steps)
