"""1890's players, corporations, privates and trains as the shared state's objects
(``railcheck/state.py``): who holds which certificate, private and train, the par values, the
presidencies, the minors' owners, everybody's cash.

Every corporation is a shared :class:`~railcheck.state.Corporation` built from the rules
(``rules.yaml``'s corporations): a minor (kind ``minor``) has one 100% certificate (its
owner is the minor's owner, N0), a public company a president's certificate of 20% and
eight shares of 10%.  Kinki Nippon Railway's certificates beyond the four for sale (K7:
the president's, M2's, and the shares of M3, M1 and M4) are held by the bank
(:data:`RESERVED`) and never sold: a converting minor's owner receives them (K2-K5).
The privates and the late privates (and Kobe Electric Railway once privatised, N5) are
shared :class:`~railcheck.state.Company` objects held by a player or a company (its
``companies``).  The players are the shared :class:`~railcheck.state.Player`; a player's
and a company's cash is theirs (``Player.cash``, ``Corporation.cash``), moved by the ledger
(``money.py``) while money is tracked.  A train is a shared
:class:`~railcheck.state.Train` from the moment it leaves the depot (the depot's counts may be
unknown: it is not laid out), held by a corporation (its ``trains``) or the pool, or out of
the game (``owner`` None: rusted, scrapped, or gone with its minor).  The president's
certificate changes hands by the shared ``Game.update_president`` (the most, ties the
nearest clockwise, §6.5; a tie keeps the president).
"""

from __future__ import annotations

from typing import Optional

from ...findings import ERROR
from ...game import Game
from ...market import Cell
from ...specs import CompanySpec
from ...state import Company, Corporation, Player, Train
from ...unsure import BANK

#: the owner of KNR's reserved certificates: the bank, not for sale (K7)
RESERVED = "reserved"
#: the free share a private brings (P4, P5; C1, C3)
FREE_SHARE = {"HST": "HER", "KST": "KHN"}
#: the KNR certificates a converting minor's owner receives (K2-K5, K7)
KNR_CERTS = {"M2": [20], "M3": [10], "M1": [10], "M4": [10, 10]}


def private_numbers(rules, sym: str) -> tuple:
    """A private's (or late private's) face value and income as the components file gives
    them (each may be ``unknown``)."""
    return rules.private_numbers(sym)


def par_cell(price: int) -> Cell:
    """A par value as the record sets it (the market's grid may be unknown: the price
    marker's cell is the ledger's)."""
    return Cell(row=-1, col=-1, price=price, zones=frozenset(), par=True, letters="")


class Purse:
    """The cash of a name the record pays that is no player or company."""

    def __init__(self) -> None:
        self.cash = 0


class Holdings(Game):
    """The shared ``Game`` 1890's replay plays its certificates, privates, trains and money on,
    built from 1890's rules (``rules.py``: the shared specs, and the starting cash, the bank,
    the certificate limit and the market where the components file gives them; where it does
    not, the game tracks no money, ``Game.unsure.off``), and the questions 1890's handlers ask
    of it by name."""

    def __init__(self, rules, names: list, knr_normal: bool):
        Game.__init__(self, rules, list(names), check_board=False)
        self.by_name = self.player_by_name
        if "KNR" in self.corporations and not knr_normal:
            # K7: the president's certificate and the minors' shares are the bank's
            for_sale = int(rules.knr["for_sale_shares"])
            for cert in self.corporations["KNR"].certs:
                if cert.president or cert.index > for_sale:
                    cert.owner = RESERVED
        #: the trains' types (price and count: the components file's, 0 and None where it
        #: leaves them unknown; the checks read the file)
        self.train_specs = {t.name: t for t in rules.trains}
        #: the privates in the order somebody first got them (the order they are listed in)
        self.first_owned: dict[str, int] = {}
        #: the corporations in the order they first got a train (the order they are listed in)
        self.first_trained: dict[str, int] = {}
        #: every train out of the depot, in the order they left it (the depot is the shared
        #: Game's ``trains``: a type whose count is unknown has as many as any game needs)
        self.left: list[Train] = []
        m5 = rules.corp_by_sym["M5"]
        self.companies["M5"] = Company(CompanySpec("M5", m5.name, 0, 0, blocks=[], special={}))
        #: the ledger has started (after the auction, ``Ledger.start``): money is tracked from
        #: then on unless the shared money is off (:attr:`money_tracked`)
        self.money_started = False
        #: the money (``money.py``'s ``Ledger``: the net worths the analyser reads; set by the
        #: replay)
        self.ledger = None
        # the ledger's books, the game's:
        #: the purse of each name the record pays that is no player, company or the bank
        #: (its word stands; ``Ledger.entity``)
        self.purses: dict[str, Purse] = {}
        #: name -> its last three movements of cash, said when a checkpoint of it differs
        #: (:meth:`last_movements`)
        self.movements: dict[str, list[str]] = {}
        #: the corporations with a price marker, in the order their markers were first placed
        #: (their pars; ``Ledger.place``): the order S3.2's sold-out rises are made in, and a
        #: main company operates once it has one (``TitleKansai.operates``)
        self.marked: list[str] = []

    def flag(self, rule: str, message: str, severity: str = ERROR, action=None):
        """The shared ``Game.flag`` (the shared layer's and the engine's findings on 1890's
        game); 1890's findings stand alone: none is folded as the consequence of an earlier
        one, as the title's own (``TitleKansai.flag``)."""
        f = Game.flag(self, rule, message, severity, action)
        f.follows, f.consequential = None, False
        return f

    def bank_breaks(self) -> bool:
        """E1 "koniec banku", the rule book's "the bank is exhausted" (§"Game End"): the
        bank's cash at or below 0, once it is sure (a bank whose cash is not sure breaks
        where the record says: its ``end`` tag)."""
        return self.bank.cash <= 0 and self.unsure.sure(BANK)

    def trigger_end(self, reason: str) -> None:
        """The bank broken: the game ends at once or after the set of ORs, by E1's
        reading (``TitleKansai.bank_broke``: ``rulebook.end_on_bank``)."""
        if reason == "bank":
            self.title.bank_broke()
        else:
            Game.trigger_end(self, reason)

    @property
    def money_tracked(self) -> bool:
        """Money is tracked: the ledger has started and the shared game's money is not off
        (``Game.unsure.off``: a number it needs is unknown, or the auction was not played)."""
        return self.money_started and self.unsure.tracked

    @property
    def untracked(self) -> Optional[str]:
        """Why no money is known (None: it is): the analyser says so."""
        if self.money_tracked:
            return None
        off = ".".join(str(k) for k in self.ledger.off) if self.ledger.off else ""
        if off and off != "companies":
            return f"{off} is unknown in {self.rules.components.describe()}"
        return "the auction was not played" if off == "companies" else \
            "the record ends before the auction does"

    def trains_listed(self, corp: Corporation) -> list[str]:
        """A company's trains as 1890's reports list them: by name (its companies table)."""
        return sorted(t.name for t in corp.trains)

    # the players' worth as the analyser reads it: the ledger's standings (None while money
    # is not tracked, or a worth is not sure)

    def _worth(self, player: Player) -> Optional[dict]:
        if not self.money_tracked:
            return None
        rows, _ = self.ledger.standings()
        return next((row for row in rows if row["player"] == player.name), None)

    def share_value(self, player: Player):
        row = self._worth(player)
        return None if row is None else row["shares"]

    def company_value(self, player: Player):
        row = self._worth(player)
        return None if row is None else row["privates"]

    def net_worth(self, player: Player):
        row = self._worth(player)
        return None if row is None else row["net_worth"]

    # the engine's result and checkpoints (``Replay.result``, ``Replay.checkpoint``) read
    # the ledger's books through the shared game's questions

    def standings(self) -> list[dict]:
        """The ledger's standings (a minor at its face value, a privatised M5 at 0, a share
        never parred at 0: ``Ledger.standings``); none while a worth is not sure."""
        return self.ledger.standings()[0]

    def standings_doubt(self) -> Optional[str]:
        """Why the net worths are not known: a cash or a share price not sure, a private's
        value unknown (``Ledger.standings``)."""
        return self.ledger.standings()[1]

    def company_table(self) -> list[dict]:
        """The ledger's companies' table (the minors with their owners, KNR's shares issued
        as its conversions give them: ``Ledger.company_table``)."""
        return self.ledger.company_table()

    def last_movements(self, name: str) -> Optional[list[str]]:
        """The last three movements of ``name``'s cash (:attr:`movements`)."""
        return self.movements.get(name)

    def own_state(self) -> dict:
        """1890's own books on the game (the purity snapshot's): the order the privates were
        first owned and the corporations first given a train, the trains out of the depot in
        order, the ledger's start, the purses, each name's last movements, the markers'
        order."""
        return {"first_owned": self.first_owned, "first_trained": self.first_trained,
                "left": self.left, "money_started": self.money_started,
                "purses": {name: purse.cash for name, purse in self.purses.items()},
                "movements": self.movements, "marked": self.marked}

    # ------------------------------------------------------------------
    # reading

    @property
    def names(self) -> list:
        return [p.name for p in self.players]

    def priority_name(self) -> Optional[str]:
        return None if self.priority is None else self.priority.name

    def set_priority(self, name: str) -> None:
        self.priority = self.by_name[name]

    def is_player(self, name) -> bool:
        return name in self.by_name

    def majors(self) -> list:
        """The public companies (JR and KNR included), in the rules' order."""
        return [c for c in self.corporations.values() if c.kind != "minor"]

    def minor_owner(self, sym: str) -> Optional[str]:
        """The player who bought the minor (he keeps it when it converts or closes)."""
        corp = self.corporations.get(sym)
        if corp is None or corp.kind != "minor":
            return None
        owner = corp.certs[0].owner
        return owner.name if isinstance(owner, Player) else None

    def minors_of(self, player: str) -> list:
        return [c for c in self.corporations.values()
                if c.kind == "minor" and self.minor_owner(c.sym) == player]

    def percents(self, sym: str, name: str) -> list:
        """The percents of the certificates ``name`` holds (a player, ``pool``)."""
        holder = self.by_name.get(name, name)
        corp = self.corporations.get(sym)
        return [] if corp is None else [c.percent for c in corp.certs if c.owner is holder]

    def percent(self, sym: str, name: str) -> int:
        return sum(self.percents(sym, name))

    def pool(self, sym: str) -> int:
        return self.corporations[sym].percent_of("pool")

    def sold_percent(self, sym: str) -> int:
        """Held by players (the float's 50%: a free share counts, C1)."""
        corp = self.corporations[sym]
        return sum(c.percent for c in corp.certs if isinstance(c.owner, Player))

    def president(self, sym: str) -> Optional[str]:
        corp = self.corporations.get(sym)
        if corp is None or corp.kind == "minor":
            return None
        return corp.president.name if corp.president is not None else None

    def par(self, sym: str) -> Optional[int]:
        corp = self.corporations.get(sym)
        return None if corp is None or corp.par is None else corp.par.price

    def president_bought(self, sym: str) -> bool:
        """The president's certificate is held by a player (bought at par, or given)."""
        return self.corporations[sym].president is not None

    def holder(self, name):
        """The player or the corporation of that name (None: neither)."""
        return self.by_name.get(name) or self.corporations.get(name)

    def company(self, sym: str) -> Optional[Company]:
        return self.companies.get(sym)

    def owner_of(self, sym: str) -> Optional[str]:
        """Who holds the private (a player's or a company's name), None: nobody."""
        company = self.companies.get(sym)
        owner = None if company is None else company.owner
        if owner is None or isinstance(owner, str):
            return owner
        return owner.name if isinstance(owner, (Player, Corporation)) else None

    def private_closed(self, sym: str) -> bool:
        company = self.companies.get(sym)
        return company is not None and company.closed

    def owned(self) -> list:
        """The privates somebody holds, in the order they were first acquired."""
        held = [c for c in self.companies.values() if c.owner is not None]
        return sorted(held, key=lambda c: self.first_owned.get(c.sym, 0))

    def train_names(self, sym) -> list:
        """The types of the trains the corporation owns, in the order it got them."""
        corp = self.corporations.get(sym)
        return [] if corp is None else [t.name for t in corp.trains]

    def pool_train_names(self) -> list:
        """The types of the pool's trains, in the order they left the depot."""
        return [t.name for t in self.left if t.owner == "pool"]

    def sold(self, name: str) -> int:
        """The trains of the type that left the depot."""
        return sum(1 for t in self.left if t.name == name)

    def bought(self, name: str) -> bool:
        """A train of the type has left the depot (its phase has begun: F5, F7)."""
        return any(t.name == name for t in self.left)

    def pay_private_income(self) -> None:
        """O0a: the privates' incomes at an operating round's start (the shared
        ``OperatingRound.start`` asks for them) are the ledger's: 1890's late privates, bonuses
        and unknown amounts included (``Ledger.incomes``).  In the auction (the shared
        waterfall's, when everybody passed, A6) each private sold pays its income to its
        owner: the bank is counted after the auction (``Ledger.start``)."""
        if self.title.kind != "auction":
            self.ledger.incomes()
            return
        for company in self.auction_companies():
            if company.owner is not None and not company.closed:
                company.owner.cash += company.spec.revenue

    def auction_companies(self) -> list:
        """The privates the auction sells (the shared waterfall's): the rules' privates in
        play, not the late privates (L0) nor the company M5's privatisation makes (N5)."""
        out = self.title.not_in_play
        return [self.companies[p.sym] for p in self.rules.privates if p.sym not in out]

    def sell_private_from_bank(self, company, player, price: int) -> None:
        """A private bought in the auction (the shared waterfall's): its price leaves the
        player's cash (the bank is counted after the auction, ``Ledger.start``), and what
        it brings comes with it (the free Hanshin and Keihan shares, P4, P5; OMS's
        president's certificate, P7: the stock handler's ``acquire``)."""
        player.cash -= price
        self.title.stock.acquire(company.sym, player.name, self.current_action)

    def train_limit(self, corp) -> int:
        """O5a: the shared limit of the phase for the company's kind (minors, main companies,
        JR), but JR, the state railway until phase 6, has a main company's from then (J0)."""
        if corp.kind == "state" and self.phase_index >= self.rules.phase_index("6"):
            return int(self.phase.train_limit["major"])
        return super().train_limit(corp)

    # ------------------------------------------------------------------
    # changing

    def set_owner(self, sym: str, name: str) -> None:
        """The private goes to the player or company ``name`` (a name the rules do not
        know stays the record's word)."""
        company = self.companies.get(sym)
        if company is None:             # a name the record uses as a private
            company = self.companies[sym] = Company(CompanySpec(sym, sym, 0, 0, [], {}))
        self.first_owned.setdefault(sym, len(self.first_owned))
        old = company.owner
        if isinstance(old, (Player, Corporation)) and company in old.companies:
            old.companies.remove(company)
        new = self.holder(name) or name
        company.owner = new
        if isinstance(new, (Player, Corporation)):
            new.companies.append(company)

    def give(self, sym: str, name: str, percents: list, source="ipo") -> bool:
        """Certificates of these percents from ``source`` (``ipo``, ``pool``,
        :data:`RESERVED`) to the player; then the presidency (SS3).  False (nothing
        moved) when the source does not hold them."""
        corp = self.corporations[sym]
        player = self.by_name[name]
        free = [c for c in corp.certs if c.owner == source]
        moving = []
        for pct in percents:
            cert = next((c for c in free if c.percent == pct and c not in moving), None)
            if cert is None:
                return False
            moving.append(cert)
        for cert in moving:
            cert.owner = player
            if cert.president:
                corp.president = player
        self.update_president(corp)
        return True

    def holds(self, sym: str, source, percents: list) -> bool:
        """``source`` (``ipo``, ``pool``, :data:`RESERVED`) holds certificates of these
        percents (what :meth:`give` would move)."""
        free = [c.percent for c in self.corporations[sym].certs if c.owner == source]
        for pct in percents:
            if pct not in free:
                return False
            free.remove(pct)
        return True

    def update_president(self, corp: Corporation, seller=None) -> None:
        """A player holding more than the president takes the president's
        certificate for two shares (SS3, B1, §6.5); nobody holding it yet: nobody
        is president (KNR's shares bought before M2 converts)."""
        if corp.president is not None:
            Game.update_president(self, corp, seller)  # type: ignore[arg-type]

    def take_back(self, sym: str, name: str, count: int, to: str = "pool") -> None:
        """``count`` of the player's 10% shares to the pool."""
        corp = self.corporations[sym]
        player = self.by_name[name]
        tens = [c for c in corp.certs if c.owner is player and not c.president]
        for cert in tens[-count:] if count else []:
            cert.owner = to

    def exchange(self, sym: str, old: str, new: str) -> None:
        """§6.5: ``new`` takes the president's certificate for two of his shares."""
        corp = self.corporations[sym]
        self.swap_president_cert(corp, self.by_name[old], self.by_name[new])  # type: ignore[misc]
        corp.president = self.by_name[new]

    def new_train(self, name: str) -> Train:
        """A train out of the depot (taken as bought when its count is exhausted: one more
        of the type)."""
        train = next((t for t in self.trains if t.owner == "depot" and t.name == name), None)
        if train is None:
            train = Train(name, self.train_specs[name], f"{name}-{self.sold(name)}", None)
            self.trains.append(train)
            self.train_by_id[train.id] = train
        train.owner = None
        self.left.append(train)
        return train

    def take_train(self, name: str, source: str) -> Optional[Train]:
        """The first train of the type the pool (``pool``) or the corporation holds, out of its
        hands (None: it holds none)."""
        if source == "pool":
            train = next((t for t in self.left if t.owner == "pool" and t.name == name), None)
        else:
            corp = self.corporations.get(source)
            train = None
            if corp is not None:
                train = next((t for t in corp.trains if t.name == name), None)
                if train is not None:
                    corp.trains.remove(train)
        if train is not None:
            train.owner = None
        return train

    def with_trains(self) -> list:
        """The corporations that own a train, in the order they first got one."""
        held = [c for c in self.corporations.values() if c.trains]
        return sorted(held, key=lambda c: self.first_trained.get(c.sym, 0))

    def give_train_to(self, train: Train, sym: str) -> None:
        self.first_trained.setdefault(sym, len(self.first_trained))
        corp = self.corporations[sym]
        train.owner = corp
        corp.trains.append(train)

    def to_pool(self, train: Train) -> None:
        train.owner = "pool"
        # (the pool's trains are listed in the order they left the depot)

    def move_trains(self, src: str, dst: str) -> None:
        """The corporation's trains, in order, to another (a conversion into KNR: K2-K5)."""
        self.first_trained.setdefault(dst, len(self.first_trained))
        moving = self.corporations[src].trains
        self.corporations[src].trains = []
        for t in moving:
            self.give_train_to(t, dst)

    def drop_trains(self, sym: str, keep=lambda t: False) -> list:
        """The corporation's trains but those ``keep`` says leave the game; the others
        stay in order.  Returns the ones that left."""
        corp = self.corporations[sym]
        gone = [t for t in corp.trains if not keep(t)]
        corp.trains = [t for t in corp.trains if keep(t)]
        for t in gone:
            t.owner = None
        return gone

    def buy_minor(self, sym: str, name: str) -> None:
        """A minor bought starts at once, with its capital (N0): floated."""
        corp = self.corporations[sym]
        corp.certs[0].owner = self.by_name[name]
        corp.floated = True
