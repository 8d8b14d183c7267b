"""A replay's changing state, kept and put into another replay of the same
rules (``railcheck next`` and the language server keep one every few lines,
``table/incremental.py``; the hints' candidates start from one,
``following/diagnose.py``), and the record's list of actions watched for
how far a replay read ahead in it.  Imports no replay: the engine's hints use
it."""

from __future__ import annotations

from .fastcopy import deepcopy


class WatchedActions(list):
    """The record's actions, remembering the furthest index read."""

    def __init__(self, items=()):
        super().__init__(items)
        self.reach = -1

    def __getitem__(self, i):
        if isinstance(i, slice):
            self.reach = len(self)
        elif i >= 0:
            if i > self.reach:
                self.reach = i
        else:
            self.reach = len(self)
        return super().__getitem__(i)

    def __iter__(self):
        self.reach = len(self)
        return super().__iter__()


def _closing_passes(actions, from_export: bool) -> bool:
    """Whether the record (its ``actions``) closes a stock-round turn with
    its player's own pass after a purchase: ``Following.closes_turns_with_pass``
    (which asks this), computed without counting as reading every action.
    An export's lines are the site's, whose shape is the title's: a single
    pass under the buyer's name right after his purchase, in an export
    whose other purchases end their turns, may be the slip itself
    (1860_rand_49000103_1 #671: Player 1's pass written as Player 2's, right
    after Player 2's purchase; an 18Ireland export closes a few turns so
    among many it does not); a hand-kept record may close one turn so."""
    from .actions import BuyShares, Par, Pass
    closed = other = 0
    prev = None
    for a in list.__iter__(actions):
        if isinstance(prev, (BuyShares, Par)) and hasattr(a, "actor"):
            if isinstance(a, Pass) and prev.actor == a.actor:
                closed += 1
            elif a.actor != prev.actor:
                other += 1
        prev = a
    if from_export:
        return closed > 1 or (closed == 1 and not other)
    return closed > 0


_REPLAY_FIELDS = ("count", "game_over_reported")


def _replay_state(rp) -> dict:
    """The replay's changing state: its own fields and its record-following
    rounds' (``following/rounds.py``: the round ended by the rules, the
    price marks, the place in the record)."""
    state = {k: getattr(rp, k, None) for k in _REPLAY_FIELDS}
    state["rounds"] = {k: v for k, v in rp.rounds.__dict__.items() if k != "replay"}
    return state


def _set_replay_state(rp, state: dict) -> None:
    for k, v in state.items():
        if k == "rounds":
            rp.rounds.__dict__.update(v)
        else:
            setattr(rp, k, v)


def _shared(g) -> list:
    """The objects a snapshot refers to without copying them: the game, its
    rules and their specs, its title and board objects (whose state is
    copied apart), the record's list."""
    out = [g, g.rules, g.title, g.following.actions]
    if g.board is not None:
        out.append(g.board)
    out.extend(thing.spec for thing in (*g.corporations.values(), *g.companies.values(),
                                        *g.trains))
    return out


def capture(rp):
    """The replay's changing state (the game's, its title's, its board's and
    the replay's own), copied.  (A pickle would be a little faster, but it
    rebuilds sets of state objects before their fields: 1860's and
    18Ireland's games came back different.)"""
    g = rp.game
    shared = _shared(g)
    memo = {id(x): x for x in shared}
    memo[id(rp)] = rp
    gstate = {k: v for k, v in g.__dict__.items() if k not in ("rules", "board", "title")}
    tstate = {k: v for k, v in g.title.__dict__.items() if k not in ("game", "rules")}
    copied = deepcopy((gstate, tstate, _replay_state(rp)), memo)
    return copied, (g.board.snapshot() if g.board is not None else None), shared


def install(rp, captured) -> None:
    """Put a captured state back into ``rp``'s game (a copy of it: the
    capture stays as it was); the game may be another replay's of the same
    rules (its objects then stand for the captured game's)."""
    g = rp.game
    (gstate, tstate, rstate), board, shared = captured
    memo = {id(old): new for old, new in zip(shared, _shared(g))}
    gstate, tstate, rstate = deepcopy((gstate, tstate, rstate), memo)
    g.__dict__.update(gstate)
    g.title.__dict__.update(tstate)
    _set_replay_state(rp, rstate)
    if board is not None:
        g.board.restore(board)
