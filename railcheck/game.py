"""One game: the state plus the mechanics every round shares.

Rounds (``railcheck.rounds``) decide *whether* an action is legal; the
methods here *do* things: move money, certificates, trains and share prices,
change phases, close privates, end the game.  Money is always an int.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from .findings import ERROR, Finding, FindingList, RuleViolation, cause_of, involved
from .following import Following
from .market import Cell, Market, move_marker
from .ruleset import Ruleset
from .state import Bank, Cert, Company, Corporation, Player, Train
from .unsure import Unsure, price_key

UNLIMITED_TRAINS = 30   # copies made of a train type with no count


def money(rules: Ruleset, amount: int) -> str:
    return f"{rules.currency}{amount}" if amount >= 0 else f"-{rules.currency}{-amount}"


def ranked(rows: list[dict]) -> list[dict]:
    """The standings' rows, the highest net worth first, each with its rank
    (equal net worths share a rank)."""
    ordered = sorted(rows, key=lambda r: -r["net_worth"])
    rank, last = 0, None
    for i, r in enumerate(ordered):
        if r["net_worth"] != last:
            rank, last = i + 1, r["net_worth"]
        r["rank"] = rank
    return ordered


class Game:
    def __init__(self, rules: Ruleset, player_names: list[str], *, check_board: bool = True,
                 tags: Optional[dict] = None):
        self.rules = rules
        #: the record's header tags (an export's seed: a title may draw its set-up from it)
        self.tags = dict(tags or {})
        n = len(player_names)
        #: a title whose numbers come from a components file the user fills in (1890) may
        #: leave the starting cash, the bank, the certificate limit or the market unknown
        #: (None, or no entry): the game is built all the same, and tracks no money
        #: (``Unsure.off``: no amount is sure, no over-cash check is made)
        may_be_unknown = rules.title_class.uses_components
        if n not in rules.starting_cash and not may_be_unknown:
            raise RuleViolation("setup.players",
                                f"{rules.title} is for {rules.min_players} to {rules.max_players} "
                                f"players; this game has {n}")
        start = rules.starting_cash.get(n)
        self.bank = Bank(rules.bank if rules.bank is not None else 0)
        #: the amounts not known for sure and the checks skipped for them (a title whose
        #: numbers may be unknown: docs/1890.md); with every number known, nothing
        self.unsure = Unsure()
        for keys, value in ((("starting_cash",), start), (("bank",), rules.bank),
                            (("market", "rows"), rules.market_rows)):
            if value is None:
                self.unsure.turn_off(keys)
        self.players = [Player(name, i) for i, name in enumerate(player_names)]
        self.player_by_name = {p.name: p for p in self.players}
        if start is not None and self.unsure.tracked:
            for p in self.players:
                self.transfer(self.bank, p, start)
        #: None: not known (a components file that leaves it unknown)
        self.cert_limit: Optional[int] = rules.cert_limit.get(n)
        self.market = Market(rules.market_rows or [], rules.market_zones)
        self.corporations: dict[str, Corporation] = {}
        for spec in rules.corporations:
            corp = Corporation(spec)
            corp.certs = [Cert(corp, i, pct, i == 0, "ipo") for i, pct in enumerate(spec.shares)]
            self.corporations[spec.sym] = corp
        #: the privates in this game (a private may need more players than it has)
        in_game = [spec for spec in rules.companies
                   if spec.min_players is None or n >= spec.min_players]
        self.companies: dict[str, Company] = {
            spec.sym: Company(spec, price=spec.value) for spec in in_game}
        self.trains: list[Train] = []
        for tspec in rules.trains:
            count = tspec.count if tspec.count is not None else UNLIMITED_TRAINS
            for i in range(count):
                self.trains.append(Train(tspec.name, tspec, f"{tspec.name}-{i}"))
        self.train_by_id = {t.id: t for t in self.trains}
        #: the trains before this index have left the depot (none comes back):
        #: ``available_depot_trains`` starts there (kept with the state)
        self.depot_start = 0
        #: a later train type may be on sale beside the lowest (``available_on``)
        self.later_types_on_sale = any(s.available_on for s in rules.trains)
        self.phase_index = 0
        self.findings: list[Finding] = FindingList()
        self.sr_number = 0
        self.or_number = 0           # within the current set
        self.or_count = 1            # ORs in the current set
        self.finished = False
        self.end_reason: Optional[str] = None
        self.end_pending: Optional[str] = None   # e.g. "bank" -> finish the OR set
        self.bank_broken = False
        #: the bank breaks when its own cash pays out below 0 (``bank_counts: bank``);
        #: with ``players_cash`` (1860) it is unlimited and the title tests the
        #: players' cash instead (Title1860.check_bank_break)
        self.bank_cash_breaks = rules.settings.bank_counts == "bank"
        #: hexes that received a tile (terrain is paid on the first lay only)
        self.laid_hexes: set = set()
        #: hex -> (line, tile, rotation) of a lay whose rotation was guessed
        #: among several (later findings about the hex point back to it)
        self.guessed_rotations: dict = {}
        self.current_action: Any = None
        #: the record as the replay walks it, and the readings of it the
        #: rules consult (``railcheck.following``; set by the replay: a game
        #: with no record finds nothing in it)
        self.following = Following()
        self.refuse_flags = False
        #: players flagged over the certificate limit, with the count flagged
        #: (said again only when the holding grows past it)
        self.over_limit_flagged: dict[str, int] = {}
        # (a game without players is refused by a title that knows its player counts; 1890's
        # components file may not say: its replay flags the count)
        self.priority: Player = self.players[0] if self.players else None  # type: ignore[assignment]
        #: the order players take turns in (seating order unless a title re-deals it)
        self.seat_order: list[Player] = list(self.players)
        #: (player, corporation) whose par price must be set before anything else
        self.pending_par: Optional[tuple] = None
        self.round: Any = None
        self.board: Any = None
        if check_board and rules.board:
            from .board import Board  # lazy: the board is the heaviest module
            self.board = Board(rules.board,
                               [dict(sym=c.sym, home=c.home, home_city=c.home_city,
                                     tokens=c.tokens, **c.extra) for c in rules.corporations],
                               [dict(sym=c.sym, value=c.value, revenue=c.revenue,
                                     blocks=c.blocks, special=c.special) for c in in_game])
            self.board.unnamed_home_closes_hex = rules.operating.unnamed_home_closes_hex
        if rules.setup.home_stations_at_start:
            self.place_all_home_stations()
        if rules.setup.deal_companies:
            self.deal_companies()
        self.title = rules.title_class(self)
        self.title.setup()

    def deal_companies(self):
        """The privates dealt instead of auctioned (``setup.deal_companies``,
        1889's beginner game): one to each player in seating order, each
        paying its value to the bank.  The order: the site's draw from the
        game's seed (``setup.rand``: one draw per private in list order,
        smallest first), else the header's ``privates:`` list, else the
        list's order."""
        syms = list(self.companies)
        seed = self.tags.get("seed")
        rand = self.rules.setup.get("rand") or {}
        named = [x.strip() for x in str(self.tags.get("privates") or "").replace(";", ",")
                 .split(",") if x.strip() in self.companies]
        if seed is not None and str(seed).lstrip("-").isdigit() and rand:
            x = int(seed) % rand["m"]
            keys = {}
            for sym in syms:
                x = (rand["a"] * x + rand["c"]) % rand["m"]
                keys[sym] = x
            syms.sort(key=keys.__getitem__)
        elif named:
            syms = named + [s for s in syms if s not in named]
        for player, sym in zip(self.players, syms):
            company = self.companies[sym]
            self.sell_private_from_bank(company, player, company.value)

    def place_all_home_stations(self):
        """Titles whose companies put their home station on the map at the
        start of the game (closed to other companies' runs from then on)."""
        for corp in self.corporations.values():
            if not corp.spec.home:
                continue
            if self.board is not None:
                self.board.place_home_token(corp.sym)
            corp.home_placed = True
            corp.tokens_placed = max(corp.tokens_placed, 1)

    # ------------------------------------------------------------------
    # names and lookups

    def money(self, amount: Optional[int]) -> str:
        """An amount as the title writes it; ``unknown`` for one not known
        (:meth:`known_cash`)."""
        return "unknown" if amount is None else money(self.rules, amount)

    @property
    def phase(self):
        return self.rules.phases[self.phase_index]

    def entity(self, name: str):
        return (self.player_by_name.get(name) or self.corporations.get(name)
                or self.companies.get(name))

    def private_actor(self, name: str) -> Optional[Company]:
        """The private an action's actor names, or None.  A private may share
        its symbol with a corporation (1889's TR); such a private has no power
        to use (the ruleset refuses one that has), so an actor of that name is
        the corporation."""
        if name in self.corporations:
            return None
        return self.companies.get(name)

    def next_player(self, player: Player) -> Player:
        order = self.seat_order
        return order[(order.index(player) + 1) % len(order)]

    def holder_name(self, holder) -> str:
        if isinstance(holder, str):
            return {"ipo": "the IPO", "pool": "the bank pool", "depot": "the depot"}.get(holder, holder)
        return holder.name if hasattr(holder, "name") else str(holder)

    # ------------------------------------------------------------------
    # findings

    def with_guesses(self, message: str) -> str:
        """A finding's message, with a pointer to a guessed tile rotation on
        a hex it names."""
        for hx, (line, tile, rotation) in self.guessed_rotations.items():
            if re.search(rf"\b{re.escape(hx)}\b", message):
                where = f" at line {line}" if line else ""
                message += (f" (the rotation of tile {tile} on {hx} was not written{where}; "
                            f"rotation {rotation} was taken)")
        return message

    def clean_attempt(self, attempt):
        """Run ``attempt()`` as an attempt that must be clean: any finding
        it would make refuses it instead (callers flag before they change
        anything, so a refused attempt changed nothing).  (True, what it
        returned), or (False, None) when refused."""
        self.refuse_flags = True
        try:
            return True, attempt()
        except RuleViolation:
            return False, None
        finally:
            self.refuse_flags = False

    def flag(self, rule: str, message: str, severity: str = ERROR, action=None):
        """Record a finding about the current action (the action goes on).
        While :attr:`refuse_flags` is set (an attempt that must be clean),
        a finding refuses the action instead: callers flag before they
        change anything."""
        if self.refuse_flags and severity == ERROR:
            raise RuleViolation(rule, message)
        if self.guessed_rotations and severity == ERROR:
            message = self.with_guesses(message)
        action = action if action is not None else self.current_action
        f = Finding(severity=severity, rule=rule, message=message)
        if len(self.findings) >= getattr(self.findings, "limit", len(self.findings) + 1):
            self.findings.append(f)         # past the limit: counted only
            return f
        if action is not None:
            f.line, f.column, f.action_id, f.text = (action.line, action.column,
                                                     action.action_id, action.text)
        f.involves = involved(action, self)
        if severity == ERROR:
            # a consequence of an earlier error when it involves what that one touched
            f.follows = cause_of(f, self.findings)
            f.consequential = f.follows is not None
        self.findings.append(f)
        return f

    # ------------------------------------------------------------------
    # money

    def transfer(self, payer, payee, amount: int):
        if amount == 0:
            return
        payer.cash -= amount
        payee.cash += amount
        if payer is self.bank and self.bank_breaks() and not self.bank_broken:
            self.bank_broken = True
            self.trigger_end("bank")

    def bank_breaks(self) -> bool:
        """The bank has broken, after a payment from it: its cash below 0 (where the bank
        counts: ``bank_counts: bank``; a title may say otherwise)."""
        return self.bank.cash < 0 and self.bank_cash_breaks

    def pay_from_bank(self, payee, amount: int):
        self.transfer(self.bank, payee, amount)

    @staticmethod
    def who(entity) -> str:
        """The name an entity's amounts are known by (``railcheck/unsure.py``)."""
        if isinstance(entity, str):
            return entity
        if isinstance(entity, Player):
            return entity.name      # (an export's player may be named "")
        return getattr(entity, "name", None) or entity.sym

    def pay_unknown(self, payer, payee, kind: str, keys: tuple, reason: str = "") -> None:
        """A payment whose amount is not known (a number the title's data
        leaves unknown): nothing moves, and both sides' cash (the bank's too)
        is not sure from now on; the check of ``kind`` is counted as skipped."""
        self.unsure.mark(self.who(payee), kind, keys, reason)
        self.unsure.unsure.setdefault(self.who(payer), (kind, keys, reason))

    def sure(self, entity) -> bool:
        """Whether ``entity``'s cash is known for sure."""
        return self.unsure.sure(self.who(entity))

    @property
    def money_tracked(self) -> bool:
        """Money is tracked (a title whose numbers may be unknown: not while
        ``Unsure.off``; 1890's not before its auction is over)."""
        return self.unsure.tracked

    def known_cash(self, entity) -> Optional[int]:
        """``entity``'s cash (a player's, a company's, the bank's) as far as it is
        known: None while money is not tracked, while the cash is not sure, or
        known only as an upper bound (``Unsure.at_most``).  What the analyser
        reads; with every number known, the cash."""
        who = self.who(entity)
        if not self.money_tracked or not self.unsure.sure(who) or who in self.unsure.at_most:
            return None
        return entity.cash

    def trains_listed(self, corp: Corporation) -> list[str]:
        """The names of ``corp``'s trains as the reports list them: in the order it
        got them (1890 lists them by name)."""
        return [t.name for t in corp.trains]

    def known_price(self, corp: Corporation) -> Optional[int]:
        """``corp``'s share price as far as it is known (None: no price, money
        not tracked, or the price not sure)."""
        if corp.price is None or not self.money_tracked or \
                not self.unsure.sure(price_key(corp.sym)):
            return None
        return corp.price.price

    def short_of(self, entity, amount: int, *, look: bool = False) -> bool:
        """Whether ``amount`` surely exceeds ``entity``'s cash: the test of
        every over-cash finding, and of what a player can afford (``look``:
        the stock round's "may he still do something", which counts no
        skipped check).  Never while that cash is not sure (a check is then
        counted as skipped), nor while money is not tracked."""
        return self.unsure.over_cash(self.who(entity), entity.cash, amount, look=look)

    # ------------------------------------------------------------------
    # certificates and presidency

    def num_certs(self, player: Player) -> int:
        """Certificates counting towards the limit: privates (ruleset
        ``cert_limit_includes_privates``), and the certificates of the
        corporations the title counts now (``Title.counts_for_cert_limit``: not
        while the price is in a zone outside the limit)."""
        n = sum(1 for c in player.companies if not c.closed) \
            if self.rules.settings.cert_limit_includes_privates else 0
        counts = self.title.counts_for_cert_limit
        for corp in self.corporations.values():
            if not counts(corp):
                continue
            for cert in corp.certs:
                if cert.owner is player:
                    n += 1
        return n

    def cert_limit_exceeded(self, player: Player, more: int = 1,
                            corp: Optional[Corporation] = None) -> Optional[int]:
        """The certificate limit, tested here only: the certificates ``player``
        holds (:meth:`num_certs`) when ``more`` more would exceed ``cert_limit``,
        else None.  None too while the limit does not hold (``Title.cert_limit_applies``)
        and when the ``more`` are ``corp``'s and its certificates do not count now.
        ``more=0``: whether the player is over the limit as things stand.  None while the
        limit is not known (a components file that leaves it unknown)."""
        if not isinstance(self.cert_limit, int) or not self.title.cert_limit_applies():
            return None
        if more and corp is not None and not self.title.counts_for_cert_limit(corp):
            return None
        held = self.num_certs(player)
        return held if held + more > self.cert_limit else None

    def pool_limit(self, corp: Corporation) -> int:
        """Percent of ``corp`` the bank pool may hold: ``stock.minor_pool_limit``
        for a minor (when set), else ``stock.pool_limit``."""
        stock = self.rules.stock
        if corp.kind == "minor" and stock.minor_pool_limit is not None:
            return int(stock.minor_pool_limit)
        return int(stock.pool_limit)

    def holding_limit(self, corp: Corporation) -> int:
        """Percent of ``corp`` one player may hold: its own
        ``max_ownership_percent``, else ``stock.holding_limit``."""
        own = corp.spec.max_ownership_percent
        return int(own if own is not None else self.rules.stock.holding_limit)

    def holding_limit_exceeded(self, holder, corp: Corporation,
                               percent: int) -> Optional[tuple[int, int]]:
        """The holding limit, tested here only: (percent ``holder`` holds of
        ``corp``, the limit) when ``percent`` more would exceed the limit
        (:meth:`holding_limit`), else None; None too while ``corp``'s price is in
        a zone without the limit (``unlimited``)."""
        if corp.price is not None and corp.price.has("unlimited"):
            return None
        have = corp.percent_of(holder)
        limit = self.holding_limit(corp)
        return (have, limit) if have + percent > limit else None

    def update_president(self, corp: Corporation, seller: Optional[Player] = None):
        """Give the presidency to the player with most shares; the current
        president keeps it on a tie; among others the first in seating order
        after the current president (or seller) wins."""
        pres = corp.president
        if pres is None and not corp.ipoed:
            # shares held before the company is started (1830: MH exchanged for a NYC
            # share before NYC's par) make nobody its president: its par does
            return
        holdings = {p: corp.percent_of(p) for p in self.players}
        best = max(holdings.values()) if holdings else 0
        if pres is not None and holdings.get(pres, 0) == best:
            return
        if best == 0:
            return
        start = (pres or seller or self.players[0]).seat
        n = len(self.players)
        order = [self.players[(start + i) % n] for i in range(1, n + 1)]
        new = next(p for p in order if holdings[p] == best)
        if pres is not None and new is not pres:
            self.swap_president_cert(corp, pres, new)
        elif pres is None:
            pcert = corp.certs[0]
            if pcert.owner is not new:
                # the president's certificate is held by nobody yet (cannot happen in play)
                pcert.owner = new
        corp.president = new

    def swap_president_cert(self, corp: Corporation, old: Player, new: Player):
        pcert = next(c for c in corp.certs if c.president)
        if pcert.owner is not old:
            return
        need = pcert.percent
        given: list = []
        # the highest numbers first, or (as 18xx.games) the shares held longest
        key = (lambda c: c.got) if self.title.swap_oldest_first else (lambda c: -c.index)
        for cert in sorted(corp.certs_of(new), key=key):
            if cert.president:
                continue
            if sum(c.percent for c in given) >= need:
                break
            given.append(cert)
        for cert in given:
            cert.owner = old
        pcert.owner = new

    # ------------------------------------------------------------------
    # share prices

    def place_price(self, corp: Corporation, cell: Cell):
        move_marker(self.market, corp, corp.price, cell)
        corp.price = cell

    def move_price(self, corp: Corporation, direction: str, steps: int = 1):
        if corp.price is None:
            return
        cell = corp.price
        for _ in range(steps):
            cell = getattr(self.market, direction)(cell)
        if cell is not corp.price:
            self.place_price(corp, cell)

    def operating_order(self) -> list[Corporation]:
        """The companies that operate in an operating round, in order: those the
        title says operate now (``Title.operates``: floated and not closed), by
        the title's order (``Title.operating_order_key``: the share price,
        :meth:`price_order_key`)."""
        title = self.title
        operating = [c for c in self.corporations.values() if title.operates(c)]
        return sorted(operating, key=title.operating_order_key)

    def price_order_key(self, corp: Corporation):
        cell: Any = corp.price
        return self.market.order_key(cell, corp)

    # ------------------------------------------------------------------
    # floating

    def check_float(self, corp: Corporation):
        if corp.floated or corp.par is None:
            return
        sold = 100 - corp.percent_of("ipo")
        if sold >= corp.spec.float_percent:
            corp.floated = True
            self.pay_from_bank(corp, self.capital_on_float(corp))

    def capital_on_float(self, corp: Corporation) -> int:
        """What the treasury receives when the company floats (ruleset
        ``stock.capitalization``): ``full`` is par for every share of the
        company (10 x par for 10-share companies, 5 x par for 5-share ones);
        ``incremental`` nothing (the IPO's sales were paid to the company as
        they were made, see :meth:`ipo_payee`)."""
        mode = self.rules.stock.capitalization
        if mode == "full":
            return corp.par.price * (100 // corp.share_percent)  # type: ignore[union-attr]
        return 0

    def ipo_payee(self, corp: Corporation):
        """Who is paid for a share bought from the IPO: the bank (full
        capitalisation) or the company (incremental)."""
        if self.rules.stock.capitalization == "incremental":
            return corp
        return self.bank

    # ------------------------------------------------------------------
    # trains and phases

    def depot_trains(self) -> list[Train]:
        return [t for t in self.trains if t.owner == "depot"]

    def available_depot_trains(self) -> list[Train]:
        """What the depot sells now: the trains of the lowest type not sold
        out, plus types whose availability phase has begun."""
        trains = self.trains
        start = self.depot_start
        while start < len(trains) and trains[start].owner != "depot":
            start += 1
        self.depot_start = start
        if not self.later_types_on_sale:
            return [trains[start]] if start < len(trains) else []
        first = None
        phases_seen = None
        # one of each type is offered at a time
        seen: set = set()
        offered = []
        for i in range(start, len(trains)):
            t = trains[i]
            if t.owner != "depot":
                continue
            name = t.name
            if first is None:
                first = name
            if name in seen:
                continue
            if name != first:
                on = t.spec.available_on
                if not on:
                    continue
                if phases_seen is None:
                    phases_seen = {p.name for p in self.rules.phases[: self.phase_index + 1]}
                if on not in phases_seen:
                    continue
            seen.add(name)
            offered.append(t)
        return offered

    def pool_trains(self) -> list[Train]:
        return [t for t in self.trains if t.owner == "pool"]

    def train_limit(self, corp: Corporation) -> int:
        """The phase's train limit for the company's kind (a phase may give
        one number for all, or one per kind: ``{major: 4, minor: 2}``)."""
        limit = self.phase.train_limit
        if isinstance(limit, dict):
            return int(limit.get(corp.kind, limit.get("major", 0)) or 0)
        return limit

    def on_train_bought(self, train: Train):
        """A train left the depot for the first time: phase changes, rusting, events."""
        for i, ph in enumerate(self.rules.phases):
            if i > self.phase_index and ph.on == train.name:
                self.change_phase(i)
        for event in train.spec.events:
            self.run_event(event, train)

    #: what a train's or a phase's ``events`` may name: name -> Game method
    EVENTS = {"close_companies": "close_all_companies"}

    def change_phase(self, index: int):
        self.phase_index = index
        name = self.phase.name
        for event in self.phase.extra["events"]:
            self.run_event(event)
        for t in self.trains:
            if t.spec.rusts_on in (name, self.phase.on) and t.owner not in ("depot", None):
                owner = t.owner
                if isinstance(owner, Corporation):
                    owner.trains.remove(t)
                t.owner = None
            if t.spec.obsolete_on in (name, self.phase.on):
                t.obsolete = True


    def run_event(self, event: str, train: Optional[Train] = None):
        """Carry out an event a train's first purchase or a phase brings; a
        title adds its own by extending ``EVENTS`` in a subclass or its
        ``Title.on_event`` hook."""
        handler = self.EVENTS.get(event)
        if handler is not None:
            getattr(self, handler)(train)
        else:
            self.title.on_event(event, train)

    def close_all_companies(self, train=None):
        for company in self.companies.values():
            if (company.spec.special or {}).get("open_while_player_owned") \
                    and isinstance(company.owner, Player):
                continue        # 1889's UTF stays open with a player
            self.close_company(company)

    def phase_reached(self, name: str) -> bool:
        """The game is in phase ``name`` or a later one."""
        names = [p.name for p in self.rules.phases]
        return name in names and self.phase_index >= names.index(name)

    def private_income(self, company: Company) -> int:
        """What ``company`` pays its owner at the start of an OR: its revenue,
        or another from a phase on while a player owns it
        (``player_revenue_from_phase``, 1889's UTF)."""
        change = (company.spec.special or {}).get("player_revenue_from_phase")
        if change and isinstance(company.owner, Player) and self.phase_reached(change["phase"]):
            return change["revenue"]
        return company.spec.revenue

    def auction_companies(self) -> list:
        """The privates the initial auction sells (``WaterfallAuction``): every
        private of the game; a title's game may sell fewer (1890's: not its late
        privates, nor the company a minor's privatisation makes)."""
        return list(self.companies.values())

    def pay_private_income(self):
        """Every owned, open private pays its income from the bank to its
        owner (at the start of each OR; 1830's auction does it too when
        everybody passes)."""
        for company in self.companies.values():
            if company.owner is not None and not company.closed:
                self.pay_from_bank(company.owner, self.private_income(company))

    def sell_private_from_bank(self, company: Company, player: Player, price: int):
        """A player buys a private in the initial auction: pays the bank, and
        receives the share the private carries (1830's CA: a PRR share; BO:
        the B&O president's certificate, whose par must be set next)."""
        self.transfer(player, self.bank, price)
        company.owner = player
        player.companies.append(company)
        free = (company.spec.special or {}).get("free_share")
        if not free:
            return
        corp = self.corporations[free["corporation"]]
        if free.get("president"):
            corp.certs[0].owner = player
            corp.president = player
            self.pending_par = (player, corp)
        else:
            cert = next(c for c in corp.certs if c.owner == "ipo" and not c.president
                        and c.percent == free.get("percent", corp.share_percent))
            cert.owner = player

    def sell_private(self, company: Company, buyer, price: int):
        """``company`` changes hands from its owner to ``buyer`` (a player or a
        corporation), who pays ``price`` to the owner."""
        owner: Any = company.owner
        self.transfer(buyer, owner, price)
        owner.companies.remove(company)
        company.owner = buyer
        buyer.companies.append(company)

    def close_company(self, company: Company):
        if company.closed:
            return
        owner = company.owner
        if isinstance(owner, (Player, Corporation)) and company in owner.companies:
            owner.companies.remove(company)
        company.closed = True
        company.owner = None
        if self.board is not None:
            self.board.unblock(company.sym)

    def give_train(self, train: Train, corp: Corporation):
        prev = train.owner
        if isinstance(prev, Corporation):
            prev.trains.remove(train)
        train.owner = corp
        corp.trains.append(train)
        if prev == "depot":
            self.on_train_bought(train)

    def excess_trains(self) -> dict:
        """Companies over their train limit: corporation -> how many too many
        (asked before every operating-round action: the common case, nobody
        over the limit, is answered from the train counts alone)."""
        out = {}
        phase_limit = self.phase.train_limit
        # no company's limit is below ``floor`` (limits by kind: the lowest,
        # or 0 when a kind may fall back to none)
        floor = phase_limit if isinstance(phase_limit, int) else \
            (min(map(int, phase_limit.values())) if "major" in phase_limit else 0)
        for corp in self.corporations.values():
            n = len(corp.trains)
            if n == 0 or n <= floor or corp.closed:
                continue
            limit = phase_limit if isinstance(phase_limit, int) else self.train_limit(corp)
            if n <= limit:
                continue
            if not self.rules.operating.obsolete_trains_count:
                n = sum(1 for t in corp.trains if not t.obsolete)
            if n > limit:
                out[corp] = n - limit
        return out

    # ------------------------------------------------------------------
    # the end

    def trigger_end(self, reason: str):
        timing = self.rules.end.get(reason)
        if timing is None:
            return
        if timing == "immediate":
            self.finish(reason)
        elif self.end_pending is None:
            self.end_pending = reason

    def finish(self, reason: str):
        if not self.finished:
            self.finished = True
            self.end_reason = reason

    # ------------------------------------------------------------------
    # scoring

    def share_value(self, player: Player) -> int:
        total = 0
        for corp in self.corporations.values():
            if corp.price is not None and not corp.closed and corp.percent_of(player):
                total += self.title.holding_value(corp, player)
        return total

    def company_value(self, player: Player) -> int:
        return sum(c.value for c in player.companies if not c.closed)

    def net_worth(self, player: Player) -> int:
        parts = self.rules.net_worth
        total = 0
        if "cash" in parts:
            total += player.cash
        if "shares" in parts:
            total += self.share_value(player)
        if "companies" in parts:
            total += self.company_value(player)
        return total

    def standings(self) -> list[dict]:
        rows = []
        for p in self.players:
            rows.append({"player": p.name, "cash": p.cash, "shares": self.share_value(p),
                         "privates": self.company_value(p), "net_worth": self.net_worth(p)})
        return ranked(rows)

    def standings_doubt(self) -> Optional[str]:
        """Why the players' net worths are not known (None: they are): a cash not sure
        (``Unsure.standings_doubt``)."""
        return self.unsure.standings_doubt([p.name for p in self.players])

    def last_movements(self, name: str) -> Optional[list[str]]:
        """The last movements of ``name``'s cash, said when a money checkpoint differs (a
        title that keeps them: 1890's game); None: none kept."""
        return None

    def own_state(self) -> dict:
        """What a title's game keeps beyond the shared fields (1890's books: its purses, the
        movements of cash, the markers' order ...), pictured by the purity snapshot; none."""
        return {}

    def company_table(self) -> list[dict]:
        rows = []
        for corp in self.corporations.values():
            if corp.par is None:
                continue
            rows.append({
                "company": corp.sym,
                "price": corp.price.price if corp.price else None,
                "treasury": corp.cash,
                "trains": [t.name for t in corp.trains],
                "president": corp.president.name if corp.president else None,
                "floated": corp.floated,
                "closed": corp.closed,
                "ipo_percent": corp.percent_of("ipo"),
                "pool_percent": corp.percent_of("pool"),
            })
        return rows
