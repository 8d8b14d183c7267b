"""Corners of the commands: ``--no-board`` (the map not checked) on the bundled
complete games of the titles with a map, and ``history - --routes``.

``--no-board``: what needs the map is not judged, what the rules can still
tell without it is kept (1830's Erie placing its home station again on E11,
1860's halt subsidies and home track, 18Ireland's free narrow-gauge terrain),
so a legal game stays legal and scores the same as with the map."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from railcheck import cli

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

#: net worth of every player, as the game scores with the map checked
NET_WORTH = {
    "1830": {"Bob": 13048, "Carol": 12109, "Alice": 12025},
    "1857": {"Dave": 8982, "Bob": 8586, "Carol": 8201, "Alice": 6644},
    "1860": {"Bob": 16165, "Alice": 9773},
    "18Ireland": {"Alice": 2109, "Bob": 1624, "Dave": 1558, "Frank": 1368, "Carol": 1267,
                  "Eve": 899},
}


@pytest.mark.parametrize("title", sorted(NET_WORTH))
def test_legal_game_without_the_map(title):
    res = CliRunner().invoke(cli.main, ["validate", "--no-board", "--no-hints", "--format",
                                        "json", str(EXAMPLES / title / "game.18xx")])
    report = json.loads(res.output)["files"][0]
    errors = [f for f in report["findings"] if f["severity"] == "error"]
    assert errors == []
    assert report["finished"] is True
    assert {s["player"]: s["net_worth"] for s in report["standings"]} == NET_WORTH[title]


def test_history_routes_from_standard_input():
    """``history - --routes``: standard input is read once and both replays
    (the history and the hindsight search of the runs) get the game."""
    text = (EXAMPLES / "1830" / "opening.18xx").read_text()
    res = CliRunner().invoke(cli.main, ["history", "-", "--routes", "--format", "json"],
                             input=text)
    assert res.exit_code == 0, res.output
    runs = json.loads(res.output)["runs"]
    first = runs[0]
    assert (first["round"], first["corporation"], first["line"]) == ("OR 2.1", "B&O", 80)
    assert (first["claimed"], first["best"]) == (90, 90)


def test_history_routes_of_a_garbled_standard_input():
    res = CliRunner().invoke(cli.main, ["history", "-", "--routes"], input="title: 1830\n")
    assert res.exit_code == 2
    assert "<stdin>: missing header line 'players:'" in res.output
