"""The best runs a company's trains can make on the board as it is: the
search of the analyser's hindsight (``analysis/hindsight.py``), of ``railcheck
next`` and of a run the record left out (``Title.best_runs_now``,
``following/run.py``); 1860's and 18Ireland's own searches (their
``best.py``) walk with it and combine with :func:`best_combination`.

The search is ours and simple (an exhaustive walk bounded by a budget of
steps, not of seconds, so that a game gives the same runs on any machine,
however loaded: a finding may rest on it, ``following/run.py``'s run left
out):

1. from each station of the company, every *half-run*: a walk along the laid
   track (``board.routes.track_arcs``) that uses no hex side twice, stops at
   every revenue centre it reaches, ends at an off-board area or a city
   filled by other companies' stations, and never visits a stop twice;
2. two half-runs from the same station that share no hex side and no stop
   make one run through that station (every run holds a station, so every
   run is found this way);
3. each train takes at most one run its reach allows; the trains' runs share
   no hex side; the best total is found by branch and bound.

A search stops after its budget of steps (a limit asked in seconds is
``TICKS_PER_SECOND`` steps for each: about that long on an idle machine) and
says so, with the best it had found.  Revenue here is the stops' values in
the phase (title bonuses such as 1860's halts are not counted).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

#: runs kept for one set of stops, over different track
VARIANTS = 6
#: each train's best runs that the trains' combination considers
MAX_RUNS_PER_TRAIN = 300


#: the steps of a search of the best runs (the shared one, and a title's own:
#: 18Ireland's) for each second of a limit asked in seconds (the hindsight's
#: default 2 s: 4,000,000 steps; 18Ireland's D on a late map takes up to
#: about 2,400,000, 1 s here; the shared search walks 0.5 to 1.4 million a
#: second on the corpus's largest)
TICKS_PER_SECOND = 2_000_000
#: the steps of the shared search when its result decides a finding (a run
#: left out, ``following/run.py``; one second's worth: 1889's largest late
#: map in /work/gen/A takes 1,175,806)
RUN_TICKS = 2_000_000


def ticks_for(limit: float) -> int:
    """The budget of steps a limit of ``limit`` seconds stands for."""
    return max(1, int(TICKS_PER_SECOND * limit))


class _OutOfTime(Exception):
    pass


class _Search:
    def __init__(self, board, corp: str, phase_color: str, max_ticks: int,
                 skip=None, max_edges: Optional[int] = None):
        from .board.routes import track_arcs
        from .board.tiles import revenue_for_phase

        self.board = board
        self.corp = corp
        #: a budget of steps, not of seconds: a search whose result decides a
        #: finding must give the same answer on any machine, however loaded
        self.max_ticks = max_ticks
        self.ticks = 0
        #: the most hex edges a run may cross (a title whose trains count hex
        #: edges: 18Ireland's), None: no limit
        self.max_edges = max_edges
        arcs = track_arcs(board)
        # ``skip(hex index, path index)``: track no run may use (18Ireland's
        # narrow gauge)
        self.adj = {v: [(w, d["keys"]) for w, d in nbrs.items()
                        if skip is None or not skip(d["hex"], d["path"])]
                    for v, nbrs in arcs.items()}
        hexes = board.hex_list
        self.value = {}
        #: what a D-train earns where it differs (an off-board's ``diesel`` value)
        self.diesel = {}
        for h in hexes:
            for ni, node in enumerate(h.nodes):
                self.value[(h.idx, ni)] = revenue_for_phase(node.revenue, phase_color)
                d = revenue_for_phase(node.revenue, phase_color, diesel=True)
                if d != self.value[(h.idx, ni)]:
                    self.diesel[(h.idx, ni)] = d

    def tick(self):
        self.ticks += 1
        if self.ticks > self.max_ticks:
            raise _OutOfTime

    def node(self, n):
        return self.board.hex_list[n[0]].nodes[n[1]]

    def halves(self, start, max_stops: int) -> list:
        """Half-runs from ``start``: (stops after start, hex sides used).  In
        ``self.first_arcs``, for each, the number of the first track it takes
        from ``start`` when that track uses a hex side (else None): the
        half-runs of one such track come one after another, and share it."""
        out = [((), frozenset())]
        arcs: list = [None]
        self.first_arcs = arcs
        #: the hex edges each half-run crosses (kept when runs are limited by them)
        self.half_edges = edges_of = [0]
        most = self.max_edges
        start_group = self.node(start).group
        top = ("o",) + start
        arc = [None]

        def walk(vertex, used, stops, groups, edges):
            self.tick()
            if vertex[0] == "x":
                # every arc from here crosses the hex edge into the next hex
                edges += 1
                if most is not None and edges > most:
                    return
            for k, (w, keys) in enumerate(self.adj.get(vertex, ())):
                if vertex is top:
                    arc[0] = k if keys else None
                if keys and any(k in used for k in keys):
                    continue
                if w[0] == "x":
                    walk(w, used | set(keys), stops, groups, edges)
                elif w[0] == "i":
                    n = (w[1], w[2])
                    if n == start or n in stops:
                        continue
                    node = self.node(n)
                    if node.group and node.group in groups:
                        continue
                    new_stops = stops + (n,)
                    new_used = used | set(keys)
                    out.append((new_stops, frozenset(new_used)))
                    arcs.append(arc[0])
                    edges_of.append(edges)
                    if node.kind == "offboard" or node.blocks(self.corp) \
                            or len(new_stops) + 1 >= max_stops:
                        continue
                    walk(("o",) + n, new_used, new_stops,
                         groups | ({node.group} if node.group else set()), edges)

        walk(top, frozenset(), (), {start_group} if start_group else set(), 0)
        return out

    def runs(self, max_stops: int) -> list:
        """Every run holding a station: (stops in order, sides used, revenue).
        Each pair of half-runs is one step of the budget (counted a row of
        pairs at a time)."""
        found = {}
        node = self.node
        for hx, ni in self.board.stations(self.corp):
            start = (self.board.hexes[hx].idx, ni)
            halves = self.halves(start, max_stops)
            groups = [{node(n).group for n in a if node(n).group} for a, _ in halves]
            # past the half-runs that leave by the same first track (they
            # share its hex side: no pair of them makes a run)
            arcs = self.first_arcs
            past = list(range(1, len(halves) + 1))
            for j in range(len(halves) - 2, -1, -1):
                if arcs[j] is not None and arcs[j + 1] == arcs[j]:
                    past[j] = past[j + 1]
            edges = self.half_edges
            most = self.max_edges
            for i, (a, ka) in enumerate(halves):
                self._ticks(len(halves) - i)
                sa = set(a)
                ga = groups[i]
                room = max_stops - len(a) - 1
                edges_left = None if most is None else most - edges[i]
                for j in range(past[i] if arcs[i] is not None else i, len(halves)):
                    b, kb = halves[j]
                    if not a and not b:
                        continue
                    if len(b) > room or not ka.isdisjoint(kb) or not sa.isdisjoint(b):
                        continue
                    if edges_left is not None and edges[j] > edges_left:
                        continue
                    if ga and not ga.isdisjoint(groups[j]):
                        continue
                    stops = tuple(reversed(a)) + (start,) + b
                    key = frozenset(stops)
                    rev = sum(self.value[n] for n in stops)
                    keys = ka | kb
                    # the same stops over other track may leave room for another train
                    variants = found.setdefault(key, [])
                    if len(variants) < VARIANTS and all(keys != k for _, k, _ in variants):
                        variants.append((stops, keys, rev))
        return [run for variants in found.values() for run in variants]

    def _ticks(self, n: int):
        """``n`` steps at once: out of steps as :meth:`tick` would be after them."""
        self.ticks += n
        if self.ticks > self.max_ticks:
            raise _OutOfTime


def best_runs(board, corp: str, trains: list, phase_color: str, max_ticks: int):
    """(best revenue, [(train name, stops)], gave_up, the chosen runs, trimmed)
    for ``trains`` (a list of (name, Reach)) of ``corp`` on ``board`` as it is
    now, within ``max_ticks`` steps; ``trimmed``: a train had more runs than
    the combination considers."""
    found = search_best_runs(board, corp, trains, phase_color, max_ticks)
    return found.total, found.routes, found.gave_up, found.chosen, found.trimmed


@dataclass
class Found:
    """The best set of runs the shared search found."""

    total: int
    #: [(train name, [stop text])]
    routes: list
    gave_up: bool
    #: [(train index, [(hex index, node index)])], by train
    chosen: list
    trimmed: bool
    #: each chosen run's revenue, in the order of ``chosen``
    revenues: list


def search_best_runs(board, corp: str, trains: list, phase_color: str,
                     max_ticks: int) -> Found:
    """The best set of runs of ``trains`` (a list of (name, Reach)) of
    ``corp`` on ``board`` as it is now, within ``max_ticks`` steps (the
    same on any machine)."""
    max_stops = 0
    for _, reach in trains:
        if reach.kind == "stops":
            max_stops = max(max_stops, reach.stops)
        elif reach.kind == "n+m":
            max_stops = max(max_stops, reach.cities + reach.towns)
        else:
            max_stops = 99
    search = _Search(board, corp, phase_color, max_ticks)
    gave_up = False
    try:
        candidates = search.runs(max_stops)
    except _OutOfTime:
        gave_up = True
        candidates = []
    per_train = []
    trimmed = False
    from .board.tiles import train_is_diesel
    for name, reach in trains:
        mine = []
        diesel = search.diesel if train_is_diesel(name) else None
        for stops, keys, rev in candidates:
            if diesel:
                rev = sum(diesel.get(n, search.value[n]) for n in stops)
            kinds = [search.node(n).kind for n in stops]
            entered = None
            if reach.kind == "hexes":
                entered = len({k[0] for k in keys} | {hi for hi, _ in stops}) - 1
            if reach.problem(kinds, entered) is None:
                mine.append((rev, stops, keys))
        mine.sort(key=lambda c: -c[0])
        if len(mine) > MAX_RUNS_PER_TRAIN and len(trains) > 1:
            trimmed = True     # (one train alone takes its best run: no loss)
        per_train.append(mine[:MAX_RUNS_PER_TRAIN])
    # each train one run (or none); no shared hex side
    total, picked, out_of_time = best_combination(
        [[(rev, keys, (stops, rev)) for rev, stops, keys in mine] for mine in per_train],
        search.tick)
    gave_up = gave_up or out_of_time
    hexes = board.hex_list
    picked.sort(key=lambda p: (p[0], p[1][0]))
    chosen = [(ti, stops) for ti, (stops, _) in picked]
    routes = []
    for ti, stops in chosen:
        routes.append((trains[ti][0], [f"{hexes[hi].coord}.{ni}" if len(hexes[hi].nodes) > 1
                                        else hexes[hi].coord for hi, ni in stops]))
    return Found(total, routes, gave_up, chosen, trimmed, [rev for _, (_, rev) in picked])


def best_combination(per_train: list, tick, legal=None):
    """Branch and bound over the trains' runs: each train takes one of its
    candidates ``(score, hex sides, item)``, best first, or none; no hex
    side is shared, and ``legal(picked)`` (when given) may refuse a whole
    combination.  ``tick()`` is called at each branch and may raise
    ``_OutOfTime``: the best found by then is kept.  (total, [(train
    index, item)], whether it ran out)."""
    order = sorted(range(len(per_train)),
                   key=lambda i: -(per_train[i][0][0] if per_train[i] else 0))
    tops = [per_train[i][0][0] if per_train[i] else 0 for i in order]
    rest_bound = [sum(tops[k:]) for k in range(len(order) + 1)]
    best = [0, []]

    def choose(k, used, total, picked):
        if total + rest_bound[k] <= best[0]:
            return
        if k == len(order):
            if legal is None or (picked and legal(picked)):
                best[0], best[1] = total, list(picked)
            return
        tick()
        for score, keys, item in per_train[order[k]]:
            if total + score + rest_bound[k + 1] <= best[0]:
                break
            if keys & used:
                continue
            picked.append((order[k], item))
            choose(k + 1, used | keys, total + score, picked)
            picked.pop()
        choose(k + 1, used, total, picked)

    try:
        choose(0, frozenset(), 0, [])
    except _OutOfTime:
        return best[0], best[1], True
    return best[0], best[1], False


def standard_runs(g) -> bool:
    """The title runs trains by the shared route rules (``steps.route.RouteStep``
    itself), the only ones the search models."""
    from .steps.route import RouteStep

    steps = g.title.operating_steps()
    return RouteStep in steps and not any(
        isinstance(s, type) and issubclass(s, RouteStep) and s is not RouteStep for s in steps)
