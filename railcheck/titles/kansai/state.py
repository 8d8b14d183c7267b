"""What the Kansai checker knows of a game as it replays it besides the
certificates and the privates: the phase, the trains, the stations.  The
players, the corporations (minors included), the privates and who holds them
are the shared state's objects (``holdings.py``); money is held by ``money.Ledger``
(when the components file gives what it needs)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Optional

#: the privates that do not close with the others in phase 4 (P3, P7)
KEEP_OPEN = ("HKT", "OMER")


@dataclass
class KansaiState:
    phase: int = 0
    #: train types of which one has been bought (from the depot)
    bought: set = field(default_factory=set)
    sold: Counter = field(default_factory=Counter)
    #: trains in the bank pool (discarded, or traded in for a D and not obsolete)
    pool_trains: list = field(default_factory=list)
    #: owner (company sym) -> its trains' types
    trains: dict = field(default_factory=dict)
    #: corporation -> the player holding its free share (HER, KHN)
    free_share: dict = field(default_factory=dict)
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
