"""Checking the runs of a company's trains and computing their revenue.

A run is a list of stops (hex + node index) and, optionally, the hexes the
train passes between consecutive stops.  Between two stops the train follows
track that touches no other city, town or off-board area (every revenue centre
on the way is a stop).  Track is identified by *hex sides*: a path of a tile
that ends at edge e of hex H uses the side (H, e); no side may be used twice by
one train, nor by two trains of the company in the same round.

When a run comes without its hexes, the track for all the runs is searched
together (networkx: candidate stretches in order of length, then a
backtracking choice of stretches that share no hex side).
"""

from __future__ import annotations

import itertools
from typing import Optional

from ..findings import RuleViolation
from ..mechanics.reach import Reach
from .tiles import NODE_BASE, revenue_for_phase, train_is_diesel

#: candidate stretches examined per pair of consecutive stops, and in all
MAX_CANDIDATES = 60
MAX_STEPS = 20000


class _Route:
    __slots__ = ("route", "label", "stops", "cands", "nodes", "segments", "keys", "distance")

    def __init__(self, route, label):
        self.route = route
        self.label = label
        self.stops = []      # [(hex idx, stop text)]
        self.cands = []      # per stop: candidate node indices
        self.nodes = None    # chosen [(hi, ni)]
        self.segments = []   # per segment: list of (hi, path index) or None
        self.keys = []       # per segment: frozenset of (hi, edge)
        self.distance = None


def _train_label(route) -> str:
    label = f"train {route.train}"
    if route.train_id and route.train_id != route.train:
        label += f" ({route.train_id})"
    return label


def _stops_text(r: _Route) -> str:
    return "-".join(s for _, s in r.stops)


def _distance(route, distances: dict):
    """The reach of the route's train (``distances`` maps a train type to its
    :class:`~railcheck.mechanics.reach.Reach`, or to the ruleset's ``distance``)."""
    return _as_reach(_lookup(route, distances))


def _as_reach(value) -> Reach:
    return value if isinstance(value, Reach) else Reach.from_distance(value)


def _lookup(route, distances: dict):
    name = str(route.train)
    if name in distances:
        return distances[name]
    base = name.rsplit("-", 1)[0]
    if base in distances:
        return distances[base]
    if route.train_id and str(route.train_id).rsplit("-", 1)[0] in distances:
        return distances[str(route.train_id).rsplit("-", 1)[0]]
    raise RuleViolation("route.train", f"unknown train type {name} "
                        f"(known: {', '.join(map(str, distances))})")


def check_routes(board, corp: str, routes: list, phase_color: str, distances: dict):
    runs: list[_Route] = []
    for route in routes:
        r = _Route(route, _train_label(route))
        r.distance = _distance(route, distances)
        for stop in route.stops:
            h = board.hexes.get(stop.hex)
            if h is None:
                raise RuleViolation("route.stop", f"{r.label}: there is no hex {stop.hex}")
            if not h.nodes:
                raise RuleViolation("route.stop", f"{r.label}: {stop.hex} has no city, town or "
                                    f"off-board area to stop at")
            if stop.city is not None:
                if not 0 <= int(stop.city) < len(h.nodes):
                    raise RuleViolation("route.stop", f"{r.label}: {stop.hex} has no stop {stop.city} "
                                        f"(it has {len(h.nodes)})")
                cands = [int(stop.city)]
            else:
                cands = list(range(len(h.nodes)))
            r.stops.append((h.idx, str(stop)))
            r.cands.append(cands)
        n = len(r.stops)
        if n < 2:
            raise RuleViolation("route.too_short", f"{r.label} has {n} stop{'s' * (n != 1)}; "
                                f"a run needs at least 2")
        if r.distance.too_many_stops(n):
            raise RuleViolation("route.distance", f"{r.label} visits {n} stops ({_stops_text(r)}) "
                                f"but may visit only {r.distance.describe()}")
        runs.append(r)

    used: dict = {}   # (hi, edge) -> run using it
    to_search = []
    for r in runs:
        if r.route.path is not None:
            _follow_path(board, corp, r)
            _check_nodes(board, corp, r)
            _claim(board, r, used)
        else:
            to_search.append(r)
    if to_search:
        _search(board, corp, to_search, used)

    for r in runs:
        if r.distance.kind in ("n+m", "hexes"):   # needs the nodes' kinds / the track followed
            kinds = [board.hex_list[hi].nodes[ni].kind for hi, ni in r.nodes]
            entered = None
            if r.distance.kind == "hexes":   # hexes touched, the first one not counted
                touched = {hi for seg in r.segments if seg for hi, _ in seg}
                touched |= {hi for hi, _ in r.nodes}
                entered = len(touched) - 1
            problem = r.distance.problem(kinds, entered)
            if problem:
                raise RuleViolation("route.distance", f"{r.label} ({_stops_text(r)}) {problem}")

    revenues = []
    for r in runs:
        total = 0
        diesel = train_is_diesel(r.route.train)
        for hi, ni in r.nodes:
            total += revenue_for_phase(board.hex_list[hi].nodes[ni].revenue, phase_color,
                                       diesel=diesel)
        revenues.append(total)
    return sum(revenues), revenues


# --------------------------------------------------------------------------
# node-level rules

def _node_text(board, hi, ni) -> str:
    h = board.hex_list[hi]
    node = h.nodes[ni]
    if len(h.nodes) == 1:
        return h.coord
    same = [i for i, n in enumerate(h.nodes) if n.kind == node.kind]
    return f"{h.coord} {node.kind} {same.index(ni)}"


def _node_problem(board, corp, r: _Route, nodes) -> Optional[tuple[str, str]]:
    seen = set()
    has_token = False
    groups = {}
    last = len(nodes) - 1
    for k, (hi, ni) in enumerate(nodes):
        node = board.hex_list[hi].nodes[ni]
        text = _node_text(board, hi, ni)
        if (hi, ni) in seen:
            return "route.repeat_stop", f"{r.label} visits {text} twice"
        seen.add((hi, ni))
        if 0 < k < last:
            if node.kind == "offboard":
                return "route.offboard", (f"{r.label} runs through the off-board area {text}; "
                                          f"it may only start or end there")
            if node.blocks(corp):
                return "route.blocked", (f"{r.label} runs through {text}, whose slots are all "
                                         f"filled by {', '.join(node.tokens)}")
        if corp in node.tokens:
            has_token = True
        if node.group:
            if node.group in groups:
                return "route.group", (f"{r.label} visits two stops of {node.group}: "
                                       f"{groups[node.group]} and {text}")
            groups[node.group] = text
    if not has_token:
        return "route.token", f"{r.label} ({_stops_text(r)}) includes no station of {corp}"
    return None


def _check_nodes(board, corp, r: _Route) -> None:
    problem = _node_problem(board, corp, r, r.nodes)
    if problem:
        raise RuleViolation(*problem)


def _claim(board, r: _Route, used: dict) -> None:
    mine = set()
    for keys in r.keys:
        for key in keys:
            if key in mine:
                raise RuleViolation("route.reused_track", f"{r.label} uses the track at "
                                    f"{_side_text(board, key)} twice")
            mine.add(key)
    for key in mine:
        other = used.get(key)
        if other is not None:
            raise RuleViolation("route.shared_track", f"{r.label} and {other.label} both use the "
                                f"track at {_side_text(board, key)}")
    for key in mine:
        used[key] = r


def _side_text(board, key) -> str:
    if len(key) == 3:       # (hex, "p", path): a piece of track joining two stops in a hex
        hi, _, pi = key
        a, b = board.hex_list[hi].paths[pi]
        return (f"{board.hex_list[hi].coord} between {_node_text(board, hi, a - NODE_BASE)} and "
                f"{_node_text(board, hi, b - NODE_BASE)}")
    hi, e = key
    return f"{board.hex_list[hi].coord} edge {e}"


# --------------------------------------------------------------------------
# runs with their hexes given

def _follow_path(board, corp, r: _Route) -> None:
    path = r.route.path
    n = len(r.stops)
    if len(path) != n - 1:
        raise RuleViolation("route.path", f"{r.label} has {n} stops but {len(path)} stretches of track")
    hexes = board.hex_list
    # the ways each stretch can be read: either direction is accepted, and a
    # loop from a hex back to itself is tried both ways
    readings = []
    for k, seg in enumerate(path):
        seg = [str(x) for x in seg]
        a, b = hexes[r.stops[k][0]].coord, hexes[r.stops[k + 1][0]].coord
        tries = [x for x in (seg, seg[::-1]) if x and x[0] == a and x[-1] == b]
        if len(tries) == 2 and tries[0] == tries[1]:
            tries = tries[:1]
        if not tries:
            raise RuleViolation("route.path", f"{r.label}: the track {'-'.join(seg)} does not run "
                                f"from {a} to {b}")
        readings.append(tries)

    errors: list = []

    def walk(k, start_c):
        """First consistent choice for stretches k.. (a stop given without
        its city may be read differently by later stretches)."""
        if k == n - 1:
            return []
        for attempt in readings[k]:
            try:
                options = _trace(board, r, k, attempt, start_c, r.cands[k + 1])
            except RuleViolation as exc:
                errors.append((k, exc))
                continue
            for s_node, t_node, used_paths, keys in options:
                rest = walk(k + 1, [t_node])
                if rest is not None:
                    return [(s_node, t_node, used_paths, keys)] + rest
        return None

    got = walk(0, r.cands[0])
    if got is None:
        # report the problem of the stretch that got furthest
        raise max(errors, key=lambda e: e[0])[1] if errors else RuleViolation(
            "route.connection", f"{r.label}: the track does not join its stops")
    r.nodes = [(r.stops[0][0], got[0][0])] + [(r.stops[k + 1][0], g[1]) for k, g in enumerate(got)]
    r.segments = [g[2] for g in got]
    r.keys = [g[3] for g in got]


def _trace(board, r: _Route, k: int, seg: list, start_c: list, end_c: list) -> list:
    """Follow the track through the hexes ``seg`` from a node of the first
    (among ``start_c``) to a node of the last (among ``end_c``).  Returns the
    readings [(start node, end node, [(hex, path)], [hex sides used])], or
    raises when there is none.  A stretch followed before on the same track
    (the tile and paths of each of its hexes) is taken from the board's
    cache; a stretch that does not join is followed again (its message names
    the run)."""
    hexes = board.hexes
    state = []
    for coord in seg:
        h = hexes.get(coord)
        if h is None:
            return _trace_now(board, r, k, seg, start_c, end_c)
        state.append(h.stamp)      # its tile and paths (Board._Hex.set_paths)
    key = (tuple(seg), tuple(start_c), tuple(end_c), tuple(state))
    got = board.memo("stretches", key, lambda: tuple(
        (s, t, tuple(used), tuple(keys))
        for s, t, used, keys in _trace_now(board, r, k, seg, start_c, end_c)), 4096)
    return [(s, t, list(used), list(keys)) for s, t, used, keys in got]


def _trace_now(board, r: _Route, k: int, seg: list, start_c: list, end_c: list) -> list:
    hexes = board.hex_list
    his = []
    for coord in seg:
        h = board.hexes.get(coord)
        if h is None:
            raise RuleViolation("route.path", f"{r.label}: there is no hex {coord}")
        his.append(h.idx)
    a_hi, b_hi = his[0], his[-1]
    a, b = seg[0], seg[-1]
    dirs = []
    for x, y in zip(his, his[1:]):
        hx = hexes[x]
        try:
            dirs.append(hx.nbr.index(y))
        except ValueError:
            raise RuleViolation("route.connection", f"{r.label}: {hx.coord} and {hexes[y].coord} "
                                f"are not adjacent") from None
    if not dirs:
        h = hexes[a_hi]
        out = []
        for s in start_c:
            for t in end_c:
                if s != t:
                    pi = _find_path(h, NODE_BASE + s, NODE_BASE + t)
                    if pi is not None:
                        # the track joining two stops inside a hex is used by
                        # one run only, like a hex side (18xx.games: no reuse)
                        out.append((s, t, [(a_hi, pi)], [(a_hi, "p", pi)]))
        if not out:
            raise RuleViolation("route.connection", f"{r.label}: no track joins the stops "
                                f"{r.stops[k][1]} and {r.stops[k + 1][1]} within {a}")
        return out
    h = hexes[a_hi]
    s_ok = [(s, pi) for s in start_c
            for pi in [_find_path(h, NODE_BASE + s, dirs[0])] if pi is not None]
    if not s_ok:
        raise RuleViolation("route.connection", f"{r.label}: no track leaves "
                            f"{r.stops[k][1]} toward {seg[1]} (edge {dirs[0]} of {a})")
    used_paths, keys = [], [(a_hi, dirs[0])]
    for j in range(1, len(his) - 1):
        hj = hexes[his[j]]
        ein, eout = (dirs[j - 1] + 3) % 6, dirs[j]
        pi = _find_path(hj, ein, eout)
        if pi is None:
            why = _why_not_through(hj, ein, eout)
            raise RuleViolation("route.connection", f"{r.label}: the track in {hj.coord} "
                                f"does not join edge {ein} to edge {eout} "
                                f"({seg[j - 1]} to {seg[j + 1]}){why}")
        used_paths.append((hj.idx, pi))
        keys.append((hj.idx, ein))
        keys.append((hj.idx, eout))
    hb = hexes[b_hi]
    ein = (dirs[-1] + 3) % 6
    keys.append((b_hi, ein))
    t_ok = [(t, pi) for t in end_c
            for pi in [_find_path(hb, ein, NODE_BASE + t)] if pi is not None]
    if not t_ok:
        raise RuleViolation("route.connection", f"{r.label}: no track from {seg[-2]} reaches "
                            f"{r.stops[k + 1][1]} (edge {ein} of {b})")
    return [(s, t, [(a_hi, spi)] + used_paths + [(b_hi, tpi)], keys)
            for s, spi in s_ok for t, tpi in t_ok if not (a_hi == b_hi and s == t)]


def _find_path(h, a: int, b: int) -> Optional[int]:
    for pi in h.at.get(a, ()):
        pa, pb = h.paths[pi]
        if (pa == a and pb == b) or (pa == b and pb == a):
            return pi
    return None


def _why_not_through(h, ein: int, eout: int) -> str:
    for pi in h.at.get(ein, ()):
        pa, pb = h.paths[pi]
        other = pb if pa == ein else pa
        if other >= NODE_BASE:
            for pj in h.at.get(other, ()):
                qa, qb = h.paths[pj]
                if eout in (qa, qb):
                    return f"; it passes {h.coord}'s {h.nodes[other - NODE_BASE].kind}, which must then be a stop"
    return ""


# --------------------------------------------------------------------------
# runs without their hexes: search

def track_graph(board):
    """Directed graph of the laid track, cached until the map changes.

    Vertices: ``("x", hex, edge)`` = leaving ``hex`` through ``edge``;
    ``("o", hex, node)`` / ``("i", hex, node)`` = leaving / reaching a node.
    Each arc carries ``keys``: the hex sides its track uses, ``hex`` and
    ``path`` (the index of its track in the hex's ``paths``)."""
    return board.memo("track graph", board.version, lambda: _shared_track_graph(board), limit=1)


#: the track graphs made, by what they are made of (every hex's neighbours
#: and track, in the map's order): a board of the same map with the same
#: track gets the same graph, read only (the replays a hint's search starts,
#: each with a board of its own, made each graph again at each run: half the
#: CPU of a search over a notation record, whose runs give no hexes; 1857's
#: example with a slip: 1,090 graphs asked, 71 different)
_GRAPHS: dict = {}
#: at most this many kept (about 0.2 MB each), the oldest dropped first
GRAPHS_KEPT = 128


def _shared_track_graph(board):
    hexes = board.hex_list
    key = (tuple(tuple(h.nbr) for h in hexes), tuple(h.paths for h in hexes))
    got = _GRAPHS.get(key)
    if got is None:
        if len(_GRAPHS) >= GRAPHS_KEPT:
            del _GRAPHS[next(iter(_GRAPHS))]     # the oldest
        got = _GRAPHS[key] = _track_graph(board)
    return got


def _track_graph(board):
    import networkx as nx   # only needed when runs come without their hexes

    g = nx.DiGraph()
    for src, dst, data in _arcs(board):
        g.add_edge(src, dst, **data)
    return g


def track_arcs(board) -> dict:
    """The arcs of :func:`track_graph` without networkx: ``{vertex: {next
    vertex: its data}}``, each vertex's arcs in the graph's order (the run
    searches walk it; importing networkx costs a process more than they
    do).  Cached until the map changes."""
    return board.memo("track arcs", board.version, lambda: _track_arcs(board), limit=1)


def _track_arcs(board) -> dict:
    out: dict = {}
    for src, dst, data in _arcs(board):
        # a later arc between the same vertices replaces the data of the
        # first, in its place (as networkx's add_edge does)
        out.setdefault(src, {})[dst] = data
    return out


def _arcs(board):
    """(source, target, data) of every arc of the track graph, in order."""
    hexes = board.hex_list
    for h in hexes:
        for pi, (a, b) in enumerate(h.paths):
            for s, t in ((a, b), (b, a)):
                if s >= NODE_BASE and t >= NODE_BASE:
                    yield (("o", h.idx, s - NODE_BASE), ("i", h.idx, t - NODE_BASE),
                           {"keys": ((h.idx, "p", pi),), "hex": h.idx, "path": pi})
                    continue
                # arriving at side s of h (from the neighbour), leaving via t
                if s < NODE_BASE:
                    ni = h.nbr[s]
                    if ni < 0:
                        continue
                    src = ("x", ni, (s + 3) % 6)
                else:
                    src = ("o", h.idx, s - NODE_BASE)
                if t < NODE_BASE:
                    dst = ("x", h.idx, t)
                else:
                    dst = ("i", h.idx, t - NODE_BASE)
                keys = tuple((h.idx, e) for e in (s, t) if e < NODE_BASE)
                yield src, dst, {"keys": keys, "hex": h.idx, "path": pi}


class _Segment:
    __slots__ = ("src", "dst", "gen", "found", "done", "label")

    def __init__(self, g, src, dst, label):
        import networkx as nx

        self.src, self.dst, self.label = src, dst, label
        self.found = []
        self.done = False
        if src in g and dst in g:
            self.gen = nx.shortest_simple_paths(g, src, dst)
        else:
            self.gen = None
            self.done = True

    def get(self, g, i):
        import networkx as nx

        while len(self.found) <= i and not self.done:
            try:
                vertices = next(self.gen)
            except (StopIteration, nx.NetworkXNoPath):
                self.done = True
                break
            keys = []
            for u, v in zip(vertices, vertices[1:]):
                keys.extend(g.edges[u, v]["keys"])
            if len(set(keys)) != len(keys):
                # uses a hex side twice: skip, but count it toward the cap
                self.found.append(None)
            else:
                self.found.append((frozenset(keys), vertices))
            if len(self.found) >= MAX_CANDIDATES:
                self.done = True
        return self.found[i] if i < len(self.found) else False


def _search(board, corp, runs: list, used: dict) -> None:
    g = track_graph(board)
    # choices of nodes for stops given without an index
    options = []
    for r in runs:
        combos = []
        first_problem = None
        for combo in itertools.product(*r.cands):
            nodes = [(r.stops[k][0], ni) for k, ni in enumerate(combo)]
            problem = _node_problem(board, corp, r, nodes)
            if problem:
                first_problem = first_problem or problem
                continue
            combos.append(nodes)
            if len(combos) >= 16:
                break
        if not combos:
            raise RuleViolation(*first_problem)
        options.append(combos)

    taken = frozenset(used)
    steps = [0]
    segments_cache: dict = {}

    def segment(src, dst, label):
        key = (src, dst)
        seg = segments_cache.get(key)
        if seg is None:
            seg = segments_cache[key] = _Segment(g, ("o",) + src, ("i",) + dst, label)
        return seg

    empty = []

    def solve_run(ri, occupied):
        if ri == len(runs):
            return []
        r = runs[ri]
        for nodes in options[ri]:
            segs = [segment(nodes[k], nodes[k + 1], r.label) for k in range(len(nodes) - 1)]
            got = solve_seg(ri, nodes, segs, 0, occupied, [])
            if got is not None:
                return got
        return None

    def solve_seg(ri, nodes, segs, k, occupied, picked):
        if k == len(segs):
            rest = solve_run(ri + 1, occupied)
            if rest is None:
                return None
            return [(nodes, list(picked))] + rest
        seg = segs[k]
        i = 0
        while True:
            steps[0] += 1
            if steps[0] > MAX_STEPS:
                return None
            cand = seg.get(g, i)
            i += 1
            if cand is False:
                if i == 1:
                    empty.append(seg)
                return None
            if cand is None:
                continue
            keys, vertices = cand
            if keys & occupied:
                continue
            picked.append((keys, vertices))
            got = solve_seg(ri, nodes, segs, k + 1, occupied | keys, picked)
            picked.pop()
            if got is not None:
                return got

    result = solve_run(0, taken)
    if result is None:
        if empty:
            seg = empty[0]
            a = _node_text(board, seg.src[1], seg.src[2])
            b = _node_text(board, seg.dst[1], seg.dst[2])
            raise RuleViolation("route.no_path", f"{seg.label}: no track joins {a} and {b} "
                                f"without passing another stop")
        labels = ", ".join(f"{r.label} ({_stops_text(r)})" for r in runs)
        if steps[0] > MAX_STEPS:
            raise RuleViolation("route.no_path", f"gave up searching track for {labels}: "
                                f"give the hexes of the runs")
        raise RuleViolation("route.no_path", f"no track for {labels} exists without "
                            f"two runs sharing track" if len(runs) > 1 or used else
                            f"no track for {labels} exists without reusing track")
    for r, (nodes, picked) in zip(runs, result):
        r.nodes = nodes
        r.keys = [keys for keys, _ in picked]
        r.segments = [vertices for _, vertices in picked]
        for keys in r.keys:
            for key in keys:
                used[key] = r


def run_hexes(board, vertices) -> list[str]:
    """Hexes a searched stretch passes (for reports)."""
    out = []
    for v in vertices:
        hx = board.hex_list[v[1]].coord
        if not out or out[-1] != hx:
            out.append(hx)
    return out


# --------------------------------------------------------------------------
# one run's given track, for titles with their own run rules (1860)

class _GivenRun:
    __slots__ = ("train", "train_id", "path")

    def __init__(self, label, path):
        self.train, self.train_id, self.path = label, None, path


def follow_given_track(board, label: str, stops: list, cands: list, path: list):
    """Follow a run whose track is given: ``stops`` are hex ids, ``cands`` the
    node indices each stop may be (None: any), ``path[i]`` the hexes from stop
    i to stop i+1.  Returns (nodes [(hex idx, node idx)], per stretch the
    [(hex idx, path index)] followed in order, per stretch the hex sides used),
    or raises RuleViolation (``route.path``, ``route.connection``)."""
    r = _Route(_GivenRun(label, path), label)
    r.label = label
    for coord, cand in zip(stops, cands):
        h = board.hexes.get(coord)
        if h is None:
            raise RuleViolation("route.path", f"{label}: there is no hex {coord}")
        r.stops.append((h.idx, coord))
        r.cands.append(list(range(len(h.nodes))) if cand is None else list(cand))
    _follow_path(board, None, r)
    return r.nodes, r.segments, r.keys


class _Named:
    __slots__ = ("label", "keys")


def claim_track(board, label: str, keys: list, used: dict) -> None:
    """The hex sides of one run (``keys``, per stretch) are used once, and by
    no other run of the company this turn (``used``: side -> label); raises
    ``route.reused_track`` / ``route.shared_track``."""
    r = _Named()
    r.label, r.keys = label, keys
    _claim(board, r, used)


def node_text(board, hi: int, ni: int) -> str:
    """A stop's name for messages: the hex, with the kind and number when the
    hex has several stops."""
    return _node_text(board, hi, ni)
