"""Kansai's auction and stock rounds: who buys what, in which turn.

The waterfall auction (A1-A7): bids raise by at least 5 (A3), the highest
bid wins; the priority then goes left of the last buyer (A7).  Its turn order
is not checked (the waterfall's turns depend on the privates' values).  The
stock round (S1-SB6): the 1830 family's turns, no sales in the first SR (SS1),
the free Hanshin and Keihan shares (C1, C4), Kinki Nippon's four shares for
sale (K7), the par values set by M2's and OMER's owners (K6, C5), JR's par
100 (J0), the late privates from the first 3-train (L0).
"""

from __future__ import annotations

from ...actions import Bid, BuyCompany, BuyShares, Par, Pass, SellShares
from ...schema import is_unknown
from .components import par_values
from .holdings import FREE_SHARE, RESERVED, par_cell


class StockHandler:
    def __init__(self, replay):
        self.r = replay
        self.st = replay.state
        self.h = replay.holdings
        #: auction: private -> [(player, price, action)]
        self.bids: dict = {}
        #: auction: (line, player) of each acquisition
        self.acquired: list = []
        self.expected = None
        self.last_actor = None
        self.sold_this_round: set = set()
        #: the shared waterfall auction (auction.py), or the key that keeps it from playing
        self.waterfall = None
        self.waterfall_missing = None
        #: stock round: turns passed in a row (the round ends at one per player: S2.2)
        self.passes_in_row = 0
        self.continued = False
        #: (line, player) of the last minor bought in the auction
        self.minor_bought = None

    # ------------------------------------------------------------------
    # turns

    def next_player(self, name: str) -> str:
        players = self.h.names
        return players[(players.index(name) + 1) % len(players)]

    def begin_turn(self, actor: str) -> None:
        r = self.r
        if not self.h.is_player(actor):
            r.flag("turn.actor", f"{actor} is not a player: only players act in the "
                                 f"{'auction' if r.kind == 'auction' else 'stock round'}")
            return
        if r.kind != "SR":
            return
        if self.passes_in_row >= len(self.h.players) and not self.continued:
            # S2.2: the round ends when every player passed in a row
            r.flag("round.continues", f"SR {r.sr_number} ended by the rules (every player passed "
                                      f"in a row), but the record goes on with it")
            self.continued = True
        elif self.expected is not None and actor != self.expected:
            r.flag("turn.order", f"it is {self.expected}'s turn in SR {r.sr_number}, not "
                                 f"{actor}'s")
        self.expected = self.next_player(actor)

    def end_turn(self, actor: str, turn: dict) -> None:
        if self.r.kind != "SR" or not self.h.is_player(actor):
            return
        self.over_limit(actor, turn)
        if any(not isinstance(a, Pass) for a in turn["actions"]):
            self.last_actor = actor
            self.passes_in_row = 0
        else:
            self.passes_in_row += 1

    def over_limit(self, player: str, turn: dict) -> None:
        """S1: a player over the certificate limit sells in his turn: a turn
        ending over it while a counting share could still be sold is flagged."""
        r, st, h, led = self.r, self.st, self.h, self.r.ledger
        limits = r.rules.number("cert_limit")
        if not led.on or is_unknown(limits):
            return
        limit = limits.get(len(h.players), limits.get(str(len(h.players))))
        have = led.cert_count(player)
        if limit is None or have <= limit:
            return
        held = [c.sym for c in h.majors() if h.percents(c.sym, player)]
        if any(not led.sure("price:" + c) for c in held):
            r.skip("the certificate limit after a turn (a share price is not sure)",
                   ("market", "rows"), reason="a share price is not sure")
            return
        pool = int(r.rules.raw["stock"]["pool_limit"])
        sellable = [c for c in held
                    if 10 in h.percents(c, player) and h.corporations[c].operated
                    and r.sr_number > 1
                    and not led.zone(c, "no_cert_limit") and not led.closed(c)
                    and h.pool(c) + 10 <= pool
                    and not (st.free_share.get(c) == player and not h.president_bought(c))]
        if sellable:
            r.flag("stock.over_cert_limit",
                   f"{player} holds {have} certificates, over the limit of {limit}, and ends the "
                   f"turn without selling down to it (S1: {', '.join(sorted(sellable))} could "
                   f"be sold)", action=turn["actions"][-1])

    def start_sr(self) -> None:
        self.passes_in_row = 0
        self.continued = False
        self.sold_this_round = set()
        self.last_actor = None
        self.expected = self.h.priority_name() or (self.h.names[0] if self.h.players else None)

    def end_sr(self) -> None:
        # S3.1: the next SR starts left of the last player who acted
        if self.last_actor is not None:
            self.h.set_priority(self.next_player(self.last_actor))
        # S3.2: a company whose every share found a buyer moves one row up (not on the top row)
        led = self.r.ledger
        for corp in list(led.marked):       # (in the order of their pars)
            if self.h.pool(corp) == 0 and not led.cell(corp).row == 0:
                if self.h.sold_percent(corp) >= led.issued(corp):
                    led.move(corp, "up")

    def end_auction(self) -> None:
        """The highest bid on each private wins it (A4, A5); the priority
        goes left of the last buyer (A7)."""
        if self.waterfall is not None:
            from .auction import priority
            if not self.waterfall.finished:
                self.waterfall.finish_round()
            self.h.set_priority(priority(self.waterfall))
            if self.minor_bought is not None and self.acquired and \
                    max(self.acquired, key=lambda a: a[0] or 0) == self.minor_bought:
                # a minor bought in the auction (the rule book's initial stock round, §9)
                # after the last private: the priority goes left of its buyer (A7, §8.1)
                self.h.set_priority(self.next_player(self.minor_bought[1]))
            self.r.ledger.start(self.waterfall.game.players)
            self.waterfall = None
            return
        # privates won by bids are sold after the bought ones, cheapest first (A4, A5)
        late_line = max((a.line or 0 for a in self.r.record.actions), default=0) + 1
        for sym, bids in self.bids.items():
            if self.h.owner_of(sym) is not None or not bids:
                continue
            player, _, action = max(bids, key=lambda b: b[1])
            self.acquire(sym, player, action)
            self.acquired[-1] = (late_line, player)
        self.bids = {}
        if self.acquired:
            _, last = max(self.acquired, key=lambda a: a[0] or 0)
            self.h.set_priority(self.next_player(last))
        self.acquired = []
        self.r.ledger.start(None)

    # ------------------------------------------------------------------

    def process(self, action) -> None:
        r = self.r
        if not self.h.is_player(action.actor):
            return
        if isinstance(action, Bid):
            self.bid(action)
        elif isinstance(action, BuyShares):
            self.buy_shares(action)
        elif isinstance(action, Par):
            self.par(action)
        elif isinstance(action, SellShares):
            self.sell(action)
        elif isinstance(action, BuyCompany) and r.kind == "SR":
            self.trade_private(action)
        elif isinstance(action, Pass):
            if r.kind == "auction":
                self.play_waterfall(action)
            return
        else:
            r.flag("stock.action", f"'{action.verb}' is not an action of the "
                                   f"{'auction' if r.kind == 'auction' else 'stock round'}")

    # ------------------------------------------------------------------
    # privates

    def bid(self, action: Bid) -> None:
        r = self.r
        sym = action.company
        late = sym in [c.sym for c in r.rules.late_companies]
        if late:
            self.buy_late(action)
            return
        if r.kind != "auction":
            r.flag("stock.action", f"{sym} is sold in the auction, not in a stock round")
            return
        if self.play_waterfall(action):
            return
        if self.h.owner_of(sym) is not None:
            r.flag("auction.sold", f"{sym} is already sold")
            return
        bids = self.bids.setdefault(sym, [])
        step = int(r.rules.raw["auction"]["min_increment"])
        if action.price is None:                    # bought at its price
            self.acquire(sym, action.actor, action)
            return
        if bids:
            least = max(b[1] for b in bids) + step
        else:
            value = r.number("private prices", "companies", sym, "value")
            least = None if is_unknown(value) else value + step
        if least is not None and action.price < least:
            r.flag("auction.min_bid", f"bid of {r.money(action.price)} on {sym} is too low: the "
                                      f"minimum bid is {r.money(least)}")
        bids.append((action.actor, action.price, action))

    def play_waterfall(self, action) -> bool:
        """A bid or pass played by the shared waterfall auction (True), or
        counted as skipped when a number it needs is unknown (False: the
        bid's step is still checked here)."""
        from .auction import SKIPPED, play, waterfall
        if self.waterfall is None and self.waterfall_missing is None:
            self.waterfall, self.waterfall_missing = waterfall(self.r)
        if self.waterfall is None:
            self.r.skip(SKIPPED, self.waterfall_missing)
            return False
        if not self.waterfall.finished:
            play(self.waterfall, action)
        else:
            self.r.flag("auction.sold", "every private is sold: the auction is over")
        return True

    def trade_private(self, action: BuyCompany) -> None:
        """S2.1: privates change hands between players in a stock round, at
        any price; not OMER (P7), not a late private (L0), not Hankai
        Tramway from phase 4 (P3)."""
        r = self.r
        sym, buyer = action.company, action.actor
        owner = self.h.owner_of(sym)
        late = sym in [c.sym for c in r.rules.late_companies] or sym == "M5"
        if owner is None or not self.h.is_player(owner):
            r.flag("private.owner", f"{sym} is not held by a player")
            return
        if action.seller is not None and action.seller != owner:
            r.flag("private.seller", f"{sym} is held by {owner}, not {action.seller}")
            return
        if self.h.private_closed(sym) and not late:
            r.flag("private.closed", f"{sym} is closed")
            return
        if sym == "OMER" or late or (sym == "HKT" and r.phase_at_least("4")):
            why = {"OMER": "OMER never changes hands (P7)"}.get(
                sym, "a late private is never sold (L0)" if late else
                "Hankai Tramway may no longer be sold from phase 4 (P3)")
            r.flag("private.no_sale", f"{sym} may not be sold: {why}")
            return
        led = r.ledger
        led.afford(buyer, action.price, "stock.cash", f"{sym} from {owner}")
        led.pay(buyer, owner, action.price, f"{buyer} bought {sym} from {owner} for "
                                            f"{r.money(action.price)} (S2.1)")
        self.h.set_owner(sym, buyer)

    def acquire(self, sym: str, player: str, action) -> None:
        st = self.st
        self.h.set_owner(sym, player)
        self.acquired.append((action.line, player))
        if sym in FREE_SHARE and FREE_SHARE[sym] not in self.r.not_in_play:     # P4, P5
            corp = FREE_SHARE[sym]
            self.h.give(corp, player, [10])
            st.free_share[corp] = player
        if sym == "OMER" and "OMS" not in self.r.not_in_play:   # P7: OMS's president's certificate
            self.h.give("OMS", player, [20])

    def buy_late(self, action: Bid) -> None:
        """L0: a late private, from the bank, once the first 3-train is sold."""
        r = self.r
        sym = action.company
        if not self.h.bought("3"):
            r.flag("kansai.late_private_early",
                   f"{sym} is a late private: it may be bought once the first 3-train is sold "
                   f"(phase {r.phase.name}, no 3-train sold yet)")
        if self.h.owner_of(sym) is not None:
            r.flag("auction.sold", f"{sym} is already owned by {self.h.owner_of(sym)}")
            return
        value = r.number("late private prices", "late_companies", sym, "value")
        if action.price is not None:
            if not is_unknown(value) and action.price != value:
                r.flag("auction.buy_price", f"{sym} costs {r.money(value)}, not "
                                            f"{r.money(action.price)}")
        self.one_certificate(action.actor, 1, sym)
        paid = action.price if action.price is not None else value
        led = r.ledger
        if is_unknown(paid):
            led.mark_unsure(action.actor, "late private prices", ("late_companies", sym, "value"))
        else:                           # taken as paid at the record's price
            led.afford(action.actor, paid, "stock.cash", sym)
            led.pay(action.actor, "bank", paid, f"{action.actor} bought {sym} for "
                                                f"{r.money(paid)} (L0)")
        self.h.set_owner(sym, action.actor)
        if sym == "KRTR":
            r.operating.krtr_starts()

    # ------------------------------------------------------------------
    # shares

    def par(self, action: Par) -> None:
        r, h = self.r, self.h
        corp, player = action.corporation, action.actor
        if h.par(corp) is not None:
            r.flag("stock.par_twice", f"{corp} already has its par value "
                                      f"{r.money(h.par(corp))}")
            return
        spec = r.rules.corp_by_sym.get(corp)
        if spec is None or spec.kind == "minor":
            r.flag("stock.par_price", f"{corp} is a minor: it has no par value")
            return
        if corp == "JR" and action.price != int(spec.extra["par"]):
            r.flag("kansai.jr_par", f"JR's par value is {r.money(spec.extra['par'])}, not "
                                    f"{r.money(action.price)} (J0)")
        elif corp != "JR":
            pars = par_values(r.rules.components)
            if pars is None:
                r.skip("par values", ("market", "rows"))
            elif action.price not in pars:
                r.flag("stock.par_price", f"{r.money(action.price)} is not a par value; the "
                                          f"par cells are {', '.join(map(str, pars))}")
        if corp in ("KNR", "OMS") and not (corp == "KNR" and r.knr_normal):
            # K6, C5: set by M2's / OMER's owner
            owner_of = "M2" if corp == "KNR" else "OMER"
            owner = h.minor_owner(owner_of) if corp == "KNR" else \
                h.owner_of(owner_of)
            if owner != player:
                r.flag("kansai.par_setter", f"{corp}'s par value is set by the owner of "
                                            f"{owner_of} ({owner or 'nobody yet'}), not by "
                                            f"{player}")
            h.corporations[corp].par = par_cell(action.price)
            r.ledger.set_par(corp, action.price)
            return
        self.one_certificate(player, 1, f"{corp}'s president's certificate")
        led = r.ledger
        led.afford(player, 2 * action.price, "stock.cash",
                   f"{corp}'s president's certificate (2 x par {r.money(action.price)})")
        h.corporations[corp].par = par_cell(action.price)
        led.set_par(corp, action.price)
        h.give(corp, player, [20])
        led.pay(player, "bank", 2 * action.price, f"{player} bought {corp}'s president's "
                                                  f"certificate for {r.money(2 * action.price)}")
        led.check_limits(player, corp)
        self.floats(corp)

    def buy_shares(self, action: BuyShares) -> None:
        r, h = self.r, self.h
        corp, player = action.corporation, action.actor
        spec = r.rules.corp_by_sym.get(corp)
        if spec is None:
            r.flag("stock.no_share", f"{corp} is not a company")
            return
        if spec.kind == "minor":                     # N0: a minor at its printed price
            where = r.number("where the minors are sold", "rulebook", "minors_sold_in")
            round_name = "auction" if r.kind == "auction" else "stock_round"
            if not is_unknown(where) and where != round_name:
                r.flag("kansai.minor_sale_round",
                       f"the minors are sold in the {where.replace('_', ' ')} "
                       f"(rulebook.minors_sold_in), not in the {round_name.replace('_', ' ')}")
            if h.minor_owner(corp) is not None:
                r.flag("stock.no_share", f"{corp} is owned by {h.minor_owner(corp)}")
                return
            self.one_certificate(player, 1, corp)
            led = r.ledger
            price, capital = int(spec.extra["price"]), int(spec.extra["capital"])
            led.afford(player, price, "stock.cash", f"{corp} ({spec.name})")
            h.buy_minor(corp, player)
            # N0-N5: the printed price to the bank, the printed capital from the bank
            led.pay(player, "bank", price, f"{player} bought {corp} for {r.money(price)}")
            led.pay("bank", corp, capital, f"{corp} starts with its capital {r.money(capital)}")
            led.check_limits(player, None)
            if r.kind == "auction":
                self.acquired.append((action.line, player))
                self.minor_bought = (action.line, player)
            return
        if r.kind != "SR":
            r.flag("stock.action", f"shares of {corp} are bought in a stock round")
            return
        if (player, corp) in self.sold_this_round:
            r.flag("stock.rebuy", f"{player} sold {corp} this round and may not buy it again "
                                  f"(SB6)")
        if h.par(corp) is None:
            r.flag("stock.not_parred", f"{corp} has no par value yet: its first certificate "
                                       f"is bought with 'par'")
            return
        count = action.count or 1
        self.one_certificate(player, count, corp)
        led = r.ledger
        each = led.price(corp) if action.source == "pool" else h.par(corp)
        if each is not None:
            led.afford(player, each * count, "stock.cash",
                       f"{'a' if count == 1 else count} {corp} share{'s' if count > 1 else ''} "
                       f"{'from the pool' if action.source == 'pool' else 'at par'}")
        if action.source == "pool":
            if h.pool(corp) < 10 * count:
                r.flag("stock.no_share", f"the pool holds {h.pool(corp)}% of {corp}")
                return
        elif corp == "KNR" and not r.knr_normal:     # K7: only 4 KNR shares are for sale
            for_sale = int(r.rules.knr["for_sale_shares"])
            bought = self.knr_bought()
            if bought + count > for_sale:
                r.flag("kansai.knr_reserved_share",
                       f"only {for_sale} KNR shares are for sale and {bought} have been bought; "
                       f"the others are reserved for the minors' conversions (K7)")
                return
        if not h.give(corp, player, [10] * count, source=action.source == "pool" and "pool"
                      or "ipo"):
            r.flag("stock.no_share", f"the IPO holds {h.corporations[corp].percent_of('ipo')}% "
                                     f"of {corp}: no {10 * count}% to buy")
            return
        if each is not None:
            led.pay(player, "bank", each * count, f"{player} bought {10 * count}% of {corp} for "
                                                  f"{r.money(each * count)}")
            if action.source == "pool":
                led.price_paid(player, corp)
        led.check_limits(player, corp)
        self.floats(corp)

    def one_certificate(self, player: str, count: int, what: str) -> None:
        """S2.1 ("kupno 1 certyfikatu"), §8.2: a stock round's turn buys one certificate
        (a president's certificate, a share, a minor or a late private); a second one is
        flagged and taken as bought, as the record says."""
        r = self.r
        if r.kind != "SR" or player != r.turn_actor:
            return
        bought = r.turn.setdefault("certificates", [])
        if bought or count > 1:
            first = bought[0] if bought else what
            r.flag("stock.one_buy",
                   f"{player} already bought a certificate this turn ({first}); a turn buys "
                   f"one certificate (S2.1)" if bought else
                   f"{player} buys {count} certificates of {what} in one turn; a turn buys one "
                   f"certificate (S2.1)")
        bought.append(what)

    def floats(self, corp: str) -> None:
        """SB3: 50% sold, the company floats and receives 10 x par from the
        bank at once (not KNR: K8)."""
        r, h = self.r, self.h
        if h.sold_percent(corp) < int(r.rules.raw["stock"]["float_percent"]):
            return
        h.corporations[corp].floated = True
        led = r.ledger
        par = h.par(corp)
        if (corp != "KNR" or r.knr_normal) and corp not in led.capitalised and par is not None:
            led.capitalised.add(corp)
            times = int(r.rules.raw["stock"]["capital_par_times"])
            led.pay("bank", corp, times * par,
                    f"{corp} floated: {times} x par {r.money(par)} to its treasury (SB3)")

    def new_president(self, corp: str, player: str, keeps: int):
        """The player who takes ``corp``'s president's certificate when ``player`` sells down
        to ``keeps`` percent: one holding more (and two shares to give in exchange); of
        several, the most, and at equal holdings the nearest clockwise (§6.5); None: nobody."""
        h = self.h
        players = h.names
        at = players.index(player)
        order = [players[(at + i) % len(players)] for i in range(1, len(players))]
        takers = [p for p in order if h.percent(corp, p) > keeps
                  and h.percents(corp, p).count(10) >= 2]
        if not takers:
            return None
        return max(takers, key=lambda p: (h.percent(corp, p), -order.index(p)))

    def knr_bought(self) -> int:
        """KNR shares bought from the IPO so far (not those the conversions gave, which
        were the bank's: :data:`~.holdings.RESERVED`)."""
        knr = self.h.corporations["KNR"]
        out = [c for c in knr.certs if not c.president and c.owner not in ("ipo", RESERVED)]
        return len(out) - self.r.operating.knr_shares_given

    def sales_at_once(self, player: str) -> None:
        """S2.1 against §8.5: the summary lets a turn sell, buy one certificate and sell again;
        the rule book's "all sales must be done at once" (``rulebook.sales_in_turn:
        all_at_once``) refuses a sale after a purchase that a sale came before."""
        r = self.r
        if r.kind != "SR" or player != r.turn_actor:
            return
        turn = r.turn
        if not turn.get("certificates"):
            turn["sold_before_buy"] = True
        elif turn.get("sold_before_buy") and \
                r.rules.number("rulebook", "sales_in_turn") == "all_at_once":
            r.flag("stock.sell_buy_order",
                   f"{player} sold, bought and sells again in one turn; all sales are made at "
                   f"once, before or after the purchase (rule book §8.5, "
                   f"rulebook.sales_in_turn: all_at_once)")

    def sell(self, action: SellShares) -> None:
        r, st, h = self.r, self.st, self.h
        player = action.actor
        self.sales_at_once(player)
        for sale in action.sales:
            corp = sale.corporation
            count = sale.count or 1
            held = h.percents(corp, player)
            free_holder = st.free_share.get(corp)
            if free_holder == player and not h.president_bought(corp) \
                    and sum(held) <= 10 * count:
                r.flag("kansai.free_share_sale",
                       f"{player}'s {corp} share is the free one of "
                       f"{'Hanshin' if corp == 'HER' else 'Keishin'} Tramway: it may be sold only "
                       f"once {corp}'s president's certificate is bought (C1, C4)")
            elif r.sr_number <= 1 and r.kind == "SR":
                r.flag("stock.sell_first_round", "no shares may be sold in the first stock "
                                                 "round (SS1)")
            elif not h.corporations[corp].operated:
                r.flag("stock.sell_before_operating", f"{corp} has not operated yet: its shares "
                                                      f"may not be sold (SS1)")
            tens = [c for c in held if c == 10]
            taker = None
            if len(tens) < count:
                if 20 not in held or sum(held) < 10 * count:
                    r.flag("stock.sell_not_owned", f"{player} holds {sum(held)}% of {corp}, not "
                                                   f"{10 * count}% to sell besides the "
                                                   f"president's certificate (SS3)")
                    continue
                # SS3, §8.3.2, §6.5: the president's certificate is never sold; it changes
                # hands by exchange with a player who would then hold more
                keeps = sum(held) - 10 * count
                taker = self.new_president(corp, player, keeps)
                if taker is None:
                    r.flag("stock.president_cert",
                           f"{player} is president of {corp} with {sum(held)}%; selling "
                           f"{10 * count}% would leave {keeps}% and no other player would hold "
                           f"more to take the president's certificate in exchange (SS3)")
                    continue
            pool = r.rules.raw["stock"]["pool_limit"]
            if h.pool(corp) + 10 * count > pool:
                r.flag("stock.pool_limit", f"selling {10 * count}% of {corp} would put "
                                           f"{h.pool(corp) + 10 * count}% in the pool, over the "
                                           f"{pool}% limit")
                continue
            if taker is not None:       # two of the taker's shares for the certificate
                h.exchange(corp, player, taker)
            h.take_back(corp, player, count)
            h.update_president(h.corporations[corp])
            led = r.ledger
            each = led.price(corp)
            if each is not None:         # SS4: at the current price, then a row down per 10%
                led.pay("bank", player, each * count, f"{player} sold {10 * count}% of {corp} "
                                                      f"for {r.money(each * count)}")
                led.price_paid(player, corp)
                led.move(corp, "down", count)
            self.sold_this_round.add((player, corp))
            if free_holder == player:
                st.free_share.pop(corp, None)
