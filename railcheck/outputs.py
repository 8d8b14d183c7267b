"""Files railcheck writes (a report, a JUnit file, notation, an SVG): one
rule for all of them.

* never over a file that is an input of the same run, not even with --force
  (a game log is the user's data; a report or picture cannot replace it);
* an existing file only with --force;
* a path that cannot be written is a clear message, never a traceback.
"""

from __future__ import annotations

import os
from typing import Iterable, Optional


class OutputRefused(Exception):
    """The output path breaks the rule above; ``str()`` says why."""


def _same(a: str, b: str) -> bool:
    try:
        if os.path.exists(a) and os.path.exists(b):
            return os.path.samefile(a, b)
    except OSError:
        pass
    return os.path.realpath(a) == os.path.realpath(b)


def check_output(path: str, inputs: Iterable[str], *, force: bool, what: str,
                 others: Iterable[tuple[str, str]] = ()) -> None:
    """Raise OutputRefused unless ``path`` may receive ``what``.  ``others``
    are (path, what) of the other outputs of the same run."""
    for inp in inputs:
        if inp in ("-", "<stdin>"):
            continue
        if _same(path, inp):
            raise OutputRefused(f"refusing to write {what} over the game log {path}, an "
                                f"input of this command (not even with --force)")
    for other, other_what in others:
        if other and _same(path, other):
            raise OutputRefused(f"{path} would receive both {other_what} and {what}")
    if os.path.isdir(path):
        raise OutputRefused(f"{path} is a folder; give a file name for {what}")
    if os.path.exists(path) and not force:
        raise OutputRefused(f"{path} exists; use --force to replace it")


def write_output(path: str, text: str) -> Optional[str]:
    """Write ``text``; returns an error message instead of raising."""
    try:
        with open(path, "w", encoding="utf-8", errors="replace", newline="") as fh:
            fh.write(text)
    except OSError as exc:
        return f"{path}: cannot write: {exc.strerror or exc}"
    return None
