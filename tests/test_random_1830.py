"""The 24 random 1830 games (random legal moves through the 18xx.games engine,
``tests/data/random/1830``; see ``shared/corpus/random/README.md``) replay with
no finding except where 18xx.games accepts what the published rules forbid,
reach the engine's final net worths, and agree with the engine on every
player's cash and every company's treasury, price, president and trains after
every action (``tests/data/random/traces``).  docs/1830.md lists what each
game taught."""

import gzip
import json

import pytest

from railcheck.conformance import first_divergence
from railcheck.engine import Replay
from railcheck.importer import import_export

from conftest import DATA

GAMES = {p.stem: p for p in sorted((DATA / "random" / "1830").glob("*.json"))}

#: where 18xx.games lets through what the rules forbid (docs/1830.md, "The
#: engine accepts"): a company at its train limit that could trade a 4, 5 or
#: 6 in for a D buys a train outright, then discards one.
EXPECTED_FINDINGS = {
    "1830_rand_18303_3": [(854, "trains.limit")],   # B&O (5, 5) buys a D
    "1830_rand_18303_4": [(771, "trains.limit")],   # PRR (D, 5) buys a D
    "1830_rand_18304_4": [(745, "trains.limit"),    # B&M (5, 6) buys NYNH's 6
                          (866, "trains.limit")],   # B&O (5, D) buys B&M's 6
}


def trace_of(name: str) -> dict:
    with gzip.open(DATA / "random" / "traces" / f"{name}.trace.json.gz", "rt",
                   encoding="utf-8") as fh:
        return json.load(fh)


def test_all_24_games_and_traces_are_present():
    assert len(GAMES) == 24
    for name in GAMES:
        assert (DATA / "random" / "traces" / f"{name}.trace.json.gz").exists()
    players = sorted(len(json.loads(p.read_text())["players"]) for p in GAMES.values())
    assert players == [3] * 6 + [4] * 6 + [5] * 6 + [6] * 6


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_game_replays_and_scores_match_the_engine(name):
    text = GAMES[name].read_text()
    record, read_findings = import_export(text, str(GAMES[name]))
    assert read_findings == []
    result = Replay(record).run()
    found = [(f.action_id, f.rule) for f in result.findings
             if f.severity in ("error", "warning")]
    assert found == EXPECTED_FINDINGS.get(name, [])
    assert result.finished
    data = json.loads(text)
    by_id = {str(p["id"]): p["name"] for p in data["players"]}
    expected = {by_id[k]: v for k, v in data["result"].items()}
    worth = {row["player"]: row["net_worth"] for row in result.standings}
    assert worth == expected
    assert result.end_reason == {"bank": "bank", "bankrupt": "bankrupt"}[
        data["game_end_reason"]]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_game_matches_the_engine_after_every_action(name):
    trace = trace_of(name)
    divergence, _ = first_divergence(GAMES[name].read_text(), trace, str(GAMES[name]))
    assert divergence is None, str(divergence)
    assert len(trace["states"]) > 200
