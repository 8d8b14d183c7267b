"""18Ireland's games of random legal moves (played through the 18xx.games
engine; tests/data/exports/18Ireland_random) against the site's results and
the site engine's per-action traces.

CLEAN: games that replay with no error, end as the site says and score
exactly the site's result (a warning may remain: a rejected merger proposed
again, which the site clears).  FIRST_DIVERGENCE: the first action after
which railcheck's state differs from the trace, for every game (None: none
does).  Both tables say where 18Ireland stands today (docs/18Ireland.md,
"Status"); a change that moves a game forward updates them."""

import gzip
import json

import pytest

from railcheck.conformance import walk_trace
from railcheck.importer import import_export

from conftest import DATA, load_trace, net_worths, site_scores

GAMES = {p.name[:-len(".json.gz")]: p
         for p in sorted((DATA / "exports" / "18Ireland_random").glob("*.json.gz"))}


def export_text(name: str) -> str:
    with gzip.open(GAMES[name], "rt", encoding="utf-8") as fh:
        return fh.read()


def record_of(name: str, last=None, options=()):
    """The record of the game ``name``, with ``options`` added, cut after
    action ``last`` when given (its result and end then no longer
    expected)."""
    record, _ = import_export(export_text(name), name)
    if options:
        record.options = list(record.options) + list(options)
    if last is not None:
        record.actions = [a for a in record.actions if a.action_id <= last]
        record.expected_result = record.expected_end_reason = None
    return record


def watched(name: str, ids, look, last=None, options=(), check_purity=True):
    """The game ``name`` (:func:`record_of`) replayed, ``look(game)`` taken
    after each action whose id is in ``ids``: ``(seen, result)``, ``seen``
    by action id."""
    from railcheck.engine import Replay
    seen = {}

    def after(game, action):
        if action.action_id in ids:
            seen[action.action_id] = look(game)
    replay = Replay(record_of(name, last, options), check_purity=check_purity)
    replay.after_action = after
    return seen, replay.run()


#: games with no error, the site's end and scores: the site's end reason
CLEAN = {"18Ireland_rand_18003_0": "bank",
         "18Ireland_rand_18003_2": "bank",
         "18Ireland_rand_18003_4": "bank",
         "18Ireland_rand_18003_5": "bank",
         "18Ireland_rand_18004_1": "bank",
         "18Ireland_rand_18004_2": "bank",
         "18Ireland_rand_18004_3": "bank",
         "18Ireland_rand_18004_4": "bank",
         "18Ireland_rand_18004_5": "bank",
         "18Ireland_rand_18005_1": "bank",
         "18Ireland_rand_18005_2": "bank",
         "18Ireland_rand_18005_3": "bank",
         "18Ireland_rand_18005_4": "bank",
         "18Ireland_rand_18005_5": "bank",
         "18Ireland_rand_18006_0": "bank",
         "18Ireland_rand_18006_4": "bank",
         "18Ireland_rand_2711009_4": "bank",
         "18Ireland_rand_33000000_1": "bank",
         "18Ireland_rand_2711049_2": "bank",
         "18Ireland_rand_33500105_1": "bank"}

#: (action id, what differs, ours, the site's); None: the whole trace matches
FIRST_DIVERGENCE = {
    # trace-exact since a repeated proposal cleared with no vote keeps the
    # passes made before it (the merger round ends at #224 as on the site)
    "18Ireland_rand_18003_0": None,
    # B5: trace-exact since the record's next lines going on as if a bankrupt
    # player kept his privates and shares is one finding at the bankruptcy
    # (#122, bankrupt.leftovers) and they are kept, as on the site
    "18Ireland_rand_18003_1": None,
    "18Ireland_rand_18003_2": None,
    # trace-exact since a train in the pool may be traded for (#889)
    "18Ireland_rand_18003_3": None,
    "18Ireland_rand_18003_4": None,
    # trace-exact since the round's last turn waits for a pass declining
    # DCR's lay (#244) after the pass of its train step (#243)
    "18Ireland_rand_18003_5": None,
    # (moved on from #502 since a new president gives back his shares held
    # longest, and a partial sale of the president's certificate takes back
    # the pool's oldest: the names an export gives match the site's)
    # (then #1048: a company at its limit with a trade-in open bought a train
    # outright, flagged trains.limit and taken, as in 1830); trace-exact
    "18Ireland_rand_18004_0": None,
    "18Ireland_rand_18004_1": None,
    "18Ireland_rand_18004_2": None,
    "18Ireland_rand_18004_3": None,
    "18Ireland_rand_18004_4": None,
    "18Ireland_rand_18004_5": None,
    "18Ireland_rand_18005_0": None,
    # trace-exact since stations and the site's skipped runs follow broad track
    # only (#459: MGWR's price moves left when its turn ends with no run)
    "18Ireland_rand_18005_1": None,
    "18Ireland_rand_18005_2": None,
    # trace-exact since the presidency's certificates move as on the site
    "18Ireland_rand_18005_3": None,
    "18Ireland_rand_18005_4": None,
    # trace-exact since companies operate in the record's order; clean since a
    # bankruptcy re-sorts the companies still to operate (#440, then UR, DKR)
    "18Ireland_rand_18005_5": None,
    # trace-exact since the layer places the station of another company
    # left alone on a multi-city tile (#513), and a company's own lay ends
    # its issue step (#525: CBPR, with no train, withholds at once)
    "18Ireland_rand_18006_0": None,
    # B5: three bankruptcies, each one finding (#229, #238, #299), trace-exact
    "18Ireland_rand_18006_1": None,
    # trace-exact since stations follow broad track only (hirlgauge) and the
    # sold-out rise counts a bankrupt holder's shares (#1280); one finding
    # left each: trains.limit (#1367; #1691), where the site let a company
    # buy over its limit and discard
    "18Ireland_rand_18006_2": None,
    "18Ireland_rand_18006_3": None,
    "18Ireland_rand_18006_4": None,
    # trace-exact since B5's other outcome (Player 4 keeps DCR, #32) is made
    # before the rounds advance from his bankruptcy, so DCR's £12 is paid to
    # him at the next operating round's start, as on the site (it was made
    # after, the income missed: Player 4's cash 0 against the site's 12)
    "18Ireland_rand_18006_5": None,
    # (fresh games of issue 23) trace-exact since the round's last turn waits
    # for the pass declining TASPS's token (#178)
    "18Ireland_rand_2711009_4": None,
    # trace-exact since one pass closes the turn's last step, held open both
    # by DCR's lay and by a private EBSR could buy (#157)
    "18Ireland_rand_2711049_2": None,
    # 33000007_4 up to #468, then three actions played through the site's
    # engine (each sale one its stock-round step offered; the trace from the
    # oracle's trace.rb): Player 2 sells GSWR and CBSCR in two sales and his
    # turn ends by itself; bankrupt Player 3 is passed over and Player 4
    # passes (#471); trace-exact since the turn order holds
    "18Ireland_rand_33000007_4_sells469": None,
    # (a game stopped by the generator's time cap) trace-exact since a
    # merger hands the major's certificates out as the site does (#168)
    "18Ireland_rand_33000019_2": None,
    # the last company closes at #176 and the engine plays rounds in which
    # nobody can act up to its turn limit of 100 ("dnf"), paying the
    # privates' income past the bank's break; an export's replay stops there
    # too (Player 1 £977 as in the trace), but Player 2, bankrupt at #176,
    # keeps no private here (B5, rule-backed: the site keeps them with him
    # and pays their income)
    "18Ireland_rand_33000014_4": (176, "Player 2's cash", 0, 2805),
    # trace-exact since a major's home station comes before the round ends
    # by itself (#1036, #1037)
    "18Ireland_rand_2711109_0": None,
    # B5 (Player 2 bankrupt keeps WDE on the site, #141); a game stopped by
    # the generator's time cap in WLWR's turn (#816): no duty owed there
    # (trace-exact since one finding at the bankruptcy keeps them: #132)
    "18Ireland_rand_33000016_0": None,
    # one finding (tools/rule_backed.yaml): EBSR's lay past a city another
    # station filled (#151), taken as laid; trace-exact since
    "18Ireland_rand_2711209_3": None,
    # trace-exact since a major's home station in the stock round reads the
    # site's number of the Dundalk tile's city (#628: MRNCC on IR2-0-1)
    "18Ireland_rand_33000000_1": None,
    # B5 (Player 3 bankrupt at #150 keeps his privates on the site); with
    # site_bankruptcy trace-exact since the track step stays open for the
    # Irish Mail bought in it (#186)
    # (trace-exact since one finding at the bankruptcy keeps them: #150)
    "18Ireland_rand_33000001_0": None,
    # B5 only (the scores: Player 1's privates); the site's bundle at a
    # bankruptcy (#903) keeps the certificates the record names later
    "18Ireland_rand_2711029_1": None,
    # a bankrupt president sells in the operating order (#213: KJR before DKR)
    "18Ireland_rand_33500105_1": None,
}


def first_divergence(name):
    divergence, result, _ = walk_trace(record_of(name), load_trace("18Ireland", name))
    return result, (divergence.as_tuple() if divergence else None)


def test_all_games_are_present():
    assert len(GAMES) == 36
    assert sorted(FIRST_DIVERGENCE) == sorted(GAMES)
    assert len(CLEAN) == 20


@pytest.mark.parametrize("name", sorted(GAMES))
def test_where_the_replay_parts_from_the_site_engine(name):
    result, divergence = first_divergence(name)
    assert divergence == FIRST_DIVERGENCE[name]
    if name in CLEAN:
        assert [f.message for f in result.findings if f.severity == "error"] == []
        assert {f.rule for f in result.findings if f.severity == "warning"} <= {"merger.repeated"}
        assert result.finished and result.end_reason == CLEAN[name]
        assert net_worths(result) == site_scores(json.loads(export_text(name)))


def test_a_bankrupt_presidents_private_sold_later_is_one_finding_each():
    # 18003_3: Player 1 goes bankrupt at action 164 holding TIM and DAR; by
    # the summary's B5 they leave the game with him, the site keeps them, and
    # DKR buys them from him at 166 and 169: the record's next lines go on as
    # if they stayed his, so the bankruptcy is one finding (the record-following
    # layer judges the two outcomes, following/rounds.py reconsider) and they
    # are kept; the purchases are then legal, and Player 1, out of the game,
    # takes no turn in the stock rounds after
    result, divergence = first_divergence("18Ireland_rand_18003_3")
    assert [(f.action_id, f.rule, f.message) for f in result.errors] == [
        (164, "bankrupt.leftovers",
         "Player 1 goes bankrupt holding DAR, TIM: by 18Ireland B5 they leave the game with the "
         "player, but the record's later lines go on as if they stayed theirs (as 18xx.games "
         "keeps them): taken so")]
    assert divergence is None
    assert net_worths(result) == site_scores(json.loads(export_text("18Ireland_rand_18003_3")))


def test_an_emergency_buy_from_another_company_at_most_at_face_value():
    # 18006_0, action 38: GNWR (£55, no train) buys DDR's 2H for £69, its
    # president paying £14 (B3: the president may buy from another company;
    # the 2H's face value is £80): no finding, and the site's scores
    result, _ = first_divergence("18Ireland_rand_18006_0")
    assert not [f for f in result.errors if f.rule.startswith("emergency.")]
    assert net_worths(result) == site_scores(json.loads(export_text("18Ireland_rand_18006_0")))


#: with the option site_bankruptcy (player_bankruptcy.leftovers: keep, the
#: site's reading of B5): the games where a bankrupt president kept privates,
#: their first divergence from the trace with it (None: none)
SITE_BANKRUPTCY = {
    "18Ireland_rand_18003_1": None,
    "18Ireland_rand_18003_3": None,
    "18Ireland_rand_18005_0": None,
    # (trace-exact since the round's last turn does not wait for TDR's lay)
    "18Ireland_rand_18006_1": None,
    "18Ireland_rand_18006_5": None,
    "18Ireland_rand_33000001_0": None,
    "18Ireland_rand_33000016_0": None,
    "18Ireland_rand_2711029_1": None,
}


@pytest.mark.parametrize("name", sorted(SITE_BANKRUPTCY))
def test_the_site_bankruptcy_option_keeps_a_bankrupt_players_privates(name):
    record = record_of(name, options=["site_bankruptcy"])
    divergence, result, _ = walk_trace(record, load_trace("18Ireland", name))
    assert (divergence.as_tuple() if divergence else None) == SITE_BANKRUPTCY[name]
    assert not [f for f in result.findings if f.rule == "private.closed"]
    assert net_worths(result) == site_scores(json.loads(export_text(name)))


def test_the_site_bankruptcy_from_a_users_ruleset(tmp_path):
    # 18003_1: Player 1 goes bankrupt at action 122 (GJR) holding TASPS and
    # WDE; with leftovers: keep he draws their income (£25 at #125, the
    # start of OR 3.2) and sells them to GNWR at #160 and #231 with no
    # finding, and scores the site's £302 (by B5, the default: one finding at
    # the bankruptcy, the record going on as if he kept them)
    from click.testing import CliRunner
    from railcheck.cli import main
    from railcheck.engine import Replay
    from railcheck.ruleset import load_ruleset
    from railcheck.ruleset import load_ruleset as rules_of
    assert rules_of("18Ireland").raw["player_bankruptcy"]["leftovers"] == "leave"
    assert rules_of("18Ireland", ["site_bankruptcy"]).raw["player_bankruptcy"] == \
        {"holders_paid_market_price": True, "ends_game_after": "all_but_one",
         "leftovers": "keep"}
    house = tmp_path / "site.yaml"
    house.write_text('title: "18Ireland-site"\nextends: "18Ireland"\n'
                     'player_bankruptcy: {leftovers: keep}\n')
    assert load_ruleset(str(house)).raw["player_bankruptcy"]["leftovers"] == "keep"
    path = tmp_path / "18003_1.json"
    path.write_text(export_text("18Ireland_rand_18003_1"))
    res = CliRunner().invoke(main, ["validate", "--ruleset", str(house), "--format", "json",
                                    str(path)])
    assert res.exit_code == 0, res.output
    (report,) = json.loads(res.output)["files"]
    assert report["ruleset"]["extends"] == "18Ireland" and report["findings"] == []
    assert [(r["player"], r["cash"], r["net_worth"]) for r in report["standings"]] == \
        [("Player 3", 1160, 2662), ("Player 2", 828, 2525), ("Player 1", 302, 302)]
    record = record_of("18Ireland_rand_18003_1")
    default = Replay(record).run()
    assert [(f.action_id, f.rule) for f in default.errors] == [(122, "bankrupt.leftovers")]
    assert {r["player"]: r["net_worth"] for r in default.standings}["Player 1"] == 302
    # with the record-following layer's readings off (the purity check keeps
    # the rules' own outcome), B5 as the rules play it: each purchase is
    # private.closed and Player 1 scores 197
    plain = Replay(record, check_purity=True).run()
    assert [(f.action_id, f.rule) for f in plain.errors] == \
        [(160, "private.closed"), (231, "private.closed")]
    assert {r["player"]: r["net_worth"] for r in plain.standings}["Player 1"] == 197
    record.ruleset = str(house)
    kept = Replay(record, check_purity=True).run()
    assert kept.errors == []
    assert {r["player"]: r["net_worth"] for r in kept.standings}["Player 1"] == 302


def test_the_last_turn_waits_for_a_pass_declining_dcrs_lay():
    # 18003_5: MRNCC, last in OR 6.1 and first in OR 6.2, owns DCR (its H4
    # lay may be used at any moment of the turn); #243 passes its train step,
    # #244 declines DCR's lay and ends OR 6.1: OR 6.2 begins with DCR's
    # income of 12 (MRNCC 262 -> 274), and #245, #246 are OR 6.2's passes
    seen, result = watched("18Ireland_rand_18003_5", (243, 244, 246), lambda game: (
        game.round.label, game.corporations["MRNCC"].cash))
    assert seen == {243: ("OR 6.1", 262), 244: ("OR 6.2", 274), 246: ("OR 6.2", 274)}
    assert result.errors == []


def test_a_partial_sale_of_the_presidency_moves_certificates_as_the_site():
    # 18004_0, #439: Player 4 (DSER_0, the president's 20%, and DSER_2)
    # sells 20% naming DSER_2 and DSER_0; Player 2 (DSER_5 and _6 since the
    # swap at #435, DSER_7 bought at #437) becomes president and gives his
    # two shares held longest, 5 and 6, to the pool; Player 4 takes back
    # the pool's oldest share, DSER_8.  So DSER redeems DSER_5 from the pool
    # at #491 (£24), and Player 3's DSER_5 at #502 is bought from DSER's
    # treasury for £30 (DSER 406 -> 436), as on the site
    def owners(corp):
        return {c.index: getattr(c.owner, "name", None) or getattr(c.owner, "sym", c.owner)
                for c in corp.certs}
    def look(game):
        dser = game.corporations["DSER"]
        return (owners(dser), dser.cash)
    seen, _ = watched("18Ireland_rand_18004_0", (439, 491, 502), look)
    assert seen[439] == ({0: "Player 2", 1: "Player 3", 2: "pool", 3: "Player 3",
                          4: "Player 3", 5: "pool", 6: "pool", 7: "Player 2",
                          8: "Player 4"}, 715)
    assert seen[491][0][5] == "ipo" and seen[491][1] == 689     # (the treasury)
    assert seen[502][0][5] == "Player 3" and seen[502][1] == 436


def test_a_train_bought_over_the_limit_with_a_trade_in_open_and_one_traded_from_the_pool():
    # 18004_0: GNRI (10H, D; limit 2 in phase D) could trade a train in, and
    # the site lets it buy an 8H outright at #1048 (£961 -> £521): flagged
    # once (trains.limit, the phase's limit) and taken as bought; it
    # discards its D at #1049 (to the pool) and at #1066 trades its 10H for
    # that D from the pool, paying £220 (770 - 550: £721 -> £501); UR's 8H
    # at #1161 (limit 1), discarded at #1162, is the same case
    def look(game):
        gnri = game.corporations["GNRI"]
        return (gnri.cash, sorted(t.id for t in gnri.trains))
    seen, result = watched("18Ireland_rand_18004_0", (1047, 1048, 1049, 1065, 1066), look)
    assert seen[1047] == (961, ["10H-0", "D-0"])
    assert seen[1048] == (521, ["10H-0", "8H-2", "D-0"])
    assert seen[1049] == (521, ["10H-0", "8H-2"])
    assert seen[1066] == (seen[1065][0] - 220, ["8H-2", "D-0"]) and seen[1065][0] == 721
    assert [(f.action_id, f.rule) for f in result.errors] == \
        [(1048, "trains.limit"), (1161, "trains.limit")]


def test_the_layer_places_a_station_left_alone_on_a_multi_city_tile():
    # 18006_0: WLR lays IR1 (two cities) on Cork E21 at #512, where CBPR's
    # home station stood; at #513 WLR places that station (city 0), free:
    # no finding, WLR keeps £30.  CBPR (no train) lays twice at #524 and
    # #525 (£260 -> £160 -> £40) and, its own lay having ended its issue
    # step, withholds at once: its price 55 -> 50 after #525, as the site
    seen, result = watched("18Ireland_rand_18006_0", (513, 524, 525), lambda game: (
        game.corporations["WLR"].cash, game.corporations["CBPR"].cash,
        game.corporations["CBPR"].price.price, game.board.pending_relocation_of("CBPR")))
    assert seen == {513: (30, 260, 55, None), 524: (30, 160, 55, None),
                    525: (30, 40, 50, None)}
    assert result.errors == []


def test_a_share_gone_with_a_bankrupt_holder_counts_as_bought_for_the_sold_out_rise():
    # 18006_3: SLNCR_3 left the game with its bankrupt holder (B5); at the
    # end of SR 12 (#1279) the rest of SLNCR is with players, so every share
    # found a buyer (S3.3) and its price rises 20 -> 24 (CBSCR likewise,
    # 24 -> 30), as in the site's trace after #1280
    def look(game):
        slncr = game.corporations["SLNCR"]
        return ([getattr(c.owner, "name", c.owner) for c in slncr.certs],
                slncr.price.price, game.corporations["CBSCR"].price.price)
    seen, _ = watched("18Ireland_rand_18006_3", (1279, 1280), look)
    assert seen[1279] == (["Player 5", "Player 6", "Player 5", None], 20, 24)
    assert seen[1280] == (["Player 5", "Player 6", "Player 5", None], 24, 30)


def test_the_last_turn_does_not_wait_for_a_track_step_private():
    # 18006_1 (with site_bankruptcy): DKR, last in OR 15.1, owns TDR with
    # both its lays unused; they belong to the track step, so its dividend
    # at #950 (a withhold of 100: £321 -> £421) ends the round, and OR 15.2
    # begins at once with the privates' income (DKR +15: £436), as the site
    seen, result = watched("18Ireland_rand_18006_1", (949, 950), lambda game: (
        game.round.label, game.corporations["DKR"].cash,
        sorted(c.sym for c in game.corporations["DKR"].companies)), options=["site_bankruptcy"])
    assert seen == {949: ("OR 15.1", 321, ["DAR", "TDR"]), 950: ("OR 15.2", 436, ["DAR", "TDR"])}
    assert result.errors == []


def test_a_bankruptcy_re_sorts_the_companies_still_to_operate():
    # 18005_5: Player 3 sells GSWR in WLR's emergency (#439) and goes
    # bankrupt at #440, selling his DKR: DKR falls from 38 to 30, under UR
    # in that cell; EBSR, next, keeps its turn and those after it are
    # re-sorted, so the rest of OR 7.1 goes EBSR, UR, DKR, GSWR; UR's pass at
    # #445 is in turn (no turn.order finding).  (The real game_end_bankrupt,
    # #954, shows the next company keeping its turn: WLWR before GNRI.)
    def look(game):
        rnd = game.round
        return [c.sym for c in rnd.order[rnd.index + 1:]]
    seen, result = watched("18Ireland_rand_18005_5", (439, 440), look)
    assert seen == {439: ["EBSR", "DKR", "UR", "GSWR"], 440: ["UR", "DKR", "GSWR"]}
    assert result.errors == []


def test_the_last_turn_waits_for_a_pass_declining_a_private_token():
    # 2711009_4: DKR, last in OR 6.1 and first in OR 6.2, buys TASPS from a
    # player at #176 (£460 -> £396) and pays out at #177; TASPS's token on
    # Galway may be placed at any moment of DKR's turn, so the site's turn
    # waits for the pass at #178, which ends OR 6.1: OR 6.2 begins with the
    # privates' income (TASPS 15: £411); DKR places the token at #179 and
    # lays I13 at #180 in its OR 6.2 turn (railcheck had begun OR 6.2 at
    # #177 and taken #178 as passing its track step: "DKR cannot lay track
    # after running trains", then 300 errors)
    seen, result = watched("18Ireland_rand_2711009_4", range(176, 181), lambda game: (
        game.round.label, game.corporations["DKR"].cash), last=185)
    assert seen == {176: ("OR 6.1", 396), 177: ("OR 6.1", 396), 178: ("OR 6.2", 411),
                    179: ("OR 6.2", 411), 180: ("OR 6.2", 411)}
    assert result.errors == []


def test_a_majors_home_station_on_the_dundalk_tiles_city():
    # 33000000_1: Player 1 pars MRNCC at 100 (#627: £200 to its treasury)
    # and places its home station on Dundalk I9, which holds IR2 (a town,
    # then a city): the site names its city IR2-0-1, its second place, the
    # hex's only city (#628); MRNCC then lays J6 from there (#635: £400 ->
    # £360, no terrain)
    def look(game):
        cities = [list(n.tokens) for n in game.board.hexes["I9"].nodes if n.kind == "city"]
        return (game.round.label, game.corporations["MRNCC"].cash, cities)
    seen, result = watched("18Ireland_rand_33000000_1", (628, 635), look, last=640)
    assert seen[628] == ("SR 18", 200, [["MRNCC"]])
    assert seen[635][:2] == ("OR 18.1", 360)
    assert result.errors == []


def test_the_track_step_stays_open_for_the_irish_mail_bought_in_it():
    # 33000001_0 (with site_bankruptcy): DKR upgrades Dublin I11 (#182: no
    # second lay after an upgrade), buys RSSC for £160 (#183), TIM for £220
    # (#184) and DAR for £29 (#185: £410 -> £1), and lays the Irish Mail's
    # tile on H0 (#186): a lay of the track step besides the company's own,
    # which holds that step open (railcheck had left it once no private
    # laying track was left to buy: private.window at #186)
    def look(game):
        dkr = game.corporations["DKR"]
        h0 = game.board.hexes["H0"]
        return (game.round.describe_step(), dkr.cash,
                sorted(c.sym for c in dkr.companies if not c.closed),
                h0.tile.name if h0.laid else None)
    seen, result = watched("18Ireland_rand_33000001_0", (182, 185, 186), look, last=190,
                           options=["site_bankruptcy"])
    assert seen[182] == ("laying track", 410, [], None)
    assert seen[185] == ("laying track", 1, ["DAR", "RSSC", "TIM"], None)
    assert seen[186] == ("running trains", 1, ["DAR", "RSSC"], "IM")
    assert result.errors == []


def test_one_pass_closes_the_last_step_held_by_dcr_and_a_private_to_buy():
    # 2711049_2: EBSR, last in OR 5.1, buys DCR at #150 (its H4 lay usable at
    # any moment of the turn) and withholds at #156 (£86 -> £126; no train
    # it can buy); its turn's last step, buying privates, is open both for
    # DCR and for a private it could still buy, and the one pass at #157
    # closes it: OR 5.2 begins with the privates' income (EBSR +12 from DCR:
    # £138; Player 3 +15: £192) (railcheck had waited for a second pass)
    seen, result = watched("18Ireland_rand_2711049_2", (156, 157), lambda game: (
        game.round.label, game.round.describe_step(), game.corporations["EBSR"].cash,
        game.player_by_name["Player 3"].cash), last=160)
    assert seen == {156: ("OR 5.1", "buying privates", 126, 177),
                    157: ("OR 5.2", "laying track", 138, 192)}
    assert result.errors == []


def sales_then_a_bankrupt_player_passed_over():
    """33000007_4_sells469 up to its end: whose turn it is and the cash of
    Players 2 to 4 after #470 and #471, and the errors."""
    def look(game):
        rnd = game.round
        return (rnd.label, rnd.current.name, [
            game.player_by_name[f"Player {i}"].cash for i in (2, 3, 4)])
    return watched("18Ireland_rand_33000007_4_sells469", (470, 471), look)


def test_a_turn_of_several_sales_ending_by_itself_keeps_the_order():
    # SR 10, phase 6: Player 2 sells 40% of GSWR (#469: £249 -> £489) and
    # 50% of CBSCR (#470: £814) in two sales; he may not buy back what he
    # sold and, as on the site, starts no major after a sale (the site offers
    # a par only as a turn's first action), so his turn ends by itself;
    # Player 3, bankrupt, is passed over, and Player 4's pass (#471) is in
    # turn (railcheck said "Player 4 acted out of turn: it is Player 3's turn
    # in SR 10")
    seen, result = sales_then_a_bankrupt_player_passed_over()
    assert seen[470] == ("SR 10", "Player 4", [814, 0, 86])
    assert seen[471] == ("SR 10", "Player 5", [814, 0, 86])
    assert [(f.action_id, f.rule) for f in result.errors] == [(168, "private.closed")]


def test_the_record_leaving_a_turn_passes_over_players_with_nothing_to_do(monkeypatch):
    # the same game, with the replay seeing a par still open to Player 2
    # after his sales (the stock round's own look at what a player may do,
    # without 18Ireland's first-action rule): his turn stays open after #470,
    # and the record leaving it at #471 still passes over Player 3, who may
    # do nothing: Player 4's pass is in turn, Player 5's turn follows
    from railcheck.rounds.stock import StockRound
    from railcheck.titles.g18ireland.stock import StockRound18Ireland

    def can_par_any_time(self, player, corp):
        return corp.kind != "minor" and self.majors_open() \
            and StockRound.can_par(self, player, corp)
    monkeypatch.setattr(StockRound18Ireland, "can_par", can_par_any_time)
    seen, result = sales_then_a_bankrupt_player_passed_over()
    assert seen[470] == ("SR 10", "Player 2", [814, 0, 86])
    assert seen[471] == ("SR 10", "Player 5", [814, 0, 86])
    assert [(f.action_id, f.rule) for f in result.errors] == [(168, "private.closed")]


def test_a_merger_hands_out_the_majors_certificates_as_the_site():
    # 33000019_2, #168: a merger forms GSWR at £50; the holders receive
    # their shares in turn from the proposer, each the treasury's first
    # certificates, and the presidency moves as by purchases: GSWR_0 (the
    # president's) Player 2, _1 Player 4, _2 and _3 Player 5, _4 and _5
    # Player 6, _6 and _7 Player 3, _8 Player 2.  So Player 5's GSWR_2 goes
    # to the pool at #204, and GSWR redeems it from there at #270 for £24
    # (£51 -> £27) (railcheck had given GSWR_2 to Player 3: "GSWR redeems
    # GSWR_2, a 10% share that is not in the bank pool", and the pool's
    # shares, named later, went wrong: the trace parted at #368)
    def look(game):
        gswr = game.corporations["GSWR"]
        return (gswr.cash, gswr.president.name, [
            getattr(c.owner, "name", c.owner) for c in gswr.certs])
    seen, result = watched("18Ireland_rand_33000019_2", (168, 204, 269, 270), look, last=372)
    assert seen[168] == (50, "Player 2", ["Player 2", "Player 4", "Player 5", "Player 5",
                                          "Player 6", "Player 6", "Player 3", "Player 3",
                                          "Player 2"])
    assert seen[204][2][2] == "pool"
    assert (seen[269][0], seen[269][2][2]) == (51, "pool")
    assert (seen[270][0], seen[270][2][2]) == (27, "ipo")
    assert result.errors == []


def test_rounds_in_which_nobody_can_act_run_to_the_sites_turn_limit():
    # 33000014_4: at #176 CIR's president goes bankrupt and the last company
    # closes; no player can start one (cash under £100, nothing to buy), so
    # the rounds go on with only the privates' income.  By the rules they
    # would run until the bank (£3,767 after #175) breaks (E3: OR 136.2);
    # 18xx.games stops the game at its own limit of 100 turns ("dnf"), and
    # the replay of an export stops where the site did: SR 100, bank
    # £1,103, Player 1 £977 (as the site), Player 3 £1,910.
    seen, result = watched("18Ireland_rand_33000014_4", (175, 176), lambda game: (
        game.round.label, game.bank.cash,
        [game.player_by_name[f"Player {i}"].cash for i in (1, 3)]))
    assert seen == {175: ("OR 6.1", 3767, [42, 10]), 176: ("SR 100", 1103, [977, 1910])}
    assert result.finished and result.end_reason == "dnf" and result.errors == []


def test_a_majors_home_station_comes_before_the_round_ends_by_itself():
    # 2711109_0: Player 4 starts GNRI at £60 (#1036: £120 to its treasury);
    # nobody else can do anything, so the stock round ends with the turn,
    # but only after GNRI places its home station on Dundalk I9 (#1037); OR
    # 19.1 begins there (railcheck had ended the round at the par and taken
    # the station as an operating turn's: "I9 city 0 is not reachable")
    seen, result = watched("18Ireland_rand_2711109_0", (1036, 1037), lambda game: (
        game.round.label, game.corporations["GNRI"].cash,
        [list(n.tokens) for n in game.board.hexes["I9"].nodes if n.kind == "city"]), last=1041)
    assert seen == {1036: ("SR 19", 120, [[]]), 1037: ("OR 19.1", 120, [["GNRI"]])}
    assert result.errors == []


def test_a_game_in_progress_owes_nothing_where_its_record_stops():
    # 33000016_0 (with site_bankruptcy), an export of a game still in
    # progress (the generator's time cap): its last action, #816, is WLWR's
    # pass of its track step in OR 14.2, the last of the set, with the bank
    # broken; the record stops there: the game does not end and WLWR's run
    # is not missing (railcheck had closed the round: "WLWR owns trains ...
    # but did not run them")
    from railcheck.engine import Replay
    record = record_of("18Ireland_rand_33000016_0", options=["site_bankruptcy"])
    assert record.in_progress
    result = Replay(record, check_purity=True).run()
    assert [f.rule for f in result.findings if f.severity != "info"] == []
    assert not result.finished


def test_a_lay_past_a_city_another_station_filled_is_taken_as_laid():
    # 2711209_3: GJR wins its auction at #145 and its home station fills
    # Sligo D6's one slot; at #151 EBSR (£59) lays tile 9 on C11, which its
    # broad track reached only through D6: not joined (O2/O3a), flagged once
    # and taken as laid (the site's live engine had not recomputed EBSR's
    # connections and let it through; a fresh engine refuses it); GJR then
    # lays B12 (#156: £195 -> £155) and B10 (#157: £35) from it with no
    # finding, and the game ends as on the site (railcheck had refused the
    # lay, then GJR's two: the trace parted at #156)
    result, divergence = first_divergence("18Ireland_rand_2711209_3")
    assert divergence is None
    assert [(f.action_id, f.rule, f.message) for f in result.errors] == [
        (151, "tile.connection", "tile 9 rotation 4 on C11 adds broad gauge track, but EBSR's "
                                 "broad network does not reach C11 (broad track must join the "
                                 "company's broad track); taken as laid, as the record says")]
    seen, _ = watched("18Ireland_rand_2711209_3", (151, 156, 157), lambda game: (
        game.board.hexes["C11"].tile.name, game.corporations["EBSR"].cash,
        game.corporations["GJR"].cash), last=157)
    assert seen == {151: ("9", 59, 195), 156: ("9", 109, 155), 157: ("9", 109, 35)}


def test_a_bankrupt_presidents_sale_takes_the_certificates_he_got_first():
    """2711029_1 with site_bankruptcy: Player 3, bankrupt at #903 (GNRI),
    sells what he may of MRNCC, one of his two 10% certificates: the site's
    bundle takes MRNCC_2 (got at #602) and he keeps MRNCC_8 (got at #844),
    so Player 5's purchase of MRNCC_2 from the pool at #952 is no finding
    (with the highest number sold first it was stock.no_share: "MRNCC_2 is
    held by Player 3"), and the game scores as the site's."""
    name = "18Ireland_rand_2711029_1"

    def look(game):
        certs = game.corporations["MRNCC"].certs
        return [getattr(certs[i].owner, "name", certs[i].owner) for i in (2, 8)]
    seen, result = watched(name, (903,), look, options=["site_bankruptcy"], check_purity=False)
    assert seen[903] == ["pool", "Player 3"]
    assert [f.message for f in result.findings if f.severity == "error"] == []
    assert net_worths(result) == site_scores(json.loads(export_text(name)))


def test_an_emergency_sale_naming_another_players_certificate():
    """18003_5 #154: Player 1 sells his DER_2 to help GJR buy a train; written
    as DER_0, Player 3's president's certificate (the site refuses it: "Cannot
    sell shares of DER"): one finding, taken as the sale of his own 20%, and
    the game goes on as the site's, to its scores."""
    from railcheck.engine import Replay
    name = "18Ireland_rand_18003_5"
    data = json.loads(export_text(name))
    next(a for a in data["actions"] if a["id"] == 154)["shares"] = ["DER_0"]
    record, _ = import_export(json.dumps(data), name)
    result = Replay(record).run()
    assert [(f.action_id, f.rule, f.message) for f in result.findings if f.severity == "error"] \
        == [(154, "stock.sell_not_owned",
             "Player 1 sells DER_0, which Player 3 holds: a player sells only certificates he "
             "holds; taken as the sale of 20% of DER from his own")]
    assert net_worths(result) == site_scores(data)


def test_a_bankrupt_president_sells_in_the_operating_order():
    """33500105_1 #213: LER cannot buy a train and Player 3 goes bankrupt; he
    sells KJR (at £30) and then DKR (at £24), as the site sells, in the
    operating order: both fall to the £20 cell, KJR first, so KJR operates
    before DKR (#222; taking the companies in the order of the charter,
    DKR first, said turn.order there)."""
    seen, result = watched("18Ireland_rand_33500105_1", (213,), lambda game: [
        c.sym for c in game.market.stack(game.corporations["KJR"].price)], check_purity=False)
    assert seen[213] == ["DER", "KJR", "DKR"]
    assert [f.message for f in result.findings if f.severity == "error"] == []


def test_a_train_bought_by_a_company_its_withheld_dividend_closed_is_no_crash():
    # 45000119_3 (a fresh game, clean with the site's bankruptcy): under the
    # summary's B5 played as the rules have it (the record-following layer's
    # readings off, as the purity check replays), the game parts from the
    # site's at the first bankruptcy, and at #1679 GNRI, with no train and
    # £114, is written buying a D for £770 with its president's £656.
    # Passing over its dividend (a withhold) moves its price off the market
    # and closes it, so no president is left to pay in.  railcheck had
    # stopped there with an internal error (AttributeError); now the purchase
    # is flagged and taken as bought.
    from railcheck.engine import Replay
    record = _b5_record("18Ireland_rand_45000119_3")
    result = Replay(record, hints=False, check_purity=True).run()
    assert not [f for f in result.findings if f.rule == "internal.error"]
    got = [(f.action_id, f.message) for f in result.findings
           if f.rule == "emergency.cash" and f.action_id in (1679, 1684)]
    assert got == [
        (1679, "GNRI closed when its dividend was withheld, so no president pays £656 towards "
               "the D-train; taken as bought, as the record says"),
        (1684, "GSWR closed when its dividend was withheld, so no president pays £704 towards "
               "the D-train; taken as bought, as the record says")]


def _b5_record(name: str):
    path = DATA / "exports" / "18Ireland_b5" / f"{name}.json.gz"
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        record, _ = import_export(fh.read(), str(path))
    return record


def test_a_bankrupt_players_leftovers_kept_are_judged_by_the_rest_of_the_record():
    """B5 read against the site's keeping, judged by the record to its end,
    not by its next 200 lines.  45000119_3: Player 1 goes bankrupt at #565
    holding 20% of CIR and 20% of WKR; the record shows he kept them only at
    #977, a merger vote counting his shares (412 lines on).  Judged by 200
    lines, B5's reading was kept and 74 errors followed (merger.vote #977,
    then sales and purchases of certificates placed otherwise, turns out of
    order); now one finding at the bankruptcy, and Player 5 and Player 6
    score the site's £775 and £245 (Player 2, bankrupt later with nothing in
    the record after it to tell, keeps B5's £0 against the site's £125).
    714263793_1 (the stop hook's sample): Player 5 bankrupt at #93 holding
    20% of DKR, counted in the vote on DKR and SLNCR's merger at #593-#594
    (500 lines on): before, merger.major at #594, or.step_unwritten at #632
    and two turn.order; now two findings, one for each bankruptcy, and every
    player the site's score."""
    from railcheck.engine import Replay
    record = _b5_record("18Ireland_rand_45000119_3")
    result = Replay(record, hints=False).run()
    assert [(f.action_id, f.rule, f.message) for f in result.errors] == [
        (565, "bankrupt.leftovers",
         "Player 1 goes bankrupt holding 20% of CIR, 20% of WKR: by 18Ireland B5 they leave the "
         "game with the player, but the record's later lines go on as if they stayed theirs "
         "(as 18xx.games keeps them): taken so")]
    worth = {r["player"]: r["net_worth"] for r in result.standings}
    assert (worth["Player 5"], worth["Player 6"], worth["Player 2"]) == (775, 245, 0)
    record = _b5_record("18Ireland_rand_714263793_1")
    result = Replay(record).run()
    assert [(f.action_id, f.rule) for f in result.errors] == [
        (93, "bankrupt.leftovers"), (250, "bankrupt.leftovers")]
    assert result.errors[0].message.startswith("Player 5 goes bankrupt holding 20% of DKR: ")
    assert net_worths(result) == {"Player 2": 1438, "Player 3": 946, "Player 4": 897,
                                  "Player 6": 136, "Player 5": 24, "Player 1": 13}
