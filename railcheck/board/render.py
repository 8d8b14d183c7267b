"""Text and SVG pictures of a board."""

from __future__ import annotations

import math
from html import escape

from .hexgrid import DIRECTIONS
from .tiles import NODE_BASE

FILL = {
    "white": "#f4f1e8", "yellow": "#f5e050", "green": "#6fbf5a", "brown": "#b07a4a",
    "gray": "#aaaaaa", "red": "#e06050", "blue": "#7fb2e5",
}


def _node_tokens(h) -> str:
    parts = []
    cities = h.city_indices()
    for k, ci in enumerate(cities):
        node = h.nodes[ci]
        if node.tokens or node.reserved:
            text = ",".join(node.tokens)
            if node.reserved:
                text += (" " if text else "") + "(" + ",".join(node.reserved) + " home)"
            parts.append(f"c{k}:{text}" if len(cities) > 1 else text)
    return " ".join(parts)


def render_text(board) -> str:
    """One line per hex with a laid tile or station: hex, name, tile,
    rotation, stations."""
    lines = []
    for h in board._hexes:
        tokens = any(n.tokens for n in h.nodes)
        if not h.laid and not tokens:
            continue
        tile = (h.copy or h.tile.name) if h.laid else "(map)"
        rot = f"r{h.rotation}" if h.laid else "-"
        name = h.name or ""
        lines.append(f"{h.coord:<4} {name[:22]:<22} {tile:<8} {rot:<3} {_node_tokens(h)}".rstrip())
    return "\n".join(lines) + ("\n" if lines else "")


def render_svg(board, size: float = 28.0) -> str:
    """A simple SVG of the map: hexes by colour, track, cities, tile numbers
    and station markers."""
    pointy = board.layout == "pointy"
    s = size
    w = math.sqrt(3) * s

    def centre(h):
        if pointy:
            return h.x * w / 2, h.y * 1.5 * s
        return h.x * 1.5 * s, h.y * w / 2

    def corners(cx, cy):
        start = 30 if pointy else 0
        return [(cx + s * math.cos(math.radians(start + 60 * i)),
                 cy + s * math.sin(math.radians(start + 60 * i))) for i in range(6)]

    dirs = DIRECTIONS[board.layout]

    def edge_mid(cx, cy, e):
        dx, dy = dirs[e]
        if pointy:
            return cx + dx * w / 4, cy + dy * 1.5 * s / 2
        return cx + dx * 1.5 * s / 2, cy + dy * w / 4

    pts = [centre(h) for h in board._hexes]
    minx = min(p[0] for p in pts) - s * 1.2
    miny = min(p[1] for p in pts) - s * 1.2
    maxx = max(p[0] for p in pts) + s * 1.2
    maxy = max(p[1] for p in pts) + s * 1.2
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{minx:.1f} {miny:.1f} '
           f'{maxx - minx:.1f} {maxy - miny:.1f}" font-family="sans-serif">']
    for h in board._hexes:
        cx, cy = centre(h)
        poly = " ".join(f"{x:.1f},{y:.1f}" for x, y in corners(cx, cy))
        out.append(f'<polygon points="{poly}" fill="{FILL.get(h.color, "#ddd")}" stroke="#555" stroke-width="0.8"/>')
        n = len(h.nodes)
        node_pos = {}
        for i, node in enumerate(h.nodes):
            if n == 1:
                node_pos[i] = (cx, cy)
            else:
                edges = [a if b == NODE_BASE + i else b for a, b in h.paths if NODE_BASE + i in (a, b)]
                edges = [e for e in edges if e < NODE_BASE]
                if edges:
                    mx = sum(edge_mid(cx, cy, e)[0] for e in edges) / len(edges)
                    my = sum(edge_mid(cx, cy, e)[1] for e in edges) / len(edges)
                    node_pos[i] = ((cx + mx) / 2, (cy + my) / 2)
                else:
                    ang = math.radians(180 * i / n + 90)
                    node_pos[i] = (cx + s * 0.4 * math.cos(ang), cy - s * 0.4 * math.sin(ang))
        for a, b in h.paths:
            pa = edge_mid(cx, cy, a) if a < NODE_BASE else node_pos[a - NODE_BASE]
            pb = edge_mid(cx, cy, b) if b < NODE_BASE else node_pos[b - NODE_BASE]
            if a < NODE_BASE and b < NODE_BASE:
                d = f"M{pa[0]:.1f},{pa[1]:.1f} Q{cx:.1f},{cy:.1f} {pb[0]:.1f},{pb[1]:.1f}"
            else:
                d = f"M{pa[0]:.1f},{pa[1]:.1f} L{pb[0]:.1f},{pb[1]:.1f}"
            out.append(f'<path d="{d}" stroke="#222" stroke-width="{s * 0.12:.1f}" fill="none"/>')
        for i, node in enumerate(h.nodes):
            px, py = node_pos[i]
            if node.kind == "city":
                r = s * 0.22
                out.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="{r:.1f}" fill="white" stroke="#222"/>')
                if node.tokens:
                    out.append(f'<text x="{px:.1f}" y="{py + r * 0.35:.1f}" font-size="{s * 0.2:.1f}" '
                               f'text-anchor="middle">{escape("/".join(node.tokens))}</text>')
            elif node.kind == "town":
                out.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="{s * 0.09:.1f}" fill="#222"/>')
        label = h.coord
        if h.laid:
            label += f" #{h.tile.name}"
        out.append(f'<text x="{cx:.1f}" y="{cy - s * 0.62:.1f}" font-size="{s * 0.22:.1f}" '
                   f'text-anchor="middle" fill="#333">{escape(label)}</text>')
        if h.name:
            out.append(f'<text x="{cx:.1f}" y="{cy + s * 0.75:.1f}" font-size="{s * 0.16:.1f}" '
                       f'text-anchor="middle" fill="#333">{escape(h.name[:18])}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
