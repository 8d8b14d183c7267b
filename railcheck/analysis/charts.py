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

from dataclasses import dataclass, field
from html import escape

from .history import ACTION, END, History

WHAT = ("networth", "prices", "revenue")

#: players' colours, in seating order (distinct from most company colours)
PLAYER_COLORS = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4",
                 "#f032e6", "#9a6324"]
#: companies whose ruleset gives no colour
FALLBACK = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
            "#7f7f7f", "#bcbd22", "#17becf"]


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
    bars: bool = False


def company_colors(rules) -> dict:
    out = {}
    for i, spec in enumerate(rules.corporations):
        out[spec.sym] = spec.color or FALLBACK[i % len(FALLBACK)]
    return out


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
               [_label(r) for r in rows], phases=_phases(rows))
    for p in hist.players:
        ch.series.append(Series(p, colors[p], [r.players[p]["net_worth"] for r in rows]))
    return ch


def _or_rows(hist: History) -> list:
    return [r for r in hist.rows if r.round.startswith("OR") or r.boundary == ACTION]


def prices_chart(hist: History) -> Chart:
    rows = _or_rows(hist)
    colors = company_colors(hist.result.game.rules)
    ch = Chart("prices", "Share price of each company", f"price ({hist.currency})",
               [_label(r) for r in rows], phases=_phases(rows))
    for c in hist.companies:
        vals = [(r.companies.get(c) or {}).get("price") for r in rows]
        if any(v is not None for v in vals):
            ch.series.append(Series(c, colors.get(c, "#888"), vals))
    return ch


def revenue_chart(hist: History) -> Chart:
    rows = [r for r in hist.rows if r.round.startswith("OR") and r.boundary != ACTION]
    colors = company_colors(hist.result.game.rules)
    ch = Chart("revenue", "Revenue of each company per operating round",
               f"revenue ({hist.currency})", [r.round for r in rows], phases=_phases(rows),
               bars=True)
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

def _nice_max(v: int) -> int:
    if v <= 0:
        return 10
    step = 1
    while step * 10 < v:
        step *= 10
    for m in (1, 2, 2.5, 5, 10):
        if step * m >= v:
            return int(step * m)
    return int(step * 10)


def render_svg(ch: Chart, width: int = 900, height: int = 340) -> str:
    """A line (or grouped bar) chart as an inline SVG element."""
    left, right, top, bottom = 80, 130, 34, 70
    pw, ph = width - left - right, height - top - bottom
    n = max(1, len(ch.xlabels))
    vals = [v for s in ch.series for v in s.values if v is not None]
    lo = min(0, min(vals)) if vals else 0
    hi = _nice_max(max(vals)) if vals else 10
    span = (hi - lo) or 1

    def x(i):
        if ch.bars:
            return left + pw * (i + 0.5) / n
        return left + (pw * i / (n - 1) if n > 1 else pw / 2)

    def y(v):
        return top + ph - ph * (v - lo) / span

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" data-chart="{ch.key}" '
           f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<title>{escape(ch.title)}</title>',
           f'<text x="{left}" y="18" font-size="14" font-weight="bold">{escape(ch.title)}</text>']
    for k in range(5):
        v = lo + span * k / 4
        yy = y(v)
        out.append(f'<line x1="{left}" y1="{yy:.1f}" x2="{left + pw}" y2="{yy:.1f}" '
                   f'stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{yy + 4:.1f}" text-anchor="end" fill="#444">'
                   f'{int(v)}</text>')
    out.append(f'<line x1="{left}" y1="{top + ph}" x2="{left + pw}" y2="{top + ph}" '
               f'stroke="#444"/>')
    every = max(1, n // 24)
    for i, lab in enumerate(ch.xlabels):
        if i % every:
            continue
        xx = x(i)
        out.append(f'<text x="{xx:.1f}" y="{top + ph + 12}" text-anchor="end" fill="#444" '
                   f'transform="rotate(-45 {xx:.1f} {top + ph + 12})">{escape(str(lab))}</text>')
    for k, (i, name) in enumerate(ch.phases):
        xx = (x(i - 1) + x(i)) / 2 if i > 0 else x(i)
        out.append(f'<line class="phase" x1="{xx:.1f}" y1="{top}" x2="{xx:.1f}" '
                   f'y2="{top + ph}" stroke="#999" stroke-dasharray="4 3"/>')
        # labels of close phase changes take turns on two lines
        out.append(f'<text x="{xx + 2:.1f}" y="{top + 10 + 12 * (k % 2)}" fill="#666">phase '
                   f'{escape(name)}</text>')
    if ch.bars and ch.series:
        group = pw / n * 0.8
        bw = group / len(ch.series)
        for si, s in enumerate(ch.series):
            for i, v in enumerate(s.values):
                if not v:
                    continue
                bx = x(i) - group / 2 + si * bw
                out.append(f'<rect x="{bx:.1f}" y="{y(v):.1f}" width="{max(bw - 0.5, 0.5):.1f}" '
                           f'height="{y(lo) - y(v):.1f}" fill="{s.color}" stroke="#333" '
                           f'stroke-width="0.3"><title>{escape(s.name)} {escape(ch.xlabels[i])}: '
                           f'{v}</title></rect>')
    else:
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
                out.append(f'<polyline points="{" ".join(pts)}" fill="none" stroke="{s.color}" '
                           f'stroke-width="2"/>')
    for si, s in enumerate(ch.series):
        ly = top + 8 + si * 16
        out.append(f'<rect x="{left + pw + 12}" y="{ly - 8}" width="12" height="10" '
                   f'fill="{s.color}" stroke="#333" stroke-width="0.5"/>')
        out.append(f'<text x="{left + pw + 28}" y="{ly + 1}" class="legend">'
                   f'{escape(s.name)}</text>')
    out.append("</svg>")
    return "\n".join(out)
