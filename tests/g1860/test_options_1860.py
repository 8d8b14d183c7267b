"""1860's ruleset values for the rule summary's timings (docs/1860.md S10,
N2), against the engine's (the defaults): the same corpus export replayed
under both, with the concrete finding, round and state where they part.
The variant file is examples/rulesets/1860-summary-timings.yaml."""

import gzip
from pathlib import Path

from click.testing import CliRunner

from railcheck.cli import main
from railcheck.engine import Replay
from railcheck.importer import import_export

from conftest import DATA, REPO, export_record

SUMMARY = REPO / "examples" / "rulesets" / "1860-summary-timings.yaml"


def export(name: str) -> str:
    with gzip.open(DATA / "exports" / "1860_random" / f"{name}.json.gz", "rt",
                   encoding="utf-8") as fh:
        return fh.read()


def variant(tmp_path: Path, body: str) -> str:
    path = tmp_path / "variant.yaml"
    path.write_text(f'title: "1860-variant"\nextends: "1860"\n{body}\n', encoding="utf-8")
    return str(path)


def replay(name: str, ruleset=None, last=None):
    return Replay(export_record("1860_random", name, last, ruleset), check_purity=True).run()


# ---------------------------------------------------------------------------
# S10: sections_open

def test_a_section_opened_in_this_stock_round_is_bought_from_the_next_under_next_sr(tmp_path):
    """Random 18602_6, SR 2: Player 1 buys IOW's last IPO share (#37), which
    opens section 2 at once on the site; Player 2 pars IWNJ at 62 (#38) and,
    after selling it, FYN at 82 (#43), both of section 2.  Under the
    summary's timing both pars are flagged (only section 1 is open until the
    next stock round) and made as recorded, so the game goes on as played:
    the same end and scores."""
    default = replay("1860_rand_18602_6")
    assert default.findings == []
    summary = replay("1860_rand_18602_6", variant(tmp_path, "sections_open: next_sr"))
    assert [(f.action_id, f.rule) for f in summary.findings] == [(38, "stock.section"),
                                                                  (43, "stock.section")]
    assert summary.findings[0].message == (
        "IWNJ is in section 2, which opened during this stock round; under sections_open: "
        "next_sr only sections up to 1 are open until the next stock round")
    assert summary.findings[1].message.startswith("FYN is in section 2")
    for r in (default, summary):
        assert r.finished and r.end_reason == "nationalization"
        assert [row["net_worth"] for row in r.standings] == [11637, 10076]


def test_the_par_is_made_as_recorded_and_the_next_stock_round_opens_the_section(tmp_path):
    """After #38 under next_sr: IWNJ is parred at 62 (Player 2 paid 124) though
    flagged; the round still holds section 1 as open, the test section 2."""
    ruleset = variant(tmp_path, "sections_open: next_sr")
    r = replay("1860_rand_18602_6", ruleset, last=38)
    g = r.game
    iwnj = g.corporations["IWNJ"]
    assert iwnj.par.price == 62 and iwnj.percent_of(g.players[1]) == 20
    assert (g.round.kind, g.sr_number, g.round.sections_open) == ("SR", 2, 1)
    from railcheck.titles.g1860.stock import current_section, open_section
    assert (current_section(g), open_section(g)) == (2, 1)
    # the default: the section is open at once
    d = replay("1860_rand_18602_6", last=38).game
    assert open_section(d) == 2 and d.corporations["IWNJ"].par.price == 62


def test_a_section_not_open_under_either_timing_is_refused_as_before(tmp_path):
    """A par of section 3 in SR 2 of 18602_6 (section 2 just opened) is
    refused under both values: nothing changes."""
    record, _ = import_export(export("1860_rand_18602_6"), "1860_rand_18602_6")
    act = next(a for a in record.actions if a.action_id == 38)
    act.corporation = "NGStL"       # section 3
    record.actions = [a for a in record.actions if a.action_id <= 38]
    record.expected_result = record.expected_end_reason = None
    record.ruleset = variant(tmp_path, "sections_open: next_sr")
    r = Replay(record, check_purity=True).run()
    assert [(f.action_id, f.rule, f.message) for f in r.findings] == [
        (38, "stock.section", "NGStL is in section 3; only sections up to 2 are open")]
    assert not r.game.corporations["NGStL"].ipoed


# ---------------------------------------------------------------------------
# N2: nationalisation.test_from

def test_nationalisation_waits_for_the_end_of_the_set_under_after_set(tmp_path):
    """Random 18602_1: IOW buys the first 9+5 in OR 13.1 (#439).  On the site
    (the default) the test runs from then on and nationalisation begins at
    the end of OR 13.3, so OR 13.4 follows (#476 on).  Under the summary's
    timing the set OR 13.1-13.3 ends first: SR 14 is next, with no
    nationalisation, and the export's next operating action is out of
    place."""
    ruleset = variant(tmp_path, "nationalisation: {test_from: after_set}")
    d = replay("1860_rand_18602_1", last=475).game
    assert d.title.state.southern and d.title.state.nationalised
    assert (d.round.kind, d.or_number) == ("OR", 4)
    s = replay("1860_rand_18602_1", ruleset, last=475).game
    assert s.title.state.southern and s.title.state.southern_set_over
    assert not s.title.state.nationalised
    assert (s.round.kind, s.sr_number) == ("SR", 14)
    # before the end of the set both agree: the Southern Railway formed,
    # no nationalisation yet
    for rules in (None, ruleset):
        g = replay("1860_rand_18602_1", rules, last=440).game
        assert g.title.state.southern and not g.title.state.nationalised
        assert (g.round.kind, g.or_number) == ("OR", 2)
    full = replay("1860_rand_18602_1", ruleset)
    first = full.findings[0]
    assert (first.action_id, first.rule) == (476, "round.out_of_place")
    assert "SR 14" in first.message
    assert replay("1860_rand_18602_1").findings == []


def test_the_example_ruleset_is_accepted_and_plays_the_example_game():
    res = CliRunner().invoke(main, ["validate", "-q", "--ruleset", str(SUMMARY),
                                    str(REPO / "examples" / "1860" / "game.18xx")])
    assert res.exit_code == 0, res.output
    assert "1860-summary-timings (ruleset" in res.output and "legal" in res.output
    res = CliRunner().invoke(main, ["rules", "show", str(SUMMARY)])
    assert res.exit_code == 0
    assert "sections_open: a section opens from the next stock round" in res.output


def test_a_par_outside_the_range_taken_as_written_is_also_flagged_for_its_section(tmp_path):
    """Under next_sr, #38 of 18602_6 changed to IWNJ at 100 (not a par of
    section 2, 62 to 82, but a par of the market): flagged and taken at £100
    as written; the par is made, so the section's timing (section 2 opened
    in this stock round) is flagged too: two rules broken at one line."""
    record, _ = import_export(export("1860_rand_18602_6"), "1860_rand_18602_6")
    next(a for a in record.actions if a.action_id == 38).price = 100
    record.actions = [a for a in record.actions if a.action_id <= 38]
    record.expected_result = record.expected_end_reason = None
    record.ruleset = variant(tmp_path, "sections_open: next_sr")
    r = Replay(record, check_purity=True).run()
    assert [(f.action_id, f.rule, f.message) for f in r.findings] == [
        (38, "stock.par_price", "£100 is not a par value of IWNJ's section 2 (£62 to £82); "
                                "taken as par £100, as the record says"),
        (38, "stock.section", "IWNJ is in section 2, which opened during this stock round; "
                              "under sections_open: next_sr only sections up to 1 are open "
                              "until the next stock round")]
    assert r.game.corporations["IWNJ"].ipoed and r.game.corporations["IWNJ"].par.price == 100
