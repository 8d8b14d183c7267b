"""Compare a replay with a per-action state trace of the 18xx.games engine.

A trace (``shared/corpus/traces/*.trace.json``) holds, after every action
that counts, each player's cash and each corporation's treasury, share price,
president and trains.  ``first_divergence`` replays the export alongside and
names the first action id where the numbers differ.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Optional

from .engine import Replay
from .importer import import_export


@dataclass
class Divergence:
    action_id: int
    what: str
    ours: object
    theirs: object
    round: str = ""

    def __str__(self) -> str:
        return (f"action {self.action_id} ({self.round}): {self.what} is {self.ours} here, "
                f"{self.theirs} in the trace")

    def as_tuple(self) -> tuple:
        """(action id, what differs, ours, the trace's)."""
        return (self.action_id, self.what, self.ours, self.theirs)


def snapshot(game) -> dict:
    players = {p.name: p.cash for p in game.players}
    corps = {}
    for c in game.corporations.values():
        if c.par is None:
            continue
        corps[c.sym] = {"cash": c.cash, "price": c.price.price if c.price else None,
                        "president": game.title.president_label(c),
                        "trains": sorted(t.name for t in c.trains), "floated": c.floated}
    return {"players": players, "corporations": corps, "bank": game.bank.cash,
            "phase": game.phase.name}


def compare_state(ours: dict, theirs: dict) -> Optional[tuple[str, object, object]]:
    for name, cash in theirs["players"].items():
        if ours["players"].get(name) != cash:
            return (f"{name}'s cash", ours["players"].get(name), cash)
    for sym, tc in theirs["corporations"].items():
        oc = ours["corporations"].get(sym)
        if oc is None:
            return (f"{sym}", "not started", f"started at {tc.get('price')}")
        for key in ("cash", "price", "president", "floated"):
            if key in tc and oc.get(key) != tc[key]:
                return (f"{sym}'s {key}", oc.get(key), tc[key])
        if "trains" in tc and oc["trains"] != sorted(tc["trains"]):
            return (f"{sym}'s trains", oc["trains"], sorted(tc["trains"]))
    if "bank" in theirs and ours["bank"] != theirs["bank"]:
        return ("the bank's cash", ours["bank"], theirs["bank"])
    if "phase" in theirs and ours["phase"] != str(theirs["phase"]):
        return ("the phase", ours["phase"], theirs["phase"])
    return None


def first_divergence(export_text: str, trace: dict, path: str = "<export>", *,
                     check_board: bool = True):
    """Returns (Divergence or None, Result)."""
    record, _ = import_export(export_text, path)
    divergence, result, _ = walk_trace(record, trace, check_board=check_board)
    return divergence, result


def walk_trace(record, trace: dict, *, check_board: bool = True):
    """Replay ``record`` beside ``trace``, comparing the state after the last
    action of each id the trace has: (the first Divergence or None, the
    Result, how many states were compared)."""
    states = {s["id"]: s for s in trace["states"]}
    last_id_index = {a.action_id: i for i, a in enumerate(record.actions)}
    found: list = []
    replay = Replay(record, check_board=check_board)
    counter = {"i": -1, "compared": 0}

    def after(game, action):
        counter["i"] += 1
        if found or last_id_index.get(action.action_id) != counter["i"]:
            return
        st = states.get(action.action_id)
        if st is None:
            return
        counter["compared"] += 1
        diff = compare_state(snapshot(game), st)
        if diff:
            found.append(Divergence(action.action_id, *diff, round=st.get("round", "")))

    replay.after_action = after
    result = replay.run()
    return (found[0] if found else None), result, counter["compared"]


def load_trace(path: str) -> dict:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)
