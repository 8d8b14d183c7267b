"""A better run for a corporation in receivership (docs/1860.md R2: it
"runs for the maximum").

The candidates come from the shared hindsight search
(``railcheck.runsearch._Search``: every run through a station of
the corporation along the laid track, no hex side twice, no stop twice,
stopping at blocked cities and off-boards); each is then taken only when it
plainly enters no hex twice (at most two sides of a hex used, one in the
hexes of its ends, which differ), and checked and valued by 1860's own run
rules (``runs.check_run``, ``runs.worth``: n cities, the best towns and the
halts in the places left, no halt at an end, a station of its own).  The
trains' runs are combined by branch and bound (no hex side shared), and a
combination counts only when it also passes ``runs.check_network`` (the
home station, one network, one train passing a blocked city).

So what is found is a legal set of runs: a lower bound of the best, never
more.  A recorded set that earns less is therefore proven short of the
maximum -- when it earns more both in revenue and in revenue and subsidy
together (the summary's "the most" may mean either); the search may miss
better runs (a run passing a blocked city,
skipping a town, or cut by its budget of steps), which only means no finding.
The budget is a count of steps, not a time, so that the same game gives
the same findings on any machine; a result is kept for the board's state
(the same corporation, trains and map ask again each operating round).
"""

from __future__ import annotations

from ...findings import RuleViolation

#: each train's best runs the combination considers
MAX_RUNS_PER_TRAIN = 200
#: the longest run (stops visited) the search walks
MAX_STOPS = 16
#: the towns a run may pass without counting them, beyond the stops its
#: train counts (a longer run is not walked: at worst a better run missed)
SKIPPED_TOWNS = 2
#: the steps one search may take (the corpus's largest takes 266,593: random
#: 18602_7, IOW's 9+5 and 6+3); past it the search gives up: no finding
MAX_TICKS = 1_000_000


def _plain(run_nodes, keys) -> bool:
    """The run enters no hex twice, for certain: at most two sides of any
    hex used, at most one in the hexes of its two ends, which differ."""
    first, last = run_nodes[0][0], run_nodes[-1][0]
    if first == last:
        return False
    sides: dict = {}
    for key in keys:
        if len(key) != 2:
            continue        # track joining two stops inside a hex: no side
        hi = key[0]
        c = sides[hi] = sides.get(hi, 0) + 1
        if c > 2:
            return False
    return sides.get(first, 0) <= 1 and sides.get(last, 0) <= 1


def best_total(g, corp, trains: list, max_ticks: int = MAX_TICKS, by: str = "total"):
    """(total, revenue, subsidy, [(train name, stops text)], gave_up) of the
    best legal set of runs found for ``corp``'s ``trains`` now (the most
    revenue and subsidy together, or with ``by="revenue"`` the most
    revenue), or None when the search cannot run (no board).  The runs each
    train may make are found once for the board's state; each ``by`` then
    combines them."""
    board = g.board
    if board is None or not trains:
        return None
    state = (board.version, corp.sym, tuple(t.name for t in trains), max_ticks,
             g.phase.name, frozenset(g.title.state.bankrupt))
    cache = g.title.state.best_runs
    if cache.get("state") != state:
        cache.clear()           # one board state at a time
        cache["state"] = state
        cache["runs"] = _train_runs(g, corp, trains, max_ticks)
    if by not in cache:
        cache[by] = _combine(g, corp, trains, cache["runs"], max_ticks, by)
    return cache[by]


def best_set(g, corp, trains: list, max_ticks: int = MAX_TICKS, by: str = "total"):
    """:func:`best_total`'s result and the chosen runs, [(train name, [(hex
    index, node index)], revenue, halt subsidy)] (``railcheck next`` offers
    them as a run), or None."""
    found = best_total(g, corp, trains, max_ticks, by)
    if found is None:
        return None
    return found, g.title.state.best_runs.get(by + ":chosen", [])


def _train_runs(g, corp, trains: list, max_ticks: int):
    """(per train, the legal runs it may make as (revenue, subsidy, run,
    hex sides); whether the search gave up)."""
    from ...runsearch import _OutOfTime, _Search
    from .runs import Run, check_run, worth

    board = g.board
    phase = g.phase.tiles[-1]
    dists = []
    for t in trains:
        dist = t.spec.distance if isinstance(t.spec.distance, dict) else {}
        dists.append((int(dist.get("cities", 99)), int(dist.get("towns", 0))))
    # a run stops at most at the cities and towns its train counts, and may
    # pass towns it does not count: SKIPPED_TOWNS more stops are walked
    longest = min(MAX_STOPS, max(n + m for n, m in dists) + SKIPPED_TOWNS)
    search = _Search(board, corp.sym, phase, max_ticks)
    gave_up = False
    try:
        candidates = search.runs(longest)
    except _OutOfTime:
        gave_up = True
        candidates = []
    bankrupt = set(g.title.state.bankrupt)
    per_train = [[] for _ in trains]
    most = max(n for n, _ in dists)
    hexes = board.hex_list
    for stops, keys, _ in candidates:
        if len(stops) < 2:
            continue
        kinds = [hexes[hi].nodes[ni].kind for hi, ni in stops]
        big = sum(1 for k in kinds if k in ("city", "offboard"))
        if big > most:
            continue            # no train counts so many (checked before its rules: the same)
        if not _plain(stops, keys):
            continue
        # no hexes listed: a plain run enters none twice, which is all the
        # rules read them for
        run = Run("search", list(stops), kinds, [], keys=[tuple(keys)])
        try:
            check_run(g, corp.sym, run, 99, bankrupt, why=False)
        except RuleViolation:
            continue
        for i, (n, m) in enumerate(dists):
            if big > n:
                continue
            rev, sub = worth(g, run, n, m, leased=False, requested=None)
            per_train[i].append((rev, sub, run, frozenset(keys)))
    return per_train, gave_up


def _combine(g, corp, trains: list, found, max_ticks: int, by: str):
    """The best combination of the trains' runs (no hex side shared, one
    network), by revenue and subsidy together or by revenue."""
    from ...runsearch import _OutOfTime, best_combination
    from ...board.routes import node_text
    from .runs import check_network

    board = g.board
    runs_of, gave_up = found
    per_train = []
    for lst in runs_of:
        scored = [((rev + sub) if by == "total" else rev, rev, sub, run, keys)
                  for rev, sub, run, keys in lst]
        scored.sort(key=lambda c: (-c[0], -c[1] - c[2]))
        per_train.append(scored[:MAX_RUNS_PER_TRAIN])
    ticks = [0]

    def tick():
        ticks[0] += 1
        if ticks[0] > max_ticks:
            raise _OutOfTime

    def legal(picked) -> bool:
        try:
            check_network(g, corp.sym, [c[3] for _, c in picked])
        except RuleViolation:
            return False
        return True

    _, picked, out_of_time = best_combination(
        [[(c[0], c[4], c) for c in lst] for lst in per_train], tick, legal)
    gave_up = gave_up or out_of_time
    chosen = sorted(picked, key=lambda p: p[0])
    # the chosen runs' stops, for ``railcheck next`` (best_set)
    g.title.state.best_runs[by + ":chosen"] = [(trains[i].name, list(c[3].nodes), c[1], c[2])
                                               for i, c in chosen]
    routes = [(trains[i].name, "-".join(node_text(board, hi, ni) for hi, ni in c[3].nodes))
              for i, c in chosen]
    rev = sum(c[1] for _, c in chosen)
    sub = sum(c[2] for _, c in chosen)
    return rev + sub, rev, sub, routes, gave_up


def check_receivership_run(g, corp, trains: list, revenue: int, subsidy: int) -> None:
    """Flag ``route.receivership_max`` when a legal set of runs is found for
    ``corp`` in receivership (R2) that earns more revenue than the recorded
    ``revenue`` and more revenue and halt subsidy together than the recorded
    ``revenue`` + ``subsidy``; not during nationalisation (its runs may not
    skip towns, which the valuation does not model)."""
    if g.title.state.nationalised:
        return
    # flagged only when one set of runs earns more both ways: more revenue,
    # and more revenue and subsidy together (the summary does not say which
    # "the most" means)
    better = None
    for by in ("revenue", "total"):
        found = best_total(g, corp, trains, by=by)
        if found is None:
            return
        if found[1] > revenue and found[0] > revenue + subsidy:
            better = found
            break
    if better is None:
        return
    total, rev, sub, routes, _ = better
    runs = "; ".join(f"{t}: {stops}" for t, stops in routes)
    g.flag("route.receivership_max",
           f"{corp.sym} is in receivership and must run for the most it can earn: its runs "
           f"earn {g.money(revenue + subsidy)} ({g.money(revenue)} + {g.money(subsidy)} "
           f"subsidy), but {runs} earn {g.money(total)} ({g.money(rev)} + {g.money(sub)} "
           f"subsidy)")
