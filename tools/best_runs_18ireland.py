#!/usr/bin/env python3
"""18Ireland's search of the best runs (``railcheck/titles/g18ireland/best.py``)
against the records: at every run of trains in each game, the best set of
runs the search finds for the company there must be accepted by the checker
as that turn's run, and earn at least what the record's run earned (the
record's run is legal), unless the search stopped at its budget.

    python tools/best_runs_18ireland.py [PATHS...] [--ticks N] [--next K] [--json OUT]

Without paths: the shared corpus's 18Ireland games (real and random).  Each
found set is checked by the checker's own run functions, as the route step
checks a run (``runs.check_runs``: the track followed from its stops and
hexes, broad gauge, the hex edges, stations, blocked cities; its worth with
the narrow-gauge bonus, the tokens and RSSC's bonus), and must be worth what
the search says.  With ``--next K``, at K runs of each game (drawn with the
game's name as seed) the set is also played as the record's next action the
way ``railcheck next`` judges its offer (``table/nextmove.py``: no error
finding on it).  Prints per game and in all: runs, found above / equal to /
below the record, searches stopped at their budget, sets refused."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

CORPUS = Path("/work/shared/corpus")


def default_paths() -> list:
    out = []
    for folder in (CORPUS / "18xx.games" / "18Ireland", CORPUS / "random" / "18Ireland"):
        out.extend(sorted(folder.glob("*.json")))
    return out


def expand(paths) -> list:
    out = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(x for x in p.glob("*.json") if not x.name.endswith(".trace.json")))
        else:
            out.append(p)
    return out


def routes_of(g, chosen) -> list:
    """The found runs as a record writes them (stops and the hexes between)."""
    from railcheck.actions import Route, Stop
    hexes = g.board.hex_list
    return [Route(train=name, stops=[Stop(hex=hexes[hi].coord,
                                          city=ni if len(hexes[hi].nodes) > 1 else None)
                                     for hi, ni in stops], path=path, revenue=rev)
            for name, stops, rev, _, path in chosen]


def strict_problem(g, corp, chosen, revenue: int) -> str:
    """'' when the checker's run functions accept the found runs, follow the
    same stops and value them at ``revenue``; else what differs."""
    from railcheck.titles.g18ireland.runs import check_runs, trace
    if not chosen:
        return ""
    routes = routes_of(g, chosen)
    trains = []
    free = list(corp.trains)
    for r in routes:
        t = next(t for t in free if t.name == r.train)
        free.remove(t)
        trains.append(t)
    values, problem, unverified = check_runs(g, corp, routes, trains)
    if problem is not None:
        return f"refused: {problem.rule} {problem.message}"
    if unverified:
        return f"{unverified} run(s) not followed on the map"
    for r, (_, stops, *_rest) in zip(routes, chosen):
        if trace(g, r.train, r).nodes != list(stops):
            return f"the {r.train}'s stops are read otherwise"
    if sum(values) != revenue:
        return f"worth {sum(values)} to the checker, {revenue} to the search"
    return ""


def record_worth(g, corp, action):
    """What the record's run is worth to the checker (its routes followed
    and valued by ``runs.check_runs``, as the route step does), or None when
    the checker flags it or cannot follow it (the claim then differs from
    the map, or the record parted from the rules before)."""
    from railcheck.titles.g18ireland.runs import check_runs
    routes = action.routes
    if not routes:
        return None if action.revenue else 0
    trains = [next((t for t in corp.trains if t.id == r.train_id), None)
              or g.train_by_id.get(r.train_id)
              or next((t for t in corp.trains if t.name == r.train), None) for r in routes]
    values, problem, unverified = check_runs(g, corp, routes, trains)
    if problem is not None or unverified:
        return None
    worth = sum(values)
    claimed = action.revenue
    if claimed is None and all(r.revenue is not None for r in routes):
        claimed = sum(r.revenue for r in routes)
    return worth if claimed is None or claimed == worth else None


def check_game(path: Path, ticks: int, next_k: int) -> dict:
    from railcheck.actions import RunRoutes
    from railcheck.engine import Replay
    from railcheck.loader import load_game

    record, _ = load_game(str(path))
    rp = Replay(record, check_board=True, hints=False)
    out = {"game": path.name, "runs": 0, "record_flagged": 0, "above": 0, "equal": 0,
           "below": 0,
           "below_gave_up": 0, "gave_up": 0, "refused": 0, "seconds": 0.0,
           "problems": [], "positions": []}
    pending: dict = {}

    def before(g, action):
        pending.clear()
        if not isinstance(action, RunRoutes) or g.round.kind != "OR" or g.board is None:
            return
        corp = g.corporations.get(action.actor)
        if corp is None or not corp.trains:
            return
        start = time.perf_counter()
        found = g.title.best_runs_now(corp, ticks)
        out["seconds"] += time.perf_counter() - start
        if found is None:
            return
        revenue, _, chosen, gave_up = found
        problem = strict_problem(g, corp, chosen, revenue)
        pending.update(corp=corp.sym, revenue=revenue, gave_up=gave_up, problem=problem,
                       action=action, index=rp_index[0], checked=record_worth(g, corp, action))

    rp_index = [0]

    def on(g, action):
        rp_index[0] += 1
        if not pending:
            return
        p = dict(pending)
        pending.clear()
        claimed = p["checked"]
        out["runs"] += 1
        out["gave_up"] += bool(p["gave_up"])
        where = f"#{p['action'].action_id or p['action'].line} {p['corp']}"
        if p["problem"]:
            out["refused"] += 1
            out["problems"].append(f"{where}: {p['problem']}")
        if claimed is None:
            # the record's run is one the checker flags (or cannot follow):
            # nothing to compare with
            out["record_flagged"] += 1
            return
        if p["revenue"] > claimed:
            out["above"] += 1
        elif p["revenue"] == claimed:
            out["equal"] += 1
        else:
            out["below"] += 1
            out["below_gave_up"] += bool(p["gave_up"])
            if not p["gave_up"]:
                out["problems"].append(f"{where}: found {p['revenue']} < recorded {claimed}")
        out["positions"].append(p["index"])

    # the index of each action in the record, to pause there for --next
    idx = {id(a): k for k, a in enumerate(record.actions)}

    def before_idx(g, action):
        rp_index[0] = idx.get(id(action), -1)
        before(g, action)

    rp.before_action = before_idx
    rp.on_action = on
    rp.run()
    positions = out.pop("positions")
    if next_k and positions:
        out.update(judge_as_next(path, record, positions, next_k, ticks))
    return out


def judge_as_next(path: Path, record, positions: list, k: int, ticks: int) -> dict:
    """At ``k`` of the run positions: the found runs played as the record's
    next action, as ``railcheck next`` judges its offer."""
    from railcheck.table import nextmove
    from railcheck.table.incremental import Checker

    rng = random.Random(path.name)
    picks = sorted(rng.sample(positions, min(k, len(positions))))
    checker = Checker()
    tried = offered = empty = 0
    problems = []
    for count in picks:
        rp = checker.paused(record, count, keep=True)
        g = rp.game
        corp = g.round.turn.corp if getattr(g.round, "turn", None) is not None else None
        if corp is None:
            continue
        found = g.title.best_runs_now(corp, ticks)
        if found is None or not found[2]:
            empty += 1          # no run found (the record's run earns nothing too)
            continue
        j = nextmove._Judge(rp)
        out = nextmove.NextMoves(None, g.phase.name, g.rules.currency)
        limit = ticks / nextmove.OWN_RUN_TICKS
        got = nextmove._runs(j, g, corp, out, limit)
        tried += 1
        if got and got[0].info["revenue"] == found[0]:
            offered += 1
        else:
            problems.append(f"position {count} {corp.sym}: not offered ({out.notes})")
    return {"next_tried": tried, "next_offered": offered, "next_empty": empty,
            "next_problems": problems}


def main(argv=None) -> int:
    from railcheck.titles.g18ireland.best import MAX_TICKS
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*")
    ap.add_argument("--ticks", type=int, default=MAX_TICKS,
                    help="the search's budget of steps (next gives "
                         "table.nextmove.OWN_RUN_TICKS a second)")
    ap.add_argument("--next", type=int, default=0, metavar="K",
                    help="judge the found runs as next does at K runs of each game")
    ap.add_argument("--json")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    paths = expand(args.paths) if args.paths else default_paths()
    games = []
    total: dict = {}
    for path in paths:
        res = check_game(path, args.ticks, args.next)
        games.append(res)
        for key, v in res.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                total[key] = total.get(key, 0) + v
        if not args.quiet or res["problems"] or res.get("next_problems"):
            print(f"{res['game']}: {res['runs']} runs ({res['record_flagged']} the checker "
                  f"flags), {res['above']} above the record, "
                  f"{res['equal']} equal, {res['below']} below ({res['below_gave_up']} of them "
                  f"stopped at the budget), {res['gave_up']} stopped at the budget, "
                  f"{res['refused']} refused, {res['seconds']:.2f} s"
                  + (f"; next: {res['next_offered']} of {res['next_tried']} offered "
                     f"({res['next_empty']} with no run)" if "next_tried" in res else ""))
            for p in res["problems"] + res.get("next_problems", []):
                print("   ", p)
    print(f"ALL {len(games)} games: {total.get('runs', 0)} runs ({total.get('record_flagged', 0)} "
          f"the checker flags), {total.get('above', 0)} above "
          f"the record, {total.get('equal', 0)} equal, {total.get('below', 0)} below "
          f"({total.get('below_gave_up', 0)} of them stopped at the budget), "
          f"{total.get('gave_up', 0)} stopped at the budget, {total.get('refused', 0)} refused, "
          f"{total.get('seconds', 0):.1f} s searching"
          + (f"; next: {total.get('next_offered', 0)} of {total.get('next_tried', 0)} offered "
             f"({total.get('next_empty', 0)} positions with no run)" if args.next else ""))
    if args.json:
        Path(args.json).write_text(json.dumps({"ticks": args.ticks, "total": total,
                                               "games": games}, indent=1))
    bad = total.get("refused", 0) + total.get("below", 0) - total.get("below_gave_up", 0) \
        + total.get("next_tried", 0) - total.get("next_offered", 0)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
