"""18Ireland's runs checked on the map (railcheck/titles/g18ireland/runs.py):
broad gauge only, the hex edges a train may cross, the track joining the
stops, and the narrow-gauge bonus as the site reads it."""

import json

import pytest

from railcheck.engine import Replay
from railcheck.importer import import_export
from railcheck.titles.g18ireland.runs import narrow_bonus

from conftest import DATA, replay_file

from test_examples_18ireland import EXAMPLES

GAMES = DATA / "exports" / "18Ireland"


def replay(name, before=None):
    path = GAMES / f"{name}.json"
    record, _ = import_export(path.read_text(encoding="utf-8"), str(path))
    if before is not None:
        record.actions = [a for a in record.actions if a.action_id < before]
        record.expected_result = record.expected_end_reason = None
    return Replay(record).run()


#: runs followed on the map, found legal and worth what the site paid (RSSC's
#: Shannon bonus included), runs taken as recorded, by real game
CHECKED = {"161830": (102, 0), "18Ireland_game_end_bankrupt": (82, 0),
           "18Ireland_game_end_stock_market": (95, 0), "larger_bank_optional_rule": (115, 0)}


@pytest.mark.parametrize("name", sorted(CHECKED))
def test_real_games_runs_are_checked_and_legal(name):
    r = replay(name)
    assert [f.rule for f in r.findings if f.severity != "info"] == []
    st = r.game.title.state
    assert (st.runs_checked, st.runs_taken) == CHECKED[name]
    assert not [f for f in r.findings if f.rule == "route.unchecked"]   # none taken


def test_narrow_gauge_bonus_of_kingstown_as_the_site_reads_it():
    # action 863 of 161830: WLWR's 8H runs I13-I11-I11, "(Narrow: £10)" on
    # the site: Kingstown I13's narrow track reaches a £10 town
    r = replay("161830", before=863)
    g = r.game
    board, phase = g.board, g.phase.tiles[-1]
    route = next(x for a in json.loads((GAMES / "161830.json").read_text())["actions"]
                 if a["id"] == 863 for x in a["routes"])
    assert route["revenue_str"].endswith("(Narrow: £10)")
    i13, i11 = board.hexes["I13"], board.hexes["I11"]
    assert narrow_bonus(board, (i13.idx, 0), phase) == 10
    assert [narrow_bonus(board, (i11.idx, k), phase) for k in range(len(i11.nodes))] == [0, 0, 0]


def test_a_2h_crossing_three_hex_edges_is_flagged():
    r = replay_file(EXAMPLES / "illegal" / "2h-running-3-hex-edges.18xx")
    errors = [f for f in r.findings if f.severity == "error"]
    assert [(f.rule, f.line) for f in errors] == [("route.distance", 391)]
    assert "the 2H-train (F10-D12-C13) crosses 3 hex edges but may cross only 2" in errors[0].message



def test_a_changed_revenue_is_flagged_with_both_numbers():
    text = (EXAMPLES / "game.18xx").read_text(encoding="utf-8")
    line = "MGWR run 2H F4.0~F6.0-G7.0 (50), 2H F10.0~G11~G9.0 (50), 4H F10.0~E11~D12.0-C13.0 (120) = 220"
    assert line in text
    lines = text.splitlines()
    k = lines.index(line)
    broken = "\n".join(lines[:k] + [line.replace("(120) = 220", "(130) = 230")]) + "\n"
    r = replay_file(EXAMPLES / "game.18xx", text=broken)
    errors = [f for f in r.findings if f.severity == "error"]
    assert [(f.rule, f.line) for f in errors] == [("route.revenue", k + 1)]
    assert "MGWR's runs are worth £220" in errors[0].message
    assert "£230 was claimed" in errors[0].message
