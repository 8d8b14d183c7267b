"""The titles railcheck knows: a registry that finds them by their folders.

Each title is a package beside this file (``g1830/``, ``kansai/`` ...) holding its
ruleset (``rules.yaml``) and, in its ``__init__.py``, one
:class:`~railcheck.titles.base.Title` subclass.  Adding a title is adding its folder:
nothing here, nor in ``pyproject.toml``, names it.

The titles sit on top of the shared code (rounds, steps, the game, the engine), which
never imports them: this registry loads them by their folder names when a title is
first asked for, and the code that needs a title's class gets it from the ruleset it
plays (``Ruleset.title_class``).  ``TITLES`` maps every id to its class (in the order
of the folders' names); :func:`title_class` also accepts the aliases.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator, MutableMapping
from typing import Optional

from .base import Title


def _title_of(package: str) -> Optional[type[Title]]:
    """The Title subclass defined in a title package's ``__init__.py``."""
    module = importlib.import_module(f"{__name__}.{package}")
    found = [obj for obj in vars(module).values()
             if isinstance(obj, type) and issubclass(obj, Title) and obj is not Title
             and obj.__module__ == module.__name__]
    if len(found) != 1:
        raise ImportError(f"title package {module.__name__} defines {len(found)} Title "
                          f"classes; it must define one")
    return found[0]


class _Registry(MutableMapping):
    """Title id -> class, filled on first use from the packages beside this file (a
    test, or a title kept elsewhere, may add one: ``TITLES[id] = cls``)."""

    def __init__(self) -> None:
        self._by_id: Optional[dict[str, type[Title]]] = None

    def _titles(self) -> dict[str, type[Title]]:
        if self._by_id is None:
            by_id: dict[str, type[Title]] = {}
            for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
                if info.ispkg:
                    cls = _title_of(info.name)
                    if cls is not None:
                        by_id[cls.id] = cls
            self._by_id = by_id
        return self._by_id

    def __getitem__(self, key: str) -> type[Title]:
        return self._titles()[key]

    def __setitem__(self, key: str, cls: type[Title]) -> None:
        self._titles()[key] = cls

    def __delitem__(self, key: str) -> None:
        del self._titles()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._titles())

    def __len__(self) -> int:
        return len(self._titles())

    def __repr__(self) -> str:
        return f"TITLES({', '.join(self)})"


TITLES: MutableMapping[str, type[Title]] = _Registry()


def title_class(name: str) -> Optional[type[Title]]:
    """The class of a title by id or alias (case-insensitive), or None."""
    if name in TITLES:
        return TITLES[name]
    low = str(name).strip().lower()
    for cls in TITLES.values():
        if low == cls.id.lower() or low in (a.lower() for a in cls.aliases):
            return cls
    return None


def known_titles() -> list[str]:
    return list(TITLES)
