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


def test_presidency_changes_on_a_buy_and_a_tie_keeps_the_president():
    # Bob has 10% from CA.  Alice par (20%); Bob buys (20%): a tie, Alice stays
    # president.  Bob buys again (30%): he takes the 20% president's
    # certificate and gives Alice two 10% shares for it.
    r = play(AUCTION, """
        SR 1
        Alice par PRR 100
        Bob buy PRR
        check PRR president Alice
        Carol pass
        Alice pass
        Bob buy PRR
        check PRR president Bob
        """)
    g = clean(r)
    prr = g.corporations["PRR"]
    bob, alice = g.player_by_name["Bob"], g.player_by_name["Alice"]
    assert prr.president is bob and prr.certs[0].owner is bob
    assert sorted(c.percent for c in prr.certs_of(alice)) == [10, 10]
    assert holdings(g, "PRR") == {"Alice": 20, "Bob": 30, "ipo": 50}
    # Alice 670 - 200, Bob 600 - 2 x 100
    assert cash(g) == {"Alice": 470, "Bob": 400, "Carol": 510}


def test_no_sale_in_the_first_stock_round():
    # Bob's 10% from CA can be sold once PRR has a price, but not in SR 1
    r = play(AUCTION, """
        SR 1
        Alice par PRR 100
        Bob sell PRR  # <- refused
        """)
    msg = refusal(r, "stock.sell_first_round")
    assert msg == "no shares may be sold in the first stock round"
    assert holdings(r.game, "PRR") == {"Alice": 20, "Bob": 10, "ipo": 70}


def test_or_1_zero_revenue_moves_prr_left():
    r = play(AUCTION, SR1, OR1, "SR 2\n")
    g = clean(r)
    assert price(g, "PRR") == 90
    prr = g.corporations["PRR"]
    assert prr.cash == 920 and [t.name for t in prr.trains] == ["2"]
    assert cash(g) == {"Alice": 295, "Bob": 435, "Carol": 555}
    # 10220 + 200 + 4 x 100 - 1000 (SR 1), - 105 income + 80 train (OR 1.1)
    assert g.bank.cash == 9795


def test_priority_after_a_stock_round_goes_to_the_player_after_the_last_to_act():
    # Alice acted last in SR 1 (her third PRR share), so Bob starts SR 2.
    r = play(AUCTION, SR1, OR1, "SR 2\nAlice buy PRR  # <- refused\n")
    msg = refusal(r, "turn.order")
    assert msg == "Alice acted out of turn: it is Bob's turn in SR 2"
    # and after SR 2, where Carol acts last, Alice has it
    r = play(AUCTION, SR1, OR1, """
        SR 2
        Bob pass
        Carol buy PRR
        Alice pass
        Bob pass
        Carol pass
        """)
    g = clean(r)
    assert g.round.label == "OR 2.1"
    assert g.priority.name == "Alice"


def test_pool_share_is_bought_at_the_market_price():
    # Bob sells one PRR share at 90 (435 + 90 = 525) and the price drops a row
    # to 82; Carol buys it from the pool at 82 (555 - 82 = 473).  The money goes
    # to the bank, not to PRR.
    r = play(AUCTION, SR1, OR1, """
        SR 2
        Bob sell PRR
        Bob pass
        Carol buy PRR pool
        """)
    g = clean(r)
    assert cash(g) == {"Alice": 295, "Bob": 525, "Carol": 473}
    assert price(g, "PRR") == 82
    assert g.corporations["PRR"].cash == 920
    assert holdings(g, "PRR") == {"Alice": 40, "Bob": 20, "Carol": 10, "ipo": 30}
    assert g.bank.cash == 9795 - 90 + 82


def test_price_drops_one_row_per_share_sold():
    # 90 (row 0, column 5) -> 82 (row 1) -> 76 (row 2); Bob is paid 2 x 90
    r = play(AUCTION, SR1, OR1, "SR 2\nBob sell 2 PRR\ncheck PRR price 76\ncheck Bob cash 615\n")
    g = clean(r)
    assert holdings(g, "PRR") == {"Alice": 40, "Bob": 10, "ipo": 30, "pool": 20}


def test_sale_hands_the_presidency_over():
    # Alice (40%: president's certificate + 2 shares) sells 30% with Bob at 30%:
    # Bob takes the president's certificate, Alice keeps 10%, the pool gets 30%.
    # Alice is paid 3 x 90 = 270 (295 -> 565); 90 -> 82 -> 76 -> 71.
    r = play(AUCTION, SR1, OR1, "SR 2\nBob pass\nCarol pass\nAlice sell 3 PRR\n")
    g = clean(r)
    prr = g.corporations["PRR"]
    assert prr.president.name == "Bob" and prr.certs[0].owner.name == "Bob"
    assert holdings(g, "PRR") == {"Alice": 10, "Bob": 30, "ipo": 30, "pool": 30}
    assert cash(g)["Alice"] == 565
    assert price(g, "PRR") == 71


def test_sale_of_two_shares_swaps_the_certificate_for_two_shares():
    # Alice sells 20% and keeps 20%, Bob (30%) becomes president: he hands
    # Alice two 10% shares for the 20% certificate.
    r = play(AUCTION, SR1, OR1, "SR 2\nBob pass\nCarol pass\nAlice sell 2 PRR\n")
    g = clean(r)
    prr = g.corporations["PRR"]
    alice = g.player_by_name["Alice"]
    assert prr.president.name == "Bob"
    assert sorted(c.percent for c in prr.certs_of(alice)) == [10, 10]
    assert holdings(g, "PRR") == {"Alice": 20, "Bob": 30, "ipo": 30, "pool": 20}
    assert cash(g)["Alice"] == 295 + 180
    assert price(g, "PRR") == 76


def test_president_cannot_sell_when_nobody_can_take_the_certificate():
    # Bob sells down to 10% (pool 20%); nobody else has 20%, so Alice (40%)
    # may sell her two ordinary shares but not a third.
    r = play(AUCTION, SR1, OR1, """
        SR 2
        Bob sell 2 PRR
        Bob pass
        Carol pass
        Alice sell 3 PRR  # <- refused
        """)
    msg = refusal(r, "stock.president_cert")
    assert msg == ("Alice is president of PRR with 40%; selling 30% would leave 10% and no "
                   "other player holds 20% to take the president's certificate")


def test_rebuy_after_selling_is_refused():
    r = play(AUCTION, SR1, OR1, "SR 2\nBob sell PRR\nBob buy PRR  # <- refused\n")
    msg = refusal(r, "stock.rebuy")
    assert msg == "Bob sold PRR this round and may not buy it again in SR 2"


def test_rebuy_in_a_later_turn_of_the_same_round_is_refused():
    r = play(AUCTION, SR1, OR1, """
        SR 2
        Bob sell PRR
        Bob pass
        Carol pass
        Alice pass
        Bob buy PRR pool  # <- refused
        """)
    msg = refusal(r, "stock.rebuy")
    assert msg == "Bob sold PRR this round and may not buy it again in SR 2"


# B&O sold out in SR 1 (Carol 60%, Alice 20%, Bob 20%), par 67 (row 5, column 6).
#   Alice 670 - 2 x 67 = 536, Bob 600 - 134 = 466, Carol 510 - 4 x 67 = 242
#   B&O floats at Alice's second share (Carol 30 + Alice 20 + Bob 10 = 60%): 670
#   at the end of SR 1 all 100% is held by players: up a row to 71 (row 4, col 6)
#   Carol acted last: Alice has the priority in SR 2
BO_SR1 = """
SR 1
Alice buy B&O
Bob buy B&O
Carol buy B&O
Alice buy B&O
Bob buy B&O
Carol buy B&O
Alice pass
Bob pass
Carol buy B&O
Alice pass
Bob pass
Carol buy B&O
Alice pass
Bob pass
Carol pass
"""


def test_holding_limit_of_60_percent():
    # Carol (20% from BO) buys four B&O shares, 60%; the fifth is refused
    r = play(AUCTION, """
        SR 1
        Alice pass
        Bob pass
        Carol buy B&O
        Alice pass
        Bob pass
        Carol buy B&O
        Alice pass
        Bob pass
        Carol buy B&O
        Alice pass
        Bob pass
        Carol buy B&O
        Alice pass
        Bob pass
        Carol buy B&O  # <- refused
        """)
    msg = refusal(r, "stock.holding_limit")
    assert msg == "Carol holds 60% of B&O; buying 10% more would exceed the 60% limit"


def test_sold_out_corporation_rises_a_row_at_the_end_of_the_stock_round():
    r = play(AUCTION, BO_SR1)
    g = clean(r)
    assert g.round.label == "OR 1.1"
    assert holdings(g, "B&O") == {"Alice": 20, "Bob": 20, "Carol": 60}
    assert price(g, "B&O") == 71
    assert g.corporations["B&O"].cash == 670
    # OR 1.1 has begun and the privates have paid: 536 + 25, 466 + 35, 242 + 45
    assert cash(g) == {"Alice": 561, "Bob": 501, "Carol": 287}
    assert g.priority.name == "Alice"


def test_shares_not_sold_out_do_not_rise():
    # PRR keeps 30% in the IPO through SR 1: it stays at its par 100
    r = play(AUCTION, SR1)
    g = clean(r)
    assert g.round.label == "OR 1.1"
    assert price(g, "PRR") == 100


# From the sold-out B&O at 71: OR 1.1 no revenue, left to 67 (row 4, col 5).
# SR 2: Alice sells 2 (67 -> 65 -> 63; 561 + 134 = 695), Bob sells 2 at 63
# (-> 60 yellow -> 50 yellow, row 8; 501 + 126 = 627).  The 60% limit still
# holds in yellow.
BO_SR2 = """
OR 1.1
B&O pass

SR 2
Alice sell 2 B&O
Alice pass
Bob sell 2 B&O
Bob pass
"""


def test_holding_limit_still_applies_in_the_yellow_zone():
    r = play(AUCTION, BO_SR1, BO_SR2, "Carol buy B&O pool  # <- refused\n")
    msg = refusal(r, "stock.holding_limit")
    assert msg == "Carol holds 60% of B&O; buying 10% more would exceed the 60% limit"
    g = r.game
    assert price(g, "B&O") == 50
    assert cash(g) == {"Alice": 695, "Bob": 627, "Carol": 287}
    assert holdings(g, "B&O") == {"Carol": 60, "pool": 40}


def test_no_holding_limit_in_orange_and_several_shares_at_once_in_brown():
    # OR 2.1: left from 50 (row 8, col 5) to 40, orange.  SR 3 (Carol has the
    # priority: Bob acted last): Carol buys a pool share at 40 and holds 70%.
    # OR 3.1: left to 30, brown.  SR 4 (Alice first): Carol buys 2 pool shares
    # at once and holds 90%.  Her cash: 287 + 45 (OR 2.1) - 40 + 45 (OR 3.1)
    # - 2 x 30 = 277.  Shares in these zones do
    # not count towards the certificate limit.
    r = play(AUCTION, BO_SR1, BO_SR2, """
        Carol pass
        Alice pass
        Bob pass

        OR 2.1
        B&O pass

        SR 3
        check B&O price 40
        Carol buy B&O pool
        Carol pass
        Alice pass
        Bob pass
        Carol pass

        OR 3.1
        B&O pass

        SR 4
        check B&O price 30
        Alice pass
        Bob pass
        Carol buy 2 B&O pool
        """)
    g = clean(r)
    assert holdings(g, "B&O") == {"Carol": 90, "pool": 10}
    assert cash(g)["Carol"] == 277
    carol = g.player_by_name["Carol"]
    # DH and BO count; the brown B&O shares do not
    assert g.num_certs(carol) == 2
