"""Running trains: the claimed revenue, re-computed on the map when it is checked."""

from __future__ import annotations

from typing import ClassVar

from ..actions import Route, RunRoutes, Stop
from ..findings import RuleViolation, plural
from .base import Step


class RouteStep(Step):
    name = "running trains"
    verb = "run trains"
    actions = (RunRoutes,)
    ordered = True
    #: a run with no stops is taken as written, its revenue unverified (1860's
    #: and 18Ireland's steps): a run the record left out is played so; else
    #: it is played as the search found it, its stops checked on the map
    takes_runs_unverified: ClassVar[bool] = False

    def has_route(self, corp) -> bool:
        board = self.game.board
        return True if board is None else board.has_route(corp.sym)

    def available(self, turn) -> bool:
        corp = turn.corp
        return bool(corp.trains) and turn.revenue is None \
            and (self.has_route(corp) or self.game.following.empty_run_next(corp))

    def best_run_now(self, turn):
        """(revenue, subsidy, the runs as a record writes them) of the best
        legal set of runs found for the turn's company on the map now
        (``Title.best_runs_now``: the shared search, or the title's own by
        its run rules; a lower bound of the best), or None (no map, no
        trains, nothing found, the search stopped at its budget of steps).
        The search's budget is a count of steps, so the same game gives the
        same answer on any machine."""
        corp = turn.corp
        g = self.game
        if g.board is None or not corp.trains:
            return None
        found = g.title.best_runs_now(corp)
        if found is None or found[3] or not found[2]:
            return None
        revenue, subsidy, chosen, _ = found
        hexes = g.board.hex_list
        ids = {}
        for t in corp.trains:
            ids.setdefault(t.name, []).append(t.id)
        routes = [Route(train=name, train_id=ids[name].pop(0) if ids.get(name) else None,
                        stops=[Stop(hex=hexes[hi].coord,
                                    city=ni if len(hexes[hi].nodes) > 1 else None)
                               for hi, ni in stops], revenue=rev)
                  for name, stops, rev, *_ in chosen]
        return revenue, subsidy, routes

    def leave(self, turn) -> None:
        # without the map (--no-board) nobody can tell whether a route exists
        if turn.revenue is None and self.available(turn) and self.game.board is not None \
                and not self.no_run_found(turn.corp):
            trains = ", ".join(tr.name for tr in turn.corp.trains)
            self.game.flag("route.missing",
                           f"{turn.corp.sym} owns trains ({trains}) and has a route but did not "
                           f"run them; a company must run its trains (taken as earning nothing)")

    def no_run_found(self, corp) -> bool:
        """The search for the best runs (``Title.best_runs_now``) went over
        every run of ``corp``'s trains and found none: the map's walk
        (``Board.has_route``) reaches a second stop, but no train can run
        to it (1830_rand_2958943_1 #793: C&O's F6 walked to H10, where the
        engine finds no route and neither does the search); a search stopped
        at its budget finds nothing for sure."""
        found = self.game.title.best_runs_now(corp)
        return found is not None and not found[3] and not found[2]

    def check(self, turn, action: RunRoutes):
        """Refusals: out of order, a second run.  A wrong route or revenue,
        or a train the company does not own, is not a refusal: the claimed
        revenue is what the table paid, so it is flagged and kept (see apply)."""
        corp = turn.corp
        self.refuse_after(turn)
        if turn.revenue is not None:
            raise RuleViolation("route.twice", f"{corp.sym} already ran its trains this turn")
        return None

    def trains_not_owned(self, corp, action: RunRoutes):
        """The message for trains run that the company does not own, or None."""
        owned: dict = {}
        for tr in corp.trains:
            owned[tr.name] = owned.get(tr.name, 0) + 1
        used: dict = {}
        for r in action.routes:
            used[r.train] = used.get(r.train, 0) + 1
        for name, n in used.items():
            if n > owned.get(name, 0):
                have = ", ".join(f"{k}" for k in sorted(owned)) or "no trains"
                return (f"{corp.sym} runs {plural(n, name + '-train')} but owns "
                        f"{owned.get(name, 0)} "
                        f"(trains: {have}); the revenue claimed is taken as paid")
        return None

    def apply(self, turn, action: RunRoutes, plan) -> None:
        g = self.game
        corp = turn.corp
        not_owned = self.trains_not_owned(corp, action)
        if not_owned:
            g.flag("route.train", not_owned)
        claimed_parts = [r.revenue for r in action.routes]
        claimed = action.revenue
        if claimed is None and all(x is not None for x in claimed_parts):
            claimed = sum(x or 0 for x in claimed_parts)
        computed = None
        wrong: list = []        # the runs claimed at other than their worth
        if g.board is not None and action.routes:
            distances = {tr.name: tr.spec.reach for tr in g.trains}
            distances.update({tr.name: tr.spec.reach for tr in corp.trains})
            try:
                computed, per_route = g.board.revenue_of_routes(
                    corp.sym, action.routes, g.phase.tiles[-1], distances)
            except RuleViolation as v:
                g.flag(v.rule, v.message)
                computed = None
            else:
                for r, rev in zip(action.routes, per_route):
                    if r.revenue is not None and r.revenue != rev:
                        wrong.append(f"the {r.train}-train's run "
                                     f"{'-'.join(str(s) for s in r.stops)} is worth "
                                     f"{g.money(rev)}, not the {g.money(r.revenue)} claimed")
        elif not action.routes:
            computed = 0
        if claimed is None:
            claimed = computed if computed is not None else 0
        elif computed is not None and claimed != computed:
            # one mistake, one finding: the runs and the total on one line
            total = (f"{corp.sym}'s runs are worth {g.money(computed)}, but "
                     f"{g.money(claimed)} was claimed")
            if len(wrong) == 1 and len(action.routes) == 1:
                total = wrong[0]
            elif wrong:
                total += f" ({'; '.join(wrong)})"
            g.flag("route.revenue", f"{total}; taken as paid, as the record says")
        elif wrong:
            g.flag("route.revenue", "; ".join(wrong))
        turn.revenue = claimed
        here = self.round.step_index(self)
        if turn.step > here + 1 and turn.withheld_unrun is not None:
            self.take_up_dividend(turn, here + 1)
        self.round.move_to(turn, here + 1)

    def take_up_dividend(self, turn, index: int) -> None:
        """The turn passed over this step and the dividend by itself (no
        route then: nothing withheld, the price moved left), but the record
        runs trains here (a finding says what is wrong with the run): the
        dividend is undone and its step taken up again, as the record goes on
        with it."""
        cell, place = turn.withheld_unrun
        corp = turn.corp
        self.game.place_price(corp, cell)
        stack = self.game.market.stack(cell)
        stack.remove(corp)
        stack.insert(place, corp)
        turn.withheld_unrun = None
        turn.dividend_done = False
        turn.step = index
