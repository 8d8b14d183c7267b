import gzip
import json
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
REPO = HERE.parent
SHARED = REPO.parent / "shared"

EXPORTS_1830 = sorted((DATA / "exports" / "1830").glob("*.json"))


def replay_file(path, text=None):
    """Replay a notation file (or ``text`` under its name), which must read
    without findings; the result."""
    from railcheck.engine import Replay
    from railcheck.loader import load_game
    record, read_findings = load_game(str(path), text=text)
    assert read_findings == []
    return Replay(record).run()


def load_trace(title: str, game: str) -> dict:
    path = DATA / "traces" / f"{title}_{game}.trace.json.gz"
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return json.load(fh)


@pytest.fixture(scope="session")
def exports_1830():
    return EXPORTS_1830
