import functools
import gzip
import json
import sys
from pathlib import Path

import os

import pytest
from hypothesis import settings

# Where the environment says PYTHONDONTWRITEBYTECODE (this machine's does),
# every test process would compile railcheck and rewrite the test modules'
# assertions again: each xdist worker and each railcheck the CLI tests start
# (about 5 s of CPU a worker, 0.2 s a command).  The suite keeps Python's
# bytecode (``__pycache__``, ignored by git) as an installed railcheck does;
# what is compiled is the same source, so nothing tested changes.
sys.dont_write_bytecode = False

# The property tests (hypothesis) draw the same examples on every run, so a
# run of the suite is reproducible and CI is green or red for a reason in the
# code; HYPOTHESIS_PROFILE=explore draws new ones (and keeps what it finds in
# its database) when hunting for bugs.
settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
REPO = HERE.parent
SHARED = REPO.parent / "shared"


#: the files of the longest tests (seconds of CPU each: the purity sweeps, the
#: fuzz, the hints' searches, every random game's ``next``), by their CPU time
#: in the suite, heaviest first: started first, so that the xdist workers end
#: together on short tests instead of one waiting for the other's last long
#: one (collected in file order, these came last)
FIRST = ("tests/test_refusals_change_nothing.py", "tests/test_robustness.py",
         "tests/test_slips.py", "tests/test_table_next.py", "tests/g1860/test_corpus_1860.py",
         "tests/kansai/test_1890_next.py", "tests/test_one_mistake.py",
         "tests/g18ireland/test_corpus_18ireland_random.py", "tests/test_rotation_hint.py",
         "tests/g1830/test_random_1830.py", "tests/g1860/test_roundtrip_1860.py",
         "tests/g1857/test_1857.py")


def pytest_collection_modifyitems(config, items):
    """The tests of :data:`FIRST` first, in its order; the rest as collected."""
    rank = {path: k for k, path in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(FIRST)))


def pytest_configure(config):
    """Compile railcheck once, before the xdist workers start, so that they
    (and the commands the CLI tests start) read its bytecode instead of each
    compiling it (a fresh clone, CI's: nothing is compiled yet; later runs:
    only what changed)."""
    if not hasattr(config, "workerinput"):
        import compileall
        compileall.compile_dir(str(REPO / "railcheck"), quiet=1)

EXPORTS_1830 = sorted((DATA / "exports" / "1830").glob("*.json"))


def export_record(folder: str, name: str, last=None, ruleset=None):
    """The record of the export ``tests/data/exports/FOLDER/NAME.json[.gz]``,
    read with no finding; cut after action ``last`` (its result and end
    then no longer expected) and under ``ruleset`` when given."""
    from railcheck.importer import import_export
    path = DATA / "exports" / folder / f"{name}.json.gz"
    if path.exists():
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            text = fh.read()
    else:
        text = (DATA / "exports" / folder / f"{name}.json").read_text(encoding="utf-8")
    record, read = import_export(text, name)
    assert read == []
    if last is not None:
        record.actions = [a for a in record.actions if a.action_id <= last]
        record.expected_result = record.expected_end_reason = None
    if ruleset is not None:
        record.ruleset = ruleset
    return record


def replay_file(path, text=None):
    """Replay a notation file (or ``text`` under its name), which must read
    without findings; the result."""
    from railcheck.engine import Replay
    from railcheck.loader import load_game
    record, read_findings = load_game(str(path), text=text)
    assert read_findings == []
    return Replay(record).run()


def illegal_examples(folder) -> list:
    """The names of a title's illegal examples (``examples/TITLE/illegal``)."""
    return sorted(p.stem for p in (folder / "illegal").glob("*.18xx"))


def assert_flagged_only_at(path, line: int, rule: str, text: str):
    """The example at ``path`` has exactly one error: ``rule`` at ``line``,
    column 1, its message holding ``text``."""
    r = replay_file(path)
    errors = [f for f in r.findings if f.severity == "error"]
    assert [(f.line, f.column, f.rule) for f in errors] == [(line, 1, rule)]
    assert text in errors[0].message



def reference_constants(title: str) -> dict:
    """The published reference constants of ``title``
    (``shared/reference/TITLE.json``); the test is skipped when they are not
    beside the checkout."""
    path = SHARED / "reference" / f"{title}.json"
    if not path.exists():
        pytest.skip(f"shared/reference/{title}.json is not beside the checkout")
    return json.loads(path.read_text(encoding="utf-8"))["constants"]


def read_yaml(path):
    """A YAML file (a title's data) as PyYAML reads it."""
    import yaml
    return yaml.safe_load(Path(path).read_text(encoding="utf-8"))


def export_data_1830(name: str) -> dict:
    """The data of the 1830 export ``tests/data/exports/1830/NAME.json``,
    to change in a test."""
    return json.loads((DATA / "exports" / "1830" / f"{name}.json").read_text(encoding="utf-8"))


def import_changed(data: dict):
    """The record of an export's data (a dict) changed by a test, which
    must read without findings."""
    from railcheck.importer import import_export
    record, read = import_export(json.dumps(data), "changed.json")
    assert read == []
    return record


def error_findings(result) -> list:
    return [f for f in result.findings if f.severity == "error"]


def net_worths(result) -> dict:
    return {s["player"]: s["net_worth"] for s in result.standings}


def site_scores(data: dict) -> dict:
    """The net worths 18xx.games gives at the end of an export's game (its
    ``result``, keyed by player id), by player name."""
    names = {str(p["id"]): p["name"] for p in data["players"]}
    return {names[k]: v for k, v in data["result"].items()}


def hint_out_of_budget(monkeypatch, record, hint):
    """``hint`` (a search of ``following/diagnose.py``) run on the replay of
    ``record`` with the hints off, with a budget of one replay of the
    record: it gives no hint (the result comes back as it was) and says it
    ran out of that budget.  The result."""
    from railcheck.engine import Replay
    from railcheck.following import diagnose
    monkeypatch.setattr(diagnose, "BUDGET_FACTOR", 1)
    rep = Replay(record, hints=False)
    res = rep.run()
    search = diagnose.Search()
    assert hint(rep, res, search) is res
    assert search.out_of_budget
    assert search.budget == len(record.actions)
    return res


@functools.lru_cache(maxsize=6)
def load_trace(title: str, game: str) -> dict:
    """The engine's trace of a game of ``tests/data/traces`` (the last few
    read are kept: the tests of a module walk the same traces one after the
    other, and none changes them; decoding them again was a hundredth of the
    suite's time)."""
    path = DATA / "traces" / f"{title}_{game}.trace.json.gz"
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return json.load(fh)


@pytest.fixture(scope="session")
def exports_1830():
    return EXPORTS_1830


@pytest.fixture(autouse=True, scope="session")
def _railcheck_cache_of_the_session(tmp_path_factory):
    """railcheck's cache (rulesets' YAML readings, the notation's parser) in
    a folder of the test session's own, never the user's."""
    patch = pytest.MonkeyPatch()
    patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
    yield
    patch.undo()


def plain_and_hinted(record):
    """The results of ``record``'s replay with the hints off and on, from one
    replay: the replay made without them is asked for their explanation
    after its run (``Replay.explained``), as a replay with them on asks at
    its end.  (Tests that compare the two replayed the record twice.)  The
    first result's findings are a list of their own, as they were before
    the hints searched."""
    import dataclasses
    from railcheck.engine import Replay
    rp = Replay(record, hints=False)
    plain = rp.run()
    kept = dataclasses.replace(plain, findings=list(plain.findings))
    return kept, rp.explained(plain)
