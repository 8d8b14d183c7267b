"""A private's power used in an operating round (the private is the line's
actor): a step on the one protocol (``steps/base.py``), held by the operating
round beside the steps of a company's turn.

* the seller's tile lay right after the private was sold to a company
  (``tile_lay`` with ``window: on_sale``, 1889's ER; a pass declines);
* a tile lay that is its owning player's (``by: player``, 1889's MF), outside
  the turns of companies another player presides (``window:
  not_in_others_turns``: flagged, then laid as the record says);
* a company's private (1830's CS, DH): a lay or a station in its owner's
  turn, checked and carried out by the turn's own track or station step with
  the private's power (``special``).
"""

from __future__ import annotations

from types import SimpleNamespace

from ..actions import LayTile, Pass, PlaceToken
from ..findings import RuleViolation
from ..state import Corporation, Player
from .base import Step
from .player_power import apply_player_lay, check_player_lay, player_lay_power
from .token import TokenStep
from .track import TrackStep


class PrivatePowerStep(Step):
    """The power of the private that is the line's actor (see the module)."""

    name = "using a private's power"
    verb = "use a private's power"

    def owns(self, action) -> bool:
        return self.game.private_actor(action.actor) is not None

    def check(self, turn, action):
        """What the power does (a plan for :meth:`apply`), or a refusal;
        changes nothing."""
        g = self.game
        rnd = self.round
        company = g.companies[action.actor]
        owner = company.owner
        pending = rnd.sold_power
        if pending is not None and pending[0] is company and isinstance(action, (LayTile, Pass)):
            # the seller's lay when the private was sold to a company (a pass declines)
            lay = check_player_lay(g, company, action, pending[1]) \
                if isinstance(action, LayTile) else None
            return SimpleNamespace(kind="sold", company=company, payer=pending[1], lay=lay)
        if company.closed or owner is None:
            raise RuleViolation("private.closed", f"{company.sym} is closed or unowned")
        power = player_lay_power(company)
        if power is not None and power.get("window") == "on_sale" and isinstance(action, LayTile):
            raise RuleViolation("private.window",
                                f"{company.sym}'s tile lay is made by the player who sells it "
                                f"to a company, at once; {company.sym} is held by "
                                f"{g.holder_name(owner)} and was not just sold")
        if power is not None and power.get("by") == "player" \
                and isinstance(action, (LayTile, Pass)):
            if not isinstance(owner, Player):
                raise RuleViolation("private.power",
                                    f"{company.sym}'s tile lay is its owning player's; it is "
                                    f"owned by {g.holder_name(owner)}")
            if not isinstance(action, LayTile):
                return SimpleNamespace(kind="nothing")
            lay = check_player_lay(g, company, action, owner)
            return SimpleNamespace(kind="player", company=company, payer=owner, lay=lay,
                                   outside=self.outside_player_window(turn, owner, company))
        if not isinstance(owner, Corporation):
            raise RuleViolation("private.power",
                                f"{company.sym}'s power may be used only by a company that owns it; it is "
                                f"owned by {g.holder_name(owner)}")
        if turn is None or turn.corp is not owner:
            raise RuleViolation("private.power",
                                f"{company.sym} can be used only in its owner "
                                f"{owner.sym}'s turn")
        if isinstance(action, LayTile):
            step = rnd.step_by_type(TrackStep)
        elif isinstance(action, PlaceToken):
            step = rnd.step_by_type(TokenStep)
        elif isinstance(action, Pass):
            step = None
        else:
            raise RuleViolation("private.power", f"{company.sym} cannot '{action.verb}'")
        plan = step.check(turn, action, company) if step is not None else None
        return SimpleNamespace(kind="company", step=step, plan=plan, company=company)

    def apply(self, turn, action, plan) -> None:
        g = self.game
        rnd = self.round
        if plan.kind == "nothing":
            return
        if plan.kind == "sold":
            if plan.lay is not None:
                apply_player_lay(g, plan.company, action, plan.lay, plan.payer)
            rnd.sold_power = None
            if rnd.turn is not None:
                rnd.settle()            # the buyer's turn ends if nothing is left
            elif rnd.at_end():
                rnd.finish_if_done()
            return
        if plan.kind == "player":
            if plan.outside is not None:
                g.flag("private.window", plan.outside)
            apply_player_lay(g, plan.company, action, plan.lay, plan.payer)
            return
        if plan.step is not None:
            moved = getattr(plan.plan, "moved", None)
            if moved is not None:
                action = moved[0]       # laid on the hex the record's later lines have it on
            plan.step.apply(turn, action, plan.plan)
        elif turn.special_token is plan.company:
            turn.special_token = None   # the private's pass: its station is not placed
        if rnd.turn is turn:
            rnd.settle()        # steps left with nothing to do pass by themselves now

    @staticmethod
    def outside_player_window(turn, player, company):
        """Why a power of ``player``'s own (``window: not_in_others_turns``)
        may not be used now, or None: not in the operating turn of a company
        another player presides once it has begun (between turns, before the
        company's first action, it may)."""
        if turn is None or not turn.acted or turn.corp.president is player:
            return None
        pres = turn.corp.president.name if turn.corp.president else "nobody"
        return (f"{player.name}'s {company.sym} may lay its tile only outside the turns of "
                f"companies other players preside; it is {turn.corp.sym}'s turn (president "
                f"{pres}); taken as laid, as the record says")
