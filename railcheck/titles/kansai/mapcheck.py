"""Kansai's map, when the components file gives it: the shared
``railcheck/board`` (docs/board.md) built from ``map.layout``, ``map.hexes``
and ``map.tiles``, checking the record's tile lays (hex, colour by phase,
upgrade, tiles left, connection to the company's stations, O1, F2) and its
stations (O2: the city, a free slot, reach), and giving a first lay's terrain
cost, and the runs (O3, O3a: the shared route check, ``board/routes.py``;
their values are the summary's low / middle / high levels, F1, read from
``map.places`` by the operating round, not the board's colours).

Kobe Rapid Transit's station is put on the board when KRTR starts (L2: the
others' stations in Kobe but JR's leave it), so it blocks and fills Kobe;
a company with the right to ignore it (a station there before KRTR, or the
100 fee paid) runs through as if it were not there, and OMS runs and lays as
if the other companies' stations in Osaka were not there (C6): those stations
are lifted for the one check and put back exactly (``lifted``).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Optional

from ...findings import INFO, RuleViolation
from ...schema import is_unknown

#: the kind of skipped check: KRTR's station could not be put in Kobe on the board
KRTR_ON_BOARD = "Kobe Rapid Transit's station on the map"


class KansaiMap:
    def __init__(self, replay):
        self.r = replay
        self.board = None
        #: why there is no board (None: a board is there)
        self.why: Optional[str] = None
        self.build()

    def _place(self, name):
        """(hex, city) of a place name (or a hex written as such)."""
        rules = self.r.rules
        h = rules.number("map", "places", name, "hex")
        if is_unknown(h):
            if isinstance(name, str) and name in (self.r.rules.number("map", "hexes") or {}):
                return name, None
            return None, None
        city = rules.number("map", "places", name, "city")
        return h, (None if is_unknown(city) else city)

    def build(self) -> None:
        from ...board import Board
        rules = self.r.rules
        layout, hexes, tiles = (rules.number("map", k) for k in ("layout", "hexes", "tiles"))
        if any(is_unknown(v) for v in (layout, hexes, tiles)):
            self.why = None     # the usual skipped kinds say which key is unknown
            return
        corporations = []
        for c in rules.corporations:
            if c.kind == "minor":
                homes = rules.number("minors", c.sym, "homes") if c.sym == "M4" else None
                names = homes if isinstance(homes, list) else [c.extra["home_name"]]
                tokens = rules.number("minors", c.sym, "tokens")
            else:
                home = rules.number("corporations", c.sym, "home")
                names = home if isinstance(home, list) else [home]     # JR: four homes (C8.4)
                tokens = rules.number("corporations", c.sym, "tokens")
            found = [self._place(n) for n in names if n is not None and not is_unknown(n)]
            found = [(h, ci) for h, ci in found if h is not None and h in hexes]
            several = c.kind != "minor" and len(names) > 1
            corporations.append({"sym": c.sym, "home": [h for h, _ in found[:None if several else 1]],
                                 "home_city": found[0][1] if found else None,
                                 "tokens": tokens if isinstance(tokens, list) else None})
        try:
            self.board = Board({"layout": layout, "hexes": hexes, "tiles": tiles},
                               corporations, [])
        except Exception as exc:       # a map the board cannot read: said, never a traceback
            self.board = None
            self.why = f"the components file's map cannot be read ({type(exc).__name__}: {exc})"

    # ------------------------------------------------------------------

    def home(self, corp: str) -> None:
        """A company's home station, when it first operates."""
        b = self.board
        if b is None or corp not in b.corporations or b.has_home_token(corp):
            return
        try:
            b.place_home_token(corp)
        except RuleViolation as v:
            self.r.flag(v.rule, v.message)

    def plan_lay(self, corp: str, action, connected: bool = True):
        """A lay checked on the board (raises ``RuleViolation``: refused, the map as it
        was): the board's plan for :meth:`apply_lay`."""
        with self.lifted(corp):         # C6: OMS lays through the other stations in Osaka
            return self.board.plan_lay(corp, action.tile, action.hex, action.rotation,
                                       colors=self.r.phase.tiles, check_connection=connected)

    def apply_lay(self, plan) -> int:
        """The lay made on the board: its terrain cost (the board's notes are info
        findings)."""
        b, r = self.board, self.r
        cost, _ = b.apply_lay(plan)
        for rule, message in b.pop_warnings():
            r.flag(rule, message, severity=INFO)
        return cost

    def plan_token(self, corp: str, action):
        """A station checked on the board (raises ``RuleViolation``: refused): the board's
        plan for :meth:`apply_token`."""
        b = self.board
        try:
            return b.plan_token(corp, action.hex, action.city)
        except RuleViolation as v:
            if v.rule != "token.reach" or not self.transparent(corp):
                raise
            # reached through the stations it may ignore (L2, C6); the slots as they are
            with self.lifted(corp):
                b.plan_token(corp, action.hex, action.city)
            return b.plan_token(corp, action.hex, action.city, check_reach=False)

    def apply_token(self, plan) -> None:
        self.board.apply_token(plan)

    # ------------------------------------------------------------------
    # Kobe Rapid Transit (L2) and OMS in Osaka (C6)

    def krtr_starts(self, kobe: str, count) -> None:
        """L2: every station in Kobe but JR's goes back to its owner, and
        KRTR puts its station(s) there (``late_companies.KRTR.stations``,
        one per city of the hex with a free slot)."""
        b, r = self.board, self.r
        h = b.hexes.get(kobe) if b is not None else None
        if h is None:
            if b is not None:
                r.skip(KRTR_ON_BOARD, ("map", "hexes", kobe),
                       reason=f"Kobe's hex {kobe} is not on the components file's map")
            return
        for node in h.nodes:
            for corp in [c for c in node.tokens if c != "JR"]:
                b.remove_token(corp, kobe)
        if is_unknown(count):
            r.skip(KRTR_ON_BOARD, ("late_companies", "KRTR", "stations"))
            count = 1           # at least the one station the summary names
        placed = 0
        for ci in h.city_indices():
            if placed >= int(count):
                break
            if len(h.nodes[ci].tokens) < h.nodes[ci].slots:
                b.apply_token(("place", h, ci, "KRTR"))
                placed += 1
        if placed < int(count):
            r.skip(KRTR_ON_BOARD, ("late_companies", "KRTR", "stations"),
                   reason=f"Kobe ({kobe}) has room for {placed} of KRTR's {count} stations")

    def transparent(self, corp: str) -> list:
        """(hex, whose stations) ``corp`` runs and lays through as if absent."""
        r, st = self.r, self.r.state
        out = []
        if corp == "OMS":               # C6: the other stations in Osaka
            for p in r.rules.corp_by_sym["OMS"].extra["area_names"]:
                h = r.rules.number("map", "places", p, "hex")
                if not is_unknown(h):
                    out.append((h, lambda t: True))
        elif corp != "JR" and r.holdings.owner_of("KRTR") is not None and \
                (corp in st.krtr_free or corp in st.krtr_paid):
            kobe = r.rules.number("map", "places", "Kobe", "hex")
            if not is_unknown(kobe):
                out.append((kobe, lambda t: t == "KRTR"))    # L2: the right to ignore it
        return out

    @contextmanager
    def lifted(self, corp: str):
        """The stations ``corp`` may ignore (``transparent``) taken off the
        board for one check and put back exactly (same nodes, same order)."""
        b = self.board
        gone = []           # (node, index, company)
        for coord, whose in self.transparent(corp):
            h = b.hexes.get(coord)
            for node in (h.nodes if h is not None else ()):
                for i in range(len(node.tokens) - 1, -1, -1):
                    t = node.tokens[i]
                    if t != corp and whose(t):
                        gone.append((node, i, t))
                        node.tokens.pop(i)
        if gone:
            b.changed()
        try:
            yield
        finally:
            for node, i, t in reversed(gone):
                node.tokens.insert(i, t)
            if gone:
                b.changed()

    def blocks(self, corp: str, coord: str) -> bool:
        """Every city of ``coord`` is full without a station of ``corp``."""
        h = self.board.hexes.get(coord) if self.board is not None else None
        cities = [n for n in (h.nodes if h is not None else ()) if n.kind == "city"]
        return bool(cities) and all(n.blocks(corp) for n in cities)

    # ------------------------------------------------------------------
    # runs (O3, O3a)

    def check_runs(self, corp: str, action) -> Optional[RuleViolation]:
        """The runs on the board: track joining the stops, a station of the
        company on each, no track or stop twice, no full city passed through
        (but the stations ``corp`` may ignore), how far each train goes.
        The first breach the board finds, or None (changes nothing)."""
        b, r = self.board, self.r
        distances = {}
        for route in action.routes:
            d = r._train_spec(route.train).get("distance")
            if d is None:
                d = r.rules.number("trains", str(route.train), "distance")
                if d is None or is_unknown(d):
                    d = "unlimited"     # not known: counted as skipped by the reach check
            distances[str(route.train)] = d
        colour = r.phase.tiles[-1] if r.phase.tiles else "yellow"
        try:
            with self.lifted(corp):
                b.revenue_of_routes(corp, action.routes, colour, distances)
        except RuleViolation as v:
            return v
        return None

    def stop_value(self, stop) -> Optional[int]:
        """A stop that is no place of ``map.places``: its value printed on the
        map when it is one number (an off-board's or a town's), else None."""
        h = self.board.hexes.get(stop.hex) if self.board is not None else None
        if h is None or not h.nodes:
            return None
        if stop.city is not None:
            nodes = [h.nodes[int(stop.city)]] if 0 <= int(stop.city) < len(h.nodes) else []
        else:
            nodes = h.nodes
        values = {n.revenue for n in nodes}
        if len(values) != 1:
            return None
        value = values.pop()
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def closes(self, minor: str, into: Optional[str] = None) -> None:
        """A minor's stations leave the map (N5, K2-K4), or become KNR's (N4)."""
        if self.board is None or minor not in self.board.corporations:
            return
        if into is not None:
            self.board.transfer_tokens(minor, into)
        else:
            self.board.remove_corporation(minor)
