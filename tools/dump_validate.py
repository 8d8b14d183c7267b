#!/usr/bin/env python3
"""Dump ``railcheck validate --format json`` of every game, one file each, to compare two trees.

    python tools/dump_validate.py OUTDIR [--shared DIR] [--railcheck CMD]

Validates (``--jobs 1``, one process per group of games) every game of

* the shared corpus (``../shared/corpus``: the real 18xx.games exports and the random games),
* ``examples/`` (the ``*.18xx`` files, and each ``examples/rulesets/*.yaml`` played on the
  title's ``examples/<title>/game.18xx``),
* the tests' data (``tests/data``: exports and random games; ``tests/*/games``),

and writes each game's JSON report (the entry of ``files`` with the path made relative) to
``OUTDIR/<group>/<path>.json``, plus ``rules show`` of every title and example ruleset.  Run
it on two checkouts (each with its own ``railcheck``) and compare with ``diff -r``: a refactor
that changes no verdict leaves the two folders byte-identical.  The games of a title railcheck
does not know are dumped as ``unsupported``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def games(root: Path) -> list[Path]:
    found = [p for p in root.rglob("*") if p.is_file() and (
        p.suffix == ".18xx" or p.name.endswith((".json", ".json.gz")))]
    return sorted(p for p in found if ".trace." not in p.name and p.name != "README.md")


def validate(cmd: list[str], files: list[Path], extra: list[str] = ()) -> list[dict]:
    proc = subprocess.run([*cmd, "validate", "--format", "json", "--jobs", "1", "--no-color",
                           "--skip-unsupported", *extra, *map(str, files)],
                          capture_output=True, text=True)
    if proc.returncode not in (0, 1, 2):
        sys.exit(f"validate failed ({proc.returncode}): {proc.stderr}")
    return json.loads(proc.stdout)["files"]


def write(out: Path, name: str, data) -> None:
    target = out / (name + ".json")
    target.parent.mkdir(parents=True, exist_ok=True)
    # the checkout's own path (a components file's) is named alike in any checkout
    target.write_text(json.dumps(data, indent=1, sort_keys=True).replace(str(REPO), "REPO")
                      + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    ap.add_argument("--railcheck", default=f"{sys.executable} -m railcheck",
                    help="the command to run (default: this Python's railcheck)")
    args = ap.parse_args()
    cmd = args.railcheck.split()
    corpus = args.shared.resolve() / "corpus"
    groups = {
        "corpus": (corpus, games(corpus)),
        "examples": (REPO / "examples", games(REPO / "examples")),
        "tests": (REPO / "tests" / "data", games(REPO / "tests" / "data")),
        # the games a title's tests keep beside their code (tests/kansai/games)
        "tests-games": (REPO / "tests", [p for p in games(REPO / "tests")
                                          if p.parent.name == "games"]),
    }
    count = 0
    for group, (root, files) in groups.items():
        # one process per folder keeps a crash's damage small and the memory bounded
        by_dir: dict[Path, list[Path]] = {}
        for f in files:
            by_dir.setdefault(f.parent, []).append(f)
        for folder, members in sorted(by_dir.items()):
            entries = {e["path"]: e for e in validate(cmd, members)}
            for f in members:
                entry = entries[str(f)]
                rel = f.relative_to(root).as_posix()
                entry["path"] = rel
                write(args.out, f"{group}/{rel}", entry)
                count += 1
            print(f"{group}/{folder.relative_to(root)}: {len(members)}", file=sys.stderr)
    for ruleset in sorted((REPO / "examples" / "rulesets").glob("*.yaml")):
        title = ruleset.name.split("-")[0]
        game = REPO / "examples" / title / "game.18xx"
        entry = validate(cmd, [game], ["--ruleset", str(ruleset)])[0]
        entry["path"] = f"{title}/game.18xx"
        write(args.out, f"rulesets/{ruleset.stem}", entry)
        count += 1
    shows = ["1830", "1857", "1860", "1889", "18Ireland", "kansai",
             *map(str, sorted((REPO / "examples" / "rulesets").glob("*.yaml")))]
    for name in shows:
        proc = subprocess.run([*cmd, "rules", "show", name], capture_output=True, text=True)
        target = args.out / "rules-show" / (Path(name).stem + ".txt")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(proc.stdout.replace(str(REPO), "REPO") + proc.stderr)
    print(f"{count} games dumped to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
