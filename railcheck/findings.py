"""Findings (what the validator reports) and the errors raised for bad input."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


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
    #: True when an earlier finding may have caused this one
    consequential: bool = False

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
        }


class RuleViolation(Exception):
    """Raised by a round or step when an action breaks a rule.

    ``rule`` is a short dotted rule name (``stock.cert_limit``), ``message``
    names the numbers involved.  ``applied`` tells the engine whether the
    action's effect was nevertheless applied (a finding that does not stop
    the game, e.g. a wrong claimed revenue) or refused.
    """

    def __init__(self, rule: str, message: str, *, applied: bool = False,
                 severity: str = ERROR):
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.applied = applied
        self.severity = severity


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
