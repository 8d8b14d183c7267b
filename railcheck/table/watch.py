"""``railcheck watch PATH``: re-check a record (or every record in a folder)
each time it is saved, and print the findings that are new since the last
check and whose turn it is.  Each file keeps its replay's snapshots
(``incremental.Checker``), so a record written at the table, saved after each
move, is re-checked from near its end.  Needs the optional ``watchfiles``
(``pip install 'railcheck[watch]'``)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Optional

from ..findings import InputError
from .incremental import Checker


def _key(f) -> tuple:
    return (f.rule, f.line, f.action_id, f.message)


class Watched:
    """One record: its checker and the findings seen last time."""

    def __init__(self, path: str):
        self.path = path
        self.checker = Checker()
        self.seen: Optional[set] = None

    def check(self) -> list[str]:
        """Re-check; the lines to print."""
        from ..loader import load_game
        from ..report import finding_line
        start = time.perf_counter()
        try:
            record, read = load_game(self.path)
        except InputError as exc:
            self.seen = None
            return [f"{self.path}: {exc.bare}"]
        if not record.title or not record.players:
            return [f"{self.path}: not a game yet (no title or players)"]
        try:
            result, turn = self.checker.check_with_turn(record)
        except InputError as exc:
            return [f"{self.path}: {exc.bare}"]
        findings = [f for f in list(read) + result.findings
                    if f.severity in ("error", "warning")]
        keys = {_key(f) for f in findings}
        new = [f for f in findings if self.seen is None or _key(f) not in self.seen]
        gone = 0 if self.seen is None else len(self.seen - keys)
        self.seen = keys
        seconds = time.perf_counter() - start
        errors = sum(1 for f in findings if f.severity == "error")
        state = "game over" if result.finished else result.round
        head = (f"{self.path}: {len(record.actions)} actions, {state}"
                + (f"; {turn}" if turn else "")
                + f" — {errors} error{'s' if errors != 1 else ''}"
                + (f", {len(new)} new" if new else "")
                + (f", {gone} gone" if gone else "")
                + f" ({seconds * 1000:.0f} ms)")
        return [head] + [finding_line(self.path, f) for f in new]


def game_files(path: str) -> list[str]:
    from ..loader import is_game_file_name
    p = Path(path)
    if p.is_dir():
        return sorted(str(f) for f in p.rglob("*") if f.is_file() and is_game_file_name(f.name))
    return [str(p)]


def watch(paths: list[str], echo: Callable[[str], None], stop_event=None,
          debounce_ms: int = 200) -> None:
    """Check every game under ``paths``, then re-check each one saved, until
    interrupted (or ``stop_event`` is set)."""
    try:
        from watchfiles import watch as watch_changes
    except ImportError:
        raise SystemExit("railcheck watch needs watchfiles: pip install 'railcheck[watch]'") \
            from None
    from ..loader import is_game_file_name
    records: dict = {}
    for path in paths:
        for f in game_files(path):
            records[f] = Watched(f)
            for line in records[f].check():
                echo(line)
    echo(f"watching {', '.join(paths)} (Ctrl-C to stop)")
    for changes in watch_changes(*paths, stop_event=stop_event, debounce=debounce_ms,
                                 rust_timeout=500, yield_on_timeout=False):
        done = set()
        for _, changed in sorted(changes, key=lambda c: c[1]):
            changed = str(changed)
            if changed in done or not is_game_file_name(Path(changed).name):
                continue
            done.add(changed)
            key = next((k for k in records if Path(k).resolve() == Path(changed).resolve()),
                       None)
            if key is None:
                key = changed
                records[key] = Watched(changed)
            if not Path(changed).exists():
                echo(f"{key}: removed")
                records.pop(key, None)
                continue
            for line in records[key].check():
                echo(line)
