"""``railcheck next`` for 1890 (its own checker: railcheck/titles/kansai/table.py):
what is legal at a position, with the numbers, and the agreement with
``railcheck validate`` over every 1890 record of the examples and the tests
(tools/next_agreement.py --kansai; with more positions, the numbers in
docs/editors.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from railcheck.cli import main
from railcheck.loader import load_game
from railcheck.ruleset import load_ruleset
from railcheck.table.commands import _count_at
from railcheck.titles.kansai.table import kansai_next

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))

import next_agreement  # noqa: E402

GAME = REPO / "examples" / "kansai" / "game.18xx"
MAP_GAME = REPO / "examples" / "kansai" / "map-game.18xx"
GAMES = next_agreement.kansai_paths()


def _next(path, at):
    record, _ = load_game(str(path))
    rules = load_ruleset(record.ruleset or record.title, record.options,
                         components=record.components)
    count, _ = _count_at(record, at)
    return kansai_next(record, rules, count)


def _legal(nm, kind) -> dict:
    return {o.text: o.info for o in nm.legal if o.kind == kind}


def test_auction_bids_and_the_cheapest_bought():
    nm = _next(GAME, "12")          # Aki bought ARIMA, Ben bid on OMER
    s = nm.situation
    assert (s.round, s.actor, s.step) == ("auction", "Ben", "the waterfall auction")
    assert nm.facts["cash"] == 900
    bids = _legal(nm, "bid")
    assert bids["Ben bid HKT 65"]["price_min"] == 65
    assert bids["Ben bid HKT 65"]["price_max"] == 900
    # OMER has Ben's own bid of 125: another bid of his from 125 (he may not raise himself
    # below it), the others' minimum 130 (the next test)
    assert bids["Ben bid OMER 125"]["price_min"] == 125
    assert _legal(nm, "buy private")["Ben buy KT"]["price"] == 40
    # one step on: Chie must beat Ben's 125 by 5 (A3)
    nm = _next(GAME, "13")
    assert _legal(nm, "bid")["Chie bid OMER 130"]["price_min"] == 130
    assert any(o.action.company == "OMER" and o.action.price == 129 for o in nm.refused) \
        or "Chie bid OMER 129" not in _legal(nm, "bid")


def test_stock_round_pars_buys_sales_and_late_privates():
    nm = _next(MAP_GAME, "40")      # SR 2: Chie, before her turn
    assert (nm.situation.round, nm.situation.actor) == ("SR 2", "Chie")
    assert nm.facts == {"cash": 450, "certificates": 3, "certificate_limit": 8, "bank": 1115}
    pars = {o.info["corporation"]: o.info["prices"] for o in nm.legal if o.kind == "par"}
    assert pars["OMS"] == [70, 80, 90, 100]
    assert "JR" not in pars and "HER" not in pars           # parred in SR 1
    sale = _legal(nm, "sell")["Chie sell 1 JR"]
    assert (sale["cost"], sale["price_after"]) == (-90, 80)
    assert _legal(nm, "buy")["Chie buy M2"]["cost"] == 200
    assert _legal(nm, "buy private")["Chie buy KRTR"]["price"] == 80   # a late private (L0)
    # one certificate a turn (S2.1): after her purchase, every other is refused
    nm = _next(MAP_GAME, "70")      # SR 3: Chie bought an OMS share, her turn goes on
    assert nm.situation.actor == "Chie"
    assert not _legal(nm, "buy")
    assert {o.rule for o in nm.options if o.kind == "buy"} == {"stock.one_buy"}


def test_operating_turn_station_payout_and_end_of_turn():
    nm = _next(MAP_GAME, "51")      # OR 2.1: HER paid KRTR's fee and ran for 60
    s = nm.situation
    assert (s.round, s.actor, s.actor_kind) == ("OR 2.1", "HER", "company")
    assert nm.facts["treasury"] == 620 and nm.facts["price"] == 80
    assert _legal(nm, "token")["HER token C15"]["cost"] == 40
    pay = _legal(nm, "dividend")
    assert pay["HER payout"]["to_holders"] == {"Aki": 24, "Ben": 12}
    assert pay["HER payout"]["price_after"] == 90
    assert (pay["HER withhold"]["treasury_after"], pay["HER withhold"]["price_after"]) == \
        (680, 70)
    assert "HER half" not in pay                            # JR's alone (J2)
    # HER is the last to operate: its turn ends with the next OR's line
    assert [o.text for o in nm.legal if o.kind == "end turn"] == ["OR 2.2"]
    # once paid out, no second run or dividend (O3, O4: route.twice, dividend.twice)
    nm = _next(MAP_GAME, "52")
    assert not _legal(nm, "dividend")
    assert {o.rule for o in nm.refused if o.kind == "dividend"} == {"dividend.twice"}


def test_a_turn_that_may_not_end_and_the_trains_on_sale():
    nm = _next(GAME, "45")          # OR 1.1: JR laid two tiles, owns no train
    assert nm.situation.actor == "JR"
    assert not [o for o in nm.legal if o.kind == "end turn"]
    assert any("trains.must_own" in n for n in nm.notes)
    trains = _legal(nm, "train")
    assert trains["JR buy train 2 for 60"]["price"] == 60
    assert trains["JR buy train 2 from M1 for 0"]["price_max"] == 1000
    # no map in its components file: no lay is listed, and the note says why
    assert not _legal(nm, "lay")
    assert any("no map" in n for n in nm.notes)


def test_conversion_and_privatisation_are_offered_in_their_turns():
    nm = _next(GAME, "64")          # M2 (Osaka Electric Railroad) before converting (K2)
    assert nm.situation.actor == "M2"
    assert "M2 convert" in _legal(nm, "convert")
    nm = _next(GAME, "73")          # M5 before privatising (N5)
    assert "M5 privatise" in _legal(nm, "privatise")


def test_the_next_round_begins_when_the_record_s_is_over():
    nm = _next(GAME, "36")          # SR 1: the third pass in a row
    assert nm.facts["round_begins"] == "OR 1.1"
    assert (nm.situation.round, nm.situation.actor) == ("OR 1.1", "M1")
    assert "M1 buy train 2 for 60" in _legal(nm, "train")
    assert all(o.info.get("after") == ["OR 1.1"] for o in nm.legal)


def test_cli_next_text_and_json_for_1890():
    res = CliRunner().invoke(main, ["next", str(MAP_GAME), "--at", "51"])
    assert res.exit_code == 0, res.output
    assert "HER to act in OR 2.1 (operating)" in res.output
    assert "payout: Aki +Y24, Ben +Y12; price after Y90   [HER payout]" in res.output
    assert "end HER's turn (OR 2.2 next)   [OR 2.2]" in res.output
    res = CliRunner().invoke(main, ["next", str(GAME), "--at", "45", "--format", "json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert (out["title"], out["actor"], out["round"]) == ("1890", "JR", "OR 1.1")
    assert "JR buy train 2 for 60" in out["legal_actions"]
    assert out["errors_before"] == 0


def test_lsp_hover_and_completion_for_1890():
    from railcheck.table.lsp import Documents
    docs = Documents()
    uri = MAP_GAME.resolve().as_uri()
    text = MAP_GAME.read_text()
    docs.update(uri, text)
    line = next(i for i, t in enumerate(text.split("\n")) if t == "HER ignore KRTR for 100")
    hover = docs.hover(uri, line)
    assert "**OR 2.1**, phase 3: HER to act (operating)" in hover
    assert "| Aki | Y407 |" in hover
    assert "**HER**: treasury Y620, trains 3, price Y80, president Aki" in hover
    labels = [label for label, _ in docs.completions(uri, line + 2)]
    assert labels[:3] == ["OR 2.2", "HER token C15", "HER payout"]


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_next_agrees_with_validate_1890(path):
    r = next_agreement.check_kansai_game(path, n_positions=1)
    assert r["problems"] == []
    assert r["positions"] >= 1
    assert r["accepted"] == r["offered"] >= 1
    assert r["refused"] == r["refused_tried"] >= 1


def test_every_1890_record_is_played():
    assert len(GAMES) == 33
