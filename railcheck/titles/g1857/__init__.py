"""1857: 1830's board and economy with a choose-and-bid auction and player
order by cash (the Polish summary ``1857 – skrót zasad v2``).

Its ruleset extends 1830's (seating by cash is the ruleset's
``stock.next_sr_order: cash``); the class changes only the auction.
"""

from __future__ import annotations

from pathlib import Path

from ..g1830 import Title1830


class Title1857(Title1830):
    id = "1857"
    folder = Path(__file__).resolve().parent
    rounds_description = ("choose-and-bid auction of the privates, then stock rounds each "
                          "followed by a set of operating rounds (1 to 3, by phase)")

    def auction_round(self):
        from ...rounds.auction_choose import ChooseAndBidAuction
        return ChooseAndBidAuction(self.game)
