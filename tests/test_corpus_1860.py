"""1860's games exported from 18xx.games (3 real, 24 of random legal moves)
against the site engine's per-action traces.  The title is not registered
yet (the rounds after the auction are not complete): the tests put its class
in the registry for their own duration and compare the parts of each game
railcheck plays so far: every action up to the end of the auction, then up
to the first operating round, with no finding and every player's cash, the
bank and each started corporation's treasury, price, president and trains
equal to the trace after every action."""

import gzip
import json

import pytest

from railcheck.conformance import compare_state, snapshot
from railcheck.engine import Replay
from railcheck.importer import import_export

from conftest import DATA, load_trace

REAL = {p.stem: p for p in sorted((DATA / "exports" / "1860").glob("*.json"))}
RANDOM = {p.name[:-len(".json.gz")]: p
          for p in sorted((DATA / "exports" / "1860_random").glob("*.json.gz"))}
GAMES = {**REAL, **RANDOM}


def export_text(name: str) -> str:
    path = GAMES[name]
    if path.suffix == ".gz":
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            return fh.read()
    return path.read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def registered_1860(monkeypatch):
    from railcheck import ruleset
    from railcheck.titles import TITLES
    from railcheck.titles.g1860 import Title1860
    monkeypatch.setitem(TITLES, "1860", Title1860)
    ruleset._load_cached.cache_clear()
    yield
    ruleset._load_cached.cache_clear()


def end_of_auction(trace: dict) -> int:
    """The id of the auction's last action (its state is the first of the
    stock round)."""
    states = trace["states"]
    k = max(i for i, s in enumerate(states) if s["round"].startswith("Auction"))
    return states[k + 1]["id"]


def end_of_first_stock_round(trace: dict) -> int:
    """The id of the last action before the one that ends the first stock
    round (whose state already holds the start of the operating round)."""
    states = trace["states"]
    k = next(i for i, s in enumerate(states) if s["round"].startswith("Operating"))
    return states[k - 1]["id"]


def replay_until(name: str, last_id: int):
    """Replay ``name`` up to action ``last_id``: (read findings, result,
    first divergence from the trace as (id, what, ours, theirs) or None)."""
    trace = load_trace("1860", name)
    states = {s["id"]: s for s in trace["states"]}
    record, read = import_export(export_text(name), name)
    if record.actions[-1].action_id > last_id:
        record.actions = [a for a in record.actions if a.action_id <= last_id]
        record.expected_result = record.expected_end_reason = None
    found = []
    last_of_id = {a.action_id: i for i, a in enumerate(record.actions)}
    seen = [-1]

    def after(game, action):
        seen[0] += 1
        st = states.get(action.action_id)
        if st is not None and not found and last_of_id[action.action_id] == seen[0]:
            diff = compare_state(snapshot(game), st)
            if diff:
                found.append((action.action_id, *diff))

    rp = Replay(record)
    rp.after_action = after
    return read, rp.run(), (found[0] if found else None)


def test_all_games_are_present():
    assert len(REAL) == 3 and len(RANDOM) == 24


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_auction_matches_the_site_engine(name):
    last = end_of_auction(load_trace("1860", name))
    read, result, divergence = replay_until(name, last)
    assert read == []
    assert [f.message for f in result.findings] == []
    assert divergence is None
    g = result.game
    assert g.round.kind == "SR"          # the auction is over: every item sold
    assert all(c.owner is not None for c in g.companies.values() if c.sym != "FFC")
    assert all(g.corporations[s].president is not None for s in ("C&N", "IOW"))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_stock_rounds_before_the_first_or_match_the_site_engine(name):
    last = end_of_first_stock_round(load_trace("1860", name))
    read, result, divergence = replay_until(name, last)
    assert [f.message for f in result.findings] == []
    assert divergence is None
    assert result.game.round.kind == "SR"


def test_19354_auction_numbers():
    _, result, _ = replay_until("19354", 36)
    g = result.game
    cash = {p.name: p.cash for p in g.players}
    # P1: bids 50 + 20 + RPSC 130 + IOW 2 x 100 + YHC 50 = 500 of 1000;
    # P2: bids 55 + 50 + 15 + CMH 90 + C&N 2 x 100 + BHC 30 = 440
    assert cash == {"Player 1": 500, "Player 2": 560}
    assert g.bank.cash == 20000 - 500 - 560
    assert {c.sym: c.owner.name for c in g.companies.values() if c.owner} == {
        "CMH": "Player 2", "RPSC": "Player 1", "BHC": "Player 2", "YHC": "Player 1"}
    assert (g.corporations["C&N"].price.price, g.corporations["IOW"].price.price) == (100, 100)
    assert g.priority.name == "Player 2"   # most cash after the auction


def test_a_bid_over_cash_less_the_cheapest_item_is_refused():
    record, _ = import_export(export_text("19354"), "19354")
    first = record.actions[0]            # Player 1 bids 30
    first.price = 1000 - 30 + 5          # the cheapest item left is BHC (30)
    record.actions = record.actions[:1]
    record.expected_result = record.expected_end_reason = None
    result = Replay(record).run()
    assert [(f.rule, f.action_id) for f in result.findings] == [("auction.cash", 1)]
    assert "may bid at most £970" in result.findings[0].message
