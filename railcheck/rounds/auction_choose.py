"""The choose-and-bid private auction (1857).

Player order is the seating order of the game header (the "drawn" order);
its first player is the first chooser.  The chooser names one unsold private
(``choose CO`` opens its auction with a bid of its face value, ``choose CO
PRICE`` with PRICE, at least the face value).  Then the others bid in seating
order from the player after the chooser: a bid is at least the high bid plus
``auction.min_increment`` and at most the bidder's cash; a pass drops the
player out of this private's auction for good.  Players who passed are
skipped.  When everybody but the high bidder has passed, the high bidder pays
the bid to the bank, takes the private (with its free share, if any) and
chooses the next private.  A chooser who cannot pay the face value of any
unsold private hands the choice on to the next player in seating order who
can.  When every private is sold, the player-order cards are dealt by cash,
most cash first (``mechanics.shares.order_players_by_cash``).

Ruleset keys (``auction:``): ``min_increment`` (the step of a bid),
``opening_bid`` (``face``: an opening bid of at least the face value, the
default; ``increment``: at least the face value plus the step) and ``after``
(``order_by_cash``, the default, or ``keep``: the drawn order stays).

A choice by anybody but the chooser (``auction.chooser``) and a bid out of
turn (``turn.order``, said by the record-following layer) are reported and
then taken as made, so that the rest of the record is checked as it stands;
a bid by a player who passed on the
private (``auction.passed``), too low (``auction.min_bid``) or over the
bidder's cash (``auction.cash``) is refused.
"""

from __future__ import annotations

from ..actions import Bid, Choose, Pass
from ..findings import RuleViolation
from . import AuctionRound


class ChooseAndBidAuction(AuctionRound):
    def __init__(self, game):
        super().__init__(game)
        g = game
        #: "face": an opening bid is at least the face value; "increment": at
        #: least the face value plus the minimum increment (1830's first bid)
        self.opening = g.rules.auction["opening_bid"]
        #: "order_by_cash": the player-order cards are dealt by cash afterwards;
        #: "keep": the drawn order stays
        self.after = g.rules.auction["after"]
        #: the private being auctioned now (None: waiting for a choice)
        self.lot = None
        self.high_bid = 0
        self.high_bidder = None
        self.passed: set = set()       # players out of the current lot's auction
        self.turn = None               # whose turn it is to bid
        self.chooser = g.seat_order[0] if g.seat_order else None
        #: (lot sym, winner name, price) of every private sold, in order
        self.sales: list[tuple[str, str, int]] = []

    @property
    def label(self) -> str:
        return "auction"

    # ------------------------------------------------------------------

    def start(self):
        self.settle_chooser()
        if not self.unsold():
            self.finish()

    def unsold(self):
        return [c for c in self.game.companies.values() if c.owner is None and not c.closed]

    def current_player(self):
        return self.turn if self.lot is not None else self.chooser

    def describe_turn(self) -> str:
        if self.lot is not None:
            return f"{self.turn.name} (bidding on {self.lot.sym})"
        return f"{self.chooser.name} (to choose a private)" if self.chooser else ""

    def min_opening(self, company) -> int:
        return company.value + (self.inc if self.opening == "increment" else 0)

    def can_open(self, player) -> bool:
        return any(self.min_opening(c) <= player.cash for c in self.unsold())

    def settle_chooser(self):
        """The choice passes on from a chooser who cannot afford any private."""
        g = self.game
        if self.chooser is None or not self.unsold():
            return
        p = self.chooser
        for _ in range(len(g.seat_order)):
            if self.can_open(p):
                self.chooser = p
                return
            p = g.next_player(p)
        # nobody can pay the face value of what is left: leave the choice where it was

    def active_bidders(self):
        return [p for p in self.game.seat_order if p not in self.passed]

    # ------------------------------------------------------------------

    def step_classes(self) -> list:
        from ..steps.stock import AuctionBidStep, PendingParStep
        return [PendingParStep, AuctionBidStep]

    def process(self, action):
        return self.process_by_step(action)

    def bid_kinds(self) -> tuple:
        return (Choose,) if self.lot is None else (Bid, Pass)

    def out_of_turn(self, action):
        """A bid or pass on the private up for auction by a bidder still in
        it, not the one whose turn it is: taken as made (his bid moves the
        turn on from him)."""
        player = self.game.player_by_name.get(action.actor)
        if not isinstance(action, (Bid, Pass)) or player is None or self.lot is None \
                or player in self.passed or player is self.high_bidder or player is self.turn \
                or self.blocking_step() is not None:
            return None
        return player, (f"{player.name} acted out of turn: it is {self.turn.name}'s turn to "
                        f"bid on {self.lot.sym} or pass")

    def check_bid_action(self, action):
        """Why a choice, a bid or a pass is refused (raise), else its plan for
        :meth:`apply_bid_action` (``AuctionBidStep``); changes nothing.  A
        bid out of turn is the record-following layer's to flag
        (``following/auction.py``)."""
        g = self.game
        if not isinstance(action, (Bid, Choose, Pass)):
            raise RuleViolation("auction.action",
                                f"only choose, bid and pass are allowed in the private auction, "
                                f"not '{action.verb}'")
        player = self.player(action.actor, "auction.actor")
        if isinstance(action, Choose):
            return ("choose", player, self.check_choose(player, action))
        if self.lot is None:
            who = self.chooser.name if self.chooser else "nobody"
            if isinstance(action, Pass):
                raise RuleViolation("auction.must_choose",
                                    f"no private is up for auction; {who} must choose the next "
                                    f"one ('{who} choose PRIVATE'); passing is not allowed")
            raise RuleViolation("auction.no_lot",
                                f"no private is up for auction: {who} first chooses one "
                                f"('{who} choose PRIVATE [PRICE]'), then the others bid")
        if player in self.passed:
            raise RuleViolation("auction.passed",
                                f"{player.name} passed on {self.lot.sym} and may not "
                                + ("bid on it again" if isinstance(action, Bid)
                                   else "act in its auction again"))
        if player is self.high_bidder:
            raise RuleViolation("auction.high_bidder",
                                f"{player.name} holds the high bid on {self.lot.sym} "
                                f"({g.money(self.high_bid)}) and waits for the others to bid "
                                f"or pass")
        if isinstance(action, Pass):
            return ("pass", player, None)
        return ("bid", player, self.check_bid(player, action))

    def apply_bid_action(self, action, plan) -> None:
        kind, player, detail = plan
        if kind == "choose":
            self.apply_choose(player, detail)
        elif kind == "pass":
            self.do_pass(player)
        else:
            self.high_bid = detail
            self.high_bidder = player
            self.turn = self.next_bidder(player)
            self.check_won()

    # ------------------------------------------------------------------

    def check_choose(self, player, action: Choose):
        """(the private, the opening bid, the note of a choice out of turn)."""
        g = self.game
        if self.lot is not None:
            raise RuleViolation("auction.in_progress",
                                f"{self.lot.sym} is being auctioned (high bid "
                                f"{g.money(self.high_bid)} by {self.high_bidder.name}); the next "
                                f"private is chosen when it is sold")
        company = self.company_for_sale(action.company)
        minimum = self.min_opening(company)
        price = action.price if action.price is not None else minimum
        if price < minimum:
            what = (f"its face value of {g.money(company.value)}" if minimum == company.value
                    else f"{g.money(minimum)} (its face value of {g.money(company.value)} plus "
                         f"{g.money(self.inc)})")
            raise RuleViolation("auction.min_bid",
                                f"the opening bid of {g.money(price)} on {company.sym} is below "
                                f"{what}", minimum=minimum)
        if g.short_of(player, price):
            raise RuleViolation("auction.cash",
                                f"{player.name} opens {company.sym} at {g.money(price)} but has "
                                f"{g.money(player.cash)}")
        note = None
        if player is not self.chooser:
            if not self.sales:
                why = "the first player of the drawn order chooses first"
            elif self.sales[-1][1] == self.chooser.name:
                why = f"{self.sales[-1][1]} won {self.sales[-1][0]} and chooses the next private"
            else:
                why = (f"{self.sales[-1][1]} won {self.sales[-1][0]} but cannot pay the face "
                       f"value of any private left, so the choice passed on")
            note = (f"{player.name} may not choose the next private: it is "
                    f"{self.chooser.name}'s choice ({why})")
        return company, price, note

    def apply_choose(self, player, plan) -> None:
        company, price, note = plan
        if note is not None:
            self.game.flag("auction.chooser", note)
        self.lot = company
        self.chooser = player
        self.high_bid = price
        self.high_bidder = player
        self.passed = set()
        self.turn = self.next_bidder(player)
        self.check_won()

    def check_bid(self, player, action: Bid) -> int:
        """The bid's price, or why it is refused (raise)."""
        g = self.game
        lot = self.lot
        if action.company != lot.sym:
            raise RuleViolation("auction.lot",
                                f"{lot.sym} is up for auction; {player.name} may bid only on it "
                                f"(or pass), not on {action.company}")
        if action.price is None:
            raise RuleViolation("auction.bid_price",
                                f"a bid needs a price: at least {g.money(self.high_bid + self.inc)} "
                                f"for {lot.sym}")
        minimum = self.high_bid + self.inc
        if action.price < minimum:
            raise RuleViolation("auction.min_bid",
                                f"bid of {g.money(action.price)} is too low: the high bid on "
                                f"{lot.sym} is {g.money(self.high_bid)} "
                                f"({self.high_bidder.name}), so the minimum bid is "
                                f"{g.money(minimum)}", minimum=minimum)
        if g.short_of(player, action.price):
            raise RuleViolation("auction.cash",
                                f"{player.name} bids {g.money(action.price)} on {lot.sym} but has "
                                f"{g.money(player.cash)}")
        return action.price

    def do_pass(self, player):
        self.passed.add(player)
        self.turn = self.next_bidder(player)
        self.check_won()

    def check_won(self):
        """Everybody but the high bidder has passed: the lot is sold."""
        others = [p for p in self.active_bidders() if p is not self.high_bidder]
        if others:
            return
        winner, price, lot = self.high_bidder, self.high_bid, self.lot
        self.lot = None
        self.high_bidder = None
        self.high_bid = 0
        self.passed = set()
        self.turn = None
        self.sell(lot, winner, price)
        self.sales.append((lot.sym, winner.name, price))
        self.chooser = winner
        if not self.unsold():
            self.finish()
        else:
            self.settle_chooser()

    # ------------------------------------------------------------------

    def sell(self, company, player, price):
        """The winner pays the bank and takes the private with its free
        share (1830's CA: a PRR share; BO: the B&O president's certificate,
        whose par the winner sets next)."""
        self.game.sell_private_from_bank(company, player, price)

    def finish(self):
        from ..mechanics.shares import order_players_by_cash
        if self.after == "order_by_cash":
            order_players_by_cash(self.game)
        self.finished = True


