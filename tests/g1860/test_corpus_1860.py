"""1860's games exported from 18xx.games (3 real, 24 of random legal moves)
against the site's results and the site engine's per-action traces.

Every game matches the trace (every player's cash, the bank, each started
corporation's treasury, price, president and trains after every action)
through the auction and the first stock round.  All 27 (the three real
ones and the 24 random) replay to the end with no finding, end as the site
says, score exactly the site's result and match their trace after every
action (FIRST_DIVERGENCE: where railcheck and the site would part; see
docs/1860.md, "Status")."""

import gzip
import json

import pytest

from railcheck.conformance import walk_trace
from railcheck.engine import Replay
from railcheck.importer import import_export

from conftest import DATA, load_trace, net_worths, site_scores

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


#: games that replay to the end with no finding: the site's end reason
CLEAN = {"1860_game_end_bank": "bank",
         "1860_game_end_stock_market": "stock_market",
         "19354": "nationalization",
         "1860_rand_18602_0": "nationalization",
         "1860_rand_18602_1": "nationalization",
         "1860_rand_18602_2": "stock_market",
         "1860_rand_18602_3": "nationalization",
         "1860_rand_18602_4": "nationalization",
         "1860_rand_18602_5": "nationalization",
         "1860_rand_18602_6": "nationalization",
         "1860_rand_18602_7": "nationalization",
         "1860_rand_18603_0": "nationalization",
         "1860_rand_18603_1": "nationalization",
         "1860_rand_18603_2": "nationalization",
         "1860_rand_18603_3": "nationalization",
         "1860_rand_18603_4": "nationalization",
         "1860_rand_18603_5": "nationalization",
         "1860_rand_18603_6": "bank",
         "1860_rand_18603_7": "nationalization",
         "1860_rand_18604_0": "nationalization",
         "1860_rand_18604_1": "nationalization",
         "1860_rand_18604_2": "bank",
         "1860_rand_18604_3": "nationalization",
         "1860_rand_18604_4": "nationalization",
         "1860_rand_18604_5": "nationalization",
         "1860_rand_18604_6": "nationalization",
         "1860_rand_18604_7": "nationalization"}

#: the only findings of a CLEAN game: the runs of a corporation in
#: receivership proven short of the most it could earn (docs/1860.md R2,
#: route.receivership_max; the site asks a player to enter the best run and
#: does not check it; the random player did not): IOW's 9+5 runs for 410
#: where J2-I3-...-J8 earns 430, six ORs running
RECEIVERSHIP_SHORT = {"1860_rand_18602_7": [686, 698, 713, 745, 761, 779]}

#: the first action after which railcheck's state differs from the trace:
#: (action id, what differs, ours, the site's); None: none does
FIRST_DIVERGENCE = {
    "1860_game_end_bank": None,
    "1860_game_end_stock_market": None,
    "19354": None,
    "1860_rand_18602_0": None,
    "1860_rand_18602_1": None,
    "1860_rand_18602_2": None,
    "1860_rand_18602_3": None,
    "1860_rand_18602_4": None,
    "1860_rand_18602_5": None,
    "1860_rand_18602_6": None,
    "1860_rand_18602_7": None,
    "1860_rand_18603_0": None,
    "1860_rand_18603_1": None,
    "1860_rand_18603_2": None,
    "1860_rand_18603_3": None,
    "1860_rand_18603_4": None,
    "1860_rand_18603_5": None,
    "1860_rand_18603_6": None,
    "1860_rand_18603_7": None,
    "1860_rand_18604_0": None,
    "1860_rand_18604_1": None,
    "1860_rand_18604_2": None,
    "1860_rand_18604_3": None,
    "1860_rand_18604_4": None,
    "1860_rand_18604_5": None,
    "1860_rand_18604_6": None,
    "1860_rand_18604_7": None,
}


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
    record, read = import_export(export_text(name), name)
    if record.actions[-1].action_id > last_id:
        record.actions = [a for a in record.actions if a.action_id <= last_id]
        record.expected_result = record.expected_end_reason = None
    divergence, result, _ = walk_trace(record, load_trace("1860", name))
    return read, result, (divergence.as_tuple() if divergence else None)


def test_all_games_are_present():
    assert len(REAL) == 3 and len(RANDOM) == 24
    assert sorted(FIRST_DIVERGENCE) == sorted(GAMES)


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_clean_game_is_legal_and_scores_match_the_site(name):
    record, read = import_export(export_text(name), name)
    result = Replay(record).run()
    assert read == []
    # no finding at all but runs short in receivership: every run is checked
    # on the map (runs.py)
    assert [(f.action_id, f.rule) for f in result.findings] == [
        (i, "route.receivership_max") for i in RECEIVERSHIP_SHORT.get(name, [])]
    assert result.finished and result.end_reason == CLEAN[name]
    assert site_scores(json.loads(export_text(name))) == net_worths(result)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_where_the_replay_parts_from_the_site_engine(name):
    trace = load_trace("1860", name)
    last = trace["states"][-1]["id"]
    _, _, divergence = replay_until(name, last)
    assert divergence == FIRST_DIVERGENCE[name]


def test_game_end_bank_numbers():
    record, _ = import_export(export_text("1860_game_end_bank"), "1860_game_end_bank")
    result = Replay(record).run()
    g = result.game
    by = {r["player"]: r for r in result.standings}
    assert by["Player 3"]["net_worth"] == 8462 and by["Player 3"]["rank"] == 1
    assert by["Player 2"]["net_worth"] == 8132 and by["Player 1"]["net_worth"] == 7096
    # the bank broke when the players held more than 10000 together
    assert g.bank_broken and sum(p.cash for p in g.players) > 10000


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


def test_19354_runs_without_recorded_revenue_are_computed():
    """19354 is an older export: its runs give only connections and halts.
    C&N's first run (#69): a 2+1 from Cowes' city to a town (F2 0.1) and a
    2+1 Cowes - Newport counting one halt: 70 paid out, the halt's 10 kept."""
    _, result, divergence = replay_until("19354", 70)
    assert divergence is None
    g = result.game
    assert g.corporations["C&N"].cash == 470
    assert {p.name: p.cash for p in g.players} == {"Player 1": 94, "Player 2": 159}


def test_refusals_in_1860_change_nothing():
    """Every corpus game now replays with no refusal, so one is changed at two
    actions: 18603_4 with Player 3 selling 70% of C&N, of which he holds 20%
    (#52; a sale of another company's certificate he does not hold would be
    read as the sale the record's later lines buy back:
    following/sale.py), and IOW laying a tile the game does not have (#65).  Both are
    refused, and so are many later actions of the record that no longer fit;
    every refusal, in stock and operating rounds, leaves the state exactly as
    it was."""
    data = json.loads(export_text("1860_rand_18603_4"))
    for a in data["actions"]:
        if a["id"] == 52:
            a["percent"] = 70
        if a["id"] == 65:
            a["tile"] = "14-0"
    record, _ = import_export(json.dumps(data), "1860_rand_18603_4")
    rp = Replay(record, check_purity=True)
    rp.run()
    refused = [(a.action_id, kind, rule) for a, kind, rule in rp.refusals]
    assert refused[:3] == [(52, "SR", "stock.sell_not_owned"), (65, "OR", "tile.unknown"),
                           (86, "SR", "stock.cash")]
    assert {kind for _, kind, _ in refused} == {"SR", "OR"}
    assert rp.impure == []


def test_a_legal_1860_game_has_every_run_checked_on_the_map():
    """19354 is an older export (runs with connections and halts, no revenue):
    all 92 runs are followed on the map and their revenue computed."""
    record, _ = import_export(export_text("19354"), "19354")
    res = Replay(record).run()
    assert res.findings == []
    assert (res.game.title.state.runs_checked, res.game.title.state.runs_taken) == (92, 0)


def test_no_home_station_for_a_corporation_floated_after_the_southern_railway():
    """18602_0: VYSC floats in SR 18, after the Southern Railway formed: it
    gets no home station (no station is placed any more), so it has no
    route, never runs and is never insolvent.  Its turn in OR 18.2 is empty:
    nothing run, the price moves left at once, when NGStL's turn ends with
    its dividend (#756), 58 -> 54 (not at VYSC's own pass, #757)."""
    _, result, divergence = replay_until("1860_rand_18602_0", 756)
    assert divergence is None
    g = result.game
    vysc = g.corporations["VYSC"]
    assert vysc.floated and vysc.price.price == 54 and vysc.cash == 620
    assert g.board.stations("VYSC") == [] and not g.board.has_route("VYSC")
    assert "VYSC" not in g.title.state.insolvent
    assert g.round.turn.corp is vysc      # its turn began, nothing left but a train


def test_a_train_without_a_station_does_not_run():
    """18604_0: VYSC floated after the Southern Railway (no home station)
    owns a 9+5 (#628) but has nowhere to run it: OR 16.2 withholds nothing at
    once when IWNJ passes (#646), 54 -> 50."""
    _, result, divergence = replay_until("1860_rand_18604_0", 646)
    assert divergence is None
    vysc = result.game.corporations["VYSC"]
    assert [t.name for t in vysc.trains] == ["9+5"]
    assert vysc.price.price == 50 and vysc.cash == 570


def test_a_corporation_going_bankrupt_does_not_become_insolvent():
    """18603_4: C&N, trainless, withholds nothing in OR 12.2 (#281): its
    price goes 14 -> 0, it is bankrupt, and the site sets no insolvency at
    the end of that turn.  Restarted (par 44 in SR 16, floated in SR 19), it
    pays the terrain of its first lay, a 7 on the water of D4 (#556):
    660 -> 600."""
    _, result, divergence = replay_until("1860_rand_18603_4", 281)
    assert divergence is None
    st = result.game.title.state
    assert "C&N" in st.bankrupt and "C&N" not in st.insolvent
    _, result, divergence = replay_until("1860_rand_18603_4", 556)
    assert divergence is None
    assert result.findings == []
    cn = result.game.corporations["C&N"]
    assert cn.cash == 600 and cn.price.price == 44
    assert result.game.board.tile_on("D4")[0] == "7"


def test_receivership_withholds_during_nationalisation():
    """18602_7: nationalisation begins in OR 17.4 (VYSC's train, #783, gives
    every corporation not in receivership a train).  IOW, in receivership,
    runs for 340 (#788): withheld as ever, not paid out: its treasury
    2780 -> 3120, its price 100 -> 90, Player 2's cash stays 3713."""
    _, result, divergence = replay_until("1860_rand_18602_7", 788)
    assert divergence is None
    g = result.game
    iow = g.corporations["IOW"]
    assert g.title.state.nationalised and "IOW" in g.title.state.receivership
    assert (iow.cash, iow.price.price) == (3120, 90)
    assert g.player_by_name["Player 2"].cash == 3713


def test_a_turn_ends_when_a_seller_may_do_nothing_more():
    """18604_4, SR 13: Player 3 sells VYSC, IWNJ and S&C (#801-#803).  Every
    corporation is now one he sold this round (no buying it back) and S&C,
    all he holds, was sold this turn: he may do nothing more, and the site
    ends his turn without a pass; Player 4 (122, no certificate) may do
    nothing and is passed over, so Player 1's pass (#804) is in turn."""
    _, result, divergence = replay_until("1860_rand_18604_4", 803)
    assert divergence is None
    g = result.game
    p3 = g.player_by_name["Player 3"]
    assert p3.cash == 1500 and g.corporations["S&C"].percent_of(p3) == 50
    assert g.round.current.name == "Player 1"
    _, result, divergence = replay_until("1860_rand_18604_4", 806)
    assert divergence is None and result.findings == []


def test_the_last_chance_to_exchange_a_private_after_a_par():
    """18604_5, SR 21: phase 6 has begun (IOW's 6+3, #500: Fishbourne Ferry,
    whose purchase closes the other privates, is on sale).  Player 2 pars
    BHI&R at 62 (#501) holding BHC, which is exchanged for a BHI&R share: the
    site keeps his turn open for the exchange, and he passes himself (#502)."""
    _, result, divergence = replay_until("1860_rand_18604_5", 501)
    assert divergence is None
    g = result.game
    p2 = g.player_by_name["Player 2"]
    assert g.round.current is p2
    assert g.corporations["BHI&R"].par.price == 62
    assert [c.sym for c in p2.companies if not c.closed] == ["BHC"]
    _, result, divergence = replay_until("1860_rand_18604_5", 503)
    assert divergence is None and result.findings == []
    assert result.game.companies["FFC"].owner.name == "Player 3"


def test_a_turn_ends_after_buying_a_private_when_nothing_is_left():
    """18604_3, SR 19: Player 2 sells FYN (#676) and buys Fishbourne Ferry
    for 200 (#677): his turn is over (a buy ends it; Fishbourne Ferry gives no
    last chance to exchange), Player 3 (3 in cash, no certificate) is passed
    over, and Player 4's pass (#678) is in turn."""
    _, result, divergence = replay_until("1860_rand_18604_3", 677)
    assert divergence is None
    g = result.game
    assert g.companies["FFC"].owner.name == "Player 2"
    assert g.player_by_name["Player 3"].cash == 3
    assert g.round.current.name == "Player 4"
    _, result, divergence = replay_until("1860_rand_18604_3", 678)
    assert divergence is None and result.findings == []
