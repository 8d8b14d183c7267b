"""The titles railcheck knows: a plain registry of their classes.

Each title is a folder beside this file with its ruleset (``rules.yaml``) and a
:class:`~railcheck.titles.base.Title` subclass.  ``TITLES`` maps every id to
its class; :func:`title_class` also accepts the aliases.
"""

from __future__ import annotations

from typing import Optional

from .base import Title
from .g1830 import Title1830
from .g1857 import Title1857
from .g1860 import Title1860
from .g1889 import Title1889
from .g18ireland import Title18Ireland
from .kansai import TitleKansai

TITLES: dict[str, type[Title]] = {cls.id: cls for cls in (Title1830, Title1857, Title1860, Title1889,
                                                         Title18Ireland, TitleKansai)}


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
