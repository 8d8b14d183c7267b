"""A line the rules refuse, read as the record's next lines go on from it.

When the rules refuse a line, the line stays flagged in any case.  What the
replay does next decides whether the rest of the report is about the
record: the table went on from some state, and the record's later lines
say which.  For a refusal of some kinds there are a few readings of the
line that the rules accept (a line missing before it: the purchase the
rules force; another city of the same station; another tile of the same
colour); each is tried, and the one the record's next lines go on from
with the fewest errors — fewer than with the line refused, and no other as
few — is taken (``lookahead.best_reading``), its finding saying so.  With
none, the line stays refused and the state as it was.

The readings are made here, by the rule of the refusal; the rounds and
steps judge them as any line (a reading they refuse is no reading).
"""

from __future__ import annotations

import copy

from ..actions import BuyTrain, Pass
from .lookahead import Reading, best_reading


def readings_for(replay, action, violation) -> list:
    """The readings of ``action``, refused by ``violation``, worth trying."""
    make = _READINGS.get(violation.rule)
    if make is None:
        return []
    try:
        return make(replay, action, violation) or []
    except Exception:       # a reading that cannot be made is no reading
        return []


def repair(replay, action, violation):
    """The reading of a refused line the record goes on from, or None."""
    if getattr(replay, "trying", False) or replay.check_purity:
        return None
    readings = readings_for(replay, action, violation)
    if not readings:
        return None
    i = best_reading(replay, readings)
    return None if i is None else readings[i]


# ---------------------------------------------------------------------------
# the readings, by the rule of the refusal

def _missing_train(replay, action, violation) -> list:
    """A company passes with no train, which it must buy: the line buying
    one is missing (the cheapest the depot or the pool sells, at its
    price), when the record's next lines go on as if it owned it."""
    if not isinstance(action, Pass):
        return []
    g = replay.game
    from ..steps.trains import cheapest_train
    tr = cheapest_train(g)
    if tr is None:
        return []

    def apply():
        buy = BuyTrain(actor=action.actor, train=tr.name, source=None, line=action.line,
                       column=action.column, action_id=action.action_id)
        buy.text = action.text
        g.round.process(buy)
        g.round.process(copy.copy(action))
    return [Reading(apply, f"; the record's later lines go on as if {action.actor} owned a "
                           f"{tr.name}-train: taken as bought from the "
                           f"{'pool' if tr.owner == 'pool' else 'depot'} for "
                           f"{g.money(tr.spec.price)} before this pass (a missing line)")]


_READINGS = {
    "trains.must_own": _missing_train,
}
