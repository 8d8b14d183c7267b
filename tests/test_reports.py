"""Golden tests of the reports: text, JSON, JUnit, GitHub annotations, score.

To regenerate after an intended change, run the commands in GOLDEN from the
repository root and review the diff."""

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from railcheck.cli import main

REPO = Path(__file__).resolve().parent.parent
GOLDEN_DIR = REPO / "tests" / "golden"

GOLDEN = {
    "train-limit.txt": ["validate", "--no-color", "examples/1830/illegal/train-limit.18xx"],
    "train-limit.json": ["validate", "--format", "json", "examples/1830/illegal/train-limit.18xx"],
    "two-illegal.junit.xml": ["validate", "--format", "junit",
                              "examples/1830/illegal/train-limit.18xx",
                              "examples/1830/illegal/bid-too-low.18xx"],
    "two-illegal.github.txt": ["validate", "--format", "github",
                               "examples/1830/illegal/train-limit.18xx",
                               "examples/1830/illegal/bid-too-low.18xx"],
    "game.score.txt": ["score", "examples/1830/game.18xx"],
}


def _normalise(text: str) -> str:
    # JUnit carries timings; they differ run to run
    return re.sub(r'time="[0-9.]+"', 'time="T"', text)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_report_matches_golden(name, monkeypatch):
    monkeypatch.chdir(REPO)
    res = CliRunner().invoke(main, GOLDEN[name])
    assert res.exception is None or isinstance(res.exception, SystemExit)
    expected = (GOLDEN_DIR / name).read_text()
    assert _normalise(res.output) == _normalise(expected)
    assert res.exit_code == (0 if name.startswith("game") else 1)


def test_json_report_fields():
    doc = json.loads((GOLDEN_DIR / "train-limit.json").read_text())
    assert doc["schema_version"] == 1
    f = doc["files"][0]
    assert f["status"] == "findings"
    assert f["findings"][0]["line"] == 48 and f["findings"][0]["rule"] == "trains.limit"
    assert [r["player"] for r in f["standings"]] == ["Bob", "Alice", "Carol"]
    assert f["standings"][0]["net_worth"] == 70 + 600 + 230
    assert doc["summary"] == {"files": 1, "legal": 0, "with_findings": 1, "unsupported": 0,
                              "unreadable": 0, "not_game_records": 0}


def test_json_follows_points_into_the_files_own_findings(tmp_path):
    """``follows`` is an index into the file's findings list, reading findings
    (here a syntax error) included: 26855 in notation, with action 32 made by
    Player 4 out of turn and a line that cannot be read before it."""
    import json as _json
    from click.testing import CliRunner
    from railcheck.cli import main
    from conftest import EXPORTS_1830
    export = next(p for p in EXPORTS_1830 if p.stem == "26855")
    notation = tmp_path / "g.18xx"
    assert CliRunner().invoke(main, ["import", str(export), "-o", str(notation)]).exit_code == 0
    lines = notation.read_text(encoding="utf-8").split("\n")
    idx = next(i for i, l in enumerate(lines) if l.rstrip().endswith("#@32"))
    lines[idx] = lines[idx].replace('"Player 3"', '"Player 4"', 1)
    lines.insert(idx + 1, '"Player 3" pass')   # so the buy is not Player 3's, misnamed
    lines.insert(idx - 5, "Alice payot")
    notation.write_text("\n".join(lines), encoding="utf-8")
    out = _json.loads(CliRunner().invoke(main, ["validate", "--format", "json",
                                                str(notation)]).output)
    found = out["files"][0]["findings"]
    assert found[0]["rule"] == "notation.syntax"
    following = [(i, f) for i, f in enumerate(found) if f["follows"] is not None]
    assert following
    for i, f in following:
        target = found[f["follows"]]
        assert f["follows"] < i and target["severity"] == "error"
        assert target["rule"] != "notation.syntax"
