"""Four of the 1889 games of random legal moves played through the 18xx.games
engine (tests/data/exports/1889_random; the differential figures over all of
them are in docs/1889.md) against the site's results and the engine's state
after every action.  Each was kept for a corner of the rules: the privates'
powers of a 2-player game (MF's port, ER's Ohzu tile, DR's exchange), a home
station placed at the start of an operating round, a purchase over the train
limit, a bankrupt president who sold a company twice, a round's last
company owning the Ehime Railway or buying it, and a beginner game (the option
beginner_game: the privates dealt from the seed)."""

import gzip
import json

import pytest

from railcheck.conformance import walk_trace
from railcheck.engine import Replay
from railcheck.importer import import_export

from conftest import DATA, load_trace, net_worths, site_scores

GAMES = {p.name[:-len(".json.gz")]: p
         for p in sorted((DATA / "exports" / "1889_random").glob("*.json.gz"))}

#: the findings railcheck makes where the engine lets through what the rules
#: forbid (tools/rule_backed.yaml, docs/1889.md): (action id, rule)
EXPECTED_FINDINGS = {
    # IR (a 4 and a 5, limit 2) buys a 5 outright, then discards the 4
    "1889_rand_34000002_0": [(504, "trains.limit")],
    # (held-out batch R) KO lays 7 on H3 (#116), its track reaching it only
    # through Marugame I2, whose one slot SR's home station filled at the
    # start of OR 16.1; the engine's map had not seen it (no lay or station
    # since): flagged, and taken as laid since SR's lay beyond it (#124)
    # joins through it (the record-following layer's reading)
    "1889_rand_58000034_0": [(116, "tile.connection")],
}
#: games the engine plays otherwise than the rules in a way that changes the
#: game, replayed with the option that plays them the engine's way
#: (tools/rule_backed.yaml, site_options)
OPTIONS = {"1889_rand_34000003_0": ["site_home_stations"]}
#: the engine's end (None: the generator stopped the game before its end)
END = {"1889_rand_2711004_0": "bank", "1889_rand_34000003_0": "bank",
       "1889_rand_34000002_0": None, "1889_rand_34000019_1": "bankrupt",
       "1889_rand_34500004_0": None, "1889_rand_2711084_2": "bankrupt",
       "1889_rand_34000029_0": None, "1889_rand_34000046_0": None,
       "1889_rand_34002005_0": None, "1889_rand_58000034_0": "bank"}


def export_text(name: str) -> str:
    with gzip.open(GAMES[name], "rt", encoding="utf-8") as fh:
        return fh.read()


def replay(name, options=()):
    record, read = import_export(export_text(name), name)
    assert read == []
    record.options = list(record.options) + list(options)
    return record, Replay(record).run()


def test_the_ten_games_are_present():
    assert sorted(GAMES) == sorted(END)


@pytest.mark.parametrize("name", sorted(END))
def test_random_game_scores_and_trace_match_the_engine(name):
    data = json.loads(export_text(name))
    record, result = replay(name, OPTIONS.get(name, ()))
    assert [(f.action_id, f.rule) for f in result.findings
            if f.severity in ("error", "warning")] == EXPECTED_FINDINGS.get(name, [])
    assert (result.end_reason if result.finished else None) == END[name]
    assert net_worths(result) == site_scores(data)
    divergence, _, compared = walk_trace(record, load_trace("1889", name))
    assert divergence is None, str(divergence)
    assert compared > 150


def test_a_lay_through_a_new_home_station_is_one_finding_and_the_option_plays_it():
    """The rules put KO's home station on Takamatsu (K4) at the start of OR
    4.1; SR's lay beyond it (K8, #60) is then joined to SR's network only
    through K4, which KO's station fills: tile.connection.  The record's
    later lines go on from it laid (the engine's map had not seen the
    station), so the record-following layer takes it as laid, and the replay
    matches the engine's trace after every action; before, the refusal stood
    and the record's later lines parted from the map.  With the option
    site_home_stations (home stations at each company's first turn, as the
    engine's map has them) the game is clean."""
    record, result = replay("1889_rand_34000003_0")
    assert [(f.action_id, f.rule, f.message) for f in result.findings
            if f.severity == "error"] == [(
                60, "tile.connection",
                "tile 6 rotation 1 on K8 is not connected to SR's network (no track of SR "
                "reaches K8): SR's track reaches K8 only through K4 (KO), a city filled by other "
                "corporations' stations, which blocks it, and the record's later lines go on "
                "from it laid (18xx.games lets such a lay through when its map has not yet seen "
                "the station): taken so")]
    divergence, _, compared = walk_trace(record, load_trace("1889", "1889_rand_34000003_0"))
    assert divergence is None and compared > 400
    _, result = replay("1889_rand_34000003_0", options=["site_home_stations"])
    assert result.findings == []


def test_bankrupt_president_does_not_sell_a_company_twice():
    """34000019_1: Player 1 sells SR (#746) and TR (#747) for KO's train,
    then goes bankrupt (#748): his last 10% of SR and 30% of TR stay his
    (one sale of a company per turn), AR's and KO's presidencies too; his
    net worth is the engine's 600."""
    record, _ = import_export(export_text("1889_rand_34000019_1"), "x")
    g = Replay(record).run().game
    p1 = g.player_by_name["Player 1"]
    held = {c.sym: c.percent_of(p1) for c in g.corporations.values() if c.percent_of(p1)}
    assert held == {"AR": 30, "SR": 10, "KO": 30, "TR": 30}
    assert (p1.cash, g.net_worth(p1)) == (0, 600)


def test_the_beginner_game_deals_the_privates_from_the_seed():
    """34500004_0 (6 players, option beginner_game, seed 1678274071): no
    auction; the six privates, drawn from the seed with the site's generator,
    are dealt in seating order and paid at their beginner values (MF 40, DR
    60, SMR 60, TR 20, ER 40, SIR 90 from ¥390 each); SR 1 begins."""
    record, _ = import_export(export_text("1889_rand_34500004_0"), "x")
    assert record.options == ["beginner_game"]
    g = Replay(record, stop_at=0).run().game
    assert [(p.name, [c.sym for c in p.companies], p.cash) for p in g.players] == [
        ("Player 1", ["MF"], 350), ("Player 2", ["DR"], 330), ("Player 3", ["SMR"], 330),
        ("Player 4", ["TR"], 370), ("Player 5", ["ER"], 350), ("Player 6", ["SIR"], 300)]
    assert g.round.label == "SR 1"
    assert not g.board.blocked          # no private blocks a hex
    assert "Beg6" in g.board.tiles


def test_the_round_ends_after_a_last_company_owning_ehime_railway():
    """2711084_2 #209: TR, last in OR 5.1, pays out; it owns ER, whose lay is
    its seller's (at the sale), not TR's: the round ends there, and OR 5.2's
    privates pay (Player 2's UTF: 144 + 30)."""
    record, _ = import_export(export_text("1889_rand_2711084_2"), "x")
    g = Replay(record, stop_at=209).run().game
    assert g.round.label == "OR 5.2"
    assert g.player_by_name["Player 2"].cash == 174


def test_the_seller_lays_ohzu_after_the_round_s_last_company_bought_ehime_railway():
    """34000029_0 #177-178: SR, last in OR 8.1, buys ER after its trains;
    the round waits for the seller's lay (ER's 15 on C4, #178), then SR 9
    begins."""
    record, _ = import_export(export_text("1889_rand_34000029_0"), "x")
    g = Replay(record, stop_at=177).run().game
    assert g.round.label == "OR 8.1"
    result = Replay(record, stop_at=178).run()
    assert result.findings == []
    assert result.game.board.hexes["C4"].tile.name == "15"


def test_the_seller_s_lay_ends_the_buyer_s_turn_when_nothing_is_left():
    """34000046_0 #103-104: TR, last in OR 8.1, buys ER and its seller lays
    206 on C4; TR has nothing left to do, so the round ends and OR 8.2's
    privates pay IR (MF 5, SIR 20, SMR 15: 535 + 40)."""
    record, _ = import_export(export_text("1889_rand_34000046_0"), "x")
    g = Replay(record, stop_at=104).run().game
    assert g.round.label == "OR 8.2"
    assert g.corporations["IR"].cash == 575


def test_a_share_of_a_corporation_nobody_started_makes_no_president():
    """34002005_0 #14: Player 1 exchanges DR for IR_1 before anybody started
    IR: he holds that 10% share (one certificate), IR has no president and
    its president's certificate stays in the IPO (for whoever starts it)."""
    record, _ = import_export(export_text("1889_rand_34002005_0"), "x")
    g = Replay(record, stop_at=14).run().game
    ir, p1 = g.corporations["IR"], g.player_by_name["Player 1"]
    assert ir.president is None and ir.certs[0].owner == "ipo"
    assert ir.certs[1].owner is p1 and ir.percent_of(p1) == 10
    assert g.num_certs(p1) == 5
