"""The command-line ends of ``railcheck next``, ``watch`` and ``lsp`` (kept
out of ``cli.py``, which only declares them)."""

from __future__ import annotations

import json
from typing import Optional

import click

from ..findings import InputError


def paused_at(path: str, at: Optional[str], ruleset=None, no_board: bool = False):
    """(record, read findings, paused replay, where) for ``path`` at the
    point ``at`` (as ``show --at`` takes it)."""
    from ..engine import Replay
    from ..loader import load_game
    from ..position import actions_up_to, parse_at
    from .incremental import Checker

    record, read_findings = load_game(path, ruleset=ruleset)
    board = not no_board or record.from_export
    count = len(record.actions)
    where = "at the end"
    if at is not None:
        point = parse_at(at, record)
        labels: dict = {}
        if point.kind == "round":
            first = Replay(record, check_board=board)
            first.before_action = lambda g, a: labels.__setitem__(id(a), g.round.label)
            first.run()
        count = actions_up_to(record, point, labels)
        where = point.describe()
    # one replay to one point: no snapshot is worth its copy
    rp = Checker(every=None, check_board=board).paused(record, count)
    return record, read_findings, rp, where


def next_command(path, at, fmt, verbose, ruleset, no_board, fail) -> None:
    from .nextmove import next_moves, render_text
    from ..loader import STDIN, STDIN_NAME

    name = STDIN_NAME if path == STDIN else path
    try:
        record, read_findings, rp, where = paused_at(path, at, ruleset, no_board)
    except InputError as exc:
        fail(str(exc) if exc.path else f"{name}: {exc.bare}")
    g = getattr(rp, "game", None)
    if g is None or getattr(g, "untracked", None) is not None or not hasattr(g, "corporations"):
        from ..titles import title_class
        cls = title_class(record.title or "")
        shown = cls.id if cls is not None else record.title
        fail(f"{name}: railcheck next does not cover {shown} yet: its records are replayed "
             f"by its own checker, which has no steps with pure checks to ask (the move "
             f"onto the shared engine brings it); validate, watch and lsp check it")
    from ..engine import MANUAL_END
    if at is None and record.expected_end_reason == MANUAL_END and not g.finished:
        # the players ended the game by agreement where the record stops
        g.finish(MANUAL_END)
    nm = next_moves(rp, verbose=verbose)
    errors = [f for f in list(read_findings) + g.findings if f.severity == "error"]
    if fmt == "json":
        out = nm.to_dict()
        out.update({"path": name, "at": where, "title": g.rules.title,
                    "errors_before": len(errors)})
        click.echo(json.dumps(out, indent=2))
        return
    click.echo(f"{name} {where}: {nm.situation.round}, phase {nm.phase}, bank "
               f"{g.money(g.bank.cash)}")
    if errors:
        click.echo(f"({len(errors)} illegal action{'s' if len(errors) != 1 else ''} up to "
                   f"here: the state is the one the record implies)")
    click.echo(render_text(nm, verbose=verbose), nl=False)
