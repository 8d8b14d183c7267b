"""1860's operating round."""

from __future__ import annotations

from ...rounds.operating import OperatingRound


class OperatingRound1860(OperatingRound):
    pass
