"""One or more tests per rule of 1830, each a short game in the railcheck
notation (or a prefix of the bundled complete game / a real export for
positions late in the game), replayed with ``Replay`` and checked against
numbers worked out by hand in the comments.

Conventions of the hand-written games: three players, Alice, Bob and Carol
(seats in that order), $800 each from a $12,000 bank, so the bank holds
$9,600 after the deal.  An illegal action carries the comment ``# <- refused``
and the tests check that it, and only it, is flagged: its line, its rule and
the numbers in the message.  Market cells are written (row, column), both
counted from 0 at the top left of railcheck/titles/g1830/rules.yaml's market.
"""

from __future__ import annotations

import functools
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

from railcheck.engine import Replay
from railcheck.importer import import_export
from railcheck.loader import load_game

HERE = Path(__file__).resolve().parents[1]     # tests/
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
#   Bob buy PRR          Bob 600 - 100 = 500    (20% with CA's share; a tie)
#   Carol pass
#   Alice buy PRR        Alice 370  (30%)
#   Bob buy PRR          Bob 400    (30%): 60% sold, PRR floats with 10 x 100
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


def play(*parts: str, before_action=None, ruleset=None, **kw):
    """Replay the game made of the header and ``parts`` (each dedented),
    under the ruleset file ``ruleset`` when given (a ``ruleset:`` header);
    ``before_action(game, action)`` is called before each action."""
    text = HEADER + (f"ruleset: {ruleset}\n" if ruleset else "") + \
        "".join(textwrap.dedent(p) for p in parts)
    record, read = load_game("rules.18xx", text)
    assert read == []
    replay = Replay(record, **kw)
    replay.before_action = before_action
    result = replay.run()
    result.text = text
    return result


def marked_line(text: str) -> int:
    lines = [i for i, line in enumerate(text.splitlines(), 1)
             if "<- refused" in line or "<- flagged" in line]
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


def test_priority_after_the_auction():
    # the last direct purchase was Carol's BO: Alice starts SR 1
    g = clean(play(AUCTION))
    assert g.round.label == "SR 1" and g.priority.name == "Alice"
    # Carol's bid on BO is settled when Bob's purchase of CA makes BO the
    # cheapest: the seat pointer is where Bob's purchase left it, so Carol
    # (the seat after Bob) has the priority, although she took the last private.
    r = play("""
        auction
        Alice buy SV
        Bob buy CS
        Carol bid BO 225
        Alice buy DH
        Bob buy MH
        Carol pass
        Alice pass
        Bob buy CA
        Carol par B&O 67
        """)
    g = clean(r)
    assert g.companies["BO"].owner.name == "Carol"
    # Alice 800 - 20 - 70, Bob 800 - 40 - 110 - 160, Carol 800 - 225
    assert cash(g) == {"Alice": 710, "Bob": 490, "Carol": 575}
    assert g.round.label == "SR 1" and g.priority.name == "Carol"


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
# stock rounds

def test_par_only_at_a_par_value():
    r = play(AUCTION, "SR 1\nAlice par PRR 75  # <- flagged\n")
    msg = refusal(r, "stock.par_price")
    assert msg == ("$75 is not a par value; par values are $100, $90, $82, $76, $71, $67; "
                   "taken as a par of $76, the nearest")
    # the record says PRR was started: at $76, Alice paying 2 x 76
    g = r.game
    assert g.corporations["PRR"].par.price == 76
    assert g.corporations["PRR"].president is g.player_by_name["Alice"]


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


def test_sale_to_a_tie_keeps_the_president():
    # Alice sells one share: 30% each, Alice stays president (90 -> 82)
    r = play(AUCTION, SR1, OR1, "SR 2\nBob pass\nCarol pass\nAlice sell PRR\n")
    g = clean(r)
    assert g.corporations["PRR"].president.name == "Alice"
    assert holdings(g, "PRR") == {"Alice": 30, "Bob": 30, "ipo": 30, "pool": 10}
    assert (cash(g)["Alice"], price(g, "PRR")) == (295 + 90, 82)


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
        Carol buy B&O  # <- flagged
        """)
    msg = refusal(r, "stock.holding_limit")
    assert msg == ("Carol holds 60% of B&O; buying 10% more would exceed the 60% limit; "
                   "taken as bought, as the record says")
    # the record says she bought it: the replay goes on with Carol at 70%
    assert r.game.corporations["B&O"].percent_of(r.game.player_by_name["Carol"]) == 70


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


def test_ca_share_cannot_be_sold_before_prr_is_parred():
    r = play(AUCTION, BO_SR1, "OR 1.1\nB&O pass\nSR 2\nAlice pass\nBob sell PRR  # <- refused\n")
    msg = refusal(r, "stock.sell_not_parred")
    assert msg == "PRR has no share price yet; its shares cannot be sold"


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


# The rest of SR 2, then B&O into orange and brown.  OR 2.1: left from 50
# (row 8, col 5) to 40, orange.  SR 3 (Carol has the priority: Bob acted
# last): Carol buys a pool share at 40 and holds 70%.
BO_SR3 = """
Carol pass
Alice pass
Bob pass

OR 2.1
B&O pass

SR 3
check B&O price 40
Carol buy B&O pool
"""

# OR 3.1: left to 30, brown.  SR 4 (Alice first), up to Carol's turn.
BO_TO_SR4 = """
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
"""


def test_holding_limit_still_applies_in_the_yellow_zone():
    r = play(AUCTION, BO_SR1, BO_SR2, "Carol buy B&O pool  # <- flagged\n")
    msg = refusal(r, "stock.holding_limit")
    assert msg == ("Carol holds 60% of B&O; buying 10% more would exceed the 60% limit; "
                   "taken as bought, as the record says")
    g = r.game
    assert price(g, "B&O") == 50
    # taken as bought from the pool at 50
    assert cash(g) == {"Alice": 695, "Bob": 627, "Carol": 237}
    assert holdings(g, "B&O") == {"Carol": 70, "pool": 30}


def test_no_holding_limit_in_orange_and_several_shares_at_once_in_brown():
    # (BO_SR3: Carol holds 70% in orange.)  SR 4: Carol buys 2 pool shares
    # at once and holds 90%.  Her cash: 287 + 45 (OR 2.1) - 40 + 45 (OR 3.1)
    # - 2 x 30 = 277.  Shares in these zones do
    # not count towards the certificate limit.
    r = play(AUCTION, BO_SR1, BO_SR2, BO_SR3, BO_TO_SR4, "Carol buy 2 B&O pool\n")
    g = clean(r)
    assert holdings(g, "B&O") == {"Carol": 90, "pool": 10}
    assert cash(g)["Carol"] == 277
    carol = g.player_by_name["Carol"]
    # DH and BO count; the brown B&O shares do not
    assert g.num_certs(carol) == 2


def test_buy_one_certificate_holds_in_brown_too(tmp_path):
    """The same game under a house rule with one certificate a turn in every zone
    (``stock.buy_one_certificate``, 1860's rule): Carol's two B&O shares at once in
    the brown zone are refused."""
    house = tmp_path / "one-certificate.yaml"
    house.write_text('extends: "1830"\nstock: {buy_one_certificate: true}\n')
    r = play(AUCTION, BO_SR1, BO_SR2, BO_SR3, BO_TO_SR4, "Carol buy 2 B&O pool  # <- refused\n",
             ruleset=house)
    assert refusal(r, "stock.one_buy") == "only one certificate may be bought per turn, in every zone"


def test_brown_zone_shares_bought_before_and_after_a_sale_in_one_turn():
    # Sell-buy-sell: 1830 sets no order between a turn's sales and its
    # purchase, and in the brown zone the one purchase may be several shares
    # of the one corporation from the pool, a sale between them or not (as
    # 18xx.games plays it).  railcheck had said "stock.sell_buy_order: sold
    # after buying; no more buying this turn".
    # SR 3 (Carol first): Carol buys a pool B&O at 40; Alice pars PRR at 67
    # (720 - 134 = 586) and later buys a second PRR (519; Bob has CA's 10%);
    # PRR, 40% sold, does not float.  OR 3.1: B&O left to 30 (brown); Alice
    # 519 + 25 = 544.  SR 4 (Bob first: Alice acted last): Alice buys a pool
    # B&O at 30 (514), sells her 10% of PRR at 67 (581; PRR one row down, to
    # the 67 of row 6) and buys another pool B&O at 30 (551).
    r = play(AUCTION, BO_SR1, BO_SR2, BO_SR3, """
        Carol pass
        Alice par PRR 67
        Bob pass
        Carol pass
        Alice buy PRR
        Alice pass
        Bob pass
        Carol pass
        Alice pass

        OR 3.1
        B&O pass

        SR 4
        check B&O price 30
        Bob pass
        Carol pass
        Alice buy B&O pool
        Alice sell PRR
        Alice buy B&O pool
        Alice pass
        """)
    g = clean(r)
    assert cash(g)["Alice"] == 551
    assert holdings(g, "B&O") == {"Alice": 20, "Carol": 70, "pool": 10}
    assert holdings(g, "PRR") == {"Alice": 20, "Bob": 10, "ipo": 60, "pool": 10}
    assert (g.corporations["PRR"].price.row, g.corporations["PRR"].price.col) == (6, 6)


def test_mh_exchanged_before_nyc_is_started_makes_no_president():
    # SR 1: Alice exchanges MH for a 10% NYC share from the IPO before anyone
    # pars NYC; she holds 10% of a company nobody started, not its president's
    # certificate (railcheck had handed it to her, and counted it against her
    # certificate limit: fresh game 31000030_0 #398, "stock.cert_limit").  Her
    # certificates: SV and the NYC share (MH is closed).  Bob then pars NYC at
    # 67 (600 - 134 = 466) and is its president.
    r = play(AUCTION, """
        SR 1
        MH exchange NYC
        Alice pass
        """)
    g = clean(r)
    assert holdings(g, "NYC") == {"Alice": 10, "ipo": 90}
    assert g.corporations["NYC"].president is None
    assert g.num_certs(g.player_by_name["Alice"]) == 2
    r = play(AUCTION, """
        SR 1
        MH exchange NYC
        Alice pass
        Bob par NYC 67
        """)
    g = clean(r)
    assert holdings(g, "NYC") == {"Alice": 10, "Bob": 20, "ipo": 70}
    assert g.corporations["NYC"].president.name == "Bob"
    assert cash(g)["Bob"] == 466


# B&O with a share left in the IPO: Carol (20% from BO) buys 3, not 4, in SR 1
# (510 - 201 = 309; 80% sold: it floats, not sold out, stays at 67, row 5
# column 6).  OR 1.1: left to 65.  SR 2: Alice and Bob sell 2 each, four rows
# down to 40 (orange, row 9).  OR 2.1: left to 30 (brown).  Carol 309 + 45 +
# 45 = 399; B&O: Carol 50%, IPO 10%, pool 40%.  SR 3 begins with Carol.
BO_BROWN_WITH_IPO = """
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
Carol pass

OR 1.1
B&O pass

SR 2
Alice sell 2 B&O
Alice pass
Bob sell 2 B&O
Bob pass
Carol pass
Alice pass
Bob pass

OR 2.1
B&O pass

SR 3
check B&O price 30
"""


def test_brown_zone_shares_at_once_from_the_pool_only():
    # The General 23/6 (Avalon Hill's clarifications): several brown-zone
    # shares are bought from the bank pool, not from the IPO, and not from
    # both in one turn (18xx.games: the same, unless multiple_brown_from_ipo).
    r = play(AUCTION, BO_BROWN_WITH_IPO, """
        Carol buy B&O pool
        Carol buy B&O pool
        """)
    g = clean(r)
    assert cash(g)["Carol"] == 399 - 30 - 30
    assert holdings(g, "B&O") == {"Carol": 70, "ipo": 10, "pool": 20}
    # a share from the IPO (at par, 67), then one from the pool: refused
    r = play(AUCTION, BO_BROWN_WITH_IPO, """
        Carol buy B&O ipo
        Carol buy B&O pool  # <- refused
        """)
    msg = refusal(r, "stock.one_buy")
    assert msg == ("Carol already bought a share (B&O) this turn from the IPO; more B&O shares "
                   "in the same turn (price $30) may be bought from the pool only, not after "
                   "or with shares from the IPO")
    assert cash(r.game)["Carol"] == 399 - 67
    assert holdings(r.game, "B&O") == {"Carol": 60, "pool": 40}
    # one from the pool, then the IPO's: refused
    r = play(AUCTION, BO_BROWN_WITH_IPO, """
        Carol buy B&O pool
        Carol buy B&O ipo  # <- refused
        """)
    msg = refusal(r, "stock.one_buy")
    assert msg.startswith("Carol already bought a share (B&O) this turn; more B&O shares")
    assert cash(r.game)["Carol"] == 399 - 30


def test_brown_zone_shares_after_a_private_bought_are_flagged_and_taken():
    # A private bought from a player is the turn's one purchase; 18xx.games
    # still sells brown pool shares after it (fresh game 31000159_0 #263-264:
    # DH, then a NYC share at 10).  Carol (399) buys SV from Alice for 10 and
    # then a pool B&O at 30: flagged, and bought as the record says (359).
    r = play(AUCTION, BO_BROWN_WITH_IPO, """
        Carol buy private SV from Alice for 10
        Carol buy B&O pool  # <- flagged
        """)
    msg = refusal(r, "stock.buy_after_private")
    assert msg == ("Carol already bought the private SV this turn, the turn's one purchase; "
                   "several B&O shares in the brown zone (price $30) are a purchase of their "
                   "own, not a second one after a private; 18xx.games allows it; taken as "
                   "bought, as the record says")
    assert cash(r.game)["Carol"] == 399 - 10 - 30
    assert holdings(r.game, "B&O") == {"Carol": 60, "ipo": 10, "pool": 30}
    # a share that is not in the brown zone after a private: refused, as before
    # (18xx.games refuses it too): test_a_private_bought_from_a_player_is_the_turns_purchase


# ---------------------------------------------------------------------------
# operating rounds: a game with three companies and the first trains of each
# type, on the real board.
#
# SR 1 (Alice has the priority after the auction):
#   PRR  par 100 by Alice, who buys 3 more: 670 - 200 - 300 = 170; with Bob's
#        10% from CA 60% is sold and PRR floats with 1000
#   NYC  par 67 by Bob, who buys 4 more: 600 - 134 - 268 = 198; floats with 670
#   B&O  Carol (20% from BO) buys 4: 510 - 268 = 242; floats with 670
#   bank 10220 + 500 + 402 + 268 - 2340 = 9050.  Bob acted last: Carol has the
#   priority in SR 2.
TR_SR1 = """
SR 1
Alice par PRR 100
Bob par NYC 67
Carol buy B&O
Alice buy PRR
Bob buy NYC
Carol buy B&O
Alice buy PRR
Bob buy NYC
Carol buy B&O
Alice buy PRR
Bob buy NYC
Carol buy B&O
Alice pass
Bob buy NYC
Carol pass
Alice pass
Bob pass
"""

# OR 1.1 (phase 2, one OR).  Order: PRR (100), then B&O and NYC, both at 67 on
# the same cell, B&O first because it arrived there first (parred in the
# auction).  Income: Alice 170 + 25 = 195, Bob 198 + 35 = 233, Carol 242 + 45
# = 287.
#   PRR: no track, no route, no revenue: 100 -> 90 (left)
#   B&O: 57 on J14 (water, 80) and a station there (its second, 40):
#        670 - 120 = 550; three 2-trains: 550 - 240 = 310 (the first closes BO);
#        no revenue: 67 -> 65
#   NYC: three 2-trains (the last of the six) and the first 3-train:
#        670 - 240 - 180 = 250, phase 3; no revenue: 67 -> 65 (after B&O)
TR_OR11 = """
OR 1.1
PRR pass
B&O lay 57 J14 r0
B&O token J14
B&O buy train 2
B&O buy train 2
B&O buy train 2
NYC buy train 2
NYC buy train 2
NYC buy train 2
NYC buy train 3
"""

# SR 2: Carol sells a B&O share at 65 (287 + 65 = 352; 65 -> 63, row 6).
# Carol acted last: Alice has the priority in SR 3.
TR_SR2 = """
SR 2
Carol sell B&O
Carol pass
Alice pass
Bob pass
Carol pass
"""

# OR 2.1 (phase 3: two ORs in this set).  Order: PRR 90, NYC 65, B&O 63.
# Income: Alice 195 + 25 = 220, Bob 233 + 35 = 268, Carol 352 + 15 (DH; BO
# is closed) = 367.
#   PRR: three 3-trains, 1000 - 540 = 460; buys SV from Alice for 40 (phases 3
#        and 4, $10 to $40): PRR 420, Alice 260; no route: 90 -> 82
#   NYC: no route; 65 -> 58 (left)
#   B&O: green 14 on J14 (water already paid: $0), runs I15 (30) - J14 (30) = 60
#        and pays 6 a share: Carol (50%) 30 -> 397, the pool's 10% pays 6 to B&O,
#        the IPO's 40% pays nobody; 63 -> 67 (right); buys the last 3-train:
#        310 + 6 - 180 = 136
TR_OR21 = """
OR 2.1
PRR buy train 3
PRR buy train 3
PRR buy train 3
PRR buy private SV for 40
NYC pass
B&O lay 14 J14 r2
B&O run 2 I15-J14
B&O payout
B&O buy train 3
"""

# OR 2.2.  Order: PRR 82, B&O 67, NYC 58.  Income: Alice 260 + 20 (MH) = 280,
# PRR 420 + 5 (SV) = 425, Bob 268 + 35 = 303, Carol 397 + 15 = 412.
#   PRR: the first 4-train, 425 - 300 = 125: phase 4, every 2-train rusts, the
#        train limit drops to 3 and PRR (3, 3, 3, 4) discards a 3 to the pool;
#        no route: 82 -> 76
#   B&O: (3) runs 60 again: Carol 412 + 30 = 442, B&O 136 + 6 = 142, 67 -> 69
#   NYC: (3) buys a 3-train from PRR for $1: NYC 249, PRR 126; 58 -> 50
TR_OR22 = """
OR 2.2
PRR buy train 4
PRR discard 3
B&O run 3 I15-J14
B&O payout
NYC buy train 3 from PRR for 1
"""

TRAINS = (AUCTION, TR_SR1, TR_OR11, TR_SR2, TR_OR21, TR_OR22)


def trains(g, sym: str) -> list:
    return sorted(t.name for t in g.corporations[sym].trains)


def test_operating_order_by_price_then_arrival_on_the_cell():
    g = clean(play(AUCTION, TR_SR1))
    assert g.round.label == "OR 1.1"
    assert [c.sym for c in g.round.order] == ["PRR", "B&O", "NYC"]
    assert (price(g, "PRR"), price(g, "B&O"), price(g, "NYC")) == (100, 67, 67)
    # bank: see TR_SR1, less the income of OR 1.1 (25 + 35 + 45)
    assert g.bank.cash == 9050 - 105
    assert (g.corporations["PRR"].cash, g.corporations["NYC"].cash,
            g.corporations["B&O"].cash) == (1000, 670, 670)


def test_operating_order_same_price_further_right_first():
    # PRR par 71 (row 4, column 6) floats in SR 1 (Alice: par and three
    # shares, 670 - 142 - 213 = 315, with Bob's CA share 60%), earns nothing in
    # OR 1.1 and moves left to 67 (row 4, column 5).  B&O floats at its par 67
    # (row 5, column 6) in SR 2.  Same price: the cell further right operates
    # first, although PRR's is in the upper row and was there first.
    r = play(AUCTION, """
        SR 1
        Alice par PRR 71
        Bob pass
        Carol pass
        Alice buy PRR
        Bob pass
        Carol pass
        Alice buy PRR
        Bob pass
        Carol pass
        Alice buy PRR
        Bob pass
        Carol pass
        Alice pass

        OR 1.1
        PRR pass

        SR 2
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
        Carol pass
        """)
    g = clean(r)
    assert g.round.label == "OR 2.1"
    assert (price(g, "PRR"), price(g, "B&O")) == (67, 67)
    assert [c.sym for c in g.round.order] == ["B&O", "PRR"]
    # Alice 315 + 2 x 25; Carol 510 + 45 - 4 x 67 + 45
    assert (cash(g)["Alice"], cash(g)["Carol"]) == (365, 332)
    assert (g.corporations["PRR"].cash, g.corporations["B&O"].cash) == (710, 670)


def test_operating_out_of_order_is_flagged_once_and_the_record_order_kept():
    # the order is PRR, B&O, NYC; NYC acts before B&O, which acts after it:
    # one finding, at NYC's line, and B&O's own turn is still checked as its turn
    r = play(AUCTION, TR_SR1, """
        OR 1.1
        PRR pass
        NYC pass  # <- flagged
        B&O lay 57 J14 r0
        """)
    msg = refusal(r, "turn.order")
    assert msg == ("NYC operates before B&O in OR 1.1; the rules' order is B&O, NYC; "
                   "taken in the record's order")
    assert [c.sym for c in r.game.round.order] == ["PRR", "NYC", "B&O"]
    assert "J14" in r.game.laid_hexes


def test_an_order_broken_again_in_a_later_round_is_flagged_again():
    # B&O operates first in OR 2.1 (the rules' order PRR 90, NYC 65, B&O 63)
    # and again in OR 2.2 (PRR 82, B&O 67, NYC 58): a breach in each round,
    # each at B&O's first line (once a game before: the second went unsaid)
    r = play(AUCTION, TR_SR1, TR_OR11, TR_SR2, """
        OR 2.1
        B&O lay 14 J14 r2  # <- flagged
        B&O run 2 I15-J14
        B&O payout
        B&O buy train 3
        PRR buy train 3
        PRR buy train 3
        PRR buy train 3
        PRR buy private SV for 40
        NYC pass
        OR 2.2
        B&O run 3 I15-J14  # <- flagged
        B&O payout
        PRR buy train 4
        PRR discard 3
        NYC buy train 3 from PRR for 1
        """)
    assert [(f.line, f.rule, f.message) for f in r.findings if f.severity == "error"] == [
        (52, "turn.order", "B&O operates before PRR, NYC in OR 2.1; the rules' order is PRR, "
                           "NYC, B&O; taken in the record's order"),
        (62, "turn.order", "B&O operates before PRR in OR 2.2; the rules' order is PRR, B&O, "
                           "NYC; taken in the record's order")]


def test_operating_again_in_the_same_round_is_refused():
    r = play(AUCTION, TR_SR1, """
        OR 1.1
        PRR pass
        B&O pass
        NYC pass
        B&O lay 57 J14 r0  # <- refused
        """)
    msg = refusal(r, "turn.order")
    assert msg == "B&O already operated in OR 1.1; it is NYC's turn"


def test_operating_order_is_set_again_each_or():
    # after the dividends of OR 2.1 (see TR_OR21) B&O (67) is ahead of NYC (58)
    g = clean(play(*TRAINS[:5], "OR 2.2\n"))
    assert [c.sym for c in g.round.order] == ["PRR", "B&O", "NYC"]
    g = clean(play(*TRAINS[:4], "OR 2.1\n"))
    assert [c.sym for c in g.round.order] == ["PRR", "NYC", "B&O"]


def test_private_income_is_paid_at_the_start_of_every_or():
    # the checkpoints right after each OR marker (see TR_OR11, TR_OR21, TR_OR22);
    # in OR 2.1 BO (closed) no longer pays, in OR 2.2 SV pays PRR
    r = play(AUCTION, TR_SR1,
             TR_OR11.replace("OR 1.1\n", "OR 1.1\ncheck Alice cash 195\ncheck Bob cash 233\n"
                                         "check Carol cash 287\n"),
             TR_SR2,
             TR_OR21.replace("OR 2.1\n", "OR 2.1\ncheck Alice cash 220\ncheck Bob cash 268\n"
                                         "check Carol cash 367\n"),
             TR_OR22.replace("OR 2.2\n", "OR 2.2\ncheck Alice cash 280\ncheck PRR treasury 425\n"
                                         "check Bob cash 303\ncheck Carol cash 412\n"))
    g = clean(r)
    assert g.round.label == "OR 2.2"


def test_home_station_is_free_then_terrain_and_station_costs():
    # PRR places its home station at the start of its first turn, free.
    # B&O: 670 - 80 (water on J14) = 590, - 40 (second station) = 550
    r = play(AUCTION, TR_SR1, """
        OR 1.1
        check PRR treasury 1000
        PRR pass
        check PRR treasury 1000
        B&O lay 57 J14 r0
        check B&O treasury 590
        B&O token J14
        check B&O treasury 550
        """)
    g = clean(r)
    assert g.corporations["PRR"].tokens_placed == 1
    assert g.corporations["B&O"].tokens_placed == 2
    # the bank: 9050 - 105 income + 80 + 40
    assert g.bank.cash == 9065


def test_no_terrain_cost_when_a_tile_is_upgraded():
    # J14's water was paid by the yellow 57 in OR 1.1; the green 14 costs nothing
    r = play(*TRAINS[:4], """
        OR 2.1
        PRR pass
        NYC pass
        check B&O treasury 310
        B&O lay 14 J14 r2
        check B&O treasury 310
        """)
    clean(r)


def test_bo_closes_when_b_and_o_buys_a_train():
    g = clean(play(AUCTION, TR_SR1, TR_OR11))
    bo = g.companies["BO"]
    assert bo.closed and bo.owner is None
    carol = g.player_by_name["Carol"]
    assert [c.sym for c in carol.companies] == ["DH"]
    # 287 + DH 70 + 60% of B&O at 65
    assert g.net_worth(carol) == 287 + 70 + 6 * 65


def test_first_3_train_starts_phase_3_with_two_ors_per_set():
    g = clean(play(AUCTION, TR_SR1, TR_OR11))
    assert g.phase.name == "3"
    assert trains(g, "NYC") == ["2", "2", "2", "3"] and g.corporations["NYC"].cash == 250
    assert trains(g, "B&O") == ["2", "2", "2"] and g.corporations["B&O"].cash == 310
    # OR 1.1 began in phase 2: its set has one OR, and SR 2 follows; the next
    # set has two
    g = clean(play(*TRAINS[:4]))
    assert g.round.label == "OR 2.1" and g.or_count == 2


def test_zero_revenue_moves_left_and_a_payout_right():
    g = clean(play(AUCTION, TR_SR1, TR_OR11))
    # PRR 100 -> 90 (row 0), B&O and NYC 67 -> 65 (row 5)
    assert (price(g, "PRR"), price(g, "B&O"), price(g, "NYC")) == (90, 65, 65)
    g = clean(play(*TRAINS[:5]))
    # B&O paid out: 63 (row 6, col 5) -> 67 (col 6); NYC earned nothing: 65 -> 58
    assert (price(g, "PRR"), price(g, "B&O"), price(g, "NYC")) == (82, 67, 58)


def test_dividend_pool_shares_pay_the_treasury_and_ipo_shares_nobody():
    # B&O runs 60: 6 a share.  Carol 5 shares -> 30, pool 1 share -> 6 to
    # B&O, IPO 4 shares -> nothing (the bank keeps 24).
    r = play(*TRAINS[:4], """
        OR 2.1
        PRR pass
        NYC pass
        B&O lay 14 J14 r2
        B&O run 2 I15-J14 (60) = 60
        check Carol cash 367
        check B&O treasury 310
        check B&O price 63
        B&O payout
        check Carol cash 397
        check B&O treasury 316
        check B&O price 67
        """)
    g = clean(r)
    assert holdings(g, "B&O") == {"Carol": 50, "ipo": 40, "pool": 10}
    # the bank pays out 30 + 6 and nothing for the IPO's 40%
    unpaid = r.text[:r.text.index("B&O payout")]
    assert g.bank.cash == clean(play(unpaid[len(HEADER):])).bank.cash - 36


def test_withhold_pays_the_treasury_and_moves_left():
    # 60 to B&O (310 -> 370); 63 (row 6, col 5) -> 54 (col 4)
    r = play(*TRAINS[:4], """
        OR 2.1
        PRR pass
        NYC pass
        B&O lay 14 J14 r2
        B&O run 2 I15-J14 (60) = 60
        B&O withhold
        check B&O treasury 370
        check B&O price 54
        check Carol cash 367
        """)
    clean(r)


def test_dividend_per_share_is_rounded_down():
    # 1830's board pays in tens, so this needs a replay without the board,
    # where the claimed 65 is taken as it is: 6 a share (65 // 10), Carol 30,
    # the pool's share 6 to B&O, and the odd 5 stays in the bank.  (Without
    # the board every company "has a route" and must own a train, so PRR's
    # empty OR 1.1 is a finding here; only what follows the run matters.)
    r = play(*TRAINS[:4], """
        OR 2.1
        PRR pass
        NYC pass
        B&O lay 14 J14 r2
        B&O run 2 I15-J14 = 65
        check Carol cash 367
        check B&O treasury 310
        B&O payout
        check Carol cash 397
        check B&O treasury 316
        """, check_board=False)
    run_line = r.text.splitlines().index("B&O run 2 I15-J14 = 65") + 1
    assert [f.message for f in r.findings if f.line >= run_line] == []
    assert price(r.game, "B&O") == 67


def test_company_with_a_route_must_buy_a_train():
    # after 57 on J14 B&O has a route (Baltimore - Washington): no pass at the
    # train step
    r = play(AUCTION, TR_SR1, """
        OR 1.1
        PRR pass
        B&O lay 57 J14 r0
        B&O token J14
        B&O pass  # <- refused
        """)
    msg = refusal(r, "trains.must_own")
    assert msg == ("B&O has no train and must buy one (cheapest: a 2-train for $80; B&O has "
                   "$550); it cannot pass")


def test_company_buys_a_private_in_phase_3_within_half_to_double_face():
    g = clean(play(*TRAINS[:5]))
    sv = g.companies["SV"]
    assert sv.owner is g.corporations["PRR"]
    # PRR 1000 - 540 - 40; Alice 195 + 25 + 40
    assert g.corporations["PRR"].cash == 420
    assert cash(g)["Alice"] == 260
    # and the private pays its new owner in OR 2.2
    g = clean(play(*TRAINS[:5], "OR 2.2\ncheck PRR treasury 425\ncheck Alice cash 280\n"))
    # in phase 4 too: NYC (249) buys MH from Alice (280) at twice its face
    g = clean(play(*TRAINS, "NYC buy private MH for 220\n"))
    assert g.phase.name == "4"
    assert g.companies["MH"].owner is g.corporations["NYC"]
    assert (g.corporations["NYC"].cash, cash(g)["Alice"]) == (29, 500)


@pytest.mark.parametrize("amount", [9, 41])
def test_company_buys_a_private_only_between_half_and_double_face(amount):
    # flagged, and the sale stands at the written price (the money moved as recorded)
    r = play(*TRAINS[:4], TR_OR21.replace("SV for 40", f"SV for {amount}  # <- flagged"))
    msg = refusal(r, "private.price")
    assert msg == f"SV (face $20) may be bought for $10 to $40, not ${amount}; taken as paid"
    assert r.game.companies["SV"].owner is r.game.corporations["PRR"]
    # PRR 1000 - 540 - amount (as in the legal purchase at $40, which leaves $420)
    assert r.game.corporations["PRR"].cash == 460 - amount


def test_company_cannot_buy_a_private_in_phase_2():
    refused = "B&O token J14\nB&O buy private SV for 40  # <- refused"
    r = play(AUCTION, TR_SR1, TR_OR11.replace("B&O token J14", refused))
    msg = refusal(r, "private.buy_phase")
    assert msg == "companies cannot buy privates in phase 2"


def test_train_limit_of_4_in_phase_3():
    r = play(*TRAINS[:5], "B&O buy train 4  # <- refused\n")
    msg = refusal(r, "trains.limit")
    assert "B&O owns 4 trains" in msg and "limit of 4 in phase 3" in msg


def test_first_4_train_rusts_the_2s_and_forces_a_discard_to_the_pool():
    g = clean(play(*TRAINS))
    assert g.phase.name == "4"
    assert all(t.owner is None for t in g.trains if t.name == "2")
    assert trains(g, "B&O") == ["3"]
    # PRR had 3, 3, 3, 4 after its purchase; one 3 went to the pool, one to NYC
    assert trains(g, "PRR") == ["3", "4"]
    assert trains(g, "NYC") == ["3", "3"]
    assert [t.name for t in g.pool_trains()] == ["3"]
    assert g.train_limit(g.corporations["PRR"]) == 3
    # see TR_OR22
    assert (g.corporations["PRR"].cash, g.corporations["B&O"].cash,
            g.corporations["NYC"].cash) == (126, 142, 249)
    assert cash(g) == {"Alice": 280, "Bob": 303, "Carol": 442}
    assert (price(g, "PRR"), price(g, "B&O"), price(g, "NYC")) == (76, 69, 50)


def test_discarded_train_is_sold_by_the_pool_at_face_value():
    # NYC (249) buys the pool's 3-train at 180
    g = clean(play(*TRAINS, "NYC buy train 3 from pool\n"))
    assert g.corporations["NYC"].cash == 69
    assert trains(g, "NYC") == ["3", "3", "3"] and g.pool_trains() == []


def test_company_over_the_limit_after_a_phase_change_must_discard():
    # PRR holds 3, 3, 3 and buys the first 4: phase 4, limit 3.  The record goes
    # on without "PRR discard 3": flagged at the next action, a 3 goes to the pool.
    text_or22 = TR_OR22.replace("PRR discard 3\n", "")
    r = play(*TRAINS[:5], text_or22)
    errors = [f for f in r.findings if f.severity == "error"]
    assert [(f.line, f.rule) for f in errors] == [(64, "trains.discard_required")]
    assert errors[0].message == (
        "PRR holds 4 trains (3, 3, 3, 4), over the limit of 3 in phase 4; it must discard 1 "
        "before play goes on (taken as discarding 3)")
    assert "3" in [t.name for t in r.game.pool_trains()]


def test_train_from_another_company_for_any_price_from_1():
    r = play(*TRAINS[:5], TR_OR22.replace("for 1", "for 0  # <- refused"))
    msg = refusal(r, "trains.price")
    assert msg == "a train between companies costs at least $1"


def test_green_tile_before_phase_3_is_refused():
    r = play(AUCTION, TR_SR1, "OR 1.1\nPRR pass\nB&O lay 14 J14 r2  # <- refused\n")
    msg = refusal(r, "tile.color")
    assert "14" in msg and "green" in msg


def test_round_marker_of_the_wrong_round_is_a_finding():
    # phase 3 from OR 1.1 on: the set after SR 2 has two ORs
    r = play(*TRAINS[:5], "SR 3  # <- refused\n")
    msg = refusal(r, "round.marker")
    assert msg == ("the record says 'SR 3' here, but the rules make this OR 2.2 "
                   "(phase 3: 2 ORs per set)")


def test_round_marker_before_the_auction_is_over_is_a_finding():
    r = play("auction\nAlice buy SV\nSR 1  # <- refused\n")
    msg = refusal(r, "round.marker")
    assert msg == "'SR 1' but the auction is not over (CS, DH, MH, CA, BO unsold)"


def test_checkpoints_agree_or_are_findings():
    r = play(*TRAINS, """
        check Alice cash 280
        check PRR treasury 126
        check B&O price 69
        check NYC trains 3,3
        check PRR president Alice
        check Carol worth 857
        check Carol cash 441  # <- refused
        """)
    msg = refusal(r, "checkpoint.mismatch")
    assert msg == "Carol has $442, the record says $441"
    # Carol's worth: 442 + DH 70 + 5 B&O shares at 69
    assert r.game.net_worth(r.game.player_by_name["Carol"]) == 442 + 70 + 5 * 69


# ---------------------------------------------------------------------------
# later in the game: the bundled complete game (examples/1830/game.18xx, a
# 3-player game to phase D and the bank broken) and real exports

def summary(g) -> SimpleNamespace:
    """What the example tests look at, copied out of the game."""
    return SimpleNamespace(
        phase=g.phase.name, round=g.round.label, or_count=g.or_count, bank=g.bank.cash,
        bank_broken=g.bank_broken, end_pending=g.end_pending, finished=g.finished,
        cash=cash(g),
        treasury={c.sym: c.cash for c in g.corporations.values()},
        trains={c.sym: sorted(t.name for t in c.trains) for c in g.corporations.values()},
        tokens={c.sym: c.tokens_placed for c in g.corporations.values()},
        pool=sorted(t.name for t in g.pool_trains()),
        rusted={t.name for t in g.trains if t.owner is None},
        privates={c.sym: getattr(c.owner, "name", None) for c in g.companies.values()},
        corp_privates={c.sym: [x.sym for x in c.companies] for c in g.corporations.values()})


@functools.lru_cache(maxsize=None)
def example_replay():
    """The complete example game replayed once: the result and a summary of
    the state after each line that holds an action."""
    record, read = load_game(str(EXAMPLE))
    assert read == []
    after = {}
    replay = Replay(record)
    replay.after_action = lambda g, action: after.__setitem__(action.line, summary(g))
    return replay.run(), after


def example_at(line: int) -> SimpleNamespace:
    """The state of the example game after the action at ``line``."""
    return example_replay()[1][line]


def example_then(upto: int, extra: str, replace: dict | None = None):
    """The example's first ``upto`` lines (some replaced: {line: text}), then ``extra``."""
    lines = EXAMPLE.read_text().splitlines()[:upto]
    for n, new in (replace or {}).items():
        lines[n - 1] = new
    text = "\n".join(lines) + "\n" + textwrap.dedent(extra)
    record, read = load_game("example.18xx", text)
    assert read == []
    result = Replay(record, stop_at=10 ** 9).run()   # no end-of-log closing
    result.text = text
    return result


def export_record(name: str):
    record, read = import_export((EXPORTS / f"{name}.json").read_text(), f"{name}.json")
    assert read == []
    return record


def export_at(name: str, action_id: int):
    return Replay(export_record(name), stop_at=action_id).run().game


def export_then(name: str, action_id: int, extra: str):
    """A real export up to ``action_id``, then actions written in the notation."""
    record = export_record(name)
    keep = [a for a in record.actions if a.action_id is not None and a.action_id <= action_id]
    assert record.actions[:len(keep)] == keep
    header = "title: 1830\nplayers: " + ", ".join(f'"{p}"' for p in record.players) + "\n"
    text = header + textwrap.dedent(extra)
    more, read = load_game("extra.18xx", text)
    assert read == []
    record.actions = keep + more.actions
    result = Replay(record, stop_at=10 ** 9).run()
    result.text = text
    return result


def test_certificate_limit():
    # The complete example, SR 7 (line 434): Bob holds 20 certificates (5 PRR,
    # 1 NYC, 3 B&O, 5 ERIE, 1 NYNH, 5 B&M; the privates are closed), the limit
    # for three players, and has $663; NYC has IPO shares at 90.
    r = example_then(434, "Bob buy NYC ipo  # <- flagged\n")
    msg = refusal(r, "stock.cert_limit")
    assert msg == ("Bob holds 20 certificates; one more would exceed the limit of 20; "
                   "taken as bought, as the record says")
    g = r.game
    bob = g.player_by_name["Bob"]
    # flagged, and taken as bought at 90 (the replay stays with the record)
    assert g.cert_limit == 20 and g.num_certs(bob) == 21 and bob.cash == 663 - 90
    assert {c.sym: len(c.certs_of(bob)) for c in g.corporations.values() if c.certs_of(bob)} \
        == {"PRR": 5, "NYC": 2, "B&O": 3, "ERIE": 5, "NYNH": 1, "B&M": 5}
    # Alice reaches exactly 20 in the same round (line 455): allowed
    assert example_at(455).cash["Alice"] == 211


def test_station_costs_0_40_100():
    # PRR's stations: home H12 free (OR 1.1), H18 for 40 (line 124),
    # G19 for 100 (line 187); B&O's second, on J14, for 40 (line 107)
    before, after = example_at(123), example_at(124)
    assert before.tokens["PRR"] == 1
    assert (before.treasury["PRR"], after.treasury["PRR"]) == (520, 480)
    before, after = example_at(186), example_at(187)
    assert (before.treasury["PRR"], after.treasury["PRR"]) == (350, 250)
    assert after.tokens["PRR"] == 3
    before, after = example_at(106), example_at(107)
    assert (before.treasury["B&O"], after.treasury["B&O"]) == (680, 640)
    assert after.bank - before.bank == 40


def test_first_5_train_closes_every_private():
    # line 280, NYNH buys the first 5: SV (B&O), CS (NYNH), DH (ERIE) and CA
    # (PRR) close; MH was exchanged and BO closed earlier.
    before = example_at(279)
    assert before.privates == {"SV": "B&O", "CS": "NYNH", "DH": "ERIE", "MH": None,
                               "CA": "PRR", "BO": None}
    after = example_at(280)
    assert after.phase == "5"
    assert set(after.privates.values()) == {None}
    assert set(map(tuple, after.corp_privates.values())) == {()}
    # no private pays at the start of OR 6.1: the bank is the same before and
    # after SR 6's last pass (line 334), which starts OR 6.1
    assert example_at(334).round == "OR 6.1"
    assert example_at(333).bank == example_at(334).bank


def test_president_pays_exactly_the_shortfall_for_a_required_train():
    # line 382: ERIE (no train, 385) buys the 6 for 630; Bob, its president,
    # pays 630 - 385 = 245 (408 -> 163) and the treasury is empty.  The first 6
    # starts phase 6 and rusts the 3s.
    before, after = example_at(381), example_at(382)
    assert (before.treasury["ERIE"], before.trains["ERIE"], before.cash["Bob"]) == (385, [], 408)
    assert (after.treasury["ERIE"], after.cash["Bob"]) == (0, 163)
    assert after.trains["ERIE"] == ["6"]
    assert after.bank - before.bank == 630
    assert after.phase == "6"
    assert "3" in after.rusted and "3" not in before.rusted


def test_d_for_800_in_exchange_for_a_4_which_rusts_at_once():
    # line 402, the first D: PRR (800, a 4) pays 1100 - 300; the 4 goes to
    # the pool and rusts there with every 4 as phase D begins.
    before, after = example_at(401), example_at(402)
    assert (before.treasury["PRR"], before.trains["PRR"]) == (800, ["4"])
    assert (after.treasury["PRR"], after.trains["PRR"]) == (0, ["D"])
    assert after.bank - before.bank == 800
    assert after.phase == "D"
    assert after.pool == []
    assert "4" in after.rusted and not any("4" in t for t in after.trains.values())


def test_d_exchange_puts_a_5_in_the_pool():
    # As line 402, but PRR withholds its 180 (800 -> 980), buys NYNH's 5 for
    # $1 (979) and trades that 5 in: 979 - 800 = 179.  The 5 does not rust: the
    # pool sells it, at 450.
    r = example_then(401, """
        PRR buy train 5 from NYNH for 1
        PRR buy train D exchange 5
        check PRR treasury 179
        check PRR trains D
        """, replace={401: "PRR withhold"})
    g = clean(r)
    assert [t.name for t in g.pool_trains()] == ["5"]
    assert trains(g, "NYNH") == []
    assert g.phase.name == "D"


def test_emergency_sale_of_more_than_needed_is_refused():
    # 29133, OR 4.2, PRR (Player 3 president) has no train and 112; the
    # cheapest train is a 6 at 630.  Player 3 has 394: 506 in all.  30% of B&M
    # at 112 brings 336: 336 + 394 + 112 = 842 >= 630 + 112, a share too many.
    g = export_at("29133", 421)
    assert g.round.label == "OR 4.2" and g.round.turn.corp.sym == "PRR"
    assert (g.corporations["PRR"].cash, cash(g)["Player 3"], price(g, "B&M")) == (112, 394, 112)
    r = export_then("29133", 421, '"Player 3" sell 30% B&M  # <- refused\n')
    msg = refusal(r, "emergency.too_much")
    assert msg == ("Player 3 sells more than needed: 30% of B&M brings $336; with $394 in hand "
                   "and $112 in PRR's treasury one certificate fewer ($112 less) would pay "
                   "for the $630 train")


def test_a_refused_emergency_sale_of_two_corporations_sells_neither():
    # 29133 #421 as above: 10% of NYC at 82 alone is not too much (394 + 82 +
    # 112 = 588 < 630), but after it 30% of B&M is a share too many: with $476
    # in hand (the NYC sale counted) 20% would do.  The check of the whole line
    # changes nothing (EmergencySaleStep): NYC is not sold either.
    before = export_at("29133", 421)
    r = export_then("29133", 421, '"Player 3" sell 10% NYC, 30% B&M  # <- refused\n')
    msg = refusal(r, "emergency.too_much")
    assert msg == ("Player 3 sells more than needed: 30% of B&M brings $336; with $476 in hand "
                   "and $112 in PRR's treasury one certificate fewer ($112 less) would pay "
                   "for the $630 train")
    g = r.game
    assert cash(g)["Player 3"] == 394
    assert holdings(g, "NYC") == holdings(before, "NYC")
    assert price(g, "NYC") == price(before, "NYC") == 82


def test_emergency_sales_then_the_president_pays_the_rest():
    # 29133 #422-424: Player 3 sells 10% NYC at 82 and 10% NYNH at 75 (394 ->
    # 551), then PRR buys the 6: Player 3 pays 630 - 112 = 518 (551 -> 33).
    g = export_at("29133", 423)
    assert cash(g)["Player 3"] == 394 + 82 + 75
    g = export_at("29133", 424)
    assert cash(g)["Player 3"] == 33
    assert g.corporations["PRR"].cash == 0 and trains(g, "PRR") == ["6"]


def test_bankruptcy_is_refused_while_the_president_can_pay():
    # at 29133 #421 Player 3 can raise 394 + 112 (PRR) + sellable shares: PRR
    # 10% (82; the pool has room for one), NYC 10% (82), NYNH 10% (75) and B&M
    # 40% (4 x 112; the president's certificate cannot go): 1193 >= 630
    r = export_then("29133", 421, "PRR bankrupt  # <- refused\n")
    msg = refusal(r, "bankrupt.not_needed")
    assert msg == ("Player 3 can raise $1193 (cash, sellable shares and PRR's treasury), enough "
                   "for the cheapest train at $630; bankruptcy is not allowed")


def test_bankruptcy_sells_what_it_can_and_ends_the_game_at_once():
    # 29133 #450: NYNH (181, no train) needs a D at 1100; Player 4 has 354,
    # NYC 60% (president) at 82 and NYNH 60% (president) at 69.
    #   NYC: the pool has 30%, so 20% is sold: +164, 82 -> 70 (two rows)
    #   NYNH: others hold 10% each, so the president's certificate stays; 40%
    #         is sold: +276, 69 -> 68 (one row; the row below is too short)
    #   the cash, 354 + 164 + 276 = 794, goes to the bank
    #   net worth: 0 + 4 x 70 (NYC) + 2 x 68 (NYNH's certificate) = 416
    before = export_at("29133", 449)
    assert cash(before)["Player 4"] == 354
    assert (price(before, "NYC"), price(before, "NYNH")) == (82, 69)
    assert holdings(before, "NYC") == {"Player 2": 10, "Player 4": 60, "pool": 30}
    g = Replay(export_record("29133")).run().game
    assert g.finished and g.end_reason == "bankrupt"
    assert g.player_by_name["Player 4"].bankrupt
    assert cash(g)["Player 4"] == 0
    assert holdings(g, "NYC") == {"Player 2": 10, "Player 4": 40, "pool": 50}
    assert holdings(g, "NYNH") == {"Player 1": 10, "Player 2": 10, "Player 4": 20,
                                   "ipo": 10, "pool": 50}
    assert (price(g, "NYC"), price(g, "NYNH")) == (70, 68)
    assert g.net_worth(g.player_by_name["Player 4"]) == 416
    # 18xx.games' final scores (the export's result) agree
    assert {r["player"]: r["net_worth"] for r in g.standings()} == \
        {"Player 1": 887, "Player 2": 1477, "Player 3": 951, "Player 4": 416}
    assert g.bank.cash == before.bank.cash - 164 - 276 + 794


def test_nothing_is_played_after_a_bankruptcy():
    r = export_then("29133", 450, "B&O pass  # <- refused\n")
    msg = refusal(r, "game.over")
    assert msg == ("the game already ended (a player went bankrupt); this and any later "
                   "action is ignored")


def test_bank_breaks_and_the_game_ends_with_the_or_set():
    # line 632, OR 9.1 (phase D, three ORs a set): NYNH's payout takes the bank
    # below zero.  The set is finished (OR 9.2 and 9.3) and the game ends.
    before, at = example_at(631), example_at(632)
    assert before.bank >= 0 and not before.bank_broken
    assert (at.bank, at.bank_broken) == (-229, True)
    assert (at.round, at.or_count, at.end_pending, at.finished) == ("OR 9.1", 3, "bank", False)
    assert example_at(660).round == "OR 9.2" and not example_at(660).finished
    result = example_replay()[0]
    g = clean(result)
    assert (g.finished, g.end_reason, g.round.label) == (True, "bank", "OR 9.3")
    assert g.bank.cash == -5122
    # 18xx.games' final net worths (also the last checkpoints of the file)
    assert {p.name: g.net_worth(p) for p in g.players} == \
        {"Bob": 13048, "Carol": 12109, "Alice": 12025}


def test_emergency_sale_of_a_presidents_certificate_alone_is_not_too_much():
    # 1830_rand_18304_1 (random game), OR 12.2: B&O has no train and $369, the
    # cheapest train is a D at $1100; Player 2 has $645 after selling NYC and
    # B&M.  Selling the 20% president's certificate of CPR at $100 brings $200:
    # $1214, more than one share over the price, but the bundle is a single
    # certificate, so no smaller sale would do (18xx.games accepts it).
    from conftest import DATA
    from railcheck.engine import Replay
    from railcheck.importer import import_export
    path = DATA / "random" / "1830" / "1830_rand_18304_1.json"
    record, _ = import_export(path.read_text(), str(path))
    seen = {}

    def after(game, action):
        if action.action_id == 550:
            cpr = game.corporations["CPR"]
            seen.update(cash=game.player_by_name["Player 2"].cash, price=cpr.price.price,
                        president=cpr.president.name)

    replay = Replay(record)
    replay.after_action = after
    result = replay.run()
    assert [f for f in result.findings if f.action_id == 550] == []
    assert seen == {"cash": 845, "price": 82, "president": "Player 4"}


# ---------------------------------------------------------------------------
# privates bought from another player in a stock round (phases 2 to 4, from
# SR 2 on): any price the buyer can pay, the turn's one purchase.  After OR
# 1.1: Alice 295, Bob 435, Carol 555; Bob has the priority in SR 2.

def test_player_buys_a_private_from_another_player_at_any_price():
    r = play(AUCTION, SR1, OR1, """
        SR 2
        Bob buy private SV from Alice for 7
        Bob pass
        Carol buy private MH for 300
        """)
    g = clean(r)
    assert cash(g) == {"Alice": 295 + 7 + 300, "Bob": 435 - 7, "Carol": 555 - 300}
    assert g.companies["SV"].owner.name == "Bob"
    assert g.companies["MH"].owner.name == "Carol"       # the seller, Alice, inferred
    assert [c.sym for c in g.player_by_name["Alice"].companies] == []


def test_the_done_after_a_private_bought_is_taken_when_nothing_else_was_left():
    # Carol buys MH from Alice for 300 (555 - 300 = 255): the turn's purchase;
    # she holds nothing she may sell (B&O's president's certificate alone), so
    # her turn ends by itself, and her written pass is the "done" 18xx.games
    # asks for (fresh game 31000183_0 #158: railcheck had said "turn.order:
    # Player 6 acted out of turn", as she could have bought had it been her
    # turn again).  Then it is Alice's turn.
    r = play(AUCTION, SR1, OR1, """
        SR 2
        Bob pass
        Carol buy private MH for 300
        Carol pass
        """)
    g = clean(r)
    assert cash(g) == {"Alice": 295 + 300, "Bob": 435, "Carol": 555 - 300}
    assert g.round.current.name == "Alice"
    # a second pass of hers is out of turn
    r = play(AUCTION, SR1, OR1, """
        SR 2
        Bob pass
        Carol buy private MH for 300
        Carol pass
        Carol pass  # <- refused
        """)
    assert refusal(r, "turn.order").startswith("Carol acted out of turn: it is Alice's turn")


def test_a_private_bought_from_a_player_is_the_turns_purchase():
    r = play(AUCTION, SR1, OR1, """
        SR 2
        Bob buy private SV from Alice for 30
        Bob buy PRR  # <- refused
        """)
    assert refusal(r, "stock.one_buy") == "Bob already bought the private SV this turn"


def test_no_private_trade_in_the_first_stock_round():
    r = play(AUCTION, """
        SR 1
        Alice buy private CS from Bob for 50  # <- refused
        """)
    assert refusal(r, "private.trade_phase") == \
        "players may not buy privates from each other in SR 1"


def test_private_trade_names_the_wrong_seller_or_costs_too_much():
    r = play(AUCTION, SR1, OR1, """
        SR 2
        Bob buy private SV from Carol for 30  # <- refused
        """)
    assert refusal(r, "private.seller") == "SV is held by Alice, not Carol"
    r = play(AUCTION, SR1, OR1, """
        SR 2
        Bob buy private SV from Alice for 436  # <- refused
        """)
    assert refusal(r, "stock.cash") == "Bob has $435; SV costs $436"


def test_private_trades_only_in_phases_2_to_4():
    from railcheck.ruleset import load_ruleset
    rules = load_ruleset("1830")
    assert [p.name for p in rules.phases if p.extra.get("private_trades")] == ["2", "3", "4"]


def test_no_share_after_buying_a_private_and_no_private_after_a_share():
    r = play(AUCTION, SR1, OR1, """
        SR 2
        Bob buy PRR
        Bob buy private SV from Alice for 30  # <- refused
        """)
    assert refusal(r, "stock.one_buy") == (
        "Bob already bought a share (PRR) this turn; buying a private from a player is the "
        "turn's one purchase")


def test_a_depot_train_at_a_wrong_price_is_flagged_and_bought_as_written():
    # the example: the table paid $170 for a $180 3-train; the money
    # moved as recorded, so the replay stays in step with the record
    text = TR_OR21.replace("PRR buy train 3\nPRR buy private",
                           "PRR buy train 3 for 170  # <- flagged\nPRR buy private")
    r = play(*TRAINS[:4], text)
    msg = refusal(r, "trains.price")
    assert msg == ("a 3-train from the depot costs $180, not $170; taken as paid (18xx.games "
                   "takes the written price)")
    prr = r.game.corporations["PRR"]
    assert [t.name for t in prr.trains] == ["3", "3", "3"]
    assert prr.cash == 430          # $10 more than with the three trains at $180


# ---------------------------------------------------------------------------
# a player over the certificate limit must sell down in their turn

def _limit_4_from_sr_2(g, action):
    """The limit drops to 4 in SR 2, as when a price leaves a zone whose
    shares do not count: Bob (CS, CA, 3 PRR shares) holds 5."""
    if g.sr_number >= 2:
        g.cert_limit = 4


def test_a_player_over_the_certificate_limit_who_passes_is_flagged():
    r = play(AUCTION, SR1, OR1, "SR 2\nBob pass  # <- flagged\n",
             before_action=_limit_4_from_sr_2)
    msg = refusal(r, "stock.over_cert_limit")
    assert msg == ("Bob holds 5 certificates, over the limit of 4, and ends the turn in SR 2 "
                   "without selling down to it")


def test_a_player_over_the_certificate_limit_who_sells_down_is_clean():
    r = play(AUCTION, SR1, OR1, "SR 2\nBob sell PRR\nBob pass\nCarol pass\n",
             before_action=_limit_4_from_sr_2)
    g = clean(r)
    assert g.num_certs(g.player_by_name["Bob"]) == 4


def test_a_written_pass_for_a_player_with_nothing_to_do_is_accepted():
    # Carol has no cash: in SR 1 (no selling) she can do nothing and is passed
    # over; her written pass says the same and is not out of turn.
    def broke(g, action):
        if g.sr_number >= 1:
            g.player_by_name["Carol"].cash = 0
    r = play(AUCTION, "SR 1\nAlice par PRR 100\nBob buy PRR\nCarol pass\nAlice buy PRR\n",
             before_action=broke)
    g = clean(r)
    assert g.round.current.name == "Bob"


def test_a_turn_left_out_is_flagged_only_for_a_company_with_a_route():
    # NYC (2, 2, 2, 3-trains, no track: no route) passes in OR 2.1; leaving
    # its pass out of the record says the same.
    assert "NYC pass\n" in TR_OR21
    g = clean(play(AUCTION, TR_SR1, TR_OR11, TR_SR2, TR_OR21.replace("NYC pass\n", ""),
                   TR_OR22))
    assert [t.name for t in g.corporations["NYC"].trains] == ["3", "3"]
    # B&O (a route I15-J14) left out of OR 2.2 is flagged
    r = play(AUCTION, TR_SR1, TR_OR11, TR_SR2, TR_OR21, "OR 2.2\nPRR buy train 4\nPRR discard 3\n"
             "NYC buy train 3 from PRR for 1\n")
    assert [(f.rule, f.message) for f in r.findings if f.rule == "or.turn_missing"] == [
        ("or.turn_missing", "B&O took no turn in OR 2.2 although it owns trains (3) and has a "
                            "route to run them")]


def test_a_written_pass_after_the_round_ended_without_it_is_accepted():
    # Carol (no cash) is passed over; Alice and Bob pass: everybody has passed
    # in a row and SR 1 ends.  Carol's written pass comes after the end: it
    # says what the rules did and is not a continuation of SR 1.
    def broke(g, action):
        if g.sr_number >= 1:
            g.player_by_name["Carol"].cash = 0
    r = play(AUCTION, "SR 1\nAlice par PRR 100\nBob buy PRR\nCarol pass\nAlice buy PRR\n"
                      "Bob buy PRR\nAlice pass\nBob pass\nCarol pass\nOR 1.1\nPRR buy train 2\n",
             before_action=broke)
    g = clean(r)
    assert g.round.label == "OR 1.1"
    assert [t.name for t in g.corporations["PRR"].trains] == ["2"]


def test_private_bought_over_the_certificate_limit_is_flagged_and_taken(tmp_path):
    """A private counts as a certificate: a player at the limit who buys one
    from another player breaks it (1830 rules, certificate limit).  The line
    still says who holds the private and what was paid, so the purchase is
    taken as written (18xx.games checks no limit there: fresh game
    1830_rand_42000074_1 #275, where railcheck had refused it and lost
    Carol's $41)."""
    # A house limit of 5 for 3 players.  After SR 1 Bob holds CS, CA, CA's PRR
    # share and two PRR shares: 5 certificates.  OR 1.1: Bob 400 + 35 = 435,
    # Carol 510 + 45 = 555.  SR 2 (Bob first): Bob buys DH from Carol for 70.
    house = tmp_path / "five.yaml"
    house.write_text('extends: "1830"\ncert_limit: {3: 5}\n')
    text = (HEADER + f"ruleset: {house}\n" + "".join(textwrap.dedent(p) for p in (
        AUCTION, SR1, OR1, """
        SR 2
        Bob buy private DH from Carol for 70  # <- flagged
        """)))
    record, read = load_game("rules.18xx", text)
    assert read == []
    r = Replay(record, stop_at=1 << 62).run()
    errors = [f for f in r.findings if f.severity == "error"]
    assert [(f.rule, f.line) for f in errors] == [("private.cert_limit", marked_line(text))]
    assert errors[0].message == ("Bob holds 5 certificates; DH would exceed the limit of 5; "
                                 "taken as bought, as the record says")
    g = r.game
    assert cash(g)["Bob"] == 365 and cash(g)["Carol"] == 625
    assert g.companies["DH"].owner is g.player_by_name["Bob"]
