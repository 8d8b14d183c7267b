"""A company buys a private from a player (1830: phases 3 and 4, half to
twice its face value).  Non-blocking: any moment of the company's turn."""

from __future__ import annotations

from ..actions import BuyCompany
from ..findings import RuleViolation
from ..state import Player
from .base import Step


def company_price_range(g, company) -> tuple[int, int]:
    lo_f = g.rules.company_sales.min_factor
    hi_f = g.rules.company_sales.max_factor
    lo = -(-company.value * int(round(lo_f * 100)) // 100)
    hi = company.value * int(round(hi_f * 100)) // 100
    return lo, hi


class BuyCompanyStep(Step):
    name = "buying privates"
    verb = "buy a private"
    actions = (BuyCompany,)

    def purchasable(self, corp) -> list:
        g = self.game
        if not g.phase.company_buy:
            return []
        out = []
        for c in g.companies.values():
            if c.closed or not isinstance(c.owner, Player):
                continue
            if (c.spec.special or {}).get("no_sale_to_corporation"):
                continue
            lo, _ = company_price_range(g, c)
            if corp.cash >= lo:
                out.append(c)
        return out

    def available(self, turn) -> bool:
        return bool(self.purchasable(turn.corp))

    def check(self, turn, action: BuyCompany):
        g = self.game
        corp = turn.corp
        company = self.round.company(action.company)
        if not g.phase.company_buy:
            raise RuleViolation("private.buy_phase",
                                f"companies cannot buy privates in phase {g.phase.name}")
        left_with = None
        if company.closed:
            if company.left_with is None:
                raise RuleViolation("private.closed", f"{company.sym} is closed")
            # it left the game with its bankrupt owner, and the record has him
            # sell it: flagged, and taken as written (see apply)
            left_with = company.left_with
        special = company.spec.special or {}
        if special.get("no_sale_to_corporation"):
            raise RuleViolation("private.no_sale", f"{company.sym} may not be sold to a company")
        owner = company.owner if left_with is None else left_with
        if not isinstance(owner, Player):
            raise RuleViolation("private.owner",
                                f"{company.sym} is owned by {g.holder_name(owner)}, not a player")
        if g.short_of(corp, action.price):
            raise RuleViolation("private.cash",
                                f"{corp.sym} has {g.money(corp.cash)}, {company.sym} costs "
                                f"{g.money(action.price)}")
        lo, hi = company_price_range(g, company)
        wrong_price = None
        if not lo <= action.price <= hi:
            # the money moved as recorded: flagged, and the sale stands at that price
            wrong_price = (f"{company.sym} (face {g.money(company.value)}) may be bought for "
                           f"{g.money(lo)} to {g.money(hi)}, not {g.money(action.price)}; "
                           f"taken as paid")
        return company, wrong_price, left_with

    def apply(self, turn, action: BuyCompany, plan) -> None:
        g = self.game
        corp = turn.corp
        company, wrong_price, left_with = plan
        if left_with is not None:
            g.flag("private.closed",
                   f"{company.sym} left the game with its owner {left_with.name} when they went "
                   f"bankrupt (a bankrupt player's privates leave the game with them: 18Ireland "
                   f"B5); taken as bought from them, as the record says")
            company.closed, company.left_with = False, None
            company.owner = left_with
            left_with.companies.append(company)
        if wrong_price:
            g.flag("private.price", wrong_price)
        owner = company.owner
        g.transfer(corp, owner, action.price)
        owner.companies.remove(company)
        company.owner = corp
        corp.companies.append(company)
        if g.board is not None:
            g.board.unblock(company.sym)
        lay = (company.spec.special or {}).get("tile_lay") or {}
        if lay.get("window") == "on_sale" and (lay.get("count") is None
                                               or company.uses < int(lay["count"])):
            # the seller may lay the private's tile at once (1889's ER)
            self.round.sold_power = (company, owner)
