"""Following the record: every decision railcheck makes from the record
rather than from the rules.

The rounds and steps (``railcheck.rounds``, ``railcheck.steps``, each title's)
say what the rules allow.  A record is more than a list of actions to judge
one by one: after a mistake the table went on, and the replay must go on
from the state the record implies, not from one railcheck invents.  Every
reading of the record beyond the action at hand lives here:

* ``record.py``: the record as the replay walks it (the action after the
  current one, the actions ahead, the record's shape), and the hooks the
  rules' code consults when the line as written is refused and the record
  says what was meant (:class:`~railcheck.following.record.Following`: a
  game replayed without a record has one with no actions, and every hook
  then finds nothing, so the refusal stands).

Nothing here decides what is legal: a reading of the record is taken only to
stay in step with it, and the line as written is flagged in any case.
"""

from .record import Following

__all__ = ["Following"]
