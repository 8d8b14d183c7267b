"""1830: Railways & Robber Barons, the base of the 1830 family.

The round sequence is the family's own: a waterfall auction of the privates,
then stock rounds each followed by a set of 1, 2 or 3 operating rounds (the
phase decides).  Every number is in ``rules.yaml``; the map in ``board.yaml``.
"""

from __future__ import annotations

from pathlib import Path

from ...steps.companies import BuyCompanyStep
from ...steps.dividend import DividendStep
from ...steps.route import RouteStep
from ...steps.token import TokenStep
from ...steps.track import TrackStep
from ...steps.trains import BuyTrainStep
from ..base import Title


class Title1830(Title):
    id = "1830"
    aliases = ("1830: Railways & Robber Barons",)
    folder = Path(__file__).resolve().parent
    rounds_description = ("waterfall auction of the privates, then stock rounds each "
                          "followed by a set of operating rounds (1 to 3, by phase)")

    def auction_round(self):
        from ...rounds.auction_waterfall import WaterfallAuction
        return WaterfallAuction(self.game)

    def stock_round(self):
        from ...rounds.stock import StockRound
        return StockRound(self.game)

    def operating_steps(self) -> list:
        """A company's operating turn: lay track, place a station, run trains,
        pay out or withhold, buy trains; privates may be bought at any moment
        of the turn (in the phases that allow it)."""
        return [TrackStep, TokenStep, RouteStep, DividendStep, BuyTrainStep, BuyCompanyStep]

    def operating_round(self):
        from ...rounds.operating import OperatingRound
        return OperatingRound(self.game)
