"""The 1830 waterfall private auction.

Privates are offered cheapest first.  On their turn players buy the cheapest
unsold private at its price, bid on a dearer one (at least ``min_increment``
over its face or over the highest bid on it; bids stay committed), or pass.
When the cheapest is bought, the next one is resolved: no bid -> it is the
new cheapest; one bid -> sold to that bidder at the bid; several -> the
bidders raise in turn (lowest bid first) until one is left.  A bid under
the minimum is reported and taken as written (the record goes on with it);
a bid over the bidder's uncommitted cash is refused.  When everybody
passes in a row, the cheapest private's price drops by ``price_drop_on_all_pass``
if it is the first private (1830's SV); otherwise the privates pay their
income and the auction goes on.
"""

from __future__ import annotations

from ..actions import Bid, Pass
from ..findings import RuleViolation, did_you_mean
from . import AuctionRound


class WaterfallAuction(AuctionRound):
    def __init__(self, game):
        super().__init__(game)
        g = game
        self.order = sorted(g.auction_companies(), key=lambda c: c.value)
        self.bids: dict = {c.sym: {} for c in self.order}   # sym -> {player: amount}
        self.turn_index = 0          # index into players of whose turn it is
        self.passed: set = set()
        self.auctioning = None       # company being resolved among several bidders
        self.auction_bidders: list = []

    @property
    def label(self) -> str:
        return "auction"

    # ------------------------------------------------------------------

    def unsold(self):
        return [c for c in self.order if c.owner is None and not c.closed]

    def company(self, sym: str):
        """The private ``sym`` of the auction (its ``order``, the game's
        ``auction_companies``); a company of the game the auction does not
        sell is unknown to it."""
        comp = super().company(sym)
        if comp not in self.order:
            raise RuleViolation("name.unknown", f"unknown private '{sym}'"
                                + did_you_mean(sym, {c.sym: c for c in self.order}))
        return comp

    def cheapest(self):
        u = self.unsold()
        return u[0] if u else None

    def current_player(self):
        if self.auctioning is not None:
            return self.auction_bidders[0]
        return self.game.players[self.turn_index % len(self.game.players)]

    def describe_turn(self) -> str:
        p = self.current_player()
        if self.auctioning is not None:
            return f"{p.name} (bidding for {self.auctioning.sym})"
        return p.name

    def committed(self, player, except_company=None) -> int:
        return sum(b.get(player, 0) for sym, b in self.bids.items() if sym != except_company)

    # ------------------------------------------------------------------

    def step_classes(self) -> list:
        from ..steps.stock import AuctionBidStep, PendingParStep
        return [PendingParStep, AuctionBidStep]

    def process(self, action):
        placed = self.placed
        if placed is not None and placed[0] is action and placed[2] == "done":
            # made already as the turn's player's bid (the record-following
            # layer's reading of a line under another name): a par it leaves
            # pending is the record's next line's, not this one's
            return None
        return self.process_by_step(action)

    def check_bid_action(self, action):
        """Why a bid, a purchase of the cheapest or a pass is refused (raise),
        else its plan for :meth:`apply_bid_action` (``AuctionBidStep``);
        changes nothing."""
        if not isinstance(action, (Bid, Pass)):
            raise RuleViolation("auction.action",
                                f"only bids and passes are allowed in the private auction, not "
                                f"'{action.verb}'")
        player = self.player(action.actor, "auction.actor")
        placed = self.placed
        if placed is not None and placed[0] is action:
            # the record-following layer's reading of a line under another
            # name (``following/auction.py``)
            _, who, how = placed
            if how == "done":
                return ("done", player, None)     # made already as the turn's player's bid
            if how == "as":
                player = who        # taken as the current bidder's
            elif isinstance(action, Pass):
                return ("pass", player, None)     # the writer's, the order kept
            else:
                return ("bid", player, self.check_bid_or_buy(player, action))
        if self.current_player() is not player:
            raise RuleViolation("turn.order",
                                f"{player.name} acted out of turn: {company_name(self)} is "
                                f"being auctioned among its bidders and it is "
                                f"{self.describe_turn()}'s turn")
        if self.auctioning is not None:
            return ("resolve", player, self.check_resolution(player, action))
        if isinstance(action, Pass):
            return ("pass", player, None)
        return ("bid", player, self.check_bid_or_buy(player, action))

    def apply_bid_action(self, action, plan) -> None:
        kind, player, detail = plan
        if kind == "pass":
            self.do_pass(player)
        elif kind == "bid":
            self.apply_bid_or_buy(player, detail)
        elif kind == "resolve":
            self.apply_resolution(player, detail)

    # ------------------------------------------------------------------

    def take_turn(self, player) -> None:
        """``player`` bids next (the record has them act): among the bidders
        of the private being auctioned, or in the auction's turn order."""
        if self.auctioning is not None:
            self.auction_bidders.remove(player)
            self.auction_bidders.insert(0, player)
        else:
            self.turn_index = player.seat

    def next_turn(self):
        self.turn_index = (self.turn_index + 1) % len(self.game.players)

    def do_pass(self, player):
        g = self.game
        self.passed.add(player)
        self.next_turn()
        if len(self.passed) >= len(g.players):
            self.passed = set()
            cheapest = self.cheapest()
            drop = g.rules.auction["price_drop_on_all_pass"]
            if cheapest is self.order[0] and drop:
                cheapest.price = max(0, cheapest.price - drop)
                if cheapest.price == 0:
                    # the next player must take it for nothing
                    taker = self.current_player()
                    self.sell(cheapest, taker, 0)
                    self.next_turn()
                    self.after_sale()
            else:
                g.pay_private_income()

    def do_bid(self, player, action: Bid):
        """A bid or a purchase of the cheapest, checked and made."""
        self.apply_bid_or_buy(player, self.check_bid_or_buy(player, action))

    def check_bid_or_buy(self, player, action: Bid):
        """Why ``player`` may not bid so, or buy the cheapest (raise), else
        the plan: ("buy" or "bid", company, price, the notes of what is
        taken as written)."""
        g = self.game
        company = self.company_for_sale(action.company)
        cheapest = self.cheapest()
        price = action.price
        if company is cheapest:
            if price is None:
                price = company.price
            notes = []
            if price != company.price:
                # the players paid what they wrote: flagged, and the game goes on with it
                notes.append(("auction.buy_price",
                              f"{company.sym} is the cheapest private and is bought at its "
                              f"price {g.money(company.price)}, not {g.money(price)}; "
                              f"taken as paid"))
            available = player.cash - self.committed(player)
            if available < price:
                raise RuleViolation("auction.cash",
                                    f"{player.name} has {g.money(player.cash)}"
                                    + (f" ({g.money(available)} not committed to bids)"
                                       if available != player.cash else "")
                                    + f", {company.sym} costs {g.money(price)}")
            return ("buy", company, price, notes)
        if price is None:
            raise RuleViolation("auction.buy_not_cheapest",
                                f"only the cheapest private ({cheapest.sym} at "
                                f"{g.money(cheapest.price)}) can be bought outright; "
                                f"{company.sym} needs a bid")
        return ("bid", company, price, self.check_bid(player, company, price))

    def apply_bid_or_buy(self, player, plan) -> None:
        kind, company, price, notes = plan
        self.flag_notes(notes)
        if kind == "buy":
            self.passed.discard(player)
            self.sell(company, player, price)
            self.next_turn()
            self.after_sale()
            return
        current = self.bids[company.sym]
        current.pop(player, None)       # the bids are kept in the order they were made
        current[player] = price
        self.passed.discard(player)
        self.next_turn()

    def check_bid(self, player, company, price: int) -> list:
        """At least ``min_increment`` over the highest bid (or the face value),
        and within the cash not committed to bids on other privates: a bid
        over that cash is refused (raise); the notes of what is taken as
        written (a bid under the minimum)."""
        g = self.game
        current = self.bids[company.sym]
        highest = max(current.values()) if current else company.value
        minimum = highest + self.inc
        notes = []
        if price < minimum:
            # the table took the bid as written: flagged, and the auction goes on with it
            what = (f"the highest bid on {company.sym} is {g.money(highest)}" if current
                    else f"{company.sym}'s face value is {g.money(company.value)}")
            notes.append(("auction.min_bid",
                          f"bid of {g.money(price)} is too low: {what}, so the minimum "
                          f"bid is {g.money(minimum)}"))
        available = player.cash - self.committed(player, except_company=company.sym)
        if price > available:
            raise RuleViolation("auction.cash",
                                f"{player.name} bids {g.money(price)} but has only "
                                f"{g.money(available)} not committed to other bids")
        return notes

    def flag_notes(self, notes) -> None:
        for rule, message in notes:
            self.game.flag(rule, message)

    # ------------------------------------------------------------------

    def sell(self, company, player, price):
        self.game.sell_private_from_bank(company, player, price)
        self.bids[company.sym] = {}

    def resume_after(self, buyer):
        """A private sold to its bidders: with ``resume_after_resolution:
        last_buyer`` play goes on left of its buyer (else where it was)."""
        if self.game.rules.auction.resume_after_resolution == "last_buyer":
            self.turn_index = (buyer.seat + 1) % len(self.game.players)

    def after_sale(self):
        """Resolve the bids on the new cheapest private(s)."""
        while True:
            nxt = self.cheapest()
            if nxt is None:
                self.finish()
                return
            bids = self.bids[nxt.sym]
            if not bids:
                return
            if len(bids) == 1:
                (bidder, amount), = bids.items()
                self.sell(nxt, bidder, amount)
                self.resume_after(bidder)
                continue
            self.auctioning = nxt
            # lowest bid first; a tie (only after a bid under the minimum) goes
            # to the earlier bid, as a later bid is meant to be the higher one
            order = list(bids)
            self.auction_bidders = sorted(bids, key=lambda p: (bids[p], order.index(p)))
            return

    def check_resolution(self, player, action):
        """A bid or a pass while a private is auctioned among its bidders:
        refused (raise), else (price or None for a pass, the notes)."""
        company = self.auctioning
        if isinstance(action, Pass):
            return None, []
        if action.company != company.sym:
            raise RuleViolation("auction.resolving",
                                f"{company.sym} is being auctioned among its bidders; "
                                f"{player.name} may only bid on it or pass")
        if action.price is None:
            raise RuleViolation("auction.min_bid",
                                f"{company.sym} is being auctioned among its bidders; a bid "
                                f"on it needs a price")
        return action.price, self.check_bid(player, company, action.price)

    def apply_resolution(self, player, plan) -> None:
        company = self.auctioning
        bids = self.bids[company.sym]
        price, notes = plan
        if price is None:
            del bids[player]
            self.auction_bidders.remove(player)
        else:
            self.flag_notes(notes)
            bids[player] = price
            self.auction_bidders.remove(player)
            self.auction_bidders.append(player)
        if len(self.auction_bidders) == 1:
            winner = self.auction_bidders[0]
            amount = bids[winner]
            self.auctioning = None
            self.auction_bidders = []
            self.sell(company, winner, amount)
            self.resume_after(winner)
            self.after_sale()

    def finish(self):
        g = self.game
        # the seat pointer: after the last direct purchase (auction resolutions do not move it)
        g.priority = g.players[self.turn_index % len(g.players)]
        self.finished = True


def company_name(auction) -> str:
    return auction.auctioning.sym if auction.auctioning is not None else "?"
