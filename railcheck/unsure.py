"""Amounts a replay does not know for sure, and the checks it skipped for them.

A title may play with numbers that are not known (1890's components file may
leave a train's price, a station's cost or the market's ledge ``unknown``).
The replay still goes on: a payment of an unknown amount makes both sides'
cash *not sure* (the bank's too), a cost that was not paid because it is not
known leaves the payer's cash known only as an *upper bound*, and a check that
needs an amount that is not sure is not made but counted as a skipped kind of
check.  The result then says, once per kind, which number was missing
(``components.unknown``).  A number is never invented.

Who is named by a string: a player's or a company's name, ``"bank"``, or
``"price:"`` and a corporation's symbol for its share price.  A title whose
numbers are all known never marks anything: every amount is sure, no check is
skipped, and nothing is added to its result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from .findings import INFO, Finding

BANK = "bank"
#: the kind of check an over-cash finding is (skipped while the payer's cash is not sure)
OVER_CASH = "payments over cash (the payer's cash is not sure)"
#: the kind of check a money checkpoint is
CHECKPOINTS = "money checkpoints (cash, treasury, price, worth)"
#: why a check was not made while money is not tracked at all (:meth:`Unsure.untracked`):
#: said by the title, not as an unknown number
NOT_TRACKED = "money is not tracked"


def price_key(corp: str) -> str:
    """The name under which a corporation's share price is sure or not."""
    return "price:" + corp


@dataclass
class Skipped:
    """A kind of check not made: the first unknown key, how many actions."""
    key: str
    count: int = 0
    #: why, when it is not an unknown number
    reason: str = ""


def ypath(keys) -> str:
    """The YAML path of a components file's key (``map.places.Kobe.hex``)."""
    out = ""
    for k in keys:
        k = str(k)
        part = f'"{k}"' if not k.isidentifier() else k
        out = f"{out}.{part}" if out else part
    return out


class Unsure:
    """What a replay does not know for sure: cash and prices not sure, cash
    known only as an upper bound, and the kinds of check skipped."""

    def __init__(self) -> None:
        #: who -> (the kind of check that found the amount unknown, its key, why)
        self.unsure: dict[str, tuple] = {}
        #: who -> what was not paid: the cash is at most the replay's (a payment over it is
        #: still surely over; a lower checkpoint is not surely wrong)
        self.at_most: dict[str, str] = {}
        #: the kind of check -> how many were not made, and why
        self.skipped: dict[str, Skipped] = {}
        #: money is not tracked at all: the key of the number it needs that is unknown
        #: (the starting cash, the bank, the market grid; ``("companies",)``: the auction
        #: that set the players' cash was not played); None: it is tracked.  While it is
        #: off no amount is sure and no over-cash check is made (nor counted: the title
        #: says once that money is not tracked)
        self.off: Optional[tuple] = None

    @property
    def tracked(self) -> bool:
        """Money is tracked (:attr:`off` is not set)."""
        return self.off is None

    def turn_off(self, keys: tuple) -> None:
        """Money is not tracked from now on: ``keys`` name the number it needs that is
        unknown (the first said stays)."""
        if self.off is None:
            self.off = tuple(keys)

    # ------------------------------------------------------------------
    # the checks skipped

    def skip(self, kind: str, keys: tuple, n: int = 1, reason: str = "") -> None:
        """A check of ``kind`` not made: the number at ``keys`` is unknown (or ``reason``)."""
        self.skipped.setdefault(kind, Skipped(ypath(keys), reason=reason)).count += n

    def untracked(self, kind: str) -> None:
        """A check of ``kind`` not made because money is not tracked at all (``off``, or a
        title's game before its money starts): counted under :data:`NOT_TRACKED`, which
        :meth:`findings` leaves to the title to say."""
        self.skipped.setdefault(kind, Skipped(NOT_TRACKED)).count += 1

    def findings(self, source: str, line: Optional[int] = None,
                 column: Optional[int] = None, leave_out: str = "") -> list[Finding]:
        """One ``components.unknown`` info finding per kind of check skipped
        (``leave_out``: a key said otherwise, e.g. money not tracked at all)."""
        out = []
        for kind, sk in self.skipped.items():
            if leave_out and sk.key == leave_out:
                continue
            why = sk.reason or f"{sk.key} is unknown"
            out.append(Finding(
                severity=INFO, rule="components.unknown", line=line, column=column,
                message=f"{kind} not checked ({sk.count} action{'s' if sk.count != 1 else ''}): "
                        f"{why} ({source})"))
        return out

    # ------------------------------------------------------------------
    # amounts not sure

    def sure(self, who: str) -> bool:
        """Whether ``who``'s cash (or price) is known for sure: never while money is off."""
        return self.off is None and who not in self.unsure

    def mark(self, who: str, kind: str, keys: tuple, reason: str = "") -> None:
        """An amount paid to or by ``who`` is unknown (the check of ``kind``
        is skipped): ``who``'s cash is not sure, nor the bank's, which paid or
        received it."""
        self.unsure.setdefault(who, (kind, keys, reason))
        self.unsure.setdefault(BANK, (kind, keys, reason))
        self.skip(kind, keys, reason=reason)

    def mark_price(self, corp: str, kind: str, keys: tuple, reason: str = "") -> None:
        """``corp``'s share price is not sure from now on (a move the numbers
        do not say); no check is skipped yet."""
        self.unsure.setdefault(price_key(corp), (kind, keys, reason))

    def bound(self, who: str, kind: str, keys: tuple, what: str, reason: str = "") -> None:
        """A cost of ``who`` is unknown and was not paid: ``who``'s cash is at
        most the replay's from now on."""
        self.at_most.setdefault(who, what)
        self.skip(kind, keys, reason=reason)

    def follow(self, who: str, source: str) -> None:
        """``who`` paid or received an amount of ``source`` (a share price:
        ``price_key``): if that is not sure, neither is ``who``'s cash."""
        if source in self.unsure:
            kind, keys, reason = self.unsure[source]
            self.mark(who, kind, keys, reason)

    def inherit(self, who: str, source: str) -> None:
        """``who`` received all of ``source``'s cash: what is not sure of it,
        or only a bound, is so of ``who``'s (no check is skipped here)."""
        if source in self.unsure:
            self.unsure.setdefault(who, self.unsure[source])
        self.inherit_bound(who, source)

    def inherit_bound(self, who: str, source: str) -> None:
        """``who`` paid what ``source`` lacked: if ``source``'s cash is
        known only as an upper bound, so is ``who``'s now."""
        if source in self.at_most:
            self.at_most.setdefault(who, self.at_most[source])

    def over_cash(self, who: str, have: int, amount: int, *, look: bool = False) -> bool:
        """Whether paying ``amount`` surely exceeds ``who``'s cash ``have``:
        never while that cash is not sure (the over-cash check is then
        counted as skipped, unless this is only a ``look``: what a player
        could afford, asked without any payment checked).  A cash known only
        as an upper bound is still surely exceeded.  While money is off
        (:attr:`off`), never, and nothing is counted."""
        if self.off is not None:
            return False
        if who in self.unsure:
            if not look:
                self.skip(OVER_CASH, ("map", "hexes"),
                          reason=f"{who}'s cash is not sure: {self.unsure[who][0]}")
            return False
        return amount > have

    def checkpoint_doubt(self, key: str, subject: str, field_: str, actual: Any, want: Any,
                         money: Callable[[Any], str]) -> bool:
        """A money checkpoint whose value differs from the replay's: True
        (and counted as skipped, with why) when the replay's amount is not
        sure, so the difference is no finding."""
        if key in self.at_most and actual is not None and want < actual:
            self.skip(CHECKPOINTS, ("map", "hexes"),
                      reason=f"{subject}'s {field_} may be lower than {money(actual)}: "
                             f"{self.at_most[key]} is not known")
            return True
        if key in self.unsure:
            kind, keys, reason = self.unsure[key]
            self.skip(CHECKPOINTS, keys, reason=f"{subject}'s {field_} is not sure: {kind}"
                                                + (f" ({reason})" if reason else ""))
            return True
        return False

    def standings_doubt(self, players: list) -> Optional[str]:
        """Why the players' net worths are not known, or None."""
        for p in players:
            if p in self.unsure:
                return f"{p}'s cash is not sure ({self.unsure[p][0]})"
            if p in self.at_most:
                return f"{p}'s cash is not sure: {p} paid for a company's train after " \
                       f"{self.at_most[p]}"
        return None
