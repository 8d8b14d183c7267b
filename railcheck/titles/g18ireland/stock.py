"""18Ireland's stock round (docs/18Ireland.md S1-SM2): the shared round with

* the auction of the minor on top of the stack (``stock.minor_auction``): a
  player's action for the turn, not after a buy or sale in it; bids from
  100 in multiples of 5; a player who passes is out; the winner pays the bid
  into the minor's treasury, takes its 40% certificate at the par the bid
  sets, and its home station goes down;
* majors parred only from phase 6, their home station placed at once on a
  free city (the company's ``place_token`` in the stock round);
* shares from a company's treasury at the market price, paid to the
  company; 60% of a minor, 70% of a major per player;
* at the end, the minor on top of the stack leaves the game when no minor
  was started in the round.
"""

from __future__ import annotations

from ...actions import Bid, Par, Pass, PlaceToken
from ...findings import RuleViolation
from ...rounds.stock import StockRound
from ...steps.base import Step
from ...steps.stock import ParStep
from .shares import par_for_bid, start_minor


class _MinorAuction:
    def __init__(self, corp, opener, price: int, order: list):
        self.corp = corp
        self.opener = opener
        self.high = price
        self.leader = opener
        #: players still bidding, in turn order, the one to act first
        self.active = order


class StockRound18Ireland(StockRound):

    def __init__(self, game):
        super().__init__(game)
        self.auction: _MinorAuction | None = None

    def start(self):
        self.game.title.state.minor_started = False
        super().start()

    # ------------------------------------------------------------------
    # what a player may do

    def can_par(self, player, corp) -> bool:
        """Whether the site offers ``player`` a major's par now: from
        ``stock.majors_par_from_phase``, and, like a minor's auction, only as
        the turn's first action (not after a buy or sale in it), so a player
        who sold and can buy nothing is passed over.  (A par written after a
        sale is not refused for it: S2.1 counts the president's certificate as
        the turn's one purchase.)"""
        if corp.kind == "minor" or not self.majors_open():
            return False
        if player is self.current and self.acted:
            return False
        return super().can_par(player, corp)

    def majors_open(self) -> bool:
        g = self.game
        first = g.rules.stock.majors_par_from_phase
        if first is None:
            return True
        names = [p.name for p in g.rules.phases]
        return names.index(g.phase.name) >= names.index(str(first))

    def top_minor(self):
        st = self.game.title.state
        return self.game.corporations[st.stack[0]] if st.stack else None

    def auction_waiting(self) -> list[str] | None:
        """The players the minor auction under way waits for, in turn, the
        leader not among them (the record-following layer: a line of a
        later player, or no bid or pass, implies they passed); None with no
        auction under way."""
        a = self.auction
        if a is None:
            return None
        return [p.name for p in a.active if p is not a.leader]

    def auction_raise(self) -> tuple[str, str, int] | None:
        """(the minor, the player leading, the least raise) of the minor
        auction under way (the record-following layer: a line of the leader
        while the auction waits for another player implies a raise of
        theirs); None with no auction under way."""
        a = self.auction
        if a is None:
            return None
        step = self.game.rules.stock["minor_auction"]["multiple"]
        return a.corp.sym, a.leader.name, a.high + step

    def can_open_auction(self, player) -> bool:
        spec = self.game.rules.stock.minor_auction
        return (spec is not None and self.top_minor() is not None and not self.acted
                and player.cash >= spec["min_bid"]
                and self.game.cert_limit_exceeded(player) is None)

    def has_actions(self, player) -> bool:
        if player.bankrupt:
            return False        # out of the game (B5): passed over
        if self.auction is not None:
            return True
        if player is self.current and self.bought is not None \
                and self.game.rules.stock.sell_buy_order == "sell_buy":
            return False        # a buy ends the turn: no sale may follow it
        return super().has_actions(player) or self.can_open_auction(player)

    def wants(self, action) -> bool:
        st = self.game.title.state
        if isinstance(action, PlaceToken) and st.pending_home is not None \
                and action.actor == st.pending_home.sym:
            return True
        if isinstance(action, PlaceToken) and self.auction is not None \
                and action.actor == self.auction.corp.sym:
            return True     # its home elsewhere (home_elsewhere)
        return super().wants(action)

    # ------------------------------------------------------------------

    def step_classes(self) -> list:
        from ...steps.stock import (BuyPrivateStep, BuySharesStep, ExchangeStep,
                                    PendingParStep, SellSharesStep, StockTurnStep)
        return [HomeStationStep, MinorAuctionStep, PendingParStep, ExchangeStep,
                ParStep18Ireland, BuySharesStep, SellSharesStep, BuyPrivateStep,
                StockTurnStep]

    def after_par(self, action):
        """A major started: its home station is placed next
        (``HomeStationStep``)."""
        g = self.game
        if isinstance(action, Par) and not isinstance(action, Pass) \
                and g.rules.stock.major_home == "any_free_city":
            corp = g.corporations.get(action.corporation)
            if corp is not None and corp.kind != "minor" and corp.president is not None \
                    and not corp.home_placed:
                g.title.state.pending_home = corp

    def skip_inactive(self):
        """Nobody is passed over while a major just started waits for its
        home station."""
        if self.game.title.state.pending_home is not None:
            return
        super().skip_inactive()

    # ------------------------------------------------------------------
    # the home station of a major, placed by the company in the stock round

    def check_home_station(self, action):
        """The board's plan of the major's home station (None: no map), or
        why it is refused (raise)."""
        g = self.game
        corp = g.title.state.pending_home
        if g.board is None:
            return None
        return g.board.plan_token(corp.sym, action.hex,
                                   action.city,
                                   check_reach=False,
                                   tile_copy=getattr(action, "tile_copy", None))

    def apply_home_station(self, plan) -> None:
        g = self.game
        st = g.title.state
        corp = st.pending_home
        if plan is not None:
            g.board.apply_token(plan)
            g.board.drop_reservations(corp.sym)     # its home is where it now stands
        corp.home_placed = True
        corp.tokens_placed = max(corp.tokens_placed, 1)
        st.pending_home = None
        self.skip_inactive()

    # ------------------------------------------------------------------
    # the minor auction

    def check_open_auction(self, player, action: Bid):
        """Why ``player`` may not open the auction of the top minor with this
        bid (raise), else (the minor, the notes of what is taken as
        written)."""
        g = self.game
        spec = g.rules.stock.minor_auction
        if spec is None:
            raise RuleViolation("stock.action", "there are no company auctions in this title")
        if self.current is not player:
            raise RuleViolation("turn.order", f"{player.name} acted out of turn: it is "
                                              f"{self.current.name}'s turn in {self.label}")
        corp = self.corporation(action.company)
        top = self.top_minor()
        if corp is not top:
            raise RuleViolation("stock.minor_auction",
                                f"only the minor on top of the stack may be auctioned "
                                f"({top.sym if top else 'none left'}), not {corp.sym}")
        if self.acted:
            raise RuleViolation("stock.minor_auction",
                                f"{player.name} already bought or sold this turn; an auction "
                                f"is a turn's whole action")
        return corp, self.check_minor_bid(player, action.price,
                                          spec["min_bid"] - spec["multiple"], spec)

    def open_auction(self, player, action: Bid, corp) -> None:
        g = self.game
        n = len(g.seat_order)
        i = g.seat_order.index(player)
        others = [g.seat_order[(i + k) % n] for k in range(1, n)]
        self.auction = _MinorAuction(corp, player, action.price,
                                     [p for p in others if not p.bankrupt] + [player])
        self.settle_auction()

    def check_minor_bid(self, player, price, high, spec) -> list:
        """Why ``player`` may not bid ``price`` over the high bid ``high``
        (raise); a bid under the minimum or off the bids' multiple that the
        record makes is taken as written, as a note (rule, message) flagged
        when it is made: the auction goes on as the record has it."""
        g = self.game
        notes = []
        if price is None:
            raise RuleViolation("stock.minor_bid",
                                f"a bid must be at least {g.money(high + spec['multiple'])}")
        if price <= 0:
            raise RuleViolation("stock.minor_bid", f"a bid of {g.money(price)} is no bid")
        if price < high + spec["multiple"]:
            notes.append(("stock.minor_bid",
                          f"a bid must be at least {g.money(high + spec['multiple'])}, not "
                          f"{g.money(price)}; taken as bid, as the record says"))
        elif price % spec["multiple"]:
            notes.append(("stock.minor_bid",
                          f"bids are multiples of {g.money(spec['multiple'])}; "
                          f"{g.money(price)} is not; taken as bid, as the record says"))
        if price > player.cash:
            raise RuleViolation("stock.cash", f"{player.name} bids {g.money(price)} but has "
                                              f"{g.money(player.cash)}")
        return notes

    def check_auction_action(self, action):
        """A bid or a pass in the minor's auction, or its home station placed
        elsewhere: why it is refused (raise), else its plan."""
        g = self.game
        a = self.auction
        spec = g.rules.stock["minor_auction"]
        if isinstance(action, PlaceToken) and action.actor == a.corp.sym:
            return ("home", self.check_home_elsewhere(a.corp, action))
        player = self.player(action.actor)
        if player is not a.active[0]:
            raise RuleViolation("turn.order",
                                f"{player.name} acted out of turn: {a.corp.sym} is being "
                                f"auctioned and it is {a.active[0].name}'s turn to bid")
        if isinstance(action, Pass):
            return ("pass", player)
        if isinstance(action, Bid):
            if action.company != a.corp.sym:
                raise RuleViolation("stock.minor_auction",
                                    f"{a.corp.sym} is being auctioned; {player.name} may only "
                                    f"bid on it or pass")
            return ("bid", player, self.check_minor_bid(player, action.price, a.high, spec))
        raise RuleViolation("stock.minor_auction",
                            f"{a.corp.sym} is being auctioned: only bids and passes")

    def apply_auction_action(self, action, plan) -> None:
        a = self.auction
        if plan[0] == "home":
            return self.place_home_elsewhere(a.corp, plan[1])
        if plan[0] == "pass":
            a.active.pop(0)
        else:
            for rule, message in plan[2]:
                self.game.flag(rule, message)
            a.high, a.leader = action.price, plan[1]
            a.active.append(a.active.pop(0))
        self.settle_auction()

    def check_home_elsewhere(self, corp, action):
        """The minor being auctioned places its home station where the record
        says, at the auction's start as on the site: on a city of its home
        hex (a tile with several cities there: random 18004_0, #271), or, when
        another company's station took its home slot
        (`reserved_slots_block_stations: false`), on a free city slot
        (random 18003_5, #315)."""
        g = self.game
        if corp.home_placed or g.board is None:
            raise RuleViolation("token.home", f"{corp.sym}'s home station is placed already")
        homes = g.board.corporations.get(corp.sym, {}).get("homes", [])
        if g.board.home_available(corp.sym) and action.hex not in homes:
            raise RuleViolation("token.home", f"{corp.sym}'s home station goes on its home "
                                              f"hex ({', '.join(homes)}), not {action.hex}")
        return g.board.plan_token(corp.sym, action.hex,
                                   action.city,
                                   check_reach=False,
                                   tile_copy=getattr(action, "tile_copy", None))

    def place_home_elsewhere(self, corp, plan) -> None:
        g = self.game
        g.board.apply_token(plan)
        g.board.drop_reservations(corp.sym)
        corp.home_placed = True
        corp.tokens_placed = max(corp.tokens_placed, 1)

    def settle_auction(self):
        """Players who cannot raise are out; one bidder left wins."""
        g = self.game
        a = self.auction
        step = g.rules.stock["minor_auction"]["multiple"]
        a.active = [p for p in a.active
                    if p is a.leader or (p.cash >= a.high + step
                                         and g.cert_limit_exceeded(p) is None)]
        if a.active and a.active[0] is a.leader and len(a.active) > 1:
            a.active.append(a.active.pop(0))
        if len(a.active) > 1:
            return
        self.auction = None
        start_minor(g, a.corp, a.leader, par_for_bid(g, a.high), a.high)
        # the auction was the opener's action for the turn
        self.passes = 0
        self.passed_over.clear()
        self.current = a.opener
        self.acted = True
        self.last_actor = a.opener
        self.end_turn()
        self.skip_inactive()

    # ------------------------------------------------------------------

    def sold_out(self, corp) -> bool:
        """S3.3 "wszystkie akcje danej firmy znalazły nabywców": every share
        found a buyer; a share that left the game with its bankrupt holder
        (B5) was bought, and is in neither the treasury nor the pool."""
        players = {id(p) for p in self.game.players}
        held = 0    # the players' shares and those gone, in one pass
        for c in corp.certs:
            if c.owner is None or id(c.owner) in players:
                held += c.percent
        return held == 100

    def finish(self):
        g = self.game
        st = g.title.state
        if g.rules.stock.no_minor_started_closes_top and not st.minor_started:
            top = self.top_minor()
            if top is not None:
                g.title.remove_corporation(top)
        super().finish()


# ---------------------------------------------------------------------------
# 18Ireland's own steps of a stock round

class HomeStationStep(Step):
    """A major just started places its home station (on a free unreserved
    city) before anything else happens (SB8)."""

    only_blocking = True
    name = "placing a home station"
    actions = (PlaceToken,)

    def blocking(self) -> bool:
        return self.game.title.state.pending_home is not None

    def owns(self, action) -> bool:
        corp = self.game.title.state.pending_home
        return corp is not None and isinstance(action, PlaceToken) and action.actor == corp.sym

    def yields_to(self, action) -> bool:
        return not self.owns(action)

    def give_way(self, action) -> None:
        """The record goes on without the station: said, and the round goes on."""
        st = self.game.title.state
        corp = st.pending_home
        st.pending_home = None
        self.game.flag("stock.home_station",
                       f"{corp.sym} was started without placing its home station")

    def check(self, turn, action):
        return self.round.check_home_station(action)

    def apply(self, turn, action, plan) -> None:
        self.round.apply_home_station(plan)


class MinorAuctionStep(Step):
    """A player opens the auction of the minor on top of the stack with a
    bid (SB3); while it runs, only its bids and passes (and the winner's
    home station elsewhere) are taken."""

    name = "auctioning a minor"
    actions = (Bid,)

    def blocking(self) -> bool:
        return self.round.auction is not None

    def available(self, turn) -> bool:
        return turn is not None and self.round.can_open_auction(turn)

    def check(self, turn, action):
        rnd = self.round
        if rnd.auction is not None:
            return rnd.check_auction_action(action)
        player = rnd.player(action.actor)
        corp, notes = rnd.check_open_auction(player, action)
        return ("open", player, corp, notes)

    def apply(self, turn, action, plan) -> None:
        rnd = self.round
        if plan[0] == "open":
            for rule, message in plan[3]:
                rnd.game.flag(rule, message)
            return rnd.open_auction(plan[1], action, plan[2])
        rnd.apply_auction_action(action, plan)


class ParStep18Ireland(ParStep):
    """Only majors are parred (a minor is started by its auction), from
    ``stock.majors_par_from_phase`` on; a major started places its home
    station next (``HomeStationStep``)."""

    def check(self, player, action: Par):
        g = self.game
        rnd = self.round
        corp = rnd.corporation(action.corporation)
        if corp.kind == "minor":
            raise RuleViolation("stock.minor_auction",
                                f"{corp.sym} is a minor: it is started by an auction, not parred")
        if not rnd.majors_open():
            raise RuleViolation("stock.major_phase",
                                f"majors may be started from phase "
                                f"{g.rules.stock['majors_par_from_phase']}; this is phase "
                                f"{g.phase.name}")
        return super().check(player, action)

    def apply(self, player, action: Par, plan) -> None:
        super().apply(player, action, plan)
        # the home station comes next, before the round looks further (a
        # round left with nothing anyone may do ends only after it: random
        # 2711109_0, #1036 and #1037)
        self.round.after_par(action)
