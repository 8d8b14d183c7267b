"""The typed parts of a ruleset: corporations, private companies, trains and phases.

:class:`~railcheck.ruleset.Ruleset` makes them from the checked YAML; the game's state
(``railcheck.state``) keeps a reference to each.  They live apart from the loading so
that the state and the mechanics need not import the loader.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from .mechanics.reach import Reach
from .schema import Ability, abilities_of


@dataclass
class CorpSpec:
    sym: str
    name: str
    home: Optional[str]
    home_city: Optional[int]
    tokens: list[int]
    shares: list[int]
    float_percent: int
    extra: dict = field(default_factory=dict)
    kind: str = "major"           # major, minor or state railway
    color: Optional[str] = None   # for charts and the board picture
    #: its section (top-level ``sections``), None: none
    section: Optional[int] = None
    #: its last 10% certificate is kept for the exchange of a private
    reserved_share: bool = False
    #: percent of it a player may hold (None: stock.holding_limit)
    max_ownership_percent: Optional[int] = None


@dataclass
class CompanySpec:
    sym: str
    name: str
    value: int
    revenue: int
    blocks: list[str]
    #: ability kind -> its fields (schema.ABILITIES, defaults filled in)
    special: dict
    #: in the game only with at least this many players (None: always)
    min_players: Optional[int] = None

    @property
    def abilities(self) -> dict[str, Ability]:
        """The abilities, typed: kind, window, count, fields."""
        return abilities_of(self.special)


@dataclass
class TrainSpec:
    name: str
    distance: "int | dict | None"  # as written; ``reach`` is its typed form
    price: int
    count: Optional[int]          # None = unlimited
    rusts_on: Optional[str]
    obsolete_on: Optional[str]
    available_on: Optional[str]
    events: list[str]
    exchange: Optional[dict]
    extra: dict = field(default_factory=dict)
    reach: Optional[Reach] = None
    #: trains that may be traded in for this one, each counting the value given
    trade_in: dict = field(default_factory=dict)
    #: not in the depot at the start (one comes into the pool per train rusting into it)
    primed: bool = False


@dataclass
class PhaseSpec:
    name: str
    on: Optional[str]
    tiles: list[str]
    train_limit: "int | dict[str, int]"   # one number, or one per company kind
    operating_rounds: int
    company_buy: bool
    extra: dict = field(default_factory=dict)
