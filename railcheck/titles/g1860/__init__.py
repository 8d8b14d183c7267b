"""1860: Railways on the Isle of Wight.

The rounds: a bid-for-turn auction of four privates and two president's
certificates, then stock rounds each followed by 1 to 3 operating rounds (the
phase decides); once nationalisation ("British Rail") begins, only operating
rounds.  Every number is in ``rules.yaml``; the map in ``board.yaml``; the
rules and the choices made are in docs/1860.md.  The title's own state (what
the shared ``Game`` does not hold) is :class:`State1860`.
"""

from __future__ import annotations

from pathlib import Path

from ..base import Title


class State1860:
    """What 1860 tracks beyond the shared game state."""

    def __init__(self):
        #: corporations floated on an empty home hex, waiting for their home track
        self.home_track: list = []
        #: corporations whose reserved share has been freed (a private exchanged)
        self.freed: set = set()
        #: privates exchanged for a share (the site keeps them as the bank's)
        self.exchanged: set = set()
        #: every reserved share is free (Fishbourne Ferry bought)
        self.all_freed = False
        #: corporations bankrupt (re-par range when started again)
        self.bankrupt: set = set()
        #: corporations in receivership (the president's certificate in the pool)
        self.receivership: set = set()
        #: corporations insolvent (no train, a route, no cash for one)
        self.insolvent: set = set()
        #: the title's events that happened
        self.events_done: set = set()
        #: no certificate limit any more (the first 8+4)
        self.no_cert_limit = False
        #: the Southern Railway has formed / building has stopped
        self.southern = False
        self.no_building = False
        #: nationalisation has begun; corporations that stopped operating
        self.nationalised = False
        self.stopped: set = set()
        #: a stock round must start again (a bankruptcy in it)
        self.restart_sr = False


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

    def __init__(self, game):
        super().__init__(game)
        self.state = State1860()

    def setup(self):
        g = self.game
        # the engine's bank is unchecked: it holds twice the break limit less
        # the players' starting cash (the break test counts the players' cash,
        # ruleset ``bank_counts: players_cash``)
        if g.rules.raw["bank_counts"] == "players_cash":
            g.bank.cash += g.rules.bank

    # ------------------------------------------------------------------
    # rounds

    def auction_round(self):
        from .auction import BidForTurnAuction
        return BidForTurnAuction(self.game)

    def stock_round(self):
        from .stock import StockRound1860
        return StockRound1860(self.game)

    def operating_round(self):
        from .operating import OperatingRound1860
        return OperatingRound1860(self.game)

    def operating_steps(self) -> list:
        from .steps import operating_steps
        return operating_steps()

    def next_round(self, ended):
        g = self.game
        st = self.state
        if ended.kind == "SR":
            if st.restart_sr:
                st.restart_sr = False
                g.sr_number -= 1
                return self.stock_round()
            if st.southern:
                st.no_building = True
        return super().next_round(ended)

    def president_label(self, corp):
        if corp.sym in self.state.receivership:
            return "Market"
        return super().president_label(corp)

    # ------------------------------------------------------------------
    # hooks of the rounds

    def on_float(self, corp):
        g = self.game
        home = corp.spec.home
        if home and g.board is not None and not self.state.no_building:
            hx = g.board.hexes[home]
            if not hx.laid and hx.color == "white":
                self.state.home_track.append(corp)
                return
        self.place_home(corp)

    def place_home(self, corp):
        g = self.game
        if corp.home_placed or self.state.no_building:
            return
        corp.home_placed = True
        if corp.spec.home and g.board is not None:
            from ...findings import RuleViolation
            try:
                g.board.place_home_token(corp.sym)
            except RuleViolation as v:
                g.flag(v.rule, v.message)
        corp.tokens_placed = max(corp.tokens_placed, 1)

    def company_on_sale(self, company) -> bool:
        event = (company.spec.special or {}).get("available_on_event")
        return event is None or event in self.state.events_done

    def check_bankrupt(self, corp) -> bool:
        """The price reached the bankrupt cell: the corporation is bankrupt."""
        g = self.game
        if corp.price is None or "bankrupt" not in corp.price.zones:
            return False
        from .bankruptcy import bankrupt
        bankrupt(g, corp)
        return True

    def on_event(self, event: str, train=None):
        st = self.state
        st.events_done.add(event)
        if event == "relax_cert_limit":
            st.no_cert_limit = True
        elif event == "southern_forms":
            st.southern = True
        elif event == "fishbourne_to_bank":
            pass
        else:
            super().on_event(event, train)
