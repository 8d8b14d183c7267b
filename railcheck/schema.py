"""Every key a ruleset may have, declared once.

Each key has a type, a default (or is required), the values an enum allows,
and a one-line description.  :func:`check_ruleset` checks a merged ruleset
(see ``railcheck.ruleset``) against these declarations and returns it with
every default filled in, so the code reads ``rules.stock["pool_limit"]``
without a default of its own.  Problems are reported through a *context*
(``ruleset._Checker``) that knows the file, line and column of every YAML
path.  :func:`schema_reference` renders the declarations as the reference
tables of ``docs/rulesets.md``.

Private companies' powers (``companies[].special``) are typed too: each
ability kind in :data:`ABILITIES` declares its fields, ``window`` (when it
may be used, as the published rules say) and ``count`` (how often).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Optional

from .findings import did_you_mean

#: a key without a default
REQUIRED = object()


def path_join(base: str, key) -> str:
    if isinstance(key, int):
        return f"{base}[{key}]"
    return f"{base}.{key}" if base else str(key)


def show(value) -> str:
    """A value as it is written in YAML."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if value == "":
        return '""'
    if isinstance(value, list):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show(v)}" for k, v in value.items()) + "}"
    return str(value)


# ---------------------------------------------------------------------------
# Types.  ``check(value, ypath, ctx)`` returns the value (with defaults filled
# in) or calls ``ctx.fail(ypath, message)``, which raises.

class Type:
    #: how the reference table names the type
    doc = "any value"

    def check(self, value, ypath: str, ctx):
        return value


class Int(Type):
    """A whole number.  Every integer a ruleset holds is money (cash, prices,
    costs, revenues), a count (certificates, trains, lays, rounds) or a
    percent, none of which can be below zero: a negative one is refused
    with its place (``negative=True`` for a key whose value may be)."""

    def __init__(self, negative: bool = False):
        self.negative = negative
        self.doc = "integer" if negative else "integer, 0 or more"

    def check(self, value, ypath, ctx):
        if isinstance(value, bool) or not isinstance(value, int):
            ctx.fail(ypath, f"expected an integer, got {value!r}")
        if value < 0 and not self.negative:
            ctx.fail(ypath, f"expected 0 or more, got {value} (money, counts and percents "
                            f"cannot be negative)")
        return value


class Number(Type):
    doc = "number"

    def check(self, value, ypath, ctx):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            ctx.fail(ypath, f"expected a number, got {value!r}")
        return value


class Str(Type):
    doc = "string"

    def check(self, value, ypath, ctx):
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            ctx.fail(ypath, f"expected a string, got {value!r}")
        return value


class Ref(Str):
    """The name of something the ruleset declares (a corporation, a hex of
    the board, a tile of the manifest); checked when the ruleset names any."""

    def __init__(self, kind: str):
        self.kind = kind
        self.doc = f"{kind} name"

    def check(self, value, ypath, ctx):
        super().check(value, ypath, ctx)
        known = ctx.known.get(self.kind)
        if known and str(value) not in known:
            ctx.fail(ypath, f"unknown {self.kind} {value!r}" + did_you_mean(str(value), known))
        return value


class Bool(Type):
    doc = "true/false"

    def check(self, value, ypath, ctx):
        if not isinstance(value, bool):
            ctx.fail(ypath, f"expected true or false, got {value!r}")
        return value


class Enum(Type):
    def __init__(self, *values):
        self.values = values
        self.doc = " | ".join(show(v) for v in values)

    def check(self, value, ypath, ctx):
        if not isinstance(value, (str, int, float, bool)) or value not in self.values:
            shown = show(value)
            hint = did_you_mean(shown, [show(v) for v in self.values]) if isinstance(value, str) else ""
            ctx.fail(ypath, f"unknown value {shown!r}{hint}; allowed: "
                            + ", ".join(show(v) for v in self.values))
        return value


class Nullable(Type):
    def __init__(self, inner: Type):
        self.inner = inner
        self.doc = f"{inner.doc} or null"

    def check(self, value, ypath, ctx):
        return None if value is None else self.inner.check(value, ypath, ctx)


class OneOf(Type):
    """A value of the first type that fits its Python class."""

    def __init__(self, *options: tuple[tuple, "Type"], label: str):
        self.options = options
        self.label = label
        self.doc = label

    def check(self, value, ypath, ctx):
        for classes, typ in self.options:
            if isinstance(value, classes) and not isinstance(value, bool):
                if not isinstance(typ, Enum) or value in typ.values:
                    return typ.check(value, ypath, ctx)
        ctx.fail(ypath, f"expected {self.label}, got {value!r}")


class _Unknown:
    """The value of a number the user could not read from the game box
    (written ``unknown`` in a components file): the check that needs it is
    not made."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "unknown"

    def __bool__(self) -> bool:
        return False

    def __deepcopy__(self, memo):
        return self


#: the sentinel of a value left ``unknown``
UNKNOWN = _Unknown()


def is_unknown(value) -> bool:
    return value is UNKNOWN


class OrUnknown(Type):
    """The word ``unknown`` (kept as :data:`UNKNOWN`), or a value of ``inner``.
    Only the components file of a title uses it: a number the rules need but
    the title's summary does not give."""

    def __init__(self, inner: Type):
        self.inner = inner
        self.doc = f"{inner.doc} or unknown"

    def check(self, value, ypath, ctx):
        if value == "unknown" or value is UNKNOWN:
            return UNKNOWN
        return self.inner.check(value, ypath, ctx)


class ListOf(Type):
    def __init__(self, item: Type):
        self.item = item
        self.doc = f"list of {item.doc}"

    def check(self, value, ypath, ctx):
        if not isinstance(value, list):
            ctx.fail(ypath, f"expected a list, got {value!r}")
        return [self.item.check(v, path_join(ypath, i), ctx) for i, v in enumerate(value)]


class MapOf(Type):
    """A mapping with free keys (checked by ``key``, if given) and typed values."""

    def __init__(self, value: Type, key_doc: str = "name", key: Optional[Type] = None):
        self.value = value
        self.key = key
        self.doc = f"mapping {key_doc} -> {value.doc}"

    def check(self, value, ypath, ctx):
        if not isinstance(value, dict):
            ctx.fail(ypath, f"expected a mapping, got {value!r}")
        out = {}
        for k, v in value.items():
            p = path_join(ypath, k)
            if self.key is not None:
                self.key.check(k, p, _AtKey(ctx))
            out[k] = self.value.check(v, p, ctx)
        return out


class _AtKey:
    """A context whose messages point at the key rather than its value."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.known = ctx.known

    def fail(self, ypath, msg, key=True):
        self.ctx.fail(ypath, msg, key=True)


class PlayerCount(Type):
    doc = "player count"

    def check(self, value, ypath, ctx):
        try:
            int(value)
        except (TypeError, ValueError):
            ctx.fail(ypath, "keys must be player counts")
        return value


@dataclass(frozen=True)
class Key:
    name: str
    type: Type
    default: Any = REQUIRED
    doc: str = ""
    #: the values railcheck implements (others are refused, not ignored)
    supported: Optional[tuple] = None
    #: fill the default in when the key is absent
    fill: bool = True


class Section(Type):
    """A mapping with declared keys: unknown keys are refused, missing ones
    are filled with their defaults (``fill``)."""

    def __init__(self, name: str, keys: list[Key], doc: str = "", *, fill: bool = True,
                 require: bool = True):
        self.name = name
        self.keys = {k.name: k for k in keys}
        self.doc = "mapping" if not doc else doc
        self.fill = fill
        self.require = require

    def check(self, value, ypath, ctx, require=True):
        if not isinstance(value, dict):
            ctx.fail(ypath, f"expected a mapping, got {value!r}")
        out = {}
        for k, v in value.items():
            p = path_join(ypath, k)
            key = self.keys.get(k)
            if key is None:
                home = [n for n, x in self.keys.items()
                        if isinstance(x.type, Section) and k in x.type.keys]
                if home:
                    ctx.fail(p, f"unknown key '{k}': it belongs under '{home[0]}:'", key=True)
                ctx.unknown(p, k, self.keys, "key")
            if v is None and not isinstance(key.type, Nullable):
                continue        # "key: null" is the key left out
            out[k] = v = key.type.check(v, p, ctx)
            if key.supported is not None and v not in key.supported \
                    and v not in getattr(ctx, "implements", {}).get(p, ()):
                ctx.fail(p, f"{show(v)} is not implemented by railcheck (supported: "
                            + ", ".join(show(s) for s in key.supported) + ")")
        for name, key in self.keys.items():
            if name in out:
                continue
            if key.default is REQUIRED:
                if self.require and require:
                    ctx.fail(path_join(ypath, name), "is required")
            elif self.fill and key.fill:
                if isinstance(key.type, Section):     # a section left out: all its defaults
                    out[name] = key.type.check(copy.deepcopy(key.default),
                                               path_join(ypath, name), ctx)
                else:
                    out[name] = copy.deepcopy(key.default)
        return out


# ---------------------------------------------------------------------------
# Private companies' abilities

#: when an ability may be used (the published rules' wording)
WINDOWS = {
    "owning_company_turn": "at any time during the owning company's operating turn, also right "
                           "after the company bought the private in that turn",
    "any_time": "in the owner's stock-round turn, or between the turns of other players or "
                "companies in stock and operating rounds",
    "track_step": "during the owning company's operating turn while it may still lay track: "
                  "not once its own actions took the turn past laying track",
    "stock_round": "in a stock round only, at any moment of it (not in an operating round)",
    "on_purchase": "at once, when a player buys the private from the bank (initial auction)",
    "not_in_others_turns": "a power of the owning player: at any moment but during the "
                           "operating turn of a company another player presides",
    "on_sale": "at once, when the owning player sells the private to a corporation: the "
               "selling player uses it (a pass declines)",
    "always": "a standing rule, not an action",
}


@dataclass(frozen=True)
class AbilityKind:
    name: str
    doc: str
    #: the fields of a mapping-valued ability, or None for a scalar one
    fields: Optional[Section]
    #: a scalar ability's value
    value: Optional[Type] = None
    window: str = "always"
    example: str = ""


def _window(default: str, *others: str) -> Key:
    """The ``window`` key of an ability: its default and the other windows
    railcheck honours for it (any other value of WINDOWS is refused as not
    implemented, with the supported ones named)."""
    return Key("window", Enum(*WINDOWS), default, "when the ability may be used",
               supported=(default, *others))


def _count(default: Optional[int], fixed: bool = False) -> Key:
    return Key("count", Nullable(Int()), default, "how often it may be used (null: no limit)",
               supported=(default,) if fixed else None)


ABILITIES: dict[str, AbilityKind] = {a.name: a for a in [
    AbilityKind(
        "tile_lay", "the owning company lays a tile on one of the private's hexes",
        Section("tile_lay", [
            Key("hexes", OneOf(((list,), ListOf(Ref("hex"))), ((str,), Enum("any")),
                               label="a list of hexes or any"),
                doc="the hexes it may lay on (any: every hex)"),
            Key("tiles", OneOf(((list,), ListOf(Ref("tile"))), ((str,), Enum("any")),
                               label="a list of tiles or any"),
                doc="the tiles it may lay (any: every tile the phase allows)"),
            Key("extra", Bool(), False, "in addition to the company's own lay of the turn"),
            Key("connected", Bool(), False, "the hex must be connected to the company's network",
                supported=(False,)),
            Key("together", Bool(), False, "all its lays in one turn, each next to the last"),
            Key("after_track", Bool(), False,
                "it may be used at any moment of the owning company's turn, not only in its "
                "track step (18xx.games then keeps the round's last turn open for it)",
                supported=(False,)),
            Key("first_hex", Nullable(Ref("hex")), None,
                "a power with several lays: the first on this hex (null: any of its hexes)"),
            Key("free", Bool(), False, "no terrain cost"),
            Key("closes", Bool(), False, "the private closes when its count is used up"),
            Key("by", Enum("company", "player"), "company",
                "who lays: the corporation that owns the private, or the player who owns it "
                "(he needs no company of his, the tile no connection, and he pays the cost)"),
            _count(1), _window("owning_company_turn", "track_step", "not_in_others_turns",
                               "on_sale")]),
        window="owning_company_turn",
        example="1830's CS: one extra tile on B20, not connected"),
    AbilityKind(
        "teleport", "the owning company lays a tile on the private's hex and places a free "
                    "station there, without a connection",
        Section("teleport", [
            Key("hexes", ListOf(Ref("hex")), doc="the hexes it may lay on"),
            Key("tiles", ListOf(Ref("tile")), doc="the tiles it may lay"),
            Key("extra", Bool(), False, "in addition to the company's own lay of the turn"),
            _count(1), _window("owning_company_turn", "track_step")]),
        window="owning_company_turn",
        example="1830's DH: tile 57 on F16 as the company's lay, and a free station"),
    AbilityKind(
        "exchange", "the owning player exchanges the private for a share; the private closes",
        Section("exchange", [
            Key("corporation", Ref("corporation"), doc="whose share"),
            Key("from", ListOf(Enum("ipo", "pool")), ["ipo", "pool"], "where the share comes from"),
            _count(1, fixed=True), _window("any_time", "stock_round")]),
        window="any_time",
        example="1830's MH: a 10% NYC share from the IPO or the pool"),
    AbilityKind(
        "free_share", "the buyer of the private receives a share of a corporation",
        Section("free_share", [
            Key("corporation", Ref("corporation"), doc="whose share"),
            Key("percent", Nullable(Int()), None, "the certificate's size (absent: one share)",
                fill=False),
            Key("president", Bool(), False, "the president's certificate (its par is set next)"),
            _count(1, fixed=True), _window("on_purchase")]),
        window="on_purchase",
        example="1830's CA: a 10% PRR share; BO: the B&O president's certificate"),
    AbilityKind(
        "closes_when_bought_train", "the private closes when this corporation buys its first "
                                    "train", None, Ref("corporation"),
        example="1830's BO: B&O"),
    AbilityKind(
        "no_sale_to_corporation", "the private may not be sold to a corporation", None, Bool(),
        example="1830's BO"),
    AbilityKind(
        "available_on_event", "the private is out of play until this event of a train; then "
                              "the bank sells it at face value in stock rounds", None, Str(),
        example="1860's FFC: fishbourne_to_bank (the first 6+3)"),
    AbilityKind(
        "assign", "the owning company puts the private's token on one of its hexes: its runs "
                  "stopping there earn a bonus for the rest of the game",
        Section("assign", [
            Key("hexes", ListOf(Ref("hex")), doc="the hexes the token may go on"),
            Key("bonus", Int(), doc="what a run stopping there earns more"),
            Key("closes", Bool(), True, "the private closes when the token is placed"),
            _count(1), _window("owning_company_turn")]),
        window="owning_company_turn",
        example="18Ireland's TASPS: +20 on Galway"),
    AbilityKind(
        "shannon_link", "one run of the owning company stopping at either hex also earns the "
                        "other's revenue",
        Section("shannon_link", [
            Key("hexes", ListOf(Ref("hex")), doc="the two linked hexes"),
            _count(None), _window("always")]),
        example="18Ireland's RSSC: Dromod F10 - Limerick D16"),
    AbilityKind(
        "second_upgrade", "the owning company's second lay of a turn may be an upgrade",
        Section("second_upgrade", [
            Key("cost", Int(), doc="what that second upgrade costs"),
            _count(None), _window("always")]),
        example="18Ireland's WDE: for 30"),
    AbilityKind(
        "tile_discount", "the owning company's lays on hexes whose only terrain is this cost "
                         "that much less",
        Section("tile_discount", [
            Key("terrain", Str(), doc="the terrain (a hex with another terrain as well is not "
                                      "discounted)"),
            Key("discount", Int(), doc="how much less")]),
        example="1889's SMR: mountains for 80 less"),
    AbilityKind(
        "open_while_player_owned", "the private does not close (at a close_companies event) "
                                   "while a player owns it", None, Bool(),
        example="1889's UTF"),
    AbilityKind(
        "player_revenue_from_phase", "from this phase on, while a player owns it, the private "
                                     "pays another revenue",
        Section("player_revenue_from_phase", [
            Key("phase", Str(), doc="the phase"),
            Key("revenue", Int(), doc="its revenue then")]),
        example="1889's UTF: 50 from phase 5"),
    AbilityKind(
        "closes_other_companies", "buying the private closes every other private (and frees "
                                  "the reserved shares)", None, Bool(),
        example="1860's FFC"),
]}


class Abilities(Type):
    doc = "mapping ability -> its fields (see below)"

    def check(self, value, ypath, ctx):
        if not isinstance(value, dict):
            ctx.fail(ypath, f"expected a mapping of abilities, got {value!r}")
        out = {}
        for k, v in value.items():
            p = path_join(ypath, k)
            kind = ABILITIES.get(k)
            if kind is None:
                ctx.unknown(p, k, ABILITIES, "private ability")
            if kind.fields is not None:
                out[k] = kind.fields.check({} if v is None else v, p, ctx)
            else:
                out[k] = kind.value.check(v, p, ctx)
        return out


# ---------------------------------------------------------------------------
# The ruleset

TILE_COLORS = ("yellow", "green", "brown", "gray")

PLAYERS = Section("players", [
    Key("min", Int(), doc="fewest players"),
    Key("max", Int(), doc="most players")])

AUCTION = Section("auction", [
    Key("min_increment", Int(), 5, "a bid is at least this much over the last (or the face value)"),
    Key("bid_multiple", Bool(), False, "bids must be multiples of min_increment",
        supported=(False,)),
    Key("unbid_companies_removed", Bool(), False,
        "waterfall: everybody passed after a private was bought: the privates nobody bid on "
        "leave the game"),
    Key("dk_starts_dkr", Bool(), False,
        "18Ireland: the buyer of the free_share private starts its minor at the highest par "
        "value not above half the price paid, the price going to the minor, which buys the "
        "first train at once"),
    Key("price_drop_on_all_pass", Int(), 0, "waterfall: everybody passed while the lowest-valued "
                                            "private is unsold: its price drops by this"),
    Key("resume_after_resolution", Enum("turn", "last_buyer"), "turn",
        "waterfall: after a private is sold to its bidders, play goes on where it was (turn: "
        "1830), or with the player left of the one who bought it (last_buyer: Kansai's A4)"),
    Key("opening_bid", Enum("face", "increment"), "face",
        "choose-and-bid: the opening bid is at least the face value, or face + min_increment"),
    Key("after", Enum("order_by_cash", "keep", "priority_most_cash"), "order_by_cash",
        "player order afterwards: by cash, most first; the drawn order; or the drawn order "
        "with priority to the player with the most cash (tie: of all players owning a "
        "private, the one with the lowest face value of privates)"),
    Key("kind", Enum("title", "bid_for_turn"), "title",
        "the auction's form: the title's own round, or bids for the turn (the winner pays "
        "their bid, then takes one item)"),
    Key("items", ListOf(Str()), [], "bid_for_turn: what is sold (privates and president's "
                                    "certificates, by sym)"),
    Key("max_bid", Enum("cash", "cash_less_cheapest_item"), "cash",
        "bid_for_turn: the most a player may bid: their cash, or their cash less the price of "
        "the cheapest item left"),
    Key("winner_buys", ListOf(Enum("company_at_face", "president_certificate")),
        ["company_at_face"], "bid_for_turn: what the winner may take: a private at its face "
                             "value, a president's certificate (par from par_range, twice "
                             "the par paid)"),
], "section")

STOCK = Section("stock", [
    Key("sell_after", Enum("any", "first", "operate", "first_and_operate"), "first",
        "when shares may be sold: any time; not in the first SR; not before the corporation "
        "operated; both"),
    Key("over_cert_limit", Enum("sell_down", "not_checked"), "sell_down",
        "a player over the certificate limit (a price left a zone outside it) must sell down "
        "in their turn; not_checked: railcheck does not check it for this title yet"),
    Key("private_trades_after", Enum("any", "first"), "first",
        "players may buy privates from each other (in the phases with private_trades): any "
        "stock round, or not in the first"),
    Key("private_trade_is_buy", Bool(), True,
        "a private bought from another player is the stock-round turn's one purchase (false: "
        "it comes besides the turn's share, and several may be bought)"),
    Key("sell_buy_order", Enum("sell_buy_sell", "sell_buy", "sell_buy_or_buy_sell"),
        "sell_buy_sell",
        "may a player sell after buying in the same turn: always; never; only when he did not "
        "sell before buying (sell then buy, or buy then sell)"),
    Key("holding_limit", Int(), 60, "percent of one corporation a player may hold"),
    Key("pool_limit", Int(), 50, "percent of one corporation the bank pool may hold"),
    Key("sell_movement", Enum("down_share", "down_per_sale", "left_share"), "down_share",
        "price movement on a sale: a row down per share, a row down per sale, a column left "
        "per share"),
    Key("sold_out_increase", Bool(), True,
        "up one row at the end of an SR when no share is in the IPO or the pool"),
    Key("sold_out_top_row", Enum("none", "right"), "none",
        "sold out on the top row (sold_out_increase): the price stays, or moves one cell right"),
    Key("pool_share_dividends", Enum("corporation", "none"), "corporation",
        "who is paid the dividends of shares in the bank pool"),
    Key("ipo_share_dividends", Enum("corporation", "none"), "none",
        "who is paid the dividends of shares still in the IPO"),
    Key("next_sr_order", Enum("after_last_to_act", "cash"), "after_last_to_act",
        "who starts the next SR: the player after the last to act, or order by cash"),
    Key("president_sales_to_market", Bool(), False,
        "the president's certificate may be sold to the pool (with nobody to take the "
        "presidency the corporation is in receivership)", supported=(False,)),
    Key("capitalization", Enum("full", "incremental"), "full",
        "full: the treasury receives par for every share when the corporation floats (10 x par "
        "for 10 shares); incremental: each share bought from the IPO pays the treasury"),
    Key("float_percent", Int(), 60, "percent sold from the IPO that floats a corporation"),
    Key("float_counts_market", Bool(), True,
        "shares bought from the pool count towards floating (false: only the IPO's)"),
    Key("must_sell_in_blocks", Bool(), False,
        "one sale per corporation per turn (no second sale of it in that turn)"),
    Key("no_buy_after_sale", Bool(), True,
        "no buying a corporation's share after selling it in the same stock round"),
    Key("trainless_share_value", Enum("full", "half"), "full",
        "shares of a corporation that owns no train sell and score at this value (half: "
        "rounded down)"),
    Key("no_sale_drop", Section("no_sale_drop", [
        Key("not_operated", Bool(), False, "a corporation that has not operated yet"),
        Key("after_event", Nullable(Str()), None, "once this train event has happened"),
    ]), {}, "when a sale does not lower the price"),
    Key("ignore_one_sale_zone", Nullable(Str()), None,
        "a sale whose price is on a cell of this zone letter moves one share fewer"),
    Key("ignore_one_sale_per", Enum("sale", "player_round"), "sale",
        "how often that exception applies: every sale action, or a player's first sale of "
        "the corporation in a stock round"),
    Key("home_track_on_float", Bool(), False,
        "on floating, if the home hex has no tile, the president lays a yellow tile there "
        "at once (no cost)", supported=(False,)),
    Key("buy_one_certificate", Bool(), False,
        "at most one certificate bought per turn in every zone"),
    Key("minor_pool_limit", Nullable(Int()), None,
        "percent of a minor the bank pool may hold (null: pool_limit)"),
    Key("always_market_price", Bool(), False,
        "shares bought from the treasury cost the market price, not the par value"),
    Key("home_station", Enum("first_operation", "at_par", "operating_round"), "first_operation",
        "when the home station goes on the map: at the company's first turn, when it is "
        "started, or at the start of the first operating round in which it operates (every "
        "company's at once)"),
    Key("minor_auction", Nullable(Section("minor_auction", [
        Key("min_bid", Int(), doc="the lowest opening bid"),
        Key("multiple", Int(), doc="bids are multiples of this"),
        Key("par", Enum("half_bid"), "half_bid",
            "the par: the highest par value not above half the winning bid"),
    ])), None, "minors are started by an auction in a player's stock-round turn (the minor on "
               "top of the stack; the bid goes to its treasury); null: no such auction"),
    Key("no_minor_started_closes_top", Bool(), False,
        "a stock round in which no minor was started closes the minor on top of the stack"),
    Key("majors_par_from_phase", Nullable(Str()), None,
        "majors may be parred by players only from this phase on (null: always)"),
    Key("major_home", Nullable(Enum("any_free_city")), None,
        "a started major places its home station on any free city slot (null: its printed "
        "home)", supported=(None,)),
], "section")

OPERATING = Section("operating", [
    Key("tile_lays", Int(), 1, "tile lays or upgrades per company per turn"),
    Key("tokens_per_turn", Int(), 1, "stations a company may place per turn"),
    Key("reserved_slots_block_stations", Bool(), True,
        "a home slot reserved for a company not yet started is closed to other companies' "
        "stations (false: only to home stations; the company then places its home elsewhere)"),
    Key("unnamed_home_closes_hex", Bool(), False,
        "a company's home on a hex of several cities whose city is not named closes every city "
        "of the hex to other companies' stations until its home station is placed"),
    Key("must_buy_train", Enum("route", "always", "never"), "route",
        "a company without a train must buy one: when it has a route, always, never"),
    Key("buy_from_others", Bool(), True, "companies may buy trains from each other"),
    Key("emergency_buy_cheapest", Bool(), True,
        "a forced buy from the depot must be the cheapest train"),
    Key("emergency_from_others", Enum("value", "any", "none"), "value",
        "a forced buy from another company: at most face value, any price, not allowed"),
    Key("emergency_keeps_presidencies", Bool(), False,
        "the president's emergency sales may hand over the presidency of no corporation "
        "(false: only that of the company he raises money for is kept)"),
    Key("emergency_sell_more_than_needed", Bool(), False,
        "the president may sell more shares than the forced buy needs"),
    Key("dividend_kinds", ListOf(Enum("payout", "withhold")), ["payout", "withhold"],
        "what a company may do with its revenue"),
    Key("obsolete_trains_count", Bool(), False, "obsolete trains count for the train limit"),
    Key("order", Enum("share_price"), "share_price",
        "corporations operate by price, highest first; on one cell the marker on top first"),
    Key("second_lay", Enum("any", "yellow_if_first_not_upgrade_or_city",
                           "yellow_if_first_not_upgrade"), "any",
        "with tile_lays 2: what the second lay may be (the others: the track steps of the "
        "titles that implement them)", supported=("any",)),
    Key("second_lay_cost", Int(), 0, "what the second lay of a turn costs besides terrain"),
    Key("narrow_track_free", Bool(), False, "a tile whose track is all narrow gauge pays no "
                                            "terrain cost"),
    Key("issue_redeem", Nullable(Section("issue_redeem", [
        Key("per_turn", Int(), 1, "shares issued or redeemed per turn"),
    ])), None, "a company may sell one of its treasury shares to the pool or buy one back "
               "from it, before laying track (null: not)"),
    Key("upgrade_needs_train_reach", Bool(), False,
        "an upgrade only where the company's biggest train can reach (none without a train)",
        supported=(False,)),
    Key("track_restriction", Enum("permissive", "semi_restrictive"), "permissive",
        "semi_restrictive: a lay must add track the company can use or change a reachable "
        "city's value"),
    Key("terrain_cost", Nullable(Int()), None, "a note of the terrain cost (the board holds "
                                               "the costs)"),
    Key("halt_subsidy", Int(), 0, "each halt counted on a run pays this to the treasury"),
    Key("must_buy_needs_cash_above_cheapest", Bool(), False,
        "a company without a train must buy one only while its cash exceeds the cheapest "
        "depot train"),
    Key("president_contributes", Bool(), True,
        "the president pays towards a forced train purchase (false: never; no emergency "
        "sales)"),
    Key("train_trade", Section("train_trade", [
        Key("min_price", Int(), 1, "the lowest price"),
        Key("multiple", Int(), 1, "prices are multiples of this"),
        Key("seller_keeps_one_if_buyer_has_trains", Bool(), False,
            "not when the buyer owns a train and the seller only one"),
    ]), {}, "trains sold between corporations (the defaults: any price from 1)"),
    Key("routes", Section("routes", [
        Key("home_station_in_one_route", Bool(), False, "one run visits the home station",
            supported=(False,)),
        Key("routes_must_intersect", Bool(), False, "every run shares a stop with another",
            supported=(False,)),
        Key("no_hex_reentry", Bool(), False, "a run may not enter a hex twice",
            supported=(False,)),
        Key("cannot_end_at_halt", Bool(), False, "a run may not start or end at a halt",
            supported=(False,)),
        Key("may_skip_towns_and_halts", Bool(), False,
            "towns and halts may be passed without counting them (false: every town a run "
            "passes counts, within the train's towns and unused city places)",
            supported=(False,)),
        Key("bypass_one_blocked_city", Bool(), False,
            "one run per turn may pass one city full of others' stations", supported=(False,)),
        Key("flipped_tokens_block", Bool(), True,
            "stations of a bankrupt corporation block runs", supported=(True,)),
        Key("broad_gauge_only", Bool(), False, "a run may use broad gauge track only",
            supported=(False,)),
        Key("narrow_gauge_bonus", Bool(), False,
            "each stop of a run adds the revenue of the towns it reaches over narrow gauge only",
            supported=(False,)),
    ]), {}, "the rules of runs"),
], "section")

END = Section("end", [
    Key("bank", Nullable(Enum("immediate", "full_or", "current_or")), None,
        "the bank breaks: the game ends at once, after the current set of ORs, or after the "
        "current OR (the next one if it broke in a stock round) (null: it does not end the "
        "game)"),
    Key("stock_market", Nullable(Enum("current_or", "current_round")), None,
        "a price reaches an end_game cell: the game ends after the current OR, or after the "
        "current round (stock, operating or merger)"),
    Key("nationalization", Nullable(Enum("immediate")), None,
        "nationalisation has stopped every corporation: the game ends at once"),
    Key("bankrupt", Nullable(Enum("immediate", "full_or")), None,
        "a player goes bankrupt: the game ends at once, or after the current set of ORs"),
], "section")

SETUP = Section("setup", [
    Key("home_stations_at_start", Bool(), False,
        "every home station is on the map from the start of the game"),
    Key("start_station", Enum("home", "extra"), "home",
        "home: the station on the map from the start is the company's home station, the first "
        "of its markers; extra: it is a marker added to the company's own (one marker more, "
        "at the price of its last one; the next stations still cost as listed)"),
    Key("protected_companies", ListOf(Str()), [], "privates always in play (the others are "
                                                  "drawn)", fill=False),
    Key("keep_companies", Nullable(Int()), None, "privates in play after the draw (null: all)",
        fill=False),
    Key("protected_minor", Nullable(Str()), None, "the minor never drawn out, on top of the "
                                                  "stack", fill=False),
    Key("remove_minors", Int(), 0, "minors drawn out of the game", fill=False),
    Key("rand", Nullable(MapOf(Int(), "constant")), None,
        "the site's random generator for the draw: {a, c, m} (x -> (a x + c) mod m)",
        fill=False),
    Key("deal_companies", Bool(), False,
        "no auction: the privates are dealt one to each player in seating order, each "
        "paying its value; the order is drawn from the game's seed with `rand` (one draw per "
        "private in list order, smallest first), or named by the header's `privates:`"),
], "section")

COMPANY_SALES = Section("company_sales", [
    Key("min_factor", Number(), 0.5, "a corporation pays at least this times the face value"),
    Key("max_factor", Number(), 2.0, "and at most this times the face value"),
], "section")

MARKET = Section("market", [
    Key("rows", ListOf(ListOf(Str())), doc="the rows, top first: price + zone letters "
                                            "(p par, and the zones' letters); \"\" = no cell"),
    Key("zones", MapOf(ListOf(Enum("no_cert_limit", "unlimited", "multiple_buy", "par",
                                   "repar", "ignore_one_sale", "bankrupt", "end_game",
                                   "close")),
                       "letter"),
        {}, "what each zone letter means (par, repar: par prices (after a bankruptcy); "
            "ignore_one_sale: see stock.ignore_one_sale_zone; bankrupt: the corporation goes "
            "bankrupt; end_game: the game ends; close: the corporation closes)"),
    Key("zigzag", Bool(), False, "one row read as a zig-zag: a dividend step right or left "
                                 "is 2 cells, a share sold 1 cell left", supported=(False,)),
    Key("ledge", Bool(), False, "a move past either end stops on the end cell"),
    Key("dividend_steps", Nullable(ListOf(Int())), None,
        "multiples of the price a payout must reach for 1, 2, ... steps right (null: the "
        "grid's own rule)"),
    Key("minor_dividend_steps", Nullable(ListOf(Int())), None,
        "the same for minors (null: dividend_steps)"),
], "section")

CORPORATION_KEYS = [
    Key("sym", Str(), doc="short name"),
    Key("name", Str(), None, "full name (default: sym)"),
    Key("home", Nullable(Ref("hex")), None, "the home hex"),
    Key("home_city", Nullable(Int()), None, "which city of the home hex (0 = first)"),
    Key("tokens", ListOf(Int()), doc="the price of each station, the home's first"),
    Key("shares", ListOf(Int()), [20] + [10] * 8, "the certificates in percent, president's "
                                                  "first; they add up to 100"),
    Key("float_percent", Int(), None, "percent sold that floats it (default: "
                                      "stock.float_percent)"),
    Key("kind", Enum("major", "minor", "state"), None,
        "major (default), minor or state railway: train limits and rules may differ by kind"),
    Key("section", Nullable(Int()), None, "its section (see top-level `sections`)"),
    Key("reserved_share", Bool(), False, "its last 10% certificate is kept for the exchange "
                                         "of a private until that is made"),
    Key("color", Nullable(Str()), None, "its colour (CSS: '#rrggbb' or a colour name), for "
                                       "the analyser's charts and the board picture"),
    Key("max_ownership_percent", Nullable(Int()), None,
        "percent of it a player may hold (null: stock.holding_limit)"),
]
CORPORATION = Section("corporation", CORPORATION_KEYS, "mapping", fill=False, require=False)

COMPANY = Section("company", [
    Key("sym", Str(), doc="short name"),
    Key("name", Str(), None, "full name (default: sym)"),
    Key("value", Int(), doc="face value"),
    Key("revenue", Int(), doc="income per operating round"),
    Key("blocks", ListOf(Ref("hex")), [], "hexes nobody may lay track on while it is open"),
    Key("min_players", Nullable(Int()), None,
        "the private is in the game only with at least this many players (null: always)"),
    Key("special", Abilities(), {}, "its abilities (see below)"),
])

TRAIN = Section("train", [
    Key("name", Str(), doc="the train type"),
    Key("distance", OneOf(((int,), Int()), ((dict,), MapOf(Int())),
                          label="an integer, a mapping or null"), None,
        "how far it runs: a number of stops, {cities: N, towns: M} (an n+m train), "
        "{hexes: N} (hexes entered), or null (unlimited); see railcheck/mechanics/reach.py"),
    Key("gauge", Enum("any", "broad", "narrow"), "any", "the track it runs on"),
    Key("price", Int(), doc="price from the depot"),
    Key("count", OneOf(((int,), Int()), ((str,), Enum("unlimited")),
                       label="an integer or unlimited"), "unlimited", "how many there are"),
    Key("rusts_on", Nullable(Str()), None, "rusts when the first train of this type is bought"),
    Key("obsolete_on", Nullable(Str()), None, "becomes obsolete when this type is bought"),
    Key("available_on", Nullable(Str()), None, "sold only after this type was bought"),
    Key("events", ListOf(Str()), [], "what buying the first one does (close_companies, or an "
                                     "event of the title's class)"),
    Key("primed", Bool(), False, "not in the depot at the start: one comes into the bank pool "
                                 "for each train that rusts into it (primed_trains)"),
    Key("trade_in", MapOf(Int(), "train"), {}, "trains that may be traded in for this one, "
                                               "each counting the value given"),
    Key("exchange", Nullable(Section("train exchange", [
        Key("trains", ListOf(Str()), doc="train types that may be traded in"),
        Key("discount", Int(), doc="what a traded-in train is worth")])), None,
        "a train traded in for a discount"),
])

PHASE = Section("phase", [
    Key("name", Str(), doc="the phase's name"),
    Key("on", Nullable(Str()), None, "the train whose first sale starts it (null: the first)"),
    Key("tiles", ListOf(Enum(*TILE_COLORS)), doc="tile colours that may be laid"),
    Key("train_limit", OneOf(((int,), Int()), ((dict,), MapOf(Int(), "kind", Enum("major", "minor", "state"))),
                             label="an integer or a mapping by company kind"),
        doc="trains a corporation may own: one number, or one per kind ({major: 4, minor: 2})"),
    Key("events", ListOf(Str()), [], "what the start of the phase does (close_companies, or "
                                     "an event of the title's class)"),
    Key("operating_rounds", Int(), doc="ORs between stock rounds"),
    Key("company_buy", Bool(), False, "corporations may buy privates from players"),
    Key("private_trades", Bool(), False, "players may buy privates from each other in their "
                                         "stock-round turn (the turn's one purchase)"),
])

OPTION = Section("option", [
    Key("description", Str(), "", "one line for `rules show`"),
    Key("set", Nullable(MapOf(Type(), "top-level key")), None,
        "what the option changes, written like a child ruleset (checked when loaded)"),
])

# the board's own module reads these (its defaults are there: docs/board.md)
BOARD = Section("board", [
    Key("layout", Enum("pointy", "flat"), None, "the hexes' orientation"),
    Key("axes", Type(), None, "how coordinates are read"),
    Key("impassable_colors", ListOf(Str()), None,
        "no new track into these hexes' edges without a path"),
    Key("fixed_rotation_tiles", ListOf(Str()), None, "tiles laid only at rotation 0"),
    Key("small_map", Type(), None, "a smaller map: remove_hexes, add_hexes, remove_tile_copies"),
    Key("use_small_map", Bool(), False, "play on small_map (an option sets it)"),
    Key("color_order", ListOf(Str()), None, "the upgrade order of tile colours"),
    Key("tiles", MapOf(Type(), "tile name"), None, "the tile manifest"),
    Key("hexes", MapOf(Type(), "coordinate"), None, "the map"),
], "mapping (see docs/board.md)", fill=False)

TOP_KEYS = [
    Key("title", Str(), None, "the title's id (default: the name it is loaded by)"),
    Key("full_name", Str(), None, "the title's full name"),
    Key("extends", Nullable(Str()), None, "a title or a YAML file (relative to this one) this "
                                          "ruleset changes; a user's file must extend one"),
    Key("include", MapOf(Str(), "key"), {}, "further YAML files merged under a key "
                                            "(`board: board.yaml`)", fill=False),
    Key("base_title", Str(), None, "set by the loader: the built-in title whose rounds play it",
        fill=False),
    Key("players", PLAYERS, doc="player counts"),
    Key("currency", Str(), "$", "the money sign"),
    Key("bank", Int(), doc="the bank's cash"),
    Key("bank_counts", Enum("bank", "players_cash"), "bank",
        "what breaks the bank: its own cash paying out, or the players' cash together "
        "exceeding `bank` (the bank itself is then unlimited)"),
    Key("starting_cash", MapOf(Int(), "players", PlayerCount()), doc="each player's cash by "
                                                                    "player count"),
    Key("cert_limit", MapOf(Int(), "players", PlayerCount()), doc="certificate limit by player "
                                                                  "count"),
    Key("cert_limit_includes_privates", Bool(), True, "private companies count towards the "
                                                      "certificate limit"),
    Key("auction", AUCTION, {}, "the initial auction of the privates"),
    Key("stock", STOCK, {}, "stock rounds"),
    Key("sections_open", Enum("immediately", "next_sr"), "immediately",
        "a section opens as soon as its test holds, or from the next stock round (a par of "
        "a section opened during the current stock round is then flagged, `stock.section`, "
        "and made as recorded)"),
    Key("sections", MapOf(ListOf(Ref("corporation")), "section"), {},
        "corporations by section: section n+1 opens when a corporation of section n or "
        "later has no share left in its IPO or has operated (empty: no sections)"),
    Key("par_range", MapOf(ListOf(Int()), "section"), {},
        "the par prices a corporation may start at, by section ([low, high])"),
    Key("repar_range", MapOf(ListOf(Int()), "section"), {},
        "the par prices after the corporation went bankrupt, by section"),
    Key("market", MARKET, doc="the stock market"),
    Key("corporations", ListOf(CORPORATION), doc="the corporations"),
    Key("corporation_defaults", CORPORATION, {}, "keys every corporation has unless it says "
                                                 "otherwise"),
    Key("companies", ListOf(COMPANY), [], "the private companies"),
    Key("company_sales", COMPANY_SALES, {}, "privates sold by players to corporations"),
    Key("company_exchange", Section("company_exchange", [
        Key("needs_ipoed", Bool(), False, "only once the corporation has been parred"),
        Key("counts_as_buy", Bool(), True, "the exchange is the turn's buy"),
    ]), {}, "exchanges of privates for shares"),
    Key("company_sale_to_bank", Nullable(Section("company_sale_to_bank", [
        Key("fee", Int(), 0, "the bank pays the face value less this"),
        Key("from_stock_round", Int(), 1, "from this stock round on"),
    ])), None, "players may sell privates to the bank in stock rounds (null: not)"),
    Key("trains", ListOf(TRAIN), doc="the trains, in order of sale"),
    Key("phases", ListOf(PHASE), doc="the phases, in order"),
    Key("events", MapOf(Str(), "event"), {}, "what the title's own events do (a note each)"),
    Key("primed_trains", MapOf(Str(), "train"), {},
        "a rusted train of this type puts a primed train of the type given into the bank pool"),
    Key("merger", Nullable(Section("merger", [
        Key("from_phase", Str(), doc="merger rounds follow each set of ORs from this phase"),
        Key("max_minors", Int(), 3, "minors in one proposal"),
        Key("vote", Enum("per_share"), "per_share", "one vote per share held"),
        Key("pool_votes", Enum("by_price"), "by_price",
            "the pool's shares vote for when the new price is higher, against when lower"),
        Key("majority", Enum("more_than_half"), "more_than_half",
            "votes for must be more than half of those cast"),
        Key("exchange", Enum("two_for_one"), "two_for_one",
            "one 10% share of the major per 20% share of a minor"),
        Key("new_price", Enum("top_row_left_column"), "top_row_left_column",
            "the major's price: the highest row and leftmost column of the minors' prices"),
        Key("tokens_after", Int(), 3, "stations the major keeps"),
    ])), None, "merger rounds of minors into majors (null: none)"),
    Key("player_bankruptcy", Section("player_bankruptcy", [
        Key("holders_paid_market_price", Bool(), False,
            "the other holders of the bankrupt president's companies are paid the market "
            "price by the bank"),
        Key("ends_game_after", Enum("one", "all_but_one"), "one",
            "the end.bankrupt timing applies after the first bankruptcy, or once all players "
            "but one are bankrupt"),
        Key("leftovers", Enum("leave", "keep"), "leave",
            "a bankrupt president's privates and the shares they could not sell: these leave "
            "the game with the player, or stay theirs (they are paid the income and dividends, "
            "may sell the privates to companies, and these count in their net worth)"),
    ]), {}, "what a president's bankruptcy does besides the shared rules (the defaults: "
            "nothing)"),
    Key("operating", OPERATING, {}, "operating rounds"),
    Key("end", END, {}, "what ends the game"),
    Key("insolvency", Nullable(Section("insolvency", [
        Key("lease_base", Int(), doc="a leased run pays this ..."),
        Key("lease_per_stop", Int(), doc="... plus this per stop"),
        Key("withhold", Bool(), True, "an insolvent corporation withholds everything"),
    ])), None, "a corporation with a route and no train leases one (null: no insolvency)"),
    Key("receivership", Nullable(Section("receivership", [
        Key("lay_track", Bool(), False, "it lays track"),
        Key("place_tokens", Bool(), False, "it places stations"),
        Key("withhold", Bool(), True, "it withholds"),
    ])), None, "a floated corporation with its president's certificate in the pool "
               "(null: it cannot happen)"),
    Key("bankruptcy", Nullable(Section("bankruptcy", [
        Key("min_repar", Int(), doc="the lowest par when it starts again"),
        Key("restart_stock_round", Bool(), True, "a stock round in progress starts again"),
    ])), None, "a corporation whose price reaches a bankrupt cell (null: none)"),
    Key("nationalisation", Nullable(Section("nationalisation", [
        Key("southern_train", Str(), doc="the train whose first sale forms the Southern "
                                         "Railway"),
        Key("test_from", Enum("southern_formed", "after_set"), "southern_formed",
            "when the test begins: at the purchase of that train, or after the set of "
            "operating rounds in which it was bought (first at the end of the next stock "
            "round)"),
        Key("stop_lowest", Int(), 2, "how many of the lowest earners stop after each OR"),
        Key("ends_game_when_all_stopped", Bool(), True, "the game ends when all stopped"),
    ])), None, "the end game of 1860 (British Rail); null: none"),
    Key("setup", SETUP, {}, "the start of the game"),
    Key("net_worth", ListOf(Enum("cash", "shares", "companies")), ["cash", "shares", "companies"],
        "what counts for a player's net worth"),
    Key("options", MapOf(OPTION, "option"), {}, "game options a game may select"),
    Key("differences", MapOf(Str(), "top-level key"), {},
        "a derived title's notes on what it changes, by top-level key (`rules show`)"),
    Key("board", BOARD, None, "the map and tile manifest (docs/board.md)", fill=False),
]
RULESET = Section("ruleset", TOP_KEYS)

# the notes of `differences` are about top-level keys
RULESET.keys["differences"] = Key("differences", MapOf(Str(), "top-level key",
                                                       Enum(*RULESET.keys)), {},
                                  RULESET.keys["differences"].doc)


# ---------------------------------------------------------------------------
# 1890's section: the keys of ``railcheck/titles/kansai/rules.yaml``, what the title's summary
# states.  Its numbers (bank, cash, market grid, prices) come from a components file
# (``titles/kansai/components.py``), where a number may be ``unknown``; the shared readers of
# the money numbers (``ruleset.money_numbers``) give None or nothing for it.  A section here
# reuses the shared one's keys where 1890's file writes them and adds 1890's own (the tables
# of docs/rulesets.md list 1890's own).

def _own(section: Section, name: str, own: list[Key], doc: str = "section") -> Section:
    """The shared ``section``'s keys and 1890's ``own`` ones (marked for the reference)."""
    out = Section(name, [*section.keys.values(), *own], doc)
    out.own = [k.name for k in own]       # type: ignore[attr-defined]
    return out


_PHASE_NAME = Str()

STOCK_1890 = _own(STOCK, "stock", [
    Key("capital_par_times", Int(), doc="SB3: a company receives this times its par value from "
                                        "the bank when it floats (KNR: knr.float_cash_par_times)"),
])

CORPORATION_1890 = Section("1890 corporation", [
    Key("sym", Str(), doc="short name"),
    Key("name", Str(), doc="full name"),
    Key("kind", Enum("minor", "major", "state"),
        doc="minor (one 100% certificate, N0), major, or state (JR while the state railway: "
            "the train limit's third column)"),
    Key("home_name", Nullable(Str()), None, "a minor's home: one of the components file's "
                                            "places (map: places)"),
    Key("price", Nullable(Int()), None, "a minor's printed price (N0)"),
    Key("capital", Nullable(Int()), None, "a minor's printed capital, its treasury when bought"),
    Key("par", Nullable(Int()), None, "a fixed par value (JR's 100, J0)"),
    Key("area_names", ListOf(Str()), [], "OMS's area: the places where the others' stations "
                                         "do not count for it (C6)"),
    Key("bonus", Nullable(Section("bonus", [
        Key("place_name", Str(), doc="the place"),
        Key("amount", Int(), doc="paid to the treasury every OR"),
        Key("tile_color", Nullable(Enum(*TILE_COLORS)), None,
            "paid once the place's tile is of this colour (Hanshin's brown Nishinomiya, C2)"),
        Key("needs", Nullable(Enum("station")), None,
            "paid while the company has a station there (Hankyu's Takarazuka, C9)"),
    ])), None, "a company's income from a place, from the bank"),
], "mapping")

_PHASES_LIST = OneOf(((str,), _PHASE_NAME), ((list,), ListOf(_PHASE_NAME)),
                     label="a phase or a list of phases")

KNR_1890 = Section("knr", [
    Key("for_sale_shares", Int(), doc="K7: KNR's shares for sale (the rest are reserved for "
                                      "the minors' owners)"),
    Key("float_cash_par_times", Int(), doc="K8: KNR receives this times its par when it starts"),
    Key("first_or_no_withhold_drop", Bool(), False,
        "K9: in KNR's first OR a withhold does not move its price"),
    Key("conversions", ListOf(Section("conversion", [
        Key("minor", Str(), doc="the converting minor"),
        Key("from", Nullable(_PHASES_LIST), None,
            "the phase from which it may convert (a list: the summary is unclear, the bounds "
            "both readings share)"),
        Key("when", Nullable(Enum("knr_started")), None, "it may convert once KNR started"),
        Key("mandatory", Nullable(_PHASES_LIST), None,
            "the phase in which it must convert (at the latest in its first turn of it, K1)"),
        Key("receives", OneOf(((str,), Enum("president")), ((list,), ListOf(Int())),
                              label="president or a list of percents"),
            doc="the KNR certificates its owner receives"),
        Key("moves", Enum("all_assets", "half_cash_up_and_trains"),
            doc="what the minor brings to KNR (K2-K5)"),
    ])), doc="the minors' conversions, in the order the rules list them"),
], "section")

COMPANY_1890 = Section("1890 private", [
    Key("sym", Str(), doc="short name"),
    Key("name", Str(), doc="full name"),
    Key("revenue_from_phase", Nullable(MapOf(Int(), "phase", _PHASE_NAME)), None,
        "its income from a phase on (Hankai's 5 from phase 4, P3); else the components "
        "file's"),
], "mapping")

LATE_1890 = Section("late_companies", [
    Key("available_on", Str(), doc="L0: the late privates may be bought once the first train "
                                   "of this type is sold"),
    Key("items", ListOf(Section("late private", [
        Key("sym", Str(), doc="short name"),
        Key("name", Str(), doc="full name"),
        Key("income_to", Nullable(Section("income_to", [
            Key("corporation", Str(), doc="the company paid instead of the owner"),
            Key("place_name", Str(), doc="once it has a station at this place (L1)")])), None,
            "its income goes to a company"),
        Key("once", Nullable(Section("once", [
            Key("after_first", _PHASE_NAME, doc="in the first OR after the first train of "
                                                "this type"),
            Key("amount", Int(), doc="paid once to the owner by the bank (L3)")])), None,
            "a payment made once"),
        Key("station_bonus", Nullable(Section("station_bonus", [
            Key("place_name", Str(), doc="the place"),
            Key("amount", Int(), doc="paid every OR to each company with a station there "
                                     "(L4)")])), None,
            "a bonus to the companies with a station at a place"),
    ], "mapping")), doc="the late privates"),
], "section")

TRAIN_1890 = Section("1890 train", [
    Key("name", Str(), doc="the train type"),
    Key("distance", TRAIN.keys["distance"].type, None,
        "how far it runs (the 3+3's and D's: the components file)"),
    Key("rusts_on", Nullable(Str()), None, "rusts when the first train of this type is bought"),
    Key("available_on", Nullable(Str()), None, "sold only after this type was bought (F7)"),
    Key("exchange", Nullable(Section("train exchange", [
        Key("trains", ListOf(Str()), doc="train types that may be traded in (the discount: "
                                         "the components file's trade_in)")])), None,
        "a train traded in (F6)"),
], "mapping")

PHASE_1890 = Section("1890 phase", [
    Key("name", _PHASE_NAME, doc="the phase's name"),
    Key("on", Nullable(Str()), doc="the train whose first sale starts it (null: the first)"),
    Key("tiles", ListOf(Enum(*TILE_COLORS)), doc="tile colours that may be laid"),
    Key("train_limit", MapOf(Int(), "kind", Enum("minor", "major", "state")),
        doc="trains a company may own, by kind"),
    Key("operating_rounds", Int(), doc="ORs after each stock round (F3)"),
    Key("revenue_level", Enum("low", "middle", "high"), doc="which of the map's three values "
                                                            "the places pay (F1)"),
    Key("jr_tile_lays", Int(), doc="JR's lays or upgrades per turn, on different hexes (J3)"),
    Key("company_buy", Bool(), False, "companies may buy privates from players (O6)"),
    Key("events", ListOf(Str()), [], "what the start of the phase does (close_companies, "
                                     "jr_privatised)"),
], "mapping")

#: 1890's rules.yaml (``KansaiRules``, ``titles/kansai/rules.py``)
RULES_1890 = Section("1890", [
    Key("title", Str(), doc="the title's id"),
    Key("full_name", Str(), doc="the title's full name"),
    RULESET.keys["currency"],
    RULESET.keys["cert_limit_includes_privates"],
    RULESET.keys["auction"],
    Key("stock", STOCK_1890, {}, "stock rounds: the shared keys and 1890's own"),
    Key("market", Section("market", [MARKET.keys["zones"]]), {},
        "the meanings of the zone letters (the grid: the components file)"),
    Key("corporations", ListOf(CORPORATION_1890), doc="the minors and the main companies"),
    Key("knr", KNR_1890, doc="Kinki Nippon Railway's formation (K1-K10, N1-N4)"),
    Key("companies", ListOf(COMPANY_1890), doc="the privates (their numbers: the components "
                                               "file)"),
    Key("late_companies", LATE_1890, doc="the late privates (L0-L5)"),
    RULESET.keys["company_sales"],
    Key("trains", ListOf(TRAIN_1890), doc="the trains (prices and counts: the components file)"),
    Key("phases", ListOf(PHASE_1890), doc="the phases, in order"),
    RULESET.keys["events"],
    RULESET.keys["operating"],
])


def check_ruleset(data: dict, ctx, only=None) -> dict:
    """The merged ruleset ``data`` checked against :data:`RULESET`, every
    default filled in; with ``only``, just those top-level keys (what an
    option changes).  ``ctx.known`` names the corporations, hexes and tiles
    (for references)."""
    for k in data:
        if isinstance(k, str) and k.endswith("!") and k[:-1] in RULESET.keys:
            ctx.fail(k, f"'{k}' replaces a key of the ruleset this one extends, but it "
                        f"extends nothing", key=True)
    if only is not None:
        return RULESET.check({k: data[k] for k in only if k in data}, "", ctx, require=False)
    return RULESET.check(data, "", ctx)


def known_names(data: dict) -> dict[str, set[str]]:
    """The names references may use: corporations, hexes, tiles."""
    out: dict[str, set[str]] = {}
    corps = data.get("corporations")
    if isinstance(corps, list):
        out["corporation"] = {str(c["sym"]) for c in corps if isinstance(c, dict) and "sym" in c}
    board = data.get("board")
    if isinstance(board, dict):
        for key, kind in (("hexes", "hex"), ("tiles", "tile")):
            if isinstance(board.get(key), dict):
                out[kind] = {str(k) for k in board[key]}
    return out


# ---------------------------------------------------------------------------
# Typed access to a checked ruleset

class Settings(Mapping):
    """A checked section of a ruleset (``rules.stock``, ``rules.operating.routes``),
    read as attributes (``rules.stock.holding_limit``) or items
    (``rules.stock["holding_limit"]``).  Every key the schema declares for the section
    is there, with its schema default when the ruleset leaves it out (the code never
    repeats a default); a nested section is a ``Settings`` too.  A name the schema does
    not declare is an error (``AttributeError``/``KeyError`` naming the YAML path), not
    a silent ``None``.  Read-only."""

    def __init__(self, section: "Section", data: dict, path: str = ""):
        values = self.__dict__
        values["_path"] = path
        values["_names"] = names = []
        # in the data's order (as written, then the defaults filled in), then the
        # defaults of the keys a partial reading left out
        order = [k for k in data if k in section.keys] + \
            [k for k in section.keys if k not in data]
        for name in order:
            key = section.keys[name]
            if name in data:
                value = data[name]
            elif key.default is REQUIRED:
                continue            # only in a partial reading (an option's keys)
            else:
                value = copy.deepcopy(key.default)
            inner = key.type.inner if isinstance(key.type, Nullable) else key.type
            if isinstance(inner, Section) and inner.fill and isinstance(value, dict):
                value = Settings(inner, value, path_join(path, name))
            values[name] = value
            names.append(name)

    def __getattr__(self, name: str):
        # only called for a name that is not there: not a declared key
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(f"{path_join(self._path, name)} is not a ruleset key"
                             + did_you_mean(name, self._names))

    def __setattr__(self, name, value):
        raise AttributeError(f"{path_join(self._path, name)}: a ruleset is read-only")

    def __getitem__(self, name: str):
        if name in self._names:
            return self.__dict__[name]
        raise KeyError(f"{path_join(self._path, name)} is not a ruleset key"
                       + did_you_mean(str(name), self._names))

    def get(self, name: str, *default):
        """``self[name]``; a default is refused: every key has its value (the
        schema's default included)."""
        if default:
            raise TypeError(f"{path_join(self._path, name)}: a ruleset key's default is in "
                            f"railcheck/schema.py; read settings.{name} without one")
        return self[name]

    def __iter__(self):
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __repr__(self) -> str:
        return f"Settings({self._path or 'ruleset'}: " \
               + ", ".join(f"{n}={self.__dict__[n]!r}" for n in self._names) + ")"

    def __deepcopy__(self, memo):
        return self             # read-only


# ---------------------------------------------------------------------------
# Typed access to private abilities

@dataclass(frozen=True)
class Ability:
    kind: str
    #: when it may be used (a key of WINDOWS)
    window: str
    #: how often (None: no limit, or not an action)
    count: Optional[int]
    #: the other fields (a scalar ability's value is under "value")
    params: dict


def abilities_of(special: dict) -> dict[str, Ability]:
    """A company's checked ``special`` mapping as typed abilities."""
    out = {}
    for kind, v in (special or {}).items():
        spec = ABILITIES[kind]
        if spec.fields is None:
            out[kind] = Ability(kind, spec.window, None, {"value": v})
        else:
            params = {k: x for k, x in v.items() if k not in ("window", "count")}
            out[kind] = Ability(kind, v["window"], v["count"], params)
    return out


# ---------------------------------------------------------------------------
# The reference (docs/rulesets.md is generated from it)

def _default_doc(key: Key, section: Section) -> str:
    if key.default is REQUIRED:
        return "required"
    if key.default is None and not (key.fill and section.fill):
        return "-"
    if isinstance(key.type, Section) and key.default == {}:
        return "-"
    return "`" + show(key.default) + "`"


def _type_doc(key: Key) -> str:
    t = key.type.doc
    if key.supported is not None:
        t += " (railcheck: " + ", ".join(show(s) for s in key.supported) + ")"
    return t


def _rows(section: Section, prefix: str, nested: bool) -> list[str]:
    rows = []
    for key in section.keys.values():
        rows.append(f"| `{prefix}{key.name}` | {_type_doc(key).replace('|', '/')} | "
                    f"{_default_doc(key, section).replace('|', '/')} | {key.doc} |")
        inner = key.type.inner if isinstance(key.type, Nullable) else key.type
        if nested and isinstance(inner, Section):
            rows += _rows(inner, f"{prefix}{key.name}.", nested)
    return rows


def _table(section: Section, prefix: str, nested: bool = True) -> list[str]:
    return (["| key | type | default | meaning |", "|---|---|---|---|"]
            + _rows(section, prefix, nested))


def schema_reference() -> str:
    """Markdown tables of every declared key (the reference part of
    docs/rulesets.md)."""
    out = ["### Top-level keys", ""] + _table(RULESET, "", nested=False) + [""]
    for name in ("players", "auction", "stock", "operating", "end", "setup", "company_sales",
                 "market", "board"):
        note = " (read by the board module: defaults and meaning in board.md)" \
            if name == "board" else ""
        section = RULESET.keys[name].type
        assert isinstance(section, Section)
        out += [f"### `{name}`{note}", ""] + _table(section, f"{name}.") + [""]
    for title, section, prefix in (("corporations[] and corporation_defaults", CORPORATION,
                                    "corporations[]."),
                                   ("companies[]", COMPANY, "companies[]."),
                                   ("trains[]", TRAIN, "trains[]."),
                                   ("phases[]", PHASE, "phases[]."),
                                   ("options.NAME", OPTION, "options.NAME.")):
        out += [f"### `{title}`", ""] + _table(section, prefix) + [""]
    out += _reference_1890()
    out += ["### Private abilities (`companies[].special`)", "",
            "`window` (when an ability may be used):", ""]
    out += [f"* `{w}`: {text}" for w, text in WINDOWS.items()] + [""]
    for kind in ABILITIES.values():
        out += [f"#### `{kind.name}`", "", f"{kind.doc} (for example {kind.example}).", ""]
        if kind.fields is None:
            out += [f"Value: {kind.value.doc if kind.value else ''}; window `{kind.window}`.", ""]
        else:
            out += _table(kind.fields, f"special.{kind.name}.") + [""]
    return "\n".join(out)


def _reference_1890() -> list[str]:
    """The tables of 1890's section: its top-level keys, then each section's own keys (a
    shared section 1890's file writes is the shared table above)."""
    out = ["### 1890 (`railcheck/titles/kansai/rules.yaml`)", "",
           "1890 takes its numbers from a components file (docs/1890-components.md), where a "
           "number may be `unknown`; its `rules.yaml` holds what the rule summary states. Its "
           "top-level keys (a key of the shared tables above is read as there):", ""]
    out += _table(RULES_1890, "", nested=False) + [""]
    for key in RULES_1890.keys.values():
        inner = key.type.item if isinstance(key.type, ListOf) else key.type
        if not isinstance(inner, Section) or RULESET.keys.get(key.name) is key:
            continue
        own = getattr(inner, "own", None)
        name = f"{key.name}[]" if isinstance(key.type, ListOf) else key.name
        if own is not None:
            inner = Section(inner.name, [inner.keys[k] for k in own])
            out += [f"#### 1890's `{name}` (besides the shared `{name}` keys)", ""]
        else:
            out += [f"#### 1890's `{name}`", ""]
        out += ["| key | type | default | meaning |", "|---|---|---|---|"]
        out += _rows_with_lists(inner, f"{name}.") + [""]
    return out


def _rows_with_lists(section: Section, prefix: str) -> list[str]:
    """``_rows``, also into the sections of a list (``knr.conversions[].minor``)."""
    rows = []
    for key in section.keys.values():
        rows += _rows(Section(section.name, [key]), prefix, nested=False)
        inner = key.type.inner if isinstance(key.type, Nullable) else key.type
        inner = inner.item if isinstance(inner, ListOf) else inner
        if isinstance(inner, Section):
            mark = "[]" if isinstance(key.type, ListOf) else ""
            rows += _rows_with_lists(inner, f"{prefix}{key.name}{mark}.")
    return rows


def all_key_paths() -> list[str]:
    """Every declared key as it appears in the reference (for the docs test)."""
    import re
    return re.findall(r"^\| `([^`]+)` \|", schema_reference(), flags=re.M)


if __name__ == "__main__":   # python -m railcheck.schema: the reference for docs/rulesets.md
    print(schema_reference())
