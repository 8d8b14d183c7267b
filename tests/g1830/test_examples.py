"""The bundled examples: a complete legal game of 1830 whose standings are
checked by hand, and one short game per kind of illegal action, each flagged
at its last line with the rule broken."""

from pathlib import Path

import pytest


from conftest import replay_file as run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "1830"


def test_complete_game_is_legal_and_ends_with_the_bank_broken():
    r = run(EXAMPLES / "game.18xx")
    assert r.findings == []
    assert r.finished and r.end_reason == "bank"
    assert r.phase == "D"
    assert r.bank < 0


def test_complete_game_standings_by_hand():
    r = run(EXAMPLES / "game.18xx")
    g = r.game
    bob = g.player_by_name["Bob"]
    held = {c.sym: c.percent_of(bob) for c in g.corporations.values() if c.percent_of(bob)}
    assert held == {"PRR": 60, "NYC": 10, "B&O": 30, "ERIE": 60, "NYNH": 10, "B&M": 60}
    price = {c.sym: c.price.price for c in g.corporations.values() if c.price}
    assert (price["PRR"], price["NYC"], price["B&O"], price["ERIE"], price["NYNH"],
            price["B&M"]) == (350, 200, 350, 300, 350, 300)
    # 6 x 350 + 1 x 200 + 3 x 350 + 6 x 300 + 1 x 350 + 6 x 300 = 7300
    assert 6 * 350 + 200 + 3 * 350 + 6 * 300 + 350 + 6 * 300 == 7300
    assert bob.cash == 5748
    rows = {row["player"]: row for row in r.standings}
    assert rows["Bob"] == {"player": "Bob", "cash": 5748, "shares": 7300, "privates": 0,
                           "net_worth": 13048, "rank": 1}
    assert (rows["Carol"]["net_worth"], rows["Carol"]["rank"]) == (12109, 2)
    assert (rows["Alice"]["net_worth"], rows["Alice"]["rank"]) == (12025, 3)


ILLEGAL = {
    "bid-too-low": (7, "auction.min_bid", "minimum bid is $170"),
    "out-of-turn": (27, "turn.order", "it is Alice's turn in SR 1"),
    "sell-first-sr": (29, "stock.sell_first_round", "first stock round"),
    "over-60-percent": (40, "stock.holding_limit", "Alice holds 60% of NYNH"),
    "green-tile-phase-2": (43, "tile.color", "tile 14 is green"),
    "wrong-checkpoint": (42, "checkpoint.mismatch", "Alice has $60, the record says $70"),
    "train-limit": (48, "trains.limit", "one more makes 5, over the limit of 4 in phase 2"),
    "unaffordable-train": (49, "trains.cash", "NYNH has $920, a 2-train costs $1100"),
    "revenue-claim": (74, "route.revenue", "worth $50, not the $60 claimed"),
    "wrong-dividend-move": (77, "checkpoint.mismatch", "B&O is priced at $100, the record says $90"),
    "rebuy-after-selling": (199, "stock.rebuy", "Alice sold PRR this round"),
    "pool-over-50": (201, "stock.pool_limit", "would put 60% there, over the 50% limit"),
    "cert-limit": (326, "stock.cert_limit", "Bob holds 20 certificates"),
}


def test_every_illegal_example_is_listed():
    assert sorted(p.stem for p in (EXAMPLES / "illegal").glob("*.18xx")) == sorted(ILLEGAL)


@pytest.mark.parametrize("name", sorted(ILLEGAL))
def test_illegal_example_is_flagged_at_its_line(name):
    line, rule, text = ILLEGAL[name]
    r = run(EXAMPLES / "illegal" / f"{name}.18xx")
    errors = [f for f in r.findings if f.severity == "error"]
    assert errors, "not flagged"
    first = errors[0]
    assert (first.line, first.column, first.rule) == (line, 1, rule)
    assert text in first.message
    # nothing before the illegal line is flagged
    assert all(f.line == line for f in r.findings)
