"""Points in a game for ``railcheck show --at``: an action id, a line, or the
start of a round; and a sentence on whose turn it is there."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Optional

from .findings import InputError

_ROUND = re.compile(r"^\s*(auction|sr|or)\s*(\d+(?:\.\d+)?)?\s*$", re.I)
_ID = re.compile(r"^\s*#@?\s*(-?\d+)\s*$")
_LINE = re.compile(r"^\s*(?:line|l)\s*:?\s*(-?\d+)\s*$", re.I)
_NUMBER = re.compile(r"^\s*(-?\d+)\s*$")

AT_HELP = ("Where to stop: a number (the export's action id #@N for imported games, else "
           "the line), '#N' (an action id), 'line N', or the start of a round "
           "('auction', 'SR 3', 'OR 2.1').  Default: the end of the log.")


@dataclass
class Point:
    kind: str                  # "id", "line" or "round"
    value: object              # int, or the round's label

    def describe(self) -> str:
        if self.kind == "id":
            return f"after action #{self.value}"
        if self.kind == "line":
            return f"after line {self.value}"
        return f"at the start of {self.value}"


def parse_at(text: str, record) -> Point:
    """Raise InputError for text that names no point."""
    m = _ROUND.match(text)
    if m:
        kind, num = m.group(1).lower(), m.group(2)
        if kind == "auction":
            if num:
                raise InputError(f"--at {text!r}: the auction has no number")
            return Point("round", "auction")
        if not num or (kind == "or") != ("." in num):
            want = "SR N" if kind == "sr" else "OR N.M"
            raise InputError(f"--at {text!r}: write a {kind.upper()} as '{want}'")
        return Point("round", f"{kind.upper()} {num}")
    m = _ID.match(text)
    if m:
        return Point("id", int(m.group(1)))
    m = _LINE.match(text)
    if m:
        return Point("line", int(m.group(1)))
    m = _NUMBER.match(text)
    if m:
        has_ids = any(a.action_id is not None for a in record.actions)
        return Point("id" if has_ids else "line", int(m.group(1)))
    raise InputError(f"--at {text!r}: expected a number, '#N', 'line N', 'auction', "
                     f"'SR N' or 'OR N.M'")


def actions_up_to(record, point: Point, labels: Optional[dict] = None) -> int:
    """How many of the record's actions come before the point (an InputError
    when the point is before the start or past the end).  ``labels`` maps
    id(action) to the round it was taken in (for a round point)."""
    acts = record.actions
    if point.kind == "round":
        for k, a in enumerate(acts):
            if (labels or {}).get(id(a)) == point.value:
                return k
        seen = [labels[id(a)] for a in acts if id(a) in (labels or {})]
        last = f" (its last round is {seen[-1]})" if seen else ""
        raise InputError(f"--at {point.value}: the game never reaches {point.value}{last}")
    attr = "action_id" if point.kind == "id" else "line"
    keys = [getattr(a, attr) for a in acts if getattr(a, attr) is not None]
    what = "action #" if point.kind == "id" else "line "
    if not keys:
        raise InputError(f"--at: no action of this game has {'an id' if attr == 'action_id' else 'a line'}")
    if point.value < keys[0]:
        raise InputError(f"--at {what}{point.value} is before the start of the game "
                         f"(its first action is {what}{keys[0]})")
    if point.value > max(keys):
        raise InputError(f"--at {what}{point.value} is past the end of the game "
                         f"(its last action is {what}{max(keys)})")
    for k, a in enumerate(acts):
        key = getattr(a, attr)
        if key is not None and key > point.value:
            return k
    return len(acts)


def truncated(record, count: int):
    return replace(record, actions=list(record.actions[:count]))


def whose_turn(game) -> str:
    """'PRR to act (laying track)', 'Alice to act', or '' when the game is over."""
    if game.finished or game.round is None:
        return ""
    r = game.round
    who = ""
    try:
        who = r.describe_turn()
    except Exception:       # a round in a state it cannot describe
        who = ""
    step = r.describe_step()
    if not who:
        return ""
    return f"{who} to act" + (f" (step: {step})" if step else "")
