"""The cache of rulesets' YAML readings (ruleset._read_doc): used only for the
very text it was read from, never required, never a failure."""

import marshal

import pytest

from railcheck import ruleset
from railcheck.findings import InputError
from railcheck.ruleset import load_ruleset


def _clear():
    # what a new process starts with: nothing read yet
    ruleset._read_doc.cache_clear()
    ruleset._load_cached.cache_clear()


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder of the test's own ($XDG_CACHE_HOME/railcheck)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("RAILCHECK_NO_CACHE", raising=False)
    _clear()
    yield tmp_path / "xdg" / "railcheck"
    _clear()


def _no_yaml(monkeypatch):
    """From here on a file the cache does not hold fails the test."""
    def refuse(text, path, root=""):
        raise AssertionError(f"{path} was parsed, not taken from the cache")
    monkeypatch.setattr(ruleset, "_load_yaml", refuse)


def _user_file(tmp_path, bank="15000"):
    p = tmp_path / "house.yaml"
    p.write_text(f'extends: "1830"\nbank: {bank}\n')
    return str(p)


def test_a_second_load_reads_every_file_from_the_cache(cache, monkeypatch):
    first = load_ruleset("1860")
    files = sorted(cache.glob("yaml-*.marshal"))
    # 1860's rules and its board
    assert len(files) == 2
    _clear()
    _no_yaml(monkeypatch)
    again = load_ruleset("1860")
    assert (again.bank, again.starting_cash[3], again.cert_limit[3]) == \
        (first.bank, first.starting_cash[3], first.cert_limit[3]) == (10000, 670, 21)
    assert [t.price for t in again.trains] == [t.price for t in first.trains]
    assert again.raw == first.raw and again.board == first.board
    assert sorted(cache.glob("yaml-*.marshal")) == files


def test_an_edited_user_ruleset_is_read_again(cache, tmp_path, monkeypatch):
    path = _user_file(tmp_path, "15000")
    assert load_ruleset(path).bank == 15000
    _clear()
    # same size, written at once: only the text tells them apart
    _user_file(tmp_path, "16000")
    assert load_ruleset(path).bank == 16000
    _clear()
    _no_yaml(monkeypatch)   # both readings are now in the cache; the newer one is used
    assert load_ruleset(path).bank == 16000


def test_an_error_is_located_the_same_from_the_cache(cache, tmp_path, monkeypatch):
    p = tmp_path / "bad.yaml"
    p.write_text('extends: "1830"\n\nbank: lots\n')
    with pytest.raises(InputError) as first:
        load_ruleset(str(p))
    _clear()
    _no_yaml(monkeypatch)
    with pytest.raises(InputError) as again:
        load_ruleset(str(p))
    for e in (first.value, again.value):
        assert e.bare == "bank: expected an integer, got 'lots'"
        assert (e.path, e.line, e.column) == (str(p), 3, 7)


def test_malformed_yaml_is_not_cached(cache, tmp_path):
    p = tmp_path / "broken.yaml"
    p.write_text('extends: "1830"\nbank: [1, 2\n')
    for _ in range(2):
        with pytest.raises(InputError) as e:
            load_ruleset(str(p))
        assert e.value.bare.startswith("malformed YAML") and e.value.path == str(p)
        _clear()
    assert not any(cache.glob("yaml-*")) or all(
        str(p) not in marshal.loads(f.read_bytes())[2] for f in cache.glob("yaml-*"))


def test_a_damaged_cache_file_is_ignored_and_written_again(cache, tmp_path, monkeypatch):
    path = _user_file(tmp_path)
    load_ruleset(path)
    files = sorted(cache.glob("yaml-*.marshal"))
    for f in files:
        f.write_bytes(b"\x00not marshal" if f.stat().st_size % 2 else b"")
    _clear()
    assert load_ruleset(path).bank == 15000
    assert sorted(cache.glob("yaml-*.marshal")) == files
    assert all(marshal.loads(f.read_bytes())[3] in ("", "board") for f in files)
    _clear()
    _no_yaml(monkeypatch)
    assert load_ruleset(path).bank == 15000


def test_no_cache_when_the_folder_cannot_be_made(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    monkeypatch.delenv("RAILCHECK_NO_CACHE", raising=False)
    _clear()
    try:
        assert load_ruleset(_user_file(tmp_path)).bank == 15000
        assert blocker.read_text() == "not a folder"
    finally:
        _clear()


def test_no_cache_when_its_folder_is_a_file(cache, tmp_path):
    cache.parent.mkdir(parents=True)
    cache.write_text("in the way")
    assert load_ruleset(_user_file(tmp_path)).bank == 15000
    assert cache.read_text() == "in the way"


def test_railcheck_no_cache_turns_it_off(cache, tmp_path, monkeypatch):
    monkeypatch.setenv("RAILCHECK_NO_CACHE", "1")
    assert ruleset.cache_dir() is None
    assert load_ruleset(_user_file(tmp_path)).bank == 15000
    assert not cache.exists()


def test_the_cache_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("RAILCHECK_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert ruleset.cache_dir() == tmp_path / "railcheck"
    # a relative XDG_CACHE_HOME is ignored (XDG base directory specification)
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/dir")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert ruleset.cache_dir() == tmp_path / "home" / ".cache" / "railcheck"
    monkeypatch.setenv("RAILCHECK_NO_CACHE", "0")
    assert ruleset.cache_dir() == tmp_path / "home" / ".cache" / "railcheck"


def test_the_cache_keeps_at_most_its_number_of_readings(cache, tmp_path, monkeypatch):
    monkeypatch.setattr(ruleset, "_CACHE_MAX", 3)
    paths = []
    for k in range(5):
        p = tmp_path / f"house{k}.yaml"
        p.write_text(f'extends: "1830"\nbank: {15000 + k}\n')
        paths.append(str(p))
        assert load_ruleset(str(p)).bank == 15000 + k
        _clear()
        assert len(list(cache.glob("yaml-*.marshal"))) == 3
    # a reading that went is simply made again
    for k, p in enumerate(paths):
        assert load_ruleset(p).bank == 15000 + k
        _clear()


def test_the_notation_parser_is_kept_in_the_cache_and_reads_the_same(cache, monkeypatch):
    from railcheck import notation
    from conftest import REPO
    path = REPO / "examples" / "1830" / "game.18xx"
    text = path.read_text(encoding="utf-8")

    def parsed():
        notation.reset_parser()         # the parser and every fast path forgotten
        record, findings = notation.parse_game(text, str(path))
        return [repr(a) for a in record.actions], [f.message for f in findings]

    monkeypatch.setenv("RAILCHECK_NO_CACHE", "1")
    assert notation._lark_cache() is False
    plain = parsed()
    assert not cache.exists()
    monkeypatch.delenv("RAILCHECK_NO_CACHE")
    made = parsed()                     # made, then kept
    assert (cache / "lark-notation.pickle").is_file()
    import lark

    def unmade(self, *a, **k):
        raise AssertionError("the parser was made again, not read from the cache")
    monkeypatch.setattr(lark.Lark, "_build_parser", unmade)
    read = parsed()                     # read back from the cache
    assert plain == made == read and len(plain[0]) > 300
    notation.reset_parser()
