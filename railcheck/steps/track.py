"""Laying and upgrading track, by the operating company or a private's power."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Optional

from ..actions import LayTile, PlaceToken, RunRoutes
from ..findings import INFO, RuleViolation, plural
from .base import Step


@dataclass
class _LayPlan:
    cost: int
    board_plan: Any          # the board's checked lay, or None without a map
    special: Any             # the private whose power lays the tile, or None
    extra: bool                 # an extra lay (does not count against the turn's lays)
    #: a written rotation that does not fit while another does: the refusal of
    #: the written one (flagged when the lay is applied in the rotation that fits)
    turned: Optional[RuleViolation] = None
    #: the company cannot pay: flagged when applied, the tile laid and paid
    #: as the record says (cash may go below zero)
    short: Optional[str] = None
    #: a private's lay outside its window (``track_step``): flagged when
    #: applied, the tile laid as the record says
    outside: Optional[str] = None
    #: a lay refused on its written hex and taken on the hex the record's
    #: later lines have it on: (the lay there, the refusal at the written
    #: hex, what in the record says so)
    moved: Optional[tuple] = None


#: refusals of a lay that another rotation of the same tile may cure
ROTATION_RULES = frozenset({"tile.connection", "tile.edge", "tile.upgrade"})

#: refusals of a lay that the same tile on another hex may cure (a hex
#: written wrong)
HEX_RULES = ROTATION_RULES | {"tile.hex", "tile.blocked"}

#: how far the record is read for the hex a refused lay was meant for: the
#: acting company's runs (this turn's and the next operating round's), and
#: at most this many lines in all
HEX_LOOKAHEAD_RUNS = 2
HEX_LOOKAHEAD_LINES = 300


def power_spec(company) -> dict:
    """The tile-laying power of a private (CS's extra lay, DH's teleport)."""
    power = company.spec.special or {}
    return power.get("tile_lay") or power.get("teleport") or {}


class TrackStep(Step):
    name = "laying track"
    verb = "lay track"
    actions = (LayTile,)

    #: a lay refused in its written rotation is taken in a rotation that fits
    #: (flagged); off for a title whose map the board does not fully know
    turn_unfitting_rotations = True

    #: set (on the instance) while the same tile is tried on other hexes:
    #: no further hex is looked for then
    _relocating = False

    def lays_allowed(self) -> int:
        return int(self.game.rules.operating.tile_lays)

    def available(self, turn) -> bool:
        return turn.tile_lays < self.lays_allowed() or self.president_may_lay(turn)

    def president_may_lay(self, turn) -> bool:
        """The company's president owns a private whose tile lay is his own
        (``tile_lay`` with ``by: player``, 1889's MF) and still unused: the
        track step stays open for it until the company passes (as
        18xx.games keeps it)."""
        pres = turn.corp.president
        if pres is None:
            return False
        for c in pres.companies:
            spec = (c.spec.special or {}).get("tile_lay") or {}
            if not c.closed and spec.get("by") == "player" \
                    and (spec.get("count") is None or c.uses < int(spec["count"])):
                return True
        return False

    def terrain_cost(self, hex_name: str) -> int:
        """The cost of a first lay on a hex, from the ruleset's map (used
        when the map itself is not checked; the board knows it otherwise)."""
        g = self.game
        if hex_name in g.laid_hexes:
            return 0
        from ..board.board import selected_map
        spec = (selected_map(g.rules.board or {}).get("hexes") or {}).get(hex_name) or {}
        return int(spec.get("cost") or 0)

    def tile_content(self, name: str):
        """The tile ``name`` as the ruleset describes it (the board's, when the
        map is checked), or None for a tile the ruleset does not know."""
        g = self.game
        if g.board is not None:
            return g.board.tiles.get(str(name))
        from ..board.board import map_contents
        return map_contents(g.rules.board or {})[0].get(str(name))

    def check(self, turn, action: LayTile, special=None) -> _LayPlan:
        g = self.game
        corp = turn.corp
        extra = bool(special is not None and power_spec(special).get("extra"))
        outside = None
        if special is not None and power_spec(special).get("window") == "track_step" \
                and self.passed_by(turn):
            # the record says the tile was laid: flagged, and laid as written
            outside = (f"{special.sym}'s tile lay may be used only while {corp.sym} lays "
                       f"track; its turn is past that ({self.round.step_name(turn.step)}); "
                       f"taken as laid, as the record says")
        if not extra:
            if outside is None:
                self.refuse_after(turn)
            limit = self.lays_allowed()
            if turn.tile_lays >= limit:
                raise RuleViolation("track.one_lay",
                                    f"{corp.sym} already laid "
                                    f"{plural(turn.tile_lays, 'tile')} this turn; "
                                    f"the limit is {limit}")
        if special is not None:
            self.check_power(special, action)
        board_plan, turned = None, None
        if g.board is not None:
            def plan(rotation):
                return g.board.plan_lay(
                    corp.sym, action.tile, action.hex, rotation,
                    colors=self.lay_colors(special),
                    check_connection=self.connection_checked(special),
                    special=special.sym if special else None,
                    tile_copy=action.tile_copy)
            try:
                try:
                    board_plan = plan(action.rotation)
                except RuleViolation as v:
                    if action.rotation is None or v.rule not in ROTATION_RULES \
                            or not self.turn_unfitting_rotations:
                        raise
                    # the record says the tile was laid: if it fits in another
                    # rotation, it is taken as laid so (the written one flagged)
                    try:
                        board_plan = plan(None)
                    except RuleViolation:
                        raise v from None
                    turned = v
                    board_plan = self.rotation_record_implies(action, board_plan, plan)
            except RuleViolation as v:
                moved = None
                if special is None and v.rule in HEX_RULES and self.turn_unfitting_rotations \
                        and not self._relocating:
                    moved = self.hex_record_implies(turn, action, v)
                if moved is None:
                    raise
                return moved
            cost = board_plan.cost
        else:
            cost = self.terrain_cost(action.hex)
        cost = self.lay_cost(turn, action, board_plan, special, cost)
        cost -= self.terrain_discount(corp, action.hex, board_plan, cost)
        short = None
        if cost > 0 and g.short_of(corp, cost):     # a free lay needs no money (cash may be
            # below zero after a purchase taken as written)
            short = (f"{corp.sym} has {g.money(corp.cash)}; laying on {action.hex} costs "
                     f"{g.money(cost)}; taken as laid and paid, as the record says")
        return _LayPlan(cost, board_plan, special, extra, turned, short, outside)

    def rotation_record_implies(self, action: LayTile, fitting, plan):
        """A tile written in a rotation it does not fit in, which fits in
        several others: the one the record's later lines go on from (its
        later runs through the hex, with their connections, and a later
        upgrade of the hex, whose track keeps this tile's), so that the map
        stays the record's.  Only to stay in step: the written rotation is
        flagged in any case.  ``fitting`` (the first fitting rotation's
        plan) when the record says nothing more."""
        g = self.game
        coord = action.hex
        towards = {nb: e for e, nb in g.board.neighbours(coord).items()}
        needs: list = []      # ("run", edges it joins) or ("upgrade", its exits)
        for a in g.actions_ahead():
            if isinstance(a, LayTile) and a.hex == coord:
                later = g.board.tiles.get(str(a.tile))
                if later is not None and a.rotation is not None:
                    try:
                        needs.append(("upgrade", later.exits(int(a.rotation))))
                    except (TypeError, ValueError):
                        pass
                break
            for route in getattr(a, "routes", None) or ():
                for seg in route.connections or ():
                    hexes = [(str(x).split() or [""])[0] for x in seg]
                    for i, h in enumerate(hexes):
                        if h != coord:
                            continue
                        edges = frozenset(towards[n] for n in (hexes[i - 1] if i else None,
                                                                hexes[i + 1] if i + 1 < len(hexes)
                                                                else None)
                                          if n in towards)
                        if edges:
                            needs.append(("run", edges))
        if not needs:
            return fitting
        tile = fitting.tile

        def score(r):
            exits = tile.exits(r)
            return sum(1 for kind, edges in needs
                       if (exits <= edges if kind == "upgrade" else edges <= exits))
        written = int(action.rotation)  # type: ignore[arg-type]

        def turn_from_written(r):
            return min((r - written) % 6, (written - r) % 6)
        top = max(score(r) for r in tile.distinct_rotations())
        if top == 0:
            return fitting
        # among those that fit the later lines best, the one nearest the
        # written rotation (a tile turned one side too far, most often)
        best = min((r for r in tile.distinct_rotations() if score(r) == top),
                   key=lambda r: (turn_from_written(r), r))
        if best == fitting.rotation:
            return fitting
        try:
            return plan(best)
        except RuleViolation:
            return fitting

    def hex_record_implies(self, turn, action: LayTile, refusal: RuleViolation):
        """A lay refused on its written hex (a hex written wrong, most
        often): the plan of the same tile on the one hex the record's later
        lines have it on, with ``moved`` set, or None.  The later lines are
        read in order, a bounded way (the acting company's next runs): the
        first that needs the tile decides — a run through a hex (the
        export's connections, the notation's path or stops), a later upgrade
        of a hex from this tile (its colour next, its exits keeping this
        tile's), a station of the company there.  A hex the record lays
        itself in between needs nothing from this tile.  It needs the tile
        strongly when the map now lacks what that line uses there (no track,
        or not the sides the run takes; an upgrade skipping a colour); a
        hex the company's own line only uses is taken when it is the only
        one.  The tile must be legal there now (this step's own check, with
        the company's connection, the phase, the supply).  Several hexes, or
        none: None (the lay stays refused).  Only to stay in step: the
        written hex is flagged in any case."""
        g = self.game
        board = g.board
        corp = turn.corp.sym
        tile = board.tiles.get(str(action.tile))
        if tile is None and action.tile_copy is not None:
            tile = board.tiles.get(str(action.tile_copy).rpartition("-")[0])
        if tile is None or tile.color not in board.color_order:
            return None
        colour = board.color_order.index(tile.color)
        written = action.rotation
        tried: dict = {}

        def fits(coord, need):
            """The step's plan of the tile on ``coord`` in a rotation that
            meets ``need`` (nearest the written one), or None."""
            kind, edges = need
            rotations = list(tile.distinct_rotations())
            if written is not None:
                try:
                    w = int(written)
                except (TypeError, ValueError):
                    w = 0
                rotations.sort(key=lambda r: (min((r - w) % 6, (w - r) % 6), r))
            for r in rotations:
                exits = tile.exits(r)
                if edges and not (exits <= edges if kind == "upgrade" else edges <= exits):
                    continue
                key = (coord, r)
                if key not in tried:
                    moved = replace(action, hex=coord, rotation=r)
                    self._relocating = True
                    try:
                        got = self.check(turn, moved, None)
                    except RuleViolation:
                        got = None
                    finally:
                        del self._relocating
                    if got is not None and (got.turned is not None or got.moved is not None):
                        got = None
                    tried[key] = (moved, got) if got is not None else None
                if tried[key] is not None:
                    return tried[key]
            return None

        def lacks(coord, need) -> bool:
            """The map now lacks what the later line uses on ``coord``."""
            h = board.hexes[coord]
            kind, edges = need
            if kind == "upgrade":
                return True
            if kind == "station":
                return not any(n.kind == "city" and len(n.tokens) < n.slots for n in h.nodes)
            if not h.paths:
                return True
            return bool(edges) and not edges <= h.exits()

        def pays(coord, need) -> bool:
            """The tile changes what the company's own run earns at a stop
            on ``coord`` (a city upgraded)."""
            if need[0] != "stop":
                return False
            now = sorted(str(n.revenue) for n in board.hexes[coord].nodes
                         if n.kind in ("city", "town"))
            new = sorted(str(n.revenue) for n in tile.nodes if n.kind in ("city", "town"))
            return now != new

        covered: set = set()
        runs = 0
        for n, a in enumerate(g.actions_ahead()):
            if n >= HEX_LOOKAHEAD_LINES:
                break
            uses: dict = {}          # hex -> (kind, edges) this line needs there
            what = None
            if isinstance(a, LayTile):
                h = board.hexes.get(a.hex)
                later = board.tiles.get(str(a.tile))
                if h is not None and later is not None and a.hex not in covered \
                        and later.color in board.color_order \
                        and board.color_order.index(later.color) == colour + 1 \
                        and h.color in board.color_order \
                        and board.color_order.index(h.color) == colour - 1:
                    edges: frozenset = frozenset()
                    if a.rotation is not None:
                        try:
                            edges = later.exits(int(a.rotation))
                        except (TypeError, ValueError):
                            pass
                    uses[a.hex] = ("upgrade", edges)
                    what = "upgrade"
                covered.add(a.hex)
            elif isinstance(a, RunRoutes):
                what = "run"
                for route in a.routes or ():
                    for coord, edges, stop in self._route_uses(route):
                        if coord in covered or coord not in board.hexes:
                            continue
                        kind, known = uses.get(coord, ("pass", frozenset()))
                        uses[coord] = ("stop" if stop or kind == "stop" else "pass",
                                       known | edges)
                if a.actor == corp:
                    runs += 1
            elif isinstance(a, PlaceToken) and (a.corporation or a.actor) == corp \
                    and a.hex not in covered and a.hex in board.hexes:
                uses[a.hex] = ("station", frozenset())
                what = "station"
            uses.pop(action.hex, None)
            if uses:
                found = {c: fits(c, need) for c, need in uses.items()}
                found = {c: f for c, f in found.items() if f is not None}
                strong = [c for c in found if lacks(c, uses[c])]
                pick = None
                if len(strong) > 1:
                    strong = self._runs_as_claimed(a, strong, found)
                    if len(strong) != 1:
                        return None
                if strong:
                    pick = strong[0]
                elif a.actor == corp:
                    # the company's own run through a hex the tile fits in
                    # its written rotation, or where it pays more
                    weak = [c for c in found if pays(c, uses[c])
                            or (written is not None and found[c][0].rotation == written)]
                    if len(weak) > 1:
                        weak = self._runs_as_claimed(a, weak, found)
                        if len(weak) != 1:
                            return None
                    pick = weak[0] if weak else None
                else:
                    # another company's run that is worth what it claims only
                    # with the tile on one of its stops
                    weak = [c for c in found if pays(c, uses[c])]
                    if weak and not self._runs_as_claimed(a, [None], found):
                        weak = self._runs_as_claimed(a, weak, found)
                        if len(weak) == 1:
                            pick = weak[0]
                if pick is not None:
                    moved, got = found[pick]
                    moved, got = self._turned_as_record_goes_on(turn, moved, got)
                    ref = f"#{a.action_id}" if a.action_id is not None else f"line {a.line}"
                    got.moved = (moved, refusal, f"{what} of {a.actor} at {ref}", written)
                    return got
            if runs >= HEX_LOOKAHEAD_RUNS:
                break
        return None

    def _runs_as_claimed(self, run, hexes: list, found: dict) -> list:
        """Of several hexes a later run could need the tile on, those where
        the run, on the map with the tile laid there, is worth what it
        claims, train by train (the map is restored after each; None: the
        map as it is)."""
        g = self.game
        board = g.board
        if not isinstance(run, RunRoutes) or not run.routes \
                or any(r.revenue is None for r in run.routes):
            return []
        distances = {tr.name: tr.spec.reach for tr in g.trains}
        company = g.corporations.get(run.actor)
        if company is not None:
            distances.update({tr.name: tr.spec.reach for tr in company.trains})
        out = []
        for coord in hexes:
            snap, warnings = board.snapshot(), list(board.warnings)
            try:
                if coord is not None:
                    board.apply_lay(found[coord][1].board_plan)
                _, per_route = board.revenue_of_routes(run.actor, run.routes,
                                                       g.phase.tiles[-1], distances)
            except RuleViolation:
                continue
            finally:
                board.restore(snap)
                board.warnings = warnings
            if list(per_route) == [r.revenue for r in run.routes]:
                out.append(coord)
        return out

    def _turned_as_record_goes_on(self, turn, moved: LayTile, got):
        """The moved lay in the rotation the record's later lines go on from
        on its new hex (:meth:`rotation_record_implies`)."""
        g = self.game

        def plan(rotation):
            return g.board.plan_lay(turn.corp.sym, moved.tile, moved.hex, rotation,
                                    colors=self.lay_colors(None), check_connection=True,
                                    tile_copy=moved.tile_copy)
        best = self.rotation_record_implies(moved, got.board_plan, plan)
        if best is got.board_plan or best.rotation == moved.rotation:
            return moved, got
        other = replace(moved, rotation=best.rotation)
        self._relocating = True
        try:
            again = self.check(turn, other, None)
        except RuleViolation:
            return moved, got
        finally:
            del self._relocating
        if again.turned is not None:
            return moved, got
        return other, again

    def _route_uses(self, route):
        """(hex, the sides of it the route uses, a stop there) for each hex
        a route names: an export's connections, the notation's path, else
        its stops (no sides known)."""
        board = self.game.board
        seqs = []
        if route.connections:
            seqs = [[(str(x).split() or [""])[0] for x in seg] for seg in route.connections]
        elif route.path:
            seqs = [[str(x) for x in seg] for seg in route.path]
        out = []
        for hexes in seqs:
            for i, h in enumerate(hexes):
                if h not in board.hexes:
                    continue
                towards = {nb: e for e, nb in board.neighbours(h).items()}
                edges = frozenset(towards[nb] for nb in (hexes[i - 1] if i else None,
                                                         hexes[i + 1] if i + 1 < len(hexes)
                                                         else None)
                                  if nb in towards)
                out.append((h, edges, i in (0, len(hexes) - 1)))
        if not seqs:
            out = [(str(s.hex), frozenset(), True) for s in route.stops or ()]
        return out

    def lay_colors(self, special) -> list:
        """The tile colours this lay may use: the phase's."""
        return list(self.game.phase.tiles)

    def connection_checked(self, special) -> bool:
        """Whether the lay must join the company's network (a private's power
        needs no connection)."""
        return special is None

    def terrain_discount(self, corp, hex_name: str, board_plan, cost: int) -> int:
        """What the privates ``corp`` owns take off a lay's cost
        (``tile_discount``: 1889's SMR, mountains for 80 less): only on a hex
        whose one terrain is the power's (a mountain with a river is not
        discounted), at most the cost."""
        if cost <= 0:
            return 0
        powers: list[dict] = [p for p in ((c.spec.special or {}).get("tile_discount")
                                          for c in corp.companies if not c.closed) if p]
        if not powers:
            return 0
        if board_plan is not None:
            terrain = board_plan.hex.tile.terrain
        else:
            spec = ((self.game.rules.board or {}).get("hexes") or {}).get(hex_name) or {}
            terrain = spec.get("terrain") if hex_name not in self.game.laid_hexes else None
        kinds = set(str(terrain or "").split("|")) - {""}
        return min(cost, sum(p["discount"] for p in powers if kinds == {p["terrain"]}))

    def lay_cost(self, turn, action: LayTile, board_plan, special, terrain: int) -> int:
        """What the lay costs the company: the terrain (a title may add or
        waive costs)."""
        return terrain

    @staticmethod
    def check_power(special, action: LayTile) -> None:
        spec = power_spec(special)
        hexes = spec.get("hexes", [])       # a list, or "any" (18Ireland's DR, BoW)
        if hexes != "any" and action.hex not in hexes:
            raise RuleViolation("private.power",
                                f"{special.sym} can lay track only on {', '.join(hexes)}, "
                                f"not {action.hex}")
        tiles = spec.get("tiles")
        if tiles and tiles != "any" and action.tile not in [str(x) for x in tiles]:
            raise RuleViolation("private.power",
                                f"{special.sym} can lay only tile{'s' if len(tiles) != 1 else ''} "
                                f"{', '.join(map(str, tiles))}, not {action.tile}")
        uses = spec.get("count")
        if uses is not None and special.uses >= int(uses):
            raise RuleViolation("private.power_used",
                                f"{special.sym}'s tile lay may be used "
                                f"{plural(int(uses), 'time')} and "
                                f"has been used")

    def apply(self, turn, action: LayTile, plan: _LayPlan) -> None:
        g = self.game
        if plan.outside is not None:
            g.flag("private.window", plan.outside)
        if plan.moved is not None:
            _, refusal, where, written = plan.moved
            turned = "" if written is None or written == action.rotation \
                else f", turned to r{action.rotation}"
            g.flag(refusal.rule, f"{refusal.message}; the record's later lines have it on "
                                 f"{action.hex} ({where}): taken as laid there{turned}")
        if plan.short is not None:
            g.flag("track.cost", plan.short)
        if plan.board_plan is not None:
            _, rotation = g.board.apply_lay(plan.board_plan)
            for rule, message in g.board.pop_warnings():
                g.flag(rule, message, INFO)
            if plan.turned is not None:
                g.flag(plan.turned.rule, f"{plan.turned.message}; the tile fits turned to "
                                         f"r{rotation}: taken as laid so")
                g.guessed_rotations[action.hex] = (action.line, action.tile, rotation)
            elif action.rotation is None:
                # the record's line stays as written (no rotation): a second
                # replay of the record (a hint's) guesses it again and says so
                if plan.board_plan.warning is not None:
                    # a later finding on this hex points back to the guess
                    g.guessed_rotations[action.hex] = (action.line, action.tile, rotation)
        g.laid_hexes.add(action.hex)
        turn.laid_on.append(action.hex)
        g.transfer(turn.corp, g.bank, plan.cost)
        special = plan.special
        if special is not None:
            special.uses += 1
        if not plan.extra:
            turn.tile_lays += 1
            if special is not None and (special.spec.special or {}).get("teleport") \
                    and turn.corp.token_cost() is not None:
                # its free station comes next (not when every marker is on the map)
                turn.special_token = special
        before = plan.board_plan.before if plan.board_plan is not None else None
        if before is not None and g.rules.operating["track_restriction"] == "semi_restrictive":
            # semi-restrictive (1889, 18Ireland O2a): flagged after the lay, the
            # tile stays (as the record says)
            from ..board.gauge import new_track_problem
            problem = new_track_problem(g.board, turn.corp.sym, plan.board_plan.hex.coord,
                                        before, plan.board_plan.mapping)
            if problem is not None:
                g.flag("tile.no_new_track", problem)

    def process(self, turn, action, special: Optional[object] = None) -> None:
        plan = self.check(turn, action, special)
        if plan.moved is not None:
            # laid on the hex the record's later lines have it on (flagged)
            action = plan.moved[0]
        self.apply(turn, action, plan)
