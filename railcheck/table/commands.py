"""The command-line ends of ``railcheck next``, ``watch`` and ``lsp`` (kept
out of ``cli.py``, which only declares them)."""

from __future__ import annotations

import json
from typing import Optional

import click

from ..findings import InputError


def _count_at(record, at: Optional[str], board: bool = True) -> tuple:
    """(the number of the record's actions before the point ``at``, the
    point described)."""
    from ..engine import Replay
    from ..position import actions_up_to, parse_at
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
    return count, where


def paused_at(path: str, at: Optional[str], ruleset=None, no_board: bool = False,
              loaded=None):
    """(record, read findings, paused replay, where) for ``path`` at the
    point ``at`` (as ``show --at`` takes it); ``loaded``: the (record, read
    findings) of ``path`` already read."""
    from ..loader import load_game
    from .incremental import Checker

    record, read_findings = loaded or load_game(path, ruleset=ruleset)
    board = not no_board or record.from_export
    count, where = _count_at(record, at, board)
    # one replay to one point: no snapshot is worth its copy
    rp = Checker(every=None, check_board=board).paused(record, count)
    return record, read_findings, rp, where


def next_command(path, at, fmt, verbose, ruleset, no_board, fail) -> None:
    from .nextmove import next_moves, render_text
    from ..loader import STDIN, STDIN_NAME

    name = STDIN_NAME if path == STDIN else path
    try:
        from ..loader import load_game
        from ..titles import title_class
        record, read_findings = load_game(path, ruleset=ruleset)
        own = getattr(title_class(record.title or ""), "own_table", None)
        if own is not None:
            # 1890: replayed by its own checker (titles/kansai/table.py)
            from ..ruleset import load_ruleset
            rules = load_ruleset(record.ruleset or record.title, record.options,
                                 components=record.components)
            count, where = _count_at(record, at)
            _own_next(own(), name, record, rules, read_findings, count, where, fmt, verbose)
            return
        record, read_findings, rp, where = paused_at(path, at, ruleset, no_board,
                                                     loaded=(record, read_findings))
    except InputError as exc:
        fail(str(exc) if exc.path else f"{name}: {exc.bare}")
    g = getattr(rp, "game", None)
    if g is None or getattr(g, "untracked", None) is not None or not hasattr(g, "corporations"):
        from ..titles import title_class
        cls = title_class(record.title or "")
        shown = cls.id if cls is not None else record.title
        fail(f"{name}: railcheck next cannot tell what is legal in this {shown} record "
             f"(its replay has no game state to ask); validate, watch and lsp check it")
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


def _own_next(table, name, record, rules, read_findings, count, where, fmt, verbose) -> None:
    """``next`` for a title replayed by its own checker (its ``table``
    module: 1890's)."""
    from .nextmove import render_text
    nm, errors = table.kansai_next(record, rules, count, verbose=verbose, errors=True)
    errors += len([f for f in read_findings if f.severity == "error"])
    if fmt == "json":
        out = nm.to_dict()
        out.update({"path": name, "at": where, "title": rules.title, "errors_before": errors})
        click.echo(json.dumps(out, indent=2))
        return
    bank = nm.facts.pop("bank", None)
    click.echo(f"{name} {where}: {nm.situation.round}, phase {nm.phase}"
               + (f", bank {rules.currency}{bank}" if isinstance(bank, int) else ""))
    if errors:
        click.echo(f"({errors} illegal action{'s' if errors != 1 else ''} up to "
                   f"here: the state is the one the record implies)")
    click.echo(render_text(nm, verbose=verbose), nl=False)
