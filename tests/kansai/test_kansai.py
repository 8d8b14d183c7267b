"""Kansai (docs/1890.md): the components file (template, schema, header), the complete
example game with and without its components file, one illegal example per Kansai rule,
and `rules show kansai`."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from railcheck.cli import main
from railcheck.findings import InputError
from railcheck.loader import load_game
from railcheck.titles.kansai.components import TEMPLATE, load_components

from conftest import replay_file as run

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "kansai"
GAME = EXAMPLES / "game.18xx"


def infos(result):
    return {f.message.split(" not checked (")[0]: f for f in result.findings
            if f.rule == "components.unknown"}


# ---------------------------------------------------------------- the components file

def test_components_command_writes_the_template(tmp_path):
    out = tmp_path / "kansai-components.yaml"
    res = CliRunner().invoke(main, ["components", "kansai", "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_text(encoding="utf-8") == TEMPLATE.read_text(encoding="utf-8")
    assert len(load_components(str(out)).unknown_keys()) == 172
    # an existing file only with --force
    out.write_text("mine", encoding="utf-8")
    res = CliRunner().invoke(main, ["components", "kansai", "-o", str(out)])
    assert res.exit_code == 2 and "exists; use --force" in res.output
    assert out.read_text(encoding="utf-8") == "mine"
    res = CliRunner().invoke(main, ["components", "kansai", "-o", str(out), "--force"])
    assert res.exit_code == 0 and "components_for: \"1890\"" in out.read_text(encoding="utf-8")


def test_components_command_never_writes_over_the_template_and_knows_its_titles():
    res = CliRunner().invoke(main, ["components", "kansai", "-o", str(TEMPLATE), "--force"])
    assert res.exit_code == 2 and "an input of this command" in res.output
    res = CliRunner().invoke(main, ["components", "1830"])
    assert res.exit_code == 2
    assert "'1830' has no components file; titles with one: 1890 (kansai)" in res.output


@pytest.mark.parametrize("old, new, line, message", [
    ("bank: 3900", "bank: lots", 13, "bank: expected an integer, got 'lots'"),
    ("  ledge: bottom", "  ledge: middle", 23, "market.ledge: expected a row index or bottom"),
    ("components_for: kansai", "components_for: unknown", 8,
     "components_for: unknown value 'unknown'"),
    ("  ARIMA: {value: 20,", "  ARIMA: {value: 25,", 62,
     "companies.ARIMA.value: the cheapest private is 25; the summary says the first private "
     "costs 20 (A6)"),
    ("  KT:    {value: 40, revenue: 10}", "  KT:    {value: 40, income: 10}", 63,
     "companies.KT.income: unknown key 'income'"),
    ("cert_limit: {3: 8, 4: 7, 5: 6}", "cert_limit: {3: 8, 4: 7}", 15,
     "cert_limit: gives player counts [3, 4]; players are 3 to 5"),
])
def test_a_bad_components_file_is_located(tmp_path, old, new, line, message):
    text = (EXAMPLES / "components-example.yaml").read_text(encoding="utf-8")
    assert old in text
    assert text.splitlines()[line - 1].startswith(old)      # the line of the bad value
    path = tmp_path / "c.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_components(str(path))
    assert (exc.value.path, exc.value.line) == (str(path), line)
    assert message in exc.value.bare


def test_the_header_names_the_file_next_to_the_game(tmp_path):
    text = GAME.read_text(encoding="utf-8")
    game = tmp_path / "g.18xx"
    game.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_game(str(game))
    assert exc.value.line == 8
    assert "components file 'components-example.yaml' not found" in exc.value.bare
    (tmp_path / "components-example.yaml").write_text(
        (EXAMPLES / "components-example.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    record, _ = load_game(str(game))
    assert record.components == str(tmp_path / "components-example.yaml")
    # a title whose numbers are in its ruleset takes no components file
    game.write_text("title: 1830\nplayers: A, B, C\ncomponents: components-example.yaml\n",
                    encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_game(str(game))
    assert exc.value.line == 3 and "1830 takes no components file" in exc.value.bare


# ---------------------------------------------------------------- the complete game

def test_the_complete_game_is_legal_with_its_checks_said():
    r = run(GAME)
    assert r.errors == []
    assert r.finished and r.end_reason == "bank" and r.phase == "6"
    skipped = infos(r)
    # the example file leaves the map and the rule book's readings unknown: the readings the
    # rule book settles apply (docs/1890.md), and where it disagrees with the summary the
    # summary's (OMS's float); where the minors are sold is left open (no tile is laid on
    # Nishinomiya, D9: Hanshin's 10 at a brown Nishinomiya is surely not due, C2)
    assert sorted(skipped) == [
        "routes and revenues on the map",
        "tile lay costs (terrain)",
        "tile lays on the map (hex, colour, upgrade, connection)",
        "where the minors are sold"]
    assert skipped["where the minors are sold"].message == (
        "where the minors are sold not checked (5 actions): rulebook.minors_sold_in is unknown "
        f"({EXAMPLES / 'components-example.yaml'})")
    assert skipped["routes and revenues on the map"].message.endswith(
        "(26 actions): map.hexes is unknown (" + str(EXAMPLES / "components-example.yaml") + ")")
    assert skipped["where the minors are sold"].line == 8
    assert [f.rule for f in r.findings if f.severity == "info"].count("kansai.unchecked") == 1


def test_the_complete_game_s_money_and_standings():
    """Money is tracked from the components file: the standings (cash + shares at market +
    privates at face) and the companies at the end; the game's own money checkpoints
    (KNR's 4 x par, JR's treasury after its half dividend, the players' cash) pass."""
    r = run(GAME)
    assert [(s["rank"], s["player"], s["cash"], s["shares"], s["privates"], s["net_worth"])
            for s in r.standings] == [(1, "Aki", 936, 600, 140, 1676),
                                      (2, "Chie", 580, 960, 50, 1590),
                                      (3, "Ben", 490, 1040, 0, 1530)]
    table = {c["company"]: (c["price"], c["treasury"], c["ipo_percent"], c["pool_percent"])
             for c in r.companies}
    assert table["JR"] == (140, 490, 50, 0) and table["KNR"] == (100, 0, 0, 0)
    assert table["OMS"] == (100, 0, 50, 0) and table["HER"] == (100, 361, 50, 10)
    text = GAME.read_text(encoding="utf-8")
    for check, wrong, message in [
        ("check KNR treasury 370", "check KNR treasury 850",
         "KNR has Y370, the record says Y850 (the last movements: M2 brought all its Y10 to KNR "
         "(all assets); KNR started: 4 x par Y80 = Y320 to its treasury (K8), with Y10 from M2; "
         "M3 brought all its Y40 to KNR (all assets))"),
        ("check JR price 140", "check JR price 130", "JR is priced at Y140, the record says Y130"),
        # K9: KNR withholds in its first OR (OR 2.1) and its price stays at its par
        ("check KNR price 80", "check KNR price 70", "KNR is priced at Y80, the record says Y70"),
    ]:
        assert check in text
        errors = run(GAME, text=text.replace(check, wrong)).errors
        assert [(f.rule, f.text, f.message) for f in errors] == [
            ("checkpoint.mismatch", wrong, message)]
    res = CliRunner().invoke(main, ["score", str(GAME)])
    assert res.exit_code == 0, res.output
    assert "     1  Aki         Y936      Y600        Y140       Y1,676" in res.output


@pytest.mark.parametrize("before, after, who, cash", [
    # L3: Kita Osaka Kyuko (40, income 5) instead of Keifuku (50, income 10): Chie pays 10
    # less, earns 5 x 5 less, and receives 100 in OR 4.2, the first OR after the first 6
    ("Chie buy KEF", "Chie buy KOK", "Chie", 580 + 10 - 25 + 100),
    # L4: a station in Sakai (E15) earns its company 40 every OR while Semboku exists
    # (bought by Chie in SR 3): HER pays 40 for it in OR 4.1 and receives 40 in OR 4.2, 4.3
    ("Chie buy KEF", "Chie buy SEM", "Chie", 580 - 10),
    ("HER buy train 6 for 630\n", "HER buy train 6 for 630\nHER token E15\n", "HER", 361 - 40),
])
def test_late_privates_pay_their_bonuses(before, after, who, cash):
    text = GAME.read_text(encoding="utf-8")
    text = "\n".join(line for line in text.splitlines() if not line.startswith("check "))
    assert before in text
    r = run(GAME, text=text.replace(before, after, 1))
    assert r.errors == []
    got = {s["player"]: s["cash"] for s in r.standings}
    got.update({c["company"]: c["treasury"] for c in r.companies})
    assert got[who] == cash


def test_a_presidents_sale_in_an_operating_round():
    """B0-B2: Ben sells a JR share (at Y125) before KNR's D, in KNR's turn: taken as written,
    not the end of KNR's turn; but Ben's Y670 already covered the Y540 KNR lacked, so the sale
    was more than needed (B2).  JR's pool share earns JR the OR 4.3 dividend Ben no longer
    gets.  A sale by a player who is not the president, or for a company that owns a train,
    is not an emergency sale."""
    text = GAME.read_text(encoding="utf-8")
    text = "\n".join(line for line in text.splitlines() if not line.startswith("check "))
    r = run(GAME, text=text.replace("KNR buy train D for 900", "Ben sell JR\nKNR buy train D "
                                                                "for 900"))
    assert [(f.rule, f.text, f.message) for f in r.errors] == [
        ("emergency.too_much", "KNR buy train D for 900",
         "Ben sells more than needed: with Y670 after one share fewer he could still add the "
         "Y540 KNR needs (B2)")]
    assert {s["player"]: s["cash"] for s in r.standings}["Ben"] == 490 + 125 - 30
    assert {c["company"]: c["treasury"] for c in r.companies}["JR"] == 490 + 30
    for sale, message in [
        ("Aki sell KNR\nKNR buy train D for 900",
         "Aki may not sell shares in an operating round: Aki is not the president of JR, "
         "whose turn it is (B0)"),
        ("Chie sell KNR\nKNR buy train D for 900",
         "Chie may not sell shares: JR owns a train (5) (B0)"),
        ("KNR buy train D for 900\nBen sell JR",
         "Ben may not sell shares: KNR owns a train (D) (B0)")]:
        first = run(GAME, text=text.replace("KNR buy train D for 900", sale)).errors[0]
        assert (first.rule, first.message) == ("emergency.not_needed", message)


@pytest.mark.parametrize("before, after, text, message", [
    # SM4: JR and HER both start at Y100; JR's marker came first, HER's went under it
    ("JR lay 7 C10\nJR lay 9 D10\nJR buy train 2 for 60\nHER lay 7 D8\nHER buy train 2+2 for 100\n",
     "HER lay 7 D8\nHER buy train 2+2 for 100\nJR lay 7 C10\nJR lay 9 D10\nJR buy train 2 for 60\n",
     "HER lay 7 D8", "JR (at Y100) operates before HER (at Y100)"),
    # OR 4.3: JR at Y125 first; KNR (Y90, column 4) after HER and OMS (Y90, further right)
    ("KNR run D F10-G11-H13-I13 = 260\nKNR payout\n", "", None, None),
])
def test_main_companies_operate_by_share_price(before, after, text, message):
    """O0b: the highest price first; on one cell the top marker; equal prices, the one
    further right (by the prices at the OR's start and by those at the turn: both must
    agree for a finding)."""
    game = GAME.read_text(encoding="utf-8")
    assert before in game
    if text is None:        # KNR's turn moved to the front of OR 4.3
        i = game.index("OR 4.3\n") + len("OR 4.3\n")
        changed = game.replace(before, "", 1)
        changed = changed[:i] + before + changed[i:]
        text, message = "KNR run D F10-G11-H13-I13 = 260", "JR (at Y125) operates before KNR (at Y90)"
    else:
        changed = game.replace(before, after, 1)
    first = run(GAME, text=changed).errors[0]
    assert (first.rule, first.text) == ("turn.order", text)
    assert first.message.startswith(message)


def test_a_company_left_out_of_an_or_takes_an_empty_turn():
    """HER's turn left out of OR 4.3: taken as an empty turn, nothing run, so its price moves
    left (O4a: Y90 -> Y80) instead of right on its payout (Y100); said once as info."""
    text = GAME.read_text(encoding="utf-8")
    i = text.index("OR 4.3")
    turn = "HER run 6 D7-D9-C9 = 280\nHER payout\n"
    j = text.index(turn, i)
    text = text[:j] + text[j + len(turn):]
    text = "\n".join(line for line in text.splitlines() if not line.startswith("check "))
    r = run(GAME, text=text)
    assert r.errors == []
    assert {c["company"]: c["price"] for c in r.companies}["HER"] == 80
    assert infos(r)["turns left out of the record"].message.startswith(
        "turns left out of the record not checked (1 action): taken as empty turns")


@pytest.mark.parametrize("sale, flagged", [("", True), ("Aki sell HER\n", False)])
def test_a_player_over_the_certificate_limit_must_sell(sale, flagged):
    """S1: Aki's ninth certificate (the illegal example's last line) puts him over the limit
    of 8.  HER withholds in OR 1.1 (70 -> 60, yellow: its four certificates stop counting,
    SM1) and pays in OR 2.1 (back to 70: they count again); in SR 3 a turn of Aki's ending
    without a sale is flagged."""
    path = EXAMPLES / "illegal" / "cert_limit_exceeded.18xx"
    text = path.read_text(encoding="utf-8") + (
        "Ben pass\nChie pass\nAki pass\n\nOR 1.1\nM1 buy train 2 for 60\n"
        "M3 buy train 2 for 60\nM5 buy train 2 for 60\nHER buy train 2 for 60\n\n"
        "SR 2\nBen pass\nChie pass\nAki pass\n\nOR 2.1\nHER run 2 D9-C9 = 30\n"
        f"HER payout\n\nSR 3\nBen pass\nChie pass\n{sale}Aki pass\n\nOR 3.1\n")
    errors = run(path, text=text).errors
    assert [(f.rule, f.line) for f in errors][0] == ("stock.cert_limit", 38)
    over = [(f.text, f.message) for f in errors if f.rule == "stock.over_cert_limit"]
    assert over == ([("Aki pass", "Aki holds 9 certificates, over the limit of 8, and ends the "
                                  "turn without selling down to it (S1: HER could be sold)")]
                    if flagged else [])


@pytest.mark.parametrize("before, after, message", [
    # F1: the runs' stops are places the components file values (phase 3: low values)
    ("KNR run 3 F10-C9-B7 (80), 2 G11-H13 (20) = 100", "KNR run 3 F10-C9-B7 (90), 2 G11-H13 (20) "
     "= 110", "KNR's 3-train run F10-C9-B7 is worth Y80 (Osaka Kita 30 + Kobe 30 + Tanigami 20: "
     "the low values, F1), not the Y90 claimed"),
    # a run's trains' revenues add up to its total
    ("KNR run 3 F10-C9-B7 (80), 2 G11-H13 (20) = 100", "KNR run 3 F10-C9-B7 (80), 2 G11-H13 (20) "
     "= 110", "KNR's runs are written as worth Y100 (80 + 20), but Y110 is claimed as the revenue"),
    # phase 6: the high values (JR's 5-train: 80 + 80 + 40 + 50 + 50)
    ("JR run 5 C9-D9-E11-F10-G11 = 300\nJR payout\nKNR", "JR run 5 C9-D9-E11-F10-G11 = 310\n"
     "JR payout\nKNR", "JR's runs are worth Y300 (the high values of their stops, F1), not the "
     "Y310 claimed"),
])
def test_a_runs_revenue_from_the_places_values(before, after, message):
    text = GAME.read_text(encoding="utf-8")
    assert before in text
    first = run(GAME, text=text.replace(before, after, 1)).errors[0]
    assert (first.rule, first.message) == ("route.revenue", message)


def test_semboku_pays_a_company_with_a_station_in_sakai():
    text = GAME.read_text(encoding="utf-8")
    text = "\n".join(line for line in text.splitlines() if not line.startswith("check "))
    text = text.replace("Chie buy KEF", "Chie buy SEM").replace(
        "HER buy train 6 for 630\n", "HER buy train 6 for 630\nHER token E15\n")
    r = run(GAME, text=text)
    assert r.errors == []
    assert {c["company"]: c["treasury"] for c in r.companies}["HER"] == 361 - 40 + 2 * 40


@pytest.mark.parametrize("old, new, standings", [
    ('"2":   {price: 60', '"2":   {price: unknown', True),        # the record writes its prices
    ("tokens: [0, 40, 40],", "tokens: unknown,", True),            # no station bought
    ("cert_limit: {3: 8, 4: 7, 5: 6}", "cert_limit: unknown", True),
    ("KT:    {value: 40, revenue: 10}", "KT:    {value: 40, revenue: unknown}", False),
    ("bank: 3900", "bank: unknown", False),                        # no money at all
    ("  ledge: bottom", "  ledge: unknown", False),                # HER's drop after Ben's sale
    # the rule book's reading applies (§10.6.4: right), as the example's file says
    ("jr_half_dividend_move: right", "jr_half_dividend_move: unknown", True),
    ("revenue: {low: 30, middle: 50, high: 80}}", "revenue: {low: unknown, middle: unknown, "
                                                  "high: unknown}}", False),   # KRTR's half
])
def test_an_unknown_number_never_adds_a_finding(tmp_path, old, new, standings):
    """No false accusation: the example stays legal, its money checkpoints included, when a
    number becomes unknown; the checks needing it are skipped, and the standings are given
    only when every player's cash and every share price is still sure."""
    text = (EXAMPLES / "components-example.yaml").read_text(encoding="utf-8")
    assert old in text
    (tmp_path / "components-example.yaml").write_text(text.replace(old, new, 1),
                                                        encoding="utf-8")
    game = tmp_path / "game.18xx"
    game.write_text(GAME.read_text(encoding="utf-8"), encoding="utf-8")
    r = run(game)
    assert r.errors == []
    assert bool(r.standings) is standings


def test_the_complete_game_without_its_components_file():
    """The structure rules are still checked; every skipped kind is one info finding."""
    text = GAME.read_text(encoding="utf-8").replace("components: components-example.yaml\n", "")
    r = run(GAME, text=text)
    assert r.errors == []
    skipped = infos(r)
    assert skipped["train prices"].message == (
        "train prices not checked (15 actions): trains.\"2\".price is unknown "
        "(no components file)")
    assert "train counts" in skipped and "par values" in skipped
    assert skipped["private prices"].message.startswith("private prices not checked (2 actions)")
    assert skipped["2+2 routes (which stops are cities)"].message.startswith(
        "2+2 routes (which stops are cities) not checked (3 actions)")
    assert all(f.line == 1 for f in skipped.values())
    assert skipped["the auction's turns, prices and cash (the waterfall)"].message == (
        "the auction's turns, prices and cash (the waterfall) not checked (6 actions): "
        "companies.ARIMA.value is unknown (no components file)")
    assert skipped["train distances (3+3, D)"].message == (
        "train distances (3+3, D) not checked (5 actions): trains.\"3+3\".distance is unknown "
        "(no components file)")
    # (the rule book's readings apply; the minors' sale is left open)
    assert len(skipped) == 14
    assert r.standings == [] and [f.message for f in r.findings
                                  if f.rule == "kansai.unchecked"][0].startswith(
        "Kansai: money is not tracked (starting_cash is unknown): players' and companies' cash")
    # the structure rules need no number: turn order, conversions, JR's dividend
    for before, after, line, rule, message in [
        ("Aki buy KNR\nBen sell HER", "Ben sell HER\nAki buy KNR", 51, "turn.order",
         "Ben acted out of turn: it is Aki's turn in SR 2"),
        ("M2 buy train 3 for 180\nM2 convert", "M2 convert\nM2 buy train 3 for 180", 63,
         "kansai.conversion_early", "may convert into KNR from phase 2; this is phase 1+"),
        ("JR run 2 C9-D9 = 40\nJR half", "JR run 2 C9-D9 = 40\nJR payout", 77,
         "kansai.jr_full_dividend", "of Y40, Y20 to the treasury and Y20 to the shareholders"),
    ]:
        assert before in text
        changed = text.replace(before, after)
        first = run(GAME, text=changed).errors[0]
        assert (first.rule, first.line) == (rule, line), (rule, first)
        assert changed.splitlines()[line - 1] in after.splitlines()
        assert message in first.message


@pytest.mark.parametrize("before, after, rule, message", [
    ("OMS buy train D for 900", "OMS pass", "trains.must_own",
     "OMS ends its turn without a train; a company without one must buy one (O5)"),
    ("HER run 6 D7-D9-C9 = 280\nHER payout\nOMS run D",
     "HER run 6 D7-D9-C9 = 280\nHER payout\nHER buy train D exchange 6 for 650\nOMS run D",
     "trains.price", "a D costs Y900 less Y300 for the 6 traded in: Y600, not Y650 (F6)"),
    ("M2 buy train 3 for 180", "M2 buy train 3 for 150", "trains.price",
     "a 3-train costs Y180 from the depot, not Y150"),
    ("HER buy private ARIMA from Aki for 30", "HER buy private ARIMA from Aki for 45",
     "private.price", "ARIMA (face value Y20) is bought for Y10 to Y40, not Y45 (O6)"),
    ("JR lay 9 G8", "JR lay 9 G8\nJR lay 8 H8", "track.one_lay",
     "JR already laid 1 tile(s) this turn; the limit is 1 (JR from phase 4: one)"),
    ("Chie par JR 100", "Chie par JR 90", "kansai.jr_par", "JR's par value is Y100, not Y90"),
    ("Ben par OMS 90", "Ben par OMS 75", "stock.par_price",
     "Y75 is not a par value; the par cells are 70, 80, 90, 100"),
])
def test_numbers_of_the_components_file_are_checked(before, after, rule, message):
    text = GAME.read_text(encoding="utf-8")
    assert before in text
    changed = text.replace(before, after, 1)
    first = run(GAME, text=changed).errors[0]
    line = changed.splitlines()[first.line - 1]
    assert (first.rule, message in first.message) == (rule, True), first
    assert line in after.splitlines()


READINGS = {"end_on_bankruptcy": "full_or", "end_on_bank": "full_or",
            "ten_phases": "the tenth OR set", "minors_operate": "first",
            "minors_sold_in": "stock_round", "kanan_window": "K4",
            "jr_half_dividend_move": "none", "oms_float": "fifty_percent",
            "oms_area_only": "true", "krtr_fee_per": "once"}


def with_readings(tmp_path, **change):
    """The example game next to a copy of its components file whose rule-book readings
    are all settled (``change`` overrides some)."""
    text = (EXAMPLES / "components-example.yaml").read_text(encoding="utf-8")
    for key, value in {**READINGS, **change}.items():
        text = text.replace(f"  {key}: unknown", f"  {key}: {value}")
    (tmp_path / "components-example.yaml").write_text(text, encoding="utf-8")
    game = tmp_path / "game.18xx"
    game.write_text(GAME.read_text(encoding="utf-8"), encoding="utf-8")
    return game


def test_the_rule_book_readings_once_settled(tmp_path):
    r = run(with_readings(tmp_path))
    assert r.errors == []
    assert sorted(infos(r)) == ["routes and revenues on the map", "tile lay costs (terrain)",
                                "tile lays on the map (hex, colour, upgrade, connection)"]


@pytest.mark.parametrize("reading, value, rule, line, message", [
    ("minors_sold_in", "auction", "kansai.minor_sale_round", "Chie buy M2",
     "the minors are sold in the auction (rulebook.minors_sold_in), not in the stock round"),
    ("krtr_fee_per", "each_or", "kansai.krtr_not_paid",
     "KNR run 3 F10-C9-B7, 4 F10-G11-H13-H14 = 140",
     "KNR paid KRTR's fee in OR 3.1; the fee is paid every OR (rulebook.krtr_fee_per: "
     "each_or), not in OR 3.2"),
    ("kanan_window", "K4", None, None, None),
    ("kanan_window", "N1", None, None, None),
])
def test_a_rule_book_reading_decides_a_check(tmp_path, reading, value, rule, line, message):
    game = with_readings(tmp_path, **{reading: value})
    r = run(game)
    if rule is None:
        assert r.errors == []
        return
    first = r.errors[0]
    assert (first.rule, first.text) == (rule, line)
    assert game.read_text(encoding="utf-8").splitlines()[first.line - 1] == line
    assert message in first.message


def test_a_bankruptcy_ends_the_game_as_the_rule_book_says(tmp_path):
    text = GAME.read_text(encoding="utf-8").replace("\nSR 4\n", "Ben bankrupt\n\nSR 4\n")
    for timing, finished_at in (("immediate", "bankrupt"), ("full_or", "SR 5")):
        game = with_readings(tmp_path, end_on_bankruptcy=timing)
        game.write_text(text, encoding="utf-8")
        r = run(game)
        over = [f for f in r.errors if f.rule == "game.over"]
        assert r.end_reason == "bankrupt" and len(over) == 1
        # at once: the next action is after the end; after the set: the next SR's first
        assert over[0].text == "Chie buy OMS"       # SR 4's first action
        assert over[0].message.startswith("the game already ended (a player went bankrupt)")


@pytest.mark.parametrize("before, after, rule, line, message", [
    # A3: the minimum bid on a private is its face value + 5 (OMER: 120)
    ("Ben bid OMER 125", "Ben bid OMER 122", "auction.min_bid", "Ben bid OMER 122",
     "bid of Y122 is too low: OMER's face value is Y120, so the minimum bid is Y125"),
    # only the cheapest private is bought outright
    ("Chie buy KT", "Chie buy HKT", "auction.buy_not_cheapest", "Chie buy HKT",
     "only the cheapest private (KT at Y40) can be bought outright"),
    # the waterfall's turns
    ("Chie buy KT\nAki buy HKT", "Aki buy KT\nChie buy HKT", "turn.order", "Aki buy KT",
     "Aki acted out of turn: it is Chie's turn in the auction"),
    # A7: the priority goes left of the last buyer (Ben, OMER's one bidder): Chie starts SR 1
    ("SR 1\nChie buy M2\nChie par KNR 80\nAki buy M1", "SR 1\nAki buy M1\nChie buy M2\n"
     "Chie par KNR 80", "turn.order", "Aki buy M1", "Aki acted out of turn: it is Chie's turn in SR 1"),
])
def test_the_waterfall_auction_is_the_shared_one(before, after, rule, line, message):
    text = GAME.read_text(encoding="utf-8")
    assert before in text
    changed = text.replace(before, after, 1)
    first = run(GAME, text=changed).errors[0]
    assert (first.rule, first.text) == (rule, line)
    assert message in first.message


def test_the_auction_is_the_shared_waterfall_on_the_game():
    """Issue 25: 1890's auction is the shared ``WaterfallAuction`` played on the game itself
    (``Holdings``; its own table, ``AuctionTable``, went), with the game's hooks: the
    privates it sells (``auction_companies``: not the late privates KEF, KRTR, KOK, SEM nor
    M5's privatised company), prices paid and incomes received before the bank is counted
    (``sell_private_from_bank``, ``pay_private_income``: the ledger counts the bank when the
    auction ends).  Everybody passing after ARIMA is sold pays ARIMA's Y5 to Aki (A6)."""
    from railcheck.engine import Replay
    text = GAME.read_text(encoding="utf-8").replace(
        "Aki buy ARIMA\n", "Aki buy ARIMA\nBen pass\nChie pass\nAki pass\n", 1)
    record, _ = load_game(str(GAME), text=text)
    rp = Replay(record, hints=False)
    rp.begin()
    acts = record.actions
    sr1 = next(k for k, a in enumerate(acts) if getattr(a, "kind", None) == "SR")
    for k in range(5):                  # the auction marker, Aki's purchase, three passes
        rp.play(k)
    g = rp.game
    w = g.title.stock.waterfall
    assert w.game is g
    assert [c.sym for c in w.order] == ["ARIMA", "KT", "HKT", "HST", "KST", "OMER"]
    assert {"KEF", "KRTR", "KOK", "SEM", "M5"} <= set(g.companies)
    assert [(p.name, p.cash) for p in g.players] == [("Aki", 885), ("Ben", 900), ("Chie", 900)]
    for k in range(5, sr1 + 1):
        rp.play(k)
    assert [(p.name, p.cash) for p in g.players] == [("Aki", 825), ("Ben", 695), ("Chie", 760)]
    assert g.bank.cash == 3900 - 825 - 695 - 760 and g.findings == []


def test_the_first_private_drops_by_5_when_everybody_passes(tmp_path):
    """A6: everybody passes on ARIMA (20): its price drops to 15; Aki buys it at 15."""
    text = GAME.read_text(encoding="utf-8").replace(
        "auction\nAki buy ARIMA\n", "auction\nAki pass\nBen pass\nChie pass\nAki buy ARIMA\n")
    r = run(GAME, text=text)
    # legal; Aki paid 5 less, so the example's own money checkpoints of Aki are 5 short
    assert [(f.text, f.message.split(" (")[0]) for f in r.errors] == [
        ("check Aki cash 936", "Aki has Y941, the record says Y936"),
        ("check Aki worth 1676", "Aki is worth Y1681, the record says Y1676")]
    bad = text.replace("Chie pass\nAki buy ARIMA\n", "Chie pass\nAki bid ARIMA 20\n")
    first = run(GAME, text=bad).errors[0]
    assert (first.rule, first.text) == ("auction.buy_price", "Aki bid ARIMA 20")
    assert "ARIMA is the cheapest private and is bought at its price Y15, not Y20" in first.message


def test_a_wrong_checkpoint_is_found():
    """The engine's checkpoints (``Replay.checkpoint``) on 1890's game, in the engine's
    words; a cash checkpoint names the ledger's last movements (``Game.last_movements``)."""
    text = GAME.read_text(encoding="utf-8").replace("check KNR president Ben",
                                                    "check KNR president Chie")
    r = run(GAME, text=text)
    assert [(f.rule, f.message) for f in r.errors] == [
        ("checkpoint.mismatch", "the president of KNR is Ben, the record says Chie")]


# ---------------------------------------------------------------- the illegal examples

ILLEGAL = {
    # money (the components file's numbers)
    "order_by_share_price": (41, "turn.order", "JR (at Y100) operates before HER (at Y100)"),
    "bankrupt_not_needed": (146, "bankrupt.not_needed",
                            "Ben can raise Y1515 (KNR's treasury Y360, his cash Y670"),
    "emergency_sale_too_much": (147, "emergency.too_much",
                                "Ben sells more than needed: with Y670 after one share fewer he "
                                "could still add the Y540 KNR needs (B2)"),
    "cert_limit_exceeded": (38, "stock.cert_limit",
                            "Aki holds 9 certificates, over the limit of 8 for 3 players (SB5"),
    "holding_over_60": (35, "stock.holding_limit",
                        "Aki holds 70% of HER, over the 60% limit (SB4); HER's price Y70 is not "
                        "in the orange zone (SM2)"),
    "pool_over_50": (33, "stock.pool_limit",
                     "selling 20% of HER would put 60% in the pool, over the 50% limit"),
    "revenue_wrong": (35, "route.revenue",
                      "HER's runs are worth Y40 (the low values of their stops, F1), not the "
                      "Y50 claimed"),
    "train_over_cash": (32, "trains.cash", "M1 has Y70, a 3-train costs Y180"),
    "knr_capital_not_4_par": (66, "checkpoint.mismatch",
                              "KNR has Y370, the record says Y850 (the last movements: M2 "
                              "brought all its Y10 to KNR (all assets); KNR started: 4 x par Y80 "
                              "= Y320 to its treasury (K8)"),
    "jr_half_not_rounded": (75, "checkpoint.mismatch",
                            "JR has Y980, the record says Y965 (the last movements: JR floated: "
                            "10 x par Y100 to its treasury (SB3); JR bought a 2-train for Y60; JR "
                            "kept Y40 of Y50: half of Y50 rounded up to 20 (J2) (OR 2.1))"),
    "conversion_before_phase": (24, "kansai.conversion_early",
                                "M2 (Osaka Electric Railroad) may convert into KNR from phase 2; "
                                "this is phase 1"),
    "conversion_skipped": (34, "kansai.conversion_skipped",
                           "must convert into KNR from phase 2+; its turn in phase 2+ ended"),
    "knr_reserved_share": (22, "kansai.knr_reserved_share",
                           "only 4 KNR shares are for sale and 4 have been bought"),
    "jr_full_dividend": (35, "kansai.jr_full_dividend",
                         "(this is phase 1): it withholds or pays half; of Y50, Y40 to the "
                         "treasury and Y10 to the shareholders"),
    "jr_two_lays_one_hex": (26, "kansai.jr_two_lays_one_hex",
                            "second tile of the turn on C10, where it laid the first"),
    "late_private_before_3": (16, "kansai.late_private_early",
                              "KRTR is a late private: it may be bought once the first 3-train "
                              "is sold (phase 1, no 3-train sold yet)"),
    "krtr_ignored_unpaid": (37, "kansai.krtr_not_paid",
                            "HER runs through Kobe (C9) past Kobe Rapid Transit's station "
                            "without paying Y100"),
    "krtr_fee_not_100": (37, "kansai.krtr_not_paid",
                         "HER pays Y50 to ignore KRTR's station; the fee is Y100"),
    "free_hanshin_share_sold": (28, "kansai.free_share_sale",
                                "Ben's HER share is the free one of Hanshin Tramway: it may be "
                                "sold only once HER's president's certificate is bought"),
    "oms_before_phase_4": (26, "kansai.oms_early",
                           "Osaka Municipal Subway starts in phase 4; this is phase 1"),
    "oms_lay_unconnected": (81, "tile.connection",
                            "rotation 1 is not connected to OMS's network"),
    "run_through_full_city": (42, "route.blocked",
                              "train 4 runs through C13, whose slots are all filled by HER"),
    "station_in_kobe_after_krtr": (44, "token.full", "C9 city 0 is full (JR, KRTR)"),
    "two_plus_two_three_cities": (35, "kansai.train_2plus2",
                                  "this one through 3: Kobe (C9), Nishinomiya (D9), "
                                  "Osaka Kita (F10)"),
}


def test_every_illegal_example_is_listed():
    assert sorted(p.stem for p in (EXAMPLES / "illegal").glob("*.18xx")) == sorted(ILLEGAL)


@pytest.mark.parametrize("name", sorted(ILLEGAL))
def test_illegal_example_is_flagged_at_its_line(name):
    line, rule, text = ILLEGAL[name]
    path = EXAMPLES / "illegal" / f"{name}.18xx"
    r = run(path)
    assert r.errors, "not flagged"
    first = r.errors[0]
    assert (first.line, first.column, first.rule) == (line, 1, rule)
    assert text in first.message
    assert all(f.line == line for f in r.errors)
    # the first line of the file says where and why
    assert path.read_text(encoding="utf-8").startswith(f"# Illegal at line {line}: ")


# ---------------------------------------------------------------- rules show

def test_rules_show_says_which_numbers_come_from_the_components_file():
    res = CliRunner().invoke(main, ["rules", "show", "kansai"])
    assert res.exit_code == 0, res.output
    out = res.output
    assert out.startswith("1890: the railways of Kansai (Keihanshin)\n")
    assert "numbers: from the components file (none given" in out
    assert "unknown in the components file: 172 values: players.min, players.max, bank" in out
    assert "M4       Nara Electric Railway    phase 4" in out
    res = CliRunner().invoke(main, ["rules", "show", "kansai", "--components",
                                    str(EXAMPLES / "components-example.yaml")])
    assert "2+2      100      1          5" in res.output
    assert "KRTR       Kobe Rapid Transit Railways       80       none (L2)" in res.output
    assert "unknown in the components file: 12 values: map.hexes, map.tiles" in res.output
    res = CliRunner().invoke(main, ["rules", "show", "1830", "--components",
                                    str(EXAMPLES / "components-example.yaml")])
    assert res.exit_code == 2 and "1830 takes no components file" in res.output


def test_the_full_name_is_accepted_in_a_header(tmp_path):
    game = tmp_path / "g.18xx"
    game.write_text("title: Kansai (title line missing from the summary)\nplayers: A, B, C\n\n"
                    "auction\nA buy ARIMA\n\nSR 1\nB buy M2\n", encoding="utf-8")
    r = run(game)
    assert r.title == "1890" and r.errors == []


@pytest.mark.parametrize("before, after, rule, message", [
    # S2.1: privates change hands between players in a stock round at any price: legal,
    # and the money follows (Chie pays 5 and HKT's incomes, 2 x 10 and 3 x 5, are hers)
    ("SR 3\nChie buy KEF", "SR 3\nChie buy private HKT from Aki for 5\nChie buy KEF", None,
     ["Aki has Y906, the record says Y936", "Chie has Y610, the record says Y580",
      "Aki is worth Y1586, the record says Y1676"]),
    ("SR 3\nChie buy KEF", "SR 3\nChie buy private KT from Aki for 5\nChie buy KEF",
     "private.seller", "KT is held by Chie, not Aki"),
    ("SR 2\nChie buy KNR", "SR 2\nChie buy private OMER from Ben for 100\nChie buy KNR",
     "private.no_sale", "OMER may not be sold: OMER never changes hands (P7)"),
    ("SR 4\nChie buy OMS", "SR 4\nChie buy private KRTR from Aki for 10\nChie buy OMS",
     "private.no_sale", "KRTR may not be sold: a late private is never sold (L0)"),
    ("SR 4\nChie buy OMS", "SR 4\nChie buy private HKT from Aki for 10\nChie buy OMS",
     "private.no_sale", "HKT may not be sold: Hankai Tramway may no longer be sold from phase "
     "4 (P3)"),
    # P7: OMER's free upgrade of an Osaka tile besides OMS's own lay, once
    ("OMS lay 8 F12\n", "OMS lay 8 F12\nOMS lay 14 F10\n", None, []),
    ("OMS lay 8 F12\n", "OMS lay 8 F12\nOMS lay 14 F10\nOMS lay 15 G11\n", "track.one_lay",
     "OMS already laid 2 tile(s) this turn; the limit is 1"),
])
def test_private_trades_and_omer_upgrade(before, after, rule, message):
    text = GAME.read_text(encoding="utf-8")
    assert before in text
    r = run(GAME, text=text.replace(before, after, 1))
    if rule is None:        # legal; only the example's money checkpoints may now differ
        assert [f.message.split(" (")[0] for f in r.errors] == message
        return
    first = r.errors[0]
    assert (first.rule, message in first.message) == (rule, True), first
    assert first.text in after.splitlines()


def test_train_limits_and_discards():
    text = GAME.read_text(encoding="utf-8")
    # O5c: KNR over its limit of 2 after Nara converts must discard (the example does)
    r = run(GAME, text=text.replace("KNR discard 3\n", ""))
    first = r.errors[0]
    assert (first.rule, first.text) == ("trains.discard_required", "KNR withhold")
    assert first.line == 136        # the turn's last action, in the changed record
    assert "KNR ends its turn with 3 trains, over the limit of 2 in phase 4" in first.message
    # O5b: no voluntary discard
    r = run(GAME, text=text.replace("HER payout\n\nSR 3", "HER payout\nHER discard 2+2\n\nSR 3"))
    first = r.errors[0]
    assert (first.rule, first.text) == ("trains.discard", "HER discard 2+2")
    assert "HER owns 1 trains, within the limit of 4; a company may not discard" in first.message


def test_validate_on_the_command_line():
    res = CliRunner().invoke(main, ["validate", str(GAME)])
    assert res.exit_code == 0, res.output
    assert f"{GAME}: 1890, 3 players, 157 actions, game over: bank broken — legal" in res.output
    assert f"{GAME}:8:1: info [components.unknown] routes and revenues on the map not checked " \
           "(26 actions)" in res.output
    res = CliRunner().invoke(main, ["validate", str(EXAMPLES / "illegal")])
    assert res.exit_code == 1
    assert res.output.count("error [kansai.") == 11


def test_the_player_count_is_the_components_files(tmp_path):
    game = tmp_path / "two.18xx"
    game.write_text(f"title: kansai\nplayers: Aki, Ben\n"
                    f"components: {EXAMPLES / 'components-example.yaml'}\n", encoding="utf-8")
    r = run(game)
    assert [(f.rule, f.line, f.message) for f in r.errors] == [
        ("setup.players", 2, "2 players; the components file says 3 to 5")]


def test_hanshin_floats_with_four_shares_bought():
    """C1: the free share from Hanshin Tramway counts: the president's certificate and two
    shares bought (four shares) float HER; one share fewer does not."""
    text = GAME.read_text(encoding="utf-8")
    assert run(GAME, text=text).errors == []
    fewer = text.replace("Aki buy HER\nBen buy HER\n", "Aki buy HER\nBen pass\n", 1)
    first = run(GAME, text=fewer).errors[0]
    assert (first.rule, first.text) == ("or.not_floated", "HER lay 7 D8")
    assert first.message == "HER has not floated: 40% sold, 50% needed"


def test_a_partial_map_is_said_to_be_unread(tmp_path):
    """A map without its tiles: the map's checks are not made, and the report says which
    key is missing rather than seeming to check it."""
    text = (EXAMPLES / "components-example.yaml").read_text(encoding="utf-8")
    text = text.replace("  hexes: unknown", "  hexes: {C9: {city: 30}}")
    (tmp_path / "components-example.yaml").write_text(text, encoding="utf-8")
    game = tmp_path / "game.18xx"
    game.write_text(GAME.read_text(encoding="utf-8"), encoding="utf-8")
    r = run(game)
    assert infos(r)["routes and revenues on the map"].message == (
        "routes and revenues on the map not checked (26 actions): map.tiles is unknown "
        f"({tmp_path / 'components-example.yaml'})")


BOARD_MAP = """\
  hexes:
    C9: {name: Kobe, color: yellow, cities: [{revenue: 30, slots: 2}], paths: [[4, c0]]}
    C11: {color: white, cost: 40}
    C13: {color: white}
    C15: {color: white}
    D9: {name: Nishinomiya, color: white, cities: [{revenue: 0, slots: 1}]}
  tiles:
    "9": {color: yellow, count: 2, paths: [[0, 3]]}
    "14": {color: green, count: 1, cities: [{revenue: 30, slots: 2}], paths: [[0, c0], [1, c0], [3, c0], [4, c0]]}
"""

BOARD_GAME = """\
title: kansai
players: Aki, Ben, Chie
components: components.yaml

auction
Aki buy ARIMA
Ben buy KT
Chie buy HKT
Aki buy HST
Ben buy KST
Chie buy OMER

SR 1
Aki pass
Ben pass
Chie par JR 100
Aki buy JR
Ben buy JR
Chie buy JR
Aki pass
Ben pass
Chie pass

OR 1.1
JR lay 9 C11
JR lay 9 C13
JR buy train 2 for 60
check JR treasury 900
"""


@pytest.mark.parametrize("before, after, rule, message", [
    (None, None, None, None),
    ("JR lay 9 C11\nJR lay 9 C13", "JR lay 9 C13\nJR lay 9 C11", "tile.connection", "C13"),
    ("JR lay 9 C11", "JR lay 14 C11", "tile.color", "14"),
    ("JR lay 9 C13", "JR lay 9 K99", "tile.hex", "K99"),
])
def test_the_components_files_map_checks_the_lays(tmp_path, before, after, rule, message):
    """O1, F2 on the shared board built from map.layout, map.hexes and map.tiles: JR's home in
    Kobe (C9), its two lays (J3) connected to it, the first paying C11's terrain (Y40), so JR
    has Y900 after its Y60 2-train; a lay off its network, of a green tile in phase 1, or off
    the map is flagged (and refused: the map stays as it was)."""
    text = (EXAMPLES / "components-example.yaml").read_text(encoding="utf-8")
    text = text.replace("  hexes: unknown\n", "").replace("  tiles: unknown\n", BOARD_MAP)
    (tmp_path / "components.yaml").write_text(text, encoding="utf-8")
    game = tmp_path / "game.18xx"
    record = BOARD_GAME if before is None else BOARD_GAME.replace(before, after)
    game.write_text(record, encoding="utf-8")
    r = run(game)
    if rule is None:
        assert r.errors == []
        assert "tile lays on the map (hex, colour, upgrade, connection)" not in infos(r)
        assert "tile lay costs (terrain)" not in infos(r)
        return
    first = r.errors[0]
    assert first.rule == rule and message in first.message, first
    assert first.text in after.splitlines()


def test_a_map_the_board_cannot_read_is_said(tmp_path):
    text = (EXAMPLES / "components-example.yaml").read_text(encoding="utf-8")
    text = text.replace("  hexes: unknown\n", "").replace(
        "  tiles: unknown\n", BOARD_MAP.replace("[[0, 3]]", "[[0, 9]]"))
    (tmp_path / "components.yaml").write_text(text, encoding="utf-8")
    game = tmp_path / "game.18xx"
    game.write_text(BOARD_GAME, encoding="utf-8")
    r = run(game)
    assert r.errors == []
    assert infos(r)["tile lays on the map (hex, colour, upgrade, connection)"].message.startswith(
        "tile lays on the map (hex, colour, upgrade, connection) not checked (2 actions): the "
        "components file's map cannot be read (")


LAID = ["C10", "D10", "E10", "E9", "E8", "F8", "G8", "D8", "D11", "B9", "F12"]


def with_hexes(tmp_path, hexes: str, tiles: str = "unknown", layout: str = "pointy"):
    text = (EXAMPLES / "components-example.yaml").read_text(encoding="utf-8")
    text = text.replace("  hexes: unknown", f"  hexes: {hexes}").replace(
        "  tiles: unknown", f"  tiles: {tiles}").replace("  layout: pointy", f"  layout: {layout}")
    (tmp_path / "components-example.yaml").write_text(text, encoding="utf-8")
    game = tmp_path / "game.18xx"
    game.write_text(GAME.read_text(encoding="utf-8"), encoding="utf-8")
    return game


def test_terrain_and_nishinomiya_from_the_map(tmp_path):
    """O1c: a first lay pays its hex's terrain cost from map.hexes (HER: Y40 on D8), an
    upgrade nothing; C2: HER runs through Nishinomiya (D9), printed brown here, in OR 4.2
    and 4.3: Y10 each time.  No lay's cost is then unknown."""
    hexes = "{" + ", ".join(f"{h}: {{color: white" + (", cost: 40" if h == "D8" else "") + "}"
                            for h in LAID) + ", D9: {color: brown}}"
    r = run(with_hexes(tmp_path, hexes))
    assert r.errors == []
    assert {c["company"]: c["treasury"] for c in r.companies}["HER"] == 361 - 40 + 2 * 10
    assert "tile lay costs (terrain)" not in infos(r)
    assert "Hanshin's 10 at a brown Nishinomiya (the tile's colour)" not in infos(r)
    # a terrain cost over the treasury: flagged at the lay, taken as paid
    r = run(with_hexes(tmp_path, hexes.replace("cost: 40", "cost: 1200")))
    first = r.errors[0]
    assert (first.rule, first.text, first.message) == (
        "track.cost", "HER lay 7 D8", "HER has Y1000, the terrain of D8 costs Y1200")


def test_nishinomiya_s_colour_from_the_tile_laid_there(tmp_path):
    """C2 with the tile manifest: a brown tile laid on D9 gives HER its 10; a green one not."""
    game_text = GAME.read_text(encoding="utf-8").replace(
        "HER buy train 6 for 630\n", "HER lay 63 D9\nHER buy train 6 for 630\n")
    hexes = "{" + ", ".join(f"{h}: {{color: white}}" for h in LAID + ["D9"]) + "}"
    for color, bonus in (("brown", 20), ("green", 0)):
        # (no layout: no board is built, the tiles' colours are still read)
        game = with_hexes(tmp_path, hexes, tiles=f'{{"63": {{color: {color}}}}}', layout="unknown")
        game.write_text(game_text, encoding="utf-8")
        r = run(game)
        assert r.errors == []
        assert {c["company"]: c["treasury"] for c in r.companies}["HER"] == 361 + bonus


@pytest.mark.parametrize("before, after, rule, message", [
    ("M1 run 2 H14-H13 = 30\nM1 payout\nM2", "M1 run 2 H14-H13-G12 = 30\nM1 payout\nM2",
     "route.distance", "a 2-train runs through 2 places, not 3 (O3)"),
    ("JR run 3+3 C9-D9-E11 = 60\nJR withhold", "JR run 3+3 C9-D9-E11-F10 = 60\nJR withhold",
     "route.distance", "a 3+3 runs through 6 places, at most 3 of them cities; this one through "
                       "4, 4 cities (O3)"),
    ("M4 run 3 I13-I12-I7 = 80\nM4 payout\nJR lay", "M4 run 3 I13-I12-I13 = 80\nM4 payout\n"
     "JR lay", "route.repeat_stop", "a run visits I13 twice (O3)"),
])
def test_how_far_a_train_runs(before, after, rule, message):
    text = GAME.read_text(encoding="utf-8")
    assert before in text
    first = run(GAME, text=text.replace(before, after, 1)).errors[0]
    assert (first.rule, message in first.message) == (rule, True), first
    assert first.text in after.splitlines()


def test_a_second_run_or_dividend_in_one_turn():
    """O3, O4: a company runs its trains once a turn and decides its dividend once; the
    second is flagged and ignored (the payout is not paid twice)."""
    text = GAME.read_text(encoding="utf-8")
    assert run(GAME, text=text).errors == []
    twice = text.replace("M1 run 2 H14-H13 = 30\nM1 payout\n",
                         "M1 run 2 H14-H13 = 30\nM1 payout\nM1 payout\n", 1)
    errors = run(GAME, text=twice).errors
    assert [(e.rule, e.text, e.message) for e in errors] == [
        ("dividend.twice", "M1 payout", "M1 already decided its dividend this turn (O4); this "
                                        "one is ignored")]
    again = text.replace("M1 run 2 H14-H13 = 30\nM1 payout\n",
                         "M1 run 2 H14-H13 = 30\nM1 payout\nM1 run 2 H14-H13 = 30\n", 1)
    errors = run(GAME, text=again).errors
    assert [(e.rule, e.text) for e in errors] == [("route.twice", "M1 run 2 H14-H13 = 30")]


def test_trains_in_the_pool():
    """O5c, F6: a discarded train goes to the pool, where another company may buy it; a train
    the pool does not hold cannot be bought from it."""
    text = GAME.read_text(encoding="utf-8")
    # KNR discarded a 3 in OR 4.1; JR buys it from the pool before the 6 scraps the 3s
    ok = text.replace("JR lay 9 G8\n", "JR lay 9 G8\nJR buy train 3 from pool for 100\n", 1)
    assert run(GAME, text=ok).errors == []
    bad = text.replace("JR lay 9 G8\n", "JR lay 9 G8\nJR buy train 4 from pool for 100\n", 1)
    first = run(GAME, text=bad).errors[0]
    assert (first.rule, first.text, first.message) == (
        "trains.not_available", "JR buy train 4 from pool for 100", "the pool holds no 4-train")


def test_show_at_a_round(tmp_path):
    """The money at a point (the incomes of OR 2.1 are paid at its marker); without the
    components file, none."""
    res = CliRunner().invoke(main, ["show", str(GAME), "--at", "OR 2.1"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0] == f"{GAME} at the start of OR 2.1: OR 2.1, phase 1+, bank Y725"
    # Ben's privates: OMER and HST (200) and his minors at their face value (§13: M3 100,
    # M4 160)
    assert "     1  Ben         Y315      Y410        Y460       Y1,185" in lines
    assert any(line.startswith("KNR            Y80          Y0  -") for line in lines)
    game = tmp_path / "game.18xx"
    game.write_text(GAME.read_text(encoding="utf-8").replace(
        "components: components-example.yaml\n", ""), encoding="utf-8")
    res = CliRunner().invoke(main, ["show", str(game), "--at", "OR 2.1"])
    assert res.output == (f"{game} at the start of OR 2.1: OR 2.1, phase 1+; no money or board "
                          f"position is kept for 1890 here (see its 'info' findings)\n")


def test_a_ruleset_file_cannot_extend_kansai(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text("extends: kansai\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["rules", "show", str(path)])
    assert res.exit_code == 2
    assert (f"{path}:1:10: extends: 1890 takes its numbers from a components file "
            "(docs/1890-components.md); a ruleset file cannot extend it") in res.output


def test_the_number_of_operating_rounds_per_set():
    """F3, O0: phase 1 has one OR per set, 2 two, 4 three."""
    text = GAME.read_text(encoding="utf-8")
    extra = text.replace("\nSR 2\n", "\nOR 1.2\n\nSR 2\n", 1)
    first = run(GAME, text=extra).errors[0]
    assert (first.rule, first.text, first.message) == (
        "round.marker", "OR 1.2", "the record says 'OR 1.2' here, but phase 1 has 1 OR(s) per "
                                  "set (F3)")
    start, end = text.index("OR 3.2\n"), text.index("SR 4\n")
    missing = text[:start] + text[end:]
    first = run(GAME, text=missing).errors[0]
    assert (first.rule, first.text, first.message) == (
        "round.skipped", "SR 4", "1 OR(s) were played after SR 3; the set has 2 in phase 2+ (F3)")


def test_the_rules_sequence_of_rounds_checks_the_records_markers():
    """The rounds by the rules' sequence (``TitleKansai.rules_next_round``): after the auction a
    stock round, after it the set of ORs its phase gives (F3, O0), numbered by the stock round;
    each of the complete game's markers is the round the rules make there, and a marker the
    rules do not make is one finding (the rule book's "Game Rounds": one stock round followed
    by 1 to 3 operating rounds): the rules' round played when the record goes on with it, else
    the marker's as written."""
    from railcheck.actions import RoundMarker
    from railcheck.engine import Replay
    from railcheck.titles.kansai.rounds import marker_label
    record, _ = load_game(str(GAME))
    rp = Replay(record, hints=False)
    rp.begin()
    pairs = []
    for k, action in enumerate(record.actions):
        if isinstance(action, RoundMarker) and action.kind != "auction":
            pairs.append((marker_label(action), marker_label(rp.game.title.rules_next_round())))
        rp.play(k)
    assert [want for _, want in pairs] == ["SR 1", "OR 1.1", "SR 2", "OR 2.1", "SR 3", "OR 3.1",
                                           "OR 3.2", "SR 4", "OR 4.1", "OR 4.2", "OR 4.3"]
    assert all(marked == want for marked, want in pairs)
    text = GAME.read_text(encoding="utf-8")
    # a marker naming another kind of round, the record going on with the rules' round: the
    # marker is the slip, one finding, and the rules' round is played (the record's lines
    # were 86, 29 and 23 findings more, each taken in the marker's round)
    cases = [("\nSR 1\n", "\nOR 1.1\n", 19, "the record says 'OR 1.1' here, but the rules make "
              "this SR 1 (a stock round follows the auction), and the record goes on with its "
              "players: taken as SR 1"),
             ("\nOR 3.2\n", "\nSR 4\n", 111, "the record says 'SR 4' here, but the rules make "
              "this OR 3.2 (phase 2+ has 2 OR(s) per set, F3), and the record goes on with its "
              "companies: taken as OR 3.2"),
             ("\nSR 3\n", "\nOR 2.2\n", 84, "the record says 'OR 2.2' here, but the rules make "
              "this SR 3 (phase 1+ has 1 OR(s) per set, F3), and the record goes on with its "
              "players: taken as SR 3")]
    for was, written, line, message in cases:
        res = run(GAME, text=text.replace(was, written, 1))
        assert [(e.rule, e.line, e.message) for e in res.errors] == [
            ("round.marker", line, message)]
    # the auction again: one finding, the marker changes nothing (it ended the auction a
    # second time, its priority a turn.order at the next stock round's third line)
    errors = run(GAME, text=text.replace("\nSR 2\n", "\nauction\n\nSR 2\n", 1)).errors
    assert [(e.rule, e.line, e.message) for e in errors] == [
        ("round.marker", 50, "the record says 'auction' here, but the privates' auction is "
                             "played once, before the first stock round: the marker is ignored "
                             "(OR 1.1 goes on)")]


def test_a_stock_round_ends_when_everybody_passed():
    """S2.2: a player who passed may act again, until every player passed in a row."""
    text = GAME.read_text(encoding="utf-8")
    again = text.replace("Chie pass\nAki pass\nBen pass\n\nOR 2.1",
                         "Chie pass\nAki pass\nBen pass\nChie buy JR\n\nOR 2.1", 1)
    r = run(GAME, text=again)
    first = r.errors[0]
    # the round ends at the third pass (the shared turn_action), and is taken up again as the
    # record has it (the shared StockFollower's wording; the priority its end gave, left of
    # Ben, put back): after Chie's purchase the priority goes left of her, to Aki (S3.1)
    assert (first.rule, first.text, first.message) == (
        "round.continues", "Chie buy JR", "SR 2 ended by the rules (every player passed in a "
                                          "row), but the record goes on with it: Chie's 'buy' "
                                          "is taken as part of it")


def test_the_engines_loop_replays_1890_with_the_records_rounds():
    """Issue 25, piece d2: the engine's ``Replay`` is 1890's loop, on the title's game
    (``Holdings``) with the record-following layer's hook for a record whose rounds are its
    own (``RecordRounds1890``): each marker begins the round it names (SR 3 gives two ORs in
    phase 3), the analyser sees each round end in the record's order, and the purity
    snapshot pictures the title object's own state (its flags, the record's rounds, the
    ledger's books), not the game and rounds it names (``not_state``)."""
    from railcheck.engine import Replay
    from railcheck.snapshot import state_snapshot
    from railcheck.titles.kansai.holdings import Holdings
    from railcheck.titles.kansai.rounds import RecordRounds1890
    record, _ = load_game(str(GAME))
    rp = Replay(record)
    ended = []
    rp.on_round_end = lambda game, rnd: ended.append(rnd.label)
    res = rp.run()
    assert isinstance(rp.game, Holdings) and isinstance(rp.rounds, RecordRounds1890)
    assert ended == ["auction", "SR 1", "OR 1.1", "SR 2", "OR 2.1", "SR 3", "OR 3.1", "OR 3.2",
                     "SR 4", "OR 4.1", "OR 4.2"]
    assert (res.finished, res.end_reason, res.round, len(res.errors)) == (True, "bank", "OR 4.3", 0)
    title = state_snapshot(rp.game)["title"]
    st = title["state"]
    assert (st["sr_number"], st["ors_in_set"], st["kind"]) == (4, 3, "OR")
    assert "knr_started" in st and "capitalised" in st and st["ledger"] == {}
    # the ledger's books are the game's (``Holdings``), pictured with it
    own = state_snapshot(rp.game)["own"]
    assert own["marked"] == ["KNR", "OMS", "JR", "HER"] and own["money_started"] is True
    assert not {"holdings", "replayer", "findings"} & set(title)
    assert not {"operating", "auction"} & set(st) and "bids" in st["stock"]
    assert not {"r", "h", "st"} & set(st["ledger"]) and "round" not in st["stock"]


def test_the_look_aheads_save_and_restore_cover_1890s_whole_state():
    """Issue 25: everything a 1890 replay changes beyond the game's objects is the title's
    ``state`` (``State1890``: the flags, the record's round and its counters, the ledger's
    books, the rounds the markers begin), so the look-ahead's save (the game's ``__dict__``
    and ``title.state``, in one copy) and restore put back all of it, and the game and the
    title name the same ledger and round afterwards (before, the title object kept its own
    ledger, counters and rounds, and a restore left them apart from the game's)."""
    from railcheck.engine import Replay
    from railcheck.following.lookahead import restore, save
    from railcheck.snapshot import state_snapshot
    record, _ = load_game(str(GAME))
    rp = Replay(record, hints=False)
    rp.begin()
    acts = record.actions
    first_or = next(k for k, a in enumerate(acts) if getattr(a, "kind", None) == "OR")
    for k in range(first_or + 3):               # into OR 1.1: M1 and M2 bought a 2-train
        rp.play(k)
    g, title = rp.game, rp.game.title
    saved, before = save(rp), state_snapshot(g)
    assert (title.sr_number, title.round_label, g.bank.cash, title.ledger.get("M2")) == (
        1, "OR 1.1", 310, 140)
    # the ledger's books are the game's (session k14): M2's last movements, the markers' order
    m2 = ["M2 starts with its capital Y200", "M2 bought a 2-train for Y60"]
    assert g.last_movements("M2") == m2 and g.marked == ["KNR", "OMS", "JR", "HER"]
    for k in range(first_or + 3, first_or + 60):   # on to OR 3.1, M2 converted into KNR
        rp.play(k)
    assert (title.sr_number, title.round_label, g.bank.cash, title.ledger.get("M2")) == (
        3, "OR 3.1", 840, 0)
    assert g.last_movements("M2")[-1].startswith("M2 brought all its")
    restore(rp, saved)
    assert state_snapshot(g) == before
    assert (title.sr_number, title.round_label, g.bank.cash, title.ledger.get("M2")) == (
        1, "OR 1.1", 310, 140)
    assert g.last_movements("M2") == m2
    assert g.ledger is title.ledger and g.round is title.operating
    assert title.ledger.st is title.state and title.stock.round.game is g


def _doubled(lines: list, numbers: list) -> str:
    for n in sorted(numbers, reverse=True):
        lines.insert(n, lines[n - 1])
    return "\n".join(lines) + "\n"


def test_the_purity_check_proves_1890s_refusals_change_nothing():
    """A refusal changes nothing in 1890 too: its rounds flag a step's refusal themselves
    and go on, and ask the engine's replay to picture the state around it
    (``Replay.purity_before`` / ``purity_after``, as the loop does around a round's
    ``process``), title state included.  The complete game with three lines written twice:
    a private bought again in the auction (A2), a par set again (SB1), a second run (O3)."""
    from railcheck.engine import Replay
    lines = GAME.read_text(encoding="utf-8").splitlines()
    assert (lines[11], lines[23], lines[106]) == (
        "Aki buy ARIMA", "Ben par OMS 90",
        "KNR run 3 F10-C9-B7 (80), 2 G11-H13 (20) = 100")
    record, _ = load_game(str(GAME), text=_doubled(lines, [12, 24, 107]))
    rp = Replay(record, check_purity=True, hints=False)
    rp.run()
    assert [(a.line, kind, rule) for a, kind, rule in rp.refusals] == [
        (13, "auction", "auction.sold"), (26, "SR", "stock.par_twice"),
        (110, "OR", "route.twice")]
    assert rp.impure == []
