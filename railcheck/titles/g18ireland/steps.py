"""18Ireland's operating steps (docs/18Ireland.md O0-O7), each a subclass of
the shared step with 18Ireland's differences, and the issue/redeem step.

The map checks each lay against the company's broad and narrow networks
(board/gauge.py); the semi-restrictive rule is checked after the lay.
"""

from __future__ import annotations

import dataclasses
from typing import Optional

from ...actions import BuyShares, BuyTrain, LayTile, RunRoutes, Sale, SellShares
from ...findings import RuleViolation
from ...state import Corporation
from ...steps.base import Step
from ...steps.companies import BuyCompanyStep
from ...steps.dividend import DividendStep
from ...steps.route import RouteStep
from ...steps.token import TokenStep
from ...steps.track import TrackStep, power_spec
from ...steps.trains import BuyTrainStep
from .runs import can_run, check_runs


def _state(step):
    return step.game.title.state


class IssueRedeem(Step):
    """A company sells one of its treasury shares to the pool (the price
    drops a row, as for a sale) or buys one back from the pool at the market
    price (the price stays); once a turn, before laying track
    (``operating.issue_redeem``)."""

    name = "issuing or redeeming shares"
    verb = "issue or redeem a share"
    actions = (SellShares, BuyShares)
    ordered = True
    #: the site asks for an issue, a redemption or a pass whenever one of
    #: the two is possible
    site_asks = True

    def available(self, turn) -> bool:
        return bool(self.choices(turn))

    def choices(self, turn) -> list:
        """What the company may do now: "redeem" (a share is in the pool and
        its cash pays the price), "issue" (a treasury share fits the pool)."""
        g = self.game
        corp = turn.corp
        spec = g.rules.operating.issue_redeem
        if spec is None or getattr(turn, "issued", 0) >= spec["per_turn"] or corp.price is None:
            return []
        out = []
        pool = corp.percent_of("pool")
        if pool > 0 and corp.cash >= corp.price.price:
            out.append("redeem")
        limit = g.pool_limit(corp)
        if any(c.owner == "ipo" and not c.president and pool + c.percent <= limit
               for c in corp.certs):
            out.append("issue")
        return out

    def what_is_open(self, turn) -> str:
        g = self.game
        corp = turn.corp
        price = g.money(corp.price.price) if corp.price is not None else "?"
        said = []
        for kind in self.choices(turn):
            if kind == "redeem":
                said.append(f"redeem a share from the bank pool ({corp.percent_of('pool')}% "
                            f"there, {price} a share, its cash {g.money(corp.cash)})")
            else:
                said.append(f"issue one of its treasury's ({corp.percent_of('ipo')}% there) "
                            f"at {price}")
        return " or ".join(said)

    def open_lines(self, turn) -> list:
        corp = turn.corp.sym
        out = []
        for kind in self.choices(turn):
            if kind == "issue":
                out.append((SellShares(actor=corp, sales=[Sale(corporation=corp, count=1)]),
                            "issued a share"))
            else:
                out.append((BuyShares(actor=corp, corporation=corp, count=1, source="pool"),
                            "redeemed a share"))
        return out

    def check(self, turn, action):
        g = self.game
        corp = turn.corp
        spec = g.rules.operating.issue_redeem
        if spec is None:
            raise RuleViolation("or.issue", f"companies do not issue or redeem shares in "
                                            f"{g.rules.title}")
        self.refuse_after(turn)
        if getattr(turn, "issued", 0) >= spec["per_turn"]:
            raise RuleViolation("or.issue",
                                f"{corp.sym} already issued or redeemed a share this turn")
        if isinstance(action, SellShares):
            sale = action.sales[0]
            if sale.corporation != corp.sym or len(action.sales) != 1:
                raise RuleViolation("or.issue", f"{corp.sym} may issue only its own shares")
            certs = [c for c in corp.certs if c.owner == "ipo" and not c.president]
            named = [(i, corp.certs[i]) for i in sale.certs if i < len(corp.certs)]
            cert = named[0][1] if named and named[0][1].owner == "ipo" \
                else (certs[0] if certs else None)
            if cert is None:
                raise RuleViolation("or.issue", f"{corp.sym} has no share in its treasury")
            limit = g.pool_limit(corp)
            if corp.percent_of("pool") + cert.percent > limit:
                raise RuleViolation("stock.pool_limit",
                                    f"the bank pool holds {corp.percent_of('pool')}% of "
                                    f"{corp.sym}; one more share would exceed {limit}%")
            wrong = _no_such_cert(g, corp, sale.certs, "issues", cert)
            if named and named[0][1] is not cert:
                # the record names a certificate the company does not hold (the
                # site then sells it for its holder, a player: the real game
                # 161830 changed at #120): flagged, and taken as the issue of
                # one of its treasury shares, all alike, as the record's issue
                i, other = named[0]
                treasury = [f"{corp.sym}_{corp.certs.index(c)}" for c in certs]
                wrong = (f"{corp.sym} issues {corp.sym}_{i}, a {other.percent}% share it does "
                         f"not hold ({g.holder_name(other.owner)} holds it): a company issues "
                         f"only shares of its treasury, which holds {', '.join(treasury)}; "
                         f"taken as issuing {corp.sym}_{corp.certs.index(cert)} at "
                         f"{g.money(corp.price.price)}")
            return ("issue", cert, wrong)
        if action.corporation != corp.sym:
            raise RuleViolation("or.issue", f"{corp.sym} may redeem only its own shares")
        cert = next((c for c in corp.certs if c.owner == "pool"), None)
        named = [(i, corp.certs[i]) for i in action.certs if i < len(corp.certs)]
        if named and named[0][1].owner == "pool":
            cert = named[0][1]
        if cert is None:
            raise RuleViolation("or.issue", f"no {corp.sym} share is in the bank pool")
        price = corp.price.price
        if corp.cash < price:
            raise RuleViolation("or.issue", f"{corp.sym} has {g.money(corp.cash)}; a share "
                                             f"costs {g.money(price)}")
        wrong = _no_such_cert(g, corp, action.certs, "redeems", cert)
        if named and named[0][1] is not cert:
            i, other = named[0]
            pool = [f"{corp.sym}_{k}" for k, c in enumerate(corp.certs) if c.owner == "pool"]
            wrong = (f"{corp.sym} redeems {corp.sym}_{i}, a {other.percent}% share that is not "
                     f"in the bank pool ({g.holder_name(other.owner)} holds it): a company "
                     f"redeems only shares of the pool, which holds {', '.join(pool)}; taken "
                     f"as redeeming {corp.sym}_{corp.certs.index(cert)} at {g.money(price)}")
        return ("redeem", cert, wrong)

    def apply(self, turn, action, plan) -> None:
        g = self.game
        corp = turn.corp
        kind, cert, wrong = plan
        if wrong:
            g.flag("or.issue", wrong)
        price = corp.price.price
        if kind == "issue":
            g.transfer(g.bank, corp, price)
            cert.owner = "pool"
            g.move_price(corp, "down", cert.percent // corp.share_percent)
            g.title.after_price_move(corp)
        else:
            # a redemption leaves the price where it is
            g.transfer(corp, g.bank, price)
            cert.owner = "ipo"
        turn.issued = getattr(turn, "issued", 0) + 1


def _no_such_cert(g, corp, certs, verb: str, cert) -> str | None:
    """The finding for an issue or redemption whose record names a
    certificate number ``corp`` does not have (the site finds no such share
    and refuses the action), taken as the one of ``cert`` the rule allows."""
    bad = [i for i in certs if i >= len(corp.certs)]
    if not bad:
        return None
    return (f"{corp.sym} {verb} {corp.sym}_{bad[0]}, a certificate {corp.sym} does not have "
            f"(its certificates are {corp.sym}_0 to {corp.sym}_{len(corp.certs) - 1}); taken "
            f"as {'issuing' if verb == 'issues' else 'redeeming'} {corp.sym}_{corp.certs.index(cert)} at "
            f"{g.money(corp.price.price)}")


class Track18Ireland(TrackStep):
    """Two lays: the second only a yellow lay after a lay that was not an
    upgrade, for 20 more (``operating.second_lay``, ``second_lay_cost``); a
    tile whose track is all narrow gauge pays no terrain."""

    def available(self, turn) -> bool:
        """A lay is left (no second lay after an upgrade, nor without the 20
        it costs), or the company owns a private with a lay of the track step
        left that comes besides its own lays (DR, TDR, the Irish Mail; not
        BoW's, which is one of them), or may still buy a private that lays
        track: the site keeps the step open for them, and a pass closes it
        (random 33000001_0, #186: DKR upgrades Dublin, buys TIM and lays the
        Irish Mail's tile in its track step)."""
        if self.lay_left(turn):
            return True
        corp = turn.corp
        for c in corp.companies:
            lay = (c.spec.special or {}).get("tile_lay")
            if lay and lay.get("extra") and _holds_track(lay) and not c.closed \
                    and (lay.get("count") is None or c.uses < int(lay["count"])):
                return True
        return any(_holds_track((c.spec.special or {}).get("tile_lay"))
                   for c in self.round.step_by_type(BuyCompanyStep).purchasable(turn.corp))

    def lay_left(self, turn) -> bool:
        if turn.tile_lays >= 1 and turn.corp.cash \
                < int(self.game.rules.operating.second_lay_cost):
            return False
        if turn.tile_lays >= 1 and self.second_closed(turn) \
                and self.second_upgrade(turn.corp) is None:
            return False
        return super().available(turn)

    #: set while a lay refused only for its connection is checked again
    #: without it (:meth:`check`)
    _unconnected = False

    def connection_checked(self, special) -> bool:
        return not self._unconnected and super().connection_checked(special)

    def second_closed(self, turn) -> bool:
        """The turn's first lay leaves no second one (``operating.second_lay``):
        it was an upgrade (or, ``yellow_if_first_not_upgrade_or_city``, a city)."""
        mode = self.game.rules.operating.second_lay
        if mode == "any":
            return False
        return getattr(turn, "upgraded", False) or (
            mode == "yellow_if_first_not_upgrade_or_city" and getattr(turn, "first_city", False))

    def check(self, turn, action: LayTile, special=None):
        """A lay that fits the map but is not joined to the company's network
        (``tile.connection``, no other rotation or hex curing it) is flagged
        and taken as laid, as the record says: the tile lies there, and the
        record's later lays and runs go on from it (random 2711209_3, #151:
        EBSR lays C11 past Sligo D6, whose one slot GJR's home station filled
        at #145; the site's live engine, its connections not recomputed since,
        let it through, and its reload checks no lay)."""
        try:
            return self.check_lay(turn, action, special)
        except RuleViolation as v:
            if v.rule != "tile.connection" or self.game.board is None or self._unconnected:
                raise
            plan = self.check_again("_unconnected", v, self.check_lay, turn, action, special)
            plan.unconnected = f"{v.message}; taken as laid, as the record says"
            return plan

    def check_lay(self, turn, action: LayTile, special=None):
        g = self.game
        corp = turn.corp
        extra = special is not None and power_spec(special).get("extra")
        second = turn.tile_lays >= 1 and not extra
        mode = g.rules.operating.second_lay
        if second and mode != "any":
            tile = g.board.tiles.get(action.tile) if g.board is not None else None
            upgrade = tile is not None and tile.color != "yellow"
            if upgrade and self.second_upgrade(corp) is not None:
                pass            # William Dargan: the second lay may be an upgrade
            elif self.second_closed(turn):
                what = "an upgrade" if getattr(turn, "upgraded", False) else "a city tile"
                raise RuleViolation("track.second_lay",
                                    f"{corp.sym}'s first lay was {what}; no second lay")
            else:
                tile = g.board.tiles.get(action.tile) if g.board is not None else None
                if tile is not None and tile.color != "yellow":
                    raise RuleViolation("track.second_lay",
                                        f"a second lay is a yellow tile, not {action.tile}")
                if tile is not None and mode == "yellow_if_first_not_upgrade_or_city" \
                        and any(n.kind == "city" for n in tile.nodes):
                    raise RuleViolation("track.second_lay",
                                        f"a second lay is a yellow tile without a city, not "
                                        f"{action.tile}")
        # the map checks the connection by gauge (board/gauge.py): broad
        # track from the broad network, narrow track from the narrow one
        plan = super().check(turn, action, special)
        if second and plan.short is not None:
            # O2b: the second lay's own price, said with the numbers
            dargan = self.second_upgrade(corp)
            fee = int(dargan["cost"]) if dargan is not None and plan.board_plan is not None \
                and _is_upgrade(plan.board_plan) \
                else int(g.rules.operating.second_lay_cost)
            plan.short = (f"{corp.sym} has {g.money(corp.cash)}; its second lay this turn costs "
                          f"{g.money(fee)} (O2b), {g.money(plan.cost)} in all on {action.hex} "
                          f"(terrain {g.money(plan.cost - fee)}); taken as laid and paid, as "
                          f"the record says")
        power = power_spec(special) if special is not None else {}
        if power.get("together") or power.get("first_hex"):
            plan.together_problem = self.together_problem(turn, action, special, power,
                                                          plan.board_plan)
        if power.get("connected") and plan.board_plan is not None and g.board.gauged:
            # a private's lay that must be connected (BoW as any lay; DCR:
            # its hex reached, by broad track for broad track)
            from ...board.gauge import power_connection_problem
            problem = power_connection_problem(g.board, corp.sym, plan.board_plan,
                                               any_exit=power.get("hexes") != "any")
            if problem is not None:
                raise RuleViolation(*problem)
        return plan

    def together_problem(self, turn, action, special, power, board_plan):
        """DR's and TDR's lays (``together``, ``first_hex``): the first on its
        hex, the next in the same turn on a hex next to the last one, their
        track joined across the edge between them.  A message, or None."""
        g = self.game
        name = special.sym
        done = getattr(turn, "together", {}).get(name, [])
        if special.uses == 0 or not done:
            first = power.get("first_hex")
            if special.uses == 0 and first and action.hex != first:
                return (f"{name}'s first lay is on {first}, not {action.hex}")
            if special.uses > 0 and power.get("together"):
                return (f"{name}'s lays go together in one turn; {turn.corp.sym} made its "
                        f"first in an earlier turn, this one on {action.hex} is not next to it "
                        f"in the same turn")
            return None
        last = done[-1]
        edge = next((e for e, c in g.board.neighbours(last).items() if c == action.hex), None) \
            if g.board is not None else None
        if edge is None:
            return f"{name}'s second lay on {action.hex} is not next to its first, on {last}"
        if board_plan is not None:
            here = board_plan.tile.exits(board_plan.rotation)
            there = g.board.hexes[last].exits()
            if edge not in there or (edge + 3) % 6 not in here:
                return (f"{name}'s second lay on {action.hex} (tile {action.tile}) does not "
                        f"join the track of its first, on {last}")
        return None

    def end_of_turn(self, turn) -> None:
        """A private whose lays go together (DR, TDR) used once in this turn
        and not again: its second lay was owed in this turn."""
        g = self.game
        for sym, hexes in getattr(turn, "together", {}).items():
            company = g.companies.get(sym)
            count = power_spec(company).get("count") if company is not None else None
            if company is None or company.closed or count is None \
                    or company.uses >= int(count):
                continue
            g.flag("private.power",
                   f"{sym}'s {count} lays go together in one turn: {turn.corp.sym} laid "
                   f"{len(hexes)} ({', '.join(hexes)}) and ended its turn without the rest")

    def lay_cost(self, turn, action, board_plan, special, terrain: int) -> int:
        g = self.game
        cost = terrain
        tile = board_plan.tile if board_plan is not None \
            else self.tile_content(action.tile) if g.board is None else None
        if tile is not None:
            tracks = tile.tracks
            if tracks and all(t == "narrow" for t in tracks) \
                    and g.rules.operating.narrow_track_free:
                cost = 0
        if special is not None and power_spec(special).get("free"):
            cost = 0
        extra = special is not None and power_spec(special).get("extra")
        if turn.tile_lays >= 1 and not extra:
            dargan = self.second_upgrade(turn.corp)
            if dargan is not None and board_plan is not None and _is_upgrade(board_plan):
                cost += int(dargan["cost"])
            else:
                cost += int(g.rules.operating.second_lay_cost)
        return cost

    @staticmethod
    def second_upgrade(corp):
        """The power of a private the company owns that lets its second lay
        be an upgrade (WDE), or None."""
        for c in corp.companies:
            power = (c.spec.special or {}).get("second_upgrade")
            if power is not None and not c.closed:
                return power
        return None

    def lay_colors(self, special) -> list:
        """The Irish Mail's red tile goes on a blue hex whatever the phase."""
        colors = super().lay_colors(special)
        if special is not None and "IM" in (power_spec(special).get("tiles") or []):
            colors.append("red")
        return colors

    def apply(self, turn, action, plan):
        g = self.game
        unconnected = getattr(plan, "unconnected", None)
        if unconnected is not None:
            g.flag("tile.connection", unconnected)
        upgrade = plan.board_plan is not None and _is_upgrade(plan.board_plan)
        if not plan.extra and plan.special is None:
            # the company's own lay ends the issue/redeem step before it
            # (the turn then passes over what is left with nothing to do:
            # a company without trains withholds at once, 18006_0 #525)
            self.round.move_to(turn, self.round.step_index(self))
        super().apply(turn, action, plan)     # semi-restrictive (O2a): flagged there
        if upgrade and not plan.extra:
            turn.upgraded = True
        if plan.board_plan is not None and not plan.extra and turn.tile_lays == 1 \
                and any(n.kind == "city" for n in plan.board_plan.tile.nodes):
            turn.first_city = True
        special = plan.special
        problem = getattr(plan, "together_problem", None)
        if problem is not None:
            g.flag("private.power", f"{problem}; laid as the record says")
        if special is not None and power_spec(special).get("together"):
            if not hasattr(turn, "together"):
                turn.together = {}
            turn.together.setdefault(special.sym, []).append(action.hex)
        if special is not None:
            spec = power_spec(special)
            if spec.get("closes") and spec.get("count") is not None \
                    and special.uses >= int(spec["count"]):
                g.close_company(special)


class Token18Ireland(TokenStep):
    """The station a company places for another whose lone station its lay
    on a multi-city hex left to place.  (An export's number of the Dundalk
    tile's city, a town then a city on the site, is read as ours by the
    importer: ``_Converter.site_city``.)"""

    def check(self, turn, action, special=None):
        board = self.game.board
        if board is not None and not board.pending_relocation(turn.corp.sym, action.hex):
            owner = next((c for c in self.game.corporations
                          if board.pending_relocation(c, action.hex)), None)
            if owner is not None:
                # the company that laid track on a multi-city hex where another's
                # station stood alone places that station (the site asks the
                # layer: 18006_0, #513 WLR places CBPR's on Cork's IR1): free
                from ...steps.token import _TokenPlan
                return _TokenPlan(0, board.plan_token(owner, action.hex, action.city,
                                                      check_reach=False), None,
                                  relocation=True)
        return super().check(turn, action, special)


class Route18Ireland(RouteStep):
    """The runs are checked on the map (runs.py); the recorded revenue is
    kept (what the table paid), a differing one flagged."""

    #: a run with no stops is taken as written (a run the record left out)
    takes_runs_unverified = True

    def check_on_map(self, corp, routes, claimed) -> Optional[int]:
        """The runs checked on the map: their worth (None when it is not
        known), a claim (``claimed``, None: none written) that differs
        flagged."""
        g = self.game
        st = _state(self)
        if g.board is None:
            st.runs_taken += len(routes)
            return None
        trains = [next((t for t in corp.trains if t.id == r.train_id), None)
                  or g.train_by_id.get(r.train_id)
                  or next((t for t in corp.trains if t.name == r.train), None) for r in routes]
        values, problem, unverified = check_runs(g, corp, routes, trains)
        st.runs_taken += unverified
        if problem is not None:
            g.flag(problem.rule, problem.message)
            return None
        st.runs_checked += len(routes) - unverified
        if unverified:
            return None
        computed = sum(values)
        if claimed is not None and computed != claimed:
            g.flag("route.revenue", f"{corp.sym}'s runs are worth {g.money(computed)} "
                                    f"({' + '.join(str(v) for v in values)}: stops, narrow-gauge "
                                    f"bonus, CDSPC/TASPS tokens), but {g.money(claimed)} was "
                                    f"claimed; taken as paid, as the record says")
        return computed

    def has_route(self, corp) -> bool:
        g = self.game
        return g.board is None or can_run(g.board, corp.sym, corp.trains)

    def apply(self, turn, action: RunRoutes, plan) -> None:
        g = self.game
        corp = turn.corp
        not_owned = self.trains_not_owned(corp, action)
        if not_owned:
            g.flag("route.train", not_owned)
        claimed = action.revenue
        if claimed is None and any(r.revenue is not None for r in action.routes):
            claimed = sum(r.revenue or 0 for r in action.routes)
        computed = self.check_on_map(corp, action.routes, claimed) if action.routes else None
        if claimed is None:     # no revenue written: the runs' worth
            claimed = computed or 0
        turn.revenue = claimed
        here = self.round.step_index(self)
        if turn.step > here + 1 and turn.withheld_unrun is not None:
            self.take_up_dividend(turn, here + 1)
        self.round.move_to(turn, here + 1)


class Dividend18Ireland(DividendStep):
    """Each holder receives its shares' part of the revenue, rounded up;
    treasury shares pay the company, pool shares nobody.  The price: one
    left on a withhold or no revenue, one right when the revenue reaches the
    price, two for a minor reaching twice the price."""

    def pay(self, turn, kind: str, revenue: int) -> None:
        g = self.game
        corp = turn.corp
        turn.dividend_done = True
        if kind == "withhold" or revenue == 0:
            g.transfer(g.bank, corp, revenue)
            g.move_price(corp, "left")
            self.after_move(corp)
            return
        total = 100 // corp.share_percent
        ipo_to = g.rules.stock.ipo_share_dividends
        pool_to = g.rules.stock.pool_share_dividends
        # each holder's percentage, from one pass over the certificates
        # (as shares_of: the holder itself, not an equal one)
        held: dict = {}
        for c in corp.certs:
            held[id(c.owner)] = held.get(id(c.owner), 0) + c.percent
        share = corp.share_percent
        for holder in list(g.players) + ["ipo", "pool"]:
            n = held.get(id(holder), 0) // share
            if not n:
                continue
            amount = -(-n * revenue // total)
            if holder == "ipo":
                if ipo_to == "corporation":
                    g.transfer(g.bank, corp, amount)
            elif holder == "pool":
                if pool_to == "corporation":
                    g.transfer(g.bank, corp, amount)
            elif not holder.bankrupt:
                g.transfer(g.bank, holder, amount)
        steps = g.rules.market.dividend_steps or [1]
        if corp.kind == "minor":
            steps = g.rules.market.minor_dividend_steps or steps
        price = corp.price.price
        n = sum(1 for k in steps if revenue >= k * price)
        if n:
            g.move_price(corp, "right", n)
        self.after_move(corp)

    def after_move(self, corp):
        self.game.title.after_price_move(corp)


class BuyTrain18Ireland(BuyTrainStep):
    """Trains from the depot, the pool or other companies (any price from 1);
    a rusted 2H, 4H or 6H puts a primed train into the pool; from phase 10 a
    train may be traded in for a 10H or D at its value."""

    def resolve_exchange(self, corp, train, action):
        g = self.game
        values = train.spec.trade_in
        ex = g.train_by_id.get(action.exchange_id) if action.exchange_id else \
            next((tr for tr in corp.trains if tr.name == action.exchange), None)
        if ex is None or ex.owner is not corp:
            raise RuleViolation("trains.exchange", f"{corp.sym} does not own the train it "
                                                   f"trades in")
        if ex.name not in values:
            raise RuleViolation("trains.exchange",
                                f"a {ex.name}-train cannot be traded in for a {train.name}")
        return ex

    def available(self, turn) -> bool:
        """Also while a trade-in is open to the company (18xx.games then lets
        a company at its train limit buy any train outright: the shared
        check flags it, the purchase stands and the excess is discarded)."""
        return super().available(turn) or self.trade_in_open(turn)

    def trade_in_open(self, turn) -> bool:
        """A train the company could trade one of its own in for, with the
        difference in its treasury (O6b: from phase 10, once a turn): one the
        depot sells or one in the bank pool, as :meth:`check_trade` takes
        (random 35000019_4, #1359: GSWR at its limit of 2, D and 8H, £247,
        trades the 8H for the pool's 10H for £110 after its payout; the
        depot's D would cost more than it has)."""
        g = self.game
        corp = turn.corp
        if getattr(turn, "traded", None) is not None or not corp.trains:
            return False    # (nothing to trade in)
        first = self.trade_phase()
        if first is not None and g.phase_index < first:
            return False    # (no trade before phase 10)
        for tr in g.available_depot_trains() + g.pool_trains():
            values = tr.spec.trade_in
            if any(own.name in values and corp.cash >= tr.spec.price - int(values[own.name])
                   for own in corp.trains):
                return True
        return False

    def check(self, turn, action: BuyTrain):
        if action.exchange or action.exchange_id:
            return self.check_trade(turn, action)
        return super().check(turn, action)

    def check_trade(self, turn, action):
        from ...steps.trains import _BuyPlan
        g = self.game
        corp = turn.corp
        self.refuse_after(turn)
        train, source = self.resolve_train(action)
        # a train in the bank pool may be traded for too (18004_0, #1066: a D
        # discarded there, bought for a 10H and £220, as from the depot)
        if not (source == "depot" and train in g.available_depot_trains()
                or source == "pool" and train in g.pool_trains()):
            raise RuleViolation("trains.not_available", f"train {train.id} is not for sale")
        ex = self.resolve_exchange(corp, train, action)
        values = train.spec.trade_in
        price = train.spec.price - int(values[ex.name])
        wrong_price = None
        if action.price is not None and action.price != price:
            # flagged when applied (the check changes nothing), taken as paid
            wrong_price = (f"a {train.name}-train for a {ex.name} costs {g.money(price)}, "
                           f"not {g.money(action.price)}; taken as paid")
            price = action.price
        contribution = self.check_emergency(turn, train, source, price) \
            if corp.cash < price else 0
        plan = _BuyPlan(train, source, price, ex, contribution, wrong_price=wrong_price)
        # O6b: trades from phase 10, one a turn; flagged when applied, the
        # train taken as traded in, as the record says
        plan.trade_problem = self.trade_problem(turn, train, ex, price)
        return plan

    def trade_problem(self, turn, train, ex, price):
        """Why this trade-in breaks O6b (a message), or None: before the
        phase whose train allows trades (phase 10), or a second in a turn."""
        g = self.game
        corp = turn.corp
        first = self.trade_phase()
        what = (f"{corp.sym} trades in its {ex.name}-train for a {train.name} in phase "
                f"{g.phase.name}")
        taken = f"taken as traded for {g.money(price)}, as the record says"
        if first is not None and g.phase_index < first:
            return (f"{what}; trains may be traded in only from phase "
                    f"{g.rules.phases[first].name} (O6b); {taken}")
        done = getattr(turn, "traded", None)
        if done is not None:
            return (f"{what}; it already traded in a train this turn ({done}): one trade a "
                    f"turn (O6b); {taken}")
        return None

    def trade_phase(self):
        """The index of the phase from which trains may be traded in: the one
        begun by a train with the ``train_trade_allowed`` event, or None."""
        with_event = {t.name for t in self.game.rules.trains if "train_trade_allowed" in t.events}
        return next((i for i, ph in enumerate(self.game.rules.phases)
                     if ph.on in with_event), None)

    def apply(self, turn, action, plan) -> None:
        g = self.game
        problem = getattr(plan, "trade_problem", None)
        if plan.wrong_price:
            # the price first, as the check meets it, then the trade's timing
            g.flag("trains.price", plan.wrong_price)
            plan = dataclasses.replace(plan, wrong_price=None)
        if problem is not None:
            g.flag("trains.exchange", problem)
        before = {t for t in g.trains if isinstance(t.owner, Corporation) or t.owner == "pool"}
        super().apply(turn, action, plan)
        if plan.exchange is not None:
            turn.traded = f"its {plan.exchange.name}-train for a {plan.train.name}"
        rusted = [t for t in before if t.owner is None]
        primed = g.rules.settings.primed_trains
        for t in rusted:
            back = primed.get(t.name)
            if back is None:
                continue
            nxt = next((x for x in g.trains if x.name == back and x.owner == "reserve"), None)
            if nxt is not None:
                nxt.owner = "pool"


class BuyCompany18Ireland(BuyCompanyStep):
    """The end of a company's turn: a private bought from a player (phases 4
    and 6), and the site's wait for a private's power usable at any moment
    of the turn (:func:`power_left_in_turn`: DCR's lay, CDSPC's and TASPS's
    tokens): while either is open the step is the turn's, and one pass
    closes it (random 18003_5, #244; 2711009_4, #178; 2711049_2, #157: EBSR,
    with DCR and a private it could buy, passes once and OR 5.2 begins)."""

    def available(self, turn) -> bool:
        return power_left_in_turn(turn.corp) or super().available(turn)


def power_left_in_turn(corp) -> bool:
    """``corp`` owns a private with a power left that it may use at any
    moment of its turn: a lay after its track step (``tile_lay.after_track``:
    DCR) or a token to place (``assign``: CDSPC, TASPS).  (DR's, TDR's, BoW's
    and the Irish Mail's lays are the track step's: they do not hold the end
    of the turn, 18006_1, #950: DKR with TDR unused.)"""
    for c in corp.companies:
        if c.closed:
            continue
        special = c.spec.special or {}
        if special.get("assign"):
            return True
        lay = special.get("tile_lay") or {}
        if lay.get("after_track") \
                and (lay.get("count") is None or c.uses < int(lay["count"])):
            return True
    return False


def _is_upgrade(board_plan) -> bool:
    """A lay that replaces track (a printed yellow hex counts): its tile is
    not yellow, or the hex was laid before."""
    return board_plan.tile.color not in ("yellow", "red") or board_plan.hex.laid


def _holds_track(power) -> bool:
    """Whether the site keeps the track step open for a private with this
    tile-laying power, which the company owns or may buy: a power of the
    track step (``window: track_step``: DR, BoW, TDR, the Irish Mail), not
    one usable at any moment of the turn (DCR on H4), as the random games
    show."""
    return bool(power) and power.get("window") == "track_step"


def operating_steps() -> list:
    return [IssueRedeem, Track18Ireland, Token18Ireland, Route18Ireland, Dividend18Ireland,
            BuyTrain18Ireland, BuyCompany18Ireland]
