"""``railcheck next`` offers exactly what ``railcheck validate`` accepts: for
every random game of tests/data (the shared random corpus, 24 each of 1830,
1860 and 18Ireland), at a position drawn with the game's name as seed, one action
``next`` offered is appended to the record cut there and the replay accepts
it, and one candidate it refused is appended and the replay refuses it
(tools/next_agreement.py; with more positions and the real exports, the numbers
in the report).
The numbers ``next`` gives are tested in tests/test_table.py."""

from __future__ import annotations

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


#: the positions with a candidate ``next`` refused, to play (one each)
REFUSALS_TRIED = {"1830": 24, "1860": 23, "18Ireland": 24}


def _title(path: Path) -> str:
    for key, title in TITLE_OF.items():
        if key in str(path):
            return title
    return "?"


@pytest.mark.parametrize("title", ["1830", "1860", "18Ireland"])
def test_next_agrees_with_validate(title):
    games = [p for p in GAMES if _title(p) == title]
    assert len(games) == 24
    totals = {"positions": 0, "offered": 0, "accepted": 0, "refused_tried": 0, "refused": 0,
              "legal_total": 0}
    problems = []
    for k, path in enumerate(games):
        # the first game's actions played by a replay from the start, the
        # others' from the nearest snapshot (the same findings, faster)
        r = next_agreement.check_game(path, n_positions=1, full=k == 0)
        for k in totals:
            totals[k] += r[k]
        problems.extend(r["problems"])
    print(f"{title}: {len(games)} games, {totals}")
    assert problems == []
    # every position has an action to play; all but one have a refusal to try:
    # in 1860_rand_18603_7's stock round 14 every candidate made (57: buys,
    # sales, a private's sale, the pass) is legal
    assert totals["positions"] == totals["offered"] == len(games)
    assert totals["refused_tried"] == REFUSALS_TRIED[title]
    assert totals["accepted"] == totals["offered"]
    assert totals["refused"] == totals["refused_tried"]
