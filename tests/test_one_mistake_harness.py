"""tools/one_mistake.py: the changes it makes and what it counts (the
harness of issue #27; its figures are in docs/one-mistake.md)."""

import sys

from conftest import REPO

sys.path.insert(0, str(REPO / "tools"))
import one_mistake as OM  # noqa: E402

DATA = {"title": "1830", "players": [{"id": 1}, {"id": 2}], "actions": [
    {"id": 1, "type": "bid", "entity": 1, "entity_type": "player", "price": 25},
    {"id": 2, "type": "pass", "entity": 2, "entity_type": "player"},
    {"id": 3, "type": "undo", "entity": 2, "entity_type": "player", "action_id": 2},
    {"id": 4, "type": "pass", "entity": 2, "entity_type": "player"},
]}


def test_a_duplicated_action_shifts_the_later_ids_and_undo_targets():
    out = OM.changed_export(DATA, 1, "duplicate")
    assert [(a["id"], a["type"]) for a in out["actions"]] == \
        [(1, "bid"), (2, "bid"), (3, "pass"), (4, "undo"), (5, "pass")]
    assert out["actions"][3]["action_id"] == 3
    assert DATA["actions"][1]["id"] == 2        # the game itself unchanged


def test_a_deleted_and_an_edited_action():
    assert [a["id"] for a in OM.changed_export(DATA, 4, "delete")["actions"]] == [1, 2, 3]
    out = OM.changed_export(DATA, 1, {"price": 20})
    assert out["actions"][0]["price"] == 20 and DATA["actions"][0]["price"] == 25
    assert OM.digest(out) != OM.digest(DATA)


def test_the_goal_is_one_or_two_errors_the_first_in_the_window():
    def o(errors, in_window=True, early=False):
        return {"errors": errors, "in_window": in_window, "early": early}
    assert OM.meets(o(1)) and OM.meets(o(2))
    assert not OM.meets(o(0)) and not OM.meets(o(3))
    assert not OM.meets(o(1, in_window=False)) and not OM.meets(o(1, early=True))


def test_the_table_line_counts_mistakes_apart_from_legal_changes():
    rows = [{"errors": e, "legal": False, "in_window": True, "early": False,
             "at_change": True} for e in (1, 1, 2, 5)]
    rows.append({"errors": 3, "legal": True, "in_window": False, "early": False,
                 "at_change": False, "action_id": 40, "first": [41, "stock.cert_limit", ""]})
    # a rotation the engine takes only because loading an export skips it
    rows.append({"errors": 1, "legal": True, "in_window": True, "early": False,
                 "at_change": True, "action_id": 60, "first": [60, "tile.rotation", ""]})
    line = OM.line(rows)
    assert "n=   4" in line and "goal=   3 ( 75.0%)" in line and "p90=   5" in line
    assert "legal=  2 (flagged 2, 1 by checks of play)" in line


def test_a_deleted_pass_is_legal_whatever_the_engine_says():
    # no rule makes a player or a company write "pass": the deletion is no
    # mistake, and a finding railcheck gives it counts as flagged
    deleted_pass = {"change": "delete", "type": "pass", "what": "pass by 2 deleted"}
    deleted_bid = {"change": "delete", "type": "bid", "what": "bid by 1 deleted"}
    edited_pass = {"change": "edit", "type": "pass", "what": "pass by 1 instead of 2"}
    assert OM.unwritten(deleted_pass)
    assert not OM.unwritten(deleted_bid) and not OM.unwritten(edited_pass)
    # an outcome record of an older run (no "type") is judged by its text
    assert OM.unwritten({"kind": "deleted", "what": "pass by B&O deleted"})


def test_a_companys_deleted_step_the_engine_waits_for_is_judged_as_its_pass(monkeypatch):
    # 1860_rand_52000044_0 with IOW's second lay (#177) deleted: the engine
    # refuses #178's run only because its interface waits for the lay step;
    # the step is IOW's to pass, so the deletion is asked again as IOW's pass
    waiting = {"refused": 178, "error": "Blocking step Lay Track cannot process action "
                                        "run_routes at 177", "finished": False}
    lay = {"change": "delete", "kind": "deleted", "type": "lay_tile",
           "entity_type": "corporation", "action_id": 177, "what": "lay_tile by IOW deleted"}
    sale = dict(lay, type="sell_shares", entity_type="player", what="sell_shares by 103 deleted")
    assert OM.passed_over(lay, waiting)
    assert not OM.passed_over(sale, waiting)        # a player's pass ends his stock turn
    assert not OM.passed_over(lay, {"refused": 178, "error": "Cannot lay tile"})
    assert not OM.passed_over(dict(lay, type="pass", what="pass by IOW deleted"), waiting)
    data = {"title": "1860", "actions": [
        {"id": 177, "type": "lay_tile", "entity": "IOW", "entity_type": "corporation",
         "hex": "H2", "tile": "8-2", "rotation": 5, "created_at": 10},
        {"id": 178, "type": "run_routes", "entity": "IOW", "entity_type": "corporation"}]}
    out = OM.passed_instead(data, 177)
    assert out["actions"][0] == {"id": 177, "type": "pass", "entity": "IOW",
                                 "entity_type": "corporation", "created_at": 10}
    assert data["actions"][0]["type"] == "lay_tile"     # the game itself unchanged
    # judged by the pass's verdict: taken, the deletion is legal; refused at
    # a later line, that line is where the record first needs what was deleted
    g = OM.Game.__new__(OM.Game)
    g.baseline, g.order, g.end = set(), {177: 0, 178: 1, 200: 2}, {}
    m = dict(lay, title="1860", set="new", game="x", digest="d", data=None)
    monkeypatch.setattr(OM, "report", lambda data, name: ([], None))   # (no replay)
    assert OM.outcome(g, dict(m, passed={"refused": None}), waiting)["legal"]
    later = OM.outcome(g, dict(m, passed={"refused": 200}), waiting)
    assert not later["legal"] and later["oracle"] == "later"
    # a pass the engine refuses itself (a dividend, a forced purchase): the
    # first verdict stands
    assert OM.outcome(g, dict(m, passed={"refused": 177}), waiting)["oracle"] == "later"


def test_every_title_with_kinds_is_one_the_engine_is_told_to_load():
    # 1889's verdicts were all "refused at #1" (the engine was not told to
    # load g_1889), so every change of an 1889 game read as a mistake
    assert set(OM.TITLE_KINDS) == set(OM.ORACLE_GAMES) >= {"1830", "1860", "18Ireland", "1889"}
    assert OM.TITLE_KINDS["1889"] == OM.COMMON


def test_an_1889_game_is_changed_by_the_common_kinds():
    path = REPO / "tests/data/exports/1889/hs_jmmljkbw_17502.json"
    g = OM.Game(path, "shared")
    OM.rules_facts(g.title)
    g.observe()
    muts = OM.sample(g, OM.TITLE_KINDS["1889"], 1, 0)
    got = {m["kind"]: (m["action_id"], m["what"]) for m in muts}
    # a short game (50 actions: the auction and the first stock rounds)
    assert got["wrong_par"] == (15, "par TR 90 instead of 65")
    assert got["wrong_bid"] == (2, "bid 50 on SMR (was 55)")
    assert got["sell_not_owned"] == (31, "sells TR_6 (holds no TR)")
    assert set(got) == {"wrong_actor", "wrong_par", "wrong_bid", "deleted", "duplicated",
                        "sell_not_owned"}
    assert all(m["title"] == "1889" for m in muts)
