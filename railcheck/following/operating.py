"""The operating round as the record has it."""

from __future__ import annotations

from ..actions import Checkpoint, RoundMarker
from .rounds import RoundFollower


class OperatingFollower(RoundFollower):
    """An operating round: a round the record never played is one finding;
    its last turn, ended by itself, is taken up again when the record goes
    on with that company; the record ending in the game's last turn closes
    it."""

    gathers_unplayed = True

    def last_company(self):
        """The company whose turn ended by itself, the next not having acted
        (None)."""
        closed = self.round.closed_turn
        return closed.corp if closed is not None else None

    def record_goes_on(self, nxt) -> bool:
        """The round ended with its last company's turn, and the record's
        next action is that company's (only then is the state kept for
        :meth:`resume`)."""
        last = self.last_company()
        return (last is not None and nxt is not None
                and not isinstance(nxt, (Checkpoint, RoundMarker)) and nxt.actor == last.sym)

    def resume(self, rounds, action, saved, marks) -> bool:
        """The last company's turn ended by itself (nothing was left to do,
        as railcheck saw it) and the record goes on with that company: the
        round is taken up again and the action checked as part of that turn,
        so that a refusal names the real reason (no such train for sale, the
        train limit) rather than a round out of place."""
        g = self.game
        last = self.last_company()
        if last is None or action.actor != last.sym:
            return False
        rounds.restore(saved, None)
        g.current_action = action
        g.round.finished = False
        return True

    def closes_with_pass(self, action, following) -> bool:
        """A pass by the company whose turn ended the last operating round,
        before anything of the next one, where that company does not operate
        first: the pass closes its turn (a step the record wrote, such as
        declining a private's power: 18Ireland random 18003_5, #350), not a
        turn of the next round out of order."""
        last = self.last_company()
        if not isinstance(following, OperatingFollower) or last is None:
            return False
        order = following.round.order
        return action.actor == last.sym and bool(order) and order[0] is not last

    def closes_at_record_end(self) -> bool:
        """The record ends in the last turn of the game's last operating
        round (the bank broke): closing it ends the game."""
        r = self.round
        g = self.game
        return r.is_last() and g.end_pending and g.or_number >= g.or_count
