#!/usr/bin/env python3
"""``railcheck next`` against ``railcheck validate``: for each game and a
sample of positions in it, one action ``next`` offered is appended to the
record cut there and the replay must accept it (no error finding on it), and
one candidate it did not offer must be refused (an error finding on it).

    python tools/next_agreement.py [PATHS...] [--positions N] [--json OUT]

Without paths: the random games and real exports of tests/data.  Prints the
positions and actions tried per title, and every disagreement.  The test
``tests/test_table_next.py`` runs the same check."""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

#: the line given to the action tried, to find the findings on it
MARK = 10 ** 7


def default_paths() -> list:
    data = REPO / "tests" / "data"
    out = []
    for folder in ("random/1830", "exports/1860_random", "exports/18Ireland_random",
                   "exports/1830", "exports/1860", "exports/18Ireland"):
        out.extend(sorted(p for p in (data / folder).glob("*.json*")))
    return out


def positions_of(record, n: int, seed: str, end: bool = True) -> list:
    """``n`` positions (action counts) drawn over the record with a seed of
    the game's name (the same on every run), and its end (no position when
    the game is over there)."""
    from railcheck.actions import Checkpoint, RoundMarker
    plays = [k for k, a in enumerate(record.actions)
             if not isinstance(a, (Checkpoint, RoundMarker))]
    if not plays:
        return []
    rng = random.Random(seed)
    picks = sorted(rng.sample(plays, min(n, len(plays))))
    # the end, unless the record says the game is over there
    over = record.expected_end_reason or record.expected_result
    return picks + ([len(record.actions)] if end and not over else [])


def errors_on_mark(result) -> list:
    return [f for f in result.findings if f.severity == "error" and f.line == MARK]


def kansai_paths() -> list:
    """1890's records: the examples (legal and illegal) and the tests' games."""
    return sorted((REPO / "examples" / "kansai").glob("*.18xx")) \
        + sorted((REPO / "examples" / "kansai" / "illegal").glob("*.18xx")) \
        + sorted((REPO / "tests" / "kansai" / "games").glob("*.18xx"))


def _new_errors(record, cut: list, extra: list) -> list:
    """The error findings ``railcheck validate`` gives the record cut there
    with ``extra`` appended and not the record cut there (by rule and line):
    what the actions appended add, a duty they leave undone included."""
    from collections import Counter

    from railcheck.engine import Replay

    def errors(actions):
        rec = replace(record, actions=actions, expected_result=None, expected_end_reason=None,
                      tags={k: v for k, v in record.tags.items() if k != "end"})
        return [f for f in Replay(rec, hints=False).run().findings if f.severity == "error"]
    base = Counter((f.rule, f.line) for f in errors(cut))
    after = errors(cut + extra)
    new = Counter((f.rule, f.line) for f in after) - base
    # (a main company that operated before one priced above it is flagged at
    # its own turn once the other's turn follows in the record (O0b, read
    # ahead): the record's earlier line, not the action appended)
    cut_lines = {a.line for a in cut}
    return [f for f in after if (f.rule, f.line) in new
            and not (f.rule == "turn.order" and f.line in cut_lines)]


def check_kansai_game(path, n_positions: int = 3, every: bool = False) -> dict:
    """1890 (its own checker, ``railcheck/titles/kansai/table.py``): at each
    position, one action offered (after the round's marker when the record's
    round is over there) appended to the record cut there adds no error
    finding to ``railcheck validate``'s, and one candidate refused adds one."""
    from railcheck.actions import RoundMarker
    from railcheck.loader import load_game
    from railcheck.ruleset import load_ruleset
    from railcheck.titles.kansai.table import kansai_next

    record, _ = load_game(str(path))
    rules = load_ruleset(record.ruleset or record.title, record.options,
                         components=record.components)
    out = {"path": str(path), "title": "1890", "positions": 0, "offered": 0,
           "accepted": 0, "refused_tried": 0, "refused": 0, "legal_total": 0,
           "problems": []}
    rng = random.Random(Path(path).name)
    for count in positions_of(record, n_positions, Path(path).name):
        nm = kansai_next(record, rules, count)
        if nm.situation.finished or nm.situation.actor is None:
            continue
        out["positions"] += 1
        offered = nm.offered_actions()
        out["legal_total"] += len(offered)
        cut = list(record.actions[:count])
        begins = nm.facts.get("round_begins")
        prefix = []
        if begins:
            kind, _, number = begins.partition(" ")
            prefix = [RoundMarker(kind=kind, number=tuple(int(x) for x in number.split(".")),
                                  line=MARK - 1)]
        tried = offered if every else [rng.choice(offered)] if offered else []
        for a in tried:
            errs = _new_errors(record, cut, prefix + [replace(a, line=MARK)])
            out["offered"] += 1
            if errs:
                out["problems"].append(f"{path} at {count} ({nm.situation.round}): offered "
                                       f"{a!r} is refused: [{errs[0].rule}] {errs[0].message}")
            else:
                out["accepted"] += 1
        bad = nm.refused if every else [rng.choice(nm.refused)] if nm.refused else []
        for o in bad:
            out["refused_tried"] += 1
            if _new_errors(record, cut, prefix + [replace(o.action, line=MARK)]):
                out["refused"] += 1
            else:
                out["problems"].append(f"{path} at {count} ({nm.situation.round}): not "
                                       f"offered {o.action!r} is accepted")
    return out


def check_game(path, n_positions: int = 3, full: bool = True, every: bool = False) -> dict:
    """Positions and actions tried in one game; disagreements listed.  Each
    action is played by a replay from the start of the record (``full``) or
    from the nearest snapshot (``Checker.check``, which gives the findings a
    replay from the start gives: tests/test_table.py)."""
    from railcheck.engine import Replay
    from railcheck.loader import load_game
    from railcheck.table.incremental import Checker
    from railcheck.table.nextmove import next_moves

    record, _ = load_game(str(path))
    ck = Checker(every=24 if every else 96)
    out = {"path": str(path), "title": record.title, "positions": 0, "offered": 0,
           "accepted": 0, "refused_tried": 0, "refused": 0, "legal_total": 0,
           "problems": []}
    rng = random.Random(Path(path).name)
    for i, count in enumerate(positions_of(record, n_positions, Path(path).name)):
        rp = ck.paused(record, count, keep=True)
        if rp.game.finished:
            continue
        nm = next_moves(rp, run_limit=0.5)
        if nm.situation.actor is None:
            continue
        out["positions"] += 1
        offered = nm.offered_actions()
        out["legal_total"] += len(offered)
        cut = list(record.actions[:count])

        def errors_with(action, from_start: bool) -> list:
            """The errors at ``action`` (marked), played after the record cut
            there: a replay from the start, or from the nearest snapshot."""
            rec = replace(record, actions=cut + [action], expected_result=None,
                          expected_end_reason=None)
            return errors_on_mark(Replay(rec, hints=False).run() if from_start
                                  else ck.check(rec))

        def try_offered(a, from_start: bool) -> None:
            action = replace(a, line=MARK)
            errs = errors_with(action, from_start)
            out["offered"] += 1
            if errs:
                out["problems"].append(f"{path} at {count} ({nm.situation.round}): offered "
                                       f"{action!r} is refused: [{errs[0].rule}] "
                                       f"{errs[0].message}")
            else:
                out["accepted"] += 1

        def try_refused(a, from_start: bool) -> None:
            bad = replace(a, line=MARK)
            out["refused_tried"] += 1
            if errors_with(bad, from_start):
                out["refused"] += 1
            else:
                out["problems"].append(f"{path} at {count} ({nm.situation.round}): not "
                                       f"offered {bad!r} is accepted")

        if offered and every:
            # every action offered there, each played from the nearest snapshot
            for a in offered:
                try_offered(a, False)
        elif offered:
            # one of them, played from the start (``full``) or from a snapshot
            try_offered(rng.choice(offered), full)
        if nm.refused and every:
            # up to ten candidates it refused, each played from the nearest snapshot
            for o in rng.sample(nm.refused, min(10, len(nm.refused))):
                try_refused(o.action, False)
        elif nm.refused:
            try_refused(rng.choice(nm.refused).action, full)
    return out


def _is_1890(path) -> bool:
    from railcheck.loader import load_game
    from railcheck.titles import title_class
    cls = title_class(load_game(str(path))[0].title or "")
    return cls is not None and getattr(cls, "uses_components", False)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*")
    ap.add_argument("--positions", type=int, default=3)
    ap.add_argument("--json", default=None)
    ap.add_argument("--every", action="store_true",
                    help="play every action offered (from the nearest snapshot), not one")
    ap.add_argument("--snapshots", action="store_true",
                    help="play each action from the nearest snapshot, not from the start")
    ap.add_argument("--kansai", action="store_true",
                    help="without paths: 1890's records (examples/kansai, tests/kansai/games)")
    args = ap.parse_args(argv)
    ap_kansai = args.kansai
    paths = [Path(p) for p in args.paths] or (kansai_paths() if ap_kansai else default_paths())
    totals: dict = {}
    problems = []
    for p in paths:
        if p.suffix == ".18xx" and _is_1890(p):
            r = check_kansai_game(p, args.positions, every=args.every)
        else:
            r = check_game(p, args.positions, full=not args.snapshots, every=args.every)
        t = totals.setdefault(r["title"], {"games": 0, "positions": 0, "offered": 0,
                                            "accepted": 0, "refused_tried": 0, "refused": 0,
                                            "legal_total": 0})
        t["games"] += 1
        for k in ("positions", "offered", "accepted", "refused_tried", "refused",
                  "legal_total"):
            t[k] += r[k]
        problems.extend(r["problems"])
        print(f"{p}: {r['positions']} positions, {r['accepted']}/{r['offered']} offered "
              f"accepted, {r['refused']}/{r['refused_tried']} not offered refused", flush=True)
    print()
    print("| title | games | positions | legal actions listed | offered played, accepted "
          "| not offered played, refused |")
    print("|---|---|---|---|---|---|")
    for title, t in sorted(totals.items()):
        print(f"| {title} | {t['games']} | {t['positions']} | {t['legal_total']} | "
              f"{t['accepted']}/{t['offered']} | {t['refused']}/{t['refused_tried']} |")
    for p in problems:
        print("PROBLEM", p)
    if args.json:
        Path(args.json).write_text(json.dumps({"totals": totals, "problems": problems},
                                              indent=2))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
