"""Hex coordinates and neighbours, numbered as in the 18xx.games engine.

A coordinate is letters + number (``H12``).  The engine maps it to "doubled"
coordinates (x, y): for the *pointy* layout x is the number - 1 (columns, two
apart between side-by-side hexes) and y the letter index (rows); for the *flat*
layout x is the letter index and y the number - 1.  A title may swap them with
``axes``.  The neighbour through edge e is at (x + dx, y + dy):

pointy: 0 (-1,+1) lower left, 1 (-2,0) left, 2 (-1,-1) upper left,
        3 (+1,-1) upper right, 4 (+2,0) right, 5 (+1,+1) lower right.
flat:   0 (0,+2) below, 1 (-1,+1), 2 (-1,-1), 3 (0,-2) above, 4 (+1,-1), 5 (+1,+1).

Edge e of a hex faces edge (e + 3) % 6 of its neighbour.
"""

from __future__ import annotations

import re
from typing import Optional

DIRECTIONS = {
    "pointy": ((-1, 1), (-2, 0), (-1, -1), (1, -1), (2, 0), (1, 1)),
    "flat": ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1)),
}

DEFAULT_AXES = {
    "pointy": {"x": "number", "y": "letter"},
    "flat": {"x": "letter", "y": "number"},
}

_COORD = re.compile(r"^([A-Z]+)(-?\d+)$")   # 18Ireland has G-1 (off the top edge)


def invert(edge: int) -> int:
    return (edge + 3) % 6


def letter_index(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - 64)
    return n - 1


def parse_coord(coord: str) -> tuple[int, int]:
    """(letter index, number) of ``H12`` -> (7, 12)."""
    m = _COORD.match(coord)
    if not m:
        raise ValueError(f"not a hex coordinate: {coord!r}")
    return letter_index(m.group(1)), int(m.group(2))


def to_xy(coord: str, layout: str = "pointy", axes: Optional[dict] = None) -> tuple[int, int]:
    axes = axes or DEFAULT_AXES[layout]
    letter, number = parse_coord(coord)
    vals = {"letter": letter, "number": number - 1}
    return vals[axes["x"]], vals[axes["y"]]


def direction(a: str, b: str, layout: str = "pointy", axes: Optional[dict] = None) -> Optional[int]:
    """Edge of hex ``a`` that faces hex ``b``, or None if not adjacent."""
    ax, ay = to_xy(a, layout, axes)
    bx, by = to_xy(b, layout, axes)
    try:
        return DIRECTIONS[layout].index((bx - ax, by - ay))
    except ValueError:
        return None


def neighbour_coords(coord: str, layout: str = "pointy", axes: Optional[dict] = None,
                     known: Optional[dict] = None) -> list[Optional[str]]:
    """The six neighbours' coordinates by edge (None where off ``known``,
    a {(x, y): coord} index of the map's hexes)."""
    x, y = to_xy(coord, layout, axes)
    out = []
    for dx, dy in DIRECTIONS[layout]:
        out.append(known.get((x + dx, y + dy)) if known is not None else None)
    return out
