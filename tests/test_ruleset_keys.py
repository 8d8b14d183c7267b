"""Every key of the ruleset schema is read by some code (none is a decorative switch
that a house rule could turn to no effect)."""

import ast

from railcheck import schema

from conftest import REPO


def _names_read() -> set[str]:
    """The names the code reads: attribute names (``rules.stock.holding_limit``) and
    string constants (``rules.stock["holding_limit"]``, ``spec.get("hexes")``), in
    every module but the schema itself; a string that is the name a ``Key(...)``
    declares (Kansai's components file has a schema of its own) is no read."""
    names: set[str] = set()
    for path in (REPO / "railcheck").rglob("*.py"):
        if path == REPO / "railcheck" / "schema.py":
            continue
        tree = ast.parse(path.read_text())
        declared = {id(n.args[0]) for n in ast.walk(tree)
                    if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "Key"
                    and n.args}
        for n in ast.walk(tree):
            if isinstance(n, ast.Attribute):
                names.add(n.attr)
            elif isinstance(n, ast.Constant) and isinstance(n.value, str) \
                    and id(n) not in declared:
                names.add(n.value)
    return names


def unread_keys() -> list[str]:
    names = _names_read()
    return [path for path in schema.all_key_paths() if path.split(".")[-1] not in names]


def test_every_schema_key_is_read_by_some_code():
    paths = schema.all_key_paths()
    assert len(paths) > 200 and "operating.routes.no_hex_reentry" in paths
    assert unread_keys() == []


def test_the_walk_finds_a_key_nobody_reads(monkeypatch):
    stock = schema.STOCK
    monkeypatch.setitem(stock.keys, "nobody_reads_this",
                        schema.Key("nobody_reads_this", schema.Bool(), False, "a test key"))
    assert unread_keys() == ["stock.nobody_reads_this"]


def test_every_key_of_1890s_own_section_is_read_by_1890s_code():
    """1890's rules.yaml is checked by the schema's 1890 section (``schema.RULES_1890``); each
    key of it that is 1890's own (its reference tables, the shared keys it reuses left out) is
    read by the title's code, not only by some other title's."""
    import re
    folder = REPO / "railcheck" / "titles" / "kansai"
    names: set[str] = set()
    for path in folder.glob("*.py"):
        if path.name == "components.py":        # the components file's own schema
            continue
        for n in ast.walk(ast.parse(path.read_text())):
            if isinstance(n, ast.Attribute):
                names.add(n.attr)
            elif isinstance(n, ast.Constant) and isinstance(n.value, str):
                names.add(n.value)
    reference = "\n".join(schema._reference_1890())
    own = re.findall(r"^\| `([^`]+)` \|", reference.split("#### ", 1)[1], flags=re.M)
    shared_sections = ("auction.", "operating.", "company_sales.", "market.zones")
    own = [p for p in own if not p.startswith(shared_sections)]
    assert "knr.conversions[].moves" in own and "stock.capital_par_times" in own
    assert [p for p in own if re.split(r"[.\[\]]+", p.rstrip("]"))[-1] not in names] == []
