"""A line left out of a waterfall auction (1830's, 1889's): the turn's
player's line is read from the record's next lines (his pass, his purchase
of the cheapest private, or his bid at the least on another), one finding
where the record goes on with another player, and the opening ends with
its own scores (``following/auction.py``, ``missing_waterfall_line``)."""

import pytest

from test_slips import OPENING_SCORES, errors, line_of, report, scores, without


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
