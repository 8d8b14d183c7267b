"""The analyser on 1890 games (docs/1890.md, "The analyser"): history, plot, report (with
the board where the components file gives a map), league and show --svg, from the
checker's ledger; an amount that depends on an unknown number is said to be unknown."""

from pathlib import Path

from click.testing import CliRunner

from railcheck.analysis.history import history_of, render_csv, render_text
from railcheck.cli import main

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "kansai"
GAME = EXAMPLES / "game.18xx"
MAP_GAME = EXAMPLES / "map-game.18xx"


def unknown_train_price(tmp_path) -> Path:
    """The example game with the 3-train's price unknown (M2 buys one in OR 2.1)."""
    comp = (EXAMPLES / "components-example.yaml").read_text(encoding="utf-8")
    old = '  "3":   {price: 180, count: 2}'
    assert old in comp
    (tmp_path / "components-example.yaml").write_text(
        comp.replace(old, '  "3":   {price: unknown, count: 2}'), encoding="utf-8")
    game = tmp_path / "game.18xx"
    game.write_text(GAME.read_text(encoding="utf-8").replace("M2 buy train 3 for 180",
                                                             "M2 buy train 3"),
                    encoding="utf-8")
    return game


def test_history_of_the_example_game():
    hist = history_of(str(GAME))
    assert hist.title == "1890" and hist.currency == "Y"
    assert [r.round for r in hist.rows] == ["auction", "SR 1", "OR 1.1", "SR 2", "OR 2.1",
                                            "SR 3", "OR 3.1", "OR 3.2", "SR 4", "OR 4.1",
                                            "OR 4.2", "OR 4.3"]
    first, end = hist.rows[0], hist.rows[-1]
    # after the auction: the bank 3900 - 3 x 900 + the 425 the privates cost; Aki paid 20
    # (ARIMA) and 60 (HKT) of his 900
    assert first.bank == 1625 and first.players["Aki"]["cash"] == 820
    assert first.players["Aki"]["net_worth"] == 900
    # the end is the standings of `railcheck score`
    assert end.boundary == "end"
    assert {p: v["net_worth"] for p, v in end.players.items()} == {"Aki": 1676, "Ben": 1530,
                                                                  "Chie": 1590}
    assert end.companies["JR"]["price"] == 140 and end.companies["KNR"]["treasury"] == 0
    # JR's and HER's lays cost terrain the file does not give (the map is unknown): their
    # treasuries are known only as at most the ledger's (Y490, Y361), so not given
    assert end.companies["JR"]["treasury"] is None and end.companies["HER"]["treasury"] is None
    # the revenue of each run and the dividend paid to the players, per OR
    or21 = hist.rows[4]
    assert or21.round == "OR 2.1" and or21.companies["JR"]["revenue"] == 40
    assert or21.companies["JR"]["dividend_kind"] == "half"
    csv_text = render_csv(hist)
    assert csv_text.splitlines()[1].startswith("0,auction,round,,19,1,1625,0,820,0,80,900,")


def test_an_amount_that_depends_on_an_unknown_number_is_unknown(tmp_path):
    hist = history_of(str(unknown_train_price(tmp_path)))
    end = hist.rows[-1]
    # KNR's treasury (M2's, after a train of unknown price) decides what Ben adds for
    # KNR's D: Ben's cash, the net worths and the bank are not known from then on
    assert end.bank is None and end.players["Ben"]["cash"] is None
    assert end.players["Aki"]["net_worth"] is None
    assert hist.rows[4].bank is None           # OR 2.1, the 3-train bought
    assert hist.rows[3].bank == 800            # SR 2, before it
    text = render_text(hist)
    assert "OR 4.3 (end)  6        unknown  unknown" in text
    assert text.rstrip().endswith("unknown: an amount that depends on a number the components "
                                  "file leaves unknown (its info findings say which)")
    res = CliRunner().invoke(main, ["league", str(tmp_path / "game.18xx")])
    assert "not counted: " in res.output and "the net worths are not known" in res.output


def test_plot_report_league_and_show(tmp_path):
    runner = CliRunner()
    svg = tmp_path / "chart.svg"
    res = runner.invoke(main, ["plot", str(GAME), "-o", str(svg)])
    assert res.exit_code == 0, res.output
    text = svg.read_text(encoding="utf-8")
    assert "Aki" in text and "KNR" in text
    out = tmp_path / "report"
    res = runner.invoke(main, ["report", str(GAME), str(MAP_GAME), "-o", str(out)])
    assert res.exit_code == 0, res.output
    page, map_page = (out / "game.html").read_text(encoding="utf-8"), \
        (out / "map-game.html").read_text(encoding="utf-8")
    assert "1,676" in page and 'class="board"' not in page      # no map in its file
    assert 'class="board"' in map_page                          # components-board.yaml's map
    res = runner.invoke(main, ["league", str(GAME)])
    assert res.exit_code == 0, res.output
    assert [line.split()[:3] for line in res.output.splitlines()[-3:]] == [
        ["1", "Aki", "1"], ["2", "Chie", "1"], ["3", "Ben", "1"]]
    board = tmp_path / "board.svg"
    res = runner.invoke(main, ["show", str(MAP_GAME), "--svg", str(board)])
    assert res.exit_code == 0, res.output
    assert board.read_text(encoding="utf-8").startswith("<svg")
    assert "C13  Nishinomiya" in res.output


def test_show_draws_the_map_without_the_money(tmp_path):
    # components-board.yaml with its market grid unknown: no money, the board all the same
    comp = (EXAMPLES / "components-board.yaml").read_text(encoding="utf-8")
    i, j = comp.index("  rows:\n"), comp.index("  ledge:")
    (tmp_path / "components-board.yaml").write_text(comp[:i] + "  rows: unknown\n" + comp[j:],
                                                    encoding="utf-8")
    game = tmp_path / "map-game.18xx"
    game.write_text(MAP_GAME.read_text(encoding="utf-8"), encoding="utf-8")
    board = tmp_path / "board.svg"
    res = CliRunner().invoke(main, ["show", str(game), "--svg", str(board)])
    assert res.exit_code == 0, res.output
    assert f"{game} at the end: OR 3.2, phase 4; no money is kept for 1890 here" in res.output
    assert "C13  Nishinomiya" in res.output
    assert board.read_text(encoding="utf-8").startswith("<svg")


def test_show_svg_without_a_map_names_the_components_file(tmp_path):
    # examples/kansai/game.18xx: its components file gives the money but no map; the
    # message names that, not a --no-board the user never gave; nothing is written
    board = tmp_path / "board.svg"
    res = CliRunner().invoke(main, ["show", str(GAME), "--svg", str(board)])
    assert res.exit_code == 2
    assert ("no map to draw: 1890's rules here give none (its components file has no map)"
            in res.output)
    assert "--no-board" not in res.output and not board.exists()
