"""A tile lay the rules refuse as written, taken as the record's later
lines imply: in a rotation that fits, or on the hex they have it on.

The track step (``steps/track.py``) checks a lay as written.  When the
written rotation does not fit while another does, the record still says the
tile was laid: it is taken in the rotation the record's later runs and
upgrades need (:func:`lay_turned`).  When the tile fits nowhere on its
written hex, it is taken on the one hex the record's later lines have it on
(:func:`lay_elsewhere`).  Only to stay in step: the line as written is
flagged in any case (the step's plan carries the finding, said when the lay
is applied).
"""

from __future__ import annotations

from dataclasses import replace

from ..actions import LayTile, PlaceToken, RunRoutes
from ..findings import RuleViolation

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


def lay_turned(step, action: LayTile, refusal: RuleViolation, plan):
    """A lay ``refusal`` refuses in its written rotation: when the tile fits
    in another, (the board's plan in the rotation the record implies, the
    finding to say when it is laid so); else ``refusal`` is raised.
    ``plan(rotation)`` is the step's board check of the lay (pure)."""
    if action.rotation is None or refusal.rule not in ROTATION_RULES \
            or not step.turn_unfitting_rotations or step.game.following.judging_alone:
        raise refusal
    try:
        fitting = plan(None)
    except RuleViolation:
        raise refusal from None
    board_plan = rotation_record_implies(step, action, fitting, plan)
    return board_plan, (refusal.rule, f"{refusal.message}; the tile fits turned to "
                                      f"r{board_plan.rotation}: taken as laid so")


def lay_elsewhere(step, turn, action: LayTile, refusal: RuleViolation, special):
    """A lay ``refusal`` refuses on its written hex: the step's plan of the
    tile on the hex the record's later lines have it on (its ``moved`` set),
    or None.  Not for a private's lay, nor while a lay is being tried
    elsewhere already."""
    if special is not None or refusal.rule not in HEX_RULES \
            or not step.turn_unfitting_rotations or step.game.following.relocating:
        return None
    return hex_record_implies(step, turn, action, refusal)


def _check_elsewhere(step, turn, action: LayTile):
    """The step's own check of the lay moved or turned (no further hex is
    looked for meanwhile); None when it is refused."""
    following = step.game.following
    following.relocating = True
    try:
        return step.check(turn, action, None)
    except RuleViolation:
        return None
    finally:
        following.relocating = False


def rotation_record_implies(step, action: LayTile, fitting, plan):
    """A tile written in a rotation it does not fit in, which fits in
    several others: the one the record's later lines go on from (its
    later runs through the hex, with their connections, and a later
    upgrade of the hex, whose track keeps this tile's), so that the map
    stays the record's.  Only to stay in step: the written rotation is
    flagged in any case.  ``fitting`` (the first fitting rotation's
    plan) when the record says nothing more."""
    g = step.game
    coord = action.hex
    towards = {nb: e for e, nb in g.board.neighbours(coord).items()}
    needs: list = []      # ("run", edges it joins) or ("upgrade", its exits)
    for a in g.following.ahead():
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

def hex_record_implies(step, turn, action: LayTile, refusal: RuleViolation):
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
    g = step.game
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
                got = _check_elsewhere(step, turn, moved)
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
    for n, a in enumerate(g.following.ahead()):
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
                for coord, edges, stop in _route_uses(board, route):
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
            # (the tile's plan on a hex, the step's check, is asked only of
            # the hexes a reading below looks at: another company's run
            # through ten hexes needs it where the map lacks what the run
            # uses or where the tile pays more, not on every hex; the same
            # plans, in the same order: the check is pure)
            found: dict = {}

            def fit(c):
                if c not in found:
                    found[c] = fits(c, uses[c])
                return found[c]
            strong = [c for c in uses if lacks(c, uses[c]) and fit(c) is not None]
            pick = None
            if len(strong) > 1:
                strong = _runs_as_claimed(step, a, strong, found)
                if len(strong) != 1:
                    return None
            if strong:
                pick = strong[0]
            elif a.actor == corp:
                # the company's own run through a hex the tile fits in
                # its written rotation, or where it pays more
                weak = [c for c in uses if fit(c) is not None and (
                    pays(c, uses[c]) or (written is not None and found[c][0].rotation == written))]
                if len(weak) > 1:
                    weak = _runs_as_claimed(step, a, weak, found)
                    if len(weak) != 1:
                        return None
                pick = weak[0] if weak else None
            else:
                # another company's run that is worth what it claims only
                # with the tile on one of its stops
                weak = [c for c in uses if pays(c, uses[c]) and fit(c) is not None]
                if weak and not _runs_as_claimed(step, a, [None], found):
                    weak = _runs_as_claimed(step, a, weak, found)
                    if len(weak) == 1:
                        pick = weak[0]
            if pick is not None and pick not in strong \
                    and _another_tile_fits(board, corp, action, tile):
                # a hex the run only uses, where another tile of the colour
                # fits the written hex too: the tile's number may be the
                # slip, not the hex (1860_rand_49000100_1 #286, 786 for 772
                # on I9, taken to I3 by the next run: 20 errors); the
                # repair's readings judge both by the record's next lines
                return None
            if pick is not None:
                moved, got = found[pick]
                moved, got = _turned_as_record_goes_on(step, turn, moved, got)
                ref = f"#{a.action_id}" if a.action_id is not None else f"line {a.line}"
                turned = "" if written is None or written == moved.rotation \
                    else f", turned to r{moved.rotation}"
                got.moved = (moved, refusal.rule,
                             f"{refusal.message}; the record's later lines have it on "
                             f"{moved.hex} ({what} of {a.actor} at {ref}): taken as laid "
                             f"there{turned}")
                return got
        if runs >= HEX_LOOKAHEAD_RUNS:
            break
    return None

def _another_tile_fits(board, corp: str, action: LayTile, tile) -> bool:
    """Another tile of ``tile``'s colour fits the written hex of ``action``
    in some rotation (the board's pure check)."""
    for name, t in board.tiles.items():
        if str(name) == str(action.tile) or t.color != tile.color:
            continue
        for r in t.distinct_rotations():
            try:
                board.plan_lay(corp, name, action.hex, r, colors=[t.color])
            except RuleViolation:
                continue
            return True
    return False


def _runs_as_claimed(step, run, hexes: list, found: dict) -> list:
    """Of several hexes a later run could need the tile on, those where
    the run, on the map with the tile laid there, is worth what it
    claims, train by train (the map is restored after each; None: the
    map as it is)."""
    g = step.game
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

def _turned_as_record_goes_on(step, turn, moved: LayTile, got):
    """The moved lay in the rotation the record's later lines go on from
    on its new hex (:meth:`rotation_record_implies`)."""
    g = step.game

    def plan(rotation):
        return g.board.plan_lay(turn.corp.sym, moved.tile, moved.hex, rotation,
                                colors=step.lay_colors(None), check_connection=True,
                                tile_copy=moved.tile_copy)
    best = rotation_record_implies(step, moved, got.board_plan, plan)
    if best is got.board_plan or best.rotation == moved.rotation:
        return moved, got
    other = replace(moved, rotation=best.rotation)
    again = _check_elsewhere(step, turn, other)
    if again is None:
        return moved, got
    if again.turned is not None:
        return moved, got
    return other, again

def _route_uses(board, route):
    """(hex, the sides of it the route uses, a stop there) for each hex
    a route names: an export's connections, the notation's path, else
    its stops (no sides known)."""
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

