#!/usr/bin/env python3
"""Speed benchmark of railcheck (not a test: it only measures and prints).

    python benchmarks/run.py [--corpus DIR] [--batch N] [--jobs J] [--repeat R]

Measures, and prints as a markdown table with the machine it ran on:

* the time of every 18xx.games export under the corpus whose title railcheck
  supports (others are listed as skipped), in process, with every check on
  (board included): the first run of each title (ruleset loading included)
  and the median of ``--repeat`` warm runs; the total and the median game;
* validating the whole supported corpus, the 1830 corpus alone, the 1860
  corpus alone, the 18Ireland corpus alone and the 1889 corpus alone, with the CLI in a
  fresh process (start-up included), best of 5;
* cold start of ``railcheck --help`` and of ``railcheck validate`` on one
  game, best of 5;
* peak memory (``ru_maxrss``) of a child process validating the 1830 corpus;
* a synthetic league: the 1830 exports copied until there are ``--batch``
  games (1,000 by default) in a temporary folder, validated with
  ``railcheck validate --jobs J -q FOLDER``;
* the analyser (issue 16), CLI in a fresh process: ``railcheck history`` of
  the longest real game (best of 5), ``railcheck report`` of the 1830 corpus
  (best of 3), and the hindsight routes of the longest 1830 game
  (``railcheck history --routes``, once);
* 1890 (Kansai), which has no export: each game of ``examples/kansai`` (the
  complete game, the map game and the illegal ones, with their components
  files) in process, all of them with the CLI, and ``railcheck history`` of the
  complete game.

* at the table (issue 28, ``benchmarks/table.py``): ``railcheck next`` on the
  longest game (whole process), and the language server's diagnostics after
  edits of a 600-line record (``--table-only`` runs these alone; they need
  the ``lsp`` extra).

Standard library and railcheck only (and pygls for the language server).  Goals (issue 6): the 1830 corpus well
under 0.8 s start-up included, a median game under 50 ms, cold start under
0.3 s, 1,000 games under a minute on 2 cores; history of the longest game under
0.5 s, the HTML report of the 1830 corpus under 5 s, hindsight routes of a whole
1830 game under 30 s.  Issues 13 and 14: the 1860 corpus under 0.2 s and the
18Ireland corpus under 0.275 s, start-up included (a quarter of the site engine's
~0.8 s and ~1.1 s).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus" / "18xx.games"
DEFAULT_RANDOM = REPO.parent / "shared" / "corpus" / "random"

try:
    import railcheck  # noqa: F401  (installed: pip install -e .)
except ImportError:  # pragma: no cover - run from a checkout without installing
    sys.path.insert(0, str(REPO))


def railcheck_cmd() -> list[str]:
    """The console script installed next to this interpreter (its virtualenv),
    else the one on PATH, or the module with this interpreter."""
    own = Path(sys.executable).parent / "railcheck"
    if own.is_file():
        return [str(own)]
    exe = shutil.which("railcheck")
    if exe:
        return [exe]
    return [sys.executable, "-m", "railcheck.cli"]


def best_of(n: int, argv: list[str], env=None) -> tuple[float, int]:
    """Best wall time of ``n`` runs of a command, and its exit code."""
    best, code = float("inf"), None
    for _ in range(n):
        t = time.perf_counter()
        proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        best = min(best, time.perf_counter() - t)
        code = proc.returncode
    return best, code


def peak_rss_kib(argv: list[str]) -> tuple[int, int]:
    """Peak resident memory (KiB) of ``argv`` run as the only child of a
    fresh helper process (so that no other child's peak is counted)."""
    helper = ("import resource, subprocess, sys, json\n"
              "p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
              "stderr=subprocess.DEVNULL)\n"
              "print(json.dumps([resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "
              "p.returncode]))\n")
    out = subprocess.run([sys.executable, "-c", helper, *argv], capture_output=True, text=True,
                         check=True).stdout
    rss, code = json.loads(out)
    return int(rss), int(code)


def export_title(path: Path):
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return str(data.get("title")), len(data.get("actions") or [])
    except (OSError, ValueError, AttributeError):
        return None, 0


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        cpu = platform.processor() or cpu
    try:
        load = "load average %.2f %.2f %.2f" % os.getloadavg()
    except OSError:
        load = "load average unknown"
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (f"{os.cpu_count()} CPU(s) (nproc {usable}), {cpu}; "
            f"Python {platform.python_version()} ({platform.python_implementation()}); "
            f"{platform.system()} {platform.release()}; {load} at the start (other work "
            f"on the machine slows every number)")


def fmt_ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 10 else f"{seconds:.1f} s"


def mark(ok: bool) -> str:
    return "yes" if ok else "**no**"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, action="append", default=None,
                    help="folder of 18xx.games exports, one subfolder per title; may be "
                         "given several times; the first is the real games' corpus "
                         f"(default: {DEFAULT_CORPUS} and {DEFAULT_RANDOM})")
    ap.add_argument("--batch", type=int, default=1000,
                    help="games in the synthetic league run (0 to skip)")
    ap.add_argument("--jobs", type=int, default=2, help="--jobs for the league run")
    ap.add_argument("--repeat", type=int, default=5, help="warm runs per game")
    ap.add_argument("--no-analyser", action="store_true",
                    help="skip the analyser's measures (history, report, hindsight)")
    ap.add_argument("--profile", type=int, metavar="N", default=0,
                    help="also print the N functions with the most cumulative time over "
                         "one warm pass of the corpus (cProfile) to standard error")
    ap.add_argument("--table-only", action="store_true",
                    help="only the measures of issue 28 (next, the language server)")
    ap.add_argument("--no-table", action="store_true",
                    help="skip the measures of issue 28 (next, the language server)")
    args = ap.parse_args(argv)
    if args.table_only:
        sys.path.insert(0, str(HERE))
        import table
        print(f"Machine: {machine()}\n")
        table.print_rows(table.run((args.corpus or [DEFAULT_CORPUS])[0]))
        return 0

    from railcheck.cli import check_file
    from railcheck.ruleset import known_titles

    corpora = args.corpus or [c for c in (DEFAULT_CORPUS, DEFAULT_RANDOM) if c.is_dir()]
    for corpus in corpora:
        if not corpus.is_dir():
            print(f"error: no corpus at {corpus}", file=sys.stderr)
            return 2
    if not corpora:
        print(f"error: no corpus at {DEFAULT_CORPUS}", file=sys.stderr)
        return 2
    titles = set(known_titles())
    games, skipped, root_of = [], [], {}
    for corpus in corpora:
        for path in sorted(corpus.rglob("*.json")):
            if path.name.endswith(".trace.json"):
                continue
            root_of[path] = corpus
            title, n_raw = export_title(path)
            (games if title in titles else skipped).append((path, title, n_raw))
    if not games:
        print("error: no game of a supported title in the corpus", file=sys.stderr)
        return 2
    cli = railcheck_cmd()

    # -- per game, in process --------------------------------------------
    rows = []
    seen_titles = set()
    def timed(path):
        """The report of one game, its first run's time and the median of
        ``--repeat`` warm runs, in process."""
        t = time.perf_counter()
        rep = check_file(str(path), keep_game=False)
        first = time.perf_counter() - t
        warm = []
        for _ in range(args.repeat):
            t = time.perf_counter()
            check_file(str(path), keep_game=False)
            warm.append(time.perf_counter() - t)
        return rep, first, statistics.median(warm)

    for path, title, n_raw in games:
        rep, first, warm_median = timed(path)
        actions = rep.result.actions if rep.result is not None else 0
        rows.append(dict(path=path, title=title, status=rep.status, actions=actions, raw=n_raw,
                         first=first, warm=warm_median,
                         first_of_title=title not in seen_titles))
        seen_titles.add(title)

    # -- the 1890 (Kansai) examples: notation with components files -------
    # (no export of the title exists: its complete game, its map game and its illegal ones)
    examples = sorted((REPO / "examples" / "kansai").rglob("*.18xx"))
    example_rows = []
    for path in examples:
        rep, first, warm_median = timed(path)
        example_rows.append(dict(path=path, status=rep.status, first=first,
                                 warm=warm_median,
                                 actions=rep.result.actions if rep.result is not None else 0))

    if args.profile:
        import cProfile
        import io
        import pstats
        prof = cProfile.Profile()
        prof.enable()
        for path, _, _ in games:
            check_file(str(path), keep_game=False)
        prof.disable()
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).sort_stats("cumulative").print_stats(args.profile)
        print(buf.getvalue(), file=sys.stderr)

    # -- whole corpus in a fresh CLI process -----------------------------
    all_files = [str(p) for p, _, _ in games]

    def real_games(title: str) -> list:
        """The real games of ``title`` (those of the first corpus)."""
        return [str(p) for p, t, _ in games if t == title and root_of[p] == corpora[0]]

    def validated(files: list):
        """(seconds, exit code) of ``validate -q`` of ``files``, best of 5; (None,
        None) for no file."""
        return best_of(5, [*cli, "validate", "-q", *files]) if files else (None, None)

    # "the 1830 corpus": the real games (the first corpus)
    files_1830 = real_games("1830")
    corpus_s, corpus_code = best_of(5, [*cli, "validate", "-q", *all_files])
    c1830_s, c1830_code = validated(files_1830)
    # the real 18Ireland games (issue 14: a quarter of the site engine's ~1.1 s)
    files_ire = real_games("18Ireland")
    ire_s, _ = validated(files_ire)
    # the real 1860 games (issue 13: a quarter of the site engine's ~0.8 s, so 0.2 s)
    files_1860 = real_games("1860")
    s1860, _ = validated(files_1860)
    # the real 1889 games (the sixth title; no goal of its own: measured)
    files_1889 = real_games("1889")
    s1889, _ = validated(files_1889)
    kansai_s = None
    if examples:
        kansai_s, _ = best_of(5, [*cli, "validate", "-q", *map(str, examples)])
    help_s, _ = best_of(5, [*cli, "--help"])
    one = files_1830[0] if files_1830 else all_files[0]
    one_s, _ = best_of(5, [*cli, "validate", "-q", one])
    rss, _ = peak_rss_kib([*cli, "validate", "-q", *(files_1830 or all_files)])

    # -- synthetic league ------------------------------------------------
    league = None
    if args.batch > 0:
        sources = [Path(f) for f in (files_1830 or all_files)]
        with tempfile.TemporaryDirectory(prefix="railcheck-bench-") as tmp:
            for i in range(args.batch):
                src = sources[i % len(sources)]
                shutil.copyfile(src, Path(tmp) / f"{i:05d}-{src.name}")
            t = time.perf_counter()
            proc = subprocess.run([*cli, "validate", "--jobs", str(args.jobs), "-q", tmp],
                                  capture_output=True, text=True)
            league = (time.perf_counter() - t, proc.returncode,
                      proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else "")

    # -- the analyser ----------------------------------------------------
    analyser = None
    if not args.no_analyser:
        real = [(p, t, n) for p, t, n in games if root_of[p] == corpora[0]] or games
        longest = max(real, key=lambda g: g[2])
        longest_1830 = max([g for g in real if g[1] == "1830"] or real, key=lambda g: g[2])
        hist_s, hist_code = best_of(5, [*cli, "history", str(longest[0]), "--format", "csv"])
        with tempfile.TemporaryDirectory(prefix="railcheck-report-") as tmp:
            report_s, report_code = best_of(3, [*cli, "report", *(files_1830 or all_files),
                                                "-o", tmp, "--force"])
        routes_s, routes_code = best_of(1, [*cli, "history", str(longest_1830[0]), "--routes"])
        game_1890 = REPO / "examples" / "kansai" / "game.18xx"
        hist_1890_s, hist_1890_code = best_of(5, [*cli, "history", str(game_1890), "--format",
                                                  "csv"])
        analyser = (longest, hist_s, report_s, longest_1830, routes_s, hist_1890_s)
        failed = [c for c in (hist_code, report_code, routes_code, hist_1890_code) if c != 0]
        if failed:
            print(f"warning: an analyser command exited with {failed[0]}", file=sys.stderr)

    # -- report ----------------------------------------------------------
    print(f"Machine: {machine()}\n")
    print("| game | title | export actions | replayed | status | first run | warm (median of "
          f"{args.repeat}) |")
    print("|---|---|---:|---:|---|---:|---:|")
    for r in rows:
        rel = r["path"].relative_to(root_of[r["path"]].parent)
        note = " (loads ruleset)" if r["first_of_title"] else ""
        print(f"| {rel} | {r['title']} | {r['raw']} | {r['actions']} | {r['status']} | "
              f"{fmt_ms(r['first'])}{note} | {fmt_ms(r['warm'])} |")
    for path, title, n_raw in skipped:
        print(f"| {path.relative_to(root_of[path].parent)} | {title} | {n_raw} | - | skipped: "
              f"no ruleset | - | - |")
    for r in example_rows:
        print(f"| {r['path'].relative_to(REPO)} | 1890 | - | {r['actions']} | {r['status']} | "
              f"{fmt_ms(r['first'])} | {fmt_ms(r['warm'])} |")
    warm_all = [r["warm"] for r in rows]
    total_actions = sum(r["actions"] for r in rows)
    median = statistics.median(warm_all)
    print()
    print("| measure | result | goal | met |")
    print("|---|---:|---|---|")
    print(f"| games checked / skipped | {len(rows)} / {len(skipped)} | | |")
    print(f"| actions: in the exports / replayed (after undo, chat) "
          f"| {sum(r['raw'] for r in rows):,} / {total_actions:,} | | |")
    print(f"| sum of warm per-game times | {fmt_ms(sum(warm_all))} | | |")
    print(f"| median game (warm) | {fmt_ms(median)} | < 50 ms | {mark(median < 0.05)} |")
    print(f"| slowest game (warm) | {fmt_ms(max(warm_all))} | | |")
    for corpus in corpora:
        for title in sorted({r["title"] for r in rows if root_of[r["path"]] == corpus}):
            mine = [r for r in rows if root_of[r["path"]] == corpus and r["title"] == title]
            med = statistics.median(r["warm"] for r in mine)
            print(f"| median game, {corpus.name}/{title} ({len(mine)} games, "
                  f"{sum(r['actions'] for r in mine):,} actions) | {fmt_ms(med)} | < 50 ms "
                  f"| {mark(med < 0.05)} |")
    if c1830_s is not None:
        print(f"| 1830 corpus ({len(files_1830)} games), CLI start-up included, best of 5 "
              f"| {fmt_ms(c1830_s)} | well under 0.8 s | {mark(c1830_s < 0.8)} |")
    if ire_s is not None:
        print(f"| 18Ireland corpus ({len(files_ire)} games), CLI start-up included, best of 5 "
              f"| {fmt_ms(ire_s)} | < 0.275 s (a quarter of the site engine's ~1.1 s) "
              f"| {mark(ire_s < 0.275)} |")
    if s1860 is not None:
        print(f"| 1860 corpus ({len(files_1860)} games), CLI start-up included, best of 5 "
              f"| {fmt_ms(s1860)} | < 0.2 s (a quarter of the site engine's ~0.8 s) "
              f"| {mark(s1860 < 0.2)} |")
    if s1889 is not None:
        print(f"| 1889 corpus ({len(files_1889)} games), CLI start-up included, best of 5 "
              f"| {fmt_ms(s1889)} | | |")
    if example_rows:
        med = statistics.median(r["warm"] for r in example_rows)
        print(f"| median game, examples/kansai (1890: {len(example_rows)} games, "
              f"{sum(r['actions'] for r in example_rows):,} actions) | {fmt_ms(med)} | < 50 ms "
              f"| {mark(med < 0.05)} |")
        print(f"| the 1890 examples ({len(example_rows)} games), CLI start-up included, best "
              f"of 5 | {fmt_ms(kansai_s)} | | |")
    print(f"| whole supported corpus ({len(all_files)} games), CLI, best of 5 "
          f"| {fmt_ms(corpus_s)} | | |")
    print(f"| cold start `railcheck --help`, best of 5 | {fmt_ms(help_s)} | < 0.3 s "
          f"| {mark(help_s < 0.3)} |")
    print(f"| cold start `railcheck validate` one game, best of 5 | {fmt_ms(one_s)} | | |")
    print(f"| peak memory validating the {'1830' if files_1830 else 'supported'} corpus "
          f"| {rss / 1024:.0f} MiB | | |")
    if league is not None:
        secs, code, summary = league
        print(f"| {args.batch:,} games, `--jobs {args.jobs}` | {fmt_ms(secs)} "
              f"({secs / args.batch * 1000:.1f} ms/game) | < 60 s on 2 cores "
              f"| {mark(secs < 60)} |")
    if analyser is not None:
        longest, hist_s, report_s, longest_1830, routes_s, hist_1890_s = analyser
        print(f"| `railcheck history` of the longest game ({longest[0].name}, {longest[2]} "
              f"actions), CLI, best of 5 | {fmt_ms(hist_s)} | < 0.5 s | {mark(hist_s < 0.5)} |")
        print(f"| `railcheck report` of the {'1830' if files_1830 else 'supported'} corpus "
              f"({len(files_1830 or all_files)} games + index), CLI, best of 3 "
              f"| {fmt_ms(report_s)} | < 5 s | {mark(report_s < 5)} |")
        print(f"| hindsight routes (`history --routes`) of {longest_1830[0].name}, CLI "
              f"| {fmt_ms(routes_s)} | < 30 s | {mark(routes_s < 30)} |")
        print(f"| `railcheck history` of examples/kansai/game.18xx (1890), CLI, best of 5 "
              f"| {fmt_ms(hist_1890_s)} | < 0.5 s | {mark(hist_1890_s < 0.5)} |")
    if not args.no_table:
        sys.path.insert(0, str(HERE))
        import table
        print()
        table.print_rows(table.run(corpora[0]))
    bad = [c for c in (corpus_code, c1830_code) if c not in (None, 0, 1)]
    if league is not None and league[1] not in (0, 1):
        bad.append(league[1])
    if bad:
        print(f"\nwarning: a validation run exited with {bad[0]} (unreadable input?)",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
