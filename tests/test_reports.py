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
                              "unreadable": 0}
