"""1860's data (railcheck/titles/g1860/*.yaml) against the published
reference constants (shared/reference/1860.json): the YAML read with PyYAML
(and the board through railcheck.board, which knows halts), and the ruleset
through the schema."""

import json
import sys

import pytest
import yaml

from conftest import REPO, SHARED, read_yaml, reference_constants

from railcheck.board.board import Board, load_board_yaml
from railcheck.board.tiles import parse_18xx_code
from railcheck.titles import title_class

FOLDER = REPO / "railcheck" / "titles" / "g1860"

sys.path.insert(0, str(REPO / "tools"))
import convert_board  # noqa: E402


@pytest.fixture(scope="module")
def ref():
    return reference_constants("1860")


@pytest.fixture(scope="module")
def rules():
    return read_yaml(FOLDER / "rules.yaml")


@pytest.fixture(scope="module")
def board():
    return read_yaml(FOLDER / "board.yaml")


def test_registered():
    from railcheck.titles.g1860 import Title1860
    assert title_class("1860") is Title1860
    assert title_class("1860: Railways on the Isle of Wight") is Title1860


def test_board_is_the_converted_reference(ref, board):
    assert convert_board.convert(ref) == board


def test_board_hexes(ref, board):
    coords = [c for group in ref["HEXES"].values() for key in group for c in json.loads(key)]
    assert len(coords) == 45
    assert sorted(board["hexes"]) == sorted(coords)
    assert board["layout"] == "flat"
    assert board["hexes"]["G5"] == {"name": "Newport", "color": "yellow", "label": "N",
                                    "cities": [{"revenue": 30, "slots": 1}],
                                    "paths": [[2, "c0"], [3, "c0"]]}
    assert board["hexes"]["J2"]["offboard"]["revenue"] == {"yellow": 0, "green": 20, "brown": 40}
    assert board["hexes"]["F2"]["towns"] == [{"revenue": 0}, {"revenue": 0}]
    labels = {h.get("label") for h in board["hexes"].values()} - {None}
    assert labels == {"R", "C", "N", "V", "B", "M"}


def test_tile_counts(ref, board):
    assert len(board["tiles"]) == len(ref["TILES"]) == 68
    for name, info in ref["TILES"].items():
        assert board["tiles"][name]["count"] == info["count"], name
        assert board["tiles"][name]["color"] == info["color"], name
    assert sum(t["count"] for t in board["tiles"].values()) == 139
    assert board["tiles"]["742"]["count"] == 10


def test_halts(board):
    halt_tiles = sorted((n for n, t in board["tiles"].items() if t.get("halts")), key=int)
    assert halt_tiles == ["741", "742", "743", "744", "745", "750", "751", "752", "753", "754",
                          "755", "761", "782", "783", "784", "785", "787", "788", "789"]
    assert board["tiles"]["744"]["halts"] == [{"symbol": "£"}, {"symbol": "£"}]
    # 18xx.games numbers the halt of 754 first (it comes first in the code)
    assert board["tiles"]["754"]["node_order"] == ["h0", "t0"]
    assert "node_order" not in board["tiles"]["787"]
    assert parse_18xx_code("halt=symbol:X;town=revenue:10;path=a:0,b:_0;path=a:_0,b:_1") == {
        "towns": [{"revenue": 10}], "halts": [{"symbol": "X"}], "node_order": ["h0", "t0"],
        "paths": [[0, "h0"], ["h0", "t0"]]}
    assert "node_order" not in parse_18xx_code("town=revenue:10;halt=symbol:X;path=a:0,b:_1")


def test_board_loads_with_flat_neighbours(rules):
    data = load_board_yaml(str(FOLDER / "board.yaml"))
    b = Board(data, rules["corporations"], [])
    assert b.neighbours("G5") == {0: "G7", 1: "F6", 2: "F4", 3: "G3", 4: "H4", 5: "H6"}
    assert [n.kind for n in b.tiles["787"].nodes] == ["city", "town", "halt"]
    assert b.remaining["742"] == 10


def test_fixed_rotation_and_small_map(board):
    assert board["fixed_rotation_tiles"] == ["758", "761", "763", "773", "775"]
    assert board["small_map"]["remove_hexes"] == ["A5", "A7", "B4", "E11"]
    assert board["small_map"]["add_hexes"]["B4"] == {"name": "Yarmouth", "color": "white",
                                                     "cities": [{"revenue": 0, "slots": 1}]}
    assert board["small_map"]["remove_tile_copies"] == ["776-2", "770-1"]


def test_1830_board_still_converts_the_same():
    ref1830 = SHARED / "reference" / "1830.json"
    if not ref1830.exists():
        pytest.skip("shared/reference/1830.json is not beside the checkout")
    got = convert_board.convert(json.loads(ref1830.read_text(encoding="utf-8"))["constants"])
    committed = yaml.safe_load((REPO / "railcheck" / "titles" / "g1830" / "board.yaml").read_text())
    assert got == committed


def test_trains(ref, rules):
    trains = {t["name"]: t for t in rules["trains"]}
    assert list(trains) == [t["name"] for t in ref["TRAINS"]]
    for t in ref["TRAINS"]:
        mine = trains[t["name"]]
        assert mine["price"] == t["price"]
        assert mine["count"] == t["num"]
        assert mine["distance"] == {"cities": t["distance"][0]["pay"], "towns": t["distance"][1]["pay"]}
        assert mine.get("rusts_on") == t.get("rusts_on")
        assert mine.get("events", []) == [e["type"] for e in t.get("events", [])]
    assert trains["9+5"]["count"] == "unlimited"
    assert trains["2+1"]["price"] == 250 and trains["2+1"]["count"] == 5


def test_phases(ref, rules):
    assert len(rules["phases"]) == len(ref["PHASES"]) == 8
    for mine, theirs in zip(rules["phases"], ref["PHASES"]):
        assert mine["name"] == theirs["name"]
        # plain PyYAML reads the key `on` as True (railcheck's loader keeps "on")
        assert mine.get("on", mine.get(True)) == theirs.get("on")
        assert mine["tiles"] == theirs["tiles"]
        assert mine["train_limit"] == theirs["train_limit"]
        assert mine["operating_rounds"] == theirs["operating_rounds"]


def test_market(ref, rules):
    row = rules["market"]["rows"][0]
    assert len(rules["market"]["rows"]) == 1
    assert row == ref["MARKET"][0]
    assert len(row) == 55
    assert row[0] == "0c" and row[-1] == "340e"
    pars = [int(c[:-1]) for c in row if c.endswith("p")]
    assert pars == [54, 58, 62, 68, 74, 82, 90, 100]
    assert set(rules["market"]["zones"]) == {c[-1] for c in row if not c[-1].isdigit()}


def test_numbers(ref, rules):
    assert rules["starting_cash"] == {int(k): v for k, v in ref["STARTING_CASH"].items()}
    assert rules["cert_limit"] == {int(k): v for k, v in ref["CERT_LIMIT"].items()}
    assert rules["bank"] == ref["BANK_CASH"] == 10000
    assert rules["par_range"] == {int(k): v for k, v in ref["PAR_RANGE"].items()}
    assert rules["repar_range"] == {int(k): v for k, v in ref["REPAR_RANGE"].items()}
    assert rules["bankruptcy"]["min_repar"] == ref["MIN_PAR_AFTER_BANKRUPTCY"]
    assert rules["company_sale_to_bank"]["fee"] == ref["COMPANY_SALE_FEE"]
    assert rules["operating"]["halt_subsidy"] == ref["HALT_SUBSIDY"]
    assert rules["stock"]["float_percent"] == 50
    assert rules["players"] == {"min": ref["PLAYER_RANGE"][0], "max": ref["PLAYER_RANGE"][1]}


def test_corporations(ref, rules):
    mine = {c["sym"]: c for c in rules["corporations"]}
    assert list(mine) == [c["sym"] for c in ref["CORPORATIONS"]]
    for c in ref["CORPORATIONS"]:
        assert mine[c["sym"]]["home"] == c["coordinates"]
        assert mine[c["sym"]]["tokens"] == c["tokens"]
        assert mine[c["sym"]]["section"] == ref["LAYER_BY_NAME"][c["sym"]]
        assert c["float_percent"] == rules["stock"]["float_percent"]
    sections = {c["sym"]: c["section"] for c in rules["corporations"]}
    assert {s: sorted(v) for s, v in rules["sections"].items()} == \
        {s: sorted(k for k, v in sections.items() if v == s) for s in (1, 2, 3, 4)}
    reserved = sorted(s for s, c in mine.items() if c.get("reserved_share"))
    assert reserved == sorted(["BHI&R", "FYN", "C&N", "IOW"])
    assert sum(rules["corporation_defaults"]["shares"]) == 100


def test_companies(ref, rules):
    mine = {c["sym"]: c for c in rules["companies"]}
    assert list(mine) == [c["sym"] for c in ref["COMPANIES"]]
    for c in ref["COMPANIES"]:
        assert (mine[c["sym"]]["value"], mine[c["sym"]]["revenue"]) == (c["value"], c["revenue"])
        for ability in c.get("abilities") or []:
            assert ability["type"] == "exchange"
            assert mine[c["sym"]]["special"]["exchange"]["corporation"] == ability["corporations"][0]
    assert mine["FFC"]["value"] == 200 and mine["FFC"]["revenue"] == 25
    # every exchangeable private points at a corporation with a reserved share
    corps = {c["sym"]: c for c in rules["corporations"]}
    for c in rules["companies"]:
        ex = (c.get("special") or {}).get("exchange")
        if ex:
            assert corps[ex["corporation"]].get("reserved_share") is True


def test_an_1860_export_validates_clean_from_the_command_line():
    from click.testing import CliRunner

    from railcheck.cli import main

    export = REPO / "tests" / "data" / "exports" / "1860" / "1860_game_end_stock_market.json"
    result = CliRunner().invoke(main, ["validate", str(export)])
    assert result.exit_code == 0, result.output
    assert "0 errors" in result.output or "legal" in result.output


# ---------------------------------------------------------------------------
# the board with 1860's tiles: halts are towns for upgrades, labelled hexes
# may change their number of cities

from railcheck.findings import RuleViolation  # noqa: E402


def fresh_board(rules_data):
    return Board(load_board_yaml(str(FOLDER / "board.yaml")), rules_data["corporations"], [])


def test_printed_town_takes_a_halt_tile(rules):
    b = fresh_board(rules)
    assert b.lay_tile("C&N", "742", "F4", 3, colors=["yellow"], check_connection=False) == (0, 3)
    # Cowes: a city and two printed towns become a city, a town and a halt
    assert b.lay_tile("C&N", "787", "F2", 0, colors=["yellow"], check_connection=False) == (0, 0)


def test_two_halts_upgrade_to_halt_and_town(rules):
    b = fresh_board(rules)
    b.lay_tile("BHI&R", "744", "I7", 4, colors=["yellow"], check_connection=False)
    # the halt-to-halt link of 744 becomes 754's halt-to-town link
    b.lay_tile("BHI&R", "754", "I7", 4, colors=["yellow", "green"], check_connection=False)
    b.lay_tile("BHI&R", "785", "I7", 4, colors=["yellow", "green", "brown"], check_connection=False)
    assert b.tile_on("I7") == ("785", 4)
    with pytest.raises(RuleViolation) as e:
        fresh_board(rules).lay_tile("BHI&R", "747", "I7", 0, colors=["green"], check_connection=False)
    assert e.value.rule == "tile.upgrade"


def test_newport_label_n_gains_a_city(rules):
    b = fresh_board(rules)
    # Newport (N, one city) takes 763 (N, two cities)
    b.lay_tile("C&N", "763", "G5", 0, colors=["yellow", "green"], check_connection=False)
    assert b.tile_on("G5") == ("763", 0)
    assert b.tokens_on("G5") == [[], []]
    # the label still has to match: Ventnor's V tile does not go on Ryde
    b.lay_tile("IOW", "115", "J4", 0, colors=["yellow"], check_connection=False)
    with pytest.raises(RuleViolation) as e:
        b.lay_tile("IOW", "760", "J4", 0, colors=["green"], check_connection=False)
    assert e.value.rule == "tile.upgrade" and "label V" in str(e.value)


def test_every_corpus_lay_and_station_fits_the_board(rules, board):
    """Every tile laid and every station placed in the 27 corpus games (undone
    ones left out) fits the generated board: the tile is in the manifest,
    within its count, an upgrade of what lies there and keeps its track; the
    station's city exists and has a free slot; home stations go down when the
    trace shows the corporation floated (not after the Southern Railway's
    stock round).  Connection, reach and phase are not checked here; the
    small map is applied for the games that use it."""
    import gzip

    corpus = SHARED / "corpus"
    games = sorted((corpus / "18xx.games" / "1860").glob("*.json")) + \
        sorted((corpus / "random" / "1860").glob("*.json"))
    if not games:
        pytest.skip("the 1860 corpus is not beside the checkout")
    laid = placed = homes = 0
    for path in games:
        export = json.loads(path.read_text(encoding="utf-8"))
        if "random" in path.parts:
            trace_path = corpus / "random" / "traces" / f"{path.stem}.trace.json.gz"
            trace = json.loads(gzip.open(trace_path, "rt", encoding="utf-8").read())
        else:
            trace = json.loads((corpus / "traces" / f"1860_{path.stem}.trace.json").read_text())
        states = {s["id"]: s for s in trace["states"]}
        data = dict(board)
        if "two_player_map" in (export["settings"].get("optional_rules") or []):
            small = board["small_map"]
            data["hexes"] = {k: v for k, v in board["hexes"].items() if k not in small["remove_hexes"]}
            data["hexes"].update(small["add_hexes"])
        corps = [c for c in rules["corporations"] if c["home"] in data["hexes"]]
        b = Board(data, corps, [])
        floated, homed = set(), set()
        southern = after_southern = False
        for action in export["actions"]:
            state = states.get(action.get("id"))
            if state is None:
                continue
            if action["type"] == "lay_tile":
                tile = action["tile"].rsplit("-", 1)[0]
                b.lay_tile(action["entity"], tile, action["hex"], action["rotation"],
                           colors=["yellow", "green", "brown"], check_connection=False,
                           tile_copy=action["tile"])
                laid += 1
            elif action["type"] == "place_token":
                hex_, city = b.resolve_node_id(action["city"])
                b.place_token(action["entity"], hex_, city, check_reach=False)
                placed += 1
            elif action["type"] == "buy_train" and action["train"].startswith("9+5"):
                southern = True
            after_southern = after_southern or (southern and state["round"].startswith("Stock"))
            for sym, corp in state["corporations"].items():
                if not corp["floated"]:
                    floated.discard(sym)
                elif sym not in floated:
                    floated.add(sym)
                    if not after_southern and sym not in homed:
                        b.place_home_token(sym)
                        homed.add(sym)
                        homes += 1
    assert (laid, placed, homes) == (2262, 250, 184)


def test_survey_of_the_1860_exports():
    """The figures of docs/research/1860-exports.md come from this survey."""
    import survey_exports

    if not (SHARED / "corpus" / "random" / "1860").exists():
        pytest.skip("the 1860 corpus is not beside the checkout")
    got = survey_exports.survey(SHARED, "1860")
    assert len(got["games"]) == 27
    assert sorted({g["end"] for g in got["games"]}) == ["bank", "nationalization", "stock_market"]
    types = got["types"]
    assert (types["run_routes"]["real"], types["run_routes"]["random"]) == (250, 3090)
    assert types["buy_shares"]["entity_types"]["company"] == 102     # exchanges of privates
    assert types["lay_tile"]["rounds"]["Stock"] == 106                # home track
    assert types["sell_shares"]["fields"]["share_price"] == 149       # half-price sales
    events = got["events"]
    assert events["train bought from another corporation"]["count"] == 295
    assert events["run with a leased train (insolvent corporation)"]["count"] == 173
    assert events["corporation goes bankrupt (price 0, un-floated)"]["count"] == 18
    assert events["bankrupt corporation started again (par)"]["example"] == "1860_rand_18603_3 #789"
    assert events["nationalisation (British Rail): ORs beyond 3 in a set"]["count"] == 22


# ---------------------------------------------------------------------------
# the ruleset through the schema

@pytest.fixture
def registered_1860(monkeypatch):
    from railcheck import ruleset as ruleset_mod
    from railcheck.titles import TITLES
    from railcheck.titles.g1860 import Title1860
    monkeypatch.setitem(TITLES, "1860", Title1860)
    ruleset_mod._load_cached.cache_clear()
    yield ruleset_mod
    ruleset_mod._load_cached.cache_clear()


def test_ruleset_loads_through_the_schema(registered_1860):
    r = registered_1860.load_ruleset("1860")
    assert r.full_name == "1860: Railways on the Isle of Wight"
    assert [c.sym for c in r.corporations][:2] == ["C&N", "IOW"]
    fyn = next(c for c in r.raw["corporations"] if c["sym"] == "FYN")
    assert (fyn["section"], fyn["reserved_share"]) == (2, True)
    assert r.stock["trainless_share_value"] == "half"
    assert r.stock["no_sale_drop"] == {"not_operated": True, "after_event": "relax_cert_limit"}
    assert r.stock["float_counts_market"] is False
    assert r.raw["par_range"]["3"] == [58, 68]      # keys are strings, as YAML paths are
    assert r.raw["bank_counts"] == "players_cash"
    assert r.operating["routes"]["bypass_one_blocked_city"] is True
    assert r.operating["train_trade"] == {"min_price": 10, "multiple": 10,
                                          "seller_keeps_one_if_buyer_has_trains": True}
    assert r.raw["insolvency"] == {"lease_base": 40, "lease_per_stop": 20, "withhold": True}
    assert r.raw["nationalisation"]["southern_train"] == "9+5"
    assert r.train_by_name["9+5"].count is None
    assert r.train_by_name["2+1"].reach is not None
    assert r.company_by_sym["FFC"].special == {"available_on_event": "fishbourne_to_bank",
                                              "closes_other_companies": True}
    # every option loads too
    for name in r.option_specs:
        assert registered_1860.load_ruleset("1860", [name]).options == [name]


def test_a_wrong_1860_value_is_refused_with_its_place(registered_1860, tmp_path):
    from railcheck.findings import InputError
    f = tmp_path / "house.yaml"
    f.write_text('extends: "1860"\nstock:\n  ignore_one_sale_per: player\n')
    with pytest.raises(InputError) as exc:
        registered_1860.load_ruleset(str(f))
    assert "ignore_one_sale_per" in str(exc.value) and "player_round" in str(exc.value)
