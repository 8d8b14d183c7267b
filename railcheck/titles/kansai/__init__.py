"""1890 (Kansai; the title line is missing from its Polish rule summary).

Every rule the summary states is in ``rules.yaml``; every number it does not
give comes from a components file the user fills in from the game box
(``components.py``, docs/1890-components.md).  Where a number is
``unknown`` the check that needs it is not made and the report says so, once
per kind of check.  The engine's loop (``engine.Replay``) replays a record on
the title's game (``holdings.py``'s ``Holdings``, a shared ``Game``): the
record's rounds by its markers (``rounds.py``'s ``RecordRounds1890``, the
record-following layer's hook), each line by the round at hand; the title
object holds 1890's own state and numbers (:class:`TitleKansai`, started by
:meth:`TitleKansai.start`), its checkpoints and its result (docs/1890.md says
what is and is not checked).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from ...actions import Bankrupt, RoundMarker, SellShares
from ...findings import ERROR, Finding, involved
from ...schema import is_unknown
from ...unsure import CHECKPOINTS, Skipped
from ..base import Title


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


@dataclass
class State1890:
    """Everything of 1890's own that a replay changes beyond the shared game's objects
    (``holdings.py``: the players, corporations, certificates, privates, trains, cash, the
    phase and the priority), kept here as 1860 and 18Ireland keep theirs (``title.state``), so
    that what copies the title's state copies all of it with the game's, in one copy (the
    look-ahead's save and restore, ``following/lookahead.py``) and what pictures it pictures
    all of it (the purity snapshot, ``snapshot.py``): the title's flags, the stations and
    tiles the record placed, the record's round at hand and its counters, the ledger's books
    and the rounds the record's markers begin.  The title object reads and writes the fields
    by their names (:class:`_Kept`)."""
    #: the operating round and the auction, each pictured on its own as the game's round
    #: at hand (``Game.round``; the stock round too, in the handler's ``not_state``)
    not_state = ("operating", "auction")
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
    #: the record's round at hand (``rounds.py``, ``RecordRounds1890``): its kind and label,
    #: the stock rounds so far
    kind: str = "auction"
    round_label: str = "auction"
    sr_number: int = 0
    #: the game ends when the current set of operating rounds is over, for this reason
    end_after_set: bool = False
    end_after_reason: str = "bankrupt"
    #: the operating rounds of the current set: how many the phase gives (None: no set
    #: yet), the phase that gave them, how many were played
    or_set_size: Optional[int] = None
    set_phase: str = ""
    ors_in_set: int = 0
    #: corporations given their capital (10 x par, SB3; KNR 4 x par, K8)
    capitalised: set = field(default_factory=set)
    #: the round label of KNR's first operating round (K9)
    knr_first_or: Optional[str] = None
    #: Kita Osaka Kyuko's 100 paid (L3)
    kok_paid: bool = False
    #: the money (``money.py``'s ``Ledger``: its books are the game's, ``Holdings``)
    ledger: Any = None
    #: the rounds the record's markers begin: the auction and the stock round's handler
    #: (``stock.py``), the operating round (``operating.py``), the auction (``auction.py``)
    stock: Any = None
    operating: Any = None
    auction: Any = None


class _Kept:
    """An attribute of 1890's title object that is a field of its state (``State1890``):
    read and written there, so it is saved, restored and pictured with the rest."""

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, obj, owner=None):
        return self if obj is None else getattr(obj.state, self.name)

    def __set__(self, obj, value) -> None:
        setattr(obj.state, self.name, value)


class TitleKansai(Title):
    id = "1890"
    #: ``kansai`` was the title's id before the rule book named it (records,
    #: components files and rulesets written then still work)
    aliases = ("kansai", "Kansai (title line missing from the summary)", "Kansai",
               "the railways of Kansai (Keihanshin)")
    folder = Path(__file__).resolve().parent
    rounds_description = ("waterfall auction of the privates, then stock rounds (always one) "
                          "each followed by 1 to 3 operating rounds (by phase); minors 1-4 "
                          "convert into Kinki Nippon Railway in their operating turns")
    events = ("jr_privatised",)
    uses_components = True
    #: what the title object holds that is not its own state (``snapshot.state_snapshot``
    #: pictures the game, its round and the ledger's objects on their own): the game, the
    #: engine's replay, the rules and numbers, the rounds
    not_state = ("holdings", "replayer", "findings", "rules", "places", "not_in_play")
    # what a replay changes is the state's (``State1890``); these name its fields
    kind = _Kept()
    round_label = _Kept()
    sr_number = _Kept()
    end_after_set = _Kept()
    end_after_reason = _Kept()
    or_set_size = _Kept()
    set_phase = _Kept()
    ors_in_set = _Kept()
    ledger = _Kept()
    stock = _Kept()
    operating = _Kept()
    auction = _Kept()

    #: the rule book's scenarios, each a filled components file (scenarios/)
    scenarios = {"hanshin": "hanshin.yaml", "keihanshin": "keihanshin.yaml",
                 "1890": "1890.yaml", "1890-simplified": "1890-simplified.yaml"}

    @classmethod
    def shipped_components(cls, name):
        file = cls.scenarios.get(str(name).strip().lower())
        return cls.folder / "scenarios" / file if file else None

    @classmethod
    def load_rules(cls, options=(), components=None):
        from .rules import load_rules
        rules = load_rules(options, components)
        rules.title_class = cls
        return rules

    def operates(self, corp) -> bool:
        """Who operates in an operating round (the shared ``Game.operating_order``): a minor
        its owner bought, until it converts or closes (N0); a main company with a price
        marker while money is tracked (its place is its price's, O0b), floated (KNR: started
        by Osaka Electric Railroad's conversion, K8, unless it is a normal company), not
        closed by the black zone (K10), OMS from phase 4 (C5)."""
        h = self.game
        if corp.kind == "minor":
            return not corp.closed and h.minor_owner(corp.sym) is not None
        led = h.ledger
        if led is None or not led.on or corp.sym not in h.marked or led.closed(corp.sym):
            return False
        r = led.r
        if corp.sym == "OMS" and not r.phase_at_least("4"):
            return False
        if corp.sym == "KNR" and not r.knr_normal:
            return r.state.knr_started
        return corp.floated

    def operating_order_key(self, corp):
        """The minors first, by their numbers (N0: the rule book's reading
        ``rulebook.minors_operate: first``; the round checks their place among the main
        companies only with it), then the main companies by price, the highest first, on one
        cell the top marker, at equal prices the one further right (O0b)."""
        if corp.kind == "minor":
            return (0, corp.sym, ())
        return (1, "", self.game.price_order_key(corp))

    def cert_limit_applies(self) -> bool:
        """SB5 is checked while money is tracked (``Holdings.money_tracked``): what counts
        depends on the share prices' zones (SM1, SM2), which the market grid gives."""
        return self.game.money_tracked

    def counts_for_cert_limit(self, corp) -> bool:
        """SB5, SM1, N0: every certificate of a company counts (a minor's one), except while
        its price is in the yellow or orange zone (``no_cert_limit``) and once it is closed
        (a minor converted into KNR or privatised, N5; a company the black zone closed, K10)."""
        return not corp.closed and super().counts_for_cert_limit(corp)

    @classmethod
    def own_table(cls):
        """``railcheck next``, hover and completion for this title's own
        checker (``table.py``: ``kansai_next``, ``kansai_hover``,
        ``completion_items``)."""
        from . import table
        return table


    # ------------------------------------------------------------------
    # the engine's loop: the game, the record's rounds, 1890's own state

    @classmethod
    def new_game(cls, replay):
        """1890's game (``Holdings``, a shared ``Game``), its title object started by the
        record's rounds (:meth:`start`, ``RecordRounds1890.begin``)."""
        from .holdings import Holdings
        rules = replay.rules
        nip = rules.number("not_in_play")
        return Holdings(rules, list(replay.record.players),
                        isinstance(nip, list) and "M2" in nip)

    @classmethod
    def record_rounds(cls, replay):
        """1890's rounds are the record's own: each begins at the record's marker
        (``rounds.py``'s ``RecordRounds1890``)."""
        from .rounds import RecordRounds1890
        return RecordRounds1890(replay)

    def start(self, replay) -> None:
        """1890's own state and numbers for the engine's ``replay`` (its record), and its
        rounds on the game: the auction first."""
        rules = self.rules = replay.rules
        #: the engine's replay (its record: a candidate of ``next`` is played on a copy
        #: with the record's actions and the candidate)
        self.replayer = replay
        h = self.holdings = self.game
        #: what the replay changes: the title's flags, the record's round, the ledger and the
        #: rounds (``State1890``)
        self.state = State1890()
        from .components import place_of_hex
        self.places = place_of_hex(rules.components)
        nip = rules.number("not_in_play")
        #: the companies the scenario leaves out (nothing may be done with them)
        self.not_in_play = frozenset(nip) if isinstance(nip, list) else frozenset()
        #: Kinki is a normal company when Osaka Electric Railroad is not in play (scenario D,
        #: the rule book's variant "Kinki as a Normal Company", C10): 50% floats it, no share
        #: is reserved, anybody sets its par
        self.knr_normal = "M2" in self.not_in_play
        #: the findings, the game's (``Game.findings``)
        self.findings: list[Finding] = h.findings
        turns = rules.number("game_turns")
        #: E1 "10 faz gry": the game ends after this many game turns (a stock round and its
        #: operating rounds); None: not known
        self.game_turns = None if is_unknown(turns) else int(turns)
        from .auction import AuctionRound1890
        from .money import Ledger
        from .operating import OperatingRound1890
        from .stock import StockHandler
        self.ledger = h.ledger = Ledger(self)
        self.stock = StockHandler(self)
        self.operating = OperatingRound1890(self)
        self.auction = AuctionRound1890(self)
        #: the round the game is in (the analyser reads its label and whose turn it is)
        h.round = self.auction
        #: the components file's map (None: it gives none)
        h.board = self.operating.map.board

    @property
    def record(self):
        return self.replayer.record

    @property
    def unsure(self):
        """The amounts not sure and the checks skipped (the shared game's: ``Game.unsure``)."""
        return self.game.unsure

    @property
    def action(self):
        """The record's line at hand (the game's; None once the record has ended)."""
        return self.game.current_action

    @action.setter
    def action(self, action) -> None:
        self.game.current_action = action

    @property
    def position(self) -> int:
        """The place of the line at hand in the record."""
        return self.game.following.position

    # the game's end, the shared Game's

    @property
    def finished(self) -> bool:
        return self.game.finished

    @finished.setter
    def finished(self, value: bool) -> None:
        self.game.finished = value

    @property
    def end_reason(self) -> Optional[str]:
        return self.game.end_reason

    @end_reason.setter
    def end_reason(self, value: Optional[str]) -> None:
        self.game.end_reason = value

    # ------------------------------------------------------------------
    # findings

    def flag(self, rule: str, message: str, severity: str = ERROR, action=None) -> None:
        """A finding at ``action`` (the line at hand by default); 1890's findings stand
        alone (none is folded as the consequence of an earlier one)."""
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
    # the rounds by the rules' sequence

    def rules_next_round(self) -> RoundMarker:
        """The round the rules make after the one at hand, as the record marks it: the
        auction is followed by a stock round (A7), each stock round by the set of 1 to 3
        operating rounds its phase gives at its end (F3, O0: ``phases[].operating_rounds``,
        set by ``RecordRounds1890.round_ends``), numbered by the stock round and their place
        in the set, and the set by the next stock round.  The record's markers are its claim,
        checked against this (``RecordRounds1890.check_marker``); ``next`` names it when the
        record's round is over.  (Whether the game ends instead, E1, is the round's start's:
        ``RecordRounds1890.round_starts``.)"""
        if self.kind == "auction":
            return RoundMarker(kind="SR", number=(self.sr_number + 1,))
        if self.kind == "SR":
            return RoundMarker(kind="OR", number=(self.sr_number, 1))
        size = self.or_set_size
        if size is not None and self.ors_in_set < size:
            return RoundMarker(kind="OR", number=(self.sr_number, self.ors_in_set + 1))
        return RoundMarker(kind="SR", number=(self.sr_number + 1,))

    # ------------------------------------------------------------------
    # the record's lines

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

    def take(self, action) -> None:
        """One line of the record (not a marker or checkpoint), in the round at hand
        (the 1890 rounds' ``process``, which the engine's loop asks)."""
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

    def bank_broke(self) -> None:
        """E1: the bank ran out: the game ends at once or after the set of
        ORs (``rulebook.end_on_bank``; unknown: where the record ends)."""
        timing = self.rules.number("rulebook", "end_on_bank")
        if timing == "immediate" and not self.finished:
            self.finished, self.end_reason = True, "bank"
        elif timing == "full_or" and not self.end_after_set:
            self.end_after_set, self.end_after_reason = True, "bank"

    # ------------------------------------------------------------------
    # the result (the engine's ``Replay.result``, reading the ledger's books through the
    # game: ``Holdings.standings``, ``company_table``, ``standings_doubt``)

    def unchecked(self) -> list[tuple[str, str]]:
        """What 1890 does not check (``kansai.unchecked``): never the depot's order of sale,
        nor E1's end after "10 faz gry" unless the components file gives the game turns;
        and, while money is not tracked, why and what that leaves out, with the money
        checkpoints not checked (``Unsure.untracked``)."""
        led = self.ledger
        money = self.skipped.get(CHECKPOINTS)
        text = UNCHECKED if self.game_turns is None else UNCHECKED_TURNS
        if not led.on:
            off = ".".join(str(k) for k in led.off) if led.off else ""
            why = f"{off} is unknown" if off and off != "companies" else \
                "the auction was not played" if off == "companies" else "no auction"
            text = NO_MONEY.format(why=why) + "; " + text
            if money:
                text += f"; {money.count} money checkpoint(s) not checked"
        return [("kansai.unchecked", "Kansai: " + text)]
