"""A line the rules refuse, read as the record's next lines go on from it.

When the rules refuse a line, the line stays flagged in any case.  What the
replay does next decides whether the rest of the report is about the
record: the table went on from some state, and the record's later lines
say which.  For a refusal of some kinds there are a few readings of the
line that the rules accept (a line missing before it: the purchase the
rules force; another city of the same station; another tile of the same
colour); each is tried, and the one the record's next lines go on from
with the fewest errors — fewer than with the line refused, and no other as
few — is taken (``lookahead.best_reading``), its finding saying so.  With
none, the line stays refused and the state as it was.

The readings are made here, by the rule of the refusal; the rounds and
steps judge them as any line (a reading they refuse is no reading).
"""

from __future__ import annotations

import copy
import dataclasses

from ..actions import BuyTrain, LayTile, Par, Pass, PlaceToken, RunRoutes, Sale, SellShares
from ..findings import RuleViolation
from .lookahead import LONG_HORIZON, Reading, best_reading, first_replays_choice, keep_choice


def readings_for(replay, action, violation) -> list:
    """The readings of ``action``, refused by ``violation``, worth trying."""
    make = _READINGS.get(violation.rule)
    if make is None:
        return []
    try:
        return make(replay, action, violation) or []
    except Exception:       # a reading that cannot be made is no reading
        return []


def repair(replay, action, violation):
    """The reading of a refused line the record goes on from, or None."""
    implied = getattr(violation, "implied_sale", None) is not None
    if getattr(replay, "trying", False) or replay.check_purity:
        # (a sale whose company the record's purchases name: as they name
        # it, unjudged, as it was read before its amounts were)
        return (readings_for(replay, action, violation) or [None])[0] if implied else None
    readings = readings_for(replay, action, violation)
    if not readings:
        return None
    position = replay.game.following.position
    first = first_replays_choice(replay, position)
    if first is not None:
        # a replay of the same record up to a later line (a hint's
        # candidate): the state here and the lines the look-ahead reads are
        # the first replay's, and so is the reading it chose
        i, says = first
        if i is None or i >= len(readings):
            return None
        readings[i].says = says
        return readings[i]
    i = best_reading(replay, readings, evidence=_hex_laid_again(replay, action))
    if i is None and implied:
        i = 0       # (no amount the next lines judge better: the one named)
    keep_choice(replay, position, i, None if i is None else readings[i].says)
    return None if i is None else readings[i]


def _hex_laid_again(replay, action):
    """A refused lay: how many of the record's lines on the farthest (within
    ``lookahead.EVIDENCE_HORIZON``) of the next lines that are about its
    hex is: the next lay on the hex (an upgrade of the tile the line laid
    says which tile it was), the next lay of the copy now on the hex,
    elsewhere (an export's copy is back in the supply once upgraded: the hex
    was upgraded), the next run through the hex; else None.  (The nearest
    may be one the hex's tile as it was serves as well: a run over its old
    track.)"""
    if not isinstance(action, LayTile):
        return None
    from .lookahead import EVIDENCE_HORIZON
    board = replay.game.board
    coord = str(action.hex)
    h = board.hexes.get(coord) if board is not None else None
    there = getattr(h, "copy", None)
    found: dict = {}
    for n, a in enumerate(replay.game.following.ahead(), 1):
        if n > EVIDENCE_HORIZON or len(found) == 3:
            break
        if isinstance(a, LayTile):
            if str(a.hex) == coord:
                found.setdefault("lay", n)
            if there is not None and a.tile_copy == there:
                found.setdefault("copy", n)
        elif isinstance(a, RunRoutes) and any(str(x).split(" ")[0] == coord
                                              for x in _run_hexes(a)):
            found.setdefault("run", n)
    return max(found.values(), default=None)


# ---------------------------------------------------------------------------
# the readings, by the rule of the refusal

def _buy_before(action, actor: str, tr, source="depot") -> BuyTrain:
    """A purchase of the train ``tr`` by ``actor``, read as a line missing
    before the record's ``action`` (said where ``action`` stands); from
    the depot by its id, or (``source`` None) by its type, depot or pool."""
    buy = BuyTrain(actor=actor, train=tr.name, source=source,
                   train_id=tr.id if source == "depot" else None,
                   line=action.line, column=action.column, action_id=action.action_id)
    buy.text = action.text
    return buy


def _missing_train(replay, action, violation) -> list:
    """A company passes with no train, which it must buy: the line buying
    one is missing (the cheapest the depot or the pool sells, at its
    price), when the record's next lines go on as if it owned it."""
    if not isinstance(action, Pass):
        return []
    g = replay.game
    from ..steps.trains import cheapest_train
    tr = cheapest_train(g)
    if tr is None:
        return []

    def apply():
        g.round.process(_buy_before(action, action.actor, tr, None))
        g.round.process(copy.copy(action))
    return [Reading(apply, f"; the record's later lines go on as if {action.actor} owned a "
                           f"{tr.name}-train: taken as bought from the "
                           f"{'pool' if tr.owner == 'pool' else 'depot'} for "
                           f"{g.money(tr.spec.price)} before this pass (a missing line)")]


#: at most this many of the depot's earlier trains are read as bought in
#: lines left out before a purchase of a later one
MISSING_DEPOT_TRAINS = 3


def _company_lay(replay, action) -> bool:
    """``action`` is a company's tile lay in a game with a map (what the
    readings of a refused lay need)."""
    g = replay.game
    return isinstance(action, LayTile) and g.board is not None and action.actor in g.corporations


def _missing_depot_trains(replay, action, violation) -> list:
    """A company buys a train the depot does not sell yet, its earlier
    trains unsold: the lines buying those are missing.  Read as bought by
    the same company just before, each from the depot at its price (a
    company buying several trains in its turn, one line left out), when
    the record's next lines go on as if they were sold (the phase the later
    train begins, the company's runs); the round judges each purchase as
    any line (the company's cash, its train limit)."""
    if not isinstance(action, BuyTrain) or action.source not in (None, "depot"):
        return []
    g = replay.game
    if action.train_id:
        target = g.train_by_id.get(action.train_id)
    else:
        target = next((tr for tr in g.trains if tr.owner == "depot"
                       and tr.name == action.train), None)
    if target is None or target.owner != "depot" or target in g.available_depot_trains():
        return []
    earlier = []
    for tr in g.trains:
        if tr is target:
            break
        if tr.owner == "depot":
            earlier.append(tr)
    same = [tr for tr in earlier if tr.name == target.name]
    if same:
        # (a later copy of the type the depot sells named: the copies'
        # numbers, not the purchase of several types left out)
        return _later_copy(g, action, target, same[0])
    if not earlier or len(earlier) > MISSING_DEPOT_TRAINS:
        return []

    def apply():
        for tr in earlier:
            g.round.process(_buy_before(action, action.actor, tr))
        g.round.process(copy.copy(action))
    ids = ", ".join(tr.id for tr in earlier)
    price = sum(tr.spec.price for tr in earlier)
    return [Reading(apply, f"; the record's later lines go on as if {action.actor} had "
                           f"bought the depot's {ids} before it, for {g.money(price)} "
                           f"(a missing line): taken so")]


def _later_copy(g, action, target, first) -> list:
    """A company buys a later copy of the type the depot sells (2-5 while
    2-4 is next): bought as the next copy (the number written wrong), or
    as named, the depot's next copy left in the depot, whichever the
    record's next lines go on from (the export names the copy
    in the buyer's runs; a line selling the one before it left out shows
    later as a purchase the depot cannot make yet: held-out
    1830_rand_58000004_3 with C&O's 2-4 at #110 deleted, NYNH's 2-5 at #126
    refused, and every train of the game after it parted: 246 errors)."""
    first_id, target_id = first.id, target.id

    def apply():
        # (by id: a look-ahead's trial puts back copies of the trains)
        trains = g.trains
        i = next(k for k, tr in enumerate(trains) if tr.id == first_id)
        j = next(k for k, tr in enumerate(trains) if tr.id == target_id)
        trains[i], trains[j] = trains[j], trains[i]
        g.depot_start = min(g.depot_start, i)
        g.round.process(copy.copy(action))

    def as_next():
        g.round.process(dataclasses.replace(action, train_id=first_id))
    # (of the two, the one the record's next lines go on from: the copy's
    # number written wrong, the export naming the next copy in the buyer's
    # runs, or a sale of the next copy left out)
    return [Reading(as_next, f"; the record's later lines go on as if it were {first_id}, "
                             f"the depot's next {target.name}-train: taken so"),
            Reading(apply, f"; the record's later lines go on as if {target.id} were sold "
                           f"before {first.id}, which stays in the depot: taken so")]


def _missing_phase_train(replay, action, violation) -> list:
    """A company discards a train within its limit: the line before it
    that began the phase lowering the limit may be missing, the purchase of
    the depot's next train by the company whose turn it is.  Each train the
    depot sells now is tried as bought so, then the discard, when the
    record's next lines go on as if it were."""
    from ..actions import DiscardTrain
    from ..state import Corporation
    if not isinstance(action, DiscardTrain):
        return []
    g = replay.game
    corp = g.corporations.get(action.actor)
    buyer = g.round.whose_turn()
    if corp is None or not isinstance(buyer, Corporation) \
            or len(corp.trains) > g.train_limit(corp):
        return []

    def reading(tr):
        def apply():
            g.round.process(_buy_before(action, buyer.sym, tr))
            g.round.process(copy.copy(action))
        return Reading(apply, f"; the record's later lines go on as if {buyer.sym} had bought "
                              f"the depot's {tr.id} for {g.money(tr.spec.price)} before it, "
                              f"the phase lowering the limit (a missing line): taken so")
    return [reading(tr) for tr in g.available_depot_trains()]


#: at most this many other tiles (in a rotation) are tried for a tile that
#: does not fit its hex; with more, none is
TILE_READINGS = 24


def _other_tile(replay, action, violation) -> list:
    """A tile that does not fit the hex it is written on (another colour
    than the hex takes, another label, other cities or towns): another tile
    of the same colour was laid there, in a rotation that fits, when the
    record's next lines go on as if it were (a run over the hex, an upgrade
    of it).  The candidates are those the board would take (its pure
    ``plan_lay``); the round judges the one tried as any line."""
    if not _company_lay(replay, action):
        return []
    g = replay.game
    board = g.board
    written = board.tiles.get(str(action.tile))
    hex_ = str(action.hex)
    if written is None or hex_ not in board.hexes:
        return []
    out = []
    # a lay outside the company's own turn (1860's home track, laid in the
    # stock round on floating) joins no network: the round judges it
    connect = g.round.whose_turn() is g.corporations[action.actor]
    for name in sorted(board.tiles, key=str):
        t = board.tiles[name]
        if name == str(action.tile) or t.color != written.color \
                or _copy_laid_later(replay, board, action, name):
            continue
        for r in t.distinct_rotations():
            try:
                board.plan_lay(action.actor, name, hex_, r, colors=[t.color],
                               check_connection=connect)
            except RuleViolation:
                continue
            out.append((name, r))
    if not out or len(out) > TILE_READINGS:
        return []

    return _tile_readings(g, action, out)


def _tile_readings(g, action, tiles) -> list:
    """The readings of a lay as another tile on its hex: one for each (tile,
    rotation) of ``tiles``, named as an export would name its next copy (a
    later station names it); of readings the next lines find as good, the
    one in the written rotation (a tile's number mistyped, its rotation as
    meant)."""
    board = g.board

    def reading(name, r):
        copy_name = board.next_copy(name) if action.tile_copy is not None else None

        def apply():
            g.round.process(dataclasses.replace(action, tile=name, rotation=r,
                                                tile_copy=copy_name))
        return Reading(apply, f"; the record's later lines go on as if tile {name} were laid "
                              f"on {action.hex} turned {r}: taken so",
                       preferred=r == action.rotation)
    return [reading(name, r) for name, r in tiles]


def _other_rotation(replay, action, violation) -> list:
    """A tile written in a rotation the rules refuse (``tile.rotation``:
    1860's tiles laid only at rotation 0, which keeps the map's geography):
    the same tile in a rotation the board takes there (its pure
    ``plan_lay``), when the record's next lines go on as if it were laid so
    (m10's set, 1860_rand_50500101_0 #170: 763 on G5 written turned 5)."""
    if not _company_lay(replay, action) or action.rotation is None:
        return []
    g = replay.game
    board = g.board
    t = board.tiles.get(str(action.tile))
    hex_ = str(action.hex)
    if t is None or hex_ not in board.hexes:
        return []
    connect = g.round.whose_turn() is g.corporations[action.actor]
    out = []
    for r in t.distinct_rotations():
        if r == action.rotation:
            continue
        try:
            board.plan_lay(action.actor, str(action.tile), hex_, r, colors=[t.color],
                           check_connection=connect)
        except RuleViolation:
            continue
        out.append(r)

    def reading(r):
        def apply():
            g.round.process(dataclasses.replace(action, rotation=r))
        return Reading(apply, f"; the record's later lines go on as if it were turned {r}: "
                              f"taken so")
    return [reading(r) for r in out]


#: at most this many other cities are tried for a station that cannot go
#: where it is written; with more, none is
TOKEN_READINGS = 16


def _other_city(replay, action, violation) -> list:
    """A station written where it cannot go (a full city, a hex the company
    already has a station on, a city it does not reach): it went to another
    city, when the record's next lines go on as if it had (its runs).  The
    candidates are the cities the board would take (its pure
    ``plan_token``); of readings as good, one on the written hex."""
    corp = _station_by_company(replay, action)
    if corp is None:
        return _private_station_city(replay, action)
    g = replay.game
    board = g.board
    out = []
    home = not getattr(g.corporations[corp], "home_placed", True)
    # a home station (no reach needed; 18Ireland's major places it where it
    # chooses): the cities of the hexes the company's later lines name
    coords = [c for c in _hexes_named_next(replay, corp, 2 * LONG_HORIZON)
              if c in board.hexes] if home else sorted(board.hexes)
    # a station naming a copy an upgrade took off its hex: the city written,
    # of the tile there now, is a reading too (1860_rand_2711144_3 #186,
    # 115-1's city for the 756 that replaced it on B6)
    stale = violation.rule == "token.city" and action.tile_copy is not None
    for coord in coords:
        h = board.hexes[coord]
        for k in range(len(h.city_indices())):
            if coord == action.hex and k == action.city and not stale:
                continue
            try:
                board.plan_token(corp, coord, k, check_reach=not home)
            except RuleViolation:
                continue
            out.append((coord, k))
    if len(out) > TOKEN_READINGS:
        # too many: those on the hexes the company's later lines name
        named = set(_hexes_named_next(replay, corp, LONG_HORIZON))
        out = [(coord, k) for coord, k in out if coord in named]
    if not out or len(out) > TOKEN_READINGS:
        return []

    # a station costs the same in any city (``Corporation.token_cost``: by
    # the count of stations placed): when the record's next lines tell no
    # city from the refusal, the cash it cost still shows later, and the
    # line says one was placed (not a home station: where it goes is all
    # it says); only where one city may take it (of several, the first is
    # a guess whose track the record's lines far on may contradict:
    # held-out 1830_rand_51000024_2 #294 written in a city of a tile gone
    # from the map, read in H10 of two, 31 errors where the refusal gives 2)
    which = "the one city it may go to"
    over = "" if home or len(out) > 1 else (f" (no city fits the record's next lines better than no "
                            f"station, but the line places one, and a station costs the same "
                            f"in any city: {which})")

    def reading(coord, k):
        def apply():
            g.round.process(dataclasses.replace(action, hex=coord, city=k, tile_copy=None))
        return Reading(apply, f"; the record's later lines go on as if the station were in "
                              f"{coord} city {k}: taken so", preferred=coord == action.hex,
                       over_refusal=over)
    return [reading(coord, k) for coord, k in out]


def _private_station_city(replay, action) -> list:
    """A private's free station (1830's DH: the station of its teleport,
    on the hexes its power names) written in a city it cannot go to: the
    cities of those hexes, when the record's next lines go on as if it
    were there (1830_rand_48000100_1 #192: DH's station written in the
    city of tile 57-0, J14, where the company has one, for 57-1's, F16)."""
    if not isinstance(action, PlaceToken) or action.corporation is not None:
        return []
    g = replay.game
    company = g.private_actor(action.actor)
    board = g.board
    if company is None or board is None or company.owner is None \
            or getattr(company.owner, "sym", None) not in g.corporations:
        return []
    corp = company.owner.sym
    hexes = ((company.spec.special or {}).get("teleport") or {}).get("hexes") or []
    out = []
    for coord in hexes:
        h = board.hexes.get(coord)
        if h is None:
            continue
        for k in range(len(h.city_indices())):
            if coord == action.hex and k == action.city:
                continue
            try:
                board.plan_token(corp, coord, k, check_reach=False)
            except RuleViolation:
                continue
            out.append((coord, k))

    def reading(coord, k):
        def apply():
            g.round.process(dataclasses.replace(action, hex=coord, city=k, tile_copy=None))
        return Reading(apply, f"; the record's later lines go on as if {company.sym}'s station "
                              f"were in {coord} city {k}, where its power places it: taken so")
    return [reading(coord, k) for coord, k in out[:TOKEN_READINGS]]


def _station_by_company(replay, action):
    """The company of ``action`` when it is a company's own station (not a
    private's) placed on a map it may be read on, else None: what the
    readings of a station begin with."""
    if not isinstance(action, PlaceToken) or action.corporation is not None:
        return None
    g = replay.game
    if g.board is None or action.actor not in g.corporations:
        return None
    return action.actor


def _station_placed_again(replay, action, violation) -> list:
    """A station written by a company with no marker left (18Ireland: a
    home station lifted by track on a hex of several cities waits to be
    placed again, free, by the company that laid it): the station placed
    again in a city of the hex where one waits, when the record's next
    lines go on as if it had been."""
    if _station_by_company(replay, action) is None:
        return []
    g = replay.game
    board = g.board
    waiting = sorted(coord for coord in board.hexes if board.relocations_on(coord))
    if not waiting or waiting == [action.hex]:
        return []

    def reading(coord, k):
        def apply():
            g.round.process(dataclasses.replace(action, hex=coord, city=k, tile_copy=None))
        return Reading(apply, f"; the record's later lines go on as if the station waiting "
                              f"on {coord} were placed again in city {k}: taken so")
    return [reading(coord, k) for coord in waiting[:TOKEN_READINGS]
            for k in range(len(board.hexes[coord].city_indices()))][:TOKEN_READINGS]


#: at most this many other names are tried for a company a line names
NAME_READINGS = 12


def _renamed(g, action, field: str, names, same_step) -> list:
    """Readings of ``action`` with its ``field`` set to each of ``names``
    that the round's step would take (its pure ``check``; ``same_step``: the
    step that takes the renamed line must be the written line's), when there
    are a few; applied as written with that name."""
    rnd = g.round
    turn = rnd.turn_of_steps()
    out = []
    for name in names:
        other = dataclasses.replace(action, **{field: name})
        try:
            step = rnd.step_for(other)
            if step is None or (same_step is not None and step is not same_step):
                continue
            step.check(turn, other)
        except RuleViolation:
            continue
        out.append(name)
    if not out or len(out) > NAME_READINGS:
        return []

    def reading(name):
        def apply():
            g.round.process(dataclasses.replace(action, **{field: name}))
        says = (f"; the record's later lines go on as if it named {name}: taken so"
                if field == "corporation" else
                f"; the record's later lines go on as if {name} had made it: taken so")
        return Reading(apply, says)
    return [reading(name) for name in out]


def _other_corporation(replay, action, violation) -> list:
    """A line naming a company the rules refuse there (18Ireland's merger
    proposal naming a minor that may not merge, the major a carried merger
    forms): it named another, when the record's next lines (the votes, the
    major formed) go on as if it had.  The candidates are the companies the
    round's step would take (its pure ``check``)."""
    if getattr(action, "corporation", None) is None:
        return []
    g = replay.game
    step = g.round.step_for(action)
    if step is None:
        return []
    return _renamed(g, action, "corporation",
                    [sym for sym in g.corporations if sym != action.corporation], step)


def _other_player(replay, action, violation) -> list:
    """A line written under the name of a player the round's steps do not
    take it from (18Ireland's vote by a player who has no vote, or whose
    vote is not asked for now): another player made it, when the record's
    next lines go on as if they had.  The candidates are the players the
    round's step would take it from (its pure ``check``)."""
    g = replay.game
    if action.actor not in g.player_by_name:
        return []
    return _renamed(g, action, "actor",
                    [p.name for p in g.players
                     if p.name != action.actor and not getattr(p, "bankrupt", False)], None)


def _passed_over(replay, action, violation) -> list:
    """A line of a player later in an auction's turn (a bid, a pass), or a
    line that is no bid or pass while the auction waits for bids: the
    players the auction waited for before it passed (their passes not
    written: a bid written lower than it was leaves them able to raise, 18Ireland's
    minor auction), when the record's next lines go on as if they had."""
    from ..actions import Bid
    g = replay.game
    waiting_of = getattr(g.round, "auction_waiting", None)
    waiting = waiting_of() if waiting_of is not None else None
    if not waiting:
        return []
    if isinstance(action, (Bid, Pass)) and violation.rule == "turn.order":
        if action.actor not in waiting or action.actor == waiting[0]:
            return []
        waiting = waiting[:waiting.index(action.actor)]
    elif violation.rule != "stock.minor_auction" or isinstance(action, (Bid, Pass)):
        return []

    def apply():
        for name in waiting:
            g.round.process(Pass(actor=name, line=action.line, column=action.column,
                                 action_id=action.action_id))
        g.round.process(action)
    return [Reading(apply, f"; the record's later lines go on as if "
                           f"{' and '.join(waiting)} passed before it: taken so")]


def _missing_raise(replay, action, violation) -> list:
    """A bid or pass of the player leading a minor's auction while it waits
    for another player (18Ireland): the leader passes only when outbid, and
    raises only another's bid, so the player it waited for raised first,
    that line missing (a bid deleted), at the least raise, when the
    record's next lines go on so (the price: ``diagnose.raise_price_hint``)."""
    from ..actions import Bid
    g = replay.game
    get = getattr(g.round, "auction_raise", None)
    if get is None or violation.rule != "turn.order" or not isinstance(action, (Bid, Pass)):
        return []
    got = get()
    waiting = g.round.auction_waiting() if got is not None else None
    if not got or not waiting or action.actor != got[1]:
        return []
    corp, _, least = got
    bidder = waiting[0]

    def apply():
        g.round.process(Bid(actor=bidder, company=corp, price=least, line=action.line,
                            column=action.column, action_id=action.action_id))
        g.round.process(action)
    return [Reading(apply, f"; the record's later lines go on as if {bidder} {RAISED} "
                           f"{g.money(least)} on {corp} before it: taken so")]


#: the words of a missing raise's reading (``diagnose.raise_price_hint``)
RAISED = "had raised the bid to"


def _other_player_or_passed_over(replay, action, violation) -> list:
    """A line out of turn: another player's (:func:`_other_player`), the
    line of its writer after the players an auction waited for passed
    (:func:`_passed_over`), or after the raise of the player it waited for
    (:func:`_missing_raise`)."""
    return (_other_player(replay, action, violation) + _passed_over(replay, action, violation)
            + _missing_raise(replay, action, violation))


def _home_hex(replay, action, violation) -> list:
    """A company's lay of the track its home station needs (1860's home
    track, laid as it floats) written on another hex: the same tile was laid
    on its home hex, in a rotation the board takes there, when the record's
    next lines go on as if it were (its runs, its upgrades).  Of readings as
    good, the one in the written rotation."""
    if not isinstance(action, LayTile):
        return []
    g = replay.game
    board = g.board
    corp = g.corporations.get(action.actor)
    if board is None or corp is None:
        return []
    home = corp.spec.home
    if not isinstance(home, str) or home == str(action.hex) or home not in board.hexes:
        return []
    tile = board.tiles.get(str(action.tile))
    if tile is None:
        return []
    out = []
    for r in tile.distinct_rotations():
        try:
            board.plan_lay(corp.sym, str(action.tile), home, r, colors=[tile.color],
                           check_connection=False, tile_copy=action.tile_copy)
        except RuleViolation:
            continue
        out.append(r)
    if not out or len(out) > TILE_READINGS:
        return []

    def reading(r):
        def apply():
            g.round.process(dataclasses.replace(action, hex=home, rotation=r))
        return Reading(apply, f"; the record's later lines go on as if tile {action.tile} were "
                              f"laid on {home} turned {r}: taken so",
                       preferred=r == action.rotation)
    return [reading(r) for r in out]


#: at most this many hexes the record's next lines name are tried for a tile
#: written on a hex that does not take it
HEX_READINGS = 6


def _hexes_named_next(replay, corp: str, horizon: int) -> list:
    """The hexes the company's next ``horizon`` lines of the record name (its
    lays, stations, runs' stops and paths), in the order first named."""
    g = replay.game
    acts = replay.record.actions
    start = g.following.position
    out: list = []

    def add(h):
        h = str(h).split(" ")[0]
        if h and h not in out:
            out.append(h)
    for a in acts[start + 1:start + 1 + horizon]:
        if getattr(a, "actor", None) != corp:
            continue
        if isinstance(a, (LayTile, PlaceToken)):
            add(a.hex)
        elif isinstance(a, RunRoutes):
            for h in _run_hexes(a):
                add(h)
    return out


def _hexes_upgraded_next(replay, horizon: int) -> list:
    """The white hexes of the map whose first lay in the record's next
    ``horizon`` lines (anyone's) is of a tile other than yellow: it upgrades
    a tile the record laid and the replay has not (a lay written on another
    hex: R's 1830_rand_58000004_3, #331's F12 written D16, ERIE's 24 on F12
    at #363)."""
    board = replay.game.board
    acts = replay.record.actions
    start = replay.game.following.position
    seen: set = set()
    out: list = []
    for a in acts[start + 1:start + 1 + horizon]:
        if not isinstance(a, LayTile) or str(a.hex) in seen:
            continue
        seen.add(str(a.hex))
        h = board.hexes.get(str(a.hex))
        tile = board.tiles.get(str(a.tile))
        if h is not None and tile is not None and h.color == "white" \
                and tile.color != "yellow":
            out.append(str(a.hex))
    return out


def _run_hexes(run):
    """The hexes a run of the record names (its stops and paths)."""
    for r in run.routes:
        for stop in r.stops:
            yield stop.hex
        for part in [*(r.path or []), *(r.connections or [])]:
            yield from part if isinstance(part, (list, tuple)) else [part]


def _other_hex(replay, action, violation) -> list:
    """A tile written on a hex that does not take it (another colour, other
    towns or cities, track off the map): it was laid on another hex, when
    the record's next lines go on as if it had been.  The candidates are
    the hexes the company's next lines name (a lay written on the wrong hex
    leaves the right one to its runs and upgrades) and, when one of them
    takes it, the hexes whose next lay (anyone's) upgrades a tile the replay
    has not laid, where the board would take the tile (its pure
    ``plan_lay``); when none named takes it, any hex that does."""
    if not _company_lay(replay, action):
        return []
    g = replay.game
    board = g.board
    tile = board.tiles.get(str(action.tile))
    if tile is None:
        return []
    from .lookahead import HORIZON
    hexes = [h for h in _hexes_named_next(replay, action.actor, HORIZON)
             if h != str(action.hex) and h in board.hexes]
    named = bool(hexes) and any(_fits(board, action, tile, h) for h in hexes)
    if named:
        # and the hexes the next lines upgrade from a tile not laid (another
        # company's upgrade may be the only line naming the right hex)
        hexes = list(dict.fromkeys(
            hexes + [h for h in _hexes_upgraded_next(replay, LONG_HORIZON)
                     if h != str(action.hex) and h in board.hexes]))
    else:
        # none named takes it: any hex the board takes it on (the company's
        # next lay may extend from it without its runs naming it yet)
        hexes = [h for h in sorted(board.hexes) if h != str(action.hex)]
    out: list[tuple[str, int]] = []
    for h in hexes:
        fits = []
        for r in tile.distinct_rotations():
            try:
                board.plan_lay(action.actor, str(action.tile), h, r, colors=[tile.color],
                               tile_copy=action.tile_copy)
            except RuleViolation:
                continue
            fits.append(r)
        if fits:
            out.extend((h, r) for r in fits)
            if named and len({x for x, _ in out}) >= HEX_READINGS:
                break
            if len(out) > TILE_READINGS:
                return []
    if not out or len(out) > TILE_READINGS:
        return []

    def reading(h, r):
        def apply():
            g.round.process(dataclasses.replace(action, hex=h, rotation=r))
        return Reading(apply, f"; the record's later lines go on as if tile {action.tile} were "
                              f"laid on {h} turned {r}: taken so",
                       preferred=r == action.rotation)
    return [reading(h, r) for h, r in out]


def _fits(board, action, tile, h) -> bool:
    for r in tile.distinct_rotations():
        try:
            board.plan_lay(action.actor, str(action.tile), h, r, colors=[tile.color],
                           tile_copy=action.tile_copy)
        except RuleViolation:
            continue
        return True
    return False


def _copy_laid_later(replay, board, action, name: str) -> bool:
    """An export's lay names the copy of its tile ("58-1"): tile ``name``
    laid here would be its next copy, and a later lay of the record naming
    that copy, before any upgrade of this hex (which puts the copy back in
    the supply), says it was not (the record laid it elsewhere)."""
    if action.tile_copy is None:
        return False
    copy_name = board.next_copy(name)
    for a in replay.game.following.ahead():
        if not isinstance(a, LayTile):
            continue
        if str(a.hex) == str(action.hex):
            return False    # the hex upgraded: the copy back in the supply, laid again
        if a.tile_copy == copy_name:
            return True
    return False


def _laid_all_the_same(replay, action, violation) -> list:
    """A lay refused for want of a copy of its tile (every copy on the map,
    or the copy it names lying on another hex): laid as written, when the
    record's next lines go on from it (a run over it, an upgrade of it).
    An upgrade of the hex the last copy lies on, a line the record left
    out, would have put the copy back in the supply (held-out
    1830_rand_50000044_1 with #260, the upgrade of D18, deleted: #346's
    16-0 on D22, 43 upgrading it at #352).  The copy is laid unnamed."""
    if not isinstance(action, LayTile):
        return []
    g = replay.game
    board = g.board
    name = str(action.tile)
    if board is None or action.actor not in g.corporations or name not in board.tiles \
            or board.remaining.get(name) is None:
        return []

    def apply():
        board.remaining[name] += 1
        try:
            g.round.process(dataclasses.replace(action, tile_copy=None))
        except RuleViolation:
            board.remaining[name] -= 1
            raise
    return [Reading(apply, "; the record's later lines go on from it laid (a copy back in the "
                           "supply: an upgrade the record left out?): taken so")]


def _laid_through_full_city(replay, action, violation) -> list:
    """A lay refused for want of a connection that the company's track makes
    only through cities filled by other corporations' stations
    (``TrackStep.through_full_city``): laid as written, when the record's
    next lines go on from it (a lay or run beyond it).  18xx.games lets such
    a lay through where its map was not computed again after a station was
    placed (1889 random 58000034_0 #116: KO past SR's new home on Marugame,
    SR having operated first with no lay; 34000003_0 #60)."""
    if not _company_lay(replay, action):
        return []
    g = replay.game
    board = g.board
    from ..steps.track import full_city_words
    words = full_city_words(board, action.actor, str(action.hex))

    def apply():
        g.following.taking_full_city = True
        try:
            g.round.process(action)
        finally:
            g.following.taking_full_city = False
    return [Reading(apply, f": {words}, and the record's later lines go on from it laid "
                           f"(18xx.games lets such a lay through when its map has not yet "
                           f"seen the station): taken so")]


def _laid_through_full_city_or_other_hex(replay, action, violation) -> list:
    """A lay not connected to the company's track: laid as written through a
    full city (above), or on another hex the company's next lines name (a
    hex written wrong: R's 1830_rand_58000004_3 with #331's F12 written
    D16, whose next lays upgrade F12)."""
    return _laid_through_full_city(replay, action, violation) \
        + _other_hex(replay, action, violation)


def _power_tile(replay, action, violation) -> list:
    """A private's lay (1830's CS) written with a tile its power does not
    lay: one of the tiles it lays, of the written tile's colour, in a
    rotation the round takes, when the record's next lines go on as if it
    were laid (its runs, an upgrade of it).  The round judges each as any
    line (a reading it refuses is no reading); of readings as good, one in
    the written rotation."""
    if not isinstance(action, LayTile):
        return []
    g = replay.game
    board = g.board
    company = g.companies.get(action.actor)
    written = board.tiles.get(str(action.tile)) if board is not None else None
    if company is None or written is None:
        return []
    from ..steps.track import power_spec
    tiles = power_spec(company).get("tiles")
    if not tiles or tiles == "any":
        return []
    names = [str(t) for t in tiles if str(t) != str(action.tile) and str(t) in board.tiles
             and board.tiles[str(t)].color == written.color
             and not _copy_laid_later(replay, board, action, str(t))]
    out = [(name, r) for name in names for r in board.tiles[name].distinct_rotations()]
    if not out or len(out) > TILE_READINGS:
        return []

    return _tile_readings(g, action, out)


def _other_tile_or_hex(replay, action, violation) -> list:
    """A tile that does not fit its hex: another tile there, or the tile on
    another hex (the readings of both, judged together)."""
    return _other_tile(replay, action, violation) + _other_hex(replay, action, violation)


def _other_sale(replay, action, violation) -> list:
    """A sale of shares the seller does not hold (or cannot make of its
    certificates): the seller sold as much of another company it holds,
    when the record's next lines go on as if it had (the train its
    president's cash then pays for, the pool's shares bought back).  The
    candidates are the companies the seller holds that much of; the step
    judges each as any line."""
    if not isinstance(action, SellShares) or len(action.sales) != 1:
        return []
    g = replay.game
    player = g.player_by_name.get(action.actor)
    if player is None:
        return []
    written = action.sales[0]
    corp = g.corporations.get(written.corporation)
    percent = written.percent
    if percent is None and corp is not None:
        percent = written.count * corp.share_percent
    if not percent:
        return []
    out = []
    for other in g.corporations.values():
        if other.sym == written.corporation or other.percent_of(player) < percent:
            continue
        out.append((other.sym, percent))
    if not out or len(out) > NAME_READINGS:
        return []
    # the seller's other amounts of those companies (a sale written with the
    # wrong name and the wrong amount: 18Ireland's 20% shares), after the
    # written amount's readings, preferred as good
    more = [(sym, k * g.corporations[sym].share_percent) for sym, _ in out
            for k in range(1, SALE_AMOUNTS + 1)
            if k * g.corporations[sym].share_percent not in (percent, 0)
            and g.corporations[sym].percent_of(player) >= k * g.corporations[sym].share_percent]

    def reading(sym, amount):
        other = g.corporations[sym]
        count = max(1, amount // other.share_percent) if other.share_percent else written.count

        def apply():
            g.round.process(dataclasses.replace(action, sales=[
                Sale(corporation=sym, count=count, percent=amount)]))
        return Reading(apply, f"; the record's later lines go on as if {action.actor} sold "
                              f"{amount}% of {sym}: taken so", preferred=amount == percent)
    return [reading(sym, amount) for sym, amount in (out + more)[:SALE_READINGS]]


def _implied_sale_amounts(replay, action, violation) -> list:
    """A sale not held whose company the record's later purchases name
    (``sale.implied_sale``), but not how much was sold: they name only the
    certificates bought back from the pool (never a president's; a share
    nobody bought back, none).  The amounts of that company up to what the
    seller holds (``ImpliedSale.amounts``), the one named first, each its
    certificates named first."""
    implied = getattr(violation, "implied_sale", None)
    if implied is None or not isinstance(action, SellShares):
        return []
    g = replay.game
    corp = g.corporations[implied.corporation]

    def reading(amount, first):
        def apply():
            g.round.process(dataclasses.replace(action, sales=[Sale(
                corporation=corp.sym, count=amount // corp.share_percent, percent=amount,
                certs=implied.certs)]))
        says = implied.says if first else (
            f"; the record's later lines buy {action.actor}'s {implied.bought} and go on as "
            f"if {action.actor} sold {amount}% of {corp.sym}: taken so")
        # (none preferred: of amounts the next lines fit alike, the longer
        # look-ahead decides, then the first, the one named)
        return Reading(apply, says)
    return [reading(a, k == 0) for k, a in enumerate(implied.amounts)]


def _other_sale_or_amounts(replay, action, violation) -> list:
    """The amounts of the company the record's purchases name, or (none
    named) the sale of another company."""
    if getattr(violation, "implied_sale", None) is not None:
        return _implied_sale_amounts(replay, action, violation)
    return _other_sale(replay, action, violation)


#: the amounts (in shares) of another company a sale not held is read as,
#: and at most this many readings in all
SALE_AMOUNTS = 3
SALE_READINGS = 16


#: at most this many other par values are tried for a refused par
PAR_READINGS = 16


def _bid_at_minimum(replay, action, violation) -> list:
    """A bid refused under the least its rule takes (``violation.minimum``:
    a bid for 1860's turn written at 0, an opening bid under face value, a
    raise too small): bid at that least, when the record's next lines go
    on as if the bid stood (the others pass, the bidder wins).  Held-out S's
    1860_rand_59000004_2 with #1's bid for the turn written at 0: 592
    errors, every line of the auction out of turn."""
    if violation.minimum is None or getattr(action, "price", None) is None:
        return []
    g = replay.game

    def apply():
        g.round.process(dataclasses.replace(action, price=violation.minimum))
    return [Reading(apply, f"; the record's later lines go on as if the bid stood: taken as a "
                           f"bid of {g.money(violation.minimum)}")]


def _other_par(replay, action, violation) -> list:
    """A par the rules refuse at its price (no par value of the company's,
    or more than the player can pay for the president's certificate): the
    company was started at another par value, when the record's next lines
    go on as if it had (its shares bought at that price, its place in the
    operating order).  The candidates are the market's par values; the
    round judges each as any line."""
    if not isinstance(action, Par):
        return []
    g = replay.game
    market = getattr(g, "market", None)
    if market is None:
        return []
    values = sorted({c.price for c in market.par_cells if c.price != action.price})
    if not values or len(values) > PAR_READINGS:
        return []

    def reading(v):
        def apply():
            g.round.process(dataclasses.replace(action, price=v))
        return Reading(apply, f"; the record's later lines go on as if {action.corporation} "
                              f"were parred at {g.money(v)}: taken so")
    return [reading(v) for v in values]


_READINGS = {
    "auction.min_bid": _bid_at_minimum,
    "stock.par_price": _other_par,
    "stock.cash": _other_par,
    "stock.sell_not_owned": _other_sale_or_amounts,
    "stock.sell_split": _other_sale,
    "stock.sell_not_parred": _implied_sale_amounts,
    "tile.edge": _other_tile_or_hex,
    "stock.home_track": _home_hex,
    "merger.action": _other_player,
    "merger.vote": _other_player,
    "turn.order": _other_player_or_passed_over,
    "auction.must_buy": _other_player,
    "stock.minor_auction": _passed_over,
    "merger.proposal": _other_corporation,
    "merger.major": _other_corporation,
    "merger.connection": _other_corporation,
    "trains.must_own": _missing_train,
    "trains.not_available": _missing_depot_trains,
    "trains.discard": _missing_phase_train,
    "tile.upgrade": _other_tile_or_hex,
    # (a second lay of a tile the turn's second lay may not be: another
    # tile of its colour there; 1860_rand_2711144_3 #301)
    "track.second_lay": _other_tile,
    "private.power": _power_tile,
    "token.full": _other_city,
    "token.duplicate": _other_city,
    "token.reach": _other_city,
    "token.none_left": _station_placed_again,
    "token.city": _other_city,
    "tile.supply": _laid_all_the_same,
    "tile.rotation": _other_rotation,
    "tile.connection": _laid_through_full_city_or_other_hex,
}
