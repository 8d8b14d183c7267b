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
from typing import Optional

from ..base import Title


class RunsMemo(dict):
    """The receivership's best runs found for the board's current state
    (``best.py``): a memo, kept by the live state alone.  A copy of the
    state (a reading's saved state, ``following/lookahead.save``) starts with
    none: what it held is found again when asked (the same runs, the key
    checked), where copying it cost most of a save (random 18602_7 with
    #408 left out: 225 saves, 70 of its 128 profiled seconds, the runs of
    IOW's 9+5 and 6+3 copied each time)."""

    def __deepcopy__(self, memo):
        return RunsMemo()


class State1860:
    """What 1860 tracks beyond the shared game state."""

    def __init__(self):
        #: corporations floated on an empty home hex, waiting for their home track
        self.home_track: list = []
        #: runs whose revenue was taken as recorded (recorded without their track)
        self.runs_taken: int = 0
        #: runs checked on the map (track, n+m, halts, network, revenue)
        self.runs_checked: int = 0
        #: corporations whose reserved share has been freed (a private exchanged)
        self.freed: set = set()
        #: privates exchanged for a share (the site keeps them as the bank's)
        self.exchanged: set = set()
        #: receivership's best runs found for the board's current state (best.py)
        self.best_runs: dict = RunsMemo()
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
        #: the set of ORs in which the Southern Railway formed is over
        self.southern_set_over = False
        #: nationalisation has begun; corporations that stopped operating
        self.nationalised = False
        self.stopped: set = set()
        #: a stock round must start again (a bankruptcy in it)
        self.restart_sr = False
        #: what each corporation paid out in the last OR (a withhold is 0)
        self.or_revenue: dict = {}
        #: the game ends at the end of the next OR to end, for this reason
        self.end_after: str = ""


class Title1860(Title):
    id = "1860"
    aliases = ("1860: Railways on the Isle of Wight",)
    site_place_numbers = False      # the site counts F2's city, town and halt its own way
    folder = Path(__file__).resolve().parent
    own_run_rules = "halts and n+m trains, leased trains, the most a receivership can earn"
    rounds_description = ("bid-for-turn auction of four privates and the C&N and IOW "
                          "president's certificates, then stock rounds each followed by 1 to "
                          "3 operating rounds (by phase); after the Southern Railway forms, "
                          "nationalisation: operating rounds only")
    events = ("fishbourne_to_bank", "relax_cert_limit", "southern_forms")
    implements = {"stock.president_sales_to_market": (True,),
                  "stock.home_track_on_float": (True,),
                  "market.zigzag": (True,),
                  "operating.second_lay": ("yellow_if_first_not_upgrade_or_city",
                                           "yellow_if_first_not_upgrade"),
                  "operating.upgrade_needs_train_reach": (True,),
                  **{f"operating.routes.{k}": (True,)
                     for k in ("home_station_in_one_route", "routes_must_intersect",
                               "no_hex_reentry", "cannot_end_at_halt",
                               "may_skip_towns_and_halts", "bypass_one_blocked_city")},
                  "operating.routes.flipped_tokens_block": (False,)}
    #: shared modules its replays import on their way (loaded before --jobs forks)
    warm_modules = ("railcheck.board.site_runs",)

    def __init__(self, game):
        super().__init__(game)
        self.state = State1860()

    def unchecked(self) -> list[tuple[str, str]]:
        n = self.state.runs_taken
        if not n:
            return []
        return [("route.unchecked",
                 f"the revenue of {n} 1860 run{'s' if n != 1 else ''} was taken as recorded: "
                 f"{'they were' if n != 1 else 'it was'} recorded without the track to check on "
                 f"the map")]

    def setup(self):
        g = self.game
        # the engine's bank is unchecked: it holds twice the break limit less
        # the players' starting cash (the break test counts the players' cash,
        # ruleset ``bank_counts: players_cash``)
        if g.rules.settings.bank_counts == "players_cash":
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

    def best_runs_now(self, corp, max_ticks: Optional[int] = None):
        """For ``railcheck next``: the best legal set of runs found for
        ``corp``'s trains now (best.py: 1860's own run rules), as (revenue,
        subsidy, [(train name, [(hex index, node index)], its revenue, its
        subsidy)], gave up), or None (no map, no train)."""
        from .best import best_set
        found = best_set(self.game, corp, list(corp.trains),
                         **({} if max_ticks is None else {"max_ticks": max_ticks}))
        if found is None:
            return None
        (_, revenue, subsidy, _, gave_up), chosen = found
        return revenue, subsidy, chosen, gave_up

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
            if self.check_nationalise():
                g.or_count = g.or_number = 0
                return self.operating_round()
            return super().next_round(ended)
        if ended.kind == "OR":
            if st.nationalised:
                self.stop_lowest()
                floated = [c for c in g.corporations.values() if c.floated]
                if all(c.sym in st.stopped for c in floated):
                    g.finish("nationalization")
                    return None
            if st.end_after:
                g.finish(st.end_after)
                return None
            if self.check_nationalise():
                return self.operating_round()
            if g.or_number < g.or_count:
                return self.operating_round()
            if st.southern:
                st.no_building = True     # from the first stock round after the 9+5
                st.southern_set_over = True
            return self.stock_round()
        return super().next_round(ended)

    # ------------------------------------------------------------------
    # the end game

    def check_nationalise(self) -> bool:
        """From the purchase of the first 9+5 (``nationalisation.test_from:
        southern_formed``, the engine's timing), or only once the set of ORs
        in which it was bought is over (``after_set``, the summary's N2: the
        first test at the end of the next stock round): every parred
        corporation not in receivership owns a train."""
        g = self.game
        st = self.state
        if st.nationalised:
            return True
        if not st.southern:
            return False
        if g.rules.settings.nationalisation.test_from == "after_set" \
                and not st.southern_set_over:
            return False
        if all(c.trains for c in g.corporations.values()
               if c.ipoed and c.sym not in st.receivership):
            st.nationalised = True
        return st.nationalised

    def stop_lowest(self):
        """After an OR of nationalisation the lowest earners stop: all at the
        lowest revenue; if one alone, also all at the next lowest; with two
        or fewer left, all of them."""
        g = self.game
        st = self.state
        live = [c for c in g.corporations.values() if c.floated and c.sym not in st.stopped]
        rev = {c.sym: st.or_revenue.get(c.sym, 0) for c in live}
        if len(live) < 3:
            st.stopped.update(rev)
            return
        values = sorted(set(rev.values()))
        low = [s for s, v in rev.items() if v == values[0]]
        st.stopped.update(low)
        if len(low) == 1 and len(values) > 1:
            st.stopped.update(s for s, v in rev.items() if v == values[1])

    def end_game_after_or(self, reason: str):
        """The game ends at the end of the current OR (the next one, when the
        trigger came in a stock round)."""
        g = self.game
        if self.state.end_after or g.finished:
            return
        # the first OR to end is the current one, or the one after the stock
        # round (E2: "if it breaks in a SR, one more OR is played")
        self.state.end_after = reason
        g.end_pending = reason

    def after_price_move(self, corp):
        if corp.price is not None and "end_game" in corp.price.zones:
            self.end_game_after_or("stock_market")

    def check_bank_break(self):
        """The bank breaks when the players hold more than ``bank`` together
        (not during nationalisation)."""
        g = self.game
        if self.state.nationalised or g.bank_broken:
            return
        if g.rules.settings.bank_counts == "players_cash" \
                and sum(p.cash for p in g.players) > g.rules.bank:
            g.bank_broken = True
            self.end_game_after_or("bank")

    def cert_limit_applies(self) -> bool:
        """No certificate limit once the first 8+4 is bought (relax_cert_limit)."""
        return not self.state.no_cert_limit

    def share_value(self, corp) -> int:
        from .stock import sale_price
        return sale_price(self.game, corp)

    def holding_value(self, corp, player) -> int:
        """E4: a trainless corporation's certificates count half their
        value, each rounded down by itself (the president's certificate of a
        corporation at £95 counts £95, not 2 x £47; as 18xx.games scores)."""
        from .stock import trainless
        if not (trainless(corp) and self.game.rules.stock["trainless_share_value"] == "half"):
            return super().holding_value(corp, player)
        price = corp.price.price
        return sum(price * c.percent // corp.share_percent // 2 for c in corp.certs_of(player))

    def president_label(self, corp):
        if corp.sym in self.state.receivership:
            return "Market"
        return super().president_label(corp)

    # ------------------------------------------------------------------
    # hooks of the rounds

    def on_float(self, corp):
        g = self.game
        home = corp.spec.home
        if g.rules.stock.home_track_on_float and home and not self.state.no_building:
            if g.board is not None:
                hx = g.board.hexes[home]
                empty = not hx.laid and hx.color == "white"
            else:       # --no-board: the printed map and the lays the record made
                from ...board.board import map_contents
                printed = {coord: c for coord, _, c in map_contents(g.rules.board or {})[1]}
                empty = home not in g.laid_hexes and home in printed \
                    and printed[home].color == "white"
            if empty:
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

    def no_more(self, kind: str):
        if kind == "SR" and self.state.nationalised:
            return "British Rail has formed: there are no more stock rounds (N3)"
        return None

    def check_exchange(self, action):
        from .stock import check_exchange_1860
        return check_exchange_1860(self.game, action)

    def apply_exchange(self, action, plan) -> None:
        from .stock import apply_exchange_1860
        apply_exchange_1860(self.game, action, plan)

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
