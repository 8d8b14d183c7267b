"""18Ireland's private auction (docs/18Ireland.md A1-A9): 1830's waterfall
with three differences.

* Bids are multiples of 5 (``auction.bid_multiple``).
* Everybody passes after a private was bought: the privates nobody bid on
  leave the game (``auction.unbid_companies_removed``) and the others are
  settled; before any purchase the cheapest's price drops by 5 (as 1830's).
* Buying DK starts the DKR minor (``auction.dk_starts_dkr``): its buyer gets
  DKR's 40% president's certificate, DKR's par is the highest par value not
  above half the price paid, the price goes to DKR's treasury, and DKR buys
  the first train of the depot at once (DK then closes).  Nobody bought DK:
  DKR leaves the game after the auction.
"""

from __future__ import annotations

from ...findings import RuleViolation
from ...rounds.auction_waterfall import WaterfallAuction
from .shares import par_for_bid, start_minor


class Auction18Ireland(WaterfallAuction):

    def check_bid(self, player, company, price: int) -> list:
        g = self.game
        if g.rules.auction.bid_multiple and price % self.inc:
            raise RuleViolation("auction.bid_multiple",
                                f"bids are multiples of {g.money(self.inc)}; "
                                f"{g.money(price)} is not")
        return super().check_bid(player, company, price)

    def do_pass(self, player):
        g = self.game
        bought = any(c.owner is not None for c in self.order)
        if len(self.passed | {player}) >= len(g.players) and bought \
                and g.rules.auction.unbid_companies_removed:
            # everybody passed: the privates nobody bid on leave the game
            self.passed = set()
            self.next_turn()
            for c in self.unsold():
                if not self.bids[c.sym]:
                    g.close_company(c)
            self.after_sale()
            return
        super().do_pass(player)

    def sell(self, company, player, price):
        g = self.game
        free = (company.spec.special or {}).get("free_share") or {}
        if not (g.rules.auction.dk_starts_dkr and free.get("president")):
            return super().sell(company, player, price)
        corp = g.corporations[free["corporation"]]
        company.owner = player
        player.companies.append(company)
        self.bids[company.sym] = {}
        start_minor(g, corp, player, par_for_bid(g, price), price)
        # DKR buys the first train of the depot at once; DK closes
        train = g.depot_trains()[0]
        g.transfer(corp, g.bank, train.spec.price)
        g.give_train(train, corp)
        g.close_company(company)

    def finish(self):
        g = self.game
        for c in self.order:
            free = (c.spec.special or {}).get("free_share") or {}
            if c.owner is None and free.get("president") and g.rules.auction.dk_starts_dkr:
                corp = g.corporations[free["corporation"]]
                if corp.par is None:
                    g.title.remove_corporation(corp)
        super().finish()
