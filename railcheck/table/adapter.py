"""The one place where ``railcheck next`` (and the editor's hover and
completion) reads the rounds and steps: who is to act, the step a candidate
action goes to and its pure check, and the trial of an action on the state
(the replay's own ``play`` of it, then the state put back).

Nothing here judges an action itself: a candidate is offered when the
replay, given it as the record's next action, accepts it without an error
finding, exactly as ``railcheck validate`` would (``trial``).  The steps'
pure checks (``pure_check``) only sort out, cheaply and before any trial,
the many candidates they refuse (a tile that does not fit, a share over a
limit); a refusal there is the same refusal the replay would make.

When the step protocol changes (one protocol for every round: which actions
a step takes now, a pure check returning a plan, apply), this module is what
follows it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from ..findings import ERROR, RuleViolation
from .incremental import Held


@dataclass
class Situation:
    """Who is to act where the replay stands."""

    round: str              # "SR 3", "OR 2.1", "auction", "MR 1" ...
    kind: str               # the round's kind: "SR", "OR", "auction", ...
    actor: Optional[str]    # the player's name or the company's symbol (None: nobody)
    actor_kind: str         # "player", "company" or ""
    step: str               # what the actor is doing ("laying track"), or ""
    detail: str             # the round's own words for the turn ("Bob (bidding for CS)")
    finished: bool          # the game is over


def situation(game) -> Situation:
    r = game.round
    if game.finished or r is None:
        return Situation(r.label if r is not None else "", getattr(r, "kind", ""), None, "",
                         "", "", True)
    try:
        detail = r.describe_turn() or ""
    except Exception:       # a round in a state it cannot describe
        detail = ""
    try:
        step = r.describe_step() or ""
    except Exception:
        step = ""
    actor, kind = None, ""
    pending = getattr(game, "pending_par", None)
    state = getattr(game.title, "state", None)
    auction = getattr(r, "auction", None)
    home = getattr(state, "pending_home", None)          # 18Ireland: a major's home
    track = getattr(state, "home_track", None) or []     # 1860: a home hex to lay
    if pending is not None:
        actor, kind = pending[0].name, "player"
    elif r.kind == "SR" and home is not None:
        actor, kind, step = home.sym, "company", "placing a home station"
    elif r.kind == "SR" and track:
        actor, kind, step = track[0].sym, "company", "laying the home track"
    elif auction is not None and getattr(auction, "active", None):
        # 18Ireland: a minor's auction within the stock round
        actor, kind = auction.active[0].name, "player"
        step = f"bidding for {auction.corp.sym}"
    else:
        names = [(p.name, "player") for p in game.players] + \
                [(c, "company") for c in game.corporations]
        for name, k in sorted(names, key=lambda n: -len(n[0])):
            if detail == name or detail.startswith(name + " "):
                actor, kind = name, k
                break
    return Situation(r.label, r.kind, actor, kind, step, detail, False)


# ---------------------------------------------------------------------------
# the operating turn


def operating_turn(game):
    """The operating company's turn (``rounds.operating.Turn``), or None."""
    r = game.round
    if getattr(r, "kind", "") != "OR":
        return None
    return getattr(r, "turn", None)


def turn_counts(game) -> dict:
    """What the operating turn has done: tile lays, stations, revenue."""
    t = operating_turn(game)
    if t is None:
        return {}
    return {"tile_lays": t.tile_lays, "tokens": t.tokens, "revenue": t.revenue}


def lays_allowed(game) -> Optional[int]:
    r = game.round
    from ..steps.track import TrackStep
    step = r.step_by_type(TrackStep) if hasattr(r, "step_by_type") else None
    return step.lays_allowed() if step is not None else None


def unconnected_hexes(game, corp_sym: str) -> set:
    """Hexes where no lay of the company's own (no private's power) can join
    its network, so that every tile there is refused for its connection:
    none of their edges meets the network (``Board.connected_edges``, the
    check the lay makes).  Empty when the title's lays may connect
    otherwise (a gauged map: 18Ireland's narrow track) or are not checked
    for it."""
    board = game.board
    r = game.round
    from ..steps.track import TrackStep
    step = r.step_by_type(TrackStep) if hasattr(r, "step_by_type") else None
    if board is None or step is None or getattr(board, "gauged", False) \
            or not step.connection_checked(None):
        return set()
    return {h.coord for h in board.hex_list if not board.connected_edges(corp_sym, h.coord)}


def lays_passed(game) -> bool:
    """The operating company's own actions took its turn past laying track:
    every lay of its own is refused (``Step.refuse_after``, which
    ``TrackStep.check`` and the titles' lay checks reach for any lay without
    a private's power), so none need be tried."""
    t = operating_turn(game)
    r = game.round
    from ..steps.track import TrackStep
    step = r.step_by_type(TrackStep) if t is not None else None
    return step is not None and step.blocking and step.passed_by(t)


def runs_passed(game) -> bool:
    """The operating company's own actions took its turn past running its
    trains, or it ran them (``RouteStep.check`` refuses a run then)."""
    t = operating_turn(game)
    r = game.round
    from ..steps.route import RouteStep
    step = r.step_by_type(RouteStep) if t is not None else None
    return step is not None and (t.revenue is not None
                                 or (step.blocking and step.passed_by(t)))


def phase_colors(game) -> list:
    return list(game.phase.tiles)


# ---------------------------------------------------------------------------
# checks


#: what a title's lay plan may carry that its apply flags as an error, the
#: tile laid all the same as the record says: refused here, as the replay's
#: finding would (18Ireland's lay off the company's network; 1860's lay
#: joined to it only through cities others' stations fill, O3d)
_FLAGGED_LAYS = {"unconnected": "tile.connection",
                 "blocked_connection": "track.blocked_connection"}


def pure_check(game, action):
    """The check of the step that would take ``action`` now, which changes
    nothing: raises ``RuleViolation`` (the replay would refuse the action
    with it) or returns the step's plan; None when no step's pure check
    applies here (the action is then judged by :func:`trial` alone).  A plan
    is not a verdict: what the step takes as written is flagged only when
    applied."""
    r = game.round
    if r is None:
        return None
    if r.kind == "OR":
        t = getattr(r, "turn", None)
        if t is None or t.corp.sym != action.actor or t.special_token is not None:
            return None
        step = r.step_of(action)
        if step is None:
            return None
        # the action tried is the record's last: no later line to read the
        # hex it was meant for from (the record-following layer's switch)
        following = game.following
        relocating, alone = following.relocating, following.judging_alone
        following.relocating = following.judging_alone = True
        try:
            ok, plan = game.clean_attempt(lambda: step.check(t, action))
            if not ok:
                # the same check again, to say why (clean_attempt keeps no reason)
                step.check(t, action)
                raise RuleViolation("refused", "refused")
        finally:
            following.relocating, following.judging_alone = relocating, alone
        turned = getattr(plan, "turned", None)
        if turned is not None:
            raise RuleViolation(*turned)    # the rotation written does not fit
        for name, rule in _FLAGGED_LAYS.items():
            message = getattr(plan, name, None)
            if message is not None:
                raise RuleViolation(rule, message)
        return plan
    turn_step_for = getattr(r, "turn_step_for", None)
    current = getattr(r, "current", None)
    if turn_step_for is None or current is None or current.name != action.actor \
            or r.blocking_step() is not None:
        return None
    step = turn_step_for(action)
    if step is None:
        return None
    return step.check(current, action)


#: the fields of the steps' plans that hold what is taken as written (flagged
#: when the plan is applied): a plan with one of them set is no clean verdict
_WRITTEN = ("notes", "turned", "moved", "short", "outside", "wrong_price", "over_limit")


def plan_is_clean(plan) -> bool:
    """The plan carries nothing taken as written (a refusal the record's line
    still defines, flagged when applied)."""
    return not any(getattr(plan, name, None) for name in _WRITTEN)


#: refusals that do not depend on a candidate's own numbers (which company,
#: hex or price): another candidate of the same kind by the same actor would
#: be refused for the same reason, so none need be tried
KIND_REFUSALS = frozenset({
    "turn.order", "turn.actor", "round.out_of_place", "stock.action", "or.action",
    "or.player_action", "auction.action", "merger.action", "emergency.not_needed",
    "or.issue", "private.trade_phase", "stock.sell_first_round", "private.buy_phase"})


@dataclass
class Verdict:
    ok: bool
    rule: str = ""
    message: str = ""
    #: what the inspection callback read from the state right after the action
    after: object = None
    #: the round that took the (first) action, when not the one where the
    #: replay stood: the record may leave that round for the next one
    moved_to: str = ""


class Trials:
    """Actions tried one by one on the state where a paused replay stands
    (``Checker.paused``): each is given to the replay as the record's next
    action (``Replay.play``), its findings read, and the state put back."""

    def __init__(self, rp):
        self.rp = rp
        self.held = Held(rp)
        self.count = 0

    def judge(self, actions, inspect: Optional[Callable] = None) -> Verdict:
        """Play ``actions`` (one, or a sequence) in turn; the verdict of the
        whole: refused at the first error finding."""
        if not isinstance(actions, (list, tuple)):
            actions = [actions]
        rp = self.rp
        g = rp.game
        acts = rp.record.actions
        n = len(acts)
        self.count += 1
        self.held.copy_in()
        standing = g.round
        took: list = []
        saved_hook = rp.before_action
        rp.before_action = lambda game, action: took.append(game.round)
        try:
            for k, action in enumerate(actions):
                acts.append(action)
                before = len(g.findings)
                played = rp.play(n + k)
                errors = [f for f in g.findings[before:] if f.severity == ERROR]
                if errors:
                    return Verdict(False, errors[0].rule, errors[0].message)
                if not played:
                    return Verdict(False, "internal.error", "the replay stopped")
            after = inspect(g) if inspect is not None else None
            moved = took[0].label if took and took[0] is not standing else ""
            return Verdict(True, after=after, moved_to=moved)
        finally:
            rp.before_action = saved_hook
            del acts[n:]
            self.held.put_back()


def refusal(game, action) -> Optional[RuleViolation]:
    """The pure check's refusal of ``action``, or None (not refused there)."""
    try:
        pure_check(game, action)
    except RuleViolation as v:
        return v
    return None
