"""Every command works for 1889 as for the other titles: validate and score of
the bundled game, show with the board's SVG, history, plot, report, league
over the real games, import of an 18xx.games export, and the rules commands
(list, show, explain of the rule ids 1889's examples give).  Each on the one
complete game (examples/1889/game.18xx, the real game 962 written with names
and rounds) or the four real exports, with the site's figures."""

import json
import re

import pytest
from click.testing import CliRunner

from railcheck.analysis.charts import charts
from railcheck.analysis.history import history_of
from railcheck.cli import main

from conftest import DATA, REPO

GAME = REPO / "examples" / "1889" / "game.18xx"
EXPORTS = DATA / "exports" / "1889"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_validate_and_score_give_the_site_s_standings():
    res = run("validate", "--format", "json", GAME)
    assert res.exit_code == 0, res.output
    game = json.loads(res.output)["files"][0]
    assert game["findings"] == [] and game["end_reason"] == "bank"
    assert {r["player"]: r["net_worth"] for r in game["standings"]} == {
        "Bob": 4444, "Carol": 4317, "Alice": 3880, "Dave": 3091}
    res = run("score", GAME)
    assert res.exit_code == 0, res.output
    assert re.search(r"1\s+Bob\s+¥2,039\s+¥2,405\s+¥0\s+¥4,444", res.output)


def test_show_at_a_round_and_its_board_picture(tmp_path):
    svg = tmp_path / "board.svg"
    res = run("show", GAME, "--at", "OR 3.1", "--svg", svg)
    assert res.exit_code == 0, res.output
    assert "OR 3.1, phase 3, bank ¥4321" in res.output
    assert "UR to act (step: laying track)" in res.output
    # the Mitsubishi Ferry's port tile on Nangoku, ER's Ohzu tile laid by its seller
    assert re.search(r"G10\s+Nangoku\s+437\s+r0", res.output)
    assert re.search(r"C4\s+Ohzu\s+14\s+r1", res.output)
    picture = svg.read_text(encoding="utf-8")
    assert "<title>1889: " in picture and "at the start of OR 3.1, phase 3</title>" in picture
    assert picture.count('class="hex"') == 145           # Shikoku's hexes
    assert picture.count('class="tile"') == 10            # the tiles laid by then
    assert "<title>KU (home, not yet placed)</title>" in picture
    assert "Uwajima" in picture and "Kouchi" in picture


def test_history_follows_1889_s_operating_rounds_and_ends_with_the_site_s_figures():
    hist = history_of(str(GAME))
    labels = [r.round for r in hist.rows]
    # phase 3 has two operating rounds, phase 5 three (1889 as 1830)
    assert labels == ["auction", "SR 1", "OR 1.1", "SR 2", "OR 2.1", "OR 2.2", "SR 3",
                      "OR 3.1", "OR 3.2", "SR 4", "OR 4.1", "OR 4.2", "SR 5", "OR 5.1",
                      "OR 5.2", "OR 5.3"]
    end = hist.rows[-1]
    assert end.boundary == "end" and end.phase == "5"
    assert end.players["Bob"]["net_worth"] == 4444 and end.players["Dave"]["cash"] == 1291
    assert end.companies["IR"]["treasury"] == 189 and end.companies["UR"]["price"] == 175
    # KU's 10% left in the IPO keeps its share of the ¥250: ¥225 paid to the players
    assert (end.companies["KU"]["revenue"], end.companies["KU"]["dividend"]) == (250, 225)
    res = run("history", GAME)
    assert res.exit_code == 0, res.output
    assert "1889, 16 rows" in res.output


def test_charts_use_1889_s_colours_phases_and_yen(tmp_path):
    prices = charts(history_of(str(GAME)), "prices")[0]
    assert prices.currency == "¥"
    assert {s.name: s.color for s in prices.series} == {
        "AR": "#37383a", "IR": "#f48221", "SR": "#76a042", "KO": "#d81e3e",
        "TR": "#00a993", "KU": "#0189d1", "UR": "#6f533e"}
    assert [(prices.xlabels[i], name) for i, name in prices.phases] == [
        ("OR 3.1", "4"), ("OR 4.1", "5")]
    pytest.importorskip("matplotlib")
    res = run("plot", GAME, "--what", "prices", "-o", tmp_path / "charts.svg")
    assert res.exit_code == 0, res.output
    assert (tmp_path / "charts.svg").read_text(encoding="utf-8").startswith("<?xml")


def test_report_page_with_the_board_and_the_hindsight_runs(tmp_path):
    res = run("report", GAME, "-o", tmp_path, "--routes")
    assert res.exit_code == 0, res.output
    page = (tmp_path / "game.html").read_text(encoding="utf-8")
    assert page.count('class="hex"') >= 145 and "¥4,444" in page
    # every operating turn's best runs, with the D-train's diesel values known
    assert 'id="hindsight"' in page and page.count('class="run"') == 48


def test_league_over_the_real_games_counts_314_with_its_one_illegal_action():
    res = run("league", "--format", "json", EXPORTS)
    assert res.exit_code == 1, res.output          # 314's run through a full city
    table = json.loads(res.output)
    rows = {r["player"]: r for r in table["table"]}
    assert (rows["Player 5"]["games"], rows["Player 5"]["wins"]) == (2, 2)
    assert (rows["Player 2"]["games"], rows["Player 2"]["wins"]) == (4, 2)
    assert rows["Player 1"]["wins"] == 0
    assert rows["Player 2"]["games_with_illegal_actions"] == 1


@pytest.mark.parametrize("name", ["962", "314"])
def test_import_then_validate_matches_the_export(name, tmp_path):
    out = tmp_path / f"{name}.18xx"
    res = run("import", EXPORTS / f"{name}.json", "-o", out)
    assert res.exit_code == (0 if name == "962" else 1), res.output     # the exit-code rule
    text = out.read_text(encoding="utf-8")
    assert text.startswith("title: 1889\n")
    direct = json.loads(run("validate", "--format", "json", EXPORTS / f"{name}.json").output)
    again = json.loads(run("validate", "--format", "json", out).output)
    direct, again = direct["files"][0], again["files"][0]
    assert direct["standings"] == again["standings"]
    assert direct["companies"] == again["companies"]
    assert [f["rule"] for f in direct["findings"]] == [f["rule"] for f in again["findings"]]
    assert [f["rule"] for f in again["findings"]] == ([] if name == "962" else ["route.blocked"])
    if name == "962":
        # MF's port in TR's turn and ER's Ohzu tile by its seller, in notation
        assert "\nMF lay 437 G10 r0  #@39\n" in text and "\nER lay 14 C4 r1  #@64\n" in text


def test_rules_list_show_and_explain_know_1889():
    res = run("rules", "list")
    assert re.search(r"1889\s+Shikoku 1889\s+2-6\s+1830", res.output)
    res = run("rules", "show", "1889")
    assert res.exit_code == 0, res.output
    assert "par values: ¥65, ¥70, ¥75, ¥80, ¥90, ¥100" in res.output
    assert "UTF" in res.output and "open_while_player_owned" in res.output
    # the players each private needs: SIR 3 or more, UTF 4 or more
    assert re.search(r"SIR\s+South Iyo Railway\s+¥80\s+¥20\s+-\s+-\s+3\+", res.output)
    assert re.search(r"\n UTF .* 4\+\n|\nUTF .* 4\+\n", res.output)
    assert re.search(r"\nTR\s+Takamatsu E-Railroad .* all\n", res.output)
    for rule, text in [("private.window", "Mitsubishi Ferry"),
                       ("private.not_in_game", "Uno-Takamatsu Ferry"),
                       ("emergency.presidency", "in 1889 they may cost him no presidency"),
                       ("emergency.source", "1889"),
                       ("tile.special", "port tile 437"),
                       ("stock.sell_blocks", "1889"),
                       ("private.trade_phase", "1889: never")]:
        res = run("rules", "explain", rule)
        assert res.exit_code == 0 and text in " ".join(res.output.split()), (rule, res.output)


def test_a_house_rule_extending_1889(tmp_path):
    house = tmp_path / "1889-float-60.yaml"
    house.write_text('title: "1889-float-60"\nextends: "1889"\nstock:\n  float_percent: 60\n',
                     encoding="utf-8")
    res = run("rules", "show", house)
    assert res.exit_code == 0, res.output
    # its one difference, without 1889's own note on its stock section (1889 against 1830)
    assert res.output.endswith("differences from 1889:\n  - stock: stock.float_percent: 50 -> 60\n")
    res = run("validate", "--ruleset", house, GAME)
    assert res.exit_code == 1
    assert f"1889-float-60 (ruleset {house}, extends 1889)" in res.output
    # nobody floats at 60% in SR 1 (the presidents bought 50%): no operating round follows
    assert (":45:1: error [round.marker] the record says 'OR 1.1' here, but the rules make "
            "this SR 3 (phase 2: 1 OR per set)") in res.output
