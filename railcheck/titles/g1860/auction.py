"""1860's opening: players bid for the turn, the winner takes one item.

The items (``auction.items``) are privates and president's certificates.
An auction is for the right to buy one of them.  It opens with the player in
turn; in seating order each player still in it bids (at least
``auction.min_increment`` over the highest bid, the first bid at least that
much; at most his cash less the price of the cheapest item left) or passes
and leaves this auction.  When one bidder is left he pays his bid to the
bank and must buy an item: a private at its face value (``bid PRIVATE``) or a
president's certificate (``par``: a par from the corporation's section range,
paying twice the par).  If everybody passes without a bid, the player who
opened the auction wins it for nothing; if he cannot afford any item he must
take the cheapest and pays all his cash (a certificate at the lowest par).
The next auction opens with the player after the buyer.  When every item is
sold, priority goes to the player with the most cash; on a tie for the most,
to the player, of all players owning a private, whose privates have the
lowest total face value (the 2nd edition's rule as tobymao/18xx issue #1791
records it: "across all players"; the engine does the same), the first in
seating order of several such.
"""

from __future__ import annotations

from ...actions import Bid, BidForTurn, Par, Pass
from ...findings import RuleViolation
from ...rounds import AuctionRound
from ...steps.base import Step
from .shares import par_range


class BidForTurnAuction(AuctionRound):
    def __init__(self, game):
        super().__init__(game)
        g = game
        self.items: list[str] = [str(i) for i in g.rules.auction["items"]]
        self.opener = g.seat_order[0]
        self.turn = self.opener
        self.high_bid = 0
        self.high_bidder = None
        self.passed: set = set()
        #: the player who won the current auction and must now buy
        self.winner = None

    # ------------------------------------------------------------------

    def unsold(self):
        return [self.game.companies[s] for s in self.items if s in self.game.companies]

    def wants(self, action) -> bool:
        return isinstance(action, (Bid, BidForTurn, Par, Pass)) and bool(self.items)

    def describe_turn(self) -> str:
        if self.winner is not None:
            return f"{self.winner.name} (to buy an item)"
        return f"{self.turn.name} (bidding for the turn)" if self.turn else ""

    def item_price(self, sym: str) -> int:
        """The least an item costs: a private's face value, twice the lowest
        par of a president's certificate."""
        g = self.game
        if sym in g.companies:
            return g.companies[sym].value
        corp = g.corporations[sym]
        return 2 * par_range(g, corp)[0]

    def whose_turn(self):
        return self.winner if self.winner is not None else self.turn

    def out_of_turn(self, action):
        """A bid for the turn or a pass by a player whose turn it is not:
        taken as made (it moves the turn on from him)."""
        player = self.game.player_by_name.get(action.actor)
        if self.winner is not None or not isinstance(action, (BidForTurn, Pass)) \
                or player is None or player is self.turn:
            return None
        return player, (f"{player.name} acted out of turn: it is {self.turn.name}'s turn to "
                        f"bid for the turn or pass")

    def cheapest(self) -> int:
        return min(self.item_price(s) for s in self.items)

    def least_bids(self, player, n: int) -> list:
        """The ``n`` least bids for the turn ``player`` may make now: from
        the high bid and a step, a step at a time, up to his cash."""
        if self.winner is not None or player is None:
            return []
        first = self.high_bid + self.inc
        return [BidForTurn(actor=player.name, price=p)
                for p in range(first, first + n * self.inc, self.inc) if p <= player.cash]

    # ------------------------------------------------------------------

    def step_classes(self) -> list:
        return [WinnerBuysStep, BidForTurnStep]

    action_rule = "auction.action"

    def process(self, action):
        return self.process_by_step(action)

    def settle(self):
        """One bidder left: he wins and pays; everybody passed: the opener
        wins for nothing."""
        g = self.game
        left = [p for p in g.seat_order if p not in self.passed]
        if self.high_bidder is not None and left == [self.high_bidder]:
            self.winner = self.high_bidder
            g.transfer(self.winner, g.bank, self.high_bid)
        elif not left:
            self.winner = self.opener
            self.high_bid = 0

    def check_buy(self, player, action):
        """Why the winner may not buy the item so (raise), else the plan for
        :meth:`apply_buy`: ("private", company, price, the notes of what
        is taken as written: a price the record gives) or ("par", corp,
        par, cost)."""
        g = self.game
        free_pass = self.high_bidder is None
        broke = free_pass and player.cash < self.cheapest()
        takes = g.rules.auction.winner_buys
        if isinstance(action, Bid):
            sym = action.company
            if sym not in self.items or sym not in g.companies:
                raise RuleViolation("auction.sold",
                                    f"{sym} is not for sale here; left: {', '.join(self.items)}")
            if "company_at_face" not in takes:
                raise RuleViolation("auction.sold",
                                    f"{sym} is not for sale here: the winner takes a president's "
                                    f"certificate (auction.winner_buys)")
            company = g.companies[sym]
            price = company.value
            if broke:
                if price != self.cheapest():
                    raise RuleViolation("auction.cash",
                                        f"{player.name} cannot afford any item and must take the "
                                        f"cheapest")
                price = player.cash
            elif action.price is not None and action.price != company.value:
                # L4: the private at its face value.  The record says it was
                # bought: it is taken at the written price, at most the
                # buyer's cash, as 18xx.games takes it (the state stays the
                # engine's; before, the purchase was refused and every later
                # action of the auction was "must buy"): flagged when applied
                price = min(max(action.price, 0), player.cash)
                return ("private", company, price,
                        [("auction.price",
                          f"{sym} is sold at its face value {g.money(company.value)}, not "
                          f"{g.money(action.price)} (18xx.games takes the written price, at "
                          f"most the buyer's cash); taken at {g.money(price)}")])
            if price > player.cash:
                raise RuleViolation("auction.cash",
                                    f"{player.name} has {g.money(player.cash)}, {sym} costs "
                                    f"{g.money(price)}")
            return ("private", company, price, [])
        else:
            sym = action.corporation
            if sym not in self.items:
                raise RuleViolation("auction.sold",
                                    f"{sym} is not for sale here; left: {', '.join(self.items)}")
            if "president_certificate" not in takes:
                raise RuleViolation("auction.sold",
                                    f"{sym} is not for sale here: the winner takes a private at "
                                    f"its face value (auction.winner_buys)")
            corp = g.corporations[sym]
            low, high = par_range(g, corp)
            if not low <= action.price <= high or g.market.par_cell(action.price) is None:
                raise RuleViolation("stock.par_price",
                                    f"{g.money(action.price)} is not a par value of {sym}'s "
                                    f"section ({g.money(low)} to {g.money(high)})")
            cost = 2 * action.price
            if broke:
                if action.price != low or cost != self.cheapest():
                    raise RuleViolation("auction.cash",
                                        f"{player.name} cannot afford any item and must take the "
                                        f"cheapest at the lowest par")
                cost = player.cash
            if cost > player.cash:
                raise RuleViolation("auction.cash",
                                    f"{player.name} has {g.money(player.cash)}; the president's "
                                    f"certificate of {sym} at {g.money(action.price)} costs "
                                    f"{g.money(cost)}")
            return ("par", corp, action.price, cost)

    def apply_buy(self, player, plan) -> None:
        g = self.game
        if plan[0] == "private":
            _, company, price, notes = plan
            for rule, message in notes:
                g.flag(rule, message)
            g.sell_private_from_bank(company, player, price)
            sym = company.sym
        else:
            _, corp, par, cost = plan
            from ...mechanics.shares import set_par
            set_par(g, corp, par)
            g.transfer(player, g.bank, cost)
            corp.certs[0].owner = player
            corp.president = player
            sym = corp.sym
        self.items.remove(sym)
        self.winner = None
        self.high_bid = 0
        self.high_bidder = None
        self.passed = set()
        self.opener = self.turn = g.next_player(player)
        if not self.items:
            self.finish()

    def finish(self):
        g = self.game
        if g.rules.auction["after"] == "priority_most_cash":
            most = max(p.cash for p in g.seat_order)
            rich = [p for p in g.seat_order if p.cash == most]
            owners = [p for p in g.seat_order
                      if any(not c.closed for c in p.companies)]
            if len(rich) == 1 or not owners:
                g.priority = rich[0]
            else:
                # a tie for the most cash: the lowest face value of privates
                # among all players owning one, tied or not (L7)
                g.priority = min(owners, key=lambda p: sum(
                    c.value for c in p.companies if not c.closed))
        self.finished = True


# ---------------------------------------------------------------------------
# the two steps of an auction for the turn

def _auction_action(step, action):
    """The acting player of a bid, a bid for the turn, a par or a pass;
    any other action has no place in the auction."""
    if not isinstance(action, (Bid, BidForTurn, Par, Pass)):
        raise RuleViolation("auction.action",
                            f"only bids, passes and the winner's purchase are allowed in the "
                            f"auction, not '{action.verb}'")
    return step.round.player(action.actor, "auction.actor")


class WinnerBuysStep(Step):
    """The winner of the turn buys one item (L4): a private at its face
    value or a president's certificate with its par; nothing else happens
    first."""

    only_blocking = True
    name = "buying an item"
    actions = (Bid, Par)

    def blocking(self) -> bool:
        return self.round.winner is not None

    def owns(self, action) -> bool:
        return self.blocking()

    def check(self, turn, action):
        rnd = self.round
        player = _auction_action(self, action)
        if player is not rnd.winner:
            raise RuleViolation("auction.must_buy",
                                f"{rnd.winner.name} won the turn and must first buy an item")
        if isinstance(action, (BidForTurn, Pass)):
            raise RuleViolation("auction.must_buy",
                                f"{player.name} won the turn and must buy an item "
                                f"({', '.join(rnd.items)})")
        return player, rnd.check_buy(player, action)

    def apply(self, turn, action, plan) -> None:
        player, buy = plan
        self.round.apply_buy(player, buy)


class BidForTurnStep(Step):
    """Bids for the turn in seating order, at least ``min_increment`` over
    the highest and at most the cash less the cheapest item left, or a pass
    that leaves this auction (L3)."""

    name = "bidding for the turn"
    actions = None

    def takes(self, turn) -> tuple:
        return (BidForTurn, Pass)

    def check(self, turn, action):
        rnd, g = self.round, self.game
        player = _auction_action(self, action)
        if isinstance(action, (Bid, Par)):
            raise RuleViolation("auction.no_winner",
                                f"nobody has won the turn yet: {rnd.turn.name} bids or passes")
        # (a bid out of turn is the record-following layer's to flag)
        if isinstance(action, Pass):
            return player, []
        minimum = rnd.high_bid + rnd.inc
        notes = []
        if action.price is None or action.price <= 0:
            raise RuleViolation("auction.min_bid",
                                f"a bid for the turn needs a price of at least {g.money(minimum)}",
                                minimum=minimum)
        if action.price < minimum:
            # the record goes on from the bid as made: flagged, and taken so
            notes.append(("auction.min_bid",
                          f"bid of {g.money(action.price)} is too low: the minimum bid is "
                          f"{g.money(minimum)}; taken as bid, as the record says"))
        if g.rules.auction.max_bid == "cash_less_cheapest_item":
            most = player.cash - rnd.cheapest()
            if action.price > most:
                raise RuleViolation("auction.cash",
                                    f"{player.name} bids {g.money(action.price)} but may bid at "
                                    f"most {g.money(most)} (cash {g.money(player.cash)} less the "
                                    f"cheapest item left, {g.money(rnd.cheapest())})")
        elif action.price > player.cash:
            raise RuleViolation("auction.cash",
                                f"{player.name} bids {g.money(action.price)} but has "
                                f"{g.money(player.cash)}")
        return player, notes

    def apply(self, turn, action, plan) -> None:
        rnd = self.round
        player, notes = plan
        for rule, message in notes:
            self.game.flag(rule, message)
        if isinstance(action, Pass):
            rnd.passed.add(player)
            rnd.turn = rnd.next_bidder(player)
            rnd.settle()
            return
        rnd.high_bid = action.price
        rnd.high_bidder = player
        rnd.turn = rnd.next_bidder(player)
        rnd.settle()
