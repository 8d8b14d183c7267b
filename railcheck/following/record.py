"""The record as the replay walks it, and the hooks the rules' code consults.

One :class:`Following` belongs to one game (``Game.following``).  The replay
(``engine.Replay``) gives it the record's actions and moves it to each action
in turn; the rules' code never reads the record itself.  It is part of the
game's changing state: a round taken up again (``round.continues``) restores
it with the rest.
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Optional

from ..actions import Checkpoint, Pass, PlaceToken, RoundMarker, RunRoutes
from . import track as _track


#: an action's fields that say where it stands in the record, not what it does
_PLACE = ("line", "column", "action_id", "text")

#: copies of one tile looked for when an export's station names a tile's
#: city the importer read as a hex (``as_laid``)
_COPIES = 12


def _same(action, other) -> bool:
    """``action`` says what ``other`` says (a field the rules filled in on
    ``other`` and ``action`` leaves out counts as the same)."""
    if type(other) is not type(action) or other.actor != action.actor:
        return False
    for f in fields(action):
        if f.name in _PLACE:
            continue
        mine, theirs = getattr(action, f.name), getattr(other, f.name)
        if mine != theirs and mine is not None:
            return False
    return True


class Following:
    """The record's actions, the place of the current one, and the readings
    of the record the rules' code may ask for (each returns "nothing
    implied" when the record says nothing, or when there is no record)."""

    def __init__(self, actions=(), *, from_export: bool = False):
        #: the record's actions (the replay's list, not a copy)
        self.actions: list = actions if isinstance(actions, list) else list(actions)
        #: the record is an 18xx.games export: its lines are the site's, in
        #: its turns (no line is an interjection in another player's turn)
        self.from_export = from_export
        #: the place of the current action in :attr:`actions`
        self.position = -1
        #: (see :attr:`closes_turns_with_pass`: read once)
        self._closing_passes: Optional[bool] = None
        #: pairs of companies (earlier, later) flagged for operating out of
        #: the rules' order: said once in a round (:meth:`begin_round`
        #: empties it)
        self.order_flagged: set = set()
        #: the record-following of the round being played (``base.RoundFollower``,
        #: set by the replay when a round begins)
        self.round = None
        #: a refused lay is being tried on another hex or in another rotation
        #: (no further hex is looked for meanwhile)
        self.relocating = False
        #: a lay refused for want of a connection that only cities full of
        #: others' stations break is being taken as laid (a reading,
        #: ``repair._laid_through_full_city``; ``TrackStep.check``)
        self.taking_full_city = False
        #: an action is judged alone, as the record's last line (``railcheck
        #: next``'s pure checks): no later line to read another hex or
        #: rotation from, so none is looked for
        self.judging_alone = False
        #: a sale not held whose amount the record's later purchases leave
        #: open is read by the record's next lines (``sale.implied_sale``):
        #: a replay's, not the purity check's (which keeps the refusals as
        #: the rules make them)
        self.weighs_sales = False
        #: another outcome of the line just taken that the rules offer (the
        #: site's reading of a rule railcheck keeps): (apply, words), judged
        #: by the record's next lines once the line is taken
        #: (``rounds.RecordRounds.reconsider``)
        self.other: Optional[tuple] = None

    def begin_round(self, follower) -> None:
        """A round began, followed by ``follower``: a pair of companies out of
        the rules' order is said again in it (an order broken again in a
        later round is a breach of its own)."""
        self.round = follower
        self.order_flagged = set()

    def other_outcome(self, apply, says: str) -> None:
        """The rules took the current line one way, and ``apply`` makes the
        outcome 18xx.games gives it (a rule railcheck keeps and the site does
        not: 18Ireland's B5); the record's next lines, to its end, say which
        it went on from (``rounds.RecordRounds.reconsider``)."""
        if not self.judging_alone:
            self.other = (apply, says)

    # ------------------------------------------------------------------
    # reading the record

    def at(self, position: int) -> None:
        """The replay has reached the record's action at ``position``."""
        self.position = position

    @property
    def next_action(self):
        """The record's action after the current one: where the record says
        the game went on."""
        return next(self.ahead(), None)

    def ahead(self):
        """The record's actions after the current one (to stay in step with
        the record after a finding; never to decide what is legal)."""
        acts = self.actions
        for i in range(self.position + 1, len(acts)):
            yield acts[i]

    def actors_ahead_in_round(self) -> list:
        """Who acts in the record's lines after the current one, up to its next
        round marker, each once, in the order they first act: the companies the
        record has operate later in this round (1890's operating order by price
        is checked against them, ``OperatingRound1890.check_price_order``)."""
        later: list = []
        for a in self.ahead():
            if isinstance(a, RoundMarker):
                break
            if not isinstance(a, Checkpoint) and a.actor not in later:
                later.append(a.actor)
        return later

    def written_twice(self, action):
        """The record's line before ``action`` when ``action`` repeats it word
        for word (the same actor, the same fields; a field the rules filled in
        on the first, left out on the copy, counts as the same), else None.
        A pass, a checkpoint or a marker is no copy: several in a row say
        different things (a pass of each step); nor is a line of a run of
        three or more alike (five 2-trains bought, the last over the
        limit)."""
        pos = self.position
        if pos <= 0 or isinstance(action, (Pass, Checkpoint, RoundMarker)):
            return None
        prev = self.actions[pos - 1]
        if not _same(action, prev):
            return None
        acts = self.actions
        if (pos >= 2 and _same(action, acts[pos - 2])) \
                or (pos + 1 < len(acts) and _same(acts[pos + 1], action)):
            return None     # a run of the same line (five 2-trains bought): meant so
        return prev

    @property
    def closes_turns_with_pass(self) -> bool:
        """Whether the record closes a stock-round turn with its player's own
        pass after a purchase (the site's newer exports do; hand-written
        records and older exports let a purchase end the turn): the shape of
        the record, read once."""
        known = self._closing_passes
        if known is None:
            from ..replay_state import _closing_passes
            known = self._closing_passes = _closing_passes(self.actions, self.from_export)
        return known

    # ------------------------------------------------------------------
    # what the record implies where the rules refuse the line as written:
    # the rules' code asks, the readings are this package's

    def lay_turned(self, step, action, refusal, plan):
        """A lay refused in its written rotation: (the board's plan in the
        rotation the record implies, the finding), or ``refusal`` raised."""
        return _track.lay_turned(step, action, refusal, plan)

    def lay_elsewhere(self, step, turn, action, refusal, special):
        """A lay refused on its written hex: the step's plan on the hex the
        record's later lines have it on, or None."""
        return _track.lay_elsewhere(step, turn, action, refusal, special)

    def implied_sale(self, step, player, action, refusal):
        """A sale ``refusal`` refuses (a certificate the seller does not
        hold): (corporation, percent, certificates, the finding's message)
        of the sale the record's later lines imply, or ``refusal`` raised."""
        from .sale import implied_sale
        return implied_sale(step, player, action, refusal)

    def missing_par(self, step, player, corp):
        """A share bought of ``corp``, which has no par value: the missing
        par line the record's later lines give, or None."""
        from .stock import missing_par
        return missing_par(step.game, player, corp)

    def play_missing_par(self, step, missing) -> None:
        """The missing par line :meth:`missing_par` found, flagged and
        played before the purchase ``step`` checks."""
        from .stock import play_missing_par
        play_missing_par(step, missing)

    def station_follows(self, corp) -> bool:
        """The record's next line places a station of ``corp``: it says
        which city of its home hex the company takes (a tile with several
        cities there), or where its home station goes."""
        nxt = self.next_action
        return isinstance(nxt, PlaceToken) and nxt.actor == corp.sym

    def empty_run_next(self, corp) -> bool:
        """The record's next line is an empty run of ``corp``: 18xx.games
        asked it for a run where railcheck finds no route (the site's live
        game can differ from its own replay, which finds none either:
        18Ireland, a home on a green Belfast whose one track leads to a hex
        without track, held-out 50000039_2 #252, #613, #627), so its run step
        waits for that line rather than being passed over (the same
        withhold, at the record's line; no rule forbids a run of nothing)."""
        nxt = self.next_action
        return isinstance(nxt, RunRoutes) and nxt.actor == corp.sym and not nxt.routes

    def goes_on_with_players(self, kinds, players) -> bool:
        """The record's next line is an action of ``kinds`` by one of
        ``players``: the round goes on with them (their passes written)."""
        nxt = self.next_action
        return isinstance(nxt, kinds) and nxt.actor in players

    def took_tentative(self, tentative) -> None:
        """A line read with the only keyword that makes it parse (``pra``
        for ``par``) was legal as read and taken: its syntax finding says
        so."""
        finding, word, keyword = tentative
        says = f"; taken as {keyword}: the only word that makes the line parse, and the line " \
               f"is legal so"
        if not finding.message.endswith(says):   # (the record's finding: once, however
            finding.message += says               # many replays of it take the line)

    # ------------------------------------------------------------------

    def as_laid(self, board, action):
        """A station an export names by a tile's city ("54-0-1") on the hex
        where the replay has that tile, when it is not the hex the export's
        lay wrote (a lay taken on the hex the record's later lines have it
        on: ``following/track.py``); else ``action`` itself."""
        copy = getattr(action, "tile_copy", None)
        if board is None or not hasattr(action, "city"):
            return action
        if copy is None and self.from_export and isinstance(getattr(action, "hex", None), str) \
                and action.hex not in board.hexes:
            # a tile's city no lay of the record names (the copy a lay taken
            # as another tile got: following/repair.py)
            copy = action.hex
        if copy is None:
            return action
        where = board.hex_of_tile_copy(copy)
        if where is None and copy == getattr(action, "hex", None):
            # an export's "IR65-0-0" read as hex IR65 (a tile's name that looks
            # like a hex): the one copy of that tile on the map, if one
            laid = {board.hex_of_tile_copy(f"{copy}-{k}") for k in range(_COPIES)} - {None}
            if len(laid) == 1:
                where = laid.pop()
        if where is None or where == action.hex:
            return action
        return replace(action, hex=where)
