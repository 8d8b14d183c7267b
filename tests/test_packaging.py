"""Every package of the source tree ships, with its data: pyproject.toml finds the
packages itself (a new title's folder needs no edit there) and its package-data
patterns cover every file the code reads (the grammar, each title's YAML, the
report's templates)."""

import re
import tomllib

from setuptools import find_namespace_packages

from conftest import REPO


def _setuptools() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_every_package_is_found():
    config = _setuptools()
    assert list(config["packages"]) == ["find"]      # found, not listed by hand
    # pyproject's packages.find finds namespace packages too (railcheck/ has no
    # __init__.py): what setuptools ships
    found = set(find_namespace_packages(str(REPO), **config["packages"]["find"]))
    on_disk = {".".join(p.parent.relative_to(REPO).parts)
               for p in (REPO / "railcheck").rglob("__init__.py")}
    assert on_disk <= found
    assert {"railcheck.grammar", "railcheck.titles.g1860"} <= found


def test_every_data_file_ships():
    patterns = _setuptools()["package-data"]["*"]
    data = [p for p in (REPO / "railcheck").rglob("*")
            if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts]
    assert len(data) > 10
    missing = []
    for p in data:
        # relative to the package that holds it (any folder up to railcheck/)
        rels = [p.relative_to(d).as_posix() for d in p.parents
                if d == REPO / "railcheck" or (REPO / "railcheck") in d.parents]
        # setuptools' globs: a * does not cross a folder
        if not any(re.fullmatch(re.escape(pat).replace(r"\*", "[^/]*"), rel)
                   for rel in rels for pat in patterns):
            missing.append(str(p.relative_to(REPO)))
    assert missing == []
