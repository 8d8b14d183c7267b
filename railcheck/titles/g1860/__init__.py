"""1860: Railways on the Isle of Wight.

The rounds: a bid-for-turn auction of four privates and two president's
certificates, then stock rounds each followed by 1 to 3 operating rounds (the
phase decides); once nationalisation ("British Rail") begins, only operating
rounds.  Every number is in ``rules.yaml``; the map in ``board.yaml``; the
rules and the choices made are in docs/1860.md.
"""

from __future__ import annotations

from pathlib import Path

from ..base import Title


class Title1860(Title):
    id = "1860"
    aliases = ("1860: Railways on the Isle of Wight",)
    folder = Path(__file__).resolve().parent
    rounds_description = ("bid-for-turn auction of four privates and the C&N and IOW "
                          "president's certificates, then stock rounds each followed by 1 to "
                          "3 operating rounds (by phase); after the Southern Railway forms, "
                          "nationalisation: operating rounds only")
    events = ("fishbourne_to_bank", "relax_cert_limit", "southern_forms")
    implements = {"stock.president_sales_to_market": (True,)}

    def setup(self):
        g = self.game
        # the engine's bank is unchecked: it holds twice the break limit less
        # the players' starting cash (the break test counts the players' cash,
        # ruleset ``bank_counts: players_cash``)
        if g.rules.raw["bank_counts"] == "players_cash":
            g.bank.cash += g.rules.bank

    def stock_round(self):
        from .stock import StockRound1860
        return StockRound1860(self.game)

    def auction_round(self):
        from .auction import BidForTurnAuction
        return BidForTurnAuction(self.game)
