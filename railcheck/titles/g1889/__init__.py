"""Shikoku 1889: an 1830-family title with its own map, privates and market.

Its ruleset extends 1830's and says only what differs (``rules.yaml``; the map
in ``board.yaml``); the rounds are 1830's.
"""

from __future__ import annotations

from pathlib import Path

from ..g1830 import Title1830


class Title1889(Title1830):
    id = "1889"
    aliases = ("Shikoku 1889", "shikoku", "History of Shikoku Railways")
    folder = Path(__file__).resolve().parent
