"""The base of every title: where its ruleset lives and how its rounds follow each other.

A title is a folder ``railcheck/titles/<folder>/`` holding ``rules.yaml`` (every
number and switch of the game; it may ``extends`` another title), optional data
files it includes (``board.yaml``), and an ``__init__.py`` defining a
:class:`Title` subclass.  The class says which rounds the game is made of and
which steps make up each round; hooks let a title change what happens between
rounds.  The data goes in the YAML, the behaviour in the class.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, Optional


#: events every title's trains and phases may name (carried out by ``Game``)
SHARED_EVENTS = ("close_companies",)


class Title:
    """One game's title behaviour.  An instance belongs to one :class:`Game`."""

    #: the id used in game headers and exports ("1830")
    id: ClassVar[str] = ""
    #: other names accepted for it (case-insensitive)
    aliases: ClassVar[tuple[str, ...]] = ()
    #: the folder holding rules.yaml (set by each subclass: Path(__file__).parent)
    folder: ClassVar[Optional[Path]] = None
    #: one line for ``railcheck rules show``: the rounds the game is made of
    rounds_description: ClassVar[str] = ""
    #: the rules of runs of its own that the analyser's search of the best
    #: runs does not model (``history --routes``), in a few words ("" when
    #: its runs are the shared ones)
    own_run_rules: ClassVar[str] = ""
    #: the analyser's hindsight searches its runs with the title's own search
    #: (``best_runs_now``, by its own run rules: 18Ireland's); 1860's search
    #: weighs revenue and the halts' subsidy together, which the hindsight's
    #: one missed revenue does not say, so it is not used there
    hindsight_own_runs: ClassVar[bool] = False
    #: events of the title's own (``on_event`` carries them out)
    events: ClassVar[tuple[str, ...]] = ()
    #: values of ruleset keys this title's own rounds and steps implement
    #: beyond what the schema marks as supported (YAML path -> values)
    implements: ClassVar[dict[str, tuple]] = {}
    #: a title whose numbers come from a components file the user fills in
    #: (the game header's ``components:``); its class loads its own rules
    #: (``load_rules``)
    uses_components: ClassVar[bool] = False
    #: 18xx.games numbers a hex's places (in an export's run "nodes") as the
    #: map data here does; False where it counts cities, towns and halts its
    #: own way (1860): an imported run's stops then go without the number
    site_place_numbers: ClassVar[bool] = True
    #: a player who takes a presidency gives back his shares held longest
    #: (18xx.games: an export names the certificates, so it matters which
    #: ones go); False: the highest-numbered
    swap_oldest_first: ClassVar[bool] = False
    #: railcheck moves each numbered certificate as 18xx.games does (checked
    #: against the site's fresh random games: tools/difftest.py), so an
    #: export's purchase or sale naming one its player cannot take (another
    #: player's, a number the company has not) is flagged, as the site refuses
    #: it; False: certificates of one size are taken as alike, the record's
    #: numbers not checked
    names_certificates: ClassVar[bool] = False

    @classmethod
    def load_rules(cls, options=(), components: Optional[str] = None):
        """The rules of a title that ``uses_components``, merged with the
        components file at ``components`` (None: every number unknown)."""
        raise NotImplementedError

    @classmethod
    def shipped_components(cls, name: str) -> Optional[Path]:
        """A components file the title ships under ``name`` (a game's header
        ``components: NAME`` when no file of that name is next to the game),
        or None."""
        return None

    @classmethod
    def new_game(cls, replay):
        """The game the engine's ``replay`` plays its record on, when the title's game keeps
        more than the shared ``Game``; None: the shared one (``Replay.begin`` builds it)."""
        return None

    @classmethod
    def record_rounds(cls, replay):
        """The record-following layer's rounds for ``replay`` (``following/rounds.py``'s
        ``RecordRounds``; a title whose rounds are the record's own gives its subclass)."""
        from ..following.rounds import RecordRounds
        return RecordRounds(replay)

    def __init__(self, game):
        self.game = game

    @classmethod
    def ruleset_path(cls) -> Path:
        assert cls.folder is not None, f"title {cls.id} has no folder"
        return cls.folder / "rules.yaml"

    # ------------------------------------------------------------------
    # the rounds

    def auction_round(self):
        """The round that sells the privates at the start (None: no auction)."""
        raise NotImplementedError

    def stock_round(self):
        raise NotImplementedError

    def operating_round(self):
        raise NotImplementedError

    def operating_steps(self) -> list:
        """The step classes of a company's operating turn, in order."""
        raise NotImplementedError

    def first_round(self):
        g = self.game
        if g.companies and not g.rules.setup["deal_companies"]:
            return self.auction_round()
        return self.stock_round()

    def next_round(self, ended):
        """The round after ``ended``; None when the game is over."""
        g = self.game
        if ended.kind == "auction":
            return self.stock_round()
        if ended.kind == "SR":
            g.or_count = g.phase.operating_rounds
            g.or_number = 0
            return self.operating_round()
        # an operating round ended
        if g.or_number < g.or_count:
            return self.operating_round()
        if g.end_pending:
            g.finish(g.end_pending)
            return None
        return self.stock_round()

    # ------------------------------------------------------------------
    # hooks

    def setup(self):
        """After the game's state is built, before the first round."""

    def best_runs_now(self, corp, max_ticks: Optional[int] = None):
        """The best legal set of runs found for ``corp``'s trains on the map
        now, within ``max_ticks`` steps (None: the search's own budget for a
        result a finding rests on), as (revenue, subsidy, [(train name,
        [(hex index, node index)], its revenue, its subsidy)], gave up); or
        None (no map, no train, a map the search cannot read, runs the shared
        search does not model).  Here the shared search
        (``runsearch.search_best_runs``) by the shared route rules; a
        title whose runs follow rules of its own says its own (1860's,
        18Ireland's)."""
        from ..runsearch import RUN_TICKS, search_best_runs, standard_runs
        from ..findings import RuleViolation

        g = self.game
        board = g.board
        if board is None or not corp.trains or not standard_runs(g):
            return None
        trains = [(t.name, t.spec.reach) for t in corp.trains]
        ticks = RUN_TICKS if max_ticks is None else max_ticks
        color = g.phase.tiles[-1]

        def search():
            try:
                found = search_best_runs(board, corp.sym, trains, color, ticks)
            except RuleViolation:       # a map the search cannot read
                return (None,)
            return (found.total, 0, [(trains[ti][0], stops, rev, 0) for (ti, stops), rev
                                     in zip(found.chosen, found.revenues)], found.gave_up)

        got = board.memo("best runs", (board.version, corp.sym, tuple(t for t, _ in trains),
                                       ticks, color), search, limit=64)
        return None if got[0] is None else got

    def unchecked(self) -> list[tuple[str, str]]:
        """What this title does not check yet, as (rule id, message) pairs:
        the report carries each as an info finding, so a 'legal' game is
        never taken for more checked than it is."""
        return []

    def share_value(self, corp) -> int:
        """What one share of ``corp`` counts for in a player's net worth."""
        return corp.price.price

    def holding_value(self, corp, player) -> int:
        """What ``player``'s certificates of ``corp`` count for in his net
        worth: :meth:`share_value` per share."""
        return self.share_value(corp) * corp.percent_of(player) // corp.share_percent

    def president_label(self, corp) -> Optional[str]:
        """Who presides ``corp`` as the 18xx.games traces name it (the
        player's name; None when nobody does)."""
        return corp.president.name if corp.president else None

    def no_more(self, kind: str) -> Optional[str]:
        """Why the rules make no more rounds of ``kind`` ("SR", "OR", ...)
        from now on, or None: a round marker naming one is then a wrong
        marker, and the replay stays in the round it is in."""
        return None

    def operates(self, corp) -> bool:
        """Whether ``corp`` operates in an operating round now
        (``Game.operating_order``): floated and not closed."""
        return corp.floated and not corp.closed

    def operating_order_key(self, corp):
        """``corp``'s place in the operating order (``Game.operating_order``):
        by share price, the highest first (``Game.price_order_key``)."""
        return self.game.price_order_key(corp)

    def cert_limit_applies(self) -> bool:
        """Whether the certificate limit holds now (``Game.cert_limit_exceeded``)."""
        return True

    def counts_for_cert_limit(self, corp) -> bool:
        """Whether ``corp``'s certificates count towards the limit now: not while
        its price is in a zone outside the limit (``no_cert_limit``)."""
        return not (corp.price is not None and corp.price.has("no_cert_limit"))

    def exchange(self, action) -> None:
        """A private exchanged for a share (1830's MH), in any round."""
        self.apply_exchange(action, self.check_exchange(action))

    def check_exchange(self, action):
        """Why the exchange is refused (raise), else its plan; changes
        nothing.  The shared mechanics; a title whose exchange differs
        overrides this and :meth:`apply_exchange`."""
        from ..mechanics.shares import check_exchange
        return check_exchange(self.game, action)

    def apply_exchange(self, action, plan) -> None:
        from ..mechanics.shares import apply_exchange
        apply_exchange(self.game, action, plan)

    def on_event(self, event: str, train=None):
        """An event named by a train or a phase that the shared mechanics do
        not know (``Game.EVENTS``): the title carries it out."""
        from ..findings import RuleViolation
        raise RuleViolation("ruleset.event", f"{self.id} knows no event '{event}'")
