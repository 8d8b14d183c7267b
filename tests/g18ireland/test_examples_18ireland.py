"""18Ireland's bundled examples: a complete legal game in the notation (game
161830 of 18xx.games, renamed), scored as the site did, and one game per
18Ireland rule broken, each flagged at its last line."""

import json
from pathlib import Path

import pytest


from conftest import assert_flagged_only_at, illegal_examples, net_worths, site_scores
from conftest import replay_file as run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "18Ireland"


def test_complete_game_is_legal_and_scores_as_the_site():
    r = run(EXAMPLES / "game.18xx")
    # every lay checked on the map (the gauge too); one run taken as recorded
    assert [(f.severity, f.rule) for f in r.findings] == [("info", "route.unchecked")]
    assert r.finished and r.end_reason == "bank"
    assert {row["player"]: row["net_worth"] for row in r.standings} == {
        "Alice": 2109, "Bob": 1624, "Dave": 1558, "Frank": 1368, "Carol": 1267, "Eve": 899}
    rows = {row["player"]: row for row in r.standings}
    assert (rows["Alice"]["cash"], rows["Alice"]["shares"]) == (917, 1192)


ILLEGAL = {
    "auction-bid-not-multiple-of-5": (9, "auction.bid_multiple", "£82 is not"),
    "minor-auction-below-100": (20, "stock.minor_bid", "at least £100, not £95"),
    "minor-not-on-top": (20, "stock.minor_auction", "(DER), not DDR"),
    "sale-in-first-sr": (18, "stock.sell_first_round", "first stock round"),
    "major-before-phase-6": (50, "stock.major_phase", "from phase 6; this is phase 2"),
    "second-lay-after-upgrade": (355, "track.second_lay", "first lay was an upgrade"),
    "vote-without-shares": (312, "merger.vote", "Eve holds no share of DER, UR"),
    "merger-of-unconnected-minors": (311, "merger.connection",
                                     "DER (I9) is not joined by broad gauge track to DKR (I11)"),
    "broad-lay-off-the-broad-network": (379, "tile.connection",
                                        "adds broad gauge track, but DSER's broad network does "
                                        "not reach E7"),
    "upgrade-without-new-track": (378, "tile.no_new_track",
                                  "DSER's upgrade of H8 (tile 9 to 19) gives it no new broad "
                                  "gauge track it can use"),
    "2h-running-3-hex-edges": (391, "route.distance", "crosses 3 hex edges but may cross only 2"),
    "narrow-town-on-broad-run": (392, "route.gauge", "2H-train runs on narrow gauge track"),
    "second-lay-without-20": (167, "track.cost",
                              "DER has £10; its second lay this turn costs £20 (O2b), £20 in "
                              "all on I5 (terrain £0)"),
    "trade-before-phase-10": (789, "trains.exchange",
                              "GNRI trades in its 8H-train for a 10H in phase 8; trains may be "
                              "traded in only from phase 10 (O6b); taken as traded for £110"),
    "two-trades-in-a-turn": (1030, "trains.exchange",
                             "GNRI trades in its 10H-train for a D in phase 10; it already traded "
                             "in a train this turn (its 8H-train for a 10H): one trade a turn"),
    "donegal-second-tile-not-joined": (115, "private.power",
                                       "DR's second lay on G3 (tile 79) does not join the track "
                                       "of its first, on F4"),
    "merger-over-70-percent": (672, "merger.shares",
                               "after the merger Player 3 would hold 80% of the major (DER 60%, "
                               "DDR 60%, LER 40%: one 10% share per 20%); the limit is 70%"),
}


def test_every_illegal_example_is_listed():
    assert illegal_examples(EXAMPLES) == sorted(ILLEGAL)


@pytest.mark.parametrize("name", sorted(ILLEGAL))
def test_illegal_example_is_flagged_at_its_line(name):
    assert_flagged_only_at(EXAMPLES / "illegal" / f"{name}.18xx", *ILLEGAL[name])


def test_merger_over_70_percent_is_refused_and_changes_nothing():
    """M8: the third minor is refused (the proposal stays DER, DDR) and the
    refusal changes nothing; with DDR and DER alone (60%) nothing is flagged."""
    from railcheck.engine import Replay
    from railcheck.loader import load_game
    path = EXAMPLES / "illegal" / "merger-over-70-percent.18xx"
    record, _ = load_game(str(path))
    rp = Replay(record, check_purity=True)
    r = rp.run()
    assert rp.impure == []
    assert [f.line for f in r.errors] == [672]
    rnd = r.game.round
    assert [c.sym for c in rnd.proposal] == ["DER", "DDR"]
    assert rnd.problem(rnd.proposal) is None
    p3 = r.game.player_by_name["Player 3"]
    assert [r.game.corporations[s].percent_of(p3) for s in ("DER", "DDR", "LER")] == [60, 60, 40]


def test_import_writes_trains_from_the_reserve_readably(tmp_path):
    """An 18Ireland import writes a primed train taken from the reserve as
    'from reserve'; the notation reads it back and the game replays as the
    export does (random 18003_0: legal, the site's scores)."""
    import gzip
    from click.testing import CliRunner
    from railcheck.cli import main
    from conftest import DATA
    src = DATA / "exports" / "18Ireland_random" / "18Ireland_rand_18003_0.json.gz"
    export = tmp_path / "g.json"
    export.write_text(gzip.open(src, "rt", encoding="utf-8").read(), encoding="utf-8")
    out = tmp_path / "g.18xx"
    res = CliRunner().invoke(main, ["import", "--rounds", str(export), "-o", str(out)])
    assert res.exit_code == 0, res.output
    text = out.read_text(encoding="utf-8")
    assert "LER buy train 1H' from reserve for 40" in text
    r = run(out)
    assert r.errors == [] and r.finished and r.end_reason == "bank"
    assert {row["player"]: row["net_worth"] for row in r.standings} == {
        "Player 3": 2521, "Player 1": 2297, "Player 2": 2080}


def test_second_lay_without_20_is_flagged_and_charged():
    """O2b: DER's first lay (I7) is free and leaves it £10; the second (I5)
    costs £20: flagged, and taken as laid and paid as the record says (£-10)."""
    from railcheck.actions import LayTile
    from railcheck.engine import Replay
    from railcheck.loader import load_game
    record, _ = load_game(str(EXAMPLES / "illegal" / "second-lay-without-20.18xx"))
    rp = Replay(record, check_purity=True)
    cash = []
    rp.after_action = lambda g, a: cash.append((a.line, g.corporations["DER"].cash)) \
        if isinstance(a, LayTile) and a.actor == "DER" else None
    r = rp.run()
    assert rp.impure == []
    assert cash[-2:] == [(166, 10), (167, -10)]
    assert [(f.line, f.rule) for f in r.errors] == [(167, "track.cost")]


@pytest.mark.parametrize("name, cash_after, trains_after", [
    ("trade-before-phase-10", -110, ["10H"]),
    ("two-trades-in-a-turn", -220, ["10H", "D"]),
])
def test_a_trade_against_o6b_is_flagged_and_taken_as_traded(name, cash_after, trains_after):
    """O6b: flagged at the last line (the check changes nothing) and then
    taken as the record says: the train traded in goes, the difference is paid."""
    from railcheck.actions import BuyTrain
    from railcheck.engine import Replay
    from railcheck.loader import load_game
    record, _ = load_game(str(EXAMPLES / "illegal" / f"{name}.18xx"))
    rp = Replay(record, check_purity=True)
    seen = []
    rp.before_action = lambda g, a: seen.append(g.corporations["GNRI"].cash) \
        if isinstance(a, BuyTrain) and a is record.actions[-1] else None
    r = rp.run()
    assert rp.impure == []
    gnri = r.game.corporations["GNRI"]
    assert gnri.cash - seen[-1] == cash_after
    assert sorted(t.name for t in gnri.trains) == trains_after


def _donegal(*last_lines):
    """The Donegal example cut before DR's lays, with ``last_lines`` after it."""
    path = EXAMPLES / "illegal" / "donegal-second-tile-not-joined.18xx"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[113] == "DR lay IR5 F4 r1"
    return path, "\n".join(lines[:113] + list(last_lines)) + "\n"


def test_donegal_lays_as_the_site_are_legal():
    """IR5 on Donegal F4, then tile 78 on E5 joining it (random 18003_2, as played)."""
    path, text = _donegal("DR lay IR5 F4 r1", "DR lay 78 E5 r4")
    r = run(path, text=text)
    assert r.errors == []
    assert r.game.board.tile_on("E5") == ("78", 4)
    assert r.game.companies["DR"].closed          # its two lays used


def test_donegal_first_lay_off_donegal_is_flagged():
    """DR's first lay goes on Donegal F4 (first_hex): one on E5 is flagged,
    laid as the record says; nothing else is flagged."""
    from railcheck.engine import Replay
    from railcheck.loader import load_game
    path, text = _donegal("DR lay 78 E5 r4")
    record, _ = load_game(str(path), text=text)
    rp = Replay(record, check_purity=True)
    r = rp.run()
    assert rp.impure == []
    assert [(f.line, f.rule, f.message) for f in r.errors] == [
        (114, "private.power", "DR's first lay is on F4, not E5; laid as the record says")]
    assert r.game.board.tile_on("E5")[0] == "78"


def test_donegal_second_lay_left_unmade_is_flagged_when_the_turn_ends():
    """DR's two lays go together: CBPR lays IR5 on F4 and goes on to buy its
    train (random 18003_2 without the second lay): flagged once, at the
    action ending CBPR's turn (the 4H bought), DR left open with one lay."""
    path = EXAMPLES / "illegal" / "donegal-second-tile-not-joined.18xx"
    lines = path.read_text(encoding="utf-8").splitlines()
    text = "\n".join(lines[:114] + ['"Player 1" sell 2 EBSR',
                                    "CBPR buy train 4H from depot for 180",
                                    "DKR buy private DAR for 40"]) + "\n"
    r = run(path, text=text)
    assert [(f.line, f.rule, f.message) for f in r.errors] == [
        (116, "private.power", "DR's 2 lays go together in one turn: CBPR laid 1 (F4) and "
                               "ended its turn without the rest")]
    assert r.game.companies["DR"].uses == 1 and not r.game.companies["DR"].closed


def test_a_vote_out_of_turn_is_flagged_and_counted():
    """M9: the holders of DER and UR vote in turn from the proposer Bob (Bob,
    Dave, Frank); Dave voting first is flagged, his 4 votes counted, and with
    Bob's 3 of 8 the merger is carried: Bob forms DSER as in 161830."""
    lines = (EXAMPLES / "game.18xx").read_text(encoding="utf-8").splitlines()
    assert lines[328:331] == ["Bob vote for", "Dave vote for", "Bob propose DSER"]
    text = "\n".join(lines[:328] + ["Dave vote for", "Bob vote for", "Bob propose DSER"]) + "\n"
    r = run(EXAMPLES / "game.18xx", text=text)
    assert [(f.line, f.rule, f.message) for f in r.errors] == [
        (329, "merger.vote", "Dave votes before Bob: the holders of DER, UR vote in turn from "
                             "the proposer (Bob, Dave, Frank) (M9); counted as the record says")]
    dser = r.game.corporations["DSER"]
    assert dser.floated and dser.president.name == "Dave"


def test_import_writes_a_hex_with_a_negative_row(tmp_path):
    """The Irish Mail's sea hex G-1 (by Londonderry) has a negative row: an
    import writes 'TIM lay IM G-1 r1' and runs through 'G-1.0', and the
    notation reads them back (a '-' inside a hex is not a run's separator):
    random 18005_2 replays legal to the site's scores."""
    import gzip
    from click.testing import CliRunner
    from railcheck.cli import main
    from conftest import DATA
    src = DATA / "exports" / "18Ireland_random" / "18Ireland_rand_18005_2.json.gz"
    export = tmp_path / "g.json"
    export.write_text(gzip.open(src, "rt", encoding="utf-8").read(), encoding="utf-8")
    out = tmp_path / "g.18xx"
    res = CliRunner().invoke(main, ["import", str(export), "-o", str(out)])
    assert res.exit_code == 0, res.output
    text = out.read_text(encoding="utf-8")
    assert "TIM lay IM G-1 r1  #@214" in text
    assert "LER run 4H G-1.0~G1.0-H2.0 (60) = 60  #@317" in text
    r = run(out)
    assert r.errors == [] and r.finished and r.end_reason == "bank"
    assert net_worths(r) == site_scores(json.loads(export.read_text(encoding="utf-8")))
