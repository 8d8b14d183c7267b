"""Private powers used outside their window (``special.<power>.window``,
railcheck/schema.py WINDOWS): each window railcheck honours besides the
default, on a real export with one action moved out of it."""

import json

from railcheck.engine import Replay
from railcheck.findings import ERROR
from railcheck.importer import import_export
from railcheck.ruleset import load_ruleset

from conftest import DATA


def replay_moved(path, action_id: int, after_id: int):
    """The export with action ``action_id`` moved to just after ``after_id``:
    the replay's findings."""
    data = json.loads(path.read_text(encoding="utf-8"))
    acts = data["actions"]
    moved = next(a for a in acts if a["id"] == action_id)
    acts.remove(moved)
    k = next(i for i, a in enumerate(acts) if a["id"] == after_id)
    acts.insert(k + 1, moved)
    record, read = import_export(json.dumps(data), path.name)
    return list(read) + list(Replay(record).run().findings)


def test_windows_of_the_titles():
    ireland = {c.sym: c.special for c in load_ruleset("18Ireland").companies if c.special}
    assert {s: sp["tile_lay"]["window"] for s, sp in ireland.items() if "tile_lay" in sp} == {
        "DR": "track_step", "BoW": "track_step", "TDR": "track_step", "TIM": "track_step",
        "DCR": "owning_company_turn"}
    g1860 = {c.sym: c.special for c in load_ruleset("1860").companies if c.special}
    assert {s: sp["exchange"]["window"] for s, sp in g1860.items() if "exchange" in sp} == {
        "BHC": "stock_round", "YHC": "stock_round", "CMH": "stock_round", "RPSC": "stock_round"}
    cs = next(c for c in load_ruleset("1830").companies if c.sym == "CS")
    assert cs.special["tile_lay"]["window"] == "owning_company_turn"


def test_18ireland_board_of_works_lay_after_the_run_is_outside_its_window():
    # KJR laid BoW's second tile (D16, #403) in its track step, then ran (#404);
    # moved after the run, the lay is outside BoW's window (track_step): one
    # finding, and the tile is laid as the record says (the later runs over
    # D16 are the site's)
    findings = replay_moved(DATA / "exports" / "18Ireland" /
                            "18Ireland_game_end_stock_market.json", 403, 404)
    errors = [f for f in findings if f.severity == ERROR]
    assert [(f.action_id, f.rule) for f in errors] == [(403, "private.window")]
    assert errors[0].message == (
        "BoW's tile lay may be used only while KJR lays track; its turn is past that "
        "(the dividend); taken as laid, as the record says")
    assert not [f for f in findings if f.rule == "score.site_differs"]


def test_18ireland_lay_in_the_track_step_is_accepted():
    # the same game as played: no error
    path = DATA / "exports" / "18Ireland" / "18Ireland_game_end_stock_market.json"
    record, read = import_export(path.read_text(encoding="utf-8"), path.name)
    assert [f for f in Replay(record).run().findings if f.severity == ERROR] == []


def test_1860_exchange_in_an_operating_round_is_outside_its_window():
    # RPSC was exchanged for an IOW share at the end of a stock round (#313);
    # moved after C&N's first lay of the next operating round (#315) it is
    # outside RPSC's window (stock_round): one finding, the exchange is made
    # as the record says; RPSC, open a little longer, paid its 30 to Player 2
    findings = replay_moved(DATA / "exports" / "1860" / "1860_game_end_stock_market.json",
                            313, 315)
    errors = [f for f in findings if f.severity == ERROR]
    assert [(f.action_id, f.rule) for f in errors] == [(313, "private.window")]
    assert errors[0].message == ("RPSC may be exchanged for a IOW share only in a stock round, "
                                 "not in OR 10.1; taken as exchanged, as the record says")
    differs = [f.message for f in findings if f.rule == "score.site_differs"]
    assert differs == ["Player 2's net worth is £16195; the site recorded £16165"]
