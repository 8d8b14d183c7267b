"""The real 1830 games exported from 18xx.games replay with no findings, reach
the site's recorded final scores, and agree with the site's engine on every
player's cash and every company's treasury, price, president and trains
after every single action."""

import json

import pytest

from railcheck.conformance import first_divergence
from railcheck.engine import Replay
from railcheck.importer import import_export

from conftest import EXPORTS_1830, load_trace, site_scores

GAMES = {p.stem: p for p in EXPORTS_1830}

# final net worth as recorded by 18xx.games (result by player id), by player name
EXPECTED = {
    "1830_game_end_bank": {"Player 2": 13048, "Player 3": 12109, "Player 1": 12025},
    "26855": {"Player 4": 2212, "Player 2": 2127, "Player 1": 1831, "Player 3": 310},
    "29133": {"Player 2": 1477, "Player 3": 951, "Player 1": 887, "Player 4": 416},
    "rl18xx_game": {"Player 1": 7576, "Player 2": 7453, "Player 4": 5855, "Player 3": 4074},
}
END = {"1830_game_end_bank": "bank", "26855": "bankrupt", "29133": "bankrupt",
       "rl18xx_game": "bank"}


def replay(name, **kw):
    record, read_findings = import_export(GAMES[name].read_text(), str(GAMES[name]))
    return read_findings, Replay(record, **kw).run()


def test_all_four_games_are_present():
    assert sorted(GAMES) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_real_game_is_legal_and_scores_match_the_site(name):
    read_findings, result = replay(name)
    assert read_findings == []
    assert [f.message for f in result.findings] == []
    assert result.finished
    assert result.end_reason == END[name]
    worth = {row["player"]: row["net_worth"] for row in result.standings}
    assert worth == EXPECTED[name]
    # the export's own result, keyed by player id, agrees too
    assert site_scores(json.loads(GAMES[name].read_text())) == worth


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_action_matches_the_site_engine(name):
    trace = load_trace("1830", name)
    divergence, result = first_divergence(GAMES[name].read_text(), trace, str(GAMES[name]))
    assert divergence is None, str(divergence)
    assert len(trace["states"]) > 300


def test_bank_break_game_numbers():
    _, result = replay("1830_game_end_bank")
    g = result.game
    assert g.bank.cash < 0          # the bank broke and kept paying
    by = {r["player"]: r for r in result.standings}
    assert by["Player 2"]["rank"] == 1
    assert by["Player 2"]["cash"] + by["Player 2"]["shares"] + by["Player 2"]["privates"] == 13048
