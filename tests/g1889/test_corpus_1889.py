"""The four real 1889 games exported from 18xx.games (two full games, 3 and 4
players, and two short 5-player hotseat games the players ended at once)
replay to the site's final net worths and end, and agree with the site's
engine on every player's cash and every company's treasury, price, president
and trains after every action (traces: tests/data/traces/1889_*).  Three give
no finding at all; 314 gives one: a run through a city full of other
companies' stations, which the site's 2020 record holds (docs/1889.md, "The
real games")."""

import json

import pytest

from railcheck.conformance import walk_trace
from railcheck.engine import Replay
from railcheck.importer import import_export

from conftest import DATA, load_trace, site_scores

GAMES = {p.stem: p for p in sorted((DATA / "exports" / "1889").glob("*.json"))}

#: the site's final net worths (its result by player id), by player name
EXPECTED = {
    "314": {"Player 1": 320, "Player 2": 1473, "Player 3": 1134},
    "962": {"Player 1": 3880, "Player 2": 4444, "Player 3": 4317, "Player 4": 3091},
    "hs_jmmljkbw_17502": {"Player 1": 370, "Player 2": 375, "Player 3": 395,
                          "Player 4": 395, "Player 5": 400},
    "hs_lhglbbiz_17502": {"Player 1": 370, "Player 2": 375, "Player 3": 395,
                          "Player 4": 395, "Player 5": 400},
}
END = {"314": "bankrupt", "962": "bank", "hs_jmmljkbw_17502": "manually_ended",
       "hs_lhglbbiz_17502": "manually_ended"}
#: the one finding: IR's 3-train runs I4-I2-K4 through Marugame (I2), whose
#: two slots hold SR's and AR's stations
FINDINGS = {"314": [(367, "route.blocked",
                     "train 3 (3-3) runs through I2, whose slots are all filled by SR, AR")]}


def replay(name, stop_after=None):
    record, read = import_export(GAMES[name].read_text(encoding="utf-8"), str(GAMES[name]))
    if stop_after is not None:
        record.actions = [a for a in record.actions if a.action_id <= stop_after]
        record.expected_result = record.expected_end_reason = None
    return read, Replay(record).run()


def test_all_four_games_are_present():
    assert sorted(GAMES) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_real_games_replay_to_the_sites_scores_and_traces(name):
    read, result = replay(name)
    assert read == []
    assert [(f.action_id, f.rule, f.message) for f in result.findings] == FINDINGS.get(name, [])
    assert result.finished and result.end_reason == END[name]
    assert {r["player"]: r["net_worth"] for r in result.standings} == EXPECTED[name]
    assert site_scores(json.loads(GAMES[name].read_text(encoding="utf-8"))) == EXPECTED[name]
    record, _ = import_export(GAMES[name].read_text(encoding="utf-8"), name)
    divergence, _, compared = walk_trace(record, load_trace("1889", name))
    assert divergence is None, str(divergence)
    trace = load_trace("1889", name)
    ids = {a.action_id for a in record.actions}
    assert compared == len([s for s in trace["states"] if s["id"] in ids])
    assert compared > (400 if name in ("314", "962") else 40)


def test_mitsubishi_ferry_lays_the_port_in_tosa_electrics_turn():
    """962 #39: Player 3 (TR's president) lays the port tile 437 on Nangoku
    (G10) with MF, a power of his own, in TR's track step; TR then lays
    Nahari (G12), reached through the port (#40), and places a station there.
    The player pays nothing (no terrain) and MF stays open."""
    _, result = replay("962", stop_after=41)
    g = result.game
    assert result.findings == []
    assert g.board.hexes["G10"].tile.name == "437"
    mf = g.companies["MF"]
    assert (mf.owner.name, mf.closed, mf.uses) == ("Player 3", False, 1)
    assert g.board.tokens_on("G12") == [["TR"]]


def test_ehime_railway_sold_to_a_company_lays_ohzu_for_its_seller():
    """962 #61-64: TR buys ER from Player 3 for 80; the seller lays green 14
    on Ohzu (C4) at once, besides TR's own lay, not connected to TR; TR's
    treasury pays only the price of the private."""
    _, before = replay("962", stop_after=60)
    _, result = replay("962", stop_after=64)
    g = result.game
    assert result.findings == []
    assert g.board.hexes["C4"].tile.name == "14"
    assert g.companies["ER"].owner is g.corporations["TR"]
    assert g.corporations["TR"].cash == before.game.corporations["TR"].cash - 80


def test_ehime_railways_seller_may_decline():
    """314 #89-90: SR buys ER; the seller passes (ER pass): C4 keeps its
    printed tile and the game goes on with SR's next purchase."""
    _, result = replay("314", stop_after=91)
    g = result.game
    assert result.findings == []
    assert not g.board.hexes["C4"].laid
    assert g.companies["SIR"].owner is g.corporations["SR"]


def test_a_2020_run_given_by_its_hexes_is_read_by_its_stops():
    """314 #158: the site wrote KO's 3-train as the hexes of each stretch,
    J5-K4 then J5-I4; read as the run K4-J5-I4 (the stretches' ends chained)."""
    record, _ = import_export(GAMES["314"].read_text(encoding="utf-8"), "314")
    run = next(a for a in record.actions if a.action_id == 158)
    assert [[s.hex for s in r.stops] for r in run.routes] == [
        ["J1", "K4"], ["K4", "L7"], ["K4", "J5", "I4"]]


def test_refusals_of_the_title_s_powers_change_nothing():
    """962 with MF's port written on an inland town (#39), ER's Ohzu tile
    written as a tile ER may not lay (#64), and Carol's sale of IR in SR 3
    (#149) written as a second sale of TR, which she sold at #148: each is
    refused, and each refusal leaves the game exactly as it was."""
    data = json.loads(GAMES["962"].read_text(encoding="utf-8"))
    for a in data["actions"]:
        if a["id"] == 39:
            a["hex"] = "J5"
        elif a["id"] == 64:
            a["tile"] = "57-1"
        elif a["id"] == 149:
            a["shares"] = ["TR_" + s.rsplit("_", 1)[1] for s in a["shares"]]
    record, _ = import_export(json.dumps(data), "changed.json")
    rp = Replay(record, check_purity=True)
    result = rp.run()
    assert rp.impure == []
    refused = [(a.action_id, rule) for a, _, rule in rp.refusals]
    assert (39, "private.power") in refused
    assert (64, "private.power") in refused
    assert (149, "stock.sell_blocks") in refused
    assert result.findings


@pytest.mark.parametrize("seed", range(6))
def test_a_damaged_1889_game_is_findings_never_a_crash(seed):
    """962 with actions dropped, swapped and given to other entities (a
    seeded shuffle of the damage): findings, never railcheck's own error."""
    import random
    rnd = random.Random(seed)
    data = json.loads(GAMES["962"].read_text(encoding="utf-8"))
    acts = data["actions"]
    for _ in range(8):
        i, j = rnd.randrange(len(acts)), rnd.randrange(len(acts))
        kind = rnd.choice(("drop", "swap", "entity"))
        if kind == "drop":
            acts.pop(i)
        elif kind == "swap":
            acts[i], acts[j] = acts[j], acts[i]
        else:
            acts[i] = dict(acts[i], entity=rnd.choice(["MF", "ER", "TR", "KO", 253, "SMR"]),
                           entity_type=rnd.choice(["company", "corporation", "player"]))
    record, _ = import_export(json.dumps(data), "damaged.json")
    result = Replay(record).run()
    assert not [f for f in result.findings if f.rule == "internal.error"]
