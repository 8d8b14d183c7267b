"""What the Kansai checker knows of a game as it replays it: the phase, who
holds what, the trains, the stations, the minors' conversions.  Money is held
by ``money.Ledger`` (when the components file gives what it needs)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Optional

#: the free share a private brings (P4, P5; C1, C3)
FREE_SHARE = {"HST": "HER", "KST": "KHN"}
#: the KNR certificates a converting minor's owner receives (K2-K5, K7)
KNR_CERTS = {"M2": [20], "M3": [10], "M1": [10], "M4": [10, 10]}
#: the privates that do not close with the others in phase 4 (P3, P7)
KEEP_OPEN = ("HKT", "OMER")


@dataclass
class KansaiState:
    players: list
    phase: int = 0
    #: train types of which one has been bought (from the depot)
    bought: set = field(default_factory=set)
    sold: Counter = field(default_factory=Counter)
    #: trains in the bank pool (discarded, or traded in for a D and not obsolete)
    pool_trains: list = field(default_factory=list)
    #: owner (company sym) -> its trains' types
    trains: dict = field(default_factory=dict)
    #: minor -> owning player; privates and late privates -> holder (player or company)
    minor_owner: dict = field(default_factory=dict)
    company_owner: dict = field(default_factory=dict)
    #: minors converted, privatised or closed; privates closed
    closed: set = field(default_factory=set)
    #: corporation -> holder -> certificates (percent)
    shares: dict = field(default_factory=dict)
    pool: Counter = field(default_factory=Counter)
    pars: dict = field(default_factory=dict)
    #: corporations whose president's certificate a player bought
    president_bought: set = field(default_factory=set)
    #: corporation -> the player holding its free share (HER, KHN)
    free_share: dict = field(default_factory=dict)
    operated: set = field(default_factory=set)
    #: corporations that floated (50% held by players at some time: SB3, C1, C3)
    floated: set = field(default_factory=set)
    knr_started: bool = False
    #: company -> hexes with its stations
    stations: dict = field(default_factory=dict)
    #: companies that had a station in Kobe when KRTR started, or paid its fee (L2)
    krtr_free: set = field(default_factory=set)
    #: companies that paid KRTR's fee, and in which OR (L2)
    krtr_paid: dict = field(default_factory=dict)
    #: the player after whom the next stock round starts
    priority: Optional[str] = None
    #: OMS's first operating round has happened; OMER's upgrade used
    oms_turns: int = 0
    omer_used: bool = False
    #: a 6 was bought: Kita Osaka Kyuko's 100 is due in the next OR
    first_six: bool = False
    #: company -> stations bought (placed by a token action; the home is free: O2)
    tokens_bought: dict = field(default_factory=dict)
    #: hexes the record has laid a tile on (a later lay there is an upgrade: free, O1c)
    laid_hexes: set = field(default_factory=set)
    #: hex -> the tile the record last laid there
    tile_on: dict = field(default_factory=dict)

    def holding(self, corp: str, holder: str) -> list:
        return self.shares.setdefault(corp, {}).setdefault(holder, [])

    def percent(self, corp: str, holder: str) -> int:
        return sum(self.shares.get(corp, {}).get(holder, []))

    def sold_percent(self, corp: str) -> int:
        """Held by players (the float's 50%: a free share counts, C1)."""
        return sum(sum(v) for h, v in self.shares.get(corp, {}).items() if h in self.players)

    def president(self, corp: str) -> Optional[str]:
        for holder, certs in self.shares.get(corp, {}).items():
            if 20 in certs and holder in self.players:
                return holder
        return None

    def give(self, corp: str, holder: str, certs: list) -> None:
        self.holding(corp, holder).extend(certs)
        self.update_president(corp)

    def update_president(self, corp: str) -> None:
        """A player holding more than the president swaps two shares for the
        president's certificate (SS3, B1); a tie keeps the president."""
        old = self.president(corp)
        if old is None:
            return
        best = max(self.players, key=lambda p: (self.percent(corp, p), p == old))
        if best == old or self.percent(corp, best) <= self.percent(corp, old):
            return
        new_certs = self.holding(corp, best)
        if new_certs.count(10) < 2:
            return
        new_certs.remove(10)
        new_certs.remove(10)
        new_certs.append(20)
        old_certs = self.holding(corp, old)
        old_certs.remove(20)
        old_certs.extend([10, 10])
