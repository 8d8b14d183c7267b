"""Kansai's bankruptcy (docs/1890.md B0-B4): only the president of the company that must buy
a train goes bankrupt, and only when its treasury, his cash and the shares he may sell cannot
pay the cheapest train on sale.  The position: the example game's OR 4.2, KNR (Y360) without a
train (its 4 scrapped by the first D), the cheapest train on sale a D at Y900; Ben (Y670) is
KNR's president."""

from pathlib import Path

import pytest

from conftest import replay_file as run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "kansai"
GAME = EXAMPLES / "game.18xx"
PURCHASE = "OR 4.2\nJR run 5 C9-D9-E11-F10-G11 = 300\nJR payout\nKNR buy train D for 900\n"


def position(tmp_path, who="Ben", d_price=900, bankrupt_at="OR 4.2"):
    """The example game to KNR's D in OR 4.2, where ``who`` goes bankrupt instead; the D
    costs ``d_price`` in the components file (the first D's price left as recorded)."""
    text = (EXAMPLES / "components-example.yaml").read_text(encoding="utf-8")
    text = text.replace('"D":   {price: 900,', f'"D":   {{price: {d_price},')
    text = text.replace("  end_on_bankruptcy: unknown", "  end_on_bankruptcy: immediate")
    (tmp_path / "components-example.yaml").write_text(text, encoding="utf-8")
    record = GAME.read_text(encoding="utf-8")
    assert PURCHASE in record
    record = record.replace(PURCHASE, PURCHASE.replace("KNR buy train D for 900",
                                                       f"{who} bankrupt"))
    game = tmp_path / "game.18xx"
    game.write_text(record, encoding="utf-8")
    return game, record.splitlines().index(f"{who} bankrupt") + 1


def bankruptcy_findings(r):
    return [f for f in r.errors if f.rule.startswith("bankrupt.")]


def test_a_bankruptcy_with_money_to_raise_is_flagged(tmp_path):
    """Y360 + Y670 + what Ben may sell (10% HER at Y80, 10% JR at Y125, 20% of KNR keeping
    its presidency at Y100, 10% OMS at Y80) = Y1,515, enough for the D at Y900."""
    game, line = position(tmp_path)
    r = run(game)
    found = bankruptcy_findings(r)
    assert [(f.rule, f.line) for f in found] == [("bankrupt.not_needed", line)]
    assert found[0].message == (
        "Ben can raise Y1515 (KNR's treasury Y360, his cash Y670, 10% of HER at Y80, 10% of JR "
        "at Y125, 20% of KNR at Y100, 10% of OMS at Y80), enough for a D-train at Y900 (B0-B4)")
    assert r.end_reason == "bankrupt"


@pytest.mark.parametrize("d_price, flagged", [(1515, True), (1516, False)])
def test_a_bankruptcy_is_legal_when_the_money_is_short(tmp_path, d_price, flagged):
    """The same position with the D at Y1,515 (just enough: flagged) or Y1,516 (one yen short:
    the bankruptcy is legal, the game ends there)."""
    game, line = position(tmp_path, d_price=d_price)
    r = run(game)
    found = bankruptcy_findings(r)
    assert [(f.rule, f.line) for f in found] == ([("bankrupt.not_needed", line)]
                                                  if flagged else [])
    assert r.end_reason == "bankrupt"


def test_only_the_president_goes_bankrupt_for_the_train(tmp_path):
    game, line = position(tmp_path, who="Aki")
    r = run(game)
    found = bankruptcy_findings(r)
    assert [(f.rule, f.line) for f in found] == [("bankrupt.not_president", line)]
    assert found[0].message.startswith("Aki is not the president of JR, whose turn it is "
                                       "(Chie is)")


def test_a_company_with_a_train_need_not_buy_one(tmp_path):
    """Chie, JR's president, goes bankrupt in JR's turn: JR owns a 5-train (O5)."""
    game, line = position(tmp_path, who="Chie")
    r = run(game)
    found = bankruptcy_findings(r)
    assert [(f.rule, f.line) for f in found] == [("bankrupt.not_needed", line)]
    assert found[0].message.startswith("JR owns a train (5): it need not buy one")
