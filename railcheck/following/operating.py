"""The operating round as the record has it."""

from __future__ import annotations

import dataclasses

from ..actions import (BuyCompany, BuyShares, Checkpoint, DiscardTrain, Dividend, Exchange,
                       Par, Pass, RoundMarker, RunRoutes, SellShares)
from ..findings import RuleViolation
from ..state import Corporation
from .base import RoundFollower


class OperatingFollower(RoundFollower):
    """An operating round: a round the record never played is one finding;
    its last turn, ended by itself, is taken up again when the record goes
    on with that company; the record ending in the game's last turn closes
    it."""

    gathers_unplayed = True

    def __init__(self, rnd):
        super().__init__(rnd)
        #: companies whose turn waits because the record has them operate
        #: later (said once in the round)
        self.delayed: set = set()

    # ------------------------------------------------------------------
    # where an action stands

    def place(self, action) -> None:
        """Put the round where the record says the action stands: discards
        forced, the acting company's turn begun (companies between take
        empty turns, or wait when the record has them operate later), a
        line written in another company's turn taken as that company's, the
        turn that ended by itself taken up again.  The action itself is
        checked after this, by its step, which changes nothing when it
        refuses."""
        rnd = self.round
        g = self.game
        rnd.enforce_discards(action)
        company = g.private_actor(action.actor)
        if company is not None and isinstance(company.owner, Corporation) and not company.closed:
            self.place_private(company.owner)
            return
        corp = g.corporations.get(action.actor)
        if corp is None or self.in_no_turn(action):
            return
        if corp is rnd.whose_turn():
            rnd.closed_turn = None
            if self.pass_of_passed_over_step(corp, action):
                rnd.placed = (action, corp, "passed_over")
        elif self.reopens(corp) and not self.after_own_closing_pass(corp, action):
            rnd.placed = (action, corp, "reopen")
        elif self.written_in_turn(corp, action):
            cur = rnd.whose_turn()
            nxt = g.following.next_action
            if nxt is not None and rnd.turn is not None and self.goes_on_with_turn(nxt, rnd.turn):
                why = f"the record goes on with {cur.sym}"
            elif self.cannot_start(corp):
                why = f"{corp.sym} takes no turn now and {cur.sym} could take it"
            elif nxt is not None and nxt.actor == corp.sym:
                why = (f"the record goes on with {corp.sym}'s own '{nxt.verb}', "
                       + ("of the step a pass beginning its turn would leave"
                          if isinstance(action, Pass) else "a step before it"))
            elif isinstance(action, RunRoutes) and self.runs_own_trains(cur, action):
                why = (f"the trains it runs are {cur.sym}'s, and the record goes on with "
                       f"{nxt.actor}, next after {cur.sym}")
            else:
                why = (f"the record goes on with {nxt.actor}, next after {cur.sym}, and has "
                       f"{corp.sym} operate later in {rnd.label}")
            g.flag("turn.order",
                   f"{corp.sym}'s '{action.verb}' is written in {cur.sym}'s turn, and "
                   f"{why}: taken as {cur.sym}'s")
            rnd.placed = (action, cur, "as")
            rnd.closed_turn = None
        else:
            self.switch_to(corp)
            rnd.closed_turn = None

    def unwritten_step(self, action):
        """``(turn, step)`` when ``action``, an export's line of the turn's
        company, takes its turn past a step with something to do that
        18xx.games asks a line of (``Step.site_asks``: 18Ireland's issue or
        redemption): the site's record then has that step's action or its
        pass before anything of a later step, and this one has neither
        (``following/unwritten.py``); else None.  Pure."""
        g = self.game
        rnd = self.round
        t = rnd.turn
        if not g.following.from_export or t is None or isinstance(action, Pass) \
                or action.action_id is None \
                or t.corp.sym != action.actor or rnd.placed is not None or t.step >= rnd.done:
            # (a line with no id is none of the export's: a hint's candidate
            # line put in a turn, 18Ireland_rand_43000102_3 #502)
            return None
        step = rnd.steps[t.step]
        if not step.site_asks:
            return None
        mine = rnd.step_of(action)
        if mine is None or not mine.ordered or rnd.step_index(mine) <= t.step \
                or not step.available(t):
            return None
        following = g.following
        for i in range(following.position - 1, -1, -1):
            # the record wrote the step's line in this turn, refused (a
            # redemption the company could not pay for): no line is missing
            prev = following.actions[i]
            if getattr(prev, "actor", None) != action.actor:
                break
            if step.owns(prev) or isinstance(prev, Pass):
                return None
        return t, step

    def in_no_turn(self, action) -> bool:
        """``action`` is placed in no company's turn: an exchange, a discard
        (they come whenever the record gives them)."""
        return isinstance(action, (Exchange, DiscardTrain))

    def pass_of_passed_over_step(self, corp, action) -> bool:
        """A pass of the turn's company where the step it would leave is the
        one that takes the company's next line (its run after the pass), and
        leaving it is flagged (a company must run):
        the pass is of a step the rules passed over here (a station it had
        no city for, as the replay's map stands: 1830_rand_48000101_1 #307,
        a tile turned so that PRR reaches no city, its station step's pass
        read as not running), not of the step its next line takes."""
        rnd = self.round
        t = rnd.turn
        if not isinstance(action, Pass) or t is None or t.step >= rnd.done:
            return False
        g = self.game
        nxt = g.following.next_action
        if not isinstance(nxt, RunRoutes) or nxt.actor != corp.sym:
            return False
        step = rnd.step_of(nxt)
        if step is None or not step.ordered or step is not rnd.steps[t.step]:
            return False
        # the pass of the run itself flags (a company must run its trains):
        # a pass that would pass nothing the rules ask for stays a pass (a
        # pass under a wrong name, whose step the next line takes, is
        # flagged where that line is refused: 1830_rand_48000100_1 #739)
        return not g.clean_attempt(lambda: step.leave(t))[0]

    def keeps(self, action) -> bool:
        """An action of the company whose turn just ended by itself, before
        the next company has acted (its pass of a step the rules passed
        over): the round goes on with that turn, rather than the next
        operating round beginning with it."""
        corp = self.game.corporations.get(getattr(action, "actor", None))
        if corp is None or isinstance(action, (Exchange, DiscardTrain)) \
                or corp is self.round.whose_turn():
            return False
        return (self.reopens(corp) and not self.round.at_end()) \
            or self.last_turns_dividend(corp, action) or self.last_turns_pass(corp, action)

    def last_turns_dividend(self, corp, action) -> bool:
        """A dividend under the name of ``corp``, a company that has operated
        in this round, while the round's turn under way has run and has its
        dividend to decide (which it could decide so with no finding): the
        line is that turn's dividend under a wrong name, not the first line
        of the next round (18xx.games asks for a dividend after every run
        that earned something, before anything else; 1860_rand_48000100_2
        #572: the last company NGStL's payout written as IOW's)."""
        rnd = self.round
        t = rnd.turn
        if not isinstance(action, Dividend) or t is None or corp is t.corp \
                or corp not in rnd.order[: rnd.index + 1]:
            return False
        return self.turn_could_take(t, action)

    def last_turns_pass(self, corp, action) -> bool:
        """A pass under the name of ``corp``, a company that has operated in
        this round, while the round's last turn is under way, and the
        record goes on with ``corp``'s own line at the step a pass beginning
        its turn (in the next round) would leave: the turn's closing pass
        under a wrong name (:meth:`own_turn_goes_on_earlier`), not the first
        line of the next round (29133 #112: NYNH's closing pass of OR 2.1
        written as B&O's, B&O's lay next: 17 errors)."""
        rnd = self.round
        t = rnd.turn
        nxt = self.game.following.next_action
        if not isinstance(action, Pass) or t is None or corp is t.corp \
                or corp not in rnd.order[: rnd.index + 1] \
                or getattr(nxt, "actor", None) != corp.sym:
            return False
        return self.own_turn_goes_on_earlier(corp, action, nxt)

    def reopens(self, corp) -> bool:
        """The company whose turn just ended by itself acts again before the
        next company has done anything: its action belongs to that turn."""
        rnd = self.round
        if self.last_company() is not corp:
            return False
        # the next company has not acted yet, or the round's last turn ended by itself
        return (rnd.turn is not None and not rnd.turn.acted) or rnd.at_end()

    def written_in_turn(self, corp, action) -> bool:
        """An action of ``corp`` while another company's turn is under way,
        and the record's next action is that company's again: the line was
        written in its turn under a wrong name (a stand-in, not a turn of
        ``corp`` begun out of order)."""
        rnd = self.round
        g = self.game
        t = rnd.turn
        nxt = g.following.next_action
        if t is None or corp is t.corp or nxt is None:
            return False
        if getattr(nxt, "actor", None) == corp.sym:
            return self.own_turn_goes_on_earlier(corp, action, nxt)
        if not self.goes_on_with_turn(nxt, t):
            # a company that cannot take a turn now (not floated, or done in
            # this round) written where the turn's company could take the
            # line with no finding (the dividend after its run): a stand-in
            # even as the last line of the turn
            if self.cannot_start(corp):
                return self.turn_could_take(t, action)
            return self.pass_closing_turn(corp, action, nxt)
        if isinstance(action, BuyCompany):
            # a private bought names its buyer (in a hand-written record the
            # buyer's turn begins there): in an export, whose lines are the
            # site's, taken as the turn's company's when that company could
            # buy it so with no finding
            return g.following.from_export and self.could_buy_private(t, action)
        if rnd.order and corp is rnd.order[-1] and isinstance(action, Pass):
            # the round's last company's pass may be its whole turn, and the
            # next line the next round's; not when the record has it act
            # later in this round, after the companies between
            return self.acts_later_in_round(corp)
        return True

    def after_own_closing_pass(self, corp, action) -> bool:
        """A line (no pass) of ``corp``, whose turn it closed with its own
        pass on the record's line before, written at the start of the next
        company's turn, which the record goes on with and which could take
        the line with no finding: that turn's line under a wrong name, not
        ``corp``'s turn reopened (1860_rand_2711164_0 #508: S&C's lay
        written as FYN's, right after FYN's pass, S&C's run next).  Then
        :meth:`written_in_turn` takes it so."""
        rnd = self.round
        g = self.game
        t = rnd.turn
        following = g.following
        pos = following.position
        if isinstance(action, Pass) or t is None or t.acted or pos <= 0:
            return False
        prev = following.actions[pos - 1]
        nxt = following.next_action
        return isinstance(prev, Pass) and prev.actor == corp.sym \
            and getattr(nxt, "actor", None) == t.corp.sym and self.turn_could_take(t, action)

    def own_turn_goes_on_earlier(self, corp, action, nxt) -> bool:
        """The record goes on with ``corp`` itself, at an earlier step of a
        turn than ``action``'s (its lay after this purchase): the line
        cannot begin ``corp``'s turn, and the turn under way, whose company
        has acted, could take it with no finding: written in that turn
        under a wrong name (1860_rand_2711164_0 #271: IWNJ's train written
        as NGStL's, NGStL's lay next)."""
        rnd = self.round
        t = rnd.turn
        if not t.acted:
            return False
        if isinstance(action, Pass):
            # a pass beginning ``corp``'s turn would leave its first step,
            # and its next line at that step could not follow it
            # (1830_rand_52000074_0 #153: B&O's closing pass written as
            # ERIE's, ERIE's lay next: 99 errors)
            first = next((s for s in rnd.steps if s.ordered), None)
            if first is None or rnd.step_of(nxt) is not first or t.step >= rnd.done:
                return False
            ok, _ = self.game.clean_attempt(lambda: rnd.steps[t.step].check_pass(t))
            return ok
        mine, then = rnd.step_of(action), rnd.step_of(nxt)
        if mine is None or then is None or not mine.ordered or not then.ordered \
                or rnd.step_index(mine) <= rnd.step_index(then):
            return False
        return self.turn_could_take(t, action)

    def pass_closing_turn(self, corp, action, nxt) -> bool:
        """A pass (or a dividend the turn's company could pay with no
        finding) under the name of ``corp``, a company yet to operate in
        this round, where the turn's company could pass: the record's next
        line is the next company's in the order (the turn ended with the
        pass) and the record has ``corp`` operate later in the round (its
        pass now cannot be its whole turn): the turn's company's pass."""
        rnd = self.round
        if not isinstance(action, (Pass, Dividend, RunRoutes)) \
                or rnd.index + 1 >= len(rnd.order):
            return False
        if getattr(nxt, "actor", None) != rnd.order[rnd.index + 1].sym:
            return False
        t = rnd.turn
        if isinstance(action, (Dividend, RunRoutes)):
            # its dividend after its run, the turn's last line (1830_rand_44000100_1
            # #347: NYC's payout written as NYNH's, which operates later); its
            # run, the turn's last line where no dividend follows, on the
            # trains it owns (1860_rand_48000100_3 #509: IOW's run written
            # as NGStL's)
            if not self.turn_could_take(t, action):
                return False
            if isinstance(action, RunRoutes) and self.runs_own_trains(t.corp, action) \
                    and not self.runs_own_trains(corp, action):
                # the trains named are the turn's company's, none the named
                # company's: whether or not it operates later
                return True
        elif t.step < rnd.done:
            ok, _ = self.game.clean_attempt(lambda: rnd.steps[t.step].check_pass(t))
            if not ok:
                return False
        return self.acts_later_in_round(corp)

    def runs_own_trains(self, corp, run) -> bool:
        """Every train ``run`` names by its id is ``corp``'s (an export's
        run names each train so)."""
        ids = [r.train_id for r in run.routes]
        if not ids or None in ids:
            return False
        trains = self.game.train_by_id
        return all(i in trains and trains[i].owner is corp for i in ids)

    def cannot_start(self, corp) -> bool:
        """``corp``'s turn may not begin now in this round (pure)."""
        try:
            self.round.check_may_start(corp)
        except RuleViolation:
            return True
        return False

    def turn_could_take(self, t, action) -> bool:
        """The turn's company could take ``action`` under its own name, with
        no finding (its step's pure check)."""
        step = self.round.step_of(action)
        if step is None or not step.available(t):
            return False
        mine = dataclasses.replace(action, actor=t.corp.sym)
        ok, _ = self.game.clean_attempt(lambda: step.check(t, mine))
        return ok

    @staticmethod
    def goes_on_with_turn(nxt, t) -> bool:
        """The record's next line belongs to the turn ``t``: the company's
        own, or its president's emergency sale for it."""
        if nxt.actor == t.corp.sym:
            return True
        president = t.corp.president
        return isinstance(nxt, SellShares) and president is not None \
            and nxt.actor == president.name

    def could_buy_private(self, t, action) -> bool:
        """The turn's company could buy the private so, with no finding."""
        step = self.round.step_of(action)
        if step is None:
            return False
        ok, plan = self.game.clean_attempt(lambda: step.check(t, action))
        if not ok:
            return False
        # (the shared step's plan: the private, a wrong price, a bankrupt's)
        return isinstance(plan, tuple) and len(plan) == 3 and plan[1] is None and plan[2] is None

    def acts_later_in_round(self, corp) -> bool:
        """The record's lines after the current one, past the current
        company's own, have ``corp`` act before the record leaves the round
        (a round marker, a player's line, or a company that has operated in
        it already acting again)."""
        rnd = self.round
        g = self.game
        t = rnd.turn
        done = set(rnd.order[: rnd.index + 1])
        own = True      # still at the current company's own lines
        for a in g.following.ahead():
            if isinstance(a, RoundMarker) or a.actor in g.player_by_name:
                return False
            other = g.corporations.get(a.actor)
            if other is None or (own and other is t.corp):
                continue
            own = False
            if other is corp:
                return True
            if other in done:
                return False
        return False

    def place_private(self, owner):
        """A private's power is used in its owner's turn: that turn begins now,
        or the owner's turn that just ended by itself goes on with it (a
        private bought in its last step, CS's extra lay used right after:
        18xx.games keeps the turn open while the company owns a usable
        power), whether the next company's turn had begun or the round's
        last turn had ended."""
        rnd = self.round
        if owner is rnd.whose_turn():
            return
        if self.reopens(owner):
            rnd.take_up_closed_turn()
        elif owner in rnd.order[rnd.index + 1:]:
            self.switch_to(owner)

    def switch_to(self, corp: Corporation):
        """``corp``'s turn begins where the record has it act (refused when it
        does not operate now): the current company's turn ends, or waits
        when it has done nothing and the record has it operate later in this
        round; companies between take empty turns, or keep theirs when the
        record has them operate later (taken in the record's order)."""
        rnd = self.round
        if not self.may_start(corp):
            return
        t = rnd.turn
        waits = t is not None and not t.acted
        # the record is looked ahead only when a company could be left waiting
        # (not for the next company in the order after a finished turn)
        later = self.record_operates_later() \
            if waits or rnd.order.index(corp) > rnd.index + 1 else set()
        if waits and t.corp in later:
            # the company whose turn began has done nothing, and the record has
            # it operate later in this round: its turn waits
            rnd.hold_turn()
        else:
            rnd.end_turn()
        if not self.take_in_record_order(corp, later):
            rnd.skip_turns_until(corp)
        rnd.next_corporation()

    def may_start(self, corp: Corporation) -> bool:
        """Whether :meth:`switch_to` goes on to begin ``corp``'s turn: refused
        (``RuleViolation``) when it does not operate now (the round's
        ``check_may_start``).  A title that takes such a line as written
        places the turn itself and answers False, or puts the company in the
        order and answers True."""
        self.round.check_may_start(corp)
        return True

    def record_operates_later(self) -> set:
        """The companies the record has operate later in this round: those
        acting after the current action before the record leaves the round
        (a round marker, a player's par or purchase, or a company acting
        again after another one, which starts the next round)."""
        rnd = self.round
        g = self.game
        done = set(rnd.order[: rnd.index + (0 if rnd.turn is not None else 1)])
        seen, last = set(), None
        for a in g.following.ahead():
            if isinstance(a, RoundMarker) or (isinstance(a, (Par, BuyShares))
                                              and a.actor in g.player_by_name):
                break
            corp = g.corporations.get(a.actor)
            if corp is None:
                continue
            if corp is not last and (corp in seen or corp in done):
                break
            seen.add(corp)
            last = corp
        return seen

    def take_in_record_order(self, corp, later: set) -> bool:
        """``corp`` acts before companies the rules' order puts first, and the
        record has those operate later in this round: flagged once per pair,
        and the round follows the record's order (their turns are kept for
        them instead of being taken empty now)."""
        rnd = self.round
        g = self.game
        pos = rnd.order.index(corp)
        between = rnd.order[rnd.index + 1: pos]
        waiting = [c for c in between if c in later]
        if not waiting:
            return False
        delayed = self.delayed
        fresh = [c for c in waiting
                 if (corp.sym, c.sym) not in g.following.order_flagged and c not in delayed]
        g.following.order_flagged.update((corp.sym, c.sym) for c in waiting)
        delayed.update(waiting)
        if fresh:
            self.flag_order(corp, waiting)
        rnd.move_up(corp)
        return True

    def flag_order(self, corp, waiting: list) -> None:
        """``corp`` acts before ``waiting``, which the rules' order puts
        first and the record has operate later in the round: the finding
        (once per pair)."""
        rnd = self.round
        names = ", ".join(c.sym for c in waiting)
        self.game.flag("turn.order",
                       f"{corp.sym} operates before {names} in {rnd.label}; the rules' order "
                       f"is {', '.join(c.sym for c in rnd.order[rnd.index + 1:])}; taken in "
                       f"the record's order")

    # ------------------------------------------------------------------
    # the round ended by the rules

    def last_company(self):
        """The company whose turn ended by itself, the next not having acted
        (None)."""
        closed = self.round.closed_turn
        return closed.corp if closed is not None else None

    def record_goes_on(self, nxt) -> bool:
        """The round ended with its last company's turn, and the record's
        next action is that company's (only then is the state kept for
        :meth:`resume`)."""
        last = self.last_company()
        return (last is not None and nxt is not None
                and not isinstance(nxt, (Checkpoint, RoundMarker)) and nxt.actor == last.sym)

    def resume(self, rounds, action, saved, marks) -> bool:
        """The last company's turn ended by itself (nothing was left to do,
        as railcheck saw it) and the record goes on with that company: the
        round is taken up again and the action checked as part of that turn,
        so that a refusal names the real reason (no such train for sale, the
        train limit) rather than a round out of place."""
        g = self.game
        last = self.last_company()
        if last is None or action.actor != last.sym:
            return False
        rounds.restore(saved, None)
        g.current_action = action
        g.round.finished = False
        return True

    def closes_with_pass(self, action, following) -> bool:
        """A pass by the company whose turn ended the last operating round,
        before anything of the next one, where that company does not operate
        first: the pass closes its turn (a step the record wrote, such as
        declining a private's power: 18Ireland random 18003_5, #350), not a
        turn of the next round out of order."""
        last = self.last_company()
        if not isinstance(following, OperatingFollower) or last is None:
            return False
        order = following.round.order
        return action.actor == last.sym and bool(order) and order[0] is not last

    def closes_at_record_end(self) -> bool:
        """The record ends in the last turn of the game's last operating
        round (the bank broke): closing it ends the game."""
        r = self.round
        g = self.game
        return r.is_last() and g.end_pending and g.or_number >= g.or_count
