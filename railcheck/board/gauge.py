"""Track gauges on the map (18Ireland): which track a company may extend.

A board whose tiles have narrow-gauge paths (``tracks``, docs/board.md) has
two networks for each company:

* the **broad** network (``Board.network``): broad track walked from the
  company's stations, stopped by cities filled by others; trains run and
  stations are placed on it;
* the **narrow** network: narrow track walked from every node the broad
  network reaches (its stations, the stops and cities it touches, a city
  filled by others included), through any town or city whatever stations
  it holds (narrow track is not blocked by stations), never through an
  off-board area.

A lay is *narrow* when it adds a narrow path the old tile did not have, and
*broad* otherwise.  A broad lay must be on a hex the broad network reaches; any
lay must put track on an edge where one of the two networks reaches the hex.
After the lay, an upgrade (the hex had track) must give the company track it
can use (a path of the new tile not on the old one, in the network of the
lay's kind) or change the value of a stop on a path it can use: the
semi-restrictive rule.  Nothing here changes the board.
"""

from __future__ import annotations

from .network import reached_edges
from .tiles import NODE_BASE


def narrow_paths(h) -> frozenset:
    """The indices of the hex's paths that are narrow gauge."""
    tracks = h.tile.tracks
    return frozenset(i for i, g in enumerate(tracks) if g == "narrow") if tracks else frozenset()


def _narrow_at(h, end: int):
    tracks = h.tile.tracks
    if not tracks:
        return ()
    return [pi for pi in h.at.get(end, ()) if pi < len(tracks) and tracks[pi] == "narrow"]


def _walk(hexes, starts, paths_at, at_node=None) -> set:
    """Walk track from the nodes ``starts`` ((hex index, node index)) along
    the paths ``paths_at(hex, end)`` gives, never on through an off-board
    area; ``at_node(node)`` is told of every node reached.  The states
    walked (the int ``hex << 8 | path << 4 | end left by``, as
    ``Board.network``)."""
    stack: list = []
    push = stack.append
    for hi, ni in starts:
        h = hexes[hi]
        end = NODE_BASE + ni
        for pi in paths_at(h, end):
            a, b = h.paths[pi]
            push((hi << 8) | (pi << 4) | (b if a == end else a))
    seen: set = set()
    while stack:
        st = stack.pop()
        if st in seen:
            continue
        seen.add(st)
        x = st & 15
        hi = st >> 8
        h = hexes[hi]
        if x < NODE_BASE:
            ni = h.nbr[x]
            if ni < 0:
                continue
            ie = (x + 3) % 6
            nh = hexes[ni]
            for qi in paths_at(nh, ie):
                qa, qb = nh.paths[qi]
                push((ni << 8) | (qi << 4) | (qb if qa == ie else qa))
        else:
            node = h.nodes[x - NODE_BASE]
            if at_node is not None:
                at_node(node)
            if node.kind == "offboard":
                continue
            pi = (st >> 4) & 15
            for qi in paths_at(h, x):
                if qi != pi:
                    qa, qb = h.paths[qi]
                    push((hi << 8) | (qi << 4) | (qb if qa == x else qa))
    return seen


def _broad_at(h, end: int):
    return h.broad_at.get(end, ())


def narrow_network(board, corp: str) -> set:
    """The states walked along narrow track from every node ``corp``'s broad
    network reaches (the int ``hex << 8 | path << 4 | end left by``, as
    ``Board.network``); cached until the board changes."""
    def walk() -> set:
        _, reached, _ = board.network(corp)
        return _walk(board.hex_list, reached, _narrow_at)

    return board.network_memo(("narrow_net", corp), walk)


def narrow_edges(board, corp: str, h) -> set:
    """The edges of ``h`` where ``corp``'s narrow network reaches it: the
    edges of narrow paths walked on ``h`` and the sides facing narrow paths
    walked on its neighbours."""
    seen = narrow_network(board, corp)
    if not seen:
        return set()
    return reached_edges(board.hex_list, h, seen, _narrow_at)


def _mapped(path, mapping) -> frozenset:
    a, b = path
    ma = NODE_BASE + mapping.get(a - NODE_BASE, a - NODE_BASE) if a >= NODE_BASE else a
    mb = NODE_BASE + mapping.get(b - NODE_BASE, b - NODE_BASE) if b >= NODE_BASE else b
    return frozenset((ma, mb))


def old_path_of(old_paths, old_tracks, mapping, new_path, gauge: str):
    """The index of the old path the new one keeps (the same ends, the old
    nodes mapped onto the new tile's, the same gauge), or None."""
    want = frozenset(new_path)
    for i, p in enumerate(old_paths):
        g = old_tracks[i] if old_tracks and i < len(old_tracks) else "broad"
        if g == gauge and _mapped(p, mapping) == want:
            return i
    return None


def lay_is_narrow(h, t, rotation: int, mapping) -> bool:
    """The lay adds a narrow path that the old tile did not have."""
    tracks = t.tracks
    if not tracks:
        return False
    new_paths = t.rotated(rotation)
    for i, p in enumerate(new_paths):
        if i < len(tracks) and tracks[i] == "narrow" and \
                old_path_of(h.paths, h.tile.tracks, mapping or {}, p, "narrow") is None:
            return True
    return False


def connection_problem(board, corp: str, h, t, rotation: int, mapping, broad: set):
    """Why ``t`` in ``rotation`` on ``h`` does not join ``corp``'s networks
    (rule, message), or None.  ``broad``: the edges where the broad network
    reaches ``h`` (``Board.available_edges``)."""
    exits = t.exits(rotation)
    if exits & broad:
        return None     # joined to the broad network (either kind of lay): no more to see
    kind = "narrow" if lay_is_narrow(h, t, rotation, mapping) else "broad"
    narrow = narrow_edges(board, corp, h)

    def where() -> str:
        parts = []
        for name, edges in (("broad", broad), ("narrow", narrow)):
            if edges:
                parts.append(f"its {name} track at edge{'s' if len(edges) > 1 else ''} "
                             f"{', '.join(str(e) for e in sorted(edges))}")
        return " and ".join(parts)

    if kind == "broad" and not broad:
        reach = where()
        reach = f"; {reach} reaches it" if reach else ""
        return ("tile.connection",
                f"adds broad gauge track, but {corp}'s broad network does not reach {h.coord} "
                f"(broad track must join the company's broad track{reach})")
    if exits & (broad | narrow):
        return None
    if broad or narrow:
        return ("tile.connection", f"is not connected to {corp}'s network ({where()} "
                                   f"reach{'es' if not (broad and narrow) else ''} {h.coord})")
    return ("tile.connection", f"is not connected to {corp}'s network (no broad track of {corp} "
                               f"reaches {h.coord}, nor narrow track from a place its broad "
                               f"track reaches)")


def _max_revenue(node) -> int:
    r = node.revenue
    if isinstance(r, dict):
        return max((int(v or 0) for v in r.values()), default=0)
    return int(r or 0)


def new_track_problem(board, corp: str, coord: str, old, mapping) -> str | None:
    """After a lay on ``coord``: the semi-restrictive rule.  ``old`` is
    (old tile, its paths, its nodes, the lay adds narrow track), taken
    before the lay (``LayPlan.before``); ``mapping`` the old nodes onto the
    new tile's.  Returns what is wrong, or None."""
    old_tile, old_paths, old_nodes, narrow = old
    if not old_paths:
        return None
    h = board.hexes[coord]
    if narrow:
        seen = narrow_network(board, corp)
    else:
        seen, _, _ = board.network(corp)
    hi = h.idx
    used = {(st >> 4) & 15 for st in seen if st >> 8 == hi}     # the paths walked on h
    tracks = h.tile.tracks
    old_tracks = old_tile.tracks
    values = []
    for pi in sorted(used):
        p = h.paths[pi]
        g = tracks[pi] if tracks and pi < len(tracks) else "broad"
        oi = old_path_of(old_paths, old_tracks, mapping or {}, p, g)
        if oi is None:
            return None
        new_values = sorted(_max_revenue(h.nodes[e - NODE_BASE]) for e in p if e >= NODE_BASE)
        old_values = sorted(_max_revenue(old_nodes[e - NODE_BASE])
                            for e in old_paths[oi] if e >= NODE_BASE)
        if new_values != old_values:
            return None
        values.extend(new_values)
    what = ("narrow gauge " if narrow else "broad gauge ") if board.gauged else ""
    return (f"{corp}'s upgrade of {coord} (tile {old_tile.name} to {h.tile.name}) gives it no new "
            f"{what}track it can use and changes no value of a stop on its track "
            f"(values {sorted(set(values)) or 'none'}); track is semi-restrictive: a new tile "
            f"must add usable track or change a city's value")


def _gauge(tracks, i: int) -> str:
    return tracks[i] if tracks and i < len(tracks) else "broad"


def gauge_mismatch(board, h, t, rotation: int):
    """A side where the new tile's track meets the neighbour's track of the
    other gauge (narrow into broad or broad into narrow), or None."""
    paths = t.rotated(rotation)
    tracks = t.tracks
    for e in sorted(t.exits(rotation)):
        ni = h.nbr[e]
        if ni < 0:
            continue
        nb = board.hex_list[ni]
        ie = (e + 3) % 6
        theirs = nb.at.get(ie)
        if not theirs:
            continue
        mine = next(i for i, p in enumerate(paths) if e in p)
        g_mine = _gauge(tracks, mine)
        g_theirs = _gauge(nb.tile.tracks, theirs[0])
        if g_mine != g_theirs:
            return (f"runs {g_mine} gauge track at edge {e} into {nb.coord}'s {g_theirs} "
                    f"gauge track")
    return None


def broad_partners(board, corp: str) -> frozenset:
    """The companies with a station on a city that broad track joins to one
    of ``corp``'s stations, other companies' stations ignored (they do not
    block), never through an off-board area: 18Ireland's merger condition
    (M5).  ``corp`` itself included when it has a station."""
    def walk() -> frozenset:
        hexes = board.hex_list
        starts = board.station_nodes().get(corp, ())
        out = set()
        for hi, ni in starts:
            out.update(hexes[hi].nodes[ni].tokens)

        def at_node(node):
            if node.kind == "city":
                out.update(node.tokens)

        _walk(hexes, starts, _broad_at, at_node)
        return frozenset(out)

    return board.network_memo(("broad_partners", corp), walk)


def power_connection_problem(board, corp: str, plan, any_exit: bool):
    """A private's lay that must be connected (18Ireland's BoW and DCR), the
    board having checked the rest (``Board.plan_lay`` with the power skips
    the connection): (rule, message) or None.  ``any_exit``: the power names
    its hex, and reaching the hex is enough (DCR on H4); otherwise the lay
    is connected as any other (BoW)."""
    h, t, r, mapping = plan.hex, plan.tile, plan.rotation, plan.mapping
    broad = board.available_edges(corp, h)
    if not any_exit:
        problem = connection_problem(board, corp, h, t, r, mapping, broad)
        if problem is None:
            return None
        rule, msg = problem
        return rule, f"tile {plan.name} rotation {r} on {h.coord} {msg}"
    narrow = narrow_edges(board, corp, h)
    if lay_is_narrow(h, t, r, mapping):
        if broad or narrow:
            return None
        return ("tile.connection", f"tile {plan.name} on {h.coord}: {corp}'s track does not reach "
                                   f"{h.coord} (neither its broad track nor narrow track from a "
                                   f"place its broad track reaches)")
    if broad:
        return None
    return ("tile.connection", f"tile {plan.name} on {h.coord} adds broad gauge track, but "
                               f"{corp}'s broad network does not reach {h.coord}")
