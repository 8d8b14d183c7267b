"""1890's rules: what the summary states (``rules.yaml``) merged with the
numbers of a components file (``components.py``).

``rules.yaml`` is checked by the schema's 1890 section (``schema.RULES_1890``: the
shared keys where they mean the same, 1890's own besides), every default filled in
there, and read here as typed ``Settings``; the components file is checked by its
own typed schema (``components.COMPONENTS``), where a number may be ``unknown``.
``KansaiRules`` is a shared ``Ruleset`` (the object the loader, the game, the
reports and ``rules show`` read) built from the two: the money numbers by the
shared reader (``ruleset.money_numbers``: nothing for an unknown one).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from ...ruleset import Ruleset, _Checker, _read_doc, money_numbers
from ...schema import END, RULES_1890, RULESET, SETUP, UNKNOWN, Settings, is_unknown
from ...specs import CompanySpec, CorpSpec, TrainSpec
from .components import Components, load_components

FOLDER = Path(__file__).resolve().parent


#: the summary's open points the rule book settles (docs/1890.md, "The rule book's
#: readings"): the reading that applies when a components file leaves the switch unknown;
#: where the two truly disagree, the summary's reading (oms_float here; jr_half_rounding's
#: default 20 is the schema's).  Left open: minors_sold_in (the rule book sells the minors in
#: the initial stock round; the notation's records buy them in stock rounds: not checked
#: until the file says)
RULE_BOOK_READINGS = {
    "oms_float": "at_phase_4",          # the summary's C5 (the rule book, C8.4: any_phase)
    "end_on_bankruptcy": "immediate",   # §13.2 "The game immediately ends"
    "end_on_bank": "full_or",           # §13.3 "at the end of the current game turn"
    "minors_operate": "first",          # §10.1 minors in numeric order, then public companies
    "kanan_window": "K4",               # C8.3 and the phase chart: may in 2, must in 3
    "jr_half_dividend_move": "right",   # §10.6.4 a dividend paid moves the price right
    "oms_area_only": False,             # C8.4 OMS runs as any company
    "krtr_fee_per": "once",             # C8.2 "obtained the privilege"
}


@dataclass
class Named:
    """A corporation, private or train as the notation's binder names it."""
    sym: str
    name: str = ""
    kind: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def color(self) -> Optional[str]:
        """A colour for the charts and the board (none given: the analyser's palette)."""
        return self.extra.get("color")


@dataclass
class Phase:
    name: str
    on: Optional[str]
    tiles: list
    train_limit: dict
    operating_rounds: int
    revenue_level: str
    jr_tile_lays: int
    company_buy: bool
    events: list


class KansaiRules(Ruleset):
    """The rules a Kansai game is checked by (the summary's, and the numbers
    of its components file): a shared ``Ruleset`` whose numbers may be unknown."""

    base_title = "1890"
    title = "1890"
    extends = None
    source = None
    board = None
    option_specs: dict = {}
    #: the Title class that plays these rules (set by TitleKansai.load_rules)
    title_class: type = None  # type: ignore[assignment]

    def __init__(self, data: dict, components: Components, options=()):   # noqa: D107
        # (the shared Ruleset's __init__ reads a ruleset of the shared schema; 1890's is its
        # own section, RULES_1890, read below)
        self.raw = data
        #: rules.yaml, typed (``schema.RULES_1890``): ``rules.own.knr.for_sale_shares``
        self.own = settings = Settings(RULES_1890, data)
        #: the shared schema's top-level switches the shared ``Game`` reads, 1890's where
        #: rules.yaml sets them (``cert_limit_includes_privates``: no, SB5), else their defaults
        self.settings = Settings(RULESET, {"cert_limit_includes_privates":
                                           settings.cert_limit_includes_privates}, "")
        self.components = components
        self.options = list(options)
        self.full_name = str(settings.full_name)
        lo, hi = components.get("players", "min"), components.get("players", "max")
        #: "?" where the components file does not say (``rules list``)
        self.min_players = "?" if is_unknown(lo) else lo
        self.max_players = "?" if is_unknown(hi) else hi
        self.currency = str(settings.currency)
        # the shared specs (``railcheck/specs.py``) the shared ``Game`` builds its state from:
        # a minor (kind ``minor``) one 100% certificate (N0), a public company a president's
        # certificate of 20% and eight shares (SB1); ``extra`` is the corporation's entry of
        # rules.yaml
        float_percent = int(settings.stock.float_percent)
        self.corporations = [CorpSpec(str(c["sym"]), str(c["name"]), None, None, [],
                                      [100] if c["kind"] == "minor" else [20] + [10] * 8,
                                      float_percent, c, kind=str(c["kind"]))
                             for c in settings.corporations]
        self.corp_by_sym = {c.sym: c for c in self.corporations}
        privates = [Named(str(c["sym"]), str(c["name"]), "private", c) for c in settings.companies]
        others = components.get("companies", "others")
        if isinstance(others, dict):
            privates += [Named(str(s), str(o["name"]), "private", {}) for s, o in others.items()]
        late = [Named(str(c["sym"]), str(c["name"]), "late", c)
                for c in settings.late_companies.items]
        self.privates = privates
        self.late_companies = late
        self.company_by_sym = {c.sym: c for c in privates + late}
        #: the privates and the late privates as the shared specs (a face value or an income
        #: the components file leaves unknown is 0 here; the checks read the file)
        self.companies = []
        for c in privates + late:
            value, revenue = self.private_numbers(c.sym)
            self.companies.append(CompanySpec(
                c.sym, c.name, 0 if is_unknown(value) else int(value),
                0 if is_unknown(revenue) else int(revenue), blocks=[], special={}))
        #: the trains' types as the shared specs (a price or a count the components file leaves
        #: unknown is 0 and None here; the checks read the file); ``extra``: rules.yaml's entry
        self.trains = []
        for t in settings.trains:
            name = str(t["name"])
            price, count = self.number("trains", name, "price"), \
                self.number("trains", name, "count")
            self.trains.append(TrainSpec(
                name, t["distance"], 0 if is_unknown(price) else int(price),
                count if isinstance(count, int) else None, t["rusts_on"], None,
                t["available_on"], [], t["exchange"], extra=t))
        self.phases = [Phase(str(p["name"]), None if p["on"] is None else str(p["on"]),
                             list(p["tiles"]), dict(p["train_limit"]), int(p["operating_rounds"]),
                             str(p["revenue_level"]), int(p["jr_tile_lays"]),
                             bool(p["company_buy"]), list(p["events"]))
                        for p in settings.phases]
        self.knr = settings.knr
        self.conversions = {str(c["minor"]): c for c in self.knr["conversions"]}
        # what the shared Game reads of a ruleset's money, None or empty where the components
        # file leaves it unknown (the Game then tracks no money: ``Unsure.off``)
        self.starting_cash, self.bank, self.cert_limit, self.market_rows = money_numbers(
            self.number("starting_cash"), self.number("bank"), self.number("cert_limit"),
            self.number("market", "rows"))
        self.market_zones = {str(k): list(v) for k, v in settings.market.zones.items()}
        #: the sections the shared code reads: the auction's, the stock round's (the holding and
        #: pool limits the shared ``Game.holding_limit`` and ``pool_limit`` read, and 1890's
        #: own ``capital_par_times``), the operating round's, the privates' sales
        self.auction = settings.auction
        self.stock = settings.stock
        self.operating = settings.operating
        self.company_sales = settings.company_sales
        self.late = settings.late_companies
        #: the set-up switches of the shared schema (none of them 1890's: their defaults)
        self.setup = Settings(SETUP, {}, "setup")
        #: the shared end conditions (1890's own end is its replay's: E1, rulebook.end_on_*)
        self.end = Settings(END, {}, "end")

    # ------------------------------------------------------------------

    def number(self, *keys):
        """A number of the components file, or UNKNOWN.  A ``rulebook`` reading the file
        leaves unknown is the rule book's where it settles what the summary leaves open
        (:data:`RULE_BOOK_READINGS`)."""
        value = self.components.get(*keys)
        if is_unknown(value) and len(keys) == 2 and keys[0] == "rulebook":
            return RULE_BOOK_READINGS.get(keys[1], value)
        return value

    def private_numbers(self, sym: str) -> tuple:
        """A private's (or late private's) face value and income as the components file gives
        them (each may be ``unknown``)."""
        if sym in [c.sym for c in self.late_companies]:
            return (self.number("late_companies", sym, "value"),
                    self.number("late_companies", sym, "revenue"))
        value = self.company_value(sym)
        known = self.number("companies")
        revenue = self.number("companies", sym, "revenue") if isinstance(known, dict) and \
            sym in known else self.number("companies", "others", sym, "revenue")
        return value, revenue

    def train_price(self, name: str):
        return self.number("trains", name, "price")

    def company_value(self, sym: str):
        if sym in [c.sym for c in self.late_companies]:
            return self.number("late_companies", sym, "value")
        others = self.number("companies", "others")
        if isinstance(others, dict) and sym in others:
            return others[sym]["value"]
        return self.number("companies", sym, "value")

    def phase_index(self, name: str) -> int:
        return [p.name for p in self.phases].index(name)

    def _revenue_text(self, company: Named) -> str:
        if company.sym == "KRTR":
            return "none (L2)"
        section = "companies" if company.kind == "private" else "late_companies"
        value = self.number(section, company.sym, "revenue")
        return "unknown" if is_unknown(value) else str(value)

    def describe(self) -> dict:
        return {"name": self.title, "path": None, "extends": None,
                "components": self.components.path}

    # ------------------------------------------------------------------
    # railcheck rules show kansai

    def describe_text(self) -> str:
        from tabulate import tabulate
        c = self.components
        out = [f"{self.title}: {self.full_name}",
               "numbers: from the components file "
               + (c.path if c.path else "(none given: every number below is unknown; write one "
                                        "with 'railcheck components kansai -o FILE')"), ""]
        out += ["rounds: " + self.title_class.rounds_description, ""]

        def num(v):
            return "unknown" if is_unknown(v) else str(v)
        out.append("stated by the summary (rules.yaml):")
        stock = self.stock
        out.append(f"  stock round: float {stock.float_percent}% (10 x par to the treasury; "
                   f"KNR {self.knr.float_cash_par_times} x par), holding limit "
                   f"{stock.holding_limit}%, pool limit {stock.pool_limit}%, no sales in "
                   f"the first SR")
        out.append(f"  auction: waterfall, bids by {self.auction.min_increment}, the "
                   f"cheapest private's price drops by {self.auction.price_drop_on_all_pass}"
                   f" when everybody passes")
        out.append("")
        out.append(tabulate([[p.name, p.on or "-", ", ".join(p.tiles),
                              f"{p.train_limit['minor']}/{p.train_limit['major']}/"
                              f"{p.train_limit['state']}", p.operating_rounds, p.revenue_level,
                              p.jr_tile_lays, "yes" if p.company_buy else "no",
                              ", ".join(p.events) or "-"] for p in self.phases],
                            headers=["phase", "starts with", "tiles", "limit minor/major/JR",
                                     "ORs", "values", "JR lays", "companies buy privates",
                                     "events"], disable_numparse=True))
        out.append("")
        rows = []
        for conv in self.knr["conversions"]:
            rows.append([conv["minor"], self.corp_by_sym[conv["minor"]].name,
                         _window(conv["from"], conv["when"]),
                         _window(conv["mandatory"], None) if conv["mandatory"] else "-",
                         conv["receives"] if isinstance(conv["receives"], str)
                         else " + ".join(f"{x}%" for x in conv["receives"]),
                         conv["moves"]])
        out.append(tabulate(rows, headers=["minor", "name", "may convert", "must convert",
                                           "receives", "brings"], disable_numparse=True))
        out.append("")
        out.append("from the components file (" + (c.path or "none") + "):")
        out.append(tabulate([[t.name, num(self.train_price(t.name)),
                              num(self.number("trains", t.name, "count")),
                              t.extra.get("rusts_on") or "-"] for t in self.trains],
                            headers=["train", "price", "count", "rusts on"],
                            disable_numparse=True))
        out.append("")
        out.append(tabulate([[p.sym, p.name, num(self.company_value(p.sym)),
                              self._revenue_text(p)] for p in self.privates + self.late_companies],
                            headers=["private", "name", "value", "revenue"],
                            disable_numparse=True))
        out.append("")
        scenario, turns = self.number("scenario"), self.number("game_turns")
        if not is_unknown(scenario):
            out.append(f"scenario: {scenario} (the rule book's)")
        out.append(f"game turns: {num(turns)}")
        left_out = self.number("not_in_play")
        if isinstance(left_out, list) and left_out:
            out.append(f"not in play: {', '.join(left_out)}")
        for key in ("bank", "starting_cash", "cert_limit"):
            out.append(f"{key}: {num(self.number(key))}")
        out.append("market: " + ("unknown" if is_unknown(self.number("market", "rows"))
                                 else f"{len(self.number('market', 'rows'))} rows"))
        out.append("map: " + ("unknown (tile lays and routes are not checked)"
                              if is_unknown(self.number("map", "hexes")) else "given"))
        unknown = c.unknown_keys()
        out.append(f"unknown in the components file: {len(unknown)} values"
                   + (": " + ", ".join(unknown[:12]) + (", ..." if len(unknown) > 12 else "")
                      if unknown else ""))
        return "\n".join(out) + "\n"


def _window(phase, when) -> str:
    if when:
        return when.replace("_", " ")
    if isinstance(phase, list):
        return " or ".join(f"phase {p}" for p in phase) + " (summary unclear)"
    return f"phase {phase}"


def load_rules(options=(), components: Optional[str] = None) -> KansaiRules:
    doc = _read_doc(str(FOLDER / "rules.yaml"))
    # checked by the schema's 1890 section: a wrong key or value is an error by file, line,
    # column and YAML path; every default filled in
    data = RULES_1890.check(doc.data, "", _Checker(doc.marks))
    comp = load_components(components) if components else Components(None, None)
    return KansaiRules(data, comp, options)


__all__ = ["KansaiRules", "load_rules", "UNKNOWN"]
