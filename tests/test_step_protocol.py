"""One step protocol in every round: the round says which of its steps may
take an action now (``Round.active_steps``, ``Step.takes``), and a candidate
action is checked by its step's pure ``check`` (a plan or a refusal, the
state and the findings unchanged), in an auction, a stock round, an
operating round and 18Ireland's merger round alike: what a command that
lists the legal moves needs, with no second copy of the rules."""

import dataclasses

from railcheck.actions import LayTile, Par, Vote
from railcheck.engine import Replay
from railcheck.findings import RuleViolation
from railcheck.loader import load_game
from railcheck.snapshot import state_snapshot

from conftest import REPO

GAME_1830 = REPO / "examples" / "1830" / "game.18xx"
GAME_18IRELAND = REPO / "examples" / "18Ireland" / "game.18xx"


def ask(path, line: int, candidates=()):
    """Just before the record's line ``line``: the round's kind, whose turn,
    the active steps' names with the kinds of action each takes, and for the
    record's own action and each candidate (built from it by a function),
    (its step, the plan's type or the refusal's rule, state and findings
    unchanged)."""
    record, _ = load_game(str(path))
    rp = Replay(record, hints=False)
    out = {}

    def hook(g, action):
        if action.line != line:
            return
        rnd = g.round
        turn = rnd.turn_of_steps()
        out["round"] = rnd.kind
        who = rnd.whose_turn()
        out["turn"] = getattr(who, "name", None) or getattr(who, "sym", None)
        out["steps"] = [(type(s).__name__, tuple(a.__name__ for a in s.takes(turn)))
                        for s in rnd.active_steps()]
        checked = []
        for act in [action] + [make(action) for make in candidates]:
            before, n = state_snapshot(g), len(g.findings)
            step = rnd.step_for(act)
            try:
                got = type(step.check(turn, act)).__name__
            except RuleViolation as v:
                got = v.rule
            checked.append((type(step).__name__, got, state_snapshot(g) == before,
                            len(g.findings) == n))
        out["checked"] = checked

    rp.before_action = hook
    rp.run()
    return out


def test_the_waterfall_auction_says_what_may_be_done_and_checks_purely():
    # line 14: "Alice bid CA 165", the auction's first action
    out = ask(GAME_1830, 14, [lambda a: dataclasses.replace(a, price=999)])
    assert out["round"] == "auction" and out["turn"] == "Alice"
    assert out["steps"] == [("AuctionBidStep", ("Bid", "Pass"))]
    # the bid is a plan; 999 is over Alice's $600
    assert out["checked"] == [("AuctionBidStep", "tuple", True, True),
                              ("AuctionBidStep", "auction.cash", True, True)]


def test_the_stock_round_says_what_may_be_done_and_checks_purely():
    # line 72: "Bob pass", SR 2's first action; Bob may par, buy or pass
    out = ask(GAME_1830, 72, [lambda a: Par(actor="Bob", corporation="B&O", price=100,
                                            line=a.line)])
    assert out["round"] == "SR" and out["turn"] == "Bob"
    assert out["steps"] == [("ExchangeStep", ("Exchange",)), ("ParStep", ("Par",)),
                            ("BuySharesStep", ("BuyShares",)),
                            ("SellSharesStep", ("SellShares",)),
                            ("BuyPrivateStep", ("BuyCompany",)),
                            ("StockTurnStep", ("Pass",))]
    # the pass is the turn's (no plan of its own); B&O was parred in SR 1
    assert out["checked"] == [("StockTurnStep", "NoneType", True, True),
                              ("ParStep", "stock.par_twice", True, True)]


def test_the_operating_round_says_what_may_be_done_and_checks_purely():
    # line 60: "B&O lay 9 I17 r1", B&O's turn in OR 1.1 begins
    out = ask(GAME_1830, 60, [lambda a: dataclasses.replace(a, hex="A1")])
    assert out["round"] == "OR" and out["turn"] == "B&O"
    names = [name for name, _ in out["steps"]]
    assert names[0] == "TrackStep" and ("TrackStep", ("LayTile",)) in out["steps"]
    assert ("BuyTrainStep", ("BuyTrain",)) in out["steps"]
    assert out["checked"][0] == ("TrackStep", "_LayPlan", True, True)
    assert out["checked"][1][1:] == ("tile.hex", True, True)        # no hex A1


def test_the_operating_rounds_blocking_step_is_asked_like_any_round():
    record, _ = load_game(str(GAME_1830))
    rp = Replay(record, hints=False)
    seen = []

    def hook(g, action):
        if g.round.kind == "OR" and not seen:
            seen.append(g.round.blocking_step())

    rp.before_action = hook
    rp.run()
    assert seen == [None]


def test_the_merger_round_is_steps_and_checks_purely():
    # line 326: "Bob propose DER", MR 5.2's first action; then Bob's vote
    # closing a proposal of one minor is refused (two are needed)
    out = ask(GAME_18IRELAND, 326, [lambda a: Vote(actor="Bob", choice="for", line=a.line),
                                    lambda a: LayTile(actor="Bob", tile="9", hex="A1",
                                                      rotation=0, line=a.line)])
    assert out["round"] == "MR" and out["turn"] == "Bob"
    assert out["steps"] == [("ProposeStep", ("Propose",)), ("MergerTurnStep", ("Pass",))]
    assert out["checked"] == [("ProposeStep", "tuple", True, True),
                              ("MergerTurnStep", "merger.action", True, True),
                              ("MergerTurnStep", "merger.action", True, True)]
    # after the proposal of DER and UR, Bob's own vote closes it: the vote step
    out = ask(GAME_18IRELAND, 329)
    assert out["checked"] == [("VoteStep", "tuple", True, True)]
