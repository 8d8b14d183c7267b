"""``railcheck plot``: the analyser's charts drawn with matplotlib (the
optional extra ``pip install 'railcheck[plots]'``), as SVG or PNG.

matplotlib is imported here only, when the command runs, so the checker's
start-up does not pay for it.
"""

from __future__ import annotations

from .charts import Chart, charts, label_rows, money_label

EXTRA_MESSAGE = ("railcheck plot needs matplotlib, an optional extra: "
                 "pip install 'railcheck[plots]'")


class MissingExtra(Exception):
    pass


def _pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise MissingExtra(EXTRA_MESSAGE) from None
    return plt


def _draw(ax, ch: Chart):
    n = len(ch.xlabels)
    xs = list(range(n))
    if ch.bars and ch.series:
        # stacked: one bar per operating round, as wide as with one company
        base = [0] * n
        for s in ch.series:
            vals = [v if v and v > 0 else 0 for v in s.values]
            ax.bar(xs, vals, width=0.7, bottom=base, color=s.color, label=s.name,
                   edgecolor="#fff", linewidth=0.4)
            base = [b + v for b, v in zip(base, vals)]
    else:
        from ..colors import brightness
        for s in ch.series:
            ys = [float("nan") if v is None else v for v in s.values]
            if brightness(s.color) > 190:       # a light colour: a dark edge to read on white
                ax.plot(xs, ys, color="#666", linewidth=3.4)
            ax.plot(xs, ys, color=s.color, label=s.name, linewidth=2)
    step = max(1, n // 24)
    ax.set_xticks(xs[::step])
    ax.set_xticklabels(ch.xlabels[::step], rotation=45, ha="right", fontsize=7)
    ax.set_xlim(-0.6, n - 0.4)
    ax.set_title(ch.title)
    ax.set_ylabel(ch.ylabel)
    if ch.currency:
        from matplotlib.ticker import FuncFormatter
        ax.yaxis.set_major_formatter(FuncFormatter(
            lambda v, _pos: money_label(int(round(v)), ch.currency)))
    ax.grid(axis="y", color="#ddd")
    ax.set_axisbelow(True)
    handles, labels = ax.get_legend_handles_labels()
    if ch.bars:                 # the legend top-down as the bars stack
        handles, labels = handles[::-1], labels[::-1]
    ax.legend(handles, labels, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1),
              ncol=1 if len(labels) <= 14 else 2)
    return ax


def _mark_phases(fig, ax, ch: Chart) -> list:
    """The phase changes: a dashed line each, and their labels above the
    plot (returned, to be staggered by ``_stagger`` once the layout is
    known)."""
    texts = []
    for i, name in ch.phases:
        ax.axvline(i - 0.5, color="#999", linestyle="--", linewidth=0.8)
        texts.append(ax.annotate(f"phase {name}", (i - 0.5, 1),
                                 xycoords=("data", "axes fraction"), xytext=(2, 3),
                                 textcoords="offset points", fontsize=7, color="#555",
                                 va="bottom", annotation_clip=False))
    return texts


def _stagger(fig, ax, ch: Chart, texts: list) -> int:
    """Put the phase labels on as many rows as it takes for none to overlap
    another (their widths measured as drawn); returns the rows."""
    if not texts:
        return 0
    renderer = fig.canvas.get_renderer()
    spans = []
    for (i, _), t in zip(ch.phases, texts):
        x0 = ax.transData.transform((i - 0.5, 0))[0]
        spans.append((x0, x0 + t.get_window_extent(renderer).width + 4))
    rows = label_rows(spans, gap=3)
    for t, row in zip(texts, rows):
        t.set_position((2, 3 + 9 * row))
    return max(rows) + 1


def figure(hist, what: str = "all"):
    """The matplotlib figure of the charts ``what`` ('all' or one of
    charts.WHAT), one plot under another.  Raises MissingExtra without
    matplotlib."""
    return figure_of(charts(hist, what), f"{hist.title}: {hist.path}")


def figure_of(chs: list, title: str):
    """The figure of the charts ``chs``, one under another, under ``title``."""
    plt = _pyplot()
    fig, axes = plt.subplots(len(chs), 1, figsize=(11, 4.2 * len(chs)), squeeze=False)
    labels = []
    for ax, ch in zip(axes[:, 0], chs):
        _draw(ax, ch)
        labels.append(_mark_phases(fig, ax, ch))
    fig.suptitle(title, fontsize=10)
    # the labels' rows depend on the plot's width, the plot's room on their
    # rows: laid out again until both settle (twice, at most three times)
    rows = None
    for _ in range(3):
        fig.tight_layout()
        now = [_stagger(fig, ax, ch, texts) for ax, ch, texts in zip(axes[:, 0], chs, labels)]
        if now == rows:
            break
        rows = now
        for ax, ch, n in zip(axes[:, 0], chs, rows):
            ax.set_title(ch.title, pad=6 + 9 * n)
    return fig


def plot(hist, what: str, path: str) -> None:
    """Draw the charts ``what`` ('all' or one of charts.WHAT) into ``path``
    (.svg or .png).  Raises MissingExtra without matplotlib, OSError when the
    file cannot be written."""
    fig = figure(hist, what)
    plt = _pyplot()
    try:
        fig.savefig(path, format=path.rsplit(".", 1)[-1].lower())
    finally:
        plt.close(fig)
