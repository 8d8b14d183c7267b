"""Placing station markers (and a home station placed again on a new tile)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ..actions import PlaceToken
from ..findings import RuleViolation, plural
from .base import Step


@dataclass
class _TokenPlan:
    cost: int
    board_plan: Any
    special: Any
    relocation: bool = False
    #: the company cannot pay: flagged when applied, the station placed and
    #: paid as the record says (cash may go below zero)
    short: Optional[str] = None


class TokenStep(Step):
    name = "placing a station"
    verb = "place a station"
    actions = (PlaceToken,)
    ordered = True

    def per_turn(self) -> int:
        return int(self.game.rules.operating.tokens_per_turn)

    def available(self, turn) -> bool:
        g = self.game
        corp = turn.corp
        if turn.tokens >= self.per_turn():
            return False
        cost = corp.token_cost()
        if cost is None or corp.cash < cost:
            return False
        return True if g.board is None else g.board.can_place_token(corp.sym)

    def check(self, turn, action: PlaceToken, special=None) -> _TokenPlan:
        g = self.game
        corp = turn.corp
        if g.board is not None and g.board.pending_relocation(corp.sym, action.hex):
            # the company's home station is placed again on the new tile: free
            return _TokenPlan(0, g.board.plan_token(corp.sym, action.hex, action.city,
                                                    check_reach=False), None, relocation=True)
        other = self.station_to_place_again(turn, action)
        if other is not None:
            # another company's station, lifted by this company's track on its
            # hex of several cities: 18xx.games has the operating company say
            # in which city it stands, at once (free; not this company's station)
            return _TokenPlan(0, g.board.plan_token(other, action.hex, action.city,
                                                    check_reach=False), None, relocation=True)
        if g.board is None and special is None and corp.home_placed \
                and action.hex == corp.spec.home:
            # without the map (--no-board) the relocation cannot be seen, but a
            # company never has two stations on one hex: a station written on its
            # own home hex is its home station placed again (a multi-city home
            # whose city is chosen once track reaches it: 1830's Erie on E11)
            return _TokenPlan(0, None, None, relocation=True)
        cost = corp.token_cost()
        if cost is None:
            # said first: with no marker left the step was passed over, and
            # "after running trains" would hide the real reason
            raise RuleViolation("token.none_left",
                                f"{corp.sym} has placed all {len(corp.spec.tokens)} of its "
                                f"station markers")
        if special is None or turn.special_token is not special:
            self.refuse_after(turn)
        if turn.tokens >= self.per_turn() and special is None:
            raise RuleViolation("token.one_per_turn",
                                f"{corp.sym} already placed "
                                f"{plural(turn.tokens, 'station')} this turn")
        if special is not None:
            cost = 0
        short = None
        if cost > 0 and g.short_of(corp, cost):     # a free station needs no money
            short = (f"{corp.sym} has {g.money(corp.cash)}; its next station costs "
                     f"{g.money(cost)}; taken as placed and paid, as the record says")
        board_plan = None
        if g.board is not None:
            board_plan = g.board.plan_token(corp.sym, action.hex, action.city,
                                            check_reach=special is None,
                                            tile_copy=getattr(action, "tile_copy", None))
        return _TokenPlan(cost, board_plan, special, short=short)

    def station_to_place_again(self, turn, action: PlaceToken):
        """The first company whose station waits to be placed again on the hex
        of ``action`` (a track-less hex of several cities that this turn's
        track reached), when it is not the acting company's: the acting
        company places it.  None otherwise."""
        g = self.game
        if g.board is None or action.hex not in turn.laid_on:
            return None
        others = [c for c in g.board.relocations_on(action.hex) if c != turn.corp.sym]
        return others[0] if others else None

    def apply(self, turn, action: PlaceToken, plan: _TokenPlan) -> None:
        g = self.game
        if plan.short is not None:
            g.flag("token.cash", plan.short)
        if plan.board_plan is not None:
            g.board.apply_token(plan.board_plan)
        if plan.relocation:
            return
        corp = turn.corp
        corp.tokens_placed += 1
        g.transfer(corp, g.bank, plan.cost)
        turn.tokens += 1
        special = plan.special
        if special is not None and turn.special_token is special:
            turn.special_token = None
        else:
            self.round.move_to(turn, self.round.step_index(self) + 1)

    def process(self, turn, action, special=None) -> None:
        self.apply(turn, action, self.check(turn, action, special))
