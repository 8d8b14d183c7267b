"""A stock-round sale of a certificate the seller does not hold, when the
record's later lines say which sale it was.

An export names every certificate a player buys (``PRR_3``).  A later
purchase from the bank of a certificate the seller still holds (because the
written sale, of another corporation, was refused) says that the seller sold
that certificate here: the sale is taken as the sale of those certificates,
flagged once with the rule broken by the line as written.  Only to stay in
step with the record; the line is an error in any case.  The stock round's
sale step (``SellSharesStep.check``) asks for it through ``Game.following``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..actions import BuyShares, Par, Sale, SellShares
from ..findings import RuleViolation

#: refusals of a sale that the record's later lines may explain
SALE_RULES = frozenset({"stock.sell_not_owned", "stock.sell_not_parred"})

#: how far the record is read for the certificates the seller sold
SALE_LOOKAHEAD_LINES = 400


def sale_record_implies(rnd, player, action: SellShares) -> Optional[tuple]:
    """(corporation, certificate numbers, the purchases that name them) of
    the sale the record's later lines imply, or None.  The first later
    purchase naming a certificate the seller holds (not a president's)
    decides the corporation; every later purchase of that corporation's
    certificates the seller holds, before the seller's own next sale of it,
    adds to the sale.  A certificate the seller's own later lines sell is
    explained by them, not by this line.  Pure."""
    g = rnd.game
    if len(action.sales) != 1:
        return None
    written = action.sales[0].corporation
    corp, certs, where = None, [], []
    resold: set = set()       # (corporation, certificate) the seller's later lines sell
    same_round = True         # the lines ahead are still the sale's stock round
    started = set()           # the corporations parred again ahead
    for n, a in enumerate(g.following.ahead()):
        if n >= SALE_LOOKAHEAD_LINES:
            break
        if isinstance(a, Par):
            # (a company parred again in a later round had every certificate
            # back in the IPO by then: a later purchase names a certificate
            # of its new start, nothing the seller sold; 1860's NGStL, closed
            # and parred at #552 of 1860_rand_54000004_1.  In the sale's own
            # round the sale may be what emptied it: 1860_game_end_stock_market
            # #525, Player 2's S&C with its president's certificate, S&C
            # parred again at #526 and its certificates bought back)
            if not same_round:
                started.add(a.corporation)
            continue
        if isinstance(a, SellShares) and a.actor == player.name:
            if corp is not None and any(s.corporation == corp.sym for s in a.sales):
                break
            resold |= {(s.corporation, i) for s in a.sales for i in s.certs}
            continue
        if not isinstance(a, BuyShares):
            # a line of no player (a company's, a round marker) ends the round
            same_round = same_round and getattr(a, "actor", None) in g.player_by_name
            continue
        if not a.certs or (same_round and a.actor == player.name):
            # (the seller's own purchase in the same round says nothing of
            # what it sold: no player buys what he sold in the round)
            continue
        other = g.corporations.get(a.corporation)
        if other is None or other.sym == written or other.sym in started \
                or (corp is not None and other is not corp):
            continue
        for idx in a.certs:
            if not isinstance(idx, int) or not 0 <= idx < len(other.certs) \
                    or (other.sym, idx) in resold:
                continue
            cert = other.certs[idx]
            if cert.owner is player and not cert.president and idx not in certs:
                corp = other
                certs.append(idx)
                where.append(a.action_id if a.action_id is not None else a.line)
    if corp is None:
        return None
    return corp, certs, where


def implied_sale(step, player, action: SellShares, refusal: RuleViolation):
    """The sale the record's later lines imply in place of the written one
    that ``refusal`` refuses: (corporation, percent, certificate numbers,
    the finding's message); else raise ``refusal``.  Taken only when the
    seller could make that sale now with no finding (the sale step's
    ``could_sell``) and the pool can take it.  Pure: the stock round's
    ``SellSharesStep`` flags the message and makes the sale."""
    g = step.game
    if refusal.rule not in SALE_RULES or not g.following.from_export:
        raise refusal
    implied = sale_record_implies(step.round, player, action)
    if implied is None:
        raise refusal
    corp, certs, where = implied
    percent = sum(corp.certs[i].percent for i in certs)
    pool_limit = g.pool_limit(corp)
    # the amount written, when the seller holds that much of the company the
    # later purchases name and may sell it: the certificates they name are
    # only those sold to the pool and bought back (a president's certificate
    # is never bought from the pool; more may be bought by nobody)
    written = action.sales[0].percent
    if written and written > percent and written % corp.share_percent == 0 \
            and corp.percent_of(player) >= written \
            and corp.percent_of("pool") + written <= pool_limit \
            and step.could_sell(player, SellShares(actor=player.name, sales=[Sale(
                corporation=corp.sym, count=written // corp.share_percent, percent=written,
                certs=tuple(certs))]), presidency=True):
        percent = written
    else:
        sale = SellShares(actor=player.name, sales=[Sale(
            corporation=corp.sym, count=len(certs), percent=percent, certs=tuple(certs))])
        if not step.could_sell(player, sale) or corp.percent_of("pool") + percent > pool_limit:
            raise refusal
    names = ", ".join(corp.certs[i].name for i in certs)
    ids = ", ".join(f"#{w}" for w in where)
    message = (f"{refusal.message}; the record's later lines buy {player.name}'s {names} "
               f"from the bank ({ids}): taken as a sale of {percent}% of {corp.sym}")
    more = _larger_amounts(step, player, corp, percent, certs) \
        if g.following.weighs_sales else []
    if more:
        # the certificates bought back name only part of what was sold (never
        # a president's certificate; a share nobody bought back): the
        # amounts up to what the seller holds are read by the record's next
        # lines (``repair._implied_sale_amounts``), the line refused meanwhile
        refusal.implied_sale = ImpliedSale(  # type: ignore[attr-defined]
            corp.sym, tuple(certs), message[len(refusal.message):], [percent] + more,
            f"{names} from the bank ({ids})")
        raise refusal
    return corp, percent, tuple(certs), message


#: at most this many amounts larger than the certificates bought back name
#: are read (``_larger_amounts``)
LARGER_AMOUNTS = 4


@dataclass
class ImpliedSale:
    """A sale not held whose company the record's later purchases name,
    but not how much of it was sold: the readings
    ``repair._implied_sale_amounts`` makes."""
    corporation: str
    certs: tuple
    #: what the finding adds for the amount the purchases name
    says: str
    #: the amounts (percent) read, the one the purchases name first
    amounts: list
    #: the purchases that name it ("PRR_3 from the bank (#212)")
    bought: str


def _larger_amounts(step, player, corp, percent: int, certs) -> list:
    """The amounts of ``corp`` over ``percent``, a share at a time, that
    ``player`` holds and the sale step (its pure check) lets him sell now
    with no finding, and the pool can take (at most
    :data:`LARGER_AMOUNTS`).  Pure."""
    g = step.game
    share = corp.share_percent
    if not share:
        return []
    out: list = []
    amount = percent + share
    room = g.pool_limit(corp) - corp.percent_of("pool")
    while amount <= corp.percent_of(player) and amount <= room and len(out) < LARGER_AMOUNTS:
        try:
            plan = step.check(player, SellShares(actor=player.name, sales=[Sale(
                corporation=corp.sym, count=amount // share, percent=amount,
                certs=tuple(certs))]))
        except RuleViolation:
            plan = None
        if plan is not None and not getattr(plan, "notes", None):
            out.append(amount)
        amount += share
    return out
