"""1860's games where railcheck parted from the 18xx.games engine in the
differential runs (tools/difftest.py, docs/1860.md "Differential testing"),
each kept as the smallest game that shows it (the first actions of a fresh
random game, tests/data/exports/1860_difftest/, with the engine's trace),
and the two misses of issue #23: changed copies of real exports that the
engine refuses (tests/data/exports/1860/)."""

import copy
import gzip
import json

import pytest

from railcheck.board.routes import claim_track, follow_given_track
from railcheck.conformance import walk_trace
from railcheck.engine import Replay
from railcheck.findings import RuleViolation
from railcheck.importer import import_export

from conftest import DATA, export_record, load_trace


def player(g, name: str):
    return next(p for p in g.players if p.name == name)


def difftest_record(name: str, last=None):
    return export_record("1860_difftest", name, last)


def difftest_data(name: str) -> dict:
    """The data of the export ``tests/data/exports/1860_difftest/NAME.json.gz``,
    to change in a test."""
    with gzip.open(DATA / "exports" / "1860_difftest" / f"{name}.json.gz", "rt") as fh:
        return json.load(fh)


def real_export(name: str) -> dict:
    return json.loads((DATA / "exports" / "1860" / f"{name}.json").read_text(encoding="utf-8"))


def replay_data(data: dict, name: str, last=None):
    """Replay an export's data, cut after action ``last``."""
    data = copy.deepcopy(data)
    if last is not None:
        data["actions"] = [a for a in data["actions"] if a["id"] <= last]
        data.pop("result", None)
    record, read = import_export(json.dumps(data), name)
    assert read == []
    return record


def test_the_presidents_certificate_from_the_pool_costs_one_share_and_a_share_back():
    """2711014_1, SR 1: Player 2 sold IOW's president's certificate into
    the pool (#35, receivership).  At #47 Player 3, holding IOW_1 (10%),
    takes the certificate from the pool: he pays one share at the market
    price, £74 (546 -> 472), and gives his 10% share back to the pool (R5:
    the certificate is exchanged, not bought).  railcheck charged £148 for
    the 20% and kept his share (30%)."""
    name = "1860_rand_2711014_1"
    before = Replay(difftest_record(name, 46)).run().game
    assert player(before, "Player 3").cash == 546
    assert before.corporations["IOW"].price.price == 74
    assert "IOW" in before.title.state.receivership
    r = Replay(difftest_record(name, 47), check_purity=True).run()
    g = r.game
    p3, iow = player(g, "Player 3"), g.corporations["IOW"]
    assert [f for f in r.findings if f.severity == "error"] == []
    assert p3.cash == 472
    assert iow.certs[0].owner is p3 and iow.president is p3
    assert iow.percent_of(p3) == 20
    assert iow.certs[1].owner == "pool"
    assert "IOW" not in g.title.state.receivership
    # and the whole cut game stays with the engine's trace
    divergence, result, compared = walk_trace(difftest_record(name), load_trace("1860", name))
    assert divergence is None and compared == 52
    assert [f for f in result.findings if f.severity == "error"] == []


def test_a_tie_for_the_most_cash_after_the_auction_goes_to_the_cheapest_privates_of_all():
    """2711024_3: after the auction Player 3 and Player 4 have £500 each and
    no private; Player 1 (£130) holds YHC and CMH (£140 face value), Player 2
    (£110) RPSC and BHC (£160).  On a tie for the most cash, priority goes
    to the player, of all those owning a private, with the lowest face value
    (L7, the 2nd edition as tobymao/18xx issue #1791 records it): Player 1,
    who passes first in SR 1 (#34).  railcheck broke the tie among the two
    richest and flagged #34 as out of turn."""
    name = "1860_rand_2711024_3"
    r = Replay(difftest_record(name, 32)).run()
    g = r.game
    assert {p.name: p.cash for p in g.players} == {
        "Player 1": 130, "Player 2": 110, "Player 3": 500, "Player 4": 500}
    assert g.round.kind == "SR" and g.priority.name == "Player 1"
    divergence, result, compared = walk_trace(difftest_record(name), load_trace("1860", name))
    assert divergence is None and compared == 40
    assert [(f.action_id, f.rule) for f in result.findings] == []


def test_a_private_bought_in_the_auction_at_another_price_is_flagged_and_taken_as_paid():
    """A one-action change of 2711024_3 (the mutation sweep of docs/1860.md):
    Player 2, winner of the turn, buys RPSC (face £130) at #10 written as
    £125.  18xx.games takes the written price (at most the buyer's cash);
    L4 says face value: railcheck flags it once and takes the £125, so the
    auction goes on (before, the purchase was refused and every later
    action of the auction was auction.must_buy: 118 findings in 32500002_0)."""
    name = "1860_rand_2711024_3"
    data = difftest_data(name)
    next(a for a in data["actions"] if a["id"] == 10)["price"] = 125
    r = Replay(replay_data(data, name + "_rpsc_125", 32)).run()
    assert [(f.action_id, f.rule, f.message) for f in r.findings if f.severity == "error"] == [
        (10, "auction.price", "RPSC is sold at its face value £130, not £125 (18xx.games takes "
                              "the written price, at most the buyer's cash); taken at £125")]
    assert {p.name: p.cash for p in r.game.players} == {
        "Player 1": 130, "Player 2": 115, "Player 3": 500, "Player 4": 500}
    assert [c.sym for c in player(r.game, "Player 2").companies] == ["RPSC", "BHC"]


def test_a_depot_train_at_another_price_is_flagged_and_taken_as_paid():
    """A one-action change of 32000032_1: IOW buys its first 2+1 from the
    depot (£250) at #36, written as £240.  18xx.games charges a depot train's
    written price without checking it; railcheck flags trains.price, saying
    so, and takes the £240 (IOW £10 above the engine's trace of the real
    game, every player's cash as in it)."""
    name = "1860_rand_32000032_1"
    data = difftest_data(name)
    next(a for a in data["actions"] if a["id"] == 36)["price"] = 240
    r = Replay(replay_data(data, name + "_train_240", 40)).run()
    assert [(f.action_id, f.rule, f.message) for f in r.findings if f.severity == "error"] == [
        (36, "trains.price", "a 2+1-train from the depot costs £250, not £240; taken as paid "
                             "(18xx.games takes the written price)")]
    site = next(s for s in load_trace("1860", name)["states"] if s["id"] == 40)
    assert {p.name: p.cash for p in r.game.players} == site["players"]
    assert r.game.corporations["IOW"].cash == site["corporations"]["IOW"]["cash"] + 10


def test_a_private_sold_to_the_bank_at_another_price_is_flagged_and_taken_as_written():
    """A one-action change of 2711204_3: Player 2 sells BHC (face £30) to the
    bank at #120 for £0, face value less the £30 fee (P2); written as £20.
    18xx.games pays the written price without checking it; railcheck paid
    £0 and said nothing (the mutation sweep: 32500032_2's FFC sold for £220
    instead of £170 broke the bank a turn early in the engine only).  Now
    it is stock.company_price, taken at £20: Player 2 £20 above the engine's
    trace of the real game, everybody else as in it."""
    name = "1860_rand_2711204_3"
    data = difftest_data(name)
    next(a for a in data["actions"] if a["id"] == 120)["price"] = 20
    r = Replay(replay_data(data, name + "_bhc_20", 130)).run()
    assert [(f.action_id, f.rule, f.message) for f in r.findings if f.severity == "error"] == [
        (120, "stock.company_price", "the bank buys BHC at its face value £30 less £30, £0, not "
                                     "£20 (18xx.games pays the written price); taken at £20, as "
                                     "the record says")]
    site = next(s for s in load_trace("1860", name)["states"] if s["id"] == 130)
    cash = {p.name: p.cash for p in r.game.players}
    assert cash["Player 2"] == site["players"]["Player 2"] + 20
    assert {k: v for k, v in cash.items() if k != "Player 2"} == {
        k: v for k, v in site["players"].items() if k != "Player 2"}


def test_a_private_bought_from_the_bank_at_a_price_he_cannot_pay():
    """1860_game_end_bank #405: Player 2 buys Fishbourne Ferry from the bank
    for £200, its face value.  Written as £9999 (he has £226), the engine
    refuses it (the oracle's replay.rb: not finished).  railcheck flags it
    at #405 naming both prices and his cash, takes it at the face value,
    and the game goes on in step with the engine's trace of the real game."""
    data = real_export("1860_game_end_bank")
    next(a for a in data["actions"] if a["id"] == 405)["price"] = 9999
    record = replay_data(data, "ffc_9999", 420)
    divergence, result, _ = walk_trace(record, load_trace("1860", "1860_game_end_bank"))
    errors = [(f.action_id, f.rule, f.message) for f in result.findings if f.severity == "error"]
    assert errors == [(405, "stock.company_price",
                       "the bank sells FFC at its face value £200, not £9999, which Player 2 "
                       "cannot pay with £226; taken at £200")]
    assert divergence is None
    assert player(result.game, "Player 2").companies[-1].sym == "FFC"


def test_a_private_bought_from_the_bank_below_its_face_value_is_taken_as_paid():
    """The same purchase written as £150: 18xx.games takes any price the
    player can pay (it does not check it); the bank sells at face value
    (P2), so railcheck flags it, saying the engine allows it, and takes the
    £150 the record says was paid (Player 2: 226 -> 76)."""
    data = real_export("1860_game_end_bank")
    next(a for a in data["actions"] if a["id"] == 405)["price"] = 150
    result = Replay(replay_data(data, "ffc_150", 405), hints=False).run()
    errors = [(f.action_id, f.rule, f.message) for f in result.findings if f.severity == "error"]
    assert errors == [(405, "stock.company_price",
                       "the bank sells FFC at its face value £200, not £150 (18xx.games takes "
                       "any price the player can pay); taken at £150, as the record says")]
    assert player(result.game, "Player 2").cash == 76


def test_a_station_left_out_is_found_at_the_run_that_needs_it_and_the_game_stays_in_step():
    """19354: IWNJ places its second station at G5 for £40 (#245) and runs
    its 4+2 from Ryde through Newport to Cowes (#246).  Without #245 the
    engine refuses the run ("Route must contain token").  railcheck flags
    the run (route.token), naming IWNJ's only station (Merstone, G7), and
    takes it as run: this export gives no revenue, so the run is valued on
    the map (£300 and £20 of halt subsidy, what the engine paid) instead of
    as nothing; the game goes on with no other finding, every player's cash
    as in the engine's trace and IWNJ's treasury £40 (the station not
    bought) above it (before, the run earned nothing and 61 more errors
    followed)."""
    data = real_export("19354")
    data["actions"] = [a for a in data["actions"] if a["id"] != 245]
    for key in ("game_end_reason", "status"):
        data.pop(key, None)
    result = Replay(replay_data(data, "19354_no245", 300), hints=False).run()
    errors = [(f.action_id, f.rule, f.message) for f in result.findings if f.severity == "error"]
    assert errors == [(246, "route.token",
                       "the 4+2-train (4+2-0) (I3-J4-I5-H4 halt 0-H4 town 0-G3-G5 city 0-F4-"
                       "F2 halt 0-F2 town 0-F2 city 0) includes no station of IWNJ (its "
                       "stations: G7 city 0); taken as run, earning £300 and a subsidy of £20")]
    site = next(s for s in load_trace("1860", "19354")["states"] if s["id"] == 300)
    g = result.game
    assert {p.name: p.cash for p in g.players} == site["players"]
    assert site["corporations"]["IWNJ"]["cash"] == 620
    assert g.corporations["IWNJ"].cash == 660
    assert all(g.corporations[sym].cash == c["cash"]
               for sym, c in site["corporations"].items() if sym != "IWNJ")


def test_a_lay_reached_only_through_a_city_full_of_others_is_flagged_and_taken_as_laid():
    """32000032_1: IWNJ floats in SR 4 (#112) and its home station fills
    Merstone's one slot (G7).  IOW's track reaches H8 only through
    Merstone, yet at #115 IOW lays 743 on H8: 18xx.games lets it through (it
    does not compute IOW's network again after the station placed in the
    stock round, and does not check connections when it loads a game).  A
    full city blocks others (O3d): railcheck flags it once and takes the
    tile as laid, so the game stays with the engine's trace (before, the lay
    was refused and 117 errors followed)."""
    name = "1860_rand_32000032_1"
    divergence, result, compared = walk_trace(difftest_record(name), load_trace("1860", name))
    errors = [(f.action_id, f.rule, f.message) for f in result.findings if f.severity == "error"]
    assert errors == [(115, "track.blocked_connection",
                       "tile 743 rotation 2 on H8 is not connected to IOW's network (no track of "
                       "IOW reaches H8): IOW's track reaches H8 only through G7 city 0 (IWNJ), a "
                       "city filled by other corporations' stations, which blocks it (O3d); "
                       "18xx.games allows it; taken as laid, as the record says")]
    assert divergence is None and compared == 125
    assert result.game.board.hexes["H8"].tile.name == "743"


def test_a_trainless_presidents_certificate_counts_half_its_value_rounded_once():
    """32000043_2 (stopped in OR 15.1): Player 1 is S&C's president (20%)
    and holds one more share; S&C stands at £95 with no train.  Each
    certificate counts half its value rounded down by itself (E4, as
    18xx.games scores): £95 + £47 = £142, not 3 x £47 = £141; his net worth
    is the site's £2729 (cash 1061 + shares 1668)."""
    result = Replay(difftest_record("1860_rand_32000043_2"), hints=False).run()
    g = result.game
    p1 = player(g, "Player 1")
    assert g.title.holding_value(g.corporations["S&C"], p1) == 142
    assert g.title.holding_value(g.corporations["C&N"], p1) == 195   # £78: 78 + 3 x 39
    by = {row["player"]: row for row in result.standings}
    assert (by["Player 1"]["cash"], by["Player 1"]["shares"], by["Player 1"]["net_worth"]) == \
        (1061, 1668, 2729)
    assert [f for f in result.findings if f.severity != "info"] == []


def test_a_bank_broken_in_a_stock_round_ends_the_game_after_the_next_or():
    """32000002_2: a sale in SR 15 (#690) leaves the players £10075 (more
    than the bank's £10000): the bank breaks, and the game ends with the
    next OR, 15.1 (E2: "one more OR"), as the site ends it.  railcheck
    played OR 15.2 as well (its privates paid Player 2 £25 more)."""
    name = "1860_rand_32000002_2"
    divergence, result, _ = walk_trace(difftest_record(name), load_trace("1860", name))
    assert divergence is None
    assert result.finished and result.end_reason == "bank"
    assert result.game.round.label == "OR 15.1"
    assert {row["player"]: row["net_worth"] for row in result.standings} == {
        "Player 1": 9559, "Player 2": 9827}
    assert [f for f in result.findings if f.severity == "error"] == []


def test_the_banks_own_cash_below_zero_breaks_nothing_the_players_cash_does():
    """44000100_1 (2 players): the bank's own cash (it holds £20000 less the
    players' starting cash, unchecked) goes below zero at #699 (IWNJ's
    payout: £39 -> -£123) while the players hold £8793 together; 1860's bank
    breaks only when the players' cash exceeds £10000 (E2, ``bank_counts:
    players_cash``): at #719, IOW's payout of £400 to Player 1 (£9883 ->
    £10283), and the game ends with that OR, 21.3, as the site ends it.
    railcheck had broken it at #699 from the bank's own cash without
    noting the end, so the title's test at #719 passed over it and the game
    went on (nationalisation; Player 1 £9597 at #730, the trace's £9572)."""
    name = "1860_rand_44000100_1"
    g = Replay(difftest_record(name, 699), hints=False).run().game
    assert g.bank.cash == -123 and sum(p.cash for p in g.players) == 8793
    assert not g.bank_broken and g.end_pending is None
    result = Replay(difftest_record(name), hints=False).run()
    assert result.finished and result.end_reason == "bank"
    assert result.game.round.label == "OR 21.3"
    assert not result.game.title.state.nationalised
    assert {row["player"]: (row["cash"], row["net_worth"]) for row in result.standings} == {
        "Player 1": (9572, 15282), "Player 2": (1123, 3745)}
    # the three findings are rule-backed (R2, tools/rule_backed.yaml)
    assert [(f.action_id, f.rule) for f in result.findings if f.severity == "error"] == [
        (580, "route.receivership_max"), (590, "route.receivership_max"),
        (601, "route.receivership_max")]


def test_the_site_stops_a_game_still_going_when_a_round_of_turn_100_ends():
    """2711144_3: a 4-player game where nobody can act any more.  At its
    last action (#514, a pass ending SR 41) 18xx.games plays the empty
    rounds through to turn 100 and stops the game when SR 100 ends ('dnf':
    did not finish, a limit of the site, no rule's end), without starting
    OR 100.1.  railcheck stopped its loop of empty rounds after 50 (in SR
    58, not ended) and would have started the next round; an export's
    replay now goes on to the site's limit and ends there, with the site's
    scores."""
    name = "1860_rand_2711144_3"
    divergence, result, _ = walk_trace(difftest_record(name), load_trace("1860", name))
    assert divergence is None
    assert result.finished and result.end_reason == "dnf" and result.round == "SR 100"
    assert {row["player"]: row["net_worth"] for row in result.standings} == {
        "Player 1": 45, "Player 2": 29, "Player 3": 30, "Player 4": 17}
    assert [f for f in result.findings if f.severity != "info"] == []


def test_two_runs_may_not_share_the_track_joining_two_stops_inside_a_hex():
    """Cowes (F2) holds a city, a town and a halt joined by track inside
    the hex.  That track, like a hex side, serves one run of a turn
    (18xx.games: "Route cannot reuse track on F2").  2711204_3 #487: C&N, in
    receivership, runs for £210 + £10, the most the engine's own router
    finds; railcheck's search had found £220 + £40 with two runs both
    through F2's city, town and halt, and flagged the record
    (route.receivership_max).  Now no finding, and in step with the trace."""
    name = "1860_rand_2711204_3"
    divergence, result, compared = walk_trace(difftest_record(name), load_trace("1860", name))
    assert divergence is None and compared == 487
    assert [f for f in result.findings if f.severity == "error"] == []
    board = result.game.board
    assert [n.kind for n in board.hexes["F2"].nodes] == ["city", "town", "halt"]
    used: dict = {}
    _, _, keys = follow_given_track(board, "the 4+2-train", ["F2", "F2"], [[0], [1]], [["F2"]])
    claim_track(board, "the 4+2-train", keys, used)
    _, _, keys = follow_given_track(board, "the 5+3-train", ["F2", "F2"], [[1], [0]], [["F2"]])
    with pytest.raises(RuleViolation) as refused:
        claim_track(board, "the 5+3-train", keys, used)
    assert (refused.value.rule, refused.value.message) == (
        "route.shared_track", "the 5+3-train and the 4+2-train both use the track at F2 "
                              "between F2 city 0 and F2 town 0")
