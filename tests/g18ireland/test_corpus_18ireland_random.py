"""18Ireland's 24 games of random legal moves (played through the 18xx.games
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

from conftest import DATA, load_trace

GAMES = {p.name[:-len(".json.gz")]: p
         for p in sorted((DATA / "exports" / "18Ireland_random").glob("*.json.gz"))}


def export_text(name: str) -> str:
    with gzip.open(GAMES[name], "rt", encoding="utf-8") as fh:
        return fh.read()


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
         "18Ireland_rand_18006_4": "bank"}

#: (action id, what differs, ours, the site's); None: the whole trace matches
FIRST_DIVERGENCE = {
    # trace-exact since a repeated proposal cleared with no vote keeps the
    # passes made before it (the merger round ends at #224 as on the site)
    "18Ireland_rand_18003_0": None,
    "18Ireland_rand_18003_1": (125, "Player 1's cash", 0, 25),
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
    "18Ireland_rand_18006_1": (245, "Player 4's cash", 0, 20),
    # trace-exact since stations follow broad track only (hirlgauge) and the
    # sold-out rise counts a bankrupt holder's shares (#1280); one finding
    # left each: trains.limit (#1367; #1691), where the site let a company
    # buy over its limit and discard
    "18Ireland_rand_18006_2": None,
    "18Ireland_rand_18006_3": None,
    "18Ireland_rand_18006_4": None,
    "18Ireland_rand_18006_5": (32, "Player 4's cash", 0, 12),
}


def first_divergence(name):
    record, _ = import_export(export_text(name), name)
    divergence, result, _ = walk_trace(record, load_trace("18Ireland", name))
    return result, (divergence.as_tuple() if divergence else None)


def test_all_games_are_present():
    assert len(GAMES) == 24
    assert sorted(FIRST_DIVERGENCE) == sorted(GAMES)
    assert len(CLEAN) == 16


@pytest.mark.parametrize("name", sorted(GAMES))
def test_where_the_replay_parts_from_the_site_engine(name):
    result, divergence = first_divergence(name)
    assert divergence == FIRST_DIVERGENCE[name]
    if name in CLEAN:
        assert [f.message for f in result.findings if f.severity == "error"] == []
        assert {f.rule for f in result.findings if f.severity == "warning"} <= {"merger.repeated"}
        assert result.finished and result.end_reason == CLEAN[name]
        data = json.loads(export_text(name))
        names = {str(p["id"]): p["name"] for p in data["players"]}
        assert {r["player"]: r["net_worth"] for r in result.standings} == \
            {names[k]: v for k, v in data["result"].items()}


def test_a_bankrupt_presidents_private_sold_later_is_one_finding_each():
    # 18003_3: Player 1 goes bankrupt at action 164 holding TIM and DAR; by
    # the summary's B5 they leave the game with him, the site keeps them, and
    # DKR buys them from him at 166 and 169: each purchase is flagged and
    # taken as written (no later use of them is refused), and Player 1, out
    # of the game, takes no turn in the stock rounds after
    result, _ = first_divergence("18Ireland_rand_18003_3")
    closed = [(f.action_id, f.message) for f in result.errors if f.rule == "private.closed"]
    assert closed == [
        (166, "TIM left the game with its owner Player 1 when they went bankrupt (a bankrupt "
              "player's privates leave the game with them: 18Ireland B5); taken as bought from "
              "them, as the record says"),
        (169, "DAR left the game with its owner Player 1 when they went bankrupt (a bankrupt "
              "player's privates leave the game with them: 18Ireland B5); taken as bought from "
              "them, as the record says")]
    assert not any("Player 1's turn" in f.message for f in result.errors)
    data = json.loads(export_text("18Ireland_rand_18003_3"))
    names = {str(p["id"]): p["name"] for p in data["players"]}
    assert {r["player"]: r["net_worth"] for r in result.standings} == \
        {names[k]: v for k, v in data["result"].items()}


def test_an_emergency_buy_from_another_company_at_most_at_face_value():
    # 18006_0, action 38: GNWR (£55, no train) buys DDR's 2H for £69, its
    # president paying £14 (B3: the president may buy from another company;
    # the 2H's face value is £80): no finding, and the site's scores
    result, _ = first_divergence("18Ireland_rand_18006_0")
    assert not [f for f in result.errors if f.rule.startswith("emergency.")]
    data = json.loads(export_text("18Ireland_rand_18006_0"))
    names = {str(p["id"]): p["name"] for p in data["players"]}
    assert {r["player"]: r["net_worth"] for r in result.standings} == \
        {names[k]: v for k, v in data["result"].items()}


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
}


@pytest.mark.parametrize("name", sorted(SITE_BANKRUPTCY))
def test_the_site_bankruptcy_option_keeps_a_bankrupt_players_privates(name):
    record, _ = import_export(export_text(name), name)
    record.options = list(record.options) + ["site_bankruptcy"]
    divergence, result, _ = walk_trace(record, load_trace("18Ireland", name))
    assert (divergence.as_tuple() if divergence else None) == SITE_BANKRUPTCY[name]
    assert not [f for f in result.findings if f.rule == "private.closed"]
    data = json.loads(export_text(name))
    names = {str(p["id"]): p["name"] for p in data["players"]}
    assert {r["player"]: r["net_worth"] for r in result.standings} == \
        {names[k]: v for k, v in data["result"].items()}


def test_the_site_bankruptcy_from_a_users_ruleset(tmp_path):
    # 18003_1: Player 1 goes bankrupt at action 122 (GJR) holding TASPS and
    # WDE; with leftovers: keep he draws their income (£25 at #125, the
    # start of OR 3.2) and sells them to GNWR at #160 and #231 with no
    # finding, and scores the site's £302 (by B5, the default: £197, and
    # each purchase is private.closed)
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
    record, _ = import_export(export_text("18Ireland_rand_18003_1"), "18003_1")
    default = Replay(record).run()
    assert [(f.action_id, f.rule) for f in default.errors] == \
        [(160, "private.closed"), (231, "private.closed")]
    assert {r["player"]: r["net_worth"] for r in default.standings}["Player 1"] == 197
    record.ruleset = str(house)
    kept = Replay(record, check_purity=True).run()
    assert kept.errors == []
    assert {r["player"]: r["net_worth"] for r in kept.standings}["Player 1"] == 302


def test_the_last_turn_waits_for_a_pass_declining_dcrs_lay():
    # 18003_5: MRNCC, last in OR 6.1 and first in OR 6.2, owns DCR (its H4
    # lay may be used at any moment of the turn); #243 passes its train step,
    # #244 declines DCR's lay and ends OR 6.1: OR 6.2 begins with DCR's
    # income of 12 (MRNCC 262 -> 274), and #245, #246 are OR 6.2's passes
    from railcheck.engine import Replay
    record, _ = import_export(export_text("18Ireland_rand_18003_5"), "18003_5")
    seen = {}

    def after(game, action):
        if action.action_id in (243, 244, 246):
            seen[action.action_id] = (game.round.label, game.corporations["MRNCC"].cash)
    replay = Replay(record, check_purity=True)
    replay.after_action = after
    result = replay.run()
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
    from railcheck.engine import Replay
    record, _ = import_export(export_text("18Ireland_rand_18004_0"), "18004_0")
    seen = {}

    def owners(corp):
        return {c.index: getattr(c.owner, "name", None) or getattr(c.owner, "sym", c.owner)
                for c in corp.certs}

    def after(game, action):
        if action.action_id in (439, 491, 502):
            dser = game.corporations["DSER"]
            seen[action.action_id] = (owners(dser), dser.cash)
    replay = Replay(record, check_purity=True)
    replay.after_action = after
    replay.run()
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
    from railcheck.engine import Replay
    record, _ = import_export(export_text("18Ireland_rand_18004_0"), "18004_0")
    seen = {}

    def after(game, action):
        if action.action_id in (1047, 1048, 1049, 1065, 1066):
            gnri = game.corporations["GNRI"]
            seen[action.action_id] = (gnri.cash, sorted(t.id for t in gnri.trains))
    replay = Replay(record, check_purity=True)
    replay.after_action = after
    result = replay.run()
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
    from railcheck.engine import Replay
    record, _ = import_export(export_text("18Ireland_rand_18006_0"), "18006_0")
    seen = {}

    def after(game, action):
        if action.action_id in (513, 524, 525):
            seen[action.action_id] = (game.corporations["WLR"].cash,
                                      game.corporations["CBPR"].cash,
                                      game.corporations["CBPR"].price.price,
                                      game.board.pending_relocation_of("CBPR"))
    replay = Replay(record, check_purity=True)
    replay.after_action = after
    result = replay.run()
    assert seen == {513: (30, 260, 55, None), 524: (30, 160, 55, None),
                    525: (30, 40, 50, None)}
    assert result.errors == []


def test_a_share_gone_with_a_bankrupt_holder_counts_as_bought_for_the_sold_out_rise():
    # 18006_3: SLNCR_3 left the game with its bankrupt holder (B5); at the
    # end of SR 12 (#1279) the rest of SLNCR is with players, so every share
    # found a buyer (S3.3) and its price rises 20 -> 24 (CBSCR likewise,
    # 24 -> 30), as in the site's trace after #1280
    from railcheck.engine import Replay
    record, _ = import_export(export_text("18Ireland_rand_18006_3"), "18006_3")
    seen = {}

    def after(game, action):
        if action.action_id in (1279, 1280):
            slncr = game.corporations["SLNCR"]
            seen[action.action_id] = (
                [getattr(c.owner, "name", c.owner) for c in slncr.certs],
                slncr.price.price, game.corporations["CBSCR"].price.price)
    replay = Replay(record, check_purity=True)
    replay.after_action = after
    replay.run()
    assert seen[1279] == (["Player 5", "Player 6", "Player 5", None], 20, 24)
    assert seen[1280] == (["Player 5", "Player 6", "Player 5", None], 24, 30)


def test_the_last_turn_does_not_wait_for_a_track_step_private():
    # 18006_1 (with site_bankruptcy): DKR, last in OR 15.1, owns TDR with
    # both its lays unused; they belong to the track step, so its dividend
    # at #950 (a withhold of 100: £321 -> £421) ends the round, and OR 15.2
    # begins at once with the privates' income (DKR +15: £436), as the site
    from railcheck.engine import Replay
    record, _ = import_export(export_text("18Ireland_rand_18006_1"), "18006_1")
    record.options = list(record.options) + ["site_bankruptcy"]
    seen = {}

    def after(game, action):
        if action.action_id in (949, 950):
            seen[action.action_id] = (game.round.label, game.corporations["DKR"].cash,
                                      sorted(c.sym for c in game.corporations["DKR"].companies))
    replay = Replay(record, check_purity=True)
    replay.after_action = after
    result = replay.run()
    assert seen == {949: ("OR 15.1", 321, ["DAR", "TDR"]), 950: ("OR 15.2", 436, ["DAR", "TDR"])}
    assert result.errors == []


def test_a_bankruptcy_re_sorts_the_companies_still_to_operate():
    # 18005_5: Player 3 sells GSWR in WLR's emergency (#439) and goes
    # bankrupt at #440, selling his DKR: DKR falls from 38 to 30, under UR
    # in that cell; EBSR, next, keeps its turn and those after it are
    # re-sorted, so the rest of OR 7.1 goes EBSR, UR, DKR, GSWR; UR's pass at
    # #445 is in turn (no turn.order finding).  (The real game_end_bankrupt,
    # #954, shows the next company keeping its turn: WLWR before GNRI.)
    from railcheck.engine import Replay
    record, _ = import_export(export_text("18Ireland_rand_18005_5"), "18005_5")
    seen = {}

    def after(game, action):
        if action.action_id in (439, 440):
            rnd = game.round
            seen[action.action_id] = [c.sym for c in rnd.order[rnd.index + 1:]]
    replay = Replay(record, check_purity=True)
    replay.after_action = after
    result = replay.run()
    assert seen == {439: ["EBSR", "DKR", "UR", "GSWR"], 440: ["UR", "DKR", "GSWR"]}
    assert result.errors == []
