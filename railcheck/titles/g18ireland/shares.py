"""18Ireland's share mechanics: starting a minor from a bid, the price of a
share, the holding limits by kind of company."""

from __future__ import annotations

from ...findings import RuleViolation
from ...mechanics.shares import set_par


def par_for_bid(g, bid: int) -> int:
    """The par of a minor won for ``bid``: the highest par value not above
    half the bid (docs/18Ireland.md SB3)."""
    pars = sorted((c.price for c in g.market.par_cells), reverse=True)
    fit = [p for p in pars if 2 * p <= bid]
    if not fit:
        raise RuleViolation("stock.minor_bid",
                            f"a bid of {g.money(bid)} is below twice the lowest par value "
                            f"({g.money(pars[-1])})")
    return fit[0]


def start_minor(g, corp, player, par: int, paid: int):
    """``player`` starts the minor ``corp`` at ``par``: its 40% president's
    certificate, the price paid into its treasury, its home station placed."""
    set_par(g, corp, par)
    corp.certs[0].owner = player
    corp.president = player
    g.transfer(player, corp, paid)
    corp.floated = True
    place_home(g, corp)
    st = g.title.state
    if corp.sym in st.stack:
        st.stack.remove(corp.sym)
    st.minor_started = True


def place_home(g, corp):
    """The home station goes on the map when the company is started."""
    if corp.home_placed:
        return
    corp.home_placed = True
    corp.tokens_placed = max(corp.tokens_placed, 1)
    if g.board is not None and corp.spec.home:
        try:
            g.board.place_home_token(corp.sym)
            if g.following.station_follows(corp):
                # the record says which city of its home hex it takes (a tile
                # with several cities lies there: random 18004_0, #271)
                g.board.offer_home_choice(corp.sym, corp.spec.home)
                g.title.state.pending_home = corp
        except RuleViolation as v:
            if v.rule == "token.home" and not g.board.reservations_block_tokens:
                # another company's station took its home slot: the company
                # places its home station where the record's next line says
                corp.home_placed = False
                g.title.state.pending_home = corp
                return
            g.flag(v.rule, v.message)


def shares_of(corp, holder) -> int:
    """How many shares (of the smallest size) ``holder`` has of ``corp``."""
    return corp.percent_of(holder) // corp.share_percent


def market_value(g, corp) -> int:
    return corp.price.price if corp.price is not None else 0
