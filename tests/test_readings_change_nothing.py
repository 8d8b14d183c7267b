"""The record-following readings leave the game as the reading they choose
makes it, and nothing else.

``test_refusals_change_nothing.py`` replays its changed games with the
readings off (``check_purity`` turns ``following/repair.py`` off), so the
searches the readings make are proven here, on changed games of every title:

* a refused line's search (``repair.repair``: the readings made, each tried
  with ``lookahead.best_reading`` and the record's next lines replayed, the
  state saved and put back) leaves the whole state as it was before it: the
  game (the title's own state, the board, the round, the record-following
  layer's place and state), the findings and the record's actions;
* a line written twice (``lookahead.better_once``): the state after it is
  the state with the copy taken, or, when the copy is dropped, exactly the
  state before the copy;
* the game after the chosen reading is the game a fresh replay makes when it
  is handed the same readings and searches nothing (``known_repairs``, as a
  hint's candidate replay takes them): the same state and the same findings
  after every action.

Any state the searches forget to save and put back shows as a difference.
"""

import copy
import json

import pytest

from railcheck.engine import Replay
from railcheck.following import lookahead as lookahead_mod
from railcheck.following import record as record_mod
from railcheck.following import repair as repair_mod
from railcheck.following import rounds as rounds_mod
from railcheck.importer import import_export
from railcheck.snapshot import _plain, snapshot_diff, state_snapshot

from conftest import DATA, REPO
from test_refusals_change_nothing import _read_export


def picture(rp, actions: bool = True) -> dict:
    """The replay's whole changing state, comparable: the game's snapshot
    (the title's own state, board and round included), the record-following
    layer's state (``Game.following``, the replay's ``RecordRounds``), the
    findings and the record's actions as they stand."""
    g = rp.game
    fol = g.following
    rounds = rp.rounds
    return {
        "state": state_snapshot(g),
        "following": (fol.position, fol._closing_passes, sorted(map(str, fol.order_flagged)),
                      fol.relocating, fol.judging_alone),
        "rounds": (rounds.position, rounds.round_actions, rounds.ended is None,
                   _plain(rounds.price_marks, 1), _plain(rounds.marked_round, 3)),
        "replay": (getattr(rp, "game_over_reported", None), rp.count),
        "findings": [(f.severity, f.rule, f.line, f.action_id, f.message, f.consequential,
                      f.follows) for f in g.findings],
        "current": repr(g.current_action),
        "actions": [repr(vars(a)) for a in rp.record.actions] if actions else None,
    }


def diff(a: dict, b: dict) -> list:
    return snapshot_diff(a, b)[:5]


class Watch:
    """The searches of one replay, each checked as it happens."""

    def __init__(self, rp):
        self.rp = rp
        self.searches = 0           # refused lines searched for a reading
        self.chosen = 0             # ... of which a reading was taken
        self.copies = 0             # lines written twice judged by their look-ahead
        self.dropped = 0            # ... of which the copy was dropped
        self.leaks: list = []
        self.before_copy = None
        self.copy_at: list = []
        self.behind: list = []      # copies dropped in a round taken up again
        self.taken_up: set = set()  # the record's places where a round was taken up again

    def top(self, replay) -> bool:
        return replay is self.rp and not getattr(replay, "trying", False)


def watching(monkeypatch):
    """A factory of replays whose searches are checked (``Watch``), with the
    searches patched by ``monkeypatch``."""
    watches: list = []
    repair = repair_mod.repair
    better_once = lookahead_mod.better_once
    written_twice = record_mod.Following.written_twice
    restore = rounds_mod.RecordRounds.restore

    def find(replay):
        return next((w for w in watches if w.top(replay)), None)

    def checked_repair(replay, action, violation):
        w = find(replay)
        if w is None:
            return repair(replay, action, violation)
        before = picture(replay)
        got = repair(replay, action, violation)
        w.searches += 1
        w.chosen += got is not None
        after = picture(replay)
        if after != before:
            w.leaks.append(("repair", action.action_id or action.line, diff(before, after)))
        return got

    def checked_written_twice(self, action):
        got = written_twice(self, action)
        for w in watches:
            if w.top(w.rp) and w.rp.game.following is self:
                # (the engine saves the state right after: what a dropped copy goes back to)
                w.before_copy = picture(w.rp) if got is not None else None
        return got

    def checked_better_once(replay, before, prefer_once=False):
        w = find(replay)
        if w is None:
            return better_once(replay, before, prefer_once)
        taken = picture(replay)
        got = better_once(replay, before, prefer_once)
        w.copies += 1
        act = replay.game.current_action
        w.copy_at.append((act.action_id, type(act).__name__, got is not None))
        after = picture(replay)
        if got is None:
            # the copy stands as taken
            if after != taken:
                w.leaks.append(("copy kept", replay.game.current_action.action_id,
                                diff(taken, after)))
        else:
            w.dropped += 1
            # back to the state before the copy, its findings included
            want = w.before_copy
            act = replay.game.current_action
            if replay.rounds.position in w.taken_up:
                # (a copy dropped in a round taken up again: the state before
                # it is the taken-up round's, the record-following layer's
                # place included, which the round's restore once left a line
                # behind)
                w.behind.append(act.action_id)
            if after != want:
                w.leaks.append(("copy dropped", act.action_id, diff(want, after)))
        return got

    def checked_restore(self, saved, marks):
        for w in watches:
            if w.rp.rounds is self:
                w.taken_up.add(self.position)
        return restore(self, saved, marks)

    monkeypatch.setattr(repair_mod, "repair", checked_repair)
    monkeypatch.setattr(rounds_mod.RecordRounds, "restore", checked_restore)
    monkeypatch.setattr(lookahead_mod, "better_once", checked_better_once)
    monkeypatch.setattr(record_mod.Following, "written_twice", checked_written_twice)

    def make(record):
        rp = Replay(record, hints=False)
        w = Watch(rp)
        watches.append(w)
        return rp, w
    return make


@pytest.fixture
def watched(monkeypatch):
    return watching(monkeypatch)


def record_of(data, last=None):
    """The record of an export's data; cut after action ``last`` when given."""
    record, read = import_export(json.dumps(data), "changed.json")
    assert read == []
    if last is not None:
        record.actions = [a for a in record.actions if a.action_id is None or a.action_id <= last]
        record.expected_result = record.expected_end_reason = None
    return record


def replay_with_pictures(rp, w=None, at=None) -> dict:
    """Replay, with a picture after each action that made a search (``w``:
    its Watch) or after each action at a place of ``at``, and at the end: by
    the record's position (the end: -1)."""
    pictures = {}

    def after(g, a):
        here = g.following.position
        if (w is not None and (w.searches, w.copies) != after.seen) or (at and here in at):
            pictures[here] = picture(rp, actions=False)
        if w is not None:
            after.seen = (w.searches, w.copies)
    after.seen = (0, 0)
    rp.after_action = after
    rp.run()
    pictures[-1] = picture(rp)
    return pictures


def changed(path: str, changes: dict):
    """The export ``tests/data/exports/PATH`` with each of ``changes`` (action
    id -> the fields it changes, or "twice": the line written twice, the copy
    given the id after it)."""
    data = _read_export(DATA / "exports" / path)
    acts = []
    for a in data["actions"]:
        for key in ("id", "action_id"):
            if isinstance(a.get(key), int):
                a[key] *= 2
        change = changes.get(a.get("id", 0) // 2) if a.get("id", 0) % 2 == 0 else None
        acts.append(a)
        if change == "twice":
            acts.append(dict(copy.deepcopy(a), id=a["id"] + 1))
        elif change is not None:
            a.update(change)
    data["actions"] = acts
    return data


#: games with several slips whose readings the record's next lines choose
#: (those of tests/test_slips.py, two or three in a game), and lines written
#: twice (a bid, a purchase in the first stock round); (the readings taken,
#: the copies dropped: a bid written twice in an auction, taken out of turn
#: and then refused, is dropped too since the engine hands a copy the rules
#: flagged before refusing it to the copy check)
SLIPPED = {
    "1830": ("1830/1830_game_end_bank.json",
             {3: "twice", 27: "twice", 69: {"city": "57-2-0", "slot": 0}, 341: {"hex": "F10"}},
             (2, 2)),
    "1830 powers": ("1830_slips/1830_rand_2711294_2.json.gz",
                    {3: "twice", 15: "twice", 156: {"tile": "69-0"}}, (1, 2)),
    "1860": ("1860/1860_game_end_bank.json",
             {3: "twice", 43: "twice", 48: {"hex": "K5"}, 143: {"hex": "K5"}}, (2, 2)),
    "18Ireland": ("18Ireland/18Ireland_game_end_bankrupt.json",
                  {3: "twice", 30: {"entity": 5528}, 117: "twice", 384: {"price": 120},
                   432: {"corporation": "DDR"}}, (2, 1)),
    "1889": ("1889/962.json",
             {3: "twice", 13: "twice", 96: {"city": "57-0-0", "slot": 0},
              268: {"city": "57-0-0", "slot": 0}, 448: {"city": "57-0-0", "slot": 0}}, (3, 2)),
    "18Ireland mergers": ("18Ireland_slips/18Ireland_rand_2711299_1.json.gz",
                          {3: "twice", 15: "twice", 184: {"entity": 103},
                           256: {"tile": "4-0"}}, (2, 2)),
}


@pytest.mark.parametrize("name", sorted(SLIPPED))
def test_the_readings_change_only_what_they_choose(watched, name):
    path, changes, (readings, copies) = SLIPPED[name]
    data = changed(path, changes)
    # (the record cut 300 actions after its last change, the look-ahead
    # reading at most 200 of the next lines; the game of CS's power whole:
    # cut, its searches would outrun the budget, 10 lines an action)
    last = None if name == "1830 powers" else 2 * (max(changes) + 300)
    rp, w = watched(record_of(data, last))
    searched = replay_with_pictures(rp, w)
    assert w.leaks == []
    budget = rp.lookahead_budget
    assert budget.used <= budget.limit      # (no search cut short: the fresh replay agrees)
    assert (w.chosen, w.dropped) == (readings, copies), (w.searches, w.copy_at)
    # (1830: the copy of #27 (#55 here) is a purchase after every player
    # passed, in SR 1 taken up again: dropped, back to exactly the state
    # before it)
    assert w.behind == ([55] if name == "1830" else [])
    # the same readings handed to a fresh replay of the same record, which
    # searches none: the same game after each line searched, and at the end
    fresh = Replay(record_of(data, last), hints=False)
    fresh.known_repairs = (dict(rp.repairs), len(fresh.record.actions) + 1)
    given = replay_with_pictures(fresh, at=set(searched))
    assert sorted(given) == sorted(searched)
    differ = [(k, diff(searched[k], given[k])) for k in sorted(searched) if searched[k] != given[k]]
    assert differ == []


# ---------------------------------------------------------------------------
# the hints' candidates: replays of the record with one line changed

def hinted(monkeypatch, record):
    """Replay ``record`` with the hints on: (the picture of the replay as the
    hints found it, the picture after them, the result)."""
    from railcheck.following import diagnose
    seen = {}
    par_hint = diagnose.par_hint

    def first_hint(replay, result, search=None):
        seen["before"] = picture(replay)
        return par_hint(replay, result, search)
    monkeypatch.setattr(diagnose, "par_hint", first_hint)
    rp = Replay(record)
    res = rp.run()
    return seen["before"], picture(rp), res


def resumed(log) -> list:
    """What ``RAILCHECK_CHECK_RESUME=log`` noted: each candidate a hint
    started from a kept state (``diagnose._Prefix``), replayed from the start
    too: ("same", explains, lines counted) or the difference."""
    return [line.split() if line.startswith("same ") else line
            for line in log.read_text(encoding="utf-8").splitlines()]


def test_a_hints_search_that_finds_nothing_changes_nothing(monkeypatch):
    # the certificate-limit example: every par before line 326 tried at
    # every other value (the errors there are a price's kind), none explains
    # the two errors: the game, its findings and the record's lines as they were
    from railcheck.loader import load_game
    record, _ = load_game(str(REPO / "examples" / "1830" / "illegal" / "cert-limit.18xx"))
    before, after, res = hinted(monkeypatch, record)
    assert [(f.line, f.rule) for f in res.errors] == [(326, "stock.cert_limit"), (326, "stock.cash")]
    assert diff(before, after) == []


def test_a_hint_taken_is_the_game_of_the_record_with_its_line_changed(monkeypatch, tmp_path):
    # the example game with Carol's par of NYC at $90 written as $67: the par
    # hint takes $90; its game is the game of the record with the line at $90
    # (a replay of its own, no hint), its findings those and the hint's, and
    # the search left the record's lines as they were; the candidates, started
    # from the states kept before their lines (``diagnose._Prefix``), end as
    # replayed from the start, with the same lines counted against the budget
    from railcheck.loader import load_game
    log = tmp_path / "resume.log"
    monkeypatch.setenv("RAILCHECK_CHECK_RESUME", str(log))
    lines = (REPO / "examples" / "1830" / "game.18xx").read_text(encoding="utf-8").splitlines()
    assert lines[203] == "Carol par NYC 90"
    right = tmp_path / "right.18xx"
    right.write_text("\n".join(lines) + "\n", encoding="utf-8")
    lines[203] = "Carol par NYC 67"
    typo = tmp_path / "typo.18xx"
    typo.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before, after, res = hinted(monkeypatch, load_game(str(typo))[0])
    assert [(f.line, f.rule) for f in res.errors] == [(204, "stock.par_implied")]
    assert after["actions"] == before["actions"]
    fresh = Replay(load_game(str(right))[0], hints=False)
    fresh_res = fresh.run()
    assert snapshot_diff(state_snapshot(res.game), state_snapshot(fresh.game)) == []
    assert [(f.line, f.rule, f.message) for f in res.findings if f.rule != "stock.par_implied"] \
        == [(f.line, f.rule, f.message) for f in fresh_res.findings]
    notes = resumed(log)
    assert all(isinstance(n, list) for n in notes), [n for n in notes if isinstance(n, str)]
    # (5 candidates, NYC's par at line 204 at each other value: the pars of
    # the company the first error names are searched first; two explain the
    # record, of which the one at $90 ends with the record's result; then
    # the dividend hint's 12, asked too (``diagnose.price_hints_judged``):
    # one dividend explains the record as well, and the par, ending with the
    # record's result, is taken)
    assert len(notes) == 17
    assert [n[1] for n in notes[:5]] == ["181"] * 5
    assert [n[1] for n in notes if n[2] == "True"] == ["181", "181", "272"]
