"""The map of an 18xx game during replay: tiles, station markers, private
blocks, and the checks of tile lays and station placements.  Route checks are
in :mod:`railcheck.board.routes`, drawing in :mod:`railcheck.board.render`.

Every check raises :class:`railcheck.findings.RuleViolation` with a message
that names the tile, rotation, hex, edge, city or company involved.  Nothing
is changed when a check fails.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Iterable, Optional, Union

from ..findings import RuleViolation, did_you_mean
from .gauge import connection_problem, gauge_mismatch, lay_is_narrow
from .routes import check_routes
from .hexgrid import DIRECTIONS, DEFAULT_AXES, invert, to_xy
from .network import paths_at, reached_edges
from .tiles import (COLOR_ORDER, NODE_BASE, BoardDataError, Content, content_from_yaml,
                    describe_end)

ALL_EDGES = frozenset(range(6))


def load_board_yaml(path: str) -> dict:
    """Read a board YAML file (``railcheck/titles/<folder>/board.yaml``)."""
    import yaml

    with open(path, encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    if not isinstance(data, dict) or "hexes" not in data or "tiles" not in data:
        raise BoardDataError(f"{path}: a board needs 'tiles' and 'hexes'")
    return data


_PARSE_CACHE: dict = {}
#: id(board data) -> (the data, hex positions, per hex its neighbours and
#: the edges new track may leave by): see Board.__init__
_GEOMETRY_CACHE: dict = {}


def _same_kind(a: str, b: str) -> bool:
    """Node kinds an upgrade may turn into each other: equal, or a town and a
    halt (1860: a printed town becomes a halt tile and back)."""
    return a == b or {a, b} == {"town", "halt"}


_SMALL_CACHE: dict = {}


def selected_map(board_data: dict) -> dict:
    """The board data to play: with ``use_small_map`` (an option sets it), the
    map ``small_map`` describes (its ``remove_hexes`` leave the map, its
    ``add_hexes`` are then printed as given, the tiles of its
    ``remove_tile_copies``, tile-copy ids, leave the box); else the data as it
    is.  Made once per dict object."""
    if not board_data.get("use_small_map"):
        return board_data
    got = _SMALL_CACHE.get(id(board_data))
    if got is not None and got[0] is board_data:
        return got[1]
    small = board_data.get("small_map") or {}
    gone = {str(h) for h in small.get("remove_hexes") or ()}
    hexes = {k: v for k, v in (board_data.get("hexes") or {}).items() if str(k) not in gone}
    hexes.update(small.get("add_hexes") or {})
    tiles = dict(board_data.get("tiles") or {})
    for copy_id in small.get("remove_tile_copies") or ():
        name = str(copy_id).rpartition("-")[0]
        entry = tiles.get(name)
        if isinstance(entry, dict) and isinstance(entry.get("count"), int):
            tiles[name] = {**entry, "count": max(entry["count"] - 1, 0)}
    derived = {**board_data, "hexes": hexes, "tiles": tiles}
    if len(_SMALL_CACHE) > 16:
        _SMALL_CACHE.clear()
    _SMALL_CACHE[id(board_data)] = (board_data, derived)
    return derived


def map_contents(board_data: dict):
    """The tiles (name -> :class:`Content`) and the printed hexes (a list of
    (coord, name, Content)) of the map a ruleset's board data plays, without
    a :class:`Board`: what the rules need of the map when it is not checked
    (``--no-board``), e.g. a hex's printed colour or a tile's gauge."""
    return _parsed(selected_map(board_data))


def _parsed(board_data: dict):
    """Tile and hex contents of a board dict, parsed once per dict object
    (contents are immutable and shared between boards)."""
    key = id(board_data)
    got = _PARSE_CACHE.get(key)
    if got is not None and got[0] is board_data:
        return got[1], got[2]
    tiles = {str(name): content_from_yaml(str(name), entry)
             for name, entry in (board_data.get("tiles") or {}).items()}
    hexes = []
    for coord, entry in (board_data.get("hexes") or {}).items():
        coord = str(coord)
        base = content_from_yaml(coord, entry or {}, preprinted=True, default_color="white")
        hexes.append((coord, (entry or {}).get("name"), base))
    if len(_PARSE_CACHE) > 16:
        _PARSE_CACHE.clear()
    _PARSE_CACHE[key] = (board_data, tiles, hexes)
    return tiles, hexes


class _Node:
    """A revenue centre on a hex as it is now (tokens change, the rest comes
    from the tile)."""

    __slots__ = ("kind", "revenue", "slots", "tokens", "reserved", "group", "hidden")

    def __init__(self, kind, revenue, slots, group=None, hidden=False):
        self.kind = kind
        self.revenue = revenue
        self.slots = slots
        self.tokens: list[str] = []     # corporations with a station marker here
        self.reserved: list[str] = []   # corporations whose home slot this is (not yet placed)
        self.group = group
        self.hidden = hidden

    def blocks(self, corp: str) -> bool:
        """True when ``corp`` cannot run through (all slots filled by others)."""
        return (self.kind == "city" and len(self.tokens) >= self.slots
                and corp not in self.tokens)


_STAMPS = itertools.count()


def next_tile_copy(name: str, count: Optional[int], on_map, gone) -> str:
    """The copy of tile ``name`` an 18xx.games export names at its next lay,
    ``on_map`` the copies on the map, ``gone`` those an upgrade took off it,
    in the order it did.  The site's supply is a list: the copies in number
    order, a lay takes the first of its name, an upgrade puts the copy it
    took off the map at the end.  So the next is the lowest-numbered copy
    never laid, or, with every copy laid once, the one taken off the map
    first (1830: 15-1 and then 15-0 upgraded, the next lay of 15 is 15-1)."""
    k = 0
    while f"{name}-{k}" in on_map or f"{name}-{k}" in gone:
        k += 1
    if count is None or k < count:
        return f"{name}-{k}"
    for copy in gone:
        if copy.rpartition("-")[0] == name and copy not in on_map:
            return copy
    return f"{name}-{k}"


class _Hex:
    __slots__ = ("coord", "idx", "name", "base", "tile", "rotation", "copy", "color",
                 "paths", "at", "broad_at", "enter", "nodes", "nbr", "track_ok", "impassable",
                 "x", "y", "stamp")

    def __init__(self, coord: str, idx: int, name: Optional[str], base: Content, x: int, y: int):
        self.coord = coord
        self.idx = idx
        self.name = name
        self.base = base
        self.tile = base
        self.rotation = 0
        self.copy: Optional[str] = None
        self.color = base.color
        self.paths: tuple = ()
        self.at: dict = {}
        self.nodes: list[_Node] = [
            _Node(n.kind, n.revenue, n.slots, n.group, n.hidden) for n in base.nodes]
        self.nbr = [-1] * 6          # neighbour index through each edge (no impassable border)
        self.track_ok = [False] * 6  # may new track leave through this edge?
        self.impassable = frozenset(e for e, t in base.borders if t == "impassable")
        self.x, self.y = x, y
        self.set_paths(base.paths)

    @property
    def laid(self) -> bool:
        return not self.tile.preprinted

    def set_paths(self, paths: tuple) -> None:
        self.paths = paths
        # this track's number, never given twice (undo included): what a
        # cache of runs read on the hex keys on, instead of its tile and paths
        self.stamp = next(_STAMPS)
        at: dict = {}
        for i, (a, b) in enumerate(paths):
            at.setdefault(a, []).append(i)
            if b != a:
                at.setdefault(b, []).append(i)
        self.at = at
        # the paths a train and the company's (broad) network use: 18Ireland's
        # narrow gauge left out (the same map as ``at`` where all is broad)
        tracks = self.tile.tracks
        if "narrow" in tracks:
            broad: dict = {}
            for i, (a, b) in enumerate(paths):
                if i < len(tracks) and tracks[i] == "narrow":
                    continue
                broad.setdefault(a, []).append(i)
                if b != a:
                    broad.setdefault(b, []).append(i)
            at = broad
        self.broad_at = at
        # the network walk's states (``Board.network``) that follow from
        # reaching each end of this hex: one per broad path there, left by
        # its other end
        base = self.idx << 8
        self.enter = {end: tuple(base | (i << 4) | (b if a == end else a)
                                 for i in idx for a, b in (paths[i],))
                      for end, idx in at.items()}

    def city_indices(self) -> list[int]:
        return [i for i, n in enumerate(self.nodes) if n.kind == "city"]

    def exits(self) -> frozenset:
        return frozenset(e for p in self.paths for e in p if e < NODE_BASE)


@dataclass
class LayPlan:
    """A checked tile lay, ready to apply (see :meth:`Board.plan_lay`)."""

    hex: "_Hex"
    tile: Content
    name: str
    rotation: int
    mapping: dict
    tile_copy: Optional[str]
    warning: Optional[tuple]
    #: the terrain cost of the hex (paid on the first lay only: a laid tile costs 0)
    cost: int
    #: a lay checked for the company's connection: (old tile, its paths, its
    #: nodes, the lay adds narrow track), for the semi-restrictive rule after
    #: the lay (``gauge.new_track_problem``)
    before: Optional[tuple] = None


class Board:
    """The map of one game.  See docs/board.md."""

    def __init__(self, board_data: dict, corporations: list, companies: list):
        if not isinstance(board_data, dict):
            raise BoardDataError("board data must be a mapping")
        board_data = selected_map(board_data)
        self.layout = board_data.get("layout", "pointy")
        if self.layout not in DIRECTIONS:
            raise BoardDataError(f"unknown layout {self.layout!r} (pointy or flat)")
        self.axes = board_data.get("axes") or DEFAULT_AXES[self.layout]
        self.impassable_colors = frozenset(board_data.get("impassable_colors") or ("blue", "gray", "red"))
        self.color_order = tuple(board_data.get("color_order") or COLOR_ORDER)
        #: tiles laid only at rotation 0 (1860's Ryde, Merstone and Newport)
        self.fixed_rotation = frozenset(str(t) for t in board_data.get("fixed_rotation_tiles") or ())

        tiles, hex_contents = _parsed(board_data)
        self.tiles: dict[str, Content] = dict(tiles)
        #: copies left in supply (None = unlimited)
        self.remaining: dict[str, Optional[int]] = {n: t.count for n, t in self.tiles.items()}

        #: the hexes in the order of their index (``_Hex.idx``; the network walks' states
        #: and the runs' nodes name hexes by it); ``hexes`` finds them by coordinate
        self.hex_list: list[_Hex] = []
        self.hexes: dict[str, _Hex] = {}
        # the printed map's geometry (positions, neighbours, edges track may
        # leave by) depends on the board data alone: found once per dict
        geo = _GEOMETRY_CACHE.get(id(board_data))
        if geo is not None and geo[0] is not board_data:
            geo = None
        for i, (coord, name, base) in enumerate(hex_contents):
            x, y = geo[1][i] if geo is not None else to_xy(coord, self.layout, self.axes)
            h = _Hex(coord, len(self.hex_list), name, base, x, y)
            self.hex_list.append(h)
            self.hexes[coord] = h
        if geo is None:
            self._link_neighbours()
            if len(_GEOMETRY_CACHE) > 16:
                _GEOMETRY_CACHE.clear()
            _GEOMETRY_CACHE[id(board_data)] = (
                board_data, [(h.x, h.y) for h in self.hex_list],
                [(tuple(h.nbr), tuple(h.track_ok)) for h in self.hex_list])
        else:
            for h, (nbr, ok) in zip(self.hex_list, geo[2]):
                h.nbr, h.track_ok = list(nbr), list(ok)
        #: the map has narrow-gauge track (18Ireland): lays are checked against
        #: the broad and the narrow network (``gauge.py``)
        self.gauged = any(t.tracks for t in self.tiles.values()) or \
            any(h.base.tracks for h in self.hex_list)

        # corporations: homes are reserved from the start; a title may let
        # ordinary stations use a reserved slot (18Ireland), the home station
        # then going elsewhere when the company starts
        self.reservations_block_tokens = True
        #: a home whose city is not named, on a hex of several cities (1830's
        #: ERIE on E11), closes the whole hex to other companies' stations
        #: until it is placed (``operating.unnamed_home_closes_hex``)
        self.unnamed_home_closes_hex = False
        self.corporations: dict[str, dict] = {}
        self.tokens_used: dict[str, int] = {}
        for corp in corporations or []:
            sym = corp["sym"]
            homes = corp.get("home") or corp.get("coordinates")
            homes = [homes] if isinstance(homes, str) else list(homes or [])
            home_city = corp.get("home_city", corp.get("city"))
            tokens = corp.get("tokens")
            self.corporations[sym] = {
                "homes": homes, "home_city": home_city,
                "tokens": (len(tokens) if isinstance(tokens, list) else tokens),
            }
            self.tokens_used[sym] = 0
            for home in homes:
                h = self.hexes.get(home)
                if h is None:
                    raise BoardDataError(f"home {home} of {sym} is not on the map")
                cities = h.city_indices()
                if not cities:
                    continue
                ci = cities[home_city] if isinstance(home_city, int) and home_city < len(cities) else cities[0]
                h.nodes[ci].reserved.append(sym)

        # private companies: blocked hexes and tile powers
        self.blocked: dict[str, set] = {}
        self.specials: dict[str, tuple] = {}
        for comp in companies or []:
            sym = comp["sym"]
            for hx in comp.get("blocks") or []:
                self.blocked.setdefault(hx, set()).add(sym)
            special = comp.get("special") or {}
            for kind in ("tile_lay", "teleport"):
                if kind in special:
                    power = special[kind]     # hexes and tiles: required by the ruleset schema
                    # "any": no restriction (hexes None, tiles empty)
                    hexes = None if power["hexes"] == "any" else frozenset(power["hexes"])
                    tiles = frozenset() if power["tiles"] == "any" else \
                        frozenset(str(t) for t in power["tiles"])
                    self.specials[sym] = (kind, hexes, tiles)

        #: counts the changes of the map: a value read from it keyed by the version is
        #: never stale (``memo``)
        self.version = 0
        self._net_cache: dict = {}
        #: the hexes each kept network read (``_kept_networks``)
        self._net_read: dict = {}
        self._stations_cache = None     # corp -> [(hex idx, node idx)], until the next change
        self._copy_hex: dict[str, str] = {}
        #: tile copies an upgrade took off the map (copy -> the hex it was on),
        #: until laid again: a station an export names on one is on no tile
        self._gone: dict[str, str] = {}
        self._relocate: dict[str, set] = {}
        #: notes that are not violations (e.g. a rotation picked among several)
        self.warnings: list[tuple[str, str]] = []

    # ------------------------------------------------------------------ set-up

    def _link_neighbours(self) -> None:
        by_xy = {(h.x, h.y): h for h in self.hex_list}
        dirs = DIRECTIONS[self.layout]
        for h in self.hex_list:
            for e, (dx, dy) in enumerate(dirs):
                nb = by_xy.get((h.x + dx, h.y + dy))
                if nb is None:
                    continue
                if e in h.impassable or invert(e) in nb.impassable:
                    continue
                h.nbr[e] = nb.idx
        for h in self.hex_list:
            for e in range(6):
                ni = h.nbr[e]
                if ni < 0:
                    continue
                nb = self.hex_list[ni]
                h.track_ok[e] = (nb.color not in self.impassable_colors
                                 or invert(e) in nb.exits())

    def memo(self, name: str, key, compute, limit: int = 512):
        """What ``compute()`` gives for ``key``, kept in the board's cache
        ``name`` (at most ``limit`` values, then it starts again).  The key
        holds what the value depends on (the board's version, or the tile
        and track of every hex the value reads), so a kept value is never
        stale; what ``compute`` raises is not kept."""
        try:
            cache = self._memos[name]
        except (AttributeError, KeyError):
            cache = self.__dict__.setdefault("_memos", {}).setdefault(name, {})
        got = cache.get(key)
        if got is None:
            if len(cache) >= limit:
                cache.clear()
            got = cache[key] = compute()
        return got

    def network_memo(self, key: tuple, compute, reads: bool = False):
        """A value that depends on the companies' track networks, kept in the
        board's network cache until the map changes (a lay that cannot change it
        keeps it: ``_kept_networks`` knows the keys ``("can_run", corp, ...)``,
        ``("narrow_net", corp)`` and ``("narrow_bonus", ...)``; any other key is
        dropped at every change).  With ``reads``, ``compute()`` returns (the
        value, the indices of the hexes it read) and a lay elsewhere keeps it."""
        got = self._net_cache.get(key)
        if got is None:
            if reads:
                got, read = compute()
                self._net_read[key] = read
            else:
                got = compute()
            self._net_cache[key] = got
        return got

    def changed(self, laid: Optional[_Hex] = None) -> None:
        """The map changed (a lay, a station; or a title's change of the map's
        track or stations made outside the board's own methods): what was read
        from it is dropped.  ``laid``: a
        tile was laid on that hex, which holds no station (before or
        after): the stations stay, and so do the companies' networks that
        read neither the hex nor a hex next to it (``_kept_networks``)."""
        self.version += 1
        if laid is not None and self._net_cache:
            self._net_cache = self._kept_networks(laid)
            return
        self._net_cache.clear()
        self._net_read = {}
        if laid is None:
            self._stations_cache = None

    def _kept_networks(self, laid: _Hex) -> dict:
        """The cached values that a lay on ``laid`` (no station there)
        cannot change: a company's broad network (``network``) whose walk
        read no hex among ``laid`` and its neighbours, its narrow network
        (``gauge.narrow_network``) likewise, whether it can run (``can_run``
        walks within its broad network), and a stop's narrow-gauge bonus
        (18Ireland's ``runs.narrow_bonus``) whose walk read no such hex.
        Anything else is dropped."""
        near = {laid.idx}
        near.update(i for i in laid.nbr if i >= 0)
        cache = self._net_cache
        read = self._net_read
        kept: dict = {}
        kept_read: dict = {}
        for key, value in cache.items():
            if isinstance(key, str):
                hexes = read.get(key)
                if hexes is None:
                    seen, _, token_hexes = value
                    hexes = {st >> 8 for st in seen}
                    hexes.update(token_hexes)
                if near.isdisjoint(hexes):
                    kept[key] = value
                    kept_read[key] = hexes
        for key, value in cache.items():
            if not isinstance(key, tuple) or len(key) < 2:
                continue
            if key[0] == "narrow_bonus":
                # 18Ireland's narrow-gauge bonus of a stop (its walk's hexes kept)
                hexes = read.get(key)
                if hexes is not None and near.isdisjoint(hexes):
                    kept[key] = value
                    kept_read[key] = hexes
            elif key[1] in kept:
                if key[0] == "can_run":
                    kept[key] = value
                elif key[0] == "narrow_net":
                    hexes = read.get(key)
                    if hexes is None:
                        hexes = {st >> 8 for st in value}
                        hexes.update(hi for hi, _ in cache[key[1]][1])
                    if near.isdisjoint(hexes):
                        kept[key] = value
                        kept_read[key] = hexes
        self._net_read = kept_read
        return kept

    # ------------------------------------------------------------------ look-ups

    def _hex(self, coord: str, rule: str = "board.hex") -> _Hex:
        h = self.hexes.get(coord)
        if h is None:
            raise RuleViolation(rule, f"there is no hex {coord} on the map"
                                + did_you_mean(str(coord), self.hexes))
        return h

    def neighbour(self, coord: str, edge: int) -> Optional[str]:
        """The hex beyond ``edge`` of ``coord`` (None off the map or across an
        impassable border)."""
        ni = self._hex(coord).nbr[edge]
        return self.hex_list[ni].coord if ni >= 0 else None

    def neighbours(self, coord: str) -> dict[int, str]:
        h = self._hex(coord)
        return {e: self.hex_list[i].coord for e, i in enumerate(h.nbr) if i >= 0}

    def tile_on(self, coord: str) -> tuple[Optional[str], int]:
        """(tile name or None for the printed map, rotation) of a hex."""
        h = self._hex(coord)
        return (h.tile.name if h.laid else None), h.rotation

    def tokens_on(self, coord: str) -> list[list[str]]:
        return [list(n.tokens) for n in self._hex(coord).nodes if n.kind == "city"]

    def stations(self, corp: str) -> list[tuple[str, int]]:
        """(hex, city) of every station marker of ``corp``."""
        return [(h.coord, i) for h in self.hex_list for i, n in enumerate(h.nodes) if corp in n.tokens]

    def hex_of_tile_copy(self, copy: str) -> Optional[str]:
        """Hex where the tile copy ``57-1`` lies now (18xx.games ids)."""
        return self._copy_hex.get(copy)

    def copy_past_count(self, tile: str, tile_copy: Optional[str]) -> Optional[str]:
        """The finding's message when an export's tile id names a copy the
        title does not have (``9-5`` where tile 9 has five copies, ``9-0`` to
        ``9-4``); None when it names one it has, or names none."""
        if tile_copy is None:
            return None
        name, _, index = str(tile_copy).rpartition("-")
        t = self.tiles.get(name)
        if t is None or t.count is None or not index.isdigit() or int(index) < t.count:
            return None
        return (f"the record lays tile copy {tile_copy}, but there are {t.count} "
                f"copies of tile {name} ({name}-0 to {name}-{t.count - 1})")

    def next_copy(self, name: str) -> str:
        """The copy of tile ``name`` an 18xx.games export names at its next
        lay (:func:`next_tile_copy`)."""
        t = self.tiles.get(name)
        return next_tile_copy(name, t.count if t is not None else None,
                              self._copy_hex, self._gone)

    def resolve_node_id(self, node_id: str) -> tuple[str, int]:
        """18xx.games ids: ``57-1-0`` (city 0 of tile copy 57-1), ``D14-0-0``
        (city 0 of the printed tile of D14) -> (hex, index)."""
        tile_id, _, index = node_id.rpartition("-")
        name = tile_id.rpartition("-")[0]
        hx = self._copy_hex.get(tile_id)
        if hx is None and name in self.hexes and not self.hexes[name].laid:
            hx = name
        if hx is None or not index.isdigit():
            raise RuleViolation("board.node", f"no tile {tile_id} is on the map (node {node_id})")
        return hx, int(index)

    def remaining_tiles(self, name: str) -> Optional[int]:
        return self.remaining.get(str(name))

    def has_station_on(self, corp: str, coord: str) -> bool:
        return any(corp in n.tokens for n in self._hex(coord).nodes)

    # ------------------------------------------------------------------ network

    def station_nodes(self) -> dict:
        """Every company's stations, (hex index, node index), from one scan of
        the map until the next change (``changed``)."""
        if self._stations_cache is None:
            out: dict = {}
            for h in self.hex_list:
                for ni, node in enumerate(h.nodes):
                    for corp in node.tokens:
                        out.setdefault(corp, []).append((h.idx, ni))
            self._stations_cache = out
        return self._stations_cache

    def network(self, corp: str) -> tuple[set, set, set]:
        """Walk ``corp``'s track from its stations, without passing through
        cities filled by others or through off-board areas, and without
        reversing (broad gauge only: 18Ireland's narrow track is walked by
        ``gauge.narrow_network``).  Returns (states walked, nodes reached,
        station hexes); a state is the int ``hex << 8 | path << 4 | end the
        path is left by``."""
        got = self._net_cache.get(corp)
        if got is not None:
            return got
        got = self.walk_network(corp)
        self._net_cache[corp] = got
        return got

    def walk_network(self, corp: str, through_full: bool = False,
                     starts: Optional[list] = None) -> tuple[set, set, set]:
        """:meth:`network`'s walk, not cached; with ``through_full`` through
        cities filled by others too (what a lay refused for want of a
        connection would reach if such cities did not block); ``starts``:
        from these of its stations' nodes only."""
        hexes = self.hex_list
        reached: set = set()
        token_hexes: set = set()
        stack: list = []
        push, extend = stack.append, stack.extend
        for hi, ni in (self.station_nodes().get(corp, ()) if starts is None else starts):
            reached.add((hi, ni))
            token_hexes.add(hi)
            extend(hexes[hi].enter.get(NODE_BASE + ni, ()))
        seen: set = set()
        add = seen.add
        pop = stack.pop
        while stack:
            st = pop()
            if st in seen:
                continue
            add(st)
            x = st & 15
            h = hexes[st >> 8]
            if x < NODE_BASE:
                ni = h.nbr[x]
                if ni >= 0:
                    extend(hexes[ni].enter.get((x + 3) % 6, ()))
            else:
                node_i = x - NODE_BASE
                reached.add((h.idx, node_i))
                node = h.nodes[node_i]
                if node.kind == "offboard" or (node.blocks(corp) and not through_full):
                    continue
                pi = st & 0xF0
                for nxt in h.enter.get(x, ()):
                    if nxt & 0xF0 != pi:
                        push(nxt)
        return seen, reached, token_hexes

    def available_edges(self, corp: str, h: _Hex, through_full: bool = False) -> set:
        """Edges of ``h`` where new track joins ``corp``'s network: every edge
        of a hex with its station, the edges of walked paths in ``h``, and the
        sides facing walked paths of the neighbours (with ``through_full``:
        the network walked through cities filled by others too)."""
        hi = h.idx
        if any(si == hi for si, _ in self.station_nodes().get(corp, ())):
            return set(ALL_EDGES)       # its station is here: no walk needed
        seen, _, _ = self.walk_network(corp, True) if through_full else self.network(corp)
        return reached_edges(self.hex_list, h, seen, paths_at)

    def connected_edges(self, corp: str, coord: str) -> frozenset:
        """Edges of ``coord`` where new track would join ``corp``'s network."""
        return frozenset(self.available_edges(corp, self._hex(coord)))

    def has_route(self, corp: str) -> bool:
        """Could a train of ``corp`` run at all: does its track join one of
        its stations to another stop?"""
        seen, reached, _ = self.network(corp)
        if len(reached) < 2:
            return False
        stations = set(self.station_nodes().get(corp, ()))
        # a stop the walk enters (not only left): another than a station, a
        # route at once; only stations entered, each walked from alone, since
        # track that leads out of a city and back into it is no route (a
        # train visits no stop twice: 1830_rand_51200004_2 #297, NYC's F16
        # joined only to itself through E15 and E17)
        entered = {(st >> 8, (st & 15) - NODE_BASE) for st in seen if (st & 15) >= NODE_BASE}
        if not entered:
            return False
        if entered <= stations and not any(
                self.walk_network(corp, starts=[start])[1] - {start} for start in stations):
            return False
        # the walk may turn back through a loop of track, over an edge it
        # crossed already, which no train may do (a route uses no track twice):
        # a run to the first stop reached, each edge once, proves a route
        return self.network_memo(("route", corp), lambda: any(
            self.first_stop_run(start) for start in stations))

    #: the most track steps :meth:`first_stop_run` tries before it takes a
    #: route as found (the walk has found one; the search only confirms it)
    FIRST_STOP_BUDGET = 20000

    def first_stop_run(self, start: tuple) -> bool:
        """Does track lead from the station node ``start`` (hex index, node
        index) to another stop without crossing any edge twice?  The network's
        walk reaches every stop some track leads to, but through a loop it may
        come back over an edge it crossed (1830_rand_2958943_1 #793: C&O's F6
        reaches the full H10 only by going out to J8 and I9 through I7 and back
        into H6 over the edge it left by); a train cannot, and neither does the
        18xx.games engine's route.  Depth first, each branch ending at the
        first stop it meets; past ``FIRST_STOP_BUDGET`` steps it answers yes."""
        hexes = self.hex_list
        hi, ni = start
        budget = [self.FIRST_STOP_BUDGET]

        def edges_of(h, st) -> list:
            a, b = h.paths[(st >> 4) & 15]
            return [(h.idx, e) for e in (a, b) if e < NODE_BASE]

        def go(st: int, used: set) -> bool:
            budget[0] -= 1
            if budget[0] < 0:
                return True
            x = st & 15
            h = hexes[st >> 8]
            if x >= NODE_BASE:
                return (h.idx, x - NODE_BASE) != (hi, ni)
            nb = h.nbr[x]
            if nb < 0:
                return False
            other = hexes[nb]
            for nxt in other.enter.get((x + 3) % 6, ()):
                crossed = edges_of(other, nxt)
                if any(e in used for e in crossed):
                    continue
                used.update(crossed)
                if go(nxt, used):
                    return True
                used.difference_update(crossed)
            return False

        for st in hexes[hi].enter.get(NODE_BASE + ni, ()):
            crossed = set(edges_of(hexes[hi], st))
            if go(st, crossed):
                return True
        return False

    def can_place_token(self, corp: str) -> bool:
        """Is there a city ``corp`` reaches where it could place a station
        (a free slot, no station of its own on the hex, a marker left)?"""
        info = self.corporations.get(corp)
        if info is not None and info["tokens"] is not None and self.tokens_used[corp] >= info["tokens"]:
            return False
        _, reached, _ = self.network(corp)
        for hi, ni in reached:
            h = self.hex_list[hi]
            node = h.nodes[ni]
            if node.kind != "city" or len(node.tokens) >= node.slots:
                continue
            if any(corp in n.tokens for n in h.nodes):
                continue
            if self.home_closing_hex(h, corp) is not None:
                continue
            if self._free_slots(node, corp) > 0:
                return True
        return False

    def home_closing_hex(self, h: _Hex, corp: str) -> Optional[str]:
        """The company (not ``corp``) whose home on ``h`` has no city named and
        is not placed yet, when such a home closes its hex of several cities to
        other stations (``unnamed_home_closes_hex``), else None."""
        if not self.unnamed_home_closes_hex or len(h.city_indices()) < 2:
            return None
        for n in h.nodes:
            for other in n.reserved:
                info = self.corporations.get(other)
                if other != corp and info is not None and info["home_city"] is None:
                    return other
        return None

    def pending_relocation_of(self, corp: str):
        """The hex where ``corp``'s station waits to be placed again, or None."""
        for coord, corps in self._relocate.items():
            if corp in corps:
                return coord
        return None

    def relocations_on(self, coord: str) -> list[str]:
        """The companies whose stations on ``coord`` wait to be placed again, in
        the order of the hex's cities."""
        waiting = self._relocate.get(coord, ())
        h = self.hexes.get(coord)
        if not waiting or h is None:
            return []
        return [c for n in h.nodes for c in n.tokens if c in waiting]

    def pending_relocation(self, corp: str, coord: str) -> bool:
        """True when ``corp``'s station on ``coord`` waits to be placed again
        (18xx.games: track reached a multi-city hex where it stood alone)."""
        return corp in self._relocate.get(coord, ())

    def reachable_cities(self, corp: str) -> set[tuple[str, int]]:
        _, reached, _ = self.network(corp)
        return {(self.hex_list[hi].coord, ni) for hi, ni in reached
                if self.hex_list[hi].nodes[ni].kind == "city"}

    # ------------------------------------------------------------------ tiles

    def lay_tile(self, corp: str, tile: str, hex: str, rotation: Optional[int] = None, *,
                 colors: Iterable[str], check_connection: bool = True,
                 special: Optional[str] = None, tile_copy: Optional[str] = None) -> tuple[int, int]:
        """Validate and apply a tile lay or upgrade; returns (terrain cost,
        rotation used).  See docs/board.md for the checks."""
        plan = self.plan_lay(corp, tile, hex, rotation, colors=colors,
                             check_connection=check_connection, special=special,
                             tile_copy=tile_copy)
        return self.apply_lay(plan)

    def plan_lay(self, corp: str, tile: str, hex: str, rotation: Optional[int] = None, *,
                 colors: Iterable[str], check_connection: Union[bool, str] = True,
                 special: Optional[str] = None, tile_copy: Optional[str] = None) -> "LayPlan":
        """Check a tile lay or upgrade without changing anything: raises
        :class:`RuleViolation`, or returns the plan :meth:`apply_lay` carries out.
        ``check_connection``: the lay must join ``corp``'s network (False: it
        need not; ``"through_full"``: a network that passes cities filled by
        others' stations counts)."""
        h = self._hex(hex, "tile.hex")
        name = str(tile)
        if tile_copy is not None and name not in self.tiles and str(tile_copy).rpartition("-")[0] in self.tiles:
            name = str(tile_copy).rpartition("-")[0]
        t = self.tiles.get(name)
        if t is None:
            raise RuleViolation("tile.unknown", f"there is no tile {name} in this game"
                                + did_you_mean(name, self.tiles))
        what = f"tile {name}"

        if special is not None:
            power = self.specials.get(special)
            if power is None:
                raise RuleViolation("tile.special", f"{special} has no tile-laying power")
            kind, p_hexes, p_tiles = power
            if p_hexes is not None and h.coord not in p_hexes:
                raise RuleViolation("tile.special", f"{special}'s power lays tiles only on "
                                    f"{', '.join(sorted(p_hexes))}, not on {h.coord}")
            if p_tiles and name not in p_tiles:
                raise RuleViolation("tile.special", f"{special}'s power lays only tiles "
                                    f"{', '.join(sorted(p_tiles))}, not {what}")
            if kind == "teleport" and h.paths:
                raise RuleViolation("tile.special", f"{special}'s power needs {h.coord} to be empty, "
                                    f"but it has track")
            check_connection = False
        elif t.private_only:
            raise RuleViolation("tile.special", f"{what} is laid only with a private's power "
                                f"that names it")

        blockers = self.blocked.get(h.coord, set()) - {special}
        if blockers:
            raise RuleViolation("tile.blocked", f"{h.coord} is blocked by the private "
                                f"{', '.join(sorted(blockers))} while a player owns it")

        colors = list(colors)
        if t.color not in colors:
            raise RuleViolation("tile.color", f"{what} is {t.color}; only "
                                f"{', '.join(colors) or 'no'} tiles may be laid in this phase")
        left = self.remaining.get(name)
        if left is not None and left <= 0:
            raise RuleViolation("tile.supply", f"no copy of {what} is left in the supply "
                                f"(all {t.count} are on the map)")
        if tile_copy is not None:
            where = self._copy_hex.get(str(tile_copy))
            if where is not None and where != h.coord:
                raise RuleViolation("tile.supply", f"tile copy {tile_copy} is already on {where}")

        old = h.tile
        on = f"on {h.coord}"
        here = (f"{h.coord} (tile {old.name}, {old.color})" if h.laid
                else f"{h.coord} ({h.color} map hex)")
        # a private's power that names its hexes may put its own tile on a
        # hex nobody else may build on (18Ireland's Irish Mail: a red tile
        # on a blue sea hex)
        own_hex = special is not None and self.specials[special][1] is not None \
            and h.color in self.impassable_colors and not h.laid
        if not own_hex and (h.color in self.impassable_colors
                            or h.color not in self.color_order[:-1]):
            raise RuleViolation("tile.upgrade", f"no tile may be laid on {here}")
        if own_hex:
            pass
        elif t.color not in self.color_order or \
                self.color_order.index(t.color) != self.color_order.index(h.color) + 1:
            want = self.color_order[self.color_order.index(h.color) + 1]
            raise RuleViolation("tile.upgrade", f"{what} is {t.color} but {here} takes a {want} tile")
        if (old.label or None) != (t.label or None):
            raise RuleViolation("tile.upgrade", f"{what} has label {t.label or 'none'} but {here} "
                                f"needs label {old.label or 'none'}")
        # a halt counts as a town here (1860: a printed town becomes a halt tile);
        # a labelled hex may change its number of cities (1860's N and V: one
        # city becomes two), but not lose them all, and a white OO hex keeps two
        for kinds, plural in ((("city",), "cities"), (("town", "halt"), "towns")):
            n_old = sum(1 for n in h.nodes if n.kind in kinds)
            n_new = sum(1 for n in t.nodes if n.kind in kinds)
            if (plural == "cities" and old.label and n_new > 0
                    and not (old.color == "white" and old.label == "OO")):
                continue
            if n_old != n_new:
                raise RuleViolation("tile.upgrade", f"{what} has {n_new} {plural} but {here} "
                                    f"has {n_old}")

        avail = None
        warning = None
        if check_connection:
            avail = self.available_edges(corp, h, through_full=check_connection == "through_full")

        if rotation is not None:
            try:
                rotation = int(rotation)
            except (TypeError, ValueError):
                raise RuleViolation("tile.rotation", f"rotation {rotation!r} is not 0-5") from None
            if not 0 <= rotation <= 5:
                raise RuleViolation("tile.rotation", f"rotation {rotation} of {what} is not 0-5")
            problem, mapping = self._check_rotation(h, t, rotation, avail, corp)
            if problem:
                rule, msg = problem
                raise RuleViolation(rule, f"{what} rotation {rotation} {on} {msg}")
        else:
            legal, problems = [], []
            for r in t.distinct_rotations():
                problem, mapping_r = self._check_rotation(h, t, r, avail, corp)
                if problem:
                    problems.append((r, problem))
                else:
                    legal.append((r, mapping_r))
            if not legal:
                # the rule of the rotation that came closest (keeping the
                # track, staying on the map, then connecting)
                rank = {"tile.upgrade": 0, "tile.edge": 1, "tile.connection": 2}
                rule = max((p[1][0] for p in problems), key=lambda r: rank.get(r, -1))
                detail = "; ".join(f"rotation {r} {p[1]}" for r, p in problems)
                raise RuleViolation(rule, f"no rotation of {what} fits {h.coord}: {detail}")
            rotation, mapping = legal[0]
            if len(legal) > 1:
                warning = ("tile.rotation_guessed",
                           f"the rotation of {what} on {h.coord} is not written and it fits "
                           f"in rotations {', '.join(str(r) for r, _ in legal)}; rotation "
                           f"{rotation} is taken (write it, e.g. '{name} {h.coord} r{rotation}')")
        before = None
        if check_connection:
            narrow = False
            if self.gauged:
                narrow = lay_is_narrow(h, t, rotation, mapping)
            before = (old, h.paths, list(h.nodes), narrow)
        return LayPlan(h, t, name, rotation, mapping, tile_copy, warning, old.cost, before)

    def apply_lay(self, plan: "LayPlan") -> tuple[int, int]:
        """Carry out a lay checked by :meth:`plan_lay`; returns (terrain cost, rotation)."""
        h, t, name, rotation, mapping, tile_copy = (plan.hex, plan.tile, plan.name,
                                                    plan.rotation, plan.mapping, plan.tile_copy)
        if plan.warning is not None:
            self.warnings.append(plan.warning)
        old = h.tile
        left = self.remaining.get(name)
        cost = old.cost
        if left is not None:
            self.remaining[name] = left - 1
        if h.laid:
            if self.remaining.get(old.name) is not None:
                self.remaining[old.name] += 1
            if h.copy is not None:
                self._copy_hex.pop(h.copy, None)
                self._gone[h.copy] = h.coord
        stations = any(n.tokens or n.reserved for n in h.nodes)
        new_nodes = [_Node(n.kind, n.revenue, n.slots, n.group, n.hidden) for n in t.nodes]
        for oi, ni in mapping.items():
            # (several old cities map to one when the upgrade merges them)
            new_nodes[ni].tokens = new_nodes[ni].tokens + h.nodes[oi].tokens
            new_nodes[ni].reserved = new_nodes[ni].reserved + h.nodes[oi].reserved
        if (not h.paths and t.paths and len(t.cities) > 1
                and any(n.tokens for n in new_nodes)):
            # 18xx.games: a station on a track-less multi-city hex is placed
            # again by its owner once track arrives
            self._relocate[h.coord] = {c for n in new_nodes for c in n.tokens}
        h.nodes = new_nodes
        h.tile = t
        h.rotation = rotation
        h.color = t.color
        h.set_paths(t.rotated(rotation))
        h.copy = str(tile_copy) if tile_copy is not None else None
        if h.copy is not None:
            self._copy_hex[h.copy] = h.coord
            self._gone.pop(h.copy, None)
        # a lay where no station stands changes no company's stations
        self.changed(None if stations or any(n.tokens or n.reserved for n in new_nodes)
                      else h)
        return cost, rotation

    def _check_rotation(self, h: _Hex, t: Content, r: int, avail, corp: str):
        """((rule, message) or None, old node index -> new node index)."""
        if r and t.name in self.fixed_rotation:
            return ("tile.rotation", f"is laid only at rotation 0, which keeps the map's "
                    f"geography, not {r}"), None
        new_paths = t.rotated(r)
        mapping, missing = self._map_nodes(h, t, new_paths)
        if mapping is None:
            a, b = missing
            new_exits = t.exits(r)
            lost = [e for e in (a, b) if e < NODE_BASE and e not in new_exits]
            if lost:
                return ("tile.upgrade", f"leaves edge {lost[0]} of the existing track unconnected"), None
            return ("tile.upgrade", f"does not keep the existing track from "
                    f"{describe_end(a, h.tile)} to {describe_end(b, h.tile)}"), None
        exits = t.exits(r)
        for e in sorted(exits):
            if h.track_ok[e]:
                continue
            ni = h.nbr[e]
            if ni >= 0:
                nb = self.hex_list[ni]
                if nb.laid:
                    # a tile a private put on a closed hex (18Ireland's Irish
                    # Mail on the sea) makes it a tile hex like any other:
                    # track may point into a side it has no track on (the
                    # site allows it: random 18005_2 #243, 18005_3 #708,
                    # 18006_1 #506, 18003_2 #898)
                    continue
                return ("tile.edge", f"runs track at edge {e} into {nb.coord}, a {nb.color} hex "
                        f"with no track on that side"), None
            if e in h.impassable:
                return ("tile.edge", f"runs track through the impassable border at edge {e}"), None
            geo = self._geo_neighbour(h, e)
            if geo is not None:
                return ("tile.edge", f"runs track through the impassable border at edge {e} "
                        f"(toward {geo})"), None
            return ("tile.edge", f"runs track off the map at edge {e}"), None
        if self.gauged:
            problem = gauge_mismatch(self, h, t, r)
            if problem is not None:
                return ("tile.edge", problem), None
        if avail is not None and self.gauged:
            problem = connection_problem(self, corp, h, t, r, mapping, avail)
            if problem is not None:
                rule, msg = problem
                return (rule, msg), None
        elif avail is not None and not (exits & avail):
            if avail:
                return ("tile.connection", f"is not connected to {corp}'s network (its track reaches "
                        f"{h.coord} only at edge{'s' if len(avail) > 1 else ''} "
                        f"{', '.join(str(e) for e in sorted(avail))})"), None
            return ("tile.connection", f"is not connected to {corp}'s network "
                    f"(no track of {corp} reaches {h.coord})"), None
        return None, mapping

    def _geo_neighbour(self, h: _Hex, e: int) -> Optional[str]:
        dx, dy = DIRECTIONS[self.layout][e]
        for o in self.hex_list:
            if o.x == h.x + dx and o.y == h.y + dy:
                return o.coord
        return None

    @staticmethod
    def _map_nodes(h: _Hex, t: Content, new_paths: tuple):
        """Map the hex's nodes onto the new tile's so that every existing
        path is kept.  Returns (mapping, None) or (None, first path lost)."""
        old_paths = h.paths
        old_nodes = h.nodes
        new_nodes = t.nodes
        if not old_nodes:
            new_set = {frozenset(p) for p in new_paths}
            for p in old_paths:
                if frozenset(p) not in new_set:
                    return None, p
            return {}, None

        def exits_of(paths, n):
            # the hex edges a node's track leads to (a track to another node,
            # as 1860's halt-to-town links, is checked by `kept` below)
            end = NODE_BASE + n
            others = (a if b == end else b for a, b in paths if end in (a, b))
            return {e for e in others if e < NODE_BASE}

        old_exits = [exits_of(old_paths, i) for i in range(len(old_nodes))]
        new_exits = [exits_of(new_paths, j) for j in range(len(new_nodes))]
        new_set = {frozenset(p) for p in new_paths}

        def kept(mapping):
            for a, b in old_paths:
                ma = NODE_BASE + mapping[a - NODE_BASE] if a >= NODE_BASE else a
                mb = NODE_BASE + mapping[b - NODE_BASE] if b >= NODE_BASE else b
                if frozenset((ma, mb)) not in new_set:
                    return (a, b)
            return None

        if all(not e for e in old_exits) and len(old_nodes) == len(new_nodes) and all(
                _same_kind(o.kind, n.kind) for o, n in zip(old_nodes, new_nodes)):
            mapping = {i: i for i in range(len(old_nodes))}
            lost = kept(mapping)
            return (mapping, None) if lost is None else (None, lost)

        best_lost = None
        order = list(range(len(old_nodes)))
        # an upgrade with fewer cities than the old tile merges them (18Ireland's
        # Belfast and Dublin): several old cities may go to one new city
        merging = sum(n.kind == "city" for n in new_nodes) < sum(n.kind == "city" for n in old_nodes)

        def search(k, used, mapping):
            nonlocal best_lost
            if k == len(order):
                lost = kept(mapping)
                if lost is None:
                    return dict(mapping)
                if best_lost is None:
                    best_lost = lost
                return None
            i = order[k]
            for j in range(len(new_nodes)):
                if (j in used and not (merging and new_nodes[j].kind == "city")) \
                        or not _same_kind(new_nodes[j].kind, old_nodes[i].kind):
                    continue
                if not old_exits[i] <= new_exits[j]:
                    continue
                mapping[i] = j
                used.add(j)
                got = search(k + 1, used, mapping)
                used.discard(j)
                del mapping[i]
                if got is not None:
                    return got
            return None

        got = search(0, set(), {})
        if got is not None:
            return got, None
        if best_lost is None:
            # no node of the new tile takes all the exits of an old one
            for i, ex in enumerate(old_exits):
                if not any(_same_kind(new_nodes[j].kind, old_nodes[i].kind) and ex <= new_exits[j]
                           for j in range(len(new_nodes))):
                    for a, b in old_paths:
                        if NODE_BASE + i in (a, b):
                            other = a if b == NODE_BASE + i else b
                            best_lost = (other, NODE_BASE + i)
                            if not any(other in p for p in new_paths):
                                break
                    break
        return None, best_lost or (old_paths[0] if old_paths else (0, 0))

    # ------------------------------------------------------------------ tokens

    def _pick_city(self, h: _Hex, corp: str, city: Optional[int]) -> int:
        cities = h.city_indices()
        if not cities:
            raise RuleViolation("token.city", f"{h.coord} has no city for a station")
        if city is None:
            if len(cities) == 1:
                return cities[0]
            free = [i for i in cities if self._free_slots(h.nodes[i], corp) > 0]
            if len(free) == 1:
                return free[0]
            if not free:
                raise RuleViolation("token.full", f"no city of {h.coord} has a free slot for {corp}")
            raise RuleViolation("token.ambiguous", f"{h.coord} has {len(free)} cities with a free "
                                f"slot ({', '.join(str(cities.index(i)) for i in free)}): say which")
        if isinstance(city, str) and " " in city:
            # (an export's place that is no city: the importer says which)
            raise RuleViolation("token.city", f"no city on {h.coord} is named: {city}")
        try:
            city = int(city)
        except (TypeError, ValueError):
            raise RuleViolation("token.city", f"bad city {city!r} on {h.coord}") from None
        if not 0 <= city < len(cities):
            raise RuleViolation("token.city", f"{h.coord} has no city {city} "
                                f"(it has {len(cities)} {'city' if len(cities) == 1 else 'cities'})")
        return cities[city]

    @staticmethod
    def _free_slots(node: _Node, corp: str) -> int:
        others = [c for c in node.reserved if c != corp]
        return node.slots - len(node.tokens) - len(others)

    def place_token(self, corp: str, hex: str, city: Optional[int] = None, *,
                    check_reach: bool = True) -> None:
        """Place a station marker of ``corp``; see docs/board.md for the checks."""
        self.apply_token(self.plan_token(corp, hex, city, check_reach=check_reach))

    def plan_token(self, corp: str, hex: str, city: Optional[int] = None, *,
                   check_reach: bool = True, tile_copy: Optional[str] = None) -> tuple:
        """Check a station placement without changing anything; returns the
        plan :meth:`apply_token` carries out.  ``tile_copy``: the laid tile
        whose city an export names (``IR1-0`` of ``IR1-0-0``); one an upgrade
        took off the map is no city (18xx.games finds no such city)."""
        h = self._hex(hex, "token.hex")
        if tile_copy is not None and tile_copy in self._gone and tile_copy not in self._copy_hex:
            raise RuleViolation("token.city", f"the station names a city of tile {tile_copy}, "
                                f"which an upgrade took off {self._gone[tile_copy]} (tile "
                                f"{h.tile.name} is there now)")
        if corp in self._relocate.get(h.coord, ()):
            ci = self._pick_city(h, corp, city)
            node = h.nodes[ci]
            if corp not in node.tokens and len(node.tokens) >= node.slots:
                raise RuleViolation("token.full", f"{h.coord} city {h.city_indices().index(ci)} is full")
            return ("relocate", h, ci, corp)
        ci = self._pick_city(h, corp, city)
        node = h.nodes[ci]
        label = f"{h.coord} city {h.city_indices().index(ci)}"
        for n in h.nodes:
            if corp in n.tokens:
                raise RuleViolation("token.duplicate", f"{corp} already has a station on {h.coord}")
        closing = self.home_closing_hex(h, corp)
        if closing is not None:
            raise RuleViolation("token.reserved", f"{h.coord} is {closing}'s home, its city not yet "
                                f"chosen: no other company's station goes on the hex until "
                                f"{closing} places its own")
        if len(node.tokens) >= node.slots:
            raise RuleViolation("token.full", f"{label} is full ({', '.join(node.tokens)})")
        ordinary = check_reach and not self.reservations_block_tokens
        moving = False
        if not ordinary and self._free_slots(node, corp) <= 0:
            moving = self._reservations_move(h, node, corp) is not None
            if not moving:
                others = [c for c in node.reserved if c != corp]
                raise RuleViolation("token.reserved", f"the free slot of {label} is reserved for "
                                    f"{', '.join(others)}'s home station")
        info = self.corporations.get(corp)
        if info is not None and info["tokens"] is not None and self.tokens_used[corp] >= info["tokens"]:
            raise RuleViolation("token.none_left", f"{corp} has no station marker left "
                                f"(all {info['tokens']} are on the map)")
        if check_reach and corp not in node.reserved:
            if (h.idx, ci) not in self.network(corp)[1]:
                raise RuleViolation("token.reach", f"{label} is not reachable from {corp}'s stations")
        return ("place_moving" if moving else "place", h, ci, corp)

    def _reservations_move(self, h: _Hex, node: _Node, corp: str) -> Optional[list]:
        """Where a title's reservations do not block ordinary stations
        (``reservations_block_tokens`` False: 18Ireland, as 18xx.games's
        reservations that block no city), a home reserved with no city named
        is the hex's, not one city's: a home station (placed unreached) may
        take ``node``'s reserved slot when another city of the hex has room
        for each reservation it displaces.  The moves, [(company, node)], or
        None (18Ireland_rand_58000009_0 #359: CBSCR's home on Cork's city 1,
        CBPR's reservation left for city 0, where CBPR's station goes at
        #377)."""
        if self.reservations_block_tokens:
            return None
        others = [c for c in node.reserved if c != corp]
        if any((self.corporations.get(c) or {}).get("home_city") is not None for c in others):
            return None
        staying = max(0, node.slots - len(node.tokens) - 1)
        room = {id(n): self._free_slots(n, corp) for n in h.nodes
                if n is not node and n.kind == "city"}
        moves = []
        for c in others[staying:]:
            to = next((n for n in h.nodes if room.get(id(n), 0) > 0), None)
            if to is None:
                return None
            room[id(to)] -= 1
            moves.append((c, to))
        return moves

    def apply_token(self, plan: tuple) -> None:
        kind, h, ci, corp = plan
        if kind == "relocate":
            self._relocate_token(h, corp, ci)
            return
        node = h.nodes[ci]
        if corp in node.reserved:
            node.reserved.remove(corp)
        if kind == "place_moving":
            for c, to in self._reservations_move(h, node, corp) or []:
                node.reserved.remove(c)
                to.reserved.append(c)
        node.tokens.append(corp)
        self.tokens_used[corp] = self.tokens_used.get(corp, 0) + 1
        self.changed()

    def _relocate_token(self, h: _Hex, corp: str, ci: int) -> None:
        node = h.nodes[ci]
        if corp not in node.tokens:
            for n in h.nodes:
                if corp in n.tokens:
                    n.tokens.remove(corp)
            node.tokens.append(corp)
        self._relocate[h.coord].discard(corp)
        if not self._relocate[h.coord]:
            del self._relocate[h.coord]
        self.changed()

    def place_home_token(self, corp: str) -> None:
        """Place ``corp``'s home station on its reserved slot (no-op if there)."""
        info = self.corporations.get(corp)
        if info is None:
            raise RuleViolation("token.home", f"unknown corporation {corp}"
                                + did_you_mean(corp, self.corporations))
        for home in info["homes"]:
            h = self.hexes[home]
            if any(corp in n.tokens for n in h.nodes):
                continue
            target = next((n for n in h.nodes if corp in n.reserved), None)
            if target is None:
                cities = h.city_indices()
                hc = info["home_city"]
                target = h.nodes[cities[hc if isinstance(hc, int) else 0]] if cities else None
                if target is None:
                    continue
                if len(target.tokens) >= target.slots:
                    raise RuleViolation("token.home", f"{corp}'s home city on {home} is full")
            else:
                if len(target.tokens) >= target.slots:
                    # another company's station took the slot (a title whose
                    # reservations do not block ordinary stations)
                    raise RuleViolation("token.home", f"{corp}'s home city on {home} is full")
                target.reserved.remove(corp)
            target.tokens.append(corp)
            self.tokens_used[corp] = self.tokens_used.get(corp, 0) + 1
        self.changed()

    def home_available(self, corp: str) -> bool:
        """``corp``'s home station can go on its reserved slot now."""
        info = self.corporations.get(corp)
        for home in (info or {}).get("homes", []):
            for n in self.hexes[home].nodes:
                if corp in n.reserved and len(n.tokens) >= n.slots:
                    return False
        return True

    def drop_reservations(self, corp: str) -> None:
        """``corp``'s home slots are reserved no more (its home station went
        elsewhere)."""
        for h in self.hex_list:
            for n in h.nodes:
                if corp in n.reserved:
                    n.reserved.remove(corp)
        self.changed()

    def offer_home_choice(self, corp: str, coord: str) -> None:
        """``corp``'s home station, just placed on the first city of ``coord``,
        may still be moved to another of its cities by the company's next
        station placement (18xx.games asks where it goes when the home is the
        whole hex and a tile with several cities lies there)."""
        info = self.corporations.get(corp)
        h = self.hexes.get(coord)
        if info is None or h is None or info["home_city"] is not None \
                or len(h.city_indices()) < 2 or any(corp in n.reserved for n in h.nodes):
            return
        self._relocate.setdefault(h.coord, set()).add(corp)

    def has_home_token(self, corp: str) -> bool:
        info = self.corporations.get(corp)
        return bool(info) and all(self.has_station_on(corp, hx) for hx in info["homes"])

    def unblock(self, company: str) -> None:
        """The private ``company`` no longer blocks its hexes (sold to a
        corporation, or closed)."""
        for hx in list(self.blocked):
            self.blocked[hx].discard(company)
            if not self.blocked[hx]:
                del self.blocked[hx]

    def remove_corporation(self, corp: str) -> None:
        """A closed corporation's stations and home reservations leave the map."""
        for h in self.hex_list:
            for n in h.nodes:
                if corp in n.tokens:
                    n.tokens.remove(corp)
                if corp in n.reserved:
                    n.reserved.remove(corp)
        for hx in list(self._relocate):
            self._relocate[hx].discard(corp)
            if not self._relocate[hx]:
                del self._relocate[hx]
        self.tokens_used[corp] = 0
        self.changed()

    def remove_token(self, corp: str, coord: str) -> None:
        """``corp``'s station on ``coord`` leaves the map (back to its owner)."""
        for n in self._hex(coord).nodes:
            if corp in n.tokens:
                n.tokens.remove(corp)
                self.tokens_used[corp] = max(0, self.tokens_used.get(corp, 0) - 1)
        self.changed()

    def transfer_tokens(self, old: str, new: str) -> None:
        """``old``'s stations become ``new``'s (a merger); a hex where ``new``
        has one already keeps one."""
        for h in self.hex_list:
            for n in h.nodes:
                if old not in n.tokens:
                    continue
                i = n.tokens.index(old)
                if any(new in m.tokens for m in h.nodes):
                    n.tokens.pop(i)
                else:
                    n.tokens[i] = new
        self.tokens_used[new] = sum(n.tokens.count(new) for h in self.hex_list for n in h.nodes)
        self.tokens_used[old] = 0
        self.changed()

    # ------------------------------------------------------------------ routes

    def revenue_of_routes(self, corp: str, routes: list, phase_color: str,
                          distances: dict) -> tuple[int, list[int]]:
        """Check the runs of all of ``corp``'s trains in one operating round
        and return (total, revenue of each route)."""

        return check_routes(self, corp, routes, phase_color, distances)

    # ------------------------------------------------------------------ undo

    def snapshot(self):
        """A cheap copy of the changing state, for :meth:`restore` (undo)."""
        # (a list made into a tuple, and none for a hex with no node: half
        # the time of a generator for each hex; the same values)
        hexes = tuple((h.tile, h.rotation, h.copy, h.color, h.paths,
                       tuple([(tuple(n.tokens), tuple(n.reserved)) for n in h.nodes])
                       if h.nodes else ())
                      for h in self.hex_list)
        return (hexes, dict(self.remaining), {k: set(v) for k, v in self.blocked.items()},
                dict(self.tokens_used), dict(self._copy_hex),
                {k: set(v) for k, v in self._relocate.items()}, dict(self._gone))

    def restore(self, snap) -> None:
        hexes, remaining, blocked, used, copies, relocate, gone = snap
        for h, (tile, rot, copy, color, paths, nodes) in zip(self.hex_list, hexes):
            if h.tile is not tile or h.rotation != rot:
                h.tile, h.rotation = tile, rot
                h.set_paths(paths)
                h.nodes = [_Node(n.kind, n.revenue, n.slots, n.group, n.hidden) for n in tile.nodes]
            h.copy, h.color = copy, color
            for n, (tokens, reserved) in zip(h.nodes, nodes):
                n.tokens, n.reserved = list(tokens), list(reserved)
        self.remaining = dict(remaining)
        self.blocked = {k: set(v) for k, v in blocked.items()}
        self.tokens_used = dict(used)
        self._copy_hex = dict(copies)
        self._gone = dict(gone)
        self._relocate = {k: set(v) for k, v in relocate.items()}
        self.changed()

    # ------------------------------------------------------------------ output

    def render_text(self) -> str:
        from .render import render_text

        return render_text(self)

    def render_svg(self, colors: Optional[dict] = None, **kw) -> str:
        """``colors``: company -> CSS colour of its station markers; ``kw``:
        ``title``, ``legend``, ``marks`` (``render.render_svg``)."""
        from .render import render_svg

        return render_svg(self, colors=colors, **kw)

    def pop_warnings(self) -> list[tuple[str, str]]:
        out, self.warnings = self.warnings, []
        return out
