"""The railcheck command line.

Exit codes (all commands): 0 = everything legal, 1 = findings (errors, or
warnings with ``--fail-on warning``), 2 = usage error, a file that could not
be read or parsed, an export of an unsupported title (unless
``--skip-unsupported``), or an output railcheck refuses to write (see
railcheck/outputs.py).  Heavy modules are imported lazily so that start-up
stays fast.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from typing import Optional

import click

from .findings import InputError, plural
from .position import AT_HELP

FORMATS = ["text", "json", "junit", "github"]
EXCLUDE_HELP = ("Leave out the files found in folders that match this glob pattern (the "
                "path, the file's name or a folder's name: --exclude 'drafts' --exclude "
                "'*.trace.json.gz'); repeatable.  A file named on the command line is "
                "always checked.")
RULESET_HELP = ("Play the games with this ruleset file (a house rule or variant that extends "
                "the title; see docs/rulesets.md) instead of the header's 'ruleset:' or the "
                "title's own.")


def _use_color(flag) -> bool:
    """--color/--no-color, else NO_COLOR (set and not empty: no colour),
    else FORCE_COLOR (set and not empty: colour, even into a pipe), else
    colour on a terminal outside CI."""
    if flag is not None:
        return flag
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("CI"):
        return False
    return sys.stdout.isatty()


def _show_progress(n_files: int) -> bool:
    """A progress counter (on standard error) for several files, with any
    format and --quiet, but only when both outputs are a terminal and not in
    CI."""
    return (n_files > 1 and sys.stderr.isatty() and sys.stdout.isatty()
            and not os.environ.get("CI"))


def check_file(path: str, check_board: bool = True, keep_game: bool = True, ruleset=None,
               hints: Optional[bool] = None):
    """Validate one file ('-': standard input), with a user's ruleset file if
    given; never raises (errors become part of the report).  ``hints``: look
    for the one slip that explains a game's errors (default: unless
    ``RAILCHECK_NO_HINTS`` is set; ``validate --no-hints``)."""
    from .engine import Replay
    from .findings import NotAGame
    from .loader import STDIN, STDIN_NAME, UnsupportedTitle, load_game
    from .report import FileReport

    start = time.perf_counter()
    rep = FileReport(path=STDIN_NAME if path == STDIN else path)
    try:
        record, read_findings = load_game(path, ruleset=ruleset)
        rep.read_findings = read_findings
        # an export's passes follow the site's steps, which depend on the map:
        # exports are always replayed with it
        board = check_board or record.from_export
        rep.board_checked = board
        rep.result = Replay(record, check_board=board, hints=hints).run()
        _locate_header_findings(record, rep.result.findings)
        if not keep_game:
            rep.result.game = None
    except UnsupportedTitle as exc:
        rep.error = exc
        rep.unsupported = True
    except NotAGame as exc:
        rep.error = exc
        rep.not_a_game = True
    except InputError as exc:
        rep.error = exc
    except RecursionError:
        rep.error = InputError("input nested too deeply to read", path=rep.path)
    except Exception as exc:  # never a traceback for the user
        rep.error = InputError(f"internal error while checking this file "
                               f"({type(exc).__name__}: {exc}); please report it", path=rep.path)
    rep.seconds = time.perf_counter() - start
    return rep


#: whole-game findings that compare with a header tag of the notation
_HEADER_RULES = {"score.site_differs": "result", "score.end_differs": "end"}


def _locate_header_findings(record, findings):
    """A finding about the header's ``result:`` or ``end:`` gets its line."""
    for f in findings:
        tag = _HEADER_RULES.get(f.rule)
        if tag and f.line is None and f.action_id is None:
            loc = record.tag_locations.get(tag)
            if loc:
                f.line, f.column = loc


def _check_one_for_pool(args):
    path, board, ruleset, hints = args
    return check_file(path, board, keep_game=False, ruleset=ruleset, hints=hints)


def _rebuild_error(rep):
    """An exception's str() does not survive pickling: rebuild it."""
    e = rep.error
    if e is not None:
        rep.error = type(e)(e.bare, path=e.path, line=e.line, column=e.column,
                            context=e.context)
    return rep


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def auto_jobs(n_files: int) -> int:
    """``--jobs auto``: one process per usable CPU (the process's affinity),
    no more than the files, at least 1.  Not lowered by the machine's load
    average: a load that lingers from the caller's own earlier work (a build,
    a first command) would keep a free machine to one process, while on a
    machine truly busy a second process costs only a few per cent (the
    workers repeat part of the first game's set-up); ``--jobs 1`` is there
    for that."""
    return max(1, min(usable_cpus(), n_files))


class JobsType(click.ParamType):
    """``--jobs``: a number of processes (1 to 64) or ``auto``."""
    name = "N|auto"

    def convert(self, value, param, ctx):
        if value == "auto" or isinstance(value, int):
            number = value
        else:
            try:
                number = int(str(value).strip())
            except ValueError:
                self.fail(f"{value!r} is neither a number of processes nor 'auto'", param, ctx)
        if number != "auto" and not 1 <= number <= 64:
            self.fail(f"{value} is not in the range 1<=x<=64 (or 'auto')", param, ctx)
        return number


JOBS_HELP = ("Validate files in this many parallel processes; 'auto' (the default): one per "
             "usable CPU, at most one per file (1 on a one-CPU machine; give --jobs 1 on a "
             "machine busy with other work).  The workers are forked once "
             "the rulesets are loaded, so even 2-4 files gain; the report is the same as "
             "with --jobs 1.")


def run_checks(files: list[str], *, jobs, board: bool, progress: bool,
               on_report=None, ruleset=None, hints: Optional[bool] = None):
    """Check ``files`` (in parallel with ``jobs`` > 1, or ``"auto"``:
    :func:`auto_jobs`); ``on_report(rep)`` is called as each file is done, in
    the order of ``files``.  ``progress`` draws a counter on standard error
    (cleared before each report is printed and at the end)."""
    gc_before = _collect_less()
    try:
        return _run_checks(files, jobs=jobs, board=board, progress=progress,
                           on_report=on_report, ruleset=ruleset, hints=hints)
    finally:
        _collect_restore(gc_before)


#: the garbage collector's generation-0 threshold while files are checked
#: (Python's default is 700): a replay makes many small objects that live
#: to the end of the game, and with the default the collector scanned them
#: again and again (about a tenth of the CPU time of a run)
GC_THRESHOLD_0 = 50_000


def _collect_less():
    """Collect garbage less often while files are checked (the threshold
    :data:`GC_THRESHOLD_0`); what the collector does is unchanged, only how
    often.  Returns what :func:`_collect_restore` puts back."""
    import gc
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], GC_THRESHOLD_0), *before[1:])
    return before


def _collect_restore(before) -> None:
    import gc
    gc.set_threshold(*before)


def _freeze_loaded() -> None:
    """Once the modules and rulesets are loaded: move every object made so
    far out of the collector's view (``gc.freeze``; they live as long as the
    process), so that no collection scans them again (nor the collections
    of the interpreter's exit), and a forked worker does not touch (and so
    copy) their memory pages.  Not undone after the checks: the command
    exits soon after."""
    import gc
    gc.freeze()


def _run_checks(files, *, jobs, board, progress, on_report, ruleset, hints):
    reports = []
    total = len(files)
    if jobs == "auto" or jobs is None:
        jobs = auto_jobs(total)

    def tick(i, path):
        if progress:
            width = 30
            done = width * i // total
            bar = "#" * done + "-" * (width - done)
            sys.stderr.write(f"\r\x1b[K[{bar}] {i}/{total} {path[-50:]}")
            sys.stderr.flush()

    def done(i, rep):
        reports.append(rep)
        if on_report is not None:
            if progress:
                sys.stderr.write("\r\x1b[K")
                sys.stderr.flush()
            on_report(rep)
        tick(i, rep.path)

    # standard input is read here, not in a worker
    parallel = jobs > 1 and total > 1 and "-" not in files
    if parallel and hasattr(os, "fork"):
        _run_forked(files, jobs, board, ruleset, hints, tick, done)
    elif parallel:
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for i, rep in enumerate(pool.map(_check_one_for_pool, [(f, board, ruleset, hints) for f in files],
                                             chunksize=max(1, total // (jobs * 8))), 1):
                done(i, _rebuild_error(rep))
    else:
        for i, f in enumerate(files, 1):
            tick(i - 1, f)
            done(i, check_file(f, board, keep_game=total == 1, ruleset=ruleset, hints=hints))
    if progress:
        sys.stderr.write("\r\x1b[K")
        sys.stderr.flush()
    return reports


def _peek_title(path: str):
    """The title a game file names, guessed cheaply (a hint for warming up:
    may be wrong or None, never raises)."""
    import re
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError:
        return None
    if path.lower().endswith(".json") or data.lstrip()[:1] == b"{":
        m = re.search(rb'"title"\s*:\s*"([^"\\]{1,40})"', data)
    else:
        m = re.search(rb"^[ \t]*title[ \t]*:[ \t]*\"?([^\"\r\n#]{1,40})", data, re.M)
    return m.group(1).decode("utf-8", "replace").strip() if m else None


#: modules every replay of an export imports on its way (a title's own are added)
_WARM_MODULES = ("railcheck.engine", "railcheck.loader", "railcheck.importer",
                 "railcheck.report", "railcheck.board", "railcheck.mechanics.shares",
                 "railcheck.rounds.operating", "railcheck.rounds.stock",
                 "railcheck.rounds.auction_waterfall", "railcheck.steps.base",
                 "railcheck.steps.track", "railcheck.steps.token", "railcheck.steps.route",
                 "railcheck.steps.dividend", "railcheck.steps.trains",
                 "railcheck.steps.companies", "railcheck.steps.stock",
                 "railcheck.board.routes", "railcheck.following.rounds",
                 "railcheck.following.stock", "railcheck.following.operating",
                 "railcheck.following.auction", "railcheck.following.followers")


def _warm_up(files: list[str], ruleset) -> None:
    """Before the workers fork: import what the checks will need and load
    the rulesets of the files' titles (peeked in the first files), so that
    every worker starts with them instead of doing it again.  Only a head
    start: any problem is left for the check that meets it."""
    from importlib import import_module
    from .ruleset import load_ruleset
    from .titles import title_class
    for name in _WARM_MODULES:
        try:
            import_module(name)
        except Exception:
            pass
    if any(not f.lower().endswith(".json") for f in files[:64]):
        try:                # notation files: the parser, made (or read from the cache) once
            from .notation import _parser
            _parser()
        except Exception:
            pass
    wanted = [ruleset] if ruleset else []
    for f in files[:64] if not ruleset else ():     # --ruleset plays every file
        title = _peek_title(f)
        if title and title not in wanted:
            wanted.append(title)
    for title in wanted:
        try:
            cls = title_class(title)
            if cls is not None and cls.uses_components:
                continue
            rules = load_ruleset(title)
            if cls is not None:
                _import_title_modules(cls)
            if rules.board:     # the map's tiles and geometry, made once per board data
                from .board import Board
                Board(rules.board, [], [])
        except Exception:
            pass


def _import_title_modules(cls) -> None:
    """Every module of a title's package, and the shared ones its replays
    import on their way (``warm_modules`` of its class)."""
    import pkgutil
    from importlib import import_module
    package = import_module(cls.__module__)
    names = [f"{cls.__module__}.{m.name}" for m in pkgutil.iter_modules(package.__path__)]
    for name in [*names, *getattr(cls, "warm_modules", ())]:
        try:
            import_module(name)
        except Exception:
            pass


def _run_forked(files, jobs, board, ruleset, hints, tick, done):
    """``run_checks`` in ``jobs`` processes: what the checks need is loaded
    here (:func:`_warm_up`), then this process and ``jobs`` - 1 forked copies
    of it share the files, file k to process k % jobs; each copy sends its
    reports back through a pipe, and ``done`` is called in the order of
    ``files``, as soon as each is known."""
    import pickle
    import select

    total = len(files)
    jobs = min(jobs, total)
    tick(0, files[0])
    _warm_up(files, ruleset)
    _freeze_loaded()
    finished = False
    owner = {i: i % jobs for i in range(total)}
    mine = {w: [i for i in range(total) if owner[i] == w] for w in range(jobs)}
    workers = {}        # process number -> (pid, pipe)
    results: dict = {}
    nxt = 0
    try:
        for w in range(1, jobs):
            r, wfd = os.pipe()
            pid = os.fork()
            if pid == 0:                        # the copy: check its files, send, exit
                code = 0
                try:
                    os.close(r)
                    for _, pipe in workers.values():
                        pipe.close()
                    with os.fdopen(wfd, "wb") as out:
                        for i in mine[w]:
                            rep = check_file(files[i], board, keep_game=False, ruleset=ruleset,
                                            hints=hints)
                            try:
                                blob = pickle.dumps(rep, protocol=pickle.HIGHEST_PROTOCOL)
                            except Exception as exc:
                                blob = pickle.dumps(_worker_failed(files[i], exc))
                            out.write(len(blob).to_bytes(8, "little") + blob)
                            out.flush()
                except BaseException:
                    code = 1
                finally:
                    os._exit(code)
            os.close(wfd)
            workers[w] = (pid, os.fdopen(r, "rb"))
        queue = {w: list(mine[w]) for w in workers}
        dead: set = set()       # workers that ended early: their other files are checked here

        def receive(w):
            i = queue[w].pop(0)
            try:
                pipe = workers[w][1]
                size = int.from_bytes(pipe.read(8) or b"", "little")
                blob = pipe.read(size) if size else b""
                if not size or len(blob) != size:
                    raise EOFError(_how_it_ended(workers[w][0]))
                results[i] = _rebuild_error(pickle.loads(blob))
            except Exception as exc:
                # the worker died on this file (it sends each as it is done):
                # this one is reported so, the files it had left are checked here
                results[i] = _worker_failed(files[i], exc)
                dead.add(w)

        def flush(block):
            nonlocal nxt
            while nxt < total:
                if nxt in results:
                    done(nxt + 1, results.pop(nxt))
                    nxt += 1
                    continue
                w = owner[nxt]
                if w in dead:
                    results[nxt] = check_file(files[nxt], board, keep_game=False,
                                              ruleset=ruleset, hints=hints)
                    continue
                if w == 0:
                    return                      # this process's own, not checked yet
                if not block and not select.select([workers[w][1]], [], [], 0)[0]:
                    return
                receive(w)

        for i in mine[0]:
            results[i] = check_file(files[i], board, keep_game=False, ruleset=ruleset,
                                        hints=hints)
            flush(block=False)
        flush(block=True)
        finished = True
    finally:
        for w, (pid, pipe) in workers.items():
            pipe.close()
            if not finished and w not in dead:      # interrupted: the workers stop too
                try:
                    os.kill(pid, signal.SIGTERM)
                except OSError:
                    pass
            try:
                os.waitpid(pid, 0)
            except OSError:
                pass


def _how_it_ended(pid: int) -> str:
    """How a worker process that sent no more ended (it is reaped here)."""
    try:
        _, status = os.waitpid(pid, 0)
    except OSError:
        return "the worker process ended early"
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = str(sig)
        return f"the worker process was killed ({name}) while checking this file"
    return (f"the worker process ended (exit {os.WEXITSTATUS(status)}) while checking "
            f"this file")


def _worker_failed(path, exc):
    from .report import FileReport
    if isinstance(exc, EOFError):       # the process died (killed, out of memory)
        return FileReport(path=path, error=InputError(
            f"not checked: {exc} (out of memory, or killed); the files it had left were "
            f"checked again; 'railcheck validate --jobs 1 {path}' checks this one alone",
            path=path))
    return FileReport(path=path, error=InputError(
        f"internal error while checking this file in a worker process "
        f"({type(exc).__name__}: {exc}); please report it", path=path))


def exit_code(reports, fail_on: str, skip_unsupported: bool = False) -> int:
    """The one rule of every command: 2 when a file could not be read (or is
    of an unsupported title, unless ``skip_unsupported``; a file found in a
    folder that is no game record is skipped), else 1 when a game has an
    error (or a warning, with ``fail_on`` warning), else 0."""
    if any(r.error is not None and not (r.unsupported and skip_unsupported)
           and r.status != "not_a_game" for r in reports):
        return 2
    for r in reports:
        for f in r.findings:
            if f.severity == "error" or (fail_on == "warning" and f.severity == "warning"):
                return 1
    return 0


def _fail(message: str):
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def _check_outputs(inputs, force, *outputs):
    """Apply the output rule (railcheck/outputs.py) to (path, what) pairs;
    exits 2 with the reason."""
    from .outputs import OutputRefused, check_output
    given = [(p, w) for p, w in outputs if p]
    for k, (path, what) in enumerate(given):
        try:
            check_output(path, inputs, force=force, what=what, others=given[:k])
        except OutputRefused as exc:
            _fail(str(exc))


def _write(path, text):
    from .outputs import write_output
    problem = write_output(path, text)
    if problem:
        _fail(problem)


class _sigint_deferred:
    """``with _sigint_deferred():`` a Ctrl-C (SIGINT) that comes inside the
    block is delivered when it ends (the signal is blocked meanwhile, where
    the system can block it)."""

    def __enter__(self):
        import signal
        self.blocked = hasattr(signal, "pthread_sigmask")
        if self.blocked:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})

    def __exit__(self, *exc) -> None:
        import signal
        if self.blocked:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


#: the exit code of a run interrupted by Ctrl-C (SIGINT), as shells give (128 + 2)
INTERRUPTED = 130


class Interrupted(Exception):
    """Ctrl-C while a command ran, after it reported what it finished."""


class RailcheckGroup(click.Group):
    """The command group, with one rule for how any command ends (its exit
    code): Ctrl-C is exit 130 (not click's "Aborted!" and 1, the code of
    findings); standard output that cannot be written (a full disk,
    ``> /dev/full``) is a one-line error and exit 2; a closed pipe
    (``| head``) ends quietly."""

    def format_commands(self, ctx, formatter):
        """The commands with their whole first sentence (click cuts them
        to the terminal's width)."""
        rows = []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is None or cmd.hidden:
                continue
            rows.append((name, cmd.get_short_help_str(limit=1000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        code = 0
        try:
            try:
                rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
                code = rv if isinstance(rv, int) else 0
            except SystemExit as exc:
                code = exc.code
            _flush_stdout()
        except (KeyboardInterrupt, click.exceptions.Abort, Interrupted) as exc:
            if not isinstance(exc, Interrupted):
                _stderr_line("railcheck: interrupted")
            code = INTERRUPTED
        except click.ClickException as exc:
            exc.show()
            code = exc.exit_code
        except OSError as exc:
            code = _output_failed(exc)
        sys.exit(code)


def _flush_stdout() -> None:
    # (a command may have closed it: the language server closes its output
    # when the editor ends the session)
    if sys.stdout is not None and not sys.stdout.closed:
        sys.stdout.flush()


def _stderr_line(text: str) -> None:
    try:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _output_failed(exc: OSError) -> int:
    """Standard output could not be written.  A closed pipe (``| head``: the
    reader wanted no more) ends quietly with exit 0; a full disk or an output
    error is one line on standard error and exit 2."""
    import errno
    # nothing more may reach the broken output, not even at the interpreter's exit
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    if exc.errno == errno.EPIPE:
        return 0
    if exc.filename is None and exc.errno in (errno.ENOSPC, errno.EIO, errno.EFBIG,
                                              errno.EDQUOT, errno.EBADF):
        _stderr_line(f"error: cannot write to standard output: {exc.strerror or exc}")
        return 2
    raise exc


@click.group(cls=RailcheckGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(None, "-V", "--version", package_name="railcheck",
                      message="railcheck, version %(version)s")
def main():
    """railcheck: replay 18xx game logs under the title's rules, flag every
    illegal action and score the end of the game.

    Game logs are railcheck notation (*.18xx, see docs/notation.md) or
    exports from 18xx.games (*.json).

    \b
    Exit codes, the same for every command:
      0    done, and every game read is legal
      1    done (the output is complete), and a game has illegal actions
           (validate --fail-on warning: or warnings)
      2    not done: a usage error, a file that cannot be read, an
           unsupported title (validate --skip-unsupported: not counted),
           an output that may not be written, standard output full
      130  interrupted (Ctrl-C); validate reports the files it finished

    \b
    Shell completion (bash; zsh and fish alike, with zsh_source, fish_source):
      eval "$(_RAILCHECK_COMPLETE=bash_source railcheck)"   in ~/.bashrc"""
    # before the commands import the rest of railcheck: its dataclasses'
    # methods compiled once, kept in the cache folder (railcheck/codecache.py)
    from .codecache import install
    install()


@main.command(short_help='Replay game logs and report every illegal action.')
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="Report format.")
@click.option("--jobs", "-j", type=JobsType(), default="auto", show_default=True,
              help=JOBS_HELP)
@click.option("--fail-on", type=click.Choice(["error", "warning"]), default="error",
              show_default=True, help="Which findings make the exit code 1.")
@click.option("--quiet", "-q", is_flag=True, help="Errors, warnings and the summary only: no "
              "info findings, no tables, no action's text, and no line for a legal game when "
              "there are several files.")
@click.option("--severity", "min_severity", type=click.Choice(["info", "warning", "error"]),
              default=None, help="The lowest severity of finding printed (default: info; "
              "warning with --quiet).  The exit code and the --format json/junit reports "
              "are the same whatever is printed.")
@click.option("--standings", "standings", flag_value=True, default=None,
              help="Print the standings and company tables of every game (by default "
                   "only for a single file).")
@click.option("--all", "show_all", is_flag=True, help="Show the findings that follow from an "
              "earlier one in full (by default they are folded under it).")
@click.option("--max-findings", type=click.IntRange(0, None), default=None, metavar="N",
              help="Print at most N findings in the text report (the rest are counted).")
@click.option("--skip-unsupported", is_flag=True, help="An 18xx.games export of a title "
              "railcheck has no ruleset for is reported, but does not fail the run.")
@click.option("--color/--no-color", default=None, help="Colour the text report "
              "(default: on a terminal, not in CI; NO_COLOR turns it off, FORCE_COLOR on).")
@click.option("--no-board", is_flag=True, help="Skip the map checks (tile lays, stations, "
              "routes) of hand-written logs; money is still checked.  18xx.games exports are "
              "always replayed with the map, since the site's order of steps depends on it.")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="Write the report to this file instead of standard output.")
@click.option("--junit", "junit", type=click.Path(dir_okay=False), default=None,
              metavar="FILE", help="Also write a JUnit XML report to FILE (with any --format).")
@click.option("--force", is_flag=True, help="Replace --output / --junit files that exist "
              "(never a game log).")
@click.option("--ruleset", type=click.Path(exists=True, dir_okay=False), default=None,
              help=RULESET_HELP)
@click.option("--no-hints", is_flag=True, help="Do not look for the one slip that explains a "
              "game's errors (a par written at a wrong price, a tile turned a wrong way; "
              "docs/one-mistake.md).")
@click.option("--exclude", multiple=True, metavar="GLOB", help=EXCLUDE_HELP)
def validate(paths, fmt, jobs, fail_on, quiet, min_severity, standings, show_all, max_findings,
             skip_unsupported, color, no_board, output, junit, force, ruleset, no_hints,
             exclude):
    """Replay game logs (files or folders; '-' reads one game from standard
    input) and report illegal actions.

    Folders are searched for *.18xx and *.json files (or *.json.gz); a JSON
    file there that is no game record (an engine trace, railcheck's own
    report) is skipped and counted.  Findings are printed as each file is
    checked, then a summary.  Exit codes: see 'railcheck --help'."""
    from .loader import collect_paths
    from .report import (FileReport, TextOptions, TextReporter, render_github, render_json,
                         render_junit)

    started = time.perf_counter()
    files, missing = collect_paths(paths, exclude)
    named = _named_files(paths)
    _check_outputs(files, force, (output, "the report"), (junit, "the JUnit report"))
    n = len(files) + len(missing)
    use_color = _use_color(color) and output is None and fmt == "text"
    opts = TextOptions(color=use_color, quiet=quiet, standings=standings, show_all=show_all,
                       max_findings=max_findings, single=n == 1,
                       skip_unsupported=skip_unsupported, no_board=no_board,
                       min_severity=min_severity or ("warning" if quiet else "info"))
    reporter = TextReporter(opts)
    # click strips colour codes when stdout is not a terminal: --color (or
    # FORCE_COLOR) keeps them
    echo_color = True if use_color and (color or not sys.stdout.isatty()) else None
    stream = fmt == "text" and output is None
    chunks: list[str] = []

    reports: list = []

    def on_report(rep):
        rep.named = rep.path in named
        text = reporter.file(rep) if fmt == "text" else None
        # a file is counted exactly when its lines are out: a Ctrl-C that
        # comes meanwhile waits until both are done
        with _sigint_deferred():
            reports.append(rep)
            if text is None:
                return
            if stream:
                _echo(text, color=echo_color)
            else:
                chunks.append(text)

    progress = _show_progress(len(files))
    interrupted = False
    try:
        run_checks(files, jobs=jobs, board=not no_board, progress=progress,
                   on_report=on_report, ruleset=ruleset, hints=False if no_hints else None)
    except KeyboardInterrupt:
        # the files finished so far are reported (their findings were printed
        # as they came); the summary says how far the run went; exit 130
        interrupted = True
    if not interrupted:
        for e in missing:
            on_report(FileReport(path=e.path, error=e))
    seconds = time.perf_counter() - started
    if interrupted:
        _stderr_line(f"railcheck: interrupted after {len(reports)} of "
                     f"{len(files) + len(missing)} files; the report covers those")
    if fmt == "json":
        text = render_json(reports)
    elif fmt == "junit":
        text = render_junit(reports)
    elif fmt == "github":
        text = render_github(reports, show_all=show_all, skip_unsupported=skip_unsupported)
    else:
        text = "".join(chunks) + reporter.summary(reports, seconds if n > 1 else None)
    if junit:
        _write(junit, render_junit(reports))
    if output:
        _write(output, text)
    elif fmt == "text":
        _echo(reporter.summary(reports, seconds if n > 1 else None), color=echo_color)
    else:
        _echo(text)
    if interrupted:
        raise Interrupted()
    sys.exit(exit_code(reports, fail_on, skip_unsupported))


def _named_files(paths) -> set:
    """The paths given on the command line that are files (not folders)."""
    from .loader import STDIN_NAME
    out = {STDIN_NAME}
    for p in paths:
        if p != "-" and not os.path.isdir(p):
            out.add(p)
    return out


def _echo(text: str, color=None):
    if not text:
        return
    try:
        click.echo(text, nl=False, color=color)
    except UnicodeEncodeError:  # e.g. a file name that is not UTF-8, on a strict stdout
        click.echo(text.encode("utf-8", "replace").decode("utf-8"), nl=False)


@main.command(short_help='The standings (net worth) at the end of a game.')
@click.argument("path")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.option("--no-board", is_flag=True, help="Skip the map checks.")
@click.option("--ruleset", type=click.Path(exists=True, dir_okay=False), default=None,
              help=RULESET_HELP)
def score(path, fmt, no_board, ruleset):
    """Print the standings (net worth) at the end of a game log ('-': standard
    input).  Exit 1 when the game has illegal actions (the standings are then
    those of the replay, which skipped them)."""
    from .report import render_json, render_score

    rep = check_file(path, not no_board, ruleset=ruleset)
    if rep.error is not None:
        _fail(str(rep.error))
    _echo(render_json([rep]) if fmt == "json" else render_score(rep))
    sys.exit(exit_code([rep], "error"))


@main.command(name="import", short_help='Turn an 18xx.games export into railcheck notation.')
@click.argument("path")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="Write the notation here (default: standard output).")
@click.option("--force", is_flag=True, help="Replace --output if it exists (never the export).")
@click.option("--rounds", is_flag=True, help="Insert round markers (auction, SR 1, OR 1.1 ...).")
@click.option("--no-ids", is_flag=True, help="Leave out the #@ID action-id comments.")
@click.option("--rename", multiple=True, metavar="OLD=NEW",
              help="Rename a player, e.g. --rename 'Player 1=Alice' (repeatable).")
def import_cmd(path, output, force, rounds, no_ids, rename):
    """Turn an 18xx.games export (JSON; '-': standard input) into railcheck
    notation.

    Each line keeps the export's action id as a trailing #@ID comment."""
    from .engine import Replay
    from .importer import import_export
    from .loader import STDIN, STDIN_NAME, is_export, read_text, _check_title
    from .notation import write_game

    if output:
        _check_outputs([path], force, (output, "the notation"))
    name = STDIN_NAME if path == STDIN else path
    try:
        text = read_text(path)
        if not is_export(name, text):
            _fail(f"{name}: not an 18xx.games export (JSON starting with '{{'); a notation "
                  f"file needs no import: 'railcheck validate {path}' reads it")
        record, _ = import_export(text, name)
        _check_title(record, name)
        # a replay resolves what the export names by id (share sources, train sellers)
        replay_ = Replay(record)
        labels = {}
        replay_.before_action = lambda g, a: labels.__setitem__(id(a), g.round.label)
        illegal = bool(replay_.run().errors)
    except InputError as exc:
        _fail(str(exc))
    _tidy_for_notation(record)
    if rename:
        _rename_players(record, rename)
    bad = [p for p in record.players if not _writable_name(p)]
    if bad:
        _fail(f"{name}: the player name {bad[0]!r} cannot be written in the notation "
              f"(a name may not hold a double quote or a line break); give it another "
              f"with --rename '{bad[0]}=NEW NAME'")
    if rounds:
        _insert_round_markers(record, labels)
    if no_ids:
        for a in record.actions:
            a.action_id = None
    try:
        notation = write_game(record)
    except ValueError as exc:
        _fail(f"{name}: this game cannot be written as notation: {exc}")
    if output is None:
        _echo(notation)
    else:
        _write(output, notation)
        click.echo(f"wrote {plural(len(record.actions), 'action')} to {output}", err=True)
    if illegal:
        click.echo("note: this game has illegal actions ('railcheck validate' lists them)",
                   err=True)
        sys.exit(1)


def _writable_name(name: str) -> bool:
    return bool(name.strip()) and not any(ch in name for ch in '"\r\n')


def _rename_players(record, pairs):
    mapping = {}
    for pair in pairs:
        old, sep, new = pair.partition("=")
        old, new = old.strip(), new.strip()
        if not sep or not old or not new:
            raise click.BadParameter(f"expected OLD=NEW, got {pair!r}", param_hint="--rename")
        if not _writable_name(new):
            raise click.BadParameter(f"{new!r} cannot be written in the notation: a name may "
                                     f"not hold a double quote or a line break",
                                     param_hint="--rename")
        if old in mapping and mapping[old] != new:
            raise click.BadParameter(f"{old!r} is renamed twice ({mapping[old]!r} and "
                                     f"{new!r})", param_hint="--rename")
        mapping[old] = new
    unknown = [o for o in mapping if o not in record.players]
    if unknown:
        raise click.BadParameter(f"no player named {unknown[0]!r} in this game (players: "
                                 f"{', '.join(record.players)})", param_hint="--rename")
    renamed = [mapping.get(p, p) for p in record.players]
    seen = {}
    for before, after in zip(record.players, renamed):
        if after.casefold() in seen:
            raise click.BadParameter(
                f"two players would be called {after!r} ({seen[after.casefold()]!r} and "
                f"{before!r}); each player needs a name of their own", param_hint="--rename")
        seen[after.casefold()] = before
    record.players = renamed
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


@main.group(short_help='The rulesets, and the rule ids of the findings.')
def rules():
    """The rulesets railcheck knows, and the rule ids of its findings."""


@rules.command(name="list")
@click.option("--ids", is_flag=True, help="List the rule ids that findings use, with a "
              "one-line summary (see 'railcheck rules explain RULE').")
def rules_list(ids):
    """List the titles with a ruleset (or, with --ids, the rule ids)."""
    from tabulate import tabulate

    if ids:
        from .rule_catalogue import RULES
        width = max(len(r.id) for r in RULES)
        for r in sorted(RULES, key=lambda r: r.id):
            click.echo(f"{r.id:<{width}}  {r.summary}")
        return
    from .ruleset import known_titles, load_ruleset

    rows = []
    try:
        for title in known_titles():
            r = load_ruleset(title)
            rows.append([title, r.full_name, f"{r.min_players}-{r.max_players}",
                         r.extends or "-"])
    except InputError as exc:
        _fail(str(exc))
    click.echo(tabulate(rows, headers=["title", "name", "players", "extends"], disable_numparse=True))


@rules.command(name="explain")
@click.argument("rule_id", metavar="RULE")
def rules_explain(rule_id):
    """Explain a rule id of the findings: what it means, where it comes from
    in the published rules, and an example."""
    from .findings import did_you_mean
    from .rule_catalogue import CATALOGUE, explain

    rule = CATALOGUE.get(rule_id.strip().strip("[]"))
    if rule is None:
        _fail(f"no rule '{rule_id}'{did_you_mean(rule_id, CATALOGUE)}; "
              f"'railcheck rules list --ids' lists them")
    _echo(explain(rule))


@rules.command(name="show")
@click.argument("title")
@click.option("--option", "options", multiple=True, help="Apply a game option.")
@click.option("--components", default=None, metavar="FILE|SCENARIO",
              help="A components file, or a scenario the title ships (1890: hanshin, "
                   "keihanshin, 1890, 1890-simplified).")
def rules_show(title, options, components):
    """Show a title's ruleset (or a ruleset file's): economy, companies,
    trains, phases, and what it changes from the title it extends.  For a
    title whose numbers come from a components file, which numbers those are
    and which are still unknown."""
    from .rulesinfo import describe_ruleset

    try:
        if components is not None:
            from .titles import title_class
            cls = title_class(title)
            if cls is None or not cls.uses_components:
                raise InputError(f"{title} takes no components file")
            if not os.path.isfile(components):
                shipped = cls.shipped_components(components)
                if shipped is None:
                    raise InputError(f"no components file '{components}', and {cls.id} ships "
                                     f"no scenario of that name")
                components = str(shipped)
        click.echo(describe_ruleset(title, list(options), components), nl=False)
    except InputError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)


@main.command(short_help='The components-file template of a title (kansai).')
@click.argument("title")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="Write the template to this file (default: standard output).")
@click.option("--force", is_flag=True, help="Replace --output if it exists.")
def components(title, output, force):
    """Write the components-file template of a title whose numbers the rule
    summary does not give (kansai): every number marked `unknown`, each with
    a comment saying which rules need it.  Fill it in from the game box and
    name it in the game's header (`components: FILE`)."""
    from .titles import title_class

    cls = title_class(title)
    if cls is None or not cls.uses_components:
        from .titles import TITLES
        users = [t + "".join(f" ({a})" for a in c.aliases[:1]) for t, c in TITLES.items()
                 if c.uses_components]
        _fail(f"'{title}' has no components file; titles with one: {', '.join(users)}")
    template = cls.folder / "components-template.yaml"
    text = template.read_text(encoding="utf-8")
    if output is None:
        click.echo(text, nl=False)
        return
    # the template itself is this command's input: never written over
    _check_outputs([str(template)], force, (output, "the components template"))
    _write(output, text)
    click.echo(f"wrote {output}: fill in every 'unknown' you can read from the game box")


@main.command(name="next",
              short_help="Who is to act at a point of a game and what they may legally do.")
@click.argument("path")
@click.option("--at", "at", default=None, metavar="POINT", help=AT_HELP)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.option("--verbose", "-v", is_flag=True, help="List every tile and rotation of each "
              "lay, and why each company that cannot be started is refused.")
@click.option("--no-board", is_flag=True, help="Skip the map checks of a hand-written log.")
@click.option("--ruleset", type=click.Path(exists=True, dir_okay=False), default=None,
              help=RULESET_HELP)
def next_(path, at, fmt, verbose, no_board, ruleset):
    """Who is to act at a point of a game and what they may legally do, with
    the numbers: buys, pars, sales, tile lays, stations, the best runs and a
    payout, trains, privates, the titles' own steps.  Each action offered is
    one the replay accepts there ('-': read the game from standard input)."""
    from .table.commands import next_command
    next_command(path, at, fmt, verbose, ruleset, no_board, _fail)


@main.command(short_help="Re-check game records each time one is saved.")
@click.argument("paths", nargs=-1, required=True)
def watch(paths):
    """Re-check game records each time one is saved (files or folders), and
    print the new findings and whose turn it is.  Needs
    pip install 'railcheck[watch]'."""
    from .table.watch import watch as run_watch
    try:
        run_watch(list(paths), click.echo)
    except KeyboardInterrupt:
        pass


@main.command(short_help="A language server for editors (diagnostics, hover, completion).")
def lsp():
    """A language server over standard input and output for editors:
    findings as diagnostics while typing, the state on hover, the legal
    actions as completions (docs/editors.md).  Needs
    pip install 'railcheck[lsp]'."""
    from .table.lsp import main as run_lsp
    run_lsp()


@main.command(short_help='The state of a game at a point (money, companies, board).')
@click.argument("path")
@click.option("--at", "at", default=None, metavar="POINT", help=AT_HELP)
@click.option("--svg", type=click.Path(dir_okay=False), default=None,
              help="Also draw the board as SVG into this file.")
@click.option("--force", is_flag=True, help="Replace the --svg file if it exists (never "
              "the game log).")
@click.option("--no-board", is_flag=True, help="Skip the map checks of a hand-written log.")
@click.option("--ruleset", type=click.Path(exists=True, dir_okay=False), default=None,
              help=RULESET_HELP)
def show(path, at, svg, force, no_board, ruleset):
    """Print the state of a game (round, whose turn, money, companies, board)
    at a point ('-': read the game from standard input)."""
    from .engine import Replay
    from .loader import STDIN, STDIN_NAME, load_game
    from .position import actions_up_to, parse_at, truncated, whose_turn
    from .report import finding_line, money, text_companies, text_standings

    if svg:
        _check_outputs([path], force, (svg, "the SVG drawing"))
    name = STDIN_NAME if path == STDIN else path
    try:
        record, read_findings = load_game(path, ruleset=ruleset)
        board = not no_board or record.from_export
        point = None
        if at is not None:
            point = parse_at(at, record)
            labels = {}
            if point.kind == "round":
                first = Replay(record, check_board=board)
                first.before_action = lambda g, a: labels.__setitem__(id(a), g.round.label)
                first.run()
            record = truncated(record, actions_up_to(record, point, labels))
        # a stop point (however far) keeps the replay from closing the game
        result = Replay(record, check_board=board,
                        stop_at=None if point is None else 1 << 62).run()
    except InputError as exc:
        _fail(str(exc) if exc.path else f"{name}: {exc.bare}")
    g = result.game
    where = point.describe() if point is not None else "at the end"
    if g is None or getattr(g, "untracked", None):
        # a title whose numbers may be unknown (1890): no money kept, said so
        state = "game over" if result.finished else result.round
        if not result.standings:
            board_ = getattr(g, "board", None)
            click.echo(f"{name} {where}: {state}, phase {result.phase}; no money "
                       + ("" if board_ is not None else "or board position ")
                       + f"is kept for {result.title} here (see its 'info' findings)")
            if board_ is not None:      # a map without the money's numbers (1890)
                click.echo("")
                click.echo(board_.render_text())
                if svg:
                    _write(svg, board_.render_svg(
                        {c.sym: c.color for c in g.rules.corporations if c.color}))
                    click.echo(f"wrote {svg}", err=True)
            elif svg:
                _fail("no map to draw: the components file gives none")
            return
        click.echo(f"{name} {where}: {state}, phase {result.phase}, bank "
                   f"{money(result.bank, result.currency)}\n")
        click.echo(text_standings(result, result.currency))
        if result.companies:
            click.echo("")
            click.echo(text_companies(result, result.currency))
        return
    state = "game over" if g.finished else result.round
    click.echo(f"{name} {where}: {state}, phase {g.phase.name}, bank "
               f"{g.money(g.known_cash(g.bank))}")
    turn = whose_turn(g)
    if turn:
        click.echo(turn)
    click.echo("")
    click.echo(text_standings(result, result.currency))
    if result.companies:
        click.echo("")
        click.echo(text_companies(result, result.currency))
    if g.board is not None:
        click.echo("")
        click.echo(g.board.render_text())
        if svg:
            from .analysis.charts import company_colors
            _write(svg, g.board.render_svg(
                company_colors(g.rules),
                title=f"{result.title}: {name} {where}, phase {g.phase.name}"))
            click.echo(f"wrote {svg}", err=True)
    elif svg:
        _fail("no map to draw: the board was not checked (--no-board)" if no_board
              else f"no map to draw: {result.title}'s rules here give none"
              + (" (its components file has no map)"
                 if getattr(getattr(g, "rules", None), "components", None) is not None else ""))
    errs = [f for f in list(read_findings) + result.findings if f.severity == "error"]
    if errs:
        click.echo("")
        click.echo(f"{len(errs)} illegal action{'s' if len(errs) != 1 else ''} up to here; "
                   f"the first:")
        click.echo(finding_line(name, errs[0]))
        sys.exit(1)


# ----------------------------------------------------------------------
# the analyser (railcheck/analysis/): history, plot, report, league

def _history_or_fail(path, every="round", ruleset=None, board=True, routes_limit=None):
    """The history of a game (with the hindsight search of its runs when
    ``routes_limit`` is given), or a located message and exit 2."""
    from .analysis.history import history_of
    from .loader import STDIN, STDIN_NAME, load_game, read_text

    try:
        if routes_limit is None:
            return history_of(path, every=every, ruleset=ruleset, board=board)
        from .analysis.hindsight import hindsight
        # standard input is read once: each replay gets a record of its own
        text = read_text(path)
        record, read_findings = load_game(path, text=text, ruleset=ruleset)
        hist = history_of(path, every=every, ruleset=ruleset, board=board, record=record,
                          read_findings=read_findings)
        hist.runs = hindsight(path, limit=routes_limit, ruleset=ruleset,
                              record=load_game(path, text=text, ruleset=ruleset)[0])
        return hist
    except InputError as exc:
        name = STDIN_NAME if path == STDIN else path
        _fail(str(exc) if exc.path else f"{name}: {exc.bare}")


def _emit(text, output, force, inputs, what):
    if output:
        _check_outputs(inputs, force, (output, what))
        _write(output, text)
        click.echo(f"wrote {output}", err=True)
    else:
        _echo(text)


@main.command(short_help="A game's state at every round boundary (or action).")
@click.argument("path")
@click.option("--format", "fmt", type=click.Choice(["text", "csv", "json"]), default="text",
              show_default=True, help="text table, CSV (one column per value) or JSON; "
              "see docs/history.md.")
@click.option("--every", type=click.Choice(["round", "action"]), default="round",
              show_default=True, help="One row per round boundary, or one per action.")
@click.option("--routes", is_flag=True, help="Hindsight: for each run, the best revenue the "
              "company could have earned with its trains on the board as it was.")
@click.option("--route-limit", type=click.FloatRange(0.01, None), default=2.0,
              show_default=True, metavar="SECONDS", help="Stop the search of one run "
              "after this many seconds' worth of steps (and say so): a budget of steps, the "
              "same on any machine.")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="Write to this file instead of standard output.")
@click.option("--force", is_flag=True, help="Replace --output if it exists (never a game log).")
@click.option("--ruleset", type=click.Path(exists=True, dir_okay=False), default=None,
              help=RULESET_HELP)
@click.option("--no-board", is_flag=True, help="Skip the map checks of a hand-written log.")
def history(path, fmt, every, routes, route_limit, output, force, ruleset, no_board):
    """The state of a game at every round boundary (after the auction, each
    stock round, each operating round): players' cash, share value and net
    worth; companies' price, treasury, trains, revenue and dividend; the
    phase and the bank.  A game with illegal actions gets its history up to
    where the replay went (rows after the first are marked)."""
    from .analysis import history as H

    if output:
        _check_outputs([path], force, (output, "the history"))
    hist = _history_or_fail(path, every, ruleset, board=not no_board or routes,
                            routes_limit=route_limit if routes else None)
    render = {"text": H.render_text, "csv": H.render_csv, "json": H.render_json}[fmt]
    _emit(render(hist), output, force, [path], "the history")
    _exit_for_errors(hist)


def _exit_for_errors(hist) -> None:
    """The one rule of exit codes: 1 when the game has illegal actions (the
    output is still written, up to where the replay went)."""
    if hist.result is not None and hist.result.errors:
        sys.exit(1)


@main.command(short_help='Charts of a game: net worth, share prices, revenue.')
@click.argument("path")
@click.option("--what", default="all", show_default=True, metavar="CHART",
              help="networth, prices, revenue or all.")
@click.option("--output", "-o", required=True, type=click.Path(dir_okay=False),
              help="The picture: FILE.svg or FILE.png.")
@click.option("--force", is_flag=True, help="Replace --output if it exists (never a game log).")
@click.option("--ruleset", type=click.Path(exists=True, dir_okay=False), default=None,
              help=RULESET_HELP)
@click.option("--no-board", is_flag=True, help="Skip the map checks of a hand-written log.")
def plot(path, what, output, force, ruleset, no_board):
    """Charts of a game: net worth of each player over the rounds, share
    price of each company over the operating rounds, revenue per company per
    operating round; phase changes marked.  Needs matplotlib: pip install
    'railcheck[plots]'."""
    from .analysis.charts import WHAT

    if what not in WHAT + ("all",):
        _fail(f"--what {what!r}: choose one of {', '.join(WHAT + ('all',))}")
    if not output.lower().endswith((".svg", ".png")):
        _fail(f"{output}: the picture is written as SVG or PNG; name it FILE.svg or FILE.png")
    _check_outputs([path], force, (output, "the chart"))
    from .analysis.plot import MissingExtra, plot as draw

    hist = _history_or_fail(path, "round", ruleset, board=not no_board)
    try:
        draw(hist, what, output)
    except MissingExtra as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(f"{output}: cannot write: {exc.strerror or exc}")
    click.echo(f"wrote {output}", err=True)
    _exit_for_errors(hist)


@main.command(short_help='A league table over many games.')
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "csv", "json"]), default="text",
              show_default=True)
@click.option("--plays", is_flag=True, help="With --format csv: one row per player per game "
              "(game, title, date, player, score, rank, won, players, illegal_actions), the "
              "shape score-keeping apps such as BG Stats import.")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="Write to this file instead of standard output.")
@click.option("--force", is_flag=True, help="Replace --output if it exists (never a game log).")
@click.option("--jobs", "-j", type=JobsType(), default="auto", show_default=True,
              help=JOBS_HELP)
@click.option("--ruleset", type=click.Path(exists=True, dir_okay=False), default=None,
              help=RULESET_HELP)
@click.option("--no-board", is_flag=True, help="Skip the map checks of hand-written logs.")
@click.option("--exclude", multiple=True, metavar="GLOB", help=EXCLUDE_HELP)
def league(paths, fmt, plays, output, force, jobs, ruleset, no_board, exclude):
    """A league table over many games (files or folders): per player, games,
    wins, average rank, average share of the total net worth, best game.
    Only finished games count; the others are listed, and so are the games
    counted that have illegal actions (scored as the replay went).  The games
    are replayed in several processes (--jobs) with a progress counter on a
    terminal.  Exit codes: see 'railcheck --help'."""
    from .analysis import league as L
    from .loader import collect_paths

    if plays and fmt != "csv":
        raise click.UsageError("--plays is a form of the CSV output: give it with --format csv",
                               ctx=click.get_current_context())
    files, missing = collect_paths(paths, exclude)
    if output:
        _check_outputs(files, force, (output, "the league table"))
    named = _named_files(paths)
    reports: list = []

    def on_report(rep):
        rep.named = rep.path in named
        reports.append(rep)

    run_checks(files, jobs=jobs, board=not no_board, progress=_show_progress(len(files)),
               on_report=on_report, ruleset=ruleset)
    for e in missing:
        click.echo(f"error: {e}", err=True)
    lg = L.build([r for r in reports if r.status != "not_a_game"])
    if fmt == "csv":
        text = L.render_plays_csv(lg) if plays else L.render_csv(lg)
    else:
        text = {"text": L.render_text, "json": L.render_json}[fmt](lg)
    _emit(text, output, force, files, "the league table")
    sys.exit(exit_code(reports + [_missing_report(e) for e in missing], "error"))


def _missing_report(error):
    from .report import FileReport
    return FileReport(path=error.path, error=error)


@main.command(short_help='One HTML page per game, and an index for several.')
@click.argument("paths", nargs=-1, required=True)
@click.option("--output", "-o", "outdir", required=True, type=click.Path(file_okay=False),
              help="The folder for the pages (made if missing).")
@click.option("--routes", is_flag=True, help="Add hindsight routes (the best runs each "
              "company could have made) to each page.")
@click.option("--route-limit", type=click.FloatRange(0.01, None), default=2.0,
              show_default=True, metavar="SECONDS", help="Stop the search of one run "
              "after this many seconds' worth of steps (the same on any machine).")
@click.option("--force", is_flag=True, help="Replace pages that exist.")
@click.option("--ruleset", type=click.Path(exists=True, dir_okay=False), default=None,
              help=RULESET_HELP)
@click.option("--exclude", multiple=True, metavar="GLOB", help=EXCLUDE_HELP)
@click.option("--jobs", "-j", type=JobsType(), default="auto", show_default=True,
              help="Make the pages in this many parallel processes; 'auto' (the default): "
                   "one per usable CPU, with at least 4 games each (a page costs little, a "
                   "process more).")
@click.option("--no-board", is_flag=True, help="Skip the map checks of hand-written logs (no "
              "board pictures for them).")
def report(paths, outdir, routes, route_limit, force, ruleset, exclude, jobs, no_board):
    """One self-contained HTML page per game (header, findings with the
    record's lines and the rules explained, standings, companies, charts,
    the board at the end and at each finding), and for a folder or several
    games an index page with the league table.  A progress counter is shown
    on a terminal.  Exit codes: see 'railcheck --help'."""
    from .analysis.html_report import ReportError, write_reports
    from .loader import collect_paths

    files, missing = collect_paths(paths, exclude)
    if not files:
        _fail(str(missing[0]) if missing else "no game logs given")
    bar = Progress(len(files)) if _show_progress(len(files)) else None
    try:
        written, pages = write_reports(files, outdir, force=force, routes=routes,
                                       route_limit=route_limit, ruleset=ruleset,
                                       jobs=auto_jobs(len(files) // 4) if jobs == "auto"
                                       else jobs,
                                       board=not no_board,
                                       named=_named_files(paths),
                                       progress=bar.tick if bar else None,
                                       index=len(files) > 1 or any(os.path.isdir(p) for p in paths))
    except ReportError as exc:
        _fail(str(exc))
    finally:
        if bar:
            bar.clear()
    for e in missing:
        click.echo(f"error: {e}", err=True)
    named = _named_files(paths)
    skipped = [p for p in pages if p.not_a_game and p.path not in named]
    unreadable = [p for p in pages if p.error and p not in skipped]
    for p in unreadable:
        click.echo(f"error: {p.error}", err=True)
    note = f" ({plural(len(skipped), 'file')} not game records, skipped)" if skipped else ""
    click.echo(f"wrote {plural(len(written), 'page')} to {outdir}{note}", err=True)
    if missing or unreadable:
        sys.exit(2)
    if any(p.errors for p in pages):
        sys.exit(1)


class Progress:
    """A progress counter on standard error: ``[#####-----] 3/10 path``."""

    def __init__(self, total: int):
        self.total = total

    def tick(self, i: int, path: str) -> None:
        width = 30
        done = width * i // max(1, self.total)
        bar = "#" * done + "-" * (width - done)
        sys.stderr.write(f"\r\x1b[K[{bar}] {i}/{self.total} {str(path)[-50:]}")
        sys.stderr.flush()

    def clear(self) -> None:
        sys.stderr.write("\r\x1b[K")
        sys.stderr.flush()


if __name__ == "__main__":  # pragma: no cover
    main()
