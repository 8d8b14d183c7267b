"""1860's runs checked on the map (docs/1860.md O3a-O3f, O5e, N3).

A run is read from an 18xx.games export's ``connections``: each is the
hexes of one stretch of track between two stops (``"F2 0.1"``: inside F2,
from node 0 to node 1 in the site's numbering); or, without them, from its
stops and the hexes between them (``Route.path``, the notation's ``~``).  The stretches are followed
on the shared board (:func:`railcheck.board.routes.follow_given_track`), and
then 1860's rules are checked on the stops visited:

* the track joins the stops; no hex is entered twice; no stop twice; no
  hex side used twice, nor by two trains;
* a run includes a station of the corporation, neither starts nor ends at
  a halt, runs through no off-board area, visits at most n cities or
  off-boards; it may pass one city filled by other corporations' stations
  (flipped stations of bankrupt ones never block), and only one train of
  the turn may do so;
* one run visits the home station, and the runs form one network (each
  shares a stop with another);
* revenue: all cities and off-boards, then the halts the run counts, then the
  best towns in the places left (town places, then unused city places); a
  halt pays nothing but the subsidy to the treasury; a leased train earns
  40 + 20 per stop (its city number of them), no subsidy; under British
  Rail only the city number counts and halts are ignored once building
  stopped.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...board.routes import claim_track, follow_given_track, node_text
from ...board.site_runs import follow_connections
from ...board.tiles import revenue_for_phase
from ...findings import RuleViolation


@dataclass
class Run:
    """One train's run as read from the map."""
    label: str
    nodes: list                          # [(hex idx, node idx)] in order
    kinds: list                          # "city", "town", "offboard", "halt"
    hexes: list = field(default_factory=list)   # hexes passed, in order
    revenue: int = 0
    subsidy: int = 0
    blocked: list = field(default_factory=list)  # blocked cities passed
    keys: list = field(default_factory=list)     # hex sides used, per stretch


def _trace_key(board, connections: list):
    """What a reading of ``connections`` depends on: the stretches as written
    and, on each hex they name, its track (its stamp: the tile and its paths;
    None: not kept)."""
    hexes = board.hexes
    conns, state = [], []
    for seg in connections:
        items = seg if isinstance(seg, list) else [seg]
        for x in items:
            parts = str(x).split()
            h = hexes.get(parts[0]) if parts else None
            if h is None:
                return None
            state.append(h.stamp)
        conns.append(tuple(str(x) for x in items) if isinstance(seg, list) else ("", str(seg)))
    return tuple(conns), tuple(state)


def trace(g, label: str, connections: list) -> Run:
    """Follow a run's connections on the map; raises RuleViolation when the
    track does not join them.  A reading that visits no stop twice is
    preferred.  A run read before on the same track is taken from the
    board's cache (trains run the same runs turn after turn)."""
    board = g.board
    key = _trace_key(board, connections)
    if key is None:
        return _trace(g, label, connections)

    def read():
        run = _trace(g, label, connections)
        return (tuple(run.nodes), tuple(run.kinds), tuple(run.hexes),
                tuple(tuple(k) for k in run.keys))

    nodes, kinds, hexes, keys = board.memo("1860 runs", key, read)
    return Run(label, list(nodes), list(kinds), list(hexes), keys=[list(k) for k in keys])


def _trace(g, label: str, connections: list) -> Run:
    board = g.board
    problems: list = []
    repeating = None      # a reading that visits a stop twice, if no other
    for nodes, segments, keys in follow_connections(g, label, connections, problems):
        run = _run(board, label, nodes, segments, keys)
        if len(set(nodes)) == len(nodes):
            return run
        repeating = repeating or run
    if repeating is not None:
        return repeating
    raise problems[0] if problems else RuleViolation(
        "route.connection", f"{label}: the track does not join its stops")


def trace_stops(g, label: str, route) -> Run:
    """Follow a run written with its stops and the hexes between them
    (``Route.stops``, ``Route.path``: the notation's ``I3~J4``)."""
    board = g.board
    stops = [str(s.hex) for s in route.stops]
    cands = [None if s.city is None else [int(s.city)] for s in route.stops]
    for coord in stops:
        if coord not in board.hexes:
            raise RuleViolation("route.path", f"{label}: there is no hex {coord}")
    nodes, segments, keys = follow_given_track(board, label, stops, cands, route.path)
    return _run(board, label, nodes, segments, keys)


def _run(board, label, nodes, segments, keys) -> Run:
    hexes = []
    for seg in segments:
        for hi, _ in seg:
            if not hexes or hexes[-1] != hi:
                hexes.append(hi)
    return Run(label, nodes, [board.hex_list[hi].nodes[ni].kind for hi, ni in nodes], hexes,
               keys=keys)


def _label(route) -> str:
    return f"the {route.train}-train" + (f" ({route.train_id})" if route.train_id and
                                         route.train_id != route.train else "")


#: options whose run rules are not checked here: their runs are taken as recorded
UNCHECKED_OPTIONS = ("original_insolvency", "no_skip_towns", "original_game",
                     "simplified_insolvency")


def check_run(g, corp: str, run: Run, n: int, bankrupt: set, why: bool = True,
              m: int = 0) -> None:
    """The rules of one run alone (``operating.routes``; raises RuleViolation);
    ``n`` cities and ``m`` towns counted.  The stops' names
    are written out only for a message, and with ``why`` False not at all
    (the receivership search checks thousands of runs and keeps no message)."""
    board = g.board
    nodes = run.nodes
    kinds = run.kinds
    rules = g.rules.operating.routes

    def text(k: int) -> str:
        return node_text(board, *nodes[k]) if why else ""

    def stops() -> str:
        return "-".join(text(k) for k in range(len(nodes))) if why else ""

    if len(nodes) < 2:
        raise RuleViolation("route.too_short", f"{run.label} has {len(nodes)} stop; a run needs at least 2")
    if len(set(nodes)) != len(nodes):
        seen: set = set()
        for k, node in enumerate(nodes):
            if node in seen:
                raise RuleViolation("route.repeat_stop", f"{run.label} ({stops()}) visits {text(k)} twice")
            seen.add(node)
    if rules.no_hex_reentry and len(set(run.hexes)) != len(run.hexes):
        hexes_seen = set()
        for hi in run.hexes:
            if hi in hexes_seen:
                raise RuleViolation("route.hex_reentry",
                                    f"{run.label} ({stops()}) enters {board.hex_list[hi].coord} twice; "
                                    f"a train passes a hex only once")
            hexes_seen.add(hi)
    if rules.cannot_end_at_halt and (kinds[0] == "halt" or kinds[-1] == "halt"):
        end = text(0) if kinds[0] == "halt" else text(len(nodes) - 1)
        raise RuleViolation("route.halt_end", f"{run.label} ({stops()}) begins or ends at the halt "
                                              f"{end}; a run may only pass halts")
    for k in range(1, len(nodes) - 1):
        if kinds[k] == "offboard":
            raise RuleViolation("route.offboard", f"{run.label} runs through the off-board area "
                                                  f"{text(k)}; it may only start or end there")
    hexes = board.hex_list
    if not any(corp in hexes[hi].nodes[ni].tokens for hi, ni in nodes):
        raise RuleViolation("route.token", f"{run.label} ({stops()}) includes no station of "
                                           f"{corp}{_stations(board, corp) if why else ''}")
    big = sum(1 for kd in kinds if kd in ("city", "offboard"))
    if big > n:
        raise RuleViolation("route.distance", f"{run.label} ({stops()}) visits {big} cities or "
                                              f"off-board areas but may count only {n}")
    if not rules.may_skip_towns_and_halts:
        towns = sum(1 for kd in kinds if kd == "town")
        room = max(n + m - big, 0)
        if towns > room:
            raise RuleViolation("route.distance",
                                f"{run.label} ({stops()}) visits {towns} towns but may count only "
                                f"{room}, and every town it passes counts")
    for k in range(1, len(nodes) - 1):
        hi, ni = nodes[k]
        node = hexes[hi].nodes[ni]
        if node.blocks(corp) and (rules.flipped_tokens_block
                                  or not any(t in bankrupt for t in node.tokens)):
            run.blocked.append(text(k))
    if run.blocked and not rules.bypass_one_blocked_city:
        raise RuleViolation("route.blocked", f"{run.label} ({stops()}) passes "
                                             f"{', '.join(run.blocked)}, filled by other "
                                             f"corporations; a train may not")
    if len(run.blocked) > 1:
        raise RuleViolation("route.blocked", f"{run.label} ({stops()}) passes {len(run.blocked)} "
                                             f"cities filled by other corporations "
                                             f"({', '.join(run.blocked)}); a train may pass only one")


def _stations(board, corp: str) -> str:
    """`` (its stations: G5 city 0, I3)`` for a message."""
    where = [node_text(board, hi, ni) for hi, h in enumerate(board.hex_list)
             for ni, node in enumerate(h.nodes) if corp in node.tokens]
    return f" (its stations: {', '.join(where)})" if where else " (it has no station)"


def check_network(g, corp: str, runs: list) -> None:
    """One run visits the home station; the runs share stops (one network);
    only one train passes a blocked city."""
    board = g.board
    rules = g.rules.operating.routes
    passing = [r for r in runs if r.blocked]
    if len(passing) > 1:
        raise RuleViolation("route.blocked", f"{passing[0].label} and {passing[1].label} both pass "
                                             f"a city filled by other corporations "
                                             f"({passing[0].blocked[0]}, {passing[1].blocked[0]}); "
                                             f"only one train may")
    homes = board.corporations.get(corp, {}).get("homes") or []
    home_nodes = {(board.hexes[h].idx, ni) for h in homes if h in board.hexes
                  for ni, node in enumerate(board.hexes[h].nodes) if corp in node.tokens}
    if rules.home_station_in_one_route and home_nodes and runs \
            and not any(home_nodes & set(r.nodes) for r in runs):
        raise RuleViolation("route.home", f"no run of {corp} visits its home station "
                                          f"({', '.join(homes)}); one must")
    if rules.routes_must_intersect and len(runs) > 1:
        linked = {0}
        grown = True
        while grown:
            grown = False
            for i, r in enumerate(runs):
                if i not in linked and any(set(r.nodes) & set(runs[j].nodes) for j in linked):
                    linked.add(i)
                    grown = True
        if len(linked) != len(runs):
            alone = next(r for i, r in enumerate(runs) if i not in linked)
            raise RuleViolation("route.network", f"{alone.label} shares no stop with "
                                                 f"{corp}'s other runs; the runs must form one network")


def worth(g, run: Run, n: int, m: int, *, leased: bool, requested) -> tuple[int, int]:
    """(revenue, subsidy) of a checked run (docs/1860.md O3e, O3f, O5e, N3)."""
    board = g.board
    st = g.title.state
    phase = g.phase.tiles[-1]
    ins = g.rules.settings.insolvency
    cities, towns, halts = [], [], 0
    for (hi, ni), kind in zip(run.nodes, run.kinds):
        value = revenue_for_phase(board.hex_list[hi].nodes[ni].revenue, phase)
        if kind in ("city", "offboard"):
            cities.append(value)
        elif kind == "town":
            towns.append(value)
        else:
            halts += 1
    ignore_halts = st.no_building
    one_number = leased or st.nationalised
    room = max((0 if one_number else m) + n - len(cities), 0)
    halt_max = 0
    if halts and not ignore_halts:
        halt_room = max(room - len(towns), 0) if st.nationalised else room
        halt_max = min(halts, halt_room)
    if not halts or ignore_halts or leased or halt_max == 0 or (requested or 0) > halt_max:
        requested = None
    counted_halts = min(halts, requested or 0)
    room -= counted_halts
    best = sorted(towns, reverse=True)
    if g.rules.operating.routes.may_skip_towns_and_halts or one_number:
        best = best[:max(min(room, len(towns)), 0)]
    room -= len(best)
    if requested is None and halts and room > 0 and not ignore_halts:
        counted_halts += min(halts, room)
    if leased:
        stops = len(cities) + len(best) + counted_halts
        return ins.lease_base + ins.lease_per_stop * stops, 0
    return sum(cities) + sum(best), counted_halts * int(g.rules.operating["halt_subsidy"])


def stops_text(g, run: Run) -> str:
    """A run's stops for a message: ``F2-G3 city 1-H4``."""
    return "-".join(node_text(g.board, hi, ni) for hi, ni in run.nodes)


def check_runs(g, corp, routes: list, trains: list, leased: bool):
    """Check one corporation's runs of one turn.  Returns (per route (revenue,
    subsidy, the Run: :func:`stops_text` names its stops) or None where it was
    not computed (not followed on the map), the first RuleViolation or None,
    runs not verifiable).  A run followed on the map that breaks a rule is
    valued all the same."""
    st = g.title.state
    bankrupt = set(st.bankrupt)
    runs, values = [], []
    used: dict = {}
    problem = None
    unverified = 0
    skip = any(g.rules.option(o) for o in UNCHECKED_OPTIONS)
    for route, train in zip(routes, trains):
        label = _label(route)
        if skip or not (route.connections or route.path) or train is None:
            unverified += 1
            values.append(None)
            continue
        dist = train.spec.distance if isinstance(train.spec.distance, dict) else {}
        n, m = int(dist.get("cities", 99)), int(dist.get("towns", 0))
        try:
            run = trace(g, label, route.connections) if route.connections else \
                trace_stops(g, label, route)
        except RuleViolation as v:
            problem = problem or v
            values.append(None)
            continue
        try:
            check_run(g, corp.sym, run, n, bankrupt, m=m)
            claim_track(g.board, label, run.keys, used)
        except RuleViolation as v:
            # a run on the map that breaks a rule: still valued as the map
            # gives it, the revenue of a record that gives none (the table
            # ran it and paid that)
            problem = problem or v
            rev, sub = worth(g, run, n, m, leased=leased, requested=route.halts)
            values.append((rev, sub, run))
            continue
        runs.append(run)
        rev, sub = worth(g, run, n, m, leased=leased, requested=route.halts)
        values.append((rev, sub, run))
    if problem is None and runs:
        try:
            check_network(g, corp.sym, runs)
        except RuleViolation as v:
            problem = v
    return values, problem, unverified
