"""1860's operating steps (docs/1860.md O1-O6)."""

from __future__ import annotations


def operating_steps() -> list:
    from ...steps.dividend import DividendStep
    from ...steps.route import RouteStep
    from ...steps.token import TokenStep
    from ...steps.track import TrackStep
    from ...steps.trains import BuyTrainStep
    return [TrackStep, TokenStep, RouteStep, DividendStep, BuyTrainStep]
