"""``railcheck report``: one self-contained HTML page per game (no network
needed: CSS and SVG inline) and, for several games, an index page with the
league table.  The pages are Jinja2 templates (``railcheck/templates/``);
jinja2 is imported by this module only.

A game page: the header (title, players, date, result), the findings with
the record's line in context and the rule explained, the standings and
company tables, the charts, the board at the end and at each finding, and
(with ``routes``) the hindsight runs.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from ..findings import ERROR, InputError

#: boards drawn at findings, per game (the first errors)
MAX_FINDING_BOARDS = 12
#: lines of the record shown before and after a finding's line
CONTEXT = 2


class ReportError(Exception):
    """An output the report cannot write (str() says why)."""


@dataclass
class FindingView:
    index: int
    severity: str
    rule: str
    message: str
    where: str
    context: list = field(default_factory=list)      # [(line number, text, is the line)]
    action: str = ""
    rule_summary: str = ""
    rule_meaning: str = ""
    rule_source: str = ""
    board: Optional[str] = None
    board_note: str = ""           # what the board marks ("the hex of this tile lay")
    consequential: bool = False


@dataclass
class GamePage:
    path: str
    file: str                 # the page's file name
    title: str = ""
    players: list = field(default_factory=list)
    date: str = ""
    status: str = ""
    winner: str = ""
    error: str = ""            # the game could not be read at all
    findings: list = field(default_factory=list)
    errors: int = 0
    #: a file found in a folder that is no game record (no page is written)
    not_a_game: bool = False


def _env():
    try:
        import jinja2
    except ImportError:     # pragma: no cover - a dependency of railcheck
        raise ReportError("the HTML report needs jinja2: pip install jinja2") from None
    env = jinja2.Environment(loader=jinja2.PackageLoader("railcheck", "templates"),
                             autoescape=True, trim_blocks=True, lstrip_blocks=True)
    env.filters["breakable"] = _breakable
    return env


def _breakable(path: str):
    """A path that a narrow table cell may wrap after each '/', '_' or '-'
    (an HTML <wbr> there) rather than in the middle of a name."""
    from markupsafe import Markup, escape
    out = escape(path)
    for ch in "/_-":
        out = out.replace(ch, Markup(ch + "<wbr>"))
    return Markup(out)


def _money(amount, cur="$") -> str:
    if amount is None:
        return ""
    return f"{cur}{amount:,}" if amount >= 0 else f"-{cur}{-amount:,}"


def _context(lines: list, f) -> list:
    if not f.line or not lines or f.line > len(lines):
        return []
    lo, hi = max(1, f.line - CONTEXT), min(len(lines), f.line + CONTEXT)
    return [(n, lines[n - 1], n == f.line) for n in range(lo, hi + 1)]


def _where(f) -> str:
    parts = []
    if f.line:
        parts.append(f"line {f.line}" + (f":{f.column}" if f.column else ""))
    if f.action_id is not None:
        parts.append(f"action #{f.action_id}")
    return ", ".join(parts) or "the whole game"


def game_page(path: str, file: str, env, *, routes: bool = False,
              route_limit: float = 2.0, ruleset=None,
              board: bool = True) -> tuple[GamePage, str, object]:
    """The page of one game: (its summary for the index, the HTML, its
    FileReport-like result for the league)."""
    from ..board.render import marks_of_action, render_svg as board_svg
    from ..loader import load_game, read_text
    from ..rule_catalogue import CATALOGUE
    from .charts import charts, render_svg
    from .history import history_of

    from ..loader import STDIN, STDIN_NAME
    from ..findings import NotAGame
    page = GamePage(path=STDIN_NAME if path == STDIN else path, file=file)
    try:
        text = read_text(path)
        record, read_findings = load_game(path, text, ruleset=ruleset)
    except InputError as exc:
        page.not_a_game = isinstance(exc, NotAGame)
        page.error = str(exc)
        page.status = "unreadable"
        html = env.get_template("game.html").render(page=page, css=CSS)
        return page, html, None

    boards: dict = {}
    seen = [0]

    def on_finding_board(g, action):
        """The board as it is right after an illegal action was found, with
        the hex, city or run of the action ringed."""
        seen[0] = min(seen[0], len(g.findings))   # a round taken up again drops findings
        while seen[0] < len(g.findings):
            i = seen[0]
            seen[0] += 1
            if g.board is not None and g.findings[i].severity == ERROR \
                    and len(boards) < MAX_FINDING_BOARDS:
                marks = marks_of_action(action)
                svg = board_svg(g.board, colors=_colors(g.rules), marks=marks)
                boards[i] = (svg, marks.what if marks else "")

    try:
        hist = history_of(path, record=record, read_findings=read_findings, board=board,
                          on_action=on_finding_board)
    except InputError as exc:       # e.g. a player count the title does not allow
        page.error = str(exc) if exc.path else f"{path}: {exc.bare}"
        page.status = "unreadable"
        html = env.get_template("game.html").render(page=page, css=CSS)
        return page, html, None
    res = hist.result
    g = res.game
    if routes:
        from .hindsight import hindsight
        hist.runs = hindsight(path, limit=route_limit, record=record)
    lines = text.splitlines() if not record.from_export else []
    views = []
    all_findings = list(read_findings) + list(res.findings)
    offset = len(read_findings)
    for k, f in enumerate(all_findings):
        rule = CATALOGUE.get(f.rule)
        views.append(FindingView(
            index=k + 1, severity=f.severity, rule=f.rule, message=f.message, where=_where(f),
            context=_context(lines, f), action=f.text or "",
            rule_summary=rule.summary if rule else "", rule_meaning=rule.meaning if rule else "",
            rule_source=rule.source if rule else "",
            board=boards[k - offset][0] if k >= offset and k - offset in boards else None,
            board_note=boards[k - offset][1] if k >= offset and k - offset in boards else "",
            consequential=f.consequential))
    page.title = res.title or ""
    page.players = list(res.players)
    from .league import game_date
    page.date = game_date(path, text)
    # illegal actions: an action that breaks several rules counts once
    page.errors = len({(f.line, f.column, f.action_id) for f in all_findings
                       if f.severity == ERROR})
    page.findings = views
    if res.finished:
        from ..report import end_reason_text
        reason = end_reason_text(res.end_reason)
        page.status = f"game over: {reason}" if reason else "game over"
    else:
        page.status = f"not finished (the record stops in {res.round})"
    top = [r for r in res.standings if r["rank"] == 1]
    page.winner = ", ".join(r["player"] for r in top) if res.finished else ""
    cur = res.currency
    chart_svgs = [(c.key, c.title, render_svg(c)) for c in charts(hist)]
    from markupsafe import Markup
    html = env.get_template("game.html").render(
        page=page, css=CSS, res=res, money=lambda v: _money(v, cur), hist=hist,
        charts=[(k, t, Markup(svg)) for k, t, svg in chart_svgs],
        board=Markup(board_svg(g.board, colors=_colors(g.rules))) if g.board is not None
        else None,
        findings=[_marked(v, Markup) for v in views],
        runs=hist.runs, history_rows=hist.rows, companies=hist.companies,
        incomplete=hist.incomplete, ruleset=res.ruleset, colors=_colors(g.rules))
    from ..report import FileReport
    return page, html, FileReport(path=page.path, result=res)


def _marked(view, Markup):
    if view.board is not None:
        view.board = Markup(view.board)
    return view


def _colors(rules) -> dict:
    """The companies' colours, the same on the board, the tables and the
    charts (no two alike: ``charts.company_colors``)."""
    from .charts import company_colors
    return company_colors(rules)


def _page_names(files: list) -> list[str]:
    """One page name per game, unique within the folder."""
    from ..loader import STDIN
    out, seen = [], set()
    for f in files:
        if f == STDIN:
            stem = "stdin"          # a game read from standard input
        else:
            name = Path(f).name
            if name.lower().endswith(".gz"):
                name = name[:-3]
            stem = Path(name).stem or "game"
        name, k = f"{stem}.html", 1
        while name in seen or name == "index.html":
            k += 1
            name = f"{stem}-{k}.html"
        seen.add(name)
        out.append(name)
    return out


_ENV: list = []


def _shared_env():
    """The templates' environment, made once per process (its templates are
    compiled once)."""
    if not _ENV:
        _ENV.append(_env())
    return _ENV[0]


def _page_job(job):
    path, name, routes, route_limit, ruleset, board = job
    page, html, rep = game_page(path, name, _shared_env(), routes=routes, route_limit=route_limit,
                                ruleset=ruleset, board=board)
    if rep is not None and rep.result is not None:
        rep.result.game = None      # the index needs the standings, not the game
    return page, html, rep


def _pages(jobs_: list, jobs: int):
    """(page, html, report) of each game, in order: in ``jobs`` processes
    (forked, where the system can) when there are several games, else here."""
    import multiprocessing
    parallel = (jobs > 1 and len(jobs_) > 1 and "-" not in [j[0] for j in jobs_]
                and "fork" in multiprocessing.get_all_start_methods())
    if not parallel:
        yield from map(_page_job, jobs_)
        return
    # what every page needs, loaded here once: the forked workers inherit it
    env = _shared_env()
    env.get_template("game.html")
    from ..board import render  # noqa: F401
    from ..engine import Replay  # noqa: F401
    from . import charts, history  # noqa: F401
    with multiprocessing.get_context("fork").Pool(min(jobs, len(jobs_))) as pool:
        yield from pool.imap(_page_job, jobs_)


def _shown_paths(paths: list) -> tuple[str, dict]:
    """The folder all the games are in (said once above the index) and each
    game's path from there, so that the index's first column stays narrow;
    ("", {}) when they share no folder."""
    dirs = [os.path.dirname(p) for p in paths]
    try:
        common = os.path.commonpath(dirs) if dirs and all(dirs) else ""
    except ValueError:          # absolute and relative paths mixed
        common = ""
    if not common or common in (".", os.sep):
        return "", {}
    return common, {p: os.path.relpath(p, common) for p in paths}


def write_reports(files: list, outdir: str, *, force: bool = False, routes: bool = False,
                  route_limit: float = 2.0, index: Optional[bool] = None, ruleset=None,
                  named=frozenset(), progress=None, jobs: int = 1,
                  board: bool = True) -> tuple[list[str], list[GamePage]]:
    """Write a page per game (and an index, by default for several) into ``outdir``;
    returns the paths written and the games' summaries.  A file found in a
    folder that is no game record gets no page (its summary says so; one
    ``named`` on the command line does).  ``progress(i, path)`` is called
    before each game.  Raises ReportError for an output it may not write (an
    existing page without ``force``, a path over an input)."""
    from ..outputs import OutputRefused, check_output, write_output
    from . import league as L

    if os.path.exists(outdir) and not os.path.isdir(outdir):
        raise ReportError(f"{outdir} is a file, not a folder; give a folder for the pages")
    try:
        os.makedirs(outdir, exist_ok=True)
    except OSError as exc:
        raise ReportError(f"{outdir}: cannot make the folder: {exc.strerror or exc}") from None
    if not os.path.isdir(outdir):
        raise ReportError(f"{outdir} is not a folder")
    names = _page_names(files)
    targets = [os.path.join(outdir, n) for n in names]
    if index is None:
        index = len(files) > 1
    index = os.path.join(outdir, "index.html") if index else None
    for t in targets + ([index] if index else []):
        try:
            check_output(t, files, force=force, what="the HTML report")
        except OutputRefused as exc:
            raise ReportError(str(exc)) from None
    pages, reports, written = [], [], []
    jobs_ = [(path, name, routes, route_limit, ruleset, board or routes)
             for path, name in zip(files, names)]
    for i, ((path, _, _, _, _, _), target, (page, html, rep)) in enumerate(
            zip(jobs_, targets, _pages(jobs_, jobs))):
        if progress is not None:
            progress(i + 1, path)
        if page.not_a_game and path not in named:
            pages.append(page)
            continue
        problem = write_output(target, html)
        if problem:
            raise ReportError(problem)
        written.append(target)
        pages.append(page)
        if rep is not None:
            reports.append(rep)
    if index:
        lg = L.build(reports)
        listed = [p for p in pages if not p.not_a_game or p.path in named]
        folder, shown = _shown_paths([p.path for p in listed])
        html = _shared_env().get_template("index.html").render(
            css=CSS, pages=listed, table=[dict(rank=i, **e.to_dict())
                                         for i, e in enumerate(lg.table(), 1)],
            not_counted=lg.not_counted, page_of={p.path: p.file for p in pages},
            folder=folder, shown=shown)
        problem = write_output(index, html)
        if problem:
            raise ReportError(problem)
        written.append(index)
    return written, pages


CSS = """
body { font-family: 'Segoe UI', 'Helvetica Neue', Arial, 'DejaVu Sans', sans-serif; margin: 0 auto;
       max-width: 1200px; padding: 1em 2em; color: #222; background: #fafaf7; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 2px solid #ccc; margin-top: 1.6em; }
.meta { color: #555; margin: 0.2em 0; }
.ok { color: #2a7a2a; font-weight: bold; } .bad { color: #b22; font-weight: bold; }
table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.92em; }
.wide { overflow-x: auto; max-width: 100%; }
td.path { overflow-wrap: break-word; min-width: 10em; }
td.nowrap, .nw { white-space: nowrap; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th { background: #eee; } td.name, th.name { text-align: left; }
tr.winner td { background: #fff6cc; }
.finding { border-left: 5px solid #b22; background: #fff; padding: 0.5em 1em;
           margin: 0.8em 0; box-shadow: 0 1px 2px #ccc; }
.finding.warning { border-left-color: #d90; } .finding.info { border-left-color: #48c; }
.finding .rule { font-family: monospace; background: #eee; padding: 0 0.3em; }
pre.context { background: #f4f4f0; padding: 0.4em; overflow-x: auto; margin: 0.4em 0; }
pre.context .hit { background: #ffd7d7; font-weight: bold; display: block; }
.explain { color: #444; font-size: 0.92em; }
.chart { background: #fff; border: 1px solid #ddd; margin: 0.5em 0; max-width: 100%;
         height: auto; }
.board { background: #fff; border: 1px solid #ddd; width: 100%; height: auto; }
details summary { cursor: pointer; color: #246; }
.swatch { display: inline-block; width: 0.9em; height: 0.9em; border: 1px solid #333;
          vertical-align: middle; margin-right: 0.3em; }
.note { background: #fff3cd; border: 1px solid #e0c060; padding: 0.4em 0.8em; }
"""
