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

from ...actions import Bankrupt, Dividend, Pass, RoundMarker, SellShares
from ...schema import is_unknown
from .orsteps import MINOR_NAMES, ConvertStep1890, OperatingRound1890


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
        #: the shared operating round with 1890's steps (``orsteps.py``), which take the
        #: actions moved onto it so far
        self.round = OperatingRound1890(replay)

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
            self.round.step_by_type(ConvertStep1890).convert(actor, forced=True)

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
        step = self.round.step_for(action)
        if step is not None:
            self.round.play(type(step), action)
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
