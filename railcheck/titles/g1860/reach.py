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


def _walk(board, corp: str, coord: str):
    """(fewest cities counted on arriving at each node, on each path), exact
    for the nodes and paths of ``coord`` (the walk stops once they are all
    reached); kept for the board's current state (an upgrade asks it two or
    three times)."""
    return board.memo("1860 reach", (board._version, corp, coord),
                      lambda: _walk_now(board, corp, board.hexes[coord]), 16)


def _walk_now(board, corp: str, target=None):
    """A 0-1 walk: states are taken in order of cities counted, so the first
    time a node or path is reached is with its fewest; with a ``target`` hex
    the walk ends once each of its nodes and paths has been reached."""
    hexes = board._hexes
    node_d: dict = {}
    path_d: dict = {}
    best: dict = {}
    queue: deque = deque()
    left = -1
    if target is not None:
        ti = target.idx
        todo = {(ti, ni) for ni in range(len(target.nodes))}
        todo_paths = {(ti, pi) for pi in range(len(target.paths))}
        left = len(todo) + len(todo_paths)
    for hi, ni in board._stations().get(corp, ()):
        node_d[(hi, ni)] = 0
        if left > 0 and (hi, ni) in todo:
            todo.discard((hi, ni))
            left -= 1
        end = NODE_BASE + ni
        for pi in hexes[hi].at.get(end, ()):
            a, b = hexes[hi].paths[pi]
            queue.append((1, hi, pi, b if a == end else a))
    while queue and left != 0:
        d, hi, pi, x = queue.popleft()
        if best.get((hi, pi, x), 99) <= d:
            continue
        best[(hi, pi, x)] = d
        if d < path_d.get((hi, pi), 99):
            path_d[(hi, pi)] = d
            if left > 0 and (hi, pi) in todo_paths:
                todo_paths.discard((hi, pi))
                left -= 1
        h = hexes[hi]
        if x < NODE_BASE:
            nb = h.nbr[x]
            if nb < 0:
                continue
            ie = (x + 3) % 6
            nh = hexes[nb]
            for qi in nh.at.get(ie, ()):
                qa, qb = nh.paths[qi]
                queue.appendleft((d, nb, qi, qb if qa == ie else qa))
            continue
        ni = x - NODE_BASE
        if d < node_d.get((hi, ni), 99):
            node_d[(hi, ni)] = d
            if left > 0 and (hi, ni) in todo:
                todo.discard((hi, ni))
                left -= 1
        node = h.nodes[ni]
        if node.kind == "offboard":
            continue
        step = 1 if node.kind == "city" else 0
        for qi in h.at.get(x, ()):
            if qi != pi:
                qa, qb = h.paths[qi]
                item = (d + step, hi, qi, qb if qa == x else qa)
                if step:
                    queue.append(item)
                else:
                    queue.appendleft(item)
    return node_d, path_d


def distance_to(board, corp: str, coord: str, cities: int):
    """None when ``coord`` is within reach of a train counting ``cities``
    cities; else the fewest cities a train counts before it gets there (99:
    not on the corporation's track at all)."""
    h = board.hexes[coord]
    node_d, path_d = _walk(board, corp, coord)
    nearest = 99
    if h.nodes:
        for ni, node in enumerate(h.nodes):
            d = node_d.get((h.idx, ni))
            if d is None:
                continue
            big = node.kind in ("city", "offboard")
            if (d < cities) if big else (d <= cities):
                return None
            nearest = min(nearest, d + 1 if big else d)
    else:
        for pi in range(len(h.paths)):
            d = path_d.get((h.idx, pi))
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
    node_d, _ = _walk(board, corp, coord)
    return sorted(_max_revenue(node.revenue) for ni, node in enumerate(h.nodes)
                  if (h.idx, ni) in node_d and _node_reached(node, node_d[(h.idx, ni)], cities))


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
        d = path_d.get((h.idx, pi))
        if d is None or d > cities:
            continue
        if frozenset((_end_kind(h, a), _end_kind(h, b))) not in before:
            return True
    return False
