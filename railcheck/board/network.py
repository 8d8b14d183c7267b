"""What the walks of a company's track network share: the board's walk of all
track (``Board.network``) and the gauge's walk of narrow track (``gauge.py``).

A walk's states are ints ``hex << 8 | path << 4 | end the path is left by`` (ends
below ``NODE_BASE`` are the hex's edges, the others its nodes).
"""

from __future__ import annotations

from .tiles import NODE_BASE


def paths_at(h, end: int):
    """The paths of hex ``h`` that end at its edge ``end``."""
    return h.at.get(end, ())


def reached_edges(hexes, h, seen, paths_at=paths_at) -> set:
    """The edges of ``h`` a walked network reaches (``seen``: its walk's
    states): the edges of the paths walked on ``h``, and the sides facing
    paths walked on its neighbours (of those ``paths_at(neighbour, edge)``
    gives: every path, or one gauge's)."""
    out = set()
    base = h.idx << 8
    for pi, (a, b) in enumerate(h.paths):
        k = base | (pi << 4)
        if (k | a) in seen or (k | b) in seen:
            if a < NODE_BASE:
                out.add(a)
            if b < NODE_BASE:
                out.add(b)
    for e, ni in enumerate(h.nbr):
        if ni < 0 or e in out:
            continue
        ie = (e + 3) % 6
        nh = hexes[ni]
        nbase = ni << 8
        for qi in paths_at(nh, ie):
            qa, qb = nh.paths[qi]
            k = nbase | (qi << 4)
            if (k | qa) in seen or (k | qb) in seen:
                out.add(e)
                break
    return out
