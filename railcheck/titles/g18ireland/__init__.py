"""18Ireland (Ian Scrivins).

The rounds: a waterfall auction of five privates (three of them drawn), then
stock rounds (players buy and sell shares, auction the 5-share minors on top
of a drawn stack, and from phase 6 start 10-share majors), each followed by
two operating rounds and, from phase 4, a merger round in which minors merge
into majors by a shareholders' vote.  Every number is in ``rules.yaml``; the
map in ``board.yaml``; the rules and the choices made are in docs/18Ireland.md.
:mod:`.setup` draws the set-up from an export's seed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from ..base import Title


class State18Ireland:
    """What 18Ireland tracks beyond the shared game state."""

    def __init__(self):
        #: the minors not started yet, top first (only the top one may be auctioned)
        self.stack: list = []
        #: a minor was started in the current stock round
        self.minor_started = False
        #: runs whose revenue was taken as recorded
        self.runs_taken: int = 0
        #: runs checked on the map
        self.runs_checked: int = 0
        #: private -> (corporation, hex) of an assigned bonus token
        self.assigned: dict = {}
        #: the game ends at the end of the current round (a price reached 260)
        self.end_after_round = False
        #: a major started in the stock round waits for its home station
        self.pending_home = None


class Title18Ireland(Title):
    id = "18Ireland"
    aliases = ("18 Ireland",)
    folder = Path(__file__).resolve().parent
    #: shared modules its replays import on their way (loaded before --jobs forks)
    warm_modules = ("railcheck.board.site_runs", "railcheck.board.gauge")
    own_run_rules = ("broad-gauge runs, the narrow-gauge bonus, the port and ship tokens, "
                     "RSSC's Shannon bonus")
    # its own search of the best runs (best.py) serves the hindsight too
    hindsight_own_runs = True
    rounds_description = ("waterfall auction of five privates, then stock rounds (minors "
                          "auctioned, majors from phase 6) each followed by two operating "
                          "rounds and, from phase 4, a merger round")
    events = ("corporations_can_merge", "majors_can_ipo", "minors_cannot_start",
              "train_trade_allowed")
    # BoW's and DCR's lays must be connected (companies[2] and [5] of rules.yaml);
    # DCR's may come after the track step (operating.py)
    implements = {"auction.bid_multiple": (True,),
                  "companies[2].special.tile_lay.connected": (True,),
                  "companies[5].special.tile_lay.connected": (True,),
                  "companies[5].special.tile_lay.after_track": (True,),
                  "stock.major_home": ("any_free_city",),
                  "operating.second_lay": ("yellow_if_first_not_upgrade_or_city",
                                           "yellow_if_first_not_upgrade"),
                  "operating.routes.broad_gauge_only": (True,),
                  "operating.routes.narrow_gauge_bonus": (True,)}
    # which shares a new president gives back (random 18004_0, #439)
    swap_oldest_first = True
    names_certificates = True

    def __init__(self, game):
        super().__init__(game)
        self.state = State18Ireland()

    # ------------------------------------------------------------------
    # set-up

    def setup(self):
        from .setup import draw_setup
        g = self.game
        st = self.state
        minors = [c.sym for c in g.corporations.values() if c.kind == "minor"]
        seed = g.tags.get("seed")
        companies = list(g.companies)
        if seed is not None and str(seed).lstrip("-").isdigit():
            drawn = draw_setup(int(seed), companies, minors, g.rules.setup)
            keep, removed, stack = drawn.companies, drawn.removed_minors, drawn.minor_stack
        else:
            # a hand-written game names its set-up in the header
            keep = _names(g.tags.get("privates")) or companies
            stack = _names(g.tags.get("minors")) or minors
            removed = [m for m in minors if m not in stack][:1]
        for sym in companies:
            if sym not in keep:
                del g.companies[sym]
                if g.board is not None:
                    g.board.unblock(sym)
        st.stack = [m for m in stack if m in g.corporations]
        if g.board is not None:
            g.board.reservations_block_tokens = bool(
                g.rules.operating.reserved_slots_block_stations)
        for sym in removed:
            self.remove_corporation(g.corporations[sym])
        # primed trains wait in the reserve until a train rusts into them
        for t in g.trains:
            if t.spec.name in self.primed_names():
                t.owner = "reserve"

    def primed_names(self) -> set:
        return {t.name for t in self.game.rules.trains if t.primed}

    def unchecked(self) -> list[tuple[str, str]]:
        out = []
        st = self.state
        n = st.runs_taken
        if n:
            # (every other run is checked on the map: broad gauge only, the
            # track, the hex edges a train may cross, stations, the revenue
            # with the narrow-gauge bonus, CDSPC/TASPS tokens and RSSC)
            out.append(("route.unchecked",
                        f"the revenue of {n} 18Ireland run{'s' if n != 1 else ''} was taken as "
                        f"recorded: no track to follow on the map (a turn with such a run has "
                        f"its whole revenue taken as recorded); {st.runs_checked} other "
                        f"run{'s' if st.runs_checked != 1 else ''} checked"))
        return out

    # ------------------------------------------------------------------
    # rounds

    def auction_round(self):
        from .auction import Auction18Ireland
        return Auction18Ireland(self.game)

    def stock_round(self):
        from .stock import StockRound18Ireland
        return StockRound18Ireland(self.game)

    def operating_round(self):
        from .operating import OperatingRound18Ireland
        return OperatingRound18Ireland(self.game)

    def best_runs_now(self, corp, max_ticks: Optional[int] = None):
        """For ``railcheck next`` and the hindsight: the best legal set of runs
        found for ``corp``'s trains now (best.py: 18Ireland's run rules), as
        (revenue, subsidy: 0, [(train name, [(hex index, node index)], its
        revenue, 0, the hexes of each stretch)], gave up), or None (no map, no
        train).  The revenue counts RSSC's Shannon bonus, which no one run
        carries."""
        from .best import best_set
        found = best_set(self.game, corp, list(corp.trains),
                         **({} if max_ticks is None else {"max_ticks": max_ticks}))
        if found is None:
            return None
        revenue, chosen, gave_up = found
        return revenue, 0, [(name, stops, rev, 0, path) for name, stops, rev, path in chosen], \
            gave_up

    def operating_steps(self) -> list:
        from .steps import operating_steps
        return operating_steps()

    def merger_round(self):
        from .merger import MergerRound
        return MergerRound(self.game)

    def next_round(self, ended):
        g = self.game
        if self.state.end_after_round and ended.kind != "auction":
            g.finish("stock_market")
            return None
        if ended.kind == "OR":
            if g.or_number < g.or_count:
                return self.operating_round()
            if g.end_pending:
                g.finish(g.end_pending)
                return None
            if self.mergers_open():
                return self.merger_round()
            return self.stock_round()
        if ended.kind == "MR":
            return self.stock_round()
        return super().next_round(ended)

    def mergers_open(self) -> bool:
        g = self.game
        merger = g.rules.settings.merger
        if not merger:
            return False
        names = [p.name for p in g.rules.phases]
        return names.index(g.phase.name) >= names.index(str(merger["from_phase"]))

    # ------------------------------------------------------------------
    # companies leaving the game

    def remove_corporation(self, corp):
        """A minor drawn out or closed unstarted: it leaves the game, its home
        reservation with it."""
        st = self.state
        corp.closed = True
        if corp.sym in st.stack:
            st.stack.remove(corp.sym)
        if self.game.board is not None:
            self.game.board.remove_corporation(corp.sym)

    def close_corporation(self, corp):
        """A started company leaves the game (price at 0, merged, its president
        bankrupt): its trains, stations and certificates go, its cash to the
        bank."""
        from .closing import close_corporation
        close_corporation(self.game, corp)

    def after_price_move(self, corp):
        """A price on the 260 cell ends the game with the current round; on
        the 0 cell the company closes."""
        cell = corp.price
        if cell is None:
            return
        if "end_game" in cell.zones:
            self.state.end_after_round = True
            self.game.end_pending = self.game.end_pending or "stock_market"
        if "close" in cell.zones:
            self.close_corporation(corp)

    def on_event(self, event: str, train=None):
        g = self.game
        if event == "minors_cannot_start":
            for sym in list(self.state.stack):
                self.remove_corporation(g.corporations[sym])
        elif event in ("corporations_can_merge", "majors_can_ipo", "train_trade_allowed"):
            pass
        else:
            super().on_event(event, train)


def _names(text) -> list:
    if not text:
        return []
    return [x.strip() for x in str(text).replace(";", ",").split(",") if x.strip()]
