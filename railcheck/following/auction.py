"""The private auctions as the record has them."""

from __future__ import annotations

import dataclasses

from ..actions import Bid, BidForTurn, Pass
from ..findings import INFO
from .base import RoundFollower
from .lookahead import missing_line_searched
from .stock import goes_on_as_renamed


class AuctionFollower(RoundFollower):
    """An auction the record leaves with privates unsold: said at the marker
    that names the next round."""

    def close_for_marker(self, want: str) -> None:
        r = self.round
        unsold = [c.sym for c in r.unsold()]
        self.game.flag("round.marker", f"'{want}' but the auction is not over "
                                       f"({', '.join(unsold)} unsold)")
        r.finish()      # the record moved on; so does the replay


class WaterfallFollower(AuctionFollower):
    """The waterfall auction's turns as the record has them."""

    def place(self, action) -> None:
        """Whose turn it is, as the record implies: a player acting out of
        turn is flagged and takes the turn (the record says they acted);
        while a private is auctioned among its bidders, only a bidder can.
        A line written in another player's turn, the record going on from
        that turn, is taken as that player's (a wrong name), or as the
        writer's with the turn order kept (a bid then made as the turn's
        player's when he could make it)."""
        rnd = self.round
        g = self.game
        player = g.player_by_name.get(action.actor)
        if player is None or rnd.blocking_step() is not None \
                or not isinstance(action, (Bid, Pass)) or player is rnd.current_player():
            return
        nxt = getattr(g.following.next_action, "actor", None)
        cur = rnd.current_player()
        if rnd.auctioning is not None and player not in rnd.auction_bidders:
            if isinstance(action, Pass) or (nxt is not None and nxt != player.name
                                            and nxt in g.player_by_name):
                # the record goes on without them: the line was written in the
                # current bidder's turn under a wrong name
                g.flag("turn.order", f"{player.name} acted out of turn: it is "
                                     f"{rnd.describe_turn()}'s turn in the auction; the "
                                     f"record goes on without {player.name}: taken as "
                                     f"{cur.name}'s")
                rnd.placed = (action, cur, "as")
            return          # else refused by the round: not a bidder
        g.flag("turn.order", f"{player.name} acted out of turn: it is "
                             f"{rnd.describe_turn()}'s turn in the auction")
        players = g.players
        after_current = players[(rnd.turn_index + 1) % len(players)].name
        after_actor = players[(player.seat + 1) % len(players)].name
        if rnd.auctioning is None and nxt == cur.name and not isinstance(action, Pass) \
                and self.bid_as(cur, action, "the record goes on with"):
            # the record goes on with the current player himself (the par of
            # the private's company he bought, the next round's first line):
            # the bid was his, under a wrong name
            rnd.placed = (action, cur, "done")
            return
        if rnd.auctioning is None and nxt == after_current and nxt != after_actor:
            # the record goes on from the current player's successor: the line
            # was written in the current player's turn; the order stays
            if not isinstance(action, Pass) and self.bid_as(cur, action):
                rnd.placed = (action, cur, "done")
            else:
                rnd.placed = (action, player, "writer")
            return
        bidders = rnd.auction_bidders
        if rnd.auctioning is not None and cur in bidders and nxt != player.name \
                and nxt == bidders[(bidders.index(cur) + 1) % len(bidders)].name:
            # a bidder in another bidder's turn, and the record does not go on
            # with them: written in the current bidder's turn under a wrong name
            rnd.placed = (action, cur, "as")
            return
        rnd.take_turn(player)

    def bid_as(self, owner, action, goes_on="the record goes on from") -> bool:
        """A bid written under another name in ``owner``'s turn, the record
        going on from his successor: when ``owner`` could make it with no
        finding, it is made as his (a wrong name), so the bids and cash
        after it are those the record goes on from.  False: nothing done."""
        g = self.game
        if not g.clean_attempt(lambda: self.round.do_bid(owner, action))[0]:
            return False
        # said apart (an info): the turn.order finding keeps its words
        whom = owner.name if goes_on.endswith("with") else f"{owner.name}'s successor"
        g.flag("turn.order", f"{goes_on} {whom} and "
                             f"{owner.name} could make this bid: taken as {owner.name}'s "
                             f"(a wrong name)", INFO)
        return True


def missing_pass(replay, action) -> bool:
    """A bid or pass out of turn in an auction whose follower takes it as
    made (the round's ``out_of_turn``, 1860's auction for turns): the turn's
    player may have passed in a line the record left out, the record going
    on with the writer.  His pass, then ``action`` in its writer's turn, is
    judged by the record's next lines against the line taken out of turn
    (``lookahead.missing_line``, ``stock.missing_turn_line`` for a stock
    round); played (the ``turn.order`` finding saying so) when the record
    goes on from it.  In a waterfall auction (1830's), see
    :func:`missing_waterfall_line`.  True when it was."""
    g = replay.game
    follower = g.following.round
    rnd = g.round
    if getattr(replay, "trying", False) or replay.check_purity:
        return False
    if isinstance(follower, WaterfallFollower):
        return missing_waterfall_line(replay, action)
    if type(follower) is not AuctionFollower:
        return False
    out = rnd.out_of_turn(action)
    cur = rnd.whose_turn()
    if out is None or cur is None or out[1] is None:
        return False
    # (or his bid for the turn: 1860_rand_18603_2 with #20, Player 2's £45
    # over Player 1's £30, left out, Player 1's pass next)
    return _play_missing(replay, action, out[1], cur,
                         [Pass(actor=cur.name), *rnd.least_bids(cur, MISSING_BIDS)])


#: the least bids for the turn tried for one left out (a step apart)
MISSING_BIDS = 8


def missing_waterfall_line(replay, action) -> bool:
    """A bid or pass in a waterfall auction by another player than the one
    whose turn it is (no private being resolved among its bidders): the
    turn's player's line may be missing, the record going on with the
    writer (the next seat, or a bidder of the private his purchase put up
    for resolution).  His pass, his purchase of the cheapest private at its
    price, or his bid at the least on another private, each followed by
    ``action`` in its writer's turn (a reading that does not make it the
    writer's turn is none), each judged by the record's next lines against the line
    taken out of turn as the follower takes it (a wrong name, or the
    writer's turn); played when the record goes on from one of them and no
    other as well.  True when one was."""
    g = replay.game
    rnd = g.round
    player = g.player_by_name.get(action.actor)
    if player is None or not isinstance(action, (Bid, Pass)) \
            or rnd.blocking_step() is not None or rnd.auctioning is not None:
        return False
    cur = rnd.current_player()
    if cur is None or player is cur or not missing_line_searched(replay):
        return False
    lines: list = [Pass(actor=cur.name)]
    cheapest = rnd.cheapest()
    for company in rnd.unsold():
        if company is cheapest:
            lines.append(Bid(actor=cur.name, company=company.sym))
        else:
            bids = rnd.bids[company.sym]
            least = (max(bids.values()) if bids else company.value) + rnd.inc
            lines.append(Bid(actor=cur.name, company=company.sym, price=least))
    out = f"{player.name} acted out of turn: it is {rnd.describe_turn()}'s turn in the auction"
    return _play_missing(replay, action, out, cur, lines)


def _play_missing(replay, action, out: str, cur, lines: list) -> bool:
    """Of ``lines`` (of ``cur``, whose turn it is), the one the record's
    next lines go on from before ``action``
    (``lookahead.chosen_missing_line``): played, the ``turn.order``
    finding ``out`` saying so.  True when one was."""
    from .lookahead import chosen_missing_line
    g = replay.game
    got = chosen_missing_line(replay, action, lines, lambda line: g.round.process(line))
    if got is None:
        return False
    line, says = got
    if isinstance(line, Pass):
        what = f"{cur.name} passed"
    elif isinstance(line, BidForTurn):
        what = f"{cur.name} bid {g.money(line.price)} for the turn"
    elif line.price is None:
        what = f"{cur.name} bought {line.company} at its price"
    else:
        what = f"{cur.name} bid {g.money(line.price)} on {line.company}"
    f = g.flag("turn.order", f"{out}; the record's later lines go on as if {what} "
                             f"before it (a line missing{says}): taken so")
    f.involves = frozenset({cur.name, action.actor})
    g.round.process(line)
    return True


def wrong_name_turn_bid(replay, action):
    """1860's auction for turns: a bid for the turn or a pass by another
    player than the one whose turn it is (the round's ``out_of_turn``,
    taken as made and moving the turn on from the writer) may be the turn's
    player's line under a wrong name.  The line as his and the line out of
    turn are judged by the record's next lines
    (``stock.goes_on_as_renamed``); when the record goes on from the line
    as his, it is returned so, the ``turn.order`` finding saying it
    (1860_rand_49000103_0 #3: Player 1's pass after Player 2's bid of 30
    written as Player 2's, taken as Player 2 passing: Player 1 won the
    turn, 364 errors); else None."""
    g = replay.game
    rnd = g.round
    if type(g.following.round) is not AuctionFollower or getattr(replay, "trying", False) \
            or replay.check_purity:
        return None
    out = rnd.out_of_turn(action)
    cur = rnd.whose_turn()
    if out is None or cur is None or out[1] is None or not hasattr(cur, "name"):
        return None
    renamed = dataclasses.replace(action, actor=cur.name)
    if not goes_on_as_renamed(replay, action, renamed):
        return None
    f = g.flag("turn.order", f"{out[1]}; the record's later lines go on as if {cur.name} made "
                             f"this line (a wrong name): taken as {cur.name}'s")
    f.involves = frozenset({cur.name, action.actor})
    return renamed
