"""Kansai on the components file's map (docs/1890.md, "The map"): the runs checked on the
shared board and valued at the summary's levels (O3, O3a, F1), Kobe Rapid Transit's station
put in Kobe (L2), OMS in Osaka (C6, C7).  The map is examples/kansai/components-board.yaml
(invented test data): Tanigami C7 - Kobe C9 - C11 - Nishinomiya C13 - C15 - Osaka Kita C17."""

from pathlib import Path

import pytest

from conftest import replay_file as run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "kansai"
MAP_GAME = EXAMPLES / "map-game.18xx"


def infos(result):
    return {f.message.split(" not checked (")[0]: f for f in result.findings
            if f.rule == "components.unknown"}


def variant(tmp_path, before, after):
    text = MAP_GAME.read_text(encoding="utf-8")
    assert before in text
    (tmp_path / "components-board.yaml").write_text(
        (EXAMPLES / "components-board.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    game = tmp_path / "game.18xx"
    game.write_text(text.replace(before, after, 1), encoding="utf-8")  # the first one
    return game


def line_of(path, text):
    return path.read_text(encoding="utf-8").splitlines().index(text) + 1


def test_the_map_game_is_legal_with_its_runs_checked():
    """JR's 4-train Tanigami-Kobe-Nishinomiya is Y60 at the low values (20 + 30 + 10), half
    kept rounded up to Y40 (J2): JR Y1,000 - 40 terrain - 300 + 40 = Y700; HER pays Y100 to
    run through Kobe past KRTR's station; Aki (KRTR, 40% HER, 10% JR) has Y446; OMS's
    5-train runs Osaka Kita - Osaka Nishi (HER's station ignored, C6) - Nishinomiya for Y100,
    paid out: OMS keeps its Y900 - 450."""
    r = run(MAP_GAME)
    assert r.errors == []
    skipped = infos(r)
    assert "routes and revenues on the map" not in skipped
    assert "tile lays on the map (hex, colour, upgrade, connection)" not in skipped
    assert "Kobe Rapid Transit's station on the map" not in skipped


@pytest.mark.parametrize("before, after, at, rule, message", [
    # F1 on the map: the run is worth Y60, not Y70
    ("JR run 4 C7-C9-C13 = 60", "JR run 4 C7-C9-C13 = 70", "JR run 4 C7-C9-C13 = 70",
     "route.revenue",
     "JR's runs are worth Y60"),
    # O3: no track between Kobe and Nishinomiya's east side without passing another stop
    ("JR run 4 C7-C9-C13 = 60", "JR run 4 C9-C17 = 60", "JR run 4 C9-C17 = 60", "route.no_path",
     "no track joins C9 and C17 without passing another stop"),
    # O3a: Nishinomiya's one slot is HER's
    ("JR run 4 C7-C9-C13 = 60", "JR run 4 C7-C9-C13-C17 = 90", "JR run 4 C7-C9-C13-C17 = 90",
     "route.blocked",
     "runs through C13, whose slots are all filled by HER"),
    # O3: a stop where nothing is
    ("JR run 4 C7-C9-C13 = 60", "JR run 4 C9-C11 = 30", "JR run 4 C9-C11 = 30", "route.stop",
     "C11 has no city, town or off-board area to stop at"),
    # L2: KRTR's station fills Kobe (JR, KRTR): HER may not pass without the fee
    ("HER ignore KRTR for 100\n", "", "HER run 3 C13-C9-C7 = 60", "kansai.krtr_not_paid",
     "HER runs through Kobe (C9) past Kobe Rapid Transit's station without paying Y100"),
    # L2: and no station of HER fits in Kobe after KRTR started (a run may end there: O3a)
    ("HER ignore KRTR for 100\nHER run 3 C13-C9-C7 = 60",
     "HER token C9\nHER run 3 C13-C9 = 40", "HER token C9", "token.full",
     "C9 city 0 is full (JR, KRTR)"),
    # C6: OMS runs through HER's station in Osaka Nishi (C15, one slot); worth Y100 at the
    # middle values (Osaka Kita 50 + Osaka Nishi 30 + Nishinomiya 20), not Y120
    ("OMS run 5 C17-C15-C13 = 100", "OMS run 5 C17-C15-C13 = 120",
     "OMS run 5 C17-C15-C13 = 120", "route.revenue", "OMS's runs are worth Y100"),
    # a stop that is no place of map.places: the off-board C19 at the map's Y40
    ("OMS run 5 C17-C15-C13 = 100", "OMS run 5 C19-C17-C15-C13 = 150",
     "OMS run 5 C19-C17-C15-C13 = 150", "route.revenue",
     "OMS's runs are worth Y140 (the middle values of their stops, F1; C19 at the map's Y40), "
     "not the Y150 claimed"),
    # ... but not through HER's Nishinomiya (C13): not in Osaka
    ("OMS run 5 C17-C15-C13 = 100", "OMS run 5 C17-C15-C13-C9 = 150",
     "OMS run 5 C17-C15-C13-C9 = 150", "route.blocked",
     "runs through C13, whose slots are all filled by HER"),
    # C6 for lays: OMS's track reaches through Osaka Nishi, not past HER's Nishinomiya
    ("OMS run 5 C17-C15-C13 = 100", "OMS lay 9 C5", "OMS lay 9 C5", "tile.connection",
     "is not connected to OMS's network"),
    # the checkpoints: the money of the runs
    ("check Aki cash 446", "check Aki cash 431", "check Aki cash 431", "checkpoint.mismatch",
     "Aki has Y446"),
])
def test_runs_and_kobe_on_the_map(tmp_path, before, after, at, rule, message):
    game = variant(tmp_path, before, after)
    r = run(game)
    first = r.errors[0]
    assert (first.rule, first.line) == (rule, line_of(game, at)), first
    assert message in first.message
    # nothing else but the money checkpoints the change moves
    assert {f.rule for f in r.errors[1:]} <= {"checkpoint.mismatch"}


def test_kobe_with_a_free_slot_blocks_nobody(tmp_path):
    """L2 with the map: where Kobe keeps a free slot after KRTR's station, KRTR's station
    blocks nothing, so HER runs through without the fee (no false accusation)."""
    game = variant(tmp_path, "HER ignore KRTR for 100\n", "")
    board = tmp_path / "components-board.yaml"
    text = board.read_text(encoding="utf-8")
    board.write_text(text.replace("cities: [{revenue: 0, slots: 2}], paths: [[1, c0], [4, c0]]",
                                  "cities: [{revenue: 0, slots: 3}], paths: [[1, c0], [4, c0]]"),
                     encoding="utf-8")
    text = game.read_text(encoding="utf-8")
    game.write_text(text.replace("check HER treasury 620", "check HER treasury 720"),
                    encoding="utf-8")
    r = run(game)
    assert r.errors == []


def test_a_station_in_kobe_before_krtr_goes_back_and_keeps_the_right(tmp_path):
    """L2: HER's station in Kobe (C9, Y40) placed before KRTR starts goes back to HER when
    KRTR is bought (Kobe then holds JR's and KRTR's), and HER, a main company that had a
    station there, runs through Kobe without the fee: HER Y900 - 40 - 180 = Y680.  (Sanyo's
    home is moved to Kyoto here: the board keeps Kobe's second slot for it otherwise.)"""
    game = variant(tmp_path, "HER buy train 3 for 180", "HER token C9\nHER buy train 3 for 180")
    board = tmp_path / "components-board.yaml"
    board.write_text(board.read_text(encoding="utf-8").replace("SAN:  {home: Kobe",
                                                               "SAN:  {home: Kyoto"),
                     encoding="utf-8")
    text = game.read_text(encoding="utf-8").replace("HER ignore KRTR for 100\n", "")
    game.write_text(text.replace("check HER treasury 620", "check HER treasury 680"),
                    encoding="utf-8")
    r = run(game)
    assert r.errors == []
    # Kobe is full again (JR, KRTR): HER's station does not come back there
    game.write_text(text.replace("check HER treasury 620", "check HER treasury 680").replace(
        "HER run 3 C13-C9-C7 = 60", "HER token C9\nHER run 3 C13-C9-C7 = 60"), encoding="utf-8")
    r = run(game)
    assert [(f.rule, f.text) for f in r.errors][:1] == [("token.full", "HER token C9")]
    assert "C9 city 0 is full (JR, KRTR)" in r.errors[0].message


def test_an_off_board_stop_is_worth_the_maps_value(tmp_path):
    """C19 is no place of map.places: its Y40 comes from the map; OMS's 5-train East - Osaka
    Kita - Osaka Nishi - Nishinomiya is worth 40 + 50 + 30 + 20 = Y140 in phase 4."""
    game = variant(tmp_path, "OMS run 5 C17-C15-C13 = 100", "OMS run 5 C19-C17-C15-C13 = 140")
    r = run(game)
    assert r.errors == []
