"""One or more tests per rule of 1830, each a short game in the railcheck
notation (or a prefix of the bundled complete game / a real export for
positions late in the game), replayed with ``Replay`` and checked against
numbers worked out by hand in the comments.

Conventions of the hand-written games: three players, Alice, Bob and Carol
(seats in that order), $800 each from a $12,000 bank, so the bank holds
$9,600 after the deal.  An illegal action carries the comment ``# <- refused``
and the tests check that it, and only it, is flagged: its line, its rule and
the numbers in the message.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from railcheck.engine import Replay
from railcheck.importer import import_export
from railcheck.loader import load_game

HERE = Path(__file__).resolve().parent
EXAMPLE = HERE.parent / "examples" / "1830" / "game.18xx"
EXPORTS = HERE / "data" / "exports" / "1830"

HEADER = "title: 1830\nplayers: Alice, Bob, Carol\n"

# Every private bought at face value in seat order; BO's buyer pars B&O.
#   Alice: 800 - 20 (SV) - 110 (MH) = 670
#   Bob:   800 - 40 (CS) - 160 (CA) = 600, and CA's free 10% of PRR
#   Carol: 800 - 70 (DH) - 220 (BO) = 510, and B&O's president's certificate
#   bank:  9600 + 620 = 10220
# The last direct purchase was Carol's, so Alice has the priority in SR 1.
AUCTION = """
auction
Alice buy SV
Bob buy CS
Carol buy DH
Alice buy MH
Bob buy CA
Carol buy BO
Carol par B&O 67
"""

# SR 1: PRR parred at 100 by Alice and floated; B&O stays at Carol's 20%.
#   Alice par PRR 100    Alice 670 - 200 = 470  (20%)
#   Bob buy PRR          Bob 600 - 100 = 500    (20% with CA's share)
#   Carol pass
#   Alice buy PRR        Alice 370  (30%)
#   Bob buy PRR          Bob 400    (30%): 20+10+30... sold 60% -> PRR floats with 10 x 100
#   Carol pass
#   Alice buy PRR        Alice 270  (40%, president; Bob 30%, IPO 30%)
#   three passes         Alice acted last: Bob has the priority in SR 2
SR1 = """
SR 1
Alice par PRR 100
Bob buy PRR
Carol pass
Alice buy PRR
Bob buy PRR
Carol pass
Alice buy PRR
Bob pass
Carol pass
Alice pass
"""

# OR 1.1: the privates pay (Alice SV 5 + MH 20 = 25 -> 295; Bob CS 10 + CA 25
# = 35 -> 435; Carol DH 15 + BO 30 = 45 -> 555).  PRR (home H12, no track, so
# no route) places its home station for free, earns nothing -- the zero
# revenue moves its price left from 100 (row 0, column 6) to 90 -- and buys a
# 2-train: 1000 - 80 = 920.
OR1 = """
OR 1.1
PRR buy train 2
PRR pass
"""


def play(*parts: str, **kw):
    """Replay the game made of the header and ``parts`` (each dedented)."""
    text = HEADER + "".join(textwrap.dedent(p) for p in parts)
    record, read = load_game("rules.18xx", text)
    assert read == []
    result = Replay(record, **kw).run()
    result.text = text
    return result


def marked_line(text: str) -> int:
    lines = [i for i, line in enumerate(text.splitlines(), 1) if "<- refused" in line]
    assert len(lines) == 1
    return lines[0]


def refusal(result, rule: str) -> str:
    """The single error of the game: at the marked line, of ``rule``; its message."""
    errors = [f for f in result.findings if f.severity == "error"]
    assert [(f.line, f.rule) for f in errors] == [(marked_line(result.text), rule)], \
        [(f.line, f.rule, f.message) for f in errors]
    assert all(f.severity == "error" for f in result.findings)
    return errors[0].message


def clean(result):
    assert [(f.line, f.rule, f.message) for f in result.findings] == []
    return result.game


def cash(g) -> dict:
    return {p.name: p.cash for p in g.players}


def holdings(g, sym: str) -> dict:
    corp = g.corporations[sym]
    out = {p.name: corp.percent_of(p) for p in g.players if corp.percent_of(p)}
    for where in ("ipo", "pool"):
        if corp.percent_of(where):
            out[where] = corp.percent_of(where)
    return out


def price(g, sym: str) -> int:
    return g.corporations[sym].price.price


# ---------------------------------------------------------------------------
# the waterfall auction

def test_auction_cheapest_private_is_bought_at_face_value():
    r = play("""
        auction
        Alice buy SV
        Bob buy CS
        """)
    g = clean(r)
    # 800 - 20, 800 - 40; the bank 9600 + 60
    assert cash(g) == {"Alice": 780, "Bob": 760, "Carol": 800}
    assert g.bank.cash == 9660
    assert g.companies["SV"].owner is g.player_by_name["Alice"]
    assert g.round.current_player().name == "Carol"


def test_auction_only_the_cheapest_private_is_bought_outright():
    r = play("""
        auction
        Alice buy DH  # <- refused
        """)
    msg = refusal(r, "auction.buy_not_cheapest")
    assert "the cheapest private (SV at $20)" in msg and "DH needs a bid" in msg
    assert cash(r.game)["Alice"] == 800


def test_auction_bid_commits_cash_without_paying_it():
    # Alice's 700 on BO stays hers but is committed: 100 remain for other
    # purchases, enough for CS at 40 (then 60 uncommitted of 760), not for DH at 70.
    r = play("""
        auction
        Alice bid BO 700
        Bob buy SV
        Carol pass
        Alice buy CS
        Bob pass
        Carol pass
        Alice buy DH  # <- refused
        """)
    msg = refusal(r, "auction.cash")
    assert msg == "Alice has $760 ($60 not committed to bids), DH costs $70"
    g = r.game
    assert cash(g) == {"Alice": 760, "Bob": 780, "Carol": 800}
    assert g.round.bids["BO"] == {g.player_by_name["Alice"]: 700}


def test_auction_bid_over_uncommitted_cash_is_refused():
    # 800 - 700 committed to BO = 100 left for a bid on CA (minimum 165)
    r = play("""
        auction
        Alice bid BO 700
        Bob pass
        Carol pass
        Alice bid CA 165  # <- refused
        """)
    msg = refusal(r, "auction.cash")
    assert msg == "Alice bids $165 but has only $100 not committed to other bids"


def test_auction_single_bidder_gets_the_private_at_the_bid():
    # Alice bids 55 on CS; when Bob buys SV, CS (now the cheapest) has one bid
    # and goes to Alice for 55 at once.  DH is then the cheapest, and it is
    # Carol's turn (the seat after Bob's purchase).
    r = play("""
        auction
        Alice bid CS 55
        Bob buy SV
        Carol buy DH
        """)
    g = clean(r)
    assert g.companies["CS"].owner.name == "Alice"
    assert g.companies["DH"].owner.name == "Carol"
    # 800 - 55, 800 - 20, 800 - 70; bank 9600 + 145
    assert cash(g) == {"Alice": 745, "Bob": 780, "Carol": 730}
    assert g.bank.cash == 9745
    assert g.round.current_player().name == "Alice"


def test_auction_two_bidders_raise_lowest_bidder_first():
    # CS has bids of 45 (Alice) and 50 (Bob).  Carol buys SV, so CS is auctioned
    # between its bidders: the lowest bidder, Alice, raises first (55), Bob
    # raises (60), Alice passes: Bob pays 60.  The turn then goes on from the
    # seat after Carol's purchase: Alice buys DH.
    r = play("""
        auction
        Alice bid CS 45
        Bob bid CS 50
        Carol buy SV
        Alice bid CS 55
        Bob bid CS 60
        Alice pass
        Alice buy DH
        """)
    g = clean(r)
    assert g.companies["CS"].owner.name == "Bob"
    # Alice 800 - 70 (her bids on CS are released), Bob 800 - 60, Carol 800 - 20
    assert cash(g) == {"Alice": 730, "Bob": 740, "Carol": 780}
    assert g.bank.cash == 9600 + 20 + 60 + 70


def test_auction_higher_bidder_may_not_raise_first():
    r = play("""
        auction
        Alice bid CS 45
        Bob bid CS 50
        Carol buy SV
        Bob bid CS 60  # <- refused
        """)
    msg = refusal(r, "turn.order")
    assert msg == ("Bob acted out of turn: it is Alice (bidding for CS)'s turn "
                   "in the auction")


def test_auction_sv_price_drops_5_when_everybody_passes():
    r = play("""
        auction
        Alice pass
        Bob pass
        Carol pass
        Alice buy SV
        """)
    g = clean(r)
    assert g.companies["SV"].price == 15
    assert cash(g)["Alice"] == 785
    assert g.bank.cash == 9615


def test_auction_sv_is_given_away_after_four_rounds_of_passes():
    # 20 -> 15 -> 10 -> 5 -> 0: at 0 the player after the last passer (Alice)
    # must take SV for nothing, and Bob is next.
    r = play("auction\n" + "Alice pass\nBob pass\nCarol pass\n" * 4 + "Bob buy CS\n")
    g = clean(r)
    assert g.companies["SV"].owner.name == "Alice"
    assert cash(g) == {"Alice": 800, "Bob": 760, "Carol": 800}


def test_auction_all_pass_after_sv_is_sold_pays_private_income():
    # SV and CS sold; when all three pass in a row, SV pays Alice 5 and CS
    # pays Bob 10, and the auction goes on with Carol.
    r = play("""
        auction
        Alice buy SV
        Bob buy CS
        Carol pass
        Alice pass
        Bob pass
        check Alice cash 785
        check Bob cash 770
        Carol buy DH
        """)
    g = clean(r)
    assert cash(g) == {"Alice": 785, "Bob": 770, "Carol": 730}
    # 9600 + 20 + 40 - 15 + 70
    assert g.bank.cash == 9715
    assert g.companies["SV"].price == 20


# ---------------------------------------------------------------------------
# BO and CA

def test_bo_gives_the_b_and_o_presidency_and_its_par_comes_next():
    r = play(AUCTION)
    g = clean(r)
    bo = g.corporations["B&O"]
    carol = g.player_by_name["Carol"]
    assert bo.president is carol and bo.certs[0].owner is carol
    assert holdings(g, "B&O") == {"Carol": 20, "ipo": 80}
    assert price(g, "B&O") == 67
    # the certificate is free and B&O does not float at 20%
    assert cash(g) == {"Alice": 670, "Bob": 600, "Carol": 510}
    assert bo.cash == 0 and not bo.floated
    assert g.bank.cash == 10220


def test_bo_par_must_be_the_next_action():
    r = play(AUCTION.replace("Carol par B&O 67", "Alice par PRR 100  # <- refused"))
    msg = refusal(r, "stock.par_required")
    assert msg == ("Carol must first set the par price of B&O "
                   "(they hold its president's certificate)")
    assert r.game.corporations["PRR"].par is None


def test_ca_gives_a_prr_share_worth_nothing_until_prr_is_parred():
    r = play(AUCTION)
    g = clean(r)
    bob = g.player_by_name["Bob"]
    assert holdings(g, "PRR") == {"Bob": 10, "ipo": 90}
    # 600 cash + CS 40 + CA 160; the PRR share counts $0 but is a certificate
    assert g.net_worth(bob) == 800
    assert g.num_certs(bob) == 3
    r = play(AUCTION, "SR 1\nAlice par PRR 100\n")
    g = clean(r)
    # now the share is worth the PRR price, 100
    assert g.net_worth(g.player_by_name["Bob"]) == 900


# ---------------------------------------------------------------------------
# stock round 1

def test_par_only_at_a_par_value():
    r = play(AUCTION, "SR 1\nAlice par PRR 75  # <- refused\n")
    msg = refusal(r, "stock.par_price")
    assert msg == "$75 is not a par value; par values are $100, $90, $82, $76, $71, $67"


def test_bo_par_only_at_a_par_value():
    r = play(AUCTION.replace("B&O 67", "B&O 80  # <- refused"))
    msg = refusal(r, "stock.par_price")
    assert "$80 is not a par value" in msg
    assert msg.endswith("100, 90, 82, 76, 71, 67")


def test_ipo_money_goes_to_the_bank_and_the_treasury_gets_ten_times_par_at_60_percent():
    # The checkpoints are the hand computation of SR1 above: no money reaches
    # PRR until 60% is sold, then 10 x 100 from the bank.
    r = play(AUCTION, """
        SR 1
        Alice par PRR 100
        Bob buy PRR
        Carol pass
        Alice buy PRR
        check PRR treasury 0
        check Alice cash 370
        check Bob cash 500
        Bob buy PRR
        check PRR treasury 1000
        check Bob cash 400
        """)
    g = clean(r)
    assert g.corporations["PRR"].floated
    assert holdings(g, "PRR") == {"Alice": 30, "Bob": 30, "ipo": 40}
    # 10220 + 200 + 3 x 100 - 1000
    assert g.bank.cash == 9720
