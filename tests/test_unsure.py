"""Amounts not known for sure (``railcheck/unsure.py``) in the shared Game:
a payment of an unknown amount makes both sides' cash not sure, and the
checks that need it (over-cash findings, money checkpoints, the net worths)
are counted as skipped instead of flagged (docs/1890.md, the plan's step 1)."""

from __future__ import annotations

from pathlib import Path

from railcheck.engine import Replay
from railcheck.loader import load_game
from railcheck.unsure import BANK, CHECKPOINTS, OVER_CASH, Unsure, price_key

GAME = Path(__file__).resolve().parent.parent / "examples" / "1830" / "illegal" / \
    "unaffordable-train.18xx"


def replay(extra: str = "", unsure: str = ""):
    """The 1830 example where NYNH ($920) buys B&O's 2-train for $1100 (line
    49), with ``extra`` lines after it; ``unsure``: the entity paid an
    unknown amount by the bank when OR 1.1 starts."""
    text = GAME.read_text() + extra
    record, _ = load_game("g.18xx", text)
    rep = Replay(record, hints=False)

    def before(game, action):
        if unsure and action.line == 43 and game.sure(game.entity(unsure)):
            game.pay_unknown(game.bank, game.entity(unsure), "a test's unknown amount",
                             ("trains", "2", "price"))
    rep.before_action = before
    return rep.run()


def rules(res, severity="error"):
    return [(f.rule, f.line) for f in res.findings if f.severity == severity]


def test_over_cash_is_flagged_when_the_cash_is_sure():
    res = replay()
    assert rules(res) == [("trains.cash", 49)]
    assert not [f for f in res.findings if f.rule == "components.unknown"]
    assert [r["net_worth"] for r in res.standings] == [900, 770, 740]


def test_over_cash_is_skipped_when_the_treasury_is_not_sure():
    res = replay(unsure="NYNH")
    assert rules(res) == []
    game = res.game
    assert not game.sure(game.corporations["NYNH"]) and not game.sure(game.bank)
    assert game.sure(game.corporations["B&O"])
    # nothing moved: the treasury is what the replay knows of it
    assert game.corporations["NYNH"].cash == -180
    info = [f.message for f in res.findings if f.rule == "components.unknown"]
    assert info == [
        "a test's unknown amount not checked (1 action): trains.\"2\".price is unknown "
        "(no components file)",
        f"{OVER_CASH} not checked (1 action): NYNH's cash is not sure: a test's unknown amount "
        "(no components file)"]
    # the players' cash is sure: the standings stand
    assert [r["net_worth"] for r in res.standings] == [900, 770, 740]


def test_a_checkpoint_of_a_cash_not_sure_is_skipped():
    check = "check NYNH treasury 5\ncheck B&O treasury 5\n"
    sure = replay(check)
    assert rules(sure) == [("trains.cash", 49), ("checkpoint.mismatch", 50),
                           ("checkpoint.mismatch", 51)]
    res = replay(check, unsure="NYNH")
    assert rules(res) == [("checkpoint.mismatch", 51)]     # B&O's is sure
    info = [f.message for f in res.findings if f.rule == "components.unknown"]
    assert f"{CHECKPOINTS} not checked (1 action): NYNH's treasury is not sure: a test's " \
           f"unknown amount (no components file)" in info


def test_a_player_not_sure_has_no_net_worth():
    res = replay("check Alice worth 1\n", unsure="Alice")
    assert res.standings == []
    assert rules(res) == [("trains.cash", 49)]              # NYNH's treasury is sure
    info = [f.message for f in res.findings if f.rule == "components.unknown"]
    assert f"{CHECKPOINTS} not checked (1 action): Alice's cash is not sure " \
           f"(a test's unknown amount) (no components file)" in info
    assert "the net worths (standings) not checked (1 action): Alice's cash is not sure " \
           "(a test's unknown amount) (no components file)" in info


def test_unsure_follows_prices_and_bounds():
    u = Unsure()
    u.mark_price("HER", "share prices after a sale", ("market", "ledge"))
    assert u.sure("Aki") and not u.sure(price_key("HER")) and not u.skipped
    u.follow("Aki", price_key("HER"))            # Aki sold HER at a price not sure
    assert not u.sure("Aki") and not u.sure(BANK)
    assert u.skipped["share prices after a sale"].count == 1
    u.bound("HER", "tile lay costs (terrain)", ("map", "hexes"), "the terrain of C5")
    assert u.sure("HER")
    # a payment over a cash known as an upper bound is still surely over ...
    assert u.over_cash("HER", 100, 120) and not u.over_cash("HER", 100, 80)
    # ... a checkpoint above it may be right, one below it may not
    money = "Y{}".format
    assert not u.checkpoint_doubt("HER", "HER", "treasury", 100, 120, money)
    assert u.checkpoint_doubt("HER", "HER", "treasury", 100, 60, money)
    assert u.skipped[CHECKPOINTS].reason == \
        "HER's treasury may be lower than Y100: the terrain of C5 is not known"
    u.inherit("KNR", "HER")                      # KNR received HER's cash: a bound too
    assert u.at_most["KNR"] == "the terrain of C5" and u.sure("KNR")
    assert not u.over_cash("Aki", 0, 10)         # not sure: never surely over
    assert u.skipped[OVER_CASH].count == 1


def test_money_off_makes_nothing_sure_and_counts_no_over_cash_check():
    """Money off (``Unsure.off``: a number money needs is unknown): no amount is sure, no
    over-cash check is made and none is counted (the title says once that money is not
    tracked); the first missing key stays."""
    u = Unsure()
    assert u.tracked and u.sure("Aki") and u.over_cash("Aki", 10, 20)
    u.turn_off(("bank",))
    u.turn_off(("market", "rows"))
    assert u.off == ("bank",) and not u.tracked
    assert not u.sure("Aki") and not u.sure(BANK) and not u.over_cash("Aki", 10, 20)
    assert OVER_CASH not in u.skipped and u.findings("c.yaml") == []


def test_what_a_player_can_afford_in_a_stock_round_is_a_look_with_an_unsure_cash():
    """The shared stock round's "may he still do something" (``can_buy_any``, ``can_par``,
    ``tradeable_privates``) tests the cash with ``Game.short_of(look=True)``: a player
    whose cash is not sure is never short (1890's cash may be unknown), and the look
    counts no skipped check (only a payment checked does)."""
    from railcheck.rounds.stock import StockRound
    game = replay().game
    rnd = StockRound(game)
    poor = game.players[0]
    poor.cash = 0
    assert not rnd.can_buy_any(poor)
    assert not rnd.can_par(poor, game.corporations["C&O"])
    game.pay_unknown(game.bank, poor, "a test's unknown amount", ("starting_cash",))
    skipped = {k: s.count for k, s in game.unsure.skipped.items()}
    assert rnd.can_par(poor, game.corporations["C&O"])
    assert rnd.can_buy_any(poor)
    assert {k: s.count for k, s in game.unsure.skipped.items()} == skipped
    assert OVER_CASH not in game.unsure.skipped
    # a payment checked still counts it
    assert not game.short_of(poor, 10_000)
    assert game.unsure.skipped[OVER_CASH].count == 1
