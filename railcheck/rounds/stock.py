"""Stock rounds: par, buy and sell shares in turn order until all pass.

A player's turn is every consecutive action of theirs; it ends with their
``pass`` or when the next player acts.  A pass in a turn where the player
did nothing else is a real pass; the round ends when every player has
passed in a row.  Limits follow the ruleset's ``stock`` section: certificate
limit (with market zones outside it), holding limit, pool limit, no selling
before ``sell_after``, sell-buy-sell order, no rebuying what you sold this
round, several brown shares per turn, sold-out rise at the end.  A player
may also buy a private from another player (``buy private``) in the phases
whose ruleset entry has ``private_trades``; it is the turn's purchase
unless ``stock.private_trade_is_buy`` is false.
"""

from __future__ import annotations

from ..actions import Pass
from ..findings import RuleViolation, breach
from ..state import Corporation, Player
from . import Round
from ..mechanics.shares import max_sellable_percent


# ---------------------------------------------------------------------------

class StockRound(Round):
    kind = "SR"

    def __init__(self, game):
        super().__init__(game)
        self.passes = 0
        self.acted = False           # the current player did something this turn
        #: turns ended in this round (a turn's identity for the record's reading)
        self.turns = 0
        self.bought = None           # corporation bought this turn (None: nothing)
        self.buys = 0
        self.bought_from_ipo = False  # a share of this turn's came from the IPO
        self.sold_after_buy = False   # a sale came after a purchase (tells sell-buy from buy-sell)
        #: corporations the current player sold in this turn (stock.must_sell_in_blocks)
        self.sold_this_turn: set = set()
        #: the current player bought after selling in this turn (no more
        #: selling with stock.sell_buy_order: sell_buy_or_buy_sell)
        self.bought_after_sale = False
        self.sold: dict = {}         # player -> set of corporations sold this round
        self.last_actor = None
        self.current = None
        self.passed_over: set = set()   # players passed over without a word since the last buy or sale
        #: of those, the ones passed because the replay saw nothing they could
        #: do (not after acting): one who then acts takes the turn unflagged
        self.auto_passed: set = set()
        #: (player, the line after which) when the rules ended the player's
        #: turn by itself right after that line (nothing left he may do), while
        #: nobody has acted since (the record-following layer reads it: a
        #: written pass then is the "done" 18xx.games asks for)
        self.ended_by_itself = None
        self._line = None            # the line whose action was just applied

    @property
    def label(self) -> str:
        return f"SR {self.game.sr_number}"

    def start(self):
        g = self.game
        g.sr_number += 1
        self.current = g.priority
        self.skip_inactive()

    # ------------------------------------------------------------------
    # players with nothing they may do pass without a word

    def skip_inactive(self):
        """A player who may do nothing (buy, par, sell) passes automatically;
        after having acted, their turn simply ends."""
        g = self.game
        for _ in range(2 * len(g.players) + 2):
            if self.finished or g.pending_par is not None:
                return
            player = self.current
            if self.has_actions(player):
                return
            self.passed_over.add(player)
            if self.acted:
                self.ended_by_itself = (player, self._line) if self._line is not None else None
                self.end_turn()
                continue
            self.auto_passed.add(player)
            self.passes += 1
            self.end_turn()
            if self.passes >= len(g.players):
                self.finish()
                return

    def has_actions(self, player) -> bool:
        if player.bankrupt:
            return False        # out of the game (18Ireland B5): passed over
        return (self.can_sell_any(player) or self.can_buy_any(player)
                or bool(self.tradeable_privates(player, offered=True)))

    # ------------------------------------------------------------------
    # privates bought from another player

    def trades_allowed(self) -> bool:
        """Players may buy privates from each other in this stock round: the
        phase allows it (ruleset ``phases[].private_trades``) and it is not
        the first stock round (``stock.private_trades_after: first``)."""
        g = self.game
        if not g.phase.extra.get("private_trades"):
            return False
        after = g.rules.stock.private_trades_after
        return not (after == "first" and g.sr_number <= 1)

    def tradeable_privates(self, player, *, offered=False) -> list:
        """The open privates other players hold that ``player`` may buy now.
        With ``offered``, only those 18xx.games offers (it never offers a
        private marked ``no_sale_to_corporation``, B&O in 1830, although no
        published rule forbids selling it to a player): a player with
        nothing else to do is passed over then."""
        if not self.trades_allowed() or self.game.short_of(player, 1, look=True) \
                or (self.bought is not None and self.trade_is_buy()):
            return []
        return [c for c in self.game.companies.values()
                if not c.closed and isinstance(c.owner, Player) and c.owner is not player
                and not (offered and (c.spec.special or {}).get("no_sale_to_corporation"))]

    def trade_is_buy(self) -> bool:
        """A private bought from a player is the turn's one purchase (1830),
        or comes besides it (``stock.private_trade_is_buy: false``, 1857)."""
        return bool(self.game.rules.stock.private_trade_is_buy)

    def selling_allowed(self) -> bool:
        sell_after = self.game.rules.stock.sell_after
        return not (sell_after in ("first", "first_and_operate") and self.game.sr_number <= 1)

    def check_cert_limit_kept(self, player):
        """A player over the certificate limit (a price left a zone outside
        it) must sell down in their turn: flagged when the turn ends with the
        player still over it while a counting certificate could be sold."""
        g = self.game
        if g.rules.stock.over_cert_limit != "sell_down":
            return
        held = g.cert_limit_exceeded(player, 0)
        flagged = g.over_limit_flagged
        if held is None:
            flagged.pop(player.name, None)
            return
        if not self.can_sell_counting(player) or flagged.get(player.name, 0) >= held:
            return      # said once while the holding has not grown
        flagged[player.name] = held
        g.flag("stock.over_cert_limit",
               f"{player.name} holds {held} certificates, over the limit of {g.cert_limit}, "
               f"and ends the turn in {self.label} without selling down to it")

    def can_sell_counting(self, player) -> bool:
        """A certificate that counts for the limit may be sold now."""
        g = self.game
        return self.selling_allowed() and any(
            g.title.counts_for_cert_limit(corp)
            and self.may_sell(corp) and max_sellable_percent(g, player, corp) > 0
            for corp in g.corporations.values())

    def may_sell(self, corp) -> bool:
        return not (self.game.rules.stock.sell_after in ("operate", "first_and_operate")
                    and not corp.operated)

    def can_sell_any(self, player) -> bool:
        if not self.selling_allowed():
            return False
        g = self.game
        if self.bought_after_sale and g.rules.stock["sell_buy_order"] == "sell_buy_or_buy_sell":
            return False
        blocks = g.rules.stock["must_sell_in_blocks"]
        for corp in g.corporations.values():
            if not self.may_sell(corp) or (blocks and corp in self.sold_this_turn):
                continue
            if max_sellable_percent(g, player, corp) > 0:
                return True
        return False

    def can_buy_any(self, player) -> bool:
        g = self.game
        for corp in g.corporations.values():
            if corp.closed:
                continue
            if not corp.ipoed:
                if self.bought is None and self.can_par(player, corp):
                    return True
                continue
            for source in ("ipo", "pool"):
                cert = next((c for c in corp.certs if c.owner == source and not c.president),
                            None)
                if cert is None:
                    continue
                price = self.price_from(corp, source) * cert.percent // corp.share_percent
                if g.short_of(player, price, look=True):
                    continue
                try:
                    self.check_can_buy(player, corp, cert.percent, source=source)
                except RuleViolation:
                    continue
                return True
        return False

    def can_par(self, player, corp) -> bool:
        g = self.game
        if not g.market.par_cells:
            return False
        cheapest = min(c.price for c in g.market.par_cells)
        cost = cheapest * corp.certs[0].percent // corp.share_percent
        return not g.short_of(player, cost, look=True) and g.cert_limit_exceeded(player) is None

    def describe_turn(self) -> str:
        return self.current.name if self.current else ""

    def wants(self, action) -> bool:
        """A company acting means the stock round is over (its last passes
        may be left out of a hand-written record)."""
        return action.actor not in self.game.corporations

    def finish_round(self):
        if not self.finished:
            self.finish()

    # ------------------------------------------------------------------

    def end_turn(self):
        g = self.game
        self.current = g.next_player(self.current)
        self.acted = False
        self.turns += 1
        self.bought = None
        self.buys = 0
        self.bought_from_ipo = False
        self.sold_after_buy = False   # a sale came after a purchase (tells sell-buy from buy-sell)
        self.sold_this_turn = set()
        self.bought_after_sale = False

    def take_turn(self, player):
        """``player``'s turn begins where the record has them act."""
        self.current = player
        self.acted = False
        self.bought = None
        self.buys = 0

    def turn_after(self, player):
        """Whose turn follows ``player``'s: the next player who may do
        something (a pure look; nothing is passed)."""
        g = self.game
        nxt = g.next_player(player)
        for _ in range(len(g.players)):
            if self.has_actions(nxt):
                return nxt
            nxt = g.next_player(nxt)
        return nxt

    def step_classes(self) -> list:
        from ..steps.player_power import PlayerLayStep
        from ..steps.stock import (BuyPrivateStep, BuySharesStep, ExchangeStep, ParStep,
                                   PendingParStep, SellSharesStep, StockTurnStep)
        return [PendingParStep, ExchangeStep, PlayerLayStep, ParStep, BuySharesStep,
                SellSharesStep, BuyPrivateStep, StockTurnStep]

    def turn_step_for(self, action):
        """The step of a player's turn that owns ``action`` (``TurnStep``),
        or None."""
        from ..steps.stock import TurnStep
        return next((s for s in self.steps if isinstance(s, TurnStep) and s.owns(action)),
                    None)

    action_rule = "stock.action"

    def process(self, action):
        return self.process_by_step(action)

    def whose_turn(self):
        return self.current

    def take(self, step, action):
        """A turn's action goes through the turn's bookkeeping
        (:meth:`turn_action`); a par to set first, an exchange, a home
        station (blocking or at any moment) to its step at once."""
        if step.turn_action:
            return self.turn_action(action, step)
        return step.process(self.current, action)

    def after_pending_par(self):
        self.skip_inactive()        # the first player may have nothing to do

    def turn_action(self, action, step):
        """A player's action in his turn: passes and the end of the round
        (the ``StockTurnStep``), then the action itself, checked and applied
        by its ``step`` (the ``StockTurnStep`` itself refuses what no turn
        step owns).  The record-following layer has put the round where the
        record says the action stands (whose turn it is) and may have taken
        the line as another player's (``placed``)."""
        g = self.game
        if action.actor not in g.player_by_name:
            what = "corporation" if action.actor in g.corporations else "private"
            raise RuleViolation("turn.actor", f"{action.actor} is a {what}; only players act in "
                                              f"a stock round ({self.label})")
        player = g.player_by_name[action.actor]
        done = False
        placed = self.placed
        if placed is not None and placed[0] is action:
            _, player, how = placed
            if how == "accepted":
                self.ended_by_itself = None
                return      # said what the rules did without a word
            done = how == "done"
        if isinstance(action, Pass):
            self.ended_by_itself = None
            self.check_cert_limit_kept(player)
            if self.acted:
                self.end_turn()
            else:
                self.passes += 1
                self.end_turn()
                if self.passes >= len(g.players):
                    self.finish()
                    return
            self.skip_inactive()
            return
        if not done:
            step.process(player, action)
        self.ended_by_itself = None
        if self.bought is not None and self.sold_this_turn and not self.sold_after_buy:
            self.bought_after_sale = True
        self.passes = 0
        self.passed_over.clear()
        self.auto_passed.clear()
        self.acted = True
        self.last_actor = player
        self._line = action
        self.skip_inactive()
        self._line = None

    # ------------------------------------------------------------------

    def check_can_buy(self, player, corp: Corporation, cert_percent: int, *, par=False,
                      source="ipo", count: int = 1):
        """Why ``player`` may not buy ``count`` certificates (``cert_percent``
        in all) of ``corp`` now; changes nothing."""
        g = self.game
        if self.bought is not None:
            what = f"a share ({self.bought.sym})" if isinstance(self.bought, Corporation) \
                else f"the private {self.bought.sym}"
            cell = corp.price
            brown = (not g.rules.stock.buy_one_certificate
                     and cell is not None and cell.has("multiple_buy"))
            price = g.money(cell.price) if cell is not None else "-"
            if brown and not isinstance(self.bought, Corporation) \
                    and (source == "pool" or g.rules.option("multiple_brown_from_ipo")):
                # a private bought from a player was the turn's one purchase (a
                # certificate); 18xx.games still offers brown pool shares after it:
                # flagged, and taken as written (BuySharesStep.TAKEN_AS_WRITTEN)
                raise RuleViolation(
                    "stock.buy_after_private",
                    f"{player.name} already bought {what} this turn, the turn's one purchase; "
                    f"several {corp.sym} shares in the brown zone (price "
                    f"{price}) are a purchase of their own, not a second "
                    f"one after a private; 18xx.games allows it")
            if not (corp is self.bought and brown):
                raise RuleViolation("stock.one_buy",
                                    f"{player.name} already bought {what} this turn")
            # more shares of the one corporation in a zone that allows it (1830's
            # brown), sales between them or not; from the pool only, and not
            # after a share from the IPO, unless multiple_brown_from_ipo
            if not g.rules.option("multiple_brown_from_ipo") \
                    and (source != "pool" or self.bought_from_ipo):
                raise RuleViolation(
                    "stock.one_buy",
                    f"{player.name} already bought {what} this turn"
                    + (" from the IPO" if self.bought_from_ipo else "")
                    + f"; more {corp.sym} shares in the same turn (price "
                      f"{price}) may be bought from the pool only, "
                      f"not after or with shares from the IPO")
        if g.rules.stock.no_buy_after_sale and corp in self.sold.get(player, set()):
            raise RuleViolation("stock.rebuy",
                                f"{player.name} sold {corp.sym} this round and may not buy it "
                                f"again in {self.label}")
        self.check_cert_limit(player, corp, count)
        over = g.holding_limit_exceeded(player, corp, cert_percent)
        if over is not None:
            have, limit = over
            breach(RuleViolation("stock.holding_limit",
                                 f"{player.name} holds {have}% of {corp.sym}; buying "
                                 f"{cert_percent}% more would exceed the {limit}% limit"))

    def check_cert_limit(self, player, corp: Corporation, count: int = 1) -> None:
        """``player`` may not buy ``count`` certificates of ``corp`` over the
        certificate limit (``Game.cert_limit_exceeded``); a title may say it its
        own way."""
        g = self.game
        certs = g.cert_limit_exceeded(player, count, corp)
        if certs is not None:
            more = "one more" if count == 1 else f"{count} more"
            breach(RuleViolation("stock.cert_limit",
                                 f"{player.name} holds {certs} certificates; {more} would "
                                 f"exceed the limit of {g.cert_limit}"))

    def price_from(self, corp: Corporation, source) -> int:
        """What one share of ``corp`` costs from the IPO (its par, or the
        market price with ``stock.always_market_price``) or the pool."""
        if source == "ipo" and not self.game.rules.stock.always_market_price:
            return corp.par.price  # type: ignore[union-attr]
        return corp.price.price  # type: ignore[union-attr]

    # ------------------------------------------------------------------

    def finish(self):
        g = self.game
        if g.rules.stock.sold_out_increase:
            movers = [c for c in g.corporations.values()
                      if c.floated and not c.closed and c.price is not None
                      and self.sold_out(c)]
            movers.sort(key=g.price_order_key)
            top_row = g.rules.stock.sold_out_top_row
            for corp in movers:
                if corp.price.row == 0 and top_row == "right":
                    g.move_price(corp, "right")
                else:
                    g.move_price(corp, "up")
        self.set_priority()
        self.finished = True

    def sold_out(self, corp) -> bool:
        """Every share of ``corp`` is held by players."""
        return sum(corp.percent_of(p) for p in self.game.players) == 100

    def set_priority(self):
        """Who starts the next stock round (ruleset ``stock.next_sr_order``):
        the player after the last to act (1830), or seats dealt by cash, most
        first (1857)."""
        g = self.game
        if g.rules.stock.next_sr_order == "cash":
            from ..mechanics.shares import order_players_by_cash
            order_players_by_cash(g)
        elif self.last_actor is not None:
            g.priority = g.next_player(self.last_actor)
