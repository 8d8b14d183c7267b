"""18Ireland's data (railcheck/titles/g18ireland/*.yaml) against the published
reference constants (shared/reference/18Ireland.json), and the seed-drawn
set-up (railcheck/titles/g18ireland/setup.py) against the corpus.  These
tests read the YAML with PyYAML (and the board through railcheck.board); the
replays are tests/g18ireland/test_corpus_18ireland.py."""

import gzip
import json
import sys

import pytest
import yaml

from conftest import REPO, SHARED, read_yaml, reference_constants

from railcheck.board.board import Board, load_board_yaml
from railcheck.board.tiles import BoardDataError, content_from_yaml, parse_18xx_code
from railcheck.mechanics.reach import Reach
from railcheck.titles import title_class
from railcheck.titles.g18ireland.setup import draw_setup, draws

FOLDER = REPO / "railcheck" / "titles" / "g18ireland"
CORPUS = SHARED / "corpus"

sys.path.insert(0, str(REPO / "tools"))
import convert_board  # noqa: E402

MAJORS = ["GSWR", "GNRI", "DSER", "MGWR", "MRNCC", "WLWR", "CBSCR"]


@pytest.fixture(scope="module")
def ref():
    return reference_constants("18Ireland")


@pytest.fixture(scope="module")
def rules():
    return read_yaml(FOLDER / "rules.yaml")


@pytest.fixture(scope="module")
def board():
    return read_yaml(FOLDER / "board.yaml")


def corpus_games():
    games = sorted((CORPUS / "18xx.games" / "18Ireland").glob("*.json")) + \
        sorted((CORPUS / "random" / "18Ireland").glob("*.json"))
    if not games:
        pytest.skip("the 18Ireland corpus is not beside the checkout")
    return games


def test_registered_and_loaded_by_the_schema():
    from railcheck.ruleset import load_ruleset
    from railcheck.titles.g18ireland import Title18Ireland

    assert title_class("18Ireland") is Title18Ireland
    r = load_ruleset("18Ireland")
    assert r.bank == 4000 and load_ruleset("18Ireland", ["larger_bank"]).bank == 5000
    assert r.stock["minor_auction"] == {"min_bid": 100, "multiple": 5, "par": "half_bid"}
    assert r.operating["second_lay_cost"] == 20
    assert r.raw["merger"]["from_phase"] == "4"


# ---------------------------------------------------------------------------
# the board

def test_board_is_the_converted_reference(ref, board):
    assert convert_board.convert(ref) == board


def test_1830_and_1860_boards_still_convert_the_same():
    for title, folder in (("1830", "g1830"), ("1860", "g1860")):
        path = SHARED / "reference" / f"{title}.json"
        if not path.exists():
            pytest.skip(f"shared/reference/{title}.json is not beside the checkout")
        got = convert_board.convert(json.loads(path.read_text(encoding="utf-8"))["constants"])
        committed = yaml.safe_load((REPO / "railcheck" / "titles" / folder / "board.yaml").read_text())
        assert got == committed, title


def test_board_hexes(ref, board):
    coords = [c for group in ref["HEXES"].values() for key in group for c in json.loads(key)]
    assert len(coords) == 88
    assert sorted(board["hexes"]) == sorted(coords)
    assert board["layout"] == "flat"
    colours = [h["color"] for h in board["hexes"].values()]
    assert (colours.count("white"), colours.count("yellow"), colours.count("blue")) == (80, 2, 6)
    assert board["hexes"]["I11"] == {"name": "Dublin", "color": "yellow", "label": "DUB",
                                     "cities": [{"revenue": 30, "slots": 1}, {"revenue": 30, "slots": 1}],
                                     "paths": [[0, "c0"], [3, "c1"]]}
    assert board["hexes"]["G-1"] == {"color": "blue"}
    assert board["hexes"]["E15"] == {"color": "white", "cost": 80, "terrain": "mountain"}
    assert board["hexes"]["F10"]["cost"] == 40 and board["hexes"]["F10"]["terrain"] == "water"
    labels = {h.get("label") for h in board["hexes"].values()} - {None}
    assert labels == {"DUB", "BC", "EM", "DD"}


def test_tile_counts(ref, board):
    assert len(board["tiles"]) == len(ref["TILES"]) == 105
    for name, info in ref["TILES"].items():
        assert board["tiles"][name]["count"] == info["count"], name
        assert board["tiles"][name]["color"] == info["color"], name
    assert sum(t["count"] for t in board["tiles"].values()) == 223
    by_colour = {}
    for t in board["tiles"].values():
        by_colour[t["color"]] = by_colour.get(t["color"], 0) + t["count"]
    assert by_colour == {"yellow": 130, "green": 58, "brown": 25, "gray": 9, "red": 1}
    assert board["tiles"]["IR5"]["count"] == 14


def test_narrow_gauge_paths(ref, board):
    narrow = sorted(n for n, t in board["tiles"].items()
                    if any(len(p) == 3 for p in t.get("paths", [])))
    # every tile whose code has track:narrow, and no other
    assert narrow == sorted(n for n, t in ref["TILES"].items() if "track:narrow" in t["code"])
    assert len(narrow) == 73
    assert board["tiles"]["644"]["paths"] == [[0, "c0", "narrow"], [1, "c0"]]
    assert board["tiles"]["IR5"]["paths"] == [[0, "t0", "narrow"]]
    # all-narrow tiles (their lay pays no terrain cost in 18Ireland)
    all_narrow = sorted(n for n in narrow
                        if all(len(p) == 3 for p in board["tiles"][n]["paths"]))
    assert all_narrow == ["77", "78", "79", "IR23", "IR24", "IR25", "IR5", "IR56", "IR57", "IR58"]


def test_junction_tile_joins_every_edge(board):
    paths = board["tiles"]["60"]["paths"]
    assert len(paths) == 15
    assert {frozenset(p) for p in paths} == {frozenset((a, b)) for a in range(6) for b in range(a + 1, 6)}
    assert parse_18xx_code("junction;path=a:0,b:_0;path=a:3,b:_0") == {"paths": [[0, 3]]}


def test_gauge_is_read_into_the_content():
    c = content_from_yaml("644", {"color": "yellow", "cities": [{"revenue": 20}],
                                  "paths": [[0, "c0", "narrow"], [1, "c0"]]})
    assert c.tracks == ("narrow", "broad")
    assert content_from_yaml("8", {"color": "yellow", "paths": [[0, 2]]}).tracks == ()
    with pytest.raises(BoardDataError, match="gauge"):
        content_from_yaml("x", {"color": "yellow", "paths": [[0, 2, "metre"]]})


def test_board_loads_with_flat_neighbours(rules):
    b = Board(load_board_yaml(str(FOLDER / "board.yaml")), rules["corporations"], [])
    # Dublin I11 (no J10 on the map: the sea) and the blue hex above Londonderry
    assert b.neighbours("I11") == {0: "I13", 1: "H12", 2: "H10", 3: "I9", 5: "J12"}
    assert b.neighbours("G1")[3] == "G-1"
    assert b.remaining["IR5"] == 14


def test_every_corpus_lay_uses_a_tile_of_the_box(board):
    """Every tile laid in the 28 corpus games (undone ones left out) is in the
    manifest, on a hex of the map, and never more copies are on the map than
    the box holds (a replaced tile goes back to the supply)."""
    laid = 0
    most = {}
    for path in corpus_games():
        export = json.loads(path.read_text(encoding="utf-8"))
        counted = trace_ids(path)
        on_map = {}
        for action in export["actions"]:
            if action["type"] != "lay_tile" or action["id"] not in counted:
                continue
            tile = action["tile"].rsplit("-", 1)[0]
            assert tile in board["tiles"], (path.stem, action["id"], tile)
            assert action["hex"] in board["hexes"], (path.stem, action["id"])
            on_map[action["hex"]] = tile
            n = sum(1 for t in on_map.values() if t == tile)
            assert n <= board["tiles"][tile]["count"], (path.stem, action["id"], tile)
            most[tile] = max(most.get(tile, 0), n)
            laid += 1
    assert laid == 2699
    # Dublin's brown and grey tiles (one each in the box) were both used
    assert most["IR45"] == most["IR68"] == 1


def trace_ids(path):
    if "random" in path.parts:
        with gzip.open(CORPUS / "random" / "traces" / f"{path.stem}.trace.json.gz", "rt",
                       encoding="utf-8") as fh:
            trace = json.load(fh)
    else:
        trace = json.loads((CORPUS / "traces" / f"18Ireland_{path.stem}.trace.json").read_text())
    return {s["id"] for s in trace["states"]}


# ---------------------------------------------------------------------------
# the rules

def test_numbers(ref, rules):
    assert rules["bank"] == ref["BANK_CASH"] == 4000
    assert rules["options"]["larger_bank"]["set"] == {"bank": ref["LARGER_BANK_CASH"]} == {"bank": 5000}
    assert rules["starting_cash"] == {int(k): v for k, v in ref["STARTING_CASH"].items()}
    assert rules["cert_limit"] == {int(k): v for k, v in ref["CERT_LIMIT"].items()}
    assert rules["cert_limit"] == {3: 16, 4: 12, 5: 10, 6: 8}
    assert [rules["players"]["min"], rules["players"]["max"]] == ref["PLAYER_RANGE"]
    assert rules["stock"]["pool_limit"] == ref["MARKET_SHARE_LIMIT"] == 50
    assert rules["stock"]["minor_pool_limit"] == ref["MINOR_MARKET_SHARE_LIMIT"] == 40
    assert rules["merger"]["tokens_after"] == ref["LIMIT_TOKENS_AFTER_MERGER"] == 3
    assert rules["auction"]["min_increment"] == ref["MIN_BID_INCREMENT"] == 5
    assert rules["operating"]["track_restriction"] == ref["TRACK_RESTRICTION"]
    assert rules["operating"]["second_lay_cost"] == ref["TILE_LAYS"][1]["cost"] == 20
    assert rules["operating"]["second_lay"] == "yellow_if_first_not_upgrade"
    assert ref["DARGAN_TILE_LAYS"][1]["upgrade_cost"] == 30
    assert rules["companies"][8]["special"]["second_upgrade"]["cost"] == 30
    assert rules["end"] == {"bankrupt": "immediate", "stock_market": "current_round", "bank": "full_or"}
    assert rules["end"] == ref["GAME_END_CHECK"]


def test_trains(ref, rules):
    trains = {t["name"]: t for t in rules["trains"]}
    assert list(trains) == [t["name"] for t in ref["TRAINS"]]
    for t in ref["TRAINS"]:
        mine = trains[t["name"]]
        assert mine["price"] == t["price"], t["name"]
        assert mine["count"] == t["num"], t["name"]
        assert mine.get("rusts_on") == t.get("rusts_on"), t["name"]
        assert mine.get("events", []) == [e["type"] for e in t.get("events", [])], t["name"]
        assert mine.get("trade_in", {}) == t.get("discount", {}), t["name"]
        assert mine.get("primed", False) == t.get("reserved", False), t["name"]
        reach = Reach.from_distance(mine["distance"], mine["gauge"])
        assert reach.gauge == "broad"
        if t["distance"] == 99:
            assert reach.kind == "unlimited"
        else:
            assert (reach.kind, reach.hexes) == ("hexes", t["distance"])
    assert [(n, t["price"], t["count"]) for n, t in trains.items()][:3] == \
        [("2H", 80, 7), ("1H'", 40, 7), ("4H", 180, 5)]
    # each rusting train becomes a primed one of half its distance
    for old, new in rules["primed_trains"].items():
        assert trains[new]["distance"]["hexes"] * 2 == trains[old]["distance"]["hexes"]


def test_phases(ref, rules):
    assert len(rules["phases"]) == len(ref["PHASES"]) == 6
    for mine, theirs in zip(rules["phases"], ref["PHASES"]):
        assert mine["name"] == theirs["name"]
        assert mine.get("on") == theirs.get("on")
        assert mine["tiles"] == theirs["tiles"]
        assert mine["train_limit"] == theirs["train_limit"]
        assert mine["operating_rounds"] == theirs["operating_rounds"] == 2
        assert mine.get("company_buy", False) == ("can_buy_companies" in theirs.get("status", []))
    assert rules["phases"][1]["train_limit"] == {"minor": 2, "major": 4}


def test_market(ref, rules):
    assert rules["market"]["rows"] == ref["MARKET"]
    cells = [c for row in rules["market"]["rows"] for c in row if c]
    assert len(cells) == 68
    pars = sorted(int(c[:-1]) for c in cells if c.endswith("p"))
    assert pars == [50, 60, 70, 85, 100]
    assert "260e" in rules["market"]["rows"][0] and "0c" in rules["market"]["rows"][-1]


def test_corporations(ref, rules):
    mine = {c["sym"]: c for c in rules["corporations"]}
    assert list(mine) == [c["sym"] for c in ref["CORPORATIONS"]]
    for c in ref["CORPORATIONS"]:
        m = mine[c["sym"]]
        assert m["kind"] == c["type"]
        assert m["tokens"] == c["tokens"]
        assert m.get("shares", rules["corporation_defaults"]["shares"]) == c["shares"]
        assert m["float_percent"] == c["float_percent"]
        assert m.get("home") == c.get("coordinates")
        assert m.get("max_ownership_percent", 60) == c.get("max_ownership_percent", 60)
        if c.get("city") is not None:
            assert m["home_city"] == c["city"]
    assert [s for s, c in mine.items() if c["kind"] == "major"] == MAJORS
    assert sum(1 for c in mine.values() if c["kind"] == "minor") == 14


def test_companies(ref, rules):
    mine = {c["sym"]: c for c in rules["companies"]}
    assert list(mine) == [c["sym"] for c in ref["COMPANIES"]]
    for c in ref["COMPANIES"]:
        assert (mine[c["sym"]]["value"], mine[c["sym"]]["revenue"]) == (c["value"], c["revenue"])
        blocks = [h for a in c.get("abilities", []) if a["type"] == "blocks_hexes" for h in a["hexes"]]
        assert mine[c["sym"]].get("blocks", []) == blocks, c["sym"]
    assert rules["setup"]["protected_companies"] == ref["PROTECTED_COMPANIES"]
    assert rules["setup"]["protected_minor"] == ref["PROTECTED_CORPORATION"]
    assert rules["setup"]["keep_companies"] == ref["KEEP_COMPANIES"]
    assert mine["RSSC"]["special"]["shannon_link"]["hexes"] == ref["SHANNON_HEXES"]
    assert rules["setup"]["rand"] == {"a": ref["RAND_A"], "c": ref["RAND_C"], "m": ref["RAND_M"]}


# ---------------------------------------------------------------------------
# the seed draw

def symbols(rules):
    companies = [c["sym"] for c in rules["companies"]]
    minors = [c["sym"] for c in rules["corporations"] if c["kind"] == "minor"]
    return companies, minors


def test_generator(rules):
    rand = rules["setup"]["rand"]
    rng = draws(1, rand)
    assert next(rng) == 1103527590            # (1103515245 * 1 + 12345) mod 2^31
    assert next(rng) == (1103515245 * 1103527590 + 12345) % 2147483648
    assert next(draws(2147483648 + 1, rand)) == 1103527590   # the seed is taken mod 2^31


def test_draw_for_a_real_game(rules):
    companies, minors = symbols(rules)
    got = draw_setup(1411315859, companies, minors, rules["setup"])      # 161830.json
    assert got.companies == ("DAR", "DR", "TASPS", "RSSC", "DK")
    assert len(got.removed_companies) == 6
    assert got.removed_minor == "KJR"
    assert got.minor_stack == ("DKR", "DER", "DDR", "GNWR", "GJR", "UR", "SLNCR", "EBSR", "WLR",
                               "CBPR", "CIR", "WKR", "LER")
    with pytest.raises(ValueError, match="whole number"):
        draw_setup("1411315859", companies, minors, rules["setup"])


def test_draw_matches_every_corpus_game(rules):
    """The five privates drawn are exactly the privates the game's actions
    name; the minor drawn out never appears; minors are auctioned in the
    order of the drawn stack (some are skipped: closed by a stock round in
    which no minor was started)."""
    companies, minors = symbols(rules)
    games = corpus_games()
    assert len(games) == 28
    removed_minors = []
    for path in games:
        export = json.loads(path.read_text(encoding="utf-8"))
        got = draw_setup(export["settings"]["seed"], companies, minors, rules["setup"])
        named = set()

        def walk(a):
            for key in ("company", "corporation", "entity"):
                if isinstance(a.get(key), str):
                    named.add(a[key])
            for inner in a.get("auto_actions") or []:
                walk(inner)

        for action in export["actions"]:
            walk(action)
        assert sorted(named & set(companies)) == sorted(got.companies), path.stem
        assert got.removed_minor not in named, path.stem
        removed_minors.append(got.removed_minor)
        auctioned = []
        for action in export["actions"]:
            if action["type"] == "bid" and action.get("corporation") not in (None, *auctioned):
                auctioned.append(action["corporation"])
        places = [got.minor_stack.index(m) for m in auctioned]
        assert len(places) >= 6 and places == sorted(places), path.stem
    assert removed_minors[:4] == ["KJR", "CBPR", "CIR", "GNWR"]
    assert "DKR" not in removed_minors


def test_survey_of_the_18ireland_exports():
    """The figures of docs/research/18Ireland-exports.md come from this survey."""
    import survey_exports

    corpus_games()
    got = survey_exports.survey(SHARED, "18Ireland")
    assert len(got["games"]) == 28
    assert sorted({g["end"] for g in got["games"]}) == ["bank", "bankrupt", "stock_market"]
    types = got["types"]
    assert (types["run_routes"]["real"], types["run_routes"]["random"]) == (313, 2926)
    assert types["choose"]["rounds"] == {"Merger": 191}
    events = got["events"]
    assert events["merger proposed"]["count"] == 95
    assert events["merger carried out (minors become a major)"]["count"] == 60
    assert events["merger vote cast (for)"]["count"] == 132
    assert events["merger vote cast (against)"]["count"] == 59
    assert events["bankruptcy (president cannot pay for a train)"]["count"] == 30
    assert events["emergency sale by a president (operating round)"]["count"] == 184


def test_every_corpus_run_is_within_its_trains_hex_reach(rules):
    """A train's reach is the hex edges its route crosses (a connection
    ["F10", "E11", "D12"] crosses 2): every run of the 28 games fits the
    train's `distance: {hexes: N}` as railcheck's Reach reads it, and a
    run one edge longer would not."""
    reach = {t["name"]: Reach.from_distance(t["distance"], t["gauge"]) for t in rules["trains"]}
    runs = at_limit = 0
    for path in corpus_games():
        export = json.loads(path.read_text(encoding="utf-8"))
        for action in export["actions"]:
            if action["type"] != "run_routes":
                continue
            for route in action["routes"]:
                r = reach[route["train"].rsplit("-", 1)[0]]
                edges = sum(len(chain) - 1 for chain in route["connections"])
                assert r.problem([], hexes_entered=edges) is None, (path.stem, action.get("id"))
                if r.kind == "hexes" and edges == r.hexes:
                    at_limit += 1
                    assert r.problem([], hexes_entered=edges + 1) is not None
                runs += 1
    assert (runs, at_limit) == (4215, 2339)
