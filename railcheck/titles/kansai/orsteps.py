"""1890's operating round as the shared ``OperatingRound`` with 1890's steps (the move onto the
shared engine, step 3: docs/1890.md, "How it is built").

Each kind of a company's action in an operating round is a step of the shared protocol
(``steps/base.py``): a ``check`` that changes nothing and returns a plan (what is taken as
written, a train bought at a price that is not the list's, is a note of the plan; a check
skipped because the components file leaves its number unknown is a ``skips`` entry, counted
by ``apply``) or raises ``RuleViolation`` (the action refused: :func:`refused` carries the
notes the line made before it), and an ``apply`` that flags the plan's notes, counts its
skips and carries it out:

* :class:`ConvertStep1890`: a minor's conversion into KNR (K1-K10, N1-N4);
  :class:`PrivatiseStep1890`: Kobe Electric Railway's privatisation (N5);
* :class:`IgnoreStationStep1890`: KRTR's fee (L2);
* :class:`LayTileStep1890`: a lay (one a turn, JR's two on different hexes in phases 1-3, J3;
  Arima's extra tile, P1; OMER's free upgrade, P7; OMS's free tile, C7; the map's checks and
  the terrain's cost, O1, O1c); :class:`PlaceTokenStep1890`: a station (O2, O2a);
* :class:`RunRoutesStep1890`: the runs (O3, a 2+2's cities, O3b; OMS in Osaka, C6; KRTR's
  station, L2; the stops' values, F1); :class:`DividendStep1890`: the dividend (O4; JR's half,
  J2);
* :class:`BuyTrainStep1890`: a train from the depot (F7: a type is sold once the first of the
  type before it is; its price and count; the D's trade-in, F6), the pool or another company;
  the price paid, the president adding what the treasury lacks for a company without a train
  (B0, B2); the phase it starts and the trains it scraps (F5); the limit by kind (O5a); OMS's
  first train closes OMER (P7);
* :class:`DiscardTrainStep1890`: no discard at will; a train over the limit goes to the pool
  (O5b, O5c);
* :class:`BuyCompanyStep1890`: a private bought by a public company, in phases 2-3 only, at
  half to twice its face value (O6, F9; never OMER or a late private, P7, L0; Hankai Tramway
  not from phase 4, P3).

The round (``operating.py``'s ``OperatingRound1890``, the shared ``OperatingRound``) holds
the turns: the operating order, a turn's end, the turns the record left out, the presidents'
emergency sales and bankruptcies; it hands each of the actions above to its step
(:meth:`OperatingRound1890.play`).  A step's ``turn`` is the round's, the shared ``Turn`` of
the company operating (``Turn1890``).
"""

from __future__ import annotations

import math
from types import SimpleNamespace

from ...actions import (Bankrupt, BuyCompany, BuyTrain, Convert, DiscardTrain, Dividend,
                        IgnoreStation, LayTile, PlaceToken, Privatise, RunRoutes, SellShares)
from ...findings import RuleViolation
from ...schema import is_unknown
from ...steps.base import Step
from .holdings import KNR_CERTS, RESERVED

MINOR_NAMES = {"M1": "Kanan Railway", "M2": "Osaka Electric Railroad", "M3": "Osaka Railway",
               "M4": "Nara Electric Railway", "M5": "Kobe Electric Railway"}


def refused(rule: str, message: str, plan) -> RuleViolation:
    """A refusal after the notes (and skipped checks) the line made before it."""
    v = RuleViolation(rule, message)
    v.plan = plan                           # type: ignore[attr-defined]
    return v


class Step1890(Step):
    """A step of 1890's operating round: its findings and skipped checks are the replay's.
    The turn (``check(turn, action)``) is the round's ``Turn1890``, the shared ``Turn`` of the
    company operating (the hexes it laid on, ``laid_on``; its own lays, ``tile_lays``; whether
    it ran, ``ran``, and its revenue; its dividend decided, ``dividend_done``)."""

    @property
    def r(self):
        return self.round.replay

    @property
    def h(self):
        return self.game

    @staticmethod
    def plan(**kw) -> SimpleNamespace:
        return SimpleNamespace(notes=[], skips=[], **kw)

    def number(self, plan, kind: str, *keys):
        """A number of the components file; an unknown one is a check of ``kind`` skipped,
        counted when the plan is carried out (the check itself changes nothing)."""
        value = self.r.rules.number(*keys)
        if is_unknown(value):
            plan.skips.append((kind, keys))
        return value

    def settle_notes(self, plan) -> None:
        """The plan's skipped checks counted and its notes flagged, in the order met."""
        r = self.r
        for kind, keys, *why in plan.skips:
            r.skip(kind, keys, reason=why[0] if why else "")
        for rule, message in plan.notes:
            r.flag(rule, message)


class BuyTrainStep1890(Step1890):
    """A train bought: from the depot (F5-F7, the price and count the components file gives),
    the pool or another company (at the record's price)."""

    name = "buying trains"
    verb = "buy trains"
    actions = (BuyTrain,)

    def check(self, turn, action: BuyTrain):
        r, h = self.r, self.h
        corp, name = action.actor, action.train
        source = action.source or "depot"
        plan = self.plan(corp=corp, name=name, source=source)
        if name not in [t.name for t in r.rules.trains]:
            raise refused("trains.unknown", f"Kansai has no {name}-train", plan)
        notes = plan.notes
        if source == "depot":
            needs = r._train_spec(name).get("available_on")
            if needs and not h.bought(needs):
                notes.append(("trains.not_available", f"a {name}-train is sold once the first "
                                                      f"{needs}-train is (F7)"))
            price = self.number(plan, "train prices", "trains", name, "price")
            if action.exchange and action.exchange not in h.train_names(corp):
                notes.append(("trains.exchange",
                              f"{corp} owns no {action.exchange}-train to trade in"))
            elif action.exchange:
                worth = self.number(plan, "train trade-in values", "trains", "D", "trade_in",
                                    action.exchange)
                if not is_unknown(worth) and not is_unknown(price) and \
                        action.price is not None and action.price != price - worth:
                    notes.append(("trains.price", f"a D costs {r.money(price)} less "
                                                  f"{r.money(worth)} for the {action.exchange} "
                                                  f"traded in: {r.money(price - worth)}, not "
                                                  f"{r.money(action.price)} (F6)"))
            elif not is_unknown(price) and action.price is not None and action.price != price:
                notes.append(("trains.price", f"a {name}-train costs {r.money(price)} from the "
                                              f"depot, not {r.money(action.price)}"))
            count = self.number(plan, "train counts", "trains", name, "count")
            if not is_unknown(count) and count != "unlimited" and h.sold(name) >= count:
                notes.append(("trains.not_available", f"all {count} {name}-trains are sold"))
        elif source == "pool":
            if name not in h.pool_train_names():
                raise refused("trains.not_available", f"the pool holds no {name}-train", plan)
        elif name not in h.train_names(source):
            raise refused("trains.not_owned", f"{source} owns no {name}-train", plan)
        return plan

    def apply(self, turn, action: BuyTrain, plan) -> None:
        r, h = self.r, self.h
        corp, name, source = plan.corp, plan.name, plan.source
        self.settle_notes(plan)
        # (a depot train leaves the depot below, taken as bought)
        train = None if source == "depot" else h.take_train(name, source)
        self.pay(corp, action, source)
        if action.exchange and action.exchange in h.train_names(corp):
            old = h.take_train(action.exchange, corp)
            # F6: a traded train the D makes obsolete is scrapped, another goes to the pool
            if old is not None and old.spec.rusts_on != name:
                h.to_pool(old)
        h.give_train_to(train or h.new_train(name), corp)
        if source == "depot":
            r.train_bought(name)
        limit = self.h.train_limit(self.h.corporations[corp])
        if len(h.train_names(corp)) > limit:
            r.flag("trains.limit", f"{corp} owns {len(h.train_names(corp))} trains, over the "
                                   f"limit of {limit} in phase {r.phase.name}")
        if corp == "OMS" and not h.private_closed("OMER") and h.owner_of("OMER") is not None:
            h.companies["OMER"].closed = True    # P7

    def pay(self, corp: str, action: BuyTrain, source: str) -> None:
        """The price (the record's, else the list's; a D less its trade-in) from the company
        to the bank or the selling company.  A company without a train whose treasury is
        short takes the rest from its president (B0); one with a train is flagged
        (trains.cash)."""
        r, h = self.r, self.h
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
        spec = r.rules.corp_by_sym[corp]
        president = h.minor_owner(corp) if spec.kind == "minor" else h.president(corp)
        if not led.sure(corp) and not h.train_names(corp) and president is not None:
            # B0 with a treasury not sure: what the president adds is not sure either
            led.mark_unsure(president, *led.unsure[corp])
        if cost > have and led.sure(corp):
            if not h.train_names(corp) and president is not None:      # B0
                short = cost - have
                mine = [x for x in self.round.sales if x[:2] == (corp, president)]
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
                           f"{corp} has {r.money(have)} and {president} "
                           f"{r.money(led.get(president))}; {what} costs {r.money(cost)} (B0)")
                led.pay(president, corp, short, f"{president} added {r.money(short)} for "
                                                f"{corp}'s {name}-train (B0)")
            else:
                led.afford(corp, cost, "trains.cash", what)
        led.pay(corp, payee, cost, f"{corp} bought {what} for {r.money(cost)}")


class DiscardTrainStep1890(Step1890):
    """O5b, O5c: no voluntary discard; a train over the limit goes to the pool."""

    name = "discarding trains"
    verb = "discard trains"
    actions = (DiscardTrain,)

    def check(self, turn, action: DiscardTrain):
        corp = action.actor
        own = self.h.train_names(corp)
        if action.train not in own:
            raise RuleViolation("trains.not_owned", f"{corp} owns no {action.train}-train")
        limit = self.h.train_limit(self.h.corporations[corp])
        if len(own) <= limit:
            raise RuleViolation("trains.discard",
                                f"{corp} owns {len(own)} trains, within the limit of {limit}; a "
                                f"company may not discard a train at will (O5b)")
        return self.plan(corp=corp, name=action.train)

    def apply(self, turn, action: DiscardTrain, plan) -> None:
        h = self.h
        h.to_pool(h.take_train(plan.name, plan.corp))      # O5c: to the pool


class BuyCompanyStep1890(Step1890):
    """O6, F9: a public company buys a private in phases 2-3, at half to twice its face
    value; never OMER or a late private (P7, L0), nor Hankai Tramway from phase 4 (P3)."""

    name = "buying privates"
    verb = "buy privates"
    actions = (BuyCompany,)

    def check(self, turn, action: BuyCompany):
        r, h = self.r, self.h
        corp, sym = action.actor, action.company
        if r.rules.corp_by_sym[corp].kind == "minor":
            raise RuleViolation("private.buy_phase", f"{corp} is a minor: only the public "
                                                     f"companies buy privates (F9)")
        if not r.phase.company_buy:
            raise RuleViolation("private.buy_phase", f"companies buy privates only in phases 2 "
                                                     f"and 3 (O6); this is phase {r.phase.name}")
        if sym in [c.sym for c in r.rules.late_companies] or sym == "OMER" or \
                (sym == "HKT" and r.phase_at_least("4")):
            raise RuleViolation("private.no_sale", f"{sym} may not be sold to a company (P7, L0)")
        if h.private_closed(sym):
            raise RuleViolation("private.closed", f"{sym} is closed")
        plan = self.plan(corp=corp, sym=sym, seller=h.owner_of(sym))
        value = self.number(plan, "private prices", "companies", sym, "value")
        if not is_unknown(value):
            # O6, F9: half to twice the face value (company_sales; half rounded up)
            sales = r.rules.company_sales
            lo, hi = math.ceil(value * sales.min_factor), math.floor(value * sales.max_factor)
            if not lo <= action.price <= hi:
                plan.notes.append(("private.price",
                                   f"{sym} (face value {r.money(value)}) is bought for "
                                   f"{r.money(lo)} to {r.money(hi)}, not "
                                   f"{r.money(action.price)} (O6)"))
        return plan

    def apply(self, turn, action: BuyCompany, plan) -> None:
        r = self.r
        corp, sym, seller = plan.corp, plan.sym, plan.seller
        self.settle_notes(plan)
        r.ledger.afford(corp, action.price, "private.cash", sym)
        if seller is not None:
            r.ledger.pay(corp, seller, action.price, f"{corp} bought {sym} from {seller} for "
                                                     f"{r.money(action.price)} (O6)")
        self.h.set_owner(sym, corp)


# ----------------------------------------------------------------------
# track and stations (O1, O2)

class LayTileStep1890(Step1890):
    """O1, F2: a tile lay: one a turn (JR two on different hexes in phases 1-3, J3), Arima's
    extra tile in Arima (P1), OMER's free upgrade of an Osaka tile (P7), OMS's free tile in
    Osaka in its first OR (C7); on the components file's map when it gives one (hex, colour,
    upgrade, connection; OMS lays through the other stations in Osaka, C6), its terrain cost
    (O1c)."""

    name = "laying track"
    verb = "lay track"
    actions = (LayTile,)

    def check(self, turn, action: LayTile):
        r = self.r
        corp = action.actor
        lays = turn.laid_on
        plan = self.plan(corp=corp, omer_used=False, board=None)
        jr = corp == "JR" and r.jr_is_state()
        allowed = r.phase.jr_tile_lays if jr else r.rules.operating.tile_lays
        arima = self.arima_extra(plan, corp, action, lays)
        omer = not arima and self.omer_upgrade(plan, corp, action, lays)
        plan.extra = arima or omer
        if jr and action.hex in lays:
            plan.notes.append(("kansai.jr_two_lays_one_hex",
                               f"JR lays its second tile of the turn on {action.hex}, where it "
                               f"laid the first: its two lays in phases 1-3 are on different "
                               f"hexes (J3)"))
        elif not plan.extra and turn.tile_lays >= allowed:
            plan.notes.append(("track.one_lay",
                               f"{corp} already laid {len(lays)} tile(s) this turn; the limit is "
                               f"{allowed}" + (" (JR from phase 4: one)" if corp == "JR" else "")))
        plan.free = omer or self.oms_free_tile(corp, action)
        m = self.round.map
        if m.board is not None:
            # O1, F2 on the map; Arima's tile needs no connection (P1), nor OMER's upgrade
            # (P7) nor OMS's free tile in Osaka in its first OR (C7); OMS's other lays are
            # connected through the other stations in Osaka (C6: mapcheck.lifted)
            try:
                plan.board = m.plan_lay(corp, action, connected=not (arima or omer or plan.free))
            except RuleViolation as v:
                raise refused(v.rule, v.message, plan)
        return plan

    def apply(self, turn, action: LayTile, plan) -> None:
        r, st, m = self.r, self.r.state, self.round.map
        corp = plan.corp
        self.settle_notes(plan)
        if not plan.extra:
            turn.tile_lays += 1
        turn.laid_on.append(action.hex)
        if plan.omer_used:
            st.omer_used = True
        if plan.board is not None:
            cost = m.apply_lay(plan.board)
            st.laid_hexes.add(action.hex)
            st.tile_on[action.hex] = action.tile
            led = r.ledger
            if cost and not plan.free:
                led.afford(corp, cost, "track.cost", f"the terrain of {action.hex}")
                led.pay(corp, "bank", cost, f"{corp} paid {r.money(cost)} for the terrain of "
                                            f"{action.hex} (O1c)")
            return
        self.round.map_unchecked("tile lays on the map (hex, colour, upgrade, connection)")
        self.lay_cost(corp, action, free=plan.free)
        st.tile_on[action.hex] = action.tile

    def oms_free_tile(self, corp: str, action: LayTile) -> bool:
        """C7: in its first OR, OMS lays a tile in Osaka for free."""
        if corp != "OMS" or self.r.state.oms_turns != 1:
            return False
        osaka = {self.r.rules.number("map", "places", p, "hex")
                 for p in self.r.rules.corp_by_sym["OMS"].extra["area_names"]}
        return action.hex in osaka

    def lay_cost(self, corp: str, action: LayTile, free: bool = False) -> None:
        """O1c: an upgrade is free; a first lay costs its hex's terrain (the
        ``cost`` of the hex in ``map.hexes``, docs/board.md).  Without the map
        the lay is taken as free and the company's cash is known only as an
        upper bound from then on."""
        r = self.r
        st, led = r.state, r.ledger
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

    def omer_upgrade(self, plan, corp: str, action: LayTile, lays: list) -> bool:
        """P7: before OMS's first train, OMER allows one free upgrade of one
        of the three Osaka tiles; read as a lay besides OMS's own (the
        lenient reading), once."""
        r, h = self.r, self.h
        if corp != "OMS" or h.private_closed("OMER") or r.state.omer_used or not lays:
            return False
        three = r.rules.number("map", "osaka_three")
        if is_unknown(three):
            plan.skips.append(("OMER's free upgrade (the three Osaka hexes)",
                               ("map", "osaka_three")))
            return True
        if action.hex in three:
            plan.omer_used = True
            return True
        return False

    def arima_extra(self, plan, corp: str, action: LayTile, lays: list) -> bool:
        """P1: a company owning Arima Railway lays an extra tile in Arima."""
        r, h = self.r, self.h
        if h.owner_of("ARIMA") != corp or h.private_closed("ARIMA") or not lays:
            return False
        arima = r.rules.number("map", "places", "Arima", "hex")
        if is_unknown(arima):
            plan.skips.append(("Arima Railway's extra tile (its hex)",
                               ("map", "places", "Arima", "hex")))
            return True
        return action.hex == arima


class PlaceTokenStep1890(Step1890):
    """O2: a station, one of a company per hex (O2a), on the map when the components file
    gives one; the first (home) free, the others at the components file's token costs."""

    name = "placing a station"
    verb = "place a station"
    actions = (PlaceToken,)

    def check(self, turn, action: PlaceToken):
        corp = action.corporation or action.actor
        if action.hex in self.r.state.stations.get(corp, ()):
            raise RuleViolation("kansai.one_station_per_hex",
                                f"{corp} already has a station on {action.hex}: one station of "
                                f"a company per hex (O2a)")
        m = self.round.map
        plan = self.plan(corp=corp, board=None)
        if m.board is not None:
            plan.board = m.plan_token(corp, action)     # raises: refused by the map
        return plan

    def apply(self, turn, action: PlaceToken, plan) -> None:
        if plan.board is not None:
            self.round.map.apply_token(plan.board)
        self.r.state.stations.setdefault(plan.corp, set()).add(action.hex)
        self.pay_token(plan.corp)

    def pay_token(self, corp: str) -> None:
        """O2: the first station (home) is free, the others cost what the
        components file's token list says, in order."""
        r = self.r
        st, led = r.state, r.ledger
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


# ----------------------------------------------------------------------
# runs and dividends (O3, O4), Kobe Rapid Transit's fee (L2)

#: a stop that is not one of the places the components file values
UNKNOWN_VALUE = object()


class RunRoutesStep1890(Step1890):
    """O3: the trains run once a turn, each a train of the company's, as far as it goes (a
    2+2 through at most two cities or off-boards, O3b; OMS only in Osaka with
    ``rulebook.oms_area_only``, C6; past KRTR's station in Kobe only after its fee, L2), on
    the map when the components file gives one, worth the values of their stops (F1)."""

    name = "running trains"
    verb = "run trains"
    actions = (RunRoutes,)

    def check(self, turn, action: RunRoutes):
        corp = action.actor
        if turn.ran:
            # O3: the trains run once in a turn; the second run is ignored
            raise RuleViolation("route.twice", f"{corp} already ran its trains this turn (O3); "
                                               f"this run is ignored")
        plan = self.plan(corp=corp)
        own = self.h.train_names(corp)
        for route in action.routes:
            if route.train not in own:
                plan.notes.append(("route.train", f"{corp} owns no {route.train}-train "
                                                  f"(its trains: {', '.join(own) or 'none'})"))
            if route.train == "2+2":
                self.check_two_plus_two(plan, route)
            else:
                self.check_reach(plan, route)
            if corp == "OMS":
                self.check_oms_area(plan, route)
            self.check_krtr(plan, corp, route)
        m = self.round.map
        if m.board is None:
            self.round.map_unchecked("routes and revenues on the map", plan)
            self.check_revenue(plan, corp, action)
        elif not plan.notes:
            # O3, O3a on the map (one finding per run: not again when flagged above)
            wrong = m.check_runs(corp, action)
            if wrong is not None:
                plan.notes.append((wrong.rule, wrong.message))
            else:
                self.check_revenue(plan, corp, action)
        return plan

    def apply(self, turn, action: RunRoutes, plan) -> None:
        self.settle_notes(plan)
        revenue = self.r.ledger.run(plan.corp, action)
        self.round.last_revenue = revenue
        turn.ran = True
        turn.revenue = revenue

    def check_revenue(self, plan, corp: str, action: RunRoutes) -> None:
        """F1, O3: a run whose every stop is a place the components file
        values (``map.places``) is worth the sum of their values at the
        phase's level; a claim that differs is ``route.revenue``."""
        r, m = self.r, self.round.map
        level = r.phase.revenue_level
        worths, from_map = [], []
        for route in action.routes:
            parts: list | None = []
            for stop in route.stops:
                place = r.places.get(stop.hex)
                value = UNKNOWN_VALUE if place is None else \
                    r.rules.number("map", "places", place, "revenue", level)
                if place is None and m.stop_value(stop) is not None:
                    # no place of map.places: its one value printed on the map
                    place, value = str(stop), m.stop_value(stop)
                    from_map.append(f"{place} at the map's {r.money(value)}")
                if is_unknown(value) or value is UNKNOWN_VALUE:
                    parts = None
                    break
                parts.append((place, int(value)))
            worths.append(parts)
            if parts is not None and route.revenue is not None and \
                    route.revenue != sum(v for _, v in parts):
                plan.notes.append((
                    "route.revenue",
                    f"{corp}'s {route.train}-train run {'-'.join(str(s) for s in route.stops)} "
                    f"is worth {r.money(sum(v for _, v in parts))} ("
                    + " + ".join(f"{p} {v}" for p, v in parts)
                    + f": the {level} values, F1), not the {r.money(route.revenue)} claimed"))
                return
        if action.revenue is not None and worths and all(w is not None for w in worths) and \
                all(rt.revenue is None for rt in action.routes):
            worth = sum(v for w in worths for _, v in w)
            if worth != action.revenue:
                plan.notes.append(("route.revenue",
                                   f"{corp}'s runs are worth {r.money(worth)} (the {level} "
                                   f"values of their stops, F1"
                                   + "".join(f"; {x}" for x in from_map)
                                   + f"), not the {r.money(action.revenue)} claimed"))

    def check_oms_area(self, plan, route) -> None:
        """C6, with rulebook.oms_area_only: true: OMS runs only in the four Osaka cities."""
        r = self.r
        only = self.number(plan, "OMS's runs outside Osaka", "rulebook", "oms_area_only")
        if only is not True:
            return
        osaka = {r.rules.number("map", "places", p, "hex") for p in
                 r.rules.corp_by_sym["OMS"].extra["area_names"]}
        if any(is_unknown(h) for h in osaka):
            plan.skips.append(("OMS's runs outside Osaka", ("map", "places")))
            return
        outside = [s.hex for s in route.stops if s.hex not in osaka]
        if outside:
            plan.notes.append(("kansai.oms_area", f"OMS runs only in Osaka (C6, "
                                                  f"rulebook.oms_area_only: true); "
                                                  f"{', '.join(outside)} is outside"))

    def stop_is_city(self, hex_name: str):
        """True/False, or None when the components file does not say."""
        place = self.r.places.get(hex_name)
        if place is None:
            return None
        slots = self.r.rules.number("map", "places", place, "slots")
        return None if is_unknown(slots) else slots > 0

    def check_two_plus_two(self, plan, route) -> None:
        """O3b: four places, at most two of them cities or off-boards."""
        r = self.r
        stops = [s.hex for s in route.stops]
        if len(stops) > 4:
            plan.notes.append(("route.distance",
                               f"a 2+2 runs through 4 places, not {len(stops)} (O3b)"))
            return
        kinds = [self.stop_is_city(h) for h in stops]
        cities = [h for h, k in zip(stops, kinds) if k]
        if len(cities) > 2:
            plan.notes.append((
                "kansai.train_2plus2",
                f"a 2+2 runs through at most two cities or off-boards; this one through "
                f"{len(cities)}: {', '.join(r.places[h] + ' (' + h + ')' for h in cities)} "
                f"(O3b)"))
        elif None in kinds:
            plan.skips.append(("2+2 routes (which stops are cities)", ("map", "places")))

    def check_reach(self, plan, route) -> None:
        """O3: an n-train stops at n places (towns count: 1890.md O3), no
        place twice; a 3+3 or a D as far as the components file says."""
        r = self.r
        stops = [s.hex for s in route.stops]
        twice = sorted({h for h in stops if stops.count(h) > 1})
        if twice:
            plan.notes.append(("route.repeat_stop", f"a run visits {', '.join(twice)} twice "
                                                     f"(O3)"))
            return
        distance = r._train_spec(route.train).get("distance")
        if distance is None and route.train in ("3+3", "D"):
            distance = self.number(plan, "train distances (3+3, D)", "trains", route.train,
                                   "distance")
            if is_unknown(distance):
                return
        if isinstance(distance, int) and len(stops) > distance:
            plan.notes.append(("route.distance", f"a {route.train}-train runs through "
                                                 f"{distance} places, not {len(stops)} (O3)"))
        elif isinstance(distance, dict):
            limit = int(distance.get("cities", 0)) + int(distance.get("towns", 0))
            kinds = [self.stop_is_city(h) for h in stops]
            cities = len([k for k in kinds if k])
            if len(stops) > limit or cities > int(distance.get("cities", 0)):
                plan.notes.append((
                    "route.distance",
                    f"a {route.train} runs through {limit} places, at most "
                    f"{distance.get('cities', 0)} of them cities; this one through "
                    f"{len(stops)}, {cities} cities (O3)"))
            elif None in kinds:
                plan.skips.append((f"{route.train} routes (which stops are cities)",
                                   ("map", "places")))

    def check_krtr(self, plan, corp: str, route) -> None:
        """L2: a company runs through Kobe past KRTR's station only once it paid the fee (every
        OR with ``rulebook.krtr_fee_per: each_or``) or had a station there before KRTR
        started; JR and OMS pass freely."""
        r, st = self.r, self.r.state
        if self.h.owner_of("KRTR") is None or corp in ("JR", "OMS") or corp in st.krtr_free:
            return
        kobe = r.rules.number("map", "places", "Kobe", "hex")
        if is_unknown(kobe):
            return
        m = self.round.map
        inner = [s.hex for s in route.stops[1:-1]]
        if m.board is not None and kobe in inner and corp not in st.krtr_paid and \
                not m.blocks(corp, kobe):
            return                      # a free slot in Kobe: KRTR's station blocks nothing
        if kobe in inner and corp in st.krtr_paid:
            paid_in = st.krtr_paid[corp]
            if paid_in == r.round_label:
                return
            per = self.number(plan, "the KRTR fee paid once or every OR", "rulebook",
                              "krtr_fee_per")
            if per == "each_or":
                plan.notes.append(("kansai.krtr_not_paid",
                                   f"{corp} paid KRTR's fee in {paid_in}; the fee is paid every "
                                   f"OR (rulebook.krtr_fee_per: each_or), not in "
                                   f"{r.round_label}"))
            return
        if kobe in inner:
            plan.notes.append(("kansai.krtr_not_paid",
                               f"{corp} runs through Kobe ({kobe}) past Kobe Rapid Transit's "
                               f"station without paying {r.money(KRTR_FEE)} to ignore it and had "
                               f"no station there before KRTR started (L2)"))


class DividendStep1890(Step1890):
    """O4: one decision a turn: paid out or withheld; JR, the state railway until phase 6,
    withholds or pays half (J2), and only JR pays half."""

    name = "paying dividends"
    verb = "pay a dividend"
    actions = (Dividend,)

    def check(self, turn, action: Dividend):
        r = self.r
        corp = action.actor
        if turn.dividend_done:
            # O4: one decision a turn; the second is ignored
            raise RuleViolation("dividend.twice", f"{corp} already decided its dividend this "
                                                  f"turn (O4); this one is ignored")
        plan = self.plan(corp=corp)
        state_jr = corp == "JR" and r.jr_is_state()
        if state_jr and action.kind == "payout":
            rev = self.round.last_revenue
            step = half_step(r.rules)
            plan.notes.append((
                "kansai.jr_full_dividend",
                f"JR is the state railway until phase 6 (this is phase {r.phase.name}): it "
                f"withholds or pays half"
                + (f"; of {r.money(rev)}, {r.money(half_kept(rev, step))} to the treasury and "
                   f"{r.money(rev - half_kept(rev, step))} to the shareholders" if rev else "")
                + " (J2)"))
        elif action.kind == "half" and not state_jr:
            plan.notes.append(("dividend.kind", f"only JR, until phase 6, pays half a dividend "
                                                f"(J2); {corp} pays out or withholds"))
        if corp == "JR" and action.kind == "half" and \
                is_unknown(r.rules.number("rulebook", "jr_half_dividend_move")):
            plan.skips.append(("JR's share price after a half dividend",
                               ("rulebook", "jr_half_dividend_move")))
        return plan

    def apply(self, turn, action: Dividend, plan) -> None:
        self.settle_notes(plan)
        # taken as the record says (a full payout of JR flagged above is paid in full)
        turn.dividend_done = True
        self.r.ledger.dividend(plan.corp, action.kind, turn.revenue)


def half_kept(revenue: int, step: int = 20) -> int:
    """J2: half the revenue, rounded up to a multiple of ``step`` (the summary: 20; the
    rule book: 10, ``rulebook.jr_half_rounding``), stays in JR's treasury."""
    half = (revenue + 1) // 2
    return min(revenue, -(-half // step) * step)


def half_step(rules) -> int:
    """The multiple JR's treasury half is rounded up to (J2)."""
    step = rules.number("rulebook", "jr_half_rounding")
    return 20 if is_unknown(step) else int(step)


#: L2: the fee to ignore KRTR's station, printed in the summary
KRTR_FEE = 100


class IgnoreStationStep1890(Step1890):
    """L2: a company (not JR or OMS) pays KRTR's fee, 100, to ignore its station in Kobe."""

    name = "paying Kobe Rapid Transit's fee"
    verb = "pay KRTR's fee"
    actions = (IgnoreStation,)

    def check(self, turn, action: IgnoreStation):
        r = self.r
        corp = action.actor
        if action.company != "KRTR":
            raise RuleViolation("kansai.krtr_fee", f"only Kobe Rapid Transit's station may be "
                                                   f"ignored for a fee, not {action.company}'s")
        if corp in ("JR", "OMS"):
            raise RuleViolation("kansai.krtr_fee", f"{corp} may not pay to ignore KRTR's station "
                                                   f"(L2: every company but JR and OMS)")
        if self.h.owner_of("KRTR") is None:
            raise RuleViolation("kansai.krtr_fee", "Kobe Rapid Transit has not started: it has "
                                                   "no station to ignore")
        plan = self.plan(corp=corp)
        if action.price is not None and action.price != KRTR_FEE:
            # flagged, and taken as paid: the table let the company ignore the station
            plan.notes.append(("kansai.krtr_not_paid",
                               f"{corp} pays {r.money(action.price)} to ignore KRTR's station; "
                               f"the fee is {r.money(KRTR_FEE)} (L2)"))
        return plan

    def apply(self, turn, action: IgnoreStation, plan) -> None:
        r, corp = self.r, plan.corp
        self.settle_notes(plan)
        r.state.krtr_paid[corp] = r.round_label
        fee = action.price if action.price is not None else KRTR_FEE
        r.ledger.pay(corp, "bank", fee, f"{corp} paid {r.money(fee)} to ignore KRTR (L2)")


# ----------------------------------------------------------------------
# KNR's formation (K1-K10) and Kobe Electric Railway's privatisation (N5)

class ConvertStep1890(Step1890):
    """K1-K10, N1-N4: a minor (1-4) converts into Kinki Nippon Railway in its turn, from its
    phase (Kanan Railway: N1 or K4, ``rulebook.kanan_window``), once KNR started (Osaka
    Electric Railroad starts it, K8; Osaka Railway converts with it, K3)."""

    name = "converting into KNR"
    verb = "convert"
    actions = (Convert,)

    def check(self, turn, action: Convert):
        r, st = self.r, self.r.state
        minor = action.actor
        if minor not in KNR_CERTS:
            raise RuleViolation("kansai.conversion", f"{minor} does not convert into KNR (only "
                                                     f"minors 1-4 do)")
        # a minor that converted or closed already: nothing happens (not said again)
        plan = self.plan(minor=minor, done=self.h.corporations[minor].closed)
        if plan.done:
            return plan
        if minor == "M3":
            if not st.knr_started:
                plan.notes.append(("kansai.conversion_early", "Osaka Railway converts when KNR "
                                                              "starts (K3), and KNR has not "
                                                              "started"))
            return plan
        start = self.round.earliest_phase(minor)
        if not r.phase_at_least(start):
            plan.notes.append(("kansai.conversion_early",
                               f"{minor} ({MINOR_NAMES[minor]}) may convert into KNR from phase "
                               f"{start}; this is phase {r.phase.name}"))
        elif minor == "M1" and is_unknown(r.rules.number("rulebook", "kanan_window")) \
                and not r.phase_at_least("3"):
            plan.skips.append(("Kanan Railway's conversion window (N1 or K4)",
                               ("rulebook", "kanan_window")))
        if minor != "M2" and not st.knr_started:
            plan.notes.append(("kansai.conversion_early", f"{minor} converts before KNR started "
                                                          f"(Osaka Electric Railroad starts it, "
                                                          f"K8)"))
        return plan

    def apply(self, turn, action: Convert, plan) -> None:
        self.settle_notes(plan)
        if not plan.done:
            self.convert(plan.minor)

    def convert(self, minor: str, forced: bool = False) -> None:
        """The minor closes; its owner receives KNR certificates; its trains
        go to KNR (and its station, for Nara: N4).  M2 starts KNR, which
        operates at once (K8), and Osaka Railway converts with it (K3)."""
        r, h, rnd = self.r, self.h, self.round
        st, led, m = r.state, r.ledger, rnd.map
        h.corporations[minor].closed = True
        owner = h.minor_owner(minor)
        if led.closed("KNR"):
            # K10: KNR closed first: the minor closes when it would convert; its owner
            # receives nothing, its cash goes to the bank and its trains leave the game
            led.pay(minor, "bank", led.get(minor), f"{minor} closed with KNR (K10)")
            h.drop_trains(minor)
            st.stations.pop(minor, None)
            m.closes(minor)
            return
        self.move_capital(minor, owner)
        if owner is not None:
            # the bank's reserved certificates (K7; Kinki as a normal company: the IPO's)
            if not h.give("KNR", owner, KNR_CERTS[minor], source=RESERVED):
                h.give("KNR", owner, KNR_CERTS[minor])
            rnd.knr_shares_given += len([c for c in KNR_CERTS[minor] if c == 10])
        h.move_trains(minor, "KNR")
        if minor == "M4":
            st.stations.setdefault("KNR", set()).update(st.stations.get("M4", set()))
        st.stations.pop(minor, None)
        m.closes(minor, into="KNR" if minor == "M4" else None)
        if minor == "M2" and not st.knr_started:
            st.knr_started = True
            # K8: KNR's turn follows at once (after a conversion the record left out,
            # the record's own order stands: that error is already reported)
            rnd.knr_due = not forced
            if not forced:
                # (the walk's: KNR's turn is the next of the order, K8)
                rnd.move_up(h.corporations["KNR"])
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
        if minor == "M2" and "KNR" not in r.state.capitalised:
            r.state.capitalised.add("KNR")
            r.state.knr_first_or = r.round_label
            par = self.h.par("KNR")
            times = int(r.rules.knr["float_cash_par_times"])
            if par is None:
                led.mark_unsure("KNR", "KNR's capital (no par value set)", ("market", "rows"),
                                reason="KNR has no par value")
            else:
                led.pay("bank", "KNR", times * par,
                        f"KNR started: {times} x par {r.money(par)} = {r.money(times * par)} to its "
                        f"treasury (K8), with {r.money(cash)} from M2")


class PrivatiseStep1890(Step1890):
    """N5: Kobe Electric Railway (M5) may become a private of its owner: its cash to the bank,
    its station off the map, its trains out of the game."""

    name = "privatising"
    verb = "privatise"
    actions = (Privatise,)

    def check(self, turn, action: Privatise):
        if action.actor != "M5":
            raise RuleViolation("kansai.conversion", f"only Kobe Electric Railway (M5) may "
                                                     f"privatise, not {action.actor}")
        return self.plan()

    def apply(self, turn, action: Privatise, plan) -> None:
        r, h = self.r, self.h
        h.corporations["M5"].closed = True
        r.ledger.pay("M5", "bank", r.ledger.get("M5"), "M5 privatised: its cash to the bank (N5)")
        r.state.stations.pop("M5", None)
        self.round.map.closes("M5")
        h.drop_trains("M5")
        h.set_owner("M5", h.minor_owner("M5"))


# ----------------------------------------------------------------------
# the presidents' sales for a train and bankruptcy (B0-B4, E1)

class EmergencySaleStep1890(Step1890):
    """B0-B2: a player's sale in an operating round raises money for a train his company must
    buy (it owns none, O5); it may not cost him that company's presidency (B1).  Taken as
    written (the sale itself is the stock round's step, ``SellSharesStep1890``); whether he
    sold more than needed (B2) is checked at the purchase."""

    name = "raising money for a train"
    verb = "sell shares"
    actions = (SellShares,)

    def check(self, turn, action: SellShares):
        r, h = self.r, self.h
        player = action.actor
        # the company: the one whose turn it is, or the one acting next (the sales written
        # before its purchase, at the start of its turn)
        nxt = next((a.actor for a in self.game.following.ahead()
                    if not (isinstance(a, SellShares) and h.is_player(a.actor))), None)
        corps = [c for c in (self.round.actor, nxt) if c in r.rules.corp_by_sym]
        corp = next((c for c in corps if player in (h.minor_owner(c), h.president(c))),
                    corps[0] if corps else None)
        plan = self.plan(corp=corp, player=player)
        spec = r.rules.corp_by_sym.get(corp) if corp else None
        president = None if spec is None else (
            h.minor_owner(corp) if spec.kind == "minor" else h.president(corp))
        if corp is None or president != player:
            plan.notes.append((
                "emergency.not_needed",
                f"{player} may not sell shares in an operating round: "
                + (f"{player} is not the president of {corp}, whose turn it is (B0)"
                   if corp else "no company of his is buying a train (B0)")))
        elif h.train_names(corp):
            plan.notes.append(("emergency.not_needed",
                               f"{player} may not sell shares: {corp} owns a train "
                               f"({', '.join(h.train_names(corp))}) (B0)"))
        else:
            for sale in action.sales:
                if sale.corporation == corp:
                    left = h.percent(corp, player) - 10 * (sale.count or 1)
                    if any(h.percent(corp, p) > left for p in h.names if p != player):
                        plan.notes.append(("emergency.presidency",
                                           f"{player} may not give up the presidency of {corp} "
                                           f"while raising money for it (B1)"))
        return plan

    def apply(self, turn, action: SellShares, plan) -> None:
        r = self.r
        led = r.ledger
        self.settle_notes(plan)
        before = led.get(plan.player)
        each = [led.price(s.corporation) for s in action.sales]
        r.stock.sell(action)
        proceeds = led.get(plan.player) - before
        if led.on and proceeds > 0 and all(e is not None for e in each):
            self.round.sales.append((plan.corp, plan.player, proceeds, min(each)))


class BankruptStep1890(Step1890):
    """E1: a player's bankruptcy ends the game, at once or after the set of ORs
    (``rulebook.end_on_bankruptcy``; unknown: the record's end).  B0-B4: only the president
    of the company that must buy a train (it owns none, O5) goes bankrupt, and only when its
    treasury, his cash and every share he may sell (not his president's certificates, SS3;
    not that company's presidency, B1; the pool at most 50%, B4; only companies that
    operated, SS1) cannot pay the cheapest train on sale.  Taken as written."""

    name = "going bankrupt"
    verb = "go bankrupt"
    actions = (Bankrupt,)

    def check(self, turn, action: Bankrupt):
        plan = self.plan()
        self.check_need(plan, action)
        return plan

    def apply(self, turn, action: Bankrupt, plan) -> None:
        r = self.r
        self.settle_notes(plan)
        timing = r.number("the end's timing after a bankruptcy", "rulebook", "end_on_bankruptcy")
        if timing == "immediate":
            r.finished, r.end_reason = True, "bankrupt"
        elif timing == "full_or":
            r.end_after_set, r.end_after_reason = True, "bankrupt"

    def check_need(self, plan, action: Bankrupt) -> None:
        r, h = self.r, self.h
        st, notes = r.state, plan.notes

        def president_of(c):
            return h.minor_owner(c) if r.rules.corp_by_sym[c].kind == "minor" \
                else h.president(c)

        actor = self.round.actor
        corp = actor if actor in r.rules.corp_by_sym else None
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
            notes.append(("bankrupt.not_president", f"{action.actor} goes bankrupt with no "
                                                    f"company buying a train (B0)"))
            return
        president = president_of(corp)
        player = president if action.actor == corp else action.actor
        if president is None:
            notes.append(("bankrupt.no_president", f"{corp} has no president to go bankrupt "
                                                   f"for it"))
            return
        if player != president:
            notes.append(("bankrupt.not_president", f"{player} is not the president of {corp}, "
                                                    f"whose turn it is ({president} is): only "
                                                    f"he may go bankrupt for its train (B0)"))
            return
        if h.train_names(corp):
            notes.append(("bankrupt.not_needed",
                          f"{corp} owns a train ({', '.join(h.train_names(corp))}): it need not "
                          f"buy one, so {player} does not go bankrupt (B0, O5)"))
            return
        led = r.ledger
        kind = "whether a bankruptcy was needed (the money it could raise)"
        if not led.on:
            return
        if not (led.sure(player) and led.sure(corp)):
            plan.skips.append((kind, (), f"{player}'s or {corp}'s cash is not sure"))
            return
        cheapest = cheapest_train(r, h)
        if cheapest is None:
            plan.skips.append((kind, ("trains",), "a train's price or count is unknown"))
            return
        shares, parts = 0, []
        pool_limit = r.rules.stock.pool_limit
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
            notes.append(("bankrupt.not_needed",
                          f"{player} can raise {r.money(total)} ({corp}'s treasury "
                          f"{r.money(treasury)}, his cash {r.money(cash)}"
                          + (", " + ", ".join(parts) if parts else "")
                          + f"), enough for a {cheapest[1]}-train at {r.money(cheapest[0])} "
                            f"(B0-B4)"))


def cheapest_train(r, h):
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
