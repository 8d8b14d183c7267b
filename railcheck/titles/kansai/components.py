"""Kansai's components file: every number the rule summary does not give.

The user fills in ``components-template.yaml`` (written by ``railcheck
components kansai -o FILE``) from the game box; a game names the file in its
header (``components: FILE``, read next to the game file).  The file is
checked against :data:`COMPONENTS` like a ruleset: every error names the
file, line, column and YAML path.  A value may stay ``unknown`` only where
the template has it (``schema.OrUnknown``); it is kept as ``schema.UNKNOWN``
and the checks that need it are skipped (docs/1890-components.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from ...schema import (UNKNOWN, Bool, Enum, Int, Key, ListOf, MapOf, OneOf, OrUnknown, PlayerCount,
                       Section, Str, Type, is_unknown, path_join)

FOLDER = Path(__file__).resolve().parent
TEMPLATE = FOLDER / "components-template.yaml"

#: the places the summary's rules name (docs/1890.md)
PLACES = ("Osaka Kita", "Osaka Minami", "Osaka Nishi", "Osaka Higashi", "Kobe", "Kyoto", "Nara",
          "Kashiwara", "Tanigami", "Arima", "Sakai", "Takarazuka", "Nishinomiya")
TRAINS = ("2", "2+2", "3", "3+3", "4", "5", "6", "D")
MAJORS = ("JR", "KNR", "OMS", "KHN", "NKI", "SAN", "HER", "HKY")
MINORS = ("M1", "M2", "M3", "M4", "M5")
PRIVATES = ("ARIMA", "KT", "HKT", "HST", "KST", "OMER")
LATE = ("KEF", "KRTR", "KOK", "SEM")


def _u(t: Type) -> OrUnknown:
    return OrUnknown(t)


_INT = _u(Int())
_DISTANCE = _u(OneOf(((int,), Int()), ((dict,), MapOf(Int(), "stop kind", Enum("cities", "towns"))),
                     ((str,), Enum("unlimited")),
                     label="an integer, {cities: N, towns: M} or unlimited"))
_COUNT = _u(OneOf(((int,), Int()), ((str,), Enum("unlimited")), label="an integer or unlimited"))

_PLACE = Section("place", [
    Key("hex", _u(Str()), doc="the hex the place is on"),
    Key("city", _INT, doc="which city of the hex (0 the first)"),
    Key("slots", _INT, doc="station places of the city"),
    Key("revenue", Section("revenue", [Key("low", _INT, doc="phases 1-3"),
                                       Key("middle", _INT, doc="phases 4-5"),
                                       Key("high", _INT, doc="phase 6")]),
        doc="the three values of F1")])

_MAJOR = Section("corporation", [
    Key("home", _u(OneOf(((str,), Str()), ((list,), ListOf(Str())),
                         label="a place or hex, or a list of them")),
        doc="a place above or a hex (JR: its four homes)"),
    Key("tokens", _u(ListOf(Int())), doc="station prices, the home's first (0)"),
    Key("shares", _u(ListOf(Int())), UNKNOWN, "certificates in percent, president's first",
        fill=False)])

_PRIVATE = Section("private", [Key("value", _INT, doc="face value"),
                               Key("revenue", _INT, doc="income every OR")])


def _train(name: str) -> Section:
    keys = [Key("price", _INT, doc="price from the depot"),
            Key("count", _COUNT, doc="how many there are")]
    if name in ("3+3", "D"):
        keys.append(Key("distance", _DISTANCE, doc="how far it runs"))
    if name == "D":
        keys.append(Key("trade_in", Section("trade_in", [Key(t, _INT, doc=f"a traded {t}")
                                                           for t in ("4", "5", "6")]),
                        doc="what a traded-in 4, 5 or 6 is worth"))
    return Section(f"train {name}", keys)


COMPONENTS = Section("components", [
    Key("components_for", Enum("1890", "kansai"), doc="the title the file is for"),
    Key("scenario", _u(Str()), UNKNOWN, "the rule book's scenario the file describes",
        fill=False),
    Key("game_turns", _INT, UNKNOWN, "the game ends after this many game turns (E1)",
        fill=False),
    Key("not_in_play", ListOf(Enum(*MAJORS, *MINORS, *PRIVATES, *LATE)), [],
        "the companies the scenario leaves out", fill=False),
    Key("players", Section("players", [Key("min", _INT, doc="fewest players"),
                                       Key("max", _INT, doc="most players")]), doc="player counts"),
    Key("bank", _INT, doc="the bank's cash"),
    Key("starting_cash", _u(MapOf(Int(), "players", PlayerCount())), doc="by player count"),
    Key("cert_limit", _u(MapOf(Int(), "players", PlayerCount())), doc="by player count"),
    Key("market", Section("market", [
        Key("rows", _u(ListOf(ListOf(Str()))), doc="the grid, top row first"),
        Key("ledge", _u(OneOf(((int,), Int()), ((str,), Enum("bottom")),
                              label="a row index or bottom")), doc="where a drop stops")]),
        doc="the stock market"),
    Key("map", Section("map", [
        Key("layout", _u(Enum("pointy", "flat")), doc="the hexes' orientation"),
        Key("places", Section("places", [Key(p, _PLACE, doc=p) for p in PLACES]),
            doc="the places the rules name"),
        Key("osaka_three", _u(ListOf(Str())), doc="the three Osaka hexes of OMER's upgrade"),
        Key("hexes", _u(MapOf(Type(), "coordinate")), doc="the map (docs/board.md)"),
        Key("tiles", _u(MapOf(Type(), "tile name")), doc="the tile manifest (docs/board.md)")]),
        doc="the map"),
    Key("corporations", Section("corporations", [Key(s, _MAJOR, doc=s) for s in MAJORS]),
        doc="the main companies"),
    Key("minors", Section("minors", [
        Key("M1", Section("M1", [Key("tokens", _u(ListOf(Int())), doc="station prices")])),
        Key("M2", Section("M2", [Key("tokens", _u(ListOf(Int())), doc="station prices")])),
        Key("M3", Section("M3", [Key("tokens", _u(ListOf(Int())), doc="station prices")])),
        Key("M4", Section("M4", [Key("tokens", _u(ListOf(Int())), doc="station prices"),
                                 Key("homes", _u(ListOf(Enum("Kyoto", "Nara"))),
                                     doc="[Kyoto], [Nara] or [Kyoto, Nara]")])),
        Key("M5", Section("M5", [Key("tokens", _u(ListOf(Int())), doc="station prices"),
                                 Key("late_private_revenue", _INT,
                                     doc="its income once privatised")]))]),
        doc="the minors"),
    Key("companies", Section("companies", [
        *[Key(s, _PRIVATE if s != "ARIMA" else Section("ARIMA", [
            Key("value", _INT, doc="face value"), Key("revenue", _INT, doc="income"),
            Key("extra_tile_count", _COUNT, doc="how often the extra tile")]), doc=s)
          for s in PRIVATES],
        Key("others", _u(MapOf(Section("other private", [
            Key("name", Str(), doc="its name"), Key("value", _INT, doc="face value"),
            Key("revenue", _INT, doc="income")]), "sym")), doc="privates the copy lost")]),
        doc="the privates"),
    Key("late_companies", Section("late_companies", [
        Key("KEF", _PRIVATE), Key("KOK", _PRIVATE), Key("SEM", _PRIVATE),
        Key("KRTR", Section("KRTR", [Key("value", _INT, doc="price"),
                                     Key("stations", _INT, doc="stations it places in Kobe")]))]),
        doc="the late privates"),
    Key("trains", Section("trains", [Key(t, _train(t), doc=t) for t in TRAINS]), doc="trains"),
    Key("rulebook", Section("rulebook", [
        Key("end_on_bankruptcy", _u(Enum("immediate", "full_or"))),
        Key("end_on_bank", _u(Enum("immediate", "full_or"))),
        Key("ten_phases", _u(Str())),
        Key("minors_operate", _u(Enum("first", "by_price"))),
        Key("minors_sold_in", _u(Enum("auction", "stock_round"))),
        Key("kanan_window", _u(Enum("N1", "K4"))),
        Key("jr_half_dividend_move", _u(Enum("none", "right", "left"))),
        Key("sales_in_turn", _u(Enum("sell_buy_sell", "all_at_once")), UNKNOWN,
            "S2.1: sell, buy and sell again in a turn (the summary; unknown) or all sales at "
            "once (the rule book, §8.5)", fill=False),
        Key("minor_payout", _u(Enum("half", "all")), UNKNOWN, "a minor's payout: half to its "
            "owner and half to its treasury (the rule book, §10.6.1; unknown: half) or all to "
            "its owner", fill=False),
        Key("jr_half_rounding", Int(), 20, "JR's treasury half rounded up to a multiple of "
            "this (J2: the summary 20, the rule book 10)", fill=False),
        Key("oms_float", _u(Enum("at_phase_4", "fifty_percent", "any_phase"))),
        Key("oms_area_only", _u(Bool())),
        Key("krtr_fee_per", _u(Enum("once", "each_or")))]),
        doc="readings the summary leaves open"),
])


class Components:
    """A checked components file: ``get("trains", "3", "price")`` is the
    value or :data:`UNKNOWN`.  ``path`` is None for no file at all (every
    value unknown)."""

    def __init__(self, data: Optional[dict], path: Optional[str], marks: Optional[dict] = None):
        self.data = data
        self.path = path
        self.marks = marks or {}

    def get(self, *keys):
        node = self.data
        for k in keys:
            if not isinstance(node, dict) or k not in node:
                return UNKNOWN
            node = node[k]
        return node

    def known(self, *keys) -> bool:
        return not is_unknown(self.get(*keys))

    def unknown_keys(self) -> list[str]:
        """The YAML paths of every value left ``unknown`` (all of the
        template's without a file)."""
        data = self.data if self.data is not None else template_data()
        return [p for p, v in _leaves(data) if is_unknown(v) or v == "unknown"]

    def describe(self) -> str:
        return self.path or "no components file"


def _leaves(value, path: str = ""):
    if isinstance(value, dict):
        if not value:
            yield path, value
        for k, v in value.items():
            yield from _leaves(v, path_join(path, k))
    else:
        yield path, value


def template_text() -> str:
    return TEMPLATE.read_text(encoding="utf-8")


def template_data() -> dict:
    import yaml
    return yaml.safe_load(template_text())


def load_components(path: str) -> Components:
    """The components file at ``path``, checked (raises InputError, located)."""
    from ...findings import InputError
    from ...ruleset import RulesetError, _Checker, _load_yaml
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("components file not found", path=path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read the components file: {exc}", path=path) from None
    doc = _load_yaml(text, path)
    if not isinstance(doc.data, dict):
        raise RulesetError("a components file must be a YAML mapping", path=path, line=1)
    ctx = _Checker(doc.marks)
    data = COMPONENTS.check(doc.data, "", ctx)
    _cross_check(data, ctx)
    return Components(data, path, doc.marks)


def _cross_check(data: dict, ctx) -> None:
    """What the summary says about the numbers, held against a filled file."""
    values = [(s, data["companies"][s]["value"]) for s in PRIVATES]
    others = data["companies"].get("others")
    if isinstance(others, dict):
        values += [(s, o["value"]) for s, o in others.items()]
    known = [(v, s) for s, v in values if not is_unknown(v)]
    if len(known) == len(values) and known:
        cheapest, sym = min(known)
        if cheapest != 20:
            ctx.fail(f"companies.{sym}.value", f"the cheapest private is {cheapest}; the summary "
                                               f"says the first private costs 20 (A6)")
    lo, hi = data["players"]["min"], data["players"]["max"]
    for key in ("starting_cash", "cert_limit"):
        table = data[key]
        if is_unknown(table) or is_unknown(lo) or is_unknown(hi):
            continue
        counts = sorted(int(k) for k in table)
        if counts != list(range(lo, hi + 1)):
            ctx.fail(key, f"gives player counts {counts}; players are {lo} to {hi}")
    rows = data["market"]["rows"]
    if not is_unknown(rows):
        pars = 0
        for r, row in enumerate(rows):
            for i, cell in enumerate(row):
                cell = str(cell)
                if not cell:
                    continue
                digits = cell.rstrip("pyox")
                if not digits.isdigit():
                    ctx.fail(f"market.rows[{r}][{i}]", f"expected a price with zone letters "
                                                       f"p, y, o, x (e.g. 70p), got {cell!r}")
                pars += "p" in cell
        if not pars:
            ctx.fail(path_join("market", "rows"), "has no par cell (letter p)")
    three = data["map"]["osaka_three"]
    if not is_unknown(three) and len(three) != 3:
        ctx.fail(path_join("map", "osaka_three"), f"lists {len(three)} hexes; OMER's upgrade names 3")


def par_values(components: Components) -> Optional[list[int]]:
    rows = components.get("market", "rows")
    if is_unknown(rows):
        return None
    return sorted({int(str(c).rstrip("pyox")) for row in rows for c in row if "p" in str(c)})


def place_of_hex(components: Components) -> dict[str, str]:
    """hex -> place name, for the places whose hex is known."""
    out = {}
    for name in PLACES:
        h = components.get("map", "places", name, "hex")
        if not is_unknown(h):
            out[str(h)] = name
    return out
