"""The Kansai checker: replays a record turn by turn and checks every rule of
the summary that the known numbers allow.

The loop keeps the record's own rounds (its round markers), follows the
phases from the trains bought, and hands each action to the round's handler
(``stock.py`` for the auction and stock rounds, ``operating.py`` for the
operating rounds).  A broken rule is a finding at the action's line; the
replay then goes on from what the record says was done.  A check that needs
a number the components file leaves ``unknown`` is not made: :meth:`skip`
counts it, and the result carries one ``components.unknown`` info finding per
kind of check.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ...actions import Bankrupt, Checkpoint, RoundMarker, SellShares
from ...findings import ERROR, INFO, WARNING, Finding, involved
from ...schema import is_unknown
from ...unsure import CHECKPOINTS, Skipped
from .components import place_of_hex
from .holdings import Holdings

#: the privates that do not close with the others in phase 4 (P3, P7)
KEEP_OPEN = ("HKT", "OMER")
#: what Kansai's checker never checks, whatever the components file gives
UNCHECKED = ("the depot's order of sale (not stated by the summary) and the end after "
             "\"10 faz gry\" (E1: no phase table matches it) are not checked")
#: ... when the components file gives the number of game turns (E1 is then checked)
UNCHECKED_TURNS = "the depot's order of sale (not stated by the summary) is not checked"
#: ... and, when the components file does not give them, what money needs
NO_MONEY = ("money is not tracked ({why}): players' and companies' cash, the bank, share "
            "prices and their moves, the certificate and holding limits, capital, incomes and "
            "bonuses, the operating order by share price, money checkpoints and the net worths "
            "are not checked")
#: the money checkpoints' skipped kind when money is not tracked at all (said by NO_MONEY)
NOT_TRACKED = "money is not tracked"


@dataclass
class State1890:
    """What 1890 tracks beyond the shared state's objects (``holdings.py``: the players,
    corporations, certificates, privates, trains, cash, the phase and the priority): the
    title's own flags, and the stations and tiles the record placed (the board's in step 4
    of the move onto the shared engine, docs/1890.md)."""
    #: corporation -> the player holding its free share (HER, KHN: C1, C3)
    free_share: dict = field(default_factory=dict)
    #: KNR has started (M2 converted: K8)
    knr_started: bool = False
    #: company -> hexes with its stations
    stations: dict = field(default_factory=dict)
    #: companies that had a station in Kobe when KRTR started, or paid its fee (L2)
    krtr_free: set = field(default_factory=set)
    #: companies that paid KRTR's fee, and in which OR (L2)
    krtr_paid: dict = field(default_factory=dict)
    #: OMS's operating rounds so far (its free tile in its first: C7); OMER's upgrade used (P7)
    oms_turns: int = 0
    omer_used: bool = False
    #: company -> stations bought (placed by a token action; the home is free: O2)
    tokens_bought: dict = field(default_factory=dict)
    #: hexes the record has laid a tile on (a later lay there is an upgrade: free, O1c)
    laid_hexes: set = field(default_factory=set)
    #: hex -> the tile the record last laid there
    tile_on: dict = field(default_factory=dict)


class KansaiReplay:
    def __init__(self, record, rules, stop_at: Optional[int] = None, before_action=None,
                 after_action=None, on_action=None, on_round_end=None):
        self.record = record
        self.rules = rules
        self.stop_at = stop_at
        #: optional callback(game, action) before each action, with the shared ``Game``
        #: (:attr:`holdings`); ``game.round.label`` is the round's label ("OR 2.1"), as the
        #: engine's callback sees it (``show --at``)
        self.before_action = before_action
        #: the engine's other observers (the analyser's), called with the game: after each
        #: action, right after it is taken, and at the end of each round
        self.after_action = after_action
        self.on_action = on_action
        self.on_round_end = on_round_end
        #: the last action taken
        self.last_action = None
        #: the title's own flags (``State1890``)
        self.state = State1890()
        self.action = None
        self.position = 0
        self.kind = "auction"
        self.round_label = "auction"
        self.sr_number = 0
        #: the game ends when the current set of operating rounds is over
        self.end_after_set = False
        self.end_after_reason = "bankrupt"
        #: the operating rounds of the current set: how many the phase gives, how many played
        self.or_set_size: Optional[int] = None
        self.set_phase = ""
        self.ors_in_set = 0
        self.over_reported = False
        self.places = place_of_hex(rules.components)
        nip = rules.number("not_in_play")
        #: the companies the scenario leaves out (nothing may be done with them)
        self.not_in_play = frozenset(nip) if isinstance(nip, list) else frozenset()
        #: Kinki is a normal company when Osaka Electric Railroad is not in play (scenario D,
        #: the rule book's variant "Kinki as a Normal Company", C10): 50% floats it, no share
        #: is reserved, anybody sets its par
        self.knr_normal = "M2" in self.not_in_play
        #: the players and the corporations (minors included) with their certificates, as the
        #: shared state's objects
        self.holdings = Holdings(rules, list(record.players), self.knr_normal)
        #: the findings, the game's (``Game.findings``)
        self.findings: list[Finding] = self.holdings.findings
        #: the amounts not sure and the checks skipped (the shared game's: ``Game.unsure``)
        self.unsure = self.holdings.unsure
        turns = rules.number("game_turns")
        #: E1 "10 faz gry": the game ends after this many game turns (a stock round and its
        #: operating rounds); None: not known
        self.game_turns = None if is_unknown(turns) else int(turns)
        from .money import Ledger
        self.ledger = self.holdings.ledger = Ledger(self)
        from .auction import AuctionRound1890
        from .operating import OperatingRound1890
        from .stock import StockHandler
        self.stock = StockHandler(self)
        self.operating = OperatingRound1890(self)
        self.auction = AuctionRound1890(self)
        #: the round the game is in (the analyser reads its label and whose turn it is)
        self.holdings.round = self.auction
        #: the components file's map (None: it gives none)
        self.holdings.board = self.operating.map.board

    # the game's end, the shared Game's

    @property
    def finished(self) -> bool:
        return self.holdings.finished

    @finished.setter
    def finished(self, value: bool) -> None:
        self.holdings.finished = value

    @property
    def end_reason(self) -> Optional[str]:
        return self.holdings.end_reason

    @end_reason.setter
    def end_reason(self, value: Optional[str]) -> None:
        self.holdings.end_reason = value

    # ------------------------------------------------------------------
    # findings

    def flag(self, rule: str, message: str, severity: str = ERROR, action=None) -> None:
        action = action if action is not None else self.action
        f = Finding(severity=severity, rule=rule, message=message)
        if action is not None:
            f.line, f.column, f.action_id, f.text = (action.line, action.column,
                                                     action.action_id, action.text)
            f.involves = involved(action)
        self.findings.append(f)

    def skip(self, kind: str, keys: tuple, n: int = 1, reason: str = "") -> None:
        """A check of ``kind`` not made: the value at ``keys`` of the
        components file is unknown (or ``reason``)."""
        self.unsure.skip(kind, keys, n, reason)

    @property
    def skipped(self) -> dict[str, Skipped]:
        return self.unsure.skipped

    def number(self, kind: str, *keys):
        """A number of the components file; an unknown one counts a skipped
        check of ``kind``."""
        value = self.rules.number(*keys)
        if is_unknown(value):
            self.skip(kind, keys)
        return value

    def money(self, amount) -> str:
        return f"{self.rules.currency}{amount}"

    # ------------------------------------------------------------------
    # phases

    @property
    def phase(self):
        return self.rules.phases[self.holdings.phase_index]

    def phase_at_least(self, name: str) -> bool:
        return self.holdings.phase_index >= self.rules.phase_index(name)

    def jr_is_state(self) -> bool:
        """JR is the state railway until phase 6 (J0)."""
        return not self.phase_at_least("6")

    def train_bought(self, name: str) -> None:
        """The first train of a type starts its phase and scraps the older ones (F5)."""
        h = self.holdings
        if h.sold(name) != 1:           # (called when a train of the type left the depot)
            return
        for corp in h.corporations.values():
            h.drop_trains(corp.sym, keep=lambda t: t.spec.rusts_on != name)
        for t in h.left:
            if t.owner == "pool" and t.spec.rusts_on == name:
                t.owner = None
        for i, ph in enumerate(self.rules.phases):
            if ph.on == name and i > h.phase_index:
                h.phase_index = i
                if "close_companies" in ph.events:
                    for company in self.holdings.owned():
                        if company.sym in [c.sym for c in self.rules.privates] and \
                                company.sym not in KEEP_OPEN:
                            company.closed = True

    def _train_spec(self, name: str) -> dict:
        for t in self.rules.trains:
            if t.name == name:
                return t.extra
        return {}

    # ------------------------------------------------------------------
    # the loop

    def run(self):
        count = 0
        try:
            count = self.replay_actions()
        except Exception as exc:    # a bug of ours must not hide the rest of the report
            self.flag("internal.error",
                      f"railcheck could not check this action ({type(exc).__name__}: {exc}); "
                      f"the replay stops here — please report this")
        return self.result(count)

    def check_players(self) -> None:
        """The player count against the components file's (set-up)."""
        lo, hi = self.rules.number("players", "min"), self.rules.number("players", "max")
        n = len(self.holdings.players)
        if is_unknown(lo) or is_unknown(hi) or lo <= n <= hi:
            return
        line, col = self.record.tag_locations.get("players", (1, 1))
        f = Finding(severity=ERROR, rule="setup.players", line=line, column=col,
                    message=f"{n} players; the components file says {lo} to {hi}")
        self.findings.append(f)

    def replay_actions(self) -> int:
        self.check_players()
        count = 0
        for position, action in enumerate(self.record.actions):
            if self.stop_at is not None and action.line is not None and action.line > self.stop_at:
                break
            count += 1
            self.play_one(position)
        self.settle()
        return count

    def play_one(self, position: int) -> None:
        """The record's action at ``position``, taken (``railcheck next`` plays a
        candidate action so, on a copy of the replay paused before it)."""
        actions = self.record.actions
        action = actions[position]
        self.action = action
        self.position = position
        # the record as the shared record-following layer reads it (the game's: the
        # auction's next action, the operating order's companies ahead)
        following = self.holdings.following
        following.actions = actions
        following.at(position)
        self.last_action = self.holdings.current_action = action
        if isinstance(action, RoundMarker):
            self.end_turn()
            if not (action.kind == "auction" and self.kind == "auction"):
                self.round_ends()       # (the record's opening 'auction' line ends nothing)
                self.round_ended()
            self.round_starts(action)
            return
        if isinstance(action, Checkpoint):
            self.checkpoint(action)
            return
        if self.before_action is not None:
            self.before_action(self.holdings, action)
        self.take(action)
        if self.on_action is not None:
            self.on_action(self.holdings, action)
        if self.after_action is not None:
            self.after_action(self.holdings, action)

    def settle(self) -> None:
        """The end of the record: the turn its pass ended and the round's
        settlement at the end (an unfinished turn's duties are not checked)."""
        self.action = None
        self.end_turn(record_ends=True)
        self.round_ends(record_ends=True)

    def round_ended(self) -> None:
        """The analyser's observer of the end of a round."""
        if self.on_round_end is not None:
            from types import SimpleNamespace
            self.on_round_end(self.holdings, SimpleNamespace(label=self.round_label,
                                                             kind=self.kind))

    def take(self, action) -> None:
        """One action of the record (not a marker or checkpoint)."""
        if self.finished:
            if not self.over_reported:
                self.flag("game.over", f"the game already ended ({self.end_reason}); this "
                                       f"and any later action is ignored")
                self.over_reported = True
            return
        absent = sorted(involved(action) & self.not_in_play)
        if absent:
            # the scenario leaves the company out (components file's not_in_play)
            scenario = self.rules.number("scenario")
            self.flag("kansai.not_in_play",
                      f"{absent[0]} is not in play in "
                      + (f"the scenario {scenario}" if not is_unknown(scenario)
                         else "this game") + " (the components file's not_in_play); "
                      "the action is ignored")
            return
        if isinstance(action, Bankrupt):       # a player's (or company's) bankruptcy
            self.operating.bankrupt(action)
            return
        if self.kind == "OR" and isinstance(action, SellShares) and \
                self.holdings.is_player(action.actor):
            # B0-B2: a president's sale for a train, written in the company's turn
            self.operating.emergency_sale(action)
            return
        self.holdings.round.take_action(action)      # (in the round's turns)

    def end_turn(self, record_ends: bool = False) -> None:
        """The round's turn at hand is over (a round marker, the record's end: then it may
        be unfinished, and its duties are not checked)."""
        self.holdings.round.close_turn(record_ends)

    def check_marker(self, marker: RoundMarker) -> None:
        """F3, O0: after a stock round the phase sets the number of ORs (1-3);
        ORs are numbered by the SR and their place in the set."""
        size = self.or_set_size
        if marker.kind == "SR" and size is not None and self.ors_in_set < size:
            self.flag("round.skipped",
                      f"{self.ors_in_set} OR(s) were played after SR {self.sr_number}; the set "
                      f"has {size} in phase {self.set_phase} (F3)", action=marker)
        elif marker.kind == "OR":
            self.ors_in_set += 1
            label = "OR " + ".".join(str(n) for n in marker.number)
            if size is not None and self.ors_in_set > size:
                self.flag("round.marker", f"the record says '{label}' here, but phase "
                                          f"{self.set_phase} has {size} OR(s) per set (F3)",
                          action=marker)
            elif len(marker.number) == 2 and self.sr_number and \
                    tuple(marker.number) != (self.sr_number, self.ors_in_set):
                self.flag("round.marker", f"the record says '{label}' here, but this is OR "
                                          f"{self.sr_number}.{self.ors_in_set}", action=marker)

    def round_starts(self, marker: RoundMarker) -> None:
        if not self.finished:
            self.check_marker(marker)
        self.kind = marker.kind
        self.round_label = " ".join([marker.kind] + (
            [".".join(str(n) for n in marker.number)] if marker.number else []))
        if marker.kind == "SR" and self.end_after_set and not self.finished:
            # E1 with rulebook.end_on_bankruptcy (or end_on_bank): full_or: the set of ORs
            # was finished
            self.finished, self.end_reason = True, self.end_after_reason
        if marker.kind == "SR":
            self.sr_number += 1
            self.stock.round.start()
        elif marker.kind == "OR":
            self.operating.start()
        if marker.kind not in ("SR", "OR"):
            self.holdings.following.round = None    # (the stock round's follower, S2.2)
        self.holdings.round = {"SR": self.stock.round, "OR": self.operating}.get(
            marker.kind, self.auction)

    def round_ends(self, record_ends: bool = False) -> None:
        if self.kind == "auction":
            if record_ends:
                return          # the record stops in the auction: nothing to settle
            self.stock.end_auction()
        elif self.kind == "OR" and (not record_ends or self.record.tags.get("end")):
            self.operating.finish(record_ends)  # (a record that ends with the game ends its last OR)
            if self.game_turns is not None and self.sr_number >= self.game_turns and \
                    self.or_set_size is not None and self.ors_in_set >= self.or_set_size and \
                    not self.finished:
                # E1: the last game turn is over (the components file's game_turns)
                self.finished, self.end_reason = True, "game_turns"
        elif self.kind == "SR":
            if not self.stock.round.finished:       # (not ended by the rules, S2.2)
                self.stock.round.finish()
            # O0: the number of ORs is set after the SR, by the phase
            self.or_set_size = self.phase.operating_rounds
            self.set_phase = self.phase.name
            self.ors_in_set = self.holdings.or_number = 0     # (the shared OR's count in the set)

    def bank_broke(self) -> None:
        """E1: the bank ran out: the game ends at once or after the set of
        ORs (``rulebook.end_on_bank``; unknown: where the record ends)."""
        timing = self.rules.number("rulebook", "end_on_bank")
        if timing == "immediate" and not self.finished:
            self.finished, self.end_reason = True, "bank"
        elif timing == "full_or" and not self.end_after_set:
            self.end_after_set, self.end_after_reason = True, "bank"

    # ------------------------------------------------------------------

    def checkpoint(self, action: Checkpoint) -> None:
        if action.field == "trains":
            have = sorted(self.holdings.train_names(action.subject))
            want = sorted(str(t) for t in (action.value or []))
            if have != want:
                self.flag("checkpoint.mismatch",
                          f"{action.subject} owns trains {', '.join(have) or 'none'}, the record "
                          f"says {', '.join(want) or 'none'}")
        elif action.field == "president":
            who = self.holdings.president(action.subject)
            if who != action.value:
                self.flag("checkpoint.mismatch", f"{action.subject}'s president is "
                                                 f"{who or 'nobody'}, the record says {action.value}")
        else:
            self.money_checkpoint(action)

    def money_checkpoint(self, action: Checkpoint) -> None:
        """check X cash/treasury/price/worth N against the ledger."""
        led = self.ledger
        subject, field_ = action.subject, action.field
        if not led.on:
            self.skipped.setdefault(CHECKPOINTS, Skipped(NOT_TRACKED)).count += 1
            return
        known = self.holdings.is_player(subject) or subject in self.rules.corp_by_sym
        if not known:
            self.flag("checkpoint.subject", f"unknown subject '{subject}'")
            return
        if field_ in ("cash", "treasury"):
            key, actual = subject, led.get(subject)
        elif field_ == "price":
            key, actual = "price:" + subject, led.price(subject)
        elif field_ == "worth":
            if not self.holdings.is_player(subject):
                self.flag("checkpoint.field", "'worth' is checked for players")
                return
            key, actual = subject, led.net_worth(subject)
            if actual is None:
                _, why = led.standings()
                self.skip(CHECKPOINTS, (), reason=why)
                return
        else:
            self.flag("checkpoint.field", f"unknown checkpoint field '{field_}'")
            return
        if actual == action.value:
            return
        if self.unsure.checkpoint_doubt(key, subject, field_, actual, action.value, self.money):
            return
        what = {"cash": "has", "treasury": "has", "price": "is priced at",
                "worth": "is worth"}[field_]
        shown = self.money(actual) if actual is not None else "no price"
        notes = led.note.get(subject) if field_ in ("cash", "treasury") else None
        self.flag("checkpoint.mismatch", f"{subject} {what} {shown}, the record says "
                                         f"{self.money(action.value)}"
                  + (f" (the last movements: {'; '.join(notes)})" if notes else ""))

    def result(self, count: int):
        from ...engine import Result
        rec = self.record
        end = rec.tags.get("end")
        if end and not self.finished and self.stop_at is None:
            self.finished, self.end_reason = True, end
            if end == "bank":
                self.number("the end's timing when the bank runs out", "rulebook", "end_on_bank")
                self.number("the bank running out", "bank")
        led = self.ledger
        where = rec.tag_locations.get("components", (1, 1))
        standings, why = led.standings() if led.on else ([], None)
        if led.on and end == "bank" and not led.bank_broken and self.stop_at is None \
                and led.sure("bank"):
            self.findings.append(Finding(
                severity=WARNING, rule="score.end_differs", line=where[0], column=where[1],
                message=f"the record says the game ended by 'bank', but the bank still holds "
                        f"{self.money(led.bank)}"))
        if why:
            self.skip("the net worths (standings)", (), reason=why)
        res = Result(path=rec.path, title=self.rules.title, players=list(rec.players),
                     finished=self.finished, end_reason=self.end_reason,
                     findings=self.findings, standings=standings,
                     companies=led.company_table() if led.on else [], actions=count,
                     round=self.round_label, phase=self.phase.name,
                     bank=led.bank if led.on else 0,
                     currency=self.rules.currency, ruleset=self.rules.describe(),
                     game=self.holdings)
        source = self.rules.components.path or "no components file"
        res.findings.extend(self.unsure.findings(source, where[0], where[1],
                                                 leave_out=NOT_TRACKED))
        money = self.skipped.get(CHECKPOINTS)
        text = UNCHECKED if self.game_turns is None else UNCHECKED_TURNS
        if not led.on:
            off = ".".join(str(k) for k in led.off) if led.off else ""
            why = f"{off} is unknown" if off and off != "companies" else \
                "the auction was not played" if off == "companies" else "no auction"
            text = NO_MONEY.format(why=why) + "; " + text
            if money:
                text += f"; {money.count} money checkpoint(s) not checked"
        res.findings.append(Finding(severity=INFO, rule="kansai.unchecked",
                                    line=where[0], column=where[1],
                                    message="Kansai: " + text))
        return res

