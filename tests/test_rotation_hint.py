"""A tile turned to a legal but wrong rotation, found from the record's later
lines (railcheck/following/diagnose.py, rule tile.rotation_implied; docs/one-mistake.md)."""

import sys

import pytest

from railcheck.following import diagnose
from railcheck.engine import Replay
from railcheck.loader import load_game

from conftest import REPO, hint_out_of_budget, plain_and_hinted
from conftest import error_findings as errors
from conftest import export_data_1830 as export_data
from conftest import import_changed as record_of
from conftest import net_worths as worths

sys.path.insert(0, str(REPO / "tools"))
import mutate_exports as M  # noqa: E402

EXAMPLE_END = {"Bob": 13048, "Carol": 12109, "Alice": 12025}


def turned(name, action_id, rotation):
    data = export_data(name)
    return data, record_of(M._with(data, action_id, {"rotation": rotation}))


def test_an_upgrade_that_needs_the_other_rotation_points_back_to_the_lay():
    # 26855 #477: NYC lays tile 7 on F12 at rotation 2; written at 1 the lay
    # is legal (nothing flagged there), and the first error comes 106 actions
    # later, when tile 26 upgrades F12 keeping the track of rotation 2
    data, record = turned("26855", 477, 1)
    a = next(a for a in data["actions"] if a.get("id") == 477)
    assert (a["entity"], a["hex"], a["tile"], a["rotation"]) == ("NYC", "F12", "7-2", 2)

    plain, res = plain_and_hinted(record)
    assert [(f.action_id, f.rule) for f in errors(plain)] == [(583, "tile.upgrade")]

    assert [(f.action_id, f.rule) for f in errors(res)] == [(477, "tile.rotation_implied")]
    assert errors(res)[0].message == (
        "NYC lays tile 7 on F12 turned 1, but the record's later lines go on as if turned 2 "
        "(turned 1: #583, tile 26 rotation 3 on F12 leaves edge 1 of the existing track "
        "unconnected; the tile fits turned to r2: taken as laid so — the first finding the "
        "written rotation gives): taken as turned 2")
    unchanged = Replay(record_of(data)).run()
    assert errors(unchanged) == []
    assert worths(res) == worths(unchanged) == \
        {"Player 4": 2212, "Player 2": 2127, "Player 1": 1831, "Player 3": 310}


@pytest.mark.parametrize("name,action_id,rotation,plain_errors,first,was", [
    # (a run through the hex; 37 errors plain since NYNH's upgrade of E19 at
    # #399, reached only through B&M's full E23 once F18 is turned, is taken
    # as laid as the record's later lines go on from it: 40 before)
    ("26855", 294, 5, 37, (296, "route.connection"), 3),
    ("26855", 445, 1, 10, (453, "tile.connection"), 4),        # a lay next to it
    ("29133", 177, 2, 15, (231, "tile.connection"), 0),        # a lay two hexes away
    ("rl18xx_game", 855, 1, 12, (856, "route.connection"), 0),
    ("rl18xx_game", 1038, 5, 13, (1046, "tile.connection"), 4),
])
def test_the_harness_wrong_rotations_are_found_at_their_lay(name, action_id, rotation,
                                                             plain_errors, first, was):
    data, record = turned(name, action_id, rotation)
    rep = Replay(record, hints=False)
    plain = rep.run()
    assert len(errors(plain)) == plain_errors
    assert (errors(plain)[0].action_id, errors(plain)[0].rule) == first
    search = diagnose.Search()
    res = diagnose.rotation_hint(rep, plain, search)
    assert [(record.actions[i].action_id, r) for i, r in search.explaining] == \
        [(action_id, was)]
    assert not search.out_of_budget and search.replayed <= search.budget
    assert [(f.action_id, f.rule) for f in errors(res)] == [(action_id, "tile.rotation_implied")]
    assert f"turned {rotation}, but" in errors(res)[0].message
    assert errors(res)[0].message.endswith(f"taken as turned {was}")
    assert f"#{first[0]}, " in errors(res)[0].message
    assert worths(res) == worths(Replay(record_of(data)).run())


def turned_line(tmp_path, index, old, new):
    lines = (REPO / "examples" / "1830" / "game.18xx").read_text(encoding="utf-8").splitlines()
    assert lines[index] == old
    lines[index] = new
    path = tmp_path / "turned.18xx"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    record, read = load_game(str(path))
    assert [f for f in read if f.severity == "error"] == []
    return record


def test_a_notation_lay_a_later_run_needs_turned_otherwise(tmp_path):
    # ERIE's OO tile 59 on D10 written r5 for r3: a legal lay, but ERIE's
    # runs E11.0-D10.1 (lines 291, 354) need the track of r3
    record = turned_line(tmp_path, 288, "ERIE lay 59 D10 r3", "ERIE lay 59 D10 r5")
    plain, res = plain_and_hinted(record)
    assert [(f.line, f.rule) for f in errors(plain)] == \
        [(291, "route.no_path"), (354, "route.no_path")]

    assert [(f.line, f.column, f.rule) for f in errors(res)] == \
        [(289, 1, "tile.rotation_implied")]
    assert errors(res)[0].message == (
        "ERIE lays tile 59 on D10 turned 5, but the record's later lines go on as if turned 3 "
        "(turned 5: line 291, train 4: no track joins E11 city 0 and D10 city 1 without passing "
        "another stop — the first finding the written rotation gives): taken as turned 3")
    assert worths(res) == EXAMPLE_END


def test_a_notation_lay_a_later_upgrade_needs_turned_otherwise(tmp_path):
    # PRR's tile 14 on H16 written r1 for r0: the first error is PRR's lay of
    # tile 1 on G17 (line 186), which the track of r0 reaches
    record = turned_line(tmp_path, 166, "PRR lay 14 H16 r0", "PRR lay 14 H16 r1")
    plain, res = plain_and_hinted(record)
    assert len(errors(plain)) == 23     # (24 before readings tied over 40 lines were judged again)
    assert (errors(plain)[0].line, errors(plain)[0].rule) == (186, "tile.connection")
    assert [(f.line, f.column, f.rule) for f in errors(res)] == \
        [(167, 1, "tile.rotation_implied")]
    assert errors(res)[0].message.endswith("taken as turned 0")
    assert worths(res) == EXAMPLE_END


def test_a_slip_far_from_the_first_error_gives_no_hint(tmp_path):
    # NYNH's tile 15 on E19 written r2 for r5: the first error is NYC's lay on
    # G15 (line 481), more than two hexes from E19: E19 is not searched, no
    # other lay explains the record, and the findings stay as they were
    record = turned_line(tmp_path, 113, "NYNH lay 15 E19 r5", "NYNH lay 15 E19 r2")
    rep = Replay(record, hints=False)
    plain = rep.run()
    assert len(errors(plain)) == 10
    assert (errors(plain)[0].line, errors(plain)[0].rule) == (481, "tile.connection")
    search = diagnose.Search()
    assert diagnose.rotation_hint(rep, plain, search) is plain
    assert search.candidates == 24 and search.explaining == []
    res = Replay(record).run()
    assert [(f.line, f.rule) for f in errors(res)] == [(f.line, f.rule) for f in errors(plain)]


def test_out_of_budget_gives_no_hint(monkeypatch):
    _, record = turned("26855", 477, 1)
    res = hint_out_of_budget(monkeypatch, record, diagnose.rotation_hint)
    assert [(f.action_id, f.rule) for f in errors(res)] == [(583, "tile.upgrade")]


def test_a_legal_game_is_never_searched(monkeypatch):
    def boom(*a, **k):
        raise AssertionError("rotation_hint asked about a legal game")
    monkeypatch.setattr(diagnose, "rotation_hint", boom)
    res = Replay(record_of(export_data("26855"))).run()
    assert errors(res) == []
    record, _ = load_game(str(REPO / "examples" / "1830" / "game.18xx"))
    res = Replay(record).run()
    assert errors(res) == []
    assert worths(res) == EXAMPLE_END


def test_no_hints_keeps_the_original_findings(monkeypatch):
    _, record = turned("26855", 477, 1)
    monkeypatch.setenv("RAILCHECK_NO_HINTS", "1")
    res = Replay(record).run()
    assert [(f.action_id, f.rule) for f in errors(res)] == [(583, "tile.upgrade")]


def test_the_par_and_the_rotation_hint_look_at_different_first_errors():
    # so at most one of them searches a given report (docs/one-mistake.md)
    assert not diagnose.CAUSED_BY_PRICE & diagnose.CAUSED_BY_ROTATION
    assert not any(r.startswith(diagnose.CAUSED_BY_PRICE_PREFIXES)
                   for r in diagnose.CAUSED_BY_ROTATION)

    from railcheck.findings import Finding

    class R:
        findings = [Finding(severity="error", rule="turn.order", message="x", action_id=5)]
    assert diagnose.rotation_applies(R()) is None
    R.findings = [Finding(severity="error", rule="route.connection", message="x", action_id=5)]
    assert diagnose.rotation_applies(R()) is R.findings[0]
    assert diagnose.applies(R()) is None
