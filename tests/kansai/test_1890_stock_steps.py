"""1890's stock round as the shared ``StockRound`` with 1890's steps
(``railcheck/titles/kansai/steps.py``): each kind of a player's action is a step of the
shared protocol, whose ``check`` changes nothing (it returns a plan with the findings taken as
written, or raises the refusal) and whose ``apply`` carries the plan out."""

from pathlib import Path

import pytest

from railcheck.engine import Replay
from railcheck.findings import RuleViolation
from railcheck.loader import load_game
from railcheck.rounds.stock import StockRound
from railcheck.snapshot import state_snapshot
from railcheck.titles.kansai.steps import (BuyPrivateStep1890, BuySharesStep1890,
                                           LatePrivateStep1890, ParStep1890, SellSharesStep1890,
                                           StockRound1890)

REPO = Path(__file__).resolve().parents[2]
GAME = REPO / "examples" / "kansai" / "game.18xx"


def replayed(record, stop_at: int):
    """1890's title object (its state, rounds and ledger) after the engine's replay of
    ``record`` stopped after line ``stop_at``."""
    rp = Replay(record, stop_at=stop_at)
    rp.run()
    return rp.game.title


def paused(line: int):
    """The example game's replay stopped before ``line`` (SR 2 starts at line 50)."""
    record, _ = load_game(str(GAME))
    return replayed(record, line - 1)


def actions(*lines: str) -> list:
    text = "title: 1890\nplayers: Aki, Ben, Chie\ncomponents: components-example.yaml\n\nSR 2\n" \
        + "\n".join(lines) + "\n"
    record, read = load_game(str(GAME), text=text)
    assert read == []
    return [a for a in record.actions if a.verb != "round"][-len(lines):]


def picture(r) -> tuple:
    return (state_snapshot(r.holdings), repr(vars(r.state)), repr(r.holdings.round.lines),
            len(r.findings),
            r.ledger.bank, list(r.holdings.marked))


CASES = [
    # (step, line, the plan's notes or the refusal)
    (ParStep1890, "Aki par KNR 90", ("stock.par_twice", "KNR already has its par value Y80")),
    (ParStep1890, "Aki par M1 90", ("stock.par_price", "M1 is a minor: it has no par value")),
    (BuySharesStep1890, "Aki buy HER pool", ("stock.no_share", "the pool holds 0% of HER")),
    (BuySharesStep1890, "Aki buy M1", ("stock.no_share", "M1 is owned by Aki")),
    (BuySharesStep1890, "Aki buy KNR", []),
    (BuySharesStep1890, "Aki buy 4 KNR",
     ("kansai.knr_reserved_share", "only 4 KNR shares are for sale and 1 have been bought; "
                                   "the others are reserved for the minors' conversions (K7)")),
    (SellSharesStep1890, "Ben sell HER", []),
    (LatePrivateStep1890, "Aki buy KRTR",
     [("kansai.late_private_early", "KRTR is a late private: it may be bought once the first "
                                    "3-train is sold (phase 1+, no 3-train sold yet)")]),
    (BuyPrivateStep1890, "Aki buy private OMER from Ben for 50",
     ("private.no_sale", "OMER may not be sold: OMER never changes hands (P7)")),
]


@pytest.mark.parametrize("step_class, line, outcome", CASES)
def test_a_steps_check_changes_nothing(step_class, line, outcome):
    r = paused(52)          # SR 2 after Chie's KNR share (line 51)
    rnd = r.stock.round
    assert isinstance(rnd, StockRound1890) and isinstance(rnd, StockRound)
    assert rnd.game is r.holdings
    step = rnd.step_by_type(step_class)
    action, = actions(line)
    assert step.owns(action)
    player = r.holdings.by_name[action.actor]
    before = picture(r)
    if isinstance(outcome, tuple):
        with pytest.raises(RuleViolation) as refused:
            step.check(player, action)
        assert (refused.value.rule, refused.value.message) == outcome
    else:
        assert step.check(player, action).notes == outcome
    assert picture(r) == before


def test_a_sale_and_a_purchase_applied_by_their_steps():
    """Ben sells a HER share (SS4: at Y90, then a row down to Y80) and Aki buys a KNR share at
    par (Y80), each through its step's check and apply."""
    r = paused(52)
    rnd, h = r.stock.round, r.holdings
    ben, aki = h.by_name["Ben"], h.by_name["Aki"]
    her = h.corporations["HER"]
    assert (ben.cash, aki.cash) == (270, 335)
    assert (her.percent_of(ben), her.price.price, her.price.row) == (20, 90, 1)
    sell, buy = actions("Ben sell HER", "Aki buy KNR")
    rnd.play(SellSharesStep1890, sell)
    assert (her.percent_of(ben), her.percent_of("pool")) == (10, 10)
    assert ben.cash == 360 and (her.price.price, her.price.row) == (80, 2)
    rnd.play(BuySharesStep1890, buy)
    assert h.corporations["KNR"].percent_of(aki) == 10 and aki.cash == 255


def test_the_rounds_turns_are_the_rounds():
    """The stock round's turns on the round object (``StockRound1890``), with the shared
    round's bookkeeping: whose turn it is (``current``: the turn's player, then the next seat,
    S3.1), the passes in a row (``passes``, S2.2), the sales of the round (SB6), and at its
    end the priority left of the last player who acted (``last_actor``)."""
    # SR 2 (line 50): Chie buy KNR, Aki buy KNR, Ben sell HER, Ben buy KNR, three passes
    r = paused(54)          # after Ben's sale (line 53), in Ben's turn (the record's end
    s = r.stock.round       # closed it unfinished: its duties not checked, the seat Ben's)
    assert (s.actor, s.current.name, s.passes, sorted(s.sold_this_round)) == \
        (None, "Ben", 0, [("Ben", "HER")])
    # the last player who acted (the shared turn_action's: set by each of his lines)
    assert s.last_actor is r.holdings.by_name["Ben"] and s.acted
    r = paused(59)          # the round's three passes (lines 55-57)
    s = r.stock.round
    assert (s.passes, s.last_actor.name, s.finished) == (3, "Ben", True)
    assert r.holdings.priority_name() == "Chie"            # left of Ben (S3.1)


#: SR 1 of the example game, but Chie spends her last Y60 on Aki's HKT (S2.1) with her fourth
#: JR share: she has Y0, may sell nothing in the first stock round (SS1) and so may do nothing
PASSED_OVER = """auction
Aki buy ARIMA
Ben bid OMER 125
Chie buy KT
Aki buy HKT
Ben buy HST
Chie buy KST

SR 1
Chie buy M2
Chie par KNR 80
Aki buy M1
Ben buy M3
Ben par OMS 90
Chie par JR 100
Aki par HER 100
Ben buy M4
Chie buy JR
Aki buy HER
Ben buy HER
Chie buy JR
Aki buy M5
Ben buy JR
Chie buy JR
Chie buy private HKT from Aki for 60
check Chie cash 0
Aki buy JR
Ben buy JR
Aki pass
Ben pass
"""


def test_a_player_who_may_do_nothing_is_passed_over():
    """The shared ``StockRound.turn_action`` passes over a player who may do nothing (its
    ``skip_inactive``, with 1890's ``has_actions``: a sale, a certificate, a par, a private
    from another player, each tried by its step's pure check).  The reading (docs/1890.md,
    "How it is built"): a turn offers a sale, a purchase or a pass (S2.1, S2.2; rule book
    §8 "Progress of the stock round"), so a player who may do nothing can only pass, and a
    record that leaves that pass out says what writing it says.  Chie (Y0, SR 1) is passed
    over: Aki's line after Ben's is in turn (it was ``turn.order`` "it is Chie's turn in SR 1,
    not Aki's"), and Aki's and Ben's passes with Chie's end the round (S2.2).  While money is
    not tracked nobody is known to have nothing to do: Aki's line is then out of turn."""
    header = "title: 1890\nplayers: Aki, Ben, Chie\n"
    record, _ = load_game(str(GAME), text=header + "components: components-example.yaml\n\n"
                          + PASSED_OVER)
    r = replayed(record, 10 ** 6)
    s, h = r.stock.round, r.holdings
    assert [f for f in r.findings if f.severity == "error"] == []
    assert h.by_name["Chie"].cash == 0 and h.by_name["Chie"] in s.auto_passed
    assert (s.finished, s.passes, s.last_actor.name, h.priority_name()) == \
        (True, 3, "Ben", "Chie")
    record, _ = load_game(str(GAME), text=header + "\n" + PASSED_OVER)
    r = replayed(record, 10 ** 6)
    first = [f for f in r.findings if f.severity == "error"][0]
    assert (first.rule, first.line, first.text, first.message) == (
        "turn.order", 32, "Aki pass", "Aki acted out of turn: it is Chie's turn in SR 1")


def test_a_stock_round_ends_at_the_pass_that_ends_it():
    """S2.2 ("Po spasowaniu wszystkich graczy"; rule book §8 "End of stock round": it ends
    when all players pass in succession): the round ends at the third pass of SR 2 (line 57),
    not at the record's marker: its end has set the priority left of the last player who
    acted (Ben: Chie) before the record's next line.  The record going on with it (Chie buys a
    JR share) takes it up again (``round.continues``), the end's priority put back, and its
    end then gives the priority left of Chie, to Aki (S3.1)."""
    text = GAME.read_text(encoding="utf-8").replace(
        "Chie pass\nAki pass\nBen pass\n\nOR 2.1", "Chie pass\nAki pass\nBen pass\nChie buy JR\n"
                                                  "\nOR 2.1", 1)
    record, _ = load_game(str(GAME), text=text)
    seen = []

    def before(game, action):
        if action.line == 58:
            seen.append((game.round.finished, game.priority_name()))
    rp = Replay(record, stop_at=58)
    rp.before_action = before
    rp.run()
    r = rp.game.title
    assert seen == [(True, "Chie")]
    s = r.stock.round
    assert [(f.rule, f.line) for f in r.findings if f.severity == "error"] == \
        [("round.continues", 58)]
    assert (s.finished, s.last_actor.name, r.holdings.priority_name()) == (True, "Chie", "Aki")


@pytest.mark.parametrize("line, verb", [("Ben pass", "pass"), ("Aki buy JR", "buy")])
def test_a_line_after_the_stock_rounds_end_is_one_finding(line, verb):
    """One slip, one finding (issue 27): SR 2 ends at Ben's pass (line 57, the third in a row:
    S2.2, "Po spasowaniu wszystkich graczy"; rule book §8 "End of stock round"), and the
    record goes on with it at line 58, by the passer himself (his pass written twice) or by
    another player.  The round taken up again is the line's player's turn: a round the rules
    ended has no turn order to go on with, so the line is ``round.continues`` alone, not also
    ``turn.order`` ("it is Chie's turn in SR 2")."""
    text = GAME.read_text(encoding="utf-8").replace(
        "Chie pass\nAki pass\nBen pass\n\nOR 2.1", f"Chie pass\nAki pass\nBen pass\n{line}\n"
                                                  "\nOR 2.1", 1)
    record, _ = load_game(str(GAME), text=text)
    r = replayed(record, 58)
    errors = [f for f in r.findings if f.severity == "error"]
    assert [(f.rule, f.line) for f in errors] == [("round.continues", 58)]
    assert errors[0].message.endswith(f"{line.split()[0]}'s '{verb}' is taken as part of it")
