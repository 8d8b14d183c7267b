"""Paying out or withholding the revenue, and the share price move it brings."""

from __future__ import annotations

from ..actions import Dividend
from ..findings import RuleViolation
from .base import Step


class DividendStep(Step):
    name = "the dividend"
    verb = "decide a dividend"
    actions = (Dividend,)
    ordered = True

    def available(self, turn) -> bool:
        return not turn.dividend_done and (turn.revenue or 0) > 0

    def leave(self, turn) -> None:
        if turn.dividend_done:
            return
        revenue = turn.revenue or 0
        corp = turn.corp
        if turn.revenue is None and corp.price is not None:
            turn.withheld_unrun = (corp.price,
                                   self.game.market.stack(corp.price).index(corp))
        if revenue > 0:
            self.game.flag("dividend.missing",
                           f"{turn.corp.sym} ran for {self.game.money(revenue)} but neither paid "
                           f"out nor withheld; taken as withheld")
        self.pay(turn, "withhold", revenue)

    def check(self, turn, action: Dividend):
        g = self.game
        self.refuse_after(turn)
        if turn.dividend_done:
            raise RuleViolation("dividend.twice", f"{turn.corp.sym} already decided its dividend")
        kinds = g.rules.operating.dividend_kinds
        if action.kind not in kinds:
            raise RuleViolation("dividend.kind", f"{g.rules.title} knows no '{action.kind}' "
                                                 f"dividend; allowed: {', '.join(kinds)}")
        return None

    def apply(self, turn, action: Dividend, plan) -> None:
        here = self.round.step_index(self)
        self.round.move_to(turn, here)
        self.pay(turn, action.kind, turn.revenue or 0)
        self.round.move_to(turn, here + 1)

    def pay(self, turn, kind: str, revenue: int) -> None:
        g = self.game
        corp = turn.corp
        turn.dividend_done = True
        if kind == "withhold" or revenue == 0:
            g.transfer(g.bank, corp, revenue)
            g.move_price(corp, "left")
            return
        pool_to = g.rules.stock.pool_share_dividends
        ipo_to = g.rules.stock.ipo_share_dividends
        # the per-share amount is rounded down; the rest stays in the bank
        per_share = revenue * corp.share_percent // 100
        if per_share <= 0:
            g.move_price(corp, "left")
            return
        for holder in list(g.players) + ["pool", "ipo"] + [corp]:
            pct = corp.percent_of(holder)
            if not pct:
                continue
            amount = per_share * (pct // corp.share_percent)
            if holder == "pool":
                if pool_to == "corporation":
                    g.transfer(g.bank, corp, amount)
            elif holder == "ipo":
                if ipo_to == "corporation":
                    g.transfer(g.bank, corp, amount)
            else:
                g.transfer(g.bank, holder, amount)
        g.move_price(corp, "right")
