"""1860's runs and track rules on the map (railcheck/titles/g1860/runs.py,
steps.Track1860, the board's fixed-rotation tiles).

The notation cannot write 1860's runs yet (a run inside a hex, "F2 0.1", and
the halts counted have no notation), so the illegal examples are corpus
exports cut after one action that is then changed: BOARD_ILLEGAL names the
game, the action, the change, and the finding expected at exactly that
action (rule id and the numbers of its message)."""

import copy
import gzip
import json

import pytest

from railcheck.engine import Replay
from railcheck.importer import import_export
from railcheck.titles.g1860.runs import Run, check_network

from conftest import DATA


def export(name: str) -> dict:
    real = DATA / "exports" / "1860" / f"{name}.json"
    if real.exists():
        return json.loads(real.read_text(encoding="utf-8"))
    with gzip.open(DATA / "exports" / "1860_random" / f"{name}.json.gz", "rt",
                   encoding="utf-8") as fh:
        return json.load(fh)


def replay_changed(name: str, last: int, change=None, drop_options=()):
    """Replay ``name`` up to action ``last`` after ``change(action)``."""
    data = copy.deepcopy(export(name))
    data["actions"] = [a for a in data["actions"] if a["id"] <= last]
    data.pop("result", None)
    settings = data.setdefault("settings", {})
    settings["optional_rules"] = [o for o in settings.get("optional_rules") or []
                                  if o not in drop_options]
    if change is not None:
        change(next(a for a in data["actions"] if a["id"] == last))
    record, read = import_export(json.dumps(data), name)
    assert read == []
    return Replay(record).run()


def _route(i, **values):
    def change(action):
        action["routes"][i].update(values)
    return change


def _only(*keep):
    def change(action):
        action["routes"] = [action["routes"][i] for i in keep]
    return change


def _prepend(i, *connections):
    def change(action):
        action["routes"][i]["connections"] = [list(c) for c in connections] + \
            action["routes"][i]["connections"]
    return change


def _lay(**values):
    def change(action):
        action.update(values)
    return change


#: name -> (game, action id, change, options dropped, rule, words of the message)
BOARD_ILLEGAL = {
    # IOW's 3+2 run F2-...-J4 (#112) is worth 110 and earns a subsidy of 20
    "board-revenue": ("1860_game_end_bank", 112, _route(2, revenue=120), (),
                      "route.revenue", "is worth £110, not the £120 claimed"),
    "board-subsidy": ("1860_game_end_bank", 112, _route(2, subsidy=30), (),
                      "route.subsidy", "earns a halt subsidy of £20, not the £30 claimed"),
    # a 2+1 counts two cities: Ryde Pier, Ryde Esplanade and Ryde are three
    "board-distance": ("1860_game_end_bank", 112,
                       _route(0, connections=[["J4", "I3"], ["I3", "J2"]]), (),
                       "route.distance", "(J4-I3-J2) visits 3 cities or off-board areas but may "
                                         "count only 2"),
    "board-halt-end": ("1860_game_end_bank", 112,
                       _route(2, connections=[["F2 0.1"], ["F2 1.2"]]), (),
                       "route.halt_end", "(F2 city 0-F2 town 0-F2 halt 0) begins or ends at the "
                                         "halt F2 halt 0"),
    "board-token": ("1860_game_end_bank", 112,
                    _route(2, connections=[["F2 0.1"], ["F2 1.2"], ["F4", "F2"], ["G5", "F4"]]),
                    (), "route.token", "includes no station of IOW"),
    "board-shared-track": ("1860_game_end_bank", 112, _route(1, connections=[["I3", "J4"]]), (),
                           "route.shared_track", "both use the track at J4 edge 2"),
    "board-connection": ("1860_game_end_bank", 112, _route(0, connections=[["I3", "I5"]]), (),
                         "route.connection", "no track leaves I3 toward I5 (edge 0 of I3)"),
    # IOW's runs must pass its home station I3 and share stops with each other
    "board-home": ("1860_game_end_bank", 112, _only(2), (),
                   "route.home", "no run of IOW visits its home station (I3)"),
    "board-network": ("1860_game_end_bank", 112, _only(1, 2), (),
                      "route.network", "the 3+2-train (3+2-0) shares no stop with IOW's other runs"),
    # C&N's 4+2 passes Ryde (IOW's); started at Ryde Pier it passes Ryde Esplanade too
    "board-two-blocked": ("1860_game_end_bank", 262, _prepend(0, ["J2", "I3"]), (),
                          "route.blocked", "passes 2 cities filled by other corporations (I3, J4)"),
    # the game's option re_enter_hexes allows this run (I11 twice); without it, not
    "board-hex-reentry": ("1860_game_end_bank", 289, None, ("re_enter_hexes",),
                          "route.hex_reentry", "enters I11 twice"),
    # track: C&N owns no train yet (#197): it upgrades nothing (here BHI&R's
    # yellow halt K5, laid at #193, to a green halt)
    "board-upgrade-no-train": ("1860_rand_18602_2", 197,
                               _lay(hex="K5", tile="751-0", rotation=0), (),
                               "track.upgrade_no_train", "C&N owns no train: it may not upgrade "
                                                         "the yellow 741 on K5"),
    # Newport's green 763 keeps Shide joined to the south: rotation 0 only
    "board-fixed-rotation": ("1860_rand_18602_3", 508, _lay(rotation=1), (),
                             "tile.rotation", "is laid only at rotation 0"),
}


@pytest.mark.parametrize("name", sorted(BOARD_ILLEGAL))
def test_each_illegal_board_example_is_flagged_at_its_action(name):
    game, last, change, drop, rule, words = BOARD_ILLEGAL[name]
    result = replay_changed(game, last, change, drop)
    errors = [(f.rule, f.action_id, f.message) for f in result.findings if f.severity == "error"]
    assert [(r, a) for r, a, _ in errors] == [(rule, last)], errors
    assert words in errors[0][2]


@pytest.mark.parametrize("name", sorted(BOARD_ILLEGAL))
def test_each_example_is_legal_unchanged(name):
    game, last, _, _, _, _ = BOARD_ILLEGAL[name]
    result = replay_changed(game, last)
    assert [f for f in result.findings if f.severity == "error"] == []


def test_only_one_train_of_a_turn_may_pass_a_blocked_city():
    result = replay_changed("1860_game_end_bank", 261)
    g = result.game
    a = Run("the 4+2-train (4+2-0)", [], [], blocked=["J4"])
    b = Run("the 4+2-train (4+2-1)", [], [], blocked=["G5 city 0"])
    with pytest.raises(Exception) as exc:
        check_network(g, "C&N", [a, b])
    assert exc.value.rule == "route.blocked"
    assert "both pass a city filled by other corporations (J4, G5 city 0)" in exc.value.message


def test_a_run_recorded_without_its_track_is_taken_as_recorded_with_a_note():
    def strip(action):
        for r in action["routes"]:
            r.pop("connections")
    result = replay_changed("1860_game_end_bank", 112, strip)
    notes = [f for f in result.findings if f.severity != "warning"]   # no result given
    assert [(f.severity, f.rule) for f in notes] == [("info", "route.unchecked")]
    assert "the revenue of 3 1860 runs was taken as recorded" in notes[0].message
    assert result.game.title.state.runs_checked == 13    # the 13 runs before #112


def test_a_leased_train_earns_40_and_20_per_stop():
    """game_end_bank #431: IOW, insolvent, leases the 7+4: 40 + 20 x 7 = 180
    (its city number of stops; no subsidy); a claim of 200 is flagged."""
    result = replay_changed("1860_game_end_bank", 431, _route(0, revenue=200))
    errors = [(f.rule, f.action_id, f.message) for f in result.findings if f.severity == "error"]
    assert [(r, a) for r, a, _ in errors] == [("route.revenue", 431)]
    assert "is worth £180, not the £200 claimed" in errors[0][2]


def test_every_corpus_run_reached_is_checked():
    """The clean games have no finding (test_corpus_1860); here: how many runs."""
    result = replay_changed("1860_rand_18603_0", 10 ** 6)
    st = result.game.title.state
    assert (st.runs_checked, st.runs_taken) == (163, 0)


def test_an_upgrade_at_the_edge_of_the_biggest_trains_reach():
    """18602_1 #142: C&N (biggest train a 2+1) upgrades Freshwater B6, a city
    reached after counting one city: within a 2-city train's reach, beyond a
    1-city train's."""
    from railcheck.titles.g1860.reach import distance_to
    g = replay_changed("1860_rand_18602_1", 142).game
    assert max(t.spec.distance["cities"] for t in g.corporations["C&N"].trains) == 2
    assert distance_to(g.board, "C&N", "B6", 2) is None
    assert distance_to(g.board, "C&N", "B6", 1) == 2
    assert distance_to(g.board, "C&N", "L6", 9) == 99      # not on C&N's track


def test_an_upgrade_out_of_reach_is_flagged_with_the_numbers():
    from types import SimpleNamespace

    from railcheck.titles.g1860.steps import Track1860
    g = replay_changed("1860_rand_18602_1", 142).game
    small = SimpleNamespace(name="1+1", spec=SimpleNamespace(distance={"cities": 1, "towns": 1}))
    step = Track1860.__new__(Track1860)
    step.game = g
    before = len(g.findings)
    step.check_reach(SimpleNamespace(sym="C&N", trains=[small]), "B6")
    f = g.findings[before:]
    assert [x.rule for x in f] == ["track.upgrade_reach"]
    assert "its biggest train, a 1+1, counts 1 cities and B6 is 2 cities away" in f[0].message


def test_a_run_given_by_its_stops_and_hexes_is_checked_too():
    """The notation's form (stops and the hexes between them, no
    connections): IOW's 2+1 runs at #112, I3~J4 and I3~J2, worth 80 and 70;
    a claim of 90 for the first is flagged."""
    data = copy.deepcopy(export("1860_game_end_bank"))
    data["actions"] = [a for a in data["actions"] if a["id"] <= 112]
    data.pop("result", None)
    record, _ = import_export(json.dumps(data), "1860_game_end_bank")
    run = record.actions[-1]
    for r in run.routes[:2]:
        r.connections = None
    assert [[s.hex for s in r.stops] for r in run.routes[:2]] == [["I3", "J4"], ["I3", "J2"]]
    assert [r.path for r in run.routes[:2]] == [[["I3", "J4"]], [["I3", "J2"]]]
    run.routes[0].revenue = 90
    result = Replay(record).run()
    errors = [(f.rule, f.action_id, f.message) for f in result.findings if f.severity == "error"]
    assert [(r, a) for r, a, _ in errors] == [("route.revenue", 112)]
    assert "run (I3-J4) is worth £80, not the £90 claimed" in errors[0][2]


@pytest.mark.parametrize("connections, words", [
    ([["Z9", "I3"]], "there is no hex Z9"),
    ([["I3 x.y"]], "cannot read the connection 'I3 x.y'"),
])
def test_a_run_written_wrong_is_a_located_finding_not_a_traceback(connections, words):
    result = replay_changed("1860_game_end_bank", 112, _route(0, connections=connections))
    errors = [(f.rule, f.action_id, f.message) for f in result.findings if f.severity == "error"]
    assert [(r, a) for r, a, _ in errors] == [("route.path", 112)]
    assert words in errors[0][2]


def test_an_upgrade_must_give_new_track_or_change_a_value():
    """18602_1 #108: IOW upgrades the halt K5 (legal: the new tile adds track
    its trains reach).  Judged against the new tile itself as the old one (no
    new track, the same values), the upgrade is flagged."""
    from railcheck.titles.g1860.reach import old_track, reached_values, uses_new_track
    from railcheck.titles.g1860.steps import Track1860
    g = replay_changed("1860_rand_18602_1", 108).game
    iow = g.corporations["IOW"]
    n = max(t.spec.distance["cities"] for t in iow.trains)
    assert reached_values(g.board, "IOW", "K5", n) == [0]
    assert uses_new_track(g.board, "IOW", "K5", n, old_track(g.board, "K5")) is False
    step = Track1860.__new__(Track1860)
    step.game = g
    before = len(g.findings)
    step.check_new_track(iow, "K5", (old_track(g.board, "K5"), [0]))
    f = g.findings[before:]
    assert [x.rule for x in f] == ["track.no_new_track"]
    assert "IOW's upgrade of K5 gives its trains no new track to use" in f[0].message
