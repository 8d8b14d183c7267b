"""The four real 18Ireland games exported from 18xx.games (including the
larger-bank option) replay with no error or warning, end as the site says,
score exactly the site's result, and agree with the site's engine on every
player's cash and every company's treasury, price, president and trains
after every single action (traces: tests/data/traces/18Ireland_*)."""

import json

import pytest

from railcheck.conformance import walk_trace
from railcheck.engine import Replay
from railcheck.importer import import_export

from conftest import DATA, load_trace, site_scores

GAMES = {p.stem: p for p in sorted((DATA / "exports" / "18Ireland").glob("*.json"))}

#: the site's final net worth (its result by player id), by player name
EXPECTED = {
    "161830": {"Player 1": 2109, "Player 2": 1624, "Player 3": 1267, "Player 4": 1558,
               "Player 5": 899, "Player 6": 1368},
    "18Ireland_game_end_bankrupt": {"Player 1": 0, "Player 2": 0, "Player 3": 1602},
    "18Ireland_game_end_stock_market": {"Player 1": 4698, "Player 2": 3164, "Player 3": 3255,
                                        "Player 4": 920},
    "larger_bank_optional_rule": {"Player 1": 1906, "Player 2": 1558, "Player 3": 1408,
                                  "Player 4": 2741, "Player 5": 1753, "Player 6": 1430},
}
END = {"161830": "bank", "18Ireland_game_end_bankrupt": "bankrupt",
       "18Ireland_game_end_stock_market": "stock_market", "larger_bank_optional_rule": "bank"}


def replay(name, stop_after=None, **kw):
    record, read = import_export(GAMES[name].read_text(encoding="utf-8"), str(GAMES[name]))
    if stop_after is not None:
        record.actions = [a for a in record.actions if a.action_id <= stop_after]
        record.expected_result = record.expected_end_reason = None
    return read, Replay(record, **kw).run()


def walk(name):
    """Replay ``name`` beside its trace: (states compared, first divergence
    as (id, what, ours, the site's) or None)."""
    record, _ = import_export(GAMES[name].read_text(encoding="utf-8"), name)
    divergence, _, compared = walk_trace(record, load_trace("18Ireland", name))
    return compared, (divergence.as_tuple() if divergence else None)


def test_all_four_games_are_present():
    assert sorted(GAMES) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_real_game_is_legal_and_scores_match_the_site(name):
    read, result = replay(name)
    assert read == []
    assert [f.message for f in result.findings if f.severity != "info"] == []
    assert result.findings == []      # every lay and run checked on the map
    assert result.finished and result.end_reason == END[name]
    assert {r["player"]: r["net_worth"] for r in result.standings} == EXPECTED[name]
    assert site_scores(json.loads(GAMES[name].read_text(encoding="utf-8"))) == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_action_matches_the_site_engine(name):
    compared, divergence = walk(name)
    assert divergence is None
    trace = load_trace("18Ireland", name)
    # every state of the trace whose action the record keeps was compared
    ids = {a.action_id for a in import_export(GAMES[name].read_text(encoding="utf-8"),
                                              name)[0].actions}
    assert compared == len([s for s in trace["states"] if s["id"] in ids]) > 500


def test_dk_starts_dkr_in_the_auction():
    """161830: Player 5 buys DK for 125: DKR's par is 60 (the highest par not
    above 62), the 125 goes to DKR, which buys the first 2H for 80."""
    _, result = replay("161830", stop_after=6)
    g = result.game
    dkr = g.corporations["DKR"]
    assert (dkr.par.price, dkr.cash, [t.name for t in dkr.trains]) == (60, 45, ["2H"])
    assert dkr.president.name == "Player 5" and g.companies["DK"].closed
    assert g.bank.cash == 4000 - 6 * 160 + 80 + 85 + 35 + 20 + 80
    assert g.round.kind == "SR"


def test_a_minor_auction_sets_the_par_from_the_bid():
    """161830 #12: Player 4 opens DER's auction at 100, nobody raises: par 50,
    the 100 in DER's treasury; the minor drawn out (setup.py) never plays."""
    _, result = replay("161830", stop_after=14)
    g = result.game
    der = g.corporations["DER"]
    assert (der.par.price, der.cash, der.president.name) == (50, 100, "Player 4")
    assert g.title.state.stack[0] == "DDR"


def test_the_first_merger_of_161830():
    """Merger round 5.2: Player 2 proposes DER + UR, the holders vote for,
    DSER forms at the top row and left column of their prices (58), with
    their cash (50 + 16) and trains, Player 4 (both minors' president) its
    president."""
    _, result = replay("161830", stop_after=341)
    g = result.game
    dser = g.corporations["DSER"]
    assert (dser.price.price, dser.cash, dser.president.name) == (58, 66, "Player 4")
    assert sorted(t.name for t in dser.trains) == ["2H", "2H", "4H"]
    assert g.corporations["DER"].closed and g.corporations["UR"].closed
    assert g.round.label == "MR 5.2"


def test_refusals_change_nothing():
    record, _ = import_export(GAMES["161830"].read_text(encoding="utf-8"), "161830")
    for a in record.actions:
        if a.action_id == 12:          # DER's auction opened at 95: refused
            a.price = 95
    rp = Replay(record, check_purity=True)
    result = rp.run()
    assert rp.impure == []
    assert ("stock.minor_bid", 12) in [(f.rule, f.action_id) for f in result.findings]


def changed_161830(action_id: int, shares: list):
    """161830 with action ``action_id``'s certificates changed to ``shares``."""
    data = json.loads(GAMES["161830"].read_text(encoding="utf-8"))
    for a in data["actions"]:
        if a["id"] == action_id:
            a["shares"] = shares
    record, read = import_export(json.dumps(data), "161830-changed")
    assert read == []
    return record


@pytest.mark.parametrize("action_id, named, holder, text, cash, price", [
    # the pool's share (the site's engine refuses the issue: its replay stops there)
    (570, "WKR_2", "WKR", "WKR issues WKR_2, a 20% share it does not hold (the bank pool holds "
                          "it): a company issues only shares of its treasury, which holds WKR_3; "
                          "taken as issuing WKR_3 at £85", (0, 85), (85, 78)),
    # a player's share (the site's engine sells it for Player 1, who receives the £50, and
    # its replay stops at #144, where GNWR redeems GNWR_2, not in the pool there)
    (120, "GNWR_1", "GNWR", "GNWR issues GNWR_1, a 20% share it does not hold (Player 1 holds "
                            "it): a company issues only shares of its treasury, which holds "
                            "GNWR_2, GNWR_3; taken as issuing GNWR_2 at £50", (150, 200),
     (50, 38)),
])
def test_an_issue_of_a_share_the_company_does_not_hold(action_id, named, holder, text, cash,
                                                       price):
    """18Ireland O1: a company issues a share of its treasury.  A record naming one it
    does not hold is one finding at that action, taken as the issue of a treasury share
    (all alike), so the rest of the game stays in step: the site's end and scores."""
    record = changed_161830(action_id, [named])
    seen = {}

    def at(when):
        def observe(game, action):
            if action.action_id == action_id:
                corp = game.corporations[holder]
                seen[when] = (corp.cash, corp.price.price)
        return observe
    replay = Replay(record, check_purity=True)
    replay.before_action, replay.after_action = at("before"), at("after")
    result = replay.run()
    assert [(f.action_id, f.rule, f.message) for f in result.findings
            if f.severity != "info"] == [(action_id, "or.issue", text)]
    assert (seen["before"][0], seen["after"][0]) == cash
    assert (seen["before"][1], seen["after"][1]) == price
    assert result.finished and result.end_reason == "bank"
    assert {r["player"]: r["net_worth"] for r in result.standings} == EXPECTED["161830"]


def test_a_redemption_of_a_share_not_in_the_pool():
    """161830 #144: GNWR redeems GNWR_2 from the pool for £30; written as
    GNWR_1 (Player 1's: the site refuses, "Cannot buy share from player"),
    one finding, taken as redeeming the pool's GNWR_2."""
    record = changed_161830(144, ["GNWR_1"])
    result = Replay(record, check_purity=True).run()
    assert [(f.action_id, f.rule, f.message) for f in result.findings
            if f.severity != "info"] == [
        (144, "or.issue", "GNWR redeems GNWR_1, a 20% share that is not in the bank pool "
                          "(Player 1 holds it): a company redeems only shares of the pool, "
                          "which holds GNWR_2; taken as redeeming GNWR_2 at £30")]
    assert {r["player"]: r["net_worth"] for r in result.standings} == EXPECTED["161830"]


def test_an_issue_of_a_certificate_number_the_company_does_not_have():
    """161830 #570: WKR issues WKR_3 for £85; written as WKR_9, a number WKR's four
    certificates do not reach (the site finds no such share: its replay stops there),
    one finding, taken as the issue of WKR_3, and the site's end and scores."""
    record = changed_161830(570, ["WKR_9"])
    result = Replay(record, check_purity=True).run()
    assert [(f.action_id, f.rule, f.message) for f in result.findings
            if f.severity != "info"] == [
        (570, "or.issue", "WKR issues WKR_9, a certificate WKR does not have (its certificates "
                          "are WKR_0 to WKR_3); taken as issuing WKR_3 at £85")]
    assert result.finished and result.end_reason == "bank"
    assert {r["player"]: r["net_worth"] for r in result.standings} == EXPECTED["161830"]


def changed_161830_any(action_id: int, shares: list):
    """161830 with action ``action_id``'s certificates changed to ``shares``
    (a player's purchase or sale), replayed: its findings and scores."""
    result = Replay(changed_161830(action_id, shares), check_purity=True).run()
    return ([(f.action_id, f.rule, f.message) for f in result.findings if f.severity != "info"],
            {r["player"]: r["net_worth"] for r in result.standings})


@pytest.mark.parametrize("action_id, named, finding", [
    # Player 1 sells his DKR_1 for £65; written as Player 5's president's certificate
    (90, "DKR_0", "Player 1 sells DKR_0, which Player 5 holds: a player sells only certificates "
                  "he holds; taken as the sale of 20% of DKR from his own"),
    # ... as DKR_4, a number DKR's four certificates do not reach
    (90, "DKR_4", "Player 1 sells DKR_4, a certificate DKR does not have (its certificates are "
                  "DKR_0 to DKR_3): a player sells only certificates he holds; taken as the sale "
                  "of 20% of DKR from his own"),
])
def test_a_sale_naming_a_certificate_the_player_does_not_hold(action_id, named, finding):
    """18Ireland: a player sells only his own certificates; the site refuses a
    sale naming another's ("Cannot sell shares of DKR") or one the company has
    not: one finding, taken as the sale of as much of his own, and the site's
    end and scores."""
    findings, scores = changed_161830_any(action_id, [named])
    assert findings == [(action_id, "stock.sell_not_owned", finding)]
    assert scores == EXPECTED["161830"]


@pytest.mark.parametrize("action_id, named, finding", [
    # Player 2 buys DKR_2 from DKR's treasury at #8; written as DKR_1, Player 1's since #7
    (8, "DKR_1", "certificate DKR_1 is held by Player 1: shares are bought from the IPO or the "
                 "pool; taken as DKR_2 from the IPO, an equal share"),
    # ... as DKR_0, Player 5's president's certificate (40%, none equal in the treasury:
    # it was refused, and 527 findings followed)
    (8, "DKR_0", "certificate DKR_0 is held by Player 5: shares are bought from the IPO or the "
                 "pool; taken as DKR_2 from the IPO, an equal share"),
    # ... as DKR_4, a number DKR has not (refused before, 527 findings)
    (8, "DKR_4", "certificate DKR_4 is not one of DKR's (its certificates are DKR_0 to DKR_3): "
                 "shares are bought from the IPO or the pool; taken as DKR_2 from the IPO, an "
                 "equal share"),
])
def test_a_purchase_naming_a_certificate_not_for_sale(action_id, named, finding):
    """18Ireland: shares are bought from the treasury or the pool; the site
    refuses a purchase naming a player's certificate ("Cannot buy a share of
    DKR") or one the company has not: one finding, taken as an equal share of
    the treasury, and the site's end and scores."""
    findings, scores = changed_161830_any(action_id, [named])
    assert findings == [(action_id, "stock.no_share", finding)]
    assert scores == EXPECTED["161830"]
