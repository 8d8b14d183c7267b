"""1860's bundled example: a complete legal game in the notation (game
210007 of 18xx.games, renamed), scored as the site did, and one game per
1860 rule broken, each flagged at its last line."""

from pathlib import Path

import pytest

from conftest import assert_flagged_only_at, illegal_examples, replay_file as run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "1860"


def test_complete_game_is_legal_and_scores_as_the_site():
    r = run(EXAMPLES / "game.18xx")
    assert r.findings == []       # every run checked on the map, leased trains too
    assert r.finished and r.end_reason == "stock_market"
    assert {row["player"]: row["net_worth"] for row in r.standings} == {
        "Bob": 16165, "Alice": 9773}
    rows = {row["player"]: row for row in r.standings}
    assert (rows["Alice"]["cash"], rows["Alice"]["privates"]) == (3836, 200)


ILLEGAL = {
    "par-in-a-closed-section": (56, "stock.section", "FYN is in section 2; only sections up to 1"),
    "par-outside-the-section-range": (53, "stock.par_price",
                                      "£110 is not a par value of IOW's section (£74 to £100)"),
    "dividend-move-ignores-the-multiples": (100, "checkpoint.mismatch",
                                            "C&N is priced at £90, the record says £95"),
    "run-ending-at-a-halt": (98, "route.halt_end",
                             "begins or ends at the halt F2 halt 0; a run may only pass halts"),
    "revenue-above-the-map": (98, "route.revenue", "is worth £50, not the £60 claimed"),
    "two-lays-with-a-station": (142, "track.second_lay",
                                "first lay (5 on I9) was a city tile: no second lay (745 on I7)"),
    "upgrade-without-a-train": (293, "track.upgrade_no_train",
                                "FYN owns no train: it may not upgrade the yellow 5 on B4"),
    "run-through-a-tile-twice": (285, "route.hex_reentry",
                                 "the 3+2-train (F4-E5-D6-C7-B6-B4-C5-F2 halt 0-F2 town 0-F2 "
                                 "city 0) enters E3 twice"),
    "train-from-a-company-with-one-train": (187, "trains.trade",
                                            "IWNJ owns 2 trains and IOW only one, its 2+1"),
    "insolvent-lays-on-terrain": (501, "track.cost",
                                  "FYN is insolvent and pays no terrain: the lay on C7 costs "
                                  "£60 (it has £380)"),
    "insolvent-places-a-station": (501, "token.not_allowed",
                                   "FYN places no station: it is insolvent (its next station "
                                   "would cost £40; it has £380)"),
    "buy-in-a-closed-section": (58, "stock.section",
                                "FYN is in section 2; only sections up to 1 are open: none of "
                                "its shares is for sale"),
    "reserved-share-bought": (167, "stock.reserved",
                              "IOW's last 10% share in the IPO is reserved for the exchange of "
                              "RPSC"),
    "stock-action-under-british-rail": (580, "stock.british_rail",
                                        "Alice may not 'buy' (OR 13.5; 3 corporations still "
                                        "operate: IOW, FYN, BHI&R)"),
    "receivership-lays-track": (584, "track.receivership",
                                "BHI&R is in receivership (no president; its price £14) and "
                                "lays no track (9 on K7)"),
    "track-after-the-southern-railway": (662, "track.southern",
                                         "(the first 9+5, phase 9) and a stock round has "
                                         "followed: no more track is laid (742 on K5 in OR 13.1)"),
    "train-price-not-a-multiple-of-10": (186, "trains.price",
                                         "costs a multiple of £10 from £10, not £205"),
}


def test_every_illegal_example_is_listed():
    assert illegal_examples(EXAMPLES) == sorted(ILLEGAL)


@pytest.mark.parametrize("name", sorted(ILLEGAL))
def test_illegal_example_is_flagged_at_its_line(name):
    assert_flagged_only_at(EXAMPLES / "illegal" / f"{name}.18xx", *ILLEGAL[name])


def test_a_sale_under_british_rail_is_refused_and_the_rounds_go_on():
    """A player's sale in an operating round of nationalisation is refused
    at its line; the replay stays in OR 13.5 (before, the action closed the
    operating rounds left one after another, to the end of the game, with no
    finding) and Bob keeps his cash (£1810)."""
    path = EXAMPLES / "illegal" / "stock-action-under-british-rail.18xx"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[579] == "Alice buy IOW ipo"
    r = run(path, text="\n".join(lines[:579] + ["Bob sell 1 BHI&R"]) + "\n")
    errors = [f for f in r.findings if f.severity == "error"]
    assert [(f.line, f.rule) for f in errors] == [(580, "stock.british_rail")]
    assert "Bob may not 'sell' (OR 13.5; 3 corporations still operate" in errors[0].message
    assert not r.finished and r.round == "OR 13.5"
    assert {row["player"]: row["cash"] for row in r.standings} == {"Bob": 1810, "Alice": 2043}


def test_a_stock_round_marker_under_british_rail_is_a_wrong_marker():
    """The record marks 'SR 14' under British Rail: the rules make no more
    stock rounds, so the marker is flagged and the replay stays in OR 13.5
    (before, it closed the operating rounds left one after another to the end
    of the game to reach the marker, and the buy after it was 'game over');
    the buy after it is refused, following from the wrong marker."""
    path = EXAMPLES / "illegal" / "stock-action-under-british-rail.18xx"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[579] == "Alice buy IOW ipo"
    r = run(path, text="\n".join(lines[:579] + ["SR 14", "Alice buy IOW ipo"]) + "\n")
    errors = [f for f in r.findings if f.severity == "error"]
    assert [(f.line, f.rule, f.consequential) for f in errors] == [
        (580, "round.marker", False), (581, "stock.british_rail", True)]
    assert errors[0].message == ("the record says 'SR 14' here, but British Rail has formed: "
                                 "there are no more stock rounds (N3); the rules make this "
                                 "OR 13.5")
    assert not r.finished and r.round == "OR 13.5"
    assert {row["player"]: row["cash"] for row in r.standings} == {"Bob": 1810, "Alice": 2043}


def test_a_par_outside_its_sections_range_is_one_finding():
    """Bob's par of IWNJ (section 2: £62 to £82) written as £75, which is no
    par of the market: flagged at its line and taken at the nearest par of
    the range, £74, the record's own; the game goes on to the site's end and
    scores (before, the par was refused and 420 findings followed)."""
    path = EXAMPLES / "game.18xx"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[139] == "Bob par IWNJ 74"
    lines[139] = "Bob par IWNJ 75"
    r = run(path, text="\n".join(lines) + "\n")
    errors = [f for f in r.findings if f.severity == "error"]
    assert [(f.line, f.rule) for f in errors] == [(140, "stock.par_price")]
    assert errors[0].message == ("£75 is not a par value of IWNJ's section 2 (£62 to £82); "
                                 "taken as par £74, the nearest in the range")
    assert r.finished and r.end_reason == "stock_market"
    assert {row["player"]: row["net_worth"] for row in r.standings} == {
        "Bob": 16165, "Alice": 9773}
