"""Rulesets: one YAML document per title, loaded, merged and checked.

Each built-in title's ruleset is ``railcheck/titles/<folder>/rules.yaml``
(the registry in ``railcheck.titles`` maps ids and aliases to folders); a
user's ruleset is any YAML file that ``extends`` a title or another file.  A
ruleset may ``extend`` another (deep merge: mappings merge key by key, lists and scalars are
replaced; a list of mappings with ``sym``/``name`` keys may be patched by
giving a mapping keyed by those names) and ``include`` further files under a
key (``include: {board: board.yaml}``).  Selected game options may
``set`` overrides the same way.

Every problem in a ruleset is reported with the file, line and column and the
YAML path of the offending value (``trains[3].price``).
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import yaml

from .findings import InputError, did_you_mean


# ---------------------------------------------------------------------------
# YAML with positions

class _Doc:
    """Parsed YAML plus the position of every value by its YAML path."""

    def __init__(self, data: Any, marks: dict[str, tuple[int, int]], path: str):
        self.data = data
        self.marks = marks
        self.path = path


def _path_join(base: str, key) -> str:
    if isinstance(key, int):
        return f"{base}[{key}]"
    return f"{base}.{key}" if base else str(key)


#: libyaml's loader when PyYAML was built with it (same marks, much faster)
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _load_yaml(text: str, path: str) -> _Doc:
    loader = _LOADER(text)
    try:
        node = loader.get_single_node()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        raise InputError(f"malformed YAML: {problem}", path=path,
                         line=mark.line + 1 if mark else None,
                         column=mark.column + 1 if mark else None) from None
    finally:
        loader.dispose()
    marks: dict[str, tuple[int, int]] = {}
    constructor = yaml.SafeLoader("")

    def build(n, p):
        marks[p] = (n.start_mark.line + 1, n.start_mark.column + 1)
        if isinstance(n, yaml.MappingNode):
            out = {}
            for knode, vnode in n.value:
                # keys are kept as written: YAML 1.1 would read "on" or "yes" as booleans
                key = knode.value if isinstance(knode, yaml.ScalarNode) else None
                if key is None:
                    raise InputError("a mapping key must be a plain value", path=path,
                                     line=knode.start_mark.line + 1,
                                     column=knode.start_mark.column + 1)
                if knode.tag == "tag:yaml.org,2002:merge":
                    raise InputError("YAML merge keys are not supported in rulesets",
                                     path=path, line=knode.start_mark.line + 1)
                out[key] = build(vnode, _path_join(p, key))
            return out
        if isinstance(n, yaml.SequenceNode):
            return [build(v, _path_join(p, i)) for i, v in enumerate(n.value)]
        try:
            return constructor.construct_object(n, deep=True)
        except yaml.YAMLError as exc:
            raise InputError(f"bad value: {exc}", path=path,
                             line=n.start_mark.line + 1) from None

    data = build(node, "") if node is not None else None
    return _Doc(data, marks, path)


# ---------------------------------------------------------------------------
# Where rulesets live: each title's folder (railcheck/titles/<folder>/rules.yaml)

@functools.lru_cache(maxsize=None)
def _read_doc(path: str) -> _Doc:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("ruleset file not found", path=path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read ruleset: {exc}", path=path) from None
    return _load_yaml(text, path)


def title_index() -> dict[str, str]:
    """Title id -> the path of its ruleset file."""
    from .titles import TITLES
    return {tid: str(cls.ruleset_path()) for tid, cls in TITLES.items()}


def known_titles() -> list[str]:
    from .titles import known_titles as known
    return known()


def _locate(ref: str, base_dir: Optional[Path] = None) -> tuple[Path, Optional[str]]:
    """Where the ruleset ``ref`` lives: a built-in title (by id or alias)
    gives its folder's rules.yaml and its id; a path to a YAML file (a house
    rule or variant, relative to ``base_dir``) gives the file and None."""
    from .titles import TITLES, title_class
    cls = title_class(ref)
    if cls is not None:
        return cls.ruleset_path(), cls.id
    if ref.endswith((".yaml", ".yml")) or "/" in ref or "\\" in ref:
        p = Path(ref).expanduser()
        if not p.is_absolute() and base_dir is not None:
            p = base_dir / p
        return p, None
    raise InputError(f"unknown title '{ref}'" + did_you_mean(ref, TITLES)
                     + f"; known titles: {', '.join(TITLES)}")


# ---------------------------------------------------------------------------
# Merging

def _keyed(items):
    """If every item is a mapping with 'sym' or 'name', index them."""
    if not isinstance(items, list) or not items:
        return None
    out = {}
    for it in items:
        if not isinstance(it, dict):
            return None
        key = it.get("sym", it.get("name"))
        if key is None:
            return None
        out[str(key)] = it
    return out


def deep_merge(base, over):
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for k, v in over.items():
            if v is None and k in out and k.endswith("!"):
                continue
            if isinstance(k, str) and k.endswith("!"):
                # "key!": replace instead of merge
                out[k[:-1]] = copy.deepcopy(v)
                continue
            out[k] = deep_merge(out[k], v) if k in out else copy.deepcopy(v)
        return out
    if isinstance(base, list) and isinstance(over, dict):
        keyed = _keyed(base)
        if keyed is not None:
            result = []
            for item in base:
                key = str(item.get("sym", item.get("name")))
                if key in over:
                    patch = over[key]
                    if patch is None:  # null removes the entry
                        continue
                    result.append(deep_merge(item, patch))
                else:
                    result.append(item)
            for key, item in over.items():
                if key not in keyed and item is not None:
                    result.append(copy.deepcopy(item))
            return result
    return copy.deepcopy(over)


# ---------------------------------------------------------------------------
# The typed ruleset

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


@dataclass
class CompanySpec:
    sym: str
    name: str
    value: int
    revenue: int
    blocks: list[str]
    special: dict


@dataclass
class TrainSpec:
    name: str
    distance: Optional[int]
    price: int
    count: Optional[int]          # None = unlimited
    rusts_on: Optional[str]
    obsolete_on: Optional[str]
    available_on: Optional[str]
    events: list[str]
    exchange: Optional[dict]
    extra: dict = field(default_factory=dict)


@dataclass
class PhaseSpec:
    name: str
    on: Optional[str]
    tiles: list[str]
    train_limit: "int | dict[str, int]"   # one number, or one per company kind
    operating_rounds: int
    company_buy: bool
    extra: dict = field(default_factory=dict)


class RulesetError(InputError):
    pass


class _Checker:
    """Type checks with YAML-path messages."""

    def __init__(self, doc_marks: dict[str, tuple[str, int, int]]):
        self.marks = doc_marks

    def fail(self, ypath: str, msg: str):
        # find the nearest path we have a mark for
        p = ypath
        while p and p not in self.marks:
            if p.endswith("]"):
                p = p[: p.rfind("[")]
            elif "." in p:
                p = p[: p.rfind(".")]
            else:
                p = ""
        file, line, col = self.marks.get(p, ("<ruleset>", None, None))
        raise RulesetError(f"{ypath}: {msg}", path=file, line=line, column=col)

    def get(self, data: dict, key: str, ypath: str, typ, *, required=True, default=None):
        if not isinstance(data, dict):
            self.fail(ypath, "expected a mapping")
        if key not in data or data[key] is None:
            if required:
                self.fail(_path_join(ypath, key) if ypath else key, "is required")
            return default
        value = data[key]
        self.check(value, _path_join(ypath, key), typ)
        return value

    def check(self, value, ypath: str, typ):
        names = {int: "an integer", str: "a string", list: "a list", dict: "a mapping",
                 bool: "true or false"}
        if typ is int and (isinstance(value, bool) or not isinstance(value, int)):
            self.fail(ypath, f"expected an integer, got {value!r}")
        if typ is str and not isinstance(value, (str, int, float)):
            self.fail(ypath, f"expected a string, got {value!r}")
        if typ in (list, dict, bool) and not isinstance(value, typ):
            self.fail(ypath, f"expected {names[typ]}, got {value!r}")


class Ruleset:
    """Everything a title's YAML says, checked and typed."""

    def __init__(self, title: str, data: dict, marks: dict, options: list[str]):
        self.title = title
        #: the built-in title whose class (round sequence, steps) plays this ruleset
        self.base_title = str(data.get("base_title", title))
        self.raw = data
        self.options = options
        c = _Checker(marks)
        self._checker = c
        self.full_name = str(data.get("full_name", title))
        self.extends = data.get("extends")
        pl = c.get(data, "players", "", dict)
        self.min_players = c.get(pl, "min", "players", int)
        self.max_players = c.get(pl, "max", "players", int)
        self.currency = str(data.get("currency", "$"))
        self.bank = c.get(data, "bank", "", int)
        self.starting_cash = self._by_players(c, data, "starting_cash")
        self.cert_limit = self._by_players(c, data, "cert_limit")
        self.auction = c.get(data, "auction", "", dict, required=False, default={})
        self.stock = c.get(data, "stock", "", dict, required=False, default={})
        self.operating = c.get(data, "operating", "", dict, required=False, default={})
        self.end = c.get(data, "end", "", dict, required=False, default={})
        self.company_sales = c.get(data, "company_sales", "", dict, required=False,
                                   default={"min_factor": 0.5, "max_factor": 2.0})
        self.net_worth = c.get(data, "net_worth", "", list, required=False,
                               default=["cash", "shares", "companies"])
        self.option_specs = c.get(data, "options", "", dict, required=False, default={})

        market = c.get(data, "market", "", dict)
        rows = c.get(market, "rows", "market", list)
        zones = c.get(market, "zones", "market", dict, required=False, default={})
        for r, row in enumerate(rows):
            c.check(row, f"market.rows[{r}]", list)
            for i, cell in enumerate(row):
                cell = str(cell)
                if cell and not cell.rstrip("abcdefghijklmnopqrstuvwxyz").isdigit():
                    c.fail(f"market.rows[{r}][{i}]",
                           f"expected a price with zone letters (e.g. 67p, 60y), got {cell!r}")
        self.market_rows = [[str(x) for x in row] for row in rows]
        self.market_zones = {str(k): list(v) for k, v in zones.items()}

        defaults = data.get("corporation_defaults") or {}
        self.corporations: list[CorpSpec] = []
        for i, cd in enumerate(c.get(data, "corporations", "", list)):
            p = f"corporations[{i}]"
            sym = str(c.get(cd, "sym", p, str))
            merged = {**defaults, **cd}
            tokens = c.get(merged, "tokens", p, list)
            for j, t in enumerate(tokens):
                c.check(t, f"{p}.tokens[{j}]", int)
            shares = merged.get("shares", [20] + [10] * 8)
            c.check(shares, f"{p}.shares", list)
            for j, s in enumerate(shares):
                c.check(s, f"{p}.shares[{j}]", int)
            if sum(shares) != 100:
                c.fail(f"{p}.shares", f"certificates add up to {sum(shares)}%, not 100%")
            self.corporations.append(CorpSpec(
                sym=sym, name=str(merged.get("name", sym)), home=merged.get("home"),
                home_city=merged.get("home_city"), tokens=list(tokens), shares=list(shares),
                float_percent=int(merged.get("float_percent", self.stock.get("float_percent", 60))),
                extra={k: v for k, v in merged.items() if k not in (
                    "sym", "name", "home", "home_city", "tokens", "shares", "float_percent")}))
        self.companies: list[CompanySpec] = []
        for i, cd in enumerate(c.get(data, "companies", "", list, required=False, default=[])):
            p = f"companies[{i}]"
            self.companies.append(CompanySpec(
                sym=str(c.get(cd, "sym", p, str)), name=str(cd.get("name", cd.get("sym"))),
                value=c.get(cd, "value", p, int), revenue=c.get(cd, "revenue", p, int),
                blocks=list(cd.get("blocks") or []), special=dict(cd.get("special") or {})))
        self.trains: list[TrainSpec] = []
        for i, td in enumerate(c.get(data, "trains", "", list)):
            p = f"trains[{i}]"
            count = td.get("count")
            if count == "unlimited":
                count = None
            elif count is not None:
                c.check(count, f"{p}.count", int)
            dist = td.get("distance")
            if dist is not None and not isinstance(dist, (int, dict)):
                c.fail(f"{p}.distance", f"expected an integer, a mapping or null, got {dist!r}")
            self.trains.append(TrainSpec(
                name=str(c.get(td, "name", p, str)), distance=dist,
                price=c.get(td, "price", p, int), count=count,
                rusts_on=_opt_str(td.get("rusts_on")), obsolete_on=_opt_str(td.get("obsolete_on")),
                available_on=_opt_str(td.get("available_on")),
                events=list(td.get("events") or []), exchange=td.get("exchange"),
                extra={k: v for k, v in td.items() if k not in (
                    "name", "distance", "price", "count", "rusts_on", "obsolete_on",
                    "available_on", "events", "exchange")}))
        self.phases: list[PhaseSpec] = []
        for i, ph in enumerate(c.get(data, "phases", "", list)):
            p = f"phases[{i}]"
            self.phases.append(PhaseSpec(
                name=str(c.get(ph, "name", p, str)), on=_opt_str(ph.get("on")),
                tiles=list(c.get(ph, "tiles", p, list)),
                train_limit=_train_limit(c, ph, p),
                operating_rounds=c.get(ph, "operating_rounds", p, int),
                company_buy=bool(ph.get("company_buy", False)),
                extra={k: v for k, v in ph.items() if k not in (
                    "name", "on", "tiles", "train_limit", "operating_rounds", "company_buy")}))
        train_names = {t.name for t in self.trains}
        for i, ph in enumerate(self.phases):
            if ph.on is not None and ph.on not in train_names:
                c.fail(f"phases[{i}].on", f"unknown train {ph.on!r}"
                       + did_you_mean(ph.on, train_names))
        for i, t in enumerate(self.trains):
            for key in ("rusts_on", "obsolete_on", "available_on"):
                v = getattr(t, key)
                if v is not None and v not in train_names:
                    c.fail(f"trains[{i}].{key}", f"unknown train {v!r}" + did_you_mean(v, train_names))
        self.board = data.get("board")

        self.corp_by_sym = {cs.sym: cs for cs in self.corporations}
        self.company_by_sym = {cs.sym: cs for cs in self.companies}
        self.train_by_name = {t.name: t for t in self.trains}

    def _by_players(self, c: _Checker, data, key) -> dict[int, int]:
        raw = c.get(data, key, "", dict)
        out = {}
        for k, v in raw.items():
            try:
                n = int(k)
            except (TypeError, ValueError):
                c.fail(f"{key}.{k}", "keys must be player counts")
            c.check(v, f"{key}.{k}", int)
            out[n] = v
        return out

    def option(self, name: str) -> bool:
        return name in self.options


def _train_limit(c: "_Checker", ph: dict, p: str):
    """A phase's train limit: one number, or one per company kind."""
    value = ph.get("train_limit")
    if isinstance(value, dict):
        for kind, n in value.items():
            c.check(n, f"{p}.train_limit.{kind}", int)
        return {str(k): v for k, v in value.items()}
    return c.get(ph, "train_limit", p, int)


def _opt_str(v):
    return None if v is None else str(v)


# ---------------------------------------------------------------------------

def _path_segments(path: str) -> list:
    import re
    out = []
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        out.append(int(part[1:-1]) if part.startswith("[") else part)
    return out


def _translate_path(path: str, merged) -> str:
    out, node = "", merged
    try:
        for seg in _path_segments(path):
            if isinstance(seg, int):
                out, node = f"{out}[{seg}]", node[seg]
            elif isinstance(node, list):
                idx = next(i for i, it in enumerate(node)
                           if isinstance(it, dict) and str(it.get("sym", it.get("name"))) == seg)
                out, node = f"{out}[{idx}]", node[idx]
            else:
                out, node = _path_join(out, seg), node[seg]
    except (KeyError, IndexError, StopIteration, TypeError):
        return path
    return out


def _resolve(title: str, seen: tuple = (), base_dir: Optional[Path] = None) -> tuple[dict, dict]:
    """The merged data of a ruleset (a title or a YAML file) and the file,
    line and column of every value by YAML path.  The merged data's
    ``base_title`` is the built-in title whose class plays it."""
    path, builtin = _locate(title, base_dir)
    key = builtin or str(path.resolve())
    if key in seen:
        names = [Path(x).name if "/" in x else x for x in seen + (key,)]
        raise InputError(f"ruleset '{names[0]}' extends itself (cycle: {' -> '.join(names)})")
    seen = seen + (key,)
    doc = _read_doc(str(path))
    if not isinstance(doc.data, dict):
        raise RulesetError("a ruleset must be a YAML mapping", path=str(path), line=1)
    data = dict(doc.data)
    marks = {k: (str(path), *v) for k, v in doc.marks.items()}
    includes = data.pop("include", None) or {}
    if not isinstance(includes, dict):
        l, col = doc.marks.get("include", (None, None))
        raise RulesetError("include: expected a mapping of key: file", path=str(path), line=l, column=col)
    for key, fname in includes.items():
        idoc = _read_doc(str(path.parent / str(fname)))
        data[key] = deep_merge(data.get(key), idoc.data) if key in data else idoc.data
        for k, v in idoc.marks.items():
            marks[_path_join(key, k[1:] if k.startswith(".") else k) if k else key] = (idoc.path, *v)
    parent = data.get("extends")
    if parent:
        pdata, pmarks = _resolve(str(parent), seen, path.parent)
        merged = deep_merge(pdata, {k: v for k, v in data.items() if k != "extends"})
        merged["extends"] = str(parent)
        merged["base_title"] = builtin or pdata["base_title"]
        # marks of the child win; the parent's fill the rest.  A child's patch
        # of a list by name ("trains.4.price") marks the merged list's item
        # ("trains[2].price").
        allmarks = dict(pmarks)
        for k, v in marks.items():
            allmarks[_translate_path(k, merged)] = v
        return merged, allmarks
    if builtin is None:
        raise RulesetError("a ruleset file must extend a title (for example 'extends: \"1830\"')",
                           path=str(path), line=1, column=1)
    data["base_title"] = builtin
    return data, marks


@functools.lru_cache(maxsize=64)
def _load_cached(title: str, options: tuple[str, ...]) -> Ruleset:
    data, marks = _resolve(title)
    title = str(data.get("title", title))
    specs = data.get("options") or {}
    for opt in options:
        if opt not in specs:
            raise InputError(f"unknown option '{opt}' for {title}" + did_you_mean(opt, specs)
                             + (f"; options: {', '.join(specs)}" if specs else "; it has no options"))
        override = (specs[opt] or {}).get("set")
        if override:
            data = deep_merge(data, override)
    return Ruleset(title, data, marks, list(options))


def load_ruleset(title: str, options=()) -> Ruleset:
    """The ruleset of ``title`` with the given game options applied."""
    return _load_cached(str(title), tuple(sorted(set(options))))
