"""Which follower follows a round (``following/base.py``): by the round's
class, the most specific known."""

from __future__ import annotations

from ..rounds import AuctionRound
from ..rounds.auction_waterfall import WaterfallAuction
from ..rounds.operating import OperatingRound
from ..rounds.stock import StockRound
from .auction import AuctionFollower, WaterfallFollower
from .base import RoundFollower
from .operating import OperatingFollower
from .stock import StockFollower

#: (round class, its follower), the most specific first
FOLLOWERS = ((StockRound, StockFollower), (OperatingRound, OperatingFollower),
             (WaterfallAuction, WaterfallFollower), (AuctionRound, AuctionFollower))


def follower_for(rnd) -> RoundFollower:
    """The follower of a round, by its class (the most specific known)."""
    for cls, follower in FOLLOWERS:
        if isinstance(rnd, cls):
            return follower(rnd)
    return RoundFollower(rnd)
