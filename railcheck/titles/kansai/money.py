"""Kansai's money: the players' and companies' cash, the bank, the share
prices on the market grid (the shared ``railcheck/market.py``), and the
checks that need them.

Money is tracked once the components file gives what the whole game needs:
the starting cash for the player count, the bank and the market grid (and
the auction is played, which needs the privates' values and incomes: see
``auction.py``).  Where a later number is unknown (a train's price the record
does not write, a station's cost) the amount cannot be known: the check is
counted as skipped (``components.unknown``) and the entity's cash is *unsure*
from then on; checks that need a sure amount (over-cash findings, money
checkpoints, the net worths) are then not made for it.  A number is never
invented.  What is not sure is the shared ``railcheck/unsure.py``'s (the
replay's :attr:`~KansaiReplay.unsure`, as a shared ``Game``'s).

Every amount is an integer; every movement goes through :meth:`Ledger.pay`
(the bank is the entity ``"bank"``), and the last movements of each entity are
kept to explain a mismatched checkpoint.
"""

from __future__ import annotations

from typing import Optional

from ...game import ranked
from ...market import Cell, Market
from ...schema import is_unknown
from ...unsure import BANK, price_key
from .holdings import Purse


class Ledger:
    #: the title object, its state and game, the doubts and the market: pictured on their
    #: own, not the ledger's (``snapshot.state_snapshot``)
    not_state = ("r", "st", "h", "doubts")

    def __init__(self, replay):
        self.r = replay
        self.st = replay.state
        self.h = replay.holdings
        #: the amounts not sure and the checks skipped (the shared ``railcheck/unsure.py``)
        self.doubts = replay.unsure
        # (the ledger keeps no book of its own: the cash is on the game's objects, the bank
        # the game's, the purses, movements and markers' order the game's too, ``Holdings``;
        # its flags are the title's state, ``State1890``)

    @property
    def market(self) -> Market:
        """The market grid (the game's)."""
        return self.h.market

    @property
    def off(self) -> tuple:
        """The key of the number money needs that is unknown (``companies``: the auction was
        not played), the shared ``Unsure.off``; empty while money is tracked."""
        return tuple(self.doubts.off or ())

    @property
    def on(self) -> bool:
        """Money is tracked (``Holdings.money_tracked``)."""
        return self.h.money_tracked

    @property
    def bank(self) -> int:
        """The bank's cash: the shared game's (``Game.bank``)."""
        return self.h.bank.cash

    @bank.setter
    def bank(self, cash: int) -> None:
        self.h.bank.cash = cash

    def closed(self, corp: str) -> bool:
        """A main company closed by the black zone (K10: ``Corporation.closed``; a minor's
        conversion or closure is not this)."""
        c = self.h.corporations.get(corp)
        return c is not None and c.kind != "minor" and c.closed

    # ------------------------------------------------------------------
    # the start

    def start(self, auction_players=None) -> None:
        """After the auction: the players' cash as the auction left it (or
        the starting cash when the record has no auction)."""
        r = self.r
        rules = r.rules
        if not self.doubts.tracked:
            # the starting cash, the bank or the market grid is unknown (the shared Game
            # said which when it was built)
            return
        if auction_players is None and self.h.owned():
            # the auction was not played: its prices are unknown
            self.doubts.turn_off(("companies",))
            return
        n = len(self.h.players)
        if auction_players is None:
            for p in self.h.players:
                p.cash = int(rules.starting_cash[n])
        # (else the auction's table played on the game's players: their cash is the auction's)
        self.bank = int(rules.bank) - sum(p.cash for p in self.h.players)
        self.h.money_started = True

    # ------------------------------------------------------------------
    # movements

    @property
    def bank_broken(self) -> bool:
        """The bank has broken (the shared ``Game.bank_broken``; 1890's test is
        ``Holdings.bank_breaks``)."""
        return self.h.bank_broken

    def get(self, who: str) -> int:
        if not self.on:
            return 0
        entity = self.h.holder(who)
        if entity is None:
            purse = self.h.purses.get(who)
            return 0 if purse is None else purse.cash
        return entity.cash

    def entity(self, who: str):
        """What holds ``who``'s cash: the bank, a player, a company, or the purse of a name
        that is neither."""
        if who == BANK:
            return self.h.bank
        return self.h.holder(who) or self.h.purses.setdefault(who, Purse())

    def pay(self, payer: str, payee: str, amount: int, note: str = "") -> None:
        """``amount`` from ``payer`` to ``payee`` by name (the bank is ``"bank"``): the
        shared ``Game.transfer``, whose test of the bank's break is 1890's
        (``Holdings.bank_breaks``, E1); the last movements of each are kept (``note``)."""
        if not self.on or amount == 0:
            return
        self.h.transfer(self.entity(payer), self.entity(payee), int(amount))
        if note:
            for who in (payer, payee):
                if who != BANK:
                    kept = self.h.movements.setdefault(who, [])
                    kept.append(note)
                    del kept[:-3]

    @property
    def unsure(self) -> dict:
        """who -> why its cash (or price: ``price:`` and the corporation) is not sure."""
        return self.doubts.unsure

    @property
    def at_most(self) -> dict:
        """who -> what it did not pay: its cash is known only as an upper bound."""
        return self.doubts.at_most

    def mark_unsure(self, who: str, kind: str, keys: tuple, reason: str = "") -> None:
        """An amount of ``who`` is unknown (the check of ``kind`` is skipped)."""
        if self.on:
            self.doubts.mark(who, kind, keys, reason)

    def cost_unknown(self, who: str, kind: str, keys: tuple, what: str,
                     reason: str = "") -> None:
        """A cost of ``who`` is unknown and not paid: its cash is at most the
        replay's from now on."""
        if self.on:
            self.doubts.bound(who, kind, keys, what, reason)

    def price_paid(self, who: str, corp: str) -> None:
        """``who`` paid or received ``corp``'s market price: if that price is
        not sure, neither is his cash."""
        if self.on:
            self.doubts.follow(who, price_key(corp))

    def sure(self, who: str) -> bool:
        return self.doubts.sure(who)

    def over(self, who: str, amount, what: str) -> Optional[str]:
        """Why a payment surely exceeds the payer's cash (the finding's message), or None;
        a check of a cash that is not sure is counted as skipped."""
        if not self.on or amount is None:
            return None
        have = self.get(who)
        if self.doubts.over_cash(who, have, amount):
            return f"{who} has {self.r.money(have)}, {what} costs {self.r.money(amount)}"
        return None

    def afford(self, who: str, amount: int, rule: str, what: str) -> None:
        """A payment over the payer's cash is flagged with the numbers and
        taken as written (the cash may go below zero)."""
        over = self.over(who, amount, what)
        if over is not None:
            self.r.flag(rule, over)

    # ------------------------------------------------------------------
    # prices

    def cell(self, corp: str) -> Optional[Cell]:
        """The corporation's price marker's cell (``Corporation.price``), None: none."""
        c = self.h.corporations.get(corp)
        return None if c is None else c.price

    def price(self, corp: str) -> Optional[int]:
        cell = self.cell(corp)
        return None if cell is None else cell.price

    def set_par(self, corp: str, price: int) -> None:
        if not self.on:
            return
        cell = self.market.par_cell(price)
        if cell is None:                    # flagged by the par check: the nearest par cell
            cells = sorted(self.market.par_cells, key=lambda c: (abs(c.price - price), c.price))
            cell = cells[0] if cells else None
        if cell is not None:
            self.place(corp, cell)

    def place(self, corp: str, cell) -> None:
        """SM4: a marker moving onto an occupied cell goes under the others (the shared
        ``Game.place_price``)."""
        c = self.h.corporations[corp]
        if c.price is not cell:
            if c.price is None:
                self.h.marked.append(corp)
            self.h.place_price(c, cell)

    def order_key(self, corp: str):
        """O0b: the highest price first; on one cell the top marker; equal
        prices: the one further right."""
        c = self.h.corporations[corp]
        return self.h.market.order_key(c.price, c)

    def move(self, corp: str, how: str, times: int = 1) -> None:
        """One cell ``right``/``left``/``up``/``down`` (``down`` stops at the
        ledge, SS4); a company reaching a black cell closes (K10)."""
        if not self.on or self.cell(corp) is None:
            return
        m = self.market
        ledge = self.r.rules.number("market", "ledge")
        cell = start = self.h.corporations[corp].price
        for _ in range(times):
            if how == "down" and isinstance(ledge, int) and cell.row >= ledge:
                break
            cell = getattr(m, how)(cell)
        if how == "down" and cell is not start and is_unknown(ledge):
            # SS4: the drop stops at the line, which the components file does not give
            self.doubts.mark_price(corp, "share prices after a sale (the market's ledge)",
                                   ("market", "ledge"))
            self.r.skip("share prices after a sale (the market's ledge)", ("market", "ledge"))
        self.place(corp, cell)
        if "x" in cell.letters:
            self.h.corporations[corp].closed = True                                 # K10

    # ------------------------------------------------------------------
    # certificates

    def zone(self, corp: str, zone: str) -> bool:
        cell = self.cell(corp)
        return cell is not None and cell.has(zone)

    def check_limits(self, player: str, corp: Optional[str]) -> None:
        """After a purchase: the certificate limit (SB5: the shared
        ``Game.cert_limit_exceeded``, what counts the title's
        ``TitleKansai.counts_for_cert_limit``) and the 60% (SB4: the shared
        ``Game.holding_limit_exceeded``; the orange zone, SM2, is the shared ``unlimited``)."""
        if not self.on:
            return
        r, h = self.r, self.h
        holder = h.by_name[player]
        have = h.cert_limit_exceeded(holder, 0)
        if have is not None:
            r.flag("stock.cert_limit", f"{player} holds {have} certificates, over the limit of "
                                       f"{h.cert_limit} for {len(h.players)} players (SB5; shares "
                                       f"in the yellow and orange zones do not count, SM1)")
        if corp is None:
            return
        over = h.holding_limit_exceeded(holder, h.corporations[corp], 0)
        if over is not None:
            pct, hold = over
            where = self.price(corp)
            r.flag("stock.holding_limit",
                   f"{player} holds {pct}% of {corp}, over the {hold}% limit (SB4); {corp}'s "
                   f"price {r.money(where) if where is not None else '(none)'} is not in the "
                   f"orange zone (SM2)")

    # ------------------------------------------------------------------
    # the net worths

    def private_value(self, sym: str):
        if sym == "M5":                 # N5: a privatised Kobe Electric is worth 0
            return 0
        return self.r.rules.company_value(sym)

    def standings(self) -> tuple[list, Optional[str]]:
        """(rows, None) or ([], why not)."""
        h = self.h
        why = self.doubts.standings_doubt(h.names)
        if why is not None:
            return [], why
        rows = []
        for p in h.names:
            shares = 0
            for corp in (c.sym for c in h.majors()):
                certs = h.percents(corp, p)
                if not certs or self.closed(corp):
                    continue
                if not self.sure(price_key(corp)):
                    return [], f"{corp}'s share price is not sure ({self.unsure[price_key(corp)][0]})"
                price = self.price(corp)
                if price is None:       # never parred (a free share): no market price, worth 0
                    continue
                shares += price * sum(certs) // 10
            privates = 0
            for company in h.owned():
                sym = company.sym
                if company.owner is not h.by_name[p]:
                    continue
                if company.closed and sym != "M5":
                    continue
                value = self.private_value(sym)
                if is_unknown(value):
                    return [], f"{sym}'s value is unknown"
                privates += int(value)
            for minor in h.minors_of(p):
                # §13: a minor counts at its face value (its printed price) while it runs
                if not minor.closed:
                    privates += int(minor.spec.extra["price"])
            rows.append({"player": p, "cash": self.get(p), "shares": shares,
                         "privates": privates, "net_worth": self.get(p) + shares + privates})
        return ranked(rows), None

    def net_worth(self, player: str) -> Optional[int]:
        rows, _ = self.standings()
        for row in rows:
            if row["player"] == player:
                return row["net_worth"]
        return None

    def company_table(self) -> list:
        r, h = self.r, self.h
        rows = []
        for c in r.rules.corporations:
            sym = c.sym
            if c.kind == "minor":
                if h.minor_owner(sym) is None:
                    continue
                rows.append({"company": sym, "price": None, "treasury": self.get(sym),
                             "trains": sorted(h.train_names(sym)),
                             "president": h.minor_owner(sym),
                             "floated": True, "closed": h.corporations[sym].closed,
                             "ipo_percent": 0, "pool_percent": 0})
                continue
            if h.par(sym) is None:
                continue
            held = h.sold_percent(sym)
            rows.append({"company": sym, "price": self.price(sym), "treasury": self.get(sym),
                         "trains": sorted(h.train_names(sym)),
                         "president": h.president(sym),
                         "floated": h.corporations[sym].floated,
                         "closed": self.closed(sym),
                         "ipo_percent": max(0, self.issued(sym) - held - h.pool(sym)),
                         "pool_percent": h.pool(sym)})
        return rows

    def issued(self, corp: str) -> int:
        """The percent a company's certificates for sale come to (KNR: the 4
        shares of K7 and the converted minors' certificates)."""
        if corp == "KNR":
            r = self.r
            return 10 * int(r.rules.knr["for_sale_shares"]) + 10 * r.operating.knr_shares_given \
                + (20 if self.h.corporations["M2"].closed else 0)
        return 100


    # ------------------------------------------------------------------
    # the operating round

    def place_hex(self, name: str):
        return self.r.rules.number("map", "places", name, "hex")

    def has_station_in(self, corp: str, place: str) -> bool:
        """A station of ``corp`` in ``place`` (its home counts)."""
        h = self.place_hex(place)
        if is_unknown(h):
            return False
        if h in self.st.stations.get(corp, set()):
            return True
        home = self.r.rules.number("corporations", corp, "home") \
            if self.r.rules.corp_by_sym.get(corp) and \
            self.r.rules.corp_by_sym[corp].kind != "minor" else None
        return home == place and self.h.corporations[corp].operated

    def incomes(self) -> None:
        """O0a: at the start of each OR every open private pays its income to
        its owner (Hankai Tramway 5 from phase 4, P3); the late privates (L1:
        Keifuku's to Keihan once it has a station in Kyoto; L3: Kita Osaka
        Kyuko's 100 once, in the first OR after the first 6; L4: 40 to every
        company with a station in Sakai); a privatised Kobe Electric (N5);
        Hankyu's 40 with a station in Takarazuka (C9)."""
        if not self.on:
            return
        r = self.r
        rules = r.rules
        label = r.round_label
        for p in rules.privates:
            sym, owner = p.sym, self.h.owner_of(p.sym)
            if owner is None or self.h.private_closed(sym):
                continue
            late_income = p.extra.get("revenue_from_phase") or {}
            due = [v for ph, v in late_income.items() if r.phase_at_least(str(ph))]
            if due:
                rev = int(due[-1])
            elif p.extra:
                rev = r.number("private incomes", "companies", sym, "revenue")
            else:
                rev = r.number("private incomes", "companies", "others", sym, "revenue")
            if is_unknown(rev):
                self.mark_unsure(owner, "private incomes", ("companies", sym, "revenue"))
                continue
            self.pay(BANK, owner, rev, f"{sym} paid its income {r.money(rev)} to {owner} "
                                       f"({label}, O0a)")
        for p in rules.late_companies:
            sym, owner = p.sym, self.h.owner_of(p.sym)
            if owner is None or sym == "KRTR":
                continue
            rev = r.number("private incomes", "late_companies", sym, "revenue")
            to = owner
            income_to = p.extra["income_to"]
            if income_to and self.has_station_in(income_to["corporation"],
                                                 income_to["place_name"]):
                to = income_to["corporation"]                                    # L1
            if is_unknown(rev):
                self.mark_unsure(to, "private incomes", ("late_companies", sym, "revenue"))
            else:
                self.pay(BANK, to, rev, f"{sym} paid its income {r.money(rev)} to {to} ({label})")
            once = p.extra["once"]
            if once and not self.st.kok_paid and self.h.bought(once["after_first"]):     # L3
                self.st.kok_paid = True
                self.pay(BANK, owner, int(once["amount"]),
                         f"{sym} received {r.money(once['amount'])} in the first OR after the "
                         f"first {once['after_first']}-train ({label}, L3)")
            bonus = p.extra["station_bonus"]
            if bonus:                                                              # L4
                for corp in rules.corp_by_sym:
                    if rules.corp_by_sym[corp].kind != "minor" and \
                            self.has_station_in(corp, bonus["place_name"]):
                        self.pay(BANK, corp, int(bonus["amount"]),
                                 f"{corp} received {r.money(bonus['amount'])} for its station "
                                 f"in {bonus['place_name']} ({label}, L4)")
        if self.h.owner_of("M5") and self.h.corporations["M5"].closed:                     # N5
            rev = r.number("private incomes", "minors", "M5", "late_private_revenue")
            owner = self.h.owner_of("M5")
            if is_unknown(rev):
                self.mark_unsure(owner, "private incomes", ("minors", "M5", "late_private_revenue"))
            else:
                self.pay(BANK, owner, rev, f"M5 (privatised) paid {r.money(rev)} to {owner} "
                                           f"({label}, N5)")
        for c in rules.corporations:                                               # C9
            bonus = c.extra["bonus"]
            if bonus and bonus["needs"] == "station" and self.h.corporations[c.sym].floated and \
                    not self.closed(c.sym) and self.has_station_in(c.sym,
                                                                            bonus["place_name"]):
                self.pay(BANK, c.sym, int(bonus["amount"]),
                         f"{c.sym} received {r.money(bonus['amount'])} for its station in "
                         f"{bonus['place_name']} ({label}, C9)")

    def run(self, corp: str, action) -> Optional[int]:
        """A run: its revenue (the record's total; its trains' parts must add
        up to it), Kobe Rapid Transit's half of Kobe (L2), Hanshin's 10 at a
        brown Nishinomiya (C2)."""
        r, st = self.r, self.st
        parts = [rt.revenue for rt in action.routes]
        total = action.revenue
        if parts and all(x is not None for x in parts):
            if total is not None and sum(parts) != total:
                each = f" ({' + '.join(map(str, parts))})" if len(parts) > 1 else ""
                r.flag("route.revenue", f"{corp}'s runs are written as worth "
                                        f"{r.money(sum(parts))}{each}, but {r.money(total)} "
                                        f"is claimed as the revenue")
            if total is None:
                total = sum(parts)
        if not self.on:
            return total
        level = r.phase.revenue_level
        kobe = self.place_hex("Kobe")
        owner = self.h.owner_of("KRTR")
        if owner is not None and not is_unknown(kobe):
            value = r.rules.number("map", "places", "Kobe", "revenue", level)
            for rt in action.routes:
                if kobe in [s.hex for s in rt.stops]:
                    if is_unknown(value):
                        self.mark_unsure(owner, "Kobe Rapid Transit's income",
                                         ("map", "places", "Kobe", "revenue"))
                        break
                    self.pay(BANK, owner, int(value) // 2,
                             f"KRTR received half of Kobe's {r.money(value)} from {corp}'s "
                             f"{rt.train}-train ({r.round_label}, L2)")
        bonus = r.rules.corp_by_sym[corp].extra["bonus"]
        if bonus and bonus["tile_color"] and bonus["tile_color"] in r.phase.tiles:       # C2
            h = self.place_hex(bonus["place_name"])
            if not is_unknown(h) and any(h in [s.hex for s in rt.stops] for rt in action.routes):
                color = self.hex_color(h)
                if color is None and h not in st.tile_on:
                    # C2 "zostanie zmodernizowany na kolor brązowy": the bonus needs an upgrade
                    # to brown, and the record laid no tile there: surely no bonus
                    pass
                elif color is None:
                    self.mark_unsure(corp, "Hanshin's 10 at a brown Nishinomiya (the tile's "
                                           "colour)", ("map", "tiles"))
                elif color == bonus["tile_color"]:
                    self.pay(BANK, corp, int(bonus["amount"]),
                             f"{corp} received {r.money(bonus['amount'])} for running through "
                             f"{color} {bonus['place_name']} ({r.round_label}, C2)")
        return total

    def hex_color(self, h: str) -> Optional[str]:
        """The colour of a hex: its tile's (``map.tiles``), or what is printed
        there (``map.hexes``); None when the components file does not say."""
        rules = self.r.rules
        tile = self.st.tile_on.get(h)
        if tile is not None:
            tiles = rules.number("map", "tiles")
            spec = None
            if isinstance(tiles, dict):     # a tile's name may be read as a number
                spec = tiles.get(tile, tiles.get(int(tile)) if tile.isdigit() else None)
        else:
            hexes = rules.number("map", "hexes")
            spec = hexes.get(h) if isinstance(hexes, dict) else None
        color = spec.get("color") if isinstance(spec, dict) else None
        return color if isinstance(color, str) else None

    def dividend(self, corp: str, kind: str, revenue: Optional[int]) -> None:
        """O4, O4a, J2, K9: the revenue paid out (to the holders, the pool's
        part to the company), half paid (JR), or withheld; the price moves."""
        if not self.on or self.closed(corp):
            return
        r = self.r
        revenue = int(revenue or 0)
        spec = r.rules.corp_by_sym[corp]
        label = r.round_label
        if spec.kind == "minor":
            to = self.h.minor_owner(corp) if kind == "payout" else corp
            owner_part = revenue
            if kind == "payout" and r.rules.number("rulebook", "minor_payout") != "all":
                # §10.6.1: a minor pays half to its president, half to its treasury
                owner_part = revenue // 2
                if revenue - owner_part:
                    self.pay(BANK, corp, revenue - owner_part,
                             f"{corp} kept half of {r.money(revenue)} (§10.6.1, {label})")
            if to is not None and owner_part:
                self.pay(BANK, to, owner_part, f"{corp} {'paid' if kind == 'payout' else 'kept'} "
                                               f"{r.money(owner_part)} ({label})")
            return
        kept = 0
        if kind == "half":
            from .orsteps import half_kept, half_step
            kept = half_kept(revenue, half_step(r.rules)) if revenue else 0
        elif kind != "payout" or revenue == 0:
            kept = revenue
        if kept:
            why = (f"half of {r.money(revenue)} rounded up to {half_step(r.rules)} (J2)"
                   if kind == "half" else
                   "withheld")
            self.pay(BANK, corp, kept, f"{corp} kept {r.money(kept)} of {r.money(revenue)}: "
                                       f"{why} ({label})")
        shared = revenue - kept
        if shared:
            for holder in self.h.names:
                certs = self.h.percents(corp, holder)
                if certs:
                    amount = shared * sum(certs) // 100
                    self.pay(BANK, holder, amount,
                             f"{corp} paid {r.money(amount)} for {sum(certs)}% to {holder} "
                             f"({r.money(shared)} shared, {label})")
            pool = self.h.pool(corp)
            if pool:
                amount = shared * pool // 100
                self.pay(BANK, corp, amount, f"{corp} received {r.money(amount)} for the "
                                             f"pool's {pool}% (O4, {label})")
        if kind == "half":
            move = r.rules.number("rulebook", "jr_half_dividend_move")
            if is_unknown(move):
                self.doubts.mark_price(corp, "JR's share price after a half dividend",
                                       ("rulebook", "jr_half_dividend_move"))
            elif move != "none":
                self.move(corp, move)
        elif kind == "payout" and revenue > 0:
            self.move(corp, "right")
        elif corp == "KNR" and self.st.knr_first_or == label and \
                r.rules.knr.first_or_no_withhold_drop:
            pass                                                                   # K9
        else:
            self.move(corp, "left")
