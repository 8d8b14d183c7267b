#!/usr/bin/env python3
"""One-action changes of 18xx.games exports, judged by the 18xx.games engine
(a development tool, not installed; issue #23's misses were of this kind).

Each change is written into a copy of the export, cut CUT actions after it.
The engine (the oracle's set-up, ``../shared/oracle/README.md``) loads each
copy in **strict** mode, the checks of play that a plain load skips (a lay's
connection and rotation, a station's reach), with the runs' recorded revenue
removed (a run with a recorded revenue is taken as written, not checked).
Where the engine refuses an action only because one of its steps waits for
a pass the original record did not need ("Blocking step ... cannot process":
a station left out leaves a token to place), that pass is put in and the
copy loaded again; the first refusal before any such pass is kept too.
railcheck then replays the same copy, and each copy is sorted into

* **flagged** -- the engine refuses an action and railcheck's first error is
  at it or before it (at the first refusal, or at the one after the passes);
* **MISS** -- the engine refuses and railcheck flags nothing up to there;
* **both-legal** -- neither refuses anything;
* **railcheck-only** -- the engine accepts the copy, railcheck flags it (a
  false accusation unless the finding is rule-backed: tools/rule_backed.yaml).

    python tools/engine_mutations.py make OUT GAMES... [--kinds price,token] [--every 2]
    python tools/engine_mutations.py engine OUT [--t18 ~/.cache/t18]
    python tools/engine_mutations.py judge OUT

Kinds: price (a private bought from the bank written at 9999), token (a
place_token replaced by a pass), rot (a lay turned), bid (a bid 5 lower),
trainprice (a train bought 10 cheaper), div (payout and withhold swapped),
buyshare (another certificate of the company named), sellco (a private sold
50 dearer).  docs/1860.md, "Second round", has 1860's figures.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CUT = 250
KINDS = ("price", "token", "rot", "bid", "trainprice", "div", "buyshare", "sellco")

#: the engine's side: load in strict mode, put in the passes a waiting step
#: needs, report the refusals (run from the engine's set-up folder)
FIXUP_RB = r"""
require 'engine'
require 'json'
ARGV.each_slice(2) do |inp, outp|
  data = JSON.parse(File.read(inp))
  data['actions'].each_with_index { |a, i| a['orig_id'] = a['id']; a['id'] = i + 1 }
  data['actions'].each do |a|
    next unless a['type'] == 'run_routes'

    a['routes'].each { |r| %w[revenue revenue_str subsidy].each { |k| r.delete(k) } }
  end
  passes = 0
  first = nil
  res = nil
  inserted = nil
  loop do
    game = Engine::Game.load(data, strict: true)
    unless game.exception
      res = { refused: nil, finished: game.finished }
      break
    end
    msg = game.exception.message
    bid = game.broken_action&.id
    first ||= { first_refused: bid, first_message: msg }
    if msg.start_with?('Blocking step') && passes < 60 && bid != inserted
      ent = game.current_entity
      idx = data['actions'].index { |a| a['id'] == bid }
      type = ent.is_a?(Engine::Player) ? 'player' : 'corporation'
      data['actions'].insert(idx, { 'type' => 'pass', 'entity' => ent.id, 'entity_type' => type })
      data['actions'].each_with_index { |a, i| a['id'] = i + 1 }
      inserted = bid
      passes += 1
      next
    end
    res = { refused: bid, message: msg }
    break
  rescue StandardError => e
    res = { refused: -1, message: "#{e.class}: #{e.message}"[0, 300] }
    break
  end
  File.write(outp, JSON.generate(data))
  puts JSON.generate({ file: File.basename(outp), passes: passes }.merge(first || {}).merge(res))
  $stdout.flush
end
"""


def changes(acts: list, rng: random.Random, kinds) -> list:
    """(kind, action, the fields changed) for one export: one action of each kind."""
    def pick(pred):
        cands = [a for a in acts if pred(a)]
        return rng.choice(cands) if cands else None

    out = []
    for kind in kinds:
        if kind == "price":
            a = pick(lambda a: a["type"] == "buy_company" and a.get("entity_type") == "player")
            change = a and {"price": 9999}
        elif kind == "token":
            a = pick(lambda a: a["type"] == "place_token")
            change = a and {"type": "pass", "entity": a["entity"], "entity_type": a["entity_type"],
                            "id": a["id"]}
        elif kind == "rot":
            a = pick(lambda a: a["type"] == "lay_tile")
            change = a and {"rotation": (a["rotation"] + rng.randint(1, 5)) % 6}
        elif kind == "bid":
            a = pick(lambda a: a["type"] == "bid")
            change = a and {"price": a["price"] - 5}
        elif kind == "trainprice":
            a = pick(lambda a: a["type"] == "buy_train")
            change = a and {"price": a["price"] - 10}
        elif kind == "div":
            a = pick(lambda a: a["type"] == "dividend")
            change = a and {"kind": "withhold" if a["kind"] == "payout" else "payout"}
        elif kind == "buyshare":
            a = pick(lambda a: a["type"] == "buy_shares")
            if a:
                sym, n = a["shares"][0].rsplit("_", 1)
                change = {"shares": [f"{sym}_{(int(n) + rng.randint(1, 8)) % 9}"]}
        elif kind == "sellco":
            a = pick(lambda a: a["type"] == "sell_company")
            change = a and {"price": a["price"] + 50}
        else:
            raise SystemExit(f"unknown kind {kind!r}; kinds: {', '.join(KINDS)}")
        if a:
            out.append((kind, a, change))
    return out


def make(out: Path, games: list, kinds, every: int, seed: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    for k, g in enumerate(games):
        if k % every:
            continue
        data = json.loads(Path(g).read_text(encoding="utf-8"))
        for kind, a, change in changes(data["actions"], rng, kinds):
            d = copy.deepcopy(data)
            for key in ("result", "status", "game_end_reason", "turn", "round"):
                d.pop(key, None)
            d["actions"] = [x for x in d["actions"] if x["id"] <= a["id"] + CUT]
            i = next(i for i, x in enumerate(d["actions"]) if x["id"] == a["id"])
            if kind == "token":
                d["actions"][i] = change
            else:
                d["actions"][i].update(change)
            (out / f"{Path(g).stem}__{kind}_{a['id']}.json").write_text(json.dumps(d))


def engine(out: Path, t18: Path) -> None:
    done = out / "engine"
    done.mkdir(exist_ok=True)
    with tempfile.NamedTemporaryFile("w", suffix=".rb", delete=False) as fh:
        fh.write(FIXUP_RB)
    args = []
    for f in sorted(out.glob("*.json")):
        args += [str(f), str(done / f.name)]
    env = dict(os.environ, ENGINE_LOG_LEVEL="4")
    env.setdefault("T18_GAMES", "g_1830,g_1860,g_18_ireland,g_1889")
    with open(out / "engine.jsonl", "w") as log:
        subprocess.run(["ruby", "-Ishim", "-Ilib", fh.name, *args], cwd=t18, env=env,
                       stdout=log, check=False)
    os.unlink(fh.name)


def judge(out: Path) -> None:
    from collections import Counter

    from railcheck.engine import Replay
    from railcheck.importer import import_export
    verdicts: Counter = Counter()
    for line in (out / "engine.jsonl").read_text().splitlines():
        e = json.loads(line)
        if "undefined method" in (e.get("message") or "") or e.get("refused") == -1:
            continue            # an error inside the engine itself
        def first_error(path: Path):
            record, _ = import_export(path.read_text(), path.stem)
            return next((x.action_id for x in Replay(record, hints=False).run().findings
                         if x.severity == "error"), None)

        fixed = out / "engine" / e["file"]
        first = first_error(fixed)
        kind = fixed.stem.split("__")[1].rsplit("_", 1)[0]
        if e.get("refused"):
            # at or before the refusal of the copy with the passes put in, or
            # of the copy as changed (the passes may be the wrong ones: a
            # company acting out of the engine's order)
            raw = first_error(out / e["file"]) if e.get("passes") else first
            v = ("flagged" if (first is not None and first <= e["refused"])
                 or (raw is not None and raw <= e["first_refused"]) else "MISS")
        else:
            v = "railcheck-only" if first is not None else "both-legal"
        verdicts[(kind, v)] += 1
        print(json.dumps({"file": e["file"], "kind": kind, "verdict": v,
                          "engine": [e.get("first_refused"), e.get("refused")],
                          "message": e.get("message"), "railcheck": first}))
    for (kind, v), n in sorted(verdicts.items()):
        print(f"{kind:11} {v:15} {n}", file=sys.stderr)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("make", "engine", "judge"))
    ap.add_argument("out", type=Path)
    ap.add_argument("games", nargs="*")
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--every", type=int, default=1, help="one export in so many")
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--t18", type=Path, default=Path.home() / ".cache" / "t18")
    a = ap.parse_args(argv)
    if a.what == "make":
        make(a.out, a.games, a.kinds.split(","), a.every, a.seed)
    elif a.what == "engine":
        engine(a.out, a.t18)
    else:
        judge(a.out)


if __name__ == "__main__":
    main()
