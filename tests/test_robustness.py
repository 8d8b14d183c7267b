"""Damaged input never gives a traceback (property-based, with hypothesis).

Real games, damaged: notation cut at random points, lines swapped or
shuffled, characters garbled, random bytes; 18xx.games exports truncated,
with fields of the wrong type, keys missing, actions full of garbage.  For
every one of them the CLI must end with exit code 0, 1 or 2, never with an
exception, and

* exit 2 (the file cannot be checked) prints the file's path, and
  ``path:LINE`` when the problem has a line;
* every finding is located: a line (notation) or an action id / entry
  number (exports), except whole-game findings such as the site's score;
* reading never fails inside railcheck ("internal error while checking this
  file") and no replay stops on an "internal.error" finding.

The examples are few and the same on every run (the suite's hypothesis
profile, tests/conftest.py; ``HYPOTHESIS_PROFILE=explore`` draws new ones).
Each property draws 25 (``RAILCHECK_FUZZ_EXAMPLES`` sets another number);
the properties that replay a whole real game damaged (:data:`HEAVY`: a
block shuffled, lines swapped, characters garbled, an action or a field
replaced, in 1830's notation and exports and in 1860's and 18Ireland's: a
few tenths of a second of CPU each, the replay reading the record's next
lines for each refused one) draw 10 by default and 25 with
``RAILCHECK_FULL=1``.
"""

import hashlib
import json
import os
import re
from pathlib import Path
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, currently_in_test_context, given, settings
from hypothesis import strategies as st

from railcheck.cli import main
from railcheck.importer import filter_actions

from conftest import EXPORTS_1830

# (the examples drawn are the profile's: the same on every run, CI's or not,
# unless HYPOTHESIS_PROFILE=explore)
FAST = settings(max_examples=int(os.environ.get("RAILCHECK_FUZZ_EXAMPLES", "25")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])
#: the properties over a whole real game damaged: 10 examples by default (a
#: third of the suite's CPU was theirs at 25), 25 with RAILCHECK_FULL=1
HEAVY = settings(FAST, max_examples=int(os.environ.get("RAILCHECK_FUZZ_EXAMPLES") or (
    25 if os.environ.get("RAILCHECK_FULL") else 10)))


#: findings about the whole game, which no single line caused
# (and what a title says it does not check, once per game: Title.unchecked)
WHOLE_GAME_RULES = {"score.site_differs", "score.end_differs", "route.unchecked"}


# ---------------------------------------------------------------------------
# fixtures: one real game as notation and as an export

@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("robust")


@pytest.fixture(scope="module")
def notation(workdir):
    """26855 in railcheck notation, as `railcheck import` writes it."""
    src = next(p for p in EXPORTS_1830 if p.stem == "26855")
    out = workdir / "source.18xx"
    res = CliRunner().invoke(main, ["import", str(src), "-o", str(out)])
    assert res.exit_code == 0, res.output
    return out.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def export():
    """29133 (the shortest real 1830 game) as parsed JSON."""
    src = next(p for p in EXPORTS_1830 if p.stem == "29133")
    return json.loads(src.read_text(encoding="utf-8"))


# ---------------------------------------------------------------------------
# the property

#: the inputs checked, by (file name, content, format, hints): the exit code
#: and the JSON report's findings (see :func:`check`)
_CHECKED: dict = {}


def check(path, data, fmt="json", hints=None):
    """Write ``data`` (text or bytes) to ``path``, validate it, and assert
    the property; returns the exit code.  The search for the one slip that
    explains a report's errors (``following/diagnose.py``: replays of the
    whole record) is left out of the generated examples unless asked for
    (``hints=True``): they test the reading and the replay, and cost a
    third of the time with it; the fixed cases below and
    :func:`test_hints_on_shuffled_exports` run it on damaged records.

    An input already checked (the same file name, bytes, format and hints:
    hypothesis's draws often damage a record the same way, an eighth of
    them) is written again but not validated again: its validation is
    deterministic, and its exit code and findings (:func:`last_findings`)
    are those of the first time."""
    if hints is None:
        hints = not currently_in_test_context()
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    before = path.read_bytes()
    key = (path.name, hashlib.sha256(before).hexdigest(), fmt, hints)
    if key in _CHECKED:
        _CHECKED[str(path)] = _CHECKED[key]
        return _CHECKED[key][0]
    runner = CliRunner()
    res = runner.invoke(main, ["validate", "--format", fmt, str(path)]
                        + ([] if hints else ["--no-hints"]))
    assert res.exception is None or isinstance(res.exception, SystemExit), \
        f"{type(res.exception).__name__}: {res.exception}\n{res.output}"
    assert res.exit_code in (0, 1, 2), res.output
    assert "Traceback" not in res.output
    # neither the reading nor the replay meets a state it did not expect
    assert "internal error while checking this file" not in res.output, res.output
    # (as a rule id: the input's own text, echoed in the report, may hold the words)
    assert "[internal.error]" not in res.output, res.output
    assert '"rule": "internal.error"' not in res.output, res.output
    assert path.read_bytes() == before          # validation never writes the input
    if fmt == "json":
        doc = json.loads(res.stdout)
        (entry,) = doc["files"]
        assert doc["schema_version"] == 1
        assert entry["path"] == str(path)
        if res.exit_code == 2:
            # unreadable, or an export of a title railcheck does not know
            # (a mangled 'title' reads as one: loader.UnsupportedTitle)
            status = entry["status"]
            assert status in ("unreadable", "unsupported") and entry["error"]["message"]
            # the text report says where
            text = runner.invoke(main, ["validate", str(path)])
            assert text.exit_code == 2
            where = str(path)
            if entry["error"]["line"] is not None:
                where += f":{entry['error']['line']}"
            label = "error" if status == "unreadable" else "unsupported"
            assert f"{label}: {where}:" in text.output, text.output
        else:
            assert entry["status"] in ("legal", "warnings", "findings")
            assert (res.exit_code == 1) == (entry["status"] == "findings")
            for f in entry["findings"]:
                located = (f["line"] is not None or f["action_id"] is not None
                           or f["rule"] in WHOLE_GAME_RULES
                           or re.match(r"entry \d+ of the export's actions", f["message"]))
                assert located, f
    elif fmt == "junit":
        root = ET.fromstring(res.stdout)
        assert len(root.findall(".//testcase")) == 1
    elif fmt == "github":
        for line in res.stdout.splitlines()[:-1]:
            assert line.startswith(("::error file=", "::warning file=", "::notice file=")), line
    findings = doc["files"][0].get("findings") if fmt == "json" else None
    _CHECKED[key] = _CHECKED[str(path)] = (res.exit_code, findings)
    return res.exit_code


def last_findings(path) -> list:
    """The findings of the JSON report of the last :func:`check` of ``path``
    (the same validation, hints on or off as it was checked)."""
    return _CHECKED[str(path)][1]


# ---------------------------------------------------------------------------
# damaged notation

def shuffle_block(items: list, rnd, start: float, size: int) -> None:
    """Shuffles in place the block of ``size`` items of ``items`` from the
    fraction ``start`` of them."""
    i = int(start * len(items))
    block = items[i:i + size]
    rnd.shuffle(block)
    items[i:i + size] = block


def lines_swapped(text: str, swaps) -> list:
    """The lines of ``text`` (their ends kept), each pair ``(a, b)`` of
    ``swaps`` swapping the lines at those fractions of the text, in turn."""
    lines = text.splitlines(keepends=True)
    for a, b in swaps:
        i, j = int(a * (len(lines) - 1)), int(b * (len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    return lines


@FAST
@given(cut=st.floats(0, 1))
def test_notation_cut_anywhere(workdir, notation, cut):
    check(workdir / "cut.18xx", notation[:int(len(notation) * cut)])


@HEAVY
@given(swaps=st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=1, max_size=6))
def test_notation_lines_swapped(workdir, notation, swaps):
    check(workdir / "swapped.18xx", "".join(lines_swapped(notation, swaps)))


@HEAVY
@given(rnd=st.randoms(use_true_random=False), start=st.floats(0, 1), size=st.integers(2, 80))
def test_notation_block_shuffled(workdir, notation, rnd, start, size):
    lines = notation.splitlines(keepends=True)
    shuffle_block(lines, rnd, start, size)
    check(workdir / "shuffled.18xx", "".join(lines))


GARBLE = st.one_of(st.characters(blacklist_categories=("Cs",)), st.sampled_from(list('"#:@,=()-.0123456789 \t\\{}[]|\r\n\x00\x0b\ufeff\u200b\u00e9')))  # noqa: E501


@HEAVY
@given(edits=st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1), GARBLE), min_size=1, max_size=8),
       fmt=st.sampled_from(["json", "json", "text", "junit", "github"]))
def test_notation_garbled_characters(workdir, notation, edits, fmt):
    lines = notation.splitlines(keepends=True)
    for where, pos, ch in edits:
        i = int(where * (len(lines) - 1))
        line = lines[i]
        k = int(pos * len(line))
        lines[i] = line[:k] + ch + line[k + 1:]
    check(workdir / "garbled.18xx", "".join(lines), fmt)


@FAST
@given(lines=st.lists(st.text(st.characters(blacklist_categories=("Cs",)), max_size=40), max_size=12))
def test_notation_random_lines_after_a_real_header(workdir, notation, lines):
    header = notation.split("\n\n", 1)[0] if "\n\n" in notation else "\n".join(
        notation.splitlines()[:2])
    check(workdir / "random-lines.18xx", header + "\n" + "\n".join(lines) + "\n")


@FAST
@given(data=st.binary(max_size=3000), suffix=st.sampled_from([".18xx", ".json"]))
def test_random_bytes(workdir, data, suffix):
    check(workdir / f"bytes{suffix}", data)


@FAST
@given(pos=st.floats(0, 1), junk=st.binary(min_size=1, max_size=8))
def test_notation_with_bytes_spliced_in(workdir, notation, pos, junk):
    raw = notation.encode("utf-8")
    k = int(pos * len(raw))
    code = check(workdir / "spliced.18xx", raw[:k] + junk + raw[k:])
    try:
        (raw[:k] + junk + raw[k:]).decode("utf-8")
    except UnicodeDecodeError:
        assert code == 2


# ---------------------------------------------------------------------------
# broken 18xx.games exports

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**12) | st.floats(allow_nan=False)
    | st.text(max_size=8)
    | st.sampled_from(["PRR_1", "H10", "57-0", "57-0-0", "2-0", "D-0", "CA", "B&O", "payout",
                       "Player 1", "-1", "1.5", "\ud800"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                               max_size=3),
    max_leaves=6)


@FAST
@given(cut=st.floats(0, 1))
def test_export_truncated(workdir, export, cut):
    text = json.dumps(export)
    code = check(workdir / "truncated.json", text[:int(len(text) * cut)])
    assert code == 2 or cut > 0.999


@FAST
@given(key=st.sampled_from(["title", "players", "actions", "settings", "result", "id",
                            "game_end_reason", "status"]),
       value=JSON_VALUES, drop=st.booleans())
def test_export_top_level_field_broken(workdir, export, key, value, drop):
    data = dict(export)
    if drop:
        data.pop(key, None)
    else:
        data[key] = value
    check(workdir / "field.json", json.dumps(data))


@FAST
@given(edits=st.lists(st.tuples(st.floats(0, 1), st.text(max_size=12) | st.sampled_from(
    ["type", "entity", "entity_type", "id", "price", "company", "corporation", "shares",
     "percent", "share_price", "hex", "tile", "rotation", "city", "routes", "train", "kind",
     "exchange", "auto_actions", "action_id", "revenue", "connections", "nodes"])),
    min_size=1, max_size=5),
    values=st.lists(JSON_VALUES, min_size=5, max_size=5), drop=st.booleans())
def test_export_actions_with_garbage(workdir, export, edits, values, drop):
    data = json.loads(json.dumps(export))
    actions = data["actions"]
    for (where, key), value in zip(edits, values):
        act = actions[int(where * (len(actions) - 1))]
        if drop:
            act.pop(key, None)
        elif key == "routes" and isinstance(act.get("routes"), list) and act["routes"]:
            act["routes"][0] = {**act["routes"][0], "revenue": value} if isinstance(
                act["routes"][0], dict) else value
        else:
            act[key] = value
    check(workdir / "actions.json", json.dumps(data))


@HEAVY
@given(where=st.floats(0, 1), value=JSON_VALUES)
def test_export_action_replaced(workdir, export, where, value):
    data = json.loads(json.dumps(export))
    data["actions"][int(where * (len(data["actions"]) - 1))] = value
    check(workdir / "replaced.json", json.dumps(data))


@HEAVY
@given(which=st.integers(0, 3), key=st.sampled_from(["id", "name"]), value=JSON_VALUES,
       drop=st.booleans())
def test_export_players_broken(workdir, export, which, key, value, drop):
    data = json.loads(json.dumps(export))
    player = data["players"][which]
    if drop:
        player.pop(key)
    else:
        player[key] = value
    check(workdir / "players.json", json.dumps(data))


@HEAVY
@given(rnd=st.randoms(use_true_random=False), start=st.floats(0, 1), size=st.integers(2, 40))
def test_export_actions_shuffled(workdir, export, rnd, start, size):
    data = json.loads(json.dumps(export))
    shuffle_block(data["actions"], rnd, start, size)
    check(workdir / "shuffled.json", json.dumps(data))


# ---------------------------------------------------------------------------
# a few fixed cases that the properties above found, or that matter most


def test_export_player_named_empty(workdir, export):
    """A player named "" (the property above found it: the money's owner
    was taken for a company, ``Game.who``): replayed as the site scored it."""
    data = json.loads(json.dumps(export))
    data["players"][0]["name"] = ""
    assert check(workdir / "unnamed.json", json.dumps(data), fmt="json") == 0
    res = CliRunner().invoke(main, ["validate", "--format", "json", str(workdir / "unnamed.json")])
    (entry,) = json.loads(res.stdout)["files"]
    worth = {s["player"]: s["net_worth"] for s in entry["standings"]}
    assert worth == {"Player 2": 1477, "Player 3": 951, "": 887, "Player 4": 416}

def test_every_format_on_a_damaged_folder(workdir, notation, export):
    folder = workdir / "league"
    folder.mkdir()
    (folder / "cut.18xx").write_text(notation[: len(notation) // 2], encoding="utf-8")
    (folder / "bytes.json").write_bytes(b"\xff\xfe\x00garbage")
    broken = dict(export, players="nobody")
    (folder / "players.json").write_text(json.dumps(broken))
    (folder / "ok.json").write_text(json.dumps(export))
    for fmt in ("text", "json", "junit", "github"):
        res = CliRunner().invoke(main, ["validate", "--format", fmt, "--jobs", "2", str(folder)])
        assert res.exception is None or isinstance(res.exception, SystemExit), res.output
        assert res.exit_code == 2
        assert str(folder / "bytes.json") in res.output
    res = CliRunner().invoke(main, ["validate", "--format", "json", str(folder)])
    summary = json.loads(res.stdout)["summary"]
    assert summary["files"] == 4 and summary["unreadable"] >= 2


def test_non_object_actions_are_located_findings(workdir, export):
    data = json.loads(json.dumps(export))
    data["actions"].insert(3, "garbage")
    data["actions"][10]["id"] = [1, 2]
    path = workdir / "entries.json"
    path.write_text(json.dumps(data))
    res = CliRunner().invoke(main, ["validate", "-q", str(path)])
    assert res.exit_code == 1
    assert "entry 4 of the export's actions is str 'garbage', not an object; skipped" in res.output
    assert "entry 11 of the export's actions has an 'id' that is not a number" in res.output


def test_wrong_type_percent_is_a_finding_not_a_crash(workdir, export):
    data = json.loads(json.dumps(export))
    counted = {a.get("id") for a in filter_actions(data["actions"])}
    sell = next(a for a in data["actions"]
                if a.get("type") == "sell_shares" and a.get("id") in counted)
    sell["percent"] = "lots"
    path = workdir / "percent.json"
    path.write_text(json.dumps(data))
    res = CliRunner().invoke(main, ["validate", "--format", "json", str(path)])
    assert res.exit_code == 1
    finding = json.loads(res.stdout)["files"][0]["findings"][0]
    assert finding["rule"] == "import.malformed" and finding["action_id"] == sell["id"]


def test_settings_of_the_wrong_type(workdir, export):
    path = workdir / "settings.json"
    path.write_text(json.dumps(dict(export, settings=["seed"])))
    res = CliRunner().invoke(main, ["validate", str(path)])
    assert res.exit_code == 2
    assert f"{path}:1:1: an 18xx.games export's 'settings' must be an object" in res.output


# ---------------------------------------------------------------------------
# syntax errors inside otherwise good records: findings, never exit 2

def first_action(lines) -> int:
    """The index of the first line after the header."""
    return next(i for i, line in enumerate(lines)
                if line.strip() and not re.match(r"[a-z][a-z0-9_\-]*:", line))


ACTOR_AND_VERB = re.compile(r'^((?:"(?:[^"\n]|"")*"|\S+)[ \t]+)(\w)(\w*)')


@FAST
@given(picks=st.lists(st.floats(0, 1), min_size=1, max_size=4))
def test_notation_misspelt_verbs_are_findings(workdir, notation, picks):
    """A letter slipped into the verb of some action lines: each is a
    notation.syntax finding on its line and column, the game is checked."""
    lines = notation.split("\n")
    body = first_action(lines)
    actions = [i for i in range(body, len(lines))
               if ACTOR_AND_VERB.match(lines[i]) and not lines[i].startswith("check ")]
    spoilt = sorted({actions[int(p * (len(actions) - 1))] for p in picks})
    for i in spoilt:
        lines[i] = ACTOR_AND_VERB.sub(r"\1\2q\3", lines[i], count=1)
    path = workdir / "misspelt.18xx"
    code = check(path, "\n".join(lines))
    assert code == 1
    findings = last_findings(path)
    syntax = [(f["line"], f["column"]) for f in findings if f["rule"] == "notation.syntax"]
    assert syntax == [(i + 1, ACTOR_AND_VERB.match(lines[i]).end(1) + 1) for i in spoilt]


@FAST
@given(where=st.floats(0, 1),
       junk=st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"),
                    min_size=1, max_size=30))
def test_notation_garbage_line_among_the_actions(workdir, notation, junk, where):
    """Any line after the first action, even one that looks like a header
    line, is at worst a finding on its own line."""
    lines = notation.split("\n")
    body = first_action(lines) + 1
    i = body + int(where * (len(lines) - body - 1))
    lines.insert(i, "@ " + junk)                 # `@` never starts a line that parses
    path = workdir / "junk.18xx"
    assert check(path, "\n".join(lines)) == 1
    findings = last_findings(path)
    assert [(f["line"], f["column"], f["rule"]) for f in findings][:1] == \
        [(i + 1, 1, "notation.syntax")]


@FAST
@given(where=st.floats(0, 1), junk=st.text(max_size=30))
def test_notation_any_line_among_the_actions_is_never_fatal(workdir, notation, junk, where):
    lines = notation.split("\n")
    body = first_action(lines) + 1
    lines.insert(body + int(where * (len(lines) - body - 1)), junk.replace("\x00", ""))
    assert check(workdir / "any.18xx", "\n".join(lines)) in (0, 1)


# ---------------------------------------------------------------------------
# odd names and line ends

#: the example game's players, renamed to names that need care
ODD_NAMES = {"Alice": 'Al "X" Y', "Bob": "Zoe\u0308 \u200b\u00a0\u05e9\u05dc\u05d5\u05dd",
             "Carol": "\U0001F682\tpa\u017fs #1"}


def renamed_example() -> str:
    from railcheck.notation import _quote

    text = (Path(__file__).resolve().parents[1] / "examples" / "1830" / "game.18xx").read_text(
        encoding="utf-8")
    for old, new in ODD_NAMES.items():
        text = re.sub(rf"\b{old}\b", _quote(new).replace("\\", "\\\\"), text)
    return text


def test_odd_names_validate_like_plain_ones(workdir):
    from railcheck.notation import _quote

    assert [_quote(n) for n in ODD_NAMES.values()] == [
        '"Al ""X"" Y"', '"Zoe\u0308 \u200b\u00a0\u05e9\u05dc\u05d5\u05dd"',
        '"\U0001F682\tpa\u017fs #1"']
    plain = CliRunner().invoke(main, ["validate", "--format", "json", str(
        Path(__file__).resolve().parents[1] / "examples" / "1830" / "game.18xx")])
    want = json.loads(plain.stdout)["files"][0]
    text = renamed_example()
    variants = {"lf.18xx": text.encode("utf-8"),
                "crlf.18xx": text.replace("\n", "\r\n").encode("utf-8"),
                "cr.18xx": text.replace("\n", "\r").encode("utf-8"),
                "bom.18xx": b"\xef\xbb\xbf" + text.encode("utf-8"),
                "tabs.18xx": "\n".join("\t" + line.replace(" = ", "\t=\t").replace(" pass", "\tpass")
                                       for line in text.split("\n")).encode("utf-8")}
    for name, data in variants.items():
        path = workdir / name
        path.write_bytes(data)
        res = CliRunner().invoke(main, ["validate", "--format", "json", str(path)])
        assert res.exit_code == 0, (name, res.output[:2000])
        got = json.loads(res.stdout)["files"][0]
        assert got["players"] == [ODD_NAMES[p] for p in want["players"]], name
        assert [(ODD_NAMES[r["player"]], r["net_worth"]) for r in want["standings"]] == \
            [(r["player"], r["net_worth"]) for r in got["standings"]], name
        assert got["actions"] == want["actions"] == 665


NAME_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12)


@FAST
@given(names=st.lists(NAME_TEXT, min_size=2, max_size=4, unique=True))
def test_any_writable_name_reads_back(names):
    """Whatever the names, write_game either refuses them (ValueError: a line
    break in a name, a blank name) or writes a file that reads back the same."""
    from railcheck.actions import BuyShares, Checkpoint, GameRecord, Pass
    from railcheck.notation import parse_game, write_game

    record = GameRecord(path="x", title="1830", players=list(names), actions=[
        Pass(actor=names[0]),
        BuyShares(actor=names[0], corporation=names[1], count=2, source="pool"),
        Checkpoint(subject=names[1], field="president", value=names[0])],
        expected_result={n: 10 * i for i, n in enumerate(names)})
    try:
        text = write_game(record)
    except ValueError:
        assert any(not n.strip() or "\n" in n or "\r" in n for n in names)
        return
    again, findings = parse_game(text, "again.18xx")
    assert findings == []
    assert again.players == names
    assert again.expected_result == record.expected_result
    where = ("line", "column", "text")
    assert [{k: v for k, v in vars(a).items() if k not in where} for a in again.actions] == \
        [{k: v for k, v in vars(a).items() if k not in where} for a in record.actions]


@pytest.mark.parametrize("title", ["\\1830", "18/30", "1830\\"])
def test_a_garbled_title_is_an_unknown_title_on_its_line(tmp_path, title):
    """A title line is never read as a ruleset file (only a `.yaml`/`.yml`
    name is): a slash or backslash in it gives the located unknown title."""
    from click.testing import CliRunner
    from railcheck.cli import main
    game = tmp_path / "g.18xx"
    game.write_text(f"title: {title}\nplayers: A, B, C\n\nauction\nA pass\n")
    res = CliRunner().invoke(main, ["validate", str(game)])
    assert res.exit_code == 2
    assert res.output.startswith(f"error: {game}:1:1: unknown title '{title}'")


# ---------------------------------------------------------------------------
# 18Ireland: its own rounds (minor auctions, merger votes) under the same property

IRELAND = Path(__file__).resolve().parent / "data" / "exports" / "18Ireland"


@pytest.fixture(scope="module")
def export_ireland():
    """18Ireland 161830 (minor auctions, issues, mergers, a TASPS token)."""
    return json.loads((IRELAND / "161830.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def notation_ireland(workdir):
    out = workdir / "ireland.18xx"
    res = CliRunner().invoke(main, ["import", str(IRELAND / "161830.json"), "-o", str(out)])
    assert res.exit_code == 0, res.output
    return out.read_text(encoding="utf-8")


#: one real export of each title with its own rounds, for the properties below
TITLE_EXPORTS = {
    "18Ireland": IRELAND / "161830.json",
    "1860": Path(__file__).resolve().parent / "data" / "exports" / "1860" / "1860_game_end_bank.json",
}


@pytest.fixture(scope="module")
def title_exports():
    return {t: json.loads(p.read_text(encoding="utf-8")) for t, p in TITLE_EXPORTS.items()}


@pytest.mark.parametrize("title", sorted(TITLE_EXPORTS))
@HEAVY
@given(rnd=st.randoms(use_true_random=False), start=st.floats(0, 1), size=st.integers(2, 40))
def test_title_export_actions_shuffled(workdir, title_exports, title, rnd, start, size):
    data = json.loads(json.dumps(title_exports[title]))
    shuffle_block(data["actions"], rnd, start, size)
    check(workdir / f"{title}-shuffled.json", json.dumps(data))


@pytest.mark.parametrize("title", sorted(TITLE_EXPORTS))
@settings(FAST, max_examples=min(FAST.max_examples, 4))
@given(rnd=st.randoms(use_true_random=False), start=st.floats(0, 1), size=st.integers(2, 40))
def test_hints_on_shuffled_exports(workdir, title_exports, title, rnd, start, size):
    # the same property with the search for the one slip that explains the
    # errors (its candidate replays of a damaged record) on
    data = json.loads(json.dumps(title_exports[title]))
    shuffle_block(data["actions"], rnd, start, size)
    check(workdir / f"{title}-shuffled-hints.json", json.dumps(data), hints=True)


@pytest.mark.parametrize("title", sorted(TITLE_EXPORTS))
@HEAVY
@given(where=st.floats(0, 1), value=JSON_VALUES)
def test_title_export_action_replaced(workdir, title_exports, title, where, value):
    data = json.loads(json.dumps(title_exports[title]))
    data["actions"][int(where * (len(data["actions"]) - 1))] = value
    check(workdir / f"{title}-replaced.json", json.dumps(data))


@HEAVY
@given(swaps=st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=1, max_size=6))
def test_18ireland_notation_lines_swapped(workdir, notation_ireland, swaps):
    check(workdir / "ireland-swapped.18xx", "".join(lines_swapped(notation_ireland, swaps)))


# ---------------------------------------------------------------------------
# 1860: its own rounds (turn auction, insolvency, receivership, bankrupt
# companies, nationalisation) and runs with halts, under the same property

EXPORTS_1860 = Path(__file__).resolve().parent / "data" / "exports" / "1860"


@pytest.fixture(scope="module")
def export_1860():
    """1860_game_end_bank (a whole game to the bank's end)."""
    return json.loads((EXPORTS_1860 / "1860_game_end_bank.json").read_text(encoding="utf-8"))


RUN_KEYS = st.sampled_from(["train", "connections", "hexes", "revenue", "subsidy", "halts",
                            "nodes", "revenue_str"])


@HEAVY
@given(which=st.floats(0, 1), key=RUN_KEYS, value=JSON_VALUES, drop=st.booleans())
def test_1860_export_run_with_garbage(workdir, export_1860, which, key, value, drop):
    """A run's fields (connections inside a hex, halts, subsidy...) broken."""
    data = json.loads(json.dumps(export_1860))
    runs = [a for a in data["actions"] if a.get("type") == "run_routes" and a.get("routes")]
    route = runs[int(which * (len(runs) - 1))]["routes"][0]
    if drop:
        route.pop(key, None)
    else:
        route[key] = value
    check(workdir / "1860-run.json", json.dumps(data))


@pytest.mark.parametrize("connections", [[], [[]], [["F2 0.1"], []], [[""]], [["F2 9.9"]]])
def test_1860_odd_connections_are_findings_not_crashes(workdir, export_1860, connections):
    data = json.loads(json.dumps(export_1860))
    run = next(a for a in data["actions"] if a.get("type") == "run_routes" and a.get("routes"))
    run["routes"][0]["connections"] = connections
    assert check(workdir / "1860-connections.json", json.dumps(data)) in (0, 1)


# ---------------------------------------------------------------------------
# Kansai: its own checker, and a components file beside the game

KANSAI = Path(__file__).resolve().parent.parent / "examples" / "kansai"


@FAST
@given(swaps=st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=1, max_size=6),
       cut=st.floats(0, 1))
def test_kansai_notation_lines_swapped_and_cut(workdir, swaps, cut):
    import shutil
    shutil.copyfile(KANSAI / "components-example.yaml", workdir / "components-example.yaml")
    lines = lines_swapped((KANSAI / "game.18xx").read_text(encoding="utf-8"), swaps)
    lines = lines[:max(1, int(len(lines) * cut))] if cut < 0.9 else lines
    check(workdir / "kansai-swapped.18xx", "".join(lines))


@FAST
@given(where=st.floats(0, 1), junk=st.text(max_size=30))
def test_kansai_components_file_with_a_garbled_line(workdir, where, junk):
    """A line of the components file replaced: a located error, never a crash."""
    comp = (KANSAI / "components-example.yaml").read_text(encoding="utf-8").split("\n")
    comp[int(where * (len(comp) - 1))] = junk
    components = workdir / "components-example.yaml"
    components.write_text("\n".join(comp), encoding="utf-8")
    game = workdir / "kansai-garbled.18xx"
    game.write_text((KANSAI / "game.18xx").read_text(encoding="utf-8"), encoding="utf-8")
    res = CliRunner().invoke(main, ["validate", str(game)])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output
    assert "Traceback" not in res.output and "internal error" not in res.output, res.output
    if res.exit_code == 2:
        # the error is the components file's, located in it (or in the game's header line)
        assert re.match(rf"error: ({re.escape(str(components))}|{re.escape(str(game))}):\d+",
                        res.output), res.output
    else:
        assert res.exit_code in (0, 1), res.output


def test_1860_a_company_acting_after_its_turn_in_anothers_is_a_finding(workdir, export_1860):
    """Found by the fuzz above: with entry 126 (a buy with an auto-buy) made
    a bare number, the game parts from the record; much later NGStL, which
    operated already, ran in C&N's turn (action 550: since more refused lines
    are read as the record goes on, the replay reaches it otherwise, and a
    run's revenue is flagged there).  That is a finding where it stands, not
    a crash of the replay."""
    data = json.loads(json.dumps(export_1860))
    data["actions"][125] = 1
    path = workdir / "1860-entry-126.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    res = CliRunner().invoke(main, ["validate", "--format", "json", str(path)])
    found = json.loads(res.stdout)["files"][0]["findings"]
    assert not any(f["rule"] == "internal.error" for f in found)
    assert (found[0]["rule"], found[1]["action_id"], found[1]["rule"]) == \
        ("import.malformed", 127, "turn.order")
    assert any(f["action_id"] == 550 for f in found)


def test_a_control_character_in_a_yaml_file_is_located(workdir):
    ruleset = workdir / "house.yaml"
    ruleset.write_text("extends: 1830\n\x1fbank: 9000\n", encoding="utf-8")
    game = workdir / "house.18xx"
    game.write_text("title: 1830\nruleset: house.yaml\nplayers: A, B, C\n\nA pass\n",
                    encoding="utf-8")
    res = CliRunner().invoke(main, ["validate", str(game)])
    assert res.exit_code == 2
    assert res.output.startswith(f"error: {ruleset}:2:1: malformed YAML: unacceptable "
                                 f"character #x001f: control characters are not allowed")


def test_a_line_skipped_whole_is_one_finding_even_with_a_bad_id_comment(workdir, notation):
    """Found by the fuzz: '@ #@' among the actions gave two findings on its
    line (the bad '#@' id at column 5 first); the line is skipped, so only
    its own syntax finding remains."""
    lines = notation.split("\n")
    i = first_action(lines) + 1
    lines.insert(i, "@ #@")
    path = workdir / "bad-id.18xx"
    assert check(path, "\n".join(lines)) == 1
    findings = last_findings(path)
    assert [(f["line"], f["column"], f["rule"]) for f in findings if f["line"] == i + 1] == \
        [(i + 1, 1, "notation.syntax")]
