"""A corporation's bankruptcy in 1860 (docs/1860.md B0-B6): its price reached
the bankrupt cell."""

from __future__ import annotations


def bankrupt(g, corp) -> None:
    """Every share goes back to the corporation's IPO (nothing paid), its par
    and price are cleared, it is no longer floated and has no president; it
    keeps its cash, trains, stations and insolvency, and it has still
    operated (its sales move the price when it is started again).  Priority goes at once to
    the player holding the fewest shares (the first such in the current
    order); a stock round in progress starts again."""
    st = g.title.state
    for cert in corp.certs:
        cert.owner = "ipo"
    if corp.price is not None and corp in g.market.stack(corp.price):
        g.market.stack(corp.price).remove(corp)
    corp.price = None
    corp.par = None
    corp.floated = False
    corp.president = None
    st.bankrupt.add(corp.sym)
    st.receivership.discard(corp.sym)
    held = {p: sum(c.percent_of(p) for c in g.corporations.values()) for p in g.players}
    start = g.seat_order.index(g.priority)
    order = g.seat_order[start:] + g.seat_order[:start]
    g.priority = min(order, key=lambda p: held[p])
    if g.round is not None and g.round.kind == "SR" \
            and g.rules.settings.bankruptcy.restart_stock_round:
        st.restart_sr = True
        g.round.finished = True
