"""1890's scenarios (docs/1890.md, "The rule book's scenarios"): a filled components file
for each scenario of the rule book, each number from it; a game names one by the
scenario's name; what a scenario leaves out, its number of game turns, and the rule book's
readings of JR's half dividend and a minor's payout."""

from pathlib import Path

import pytest

from railcheck.loader import load_game
from railcheck.titles import title_class
from railcheck.titles.kansai.components import load_components

from conftest import replay_file as run

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "kansai"
SCENARIOS = REPO / "railcheck" / "titles" / "kansai" / "scenarios"


@pytest.mark.parametrize("name, players, bank, cash3, limit3, counts, turns, left_out", [
    # A: 2-4 players, bank 6,000, 1,500 shared (500 each for 3), limits 16/12/10
    ("hanshin", (2, 4), 6000, 500, 12, [5, 0, 4, 0, 3, 2, 1, 5], 10,
     {"KNR", "OMS", "KHN", "NKI", "M1", "M4", "HKT", "KRTR"}),
    # B: as A with Keihan, 6 D-trains, 8 game turns
    ("keihanshin", (2, 4), 6000, 500, 12, [5, 0, 4, 0, 3, 2, 1, 6], 8,
     {"KNR", "OMS", "NKI", "M1", "M4", "HKT", "SEM"}),
    # C: 2-7 players, bank 12,500, 840 each for 3, limit 18 for 3
    ("1890", (2, 7), 12500, 840, 18, [9, 3, 5, 2, 4, 3, 2, 6], 10, set()),
    # D: C's money with 6 2-trains, no 3+3, only minor 5
    ("1890-simplified", (2, 7), 12500, 840, 18, [6, 3, 5, 0, 4, 3, 2, 6], 10,
     {"M1", "M2", "M3", "M4", "KEF", "KRTR", "KOK", "SEM"}),
])
def test_each_scenario_is_the_rule_books(name, players, bank, cash3, limit3, counts, turns,
                                         left_out):
    path = title_class("1890").shipped_components(name)
    assert path == SCENARIOS / f"{name}.yaml"
    c = load_components(str(path))
    assert (c.get("players", "min"), c.get("players", "max")) == players
    cash, limit = c.get("starting_cash"), c.get("cert_limit")
    assert (c.get("bank"), cash.get(3, cash.get("3")), limit.get(3, limit.get("3"))) == \
        (bank, cash3, limit3)
    trains = ["2", "2+2", "3", "3+3", "4", "5", "6", "D"]
    assert [c.get("trains", t, "count") for t in trains] == counts
    # §12.1: the prices are the same in every scenario; the D is 800 with a train traded in
    assert [c.get("trains", t, "price") for t in trains] == [80, 120, 180, 230, 300, 450, 630,
                                                             1100]
    assert c.get("trains", "D", "trade_in") == {"4": 300, "5": 300, "6": 300}
    assert c.get("game_turns") == turns and left_out <= set(c.get("not_in_play"))
    # what the rule book's text does not give stays unknown: the map and the market grid
    assert c.get("market", "rows") == "unknown" or not c.known("market", "rows")
    assert not c.known("map", "hexes") and not c.known("map", "places", "Kobe", "hex")
    # the rule book's readings of the summary's open points
    assert (c.get("rulebook", "kanan_window"), c.get("rulebook", "minors_operate"),
            c.get("rulebook", "end_on_bank"), c.get("rulebook", "jr_half_rounding"),
            c.get("rulebook", "minor_payout")) == ("K4", "first", "full_or", 10, "half")


def test_the_privates_values_differ_by_scenario():
    def values(name):
        c = load_components(str(SCENARIOS / f"{name}.yaml"))
        return {s: (c.get("companies", s, "value"), c.get("companies", s, "revenue"))
                for s in ("ARIMA", "KT", "HKT", "HST", "KST", "OMER")}
    # C8.1: 20/5, 40/10, 70/15, 110/20, 160/25, 220/40
    assert values("1890") == {"ARIMA": (20, 5), "KT": (40, 10), "HKT": (70, 15),
                              "HST": (110, 20), "KST": (160, 25), "OMER": (220, 40)}
    # A8: Keishin 60/15 and the tramway 120/30 ("modified")
    assert values("hanshin")["KST"] == (60, 15) and values("hanshin")["OMER"] == (120, 30)
    late = load_components(str(SCENARIOS / "1890.yaml"))
    assert [late.get("late_companies", s, "value") for s in ("KEF", "KRTR", "KOK", "SEM")] == \
        [200, 240, 280, 320]


def test_a_game_names_a_scenario_and_what_it_leaves_out_is_refused(tmp_path):
    game = tmp_path / "g.18xx"
    game.write_text("title: 1890\nplayers: Aki, Ben, Chie\ncomponents: hanshin\n\n"
                    "auction\nAki buy ARIMA\nBen buy KT\nChie buy KST\nAki buy HST\nBen buy OMER\n\n"
                    "SR 1\nChie buy M1\nChie par HER 100\n",
                    encoding="utf-8")
    record, _ = load_game(str(game))
    assert record.components == str(SCENARIOS / "hanshin.yaml")
    r = run(game)
    assert [(f.rule, f.line, f.message) for f in r.errors] == [
        ("kansai.not_in_play", 13, "M1 is not in play in the scenario Hanshin Railways (the "
                                  "components file's not_in_play); the action is ignored")]
    # a file of that name next to the game wins over the scenario
    (tmp_path / "hanshin").write_text((EXAMPLES / "components-example.yaml").read_text(
        encoding="utf-8"), encoding="utf-8")
    record, _ = load_game(str(game))
    assert record.components == str(tmp_path / "hanshin")


def variant(tmp_path, components=(), game=()):
    """The example game next to a changed copy of its components file."""
    text = (EXAMPLES / "components-example.yaml").read_text(encoding="utf-8")
    for old, new in components:
        assert old in text
        text = text.replace(old, new, 1)
    (tmp_path / "components-example.yaml").write_text(text, encoding="utf-8")
    g = (EXAMPLES / "game.18xx").read_text(encoding="utf-8")
    for old, new in game:
        assert old in g
        g = g.replace(old, new, 1)
    path = tmp_path / "game.18xx"
    path.write_text(g, encoding="utf-8")
    return run(path)


def test_the_game_ends_after_its_game_turns(tmp_path):
    # E1 "10 faz gry" = the rule book's game turns (C9): with 1, the game ends after OR 1.1
    r = variant(tmp_path, [("components_for: kansai\n", "components_for: kansai\n"
                                                        "game_turns: 1\n")])
    assert r.finished and r.end_reason == "game_turns"
    first = r.errors[0]
    assert (first.rule, first.text) == ("game.over", "Chie buy KNR")     # SR 2's first action
    assert first.message.startswith("the game already ended (game_turns)")


def test_a_minor_pays_half_to_its_treasury(tmp_path):
    # §10.6.1: half to the president, half to the treasury (the example keeps "all")
    r = variant(tmp_path, [("  minor_payout: all", "  minor_payout: half")])
    first = r.errors[0]
    assert (first.rule, first.text) == ("checkpoint.mismatch", "check Aki cash 936")
    assert first.message.startswith("Aki has Y921, the record says Y936")


def test_jr_s_half_rounded_to_10_by_the_rule_book(tmp_path):
    # A8.4: JR's treasury half rounded up to 10 (the summary: to 20): of JR's run for 60
    # (line 119) the treasury keeps 30, not 40, and Chie's 40% of the other 30 is 12, not 8
    r = variant(tmp_path, [("  jr_half_dividend_move: right",
                            "  jr_half_dividend_move: right\n  jr_half_rounding: 10")])
    messages = {f.text: f.message for f in r.errors}
    assert messages["check Chie cash 580"].startswith("Chie has Y584, the record says Y580")


def test_all_sales_at_once_by_the_rule_book(tmp_path):
    # S2.1 (sell, buy one, sell again) against §8.5 ("all sales must be done at once"): Ben
    # sells HER, buys KNR and sells JR in SR 2
    game = [("Ben sell HER\nBen buy KNR\n", "Ben sell HER\nBen buy KNR\nBen sell JR\n")]
    r = variant(tmp_path, game=game)
    assert not any(f.rule == "stock.sell_buy_order" for f in r.errors)     # the summary's
    r = variant(tmp_path, [("  minor_payout: all", "  minor_payout: all\n"
                                                   "  sales_in_turn: all_at_once")], game)
    first = r.errors[0]
    assert (first.rule, first.text) == ("stock.sell_buy_order", "Ben sell JR")
    assert first.message == ("Ben sold, bought and sells again in one turn; all sales are made "
                             "at once, before or after the purchase (rule book §8.5, "
                             "rulebook.sales_in_turn: all_at_once)")


def test_rules_show_a_scenario():
    from click.testing import CliRunner
    from railcheck.cli import main
    res = CliRunner().invoke(main, ["rules", "show", "1890", "--components", "keihanshin"])
    assert res.exit_code == 0, res.output
    assert "scenario: Keihanshin Railways (the rule book's)\ngame turns: 8\n" in res.output
    assert "not in play: KNR, OMS, NKI, M1, M2, M3, M4, HKT, KEF, KRTR, KOK, SEM\n" in res.output
    assert "bank: 6000\n" in res.output and "market: unknown\n" in res.output
    res = CliRunner().invoke(main, ["rules", "show", "1890", "--components", "nope"])
    assert res.exit_code == 2
    assert "no components file 'nope', and 1890 ships no scenario of that name" in res.output


def test_a_hanshin_opening():
    path = Path(__file__).resolve().parent / "games" / "hanshin_opening.18xx"
    r = run(path)
    assert r.errors == []
    assert any("money is not tracked (market.rows is unknown)" in f.message
               for f in r.findings if f.rule == "kansai.unchecked")
    text = path.read_text(encoding="utf-8")
    # §9: the minor is sold in the initial stock round (the auction), not in a stock round
    moved = text.replace("Chie buy M5\n\nSR 1\n", "\nSR 1\nChie buy M5\n")
    first = run(path, text=moved).errors[0]
    assert (first.rule, first.text) == ("kansai.minor_sale_round", "Chie buy M5")
    # Keihan is not in play in Hanshin Railways
    first = run(path, text=text.replace("Ben par JR 100", "Ben par KHN 100")).errors[0]
    assert (first.rule, first.text) == ("kansai.not_in_play", "Ben par KHN 100")
