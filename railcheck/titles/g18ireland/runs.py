"""Whether a company's trains can run at all in 18Ireland: a train runs on
broad gauge only.  The site skips the run of a company whose broad track
joins none of its stations to another stop (its price then moves left as for
a withhold); how far its trains reach does not matter for that (a run too
long for the train is refused, and an empty run is written instead)."""

from __future__ import annotations

from ...board.routes import claim_track, follow_given_track, node_text
from ...board.tiles import NODE_BASE, revenue_for_phase
from ...findings import RuleViolation
from ...board.site_runs import follow_connections, site_node

STOPS = ("city", "town", "offboard")


def _gauge(h, pi: int) -> str:
    tracks = h.tile.tracks
    return tracks[pi] if tracks and pi < len(tracks) else "broad"


def can_run(board, corp: str, trains, far=None) -> bool:
    """Broad track joins a station of ``corp`` to another stop (within
    ``far`` hex edges, if given), without passing through a city filled by
    others."""
    if not trains:
        return False
    # the answer depends on the map alone: kept until it changes
    return board.network_memo(("can_run", corp, far), lambda: _can_run(board, corp, far))


def _can_run(board, corp: str, far) -> bool:
    hexes = board.hex_list
    for hi, ni in board.station_nodes().get(corp, ()):
        start = (hi, NODE_BASE + ni)
        stack = [(hi, NODE_BASE + ni, 0)]
        seen = set(stack)
        while stack:
            h_i, end, d = stack.pop()
            h = hexes[h_i]
            for pi in h.at.get(end, ()):
                if _gauge(h, pi) != "broad":
                    continue
                a, b = h.paths[pi]
                other = b if a == end else a
                if other >= NODE_BASE:
                    node = h.nodes[other - NODE_BASE]
                    if (h_i, other) != start and node.kind in STOPS:
                        return True
                    if node.blocks(corp) or node.kind == "offboard":
                        continue
                    nxt = (h_i, other, d)
                else:
                    nb = h.nbr[other]
                    if nb < 0 or (far is not None and d + 1 > far):
                        continue
                    # without a limit the distance is not kept (track may loop)
                    nxt = (nb, (other + 3) % 6, d + 1 if far is not None else 0)
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
    return False


# --------------------------------------------------------------------------
# a run checked on the map (docs/18Ireland.md): the track is followed on the
# shared board (railcheck.board.routes.follow_given_track, with the
# export's node numbering read as for 1860), then 18Ireland's rules:
# broad gauge only, at most the train's number of hex edges crossed, a
# station of the company on it, no city filled by others passed, no stop
# nor track used twice.  Revenue: the stops' values, plus for each stop the
# towns and cities its narrow track alone reaches (a node counts only when
# all its track is narrow; reached from two stops, it pays twice), plus the
# CDSPC/TASPS token bonus of the hex it was assigned to.  Shannon's link
# bonus (RSSC): the best run stopping at Dromod or Limerick also earns the
# other city with its narrow-gauge bonus.
# An export's run is read from its stops' node numbers (the site's, mapped
# by board.yaml's node_order) and the hexes between them, else from its
# connections alone; a notation's run whose track cannot be followed from
# the hexes written is taken as recorded (counted in the info finding).



class Run18:
    __slots__ = ("label", "nodes", "paths", "keys", "edges")

    def __init__(self, label, nodes, segments, keys):
        self.label, self.nodes, self.keys = label, nodes, keys
        self.paths = [p for seg in segments for p in seg]
        self.edges = sum(sum(1 for a, b in zip(seg, seg[1:]) if a[0] != b[0]) for seg in segments)


def _broad(board, segments) -> bool:
    return all(_gauge(board.hex_list[hi], pi) == "broad" for seg in segments for hi, pi in seg)


def _trace_key(board, route):
    """What reading ``route`` depends on: its stops, hexes and connections as
    written and, on each hex they name, the tile and its track (None: not
    kept)."""
    hexes = board.hexes
    stops = []
    for s in route.stops:
        if s.city is not None and not isinstance(s.city, (int, str)):
            return None
        stops.append((str(s.hex), s.city))
    stops = tuple(stops)
    path = tuple(tuple(map(str, seg)) for seg in route.path or ())
    conns = tuple(tuple(map(str, seg)) if isinstance(seg, list) else ("", str(seg))
                  for seg in route.connections or ())
    # each hex named once (the stops, then the path's, then the connections'):
    # the key holds the route as written, so the order is always the same
    coords = dict.fromkeys(c for c, _ in stops)
    for seg in path:
        coords.update(dict.fromkeys(seg))
    for seg in conns:
        for x in seg:
            parts = x.split()
            if parts:
                coords[parts[0]] = None
    state = []
    for coord in coords:
        h = hexes.get(coord)
        if h is None:
            return None
        # the tile (kept by the board: its id is never reused meanwhile) and
        # its rotation fix the hex's track
        state.append(id(h.tile))
        state.append(h.rotation)
    return stops, path, conns, tuple(state)


def trace(g, label: str, route) -> Run18:
    """Follow a run on broad track (from its connections, else its stops
    and the hexes between them); raises RuleViolation.  A run read before
    on the same track is taken from the board's cache."""
    board = g.board
    key = _trace_key(board, route)
    if key is None:
        return _trace(g, label, route)
    got = board.memo("18Ireland runs", key, lambda: _trace(g, label, route))
    run = Run18.__new__(Run18)
    run.label, run.nodes, run.paths = label, list(got.nodes), list(got.paths)
    run.keys, run.edges = [list(k) for k in got.keys], got.edges
    return run


def _trace(g, label: str, route) -> Run18:
    numbered = bool(route.stops) and all(s.city is not None for s in route.stops)
    if not route.connections or (route.path and numbered):
        try:
            return _trace_stops(g, label, route)
        except RuleViolation:
            if not route.connections:
                raise
    return _trace_connections(g, label, route)


def _trace_stops(g, label: str, route) -> Run18:
    """A run read from its stops (the site's node numbers where given) and
    the hexes between them."""
    board = g.board
    stops = [str(s.hex) for s in route.stops]
    for coord in stops:
        if coord not in board.hexes:
            raise RuleViolation("route.path", f"{label}: there is no hex {coord}")
    # a stop's number is read in the site's numbering, then in ours
    readings = ([None if s.city is None else [site_node(g, str(s.hex), int(s.city))]
                 for s in route.stops],
                [None if s.city is None else [int(s.city)] for s in route.stops],
                [None] * len(stops))
    problem = None
    for cands in readings:
        try:
            nodes, segments, keys = follow_given_track(board, label, stops, cands, route.path)
        except RuleViolation as v:
            problem = problem or v
            continue
        if g.rules.operating.routes.broad_gauge_only and not _broad(board, segments):
            problem = problem or RuleViolation(
                "route.gauge", f"{label} runs on narrow gauge track; trains run on broad "
                               f"gauge only")
            continue
        return Run18(label, nodes, segments, keys)
    raise problem


def _trace_connections(g, label: str, route) -> Run18:
    """A run read from an export's connections alone: on broad gauge, and
    visiting no stop twice."""
    board = g.board
    problems: list = []
    for nodes, segments, keys in follow_connections(g, label, route.connections, problems):
        if g.rules.operating.routes.broad_gauge_only and not _broad(board, segments):
            problems.append(RuleViolation(
                "route.gauge", f"{label} runs on narrow gauge track; trains run on broad "
                               f"gauge only"))
            continue
        if len(set(nodes)) == len(nodes):
            return Run18(label, nodes, segments, keys)
        problems.append(RuleViolation("route.repeat_stop", f"{label} visits a stop twice"))
    raise problems[0] if problems else RuleViolation(
        "route.connection", f"{label}: the track does not join its stops")


def check_run(g, corp: str, run: Run18, reach) -> None:
    board = g.board

    def text() -> list:
        # the stops' names, for a message only
        return [node_text(board, hi, ni) for hi, ni in run.nodes]

    if len(run.nodes) < 2:
        raise RuleViolation("route.too_short", f"{run.label} has {len(run.nodes)} stop; a run "
                                               f"needs at least 2")
    if len(set(run.nodes)) != len(run.nodes):
        raise RuleViolation("route.repeat_stop", f"{run.label} ({'-'.join(text())}) visits a "
                                                 f"stop twice")
    if reach is not None and run.edges > reach:
        raise RuleViolation("route.distance", f"{run.label} ({'-'.join(text())}) crosses "
                                              f"{run.edges} hex edges but may cross only {reach}")
    if not any(corp in board.hex_list[hi].nodes[ni].tokens for hi, ni in run.nodes):
        raise RuleViolation("route.token", f"{run.label} ({'-'.join(text())}) includes no "
                                           f"station of {corp}")
    for k in range(1, len(run.nodes) - 1):
        hi, ni = run.nodes[k]
        node = board.hex_list[hi].nodes[ni]
        if node.blocks(corp):
            names = text()
            raise RuleViolation("route.blocked", f"{run.label} ({'-'.join(names)}) passes "
                                                 f"{names[k]}, filled by other companies' "
                                                 f"stations")
        if node.kind == "offboard":
            raise RuleViolation("route.offboard", f"{run.label} runs through the off-board area "
                                                  f"{text()[k]}; it may only start or end there")


def _all_narrow(h, ni: int) -> bool:
    return all(_gauge(h, pi) == "narrow" for pi in h.at.get(NODE_BASE + ni, ()))


def narrow_bonus(board, node, phase: str) -> int:
    """What a stop's narrow track alone brings: every node reached from it
    over narrow track whose track is all narrow (the walk goes on through
    such nodes and stops at one with broad track).  Kept until the map
    changes (the board's network cache)."""
    # with the hexes the walk read: a lay elsewhere keeps the value
    return board.network_memo(("narrow_bonus", node, phase),
                              lambda: _narrow_bonus(board, node, phase), reads=True)


def _narrow_bonus(board, node, phase: str) -> tuple:
    """(the bonus, the indices of the hexes read)."""
    hexes = board.hex_list
    hi0, ni0 = node
    seen_nodes = {node}
    bonus = 0
    stack = [(hi0, NODE_BASE + ni0)]
    seen = set(stack)
    read = set()
    while stack:
        hi, end = stack.pop()
        read.add(hi)
        h = hexes[hi]
        for pi in h.at.get(end, ()):
            if _gauge(h, pi) != "narrow":
                continue
            a, b = h.paths[pi]
            other = b if a == end else a
            if other >= NODE_BASE:
                key = (hi, other - NODE_BASE)
                if key in seen_nodes:
                    continue
                seen_nodes.add(key)
                if not _all_narrow(h, other - NODE_BASE):
                    continue
                bonus += revenue_for_phase(h.nodes[other - NODE_BASE].revenue, phase)
                nxt = (hi, other)
            else:
                nb = h.nbr[other]
                if nb < 0:
                    continue
                nxt = (nb, (other + 3) % 6)
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return bonus, read


def worth(g, corp: str, run: Run18) -> int:
    board = g.board
    phase = g.phase.tiles[-1]
    bonus = g.rules.operating.routes.narrow_gauge_bonus
    total = 0
    for hi, ni in run.nodes:
        total += revenue_for_phase(board.hex_list[hi].nodes[ni].revenue, phase)
        if bonus:
            total += narrow_bonus(board, (hi, ni), phase)
    coords = {board.hex_list[hi].coord for hi, _ in run.nodes}
    for sym, (owner, hx) in g.title.state.assigned.items():
        if owner == corp and hx in coords:
            spec = g.companies[sym].spec.special if sym in g.companies else None
            total += int(((spec or {}).get("assign") or {}).get("bonus", 0))
    return total


def shannon_hexes(g, corp) -> list:
    """The two hexes of RSSC's river link when ``corp`` owns it, else []."""
    for c in g.companies.values():
        link = (c.spec.special or {}).get("shannon_link")
        if link and not c.closed and getattr(c.owner, "sym", None) == corp.sym:
            return [str(h) for h in link.get("hexes") or []]
    return []


def shannon_bonus(g, corp, runs: list) -> int:
    """RSSC: one run stopping at a city of either linked hex also earns the
    other hex's city (with its narrow-gauge bonus); the best such run."""
    hexes = shannon_hexes(g, corp)
    if len(hexes) != 2:
        return 0
    board = g.board
    phase = g.phase.tiles[-1]
    best = 0
    for run in runs:
        for hi, ni in run.nodes:
            h = board.hex_list[hi]
            if h.coord not in hexes or h.nodes[ni].kind != "city":
                continue
            other = board.hexes[hexes[1 - hexes.index(h.coord)]]
            cities = [i for i, n in enumerate(other.nodes) if n.kind == "city"]
            if cities:
                node = (other.idx, cities[0])
                best = max(best, revenue_for_phase(other.nodes[cities[0]].revenue, phase)
                           + (narrow_bonus(board, node, phase)
                              if g.rules.operating.routes.narrow_gauge_bonus else 0))
    return best


def check_runs(g, corp, routes: list, trains: list):
    """One company's runs of one turn: (per route its revenue or None, then
    RSSC's bonus if any; the first RuleViolation or None; runs not verified)."""
    values, used, runs = [], {}, []
    problem = None
    unverified = 0
    for route, train in zip(routes, trains):
        label = f"the {route.train}-train"
        if not (route.connections or route.path) or train is None:
            unverified += 1
            values.append(None)
            continue
        dist = train.spec.distance
        reach = int(dist["hexes"]) if isinstance(dist, dict) and "hexes" in dist else None
        try:
            run = trace(g, label, route)
            check_run(g, corp.sym, run, reach)
            claim_track(g.board, label, run.keys, used)
        except RuleViolation as v:
            values.append(None)
            if v.rule == "route.connection" and not route.connections:
                # the notation's stops and hexes between them do not always
                # say the track a run takes (a run that leaves a hex and
                # comes back into it): taken as recorded
                unverified += 1
                continue
            problem = problem or v
            continue
        values.append(worth(g, corp.sym, run))
        runs.append(run)
    if problem is None and not unverified and runs:
        extra = shannon_bonus(g, corp, runs)
        if extra:
            values.append(extra)
    return values, problem, unverified
