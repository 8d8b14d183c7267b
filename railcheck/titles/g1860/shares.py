"""1860's share facts read from its ruleset: sections, par ranges, reserved
shares (docs/1860.md S10-S12, B6)."""

from __future__ import annotations


def section_of(g, corp) -> int:
    return int(corp.spec.section or 1)


def par_range(g, corp, *, bankrupt: bool = False) -> tuple[int, int]:
    """The lowest and highest par ``corp`` may start at (after a bankruptcy:
    the re-par range)."""
    key = "repar_range" if bankrupt else "par_range"
    low, high = g.rules.settings[key][str(section_of(g, corp))]
    rule = g.rules.settings.bankruptcy
    if bankrupt and rule is not None:
        low = max(int(low), int(rule.min_repar))     # B6: from the grey zone up
    return int(low), int(high)
