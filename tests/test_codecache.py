"""The cache of the code dataclasses compile (railcheck/codecache.py): the
methods made from a cached code object are those made from the text, and
the table goes to the cache folder and back."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from railcheck import codecache


def test_exec_of_a_cached_text_makes_the_same_function(monkeypatch):
    monkeypatch.setattr(codecache, "_codes", {})
    monkeypatch.setattr(codecache, "_used", set())
    monkeypatch.setattr(codecache, "_added", False)
    text = "def __create_fn__(k):\n def f(self, x=3):\n  return (x, k)\n return f"
    made = []
    for _ in range(2):
        ns: dict = {}
        codecache._exec(text, {}, ns)
        made.append(ns["__create_fn__"](7))
    assert codecache._added is True
    assert list(codecache._codes) == [text]
    assert made[0].__code__ is made[1].__code__        # compiled once
    assert made[0](None) == made[1](None) == (3, 7)
    assert made[1](None, 5) == (5, 7)


def test_no_inherited_future_flags(monkeypatch):
    """This module has ``from __future__ import annotations``; the code the
    cache compiles must not inherit it (dataclasses has none)."""
    monkeypatch.setattr(codecache, "_codes", {})
    ns: dict = {}
    codecache._exec("def g(a: int) -> int:\n return a", {}, ns)
    assert ns["g"].__annotations__ == {"a": int, "return": int}


SCRIPT = textwrap.dedent("""
    import dataclasses, json, sys
    from railcheck import codecache
    codecache.install()
    from railcheck.actions import BuyShares, LayTile
    a = LayTile(actor="PRR", tile="57", hex="H10", rotation=1, line=3)
    b = BuyShares(actor="Ann", corporation="PRR", percent=10, source="ipo")
    print(json.dumps([repr(a), a == LayTile(actor="PRR", tile="57", hex="H10", rotation=1, line=3),
                      a == LayTile(actor="PRR", tile="57", hex="H10", rotation=2, line=3),
                      repr(b), len(codecache._codes), codecache._added,
                      dataclasses.exec is codecache._exec]))
""")


def test_the_table_is_kept_and_read_back(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    runs = [subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                           env=env, check=True).stdout for _ in range(2)]
    import json
    first, second = (json.loads(r) for r in runs)
    assert first[0] == second[0] == ("LayTile(actor='PRR', line=3, column=None, action_id=None, "
                                     "text='', tile='57', hex='H10', rotation=1, tile_copy=None)")
    assert first[1:4] == second[1:4] == [True, False, second[3]]
    assert first[4] == second[4] > 60          # the actions' methods at least
    assert (first[5], second[5]) == (True, False)   # compiled in the first run only
    assert first[6] is True
    files = list((tmp_path / "railcheck").glob("dataclass-code-*.marshal"))
    assert len(files) == 1


def test_turned_off_with_the_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("RAILCHECK_NO_CACHE", "1")
    monkeypatch.setattr(codecache, "_file", None)
    codecache.install()
    assert codecache._file is None
