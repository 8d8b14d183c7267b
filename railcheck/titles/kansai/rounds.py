"""1890's rounds as its record has them: the record-following layer's hook for a title whose
rounds are the record's own (``following/rounds.py``'s ``RecordRounds``, which the engine's
loop asks before each line).

A 1890 record marks its rounds (``auction``, ``SR 2``, ``OR 2.1``), and its rounds are the
markers': a marker ends the round at hand (the turn under way and the round's end: the
auction's sales, a stock round's end by S3.1 and S3.2 when the rules did not end it, an
operating round's companies left out taking their empty turns) and starts the round it
names, whatever the rules would make there; the rules' sequence is checked against it, each
slip one finding (F3, O0: the set of 1 to 3 operating rounds the phase gives after a stock
round, numbered by the stock round and the place in the set; E1: the game's end after the
set, or after the last game turn).  Within a round the round itself places each line
(the shared ``StockFollower`` and ``OperatingFollower`` with 1890's hooks, ``steps.py`` and
``operating.py``): the shared readings of the record across rounds (a round the rules ended
taken up again by the engine, a round closed for a line that does not fit, a line read with
the keyword that makes it parse, or written twice, dropped when refused; the hints) are not
1890's, which takes each line as read and judges it in the round the record has it in.
"""

from __future__ import annotations

from types import SimpleNamespace

from ...actions import Checkpoint, RoundMarker
from ...findings import WARNING, Finding
from ...following.rounds import RecordRounds


class RecordRounds1890(RecordRounds):
    """The record's rounds, begun and ended by its markers (see the module)."""

    record_marks_rounds = True
    rules_end_rounds = False
    hints = False

    @property
    def title(self):
        """1890's title object: its state, numbers and rounds (``TitleKansai.start``)."""
        return self.game.title

    def begin(self) -> None:
        """The game set up: 1890's state and rounds (the auction first), and the players'
        count against the components file's (set-up).  1890's steps weigh no sale the record
        does not write."""
        g = self.game
        g.following.weighs_sales = False
        g.title.start(self.replay)
        g.title.check_players()

    def at(self, position: int) -> None:
        super().at(position)
        # the record as the shared layer reads it (the auction's next action, the operating
        # order's companies ahead): ``next`` plays a candidate on a copy whose record has it
        self.game.following.actions = self.replay.record.actions

    def tentative(self, action):
        """A line read with the one keyword that makes it parse is taken as read (the
        notation said so)."""
        return None

    def written_twice(self, action):
        """A line repeating the one before it is judged as written (a second certificate
        in a turn is S2.1's finding, a company acting again ``turn.order``)."""
        return None

    def close_rounds_before(self, action) -> None:
        """A line is its round's, the one the record's last marker began (the round judges
        a line that does not fit it)."""

    def place(self, action):
        """The round at hand places the line itself (its follower, in ``take_action``)."""
        return action

    # ------------------------------------------------------------------
    # the markers

    def round_marker(self, marker: RoundMarker) -> None:
        """The record's marker: the turn at hand and the round end, the marked round
        begins; ``auction`` after the game began is one finding and changes nothing."""
        t = self.title
        if marker.kind == "auction" and t.kind != "auction" and not t.finished:
            # the privates' auction is played once, before the first stock round (the
            # rules never make it again: the shared ``Title.no_more``'s reading)
            t.flag("round.marker", f"the record says 'auction' here, but the privates' "
                                   f"auction is played once, before the first stock round: "
                                   f"the marker is ignored ({t.round_label} goes on)",
                   action=marker)
            return
        self.end_turn()
        if not (marker.kind == "auction" and t.kind == "auction"):
            self.round_ends()       # (the record's opening 'auction' line ends nothing)
            self.round_ended()
        self.round_starts(marker)

    def record_ends(self) -> None:
        """The end of the record: the turn its pass ended and the round's settlement at the
        end (an unfinished turn's duties are not checked; not after a bug of ours stopped
        the replay), and the game's end the record says (its ``end`` tag; a bank it says
        broke that still holds money is ``score.end_differs``)."""
        t, g = self.title, self.game
        if not self.replay.broke:
            g.current_action = None
            self.end_turn(record_ends=True)
            self.round_ends(record_ends=True)
        end = t.record.tags.get("end")
        if end and not t.finished and self.replay.stop_at is None:
            t.finished, t.end_reason = True, end
            if end == "bank":
                t.number("the end's timing when the bank runs out", "rulebook", "end_on_bank")
                t.number("the bank running out", "bank")
        led = t.ledger
        if led.on and end == "bank" and not led.bank_broken and self.replay.stop_at is None \
                and led.sure("bank"):
            # the record's end taken as it says (above), but the bank it says broke holds money
            line, column = t.record.tag_locations.get("components", (1, 1))
            g.findings.append(Finding(
                severity=WARNING, rule="score.end_differs", line=line, column=column,
                message=f"the record says the game ended by 'bank', but the bank still holds "
                        f"{t.money(led.bank)}"))

    def round_ended(self) -> None:
        """The analyser's observer of the end of a round."""
        t = self.title
        if self.replay.on_round_end is not None:
            self.replay.on_round_end(self.game, SimpleNamespace(label=t.round_label,
                                                                kind=t.kind))

    def end_turn(self, record_ends: bool = False) -> None:
        """The round's turn at hand is over (a round marker, the record's end: then it may
        be unfinished, and its duties are not checked)."""
        self.game.round.close_turn(record_ends)

    def check_marker(self, marker: RoundMarker) -> RoundMarker:
        """The record's marker against the round the rules make next
        (``TitleKansai.rules_next_round``: after the auction a stock round, after a stock
        round the set of ORs its phase gives, F3, O0, numbered by the stock round and the
        place in the set; the rule book's "Game Rounds": one stock round followed by 1 to 3
        operating rounds), one finding for a marker that differs: a stock round before the
        set is over (``round.skipped``), an operating round after it or numbered otherwise
        (``round.marker``).  The round that begins: the marker's, as the
        record has it (the markers count the set's operating rounds as written), unless it
        names another kind of round than the rules' and the record goes on with the rules'
        (its next line a company's where the rules make an operating round, a player's where
        they make a stock round): the marker is then the slip, said so, and the rules' round
        begins."""
        t = self.title
        want = t.rules_next_round()
        label = marker_label(marker)
        if marker.kind == "auction":
            return marker       # (the record's opening line: a later one is round_marker's)
        size = t.or_set_size
        if t.kind == "OR" and size is None:
            # operating rounds before any stock round: no set to count them in
            if marker.kind == "OR":
                t.ors_in_set += 1
            return marker
        per_set = f"phase {t.set_phase} has {size} OR(s) per set"
        why = "a stock round follows the auction" if t.kind == "auction" else per_set + ", F3"
        if marker.kind != want.kind and self.goes_on_with(want):
            whose = "companies" if want.kind == "OR" else "players"
            t.flag("round.marker", f"the record says '{label}' here, but the rules make this "
                                   f"{marker_label(want)} ({why}), and the record goes on "
                                   f"with its {whose}: taken as {marker_label(want)}",
                   action=marker)
            if want.kind == "OR":
                t.ors_in_set += 1
            return want
        if marker.kind == "OR":
            t.ors_in_set += 1       # (the set's operating rounds as the record has them)
        if marker.kind == "SR" and want.kind == "OR":
            t.flag("round.skipped",
                   f"{t.ors_in_set} OR(s) were played after SR {t.sr_number}; the set "
                   f"has {size} in phase {t.set_phase} (F3)", action=marker)
        elif marker.kind == "OR" and want.kind == "SR":
            if t.kind == "auction":
                t.flag("round.marker", f"the record says '{label}' here, but the rules make "
                                       f"this {marker_label(want)} ({why})", action=marker)
            else:
                t.flag("round.marker", f"the record says '{label}' here, but {per_set} (F3)",
                       action=marker)
        elif marker.kind == "OR" and len(marker.number) == 2 and \
                tuple(marker.number) != tuple(want.number):
            t.flag("round.marker", f"the record says '{label}' here, but this is "
                                   f"{marker_label(want)}", action=marker)
        return marker

    def goes_on_with(self, want: RoundMarker) -> bool:
        """The record's next line after the marker at hand (past its checkpoints) is one of
        ``want``'s kind of round: a company's in an operating round, a player's in a stock
        round (not when the record ends or marks another round first)."""
        t = self.title
        for action in self.replay.record.actions[self.position + 1:]:
            if isinstance(action, Checkpoint):
                continue
            if isinstance(action, RoundMarker):
                return False
            actor = getattr(action, "actor", None)
            if want.kind == "OR":
                return actor in t.rules.corp_by_sym
            return t.holdings.is_player(actor)
        return False

    def round_starts(self, marker: RoundMarker) -> None:
        """The round the marker names begins (checked against the rules' sequence: F3,
        O0, and E1's end after a set of operating rounds)."""
        t = self.title
        if not t.finished:
            marker = self.check_marker(marker)
        t.kind = marker.kind
        t.round_label = marker_label(marker)
        if marker.kind == "SR" and t.end_after_set and not t.finished:
            # E1 with rulebook.end_on_bankruptcy (or end_on_bank): full_or: the set of ORs
            # was finished
            t.finished, t.end_reason = True, t.end_after_reason
        if marker.kind == "SR":
            t.sr_number += 1
            t.stock.round.start()
        elif marker.kind == "OR":
            t.operating.start()
        if marker.kind not in ("SR", "OR"):
            t.holdings.following.round = None    # (the stock round's follower, S2.2)
        t.holdings.round = {"SR": t.stock.round, "OR": t.operating}.get(
            marker.kind, t.auction)

    def round_ends(self, record_ends: bool = False) -> None:
        """The round at hand ends: the auction's sales (A4, A5, A7), a stock round's end
        (S3.1, S3.2) and the set of operating rounds it gives (O0), an operating round's
        companies left out taking their turns (E1 after the last game turn)."""
        t = self.title
        if t.kind == "auction":
            if record_ends:
                return          # the record stops in the auction: nothing to settle
            t.stock.end_auction()
        elif t.kind == "OR" and (not record_ends or t.record.tags.get("end")):
            t.operating.finish(record_ends)  # (a record that ends with the game ends its last OR)
            if t.game_turns is not None and t.sr_number >= t.game_turns and \
                    t.or_set_size is not None and t.ors_in_set >= t.or_set_size and \
                    not t.finished:
                # E1: the last game turn is over (the components file's game_turns)
                t.finished, t.end_reason = True, "game_turns"
        elif t.kind == "SR":
            if not t.stock.round.finished:       # (not ended by the rules, S2.2)
                t.stock.round.finish()
            # O0: the number of ORs is set after the SR, by the phase
            t.or_set_size = t.phase.operating_rounds
            t.set_phase = t.phase.name
            t.ors_in_set = t.holdings.or_number = 0     # (the shared OR's count in the set)


def marker_label(marker: RoundMarker) -> str:
    """The round as the record writes it: ``auction``, ``SR 2``, ``OR 2.1``."""
    return " ".join([marker.kind] + ([".".join(str(n) for n in marker.number)]
                                     if marker.number else []))
