"""The steps of a stock round (``rounds/stock.py``) and of the private
auctions: what every title shares.  A title's round adds its own (1860's
home track and privates sold to the bank, 18Ireland's minor auctions and
home stations) by listing them in ``step_classes``."""

from __future__ import annotations

from ..actions import Exchange, Par
from ..mechanics.shares import process_pending_par
from .base import RoundStep


class PendingParStep(RoundStep):
    """A player was given a president's certificate (1830's B&O with its
    private): he sets its par before anything else happens."""

    name = "setting a par"
    actions = (Par,)

    def blocking(self) -> bool:
        return self.game.pending_par is not None

    def owns(self, action) -> bool:
        return self.blocking()

    def process(self, action) -> None:
        process_pending_par(self.game, action)
        after = getattr(self.round, "after_pending_par", None)
        if after is not None:
            after()


class ExchangeStep(RoundStep):
    """A private exchanged for a share (1830's MH, 1860's four privates): at
    any moment, not a turn's action; the title carries it out
    (``Title.exchange``, with the ability's window)."""

    name = "exchanging a private"
    actions = (Exchange,)

    def process(self, action) -> None:
        self.game.title.exchange(action)


class StockTurnStep(RoundStep):
    """The players' turns: sales, purchases, pars, privates bought from
    players, passes, in turn order (the round's ``turn_action``).  It takes
    what no other step owns and explains why a kind of action has no place
    in a stock round."""

    name = "buying and selling"
    actions = None

    def process(self, action) -> None:
        self.round.turn_action(action)


class AuctionBidStep(RoundStep):
    """The auction itself: bids, purchases, choices and passes in the
    auction's order (the round's ``bid_action``); it explains why another
    kind of action has no place in the auction."""

    name = "bidding"
    actions = None

    def process(self, action) -> None:
        self.round.bid_action(action)
