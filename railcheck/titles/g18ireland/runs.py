"""Whether a company's trains can run at all in 18Ireland: a train runs on
broad gauge only.  The site skips the run of a company whose broad track
joins none of its stations to another stop (its price then moves left as for
a withhold); how far its trains reach does not matter for that (a run too
long for the train is refused, and an empty run is written instead)."""

from __future__ import annotations

from ...board.tiles import NODE_BASE

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
    hexes = board._hexes
    for hi, ni in board._stations().get(corp, ()):
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
