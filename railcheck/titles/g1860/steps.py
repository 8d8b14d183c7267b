"""1860's operating steps (docs/1860.md O1-O6), each a subclass of the shared
step with 1860's differences.

The runs are checked on the map in runs.py; an upgrade's reach and the
semi-restrictive track rule in reach.py.
"""

from __future__ import annotations

from ...actions import LayTile, RunRoutes
from ...findings import RuleViolation
from ...state import Corporation
from ...steps.dividend import DividendStep
from ...steps.route import RouteStep
from ...steps.token import TokenStep
from ...steps.track import TrackStep
from ...steps.trains import BuyTrainStep, cheapest_train
from .market import dividend_cells, move_cells


def _state(step):
    return step.game.title.state


def has_route(g, corp) -> bool:
    """Could a train of ``corp`` run: its track joins its station to another
    stop that is not a halt (a run neither starts nor ends at a halt)."""
    if g.board is None:
        return True
    b = g.board
    _, reached, _ = b.network(corp.sym)
    hexes = b.hex_list
    found = 0
    for hi, ni in reached:
        if hexes[hi].nodes[ni].kind != "halt":
            found += 1
            if found == 2:
                return True
    return False


class Track1860(TrackStep):
    """Two lays (``operating.second_lay``: the first a lay or an upgrade, the
    second only a yellow lay after a yellow non-city first lay); none in
    receivership or once the Southern Railway stopped building; an insolvent
    corporation pays no terrain (so lays none there); an upgrade only where the
    biggest train reaches (``operating.upgrade_needs_train_reach``)."""

    def available(self, turn) -> bool:
        st = _state(self)
        if turn.corp.sym in st.receivership or st.no_building:
            return False
        if getattr(turn, "second_lay_closed", False):
            return False
        return super().available(turn)

    def check(self, turn, action: LayTile, special=None):
        g = self.game
        st = _state(self)
        corp = turn.corp
        if corp.sym in st.receivership:
            raise RuleViolation("track.receivership",
                                f"{corp.sym} is in receivership and lays no track")
        if st.no_building:
            raise RuleViolation("track.southern",
                                f"the Southern Railway has formed (the first 9+5, phase "
                                f"{g.phase.name}) and a stock round has followed: no more track "
                                f"is laid ({action.tile} on {action.hex} in {g.round.label})")
        if turn.tile_lays >= 1:
            if getattr(turn, "second_lay_closed", False):
                first = getattr(turn, "first_lay", None) or "was an upgrade or a city tile"
                raise RuleViolation("track.second_lay",
                                    f"{corp.sym}'s first lay {first}: no second lay "
                                    f"({action.tile} on {action.hex}) this turn; two lays only "
                                    f"when neither is an upgrade or on a station's hex")
            tile = g.board.tiles.get(action.tile) if g.board is not None else None
            mode = g.rules.operating.second_lay
            city = tile is not None and any(n.kind == "city" for n in tile.nodes)
            if mode == "yellow_if_first_not_upgrade_or_city" and tile is not None \
                    and (tile.color != "yellow" or city):
                raise RuleViolation("track.second_lay",
                                    f"a second lay is a yellow tile without a city, not "
                                    f"{action.tile} on {action.hex}")
            if mode == "yellow_if_first_not_upgrade" and tile is not None \
                    and tile.color != "yellow":
                raise RuleViolation("track.second_lay",
                                    f"a second lay is a yellow tile, not {action.tile} on "
                                    f"{action.hex}")
        if g.board is not None and not corp.trains \
                and g.rules.operating.upgrade_needs_train_reach:
            h = g.board.hexes.get(action.hex)
            if h is not None and h.color != "white":
                raise RuleViolation("track.upgrade_no_train",
                                    f"{corp.sym} owns no train: it may not upgrade the "
                                    f"{h.color} {h.tile.name if h.laid else 'printed track'} on "
                                    f"{action.hex} (only track its own train can reach)")
        plan = super().check(turn, action, special)
        if plan.cost and corp.sym in st.insolvent:
            raise RuleViolation("track.cost",
                                f"{corp.sym} is insolvent and pays no terrain: the lay on "
                                f"{action.hex} costs {g.money(plan.cost)} (it has "
                                f"{g.money(corp.cash)}); an insolvent corporation lays only "
                                f"track that costs nothing")
        return plan

    takes_blocked_connection = True
    blocked_city_rule = " (O3d)"

    def apply(self, turn, action, plan):
        g = self.game
        first = turn.tile_lays == 0
        upgrade = plan.board_plan is not None and plan.board_plan.hex.laid
        on_track = g.board is not None and g.board.hexes[action.hex].color != "white"
        before = self.before_upgrade(turn.corp, action.hex) if on_track else None
        super().apply(turn, action, plan)
        if on_track and turn.corp.trains:
            if g.rules.operating.upgrade_needs_train_reach:
                self.check_reach(turn.corp, action.hex)
            self.check_new_track(turn.corp, action.hex, before)
        mode = g.rules.operating.second_lay
        if first and g.board is not None and mode != "any":
            tile = g.board.tiles.get(plan.board_plan.name) if plan.board_plan else None
            city = tile is not None and any(n.kind == "city" for n in tile.nodes) \
                and mode == "yellow_if_first_not_upgrade_or_city"
            if upgrade or city or (tile is not None and tile.color != "yellow"):
                turn.second_lay_closed = True
                what = "an upgrade" if upgrade else "a city tile" if city else "not yellow"
                turn.first_lay = f"({action.tile} on {action.hex}) was {what}"


    def check_reach(self, corp, coord: str) -> None:
        """An upgrade within reach of the corporation's biggest train (O1a),
        on the map with the new tile; flagged, the tile stays."""
        from .reach import distance_to
        g = self.game
        biggest = max(corp.trains, key=lambda t: _cities(t))
        n = _cities(biggest)
        far = distance_to(g.board, corp.sym, coord, n)
        if far is not None:
            where = "not on its track" if far >= 99 else f"{far} cities away"
            g.flag("track.upgrade_reach",
                   f"{corp.sym} upgrades {coord}, but its biggest train, a {biggest.name}, "
                   f"counts {n} cities and {coord} is {where}; a corporation upgrades only "
                   f"track its own train can reach")


    def before_upgrade(self, corp, coord: str):
        """(the old track, the values of the stops the biggest train reaches)."""
        from .reach import old_track, reached_values
        if not corp.trains:
            return None
        n = max(_cities(t) for t in corp.trains)
        board = self.game.board
        return old_track(board, coord), reached_values(board, corp.sym, coord, n)

    def check_new_track(self, corp, coord: str, before) -> None:
        """Semi-restrictive (O1d): an upgrade gives the biggest train new
        track to use, or changes the values of the stops it reaches."""
        from .reach import reached_values, uses_new_track
        if before is None:
            return
        g = self.game
        n = max(_cities(t) for t in corp.trains)
        track, values = before
        now = reached_values(g.board, corp.sym, coord, n)
        if now == values and not uses_new_track(g.board, corp.sym, coord, n, track):
            g.flag("track.no_new_track",
                   f"{corp.sym}'s upgrade of {coord} gives its trains no new track to use and "
                   f"changes no stop's value within their reach (values {values or 'none'})")


def _cities(train) -> int:
    dist = train.spec.distance
    return int(dist.get("cities", 0)) if isinstance(dist, dict) else 99


class Token1860(TokenStep):
    """No station in receivership, while insolvent, or once building stopped."""

    def blocked(self, turn):
        st = _state(self)
        sym = turn.corp.sym
        if sym in st.receivership:
            return "it is in receivership"
        if sym in st.insolvent:
            return "it is insolvent"
        if st.no_building:
            return "the Southern Railway has formed"
        return None

    def available(self, turn) -> bool:
        return self.blocked(turn) is None and super().available(turn)

    def check(self, turn, action, special=None):
        why = self.blocked(turn)
        if why:
            corp = turn.corp
            cost = corp.token_cost()
            price = (f" (its next station would cost {self.game.money(cost)}; it has "
                     f"{self.game.money(corp.cash)})" if cost is not None else "")
            raise RuleViolation("token.not_allowed",
                                f"{corp.sym} places no station: {why}{price}")
        return super().check(turn, action, special)


class Route1860(RouteStep):
    """A corporation with trains (or an insolvent one, with a leased train)
    runs; its runs are checked on the map and the recorded revenue and halt
    subsidy are kept (a difference is flagged).  The dividend of a
    corporation in receivership or insolvent is withheld at once (also
    during nationalisation), any other's paid out at once during
    nationalisation."""

    #: a run with no stops is taken as written (a run the record left out)
    takes_runs_unverified = True

    def available(self, turn) -> bool:
        corp = turn.corp
        st = _state(self)
        if corp.sym in st.insolvent and not self.leases(corp):
            st.insolvent.discard(corp.sym)      # it can pay for a train now: it must buy one
        return turn.revenue is None and (bool(corp.trains) or self.leases(corp)) \
            and has_route(self.game, corp)

    def leases(self, corp) -> bool:
        """It runs the cheapest depot train leased: it is insolvent, or in
        receivership with no train and no cash for one (insolvent at once)."""
        if corp.trains:
            return False
        st = _state(self)
        cheapest = cheapest_train(self.game)
        affords = cheapest is not None and corp.cash >= cheapest.spec.price
        if corp.sym in st.insolvent:
            return not affords
        return corp.sym in st.receivership and not affords

    def leave(self, turn) -> None:
        return None        # a run left out is not checked yet (no map check of runs)

    def check(self, turn, action: RunRoutes):
        corp = turn.corp
        self.refuse_after(turn)
        if turn.revenue is not None:
            raise RuleViolation("route.twice", f"{corp.sym} already ran its trains this turn")
        # a corporation without a train runs the leased one (the site's
        # insolvency test at the run decides; not checked here)
        owned = {t.id for t in corp.trains}
        for r in action.routes:
            if corp.trains and r.train_id not in owned and r.train not in {t.name for t in corp.trains}:
                raise RuleViolation("route.train", f"{corp.sym} does not own train {r.train_id}")
        return None

    def apply(self, turn, action: RunRoutes, plan) -> None:
        st = _state(self)
        corp = turn.corp
        revenue, subsidy = self.checked_revenue(corp, action.routes)
        if not corp.trains and action.routes and self.leases(corp):
            st.insolvent.add(corp.sym)
        turn.revenue = revenue
        turn.subsidy = subsidy
        here = self.round.step_index(self)
        self.round.move_to(turn, here + 1)
        auto = None
        if corp.sym in st.receivership or corp.sym in st.insolvent:
            auto = "withhold"       # during nationalisation too (the site's order)
        elif st.nationalised:
            auto = "payout"
        if auto is not None:
            div = self.round.step_by_type(Dividend1860)
            div.pay(turn, auto, revenue)
            self.round.move_to(turn, self.round.step_index(div) + 1)


    def checked_revenue(self, corp, routes) -> tuple[int, int]:
        """The runs checked on the map (runs.py): a broken rule or a claimed
        revenue or subsidy that differs is flagged, and the claimed amounts
        are kept (what the table paid); a run recorded without them is worth
        what the map gives."""
        g = self.game
        trains = []
        for r in routes:
            t = next((t for t in corp.trains if t.id == r.train_id), None) \
                or g.train_by_id.get(r.train_id)
            if t is None and r.train_id is None:
                # a run written in the notation names its train by kind: the
                # company's first train of that kind not yet running, or, for
                # an insolvent company's leased train, one of the bank's
                t = next((t for t in corp.trains if t.spec.name == r.train
                          and t not in trains), None) or \
                    next((t for t in g.trains if t.spec.name == r.train
                          and not isinstance(t.owner, Corporation)), None)
            trains.append(t)
        if g.board is None:
            # without the map: the revenue as written, the subsidy as written or
            # from the halts the run says it counts (O3f; none for a leased
            # train, none once building has stopped)
            _state(self).runs_taken += len(routes)
            per_halt = 0 if (not corp.trains or g.title.state.no_building) \
                else int(g.rules.operating["halt_subsidy"])
            return (sum(r.revenue or 0 for r in routes),
                    sum(r.subsidy if r.subsidy is not None else (r.halts or 0) * per_halt
                        for r in routes))
        from .runs import check_runs, stops_text
        leased = not corp.trains
        values, problem, unverified = check_runs(g, corp, routes, trains, leased)
        _state(self).runs_taken += unverified
        _state(self).runs_checked += sum(1 for v in values if v is not None)
        revenue = subsidy = 0
        for r, got in zip(routes, values):
            if r.revenue is None and got is None:
                if not r.connections:
                    g.flag("route.revenue_unknown",
                           f"the run of the {r.train}-train records no revenue and no "
                           f"connections to compute it from")
                continue
            if got is not None and problem is None:
                if r.revenue is not None and got[0] != r.revenue:
                    g.flag("route.revenue",
                           f"{corp.sym}'s {r.train}-train run ({stops_text(g, got[2])}) is worth "
                           f"{g.money(got[0])}, not the {g.money(r.revenue)} claimed; "
                           f"taken as paid")
                if r.subsidy is not None and got[1] != r.subsidy:
                    g.flag("route.subsidy",
                           f"{corp.sym}'s {r.train}-train run ({stops_text(g, got[2])}) earns a "
                           f"halt subsidy of "
                           f"{g.money(got[1])}, not the {g.money(r.subsidy)} claimed; "
                           f"taken as paid")
            revenue += r.revenue if r.revenue is not None else got[0]
            subsidy += r.subsidy if r.subsidy is not None else (got[1] if got else 0)
        if problem is not None:
            # the table ran and paid: the runs are taken as the record has
            # them (its revenue, else their worth on the map)
            g.flag(problem.rule, f"{problem.message}; taken as run, earning {g.money(revenue)}"
                                 + (f" and a subsidy of {g.money(subsidy)}" if subsidy else ""))
        if corp.sym in _state(self).receivership and not leased and problem is None \
                and values and all(v is not None for v in values):
            from .best import check_receivership_run     # R2: runs for the maximum
            check_receivership_run(g, corp, [t for t in trains if t is not None],
                                   revenue, subsidy)
        return revenue, subsidy


class Dividend1860(DividendStep):
    """Payout: each player is paid per share (pool and IPO shares pay
    nobody), the halt subsidy goes to the treasury; the price moves 2 cells
    right per whole multiple of the price the revenue reaches (at most the
    ``market.dividend_steps``), none below the price.  Withhold (or nothing
    run): the treasury keeps it all, 2 cells left."""

    def available(self, turn) -> bool:
        return not turn.dividend_done and (turn.revenue or 0) > 0

    def apply(self, turn, action, plan) -> None:
        g = self.game
        if action.kind == "payout" and turn.revenue is None and g.board is not None:
            # O4, O4b: a corporation pays out its revenue, or it does not run
            # and withholds; a payout with no run written says a run the
            # record left out (18xx.games asks for no dividend then: nothing
            # run is withheld at once)
            route = self.round.step_by_type(Route1860)
            if route is not None and route.available(turn):
                trains = ", ".join(t.name for t in turn.corp.trains) or "a leased train"
                g.flag("route.missing",
                       f"{turn.corp.sym} pays out, but no run is written: it owns trains "
                       f"({trains}) and has a route, and a corporation that does not run "
                       f"withholds (O4b); taken as withheld")
        super().apply(turn, action, plan)

    def leave(self, turn) -> None:
        if not turn.dividend_done:
            # the president's choice (O4, O4b: a company in receivership or
            # insolvent withholds, and one nationalised pays out, at once
            # with its run): a run with revenue whose dividend the record
            # leaves out is flagged as the shared step does, and withheld
            revenue = turn.revenue or 0
            if revenue > 0:
                self.game.flag("dividend.missing",
                               f"{turn.corp.sym} ran for {self.game.money(revenue)} but neither "
                               f"paid out nor withheld; taken as withheld")
            self.pay(turn, "withhold", revenue)

    def pay(self, turn, kind: str, revenue: int) -> None:
        g = self.game
        corp = turn.corp
        turn.dividend_done = True
        subsidy = getattr(turn, "subsidy", 0) or 0
        g.transfer(g.bank, corp, subsidy)
        payout = kind == "payout" and revenue > 0
        if payout:
            per_share = revenue * corp.share_percent // 100
            for p in g.players:
                pct = corp.percent_of(p)
                if pct:
                    g.transfer(g.bank, p, per_share * (pct // corp.share_percent))
        else:
            g.transfer(g.bank, corp, revenue)
        turn.paid = revenue if payout else 0
        move_cells(g, corp, dividend_cells(g, corp, revenue, payout))
        g.title.after_price_move(corp)
        g.title.check_bank_break()


class BuyTrain1860(BuyTrainStep):
    """Forced only while the treasury holds more than the cheapest depot
    train; the president never pays; trains between corporations for 10 up
    to the buyer's cash in multiples of 10, not from a bankrupt corporation,
    not with a corporation in receivership, not during nationalisation, not
    the seller's last train when the buyer owns one."""

    def must_buy(self, corp) -> bool:
        g = self.game
        if corp.trains:
            return False
        cheapest = cheapest_train(g)
        if cheapest is None:
            return False
        if g.rules.operating.must_buy_needs_cash_above_cheapest \
                and corp.cash <= cheapest.spec.price:
            return False
        return g.board is not None and has_route(g, corp)

    def available(self, turn) -> bool:
        g = self.game
        st = _state(self)
        corp = turn.corp
        # a corporation whose price stands on the bankrupt cell is finished:
        # it buys no train (its bankruptcy follows), so its turn ends here
        if corp.price is not None and "bankrupt" in corp.price.zones:
            return False
        if self.must_buy(corp):
            return True
        if corp.sym in st.receivership and corp.trains:
            return False
        if len(corp.trains) >= g.train_limit(corp):
            return False
        offered = g.available_depot_trains() + g.pool_trains()
        if any(tr.spec.price <= corp.cash for tr in offered):
            return True
        if st.nationalised or corp.sym in st.receivership:
            return False
        trade = g.rules.operating.train_trade
        if corp.cash < trade.min_price:
            return False
        return any(c is not corp and c.trains and c.sym not in st.receivership
                   and c.sym not in st.bankrupt
                   and (not corp.trains or len(c.trains) > 1
                        or not trade.seller_keeps_one_if_buyer_has_trains)
                   for c in g.corporations.values())

    def check(self, turn, action):
        g = self.game
        st = _state(self)
        corp = turn.corp
        self.refuse_after(turn)
        train, source = self.resolve_train(action)
        if isinstance(source, Corporation):
            trade = g.rules.operating.train_trade
            price = action.price if action.price is not None else 0
            if st.nationalised:
                raise RuleViolation("trains.trade", "no trains change hands between corporations "
                                                    "during nationalisation")
            for c in (corp, source):
                if c.sym in st.receivership:
                    raise RuleViolation("trains.trade", f"{c.sym} is in receivership and trades "
                                                        f"no trains with other corporations")
            if source.sym in st.bankrupt:
                raise RuleViolation("trains.trade", f"{source.sym} is bankrupt")
            if trade.seller_keeps_one_if_buyer_has_trains and corp.trains \
                    and len(source.trains) == 1:
                n = len(corp.trains)
                raise RuleViolation("trains.trade",
                                    f"{corp.sym} owns {n} train{'s' if n != 1 else ''} and "
                                    f"{source.sym} only one, its {train.name}: {corp.sym} may "
                                    f"not buy {source.sym}'s last train")
            if price < trade.min_price or price % trade.multiple:
                raise RuleViolation("trains.price",
                                    f"a train between corporations costs a multiple of "
                                    f"{g.money(trade.multiple)} from "
                                    f"{g.money(trade.min_price)}, not {g.money(price)}")
        elif corp.sym in st.receivership and (corp.trains or source != "depot"):
            raise RuleViolation("trains.receivership",
                                f"{corp.sym} is in receivership: it buys a train only when it "
                                f"has none, and only from the depot")
        plan = super().check(turn, action)
        return plan

    def apply(self, turn, action, plan) -> None:
        super().apply(turn, action, plan)
        _state(self).insolvent.discard(turn.corp.sym)

    def end_of_turn(self, turn) -> None:
        g = self.game
        st = _state(self)
        corp = turn.corp
        if corp.price is not None and "bankrupt" in corp.price.zones:
            pass        # it goes bankrupt now: its insolvency stays as it was
        elif corp.trains:
            st.insolvent.discard(corp.sym)
        elif corp.floated and (g.board is None or has_route(g, corp)):
            # without the map (--no-board) a floated company is taken to have a
            # route: its home track and station are laid when it floats (O5)
            st.insolvent.add(corp.sym)
        super().end_of_turn(turn)


def operating_steps() -> list:
    return [Track1860, Token1860, Route1860, Dividend1860, BuyTrain1860]
