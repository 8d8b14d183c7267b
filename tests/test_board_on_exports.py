"""Map rules on real games: one tile lay, station or train run of a real
18xx.games 1830 export is made illegal, and the replay must flag exactly that
action, with the rule and the numbers and hexes in the message, and nothing
before it.

Each position was looked up with ``Replay(record, stop_at=ID - 1)`` (the board
just before action ID); the tests re-check the facts they rely on, so that a
change of the data would show as a failed precondition rather than as a
puzzling finding.
"""

import copy
import json
import re

import pytest

from railcheck.engine import Replay
from railcheck.importer import filter_actions, import_export

from conftest import EXPORTS_1830

GAMES = {p.stem: p for p in EXPORTS_1830}
_CACHE: dict = {}


def load(name):
    if name not in _CACHE:
        _CACHE[name] = json.loads(GAMES[name].read_text())
    return copy.deepcopy(_CACHE[name])


def replay(data, stop_at=None):
    record, findings = import_export(json.dumps(data), "mutated.json")
    assert not findings, findings
    return Replay(record, stop_at=stop_at).run()


def before(data, action_id):
    """The game just before ``action_id`` (the action itself not played)."""
    return replay(data, stop_at=action_id - 1).game


def action(data, action_id):
    ids = {a.get("id") for a in filter_actions(data["actions"])}
    assert action_id in ids, f"action {action_id} does not count (undone?)"
    return next(a for a in data["actions"] if a.get("id") == action_id)


def mutate(data, action_id, **changes):
    data = copy.deepcopy(data)
    action(data, action_id).update(changes)
    return data


def first_error(result, action_id, rule):
    """The first finding is an error at ``action_id`` with ``rule``, and no
    finding of any kind comes before it."""
    assert result.findings, "the mutation was not flagged"
    first = result.findings[0]
    assert (first.severity, first.action_id, first.rule) == ("error", action_id, rule), \
        f"first finding: {first.severity} {first.rule} at {first.action_id}: {first.message}"
    assert not [f for f in result.findings
                if f.action_id is not None and f.action_id < action_id]
    return first


def route(train, stops, connections, revenue):
    """A route in the export's format; ``stops`` are node ids such as "F20-1"."""
    return {"train": train, "connections": connections, "revenue": revenue,
            "hexes": [s.rpartition("-")[0] for s in stops], "nodes": list(stops)}


# ---------------------------------------------------------------------------
# revenue claims


def test_one_trains_revenue_raised_by_ten_among_three():
    data = load("26855")
    # #92: NYNH runs its three 2-trains: G19-F20 $50, F20-F22 $30, F22-F24 $30
    run = action(data, 92)
    assert [(r["train"], r["revenue"]) for r in run["routes"]] == [
        ("2-2", 50), ("2-3", 30), ("2-4", 30)]
    routes = copy.deepcopy(run["routes"])
    routes[1]["revenue"] = 40
    res = replay(mutate(data, 92, routes=routes))
    # one finding for the rule: the total, with the run that is wrong
    f = first_error(res, 92, "route.revenue")
    assert f.message == ("NYNH's runs are worth $110, but $120 was claimed (the 2-train's run "
                         "F20-F22 is worth $30, not the $40 claimed); taken as paid, as the "
                         "record says")
    assert [(x.action_id, x.rule) for x in res.findings if x.severity == "error"] == [
        (92, "route.revenue")]


# ---------------------------------------------------------------------------
# tile lays


def test_tile_on_a_hex_the_company_does_not_reach():
    data = load("26855")
    # #63: PRR (home Altoona H12, track only at its edges 1 and 4) lays its
    # first tile, a straight 9 on H14; put it on G13, beyond H12's edge 3
    lay = action(data, 63)
    assert (lay["entity"], lay["hex"], lay["tile"], lay["rotation"]) == ("PRR", "H14", "9-0", 1)
    board = before(data, 63).board
    assert board.stations("PRR") == [("H12", 0)]
    assert board.neighbour("H12", 3) == "G13" and board.connected_edges("PRR", "G13") == frozenset()
    res = replay(mutate(data, 63, hex="G13"))
    f = first_error(res, 63, "tile.connection")
    assert f.message == ("tile 9 rotation 1 on G13 is not connected to PRR's network "
                         "(no track of PRR reaches G13); the record's later lines have it on "
                         "H14 (run of PRR at #106): taken as laid there")
    # the record's later run needs the 9 on H14, where it fits now: taken as
    # laid there (docs/one-mistake.md, sixth round), so nothing follows
    assert [f.action_id for f in res.findings if f.severity == "error"] == [63]


def test_tile_turned_away_from_the_company():
    data = load("26855")
    # the same lay on the right hex, H14, but turned so that it misses the
    # edge 1 where Altoona's track arrives
    board = before(data, 63).board
    assert board.connected_edges("PRR", "H14") == frozenset({1})
    res = replay(mutate(data, 63, rotation=0))
    f = first_error(res, 63, "tile.connection")
    assert f.message == ("tile 9 rotation 0 on H14 is not connected to PRR's network "
                         "(its track reaches H14 only at edge 1); the tile fits turned to r1: "
                         "taken as laid so")
    # the record says the tile was laid: in the rotation that fits, as the export
    # had it, so PRR's later runs over H14 are checked on the right track
    assert [f.action_id for f in res.findings if f.severity == "error"] == [63]


def test_tile_reached_only_through_a_city_filled_by_another_company():
    data = load("1830_game_end_bank")
    # #338: NYNH upgrades D16. Make it lay a straight 9 on the mountain E21
    # between Albany (E19, its station) and Boston (E23). Albany's tile has no
    # exit toward E21; Boston's has, but Boston's only slot holds B&M, so
    # NYNH's network stops there
    lay = action(data, 338)
    assert (lay["entity"], lay["hex"], lay["tile"]) == ("NYNH", "D16", "24-0")
    game = before(data, 338)
    board = game.board
    assert board.tokens_on("E23") == [["B&M"]] and ("E19", 0) in board.stations("NYNH")
    assert board.neighbour("E21", 4) == "E23" and board.neighbour("E21", 1) == "E19"
    assert board.connected_edges("NYNH", "E21") == frozenset()
    # without B&M's station the same lay would join NYNH's network at edge 4
    board.remove_corporation("B&M")
    assert board.connected_edges("NYNH", "E21") == frozenset({4})
    assert board.lay_tile("NYNH", "9", "E21", 1, colors=game.phase.tiles) == (120, 1)
    res = replay(mutate(data, 338, hex="E21", tile="9-3", rotation=1))
    f = first_error(res, 338, "tile.connection")
    assert f.message == ("tile 9 rotation 1 on E21 is not connected to NYNH's network "
                         "(no track of NYNH reaches E21)")


def test_green_tile_in_phase_2():
    data = load("26855")
    # #90: NYNH lays a yellow 57 on F22. Make it upgrade its home New York
    # (G19) to the green NY tile 54, as it really did later, at #298 (phase 5)
    assert (action(data, 298)["hex"], action(data, 298)["tile"], action(data, 298)["rotation"]) \
        == ("G19", "54-0", 0)
    game = before(data, 90)
    assert game.phase.name == "2" and list(game.phase.tiles) == ["yellow"]
    # the lay itself fits: only the colour is wrong
    board = game.board
    snap = board.snapshot()
    assert board.lay_tile("NYNH", "54", "G19", 0, colors=["yellow", "green"]) == (80, 0)
    board.restore(snap)
    res = replay(mutate(data, 90, hex="G19", tile="54-0", rotation=0))
    f = first_error(res, 90, "tile.color")
    assert f.message == "tile 54 is green; only yellow tiles may be laid in this phase"


def test_upgrade_that_drops_the_track_to_baltimore():
    data = load("1830_game_end_bank")
    # #143: B&O upgrades its station city J14 (yellow 57, exits 0 and 3, edge 3
    # toward its home Baltimore I15) to green 14 in rotation 2 (exits 0, 2, 3, 5).
    # Rotation 1 gives exits 1, 2, 4, 5 and loses both old exits.
    lay = action(data, 143)
    assert (lay["entity"], lay["hex"], lay["tile"], lay["rotation"]) == ("B&O", "J14", "14-0", 2)
    board = before(data, 143).board
    assert board.tile_on("J14") == ("57", 0) and board.neighbour("J14", 3) == "I15"
    res = replay(mutate(data, 143, rotation=1))
    f = first_error(res, 143, "tile.upgrade")
    assert f.message == ("tile 14 rotation 1 on J14 leaves edge 0 of the existing track "
                         "unconnected; the tile fits turned to r2: taken as laid so")


def test_upgrade_of_plain_track_that_drops_an_edge():
    data = load("26855")
    # #194: NYC upgrades the gentle curve 7 on E21 (edges 0, 1) to 26 in
    # rotation 1 (edges 0, 1, 4); rotation 2 gives edges 1, 2, 5
    lay = action(data, 194)
    assert (lay["entity"], lay["hex"], lay["tile"], lay["rotation"]) == ("NYC", "E21", "26-0", 1)
    assert before(data, 194).board.tile_on("E21") == ("7", 0)
    res = replay(mutate(data, 194, rotation=2))
    f = first_error(res, 194, "tile.upgrade")
    assert f.message == ("tile 26 rotation 2 on E21 leaves edge 0 of the existing track "
                         "unconnected; the tile fits turned to r1: taken as laid so")


def test_second_copy_of_a_tile_the_box_has_once():
    data = load("26855")
    # the box has one tile 1 (two towns); NYNH laid it on F20 at #68. At #294
    # PRR lays tile 2 on G17 (Reading & Allentown): make it a second tile 1
    assert action(data, 68)["tile"] == "1-0" and action(data, 294)["tile"] == "2-0"
    game = before(data, 294)
    board = game.board
    assert board.tile_on("F20") == ("1", 0) and board.remaining["1"] == 0
    # with a copy in the box, tile 1 in rotation 0 would be a legal lay here
    board.remaining["1"] = 1
    snap = board.snapshot()
    assert board.lay_tile("PRR", "1", "G17", 0, colors=game.phase.tiles) == (0, 0)
    board.restore(snap)
    res = replay(mutate(data, 294, tile="1-1", rotation=0))
    f = first_error(res, 294, "tile.supply")
    assert f.message == "no copy of tile 1 is left in the supply (all 1 are on the map)"


def test_a_tile_copy_the_box_does_not_have():
    """An export's tile id names the copy (``9-0``); the box has seven 9s
    (9-0 to 9-6), so ``9-7`` is no tile of the game (18xx.games cannot find
    it).  One finding at the lay; the tile is laid, so the game goes on as the
    record has it and ends with its own scores."""
    data = load("26855")
    assert action(data, 63)["tile"] == "9-0"
    clean = replay(data)
    res = replay(mutate(data, 63, tile="9-7"))
    errs = [(f.action_id, f.rule, f.message) for f in res.findings if f.severity == "error"]
    assert errs == [(63, "tile.supply", "the record lays tile copy 9-7, but there are 7 "
                     "copies of tile 9 (9-0 to 9-6)")]
    first_error(res, 63, "tile.supply")
    assert [s["net_worth"] for s in res.standings] == [s["net_worth"] for s in clean.standings]
    # laid as that copy, where the record has it
    assert before(mutate(data, 63, tile="9-7"), 64).board.hex_of_tile_copy("9-7") == "H14"


# ---------------------------------------------------------------------------
# stations


def test_station_in_a_full_city():
    data = load("26855")
    # #327: NYC places its second station in New York (G19 city 1). Put it in
    # Providence (F22, tile 15-0), which NYC reaches but whose 2 slots hold
    # NYNH and PRR
    tok = action(data, 327)
    assert (tok["entity"], tok["city"]) == ("NYC", "62-0-1")
    board = before(data, 327).board
    assert board.hex_of_tile_copy("15-0") == "F22"
    assert board.tokens_on("F22") == [["NYNH", "PRR"]]
    assert ("F22", 0) in board.reachable_cities("NYC")
    res = replay(mutate(data, 327, city="15-0-0"))
    f = first_error(res, 327, "token.full")
    # the station the record's later runs use: New York's city 1, as played
    # (following/repair.py)
    assert f.message == ("F22 city 0 is full (NYNH, PRR); the record's later lines go on as "
                         "if the station were in G19 city 1: taken so")


def test_second_station_on_the_same_hex():
    data = load("26855")
    # the same #327 in NYC's home Albany (E19): the green 15-1 there has 2
    # slots, one free and reachable, but one of them already holds NYC
    board = before(data, 327).board
    assert board.hex_of_tile_copy("15-1") == "E19"
    assert board.tokens_on("E19") == [["NYC"]] and ("E19", 0) in board.reachable_cities("NYC")
    res = replay(mutate(data, 327, city="15-1-0"))
    f = first_error(res, 327, "token.duplicate")
    assert f.message == ("NYC already has a station on E19; the record's later lines go on "
                         "as if the station were in G19 city 1: taken so")


# ---------------------------------------------------------------------------
# train runs


def test_route_through_a_city_filled_by_another_company():
    data = load("1830_game_end_bank")
    # #311: PRR runs its only train, a 3, G19-H18-H16 for $160. Make it run
    # Havre de Grace (I19, town) - Baltimore (I15) - Altoona (H12, PRR's home)
    # over laid track; Baltimore's single slot holds B&O
    run = action(data, 311)
    assert [r["train"] for r in run["routes"]] == ["3-3"]
    board = before(data, 311).board
    assert board.tokens_on("I15") == [["B&O"]] and board.tokens_on("H12") == [["PRR"]]
    assert board.tile_on("I17") == ("9", 1) and board.tile_on("H14") == ("41", 4)
    routes = [route("3-3", ["I19-0", "I15-0", "H12-0"],
                    [["I19", "I17", "I15"], ["I15", "H14", "H12"]], 10 + 50 + 10)]
    res = replay(mutate(data, 311, routes=routes))
    f = first_error(res, 311, "route.blocked")
    assert f.message == "train 3 (3-3) runs through I15, whose slots are all filled by B&O"


def test_two_train_with_three_stops():
    data = load("1830_game_end_bank")
    # #44: B&O runs its 2-trains I15-I19 and I15-J14. Make one train run
    # J14-I15-I19 over the same track
    run = action(data, 44)
    assert [(r["train"], r["hexes"]) for r in run["routes"]] == [
        ("2-1", ["I15", "I19"]), ("2-0", ["I15", "J14"])]
    routes = [route("2-1", ["J14-0", "I15-0", "I19-0"],
                    [["J14", "I15"], ["I15", "I17", "I19"]], 20 + 30 + 10)]
    res = replay(mutate(data, 44, routes=routes))
    f = first_error(res, 44, "route.distance")
    assert f.message == "train 2 (2-1) visits 3 stops (J14.0-I15.0-I19.0) but may visit only 2"


def test_route_without_a_station_of_the_company():
    data = load("26855")
    # #96: NYC runs its 2-train Albany (E19, NYC's home) - New Haven (F20).
    # Make it run New Haven - Providence (F22), where only NYNH has a station
    run = action(data, 96)
    assert run["entity"] == "NYC" and run["routes"][0]["hexes"] == ["F20", "E19"]
    board = before(data, 96).board
    assert board.stations("NYC") == [("E19", 0)] and board.tokens_on("F22") == [["NYNH"]]
    routes = copy.deepcopy(run["routes"])
    routes[0].update(hexes=["F20", "F22"], connections=[["F20", "F22"]], revenue=30)
    res = replay(mutate(data, 96, routes=routes))
    f = first_error(res, 96, "route.token")
    assert f.message == "train 2 (2-0) (F20-F22) includes no station of NYC"


def test_two_trains_of_one_company_on_the_same_track():
    data = load("1830_game_end_bank")
    # #174: B&O runs four trains; its 3 runs I15-I17-I19-H18. Make its 2-0
    # run I15-I19 over the same I15-I17-I19 track instead of I15-J14
    run = action(data, 174)
    assert [(r["train"], r["hexes"]) for r in run["routes"]] == [
        ("3-0", ["I15", "I19", "H18"]), ("2-5", ["J14", "K15"]),
        ("2-1", ["J14", "K13"]), ("2-0", ["I15", "J14"])]
    routes = copy.deepcopy(run["routes"])
    routes[3] = route("2-0", ["I15-0", "I19-0"], [["I15", "I17", "I19"]], 50 + 10)
    res = replay(mutate(data, 174, routes=routes))
    f = first_error(res, 174, "route.shared_track")
    # I15-I17-I19 crosses two hex boundaries: four hex sides are shared
    assert re.fullmatch(r"train 2 \(2-0\) and train 3 \(3-0\) both use the track at "
                        r"(I15 edge 4|I17 edge 1|I17 edge 4|I19 edge 1)", f.message), f.message


def test_route_visiting_a_city_twice():
    data = load("1830_game_end_bank")
    # #442: B&M's 5-train runs G19-F20-F22-E23-F24. Providence (F22, green 15),
    # Boston (E23) and Fall River (F24) form a triangle of track: make the run
    # New Haven (F20) - F22 - E23 - F24 - back into F22 by its third side.
    # No hex side is used twice; only the city is visited twice.
    run = action(data, 442)
    assert [r["train"] for r in run["routes"]] == ["5-2"]
    board = before(data, 442).board
    assert board.tile_on("F22") == ("15", 1)
    routes = [route("5-2", ["F20-0", "F22-0", "E23-0", "F24-0", "F22-0"],
                    [["F20", "F22"], ["F22", "E23"], ["E23", "F24"], ["F24", "F22"]],
                    10 + 30 + 60 + 10 + 30)]
    res = replay(mutate(data, 442, routes=routes))
    f = first_error(res, 442, "route.repeat_stop")
    assert f.message == "train 5 (5-2) visits F22 twice"


@pytest.mark.parametrize("game, action_id, keep_nodes", [
    # NYNH's D-train: 10 stops, both cities of New Haven (F20), an OO, given by node
    ("1830_game_end_bank", 456, True),
    # the same run with bare hexes: the search must pick F20's two cities
    ("1830_game_end_bank", 456, False),
    # B&O's 4 and 5 share Philadelphia (H18, OO) and G19: searched together
    ("26855", 386, False),
    # NYC's 5-train passes New Haven (F20) twice
    ("26855", 446, False),
])
def test_hand_written_run_with_only_stops_is_accepted(game, action_id, keep_nodes):
    data = load(game)
    run = action(data, action_id)
    assert run["type"] == "run_routes"
    routes = copy.deepcopy(run["routes"])
    for r in routes:
        del r["connections"]
        if not keep_nodes:
            r.pop("nodes", None)
    res = replay(mutate(data, action_id, routes=routes))
    assert res.findings == []
    # the same revenue: the game ends exactly as recorded
    assert res.standings == replay(load(game)).standings
