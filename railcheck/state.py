"""The game state: players, corporations, certificates, privates, trains, bank.

Plain objects with no rules in them; ``railcheck.game.Game`` changes them.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Optional

from .market import Cell, deepcopy_fields
from .specs import CompanySpec, CorpSpec, TrainSpec


class Bank:
    name = "bank"

    def __init__(self, cash: int):
        self.cash = cash


@dataclass(eq=False)
class Player:
    __deepcopy__ = deepcopy_fields
    name: str
    seat: int
    cash: int = 0
    companies: list = field(default_factory=list)   # Company
    bankrupt: bool = False

    def __repr__(self) -> str:
        return f"Player({self.name})"


_MOVES = itertools.count(1)


@dataclass(eq=False)
class Cert:
    __deepcopy__ = deepcopy_fields
    corp: "Corporation"
    index: int
    percent: int
    president: bool
    owner: object = None     # Player, Corporation (its own treasury) or the strings "ipo" / "pool"
    #: when its owner got it (a running count; a new president may give back
    #: his oldest shares first: ``Title.swap_oldest_first``)
    got: int = 0

    def __setattr__(self, name, value):
        if name == "owner" and self.__dict__.get("owner", value) is not value:
            object.__setattr__(self, "got", next(_MOVES))
        object.__setattr__(self, name, value)

    @property
    def name(self) -> str:
        return f"{self.corp.sym}_{self.index}"


@dataclass(eq=False)
class Train:
    __deepcopy__ = deepcopy_fields
    name: str
    spec: TrainSpec
    id: str
    owner: object = "depot"   # "depot", "pool", Corporation, or None (rusted / removed)
    obsolete: bool = False

    def __repr__(self) -> str:
        return f"Train({self.id})"


@dataclass(eq=False)
class Company:
    __deepcopy__ = deepcopy_fields
    spec: CompanySpec
    owner: object = None      # Player, Corporation or None (unsold)
    closed: bool = False
    #: the price at which it is currently offered in the auction
    price: int = 0
    #: how often its special power has been used
    uses: int = 0
    #: the player it left the game with (closed by his bankruptcy): a record
    #: that has him sell it later is flagged, and taken as written
    left_with: object = None

    @property
    def sym(self) -> str:
        return self.spec.sym

    @property
    def value(self) -> int:
        return self.spec.value

    def __repr__(self) -> str:
        return f"Company({self.sym})"


@dataclass(eq=False)
class Corporation:
    __deepcopy__ = deepcopy_fields
    spec: CorpSpec
    certs: list = field(default_factory=list)
    cash: int = 0
    par: Optional[Cell] = None
    price: Optional[Cell] = None
    floated: bool = False
    closed: bool = False
    trains: list = field(default_factory=list)
    companies: list = field(default_factory=list)
    tokens_placed: int = 0
    president: Optional[Player] = None
    operated: bool = False
    home_placed: bool = False

    @property
    def sym(self) -> str:
        return self.spec.sym

    @property
    def name(self) -> str:
        return self.spec.sym

    @property
    def kind(self) -> str:
        """major, minor, state ... (ruleset ``kind``; train limits and
        rules may differ by kind)."""
        return self.spec.kind

    @property
    def ipoed(self) -> bool:
        return self.par is not None

    def percent_of(self, holder) -> int:
        n = 0
        for c in self.certs:    # (a plain loop: asked very often)
            if c.owner is holder:
                n += c.percent
        return n

    def certs_of(self, holder) -> list:
        return [c for c in self.certs if c.owner is holder]

    @property
    def share_percent(self) -> int:
        """Percent of one ordinary share."""
        return min([c.percent for c in self.certs])

    def token_cost(self) -> Optional[int]:
        """Cost of the next station marker, or None when none is left."""
        if self.tokens_placed >= len(self.spec.tokens):
            return None
        return self.spec.tokens[self.tokens_placed]

    def __repr__(self) -> str:
        return f"Corporation({self.sym})"
