"""Findings (what the validator reports) and the errors raised for bad input."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional


def plural(n: int, word: str, many: str = "") -> str:
    """``1 train``, ``2 trains`` (``many``: the plural when it is not word + s)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


ERROR = "error"
WARNING = "warning"
INFO = "info"


@dataclass
class Finding:
    severity: str
    rule: str
    message: str
    line: Optional[int] = None
    column: Optional[int] = None
    action_id: Optional[int] = None
    text: str = ""
    #: True when an earlier finding may have caused this one: its action
    #: involves something the earlier finding's action involved or changed
    consequential: bool = False
    #: the index (in the game's list of findings) of the error it follows from
    follows: Optional[int] = None
    #: names of the players, companies and privates its action involved or
    #: changed (what a later finding may depend on)
    involves: frozenset = field(default=frozenset(), repr=False, compare=False)

    def to_dict(self) -> dict:
        return {
            "severity": self.severity,
            "line": self.line,
            "column": self.column,
            "action_id": self.action_id,
            "rule": self.rule,
            "message": self.message,
            "action": self.text,
            "consequential": self.consequential,
            "follows": self.follows,
        }


#: the findings kept for one file: past it they are counted by severity, not
#: kept, so that the memory of a check is bounded whatever the input (50 MB of
#: out-of-turn lines would otherwise keep millions)
MAX_FINDINGS = 1000
#: the lines of a notation file, or entries of an export's actions, that are
#: read and checked (a game of 18xx has a few thousand); past them one
#: finding, ``record.too_long``, counts the rest
MAX_ACTIONS = 100_000


class FindingList(list):
    """A file's findings: the first :data:`MAX_FINDINGS` kept, the rest only
    counted (``dropped``: severity -> number)."""

    def __init__(self, items=(), limit: int = MAX_FINDINGS):
        super().__init__(items)
        self.limit = limit
        self.dropped: dict = {}

    def append(self, f) -> None:
        if len(self) >= self.limit:
            self.dropped[f.severity] = self.dropped.get(f.severity, 0) + 1
            return
        super().append(f)

    def dropped_total(self) -> int:
        return sum(self.dropped.values())


def dropped_counts(*lists) -> dict:
    """The findings counted but not kept in these lists, by severity."""
    out: dict = {}
    for lst in lists:
        for sev, n in (getattr(lst, "dropped", None) or {}).items():
            out[sev] = out.get(sev, 0) + n
    return out


def involved(action, game=None) -> frozenset:
    """The names an action involves: its actor, the corporations, privates
    and trains' owners it names, the owner of a private it deals in, and,
    with ``game``, whose turn it was (the turn an out-of-turn action took)."""
    names = set()
    if action is not None:
        for attr in ("actor", "corporation", "company", "seller"):
            value = getattr(action, attr, None)
            if value:
                names.add(str(value))
        for sale in getattr(action, "sales", None) or []:
            names.add(sale.corporation)
        source = getattr(action, "source", None)
        if source and source not in ("ipo", "pool", "depot"):
            names.add(str(source))
    if game is not None:
        company = game.companies.get(getattr(action, "company", None) or "")
        owner = getattr(company, "owner", None) if company is not None else None
        if owner is not None and getattr(owner, "name", None):
            names.add(owner.name)
        holder = _turn_holder(game.round)
        if holder:
            names.add(holder)
    return frozenset(names)


def _turn_holder(rnd) -> Optional[str]:
    """Whose turn the round is at (a player, or a company in an operating
    round), from the round's own description of the turn."""
    if rnd is None:
        return None
    try:
        text = rnd.describe_turn()
    except (IndexError, AttributeError, TypeError):
        return None
    return _TURN_NOTE.sub("", text or "") or None


_TURN_NOTE = re.compile(r" \(.*\)$")     # "Player 1 (bidding for CA)" -> "Player 1"


def cause_of(finding: Finding, earlier: list) -> Optional[int]:
    """The index of the latest earlier error, at another action, whose
    action involved something this finding's action involves."""
    if not finding.involves:
        return None
    for i in range(len(earlier) - 1, -1, -1):
        x = earlier[i]
        if x.severity != ERROR or (x.line, x.action_id) == (finding.line, finding.action_id):
            continue
        if x.involves & finding.involves:
            return i
    return None


class RuleViolation(Exception):
    """Raised by a round or step when an action breaks a rule.

    ``rule`` is a short dotted rule name (``stock.cert_limit``), ``message``
    names the numbers involved.  ``applied`` tells the engine whether the
    action's effect was nevertheless applied (a finding that does not stop
    the game, e.g. a wrong claimed revenue) or refused.
    """

    def __init__(self, rule: str, message: str, *, applied: bool = False,
                 severity: str = ERROR, minimum: Optional[int] = None):
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.applied = applied
        self.severity = severity
        #: a price refused under the least the rule takes: that least (the
        #: record-following layer may read the line at it)
        self.minimum = minimum


class Breaches:
    """The breaches a check collects (:func:`collecting`): every rule of
    ``rules`` the action breaks, each once, in the order met."""

    def __init__(self, rules):
        self.rules = frozenset(rules)
        self.found: list[RuleViolation] = []


_collectors: list[Breaches] = []


def breach(violation: RuleViolation) -> None:
    """A check met a broken rule.  Inside :func:`collecting` a breach of one
    of its rules (one the record still defines: the action is taken as
    written) is kept and the check goes on, so that every other rule the
    action breaks is found too; any other breach, or one outside
    :func:`collecting`, is raised (the action is refused)."""
    if _collectors and violation.rule in _collectors[-1].rules:
        top = _collectors[-1]
        if all(v.rule != violation.rule for v in top.found):
            top.found.append(violation)
        return
    raise violation


class collecting:
    """``with collecting(rules) as found:`` run a check; ``found.found`` is
    then the breaches of ``rules`` it met (see :func:`breach`)."""

    def __init__(self, rules):
        self.breaches = Breaches(rules)

    def __enter__(self) -> Breaches:
        _collectors.append(self.breaches)
        return self.breaches

    def __exit__(self, *exc) -> None:
        _collectors.remove(self.breaches)


class InputError(Exception):
    """Bad user input that cannot be validated at all (syntax error, unknown
    title, unreadable file, malformed ruleset).  ``str()`` is the complete,
    located message."""

    def __init__(self, message: str, *, path: Optional[str] = None,
                 line: Optional[int] = None, column: Optional[int] = None,
                 context: Optional[str] = None):
        self.path = path
        self.line = line
        self.column = column
        self.context = context
        self.bare = message
        super().__init__(self._format())

    def _format(self) -> str:
        where = self.path or "<input>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        text = f"{where}: {self.bare}"
        if self.context:
            text += "\n" + self.context
        return text


class NotAGame(InputError):
    """A JSON file that is no game record at all (no ``actions``: an engine
    trace, railcheck's own report): skipped when met in a folder."""


def did_you_mean(name: str, known) -> str:
    """A ' (did you mean X?)' suffix for an unknown name, or ''."""
    import difflib

    known = list(known)
    lowered = {k.lower(): k for k in known}
    if name.lower() in lowered:
        return f" (did you mean {lowered[name.lower()]}?)"
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.5)
    if not close:
        close = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=0.5)
        close = [lowered[c] for c in close]
    return f" (did you mean {close[0]}?)" if close else ""
