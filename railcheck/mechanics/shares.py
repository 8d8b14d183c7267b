"""Share mechanics every title shares: par, sales, exchanges, sellable bundles,
bankruptcy of a president, seating by cash.

These functions check the generic limits and move certificates and money;
rounds and steps decide when they may be used."""

from __future__ import annotations

from typing import Optional

from ..findings import RuleViolation
from ..actions import Exchange, Par
from ..state import Corporation, Player


def keeps_presidency(g, corp: Corporation, emergency_for) -> bool:
    """A president's sale of ``corp`` made to raise money for ``emergency_for``
    (a forced train purchase; None: no emergency) must leave him the
    presidency: always of the company he raises money for, and of every
    corporation with ``operating.emergency_keeps_presidencies`` (1889)."""
    if emergency_for is None:
        return False
    return emergency_for is corp or bool(g.rules.operating["emergency_keeps_presidencies"])


def max_sellable_percent(g, player: Player, corp: Corporation, *, emergency_for=None) -> int:
    """The largest percentage of ``corp`` that ``player`` may sell now."""
    if corp.price is None or corp.closed:
        return 0
    held = corp.percent_of(player)
    if not held:
        return 0
    room = g.pool_limit(corp) - corp.percent_of("pool")
    step = corp.share_percent
    best = 0
    pct = step
    keep = keeps_presidency(g, corp, emergency_for)
    while pct <= held:
        ok = pct <= room
        if ok and keep and corp.president is player:
            others = max((corp.percent_of(p) for p in g.players if p is not player), default=0)
            ok = held - pct >= others
        if ok and corp.president is player and pct > held - corp.certs[0].percent:
            others = max((corp.percent_of(p) for p in g.players if p is not player), default=0)
            ok = others >= corp.certs[0].percent and not keep
        if ok:
            best = pct
        pct += step
    return best


def sold_in_emergency(g, rnd) -> set:
    """The corporations the operating company's president already sold in
    this turn's emergency, which he may not sell again
    (``stock.must_sell_in_blocks``); empty otherwise."""
    turn = getattr(rnd, "turn", None)
    if turn is None or not g.rules.stock["must_sell_in_blocks"]:
        return set()
    return set(getattr(turn, "emergency_sold", ()))


def raising_power(g, rnd, corp) -> tuple[int, int]:
    """What the operating company and its president can raise for the
    cheapest train (cash, sellable shares, the treasury), and its price."""
    player = corp.president
    cheapest = rnd.cheapest_train()
    price = cheapest.spec.price if cheapest else 0
    power = player.cash + corp.cash
    sold = sold_in_emergency(g, rnd)
    for c in g.corporations.values():
        if c in sold:
            continue
        pct = max_sellable_percent(g, player, c, emergency_for=corp)
        if pct:
            power += c.price.price * pct // c.share_percent
    return power, price


def bankrupt_president(g, rnd, corp):
    """The president who goes bankrupt for ``corp``: refused when it has none,
    owns a train (bankruptcy is for a train it must buy and cannot), or when
    cash, sellable shares and the treasury could buy the cheapest train."""
    player = corp.president
    if player is None:
        raise RuleViolation("bankrupt.no_president", f"{corp.sym} has no president")
    if corp.trains:
        raise RuleViolation("bankrupt.not_needed",
                            f"{corp.sym} owns a train; bankruptcy is only for a company that "
                            f"must buy one and cannot")
    power, price = raising_power(g, rnd, corp)
    if power >= price:
        raise RuleViolation("bankrupt.not_needed",
                            f"{player.name} can raise {g.money(power)} (cash, sellable shares and "
                            f"{corp.sym}'s treasury), enough for the cheapest train at "
                            f"{g.money(price)}; bankruptcy is not allowed")
    return player


def sell_all_for(g, player, corp, skip=()):
    """A bankrupt president's sales: every bundle sellable as in the
    emergency for ``corp`` (its own presidency stays) goes to the pool, but
    for the corporations in ``skip`` (sold in this emergency already, with
    ``stock.must_sell_in_blocks``).  The companies are taken in their
    operating order when he goes bankrupt, as 18xx.games sells them: it
    decides where those that fall to one cell stand in it (random 18Ireland
    33500105_1, #213: the bankrupt Player 3 sells KJR, at £30, before DKR,
    at £24; both fall to £20 and KJR operates first, at #222)."""
    priced = [c for c in g.corporations.values() if c.price is not None
              and c in g.market.stack(c.price)]
    rest = [c for c in g.corporations.values() if c not in priced]
    for c in sorted(priced, key=g.price_order_key) + rest:
        if c in skip:
            continue
        pct = max_sellable_percent(g, player, c, emergency_for=corp)
        if pct:
            sell_shares(g, player, c, pct, emergency_for=corp, certs=_site_bundle(player, c, pct))


def _site_bundle(player, corp, percent: int) -> tuple:
    """The numbers of the certificates a sale nobody names (a bankrupt
    president's) takes, as 18xx.games makes its bundles: the smallest first,
    and of equal ones those the player got first (random 18Ireland
    2711029_1, #903: the bankrupt Player 3 sells MRNCC_2, got at #602, and
    keeps MRNCC_8, got at #844, which the record's later purchases name)."""
    out, total = [], 0
    for cert in sorted((c for c in corp.certs_of(player) if not c.president),
                       key=lambda c: (c.percent, c.got)):
        if total + cert.percent > percent:
            break
        out.append(corp.certs.index(cert))
        total += cert.percent
    return tuple(out)


def declare_bankruptcy(g, rnd, turn):
    """1830-style bankruptcy of the operating company's president: allowed
    only when cash, sellable shares and the treasury cannot buy the cheapest
    train; every bundle sellable as in the emergency (the company's own
    presidency stays) goes to the pool, the rest of the cash to the bank, and
    the game ends if the ruleset says so."""
    corp = turn.corp
    player = bankrupt_president(g, rnd, corp)
    sell_all_for(g, player, corp, sold_in_emergency(g, rnd))
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



def par_cell_of(g, price: int):
    """The market's par cell at ``price`` (raise: no par value)."""
    cell = g.market.par_cell(price)
    if cell is None:
        pars = ", ".join(str(c.price) for c in g.market.par_cells)
        raise RuleViolation("stock.par_price",
                            f"{g.money(price)} is not a par value; par values are {pars}")
    return cell


def set_par(g, corp: Corporation, price: int):
    cell = par_cell_of(g, price)
    corp.par = cell
    g.place_price(corp, cell)


def check_pending_par(g, action):
    """Why ``action`` is not the par the player given a president's
    certificate must set first (raise), else the par's cell."""
    player, corp = g.pending_par
    if not isinstance(action, Par) or action.actor != player.name \
            or action.corporation != corp.sym:
        raise RuleViolation("stock.par_required",
                            f"{player.name} must first set the par price of {corp.sym} "
                            f"(they hold its president's certificate)")
    return par_cell_of(g, action.price)


def apply_pending_par(g, cell) -> None:
    """The par :func:`check_pending_par` checked."""
    _, corp = g.pending_par
    corp.par = cell
    g.place_price(corp, cell)
    g.pending_par = None
    g.check_float(corp)


def check_sale(g, player: Player, corp: Corporation, percent: int, *, emergency_for=None):
    """Why ``player`` may not sell ``percent`` of ``corp`` to the pool now:
    the generic limits (ownership, pool limit, president's certificate).
    Changes nothing."""
    held = corp.percent_of(player)
    if corp.price is None:
        raise RuleViolation("stock.sell_not_parred",
                            f"{corp.sym} has no share price yet; its shares cannot be sold")
    if percent <= 0:
        raise RuleViolation("stock.sell_amount", "nothing to sell")
    if percent % corp.share_percent:
        raise RuleViolation("stock.sell_split",
                            f"{percent}% of {corp.sym} cannot be made of its certificates "
                            f"({corp.share_percent}% each)")
    if held < percent:
        raise RuleViolation("stock.sell_not_owned",
                            f"{player.name} holds {held}% of {corp.sym} and cannot sell "
                            f"{percent}%")
    pool_limit = g.pool_limit(corp)
    in_pool = corp.percent_of("pool")
    if in_pool + percent > pool_limit:
        raise RuleViolation("stock.pool_limit",
                            f"the bank pool holds {in_pool}% of {corp.sym}; selling {percent}% "
                            f"would put {in_pool + percent}% there, over the {pool_limit}% limit")
    remaining = held - percent
    keep = keeps_presidency(g, corp, emergency_for)
    if keep and corp.president is player:
        most = max((corp.percent_of(p) for p in g.players if p is not player), default=0)
        if most > remaining:
            why = "while raising money for it" if emergency_for is corp else \
                f"while raising money for {emergency_for.sym}'s train"
            raise RuleViolation("emergency.presidency",
                                f"{player.name} may not give up the presidency of {corp.sym} "
                                f"{why}: selling {percent}% leaves "
                                f"{remaining}%, less than another player's {most}%")
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
            if keep:
                why = "it" if emergency_for is corp else f"{emergency_for.sym}'s train"
                raise RuleViolation("emergency.presidency",
                                    f"{player.name} may not give up the presidency of "
                                    f"{corp.sym} while raising money for {why}")


def named_not_held(g, player: Player, corp: Corporation, certs: tuple, percent: int) -> str | None:
    """The finding for a sale whose record names a certificate ``player``
    does not hold (another's, the pool's, or a number ``corp`` has not): a
    player sells only his own certificates (18xx.games refuses the sale:
    "Cannot sell shares of ...").  The sale is taken as that of ``percent``
    of his own, as :func:`sell_shares` picks them.  None when every named
    certificate is his; where the title does not move the certificates as
    the site does (``Title.names_certificates``), only a number the company
    has not is flagged."""
    for i in certs:
        if i >= len(corp.certs):
            what = (f"{corp.sym}_{i}, a certificate {corp.sym} does not have (its certificates "
                    f"are {corp.sym}_0 to {corp.sym}_{len(corp.certs) - 1})")
        elif g.title.names_certificates and corp.certs[i].owner is not player:
            what = f"{corp.certs[i].name}, which {g.holder_name(corp.certs[i].owner)} holds"
        else:
            continue
        return (f"{player.name} sells {what}: a player sells only certificates he holds; taken "
                f"as the sale of {percent}% of {corp.sym} from his own")
    return None


def sell_shares(g, player: Player, corp: Corporation, percent: int, *, emergency_for=None,
                certs: tuple = ()):
    """Move ``percent`` of ``corp`` from ``player`` to the pool, pay the
    player, swap the presidency if needed, drop the price.  Checks the
    generic limits first (:func:`check_sale`)."""
    check_sale(g, player, corp, percent, emergency_for=emergency_for)
    held = corp.percent_of(player)
    remaining = held - percent
    # what a sale that cannot be made of the certificates (found only once
    # they move, stock.sell_split below) puts back: a refusal changes nothing
    saved = (player.cash, g.bank.cash, g.bank_broken, corp.president,
             [(c, c.__dict__.get("owner"), c.got) for c in corp.certs])
    # pay and move: ordinary certificates of the seller go to the pool
    price = corp.price.price  # type: ignore[union-attr]
    g.transfer(g.bank, player, price * percent // corp.share_percent)
    percent_left = None
    if corp.president is player and percent > held - corp.certs[0].percent \
            and g.title.swap_oldest_first:
        _sell_presidency_as_site(g, player, corp, percent, remaining, certs)
        percent_left = 0
    elif corp.president is player and percent > held - corp.certs[0].percent:
        # hand over the presidency first (the new president gives back shares)
        others = [p for p in _seat_order_after(g, player) if corp.percent_of(p) > remaining]
        best = max(corp.percent_of(p) for p in others)
        new = next(p for p in others if corp.percent_of(p) == best)
        g.swap_president_cert(corp, player, new)
        corp.president = new
    to_move = percent if percent_left is None else percent_left
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
        _put_back(g, player, corp, saved)
        raise RuleViolation("stock.sell_split",
                            f"{percent}% of {corp.sym} cannot be made of {player.name}'s "
                            f"certificates")
    g.update_president(corp, seller=player)
    movement = g.rules.stock["sell_movement"]
    if movement == "down_share":
        g.move_price(corp, "down", percent // corp.share_percent)
    elif movement == "down_per_sale":
        g.move_price(corp, "down", 1)
    elif movement == "left_share":
        g.move_price(corp, "left", percent // corp.share_percent)


def _put_back(g, player, corp, saved) -> None:
    """Undo the moves of a sale refused half-way (see :func:`sell_shares`)."""
    player.cash, g.bank.cash, g.bank_broken, corp.president, certs = saved
    for cert, owner, got in certs:
        object.__setattr__(cert, "owner", owner)
        object.__setattr__(cert, "got", got)


def _sell_presidency_as_site(g, player, corp, percent: int, remaining: int, certs: tuple):
    """A sale that takes the president's certificate from ``player``, as
    18xx.games moves the certificates (``Title.swap_oldest_first``): the
    certificates sold (the named ones, then the president's) go to the pool;
    the new president gives his shares held longest to the seller if he
    keeps as much as the president's certificate, else to the pool, and
    takes the president's certificate; when the certificates moved come to
    more than the percent sold, the seller takes back the pool's shares held
    there longest."""
    pcert = corp.certs[0]
    others = [p for p in _seat_order_after(g, player) if corp.percent_of(p) > remaining]
    best = max(corp.percent_of(p) for p in others)
    new = next(p for p in others if corp.percent_of(p) == best)
    named = [corp.certs[i] for i in certs if i < len(corp.certs)
             and corp.certs[i].owner is player and not corp.certs[i].president]
    rest = sorted((c for c in corp.certs_of(player) if not c.president and c not in named),
                  key=lambda c: -c.index)
    bundle, moved = list(named), sum(c.percent for c in named)
    for cert in rest:
        if moved + pcert.percent >= percent:
            break
        bundle.append(cert)
        moved += cert.percent
    for cert in bundle:
        cert.owner = "pool"
    swap_to = player if remaining >= pcert.percent else "pool"
    need = pcert.percent
    given: list = []
    for cert in sorted(corp.certs_of(new), key=lambda c: c.got):
        if cert.president or sum(c.percent for c in given) >= need:
            continue
        given.append(cert)
    for cert in given:
        cert.owner = swap_to
    pcert.owner = new
    corp.president = new
    back = moved + pcert.percent - percent
    for cert in sorted((c for c in corp.certs if c.owner == "pool"), key=lambda c: c.got):
        if back <= 0:
            break
        if cert.percent <= back:
            cert.owner = player
            back -= cert.percent


def _seat_order_after(g, player):
    n = len(g.players)
    return [g.players[(player.seat + i) % n] for i in range(1, n)]


def sale_percent(g, corp, sale) -> int:
    if sale.percent is not None:
        return sale.percent
    return sale.count * corp.share_percent


def exchange_outside_window(g, company, spec: dict) -> Optional[str]:
    """What is wrong with an exchange made outside the window of the
    private's ability (``special.exchange.window``: ``any_time``, or
    ``stock_round`` only), or None.  The record says the exchange was made:
    the caller flags it and carries it out."""
    if spec.get("window") == "stock_round" and getattr(g.round, "kind", None) != "SR":
        where = g.round.label if g.round is not None else "this round"
        return (f"{company.sym} may be exchanged for a {spec['corporation']} share only in a "
                f"stock round, not in {where}; taken as exchanged, as the record says")
    return None


def exchange_private(g, action: Exchange):
    """A private exchanged for a share (1830's MH for a NYC share)."""
    apply_exchange(g, action, check_exchange(g, action))


def check_exchange(g, action: Exchange):
    """Why the exchange of a private for a share is refused (raise), else
    its plan for :func:`apply_exchange`; changes nothing."""
    company = g.companies.get(action.actor)
    if company is None or company.closed:
        raise RuleViolation("exchange.company", f"{action.actor} is not an open private")
    spec = (company.spec.special or {}).get("exchange")
    if not spec:
        raise RuleViolation("exchange.company", f"{company.sym} cannot be exchanged for a share")
    outside = exchange_outside_window(g, company, spec)
    if action.corporation != spec["corporation"]:
        raise RuleViolation("exchange.corporation",
                            f"{company.sym} can be exchanged only for a {spec['corporation']} share")
    owner = company.owner
    if not isinstance(owner, Player):
        raise RuleViolation("exchange.owner", f"{company.sym} must be owned by a player to be "
                                              f"exchanged")
    corp = g.corporations[spec["corporation"]]
    sources = action.source and [action.source] or ["ipo", "pool"]
    sources = [s for s in sources if s in spec["from"]]
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
    over = g.holding_limit_exceeded(owner, corp, cert.percent)
    if over is not None:
        have, limit = over
        raise RuleViolation("stock.holding_limit",
                            f"{owner.name} holds {have}% of {corp.sym}; the "
                            f"exchange would exceed the {limit}% limit")
    return company, corp, cert, owner, outside


def apply_exchange(g, action: Exchange, plan) -> None:
    """The exchange :func:`check_exchange` planned: the share to the
    private's owner, the private closed (an exchange outside the ability's
    window flagged first, taken as the record says)."""
    company, corp, cert, owner, outside = plan
    if outside is not None:
        g.flag("private.window", outside)
    action.source = cert.owner
    cert.owner = owner
    g.close_company(company)
    if corp.par is not None:
        # a corporation nobody has started has no president: the share is
        # held, and whoever starts it takes the president's certificate
        g.update_president(corp)
    g.check_float(corp)


