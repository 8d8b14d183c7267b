"""Differential testing against the 18xx.games engine (a development tool, not installed).

Replays every 18xx.games export given (files or folders, ``*.json`` / ``*.json.gz``) with
railcheck and sorts each game into

* **clean** -- no error finding, the engine's final net worth for every player, the engine's
  end of the game, and (where a trace of the engine's state after every action exists) the
  same cash, treasuries, prices, presidents, trains, bank and phase after every action;
* **rule-backed** -- its only error findings are rules listed in ``tools/rule_backed.yaml``:
  places where a published rule forbids what the engine lets through (each entry names the
  rule, the page of ``docs/`` that says why, and the test that keeps it).  Where an entry
  names a ``site_option`` (a ruleset option that plays the game the engine's way), the game
  is replayed with it and must then be clean; where an entry says the finding leaves the
  state as the record has it (``keeps_state: true``), the scores and the trace must still
  agree;
* **divergent** -- anything else: a bug until a rule says otherwise.
* **skipped** -- not an export, or a game the engine's own replay refuses (the generator's
  ``gen.log`` says ``verify=FAIL`` for it): no reference to compare with.

A game the engine ended by its own turn limit (``dnf``: 100 turns of rounds in which nobody
could act, paying income past the bank's break) is compared up to its last action, whose
state, end and scores are the engine's stop rather than the game's.  The report gives the
  first error finding, the first action where the state parts from the trace and what
  differs, and the scores that differ.

A trace is looked for beside the export (``X.trace.json[.gz]``), in a ``traces/`` folder
beside it or one or two levels up (``traces/X.trace.json[.gz]``, ``traces/<title>_X.trace.json``:
the shared corpus's real games have theirs in ``corpus/traces/``).

    python tools/difftest.py ../shared/corpus/random /work/gen/A --jobs 2
    python tools/difftest.py GAMES --json out.json      # every game's verdict, for scripts
    python tools/difftest.py GAMES --show divergent     # only the divergent games' lines

Exit status: 0 when no game is divergent, 1 otherwise.
"""

from __future__ import annotations

import argparse
import gzip
import json
import multiprocessing
import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Optional

import yaml

HERE = Path(__file__).resolve().parent
TABLE = HERE / "rule_backed.yaml"

#: the engine's game_end_reason -> railcheck's end_reason
END_REASONS = {"nationalisation": "nationalization", "game_end_check": None}


def read_text(path: Path) -> str:
    if path.suffix == ".gz":
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            return fh.read()
    return path.read_text(encoding="utf-8")


def is_trace(path: Path) -> bool:
    return ".trace." in path.name


def find_games(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            for q in sorted(p.rglob("*")):
                if q.is_file() and (q.name.endswith(".json") or q.name.endswith(".json.gz")) \
                        and not is_trace(q):
                    out.append(q)
        elif p.is_file() and not is_trace(p):
            out.append(p)
    return out


def stem(path: Path) -> str:
    name = path.name
    for suffix in (".json.gz", ".json"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def find_trace(path: Path, title: str) -> Optional[Path]:
    s = stem(path)
    names = [f"{s}.trace.json.gz", f"{s}.trace.json", f"{title}_{s}.trace.json.gz",
             f"{title}_{s}.trace.json"]
    # beside it, in traces/ beside it, or in a traces/ folder one or two levels up
    # (../shared/corpus/traces for ../shared/corpus/18xx.games/<title>/<game>.json)
    for folder in (path.parent, path.parent / "traces", path.parent.parent / "traces",
                   path.parent.parent.parent / "traces"):
        for n in names:
            if (folder / n).exists():
                return folder / n
    return None


def engine_refused(path: Path) -> Optional[str]:
    """Why the engine's own replay of this export fails, as the generator's log says it
    (``randgame.rb`` reloads every game it writes and prints ``verify=FAIL ...`` when the
    engine refuses an action of it: a game played with a stale cache of the engine's
    track graph): a ``gen.log`` beside the export or one or two levels up.  None when no
    log says so.  Such a game is no reference for railcheck: it is skipped."""
    name = path.name
    for folder in (path.parent, path.parent.parent, path.parent.parent.parent):
        log = folder / "gen.log"
        if not log.is_file():
            continue
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith(name + " ") and "verify=FAIL" in line:
                return line.split("verify=FAIL", 1)[1].split(" rare=")[0].strip()
    return None


def load_table(path: Path = TABLE) -> dict:
    """The rule-backed findings, {(title, rule): entry}, and the options that play a title
    the engine's way, {(title, "option"): [entries]}."""
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    table: dict = {}
    for entry in data.get("rule_backed") or []:
        for title in entry["titles"]:
            key = (str(title), entry["rule"])
            if entry.get("games"):
                # backed in the games named only (a real game's one move)
                key = key + tuple(str(g) for g in entry["games"])
            table[key] = entry
    for entry in data.get("site_options") or []:
        for title in entry["titles"]:
            table.setdefault((str(title), "option"), []).append(entry)
    return table


def backs(table: dict, title: str, game: str, rule: str) -> bool:
    """Whether the table backs ``rule``'s findings in ``game`` of ``title`` (an entry
    naming ``games`` backs them in those games only: :func:`_backed_in_game`)."""
    return (title, rule) in table or _backed_in_game(table, title, rule, game)


def _replay(text: str, path: str, trace: Optional[dict], extra_options=()):
    from railcheck.conformance import walk_trace
    from railcheck.engine import Replay
    from railcheck.importer import import_export

    record, read = import_export(text, path)
    if extra_options:
        record.options = list(record.options) + list(extra_options)
    if trace is not None:
        divergence, result, compared = walk_trace(record, trace)
    else:
        divergence, result, compared = None, Replay(record).run(), 0
    return read, divergence, result, compared


def judge(path_str: str, table: dict) -> dict:
    """One game's verdict (a plain dict, sent back from a worker)."""
    path = Path(path_str)
    started = time.perf_counter()
    out: dict = {"path": path_str, "game": stem(path)}
    try:
        text = read_text(path)
        data = json.loads(text)
    except Exception as exc:  # a broken file is reported, not raised
        out.update(verdict="divergent", title="?", why=f"unreadable: {exc}")
        return out
    if not isinstance(data, dict) or "actions" not in data:
        out.update(verdict="skipped", title="?", why="not an export")
        return out
    title = str(data.get("title"))
    out["title"] = title
    out["players"] = len(data.get("players") or [])
    refused = engine_refused(path)
    if refused is not None:
        out.update(verdict="skipped", why=f"the engine's own replay of it fails: {refused}")
        return out
    trace_path = find_trace(path, title)
    trace = json.loads(read_text(trace_path)) if trace_path else None
    out["trace"] = str(trace_path) if trace_path else None
    # the engine's own safety stop ("dnf": 100 turns, no rule): after the last action it
    # played rounds in which nobody could act, paying the privates' income past the
    # bank's break, up to its turn limit (18Ireland 33000014_4, #176); the state after the
    # last action, the end and the scores are the engine's stop, not the game's
    dnf = str(data.get("game_end_reason")) == "dnf"
    if dnf:
        out["why"] = ("the engine stopped at its turn limit (dnf): end, scores and the last "
                      "state not compared")
        if trace is not None and trace.get("states"):
            trace = dict(trace, states=trace["states"][:-1])
    try:
        read, divergence, result, compared = _replay(text, path_str, trace)
    except Exception as exc:
        out.update(verdict="divergent", why=f"railcheck raised {type(exc).__name__}: {exc}")
        return out
    out["compared"] = compared
    errors = [f for f in list(read) + list(result.findings) if f.severity == "error"]
    out["errors"] = [{"id": f.action_id, "line": f.line, "rule": f.rule, "message": f.message}
                     for f in errors]
    out["warnings"] = sorted({f.rule for f in result.findings if f.severity == "warning"})
    by_id = {str(p["id"]): str(p["name"]) for p in data.get("players") or []}
    expected = {by_id.get(str(k), str(k)): v for k, v in (data.get("result") or {}).items()}
    worth = {row["player"]: row["net_worth"] for row in result.standings}
    score_diff = {k: (worth.get(k), v) for k, v in expected.items()
                  if worth.get(k) != v and not dnf}
    out["score_diff"] = score_diff
    want_end = END_REASONS.get(str(data.get("game_end_reason")), data.get("game_end_reason"))
    end_diff = None
    if data.get("status") == "finished" and not dnf:
        if not result.finished:
            end_diff = f"the engine finished ({want_end}); railcheck did not"
        elif want_end and result.end_reason != want_end:
            end_diff = f"ends by {result.end_reason}, the engine by {want_end}"
    out["end_diff"] = end_diff
    out["divergence"] = divergence.as_tuple() if divergence else None
    out["divergence_text"] = str(divergence) if divergence else None
    agrees = not score_diff and not end_diff and divergence is None
    backed = all(backs(table, title, out["game"], e["rule"]) for e in out["errors"])
    if agrees and not errors:
        out["verdict"] = "clean"
    elif agrees and backed:
        out["verdict"] = "rule-backed"
    elif (title, "option") in table:
        # a published rule railcheck keeps and the engine does not, which changes the game
        # (18Ireland's B5): replayed the engine's way, the game must be clean
        options = [e["option"] for e in table[(title, "option")]]
        try:
            _, d2, r2, _ = _replay(text, path_str, trace, options)
        except Exception as exc:
            out.update(verdict="divergent", why=f"with {options}: raised {exc}")
            return out
        e2 = [f for f in r2.findings
              if f.severity == "error" and not backs(table, title, out["game"], f.rule)]
        w2 = {row["player"]: row["net_worth"] for row in r2.standings}
        if not e2 and d2 is None and (dnf or all(w2.get(k) == v for k, v in expected.items())):
            out["verdict"] = "rule-backed"
            out["why"] = f"as the engine's with the option {', '.join(options)}"
        else:
            out["verdict"] = "divergent"
            if e2 or d2:
                out["why"] = (f"with the option {', '.join(options)} too: "
                              f"{d2 or ''} {[f.rule for f in e2][:3]}")
    else:
        out["verdict"] = "divergent"
    out["seconds"] = round(time.perf_counter() - started, 2)
    return out


def _backed_in_game(table: dict, title: str, rule: str, game: str) -> bool:
    """An entry with ``games`` backs ``rule`` in those games only."""
    return any(len(k) > 2 and k[0] == title and k[1] == rule and game in k[2:] for k in table)


def _work(args):
    path, table = args
    return judge(path, table)


def describe(v: dict) -> str:
    parts = [f"{v['path']}: {v['verdict']}"]
    if v.get("why"):
        parts.append(f"  why: {v['why']}")
    for e in (v.get("errors") or [])[:3]:
        at = f"#{e['id']}" if e.get("id") is not None else f"line {e.get('line')}"
        parts.append(f"  first errors: {at} [{e['rule']}] {e['message']}")
    if len(v.get("errors") or []) > 3:
        parts.append(f"  ... {len(v['errors']) - 3} more errors")
    if v.get("divergence_text"):
        parts.append(f"  trace: {v['divergence_text']}")
    if v.get("score_diff"):
        parts.append("  scores (railcheck, engine): " + ", ".join(
            f"{k} {a} vs {b}" for k, (a, b) in v["score_diff"].items()))
    if v.get("end_diff"):
        parts.append(f"  end: {v['end_diff']}")
    return "\n".join(parts)


def summary(verdicts: list[dict]) -> str:
    from tabulate import tabulate
    counts: dict = defaultdict(Counter)
    for v in verdicts:
        counts[v.get("title", "?")][v["verdict"]] += 1
    rows = []
    for title in sorted(counts):
        c = counts[title]
        rows.append([title, sum(c.values()), c["clean"], c["rule-backed"], c["divergent"],
                     c["skipped"]])
    return tabulate(rows, headers=["title", "games", "clean", "rule-backed", "divergent",
                                   "skipped"])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--json", help="write every game's verdict to this file")
    ap.add_argument("--table", default=str(TABLE), help="the rule-backed table (YAML)")
    ap.add_argument("--show", choices=["all", "divergent", "none"], default="divergent",
                    help="which games to describe (default: the divergent ones)")
    args = ap.parse_args(argv)
    table = load_table(Path(args.table))
    games = find_games(args.paths)
    if not games:
        print("no exports found", file=sys.stderr)
        return 2
    started = time.perf_counter()
    verdicts: list[dict] = []
    work = [(str(g), table) for g in games]
    if args.jobs > 1 and len(games) > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            for v in pool.imap_unordered(_work, work, chunksize=1):
                verdicts.append(v)
                if args.show == "all" or (args.show == "divergent" and v["verdict"] == "divergent"):
                    print(describe(v), flush=True)
    else:
        for w in work:
            v = _work(w)
            verdicts.append(v)
            if args.show == "all" or (args.show == "divergent" and v["verdict"] == "divergent"):
                print(describe(v), flush=True)
    verdicts.sort(key=lambda v: v["path"])
    print()
    print(summary(verdicts))
    print(f"{len(verdicts)} games in {time.perf_counter() - started:.1f} s")
    if args.json:
        Path(args.json).write_text(json.dumps(verdicts, indent=1) + "\n", encoding="utf-8")
    return 1 if any(v["verdict"] == "divergent" for v in verdicts) else 0


if __name__ == "__main__":
    sys.exit(main())
