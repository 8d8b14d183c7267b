"""Hindsight routes: for each run of a game, the best revenue the company
could have earned with the trains it had, on the board as it was, against
what it claimed.

The search is ``railcheck/runsearch.py``'s (an exhaustive walk of the laid
track bounded by a budget of steps, not of seconds, so that a game gives the
same runs on any machine, however loaded), each run's best set checked once
more with the checker's own route rules (``Board.revenue_of_routes``).  Each
run's search stops after its budget (``runsearch.TICKS_PER_SECOND`` for each
second of the ``limit`` asked for: about that long on an idle machine); it
then reports the best it had found and says it stopped.  Revenue here is the
stops' values in the phase (title bonuses such as 1860's halts are not
counted).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Optional

from ..actions import RunRoutes, Route, Stop
from ..findings import RuleViolation, plural
from ..runsearch import MAX_RUNS_PER_TRAIN, best_runs, standard_runs, ticks_for


@dataclass
class Run:
    """One company's run in one operating round, with hindsight."""

    round: str
    corporation: str
    trains: list
    claimed: Optional[int]
    best: Optional[int]
    best_routes: list = field(default_factory=list)    # [(train, [stop text])]
    gave_up: bool = False
    note: str = ""
    action_id: Optional[int] = None
    line: Optional[int] = None
    seconds: float = 0.0

    @property
    def missed(self) -> int:
        if self.best is None or self.claimed is None:
            return 0
        return max(0, self.best - self.claimed)

    def to_dict(self) -> dict:
        return {"round": self.round, "corporation": self.corporation, "trains": self.trains,
                "action_id": self.action_id, "line": self.line, "claimed": self.claimed,
                "best": self.best, "missed": self.missed,
                "best_routes": [{"train": t, "stops": s} for t, s in self.best_routes],
                "gave_up": self.gave_up, "note": self.note}


def _verify(board, corp: str, trains: list, chosen, phase_color: str) -> str:
    """'' when the checker accepts the chosen runs at that revenue, else why not."""
    if not chosen:
        return ""
    hexes = board.hex_list
    routes = [Route(train=trains[ti][0], stops=[Stop(hex=hexes[hi].coord, city=ni)
                                                 for hi, ni in stops])
              for ti, stops in chosen]
    distances = {name: reach for name, reach in trains}
    try:
        board.revenue_of_routes(corp, routes, phase_color, distances)
    except RuleViolation as v:
        return f"the checker did not confirm these runs: {v.message}"
    return ""


class Watcher:
    """Watches a Replay: before each run of trains, searches the best runs."""

    def __init__(self, limit: float):
        self.limit = limit
        self.runs: list[Run] = []
        self.pending: Optional[Run] = None

    def attach(self, replay):
        replay.before_action = self.before_action
        replay.on_action = self.on_action

    def before_action(self, g, action):
        self.pending = None
        if not isinstance(action, RunRoutes) or g.board is None or g.round.kind != "OR":
            return
        corp = g.corporations.get(action.actor)
        if corp is None or not corp.trains:
            return
        trains = [(t.name, t.spec.reach) for t in corp.trains]
        run = Run(round=g.round.label, corporation=corp.sym, trains=[t for t, _ in trains],
                  claimed=None, best=None, action_id=action.action_id, line=action.line)
        self.pending = run
        if not standard_runs(g) and g.title.hindsight_own_runs:
            self._own_runs(g, corp, run)
            return
        if not standard_runs(g):
            own = getattr(g.title, "own_run_rules", "")
            run.note = (f"not searched: {g.rules.title}'s runs follow rules of their own"
                        + (f" ({own})" if own else "") + " that the search does not model")
            return
        start = time.perf_counter()
        color = g.phase.tiles[-1]
        try:
            best, routes, gave_up, chosen, trimmed = best_runs(g.board, corp.sym, trains, color,
                                                               ticks_for(self.limit))
        except RuleViolation as v:       # a map the search cannot read
            run.note = f"not searched: {v.message}"
        else:
            run.best, run.best_routes, run.gave_up = best, routes, gave_up
            if gave_up:
                run.note = (f"stopped at its budget of steps ({self.limit:g} s' worth): the "
                            f"best found so far")
            elif trimmed:
                run.note = (f"combined only the {MAX_RUNS_PER_TRAIN} best runs of each train: "
                            f"a better set may exist")
            problem = _verify(g.board, corp.sym, trains, chosen, color)
            if problem:
                run.note = (run.note + "; " if run.note else "") + problem
        run.seconds = time.perf_counter() - start
        self.pending = run

    def _own_runs(self, g, corp, run: Run) -> None:
        """The best runs by the title's own search (``Title.best_runs_now``,
        its run rules: 18Ireland's), with a budget of steps for the limit."""
        start = time.perf_counter()
        found = g.title.best_runs_now(corp, ticks_for(self.limit))
        run.seconds = time.perf_counter() - start
        if found is None:
            return
        from ..board.routes import node_text
        revenue, subsidy, chosen, gave_up = found
        run.best = revenue + subsidy
        run.best_routes = [(name, [node_text(g.board, hi, ni) for hi, ni in stops])
                           for name, stops, *_ in chosen]
        run.gave_up = gave_up
        if gave_up:
            run.note = (f"stopped at its budget of steps ({self.limit:g} s' worth): the best "
                        f"found so far")

    def on_action(self, g, action):
        run = self.pending
        if run is None:
            return
        self.pending = None
        r = g.round
        for turn in (getattr(r, "turn", None), getattr(r, "closed_turn", None)):
            if turn is not None and turn.corp.sym == run.corporation and turn.revenue is not None:
                run.claimed = turn.revenue
                break
        self.runs.append(run)


def hindsight(path: str, *, limit: float = 2.0, ruleset=None, record=None) -> list[Run]:
    """Replay a game and search every run with hindsight."""
    from ..engine import Replay
    from ..loader import load_game

    if record is None:
        record, _ = load_game(path, ruleset=ruleset)
    replay = Replay(record, check_board=True)
    watcher = Watcher(limit)
    watcher.attach(replay)
    replay.run()
    return watcher.runs


def render_text(runs: list[Run], currency: str = "$") -> str:
    from tabulate import tabulate

    notes = {r.note for r in runs}
    if runs and all(r.best is None for r in runs) and len(notes) == 1:
        return f"Hindsight routes: {plural(len(runs), 'run')}, {notes.pop()}"

    rows = []
    for r in runs:
        best = "" if r.best is None else f"{currency}{r.best}"
        claimed = "" if r.claimed is None else f"{currency}{r.claimed}"
        better = "; ".join(f"{t}: {'-'.join(s)}" for t, s in r.best_routes) if r.missed else ""
        rows.append([r.round, r.corporation, " ".join(r.trains), claimed, best,
                     f"{currency}{r.missed}" if r.missed else "", better,
                     r.note])
    missed = sum(r.missed for r in runs)
    head = (f"Hindsight routes: {len(runs)} runs, {sum(1 for r in runs if r.missed)} below the "
            f"best found, {currency}{missed} missed in all; "
            f"{sum(1 for r in runs if r.gave_up)} searches gave up")
    return head + "\n\n" + tabulate(rows, headers=["round", "company", "trains", "claimed",
                                                   "best", "missed", "better runs", "note"],
                                    disable_numparse=True)
