"""A purchase of a company nobody started, whose par the record gives
later: the par line is missing.

A share bought of a company that has no par value is refused by the rules.
When the record's later lines say the company's par value (a price
checkpoint before the company acts), the table started it: the missing par
line is flagged and played first, as the buyer's (the title's own par step:
its checks and its cost), then the purchase is checked as its own action.
No price is invented: a record that gives none leaves the purchase refused.
"""

from __future__ import annotations

from ..actions import Checkpoint, Par


def par_in_record(g, corp):
    """The par value the record's later lines give ``corp`` (its first
    price checkpoint, when that is a par value, before the company acts),
    with the checkpoint; ``(None, None)`` when they give none.  Only to
    stay in step with the record, never to judge a line."""
    for act in g.following.ahead():
        if getattr(act, "actor", None) == corp.sym:
            break           # the company operates: its price may have moved
        if isinstance(act, Checkpoint) and act.subject == corp.sym \
                and act.field == "price":
            price = act.value
            if isinstance(price, int) and g.market.par_cell(price) is not None:
                return price, act
            break
    return None, None


def missing_par(g, player, corp):
    """``player`` buys a share of ``corp``, which nobody parred, and the
    record later says its par value: the par line is missing.  Returns
    ``(player, corp, price, where)`` (:func:`play_missing_par` flags it
    and plays it), or None when the record does not say the par value.
    Pure."""
    price, where = par_in_record(g, corp)
    if price is None:
        return None
    return player, corp, price, where


def play_missing_par(step, missing) -> None:
    """The missing par line, flagged and played (the title's own par
    step: its checks and its cost) as the turn before the purchase
    ``step`` checks, so that the shares and cash after it are what the
    record goes on from."""
    g = step.game
    rnd = step.round
    player, corp, price, where = missing
    g.flag("stock.not_parred",
           f"{corp.sym} has no par value: a 'par {corp.sym}' line is missing before this "
           f"one; taken as {player.name} parring it at {g.money(price)} (the price "
           f"line {where.line or where.action_id} records) and then buying")
    par = Par(actor=player.name, corporation=corp.sym, price=price, line=None)
    rnd.turn_step_for(par).do(player, par)
    rnd.bought = None      # the par was the missing line's turn, not this one's
    rnd.buys = 0
