"""1860's stock round (docs/1860.md S1-S12).

The shared round (``railcheck.rounds.stock``) gives the turns, passes, the
one-buy-per-turn and no-rebuy rules; 1860 adds: pars only in an open section
at a par of its range, paying twice the par (one certificate bought per
turn, up to 100% of a corporation); reserved shares; the exchange of a
private at any moment of its owner's turn, not counting as his buy;
privates sold to the bank (face value less the fee) and bought from it;
sales at half price for a corporation with no train, moving one cell per
share (not before it operated, not after the first 8+4, one fewer from an
`i` cell), the president's certificate sold into the pool; floating counts
only the IPO's shares, and a corporation floating on an empty home hex has
its president lay a yellow tile there at once (``lay`` by the corporation in
the stock round).
"""

from __future__ import annotations

from types import SimpleNamespace

from ...actions import (BuyCompany, BuyShares, Exchange, LayTile, Par, Pass, SellCompany,
                        SellShares)
from ...findings import RuleViolation, breach
from ...mechanics.shares import exchange_outside_window
from ...rounds.stock import StockRound
from ...steps.base import Step
from ...steps.stock import BuySharesStep, ParStep, SellSharesStep
from ...state import Company, Player
from .market import move_cells, to_bottom
from .shares import par_range, section_of


# ---------------------------------------------------------------------------
# facts of the state used by several rounds

def current_section(g) -> int:
    """One more than the highest section with a corporation that has no
    share left in its IPO or has operated (at most the last section)."""
    top = max((int(k) for k in g.rules.settings.sections), default=1)
    best = 0
    for corp in g.corporations.values():
        if corp.operated or (corp.ipoed and not any(c.owner == "ipo" for c in corp.certs)):
            best = max(best, section_of(g, corp))
    return min(best + 1, top)


def open_section(g) -> int:
    """The highest section a par may be of now: :func:`current_section` as
    it stands (``sections_open: immediately``, the engine's timing), or as
    it stood when the current stock round began (``next_sr``, the
    summary's S10: a section opens from the stock round after its test
    held; a stock round started again after a bankruptcy is a new one)."""
    rnd = g.round
    if g.rules.settings.sections_open == "next_sr" and getattr(rnd, "sections_open", None):
        return rnd.sections_open
    return current_section(g)


def reserved_cert(g, corp):
    """The certificate kept back for the exchange of a private, or None."""
    state = g.title.state
    if not corp.spec.reserved_share or corp.sym in state.freed \
            or state.all_freed:
        return None
    return corp.certs[-1] if corp.certs[-1].owner == "ipo" else None


def trainless(corp) -> bool:
    return not corp.trains


def sale_price(g, corp) -> int:
    """What one share of ``corp`` sells for now (half, rounded down, with no
    train: ``stock.trainless_share_value``)."""
    price = corp.price.price
    if trainless(corp) and g.rules.stock["trainless_share_value"] == "half":
        return price // 2
    return price


def float_1860(g, corp) -> None:
    """Floating: only the shares sold from the IPO count (``stock.float_counts_market``);
    the treasury receives 10 x par; the marker goes under the others on its
    cell; a corporation whose home hex has no tile waits for its home track."""
    if corp.floated or corp.par is None:
        return
    if g.rules.stock["float_counts_market"]:
        sold = 100 - corp.percent_of("ipo")
    else:
        sold = 100 - corp.percent_of("ipo") - corp.percent_of("pool")
    if sold < corp.spec.float_percent:
        return
    corp.floated = True
    # a bankrupt corporation started again: its stations are turned back
    # (they block runs again) once it floats, not at its par (B4, B6)
    g.title.state.bankrupt.discard(corp.sym)
    g.pay_from_bank(corp, g.capital_on_float(corp))
    to_bottom(g, corp)
    g.title.on_float(corp)


class StockRound1860(StockRound):

    def __init__(self, game):
        super().__init__(game)
        #: players who sold a corporation in the current turn (must_sell_in_blocks)
        self.sold_this_turn: set = set()
        #: the corporation parred in the current turn
        self.parred = None
        #: the sections open from the start of this round (``sections_open: next_sr``)
        self.sections_open = current_section(game)

    # ------------------------------------------------------------------
    # what the record may show next

    def wants(self, action) -> bool:
        g = self.game
        if isinstance(action, LayTile) and g.title.state.home_track:
            return True
        return super().wants(action)

    def end_turn(self):
        super().end_turn()
        self.sold_this_turn = set()
        self.parred = None

    def take_turn(self, player):
        super().take_turn(player)
        self.parred = None

    def has_actions(self, player) -> bool:
        """May ``player`` do anything but pass (the site passes for those who
        may not, and ends the turn of one who sold and may do nothing
        more): sell, buy or par, sell or buy a private; after a buy, only
        the last chance to exchange a private (a pass offered)."""
        g = self.game
        if self.bought is not None:
            return self.last_chance_to_exchange(player)   # else a buy ends the turn
        for corp in g.corporations.values():
            if corp.price is not None and corp not in self.sold_this_turn \
                    and corp.percent_of(player):
                return True
        rule = g.rules.settings.company_sale_to_bank
        if rule and g.sr_number >= rule["from_stock_round"] \
                and any(not c.closed for c in player.companies):
            return True
        return self.can_buy_any(player)

    def last_chance_to_exchange(self, player) -> bool:
        """The site keeps the turn open after a buy (the player passes
        himself) once a private whose purchase closes the others is on sale
        (Fishbourne Ferry, from the first 6+3) when the player has just parred
        a corporation his private may be exchanged for, or bought a private
        other than Fishbourne Ferry."""
        g = self.game
        if not any((c.spec.special or {}).get("closes_other_companies")
                   and g.title.company_on_sale(c) for c in g.companies.values()):
            return False        # Fishbourne Ferry not on sale yet (before the first 6+3)
        if isinstance(self.bought, Company):
            return not (self.bought.spec.special or {}).get("closes_other_companies")
        if self.bought is None or self.bought is not self.parred:
            return False
        return any(not c.closed and ((c.spec.special or {}).get("exchange") or {})
                   .get("corporation") == self.bought.sym for c in player.companies)

    def can_buy_any(self, player) -> bool:
        g = self.game
        if self.bought is not None:
            return False
        if g.cert_limit_exceeded(player) is not None:
            return False
        sold = self.sold.get(player, set())
        for corp in g.corporations.values():
            if corp in sold:
                continue
            if not corp.ipoed:
                # the site offers a par to whoever could pay the president's
                # certificate of some corporation not yet started, whatever
                # its section (the section is checked on the par itself)
                low, _ = par_range(g, corp, bankrupt=corp.sym in g.title.state.bankrupt)
                if 2 * low <= player.cash:
                    return True
                continue
            reserved = reserved_cert(g, corp)
            for cert in corp.certs:
                if cert.owner not in ("ipo", "pool") or cert is reserved:
                    continue
                if cert.president and not corp.percent_of(player):
                    continue
                each = corp.par.price if cert.owner == "ipo" else corp.price.price
                if each * cert.percent // corp.share_percent <= player.cash:
                    return True
        # the site offers a private from the bank to anybody with cash under
        # the limit, whatever it costs, so such a player is not passed over;
        # a private closed by its exchange is nobody's, not the bank's
        if player.cash > 0 and any(
                c not in sold and c.owner is None and not c.closed
                and g.title.company_on_sale(c)
                for c in g.companies.values()):
            return True
        return False

    # ------------------------------------------------------------------

    def step_classes(self) -> list:
        from ...steps.stock import ExchangeStep, PendingParStep, StockTurnStep
        return [HomeTrackStep, PendingParStep, ExchangeStep, SellPrivateToBankStep,
                BuyBankPrivateStep, ParStep1860, BuySharesStep1860, SellSharesStep1860,
                StockTurnStep]

    # ------------------------------------------------------------------
    # buying

    def check_can_buy(self, player, corp, cert_percent, *, par=False, source="ipo"):
        self.check_cert_limit(player, corp)     # before the shared refusals
        super().check_can_buy(player, corp, cert_percent, par=par, source=source)

    def check_cert_limit(self, player, corp, count: int = 1) -> None:
        g = self.game
        certs = g.cert_limit_exceeded(player, count, corp)
        if certs is not None:
            breach(RuleViolation("stock.cert_limit",
                                 f"{player.name} holds {certs} certificates, the limit is "
                                 f"{g.cert_limit}"))

    def finish(self):
        self.set_priority()
        self.finished = True

    # ------------------------------------------------------------------

    def check_home_track(self, action):
        """Why the home track is refused (raise), else the board's plan of
        the lay (None: a pass, the home station on the bare hex; or no map)."""
        g = self.game
        corp = g.title.state.home_track[0]
        if isinstance(action, Pass) and action.actor in (corp.sym, getattr(corp.president, "name", None)):
            return None
        if not isinstance(action, LayTile) or action.actor != corp.sym:
            raise RuleViolation("stock.home_track",
                                f"{corp.sym} floated on an empty home hex: its president must "
                                f"first lay a yellow tile on {corp.spec.home}")
        if action.hex != corp.spec.home:
            raise RuleViolation("stock.home_track",
                                f"the home track of {corp.sym} goes on {corp.spec.home}, not "
                                f"{action.hex}")
        if g.board is None:
            return None
        return g.board.plan_lay(corp.sym, action.tile, action.hex, action.rotation,
                                colors=["yellow"], check_connection=False,
                                tile_copy=action.tile_copy)

    def apply_home_track(self, action, plan) -> None:
        g = self.game
        state = g.title.state
        corp = state.home_track[0]
        if isinstance(action, LayTile):
            if plan is not None:
                g.board.apply_lay(plan)
                g.board.pop_warnings()
            g.laid_hexes.add(action.hex)
        state.home_track.pop(0)
        g.title.place_home(corp)


def sell_1860(g, player, corp, percent: int, certs: tuple = ()) -> None:
    """A sale to the pool: paid at :func:`sale_price`; the president's
    certificate may go to the pool; the price moves one cell left per share,
    not before the corporation operated nor after ``no_sale_drop.after_event``,
    one share fewer from an ``ignore_one_sale`` cell; a price reaching the
    bankrupt cell bankrupts the corporation.  Refused (changing nothing)
    as :func:`check_sell_1860` says."""
    check_sell_1860(g, player, corp, percent, certs)
    # the seller's first sale of it in this stock round (stock.ignore_one_sale_per)
    first = corp not in getattr(g.round, "sold", {}).get(player, ())
    held = corp.percent_of(player)
    each = sale_price(g, corp)
    share = corp.share_percent
    remaining = held - percent
    pcert = corp.certs[0]
    if pcert.owner is player and remaining < pcert.percent:
        others = [p for p in _after(g, player) if corp.percent_of(p) > remaining
                  and corp.percent_of(p) >= pcert.percent]
        if others:
            best = max(corp.percent_of(p) for p in others)
            new = next(p for p in others if corp.percent_of(p) == best)
            # as the site does it: the new president takes the president's
            # certificate; his shares of its size go to the pool as (the first
            # part of) the sale, any of them beyond the sale to the seller;
            # the rest of the sale is the seller's own shares, named first
            g.transfer(g.bank, player, each * percent // share)
            to_pool = min(percent, pcert.percent)
            to_seller = pcert.percent - to_pool
            for cert in sorted(corp.certs_of(new), key=lambda c: -c.index):
                if cert.president:
                    continue
                if to_pool >= cert.percent:
                    cert.owner = "pool"
                    to_pool -= cert.percent
                elif to_seller >= cert.percent:
                    cert.owner = player
                    to_seller -= cert.percent
            pcert.owner = new
            corp.president = new
            rest = percent - min(percent, pcert.percent)
            named = [corp.certs[i] for i in certs if i < len(corp.certs)]
            for cert in sorted(corp.certs_of(player), key=lambda c: (c not in named, -c.index)):
                if rest <= 0:
                    break
                if not cert.president and cert.percent <= rest:
                    cert.owner = "pool"
                    rest -= cert.percent
            settle_presidency(g, corp, player)
            _drop(g, corp, percent, first)
            return
        else:
            # the president's certificate goes to the pool; the seller keeps
            # the rest in ordinary shares, taking one back from the pool if
            # need be (checked first: a refusal changes nothing)
            ordinary = sorted((c for c in corp.certs_of(player) if not c.president),
                              key=lambda c: c.index)
            g.transfer(g.bank, player, each * percent // share)
            pcert.owner = "pool"
            keep = remaining
            for c in ordinary:
                if keep >= c.percent:
                    keep -= c.percent
                else:
                    c.owner = "pool"
            while keep > 0:
                c = next(c for c in corp.certs if c.owner == "pool" and not c.president)
                c.owner = player
                keep -= c.percent
            settle_presidency(g, corp, player)
            _drop(g, corp, percent, first)
            return
    moving, _ = _moving(corp, player, percent, certs)
    g.transfer(g.bank, player, each * percent // share)
    for cert in moving:
        cert.owner = "pool"
    settle_presidency(g, corp, player)
    _drop(g, corp, percent, first)


def _moving(corp, player, percent: int, certs: tuple):
    """The seller's ordinary certificates a sale of ``percent`` moves to the
    pool (those the record names first), and the percent they leave unmade."""
    to_move = percent
    named = [corp.certs[i] for i in certs if i < len(corp.certs)]
    moving = []
    for cert in sorted(corp.certs_of(player),
                       key=lambda c: (c not in named, -c.index)):
        if to_move <= 0:
            break
        if not cert.president and cert.percent <= to_move:
            moving.append(cert)
            to_move -= cert.percent
    return moving, to_move


def check_sell_1860(g, player, corp, percent: int, certs: tuple = ()) -> None:
    """Why ``player`` may not sell ``percent`` of ``corp`` now
    (:func:`sell_1860`'s refusals, in its order); changes nothing."""
    if corp.price is None:
        raise RuleViolation("stock.sell_not_parred", f"{corp.sym} has no share price yet")
    held = corp.percent_of(player)
    if percent <= 0 or held < percent:
        raise RuleViolation("stock.sell_not_owned",
                            f"{player.name} holds {held}% of {corp.sym} and cannot sell "
                            f"{percent}%")
    remaining = held - percent
    pcert = corp.certs[0]
    if pcert.owner is player and remaining < pcert.percent:
        if any(corp.percent_of(p) > remaining and corp.percent_of(p) >= pcert.percent
               for p in _after(g, player)):
            return
        if not g.rules.stock.president_sales_to_market:
            raise RuleViolation("stock.president_cert",
                                f"{player.name} is president of {corp.sym} with {held}%; "
                                f"selling {percent}% would leave {remaining}% and no other "
                                f"player holds {pcert.percent}% to take the president's "
                                f"certificate")
        ordinary = [c for c in corp.certs_of(player) if not c.president]
        in_pool = [c for c in corp.certs if c.owner == "pool" and not c.president]
        if sum(c.percent for c in ordinary + in_pool) < remaining:
            raise RuleViolation("stock.president_cert",
                                f"{player.name} cannot sell part of the president's "
                                f"certificate of {corp.sym}: no share to take back")
        return
    if _moving(corp, player, percent, certs)[1] > 0:
        raise RuleViolation("stock.sell_split", f"{percent}% of {corp.sym} cannot be made of "
                                                f"{player.name}'s certificates")


def settle_presidency(g, corp, actor=None) -> None:
    """Who presides ``corp`` after a change of holdings: the holder of the
    president's certificate, unless another player holds more (the usual
    swap); with the certificate in the pool, the player holding the most, if
    at least the certificate's size, takes it (giving that much back in
    shares); otherwise nobody (receivership)."""
    st = g.title.state
    pcert = corp.certs[0]
    if isinstance(pcert.owner, Player):
        corp.president = pcert.owner
        g.update_president(corp, seller=actor)
        st.receivership.discard(corp.sym)
        return
    if pcert.owner != "pool":
        return
    start = actor or g.priority
    i = g.seat_order.index(start) if start in g.seat_order else 0
    order = g.seat_order[i:] + g.seat_order[:i]
    cands = [p for p in order if corp.percent_of(p) >= pcert.percent]
    if not cands:
        corp.president = None
        st.receivership.add(corp.sym)
        return
    best = max(corp.percent_of(p) for p in cands)
    new = next(p for p in cands if corp.percent_of(p) == best)
    give = pcert.percent
    for cert in sorted(corp.certs_of(new), key=lambda c: -c.index):
        if give <= 0:
            break
        if cert.percent <= give:
            cert.owner = "pool"
            give -= cert.percent
    pcert.owner = new
    corp.president = new
    st.receivership.discard(corp.sym)


def _drop(g, corp, percent: int, first_sale: bool) -> None:
    """The price's fall for a sale of ``percent`` (``first_sale``: the seller's
    first sale of ``corp`` in this stock round)."""
    rule = g.rules.stock["no_sale_drop"]
    if rule["not_operated"] and not corp.operated:
        return
    if rule["after_event"] and rule["after_event"] in g.title.state.events_done:
        return
    cells = percent // corp.share_percent
    zone = g.rules.stock["ignore_one_sale_zone"]
    if zone and zone in corp.price.letters \
            and (g.rules.stock.ignore_one_sale_per == "sale" or first_sale):
        cells -= 1
    move_cells(g, corp, -cells)
    g.title.check_bankrupt(corp)


def _after(g, player):
    order = g.seat_order
    i = order.index(player)
    return [order[(i + k) % len(order)] for k in range(1, len(order))]


def check_exchange_1860(g, action: Exchange):
    """A private exchanged for its corporation's share (S2.1): only once the
    corporation has a par (``company_exchange.needs_ipoed``), the reserved
    share first, which frees the rest; the private closes.  In a stock round
    only (the privates' ``window: stock_round``): elsewhere flagged and taken
    as the record says.  Why it is refused (raise), else its plan for
    :func:`apply_exchange_1860`; changes nothing."""
    company = g.companies.get(action.actor)
    if company is None or company.closed or not isinstance(company.owner, Player):
        raise RuleViolation("exchange.company", f"{action.actor} is not a player's open private")
    spec = (company.spec.special or {}).get("exchange") or {}
    corp = g.corporations.get(spec.get("corporation", ""))
    if corp is None or action.corporation != corp.sym:
        raise RuleViolation("exchange.corporation",
                            f"{company.sym} cannot be exchanged for a {action.corporation} share")
    if g.rules.settings.company_exchange.needs_ipoed and not corp.ipoed \
            and corp.sym in g.title.state.bankrupt:
        raise RuleViolation("exchange.not_parred",
                            f"{corp.sym} went bankrupt and has not been started again; "
                            f"{company.sym} can be exchanged only once it has a new par (W4)")
    if g.rules.settings.company_exchange.needs_ipoed and not corp.ipoed:
        raise RuleViolation("exchange.not_parred",
                            f"{corp.sym} has not been started; {company.sym} can be "
                            f"exchanged only once it has a par")
    owner = company.owner
    cands = [c for c in corp.certs if c.owner == "ipo" and not c.president]
    if not cands:
        raise RuleViolation("exchange.no_share", f"no {corp.sym} share is left in the IPO")
    cert = cands[-1] if reserved_cert(g, corp) is not None else cands[0]
    if action.certs and action.certs[0] < len(corp.certs) \
            and corp.certs[action.certs[0]] in cands:
        cert = corp.certs[action.certs[0]]
    outside = exchange_outside_window(g, company, spec)
    return company, corp, cert, owner, outside


def apply_exchange_1860(g, action: Exchange, plan) -> None:
    company, corp, cert, owner, outside = plan
    if outside is not None:
        g.flag("private.window", outside)
    cert.owner = owner
    g.title.state.freed.add(corp.sym)
    g.title.state.exchanged.add(company.sym)
    g.close_company(company)
    settle_presidency(g, corp, owner)
    float_1860(g, corp)


# ---------------------------------------------------------------------------
# 1860's own steps of a stock round

class HomeTrackStep(Step):
    """A corporation floated on an empty home hex: its president lays its
    yellow home tile (or passes: the home station then goes on the bare
    hex) before anything else happens (the site's HomeTrack step)."""

    only_blocking = True
    name = "laying the home track"
    actions = (LayTile, Pass)

    def blocking(self) -> bool:
        return bool(self.game.title.state.home_track)

    def owns(self, action) -> bool:
        return self.blocking()

    def check(self, turn, action):
        return self.round.check_home_track(action)

    def apply(self, turn, action, plan) -> None:
        self.round.apply_home_track(action, plan)


class BankPrivateStep(Step):
    """Privates sold to the bank for face value less 30 and bought from it
    (S7), in the player's turn (the round's turn bookkeeping around the
    step's pure ``check`` and its ``apply``); the turn goes on."""

    name = "selling or buying a private"
    turn_action = True

    def check(self, player, action):
        raise NotImplementedError

    def apply(self, player, action, plan) -> None:
        raise NotImplementedError


class SellPrivateToBankStep(BankPrivateStep):
    """A private sold to the bank at its face value less the fee, from the
    stock round ``company_sale_to_bank.from_stock_round`` on, not after a
    buy in the turn."""

    name = "selling a private to the bank"
    actions = (SellCompany,)

    def check(self, player, action: SellCompany):
        g = self.game
        rule = g.rules.settings.company_sale_to_bank
        company = self.round.company(action.company)
        if rule is None:
            raise RuleViolation("stock.sell_company", "privates are not sold to the bank here")
        if company.owner is not player or company.closed:
            raise RuleViolation("stock.sell_company", f"{player.name} does not own {company.sym}")
        if g.sr_number < rule["from_stock_round"]:
            raise RuleViolation("stock.sell_company",
                                f"privates are sold to the bank from stock round "
                                f"{rule['from_stock_round']} on")
        if self.round.bought is not None:
            raise RuleViolation("stock.sell_buy_order",
                                "nothing may be sold after buying in the same turn")
        price = max(0, company.value - rule["fee"])
        note = None
        if action.price is not None and action.price != price:
            # P2: face value less the fee.  18xx.games pays the written price
            # without checking it: taken so, the state stays the engine's
            written = max(0, action.price)
            note = (f"the bank buys {company.sym} at its face value {g.money(company.value)} "
                    f"less {g.money(rule['fee'])}, {g.money(price)}, not "
                    f"{g.money(action.price)} (18xx.games pays the written price); taken at "
                    f"{g.money(written)}, as the record says")
            price = written
        return company, price, note

    def apply(self, player, action: SellCompany, plan) -> None:
        g = self.game
        company, price, note = plan
        if note:
            g.flag("stock.company_price", note)
        g.transfer(g.bank, player, price)
        player.companies.remove(company)
        company.owner = None
        self.round.sold.setdefault(player, set()).add(company)
        g.title.check_bank_break()


class BuyBankPrivateStep(BankPrivateStep):
    """A private bought from the bank at its face value once it is on sale
    (``Title.company_on_sale``): the turn's one purchase; Fishbourne Ferry
    closes the other privates and frees the reserved shares.

    Another price written is ``stock.company_price`` (P2): the bank sells at
    face value.  The record says the private was bought, so it is taken at
    the written price when the player can pay it (18xx.games takes any price
    he can pay: the state stays the engine's), else at its face value."""

    name = "buying a private from the bank"
    actions = (BuyCompany,)

    def check(self, player, action: BuyCompany):
        g = self.game
        rnd = self.round
        company = rnd.company(action.company)
        if company.owner is not None or company.closed:
            raise RuleViolation("stock.buy_company", f"{company.sym} is not for sale by the bank")
        if not g.title.company_on_sale(company):
            raise RuleViolation("stock.buy_company", f"{company.sym} is not available yet")
        if company in rnd.sold.get(player, set()):
            raise RuleViolation("stock.rebuy", f"{player.name} sold {company.sym} this round")
        if rnd.bought is not None:
            raise RuleViolation("stock.one_buy", f"{player.name} already bought this turn")
        if g.cert_limit_exceeded(player) is not None:
            raise RuleViolation("stock.cert_limit", f"{player.name} is at the certificate limit")
        value = company.value
        written = action.price if action.price is not None else value
        price, notes = value, []
        if written != value:
            if 0 <= written <= player.cash:
                price = written
                notes.append(("stock.company_price",
                              f"the bank sells {company.sym} at its face value "
                              f"{g.money(value)}, not {g.money(written)} (18xx.games takes any "
                              f"price the player can pay); taken at {g.money(written)}, as the "
                              f"record says"))
            else:
                notes.append(("stock.company_price",
                              f"the bank sells {company.sym} at its face value "
                              f"{g.money(value)}, not {g.money(written)}, which {player.name} "
                              f"cannot pay with {g.money(player.cash)}; taken at "
                              f"{g.money(value)}"))
        if player.cash < price:
            raise RuleViolation("stock.cash", f"{player.name} has {g.money(player.cash)}; "
                                              f"{company.sym} costs {g.money(price)}")
        return SimpleNamespace(company=company, price=price, notes=notes)

    def apply(self, player, action: BuyCompany, plan) -> None:
        g = self.game
        company = plan.company
        for rule, message in plan.notes:
            g.flag(rule, message)
        g.transfer(player, g.bank, plan.price)
        company.owner = player
        player.companies.append(company)
        self.round.bought = company
        self.round.buys += 1
        if (company.spec.special or {}).get("closes_other_companies"):
            for other in g.companies.values():
                if other is not company:
                    g.close_company(other)
            g.title.state.all_freed = True


class ParStep1860(ParStep):
    """A par (S1, S10): only in an open section, at a par of its range (a
    bankrupt corporation's again at a grey one); the president's
    certificate is paid twice the par, to the bank, and the buyer must
    have the cash (not taken as written)."""

    def check(self, player, action: Par):
        g = self.game
        corp = self.round.corporation(action.corporation)
        if corp.ipoed:
            raise RuleViolation("stock.par_twice", f"{corp.sym} already has a par value of "
                                                   f"{g.money(corp.par.price)}")
        section = section_of(g, corp)
        now = current_section(g)
        if section > now:
            raise RuleViolation("stock.section",
                                f"{corp.sym} is in section {section}; only sections up to "
                                f"{now} are open")
        bankrupt = corp.sym in g.title.state.bankrupt
        low, high = par_range(g, corp, bankrupt=bankrupt)
        cell = g.market.par_cell(action.price)
        if bankrupt:
            row = g.market.grid[0]
            cell = next((c for c in row if c and c.price == action.price
                         and (c.par or "r" in c.letters)), None)
        notes: list = []
        price = action.price
        if cell is None or not low <= action.price <= high:
            if bankrupt:
                refusal = RuleViolation(
                    "stock.par_price",
                    f"{corp.sym} went bankrupt: it starts again at a par of the grey zone up "
                    f"to its section's top, {g.money(low)} to {g.money(high)} (section "
                    f"{section}), not {g.money(action.price)}")
            else:
                again = ""
                rerange = g.rules.settings.repar_range.get(str(section))
                if rerange and rerange[0] <= action.price <= rerange[1] and any(
                        c and c.price == action.price and "r" in c.letters
                        for c in g.market.grid[0]):
                    again = " (a par of the grey zone only for a corporation that went bankrupt)"
                refusal = RuleViolation(
                    "stock.par_price",
                    f"{g.money(action.price)} is not a par value of {corp.sym}'s section "
                    f"{section} ({g.money(low)} to {g.money(high)}){again}")
            # the record goes on from a par of this corporation: taken at the
            # written price when the market has a cell for it, else at the
            # nearest par of the range, so that the replay stays in step
            if cell is not None:
                taken = f"; taken as par {g.money(price)}, as the record says"
            else:
                cell = self.nearest_par_cell(player, corp, action.price, low, high, bankrupt)
                if cell is None:
                    raise refusal
                price = cell.price
                taken = f"; taken as par {g.money(price)}, the nearest in the range"
            notes.append((refusal.rule, refusal.message + taken))
        cost = self.check_president_purchase(player, corp, price)
        if section > open_section(g):
            # the summary's timing (sections_open: next_sr): flagged, and the
            # par made as recorded (the section's test holds), so that the
            # replay stays in step with the record
            notes.append(("stock.section",
                          f"{corp.sym} is in section {section}, which opened during this stock "
                          f"round; under sections_open: next_sr only sections up to "
                          f"{open_section(g)} are open until the next stock round"))
        return SimpleNamespace(corp=corp, cell=cell, cost=cost, notes=notes)

    def nearest_par_cell(self, player, corp, price: int, low: int, high: int, bankrupt: bool):
        """The par cell of ``low``..``high`` nearest to ``price``, or None; of
        two as near, the higher one the player can pay for (else the higher)."""
        cells = [c for c in self.game.market.grid[0]
                 if c and low <= c.price <= high and (c.par or bankrupt and "r" in c.letters)]
        if not cells:
            return None
        cells.sort(key=lambda c: (abs(c.price - price), -c.price))
        near = [c for c in cells if abs(c.price - price) == abs(cells[0].price - price)]
        pcert = corp.certs[0]
        payable = [c for c in near
                   if c.price * pcert.percent // corp.share_percent <= player.cash]
        return (payable or near)[0]

    def apply(self, player, action: Par, plan) -> None:
        g = self.game
        corp = plan.corp
        self.flag_notes(plan.notes)
        corp.par = plan.cell
        g.place_price(corp, plan.cell)
        self.give_president_certificate(player, corp, plan.cost, g.bank)
        self.round.parred = corp
        float_1860(g, corp)


class BuySharesStep1860(BuySharesStep):
    """One certificate per turn (S4): none of a corporation of a section
    not open yet, nor the share reserved for a private's exchange; the
    president's certificate from the pool only by a holder of a share; the
    buyer must have the cash (not taken as written)."""

    def check(self, player, action: BuyShares):
        g = self.game
        named = g.corporations.get(action.corporation)
        if named is not None and not named.ipoed:
            section, now = section_of(g, named), current_section(g)
            if section > now:
                raise RuleViolation("stock.section",
                                    f"{named.sym} is in section {section}; only sections up "
                                    f"to {now} are open: none of its shares is for sale yet")
        corp, missing = self.parred_corporation(action)
        if missing is not None:
            return SimpleNamespace(missing=missing)
        idx = action.certs[0] if action.certs else None
        cert = corp.certs[idx] if idx is not None and idx < len(corp.certs) else None
        if cert is None or cert.owner not in ("ipo", "pool"):
            # the named certificate is a player's here (certificates of one
            # size are alike and may have changed places): a share just sold
            # to the pool is the likelier one
            src = [action.source] if action.source else ["pool", "ipo"]
            cert = next((c for s in src for c in corp.certs if c.owner == s
                         and not c.president and c is not reserved_cert(g, corp)), None)
        reserved = reserved_cert(g, corp)
        if cert is None and reserved is not None and action.source in (None, "ipo"):
            cert = reserved     # the only share left is the reserved one
        if cert is None:
            raise RuleViolation("stock.no_share", f"no {corp.sym} share is left to buy")
        if cert is reserved:
            privates = [c.sym for c in g.companies.values()
                        if ((c.spec.special or {}).get("exchange") or {}).get("corporation")
                        == corp.sym]
            raise RuleViolation("stock.reserved",
                                f"{corp.sym}'s last {cert.percent}% share in the IPO is "
                                f"reserved for the exchange of "
                                f"{' or '.join(privates) or 'a private'} until an "
                                f"exchange frees it or Fishbourne Ferry is bought")
        source = cert.owner
        if cert.president and not corp.percent_of(player):
            raise RuleViolation("stock.president_cert",
                                f"the president's certificate of {corp.sym} in the pool may be "
                                f"bought only by a player holding a share of it")
        self.round.check_can_buy(player, corp, cert.percent, source=source)
        each = corp.par.price if source == "ipo" else corp.price.price
        swap = ()
        if cert.president and source == "pool":
            # R5: the president's certificate is not bought but exchanged: the
            # buyer pays for one share and gives back shares for the rest
            swap = _swap_for_president(corp, player, cert.percent - corp.share_percent)
        cost = each * (cert.percent - sum(c.percent for c in swap)) // corp.share_percent
        if player.cash < cost:
            raise RuleViolation("stock.cash",
                                f"{player.name} has {g.money(player.cash)}; a {corp.sym} "
                                f"share from {g.holder_name(source)} costs {g.money(cost)}")
        return SimpleNamespace(missing=None, corp=corp, cert=cert, source=source, cost=cost,
                               swap=swap)

    def apply_buy(self, player, action: BuyShares, plan) -> None:
        g = self.game
        corp, cert = plan.corp, plan.cert
        g.transfer(player, g.bank, plan.cost)
        for given in plan.swap:
            given.owner = "pool"
        cert.owner = player
        self.round.bought = corp
        self.round.buys += 1
        action.source = plan.source
        if cert.president:
            corp.president = player
        settle_presidency(g, corp, player)
        float_1860(g, corp)


def _swap_for_president(corp, player, percent: int) -> tuple:
    """The ordinary certificates, ``percent`` in all, that ``player`` gives
    back to the pool for the president's certificate he takes from it (R5);
    as many as he holds when he holds fewer."""
    out = []
    for cert in sorted(corp.certs_of(player), key=lambda c: c.index):
        if percent <= 0:
            break
        if not cert.president and cert.percent <= percent:
            out.append(cert)
            percent -= cert.percent
    return tuple(out)


class SellSharesStep1860(SellSharesStep):
    """Sales (S5): none after a buy in the turn, one block of a corporation
    per turn (``stock.must_sell_in_blocks``), at :func:`sale_price`, the
    president's certificate into the pool (:func:`sell_1860`)."""

    def check(self, player, action: SellShares):
        g = self.game
        rnd = self.round
        if rnd.bought is not None:
            raise RuleViolation("stock.sell_buy_order",
                                "shares may not be sold after buying in the same turn")
        sales: list = []
        notes: list = []
        for sale in action.sales:
            corp = rnd.corporation(sale.corporation)
            percent = sale.percent if sale.percent is not None else \
                sale.count * corp.share_percent
            # (a sale of what the seller does not hold is that first, as the
            # shared step has it: the record's later lines may say which sale
            # it was, m10's 1860_rand_50500102_0 #59, C&N_4 for IOW_1 after
            # his sale of C&N)
            if g.rules.stock["must_sell_in_blocks"] and (
                    corp in rnd.sold_this_turn or any(c is corp for c, _, _ in sales)) \
                    and 0 < percent <= corp.percent_of(player):
                raise RuleViolation("stock.sell_blocks",
                                    f"{player.name} already sold {corp.sym} this turn")
            try:
                check_sell_1860(g, player, corp, percent, sale.certs)
            except RuleViolation as v:
                # a certificate not held: the sale the record's later lines
                # imply (an export names what is bought back from the pool)
                corp, percent, certs, message = g.following.implied_sale(self, player,
                                                                         action, v)
                check_sell_1860(g, player, corp, percent, certs)
                if any(c is corp for c, _, _ in sales) or corp in rnd.sold_this_turn:
                    raise v from None
                notes.append((v.rule, message))
                sales.append((corp, percent, certs))
                continue
            sales.append((corp, percent, sale.certs))
        return SimpleNamespace(sales=sales, notes=notes)

    def apply(self, player, action: SellShares, plan) -> None:
        g = self.game
        rnd = self.round
        self.flag_notes(plan.notes)
        for corp, percent, certs in plan.sales:
            sell_1860(g, player, corp, percent, certs)
            rnd.sold.setdefault(player, set()).add(corp)
            rnd.sold_this_turn.add(corp)
            g.title.check_bank_break()

    def may_take_for(self, owner, action) -> bool:
        return False        # 1860's own sale: never tried under another name
