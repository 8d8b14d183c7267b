"""Kansai's map, when the components file gives it: the shared
``railcheck/board`` (docs/board.md) built from ``map.layout``, ``map.hexes``
and ``map.tiles``, checking the record's tile lays (hex, colour by phase,
upgrade, tiles left, connection to the company's stations, O1, F2) and its
stations (O2: the city, a free slot, reach), and giving a first lay's terrain
cost.  The runs are not read on it (their values are the summary's low /
middle / high levels, F1, not the board's colours): they stay a skipped kind.

What the board cannot know is left lenient, never guessed: Kobe Rapid
Transit's station is not put on the board (L2: the others' stations in Kobe
leave ``state.stations`` but a station placed in Kobe afterwards is not
checked here), and OMS's ignoring of other stations in Osaka (C6) is not
modelled (OMS's lays are not checked for connection).
"""

from __future__ import annotations

from typing import Optional

from ...findings import INFO, RuleViolation
from ...schema import is_unknown

#: the kind of skipped check for stations the board does not check
KOBE_AFTER_KRTR = "stations in Kobe after Kobe Rapid Transit started (not on the board)"


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
                names = homes if isinstance(homes, list) else [c.extra.get("home_name")]
                tokens = rules.number("minors", c.sym, "tokens")
            else:
                names = [rules.number("corporations", c.sym, "home")]
                tokens = rules.number("corporations", c.sym, "tokens")
            found = [self._place(n) for n in names if n is not None and not is_unknown(n)]
            found = [(h, ci) for h, ci in found if h is not None and h in hexes]
            corporations.append({"sym": c.sym, "home": [h for h, _ in found[:1]],
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

    def lay(self, corp: str, action, connected: bool = True) -> Optional[int]:
        """A lay checked and made on the board: its terrain cost, or None
        when the board refused it (flagged; the map stays as it was)."""
        b, r = self.board, self.r
        try:
            plan = b.plan_lay(corp, action.tile, action.hex, action.rotation,
                              colors=r.phase.tiles, check_connection=connected)
        except RuleViolation as v:
            r.flag(v.rule, v.message)
            return None
        cost, _ = b.apply_lay(plan)
        for rule, message in b.pop_warnings():
            r.flag(rule, message, severity=INFO)
        return cost

    def token(self, corp: str, action) -> bool:
        """A station checked and placed on the board; False when refused."""
        b, r = self.board, self.r
        kobe = r.rules.number("map", "places", "Kobe", "hex")
        if "KRTR" in r.state.company_owner and action.hex == kobe:
            r.skip(KOBE_AFTER_KRTR, (), reason="Kobe Rapid Transit's station is not put on the "
                                               "board (kansai.md)")
            return True
        try:
            b.place_token(corp, action.hex, action.city)
        except RuleViolation as v:
            r.flag(v.rule, v.message)
            return False
        return True

    def closes(self, minor: str, into: Optional[str] = None) -> None:
        """A minor's stations leave the map (N5, K2-K4), or become KNR's (N4)."""
        if self.board is None or minor not in self.board.corporations:
            return
        if into is not None:
            self.board.transfer_tokens(minor, into)
        else:
            self.board.remove_corporation(minor)
