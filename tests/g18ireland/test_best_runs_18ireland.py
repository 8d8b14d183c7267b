"""18Ireland's search of the best runs (railcheck/titles/g18ireland/best.py):
broad gauge, hex edges, the narrow-gauge bonus, the CDSPC/TASPS tokens and
RSSC's Shannon bonus, on real games' positions; what ``railcheck next``
offers there, and the analyser's hindsight."""

from railcheck.analysis.hindsight import hindsight
from railcheck.loader import load_game
from railcheck.table.incremental import Checker
from railcheck.table.nextmove import next_moves

from conftest import DATA

GAMES = DATA / "exports" / "18Ireland"


def paused(name: str, action_id: int):
    """The replay of a real game paused before its action ``action_id``."""
    record, _ = load_game(str(GAMES / f"{name}.json"))
    k = next(i for i, a in enumerate(record.actions) if a.action_id == action_id)
    return Checker(every=None).paused(record, k)


def best(name: str, action_id: int, corp: str):
    g = paused(name, action_id).game
    revenue, subsidy, chosen, gave_up = g.title.best_runs_now(g.corporations[corp], 1_000_000)
    assert subsidy == 0 and not gave_up
    hexes = g.board.hex_list
    return revenue, [(name, [hexes[hi].coord for hi, _ in stops], rev, path)
                     for name, stops, rev, _, path in chosen]


def test_a_2h_finds_the_run_the_record_missed():
    # 161830 #282: SLNCR's 2H ran F4-F6 for £30; F4-F6-G7 crosses 2 hex
    # edges and earns £40 (18xx.games takes it: SLNCR withholds £110, not
    # £100, when #282 is changed to it)
    assert best("161830", 282, "SLNCR") == (40, [("2H", ["F4", "F6", "G7"], 40,
                                                  [["F4", "F6"], ["F6", "G7"]])])


def test_three_trains_share_no_track_and_tasps_pays_at_galway():
    # 161830 #620: MGWR (TASPS's token on Galway C13) ran £270
    revenue, runs = best("161830", 620, "MGWR")
    assert revenue == 290
    assert [(t, stops, rev) for t, stops, rev, _ in runs] == [
        ("4H", ["F6", "G7", "I9", "I11"], 100),
        ("6H", ["C13", "D12", "F10", "G9", "G7"], 150),
        ("1H'", ["F6", "F4"], 40)]


def test_rssc_s_shannon_bonus_is_counted_once():
    # larger_bank_optional_rule #581: EBSR owns RSSC; its 6H stops at Dromod
    # F10 and earns Limerick D16 too: £130 + £40 = £170, as recorded
    revenue, runs = best("larger_bank_optional_rule", 581, "EBSR")
    assert revenue == 170
    assert [(t, stops, rev) for t, stops, rev, _ in runs] == [
        ("6H", ["F10", "G9", "G7", "F6", "F4", "G1"], 130)]


def test_next_offers_the_best_runs_with_the_payout():
    # game_end_bankrupt #576: LER (CDSPC's token on G1) ran £70; the 4H's
    # G1-F4-F6-E7 earns £80, crossing F2 without a stop
    nm = next_moves(paused("18Ireland_game_end_bankrupt", 576), run_limit=1.0)
    (run,) = [o for o in nm.legal if o.kind == "run"]
    assert run.text == "LER run 4H G1~F2~F4-F6-E7 (80) = 80"
    assert run.info["payout"]["to_holders"] == {"Player 1": 48, "Player 2": 16}
    assert not any("no run search" in n for n in nm.notes)


def test_hindsight_covers_18ireland():
    runs = hindsight(str(GAMES / "161830.json"), limit=2)
    assert len(runs) == 75 and not any(r.gave_up for r in runs)
    missed = {(r.action_id, r.corporation): (r.claimed, r.best) for r in runs if r.missed}
    assert len(missed) == 14 and sum(b - c for c, b in missed.values()) == 320
    assert missed[(282, "SLNCR")] == (30, 40)
    assert missed[(806, "DSER")] == (120, 170)


def test_a_d_runs_as_far_as_the_broad_network_goes_within_the_budget():
    # random 18004_0 #1128: CBSCR's D ran 17 stops for £470; its best run
    # found stops 26 times for £640 (18xx.games takes it: the payout gives
    # the players £640 instead of £470 when #1128 is changed to it)
    record, _ = load_game(str(DATA / "exports" / "18Ireland_random"
                              / "18Ireland_rand_18004_0.json.gz"))
    k = next(i for i, a in enumerate(record.actions) if a.action_id == 1128)
    g = Checker(every=None).paused(record, k).game
    corp = g.corporations["CBSCR"]
    hexes = g.board.hex_list
    # next's budget (OWN_RUN_TICKS): the runs of at most 10 stops, then it stops
    revenue, _, chosen, gave_up = g.title.best_runs_now(corp, 300_000)
    assert (revenue, gave_up) == (330, True)
    assert [hexes[hi].coord for hi, _ in chosen[0][1]] == [
        "J4", "I5", "I9", "I11", "I13", "F12", "D12", "D16", "D22", "E21"]
    # the hindsight's (2 s): the whole network
    revenue, _, chosen, gave_up = g.title.best_runs_now(corp, 4_000_000)
    assert (revenue, gave_up) == (640, False)
    ((train, stops, _, _, path),) = chosen
    assert (train, len(stops), hexes[stops[0][0]].coord, hexes[stops[-1][0]].coord) == \
        ("D", 26, "G17", "F14")
    assert sum(len(p) - 1 for p in path) == 51        # hex edges crossed
