"""1890's operating round as the shared ``OperatingRound`` with 1890's steps
(``railcheck/titles/kansai/orsteps.py``): each kind of a company's action moved onto it is a
step of the shared protocol, whose ``check`` changes nothing (it returns a plan with the
findings taken as written and the checks skipped for an unknown number, or raises the refusal)
and whose ``apply`` carries the plan out."""

from pathlib import Path

import pytest

from railcheck.engine import Replay
from railcheck.findings import RuleViolation
from railcheck.loader import load_game
from railcheck.rounds.operating import OperatingRound
from railcheck.snapshot import state_snapshot
from railcheck.titles.kansai.operating import OperatingRound1890, Turn1890
from railcheck.titles.kansai.orsteps import (BuyCompanyStep1890, BuyTrainStep1890,
                                             ConvertStep1890, DiscardTrainStep1890,
                                             DividendStep1890, IgnoreStationStep1890,
                                             LayTileStep1890,
                                             PlaceTokenStep1890, PrivatiseStep1890,
                                             RunRoutesStep1890)

from conftest import replay_file as run

REPO = Path(__file__).resolve().parents[2]
GAME = REPO / "examples" / "kansai" / "game.18xx"
#: the example on the components file's map (components-board.yaml)
MAP_GAME = REPO / "examples" / "kansai" / "map-game.18xx"


def replayed(record, stop_at: int):
    """1890's title object (its state, rounds and ledger) after the engine's replay of
    ``record`` stopped after line ``stop_at``."""
    rp = Replay(record, stop_at=stop_at)
    rp.run()
    return rp.game.title


def paused(line: int, text=None):
    """The example game's replay stopped before ``line``."""
    record, _ = load_game(str(GAME), text=text)
    return replayed(record, line - 1)


def actions(*lines: str, game=GAME, components="components-example.yaml") -> list:
    text = f"title: 1890\nplayers: Aki, Ben, Chie\ncomponents: {components}\n\nOR 2.1\n" \
        + "\n".join(lines) + "\n"
    record, read = load_game(str(game), text=text)
    assert read == []
    return [a for a in record.actions if a.verb != "round"][-len(lines):]


def picture(r) -> tuple:
    board = r.operating.map.board
    hexes = () if board is None else tuple(
        (h.coord, h.tile.name, h.rotation, tuple(tuple(n.tokens) for n in h.nodes))
        for h in board.hexes.values())
    return (state_snapshot(r.holdings), repr(vars(r.state)), repr(getattr(r.holdings.round.turn, "lines", None)),
            len(r.findings),
            r.ledger.bank, list(r.holdings.marked), repr(r.unsure.skipped), hexes)


CASES = [
    # (step, line, the plan's notes or the refusal); the replay paused in JR's turn of OR 2.1,
    # before its 3+3 (line 79: phase 2, JR owns a 2, the pool holds no train)
    (BuyTrainStep1890, "JR buy train 3+3 for 200",
     [("trains.price", "a 3+3-train costs Y220 from the depot, not Y200")]),
    (BuyTrainStep1890, "JR buy train 3 for 180",
     [("trains.not_available", "all 2 3-trains are sold")]),
    (BuyTrainStep1890, "JR buy train 2 from pool for 60",
     ("trains.not_available", "the pool holds no 2-train")),
    (BuyTrainStep1890, "JR buy train 3 from M1 for 100", ("trains.not_owned", "M1 owns no 3-train")),
    (BuyTrainStep1890, "JR buy train D exchange 4 for 900",
     [("trains.not_available", "a D-train is sold once the first 6-train is (F7)"),
      ("trains.exchange", "JR owns no 4-train to trade in")]),
    (DiscardTrainStep1890, "JR discard 2",
     ("trains.discard", "JR owns 1 trains, within the limit of 6; a company may not discard a "
                        "train at will (O5b)")),
    (DiscardTrainStep1890, "JR discard 3", ("trains.not_owned", "JR owns no 3-train")),
    (BuyCompanyStep1890, "JR buy private ARIMA from Aki for 50",
     [("private.price", "ARIMA (face value Y20) is bought for Y10 to Y40, not Y50 (O6)")]),
    (BuyCompanyStep1890, "JR buy private OMER from Ben for 50",
     ("private.no_sale", "OMER may not be sold to a company (P7, L0)")),
    (BuyCompanyStep1890, "M1 buy private ARIMA from Aki for 20",
     ("private.buy_phase", "M1 is a minor: only the public companies buy privates (F9)")),
    # JR's turn as far as line 78: two lays, a run, half a dividend
    (LayTileStep1890, "JR lay 8 E8",
     [("track.one_lay", "JR already laid 2 tile(s) this turn; the limit is 2 (JR from phase 4: "
                        "one)")]),
    (RunRoutesStep1890, "JR run 2 C9-D9 = 40",
     ("route.twice", "JR already ran its trains this turn (O3); this run is ignored")),
    (DividendStep1890, "JR payout",
     ("dividend.twice", "JR already decided its dividend this turn (O4); this one is ignored")),
    (IgnoreStationStep1890, "JR ignore KRTR for 100",
     ("kansai.krtr_fee", "JR may not pay to ignore KRTR's station (L2: every company but JR and "
                         "OMS)")),
    # another company's turn, begun with the line
    (RunRoutesStep1890, "HER run 2+2 D9-B9-C9-E11 = 50",
     [("kansai.train_2plus2", "a 2+2 runs through at most two cities or off-boards; this one "
                              "through 3: Nishinomiya (D9), Kobe (C9), Osaka Nishi (E11) (O3b)"),
      ("route.revenue", "HER's runs are worth Y70 (the low values of their stops, F1), not the "
                        "Y50 claimed")]),
    (DividendStep1890, "HER half",
     [("dividend.kind", "only JR, until phase 6, pays half a dividend (J2); HER pays out or "
                        "withholds")]),
    (IgnoreStationStep1890, "HER ignore KRTR for 100",
     ("kansai.krtr_fee", "Kobe Rapid Transit has not started: it has no station to ignore")),
    (ConvertStep1890, "M5 convert",
     ("kansai.conversion", "M5 does not convert into KNR (only minors 1-4 do)")),
    (ConvertStep1890, "M1 convert", []),
    (PrivatiseStep1890, "M1 privatise",
     ("kansai.conversion", "only Kobe Electric Railway (M5) may privatise, not M1")),
    (PlaceTokenStep1890, "HER token C9", []),
]


def turn_for(r, action) -> Turn1890:
    """The company's turn (the round's shared ``Turn``): JR's of OR 2.1 as far as line 78 (two
    lays, a run for 40, half a dividend), else one begun with the line."""
    turn = Turn1890(r.holdings.corporations[action.actor])
    if action.actor == "JR":
        turn.laid_on, turn.tile_lays = ["E10", "E9"], 2
        turn.ran, turn.revenue, turn.dividend_done = True, 40, True
    return turn


@pytest.fixture(scope="module")
def jr_turn():
    return paused(79)


@pytest.mark.parametrize("step_class, line, outcome", CASES)
def test_a_steps_check_changes_nothing(jr_turn, step_class, line, outcome):
    r = jr_turn
    rnd = r.operating
    assert isinstance(rnd, OperatingRound1890) and isinstance(rnd, OperatingRound)
    assert rnd.game is r.holdings
    step = rnd.step_by_type(step_class)
    action, = actions(line)
    assert rnd.step_for(action) is step
    before = picture(r)
    turn = turn_for(r, action)
    written = dict(vars(turn))
    if isinstance(outcome, tuple):
        with pytest.raises(RuleViolation) as refused:
            step.check(turn, action)
        assert (refused.value.rule, refused.value.message) == outcome
    else:
        assert step.check(turn, action).notes == outcome
    assert picture(r) == before and vars(turn) == written


MAP_CASES = [
    # the map example paused in OR 2.2 before HER's station in Osaka Nishi (line 61)
    (PlaceTokenStep1890, "HER token C15", []),
    (PlaceTokenStep1890, "HER token C3", ("token.city", "C3 has no city for a station")),
    (LayTileStep1890, "HER lay 9 C11",
     ("tile.upgrade", "tile 9 is yellow but C11 (tile 9, yellow) takes a green tile")),
    (LayTileStep1890, "HER lay 7 B14", ("tile.hex", "there is no hex B14 on the map")),
    (RunRoutesStep1890, "HER run 3 C13-C9-C7 = 60",
     [("route.revenue", "HER's runs are worth Y90 (the middle values of their stops, F1), not "
                        "the Y60 claimed")]),
]


@pytest.fixture(scope="module")
def map_turn():
    record, _ = load_game(str(MAP_GAME))
    return replayed(record, 60)


@pytest.mark.parametrize("step_class, line, outcome", MAP_CASES)
def test_a_steps_check_on_the_map_changes_nothing(map_turn, step_class, line, outcome):
    """The board's checks (a lay's, a station's, the runs', with the stations a company may
    ignore lifted and put back) leave the map as it was."""
    r = map_turn
    assert r.operating.map.board is not None
    step = r.operating.step_by_type(step_class)
    action, = actions(line, game=MAP_GAME, components="components-board.yaml")
    before = picture(r)
    turn = Turn1890(r.holdings.corporations[action.actor])
    if isinstance(outcome, tuple):
        with pytest.raises(RuleViolation) as refused:
            step.check(turn, action)
        assert (refused.value.rule, refused.value.message) == outcome
    else:
        assert step.check(turn, action).notes == outcome
    assert picture(r) == before


def test_a_train_bought_and_a_private_bought_by_a_company_applied():
    r = paused(79)
    rnd = r.operating
    cash, bank = r.ledger.get("JR"), r.ledger.bank
    rnd.turn = turn_for(r, actions("JR half")[0])           # JR's turn under way
    buy, = actions("JR buy train 3+3 for 200")
    r.action = buy                      # (the replay's action at hand, as its loop sets it)
    rnd.play(BuyTrainStep1890, buy)
    # flagged, taken as paid at the record's price; the train is JR's
    assert [(f.rule, f.line) for f in r.findings if f.severity == "error"][-1:] == \
        [("trains.price", buy.line)]
    assert r.ledger.get("JR") == cash - 200 and r.ledger.bank == bank + 200
    assert r.holdings.train_names("JR") == ["2", "3+3"]
    priv, = actions("JR buy private ARIMA from Aki for 40")
    aki = r.ledger.get("Aki")
    rnd.play(BuyCompanyStep1890, priv)
    assert r.holdings.owner_of("ARIMA") == "JR"
    assert r.ledger.get("Aki") == aki + 40 and r.ledger.get("JR") == cash - 240


def test_an_unknown_price_is_a_check_skipped_when_applied_not_when_checked(tmp_path):
    """Without the trains' prices the check of a depot train's price is skipped: counted once
    the purchase is made, not by the check."""
    text = GAME.read_text()
    comp = (GAME.parent / "components-example.yaml").read_text().replace(
        '"3+3": {price: 220', '"3+3": {price: unknown')
    assert comp != (GAME.parent / "components-example.yaml").read_text()
    path = tmp_path / "components.yaml"
    path.write_text(comp)
    r = paused(79, text=text.replace("components: components-example.yaml",
                                     f"components: {path}"))
    rnd = r.operating
    buy, = actions("JR buy train 3+3 for 200")
    step = rnd.step_by_type(BuyTrainStep1890)
    before = picture(r)
    plan = step.check(rnd.turn, buy)
    assert picture(r) == before
    assert plan.notes == [] and plan.skips == [("train prices", ("trains", "3+3", "price"))]
    cash = r.ledger.get("JR")
    rnd.play(BuyTrainStep1890, buy)
    assert r.unsure.skipped["train prices"].count == 1
    assert r.ledger.get("JR") == cash - 200         # the record's price, paid


def test_jr_has_a_main_companys_train_limit_from_phase_6():
    """O5a on the shared ``Game.train_limit`` (by the company's kind), with 1890's hook: JR,
    the state railway until phase 6 (J0), has a main company's limit from then."""
    r = paused(79)
    h = r.holdings
    jr, her, m1 = (h.corporations[c] for c in ("JR", "HER", "M1"))
    assert (h.phase.name, h.train_limit(jr), h.train_limit(her), h.train_limit(m1)) == \
        ("2", 6, 4, 2)
    h.phase_index = r.rules.phase_index("5")
    assert (h.train_limit(jr), h.train_limit(her), h.train_limit(m1)) == (3, 2, 1)
    h.phase_index = r.rules.phase_index("6")
    assert (h.train_limit(jr), h.train_limit(her), h.train_limit(m1)) == (2, 2, 1)


def test_the_operating_order_is_the_shared_one_with_1890s_hooks():
    """OperatingRound1890.start is the shared ``OperatingRound.start`` (the privates' incomes
    by ``Holdings.pay_private_income``, the ledger's) with the shared ``Game.operating_order``
    and 1890's hooks
    (``TitleKansai.operates``, ``operating_order_key``): the minors by number (N0), then the
    main companies by price (O0b); KNR only once M2's conversion started it (K8).  The main
    companies' keys at the round's start (O0b) are read in that order; which companies the
    record has operate later in the round is the record-following layer's reading
    (``Following.actors_ahead_in_round``), not the round's."""
    r = paused(61)                  # OR 2.1 begun (line 59), M1's run read (line 60)
    o = r.operating
    assert r.holdings.or_number == 1            # (the shared start's count in the set)
    assert [c.sym for c in o.order] == ["M1", "M2", "M3", "M4", "M5", "JR", "HER"]
    # (the keys: minus the price of the marker's cell, minus its column, its row, the place
    # in its stack)
    assert o.start_keys == {"JR": (-90, -4, 1, 1), "HER": (-80, -4, 2, 0)}
    # (M1's payout is ahead; KNR's checkpoints are no one's act)
    assert r.holdings.following.actors_ahead_in_round() == ["M1", "M2", "KNR", "M4", "M5",
                                                            "JR", "HER"]
    r = paused(79)                  # M2 converted (KNR started), M3 and M5 gone
    assert [c.sym for c in r.holdings.operating_order()] == ["M1", "M4", "JR", "KNR", "HER"]
    assert r.holdings.following.actors_ahead_in_round() == ["JR", "HER"]
    assert paused(112).holdings.or_number == 2      # OR 3.2



def test_the_shared_walk_begins_and_ends_1890s_turns():
    """The shared round's walk of the order (``skip_turns_until``: the companies before the
    one named take empty turns) begins each turn with the round's ``turn_class`` (1890's
    ``Turn1890``) and 1890's ``start_turn`` (N0: the minors by number, the walk's
    ``order`` up to its ``index``), and ends it with 1890's ``end_turn`` (O5: a company without a train
    must buy one, flagged at the action at hand, the turns being empty: JR's lay of line 44,
    as if the record went from OR 1.1's marker to it).  1890's record-driven turns go through
    the same two hooks."""
    r = paused(39)                  # OR 1.1 begun (line 38): nobody has a train
    r.action = next(a for a in r.record.actions if a.line == 44)
    o = r.operating
    assert [c.sym for c in o.order] == ["M1", "M2", "M3", "M4", "M5", "JR", "HER"]
    turns = []
    start = o.start_turn
    o.start_turn = lambda corp: (turns.append(o.turn), start(corp))
    o.skip_turns_until(r.holdings.corporations["JR"])
    assert [(type(t).__name__, t.corp.sym) for t in turns] == \
        [("Turn1890", m) for m in ("M1", "M2", "M3", "M4", "M5")]
    assert [c.sym for c in o.order[: o.index + 1]] == ["M1", "M2", "M3", "M4", "M5"]
    assert o.next_company() == "JR"
    assert [(f.rule, f.line, f.message.split(" ends")[0]) for f in r.findings
            if f.severity == "error"] == [("trains.must_own", 44, m)
                                          for m in ("M1", "M2", "M3", "M4", "M5")]
    assert o.turn is None and o.index == 4


def test_why_a_company_may_not_begin_its_turn_is_a_pure_check():
    """``OperatingRound1890.check_may_start`` (the shared round's question, which the walk of
    the order asks) raises why a company's turn may not begin and changes nothing; the
    record's turn is flagged so and taken as written (``flag_may_start``).  OR 1.1 of the
    example, phase 2: OMS starts in phase 4 (C5), KNR when M2 converts (K8); the minors M1
    and M5 and the floated JR may begin."""
    r = paused(39)
    o, corps = r.operating, r.holdings.corporations
    before = state_snapshot(r.holdings)
    why = {}
    for sym in ("M1", "M5", "JR", "OMS", "KNR"):
        try:
            o.check_may_start(corps[sym])
            why[sym] = None
        except RuleViolation as v:
            why[sym] = v.rule
    assert why == {"M1": None, "M5": None, "JR": None, "OMS": "kansai.oms_early",
                   "KNR": "or.not_floated"}
    assert state_snapshot(r.holdings) == before

def test_next_names_the_next_company_from_the_rounds_order():
    """``next`` names the company to operate next from the round's order (the shared
    ``Game.operating_order`` at the OR's start: ``OperatingRound1890.next_company``): the
    first that has not operated and is open; KNR at once after M2's conversion (K8); with a company's turn
    counted over (``done``: what ``next`` offers to end a turn)."""
    assert paused(60).operating.next_company() == "M1"        # OR 2.1 begun
    assert paused(62).operating.next_company() == "M2"        # M1's turn over (run, payout)
    assert paused(62).operating.next_company(done="M2") == "M3"
    assert paused(66).operating.next_company(done="KNR") is None
    assert paused(66).operating.next_company() == "KNR"       # M2 converted (line 65)
    assert paused(75).operating.next_company() == "JR"        # the minors done, M5 privatised
    # the walk's place, not flags of its own: a turn the record-following layer holds (its
    # company operates later in the round, the shared ``hold_turn``) is named again
    o = paused(71).operating                                  # M4 ran (line 70)
    assert (o.order[o.index].sym, o.next_company()) == ("M4", "M5")
    o.hold_turn()
    assert o.next_company() == "M4" and o.next_company(done="M4") == "M5"


def with_line(after: int, line: str, stop_at: int = 10**6):
    """The example game with ``line`` written after its line ``after``, replayed (to
    ``stop_at``): its error findings (rule, line) and the replay."""
    lines = GAME.read_text().splitlines(keepends=True)
    record, _ = load_game(str(GAME), text="".join(lines[:after] + [line + "\n"] + lines[after:]))
    r = replayed(record, stop_at)
    return [(f.rule, f.line) for f in r.findings if f.severity == "error"], r


def test_a_company_acting_again_in_an_operating_round_is_one_finding():
    # JR's turn (lines 44-46) then HER's (47-48) in OR 1.1; JR lays again after HER's turn
    errors, r = with_line(48, "JR lay 8 E10")
    assert errors == [("turn.order", 49)]
    f = next(f for f in r.findings if f.line == 49)
    assert f.message.startswith("JR already operated in OR 1.1 (its turn from line 44)")
    # its turn's end is not run again: JR's price after OR 1.1 (at SR 2's first line) is the
    # legal game's, Y90 (one withhold, O4a), not Y80; the lay is taken as written
    _, after_round = with_line(48, "JR lay 8 E10", stop_at=52)
    assert after_round.ledger.price("JR") == 90
    _, legal = with_line(48, "# (nothing)", stop_at=52)
    assert legal.ledger.price("JR") == 90


def test_a_minor_acting_again_is_one_finding_not_the_order_of_numbers():
    # M1 ran and paid (lines 60-61) in OR 2.1: its lay after M4's turn, the record going on
    # with M5, is one finding, its second turn (not N0's order of numbers as well)
    errors, r = with_line(72, "M1 lay 7 H14")
    assert errors == [("turn.order", 73)]
    assert next(f for f in r.findings if f.line == 73).message.startswith(
        "M1 already operated in OR 2.1 (its turn from line 60)")
    # ... and inside M2's turn, M2's lines going on after it: still M1's second turn (a
    # company that operated is not read as a stand-in for the turn under way), and M2's turn
    # goes on after it
    errors, r = with_line(63, "M1 lay 7 H14", stop_at=66)
    assert errors == [("turn.order", 64)]
    assert r.operating.first_turns["M1"].laid_on == []
    assert r.operating.first_turns["M2"].laid_on == []


def swapped(first: str, second: str) -> str:
    """The example game with two adjacent lines swapped (the checkpoints left out)."""
    text = GAME.read_text()
    assert f"{first}\n{second}\n" in text
    text = text.replace(f"{first}\n{second}\n", f"{second}\n{first}\n", 1)
    return "\n".join(x for x in text.splitlines() if not x.startswith("check ")) + "\n"


def test_a_lay_written_in_another_companys_turn_is_taken_as_that_companys():
    """(e) The walk's reading (the shared ``OperatingFollower.written_in_turn``): a line of
    another company inside a turn the record goes on with is that turn's line under a wrong
    name, for 1890 when it is a lay or a station (which change the map, not what the named
    company owns) of a company yet to operate in the round, and the turn's company could
    make it with no finding.  JR's first lay of OR 2.1 written before M5's privatisation:
    M5's lay, one finding (4 errors before the walk: M5's second turn, and the order by
    price broken in two later rounds with JR's price moved by its turn ended twice)."""
    text = swapped("M5 privatise", "JR lay 8 E10")
    errors = [(f.rule, f.line, f.message) for f in run(GAME, text=text).errors]
    assert errors == [("turn.order", 72, "JR's 'lay' is written in M5's turn, and the record "
                                         "goes on with M5: taken as M5's")]
    record, _ = load_game(str(GAME), text=text)
    r = replayed(record, 74)
    assert r.operating.first_turns["M5"].laid_on == ["E10"]
    assert r.operating.first_turns["JR"].laid_on == ["E9"]
    # HER's lay inside JR's turn in OR 1.1 (JR lays two tiles in phases 1-3, J3): JR's
    # second lay, so JR's next lay is its third (2 errors; 11 before the walk: JR's turn
    # ended at HER's line without its train, HER's without one, JR's second turn, and the
    # order by price broken in three later rounds by HER's prices moved)
    errors, _ = with_line(44, "HER lay 5 D8")
    assert errors == [("turn.order", 45), ("track.one_lay", 46)]
    # a player's line there is no company's: JR's turn goes on (1 error; 6 before: JR's turn
    # ended without its train, and the order by price in three rounds)
    errors, _ = with_line(44, "Aki lay 5 C10")
    assert errors == [("or.player_action", 45)]


def test_a_train_written_in_another_companys_turn_is_its_buyers():
    """(e)'s exception: a train purchase names its buyer (its cash, its trains): HER's 6-train
    of OR 4.1 written before JR's last line is HER's turn, and JR's line after it JR's second
    turn, one finding (the stand-in reading made JR buy it: 7 errors, JR's cash short and HER
    without trains for the rest of the game; 1 before the walk)."""
    text = swapped("JR half", "HER buy train 6 for 630")
    errors = [(f.rule, f.line, f.message[:40]) for f in run(GAME, text=text).errors]
    assert errors == [("turn.order", 138, "JR already operated in OR 4.1 (its turn ")]


def test_a_company_left_out_of_the_record_takes_its_empty_turn_in_the_order():
    """The walk's empty turns (``skip_turns_until`` with 1890's ``end_turn``), given when a
    later company acts: a company without a train owes one (O5), flagged at the line of the
    company that acted after it (before the walk: no finding, the turns left out were only
    a main company's withhold at the round's end); a minor whose conversion is due converts
    (K1, flagged).  M1's only line of OR 1.1 (its 2-train) left out: M1 ends its empty turn
    without a train at M2's line."""
    text = GAME.read_text().replace("M1 buy train 2 for 60\n", "", 1)
    text = "\n".join(x for x in text.splitlines() if not x.startswith("check ")) + "\n"
    errors = [(f.rule, f.line, f.message) for f in run(GAME, text=text).errors]
    assert errors[0] == ("trains.must_own", 39, "M1 ends its turn without a train; a company "
                                                "without one must buy one (O5)")
    # M1's conversion, its only line of OR 3.2, left out (it must convert from phase 3, K1):
    # its empty turn, at M4's first line of the round, flags and converts it (converted, it
    # owes no train: one finding); the money then goes on as the record's (3 checkpoint
    # errors before the walk, M1 never converting)
    text = GAME.read_text().replace("OR 3.2\nM1 convert\n", "OR 3.2\n", 1)
    errors = [(f.rule, f.line, f.message[:40]) for f in run(GAME, text=text).errors]
    assert errors == [("kansai.conversion_skipped", 112, "M1 (Kanan Railway) must convert into KNR")]


def test_a_company_whose_turn_may_not_begin_is_taken_as_written():
    """(g) OMS in phase 1 (C5), between JR's and HER's turns of OR 1.1: the walk's order
    does not call for it; 1890 flags why its turn may not begin and takes the line as written
    (``OperatingFollower1890.may_start`` moves it up): its lay is made, and its turn ends
    without a train (O5), and HER's turn follows in its place."""
    errors, r = with_line(46, "OMS lay 8 F12", stop_at=48)
    assert errors[:2] == [("kansai.oms_early", 47), ("trains.must_own", 47)]
    assert "F12" in r.state.laid_hexes
    assert [c.sym for c in r.operating.order] == ["M1", "M2", "M3", "M4", "M5", "JR", "OMS",
                                                  "HER"]


def test_knrs_turn_at_once_is_the_next_of_the_order():
    """K8 as the walk's ``move_up``: M2's conversion (line 65 of OR 2.1) puts KNR next in the
    order; M4 acting first, KNR later, is one finding at M4's line (the record's order
    followed); KNR left out of the round takes its empty turn (its trains are M2's: no
    finding at it)."""
    r = paused(66)
    assert [c.sym for c in r.operating.order][r.operating.index:r.operating.index + 2] == \
        ["M2", "KNR"]
    text = GAME.read_text()
    knr = "KNR run 3 F10-G11-H13 = 60\nKNR withhold\n"
    assert knr in text
    m4 = "M4 run 2 I13-I12 = 20\nM4 payout\nM4 buy train 3 for 180\n"
    moved = text.replace(knr, "", 1).replace(m4, m4 + knr, 1)
    moved = "\n".join(x for x in moved.splitlines() if not x.startswith("check "))
    errors = [(f.rule, f.text) for f in run(GAME, text=moved).errors]
    assert errors == [("kansai.knr_at_once", "M4 run 2 I13-I12 = 20")]
    left_out = "\n".join(x for x in text.replace(knr, "", 1).splitlines()
                         if not x.startswith("check "))
    # (the empty turn gives none; KNR lacks the Y60 its run withheld at a later purchase)
    assert [(f.rule, f.line, f.message) for f in run(GAME, text=left_out).errors] == \
        [("trains.cash", 104, "KNR has Y270, a 4-train costs Y300")]


def test_a_line_written_before_companies_the_order_puts_first_is_one_finding():
    """A company's line alone, written before companies the order puts first which the
    record has operate before the company acts again, in its place (JR's first lay of OR
    1.1 written before M5's train, the minors first by ``rulebook.minors_operate``'s
    reading): the slip, one finding (the order's), the line taken as written in a turn of
    its own whose start and end are not run, and JR's turn in its place is its only one (1
    error; 5 before the walk: JR's turn ended there without a train, its second turn, and
    the order by price broken in three later rounds)."""
    text = swapped("M5 buy train 2 for 60", "JR lay 7 C10")
    errors = [(f.rule, f.line, f.message) for f in run(GAME, text=text).errors]
    assert errors == [("turn.order", 43, "the minors operate before the main companies "
                                         "(rulebook.minors_operate: first): JR before M5; "
                                         "taken in the record's order")]
    record, _ = load_game(str(GAME), text=text)
    r = replayed(record, 47)
    assert "C10" in r.state.laid_hexes and "D10" in r.state.laid_hexes
    assert r.operating.first_turns["JR"].laid_on == ["D10"]


def test_a_presidents_sale_is_kept_for_its_company_across_the_empty_turns_before_it():
    """B2: Ben's sale of JR for KNR's D-train (OR 4.2) is judged at KNR's purchase, after the
    companies between (HER, OMS) took their empty turns: they take no sale of KNR's
    (``keep_sales_of``), so his sale of more than needed is still flagged."""
    game = REPO / "examples" / "kansai" / "illegal" / "emergency_sale_too_much.18xx"
    text = game.read_text().replace("KNR run 3 F10-C9-B7 (80), 2 G11-H13 (20) = 100\n", "", 1)
    errors = [(f.rule, f.line) for f in run(game, text=text).errors]
    assert errors == [("turn.order", 114), ("turn.order", 132), ("emergency.too_much", 146)]
