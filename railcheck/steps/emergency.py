"""A player's actions in an operating round: the operating company's
president raising money for a train it must buy (an emergency sale), or
going bankrupt.  Steps on the one protocol (``steps/base.py``), held by the
operating round beside the steps of a company's turn: they come whenever the
record gives them, and are given the turn under way."""

from __future__ import annotations

from types import SimpleNamespace

from ..actions import Bankrupt, SellShares
from ..findings import RuleViolation
from ..mechanics.shares import check_sale, named_not_held, sale_percent, sell_shares
from .base import Step


class EmergencySaleStep(Step):
    """The operating company's president sells shares to pay for a train
    the company must buy and cannot (it owns none; its cash is short of the
    cheapest): no more than needed (unless
    ``operating.emergency_sell_more_than_needed``), never giving up that
    company's presidency (nor any, with
    ``operating.emergency_keeps_presidencies``: ``check_sale``), and not a
    corporation already sold in this emergency with
    ``stock.must_sell_in_blocks``."""

    name = "raising money for a train"
    verb = "sell shares"
    actions = (SellShares,)

    def available(self, turn) -> bool:
        return _in_emergency(self.round, turn)

    def check(self, turn, action: SellShares):
        """The sales, each checked against the state before the action, the
        president's cash counting what the earlier sales of the line bring;
        changes nothing."""
        g = self.game
        rnd = self.round
        player = rnd.player(action.actor)
        if turn is None or turn.corp.president is not player:
            raise RuleViolation("emergency.not_needed",
                                f"{player.name} may sell shares in an operating round only "
                                f"to raise money for a train their company must buy")
        corp = turn.corp
        cheapest = rnd.cheapest_train()
        price = cheapest.spec.price if cheapest else 0
        if corp.trains or corp.cash + player.cash >= price:
            raise RuleViolation(
                "emergency.not_needed",
                f"{player.name} may not sell shares: {corp.sym} "
                + ("owns a train" if corp.trains else
                   f"has {g.money(corp.cash)} and {player.name} {g.money(player.cash)}, "
                   f"enough for the cheapest train ({g.money(price)})"))
        if g.rules.stock.must_sell_in_blocks:
            for sale in action.sales:
                c = rnd.corporation(sale.corporation)
                if c in turn.emergency_sold:
                    raise RuleViolation("stock.sell_blocks",
                                        f"{player.name} already sold {c.sym} to raise money "
                                        f"for {corp.sym}'s train")
        sales = []
        cash = player.cash
        for sale in action.sales:
            c = rnd.corporation(sale.corporation)
            pct = sale_percent(g, c, sale)
            if c.price is not None and not g.rules.operating.emergency_sell_more_than_needed:
                bundle = c.price.price * pct // c.share_percent
                # too much when the bundle less its smallest certificate would do
                smallest = c.price.price * _smallest_cert(c, player, sale, pct) \
                    // c.share_percent
                if bundle - smallest + cash + corp.cash >= price:
                    raise RuleViolation(
                        "emergency.too_much",
                        f"{player.name} sells more than needed: {pct}% of {c.sym} brings "
                        f"{g.money(bundle)}; with {g.money(cash)} in hand and "
                        f"{g.money(corp.cash)} in {corp.sym}'s treasury one certificate "
                        f"fewer ({g.money(smallest)} less) would pay for the "
                        f"{g.money(price)} train")
            check_sale(g, player, c, pct, emergency_for=corp)
            if c.price is not None:
                cash += c.price.price * pct // c.share_percent
            # certificates named that the player does not hold: flagged, the sale
            # made of those he holds
            sales.append((c, pct, sale.certs, named_not_held(g, player, c, sale.certs, pct)))
        return SimpleNamespace(player=player, corp=corp, sales=sales)

    def apply(self, turn, action: SellShares, plan) -> None:
        for c, pct, certs, wrong in plan.sales:
            sell_shares(self.game, plan.player, c, pct, emergency_for=plan.corp, certs=certs)
            if wrong:
                self.game.flag("stock.sell_not_owned", wrong)
            turn.emergency_sold.add(c)
        turn.emergency = True
        self.round.recalculate_order()


class BankruptStep(Step):
    """The operating company's president declares bankruptcy (the title's
    consequences: ``OperatingRound.do_bankrupt``)."""

    name = "declaring bankruptcy"
    verb = "declare bankruptcy"
    actions = (Bankrupt,)

    def available(self, turn) -> bool:
        return _in_emergency(self.round, turn)

    def check(self, turn, action: Bankrupt):
        player = self.round.player(action.actor)
        if turn is None or turn.corp.president is not player:
            raise RuleViolation("bankrupt.not_president",
                                f"{player.name} is not the president of the operating "
                                f"company")
        return player

    def apply(self, turn, action: Bankrupt, plan) -> None:
        self.round.do_bankrupt(turn, action)


def _in_emergency(rnd, turn) -> bool:
    """The company of ``turn`` must buy a train it cannot pay (its
    president's money is due)."""
    president = turn.corp.president if turn is not None else None
    return president is not None and rnd.in_emergency(president.name)


def _smallest_cert(corp, player, sale, percent: int) -> int:
    """The percentage of the smallest certificate in the bundle a sale is made
    of: the certificates it names, else the player's ordinary shares and, when
    they do not cover the sale, the president's certificate."""
    named = [corp.certs[i].percent for i in sale.certs
             if i < len(corp.certs) and corp.certs[i].owner is player]
    if named:
        return min(named)
    ordinary = [c.percent for c in corp.certs_of(player) if not c.president]
    if percent > sum(ordinary) and corp.president is player:
        ordinary.append(corp.certs[0].percent)
    return min(ordinary, default=corp.share_percent)
