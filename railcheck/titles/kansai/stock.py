"""Kansai's auction and stock rounds: who buys what, in which turn.

The waterfall auction (A1-A7): bids raise by at least 5 (A3), the highest
bid wins; the priority then goes left of the last buyer (A7).  Its turn order
is not checked without the numbers the shared waterfall needs.  The stock
round is ``steps.py``'s ``StockRound1890`` (the shared round's turns, 1890's
steps); this handler keeps the auction, the floats (SB3) and the president's
exchange (§6.5) its steps ask for.
"""

from __future__ import annotations

from ...actions import Bid, BuyShares, Par, Pass, SellShares
from ...schema import is_unknown
from .holdings import FREE_SHARE, RESERVED
from .steps import (BuySharesStep1890, LatePrivateStep1890, ParStep1890,
                    SellSharesStep1890, StockRound1890)


class StockHandler:
    #: the title object, its state and game, and the stock round (pictured on its own as the
    #: game's round at hand): not the handler's state (``snapshot.state_snapshot``)
    not_state = ("r", "st", "h", "round")

    def __init__(self, replay):
        self.r = replay
        self.st = replay.state
        self.h = replay.holdings
        #: auction: private -> [(player, price, action)]
        self.bids: dict = {}
        #: auction: (line, player) of each acquisition
        self.acquired: list = []
        #: the shared waterfall auction (auction.py), or the key that keeps it from playing
        self.waterfall = None
        self.waterfall_missing = None
        #: (line, player) of the last minor bought in the auction
        self.minor_bought = None
        #: the shared stock round with 1890's steps and turns (steps.py), played by this
        #: handler
        self.round = StockRound1890(replay)

    def next_player(self, name: str) -> str:
        """The player left of ``name`` (the shared ``Game.next_player``)."""
        h = self.h
        return h.next_player(h.by_name[name]).name

    def end_auction(self) -> None:
        """The highest bid on each private wins it (A4, A5); the priority
        goes left of the last buyer (A7)."""
        if self.waterfall is not None:
            from .auction import priority
            if not self.waterfall.finished:
                self.waterfall.finish_round()
            self.h.set_priority(priority(self.waterfall))
            if self.minor_bought is not None and self.acquired and \
                    max(self.acquired, key=lambda a: a[0] or 0) == self.minor_bought:
                # a minor bought in the auction (the rule book's initial stock round, §9)
                # after the last private: the priority goes left of its buyer (A7, §8.1)
                self.h.set_priority(self.next_player(self.minor_bought[1]))
            self.r.ledger.start(self.waterfall.game.players)
            self.waterfall = None
            return
        # privates won by bids are sold after the bought ones, cheapest first (A4, A5)
        late_line = max((a.line or 0 for a in self.r.record.actions), default=0) + 1
        for sym, bids in self.bids.items():
            if self.h.owner_of(sym) is not None or not bids:
                continue
            player, _, action = max(bids, key=lambda b: b[1])
            self.acquire(sym, player, action)
            self.acquired[-1] = (late_line, player)
        self.bids = {}
        if self.acquired:
            _, last = max(self.acquired, key=lambda a: a[0] or 0)
            self.h.set_priority(self.next_player(last))
        self.acquired = []
        self.r.ledger.start(None)

    # ------------------------------------------------------------------

    def process(self, action) -> None:
        """A player's line of the auction (a stock round's are its round's:
        ``StockRound1890.take_action``)."""
        r = self.r
        if not self.h.is_player(action.actor):
            return
        if isinstance(action, Bid):
            self.bid(action)
        elif isinstance(action, BuyShares):
            self.round.play(BuySharesStep1890, action)
        elif isinstance(action, Par):
            self.round.play(ParStep1890, action)
        elif isinstance(action, SellShares):
            self.sell(action)
        elif isinstance(action, Pass):
            self.play_waterfall(action)
        else:
            r.flag("stock.action", f"'{action.verb}' is not an action of the auction")

    # ------------------------------------------------------------------
    # privates

    def bid(self, action: Bid) -> None:
        r = self.r
        sym = action.company
        late = sym in [c.sym for c in r.rules.late_companies]
        if late:
            self.round.play(LatePrivateStep1890, action)
            return
        if self.play_waterfall(action):
            return
        if self.h.owner_of(sym) is not None:
            r.flag("auction.sold", f"{sym} is already sold")
            return
        bids = self.bids.setdefault(sym, [])
        step = r.rules.auction.min_increment
        if action.price is None:                    # bought at its price
            self.acquire(sym, action.actor, action)
            return
        if bids:
            least = max(b[1] for b in bids) + step
        else:
            value = r.number("private prices", "companies", sym, "value")
            least = None if is_unknown(value) else value + step
        if least is not None and action.price < least:
            r.flag("auction.min_bid", f"bid of {r.money(action.price)} on {sym} is too low: the "
                                      f"minimum bid is {r.money(least)}")
        bids.append((action.actor, action.price, action))

    def play_waterfall(self, action) -> bool:
        """A bid or pass played by the shared waterfall auction (True), or
        counted as skipped when a number it needs is unknown (False: the
        bid's step is still checked here)."""
        from .auction import SKIPPED, play, waterfall
        if self.waterfall is None and self.waterfall_missing is None:
            self.waterfall, self.waterfall_missing = waterfall(self.r)
        if self.waterfall is None:
            self.r.skip(SKIPPED, self.waterfall_missing)
            return False
        if not self.waterfall.finished:
            play(self.waterfall, action)
        else:
            self.r.flag("auction.sold", "every private is sold: the auction is over")
        return True

    def acquire(self, sym: str, player: str, action) -> None:
        st = self.st
        self.h.set_owner(sym, player)
        self.acquired.append((action.line, player))
        if sym in FREE_SHARE and FREE_SHARE[sym] not in self.r.not_in_play:     # P4, P5
            corp = FREE_SHARE[sym]
            self.h.give(corp, player, [10])
            st.free_share[corp] = player
        if sym == "OMER" and "OMS" not in self.r.not_in_play:   # P7: OMS's president's certificate
            self.h.give("OMS", player, [20])

    # ------------------------------------------------------------------

    def floats(self, corp: str) -> None:
        """SB3: 50% sold, the company floats and receives 10 x par from the
        bank at once (not KNR: K8)."""
        r, h = self.r, self.h
        if h.sold_percent(corp) < r.rules.stock.float_percent:
            return
        h.corporations[corp].floated = True
        led = r.ledger
        par = h.par(corp)
        if (corp != "KNR" or r.knr_normal) and corp not in r.state.capitalised and par is not None:
            r.state.capitalised.add(corp)
            times = r.rules.stock.capital_par_times
            led.pay("bank", corp, times * par,
                    f"{corp} floated: {times} x par {r.money(par)} to its treasury (SB3)")

    def new_president(self, corp: str, player: str, keeps: int):
        """The player who takes ``corp``'s president's certificate when ``player`` sells down
        to ``keeps`` percent: one holding more (and two shares to give in exchange); of
        several, the most, and at equal holdings the nearest clockwise (§6.5); None: nobody."""
        h = self.h
        players = h.names
        at = players.index(player)
        order = [players[(at + i) % len(players)] for i in range(1, len(players))]
        takers = [p for p in order if h.percent(corp, p) > keeps
                  and h.percents(corp, p).count(10) >= 2]
        if not takers:
            return None
        return max(takers, key=lambda p: (h.percent(corp, p), -order.index(p)))

    def knr_bought(self) -> int:
        """KNR shares bought from the IPO so far (not those the conversions gave, which
        were the bank's: :data:`~.holdings.RESERVED`)."""
        knr = self.h.corporations["KNR"]
        out = [c for c in knr.certs if not c.president and c.owner not in ("ipo", RESERVED)]
        return len(out) - self.r.operating.knr_shares_given

    def sell(self, action: SellShares) -> None:
        """A sale: the stock round's, or a president's for a train in an operating round (B0)."""
        self.round.play(SellSharesStep1890, action)
