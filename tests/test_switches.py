"""Each switch a ruleset may turn changes a verdict when turned: a game (an example,
a real or random export, cut short after the action that shows it) replayed under
the title's ruleset and under a house rule that turns one key, with the findings
where they part.  (tests/test_ruleset_keys.py: every key is read by some code.)"""

import itertools
import textwrap
from pathlib import Path

import pytest

from railcheck.engine import Replay
from railcheck.loader import load_game

from conftest import REPO, export_record

EXAMPLES = REPO / "examples"
_files = itertools.count()


def house(tmp_path: Path, title: str, body: str) -> str:
    """A house rule extending ``title`` (a new file each time: a file is read once
    per process)."""
    path = tmp_path / f"house{next(_files)}.yaml"
    path.write_text(f'extends: "{title}"\n' + textwrap.dedent(body))
    return str(path)


def errors(result) -> list[tuple]:
    return [(f.line if f.action_id is None else f.action_id, f.rule, f.message)
            for f in result.findings if f.severity == "error"]


def example(path: Path, ruleset=None):
    record, read = load_game(str(path), ruleset=ruleset)
    return Replay(record, hints=False).run()


def export(folder: str, name: str, last: int, ruleset=None, then: str = ""):
    """The export cut after action ``last``, then ``then`` (lines of the notation)."""
    record = export_record(folder, name, last, ruleset)
    if then:
        header = f"title: {record.title}\nplayers: " + \
            ", ".join(f'"{p}"' for p in record.players) + "\n"
        more, read = load_game("then.18xx", header + textwrap.dedent(then))
        assert read == []
        record.actions = record.actions + more.actions
    return Replay(record, hints=False, stop_at=10 ** 9 if then else None).run()


def parted(default, turned) -> tuple[list, list]:
    """The errors only the default has, and those only the turned key has."""
    a, b = errors(default), errors(turned)
    return [x for x in a if x not in b], [x for x in b if x not in a]


# ---------------------------------------------------------------------------
# shared rules (1830's rounds and steps)

def test_cert_limit_includes_privates(tmp_path):
    # the opening of the example game with a limit of 4: Carol's fourth
    # certificate (SR 1, line 34) counts her two privates, BO and SV
    game = EXAMPLES / "1830" / "opening.18xx"
    limit = "cert_limit: {3: 4}\n"
    counted = example(game, house(tmp_path, "1830", limit))
    not_counted = example(game, house(tmp_path, "1830", limit +
                                      "cert_limit_includes_privates: false\n"))
    first = [e for e in errors(counted) if e[1] == "stock.cert_limit"][0]
    assert first == (34, "stock.cert_limit", "Carol holds 4 certificates; one more would "
                     "exceed the limit of 4; taken as bought, as the record says")
    assert [e for e in errors(not_counted) if e[1] == "stock.cert_limit"][0][0] == 42


def test_no_buy_after_sale(tmp_path):
    game = EXAMPLES / "1830" / "illegal" / "rebuy-after-selling.18xx"
    gone, new = parted(example(game), example(game, house(tmp_path, "1830", """
        stock: {no_buy_after_sale: false}
        """)))
    assert gone == [(199, "stock.rebuy",
                     "Alice sold PRR this round and may not buy it again in SR 5")]
    assert new == []


def test_president_contributes(tmp_path):
    # 29133, OR 4.2: PRR ($112, no train) buys a 6 for $630, its president paying
    gone, new = parted(export("1830", "29133", 426),
                       export("1830", "29133", 426, house(tmp_path, "1830", """
                           operating: {president_contributes: false}
                           """)))
    assert gone == []
    assert new[0] == (424, "trains.cash", "PRR has $112, a 6-train costs $630; the president "
                                          "never pays towards a train")


def test_must_buy_needs_cash_above_cheapest(tmp_path):
    # 29133, OR 4.2: PRR has $112 and a route, the cheapest train costs $630
    then = "PRR pass\n"
    gone, new = parted(export("1830", "29133", 421, then=then),
                       export("1830", "29133", 421, house(tmp_path, "1830", """
                           operating: {must_buy_needs_cash_above_cheapest: true}
                           """), then=then))
    assert [g[1] for g in gone][:1] == ["trains.must_own"]
    assert new == []


def test_emergency_sell_more_than_needed(tmp_path):
    # 29133, OR 4.2: 30% of B&M at 112 brings $336, a share more than PRR's 6 needs
    then = '"Player 3" sell 30% B&M\n'
    gone, new = parted(export("1830", "29133", 421, then=then),
                       export("1830", "29133", 421, house(tmp_path, "1830", """
                           operating: {emergency_sell_more_than_needed: true}
                           """), then=then))
    assert [g[1] for g in gone] == ["emergency.too_much"]
    assert new == []


def test_sold_out_top_row(tmp_path):
    gone, new = parted(export("1830", "1830_game_end_bank", 200),
                       export("1830", "1830_game_end_bank", 200, house(tmp_path, "1830", """
                           stock: {sold_out_top_row: right}
                           """)))
    assert gone == []
    assert new[0][:2] == (156, "turn.order")


# ---------------------------------------------------------------------------
# 1860

@pytest.mark.parametrize("body, game, gone_rule, line", [
    ("operating: {routes: {no_hex_reentry: false}}", "run-through-a-tile-twice",
     "route.hex_reentry", 285),
    ("operating: {upgrade_needs_train_reach: false}", "upgrade-without-a-train",
     "track.upgrade_no_train", 293),
    ("operating: {second_lay: any}", "two-lays-with-a-station", "track.second_lay", 142),
    # a city tile first is no upgrade: a second (yellow) lay may follow
    ("operating: {second_lay: yellow_if_first_not_upgrade}", "two-lays-with-a-station",
     "track.second_lay", 142),
    ("market: {zigzag: false}", "dividend-move-ignores-the-multiples",
     "checkpoint.mismatch", 100),
    ("operating: {routes: {cannot_end_at_halt: false, home_station_in_one_route: false}}",
     "run-ending-at-a-halt", "route.halt_end", 98),
])
def test_1860_switches_on_the_illegal_examples(tmp_path, body, game, gone_rule, line):
    path = EXAMPLES / "1860" / "illegal" / f"{game}.18xx"
    gone, new = parted(example(path), example(path, house(tmp_path, "1860", body)))
    assert [(g[0], g[1]) for g in gone] == [(line, gone_rule)]
    assert all(n[1] in ("route.revenue", "route.home") for n in new), new


def test_1860_home_station_in_one_route(tmp_path):
    path = EXAMPLES / "1860" / "illegal" / "run-ending-at-a-halt.18xx"
    gone, new = parted(example(path, house(tmp_path, "1860", """
                           operating: {routes: {cannot_end_at_halt: false}}
                           """)),
                       example(path, house(tmp_path, "1860", """
                           operating: {routes: {cannot_end_at_halt: false,
                                                home_station_in_one_route: false}}
                           """)))
    assert gone == [(98, "route.home", "no run of C&N visits its home station (F2); one must; "
                                       "taken as run, earning £50 and a subsidy of £10")]


@pytest.mark.parametrize("body, name, last, rule, at", [
    ("operating: {routes: {bypass_one_blocked_city: false}}", "1860_game_end_bank", 103,
     "route.blocked", 102),
    ("operating: {routes: {may_skip_towns_and_halts: false}}", "1860_game_end_stock_market", 80,
     "route.revenue", 79),
    ("operating: {must_buy_needs_cash_above_cheapest: false}", "1860_game_end_bank", 384,
     "trains.must_own", 383),
    ("stock: {president_sales_to_market: false}", "19354", 374, "stock.president_cert", 373),
])
def test_1860_switches_on_real_exports(tmp_path, body, name, last, rule, at):
    gone, new = parted(export("1860", name, last),
                       export("1860", name, last, house(tmp_path, "1860", body)))
    assert gone == []
    assert new[0][:2] == (at, rule)


def test_1860_ignore_one_sale_per_player_round(tmp_path):
    # random 18602_7: a second sale of C&N by the same player in one stock round
    # from an `i` cell moves one cell more: the price parts, and a later purchase
    # no longer fits the buyer's cash
    gone, new = parted(export("1860_random", "1860_rand_18602_7", 352),
                       export("1860_random", "1860_rand_18602_7", 352, house(tmp_path, "1860", """
                           stock: {ignore_one_sale_per: player_round}
                           """)))
    assert new[0] == (351, "stock.cash", "Player 1 has £26; a C&N share from the bank pool "
                                         "costs £47")


def test_1860_home_track_on_float(tmp_path):
    path = EXAMPLES / "1860" / "game.18xx"
    default = example(path)
    assert errors(default) == []
    turned = example(path, house(tmp_path, "1860", "stock: {home_track_on_float: false}\n"))
    assert errors(turned)[0][:2] == (71, "turn.actor")


def test_1860_auction_winner_buys(tmp_path):
    path = EXAMPLES / "1860" / "game.18xx"
    turned = example(path, house(tmp_path, "1860", """
        auction: {winner_buys: [company_at_face]}
        """))
    assert errors(turned)[0] == (51, "auction.sold", "C&N is not for sale here: the winner takes "
                                 "a private at its face value (auction.winner_buys)")


def test_1860_auction_max_bid(tmp_path):
    # two players start with 1000; the cheapest item left is BHC at 30
    game = tmp_path / "bid.18xx"
    game.write_text("title: 1860\nplayers: Alice, Bob\n\nauction\nAlice bid 980\n")
    default = example(game)
    assert errors(default)[0] == (5, "auction.cash", "Alice bids £980 but may bid at most £970 "
                                  "(cash £1000 less the cheapest item left, £30)")
    turned = example(game, house(tmp_path, "1860", "auction: {max_bid: cash}\n"))
    assert [e for e in errors(turned) if e[0] == 5] == []


def _network_problem(ruleset: str, runs_of, each: bool = True) -> str | None:
    """The rule the runs ``runs_of(cities)`` of C&N are refused by (each checked
    alone when ``each``, then together), or None; ``cities``: the first city of
    each corporation's home hex, C&N's and IOW's with their station, IOW bankrupt."""
    from railcheck.findings import RuleViolation
    from railcheck.game import Game
    from railcheck.ruleset import load_ruleset
    from railcheck.titles.g1860.runs import check_network, check_run
    g = Game(load_ruleset(ruleset), ["Alice", "Bob"])
    for sym in ("C&N", "IOW"):
        g.board.place_home_token(sym)
    cities = {c.sym: (g.board.hexes[c.home].idx, 0) for c in g.rules.corporations}
    runs = runs_of(cities)
    try:
        for run in runs if each else ():
            check_run(g, "C&N", run, 9, {"IOW"}, m=9)
        check_network(g, "C&N", runs)
    except RuleViolation as v:
        return v.rule
    return None


def test_1860_routes_must_intersect(tmp_path):
    from railcheck.titles.g1860.runs import Run

    def apart(c):
        return [Run("a", [c["C&N"], c["IWNJ"]], ["city", "city"]),
                Run("b", [c["FYN"], c["VYSC"]], ["city", "city"])]

    assert _network_problem("1860", apart, each=False) == "route.network"
    assert _network_problem(house(tmp_path, "1860", """
        operating: {routes: {routes_must_intersect: false}}
        """), apart, each=False) is None


def test_1860_flipped_tokens_block(tmp_path):
    """Two runs through IOW's city on I3, IOW bankrupt: its station is flipped and
    blocks nothing; where flipped stations block, two trains pass a blocked city."""
    from railcheck.titles.g1860.runs import Run

    def through_i3(c):
        return [Run(label, [c["C&N"], c["IOW"], c[end]], ["city", "city", "city"])
                for label, end in (("a", "BHI&R"), ("b", "NGStL"))]

    assert _network_problem("1860", through_i3) is None
    assert _network_problem(house(tmp_path, "1860", """
        operating: {routes: {flipped_tokens_block: true}}
        """), through_i3) == "route.blocked"


# ---------------------------------------------------------------------------
# 18Ireland

@pytest.mark.parametrize("body, game, gone_rule, line", [
    ("operating: {second_lay: any}", "second-lay-after-upgrade", "track.second_lay", 355),
    ("operating: {routes: {broad_gauge_only: false}}", "narrow-town-on-broad-run",
     "route.gauge", 392),
])
def test_18ireland_switches_on_the_illegal_examples(tmp_path, body, game, gone_rule, line):
    path = EXAMPLES / "18Ireland" / "illegal" / f"{game}.18xx"
    gone, new = parted(example(path), example(path, house(tmp_path, "18Ireland", body)))
    assert [(g[0], g[1]) for g in gone] == [(line, gone_rule)]


@pytest.mark.parametrize("body, last, rule, at", [
    ("operating: {second_lay: yellow_if_first_not_upgrade_or_city}", 26, "track.second_lay", 25),
    ("operating: {routes: {narrow_gauge_bonus: false}}", 148, "route.revenue", 147),
    ("stock: {major_home: null}", 775, "turn.actor", 774),
    ("stock: {minor_pool_limit: 20}", 571, "stock.pool_limit", 570),
    ("setup: {remove_minors: 0}", 13, "stock.minor_auction", 12),
    ("trains: {\"1H'\": {primed: false}}", 270, "trains.not_available", 269),
])
def test_18ireland_switches_on_a_real_export(tmp_path, body, last, rule, at):
    gone, new = parted(export("18Ireland", "161830", last),
                       export("18Ireland", "161830", last, house(tmp_path, "18Ireland", body)))
    assert gone == []
    assert new[0][:2] == (at, rule)


# ---------------------------------------------------------------------------
# the map

def test_small_map():
    from railcheck.board.board import Board
    from railcheck.ruleset import load_ruleset
    big = load_ruleset("1860")
    small = load_ruleset("1860", ["two_player_map"])
    assert small.board["use_small_map"] is True and not big.board.get("use_small_map")
    boards = [Board(r.board, [], []) for r in (big, small)]
    assert "A7" in boards[0].hexes and "A7" not in boards[1].hexes
    assert [b.remaining["776"] for b in boards] == [3, 2]
    assert [b.remaining["770"] for b in boards] == [2, 1]
    assert [sorted(b.hexes["B4"].impassable) for b in boards] == [[1], []]


# ---------------------------------------------------------------------------
# 18Ireland's drawn set-up (setup.*): the draws of 161830's seed

def test_18ireland_setup_keys():
    import yaml
    from railcheck.titles.g18ireland.setup import draw_setup
    rules = yaml.safe_load((REPO / "railcheck" / "titles" / "g18ireland" /
                            "rules.yaml").read_text())
    companies = [c["sym"] for c in rules["companies"]]
    minors = [c["sym"] for c in rules["corporations"] if c["kind"] == "minor"]
    setup = rules["setup"]

    def drawn(**changed):
        return draw_setup(1411315859, companies, minors, {**setup, **changed})

    assert drawn().companies == ("DAR", "DR", "TASPS", "RSSC", "DK")
    assert drawn().removed_minors == ("KJR",) and drawn().minor_stack[0] == "DKR"
    assert len(drawn(keep_companies=6).companies) == 6
    assert drawn(keep_companies=None).companies == tuple(companies)
    # DAR takes a draw of its own: every later draw moves on by one
    assert drawn(protected_companies=["DK"]).companies == ("DAR", "DCR", "TASPS", "TIM", "DK")
    assert drawn(remove_minors=2).removed_minors == ("KJR", "DER")
    assert drawn(protected_minor="DER").minor_stack[0] == "DER"
    assert drawn(rand={"a": 1, "c": 1, "m": 97}).companies != drawn().companies

