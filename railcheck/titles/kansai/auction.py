"""Kansai's waterfall auction (A1-A7), played by the shared
``rounds/auction_waterfall.py`` when the components file gives what it needs
(the starting cash for the player count, every private's face value and
income); otherwise :class:`~.stock.StockHandler` checks only the bids' steps.

The shared round plays on a small table (:class:`AuctionTable`) of the game's
own players and privates (``holdings.py``: the shared state's ``Player`` and
``Company``): their cash during the auction (the starting cash, the bids paid,
the incomes paid when everybody passes), the privates' prices and owners.  The
Kansai options: the first private's price drops by 5 when everybody passes
(A6), and after a private is sold to its bidders play goes on left of its
buyer (A4, ``resume_after_resolution: last_buyer``), so the priority goes left
of the last buyer (A7).
"""

from __future__ import annotations

from types import SimpleNamespace

from ...findings import ERROR, RuleViolation
from ...game import Game
from ...rounds import Round
from ...rounds.auction_waterfall import WaterfallAuction
from ...schema import is_unknown
from .holdings import private_numbers
from .steps import RoundOfTheRecord


class AuctionRound1890(RoundOfTheRecord, Round):
    """The auction as the analyser reads it (the shared ``Game.round``); the stock handler
    plays it (the shared waterfall on :class:`AuctionTable`, or the bids' own checks)."""

    kind = "auction"

    def __init__(self, replay):
        self.replay = replay
        super().__init__(replay.holdings)


class AuctionTable:
    """What the shared waterfall auction reads and changes of a game."""

    def __init__(self, replay, cash: int, privates: list):
        self.replay = replay
        self.players = replay.holdings.players      # the game's, with the starting cash
        for p in self.players:
            p.cash = cash
        self.seat_order = self.players
        self.player_by_name = {p.name: p for p in self.players}
        self.companies = {c.sym: c for c in privates}
        #: 1890's auction section (rules.yaml: play resumes left of a private's buyer, A4)
        self.rules = SimpleNamespace(auction=replay.rules.auction)
        self.pending_par = None
        self.priority = None

    #: while set, a finding refuses the attempt instead (``clean_attempt``: the shared
    #: auction tries a bid written under another name as the turn's player's)
    refuse_flags = False
    #: the shared game's: run an attempt that must make no finding
    clean_attempt = Game.clean_attempt

    @property
    def following(self):
        """The record as the shared record-following layer reads it (the game's,
        ``Game.following``: ``following/auction.py`` reads its next action)."""
        return self.replay.holdings.following

    def flag(self, rule: str, message: str, severity: str = ERROR, action=None):
        if self.refuse_flags and severity == ERROR:
            raise RuleViolation(rule, message)
        self.replay.flag(rule, message, severity, action)

    def money(self, amount: int) -> str:
        return self.replay.money(amount)

    def next_player(self, player):
        return self.players[(player.seat + 1) % len(self.players)]

    def pay_private_income(self):
        for c in self.companies.values():
            if c.owner is not None and not c.closed:
                c.owner.cash += c.spec.revenue

    def sell_private_from_bank(self, company, player, price: int):
        player.cash -= price
        self.replay.stock.acquire(company.sym, player.name, self.replay.action)


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
    return WaterfallAuction(AuctionTable(replay, cash, privates)), None


def play(auction, action) -> None:
    """One bid or pass through the shared round: a refusal is a finding (and changes
    nothing: ``Replay.purity_after``)."""
    from ...following.auction import WaterfallFollower
    engine, before = auction.game.replay.replayer, None
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
