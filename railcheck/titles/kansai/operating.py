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

from typing import Optional

from ...actions import Bankrupt, Pass
from ...findings import RuleViolation
from ...rounds.operating import OperatingRound, Turn
from ...schema import is_unknown
from .steps import RoundOfTheRecord
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
        #: the company's second turn in the operating round (its first ended, another
        #: company's began): flagged at its first line, taken as written, its end's duties
        #: not run again (:meth:`OperatingRound1890.turn_begins`)
        self.again = False
        #: the order named this company next when its turn began (``next_company``)
        self.in_order = False


class OperatingRound1890(RoundOfTheRecord, OperatingRound):
    """The shared operating round with 1890's steps (``orsteps.py``), on the game's shared
    state (``Holdings``, a shared ``Game``), and 1890's turns: the order (minors by number,
    N0; KNR at once after M2's conversion, K8; the main companies by price, O0b; OMS from
    phase 4, C5), a turn's end (O4a, O5, O5c, K1), the turns the record left out (O4a), the
    presidents' emergency sales and bankruptcies (B0-B4, E1).  Its turns are the record's
    (``RoundOfTheRecord.take_action``: a company's consecutive lines); the order the shared
    ``Game.operating_order`` with 1890's hooks, checked as the record goes, not walked."""

    turn_class = Turn1890

    def __init__(self, replay):
        #: the title's replay (its flags, its numbers, its turn and the ledger)
        self.replay = self.r = replay
        super().__init__(replay.holdings)
        self.st = replay.state
        self.h = replay.holdings
        self.knr_shares_given = 0
        #: minors that took a turn in this OR, in order
        self.minors_done: list = []
        self.majors_done: list = []
        self.knr_due = False
        #: B0: the presidents' sales for the current turn: (company, player, proceeds, a share's
        #: price)
        self.sales: list = []
        #: O0b: the main companies' order keys at the OR's start; who operated in it
        self.start_keys: dict = {}
        self.operated_this_or: set = set()
        #: the record's turns in this OR, in order (a line by one who is not a company too)
        self.record_turns: list = []
        #: each company's turn in this OR (the first, or the one in its place after a line
        #: the order did not call for)
        self.first_turns: dict = {}
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
        through its step, for the turn at hand (the replay's): checked, then applied; a
        refusal is a finding (after the notes the line made before it) and changes nothing."""
        step = next(s for s in (self.steps if steps is None else steps)
                    if isinstance(s, step_class))
        turn = self.turn
        try:
            plan = step.check(turn, action)
        except RuleViolation as v:
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
        OMS from phase 4, C5); and the main companies' order keys in it (O0b)."""
        self.minors_done = []
        self.majors_done = []
        self.knr_due = False
        super().start()
        led = self.r.ledger
        #: O0b: the main companies' order keys at the start of the OR, in the order
        self.start_keys = {c.sym: led.order_key(c.sym) for c in self.order
                           if c.kind != "minor"}
        self.operated_this_or: set = set()
        self.record_turns = []
        self.first_turns = {}

    def next_corporation(self) -> None:
        """No turn is begun by the order: 1890's turns are the record's, checked against the
        order as the record goes (:meth:`turn_begins`)."""

    def turn_begins(self, actor: str) -> None:
        """The record begins ``actor``'s turn (a company's consecutive lines): the round's
        ``turn_class`` for it, begun by :meth:`start_turn` (the shared round's hook, where a
        walk of the order begins a turn too)."""
        r = self.r
        spec = r.rules.corp_by_sym.get(actor)
        self.sales = [x for x in self.sales if x[0] == actor]     # written before its turn
        if spec is None:
            self.turn = None
            self.record_turns.append(None)
            r.flag("or.player_action", f"{actor} is not a company: in an operating round the "
                                       f"companies act")
            return
        corp = self.h.corporations[actor]
        turn = self.turn = self.turn_class(corp)
        turn.lines = self.lines
        turn.in_order = actor == self.next_company()
        first = self.first_turns.get(actor)
        goes_on = self.goes_on(actor)
        # (a first turn of one line the order did not call for, written before the company's
        # place, was the slip: its turn in its place is not a second one)
        turn.again = goes_on.again if goes_on is not None else \
            first is not None and (len(first.lines) > 1 or first.in_order)
        self.record_turns.append(turn)
        if turn.again:
            # each company operates once in an operating round, in its place of the order
            # (O0b, N0; the rule book's "Operating Round": "all railway companies that can
            # operate will do so in turn order"): the one finding of the slip
            if goes_on is None:
                r.flag("turn.order", f"{actor} already operated in {self.label} (its turn from "
                                     f"line {first.lines[0].line}); a company operates once in an "
                                     f"operating round: the line is taken as written, its "
                                     f"turn's end not run again")
            return
        if goes_on is None:
            self.first_turns[actor] = turn
        self.start_turn(corp)

    def goes_on(self, actor: str):
        """``actor``'s last turn in this OR, when the record's turns since it are no turn of
        another company's: one line of another (a company the order did not name next, or not
        a company), or a second turn (flagged); else None.  A company's line after another
        company's turn began is a second turn (:meth:`turn_begins`)."""
        for turn in reversed(self.record_turns):
            if turn is not None and turn.corp.sym == actor:
                return turn
            if turn is not None and not turn.again and \
                    (len(turn.lines) > 1 or turn.in_order):
                return None
        return None

    def start_turn(self, corp) -> None:
        """``corp``'s turn begins: in its place of the order (N0, K8, O0b, C5), floated or
        started; its home station goes on the map (:meth:`place_home`)."""
        r, st = self.r, self.st
        actor = corp.sym
        spec = r.rules.corp_by_sym[actor]
        if self.knr_due and actor != "KNR":
            r.flag("kansai.knr_at_once", f"KNR operates at once after Osaka Electric Railroad "
                                         f"converts (K8), before {actor}")
        at_once = self.knr_due and actor == "KNR"    # K8: whatever the order
        self.knr_due = False
        self.place_home(corp)
        if spec.kind == "minor":
            self.flag_may_start(corp)
            later = [m for m in self.minors_done if m > actor]
            if later:
                r.flag("turn.order", f"minors operate by their numbers (N0): {actor} after "
                                     f"{later[0]}")
            elif self.majors_done and r.rules.number("rulebook", "minors_operate") == "first":
                r.flag("turn.order", f"the minors operate before the main companies "
                                     f"(rulebook.minors_operate: first): {actor} after "
                                     f"{self.majors_done[-1]}")
            self.minors_done.append(actor)
            return
        if not at_once and actor not in self.operated_this_or:
            self.check_price_order(actor)
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
                                f"{r.rules.raw['stock']['float_percent']}% needed "
                                f"(rulebook.oms_float: {oms_float})")
        if actor == "KNR" and not r.knr_normal:
            if not self.st.knr_started:
                raise RuleViolation("or.not_floated",
                                    "KNR starts when Osaka Electric Railroad converts (K8)")
        elif actor != "OMS" and not corp.floated:
            raise RuleViolation("or.not_floated",
                                f"{actor} has not floated: {self.h.sold_percent(actor)}% sold, "
                                f"{r.rules.raw['stock']['float_percent']}% needed")

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

    def finish(self) -> None:
        """A main company that should have operated and is not in the
        record's OR takes an empty turn: nothing run, so its price moves left
        (O4a), as a turn without a dividend does."""
        r = self.r
        for corp in self.start_keys:        # (in the operating order)
            if corp not in self.operated_this_or and not r.ledger.closed(corp):
                r.skip("turns left out of the record", (), reason="taken as empty turns: "
                                                              "nothing run, the price moves left "
                                                              "(O4a)")
                r.ledger.dividend(corp, "withhold", 0)

    def next_company(self, done: Optional[str] = None) -> Optional[str]:
        """The company to operate next by the round's order (``next``): KNR at once after
        M2's conversion (K8), else the first of the order (the shared ``Game.operating_order``
        at the round's start: the minors by number, N0, the main companies by price, O0b)
        that has not operated and is open; ``done``: with that company's turn counted over
        (None when it would be the one named).  None: every one has operated."""
        if self.knr_due:
            nxt: Optional[str] = "KNR"
        else:
            nxt = next((c.sym for c in self.order if not c.closed and c.sym != done
                        and c.sym not in (self.minors_done if c.kind == "minor"
                                          else self.operated_this_or)), None)
        return None if nxt == done else nxt

    def check_price_order(self, actor: str) -> None:
        """O0b: a main company operating while one ranked before it (by the
        prices at the start of the OR, and by the prices now: the summary does
        not say which) operates later in this OR."""
        r, led = self.r, self.r.ledger
        if actor not in getattr(self, "start_keys", {}) or not led.on:
            return
        for other in self.game.following.actors_ahead_in_round():
            if other == actor or other in self.operated_this_or or other not in self.start_keys \
                    or led.cell(other) is None:
                continue
            if not (led.sure("price:" + actor) and led.sure("price:" + other)):
                r.skip("the operating order by share price", ("rulebook", "jr_half_dividend_move"),
                       reason="a share price is not sure")
                continue
            if self.start_keys[other] < self.start_keys[actor] and \
                    led.order_key(other) < led.order_key(actor):
                r.flag("turn.order",
                       f"{other} (at {r.money(led.price(other))}) operates before {actor} (at "
                       f"{r.money(led.price(actor))}): the highest price first, on one cell the "
                       f"top marker, at equal prices the one further right (O0b)")
                return

    def close_turn(self, record_ends: bool = False) -> None:
        super().close_turn(record_ends)
        self.turn = None

    def play_action(self, action) -> None:
        self.process(action)

    def turn_ends(self, actor: str, lines: list) -> None:
        """The record's turn of ``actor``, of ``lines``, is over: the company's turn ends
        (:meth:`end_turn`)."""
        self.end_turn()

    def end_turn(self) -> None:
        """The company's turn ends (the shared round's, with 1890's duties; a duty left
        undone is flagged at the turn's last line): a dividend not decided is withheld (O4a),
        a train owed (O5), the limit (O5c); a minor whose conversion is mandatory in this
        phase ends its turn unconverted (K1): flagged, then converted."""
        turn = self.turn
        if turn is None:
            return
        if turn.again:          # its turn's end was its first turn's (turn_begins)
            self.move_to(turn, self.done)
            self.turn = None
            return
        actor, r = turn.corp.sym, self.r
        # (an empty turn of the shared walk has no line: its duties at the action at hand)
        at = turn.lines[-1] if turn.lines else None
        spec = r.rules.corp_by_sym[actor]
        closed = turn.corp.closed
        if not closed and not r.finished and \
                not turn.dividend_done and (spec.kind != "minor" or turn.revenue):
            # O4a: a company that runs nothing, or decides no dividend, withholds
            r.ledger.dividend(actor, "withhold", turn.revenue)
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
        must = self.mandatory_phase(actor) if actor in ("M1", "M2", "M4") and not closed \
            else None
        if must is not None and r.phase_at_least(must):
            r.flag("kansai.conversion_skipped",
                   f"{actor} ({MINOR_NAMES[actor]}) must convert into KNR from phase {must}; "
                   f"its turn in phase {r.phase.name} ended without it (K1)",
                   action=at)
            self.step_by_type(ConvertStep1890).convert(actor, forced=True)
        super().end_turn()

    def mandatory_phase(self, minor: str):
        conv = self.r.rules.conversions[minor]
        must = conv.get("mandatory")
        if isinstance(must, list):                 # Kanan: N1 says 4, K4 says 3
            reading = self.r.rules.number("rulebook", "kanan_window")
            return must[0] if reading == "K4" else must[-1]
        return must

    def earliest_phase(self, minor: str):
        conv = self.r.rules.conversions[minor]
        start = conv.get("from")
        if isinstance(start, list):
            reading = self.r.rules.number("rulebook", "kanan_window")
            return start[-1] if reading == "N1" else start[0]
        return start

    # ------------------------------------------------------------------

    def process(self, action) -> None:
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
