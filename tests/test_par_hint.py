"""A par written at the wrong price, found from the record's later lines
(railcheck/following/diagnose.py, rule stock.par_implied; docs/one-mistake.md)."""

import os
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

BANK_END = {"Player 2": 13048, "Player 3": 12109, "Player 1": 12025}
EXAMPLE_END = {"Bob": 13048, "Carol": 12109, "Alice": 12025}


def with_par(data, action_id, price):
    if not M.PAR_CELLS:
        M._rules_facts()
    cell = next(c for c in M.PAR_CELLS if c[0] == price)
    return M._with(data, action_id, {"share_price": f"{price},{cell[1]},{cell[2]}"})


#: the errors of 1830_game_end_bank with #24's par written at $71, replayed
#: without the hints: the cascade of a par at the wrong price, one
#: route.revenue per run claimed wrong among them (194 before a purchase of
#: the depot's last trains of a type, or of a phase's first train, was read
#: as a line left out: following/repair.py's train readings; 86 before a
#: line under another company's name whose own turn the record goes on with
#: at an earlier step, and a pass before a company's own run, were read as
#: the turn's: branch m10)
PLAIN_ERRORS = 9


def test_a_wrong_par_in_an_export_is_found_at_its_action():
    # 1830_game_end_bank #24: Player 2 pars PRR at $100; written at $71 the
    # par is legal at its line, and the first error comes at #27 (turn order)
    data = export_data("1830_game_end_bank")
    a = next(a for a in data["actions"] if a.get("id") == 24)
    assert a["type"] == "par" and a["corporation"] == "PRR" and a["share_price"].startswith("100,")
    record = record_of(with_par(data, 24, 71))

    plain, res = plain_and_hinted(record)
    assert len(errors(plain)) == PLAIN_ERRORS
    assert (errors(plain)[0].action_id, errors(plain)[0].rule) == (27, "turn.order")

    errs = errors(res)
    assert len(errs) == 1
    f = errs[0]
    assert (f.action_id, f.rule) == (24, "stock.par_implied")
    assert f.message == (
        "Player 2 pars PRR at $71, but the record's later lines go on as if at $100 "
        "(with $71: #27, Player 1 acted out of turn: it is Player 2's turn in SR 1 — the "
        "first finding the written par gives): taken as $100")
    # the report is the game the record implies: the unchanged game's end
    assert res.finished
    assert worths(res) == BANK_END


def test_the_harness_finds_the_wrong_pars_through_its_own_replay():
    data = export_data("26855")
    # 26855 #30: a par at $67 written as $90; before, the first error was a
    # purchase over cash at #42
    o = M.replay(M.Mutation("26855", "wrong_par", 30, "par 90 instead of 67",
                            with_par(data, 30, 90)))
    assert [(f.action_id, f.rule) for f in o.errors] == [(30, "stock.par_implied")]
    assert "at $90" in o.errors[0].message and "as if at $67" in o.errors[0].message
    assert "#42" in o.errors[0].message
    assert o.meets


def test_a_mistyped_par_in_a_notation_record_is_found_at_its_line(tmp_path):
    lines = (REPO / "examples" / "1830" / "game.18xx").read_text(encoding="utf-8").splitlines()
    assert lines[203] == "Carol par NYC 90"
    lines[203] = "Carol par NYC 67"
    path = tmp_path / "typo.18xx"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    record, read = load_game(str(path))
    assert [f for f in read if f.severity == "error"] == []

    plain, res = plain_and_hinted(record)
    assert len(errors(plain)) == 12
    assert (errors(plain)[0].line, errors(plain)[0].rule) == (298, "trains.cash")

    errs = errors(res)
    assert [(f.line, f.column, f.rule) for f in errs] == [(204, 1, "stock.par_implied")]
    assert errs[0].message.startswith(
        "Carol pars NYC at $67, but the record's later lines go on as if at $90 (with $67: "
        "line 298, NYC has $330, a 5-train costs $450")
    assert errs[0].message.endswith("taken as $90")
    assert worths(res) == EXAMPLE_END


RL18XX_END = {"Player 1": 7576, "Player 2": 7453, "Player 4": 5855, "Player 3": 4074}


def test_two_explanations_give_no_hint():
    # rl18xx_game #642: a par at $100 written as $67; without the site's
    # result, the record's later lines fit a par at $90 as well as at $100,
    # so nothing is said about the par
    data = export_data("rl18xx_game")
    record = record_of(with_par(data, 642, 67))
    record.expected_result = record.expected_end_reason = None
    rep = Replay(record, hints=False)
    res = rep.run()
    # (17 before the operating round's lines under another company's name
    # and passes before a run were read as the turn's: branch m10)
    assert len(errors(res)) == 5
    assert (errors(res)[0].action_id, errors(res)[0].rule) == (714, "turn.order")
    search = diagnose.Search()
    out = diagnose.par_hint(rep, res, search)
    assert out is res
    assert [(record.actions[i].action_id, v) for i, v in search.explaining] == \
        [(642, 90), (642, 100)]
    assert not search.out_of_budget
    # asked again, the search replays only the two candidates that explain
    # the record: those that failed fail again from what the replay kept of
    # them (``Replay._hint_trials``), their lines counted as replayed again
    replayed = []
    real = diagnose._replay_candidate

    def counted(replay, i, line, *args):
        replayed.append((replay.record.actions[i].action_id, line.price))
        return real(replay, i, line, *args)
    again = diagnose.Search()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(diagnose, "_replay_candidate", counted)
        assert diagnose.par_hint(rep, res, again) is res
    # (twice each: the search among the pars of the companies the first
    # error names, then among all; the 38 others are not replayed again)
    assert replayed == [(642, 90), (642, 100)] * 2
    assert (again.tried, again.replayed, again.explaining) == \
        (search.tried, search.replayed, search.explaining)
    assert (search.candidates, search.tried, search.replayed) == (40, 40, 7815)
    hinted = Replay(record).run()
    assert [(f.action_id, f.rule) for f in errors(hinted)] == \
        [(f.action_id, f.rule) for f in errors(res)]
    assert not any(f.rule == "stock.par_implied" for f in hinted.findings)


def test_the_recorded_result_decides_between_two_explanations():
    # the same change with the site's final scores: only $100 ends with them
    record = record_of(with_par(export_data("rl18xx_game"), 642, 67))
    res = Replay(record).run()
    assert [(f.action_id, f.rule) for f in errors(res)] == [(642, "stock.par_implied")]
    assert errors(res)[0].message.startswith(
        "Player 2 pars CPR at $67, but the record's later lines go on as if at $100 (with $67: "
        "#714, CPR operates before ERIE, PRR, NYNH in OR 6.1")
    assert errors(res)[0].message.endswith("taken as $100")
    assert worths(res) == RL18XX_END
    assert not any(f.rule.startswith("score.") for f in res.findings)


def test_one_wrong_checkpoint_is_not_taken_for_a_par():
    # examples/1830/illegal/wrong-checkpoint.18xx: Alice's cash written as $70
    # where she has $60; a par of PRR at $90 would also give $70, but the
    # checkpoint line alone explains the record as well: no hint
    record, _ = load_game(str(REPO / "examples" / "1830" / "illegal" / "wrong-checkpoint.18xx"))
    res = Replay(record).run()
    assert [(f.line, f.rule) for f in errors(res)] == [(42, "checkpoint.mismatch")]


def test_out_of_budget_gives_no_hint(monkeypatch):
    record = record_of(with_par(export_data("1830_game_end_bank"), 24, 71))
    res = hint_out_of_budget(monkeypatch, record, diagnose.par_hint)
    assert len(errors(res)) == PLAIN_ERRORS


def test_a_legal_game_is_never_searched(monkeypatch):
    def boom(*a, **k):
        raise AssertionError("par_hint asked about a legal game")
    monkeypatch.setattr(diagnose, "par_hint", boom)
    record = record_of(export_data("1830_game_end_bank"))
    res = Replay(record).run()
    assert errors(res) == []
    assert worths(res) == BANK_END


def test_no_hints_keeps_the_original_findings(monkeypatch):
    record = record_of(with_par(export_data("1830_game_end_bank"), 24, 71))
    monkeypatch.setenv("RAILCHECK_NO_HINTS", "1")
    res = Replay(record).run()
    assert len(errors(res)) == PLAIN_ERRORS
    assert not any(f.rule == "stock.par_implied" for f in res.findings)


@pytest.mark.parametrize("first_rule", ["tile.edge", "route.revenue"])
def test_a_first_error_no_par_can_cause_is_not_searched(first_rule):
    from railcheck.findings import Finding

    class R:
        findings = [Finding(severity="error", rule=first_rule, message="x", action_id=5)]
    assert diagnose.applies(R()) is None


def test_validate_gives_the_hint_and_no_hints_switches_it_off(tmp_path):
    from click.testing import CliRunner
    from railcheck.cli import main
    lines = (REPO / "examples" / "1830" / "game.18xx").read_text(encoding="utf-8").splitlines()
    lines[203] = "Carol par NYC 67"
    path = tmp_path / "typo.18xx"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # the key is named so that CliRunner restores it after each run
    env = {"RAILCHECK_NO_HINTS": None}
    got = CliRunner().invoke(main, ["validate", "-q", str(path)], env=env)
    assert got.exit_code == 1
    assert f"{path}:204:1: error [stock.par_implied] Carol pars NYC at $67" in got.output
    assert "— 1 error" in got.output
    off = CliRunner().invoke(main, ["validate", "-q", "--no-hints", str(path)], env=env)
    assert off.exit_code == 1
    assert "stock.par_implied" not in off.output
    assert f"{path}:298:1: error [trains.cash]" in off.output
    assert "— 12 errors" in off.output
    assert not os.environ.get("RAILCHECK_NO_HINTS")  # --no-hints is an argument, not the environment


def test_a_dividend_of_the_wrong_kind_is_found_at_its_line():
    # 29133 #252: NYNH pays out; written as a withholding the line is legal,
    # and the first error comes at #282 (Player 4 short of cash for a B&O
    # share); the one dividend line whose other kind explains every later
    # line is #252 (diagnose.dividend_hint)
    data = export_data("29133")
    a = next(a for a in data["actions"] if a.get("id") == 252)
    assert (a["type"], a["entity"], a["kind"]) == ("dividend", "NYNH", "payout")
    record = record_of(M._with(data, 252, {"kind": "withhold"}))
    plain, res = plain_and_hinted(record)
    assert len(errors(plain)) == 3
    assert (errors(plain)[0].action_id, errors(plain)[0].rule) == (282, "stock.cash")
    assert [(f.action_id, f.rule) for f in errors(res)] == [(252, "dividend.implied")]
    assert errors(res)[0].message == (
        "NYNH withholds, but the record's later lines go on as if it pays out (as written: "
        "#282, Player 4 has $58; a B&O share from the bank pool costs $90; taken as bought, "
        "as the record says — the first finding the written dividend gives): taken as payout")
    assert worths(res) == {"Player 2": 1477, "Player 3": 951, "Player 1": 887, "Player 4": 416}


def test_a_dividend_nearer_the_first_error_than_a_par_and_ending_as_the_site_is_taken():
    # held-out 1889_rand_51000024_2 (batch N) #380: KO pays out; written as a
    # withholding, Player 2 is short for an SR share at #415.  Both a par of
    # SR at ¥80 at #12 (370 lines before) and #380 paid out explain every
    # later line; the payout ends with the site's net worths, the par does
    # not (diagnose.price_hints_judged): the finding is at #380, never before
    from test_slips import _changed_export
    record = _changed_export("1889_slips/1889_rand_51000024_2.json.gz", 380, {"kind": "withhold"})
    plain, res = plain_and_hinted(record)
    assert (errors(plain)[0].action_id, errors(plain)[0].rule) == (415, "stock.cash")
    assert [(f.action_id, f.rule) for f in errors(res)] == [(380, "dividend.implied")]
    assert errors(res)[0].message.startswith(
        "KO withholds, but the record's later lines go on as if it pays out (as written: #415, "
        "Player 2 has ¥88; a SR share from the IPO costs ¥100")
    assert worths(res) == {"Player 1": 3119, "Player 2": 2691, "Player 4": 2622, "Player 3": 735}
    assert not [f for f in res.findings if f.rule.startswith("score.")]


# ---------------------------------------------------------------------------
# a bid for the turn at a legal but wrong price (branch m15:
# diagnose.turn_bid_price_hint, rule auction.bid_implied)

def test_a_bid_for_the_turn_at_a_wrong_legal_price_is_found_at_its_action():
    # 1860_rand_18602_0: Player 1 wins the turn at #11 for £25; written as
    # £55 (legal: he can pay it), he is £16 short for YHC at #43 and the
    # record parts from the replay (654 errors). His latest bids for the turn
    # before #43 at the multiples of 5 below the written price: several
    # explain every later line up to the end (a lower bid of another turn);
    # £25 at #11 alone ends with the site's net worths
    sys.path.insert(0, str(REPO / "tools"))
    import one_mistake as OM
    from conftest import DATA
    data = OM.read_export(DATA / "exports" / "1860_random" / "1860_rand_18602_0.json.gz")
    rep = Replay(record_of(OM.changed_export(data, 11, {"price": 55})), hints=False)
    plain = rep.run()
    assert [(f.action_id, f.rule) for f in errors(plain)][:1] == [(43, "stock.cash")]
    assert len(errors(plain)) == 654
    search = diagnose.Search()
    res = diagnose.turn_bid_price_hint(rep, plain, search)
    assert [(f.action_id, f.rule) for f in errors(res)] == [(11, "auction.bid_implied")]
    assert errors(res)[0].message == (
        "Player 1 bids £55 for the turn, but the record's later lines go on as if £25 (as "
        "written: #43, Player 1 has £34; YHC costs £50 — the first finding the written bid "
        "gives): taken as £25")
    assert worths(res) == {"Player 2": 12035, "Player 1": 8615}
    assert not search.out_of_budget
