"""Laying and upgrading track, by the operating company or a private's power."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ..actions import LayTile
from ..findings import INFO, RuleViolation, plural
from .base import Step


@dataclass
class _LayPlan:
    cost: int
    board_plan: Any          # the board's checked lay, or None without a map
    special: Any             # the private whose power lays the tile, or None
    extra: bool                 # an extra lay (does not count against the turn's lays)
    #: a written rotation that does not fit while another does: the finding
    #: (rule, message) said when the lay is applied in the rotation the
    #: record implies (``following/track.py``)
    turned: Optional[tuple] = None
    #: the company cannot pay: flagged when applied, the tile laid and paid
    #: as the record says (cash may go below zero)
    short: Optional[str] = None
    #: a private's lay outside its window (``track_step``): flagged when
    #: applied, the tile laid as the record says
    outside: Optional[str] = None
    #: a lay refused on its written hex and taken on the hex the record's
    #: later lines have it on: (the lay there, the finding's rule and
    #: message, said when it is applied; ``following/track.py``)
    moved: Optional[tuple] = None
    #: the export names a tile copy the title does not have (``9-5`` of five
    #: 9s): flagged when applied, the tile laid as that copy (the record's
    #: later lines name its cities by it)
    copy: Optional[str] = None
    #: a lay the company's track reaches only through cities filled by other
    #: corporations' stations (:meth:`TrackStep.through_full_city`): the
    #: finding's message, said when it is applied, the tile laid as written
    blocked_connection: Optional[str] = None


def full_city_words(board, corp: str, hex_name: str) -> str:
    """"X's track reaches H only through C (A), a city filled by other
    corporations' stations, which blocks it": the cities full of others'
    stations ``corp``'s network reaches (a lay joined only through them)."""
    from ..board.routes import node_text
    _, reached, _ = board.network(corp)
    hexes = board.hex_list
    full = sorted(node_text(board, hi, ni) + " (" + ", ".join(hexes[hi].nodes[ni].tokens) + ")"
                  for hi, ni in reached if hexes[hi].nodes[ni].blocks(corp))
    what = "a city filled by other corporations' stations, which blocks it" \
        if len(full) < 2 else "cities filled by other corporations' stations, which block it"
    return f"{corp}'s track reaches {hex_name} only through {' or '.join(full) or 'a city'}, {what}"


def power_spec(company) -> dict:
    """The tile-laying power of a private (CS's extra lay, DH's teleport)."""
    power = company.spec.special or {}
    return power.get("tile_lay") or power.get("teleport") or {}


class TrackStep(Step):
    name = "laying track"
    verb = "lay track"
    actions = (LayTile,)
    ordered = True

    #: a lay refused as written may be taken in the rotation or on the hex
    #: the record implies (``railcheck.following``; flagged); off for a title
    #: whose map the board does not fully know
    turn_unfitting_rotations = True

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

    #: a lay refused for want of a connection that the company's track makes
    #: only through cities filled by others is taken as laid, flagged
    #: ``track.blocked_connection`` (:meth:`through_full_city`): a title's
    #: rule (1860's).  Elsewhere the refusal stands, and the record-following
    #: layer takes the lay so when the record's next lines go on from it
    #: (``following/repair.py``, ``Following.taking_full_city``)
    takes_blocked_connection = False
    #: the rule a full city's blocking of track is cited by in that finding
    #: (" (O3d)"), "" for none
    blocked_city_rule = ""
    #: while a lay is tried again with the network passing cities filled by
    #: others (:meth:`through_full_city`)
    _through_full = False

    def check(self, turn, action: LayTile, special=None) -> _LayPlan:
        """The lay as written (:meth:`check_written`); refused for want of a
        connection that only cities filled by others break, taken as laid
        and flagged where the title's rule or the record-following layer
        says so (:meth:`through_full_city`)."""
        try:
            return self.check_written(turn, action, special)
        except RuleViolation as v:
            following = self.game.following
            if not (self.takes_blocked_connection or following.taking_full_city):
                raise
            plan = self.through_full_city(turn, action, special, v)
            if following.taking_full_city:
                plan.blocked_connection = None      # (the layer's finding says it)
            return plan

    def through_full_city(self, turn, action: LayTile, special, refusal: RuleViolation) -> _LayPlan:
        """A lay refused for want of a connection that the company's track
        reaches only through cities filled by other corporations' stations:
        a full city blocks others' track as it blocks their runs (1830's
        rules, and the titles built on them; 1860's O3d), but the record
        says it was laid, and 18xx.games lets it through where its map was
        not computed again after a station was placed (a home station placed
        on floating or at the start of an operating round: 1860 random
        32000013_2 #141; 1889 random 58000034_0 #116, KO past SR's new home
        on Marugame I2), so it is taken as laid, flagged.  Any other refusal
        stands."""
        if refusal.rule != "tile.connection" or special is not None \
                or self.game.board is None or self._through_full:
            raise refusal       # (or already trying so: the same tile on another hex)
        # tried again with the network passing full cities
        plan = self.check_again("_through_full", refusal, self.check_written, turn, action,
                                special)
        plan.blocked_connection = (
            f"{refusal.message}: {full_city_words(self.game.board, turn.corp.sym, action.hex)}"
            f"{self.blocked_city_rule}; 18xx.games allows it; taken as laid, as the record says")
        return plan

    def check_again(self, flag: str, refusal: RuleViolation, check, turn, action: LayTile,
                    special):
        """``check`` of a refused lay once more with the step's class flag
        ``flag`` set (a reading of the map the refusal may yield to), then the
        step as it was (the class's False back, no trace left: check_purity
        sees nothing changed); ``refusal`` is raised when it refuses too."""
        setattr(self, flag, True)
        try:
            return check(turn, action, special)
        except RuleViolation:
            raise refusal from None
        finally:
            delattr(self, flag)

    def check_written(self, turn, action: LayTile, special=None) -> _LayPlan:
        """The lay as written: its plan, or the refusal (RuleViolation)."""
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
                    # the rotation the record implies, if another fits (flagged)
                    board_plan, turned = g.following.lay_turned(self, action, v, plan)
            except RuleViolation as v:
                # the hex the record's later lines have the tile on (flagged)
                moved = g.following.lay_elsewhere(self, turn, action, v, special)
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
        copy = g.board.copy_past_count(action.tile, action.tile_copy) if g.board is not None else None
        return _LayPlan(cost, board_plan, special, extra, turned, short, outside, copy=copy)

    def lay_colors(self, special) -> list:
        """The tile colours this lay may use: the phase's."""
        return list(self.game.phase.tiles)

    def connection_checked(self, special):
        """Whether the lay must join the company's network (a private's power
        needs no connection); ``"through_full"`` while a lay is tried again
        through cities filled by others (:meth:`through_full_city`)."""
        checked = special is None
        return "through_full" if checked and self._through_full else checked

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
        if plan.blocked_connection is not None:
            g.flag("track.blocked_connection", plan.blocked_connection)
        if plan.outside is not None:
            g.flag("private.window", plan.outside)
        if plan.moved is not None:
            g.flag(plan.moved[1], plan.moved[2])
        if plan.short is not None:
            g.flag("track.cost", plan.short)
        if plan.copy is not None:
            g.flag("tile.supply", plan.copy)
        if plan.board_plan is not None:
            _, rotation = g.board.apply_lay(plan.board_plan)
            for rule, message in g.board.pop_warnings():
                g.flag(rule, message, INFO)
            if plan.turned is not None:
                g.flag(*plan.turned)
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
