"""``railcheck next`` offers exactly what ``railcheck validate`` accepts: for
every random game of tests/data (the shared random corpus, 24 each of 1830,
1860 and 18Ireland), at a position drawn with the game's name as seed, one action
``next`` offered is appended to the record cut there and the replay accepts
it, and one candidate it refused is appended and the replay refuses it
(tools/next_agreement.py; with more positions and the real exports, the numbers
in the report).  One test per game, so that the test processes share them.
By default every other game of each title is played (47 of the 94, each
title's half, :data:`PLAYED`); ``RAILCHECK_FULL=1`` plays all 94.
The numbers ``next`` gives are tested in tests/test_table.py."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tools"))

import next_agreement  # noqa: E402

#: the shared random games (their copies in tests/data); the real exports are
#: played by tools/next_agreement.py (the report's numbers)
GAMES = [p for p in next_agreement.default_paths() if "random" in str(p)]
TITLE_OF = {"random/1830": "1830", "1860_random": "1860", "18Ireland_random": "18Ireland"}

#: games whose position has no candidate ``next`` refused (1860_rand_18603_7's
#: stock round 14 was one before this round's 1860 stock-round rules, under
#: which one candidate made there is refused)
NOTHING_REFUSED: set = set()

#: one game per title played from the start of the record (the others from
#: the nearest snapshot, which gives the same findings: tests/test_table.py)
FULL = {"1830_rand_18303_0.json", "1860_rand_18602_0.json.gz",
        "18Ireland_rand_18003_0.json.gz"}


#: the games played by default: every other game of each title (by name), the
#: games of FULL among them; all of them with RAILCHECK_FULL=1 (each title's
#: half of the positions; tools/next_agreement.py plays them all and more)
PLAYED = GAMES if os.environ.get("RAILCHECK_FULL") else [
    p for k, p in enumerate(GAMES) if k % 2 == 0 or p.name in FULL]


def _title(path: Path) -> str:
    for key, title in TITLE_OF.items():
        if key in str(path):
            return title
    return "?"


def test_the_random_games_are_all_there():
    titles = [_title(p) for p in GAMES]
    assert {t: titles.count(t) for t in set(titles)} == {"1830": 34, "1860": 24,
                                                          "18Ireland": 36}
    assert FULL | NOTHING_REFUSED <= {p.name for p in GAMES}
    played = [_title(p) for p in PLAYED]
    assert {t: played.count(t) for t in set(played)} == (
        {"1830": 34, "1860": 24, "18Ireland": 36} if os.environ.get("RAILCHECK_FULL") else
        {"1830": 17, "1860": 12, "18Ireland": 18})
    assert FULL <= {p.name for p in PLAYED}


@pytest.mark.parametrize("path", PLAYED, ids=[p.name.split(".")[0] for p in PLAYED])
def test_next_agrees_with_validate(path):
    r = next_agreement.check_game(path, n_positions=1, full=path.name in FULL)
    print(_title(path), r)
    assert r["problems"] == []
    # the position drawn (and the record's end, for a game kept cut short
    # while still going) has an action to play, and it is accepted
    from railcheck.loader import load_game
    expected = len(next_agreement.positions_of(load_game(str(path))[0], 1, path.name))
    assert r["positions"] == r["offered"] == r["accepted"] == expected
    # a candidate refused there, played: refused
    want = 0 if path.name in NOTHING_REFUSED else expected
    assert r["refused_tried"] == r["refused"] == want
