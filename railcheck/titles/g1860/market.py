"""1860's one-row market: moves counted in cells, stopping at either end
(ruleset ``market.zigzag`` and ``ledge``; docs/1860.md S8, O4)."""

from __future__ import annotations


def move_cells(g, corp, cells: int) -> None:
    """Move ``corp``'s price ``cells`` cells right (negative: left), stopping
    on the first or last cell."""
    if corp.price is None or cells == 0:
        return
    row = g.market.grid[corp.price.row]
    col = max(0, min(len(row) - 1, corp.price.col + cells))
    if row[col] is not corp.price:
        g.place_price(corp, row[col])


def to_bottom(g, corp) -> None:
    """The marker goes under the others on its cell (it operates last among them)."""
    cell = corp.price
    stack = g.market.stack(cell) if cell is not None else []
    if corp in stack:
        stack.remove(corp)
        stack.append(corp)


def dividend_cells(g, corp, revenue: int, payout: bool) -> int:
    """How many cells a payout of ``revenue`` (or a withhold) moves the price:
    a step per whole multiple of the price (``market.dividend_steps``), none below
    the price; a withhold or nothing paid, a step left.  A step is 2 cells on a
    row read as a zig-zag (``market.zigzag``), else 1."""
    step = 2 if g.rules.market.zigzag else 1
    if not payout or revenue <= 0:
        return -step
    price = corp.price.price
    steps = 0
    for k in g.rules.market.dividend_steps or [1]:
        if revenue >= k * price:
            steps += 1
    return step * steps
