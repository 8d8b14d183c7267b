"""18Ireland's games where railcheck parted from the 18xx.games engine in the
differential runs (tools/difftest.py, issue #23; docs/18Ireland.md "Fresh
random games"), each kept as the smallest game that shows it (a fresh random
game, or its first actions, tests/data/exports/18Ireland_difftest/, with the
engine's trace)."""

from railcheck.conformance import walk_trace
from railcheck.engine import Replay
from railcheck.titles.g18ireland.steps import BuyTrain18Ireland

from conftest import export_record, load_trace


def difftest_record(name: str, last=None):
    return export_record("18Ireland_difftest", name, last)


def test_a_company_at_its_limit_stays_in_its_turn_for_a_trade_in_from_the_pool():
    """35000019_4, OR 16.1 (phase D, limit 2): GSWR, the round's last company,
    owns a D and an 8H and £247 after its payout (#1358).  The depot's next
    train is a D (£770, £440 for the 8H: £330, more than it has), but the
    pool holds a 10H (£550) that it may take for its 8H and £110 (O6b), so
    its train step stays open: at #1359 GSWR trades, £247 -> £137, D and
    10H, and OR 16.2 begins.  railcheck looked only at the depot, ended
    GSWR's turn and OR 16.1 after the payout, and took the trade as CBPR's
    (turn.order, trains.exchange: the trace parted at #1359)."""
    name = "18Ireland_rand_35000019_4"
    seen = {}

    def after(game, action):
        if action.action_id in (1358, 1359):
            rnd = game.round
            gswr = game.corporations["GSWR"]
            seen[action.action_id] = (rnd.label, rnd.turn.corp.sym, gswr.cash,
                                      [t.name for t in gswr.trains], game.bank.cash)
            if action.action_id == 1358:
                step = rnd.steps[rnd.turn.step]
                assert isinstance(step, BuyTrain18Ireland)
                assert [t.id for t in game.available_depot_trains()] == ["D-6"]
                assert [t.id for t in game.pool_trains()] == ["8H-2", "10H-1"]
                assert step.trade_in_open(rnd.turn)
                # not before phase 10, the phase the first 10H begins (O6b)
                now, game.phase_index = game.phase_index, step.trade_phase() - 1
                assert not step.trade_in_open(rnd.turn)
                game.phase_index = now

    replay = Replay(difftest_record(name, 1360), check_purity=True)
    replay.after_action = after
    result = replay.run()
    assert seen == {1358: ("OR 16.1", "GSWR", 247, ["D", "8H"], -19),
                    1359: ("OR 16.2", "CBPR", 137, ["D", "10H"], 91)}
    assert [f.rule for f in result.findings if f.severity == "error"] == []
    # the whole game: trace-exact, the engine's end and scores; its one error
    # is B1, rule-backed (MRNCC at its limit buys a 10H outright at #1371)
    divergence, result, compared = walk_trace(difftest_record(name),
                                              load_trace("18Ireland", name))
    assert divergence is None and compared == 1385
    assert [(f.action_id, f.rule) for f in result.errors] == [(1371, "trains.limit")]
    assert result.finished and result.end_reason == "bank"
    assert {r["player"]: r["net_worth"] for r in result.standings} == {
        "Player 4": 2337, "Player 3": 1761, "Player 1": 905, "Player 2": 0}


def test_a_lay_past_a_city_a_home_station_filled_in_the_stock_round_is_taken_as_laid():
    """35000099_0 (its first 101 actions): UR's broad track runs from Belfast
    J4 through the one-slot city of Dundalk & Drogheda I9 (IR2) on to G9,
    whose track faces F10 (UR's broad network reaches F10 at edge 4, #74).
    DER wins its auction at #87 and its home station fills I9's slot, so at
    #98 UR's lay of 645 on F10 joins no track UR can run on: flagged once
    (O2a: the company must be able to run on the new track), taken as laid,
    as the record says (UR pays its £40, £176 -> £136).  The site's live
    engine had not recomputed UR's connections since (a home station placed
    in a stock round does not clear them) and let it through; its replay of
    a game checks no lay; a fresh engine loaded up to #97 refuses #98 ("F10
    is not legally rotated for 645") and accepts it with DER's station taken
    off I9.  Rule-backed, tools/rule_backed.yaml (tile.connection)."""
    name = "18Ireland_rand_35000099_0"
    seen = {}

    def after(game, action):
        if action.action_id in (74, 86, 87, 98):
            board = game.board
            seen[action.action_id] = (
                sorted(board.available_edges("UR", board.hexes["F10"])),
                [list(n.tokens) for n in board.hexes["I9"].nodes if n.kind == "city"],
                board.hexes["F10"].tile.name, game.corporations["UR"].cash)

    divergence, result, compared = walk_trace(difftest_record(name),
                                              load_trace("18Ireland", name))
    assert divergence is None and compared == 101
    assert [(f.action_id, f.rule, f.message) for f in result.errors] == [
        (98, "tile.connection",
         "tile 645 rotation 2 on F10 is not connected to UR's network (no broad track of UR "
         "reaches F10, nor narrow track from a place its broad track reaches); taken as laid, "
         "as the record says")]
    replay = Replay(difftest_record(name), check_purity=True)
    replay.after_action = after
    replay.run()
    assert seen == {74: ([4], [[]], "F10", 136), 86: ([4], [[]], "F10", 176),
                    87: ([], [["DER"]], "F10", 176), 98: ([], [["DER"]], "645", 136)}


def test_the_lay_is_rule_backed_in_the_differential_table():
    """The table tools/difftest.py reads (tools/rule_backed.yaml) backs
    18Ireland's tile.connection in the three games where the site's live
    engine let a lay past a city filled since through (2711209_3 #151,
    35000099_0 #98, 55000069_4 #261: a minor's home station placed as it
    was won in the stock round) and in no other game."""
    import yaml
    from conftest import REPO
    table = yaml.safe_load((REPO / "tools" / "rule_backed.yaml").read_text(encoding="utf-8"))
    entries = [e for e in table["rule_backed"]
               if e["rule"] == "tile.connection" and "18Ireland" in e["titles"]]
    assert [e["games"] for e in entries] == [["18Ireland_rand_2711209_3",
                                              "18Ireland_rand_35000099_0",
                                              "18Ireland_rand_55000069_4"]]
    assert "O2a" in entries[0]["why"] and "35000099_0" in entries[0]["why"] \
        and "55000069_4: at #261" in entries[0]["why"]


def _with_city(record, action_id: int, city: str):
    """``record`` read again with action ``action_id``'s station naming the
    site's ``city`` (a changed copy, as the engine's one-action sweeps)."""
    import gzip
    import json

    from railcheck.importer import import_export
    from conftest import DATA
    path = DATA / "exports" / "18Ireland_difftest" / f"{record}.json.gz"
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        data = json.load(fh)
    item = next(a for a in data["actions"] if a["id"] == action_id)
    assert item["type"] == "place_token"
    item["city"] = city
    changed, read = import_export(json.dumps(data), record)
    changed.options = list(changed.options) + ["site_bankruptcy"]
    return changed, read


def test_a_station_naming_a_place_of_the_tile_that_is_no_city_is_refused():
    """33500207_2 (its first 407 actions, with site_bankruptcy: B5 at #206):
    at #404 MRNCC places a station on Sligo D6, where tile 645 (one city,
    the site's 645-0-0) lies: taken, trace-exact.  Changed to name 645-0-1
    (the site numbers a tile's places by their place in its code: 645's
    part 1 is a path), the engine finds no such city and refuses it;
    railcheck took any number past a one-city hex's city as that city (a
    reading made for the Dundalk tile IR2, whose city the site calls
    IR2-0-1) and placed it.  Now the importer reads the site's numbers by
    the tile's node order (board.yaml node_order), so the number past 645's
    one city names none and the station is refused (token.city), the state
    as it was (MRNCC keeps its £160, D6 without its station; placed, the
    station cost £50: £110)."""
    name = "18Ireland_rand_33500207_2"
    record = difftest_record(name)
    record.options = list(record.options) + ["site_bankruptcy"]
    divergence, result, compared = walk_trace(record, load_trace("18Ireland", name))
    assert divergence is None and compared == 407
    assert [f.rule for f in result.findings if f.severity == "error"] == []
    g = result.game
    assert g.board.hexes["D6"].tile.name == "645"
    assert [list(n.tokens) for n in g.board.hexes["D6"].nodes if n.kind == "city"] == [["MRNCC"]]
    assert [Replay(difftest_record(name, last)).run().game.corporations["MRNCC"].cash
            for last in (403, 404)] == [160, 110]

    changed, read = _with_city(name, 404, "645-0-1")
    assert read == []
    assert next(a for a in changed.actions if a.action_id == 404).city == 1
    changed.actions = [a for a in changed.actions if a.action_id <= 404]
    result = Replay(changed, check_purity=True).run()
    assert [(f.action_id, f.rule, f.message) for f in result.findings
            if f.severity == "error"] == [(404, "token.city", "D6 has no city 1 (it has 1 city)")]
    g = result.game
    assert [list(n.tokens) for n in g.board.hexes["D6"].nodes if n.kind == "city"] == [[]]
    assert g.corporations["MRNCC"].cash == 160


def test_the_dundalk_tiles_city_is_the_sites_place_1_and_its_town_no_city():
    """The site numbers the places of IR2 (Dundalk & Drogheda: a town, then a
    city) 0 and 1: a station on IR2-0-1 is on its one city, our city 0 (the
    export's number read so at import, random 33000000_1 #628: MRNCC's home
    in the stock round); a station on IR2-0-0, its town, names no city (the
    site cannot read it either): a station on I9 at no city, which the round
    refuses (token.city) and the record-following layer reads as the record's
    next lines go on (the line was dropped at import: 14 errors in another
    game, tests/test_slips.py)."""
    from conftest import export_record as record_of
    rec = record_of("18Ireland_random", "18Ireland_rand_33000000_1", 628)
    token = next(a for a in rec.actions if a.action_id == 628)
    assert (token.actor, token.hex, token.city) == ("MRNCC", "I9", 0)
    result = Replay(rec).run()
    assert [f.rule for f in result.findings if f.severity == "error"] == []
    assert [list(n.tokens) for n in result.game.board.hexes["I9"].nodes
            if n.kind == "city"] == [["MRNCC"]]

    import gzip
    import json

    from railcheck.importer import import_export
    from conftest import DATA
    path = DATA / "exports" / "18Ireland_random" / "18Ireland_rand_33000000_1.json.gz"
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        data = json.load(fh)
    item = next(a for a in data["actions"] if a["id"] == 628)
    assert item["city"] == "IR2-0-1"
    item["city"] = "IR2-0-0"
    changed, read = import_export(json.dumps(data), "33000000_1")
    assert read == []
    token = next(a for a in changed.actions if a.action_id == 628)
    assert (token.hex, token.city) == ("I9", "the site's place 0 of IR2 is its town, not a city")
    res = Replay(changed, hints=False).run()
    assert [(f.action_id, f.rule, f.message) for f in res.findings if f.severity == "error"] == [
        (628, "token.city", "no city on I9 is named: the site's place 0 of IR2 is its town, not "
                            "a city; the record's later lines go on as if the station were in I9 "
                            "city 0: taken so")]


def test_an_empty_run_the_site_asked_for_where_no_route_is_taken_at_its_line():
    """50000039_2 (a held-out batch): UR's home is city 0 of a green Belfast
    (IR6, #251), whose one track leads to J2, a hex without track: no route.
    18xx.games' live game still asked UR for a run three times and the
    record has its empty runs (#252, #613, #627); the engine's own replay of
    the export finds no route either and refuses #252 ("Blocking step
    Lay/Upgrade Track cannot process action run_routes"), so the difftest
    skips the game.  No rule forbids writing a run of nothing.  railcheck passed the step over: the
    withhold a line early (UR £60 -> £55 at #251), then, UR last in OR 13.1,
    the next round begun and #613 read as written in GJR's turn (3 errors),
    and the game ended before #627 (game.over).  The run step now waits for
    the record's empty run (``Following.empty_run_next``): trace-exact with
    the option site_bankruptcy (B5: the site keeps a bankrupt player's
    privates, Player 2's DR bought from him at #254), the site's scores."""
    name = "18Ireland_rand_50000039_2"
    record = difftest_record(name)
    record.options = list(record.options) + ["site_bankruptcy"]
    divergence, result, compared = walk_trace(record, load_trace("18Ireland", name))
    assert divergence is None and compared == 627
    assert [f.rule for f in result.errors] == []
    assert result.finished and result.end_reason == "bank"
    assert {r["player"]: r["net_worth"] for r in result.standings} == {
        "Player 1": 1081, "Player 4": 1047, "Player 6": 759, "Player 5": 609,
        "Player 3": 535, "Player 2": 67}


def test_a_minors_home_with_no_city_named_leaves_a_major_the_other_city():
    """58000009_0 (held-out batch R; its first 380 actions): Cork (E21) is
    CBPR's home, no city named; by #358 it holds IR6, two cities of one slot
    each, both empty.  Player 1 pars CBSCR, whose home station goes at #359
    on city 1 (IR6-1-1).  The reservation is the hex's (18xx.games's
    reservations that block no city: the others' reservations on the tile
    must be fewer than its free slots), so city 0 is left for CBPR, whose
    station goes there at #377.  railcheck had held CBPR's reservation on
    the city the preprinted hex's one reservation mapped to (city 1) and
    refused CBSCR's home: token.reserved, stock.home_station and 30 errors
    after; now no finding, trace-exact."""
    name = "18Ireland_rand_58000009_0"
    seen = {}

    def after(game, action):
        if action.action_id in (358, 359, 377):
            seen[action.action_id] = [(list(n.tokens), list(n.reserved))
                                      for n in game.board.hexes["E21"].nodes if n.kind == "city"]

    replay = Replay(difftest_record(name, 380), check_purity=True)
    replay.after_action = after
    assert replay.run().findings == []
    assert seen == {358: [([], []), ([], ["CBPR"])],
                    359: [([], ["CBPR"]), (["CBSCR"], [])],
                    377: [(["CBPR"], []), (["CBSCR"], [])]}
    divergence, result, compared = walk_trace(difftest_record(name, 380),
                                              load_trace("18Ireland", name))
    assert divergence is None and compared == 380 and result.errors == []
