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
from ..findings import INFO, RuleViolation
from . import AuctionRound


class WaterfallAuction(AuctionRound):
    kind = "auction"

    def __init__(self, game):
        super().__init__(game)
        #: (action, bidder) of a line written in another player's turn (a
        #: wrong name): taken as that bidder's, or (action, None) as the
        #: writer's with the turn order kept (a bid then taken as the turn's
        #: player's when he could make it: bid_as)
        self.stand_in = None
        g = game
        self.order = sorted((c for c in g.companies.values()), key=lambda c: c.value)
        self.bids: dict = {c.sym: {} for c in self.order}   # sym -> {player: amount}
        self.turn_index = 0          # index into players of whose turn it is
        self.passed: set = set()
        self.auctioning = None       # company being resolved among several bidders
        self.auction_bidders: list = []
        self.inc = g.rules.auction["min_increment"]

    @property
    def label(self) -> str:
        return "auction"

    # ------------------------------------------------------------------

    def unsold(self):
        return [c for c in self.order if c.owner is None and not c.closed]

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

    def prepare(self, action):
        """Whose turn it is, as the record implies: a player acting out of
        turn is flagged and takes the turn (the record says they acted); while
        a private is auctioned among its bidders, only a bidder can."""
        g = self.game
        player = g.player_by_name.get(action.actor)
        if player is None or self.blocking_step() is not None \
                or not isinstance(action, (Bid, Pass)) or player is self.current_player():
            return
        if self.prepared is action:
            return          # once per action (the engine and process both ask)
        self.prepared = action
        nxt = getattr(g.next_action, "actor", None)
        cur = self.current_player()
        if self.auctioning is not None and player not in self.auction_bidders:
            if isinstance(action, Pass) or (nxt is not None and nxt != player.name
                                            and nxt in g.player_by_name):
                # the record goes on without them: the line was written in the
                # current bidder's turn under a wrong name
                g.flag("turn.order", f"{player.name} acted out of turn: it is "
                                     f"{self.describe_turn()}'s turn in the auction; the "
                                     f"record goes on without {player.name}: taken as "
                                     f"{cur.name}'s")
                self.stand_in = (action, cur)
            return          # else refused by process: not a bidder
        g.flag("turn.order", f"{player.name} acted out of turn: it is "
                             f"{self.describe_turn()}'s turn in the auction")
        players = g.players
        after_current = players[(self.turn_index + 1) % len(players)].name
        after_actor = players[(player.seat + 1) % len(players)].name
        if self.auctioning is None and nxt == after_current and nxt != after_actor:
            # the record goes on from the current player's successor: the line
            # was written in the current player's turn; the order stays
            self.stand_in = (action, None)
            return
        bidders = self.auction_bidders
        if self.auctioning is not None and cur in bidders and nxt != player.name \
                and nxt == bidders[(bidders.index(cur) + 1) % len(bidders)].name:
            # a bidder in another bidder's turn, and the record does not go on
            # with them: written in the current bidder's turn under a wrong name
            self.stand_in = (action, cur)
            return
        if self.auctioning is not None:
            self.auction_bidders.remove(player)
            self.auction_bidders.insert(0, player)
        else:
            self.turn_index = player.seat

    def step_classes(self) -> list:
        from ..steps.stock import AuctionBidStep, PendingParStep
        return [PendingParStep, AuctionBidStep]

    def process(self, action):
        return self.process_by_step(action)

    def bid_action(self, action):
        """A bid, a purchase of the cheapest or a pass (``AuctionBidStep``)."""
        if not isinstance(action, (Bid, Pass)):
            raise RuleViolation("auction.action",
                                f"only bids and passes are allowed in the private auction, not "
                                f"'{action.verb}'")
        player = self.player(action.actor, "auction.actor")
        self.prepare(action)
        stand_in = self.stand_in
        if stand_in is not None and stand_in[0] is action:
            if stand_in[1] is not None:     # taken as the current bidder's
                player = stand_in[1]
            elif isinstance(action, Pass):
                return self.do_pass(player)
            else:
                cur = self.current_player()
                if cur is not player and self.bid_as(cur, action):
                    return
                return self.do_bid(player, action)
        if self.current_player() is not player:
            raise RuleViolation("turn.order",
                                f"{player.name} acted out of turn: {company_name(self)} is "
                                f"being auctioned among its bidders and it is "
                                f"{self.describe_turn()}'s turn")
        if self.auctioning is not None:
            return self.process_resolution(player, action)
        if isinstance(action, Pass):
            return self.do_pass(player)
        return self.do_bid(player, action)

    # ------------------------------------------------------------------

    def bid_as(self, owner, action) -> bool:
        """A bid written under another name in ``owner``'s turn, the record
        going on from his successor: when ``owner`` could make it with no
        finding, it is taken as his (a wrong name), so the bids and cash
        after it are those the record goes on from.  False: nothing done."""
        g = self.game
        if not g.clean_attempt(lambda: self.do_bid(owner, action))[0]:
            return False
        # said apart (an info): the turn.order finding keeps its words
        g.flag("turn.order", f"the record goes on from {owner.name}'s successor and "
                             f"{owner.name} could make this bid: taken as {owner.name}'s "
                             f"(a wrong name)", INFO)
        return True

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
        g = self.game
        company = self.company(action.company)
        if company.owner is not None or company.closed:
            owner = company.owner.name if company.owner is not None else "nobody (closed)"
            raise RuleViolation("auction.sold", f"{company.sym} is already owned by {owner}")
        cheapest = self.cheapest()
        price = action.price
        if company is cheapest:
            if price is None:
                price = company.price
            if price != company.price:
                # the players paid what they wrote: flagged, and the game goes on with it
                g.flag("auction.buy_price",
                       f"{company.sym} is the cheapest private and is bought at its price "
                       f"{g.money(company.price)}, not {g.money(price)}")
            available = player.cash - self.committed(player)
            if available < price:
                raise RuleViolation("auction.cash",
                                    f"{player.name} has {g.money(player.cash)}"
                                    + (f" ({g.money(available)} not committed to bids)"
                                       if available != player.cash else "")
                                    + f", {company.sym} costs {g.money(price)}")
            self.passed.discard(player)
            self.sell(company, player, price)
            self.next_turn()
            self.after_sale()
            return
        if price is None:
            raise RuleViolation("auction.buy_not_cheapest",
                                f"only the cheapest private ({cheapest.sym} at "
                                f"{g.money(cheapest.price)}) can be bought outright; "
                                f"{company.sym} needs a bid")
        current = self.bids[company.sym]
        self.check_bid(player, company, price)
        current.pop(player, None)       # the bids are kept in the order they were made
        current[player] = price
        self.passed.discard(player)
        self.next_turn()

    def check_bid(self, player, company, price: int):
        """At least ``min_increment`` over the highest bid (or the face value),
        and within the cash not committed to bids on other privates."""
        g = self.game
        current = self.bids[company.sym]
        highest = max(current.values()) if current else company.value
        minimum = highest + self.inc
        if price < minimum:
            # the table took the bid as written: flagged, and the auction goes on with it
            what = (f"the highest bid on {company.sym} is {g.money(highest)}" if current
                    else f"{company.sym}'s face value is {g.money(company.value)}")
            g.flag("auction.min_bid",
                   f"bid of {g.money(price)} is too low: {what}, so the minimum "
                   f"bid is {g.money(minimum)}")
        available = player.cash - self.committed(player, except_company=company.sym)
        if price > available:
            raise RuleViolation("auction.cash",
                                f"{player.name} bids {g.money(price)} but has only "
                                f"{g.money(available)} not committed to other bids")

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

    def process_resolution(self, player, action):
        company = self.auctioning
        bids = self.bids[company.sym]
        if isinstance(action, Pass):
            del bids[player]
            self.auction_bidders.remove(player)
        else:
            if action.company != company.sym:
                raise RuleViolation("auction.resolving",
                                    f"{company.sym} is being auctioned among its bidders; "
                                    f"{player.name} may only bid on it or pass")
            if action.price is None:
                raise RuleViolation("auction.min_bid",
                                    f"{company.sym} is being auctioned among its bidders; a bid "
                                    f"on it needs a price")
            price = action.price
            self.check_bid(player, company, price)
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
