"""A par written at the wrong price, or a tile turned to a legal but wrong
rotation, found from the record's later lines.

A par at another valid par value is a legal choice at its line, so nothing
is flagged there; the first error comes later, where the record's own lines
show a different game (a company operating out of the order the written
prices give, a purchase the written price makes too dear).  In a hand-kept
record this is a real slip ("par PRR 67" for 76), and the best answer is to
point at the par.

:func:`par_hint` is asked after a replay that ended with errors.  When the
first error is of a kind a different par could cause and is not at a par
line itself, each par line before it is tried at each other par value of
the title (one change at a time).  A candidate *explains* the record when
its replay has no error at all (warnings allowed).  When exactly one
candidate explains it, the result is that replay plus one error finding at
the par line (``stock.par_implied``) with both prices.  Of several, the one
whose game ends with the record's own result (no ``score.*`` warning) is
taken when it is the only such one.  Otherwise the original result stands,
unchanged; so it does when the only errors are those of one checkpoint line
(that line may be the slip itself).

The search is bounded by a budget counted in replayed actions (not time, so
the answer is the same on every machine): :data:`BUDGET_FACTOR` times the
record's length.  A candidate's replay stops at its first error.  When the
budget runs out before every candidate was tried, no hint is given (one
explanation found so far cannot be said to be the only one).

:func:`rotation_hint` is the same search for a tile lay: when the first
error is of a kind track in the wrong place causes (:data:`CAUSED_BY_ROTATION`),
the candidates are the most recent lay before it on each hex that line
touches (see :func:`_touched`), each turned to every other rotation with
other track that can be legal at its line (no track off the map, an upgrade
keeps the record's earlier tile's exits); one explaining candidate gives
``tile.rotation_implied`` at the lay.  The first errors of the two hints do
not overlap, so at most one of them searches a report (the par hint first).

:func:`dividend_hint` is the par's search for a dividend: a payout written
as a withholding (or the other way) is legal at its line, and the record's
later lines show another share price and other cash (the same first
errors as a wrong par, :data:`CAUSED_BY_PRICE`).  Asked when the par hint
found nothing, it tries the record's :data:`DIVIDEND_LINES` most recent
dividend lines before the first error, each at each other kind the record
uses (payout and withhold always); one explaining candidate gives
``dividend.implied`` at that line.

:func:`written_hint`: a line whose price or revenue the rules would have
otherwise, taken as written (a depot train at another price, a run claimed
at more than it is worth: ``trains.price``, ``route.revenue``, "taken as
paid"), whose first error is followed by others: when the record with the
line at the rules' value (the list price, the run's worth) has no error at
all, that is the game the record implies; the line's finding says so.

:func:`private_price_hint` (and, for a price the rules refuse, the first
part of :func:`written_hint`): a private bought at a price the record's
later lines contradict.  The true price is written nowhere and the later
lines only bound it (the seller short of cash later: too low; the buyer:
too high), so the prices the rules take are halved by which side the first
later error of a candidate is on, and the record's own final result, when
it gives one, says which of the prices that explain every later line it
is (the seller's net worth is off by the difference).
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import os
from typing import Optional

from ..actions import (Action, Bid, BuyCompany, BuyShares, BuyTrain, Dividend, Exchange, LayTile,
                       Par, Pass, PlaceToken, Propose, RunRoutes, Sale, SellShares, Vote)
from ..board.board import next_tile_copy
from ..findings import ERROR, Finding

def _never_raises(hint):
    """A hint as the replay calls it: ``result`` unchanged when the hint's
    search fails (with ``RAILCHECK_RAISE`` set, the failure is raised, to
    debug it)."""
    @functools.wraps(hint)
    def safe(replay, result, search: Optional[Search] = None):
        try:
            return hint(replay, result, search)
        except Exception:
            if os.environ.get("RAILCHECK_RAISE"):
                raise
            return result
    return safe


#: first errors a different par can cause (decided from the 30 wrong pars of
#: tools/mutate_exports.py: turn.order, stock.cash, trains.cash,
#: private.cash, round.continues; the others are the same kind of evidence)
CAUSED_BY_PRICE = {
    "turn.order", "stock.cash", "trains.cash", "private.cash", "token.cash",
    "track.cost", "round.continues", "checkpoint.mismatch", "stock.cert_limit",
    "stock.holding_limit", "stock.no_share", "or.not_floated",
}
CAUSED_BY_PRICE_PREFIXES = ("emergency.",)

#: the search's budget: this many times the record's number of actions
BUDGET_FACTOR = 20


class _Stop(Exception):
    """A candidate's replay met an error (it fails) or the budget ran out."""


@dataclasses.dataclass
class Search:
    """What the search did (for the docs' figures and the tests)."""
    candidates: int = 0
    tried: int = 0
    replayed: int = 0
    budget: int = 0
    explaining: list = dataclasses.field(default_factory=list)   # (position, price)
    out_of_budget: bool = False
    tied: int = 0       # explanations as good, the nearest taken (``nearest``)


def _position(actions, finding) -> Optional[int]:
    for i, a in enumerate(actions):
        if finding.action_id is not None:
            if a.action_id == finding.action_id:
                return i
        elif finding.line is not None and a.line == finding.line:
            return i
    return None


def applies(result) -> Optional[Finding]:
    """The first error when a wrong par could be its cause, else None."""
    errors = [f for f in result.findings if f.severity == ERROR]
    if not errors:
        return None
    first = errors[0]
    if all(f.rule == "checkpoint.mismatch" and (f.line, f.action_id) == (first.line, first.action_id)
           for f in errors):
        # one checkpoint line disagrees and nothing else: that line itself may
        # be the slip, as well as any par (two explanations: no hint)
        return None
    # the first of a price's kind: an error before it (a finding a published
    # rule backs, in a game the site let through) is before the lines
    # searched, or a candidate must explain it too (:func:`_try_line`)
    return next((f for f in errors if f.rule in CAUSED_BY_PRICE
                 or f.rule.startswith(CAUSED_BY_PRICE_PREFIXES)), None)


@_never_raises
def par_hint(replay, result, search: Optional[Search] = None):
    """The result the record implies when exactly one par changed explains it
    (with a ``stock.par_implied`` finding at that par line), else ``result``.
    Never raises: a hint that cannot be looked for is no hint."""
    own = _own_par(replay, result, search)
    if own is not None:
        return own
    first = applies(result)
    if first is None:
        return result
    record = replay.record
    actions = record.actions
    stop = _position(actions, first)
    if stop is None or (isinstance(actions[stop], Par) and first.rule != "turn.order" and (
            first.rule != "stock.cash" or _READ_AS in first.message
            or all((f.line, f.action_id) == (first.line, first.action_id)
                   for f in result.findings if f.severity == ERROR and not _before(f, first)))):
        # (at a par line: only a par taken as bought the player cannot pay
        # for, with later errors; one read at another value is the own
        # par's search; a par out of turn is no question of its price)
        return result
    game = result.game
    values = sorted({c.price for c in game.market.par_cells}) if game is not None else []
    # the pars before the first error, and the par it is at when the player
    # cannot pay for it (after an earlier par at another price: either may
    # be the slip, and two explanations give no hint)
    pars = [i for i in range(stop + 1) if isinstance(actions[i], Par)]
    todo = [(i, v) for i in pars for v in values if v != actions[i].price]
    line_for = lambda i, value: dataclasses.replace(actions[i], price=value)  # noqa: E731
    one = None
    named = _named(first, game)
    near = [(i, v) for i, v in todo if actions[i].actor in named
            or actions[i].corporation in named]
    if near and len(near) < len(todo):
        # the pars of the players and companies the first error names
        # first (a search of their own: all the pars of a long game may be
        # more than the budget lets the search try, 1860_rand_44000101_2
        # #489), then, if they explain nothing, all of them
        one = _the_one_explanation(replay, near, line_for, Search(), spare=1)
    if one is None:
        one = _the_one_explanation(replay, todo, line_for,
                                   search if search is not None else Search(), spare=1)
    if one is None:
        return result
    i, value, cand = one
    par = actions[i]
    money = game.money
    where = _where(first)
    return _adopt(replay, cand, par, "stock.par_implied",
                  f"{par.actor} pars {par.corporation} at {money(par.price)}, but the record's "
                  f"later lines go on as if at {money(value)} (with {money(par.price)}: "
                  f"{where}, {first.message} — the first finding the written par gives): "
                  f"taken as {money(value)}", {par.actor, par.corporation})


def _named(first: Finding, game) -> set:
    """The players and companies ``first`` involves or its message names
    (a whole word: "S&C operates before VYSC")."""
    import re
    names = set(first.involves)
    if game is not None:
        for name in [*game.corporations, *(p.name for p in game.players)]:
            if re.search(rf"(?<![\w&]){re.escape(name)}(?![\w&])", first.message):
                names.add(name)
    return names


#: findings at a par line that take its price as the line has it (a value
#: that is no par value, or out of the company's range): the record's later
#: lines may go on from another
PAR_TAKEN = {"stock.par_price"}
#: the words of a refused line's finding that says how it was read
#: (``following/repair.py``)
_READ_AS = "; the record's later lines go on as if"


def _own_par(replay, result, search: Optional[Search]):
    """The first error is at a par line, whose price the rules take as
    written (or as the nearest par value), and later errors follow: when
    exactly one other par value of that line explains them all, the
    result of the record with it, the line's finding saying so; else
    None."""
    errors = [f for f in result.findings if f.severity == ERROR]
    if len(errors) < 2:
        return None
    first = errors[0]
    if first.rule not in PAR_TAKEN and not (first.rule == "stock.cash"
                                            and _READ_AS in first.message):
        # (a par refused at its price, read at another value the record's
        # next lines fit, one of several as good: the later errors may say
        # which)
        return None
    if _all_at(errors, first):
        return None
    actions = replay.record.actions
    stop = _position(actions, first)
    game = result.game
    if stop is None or not isinstance(actions[stop], Par) or game is None:
        return None
    values = sorted({c.price for c in game.market.par_cells})
    todo = [(stop, v) for v in values if v != actions[stop].price]
    one = _the_one_explanation(
        replay, todo, lambda i, value: dataclasses.replace(actions[i], price=value),
        search if search is not None else Search())
    if one is None:
        return None
    _, value, cand = one
    par = actions[stop]
    money = game.money
    message = _words_before(first.message, _READ_AS, "; taken as")
    return _adopt(replay, cand, par, first.rule,
                  f"{message}; the record's later lines go on as if {par.actor} parred "
                  f"{par.corporation} at {money(value)}: taken so", {par.actor, par.corporation})


def _adopt(replay, cand, action, rule: str, message: str, involves: set):
    """The candidate's replay as the result, with an error finding ``rule``
    at ``action`` (the line the hint changed)."""
    f = Finding(severity=ERROR, rule=rule, message=message, line=action.line,
                column=action.column, action_id=action.action_id, text=action.text,
                involves=frozenset(involves))
    at = len(cand.findings)
    for k, g in enumerate(cand.findings):
        if _after(g, action):
            at = k
            break
    cand.findings.insert(at, f)
    replay.game = cand.game
    return cand


def _words_before(message: str, *cuts: str) -> str:
    """A finding's words up to the first of ``cuts`` found in turn (how
    the line was read or taken), for a hint's finding to say its own."""
    for words in cuts:
        cut = message.find(words)
        if cut >= 0:
            message = message[:cut]
    return message


def _all_at(errors, first) -> bool:
    """Every error is on the line (or action) of ``first``: nothing after it
    for a hint to explain."""
    return all((f.line, f.action_id) == (first.line, first.action_id) for f in errors)


def _where(f: Finding) -> str:
    """Where a finding stands, as a hint's message names it: the export's
    action (``#27``) or the record's line."""
    return f"#{f.action_id}" if f.action_id is not None else f"line {f.line}"


def _after(f: Finding, par) -> bool:
    if par.action_id is not None and f.action_id is not None:
        return f.action_id > par.action_id
    if par.line is not None and f.line is not None:
        return f.line > par.line
    return False


def _the_one_explanation(replay, todo: list, line_for, s: Search, nearest: bool = False,
                         factor: int = 0, spare: int = 0, rank=None, nearer_end: bool = False):
    """(i, value, result) of the one candidate of ``todo`` — (position,
    value) pairs, line ``i`` replaced by ``line_for(i, value)`` — that
    explains the record from line ``i`` on, else None (none, several, or
    the budget ran out).  A candidate explains it when its replay has no
    error from line ``i`` on that the record as written does not have too
    (the record's own errors, such as a finding a published rule backs in
    a game the site let through, stand in any case), and not the first of
    those.  Of several, those left with the fewest of the record's own
    errors; of those, the one whose game ends with the record's own result
    (no ``score.*`` warning), when it is the only such one.  With
    ``nearest``, of several left with no error at all whose games end alike
    (every player's net worth), the one at the latest line (nearest the first error: a slip
    shows soon after it, and a finding there is never before the slip's
    line; with ``rank``, the one whose ``rank(line, value)`` is the greatest);
    ``s.tied`` says how many were as good.  With ``spare``, when
    none explains it, the candidates that failed only :data:`SPARE_AFTER`
    lines or more after their line, or on a line the record as written
    errs at otherwise, are replayed again allowing ``spare`` errors there
    (a finding the record as written hides under its cascade, such as one
    a published rule backs in a game the site let through: the candidate
    keeps it), and the one that then explains it is taken.  With
    ``nearer_end``, the one candidate that explains it while it ends
    otherwise than the record's result is taken all the same when the record
    as written does not even end as the record says (``score.end_differs``)
    and the candidate does, with fewer net worths off than the record as
    written: the net worths it has off are then the game's own, which the
    record as written hides as well (a bankruptcy's leftovers the site keeps,
    B5)."""
    s.candidates = len(todo)
    s.budget = (factor or BUDGET_FACTOR) * max(1, len(replay.record.actions))
    game = getattr(replay, "game", None)
    own = [f for f in (game.findings if game is not None else []) if f.severity == ERROR]
    found = []
    late = []
    _prefix_for(replay, [i for i, _ in todo])
    for i, value in todo:
        failed: list = []
        got = _try_line(replay, i, line_for(i, value), s, own, failed)
        if s.out_of_budget:
            return None
        s.tried += 1
        if got is not None:
            found.append((i, value, got))
        elif spare and failed:
            f = failed[-1][0]
            at = _position(replay.record.actions, f)
            if at is not None and _spared(f, at - i, {(g.action_id, g.line) for g in own
                                                      if g.rule != f.rule}):
                late.append((i, value))
    if not found and late:
        for i, value in late:
            got = _try_line(replay, i, line_for(i, value), s, own, spare=spare)
            if s.out_of_budget:
                return None
            if got is not None:
                found.append((i, value, got))
        # (a candidate that keeps errors explains the record only when it
        # leaves fewer from its line on than the record as written has: the
        # new 1889_rand_56000014_2 with #437's run written as TR's, which the
        # replay reads as AR's (one finding), "explained" by UR's par at #18
        # at ¥90, AR then operating later, and a train short of cash at #315
        # kept as far after it: 1 error -> 3, the first before the change)
        acts = replay.record.actions

        def errors_from(findings, i) -> int:
            return sum(1 for f in findings if f.severity == ERROR and not _before(f, acts[i]))
        found = [c for c in found if errors_from(c[2].findings, c[0]) < errors_from(own, c[0])]
        # the one: it may end otherwise than the record as written in one
        # player's net worth too (a score the cascade hid, as the error it
        # keeps: 18Ireland_rand_43000102_1, Player 1's £0 where the site
        # says £48, railcheck's own score of the unchanged game); of several,
        # those ending with the fewest other scores, then the nearest
        written = {(f.rule, f.message) for f in (game.findings if game is not None else [])
                   if f.rule.startswith("score.")}

        def scores(c) -> int:
            return sum(1 for f in c[2].findings if f.rule.startswith("score.")
                       and (f.rule, f.message) not in written)
        if found:
            least = min(scores(c) for c in found)
            found = [c for c in found if scores(c) == least]
        if nearest and len(found) > 1 and len({_ending(c[2]) for c in found}) == 1:
            s.tied = len(found)
            found = [max(found, key=lambda c: rank(c[0], c[1]) if rank else c[0])]
        if len(found) != 1 or scores(found[0]) > 1:
            return None
        s.explaining.append(found[0][:2])
        return found[0]
    fewest = None
    if found:
        # (a finding the site lets through, the record's own wherever a
        # candidate makes it, is no error left: 1889_rand_34000002_0 with
        # #374's lay left out, five tiles on H7 each explaining the record
        # but for IR's train over the limit at #504, the game's own)
        left = {id(c): sum(1 for f in c[2].findings if f.severity == ERROR
                           and f.rule not in SITE_LETS_THROUGH
                           and not _before(f, replay.record.actions[c[0]])) for c in found}
        fewest = min(left.values())
        found = [c for c in found if left[id(c)] == fewest]
        s.explaining.extend((i, value) for i, value, _ in found)
    # the record's own result (an export's final scores, a notation record's
    # result line) is one of its later lines too: a candidate ending
    # otherwise explains the record no better than the line as written
    # (a score the record as written disagrees with in the same words is
    # the record's own: the game it ends with, 18Ireland_rand_2711299_2)
    written = {(f.rule, f.message) for f in (game.findings if game is not None else [])
               if f.rule.startswith("score.")}
    agree = [c for c in found if not any(f.rule.startswith("score.")
                                         and (f.rule, f.message) not in written
                                         for f in c[2].findings)]
    if spare and not agree and len(found) == 1 and sum(
            1 for f in found[0][2].findings if f.rule.startswith("score.")
            and (f.rule, f.message) not in written) <= 1:
        # (with ``spare``: the one that ends otherwise in one player's net
        # worth alone may end with a score of the unchanged game's own, which
        # the record's cascade hid as it hid the error it keeps; see below)
        agree = found
    if nearer_end and not agree and len(found) == 1:
        mine = [f for f in found[0][2].findings if f.rule.startswith("score.")]
        if any(r == "score.end_differs" for r, _ in written) \
                and not any(f.rule == "score.end_differs" for f in mine) \
                and len(mine) < len(written):
            agree = found
    if getattr(replay.record, "expected_result", None) is not None or len(agree) == 1:
        found = agree
    if nearest and fewest == 0 and len(found) > 1 and len({_ending(c[2]) for c in found}) == 1:
        s.tied = len(found)
        return max(found, key=lambda c: rank(c[0], c[1]) if rank else c[0])
    return found[0] if len(found) == 1 else None


def _ending(res) -> tuple:
    """Every player's net worth at the end of a candidate's replay."""
    return tuple(sorted((str(x.get("player")), x.get("net_worth")) for x in res.standings))


#: a candidate that keeps more than this many of the record's own errors
#: explains nothing (the cascade goes on in it): its replay stops there
OWN_STANDING = 10


def _key(f: Finding):
    return f.action_id, f.line, f.rule


#: how far after a candidate's line an error may be that ``spare`` lets
#: the candidate keep (:func:`_the_one_explanation`)
SPARE_AFTER = 200
#: findings a published rule backs in games 18xx.games lets through, taken
#: as the record has them and caused by no price or cash (a train bought
#: over the limit, a private of a bankrupt player's bought from him, a
#: private over the certificate limit): ``spare`` lets a candidate keep one
#: anywhere after its line (tools/rule_backed.yaml lists them all)
SITE_LETS_THROUGH = {"trains.limit", "private.closed", "private.cert_limit"}


def _spared(f: Finding, distance: int, hidden: set) -> bool:
    """Whether ``spare`` lets a candidate keep its error ``f``, ``distance``
    lines after the candidate's line: far after it, on a line the record as
    written errs at otherwise (the cascade hid it there), or of a kind the
    site lets through (:data:`SITE_LETS_THROUGH`)."""
    return distance >= SPARE_AFTER or (f.action_id, f.line) in hidden \
        or f.rule in SITE_LETS_THROUGH


def _try_line(replay, i: int, line, s: Search, own=(), failed: Optional[list] = None,
              spare: int = 0):
    """:func:`_replay_candidate`, whose failures are kept on the replay
    (``Replay._hint_trials``, for all its hints' searches): a candidate
    tried again (the same line at the same place, held to the same errors
    of the record's own, with the same ``spare``) that failed before fails
    again, the lines it replayed counted against the budget as if replayed
    again, and what it met put in ``failed`` again.  (Of the trials the
    hints' tests make, a tenth are such repeats, each of them a failure: a
    hint's candidates tried again with ``spare``, or by another hint.)  A
    candidate the budget would stop on its way is replayed, as is every
    candidate with ``RAILCHECK_CHECK_RESUME`` set (which checks replays)."""
    if os.environ.get("RAILCHECK_CHECK_RESUME"):
        return _replay_candidate(replay, i, line, s, own, failed, spare)
    trials = getattr(replay, "_hint_trials", None)
    if trials is None:
        trials = replay._hint_trials = {}
    key = (i, repr(line), tuple(_key(f) for f in own), spare, failed is None)
    known = trials.get(key)
    if known is not None and s.replayed + known[0] <= s.budget:
        s.replayed += known[0]
        if failed is not None:
            failed.extend(known[1])
        return None
    start, met = s.replayed, (len(failed) if failed is not None else 0)
    got = _replay_candidate(replay, i, line, s, own, failed, spare)
    if got is None and not s.out_of_budget:
        trials[key] = (s.replayed - start, [] if failed is None else failed[met:])
    return got


def _replay_candidate(replay, i: int, line, s: Search, own=(), failed: Optional[list] = None,
                      spare: int = 0):
    """Replay the record with its line ``i`` replaced by ``line``; its result
    when it has no error from that line on but the record's ``own`` (the
    errors of the record as written; not the first of them from line ``i``
    on), else None (stopped at its first other error).  An error before line
    ``i`` is the record's as it stands (the candidate replays those lines as
    the record did): it explains nothing and needs no explaining.  The
    candidate is a replay of the same class as ``replay`` (the engine hands
    itself down: this module does not import it).  ``failed``, when given,
    gets the first other error and its line's actor of a candidate that
    fails, and every error of the record's own it met before (a list of
    (finding, the actor of its line, that company's president):
    :func:`_private_price_hint` reads from it which way to go).  ``spare``:
    so many errors :data:`SPARE_AFTER` lines or more after line ``i``, or on
    a line the record as written errs at too (another finding there), are
    kept, not counted.

    The candidate's lines before ``i`` are the record's own: where the state
    before line ``i`` of the record replayed as the candidates replay it is
    kept (:class:`_Prefix`), depends on nothing from line ``i`` on, and its
    findings are all before line ``i`` and none of the record's own errors
    the candidate is held to (so that the candidate's watch passes over
    them), the candidate starts from a copy of it, its lines before ``i``
    counted against the budget as if replayed; else it replays them.  Either
    way the same result (``RAILCHECK_CHECK_RESUME=1`` replays both and says
    where they differ)."""
    record = replay.record
    actions = written_lines(replay)
    changed_line = actions[i]
    after = [f for f in own if not _before(f, changed_line)]
    # the lines where the record as written errs (``spare``: an error of
    # the candidate's there, of another rule, is one the cascade hid)
    # (not the first error's line: the line the candidate must explain; a
    # candidate still erring there, out of turn where the record was short
    # of cash, explains nothing: 18Ireland_rand_49200105_0 #474, a wrong
    # actor, mended by a dividend before it)
    hidden = {(f.action_id, f.line) for f in after[1:]} - {
        (f.action_id, f.line) for f in after[:1]} if spare else set()
    # (nor spared however far after the candidate's line: an error there
    # explains nothing; held-out 1889_rand_52000064_0 with #287 deleted, a
    # par at #8 "explaining" #289's round.continues 281 lines later)
    must = {(f.action_id, f.line) for f in after[:1]}
    stands = {_key(f) for f in after[1:]}
    unjudged = _unjudged_from(after)

    def counts(f) -> bool:
        # (a finding made with the record's outcome taken, in step with the
        # record after it, is the record's own wherever the candidate makes
        # it: :data:`IN_STEP`; held-out 18Ireland_rand_52000059_0 with #40
        # turned, whose cascade never reaches #278's B5)
        return f.severity == ERROR and not _before(f, changed_line) and _key(f) not in stands \
            and not _not_before(f, unjudged) and f.rule not in IN_STEP
    # a list: the lines that stand there instead (a missing line put back)
    actions[i:i + 1] = line if isinstance(line, list) else [line]
    changed = dataclasses.replace(record, actions=actions)

    def attempt(s: Search, failed: Optional[list], snap=None):
        cand = type(replay)(changed, replay.rules, check_board=replay.check_board, hints=False)
        _share_repairs(replay, cand, i)
        cand.quick = True       # readings of refused lines judged over the short horizon only
        seen = [0]
        kept: list = []     # errors ``spare`` lets the candidate keep

        standing = [0]

        def watch(game, action):
            s.replayed += 1
            if s.replayed > s.budget:
                s.out_of_budget = True
                raise _Stop
            fs = game.findings
            for f in fs[seen[0]:]:
                if failed is not None and f.severity == ERROR and not _before(f, changed_line):
                    actor = getattr(action, "actor", None)
                    corp = game.corporations.get(actor)
                    failed.append((f, actor, getattr(getattr(corp, "president", None), "name",
                                                     None)))
                if counts(f):
                    follows = f.follows is not None and any(fs[f.follows] is k for k in kept)
                    if (len(kept) < spare and (f.action_id, f.line) not in must
                            and _spared(f, game.following.position - i, hidden)) \
                            or (follows and len(kept) < 4 * spare):
                        # (and the errors that follow from one kept, on what its
                        # line involved: the bankrupt's private used later)
                        kept.append(f)
                        continue
                    if follows and fs[f.follows].rule == f.rule and (f.action_id, f.line) in hidden:
                        # (the one kept again, on a line the record as written
                        # errs at too: 1860's company in receivership running
                        # each round for less than the most it can earn, as
                        # the site lets it, under the record's cascade)
                        kept.append(f)
                        continue
                    raise _Stop
                if f.severity == ERROR and (_key(f) in stands or _not_before(f, unjudged)):
                    standing[0] += 1
                    if standing[0] > OWN_STANDING:
                        raise _Stop     # the record's cascade goes on: no explanation
            seen[0] = len(fs)

        cand.after_action = watch

        def refusal_stops(game, v) -> bool:
            # the watch stops at an error it counts when it may keep none
            # (no ``spare``): the refused line's finding is of the violation's
            # rule and severity at the current line, whichever reading of the
            # line is taken (a reading adds words to its message and changes
            # what follows it, which the watch never sees); its search spared
            # (what ``failed`` gets differs in the words and the president
            # after the line, which only a search with ``spare`` reads)
            # (not in a trial of readings ahead, whose refusals the watch
            # never sees: a sale read as the record's purchases name it there)
            if spare or v.severity != ERROR or getattr(cand, "trying", False):
                return False
            fs = game.findings
            if len(fs) >= getattr(fs, "limit", len(fs) + 1):
                return False
            a = game.current_action
            if a is None:
                return False
            return counts(Finding(severity=ERROR, rule=v.rule, message="", line=a.line,
                                  action_id=a.action_id))
        cand.refusal_stops = refusal_stops
        try:
            if snap is None or prefix is None:
                res = cand.run()
            else:
                res = prefix.resume(cand, i, snap, s, seen)
        except _Stop:
            return None
        except Exception:       # a candidate that cannot be replayed explains nothing
            return None
        if any(counts(f) and not any(f is k for k in kept) for f in res.findings):
            return None
        return res

    prefix = getattr(replay, "_hint_prefix", None)
    snap = prefix.snapshot(i, actions) if prefix is not None else None
    if prefix is None or snap is None or not all(
            _before(f, changed_line) and not (f.severity == ERROR and (
                _key(f) in stands or _not_before(f, unjudged)))
            for f in prefix.findings_before(snap)):
        return attempt(s, failed)
    if os.environ.get("RAILCHECK_CHECK_RESUME"):
        alone = dataclasses.replace(s)
        failed_alone = None if failed is None else list(failed)
        want = attempt(alone, failed_alone)
    got = attempt(s, failed, snap)
    if os.environ.get("RAILCHECK_CHECK_RESUME"):
        _same_try(replay, i, want, got, alone, s, failed_alone, failed)
    return got


def _same_try(replay, i: int, want, got, alone: Search, s: Search, failed_alone, failed) -> None:
    """``RAILCHECK_CHECK_RESUME``: the candidate started from the kept state
    (``got``, the search ``s``, its errors ``failed``) is the candidate
    replayed from the start (``want``, ``alone``, ``failed_alone``)."""
    def outcome(res, search, failed):
        met = None if failed is None else [(f.rule, f.line, f.action_id, actor, president)
                                           for f, actor, president in failed]
        if res is None:
            return None, met, search.replayed, search.out_of_budget
        return ([(f.severity, f.rule, f.line, f.action_id, f.message) for f in res.findings],
                res.standings, met, search.replayed, search.out_of_budget)
    a, b = outcome(want, alone, failed_alone), outcome(got, s, failed)
    where = os.environ.get("RAILCHECK_CHECK_RESUME", "")
    if a != b:
        message = (f"a hint's candidate at position {i} of {replay.record.path}: from the "
                   f"start {str(a)[:300]}, from the kept state {str(b)[:300]}")
        if where not in ("", "1"):      # a file to note it in (the search goes on)
            with open(where, "a", encoding="utf-8") as fh:
                fh.write(message + "\n")
        raise AssertionError(message)
    if where not in ("", "1"):
        with open(where, "a", encoding="utf-8") as fh:
            fh.write(f"same {i} {a[0] is not None} {a[-2]}\n")


class _Prefix:
    """The record replayed once as the hints' candidates replay it (without
    hints, the readings of refused lines judged over the short horizon, the
    first replay's readings taken where a candidate takes them), with its
    state kept before the lines the candidates change
    (``table/incremental.py``'s capture, as ``railcheck next`` and the
    language server keep theirs).  A state kept before line ``i`` serves a
    candidate changed at ``i`` only when nothing in it depends on the
    record from line ``i`` on: the lines read ahead (the record's list is
    watched) end before ``i``; the shape of the record read whole (whether
    its turns close with a pass) is the candidate's too; and no reading
    of a refused line was taken from the first replay where a candidate
    changed at ``i`` searches it again (within ``LONG_HORIZON`` lines
    before ``i``).  Where the state before ``i`` does not serve, the
    latest state kept before an earlier line that does (kept every
    :data:`CHECKPOINT_EVERY` lines and before the line before each line
    the candidates change: that line often reads the next) serves: the
    candidate plays the record's own lines from there.  Kept on the replay
    (``Replay._hint_prefix``) for all its hints' searches."""

    def __init__(self, replay) -> None:
        from ..replay_state import WatchedActions, _closing_passes
        record = replay.record
        self.actions = WatchedActions(written_lines(replay))
        rp = type(replay)(dataclasses.replace(record, actions=self.actions), replay.rules,
                          check_board=replay.check_board, hints=False)
        rp.quick = True
        chosen = getattr(replay, "repairs", None)
        self.taken: set = set()     # positions whose first replay's reading was taken
        if chosen:
            taken = self.taken

            class Noting(dict):
                def __getitem__(self, k):
                    # (the record's position: a search's choice is kept
                    # under (kind, position), ``lookahead.choice_once``)
                    taken.add(k[1] if isinstance(k, tuple) else k)
                    return dict.__getitem__(self, k)
            rp.known_repairs = (Noting(chosen), 1 << 62)
        self.shared_repairs = bool(chosen)
        self.calls: list = []       # the findings' count after each line checked
        rp.after_action = lambda game, action: self.calls.append(len(game.findings))
        rp.begin()
        self.closing = _closing_passes(self.actions, rp.game.following.from_export)
        rp.game.following._closing_passes = self.closing
        self.rp = rp
        self.position = 0           # the next line it plays
        self.alive = True
        #: position -> (state, lines checked, budget used, readings, position)
        self.kept: dict = {}
        self.looked: set = set()    # the positions looked at (kept or not)
        #: position -> (a state as :attr:`kept` holds it, the furthest line read
        #: before it, the latest line a first replay's reading was taken at)
        self.checkpoints: dict = {}

    def keep(self, positions) -> None:
        """Play on, keeping the state before each of ``positions`` not yet
        played where it serves (see the class)."""
        from .lookahead import LONG_HORIZON
        rp = self.rp
        for target in sorted(set(positions)):
            if target < self.position or not self.alive:
                continue
            self.looked.add(target)
            while self.position < target:
                if (self.position % CHECKPOINT_EVERY == 0 or self.position == target - 1) \
                        and self.position not in self.checkpoints \
                        and self.actions.reach < target:
                    self.checkpoints[self.position] = (
                        self._state(), self.actions.reach, max(self.taken, default=-1))
                if not rp.play(self.position):
                    self.alive = False
                    return
                self.position += 1
            if self.actions.reach >= target:
                continue
            if self.shared_repairs and any(p >= target - LONG_HORIZON - 1 for p in self.taken):
                continue
            self.kept[target] = self._state()

    def _state(self) -> tuple:
        """The state before the line it plays next, as :attr:`kept` holds it."""
        from ..replay_state import capture
        rp = self.rp
        budget = getattr(rp, "lookahead_budget", None)
        return (capture(rp), len(self.calls), None if budget is None else budget.used,
                dict(rp.repairs), self.position)

    def snapshot(self, i: int, actions):
        """The state kept for a candidate changed at line ``i`` whose lines
        are ``actions``: before line ``i``, else before the latest earlier
        line whose state serves it (see the class); or None."""
        from ..replay_state import _closing_passes
        from .lookahead import LONG_HORIZON
        snap = self.kept.get(i)
        if snap is None:
            at = max((p for p, (_, reach, taken) in self.checkpoints.items()
                      if p < i and reach < i
                      and not (self.shared_repairs and taken >= i - LONG_HORIZON - 1)),
                     default=None)
            if at is None:
                return None
            snap = self.checkpoints[at][0]
        if _closing_passes(actions, self.rp.game.following.from_export) != self.closing:
            return None
        return snap

    def findings_before(self, snap) -> list:
        """The findings of the lines before the kept state ``snap``."""
        state, n_calls = snap[0], snap[1]
        n = self.calls[n_calls - 1] if n_calls else 0
        return list(state[0][0]["findings"])[:n]

    def resume(self, cand, position: int, snap, s: Search, seen: list):
        """The candidate ``cand`` (its watch set), changed at line
        ``position``, played from the state kept before it or before an
        earlier line (``snap``): the lines before that counted against the
        search's budget (``s``) as if replayed (their findings, all before
        the changed line and none of the record's own errors the candidate
        is held to, are passed over: ``seen``), then the rest of its record;
        its result."""
        from ..replay_state import install
        from .lookahead import budget_of
        state, n_calls, used, repairs, start = snap
        if s.replayed + n_calls > s.budget:
            # (its watch stops at the line that passes the budget)
            s.replayed = s.budget + 1
            s.out_of_budget = True
            raise _Stop
        s.replayed += n_calls
        cand.begin()
        install(cand, state)
        seen[0] = self.calls[n_calls - 1] if n_calls else 0
        if used is not None:
            budget_of(cand).used = used
        cand.repairs = repairs.copy()
        for k in range(start, len(cand.record.actions)):
            if not cand.play(k):
                break
        return cand.end()


#: (:class:`_Prefix`) a state is kept before every so many lines, for the
#: candidates the state before their own line does not serve
CHECKPOINT_EVERY = 25


def _prefix_for(replay, positions) -> Optional[_Prefix]:
    """The replay's :class:`_Prefix`, kept on it, playing on to keep the
    state before ``positions``; None for a title replayed by its own checker
    (1890) or when the prefix cannot be made."""
    cls = replay.rules.title_class
    if cls is not None and cls.uses_components:
        return None
    prefix = getattr(replay, "_hint_prefix", None)
    try:
        if prefix is None or any(p < prefix.position and p not in prefix.looked
                                 for p in positions):
            prefix = _Prefix(replay)
            replay._hint_prefix = prefix
        prefix.keep(positions)
    except Exception:
        if os.environ.get("RAILCHECK_RAISE"):
            raise
        replay._hint_prefix = None
        return None
    return prefix


def _unjudged_from(errors) -> Optional[Finding]:
    """The record's ``game.over`` among its errors: the lines from it on were
    never judged as the record has them (its game ended there, the rest
    ignored), so a candidate's errors there are no evidence against it (a
    finding a published rule backs later in the unchanged game, which the
    record's cascade ended the game before: 1860's receivership runs)."""
    return next((f for f in errors if f.rule == "game.over"), None)


def _not_before(f: Finding, g: Optional[Finding]) -> bool:
    """``f`` is at ``g``'s line or after it (never, without ``g``)."""
    if g is None:
        return False
    if f.action_id is not None and g.action_id is not None:
        return f.action_id >= g.action_id
    if f.line is not None and g.line is not None:
        return f.line >= g.line
    return False


def written_lines(replay) -> list:
    """The record's lines as written (``Replay.written``, kept before its
    rules filled in what the lines leave out), each a copy of its own: what
    a hint's candidate replays (and fills in)."""
    return [copy.copy(a) for a in (replay.written or replay.record.actions)]


def _share_repairs(replay, cand, i: int) -> None:
    """The readings of refused lines ``replay`` chose, for ``cand``, a replay
    of the same record changed at its line ``i``: at a line whose look-ahead
    ends before ``i`` the candidate's state and the lines ahead are the
    first replay's, and so is the reading (``following/repair.py``); not
    searched again."""
    from .lookahead import LONG_HORIZON
    chosen = getattr(replay, "repairs", None)
    if chosen:
        cand.known_repairs = (chosen, i - LONG_HORIZON - 1)


def _before(f: Finding, action) -> bool:
    """The finding is at a line before ``action``'s."""
    if action.action_id is not None and f.action_id is not None:
        return f.action_id < action.action_id
    if action.line is not None and f.line is not None:
        return f.line < action.line
    return False


# ---------------------------------------------------------------------------
# a tile turned to a legal but wrong rotation

#: first errors a tile turned the wrong way can cause at a later line (the
#: six wrong rotations of tools/mutate_exports.py that no lay flags:
#: route.connection, tile.connection, tile.upgrade; examples/1830/game.18xx
#: with one lay turned: route.no_path, token.reach, route.token; the others
#: are the same kind of evidence: track that is not where the record's later
#: lines use it).  None is in CAUSED_BY_PRICE: at most one hint searches.
CAUSED_BY_ROTATION = {
    "tile.connection", "tile.upgrade", "route.connection", "route.no_path", "route.path",
    "route.reused_track", "route.shared_track", "route.token", "token.reach",
}


def rotation_applies(result) -> Optional[Finding]:
    """The first error when a tile turned the wrong way earlier could be its
    cause, else None."""
    errors = [f for f in result.findings if f.severity == ERROR]
    if errors and errors[0].rule in CAUSED_BY_ROTATION:
        return errors[0]
    return None


def _touched(board, action, rule: str) -> set:
    """The hexes the line at the first error touches: a lay's or a station's
    hex and the hexes up to two steps from it (the track that reaches it),
    only the hex itself for an upgrade that does not keep its old track; a
    run's hexes (an export's connections, the notation's stops and the hexes
    next to them, since the track between stops is not written)."""
    def near(coords, steps):
        seen = set(coords)
        edge = set(coords)
        for _ in range(steps):
            edge = {n for c in edge for n in board.neighbours(c).values()} - seen
            seen |= edge
        return seen

    if isinstance(action, (LayTile, PlaceToken)):
        return near({str(action.hex)}, 0 if rule == "tile.upgrade" else 2)
    if isinstance(action, RunRoutes):
        hexes: set = set()
        stops: set = set()
        for route in action.routes:
            written = False
            for seg in route.connections or ():
                hexes.update(str(x).split()[0] for x in seg)
                written = True
            for seg in route.path or ():
                hexes.update(str(x) for x in seg)
                written = True
            for st in route.stops:
                (hexes if written else stops).add(str(st.hex))
        return hexes | near(stops, 1)
    return set()


def _exits(board, lay) -> Optional[frozenset]:
    tile = board.tiles.get(str(lay.tile))
    if tile is None or lay.rotation is None:
        return None
    return tile.exits(int(lay.rotation))


def _same_track(tile, r1: int, r2: int) -> bool:
    def key(r):
        return frozenset(frozenset(p) if p[0] != p[1] else p for p in tile.rotated(r))
    return key(r1) == key(r2)


@_never_raises
def rotation_hint(replay, result, search: Optional[Search] = None):
    """The result the record implies when exactly one earlier tile turned
    another way explains it (with a ``tile.rotation_implied`` finding at that
    lay), else ``result``.  Never raises."""
    first = rotation_applies(result)
    game = result.game
    if first is None or game is None:
        return result
    record = replay.record
    actions = record.actions
    stop = _position(actions, first)
    if stop is None:
        return result
    board = game.board
    try:
        hexes = _touched(board, actions[stop], first.rule)
    except Exception:
        return result
    latest: dict = {}   # hex -> position of its most recent lay before the first error
    below = {}          # position of a lay -> the exits of the record's lay before it there
    for i in range(stop):
        a = actions[i]
        if isinstance(a, LayTile):
            h = str(a.hex)
            if h in latest:
                below[i] = _exits(board, actions[latest[h]])
            if h in hexes:
                latest[h] = i
    # a lay whose rotation the record leaves out (and the replay chose, said
    # by tile.rotation_guessed) has no written rotation to point at
    guessed = {(f.line, f.action_id) for f in result.findings if f.rule == "tile.rotation_guessed"}
    todo = []
    for h, i in sorted(latest.items(), key=lambda kv: kv[1]):
        a = actions[i]
        tile = board.tiles.get(str(a.tile))
        if tile is None or a.rotation is None or not 0 <= int(a.rotation) <= 5 \
                or (a.line, a.action_id) in guessed:
            continue
        sides = set(board.neighbours(h))
        old = below.get(i)
        kept = [int(a.rotation)]
        for r in range(6):
            if any(_same_track(tile, r, k) for k in kept):
                continue
            kept.append(r)
            exits = tile.exits(r)
            # a rotation that fails at its own line is no explanation: track
            # off the map (tile.edge), an upgrade dropping the old track
            # (tile.upgrade, the old tile as the record laid it)
            if not exits <= sides or (old is not None and not old <= exits):
                continue
            todo.append((i, r))
    s = search if search is not None else Search()
    one = _the_one_explanation(
        replay, todo, lambda i, r: dataclasses.replace(actions[i], rotation=r), s)
    if one is None:
        return result
    i, r, cand = one
    lay = actions[i]
    if _upgrade_explains_too(replay, board, lay, r, stop, s):
        return result
    where = _where(first)
    return _adopt(replay, cand, lay, "tile.rotation_implied",
                  f"{lay.actor} lays tile {lay.tile} on {lay.hex} turned {lay.rotation}, but "
                  f"the record's later lines go on as if turned {r} (turned {lay.rotation}: "
                  f"{where}, {first.message} — the first finding the written rotation gives): "
                  f"taken as turned {r}", {lay.actor})


def _track(tile, r) -> frozenset:
    return frozenset(frozenset(p) for p in tile.rotated(r))


#: how many turns, and tiles in them, the rotation hint tries a missing
#: upgrade in before it says a lay was turned
UPGRADE_TURNS = 4
UPGRADE_TILES = 3


def _upgrade_explains_too(replay, board, lay, r: int, stop: int, s: Search) -> bool:
    """A lay turned ``r`` explains the record from the lay on; so may a
    missing line: an upgrade of the lay's hex to a tile that keeps the
    written track and adds the track turned ``r``, in a turn before the
    first error (line ``stop``) whose company laid nothing
    (18Ireland_rand_43000102_3: tile 9 on C19 upgraded to 20 at #502; that
    line deleted, tile 9 turned from 0 to 2 explains the record as well, and
    the finding was at #453, before the missing line).  Two explanations
    are none: True when such an upgrade (a tile of the next colour the
    phase at the first error lays, as many cities and towns and the same
    label, both tracks in one rotation), put at the start of one of the
    :data:`UPGRADE_TURNS` latest turns without a lay of the lay's company or
    the first error's between the two, explains the record from there on."""
    from ..board.tiles import COLOR_ORDER
    tile = board.tiles.get(str(lay.tile))
    if tile is None or lay.rotation is None or tile.color not in COLOR_ORDER[:-1]:
        return False
    colour = COLOR_ORDER[COLOR_ORDER.index(tile.color) + 1]
    actions = replay.record.actions
    phase = _phase_before(replay, stop)
    if phase is None or colour not in phase.tiles:
        return False
    written, turned = int(lay.rotation), int(r)
    need = tile.exits(written) | tile.exits(turned)
    paths = _track(tile, written) | _track(tile, turned)
    ups = []
    for up in board.tiles.values():
        if up.color != colour or len(up.cities) != len(tile.cities) \
                or len(up.towns) != len(tile.towns) or up.label != tile.label:
            continue
        turn = next((t for t in range(6) if ((need <= up.exits(t)) if tile.nodes
                                              else (paths <= _track(up, t)))), None)
        if turn is not None:
            ups.append((up.name, turn))
    if not ups:
        return False
    start = actions.index(lay)
    corps = {lay.actor, actions[stop].actor}
    turns = []      # the first line of each turn of those companies with no lay
    j = start + 1
    while j < stop:
        a = actions[j]
        if a.actor in corps and actions[j - 1].actor != a.actor:
            k = j
            while k < stop and actions[k].actor == a.actor:
                k += 1
            if not any(isinstance(actions[m], LayTile) for m in range(j, k)):
                turns.append(j)
            j = k
        else:
            j += 1
    own = [f for f in (replay.game.findings if getattr(replay, "game", None) is not None
                       else []) if f.severity == ERROR]
    for j in reversed(turns[-UPGRADE_TURNS:]):
        nxt = actions[j]
        for name, t in ups[:UPGRADE_TILES]:
            up = LayTile(actor=nxt.actor, tile=name, hex=lay.hex, rotation=t, line=nxt.line,
                         column=nxt.column)
            up.text = f"{nxt.actor} lays tile {name} on {lay.hex}"
            if _try_line(replay, j, [up, nxt], s, own) is not None:
                return True
            if s.out_of_budget:
                return True     # (not known: no hint)
    return False


def _phase_before(replay, stop: int):
    """The phase (its spec) just before the record's line ``stop`` (a
    replay up to it), or None."""
    game = _game_before(replay, stop)
    return None if game is None else game.phase


def _game_before(replay, stop: int, rounds: Optional[dict] = None):
    """The game just before the record's line ``stop`` (a replay without
    hints up to it, left there), or None.  ``rounds``, when given, gets the
    round that took each line before it, by position (``id``: lines of one
    actor in a row in two rounds are two turns)."""
    target = replay.record.actions[stop]
    cand = type(replay)(replay.record, replay.rules, check_board=replay.check_board,
                        hints=False)
    got: list = []

    def before(game, action):
        if action is target:
            got.append(game)
            raise _Stop
        if rounds is not None:
            rounds[game.following.position] = id(game.round)
    cand.before_action = before
    try:
        cand.run()
    except _Stop:
        pass
    except Exception:
        return None
    return got[0] if got else None


# ---------------------------------------------------------------------------
# a dividend of the wrong kind

#: how many of the record's dividend lines before the first error the
#: dividend hint tries (the most recent: a wrong kind shows within a few
#: operating rounds, in a share price or in a player's cash)
DIVIDEND_LINES = 12

#: older dividend lines (before the :data:`DIVIDEND_LINES` most recent) the
#: dividend hint tries too, when their company is one the first error names
#: or one a player it names holds shares of: a wrong dividend whose effect on
#: that player's cash or that company's price shows a few rounds later
DIVIDEND_RELATED = 6

_PAID = {"payout": "pays out", "withhold": "withholds", "half": "pays half"}


def _older_related_dividends(actions, recent: list, first: Finding, game) -> list:
    """Up to :data:`DIVIDEND_RELATED` dividend lines before ``recent`` (the
    most recent first) whose company the first error names, or whose shares a
    player it names holds at the replay's end."""
    names = set(first.involves)
    related = {n for n in names if n in game.corporations}
    for n in names:
        player = game.player_by_name.get(n)
        if player is not None:
            related.update(sym for sym, c in game.corporations.items()
                           if c.percent_of(player) > 0)
    start = recent[0] if recent else 0
    older = [i for i in range(start) if isinstance(actions[i], Dividend)
             and actions[i].actor in related]
    return older[-DIVIDEND_RELATED:]


@_never_raises
def dividend_hint(replay, result, search: Optional[Search] = None):
    """The result the record implies when exactly one earlier dividend of
    another kind explains it (with a ``dividend.implied`` finding at that
    line), else ``result``.  Never raises."""
    first = applies(result)
    if first is None or result.game is None:
        return result
    actions = replay.record.actions
    stop = _position(actions, first)
    if stop is None:
        return result
    kinds = sorted({a.kind for a in actions if isinstance(a, Dividend)} | {"payout", "withhold"})
    lines = [i for i in range(stop) if isinstance(actions[i], Dividend)][-DIVIDEND_LINES:]

    def line_for(i, k):
        return dataclasses.replace(actions[i], kind=k)
    todo = [(i, k) for i in reversed(lines) for k in kinds if k != actions[i].kind]
    s = search if search is not None else Search()
    # (a candidate may keep one error the record's cascade hid: a train
    # bought over the limit the line after, 18Ireland_rand_43000102_1 #912)
    one = _the_one_explanation(replay, todo, line_for, s, nearest=True, spare=1)
    if one is None:
        # none of the most recent explains the record: the older ones of the
        # companies the first error names (a search of its own, as cheap)
        older = _older_related_dividends(actions, lines, first, result.game)
        todo = [(i, k) for i in reversed(older) for k in kinds if k != actions[i].kind]
        s = Search()
        one = _the_one_explanation(replay, todo, line_for, s, nearest=True) if todo else None
    if one is None:
        return result
    i, kind, cand = one
    div = actions[i]
    where = _where(first)
    tied = (f" (of {s.tied} dividend lines each of which explains the record as well, "
            f"the nearest before that finding)") if s.tied else ""
    return _adopt(replay, cand, div, "dividend.implied",
                  f"{div.actor} {_PAID.get(div.kind, div.kind)}, but the record's later lines "
                  f"go on as if it {_PAID.get(kind, kind)} (as written: {where}, "
                  f"{first.message} — the first finding the written dividend gives): "
                  f"taken as {kind}{tied}", {div.actor})


#: findings the replay made with the record's outcome taken, in step with
#: the record after them (18Ireland's B5 where the record keeps a bankrupt
#: player's privates and shares: ``following/rounds.py`` reconsider): no
#: hint's first error to explain
IN_STEP = {"bankrupt.leftovers"}


def for_hints(result):
    """``result`` as the hints see it: without the :data:`IN_STEP`
    findings (itself when it has none).  A candidate's replay makes them
    again, as the record's own."""
    kept = [f for f in result.findings if f.rule not in IN_STEP]
    return result if len(kept) == len(result.findings) else dataclasses.replace(result, findings=kept)


#: the rules of the findings the price hints put at the line they change
PRICE_HINT_RULES = ("stock.par_implied", "dividend.implied")


def price_hints_judged(result, hinted: list):
    """Of the results of :func:`par_hint` and :func:`dividend_hint` (each
    ``result`` itself when it explains nothing), the one the record
    implies: a wrong par and a dividend of the wrong kind give the same
    first errors (a company short of cash, an order of operation), and
    each may explain the record.  One that does, alone, is taken; of two,
    the one whose game ends with the record's own result (the fewer
    ``score.*`` findings the record as written does not have: a withholding
    written for a payout, put right, ends with the site's net worths, a par
    moved to fit it does not, 1889_rand_51000024_2 #380 against #12), then
    the one nearer the first error (a slip shows soon after its line, and
    a finding there is never before it)."""
    found = [h for h in hinted if h is not result]
    if len(found) < 2:
        return found[0] if found else result
    written = {(f.rule, f.message) for f in result.findings if f.rule.startswith("score.")}

    def key(res):
        off = sum(1 for f in res.findings if f.rule.startswith("score.")
                  and (f.rule, f.message) not in written)
        at = next((f for f in res.findings if f.rule in PRICE_HINT_RULES), None)
        place = (at.action_id if at.action_id is not None else at.line or 0) if at else 0
        return off, -place
    return min(found, key=key)


# ---------------------------------------------------------------------------
# a price or revenue taken as written, the record going on from the rules' one

#: findings of a line taken as written that the rules value otherwise, with
#: the words that say so
TAKEN_AS_WRITTEN = {"trains.price": "; taken as paid", "route.revenue": "; taken as paid",
                    "auction.buy_price": "; taken as paid",
                    "auction.price": "; taken at", "stock.company_price": "; taken at"}
_AS_WRITTEN = "; taken as paid"


@_never_raises
def written_hint(replay, result, search: Optional[Search] = None):
    """The result the record implies when its first error, a line taken as
    written, is followed by others that the line at the rules' value
    explains (the finding then says so), else ``result``.  Never raises."""
    errors = [f for f in result.findings if f.severity == ERROR]
    if len(errors) < 2 or result.game is None:
        return result
    private = _private_price_hint(replay, result, errors, search)
    if private is not None:
        return private
    first = next((f for f in errors if f.rule in TAKEN_AS_WRITTEN
                  and TAKEN_AS_WRITTEN[f.rule] in f.message), None)
    if first is None or first is errors[-1]:
        return result
    if len({(f.action_id, f.line) for f in errors[:errors.index(first)]
            if f.rule not in SITE_LETS_THROUGH}) > 1:
        # deep in a cascade (more than the slip's own line's errors before it, the
        # record's own a published rule backs aside): a line taken at the
        # rules' value there would only seem to mend its tail, leaving the
        # first error as it was and the hints after this one unasked
        # (18Ireland_rand_48500201_2 #63 deleted: a revenue at #369, the 87th
        # error; one error before it, the slip's, is as before: a refused
        # lay's run at its worth, 1860_rand_44000101_0 #525)
        return result
    if all((f.line, f.action_id) == (first.line, first.action_id)
           for f in errors[errors.index(first):]):
        return result
    actions = replay.record.actions
    stop = _position(actions, first)
    if stop is None:
        return result
    a = actions[stop]
    line: Action
    if isinstance(a, BuyTrain) and a.price is not None:
        line = dataclasses.replace(a, price=None)
        says = "the list price was paid"
    elif isinstance(a, RunRoutes) and a.routes:
        line = dataclasses.replace(a, revenue=None, routes=[
            dataclasses.replace(r, revenue=None) for r in a.routes])
        says = "the runs' worth was paid"
    elif first.rule == "auction.buy_price" and isinstance(a, Bid):
        # the cheapest private of a waterfall auction bought at another
        # price than its (reduced) price: at that price
        line = dataclasses.replace(a, price=None)
        says = "its price was paid"
    elif isinstance(a, (Bid, BuyCompany)) and a.price is not None \
            and a.actor in result.game.player_by_name and a.company in result.game.companies:
        # a private bought by a player at another price than the rules' one
        # (1860: from the bank, or as the turn's winner, at its face value)
        line = dataclasses.replace(a, price=result.game.companies[a.company].value)
        says = "its face value was paid"
    else:
        return result
    one = _the_one_explanation(replay, [(stop, None)], lambda i, v: line,
                               search if search is not None else Search())
    if one is None:
        return result
    _, _, cand = one
    message = first.message[:first.message.find(TAKEN_AS_WRITTEN[first.rule])]
    return _adopt(replay, cand, a, first.rule,
                  f"{message}; the record's later lines go on as if {says}: taken so",
                  {a.actor})


# ---------------------------------------------------------------------------
# a private bought at a price the record's later lines contradict

#: first errors of a purchase of a private at a price the rules do not take:
#: a company's outside the private's range (taken as paid) or over its cash
#: (refused), a player's from another player at a negative price or over his
#: cash (refused)
PRIVATE_PRICE = {"private.price", "private.cash", "stock.cash"}
#: at most this many prices are tried for one purchase (a search halving the
#: prices the buyer could pay: 2 ** 9 > 2 x the dearest private's face value)
PRIVATE_TRIALS = 12
#: at most this many prices are tried to match the record's result (the
#: seller's net worth, off by the difference: not always by all of it, when
#: the cash changed what the seller had to sell later)
PRIVATE_WORTH_STEPS = 3


def _private_price_hint(replay, result, errors, search: Optional[Search]):
    """A purchase of a private written at a price the rules do not take
    (``private.price``, ``private.cash``; a player's refused ``stock.cash``),
    whose first error is followed by others on later lines: the price that
    explains every later line, when there is one.  The true price is not
    written anywhere; the later lines only bound it (the seller's later
    purchases need at least so much, the buyer's at most so much), so the
    prices the rules take (the private's range, the buyer's cash) are
    halved by which side the first later error of a candidate is on
    (:func:`_price_side`), the first tried the one the record's own result
    gives (the seller's net worth differs by as much as the price, when
    the line was taken as paid) and the written one held to that range;
    one that explains every later line is the game the record implies, and
    the record's result, when it gives one, says which of the prices that
    do.  The line's finding says so; else None (the result stands)."""
    # (the first of its kind: errors before it, on its line or earlier, are
    # the record's as the candidates replay them, such as a private that
    # left the game with its bankrupt owner taken as bought from him)
    actions = replay.record.actions
    first = stop = None
    for f in errors:
        if f.rule in PRIVATE_PRICE:
            stop = _position(actions, f)
            if stop is not None and isinstance(actions[stop], BuyCompany):
                first = f
                break
    if first is None or stop is None:
        return None
    if all(_before(f, actions[stop]) or (f.line, f.action_id) == (first.line, first.action_id)
           for f in errors):
        return None
    a = actions[stop]
    if a.price is None:
        return None
    if first.rule == "stock.cash" and a.actor not in result.game.player_by_name:
        return None
    s = search if search is not None else Search()
    before = _before_lines(replay, [stop], s).get(stop)
    if before is None:
        return None
    guesses = [a.price]
    if first.rule == "private.price" and _AS_WRITTEN in first.message:
        # taken as paid: the seller's net worth is off by the difference
        d = _worth_off(replay, result, before[1])
        if d:
            guesses.insert(0, a.price - d)
    found = _private_price_search(replay, result, stop, before, guesses, s, first=first)
    if found is None:
        return None
    price, cand, says = found
    message = _words_before(first.message, _AS_WRITTEN, _READ_AS)
    money = cand.game.money if cand.game is not None else str
    return _adopt(replay, cand, a, first.rule,
                  f"{message}; the record's later lines go on as if {a.actor} paid "
                  f"{money(price)} for {a.company}{says}: taken so", {a.actor, a.company})


def _worth_off(replay, result, player: Optional[str]) -> int:
    """How much more ``player``'s net worth is at the end of ``result``
    than the record's own result says (0: the same, or no result)."""
    want = getattr(replay.record, "expected_result", None) or {}
    if player is None or player not in want:
        return 0
    worth = {str(x.get("player")): x.get("net_worth") for x in result.standings}
    got = worth.get(player)
    return 0 if got is None else int(got) - int(want[player])


def _price_range(game, a, cash: int) -> Optional[tuple]:
    """The prices the rules take for the purchase of a private ``a``:
    a company's its range, a player's from another any he can pay; no more
    than the buyer's ``cash``."""
    if a.actor in game.corporations:
        from ..steps.companies import company_price_range
        company = game.companies.get(a.company)
        if company is None or getattr(game.rules, "company_sales", None) is None:
            return None
        lo, hi = company_price_range(game, company)
    elif a.actor in game.player_by_name:
        lo, hi = 0, cash
    else:
        return None
    hi = min(hi, cash)
    return (lo, hi) if lo <= hi else None


def _private_price_search(replay, result, stop: int, before: tuple, guesses: list,
                          s: Search, exact: bool = False, first: Optional[Finding] = None,
                          halve: bool = True):
    """(price, result, words) of the price of the record's purchase of a
    private at line ``stop`` that explains the record from there on (see
    :func:`_private_price_hint`): ``guesses`` first (those the rules take),
    then halving what is left (unless not ``halve``); else None.  With
    ``exact``, only a price the record's own result gives (the seller's net
    worth), and the guesses as they are; ``before`` is
    (the buyer's cash, the seller, the buying company's president) before
    the line; ``first``, the finding of the line the price explains (the
    line's others, first or not, stand as the record's own)."""
    actions = replay.record.actions
    a = actions[stop]
    cash, seller, president = before
    bounds = _price_range(result.game, a, cash)
    if bounds is None:
        return None
    lo, hi = bounds

    def side(x, any_rule):
        return _price_side(x, a, seller, president, stop, actions, any_rule=any_rule)

    def mend(got):
        d = _worth_off(replay, got, seller)
        return None if d is None else -d
    return _price_search(replay, stop, lambda p: dataclasses.replace(a, price=p), side, mend,
                         lo, hi, 1, guesses, s, exact=exact, first=first, halve=halve,
                         has_result=seller in (getattr(replay.record, "expected_result", None)
                                               or {}))


def _price_search(replay, stop: int, line_of, side_of, mend, lo: int, hi: int, step: int,
                  guesses: list, s: Search, exact: bool = False,
                  first: Optional[Finding] = None, halve: bool = True,
                  has_result: bool = False, upward: bool = False):
    """(price, result, words) of the price, from ``lo`` to ``hi`` by
    ``step``, at which the record's line ``stop`` (``line_of(price)``: a
    line or the lines standing there) explains the record from there on:
    ``guesses`` first, then halving the prices left by which side a
    candidate's errors are on (``side_of(failed entry, any_rule)``: +1 the
    price too low, -1 too high); the record's result then mends it
    (``mend(result)``: how much more the price is by the result, 0 when it
    matches, None when it cannot say).  Else None.  ``exact``, ``first``,
    ``halve``: see :func:`_private_price_search`; ``upward``: a candidate
    whose errors say neither side is taken as too low (a bid written under
    the least: the true one is most likely a little over it), the next
    price up tried."""
    own = [f for f in (replay.game.findings if getattr(replay, "game", None) is not None
                       else []) if f.severity == ERROR]
    if first is not None:
        own = [f for f in own if _key(f) == _key(first)] + \
            [f for f in own if _key(f) != _key(first)]
    tried: dict = {}

    def trial(price):
        if price not in tried:
            failed: list = []
            # (a candidate may keep one error its price cannot have caused,
            # which the record's cascade hid: a bankrupt's private bought
            # from him later, 18Ireland_rand_18006_5)
            got = _try_line(replay, stop, line_of(price), s, own, failed, spare=1)
            side = next((d for d in (side_of(x, False) for x in failed) if d), 0)
            # (a candidate whose lines the record's own errors still
            # contradict on either side explains nothing)
            if got is not None and side == 0:
                tried[price] = (got, 0)
            else:
                if not side and got is None and failed:
                    # no line short of cash: the line it stopped at, by its
                    # actor (a bid the seller could not make, taken as out
                    # of turn)
                    side = side_of(failed[-1], True)
                tried[price] = (None, side)
        return tried[price]

    def on_grid(p):
        return lo <= p <= hi and (p - lo) % step == 0
    low, high = 0, (hi - lo) // step        # the prices' places on the grid
    todo = [(g - lo) // step for g in guesses if on_grid(g)] if exact else \
        [(min(max(g, lo), hi) - lo) // step for g in guesses]
    #: the prices above a candidate whose errors said neither side, left
    #: for when those below it are used up (the lower first)
    above: list = []
    price = got = None
    for _ in range(PRIVATE_TRIALS):
        if not halve and not todo:
            break
        while todo and not low <= todo[0] <= high:
            todo.pop(0)
        if low > high and above and halve:
            low, high = above.pop()
        if low > high or s.out_of_budget:
            break
        k = todo.pop(0) if todo else (low + high) // 2
        got, side = trial(lo + k * step)
        if got is not None:
            price = lo + k * step
            break
        if side > 0 or (side == 0 and upward and not todo):
            low = k + 1
            if side == 0:
                todo = [low]    # (the next price up, not the middle)
        elif side < 0:
            high = k - 1
        elif not todo:
            if not halve:
                break
            # neither side told: the prices below it, then those above
            # (the search halves each in turn, within its trials)
            if k + 1 <= high:
                above.append((k + 1, high))
            high = k - 1
    if price is None or got is None:
        return None
    # the record's own result: the seller's net worth differs by as much as
    # the price does (every later line explained alike)
    says = ""
    if has_result:
        for _ in range(PRIVATE_WORTH_STEPS):
            d = mend(got)
            if d is None:
                break
            if d == 0:
                # (the one such price: a neighbour explaining the record and
                # ending as it does too leaves it open)
                if not any(on_grid(p) and trial(p)[0] is not None and mend(trial(p)[0]) == 0
                           for p in (price - step, price + step)):
                    says = " (the price the record's final result needs)"
                break
            if not on_grid(price + d) or s.out_of_budget:
                break
            other, _ = trial(price + d)
            if other is None:
                break
            price, got = price + d, other
    if exact and not says:
        return None
    if not says and not s.out_of_budget:
        # no result says which: the one price the later lines allow, or one
        # of several (its neighbours explain them as well)
        alike = [p for p in (price - step, price + step)
                 if on_grid(p) and trial(p)[0] is not None]
        says = (" (one of the prices they allow; the record does not say which)" if alike
                else " (the one price they allow)")
    return price, got, says


@_never_raises
def raise_price_hint(replay, result, search: Optional[Search] = None):
    """A line of the player leading a minor's auction read as coming after
    the raise of the player the auction waited for (that line missing,
    ``following/repair.py``'s :func:`_missing_raise`, at the least raise),
    whose later lines say the raise was dearer (the bidder short of cash
    later: too high; the minor, whose treasury the bid is: too low): the
    raise's price that explains every later line (:func:`_price_search`,
    the bidder's net worth against the record's result) is taken, the
    finding saying so; else ``result``.  Never raises."""
    import re
    from .repair import RAISED
    errors = [f for f in result.findings if f.severity == ERROR]
    game = result.game
    if len(errors) < 2 or game is None:
        return result
    first = errors[0]
    words = re.search(rf"; the record's later lines go on as if (.+) {RAISED} (\D*)(\d+) on "
                      rf"(\S+) before it: taken so$", first.message)
    if words is None or all((f.line, f.action_id) == (first.line, first.action_id)
                            for f in errors):
        return result
    bidder, least, corp = words.group(1), int(words.group(3)), words.group(4)
    actions = replay.record.actions
    stop = _position(actions, first)
    spec = game.rules.stock.minor_auction
    player = game.player_by_name.get(bidder)
    if stop is None or spec is None or player is None:
        return result
    a = actions[stop]
    step = int(spec["multiple"])
    s = search if search is not None else Search()
    befores = _bidder_cash(replay, stop, bidder, s)
    if befores is None:
        return result

    def line_of(price):
        bid = Bid(actor=bidder, company=corp, price=price, line=a.line, column=a.column,
                  action_id=a.action_id)
        bid.text = f"{bidder} bids {game.money(price)} on {corp}"
        return [bid, a]

    def mend(got):
        return _worth_off(replay, got, bidder)
    want = getattr(replay.record, "expected_result", None) or {}
    d = _worth_off(replay, result, bidder)
    found = _price_search(replay, stop, line_of, _bid_side(bidder, corp), mend, least, befores,
                          step,
                          [least + d] if d else [least], s, first=first,
                          has_result=bidder in want, upward=True)
    if found is None:
        return result
    price, cand, says = found
    message = first.message[:first.message.find(_READ_AS)]
    return _adopt(replay, cand, a, first.rule,
                  f"{message}; the record's later lines go on as if {bidder} {RAISED} "
                  f"{game.money(price)} on {corp} before it{says}: taken so", {bidder, corp})


@_never_raises
def minor_bid_hint(replay, result, search: Optional[Search] = None):
    """A bid in a minor's auction under the least the rules take, taken as
    bid (``stock.minor_bid``, 18Ireland), whose later lines go on from
    another price (the bidder short of cash later: the bid was lower; the
    minor, whose treasury the winning bid is: higher): the bid's price that
    explains every later line, from the least the rules take on
    (:func:`_price_search`, the bidder's net worth against the record's
    result) is taken, the finding saying so; else ``result``.  Never
    raises."""
    import re
    errors = [f for f in result.findings if f.severity == ERROR]
    game = result.game
    if len(errors) < 2 or game is None:
        return result
    first = errors[0]
    words = re.search(r"^a bid must be at least \D*(\d+), not .*; taken as bid, as the record "
                      r"says$", first.message)
    if first.rule != "stock.minor_bid" or words is None \
            or _all_at(errors, first):
        return result
    actions = replay.record.actions
    stop = _position(actions, first)
    spec = game.rules.stock.minor_auction
    if stop is None or spec is None or not isinstance(actions[stop], Bid):
        return result
    a = actions[stop]
    bidder, corp, least, step = a.actor, a.company, int(words.group(1)), int(spec["multiple"])
    s = search if search is not None else Search()
    cash = _bidder_cash(replay, stop, bidder, s)
    if cash is None or cash < least:
        return result
    d = _worth_off(replay, result, bidder)
    found = _price_search(replay, stop, lambda p: dataclasses.replace(a, price=p),
                          _bid_side(bidder, corp), lambda got: _worth_off(replay, got, bidder),
                          least, cash, step, [least + (a.price - least) + d, least] if d
                          else [least], s, first=first, upward=True,
                          has_result=bidder in (getattr(replay.record, "expected_result", None)
                                                or {}))
    if found is None:
        return result
    price, cand, says = found
    message = first.message[:first.message.find("; taken as bid")]
    return _adopt(replay, cand, a, first.rule,
                  f"{message}; the record's later lines go on as if {bidder} bid "
                  f"{game.money(price)}{says}: taken so", {bidder, corp})


#: how many minors' auctions before the first error the winning-bid hint
#: tries (the most recent of those whose minor or bidder the error names)
MINOR_AUCTIONS = 2


@_never_raises
def minor_price_hint(replay, result, search: Optional[Search] = None):
    """A minor won at a legal but wrong price (18Ireland: the winning bid is
    the minor's treasury, and its par half of it, ``minor_auction.par``):
    the record's later lines show another treasury (the minor short of cash:
    the bid was higher; the bidder short: lower) or another price (the
    operating order).  When the first error is of a kind a price or cash
    causes (:func:`applies`) and later errors follow, the winning bid of
    each of the :data:`MINOR_AUCTIONS` latest minors' auctions before it
    whose minor or bidder the error names is searched at the prices the
    rules take (:func:`_price_search`, halving by which side a candidate's
    errors are on, the bidder's net worth against the record's result); the
    first that explains the record is flagged (``stock.minor_bid_implied``)
    and the game taken so.  Else ``result``.  Never raises."""
    game = result.game
    if game is None or game.rules.stock.minor_auction is None:
        return result
    errors = [f for f in result.findings if f.severity == ERROR]
    first = applies(result)
    if first is None or first is not errors[0] or _all_at(errors, first):
        return result
    actions = replay.record.actions
    stop = _position(actions, first)
    if stop is None:
        return result
    spec = game.rules.stock.minor_auction
    step, opening = int(spec["multiple"]), int(spec["min_bid"])
    minors = {sym for sym, c in game.corporations.items() if c.kind == "minor"}
    last: dict = {}         # minor -> the place of its last bid (the winner's)
    before: dict = {}       # minor -> the bid before it
    for i in range(stop):
        a = actions[i]
        if isinstance(a, Bid) and a.company in minors and a.price is not None:
            if a.company in last:
                before[a.company] = actions[last[a.company]].price
            last[a.company] = i
    named = _named(first, game)
    places = sorted((i for sym, i in last.items()
                     if sym in named or actions[i].actor in named), reverse=True)[:MINOR_AUCTIONS]
    s = search if search is not None else Search()
    want = getattr(replay.record, "expected_result", None) or {}
    for i in places:
        a = actions[i]
        bidder, corp = a.actor, a.company
        cash = _bidder_cash(replay, i, bidder, s)
        least = before[corp] + step if corp in before else opening
        if cash is None or cash < least or s.out_of_budget:
            continue
        d = _worth_off(replay, result, bidder)
        # (the price the bidder's worth gives, then the written one's
        # neighbours: a slip of one multiple)
        guesses = ([a.price + d] if d else []) + [a.price + step, a.price - step]
        side = _bid_side(bidder, corp)
        # only a price the record's result gives (the bidder's net worth),
        # but at the latest auction when the first error is its minor's or
        # bidder's own cash (a bidder whose worth no price changes, as one
        # gone bankrupt, leaves the result silent: 53000029_0 #9, DER short
        # of a train at #31)
        exact = not (i == places[0] and side((first, actions[stop].actor, None), False))
        found = _price_search(replay, i, lambda p, a=a: dataclasses.replace(a, price=p),
                              side, lambda got, b=bidder: _worth_off(replay, got, b),
                              least, cash, step, [g for g in guesses if g != a.price], s,
                              exact=exact and bidder in want, first=first,
                              has_result=bidder in want)
        if found is None:
            continue
        price, cand, says = found
        if price == a.price:
            continue
        return _adopt(replay, cand, a, "stock.minor_bid_implied",
                      f"{bidder} wins {corp}'s auction at {game.money(a.price)}, but the "
                      f"record's later lines go on as if at {game.money(price)} (as written: "
                      f"{_where(first)}, {first.message} — the first finding the written bid "
                      f"gives): taken as {game.money(price)}{says}", {bidder, corp})
    return result


def _bid_side(bidder: str, corp: str):
    """Which way a bid's price is wrong by a candidate's error (see
    :func:`_price_search`): the bidder short, too high; the minor, whose
    treasury the bid is, short: too low."""
    def side(x, any_rule):
        f, actor, helper = x
        sign = -1 if f.rule in CASH_OVER else 1
        if f.rule not in CASH_SHORT and f.rule not in CASH_OVER:
            return 0
        if actor == bidder or (helper == bidder and actor != corp):
            return -sign
        if actor == corp:
            return sign
        return 0
    return side


def _bidder_cash(replay, stop: int, bidder: str, s: Search) -> Optional[int]:
    """``bidder``'s cash just before the record's line ``stop``."""
    target = replay.record.actions[stop]
    cand = type(replay)(replay.record, replay.rules, check_board=replay.check_board,
                        hints=False)
    got: list = []
    if not s.budget:
        s.budget = BUDGET_FACTOR * max(1, len(replay.record.actions))

    def before(game, action):
        s.replayed += 1
        if action is target:
            p = game.player_by_name.get(bidder)
            if p is not None:
                got.append(p.cash)
            raise _Stop
    cand.before_action = before
    try:
        cand.run()
    except _Stop:
        pass
    except Exception:
        return None
    return got[0] if got else None


#: the findings of a line its actor cannot pay for
CASH_SHORT = {"stock.cash", "trains.cash", "private.cash", "token.cash", "track.cost",
              "emergency.cash"}
#: the findings of a line whose actor has more cash than it says (a sale for a
#: train the company or its president could pay for)
CASH_OVER = {"emergency.not_needed", "emergency.too_much"}


def _price_side(failed, a, seller, president, stop: int, actions, any_rule: bool = False) -> int:
    """Which way a candidate price is wrong by an error after its line: +1
    (too low: the seller's later line needs more cash), -1 (too high: the
    buyer's, or its president's when the company falls short), 0 (neither
    can be told, or no line short of cash; with ``any_rule``, a line of
    any other rule by the seller or the buyer says so too)."""
    f, actor, helper = failed
    if f.rule in CASH_OVER:
        # (more cash than the line needs: the other way round)
        return -_short_side(f, actor, helper, a, seller, president, stop, actions)
    if f.rule not in CASH_SHORT:
        if not any_rule:
            return 0
        return -1 if actor == a.actor else (1 if actor is not None and actor == seller else 0)
    return _short_side(f, actor, helper, a, seller, president, stop, actions)


def _short_side(f, actor, helper, a, seller, president, stop: int, actions) -> int:
    """:func:`_price_side` of a line whose actor is short of cash."""
    at = _position(actions, f)
    if at is not None and at <= stop:
        return -1       # (the purchase itself: more than the buyer has)
    buyer = a.actor
    if actor is not None:
        if actor == buyer:
            return -1
        if actor == seller:
            return 1
        if president is not None and actor == president:
            return -1
        if helper is not None and helper == seller and f.rule.startswith("emergency."):
            return 1        # the seller, as another company's president, short
        if helper is not None and helper == president and president != seller \
                and f.rule.startswith("emergency."):
            return -1       # the buyer's president, as another company's, short
    inv = set(f.involves)
    high = buyer in inv or (president is not None and president != seller and president in inv)
    low = seller is not None and seller in inv
    if high != low:
        return -1 if high else 1
    return 0


def _before_lines(replay, stops: list, s: Search) -> dict:
    """{line: (the buyer's cash, the seller's name, the buying company's
    president's name or None)} just before each of the record's lines
    ``stops``, purchases of privates (one replay up to the last of them,
    counted in the search's budget)."""
    actions = replay.record.actions
    want = {id(actions[i]): i for i in stops}
    cand = type(replay)(replay.record, replay.rules, check_board=replay.check_board,
                        hints=False)
    got: dict = {}
    if not s.budget:
        s.budget = BUDGET_FACTOR * max(1, len(actions))

    def before(game, action):
        s.replayed += 1
        if s.replayed > s.budget:
            s.out_of_budget = True
            raise _Stop
        i = want.get(id(action))
        if i is None:
            return
        a = actions[i]
        buyer = game.corporations.get(a.actor) or game.player_by_name.get(a.actor)
        company = game.companies.get(a.company)
        if buyer is not None and company is not None:
            got[i] = (buyer.cash, getattr(company.owner, "name", None),
                      getattr(getattr(buyer, "president", None), "name", None))
        if len(got) == len(want) or i == max(stops):
            raise _Stop
    cand.before_action = before
    try:
        cand.run()
    except _Stop:
        pass
    except Exception:
        return {}
    return got


#: how many of the record's purchases of privates before the first error
#: the private-price hint tries (the most recent; as many as a title has
#: privates, since two that explain the record alike are no explanation: a
#: seller's two sales, the buyers' cash never shown again)
PRIVATE_LINES = 10


@_never_raises
def private_price_hint(replay, result, search: Optional[Search] = None):
    """A private bought at a price the rules take but the record's later
    lines do not: a line short of cash later (:func:`applies`, the first
    error), the seller's (the price too low) or the buyer's (too high).
    The record's own result says by how much: the seller's net worth is
    off by the difference.  Each of the :data:`PRIVATE_LINES` most recent
    purchases of a private before the first error whose seller's net
    worth is off is tried at the price that mends it; the one that
    explains every later line (a record with no result, or two purchases
    that explain it, give no hint) is flagged (``private.price_implied``)
    and the game taken so; else ``result``.  Never raises."""
    game = result.game
    errors = [f for f in result.findings if f.severity == ERROR]
    first = applies(result)
    if game is None or first is None or first is not errors[0] \
            or not getattr(replay.record, "expected_result", None):
        return result
    actions = replay.record.actions
    stop = _position(actions, first)
    if stop is None:
        return result
    lines = [i for i in range(stop) if isinstance(actions[i], BuyCompany)
             and actions[i].price is not None and actions[i].price >= 0][-PRIVATE_LINES:]
    if not lines:
        return result
    s = search if search is not None else Search()
    befores = _before_lines(replay, lines, s)
    found = []
    for i in reversed(lines):
        before = befores.get(i)
        if before is None:
            continue
        d = _worth_off(replay, result, before[1])
        side = _price_side((first, actions[stop].actor, None), actions[i], before[1],
                           before[2], i, actions)
        if not side:
            # the first error is no line of its seller's or buyer's short of
            # cash: the purchase's price explains nothing there (a missing
            # issue's certificate limit mended by another price of a private
            # that happens to end alike, 18Ireland_rand_2711299_4 #774)
            continue
        if i == lines[-1]:
            # the nearest the first error, when that is on its seller's or
            # buyer's side: the price the result gives, then halving the
            # range from the written one (a later line, refused for its
            # price, may keep the seller's worth from saying it)
            got = _private_price_search(replay, result, i, before,
                                        [actions[i].price - d] if d else [actions[i].price],
                                        s, exact=True, halve=True)
        elif d:
            # (the others: the price the record's result gives, and no other)
            got = _private_price_search(replay, result, i, before, [actions[i].price - d], s,
                                        exact=True, halve=False)
        else:
            continue
        if s.out_of_budget:
            return result
        if got is not None:
            found.append((i, got))
    if len(found) != 1:
        return result
    i, (price, cand, says) = found[0]
    a = actions[i]
    money = game.money
    where = _where(first)
    return _adopt(replay, cand, a, "private.price_implied",
                  f"{a.actor} buys {a.company} for {money(a.price)}, but the record's later "
                  f"lines go on as if for {money(price)} (for {money(a.price)}: {where}, "
                  f"{first.message} — the first finding the written price gives): taken as "
                  f"{money(price)}{says}", {a.actor, a.company})


# ---------------------------------------------------------------------------
# a company's dividend line missing

_PAID_PAST = {"payout": "paid out", "half": "paid half"}


@_never_raises
def missing_dividend_hint(replay, result, search: Optional[Search] = None):
    """The result the record implies when its first error says a company ran
    and decided no dividend (``dividend.missing``, taken as withheld), and
    the record with the company's dividend line put back, of another kind
    the title knows, has no error from there on (the one such kind): the
    finding then says so.  Else ``result``.  Never raises."""
    errors = [f for f in result.findings if f.severity == ERROR]
    if len(errors) < 2 or result.game is None or errors[0].rule != "dividend.missing":
        return result
    first = errors[0]
    if _all_at(errors, first):
        return result
    actions = replay.record.actions
    stop = _position(actions, first)
    if stop is None:
        return result
    ran = next((a for a in reversed(actions[:stop]) if isinstance(a, RunRoutes)), None)
    if ran is None or not first.message.startswith(f"{ran.actor} ran for "):
        return result
    nxt = actions[stop]
    kinds = [k for k in result.game.rules.operating.dividend_kinds if k != "withhold"]

    def lines(i, kind):
        div = Dividend(actor=ran.actor, kind=kind, line=nxt.line, column=nxt.column)
        div.text = f"{ran.actor} {kind}"
        return [div, nxt]
    one = _the_one_explanation(replay, [(stop, k) for k in kinds], lines,
                               search if search is not None else Search())
    if one is None:
        return result
    _, kind, cand = one
    message = _words_before(first.message, "; taken as withheld")
    return _adopt(replay, cand, nxt, first.rule,
                  f"{message}; the record's later lines go on as if it {_PAID_PAST.get(kind, kind)} "
                  f"(its dividend line missing): taken so", {ran.actor})


# ---------------------------------------------------------------------------
# a train purchase left out, by another company than the refused buyer

#: how many of the record's lines after a refused purchase are read for a
#: run of a train no line bought
BOUGHT_BY_RUN_HORIZON = 200


@_never_raises
def train_run_by_other_hint(replay, result, search: Optional[Search] = None):
    """The result the record implies when its first error refuses a
    purchase of a train the depot does not sell yet (``trains.not_available``:
    an earlier train unsold) and the record's later lines have another
    company run one of the depot's trains no line bought: that company
    bought it in its latest turn before the refused line, its line missing
    (put back before that turn's closing pass, or after its last line; the
    one that explains every later line).  The repair's reading of the
    refused line (its buyer bought the earlier trains) is the buyer's own;
    the runs say whose the train was (1830_rand_2711004_3 #304, B&M's 4-3
    left out, read as PRR's before its 5-train: B&M's run of it refused).
    The finding stays at the refused line and says so.  Else ``result``.
    Never raises."""
    errors = [f for f in result.findings if f.severity == ERROR]
    game = result.game
    if len(errors) < 2 or game is None or errors[0].rule != "trains.not_available":
        return result
    first = errors[0]
    actions = replay.record.actions
    stop = _position(actions, first)
    if stop is None or not isinstance(actions[stop], BuyTrain):
        return result
    buyer = actions[stop].actor
    bought = {a.train_id for a in actions[:stop + 1] if isinstance(a, BuyTrain) and a.train_id}
    runs: list = []       # (company, train id, the run's line)
    for a in actions[stop + 1: stop + 1 + BOUGHT_BY_RUN_HORIZON]:
        if isinstance(a, BuyTrain) and a.train_id:
            bought.add(a.train_id)
        elif isinstance(a, RunRoutes) and a.actor != buyer:
            for r in a.routes:
                if r.train_id and r.train_id not in bought \
                        and all(r.train_id != t for _, t, _ in runs):
                    tr = game.train_by_id.get(r.train_id)
                    if tr is not None:
                        runs.append((a.actor, r.train_id, a))
    todo = []
    for corp, tid, run in runs[:2]:
        j = next((k for k in range(stop - 1, -1, -1) if actions[k].actor == corp), None)
        if j is None:
            continue
        if isinstance(actions[j], Pass):
            todo.append((j, (corp, tid, run)))
        if j + 1 < stop:
            todo.append((j + 1, (corp, tid, run)))
    if not todo:
        return result

    def lines(i, v):
        corp, tid, _ = v
        nxt = actions[i]
        buy = BuyTrain(actor=corp, train=tid.rsplit("-", 1)[0], train_id=tid,
                       line=nxt.line, column=nxt.column)
        buy.text = f"{corp} buys train {tid}"
        return [buy, nxt]
    one = _the_one_explanation(replay, todo, lines, search if search is not None else Search())
    if one is None:
        return result
    i, (corp, tid, run), cand = one
    message = _words_before(first.message, _READ_AS)
    tr = game.train_by_id[tid]
    return _adopt(replay, cand, actions[stop], first.rule,
                  f"{message}; the record's later lines go on as if {corp} had bought the "
                  f"depot's {tid} for {game.money(tr.spec.price)} before {_where(actions[i])} "
                  f"(its line missing; {corp} runs it at {_where(run)}): taken so",
                  {corp, buyer})


# ---------------------------------------------------------------------------
# a merger vote or proposal the record's later lines contradict

#: how many of the record's votes, and of its proposals naming a minor,
#: before the first error the merger hint tries (the most recent: the merger
#: round the error is in); a proposal is tried naming each other minor
MERGER_VOTES = 4
MERGER_PROPOSALS = 2
#: the merger hint's budget, in times the record's length: its candidates
#: (up to 4 votes and 2 proposals naming each of a dozen minors) are more
#: than the other hints' (18Ireland_rand_43000101_2 #783: 30 candidates)
MERGER_BUDGET_FACTOR = 40


@_never_raises
def merger_hint(replay, result, search: Optional[Search] = None):
    """The result the record implies when its first error is a merger
    round's (``merger.*``: a line the round refuses, the vote's outcome not
    the one the record goes on from) and exactly one of the record's recent
    votes cast the other way, or one of its recent proposals naming another
    company, explains the record from there on: that line is flagged
    (``merger.implied``) and the game taken so.  Else ``result``.  Never
    raises."""
    errors = [f for f in result.findings if f.severity == ERROR]
    game = result.game
    # (the first but those a published rule backs where 18xx.games lets the
    # move through: the record's own, before the slip, 18Ireland_rand_48500101_0)
    first = next((f for f in errors if f.rule not in SITE_LETS_THROUGH), None)
    if first is None or game is None or not first.rule.startswith("merger."):
        return result
    if all((f.line, f.action_id) == (first.line, first.action_id) for f in errors
           if f.rule not in SITE_LETS_THROUGH):
        return result       # nothing after the first error's line to explain
    actions = replay.record.actions
    stop = _position(actions, first)
    if stop is None:
        return result
    # the lines before the first error, and the one it is at (a proposal or
    # vote refused there: either may be the slip, and two explanations give
    # no hint)
    votes = [i for i in range(stop + 1) if isinstance(actions[i], Vote)
             and actions[i].choice in ("for", "against")][-MERGER_VOTES:]
    minors = sorted(sym for sym, c in game.corporations.items() if c.kind == "minor")
    proposals = [i for i in range(stop + 1) if isinstance(actions[i], Propose)
                 and actions[i].corporation in minors][-MERGER_PROPOSALS:]
    todo: list = []
    for i in sorted(votes + proposals, reverse=True):
        a = actions[i]
        if isinstance(a, Vote):
            todo.append((i, "against" if a.choice == "for" else "for"))
        else:
            todo.extend((i, sym) for sym in minors if sym != a.corporation)

    def line_for(i, value):
        a = actions[i]
        if isinstance(a, Vote):
            return dataclasses.replace(a, choice=value)
        return dataclasses.replace(a, corporation=value)
    # (spare: the one explaining every later line may end otherwise than
    # the record in one player's net worth, a score of the unchanged game's
    # own that the record's cascade hid: 18Ireland_rand_49200101_0 #525)
    # (nearest: of several lines that each explain the record, its game
    # ending alike, the latest — a vote for that carried a merger the
    # record goes on without is undone as well by the proposer's own vote
    # against before it (18Ireland_rand_53000009_0 #484, 80 errors), and a
    # finding there could be before the slip's line; nearer_end: the one
    # explaining every later line may end with the game's own net worths
    # off, where the line as written does not even end the game:
    # 18Ireland_rand_53000019_1 #302, 225 errors)
    s = search if search is not None else Search()
    one = _the_one_explanation(replay, todo, line_for, s, factor=MERGER_BUDGET_FACTOR,
                               spare=1, nearest=True, nearer_end=True)
    if one is None:
        return result
    i, value, cand = one
    a = actions[i]
    where = _where(first)
    tied = (f" (of {s.tied} lines that each explain the record as well, the latest)"
            if s.tied else "")
    if isinstance(a, Vote):
        says = (f"{a.actor} votes {a.choice}, but the record's later lines go on as if "
                f"{a.actor} voted {value}")
        taken = f"taken as {value}{tied}"
    else:
        says = (f"{a.actor} proposes {a.corporation}, but the record's later lines go on as "
                f"if the proposal named {value}")
        taken = f"taken as {value}{tied}"
    return _adopt(replay, cand, a, "merger.implied",
                  f"{says} (as written: {where}, {first.message} — the first finding the "
                  f"written line gives): {taken}", {a.actor})


# ---------------------------------------------------------------------------
# a company's issue of a share missing (18Ireland)

#: how many of the record's most recent operating turns of companies,
#: before the first error, the missing-issue hint tries
ISSUE_TURNS = 12


@_never_raises
def missing_issue_hint(replay, result, search: Optional[Search] = None):
    """The result the record implies when its first error is of a kind a
    price or cash can cause (:func:`applies`: a train the company cannot pay
    for, companies operating out of the price order, a share's price), later
    errors follow, the title lets companies issue shares
    (``operating.issue_redeem``), and exactly one of the :data:`ISSUE_TURNS`
    most recent operating turns before it, begun with an issue of one of
    its company's treasury shares, explains the record from there on (its
    issue line missing: a deleted line shows only where the cash or the
    lower price is needed).  The latest line of that turn the issue
    explains the record before (never one before the missing line) is
    flagged (``or.issue_implied``) and the game taken so.  Else ``result``.
    Never raises."""
    game = result.game
    if game is None or game.rules.operating.issue_redeem is None:
        return result
    errors = [f for f in result.findings if f.severity == ERROR]
    first = applies(result)
    if first is None or first is not errors[0]:
        return result
    if _all_at(errors, first):
        return result       # nothing after the first error's line to explain
    actions = replay.record.actions
    stop = _position(actions, first)
    if stop is None:
        return result
    corps = set(game.corporations)
    # (a private's line inside a company's turn, its power used, is no turn)
    starts = [i for i in range(1, stop + 1) if actions[i].actor in corps
              and actions[i - 1].actor != actions[i].actor
              and actions[i - 1].actor not in game.companies
              and not _issues(actions[i])][-ISSUE_TURNS:]

    def lines(i, corp):
        nxt = actions[i]
        issue = SellShares(actor=corp, sales=[Sale(corporation=corp, count=1)],
                           line=nxt.line, column=nxt.column)
        issue.text = f"{corp} issues a share"
        return [issue, nxt]
    todo = [(i, actions[i].actor) for i in reversed(starts)]
    s = search if search is not None else Search()
    # (a candidate may keep one error far after it that the record's
    # cascade hides: 18Ireland_rand_43000102_1 #34, a train bought over the
    # limit at #913 that a published rule backs)
    # (nearest: of turns that each explain the record, its game ending
    # alike, the latest — an issue missing from an earlier turn of the same
    # company explains it as well, and a finding there could be before the
    # missing line: 18Ireland_rand_48500201_2 #63)
    one = _the_one_explanation(replay, todo, lines, s, spare=1, nearest=True)
    if one is None:
        return result
    i, corp, cand = one
    tied = (f" (of {s.tied} turns in which an issue explains the record as well, the "
            f"latest)") if s.tied else ""
    # the latest line of that turn the issue explains the record before (a
    # company may buy a private before it issues: 18Ireland_rand_43000101_2
    # #255): never a line before the one that is missing
    turn = []
    for j in range(i + 1, stop + 1):
        if actions[j].actor == corp:
            turn.append(j)
        elif actions[j].actor not in game.companies:
            break
    for j in reversed(turn):
        later = _the_one_explanation(replay, [(j, corp)], lines, s)
        if later is not None:
            i, corp, cand = later
            break
    nxt = actions[i]
    where = _where(first)
    return _adopt(replay, cand, nxt, "or.issue_implied",
                  f"{corp} issues no share in its turn before this line, but the record's "
                  f"later lines go on as if it issued one (as written: {where}, "
                  f"{first.message} — the first finding the missing issue gives): taken as "
                  f"issued before this line{tied}", {corp})


def _issues(a) -> bool:
    """The line is a company's issue or redemption of its own share."""
    if isinstance(a, SellShares):
        return any(s.corporation == a.actor for s in a.sales)
    return isinstance(a, BuyShares) and a.corporation == a.actor


# ---------------------------------------------------------------------------
# a home station written in a legal but wrong city (18Ireland's majors)

#: first errors a company's home station in the wrong city causes at its
#: later lines (its track, its runs, a train it has no route for)
CAUSED_BY_HOME = CAUSED_BY_ROTATION | {"trains.must_own", "route.missing"}
#: at most this many cities are tried for a home station
HOME_CITIES = 16


@_never_raises
def home_station_hint(replay, result, search: Optional[Search] = None):
    """The result the record implies when its first error is one a station
    in the wrong place causes (:data:`CAUSED_BY_HOME`) at a line of a company
    whose station is written before it — its home station (its first
    station line, placed where it chooses as it is parred: no track reaches
    it yet), or its latest station before the error, written on another hex
    than the one its later lines go on from — and exactly one of the cities
    of the hexes that company's later lines name (its lays, its runs),
    put in place of that station, explains the record from that line on
    (of the two lines, the later when both do: a slip shows soon after it):
    the station line is flagged (``token.implied``) and the game taken so.
    Else ``result``.  Never raises."""
    errors = [f for f in result.findings if f.severity == ERROR]
    game = result.game
    if not errors or game is None or game.board is None or errors[0].rule not in CAUSED_BY_HOME:
        return result
    first = errors[0]
    actions = replay.record.actions
    stop = _position(actions, first)
    if stop is None:
        return result
    corp = actions[stop].actor
    if corp not in game.corporations:
        return result
    stations = [i for i in range(stop) if isinstance(actions[i], PlaceToken)
                and actions[i].actor == corp and actions[i].corporation is None]
    if not stations:
        return result
    # (a home station is placed as the company is parred, its line after the
    # par's)
    home = stations[0] if isinstance(actions[stations[0] - 1], Par) \
        and actions[stations[0] - 1].corporation == corp else None
    lines = sorted({stations[0], stations[-1]} if home is not None else {stations[-1]})
    board = game.board

    def named_after(line: int) -> list:
        named: list = []
        for a in actions[line + 1:]:
            if a.actor != corp:
                continue
            hexes = [a.hex] if isinstance(a, (LayTile, PlaceToken)) else \
                [s.hex for r in a.routes for s in r.stops] if isinstance(a, RunRoutes) else []
            for h in hexes:
                h = str(h).split(" ")[0]
                if h in board.hexes and h not in named:
                    named.append(h)
        return named
    todo = []
    for line in lines:
        written = actions[line]
        # (a later station in another city of its own hex is
        # :func:`token_city_hint`'s)
        todo += [(line, (h, k)) for h in named_after(line)
                 for k in range(len(board.hexes[h].city_indices()))
                 if (h, k) != (written.hex, written.city)
                 and (line == home or h != written.hex)][:HOME_CITIES]
    if not todo:
        return result
    one = _the_one_explanation(
        replay, todo, lambda i, where: dataclasses.replace(actions[i], hex=where[0], city=where[1],
                                                           tile_copy=None),
        search if search is not None else Search(), nearest=True)
    if one is None:
        return result
    i, (h, k), cand = one
    written = actions[i]
    where = _where(first)
    what = "its home station" if i == home else "a station"
    return _adopt(replay, cand, written, "token.implied",
                  f"{corp} places {what} in {written.hex} city {written.city}, but the "
                  f"record's later lines go on as if it stood in {h} city {k} (as written: "
                  f"{where}, {first.message} — the first finding the written station gives): "
                  f"taken so", {corp})


# ---------------------------------------------------------------------------
# a tile taken turned that was another tile of its colour

#: the words of a lay the track step took turned (``following/track.py``)
_TURNED = "; the tile fits turned to r"

#: at most this many other tiles are tried for a lay taken turned
TURNED_TILES = 12


@_never_raises
def turned_tile_hint(replay, result, search: Optional[Search] = None):
    """The result the record implies when its first error is a lay the rules
    took turned (its tile does not fit in the written rotation but fits in
    another: ``tile.upgrade``, ``tile.edge``, ``tile.connection``, "taken as
    laid so"), later lines break from it, and exactly one other tile of the
    same colour, cities, towns and label, in the written rotation, explains
    every later line (a tile's number mistyped, its rotation as meant): that
    line's finding says so.  Else ``result``.  Never raises."""
    errors = [f for f in result.findings if f.severity == ERROR]
    game = result.game
    if len(errors) < 2 or game is None or game.board is None:
        return result
    first = errors[0]
    if _TURNED not in first.message:
        return result
    if _all_at(errors, first):
        return result
    actions = replay.record.actions
    stop = _position(actions, first)
    if stop is None:
        return result
    lay = actions[stop]
    if not isinstance(lay, LayTile) or lay.rotation is None:
        return result
    tiles = game.board.tiles
    written = tiles.get(str(lay.tile))
    if written is None:
        return result

    def alike(t) -> bool:
        return (t.color == written.color and t.label == written.label
                and len(t.cities) == len(written.cities) and len(t.towns) == len(written.towns)
                and len(t.offboards) == len(written.offboards) and not t.private_only)
    others = sorted((name for name, t in tiles.items()
                     if str(name) != str(lay.tile) and alike(t)), key=str)
    if not others or len(others) > TURNED_TILES:
        return result

    def line_for(i, name):
        copy_name = None
        if lay.tile_copy is not None:
            copy_name = _export_copy(game.board, actions, i, str(name))
        return dataclasses.replace(lay, tile=str(name), tile_copy=copy_name)
    s = search if search is not None else Search()
    # (of tiles that each explain every later line, the game ending alike,
    # the first: the record does not say which, and the line is flagged)
    one = _the_one_explanation(replay, [(stop, name) for name in others], line_for, s,
                               nearest=True)
    if one is None:
        return result
    _, name, cand = one
    message = first.message[:first.message.find(_TURNED)]
    tied = (f" (one of {s.tied} tiles the record's later lines fit as well: it does not "
            f"say which)") if s.tied else ""
    return _adopt(replay, cand, lay, first.rule,
                  f"{message}; the record's later lines go on as if tile {name} were laid "
                  f"there in the written rotation (r{lay.rotation}){tied}: taken so", {lay.actor})


# ---------------------------------------------------------------------------
# a station in another city of its hex

#: how many of the record's stations before the first error, on a hex of
#: two or more cities, the station hint tries in each other city (the most
#: recent of the companies the first error names)
TOKEN_LINES = 4


@_never_raises
def token_city_hint(replay, result, search: Optional[Search] = None):
    """The result the record implies when its first error is of a kind track
    or stations elsewhere cause (:data:`CAUSED_BY_ROTATION`) and exactly one
    of the record's recent stations on a hex of several cities (an OO, a
    city of two), put in another city of that hex, explains every later line
    (a station in a legal but wrong city: its company's later lays and runs
    go on from the other): that line is flagged (``token.city_implied``) and
    the game taken so.  Else ``result``.  Never raises."""
    first = rotation_applies(result)
    game = result.game
    if first is None or game is None or game.board is None:
        return result
    actions = replay.record.actions
    stop = _position(actions, first)
    if stop is None:
        return result
    board = game.board
    named = set(first.involves) & set(game.corporations)
    lines = []
    for i in range(stop - 1, -1, -1):
        a = actions[i]
        if not isinstance(a, PlaceToken) or a.city is None or a.corporation is not None \
                or (named and a.actor not in named):
            continue
        h = board.hexes.get(str(a.hex))
        if h is None or len(h.city_indices()) < 2:
            continue
        lines.append(i)
        if len(lines) == TOKEN_LINES:
            break
    todo = [(i, k) for i in lines
            for k in range(len(board.hexes[str(actions[i].hex)].city_indices()))
            if k != actions[i].city]
    if not todo:
        return result
    one = _the_one_explanation(replay, todo,
                               lambda i, k: dataclasses.replace(actions[i], city=k),
                               search if search is not None else Search())
    if one is None:
        return result
    i, k, cand = one
    a = actions[i]
    where = _where(first)
    return _adopt(replay, cand, a, "token.city_implied",
                  f"{a.actor} places a station in {a.hex} city {a.city}, but the record's later "
                  f"lines go on as if in city {k} (as written: {where}, {first.message} — the "
                  f"first finding the written city gives): taken as city {k}", {a.actor})


# ---------------------------------------------------------------------------
# a bid for the turn under the minimum, taken as bid

#: the bids for the turn a turn bid hint tries: the written bid raised by
#: 5, 10 ... up to this many steps of 5 (the minimum is over the written bid)
TURN_BID_STEPS = 8

_TAKEN_AS_BID = "; taken as bid, as the record says"


@_never_raises
def turn_bid_hint(replay, result, search: Optional[Search] = None):
    """The result the record implies when its first error is a bid for the
    turn under the minimum (1860's auction: ``auction.min_bid``, taken as
    bid), or a bid on a private under the minimum the waterfall auction
    took as written, whose first error is followed by others on later lines (the
    bidder's cash, as the record's later lines spend it, is another): the
    bid at each of the next :data:`TURN_BID_STEPS` multiples of 5 over the
    written one is tried, and when exactly one explains every later line
    (the value the bidder paid), that is the game the record implies and the
    line's finding says so.  Else ``result``.  Never raises."""
    from ..actions import BidForTurn
    errors = [f for f in result.findings if f.severity == ERROR]
    if len(errors) < 2 or result.game is None:
        return result
    first = errors[0]
    if first.rule != "auction.min_bid" or _all_at(errors, first):
        return result
    actions = replay.record.actions
    stop = _position(actions, first)
    # (1860's bid for the turn, taken as bid; a bid on a private in the
    # waterfall auction, which the table takes as written and the auction
    # goes on with: held-out 18Ireland_rand_52000059_0 #4, RSSC's 85 written
    # 80, 118 errors as the bidder's uncommitted cash let him raise GJR)
    if stop is None or not (isinstance(actions[stop], BidForTurn) and _TAKEN_AS_BID in first.message
                            or type(actions[stop]) is Bid and actions[stop].price is not None):
        return result
    a = actions[stop]
    prices = [a.price + 5 * j for j in range(1, TURN_BID_STEPS + 1)]
    one = _the_one_explanation(replay, [(stop, p) for p in prices],
                               lambda i, p: dataclasses.replace(a, price=p),
                               search if search is not None else Search())
    if one is None:
        return result
    _, price, cand = one
    message = _words_before(first.message, _TAKEN_AS_BID)
    money = cand.game.money if cand.game is not None else str
    return _adopt(replay, cand, a, first.rule,
                  f"{message}; the record's later lines go on as if {a.actor} bid "
                  f"{money(price)}: taken so", {a.actor})


#: the bidder's latest bids for the turn before the first error that the
#: bid-price hint tries, each at the :data:`TURN_BID_STEPS` multiples of 5
#: below the written price
TURN_BIDS = 4


@_never_raises
def turn_bid_price_hint(replay, result, search: Optional[Search] = None):
    """The result the record implies when its first error is one a price
    can cause (:func:`applies`) and says a player is short of cash
    (:data:`CASH_SHORT`), who bid for a turn before it (1860's auction: the
    winner pays his bid, legal at any price he can pay): his
    :data:`TURN_BIDS` latest bids for the turn are tried at each of the
    :data:`TURN_BID_STEPS` multiples of 5 below the written price, and when
    exactly one explains every later line (the price he paid), the bid is
    flagged (``auction.bid_implied``) and the game taken so.  Else
    ``result``.  Never raises."""
    from ..actions import BidForTurn
    first = applies(result)
    game = result.game
    if first is None or game is None or first.rule not in CASH_SHORT:
        return result
    actions = replay.record.actions
    stop = _position(actions, first)
    if stop is None:
        return result
    players = {p.name for p in game.players} & _named(first, game)
    bids = [i for i in range(stop - 1, -1, -1) if isinstance(actions[i], BidForTurn)
            and actions[i].actor in players][:TURN_BIDS]
    todo = [(i, actions[i].price - 5 * j) for i in bids for j in range(1, TURN_BID_STEPS + 1)
            if actions[i].price - 5 * j >= 0]
    if not todo:
        return result
    one = _the_one_explanation(replay, todo, lambda i, p: dataclasses.replace(actions[i], price=p),
                               search if search is not None else Search())
    if one is None:
        return result
    i, price, cand = one
    bid = actions[i]
    money = game.money
    return _adopt(replay, cand, bid, "auction.bid_implied",
                  f"{bid.actor} bids {money(bid.price)} for the turn, but the record's later "
                  f"lines go on as if {money(price)} (as written: {_where(first)}, "
                  f"{first.message} — the first finding the written bid gives): taken as "
                  f"{money(price)}", {bid.actor})


# ---------------------------------------------------------------------------
# a legal lay of another tile than the record's later upgrade keeps

#: at most this many (tile, rotation) candidates for the lay before an
#: upgrade that does not keep its track
UPGRADED_TILES = 8


@_never_raises
def upgraded_tile_hint(replay, result, search: Optional[Search] = None):
    """The result the record implies when its first error is an upgrade
    that does not keep the existing track (``tile.upgrade``), and exactly
    one other tile of the same colour, cities, towns and label as the
    record's earlier lay on that hex (legal at its line: another track
    tile), in a rotation whose track the upgrade keeps, explains every
    later line: that earlier lay is flagged (``tile.implied``) and the game
    taken so; not when the upgrade's line is the only one in error.  Else
    ``result``.  Never raises."""
    errors = [f for f in result.findings if f.severity == ERROR]
    game = result.game
    if not errors or game is None or game.board is None:
        return result
    first = errors[0]
    if first.rule != "tile.upgrade":
        return result
    if _all_at(errors, first):
        # nothing after the upgrade to explain: the upgrade's own tile may be
        # the one mistyped (1830_rand_49000103_0 #249, 27 for 16), which
        # explains the record as well, and two explanations are none
        return result
    actions = replay.record.actions
    stop = _position(actions, first)
    if stop is None or not isinstance(actions[stop], LayTile):
        return result
    up = actions[stop]
    board = game.board
    kept = _exits(board, up)
    if kept is None:
        return result
    at = next((i for i in range(stop - 1, -1, -1) if isinstance(actions[i], LayTile)
               and str(actions[i].hex) == str(up.hex)), None)
    if at is None:
        return result
    lay = actions[at]
    written = board.tiles.get(str(lay.tile))
    if written is None:
        return result
    sides = set(board.neighbours(str(lay.hex)))
    todo = []
    for name in sorted(board.tiles, key=str):
        t = board.tiles[name]
        if str(name) == str(lay.tile) or t.color != written.color or t.label != written.label \
                or len(t.cities) != len(written.cities) or len(t.towns) != len(written.towns) \
                or t.private_only:
            continue
        for r in t.distinct_rotations():
            exits = t.exits(r)
            if exits <= kept and exits <= sides:
                todo.append((at, (str(name), r)))
    if not todo or len(todo) > UPGRADED_TILES:
        return result

    def line_for(i, value):
        name, r = value
        copy_name = None
        if lay.tile_copy is not None:
            copy_name = _export_copy(board, actions, i, name)
        return dataclasses.replace(lay, tile=name, rotation=r, tile_copy=copy_name)
    one = _the_one_explanation(replay, todo, line_for,
                               search if search is not None else Search())
    if one is None:
        return result
    _, (name, r), cand = one
    where = _where(first)
    return _adopt(replay, cand, lay, "tile.implied",
                  f"{lay.actor} lays tile {lay.tile} on {lay.hex} turned {lay.rotation}, but the "
                  f"record's later lines go on as if tile {name} turned {r} (as written: {where}, "
                  f"{first.message} — the first finding the written tile gives): taken so",
                  {lay.actor})


def _export_copy(board, actions, i: int, name: str) -> str:
    """The copy of tile ``name`` an export names at a lay at position ``i``
    of the record: the site's supply as the record's earlier lays left it
    (``board.next_tile_copy``)."""
    on_hex: dict = {}
    gone: dict = {}
    for a in actions[:i]:
        if isinstance(a, LayTile) and a.tile_copy is not None:
            old = on_hex.get(str(a.hex))
            if old is not None:
                gone.pop(old, None)
                gone[old] = a.hex       # (back in the supply, at its end)
            gone.pop(a.tile_copy, None)
            on_hex[str(a.hex)] = a.tile_copy
    t = board.tiles.get(name)
    return next_tile_copy(name, t.count if t is not None else None, set(on_hex.values()), gone)


# ---------------------------------------------------------------------------
# a lay of another tile, whose copy a later lay names

#: at most this many (tile, rotation) pairs are tried at the lay
COPY_TILES = 16


@_never_raises
def copy_named_later_hint(replay, result, search: Optional[Search] = None):
    """The result the record implies when its first error is a lay naming
    a tile's copy the replay has on another hex (``tile.supply``, "tile
    copy 15-0 is already on H10", or "no copy of tile 27 is left"): an
    export names the copy the site's supply gave, so the record's earlier
    lay that put that copy there (legal at its line) laid another tile, and
    the copy stayed in the supply (:func:`_another_tile_at`).  Else
    ``result``.  Never raises."""
    errors = [f for f in result.findings if f.severity == ERROR]
    game = result.game
    if not errors or game is None or game.board is None:
        return result
    first = errors[0]
    if first.rule != "tile.supply":
        return result
    actions = replay.record.actions
    stop = _position(actions, first)
    if stop is None or not isinstance(actions[stop], LayTile) or actions[stop].tile_copy is None:
        return result
    copy = actions[stop].tile_copy
    at = next((i for i in range(stop - 1, -1, -1) if isinstance(actions[i], LayTile)
               and actions[i].tile_copy == copy), None)
    if at is None:
        # a copy no earlier lay names: past the tile's count, a number the
        # site never gives, so the lay itself laid another tile (its number
        # mistyped; 962 #262 written 57-2, past 57's two copies, where 6-0
        # was laid and #447 upgrades it)
        return _another_tile_at(replay, result, first, [stop], search,
                                f"no copy {copy} exists")
    if _upgrade_missing_explains(game.board, actions, at, stop, copy):
        return result
    return _another_tile_at(replay, result, first, [at], search,
                            f"a later lay names the copy {copy} this lay took")


def _as_refused(message: str) -> str:
    """A finding's message without the reading the look-ahead took it as
    (what the rules said of the line as written)."""
    return message.split("; the record's later lines go on")[0]


def _upgrade_missing_explains(board, actions, at: int, stop: int, copy: str) -> bool:
    """The copy the lay at ``stop`` names is on the hex the lay at ``at``
    put it on; an upgrade of that hex, a line the record left out between
    them, would have put the copy back in the supply, and the site would
    then name this copy too: every copy of its tile laid once before
    (:func:`next_tile_copy` takes a copy never laid first) and a tile of a
    later colour than it laid before ``stop`` (the phase allows one).  Two
    explanations are none: the finding stays at the later lay, not moved
    before it (held-out 1830_rand_50000044_1 with #260, the upgrade of D18
    to 70, deleted: #129's lay of 16-0 was flagged, a line before the
    change)."""
    name = str(copy).rpartition("-")[0]
    t = board.tiles.get(name)
    if t is None or t.color not in board.color_order:
        return False
    laid = {str(a.tile_copy) for a in actions[:stop]
            if isinstance(a, LayTile) and a.tile_copy is not None
            and str(a.tile_copy).rpartition("-")[0] == name}
    if t.count is not None and len(laid) < t.count:
        return False
    later = board.color_order.index(t.color)
    for a in actions[at + 1:stop]:
        if isinstance(a, LayTile):
            other = board.tiles.get(str(a.tile))
            if other is not None and other.color in board.color_order \
                    and board.color_order.index(other.color) > later:
                return True
    return False


#: the lays on the hexes next to a lay refused at an edge or for its
#: connection, the most recent first, the neighbour-tile hint tries
NEIGHBOUR_LAYS = 3
NEIGHBOUR_RULES = {"tile.edge", "tile.connection"}


@_never_raises
def neighbour_tile_hint(replay, result, search: Optional[Search] = None):
    """The result the record implies when its first error is a lay refused
    (or taken turned) at an edge or for its connection
    (:data:`NEIGHBOUR_RULES`): the track of a hex next to it is not what
    the lay meets, so the record's latest lay on one of the
    :data:`NEIGHBOUR_LAYS` hexes next to it laid last (legal at its line)
    laid another tile
    (:func:`_another_tile_at`; 18Ireland: a narrow gauge tile for a broad
    one, the next lay's broad track refused at that edge).  Else
    ``result``.  Never raises."""
    errors = [f for f in result.findings if f.severity == ERROR]
    game = result.game
    if len(errors) < 2 or game is None or game.board is None:
        return result
    first = errors[0]
    if first.rule not in NEIGHBOUR_RULES:
        return result
    actions = replay.record.actions
    stop = _position(actions, first)
    if stop is None or not isinstance(actions[stop], LayTile) \
            or str(actions[stop].hex) not in game.board.hexes:
        return result
    near = set(game.board.neighbours(str(actions[stop].hex)).values())
    ats = []        # (the latest lay of each hex next to it: the tile there)
    for i in range(stop - 1, -1, -1):
        if isinstance(actions[i], LayTile) and str(actions[i].hex) in near:
            near.discard(str(actions[i].hex))
            ats.append(i)
            if len(ats) == NEIGHBOUR_LAYS:
                break
    return _another_tile_at(replay, result, first, ats, search,
                            "a later lay next to it meets other track")


def _another_tile_at(replay, result, first: Finding, ats: list, search: Optional[Search],
                     why: str):
    """The candidate loop of the hints of a lay of another tile, legal at
    its line: at each of the record's lays ``ats``, the tiles of its colour,
    label, cities and towns, in the written rotation when it keeps the
    track of the hex's tile before it (at most :data:`COPY_TILES` a lay);
    exactly one
    explaining every later line is taken, that lay flagged
    (``tile.implied``, saying ``why`` and the first error).  Else
    ``result``."""
    game = result.game
    board = game.board
    actions = replay.record.actions
    todo = []
    for at in ats:
        lay = actions[at]
        written = board.tiles.get(str(lay.tile))
        if written is None or lay.actor not in game.corporations \
                or str(lay.hex) not in board.hexes:
            continue
        before = next((a for a in reversed(actions[:at]) if isinstance(a, LayTile)
                       and str(a.hex) == str(lay.hex)), None)
        kept: frozenset = frozenset()
        if before is not None:
            under = board.tiles.get(str(before.tile))
            if under is None or before.rotation is None:
                continue
            kept = frozenset(under.exits(before.rotation))
        sides = set(board.neighbours(str(lay.hex)))
        mine = []
        for name in sorted(board.tiles, key=str):
            t = board.tiles[name]
            if str(name) == str(lay.tile) or t.color != written.color \
                    or t.label != written.label or len(t.cities) != len(written.cities) \
                    or len(t.towns) != len(written.towns) or t.private_only:
                continue
            # (in the written rotation: a tile's number mistyped, its
            # rotation as meant)
            r = lay.rotation
            if r is not None and kept <= t.exits(r) <= sides:
                mine.append((at, (str(name), r)))
        if len(mine) <= COPY_TILES:
            todo.extend(mine)
    if not todo:
        return result

    def line_for(i, value):
        name, r = value
        return dataclasses.replace(actions[i], tile=name, rotation=r,
                                   tile_copy=None if actions[i].tile_copy is None
                                   else _export_copy(board, actions, i, name))
    one = _the_one_explanation(replay, todo, line_for,
                               search if search is not None else Search())
    if one is None:
        return result
    at, (name, r), cand = one
    lay = actions[at]
    where = _where(first)
    return _adopt(replay, cand, lay, "tile.implied",
                  f"{lay.actor} lays tile {lay.tile} on {lay.hex} turned {lay.rotation}, but the "
                  f"record's later lines go on as if tile {name} turned {r} ({why}: {where}, "
                  f"{_as_refused(first.message)}): taken so", {lay.actor})


# ---------------------------------------------------------------------------
# a lay missing: the record's later upgrade or run needs track that no line
# laid

#: the turns before the first error that laid no tile (of any company, the
#: most recent first) the missing-lay hint puts the lay into
MISSING_LAY_TURNS = 8
#: at most this many tiles (each in a rotation) are tried as the missing lay
MISSING_LAY_TILES = 12
#: first errors that, with no error after their line, the missing-lay hint
#: leaves as they are: a revenue claimed over the run's worth, a lay or a
#: station off the company's network, is a slip of that line as likely
#: (a revenue written wrong, a lay on a wrong hex) as a lay left out before
ALONE_EXPLAINED = {"route.revenue", "tile.connection", "token.reach"}
#: at most this many (turn, lay) pairs are tried; with more, those of the
#: turns of the company whose line needs the lay
MISSING_LAY_TRIES = 48
#: the missing-lay hint's budget, in times the record's length (each
#: candidate replays the record up to its turn)
MISSING_LAY_BUDGET_FACTOR = 40

_JOIN = "the track in "
#: the first errors the missing-lay hint reads (:func:`_missing_lay_needs`)
MISSING_LAY_RULES = {"tile.upgrade", "route.connection"}


def _joins(tile, r: int, a: int, b: int) -> bool:
    """Tile ``tile`` turned ``r`` joins edge ``a`` to edge ``b`` (through its
    cities and towns too)."""
    links: dict = {}
    for x, y in tile.rotated(r):
        links.setdefault(x, set()).add(y)
        links.setdefault(y, set()).add(x)
    seen, todo = {a}, [a]
    while todo:
        n = todo.pop()
        for m in links.get(n, ()):
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return b in seen


def _hex_exits(h) -> frozenset:
    """The edges the track on the hex ``h`` (as laid, turned) reaches."""
    return frozenset(e for p in h.paths for e in p if isinstance(e, int) and 0 <= e < 6)


def _has_town(tile) -> bool:
    """The tile has a town or a halt (1860's halt, a town once brown)."""
    return any(n.kind in ("town", "halt") for n in tile.nodes)


def _run_through(board, run, coord: str) -> tuple:
    """(edges, pairs) of hex ``coord`` in the record's run ``run``: the
    edges by which its routes leave the hex (the hexes on either side of it
    in a route's paths, or an export's connections, read as one chain), and
    the pairs of them a route passes from one to the other (through the
    hex, or through a stop on it)."""
    toward = {c: e for e, c in board.neighbours(coord).items()}
    edges: set = set()
    pairs: set = set()
    for r in getattr(run, "routes", ()):
        chain: list = []
        for part in [*(r.path or []), *(r.connections or [])]:
            hexes = [str(x).split(" ")[0] for x in
                     (part if isinstance(part, (list, tuple)) else [part])]
            if chain and hexes and chain[-1] == hexes[0]:
                hexes = hexes[1:]
            chain.extend(hexes)
        for j, c in enumerate(chain):
            if c != coord:
                continue
            side = [toward.get(chain[k]) for k in (j - 1, j + 1) if 0 <= k < len(chain)]
            edges.update(e for e in side if e is not None)
            if len(side) == 2 and None not in side and side[0] != side[1]:
                pairs.add((side[0], side[1]))
    return frozenset(edges), pairs


def _missing_lay_needs(board, first, action):
    """(hex, tile test) of the lay missing before the first error, when it
    says one (``board`` as it was before the first error's line): an
    upgrade that skips a colour (``tile.upgrade``: the hex has the colour
    below the one the upgrade takes, so a lay between is missing; the tile
    must keep the hex's track and be kept by the upgrade), or a run over a
    hex whose track does not join two edges, or does not join a stop on it
    to the edge the run takes (``route.connection``: a tile of the hex's
    next colour with that track, and every edge of the hex the run's paths
    take); else None."""
    import re
    order = list(board.color_order)
    if first.rule == "tile.upgrade" and isinstance(action, LayTile):
        coord = str(action.hex)
        up = board.tiles.get(str(action.tile))
        kept = _exits(board, action)
        h = board.hexes.get(coord)
        if up is None or kept is None or h is None or up.color not in order \
                or h.color not in order or order.index(up.color) != order.index(h.color) + 2:
            return None
        want = order[order.index(h.color) + 1]
        have = _hex_exits(h)

        def fits(t, r):
            # (a town's kind may change: 1860's halt, yellow and green, a
            # town in brown; the board judges the tile laid)
            return t.color == want and have <= t.exits(r) <= kept \
                and len(t.cities) == len(up.cities) and _has_town(t) == _has_town(up) \
                and len(t.nodes) in (len(h.tile.nodes), len(up.nodes))
        return coord, fits
    if first.rule != "route.connection":
        return None
    through = re.search(r"the track in (\w+) does not join edge (\d) to edge (\d)", first.message)
    # (a stop at either end of a stretch: the hex's track does not reach it)
    end = re.search(r"no track (?:from \w+ reaches|leaves) \S+ (?:toward \w+ )?"
                    r"\(edge (\d) of (\w+)\)", first.message)
    if through is not None:
        coord, a, b = through.group(1), int(through.group(2)), int(through.group(3))
    elif end is not None:
        coord, a, b = end.group(2), int(end.group(1)), None
    else:
        return None
    h = board.hexes.get(coord)
    if h is None or h.color not in order[:-1]:
        return None
    want = order[order.index(h.color) + 1]
    have = _hex_exits(h)
    taken, pairs = _run_through(board, action, coord)
    taken |= {a} | ({b} if b is not None else set())
    cities, towns = len(h.tile.cities), len(h.tile.towns)

    def fits(t, r):
        if t.color != want or not (have | taken) <= t.exits(r) or len(t.cities) < cities \
                or not all(_joins(t, r, x, y) for x, y in pairs):
            return False
        if b is not None:
            return _joins(t, r, a, b)
        # (the stop the run names: a tile with the hex's cities and towns)
        return len(t.cities) == cities and len(t.towns) == towns and bool(t.nodes)
    return coord, fits


def _passes_lay(actions, begin: int) -> bool:
    """The operating turn beginning at the record's line ``begin`` passes
    its lay: its first line (a private bought before it aside) is a pass,
    as an export writes a turn that lays no tile."""
    i = begin
    while i < len(actions) and isinstance(actions[i], BuyCompany):
        i += 1
    return i < len(actions) and isinstance(actions[i], Pass)


#: turns that do not pass their lay (:func:`_passes_lay`), further back than
#: the :data:`MISSING_LAY_TURNS` latest, the missing-lay hint tries too
MISSING_LAY_UNPASSED = 4


def _turns_without_lay(actions, game, stop: int, last: int,
                       rounds: Optional[dict] = None, partial: Optional[list] = None) -> list:
    """The first lines of the operating turns after the record's line
    ``last`` and up to ``stop`` (its turn included) that lay no tile, latest
    first (and the line after the passes each begins with:
    :func:`_lay_places`): the :data:`MISSING_LAY_TURNS` latest, and up to
    :data:`MISSING_LAY_UNPASSED` earlier ones that do not pass their lay (an
    export's turn whose lay was left out begins with the line after it).  A
    turn is a company's lines in a row in one round (``rounds``: the round
    that took each line before ``stop``, where known; the last company of
    one round may be the first of the next).  ``partial``, when given, gets
    the places of a lay left out in the turns among them that lay fewer of
    their company's tiles than the rules allow (1860's two): before the
    tile the turn lays and after it."""
    def same(j: int, k: int) -> bool:
        if getattr(actions[j], "actor", None) != getattr(actions[k], "actor", None):
            return False
        a, b = (rounds.get(j), rounds.get(k)) if rounds is not None else (None, None)
        return a is None or b is None or a == b
    starts: list = []
    unpassed = 0
    lays = int(game.rules.operating.tile_lays)
    p = stop
    while p > last and unpassed < MISSING_LAY_UNPASSED:
        actor = getattr(actions[p], "actor", None)
        if actor not in game.corporations:
            p -= 1
            continue
        begin = p
        while begin - 1 > last and same(begin - 1, begin):
            begin -= 1
        end = p
        while end + 1 < len(actions) and same(end + 1, end):
            end += 1
        own = [j for j in range(begin, end + 1) if isinstance(actions[j], LayTile)
               and actions[j].actor == actor]
        if not any(isinstance(a, LayTile) for a in actions[begin:end + 1]):
            if len(starts) < MISSING_LAY_TURNS:
                starts.extend(_lay_places(actions, begin, end))
            elif not _passes_lay(actions, begin):
                starts.extend(_lay_places(actions, begin, end))
                unpassed += 1
        elif own and len(own) < lays and len(starts) < MISSING_LAY_TURNS \
                and partial is not None:
            # (never after the first error's line, which the lay must explain)
            partial.extend(j for j in (begin, own[-1] + 1) if j <= stop)
        p = begin - 1
    return starts


def _private_lay_places(actions, game, coord: str, stop: int, rounds: dict) -> list:
    """(place, private) of a lay left out that a private's power made on
    ``coord`` (``game`` as it was before the record's line ``stop``): the
    private with a lay power on the hex, owned by a company then, at the
    start of each of that company's :data:`MISSING_LAY_TURNS` latest turns
    up to ``stop`` and after the tile the turn lays (a company lays its own
    tile besides the private's); the power's window and tiles the rules
    judge."""
    board = game.board
    out: list = []
    for sym, (kind, hexes, _) in board.specials.items():
        company = game.companies.get(sym)
        if kind != "tile_lay" or (hexes is not None and coord not in hexes) or company is None:
            continue
        # (the company that owns it, or bought it last where it has closed
        # since: 1830's privates close with the first 5; from that purchase
        # on, right after it too)
        corp = getattr(getattr(company, "owner", None), "sym", None)
        bought = max((j for j in range(stop) if isinstance(actions[j], BuyCompany)
                      and actions[j].company == sym
                      and (actions[j].actor == corp or company.closed)), default=-1)
        if company.closed and bought >= 0:
            corp = actions[bought].actor
        if corp not in game.corporations:
            continue
        turns = 0
        p = stop
        while p > bought and turns < MISSING_LAY_TURNS:
            if getattr(actions[p], "actor", None) != corp:
                p -= 1
                continue
            begin = p
            while begin - 1 > bought and getattr(actions[begin - 1], "actor", None) == corp \
                    and rounds.get(begin - 1) == rounds.get(begin):
                begin -= 1
            own = [j + 1 for j in range(begin, p + 1) if isinstance(actions[j], LayTile)]
            out += [(j, sym) for j in dict.fromkeys((begin, *own[-1:])) if j <= stop]
            turns += 1
            p = begin - 1
    return out


def _lay_places(actions, begin: int, end: int) -> list:
    """Where in the turn of the record's lines ``begin`` to ``end`` a lay
    left out may stand: at its start, and after the passes it begins with
    (18Ireland's turn passes its issue before its lay; a turn that passed
    its lay refuses one after): the rules judge each."""
    k = begin
    while k < end and isinstance(actions[k], Pass):
        k += 1
    return [begin] if k == begin else [begin, k]


def _copy_taken_unseen(board, actions, i: int, name: str) -> bool:
    """An export's next lay of tile ``name`` from the record's line ``i`` on
    names another copy than the site's supply would give it as the record's
    lays before it left the supply: a copy of it was laid by a line the
    record does not have (of tiles that explain a missing lay as well, the
    one whose copy is gone)."""
    j = next((k for k in range(i, len(actions)) if isinstance(actions[k], LayTile)
              and str(actions[k].tile) == name and actions[k].tile_copy is not None), None)
    return j is not None and actions[j].tile_copy != _export_copy(board, actions, j, name)


@_never_raises
def missing_lay_hint(replay, result, search: Optional[Search] = None):
    """The result the record implies when its first error needs track no
    line laid (:func:`_missing_lay_needs`: an upgrade skipping a colour, a
    run over track that is not there) and one tile, laid in one of the
    :data:`MISSING_LAY_TURNS` most recent operating turns before it that
    laid no tile (by that turn's company), explains every later line: that
    turn's first line is flagged (``tile.lay_implied``) and the game taken
    so.  Else ``result``.  Never raises."""
    return _missing_lay(replay, result, search, MISSING_LAY_RULES)


@_never_raises
def missing_joining_lay_hint(replay, result, search: Optional[Search] = None):
    """:func:`missing_lay_hint` for a first error a slip of its own line
    explains as well (:data:`ALONE_EXPLAINED`: a lay joined to none of its
    company's track, a station in a city it does not reach, a run worth
    less than claimed), asked after the hints that read that line again
    (another city, another hex)."""
    return _missing_lay(replay, result, search, ALONE_EXPLAINED)


def _missing_lay(replay, result, search: Optional[Search], rules) -> object:
    """:func:`missing_lay_hint` for first errors of ``rules``."""
    errors = [f for f in result.findings if f.severity == ERROR]
    game = result.game
    if not errors or game is None or game.board is None:
        return result
    first = errors[0]
    actions = replay.record.actions
    stop = _position(actions, first)
    if stop is None:
        return result
    # (a station naming the city of a tile's copy no line has on the map)
    named = rules is MISSING_LAY_RULES and first.rule in UNLAID_COPY_RULES \
        and isinstance(actions[stop], PlaceToken)
    if (first.rule not in rules and not named) \
            or (first.rule in ALONE_EXPLAINED and _all_at(errors, first)):
        return result
    rounds: dict = {}
    before = _game_before(replay, stop, rounds)
    board = before.board if before is not None else None
    if named and _unlaid_copy(board, actions[stop]) is None:
        return result
    lays = [] if board is None else _lays_of_copy(before, actions[stop]) if named \
        else _missing_lays(before, first, actions[stop])
    if not lays or len(lays) > MISSING_LAY_TILES:
        return result
    todo = []
    more = []
    for coord in dict.fromkeys(c for c, _, _ in lays):
        # the turns that laid no tile, after the record's last lay on the hex
        last = max((i for i in range(stop) if isinstance(actions[i], LayTile)
                    and str(actions[i].hex) == coord), default=-1)
        partial: list = []
        todo += [(i, v) for i in _turns_without_lay(actions, game, stop, last, rounds, partial)
                 for v in lays if v[0] == coord]
        more += [(i, v) for i in partial for v in lays if v[0] == coord]
    # (and the turns that lay fewer tiles than the rules allow: all of them,
    # else those of the company whose line needs the lay, else none; the
    # turns that lay none are tried as before)
    for extra in (more, [(i, v) for i, v in more if actions[i].actor == actions[stop].actor]):
        if len(todo) + len(extra) <= MISSING_LAY_TRIES:
            todo += extra
            break
    # (and, when none of those explains the record, a private's lay on its
    # power's hex in its owning company's turns: 1830's CS on B20, which the
    # company uses besides its own lay)
    privates = [(i, (*v, sym)) for coord in dict.fromkeys(c for c, _, _ in lays)
                for i, sym in _private_lay_places(actions, before, coord, stop, rounds)
                for v in lays if v[0] == coord][:MISSING_LAY_TRIES]
    if len(todo) > MISSING_LAY_TRIES:
        # (too many: the turns of the company whose line needs the lay)
        todo = [(i, v) for i, v in todo if actions[i].actor == actions[stop].actor]
    if (not todo and not privates) or len(todo) > MISSING_LAY_TRIES:
        return result

    # (an export's lay names its tile's copy, as the site's supply gives it:
    # a later station naming that copy's city finds it, 1860_rand_18602_7
    # #368 left out, 776-0 on J4 named by IWNJ's station at #464)
    export = any(isinstance(a, LayTile) and a.tile_copy is not None for a in actions)
    at_stop = actions[stop]
    copy = str(at_stop.tile_copy if at_stop.tile_copy is not None else at_stop.hex) \
        if named else None

    def line_for(i, value):
        coord, name, r = value[:3]
        at = actions[i]
        lay = LayTile(actor=value[3] if len(value) > 3 else at.actor, tile=name, hex=coord,
                      rotation=r, line=at.line,
                      column=at.column, action_id=at.action_id,
                      tile_copy=copy if named else
                      _export_copy(board, actions, i, name) if export else None)
        lay.text = f"{lay.actor} lay {name} {coord} {r}"
        return [lay, at]
    s = search if search is not None else Search()
    # (of turns as good, one that does not begin with a pass, then the
    # nearest the first error: never before the line left out, whose turn is
    # one of them.  A turn an export begins with a pass passed its lay; the
    # turn that left its lay out begins with the line after it)
    one = _the_one_explanation(replay, todo, line_for, s, nearest=True,
                               factor=MISSING_LAY_BUDGET_FACTOR, spare=1,
                               rank=lambda i, v: (not _passes_lay(actions, i), i,
                                                  _copy_taken_unseen(board, actions, i, v[1])))\
        if todo else None
    if one is None and privates and not s.out_of_budget:
        # (of the private's places as good, the earliest: a company buys a
        # private to use its power, and the export writes the lay right
        # after; a finding nearer the first error may come after the line
        # 18xx.games refuses, its interface waiting for the private's lay)
        one = _the_one_explanation(replay, privates, line_for, Search(), nearest=True,
                                   factor=MISSING_LAY_BUDGET_FACTOR, spare=1,
                                   rank=lambda i, v: (-i, _copy_taken_unseen(board, actions, i,
                                                                             v[1])))
    if one is None:
        return result
    i, value, cand = one
    coord, name, r = value[:3]
    at = actions[i]
    where = _where(first)
    if len(value) > 3:      # a private's lay
        return _adopt(replay, cand, at, "tile.lay_implied",
                      f"{value[3]}'s power is not used in {at.actor}'s turn, but the record's "
                      f"later lines go on as if {at.actor} used it to lay tile {name} on {coord} "
                      f"turned {r} (as written: {where}, {first.message} — the first finding "
                      f"the record gives): taken so (a line missing)", {at.actor, value[3]})
    # (the tiles the turn lays: the company's lines in a row about line i)
    b, e = i, i
    while b > 0 and getattr(actions[b - 1], "actor", None) == at.actor:
        b -= 1
    while e + 1 < len(actions) and getattr(actions[e + 1], "actor", None) == at.actor:
        e += 1
    laid = [a for a in actions[b:e + 1] if isinstance(a, LayTile) and a.actor == at.actor]
    turn_lays = "no tile" if not laid else \
        f"only {', '.join(f'{a.tile} on {a.hex}' for a in laid)} of the " \
        f"{int(game.rules.operating.tile_lays)} lays the rules allow"
    return _adopt(replay, cand, at, "tile.lay_implied",
                  f"{at.actor}'s turn lays {turn_lays}, but the record's later lines go on as if it "
                  f"laid tile {name} on {coord} turned {r} (as written: {where}, {first.message} "
                  f"— the first finding the record gives): taken so (a line missing)", {at.actor})


#: the first errors of a station naming the city of a tile's copy that is
#: not on the map (:func:`_unlaid_copy`)
UNLAID_COPY_RULES = {"token.hex", "token.city"}


def _unlaid_copy(board, action) -> Optional[str]:
    """The tile an export's station names by the city of a copy that is not
    on the map (``board``: as it was before the station's line) when the
    tile is one of the title's: a copy no lay of the record names
    (``763-0-0``: the importer reads ``763-0`` as its hex, which is no hex
    of the map), or one an upgrade took off the map that the site's supply
    gave again; the lay of that copy is left out (1860_rand_18602_7 #204
    deleted, C&N's 763 on G5, its station at #205 in 763-0's city; #408
    deleted, FYN's 6-0 on B6, the copy earlier on J4); else None."""
    if not isinstance(action, PlaceToken) or board is None:
        return None
    copy = str(action.tile_copy if action.tile_copy is not None else action.hex)
    name, _, index = copy.rpartition("-")
    if copy in board.hexes or not index.isdigit() or name not in board.tiles \
            or board.hex_of_tile_copy(copy) is not None:
        return None
    return name


def _lays_of_copy(game, action) -> list:
    """The lays (hex, tile, rotation) of the tile whose copy the station
    ``action`` names (:func:`_unlaid_copy`) that the board takes from the
    station's company now (joined to its track, in a colour of the phase)
    and after which the station goes in that tile's city; ``game`` as it
    was before the station's line, its board left as it was."""
    from ..findings import RuleViolation
    board = game.board
    corp = getattr(action, "actor", None)
    name = _unlaid_copy(board, action)
    t = board.tiles.get(name) if name is not None else None
    colours = getattr(game.phase, "tiles", None)
    if t is None or corp not in game.corporations or t.private_only \
            or (colours is not None and t.color not in colours):
        return []
    out = []
    snap = board.snapshot()
    try:
        for coord in board.hexes:
            for r in t.distinct_rotations():
                try:
                    board.apply_lay(board.plan_lay(corp, name, coord, r, colors=[t.color]))
                    board.plan_token(corp, coord, action.city)
                    out.append((coord, name, r))
                except RuleViolation:
                    pass
                finally:
                    board.restore(snap)
                if len(out) > MISSING_LAY_TILES:
                    return out
    finally:
        board.restore(snap)
    return out


def _missing_lays(game, first, action) -> list:
    """The lays (hex, tile, rotation) that may be the one missing before the
    first error (``game`` as it was before its line): the tiles of the hex
    :func:`_missing_lay_needs` says, or of a hex next to the one the line
    needs reached (:func:`_lays_joining`)."""
    board = game.board
    if first.rule in JOINING_RULES:
        return _lays_joining(game, first, action)
    if first.rule == "route.revenue":
        return _lays_raising(game, first, action)
    needs = _missing_lay_needs(board, first, action)
    if needs is None:
        return []
    coord, fits = needs
    h = board.hexes.get(coord)
    # (the edges to the map's neighbours, and those the hex's track has: a
    # town's track to the map's edge)
    sides = set(board.neighbours(coord)) | (_hex_exits(h) if h is not None else set())
    return [(coord, str(name), r) for name in sorted(board.tiles, key=str)
            for t in (board.tiles[name],) if not t.private_only
            for r in t.distinct_rotations() if t.exits(r) <= sides and fits(t, r)]


def _worth(tile, colour: str) -> tuple:
    """What the stops of ``tile`` are worth in a phase of ``colour``: the
    most one is, and all together."""
    values = [n.revenue_in(colour) for n in tile.nodes]
    return max(values, default=0), sum(values)


def _lays_raising(game, first, run) -> list:
    """A run worth less than the record claims (``route.revenue``): the
    upgrades of a hex it stops at (a tile of the colour after the one it
    has, as many cities, a town if it had one, its track and the run's
    through it kept) whose stops are worth more (by what each train's run
    falls short, when the finding says one amount), that the board takes."""
    import re
    from ..findings import RuleViolation
    short = {int(b) - int(a) for a, b in
             re.findall(r"worth \D?(\d+), not the \D?(\d+) claimed", first.message)}
    board = game.board
    corp = getattr(run, "actor", None)
    if not isinstance(run, RunRoutes) or corp not in game.corporations:
        return []
    order = list(board.color_order)
    colour = getattr(game.phase, "color", None) or order[-1]
    out = []
    for coord in dict.fromkeys(str(st.hex).split(" ")[0] for r in run.routes for st in r.stops):
        h = board.hexes.get(coord)
        if h is None or not h.tile.nodes or h.color not in order[:-1]:
            continue
        want = order[order.index(h.color) + 1]
        have = _hex_exits(h)
        taken, pairs = _run_through(board, run, coord)
        worth = _worth(h.tile, colour)
        for name in sorted(board.tiles, key=str):
            t = board.tiles[name]
            more = {x - y for x, y in zip(_worth(t, colour), worth)}
            if t.color != want or t.private_only or len(t.cities) != len(h.tile.cities) \
                    or _has_town(t) != _has_town(h.tile) or max(more) <= 0 \
                    or (len(short) == 1 and not short & more):
                continue
            for r in t.distinct_rotations():
                if not (have | taken) <= t.exits(r) \
                        or not all(_joins(t, r, x, y) for x, y in pairs):
                    continue
                try:
                    board.plan_lay(corp, name, coord, r, colors=[want], check_connection=False)
                except RuleViolation:
                    continue
                out.append((coord, name, r))
                if len(out) > MISSING_LAY_TILES:
                    return out
    return out


#: the first errors whose missing lay is on a hex next to the one the line
#: needs reached: a lay not joined to the company's network, a station in a
#: city it does not reach
JOINING_RULES = {"tile.connection", "token.reach"}


def _lays_joining(game, first, action) -> list:
    """A lay refused as joined to no track of its company's
    (``tile.connection``), or a station in a city the company does not
    reach (``token.reach``): the lays of a tile on a hex next to the line's
    (of the colour after the one it has, keeping its track, with track to
    the line's hex) that the board takes and after which the line is
    legal: the lay joined, the city reached.  ``game`` is as it was before
    the line; its board is left as it was."""
    from ..findings import RuleViolation
    board = game.board
    corp = getattr(action, "actor", None)
    coord = str(getattr(action, "hex", None))
    if corp not in game.corporations or coord not in board.hexes:
        return []
    if first.rule == "tile.connection" and isinstance(action, LayTile):
        written = board.tiles.get(str(action.tile))
        if written is None or action.rotation is None:
            return []
        rotation = int(action.rotation)
        edges = written.exits(rotation)

        def legal() -> bool:
            board.plan_lay(corp, str(action.tile), coord, rotation, colors=[written.color])
            return True
    elif first.rule == "token.reach" and isinstance(action, PlaceToken):
        edges = frozenset(range(6))

        def legal() -> bool:
            board.plan_token(corp, coord, action.city)
            return True
    else:
        return []
    order = list(board.color_order)
    out = []
    snap = board.snapshot()
    try:
        for e in sorted(edges):
            n = board.neighbour(coord, e)
            h = board.hexes.get(n) if n is not None else None
            if h is None or h.color not in order[:-1]:
                continue
            want = order[order.index(h.color) + 1]
            have = _hex_exits(h)
            toward = (e + 3) % 6
            for name in sorted(board.tiles, key=str):
                t = board.tiles[name]
                if t.color != want or t.private_only or len(t.cities) < len(h.tile.cities):
                    continue
                for r in t.distinct_rotations():
                    if toward not in t.exits(r) or not have <= t.exits(r):
                        continue
                    try:
                        plan = board.plan_lay(corp, name, n, r, colors=[want],
                                              check_connection=False)
                        board.apply_lay(plan)
                        if legal():
                            out.append((n, name, r))
                    except RuleViolation:
                        pass
                    finally:
                        board.restore(snap)
                    if len(out) > MISSING_LAY_TILES:
                        return out
    finally:
        board.restore(snap)
    return out


# ---------------------------------------------------------------------------
# a station refused where it was written, the record's later runs from
# another city

#: refusals of a station the refused-station hint reads again
STATION_REFUSALS = {"token.full", "token.duplicate", "token.reserved", "token.reach",
                    "token.city"}
#: at most this many of the later runs' cities are tried
STATION_CITIES = 12


def _run_cities(message: str) -> list:
    """The cities a run's finding names, in order ("the 3+2-train (3+2-1)
    (J6-J8-I7 halt 0-I7 town 0) includes no station ..." -> J6 city 0, J8
    city 0): (hex, city); towns and halts left out."""
    import re
    m = re.search(r"\(([^()]*)\) includes no station", message)
    if m is None:
        return []
    out = []
    for stop in m.group(1).split("-"):
        parts = stop.split()
        if len(parts) == 1:
            out.append((parts[0], 0))
        elif len(parts) == 3 and parts[1] == "city" and parts[2].isdigit():
            out.append((parts[0], int(parts[2])))
    return out


def _refused_first(replay, result, rules):
    """(the errors, the first, its position in the record) when the first
    of two or more errors, on a game with a map, is a line refused by one of
    ``rules`` that the look-ahead read no other way; else None."""
    errors = [f for f in result.findings if f.severity == ERROR]
    game = result.game
    if len(errors) < 2 or game is None or game.board is None:
        return None
    first = errors[0]
    stop = _position(replay.record.actions, first)
    if first.rule not in rules or _READ_AS in first.message or stop is None:
        return None
    return errors, first, stop


@_never_raises
def refused_station_hint(replay, result, search: Optional[Search] = None):
    """The result the record implies when its first error is a station
    refused where it was written (:data:`STATION_REFUSALS`; the look-ahead
    found no reading, the evidence being too far ahead) and its company's
    later runs include none of its stations (``route.token``): of the
    cities those runs name, the one the station placed in explains every
    later line; the station's finding then says so.  Else ``result``.
    Never raises."""
    refused = _refused_first(replay, result, STATION_REFUSALS)
    if refused is None:
        return result
    errors, first, stop = refused
    game = result.game
    actions = replay.record.actions
    station = actions[stop]
    if not isinstance(station, PlaceToken) or station.corporation is not None:
        return result
    corp = station.actor
    cities: list = []
    for f in errors[1:]:
        if f.rule != "route.token" or f" of {corp} " not in f.message:
            continue
        for c in _run_cities(f.message):
            if c not in cities and c[0] in game.board.hexes \
                    and (c[0], c[1]) != (str(station.hex), station.city):
                cities.append(c)
        if len(cities) >= STATION_CITIES:
            break
    cities = cities[:STATION_CITIES]
    if not cities:
        return result
    one = _the_one_explanation(
        replay, [(stop, c) for c in cities],
        lambda i, c: dataclasses.replace(actions[i], hex=c[0], city=c[1], tile_copy=None),
        search if search is not None else Search())
    if one is None:
        return result
    _, (coord, k), cand = one
    return _adopt(replay, cand, station, first.rule,
                  f"{first.message}; the record's later lines go on as if the station were in "
                  f"{coord} city {k}: taken so", {corp})


# ---------------------------------------------------------------------------
# a lay refused on the hex written, the record's later lines using the tile
# on another hex

#: refusals of a lay the refused-lay hint reads again on another hex
LAY_REFUSALS = {"tile.upgrade", "tile.edge"}
#: at most this many hexes the later errors name are tried
LAY_HEXES = 6


@_never_raises
def refused_lay_hint(replay, result, search: Optional[Search] = None):
    """The result the record implies when its first error is a lay refused
    on the hex written (:data:`LAY_REFUSALS`, read no other way: the
    evidence too far ahead for the look-ahead) and later errors name other
    hexes (a later upgrade or run that needs the tile there): the tile, in
    each rotation that fits, on each of the first :data:`LAY_HEXES` hexes
    they name; the one explaining every later line taken, the lay's finding
    saying so.  Else ``result``.  Never raises."""
    import re
    refused = _refused_first(replay, result, LAY_REFUSALS)
    if refused is None:
        return result
    errors, first, stop = refused
    game = result.game
    actions = replay.record.actions
    lay = actions[stop]
    board = game.board
    if not isinstance(lay, LayTile) or lay.actor not in game.corporations:
        return result
    tile = board.tiles.get(str(lay.tile))
    if tile is None:
        return result
    hexes: list = []
    for f in errors[1:]:
        for coord in re.findall(r"\b([A-Z]{1,2}\d{1,2})\b", f.message):
            if coord in board.hexes and coord != str(lay.hex) and coord not in hexes:
                hexes.append(coord)
        if len(hexes) >= LAY_HEXES:
            break
    todo = [(stop, (coord, r)) for coord in hexes[:LAY_HEXES] for r in tile.distinct_rotations()
            if tile.exits(r) <= set(board.neighbours(coord))]
    if not todo:
        return result
    one = _the_one_explanation(
        replay, todo,
        lambda i, v: dataclasses.replace(actions[i], hex=v[0], rotation=v[1]),
        search if search is not None else Search())
    if one is None:
        return result
    _, (coord, r), cand = one
    return _adopt(replay, cand, lay, first.rule,
                  f"{first.message}; the record's later lines go on as if it were laid on "
                  f"{coord} turned {r}: taken so", {lay.actor})


# ---------------------------------------------------------------------------
# a share purchase left out (branch m11)

#: first errors a player's share purchase left out gives at the record's
#: later lines: he sells a certificate he does not hold; the company he
#: would have floated does not, and operates unfloated
CAUSED_BY_MISSING_PURCHASE = {"stock.sell_not_owned", "or.not_floated"}
#: at most this many passes before the first error are tried, the latest first
PURCHASE_PASSES = 6
#: the purchase's search: this many times the record's length replayed
PURCHASE_FACTOR = 8


@_never_raises
def missing_purchase_hint(replay, result, search: Optional[Search] = None):
    """The result the record implies when its first error is a sale of a
    company's certificate its seller does not hold, or a company operating
    unfloated (:data:`CAUSED_BY_MISSING_PURCHASE`), later errors follow, and
    a private's exchange for a share of that company (one the record never
    exchanges) before the sale (a float's: the latest line of a player
    before it), or else a purchase of
    one of its shares (the certificate the later sale names; from the IPO
    or the pool) before one of the :data:`PURCHASE_PASSES` latest passes
    before it of a player who may have bought it (the seller; any player,
    for the float), tried latest first, explains the record from there on:
    a deleted purchase shows only where the share is needed, and a turn
    that ends with its player's pass after a purchase reads as a pass alone
    without it.  The line is flagged (``stock.purchase_implied``) and the
    game taken so; a purchase at a later pass may explain the record as
    well (it does not say which): the latest, never before the line left
    out.  Else ``result``.  Never raises."""
    game = result.game
    if game is None:
        return result
    errors = [f for f in result.findings if f.severity == ERROR]
    if not errors or errors[0].rule not in CAUSED_BY_MISSING_PURCHASE:
        return result
    first = errors[0]
    if _all_at(errors, first):
        return result       # nothing after the first error's line to explain
    actions = replay.record.actions
    stop = _position(actions, first)
    if stop is None:
        return result
    at = actions[stop]
    players = set(game.player_by_name)
    certs: tuple = ()
    if first.rule == "stock.sell_not_owned":
        if not isinstance(at, SellShares) or len(at.sales) != 1 or at.actor not in players:
            return result
        corp, buyers, certs = at.sales[0].corporation, {at.actor}, tuple(at.sales[0].certs[:1])
    else:
        corp, buyers = at.actor, players
    if corp not in game.corporations:
        return result
    passes = [i for i in range(stop - 1, 0, -1)
              if isinstance(actions[i], Pass) and actions[i].actor in buyers
              and not isinstance(actions[i - 1], (BuyShares, Par))][:PURCHASE_PASSES]
    # a private its owner may exchange for a share of the company (1830's
    # MH, 1860's four): its exchange left out, before one of the latest
    # lines of a player
    # (the game at its end has every private closed: a private the record
    # never exchanges, its candidate refused at once when it was not its
    # owner's to exchange there)
    exchanged = {a.actor for a in actions if isinstance(a, Exchange)}
    swaps = [c.sym for c in game.companies.values() if c.sym not in exchanged
             and ((c.spec.special or {}).get("exchange") or {}).get("corporation") == corp]
    # (a sale's: before the sale itself, as an exchange before an earlier
    # line could be before the line left out, 1889_rand_2711004_2 #14; a
    # float's: before the stock round's last line, the operating round's
    # order set when it begins)
    lines_of_players = ([stop] if certs or first.rule == "stock.sell_not_owned" else [
        next((i for i in range(stop - 1, 0, -1) if actions[i].actor in players), stop)]) \
        if swaps else []

    def lines(i, how):
        nxt = actions[i]
        if how in ("ipo", "pool"):
            put = BuyShares(actor=nxt.actor, corporation=corp, count=1, source=how, certs=certs,
                            line=nxt.line, column=nxt.column)
            put.text = f"{nxt.actor} buys a {corp} share"
        else:
            put = Exchange(actor=how, corporation=corp, certs=certs, line=nxt.line,
                           column=nxt.column)
            put.text = f"{how} exchange {corp}"
        return [put, nxt]
    # the places latest first, each judged alone: a purchase at a later pass
    # than the one left out may explain the record as well (the record does
    # not say which), and the latest that does is never before the missing
    # line; the exchange first (its one place)
    places = [[(i, sym) for sym in swaps] for i in lines_of_players] \
        + [[(i, source) for source in ("ipo", "pool")] for i in passes]
    s = search if search is not None else Search()
    one = None
    for todo in places:
        # (spare: a finding a published rule backs far on, which the
        # record's cascade hides, kept; the search held to PURCHASE_FACTOR
        # replays in all)
        one = _the_one_explanation(replay, todo, lines, s, nearest=True, spare=1,
                                   factor=PURCHASE_FACTOR)
        if one is not None or s.out_of_budget:
            break
    if one is None:
        return result
    i, how, cand = one
    nxt = actions[i]
    as_written = (f"(as written: {_where(first)}, {first.message} — the first finding the "
                  f"missing line gives)")
    if how not in ("ipo", "pool"):
        return _adopt(replay, cand, nxt, "stock.purchase_implied",
                      f"no exchange of {how} is written, but the record's later lines go on "
                      f"as if its owner exchanged it for a share of {corp} before this line "
                      f"{as_written}: taken so", {corp, how})
    return _adopt(replay, cand, nxt, "stock.purchase_implied",
                  f"{nxt.actor} passes with no purchase written before, but the record's later "
                  f"lines go on as if he bought a share of {corp} from the "
                  f"{'IPO' if how == 'ipo' else 'pool'} {as_written}: taken as bought before "
                  f"this pass (the latest that explains it)", {nxt.actor, corp})


# ---------------------------------------------------------------------------
# a company's purchase of a private missing: the record's later line uses
# its power in the company's turn (branch m12)

#: how many of the company's lines before the one using the private's power
#: the missing purchase is put before (the latest first)
MISSING_PRIVATE_PLACES = 4
#: the first errors of a private's power used by a company that does not
#: own it: its owner's (a player's), or one its seller uses as he sells it
#: (1889's ER: "made by the player who sells it to a company, at once")
MISSING_PRIVATE_RULES = {"private.power", "private.window"}


@_never_raises
def missing_private_hint(replay, result, search: Optional[Search] = None):
    """The first error is a private's power used in the turn of a company
    that does not own it (``private.power``: its owner a player), and later
    errors follow: the company's purchase of it from that player is read as
    left out just before that line, at the price that explains every later
    line (:func:`_price_search`: the prices the rules take, halved by which
    side a candidate's first later error is on, the seller's net worth in
    the record's result saying which; the first tried the one it gives:
    the seller still holds the private and lacks its price).  The line's
    finding says so; else ``result``.  Never raises."""
    from ..state import Corporation, Player
    errors = [f for f in result.findings if f.severity == ERROR]
    game = result.game
    if len(errors) < 2 or game is None:
        return result
    first = errors[0]
    if first.rule not in MISSING_PRIVATE_RULES or _all_at(errors, first):
        return result
    actions = replay.record.actions
    stop = _position(actions, first)
    if stop is None:
        return result
    a = actions[stop]
    before = _game_before(replay, stop)
    company = before.companies.get(getattr(a, "actor", None)) if before is not None else None
    corp = before.round.whose_turn() if company is not None else None
    owner = getattr(company, "owner", None)
    if company is None or not isinstance(corp, Corporation) or not isinstance(owner, Player):
        return result
    buy = BuyCompany(actor=corp.sym, company=company.sym, price=0, line=a.line,
                     column=a.column, action_id=a.action_id)
    buy.text = f"{corp.sym} buy private {company.sym}"
    bounds = _price_range(before, buy, corp.cash)
    if bounds is None:
        return result
    seller = owner.name
    president = getattr(getattr(corp, "president", None), "name", None)
    s = search if search is not None else Search()
    s.budget = s.budget or BUDGET_FACTOR * max(1, len(actions))
    # (the seller's net worth counts the private at its face value and
    # lacks the price: off by the face value less the price)
    # (then the range's top, the face value and its bottom: a candidate
    # whose errors say no side, its cash keeping the turn open or not, tells
    # nothing of the price)
    d = _worth_off(replay, result, seller)
    guesses = list(dict.fromkeys(([company.value - d] if d else [])
                                 + [bounds[1], company.value, bounds[0]]))

    written = {(f.rule, f.message) for f in result.findings if f.rule.startswith("score.")}
    # the purchase just before the line, or before one of the company's
    # lines before it (the turn it was in), the latest first: the first
    # whose game ends as the record's result says, else of those that
    # explain the record the one ending with the fewest other scores
    places = [stop] + [j for j in range(stop - 1, -1, -1)
                       if getattr(actions[j], "actor", None) == corp.sym][:MISSING_PRIVATE_PLACES]
    found = None
    for j in places:
        at = actions[j]

        def line_of(price, at=at):
            return [dataclasses.replace(buy, price=price, line=at.line, column=at.column,
                                        action_id=at.action_id), at]

        def side(x, any_rule, j=j):
            return _price_side(x, buy, seller, president, j, actions, any_rule=any_rule)

        def mend(got):
            return -_worth_off(replay, got, seller)
        got = _price_search(replay, j, line_of, side, mend, bounds[0], bounds[1], 1, guesses,
                            s, first=first,
                            has_result=seller in (getattr(replay.record, "expected_result", None)
                                                  or {}))
        if s.out_of_budget:
            return result
        if got is None:
            continue
        other = sum(1 for f in got[1].findings if f.rule.startswith("score.")
                    and (f.rule, f.message) not in written)
        if found is None or other < found[0]:
            found = (other, at, *got)
        if not other:
            break
    if found is None:
        return result
    _, at, price, cand, says = found
    money = game.money
    where = "before it" if at is a else f"before {_where(at)}"
    return _adopt(replay, cand, at, first.rule,
                  f"{first.message}; the record's later lines go on as if {corp.sym} had bought "
                  f"{company.sym} from {seller} for {money(price)} {where}{says} (a missing "
                  f"line): taken so", {corp.sym, company.sym, seller})


# ---------------------------------------------------------------------------
# a stock round's purchase or sale missing: the passes left alone end the
# round, and the record goes on with it (branch m12)

#: how many of the round's last passes the missing line is put before
ROUND_PASSES = 4
#: at most this many (pass, line) pairs are tried
ROUND_LINES = 40
#: the search's budget, in times the record's length
ROUND_FACTOR = 20
#: the companies of the record's next this many lines from the first error
#: are those a missing purchase is tried of
ROUND_AHEAD = 60
#: the later errors whose companies are tried first
ROUND_ERRORS = 6


@_never_raises
def missing_round_line_hint(replay, result, search: Optional[Search] = None):
    """The first error is a stock round the rules ended (every player
    passed in a row) that the record goes on with (``round.continues``), and
    later errors follow: a purchase or a sale left out before one of the
    passes that ended it leaves that pass alone.  Before each of the
    :data:`ROUND_PASSES` passes in a row before the line (the latest first),
    its player's purchase of a share of each company the record's lines
    from there on buy, sell or run (from the IPO or the pool), or his sale
    of one or two shares of each company he holds (those of the players the
    later errors name first), is tried; the one that explains every later
    line (of places as good, the latest) is flagged at the pass
    (``stock.purchase_implied``, ``stock.sale_implied``) and the game taken
    so.  Else ``result``.  Never raises."""
    errors = [f for f in result.findings if f.severity == ERROR]
    game = result.game
    if game is None or not errors or errors[0].rule != "round.continues" \
            or _all_at(errors, errors[0]):
        return result
    first = errors[0]
    actions = replay.record.actions
    stop = _position(actions, first)
    if stop is None:
        return result
    players = set(game.player_by_name)
    passes: list = []
    i = stop - 1
    while i > 0 and isinstance(actions[i], Pass) and actions[i].actor in players \
            and len(passes) < ROUND_PASSES:
        passes.append(i)
        i -= 1
    if not passes:
        return result
    before = _game_before(replay, passes[-1])
    if before is None:
        return result
    # the companies the record's lines from the first error on buy, sell or
    # run, in the order named
    named: list = []
    for a in actions[stop:stop + ROUND_AHEAD]:
        for c in ([a.corporation] if isinstance(a, (BuyShares, Par)) else
                  [x.corporation for x in a.sales] if isinstance(a, SellShares) else
                  [a.actor] if getattr(a, "actor", None) in before.corporations else []):
            if c in before.corporations and c not in named \
                    and before.corporations[c].price is not None:
                named.append(c)
    # (the players the later errors name, the first named first; one the
    # next error finds short of cash lacks a sale's money, not a purchase)
    later = list(dict.fromkeys(p for f in errors[1:] for p in sorted(f.involves)
                               if p in players))
    short = {p for p in errors[1].involves if p in players} \
        if errors[1].rule in CASH_SHORT else set()
    # (the companies the later errors name, when some are: a company left
    # unfloated, a share short)
    hot = {c for f in errors[1:ROUND_ERRORS] for c in _named(f, before)
           if c in before.corporations}

    def values(player: str) -> list:
        holder = before.player_by_name[player]
        sales = [("sell", c.sym, n) for c in before.corporations.values()
                 for n in (1, 2) if c.percent_of(holder) >= n * c.share_percent > 0]
        if player in short:
            return sales
        buys = [("buy", c, src) for c in named for src in ("ipo", "pool")]
        # (a sale's cash may be what any later line needs: none left out)
        return ([v for v in buys if v[1] in hot] or buys) + sales

    def lines(i, value):
        nxt = actions[i]
        how, corp, x = value
        if how == "buy":
            put = BuyShares(actor=nxt.actor, corporation=corp, count=1, source=x,
                            line=nxt.line, column=nxt.column)
            put.text = f"{nxt.actor} buys a {corp} share"
        else:
            put = SellShares(actor=nxt.actor, sales=[Sale(corporation=corp, count=x)],
                             line=nxt.line, column=nxt.column)
            put.text = f"{nxt.actor} sells {x} {corp}"
        return [put, nxt]
    # the passes of the players the later errors name first, each the
    # latest first; each place judged alone (a line at a later pass than
    # the one left out may explain the record as well: the latest)
    order = sorted(passes, key=lambda i: (later.index(actions[i].actor)
                                          if actions[i].actor in later else len(later), -i))
    s = search if search is not None else Search()
    one = None
    for i in order:
        todo = [(i, v) for v in values(actions[i].actor)][:ROUND_LINES]
        one = _the_one_explanation(replay, todo, lines, s, nearest=True, spare=1,
                                   factor=ROUND_FACTOR)
        if one is not None or s.out_of_budget:
            break
    if one is None:
        return result
    i, (how, corp, x), cand = one
    nxt = actions[i]
    as_written = (f"(as written: {_where(first)}, {first.message} — the first finding the "
                  f"missing line gives)")
    if how == "buy":
        return _adopt(replay, cand, nxt, "stock.purchase_implied",
                      f"{nxt.actor} passes with no purchase written before, but the record's "
                      f"later lines go on as if he bought a share of {corp} from the "
                      f"{'IPO' if x == 'ipo' else 'pool'} {as_written}: taken as bought before "
                      f"this pass", {nxt.actor, corp})
    return _adopt(replay, cand, nxt, "stock.sale_implied",
                  f"{nxt.actor} passes with no sale written before, but the record's later "
                  f"lines go on as if he sold {x} share{'s' if x > 1 else ''} of {corp} "
                  f"{as_written}: taken as sold before this pass", {nxt.actor, corp})


# ---------------------------------------------------------------------------
# a sale missing before the seller's purchase that needed its cash or its
# certificate's room (branch m12)

#: the first errors of a purchase a sale before it in the turn would allow
SALE_BEFORE_RULES = {"stock.cash", "stock.cert_limit"}
#: at most this many sales are tried
SALE_BEFORE_LINES = 16


@_never_raises
def missing_sale_hint(replay, result, search: Optional[Search] = None):
    """The first error is a player's purchase of a share he cannot pay for
    or hold (``stock.cash``, ``stock.cert_limit``: taken as bought), and
    later errors follow: his sale before it in the turn, left out, gave the
    cash or the room.  A sale of one or two shares of each company he holds
    is put just before the purchase; the one that explains every later line
    (:func:`_the_one_explanation`) is taken, the purchase's finding saying
    so (``stock.sale_implied``).  Else ``result``.  Never raises."""
    errors = [f for f in result.findings if f.severity == ERROR]
    game = result.game
    if game is None or not errors or errors[0].rule not in SALE_BEFORE_RULES \
            or _all_at(errors, errors[0]):
        return result
    first = errors[0]
    actions = replay.record.actions
    stop = _position(actions, first)
    if stop is None or not isinstance(actions[stop], (BuyShares, BuyCompany)) \
            or actions[stop].actor not in game.player_by_name:
        return result
    at = actions[stop]
    rounds: dict = {}
    before = _game_before(replay, stop, rounds)
    if before is None:
        return result
    holder = before.player_by_name[at.actor]
    sales = [(c.sym, n) for c in before.corporations.values()
             for n in (1, 2) if c.percent_of(holder) >= n * c.share_percent > 0]
    todo = [(stop, v) for v in sales][:SALE_BEFORE_LINES]
    if not todo:
        return result
    # (and more of one company's shares, up to all he holds: 1860_rand_18602_0
    # #168, Player 1's 60% of C&N)
    more = [(stop, (c.sym, n)) for c in before.corporations.values() if c.share_percent > 0
            for n in range(3, c.percent_of(holder) // c.share_percent + 1)]
    # (then before each of his earlier lines of the round that is no sale,
    # the latest first, as many as the tries left allow: a sale left out of
    # an earlier turn, 1860_rand_54000014_1 #490, Player 2's FYN sold in the
    # turn before his purchase of FFC at #501; the shares he holds now, a
    # sale of the purchase's company aside)
    earlier = [j for j in range(stop - 1, -1, -1) if rounds.get(j) == rounds.get(stop - 1)
               and getattr(actions[j], "actor", None) == at.actor
               and not isinstance(actions[j], SellShares)]
    later = more + ([(j, v) for j in earlier for v in sales
                     if v[0] != getattr(at, "corporation", None)]
                    if rounds.get(stop - 1) is not None else [])
    later = later[:SALE_BEFORE_LINES]

    def lines(i, value):
        corp, n = value
        there = actions[i]
        put = SellShares(actor=at.actor, sales=[Sale(corporation=corp, count=n)],
                         line=there.line, column=there.column, action_id=there.action_id)
        put.text = f"{at.actor} sells {n} {corp}"
        return [put, there]
    s = search if search is not None else Search()
    one = _the_one_explanation(replay, todo, lines, s, spare=1, factor=ROUND_FACTOR)
    if one is None and later and not s.out_of_budget:
        # (right before the purchase first, as before; else earlier, the
        # nearest of those as good)
        one = _the_one_explanation(replay, later, lines, Search(), spare=1, factor=ROUND_FACTOR,
                                   nearest=True)
    if one is None:
        return result
    i, (corp, n), cand = one
    message = _words_before(first.message, "; taken as")
    if i != stop:
        return _adopt(replay, cand, actions[i], "stock.sale_implied",
                      f"the record's later lines go on as if {at.actor} sold {n} "
                      f"share{'s' if n > 1 else ''} of {corp} before this line (as written: "
                      f"{_where(first)}, {message} — the first finding the record gives): taken "
                      f"so (a missing line)", {at.actor, corp})
    return _adopt(replay, cand, at, "stock.sale_implied",
                  f"{message}; the record's later lines go on as if {at.actor} sold {n} "
                  f"share{'s' if n > 1 else ''} of {corp} before it (a missing line): taken so",
                  {at.actor, corp})


# ---------------------------------------------------------------------------
# a par missing: a later purchase of the company's shares finds it not
# started (session lead12)

#: how many of the players' passes before the purchase the par is put before
PAR_PASSES = 8
#: at most this many errors before the purchase (the record's own: a
#: finding the site lets through); more are a record in disorder, whose
#: purchase is out of place rather than its par missing
PAR_EARLIER = 2


@_never_raises
def missing_par_hint(replay, result, search: Optional[Search] = None):
    """The first error of its kind is a purchase of a share of a company
    nobody parred (``stock.not_parred``), and later errors follow: the par left out was
    its president's, before a pass of his that closed a turn of his own
    (an export writes a par and the turn's closing pass).  Before each of
    the :data:`PAR_PASSES` latest players' passes before the purchase (the
    buyer's first, each the latest first), a par of that company at each
    par value is tried; the one that explains every later line (of those
    as good, the latest) is flagged at the pass (``stock.par_missing``) and
    the game taken so.  Else ``result``.  Never raises."""
    errors = [f for f in result.findings if f.severity == ERROR]
    game = result.game
    # (the first of its kind: an error before it, a finding a published rule
    # backs in a game the site let through, is the record's own, which a
    # candidate keeps: the real 1889 game 314's route.blocked at #367)
    first = next((f for f in errors if f.rule == "stock.not_parred"), None)
    if game is None or first is None \
            or _all_at([f for f in errors if not _before(f, first)], first) \
            or sum(1 for f in errors if _before(f, first)) > PAR_EARLIER:
        return result
    actions = replay.record.actions
    stop = _position(actions, first)
    if stop is None or not isinstance(actions[stop], BuyShares):
        return result
    buy = actions[stop]
    corp = game.corporations.get(buy.corporation)
    players = set(game.player_by_name)
    if corp is None or buy.actor not in players:
        return result
    pars = {a.corporation for a in actions if isinstance(a, Par)}
    if not pars or corp.sym in pars:
        # (a record with no par: its companies start otherwise, 18Ireland's
        # minors at auction; a par the record writes elsewhere: the purchase
        # is out of place, not the par missing, as in a shuffled record)
        return result
    passes = [i for i in range(stop - 1, -1, -1)
              if isinstance(actions[i], Pass) and actions[i].actor in players][:PAR_PASSES]
    if not passes:
        return result
    values = sorted({c.price for c in game.market.par_cells}, reverse=True)
    order = sorted(passes, reverse=True)

    def lines(i, value):
        nxt = actions[i]
        put = Par(actor=nxt.actor, corporation=corp.sym, price=value, line=nxt.line,
                  column=nxt.column)
        put.text = f"{nxt.actor} pars {corp.sym} at {value}"
        return [put, nxt]
    # the buyer's passes first, a search of their own (he is most often the
    # president who parred), then everybody's
    buyers = [(i, v) for i in order if actions[i].actor == buy.actor for v in values]
    one = _the_one_explanation(replay, buyers, lines, Search(), nearest=True, spare=1,
                               factor=ROUND_FACTOR) if buyers else None
    if one is None:
        todo = [(i, v) for i in order if actions[i].actor != buy.actor for v in values]
        one = _the_one_explanation(replay, todo, lines,
                                   search if search is not None else Search(),
                                   nearest=True, spare=1, factor=ROUND_FACTOR) if todo else None
    if one is None:
        return result
    i, value, cand = one
    nxt = actions[i]
    money = game.money
    return _adopt(replay, cand, nxt, "stock.par_missing",
                  f"{nxt.actor} passes with no par written before, but the record's later lines "
                  f"go on as if he parred {corp.sym} at {money(value)} (as written: "
                  f"{_where(first)}, {first.message} — the first finding the missing line "
                  f"gives): taken as parred before this pass", {nxt.actor, corp.sym})
