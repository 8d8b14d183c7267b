"""The stock round as the record has it.

A purchase of a company nobody started, whose par the record gives later:
the par line is missing.

A share bought of a company that has no par value is refused by the rules.
When the record's later lines say the company's par value (a price
checkpoint before the company acts), the table started it: the missing par
line is flagged and played first, as the buyer's (the title's own par step:
its checks and its cost), then the purchase is checked as its own action.
No price is invented: a record that gives none leaves the purchase refused.
"""

from __future__ import annotations

from ..actions import Checkpoint, Exchange, Par, Pass, RoundMarker
from .base import RoundFollower, players_go_on, refuse_unentered_stock_round
from .lookahead import choice_once, missing_line_searched


def par_in_record(g, corp):
    """The par value the record's later lines give ``corp`` (its first
    price checkpoint, when that is a par value, before the company acts),
    with the checkpoint; ``(None, None)`` when they give none.  Only to
    stay in step with the record, never to judge a line."""
    for act in g.following.ahead():
        if getattr(act, "actor", None) == corp.sym:
            break           # the company operates: its price may have moved
        if isinstance(act, Checkpoint) and act.subject == corp.sym \
                and act.field == "price":
            price = act.value
            if isinstance(price, int) and g.market.par_cell(price) is not None:
                return price, act
            break
    return None, None


def missing_par(g, player, corp):
    """``player`` buys a share of ``corp``, which nobody parred, and the
    record later says its par value: the par line is missing.  Returns
    ``(player, corp, price, where)`` (:func:`play_missing_par` flags it
    and plays it), or None when the record does not say the par value.
    Pure."""
    price, where = par_in_record(g, corp)
    if price is None:
        return None
    return player, corp, price, where


def play_missing_par(step, missing) -> None:
    """The missing par line, flagged and played (the title's own par
    step: its checks and its cost) as the turn before the purchase
    ``step`` checks, so that the shares and cash after it are what the
    record goes on from."""
    g = step.game
    rnd = step.round
    player, corp, price, where = missing
    g.flag("stock.not_parred",
           f"{corp.sym} has no par value: a 'par {corp.sym}' line is missing before this "
           f"one; taken as {player.name} parring it at {g.money(price)} (the price "
           f"line {where.line or where.action_id} records) and then buying")
    par = Par(actor=player.name, corporation=corp.sym, price=price, line=None)
    rnd.turn_step_for(par).process(player, par)
    rnd.bought = None      # the par was the missing line's turn, not this one's
    rnd.buys = 0


def play_missing_pending_par(g, action) -> None:
    """A player holds a president's certificate whose par he must set
    before anything else (1830's B&O, with its private), and the record's
    line is something else: when the record's later lines give the par
    value (:func:`par_in_record`) and have no par line of it themselves,
    the par line is missing: flagged at this line and played as his, so
    that the record goes on from the state it describes.  Nothing when the
    record says no price (the rules then refuse the line)."""
    pending = g.pending_par
    if pending is None or isinstance(action, (Checkpoint, RoundMarker)):
        return
    player, corp = pending
    if isinstance(action, Par) and action.corporation == corp.sym:
        return
    for act in g.following.ahead():
        if isinstance(act, Par) and act.corporation == corp.sym:
            return          # written later: the rules say what is out of place
    price, where = par_in_record(g, corp)
    if price is None:
        return
    g.flag("stock.par_required",
           f"{player.name} holds the president's certificate of {corp.sym} and must first "
           f"set its par: a '{player.name} par {corp.sym}' line is missing before this one; "
           f"taken as parred at {g.money(price)} (the price line "
           f"{where.line or where.action_id} records)")
    from ..mechanics.shares import apply_pending_par, check_pending_par
    apply_pending_par(g, check_pending_par(g, Par(actor=player.name, corporation=corp.sym,
                                                  price=price)))
    after = getattr(g.round, "after_pending_par", None)
    if after is not None:
        after()


# ---------------------------------------------------------------------------
# the stock round

class StockFollower(RoundFollower):
    """A stock round: ended by the rules (every player passed in a row)
    while the record goes on with its players, it is taken up again
    (``round.continues``); a pass the rules made without a word may be
    written; a company's action does not pass over a stock round the record
    has not entered."""

    marks_prices = True

    def __init__(self, rnd):
        super().__init__(rnd)
        #: the turn (``StockRound.turns``) in which the current player wrote
        #: a line, refused or not: the next player's line ends it
        self.written_in = -1

    @property
    def written(self) -> bool:
        return self.written_in == self.round.turns

    def wrote(self) -> None:
        self.written_in = self.round.turns

    # ------------------------------------------------------------------
    # where an action stands

    def place(self, action) -> None:
        """Whose turn it is, as the record implies: the current player's turn
        ends when another player acts; a player acting out of turn is flagged
        and takes the turn (the record says they acted).  A turn whose only
        lines were refused was still taken: the next player's line ends it.
        Then what the round is to make of the line: a pass the rules made
        without a word (accepted), a line written in the turn's player's turn
        under a wrong name (taken as his, or as the writer's without taking
        the turn)."""
        rnd = self.round
        g = self.game
        player = g.player_by_name.get(action.actor)
        if player is None or isinstance(action, Exchange):
            return
        rnd.leave_blocking(action)
        if rnd.blocking_step() is not None:
            return
        stand_in = self.turn_of(action, player)
        step = rnd.step_for(action)
        if step is None or not step.turn_action:
            return          # not a turn's action (an exchange, a blocking step's)
        if self.written_pass(action, player):
            if self.pass_of_current(action, player):
                cur = rnd.current
                g.flag("turn.order", f"{player.name}'s pass is written in {cur.name}'s turn, "
                                     f"who has not acted, and the record goes on with "
                                     f"{rnd.turn_after(cur).name}, next after {cur.name}: taken "
                                     f"as {cur.name}'s pass (a wrong name)")
                rnd.placed = (action, cur, "as")
                return
            rnd.passed_over.discard(player)
            rnd.placed = (action, player, "accepted")
            return
        if stand_in is None:
            return
        owner, finding = stand_in
        if isinstance(action, Pass):
            rnd.placed = (action, owner, "as")
        elif self.wrong_name(action, player, owner, finding, step):
            rnd.placed = (action, owner, "done")
        else:
            rnd.placed = (action, player, "as")

    def turn_of(self, action, player):
        """The turn moved to where the record has ``player`` act; (the turn's
        player, the turn.order finding) when the line was written in the
        current player's turn under a wrong name, else None."""
        rnd = self.round
        g = self.game
        if player is rnd.current:
            self.wrote()
            return None
        if self.in_current_turn(action, player):
            cur = rnd.current
            if isinstance(action, Pass):
                f = g.flag("turn.order",
                           f"{player.name}'s pass is written after {cur.name}'s action, in "
                           f"{cur.name}'s turn, and the record goes on without {cur.name}'s "
                           f"own pass: taken as {cur.name}'s pass closing the turn (a wrong "
                           f"name)")
            else:
                f = g.flag("turn.order", f"{player.name} acted out of turn: it is "
                                         f"{cur.name}'s turn in {rnd.label}")
            self.wrote()
            return cur, f
        if rnd.acted or self.written:
            rnd.check_cert_limit_kept(rnd.current)
            rnd.end_turn()
            if player is not rnd.current:
                # the players after him with nothing they may do are passed
                # over, as after a turn that ended by itself (skip_inactive):
                # the record left his turn while the replay still saw
                # something he could do
                rnd.skip_inactive()
        if self.written_pass(action, player):
            return None     # a pass the rules made without a word: accepted as written
        if player is not rnd.current and player in rnd.auto_passed:
            # passed over since the last action because the replay saw nothing
            # they could do; the record says they acted: what they do is
            # checked on its own, the turn is theirs
            rnd.auto_passed.discard(player)
            rnd.take_turn(player)
        if player is not rnd.current:
            f = g.flag("turn.order", f"{player.name} acted out of turn: it is "
                                     f"{rnd.current.name}'s turn in {rnd.label}")
            if self.stands_in(action, player):
                # the record goes on as if the player whose turn it was had
                # acted: the line is applied, and the turn order kept
                self.wrote()
                return rnd.current, f
            rnd.take_turn(player)
        self.wrote()
        return None

    def in_current_turn(self, action, player) -> bool:
        """A line under another player's name while the current player's
        turn, in which he has acted, is still open, in a record that closes
        a turn with its player's own pass (an export's, whose lines have no
        interjection): when the record's next line is the current player's
        (his turn goes on), or, for a pass, by the player whose turn follows
        or by ``player`` again (his own turn's line), the line was written
        in the current player's turn under a wrong name."""
        rnd = self.round
        g = self.game
        if not rnd.acted or rnd.current is None or not g.following.closes_turns_with_pass:
            return False
        nxt = g.following.next_action
        other = g.player_by_name.get(getattr(nxt, "actor", None))
        if other is None or isinstance(nxt, Exchange):
            return False
        if other is rnd.current:
            return isinstance(nxt, Pass) or g.following.from_export
        if not isinstance(action, Pass):
            return False
        return other is player or other is rnd.turn_after(rnd.current)

    def stands_in(self, action, player) -> bool:
        """``player`` acts in the current player's turn, and the record's
        next line is the current player's own pass closing his turn (in a
        record whose turns end so: his turn goes on) or is by the player
        whose turn follows the current one (not the one that would follow
        ``player``): the line was written in the current player's turn (a
        wrong name), so the turn order stays."""
        rnd = self.round
        g = self.game
        nxt = g.following.next_action
        other = g.player_by_name.get(getattr(nxt, "actor", None))
        if other is None or isinstance(nxt, Exchange):
            return False
        if other is rnd.current:
            # his own pass closing the turn, in a record that closes turns so
            # (an export's): his turn goes on; in an export any line of his
            # goes on with his turn (the site's lines have no interjection);
            # in another record a line of his that is not a pass is his own
            # after an interjection.  A pass cannot be his: it would end the
            # turn his next line goes on with
            return not isinstance(action, Pass) and g.following.closes_turns_with_pass \
                and (isinstance(nxt, Pass) or g.following.from_export)
        expected = rnd.turn_after(rnd.current)
        return other is expected and other is not rnd.turn_after(player)

    def wrong_name(self, action, named, owner, finding, step) -> bool:
        """A line naming ``named``, written in ``owner``'s turn (the record
        goes on from that turn): when ``owner`` could do what it says, with
        no finding (the step says whether its kind may be tried so:
        ``may_take_for``), the name is taken as wrong and the line done as
        ``owner``'s, so the holdings and cash after it are those the record
        goes on from (True).  Otherwise nothing is done: the line stays
        ``named``'s."""
        if owner is named or not step.may_take_for(owner, action):
            return False
        g = self.game
        if not g.clean_attempt(lambda: step.process(owner, action))[0]:
            return False
        finding.message += (f"; the record goes on from {owner.name}'s turn and "
                            f"{owner.name} could do this: taken as {owner.name}'s line "
                            f"(a wrong name)")
        return True

    def pass_of_current(self, action, player) -> bool:
        """A pass written for a player the rules passed over, in the turn
        of a player who has written nothing and may act, and the record's
        next line is by the player whose turn follows his: the pass was his
        (a wrong name; 1860_rand_2711294_2 #694, Player 2's pass written as
        Player 4's, Player 3's line then out of turn)."""
        rnd = self.round
        g = self.game
        cur = rnd.current
        if cur is None or cur is player or rnd.acted or self.written or rnd.finished \
                or cur in rnd.passed_over or not rnd.has_actions(cur):
            return False
        nxt = g.following.next_action
        other = g.player_by_name.get(getattr(nxt, "actor", None))
        return other is not None and other is not player and not isinstance(nxt, Exchange) \
            and other is rnd.turn_after(cur) and other is not cur

    def written_pass(self, action, player) -> bool:
        """A pass written for a player the rules passed over (nothing they
        may do, or their turn ended after acting) and who still may do
        nothing: it says what leaving it out says, and is accepted."""
        rnd = self.round
        if not isinstance(action, Pass) or player not in rnd.passed_over:
            return False
        ended = rnd.ended_by_itself
        if ended is not None and ended[0] is player and player is not rnd.current \
                and ended[1].actor == player.name \
                and (self.game.following.closes_turns_with_pass
                     or not self.game.following.from_export):
            # the "done" of a turn the rules ended right after his last line,
            # written under his own name (after a line under a wrong name taken
            # as his, the pass still contradicts that reading); not in an
            # export whose purchases end their turns (the site writes no such
            # pass there: the turn's player's pass under a wrong name,
            # 1860_rand_49000103_1 #671)
            return True
        return rnd.finished or (player is not rnd.current and not rnd.has_actions(player))

    # ------------------------------------------------------------------
    # the round ended by the rules

    def record_goes_on(self, nxt) -> bool:
        """The record's next action is a player's, as in the stock round that
        just ended (only then is the state kept for :meth:`resume`)."""
        return players_go_on(self.game, nxt)

    def resume(self, rounds, action, saved, marks) -> bool:
        """The rules ended the stock round (everybody passed), the next round
        has not taken an action yet, and the record goes on with it: take it
        up again as the record has it, with a finding."""
        g = self.game
        ended = self.round
        if not ended.wants(action) or isinstance(action, Exchange) \
                or action.actor not in g.player_by_name:
            return False
        label = ended.label
        rounds.restore(saved, marks)
        g.current_action = action
        rnd = g.round
        rnd.finished = False
        rnd.passes = 0      # the record says not everybody had passed
        g.flag("round.continues",
               f"{label} ended by the rules (every player passed in a row), but the record "
               f"goes on with it: {action.actor}'s '{action.verb}' is taken as part of it")
        return True

    def passed_over_pass(self, action) -> bool:
        """A pass written for a player whom the stock round that just ended
        passed over without a word: it says what the rules did, and there is
        nothing to replay (leaving it out would be accepted too)."""
        rnd = self.round
        player = self.game.player_by_name.get(action.actor)
        if player is None or not self.written_pass(action, player):
            return False
        rnd.passed_over.discard(player)
        rnd.ended_by_itself = None
        return True

    def refuse_unentered(self, rounds, action) -> None:
        refuse_unentered_stock_round(rounds, self.round, action)

    def wrong_marker(self, rounds) -> bool:
        r = self.round
        return rounds.round_actions == 0 and not r.finished \
            and players_go_on(self.game, rounds.next_action)

    def close_for_marker(self, want: str) -> None:
        self.round.finish()


# ---------------------------------------------------------------------------
# a line of the turn's player missing before a line out of turn

#: a corporation the record's next lines name before any par of it is one
#: whose par may be the missing line (looked for this many lines ahead)
_PAR_AHEAD = 200


def missing_turn_line(replay, action):
    """``action``, a player's line in a stock round, comes where it is
    another player's turn, who has not acted in it and whose turn the rules
    would not pass over: the record may have left out that player's line (a
    purchase, a par, a pass deleted), the record going on with the player
    after him.  The lines he could have written are tried (a pass, one
    share of each company from the IPO or the pool, a par of a company the
    record's next lines name before any par of it), each followed by
    ``action`` in its writer's own turn, and judged by the record's next
    lines (``lookahead.missing_line``): the one they go on from, with fewer
    errors than the line taken out of turn and no other as few, is played
    as his (the line's ``turn.order`` finding saying so).  Returns True when
    one was played.  Nothing when the record says nothing better (the line
    is then taken out of turn, as before)."""
    g = replay.game
    follower = g.following.round
    rnd = g.round
    if not isinstance(follower, StockFollower) or getattr(replay, "trying", False) \
            or replay.check_purity or isinstance(action, (Exchange, Checkpoint, RoundMarker)):
        return False
    player = g.player_by_name.get(action.actor)
    cur = rnd.current
    if player is None or cur is None or player is cur or rnd.acted or follower.written \
            or rnd.finished or g.pending_par is not None or player in rnd.auto_passed \
            or rnd.blocking_step() is not None:
        return False
    step = rnd.step_for(action)
    if step is None or not step.turn_action or follower.written_pass(action, player) \
            or rnd.turn_after(cur) is not player or not missing_line_searched(replay):
        return False
    from ..actions import BuyShares
    from .lookahead import chosen_missing_line
    lines: list = [Pass(actor=cur.name)]
    for corp in g.corporations.values():
        if corp.closed or not corp.ipoed:
            continue
        for source in ("ipo", "pool"):
            if any(c.owner == source and not c.president for c in corp.certs):
                lines.append(BuyShares(actor=cur.name, corporation=corp.sym, count=1,
                                       source=source))
    lines.extend(_sales_bought_back(g, cur, replay.record.actions))
    values = sorted({c.price for c in g.market.par_cells})
    for sym in _named_before_par(g, replay.record.actions):
        lines.extend(Par(actor=cur.name, corporation=sym, price=v) for v in values)
    got = chosen_missing_line(replay, action, lines, lambda line: _play_turn_line(replay, line))
    if got is None:
        return False
    line, says = got
    f = g.flag("turn.order", f"{player.name} acted out of turn: it is {cur.name}'s turn in "
                             f"{rnd.label}; the record's later lines go on as if "
                             f"{_what(g, line)} before it (a line missing{says}): taken so")
    f.involves = frozenset({cur.name, player.name})
    _play_turn_line(replay, line)
    return True


def _named_before_par(g, actions) -> list:
    """The companies nobody parred that the record's next lines name (a
    company's own line, a share bought) before any par of them."""
    from ..actions import BuyShares
    out: list = []
    seen: set = set()
    start = g.following.position
    for act in actions[start + 1:start + 1 + _PAR_AHEAD]:
        sym = act.corporation if isinstance(act, (Par, BuyShares)) else act.actor
        corp = g.corporations.get(sym)
        if corp is None or sym in seen:
            continue
        seen.add(sym)
        if not isinstance(act, Par) and not corp.ipoed and not corp.closed:
            out.append(sym)
    return out


def _play_turn_line(replay, line) -> None:
    """The turn's player's ``line`` played as his turn, the turn then ended
    (raises RuleViolation when the rules refuse it)."""
    g = replay.game
    rnd = g.round
    player = rnd.current
    g.round.process(line)
    rnd = g.round
    if rnd.current is player and rnd.acted and not rnd.finished:
        rnd.check_cert_limit_kept(player)
        rnd.end_turn()
        rnd.skip_inactive()


#: how far the record is read for a certificate of the turn's player
#: bought from the pool (``_sales_bought_back``)
_SOLD_AHEAD = 40


def _sales_bought_back(g, player, actions) -> list:
    """The turn's player's sale of one certificate he holds that a later
    line of another player in the record's next :data:`_SOLD_AHEAD` lines
    buys from the pool by its number (an export names every certificate
    bought): a sale left out, that purchase its only trace (m11)."""
    from ..actions import BuyShares, Sale, SellShares
    out: list = []
    start = g.following.position
    for act in actions[start + 1:start + 1 + _SOLD_AHEAD]:
        if not isinstance(act, BuyShares) or act.actor == player.name or not act.certs:
            continue
        corp = g.corporations.get(act.corporation)
        if corp is None:
            continue
        for idx in act.certs:
            if isinstance(idx, int) and 0 <= idx < len(corp.certs) \
                    and corp.certs[idx].owner is player and not corp.certs[idx].president \
                    and not any(o.sales[0].corporation == corp.sym for o in out):
                out.append(SellShares(actor=player.name, sales=[Sale(
                    corporation=corp.sym, count=1, percent=corp.certs[idx].percent,
                    certs=(idx,))]))
    return out


def _what(g, line) -> str:
    if isinstance(line, Pass):
        return f"{line.actor} passed"
    if isinstance(line, Par):
        return f"{line.actor} parred {line.corporation} at {g.money(line.price)}"
    if hasattr(line, "sales"):      # a sale (``_sales_bought_back``)
        sale = line.sales[0]
        return f"{line.actor} sold {sale.percent}% of {sale.corporation}"
    src = "the bank pool" if line.source == "pool" else "the IPO"
    return f"{line.actor} bought a share of {line.corporation} from {src}"


#: how many lines under a wrong name one replay judges in vain before it
#: stops looking (each judgement replays the record's next lines twice)
WRONG_NAME_TRIES = 3


def wrong_name_line(replay, action):
    """``action``, a player's line that is no pass, comes in the turn of
    another player who has written nothing, and the record's next line is
    that player's (or who has sold, and the record's next line is the
    player's after him), in a record whose turns do not close with a pass (1860's
    exports: a turn is one purchase, or sales and a purchase), or, in one
    whose turns do, by a player the rules passed over with the turn's
    player's line next, or as the round's last line: the line may
    be the turn's player's under a wrong name, or the writer's out of turn,
    who then took the turn.  Both are judged by the record's next lines
    (as ``lookahead.missing_line``); when the line as the turn's player's is
    the one they go on from with fewer errors, it is returned as his (the
    ``turn.order`` finding saying so), else None: the line is taken out of
    turn, as before."""
    g = replay.game
    follower = g.following.round
    rnd = g.round
    if not isinstance(follower, StockFollower) or getattr(replay, "trying", False) \
            or replay.check_purity or isinstance(action, (Pass, Exchange, Checkpoint,
                                                          RoundMarker)):
        return None
    player = g.player_by_name.get(action.actor)
    cur = rnd.current
    if player is None or cur is None or player is cur \
            or rnd.finished or g.pending_par is not None or rnd.blocking_step() is not None:
        return None
    nxt = g.following.next_action
    if isinstance(nxt, Exchange):
        return None
    goes_on = getattr(nxt, "actor", None)
    # (the round's last line: the record goes on with no player's)
    ends = nxt is not None and goes_on not in g.player_by_name
    if g.following.closes_turns_with_pass:
        # (in a record whose turns close with a pass, a line written before
        # the turn's player wrote any: of a player the rules passed over,
        # who could do nothing, the record going on with the turn's player
        # (the turn is taken as the writer's without a word,
        # :meth:`StockFollower.turn_of`; 18Ireland_rand_53000019_4 #13,
        # Player 1's purchase of KJR_1 written as Player 4's, who has £65 for
        # its £85, Player 1's pass next); or the round's last line
        # (18Ireland_rand_53000009_2 #18, Player 2's purchase of SLNCR_1
        # written as Player 3's, who has £5, the operating round next)
        if rnd.acted or follower.written or not (
                ends or (player in rnd.auto_passed and goes_on == cur.name)):
            return None
    elif rnd.acted or follower.written:
        # his turn under way (a sale, a purchase may follow), the record
        # going on with the player after him, not after the writer: the
        # line may be his turn's last (1860_rand_2711144_3 #286: Player 1's
        # purchase after his sale written as Player 3's)
        after = rnd.turn_after(cur)
        if not rnd.acted or after is None or goes_on != after.name \
                or after is rnd.turn_after(player) or goes_on == player.name:
            return None
    elif goes_on != cur.name:
        return None
    step = rnd.step_for(action)
    if step is None or not step.turn_action or not hasattr(action, "actor"):
        return None
    import dataclasses
    renamed = dataclasses.replace(action, actor=cur.name)
    if not goes_on_as_renamed(replay, action, renamed):
        return None
    then = "the round ends after it" if ends else \
        f"the record goes on with {goes_on}" \
        f"{'' if goes_on == cur.name else ', next after ' + cur.name}"
    f = g.flag("turn.order", f"{player.name} acted out of turn: it is {cur.name}'s turn in "
                             f"{rnd.label}, and {then}; the record's later lines go on as if "
                             f"{cur.name} made this line (a wrong name): taken as {cur.name}'s")
    f.involves = frozenset({cur.name, player.name})
    return renamed


def wrong_name_due(replay, action):
    """``action``, a line of a player who may act in the round but not yet,
    comes where the round has another player due to act
    (``Round.due_instead``: a vote cast out of the holders' order): the line
    may be the due player's under a wrong name, or the writer's out of
    order, counted as the record says (the round's own finding).  Both are
    judged by the record's next lines (:func:`goes_on_as_renamed`); when the
    line as the due player's is the one they go on from, it is returned as
    his (a ``turn.order`` finding saying so), else None."""
    g = replay.game
    if getattr(replay, "trying", False) or replay.check_purity:
        return None
    due = g.round.due_instead(action)
    if due is None:
        return None
    import dataclasses
    renamed = dataclasses.replace(action, actor=due.name)
    if not goes_on_as_renamed(replay, action, renamed):
        return None
    f = g.flag("turn.order", f"{action.actor}'s '{action.verb}' comes where {due.name} is due "
                             f"to act first in {g.round.label}; the record's later lines go on "
                             f"as if {due.name} made this line (a wrong name): taken as "
                             f"{due.name}'s")
    f.involves = frozenset({due.name, action.actor})
    return renamed


def goes_on_as_renamed(replay, action, renamed) -> bool:
    """Whether the record's next lines go on from ``renamed`` (the line
    under the name of the player whose turn it is) with fewer errors than
    from ``action`` as written, taken out of turn, and the two are not as
    good (judged over ``lookahead.HORIZON`` lines, then
    ``LONG_HORIZON``); a hint's candidate takes the first replay's choice,
    and after :data:`WRONG_NAME_TRIES` judgements in vain in one replay no
    more are made (False).  Changes nothing.  Shared by a stock round's and
    1860's auction for turns' line under a wrong name."""
    g = replay.game

    def judged():
        from .lookahead import HORIZON, LONG_HORIZON, Reading, _best_reading

        def as_written():
            n = len(g.findings)
            g.following.round.place(action)
            g.round.process(action)
            del g.findings[n:]      # (its turn.order: both readings have one)

        def as_his():
            g.following.round.place(renamed)
            g.round.process(renamed)

        readings = [Reading(as_written, ""), Reading(as_his, "")]
        best = _best_reading(replay, readings, HORIZON, tied=True)
        if isinstance(best, list):
            again = _best_reading(replay, readings, LONG_HORIZON, tied=True)
            best = again if isinstance(again, int) else None
        return best == 1, ""
    got, _ = choice_once(replay, "name", "name_tries", WRONG_NAME_TRIES, judged)
    return bool(got)
