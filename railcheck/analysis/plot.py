"""``railcheck plot``: the analyser's charts drawn with matplotlib (the
optional extra ``pip install 'railcheck[plots]'``), as SVG or PNG.

matplotlib is imported here only, when the command runs, so the checker's
start-up does not pay for it.
"""

from __future__ import annotations

from .charts import Chart, charts

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
        width = 0.8 / len(ch.series)
        for si, s in enumerate(ch.series):
            ax.bar([x - 0.4 + (si + 0.5) * width for x in xs],
                   [v or 0 for v in s.values], width=width, color=s.color, label=s.name,
                   edgecolor="#333", linewidth=0.3)
    else:
        for s in ch.series:
            ax.plot(xs, [float("nan") if v is None else v for v in s.values], color=s.color,
                    label=s.name, linewidth=2)
    for i, name in ch.phases:
        ax.axvline(i - 0.5, color="#999", linestyle="--", linewidth=0.8)
        ax.annotate(f"phase {name}", (i - 0.5, 1), xycoords=("data", "axes fraction"),
                    xytext=(2, -10), textcoords="offset points", fontsize=7, color="#555")
    step = max(1, n // 24)
    ax.set_xticks(xs[::step])
    ax.set_xticklabels(ch.xlabels[::step], rotation=45, ha="right", fontsize=7)
    ax.set_title(ch.title)
    ax.set_ylabel(ch.ylabel)
    ax.grid(axis="y", color="#ddd")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))


def plot(hist, what: str, path: str) -> None:
    """Draw the charts ``what`` ('all' or one of charts.WHAT) into ``path``
    (.svg or .png).  Raises MissingExtra without matplotlib, OSError when the
    file cannot be written."""
    plt = _pyplot()
    chs = charts(hist, what)
    fig, axes = plt.subplots(len(chs), 1, figsize=(11, 3.8 * len(chs)), squeeze=False)
    for ax, ch in zip(axes[:, 0], chs):
        _draw(ax, ch)
    fig.suptitle(f"{hist.title}: {hist.path}", fontsize=10)
    fig.tight_layout()
    try:
        fig.savefig(path, format=path.rsplit(".", 1)[-1].lower())
    finally:
        plt.close(fig)
