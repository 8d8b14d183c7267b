"""A station the record left out: a company's run, in its own turn, has a
train's run that includes no station of its own (``route.token``), and the
company could still place one this turn in a city that run names.

The rules take the run as written and flag it (the run earns what it
claims; the station is missing): every later run through that city is
flagged again, and the cash the station cost shows later still.  The
station in each city of the run the board would take now (its pure
``plan_token``: a free slot, reached by the company's track, no station of
its own on the hex) is tried before the run, and judged by the record's
next lines against the run as written (``run.judged_before``); the one they
go on from, with fewer errors and no other as few, is played, the
``route.token`` finding saying so.  Nothing when the record says nothing
better (the run is then flagged as before).
"""

from __future__ import annotations

from ..actions import PlaceToken, RunRoutes
from ..findings import RuleViolation
from ..steps.token import TokenStep
from .lookahead import choice_once
from .run import judged_before, open_step

#: how many stations left out one replay searches in vain before it stops
#: looking (each search replays the record's next lines once per city)
MISSING_STATION_TRIES = 1
#: at most this many cities of the run are tried
STATION_CITIES = 6


def _cities(g, corp: str, routes: list) -> list:
    """(hex, city) of the cities of ``routes``, in their order, where the
    board would take a station of ``corp`` now."""
    board = g.board
    out: list = []
    for r in routes:
        for stop in r.stops:
            h = board.hexes.get(str(stop.hex))
            if h is None:
                continue
            cities = range(len(h.city_indices())) if stop.city is None or \
                stop.city >= len(h.city_indices()) else [stop.city]
            for k in cities:
                if (h.coord, k) in out:
                    continue
                try:
                    board.plan_token(corp, h.coord, k)
                except RuleViolation:
                    continue
                out.append((h.coord, k))
    return out[:STATION_CITIES]


def missing_station(replay, action) -> bool:
    """``action``, a run of the company whose turn it is, has a train's run
    that includes no station of its own while the company may still place one this turn: the station
    left out is tried in the cities of the run (see the module) and placed
    when the record's next lines go on from one of them.  True when one was
    placed."""
    g = replay.game
    if not isinstance(action, RunRoutes) or not action.routes:
        return False
    open_ = open_step(replay, action, TokenStep)
    if open_ is None:
        return False
    turn, _ = open_
    corp = turn.corp
    own = {coord for coord, _ in g.board.stations(corp.sym)}
    bare = [r for r in action.routes if r.stops and not any(str(s.hex) in own for s in r.stops)]
    if not bare:
        return False

    def choose():
        cities = _cities(g, corp.sym, bare)
        if not cities:
            return None

        def play(coord, k):
            def apply():
                r = replay.game.round
                r.process(PlaceToken(actor=r.turn.corp.sym, hex=coord, city=k))
            return apply
        found = judged_before(replay, action, [play(c, k) for c, k in cities])
        return (None if found is None else (cities[found[0]], found[1] or "")), ""
    got, _ = choice_once(replay, "station", "station_tries", MISSING_STATION_TRIES, choose)
    if got is None:
        return False
    (coord, k), says = got
    # (the round, its turn and the company looked up now: a try puts back
    # copies of them)
    rnd = g.round
    corp = rnd.turn.corp
    cost = corp.token_cost()
    g.flag("route.token",
           f"a run of {corp.sym}'s includes no station of its own (its stations: "
           f"{', '.join(f'{c} city {i}' for c, i in g.board.stations(corp.sym)) or 'none'}); "
           f"the record's later lines go on as if it placed a station in {coord} city {k} "
           f"before it, for {g.money(cost or 0)} (a line missing{says}): taken so")
    rnd.process(PlaceToken(actor=corp.sym, hex=coord, city=k))
    return True
