"""The steps of a stock round (``rounds/stock.py``) and of the private
auctions: what every title shares.  A player's turn in a stock round is the
round's bookkeeping (``StockTurnStep``, ``StockRound.turn_action``) and one
step per kind of action (``ParStep``, ``BuySharesStep``, ``SellSharesStep``,
``BuyPrivateStep``), each with a pure ``check`` and an ``apply``.  A title's
round adds its own steps (1860's home track and privates sold to the bank,
18Ireland's minor auctions and home stations) or replaces a shared one
(1860's ``BuySharesStep1860``) by listing them in ``step_classes``."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Optional

from ..actions import Bankrupt, BuyCompany, BuyShares, Exchange, Par, Pass, SellShares
from ..findings import RuleViolation, breach, collecting
from ..mechanics.shares import (apply_pending_par, check_pending_par, check_sale,
                                max_sellable_percent, named_not_held, sale_percent,
                                sell_shares, set_par)
from ..state import Corporation, Player
from .base import Step


class PendingParStep(Step):
    """A player was given a president's certificate (1830's B&O with its
    private): he sets its par before anything else happens."""

    only_blocking = True
    name = "setting a par"
    actions = (Par,)

    def blocking(self) -> bool:
        return self.game.pending_par is not None

    def owns(self, action) -> bool:
        return self.blocking()

    def check(self, turn, action):
        return check_pending_par(self.game, action)

    def apply(self, turn, action, cell) -> None:
        apply_pending_par(self.game, cell)
        after = getattr(self.round, "after_pending_par", None)
        if after is not None:
            after()


class ExchangeStep(Step):
    """A private exchanged for a share (1830's MH, 1860's four privates): at
    any moment, not a turn's action; the title checks and carries it out
    (``Title.check_exchange``, ``apply_exchange``, with the ability's
    window)."""

    name = "exchanging a private"
    actions = (Exchange,)

    def check(self, turn, action):
        return self.game.title.check_exchange(action)

    def apply(self, turn, action, plan) -> None:
        self.game.title.apply_exchange(action, plan)


class StockTurnStep(Step):
    """The players' turns: passes, in turn order, and whatever no other
    step owns (the round's ``turn_action``: whose turn it is, passes,
    wrong names, the end of the round).  It explains why a kind of action
    has no place in a stock round.  The turn's actions themselves (a par, a
    purchase, a sale, a private bought from a player) are the
    :class:`TurnStep` subclasses listed before it."""

    name = "buying and selling"
    actions = None
    turn_action = True

    def may_take_for(self, owner, action) -> bool:
        return False

    def takes(self, turn) -> tuple:
        return (Pass,)

    def check(self, player, action):
        """A pass (the round's turn bookkeeping); why ``action``, which no
        turn step owns, is no stock round action: refused."""
        if isinstance(action, Pass):
            return None
        if isinstance(action, Bankrupt):
            raise RuleViolation("stock.bankrupt", "bankruptcy happens only when a company "
                                                  "cannot buy a required train")
        raise RuleViolation("stock.action", f"'{action.verb}' is not a stock round action")

    def apply(self, player, action, plan) -> None:
        """(a pass is the round's: ``StockRound.turn_action``)"""


class TurnStep(Step):
    """One kind of a player's action in his stock-round turn.  The round
    (``StockRound.turn_action``) keeps the turn's bookkeeping (whose turn,
    passes, a line under a wrong name, the end of the round) and hands the
    action to the step: :meth:`check` is pure (raises ``RuleViolation`` or
    returns a plan), :meth:`apply` carries the plan out.  What is taken as
    written (a purchase over cash or a limit) is in the plan's ``notes``,
    flagged by :meth:`apply` before any change.  A title replaces a step
    class in its round's ``step_classes`` (1860's ``BuySharesStep1860``)."""

    #: refusals of a purchase that the record's line still defines: the
    #: player bought what the line names, at its price (cash may go below
    #: zero); flagged, and applied so that the replay stays with the record
    TAKEN_AS_WRITTEN = frozenset({"stock.cash", "stock.cert_limit", "stock.holding_limit",
                                  "stock.buy_after_private"})

    turn_action = True

    def check(self, player, action):
        """Why ``player`` may not do ``action`` now (raises), else the plan;
        changes nothing."""
        raise NotImplementedError

    def apply(self, player, action, plan) -> None:
        raise NotImplementedError

    def may_take_for(self, owner, action) -> bool:
        """A line of this kind written in ``owner``'s turn under another
        player's name may be tried as ``owner``'s (a wrong name): only when
        its checks flag before they change anything (a pure look)."""
        return False

    def taken_as_written(self, check, notes: list, otherwise=None, taken: Optional[list] = None):
        """Run ``check`` (pure), collecting every breach of a rule in
        :attr:`TAKEN_AS_WRITTEN` (``findings.breach``: the check goes on past
        one, so that a purchase over both the certificate limit and the
        player's cash is flagged for both); each goes into ``notes`` (flagged
        when the purchase is applied as written), and then ``otherwise()`` is
        returned.  Any other refusal is raised."""
        with collecting(self.TAKEN_AS_WRITTEN) as breaches:
            try:
                result = check()
            except RuleViolation as v:
                if v.rule not in self.TAKEN_AS_WRITTEN:
                    raise
                breaches.found.append(v)        # raised by a check that does not collect
                result = None
        for found in breaches.found:
            notes.append((found.rule, found.message + "; taken as bought, as the record says"))
            if taken is not None:
                taken.append(found.rule)
        if breaches.found and otherwise is not None:
            return otherwise()
        return result

    def flag_notes(self, notes) -> None:
        for rule, message in notes:
            self.game.flag(rule, message)


class ParStep(TurnStep):
    """A company started: its par set and the president's certificate bought
    at it.  A price that is no par value is taken at the nearest par value
    (flagged); a purchase over cash or a limit is flagged and taken as
    written."""

    name = "starting a company"
    actions = (Par,)

    def may_take_for(self, owner, action) -> bool:
        return True

    def check(self, player, action: Par):
        g = self.game
        corp = self.round.corporation(action.corporation)
        if corp.ipoed:
            raise RuleViolation("stock.par_twice",
                                f"{corp.sym} already has a par value of "
                                f"{g.money(corp.par.price)}")
        price = action.price
        notes: list = []
        cell = g.market.par_cell(price)
        if cell is None:
            pars = ", ".join(g.money(c.price) for c in g.market.par_cells)
            if not g.market.par_cells:
                raise RuleViolation("stock.par_price", f"{g.money(price)} is not a par value")
            # the record says the company was started: taken at the nearest par
            # value (the higher of two as near), so the replay stays with it
            near = min(g.market.par_cells, key=lambda c: (abs(c.price - price), -c.price))
            cost = self.par_cost(player, corp, near.price, notes)  # refused as a par there would be
            notes.append(("stock.par_price",
                          f"{g.money(price)} is not a par value; par values are {pars}; taken "
                          f"as a par of {g.money(near.price)}, the nearest"))
            price = near.price
        else:
            cost = self.par_cost(player, corp, price, notes)
        return SimpleNamespace(corp=corp, price=price, cost=cost, notes=notes)

    def apply(self, player, action: Par, plan) -> None:
        g = self.game
        self.flag_notes(plan.notes)
        set_par(g, plan.corp, plan.price)
        self.give_president_certificate(player, plan.corp, plan.cost, g.ipo_payee(plan.corp))
        g.check_float(plan.corp)

    def check_president_purchase(self, player, corp, price: int) -> int:
        """Why ``player`` may not buy ``corp``'s president's certificate at par
        ``price`` now (limits, cash); else its cost.  Changes nothing."""
        g = self.game
        pcert = corp.certs[0]
        cost = price * pcert.percent // corp.share_percent
        self.round.check_can_buy(player, corp, pcert.percent, par=True)
        if g.short_of(player, cost):
            breach(RuleViolation("stock.cash",
                                 f"{player.name} has {g.money(player.cash)}; the president's "
                                 f"certificate of {corp.sym} at par {g.money(price)} "
                                 f"costs {g.money(cost)}"))
        return cost

    def par_cost(self, player, corp, price: int, notes: list) -> int:
        """What the president's certificate at par ``price`` costs; a purchase
        over cash or a limit goes into ``notes``, taken as written."""
        return self.taken_as_written(
            lambda: self.check_president_purchase(player, corp, price), notes,
            lambda: corp.certs[0].percent * price // corp.share_percent)

    def give_president_certificate(self, player, corp, cost: int, payee) -> None:
        """The purchase of a president's certificate at par, checked by
        :meth:`check_president_purchase`: the turn's buy."""
        corp.certs[0].owner = player
        corp.president = player
        self.game.transfer(player, payee, cost)
        self.round.bought = corp
        self.round.buys += 1
        self.round.bought_from_ipo = True


class BuySharesStep(TurnStep):
    """Shares bought from the IPO or the pool: one per turn (several from a
    zone that allows it), within the limits; a purchase over cash or a
    limit is flagged and taken as written.  A buy of a company nobody
    started whose par the record gives later is a missing par line
    (``following/stock.py``)."""

    name = "buying shares"
    actions = (BuyShares,)

    def may_take_for(self, owner, action) -> bool:
        return True

    def parred_corporation(self, action):
        """The corporation a share purchase names, and the missing par line
        to play before it (None when it has a par value).  A buy of a
        company nobody started is refused unless the record's later lines
        give its par value (``following/stock.py``: played first)."""
        corp = self.round.corporation(action.corporation)
        if corp.ipoed:
            return corp, None
        player = self.game.player_by_name.get(action.actor)
        missing = None
        if player is not None and action.source in (None, "ipo"):
            # the par the record's later lines give it (a par line left out)
            missing = self.game.following.missing_par(self, player, corp)
        if missing is None:
            raise RuleViolation("stock.not_parred",
                                f"{corp.sym} has no par value yet: start it with "
                                f"'par {corp.sym} PRICE'")
        return corp, missing

    def apply(self, player, action: BuyShares, plan) -> None:
        if plan.missing is not None:
            self.game.following.play_missing_par(self, plan.missing)
            plan = self.check(player, action)      # this buy, after the par it needed
        self.apply_buy(player, action, plan)

    def check(self, player, action: BuyShares):
        g = self.game
        rnd = self.round
        corp, missing = self.parred_corporation(action)
        if missing is not None:
            return SimpleNamespace(missing=missing)
        percent = action.percent if action.percent is not None else \
            action.count * corp.share_percent
        elsewhere: list = []        # named certificates found with another player
        swapped: list = []          # (named, taken): named ones held by a player, an equal one taken
        certs = self.pick_certs(player, corp, action, percent, elsewhere, swapped)
        source = certs[0].owner if not elsewhere else (action.source or "pool")
        price_each = rnd.price_from(corp, source)
        if action.percent is None and action.count > 1 or len(certs) > 1:
            # several shares at once: only in a multiple-buy zone (and not where
            # one certificate a turn is the rule in every zone)
            if g.rules.stock.buy_one_certificate:
                raise RuleViolation("stock.one_buy",
                                    "only one certificate may be bought per turn, in every zone")
            if not corp.price.has("multiple_buy"):
                raise RuleViolation("stock.one_buy",
                                    f"only one share may be bought per turn; {corp.sym} at "
                                    f"{g.money(corp.price.price)} is not in a zone that allows "
                                    f"buying several")
            if source != "pool" and not g.rules.option("multiple_brown_from_ipo"):
                raise RuleViolation("stock.one_buy",
                                    f"several {corp.sym} shares at {g.money(corp.price.price)} "
                                    f"may be bought in one turn from the pool only; from "
                                    f"{g.holder_name(source)} one share per turn")
        percent = sum(c.percent for c in certs)
        cost = price_each * percent // corp.share_percent

        def check():
            rnd.check_can_buy(player, corp, percent, source=source, count=len(certs))
            if g.short_of(player, cost):
                what = (f"a {corp.sym} share" if len(certs) == 1
                        else f"{len(certs)} {corp.sym} shares")
                breach(RuleViolation("stock.cash",
                                     f"{player.name} has {g.money(player.cash)}; {what} from "
                                     f"{g.holder_name(source)} "
                                     f"cost{'s' if len(certs) == 1 else ''} "
                                     f"{g.money(cost)}"))
        notes: list = []
        taken: list = []
        self.taken_as_written(check, notes, taken=taken)
        for named, name, cert in swapped:
            where = (f"is held by {g.holder_name(named.owner)}" if named is not None
                     else f"is not one of {corp.sym}'s (its certificates are {corp.sym}_0 to "
                          f"{corp.sym}_{len(corp.certs) - 1})")
            notes.append(("stock.no_share",
                          f"certificate {name} {where}: shares are bought from the IPO or the "
                          f"pool; taken as {cert.name} from {g.holder_name(cert.owner)}, an "
                          f"equal share"))
        for cert in elsewhere:
            notes.append(("stock.no_share",
                          f"certificate {cert.name} is held by {g.holder_name(cert.owner)}, and "
                          f"no equal {corp.sym} share is in the IPO or pool; taken from "
                          f"{g.holder_name(cert.owner)}, as the record names it"))
        return SimpleNamespace(missing=None, corp=corp, certs=certs, source=source, cost=cost,
                               notes=notes, over_cert_limit="stock.cert_limit" in taken)

    def apply_buy(self, player, action: BuyShares, plan) -> None:
        g = self.game
        corp, source = plan.corp, plan.source
        self.flag_notes(plan.notes)
        g.transfer(player, g.ipo_payee(corp) if source == "ipo" else g.bank, plan.cost)
        for cert in plan.certs:
            cert.owner = player
        self.round.bought = corp
        self.round.buys += len(plan.certs)
        if source == "ipo":
            self.round.bought_from_ipo = True
        action.source = "ipo" if source == "ipo" else "pool"
        if plan.over_cert_limit:
            # said at the purchase: not again when the turn ends over the limit
            g.over_limit_flagged[player.name] = g.num_certs(player)
        g.update_president(corp)
        g.check_float(corp)

    def pick_certs(self, player, corp, action: BuyShares, percent: int, elsewhere: list,
                   swapped: list):
        g = self.game
        if action.certs:
            out = []
            for idx in action.certs:
                named = corp.certs[idx] if idx < len(corp.certs) else None
                cert = named
                if named is None or named.owner not in ("ipo", "pool") or named in out:
                    # certificates of one size are alike: take an equal one (of the
                    # size bought, for a number the company has not or a president's)
                    size = named.percent if named is not None and not named.president \
                        else percent // len(action.certs)
                    cert = next((c for src in (action.source, "pool", "ipo") if src
                                 for c in corp.certs if c.owner == src and not c.president
                                 and c.percent == size and c not in out), None)
                    if cert is None and named is not None and isinstance(named.owner, Player) \
                            and named.owner is not player and not named.president:
                        # the record names it as bought from the bank: it is where an
                        # earlier finding left it (a sale that was refused); taken from there
                        elsewhere.append(named)
                        cert = named
                    elif cert is not None and (named is None or g.title.names_certificates
                                               and isinstance(named.owner, Player)):
                        # the site refuses a purchase naming a player's certificate
                        # ("Cannot buy a share of ...") or one the company has not:
                        # flagged, the equal one taken
                        swapped.append((named, f"{corp.sym}_{idx}", cert))
                    if cert is None:
                        if named is None:
                            raise RuleViolation("stock.no_share", f"{corp.sym} has no certificate "
                                                                  f"{corp.sym}_{idx}")
                        raise RuleViolation("stock.no_share",
                                            f"certificate {named.name} is held by "
                                            f"{g.holder_name(named.owner)}, and no "
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
        # (by equality: a source read from the record is an equal string, not the same one)
        have = {s: sum(c.percent for c in corp.certs if c.owner == s) for s in sources}
        detail = ", ".join(f"{g.holder_name(s)} has {v}%" for s, v in have.items())
        raise RuleViolation("stock.no_share",
                            f"no {percent}% of {corp.sym} is available from {where} ({detail})")


class SellSharesStep(TurnStep):
    """Shares sold to the pool: not in the first stock round (or before the
    company operated, ``stock.sell_after``), within the pool limit, the
    president's certificate changing hands only to a player who can take
    it; in a title whose turn is sales then one purchase, no sale after buying
    (``stock.sell_buy_order: sell_buy``; 1830's sell-buy-sell puts no order
    between its sales and its purchase)."""

    name = "selling shares"
    actions = (SellShares,)

    def check(self, player, action: SellShares):
        g = self.game
        rnd = self.round
        sell_after = g.rules.stock.sell_after
        if sell_after in ("first", "first_and_operate") and g.sr_number <= 1:
            raise RuleViolation("stock.sell_first_round",
                                "no shares may be sold in the first stock round")
        sales = []
        notes: list = []
        for sale in action.sales:
            corp = rnd.corporation(sale.corporation)
            if sell_after in ("operate", "first_and_operate") and not corp.operated:
                raise RuleViolation("stock.sell_before_operating",
                                    f"{corp.sym} has not operated yet; its shares cannot be sold")
            percent = sale_percent(g, corp, sale)
            try:
                check_sale(g, player, corp, percent)
            except RuleViolation as v:
                # a certificate not held: the sale the record's later lines imply
                corp, percent, certs, message = g.following.implied_sale(self, player,
                                                                         action, v)
                notes.append((v.rule, message))
                sales.append((corp, percent, certs))
                continue
            wrong = named_not_held(g, player, corp, sale.certs, percent)
            if wrong:
                notes.append(("stock.sell_not_owned", wrong))
            sales.append((corp, percent, sale.certs))
        order = g.rules.stock.sell_buy_order
        if rnd.bought is not None and order == "sell_buy":
            raise RuleViolation("stock.sell_buy_order",
                                "shares may not be sold after buying in the same turn")
        if rnd.bought_after_sale and order == "sell_buy_or_buy_sell":
            raise RuleViolation("stock.sell_buy_order",
                                f"{player.name} sold and then bought in this turn; no more "
                                f"selling this turn (sell then buy, or buy then sell)")
        if g.rules.stock["must_sell_in_blocks"]:
            for corp in (c for c, _, _ in sales):
                if corp in rnd.sold_this_turn:
                    raise RuleViolation("stock.sell_blocks",
                                        f"{player.name} already sold {corp.sym} this turn")
        return SimpleNamespace(sales=sales, notes=notes)

    def apply(self, player, action: SellShares, plan) -> None:
        g = self.game
        rnd = self.round
        self.flag_notes(plan.notes)
        for corp, percent, certs in plan.sales:
            sell_shares(g, player, corp, percent, certs=certs)
            rnd.sold.setdefault(player, set()).add(corp)
            rnd.sold_this_turn.add(corp)
        if rnd.bought is not None:
            rnd.sold_after_buy = True

    def may_take_for(self, owner, action) -> bool:
        # (a sale handing the presidency over too, when the rules let it:
        # the shares then swapped flag nothing; 1830_rand_48000100_2 #798)
        return self.could_sell(owner, action, presidency=True)

    def could_sell(self, player, action, presidency: bool = False) -> bool:
        """``player`` could make this sale of one corporation's shares now
        with no finding (a pure look, for a wrong name: the shared sale
        only, whose checks then cannot refuse it half done); ``presidency``:
        also a sale that hands the presidency over, when the rules let it."""
        g = self.game
        rnd = self.round
        if len(action.sales) != 1 or not rnd.selling_allowed():
            return False
        sale = action.sales[0]
        corp = g.corporations.get(sale.corporation)
        if corp is None or corp.price is None:
            return False
        if g.rules.stock.sell_after in ("operate", "first_and_operate") \
                and not corp.operated:
            return False
        order = g.rules.stock.sell_buy_order
        if (rnd.bought is not None and order == "sell_buy") \
                or (rnd.bought_after_sale and order == "sell_buy_or_buy_sell") \
                or (g.rules.stock.must_sell_in_blocks and corp in rnd.sold_this_turn):
            return False
        percent = sale_percent(g, corp, sale)
        if percent <= 0 or percent % corp.share_percent:
            return False
        pres = corp.president is player and percent > corp.percent_of(player) \
            - corp.certs[0].percent
        return (presidency or not pres) and percent <= max_sellable_percent(g, player, corp)


class BuyPrivateStep(TurnStep):
    """A private bought from another player at any price the two agree on
    (1830: phases 2 to 4, from the second stock round).  It is the turn's
    one purchase (unless ``stock.private_trade_is_buy`` is false), and the
    buyer must stay within the cert limit."""

    name = "buying a private"
    actions = (BuyCompany,)

    def check(self, player, action: BuyCompany):
        g = self.game
        rnd = self.round
        company = rnd.company(action.company)
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
        if not rnd.trades_allowed():
            raise RuleViolation("private.trade_phase",
                                f"players may not buy privates from each other in {rnd.label}")
        if rnd.bought is not None and rnd.trade_is_buy():
            what = f"a share ({rnd.bought.sym})" if isinstance(rnd.bought, Corporation) \
                else f"the private {rnd.bought.sym}"
            raise RuleViolation("stock.one_buy",
                                f"{player.name} already bought {what} this turn; buying a "
                                f"private from a player is the turn's one purchase")
        if action.price < 0:
            raise RuleViolation("private.price", f"a price cannot be negative "
                                                 f"({g.money(action.price)})")
        if g.short_of(player, action.price):
            raise RuleViolation("stock.cash", f"{player.name} has {g.money(player.cash)}; "
                                              f"{company.sym} costs {g.money(action.price)}")
        notes = []
        certs = g.cert_limit_exceeded(player)
        if certs is not None:
            # the record still says who holds the private and what was paid:
            # flagged and taken as written, as a purchase of shares over the
            # limit is (18xx.games checks no limit on a private bought from a
            # player; docs/1830.md, "A private bought over the certificate limit")
            notes.append(("private.cert_limit",
                          f"{player.name} holds {certs} certificates; {company.sym} would "
                          f"exceed the limit of {g.cert_limit}; taken as bought, as the "
                          f"record says"))
        return company, owner, notes

    def apply(self, player, action: BuyCompany, plan) -> None:
        company, owner, notes = plan
        self.flag_notes(notes)
        self.game.sell_private(company, player, action.price)
        action.seller = owner.name
        if self.round.trade_is_buy():
            self.round.bought = company
            self.round.buys += 1


class AuctionBidStep(Step):
    """The auction itself: bids, purchases, choices and passes in the
    auction's order (the round's ``bid_action``); it explains why another
    kind of action has no place in the auction."""

    name = "bidding"
    actions = None

    def takes(self, turn) -> tuple:
        return self.round.bid_kinds()

    def check(self, turn, action):
        return self.round.check_bid_action(action)

    def apply(self, turn, action, plan) -> None:
        self.round.apply_bid_action(action, plan)
