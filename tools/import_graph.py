#!/usr/bin/env python3
"""railcheck's import graph: its cycles, and shared code that imports a title.

    python tools/import_graph.py [--package DIR] [--edges]

Reads every module of the package (``railcheck/``) with :mod:`ast` and takes
every import of another railcheck module as an edge, at the top of a module
or inside a function alike (a lazy import is still a dependency).  Prints the
strongly connected components with more than one module (the import cycles),
then every import by shared code of a title's module (``railcheck.titles.*``
other than ``railcheck.titles.base``): titles sit on top of the core, which
finds them only through the registry its caller hands down.  Exits 1 when it
finds either.  ``tests/test_imports.py`` runs it.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: the one module of titles/ the core may import: the base class and its hooks
CORE_TITLE_MODULES = {"railcheck.titles.base"}
#: the modules that sit above the core: the edges that find titles for it
EDGE_MODULES = {"railcheck.cli", "railcheck.__main__", "railcheck.titles"}


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path) -> dict[str, Path]:
    return {module_name(p, root): p for p in sorted(root.rglob("*.py"))}


def _resolve(current: str, is_package: bool, level: int, name: str | None) -> str:
    base = current.split(".")
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The railcheck modules ``name`` imports (``from . import x`` counts x
    when x is a module)."""
    tree = ast.parse(path.read_text(), str(path))
    is_package = path.name == "__init__.py"
    out: set[str] = set()

    def add(target: str) -> None:
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name:
            out.add(target)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("railcheck"):
                    add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(name, is_package, node.level, node.module) if node.level \
                else (node.module or "")
            if not base.startswith("railcheck"):
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                add(sub if sub in known else base)
    return out


def graph(root: Path) -> dict[str, set[str]]:
    mods = modules(root)
    known = set(mods)
    return {name: imports(name, path, known) for name, path in mods.items()}


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def is_title(mod: str) -> bool:
    return mod.startswith("railcheck.titles.") and mod not in CORE_TITLE_MODULES


def core_imports_of_titles(g: dict[str, set[str]]) -> list[tuple[str, str]]:
    """(importer, title module) for every import of a title by shared code."""
    return sorted((a, b) for a, targets in g.items() for b in targets
                  if is_title(b) and not is_title(a) and a not in EDGE_MODULES
                  and not (a == "railcheck.titles" or a.startswith("railcheck.titles.")))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--package", type=Path, default=REPO / "railcheck")
    ap.add_argument("--edges", action="store_true", help="print every edge too")
    args = ap.parse_args()
    g = graph(args.package.resolve())
    if args.edges:
        for a in sorted(g):
            for b in sorted(g[a]):
                print(f"{a} -> {b}")
    found = cycles(g)
    for comp in found:
        print(f"cycle of {len(comp)} modules: {', '.join(comp)}")
    up = core_imports_of_titles(g)
    for a, b in up:
        print(f"shared code imports a title: {a} -> {b}")
    print(f"{len(g)} modules, {sum(map(len, g.values()))} imports, {len(found)} cycles, "
          f"{len(up)} imports of titles by shared code")
    return 1 if found or up else 0


if __name__ == "__main__":
    sys.exit(main())
