"""The replay loop: one game state, every action asked of the current round.

Like a PGN reader, the loop never stops at the first problem: a refused
action is reported and skipped, a finding about an applied action is
reported and the game goes on.  A later finding is marked as a consequence
of an earlier one only when its action involves what the earlier one
touched (``Game.flag``).

For each action of the record the loop asks the record-following layer
(``railcheck.following``) first: which round the record has the action in
(``RecordRounds.close_rounds_before``: rounds the record moved on from are
closed, a round the rules ended and the record goes on with is taken up
again) and where in that round it stands (``RecordRounds.place``: whose
turn it is); then the round, which holds only the rules, checks the action
and applies it (``Round.process``).  The loop knows no kind of round.
"""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass, field
from typing import Any, Optional

from .actions import Checkpoint, GameRecord, RoundMarker
from .findings import ERROR, INFO, WARNING, Finding, InputError, RuleViolation
from .following import Following
from .following.rounds import MANUAL_END, RecordRounds
from .game import Game
from .ruleset import Ruleset, load_ruleset
from .unsure import CHECKPOINTS, NOT_TRACKED, price_key


@dataclass
class Result:
    path: str
    title: Optional[str]
    players: list[str] = field(default_factory=list)
    finished: bool = False
    end_reason: Optional[str] = None
    findings: list[Finding] = field(default_factory=list)
    standings: list[dict] = field(default_factory=list)
    companies: list[dict] = field(default_factory=list)
    actions: int = 0
    round: str = ""
    phase: str = ""
    bank: int = 0
    currency: str = "$"
    #: which ruleset played the game: name, file (a user's), what it extends
    ruleset: Optional[dict] = None
    game: Optional[Game] = None

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == ERROR]

    @property
    def legal(self) -> bool:
        return not self.errors

    def to_dict(self) -> dict:
        return {
            "path": self.path,
            "title": self.title,
            "ruleset": self.ruleset,
            "players": self.players,
            "finished": self.finished,
            "end_reason": self.end_reason,
            "actions": self.actions,
            "round": self.round,
            "phase": self.phase,
            "bank": self.bank,
            "findings": [f.to_dict() for f in self.findings],
            "standings": self.standings,
            "companies": self.companies,
        }


class Replay:
    """Replays a GameRecord under its title's ruleset."""

    def __init__(self, record: GameRecord, rules: Optional[Ruleset] = None, *,
                 check_board: bool = True, stop_at: Optional[int] = None,
                 check_purity: bool = False, hints: Optional[bool] = None,
                 purity_from: Optional[int] = None):
        self.record = record
        if rules is None:
            if not record.title:
                raise InputError("the game names no title", path=record.path)
            rules = load_ruleset(record.ruleset or record.title, record.options,
                                 components=record.components)
        self.rules = rules
        self.check_board = check_board
        self.stop_at = stop_at
        #: prove that refusals change nothing: snapshot the state before each
        #: action, compare after a refusal (slow: for tests)
        self.check_purity = check_purity
        #: with check_purity: only from the export's action with this id on
        #: (a test that changed one action of a legal game: the actions before
        #: it replay as the legal game did, with no refusal to prove)
        self.purity_from = purity_from
        #: after a replay with errors, look for one par that explains them
        #: (railcheck/following/diagnose.py); never with observers or a stop.  Default:
        #: on, unless RAILCHECK_NO_HINTS is set (``validate --no-hints``)
        self.hints = not os.environ.get("RAILCHECK_NO_HINTS") if hints is None else hints
        self.refusals: list = []        # (action, round kind) of each refusal seen
        self.impure: list = []          # (action, kind, rule, what changed) of refusals that changed the state
        self.after_action = None   # optional callback(game, action), for traces
        self.before_action = None  # optional callback(game, action): the round that takes it
        #: optional callback(game, action) right after the round took (or refused)
        #: the action, before the next round may begin (for the analyser)
        self.on_action = None
        #: optional callback(game, round): a round ended, before the next begins
        self.on_round_end = None
        #: the rounds as the record has them (``following/rounds.py``; a title
        #: whose rounds are the record's own has the layer's hook of its own,
        #: ``Title.record_rounds``: 1890's)
        cls = rules.title_class
        self.rounds = cls.record_rounds(self) if cls is not None else RecordRounds(self)
        #: a bug of ours stopped the replay (``take`` said "stop")
        self.broke = False
        #: optional callback(game, violation), asked where the rules refused
        #: the current line: True when this replay stops at the line's finding
        #: (an error of the violation's rule at the line) whatever reading of
        #: the line the record goes on from, so that none is searched for (a
        #: hint's candidate, ``following/diagnose.py``: its watch stops at it)
        self.refusal_stops = None
        #: the reading each refused line was given (``following/repair.py``),
        #: by the record's position: a hint's candidate replays of the same
        #: record take them up to the line they change
        self.repairs: dict = {}
        #: the record's lines as written, kept by :meth:`begin` for the hints
        self.written: Optional[list] = None

    def run(self) -> Result:
        self.begin()
        for position in range(len(self.record.actions)):
            if not self.play(position):
                break
        return self.end()

    def begin(self) -> None:
        """The game set up and its first round begun, before the record's
        first action (``run`` is ``begin``, ``play`` of each action, ``end``;
        ``railcheck/table/incremental.py`` resumes a replay between them)."""
        rec = self.record
        cls = self.rules.title_class
        try:
            g = cls.new_game(self) if cls is not None else None
            if g is None:
                g = Game(self.rules, rec.players, check_board=self.check_board, tags=rec.tags)
        except RuleViolation as v:
            loc = rec.tag_locations.get("players", (None, None))
            raise InputError(v.message, path=rec.path, line=loc[0], column=loc[1]) from None
        self.game = g
        g.following = Following(rec.actions, from_export=rec.from_export)
        g.following.weighs_sales = not self.check_purity
        self.game_over_reported = False
        self.rounds.begin()
        self.count = 0
        if self.hints and self.written is None:
            # the record's lines as written, for the hints' candidates: the
            # rules fill in what a line leaves out (a share's source, a
            # private's seller, a train's id) on the action they take, which
            # ``convert`` writes out, but a candidate replays the lines as
            # written (a seller the record's cascade filled in refused the
            # par hint's right candidate: 1830_rand_59000004_1 #123)
            self.written = [copy.copy(a) for a in rec.actions]

    def play(self, position: int) -> bool:
        """The record's action at ``position``: the record-following layer
        says which round takes it and where it stands, the round checks and
        applies it (:meth:`take`); False when the replay stops there (the
        stop point, or a bug of ours)."""
        action = self.record.actions[position]
        if self.stop_at is not None and _passed(action, self.stop_at, self.count):
            return False
        self.count += 1
        if self.take(position, action) == "stop":
            self.broke = True
            return False
        return True

    def end(self) -> Result:
        """The record's end: a pending game end closed, the result scored
        (with the hints' explanation, :meth:`explained`)."""
        self.rounds.record_ends()
        res = self.result(self.count)
        if self.hints:
            res = self.explained(res)
        return res

    def explained(self, res: Result) -> Result:
        """``res``, this replay's result as :meth:`end` scored it, as the
        hints explain it (``following/diagnose.py``): ``res`` itself when it
        has no error, when the replay stopped early or was observed, or when
        no hint explains it.  :meth:`end` asks when the hints are on; a
        replay made with them off may ask after its run, for the same answer
        as the replay with them on (the tests that compare the two)."""
        if not (self.rounds.hints and res.errors and self.stop_at is None
                and not self.observed()):
            return res
        from .following.diagnose import (copy_named_later_hint, dividend_hint, home_station_hint, merger_hint,
                                         minor_bid_hint, minor_price_hint,
                                         missing_dividend_hint,
                                         missing_issue_hint, missing_joining_lay_hint,
                                         missing_lay_hint,
                                         missing_par_hint,
                                         missing_private_hint, missing_purchase_hint,
                                         missing_round_line_hint, missing_sale_hint,
                                         price_hints_judged, for_hints,
                                         neighbour_tile_hint, par_hint,
                                         private_price_hint, raise_price_hint,
                                         refused_lay_hint, refused_station_hint,
                                         rotation_hint, token_city_hint, turn_bid_hint,
                                         turn_bid_price_hint,
                                         train_run_by_other_hint, turned_tile_hint,
                                         upgraded_tile_hint, written_hint)
        # (a finding taken as the record has it, the replay in step with the
        # record after it, is no first error for a hint to explain: each
        # hint is given the result without it, ``diagnose.for_hints``)
        full, res = res, for_hints(res)
        view = res
        written = self.game
        hinted = par_hint(self, res)
        par = hinted
        # (a line left out whose first error says which kind of line, before
        # the hints that take another line's value: a dividend of another
        # kind may mend the cash it shows later, not the first error)
        if hinted is res:   # a company's purchase of a private missing, its power used
            hinted = missing_private_hint(self, res)
        if hinted is res:   # a stock round's purchase or sale missing, the round ended
            hinted = missing_round_line_hint(self, res)
        if hinted is res:   # a par missing, a later purchase finding the company unstarted
            hinted = missing_par_hint(self, res)
        if hinted is res or hinted is par:
            # the same first errors as a par's: a dividend of another kind,
            # asked even when a par explains the record (of the two, the one
            # the record's result or nearness says: :func:`price_hints_judged`)
            self.game = written
            hinted = price_hints_judged(res, [par, dividend_hint(self, res)])
            self.game = hinted.game
        if hinted is res:   # a price or revenue taken as written
            hinted = written_hint(self, res)
        if hinted is res:   # a dividend line missing
            hinted = missing_dividend_hint(self, res)
        if hinted is res:   # a train purchase missing, the later runs naming its buyer
            hinted = train_run_by_other_hint(self, res)
        if hinted is res:   # a merger vote or proposal
            hinted = merger_hint(self, res)
        if hinted is res:   # a company's issue line missing (18Ireland)
            hinted = missing_issue_hint(self, res)
        if hinted is res:   # a player's share purchase missing
            hinted = missing_purchase_hint(self, res)
        if hinted is res:   # a bid for the turn under the minimum
            hinted = turn_bid_hint(self, res)
        if hinted is res:   # a bid for the turn at a legal but wrong price
            hinted = turn_bid_price_hint(self, res)
        if hinted is res:   # a private bought at a legal but wrong price
            hinted = private_price_hint(self, res)
        if hinted is res:   # a minor's raise missing, at another price
            hinted = raise_price_hint(self, res)
        if hinted is res:   # a minor's bid under the least, at another price
            hinted = minor_bid_hint(self, res)
        if hinted is res:   # a minor won at a legal but wrong price
            hinted = minor_price_hint(self, res)
        if hinted is res:   # a sale missing before a purchase it paid for
            hinted = missing_sale_hint(self, res)
        res = full if hinted is view else hinted
        full, res = res, for_hints(res)
        view = res
        if res.errors:      # the two look at first errors of different kinds
            hinted = rotation_hint(self, res)
            if hinted is res:   # a home station in a legal but wrong city
                hinted = home_station_hint(self, res)
            # track elsewhere than a rotation: when no rotation explains
            if hinted is res:   # a lay taken turned that was another tile
                hinted = turned_tile_hint(self, res)
            if hinted is res:   # a station in another city of its hex
                hinted = token_city_hint(self, res)
            if hinted is res:   # a lay of another tile than the later upgrade keeps
                hinted = upgraded_tile_hint(self, res)
            if hinted is res:   # a lay of another tile, whose copy a later lay names
                hinted = copy_named_later_hint(self, res)
            if hinted is res:   # a lay of another tile, the next lay meeting other track
                hinted = neighbour_tile_hint(self, res)
            if hinted is res:   # a lay missing that a later upgrade or run needs
                hinted = missing_lay_hint(self, res)
            if hinted is res:   # a station refused, the later runs from another city
                hinted = refused_station_hint(self, res)
            if hinted is res:   # a lay refused, the later lines using it elsewhere
                hinted = refused_lay_hint(self, res)
            if hinted is res:   # a lay missing that a later lay, station or run's worth needs
                hinted = missing_joining_lay_hint(self, res)
            res = hinted
        if res is view:
            res = full
        # (the record replayed as the candidates replay it, with its kept
        # states: the hints' searches are over)
        self._hint_prefix = self._hint_trials = None
        return res

    def take(self, position: int, action):
        """The record's action at ``position``: placed, checked and applied
        (or refused, flagged); "stop" when the replay cannot go on (a bug
        of ours)."""
        g = self.game
        self.rounds.at(position)
        g.current_action = action
        g.following.at(position)
        if isinstance(action, Checkpoint):
            self.checkpoint(action)
            return None
        if isinstance(action, RoundMarker) and self.rounds.record_marks_rounds:
            # the record's own rounds (1890's): a marker starts the round it
            # names, after the game's end too
            self.rounds.round_marker(action)
            return None
        if g.finished:
            if not self.game_over_reported:
                g.flag("game.over", f"the game already ended ({_reason(g.end_reason)}); "
                                    f"this and any later action is ignored")
                self.game_over_reported = True
            return None
        if isinstance(action, RoundMarker):
            self.rounds.round_marker(action)
            return None
        before = None
        if self.rounds.passed_over_pass(action):
            if self.after_action is not None:
                self.after_action(g, action)
            return None
        tentative = self.rounds.tentative(action)
        saved = self.rounds.save_all() if tentative is not None else None
        n_findings = len(g.findings)
        # a line that repeats the record's line before it word for word: the
        # state before it, to drop the copy if the rules refuse it
        twice = self.rounds.written_twice(action) if saved is None else None
        saved_twice = self.rounds.save_all() if twice is not None else None
        kind = None
        try:
            self.rounds.close_rounds_before(action)
            if g.finished:
                return None
            if self.before_action is not None:
                self.before_action(g, action)
            kind = g.round.kind
            # where the record says the action stands (whose turn it is)
            action = self.rounds.place(action)
            before = self.purity_before(action)
            g.round.process(action)
        except RuleViolation as v:
            self.purity_after(before, action, kind, v.rule)
            if saved is not None:
                # a line read with the one keyword that makes it parse, whose
                # action is refused: dropped, as a line that cannot be read
                self.rounds.restore_all(saved)
                return None
            # the reading of the refused line the record goes on from, if any
            # (not searched for a hint's candidate that stops at this line's
            # finding whatever the reading: ``refusal_stops``)
            reading = None if twice is None and self.refusal_stops is not None \
                and self.refusal_stops(g, v) else self.rounds.repair(action, v)
            if reading is None and not any(f.severity == ERROR for f in g.findings[n_findings:]):
                # refused as it stands, the state unchanged: nothing to drop
                # (a step that gave way to it first, saying so, changed it:
                # 18Ireland's par written twice, the home station the first
                # one waits for given up, 18Ireland_rand_43000101_2 #695)
                twice = None
            g.flag(v.rule, v.message + (reading.says if reading is not None else ""),
                   v.severity)
            if reading is not None:
                self.rounds.apply_reading(reading)
        except Exception as exc:  # a bug of ours must not hide the rest of the report
            if os.environ.get("RAILCHECK_RAISE"):
                raise
            g.flag("internal.error",
                   f"railcheck could not check this action ({type(exc).__name__}: {exc}); "
                   f"the replay stops here — please report this")
            return "stop"
        if twice is not None and self.rounds.drop_copy(twice, saved_twice, n_findings):
            return None
        if saved is not None:
            if any(f.severity == ERROR for f in g.findings[n_findings:]):
                self.rounds.restore_all(saved)      # not legal as read: dropped
                return None
            g.following.took_tentative(tentative)
        self.rounds.taken()
        if self.on_action is not None:
            self.on_action(g, action)
        # another outcome of the line the rules offered: the record's next
        # lines say which it went on from, made on the state before the rounds
        # advanced (what the next round's start pays or counts follows it)
        other = g.following.other is not None
        before = self.rounds.save_all() if other and self.rounds.weighs_outcomes() else None
        self.advance()
        if other:
            self.rounds.reconsider(before)
        if self.after_action is not None:
            self.after_action(g, action)
        return None

    def observed(self) -> bool:
        return any(cb is not None for cb in (self.after_action, self.before_action,
                                             self.on_action, self.on_round_end)) \
            or self.check_purity

    # ------------------------------------------------------------------

    def _snapshot(self):
        from .snapshot import state_snapshot
        return state_snapshot(self.game)

    def purity_before(self, action):
        """The state's picture before ``action`` is judged, when the replay proves that
        refusals change nothing (``check_purity``, from ``purity_from`` on), else None.  A
        round that flags a refusal itself and goes on (1890's, whose steps' refusals are
        findings) asks it before its step's check, and :meth:`purity_after` after the
        refusal, as the loop does around a round's ``process``."""
        if not self.check_purity or (self.purity_from is not None and action.action_id
                                     is not None and action.action_id < self.purity_from):
            return None
        return self._snapshot()

    def purity_after(self, before, action, kind, rule: str) -> None:
        """``action`` was refused (by ``rule``, in a round of ``kind``): counted, and the
        state compared with ``before`` (:meth:`purity_before`)."""
        if before is None:
            return
        self.refusals.append((action, kind, rule))
        after = self._snapshot()
        if after != before:
            from .snapshot import snapshot_diff
            self.impure.append((action, kind, rule, snapshot_diff(before, after)[:3]))

    def start_next_round(self):
        g = self.game
        if g.round is not None and self.on_round_end is not None:
            self.on_round_end(g, g.round)
        if g.round is not None and self.record.from_export and g.sr_number >= SITE_TURN_LIMIT:
            # 18xx.games stops a game still going when a round of its turn 100
            # ends ('dnf', did not finish): a limit of the site, no rule's end
            g.finish("dnf")
            return
        nxt = g.title.first_round() if g.round is None else g.title.next_round(g.round)
        if nxt is None:
            return
        g.round = nxt
        self.rounds.started(nxt)
        g.round.start()

    def advance(self):
        g = self.game
        if not self.rounds.rules_end_rounds:
            return      # (the record's markers end its rounds: 1890's)
        guard = idle = 0
        bank = g.bank.cash
        while g.round.finished and not g.finished:
            if guard == 0:
                self.rounds.ended_by_rules()
            self.start_next_round()
            guard += 1
            # rounds in which nobody can act (no company left, no player able to
            # do anything) follow each other by the rules while the bank pays
            # the privates' income, until it breaks and the game ends (random
            # 18Ireland 33000014_4, #176); with nothing paid either, nothing can
            # ever happen: stop, but an export only at the site's turn limit
            # (18xx.games plays such rounds through to it in one action: random
            # 1860 2711144_3, SR 41 to SR 100)
            idle = idle + 1 if g.bank.cash == bank else 0
            bank = g.bank.cash
            limit = 4 * SITE_TURN_LIMIT if self.record.from_export else 50
            if (idle > 50 and guard > limit) or guard > 5000:
                break

    def checkpoint(self, action: Checkpoint):
        g = self.game
        field_ = action.field
        if field_ not in ("trains", "president") and not g.money_tracked:
            # no amount is known while money is not tracked (a title whose numbers may be
            # unknown: 1890's, before its auction is over too): counted apart, said by the
            # title (``Unsure.untracked``)
            g.unsure.untracked(CHECKPOINTS)
            return
        subj = g.entity(action.subject)
        if subj is None:
            g.flag("checkpoint.subject", f"unknown subject '{action.subject}'")
            return
        actual: Any = None
        shown: Any = None
        value: Any
        if field_ in ("cash", "treasury"):
            actual = subj.cash
            shown = g.money(actual)
        elif field_ == "price":
            price = getattr(subj, "price", None)
            actual = price.price if price is not None else None
            shown = g.money(actual) if actual is not None else "no price"
        elif field_ == "worth":
            if subj not in g.players:
                g.flag("checkpoint.field", "'worth' is checked for players")
                return
            actual = g.net_worth(subj)
            shown = g.money(actual)
        elif field_ == "trains":
            actual = sorted(t.name for t in getattr(subj, "trains", []))
            shown = ", ".join(actual) or "none"
            value = action.value
            if isinstance(value, str):
                value = [] if value in ("none", "-", "") else [v.strip() for v in value.split(",")]
            if sorted(str(v) for v in value) != actual:
                g.flag("checkpoint.mismatch", f"{subj.name} owns trains {shown}, the record "
                                              f"says {', '.join(map(str, value)) or 'none'}")
            return
        elif field_ == "president":
            pres = getattr(subj, "president", None)
            actual = pres.name if pres else None
            if actual != action.value:
                g.flag("checkpoint.mismatch", f"the president of {subj.name} is "
                                              f"{actual or 'nobody'}, the record says "
                                              f"{action.value}")
            return
        else:
            g.flag("checkpoint.field", f"unknown checkpoint field '{field_}'")
            return
        if actual != action.value:
            if self.checkpoint_unsure(subj, field_, actual, action.value):
                return
            what = {"cash": "has", "treasury": "has", "price": "is priced at",
                    "worth": "is worth"}[field_]
            notes = g.last_movements(subj.name) if field_ in ("cash", "treasury") else None
            g.flag("checkpoint.mismatch",
                   f"{subj.name} {what} {shown}, the record says "
                   f"{g.money(action.value)}"  # type: ignore[arg-type]
                   + (f" (the last movements: {'; '.join(notes)})" if notes else ""))

    def checkpoint_unsure(self, subj, field_: str, actual, want) -> bool:
        """A money checkpoint that differs from an amount the replay does not
        know for sure is no finding: counted as skipped, with why."""
        g = self.game
        if field_ == "worth":
            why = g.standings_doubt()
            if why is not None:
                g.unsure.skip(CHECKPOINTS, (), reason=why)
            return why is not None
        key = price_key(subj.name) if field_ == "price" else g.who(subj)
        return g.unsure.checkpoint_doubt(key, subj.name, field_, actual, want, g.money)

    # ------------------------------------------------------------------

    def result(self, count: int) -> Result:
        g = self.game
        rec = self.record
        # while money is not tracked (a title whose numbers may be unknown) there are no
        # standings, companies' amounts or bank to give
        tracked = g.money_tracked
        res = Result(path=rec.path, title=self.rules.title, players=list(rec.players),
                     finished=g.finished, end_reason=g.end_reason, findings=g.findings,
                     standings=g.standings() if tracked else [],
                     companies=g.company_table() if tracked else [], actions=count,
                     round=g.round.label if g.round else "", phase=g.phase.name,
                     bank=g.bank.cash if tracked else 0, currency=g.rules.currency,
                     ruleset=self.rules.describe(), game=g)
        why = g.standings_doubt() if tracked else None
        if why is not None:
            # a net worth that is not sure is not given (nor compared with the record's)
            res.standings = []
            g.unsure.skip("the net worths (standings)", (), reason=why)
        # a title whose numbers come from a components file says what it did not check at
        # the record's ``components:`` line (its first line when it names none)
        uses_components = g.title.uses_components
        line, column = rec.tag_locations.get(
            "components", (1, 1) if uses_components else (None, None))
        if g.unsure.skipped:
            source = getattr(self.rules, "components", None)
            res.findings.extend(g.unsure.findings(
                getattr(source, "path", None) or "no components file", line, column,
                leave_out=NOT_TRACKED))
        for rule, message in g.title.unchecked():
            res.findings.append(Finding(severity=INFO, rule=rule, message=message,
                                        line=line if uses_components else None,
                                        column=column if uses_components else None))
        if rec.expected_result and self.stop_at is None:
            for row in res.standings:
                want = rec.expected_result.get(row["player"])
                if want is not None and want != row["net_worth"]:
                    who = "the site recorded" if rec.from_export else "the record's result says"
                    res.findings.append(Finding(
                        severity=WARNING, rule="score.site_differs",
                        message=f"{row['player']}'s net worth is {g.money(row['net_worth'])}; "
                                f"{who} {g.money(want)}"))
        want_end = rec.expected_end_reason
        if want_end and self.stop_at is None and want_end != (g.end_reason or ""):
            got = _reason(g.end_reason) if g.finished else "the game did not end"
            res.findings.append(Finding(
                severity=WARNING, rule="score.end_differs",
                message=f"the record says the game ended by '{want_end}', but here {got}"))
        return res



#: the turn (stock round number) after which 18xx.games stops a game that
#: is still going, at the end of a round: its end reason 'dnf'
SITE_TURN_LIMIT = 100


def _reason(reason) -> str:
    return {"bank": "the bank broke", "bankrupt": "a player went bankrupt",
            MANUAL_END: "the players ended it"}.get(reason, reason or "")


def _passed(action, stop_at: int, count: int) -> bool:
    if action.action_id is not None:
        return action.action_id > stop_at
    return action.line is not None and action.line > stop_at


def replay(record: GameRecord, **kw) -> Result:
    return Replay(record, **kw).run()
