"""Trying a reading of the record, and going back.

Some readings of a line can only be judged by what follows: a line read
with the one keyword that makes it parse is taken when its action is legal
there, else dropped (``engine.Replay.take``); of several readings of a
line the rules refuse, the one the record's next lines go on from is taken
(:func:`best_reading`).  Both need the whole changing state of the replay —
the game, its title's own state, the board, and the record-following
layer's place in the record — saved before the try and put back after it.

Nothing here decides what is legal: the rounds and steps judge every line
of a try as they judge the record, and a try leaves no trace (its findings
are dropped with the state).
"""

from __future__ import annotations

import copy
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Optional

from ..actions import BidForTurn, BuyShares, Par
from ..fastcopy import deepcopy
from ..findings import ERROR, RuleViolation

#: how many of the record's next lines a reading is judged by
HORIZON = 40

#: the budget of all tries in one replay: this many times the record's
#: number of actions, counted in lines replayed (a saved state counts as
#: :data:`SAVE_COST` lines: copying the state in mid-game costs about as
#: much), so the answer is the same on every machine
BUDGET_FACTOR = 10
SAVE_COST = 100
#: a short record's budget is at least this many lines (a hand-written
#: opening of 90 lines could otherwise judge no more than six readings)
MIN_BUDGET = 40 * SAVE_COST


def game_memo(g) -> dict:
    """What a copy of the game's changing state keeps as it is (the memo of
    its deep copy): the game, its rules, title, findings, the action played
    and the record's actions, the board (saved apart, by its own snapshot),
    and the rules' specs, which do not change."""
    memo = {id(g): g, id(g.rules): g.rules, id(g.title): g.title,
            id(g.findings): g.findings, id(g.current_action): g.current_action,
            id(g.following.actions): g.following.actions}
    if g.board is not None:
        memo[id(g.board)] = g.board
    for thing in (*g.corporations.values(), *g.companies.values(), *g.trains):
        memo[id(thing.spec)] = thing.spec
    return memo


def put_back(g, state: dict, board, n_findings: int) -> None:
    """The game's attributes as ``state`` holds them, its board as ``board``
    (its snapshot), the findings made since dropped."""
    findings = g.findings
    g.__dict__.update(state)
    g.findings = findings
    del findings[n_findings:]
    if board is not None:
        g.board.restore(board)


def save(replay):
    """The replay's whole changing state, for :func:`restore` (once)."""
    g = replay.game
    memo = game_memo(g)
    memo[id(replay)] = replay
    extra = {"rounds": dict(replay.rounds.__dict__), "title": getattr(g.title, "state", None)}
    state = deepcopy((dict(g.__dict__), extra), memo)
    # the line being played is the record's own object, which the rules fill
    # in as they take it (a share's source, a train's id): its fields as
    # they are, so that a line dropped after it was taken (a copy of the line
    # before it, a line read with the one keyword that makes it parse) leaves
    # the record as it was
    action = g.current_action
    fields = dict(vars(action)) if hasattr(action, "__dict__") else None
    return (state, g.board.snapshot() if g.board is not None else None, len(g.findings),
            getattr(replay, "game_over_reported", False), fields)


def restore(replay, saved) -> None:
    """Back to the state :func:`save` saved (findings made since dropped)."""
    (state, extra), board, n_findings, over, fields = saved
    g = replay.game
    put_back(g, state, board, n_findings)
    if fields is not None and vars(g.current_action) != fields:
        vars(g.current_action).clear()
        vars(g.current_action).update(fields)
    replay.rounds.__dict__.update(extra["rounds"])
    if extra["title"] is not None:
        g.title.state = extra["title"]
    replay.game_over_reported = over


@dataclass
class Reading:
    """One reading of a line: ``apply()`` makes it (raises RuleViolation
    when the rules refuse it), ``says`` is what the finding adds when it is
    taken."""
    apply: Callable[[], None]
    says: str
    #: of readings the next lines judge alike, the one preferred (when only
    #: one is) is taken
    preferred: bool = False
    #: as good as the refusal over the long horizon, the reading is taken
    #: all the same, the finding adding this: the line says what was done,
    #: and what it cost is the same in every such reading (a station, in
    #: whichever city: the cash it cost shows hundreds of lines later); ""
    #: for none
    over_refusal: str = ""


class Budget:
    def __init__(self, limit: int):
        self.limit = limit
        self.used = 0

    def spend(self, n: int) -> bool:
        self.used += n
        return self.used <= self.limit


def budget_of(replay) -> Budget:
    b = getattr(replay, "lookahead_budget", None)
    if b is None:
        b = Budget(max(MIN_BUDGET, BUDGET_FACTOR * len(replay.record.actions)))
        replay.lookahead_budget = b
    return b


def errors_ahead(replay, horizon: int, cap: Optional[int] = None) -> Optional[int]:
    """The error findings the record's next ``horizon`` lines give from the
    state as it is (stopping once ``cap`` is passed), or None when the
    budget ran out.  The caller saves and restores the state."""
    g = replay.game
    start = g.following.position
    n = len(g.findings)
    budget = budget_of(replay)
    acts = replay.record.actions
    errors = 0
    for pos in range(start + 1, min(len(acts), start + 1 + horizon)):
        if not budget.spend(1):
            return None
        # a copy: the rules fill in what a line leaves out (a train's id,
        # a share's source) on the action they take, and a try leaves no trace
        if replay.take(pos, copy.copy(acts[pos])) == "stop":
            return (cap or 0) + 1000
        new = g.findings[n:]
        n = len(g.findings)
        errors += sum(1 for f in new if f.severity == ERROR)
        if cap is not None and errors > cap:
            break
        if g.finished:
            break
    return errors


#: readings the next :data:`HORIZON` lines judge alike (and none preferred
#: alone) are judged again by this many of the record's next lines
LONG_HORIZON = 200


#: (:func:`best_reading`) a line further on that the readings are about (a
#: refused lay's hex laid again) stretches the long horizon to it, up to
#: this many lines
EVIDENCE_HORIZON = 800


def best_reading(replay, readings: list, horizon: int = HORIZON,
                 evidence: Optional[int] = None) -> Optional[int]:
    """Of ``readings`` of the current line (the line as refused being the
    reading ``None``, judged too), the index of the one the record's next
    ``horizon`` lines go on from with the fewest errors, when it has fewer
    than the refusal and no other has as few (or, of those with as few, the
    one preferred; else the one the next :data:`LONG_HORIZON` lines judge
    best alone); else None.  ``evidence``: the number of the record's lines
    up to the next that is about the same thing (a refused lay's hex laid
    again): the long judgement reaches it (at most
    :data:`EVIDENCE_HORIZON`).  Changes nothing."""
    got = _best_reading(replay, readings, horizon)
    if getattr(replay, "quick", False):
        # (a hint's candidate replay: judged over the horizon only, as the
        # search of the candidates must stay cheap)
        return got if isinstance(got, int) else None
    long_horizon = LONG_HORIZON
    if evidence is not None and LONG_HORIZON < evidence <= EVIDENCE_HORIZON:
        long_horizon = evidence
    if got is _AS_REFUSED:
        # the best as good as the refusal over the horizon (the lines that
        # tell them apart further on): all judged again by more of the record
        got = _best_reading(replay, readings, long_horizon, long=True)
        if got is _AS_REFUSED:
            return None
    if not isinstance(got, list):
        return got
    # several as good over the horizon: judged again, by more of the record;
    # still as good, the first (each is better than the refusal), saying so
    again = _best_reading(replay, [readings[i] for i in got], long_horizon, tied=True)
    if isinstance(again, int):
        return got[again]
    if isinstance(again, list):
        chosen = readings[got[again[0]]]
        chosen.says += (f" (of {len(again)} readings the record's next lines fit as well, "
                        f"the first)")
        return got[again[0]]
    return None


@contextmanager
def _trying(replay):
    """The replay trying readings ahead: marked ``trying`` (no reading
    judged inside another's trial) and its observers off, both as they
    were after."""
    replay.trying = True
    observers = (replay.after_action, replay.before_action, replay.on_action,
                 replay.on_round_end)
    replay.after_action = replay.before_action = replay.on_action = None
    replay.on_round_end = None
    try:
        yield
    finally:
        replay.trying = False
        (replay.after_action, replay.before_action, replay.on_action,
         replay.on_round_end) = observers


def _back(replay, saved, g, position: int, current) -> None:
    """The replay (its game ``g``) back at the saved state of a trial's line
    ``position`` (``current`` its action)."""
    restore(replay, saved)
    g.following.at(position)
    g.current_action = current


#: (:func:`_best_reading`) the best reading is as good as the refusal
_AS_REFUSED = "as refused"


def _best_reading(replay, readings: list, horizon: int, tied: bool = False,
                  long: bool = False):
    """:func:`best_reading` over ``horizon`` lines: the index, None, the
    indexes of the readings tied for the fewest errors (none preferred
    alone), or :data:`_AS_REFUSED` (the best no better than the refusal,
    over a short horizon: ``long`` is False).  ``tied``: the readings were
    tied over a shorter horizon (the refusal was judged worse then, and is
    not judged again)."""
    if getattr(replay, "trying", False) or not readings:
        return None
    g = replay.game
    budget = budget_of(replay)
    position = g.following.position
    current = g.current_action
    with _trying(replay):
        scores: list[Optional[int]] = []
        for reading in ([] if tied else [None]) + list(readings):
            if not budget.spend(SAVE_COST):
                return None
            saved = save(replay)
            try:
                if reading is not None:
                    n = len(g.findings)
                    try:
                        reading.apply()
                    except RuleViolation:
                        scores.append(None)
                        continue
                    if any(f.severity == ERROR for f in g.findings[n:]):
                        scores.append(None)
                        continue
                    replay.rounds.taken()
                    replay.advance()
                cap = min((s for s in scores if s is not None), default=None)
                got = errors_ahead(replay, horizon, cap)
                if got is None:
                    return None
                scores.append(got)
            finally:
                _back(replay, saved, g, position, current)
        base, rest = (None, scores) if tied else (scores[0], scores[1:])
        valid = [s for s in rest if s is not None]
        if not valid:
            return None
        best = min(valid)
        if base is not None and best > base:
            return None
        if base is not None and best == base:
            if not (long or horizon >= LONG_HORIZON):
                return _AS_REFUSED
            # (as good as the refusal all along: a reading whose line says
            # what was done, at the same cost whichever is taken; the one
            # preferred, else the first)
            over = [i for i, s in enumerate(rest) if s == best and readings[i].over_refusal]
            if not over:
                return None
            pick = next((i for i in over if readings[i].preferred), over[0])
            readings[pick].says += readings[pick].over_refusal
            return pick
        if rest.count(best) != 1:
            preferred = [i for i, s in enumerate(rest) if s == best and readings[i].preferred]
            if len(preferred) == 1:
                return preferred[0]
            # (the preferred first: of readings as good, one of those is taken)
            return preferred + [i for i, s in enumerate(rest) if s == best and i not in preferred]
        return rest.index(best)


def endings(replay, applies: list) -> Optional[list]:
    """For each of ``applies`` (each makes a reading of the current line in
    the state now), ``(errors, off)`` of the record played from it to its
    end: the error findings of its later lines, and how far the game then
    ends from the record's own result (the players whose net worth differs
    from it, one more when the game ends otherwise); None for a reading the
    rules refuse.  None when the record gives no result or the budget ran
    out.  Changes nothing."""
    rec = replay.record
    if getattr(replay, "trying", False) or not rec.expected_result:
        return None
    g = replay.game
    budget = budget_of(replay)
    position = g.following.position
    current = g.current_action
    out: list = []
    with _trying(replay):
        for apply in applies:
            if not budget.spend(SAVE_COST):
                return None
            saved = save(replay)
            try:
                try:
                    apply()
                except RuleViolation:
                    out.append(None)
                    continue
                replay.rounds.taken()
                replay.advance()
                errors = errors_ahead(replay, len(rec.actions))
                if errors is None:
                    return None
                if not g.finished:
                    replay.rounds.close_at_end()
                off = sum(1 for row in g.standings()
                          if rec.expected_result.get(row["player"]) not in (None, row["net_worth"]))
                if rec.expected_end_reason and rec.expected_end_reason != (g.end_reason or ""):
                    off += 1
                out.append((errors, off))
            finally:
                _back(replay, saved, g, position, current)
        return out


def better_once(replay, before, prefer_once: bool = False) -> Optional[tuple]:
    """The current line repeats the record's line before it word for word
    and the rules took it (or flagged it, ``prefer_once``): when the
    record's next ``HORIZON`` lines go on with fewer errors from the state
    ``before`` it (the line written once) than from the state after it (as
    few, ``prefer_once``), the state goes back to ``before`` and (errors as
    written, errors once) is returned; else the state after the copy stays
    and None is returned.  ``before`` (a :func:`save`) is used up either
    way; with no budget left, None."""
    g = replay.game
    budget = budget_of(replay)
    position = g.following.position
    current = g.current_action
    if getattr(replay, "trying", False) or not budget.spend(2 * SAVE_COST):
        return None
    replay.trying = True
    observers = (replay.after_action, replay.before_action, replay.on_action,
                 replay.on_round_end)
    replay.after_action = replay.before_action = replay.on_action = None
    replay.on_round_end = None
    mine = list(g.findings)     # (the copy's own: back with the state after it)
    try:
        keep = save(replay)
        replay.rounds.taken()
        replay.advance()
        twice = errors_ahead(replay, HORIZON)
        if twice is None or (twice == 0 and not prefer_once):
            _back_after(replay, keep, mine)     # nothing to explain (or no budget left)
            return None
        restore(replay, before)
        g.following.at(position)
        g.current_action = current
        once_state = save(replay)
        once = errors_ahead(replay, HORIZON, twice)
        restore(replay, once_state)
        g.following.at(position)
        g.current_action = current
        if once is not None and (once < twice or (prefer_once and once == twice)):
            return twice, once
        _back_after(replay, keep, mine)
        return None
    finally:
        g.following.at(position)
        g.current_action = current
        replay.trying = False
        (replay.after_action, replay.before_action, replay.on_action,
         replay.on_round_end) = observers


def _back_after(replay, keep, findings) -> None:
    """The state after the copy (``keep``), with its findings (``findings``,
    dropped with the state before it)."""
    restore(replay, keep)
    fs = replay.game.findings
    del fs[:]
    list.extend(fs, findings)


def missing_line(replay, action, lines: list, play) -> Optional[tuple]:
    """The current line ``action`` is taken out of turn unless a line of
    the turn's player is missing before it: of ``lines`` (each played by
    ``play``, then ``action`` in its writer's turn, clean), ``(line,
    says)`` for the one the record's next lines go on from with fewer
    errors than ``action`` taken out of turn, and no other as few (judged
    over :data:`HORIZON` lines, then those as good over
    :data:`LONG_HORIZON`; still as good, none); else None.  Changes
    nothing."""
    g = replay.game

    def as_is():
        n = len(g.findings)
        g.following.round.place(action)
        g.round.process(action)
        del g.findings[n:]      # (the line's own turn.order: every reading has it)

    def reading(line):
        def apply():
            play(line)
            if getattr(g.round.whose_turn(), "name", None) != action.actor:
                raise RuleViolation("turn.order", "not the writer's turn")
            g.following.round.place(action)
            g.round.process(action)
        return Reading(apply, "")

    readings = [Reading(as_is, "")] + [reading(line) for line in lines]
    got = _best_reading(replay, readings, HORIZON, tied=True)
    if getattr(replay, "quick", False):
        return (lines[got - 1], "") if isinstance(got, int) and got > 0 else None
    if isinstance(got, list):
        # several as good: judged again by more of the record; still as good,
        # none (a missing line is not invented: a par at one of several
        # values, a pass or a purchase alike)
        again = _best_reading(replay, [readings[i] for i in got], LONG_HORIZON, tied=True)
        if isinstance(again, list):
            return _value_by_result(replay, lines, readings, [got[j] for j in again])
        got = got[again] if isinstance(again, int) else None
    return (lines[got - 1], "") if isinstance(got, int) and got > 0 else None


def _value_by_result(replay, lines: list, readings: list, tied: list) -> Optional[tuple]:
    """Of the readings ``tied`` (indexes into ``readings``, the first
    the line taken out of turn, the others ``lines``) that the record's
    next lines fit as well, when all are one line at several prices (pars
    of one company, bids for the turn, a share of one company from the IPO
    or the pool): ``(line, says)`` of the one whose
    game ends with the record's own result, fewest errors first
    (:func:`endings`), when it is the only one; else None.  The line is
    certain (a later line needs it), its price is what the record's result
    says (1830_rand_18304_1 with #11's par of B&M left out: six values alike
    over 200 lines).  Once a replay, on a budget of its own (each price
    played to the record's end, which the look-ahead's budget of ten times
    the record's length would not give after the readings before it)."""
    alike = [lines[i - 1] for i in tied if i > 0]
    if len(alike) != len(tied) or len(alike) < 2 \
            or not all(isinstance(x, (Par, BidForTurn, BuyShares)) for x in alike) \
            or len({(type(x), x.actor, getattr(x, "corporation", None)) for x in alike}) != 1:
        return None
    if getattr(replay, "value_ends_judged", False):
        return None
    replay.value_ends_judged = True
    budget = budget_of(replay)
    lines_left = len(replay.record.actions) - replay.game.following.position
    budget.limit += len(alike) * (SAVE_COST + lines_left)
    ends = endings(replay, [readings[i].apply for i in tied])
    if ends is None:
        return None
    valid = [e for e in ends if e is not None]
    if not valid:
        return None
    best = min(valid)
    if ends.count(best) != 1:
        return None
    what = "par values" if isinstance(alike[0], Par) else \
        "purchases" if isinstance(alike[0], BuyShares) else "prices"
    return (alike[ends.index(best)], f"; of {len(alike)} {what} the record's next lines fit "
                                     f"as well, the one its final result gives")


#: lines out of turn searched for a missing line in vain, in one replay,
#: after which no more are (a record whose rounds the replay left: the
#: search would spend the look-ahead's budget on each of its lines)
MISSING_TRIES = 3


def first_replays_choice(replay, key) -> Optional[tuple]:
    """In a hint's candidate replay of the same record before its change
    (``known_repairs``, :func:`diagnose._share_repairs`): the choice the
    first replay made at ``key`` (the record's position, or (kind,
    position)), as it kept it, ``(choice, says)``; else None (choose)."""
    known = getattr(replay, "known_repairs", None)
    position = key[1] if isinstance(key, tuple) else key
    if known is not None and position < known[1] and key in known[0]:
        return known[0][key]
    return None


def keep_choice(replay, key, choice, says) -> None:
    """The choice made at ``key`` kept (``repairs``) for the hints'
    candidates (:func:`first_replays_choice`)."""
    chosen = getattr(replay, "repairs", None)
    if chosen is not None:
        chosen[key] = (choice, says)


def choice_once(replay, kind: str, tries: str, limit: int, choose) -> tuple:
    """A reading the layer searches for at the record's position, chosen as
    one replay keeps its choices: a hint's candidate replay of the same
    record before its change takes the first replay's choice
    (:func:`first_replays_choice`, as ``repair.repair`` does); a quick
    replay, or one that searched ``limit`` times in vain (counted in its
    attribute ``tries``), searches none; else ``choose()`` searches: None
    when there was nothing to search (nothing kept, nothing counted), or
    ``(choice, says)``, kept under ``(kind, position)``
    (:func:`keep_choice`) and counted as in vain when the choice is None or
    False.  ``(choice, says)``, ``(None, "")`` for none.  Shared by a
    missing line, a run or a station left out and a line under a wrong
    name."""
    key = (kind, replay.game.following.position)
    first = first_replays_choice(replay, key)
    if first is not None:
        return first
    if getattr(replay, "quick", False) or getattr(replay, tries, 0) >= limit:
        return None, ""
    made = choose()
    if made is None:
        return None, ""
    choice, says = made
    keep_choice(replay, key, choice, says)
    if choice is None or choice is False:
        setattr(replay, tries, getattr(replay, tries, 0) + 1)
    return choice, says


def missing_line_searched(replay) -> bool:
    """:func:`chosen_missing_line` would look at the lines it is given: a
    choice the first replay kept at this line, or a search still to make
    (:func:`choice_once`: a replay not quick that searched in vain fewer
    than :data:`MISSING_TRIES` times).  False: it answers None whatever
    the lines, and its callers need not build them (a record out of turn
    line after line, 100,000 lines of passes)."""
    key = ("missing", replay.game.following.position)
    return first_replays_choice(replay, key) is not None or not (
        getattr(replay, "quick", False) or getattr(replay, "missing_tries", 0) >= MISSING_TRIES)


def chosen_missing_line(replay, action, lines: list, play) -> Optional[tuple]:
    """:func:`missing_line` as one replay keeps its choices
    (:func:`choice_once`: :data:`MISSING_TRIES` searches in vain at most),
    the choice kept as the line's index.  ``(line, says)`` or None."""
    def choose():
        got = missing_line(replay, action, lines, play)
        return (None, "") if got is None else (lines.index(got[0]), got[1])
    k, says = choice_once(replay, "missing", "missing_tries", MISSING_TRIES, choose)
    return None if k is None or k >= len(lines) else (lines[k], says)
