"""Tests of the map: geometry, tile lays, stations, runs, and the replay of
the four 18xx.games 1830 exports of the corpus through the Board."""

from __future__ import annotations

import json
import os

import sys

import pytest
import yaml

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
from railcheck.importer import filter_actions

from railcheck.actions import Route, Stop
from railcheck.board import Board, load_board_yaml
from railcheck.board.hexgrid import direction, invert
from replay18xx import (BOARD_YAML, REFERENCE, ExportReplayer, corpus_files,
                                        entities_from_reference,
                                        reference_constants)
from railcheck.board.tiles import parse_18xx_code, revenue_for_phase
from railcheck.findings import RuleViolation

YELLOW = ["yellow"]
GREEN = ["yellow", "green"]
BROWN = ["yellow", "green", "brown"]
DIST = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "D": None}

HAVE_REFERENCE = os.path.exists(REFERENCE)
CORPUS = corpus_files()
needs_reference = pytest.mark.skipif(not HAVE_REFERENCE, reason="reference data not present")
needs_corpus = pytest.mark.skipif(not CORPUS, reason="18xx.games corpus not present")


@pytest.fixture(scope="module")
def board_data():
    return load_board_yaml(BOARD_YAML)


@pytest.fixture(scope="module")
def entities():
    if HAVE_REFERENCE:
        return entities_from_reference(reference_constants())
    # the few facts the tests need, as the economy ruleset states them
    corps = [
        {"sym": "PRR", "home": "H12", "home_city": None, "tokens": [0, 40, 100, 100]},
        {"sym": "NYC", "home": "E19", "home_city": None, "tokens": [0, 40, 100, 100]},
        {"sym": "CPR", "home": "A19", "home_city": None, "tokens": [0, 40, 100, 100]},
        {"sym": "B&O", "home": "I15", "home_city": None, "tokens": [0, 40, 100]},
        {"sym": "C&O", "home": "F6", "home_city": None, "tokens": [0, 40, 100]},
        {"sym": "ERIE", "home": "E11", "home_city": None, "tokens": [0, 40, 100]},
        {"sym": "NYNH", "home": "G19", "home_city": 0, "tokens": [0, 40]},
        {"sym": "B&M", "home": "E23", "home_city": None, "tokens": [0, 40]},
    ]
    comps = [
        {"sym": "SV", "blocks": ["G15"]},
        {"sym": "CS", "blocks": ["B20"], "special": {"tile_lay": {"hexes": ["B20"], "tiles": ["3", "4", "58"]}}},
        {"sym": "DH", "blocks": ["F16"], "special": {"teleport": {"hexes": ["F16"], "tiles": ["57"]}}},
        {"sym": "MH", "blocks": ["D18"]},
        {"sym": "CA", "blocks": ["H18"]},
        {"sym": "BO", "blocks": ["I13", "I15"]},
    ]
    return corps, comps


@pytest.fixture
def board(board_data, entities):
    return Board(board_data, *entities)


def rv(excinfo) -> str:
    return f"{excinfo.value.rule}: {excinfo.value.message}"


# ---------------------------------------------------------------- data

@needs_reference
def test_yaml_has_every_hex_and_tile_of_the_reference(board_data):
    constants = reference_constants()
    coords = {c for group in constants["HEXES"].values() for key in group for c in json.loads(key)}
    assert coords == set(board_data["hexes"])
    assert len(coords) == 93
    for name, info in constants["TILES"].items():
        assert board_data["tiles"][name]["count"] == info["count"]
        assert board_data["tiles"][name]["color"] == info["color"]
    assert board_data["hexes"]["E5"]["label"] == "OO"
    assert board_data["hexes"]["E5"]["cost"] == 80
    assert board_data["hexes"]["F2"]["offboard"]["revenue"] == {"yellow": 40, "brown": 70}


def test_yaml_reads_back_with_pyyaml():
    with open(BOARD_YAML, encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    assert data["layout"] == "pointy"
    assert data["tiles"]["57"] == {"color": "yellow", "count": 4,
                                   "cities": [{"revenue": 20, "slots": 1}],
                                   "paths": [[0, "c0"], ["c0", 3]]}
    assert data["hexes"]["G19"]["cities"][1] == {"revenue": 40, "slots": 1}


def test_notation_parser():
    got = parse_18xx_code("city=revenue:40;city=revenue:40;path=a:3,b:_0;path=a:0,b:_1;"
                          "label=NY;upgrade=cost:80,terrain:water")
    assert got == {"cities": [{"revenue": 40, "slots": 1}, {"revenue": 40, "slots": 1}],
                   "paths": [[3, "c0"], [0, "c1"]], "label": "NY", "cost": 80, "terrain": "water"}
    assert parse_18xx_code("offboard=revenue:yellow_30|brown_50,hide:1,groups:Canada;path=a:5,b:_0;"
                           "border=edge:4") == {
        "offboard": {"revenue": {"yellow": 30, "brown": 50}, "group": "Canada", "hidden": True},
        "paths": [[5, "o0"]], "borders": [{"edge": 4}]}
    assert parse_18xx_code("town") == {"towns": [{"revenue": 0}]}
    assert parse_18xx_code("blank") == {}


def test_revenue_by_phase():
    rev = {"yellow": 40, "brown": 70}
    assert [revenue_for_phase(rev, c) for c in ("yellow", "green", "brown", "gray")] == [40, 40, 70, 70]
    assert revenue_for_phase(20, "brown") == 20


# ---------------------------------------------------------------- geometry

def test_known_neighbours(board):
    assert board.neighbour("H12", 4) == "H14"
    assert board.neighbour("H14", 4) == "H16"
    assert board.neighbour("I15", 4) == "I17"
    assert board.neighbour("I17", 4) == "I19"
    assert board.neighbour("I15", 0) == "J14"
    assert board.neighbour("J14", 3) == "I15"
    assert direction("H12", "H10") == 1
    # impassable borders cut the neighbour relation
    assert board.neighbour("D12", 2) is None and board.neighbour("D12", 3) is None
    assert board.neighbour("C11", 5) is None
    assert board.neighbour("A11", 3) is None   # off the map


@needs_corpus
def test_neighbours_agree_with_every_corpus_connection(board):
    pairs = set()
    for path in CORPUS:
        with open(path, encoding="utf-8") as fh:
            export = json.load(fh)
        for a in export["actions"]:
            if a["type"] != "run_routes":
                continue
            for r in a["routes"]:
                for chain in r.get("connections") or []:
                    pairs.update(zip(chain, chain[1:]))
    assert len(pairs) > 100
    for a, b in sorted(pairs):
        e = direction(a, b)
        assert e is not None, f"{a}-{b} not adjacent"
        assert board.neighbour(a, e) == b
        assert board.neighbour(b, invert(e)) == a
        assert direction(b, a) == invert(e)


# ---------------------------------------------------------------- tile lays

def test_legal_lay_and_terrain_cost(board):
    board.place_home_token("PRR")
    assert board.lay_tile("PRR", "9", "H14", 1, colors=YELLOW) == (0, 1)
    assert board.tile_on("H14") == ("9", 1)
    assert board.remaining["9"] == 6
    board.place_home_token("B&O")
    board.unblock("BO")
    # I17 is water: 80 on the first lay
    assert board.lay_tile("B&O", "9", "I17", 1, colors=YELLOW) == (80, 1)
    assert "H14" in board.render_text() and "I17" in board.render_text()


def test_rotation_found_when_omitted(board):
    board.place_home_token("PRR")
    cost, rot = board.lay_tile("PRR", "57", "H10", None, colors=YELLOW)
    assert rot == 1 and cost == 0        # the only city tile rotation touching H12
    assert not board.warnings
    cost, rot = board.lay_tile("PRR", "8", "H14", None, colors=YELLOW)
    assert board.pop_warnings()          # several curves fit: noted, first used
    with pytest.raises(RuleViolation) as e:
        board.lay_tile("PRR", "9", "B12", None, colors=YELLOW)
    assert e.value.rule == "tile.connection"


def test_green_tile_in_yellow_phase_refused(board):
    board.place_home_token("PRR")
    board.lay_tile("PRR", "57", "H10", 1, colors=YELLOW)
    with pytest.raises(RuleViolation) as e:
        board.lay_tile("PRR", "14", "H10", 0, colors=YELLOW)
    assert e.value.rule == "tile.color"
    assert "tile 14 is green" in e.value.message


def test_upgrade_must_keep_existing_track(board):
    board.place_home_token("PRR")
    board.lay_tile("PRR", "57", "H10", 1, colors=YELLOW)     # edges 1 and 4
    with pytest.raises(RuleViolation) as e:
        board.lay_tile("PRR", "14", "H10", 2, colors=GREEN)   # edges 2, 3, 5, 0
    assert e.value.rule == "tile.upgrade"
    assert "tile 14 rotation 2 on H10 leaves edge 1 of the existing track unconnected" in e.value.message
    # a legal upgrade: the 57 goes back to the supply, the station stays
    board.place_token("PRR", "H10", 0)
    assert board.remaining["57"] == 3
    assert board.lay_tile("PRR", "14", "H10", 0, colors=GREEN) == (0, 0)
    assert board.remaining["57"] == 4 and board.remaining["14"] == 2
    assert board.tokens_on("H10") == [["PRR"]]


def test_upgrade_rules_colour_label_and_cities(board):
    board.place_home_token("PRR")
    with pytest.raises(RuleViolation) as e:
        board.lay_tile("PRR", "14", "H10", 0, colors=GREEN)   # green on an empty hex
    assert e.value.rule == "tile.upgrade" and "takes a yellow tile" in e.value.message
    with pytest.raises(RuleViolation) as e:
        board.lay_tile("PRR", "9", "H10", 1, colors=YELLOW)   # plain track on a city hex
    assert "has 0 cities but H10" in e.value.message
    with pytest.raises(RuleViolation) as e:
        board.lay_tile("PRR", "9", "H12", 1, colors=YELLOW)   # gray
    assert "no tile may be laid on H12" in e.value.message
    board.place_home_token("B&M")
    with pytest.raises(RuleViolation) as e:
        board.lay_tile("B&M", "14", "E23", 0, colors=GREEN)   # Boston needs a B tile
    assert "label" in e.value.message
    assert board.lay_tile("B&M", "53", "E23", None, colors=GREEN)[1] in range(6)


def test_tile_out_of_supply_refused(board):
    board.lay_tile("PRR", "1", "G7", 0, colors=YELLOW, check_connection=False)
    with pytest.raises(RuleViolation) as e:
        board.lay_tile("PRR", "1", "G17", 3, colors=YELLOW, check_connection=False)
    assert e.value.rule == "tile.supply"
    assert "no copy of tile 1" in e.value.message


def test_unconnected_lay_refused(board):
    board.place_home_token("PRR")
    with pytest.raises(RuleViolation) as e:
        board.lay_tile("PRR", "57", "H16", 1, colors=YELLOW)
    assert e.value.rule == "tile.connection"
    assert "not connected to PRR's network (no track of PRR reaches H16)" in e.value.message
    # Altoona's track reaches H14 at edge 1; a curve from edge 3 to 5 misses it
    with pytest.raises(RuleViolation) as e:
        board.lay_tile("PRR", "8", "H14", 3, colors=YELLOW)
    assert e.value.rule == "tile.connection"
    assert "its track reaches H14 only at edge 1" in e.value.message
    assert board.lay_tile("PRR", "8", "H14", 1, colors=YELLOW) == (0, 1)   # edges 1 and 3


def test_track_off_map_into_gray_and_through_borders_refused(board):
    with pytest.raises(RuleViolation) as e:
        board.lay_tile("PRR", "9", "B12", 0, colors=YELLOW, check_connection=False)
    assert e.value.rule == "tile.edge" and "off the map at edge 3" in e.value.message
    with pytest.raises(RuleViolation) as e:
        board.lay_tile("PRR", "9", "D12", 2, colors=YELLOW, check_connection=False)
    assert "impassable border at edge 2" in e.value.message
    with pytest.raises(RuleViolation) as e:   # B14 edge 5 faces Kingston's side without track
        board.lay_tile("PRR", "7", "B14", 4, colors=YELLOW, check_connection=False)
    assert "C15, a gray hex" in e.value.message


def test_private_blocks_and_powers(board):
    board.place_home_token("NYNH")
    with pytest.raises(RuleViolation) as e:
        board.lay_tile("NYNH", "4", "B20", 0, colors=YELLOW, check_connection=False)
    assert e.value.rule == "tile.blocked" and "CS" in e.value.message
    # the owner of CS uses its power: no connection needed, only its tiles
    with pytest.raises(RuleViolation) as e:
        board.lay_tile("NYNH", "9", "B20", 0, colors=YELLOW, special="CS")
    assert e.value.rule == "tile.special"
    board.unblock("CS")
    assert board.lay_tile("NYNH", "4", "B20", 2, colors=YELLOW, special="CS") == (0, 2)
    # DH: tile 57 and a station on F16, unconnected, for the mountain
    assert board.lay_tile("PRR", "57", "F16", 1, colors=YELLOW, special="DH") == (120, 1)
    board.place_token("PRR", "F16", 0, check_reach=False)
    assert board.stations("PRR") == [("F16", 0)]


# ---------------------------------------------------------------- stations

def test_token_in_full_city_refused(board):
    board.place_home_token("PRR")
    board.lay_tile("PRR", "57", "H10", 1, colors=YELLOW)
    board.place_token("PRR", "H10", None)
    with pytest.raises(RuleViolation) as e:
        board.place_token("C&O", "H10", 0, check_reach=False)
    assert e.value.rule == "token.full" and "H10 city 0 is full (PRR)" in e.value.message
    with pytest.raises(RuleViolation) as e:
        board.place_token("PRR", "H10", 0)
    assert e.value.rule == "token.duplicate"


def test_home_slot_reserved_and_reach(board):
    board.place_home_token("PRR")
    # Albany is NYC's home: its only slot is kept for NYC
    board.lay_tile("PRR", "57", "E19", 0, colors=YELLOW, check_connection=False)
    with pytest.raises(RuleViolation) as e:
        board.place_token("PRR", "E19", None, check_reach=False)
    assert e.value.rule == "token.reserved" and "NYC" in e.value.message
    board.lay_tile("PRR", "57", "H4", 1, colors=YELLOW, check_connection=False)
    with pytest.raises(RuleViolation) as e:
        board.place_token("PRR", "H4", None)
    assert e.value.rule == "token.reach"
    board.place_home_token("NYC")
    assert board.tokens_on("E19") == [["NYC"]]


def test_token_count_and_home_of_nynh(board):
    board.place_home_token("NYNH")
    assert board.tokens_on("G19") == [["NYNH"], []]     # city 0 of New York
    board.lay_tile("NYNH", "57", "H10", 1, colors=YELLOW, check_connection=False)
    board.place_token("NYNH", "H10", 0, check_reach=False)
    board.lay_tile("NYNH", "57", "H4", 1, colors=YELLOW, check_connection=False)
    with pytest.raises(RuleViolation) as e:
        board.place_token("NYNH", "H4", 0, check_reach=False)
    assert e.value.rule == "token.none_left"


def test_route_and_token_availability(board):
    board.place_home_token("PRR")
    assert not board.has_route("PRR")
    assert not board.can_place_token("PRR")
    board.lay_tile("PRR", "57", "H10", 1, colors=YELLOW)
    assert board.has_route("PRR") and board.can_place_token("PRR")
    assert board.reachable_cities("PRR") == {("H12", 0), ("H10", 0)}
    assert board.connected_edges("PRR", "H8") == {4}


def test_station_on_trackless_oo_hex_is_placed_again(board):
    """ERIE's home stands on the printed Buffalo (two cities, no track); when
    track arrives, 18xx.games has the owner place it again on the new tile."""
    board.place_home_token("ERIE")
    assert board.tokens_on("E11") == [["ERIE"], []]
    board.lay_tile("ERIE", "59", "E11", 0, colors=GREEN)
    assert board.pending_relocation("ERIE", "E11")
    board.place_token("ERIE", "E11", 1)          # moved, not a second station
    assert board.tokens_on("E11") == [[], ["ERIE"]]
    assert board.tokens_used["ERIE"] == 1
    assert not board.pending_relocation("ERIE", "E11")


def test_closed_corporation_leaves_the_map(board):
    board.place_home_token("PRR")
    board.remove_corporation("PRR")
    assert board.tokens_on("H12") == [[]]
    board.place_token("B&O", "H12", 0, check_reach=False)


# ---------------------------------------------------------------- runs

@pytest.fixture
def line(board):
    """H4(57) - H6(9) - H8(9) - H10(57) - H12(Altoona); PRR at H12 and H10,
    B&O at H4."""
    board.place_home_token("PRR")
    board.lay_tile("PRR", "57", "H10", 1, colors=YELLOW)
    board.lay_tile("PRR", "9", "H8", 1, colors=YELLOW)
    board.lay_tile("PRR", "9", "H6", 1, colors=YELLOW)
    board.lay_tile("PRR", "57", "H4", 1, colors=YELLOW)
    board.place_token("PRR", "H10", 0)
    board.place_token("B&O", "H4", 0, check_reach=False)
    return board


def route(train, *stops, path=None):
    return Route(train=train, stops=[Stop(hex=s) for s in stops], path=path)


def test_revenue_of_simple_runs(line):
    total, each = line.revenue_of_routes("PRR", [route("2", "H10", "H12"),
                                                 route("3", "H4", "H10", path=[["H4", "H6", "H8", "H10"]])],
                                         "yellow", DIST)
    assert each == [30, 40] and total == 70
    # ends in a full city: allowed
    assert line.revenue_of_routes("B&O", [route("2", "H4", "H10")], "yellow", DIST) == (40, [40])


def test_run_through_city_blocked_by_other_company_refused(line):
    with pytest.raises(RuleViolation) as e:
        line.revenue_of_routes("B&O", [route("3", "H4", "H10", "H12")], "yellow", DIST)
    assert e.value.rule == "route.blocked"
    assert "runs through H10, whose slots are all filled by PRR" in e.value.message


def test_two_train_with_three_stops_refused(line):
    with pytest.raises(RuleViolation) as e:
        line.revenue_of_routes("PRR", [route("2", "H4", "H10", "H12")], "yellow", DIST)
    assert e.value.rule == "route.distance"
    assert "train 2 visits 3 stops (H4-H10-H12) but may visit only 2" in e.value.message


def test_run_rules(line):
    with pytest.raises(RuleViolation) as e:   # no PRR station on it
        line.revenue_of_routes("PRR", [route("2", "H4", "H6")], "yellow", DIST)
    assert e.value.rule in ("route.stop", "route.token")
    with pytest.raises(RuleViolation) as e:
        line.revenue_of_routes("B&O", [route("2", "H4", "H10"), route("2", "H10", "H4")], "yellow", DIST)
    assert e.value.rule in ("route.shared_track", "route.no_path")
    with pytest.raises(RuleViolation) as e:
        line.revenue_of_routes("PRR", [route("2", "H10", "H12", path=[["H10", "H12"]]),
                                       route("3", "H12", "H10", path=[["H12", "H10"]])], "yellow", DIST)
    assert e.value.rule == "route.shared_track"
    with pytest.raises(RuleViolation) as e:
        line.revenue_of_routes("PRR", [route("3", "H10", "H12", "H10")], "yellow", DIST)
    assert e.value.rule == "route.repeat_stop"
    with pytest.raises(RuleViolation) as e:
        line.revenue_of_routes("PRR", [route("2", "H10", "H12", path=[["H10", "H11", "H12"]])],
                               "yellow", DIST)
    assert e.value.rule == "route.path"
    with pytest.raises(RuleViolation) as e:   # Altoona is not joined to H14
        line.revenue_of_routes("PRR", [route("2", "H12", "H16", path=[["H12", "H14", "H16"]])],
                               "yellow", DIST)
    assert e.value.rule in ("route.connection", "route.stop")


@needs_corpus
def test_known_corpus_route_revenue(board_data):
    """B&O's first run in 1830_game_end_bank (action 44): I15-I19 for 40 and
    I15-J14 for 50, rebuilt from that game's lays and tokens."""
    path = [p for p in CORPUS if p.endswith("1830_game_end_bank.json")][0]
    with open(path, encoding="utf-8") as fh:
        export = json.load(fh)
    cut = [a for a in export["actions"] if a["id"] <= 44]
    res = ExportReplayer(board_data=board_data).run({"actions": cut}, "prefix")
    assert res.failures == [] and res.runs == 1 and res.routes_matched == 2
    replayer = ExportReplayer(board_data=board_data)
    replayer.run({"actions": cut[:-1]}, "prefix")
    runs = [ExportReplayer.route_of(r) for r in cut[-1]["routes"]]
    assert replayer.board.revenue_of_routes("B&O", runs, "yellow", DIST) == (90, [40, 50])
    for r in runs:
        r.path = None
    assert replayer.board.revenue_of_routes("B&O", runs, "yellow", DIST) == (90, [40, 50])


def test_the_replayer_uses_the_importers_undo_redo():
    acts = [{"id": i, "type": "x"} for i in range(1, 6)]
    acts += [{"id": 6, "type": "undo"}, {"id": 7, "type": "undo", "action_id": 2},
             {"id": 8, "type": "redo"}, {"id": 10, "type": "x"}]
    assert [a["id"] for a in filter_actions(acts)] == [1, 2, 3, 4, 10]


def test_snapshot_restore(line):
    snap = line.snapshot()
    line.lay_tile("PRR", "14", "H10", 0, colors=GREEN)
    line.place_home_token("NYC")
    line.restore(snap)
    assert line.tile_on("H10") == ("57", 1)
    assert line.tokens_on("E19") == [[]]
    assert line.remaining["14"] == 3


def test_render(line):
    text = line.render_text()
    assert "H10  Pittsburgh" in text and "PRR" in text
    svg = line.render_svg()
    assert svg.startswith("<svg") and "#57" in svg


# ---------------------------------------------------------------- the corpus

@needs_corpus
@pytest.mark.parametrize("path", CORPUS, ids=[os.path.basename(p) for p in CORPUS])
def test_corpus_game_replays(board_data, path):
    """Every lay and station of the game is accepted and every recorded run
    revenue is reproduced, with the recorded hexes and with the search."""
    with open(path, encoding="utf-8") as fh:
        export = json.load(fh)
    replayer = ExportReplayer(board_data=board_data)
    res = replayer.run(export, os.path.basename(path))
    print(res.summary())
    assert res.failures == []
    assert res.mismatches == []
    assert res.routes_matched == res.routes > 0
    assert res.runs_matched == res.runs

    class NoPath(ExportReplayer):
        @staticmethod
        def route_of(r):
            got = ExportReplayer.route_of(r)
            got.path = None
            return got

    res2 = NoPath(board_data=board_data).run(export, os.path.basename(path))
    assert res2.failures == [] and res2.routes_matched == res2.routes

    class Reversed(ExportReplayer):     # each stretch of hexes given end to start
        @staticmethod
        def route_of(r):
            got = ExportReplayer.route_of(r)
            got.path = [p[::-1] for p in got.path]
            return got

    res3 = Reversed(board_data=board_data).run(export, os.path.basename(path))
    assert res3.failures == [] and res3.routes_matched == res3.routes




# --------------------------------------------------------------------------
# train reach models behind one interface (railcheck/mechanics/reach.py)

def test_reach_from_a_ruleset_distance():
    from railcheck.mechanics.reach import Reach
    assert Reach.from_distance(4) == Reach("stops", stops=4)
    assert Reach.from_distance(None).kind == "unlimited"
    assert Reach.from_distance({"cities": 3, "towns": 2}) == Reach("n+m", cities=3, towns=2)
    assert Reach.from_distance({"hexes": 2}, gauge="broad") == Reach("hexes", hexes=2,
                                                                      gauge="broad")
    for bad in ({"cities": "3"}, {"miles": 2}, "4", True):
        with pytest.raises(ValueError):
            Reach.from_distance(bad)
    with pytest.raises(ValueError):
        Reach.from_distance(2, gauge="metre")


def test_n_plus_m_reach_counts_cities_and_towns():
    from railcheck.mechanics.reach import Reach
    r = Reach.from_distance({"cities": 2, "towns": 1})
    assert r.problem(["city", "city", "town"]) is None
    assert r.problem(["city", "town", "town"]) is None      # a town takes the unused city's place
    assert r.problem(["city", "city", "offboard"]) == \
        "visits 3 cities or off-board areas but may visit only 2 (a 2+1 train)"
    assert "visits 2 cities and 2 towns" in r.problem(["city", "city", "town", "town"])


def test_routes_with_n_plus_m_and_hex_trains(line):
    # a 1+1 train cannot run two cities; a 2+0 can
    with pytest.raises(RuleViolation) as e:
        line.revenue_of_routes("PRR", [route("X", "H10", "H12")], "yellow",
                               {"X": {"cities": 1, "towns": 1}})
    assert e.value.rule == "route.distance"
    assert "train X (H10-H12) visits 2 cities or off-board areas but may visit only 1" \
        in e.value.message
    assert line.revenue_of_routes("PRR", [route("X", "H10", "H12")], "yellow",
                                  {"X": {"cities": 2, "towns": 0}}) == (30, [30])
    # H4 to H10 passes H6 and H8: three hexes entered
    run = [route("H", "H4", "H10", path=[["H4", "H6", "H8", "H10"]])]
    with pytest.raises(RuleViolation) as e:
        line.revenue_of_routes("PRR", run, "yellow", {"H": {"hexes": 2}})
    assert "runs through 3 hexes but may run only 2" in e.value.message
    assert line.revenue_of_routes("PRR", run, "yellow", {"H": {"hexes": 3}}) == (40, [40])


def test_track_that_leads_out_of_a_station_and_back_into_it_is_no_route():
    # 1830_rand_51200004_2 (a clean random game): NYC's stations on E19 (no
    # track) and F16 (tile 63), whose track leads out through E15 and E17
    # and back into F16 only.  has_route took a walk that entered a city at
    # all for a route: NYC's turns then ended in route.missing (#297, #307,
    # #317 and 10 more), where 18xx.games asks for no run.  A train visits no
    # stop twice: each station is walked from alone
    from conftest import DATA, error_findings

    from railcheck.engine import Replay
    from railcheck.loader import load_game

    record, _ = load_game(str(DATA / "exports" / "1830_slips" / "1830_rand_51200004_2.json.gz"))
    seen = {}

    def before(g, action):
        if action.action_id == 297:
            b = g.board
            seen["route"] = b.has_route("NYC")
            seen["entered"] = {b.hex_list[st >> 8].coord for st in b.network("NYC")[0]
                               if (st & 15) >= 6}
    replay = Replay(record)
    replay.before_action = before
    res = replay.run()
    assert seen == {"route": False, "entered": {"F16"}}
    assert [f.rule for f in error_findings(res)] == ["trains.limit", "trains.limit"]
