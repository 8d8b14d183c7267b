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

from typing import Optional

from ..actions import (Bankrupt, BuyCompany, BuyShares, Checkpoint, Exchange, Par, Pass,
                       SellShares)
from ..findings import RuleViolation
from ..state import Corporation, Player
from . import Round
from ..mechanics.shares import max_sellable_percent, sale_percent, sell_shares, set_par
from .sale_lookahead import sell_as_record_implies


# ---------------------------------------------------------------------------

class StockRound(Round):
    kind = "SR"

    def __init__(self, game):
        super().__init__(game)
        self.passes = 0
        self.acted = False           # the current player did something this turn
        self.written = False         # ... or wrote a line in it (refused or not)
        self.stand_in = None         # (line, the turn's player, its turn.order finding)
        self.taken_for_owner = None  # a line done as the turn's player's (wrong_name)
        self.bought = None           # corporation bought this turn (None: nothing)
        self.buys = 0
        self.sold_after_buy = False
        self.sold: dict = {}         # player -> set of corporations sold this round
        self.last_actor = None
        self.current = None
        self.passed_over: set = set()   # players passed over without a word since the last buy or sale
        #: of those, the ones passed because the replay saw nothing they could
        #: do (not after acting): one who then acts takes the turn unflagged
        self.auto_passed: set = set()

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
        after = g.rules.stock.get("private_trades_after", "first")
        return not (after == "first" and g.sr_number <= 1)

    def tradeable_privates(self, player, *, offered=False) -> list:
        """The open privates other players hold that ``player`` may buy now.
        With ``offered``, only those 18xx.games offers (it never offers a
        private marked ``no_sale_to_corporation``, B&O in 1830, although no
        published rule forbids selling it to a player): a player with
        nothing else to do is passed over then."""
        if not self.trades_allowed() or player.cash <= 0 \
                or (self.bought is not None and self.trade_is_buy()):
            return []
        return [c for c in self.game.companies.values()
                if not c.closed and isinstance(c.owner, Player) and c.owner is not player
                and not (offered and (c.spec.special or {}).get("no_sale_to_corporation"))]

    def trade_is_buy(self) -> bool:
        """A private bought from a player is the turn's one purchase (1830),
        or comes besides it (``stock.private_trade_is_buy: false``, 1857)."""
        return bool(self.game.rules.stock.get("private_trade_is_buy", True))

    def selling_allowed(self) -> bool:
        sell_after = self.game.rules.stock.get("sell_after", "first")
        return not (sell_after in ("first", "first_and_operate") and self.game.sr_number <= 1)

    def written_pass(self, action, player) -> bool:
        """A pass written for a player the rules passed over (nothing they
        may do, or their turn ended after acting) and who still may do
        nothing: it says what leaving it out says, and is accepted."""
        if not isinstance(action, Pass) or player not in self.passed_over:
            return False
        return self.finished or (player is not self.current and not self.has_actions(player))

    def check_cert_limit_kept(self, player):
        """A player over the certificate limit (a price left a zone outside
        it) must sell down in their turn: flagged when the turn ends with the
        player still over it while a counting certificate could be sold."""
        g = self.game
        if g.rules.stock.get("over_cert_limit", "sell_down") != "sell_down":
            return
        held = g.num_certs(player)
        flagged = g.over_limit_flagged
        if held <= g.cert_limit:
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
            not (corp.price is not None and corp.price.has("no_cert_limit"))
            and self.may_sell(corp) and max_sellable_percent(g, player, corp) > 0
            for corp in g.corporations.values())

    def may_sell(self, corp) -> bool:
        return not (self.game.rules.stock.get("sell_after") in ("operate", "first_and_operate")
                    and not corp.operated)

    def can_sell_any(self, player) -> bool:
        if not self.selling_allowed():
            return False

        g = self.game
        for corp in g.corporations.values():
            if not self.may_sell(corp):
                continue
            if max_sellable_percent(g, player, corp) > 0:
                return True
        return False

    def can_buy_any(self, player) -> bool:
        g = self.game
        if self.sold_after_buy:
            return False
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
                if price > player.cash:
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
        return player.cash >= cost and g.num_certs(player) < g.cert_limit

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
        self.written = False
        self.bought = None
        self.buys = 0
        self.sold_after_buy = False

    def prepare(self, action):
        """Whose turn it is, as the record implies: the current player's turn
        ends when another player acts; a player acting out of turn is flagged
        and takes the turn (the record says they acted).  A turn whose only
        lines were refused was still taken: the next player's line ends it."""
        g = self.game
        player = g.player_by_name.get(action.actor)
        if player is None or self.blocking_step() is not None or isinstance(action, Exchange):
            return
        if self.prepared is action:
            return          # once per action (the engine and process both ask)
        self.prepared = action
        if player is self.current:
            self.written = True
            return
        if self.in_current_turn(action, player):
            cur = self.current
            if isinstance(action, Pass):
                f = g.flag("turn.order",
                           f"{player.name}'s pass is written after {cur.name}'s action, in "
                           f"{cur.name}'s turn, and the record goes on without {cur.name}'s "
                           f"own pass: taken as {cur.name}'s pass closing the turn (a wrong "
                           f"name)")
            else:
                f = g.flag("turn.order", f"{player.name} acted out of turn: it is "
                                         f"{cur.name}'s turn in {self.label}")
            self.stand_in = (action, cur, f)
            self.written = True
            return
        if self.acted or self.written:
            self.check_cert_limit_kept(self.current)
            self.end_turn()
        if self.written_pass(action, player):
            return      # a pass the rules made without a word: accepted as written
        if player is not self.current and player in self.auto_passed:
            # passed over since the last action because the replay saw nothing
            # they could do; the record says they acted: what they do is
            # checked on its own, the turn is theirs
            self.auto_passed.discard(player)
            self.take_turn(player)
        if player is not self.current:
            f = g.flag("turn.order", f"{player.name} acted out of turn: it is "
                                     f"{self.current.name}'s turn in {self.label}")
            if self.stands_in(player):
                # the record goes on as if the player whose turn it was had
                # acted: the line is applied, and the turn order kept
                self.stand_in = (action, self.current, f)
                self.written = True
                return
            self.take_turn(player)
        self.written = True

    #: what a line written in another player's turn may be taken as that
    #: player's (a wrong name): purchases, whose checks flag before changing
    OWNER_MAY_TAKE = (BuyShares, Par)

    def could_sell(self, player, action) -> bool:
        """``player`` could make this sale of one corporation's shares now
        with no finding (a pure look, for a wrong name: the shared sale
        only, whose checks then cannot refuse it half done)."""
        g = self.game
        if type(self).do_sell is not StockRound.do_sell or len(action.sales) != 1 \
                or not self.selling_allowed():
            return False
        sale = action.sales[0]
        corp = g.corporations.get(sale.corporation)
        if corp is None or corp.price is None:
            return False
        if g.rules.stock.get("sell_after", "first") in ("operate", "first_and_operate") \
                and not corp.operated:
            return False
        if self.bought is not None \
                and g.rules.stock.get("sell_buy_order", "sell_buy_sell") == "sell_buy":
            return False
        percent = sale_percent(g, corp, sale)
        if percent <= 0 or percent % corp.share_percent:
            return False
        pres = corp.president is player and percent > corp.percent_of(player) \
            - corp.certs[0].percent
        return not pres and percent <= max_sellable_percent(g, player, corp)

    def in_current_turn(self, action, player) -> bool:
        """A line under another player's name while the current player's
        turn, in which he has acted, is still open, in a record that closes
        a turn with its player's own pass (an export's, whose lines have no
        interjection): when the record's next line is the current player's
        (his turn goes on), or, for a pass, by the player whose turn follows
        or by ``player`` again (his own turn's line), the line was written
        in the current player's turn under a wrong name."""
        g = self.game
        if not self.acted or self.current is None or not g.closes_turns_with_pass:
            return False
        nxt = g.next_action
        other = g.player_by_name.get(getattr(nxt, "actor", None))
        if other is None or isinstance(nxt, Exchange):
            return False
        if other is self.current:
            return isinstance(nxt, Pass) or g.record_from_export
        if not isinstance(action, Pass):
            return False
        return other is player or other is self.turn_after(self.current)

    def wrong_name(self, action, named):
        """A line naming ``named``, written in the turn of the player whose
        turn it is (:meth:`stands_in`: the record goes on from that turn):
        when the turn's player could do what it says, with no finding, the
        name is taken as wrong and the line as that player's, so the
        holdings and cash after it are those the record goes on from.
        Otherwise the line stays ``named``'s.  Returns who acts."""
        _, owner, finding = self.stand_in
        if owner is named:
            return named
        if isinstance(action, SellShares):
            if not self.could_sell(owner, action):
                return named
        elif not isinstance(action, self.OWNER_MAY_TAKE):
            return named
        g = self.game
        if not g.clean_attempt(lambda: self.do_action(owner, action))[0]:
            return named
        finding.message += (f"; the record goes on from {owner.name}'s turn and "
                            f"{owner.name} could do this: taken as {owner.name}'s line "
                            f"(a wrong name)")
        self.taken_for_owner = action
        return owner

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

    def stands_in(self, player) -> bool:
        """``player`` acts in the current player's turn, and the record's
        next line is the current player's own pass closing his turn (in a
        record whose turns end so: his turn goes on) or is by the player whose turn follows
        the current one (not the one that would follow ``player``): the line
        was written in the current player's turn (a wrong name), so the turn
        order stays."""
        g = self.game
        nxt = g.next_action
        other = g.player_by_name.get(getattr(nxt, "actor", None))
        if other is None or isinstance(nxt, Exchange):
            return False
        if other is self.current:
            # his own pass closing the turn, in a record that closes turns so
            # (an export's): his turn goes on; in an export any line of his
            # goes on with his turn (the site's lines have no interjection);
            # in another record a line of his that is not a pass is his own
            # after an interjection
            return g.closes_turns_with_pass and (isinstance(nxt, Pass)
                                                 or g.record_from_export)
        expected = self.turn_after(self.current)
        return other is expected and other is not self.turn_after(player)

    def step_classes(self) -> list:
        from ..steps.stock import ExchangeStep, PendingParStep, StockTurnStep
        return [PendingParStep, ExchangeStep, StockTurnStep]

    action_rule = "stock.action"

    def process(self, action):
        return self.process_by_step(action)

    def after_pending_par(self):
        self.skip_inactive()        # the first player may have nothing to do

    def turn_action(self, action):
        """A player's action in his turn (the ``StockTurnStep``): whose turn
        it is, as the record implies, then the action itself."""
        g = self.game
        if action.actor not in g.player_by_name:
            what = "corporation" if action.actor in g.corporations else "private"
            raise RuleViolation("turn.actor", f"{action.actor} is a {what}; only players act in "
                                              f"a stock round ({self.label})")
        player = g.player_by_name[action.actor]
        if self.written_pass(action, player):
            self.passed_over.discard(player)    # said what the rules did without a word
            return
        self.prepare(action)
        if self.stand_in is not None and self.stand_in[0] is action:
            player = self.stand_in[1] if isinstance(action, Pass) \
                else self.wrong_name(action, player)
        if isinstance(action, Pass):
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
        if self.taken_for_owner is action:
            self.taken_for_owner = None     # done by wrong_name, as the turn's player
        else:
            self.do_action(player, action)
        self.passes = 0
        self.passed_over.clear()
        self.auto_passed.clear()
        self.acted = True
        self.last_actor = player
        self.skip_inactive()

    def do_action(self, player, action):
        if isinstance(action, Par):
            self.do_par(player, action)
        elif isinstance(action, BuyShares):
            self.do_buy(player, action)
        elif isinstance(action, SellShares):
            self.do_sell(player, action)
        elif isinstance(action, BuyCompany):
            self.do_buy_private(player, action)
        elif isinstance(action, Bankrupt):
            raise RuleViolation("stock.bankrupt", "bankruptcy happens only when a company "
                                                  "cannot buy a required train")
        else:
            raise RuleViolation("stock.action", f"'{action.verb}' is not a stock round action")

    # ------------------------------------------------------------------

    def check_can_buy(self, player, corp: Corporation, cert_percent: int, *, par=False,
                      source="ipo", count: int = 1):
        """Why ``player`` may not buy ``count`` certificates (``cert_percent``
        in all) of ``corp`` now; changes nothing."""
        g = self.game
        if self.bought is not None:
            same_brown = (corp is self.bought and corp.price is not None
                          and corp.price.has("multiple_buy")
                          and (source == "pool" or g.rules.option("multiple_brown_from_ipo")))
            if not same_brown:
                what = f"a share ({self.bought.sym})" if isinstance(self.bought, Corporation) \
                    else f"the private {self.bought.sym}"
                raise RuleViolation("stock.one_buy",
                                    f"{player.name} already bought {what} this turn")
        if self.sold_after_buy:
            raise RuleViolation("stock.sell_buy_order",
                                f"{player.name} sold after buying; no more buying this turn")
        if corp in self.sold.get(player, set()):
            raise RuleViolation("stock.rebuy",
                                f"{player.name} sold {corp.sym} this round and may not buy it "
                                f"again in {self.label}")
        zone_free = corp.price is not None and corp.price.has("no_cert_limit")
        if not zone_free:
            certs = g.num_certs(player)
            if certs + count > g.cert_limit:
                more = "one more" if count == 1 else f"{count} more"
                raise RuleViolation("stock.cert_limit",
                                    f"{player.name} holds {certs} certificates; {more} would "
                                    f"exceed the limit of {g.cert_limit}")
        limit = self.holding_limit(corp)
        have = corp.percent_of(player)
        unlimited = corp.price is not None and corp.price.has("unlimited")
        if have + cert_percent > limit and not unlimited:
            raise RuleViolation("stock.holding_limit",
                                f"{player.name} holds {have}% of {corp.sym}; buying "
                                f"{cert_percent}% more would exceed the {limit}% limit")

    def holding_limit(self, corp: Corporation) -> int:
        """Percent of ``corp`` one player may hold (ruleset ``stock.holding_limit``)."""
        return int(self.game.rules.stock.get("holding_limit", 60))

    def price_from(self, corp: Corporation, source) -> int:
        """What one share of ``corp`` costs from the IPO (its par, or the
        market price with ``stock.always_market_price``) or the pool."""
        if source == "ipo" and not self.game.rules.stock.get("always_market_price"):
            return corp.par.price
        return corp.price.price

    def check_president_purchase(self, player, corp: Corporation, price: int) -> int:
        """Why ``player`` may not buy ``corp``'s president's certificate at par
        ``price`` now (limits, cash); else its cost.  Changes nothing."""
        g = self.game
        pcert = corp.certs[0]
        cost = price * pcert.percent // corp.share_percent
        self.check_can_buy(player, corp, pcert.percent, par=True)
        if player.cash < cost:
            raise RuleViolation("stock.cash",
                                f"{player.name} has {g.money(player.cash)}; the president's "
                                f"certificate of {corp.sym} at par {g.money(price)} "
                                f"costs {g.money(cost)}")
        return cost

    #: refusals of a purchase that the record's line still defines: the
    #: player bought what the line names, at its price (cash may go below
    #: zero); flagged, and applied so that the replay stays with the record
    TAKEN_AS_WRITTEN = frozenset({"stock.cash", "stock.cert_limit", "stock.holding_limit"})

    def taken_as_written(self, check, otherwise=None, taken: Optional[list] = None):
        """Run ``check`` (pure); a refusal in :attr:`TAKEN_AS_WRITTEN` is
        flagged and the purchase goes on as written (returning
        ``otherwise()``); any other refusal is raised."""
        try:
            return check()
        except RuleViolation as v:
            if v.rule not in self.TAKEN_AS_WRITTEN:
                raise
            self.game.flag(v.rule, v.message + "; taken as bought, as the record says")
            if taken is not None:
                taken.append(v.rule)
            return otherwise() if otherwise is not None else None

    def par_cost(self, player, corp, price: int) -> int:
        """What the president's certificate at par ``price`` costs; a purchase
        over cash or a limit is flagged and taken as written."""
        return self.taken_as_written(
            lambda: self.check_president_purchase(player, corp, price),
            lambda: corp.certs[0].percent * price // corp.share_percent)

    def give_president_certificate(self, player, corp: Corporation, cost: int, payee):
        """The purchase of a president's certificate at par, checked by
        :meth:`check_president_purchase`: the turn's buy."""
        corp.certs[0].owner = player
        corp.president = player
        self.game.transfer(player, payee, cost)
        self.bought = corp
        self.buys += 1

    def parred_corporation(self, action):
        """The corporation a share purchase names; it must have a par value.
        A buy of a company nobody started, where the record's later lines
        give its par value, is a missing par line: flagged, and the par is
        taken as made by the buyer before this buy (see :meth:`missing_par`)."""
        corp = self.corporation(action.corporation)
        if not corp.ipoed:
            player = self.game.player_by_name.get(action.actor)
            if player is None or action.source not in (None, "ipo") \
                    or not self.missing_par(player, corp):
                raise RuleViolation("stock.not_parred",
                                    f"{corp.sym} has no par value yet: start it with "
                                    f"'par {corp.sym} PRICE'")
        return corp

    def par_in_record(self, corp):
        """The par value the record's later lines give ``corp`` (its first
        price checkpoint, when that is a par value, before the company acts),
        with the checkpoint; ``(None, None)`` when they give none.  Only to
        stay in step with the record, never to judge a line."""
        g = self.game
        for act in g.actions_ahead():
            if getattr(act, "actor", None) == corp.sym:
                break           # the company operates: its price may have moved
            if isinstance(act, Checkpoint) and act.subject == corp.sym \
                    and act.field == "price":
                price = act.value
                if isinstance(price, int) and g.market.par_cell(price) is not None:
                    return price, act
                break
        return None, None

    def missing_par(self, player, corp) -> bool:
        """``player`` buys a share of ``corp``, which nobody parred, and the
        record later says its par value: the par line is missing.  Flag it
        and play the par (the title's own par rules, its checks and its
        cost) as the turn before this one, so that the shares and cash
        after it are what the record goes on from.  False (nothing done)
        when the record does not say the par value: no price is invented."""
        g = self.game
        price, where = self.par_in_record(corp)
        if price is None:
            return False
        g.flag("stock.not_parred",
               f"{corp.sym} has no par value: a 'par {corp.sym}' line is missing before this "
               f"one; taken as {player.name} parring it at {g.money(price)} (the price "
               f"line {where.line or where.action_id} records) and then buying")
        self.do_par(player, Par(actor=player.name, corporation=corp.sym, price=price,
                                line=None))
        self.bought = None      # the par was the missing line's turn, not this one's
        self.buys = 0
        return True

    def do_par(self, player, action: Par):
        g = self.game
        corp = self.corporation(action.corporation)
        if corp.ipoed:
            raise RuleViolation("stock.par_twice",
                                f"{corp.sym} already has a par value of "
                                f"{g.money(corp.par.price)}")
        price = action.price
        cell = g.market.par_cell(price)
        if cell is None:
            pars = ", ".join(g.money(c.price) for c in g.market.par_cells)
            if not g.market.par_cells:
                raise RuleViolation("stock.par_price", f"{g.money(price)} is not a par value")
            # the record says the company was started: taken at the nearest par
            # value (the higher of two as near), so the replay stays with it
            near = min(g.market.par_cells, key=lambda c: (abs(c.price - price), -c.price))
            cost = self.par_cost(player, corp, near.price)   # refused as a par there would be
            g.flag("stock.par_price",
                   f"{g.money(price)} is not a par value; par values are {pars}; taken as a par "
                   f"of {g.money(near.price)}, the nearest")
            price = near.price
        else:
            cost = self.par_cost(player, corp, price)
        set_par(g, corp, price)
        self.give_president_certificate(player, corp, cost, g.ipo_payee(corp))
        g.check_float(corp)

    def do_buy(self, player, action: BuyShares):
        g = self.game
        corp = self.parred_corporation(action)
        percent = action.percent if action.percent is not None else \
            action.count * corp.share_percent
        elsewhere: list = []        # named certificates found with another player
        certs = self.pick_certs(player, corp, action, percent, elsewhere)
        source = certs[0].owner if not elsewhere else (action.source or "pool")
        price_each = self.price_from(corp, source)
        if action.percent is None and action.count > 1 or len(certs) > 1:
            # several shares at once: only in a multiple-buy zone
            if not (corp.price.has("multiple_buy")):
                raise RuleViolation("stock.one_buy",
                                    f"only one share may be bought per turn; {corp.sym} at "
                                    f"{g.money(corp.price.price)} is not in a zone that allows "
                                    f"buying several")
        # every check before any change: a refused purchase leaves all as it was
        percent = sum(c.percent for c in certs)
        cost = price_each * percent // corp.share_percent

        def check():
            self.check_can_buy(player, corp, percent, source=source, count=len(certs))
            if player.cash < cost:
                what = (f"a {corp.sym} share" if len(certs) == 1
                        else f"{len(certs)} {corp.sym} shares")
                raise RuleViolation("stock.cash",
                                    f"{player.name} has {g.money(player.cash)}; {what} from "
                                    f"{g.holder_name(source)} cost{'s' if len(certs) == 1 else ''} "
                                    f"{g.money(cost)}")
        taken: list = []
        self.taken_as_written(check, taken=taken)
        for cert in elsewhere:
            g.flag("stock.no_share",
                   f"certificate {cert.name} is held by {g.holder_name(cert.owner)}, and no "
                   f"equal {corp.sym} share is in the IPO or pool; taken from "
                   f"{g.holder_name(cert.owner)}, as the record names it")
        g.transfer(player, g.ipo_payee(corp) if source == "ipo" else g.bank, cost)
        for cert in certs:
            cert.owner = player
        self.bought = corp
        self.buys += len(certs)
        action.source = "ipo" if source == "ipo" else "pool"
        if "stock.cert_limit" in taken:
            # said at the purchase: not again when the turn ends over the limit
            g.over_limit_flagged[player.name] = g.num_certs(player)
        g.update_president(corp)
        g.check_float(corp)

    def pick_certs(self, player, corp, action: BuyShares, percent: int, elsewhere: list):
        g = self.game
        if action.certs:
            out = []
            for idx in action.certs:
                if idx >= len(corp.certs):
                    raise RuleViolation("stock.no_share", f"{corp.sym} has no certificate "
                                                          f"{corp.sym}_{idx}")
                cert = corp.certs[idx]
                if cert.owner not in ("ipo", "pool"):
                    # certificates of one size are alike: take an equal one
                    cert = next((c for src in (action.source, "pool", "ipo") if src
                                 for c in corp.certs if c.owner == src and not c.president
                                 and c.percent == cert.percent and c not in out), None)
                    named = corp.certs[idx]
                    if cert is None and isinstance(named.owner, Player) \
                            and named.owner is not player and not named.president:
                        # the record names it as bought from the bank: it is where an
                        # earlier finding left it (a sale that was refused); taken from there
                        elsewhere.append(named)
                        cert = named
                    if cert is None:
                        raise RuleViolation("stock.no_share",
                                            f"certificate {corp.certs[idx].name} is held by "
                                            f"{g.holder_name(corp.certs[idx].owner)}, and no "
                                            f"equal {corp.sym} share is in the IPO or pool")
                out.append(cert)
            return out
        sources = [action.source] if action.source else ["ipo", "pool"]
        for src in sources:
            cands = sorted((c for c in corp.certs if c.owner == src and not c.president),
                           key=lambda c: c.index)
            take, total = [], 0
            for c in cands:
                if total >= percent:
                    break
                take.append(c)
                total += c.percent
            if total == percent and take:
                return take
        where = " or ".join(g.holder_name(s) for s in sources)
        have = {s: corp.percent_of(s) for s in sources}
        detail = ", ".join(f"{g.holder_name(s)} has {v}%" for s, v in have.items())
        raise RuleViolation("stock.no_share",
                            f"no {percent}% of {corp.sym} is available from {where} ({detail})")

    def do_buy_private(self, player, action: BuyCompany):
        """A private bought from another player at any price the two agree
        on (1830: phases 2 to 4, from the second stock round).  It is the
        turn's one purchase (unless ``stock.private_trade_is_buy`` is false),
        and the buyer must stay within the cert limit."""
        g = self.game
        company = self.company(action.company)
        owner = company.owner
        if company.closed:
            raise RuleViolation("private.closed", f"{company.sym} is closed")
        if not isinstance(owner, Player):
            raise RuleViolation("private.owner", f"{company.sym} is held by "
                                                 f"{g.holder_name(owner)}; in a stock round a "
                                                 f"private is bought only from a player")
        if action.seller is not None and action.seller != owner.name:
            raise RuleViolation("private.seller", f"{company.sym} is held by {owner.name}, not "
                                                  f"{action.seller}")
        if owner is player:
            raise RuleViolation("private.owner", f"{player.name} already holds {company.sym}")
        if not g.phase.extra.get("private_trades"):
            raise RuleViolation("private.trade_phase",
                                f"players may not buy privates from each other in phase "
                                f"{g.phase.name}")
        if not self.trades_allowed():
            raise RuleViolation("private.trade_phase",
                                f"players may not buy privates from each other in {self.label}")
        if self.bought is not None and self.trade_is_buy():
            what = f"a share ({self.bought.sym})" if isinstance(self.bought, Corporation) \
                else f"the private {self.bought.sym}"
            raise RuleViolation("stock.one_buy",
                                f"{player.name} already bought {what} this turn; buying a "
                                f"private from a player is the turn's one purchase")
        if action.price < 0:
            raise RuleViolation("private.price", f"a price cannot be negative "
                                                 f"({g.money(action.price)})")
        if player.cash < action.price:
            raise RuleViolation("stock.cash", f"{player.name} has {g.money(player.cash)}; "
                                              f"{company.sym} costs {g.money(action.price)}")
        certs = g.num_certs(player)
        if certs + 1 > g.cert_limit:
            raise RuleViolation("stock.cert_limit",
                                f"{player.name} holds {certs} certificates; {company.sym} would "
                                f"exceed the limit of {g.cert_limit}")
        g.sell_private(company, player, action.price)
        action.seller = owner.name
        if self.trade_is_buy():
            self.bought = company
            self.buys += 1

    def do_sell(self, player, action: SellShares):
        g = self.game
        sell_after = g.rules.stock.get("sell_after", "first")
        if sell_after in ("first", "first_and_operate") and g.sr_number <= 1:
            raise RuleViolation("stock.sell_first_round",
                                "no shares may be sold in the first stock round")
        for sale in action.sales:
            corp = self.corporation(sale.corporation)
            if sell_after in ("operate", "first_and_operate") and not corp.operated:
                raise RuleViolation("stock.sell_before_operating",
                                    f"{corp.sym} has not operated yet; its shares cannot be sold")
            percent = sale_percent(g, corp, sale)
            try:
                sell_shares(g, player, corp, percent, certs=sale.certs)
            except RuleViolation as v:
                # a certificate not held: the sale the record's later lines imply
                corp = sell_as_record_implies(self, player, action, v)
            self.sold.setdefault(player, set()).add(corp)
        if self.bought is not None:
            order = g.rules.stock.get("sell_buy_order", "sell_buy_sell")
            if order == "sell_buy":
                raise RuleViolation("stock.sell_buy_order",
                                    "shares may not be sold after buying in the same turn")
            self.sold_after_buy = True

    # ------------------------------------------------------------------

    def finish(self):
        g = self.game
        if g.rules.stock.get("sold_out_increase", True):
            movers = [c for c in g.corporations.values()
                      if c.floated and not c.closed and c.price is not None
                      and self.sold_out(c)]
            movers.sort(key=g.price_order_key)
            for corp in movers:
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
        if g.rules.stock.get("next_sr_order", "after_last_to_act") == "cash":
            from ..mechanics.shares import order_players_by_cash
            order_players_by_cash(g)
        elif self.last_actor is not None:
            g.priority = g.next_player(self.last_actor)
