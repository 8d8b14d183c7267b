"""18Ireland's bundled examples: a complete legal game in the notation (game
161830 of 18xx.games, renamed), scored as the site did, and one game per
18Ireland rule broken, each flagged at its last line."""

from pathlib import Path

import pytest


from conftest import assert_flagged_only_at, illegal_examples, replay_file as run

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
}


def test_every_illegal_example_is_listed():
    assert illegal_examples(EXAMPLES) == sorted(ILLEGAL)


@pytest.mark.parametrize("name", sorted(ILLEGAL))
def test_illegal_example_is_flagged_at_its_line(name):
    assert_flagged_only_at(EXAMPLES / "illegal" / f"{name}.18xx", *ILLEGAL[name])
