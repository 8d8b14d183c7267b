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

from ...actions import (BuyCompany, BuyTrain, Convert, DiscardTrain, Dividend, IgnoreStation,
                        LayTile, Pass, PlaceToken, Privatise, RoundMarker, RunRoutes, SellShares,
                        Bankrupt)
from ...schema import is_unknown
from .holdings import KNR_CERTS, RESERVED

#: a stop that is not one of the places the components file values
UNKNOWN_VALUE = object()

MINOR_NAMES = {"M1": "Kanan Railway", "M2": "Osaka Electric Railroad", "M3": "Osaka Railway",
               "M4": "Nara Electric Railway", "M5": "Kobe Electric Railway"}
#: L2: the fee to ignore KRTR's station, printed in the summary
KRTR_FEE = 100


class OperatingHandler:
    def __init__(self, replay):
        self.r = replay
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
        from .mapcheck import KansaiMap
        #: the components file's map on the shared board, when it gives one
        self.map = KansaiMap(replay)

    # ------------------------------------------------------------------
    # turns

    def start_or(self) -> None:
        self.minors_done = []
        self.majors_done = []
        self.knr_due = False
        self.r.ledger.incomes()
        led = self.r.ledger
        #: O0b: the main companies' order keys at the start of the OR
        self.start_keys = {c: led.order_key(c) for c in self.order_candidates()}
        self.operated_this_or: set = set()

    def begin_turn(self, actor: str) -> None:
        r, st = self.r, self.st
        spec = r.rules.corp_by_sym.get(actor)
        self.sales = [x for x in self.sales if x[0] == actor]     # written before its turn
        if spec is None:
            r.flag("or.player_action", f"{actor} is not a company: in an operating round the "
                                       f"companies act")
            return
        if self.knr_due and actor != "KNR":
            r.flag("kansai.knr_at_once", f"KNR operates at once after Osaka Electric Railroad "
                                         f"converts (K8), before {actor}")
        at_once = self.knr_due and actor == "KNR"    # K8: whatever the order
        self.knr_due = False
        corp = self.h.corporations[actor]
        if not corp.closed and (spec.kind == "minor" or corp.floated
                                or (actor == "KNR" and st.knr_started)):
            self.map.home(actor)
        if spec.kind == "minor":
            if corp.closed:
                r.flag("kansai.minor_closed", f"{actor} ({MINOR_NAMES[actor]}) has converted or "
                                              f"closed and no longer operates")
            elif self.h.minor_owner(actor) is None:
                r.flag("or.not_floated", f"{actor} has no owner: nobody bought it")
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
        oms_float = r.rules.number("rulebook", "oms_float")
        if actor == "OMS" and not r.phase_at_least("4") and oms_float != "any_phase":
            r.flag("kansai.oms_early", f"Osaka Municipal Subway starts in phase 4; this is phase "
                                       f"{r.phase.name} (C5)")
        elif actor == "OMS" and not corp.floated and \
                oms_float in ("fifty_percent", "any_phase"):
            r.flag("or.not_floated", f"OMS has not floated: {self.h.sold_percent(actor)}% sold, "
                                     f"{r.rules.raw['stock']['float_percent']}% needed "
                                     f"(rulebook.oms_float: {oms_float})")
        elif actor == "KNR" and not r.knr_normal:
            if not st.knr_started:
                r.flag("or.not_floated", "KNR starts when Osaka Electric Railroad converts (K8)")
        elif actor != "OMS" and not corp.floated:
            r.flag("or.not_floated", f"{actor} has not floated: {self.h.sold_percent(actor)}% sold, "
                                     f"{r.rules.raw['stock']['float_percent']}% needed")
        corp.operated = True
        if actor == "OMS":
            st.oms_turns += 1
            r.number("how OMS floats (at phase 4, or by 50% from phase 4)", "rulebook",
                     "oms_float")

    def order_candidates(self) -> list:
        """The main companies that operate by their price: floated (KNR:
        started), not closed, with a price."""
        st, led = self.st, self.r.ledger
        if not led.on:
            return []
        return [c for c in led.marked if not led.closed(c) and
                (st.knr_started if c == "KNR" and not self.r.knr_normal
                 else self.h.corporations[c].floated)
                and (c != "OMS" or self.r.phase_at_least("4"))]         # C5

    def end_or(self) -> None:
        """A main company that should have operated and is not in the
        record's OR takes an empty turn: nothing run, so its price moves left
        (O4a), as a turn without a dividend does."""
        r = self.r
        for corp in self.start_keys:
            if corp not in self.operated_this_or and not r.ledger.closed(corp):
                r.skip("turns left out of the record", (), reason="taken as empty turns: "
                                                              "nothing run, the price moves left "
                                                              "(O4a)")
                r.ledger.dividend(corp, "withhold", 0)

    def check_price_order(self, actor: str) -> None:
        """O0b: a main company operating while one ranked before it (by the
        prices at the start of the OR, and by the prices now: the summary does
        not say which) operates later in this OR."""
        r, led = self.r, self.r.ledger
        if actor not in getattr(self, "start_keys", {}) or not led.on:
            return
        later = []
        for a in r.record.actions[r.position + 1:]:
            if isinstance(a, RoundMarker):
                break
            if a.actor not in later:
                later.append(a.actor)
        for other in later:
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

    def end_turn(self, actor: str, turn: dict) -> None:
        """A minor whose conversion is mandatory in this phase ends its turn
        unconverted (K1): flagged at its last action, then converted."""
        r = self.r
        spec = r.rules.corp_by_sym.get(actor)
        closed = spec is not None and self.h.corporations[actor].closed
        if spec is not None and not closed and not r.finished and \
                not any(isinstance(a, Dividend) for a in turn["actions"]) and \
                (spec.kind != "minor" or turn.get("revenue")):
            # O4a: a company that runs nothing, or decides no dividend, withholds
            r.ledger.dividend(actor, "withhold", turn.get("revenue"))
        if spec is not None and not closed and not self.h.train_names(actor) \
                and not r.finished:
            # O5: a company without a train must buy one now
            r.flag("trains.must_own", f"{actor} ends its turn without a train; a company "
                                      f"without one must buy one (O5)",
                   action=turn["actions"][-1])
        if spec is not None and not closed and \
                len(self.h.train_names(actor)) > r.train_limit(actor):
            r.flag("trains.discard_required",
                   f"{actor} ends its turn with {len(self.h.train_names(actor))} trains, over "
                   f"the limit of "
                   f"{r.train_limit(actor)} in phase {r.phase.name}; the excess goes to the pool "
                   f"(O5c)", action=turn["actions"][-1])
        if actor not in ("M1", "M2", "M4") or closed:
            return
        must = self.mandatory_phase(actor)
        if must is not None and r.phase_at_least(must):
            r.flag("kansai.conversion_skipped",
                   f"{actor} ({MINOR_NAMES[actor]}) must convert into KNR from phase {must}; "
                   f"its turn in phase {r.phase.name} ended without it (K1)",
                   action=turn["actions"][-1])
            self.convert(actor, forced=True)

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
        handlers = {Convert: self.convert_action, Privatise: self.privatise,
                    IgnoreStation: self.ignore, LayTile: self.lay, PlaceToken: self.token,
                    RunRoutes: self.run, Dividend: self.dividend, BuyTrain: self.buy_train,
                    DiscardTrain: self.discard, BuyCompany: self.buy_company,
                    Bankrupt: self.bankrupt}
        for cls, fn in handlers.items():
            if isinstance(action, cls):
                fn(action)
                return
        if not isinstance(action, Pass):
            r.flag("or.action", f"'{action.verb}' is not an action of an operating round")

    # ------------------------------------------------------------------
    # KNR's formation (K1-K10)

    def convert_action(self, action: Convert) -> None:
        r, st = self.r, self.st
        minor = action.actor
        if minor not in KNR_CERTS:
            r.flag("kansai.conversion", f"{minor} does not convert into KNR (only minors 1-4 do)")
            return
        if self.h.corporations[minor].closed:
            return
        if minor == "M3":
            if not st.knr_started:
                r.flag("kansai.conversion_early", "Osaka Railway converts when KNR starts "
                                                  "(K3), and KNR has not started")
        else:
            start = self.earliest_phase(minor)
            if not r.phase_at_least(start):
                r.flag("kansai.conversion_early",
                       f"{minor} ({MINOR_NAMES[minor]}) may convert into KNR from phase {start}; "
                       f"this is phase {r.phase.name}")
            elif minor == "M1" and is_unknown(r.rules.number("rulebook", "kanan_window")) \
                    and not r.phase_at_least("3"):
                r.skip("Kanan Railway's conversion window (N1 or K4)", ("rulebook", "kanan_window"))
            if minor != "M2" and not st.knr_started:
                r.flag("kansai.conversion_early", f"{minor} converts before KNR started "
                                                  f"(Osaka Electric Railroad starts it, K8)")
        self.convert(minor)

    def convert(self, minor: str, forced: bool = False) -> None:
        """The minor closes; its owner receives KNR certificates; its trains
        go to KNR (and its station, for Nara: N4).  M2 starts KNR, which
        operates at once (K8), and Osaka Railway converts with it (K3)."""
        st, h = self.st, self.h
        h.corporations[minor].closed = True
        owner = h.minor_owner(minor)
        led = self.r.ledger
        if led.closed("KNR"):
            # K10: KNR closed first: the minor closes when it would convert; its owner
            # receives nothing, its cash goes to the bank and its trains leave the game
            led.pay(minor, "bank", led.get(minor), f"{minor} closed with KNR (K10)")
            h.drop_trains(minor)
            st.stations.pop(minor, None)
            self.map.closes(minor)
            return
        self.move_capital(minor, owner)
        if owner is not None:
            # the bank's reserved certificates (K7; Kinki as a normal company: the IPO's)
            if not h.give("KNR", owner, KNR_CERTS[minor], source=RESERVED):
                h.give("KNR", owner, KNR_CERTS[minor])
            self.knr_shares_given += len([c for c in KNR_CERTS[minor] if c == 10])
        h.move_trains(minor, "KNR")
        if minor == "M4":
            st.stations.setdefault("KNR", set()).update(st.stations.get("M4", set()))
        st.stations.pop(minor, None)
        self.map.closes(minor, into="KNR" if minor == "M4" else None)
        if minor == "M2" and not st.knr_started:
            st.knr_started = True
            # K8: KNR's turn follows at once (after a conversion the record left out,
            # the record's own order stands: that error is already reported)
            self.knr_due = not forced
            if h.minor_owner("M3") is not None and not h.corporations["M3"].closed:
                self.convert("M3")

    def move_capital(self, minor: str, owner) -> None:
        """K2-K5, N1-N4: what a conversion moves: all the minor's cash (Kanan
        Railway: half rounded up, the rest to its owner); M2 starts KNR with 4 x
        par from the bank (K8)."""
        r = self.r
        led = r.ledger
        if not led.on:
            return
        conv = r.rules.conversions[minor]
        cash = led.get(minor)
        if conv["moves"] == "half_cash_up_and_trains":
            to_knr = (cash + 1) // 2
            led.pay(minor, "KNR", to_knr, f"{minor} brought half its {r.money(cash)} rounded up, "
                                          f"{r.money(to_knr)}, to KNR (N1, K4)")
            if owner is not None:
                led.pay(minor, owner, cash - to_knr, f"{owner} received the rest of {minor}'s "
                                                     f"cash, {r.money(cash - to_knr)} (N1)")
        else:
            led.pay(minor, "KNR", cash, f"{minor} brought all its {r.money(cash)} to KNR "
                                        f"({conv['moves'].replace('_', ' ')})")
        led.doubts.inherit("KNR", minor)
        if minor == "M2" and "KNR" not in led.capitalised:
            led.capitalised.add("KNR")
            led.knr_first_or = r.round_label
            par = self.h.par("KNR")
            times = int(r.rules.knr["float_cash_par_times"])
            if par is None:
                led.mark_unsure("KNR", "KNR's capital (no par value set)", ("market", "rows"),
                                reason="KNR has no par value")
            else:
                led.pay("bank", "KNR", times * par,
                        f"KNR started: {times} x par {r.money(par)} = {r.money(times * par)} to its "
                        f"treasury (K8), with {r.money(cash)} from M2")

    def privatise(self, action: Privatise) -> None:
        r, st = self.r, self.st
        if action.actor != "M5":
            r.flag("kansai.conversion", f"only Kobe Electric Railway (M5) may privatise, not "
                                        f"{action.actor}")
            return
        self.h.corporations["M5"].closed = True
        r.ledger.pay("M5", "bank", r.ledger.get("M5"), "M5 privatised: its cash to the bank (N5)")
        st.stations.pop("M5", None)
        self.map.closes("M5")
        self.h.drop_trains("M5")
        self.h.set_owner("M5", self.h.minor_owner("M5"))

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

    def ignore(self, action: IgnoreStation) -> None:
        r, st = self.r, self.st
        corp = action.actor
        if action.company != "KRTR":
            r.flag("kansai.krtr_fee", f"only Kobe Rapid Transit's station may be ignored for a "
                                      f"fee, not {action.company}'s")
            return
        if corp in ("JR", "OMS"):
            r.flag("kansai.krtr_fee", f"{corp} may not pay to ignore KRTR's station (L2: every "
                                      f"company but JR and OMS)")
            return
        if self.h.owner_of("KRTR") is None:
            r.flag("kansai.krtr_fee", "Kobe Rapid Transit has not started: it has no station "
                                      "to ignore")
            return
        if action.price is not None and action.price != KRTR_FEE:
            # flagged, and taken as paid: the table let the company ignore the station
            r.flag("kansai.krtr_not_paid", f"{corp} pays {r.money(action.price)} to ignore "
                                           f"KRTR's station; the fee is {r.money(KRTR_FEE)} (L2)")
        st.krtr_paid[corp] = r.round_label
        fee = action.price if action.price is not None else KRTR_FEE
        r.ledger.pay(corp, "bank", fee, f"{corp} paid {r.money(fee)} to ignore KRTR (L2)")

    # ------------------------------------------------------------------
    # track, stations, routes

    def lay(self, action: LayTile) -> None:
        r = self.r
        corp = action.actor
        lays = r.turn["lays"]
        jr = corp == "JR" and r.jr_is_state()
        allowed = r.phase.jr_tile_lays if jr else int(r.rules.raw["operating"]["tile_lays"])
        arima = self.arima_extra(corp, action, lays)
        omer = not arima and self.omer_upgrade(corp, action, lays)
        extra = arima or omer
        if jr and action.hex in [a.hex for a in lays]:
            r.flag("kansai.jr_two_lays_one_hex",
                   f"JR lays its second tile of the turn on {action.hex}, where it laid the "
                   f"first: its two lays in phases 1-3 are on different hexes (J3)")
        elif not extra and r.turn.get("own_lays", 0) >= allowed:
            r.flag("track.one_lay", f"{corp} already laid {len(lays)} tile(s) this turn; the "
                                    f"limit is {allowed}"
                                    + (" (JR from phase 4: one)" if corp == "JR" else ""))
        if not extra:
            r.turn["own_lays"] = r.turn.get("own_lays", 0) + 1
        lays.append(action)
        free = omer or self.oms_free_tile(corp, action)
        if self.map.board is not None:
            # O1, F2 on the map; Arima's tile needs no connection (P1), nor OMER's upgrade
            # (P7) nor OMS's free tile in Osaka in its first OR (C7); OMS's other lays are
            # connected through the other stations in Osaka (C6: mapcheck.lifted)
            cost = self.map.lay(corp, action, connected=not (arima or omer or free))
            if cost is None:            # refused: the map and the turn stay as they were
                lays.pop()
                if not extra:
                    r.turn["own_lays"] -= 1
                if omer:
                    self.st.omer_used = False
                return
            self.st.laid_hexes.add(action.hex)
            self.st.tile_on[action.hex] = action.tile
            led = r.ledger
            if cost and not free:
                led.afford(corp, cost, "track.cost", f"the terrain of {action.hex}")
                led.pay(corp, "bank", cost, f"{corp} paid {r.money(cost)} for the terrain of "
                                            f"{action.hex} (O1c)")
            return
        self.map_unchecked("tile lays on the map (hex, colour, upgrade, connection)")
        self.lay_cost(corp, action, free=free)
        self.st.tile_on[action.hex] = action.tile

    def oms_free_tile(self, corp: str, action: LayTile) -> bool:
        """C7: in its first OR, OMS lays a tile in Osaka for free."""
        if corp != "OMS" or self.st.oms_turns != 1:
            return False
        osaka = {self.r.rules.number("map", "places", p, "hex")
                 for p in self.r.rules.corp_by_sym["OMS"].extra["area_names"]}
        return action.hex in osaka

    def lay_cost(self, corp: str, action: LayTile, free: bool = False) -> None:
        """O1c: an upgrade is free; a first lay costs its hex's terrain (the
        ``cost`` of the hex in ``map.hexes``, docs/board.md).  Without the map
        the lay is taken as free and the company's cash is known only as an
        upper bound from then on."""
        st, r = self.st, self.r
        led = r.ledger
        first = action.hex not in st.laid_hexes
        st.laid_hexes.add(action.hex)
        if not led.on or not first or free:
            return
        hexes = r.rules.number("map", "hexes")
        what = f"the terrain cost of its first lay on {action.hex}"
        if is_unknown(hexes):
            led.cost_unknown(corp, "tile lay costs (terrain)", ("map", "hexes"), what)
            return
        spec = hexes.get(action.hex) if isinstance(hexes, dict) else None
        cost = spec.get("cost", 0) if isinstance(spec, dict) else None
        if not isinstance(cost, int) or isinstance(cost, bool):
            led.cost_unknown(corp, "tile lay costs (terrain)", ("map", "hexes", action.hex),
                             what, reason=f"map.hexes gives no terrain cost for {action.hex}")
            return
        if cost:
            led.afford(corp, cost, "track.cost", f"the terrain of {action.hex}")
            led.pay(corp, "bank", cost, f"{corp} paid {r.money(cost)} for the terrain of "
                                        f"{action.hex} (O1c)")

    def omer_upgrade(self, corp: str, action: LayTile, lays: list) -> bool:
        """P7: before OMS's first train, OMER allows one free upgrade of one
        of the three Osaka tiles; read as a lay besides OMS's own (the
        lenient reading), once."""
        st, r = self.st, self.r
        if corp != "OMS" or self.h.private_closed("OMER") or st.omer_used or not lays:
            return False
        three = r.rules.number("map", "osaka_three")
        if is_unknown(three):
            r.skip("OMER's free upgrade (the three Osaka hexes)", ("map", "osaka_three"))
            return True
        if action.hex in three:
            st.omer_used = True
            return True
        return False

    def arima_extra(self, corp: str, action: LayTile, lays: list) -> bool:
        """P1: a company owning Arima Railway lays an extra tile in Arima."""
        r = self.r
        if self.h.owner_of("ARIMA") != corp or self.h.private_closed("ARIMA") or not lays:
            return False
        arima = r.rules.number("map", "places", "Arima", "hex")
        if is_unknown(arima):
            r.skip("Arima Railway's extra tile (its hex)", ("map", "places", "Arima", "hex"))
            return True
        return action.hex == arima

    def token(self, action: PlaceToken) -> None:
        r, st = self.r, self.st
        corp = action.corporation or action.actor
        hexes = st.stations.setdefault(corp, set())
        if action.hex in hexes:
            r.flag("kansai.one_station_per_hex", f"{corp} already has a station on {action.hex}: "
                                                 f"one station of a company per hex (O2a)")
            return
        if self.map.board is not None and not self.map.token(corp, action):
            return                      # refused by the map: nothing placed, nothing paid
        hexes.add(action.hex)
        self.pay_token(corp)

    def pay_token(self, corp: str) -> None:
        """O2: the first station (home) is free, the others cost what the
        components file's token list says, in order."""
        r, st = self.r, self.st
        led = r.ledger
        placed = st.tokens_bought.get(corp, 0) + 1
        st.tokens_bought[corp] = placed
        section = "minors" if r.rules.corp_by_sym[corp].kind == "minor" else "corporations"
        costs = r.number("station costs", section, corp, "tokens")
        if is_unknown(costs) or placed >= len(costs):
            if led.on:
                led.mark_unsure(corp, "station costs", (section, corp, "tokens"),
                                reason="" if is_unknown(costs) else
                                f"{corp} has {len(costs)} stations in the components file")
            return
        cost = int(costs[placed])
        led.afford(corp, cost, "token.cash", f"its station number {placed + 1}")
        led.pay(corp, "bank", cost, f"{corp} paid {r.money(cost)} for a station (O2)")

    def run(self, action: RunRoutes) -> None:
        r = self.r
        corp = action.actor
        if any(isinstance(a, RunRoutes) for a in r.turn["actions"][:-1]):
            # O3: the trains run once in a turn; the second run is ignored
            r.flag("route.twice", f"{corp} already ran its trains this turn (O3); this run "
                                  f"is ignored")
            return
        own = self.h.train_names(corp)
        errors = len(r.findings)
        for route in action.routes:
            if route.train not in own:
                r.flag("route.train", f"{corp} owns no {route.train}-train "
                                      f"(its trains: {', '.join(own) or 'none'})")
            if route.train == "2+2":
                self.check_two_plus_two(route)
            else:
                self.check_reach(route)
            if corp == "OMS":
                self.check_oms_area(route)
            self.check_krtr(corp, route)
        if self.map.board is None:
            self.map_unchecked("routes and revenues on the map")
            self.check_revenue(corp, action)
        elif len(r.findings) == errors and self.map.check_runs(corp, action):
            # O3, O3a on the map (one finding per run: not again when flagged above)
            self.check_revenue(corp, action)
        self.last_revenue = r.ledger.run(corp, action)
        r.turn["revenue"] = self.last_revenue

    def check_revenue(self, corp: str, action: RunRoutes) -> None:
        """F1, O3: a run whose every stop is a place the components file
        values (``map.places``) is worth the sum of their values at the
        phase's level; a claim that differs is ``route.revenue``."""
        r = self.r
        level = r.phase.revenue_level
        worths, from_map = [], []
        for route in action.routes:
            parts = []
            for stop in route.stops:
                place = r.places.get(stop.hex)
                value = UNKNOWN_VALUE if place is None else \
                    r.rules.number("map", "places", place, "revenue", level)
                if place is None and self.map.stop_value(stop) is not None:
                    # no place of map.places: its one value printed on the map
                    place, value = str(stop), self.map.stop_value(stop)
                    from_map.append(f"{place} at the map's {r.money(value)}")
                if is_unknown(value) or value is UNKNOWN_VALUE:
                    parts = None
                    break
                parts.append((place, int(value)))
            worths.append(parts)
            if parts is not None and route.revenue is not None and \
                    route.revenue != sum(v for _, v in parts):
                r.flag("route.revenue", f"{corp}'s {route.train}-train run "
                                        f"{'-'.join(str(s) for s in route.stops)} is worth "
                                        f"{r.money(sum(v for _, v in parts))} ("
                                        + " + ".join(f"{p} {v}" for p, v in parts)
                                        + f": the {level} values, F1), not the "
                                          f"{r.money(route.revenue)} claimed")
                return
        if action.revenue is not None and worths and all(w is not None for w in worths) and \
                all(rt.revenue is None for rt in action.routes):
            worth = sum(v for w in worths for _, v in w)
            if worth != action.revenue:
                r.flag("route.revenue", f"{corp}'s runs are worth {r.money(worth)} (the "
                                        f"{level} values of their stops, F1"
                                        + "".join(f"; {m}" for m in from_map)
                                        + f"), not the {r.money(action.revenue)} claimed")

    def check_oms_area(self, route) -> None:
        """C6, with rulebook.oms_area_only: true: OMS runs only in the four Osaka cities."""
        r = self.r
        only = r.number("OMS's runs outside Osaka", "rulebook", "oms_area_only")
        if only is not True:
            return
        osaka = {r.rules.number("map", "places", p, "hex") for p in
                 r.rules.corp_by_sym["OMS"].extra["area_names"]}
        if any(is_unknown(h) for h in osaka):
            r.skip("OMS's runs outside Osaka", ("map", "places"))
            return
        outside = [s.hex for s in route.stops if s.hex not in osaka]
        if outside:
            r.flag("kansai.oms_area", f"OMS runs only in Osaka (C6, rulebook.oms_area_only: "
                                      f"true); {', '.join(outside)} is outside")

    def map_unchecked(self, kind: str) -> None:
        """The map's checks are not made: a key of the map is unknown, or the
        board cannot read it."""
        r = self.r
        for key in ("hexes", "tiles", "layout"):
            if is_unknown(r.rules.number("map", key)):
                r.skip(kind, ("map", key))
                return
        if self.map.why:
            r.skip(kind, ("map", "hexes"), reason=self.map.why)

    def stop_is_city(self, hex_name: str):
        """True/False, or None when the components file does not say."""
        place = self.r.places.get(hex_name)
        if place is None:
            return None
        slots = self.r.rules.number("map", "places", place, "slots")
        return None if is_unknown(slots) else slots > 0

    def check_two_plus_two(self, route) -> None:
        """O3b: four places, at most two of them cities or off-boards."""
        r = self.r
        stops = [s.hex for s in route.stops]
        if len(stops) > 4:
            r.flag("route.distance", f"a 2+2 runs through 4 places, not {len(stops)} (O3b)")
            return
        kinds = [self.stop_is_city(h) for h in stops]
        cities = [h for h, k in zip(stops, kinds) if k]
        if len(cities) > 2:
            r.flag("kansai.train_2plus2",
                   f"a 2+2 runs through at most two cities or off-boards; this one through "
                   f"{len(cities)}: {', '.join(r.places[h] + ' (' + h + ')' for h in cities)} "
                   f"(O3b)")
        elif None in kinds:
            r.skip("2+2 routes (which stops are cities)", ("map", "places"))

    def check_reach(self, route) -> None:
        """O3: an n-train stops at n places (towns count: 1890.md O3), no
        place twice; a 3+3 or a D as far as the components file says."""
        r = self.r
        stops = [s.hex for s in route.stops]
        twice = sorted({h for h in stops if stops.count(h) > 1})
        if twice:
            r.flag("route.repeat_stop", f"a run visits {', '.join(twice)} twice (O3)")
            return
        distance = r._train_spec(route.train).get("distance")
        if distance is None and route.train in ("3+3", "D"):
            distance = r.number("train distances (3+3, D)", "trains", route.train, "distance")
            if is_unknown(distance):
                return
        if isinstance(distance, int) and len(stops) > distance:
            r.flag("route.distance", f"a {route.train}-train runs through {distance} places, "
                                     f"not {len(stops)} (O3)")
        elif isinstance(distance, dict):
            limit = int(distance.get("cities", 0)) + int(distance.get("towns", 0))
            kinds = [self.stop_is_city(h) for h in stops]
            cities = len([k for k in kinds if k])
            if len(stops) > limit or cities > int(distance.get("cities", 0)):
                r.flag("route.distance", f"a {route.train} runs through {limit} places, at most "
                                         f"{distance.get('cities', 0)} of them cities; this one "
                                         f"through {len(stops)}, {cities} cities (O3)")
            elif None in kinds:
                r.skip(f"{route.train} routes (which stops are cities)", ("map", "places"))

    def check_krtr(self, corp: str, route) -> None:
        r, st = self.r, self.st
        if self.h.owner_of("KRTR") is None or corp in ("JR", "OMS") or corp in st.krtr_free:
            return
        kobe = r.rules.number("map", "places", "Kobe", "hex")
        if is_unknown(kobe):
            return
        inner = [s.hex for s in route.stops[1:-1]]
        if self.map.board is not None and kobe in inner and corp not in st.krtr_paid and \
                not self.map.blocks(corp, kobe):
            return                      # a free slot in Kobe: KRTR's station blocks nothing
        if kobe in inner and corp in st.krtr_paid:
            paid_in = st.krtr_paid[corp]
            if paid_in == r.round_label:
                return
            per = r.number("the KRTR fee paid once or every OR", "rulebook", "krtr_fee_per")
            if per == "each_or":
                r.flag("kansai.krtr_not_paid",
                       f"{corp} paid KRTR's fee in {paid_in}; the fee is paid every OR "
                       f"(rulebook.krtr_fee_per: each_or), not in {r.round_label}")
            return
        if kobe in inner:
            r.flag("kansai.krtr_not_paid",
                   f"{corp} runs through Kobe ({kobe}) past Kobe Rapid Transit's station "
                   f"without paying {r.money(KRTR_FEE)} to ignore it and had no station there "
                   f"before KRTR started (L2)")

    # ------------------------------------------------------------------

    def dividend(self, action: Dividend) -> None:
        r = self.r
        corp = action.actor
        if any(isinstance(a, Dividend) for a in r.turn["actions"][:-1]):
            # O4: one decision a turn; the second is ignored
            r.flag("dividend.twice", f"{corp} already decided its dividend this turn (O4); "
                                     f"this one is ignored")
            return
        state_jr = corp == "JR" and r.jr_is_state()
        if state_jr and action.kind == "payout":
            rev = getattr(self, "last_revenue", None)
            r.flag("kansai.jr_full_dividend",
                   f"JR is the state railway until phase 6 (this is phase {r.phase.name}): it "
                   f"withholds or pays half"
                   + (f"; of {r.money(rev)}, {r.money(_half_kept(rev, half_step(r.rules)))} to the treasury and "
                      f"{r.money(rev - _half_kept(rev, half_step(r.rules)))} to the shareholders" if rev else "")
                   + " (J2)")
        elif action.kind == "half" and not state_jr:
            r.flag("dividend.kind", f"only JR, until phase 6, pays half a dividend (J2); "
                                    f"{corp} pays out or withholds")
        if corp == "JR" and action.kind == "half" and \
                is_unknown(r.rules.number("rulebook", "jr_half_dividend_move")):
            r.skip("JR's share price after a half dividend", ("rulebook", "jr_half_dividend_move"))
        # taken as the record says (a full payout of JR flagged above is paid in full)
        r.ledger.dividend(corp, action.kind, r.turn.get("revenue"))

    def buy_train(self, action: BuyTrain) -> None:
        r, h = self.r, self.h
        corp, name = action.actor, action.train
        if name not in [t.name for t in r.rules.trains]:
            r.flag("trains.unknown", f"Kansai has no {name}-train")
            return
        source = action.source or "depot"
        if source == "depot":
            needs = r._train_spec(name).get("available_on")
            if needs and not h.bought(needs):
                r.flag("trains.not_available", f"a {name}-train is sold once the first "
                                               f"{needs}-train is (F7)")
            price = r.number("train prices", "trains", name, "price")
            if action.exchange and action.exchange not in h.train_names(corp):
                r.flag("trains.exchange", f"{corp} owns no {action.exchange}-train to trade in")
            elif action.exchange:
                worth = r.number("train trade-in values", "trains", "D", "trade_in",
                                 action.exchange)
                if not is_unknown(worth) and not is_unknown(price) and \
                        action.price is not None and action.price != price - worth:
                    r.flag("trains.price", f"a D costs {r.money(price)} less "
                                           f"{r.money(worth)} for the {action.exchange} traded "
                                           f"in: {r.money(price - worth)}, not "
                                           f"{r.money(action.price)} (F6)")
            elif not is_unknown(price) and action.price is not None and action.price != price:
                r.flag("trains.price", f"a {name}-train costs {r.money(price)} from the depot, "
                                       f"not {r.money(action.price)}")
            count = r.number("train counts", "trains", name, "count")
            if not is_unknown(count) and count != "unlimited" and h.sold(name) >= count:
                r.flag("trains.not_available", f"all {count} {name}-trains are sold")
            train = None                # (out of the depot below, taken as bought)
        elif source == "pool":
            if name not in h.pool_train_names():
                r.flag("trains.not_available", f"the pool holds no {name}-train")
                return
            train = h.take_train(name, "pool")
        else:
            if name not in h.train_names(source):
                r.flag("trains.not_owned", f"{source} owns no {name}-train")
                return
            train = h.take_train(name, source)
        self.pay_train(corp, action, source)
        if action.exchange and action.exchange in h.train_names(corp):
            old = h.take_train(action.exchange, corp)
            # F6: a traded train the D makes obsolete is scrapped, another goes to the pool
            if old is not None and old.spec.rusts_on != name:
                h.to_pool(old)
        h.give_train_to(train or h.new_train(name), corp)
        if source == "depot":
            r.train_bought(name)
        limit = r.train_limit(corp)
        if len(h.train_names(corp)) > limit:
            r.flag("trains.limit", f"{corp} owns {len(h.train_names(corp))} trains, over the "
                                   f"limit of {limit} in phase {r.phase.name}")
        if corp == "OMS" and not self.h.private_closed("OMER") and \
                self.h.owner_of("OMER") is not None:
            self.h.companies["OMER"].closed = True    # P7

    def emergency_sale(self, action) -> None:
        """B0-B2: a player's sale in an operating round raises money for a
        train his company must buy (it owns none, O5); it may not cost him
        that company's presidency (B1).  Taken as written; whether he sold
        more than needed (B2) is checked at the purchase."""
        r, h = self.r, self.h
        player = action.actor
        # the company: the one whose turn it is, or the one acting next (the sales written
        # before its purchase, at the start of its turn)
        nxt = next((a.actor for a in r.record.actions[r.position + 1:]
                    if not (isinstance(a, SellShares) and h.is_player(a.actor))), None)
        corps = [c for c in (r.turn_actor, nxt) if c in r.rules.corp_by_sym]
        corp = next((c for c in corps if player in (h.minor_owner(c), h.president(c))),
                    corps[0] if corps else None)
        spec = r.rules.corp_by_sym.get(corp) if corp else None
        president = None if spec is None else (
            h.minor_owner(corp) if spec.kind == "minor" else h.president(corp))
        if corp is None or president != player:
            r.flag("emergency.not_needed",
                   f"{player} may not sell shares in an operating round: "
                   + (f"{player} is not the president of {corp}, whose turn it is (B0)"
                      if corp else "no company of his is buying a train (B0)"))
        elif h.train_names(corp):
            r.flag("emergency.not_needed", f"{player} may not sell shares: {corp} owns a train "
                                           f"({', '.join(h.train_names(corp))}) (B0)")
        else:
            for sale in action.sales:
                if sale.corporation == corp:
                    left = h.percent(corp, player) - 10 * (sale.count or 1)
                    if any(h.percent(corp, p) > left for p in h.names if p != player):
                        r.flag("emergency.presidency",
                               f"{player} may not give up the presidency of {corp} while raising "
                               f"money for it (B1)")
        led = r.ledger
        before = led.get(player)
        each = [led.price(s.corporation) for s in action.sales]
        self.r.stock.sell(action)
        proceeds = led.get(player) - before
        if led.on and proceeds > 0 and all(e is not None for e in each):
            self.sales.append((corp, player, proceeds, min(each)))

    def pay_train(self, corp: str, action: BuyTrain, source: str) -> None:
        """The price (the record's, else the list's; a D less its trade-in)
        from the company to the bank or the selling company.  A company
        without a train whose treasury is short takes the rest from its
        president (B0); one with a train is flagged (trains.cash)."""
        r = self.r
        led = r.ledger
        if not led.on:
            return
        name = action.train
        cost = action.price
        if cost is None and source in ("depot", "pool"):
            cost = r.rules.number("trains", name, "price")
            if action.exchange and not is_unknown(cost):
                worth = r.rules.number("trains", "D", "trade_in", action.exchange)
                cost = worth if is_unknown(worth) else cost - worth
        if cost is None or is_unknown(cost):
            led.mark_unsure(corp, "train prices", ("trains", name, "price"),
                            reason="" if source in ("depot", "pool") else
                            f"the price of a train bought from {source} is not written")
            return
        payee = "bank" if source in ("depot", "pool") else source
        have = led.get(corp)
        what = f"a {name}-train" + (f" ({action.exchange} traded in)" if action.exchange else "")
        if not led.sure(corp) and not self.h.train_names(corp):
            # B0 with a treasury not sure: what the president adds is not sure either
            spec = r.rules.corp_by_sym[corp]
            president = self.h.minor_owner(corp) if spec.kind == "minor" else self.h.president(corp)
            if president is not None:
                led.mark_unsure(president, *led.unsure[corp])
        if cost > have and led.sure(corp):
            spec = r.rules.corp_by_sym[corp]
            president = self.h.minor_owner(corp) if spec.kind == "minor" else self.h.president(corp)
            if not self.h.train_names(corp) and president is not None:      # B0
                short = cost - have
                mine = [x for x in self.sales if x[:2] == (corp, president)]
                if mine and led.sure(president) and \
                        led.get(president) - mine[-1][3] >= short:        # B2
                    r.flag("emergency.too_much",
                           f"{president} sells more than needed: with "
                           f"{r.money(led.get(president) - mine[-1][3])} after one share fewer "
                           f"he could still add the {r.money(short)} {corp} needs (B2)")
                # the company may have had less: so may he now
                led.doubts.inherit_bound(president, corp)
                if led.sure(president) and led.get(president) < short:
                    r.flag("emergency.cash",
                           f"{corp} has {r.money(have)} and {president} {r.money(led.get(president))}; "
                           f"{what} costs {r.money(cost)} (B0)")
                led.pay(president, corp, short, f"{president} added {r.money(short)} for {corp}'s "
                                                f"{name}-train (B0)")
            else:
                led.afford(corp, cost, "trains.cash", what)
        led.pay(corp, payee, cost, f"{corp} bought {what} for {r.money(cost)}")

    def discard(self, action: DiscardTrain) -> None:
        """O5b, O5c: no voluntary discard; a train over the limit goes to the pool."""
        r = self.r
        corp = action.actor
        own = self.h.train_names(corp)
        if action.train not in own:
            r.flag("trains.not_owned", f"{corp} owns no {action.train}-train")
            return
        limit = r.train_limit(corp)
        if len(own) <= limit:
            r.flag("trains.discard", f"{corp} owns {len(own)} trains, within the limit of "
                                     f"{limit}; a company may not discard a train at will (O5b)")
            return
        self.h.to_pool(self.h.take_train(action.train, corp))      # O5c: to the pool

    def buy_company(self, action: BuyCompany) -> None:
        r = self.r
        corp, sym = action.actor, action.company
        kind = r.rules.corp_by_sym[corp].kind
        if kind == "minor":
            r.flag("private.buy_phase", f"{corp} is a minor: only the public companies buy "
                                        f"privates (F9)")
            return
        if not r.phase.company_buy:
            r.flag("private.buy_phase", f"companies buy privates only in phases 2 and 3 (O6); "
                                        f"this is phase {r.phase.name}")
            return
        if sym in [c.sym for c in r.rules.late_companies] or sym == "OMER" or \
                (sym == "HKT" and r.phase_at_least("4")):
            r.flag("private.no_sale", f"{sym} may not be sold to a company (P7, L0)")
            return
        if self.h.private_closed(sym):
            r.flag("private.closed", f"{sym} is closed")
            return
        value = r.number("private prices", "companies", sym, "value")
        if not is_unknown(value):
            lo, hi = (value + 1) // 2, 2 * value
            if not lo <= action.price <= hi:
                r.flag("private.price", f"{sym} (face value {r.money(value)}) is bought for "
                                        f"{r.money(lo)} to {r.money(hi)}, not "
                                        f"{r.money(action.price)} (O6)")
        seller = self.h.owner_of(sym)
        r.ledger.afford(corp, action.price, "private.cash", sym)
        if seller is not None:
            r.ledger.pay(corp, seller, action.price, f"{corp} bought {sym} from {seller} for "
                                                     f"{r.money(action.price)} (O6)")
        self.h.set_owner(sym, corp)

    def check_bankruptcy(self, action: Bankrupt) -> None:
        r, st, h = self.r, self.st, self.h

        def president_of(c):
            return h.minor_owner(c) if r.rules.corp_by_sym[c].kind == "minor" \
                else h.president(c)

        corp = r.turn_actor if r.turn_actor in r.rules.corp_by_sym else None
        if action.actor in r.rules.corp_by_sym:
            corp = action.actor
        elif corp is None or president_of(corp) != action.actor:
            # the company whose turn comes next (written before its turn), else any of his
            # companies without a train
            nxt = next((a.actor for a in r.record.actions[r.position + 1:]
                        if a.actor in r.rules.corp_by_sym), None)
            mine = [c for c in r.rules.corp_by_sym if not h.corporations[c].closed and
                    president_of(c) == action.actor and not h.train_names(c)]
            corp = nxt if nxt in mine else (mine[0] if mine else corp)
        if corp is None:
            r.flag("bankrupt.not_president", f"{action.actor} goes bankrupt with no company "
                                             f"buying a train (B0)")
            return
        president = president_of(corp)
        player = president if action.actor == corp else action.actor
        if president is None:
            r.flag("bankrupt.no_president", f"{corp} has no president to go bankrupt for it")
            return
        if player != president:
            r.flag("bankrupt.not_president", f"{player} is not the president of {corp}, whose "
                                             f"turn it is ({president} is): only he may go "
                                             f"bankrupt for its train (B0)")
            return
        if h.train_names(corp):
            r.flag("bankrupt.not_needed", f"{corp} owns a train ({', '.join(h.train_names(corp))}): "
                                          f"it need not buy one, so {player} does not go "
                                          f"bankrupt (B0, O5)")
            return
        led = r.ledger
        kind = "whether a bankruptcy was needed (the money it could raise)"
        if not led.on:
            return
        if not (led.sure(player) and led.sure(corp)):
            r.skip(kind, (), reason=f"{player}'s or {corp}'s cash is not sure")
            return
        cheapest = _cheapest_train(r, h)
        if cheapest is None:
            r.skip(kind, ("trains",), reason="a train's price or count is unknown")
            return
        shares, parts = 0, []
        pool_limit = int(r.rules.raw["stock"]["pool_limit"])
        for c in sorted(x.sym for x in h.majors()):
            tens = [x for x in h.percents(c, player) if x == 10]
            price = led.price(c)
            if not tens or price is None or not h.corporations[c].operated or \
                    not led.sure("price:" + c):
                continue
            if st.free_share.get(c) == player and not h.president_bought(c):
                tens = tens[1:]             # C1, C4: the free share not yet
            k = min(len(tens), max(0, (pool_limit - h.pool(c)) // 10))     # B4
            if c == corp:                   # B1: he stays its president
                others = max((h.percent(c, p) for p in h.names if p != player), default=0)
                k = min(k, max(0, (h.percent(c, player) - others) // 10))
            if k:
                shares += k * price         # SS4: sold at once at the current price
                parts.append(f"{10 * k}% of {c} at {r.money(price)}")
        cash, treasury = led.get(player), led.get(corp)
        total = cash + treasury + shares
        if total >= cheapest[0]:
            r.flag("bankrupt.not_needed",
                   f"{player} can raise {r.money(total)} ({corp}'s treasury {r.money(treasury)}, "
                   f"his cash {r.money(cash)}"
                   + (", " + ", ".join(parts) if parts else "")
                   + f"), enough for a {cheapest[1]}-train at {r.money(cheapest[0])} (B0-B4)")

    def bankrupt(self, action: Bankrupt) -> None:
        """E1: a player's bankruptcy ends the game, at once or after the set
        of ORs (``rulebook.end_on_bankruptcy``; unknown: the record's end).
        B0-B4: only the president of the company that must buy a train (it
        owns none, O5) goes bankrupt, and only when its treasury, his cash and
        every share he may sell (not his president's certificates, SS3; not
        that company's presidency, B1; the pool at most 50%, B4; only
        companies that operated, SS1) cannot pay the cheapest train on sale."""
        r = self.r
        self.check_bankruptcy(action)
        timing = r.number("the end's timing after a bankruptcy", "rulebook", "end_on_bankruptcy")
        if timing == "immediate":
            r.finished, r.end_reason = True, "bankrupt"
        elif timing == "full_or":
            r.end_after_set, r.end_after_reason = True, "bankrupt"


def _cheapest_train(r, h):
    """The cheapest train a company could buy now: (price, name), or None
    when a price or count is unknown (then nothing is claimed)."""
    best = None
    for t in r.rules.trains:
        spec = r._train_spec(t.name)
        if spec.get("rusts_on") and h.bought(spec["rusts_on"]):
            continue                    # scrapped (F5): not sold any more
        needs = spec.get("available_on")
        if needs and not h.bought(needs):
            continue
        count = r.rules.number("trains", t.name, "count")
        price = r.rules.number("trains", t.name, "price")
        if is_unknown(count) or is_unknown(price):
            return None
        if count != "unlimited" and h.sold(t.name) >= count:
            continue
        if best is None or price < best[0]:
            best = (int(price), t.name)
    for name in h.pool_train_names():        # the pool's trains at their price
        price = r.rules.number("trains", name, "price")
        if is_unknown(price):
            return None
        if best is None or price < best[0]:
            best = (int(price), name)
    return best


def _half_kept(revenue: int, step: int = 20) -> int:
    """J2: half the revenue, rounded up to a multiple of ``step`` (the summary: 20; the
    rule book: 10, ``rulebook.jr_half_rounding``), stays in JR's treasury."""
    half = (revenue + 1) // 2
    return min(revenue, -(-half // step) * step)


def half_step(rules) -> int:
    """The multiple JR's treasury half is rounded up to (J2)."""
    step = rules.number("rulebook", "jr_half_rounding")
    return 20 if is_unknown(step) else int(step)
