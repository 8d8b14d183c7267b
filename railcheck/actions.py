"""Typed game actions.

Every move of a recorded game becomes one small, immutable-ish value of one of
these classes.  The notation parser (``railcheck.notation``) and the
18xx.games importer (``railcheck.importer``) both produce them; the replay
engine (``railcheck.engine``) consumes them.  Nothing here knows any rule.

Every action carries where it came from: ``line``/``column`` in the source
file (1-based) and, for imported games, the export's ``action_id``; ``text``
is the action as written, for reports.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional


@dataclass(kw_only=True)
class Action:
    actor: str = ""
    line: Optional[int] = None
    column: Optional[int] = None
    action_id: Optional[int] = None
    text: str = ""

    #: short verb used in reports and by the notation writer
    verb = "action"


class _Text:
    """``Action.text``: a string, or ``(make, *args)`` that makes it when read
    (the importer's descriptions, needed only by the few actions a finding
    names). Made again at each read, so the action never changes."""

    def __get__(self, obj, cls=None):
        if obj is None:
            return ""
        value = obj.__dict__.get("text", "")
        return value if isinstance(value, str) else value[0](*value[1:])

    def __set__(self, obj, value):
        obj.__dict__["text"] = value


Action.text = _Text()  # type: ignore[assignment]


# --- private auction -------------------------------------------------------

@dataclass(kw_only=True)
class Bid(Action):
    """A bid on a private in the auction.  ``price`` None means "buy at its
    current price" (the cheapest private in a waterfall auction)."""

    company: str
    price: Optional[int] = None
    verb = "bid"


@dataclass(kw_only=True)
class BidForTurn(Action):
    """A bid for the right to buy one item (18xx.games' bid with no private
    named: 1860's auction); the winner then buys with a ``Bid`` naming the
    private or a ``Par``."""

    price: int
    verb = "bid"


@dataclass(kw_only=True)
class Choose(Action):
    """Put a private up for auction (choose-and-bid auctions, e.g. 1857)."""

    company: str
    price: Optional[int] = None
    verb = "choose"


@dataclass(kw_only=True)
class Pass(Action):
    verb = "pass"


# --- stock round -----------------------------------------------------------

@dataclass(kw_only=True)
class Par(Action):
    corporation: str
    price: int
    verb = "par"


@dataclass(kw_only=True)
class BuyShares(Action):
    """Buy shares of one corporation.

    ``count`` is the number of ordinary shares; ``percent``, when given
    (imports), wins over ``count``.  ``source`` is ``"ipo"``, ``"pool"`` or
    None (IPO when it has a share, else the pool).  ``certs`` are
    certificate numbers from an export (``PRR_3`` -> 3), resolved by the
    engine to their holder.
    """

    corporation: str
    count: int = 1
    percent: Optional[int] = None
    source: Optional[str] = None
    certs: tuple[int, ...] = ()
    verb = "buy"


@dataclass(kw_only=True)
class Sale:
    corporation: str
    count: int = 1
    percent: Optional[int] = None
    certs: tuple[int, ...] = ()


@dataclass(kw_only=True)
class SellShares(Action):
    """Sell shares of one or more corporations in one turn."""

    sales: list[Sale] = field(default_factory=list)
    verb = "sell"


@dataclass(kw_only=True)
class Exchange(Action):
    """A private (the actor) is exchanged for a share of ``corporation``
    (1830: Mohawk & Hudson for a NYC share)."""

    corporation: str
    source: Optional[str] = None
    certs: tuple[int, ...] = ()
    verb = "exchange"


# --- operating round -------------------------------------------------------

@dataclass(kw_only=True)
class LayTile(Action):
    """Lay or upgrade a tile.  ``rotation`` None lets the board checker find
    the legal orientation(s)."""

    tile: str
    hex: str
    rotation: Optional[int] = None
    tile_copy: Optional[str] = None   # an export's tile id ("57-1")
    verb = "lay"


@dataclass(kw_only=True)
class PlaceToken(Action):
    """Place a station marker.  ``city`` is the index of the city on the hex
    (None: the hex has one city, or any free one).  ``corporation`` is set
    when a private places a token for its owner."""

    hex: str
    city: Optional[int] = None
    corporation: Optional[str] = None
    #: an export's city named by a tile copy ("54-0-1" names 54-0's city 1):
    #: the copy, so that the station goes where the replay has that tile
    tile_copy: Optional[str] = None
    verb = "token"


@dataclass(kw_only=True)
class Stop:
    hex: str
    city: Optional[int] = None

    def __str__(self) -> str:
        return self.hex if self.city is None else f"{self.hex}.{self.city}"


@dataclass(kw_only=True)
class Route:
    """One train's run: its stops in order, optionally the hexes it passes
    between consecutive stops (``path[i]`` is the hex list from stop i to
    stop i+1, both ends included), and the claimed revenue of this train."""

    train: str
    stops: list[Stop] = field(default_factory=list)
    path: Optional[list[list[str]]] = None
    revenue: Optional[int] = None
    train_id: Optional[str] = None
    #: halts the run counts and the subsidy they pay to the treasury (1860)
    halts: Optional[int] = None
    subsidy: Optional[int] = None
    #: an export's connections as written (lists of hexes; "F2 0.1" inside a hex)
    connections: Optional[list] = None


@dataclass(kw_only=True)
class RunRoutes(Action):
    routes: list[Route] = field(default_factory=list)
    revenue: Optional[int] = None  # claimed total
    verb = "run"


@dataclass(kw_only=True)
class Dividend(Action):
    kind: str  # "payout", "withhold" (titles may add "half")
    verb = "dividend"


@dataclass(kw_only=True)
class BuyTrain(Action):
    """``train`` is the train type ("3", "D").  ``source`` is ``"depot"``,
    ``"pool"``, a corporation symbol, or None (depot, else pool).  ``price``
    None means the list price.  ``exchange`` names the train type given in
    part payment (1830's D for a 4, 5 or 6).  ``train_id`` is the export's
    train id (``"3-1"``), resolved by the engine to its holder."""

    train: str
    source: Optional[str] = None
    price: Optional[int] = None
    exchange: Optional[str] = None
    train_id: Optional[str] = None
    exchange_id: Optional[str] = None
    verb = "buy train"


@dataclass(kw_only=True)
class DiscardTrain(Action):
    train: str
    train_id: Optional[str] = None
    verb = "discard"


@dataclass(kw_only=True)
class SellCompany(Action):
    """A player sells a private to the bank (1860: face value less a fee)."""

    company: str
    price: int
    verb = "sell_company"


@dataclass(kw_only=True)
class BuyCompany(Action):
    """A corporation (actor) buys a private from its owner."""

    company: str
    price: int
    seller: Optional[str] = None
    verb = "buy private"


@dataclass(kw_only=True)
class Bankrupt(Action):
    verb = "bankrupt"


@dataclass(kw_only=True)
class Convert(Action):
    """A minor (actor) converts into the company it merges into (Kansai:
    Kinki Nippon Railway), in its operating turn."""

    verb = "convert"


@dataclass(kw_only=True)
class Privatise(Action):
    """A minor (actor) becomes a private held by its owner (Kansai's Kobe
    Electric Railway), in its operating turn."""

    verb = "privatise"


@dataclass(kw_only=True)
class IgnoreStation(Action):
    """A company (actor) pays to ignore the stations of ``company`` (Kansai:
    Kobe Rapid Transit) when its routes are counted; ``price`` None: the
    rules' fee."""

    company: str
    price: Optional[int] = None
    verb = "ignore"


@dataclass(kw_only=True)
class Assign(Action):
    """A private's token placed on a hex (18Ireland's CDSPC and TASPS: a
    revenue bonus for the owning company's runs stopping there)."""

    target: str
    verb = "assign"


# --- merger rounds ---------------------------------------------------------

@dataclass(kw_only=True)
class Propose(Action):
    """A merger round: a player names a company for a merger (18Ireland: the
    minors one by one, then, once the vote carried, the major they form)."""

    corporation: str
    verb = "propose"


@dataclass(kw_only=True)
class Vote(Action):
    """A merger round: a shareholder votes for or against the proposal."""

    choice: str       # "for" or "against"
    verb = "vote"


# --- bookkeeping lines -----------------------------------------------------

@dataclass(kw_only=True)
class Checkpoint(Action):
    """A fact the players noted: ``subject`` (player or corporation),
    ``field`` one of cash, price, treasury, worth, trains, president."""

    subject: str
    field: str
    value: object
    verb = "check"


@dataclass(kw_only=True)
class RoundMarker(Action):
    """``kind`` "auction", "SR" or "OR"; ``number`` e.g. (1,) or (2, 1)."""

    kind: str
    number: tuple[int, ...] = ()
    verb = "round"


ACTION_TYPES = [
    Bid, Choose, Pass, Par, BuyShares, SellShares, Exchange, LayTile, PlaceToken,
    RunRoutes, Dividend, BuyTrain, DiscardTrain, BuyCompany, Bankrupt, Assign, Propose,
    Vote, Checkpoint, RoundMarker, Convert, Privatise, IgnoreStation,
]


@dataclass
class GameRecord:
    """A parsed game: header tags and the actions in order."""

    path: str
    title: Optional[str]
    players: list[str]
    tags: dict[str, str] = field(default_factory=dict)
    options: list[str] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    #: where each header tag was written: tag -> (line, column)
    tag_locations: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: extra facts from an import: result by player name, end reason
    expected_result: Optional[dict[str, int]] = None
    expected_end_reason: Optional[str] = None
    #: read from an 18xx.games export (its passes follow the site's steps)
    from_export: bool = False
    #: the game goes on after the record's last action (an export of a game
    #: in progress, status other than "finished"): the record stops mid-play
    in_progress: bool = False
    #: a user's ruleset file that plays this game instead of the title's own
    #: (the header's ``ruleset:``, next to the game file, or ``--ruleset``)
    ruleset: Optional[str] = None
    #: the components file of a title whose numbers the user supplies (the
    #: header's ``components:``, next to the game file; docs/1890-components.md)
    components: Optional[str] = None
