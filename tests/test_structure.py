"""The shape of the code: no import cycle among railcheck's modules, titles on top
of the shared code, and the map's insides used through ``Board``'s public API."""

import ast
import importlib.util
import subprocess
import sys

from conftest import REPO

TOOL = REPO / "tools" / "import_graph.py"


def _tool():
    spec = importlib.util.spec_from_file_location("import_graph", TOOL)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_no_import_cycle_and_no_title_imported_by_shared_code():
    g = _tool()
    graph = g.graph(REPO / "railcheck")
    assert len(graph) > 80 and "railcheck.engine" in graph
    assert g.cycles(graph) == []
    assert g.core_imports_of_titles(graph) == []
    # the core never names the registry's titles: it gets the class from the ruleset
    for core in ("railcheck.game", "railcheck.engine", "railcheck.following.diagnose"):
        assert not any(m == "railcheck.titles" or m.startswith("railcheck.titles.g")
                       for m in graph[core]), core


def test_the_tool_finds_a_cycle_and_a_title_import(tmp_path):
    pkg = tmp_path / "railcheck"
    (pkg / "titles" / "g9").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("def f():\n    from .a import x\n")
    (pkg / "c.py").write_text("from .titles.g9 import T\n")
    (pkg / "titles" / "__init__.py").write_text("")
    (pkg / "titles" / "g9" / "__init__.py").write_text("from ...c import y\n")
    g = _tool()
    graph = g.graph(pkg)
    assert g.cycles(graph) == [["railcheck.a", "railcheck.b"],
                               ["railcheck.c", "railcheck.titles.g9"]]
    assert g.core_imports_of_titles(graph) == [("railcheck.c", "railcheck.titles.g9")]
    out = subprocess.run([sys.executable, str(TOOL), "--package", str(pkg)],
                         capture_output=True, text=True)
    assert out.returncode == 1 and "2 cycles, 1 imports of titles" in out.stdout


def _board_private_names() -> set[str]:
    tree = ast.parse((REPO / "railcheck" / "board" / "board.py").read_text())
    board = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Board")
    names = set()
    for n in ast.walk(board):
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) \
                and n.value.id == "self" and n.attr.startswith("_") \
                and not n.attr.startswith("__"):
            names.add(n.attr)
        if isinstance(n, ast.FunctionDef) and n.name.startswith("_") \
                and not n.name.startswith("__"):
            names.add(n.name)
    return names


def test_no_module_reaches_into_boards_private_attributes():
    private = _board_private_names()
    assert {"_net_cache", "_copy_hex", "_kept_networks"} <= private
    found = []
    for path in sorted((REPO / "railcheck").rglob("*.py")):
        if path == REPO / "railcheck" / "board" / "board.py":
            continue
        for n in ast.walk(ast.parse(path.read_text())):
            if isinstance(n, ast.Attribute) and n.attr in private and not (
                    isinstance(n.value, ast.Name) and n.value.id == "self"):
                found.append(f"{path.relative_to(REPO)}:{n.lineno} .{n.attr}")
    assert found == []


def test_the_certificate_and_holding_limits_are_tested_in_one_place():
    """The comparison with the certificate limit (``certs + n > cert_limit``) is
    written once, in Game (``cert_limit_exceeded``), and no other module compares
    with the holding limit (``Game.holding_limit_exceeded`` does, with its local
    ``limit``); rounds, steps and titles ask Game."""
    found = []
    for path in sorted((REPO / "railcheck").rglob("*.py")):
        if "kansai" in path.parts:      # Kansai keeps its own ledger (moving onto the engine)
            continue
        for n in ast.walk(ast.parse(path.read_text())):
            if isinstance(n, ast.Compare):
                names = {x.attr for x in ast.walk(n) if isinstance(x, ast.Attribute)} | \
                    {x.id for x in ast.walk(n) if isinstance(x, ast.Name)}
                if names & {"cert_limit", "holding_limit", "max_ownership_percent"}:
                    found.append(f"{path.relative_to(REPO)}:{n.lineno}")
    assert [f.split(":")[0] for f in found] == ["railcheck/game.py"], found
