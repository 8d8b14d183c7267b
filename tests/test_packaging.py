"""Every package of the source tree ships: pyproject.toml lists each one (a
missing one works in a development install and breaks a real one)."""

import tomllib

from conftest import REPO


def test_every_package_is_listed_in_pyproject():
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())
                 ["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(REPO).parts)
             for p in (REPO / "railcheck").rglob("__init__.py")}
    assert found - listed == set()
    assert "railcheck.grammar" in listed
