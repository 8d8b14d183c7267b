"""18Ireland's merger round (docs/18Ireland.md M1-M15).

After each set of operating rounds from phase 4, players in turn from the
priority holder either propose a merger of two or three minors (``propose``
each minor in turn; the proposal is closed by the proposer's ``pass`` or
its first vote, or when no further minor may be added) or pass.  The
holders of the minors' shares then vote, one vote per share, from the
proposer on (``vote for`` / ``vote against``); the shares in the bank pool
vote at once, for when the major's price would be above that minor's,
against when below.  A proposal is carried by more than half of the votes
cast (the pool abstaining when the prices are equal); voting stops as soon
as the outcome is certain.  Carried, the proposer names the unstarted major
the minors form (``propose MAJOR``): its price is the cell at the top-most
row and the left-most column of the minors' prices; it takes their cash,
trains, privates and stations; each 20% share of a minor becomes a 10%
share of the major (the pool's stay in the pool), the rest of the major's
shares go to its treasury; the presidency goes to the largest holder (ties:
the first from the proposer on).  The round ends when every player has
passed in a row.

Each minor added to a proposal must be joined by broad-gauge track to one
already in it, other companies' stations not blocking (M5,
``board/gauge.py``: ``broad_partners``).
"""

from __future__ import annotations

from ...actions import DiscardTrain, Pass, Propose, Vote
from ...findings import WARNING, RuleViolation
from ...rounds import Round
from ...steps.base import Step
from ...steps.trains import DiscardTrainStep
from .closing import close_corporation
from .shares import shares_of


class MergerRound(Round):
    kind = "MR"

    def __init__(self, game):
        super().__init__(game)
        self.current = game.priority
        self.passes = 0
        self.passes_before = 0
        self.proposal: list = []          # minors proposed, in order
        self.proposer = None
        self.voting = False
        self.votes: dict = {}             # player -> "for"/"against"
        self.pool_for = self.pool_against = 0
        self.carried = False
        self.rejected: list = []          # proposals refused this round (sets of syms)

    @property
    def label(self) -> str:
        g = self.game
        return f"MR {g.sr_number}.{g.or_number}"

    def start(self):
        self.skip_unable()

    def describe_turn(self) -> str:
        return self.current.name if self.current else ""

    # ------------------------------------------------------------------

    def live_players(self):
        return [p for p in self.game.seat_order if not p.bankrupt]

    def skip_unable(self):
        """A bankrupt player takes no turn."""
        g = self.game
        for _ in range(len(g.seat_order)):
            if not self.current.bankrupt:
                return
            self.current = g.next_player(self.current)

    def next_player(self):
        self.current = self.game.next_player(self.current)
        self.skip_unable()

    def wants(self, action) -> bool:
        g = self.game
        if isinstance(action, DiscardTrain):
            return action.actor in g.corporations
        if isinstance(action, (Propose, Vote)):
            return True
        return isinstance(action, Pass) and action.actor in g.player_by_name

    def step_classes(self) -> list:
        return [MergerDiscardStep, FormMajorStep, VoteStep, ProposeStep, MergerTurnStep]

    def process(self, action):
        return self.process_by_step(action)

    action_rule = "merger.action"

    # ------------------------------------------------------------------
    # turns

    def whose_turn(self):
        return self.current

    def out_of_turn(self, action):
        """A proposal or a pass by a player whose turn it is not (nor the
        proposer's, whose proposal is open), which the round takes: his turn
        begins; said unless the players between had nothing to propose (the
        site passes over them).  A refused action moves no turn."""
        player = self.game.player_by_name.get(action.actor)
        if player is None or self.carried or self.voting \
                or not isinstance(action, (Pass, Propose)) \
                or player is self.current or (self.proposal and player is self.proposer):
            return None
        if isinstance(action, Propose):
            try:
                self.step_by_type(ProposeStep).check(None, action)
            except RuleViolation:
                return None
        if self.idle_before(player) is None:
            return player, (f"{player.name} acted out of turn: it is {self.current.name}'s "
                            f"turn in {self.label}")
        return player, None

    def take_turn(self, player) -> None:
        idle = self.idle_before(player)
        if idle is not None:
            # the players between had nothing to propose: they passed
            # without a word (the site passes over them)
            self.passes += idle
        self.current = player

    # ------------------------------------------------------------------
    # proposing

    def problem(self, merged):
        """Why these minors may not merge (rule, message), or None."""
        g = self.game
        names = ", ".join(c.sym for c in merged)
        homes = [c.spec.home for c in merged]
        if len(set(homes)) < len(homes):
            return ("merger.proposal", f"{names} have their stations on the same hex")
        if g.board is not None:
            from ...board.gauge import broad_partners
            for i in range(1, len(merged)):
                c = merged[i]
                if not any(o.sym in broad_partners(g.board, c.sym) for o in merged[:i]):
                    others = ", ".join(f"{o.sym} ({self.station_text(o)})" for o in merged[:i])
                    return ("merger.connection",
                            f"{c.sym} ({self.station_text(c)}) is not joined by broad gauge "
                            f"track to {others}; merging minors must be connected by broad "
                            f"track, other companies' stations not blocking (M5)")
        # each 20% share of a minor becomes one share of the major (M14): the
        # major's shares (10), its holding limit (70%) and the pool's (50%)
        major = self.major_model()
        share = major.share_percent if major is not None else 10
        issued = sum(shares_of(c, h) for c in merged for h in list(g.players) + ["pool"])
        if issued * share > 100:
            return ("merger.shares", f"{names} have {issued} shares with players and the pool; "
                                     f"at most {100 // share} may merge (M7)")
        limit = g.holding_limit(major) if major is not None else 70
        for p in g.players:
            n = sum(shares_of(c, p) for c in merged)
            if n * share > limit:
                parts = ", ".join(f"{c.sym} {c.percent_of(p)}%" for c in merged
                                  if c.percent_of(p))
                return ("merger.shares",
                        f"after the merger {p.name} would hold {n * share}% of the major "
                        f"({parts}: one {share}% share per {merged[0].share_percent}%); the limit is "
                        f"{limit}% (M8)")
        pool = sum(shares_of(c, "pool") for c in merged)
        pool_limit = g.pool_limit(major) if major is not None else g.rules.stock.pool_limit
        if pool * share > pool_limit:
            return ("merger.shares",
                    f"after the merger the bank pool would hold {pool * share}% of the major "
                    f"({pool} shares); the limit is {pool_limit}% (M8)")
        return None

    def major_model(self):
        """A major not yet started (the one a merger would form is named only
        after the vote; they all have the same shares and limits), or None."""
        return next((c for c in self.game.corporations.values()
                     if c.kind != "minor" and c.par is None and not c.closed), None)

    def station_text(self, corp) -> str:
        """The hexes of the company's stations (a minor has one)."""
        return "/".join(coord for coord, _ in self.game.board.stations(corp.sym)) or "no station"

    def can_propose(self, player) -> bool:
        """Some pair of operating minors, the first one held by ``player``,
        may still be proposed (not rejected in this round)."""
        g = self.game
        if not any(c.par is None and not c.closed and c.kind != "minor"
                   for c in g.corporations.values()):
            return False
        minors = [c for c in g.corporations.values()
                  if c.kind == "minor" and c.floated and not c.closed]
        for a in minors:
            if not a.percent_of(player):
                continue
            for b in minors:
                if b is not a and frozenset((a.sym, b.sym)) not in self.rejected \
                        and self.problem([a, b]) is None:
                    return True
        return False

    def rest_idle(self) -> bool:
        """Every player who has not passed since the last proposal has
        nothing left to propose, and the record goes on with another round:
        the site passes over such players, and the round is over.  (A record
        that writes their passes, as the real exports do, goes on with them.)"""
        g = self.game
        if g.following.goes_on_with_players((Pass, Propose, Vote), g.player_by_name):
            return False
        live = self.live_players()
        p = self.current
        for _ in range(len(live) - self.passes):
            if self.can_propose(p):
                return False
            p = g.next_player(p)
            while p.bankrupt:
                p = g.next_player(p)
        return True

    def idle_before(self, player):
        """How many players from the current one up to ``player`` (not
        included) had nothing to propose, or None if one of them had."""
        g = self.game
        n, p = 0, self.current
        for _ in range(len(g.seat_order)):
            if p is player:
                return n
            if not p.bankrupt and self.can_propose(p):
                return None
            n += 0 if p.bankrupt else 1
            p = g.next_player(p)
        return None

    def close_proposal(self):
        if len(self.proposal) < 2:
            raise RuleViolation("merger.proposal", "a merger needs at least two minors")
        self.voting = True
        self.votes = {}
        price = self.new_price()
        self.pool_for = self.pool_against = 0
        for c in self.proposal:
            n = shares_of(c, "pool")
            if price.price > c.price.price:
                self.pool_for += n
            elif price.price < c.price.price:
                self.pool_against += n
        self.settle_vote()

    def new_price(self):
        g = self.game
        row = min(c.price.row for c in self.proposal)
        col = min(c.price.col for c in self.proposal)
        return g.market.grid[row][col]

    # ------------------------------------------------------------------
    # voting

    def due_instead(self, action):
        """A vote by a holder who has not voted, cast before the holder
        whose vote is due (M9): that holder."""
        player = self.game.player_by_name.get(getattr(action, "actor", None))
        if not self.voting or not isinstance(action, Vote) or player is None \
                or player in self.votes or not self.votes_of(player):
            return None
        due = next((p for p in self.voters() if p not in self.votes), None)
        return due if due is not None and due is not player else None

    def votes_of(self, player) -> int:
        return sum(shares_of(c, player) for c in self.proposal)

    def voters(self) -> list:
        """The holders of the proposed minors, in seat order from the proposer."""
        g = self.game
        order = [self.proposer]
        while len(order) < len(g.seat_order):
            order.append(g.next_player(order[-1]))
        return [p for p in order if self.votes_of(p)]

    def settle_vote(self):
        holders = [p for p in self.game.players if self.votes_of(p)]
        total = sum(self.votes_of(p) for p in holders) + self.pool_for + self.pool_against
        need = total // 2 + 1
        yes = self.pool_for + sum(self.votes_of(p) for p, v in self.votes.items() if v == "for")
        left = sum(self.votes_of(p) for p in holders if p not in self.votes)
        if yes >= need:
            self.voting = False
            self.carried = True
        elif yes + left < need:
            self.voting = False
            self.rejected.append(frozenset(c.sym for c in self.proposal))
            self.end_proposal()

    def end_proposal(self):
        self.proposal = []
        self.carried = False
        self.current = self.proposer
        self.proposer = None
        self.passes = 0
        self.next_player()


# ---------------------------------------------------------------------------
# the steps of a merger round

class MergerDiscardStep(DiscardTrainStep):
    """A company over its train limit discards at any moment."""

    def check(self, turn, action):
        return super().check(None, action)


class FormMajorStep(Step):
    """The merger was carried: its proposer names the major it forms before
    anything else happens (a discard aside), and the major forms (M10-M15)."""

    only_blocking = True
    name = "forming the major"
    actions = (Propose,)

    def blocking(self) -> bool:
        return self.round.carried

    def owns(self, action) -> bool:
        return self.blocking()

    def yields_to(self, action) -> bool:
        return isinstance(action, DiscardTrain)

    def check(self, turn, action):
        """Why the major the carried merger forms is refused (raise), else
        the major."""
        rnd = self.round
        player = rnd.player(action.actor)
        if player is not rnd.proposer or not isinstance(action, Propose):
            raise RuleViolation("merger.major",
                                f"the merger was carried; {rnd.proposer.name} names the "
                                f"major it forms")
        major = rnd.corporation(action.corporation)
        if major.kind == "minor" or major.par is not None or major.closed:
            raise RuleViolation("merger.major",
                                f"{major.sym} is not a major that has not been started")
        return major

    def apply(self, turn, action, major) -> None:
        """The carried merger forms ``major``: its price, its shares for the
        minors' (the largest holder presides), the minors' cash, trains,
        privates and stations; the minors close."""
        rnd = self.round
        g = self.game
        cell = rnd.new_price()
        major.par = cell
        g.place_price(major, cell)
        minors = rnd.proposal
        order = [rnd.proposer]
        while len(order) < len(g.seat_order):
            order.append(g.next_player(order[-1]))
        given = {p: sum(shares_of(c, p) for c in minors) for p in order}
        pool = sum(shares_of(c, "pool") for c in minors)
        for c in major.certs:
            c.owner = "ipo"
        # the holders receive their shares in turn from the proposer, each the
        # treasury's first certificates (the first with two shares or more
        # the president's and the next ones), and a holder with more shares
        # than the president takes the presidency over as by a purchase:
        # which certificates each then holds is the site's (a later sale or
        # redemption names them: random 2711199_3, #1046; 33000019_2, #270)
        major.president = None
        for p in order:
            n = given[p]
            if n <= 0:
                continue
            treasury = [c for c in major.certs if c.owner == "ipo"]
            pres = treasury[0] if treasury and treasury[0].president else None
            if pres is None:
                bundle = treasury[:n]
            elif n > 1:
                bundle = treasury[:n - pres.percent // major.share_percent + 1]
            else:
                bundle = treasury[1:2]
            for c in bundle:
                c.owner = p
            if pres is not None and pres.owner is p:
                major.president = p
            elif major.president is not None:
                g.update_president(major)
        for c in [c for c in major.certs if c.owner == "ipo"][:pool]:
            c.owner = "pool"
        major.floated = True
        major.home_placed = True
        for c in minors:
            g.transfer(c, major, c.cash)
            for t in list(c.trains):
                c.trains.remove(t)
                t.owner = major
                major.trains.append(t)
            for comp in list(c.companies):
                c.companies.remove(comp)
                comp.owner = major
                major.companies.append(comp)
            st = g.title.state
            for k, (owner, hx) in list(st.assigned.items()):
                if owner == c.sym:
                    st.assigned[k] = (major.sym, hx)
            if g.board is not None:
                g.board.transfer_tokens(c.sym, major.sym)
            c.cash = 0
            close_corporation(g, c)
        major.tokens_placed = g.board.tokens_used.get(major.sym, 0) if g.board is not None \
            else len(minors)
        rnd.end_proposal()


class VoteStep(Step):
    """The holders of the proposed minors vote, one vote per share, in turn
    from the proposer (M9); the proposer's first vote closes his proposal."""

    name = "voting"
    actions = (Vote,)

    def blocking(self) -> bool:
        return self.round.voting

    def yields_to(self, action) -> bool:
        return isinstance(action, DiscardTrain)

    def available(self, turn) -> bool:
        """(not blocking) the proposer may close his proposal with his vote"""
        return len(self.round.proposal) > 1 and self.round.proposer is turn

    def owns(self, action) -> bool:
        """(not blocking) the proposer's vote closing his open proposal"""
        rnd = self.round
        return isinstance(action, Vote) and bool(rnd.proposal) and rnd.proposer is not None \
            and action.actor == rnd.proposer.name

    def check(self, turn, action):
        """(the player, whether the vote closes the proposal, the note of a
        vote out of the holders' order or None), or a refusal."""
        rnd = self.round
        player = rnd.player(action.actor)
        if rnd.voting:
            return player, False, self.check_vote(player, action)
        # the proposer's first vote closes the proposal, then counts
        if len(rnd.proposal) < 2:
            raise RuleViolation("merger.proposal", "a merger needs at least two minors")
        if not rnd.votes_of(player):
            raise RuleViolation("merger.vote",
                                f"{player.name} holds no share of "
                                f"{', '.join(c.sym for c in rnd.proposal)} and has no vote")
        return player, True, None

    def check_vote(self, player, action):
        """Why ``player``'s vote is refused (raise), else the note of a vote
        out of the holders' order (M9: counted as the record says) or None."""
        rnd = self.round
        if not isinstance(action, Vote):
            raise RuleViolation("merger.vote",
                                f"the vote on {', '.join(c.sym for c in rnd.proposal)} is "
                                f"under way; {player.name} may only vote for or against")
        if not rnd.votes_of(player):
            raise RuleViolation("merger.vote",
                                f"{player.name} holds no share of "
                                f"{', '.join(c.sym for c in rnd.proposal)} and has no vote")
        if player in rnd.votes:
            raise RuleViolation("merger.vote", f"{player.name} already voted")
        return self.vote_order_note(player)

    def vote_order_note(self, player):
        """M9: the holders vote in turn from the proposer; one out of turn is
        flagged and his vote counted, as the record says."""
        rnd = self.round
        order = rnd.voters()
        due = next((p for p in order if p not in rnd.votes), None)
        if due is not None and player is not due:
            return (f"{player.name} votes before {due.name}: the holders of "
                    f"{', '.join(c.sym for c in rnd.proposal)} vote in turn from the "
                    f"proposer ({', '.join(p.name for p in order)}) (M9); counted as "
                    f"the record says")
        return None

    def apply(self, turn, action, plan) -> None:
        rnd = self.round
        player, closing, note = plan
        if closing:
            rnd.close_proposal()
            if not (rnd.voting or rnd.carried):
                return      # the bank pool's votes rejected it at once
            note = self.vote_order_note(player)
        if note is not None:
            self.game.flag("merger.vote", note)
        rnd.votes[player] = action.choice
        rnd.settle_vote()


class ProposeStep(Step):
    """A player proposes minors to merge, one at a time (M1-M8); a proposal
    of as many minors as may merge closes at once."""

    name = "proposing a merger"
    actions = (Propose,)

    def check(self, turn, action):
        """(the player, the proposal with ``action``'s minor added), or a
        refusal; changes nothing."""
        rnd = self.round
        g = self.game
        player = rnd.player(action.actor)
        corp = rnd.corporation(action.corporation)
        spec = g.rules.settings.merger
        if corp.kind != "minor":
            raise RuleViolation("merger.proposal",
                                f"{corp.sym} is not a minor; a proposal names minors")
        if corp.closed or not corp.floated:
            raise RuleViolation("merger.proposal",
                                f"{corp.sym} is not an operating minor")
        if corp in rnd.proposal:
            raise RuleViolation("merger.proposal", f"{corp.sym} is already in the proposal")
        if not rnd.proposal and not corp.percent_of(player):
            raise RuleViolation("merger.proposal",
                                f"{player.name} holds no share of {corp.sym}; a proposal "
                                f"starts with a minor the proposer holds a share of")
        if len(rnd.proposal) >= spec["max_minors"]:
            raise RuleViolation("merger.proposal",
                                f"at most {spec['max_minors']} minors merge at once")
        if not any(c.par is None and not c.closed and c.kind != "minor"
                   for c in g.corporations.values()):
            raise RuleViolation("merger.proposal", "no major is left to form")
        merged = rnd.proposal + [corp]
        problem = rnd.problem(merged)
        if problem is not None:
            raise RuleViolation(*problem)
        return player, merged

    def apply(self, turn, action, plan) -> None:
        rnd = self.round
        g = self.game
        player, merged = plan
        spec = g.rules.settings.merger
        if not rnd.proposal:
            rnd.passes_before = rnd.passes
        rnd.proposal = merged
        rnd.proposer = player
        rnd.passes = 0
        key = frozenset(c.sym for c in merged)
        if key in rnd.rejected:
            # the site clears it at once with no vote; the proposer may go on.
            # It was no proposal: the passes made before it still count (the
            # round ends when the others have passed: random 18003_0, #224)
            g.flag("merger.repeated",
                   f"the merger of {', '.join(sorted(key))} was rejected earlier in this round "
                   f"and may not be proposed again; it is cleared with no vote", WARNING)
            rnd.proposal = []
            rnd.passes = rnd.passes_before
            return
        if len(merged) >= spec["max_minors"]:
            rnd.close_proposal()


class MergerTurnStep(Step):
    """A pass: it closes the player's proposal (two minors or more), else
    ends his turn; the round ends when every player passed in a row (or the
    rest have nothing to propose).  Any other action has no place here."""

    name = "proposing or passing"
    actions = None

    def takes(self, turn) -> tuple:
        return (Pass,)

    def check(self, turn, action):
        rnd = self.round
        player = rnd.player(action.actor)
        if not isinstance(action, Pass):
            raise RuleViolation("merger.action",
                                f"'{action.verb}' is not a merger round action")
        return player

    def apply(self, turn, action, player) -> None:
        rnd = self.round
        if len(rnd.proposal) > 1:
            return rnd.close_proposal()
        rnd.proposal = []
        rnd.passes += 1
        rnd.next_player()
        if rnd.passes >= len(rnd.live_players()) or rnd.rest_idle():
            rnd.finished = True
