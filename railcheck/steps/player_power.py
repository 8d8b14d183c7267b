"""A private's tile lay made by a player rather than by a company.

Two windows of the ``tile_lay`` ability (``railcheck/schema.py``) give the lay
to a player:

* ``by: player`` (1889's Mitsubishi Ferry): the player who owns the private
  lays its tile, with no company of his and no connection, at any moment but
  during the operating turn of a company another player presides
  (``window: not_in_others_turns``); in a stock round (the shared round's
  :class:`PlayerLayStep`) and in an operating round
  (``OperatingRound.process_private``);
* ``window: on_sale`` (1889's Ehime Railway): when the owning player sells the
  private to a corporation, he may lay its tile at once (a pass declines;
  ``BuyCompanyStep`` opens the window, the next action closes it).

The player pays what the lay costs.  Like every check, :func:`check_player_lay`
changes nothing; :func:`apply_player_lay` carries out its plan.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Optional

from ..actions import LayTile
from ..findings import INFO, RuleViolation
from ..state import Player
from .base import Step


def player_lay_power(company) -> Optional[dict]:
    """The tile lay of ``company`` that a player makes, or None."""
    spec = (company.spec.special or {}).get("tile_lay")
    if spec and (spec.get("by") == "player" or spec.get("window") == "on_sale"):
        return spec
    return None


def check_player_lay(g, company, action: LayTile, payer: Player):
    """Why ``payer`` may not lay ``action``'s tile with ``company``'s power
    (raises), else the plan.  The window is the caller's to judge."""
    from .track import TrackStep
    spec = player_lay_power(company)
    if spec is None:
        raise RuleViolation("private.power", f"{company.sym} has no tile lay a player makes")
    if company.closed:
        raise RuleViolation("private.closed", f"{company.sym} is closed")
    TrackStep.check_power(company, action)
    board_plan = None
    if g.board is not None:
        board_plan = g.board.plan_lay(company.sym, action.tile, action.hex, action.rotation,
                                      colors=list(g.phase.tiles), check_connection=False,
                                      special=company.sym, tile_copy=action.tile_copy)
        cost = 0 if spec.get("free") else board_plan.cost
    else:
        spec_hex = ((g.rules.board or {}).get("hexes") or {}).get(action.hex) or {}
        cost = 0 if spec.get("free") or action.hex in g.laid_hexes \
            else int(spec_hex.get("cost") or 0)
    short = None
    if cost > 0 and payer.cash < cost:
        short = (f"{payer.name} has {g.money(payer.cash)}; laying on {action.hex} costs "
                 f"{g.money(cost)}; taken as laid and paid, as the record says")
    copy = g.board.copy_past_count(action.tile, action.tile_copy) if g.board is not None else None
    return SimpleNamespace(board_plan=board_plan, cost=cost, short=short, spec=spec, copy=copy)


def apply_player_lay(g, company, action: LayTile, plan, payer: Player) -> None:
    if plan.short is not None:
        g.flag("track.cost", plan.short)
    if plan.copy is not None:
        g.flag("tile.supply", plan.copy)
    if plan.board_plan is not None:
        g.board.apply_lay(plan.board_plan)
        for rule, message in g.board.pop_warnings():
            g.flag(rule, message, INFO)
    g.laid_hexes.add(action.hex)
    g.transfer(payer, g.bank, plan.cost)
    company.uses += 1
    count = plan.spec.get("count")
    if plan.spec.get("closes") and count is not None and company.uses >= int(count):
        g.close_company(company)


def lay_by_player(g, company, action: LayTile, payer: Player, outside: Optional[str] = None):
    """Check and carry out a player's lay; ``outside``: the lay is outside
    the power's window (flagged, then laid as the record says)."""
    plan = check_player_lay(g, company, action, payer)
    if outside is not None:
        g.flag("private.window", outside)
    apply_player_lay(g, company, action, plan, payer)


class PlayerLayStep(Step):
    """A stock round: the owner of a private whose tile lay is a player's
    (``by: player``) lays its tile, at any moment of the round."""

    name = "laying a private's tile"
    actions = (LayTile,)

    def owns(self, action) -> bool:
        return isinstance(action, LayTile) and self.game.private_actor(action.actor) is not None

    def available(self, turn) -> bool:
        """A player owns an open private whose tile lay is his, with a use left."""
        for c in self.game.companies.values():
            spec = player_lay_power(c)
            if spec is not None and spec.get("by") == "player" and not c.closed \
                    and isinstance(c.owner, Player) \
                    and (spec.get("count") is None or c.uses < int(spec["count"])):
                return True
        return False

    def check(self, turn, action):
        g = self.game
        company = g.private_actor(action.actor)
        spec = player_lay_power(company)
        if spec is None or spec.get("by") != "player":
            raise RuleViolation("private.power", f"{company.sym}'s power is not used by a "
                                                 f"player in a stock round")
        owner = company.owner
        if not isinstance(owner, Player):
            raise RuleViolation("private.power",
                                f"{company.sym}'s tile lay is its owning player's; it is owned "
                                f"by {g.holder_name(owner)}")
        return company, owner, check_player_lay(g, company, action, owner)

    def apply(self, turn, action, plan) -> None:
        company, owner, lay = plan
        apply_player_lay(self.game, company, action, lay, owner)
