"""The analyser (railcheck/analysis/): history, league table, charts, HTML
report and hindsight routes, with numbers checked against the 18xx.games
trace and by hand."""

import csv
import io
import json
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from railcheck.analysis.history import history_of, render_csv
from railcheck.analysis.hindsight import hindsight
from railcheck.cli import main

from conftest import DATA, REPO, load_trace

GAME = str(REPO / "examples" / "1830" / "game.18xx")
GAME_1857 = str(REPO / "examples" / "1857" / "game.18xx")
OPENING = str(REPO / "examples" / "1830" / "opening.18xx")
ILLEGAL = str(REPO / "examples" / "1830" / "illegal" / "revenue-claim.18xx")
EXPORT = str(DATA / "exports" / "1830" / "1830_game_end_bank.json")
# the example is the trace's game with the players renamed
NAMES = {"Player 1": "Alice", "Player 2": "Bob", "Player 3": "Carol"}


def run(*args):
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def hist():
    return history_of(GAME)


def _last_state_of(trace, label):
    return [s for s in trace["states"] if s["round"] == label][-1]


# ----------------------------------------------------------------------
# history

def test_history_rows_are_the_round_boundaries(hist):
    labels = [r.round for r in hist.rows]
    assert labels[:6] == ["auction", "SR 1", "OR 1.1", "SR 2", "OR 2.1", "SR 3"]
    assert labels[-1] == "OR 9.3" and hist.rows[-1].boundary == "end"
    assert len(labels) == len(set(labels)) == 29
    assert hist.incomplete == ""


def test_history_after_or_1_1_matches_the_site_trace(hist):
    trace = load_trace("1830", "1830_game_end_bank")
    site = _last_state_of(trace, "Operating 1.1")
    row = next(r for r in hist.rows if r.round == "OR 1.1")
    # the figures, as the site has them
    assert row.bank == site["bank"] == 9170
    assert {NAMES[k]: v for k, v in site["players"].items()} == \
        {p: row.players[p]["cash"] for p in NAMES.values()} == \
        {"Alice": 60, "Bob": 70, "Carol": 100}
    assert {k: v["price"] for k, v in site["corporations"].items()} == \
        {k: v["price"] for k, v in row.companies.items()} == {"PRR": 90, "B&O": 90, "NYNH": 90}
    assert {k: v["cash"] for k, v in site["corporations"].items()} == \
        {k: v["treasury"] for k, v in row.companies.items()} == \
        {"PRR": 920, "B&O": 760, "NYNH": 920}
    assert row.companies["B&O"]["trains"] == ["2", "2"]
    # net worth by hand, shares at $90 and privates at face value:
    # Alice $60 + (6 NYNH + 1 PRR) x $90 + CS $40 = $730
    # Bob   $70 + 6 PRR x $90 + DH $70 + CA $160 = $840
    # Carol $100 + 6 B&O x $90 + SV $20 + MH $110 = $770
    assert {p: row.players[p]["shares"] for p in NAMES.values()} == \
        {"Alice": 630, "Bob": 540, "Carol": 540}
    assert {p: row.players[p]["privates"] for p in NAMES.values()} == \
        {"Alice": 40, "Bob": 230, "Carol": 130}
    assert {p: row.players[p]["net_worth"] for p in NAMES.values()} == \
        {"Alice": 730, "Bob": 840, "Carol": 770}
    assert row.phase == "2"


def test_history_at_the_end_matches_the_site_trace(hist):
    trace = load_trace("1830", "1830_game_end_bank")
    site = trace["states"][-1]
    row = hist.rows[-1]
    assert row.bank == site["bank"] == -5122
    assert {p: row.players[p]["cash"] for p in NAMES.values()} == \
        {NAMES[k]: v for k, v in site["players"].items()} == \
        {"Alice": 5625, "Bob": 5748, "Carol": 5609}
    assert {k: v["price"] for k, v in row.companies.items()} == \
        {k: v["price"] for k, v in site["corporations"].items()} == \
        {"PRR": 350, "NYC": 200, "B&O": 350, "C&O": 250, "ERIE": 300, "NYNH": 350, "B&M": 300}
    assert {p: row.players[p]["net_worth"] for p in NAMES.values()} == \
        {NAMES[k]: v for k, v in trace["final"].items()} == \
        {"Alice": 12025, "Bob": 13048, "Carol": 12109}
    assert row.phase == "D"


def test_history_revenue_and_dividend_of_an_operating_round(hist):
    row = next(r for r in hist.rows if r.round == "OR 2.1")
    # B&O ran two 2-trains for $90 and paid out $9 a share: players hold 60%
    # (6 x $9 = $54); the IPO's shares pay nobody in 1830
    assert row.companies["B&O"]["revenue"] == 90
    assert row.companies["B&O"]["dividend"] == 54
    assert row.companies["B&O"]["dividend_kind"] == "payout"
    # PRR: $30, $3 a share; players hold 70% (Bob 60%, Alice 10%): 7 x $3
    assert row.companies["PRR"]["revenue"] == 30 and row.companies["PRR"]["dividend"] == 21
    # a stock round has no revenue
    sr = next(r for r in hist.rows if r.round == "SR 3")
    assert all(c["revenue"] is None for c in sr.companies.values())


def test_history_csv_has_the_documented_columns(hist):
    text = render_csv(hist)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 29
    head = text.splitlines()[0].split(",")
    assert head[:8] == ["step", "round", "boundary", "action_id", "line", "phase", "bank",
                        "errors"]
    assert "Alice:net_worth" in head and "B&M:dividend" in head
    last = rows[-1]
    assert last["Bob:net_worth"] == "13048" and last["bank"] == "-5122"
    assert last["PRR:trains"] == "D"
    doc = (REPO / "docs" / "history.md").read_text()
    for col in head[:8] + ["PLAYER:cash", "PLAYER:shares", "PLAYER:privates",
                           "PLAYER:net_worth", "COMPANY:price", "COMPANY:treasury",
                           "COMPANY:trains", "COMPANY:revenue", "COMPANY:dividend"]:
        assert f"`{col}`" in doc, col


def test_history_every_action_of_an_export():
    res = run("history", EXPORT, "--every", "action", "--format", "json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    rows = data["rows"]
    assert len(rows) > 500
    assert all(r["boundary"] in ("action", "end") for r in rows)
    assert rows[-1]["boundary"] == "end"
    assert {p: v["net_worth"] for p, v in rows[-1]["players"].items()} == \
        {"Player 1": 12025, "Player 2": 13048, "Player 3": 12109}
    # the first rows are the auction's bids, by id
    assert rows[0]["action_id"] == 1 and rows[0]["round"] == "auction"


def test_history_of_a_game_with_findings_goes_as_far_as_the_replay():
    h = history_of(ILLEGAL)
    assert [r.round for r in h.rows] == ["auction", "SR 1", "OR 1.1", "SR 2", "OR 2.1"]
    assert h.rows[-1].errors == 1 and h.rows[-2].errors == 0     # one per rule broken
    assert "ends before the game does" in h.incomplete
    res = run("history", ILLEGAL)
    assert res.exit_code == 1       # done; the game has an illegal action
    assert "OR 2.1 (end) *" in res.output
    assert "* after the illegal action (the replay skipped what it refused)" in res.output


def test_history_refuses_to_write_over_the_input_and_an_unwritable_path(tmp_path):
    game = tmp_path / "g.18xx"
    shutil.copy(GAME, game)
    res = run("history", str(game), "-o", str(game), "--force")
    assert res.exit_code == 2 and "refusing to write" in res.output
    assert game.read_text() == Path(GAME).read_text()
    res = run("history", GAME, "-o", str(tmp_path / "no" / "such" / "dir" / "h.csv"),
              "--format", "csv")
    assert res.exit_code == 2 and "cannot write" in res.output
    out = tmp_path / "h.csv"
    assert run("history", GAME, "--format", "csv", "-o", str(out)).exit_code == 0
    assert run("history", GAME, "--format", "csv", "-o", str(out)).exit_code == 2
    assert run("history", GAME, "--format", "csv", "-o", str(out), "--force").exit_code == 0


def test_history_of_a_missing_file_is_a_message():
    res = run("history", "no/such/game.18xx")
    assert res.exit_code == 2 and "no such file" in res.output


# ----------------------------------------------------------------------
# league

@pytest.fixture
def three_games(tmp_path):
    folder = tmp_path / "league"
    folder.mkdir()
    shutil.copy(GAME, folder / "a.18xx")
    shutil.copy(GAME_1857, folder / "b.18xx")
    res = run("import", str(DATA / "exports" / "1830" / "29133.json"),
              "--rename", "Player 1=Alice", "--rename", "Player 2=Bob",
              "--rename", "Player 3=Carol", "--rename", "Player 4=Dave",
              "-o", str(folder / "c.18xx"))
    assert res.exit_code == 0, res.output
    return folder


def test_league_of_three_games_by_hand(three_games):
    # a (1830): Bob 13048, Carol 12109, Alice 12025; total 37182
    # b (1857): Dave 8982, Bob 8586, Carol 8201, Alice 6644; total 32413
    # c (1830 #29133): Bob 1477, Carol 951, Alice 887, Dave 416; total 3731
    # shares (per mille, rounded): Bob 351, 265, 396 -> 337.3 -> 33.7%
    # Carol 326, 253, 255 -> 278 -> 27.8%; Alice 323, 205, 238 -> 255.3 -> 25.5%
    # Dave 277, 111 -> 194 -> 19.4%
    res = run("league", str(three_games), "--format", "json")
    assert res.exit_code == 0, res.output
    table = json.loads(res.output)["table"]
    got = [(e["player"], e["games"], e["wins"], e["average_rank"], e["average_share"],
            Path(e["best_game"]).name, e["best_share"], e["best_net_worth"]) for e in table]
    assert got == [
        ("Bob", 3, 2, 1.33, 33.7, "c.18xx", 39.6, 1477),
        ("Dave", 2, 1, 2.5, 19.4, "b.18xx", 27.7, 8982),
        ("Carol", 3, 0, 2.33, 27.8, "a.18xx", 32.6, 12109),
        ("Alice", 3, 0, 3.33, 25.5, "a.18xx", 32.3, 12025),
    ]


def test_league_csv_and_plays_and_unfinished_games(three_games):
    shutil.copy(OPENING, three_games / "d.18xx")
    res = run("league", str(three_games), "--format", "csv")
    assert res.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(res.output)))
    assert rows[0] == {"rank": "1", "player": "Bob", "games": "3", "wins": "2",
                       "average_rank": "1.33", "average_share": "33.7",
                       "best_game": str(three_games / "c.18xx"), "best_share": "39.6",
                       "best_net_worth": "1477", "games_with_illegal_actions": "0"}
    res = run("league", str(three_games), "--format", "csv", "--plays")
    plays = list(csv.DictReader(io.StringIO(res.output)))
    assert len(plays) == 3 + 4 + 4
    assert plays[0] == {"game": str(three_games / "a.18xx"), "title": "1830", "date": "",
                        "player": "Bob", "score": "13048", "rank": "1", "won": "1",
                        "players": "3", "illegal_actions": "0"}
    res = run("league", str(DATA / "exports" / "1830"), "--format", "csv", "--plays")
    dates = {Path(r["game"]).name: r["date"] for r in csv.DictReader(io.StringIO(res.output))}
    assert dates == {"1830_game_end_bank.json": "2025-05-26", "26855.json": "2021-02-08",
                     "29133.json": "2021-02-20", "rl18xx_game.json": "2024-02-18"}
    res = run("league", str(three_games))
    assert "not counted: " + str(three_games / "d.18xx") in res.output
    assert "did not finish" in res.output


# ----------------------------------------------------------------------
# charts

def test_plot_writes_svg_and_png(tmp_path):
    pytest.importorskip("matplotlib")
    for name in ("c.svg", "c.png"):
        res = run("plot", GAME, "-o", str(tmp_path / name))
        assert res.exit_code == 0, res.output
    assert (tmp_path / "c.svg").read_text().lstrip().startswith(("<?xml", "<svg"))
    assert (tmp_path / "c.png").read_bytes()[:4] == b"\x89PNG"


def test_plot_refuses_unknown_charts_and_formats(tmp_path):
    res = run("plot", GAME, "--what", "money", "-o", str(tmp_path / "c.svg"))
    assert res.exit_code == 2 and "--what 'money'" in res.output and "networth" in res.output
    res = run("plot", GAME, "-o", str(tmp_path / "c.pdf"))
    assert res.exit_code == 2 and "SVG or PNG" in res.output


def test_plot_without_matplotlib_names_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    res = run("plot", GAME, "-o", str(tmp_path / "c.svg"))
    assert res.exit_code == 2
    assert "pip install 'railcheck[plots]'" in res.output


def test_the_checker_does_not_import_the_analyser_s_libraries():
    code = ("import sys, railcheck.cli; "
            "print(sorted(m for m in ('matplotlib', 'jinja2') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_chart_series_use_the_published_colours(hist):
    from railcheck.analysis.charts import charts
    prices = charts(hist, "prices")[0]
    colors = {s.name: s.color for s in prices.series}
    assert colors["PRR"] == "#32763f" and colors["B&O"] == "#025aaa"
    assert prices.xlabels[0] == "OR 1.1" and prices.xlabels[-1] == "OR 9.3"
    # phase changes marked where the phase first differs: 3 at OR 3.1, D at OR 6.3
    assert [(prices.xlabels[i], name) for i, name in prices.phases] == [
        ("OR 3.1", "3"), ("OR 5.1", "4"), ("OR 5.2", "5"), ("OR 6.2", "6"), ("OR 6.3", "D")]


# ----------------------------------------------------------------------
# HTML report

class _Page(HTMLParser):
    """Collects element ids, classes, data- attributes and text."""

    def __init__(self):
        super().__init__()
        self.ids, self.classes, self.data, self.text = set(), [], [], []
        self.links, self.scripts, self.external = [], 0, []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        for c in (a.get("class") or "").split():
            self.classes.append(c)
        for k, v in a.items():
            if k.startswith("data-"):
                self.data.append((tag, k, v))
        if tag == "a":
            self.links.append(a.get("href"))
        if tag == "script":
            self.scripts += 1
        for k in ("src", "href"):
            v = a.get(k) or ""
            if v.startswith(("http:", "https:", "//")):
                self.external.append(v)

    def handle_data(self, data):
        self.text.append(data)


def _parse(path) -> _Page:
    p = _Page()
    p.feed(Path(path).read_text(encoding="utf-8"))
    p.all_text = "".join(p.text)
    return p


def test_report_pages_hold_every_finding_standing_and_chart(tmp_path):
    out = tmp_path / "rep"
    res = run("report", GAME, ILLEGAL, "-o", str(out))
    assert res.exit_code == 1, res.output       # done; a game has illegal actions
    assert sorted(f.name for f in out.iterdir()) == ["game.html", "index.html",
                                                    "revenue-claim.html"]
    page = _parse(out / "revenue-claim.html")
    assert not page.external and page.scripts == 0           # self-contained
    # the inline style sheet is CSS, not HTML-escaped text
    raw = (out / "revenue-claim.html").read_text(encoding="utf-8")
    assert "font-family: 'Segoe UI'" in raw and "&#39;Segoe" not in raw
    # the finding (one per rule broken: the total, with the run that is
    # wrong), with its rule, line in context and the rule explained
    assert "finding-1" in page.ids and "finding-2" not in page.ids
    assert [v for t, k, v in page.data if k == "data-rule"] == ["route.revenue"]
    assert ("B&O's runs are worth $90, but $100 was claimed (the 2-train's run I15-J14 is "
            "worth $50, not the $60 claimed)") in page.all_text
    assert "  74  B&O run 2 I15-I19 (40), 2 I15-J14 (60) = 100" in page.all_text
    assert "  73  B&O pass" in page.all_text
    assert page.all_text.count("The rule:") == 1
    assert page.classes.count("hit") == 1
    # standings: every player, the replay's net worth
    standings = [v for t, k, v in page.data if k == "data-player"]
    assert standings == ["Bob", "Carol", "Alice"]
    assert "$880" in page.all_text
    # companies and the three charts, and the boards (end + one per finding)
    assert [v for t, k, v in page.data if k == "data-company"] == ["PRR", "B&O", "NYNH"]
    charts = [v for t, k, v in page.data if k == "data-chart" and t == "svg"]
    assert charts == ["networth", "prices", "revenue"]
    assert page.classes.count("board") == 2        # the end, and the finding's
    assert page.classes.count("token") >= 3
    assert "incomplete" in page.ids and "1 illegal action —" in page.all_text
    # the legal game: no findings, standings as the site scored them
    legal = _parse(out / "game.html")
    assert "No illegal action found." in legal.all_text
    assert "$13,048" in legal.all_text and "won by Bob" in legal.all_text
    # the index: one row per game, and the league table
    index = _parse(out / "index.html")
    assert index.links.count("game.html") >= 1 and "revenue-claim.html" in index.links
    assert index.classes.count("game") == 2
    assert [v for t, k, v in index.data if k == "data-player"] == ["Bob", "Carol", "Alice"]
    assert "Not counted: " + ILLEGAL in index.all_text


def test_report_never_overwrites_without_force_and_never_an_input(tmp_path):
    out = tmp_path / "rep"
    assert run("report", GAME, "-o", str(out)).exit_code == 0
    res = run("report", GAME, "-o", str(out))
    assert res.exit_code == 2 and "--force" in res.output
    assert run("report", GAME, "-o", str(out), "--force").exit_code == 0
    # a file where the folder should be
    blocker = tmp_path / "file"
    blocker.write_text("x")
    res = run("report", GAME, "-o", str(blocker))
    assert res.exit_code == 2 and "is a file" in res.output
    # an unreadable game gets a page that says why, and the run fails
    bad = tmp_path / "bad.18xx"
    bad.write_text("garbage\n")
    res = run("report", str(bad), GAME, "-o", str(tmp_path / "rep2"))
    assert res.exit_code == 2 and "missing header line 'title:'" in res.output
    page = _parse(tmp_path / "rep2" / "bad.html")
    assert "unreadable" in page.ids
    assert "missing header line 'title:'" in page.all_text


def test_plot_to_an_unwritable_path_is_a_message(tmp_path):
    pytest.importorskip("matplotlib")
    res = run("plot", GAME, "-o", str(tmp_path / "no" / "such" / "c.svg"))
    assert res.exit_code == 2 and "cannot write" in res.output


def test_report_with_hindsight_routes(tmp_path):
    res = run("report", GAME, "-o", str(tmp_path), "--routes")
    assert res.exit_code == 0, res.output
    page = _parse(tmp_path / "game.html")
    assert "hindsight" in page.ids
    assert page.classes.count("run") == 99


# ----------------------------------------------------------------------
# hindsight

def test_hindsight_finds_the_better_runs_of_the_example():
    runs = hindsight(GAME, limit=5)
    assert len(runs) == 99
    assert not any(r.gave_up for r in runs)
    # the search never finds less than a run the checker accepted
    assert all(r.best >= r.claimed for r in runs), \
        [(r.round, r.corporation, r.claimed, r.best) for r in runs if r.best < r.claimed]
    better = [(r.round, r.corporation, r.claimed, r.best, r.best_routes) for r in runs
              if r.missed]
    assert better == [
        ("OR 3.1", "B&O", 90, 100, [("2", ["I15", "J14"]), ("2", ["J14", "K13"])]),
        ("OR 6.2", "B&O", 320, 340, [("3", ["I15", "H16", "H18.0"]),
                                     ("4", ["I15", "H16", "G17.1", "G19.0"])]),
    ]
    assert all(r.note == "" for r in runs)


def test_hindsight_gives_up_after_its_limit_and_says_so():
    runs = hindsight(EXPORT, limit=1e-6)
    gave_up = [r for r in runs if r.gave_up]
    assert gave_up
    assert all(r.note.startswith("stopped at its budget of steps (1e-06 s' worth)")
               for r in gave_up)
    # the limit is a budget of steps, not of seconds: the same runs on any
    # machine, however loaded
    again = hindsight(EXPORT, limit=1e-6)
    assert [(r.best, r.gave_up) for r in again] == [(r.best, r.gave_up) for r in runs]
    res = run("history", GAME, "--routes", "--route-limit", "5")
    assert res.exit_code == 0
    assert "Hindsight routes: 99 runs, 2 below the best found, $30 missed in all" in res.output


def test_hindsight_says_when_a_title_s_runs_are_beyond_the_search():
    runs = hindsight(str(DATA / "exports" / "1860" / "19354.json"), limit=1)
    assert len(runs) == 66
    assert all(r.best is None and r.note == (
        "not searched: 1860's runs follow rules of their own (halts and n+m trains, leased "
        "trains, the most a receivership can earn) that the search does not model") for r in runs)
    assert {r.claimed for r in runs if r.round == "OR 2.1" and r.corporation == "C&N"} == {70}
    from railcheck.analysis.hindsight import render_text
    assert render_text(runs).startswith("Hindsight routes: 66 runs, not searched: 1860's runs "
                                        "follow rules of their own (halts")


def test_hindsight_searches_18ireland_s_runs_by_its_own_rules():
    # 18Ireland's own search (titles/g18ireland/best.py), with a budget of
    # steps for the limit; tests/g18ireland/test_best_runs_18ireland.py
    # checks its runs
    export = DATA / "exports" / "18Ireland" / "18Ireland_game_end_bankrupt.json"
    runs = hindsight(str(export), limit=1)
    assert len(runs) == 69
    assert all(r.best is not None and r.note == "" for r in runs)
    assert (sum(1 for r in runs if r.missed), sum(r.missed for r in runs)) == (8, 260)
    assert not any("1860" in r.note for r in runs)


def test_board_picture_draws_stations_in_company_colours(tmp_path):
    svg = tmp_path / "b.svg"
    res = run("show", GAME, "--svg", str(svg))
    assert res.exit_code == 0, res.output
    text = svg.read_text()
    # PRR's home station at H12 (Altoona), in PRR's published green
    assert 'data-corp="PRR" cx=' in text
    assert text.count('fill="#32763f"') >= 1
    assert ">Altoona</tspan>" in text and ">PRR</text>" in text


def test_the_replay_tells_its_observers_each_action_and_each_round_s_end():
    from railcheck.engine import Replay
    from railcheck.loader import load_game

    record, _ = load_game(OPENING)
    ended, rounds_of_actions = [], []
    replay = Replay(record)
    replay.on_round_end = lambda g, rnd: ended.append((rnd.label, g.round is rnd))
    replay.on_action = lambda g, action: rounds_of_actions.append(g.round.label)
    replay.run()
    # each round's end is told while it is still the game's round
    assert ended == [("auction", True), ("SR 1", True), ("OR 1.1", True), ("SR 2", True),
                     ("OR 2.1", True)]
    # the record stops right after OR 2.1 (the rules then begin SR 3)
    assert rounds_of_actions[0] == "auction" and rounds_of_actions[-1] == "OR 2.1"
    assert len(rounds_of_actions) == sum(1 for a in record.actions
                                         if type(a).__name__ not in ("RoundMarker",
                                                                     "Checkpoint"))


def test_history_of_18ireland_and_a_title_without_an_economy(tmp_path):
    # 18Ireland: £ and its 5-share companies; the site's final score of 161830
    hist = history_of(str(DATA / "exports" / "18Ireland" / "161830.json"))
    end = hist.rows[-1]
    assert hist.currency == "£" and end.boundary == "end"
    assert end.players["Player 1"]["net_worth"] == 2109
    # 1890 without its components file keeps no money: a message and exit 2, no traceback
    # (with one, tests/kansai/test_1890_analyser.py)
    kansai = tmp_path / "game.18xx"
    kansai.write_text((REPO / "examples" / "kansai" / "game.18xx").read_text(
        encoding="utf-8").replace("components: components-example.yaml\n", ""),
        encoding="utf-8")
    for args in (["history", str(kansai)], ["plot", str(kansai), "-o", "k.svg"]):
        res = run(*args)
        assert res.exit_code == 2
        assert res.exception is None or isinstance(res.exception, SystemExit)
        assert ("1890 games have no history here: railcheck checks their rules but keeps no "
                "money, prices or standings (starting_cash is unknown in no components "
                "file)") in res.output
