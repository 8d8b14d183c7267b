"""`railcheck import` then `validate` of the produced notation gives the same
findings and scores as validating the export directly."""

import json

import pytest
from click.testing import CliRunner

from railcheck.cli import main

from conftest import EXPORTS_1830


def validate_json(path):
    res = CliRunner().invoke(main, ["validate", "--format", "json", str(path)])
    assert res.exit_code in (0, 1), res.output
    return json.loads(res.output)["files"][0]


@pytest.mark.parametrize("export", EXPORTS_1830, ids=lambda p: p.stem)
def test_import_then_validate_matches_direct_validation(export, tmp_path):
    out = tmp_path / (export.stem + ".18xx")
    res = CliRunner().invoke(main, ["import", str(export), "-o", str(out)])
    assert res.exit_code == 0, res.output
    text = out.read_text()
    assert text.startswith("title: 1830\n")
    direct = validate_json(export)
    again = validate_json(out)
    assert direct["findings"] == [] and again["findings"] == []
    assert direct["standings"] == again["standings"]
    assert direct["companies"] == again["companies"]
    assert (direct["finished"], direct["end_reason"]) == (again["finished"], again["end_reason"])
    # every action line keeps the export's id
    action_lines = [l for l in text.splitlines() if "#@" in l]
    assert len(action_lines) == direct["actions"]


def test_import_refuses_to_overwrite(tmp_path):
    export = EXPORTS_1830[0]
    out = tmp_path / "game.18xx"
    out.write_text("keep me\n")
    res = CliRunner().invoke(main, ["import", str(export), "-o", str(out)])
    assert res.exit_code == 2
    assert "exists; use --force" in res.output
    assert out.read_text() == "keep me\n"
    res = CliRunner().invoke(main, ["import", str(export), "-o", str(out), "--force"])
    assert res.exit_code == 0
    assert out.read_text().startswith("title: 1830")
