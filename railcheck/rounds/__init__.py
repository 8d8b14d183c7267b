"""Rounds: each decides which actions it accepts, explains refusals, applies.

A title's class (``railcheck.titles``) says which rounds its game is made of.
"""

from __future__ import annotations

from ..findings import RuleViolation, did_you_mean

class Round:
    kind = "round"

    def __init__(self, game):
        self.game = game
        self.finished = False
        #: (action, who, how): the record-following layer's reading of a line
        #: it placed under another name (``railcheck.following``): taken as
        #: ``who``'s ("as"), done already as ``who``'s ("done"), or accepted
        #: as saying what the rules did ("accepted"); None
        self.placed = None
        #: the round's steps (``steps.base.Step``), in order (an operating
        #: round's: the steps of a company's turn)
        self.steps = [cls(self) for cls in self.step_classes()]

    def step_classes(self) -> list:
        """The steps of this round, in order: a title's round class adds,
        replaces or reorders them."""
        return []

    def blocking_step(self):
        """The step that takes every action now (a par to set, an auction
        in progress), or None."""
        for s in self.steps:
            if s.blocking():
                return s
        return None

    def whose_turn(self):
        """The player or company whose turn it is, or None."""
        return None

    def due_instead(self, action):
        """The player due to act now in the place of ``action``'s writer,
        who may act in this round too but not yet (a vote cast out of the
        holders' order: the holder whose vote is due), for the
        record-following layer to read the line under that name; None."""
        return None

    def out_of_turn(self, action):
        """(the player, what to say or None) when ``action`` is that of a
        player who acts out of turn, and the round would take it otherwise
        (the record-following layer then flags it and gives him the turn:
        :meth:`take_turn`); None."""
        return None

    def take_turn(self, player) -> None:
        """``player``'s turn begins where the record has them act."""

    def active_steps(self) -> list:
        """The steps that may take an action now: the blocking one alone,
        else every step with something to do for the turn at hand (each
        says which kinds of action, ``Step.takes``; a candidate action is
        then checked by its step's pure ``check``)."""
        blocking = self.blocking_step()
        if blocking is not None:
            return [blocking]
        turn = self.turn_of_steps()
        return [s for s in self.steps if s.takes(turn)]

    def turn_of_steps(self):
        """What the steps are given as the turn (``Step.check``): the player
        or company whose turn it is, unless a round says otherwise."""
        return self.whose_turn()

    def step_by_type(self, cls):
        """The round's step of class ``cls`` (or a subclass), or None."""
        return next((s for s in self.steps if isinstance(s, cls)), None)

    def step_for(self, action):
        """The step that takes ``action``: the blocking one (unless it lets
        the action by: ``Step.yields_to``), else the first that owns it
        (None: no step of the round takes it)."""
        blocking = self.blocking_step()
        if blocking is not None and not blocking.yields_to(action):
            return blocking
        return next((s for s in self.steps if s.owns(action)), None)

    #: the rule of an action no step of the round takes
    action_rule = "round.out_of_place"

    def leave_blocking(self, action):
        """A blocking step that lets ``action`` by (not one of its own, and
        one it need not have first: ``yields_to``) is left; the step says
        what that means."""
        step = self.blocking_step()
        if step is not None and step.yields_to(action):
            step.give_way(action)

    def process_by_step(self, action):
        """Hand ``action`` to the step that takes it."""
        self.leave_blocking(action)
        step = self.step_for(action)
        if step is None:
            raise RuleViolation(self.action_rule,
                                f"'{action.verb}' is not an action of {self.label}")
        return self.take(step, action)

    def take(self, step, action):
        """``step`` checks ``action`` and applies it, for the turn at hand; a
        round keeps its turns' bookkeeping around it."""
        return step.process(self.turn_of_steps(), action)

    @property
    def label(self) -> str:
        return self.kind

    def start(self):
        """Called once when the round begins (after the previous one ended)."""

    def process(self, action):
        raise NotImplementedError

    def finish_round(self):
        """End the round now (the next round's action or marker arrived)."""
        self.finished = True

    def wants(self, action) -> bool:
        """False when the action belongs to the next round and this round
        can end before it (the round then finishes itself)."""
        return True

    def describe_turn(self) -> str:
        return ""

    def describe_step(self) -> str:
        """What the entity to act is doing ("laying track"), or ''."""
        return ""

    # helpers shared by rounds ------------------------------------------

    def player(self, name: str, rule: str = "turn.actor"):
        p = self.game.player_by_name.get(name)
        if p is None:
            raise RuleViolation(rule, f"{name} is not a player in this round's sense: "
                                f"{self.kind} actions are taken by players")
        return p

    def corporation(self, sym: str):
        corp = self.game.corporations.get(sym)
        if corp is None:
            raise RuleViolation("name.unknown", f"unknown corporation '{sym}'"
                                + did_you_mean(sym, self.game.corporations))
        return corp

    def company(self, sym: str):
        comp = self.game.companies.get(sym)
        if comp is None:
            spec = next((c for c in self.game.rules.companies if c.sym == sym), None)
            if spec is not None and spec.min_players is not None:
                n = len(self.game.players)
                raise RuleViolation("private.not_in_game",
                                    f"{sym} is not in a game of {n} players (it needs "
                                    f"{spec.min_players} or more)")
            raise RuleViolation("name.unknown", f"unknown private '{sym}'"
                                + did_you_mean(sym, self.game.companies))
        return comp


class AuctionRound(Round):
    """What every private auction shares: it takes bids, choices and passes;
    any other action means the record has moved on, and the auction is
    closed with a finding naming what was left unsold (rather than refusing
    everything that follows)."""

    kind = "auction"

    def __init__(self, game):
        super().__init__(game)
        #: the step of a bid (``auction.min_increment``)
        self.inc = game.rules.auction["min_increment"]

    @property
    def label(self) -> str:
        return "auction"

    def company_for_sale(self, sym: str):
        """The private ``sym`` (:meth:`company`), refused (``auction.sold``)
        when a player owns it already or it is closed."""
        company = self.company(sym)
        if company.owner is not None or company.closed:
            owner = company.owner.name if company.owner is not None else "nobody (closed)"
            raise RuleViolation("auction.sold", f"{company.sym} is already owned by {owner}")
        return company

    def unsold(self):
        raise NotImplementedError

    def least_bids(self, player, n: int) -> list:
        """The ``n`` least bids (actions) ``player`` may make for the turn
        now, the least first, in an auction for turns (1860's); none in
        any other.  Read by the record-following layer for a line the
        record left out (``following.auction.missing_pass``).  Pure."""
        return []

    def whose_turn(self):
        return self.current_player()

    def current_player(self):
        raise NotImplementedError

    def bid_kinds(self) -> tuple:
        """The kinds of action the auction's bidding takes now."""
        from ..actions import Bid, Pass
        return (Bid, Pass)

    def next_bidder(self, after):
        """The next player after ``after`` in seating order who has not
        passed (``self.passed``) in this auction, or None."""
        g = self.game
        p = after
        for _ in range(len(g.seat_order)):
            p = g.next_player(p)
            if p not in self.passed:
                return p
        return None

    def wants(self, action) -> bool:
        from ..actions import Bid, Choose, Par, Pass
        if self.game.pending_par is not None and isinstance(action, Par):
            return True
        return isinstance(action, (Bid, Choose, Pass))

    def finish_round(self):
        unsold = [c.sym for c in self.unsold()]
        if unsold:
            self.game.flag("auction.unfinished",
                           f"the auction is not over ({', '.join(unsold)} unsold) but the record "
                           f"goes on to another round; the unsold privates stay with the bank")
        self.finish()

    def finish(self):
        self.finished = True
