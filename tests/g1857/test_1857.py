"""1857: a title derived from 1830 (railcheck/titles/g1857/rules.yaml).

The ruleset and its differences, the choose-and-bid auction, player order by
cash, floating at 50%, home stations on the map from the start, the train
roster and its option, each illegal example flagged at its line with its
rule, and the complete example game legal to the dollar."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from railcheck.actions import Route, Stop
from railcheck.cli import main
from railcheck.engine import Replay
from railcheck.game import Game
from railcheck.loader import load_game
from railcheck.rulesinfo import differences
from railcheck.ruleset import Ruleset, _resolve, load_ruleset

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "1857"
GAME = EXAMPLES / "game.18xx"
ILLEGAL = EXAMPLES / "illegal"

HEADER = "title: 1857\nplayers: Alice, Bob, Carol, Dave\n"

# the auction of the complete example (examples/1857/game.18xx)
AUCTION = """
auction
Alice choose CA
Bob bid CA 165
Carol pass
Dave bid CA 175
Alice bid CA 180
Bob pass
Dave pass
Alice choose SV
Bob pass
Carol bid SV 25
Dave pass
Alice pass
Carol choose BO
Dave pass
Alice pass
Bob bid BO 225
Carol pass
Bob par B&O 100
Bob choose MH
Carol pass
Dave bid MH 115
Alice pass
Bob pass
Dave choose DH
Alice pass
Bob pass
Carol bid DH 75
Dave bid DH 80
Carol pass
Dave choose CS
Alice pass
Bob pass
Carol pass
"""


def run(text: str, path: str = "t.18xx", rules=None, **kw):
    record, read_findings = load_game(path, text)
    assert read_findings == []
    return Replay(record, rules, **kw).run()


def rules_patched(**sections):
    """The 1857 ruleset with some sections changed (key by key)."""
    data, marks = _resolve("1857")
    data = copy.deepcopy(data)
    for key, value in sections.items():
        data[key] = {**data.get(key, {}), **value}
    return Ruleset("1857", data, marks, [])


def errors(result):
    return [f for f in result.findings if f.severity == "error"]


def line_of(text: str, content: str, occurrence: int = -1) -> int:
    hits = [i for i, l in enumerate(text.split("\n"), 1) if l.strip() == content]
    assert hits, content
    return hits[occurrence]


# ---------------------------------------------------------------------------
# the ruleset

def test_1857_extends_1830_and_overrides_only_what_differs():
    r = load_ruleset("1857")
    base = load_ruleset("1830")
    assert r.extends == "1830"
    # the behaviour that differs is the title class's: its auction and stock rounds
    from railcheck.game import Game
    from railcheck.rounds.auction_choose import ChooseAndBidAuction
    from railcheck.titles import TITLES
    from railcheck.titles.g1830 import Title1830
    assert issubclass(TITLES["1857"], Title1830) and TITLES["1857"] is not Title1830
    g = Game(r, ["A", "B", "C"], check_board=False)
    assert isinstance(g.title.auction_round(), ChooseAndBidAuction)
    assert r.stock["next_sr_order"] == "cash" and base.stock["next_sr_order"] == "after_last_to_act"
    assert r.raw["setup"] == {"home_stations_at_start": True, "start_station": "home",
                              "deal_companies": False}
    assert r.stock["sell_after"] == "first_and_operate"
    assert {c.float_percent for c in r.corporations} == {50}
    assert {c.float_percent for c in base.corporations} == {60}
    # "auction!" replaced 1830's section: the waterfall's drop is back at its default, 0
    assert {k: r.auction[k] for k in ("min_increment", "opening_bid", "after",
                                      "price_drop_on_all_pass")} == \
        {"min_increment": 5, "opening_bid": "face", "after": "order_by_cash",
         "price_drop_on_all_pass": 0}
    assert base.auction["price_drop_on_all_pass"] == 5
    # inherited unchanged from 1830
    for attr in ("bank", "starting_cash", "cert_limit", "market_rows", "company_sales",
                 "end"):
        assert getattr(r, attr) == getattr(base, attr), attr
    assert [(c.sym, c.home, c.tokens) for c in r.corporations] == \
        [(c.sym, c.home, c.tokens) for c in base.corporations]
    assert [(c.sym, c.value, c.revenue) for c in r.companies] == \
        [(c.sym, c.value, c.revenue) for c in base.companies]
    assert [(p.name, p.train_limit, p.operating_rounds, p.company_buy) for p in r.phases] == \
        [(p.name, p.train_limit, p.operating_rounds, p.company_buy) for p in base.phases]
    assert [p.name for p in r.phases if p.company_buy] == ["3", "4"]
    d = r.train_by_name["D"]
    assert (d.price, d.count, d.exchange) == (1100, 6, {"trains": ["4", "5", "6"],
                                                           "discount": 300})


def test_roster_defaults_to_the_setup_list_and_the_option_gives_the_phase_table():
    counts = {t.name: t.count for t in load_ruleset("1857").trains}
    assert counts == {"2": 5, "3": 4, "4": 3, "5": 2, "6": 2, "D": 6}
    opt = {t.name: t.count for t in load_ruleset("1857", ["phase_table_roster"]).trains}
    assert opt == {"2": 6, "3": 5, "4": 4, "5": 3, "6": 2, "D": 6}
    assert opt == {**{t.name: t.count for t in load_ruleset("1830").trains}, "D": 6}
    g = Game(load_ruleset("1857"), ["A", "B", "C"], check_board=False)
    assert sum(1 for t in g.trains if t.name == "2") == 5
    g = Game(load_ruleset("1857", ["phase_table_roster"]), ["A", "B", "C"], check_board=False)
    assert sum(1 for t in g.trains if t.name == "2") == 6
    # 1830's optional third 6-train is not an 1857 option
    assert set(load_ruleset("1857").option_specs) == {"phase_table_roster", "start_station_extra",
                                                       "multiple_brown_from_ipo"}


def test_rules_show_lists_the_differences_from_1830():
    lines = differences("1857")
    keys = [l.split(":")[0] for l in lines]
    assert keys == ["auction", "operating", "options", "setup", "stock", "trains"]
    assert all(not l.endswith(": changed") for l in lines)
    out = CliRunner().invoke(main, ["rules", "show", "1857"])
    assert out.exit_code == 0
    text = out.output
    assert "extends 1830" in text
    assert "differences from 1830:" in text
    for line in lines:
        assert f"  - {line}" in text
    assert "setup: every home station is on the map from the start" in text
    assert "rounds: choose-and-bid auction of the privates, then stock rounds" in text
    opt = CliRunner().invoke(main, ["rules", "show", "1857", "--option", "phase_table_roster"])
    assert opt.exit_code == 0
    assert re.search(r"^2\s+2\s+\$80\s+6\s", opt.output, re.M)
    assert re.search(r"^2\s+2\s+\$80\s+5\s", text, re.M)
    listing = CliRunner().invoke(main, ["rules", "list"])
    assert re.search(r"^1857\s.*\s1830$", listing.output, re.M)


# ---------------------------------------------------------------------------
# the auction

def test_auction_cash_and_player_order_by_cash():
    res = run(HEADER + AUCTION)
    assert errors(res) == []
    g = res.game
    assert res.round == "SR 1"
    cash = {p.name: p.cash for p in g.players}
    # Alice: CA 180; Bob: BO 225; Carol: SV 25; Dave: MH 115 + DH 80 + CS 40
    assert cash == {"Alice": 420, "Bob": 375, "Carol": 575, "Dave": 365}
    assert g.bank.cash == 12000 - 4 * 600 + 180 + 25 + 225 + 115 + 80 + 40
    owners = {c.sym: c.owner.name for c in g.companies.values()}
    assert owners == {"SV": "Carol", "CS": "Dave", "DH": "Dave", "MH": "Dave", "CA": "Alice",
                      "BO": "Bob"}
    # most cash gets card 1
    assert [p.name for p in g.seat_order] == ["Carol", "Alice", "Bob", "Dave"]
    assert g.priority.name == "Carol"
    # the privates' free shares: CA gives a PRR share, BO the B&O presidency (par set)
    prr, bo = g.corporations["PRR"], g.corporations["B&O"]
    assert prr.percent_of(g.player_by_name["Alice"]) == 10
    assert bo.president.name == "Bob" and bo.percent_of(g.player_by_name["Bob"]) == 20
    assert bo.par.price == 100


def test_the_winner_chooses_the_next_private():
    text = HEADER + """
auction
Alice choose SV
Bob pass
Carol pass
Dave pass
Bob choose CS
"""
    res = run(text)
    (f,) = errors(res)
    assert (f.line, f.rule) == (line_of(text, "Bob choose CS"), "auction.chooser")
    assert f.message == ("Bob may not choose the next private: it is Alice's choice "
                         "(Alice won SV and chooses the next private)")


def test_a_pass_is_final_bids_rise_by_the_increment_and_cash_limits_bids():
    text = HEADER + """
auction
Alice choose CS 45
Bob bid CS 47
Bob bid CS 50
Carol pass
Dave bid CS 55
Carol bid CS 60
Alice bid CS 700
Alice pass
Bob pass
check Dave cash 545
"""
    res = run(text)
    found = [(f.line, f.rule, f.message) for f in errors(res)]
    assert found == [
        (line_of(text, "Bob bid CS 47"), "auction.min_bid",
         "bid of $47 is too low: the high bid on CS is $45 (Alice), so the minimum bid is $50"),
        (line_of(text, "Carol bid CS 60"), "auction.passed",
         "Carol passed on CS and may not bid on it again"),
        (line_of(text, "Alice bid CS 700"), "auction.cash",
         "Alice bids $700 on CS but has $600"),
    ]
    g = res.game
    assert g.companies["CS"].owner.name == "Dave"
    # Dave won: he chooses next
    assert g.round.chooser.name == "Dave" and g.round.lot is None


def test_opening_bid_at_least_face_value_and_no_pick_during_an_auction():
    text = HEADER + """
auction
Alice choose DH 60
Alice choose DH 70
Bob choose SV
Bob pass
Carol pass
Dave pass
Alice pass
"""
    res = run(text)
    found = [(f.line, f.rule) for f in errors(res)]
    assert found == [(line_of(text, "Alice choose DH 60"), "auction.min_bid"),
                     (line_of(text, "Bob choose SV"), "auction.in_progress"),
                     (line_of(text, "Alice pass"), "auction.must_choose")]
    assert "below its face value of $70" in errors(res)[0].message
    assert res.game.companies["DH"].owner.name == "Alice"
    assert res.game.player_by_name["Alice"].cash == 530


def test_bidding_goes_round_from_the_player_after_the_chooser():
    text = HEADER + """
auction
Carol choose SV
"""
    res = run(text)
    (f,) = errors(res)
    assert f.rule == "auction.chooser"     # Alice, the first of the drawn order, chooses first
    text = HEADER + """
auction
Alice choose MH
Carol bid MH 115
"""
    res = run(text)
    (f,) = errors(res)
    assert (f.rule, f.message) == ("turn.order", "Carol acted out of turn: it is Bob's turn to "
                                                 "bid on MH or pass")


def test_a_chooser_who_cannot_pay_hands_the_choice_on():
    rules = load_ruleset("1857")
    g = Game(rules, ["A", "B", "C"], check_board=False)
    from railcheck.rounds.auction_choose import ChooseAndBidAuction
    rnd = ChooseAndBidAuction(g)
    g.round = rnd
    a, b, c = g.players
    for sym in ("SV", "CS", "DH", "MH", "CA"):
        comp = g.companies[sym]
        comp.owner = c
        c.companies.append(comp)
    a.cash = 100          # only BO ($220) is left
    rnd.chooser = a
    rnd.settle_chooser()
    assert rnd.chooser is b


# ---------------------------------------------------------------------------
# stock rounds

SR1 = """
SR 1
Carol par NYC 90
Alice par PRR 76
Bob buy B&O
Dave par C&O 67
Carol buy NYC
Alice buy PRR
Bob buy B&O
Dave buy C&O
Carol buy NYC
"""


def test_a_company_floats_at_50_percent_and_gets_ten_times_par():
    res = run(HEADER + AUCTION + SR1)
    assert errors(res) == []
    g = res.game
    nyc = g.corporations["NYC"]
    assert nyc.percent_of("ipo") == 60 and not nyc.floated and nyc.cash == 0
    # PRR: Alice's 20% + 10% + CA's 10% = 40%; B&O: Bob's 20% + 20% = 40%
    assert not g.corporations["PRR"].floated and not g.corporations["B&O"].floated
    res = run(HEADER + AUCTION + SR1 + "Alice buy PRR\nBob buy B&O\nDave buy C&O\nCarol buy NYC\n")
    g = res.game
    assert errors(res) == []
    for sym, par in (("NYC", 90), ("PRR", 76), ("B&O", 100)):
        corp = g.corporations[sym]
        assert 100 - corp.percent_of("ipo") == 50
        assert corp.floated and corp.cash == 10 * par, sym
    assert not g.corporations["C&O"].floated       # 40%


@pytest.fixture
def deals(monkeypatch):
    """Every dealing of the player-order cards: (round, cash by player, order)."""
    from railcheck.mechanics import shares as common

    got = []
    original = common.order_players_by_cash

    def spy(g):
        cash = {p.name: p.cash for p in g.players}
        original(g)
        got.append((g.round.label if g.round else "", cash, [p.name for p in g.seat_order]))

    monkeypatch.setattr(common, "order_players_by_cash", spy)
    return got


def test_player_order_after_the_auction_and_every_stock_round_goes_by_cash(deals):
    res = run(GAME.read_text(), str(GAME))
    assert errors(res) == []
    assert [d[0] for d in deals] == ["auction"] + [f"SR {n}" for n in range(1, 12)]
    assert deals[0][1:] == ({"Alice": 420, "Bob": 375, "Carol": 575, "Dave": 365},
                            ["Carol", "Alice", "Bob", "Dave"])
    for label, cash, order in deals:
        assert [cash[n] for n in order] == sorted(cash.values(), reverse=True), label
    # and each stock round is opened by the holder of card 1
    text = GAME.read_text().split("\n")
    firsts = [next(t for t in text[i + 1:] if not t.startswith("#")).split()[0]
              for i, l in enumerate(text) if re.fullmatch(r"SR \d+", l)]
    assert firsts == [order[0] for _, _, order in deals[:-1]]


def test_stock_round_order_is_by_cash_not_after_the_last_to_act(deals):
    path = ILLEGAL / "stock_round_order.18xx"
    text = path.read_text()
    res = run(text, str(path))
    assert deals[1] == ("SR 1", {"Alice": 130, "Bob": 100, "Carol": 181, "Dave": 65},
                        ["Carol", "Alice", "Bob", "Dave"])
    # 1830's rule would have given the first turn to the player after the last to act
    last_buyer = "Bob"
    seats = ["Alice", "Carol", "Bob", "Dave"]          # the order of SR 1 (cash after the auction)
    assert seats[(seats.index(last_buyer) + 1) % 4] == "Dave"
    (f,) = errors(res)
    assert f.message == "Dave acted out of turn: it is Carol's turn in SR 2"


# ---------------------------------------------------------------------------
# start stations

def test_every_home_station_is_on_the_map_from_the_start():
    g = Game(load_ruleset("1857"), ["A", "B", "C", "D"])
    b = g.board
    for corp in g.corporations.values():
        assert corp.home_placed and corp.tokens_placed == 1
        assert b.has_station_on(corp.sym, corp.spec.home), corp.sym
        assert corp.token_cost() == 40           # the next station: $40, as in 1830
    assert b.hexes["E23"].nodes[0].tokens == ["B&M"]
    g1830 = Game(load_ruleset("1830"), ["A", "B", "C", "D"])
    assert g1830.board.hexes["E23"].nodes[0].tokens == []
    assert all(not c.home_placed for c in g1830.corporations.values())


def test_a_start_station_blocks_a_run_before_its_company_floats():
    path = ILLEGAL / "run_through_start_station.18xx"
    text = path.read_text()
    res = run(text, str(path))
    (f,) = errors(res)
    assert (f.line, f.rule) == (line_of(text, "NYC run 3 E19-E23-F24 (60) = 60"), "route.blocked")
    assert f.message == "train 3 runs through E23, whose slots are all filled by B&M"
    g = res.game
    assert g.corporations["B&M"].par is None       # B&M never started
    # ending at Boston is legal, for $50 (Albany 20 + Boston 30)
    total, _ = g.board.revenue_of_routes(
        "NYC", [Route(train="3", stops=[Stop(hex="E19"), Stop(hex="E23")])], "green", {"3": 3})
    assert total == 50
    # with the stations placed as in 1830 (when the company first operates) the run is legal
    res1830 = run(text, str(path), rules=rules_patched(setup={"home_stations_at_start": False}))
    assert errors(res1830) == []
    assert res1830.game.corporations["NYC"].cash == g.corporations["NYC"].cash


# ---------------------------------------------------------------------------
# the illegal examples

ILLEGAL_CASES = {
    "auction_out_of_order_pick.18xx": ("Bob choose CA", "auction.chooser",
                                       "Bob may not choose the next private: it is Alice's "
                                       "choice (Alice won SV and chooses the next private)"),
    "auction_bid_after_pass.18xx": ("Carol bid CS 60", "auction.passed",
                                    "Carol passed on CS and may not bid on it again"),
    "stock_round_order.18xx": ("Dave buy C&O", "turn.order",
                               "Dave acted out of turn: it is Carol's turn in SR 2"),
    "run_through_start_station.18xx": ("NYC run 3 E19-E23-F24 (60) = 60", "route.blocked",
                                       "train 3 runs through E23, whose slots are all filled "
                                       "by B&M"),
    "sixth_2_train.18xx": ("C&O buy train 2", "trains.not_available",
                           "no 2-train is for sale from the depot (available: 3) or the pool"),
    "sell_before_operating.18xx": ("Alice sell 1 C&O", "stock.sell_before_operating",
                                   "C&O has not operated yet; its shares cannot be sold"),
}


def test_every_illegal_example_is_tested():
    assert sorted(p.name for p in ILLEGAL.glob("*.18xx")) == sorted(ILLEGAL_CASES)


@pytest.mark.parametrize("name", sorted(ILLEGAL_CASES))
def test_illegal_example_flagged_at_its_line(name):
    content, rule, message = ILLEGAL_CASES[name]
    path = ILLEGAL / name
    text = path.read_text()
    res = run(text, str(path))
    found = errors(res)
    assert len(found) == 1, [f.message for f in found]
    f = found[0]
    line = line_of(text, content)
    assert (f.line, f.rule, f.message) == (line, rule, message)
    # the header comment names the illegal line and the rule
    header = "".join(l for l in text.splitlines(True) if l.startswith("#"))
    assert f"line {line}" in header.replace("\n# ", " ").replace("Line", "line")
    assert rule in header.replace("\n# ", " ")


def test_the_sixth_2_train_is_legal_with_the_phase_table_roster():
    text = (ILLEGAL / "sixth_2_train.18xx").read_text()
    text = text.replace("players: Alice, Bob, Carol, Dave\n",
                        "players: Alice, Bob, Carol, Dave\noptions: phase_table_roster\n")
    res = run(text)
    assert errors(res) == []
    co = res.game.corporations["C&O"]
    assert [t.name for t in co.trains] == ["2", "2"]
    assert [t.name for t in res.game.depot_trains()][:1] == ["3"]


# ---------------------------------------------------------------------------
# the complete example

FINAL = {"Dave": 8982, "Bob": 8586, "Carol": 8201, "Alice": 6644}


def test_complete_example_is_legal_and_scores_to_the_dollar():
    res = run(GAME.read_text(), str(GAME))
    assert res.findings == []
    assert res.finished and res.end_reason == "bank"
    g = res.game
    assert g.bank_broken and g.phase.name == "D"
    # net worth computed here from the final state: cash + shares at market price + privates
    worth = {}
    for p in g.players:
        shares = sum(c.percent_of(p) // 10 * c.price.price
                     for c in g.corporations.values() if c.price is not None and not c.closed)
        privates = sum(c.value for c in p.companies if not c.closed)
        worth[p.name] = p.cash + shares + privates
    assert worth == FINAL
    assert {r["player"]: r["net_worth"] for r in res.standings} == FINAL
    assert [r["player"] for r in res.standings] == ["Dave", "Bob", "Carol", "Alice"]
    cash = {p.name: p.cash for p in g.players}
    assert cash == {"Alice": 2684, "Bob": 3966, "Carol": 3491, "Dave": 4292}
    # the privates closed with the first 5-train; every company ends with a D
    assert all(c.closed for c in g.companies.values())
    # every company but NYNH ends with a D: the six Ds were sold (NYNH keeps a 6 and a 5)
    assert {c.sym: sorted(t.name for t in c.trains)
            for c in g.corporations.values() if c.floated and "D" not in
            [t.name for t in c.trains]} == {"NYNH": ["5", "6"]}
    assert sum(1 for t in g.trains if t.name == "D" and t.owner != "depot") == 6
    # the roster: five 2-trains, four 3s, three 4s, two 5s and two 6s were all sold
    sold = {}
    for t in g.trains:
        if t.owner != "depot":
            sold[t.name] = sold.get(t.name, 0) + 1
    assert {k: sold[k] for k in "23456"} == {"2": 5, "3": 4, "4": 3, "5": 2, "6": 2}


def test_complete_example_shows_the_1857_rules():
    text = GAME.read_text()
    lines = [l.strip() for l in text.splitlines()]
    assert "check NYC treasury 900" in lines          # floated at 50%
    assert "NYC run 3 E19-E23 (50) = 50" in lines     # ends at B&M's start station
    assert lines.index("NYC run 3 E19-E23 (50) = 50") < lines.index("Carol par B&M 71")
    assert "PRR buy private CA from Alice for 320" in lines
    assert any(l.startswith("B&O buy train D exchange") for l in lines)
    assert sum(1 for l in lines if l.startswith("check ")) >= 30


def test_auction_ruleset_keys():
    text = HEADER + "\nauction\nAlice choose SV 20\nAlice choose SV\n"
    res = run(text, rules=rules_patched(auction={"opening_bid": "increment"}))
    (f,) = errors(res)
    assert (f.line, f.rule) == (line_of(text, "Alice choose SV 20"), "auction.min_bid")
    assert f.message == ("the opening bid of $20 on SV is below $25 (its face value of $20 "
                         "plus $5)")
    assert res.game.round.high_bid == 25      # "choose SV" opens at the minimum
    res = run(HEADER + AUCTION, rules=rules_patched(auction={"after": "keep"}))
    assert [p.name for p in res.game.seat_order] == ["Alice", "Bob", "Carol", "Dave"]
    from railcheck.findings import InputError
    # a value the schema does not allow is refused when the ruleset is built, at 1857's key
    with pytest.raises(InputError, match="auction.opening_bid: unknown value 'double'; "
                                         "allowed: face, increment") as e:
        rules_patched(auction={"opening_bid": "double"})
    assert e.value.path.endswith("g1857/rules.yaml") and e.value.line == 31


@pytest.mark.parametrize("name, patch", [
    ("sell_before_operating.18xx", {"stock": {"sell_after": "first"}}),
    ("stock_round_order.18xx", {"stock": {"next_sr_order": "after_last_to_act"}}),
    ("run_through_start_station.18xx", {"setup": {"home_stations_at_start": False}}),
    ("sixth_2_train.18xx", {}),
])
def test_each_illegal_line_is_legal_under_the_1830_rule_it_changes(name, patch):
    """The same record under 1857 with only the one rule set back to 1830's."""
    path = ILLEGAL / name
    text = path.read_text()
    if name == "sixth_2_train.18xx":
        rules = load_ruleset("1857", ["phase_table_roster"])   # 1830's roster
    else:
        rules = rules_patched(**patch)
    res = run(text, str(path), rules=rules)
    assert errors(res) == []


# ---------------------------------------------------------------------------
# the summary to the letter (docs/1857.md: rule of the summary -> check -> test)

def _example_with(old: str, new: str) -> str:
    text = GAME.read_text()
    assert text.count(old) == 1, old
    return text.replace(old, new)


def test_forced_sale_over_the_certificate_limit():
    """"przymusowa sprzedaż certyfikatów w turze danego gracza": the example's
    SR 10 as it was, where Dave and Bob (17 certificates, limit 16: B&O and
    C&O left the orange zone) pass instead of selling down."""
    start = GAME.read_text().index("SR 10\n")
    end = GAME.read_text().index("\nOR 10.1\n")
    text = GAME.read_text()[:start] + "SR 10\nDave pass\nCarol pass\nBob pass\nAlice pass\n" \
        + GAME.read_text()[end:]
    res = run(text, str(GAME))
    sr11 = line_of(text, "SR 11", 0)
    over = [(f.line, f.message) for f in errors(res)
            if f.rule == "stock.over_cert_limit" and f.line < sr11]
    first = line_of(text, "SR 10", 0) + 1
    assert over == [
        (first, "Dave holds 17 certificates, over the limit of 16, and ends the turn in SR 10 "
                "without selling down to it"),
        (first + 2, "Bob holds 17 certificates, over the limit of 16, and ends the turn in SR 10 "
                    "without selling down to it")]
    # the corrected record: each sells one PRR share and the round is clean
    res = run(GAME.read_text(), str(GAME))
    assert errors(res) == []


def test_six_diesels():
    """Phase table: "Diesel ... 6"; set-up: "wszystkie pociągi D" (all six)."""
    for options in ([], ["phase_table_roster"]):
        assert load_ruleset("1857", options).train_by_name["D"].count == 6
    old = "NYNH withhold\n# the six Ds are sold: NYNH keeps its 6 and 5\n"
    text = _example_with(old, "NYNH withhold\nNYNH buy train D exchange 5\n")
    res = run(text, str(GAME))
    seventh = line_of(text, "NYNH buy train D exchange 5")
    assert [(f.line, f.rule, f.message) for f in errors(res)
            if f.rule == "trains.not_available"] == \
        [(seventh, "trains.not_available",
         "no D-train is for sale from the depot (available: none) or the pool")]


def test_a_company_must_own_a_train_whatever_its_route():
    """"Kupuje pociągi (musi mieć co najmniej 1, jeśli nie ma to musi teraz
    kupić)": PRR (home Altoona, no track: no route) passes its OR 1.1 turn."""
    text = GAME.read_text()
    text = text[:text.index("OR 1.1\n")] + (
        "OR 1.1\nB&O lay 57 J14 r0\nB&O token J14\nB&O buy train 2\nNYC lay 57 E19 r0\n"
        "NYC buy train 2\nPRR pass\nC&O lay 56 G7 r0\nC&O buy train 2\n")
    assert load_ruleset("1857").operating["must_buy_train"] == "always"
    res = run(text)
    assert [(f.line, f.rule, f.message) for f in res.findings] == [
        (line_of(text, "C&O lay 56 G7 r0"), "trains.must_own",
         "PRR ended its turn without a train; it must buy one (cheapest: a 2-train for $80; "
         "PRR has $760)")]
    # 1830's rule (only a company with a route must own a train): no finding
    assert run(text, rules=rules_patched(operating={"must_buy_train": "route"})).findings == []


def test_start_station_home_marker_or_extra_marker():
    """"każda spółka kładzie (dodatkową) stację startową": by default the
    home marker placed early; option start_station_extra: a marker more."""
    for options, markers in (([], [0, 40, 100, 100]), (["start_station_extra"],
                                                      [0, 40, 100, 100, 100])):
        r = load_ruleset("1857", options)
        assert r.raw["setup"]["home_stations_at_start"] is True
        g = Game(r, ["A", "B", "C"])
        prr = g.corporations["PRR"]
        assert prr.spec.tokens == markers
        assert prr.home_placed and prr.tokens_placed == 1
        assert prr.token_cost() == 40
        assert "PRR" in g.board.tokens_on("H12")[0]
    assert load_ruleset("1830").corporations[0].tokens == [0, 40, 100, 100]


def test_private_bought_from_a_player_besides_the_one_certificate():
    """"kupno 1 certyfikatu ... i/lub kupno/sprzedaż prywatnych spółek między
    graczami": the trade comes besides the turn's certificate (1830: it is
    the turn's purchase)."""
    text = GAME.read_text()
    text = text[:text.index("SR 3\n")] + "SR 3\nDave buy private SV from Carol for 1\nDave buy C&O\n"
    assert load_ruleset("1857").stock["private_trade_is_buy"] is False
    assert load_ruleset("1830").stock["private_trade_is_buy"] is True
    res = run(text)
    assert res.findings == []
    g = res.game
    assert g.companies["SV"].owner.name == "Dave"
    assert g.corporations["C&O"].percent_of(g.player_by_name["Dave"]) == 60
    assert {p.name: p.cash for p in g.players} == {"Alice": 434, "Bob": 67, "Carol": 73,
                                                    "Dave": 212}
    res = run(text, rules=rules_patched(stock={"private_trade_is_buy": True}))
    assert [(f.line, f.rule, f.message) for f in res.findings] == [
        (line_of(text, "Dave buy C&O"), "stock.one_buy",
         "Dave already bought the private SV this turn")]


def test_companies_buy_privates_at_any_moment_of_their_turn():
    """"W dowolnym momencie rundy operacyjnej może kupić prywatną spółkę od
    gracza ... (tylko w 3 i 4 etapie gry)": at any moment of the buying
    company's own turn, half to twice face value, in phases 3 and 4."""
    old = ("C&O lay 7 G5 r3\nC&O run 2 F6-G7.1 (40) = 40\nC&O payout\nC&O buy train 3\n"
           "C&O buy private DH from Dave for 140\n")
    first = ("C&O buy private DH from Dave for 140\nC&O lay 7 G5 r3\n"
             "C&O run 2 F6-G7.1 (40) = 40\nC&O payout\nC&O buy train 3\n")
    res = run(_example_with(old, first), str(GAME))
    assert errors(res) == []
    # over twice the face value ($70): flagged, taken as paid
    text = _example_with(old, first.replace("for 140", "for 145"))
    res = run(text, str(GAME))
    assert [(f.line, f.rule) for f in errors(res)][0] == \
        (line_of(text, "C&O buy private DH from Dave for 145"), "private.price")
    # in another company's turn (PRR is operating): the record says C&O's
    # turn has begun, so PRR's turn ended without running, and PRR's next
    # actions are out of turn
    text = _example_with("PRR lay 15 H10 r4\n",
                         "PRR lay 15 H10 r4\nC&O buy private MH from Alice for 110\n")
    res = run(text, str(GAME))
    buy = line_of(text, "C&O buy private MH from Alice for 110")
    assert [(f.line, f.rule, f.message) for f in errors(res)][:2] == [
        (buy, "route.missing", "PRR owns trains (2) and has a route but did not run them; a "
                               "company must run its trains (taken as earning nothing)"),
        (buy + 1, "turn.order", "PRR already operated in OR 2.1; it is C&O's turn")]
