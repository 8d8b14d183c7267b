"""1860's share facts read from its ruleset: sections, par ranges, reserved
shares (docs/1860.md S10-S12, B6)."""

from __future__ import annotations


def corp_data(g, sym: str) -> dict:
    """The corporation's entry of the checked ruleset (section, reserved share)."""
    for c in g.rules.raw["corporations"]:
        if str(c["sym"]) == sym:
            return c
    return {}


def section_of(g, corp) -> int:
    return int(corp_data(g, corp.sym).get("section") or 1)


def par_range(g, corp, *, bankrupt: bool = False) -> tuple[int, int]:
    """The lowest and highest par ``corp`` may start at (after a bankruptcy:
    the re-par range)."""
    key = "repar_range" if bankrupt else "par_range"
    low, high = g.rules.raw[key][str(section_of(g, corp))]
    rule = g.rules.raw["bankruptcy"]
    if bankrupt and rule and rule.get("min_repar") is not None:
        low = max(int(low), int(rule["min_repar"]))     # B6: from the grey zone up
    return int(low), int(high)
