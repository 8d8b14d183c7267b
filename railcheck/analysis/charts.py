"""The analyser's charts: the series drawn from a game's history, the
players' and companies' colours, and a small SVG renderer with no
dependency (for the self-contained HTML report).  ``railcheck plot`` draws
the same charts with matplotlib (``analysis/plot.py``).

* net worth of each player after each round boundary;
* share price of each company after each operating round;
* revenue of each company in each operating round.

Phase changes are marked on the time axis.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from html import escape

from .history import ACTION, END, History

WHAT = ("networth", "prices", "revenue")

#: players' colours, in seating order (distinct from most company colours)
PLAYER_COLORS = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4",
                 "#f032e6", "#9a6324"]


@dataclass
class Series:
    name: str
    color: str
    values: list              # one per x position; None where there is no value


@dataclass
class Chart:
    key: str
    title: str
    ylabel: str
    xlabels: list
    series: list = field(default_factory=list)
    phases: list = field(default_factory=list)    # (x position, phase name)
    bars: bool = False        # stacked bars (one per x position) instead of lines
    currency: str = ""        # the y values are money in this currency ("" for none)


def company_colors(rules) -> dict:
    """Each company's colour: the ruleset's, unless an earlier company of
    the title has the same (18Ireland's CBPR and DSER are both black), then a
    spare one (``railcheck.colors.distinct_colors``); the board's station
    markers use the same."""
    from ..colors import distinct_colors
    return distinct_colors([(spec.sym, getattr(spec, "color", None))
                            for spec in rules.corporations])


def player_colors(players) -> dict:
    return {p: PLAYER_COLORS[i % len(PLAYER_COLORS)] for i, p in enumerate(players)}


def _phases(rows) -> list:
    out, last = [], None
    for i, row in enumerate(rows):
        if last is not None and row.phase != last:
            out.append((i, row.phase))
        last = row.phase
    return out


def _label(row) -> str:
    if row.boundary == ACTION:
        return f"#{row.action_id}" if row.action_id is not None else f"l.{row.line}"
    return row.round + (" (end)" if row.boundary == END and not row.round.startswith("OR")
                        else "")


def networth_chart(hist: History) -> Chart:
    rows = hist.rows
    colors = player_colors(hist.players)
    ch = Chart("networth", "Net worth of each player", f"net worth ({hist.currency})",
               [_label(r) for r in rows], phases=_phases(rows), currency=hist.currency)
    for p in hist.players:
        ch.series.append(Series(p, colors[p], [r.players[p]["net_worth"] for r in rows]))
    return ch


def _or_rows(hist: History) -> list:
    return [r for r in hist.rows if r.round.startswith("OR") or r.boundary == ACTION]


def prices_chart(hist: History) -> Chart:
    rows = _or_rows(hist)
    colors = company_colors(hist.result.game.rules)
    ch = Chart("prices", "Share price of each company", f"share price ({hist.currency})",
               [_label(r) for r in rows], phases=_phases(rows), currency=hist.currency)
    for c in hist.companies:
        vals = [(r.companies.get(c) or {}).get("price") for r in rows]
        if any(v is not None for v in vals):
            ch.series.append(Series(c, colors.get(c, "#888"), vals))
    return ch


def revenue_chart(hist: History) -> Chart:
    rows = [r for r in hist.rows if r.round.startswith("OR") and r.boundary != ACTION]
    colors = company_colors(hist.result.game.rules)
    ch = Chart("revenue", "Revenue of each company per operating round (stacked)",
               f"revenue ({hist.currency})", [r.round for r in rows], phases=_phases(rows),
               bars=True, currency=hist.currency)
    for c in hist.companies:
        vals = [(r.companies.get(c) or {}).get("revenue") for r in rows]
        if any(v for v in vals):
            ch.series.append(Series(c, colors.get(c, "#888"), vals))
    return ch


BUILDERS = {"networth": networth_chart, "prices": prices_chart, "revenue": revenue_chart}


def charts(hist: History, what: str = "all") -> list[Chart]:
    keys = WHAT if what == "all" else (what,)
    return [BUILDERS[k](hist) for k in keys]


# ----------------------------------------------------------------------
# SVG, by hand

def ticks(lo: float, hi: float, count: int = 5) -> list[int]:
    """Round values for the y axis from at or below ``lo`` to at or above
    ``hi``, about ``count`` steps of 1, 2, 2.5 or 5 times a power of ten."""
    lo, hi = min(lo, 0), max(hi, 0)
    if hi <= lo:
        hi = lo + 10
    raw = (hi - lo) / count
    mag = 1
    while mag * 10 <= raw:
        mag *= 10
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    if step != int(step):               # 2.5 of a power of ten below 10
        step = 5 * mag
    step = int(step)
    first = math.floor(lo / step) * step
    out, v = [], first
    while True:
        out.append(v)
        if v >= hi:
            return out
        v += step


def money_label(v: int, currency: str) -> str:
    if not currency:
        return f"{v:,}"
    return f"{currency}{v:,}" if v >= 0 else f"-{currency}{-v:,}"


def label_rows(spans: list, gap: float = 4) -> list[int]:
    """The row of each label so that labels of one row do not overlap:
    ``spans`` are (start, end) positions in order; each label takes the
    lowest row whose last label ends ``gap`` before it starts."""
    ends: list = []
    rows = []
    for start, end in spans:
        for r, last in enumerate(ends):
            if last + gap <= start:
                ends[r] = end
                rows.append(r)
                break
        else:
            ends.append(end)
            rows.append(len(ends) - 1)
    return rows


#: width of a character of the charts' 11-pixel sans-serif text, on average
CHAR = 6.2


def render_svg(ch: Chart, width: int = 1100, height: int = 360) -> str:
    """A line chart (or a stacked bar chart) as an inline SVG element: the
    title, the phase changes marked (their labels above the plot, staggered
    where they would overlap), the y axis labelled with its quantity and
    currency, and a legend in as many columns as it needs."""
    n = max(1, len(ch.xlabels))
    # the legend: columns of 16-pixel rows beside the plot
    names = [s.name for s in ch.series]
    col_w = 30 + CHAR * max((len(x) for x in names), default=4)
    # the phase labels' rows, then the plot's top
    left, title_h = 74, 26
    plot_right = width - 20 - col_w       # refined below once the legend's columns are known
    bottom = 22 + int(CHAR * 0.72 * max((len(str(x)) for x in ch.xlabels), default=4))

    def layout(plot_right):
        pw = plot_right - left

        def x(i):
            if ch.bars:
                return left + pw * (i + 0.5) / n
            return left + (pw * i / (n - 1) if n > 1 else pw / 2)

        marks, spans = [], []
        for k, (i, name) in enumerate(ch.phases):
            xx = (x(i - 1) + x(i)) / 2 if i > 0 else x(i)
            text = f"phase {name}"
            w = CHAR * len(text)
            start = xx + 2 if xx + 2 + w <= width - 4 else xx - 2 - w
            marks.append((xx, text, start))
            spans.append((start, start + w))
        return pw, x, marks, label_rows(spans)

    pw, x, phase_marks, rows = layout(plot_right)
    band = 13 * (max(rows) + 1) if rows else 0
    top = title_h + band + 8
    ph = height - top - bottom
    per_col = max(1, int(ph // 16))
    cols = max(1, -(-len(names) // per_col))
    if cols > 1:
        pw, x, phase_marks, rows = layout(width - 20 - col_w * cols)
    vals = [v for s in ch.series for v in s.values if v is not None]
    if ch.bars:
        sums = [sum(s.values[i] or 0 for s in ch.series if i < len(s.values)
                    and (s.values[i] or 0) > 0) for i in range(n)]
        lo, hi = 0, max(sums, default=0)
    else:
        lo, hi = (min(vals), max(vals)) if vals else (0, 10)
    tk = ticks(lo, hi)
    lo, hi = tk[0], tk[-1]
    span = (hi - lo) or 1

    def y(v):
        return top + ph - ph * (v - lo) / span

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" data-chart="{ch.key}" '
           f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<title>{escape(ch.title)}</title>',
           f'<text x="{left}" y="18" font-size="14" font-weight="bold">{escape(ch.title)}</text>']
    for v in tk:
        yy = y(v)
        out.append(f'<line x1="{left}" y1="{yy:.1f}" x2="{left + pw}" y2="{yy:.1f}" '
                   f'stroke="#ddd"/>')
        out.append(f'<text class="tick" x="{left - 6}" y="{yy + 4:.1f}" text-anchor="end" '
                   f'fill="#444">{escape(money_label(v, ch.currency))}</text>')
    ymid = top + ph / 2
    out.append(f'<text class="ylabel" x="14" y="{ymid:.1f}" text-anchor="middle" '
               f'fill="#222" transform="rotate(-90 14 {ymid:.1f})">{escape(ch.ylabel)}</text>')
    out.append(f'<line x1="{left}" y1="{y(lo):.1f}" x2="{left + pw}" y2="{y(lo):.1f}" '
               f'stroke="#444"/>')
    out.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + ph}" stroke="#444"/>')
    every = max(1, -(-n * 15 // max(1, int(pw))))
    for i, lab in enumerate(ch.xlabels):
        if i % every:
            continue
        xx = x(i)
        out.append(f'<text x="{xx:.1f}" y="{top + ph + 12}" text-anchor="end" fill="#444" '
                   f'transform="rotate(-45 {xx:.1f} {top + ph + 12})">{escape(str(lab))}</text>')
    for (xx, text, start), row in zip(phase_marks, rows):
        ly = title_h + 10 + 13 * row
        out.append(f'<line class="phase" x1="{xx:.1f}" y1="{ly + 2}" x2="{xx:.1f}" '
                   f'y2="{top + ph}" stroke="#999" stroke-dasharray="4 3"/>')
        out.append(f'<text class="phase-label" x="{start:.1f}" y="{ly}" fill="#555">'
                   f'{escape(text)}</text>')
    if ch.bars and ch.series:
        bw = pw / n * 0.7
        for i in range(n):
            base = 0
            for s in ch.series:
                v = s.values[i] if i < len(s.values) else None
                if not v or v <= 0:
                    continue
                out.append(f'<rect class="bar" x="{x(i) - bw / 2:.1f}" y="{y(base + v):.1f}" '
                           f'width="{bw:.1f}" height="{y(base) - y(base + v):.1f}" '
                           f'fill="{s.color}" stroke="#fff" stroke-width="0.5">'
                           f'<title>{escape(s.name)} {escape(str(ch.xlabels[i]))}: '
                           f'{escape(money_label(v, ch.currency))}</title></rect>')
                base += v
    else:
        from ..colors import brightness
        for s in ch.series:
            pts, segs = [], []
            for i, v in enumerate(s.values):
                if v is None:
                    if pts:
                        segs.append(pts)
                    pts = []
                    continue
                pts.append(f"{x(i):.1f},{y(v):.1f}")
            if pts:
                segs.append(pts)
            for pts in segs:
                if brightness(s.color) > 190:       # a light colour: a dark edge to read on white
                    out.append(f'<polyline points="{" ".join(pts)}" fill="none" '
                               f'stroke="#666" stroke-width="3.6"/>')
                out.append(f'<polyline class="series" data-series="{escape(s.name)}" '
                           f'points="{" ".join(pts)}" fill="none" stroke="{s.color}" '
                           f'stroke-width="2"><title>{escape(s.name)}</title></polyline>')
    lx0 = left + pw + 16
    # a stacked chart lists its companies top-down as the bars stack them
    order = list(reversed(ch.series)) if ch.bars else ch.series
    for k, s in enumerate(order):
        lx = lx0 + col_w * (k // per_col)
        ly = top + 8 + (k % per_col) * 16
        out.append(f'<rect x="{lx}" y="{ly - 8}" width="12" height="10" '
                   f'fill="{s.color}" stroke="#333" stroke-width="0.5"/>')
        out.append(f'<text x="{lx + 16}" y="{ly + 1}" class="legend">'
                   f'{escape(s.name)}</text>')
    out.append("</svg>")
    return "\n".join(out)
