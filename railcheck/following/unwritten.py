"""A step's line an export left out: the company's turn goes on past a step
18xx.games asks a line of whenever the step has something to do.

The site asks a company, for such a step (``Step.site_asks``: 18Ireland's
issue or redemption, O1), for the step's action or a pass before anything of
a later step, and its export records the answer.  An export whose company
goes on to a later step with neither misses a line there: only the pass (no
mistake: no rule makes a company write one, and the record then says what
was done), or the step's action itself (an issue deleted: the company's
cash falls short later, or the game ends otherwise than the site says).  The
step's lines (``Step.open_lines``) are tried before the line and judged by
the record's next lines against the pass (``run.judged_before``), and when
they say nothing, by the record's own result (``lookahead.endings``: the
net worths the record played to its end gives): the one the record goes on
from is played, one finding (``or.step_unwritten``) at the line that goes
on without it (the line the site refuses).  Otherwise the step is taken as
passed, as a notation record, which may leave a pass out, is read.
"""

from __future__ import annotations

from .lookahead import endings, first_replays_choice, keep_choice
from .operating import OperatingFollower

#: how many such lines one replay judges in vain before it stops judging
#: (each replays the record's next lines once per reading)
UNWRITTEN_TRIES = 2


def unwritten_step(replay, action) -> None:
    """When ``action`` takes its company's turn past a step the site asks a
    line of, with no line for it (``OperatingFollower.unwritten_step``),
    play the step's line the record goes on from, if any, flagged at
    ``action`` (see the module)."""
    g = replay.game
    follower = g.following.round
    if not isinstance(follower, OperatingFollower):
        return
    open_ = follower.unwritten_step(action)
    if open_ is None:
        return
    turn, step = open_
    corp = turn.corp.sym
    could = step.what_is_open(turn) or step.verb
    lines = step.open_lines(turn)
    got = _judged(replay, action, lines) if lines else None
    if got is None:
        return      # a pass left out (or nothing says which line)
    k, says = got
    line, words = lines[k]
    g.flag("or.step_unwritten",
           f"{corp} could {could}, and 18xx.games asks for that or a pass before anything else "
           f"of its turn; the record has neither before this '{action.verb}': a line is "
           f"missing, and the record's later lines go on as if {corp} {words} here{says}: "
           f"taken so")
    g.round.process(line)


#: what the finding adds when the record's final result decides
BY_RESULT = " (the net worths the record ends with say so)"


def _judged(replay, action, lines: list):
    """``(index, says)`` of the line of ``lines`` the record goes on from
    (its next lines: ``run.judged_before``; else its result:
    :func:`_by_result`), the choice kept for the hints' replays of the same
    record; None when none, or in a replay that does not judge (a
    look-ahead's own, the purity check's, a quick one)."""
    g = replay.game
    if getattr(replay, "trying", False) or replay.check_purity:
        return None
    key = ("unwritten", g.following.position)
    first = first_replays_choice(replay, key)
    if first is not None:
        k, says = first
        return None if k is None or k >= len(lines) else (k, says)
    if getattr(replay, "quick", False) \
            or getattr(replay, "unwritten_tries", 0) >= UNWRITTEN_TRIES:
        return None
    from .run import judged_before

    def play(line):
        def apply():
            replay.game.round.process(line)
        return apply
    plays = [play(line) for line, _ in lines]
    found = judged_before(replay, action, plays)
    if found is not None:
        k, says = found[0], found[1] or ""
    else:
        k = _by_result(replay, action, plays)
        says = BY_RESULT
    if k is None:
        keep_choice(replay, key, None, "")
        replay.unwritten_tries = getattr(replay, "unwritten_tries", 0) + 1
        return None
    keep_choice(replay, key, k, says)
    return k, says


def _by_result(replay, action, plays: list):
    """The index of the play the record's final result says: played before
    ``action``, then the record to its end, the one alone that ends with
    fewer net worths off than the pass (``action`` as it stands), with no
    more errors; else None."""
    g = replay.game

    def then(play=None):
        def apply():
            n = len(g.findings)
            if play is not None:
                play()
            g.round.process(action)
            if play is None:
                del g.findings[n:]
        return apply
    got = endings(replay, [then()] + [then(p) for p in plays])
    if not got or got[0] is None:
        return None
    errors, off = got[0]
    better = [i for i, e in enumerate(got[1:]) if e is not None and e[0] <= errors and e[1] < off]
    if not better:
        return None
    least = min(got[i + 1][1] for i in better)
    best = [i for i in better if got[i + 1][1] == least]
    return best[0] if len(best) == 1 else None
