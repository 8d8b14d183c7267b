"""Rounds as the record has them: the replay keeps to the record's own
sequence of rounds rather than inventing rounds to place an action.

* a stock round that ended by the rules (everybody passed) while the record
  goes on with it is taken up again (``round.continues``), the start of the
  next round being undone; an operating round whose last turn ended by
  itself, while the record goes on with that company, is taken up again
  silently (its action is checked as part of that turn);
* an action that does not fit the round, while the record's next action
  does, is out of place: the round reports it and goes on;
* an action closes the round it does not fit; an operating round closed
  without any action of the record (one the record never played) gives one
  finding (``round.skipped``) for the duties its companies missed, instead
  of one per company;
* a round marker is checked against the round the rules make; a wrong one
  is said, and the replay never plays rounds to reach it.

:class:`RecordRounds` is the replay's (``engine.Replay.rounds``); what differs
by the kind of round is a ``RoundFollower`` of that round (``base.py``),
chosen by ``followers.follower_for`` (the stock round's, the operating
round's, an auction's), kept with the game's state (``Game.following.round``).  The
rounds give them a small interface: whose turn it is, which turn ended the
round by itself, the order of the turns.
"""

from __future__ import annotations

import os

from ..actions import Checkpoint, Pass, RoundMarker
from ..fastcopy import deepcopy
from ..findings import ERROR, RuleViolation, plural
from ..market import restore_price
from .auction import missing_pass, wrong_name_turn_bid
from . import repair as _repair
from .followers import follower_for
from .lookahead import first_replays_choice, game_memo, keep_choice, put_back
from .run import missing_run
from .station import missing_station
from .unwritten import unwritten_step
from .stock import missing_turn_line, wrong_name_due, wrong_name_line


#: the end reason of a game the players ended by agreement (18xx.games'
#: ``end_game`` action, its export's ``game_end_reason``; the notation's
#: ``end: manually_ended``): the game ends where the record stops
MANUAL_END = "manually_ended"


class RecordRounds:
    """The replay's rounds as the record has them (see the module).  A title whose
    rounds are its record's own (1890: each begins at the record's marker, checked against
    the rules by the title) gives a subclass (``Title.record_rounds``) with the switches
    below turned and the methods where it reads the record otherwise."""

    #: the record's round markers start its rounds (True: checked against the round the
    #: rules make, :meth:`round_marker`, never before the game's end is said)
    record_marks_rounds = False
    #: a round the rules ended gives way to the next by the rules (``Replay.advance``)
    rules_end_rounds = True
    #: the hints (``following/diagnose.py``) look for one line that explains the errors
    hints = True

    def __init__(self, replay):
        self.replay = replay
        #: the round that ended by the rules, with the state before the next
        #: round started, while that round has taken no action (see resume)
        self.ended = None
        #: share prices before the last action of a round whose end may move
        #: them (a stock round's)
        self.price_marks = None
        #: the place of the record's current action (the replay's, not
        #: restored with the game's state when a round is taken up again)
        self.position = -1
        #: actions of the record the current round has been given
        self.round_actions = 0
        #: the round the record's last round marker named (when it matched)
        self.marked_round = None

    @property
    def game(self):
        return self.replay.game

    def at(self, position: int) -> None:
        """The replay has reached the record's action at ``position``."""
        self.position = position

    @property
    def next_action(self):
        """The record's action after the current one."""
        acts = self.replay.record.actions
        return acts[self.position + 1] if self.position + 1 < len(acts) else None

    def follower(self):
        return self.game.following.round

    def begin(self) -> None:
        """The game is set up: its first round begins, before the record's first
        action."""
        self.replay.start_next_round()

    def record_ends(self) -> None:
        """The record ends (after its last action, or where the replay stopped): a pending
        end closed, the game ended by agreement where the record says so."""
        g, replay = self.game, self.replay
        if not g.finished and replay.stop_at is None:
            self.close_at_end()
            if not g.finished and replay.record.expected_end_reason == MANUAL_END:
                # the players ended the game by agreement where the record stops
                # (18xx.games' "end game"): scored as it stands
                g.finish(MANUAL_END)

    def tentative(self, action):
        """What the notation read tentatively in ``action`` (a line that parses with one
        keyword only), or None."""
        return getattr(action, "tentative", None)

    def written_twice(self, action):
        """The record's line before ``action`` when ``action`` repeats it word for word
        (``Following.written_twice``), else None."""
        return self.game.following.written_twice(action)

    # ------------------------------------------------------------------

    def started(self, rnd) -> None:
        """A round began (the rules made it)."""
        self.game.following.begin_round(follower_for(rnd))
        self.round_actions = 0

    def ended_by_rules(self) -> None:
        """The current round just ended by the rules, before the next one
        begins: its state is kept when the record goes on with it."""
        follower = self.follower()
        if follower.record_goes_on(self.next_action):
            self.ended = (follower, save_state(self.game), self.price_marks)

    def taken(self) -> None:
        """The current round took (or refused) the record's action."""
        self.ended = None

    def weighs_outcomes(self) -> bool:
        """Whether :meth:`reconsider` judges another outcome of a line (not
        in a look-ahead's trial, nor in the purity check, which keeps the
        rules' own outcomes)."""
        return not (getattr(self.replay, "trying", False) or self.replay.check_purity)

    def reconsider(self, before) -> None:
        """The line just taken (and the rounds advanced) had another outcome
        the rules offered (``Following.other_outcome``): when the record's
        next lines go on from it with fewer errors (``lookahead.best_reading``,
        the outcome as taken being the line as written), it is made, and the
        line flagged ``bankrupt.leftovers`` with the rules' words.
        ``before``: the state (:meth:`save_all`) after the line, before the
        rounds advanced: the outcome is made there and the rounds advanced
        again from it (a bankrupt player's private kept draws its income at
        the next operating round's start, 18Ireland_rand_144210417_1 #33)."""
        replay = self.replay
        g = replay.game
        other, g.following.other = g.following.other, None
        if other is None or before is None or not self.weighs_outcomes():
            return
        from .lookahead import EVIDENCE_HORIZON, Reading, best_reading
        apply, says = other
        state = [before]

        def make():
            # (the saved state is taken once by a restore: saved again, for
            # the next trial or the outcome made)
            self.restore_all(state[0])
            state[0] = self.save_all()
            game = replay.game
            game.following.other = None
            apply(game)
            self.taken()
            ended, replay.on_round_end = replay.on_round_end, None
            try:
                replay.advance()
            finally:
                replay.on_round_end = ended
        position = g.following.position
        first = first_replays_choice(replay, position)
        if first is not None:
            # (a hint's candidate, the same record up to a later line: the
            # first replay's choice, as for a refused line's reading)
            i = first[0]
        else:
            # (judged over the long horizon in a hint's candidate too: what
            # tells the two apart is often far on, a purchase of a private
            # from him or a price his shares moved, and a candidate choosing
            # otherwise than the record's own replay explains nothing)
            quick, replay.quick = getattr(replay, "quick", False), False
            # (what tells them apart may come at the end of the game: a
            # bankrupt player's share counted in a merger's vote 500 lines
            # on, 18Ireland_rand_714263793_1 #93 -> #594; the record's rest
            # is the evidence, as far as the look-ahead reaches)
            rest = min(len(replay.record.actions) - position - 1, EVIDENCE_HORIZON)
            try:
                i = best_reading(replay, [Reading(make, says)], evidence=rest)
            finally:
                replay.quick = quick
            keep_choice(replay, position, i, None if i is None else says)
        if i == 0:
            self.apply_reading(Reading(make, says))
            g.flag("bankrupt.leftovers", says)

    def repair(self, action, violation):
        """The reading of a line the rules refused that the record's next
        lines go on from (``following/repair.py``), or None."""
        return _repair.repair(self.replay, action, violation)

    def apply_reading(self, reading) -> None:
        """Make a reading :meth:`repair` chose (the rules accepted it when it
        was tried; should they refuse it now, the state is put back)."""
        saved = self.save_all()
        try:
            reading.apply()
        except RuleViolation:
            if os.environ.get("RAILCHECK_RAISE"):
                raise
            self.restore_all(saved)

    def drop_copy(self, first, saved, n_findings: int) -> bool:
        """The current line repeats ``first``, the record's line before it,
        word for word.  When the rules flagged it and took it (a turn taken
        out of order), or refused it and it was read otherwise (a repair),
        and the record's
        next lines go on no worse from the line written once
        (``lookahead.better_once``), the line was written twice: the state
        goes back to ``saved`` (before the copy) and the copy's first error
        stands alone, saying so (True).  A copy the rules take with no error
        (a line they allow twice) in an export (whose lines name each train
        and certificate: the same line twice is no second purchase) is
        dropped only when the record's next lines go on with fewer errors
        without it (``record.twice``).  Else
        False: the copy stands as taken (a vote under the name of the voter
        before it, read as the voter the round asks for).  ``saved`` is used
        up."""
        g = self.game
        errors = [f for f in g.findings[n_findings:] if f.severity == ERROR]
        where = f"line {first.line}" if first.line else f"#{first.action_id}"
        from .lookahead import better_once
        if not errors:
            if not g.following.from_export:
                # a hand-written record may mean a legal line twice (two
                # 2-trains); an export names each train and certificate
                return False
            got = better_once(self.replay, saved)
            if got is None:
                return False
            g.flag("record.twice",
                   f"the line repeats {where} word for word, and the record's next lines go "
                   f"on as if it were written once ({got[0]} errors in the next lines with "
                   f"the copy, {got[1]} without): taken as written twice, the copy dropped")
            return True
        rule, message = errors[0].rule, errors[0].message
        if getattr(self.replay, "trying", False):
            self.restore_all(saved)     # (within a look-ahead: dropped, as before)
        elif better_once(self.replay, saved, prefer_once=True) is None:
            return False
        g.flag(rule, f"{message}; the line repeats {where} word for word: taken as written "
                     f"twice, the copy dropped")
        return True

    def save_all(self):
        """The replay's whole changing state (``following/lookahead.py``)."""
        from .lookahead import save
        return save(self.replay)

    def restore_all(self, saved) -> None:
        """Back to a state :meth:`save_all` saved."""
        from .lookahead import restore
        restore(self.replay, saved)

    def place(self, action):
        """The current round is about to be given the record's ``action``:
        put it where the record says the action stands (whose turn it is);
        returns the action as the round is to take it (a station named by a
        tile's city, on the hex the replay has that tile on)."""
        self.mark_prices()
        self.round_actions += 1
        g = self.game
        action = g.following.as_laid(g.board, action)
        if g.pending_par is not None:
            from .stock import play_missing_pending_par
            play_missing_pending_par(g, action)
        # (imported with the module: an import in here costs each action)
        if not missing_turn_line(self.replay, action):
            if not missing_pass(self.replay, action):
                action = wrong_name_turn_bid(self.replay, action) or action
            action = wrong_name_line(self.replay, action) or action
            action = wrong_name_due(self.replay, action) or action
        g.following.round.place(action)
        unwritten_step(self.replay, action)
        missing_run(self.replay, action)
        missing_station(self.replay, action)
        return action

    # ------------------------------------------------------------------

    def close_rounds_before(self, action):
        """Close the round the action does not fit (the record moved on).  An
        operating round that is closed without a single action of the record
        is not played: the duties its companies missed are one finding
        (``round.skipped``), not one per company."""
        g = self.game
        if self.closing_pass(action) and self.resume_round(action):
            return
        if g.round.wants(action) or self.follower().keeps(action):
            return
        if self.resume_round(action):
            return
        if self.record_stays(g.round):
            return      # out of place: the round itself reports it
        self.follower().refuse_unentered(self, action)
        skipped: list = []
        guard = 0
        while not g.finished and not g.round.wants(action) and guard < 10:
            rnd = g.round
            if self.follower().gathers_unplayed and self.round_actions == 0:
                self.skip_round(rnd, skipped)
            else:
                rnd.finish_round()
            self.replay.advance()
            guard += 1
        if skipped:
            labels = ", ".join(label for label, _ in skipped)
            missed = sum(n for _, n in skipped)
            g.flag("round.skipped",
                   f"{action.actor}'s '{action.verb}' belongs to a later round: the record has "
                   f"no action of {labels}, whose companies take no turn ({missed} missed "
                   f"dut{'y' if missed == 1 else 'ies'}, such as running trains; now "
                   f"{g.round.label})")

    def closing_pass(self, action) -> bool:
        """A pass by the company whose turn ended the last round, before
        anything of the next one (see ``RoundFollower.closes_with_pass``)."""
        if self.ended is None or self.round_actions or not isinstance(action, Pass):
            return False
        return self.ended[0].closes_with_pass(action, self.follower())

    def skip_round(self, rnd, skipped: list):
        """Close a round the record never played: its companies take an empty
        turn; what they missed is gathered into one finding."""
        g = self.game
        n = len(g.findings)
        rnd.finish_round()
        missed = [f for f in g.findings[n:] if f.severity == ERROR]
        if not missed:
            return
        del g.findings[n:]
        skipped.append((rnd.label, len(missed)))

    def resume_round(self, action) -> bool:
        """The rules ended a round, the next round has not taken an action
        yet, and the record goes on with the ended one: take it up again."""
        if self.ended is None:
            return False
        follower, saved, marks = self.ended
        return follower.resume(self, action, saved, marks)

    def restore(self, saved, marks) -> None:
        """Back to the state ``saved`` when the round ended (undoing what its
        end did to the share prices, ``marks``); the round has been given
        the record's action."""
        restore_state(self.game, saved, marks)
        # (the record-following layer's place was saved with the game when
        # the round ended, a line before: the replay is at this line)
        self.game.following.at(self.position)
        self.round_actions = 1
        self.ended = None

    def passed_over_pass(self, action) -> bool:
        """A pass written for a player whom the round that just ended passed
        over without a word, when the round now being played has no place
        for it."""
        if self.ended is None or not isinstance(action, Pass) or self.game.round.wants(action):
            return False
        return self.ended[0].passed_over_pass(action)

    def record_stays(self, rnd) -> bool:
        """The record's next action still fits the round: the action that
        does not is out of place, and does not end the round."""
        nxt = self.next_action
        if nxt is None or isinstance(nxt, (Checkpoint, RoundMarker)):
            return False
        return rnd.wants(nxt)

    def mark_prices(self):
        """Share prices (cell and place in its stack) before an action of a
        round whose end may move them (a stock round's sold-out rise)."""
        g = self.game
        if g.round is None or not self.follower().marks_prices:
            self.price_marks = None
            return
        marks = {}
        for c in g.corporations.values():
            cell = c.price
            if cell is not None:
                try:
                    marks[c] = (cell, g.market.stack(cell).index(c))
                except ValueError:
                    pass        # (not in its cell's stack)
        self.price_marks = marks

    def close_at_end(self):
        """The record ends: close the round when its last turn has begun and
        closing it ends the game (a pending end: the bank broke).  Not in the
        record of a game still in progress (an export whose status is not
        "finished"): it stops where play stopped, possibly in the middle of a
        turn (random 18Ireland 33000016_0, #816: WLWR passes its track step,
        its run still to come), and nothing is ended or owed there."""
        g = self.game
        r = g.round
        if self.replay.record.in_progress:
            return
        if self.follower().closes_at_record_end():
            last = g.current_action
            n = len(g.findings)
            g.current_action = None
            r.finish_round()
            self.replay.advance()
            if last is not None:
                # a duty left undone when the record ends: at the record's last action
                for f in g.findings[n:]:
                    if f.line is None and f.action_id is None:
                        f.line, f.column, f.action_id, f.text = (last.line, last.column,
                                                                 last.action_id, last.text)

    # ------------------------------------------------------------------

    def round_marker(self, action: RoundMarker):
        g = self.game
        want = _marker_label(action)
        if g.round.label == want:
            self.marked_round = g.round
            return
        r = g.round
        never = g.title.no_more(action.kind)
        if never is not None:
            # the rules make no such round any more: the marker is wrong, and
            # the replay stays where it is (it never plays rounds to reach it)
            g.flag("round.marker", f"the record says '{want}' here, but {never}; the rules "
                                   f"make this {r.label}")
            self.marked_round = r
            return
        if self.follower().wrong_marker(self):
            # the record goes on with the players' actions of the round that
            # has just begun: the marker is wrong, not the round
            g.flag("round.marker", f"the record says '{want}' here, but the rules make this "
                                   f"{r.label}, and the record goes on with its players")
            return
        self.follower().close_for_marker(want)
        self.replay.advance()
        if not g.finished and g.round.label != want:
            g.flag("round.marker", f"the record says '{want}' here, but the rules make this "
                                   f"{g.round.label} (phase {g.phase.name}: "
                                   f"{plural(g.or_count, 'OR')} per set)")


def _marker_label(action: RoundMarker) -> str:
    if action.kind == "auction":
        return "auction"
    return f"{action.kind} " + ".".join(str(n) for n in action.number)


def save_state(g):
    """The game's changing state (not its rules, findings or callbacks)."""
    state = deepcopy(dict(g.__dict__), game_memo(g))
    return state, (g.board.snapshot() if g.board is not None else None), len(g.findings)


def restore_state(g, saved, marks):
    put_back(g, *saved)
    if marks:
        # undo what the end of the stock round did to the prices
        moved = {c.sym: c for c in g.corporations.values()}
        for corp, (cell, index) in marks.items():
            corp = moved[corp.sym]
            restore_price(g.market, corp, g.market.cell(cell.row, cell.col), index)
