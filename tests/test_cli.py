"""The command line as an organiser uses it in CI: exit codes, the four
report formats on real 18xx.games exports, folders, --jobs, --fail-on,
--quiet, colours, and clear messages for input that cannot be checked."""

import json
import os
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from railcheck.cli import main, run_checks

from conftest import EXPORTS_1830

GAME = EXPORTS_1830[0]          # any real, legal 1830 export


def run(*args, env=None):
    res = CliRunner().invoke(main, [str(a) for a in args], env=env)
    # never a traceback: click's own SystemExit is the only exception allowed
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output
    return res


def export_named(name):
    return next(p for p in EXPORTS_1830 if p.stem == name)


@pytest.fixture(scope="module")
def notation(tmp_path_factory):
    """A real game in railcheck notation (imported from 26855)."""
    out = tmp_path_factory.mktemp("notation") / "26855.18xx"
    res = run("import", export_named("26855"), "-o", out)
    assert res.exit_code == 0, res.output
    return out


@pytest.fixture(scope="module")
def illegal(notation, tmp_path_factory):
    """The same game with action 32 (Player 3 buys NYC in SR 1) made by
    Player 4 out of turn, and Player 3 passing after it; returns (path, line
    of that action)."""
    lines = notation.read_text(encoding="utf-8").splitlines(keepends=True)
    idx = next(i for i, l in enumerate(lines) if l.rstrip().endswith("#@32"))
    assert lines[idx].startswith('"Player 3" ')
    lines[idx] = lines[idx].replace('"Player 3"', '"Player 4"', 1)
    lines.insert(idx + 1, '"Player 3" pass\n')   # so the buy is not Player 3's, misnamed
    path = tmp_path_factory.mktemp("illegal") / "out-of-turn.18xx"
    path.write_text("".join(lines), encoding="utf-8")
    return path, idx + 1


@pytest.fixture(scope="module")
def warnings_only(tmp_path_factory):
    """A legal export whose recorded result differs from the replay: only a
    warning (score.site_differs)."""
    data = json.loads(GAME.read_text())
    pid = next(iter(data["result"]))
    data["result"][pid] += 1
    path = tmp_path_factory.mktemp("warn") / "site-differs.json"
    path.write_text(json.dumps(data))
    return path


@pytest.fixture
def unknown_title(tmp_path):
    path = tmp_path / "unknown-title.18xx"
    path.write_text("title: 1831\nplayers: Alice, Bob, Carol\n\nAlice pass\n")
    return path


# ---------------------------------------------------------------------------
# exit codes

def test_legal_export_exits_0():
    res = run("validate", GAME)
    assert res.exit_code == 0
    assert f"{GAME}: 1830" in res.output and "legal" in res.output


def test_findings_exit_1_with_location(illegal):
    path, line = illegal
    res = run("validate", "-q", path)
    assert res.exit_code == 1
    # path:line:col: severity [rule] message (the export id, if any, in the message)
    assert f"{path}:{line}:1: error [turn.order] action 32: Player 4 acted out of turn" \
        in res.output


def test_unreadable_beats_findings_exit_2(illegal, tmp_path):
    res = run("validate", "-q", illegal[0], tmp_path / "missing.json")
    assert res.exit_code == 2


def test_fail_on_warning(warnings_only):
    res = run("validate", "-q", warnings_only)
    assert res.exit_code == 0
    assert "warning [score.site_differs]" in res.output
    res = run("validate", "-q", "--fail-on", "warning", warnings_only)
    assert res.exit_code == 1
    res = run("validate", "--format", "json", warnings_only)
    assert json.loads(res.stdout)["files"][0]["status"] == "warnings"


def test_usage_error_exits_2():
    assert run("validate").exit_code == 2
    assert run("validate", "--format", "xml", GAME).exit_code == 2
    assert run("validate", "--jobs", "0", GAME).exit_code == 2


# ---------------------------------------------------------------------------
# formats on real exports

def test_text_summary_for_several_files():
    """Several files: a verdict line per game, no tables, a one-line summary."""
    res = run("validate", *EXPORTS_1830)
    assert res.exit_code == 0
    n = len(EXPORTS_1830)
    assert re.fullmatch(rf"{n} files: {n} legal, 0 with findings, 0 unreadable in \d+\.\d\d s",
                        res.output.strip().splitlines()[-1])
    assert "net worth" not in res.output        # tables only for one file, or --standings
    assert sum(1 for l in res.output.splitlines() if ": 1830, " in l) == n


def test_standings_on_request_for_several_files():
    res = run("validate", "--standings", *EXPORTS_1830[:2])
    assert res.exit_code == 0
    assert len(re.findall(r"^\s*rank\s+player", res.output, re.M)) == 2


def test_quiet_leaves_out_tables_and_legal_games(illegal):
    res = run("validate", "--quiet", *EXPORTS_1830, illegal[0])
    assert res.exit_code == 1
    assert not re.search(r"^\s*rank\s+player", res.output, re.M)      # no standings
    assert not re.search(r"^company\s+price\s+treasury", res.output, re.M)
    assert "error [turn.order]" in res.output
    assert "unreadable" in res.output       # the summary stays
    # of several files, -q prints only the games with findings (and the summary)
    assert [l.split(":")[0] for l in res.output.splitlines() if ": 1830, " in l] == \
        [str(illegal[0])]


def test_json_schema_version_and_fields(illegal, tmp_path):
    missing = tmp_path / "missing.json"
    res = run("validate", "--format", "json", GAME, illegal[0], missing)
    assert res.exit_code == 2
    doc = json.loads(res.stdout)
    assert doc["schema_version"] == 1
    assert set(doc) == {"schema_version", "files", "summary"}
    assert doc["summary"] == {"files": 3, "legal": 1, "with_findings": 1, "unsupported": 0,
                              "unreadable": 1, "not_game_records": 0}
    legal, bad, gone = doc["files"]
    keys = {"path", "status", "title", "ruleset", "players", "finished", "end_reason", "actions",
            "round", "phase", "bank", "findings", "standings", "companies", "error",
            "findings_not_kept"}
    assert set(legal) == keys and set(bad) == keys and set(gone) == keys
    assert legal["status"] == "legal" and legal["title"] == "1830" and legal["finished"]
    assert legal["ruleset"] == {"name": "1830", "path": None, "extends": None}
    assert gone["ruleset"] is None
    assert legal["error"] is None and legal["findings"] == []
    assert set(legal["standings"][0]) == {"player", "cash", "shares", "privates", "net_worth",
                                          "rank"}
    assert set(legal["companies"][0]) == {"company", "price", "treasury", "trains", "president",
                                          "floated", "closed", "ipo_percent", "pool_percent"}
    assert bad["status"] == "findings"
    f = bad["findings"][0]
    assert set(f) == {"severity", "line", "column", "action_id", "rule", "message", "action",
                      "consequential", "follows"}
    assert (f["severity"], f["line"], f["action_id"], f["rule"], f["consequential"]) == \
        ("error", illegal[1], 32, "turn.order", False)
    assert bad["findings"][1]["consequential"] is True
    assert gone["status"] == "unreadable" and gone["path"] == str(missing)
    assert gone["error"]["message"] == "no such file or folder"
    assert gone["findings"] == [] and gone["standings"] == []


def test_junit_one_testcase_per_game(illegal, tmp_path):
    missing = tmp_path / "missing.json"
    res = run("validate", "--format", "junit", *EXPORTS_1830, illegal[0], missing)
    assert res.exit_code == 2
    root = ET.fromstring(res.stdout)
    assert root.tag == "testsuites"
    cases = root.findall(".//testcase")
    assert [c.get("name") for c in cases] == [str(p) for p in EXPORTS_1830] + \
        [str(illegal[0]), str(missing)]
    suite = root.find("testsuite")
    assert suite.get("tests") == str(len(cases))
    assert (suite.get("failures"), suite.get("errors")) == ("1", "1")
    for case in cases[:len(EXPORTS_1830)]:
        assert list(case) == []                 # passed
    failure = cases[-2].find("failure")
    assert failure is not None
    assert f"{illegal[0]}:{illegal[1]}:1: error [turn.order] action 32: " in failure.text
    error = cases[-1].find("error")
    assert error is not None and "no such file" in error.get("message")


def test_github_annotations(illegal, tmp_path):
    path, line = illegal
    res = run("validate", "--format", "github", GAME, path)
    assert res.exit_code == 1
    errors = [l for l in res.stdout.splitlines() if l.startswith("::error ")]
    assert errors, res.stdout
    for l in errors:
        assert l.startswith(f"::error file={path},line="), l
    assert errors[0].startswith(f"::error file={path},line={line},col=1,title=railcheck "
                                f"turn.order::action 32: Player 4 acted out of turn")
    assert res.stdout.splitlines()[-1].startswith("railcheck: 2 files, 1 legal, 1 with findings")


def test_github_annotation_for_unreadable_file(tmp_path):
    bad = tmp_path / "broken.18xx"
    bad.write_text('title: 1830\nplayers: Alice, Bob, Carol\n\nplayers: Dave\n')
    res = run("validate", "--format", "github", bad)
    assert res.exit_code == 2
    assert res.stdout.startswith(f"::error file={bad},line=4,")


def test_output_file(tmp_path):
    out = tmp_path / "report.xml"
    res = run("validate", "--format", "junit", "-o", out, GAME)
    assert res.exit_code == 0 and res.stdout == ""
    assert ET.parse(out).getroot().tag == "testsuites"


def test_output_file_that_cannot_be_written(tmp_path):
    res = run("validate", "-o", tmp_path / "no-such-dir" / "report.txt", GAME)
    assert res.exit_code == 2
    assert "cannot write" in res.output and "no-such-dir" in res.output


# ---------------------------------------------------------------------------
# folders, parallel runs

def test_folder_argument_recurses(tmp_path, notation):
    league = tmp_path / "league"
    (league / "round-1").mkdir(parents=True)
    shutil.copy(EXPORTS_1830[0], league / "a.json")
    shutil.copy(EXPORTS_1830[1], league / "round-1" / "b.JSON")
    shutil.copy(notation, league / "round-1" / "c.18xx")
    (league / "notes.txt").write_text("not a game")
    res = run("validate", "--format", "json", league)
    assert res.exit_code == 0, res.output
    paths = [f["path"] for f in json.loads(res.stdout)["files"]]
    assert paths == [str(league / "a.json"), str(league / "round-1" / "b.JSON"),
                     str(league / "round-1" / "c.18xx")]


def test_folder_without_logs(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "readme.txt").write_text("no games here")
    res = run("validate", empty)
    assert res.exit_code == 2
    assert f"{empty}: folder holds no game logs (*.18xx, *.json or either .gz)" in res.output


def test_unknown_file(tmp_path):
    res = run("validate", tmp_path / "nope.18xx")
    assert res.exit_code == 2
    assert f"{tmp_path / 'nope.18xx'}: no such file or folder" in res.output


def test_same_file_twice_is_checked_once():
    res = run("validate", "--format", "json", GAME, GAME)
    assert len(json.loads(res.stdout)["files"]) == 1


def test_jobs_2_gives_the_same_json_as_jobs_1(illegal, unknown_title, tmp_path):
    files = [*EXPORTS_1830, illegal[0], unknown_title, tmp_path / "missing.json"]
    one = run("validate", "--format", "json", "--jobs", "1", *files)
    two = run("validate", "--format", "json", "--jobs", "2", *files)
    assert one.exit_code == two.exit_code == 2
    assert json.loads(one.stdout) == json.loads(two.stdout)


def test_jobs_2_keeps_located_messages(unknown_title):
    """An error made in a worker process keeps its path:line: prefix."""
    one = run("validate", "-q", "--jobs", "1", unknown_title, GAME)
    two = run("validate", "-q", "--jobs", "2", unknown_title, GAME)
    def untimed(text):
        return re.sub(r" in \d+\.\d\d s$", "", text.strip())

    assert untimed(one.output) == untimed(two.output)
    assert re.search(rf"error: {re.escape(str(unknown_title))}:1:\d+: unknown title '1831'",
                     two.output)


def test_no_progress_when_not_a_terminal():
    res = run("validate", *EXPORTS_1830)
    assert "\r" not in res.output and "\x1b" not in res.output


def test_progress_goes_to_stderr(capsys):
    reports = run_checks([str(p) for p in EXPORTS_1830[:2]], jobs=1, board=True, progress=True)
    assert [r.status for r in reports] == ["legal", "legal"]
    err = capsys.readouterr().err
    assert "] 1/2 " in err and "] 2/2 " in err and err.endswith("\r\x1b[K")


# ---------------------------------------------------------------------------
# colours

def test_colour_only_when_asked_or_on_a_terminal(illegal):
    plain = run("validate", "-q", illegal[0])
    assert "\x1b[" not in plain.output          # CliRunner is not a terminal
    forced = run("validate", "-q", "--color", illegal[0])
    assert "\x1b[31merror\x1b[0m" in forced.output
    assert "\x1b[" not in run("validate", "-q", "--no-color", illegal[0]).output
    for fmt in ("json", "junit", "github"):
        assert "\x1b[" not in run("validate", "--color", "--format", fmt, illegal[0]).output


def test_no_colour_in_ci_or_with_no_color(monkeypatch):
    from railcheck import cli
    monkeypatch.setattr(cli.sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert cli._use_color(None) is True
    monkeypatch.setenv("CI", "true")
    assert cli._use_color(None) is False
    monkeypatch.delenv("CI")
    monkeypatch.setenv("NO_COLOR", "1")
    assert cli._use_color(None) is False
    assert cli._use_color(True) is True


# ---------------------------------------------------------------------------
# input that cannot be checked: a clear, located message

def test_unknown_title_in_a_notation_header(unknown_title):
    res = run("validate", unknown_title)
    assert res.exit_code == 2
    assert re.search(rf"{re.escape(str(unknown_title))}:1:\d+: unknown title '1831' "
                     r"\(did you mean 1830\?\)", res.output)


def test_unknown_title_in_an_export(tmp_path):
    data = json.loads(GAME.read_text())
    data["title"] = "18Nowhere"
    path = tmp_path / "other.json"
    path.write_text(json.dumps(data))
    res = run("validate", path)
    assert res.exit_code == 2
    assert f"{path}: railcheck has no ruleset for '18Nowhere'" in res.output
    assert "known titles: 1830" in res.output


def test_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin1.18xx"
    path.write_bytes("title: 1830\nplayers: Zoë, Bob, Carol\n".encode("latin-1"))
    res = run("validate", path)
    assert res.exit_code == 2
    assert f"{path}:2:12: not UTF-8 text (byte 0xeb)" in res.output


def test_file_that_cannot_be_read(tmp_path, monkeypatch):
    path = tmp_path / "locked.18xx"
    path.write_text("title: 1830\n")
    real = Path.read_bytes

    def read_bytes(self):       # chmod 0 does not stop root: refuse the read here
        if self.name == "locked.18xx":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    res = run("validate", path, GAME)
    assert res.exit_code == 2
    assert f"error: {path}: permission denied" in res.output


def test_truncated_export(tmp_path):
    path = tmp_path / "cut.json"
    path.write_text(GAME.read_text()[:5000])
    res = run("validate", path)
    assert res.exit_code == 2
    assert re.search(re.escape(str(path)) + r":1:\d+: not valid JSON", res.output)


def test_score_of_unreadable_file(tmp_path):
    res = run("score", tmp_path / "nope.json")
    assert res.exit_code == 2
    assert "no such file" in res.output


# ---------------------------------------------------------------------------
# the user's files are never written

def test_validation_never_writes_input_files(tmp_path, notation, illegal):
    files = [shutil.copy(p, tmp_path / p.name) for p in (GAME, notation, illegal[0])]
    before = {f: (Path(f).read_bytes(), os.stat(f).st_mtime_ns) for f in files}
    for fmt in ("text", "json", "junit", "github"):
        run("validate", "--format", fmt, "--jobs", "2", *files)
    run("score", files[0])
    run("validate", tmp_path)
    assert {f: (Path(f).read_bytes(), os.stat(f).st_mtime_ns) for f in files} == before
    assert sorted(os.listdir(tmp_path)) == sorted(Path(f).name for f in files)


def test_report_output_never_overwrites_a_game_log(tmp_path):
    game = Path(shutil.copy(GAME, tmp_path / "game.json"))
    text = game.read_text()
    res = run("validate", "--format", "json", "-o", game, tmp_path)
    assert res.exit_code == 2
    assert "refusing to write the report over the game log" in res.output
    assert game.read_text() == text


def test_import_refuses_to_overwrite_without_force(tmp_path):
    out = tmp_path / "game.18xx"
    out.write_text("mine\n")
    res = run("import", GAME, "-o", out)
    assert res.exit_code == 2 and "exists; use --force" in res.output
    assert out.read_text() == "mine\n"
    assert run("import", GAME, "-o", out, "--force").exit_code == 0
    assert out.read_text().startswith("title: 1830")


def test_import_never_overwrites_the_export(tmp_path):
    game = Path(shutil.copy(GAME, tmp_path / "game.json"))
    text = game.read_text()
    res = run("import", game, "-o", game, "--force")
    assert res.exit_code == 2
    assert game.read_text() == text


def test_import_into_a_missing_folder(tmp_path):
    res = run("import", GAME, "-o", tmp_path / "no" / "game.18xx")
    assert res.exit_code == 2 and "cannot write" in res.output


# ---------------------------------------------------------------------------
# odd characters must not break the machine formats

def test_control_characters_keep_junit_well_formed(tmp_path):
    data = json.loads(GAME.read_text())
    data["players"][0]["name"] = "Pl\x01ayer\x0b 1"
    first = data["actions"][0]
    first["entity"] = data["players"][1]["id"]       # out of turn: a finding naming players
    path = tmp_path / "ctl.json"
    path.write_text(json.dumps(data))
    res = run("validate", "--format", "junit", path)
    assert res.exit_code == 1
    ET.fromstring(res.stdout)


def test_lone_surrogate_in_an_export(tmp_path):
    text = GAME.read_text()
    assert '"name":"Player 1"' in text or '"name": "Player 1"' in text
    text = re.sub(r'"name":\s*"Player 1"', r'"name":"Pl\\ud800ayer 1"', text, count=1)
    path = tmp_path / "surrogate.json"
    path.write_text(text)
    for fmt in ("text", "json", "junit", "github"):
        res = run("validate", "--format", fmt, path)
        assert res.exit_code in (0, 1)
    res = run("import", path)
    assert res.exit_code == 0 and "Pl?ayer 1" in res.stdout


def test_gzip_exports_are_read_and_found_in_folders(tmp_path):
    """An export kept compressed (``game.json.gz``) is checked like the plain
    file: same scores; a folder's ``*.json.gz`` are collected."""
    import gzip
    src = Path(EXPORTS_1830[0])
    league = tmp_path / "league"
    league.mkdir()
    (league / "g.json.gz").write_bytes(gzip.compress(src.read_bytes()))
    plain = json.loads(run("validate", "--format", "json", src).stdout)["files"][0]
    res = run("validate", "--format", "json", league)
    assert res.exit_code == 0, res.output
    packed = json.loads(res.stdout)["files"][0]
    assert packed["path"] == str(league / "g.json.gz")
    worth = {s["player"]: s["net_worth"] for s in packed["standings"]}
    assert worth == {s["player"]: s["net_worth"] for s in plain["standings"]}
    assert packed["status"] == plain["status"] == "legal"
    assert len(worth) >= 3 and all(v > 0 for v in worth.values())


def test_broken_gzip_is_a_located_error(tmp_path):
    bad = tmp_path / "g.json.gz"
    bad.write_bytes(b"\x1f\x8b\x08\x00" + b"not really gzip")
    res = run("validate", bad)
    assert res.exit_code == 2
    assert f"{bad}: a gzip file that cannot be read" in res.output
    assert "Traceback" not in res.output
