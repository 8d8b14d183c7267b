"""The base of every step of a round."""

from __future__ import annotations

from typing import ClassVar

from ..findings import RuleViolation


class Step:
    """One part of a company's operating turn (or of a round).

    ``actions`` are the action classes the step owns.  A *blocking* step
    comes in its place in the turn: an action of an earlier blocking step
    after a later one is refused (``or.step_order``).  A non-blocking step's
    actions may come at any moment of the turn.  ``available`` says whether
    the step has anything to do; a step with nothing to do is passed over
    without a word (the notation may leave its ``pass`` out).
    """

    #: what the turn is doing at this step, for messages ("laying track")
    name: ClassVar[str] = ""
    #: what an action of this step does, for messages ("lay track")
    verb: ClassVar[str] = ""
    actions: ClassVar[tuple] = ()
    blocking: ClassVar[bool] = True

    def __init__(self, rnd):
        self.round = rnd
        self.game = rnd.game

    # ------------------------------------------------------------------

    def owns(self, action) -> bool:
        return isinstance(action, self.actions)

    def available(self, turn) -> bool:
        """Whether the step has anything to do for the turn's company now."""
        return False

    def leave(self, turn) -> None:
        """The turn moves past this step without an action of it (a pass, or
        a later step's action): record what that means."""

    def check_pass(self, turn) -> None:
        """Why the turn may not pass this step (raise RuleViolation)."""

    def end_of_turn(self, turn) -> None:
        """The company's turn ends: flag a duty of this step left undone."""

    def check(self, turn, action):
        """Why ``action`` is refused (raise RuleViolation), else a plan for
        :meth:`apply`.  Changes nothing."""
        raise NotImplementedError

    def apply(self, turn, action, plan) -> None:
        raise NotImplementedError

    def process(self, turn, action) -> None:
        self.apply(turn, action, self.check(turn, action))

    # ------------------------------------------------------------------

    def passed_by(self, turn) -> bool:
        """Whether the company's own actions took its turn past this step."""
        idx = self.round.step_index(self)
        return turn.step > idx and turn.explicit_step > idx

    def refuse_after(self, turn) -> None:
        """Refuse an action of this step when the company's own actions took
        its turn past it.  A step the turn passed over by itself (it had
        nothing to do then) is not "done": the action goes on to the step's
        own checks, which name the real reason (no marker left, no money...)."""
        if self.blocking and self.passed_by(turn):
            raise RuleViolation("or.step_order",
                                f"{turn.corp.sym} cannot {self.verb} after "
                                f"{self.round.step_name(turn.step)}")


class RoundStep:
    """One part of a stock round or an auction (rounds whose actions are the
    players' turns, not a company's operating turn).

    A round holds the turn's state (whose turn, what was bought, passes) and
    a list of steps (``Round.step_classes``); each step owns some kinds of
    action and applies them.  A step that is *blocking* now (a par that must
    be set, a minor's auction in progress, a home station to place) takes
    every action until it is done, and explains why another is refused;
    otherwise the first step that owns the action takes it.  A title inserts
    or replaces steps in its round's list.

    Like every check of railcheck, a step refuses an action (raises
    ``RuleViolation``) before it changes anything, and flags what it takes
    as written before the change it makes.
    """

    #: what the round is doing at this step, for messages ("setting a par")
    name: ClassVar[str] = ""
    #: the action classes the step owns (None: any action, the round's
    #: catch-all step, which explains the refusal of what nobody owns)
    actions: ClassVar[tuple | None] = ()

    def __init__(self, rnd):
        self.round = rnd
        self.game = rnd.game

    def owns(self, action) -> bool:
        return self.actions is None or isinstance(action, self.actions)

    def blocking(self) -> bool:
        """Whether the step takes every action now (it must be done first)."""
        return False

    def yields_to(self, action) -> bool:
        """Whether the blocking step lets ``action`` by: the record went on
        without the step's own action, which the rules do not require first
        (:meth:`leave` says what that means)."""
        return False

    def leave(self, action) -> None:
        """The round moves past this blocking step without its action."""

    def process(self, action) -> None:
        raise NotImplementedError
