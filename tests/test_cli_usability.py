"""The command line as a new user meets it (the usability issue): outputs
never over an input, unsupported titles, folder runs that print as they go,
the finding form, folded consequential findings, CI outputs of one run,
standard input, ``show --at``, ``score`` of an illegal game."""

import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from railcheck import cli
from railcheck.cli import main, run_checks
from railcheck.findings import ERROR, Finding
from railcheck.report import FileReport, TextOptions, TextReporter

from conftest import EXPORTS_1830, REPO

GAME = next(p for p in EXPORTS_1830 if p.stem == "26855")
TRAIN_LIMIT = REPO / "examples" / "1830" / "illegal" / "train-limit.18xx"
EXAMPLE = REPO / "examples" / "1830" / "game.18xx"


def run(*args, input=None):
    res = CliRunner().invoke(main, [str(a) for a in args], input=input)
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output
    return res


@pytest.fixture(scope="module")
def notation(tmp_path_factory):
    out = tmp_path_factory.mktemp("n") / "26855.18xx"
    assert run("import", GAME, "-o", out).exit_code == 0
    return out


@pytest.fixture(scope="module")
def illegal(notation, tmp_path_factory):
    """26855 in notation with action 32 (Player 3's NYC share) also bought by
    Player 4 out of turn (line 39), Player 3 then buying his own: an extra
    purchase, not a wrong name (a pass of Player 3's after it would be his
    turn's closing pass, and the line his, misnamed)."""
    lines = notation.read_text(encoding="utf-8").splitlines(keepends=True)
    idx = next(i for i, l in enumerate(lines) if l.rstrip().endswith("#@32"))
    own = lines[idx].split("#@")[0].rstrip() + "\n"
    lines[idx] = lines[idx].replace('"Player 3"', '"Player 4"', 1)
    lines.insert(idx + 1, own)
    path = tmp_path_factory.mktemp("ill") / "out-of-turn.18xx"
    path.write_text("".join(lines), encoding="utf-8")
    assert idx + 1 == 39
    return path


def export_with(tmp_path, name, change):
    data = json.loads(GAME.read_text())
    change(data)
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


# ---------------------------------------------------------------------------
# import --rename and names the notation cannot hold

def test_rename_to_a_name_with_a_double_quote(tmp_path):
    out = tmp_path / "g.18xx"
    res = run("import", GAME, "--rename", 'Player 1=Al "X" Y', "-o", out)
    assert res.exit_code == 2
    assert ("Invalid value for --rename: 'Al \"X\" Y' cannot be written in the notation: a "
            "name may not hold a double quote or a line break") in res.output
    assert not out.exists()


def test_export_whose_player_name_has_a_double_quote(tmp_path):
    def rename(d):
        d["players"][0]["name"] = 'Al "X" Y'
    path = export_with(tmp_path, "quote.json", rename)
    res = run("import", path)
    assert res.exit_code == 2
    assert res.output == (f"error: {path}: the player name 'Al \"X\" Y' cannot be written in "
                          f"the notation (a name may not hold a double quote or a line break); "
                          f"give it another with --rename 'Al \"X\" Y=NEW NAME'\n")
    res = run("import", path, "--rename", 'Al "X" Y=Al')
    assert res.exit_code == 0
    assert res.stdout.splitlines()[1] == 'players: Al, "Player 2", "Player 3", "Player 4"'


def test_rename_to_another_players_name(tmp_path):
    out = tmp_path / "g.18xx"
    res = run("import", GAME, "--rename", "Player 1=Player 2", "-o", out)
    assert res.exit_code == 2
    assert ("Invalid value for --rename: two players would be called 'Player 2' ('Player 1' "
            "and 'Player 2'); each player needs a name of their own") in res.output
    assert not out.exists()
    # a swap is fine
    res = run("import", GAME, "--rename", "Player 1=Player 2", "--rename", "Player 2=Player 1")
    assert res.exit_code == 0
    assert res.stdout.splitlines()[1] == 'players: "Player 2", "Player 1", "Player 3", "Player 4"'


# ---------------------------------------------------------------------------
# every output: never an input (even with --force), --force to replace

def test_show_svg_never_over_the_game_log(tmp_path, notation):
    game = Path(shutil.copy(notation, tmp_path / "game.18xx"))
    before = game.read_bytes()
    res = run("show", game, "--svg", game, "--force")
    assert res.exit_code == 2
    assert res.output == (f"error: refusing to write the SVG drawing over the game log {game}, "
                          f"an input of this command (not even with --force)\n")
    assert game.read_bytes() == before


def test_validate_output_asks_before_replacing(tmp_path):
    report = tmp_path / "report.txt"
    report.write_text("mine\n")
    res = run("validate", "-o", report, GAME)
    assert res.exit_code == 2
    assert res.output == f"error: {report} exists; use --force to replace it\n"
    assert report.read_text() == "mine\n"
    res = run("validate", "-o", report, "--force", GAME)
    assert res.exit_code == 0
    assert report.read_text().startswith(f"{GAME}: 1830, 4 players, 502 actions")


def test_validate_output_never_over_an_input_even_with_force(tmp_path):
    game = Path(shutil.copy(GAME, tmp_path / "game.json"))
    before = game.read_bytes()
    for option in ("-o", "--junit"):
        res = run("validate", option, game, "--force", tmp_path)
        assert res.exit_code == 2
        assert "refusing to write" in res.output and str(game) in res.output
        assert "not even with --force" in res.output
    assert game.read_bytes() == before


def test_report_and_junit_into_one_file(tmp_path):
    out = tmp_path / "r.xml"
    res = run("validate", "-o", out, "--junit", out, GAME)
    assert res.exit_code == 2
    assert res.output == f"error: {out} would receive both the report and the JUnit report\n"
    assert not out.exists()


def test_import_never_over_the_export_even_with_force(tmp_path):
    game = Path(shutil.copy(GAME, tmp_path / "game.json"))
    res = run("import", game, "-o", game, "--force")
    assert res.exit_code == 2
    assert res.output == (f"error: refusing to write the notation over the game log {game}, "
                          f"an input of this command (not even with --force)\n")


def test_output_that_is_a_folder(tmp_path):
    res = run("validate", "-o", tmp_path, GAME)
    assert res.exit_code == 2


# ---------------------------------------------------------------------------
# unsupported titles

@pytest.fixture
def league(tmp_path):
    folder = tmp_path / "league"
    folder.mkdir()
    shutil.copy(GAME, folder / "a.json")

    def other(d):
        d["title"] = "18Nowhere"
    export_with(folder, "b.json", other)
    return folder


UNSUPPORTED = re.compile(r"railcheck has no ruleset for '18Nowhere' \(known titles: 1830, [^)]*\)")


def test_an_unsupported_title_is_counted_apart(league):
    res = run("validate", league)
    assert res.exit_code == 2
    lines = res.output.splitlines()
    assert lines[1].startswith(f"unsupported: {league / 'b.json'}: ")
    assert UNSUPPORTED.search(lines[1]) and "did you mean" not in res.output
    assert re.fullmatch(r"2 files: 1 legal, 0 with findings, 1 unsupported, 0 unreadable "
                        r"in \d+\.\d\d s", lines[-1])
    doc = json.loads(run("validate", "--format", "json", league).stdout)
    assert doc["summary"] == {"files": 2, "legal": 1, "with_findings": 0, "unsupported": 1,
                              "unreadable": 0, "not_game_records": 0}
    assert doc["files"][1]["status"] == "unsupported"
    assert UNSUPPORTED.fullmatch(doc["files"][1]["error"]["message"])


def test_skip_unsupported(league):
    res = run("validate", "--skip-unsupported", league)
    assert res.exit_code == 0
    assert f"skipped: {league / 'b.json'}: railcheck has no ruleset for '18Nowhere'" in res.output
    assert "1 unsupported (skipped)" in res.output
    res = run("validate", "--skip-unsupported", "--format", "junit", league)
    assert res.exit_code == 0
    case = ET.fromstring(res.stdout).findall(".//testcase")[1]
    assert UNSUPPORTED.fullmatch(case.find("skipped").get("message"))
    res = run("validate", "--skip-unsupported", "--format", "github", league)
    assert res.stdout.splitlines()[0].startswith(
        f"::warning file={league / 'b.json'},title=railcheck unsupported::railcheck has no "
        f"ruleset for '18Nowhere'")


def test_an_export_title_close_to_a_known_one_gets_no_did_you_mean(tmp_path):
    def other(d):
        d["title"] = "1831"
    path = export_with(tmp_path, "c.json", other)
    res = run("validate", path)
    assert res.exit_code == 2
    assert "did you mean" not in res.output
    assert res.output.startswith(f"unsupported: {path}: railcheck has no ruleset for '1831'")


def test_unsupported_exports_of_the_shared_corpus():
    folder = REPO.parent / "shared" / "corpus" / "18xx.games"
    if not folder.is_dir():
        pytest.skip("shared corpus not present")
    res = run("validate", "--format", "json", "--skip-unsupported", folder)
    doc = json.loads(res.stdout)
    unsupported = [f for f in doc["files"] if f["status"] == "unsupported"]
    assert all("did you mean" not in f["error"]["message"] for f in unsupported)
    assert doc["summary"]["unreadable"] == 0
    assert res.exit_code in (0, 1)


# ---------------------------------------------------------------------------
# folder runs: as each file finishes, then a summary

def test_reports_arrive_as_each_file_is_done():
    seen = []
    reports = run_checks([str(p) for p in EXPORTS_1830], jobs=1, board=True, progress=False,
                         on_report=lambda rep: seen.append(rep.path))
    assert seen == [str(p) for p in EXPORTS_1830] == [r.path for r in reports]


def test_progress_even_with_quiet_but_only_on_a_terminal(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(cli.sys.stderr, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(cli.sys.stdout, "isatty", lambda: True, raising=False)
    assert cli._show_progress(2) is True
    assert cli._show_progress(1) is False
    monkeypatch.setattr(cli.sys.stdout, "isatty", lambda: False, raising=False)
    assert cli._show_progress(2) is False       # output piped or redirected
    monkeypatch.setattr(cli.sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.setenv("CI", "true")
    assert cli._show_progress(2) is False


def test_max_findings(illegal):
    res = run("validate", "--all", "--max-findings", "3", illegal)
    assert res.exit_code == 1
    lines = re.findall(r"^.*: (?:error|warning|info) \[.*$", res.output, re.M)
    assert len(lines) == 3
    # a line holds every finding of one action ("; also [RULE] ...")
    shown = sum(1 + line.count("; also [") for line in lines)
    total = len(json.loads(run("validate", "--format", "json", illegal).output)
                ["files"][0]["findings"])
    assert total > shown
    assert res.output.splitlines()[-1] == \
        f"{total - shown} more findings not shown (--max-findings 3)"


def test_no_board_is_said(notation, tmp_path):
    res = run("validate", "--no-board", EXAMPLE)
    assert "note: the map (tile lays, stations, routes) was not checked (--no-board)" \
        in res.output
    res = run("validate", "--no-board", EXAMPLE, GAME)
    assert ("the map (tile lays, stations, routes) was not checked in 1 hand-written log "
            "(--no-board)") in res.output.splitlines()


# ---------------------------------------------------------------------------
# the finding form, for notation and exports; the problem matcher of docs/ci.md

@pytest.fixture
def out_of_turn_export(tmp_path):
    def out_of_turn(d):
        d["actions"][0]["entity"] = d["players"][1]["id"]
    return export_with(tmp_path, "ot.json", out_of_turn)


def test_export_findings_keep_the_path_colon_form(out_of_turn_export):
    path = out_of_turn_export
    res = run("validate", "-q", path)
    assert res.exit_code == 1
    assert (f"{path}:#1: error [turn.order] Player 2 acted out of turn: it is Player 1's "
            f"turn in the auction\n") in res.output
    assert "(action" not in res.output


def json_findings(*paths) -> list[dict]:
    """The findings the JSON report gives for ``paths`` (the counts the text
    report must agree with)."""
    out = json.loads(run("validate", "--format", "json", *map(str, paths)).output)
    return [f for file in out["files"] for f in file["findings"]]


def problem_matcher():
    text = (REPO / "docs" / "ci.md").read_text(encoding="utf-8")
    block = re.search(r'"regexp": "(.*)"', text).group(1)
    return re.compile(json.loads(f'"{block}"'))


def test_problem_matcher_of_docs_ci_md_reads_every_finding(out_of_turn_export, illegal):
    rx = problem_matcher()
    res = run("validate", "-q", "--all", out_of_turn_export, illegal)
    lines = [l for l in res.output.splitlines() if re.search(r" (error|warning) \[", l)]
    # one line per action: its other findings follow on it as "; also [RULE] ..."
    assert sum(1 + l.count("; also [") for l in lines) == len(
        [f for f in json_findings(out_of_turn_export, illegal)
         if f["severity"] in ("error", "warning")])
    for line in lines:
        m = rx.match(line)
        assert m, line
    # groups: 1 file, 2 line, 3 column, 4 action id, 5 severity, 6 rule, 7 message
    m = rx.match(f"{illegal}:39:1: error [turn.order] action 32: Player 4 acted out of turn")
    assert m.groups() == (str(illegal), "39", "1", None, "error", "turn.order",
                          "action 32: Player 4 acted out of turn")
    m = rx.match(f"{out_of_turn_export}:#1: error [turn.order] Player 2 acted out of turn")
    assert m.groups() == (str(out_of_turn_export), None, None, "1", "error", "turn.order",
                          "Player 2 acted out of turn")
    m = rx.match("g.json: warning [score.site_differs] Alice's net worth is $10")
    assert m.group(1, 2, 4, 5) == ("g.json", None, None, "warning")
    assert rx.match("error: g.json: no such file or folder") is None


# ---------------------------------------------------------------------------
# consequential findings folded

def test_consequential_findings_are_folded(illegal):
    res = run("validate", "-q", illegal)
    assert res.exit_code == 1
    found = json_findings(illegal)
    folded = len([f for f in found if f["consequential"]])

    def root(i):
        while found[i]["follows"] is not None:
            i = found[i]["follows"]
        return i
    under_first = len([i for i, f in enumerate(found) if f["consequential"] and root(i) == 0])
    assert under_first > 1
    out = res.output.splitlines()
    i = out.index(f"{illegal}:39:1: error [turn.order] action 32: Player 4 acted out of turn: "
                  f"it is Player 3's turn in SR 1")
    assert out[i + 1] == \
        f"    … and {under_first} more findings that follow from it (--all to show)"
    assert out[-1] == f"{folded} findings that follow from earlier ones were folded (--all to show)"
    roots = [f for f in found if f["severity"] == "error" and not f["consequential"]]
    assert len(re.findall(r": error \[", res.output)) == len(roots)


def test_all_shows_them(illegal):
    res = run("validate", "-q", "--all", illegal)
    errors = len([f for f in json_findings(illegal) if f["severity"] == "error"])
    assert errors > 1
    assert len(re.findall(r": error \[", res.output)) == errors
    assert "(may follow from the finding at line 39)" in res.output
    assert "more findings that follow" not in res.output


def test_folding_follows_the_follows_index():
    """With ``follows`` (an index into the replay's findings), a finding is
    folded under the root of the finding it follows from."""
    class R:        # the few fields of a replay result that the text report reads
        title, players, actions, finished, end_reason, round, phase = \
            "1830", ["A", "B"], 9, False, None, "SR 1", "2"
        findings = [Finding(ERROR, "turn.order", "first", line=3, column=1),
                    Finding(ERROR, "stock.cash", "second", line=5, column=1),
                    Finding(ERROR, "stock.cash", "third", line=6, column=1, consequential=True),
                    Finding(ERROR, "stock.cash", "fourth", line=7, column=1, consequential=True)]
    R.findings[2].follows = 0           # follows the first, not the second
    R.findings[3].follows = 2           # follows the third, so the first in the end
    rep = FileReport(path="g.18xx", result=R())
    text = "\n".join(TextReporter(TextOptions(quiet=True)).findings(rep))
    assert text == ("g.18xx:3:1: error [turn.order] first\n"
                    "    … and 2 more findings that follow from it (--all to show)\n"
                    "g.18xx:5:1: error [stock.cash] second")
    for f in R.findings:                # without follows: the last error before it
        f.__dict__.pop("follows", None)
    text = "\n".join(TextReporter(TextOptions(quiet=True)).findings(rep))
    assert text.endswith("g.18xx:5:1: error [stock.cash] second\n"
                         "    … and 2 more findings that follow from it (--all to show)")


@pytest.fixture(scope="module")
def two_mistakes(illegal, tmp_path_factory):
    """The out-of-turn game with a second, unrelated mistake: NYNH (Player 1's)
    claims 380 instead of 370 at action 556 (line 484)."""
    lines = illegal.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[483].startswith("NYNH run 5 ") and "(180) = 370" in lines[483]
    lines[483] = lines[483].replace("(180) = 370", "(190) = 380")
    path = tmp_path_factory.mktemp("two") / "two-mistakes.18xx"
    path.write_text("".join(lines), encoding="utf-8")
    return path


def test_github_annotations_fold_too(two_mistakes):
    illegal = two_mistakes
    found = json_findings(illegal)

    def root(i):
        while found[i]["follows"] is not None:
            i = found[i]["follows"]
        return i
    roots = [i for i, f in enumerate(found) if f["severity"] == "error" and not f["consequential"]]
    under_first = len([i for i, f in enumerate(found) if f["consequential"] and root(i) == 0])
    res = run("validate", "--format", "github", illegal)
    errors = [l for l in res.stdout.splitlines() if l.startswith("::error ")]
    assert len(errors) == len(roots) > 1
    assert errors[0].endswith(f"(and {under_first} more findings that follow from it)")
    res = run("validate", "--format", "github", "--all", illegal)
    assert len([l for l in res.stdout.splitlines() if l.startswith("::error ")]) == \
        len([f for f in found if f["severity"] == "error"])


# ---------------------------------------------------------------------------
# CI: annotations and JUnit from one run; python -m; standard input

def test_github_and_junit_from_one_run(tmp_path, illegal):
    junit = tmp_path / "railcheck.xml"
    res = run("validate", "--format", "github", "--junit", junit, GAME, illegal)
    assert res.exit_code == 1
    # in the order of the record: the header's result (line 6) first
    first_error = next(l for l in res.stdout.splitlines() if l.startswith("::error"))
    assert first_error.startswith(f"::error file={illegal},line=39,col=1,title=railcheck "
                                  f"turn.order::action 32: Player 4 acted out of turn")
    root = ET.parse(junit).getroot()
    cases = root.findall(".//testcase")
    assert [c.get("name") for c in cases] == [str(GAME), str(illegal)]
    assert cases[0].find("failure") is None and cases[1].find("failure") is not None


def test_python_dash_m():
    res = subprocess.run([sys.executable, "-m", "railcheck", "validate", "-q", str(GAME)],
                         capture_output=True, text=True, cwd=REPO)
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith(f"{GAME}: 1830, 4 players, 502 actions")
    res = subprocess.run([sys.executable, "-m", "railcheck", "--help"], capture_output=True,
                         text=True)
    assert res.returncode == 0 and res.stdout.startswith("Usage: railcheck ")


def test_notation_from_standard_input():
    res = run("validate", "-", input=TRAIN_LIMIT.read_text())
    assert res.exit_code == 1
    assert ("<stdin>:48:1: error [trains.limit] B&O owns 4 trains; one more makes 5, over the "
            "limit of 4 in phase 2") in res.output


def test_export_from_standard_input(out_of_turn_export):
    res = run("validate", "-q", "-", input=out_of_turn_export.read_text())
    assert res.exit_code == 1
    assert "<stdin>:#1: error [turn.order] Player 2 acted out of turn" in res.output
    assert run("score", "-", input=GAME.read_text()).exit_code == 0


# ---------------------------------------------------------------------------
# show

def test_show_says_whose_turn_and_which_step():
    res = run("show", GAME, "--at", "OR 2.1")
    assert res.exit_code == 0
    first, second = res.output.splitlines()[:2]
    assert first.startswith(f"{GAME} at the start of OR 2.1: OR 2.1, phase 2, bank $")
    assert second == "NYNH to act (step: laying track)"


def test_show_at_an_action_and_a_line(notation):
    res = run("show", GAME, "--at", "#300")
    assert res.exit_code == 0
    assert res.output.startswith(f"{GAME} after action #300: ")
    res = run("show", EXAMPLE, "--at", "line 20")
    assert res.exit_code == 0
    assert res.output.startswith(f"{EXAMPLE} after line 20: ")


def test_show_at_out_of_range(notation):
    res = run("show", GAME, "--at", "99999")
    assert res.exit_code == 2
    assert res.output == (f"error: {GAME}: --at action #99999 is past the end of the game "
                          f"(its last action is action #588)\n")
    res = run("show", GAME, "--at", "0")
    assert res.exit_code == 2
    assert res.output == (f"error: {GAME}: --at action #0 is before the start of the game "
                          f"(its first action is action #1)\n")
    res = run("show", GAME, "--at", "OR 99.1")
    assert res.exit_code == 2
    assert re.fullmatch(rf"error: {re.escape(str(GAME))}: --at OR 99\.1: the game never "
                        r"reaches OR 99\.1 \(its last round is OR \d+\.\d\)\n", res.output)
    res = run("show", GAME, "--at", "OR 2")
    assert res.exit_code == 2
    assert res.output == f"error: {GAME}: --at 'OR 2': write a OR as 'OR N.M'\n"


def test_show_never_prints_action_none():
    res = run("show", TRAIN_LIMIT)
    assert res.exit_code == 1       # the one rule: a game with illegal actions
    assert "None" not in res.output
    assert res.output.splitlines()[-2:] == [
        "1 illegal action up to here; the first:",
        f"{TRAIN_LIMIT}:48:1: error [trains.limit] B&O owns 4 trains; one more makes 5, over "
        f"the limit of 4 in phase 2"]


# ---------------------------------------------------------------------------
# score; header warnings

def test_score_of_a_game_with_findings():
    res = run("score", TRAIN_LIMIT)
    assert res.exit_code == 1
    assert res.output.splitlines()[-2:] == [
        "note: this game has 1 illegal action: these standings are those of the replay, not a "
        "legal result ('railcheck validate' lists it); the first:",
        f"{TRAIN_LIMIT}:48:1: error [trains.limit] B&O owns 4 trains; one more makes 5, over "
        f"the limit of 4 in phase 2"]


def test_header_result_warning_carries_its_line(tmp_path):
    text = EXAMPLE.read_text()
    m = re.search(r"^result: (.*)$", text, re.M)
    assert m, "the example has a result: line"
    line = text[:m.start()].count("\n") + 1
    first = m.group(1).split(",")[0].rsplit(" ", 1)
    wrong = text.replace(m.group(0), m.group(0).replace(f"{first[0]} {first[1]}",
                                                         f"{first[0]} {int(first[1]) + 1}", 1))
    path = tmp_path / "wrong-result.18xx"
    path.write_text(wrong)
    res = run("validate", "-q", path)
    assert res.exit_code == 0
    assert re.search(rf"^{re.escape(str(path))}:{line}:1: warning \[score.site_differs\] ",
                     res.output, re.M)


def test_import_of_a_notation_file():
    res = run("import", EXAMPLE)
    assert res.exit_code == 2
    assert res.output == (f"error: {EXAMPLE}: not an 18xx.games export (JSON starting with "
                          f"'{{'); a notation file needs no import: 'railcheck validate "
                          f"{EXAMPLE}' reads it\n")


def test_counts_are_the_last_line_of_a_folder_run(illegal):
    found = json_findings(illegal)
    folded = len([f for f in found if f["consequential"]])
    shown_or_not = len(found) - folded
    res = run("validate", "-q", "--max-findings", "2", GAME, illegal)
    lines = res.output.splitlines()
    shown = sum(1 + l.count("; also [") for l in lines if re.search(r": (error|warning) \[", l))
    assert lines[-3:-1] == [
        f"{folded} findings that follow from earlier ones were folded (--all to show)",
        f"{shown_or_not - shown} more findings not shown (--max-findings 2)"]
    assert re.fullmatch(r"2 files: 1 legal, 1 with findings, 0 unreadable in \d+\.\d\d s",
                        lines[-1])
