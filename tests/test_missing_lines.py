"""A line left out, read from the record's next lines: one finding where
the record goes on without it, and the game ends with its own scores.

- in a waterfall auction (1830's, 1889's): the turn's player's pass, his
  purchase of the cheapest private, or his bid at the least on another
  (``following/auction.py``, ``missing_waterfall_line``);
- a company's purchase of the depot's last trains of a type, before its
  purchase of the next type (``following/repair.py``,
  ``_missing_depot_trains``), or before a discard the new phase forces
  (``_missing_phase_train``)."""

import pytest

from railcheck.engine import Replay

from conftest import error_findings, net_worths
from test_slips import OPENING_SCORES, _changed_export, errors, line_of, report, scores, without


@pytest.mark.parametrize("deleted, next_line, reading", [
    # Bob's bid at DH's least ($70 + $5), then Carol's purchase of SV: 13 errors before
    ("Bob bid DH 75", "Carol bid SV 20", "Bob bid $75 on DH"),
    # Carol's purchase of the cheapest (SV at $20) put CS up between its two
    # bidders, Bob first: the record goes on with Bob's pass there, not with
    # the next seat (Alice): 13 errors before
    ("Carol bid SV 20", "Bob pass", "Carol bought SV at its price"),
    # Alice's bid on CS over Bob's $45: 9 errors before
    ("Alice bid CS 50", "Bob bid DH 75", "Alice bid $50 on CS"),
])
def test_a_line_left_out_of_the_auction_is_one_finding(tmp_path, deleted, next_line, reading):
    at = line_of(deleted)           # the next line moves up into its place
    assert line_of(next_line) == at + 1
    f = report(tmp_path, without(deleted))
    assert errors(f) == [(at, "turn.order")]
    writer, whose = next_line.split()[0], deleted.split()[0]
    assert f["findings"][0]["message"] == (
        f"{writer} acted out of turn: it is {whose}'s turn in the auction; the record's "
        f"later lines go on as if {reading} before it (a line missing): taken so")
    assert scores(f) == OPENING_SCORES and f["round"] == "SR 3"


@pytest.mark.parametrize("path, deleted, at, company, bought, price, end", [
    # 18xx.games game 29133: NYNH buys 2-4 (#55), 2-5 (#56) and 3-0 (#57);
    # without #56 the 3-train is refused and the phase never comes (147
    # errors); the site's net worths
    ("1830/29133.json", 56, 57, "NYNH", "2-5", 80,
     {"Player 2": 1477, "Player 3": 951, "Player 1": 887, "Player 4": 416}),
    # the 'game_end_bank' fixture: C&O's 3-4 (#223) before its 4-0 (173 errors)
    ("1830/1830_game_end_bank.json", 223, 224, "C&O", "3-4", 180,
     {"Player 2": 13048, "Player 3": 12109, "Player 1": 12025}),
])
def test_a_train_purchase_left_out_before_the_next_type_is_one_finding(
        path, deleted, at, company, bought, price, end):
    r = Replay(_changed_export(path, deleted, "delete")).run()
    errs = error_findings(r)
    assert [(f.action_id, f.rule) for f in errs] == [(at, "trains.not_available")]
    assert errs[0].message.endswith(
        f"the record's later lines go on as if {company} had bought the depot's {bought} "
        f"before it, for ${price} (a missing line): taken so")
    assert net_worths(r) == end


def test_a_train_purchase_left_out_before_the_discards_its_phase_forces_is_one_finding():
    # 18xx.games game 29133: B&M buys the first 5-train (#229), phase 5
    # lowers the limit to 2 and B&M discards a 3 (#230); without #229 the
    # discard is within the limit and refused, the phase never comes (46
    # errors): read as the turn's company's purchase of the depot's next train
    r = Replay(_changed_export("1830/29133.json", 229, "delete")).run()
    errs = error_findings(r)
    assert [(f.action_id, f.rule) for f in errs] == [(230, "trains.discard")]
    assert errs[0].message == (
        "B&M owns 2 trains, within the limit of 3; trains may not be discarded at will; the "
        "record's later lines go on as if B&M had bought the depot's 5-0 for $450 before it, "
        "the phase lowering the limit (a missing line): taken so")
    assert net_worths(r) == {"Player 2": 1477, "Player 3": 951, "Player 1": 887, "Player 4": 416}


# a run left out on every title that can say its best run (branch m11)

def test_an_18ireland_run_left_out_before_its_payout_is_the_best_run_found():
    # 18Ireland_rand_49200103_0 #271 deleted: DDR's run (its 2H, £60).  Its
    # payout at #272 then paid nothing, and the players' cash, the merger
    # and the minors' auction parted from the record: 202 errors, the first
    # route.missing at #272.  18Ireland's route step now says its best run
    # (Route18Ireland.best_run_now), so following/run.py's missing run reads
    # it as 1860's: one finding at the payout, and the site's net worths
    res = Replay(_changed_export("18Ireland_slips/18Ireland_rand_49200103_0.json.gz", 271,
                                 "delete"), hints=False).run()
    assert [(f.action_id, f.rule, f.message) for f in error_findings(res)] == [
        (272, "route.missing", "DDR pays out, but no run is written: it owns trains (2H) and "
                               "has a route; the record's later lines go on as if it ran for "
                               "£60 (the best run found on the map; a line missing): taken so")]
    assert net_worths(res) == {"Player 3": 600, "Player 1": 469, "Player 6": 278,
                               "Player 2": 271, "Player 5": 262, "Player 4": 182}


# a share purchase left out (branch m11; following/diagnose.py, missing_purchase_hint)

def test_a_share_purchase_left_out_before_its_pass_is_read_from_the_later_sale():
    # 1830_rand_44000100_1 #30 deleted: Player 1 buys NYNH_1, then passes
    # (#31).  The pass alone is legal; at #64 he sells NYNH_1, which he
    # does not hold, and NYNH does not float: 250 errors.  A purchase of
    # NYNH_1 before each of his latest passes is tried, the latest first:
    # one before his pass at #56 explains the record as well (it does not
    # say which), and is never before the line left out; with the game's
    # own finding at #509 and its end
    data = _changed_export("1830_slips/1830_rand_44000100_1.json.gz", 30, "delete")
    res = Replay(data).run()
    assert [(f.action_id, f.rule) for f in error_findings(res)] == [
        (56, "stock.purchase_implied"), (509, "trains.limit")]
    assert error_findings(res)[0].message == (
        "Player 1 passes with no purchase written before, but the record's later lines go on as "
        "if he bought a share of NYNH from the IPO (as written: #64, Player 1 holds 0% of NYNH "
        "and cannot sell 10% — the first finding the missing line gives): taken as bought "
        "before this pass (the latest that explains it)")
    assert net_worths(res) == {"Player 2": 808, "Player 1": 663, "Player 3": 124}


def test_a_sale_left_out_of_a_stock_turn_is_read_from_the_pool_purchase_naming_it():
    # 18Ireland_rand_48500102_0 #143 deleted: Player 4's sale of DER_3, his
    # whole turn.  Player 5's line (#144) then came in Player 4's turn and
    # was taken out of turn, and Player 5's purchase of DER_3 from the pool
    # (#145) found none there: 8 errors.  Of the lines Player 4 could have
    # written, a sale of a certificate he holds that a later line buys from
    # the pool by its number (following/stock.py, _sales_bought_back) is
    # the one the record goes on from: one finding, the game's own end
    res = Replay(_changed_export("18Ireland_slips/18Ireland_rand_48500102_0.json.gz", 143,
                                 "delete"), hints=False).run()
    assert [(f.action_id, f.rule, f.message) for f in error_findings(res)] == [
        (144, "turn.order", "Player 5 acted out of turn: it is Player 4's turn in SR 4; the "
                            "record's later lines go on as if Player 4 sold 20% of DER before "
                            "it (a line missing): taken so")]
    assert net_worths(res) == {"Player 1": 310, "Player 5": 110, "Player 2": 81, "Player 3": 64,
                               "Player 4": 0}


def test_a_privates_exchange_left_out_is_read_before_the_sale_never_before_the_line_left_out():
    # 1889_rand_2711004_2 #14 deleted: DR exchanged for a share of IR (the
    # export's buy_shares by a private).  At #15 Player 1 sells that share,
    # which he does not hold: 56 errors.  DR's exchange, tried before the
    # sale itself (before an earlier player's line, #13, it came before the
    # line left out: a finding before the change), explains the record: one
    # finding at #15, the game's own end
    res = Replay(_changed_export("1889_slips/1889_rand_2711004_2.json.gz", 14, "delete")).run()
    assert [(f.action_id, f.rule, f.message) for f in error_findings(res)] == [
        (15, "stock.purchase_implied",
         "no exchange of DR is written, but the record's later lines go on as if its owner "
         "exchanged it for a share of IR before this line (as written: #15, Player 1 holds 0% "
         "of IR and cannot sell 10% — the first finding the missing line gives): taken so")]
    assert net_worths(res) == {"Player 1": 4340, "Player 2": 3721}


#: the net worths at the end of 18xx.games' rl18xx_game (the site's)
RL18XX = {"Player 1": 7576, "Player 2": 7453, "Player 4": 5855, "Player 3": 4074}


@pytest.mark.parametrize("deleted, at, tile", [
    # rl18xx_game #943 upgrades D12's 28-0 (1830 has one 28) to 39; without
    # it, #1002 lays 28-0 on E3, none left: refused, 24 errors
    (943, 1002, 28),
    # #1042 upgrades C17's 27-0 (one 27); without it #1046's 27-0 on D8 was
    # read as #908's lay of C17 having been an 18 (tile.implied at #908: a
    # finding before the change), and one more error
    (1042, 1046, 27),
])
def test_an_upgrade_left_out_that_freed_the_last_copy_of_a_tile_is_one_finding(
        deleted, at, tile):
    r = Replay(_changed_export("1830/rl18xx_game.json", deleted, "delete")).run()
    errs = error_findings(r)
    assert [(f.action_id, f.rule) for f in errs] == [(at, "tile.supply")]
    assert errs[0].message == (
        f"no copy of tile {tile} is left in the supply (all 1 are on the map); the record's "
        f"later lines go on from it laid (a copy back in the supply: an upgrade the record "
        f"left out?): taken so")
    assert net_worths(r) == RL18XX


# a run left out on 1830 and 1889: the shared best-run search, a budget of
# steps (branch m13; RouteStep.best_run_now, Title.best_runs_now)

@pytest.mark.parametrize("path, deleted, message, end", [
    # 1830_rand_2711004_3 #229 deleted: B&O's 2, 2 and 3 for $170 (J14-I15,
    # J14-K13, I15-H16).  Its payout at #230 then paid nothing: 21 errors (the
    # players' cash short for later purchases, the operating order).  The
    # best runs the shared search finds are $170, played with their stops
    # and checked on the map; its last run ties over the record's next lines
    ("1830_slips/1830_rand_2711004_3.json.gz", 229,
     "B&O pays out, but no run is written: it owns trains (2, 2, 2, 3) and has a route; the "
     "record's later lines go on as if it ran for $170 (the best run found on the map; a line "
     "missing; of 2 the record's next lines fit as well, the first): taken so",
     {"Player 2": 666, "Player 1": 491, "Player 3": 350}),
    # the same game's #320 deleted: NYNH's 4 and 4 for $150, withheld at #321.
    # The treasury's $150 shows only at #663 (its 6-train), past the 200
    # lines the readings are judged over: no run fits them as well, but the
    # dividend line says the company ran (2 errors before)
    ("1830_slips/1830_rand_2711004_3.json.gz", 320,
     "NYNH withholds, but no run is written: it owns trains (4, 4) and has a route; the "
     "record's later lines go on as if it ran for $150 (the best run found on the map; a line "
     "missing; no run fits the record's next lines as well, but a dividend comes after a "
     "run): taken so",
     {"Player 2": 666, "Player 1": 491, "Player 3": 350}),
    # 1889_rand_2711004_2 #92 deleted: AR's four 2-trains for ¥180: 7 errors
    ("1889_slips/1889_rand_2711004_2.json.gz", 92,
     "AR pays out, but no run is written: it owns trains (2, 2, 2, 2) and has a route; the "
     "record's later lines go on as if it ran for ¥180 (the best run found on the map; a line "
     "missing): taken so",
     {"Player 1": 4340, "Player 2": 3721}),
])
def test_a_run_left_out_on_1830_and_1889_is_the_best_run_found(path, deleted, message, end):
    res = Replay(_changed_export(path, deleted, "delete"), hints=False).run()
    assert [(f.action_id, f.rule, f.message) for f in error_findings(res)] == [
        (deleted + 1, "route.missing", message)]
    assert net_worths(res) == end
    assert not [f for f in res.findings if f.rule.startswith("score")]


def test_the_best_run_search_is_a_budget_of_steps_the_same_on_any_machine(monkeypatch):
    # the shared search's verdict rests on its count of steps, never on the
    # clock: with a clock racing (1,000 s between two looks), the same runs;
    # with a budget
    # too small for the map, nothing is read (the dividend of nothing, as
    # before: route.missing alone, then the record parts from the replay)
    import itertools
    import time

    import railcheck.runsearch as H
    clock = itertools.count(0, 1000)
    monkeypatch.setattr(time, "perf_counter", lambda: next(clock))
    res = Replay(_changed_export("1889_slips/1889_rand_2711004_2.json.gz", 92, "delete"),
                 hints=False).run()
    assert [(f.action_id, f.rule) for f in error_findings(res)] == [(93, "route.missing")]
    monkeypatch.setattr(H, "RUN_TICKS", 50)
    res = Replay(_changed_export("1889_slips/1889_rand_2711004_2.json.gz", 92, "delete"),
                 hints=False).run()
    errs = error_findings(res)
    assert (errs[0].action_id, errs[0].rule) == (93, "route.missing")
    assert errs[0].message.endswith("did not run them; a company must run its trains (taken as "
                                    "earning nothing)")
    assert len(errs) == 7


# a station left out before a run that needs it (branch m13; following/station.py)

@pytest.mark.parametrize("path, deleted, at, city, end", [
    # 1860_rand_2711294_2 #177 deleted: C&N's station in B6; its run at #178
    # then includes no station of its own, and the cash it cost parts the
    # players' from the record: 47 errors before
    ("1860_slips/1860_rand_2711294_2.json.gz", 177, 178, "B6 city 0",
     {"Player 2": 89, "Player 3": 34, "Player 1": 26, "Player 4": 12}),
    # 1860_rand_44000101_0 #184: the same at once (4 errors before)
    ("1860_slips/1860_rand_44000101_0.json.gz", 184, 185, "B6 city 0",
     {"Player 2": 6884, "Player 1": 6016, "Player 3": 3869}),
    # 1860_rand_44000101_2 #83: C&N's station in G5, its runs through G5 only
    # from #135 on (13 errors before)
    ("1860_slips/1860_rand_44000101_2.json.gz", 83, 135, "G5 city 0",
     {"Player 1": 8198, "Player 3": 7619, "Player 2": 5527}),
])
def test_a_station_left_out_before_a_run_that_needs_it_is_one_finding(path, deleted, at, city,
                                                                       end):
    res = Replay(_changed_export(path, deleted, "delete"), hints=False).run()
    assert [(f.action_id, f.rule, f.message) for f in error_findings(res)] == [
        (at, "route.token", f"a run of C&N's includes no station of its own (its stations: F2 "
                            f"city 0); the record's later lines go on as if it placed a station "
                            f"in {city} before it, for £40 (a line missing): taken so")]
    assert net_worths(res) == end
    assert not [f for f in res.findings if f.rule.startswith("score")]
