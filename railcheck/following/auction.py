"""The private auctions as the record has them."""

from __future__ import annotations

from .rounds import RoundFollower


class AuctionFollower(RoundFollower):
    """An auction the record leaves with privates unsold: said at the marker
    that names the next round."""

    def close_for_marker(self, want: str) -> None:
        r = self.round
        unsold = [c.sym for c in r.unsold()]
        self.game.flag("round.marker", f"'{want}' but the auction is not over "
                                       f"({', '.join(unsold)} unsold)")
        r.finish()      # the record moved on; so does the replay
