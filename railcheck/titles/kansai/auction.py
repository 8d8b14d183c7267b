"""Kansai's waterfall auction (A1-A7), played by the shared
``rounds/auction_waterfall.py`` when the components file gives what it needs
(the starting cash for the player count, every private's face value and
income); otherwise :class:`~.stock.StockHandler` checks only the bids' steps.

The shared round plays on the game itself (``holdings.py``'s ``Holdings``, a
shared ``Game``), with its hooks for what 1890's auction does otherwise: the
privates it sells (``auction_companies``: not the late privates nor M5's
privatised company), a price paid and an income received while the bank is
not counted yet (``sell_private_from_bank``, ``pay_private_income``: the
ledger counts the bank after the auction, ``Ledger.start``), and what a private
brings with it (the free Hanshin and Keihan shares, OMS's president's
certificate: the stock handler's ``acquire``).  The
Kansai options: the first private's price drops by 5 when everybody passes
(A6), and after a private is sold to its bidders play goes on left of its
buyer (A4, ``resume_after_resolution: last_buyer``), so the priority goes left
of the last buyer (A7).
"""

from __future__ import annotations

from ...findings import RuleViolation
from ...rounds import Round
from ...rounds.auction_waterfall import WaterfallAuction
from ...schema import is_unknown
from .holdings import private_numbers
from .steps import RoundOfTheRecord


class AuctionRound1890(RoundOfTheRecord, Round):
    """The auction as the analyser reads it (the shared ``Game.round``); the stock handler
    plays it (the shared waterfall on the game, or the bids' own checks)."""

    kind = "auction"

    def __init__(self, replay):
        self.replay = replay
        super().__init__(replay.holdings)


#: the kind of check the auction's actions count under when it cannot be played
SKIPPED = "the auction's turns, prices and cash (the waterfall)"


def waterfall(replay):
    """(the shared auction on Kansai's table, None) or (None, the keys of the
    first number it needs that is unknown)."""
    rules = replay.rules
    privates = []
    for p in rules.privates:
        if p.sym in replay.not_in_play:      # the scenario leaves it out
            continue
        value, revenue = private_numbers(rules, p.sym)
        if is_unknown(value):
            return None, ("companies", p.sym, "value")
        if is_unknown(revenue):
            return None, ("companies", p.sym, "revenue")
        company = replay.holdings.companies[p.sym]      # the game's (its spec's numbers known)
        company.price = company.value
        privates.append(company)
    table = rules.number("starting_cash")
    n = len(replay.holdings.players)
    cash = None if is_unknown(table) else table.get(n, table.get(str(n)))
    if cash is None:
        return None, ("starting_cash",)
    for p in replay.holdings.players:       # the auction's cash (the bank is counted after it)
        p.cash = cash
    return WaterfallAuction(replay.holdings), None


def play(auction, action) -> None:
    """One bid or pass through the shared round: a refusal is a finding (and changes
    nothing: ``Replay.purity_after``)."""
    from ...following.auction import WaterfallFollower
    engine, before = auction.game.title.replayer, None
    try:
        WaterfallFollower(auction).place(action)    # where the record says it stands
        before = engine.purity_before(action)
        auction.process(action)
    except RuleViolation as v:
        engine.purity_after(before, action, "auction", v.rule)
        auction.game.flag(v.rule, v.message, v.severity)


def priority(auction):
    """The player left of the last buyer (A7), as the round left it."""
    g = auction.game
    return g.players[auction.turn_index % len(g.players)].name
