"""The stock market grid: cells with prices and zones, and token movement."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .fastcopy import deepcopy

_ATOMIC = frozenset((int, str, bool, float, type(None)))


def deepcopy_fields(self, memo):
    """``copy.deepcopy`` of a plain state object, as its default does it (a
    new object of the class, each attribute deep-copied with the memo),
    without the generic reduce protocol: the game's state is copied whole
    when a round may be taken up again (``following.rounds.save_state``)."""
    cls = self.__class__
    new = cls.__new__(cls)
    memo[id(self)] = new
    d = new.__dict__
    for k, v in self.__dict__.items():
        t = type(v)
        if t in _ATOMIC or (t is frozenset and all(type(x) in _ATOMIC for x in v)):
            d[k] = v    # (a frozenset of plain values, such as a cell's zones, is shared)
        else:
            d[k] = deepcopy(v, memo)
    return new


def unchanging(self, memo):
    """``copy.deepcopy`` of a value that never changes once made: itself
    (``fastcopy`` knows it as a plain value)."""
    return self


@dataclass(eq=False)
class Cell:
    """A cell of the market's grid (or a par value off the grid, 1890's),
    never changed once made: what stands on it is its market's
    (:meth:`Market.stack`), so the copies of a game's state share the
    cells (they were two fifths of the objects a copy made)."""
    row: int
    col: int
    price: int
    zones: frozenset          # e.g. {"no_cert_limit", "unlimited", "multiple_buy"}
    par: bool
    letters: str

    @property
    def name(self) -> str:
        return f"{self.price} (row {self.row + 1}, column {self.col + 1})"

    def has(self, zone: str) -> bool:
        return zone in self.zones

    def __repr__(self) -> str:
        return f"Cell({self.price}@{self.row},{self.col})"

    __deepcopy__ = unchanging


def move_marker(market, marker, old: Optional[Cell], new: Cell) -> None:
    """``marker`` leaves ``old`` (if it is there) for ``new``: a marker
    moving onto an occupied cell goes under the others."""
    if old is not None:
        stack = market.stack(old)
        if marker in stack:
            stack.remove(marker)
    market.stack(new).append(marker)


def restore_price(market, corp, cell: Cell, index: int) -> None:
    """``corp``'s price back on ``cell`` at place ``index`` of its stack, as
    a mark taken before a round's end had it (the end undone when the record
    goes on with the round)."""
    if corp.price is cell:
        return
    if corp.price is not None:
        old = market.stack(corp.price)
        if corp in old:
            old.remove(corp)
    corp.price = cell
    stack = market.stack(cell)
    stack.insert(min(index, len(stack)), corp)


LETTER_ZONES = {"p": "par"}


class Market:
    def __init__(self, rows: list[list[str]], zones: dict[str, list[str]]):
        self.grid: list[list[Optional[Cell]]] = []
        for r, row in enumerate(rows):
            out: list[Optional[Cell]] = []
            for c, raw in enumerate(row):
                if not raw:
                    out.append(None)
                    continue
                digits = raw.rstrip("abcdefghijklmnopqrstuvwxyz")
                letters = raw[len(digits):]
                zs = set()
                for ch in letters:
                    zs.update(zones.get(ch, []))
                    if ch in LETTER_ZONES:
                        zs.add(LETTER_ZONES[ch])
                out.append(Cell(r, c, int(digits), frozenset(zs), "p" in letters, letters))
            self.grid.append(out)
        self.par_cells = [cell for row in self.grid for cell in row if cell and cell.par]
        #: the markers on each cell (a cell's corporations, in stacking order:
        #: first = top); a cell with none may be missing
        self.stacks: dict = {}

    def stack(self, cell: Cell) -> list:
        """The corporations whose marker is on ``cell``, in stacking order
        (first = top): the list itself, to change."""
        stack = self.stacks.get(cell)
        if stack is None:
            stack = self.stacks[cell] = []
        return stack

    def order_key(self, cell: Cell, marker):
        """The operating order of the markers on the market: the highest
        price first; at equal prices the one further right, then the one
        higher up; on one cell the top marker (``marker`` is on ``cell``)."""
        return (-cell.price, -cell.col, cell.row, self.stack(cell).index(marker))

    def __deepcopy__(self, memo):
        """A copy sharing the grid (its cells never change) with copies of
        the markers' stacks."""
        new = Market.__new__(Market)
        memo[id(self)] = new
        new.__dict__.update(self.__dict__)
        stacks = {}
        for cell, stack in self.stacks.items():
            if stack:
                stacks[cell] = copied = [deepcopy(c, memo) for c in stack]
                memo[id(stack)] = copied
        new.stacks = stacks
        return new

    def cell(self, row: int, col: int) -> Optional[Cell]:
        if 0 <= row < len(self.grid) and 0 <= col < len(self.grid[row]):
            return self.grid[row][col]
        return None

    def par_cell(self, price: int) -> Optional[Cell]:
        for cell in self.par_cells:
            if cell.price == price:
                return cell
        return None

    # --- movement; each returns the new cell (possibly the same) ---------

    def up(self, cell: Cell) -> Cell:
        return self.cell(cell.row - 1, cell.col) or cell

    def down(self, cell: Cell) -> Cell:
        return self.cell(cell.row + 1, cell.col) or cell

    def right(self, cell: Cell) -> Cell:
        nxt = self.cell(cell.row, cell.col + 1)
        if nxt is not None:
            return nxt
        return self.up(cell)

    def left(self, cell: Cell) -> Cell:
        nxt = self.cell(cell.row, cell.col - 1)
        if nxt is not None:
            return nxt
        return self.down(cell)
