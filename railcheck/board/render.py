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
    for h in board.hex_list:
        tokens = any(n.tokens for n in h.nodes)
        if not h.laid and not tokens:
            continue
        tile = (h.copy or h.tile.name) if h.laid else "(map)"
        rot = f"r{h.rotation}" if h.laid else "-"
        name = h.name or ""
        lines.append(f"{h.coord:<4} {name[:22]:<22} {tile:<8} {rot:<3} {_node_tokens(h)}".rstrip())
    return "\n".join(lines) + ("\n" if lines else "")


def _text_color(color: str) -> str:
    """Black or white, whichever reads better on ``color`` (#rrggbb; names
    of light colours are listed)."""
    c = (color or "").strip().lower()
    if c.startswith("#") and len(c) == 7:
        r, g, b = (int(c[k:k + 2], 16) for k in (1, 3, 5))
        return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#fff"
    return "#000" if c in ("yellow", "yellowgreen", "deepskyblue", "white", "lightblue",
                           "gold", "orange", "pink", "cyan") else "#fff"


def _revenue_text(revenue) -> str:
    if isinstance(revenue, dict):
        return "/".join(str(v) for v in revenue.values())
    return str(revenue) if revenue else ""


def render_svg(board, size: float = 28.0, colors: dict | None = None) -> str:
    """An SVG picture of the map as players know it: hexes in their tile
    colours, track, cities with their station slots (markers in the
    companies' colours, a home not yet placed dashed), towns, off-board
    areas with their revenue, tile numbers and place names."""
    colors = colors or {}
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

    pts = [centre(h) for h in board.hex_list]
    minx = min(p[0] for p in pts) - s * 1.2
    miny = min(p[1] for p in pts) - s * 1.2
    maxx = max(p[0] for p in pts) + s * 1.2
    maxy = max(p[1] for p in pts) + s * 1.2
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="{minx:.1f} '
           f'{miny:.1f} {maxx - minx:.1f} {maxy - miny:.1f}" font-family="sans-serif">']
    track, marks = [], []
    for h in board.hex_list:
        cx, cy = centre(h)
        poly = " ".join(f"{x:.1f},{y:.1f}" for x, y in corners(cx, cy))
        out.append(f'<polygon points="{poly}" fill="{FILL.get(h.color, "#ddd")}" '
                   f'stroke="#fff" stroke-width="1"/>')
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
            track.append(f'<path d="{d}" stroke="#fff" stroke-width="{s * 0.2:.1f}" fill="none"/>'
                         f'<path d="{d}" stroke="#111" stroke-width="{s * 0.12:.1f}" '
                         f'fill="none"/>')
        for i, node in enumerate(h.nodes):
            px, py = node_pos[i]
            if node.kind == "city":
                r = s * 0.2
                slots = max(1, node.slots or 1)
                taken = list(node.tokens) + [c for c in node.reserved if c not in node.tokens]
                x0 = px - r * (slots - 1)
                if slots > 1:
                    marks.append(f'<rect x="{x0 - r:.1f}" y="{py - r:.1f}" '
                                 f'width="{2 * r * slots:.1f}" height="{2 * r:.1f}" '
                                 f'rx="{r:.1f}" fill="#fff" stroke="#111"/>')
                for k in range(slots):
                    sx = x0 + 2 * r * k
                    corp = taken[k] if k < len(taken) else None
                    placed = corp is not None and corp in node.tokens
                    if corp is None:
                        marks.append(f'<circle cx="{sx:.1f}" cy="{py:.1f}" r="{r:.1f}" '
                                     f'fill="#fff" stroke="#111"/>')
                        continue
                    fill = colors.get(corp, "#777") if placed else "#fff"
                    ink = _text_color(fill) if placed else "#555"
                    dash = "" if placed else ' stroke-dasharray="2 1.5"'
                    marks.append(f'<circle class="token" data-corp="{escape(corp)}" '
                                 f'cx="{sx:.1f}" cy="{py:.1f}" r="{r:.1f}" fill="{fill}" '
                                 f'stroke="#111"{dash}><title>{escape(corp)}'
                                 f'{"" if placed else " (home, not yet placed)"}</title></circle>')
                    marks.append(f'<text x="{sx:.1f}" y="{py + r * 0.3:.1f}" '
                                 f'font-size="{r * (0.8 if len(corp) <= 3 else 0.6):.1f}" font-weight="bold" fill="{ink}" '
                                 f'text-anchor="middle">{escape(corp[:4])}</text>')
                rev = _revenue_text(node.revenue)
                if rev and h.laid:
                    marks.append(f'<text x="{px:.1f}" y="{py - r - 1.5:.1f}" '
                                 f'font-size="{s * 0.17:.1f}" text-anchor="middle" '
                                 f'fill="#111">{escape(rev)}</text>')
            elif node.kind == "town":
                marks.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="{s * 0.1:.1f}" '
                             f'fill="#111" stroke="#fff" stroke-width="0.8"/>')
            elif node.kind == "offboard":
                rev = _revenue_text(node.revenue)
                if rev:
                    marks.append(f'<text x="{px:.1f}" y="{py + 3:.1f}" font-size="{s * 0.22:.1f}" '
                                 f'font-weight="bold" text-anchor="middle" fill="#fff">'
                                 f'{escape(rev)}</text>')
        label = h.coord
        if h.laid:
            label += f" #{h.tile.name}"
        marks.append(f'<text x="{cx:.1f}" y="{cy - s * 0.62:.1f}" font-size="{s * 0.2:.1f}" '
                     f'text-anchor="middle" fill="#333">{escape(label)}</text>')
        if h.name:
            marks.append(f'<text x="{cx:.1f}" y="{cy + s * 0.78:.1f}" font-size="{s * 0.17:.1f}" '
                         f'text-anchor="middle" fill="#111">{escape(h.name[:18])}</text>')
    out += track + marks
    out.append("</svg>")
    return "\n".join(out) + "\n"
