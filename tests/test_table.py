"""At the table (issue 28): the replay with snapshots, ``railcheck next``'s
numbers, ``railcheck watch`` and the language server's checking (without
the protocol: tests/test_table_lsp.py drives it with a real client)."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace
from pathlib import Path

from click.testing import CliRunner

from railcheck.cli import main
from railcheck.engine import Replay
from railcheck.loader import load_game
from railcheck.table.commands import paused_at
from railcheck.table.incremental import Checker
from railcheck.table.nextmove import next_moves

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DATA = HERE / "data"
GAME_1830 = REPO / "examples" / "1830" / "game.18xx"
EXPORT_1860 = HERE / "data" / "exports" / "1860" / "19354.json"


def _full(record):
    """A replay from the start (of copies: the replay writes on some actions,
    such as a purchase's source)."""
    return Replay(replace(record, actions=copy.deepcopy(record.actions)), hints=False).run()


def _sig(result) -> list:
    return [(f.rule, f.line, f.column, f.action_id, f.message) for f in result.findings]


def test_snapshots_give_the_findings_of_a_replay_from_the_start():
    record, _ = load_game(str(GAME_1830))
    ck = Checker(every=24)
    assert _sig(ck.check(record)) == _sig(_full(record))
    n = len(record.actions)
    rng = random.Random(28)
    for k in [n - 3, n - 15, 300] + [rng.randrange(n) for _ in range(2)]:
        acts = list(record.actions)
        del acts[k]             # an edit: a line taken out
        edited = replace(record, actions=acts)
        got = ck.check(edited)
        assert _sig(got) == _sig(_full(edited)), k
        # re-checked from a snapshot before the edit, not from the start
        assert 0 < ck.resumed_from <= k
        # (the nearest snapshot the edit leaves valid: one whose replay had
        # read ahead past the edit is not)
        assert k - ck.resumed_from <= 48


def test_next_in_an_1830_stock_round():
    _, _, rp, where = paused_at(str(GAME_1830), "SR 2")
    nm = next_moves(rp)
    assert (nm.situation.round, nm.situation.actor) == ("SR 2", "Bob")
    assert nm.facts == {"cash": 70, "certificates": 7, "certificate_limit": 20}
    assert [o.text for o in nm.legal] == [
        "Bob pass", "Bob sell 1 PRR", "Bob sell 2 PRR", "Bob sell 3 PRR", "Bob sell 4 PRR",
        "Bob buy private SV from Carol for 0", "Bob buy private CS from Alice for 0",
        "Bob buy private MH from Carol for 0"]
    sells = {o.info["count"]: (-o.info["cost"], o.info["price_after"])
             for o in nm.legal if o.kind == "sell"}
    # PRR at 90: each share sold brings 90 and moves the price down a row
    assert sells == {1: (90, 82), 2: (180, 76), 3: (270, 71), 4: (360, 67)}
    refused = {(o.kind, o.action.corporation): o.rule for o in nm.options if not o.legal}
    assert refused[("buy", "PRR")] == "stock.holding_limit"     # Bob holds 60%
    assert refused[("buy", "B&O")] == "stock.cash"              # $70 for a $100 share
    private = next(o for o in nm.legal if o.kind == "buy private")
    assert (private.info["price_min"], private.info["price_max"]) == (0, 70)


def test_next_in_an_1860_operating_round():
    _, _, rp, _ = paused_at(str(EXPORT_1860), "OR 2.1")
    nm = next_moves(rp)
    assert (nm.situation.actor, nm.situation.step) == ("C&N", "laying track")
    assert nm.facts["treasury"] == 500 and nm.facts["lays_allowed"] == 2
    assert [o.text for o in nm.legal] == [
        "C&N pass", "C&N lay 744 H4 r2", "C&N lay 744 H4 r5", "C&N lay 745 H4 r0",
        "C&N lay 745 H4 r2", "C&N token G5",
        # 1860's own search of the best runs (titles/g1860/best.py); not
        # running, it withholds (O4b: a payout with no run is route.missing)
        "C&N run 2+1 F2.0-F2.1-F2.2-F4-G5 (60) = 60", "C&N withhold",
        "C&N buy train 2+1 from depot for 250", "C&N buy train 2+1 from IOW for 10"]
    token = next(o for o in nm.legal if o.kind == "token")
    assert token.info["cost"] == 40
    from_iow = next(o for o in nm.legal if o.kind == "train" and o.info["source"] == "IOW")
    # between companies: a multiple of £10 from £10 up to the treasury (£1 is refused)
    assert (from_iow.info["price_min"], from_iow.info["price_max"],
            from_iow.info["price_step"]) == (10, 500, 10)


def test_next_best_run_and_payout_in_1830():
    # OR 9.1 of the complete example: B&M's best run found, checked, and paid out
    record, _ = load_game(str(GAME_1830))
    rp = Checker().paused(record, 600)
    nm = next_moves(rp)
    assert (nm.situation.round, nm.situation.actor) == ("OR 9.1", "B&M")
    run = next(o for o in nm.legal if o.kind == "run")
    assert run.info["revenue"] == run.action.revenue == 190
    assert run.info["runs"] == [{"train": "5", "stops": ["E23", "F24", "F22", "F20.0", "G19.1"]}]
    pay = run.info["payout"]
    assert pay == {"to_holders": {"Alice": 57, "Bob": 114}, "treasury_after": 80,
                   "price_after": 250}
    corp = rp.game.corporations["B&M"]
    for name, gain in pay["to_holders"].items():
        assert gain == 190 * corp.percent_of(rp.game.player_by_name[name]) // 100


def test_next_json_and_text_on_the_command_line():
    runner = CliRunner()
    res = runner.invoke(main, ["next", str(GAME_1830), "--at", "SR 2", "--format", "json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["actor"] == "Bob" and data["round"] == "SR 2"
    assert "Bob sell 4 PRR" in data["legal_actions"]
    res = runner.invoke(main, ["next", str(GAME_1830), "--at", "SR 2"])
    assert res.exit_code == 0
    assert "PRR: 2 shares (20%) for $180, price after $76   [Bob sell 2 PRR]" in res.output
    res = runner.invoke(main, ["next", str(GAME_1830)])
    assert "the game is over" in res.output


def test_watch_reports_new_and_gone_findings(tmp_path):
    from railcheck.table.watch import Watched
    src = (REPO / "examples" / "1830" / "illegal" / "out-of-turn.18xx").read_text()
    path = tmp_path / "table.18xx"
    path.write_text(src)
    w = Watched(str(path))
    first = w.check()
    # Bob took the turn out of order: Carol is next
    assert "22 actions, SR 1; Carol to act — 1 error, 1 new" in first[0]
    assert first[1].endswith("error [turn.order] Bob acted out of turn: it is Alice's turn "
                             "in SR 1")
    path.write_text(src.replace("Bob par PRR 100", "Alice par PRR 100"))
    again = w.check()
    assert "SR 1; Bob to act — 0 errors, 1 gone" in again[0]
    assert len(again) == 1


def test_language_server_checks_what_is_not_yet_a_game():
    from railcheck.table.lsp import Documents
    docs = Documents()
    uri = "file:///tmp/new.18xx"
    # a header with no players yet: a diagnostic, not a crash
    got = docs.update(uri, "title: 1830\n")
    assert [(d.line, d.rule, d.message) for d in got] == [
        (0, "input", "missing header line 'players:' (like 'players: Alice, Bob, Carol')")]
    # lines that cannot be read yet: each its diagnostic, where it is
    text = "title: 1830\nplayers: Alice, Bob, Carol\n\nauction\nAlice bid CA\nBob bid XX 30\n"
    got = docs.update(uri, text)
    assert [(d.line, d.column, d.severity, d.rule) for d in got] == [
        (4, 12, "error", "notation.syntax"), (5, 8, "error", "notation.unknown_name")]
    assert got[0].message == "expected a price after 'CA', but the line ends"
    assert docs.hover(uri, 3).startswith("**auction**, phase 2: Alice to act")
    assert "| Carol | $800 |" in docs.hover(uri, 3)


def test_language_server_ends_cleanly():
    """The editor's initialize, shutdown and exit: the server ends with exit 0
    and nothing on standard error (its output is closed by then: the
    command's last flush must not fail on it)."""
    import subprocess
    import sys
    import pytest
    pytest.importorskip("pygls")

    def frame(obj) -> bytes:
        body = json.dumps(obj).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body
    messages = b"".join(frame(m) for m in [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": None, "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None},
        {"jsonrpc": "2.0", "method": "exit", "params": None}])
    done = subprocess.run([sys.executable, "-m", "railcheck", "lsp"], input=messages,
                          capture_output=True, timeout=60)
    assert done.stderr.decode() == ""
    assert done.returncode == 0
    assert b'"id": 2' in done.stdout or b'"id":2' in done.stdout


def test_watch_rechecks_a_saved_record(tmp_path):
    """The watch loop itself (watchfiles): a record saved in a watched folder
    is re-checked and its new finding printed."""
    import threading
    import time
    import pytest
    pytest.importorskip("watchfiles")
    from railcheck.table.watch import watch
    src = (REPO / "examples" / "1830" / "illegal" / "out-of-turn.18xx").read_text()
    fixed = src.replace("Bob par PRR 100", "Alice par PRR 100")
    path = tmp_path / "table.18xx"
    path.write_text(fixed)
    out: list = []
    stop = threading.Event()
    thread = threading.Thread(target=watch, args=([str(tmp_path)], out.append, stop),
                              kwargs={"debounce_ms": 50}, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not any(line.startswith("watching") for line in out) and time.time() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    path.write_text(src)        # saved with Bob's par out of turn
    while len(out) < 4 and time.time() < deadline:
        time.sleep(0.05)
    stop.set()
    thread.join(5)
    assert "SR 1; Bob to act — 0 errors" in out[0]
    assert any("1 error, 1 new" in line for line in out[2:])
    assert any(line.endswith("error [turn.order] Bob acted out of turn: it is Alice's turn "
                             "in SR 1") for line in out[2:])


def test_train_price_ranges_by_the_pure_check_equal_the_trials_ranges():
    """A train from another company: its price range is searched with the
    step's pure check and only its ends tried on the replay; the ranges are
    those of a search that tries every price on the replay, with a quarter of
    the trials in 1830 (two thirds in 1860) (1830: any price from 1; 1860: multiples of 10)."""
    from railcheck.table import nextmove
    cases = [(DATA / "random" / "1830" / "1830_rand_18305_4.json", 509, "PRR",
              ("CPR", "6", 1, 211), 21, 81),
             (DATA / "exports" / "1860_random" / "1860_rand_18602_0.json.gz", 122, "FYN",
              ("C&N", "2+1", 10, 290), 19, 28)]
    for path, count, actor, first, trials, all_trials in cases:
        record, _ = load_game(str(path))
        rp = Checker(every=None).paused(record, count)
        nm = nextmove.next_moves(rp, run_limit=0.1)
        ranges = [(o.text, o.info) for o in nm.options if o.kind == "train"]
        assert nm.situation.actor == actor
        got = [(o.info["source"], o.info["train"], o.info["price_min"], o.info["price_max"])
               for o in nm.options if o.kind == "train" and "price_min" in o.info]
        assert got[0] == first
        plain = nextmove._train_price_range
        try:
            nextmove._train_price_range = \
                lambda j, at, first, top, *rest: nextmove._unit_price_range(at, top)
            every = nextmove.next_moves(rp, run_limit=0.1)
        finally:
            nextmove._train_price_range = plain
        assert [(o.text, o.info) for o in every.options if o.kind == "train"] == ranges
        assert (nm.trials, every.trials) == (trials, all_trials)


def test_next_offers_1860_s_best_runs_from_its_own_search():
    """1860's runs follow its own rules (n+m trains, halts): next offers the
    best set its own search finds (titles/g1860/best.py), as the record's next
    action the replay takes, with what a payout gives each holder."""
    game = REPO / "examples" / "1860" / "game.18xx"
    _, _, rp, _ = paused_at(str(game), "109")        # OR 2.1: C&N to run its two 2+1s
    nm = next_moves(rp, run_limit=0.5)
    (run,) = [o for o in nm.legal if o.kind == "run"]
    assert run.text == "C&N run 2+1 F2.0-F2.1-F2.2-F4-G5 (60) = 60"
    assert run.info["revenue"] == 60
    assert run.info["payout"]["to_holders"] == {"Alice": 30, "Bob": 30}
    _, _, rp, _ = paused_at(str(game), "114")        # IOW's turn
    nm = next_moves(rp, run_limit=0.5)
    (run,) = [o for o in nm.legal if o.kind == "run"]
    assert run.text == "IOW run 2+1 I3-J4 (50), 2+1 J4-J6 (30) = 80"
    assert run.info["payout"]["to_holders"] == {"Alice": 16, "Bob": 32}
    assert not any("no run search" in n for n in nm.notes)


def _lays_on(nm, hex_):
    return sorted((o.action.tile, o.action.rotation) for o in nm.legal
                  if o.kind == "lay" and o.action.hex == hex_)


def _trial(rp, action):
    from railcheck.table.adapter import Trials
    return Trials(rp).judge([action])


def test_next_judges_each_rotation_of_a_semi_restrictive_upgrade():
    # 1860's track is semi-restrictive: an upgrade's new track is judged once the
    # tile lies, so another rotation of a tile taken is no verdict of its own.
    # At #659 of random 1860_rand_18604_3, IWNJ's 18 on H6 turned to r4 adds no
    # usable track (tile.no_new_track): not offered, and the replay refuses it
    _, _, rp, _ = paused_at(str(DATA / "exports" / "1860_random" / "1860_rand_18604_3.json.gz"),
                            "659")
    nm = next_moves(rp)
    assert nm.situation.actor == "IWNJ"
    h6 = _lays_on(nm, "H6")
    assert ("18", 4) not in h6 and h6
    from railcheck.actions import LayTile
    verdict = _trial(rp, LayTile(actor="IWNJ", tile="18", hex="H6", rotation=4))
    assert (verdict.ok, verdict.rule) == (False, "tile.no_new_track")
    assert all(_trial(rp, o.action).ok for o in nm.legal if o.kind == "lay"
               and o.action.hex == "H6")


def test_next_refuses_a_lay_the_title_takes_as_laid_and_flags():
    # 1860 (O3d): 769 on F4 turned to r5 joins NGStL's network only through a
    # city others' stations fill; the step takes such a lay as laid and flags it
    # (track.blocked_connection), so next does not offer it; r3 is legal
    _, _, rp, _ = paused_at(str(DATA / "exports" / "1860" / "1860_game_end_bank.json"), "450")
    nm = next_moves(rp)
    assert _lays_on(nm, "F4") == [("768", 2), ("769", 3)]
    refused = [o for o in nm.refused if o.kind == "lay" and o.action.hex == "F4"
               and (o.action.tile, o.action.rotation) == ("769", 5)]
    assert refused and refused[0].rule in ("tile.connection", "track.blocked_connection")
    # 18Ireland: a lay off the company's network is refused by the step's pure
    # check (taken as laid and flagged, tile.connection), not by a trial each:
    # at #600 of 161830, DSER's 43 legal actions from 119 trials (835 before)
    _, _, rp, _ = paused_at(str(DATA / "exports" / "18Ireland" / "161830.json"), "600")
    nm = next_moves(rp)
    assert (nm.situation.actor, len(nm.legal), nm.trials) == ("DSER", 43, 119)
    assert any(o.rule == "tile.connection" for o in nm.refused if o.kind == "lay")


def test_next_offers_each_tile_in_its_own_rotations_whatever_tile_was_freed_before():
    # the flaky 45 legal actions for 43 (18Ireland's #600 above, and
    # test_table_next's 1830_rand_18305_5 once): next kept each tile's
    # distinct rotations in a table keyed by id(tile); a board cache cleared
    # (more than 16 boards parsed in one test process) freed tiles, and a new
    # tile made at a freed one's address read its rotations (a curve offered
    # in a straight's 3, a straight in a curve's 6: duplicates offered)
    from types import SimpleNamespace
    from railcheck.board.tiles import Content
    from railcheck.table.nextmove import _tiles_for_hex
    hex_ = SimpleNamespace(color="white", tile=SimpleNamespace(label=None))
    for k in range(50):
        paths = ((0, 3),) if k % 2 else ((0, 1),)    # a straight, a curve
        tile = Content(name="t", color="yellow", paths=paths)
        board = SimpleNamespace(hexes={"A1": hex_}, color_order=("white", "yellow"),
                                tiles={"t": tile}, remaining={})
        got = _tiles_for_hex(SimpleNamespace(board=board), "A1")
        assert got == ([("t", 0), ("t", 1), ("t", 2)] if k % 2 else
                       [("t", r) for r in range(6)])
        del tile, board
