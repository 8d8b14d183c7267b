"""The one protocol of every step of every round.

A round (``railcheck.rounds``) is a list of steps and the state of its turns.
A step owns some kinds of action (``actions``) and says, for the round's turn
at hand (an operating company's ``Turn``; in a round of players' turns, the
player acting):

* what it may take now: :meth:`Step.blocking` (it takes every action now:
  it must be done before anything else), :meth:`Step.available` (it has
  something to do now), :meth:`Step.takes` (the kinds of action it may take
  now, for a caller that asks what may be done next);
* whether an action is legal: :meth:`Step.check`, pure: it raises
  ``RuleViolation`` or returns a plan, and changes nothing (what is taken as
  written, a purchase over cash or a limit, is a note in the plan);
* :meth:`Step.apply`: carries the plan out (flags its notes first).

The round hands an action to the blocking step, else to the first step that
owns it (``Round.step_for``), and keeps the turn's bookkeeping around it.
"""

from __future__ import annotations

from typing import ClassVar, Optional

from ..findings import RuleViolation


class Step:
    """One part of a round: a part of a company's operating turn (laying
    track, running trains), a kind of a player's action in a stock round
    (a par, a purchase), an auction's bids, a blocking duty (a par that must
    be set, a home station to place)."""

    #: what the round is doing at this step, for messages ("laying track")
    name: ClassVar[str] = ""
    #: what an action of this step does, for messages ("lay track")
    verb: ClassVar[str] = ""
    #: the action classes the step owns (None: any action: the round's
    #: catch-all step, which explains the refusal of what no step owns)
    actions: ClassVar[Optional[tuple]] = ()
    #: (a step of an operating turn) it comes in its place in the turn: an
    #: action of an earlier ordered step after a later one is refused
    #: (``or.step_order``); an unordered step's actions come at any moment of
    #: the turn.  A step with nothing to do is passed over without a word
    #: (the notation may leave its ``pass`` out)
    ordered: ClassVar[bool] = False
    #: (a step of an operating turn) 18xx.games asks the company for this
    #: step's action or its pass whenever the step has something to do, so
    #: an export always has a line for it then (``following/operating.py``,
    #: ``OperatingFollower.unwritten_step``)
    site_asks: ClassVar[bool] = False
    #: (a round of players' turns) its actions are a player's turn's: the
    #: round keeps the turn's bookkeeping around them (whose turn, passes,
    #: the end of the round)
    turn_action: ClassVar[bool] = False

    def __init__(self, rnd):
        self.round = rnd
        self.game = rnd.game

    # ------------------------------------------------------------------
    # what the step takes now

    def owns(self, action) -> bool:
        return self.actions is None or isinstance(action, self.actions)

    def blocking(self) -> bool:
        """Whether the step takes every action now (it must be done first)."""
        return False

    #: the step takes actions only while it blocks (a duty that must be done
    #: first: a par to set, a home station to place)
    only_blocking: ClassVar[bool] = False

    def available(self, turn) -> bool:
        """Whether the step has anything to do for ``turn`` now."""
        return not self.only_blocking

    def takes(self, turn) -> tuple:
        """The kinds of action the step may take now (each still to be
        checked): its own when it blocks or has something to do."""
        if self.actions is None or not (self.blocking() or self.available(turn)):
            return ()
        return self.actions

    def yields_to(self, action) -> bool:
        """Whether the blocking step lets ``action`` by: the record went on
        without the step's own action, which the rules do not require first
        (:meth:`give_way` says what that means)."""
        return False

    def give_way(self, action) -> None:
        """The round moves past this blocking step without its action."""

    def may_take_for(self, owner, action) -> bool:
        """(a turn's action) A line of this kind written in ``owner``'s turn
        under another player's name may be tried as ``owner``'s (the
        record-following layer's wrong name): only when the step's checks
        flag before they change anything."""
        return False

    # ------------------------------------------------------------------
    # an action

    def check(self, turn, action):
        """Why ``action`` is refused (raise RuleViolation), else a plan for
        :meth:`apply`.  Changes nothing."""
        raise NotImplementedError

    def apply(self, turn, action, plan) -> None:
        raise NotImplementedError

    def process(self, turn, action) -> None:
        self.apply(turn, action, self.check(turn, action))

    # ------------------------------------------------------------------
    # a step of an operating turn

    def leave(self, turn) -> None:
        """The turn moves past this step without an action of it (a pass, or
        a later step's action): record what that means."""

    def check_pass(self, turn) -> None:
        """Why the turn may not pass this step (raise RuleViolation)."""

    def end_of_turn(self, turn) -> None:
        """The company's turn ends: flag a duty of this step left undone."""

    def what_is_open(self, turn) -> str:
        """What the step could do now, in words with its numbers, for a
        finding that names it ("" when the step's name says enough)."""
        return ""

    def open_lines(self, turn) -> list:
        """``(action, words)``: lines the step could take now (each still to
        be checked), for the record-following layer to try where a record
        left the step's line out; none by default."""
        return []

    def passed_by(self, turn) -> bool:
        """Whether the company's own actions took its turn past this step."""
        idx = self.round.step_index(self)
        return turn.step > idx and turn.explicit_step > idx

    def refuse_after(self, turn) -> None:
        """Refuse an action of this step when the company's own actions took
        its turn past it.  A step the turn passed over by itself (it had
        nothing to do then) is not "done": the action goes on to the step's
        own checks, which name the real reason (no marker left, no money...)."""
        if self.ordered and self.passed_by(turn):
            raise RuleViolation("or.step_order",
                                f"{turn.corp.sym} cannot {self.verb} after "
                                f"{self.round.step_name(turn.step)}")
