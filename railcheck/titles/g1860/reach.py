"""How far an 1860 corporation's biggest train reaches, for upgrades
(docs/1860.md O1a: a corporation upgrades only track its own train can reach).

The track is walked from the corporation's stations; a city passed counts
one (its station city counts when the train leaves it), towns and halts
count nothing (a train may skip them).  A hex is within reach of an n+m
train when one of its cities or off-boards is reached having counted fewer
than n cities, or one of its towns or halts, or (a hex of plain track) one of
its tracks, having counted at most n.

Cities filled by other corporations are walked through (a train may pass
one), which can only make the reach longer than a stricter reading: an
upgrade flagged here is out of reach under any reading.
"""

from __future__ import annotations

from collections import deque

from ...board.tiles import NODE_BASE


def _walk(board, corp: str, coord: str, paths: bool = True):
    """(fewest cities counted on arriving at each node, on each path), exact
    for the nodes of ``coord`` and, with ``paths``, its paths (the walk stops
    once they are all reached); kept for the board's current state (an
    upgrade asks it two or three times).  Nodes and paths are keyed
    ``hex index << 4 | index``."""
    return board.memo("1860 reach", (board.version, corp, coord, paths),
                      lambda: _walk_now(board, corp, board.hexes[coord], paths), 16)


def _walk_now(board, corp: str, target=None, paths: bool = True):
    """A 0-1 walk: states are taken in order of cities counted, so the first
    time a node or path is reached is with its fewest; with a ``target`` hex
    the walk ends once each of its nodes and paths has been reached.  A state
    is the int ``cities << 24 | hex << 8 | path << 4 | the end the path is
    left by`` (the network walk's, ``_Hex.enter``, with the count on top;
    1860 has no narrow gauge, so ``enter`` follows every path)."""
    hexes = board.hex_list
    node_d: dict = {}
    path_d: dict = {}
    best: dict = {}
    queue: deque = deque()
    push, push_front, pop = queue.append, queue.appendleft, queue.popleft
    left = -1
    todo: set = set()
    if target is not None:
        ti = target.idx << 4
        todo = {ti | i for i in range(len(target.nodes))}
        if paths:
            todo |= {0x100000 | ti | i for i in range(len(target.paths))}   # marked apart
        left = len(todo)
    for hi, ni in board.station_nodes().get(corp, ()):
        k = hi << 4 | ni
        node_d[k] = 0
        if left > 0 and k in todo:
            todo.discard(k)
            left -= 1
        for st in hexes[hi].enter.get(NODE_BASE + ni, ()):
            push(1 << 24 | st)
    CITY = 1 << 24
    while queue and left != 0:
        item = pop()
        d = item >> 24
        st = item & 0xFFFFFF
        if best.get(st, 99) <= d:
            continue
        best[st] = d
        hp = st >> 4                    # hex << 4 | path
        if d < path_d.get(hp, 99):
            path_d[hp] = d
            if left > 0 and (0x100000 | hp) in todo:
                todo.discard(0x100000 | hp)
                left -= 1
        x = st & 15
        hi = st >> 8
        h = hexes[hi]
        if x < NODE_BASE:
            nb = h.nbr[x]
            if nb < 0:
                continue
            base = d << 24
            for nxt in hexes[nb].enter.get((x + 3) % 6, ()):
                push_front(base | nxt)
            continue
        ni = x - NODE_BASE
        k = hi << 4 | ni
        if d < node_d.get(k, 99):
            node_d[k] = d
            if left > 0 and k in todo:
                todo.discard(k)
                left -= 1
        node = h.nodes[ni]
        if node.kind == "offboard":
            continue
        pi = st & 0xF0
        if node.kind == "city":
            base = (d << 24) + CITY
            for nxt in h.enter.get(x, ()):
                if nxt & 0xF0 != pi:
                    push(base | nxt)
        else:
            base = d << 24
            for nxt in h.enter.get(x, ()):
                if nxt & 0xF0 != pi:
                    push_front(base | nxt)
    return node_d, path_d


def distance_to(board, corp: str, coord: str, cities: int):
    """None when ``coord`` is within reach of a train counting ``cities``
    cities; else the fewest cities a train counts before it gets there (99:
    not on the corporation's track at all)."""
    h = board.hexes[coord]
    node_d, path_d = _walk(board, corp, coord, paths=not h.nodes)
    base = h.idx << 4
    nearest = 99
    if h.nodes:
        for ni, node in enumerate(h.nodes):
            d = node_d.get(base | ni)
            if d is None:
                continue
            big = node.kind in ("city", "offboard")
            if (d < cities) if big else (d <= cities):
                return None
            nearest = min(nearest, d + 1 if big else d)
    else:
        for pi in range(len(h.paths)):
            d = path_d.get(base | pi)
            if d is None:
                continue
            if d <= cities:
                return None
            nearest = min(nearest, d)
    return nearest


def _max_revenue(revenue) -> int:
    if isinstance(revenue, dict):
        return max((int(v or 0) for v in revenue.values()), default=0)
    return int(revenue or 0)


def _node_reached(node, d, cities: int) -> bool:
    return (d < cities) if node.kind in ("city", "offboard") else (d <= cities)


def reached_values(board, corp: str, coord: str, cities: int) -> list:
    """The sorted top values of the stops on ``coord`` a train counting
    ``cities`` cities reaches."""
    h = board.hexes[coord]
    if not h.nodes:
        return []
    node_d, _ = _walk(board, corp, coord, paths=False)
    base = h.idx << 4
    return sorted(_max_revenue(node.revenue) for ni, node in enumerate(h.nodes)
                  if (base | ni) in node_d and _node_reached(node, node_d[base | ni], cities))


def _end_kind(h, end: int):
    return ("edge", end) if end < NODE_BASE else ("node", h.nodes[end - NODE_BASE].kind)


def old_track(board, coord: str) -> list:
    """The track on ``coord`` before an upgrade, as pairs of end kinds."""
    h = board.hexes[coord]
    return [frozenset((_end_kind(h, a), _end_kind(h, b))) for a, b in h.paths]


def uses_new_track(board, corp: str, coord: str, cities: int, before: list) -> bool:
    """Does a train counting ``cities`` reach a track piece of the new tile on
    ``coord`` that the old one did not have?"""
    h = board.hexes[coord]
    _, path_d = _walk(board, corp, coord)
    for pi, (a, b) in enumerate(h.paths):
        d = path_d.get(h.idx << 4 | pi)
        if d is None or d > cities:
            continue
        if frozenset((_end_kind(h, a), _end_kind(h, b))) not in before:
            return True
    return False
