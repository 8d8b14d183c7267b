"""A replay that keeps snapshots of its state, so that a record edited near
its end is re-checked from the nearest snapshot before the edit instead of
from the start (the language server re-checks on every keystroke), and so
that a candidate action can be tried on the state at a point and undone
(``railcheck next``).

A snapshot taken before the record's action ``k`` depends on the actions
before ``k`` and on whatever the replay read ahead of them in the record (it
reads ahead to stay in step with the record after a finding: the next line,
a par the record gives later, the hex a later run needs).  The record's list
of actions is watched (:class:`WatchedActions`): a snapshot remembers the
furthest action read before it was taken, and is used again for an edited
record only when the edit starts after that action.  So a re-check from a
snapshot gives exactly what a replay from the start gives (a test compares).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from typing import Optional

from ..engine import Replay, Result
from ..fastcopy import deepcopy
from ..findings import ERROR
from ..replay_state import (WatchedActions, _closing_passes, _replay_state,  # noqa: F401
                            _set_replay_state, _shared, capture, install)

#: a snapshot every this many actions
EVERY = 24


@dataclass
class Snapshot:
    position: int           # taken before the record's action at this index
    #: the actions it depends on (every one up to the furthest the replay had
    #: read by then), as compared
    key: tuple
    #: the record's length, when the replay had read up to its last action
    #: (it may then have seen that nothing followed); else None
    length: Optional[int]
    closing: bool           # the record's shape it was taken under
    state: tuple = field(repr=False, default=())

    def valid_for(self, keys: list, closing: bool) -> bool:
        n = len(self.key)
        if closing != self.closing or len(keys) < n or tuple(keys[:n]) != self.key:
            return False
        return self.length is None or self.length == len(keys)


class Held:
    """The state where a paused replay stands, kept in place: an action is
    tried on a copy of it (:meth:`try_on_copy`), after which the very same
    objects are put back, so that what a caller holds (a player, a company)
    stays the game's own."""

    def __init__(self, rp: Replay):
        self.rp = rp
        g = rp.game
        self.gstate = dict(g.__dict__)
        self.tstate = dict(g.title.__dict__)
        self.rstate = _replay_state(rp)
        self.board = g.board.snapshot() if g.board is not None else None

    def copy_in(self) -> None:
        """A copy of the held state into the game, to be changed."""
        rp = self.rp
        g = rp.game
        memo = {id(x): x for x in _shared(g)}
        memo[id(rp)] = rp
        skip = ("rules", "board", "title")
        gstate = {k: v for k, v in self.gstate.items() if k not in skip}
        tstate = {k: v for k, v in self.tstate.items() if k not in ("game", "rules")}
        gstate, tstate, rstate = deepcopy((gstate, tstate, self.rstate), memo)
        g.__dict__.update(gstate)
        g.title.__dict__.update(tstate)
        _set_replay_state(rp, rstate)

    def put_back(self) -> None:
        """The held objects themselves back in place."""
        rp = self.rp
        g = rp.game
        g.__dict__.clear()
        g.__dict__.update(self.gstate)
        g.title.__dict__.clear()
        g.title.__dict__.update(self.tstate)
        _set_replay_state(rp, self.rstate)
        if self.board is not None:
            g.board.restore(self.board)


def action_key(action) -> tuple:
    """What of an action a replay depends on, for comparison: every field
    but its description (where it was written too: the findings before a
    snapshot carry their lines, so a line moved by an edit above it is a
    change)."""
    return (type(action), [v for k, v in action.__dict__.items() if k != "text"])


class Checker:
    """Replays records of one game as they change, from the nearest snapshot
    that the change leaves valid.  ``check(record)`` gives the result of a
    whole replay; ``paused(record, count)`` a replay paused before the
    record's action ``count`` (the state there), for ``next`` and hover."""

    def __init__(self, every: Optional[int] = EVERY, check_board: bool = True):
        self.every = every
        self.check_board = check_board
        self.snapshots: list[Snapshot] = []
        self.rules_key = None
        self.rules = None
        #: how many actions the last check replayed (from which position)
        self.replayed = 0
        self.resumed_from = 0

    # ------------------------------------------------------------------

    def _rules_for(self, record):
        from ..ruleset import load_ruleset
        key = (record.ruleset or record.title, tuple(record.options), record.components,
               tuple(record.players))
        if key != self.rules_key:
            self.rules = load_ruleset(record.ruleset or record.title, record.options,
                                      components=record.components)
            self.rules_key = key
            self.snapshots = []
        return self.rules

    def _start(self, record, stop: Optional[int], prune: bool = True) -> tuple[Replay, int]:
        """A replay of ``record`` set at the latest valid snapshot (or begun)
        and the position it stands at."""
        rules = self._rules_for(record)
        # copies: the replay writes on some actions (a purchase's source, a
        # private's seller), which would make the record's next version look
        # changed where it is not
        actions = WatchedActions(copy.copy(a) for a in record.actions)
        record = replace(record, actions=actions)
        rp = Replay(record, rules, check_board=self.check_board, hints=False)
        rp.begin()
        g = rp.game
        closing = _closing_passes(actions, g.following.from_export)
        g.following._closing_passes = closing
        keys = [action_key(a) for a in list.__iter__(actions)]
        self._keys = keys
        best = None
        for snap in self.snapshots:
            if stop is not None and snap.position > stop:
                break
            if snap.valid_for(keys, closing):
                best = snap
        if best is None:
            if prune:
                # nothing valid: the snapshots after the first difference go
                self.snapshots = []
            return rp, 0
        install(rp, best.state)
        g.following.actions = actions
        actions.reach = len(best.key) - 1
        if prune:
            # the snapshots beyond the valid one are of another record
            self.snapshots = [s for s in self.snapshots if s.position <= best.position]
        return rp, best.position

    def _play(self, rp: Replay, start: int, stop: int, keys: list) -> int:
        """Play from ``start`` up to (not including) ``stop``, snapshotting."""
        known = {s.position for s in self.snapshots}
        position = start
        while position < stop:
            if self.every and position % self.every == 0 and position not in known \
                    and position > 0:
                self._snapshot(rp, position, keys)
            if not rp.play(position):
                return position
            position += 1
        return position

    def _snapshot(self, rp: Replay, position: int, keys: list) -> None:
        actions = rp.record.actions
        reach = max(actions.reach, position - 1)
        self.snapshots = [s for s in self.snapshots if s.position != position]
        self.snapshots.append(Snapshot(
            position, tuple(keys[:reach + 1]), len(keys) if reach >= len(keys) - 1 else None,
            rp.game.following.closes_turns_with_pass, capture(rp)))
        self.snapshots.sort(key=lambda s: s.position)

    def paused(self, record, count: Optional[int] = None, keep: bool = False) -> Replay:
        """A replay of ``record`` paused before its action ``count`` (all of
        them by default): its game is the state there.  Uses and makes
        snapshots."""
        n = len(record.actions)
        count = n if count is None else max(0, min(count, n))
        rules = self._rules_for(record)
        cls = rules.title_class
        if cls is not None and cls.uses_components:
            # a title replayed by its own checker (1890): from the start
            from dataclasses import replace as _r
            rp = Replay(_r(record, actions=list(record.actions[:count])), rules,
                        check_board=self.check_board, hints=False, stop_at=1 << 62)
            rp.result_ = rp.run()
            rp.stopped = count
            return rp
        # the state there is the one of the record cut there: nothing after
        # it is read ahead (an action tried there is the record's last)
        # (a look at a point before the end keeps the snapshots after it: they
        # are still the whole record's)
        whole = count == n
        record = replace(record, actions=list(record.actions[:count]))
        rp, start = self._start(record, count, prune=whole)
        keys = self._keys
        self.resumed_from = start
        stopped = self._play(rp, start, count, keys)
        self.replayed = stopped - start
        rp.stopped = stopped
        if keep and stopped == count and count > start:
            # a snapshot where it stopped (``keep``): the actions tried
            # there next are re-checked from it
            self._snapshot(rp, count, keys)
        return rp

    def check_with_turn(self, record) -> tuple[Result, str]:
        """:meth:`check`, and whose turn it is at the record's end ('' when
        the game is over or nobody can be named)."""
        from ..position import whose_turn
        rules = self._rules_for(record)
        cls = rules.title_class
        if cls is not None and cls.uses_components:
            res = self.check(record)
            return res, ""
        rp = self.paused(record)
        turn = whose_turn(rp.game)
        return rp.end(), turn

    def check(self, record) -> Result:
        """The whole record replayed (from a snapshot where one is valid):
        the result ``Replay.run`` gives without hints."""
        rules = self._rules_for(record)
        cls = rules.title_class
        if cls is not None and cls.uses_components:
            return Replay(record, rules, check_board=self.check_board, hints=False).run()
        rp = self.paused(record)
        return rp.end()


def new_errors(game, since: int) -> list:
    return [f for f in game.findings[since:] if f.severity == ERROR]
