"""A line that cannot be read is a finding (`notation.syntax`) on its line and
column: the line is skipped, the rest of the game is checked and the exit code
is 1 (findings), not 2 (unreadable).  A header that leaves the game unreadable
(no title, no players, an unknown title) stays exit 2 with a located message."""

import json
from pathlib import Path

from click.testing import CliRunner

from railcheck.cli import main

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "examples" / "1830" / "game.18xx"


def damaged(tmp_path, edits: dict[int, str], name="typo.18xx") -> Path:
    """The example game with some lines (1-based) replaced."""
    lines = GAME.read_text(encoding="utf-8").split("\n")
    for number, text in edits.items():
        lines[number - 1] = text
    path = tmp_path / name
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def validate(*args):
    return CliRunner().invoke(main, ["validate", *map(str, args)])


def test_example_lines_used_below():
    lines = GAME.read_text(encoding="utf-8").split("\n")
    assert lines[81] == "B&O run 2 I15-I19 (40), 2 I15-J14 (50) = 90"
    assert lines[82] == "B&O payout"
    assert lines[106] == "B&O token J14"
    assert lines[110] == "B&O buy train 3 from depot for 180"
    assert lines[35] == "Bob par PRR 100"


def test_misspelt_verb_is_a_finding_and_the_game_goes_on(tmp_path):
    path = damaged(tmp_path, {83: "B&O payot"})
    res = validate(path)
    assert res.exit_code == 1, res.output
    assert (f"{path}:83:5: error [notation.syntax] expected a verb (pass, bid, buy, choose, "
            "par, sell, exchange, lay, token, run, payout, withhold, half, discard, assign, propose, vote, bankrupt, convert, privatise, ignore) "  # noqa: E501
            "after 'B&O', found 'payot' (did you mean payout?)") in res.output
    assert "net worth" in res.output            # the game was replayed to the end: standings
    # 'payot' is a plain typo of the one verb that fits: the line stands as
    # 'B&O payout', and the game is replayed as written, with this one error
    assert "(did you mean payout?); taken as payout" in res.output
    assert "665 actions" in res.output and "— 1 error" in res.output


def test_each_misspelling_points_at_its_word(tmp_path):
    path = damaged(tmp_path, {36: "Bob pra PRR 100", 107: "B&O tokn J14",
                              111: "B&O buy trian 3 from depot for 180", 83: "B&O pays"})
    res = validate("--format", "json", path)
    assert res.exit_code == 1
    syntax = [(f["line"], f["column"], f["message"].split("found ")[-1], f["action"])
              for f in json.loads(res.stdout)["files"][0]["findings"]
              if f["rule"] == "notation.syntax"]
    assert syntax == [
        (36, 5, "'pra' (did you mean par?); taken as par: the only word that makes the line "
                "parse, and the line is legal so", "Bob pra PRR 100"),
        (83, 5, "'pays' (did you mean pass or payout?)", "B&O pays"),
        (107, 5, "'tokn' (did you mean token?); taken as token", "B&O tokn J14"),
        (111, 9, "unknown word 'trian' (did you mean train?); taken as train",
         "B&O buy trian 3 from depot for 180"),
    ]


def test_run_without_a_train_points_at_the_missing_train(tmp_path):
    path = damaged(tmp_path, {82: "B&O run I15-I19 (40), 2 I15-J14 (50) = 90"})
    res = validate("-q", path)
    assert res.exit_code == 1
    assert (f"{path}:82:9: error [notation.syntax] missing a train type before 'I15-I19' "
            "(like 'B&O run 2 I15-I19 (40), 2 I15-J14 (50) = 90')") in res.output


def test_buys_in_the_stock_round(tmp_path):
    path = damaged(tmp_path, {38: "Alice buys NYNH ipo"})
    res = validate("-q", path)
    assert res.exit_code == 1
    assert f"{path}:38:7: error [notation.syntax] expected a verb" in res.output
    assert "found 'buys' (did you mean buy?)" in res.output


def test_header_that_makes_the_game_unreadable_stays_exit_2(tmp_path):
    no_players = damaged(tmp_path, {9: "playrs: Alice, Bob, Carol"}, "no-players.18xx")
    res = validate(no_players)
    assert res.exit_code == 2
    assert (f"error: {no_players}:13:1: missing header line 'players:' before the first action "
            "(like 'players: Alice, Bob, Carol'); 'playrs:' on line 9 is not 'players:'"
            ) in res.output
    no_title = damaged(tmp_path, {8: "title 1830"}, "no-title.18xx")
    res = validate(no_title)
    assert res.exit_code == 2
    assert (f"error: {no_title}:13:1: missing header line 'title:' before the first action "
            "(like 'title: 1830'); line 8 could not be read: expected a verb") in res.output
    unknown = damaged(tmp_path, {8: "title: 1831"}, "unknown-title.18xx")
    res = validate(unknown)
    assert res.exit_code == 2
    assert f"error: {unknown}:8:" in res.output and "1831" in res.output


def test_json_finding_of_a_syntax_error(tmp_path):
    path = damaged(tmp_path, {83: "B&O payot  #@77"})
    res = validate("--format", "json", path)
    entry = json.loads(res.stdout)["files"][0]
    assert entry["status"] == "findings"
    first = entry["findings"][0]
    assert {k: first[k] for k in ("severity", "line", "column", "action_id", "rule", "action")} \
        == {"severity": "error", "line": 83, "column": 5, "action_id": 77,
            "rule": "notation.syntax", "action": "B&O payot"}
