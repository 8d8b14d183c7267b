"""Tile and hex content: the board YAML format, and the 18xx.games tile
notation it is converted from.

A *content* (a tile of the manifest, or what is printed on a map hex) is:

* ``nodes``: revenue centres, cities first, then towns, then off-board areas,
  then halts (1860's track-side stops that pay a subsidy, not revenue).
  A node is addressed in the YAML as ``c0``/``c1`` (cities), ``t0``/``t1``
  (towns), ``o0`` (off-board), ``h0`` (halt); inside the program as the integer
  ``NODE_BASE + index`` into that combined list (see :func:`node_end`).
* ``paths``: track pieces, each joining two *ends*.  An end is a hex edge
  (0-5, numbered as in 18xx.games for the layout) or a node.  A path is
  broad gauge unless the YAML gives it a third element (18Ireland's
  ``[0, c0, narrow]``); ``tracks`` holds the gauge of each path.
* ``label`` (OO, NY, B ...), ``cost``/``terrain`` (the price of the first lay
  on a map hex), ``borders`` (impassable or decorative edges of a map hex).

Everything here is immutable and shared; the board keeps per-hex state apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

#: colour progression of tiles (a lay goes exactly one step right)
COLOR_ORDER = ("white", "yellow", "green", "brown", "gray")
#: phase colours in order, for phase-dependent revenue
PHASE_ORDER = ("yellow", "green", "brown", "gray")

#: the gauges a path may have (18xx.games' ``track:``); broad is the default
TRACK_GAUGES = ("broad", "narrow", "dual")

#: ends >= NODE_BASE are nodes (NODE_BASE + node index); 0..5 are edges
NODE_BASE = 6

Revenue = Union[int, dict]


class BoardDataError(ValueError):
    """The board YAML (or tile notation) is malformed."""


@dataclass(frozen=True)
class NodeDef:
    kind: str                 # "city", "town", "offboard" or "halt"
    revenue: Revenue = 0      # int, or {colour: value}
    slots: int = 0            # station slots (cities only)
    group: Optional[str] = None
    hidden: bool = False

    @property
    def letter(self) -> str:
        return {"city": "c", "town": "t", "offboard": "o", "halt": "h"}[self.kind]

    def revenue_in(self, phase_color: str) -> int:
        return revenue_for_phase(self.revenue, phase_color)


@dataclass(frozen=True)
class Content:
    """A tile of the manifest, or the pre-printed content of a map hex."""

    name: str
    color: str
    nodes: tuple = ()                  # tuple[NodeDef]
    paths: tuple = ()                  # tuple[(end, end)]
    label: Optional[str] = None
    cost: int = 0
    terrain: Optional[str] = None
    count: Optional[int] = None        # None = unlimited (manifest tiles)
    borders: tuple = ()                # tuple[(edge, type or None)]
    preprinted: bool = False
    tracks: tuple = ()                 # gauge of each path ("broad", "narrow"); () = all broad
    private_only: bool = False         # laid only by a private's power naming it (1889's port)
    _rot_cache: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def cities(self) -> list:
        return [n for n in self.nodes if n.kind == "city"]

    @property
    def towns(self) -> list:
        return [n for n in self.nodes if n.kind == "town"]

    @property
    def offboards(self) -> list:
        return [n for n in self.nodes if n.kind == "offboard"]

    def node_name(self, index: int) -> str:
        """``c0``/``t1``/``o0`` for a combined node index."""
        kind = self.nodes[index].kind
        return kind[0] + str(sum(1 for n in self.nodes[:index] if n.kind == kind))

    def rotated(self, rotation: int) -> tuple:
        """The paths turned by ``rotation`` sixths (edge e -> e + rotation)."""
        got = self._rot_cache.get(rotation)
        if got is None:
            got = tuple((rotate_end(a, rotation), rotate_end(b, rotation)) for a, b in self.paths)
            self._rot_cache[rotation] = got
        return got

    def exits(self, rotation: int = 0) -> frozenset:
        return frozenset(e for p in self.rotated(rotation) for e in p if e < NODE_BASE)

    def distinct_rotations(self) -> tuple[int, ...]:
        """Rotations 0-5 that give different track (a straight has 3); found
        once per tile, kept on the tile itself (never in a table keyed by
        ``id(tile)``: a tile freed when a board cache is cleared gives its id to
        the next object made, which would then read the other tile's
        rotations)."""
        got = self._rot_cache.get("distinct")
        if got is None:
            seen, out = set(), []
            for r in range(6):
                key = frozenset(frozenset(p) if p[0] != p[1] else p for p in self.rotated(r))
                if key not in seen:
                    seen.add(key)
                    out.append(r)
            got = self._rot_cache["distinct"] = tuple(out)
        return got


def rotate_end(end: int, rotation: int) -> int:
    return (end + rotation) % 6 if end < NODE_BASE else end


def train_is_diesel(train) -> bool:
    """A revenue's ``diesel`` value is what a D-train earns there (the 18xx
    tile notation's colour ``diesel``, 1889's off-board areas)."""
    return str(train or "").rsplit("-", 1)[0].upper() == "D"


def revenue_for_phase(revenue: Revenue, phase_color: str, *, diesel: bool = False) -> int:
    """Value of a revenue in a phase: a plain int, or the highest colour listed
    that is not after the phase colour (the lowest listed if none is); for a
    D-train (``diesel``) its ``diesel`` value where one is given."""
    if not isinstance(revenue, dict):
        return int(revenue or 0)
    if diesel and "diesel" in revenue:
        return int(revenue["diesel"])
    order = {c: i for i, c in enumerate(PHASE_ORDER)}
    rank = order.get(phase_color, len(PHASE_ORDER))
    best, best_rank = None, -1
    lowest, lowest_rank = None, 99
    for color, value in revenue.items():
        r = order.get(color, len(PHASE_ORDER))
        if r <= rank and r > best_rank:
            best, best_rank = value, r
        if r < lowest_rank:
            lowest, lowest_rank = value, r
    return int(best if best is not None else (lowest or 0))


def describe_end(end: int, content: Optional[Content] = None) -> str:
    if end < NODE_BASE:
        return f"edge {end}"
    if content is not None and end - NODE_BASE < len(content.nodes):
        node = content.nodes[end - NODE_BASE]
        return f"the {node.kind} {content.node_name(end - NODE_BASE)}"
    return f"node {end - NODE_BASE}"


# --------------------------------------------------------------------------
# our YAML format -> Content

def _revenue_from_yaml(value) -> Revenue:
    if value is None:
        return 0
    if isinstance(value, dict):
        return {str(k): int(v) for k, v in value.items()}
    return int(value)


def content_from_yaml(name: str, data: dict, *, preprinted: bool = False,
                      default_color: Optional[str] = None) -> Content:
    """Build a :class:`Content` from one ``tiles:`` or ``hexes:`` entry."""
    if not isinstance(data, dict):
        raise BoardDataError(f"{name}: expected a mapping, got {data!r}")
    color = data.get("color", default_color)
    if color is None:
        raise BoardDataError(f"{name}: no color")
    nodes: list[NodeDef] = []
    offsets = {}
    for key, kind in (("cities", "city"), ("towns", "town"), ("offboards", "offboard"),
                      ("halts", "halt")):
        entries = list(data.get(key) or [])
        if kind == "offboard" and data.get("offboard") is not None:
            entries.insert(0, data["offboard"])
        offsets[kind[0]] = len(nodes)
        for entry in entries:
            entry = entry or {}
            nodes.append(NodeDef(
                kind=kind,
                revenue=_revenue_from_yaml(entry.get("revenue")),
                slots=int(entry.get("slots", 1 if kind == "city" else 0)),
                group=entry.get("group"),
                hidden=bool(entry.get("hidden", False)),
            ))
    counts = {letter: sum(1 for n in nodes if n.letter == letter) for letter in "ctoh"}

    def end(value):
        if isinstance(value, bool):
            raise BoardDataError(f"{name}: bad path end {value!r}")
        if isinstance(value, int):
            if not 0 <= value <= 5:
                raise BoardDataError(f"{name}: edge {value} is not 0-5")
            return value
        text = str(value)
        if text.isdigit():
            return end(int(text))
        letter, num = text[:1], text[1:]
        if letter not in offsets or not num.isdigit():
            raise BoardDataError(f"{name}: bad path end {value!r} (use 0-5, c0, t0, o0, h0)")
        if int(num) >= counts[letter]:
            raise BoardDataError(f"{name}: path end {text} names a missing node")
        return NODE_BASE + offsets[letter] + int(num)

    paths = []
    tracks = []
    for p in data.get("paths") or []:
        if not isinstance(p, (list, tuple)) or len(p) not in (2, 3):
            raise BoardDataError(f"{name}: a path is a pair of ends, got {p!r}")
        if len(p) == 3 and p[2] not in TRACK_GAUGES:
            raise BoardDataError(f"{name}: a path's third element is its gauge "
                                 f"({', '.join(TRACK_GAUGES)}), got {p[2]!r}")
        paths.append((end(p[0]), end(p[1])))
        tracks.append(p[2] if len(p) == 3 else "broad")
    borders = []
    for b in data.get("borders") or []:
        borders.append((int(b["edge"]), b.get("type")))
    count = data.get("count")
    if count == "unlimited":
        count = None
    elif count is not None:
        count = int(count)
    return Content(
        name=str(name), color=str(color), nodes=tuple(nodes), paths=tuple(paths),
        label=(str(data["label"]) if data.get("label") is not None else None),
        cost=int(data.get("cost", 0) or 0), terrain=data.get("terrain"),
        count=count, borders=tuple(borders), preprinted=preprinted,
        tracks=tuple(tracks) if any(t != "broad" for t in tracks) else (),
        private_only=bool(data.get("private_only", False)),
    )


# --------------------------------------------------------------------------
# 18xx.games tile notation -> our YAML dict (used by tools/convert_board.py)

_GENERIC = {"blank": "", "city": "city=revenue:0", "town": "town=revenue:0"}


def _parse_revenue(text: str) -> Revenue:
    if "_" in text or "|" in text:
        out = {}
        for item in text.split("|"):
            color, _, value = item.partition("_")
            out[color] = int(value)
        return out
    return int(text)


def parse_18xx_code(code: str) -> dict:
    """Translate one 18xx.games tile code (``city=revenue:20;path=a:0,b:_0``)
    into an entry of our YAML format (without colour/count/name)."""
    code = _GENERIC.get(code.strip(), code)
    out: dict = {}
    defined: list[tuple[str, int]] = []   # in order of definition: (letter, per-type index)
    paths: list = []
    junction_edges: list = []             # edges joined at a junction (18Ireland's tile 60)
    for part in filter(None, (p.strip() for p in code.split(";"))):
        kind, _, rest = part.partition("=")
        props = {}
        for sub in filter(None, rest.split(",")):
            key, _, value = sub.partition(":")
            props[key] = value
        if kind == "halt":
            # a halt pays no revenue; the symbol is what the map prints on it
            halt: dict = {"symbol": props["symbol"]} if props.get("symbol") else {}
            out.setdefault("halts", []).append(halt)
            defined.append(("h", len(out["halts"]) - 1))
        elif kind in ("city", "town", "offboard"):
            node: dict = {"revenue": _parse_revenue(props.get("revenue", "0"))}
            if kind == "city":
                node["slots"] = int(props.get("slots", 1))
            if "groups" in props:
                node["group"] = props["groups"]
            if props.get("hide") == "1":
                node["hidden"] = True
            key = {"city": "cities", "town": "towns", "offboard": "offboards"}[kind]
            out.setdefault(key, []).append(node)
            defined.append((kind[0], len(out[key]) - 1))
        elif kind == "junction":
            # a junction is a track crossing, not a stop: every edge led into
            # it joins every other (written below as edge-to-edge paths)
            defined.append(("j", 0))
        elif kind == "path":
            ends = []
            for k in ("a", "b"):
                v = props[k]
                if v.startswith("_"):
                    letter, idx = defined[int(v[1:])]
                    ends.append(f"{letter}{idx}")
                else:
                    ends.append(int(v))
            if "j0" in ends:
                if props.get("track", "broad") != "broad":
                    raise BoardDataError(f"a junction path of another gauge in {code!r}")
                junction_edges.extend(e for e in ends if e != "j0")
                continue
            if props.get("track", "broad") != "broad":
                ends.append(props["track"])     # 18Ireland's narrow gauge
            paths.append(ends)
        elif kind == "label":
            out["label"] = rest
        elif kind == "upgrade":
            out["cost"] = int(props.get("cost", 0))
            if props.get("terrain"):
                out["terrain"] = props["terrain"]
        elif kind == "border":
            border = {"edge": int(props["edge"])}
            if props.get("type"):
                border["type"] = props["type"]
            if props.get("cost"):
                border["cost"] = int(props["cost"])
            out.setdefault("borders", []).append(border)
        elif kind == "icon" and props.get("blocks_lay") in ("1", "true"):
            out["private_only"] = True      # 1889's port tile: only a private's power lays it
        elif kind in ("icon", "frame", "partition", "stub"):
            continue    # drawing only
        else:
            raise BoardDataError(f"unknown tile part {kind!r} in {code!r}")
    for i, a in enumerate(junction_edges):
        for b in junction_edges[i + 1:]:
            paths.append([a, b])
    defined = [d for d in defined if d[0] != "j"]
    if paths:
        out["paths"] = paths
    # 18xx.games numbers a tile's nodes by their place in the code (its part
    # index); ours go cities, towns, off-boards, halts.  Where the two differ
    # (1860's halts), `node_order` lists our names in 18xx.games' order.
    natural = sorted(defined, key=lambda d: ("ctoh".index(d[0]), d[1]))
    if defined != natural:
        out["node_order"] = [f"{letter}{idx}" for letter, idx in defined]
    # one off-board: write it as the singular `offboard:` key
    if len(out.get("offboards", [])) == 1:
        out["offboard"] = out.pop("offboards")[0]
    return out
