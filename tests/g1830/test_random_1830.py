"""The 24 random 1830 games (random legal moves through the 18xx.games engine,
``tests/data/random/1830``; see ``shared/corpus/random/README.md``), and the
fresh games kept for the bug each showed (``FRESH``), replay with
no finding except where 18xx.games accepts what the published rules forbid,
reach the engine's final net worths, and agree with the engine on every
player's cash and every company's treasury, price, president and trains after
every action (``tests/data/random/traces``).  docs/1830.md lists what each
game taught."""

import gzip
import json

import pytest

from railcheck.conformance import first_divergence
from railcheck.engine import Replay
from railcheck.importer import import_export

from conftest import DATA, net_worths, site_scores

GAMES = {p.stem: p for p in sorted((DATA / "random" / "1830").glob("*.json"))}

#: where 18xx.games lets through what the rules forbid (docs/1830.md, "The
#: engine accepts"): a company at its train limit that could trade a 4, 5 or
#: 6 in for a D buys a train outright, then discards one.
EXPECTED_FINDINGS = {
    "1830_rand_18303_3": [(854, "trains.limit")],   # B&O (5, 5) buys a D
    "1830_rand_18303_4": [(771, "trains.limit")],   # PRR (D, 5) buys a D
    "1830_rand_18304_4": [(745, "trains.limit"),    # B&M (5, 6) buys NYNH's 6
                          (866, "trains.limit")],   # B&O (5, D) buys B&M's 6
    "1830_rand_31000018_0": [(732, "trains.limit")],  # C&O (4, 6) buys a D in phase 6
    "1830_rand_31000136_0": [(677, "trains.limit")],  # B&O (5, 6) buys a D
    # a private bought from a player at the certificate limit (docs/1830.md,
    # "A private bought over the certificate limit"): 11 certificates, limit 11
    "1830_rand_42000074_1": [(275, "private.cert_limit"), (283, "private.cert_limit")],
}


def trace_of(name: str) -> dict:
    with gzip.open(DATA / "random" / "traces" / f"{name}.trace.json.gz", "rt",
                   encoding="utf-8") as fh:
        return json.load(fh)


#: fresh games kept for the bug each showed (docs/1830.md, "Fresh games"): name -> players
FRESH = {
    "1830_rand_2711024_2": 5,   # #295: CS's lay right after B&O bought it, mid-OR
    "1830_rand_31000018_0": 5,  # #255: DH's pass declines its station
    "1830_rand_31000006_0": 5,  # #1155: NYC places ERIE's station lifted by its lay
    "1830_rand_2711064_0": 5,   # #565: brown CPR bought before and after a sale
    "1830_rand_2711114_1": 6,   # #144: CS after the last company's pass of the train step
    "1830_rand_31000136_0": 3,  # #271: the last company's second pass, CS unused
    "1830_rand_31000175_0": 6,  # #244: DH's tile for B&O, whose markers are all placed
    "1830_rand_31500291_0": 6,  # #450: PRR's tile on E11, ERIE's home not yet placed
    "1830_rand_42000094_0": 4,  # #287: NYC says ERIE's city on E11, then places its own
    "1830_rand_42000074_1": 6,  # #275: DH bought from a player at the certificate limit
}


def test_all_games_and_traces_are_present():
    assert len(GAMES) == 24 + len(FRESH)
    for name in GAMES:
        assert (DATA / "random" / "traces" / f"{name}.trace.json.gz").exists()
    players = {name: len(json.loads(p.read_text())["players"]) for name, p in GAMES.items()}
    assert sorted(n for name, n in players.items() if name not in FRESH) == \
        [3] * 6 + [4] * 6 + [5] * 6 + [6] * 6
    assert {name: players[name] for name in FRESH} == FRESH


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_game_replays_and_scores_match_the_engine(name):
    text = GAMES[name].read_text()
    record, read_findings = import_export(text, str(GAMES[name]))
    assert read_findings == []
    result = Replay(record).run()
    found = [(f.action_id, f.rule) for f in result.findings
             if f.severity in ("error", "warning")]
    assert found == EXPECTED_FINDINGS.get(name, [])
    assert result.finished
    data = json.loads(text)
    assert net_worths(result) == site_scores(data)
    assert result.end_reason == {"bank": "bank", "bankrupt": "bankrupt"}[
        data["game_end_reason"]]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_game_matches_the_engine_after_every_action(name):
    trace = trace_of(name)
    divergence, _ = first_divergence(GAMES[name].read_text(), trace, str(GAMES[name]))
    assert divergence is None, str(divergence)
    assert len(trace["states"]) > 200


# ---------------------------------------------------------------------------
# the corners these games reach, at the action where railcheck used to differ

def at(name: str, action_id: int, look):
    """Replay ``name`` and return ``look(game)`` right after ``action_id``."""
    record, _ = import_export(GAMES[name].read_text(), str(GAMES[name]))
    seen = []
    replay = Replay(record, stop_at=action_id)     # (the record ahead is still read)
    replay.after_action = lambda g, a: seen.append(look(g)) if a.action_id == action_id else None
    result = replay.run()
    assert [f for f in result.findings if f.action_id == action_id] == []
    return seen[-1]


def test_a_train_bought_over_the_limit_says_the_rule_and_that_the_site_allows_it():
    # 18303_3 #854: B&O holds a 5 and a 5 in phase D (limit 2) and buys a D for
    # 1100; it could have traded a 5 in for a D, so 18xx.games lets it buy.
    text = GAMES["1830_rand_18303_3"].read_text()
    record, _ = import_export(text, "g.json")
    result = Replay(record, stop_at=854).run()
    [f] = [f for f in result.findings if f.severity == "error"]
    assert (f.action_id, f.rule) == (854, "trains.limit")
    assert f.message == ("B&O owns 2 trains; one more makes 3, over the limit of 2 in phase D: "
                         "a company at its train limit may not buy a train; 18xx.games lets "
                         "B&O buy because it could trade its 5-train in for a D; taken as "
                         "bought, as the record says")


def test_bankrupt_president_keeps_the_presidency_of_the_company():
    # 18304_3 #697: B&M cannot buy a train; Player 4 goes bankrupt.  The
    # emergency step's rules keep B&M's presidency with Player 4.
    got = at("1830_rand_18304_3", 697, lambda g: (
        g.corporations["B&M"].president.name, g.player_by_name["Player 4"].cash))
    assert got == ("Player 4", 0)


def test_home_station_city_chosen_on_an_oo_tile():
    # 18306_3 #533: PRR laid 59 on E11 before ERIE first operated; ERIE's
    # first station placement puts its home station in the second city.
    got = at("1830_rand_18306_3", 533, lambda g: g.board.tokens_on("E11"))
    assert got == [[], ["ERIE"]]


def test_private_power_right_after_the_last_company_bought_it():
    # 18304_4 #74-75: B&O, last in OR 4.1, buys CS from Player 1 for 64 and
    # lays tile 58 on B20 with it, still in its turn; then SR 5 begins.
    got = at("1830_rand_18304_4", 75, lambda g: (
        g.round.label, g.companies["CS"].uses, g.corporations["B&O"].cash))
    assert got == ("SR 5", 1, 0)


def test_private_power_right_after_a_company_bought_it_in_the_middle_of_the_or():
    # 2711024_2 #294-296: B&O, first in OR 12.1 with PRR still to come, buys CS
    # from Player 1 for 80 after its dividend (B&O 168 -> 88, Player 1 294 -> 374); 18xx.games keeps B&O's turn
    # open while it owns a usable power, and CS lays tile 3 on B20 (#295), free,
    # before PRR's turn (#296); B&O's turn then ends, nothing else left to it.  railcheck had closed B&O's turn and said
    # "private.power: CS can be used only in its owner B&O's turn".
    got = at("1830_rand_2711024_2", 295, lambda g: (
        g.round.label, g.round.turn.corp.sym, g.companies["CS"].uses,
        g.corporations["B&O"].cash, g.player_by_name["Player 1"].cash, g.board.tile_on("B20")))
    assert got == ("OR 12.1", "PRR", 1, 88, 374, ("3", 5))
    got = at("1830_rand_2711024_2", 296, lambda g: (
        g.round.turn.corp.sym, g.corporations["PRR"].cash))
    assert got == ("PRR", 75)


def test_dh_pass_declines_its_station_and_the_turn_goes_on():
    # 31000018_0 #254-255: C&O (its 2-train has no route) lays 57 on F16 with
    # DH ($120 mountain: 190 -> 70) and DH passes: no station there.  The turn
    # goes on at once, with nothing left to do: no run, its price moves left
    # from 40 to 30.  railcheck had kept waiting for DH's station until the
    # next company acted.
    got = at("1830_rand_31000018_0", 255, lambda g: (
        g.corporations["C&O"].cash, g.corporations["C&O"].price.price,
        g.board.tokens_on("F16"), g.round.turn.corp.sym))
    assert got == (70, 30, [[]], "C&O")


def test_a_company_places_the_station_its_lay_lifted_on_a_hex_of_two_cities():
    # 31000006_0 #1154-1155: NYC lays 59 on E11, where ERIE's home station
    # stood on the track-less printed hex; 18xx.games has NYC, the operating
    # company, say in which city ERIE's station stands (place_token, free, not
    # one of NYC's four, all on the map).  railcheck had refused it as NYC's
    # own station: "token.none_left".
    got = at("1830_rand_31000006_0", 1154, lambda g: g.board.tokens_on("E11"))
    assert got == [["ERIE"], []]
    got = at("1830_rand_31000006_0", 1155, lambda g: (
        g.board.tokens_on("E11"), g.corporations["NYC"].cash,
        g.board.tokens_used["NYC"], g.board.tokens_used["ERIE"]))
    assert got == ([[], ["ERIE"]], 213, 4, 3)


def test_the_station_choice_for_another_company_comes_before_the_own_station():
    # 42000094_0 #286-288: NYC lays 59 on E11, where ERIE's home station stood
    # on the track-less printed hex; NYC says ERIE's city (#287, free: city 1)
    # and then places its own station in the other city (#288, $40: 113 -> 73).
    # railcheck had put ERIE's station in city 0 at the lay, found no free city
    # for NYC there and passed over NYC's station step: "or.step_order: NYC
    # cannot place a station after running trains" at #288.
    got = at("1830_rand_42000094_0", 286, lambda g: (
        g.board.tokens_on("E11"), g.board.relocations_on("E11"), g.corporations["NYC"].cash))
    assert got == ([["ERIE"], []], ["ERIE"], 113)
    got = at("1830_rand_42000094_0", 288, lambda g: (
        g.board.tokens_on("E11"), g.corporations["NYC"].cash, g.board.tokens_used["NYC"]))
    assert got == ([["NYC"], ["ERIE"]], 73, 2)


def test_brown_zone_share_bought_before_and_after_a_sale_in_one_turn():
    # 2711064_0 #563-565, SR 7: CPR is at 10, in the brown zone, with 30% in
    # the pool.  Player 2 (24) buys a pool CPR (14), sells his NYC share at 40
    # (54) and buys another pool CPR (44): sell-buy-sell, several brown shares
    # of one company.  railcheck had said "stock.sell_buy_order: sold after
    # buying; no more buying this turn" at #565.
    def look(g):
        p2, cpr = g.player_by_name["Player 2"], g.corporations["CPR"]
        return (p2.cash, cpr.percent_of(p2), cpr.percent_of("pool"), cpr.price.price,
                g.corporations["NYC"].percent_of(p2))
    assert at("1830_rand_2711064_0", 562, look) == (24, 0, 30, 10, 10)
    assert at("1830_rand_2711064_0", 565, look) == (44, 20, 10, 10, 0)


def test_the_last_companys_pass_of_its_train_step_leaves_its_cs_lay_open():
    # 2711114_1 #142-144: NYC, last in OR 6.1, buys CS for 55 (259 -> 204) in
    # its train step and passes that step (#143); 18xx.games keeps its turn
    # open while it owns a usable power (its last step asks for a pass of its
    # own), and CS lays 58 on B20 (#144).  The turn and OR 6.1 end then: OR 6.2
    # begins and the privates pay NYC 25 (CA) + 10 (CS) = 239.  railcheck had
    # ended OR 6.1 at the pass and taken CS's lay into OR 6.2 (turn.order).
    def look(g):
        return (g.round.label, g.corporations["NYC"].cash,
                g.companies["CS"].uses, g.board.tile_on("B20"))
    assert at("1830_rand_2711114_1", 143, look) == ("OR 6.1", 204, 0, (None, 0))
    assert at("1830_rand_2711114_1", 144, look) == ("OR 6.2", 239, 1, ("58", 0))


def test_the_last_companys_final_pass_with_cs_unused_ends_the_or():
    # 31000136_0 #270-271: NYNH, last in OR 10.1, owns CS unused; it passes its
    # train step (#270), its turn stays open, and its second pass (#271) ends
    # it and the OR: OR 10.2 begins, the privates pay (NYNH 734 + 10 for CS;
    # B&O 684 + 5 for SV).  railcheck had ended OR 10.1 at the first pass and
    # read the second as NYNH's in CPR's turn of OR 10.2 (turn.order).
    def look(g):
        return g.round.label, g.corporations["NYNH"].cash, g.corporations["B&O"].cash
    assert at("1830_rand_31000136_0", 270, look) == ("OR 10.1", 734, 684)
    assert at("1830_rand_31000136_0", 271, look) == ("OR 10.2", 744, 689)


def test_dh_tile_for_a_company_with_no_marker_left_waits_for_no_station():
    # 31000175_0 #244: B&O, its 2-trains rusted and its three markers all on
    # the map (H16, I15, J14), lays 57 on F16 with DH ($120 mountain: 342 ->
    # 222); no station can follow, so the turn goes on at once: no run, its
    # price moves left from 67 to 65.  railcheck had waited for DH's station
    # until B&O's next action.
    def look(g):
        return (g.corporations["B&O"].cash, g.corporations["B&O"].price.price,
                g.board.tile_on("F16")[0], g.round.turn.special_token)
    assert at("1830_rand_31000175_0", 244, look) == (222, 65, "57", None)


def test_no_station_on_e11_before_erie_places_its_home():
    # 31500291_0 #450: PRR (no train, $469, a $100 marker left) lays 59 on
    # E11, ERIE's home (no city named; ERIE not started).  The hex is closed
    # to other stations until ERIE places its own (operating.
    # unnamed_home_closes_hex), so PRR has no station to place: no run, its
    # price moves left from 66 to 60 at once.  railcheck had waited for a
    # station on E11's other city until PRR's next action.
    def look(g):
        return (g.corporations["PRR"].cash, g.corporations["PRR"].price.price,
                g.board.tile_on("E11"), g.board.can_place_token("PRR"))
    assert at("1830_rand_31500291_0", 450, look) == (469, 60, ("59", 3), False)


def test_discards_after_the_last_company_bought_the_first_5():
    # 18305_2 #468-470: B&M, last in OR 14.2, buys the first 5; PRR and B&M
    # discard before the stock round (B&M the 5 it just bought, at #470).
    got = at("1830_rand_18305_2", 469, lambda g: (
        g.round.label, sorted(t.name for t in g.corporations["B&M"].trains)))
    assert got == ("OR 14.2", ["4", "4", "5"])
    got = at("1830_rand_18305_2", 470, lambda g: (
        g.round.label, sorted(t.name for t in g.corporations["B&M"].trains)))
    assert got == ("SR 15", ["4", "4"])


def test_a_company_whose_walk_reaches_a_stop_no_train_can_run_to_is_not_made_to_run():
    # 1830_rand_2958943_1 (the stop hook's fresh sample, seed 2958943): at
    # #792-#793 C&O, its one station on F6, passes without a run.  The map's
    # walk reaches H10 (full: PRR, ERIE) from F6, but the search for the best
    # runs goes over every run of its 5-train and finds none, as the engine
    # finds no route: no route.missing (three findings before, #793, #824,
    # #856), the site's scores
    data = json.loads(gzip.decompress(
        (DATA / "exports" / "1830_slips" / "1830_rand_2958943_1.json.gz").read_bytes()))
    record, _ = import_export(json.dumps(data), "1830_rand_2958943_1.json")
    replay = Replay(record, hints=False)
    routes = {}

    def look(g, action):
        # the map itself says so (Board.has_route, read by or.turn_missing and
        # the forced purchase too): the walk reaches H10 only out through I7
        # to J8 and I9 and back into H6 over the edge it left by
        if action.action_id == 792:
            routes.update((sym, g.board.has_route(sym)) for sym in ("C&O", "PRR"))
    replay.after_action = look
    res = replay.run()
    assert routes == {"C&O": False, "PRR": True}
    assert [f for f in res.findings if f.severity == "error"] == []
    assert net_worths(res) == site_scores(data)
