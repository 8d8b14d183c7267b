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
import os
import sys
from pathlib import Path
from typing import Any, Optional

from .codecache import cache_dir  # noqa: F401  (railcheck's cache folder)
from .codecache import write_atomically
from .mechanics.reach import Reach
from .findings import InputError, did_you_mean
from .schema import (CORPORATION_KEYS, OPTION, RULESET, MapOf, Settings, check_ruleset,
                     is_unknown, known_names, path_join)
from .specs import CompanySpec, CorpSpec, PhaseSpec, TrainSpec
from .titles import TITLES, title_class
from .titles import known_titles as _known_titles
from .titles.base import SHARED_EVENTS


# ---------------------------------------------------------------------------
# YAML with positions

class _Doc:
    """Parsed YAML plus the position of every value by its YAML path."""

    def __init__(self, data: Any, marks: dict[str, tuple[str, int, int]], path: str):
        self.data = data
        self.marks = marks
        self.path = path


def _load_yaml(text: str, path: str, root: str = "") -> _Doc:
    """The document, and the (file, line, column) of every value by its YAML
    path below ``root`` (the key an included file is merged at); a mapping
    key's own position is under ``@`` + its path."""
    import yaml     # here: a reading found in the cache (_read_doc) needs no PyYAML

    # libyaml's loader when PyYAML was built with it (same marks, much faster)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)(text)
    try:
        node = loader.get_single_node()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        line = mark.line + 1 if mark else None
        column = mark.column + 1 if mark else None
        pos = getattr(exc, "position", None)    # a character the reader refuses
        if mark is None and isinstance(pos, int) and hasattr(exc, "reason"):
            char = getattr(exc, "character", None)
            shown = f"#x{char:04x}" if isinstance(char, int) else repr(char)
            problem = f"unacceptable character {shown}: {exc.reason}"
            line = text.count("\n", 0, pos) + 1
            column = pos - text.rfind("\n", 0, pos)
        raise InputError(f"malformed YAML: {problem}", path=path,
                         line=line, column=column) from None
    finally:
        loader.dispose()
    marks: dict[str, tuple[str, int, int]] = {}
    constructor = yaml.SafeLoader("")

    def build(n, p):
        marks[p] = (path, n.start_mark.line + 1, n.start_mark.column + 1)
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
                kp = path_join(p, key)
                marks["@" + kp] = (path, knode.start_mark.line + 1, knode.start_mark.column + 1)
                out[key] = build(vnode, kp)
            return out
        if isinstance(n, yaml.SequenceNode):
            return [build(v, path_join(p, i)) for i, v in enumerate(n.value)]
        try:
            return constructor.construct_object(n, deep=True)
        except yaml.YAMLError as exc:
            raise InputError(f"bad value: {exc}", path=path,
                             line=n.start_mark.line + 1) from None

    data = build(node, root) if node is not None else None
    return _Doc(data, marks, path)


# ---------------------------------------------------------------------------
# Where rulesets live: each title's folder (railcheck/titles/<folder>/rules.yaml)

@functools.lru_cache(maxsize=None)
def _read_doc(path: str, root: str = "") -> _Doc:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("ruleset file not found", path=path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read ruleset: {exc}", path=path) from None
    cached = _cache_file(path, root)
    doc = _cache_get(cached, text, path, root)
    if doc is None:
        doc = _load_yaml(text, path, root)
        _cache_put(cached, text, doc, root)
    return doc


# ---------------------------------------------------------------------------
# The cache of YAML readings
#
# Reading a ruleset's YAML with the position of every value is most of the
# time of loading it (1860 reads 1830's and its own rules and board).  The
# reading of each file (its data and marks, exactly what _load_yaml gives) is
# kept in the user's cache folder ($XDG_CACHE_HOME/railcheck, else
# ~/.cache/railcheck), one file per ruleset file, with everything the reading
# depends on: the file's whole text, its path and root (the marks name them),
# the Python version and the code that reads it (this file and schema.py, by
# size and time).  A reading is used only when all of these are equal, so an
# edited file is read again, never taken from the cache; merging, options
# and the schema's checks run on every load as before, so an error is found
# and located exactly as without the cache.  RAILCHECK_NO_CACHE=1 turns it
# off; a cache folder that cannot be made or written is simply not used, and a
# cache file that cannot be read back (damaged, another version) is ignored
# and written again.

#: the form of a cache file; raise it when what _load_yaml returns changes
_CACHE_FORMAT = 1


@functools.lru_cache(maxsize=1)
def _code_stamp() -> str:
    """What identifies the code that makes a reading: the Python version and
    the size and time of this file and of schema.py (path_join)."""
    from . import schema
    parts = [sys.version, str(_CACHE_FORMAT)]
    for f in (__file__, schema.__file__):
        try:
            st = os.stat(f)
            parts.append(f"{f}:{st.st_size}:{st.st_mtime_ns}")
        except (OSError, TypeError):
            parts.append(str(f))
    return "\0".join(parts)


def _cache_file(path: str, root: str) -> Optional[Path]:
    """The cache file of the reading of ``path`` under ``root`` (a file's
    next reading replaces it; what it was read from is checked in full by
    _cache_get)."""
    folder = cache_dir()
    if folder is None:
        return None
    import zlib
    name = "\0".join((_code_stamp(), path, root)).encode("utf-8", "surrogatepass")
    return folder / f"yaml-{zlib.crc32(name):08x}{zlib.adler32(name):08x}.marshal"


def _cache_get(cached: Optional[Path], text: str, path: str, root: str) -> Optional[_Doc]:
    """The reading kept in ``cached`` if it was made from this very text, at
    this path and root, by this code; else None."""
    if cached is None:
        return None
    import marshal
    try:
        with open(cached, "rb") as fh:
            blob = fh.read()    # marshal.load(fh) would read it piece by piece: far slower
        stamp, ctext, cpath, croot, data, marks = marshal.loads(blob)
    except Exception:         # absent, unreadable, damaged or of another form
        return None
    if (stamp, ctext, cpath, croot) != (_code_stamp(), text, path, root) \
            or not isinstance(marks, dict):
        return None
    return _Doc(data, marks, path)


def _cache_put(cached: Optional[Path], text: str, doc: _Doc, root: str) -> None:
    """Keep a reading in the cache: written to a temporary file and renamed,
    so that a reader never sees half a file; any failure leaves no cache."""
    if cached is None:
        return
    import marshal
    try:
        blob = marshal.dumps((_code_stamp(), text, doc.path, root, doc.data, doc.marks))
    except ValueError:        # a value marshal cannot keep (a YAML date): not cached
        return
    if write_atomically(cached, blob):
        try:
            _prune(cached.parent)
        except Exception:     # the folder went away or cannot be listed: kept as is
            pass


#: the most readings the cache keeps (one per ruleset file read; a new version
#: of railcheck, or of Python, reads every file anew)
_CACHE_MAX = 256


def _prune(folder: Path) -> None:
    """Keep the _CACHE_MAX readings written last: the oldest go."""
    entries = []
    for entry in os.scandir(folder):
        if entry.name.startswith("yaml-") and entry.name.endswith(".marshal"):
            try:
                entries.append((entry.stat().st_mtime_ns, entry.path))
            except OSError:
                pass
    if len(entries) <= _CACHE_MAX:
        return
    entries.sort()
    for _, path in entries[:len(entries) - _CACHE_MAX]:
        try:
            os.unlink(path)
        except OSError:
            pass


def title_index() -> dict[str, str]:
    """Title id -> the path of its ruleset file."""
    return {tid: str(cls.ruleset_path()) for tid, cls in TITLES.items()}


def known_titles() -> list[str]:
    return _known_titles()


def _locate(ref: str, base_dir: Optional[Path] = None) -> tuple[Path, Optional[str]]:
    """Where the ruleset ``ref`` lives: a built-in title (by id or alias)
    gives its folder's rules.yaml and its id; a path to a YAML file (``.yaml``
    or ``.yml``: a house rule or variant, relative to ``base_dir``) gives the
    file and None.  Anything else is an unknown title."""
    cls = title_class(ref)
    if cls is not None:
        return cls.ruleset_path(), cls.id
    if ref.endswith((".yaml", ".yml")):
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
# The typed ruleset (its parts: railcheck/specs.py)

class RulesetError(InputError):
    pass


class _Checker:
    """Reports a problem at a YAML path with the file, line and column it
    was written at (the context of ``schema.check_ruleset``)."""

    def __init__(self, doc_marks: dict[str, tuple[str, int, int]], known=None, note: str = "",
                 implements=None):
        self.marks = doc_marks
        #: names references may use (schema.known_names)
        self.known = known or {}
        #: said after every message (e.g. which option's ``set`` is checked)
        self.note = note
        #: values the title's class implements beyond a key's ``supported``
        #: (``Title.implements``: YAML path -> values)
        self.implements = implements or {}

    def where(self, ypath: str, key: bool = False):
        if key and "@" + ypath in self.marks:
            return self.marks["@" + ypath]
        # the nearest path we have a mark for
        p = ypath
        while p and p not in self.marks:
            if p.endswith("]"):
                p = p[: p.rfind("[")]
            elif "." in p:
                p = p[: p.rfind(".")]
            else:
                p = ""
        return self.marks.get(p, ("<ruleset>", None, None))

    def fail(self, ypath: str, msg: str, key: bool = False):
        file, line, col = self.where(ypath, key)
        raise RulesetError(f"{ypath}: {msg}{self.note}", path=file, line=line, column=col)

    def unknown(self, ypath: str, name, known, what: str):
        hint = did_you_mean(str(name), known)
        self.fail(ypath, f"unknown {what} '{name}'" + (hint or f"; known: {', '.join(known)}"),
                  key=True)


def check_data(data: dict, marks: dict, note: str = "", only=None) -> dict:
    """``data`` checked against the schema, every default filled in (only
    the top-level keys ``only``, if given)."""
    cls = title_class(str(data.get("base_title") or data.get("title") or ""))
    implements = getattr(cls, "implements", None)
    return check_ruleset(data, _Checker(marks, known_names(data), note, implements), only)


class Ruleset:
    """Everything a title's YAML says, checked (:func:`check_data`: every
    section has all its keys) and typed."""

    def __init__(self, title: str, data: dict, marks: dict, options: list[str],
                 source: Optional[str] = None, note: str = ""):
        data = check_data(data, marks, note)
        self.title = title
        #: the user's ruleset file this was loaded from (None: a built-in title)
        self.source = source
        #: the built-in title whose class (round sequence, steps) plays this ruleset
        self.base_title = str(data.get("base_title") or title)
        #: the Title class whose rounds and steps play this ruleset (the game and the
        #: engine take it from here: they never look a title up)
        self.title_class: Any = title_class(self.base_title)
        #: the checked data (every default filled in): for showing it; the code reads
        #: ``settings`` (or the sections below), where a key's default is the schema's
        self.raw = data
        #: every top-level key, typed (schema.Settings): ``rules.settings.bank_counts``;
        #: the top-level keys that are sections are attributes of their own below
        self.settings = Settings(RULESET, data)
        self.options = options
        c = _Checker(marks)
        self._checker = c
        self.full_name = str(data["full_name"] or title)
        self.extends = data["extends"]
        self.min_players = data["players"]["min"]
        self.max_players = data["players"]["max"]
        self.currency = str(data["currency"])
        self.starting_cash, self.bank, self.cert_limit, _ = money_numbers(
            data["starting_cash"], data["bank"], data["cert_limit"], [])
        settings = self.settings
        self.auction = settings.auction
        self.stock = settings.stock
        self.operating = settings.operating
        self.end = settings.end
        self.setup = settings.setup
        self.company_sales = settings.company_sales
        self.market = settings.market
        self.net_worth = data["net_worth"]
        self.option_specs = data["options"]

        market = data["market"]
        for r, row in enumerate(market["rows"]):
            for i, cell in enumerate(row):
                cell = str(cell)
                if cell and not cell.rstrip("abcdefghijklmnopqrstuvwxyz").isdigit():
                    c.fail(f"market.rows[{r}][{i}]",
                           f"expected a price with zone letters (e.g. 67p, 60y), got {cell!r}")
        self.market_rows = money_numbers({}, 0, {}, market["rows"])[3]
        self.market_zones = {str(k): list(v) for k, v in market["zones"].items()}

        defaults = data["corporation_defaults"]
        corp_keys = {k.name: k for k in CORPORATION_KEYS}
        self.corporations: list[CorpSpec] = []
        for i, cd in enumerate(data["corporations"]):
            p = f"corporations[{i}]"
            merged = {**defaults, **cd}
            for key in ("sym", "tokens"):
                if key not in merged:
                    c.fail(f"{p}.{key}", "is required")
            shares = merged.get("shares", corp_keys["shares"].default)
            if sum(shares) != 100:
                c.fail(f"{p}.shares", f"certificates add up to {sum(shares)}%, not 100%")
            sym = str(merged["sym"])
            tokens = list(merged["tokens"])
            if (data.get("setup") or {}).get("start_station") == "extra" and merged.get("home") \
                    and tokens:
                tokens.append(tokens[-1])       # the start station is a marker of its own
            self.corporations.append(CorpSpec(
                sym=sym, name=str(merged.get("name") or sym), home=merged.get("home"),
                home_city=merged.get("home_city"), tokens=tokens,
                shares=list(shares),
                float_percent=int(self.stock["float_percent"] if merged.get("float_percent") is None
                                  else merged["float_percent"]),
                extra={k: v for k, v in merged.items() if k not in corp_keys},
                kind=str(merged.get("kind") or "major"),
                color=merged.get("color"), section=merged.get("section"),
                reserved_share=bool(merged.get("reserved_share")),
                max_ownership_percent=merged.get("max_ownership_percent")))
        self.companies: list[CompanySpec] = []
        for cd in data["companies"]:
            self.companies.append(CompanySpec(
                sym=str(cd["sym"]), name=str(cd.get("name") or cd["sym"]),
                value=cd["value"], revenue=cd["revenue"], blocks=list(cd["blocks"]),
                special=dict(cd["special"]), min_players=cd["min_players"]))
        self.trains: list[TrainSpec] = []
        for i, td in enumerate(data["trains"]):
            count = td["count"]
            try:
                reach = Reach.from_distance(td["distance"], td["gauge"])
            except ValueError as exc:
                c.fail(f"trains[{i}].distance", str(exc))
            self.trains.append(TrainSpec(
                name=str(td["name"]), distance=td["distance"], price=td["price"],
                count=None if count == "unlimited" else count,
                rusts_on=_opt_str(td["rusts_on"]), obsolete_on=_opt_str(td["obsolete_on"]),
                available_on=_opt_str(td["available_on"]), events=list(td["events"]),
                exchange=td["exchange"], reach=reach, trade_in=dict(td["trade_in"]),
                primed=bool(td["primed"])))
        self.phases: list[PhaseSpec] = []
        for ph in data["phases"]:
            self.phases.append(PhaseSpec(
                name=str(ph["name"]), on=_opt_str(ph["on"]), tiles=list(ph["tiles"]),
                train_limit=ph["train_limit"], operating_rounds=ph["operating_rounds"],
                company_buy=ph["company_buy"],
                extra={"events": list(ph["events"]), "private_trades": ph["private_trades"]}))
        known_events = _known_events(self.base_title)
        lists: tuple = (("trains", self.trains), ("phases", self.phases))
        for kind, items in lists:
            for i, item in enumerate(items):
                events = item.events if kind == "trains" else item.extra["events"]
                for j, ev in enumerate(events):
                    if ev not in known_events:
                        c.fail(f"{kind}[{i}].events[{j}]", f"unknown event {ev!r}; "
                               f"{self.base_title} knows {', '.join(sorted(known_events))}")
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
            for j, v in enumerate((t.exchange or {}).get("trains", [])):
                if str(v) not in train_names:
                    c.fail(f"trains[{i}].exchange.trains[{j}]", f"unknown train {v!r}"
                           + did_you_mean(str(v), train_names))
        self.board = data.get("board")

        self.corp_by_sym = {cs.sym: cs for cs in self.corporations}
        self.company_by_sym = {cs.sym: cs for cs in self.companies}
        self.train_by_name = {t.name: t for t in self.trains}

    def option(self, name: str) -> bool:
        return name in self.options

    def describe(self) -> dict:
        """Which ruleset this is (for reports): name, file, what it extends."""
        return {"name": self.title, "path": self.source, "extends": self.extends}


def money_numbers(starting_cash, bank, cert_limit, market_rows) -> tuple:
    """The numbers the shared ``Game`` reads of a ruleset's money, as a ``Ruleset`` holds
    them: the starting cash and the certificate limit by player count, the bank, the market
    grid.  A number a title's components file leaves ``unknown`` (``schema.UNKNOWN``: 1890's)
    is nothing there (an empty mapping, or None), and the ``Game`` then tracks no money
    (``Unsure.off``)."""
    return ({} if is_unknown(starting_cash) else {int(k): v for k, v in starting_cash.items()},
            None if is_unknown(bank) else int(bank),
            {} if is_unknown(cert_limit) else {int(k): v for k, v in cert_limit.items()},
            None if is_unknown(market_rows) else [[str(c) for c in row] for row in market_rows])


def _known_events(base_title: str) -> set:
    """The events trains and phases may name: the shared ones and the title's."""
    cls = title_class(base_title)
    return set(SHARED_EVENTS) | set(getattr(cls, "events", ()))


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
            if isinstance(seg, str) and seg.endswith("!"):
                seg = seg[:-1]          # "key!" replaced the key
            if isinstance(seg, int):
                out, node = f"{out}[{seg}]", node[seg]
            elif isinstance(node, list):
                idx = next(i for i, it in enumerate(node)
                           if isinstance(it, dict) and str(it.get("sym", it.get("name"))) == seg)
                out, node = f"{out}[{idx}]", node[idx]
            else:
                out, node = path_join(out, seg), node[seg]
    except (KeyError, IndexError, StopIteration, TypeError):
        return path
    return out


def _translate_mark(mark: str, merged) -> str:
    """A child's mark (a patch of a list by name) as the merged data's path."""
    if mark.startswith("@"):
        return "@" + _translate_path(mark[1:], merged)
    return _translate_path(mark, merged)


def _resolve(title: str, seen: tuple = (), base_dir: Optional[Path] = None) -> tuple[dict, dict]:
    """The merged data of a ruleset (a title or a YAML file) and the file,
    line and column of every value by YAML path.  The merged data's
    ``base_title`` is the built-in title whose class plays it."""
    path, builtin = _locate(title, base_dir)
    if builtin is not None and TITLES[builtin].uses_components:
        raise InputError(f"{builtin} takes its numbers from a components file "
                         f"(docs/{builtin}-components.md); a ruleset file cannot extend it")
    key = builtin or str(path.resolve())
    if key in seen:
        names = [Path(x).name if "/" in x else x for x in seen + (key,)]
        raise InputError(f"ruleset '{names[0]}' extends itself (cycle: {' -> '.join(names)})")
    seen = seen + (key,)
    doc = _read_doc(str(path))
    if not isinstance(doc.data, dict):
        raise RulesetError("a ruleset must be a YAML mapping", path=str(path), line=1)
    data = dict(doc.data)
    marks = dict(doc.marks)
    includes = data.pop("include", None) or {}
    if not isinstance(includes, dict):
        _, l, col = doc.marks.get("include", (None, None, None))
        raise RulesetError("include: expected a mapping of key: file", path=str(path), line=l, column=col)
    for key, fname in includes.items():
        idoc = _read_doc(str(path.parent / str(fname)), str(key))
        data[key] = deep_merge(data.get(key), idoc.data) if key in data else idoc.data
        marks.update(idoc.marks)
    parent = data.get("extends")
    if parent:
        try:
            pdata, pmarks = _resolve(str(parent), seen, path.parent)
        except InputError as exc:
            if exc.path is not None:
                raise
            _, line, col = doc.marks.get("extends", (None, None, None))  # an unknown title
            raise RulesetError(f"extends: {exc.bare}", path=str(path), line=line,
                               column=col) from None
        merged = deep_merge(pdata, {k: v for k, v in data.items() if k != "extends"})
        merged["extends"] = str(parent)
        merged["base_title"] = builtin or pdata["base_title"]
        # marks of the child win; the parent's fill the rest.  A child's patch
        # of a list by name ("trains.4.price") marks the merged list's item
        # ("trains[2].price").
        allmarks = dict(pmarks)
        for k, v in marks.items():
            allmarks[_translate_mark(k, merged)] = v
        return merged, allmarks
    if builtin is None:
        raise RulesetError("a ruleset file must extend a title (for example 'extends: \"1830\"')",
                           path=str(path), line=1, column=1)
    data["base_title"] = builtin
    return data, marks


def _with_option(data: dict, marks: dict, name: str, option_marks: dict) -> tuple[dict, dict]:
    """``data`` with option ``name``'s ``set`` applied; the marks of what it
    sets point into the option."""
    override = data["options"][name]["set"]
    if not override:
        return data, marks
    merged = deep_merge(data, override)
    prefix = f"options.{name}.set"
    marks = dict(marks)
    for at in ("", "@"):
        start = at + prefix + "."
        for k, v in option_marks.items():
            if k.startswith(start):
                marks[_translate_mark(at + k[len(start):], merged)] = v
    return merged, marks


@functools.lru_cache(maxsize=64)
def _load_cached(title: str, options: tuple[str, ...]) -> Ruleset:
    data, marks = _resolve(title)
    source = None if _is_title(title) else title
    title = str(data.get("title") or title)
    # the options first: what they set is checked with the rest
    specs = MapOf(OPTION).check(data.get("options") or {}, "options", _Checker(marks))
    data = base = {**data, "options": specs}
    base_marks = marks
    option_marks = {k: v for k, v in marks.items() if k.startswith(("options.", "@options."))}
    for opt in options:
        if opt not in specs:
            raise InputError(f"unknown option '{opt}' for {title}" + did_you_mean(opt, specs)
                             + (f"; options: {', '.join(specs)}" if specs else "; it has no options"))
    for opt in options:
        data, marks = _with_option(data, marks, opt, option_marks)
    rules = Ruleset(title, data, marks, list(options), source,
                    note=f" (with option {', '.join(options)})" if options else "")
    # every option's changes are checked, whether this game selects it or not
    for name, spec in specs.items():
        if spec["set"] and name not in options:
            check_data(*_with_option(base, base_marks, name, option_marks),
                       note=f" (in option {name})", only=list(spec["set"]))
    return rules


def _is_title(ref: str) -> bool:
    return title_class(ref) is not None


def load_ruleset(title: str, options=(), components: Optional[str] = None) -> Ruleset:
    """The ruleset of ``title`` (a built-in title, or a user's YAML file)
    with the given game options applied; a title whose numbers come from a
    components file (``Title.uses_components``) loads its own rules, merged
    with the file ``components`` (None: every number unknown)."""
    cls = title_class(str(title))
    if cls is not None and cls.uses_components:
        return cls.load_rules(tuple(options), components)
    return _load_cached(str(title), tuple(sorted(set(options))))
