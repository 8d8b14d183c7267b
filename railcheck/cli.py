"""The railcheck command line.

Exit codes (all commands): 0 = everything legal, 1 = findings (errors, or
warnings with ``--fail-on warning``), 2 = usage error or a file that could
not be read or parsed.  Heavy modules are imported lazily so that start-up
stays fast.
"""

from __future__ import annotations

import os
import sys
import time

import click

from .findings import InputError

FORMATS = ["text", "json", "junit", "github"]
RULESET_HELP = ("Play the games with this ruleset file (a house rule or variant that extends "
                "the title; see docs/rulesets.md) instead of the header's 'ruleset:' or the "
                "title's own.")


def _use_color(flag) -> bool:
    if flag is not None:
        return flag
    if os.environ.get("NO_COLOR") or os.environ.get("CI"):
        return False
    return sys.stdout.isatty()


def check_file(path: str, check_board: bool = True, keep_game: bool = True, ruleset=None):
    """Validate one file (with a user's ruleset file, if given); never raises
    (errors become part of the report)."""
    from .engine import Replay
    from .loader import load_game
    from .report import FileReport

    start = time.perf_counter()
    rep = FileReport(path=path)
    try:
        record, read_findings = load_game(path, ruleset=ruleset)
        rep.read_findings = read_findings
        # an export's passes follow the site's steps, which depend on the map:
        # exports are always replayed with it
        board = check_board or record.from_export
        rep.result = Replay(record, check_board=board).run()
        if not keep_game:
            rep.result.game = None
    except InputError as exc:
        rep.error = exc
    except RecursionError:
        rep.error = InputError("input nested too deeply to read", path=path)
    except Exception as exc:  # never a traceback for the user
        rep.error = InputError(f"internal error while checking this file "
                               f"({type(exc).__name__}: {exc}); please report it", path=path)
    rep.seconds = time.perf_counter() - start
    return rep


def _check_one_for_pool(args):
    path, board, ruleset = args
    return check_file(path, board, keep_game=False, ruleset=ruleset)


def run_checks(files: list[str], *, jobs: int, board: bool, progress: bool, ruleset=None):
    reports = []
    total = len(files)

    def tick(i, path):
        if progress:
            width = 30
            done = width * i // total
            bar = "#" * done + "-" * (width - done)
            sys.stderr.write(f"\r\x1b[K[{bar}] {i}/{total} {path[-50:]}")
            sys.stderr.flush()

    if jobs > 1 and total > 1:
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for i, rep in enumerate(pool.map(_check_one_for_pool, [(f, board, ruleset) for f in files],
                                             chunksize=max(1, total // (jobs * 8))), 1):
                e = rep.error
                if e is not None:  # an exception's str() does not survive pickling: rebuild it
                    rep.error = InputError(e.bare, path=e.path, line=e.line, column=e.column,
                                           context=e.context)
                reports.append(rep)
                tick(i, rep.path)
    else:
        for i, f in enumerate(files, 1):
            tick(i, f)
            reports.append(check_file(f, board, keep_game=total == 1, ruleset=ruleset))
    if progress:
        sys.stderr.write("\r\x1b[K")
        sys.stderr.flush()
    return reports


def exit_code(reports, fail_on: str) -> int:
    if any(r.error is not None for r in reports):
        return 2
    for r in reports:
        for f in r.findings:
            if f.severity == "error" or (fail_on == "warning" and f.severity == "warning"):
                return 1
    return 0


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="railcheck")
def main():
    """railcheck: replay 18xx game logs under the title's rules, flag every
    illegal action and score the end of the game.

    Game logs are railcheck notation (*.18xx, see docs/notation.md) or
    exports from 18xx.games (*.json)."""


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="Report format.")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Validate files in this many parallel processes.")
@click.option("--fail-on", type=click.Choice(["error", "warning"]), default="error",
              show_default=True, help="Which findings make the exit code 1.")
@click.option("--quiet", "-q", is_flag=True, help="Findings and summary only: no tables.")
@click.option("--color/--no-color", default=None, help="Colour the text report "
              "(default: only on a terminal, never with NO_COLOR or CI set).")
@click.option("--no-board", is_flag=True, help="Skip the map checks (tile lays, stations, "
              "routes) of hand-written logs; money is still checked.  18xx.games exports are "
              "always replayed with the map, since the site's order of steps depends on it.")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="Write the report to this file instead of standard output.")
@click.option("--ruleset", type=click.Path(exists=True, dir_okay=False), default=None,
              help=RULESET_HELP)
def validate(paths, fmt, jobs, fail_on, quiet, color, no_board, output, ruleset):
    """Replay game logs (files or folders) and report illegal actions.

    Folders are searched for *.18xx and *.json files.  Exit 0 when every
    game is legal, 1 when any has findings, 2 when a file cannot be read."""
    from .loader import collect_paths
    from .report import FileReport, render_github, render_json, render_junit, render_text

    files, missing = collect_paths(paths)
    progress = (fmt == "text" and sys.stderr.isatty() and not os.environ.get("CI")
                and len(files) > 1 and not quiet)
    reports = run_checks(files, jobs=jobs, board=not no_board, progress=progress, ruleset=ruleset)
    reports += [FileReport(path=e.path, error=e) for e in missing]
    if fmt == "json":
        text = render_json(reports)
    elif fmt == "junit":
        text = render_junit(reports)
    elif fmt == "github":
        text = render_github(reports)
    else:
        text = render_text(reports, color=_use_color(color) and output is None, quiet=quiet)
    # click strips colour codes when stdout is not a terminal: --color forces them
    color = bool(color) and fmt == "text" and output is None
    if output and any(os.path.exists(f) and os.path.exists(output)
                      and os.path.samefile(f, output) for f in files):
        click.echo(f"error: refusing to write the report over the game log {output}", err=True)
        sys.exit(2)
    _emit(text, output, color=color or None)
    sys.exit(exit_code(reports, fail_on))


def _emit(text: str, output, color=None):
    if output:
        try:
            with open(output, "w", encoding="utf-8", errors="replace") as fh:
                fh.write(text)
        except OSError as exc:
            click.echo(f"error: {output}: cannot write the report: {exc.strerror or exc}", err=True)
            sys.exit(2)
    else:
        try:
            click.echo(text, nl=False, color=color)
        except UnicodeEncodeError:  # e.g. a file name that is not UTF-8, on a strict stdout
            click.echo(text.encode("utf-8", "replace").decode("utf-8"), nl=False)


@main.command()
@click.argument("path")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.option("--no-board", is_flag=True, help="Skip the map checks.")
@click.option("--ruleset", type=click.Path(exists=True, dir_okay=False), default=None,
              help=RULESET_HELP)
def score(path, fmt, no_board, ruleset):
    """Print the standings (net worth) at the end of a game log."""
    from .report import render_json, render_score

    rep = check_file(path, not no_board, ruleset=ruleset)
    if rep.error is not None:
        click.echo(f"error: {rep.error}", err=True)
        sys.exit(2)
    _emit(render_json([rep]) if fmt == "json" else render_score(rep), None)
    sys.exit(exit_code([rep], "error"))


@main.command(name="import")
@click.argument("path")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="Write the notation here (default: standard output).")
@click.option("--force", is_flag=True, help="Overwrite --output if it exists.")
@click.option("--rounds", is_flag=True, help="Insert round markers (auction, SR 1, OR 1.1 ...).")
@click.option("--no-ids", is_flag=True, help="Leave out the #@ID action-id comments.")
@click.option("--rename", multiple=True, metavar="OLD=NEW",
              help="Rename a player, e.g. --rename 'Player 1=Alice' (repeatable).")
def import_cmd(path, output, force, rounds, no_ids, rename):
    """Turn an 18xx.games export (JSON) into railcheck notation.

    Each line keeps the export's action id as a trailing #@ID comment."""
    from .engine import Replay
    from .importer import import_export
    from .loader import read_text, _check_title
    from .notation import write_game

    try:
        text = read_text(path)
        record, _ = import_export(text, path)
        _check_title(record, path)
        # a replay resolves what the export names by id (share sources, train sellers)
        replay_ = Replay(record)
        labels = {}
        replay_.before_action = lambda g, a: labels.__setitem__(id(a), g.round.label)
        replay_.run()
    except InputError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    _tidy_for_notation(record)
    if rename:
        _rename_players(record, rename)
    if rounds:
        _insert_round_markers(record, labels)
    if no_ids:
        for a in record.actions:
            a.action_id = None
    notation = write_game(record)
    if output is None:
        click.echo(notation, nl=False)
        return
    if os.path.exists(output) and not force:
        click.echo(f"error: {output} exists; use --force to overwrite it", err=True)
        sys.exit(2)
    if os.path.abspath(output) == os.path.abspath(path):
        click.echo("error: the output would overwrite the export itself", err=True)
        sys.exit(2)
    try:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(notation)
    except OSError as exc:
        click.echo(f"error: {output}: cannot write: {exc.strerror or exc}", err=True)
        sys.exit(2)
    click.echo(f"wrote {len(record.actions)} actions to {output}", err=True)


def _rename_players(record, pairs):
    mapping = {}
    for pair in pairs:
        old, sep, new = pair.partition("=")
        if not sep or not old.strip() or not new.strip():
            raise click.BadParameter(f"expected OLD=NEW, got {pair!r}", param_hint="--rename")
        mapping[old.strip()] = new.strip()
    unknown = [o for o in mapping if o not in record.players]
    if unknown:
        raise click.BadParameter(f"no player named {unknown[0]!r} in this game (players: "
                                 f"{', '.join(record.players)})", param_hint="--rename")
    record.players = [mapping.get(p, p) for p in record.players]
    for a in record.actions:
        if a.actor in mapping:
            a.actor = mapping[a.actor]
        seller = getattr(a, "seller", None)
        if seller in mapping:
            a.seller = mapping[seller]
    if record.expected_result:
        record.expected_result = {mapping.get(k, k): v for k, v in record.expected_result.items()}


def _insert_round_markers(record, labels):
    from .actions import RoundMarker
    out, current = [], None
    for a in record.actions:
        label = labels.get(id(a))
        if label and label != current:
            kind, _, num = label.partition(" ")
            number = tuple(int(x) for x in num.split(".")) if num else ()
            out.append(RoundMarker(kind=kind, number=number))
            current = label
        out.append(a)
    record.actions = out


def _tidy_for_notation(record):
    """Write shares as counts ("sell 2 PRR") where the export gave percents."""
    from .actions import BuyShares, SellShares
    from .ruleset import load_ruleset

    rules_ = load_ruleset(record.title, record.options)
    share = {c.sym: min(c.shares) for c in rules_.corporations}
    for a in record.actions:
        items = [a] if isinstance(a, BuyShares) else (a.sales if isinstance(a, SellShares) else [])
        for it in items:
            unit = share.get(it.corporation)
            if it.percent is not None and unit and it.percent % unit == 0:
                it.count = it.percent // unit
                it.percent = None
            it.certs = ()


@main.group()
def rules():
    """The rulesets railcheck knows."""


@rules.command(name="list")
def rules_list():
    """List the titles with a ruleset."""
    from tabulate import tabulate
    from .ruleset import known_titles, load_ruleset

    rows = []
    try:
        for title in known_titles():
            r = load_ruleset(title)
            rows.append([title, r.full_name, f"{r.min_players}-{r.max_players}",
                         r.extends or "-"])
    except InputError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    click.echo(tabulate(rows, headers=["title", "name", "players", "extends"], disable_numparse=True))


@rules.command(name="show")
@click.argument("title")
@click.option("--option", "options", multiple=True, help="Apply a game option.")
def rules_show(title, options):
    """Show a title's ruleset (or a ruleset file's): economy, companies,
    trains, phases, and what it changes from the title it extends."""
    from .rulesinfo import describe_ruleset

    try:
        click.echo(describe_ruleset(title, list(options)), nl=False)
    except InputError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)


@main.command()
@click.argument("path")
@click.option("--at", "at", type=int, default=None,
              help="Stop after this action: its export id (#@N) for imported games, else "
                   "its line number.  Default: the end of the log.")
@click.option("--svg", type=click.Path(dir_okay=False), default=None,
              help="Also draw the board as SVG into this file.")
@click.option("--force", is_flag=True, help="Overwrite the --svg file if it exists.")
@click.option("--ruleset", type=click.Path(exists=True, dir_okay=False), default=None,
              help=RULESET_HELP)
def show(path, at, svg, force, ruleset):
    """Print the state of a game (round, money, companies, board) at a point."""
    from .engine import Replay
    from .loader import load_game
    from .report import text_companies, text_standings

    try:
        record, _ = load_game(path, ruleset=ruleset)
        result = Replay(record, stop_at=at).run()
    except InputError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    g = result.game
    where = f"after action {at}" if at is not None else "at the end"
    click.echo(f"{path} {where}: {result.round}, phase {g.phase.name}, bank "
               f"{g.money(g.bank.cash)}")
    click.echo("")
    click.echo(text_standings(result, result.currency))
    if result.companies:
        click.echo("")
        click.echo(text_companies(result, result.currency))
    if g.board is not None:
        click.echo("")
        click.echo(g.board.render_text())
        if svg:
            if os.path.exists(svg) and not force:
                click.echo(f"error: {svg} exists; use --force to overwrite it", err=True)
                sys.exit(2)
            try:
                with open(svg, "w", encoding="utf-8") as fh:
                    fh.write(g.board.render_svg())
            except OSError as exc:
                click.echo(f"error: {svg}: cannot write: {exc.strerror or exc}", err=True)
                sys.exit(2)
            click.echo(f"wrote {svg}", err=True)
    errs = [f for f in result.findings if f.severity == "error"]
    if errs:
        click.echo("")
        click.echo(f"{len(errs)} finding(s) up to here; the first: line {errs[0].line} "
                   f"action {errs[0].action_id}: {errs[0].message}")


if __name__ == "__main__":  # pragma: no cover
    main()
