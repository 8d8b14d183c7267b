"""A corporation in receivership runs for the most it can earn (docs/1860.md
R2): railcheck searches for a legal set of runs earning more
(railcheck/titles/g1860/best.py) and flags the recorded runs only when it
finds one earning more revenue and more revenue and subsidy together."""


from railcheck.actions import Route, Stop
from railcheck.engine import Replay
from railcheck.importer import import_export
from railcheck.titles.g1860 import best

from conftest import export_record


def record_of(name: str, last=None):
    return export_record("1860_random", name, last)


BETTER = "J2-I3-J4-J6-I5-G5 city 1-G5 city 0-F6-F10-G9-H8-H10-I9-I7 town 0-J8"


def test_a_receivership_run_short_of_the_best_is_flagged_with_both_sums():
    """18602_7, OR 16.1 (#686): IOW, in receivership, runs its 9+5
    I3-...-J8 for 410; starting at Ryde Pier (J2, an off-board area) and
    leaving out H4, G3, F4, F2 and E5 it earns 430 (nine cities and
    off-boards, and Alverstone's town)."""
    r = Replay(record_of("1860_rand_18602_7", 686), check_purity=True).run()
    assert [(f.action_id, f.rule, f.message) for f in r.findings] == [
        (686, "route.receivership_max",
         f"IOW is in receivership and must run for the most it can earn: its runs earn £410 "
         f"(£410 + £0 subsidy), but 9+5: {BETTER} earn £430 (£430 + £0 subsidy)")]
    iow = r.game.corporations["IOW"]
    assert "IOW" in r.game.title.state.receivership
    # the record's 410 is what the treasury got (the finding changes nothing)
    before = Replay(record_of("1860_rand_18602_7", 685)).run().game.corporations["IOW"]
    assert iow.cash == before.cash + 410


def test_the_better_run_is_legal_and_not_flagged_when_recorded():
    """The run the search found, written with its stops and hexes (as the
    notation writes it) in place of #686's and claiming 430: followed on the
    map by the checker's own track follower, worth 430, no finding."""
    record = record_of("1860_rand_18602_7", 686)
    action = record.actions[-1]
    old = action.routes[0]
    stops = [("J2", 0), ("I3", 0), ("J4", 0), ("J6", 0), ("I5", 0), ("G5", 1), ("G5", 0),
             ("F6", 0), ("F10", 0), ("G9", 0), ("H8", 0), ("H10", 0), ("I9", 0), ("I7", 0),
             ("J8", 0)]
    path = [["J2", "I3"], ["I3", "J4"], ["J4", "J6"], ["J6", "I5"], ["I5", "H6", "G5"], ["G5"],
            ["G5", "F6"], ["F6", "F8", "F10"], ["F10", "G9"], ["G9", "H8"], ["H8", "H10"],
            ["H10", "I9"], ["I9", "I7"], ["I7", "J8"]]
    action.routes = [Route(train=old.train, train_id=old.train_id,
                           stops=[Stop(hex=h, city=c) for h, c in stops], path=path,
                           revenue=430, subsidy=0)]
    r = Replay(record, check_purity=True).run()
    assert r.findings == []
    assert r.game.title.state.runs_checked > 0


def test_more_subsidy_alone_is_not_flagged():
    """18604_3, OR 17.2 (#581): C&N, in receivership, earns 240 + 20
    subsidy with its three 3+2s (the F2 run counts no halt).  The best found
    earns 240 + 30 (counting F2's halt) but no more revenue: the summary's
    "the most" may mean revenue, so nothing is flagged."""
    r = Replay(record_of("1860_rand_18604_3", 580)).run()
    g = r.game
    cn = g.corporations["C&N"]
    assert "C&N" in g.title.state.receivership
    total = best.best_total(g, cn, list(cn.trains))
    revenue = best.best_total(g, cn, list(cn.trains), by="revenue")
    assert (total[0], total[1], total[2]) == (270, 240, 30)
    assert revenue[1] == 240
    r = Replay(record_of("1860_rand_18604_3", 581)).run()
    assert r.findings == []


def test_no_search_without_receivership(monkeypatch):
    """The search runs only for a corporation in receivership: none in the
    real game 1860_game_end_bank (638 actions, no run in receivership searched);
    seven runs searched in 18602_5, none short."""
    calls = []
    real = best.best_total
    monkeypatch.setattr(best, "best_total", lambda *a, **k: calls.append(a[1].sym) or real(*a, **k))
    from test_corpus_1860 import export_text
    record, _ = import_export(export_text("1860_game_end_bank"), "1860_game_end_bank")
    assert Replay(record).run().findings == []
    assert calls == []
    record, _ = import_export(export_text("1860_rand_18602_5"), "1860_rand_18602_5")
    assert Replay(record).run().findings == []
    assert len(calls) >= 7 and set(calls) <= {"C&N", "IOW", "IWNJ", "FYN", "NGStL", "BHI&R",
                                                 "S&C", "VYSC"}
