"""1860's stock round (docs/1860.md S1-S12)."""

from __future__ import annotations

from ...rounds.stock import StockRound


class StockRound1860(StockRound):
    pass
