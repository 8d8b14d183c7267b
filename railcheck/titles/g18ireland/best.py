"""The best runs an 18Ireland company's trains can make now (``railcheck
next``'s offer, the analyser's hindsight): 18Ireland's run rules
(docs/18Ireland.md O4), on the shared bounded run search.

The candidates come from the shared hindsight search
(``railcheck.analysis.hindsight._Search``: every run through a station of
the company along the laid track, no hex side twice, no stop twice, stopping
at every stop it reaches and ending at off-boards and at cities filled by
others), told 18Ireland's two differences: its runs use broad gauge only
(narrow track is left out of the walk) and a train counts the hex edges it
crosses (the walk stops past the most any of the company's trains may
cross).  Each candidate is then checked and valued by the checker's own
functions (``runs.check_run``: two stops at least, a station of its own, no
blocked city nor off-board passed, the train's hex edges; ``runs.worth``: the
stops, the narrow-gauge bonus of each stop, CDSPC's and TASPS's tokens).  The
trains' runs are combined by branch and bound (no hex side shared:
``runs.claim_track``'s rule); RSSC's Shannon bonus, earned once by the best
run stopping at one of its two cities, is counted by trying each train as
the one that earns it.

What is found is a legal set of runs (``railcheck next`` checks it as the
record's next action), so a lower bound of the best; the search may miss
better runs only when it stops at its budget of steps (``gave_up``) or a
train has more runs than the combination considers.  The budget is a count
of steps, not a time, so that the same game gives the same runs on any
machine; a result is kept for the board's state.
"""

from __future__ import annotations

from ...findings import RuleViolation

#: each train's best runs the combination considers
MAX_RUNS_PER_TRAIN = 200
#: the most stops a run of a train without a limit (the D) may make
MAX_STOPS = 16
#: the steps one search may take when no budget is given
MAX_TICKS = 1_000_000
#: the longest runs (stops) searched first, before the longest a train may make
LEVELS = (6, 10)


def reach_of(train):
    """The hex edges ``train`` may cross (None: no limit, the D)."""
    dist = train.spec.distance
    return int(dist["hexes"]) if isinstance(dist, dict) and "hexes" in dist else None


def best_set(g, corp, trains: list, max_ticks: int = MAX_TICKS):
    """(revenue, [(train name, [(hex index, node index)], its revenue, the
    hexes of each stretch between two stops)], gave up) of the best legal
    set of runs found for ``corp``'s ``trains`` now (its revenue counts
    RSSC's Shannon bonus, which no one run carries), or None (no map, no
    train)."""
    from .runs import shannon_hexes

    board = g.board
    if board is None or not trains:
        return None
    key = (board.version, corp.sym, tuple(t.name for t in trains), max_ticks,
           g.phase.tiles[-1], tuple(sorted(g.title.state.assigned.items())),
           tuple(shannon_hexes(g, corp)))
    return board.memo("18Ireland best runs", key,
                      lambda: _best_set(g, corp, trains, max_ticks), limit=64)


def _best_set(g, corp, trains: list, max_ticks: int):
    from ...analysis.hindsight import _OutOfTime, _Search, best_combination
    from .runs import _gauge, check_run, shannon_bonus, shannon_hexes, worth

    board = g.board
    hexes = board.hex_list
    reaches = [reach_of(t) for t in trains]
    most = None if None in reaches else max(reaches)
    # a run crossing n hex edges visits n + 1 hexes, and stops at most twice
    # in one (two places of a hex joined inside it)
    longest = MAX_STOPS if most is None else min(MAX_STOPS, 2 * (most + 1))
    broad_only = g.rules.operating.routes.broad_gauge_only

    def narrow(hi, pi):
        return _gauge(hexes[hi], pi) != "broad"

    # the walk takes at most three quarters of the budget; the trains'
    # combination what it leaves
    search = _Search(board, corp.sym, g.phase.tiles[-1], float("inf"),
                     max_ticks=max(1, max_ticks * 3 // 4),
                     skip=narrow if broad_only else None, max_edges=most)
    # runs of at most 6 stops first, then longer ones, as the budget allows:
    # a search stopped by it keeps every run of the longest level it finished
    # (a D's runs on a late map may take more steps than ``next`` gives)
    gave_up = False
    candidates: list = []
    for level in sorted({min(longest, k) for k in LEVELS} | {longest}):
        try:
            candidates = search.runs(level)
        except _OutOfTime:
            gave_up = True
            break
    with_shannon = len(shannon_hexes(g, corp)) == 2
    per_train: list = [[] for _ in trains]
    for stops, keys, _ in candidates:
        if len(stops) < 2:
            continue
        run = _Found(stops, keys)
        try:
            check_run(g, corp.sym, run, None)
        except RuleViolation:
            continue
        rev = worth(g, corp.sym, run)
        extra = shannon_bonus(g, corp, [run]) if with_shannon else 0
        for i, reach in enumerate(reaches):
            if reach is None or run.edges <= reach:
                per_train[i].append((rev, extra, run))
    # the trains' combination: each train in turn the one that earns RSSC's
    # bonus (its runs scored with it); without RSSC, one combination
    carriers = range(len(trains)) if with_shannon else [None]
    best = None
    out_of_time = False
    ticks = [min(search.ticks, search.max_ticks)]

    def tick():
        ticks[0] += 1
        if ticks[0] > max_ticks:
            raise _OutOfTime

    for carrier in carriers:
        lists = []
        for i, lst in enumerate(per_train):
            scored = sorted(((rev + (extra if i == carrier else 0), rev, run)
                             for rev, extra, run in lst),
                            key=lambda c: (-c[0], -c[1]))
            lists.append([(score, run.sides, (rev, run)) for score, rev, run in
                          scored[:MAX_RUNS_PER_TRAIN]])
        total, picked, stopped = best_combination(lists, tick)
        out_of_time = out_of_time or stopped
        if best is None or total > best[0]:
            best = (total, picked)
    assert best is not None
    _, picked = best
    chosen = sorted(picked, key=lambda p: p[0])
    runs = [run for _, (_, run) in chosen]
    # the set's revenue as the checker counts it: the runs' worth and the
    # best Shannon bonus among them
    revenue = sum(rev for _, (rev, _) in chosen) + (shannon_bonus(g, corp, runs)
                                                   if with_shannon and runs else 0)
    return (revenue, [(trains[i].name, list(run.nodes), rev, _stretches(search, run))
                      for i, (rev, run) in chosen], gave_up or out_of_time)


class _Found:
    """A run the search found, in the shape the checker's run functions read
    (``runs.Run18``: its stops ``nodes`` and the hex edges it crosses)."""

    __slots__ = ("label", "nodes", "sides", "edges")

    def __init__(self, stops, keys):
        self.label = "the run"
        self.nodes = list(stops)
        self.sides = keys
        # each hex edge crossed uses a side of the hex left and one of the hex entered
        self.edges = sum(1 for k in keys if len(k) == 2) // 2


def _stretches(search, run) -> list:
    """The hexes of each stretch of ``run`` from a stop to the next (both
    included), as a record's route path writes them: the track it uses
    followed in the search's graph."""
    hexes = search.board.hex_list
    sides = run.sides
    out = []
    for a, b in zip(run.nodes, run.nodes[1:]):
        goal = ("i",) + b
        found = _walk(search.adj, ("o",) + a, goal, sides, set())
        if found is None:
            raise RuntimeError(f"the track of a run found does not join {a} and {b}")
        coords: list = []
        for v in found:
            c = hexes[v[1]].coord
            if not coords or coords[-1] != c:
                coords.append(c)
        out.append(coords)
    return out


def _walk(adj, vertex, goal, sides, used):
    """The vertices from ``vertex`` to ``goal`` over arcs whose hex sides are
    all the run's (``sides``) and not used yet, passing no other stop."""
    if vertex == goal:
        return [vertex]
    for w, keys in adj.get(vertex, ()):
        if not keys or any(k not in sides or k in used for k in keys):
            continue
        if w[0] == "i" and w != goal:
            continue
        used.update(keys)
        rest = _walk(adj, w, goal, sides, used)
        if rest is not None:
            return [vertex] + rest
        used.difference_update(keys)
    return None
