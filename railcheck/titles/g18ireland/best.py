"""The best runs an 18Ireland company's trains can make now (``railcheck
next``'s offer, the analyser's hindsight): 18Ireland's run rules
(docs/18Ireland.md O4), on the shared bounded run search.

The candidates come from the shared hindsight search
(``railcheck.runsearch._Search``: every run through a station of
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
MAX_RUNS_PER_TRAIN = 300
#: the most stops a run of a train without a limit (the D) may make (more
#: than the broad network of a late map offers: random 18004_0 #1128's D
#: runs through 17)
MAX_STOPS = 40
#: the steps one search may take when no budget is given (the hindsight's
#: for its default limit of 2 s)
MAX_TICKS = 4_000_000
#: the longest runs (stops) searched first, before the longest a train may make
LEVELS = (6, 10)
#: a level is not begun when the steps it would take, grown from the last as
#: the last grew from the one before, pass this many times the budget's rest
SKIP_FACTOR = 8


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
    from ...runsearch import _OutOfTime, _Search, best_combination
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
    # combinations what it leaves
    search = _Search(board, corp.sym, g.phase.tiles[-1], max(1, max_ticks * 3 // 4),
                     skip=narrow if broad_only else None, max_edges=most)
    with_shannon = len(shannon_hexes(g, corp)) == 2
    ticks = [0]

    def tick():
        ticks[0] += 1
        if ticks[0] > max_ticks:
            raise _OutOfTime

    valued: dict = {}

    def value(stops, keys):
        """(its worth, RSSC's bonus if it earns it, the run), or None: a
        candidate the checker's rules refuse."""
        run = _Found(stops, keys)
        try:
            check_run(g, corp.sym, run, None)
        except RuleViolation:
            return None
        return (worth(g, corp.sym, run),
                shannon_bonus(g, corp, [run]) if with_shannon else 0, run)

    def combine(candidates):
        """The best set of the trains' runs among ``candidates``: (revenue,
        [(train index, (its worth, run))]), and whether the combination ran
        out of steps."""
        per_train: list = [[] for _ in trains]
        for stops, keys, _ in candidates:
            if len(stops) < 2:
                continue
            got = valued.get((stops, keys), False)
            if got is False:
                got = valued[(stops, keys)] = value(stops, keys)
            if got is None:
                continue
            for i, reach in enumerate(reaches):
                if reach is None or got[2].edges <= reach:
                    per_train[i].append(got)
        # each train in turn the one that earns RSSC's bonus (its runs scored
        # with it); without RSSC, one combination
        found = (0, [])
        stopped = False
        for carrier in (range(len(trains)) if with_shannon else [None]):
            lists = []
            for i, lst in enumerate(per_train):
                scored = sorted(((rev + (extra if i == carrier else 0), rev, run)
                                 for rev, extra, run in lst),
                                key=lambda c: (-c[0], -c[1]))
                lists.append([(score, run.sides, (rev, run)) for score, rev, run in
                              scored[:MAX_RUNS_PER_TRAIN]])
            _, picked, out = best_combination(lists, tick)
            stopped = stopped or out
            runs = [run for _, (_, run) in picked]
            # the set's revenue as the checker counts it: the runs' worth and
            # the best Shannon bonus among them
            revenue = sum(rev for _, (rev, _) in picked) + (
                shannon_bonus(g, corp, runs) if with_shannon and runs else 0)
            if revenue > found[0]:
                found = (revenue, picked)
        return found, stopped

    # runs of at most 6 stops first, then longer ones, as the budget allows:
    # a search stopped by it keeps the best set of the levels it finished (a
    # D's runs on a late map may take more steps than ``next`` gives); and
    # the best set of each level is kept, since a level of longer runs may
    # hold so many that the combination's share of each train's best ones
    # leaves out two trains' best pair
    gave_up = False
    best = (0, [])
    spent: list = []        # the steps each level took
    for level in sorted({min(longest, k) for k in LEVELS} | {longest}):
        if len(spent) >= 2 and spent[-1] * spent[-1] // max(1, spent[-2]) \
                > SKIP_FACTOR * (search.max_ticks - search.ticks):
            # the levels' steps grow by a factor (about 14 for a late D); a
            # level this one leaves far more than the budget's rest is not
            # begun: the search stops at its budget with what it has
            gave_up = True
            break
        before = search.ticks
        try:
            candidates = search.runs(level)
        except _OutOfTime:
            gave_up = True
            break
        spent.append(search.ticks - before)
        ticks[0] = search.ticks
        found, stopped = combine(candidates)
        gave_up = gave_up or stopped
        if found[0] > best[0]:
            best = found
        if stopped:
            break
    revenue, picked = best
    chosen = sorted(picked, key=lambda p: p[0])
    return (revenue, [(trains[i].name, list(run.nodes), rev, _stretches(search, run))
                      for i, (rev, run) in chosen], gave_up)


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
    followed in the search's graph, every hex side of the run used once."""
    hexes = search.board.hex_list
    found = _walk_all(search.adj, run.nodes, 0, ("o",) + run.nodes[0], run.sides, set(), [])
    if found is None:
        raise RuntimeError(f"the track of a run found does not join its stops {run.nodes}")
    out = []
    for vertices in found:
        coords: list = []
        for v in vertices:
            c = hexes[v[1]].coord
            if not coords or coords[-1] != c:
                coords.append(c)
        out.append(coords)
    return out


def _walk_all(adj, stops, k, vertex, sides, used, walked):
    """The vertices of each stretch from stop ``k`` on, over arcs whose hex
    sides are all the run's (``sides``) and not used yet, each stretch
    passing no other stop, and every side used by the end; None: none."""
    goal = ("i",) + stops[k + 1]
    if vertex == goal:
        walked = walked + [vertex]
        if k + 2 == len(stops):
            return [walked] if len(used) == len(sides) else None
        rest = _walk_all(adj, stops, k + 1, ("o",) + stops[k + 1], sides, used, [])
        return None if rest is None else [walked] + rest
    for w, keys in adj.get(vertex, ()):
        if not keys or any(x not in sides or x in used for x in keys):
            continue
        if w[0] == "i" and w != goal:
            continue
        used.update(keys)
        got = _walk_all(adj, stops, k, w, sides, used, walked + [vertex])
        if got is not None:
            return got
        used.difference_update(keys)
    return None
