"""The record-following of one round: the base every round's follower
extends (``stock.py``, ``operating.py``, ``auction.py``)."""

from __future__ import annotations

from ..actions import Checkpoint, Exchange, RoundMarker
from ..findings import RuleViolation


class RoundFollower:
    """The record-following of one round: where an action stands in it
    (:meth:`place`), and what the record may do with it once the rules
    ended it.  The base is a round whose end is final."""

    #: the round's companies have duties (run trains, own one): a round the
    #: record never played is closed with one finding for all they missed
    gathers_unplayed = False
    #: the end of the round may move share prices (a stock round's sold-out
    #: rise): they are marked before each action, to undo on a resume
    marks_prices = False

    def __init__(self, rnd):
        self.round = rnd
        self.game = rnd.game

    def place(self, action) -> None:
        """Put the round where the record says ``action`` stands (whose turn
        it is), before the round checks it: a player acting out of turn is
        flagged and takes the turn (the record says they acted), where the
        round would take the action otherwise (``Round.out_of_turn``)."""
        out = self.round.out_of_turn(action)
        if out is None:
            return
        player, message = out
        if message is not None:
            self.game.flag("turn.order", message)
        self.round.take_turn(player)

    def keeps(self, action) -> bool:
        """The round the rules would close for ``action`` goes on with it
        as the record has it (a turn that ended by itself taken up again)."""
        return False

    # ------------------------------------------------------------------
    # the round ended by the rules

    def record_goes_on(self, nxt) -> bool:
        """The record's next action ``nxt`` goes on with this round, which
        the rules just ended: its state is kept for :meth:`resume`."""
        return False

    def resume(self, rounds, action, saved, marks) -> bool:
        """Take the ended round up again for ``action`` (restoring the state
        ``saved`` when it ended), or False."""
        return False

    def closes_with_pass(self, action, following) -> bool:
        """``action``, a pass before anything of the round ``following``,
        closes this round's last turn instead (nothing to replay)."""
        return False

    def passed_over_pass(self, action) -> bool:
        """``action`` is a pass this round's end made without a word: it
        says what the rules did (nothing to replay)."""
        return False

    # ------------------------------------------------------------------
    # the record moves on

    def refuse_unentered(self, rounds, action) -> None:
        """Refuse ``action`` when closing this round unplayed to place it
        would invent a round (raise RuleViolation)."""

    def wrong_marker(self, rounds) -> bool:
        """A marker naming another round while the record goes on with this
        one, just begun: the marker is wrong, not the round."""
        return False

    def close_for_marker(self, want: str) -> None:
        """The record's marker names the round ``want``: this one ends."""
        self.round.finish_round()

    def closes_at_record_end(self) -> bool:
        """The record ends in this round's last turn and closing it ends the
        game (a pending end: the bank broke)."""
        return False


def refuse_unentered_stock_round(rounds, rnd, action) -> None:
    """A company's action right after an operating round ended, in the stock
    round the rules began, which the record has neither entered (no action)
    nor named (no marker): the record has not left the operating round, so
    the action is out of place there.  Passing over the whole stock round to
    place it would invent a round."""
    g = rounds.game
    corp = g.corporations.get(action.actor)
    if rounds.round_actions or rounds.marked_round is rnd or corp is None:
        return
    if not corp.floated:
        raise RuleViolation("or.not_floated", f"{corp.sym} has not floated and does not "
                                              f"operate")
    raise RuleViolation("round.out_of_place",
                        f"{corp.sym}'s '{action.verb}' comes after the operating round "
                        f"ended, and the record has no action of {rnd.label} yet: the "
                        f"replay does not pass over {rnd.label} for it")


def players_go_on(g, nxt) -> bool:
    """The record's next action ``nxt`` is a player's, as in a stock round."""
    return (nxt is not None and not isinstance(nxt, (Checkpoint, RoundMarker, Exchange))
            and nxt.actor in g.player_by_name)
