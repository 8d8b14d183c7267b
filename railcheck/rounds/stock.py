"""Stock rounds: par, buy and sell shares in turn order until all pass.

A player's turn is every consecutive action of theirs; it ends with their
``pass`` or when the next player acts.  A pass in a turn where the player
did nothing else is a real pass; the round ends when every player has
passed in a row.  Limits follow the ruleset's ``stock`` section: certificate
limit (with market zones outside it), holding limit, pool limit, no selling
before ``sell_after``, sell-buy-sell order, no rebuying what you sold this
round, several brown shares per turn, sold-out rise at the end.
"""

from __future__ import annotations

from ..actions import Bankrupt, BuyShares, Exchange, Par, Pass, SellShares
from ..findings import RuleViolation
from ..state import Corporation, Player
from . import Round


# ---------------------------------------------------------------------------
# shared by every round that sells or pars shares

def set_par(g, corp: Corporation, price: int):
    cell = g.market.par_cell(price)
    if cell is None:
        pars = ", ".join(str(c.price) for c in g.market.par_cells)
        raise RuleViolation("stock.par_price",
                            f"{g.money(price)} is not a par value; par values are {pars}")
    corp.par = cell
    g.place_price(corp, cell)


def process_pending_par(g, action):
    player, corp = g.pending_par
    if not isinstance(action, Par) or action.actor != player.name \
            or action.corporation != corp.sym:
        raise RuleViolation("stock.par_required",
                            f"{player.name} must first set the par price of {corp.sym} "
                            f"(they hold its president's certificate)")
    set_par(g, corp, action.price)
    g.pending_par = None
    g.check_float(corp)


def sell_shares(g, player: Player, corp: Corporation, percent: int, *, emergency_for=None,
                certs: tuple = ()):
    """Move ``percent`` of ``corp`` from ``player`` to the pool, pay the
    player, swap the presidency if needed, drop the price.  Checks the
    generic limits (ownership, pool limit, president's certificate)."""
    held = corp.percent_of(player)
    if corp.price is None:
        raise RuleViolation("stock.sell_not_parred",
                            f"{corp.sym} has no share price yet; its shares cannot be sold")
    if percent <= 0:
        raise RuleViolation("stock.sell_amount", "nothing to sell")
    if held < percent:
        raise RuleViolation("stock.sell_not_owned",
                            f"{player.name} holds {held}% of {corp.sym} and cannot sell "
                            f"{percent}%")
    pool_limit = int(g.rules.stock.get("pool_limit", 50))
    in_pool = corp.percent_of("pool")
    if in_pool + percent > pool_limit:
        raise RuleViolation("stock.pool_limit",
                            f"the bank pool holds {in_pool}% of {corp.sym}; selling {percent}% "
                            f"would put {in_pool + percent}% there, over the {pool_limit}% limit")
    remaining = held - percent
    if emergency_for is corp and corp.president is player:
        others = max((corp.percent_of(p) for p in g.players if p is not player), default=0)
        if others > remaining:
            raise RuleViolation("emergency.presidency",
                                f"{player.name} may not give up the presidency of {corp.sym} "
                                f"while raising money for it: selling {percent}% leaves "
                                f"{remaining}%, less than another player's {others}%")
    if corp.president is player:
        pcert = corp.certs[0]
        others = {p: corp.percent_of(p) for p in g.players if p is not player}
        best = max(others.values()) if others else 0
        ordinary = held - pcert.percent
        if percent > ordinary:
            # the president's certificate must change hands
            if best < pcert.percent:
                raise RuleViolation(
                    "stock.president_cert",
                    f"{player.name} is president of {corp.sym} with {held}%; selling "
                    f"{percent}% would leave {remaining}% and no other player holds "
                    f"{pcert.percent}% to take the president's certificate")
            if emergency_for is corp:
                raise RuleViolation("emergency.presidency",
                                    f"{player.name} may not give up the presidency of "
                                    f"{corp.sym} while raising money for it")
    # pay and move: ordinary certificates of the seller go to the pool
    price = corp.price.price
    g.transfer(g.bank, player, price * percent // corp.share_percent)
    if corp.president is player and percent > held - corp.certs[0].percent:
        # hand over the presidency first (the new president gives back shares)
        others = [p for p in _seat_order_after(g, player) if corp.percent_of(p) > remaining]
        best = max(corp.percent_of(p) for p in others)
        new = next(p for p in others if corp.percent_of(p) == best)
        g.swap_president_cert(corp, player, new)
        corp.president = new
    to_move = percent
    named = [corp.certs[i] for i in certs if i < len(corp.certs)
             and corp.certs[i].owner is player and not corp.certs[i].president]
    rest = [c for c in sorted(corp.certs_of(player), key=lambda c: (c.president, -c.index))
            if c not in named]
    for cert in named + rest:
        if to_move <= 0:
            break
        if cert.president:
            continue
        if cert.percent <= to_move:
            cert.owner = "pool"
            to_move -= cert.percent
    if to_move > 0:
        raise RuleViolation("stock.sell_split",
                            f"{percent}% of {corp.sym} cannot be made of {player.name}'s "
                            f"certificates")
    g.update_president(corp, seller=player)
    movement = g.rules.stock.get("sell_movement", "down_share")
    if movement == "down_share":
        g.move_price(corp, "down", percent // corp.share_percent)
    elif movement == "down_per_sale":
        g.move_price(corp, "down", 1)
    elif movement == "left_share":
        g.move_price(corp, "left", percent // corp.share_percent)


def _seat_order_after(g, player):
    n = len(g.players)
    return [g.players[(player.seat + i) % n] for i in range(1, n)]


def sale_percent(g, corp, sale) -> int:
    if sale.percent is not None:
        return sale.percent
    return sale.count * corp.share_percent


def exchange_private(g, action: Exchange):
    """A private exchanged for a share (1830's MH for a NYC share)."""
    company = g.companies.get(action.actor)
    if company is None or company.closed:
        raise RuleViolation("exchange.company", f"{action.actor} is not an open private")
    spec = (company.spec.special or {}).get("exchange")
    if not spec:
        raise RuleViolation("exchange.company", f"{company.sym} cannot be exchanged for a share")
    if action.corporation != spec["corporation"]:
        raise RuleViolation("exchange.corporation",
                            f"{company.sym} can be exchanged only for a {spec['corporation']} share")
    owner = company.owner
    if not isinstance(owner, Player):
        raise RuleViolation("exchange.owner", f"{company.sym} must be owned by a player to be "
                                              f"exchanged")
    corp = g.corporations[spec["corporation"]]
    sources = action.source and [action.source] or ["ipo", "pool"]
    sources = [s for s in sources if s in [("pool" if x == "market" else x) for x in spec.get("from", ["ipo", "pool"])]]
    cert = None
    if action.certs:
        idx = action.certs[0]
        cand = corp.certs[idx] if idx < len(corp.certs) else None
        if cand is None or cand.owner not in sources:
            raise RuleViolation("exchange.no_share",
                                f"certificate {corp.sym}_{idx} is not in "
                                + " or ".join(g.holder_name(s) for s in sources))
        cert = cand
    for src in ([] if cert else sources):
        cands = [c for c in corp.certs if c.owner == src and not c.president]
        if cands:
            cert = min(cands, key=lambda c: c.index)
            break
    if cert is None:
        raise RuleViolation("exchange.no_share", f"no {corp.sym} share is left in "
                                                 + " or ".join(sources))
    limit = int(g.rules.stock.get("holding_limit", 60))
    unlimited = corp.price is not None and corp.price.has("unlimited")
    if corp.percent_of(owner) + cert.percent > limit and not unlimited:
        raise RuleViolation("stock.holding_limit",
                            f"{owner.name} holds {corp.percent_of(owner)}% of {corp.sym}; the "
                            f"exchange would exceed the {limit}% limit")
    action.source = cert.owner
    cert.owner = owner
    g.close_company(company)
    g.update_president(corp)
    g.check_float(corp)


# ---------------------------------------------------------------------------

class StockRound(Round):
    kind = "SR"

    def __init__(self, game):
        super().__init__(game)
        self.passes = 0
        self.acted = False           # the current player did something this turn
        self.bought = None           # corporation bought this turn (None: nothing)
        self.buys = 0
        self.sold_after_buy = False
        self.sold: dict = {}         # player -> set of corporations sold this round
        self.last_actor = None
        self.current = None

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
            if self.acted:
                self.end_turn()
                continue
            self.passes += 1
            self.end_turn()
            if self.passes >= len(g.players):
                self.finish()
                return

    def has_actions(self, player) -> bool:
        return self.can_sell_any(player) or self.can_buy_any(player)

    def selling_allowed(self) -> bool:
        sell_after = self.game.rules.stock.get("sell_after", "first")
        return not (sell_after in ("first", "first_and_operate") and self.game.sr_number <= 1)

    def can_sell_any(self, player) -> bool:
        if not self.selling_allowed():
            return False
        from ..titles.common import max_sellable_percent
        g = self.game
        for corp in g.corporations.values():
            if g.rules.stock.get("sell_after") in ("operate", "first_and_operate") \
                    and not corp.operated:
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
                price = (corp.par.price if source == "ipo" else corp.price.price) \
                    * cert.percent // corp.share_percent
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
        self.bought = None
        self.buys = 0
        self.sold_after_buy = False

    def process(self, action):
        g = self.game
        if g.pending_par is not None:
            return process_pending_par(g, action)
        if isinstance(action, Exchange):
            return exchange_private(g, action)
        if action.actor not in g.player_by_name:
            what = "corporation" if action.actor in g.corporations else "private"
            raise RuleViolation("turn.actor", f"{action.actor} is a {what}; only players act in "
                                              f"a stock round ({self.label})")
        player = g.player_by_name[action.actor]
        if player is not self.current:
            if self.acted:
                self.end_turn()
            if player is not self.current:
                g.flag("turn.order", f"{player.name} acted out of turn: it is "
                                     f"{self.current.name}'s turn in {self.label}")
                self.current = player
                self.acted = False
                self.bought = None
                self.buys = 0
        if isinstance(action, Pass):
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
        if isinstance(action, Par):
            self.do_par(player, action)
        elif isinstance(action, BuyShares):
            self.do_buy(player, action)
        elif isinstance(action, SellShares):
            self.do_sell(player, action)
        elif isinstance(action, Bankrupt):
            raise RuleViolation("stock.bankrupt", "bankruptcy happens only when a company "
                                                  "cannot buy a required train")
        else:
            raise RuleViolation("stock.action", f"'{action.verb}' is not a stock round action")
        self.passes = 0
        self.acted = True
        self.last_actor = player
        self.skip_inactive()

    # ------------------------------------------------------------------

    def check_can_buy(self, player, corp: Corporation, cert_percent: int, *, par=False,
                      source="ipo"):
        g = self.game
        if self.bought is not None:
            same_brown = (corp is self.bought and corp.price is not None
                          and corp.price.has("multiple_buy")
                          and (source == "pool" or g.rules.option("multiple_brown_from_ipo")))
            if not same_brown:
                raise RuleViolation("stock.one_buy",
                                    f"{player.name} already bought a share ({self.bought.sym}) "
                                    f"this turn")
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
            if certs + 1 > g.cert_limit:
                raise RuleViolation("stock.cert_limit",
                                    f"{player.name} holds {certs} certificates; one more would "
                                    f"exceed the limit of {g.cert_limit}")
        limit = int(g.rules.stock.get("holding_limit", 60))
        have = corp.percent_of(player)
        unlimited = corp.price is not None and corp.price.has("unlimited")
        if have + cert_percent > limit and not unlimited:
            raise RuleViolation("stock.holding_limit",
                                f"{player.name} holds {have}% of {corp.sym}; buying "
                                f"{cert_percent}% more would exceed the {limit}% limit")

    def do_par(self, player, action: Par):
        g = self.game
        corp = self.corporation(action.corporation)
        if corp.ipoed:
            raise RuleViolation("stock.par_twice",
                                f"{corp.sym} already has a par value of "
                                f"{g.money(corp.par.price)}")
        cell = g.market.par_cell(action.price)
        if cell is None:
            pars = ", ".join(g.money(c.price) for c in g.market.par_cells)
            raise RuleViolation("stock.par_price",
                                f"{g.money(action.price)} is not a par value; par values "
                                f"are {pars}")
        pcert = corp.certs[0]
        cost = action.price * pcert.percent // corp.share_percent
        self.check_can_buy(player, corp, pcert.percent, par=True)
        if player.cash < cost:
            raise RuleViolation("stock.cash",
                                f"{player.name} has {g.money(player.cash)}; the president's "
                                f"certificate of {corp.sym} at par {g.money(action.price)} "
                                f"costs {g.money(cost)}")
        set_par(g, corp, action.price)
        pcert.owner = player
        corp.president = player
        g.transfer(player, g.bank, cost)
        self.bought = corp
        self.buys += 1
        g.check_float(corp)

    def do_buy(self, player, action: BuyShares):
        g = self.game
        corp = self.corporation(action.corporation)
        if not corp.ipoed:
            raise RuleViolation("stock.not_parred",
                                f"{corp.sym} has no par value yet: start it with "
                                f"'par {corp.sym} PRICE'")
        percent = action.percent if action.percent is not None else \
            action.count * corp.share_percent
        certs = self.pick_certs(player, corp, action, percent)
        source = certs[0].owner
        price_each = corp.par.price if source == "ipo" else corp.price.price
        if action.percent is None and action.count > 1 or len(certs) > 1:
            # several shares at once: only in a multiple-buy zone
            if not (corp.price.has("multiple_buy")):
                raise RuleViolation("stock.one_buy",
                                    f"only one share may be bought per turn; {corp.sym} at "
                                    f"{g.money(corp.price.price)} is not in a zone that allows "
                                    f"buying several")
        for cert in certs:
            self.check_can_buy(player, corp, cert.percent, source=source)
            cost = price_each * cert.percent // corp.share_percent
            if player.cash < cost:
                raise RuleViolation("stock.cash",
                                    f"{player.name} has {g.money(player.cash)}; a {corp.sym} "
                                    f"share from {g.holder_name(source)} costs {g.money(cost)}")
            g.transfer(player, g.bank, cost)
            cert.owner = player
            self.bought = corp
            self.buys += 1
        action.source = "ipo" if source == "ipo" else "pool"
        g.update_president(corp)
        g.check_float(corp)

    def pick_certs(self, player, corp, action: BuyShares, percent: int):
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
            sell_shares(g, player, corp, percent, certs=sale.certs)
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
                      and sum(c.percent_of(p) for p in g.players) == 100]
            movers.sort(key=g.price_order_key)
            for corp in movers:
                g.move_price(corp, "up")
        self.set_priority()
        self.finished = True

    def set_priority(self):
        g = self.game
        if self.last_actor is not None:
            g.priority = g.next_player(self.last_actor)


class CashOrderStockRound(StockRound):
    """After the round, seats for the next one are dealt by cash, most first
    (1857)."""

    def set_priority(self):
        from ..titles.common import order_players_by_cash
        order_players_by_cash(self.game)
