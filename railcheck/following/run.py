"""A run the record left out: its dividend line pays out (or withholds)
what no written run earned.

The rules take a run left out as earning nothing (1860's corporation that
does not run withholds, O4b; a payout with no run is ``route.missing``), so the
dividend is of nothing: the players' cash or the treasury, and the share
price, then part from the record's later lines.  A dividend line says the
company ran (18xx.games asks for one only after a run that earned
something); how much it earned the record's next lines say.  The revenues
it could have earned are tried (the best set of runs railcheck finds on the
map now, then its last run in the record), each as a run
before the dividend line, and judged by the record's next lines against
the dividend of nothing (as ``lookahead.missing_line``); the one they go on
from, with fewer errors and no other as few, is played, the
``route.missing`` finding saying so.  Nothing when the record says nothing
better (the run is then taken as earning nothing, as before).

Every route step says the best run now (``RouteStep.best_run_now``: the
title's ``best_runs_now``, the shared search by the shared route rules or a
title's own, 1860's and 18Ireland's; all of them a budget of steps, not of
seconds, so that the verdict is the same on any machine).  1860's and
18Ireland's steps take a run with no stops as written, unverified
(``takes_runs_unverified``): the run left out is played so, at the revenue
tried.  Any other step checks a run on the map: the best runs are played as
found, with their stops, and a company's last run as the record wrote it
(tried only after a best run was found: alone it was found no better a
guess than nothing); a search that stopped at its budget reads nothing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Optional

from ..actions import BuyTrain, Dividend, Route, RunRoutes
from ..steps.route import RouteStep
from .lookahead import choice_once
from .operating import OperatingFollower

#: how many runs left out one replay searches in vain before it stops
#: looking (each search replays the record's next lines once per revenue)
MISSING_RUN_TRIES = 1

BEST_FOUND = "the best run found on the map"


def _candidates(replay, g, turn, step) -> list:
    """(revenue, subsidy, where from, the runs as written or None) of the
    runs tried, without repeats: the best set of runs the route step finds
    on the map now (a company runs for the most it can: the first taken of
    those the record's next lines fit as well), then the company's last run
    the record wrote."""
    corp = turn.corp
    out: list = []
    found = step.best_run_now(turn)
    if found is not None and found[0] > 0:
        out.append((found[0], found[1], BEST_FOUND, found[2]))
    elif not step.takes_runs_unverified:
        return []
    acts = replay.record.actions
    for i in range(g.following.position - 1, -1, -1):
        a = acts[i]
        if isinstance(a, RunRoutes) and a.actor == corp.sym and a.routes:
            revenue = sum(r.revenue or 0 for r in a.routes) \
                if all(r.revenue is not None for r in a.routes) else a.revenue
            if revenue:
                subsidy = sum(r.subsidy or 0 for r in a.routes)
                out.append((revenue, subsidy, "its last run", a.routes))
            break
    seen, kept = set(), []
    for c in out:
        if (c[0], c[1]) not in seen:
            seen.add((c[0], c[1]))
            kept.append(c)
    return kept


def _run_line(corp, revenue: int, subsidy: int, routes, unverified: bool) -> RunRoutes:
    """The run left out, as a line the route step takes: with ``unverified``
    (1860's and 18Ireland's steps take a run with no stops as written), one
    run of the company's first train with no stops; else ``routes``, the
    runs as found or written, checked on the map."""
    if not unverified and routes:
        return RunRoutes(actor=corp.sym, revenue=revenue,
                         routes=[replace(r, stops=list(r.stops)) for r in routes])
    # (a company with no train runs a leased one: the train its written run
    # named, 1860's insolvent company)
    train, train_id = (corp.trains[0].name, corp.trains[0].id) if corp.trains \
        else (routes[0].train, routes[0].train_id)
    return RunRoutes(actor=corp.sym, revenue=revenue,
                     routes=[Route(train=train, train_id=train_id, revenue=revenue,
                                   subsidy=subsidy)])


def _play_run(replay, c) -> None:
    """The run left out (a candidate), played in the turn's company's turn
    (the round, its turn and its step looked up now: a try puts back copies
    of them)."""
    rnd = replay.game.round
    step = rnd.step_by_type(RouteStep)
    rnd.process(_run_line(rnd.turn.corp, c[0], c[1], c[3], step.takes_runs_unverified))


_DECIDES = {"payout": "pays out", "withhold": "withholds", "half": "pays half"}


def judged_before(replay, action, plays: list, over_as_is: Optional[int] = None):
    """Of ``plays`` (each a function making a line the record left out
    before ``action``, in the state now), (index, what the finding adds) of
    the one the record's next lines go on from, ``action`` then taken, with
    fewer errors than ``action`` as written (its own findings left out:
    every reading says them) and no other as few (over
    ``lookahead.HORIZON`` lines, then those as good over ``LONG_HORIZON``;
    still as good, the first of them); still as good as ``action`` as
    written over as many lines, the play ``over_as_is`` when it is among
    them; else None.
    Changes nothing.  (Shared by the run and the station left out.)"""
    from .lookahead import HORIZON, LONG_HORIZON, Reading, _best_reading
    g = replay.game

    def as_is():
        n = len(g.findings)
        g.round.process(action)
        del g.findings[n:]

    def reading(play):
        def apply():
            play()
            replay.game.round.process(action)
        return Reading(apply, "")

    readings = [Reading(as_is, "")] + [reading(p) for p in plays]
    got = _best_reading(replay, readings, HORIZON, tied=True)
    says: Optional[str] = ""
    if isinstance(got, list):
        again = _best_reading(replay, [readings[i] for i in got], LONG_HORIZON, tied=True)
        if isinstance(again, int):
            got = got[again]
        elif isinstance(again, list) and 0 not in (got[j] for j in again):
            says = f"; of {len(again)} the record's next lines fit as well, the first"
            got = got[again[0]]
        elif isinstance(again, list) and over_as_is is not None \
                and over_as_is + 1 in (got[j] for j in again) \
                and _lines_ahead(g, LONG_HORIZON) >= LONG_HORIZON:
            # (only over a record that goes on that long: at its end, or
            # asked of a line not in it, ``railcheck next``, nothing says)
            says = None     # (the caller says why)
            got = over_as_is + 1
        else:
            got = None
    if not isinstance(got, int) or got == 0:
        return None
    return got - 1, says


def _lines_ahead(g, most: int) -> int:
    """How many of the record's lines follow the current one (at most
    ``most``)."""
    n = 0
    for _ in g.following.ahead():
        n += 1
        if n >= most:
            break
    return n


def _judged(replay, action, cands: list) -> Optional[tuple]:
    """Of ``cands``, each played before ``action`` (the dividend), (revenue,
    subsidy, where from, the runs, what the finding adds) of the one the
    record's next lines go on from (:func:`judged_before`; still as good as
    no run at all, the best run found: the dividend line says the company
    ran, and a withheld revenue may show only hundreds of lines later, when
    the treasury buys a train; a company runs for the most it can, and the
    best run is tried first); else None.  Changes nothing."""
    best = 0 if cands and cands[0][2] == BEST_FOUND else None
    got = judged_before(replay, action, [lambda c=c: _play_run(replay, c) for c in cands],
                        over_as_is=best)
    if got is None:
        return None
    i, says = got
    if says is None:
        says = "; no run fits the record's next lines as well, but a dividend comes after a run"
    return (*cands[i], says)


def open_step(replay, action, step_type):
    """``(turn, step)``: the operating turn of ``action``'s company, in
    which no run is made yet, and its step of ``step_type`` still open (a
    line of that step the record left out may stand before ``action``);
    else None, and None on a game with no board, in a try and in a
    purity-checked replay (no line left out is searched for there)."""
    g = replay.game
    if g.board is None or getattr(replay, "trying", False) or replay.check_purity:
        return None
    if not isinstance(g.following.round, OperatingFollower):
        return None
    rnd = g.round
    turn = getattr(rnd, "turn", None)
    if turn is None or turn.corp.sym != action.actor or turn.revenue is not None:
        return None
    step = rnd.step_by_type(step_type)
    if step is None or rnd.step_index(step) < turn.step or not step.available(turn):
        return None
    return turn, step


def missing_run(replay, action) -> bool:
    """``action``, a dividend of the company whose turn it is (18xx.games
    asks for one only after a run that earned something), comes where its
    run is still to be made (it owns trains and has a route, no run
    written): the run the record left out is tried at the revenues it could
    have earned (see the module) and played when the record's next lines
    go on from one of them.  True when one was played.  So is a train
    purchase of a company that owns no train but runs a leased one (1860's
    insolvent company, whose dividend is withheld at once: no dividend
    line), tried at its last written run."""
    g = replay.game
    if not isinstance(action, (Dividend, BuyTrain)):
        return False
    open_ = open_step(replay, action, RouteStep)
    if open_ is None:
        return False
    turn, step = open_
    leased = not turn.corp.trains
    if turn.dividend_done or (leased and not isinstance(action, BuyTrain)) \
            or (not leased and not isinstance(action, Dividend)):
        return False

    def choose():
        cands = _candidates(replay, g, turn, step)
        if leased:
            # (the leased train's run: the company's last written run, which
            # names the train; 1860_rand_54000004_3 #807 left out, IOW's
            # 8+4 leased for £200 before it buys one for £700 at #808)
            cands = [c for c in cands if c[3]]
        return (_judged(replay, action, cands), "") if cands else None
    got, _ = choice_once(replay, "run", "run_tries", MISSING_RUN_TRIES, choose)
    if got is None:
        return False
    revenue, subsidy, why, _, says = got
    corp = g.round.turn.corp
    trains = ", ".join(t.name for t in corp.trains)
    earned = g.money(revenue) + (f" and a subsidy of {g.money(subsidy)}" if subsidy else "")
    if leased:
        g.flag("route.missing",
               f"{corp.sym} buys a train, but no run is written: it owns none, runs a leased "
               f"one and has a route; the record's later lines go on as if it ran for "
               f"{earned} ({why}; a line missing{says}): taken so")
        _play_run(replay, got)
        return True
    decides = _DECIDES.get(getattr(action, "kind", ""), "decides its dividend")
    g.flag("route.missing",
           f"{corp.sym} {decides}, but no run is written: it owns trains ({trains}) and has a "
           f"route; the record's later lines go on as if it ran for {earned} ({why}; a line "
           f"missing{says}): taken so")
    _play_run(replay, got)
    return True
