"""What the Kansai checker knows of a game as it replays it besides the
certificates, the privates and the trains: the phase, the stations, the
title's own flags.  The players, the corporations (minors included), the
privates, the trains and who holds them are the shared state's objects
(``holdings.py``), with everybody's cash, which ``money.Ledger`` moves (when the
components file gives what it needs)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

#: the privates that do not close with the others in phase 4 (P3, P7)
KEEP_OPEN = ("HKT", "OMER")


@dataclass
class KansaiState:
    phase: int = 0
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
