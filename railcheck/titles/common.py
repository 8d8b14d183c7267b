"""Rule pieces several titles share: sellable bundles, bankruptcy, seating by cash."""

from __future__ import annotations

from ..findings import RuleViolation
from ..state import Corporation, Player


def max_sellable_percent(g, player: Player, corp: Corporation, *, emergency_for=None) -> int:
    """The largest percentage of ``corp`` that ``player`` may sell now."""
    if corp.price is None or corp.closed:
        return 0
    held = corp.percent_of(player)
    if not held:
        return 0
    room = int(g.rules.stock.get("pool_limit", 50)) - corp.percent_of("pool")
    step = corp.share_percent
    best = 0
    pct = step
    while pct <= held:
        ok = pct <= room
        if ok and emergency_for is corp and corp.president is player:
            others = max((corp.percent_of(p) for p in g.players if p is not player), default=0)
            ok = held - pct >= others
        if ok and corp.president is player and pct > held - corp.certs[0].percent:
            others = max((corp.percent_of(p) for p in g.players if p is not player), default=0)
            ok = others >= corp.certs[0].percent and emergency_for is not corp
        if ok:
            best = pct
        pct += step
    return best


def declare_bankruptcy(g, rnd, turn):
    """1830-style bankruptcy of the operating company's president: allowed
    only when cash, sellable shares and the treasury cannot buy the cheapest
    train; every sellable bundle goes to the pool, the rest of the cash to
    the bank, and the game ends if the ruleset says so."""
    from ..rounds.stock import sell_shares

    corp = turn.corp
    player = corp.president
    if player is None:
        raise RuleViolation("bankrupt.no_president", f"{corp.sym} has no president")
    if corp.trains:
        raise RuleViolation("bankrupt.not_needed",
                            f"{corp.sym} owns a train; bankruptcy is only for a company that "
                            f"must buy one and cannot")
    cheapest = rnd.cheapest_train()
    price = cheapest.spec.price if cheapest else 0
    power = player.cash + corp.cash
    for c in g.corporations.values():
        pct = max_sellable_percent(g, player, c, emergency_for=corp)
        if pct:
            power += c.price.price * pct // c.share_percent
    if power >= price:
        raise RuleViolation("bankrupt.not_needed",
                            f"{player.name} can raise {g.money(power)} (cash, sellable shares and "
                            f"{corp.sym}'s treasury), enough for the cheapest train at "
                            f"{g.money(price)}; bankruptcy is not allowed")
    for c in list(g.corporations.values()):
        pct = max_sellable_percent(g, player, c)
        if pct:
            sell_shares(g, player, c, pct)
    g.transfer(player, g.bank, player.cash)
    player.bankrupt = True
    rnd.recalculate_order()
    g.trigger_end("bankrupt")


def order_players_by_cash(g):
    """Seat order for the next round by cash, most first; ties keep their
    current relative order."""
    start = g.priority.seat if g.priority else 0
    n = len(g.players)
    current = [g.players[(start + i) % n] for i in range(n)]
    ranked = sorted(current, key=lambda p: -p.cash)
    g.seat_order = ranked
    g.priority = ranked[0]
