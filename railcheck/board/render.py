"""Text and SVG pictures of a board.

The SVG (``render_svg``) is drawn by hand, with no dependency: the hexes in
their tile colours, the track (18Ireland's narrow gauge thin and chequered,
broad gauge solid), cities with their station slots, towns, off-board areas
with their revenue in each phase's colour, and the labels placed in the
corners of each hex, where no track runs (the coordinate, the tile number, the
revenue), with the place name at the foot, wrapped and shrunk to fit its hex
and drawn over the track with a halo.  A title and a legend frame the map;
``Marks`` ring the hex, the city or the run an action concerned (the HTML
report's "board at this finding").
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from html import escape
from typing import Optional

from ..colors import ink_on
from .hexgrid import DIRECTIONS
from .tiles import NODE_BASE

FILL = {
    "white": "#f4f1e8", "yellow": "#f5e050", "green": "#6fbf5a", "brown": "#b07a4a",
    "gray": "#aaaaaa", "red": "#e06050", "blue": "#7fb2e5",
}
#: the colour of what a finding concerns: its hex, city or run
MARK = "#e6007e"
#: average width of a sans-serif character, as a share of the font size
CHAR = 0.56


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
    """Black or white, whichever reads better on ``color``."""
    return ink_on(color)


def _revenue_text(revenue) -> str:
    if isinstance(revenue, dict):
        return "/".join(str(v) for v in revenue.values())
    return str(revenue) if revenue else ""


@dataclass
class Marks:
    """What to ring on the map: ``hexes`` (coordinates), ``cities``
    ((coordinate, node index or None) — None: every city of the hex),
    ``routes`` (objects with ``stops`` — each with ``hex`` and ``city``, the
    index among the hex's stops — and ``path``, the hexes from each stop to the
    next, or None), and ``what``: the legend's words for them."""

    hexes: list = field(default_factory=list)
    cities: list = field(default_factory=list)
    routes: list = field(default_factory=list)
    what: str = ""

    def __bool__(self) -> bool:
        return bool(self.hexes or self.cities or self.routes)


def marks_of_action(action) -> Optional[Marks]:
    """The marks of what an action concerns: the hex of a tile lay (or of any
    action naming a hex), the city of a station, the runs of a train run.
    None for an action that names no place on the map."""
    if action is None:
        return None
    routes = getattr(action, "routes", None)
    if routes:
        return Marks(routes=list(routes), what="the run" + ("s" if len(routes) > 1 else "")
                     + " of this action")
    hx = getattr(action, "hex", None)
    if not isinstance(hx, str) or not hx:
        return None
    if getattr(action, "verb", "") == "token":
        return Marks(hexes=[hx], cities=[(hx, getattr(action, "city", None))],
                     what="the city of this station")
    if getattr(action, "verb", "") == "lay":
        return Marks(hexes=[hx], what="the hex of this tile lay")
    return Marks(hexes=[hx], what="the hex of this action")


def _fit_lines(name: str, widths: list, font: float, smallest: float) -> tuple[list, float]:
    """The name on one line, or two split at a space, at the largest font
    size (down to ``smallest``) at which each line fits its width."""
    words = name.split()
    options = [[name]]
    if len(words) > 1:
        splits = [[" ".join(words[:k]), " ".join(words[k:])] for k in range(1, len(words))]
        splits.sort(key=lambda ls: max(len(x) for x in ls))
        options += splits
    best = None
    for lines in options:
        w = widths[len(lines) - 1]
        need = max(len(x) for x in lines) * CHAR
        size = min(font, w[0] / need if len(lines) == 1 else
                   min(w[0] / (len(lines[0]) * CHAR), w[1] / (len(lines[1]) * CHAR)))
        if best is None or size > best[1] + 1e-9:
            best = (lines, size)
        if size >= font:
            break
    lines, size = best
    return lines, max(size, smallest)


def render_svg(board, size: float = 28.0, colors: dict | None = None, *,
               title: Optional[str] = None, legend: bool = True,
               marks: Optional[Marks] = None) -> str:
    """An SVG picture of the map as players know it (see the module's
    docstring).  ``colors``: company -> CSS colour of its station markers;
    ``title``: the line above the map; ``legend``: a key below it (the
    companies on the map, the track's gauges, off-board values, the marks);
    ``marks``: what to ring in magenta."""
    colors = colors or {}
    pointy = board.layout == "pointy"
    s = size
    w = math.sqrt(3) * s
    dirs = DIRECTIONS[board.layout]

    def centre(h):
        if pointy:
            return h.x * w / 2, h.y * 1.5 * s
        return h.x * 1.5 * s, h.y * w / 2

    def corners(cx, cy):
        start = 30 if pointy else 0
        return [(cx + s * math.cos(math.radians(start + 60 * i)),
                 cy + s * math.sin(math.radians(start + 60 * i))) for i in range(6)]

    def edge_mid(cx, cy, e):
        dx, dy = dirs[e]
        if pointy:
            return cx + dx * w / 4, cy + dy * 1.5 * s / 2
        return cx + dx * 1.5 * s / 2, cy + dy * w / 4

    def at_corner(cx, cy, angle, k):
        """A point ``k`` of the way from the centre to the corner at ``angle``
        degrees (clockwise from east): the corners are where no track runs."""
        return (cx + k * s * math.cos(math.radians(angle)),
                cy + k * s * math.sin(math.radians(angle)))

    def halo(fill):
        return (f'stroke="{fill}" stroke-width="{s * 0.07:.1f}" stroke-linejoin="round" '
                f'paint-order="stroke"')

    def width_at(dy):
        """The hex's width at ``dy`` below (or above) its centre."""
        dy = abs(dy)
        if pointy:
            return w if dy <= s / 2 else max(0.0, 2 * w * (1 - dy / s))
        return max(0.0, 2 * s - 2 * dy / math.sqrt(3))

    hexes = board.hex_list
    by_coord = {h.coord: h for h in hexes}
    pts = [centre(h) for h in hexes]
    minx = min(p[0] for p in pts) - s * 1.1
    miny = min(p[1] for p in pts) - s * 1.1
    maxx = max(p[0] for p in pts) + s * 1.1
    maxy = max(p[1] for p in pts) + s * 1.1
    title_lines, title_font = _title_lines(title, maxx - minx - s * 0.6, s) if title \
        else ([], 0.0)
    head = title_font * (1.25 * len(title_lines) + 0.6) if title else 0.0

    track, nodes_svg, labels, names, node_pos_of = [], [], [], [], {}
    polys = []
    on_map: list = []           # companies with a station or a home on the map
    homes_waiting = False
    offboards = False
    narrow_seen = False
    for h in hexes:
        cx, cy = centre(h)
        fill = FILL.get(h.color, "#ddd")
        poly = " ".join(f"{x:.1f},{y:.1f}" for x, y in corners(cx, cy))
        polys.append(f'<polygon class="hex" data-hex="{escape(h.coord)}" points="{poly}" '
                     f'fill="{fill}" stroke="#fff" stroke-width="1"/>')
        for e, kind in getattr(h.base, "borders", ()):
            if kind != "impassable":
                continue
            mx, my = edge_mid(cx, cy, e)
            ang = math.degrees(math.atan2(my - cy, mx - cx))
            (ax, ay), (bx, by) = (at_corner(cx, cy, ang - 30, 1), at_corner(cx, cy, ang + 30, 1))
            polys.append(f'<line class="impassable" x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" '
                         f'y2="{by:.1f}" stroke="#c0392b" stroke-width="{s * 0.12:.1f}" '
                         f'stroke-linecap="round"/>')
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
        if n > 1:
            _spread(node_pos, h.nodes, cx, cy, s)
        node_pos_of[h.coord] = node_pos
        gauges = h.tile.tracks
        for k, (a, b) in enumerate(h.paths):
            pa = edge_mid(cx, cy, a) if a < NODE_BASE else node_pos[a - NODE_BASE]
            pb = edge_mid(cx, cy, b) if b < NODE_BASE else node_pos[b - NODE_BASE]
            if a < NODE_BASE and b < NODE_BASE:
                d = f"M{pa[0]:.1f},{pa[1]:.1f} Q{cx:.1f},{cy:.1f} {pb[0]:.1f},{pb[1]:.1f}"
            else:
                d = f"M{pa[0]:.1f},{pa[1]:.1f} L{pb[0]:.1f},{pb[1]:.1f}"
            gauge = gauges[k] if k < len(gauges) else "broad"
            if gauge == "narrow":
                narrow_seen = True
            track.append(_track(d, gauge, s))
        revs = {}
        obstacles = []      # boxes (x, y, half width, half height, weight) a name avoids
        for i, node in enumerate(h.nodes):
            if node.kind in ("city", "town") and _revenue_text(node.revenue):
                revs.setdefault(_revenue_text(node.revenue), []).append(i)
        hex_badge = len(revs) == 1
        for i, node in enumerate(h.nodes):
            px, py = node_pos[i]
            if node.kind == "city":
                r = s * 0.2
                slots = max(1, node.slots or 1)
                taken = list(node.tokens) + [c for c in node.reserved if c not in node.tokens]
                on_map += [c for c in taken if c not in on_map]
                x0 = px - r * (slots - 1)
                if slots > 1:
                    nodes_svg.append(f'<rect x="{x0 - r:.1f}" y="{py - r:.1f}" '
                                     f'width="{2 * r * slots:.1f}" height="{2 * r:.1f}" '
                                     f'rx="{r:.1f}" fill="#fff" stroke="#111"/>')
                for k in range(slots):
                    sx = x0 + 2 * r * k
                    corp = taken[k] if k < len(taken) else None
                    placed = corp is not None and corp in node.tokens
                    if corp is None:
                        nodes_svg.append(f'<circle cx="{sx:.1f}" cy="{py:.1f}" r="{r:.1f}" '
                                         f'fill="#fff" stroke="#111"/>')
                        continue
                    homes_waiting = homes_waiting or not placed
                    nodes_svg.append(_token(corp, sx, py, r, colors, placed))
                obstacles.append((px, py, r * slots, r, 3))
            elif node.kind == "town":
                nodes_svg.append(f'<circle class="town" cx="{px:.1f}" cy="{py:.1f}" '
                                 f'r="{s * 0.1:.1f}" fill="#111" stroke="#fff" '
                                 f'stroke-width="0.8"/>')
                obstacles.append((px, py, s * 0.1, s * 0.1, 1))
            elif node.kind == "offboard" and not node.hidden and node.revenue:
                offboards = True
                ends = [edge_mid(cx, cy, a if b == NODE_BASE + i else b) for a, b in h.paths
                        if NODE_BASE + i in (a, b) and min(a, b) < NODE_BASE]
                vx = sum(x - cx for x, _ in ends)
                vy = sum(y - cy for _, y in ends)
                norm = math.hypot(vx, vy)
                # the values on the side of the hex away from the track
                ux, uy = ((-vx / norm, -vy / norm) if norm > 1e-6 else (0.0, -1.0))
                vx, vy = cx + ux * s * 0.4, cy + uy * s * 0.3
                svg, half = _phase_values(vx, vy, node.revenue, s)
                nodes_svg.append(svg)
                obstacles.append((vx, vy, half, s * 0.14, 3))
        # the revenues in the hex's free corners: one for the hex when its
        # stops pay the same, else each in the free corner nearest its stop
        # the name where it covers the fewest stops, then the revenues in the
        # free corners: the side ones first, the lower ones are the name's
        if h.name:
            svg, box = _name(h.name, cx, cy, s, width_at, fill, halo, obstacles)
            names.append(svg)
            obstacles.append((*box, 2))
        sides = [at_corner(cx, cy, a, 0.64) for a in ((210, 30) if pointy else (180, 0))]
        lower = [at_corner(cx, cy, a, 0.64) for a in ((150,) if pointy else (120, 60))]
        badge_box = (s * 0.15, s * 0.13)

        def clear(spot):
            return not any(_overlap((*spot, *badge_box), box) for box in obstacles)

        def place(rev, near=None):
            """In the free corner nearest the stop: a clear side one, else a
            clear lower one, else any left."""
            tiers = ([c for c in sides if clear(c)], [c for c in lower if clear(c)],
                     sides, lower)
            for spots in tiers:
                if not spots:
                    continue
                if near is not None:
                    spots = sorted(spots, key=lambda c: math.hypot(c[0] - near[0],
                                                                   c[1] - near[1]))
                spot = spots[0]
                (sides if spot in sides else lower).remove(spot)
                labels.append(_badge(*spot, rev, s))
                obstacles.append((*spot, *badge_box, 2))
                return
        if hex_badge:
            place(next(iter(revs)))
        else:
            for rev, idx in revs.items():
                for i in idx:
                    place(rev, node_pos[i])
        # the coordinate and the tile number in the upper corners
        if pointy:
            (lx, ly), anchor = at_corner(cx, cy, 270, 0.62), "middle"
            tx, ty, tanchor = *at_corner(cx, cy, 330, 0.6), "middle"
        else:
            lx, ly, anchor = cx - s * 0.56, cy - s * 0.66, "start"
            tx, ty, tanchor = cx + s * 0.56, cy - s * 0.66, "end"
        labels.append(f'<text class="coord" x="{lx:.1f}" y="{ly + s * 0.06:.1f}" '
                      f'font-size="{s * 0.17:.1f}" text-anchor="{anchor}" fill="#333">'
                      f'{escape(h.coord)}</text>')
        if h.laid:
            labels.append(f'<text class="tile" x="{tx:.1f}" y="{ty + s * 0.06:.1f}" '
                          f'font-size="{s * 0.15:.1f}" text-anchor="{tanchor}" fill="#333">'
                          f'#{escape(h.tile.name)}</text>')
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="{minx:.1f} '
           f'{miny - head:.1f} {maxx - minx:.1f} @HEIGHT@" font-family="sans-serif">']
    if title:
        out.append(f'<title>{escape(title)}</title>')
        spans = "".join(f'<tspan x="{minx + s * 0.3:.1f}" '
                        f'y="{miny - head + title_font * (1.15 + 1.25 * k):.1f}">'
                        f'{escape(t)}</tspan>' for k, t in enumerate(title_lines))
        out.append(f'<text class="board-title" font-size="{title_font:.1f}" '
                   f'font-weight="bold" fill="#222">{spans}</text>')
    under, over = _marks(marks, by_coord, node_pos_of, centre, corners, s) if marks \
        else ([], [])
    # the names over the track, under the stops (a name hides no station);
    # a marked run under the stations (they stay readable), the rings on top
    out += polys + track + names + under + nodes_svg + labels + over
    bottom = maxy
    if legend:
        order = {c: k for k, c in enumerate(colors)}
        on_map.sort(key=lambda c: order.get(c, len(order)))
        items = _legend_items(on_map, colors, homes_waiting, narrow_seen, offboards, marks)
        if items:
            svg, bottom = _legend(items, minx + s * 0.3, maxy, maxx - minx - s * 0.6, s, colors)
            out.append(svg)
    out.append("</svg>")
    text = "\n".join(out) + "\n"
    return text.replace("@HEIGHT@", f"{bottom - (miny - head):.1f}", 1)


def _title_lines(title: str, width: float, s: float) -> tuple[list, float]:
    """The title on one line, at most half a hex high, shrunk to the map's
    width; on two lines (split at a space) when one would be too small."""
    bold = CHAR * 1.1
    font = min(s * 0.5, width / (len(title) * bold))
    words = title.split(" ")
    if font >= s * 0.34 or len(words) < 2:
        return [title], max(font, s * 0.2)
    k = min(range(1, len(words)), key=lambda k: max(len(" ".join(words[:k])),
                                                  len(" ".join(words[k:]))))
    lines = [" ".join(words[:k]), " ".join(words[k:])]
    font = min(s * 0.5, width / (max(len(x) for x in lines) * bold))
    return lines, max(font, s * 0.2)


def _track(d: str, gauge: str, s: float) -> str:
    """One piece of track: broad gauge a solid black band on a white edge;
    narrow gauge a thinner band, black and white in turn (as railway maps
    draw a narrow-gauge line); dual gauge both."""
    edge = (f'<path d="{d}" stroke="#fff" stroke-width="{s * 0.2:.1f}" fill="none"/>')
    if gauge == "narrow":
        return (f'<path d="{d}" stroke="#fff" stroke-width="{s * 0.13:.1f}" fill="none"/>'
                f'<path class="track narrow" d="{d}" stroke="#111" '
                f'stroke-width="{s * 0.09:.1f}" fill="none"/>'
                f'<path d="{d}" stroke="#fff" stroke-width="{s * 0.04:.1f}" fill="none" '
                f'stroke-dasharray="{s * 0.12:.1f} {s * 0.12:.1f}"/>')
    if gauge == "dual":
        return (edge + f'<path class="track dual" d="{d}" stroke="#111" '
                f'stroke-width="{s * 0.12:.1f}" fill="none"/>'
                f'<path d="{d}" stroke="#fff" stroke-width="{s * 0.03:.1f}" fill="none" '
                f'stroke-dasharray="{s * 0.12:.1f} {s * 0.12:.1f}"/>')
    return edge + (f'<path class="track broad" d="{d}" stroke="#111" '
                   f'stroke-width="{s * 0.12:.1f}" fill="none"/>')


def _token(corp: str, x: float, y: float, r: float, colors: dict, placed: bool) -> str:
    fill = colors.get(corp, "#777") if placed else "#fff"
    ink = _text_color(fill) if placed else "#555"
    dash = "" if placed else ' stroke-dasharray="2 1.5"'
    label = corp[:4]
    font = r * (0.8 if len(label) <= 3 else 0.62)
    return (f'<circle class="token" data-corp="{escape(corp)}" cx="{x:.1f}" cy="{y:.1f}" '
            f'r="{r:.1f}" fill="{fill}" stroke="#111"{dash}><title>{escape(corp)}'
            f'{"" if placed else " (home, not yet placed)"}</title></circle>'
            f'<text x="{x:.1f}" y="{y + font * 0.35:.1f}" font-size="{font:.1f}" '
            f'font-weight="bold" fill="{ink}" text-anchor="middle">{escape(label)}</text>')


def _badge(x: float, y: float, text: str, s: float) -> str:
    """A revenue in a small white disc (a pill for a longer one)."""
    font = s * 0.17
    half = max(s * 0.13, len(text) * CHAR * font / 2 + s * 0.04)
    rr = s * 0.13
    return (f'<rect class="revenue" x="{x - half:.1f}" y="{y - rr:.1f}" width="{2 * half:.1f}" '
            f'height="{2 * rr:.1f}" rx="{rr:.1f}" fill="#fff" stroke="#111" '
            f'stroke-width="0.6"/>'
            f'<text x="{x:.1f}" y="{y + font * 0.36:.1f}" font-size="{font:.1f}" '
            f'text-anchor="middle" fill="#111">{escape(text)}</text>')


def _phase_values(x: float, y: float, revenue, s: float) -> str:
    """An off-board area's values side by side, each on its phase's colour
    (one white box when the value does not change)."""
    items = list(revenue.items()) if isinstance(revenue, dict) else [("white", revenue)]
    font = s * 0.2
    widths = [max(s * 0.28, len(str(v)) * CHAR * font + s * 0.08) for _, v in items]
    total = sum(widths)
    hh = s * 0.28
    out = ['<g class="offboard-values">']
    left = x - total / 2
    for (color, value), bw in zip(items, widths):
        bg = FILL.get(color, "#fff") if color != "white" else "#fff"
        out.append(f'<rect x="{left:.1f}" y="{y - hh / 2:.1f}" width="{bw:.1f}" '
                   f'height="{hh:.1f}" fill="{bg}" stroke="#111" stroke-width="0.6"/>'
                   f'<text x="{left + bw / 2:.1f}" y="{y + font * 0.36:.1f}" '
                   f'font-size="{font:.1f}" font-weight="bold" text-anchor="middle" '
                   f'fill="{ink_on(bg)}">{escape(str(value))}</text>')
        left += bw
    out.append("</g>")
    return "".join(out), total / 2


def _spread(pos: dict, nodes: list, cx: float, cy: float, s: float) -> None:
    """Push apart the stops of a hex that would be drawn on one another
    (18Ireland's Dundalk: a city and a town on the same sides), keeping them
    inside the hex."""
    def reach(node):
        if node.kind == "city":
            return s * 0.2 * max(1, node.slots or 1)
        return s * 0.12
    keys = list(pos)
    for _ in range(20):
        moved = False
        for a, b in itertools.combinations(keys, 2):
            (ax, ay), (bx, by) = pos[a], pos[b]
            need = reach(nodes[a]) + reach(nodes[b]) + s * 0.04
            dx, dy = bx - ax, by - ay
            d = math.hypot(dx, dy)
            if d >= need:
                continue
            if d < 1e-6:
                dx, dy, d = 1.0, 0.0, 1.0
            push = (need - d) / 2
            pos[a] = (ax - dx / d * push, ay - dy / d * push)
            pos[b] = (bx + dx / d * push, by + dy / d * push)
            moved = True
        for k in keys:          # back inside the hex when pushed out
            x, y = pos[k]
            limit = s * 0.78 - reach(nodes[k])
            r = math.hypot(x - cx, y - cy)
            if r > limit > 0:
                pos[k] = (cx + (x - cx) * limit / r, cy + (y - cy) * limit / r)
        if not moved:
            return


def _overlap(a: tuple, b: tuple) -> bool:
    """Whether two boxes (centre x, centre y, half width, half height) overlap."""
    return abs(a[0] - b[0]) < a[2] + b[2] and abs(a[1] - b[1]) < a[3] + b[3]


def _name(name: str, cx: float, cy: float, s: float, width_at, fill: str, halo,
          obstacles: list) -> str:
    """The place name: at the foot of its hex, else at its head, else on one
    side of the middle — wherever it covers the fewest stops and revenues
    (``obstacles``, weighted: a city 3, a revenue 2, a town 1) — on one line
    or two, at a size that fits the hex's width there, over the track with a
    halo of the hex's colour."""
    one = [width_at(s * 0.56) - s * 0.12]
    two = [width_at(s * 0.42) - s * 0.12, width_at(s * 0.62) - s * 0.12]
    lines, font = _fit_lines(name, [one, two], s * 0.17, s * 0.12)
    places = [(cx, lines, font, [cy + s * 0.62] if len(lines) == 1
               else [cy + s * 0.46, cy + s * 0.66], 0.0),
              (cx, lines, font, [cy - s * 0.3] if len(lines) == 1
               else [cy - s * 0.42, cy - s * 0.22], 0.0)]
    side, side_font = _fit_lines(name, [[s * 0.78], [s * 0.78, s * 0.78]], s * 0.17, s * 0.12)
    for dx in (-0.42, 0.42):
        places.append((cx + dx * s, side, side_font,
                       [cy + s * 0.06] if len(side) == 1 else [cy - s * 0.04, cy + s * 0.16],
                       0.5))
    best = None
    for x, lines, font, base, penalty in places:
        half = max(len(t) for t in lines) * CHAR * font / 2
        box = (x, (base[0] - font * 0.75 + base[-1] + font * 0.2) / 2, half,
               (base[-1] + font * 0.2 - base[0] + font * 0.75) / 2)
        cost = penalty + sum(o[4] for o in obstacles if _overlap(box, o))
        if best is None or cost < best[0]:
            best = (cost, x, lines, font, base)
        if cost == 0:
            break
    _, x, lines, font, base = best
    half = max(len(t) for t in lines) * CHAR * font / 2
    box = (x, (base[0] - font * 0.75 + base[-1] + font * 0.2) / 2, half,
           (base[-1] + font * 0.2 - base[0] + font * 0.75) / 2)
    spans = "".join(f'<tspan x="{x:.1f}" y="{y:.1f}">{escape(t)}</tspan>'
                    for t, y in zip(lines, base))
    return (f'<text class="name" font-size="{font:.1f}" text-anchor="middle" fill="#111" '
            f'{halo(fill)}>{spans}</text>', box)


def _marks(marks: Marks, by_coord: dict, node_pos_of: dict, centre, corners,
           s: float) -> tuple[list, list]:
    """The marks' SVG: (what goes under the stations — the runs' lines —,
    what goes on top — the rings of hexes, cities and stops)."""
    out, under = [], []
    for coord in marks.hexes:
        h = by_coord.get(coord)
        if h is None:
            continue
        poly = " ".join(f"{x:.1f},{y:.1f}" for x, y in corners(*centre(h)))
        out.append(f'<polygon class="mark" data-hex="{escape(coord)}" points="{poly}" '
                   f'fill="none" stroke="{MARK}" stroke-width="{s * 0.14:.1f}" '
                   f'stroke-linejoin="round"/>')
    for coord, city in marks.cities:
        h = by_coord.get(coord)
        if h is None:
            continue
        cities = h.city_indices()
        chosen = cities if city is None or city >= len(cities) else [cities[city]]
        for ci in chosen:
            x, y = node_pos_of[coord][ci]
            slots = max(1, h.nodes[ci].slots or 1)
            out.append(f'<rect class="mark" data-city="{escape(coord)}.{ci}" '
                       f'x="{x - s * 0.2 * slots - s * 0.08:.1f}" y="{y - s * 0.28:.1f}" '
                       f'width="{s * 0.4 * slots + s * 0.16:.1f}" height="{s * 0.56:.1f}" '
                       f'rx="{s * 0.28:.1f}" fill="none" stroke="{MARK}" '
                       f'stroke-width="{s * 0.08:.1f}"/>')
    for route in marks.routes:
        pts = _route_points(route, by_coord, node_pos_of, centre)
        if len(pts) < 2:
            continue
        d = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        label = escape(" ".join(str(st) for st in getattr(route, "stops", [])))
        under.append(f'<polyline class="mark-route" points="{d}" fill="none" stroke="{MARK}" '
                     f'stroke-opacity="0.6" stroke-width="{s * 0.26:.1f}" '
                     f'stroke-linejoin="round" stroke-linecap="round"><title>'
                     f'{escape(str(getattr(route, "train", "")))}: {label}</title></polyline>')
        for st in getattr(route, "stops", []):
            x, y = _stop_point(st, by_coord, node_pos_of, centre)
            if x is None:
                continue
            out.append(f'<circle class="mark" data-stop="{escape(str(st))}" cx="{x:.1f}" '
                       f'cy="{y:.1f}" r="{s * 0.3:.1f}" fill="none" stroke="{MARK}" '
                       f'stroke-width="{s * 0.08:.1f}"/>')
    return under, out


def _stop_point(stop, by_coord, node_pos_of, centre):
    h = by_coord.get(getattr(stop, "hex", None))
    if h is None:
        return None, None
    pos = node_pos_of[h.coord]
    city = getattr(stop, "city", None)
    if city is not None and city in pos:
        return pos[city]
    return pos[0] if len(pos) == 1 else centre(h)


def _route_points(route, by_coord, node_pos_of, centre) -> list:
    """The run as a line: from each stop to the next through the middles of
    the hex sides crossed and the centres of the hexes passed (straight from
    stop to stop when the run gives no hexes)."""
    stops = list(getattr(route, "stops", None) or [])
    path = getattr(route, "path", None)
    pts: list = []
    for k, st in enumerate(stops):
        p = _stop_point(st, by_coord, node_pos_of, centre)
        if p[0] is not None:
            pts.append(p)
        if path and k < len(path) and k + 1 < len(stops):
            chain = [by_coord[c] for c in path[k] if isinstance(c, str) and c in by_coord]
            for a, b in zip(chain, chain[1:]):
                (ax, ay), (bx, by) = centre(a), centre(b)
                pts.append(((ax + bx) / 2, (ay + by) / 2))
                if b is not chain[-1]:
                    pts.append((bx, by))
    return pts


def _legend_items(on_map, colors, homes_waiting, narrow, offboards, marks) -> list:
    items = []
    for corp in on_map:
        items.append(("token", corp, corp))
    if homes_waiting:
        items.append(("home", "", "home station not yet placed"))
    if narrow:
        items.append(("broad", "", "broad gauge"))
        items.append(("narrow", "", "narrow gauge"))
    if offboards:
        items.append(("phases", "", "off-board value in each phase"))
    if marks:
        items.append(("mark", "", marks.what or "what the action concerns"))
    return items


def _legend(items: list, x0: float, y0: float, width: float, s: float, colors=None):
    """The key below the map, its entries in rows; returns (svg, its bottom)."""
    font = s * 0.3
    row_h = s * 0.62
    out = ['<g class="legend">']
    x, y = x0, y0 + row_h * 0.9
    for kind, key, text in items:
        need = s * 0.8 + len(text) * CHAR * font + s * 0.5
        if x > x0 and x + need > x0 + width:
            x, y = x0, y + row_h
        sym_x = x + s * 0.3
        if kind == "token":
            swatch = (colors or {}).get(key, "#777")
            out.append(f'<circle class="legend-token" data-corp="{escape(key)}" '
                       f'cx="{sym_x:.1f}" cy="{y:.1f}" r="{s * 0.22:.1f}" fill="{swatch}" '
                       f'stroke="#111"/>')
        elif kind == "home":
            out.append(f'<circle cx="{sym_x:.1f}" cy="{y:.1f}" r="{s * 0.22:.1f}" fill="#fff" '
                       f'stroke="#111" stroke-dasharray="2 1.5"/>')
        elif kind in ("broad", "narrow"):
            d = f"M{x:.1f},{y:.1f} L{x + s * 0.6:.1f},{y:.1f}"
            out.append(_track(d, kind, s).replace('class="track', 'class="legend-track'))
        elif kind == "phases":
            out.append(_phase_values(sym_x, y, {"yellow": "", "brown": ""}, s)[0])
        elif kind == "mark":
            out.append(f'<rect x="{x:.1f}" y="{y - s * 0.2:.1f}" width="{s * 0.6:.1f}" '
                       f'height="{s * 0.4:.1f}" fill="none" stroke="{MARK}" '
                       f'stroke-width="{s * 0.1:.1f}"/>')
        out.append(f'<text x="{x + s * 0.8:.1f}" y="{y + font * 0.36:.1f}" '
                   f'font-size="{font:.1f}" fill="#222">{escape(text)}</text>')
        x += need
    out.append("</g>")
    return "\n".join(out), y + row_h * 0.7
