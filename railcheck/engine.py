"""The replay loop: one game state, every action asked of the current round.

Like a PGN reader, the loop never stops at the first problem: a refused
action is reported and skipped, a finding about an applied action is
reported and the game goes on.  A later finding is marked as a consequence
of an earlier one only when its action involves what the earlier one
touched (``Game.flag``).

Rounds follow the record: when an action does not fit the round the rules
have reached, the replay reports it and keeps to the record's own sequence
rather than inventing rounds to place it:

* a stock round that ended by the rules (everybody passed) while the record
  goes on with it is taken up again (``round.continues``), the start of the
  next round being undone;
* an action that does not fit the round, while the record's next action
  does, is out of place: the round reports it and goes on;
* an action closes the round it does not fit; an operating round closed
  without any action of the record (one the record never played) gives one
  finding (``round.skipped``) for the duties its companies missed, instead
  of one per company.
"""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass, field
from typing import Any, Optional

from .actions import Checkpoint, Exchange, GameRecord, Pass, RoundMarker
from .findings import ERROR, INFO, WARNING, Finding, InputError, RuleViolation, plural
from .game import Game
from .ruleset import Ruleset, load_ruleset
from .unsure import CHECKPOINTS, price_key


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
        #: (railcheck/diagnose.py); never with observers or a stop.  Default:
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
        #: the stock round that ended by itself, with the state before the next
        #: round started, while that round has taken no action (see resume_round)
        self.ended: Any = None
        #: share prices before the last action of a stock round (its end may move them)
        self.price_marks = None
        self.next_action: Any = None    # the record's action after the current one
        #: actions of the record the current round has been given
        self.round_actions = 0
        #: the round the record's last round marker named (when it matched)
        self.marked_round: Any = None

    def run(self) -> Result:
        cls = self.rules.title_class
        if cls is not None and cls.uses_components:
            return cls.replay(self)
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
        try:
            g = Game(self.rules, rec.players, check_board=self.check_board, tags=rec.tags)
        except RuleViolation as v:
            loc = rec.tag_locations.get("players", (None, None))
            raise InputError(v.message, path=rec.path, line=loc[0], column=loc[1]) from None
        self.game = g
        g.record_actions = rec.actions
        g.record_from_export = rec.from_export
        self.start_next_round()
        self.game_over_reported = False
        self.count = 0

    def play(self, position: int) -> bool:
        """The record's action at ``position``, prepared, checked, applied;
        False when the replay stops there (the stop point, or a bug of ours)."""
        rec = self.record
        g = self.game
        action = rec.actions[position]
        self.next_action = rec.actions[position + 1] if position + 1 < len(rec.actions) \
            else None
        if self.stop_at is not None and _passed(action, self.stop_at, self.count):
            return False
        self.count += 1
        g.current_action = action
        g.record_position = position
        if isinstance(action, Checkpoint):
            self.checkpoint(action)
            return True
        if g.finished:
            if not self.game_over_reported:
                g.flag("game.over", f"the game already ended ({_reason(g.end_reason)}); "
                                    f"this and any later action is ignored")
                self.game_over_reported = True
            return True
        if isinstance(action, RoundMarker):
            self.round_marker(action)
            return True
        before = None
        if self.passed_over_pass(action):
            if self.after_action is not None:
                self.after_action(g, action)
            return True
        try:
            self.close_rounds_before(action)
            if g.finished:
                return True
            if self.before_action is not None:
                self.before_action(g, action)
            self.mark_prices()
            self.round_actions += 1
            kind = g.round.kind
            action = g.as_laid(action)
            g.round.prepare(action)
            before = self._snapshot() if self.check_purity and (
                self.purity_from is None or action.action_id is None
                or action.action_id >= self.purity_from) else None
            g.round.process(action)
        except RuleViolation as v:
            if before is not None:
                self.refusals.append((action, kind, v.rule))
                after = self._snapshot()
                if after != before:
                    from .snapshot import snapshot_diff
                    self.impure.append((action, kind, v.rule,
                                        snapshot_diff(before, after)[:3]))
            g.flag(v.rule, v.message, v.severity)
        except Exception as exc:  # a bug of ours must not hide the rest of the report
            if os.environ.get("RAILCHECK_RAISE"):
                raise
            g.flag("internal.error",
                   f"railcheck could not check this action ({type(exc).__name__}: {exc}); "
                   f"the replay stops here — please report this")
            return False
        self.ended = None
        if self.on_action is not None:
            self.on_action(g, action)
        self.advance()
        if self.after_action is not None:
            self.after_action(g, action)
        return True

    def end(self) -> Result:
        """The record's end: a pending game end closed, the result scored."""
        g = self.game
        if not g.finished and self.stop_at is None:
            self.close_at_end()
            if not g.finished and self.record.expected_end_reason == MANUAL_END:
                # the players ended the game by agreement where the record stops
                # (18xx.games' "end game"): scored as it stands
                g.finish(MANUAL_END)
        res = self.result(self.count)
        if self.hints and res.errors and self.stop_at is None and not self.observed():
            from .diagnose import par_hint, rotation_hint
            res = par_hint(self, res)
            if res.errors:      # the two look at first errors of different kinds
                res = rotation_hint(self, res)
        return res

    def observed(self) -> bool:
        return any(cb is not None for cb in (self.after_action, self.before_action,
                                             self.on_action, self.on_round_end)) \
            or self.check_purity

    # ------------------------------------------------------------------

    def _snapshot(self):
        from .snapshot import state_snapshot
        return state_snapshot(self.game)

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
        self.round_actions = 0
        g.round.start()

    def advance(self):
        g = self.game
        guard = idle = 0
        bank = g.bank.cash
        while g.round.finished and not g.finished:
            if g.round.kind == "SR" and guard == 0 and self.record_goes_on(g.round):
                self.ended = (g.round, self.save_state(), self.price_marks)
            elif g.round.kind == "OR" and guard == 0 and self.record_reopens(g.round):
                self.ended = (g.round, self.save_state(), None)
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

    def close_rounds_before(self, action):
        """Close the round the action does not fit (the record moved on).  An
        operating round that is closed without a single action of the record
        is not played: the duties its companies missed are one finding
        (``round.skipped``), not one per company."""
        g = self.game
        if self.closing_pass(action) and self.resume_round(action):
            return
        if g.round.wants(action):
            return
        if self.resume_round(action):
            return
        if self.record_stays(g.round):
            return      # out of place: the round itself reports it
        self.refuse_leaving_unplayed_stock_round(action)
        skipped: list = []
        guard = 0
        while not g.finished and not g.round.wants(action) and guard < 10:
            rnd = g.round
            if rnd.kind == "OR" and self.round_actions == 0:
                self.skip_round(rnd, skipped)
            else:
                rnd.finish_round()
            self.advance()
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
        """A pass by the company whose turn ended the last operating round,
        before anything of the next one, where that company does not operate
        first: the pass closes its turn (a step the record wrote, such as
        declining a private's power: 18Ireland random 18003_5, #350), not a
        turn of the next round out of order."""
        g = self.game
        if not self.ended or self.round_actions or not isinstance(action, Pass):
            return False
        ended = self.ended[0]
        last = ended.closed_turn.corp if getattr(ended, "closed_turn", None) is not None else None
        rnd = g.round
        order = getattr(rnd, "order", None) or []
        return (ended.kind == "OR" and rnd.kind == "OR" and last is not None
                and action.actor == last.sym and bool(order) and order[0] is not last)

    def refuse_leaving_unplayed_stock_round(self, action):
        """A company's action right after an operating round ended, in the
        stock round the rules began, which the record has neither entered
        (no action) nor named (no marker): the record has not left the
        operating round, so the action is out of place there.  Passing over
        the whole stock round to place it would invent a round."""
        g = self.game
        rnd = g.round
        corp = g.corporations.get(action.actor)
        if rnd.kind != "SR" or self.round_actions or self.marked_round is rnd or corp is None:
            return
        if not corp.floated:
            raise RuleViolation("or.not_floated", f"{corp.sym} has not floated and does not "
                                                  f"operate")
        raise RuleViolation("round.out_of_place",
                            f"{corp.sym}'s '{action.verb}' comes after the operating round "
                            f"ended, and the record has no action of {rnd.label} yet: the "
                            f"replay does not pass over {rnd.label} for it")

    def skip_round(self, rnd, skipped: list):
        """Close an operating round the record never played: its companies
        take an empty turn; what they missed is gathered into one finding."""
        g = self.game
        n = len(g.findings)
        rnd.finish_round()
        missed = [f for f in g.findings[n:] if f.severity == ERROR]
        if not missed:
            return
        del g.findings[n:]
        skipped.append((rnd.label, len(missed)))

    def resume_round(self, action) -> bool:
        """The rules ended a stock round (everybody passed), the next round has
        not taken an action yet, and the record goes on with the stock round:
        take it up again as the record has it, with a finding."""
        g = self.game
        if self.ended is None:
            return False
        ended, saved, marks = self.ended
        if ended.kind == "OR":
            return self.resume_operating_round(action)
        if not ended.wants(action) or isinstance(action, Exchange) \
                or action.actor not in g.player_by_name:
            return False
        label = ended.label
        self.restore_state(saved, marks)
        g.current_action = action
        ended = g.round
        ended.finished = False
        self.round_actions = 1
        if hasattr(ended, "passes"):
            ended.passes = 0    # the record says not everybody had passed
        self.ended = None
        g.flag("round.continues",
               f"{label} ended by the rules (every player passed in a row), but the record "
               f"goes on with it: {action.actor}'s '{action.verb}' is taken as part of it")
        return True

    def record_reopens(self, rnd) -> bool:
        """The operating round ended with its last company's turn, and the
        record's next action is that company's (only then is the state kept
        for :meth:`resume_operating_round`)."""
        nxt = self.next_action
        last = rnd.closed_turn.corp if getattr(rnd, "closed_turn", None) is not None else None
        return (last is not None and nxt is not None
                and not isinstance(nxt, (Checkpoint, RoundMarker)) and nxt.actor == last.sym)

    def resume_operating_round(self, action) -> bool:
        """The last company's turn ended by itself (nothing was left to do,
        as railcheck saw it) and the record goes on with that company: the
        round is taken up again and the action checked as part of that turn,
        so that a refusal names the real reason (no such train for sale, the
        train limit) rather than a round out of place."""
        g = self.game
        ended, saved, _ = self.ended
        last = ended.closed_turn.corp if ended.closed_turn is not None else None
        if last is None or action.actor != last.sym:
            return False
        self.restore_state(saved, None)
        g.current_action = action
        g.round.finished = False
        self.round_actions = 1
        self.ended = None
        return True

    def passed_over_pass(self, action) -> bool:
        """A pass written for a player whom the stock round that just ended
        passed over without a word: it says what the rules did, and there is
        nothing to replay (leaving it out would be accepted too).  Only when
        the round now being played has no place for it."""
        if self.ended is None or not isinstance(action, Pass) or self.game.round.wants(action):
            return False
        ended = self.ended[0]
        player = self.game.player_by_name.get(action.actor)
        if player is None or not hasattr(ended, "written_pass") \
                or not ended.written_pass(action, player):
            return False
        ended.passed_over.discard(player)
        return True

    def record_goes_on(self, ended) -> bool:
        """The record's next action is a player's, as in the stock round that
        just ended (only then is the state kept for :meth:`resume_round`)."""
        nxt = self.next_action
        return (nxt is not None and not isinstance(nxt, (Checkpoint, RoundMarker, Exchange))
                and nxt.actor in self.game.player_by_name)

    def record_stays(self, rnd) -> bool:
        """The record's next action still fits the round: the action that
        does not is out of place, and does not end the round."""
        nxt = self.next_action
        if nxt is None or isinstance(nxt, (Checkpoint, RoundMarker)):
            return False
        return rnd.wants(nxt)

    def mark_prices(self):
        """Share prices (cell and place in its stack) before a stock round's
        action: the end of the round may raise sold-out companies."""
        g = self.game
        if g.round is None or g.round.kind != "SR":
            self.price_marks = None
            return
        marks = {}
        for c in g.corporations.values():
            cell = c.price
            if cell is not None:
                try:
                    marks[c] = (cell, cell.stack.index(c))
                except ValueError:
                    pass        # (not in its cell's stack)
        self.price_marks = marks

    def save_state(self):
        """The game's changing state (not its rules, findings or callbacks)."""
        g = self.game
        memo = {id(g): g, id(g.rules): g.rules, id(g.title): g.title,
                id(g.findings): g.findings, id(g.current_action): g.current_action,
                id(g.record_actions): g.record_actions}
        if g.board is not None:
            memo[id(g.board)] = g.board
        for thing in (*g.corporations.values(), *g.companies.values(), *g.trains):
            memo[id(thing.spec)] = thing.spec      # the rules' specs do not change
        state = copy.deepcopy({k: v for k, v in g.__dict__.items()}, memo)
        return state, (g.board.snapshot() if g.board is not None else None), len(g.findings)

    def restore_state(self, saved, marks):
        g = self.game
        state, board, n_findings = saved
        findings = g.findings
        g.__dict__.update(state)
        g.findings = findings
        del findings[n_findings:]
        if board is not None:
            g.board.restore(board)
        if marks:
            # undo what the end of the stock round did to the prices
            moved = {c.sym: c for c in g.corporations.values()}
            for corp, (cell, index) in marks.items():
                corp = moved[corp.sym]
                cell = g.market.cell(cell.row, cell.col)
                if corp.price is cell:
                    continue
                if corp.price is not None and corp in corp.price.stack:
                    corp.price.stack.remove(corp)
                corp.price = cell
                cell.stack.insert(min(index, len(cell.stack)), corp)

    def close_at_end(self):
        """The record ends: close an OR whose last company has acted, so a
        pending game end (bank broken) takes effect.  Not in the record of a
        game still in progress (an export whose status is not "finished"):
        it stops where play stopped, possibly in the middle of a turn (random
        18Ireland 33000016_0, #816: WLWR passes its track step, its run still
        to come), and nothing is ended or owed there."""
        g = self.game
        r = g.round
        if self.record.in_progress:
            return
        if r.kind == "OR" and r.is_last() and g.end_pending and g.or_number >= g.or_count:
            last = g.current_action
            n = len(g.findings)
            g.current_action = None
            r.finish_round()
            self.advance()
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
        if r.kind == "SR" and self.round_actions == 0 and not r.finished \
                and self.record_goes_on(r):
            # the record goes on with the players' actions of the stock round
            # that has just begun: the marker is wrong, not the round
            g.flag("round.marker", f"the record says '{want}' here, but the rules make this "
                                   f"{r.label}, and the record goes on with its players")
            return
        if r.kind == "auction":
            unsold = [c.sym for c in r.unsold()]
            g.flag("round.marker", f"'{want}' but the auction is not over "
                                   f"({', '.join(unsold)} unsold)")
            r.finish()      # the record moved on; so does the replay
        elif r.kind == "OR":
            r.finish_round()
        elif r.kind == "SR":
            r.finish()
        else:
            r.finish_round()
        self.advance()
        if not g.finished and g.round.label != want:
            g.flag("round.marker", f"the record says '{want}' here, but the rules make this "
                                   f"{g.round.label} (phase {g.phase.name}: "
                                   f"{plural(g.or_count, 'OR')} per set)")

    def checkpoint(self, action: Checkpoint):
        g = self.game
        subj = g.entity(action.subject)
        field_ = action.field
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
            g.flag("checkpoint.mismatch",
                   f"{subj.name} {what} {shown}, the record says "
                   f"{g.money(action.value)}")  # type: ignore[arg-type]

    def checkpoint_unsure(self, subj, field_: str, actual, want) -> bool:
        """A money checkpoint that differs from an amount the replay does not
        know for sure is no finding: counted as skipped, with why."""
        g = self.game
        if field_ == "worth":
            why = g.unsure.standings_doubt([p.name for p in g.players])
            if why is not None:
                g.unsure.skip(CHECKPOINTS, (), reason=why)
            return why is not None
        key = price_key(subj.name) if field_ == "price" else g.who(subj)
        return g.unsure.checkpoint_doubt(key, subj.name, field_, actual, want, g.money)

    # ------------------------------------------------------------------

    def result(self, count: int) -> Result:
        g = self.game
        rec = self.record
        res = Result(path=rec.path, title=self.rules.title, players=list(rec.players),
                     finished=g.finished, end_reason=g.end_reason, findings=g.findings,
                     standings=g.standings(), companies=g.company_table(), actions=count,
                     round=g.round.label if g.round else "", phase=g.phase.name,
                     bank=g.bank.cash, currency=g.rules.currency,
                     ruleset=self.rules.describe(), game=g)
        why = g.unsure.standings_doubt([p.name for p in g.players])
        if why is not None:
            # a net worth that is not sure is not given (nor compared with the record's)
            res.standings = []
            g.unsure.skip("the net worths (standings)", (), reason=why)
        if g.unsure.skipped:
            line, column = rec.tag_locations.get("components", (None, None))
            source = getattr(self.rules, "components", None)
            res.findings.extend(g.unsure.findings(
                getattr(source, "path", None) or "no components file", line, column))
        for rule, message in g.title.unchecked():
            res.findings.append(Finding(severity=INFO, rule=rule, message=message))
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


def _marker_label(action: RoundMarker) -> str:
    if action.kind == "auction":
        return "auction"
    return f"{action.kind} " + ".".join(str(n) for n in action.number)


#: the end reason of a game the players ended by agreement (18xx.games'
#: ``end_game`` action, its export's ``game_end_reason``; the notation's
#: ``end: manually_ended``): the game ends where the record stops
MANUAL_END = "manually_ended"


def _reason(reason) -> str:
    return {"bank": "the bank broke", "bankrupt": "a player went bankrupt",
            MANUAL_END: "the players ended it"}.get(reason, reason or "")


def _passed(action, stop_at: int, count: int) -> bool:
    if action.action_id is not None:
        return action.action_id > stop_at
    return action.line is not None and action.line > stop_at


def replay(record: GameRecord, **kw) -> Result:
    return Replay(record, **kw).run()
