"""How a game went, round by round: the state at every round boundary (or
after every action), gathered while the game is replayed.

The replay's observer hooks (``Replay.before_action``, ``on_action``,
``on_round_end``, ``after_action``) are all this needs; no round knows about
it.  Columns and field names are documented in docs/history.md.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from typing import Optional

from ..actions import Dividend
from ..findings import ERROR

#: values of ``Row.boundary``
ROUND, ACTION, END = "round", "action", "end"
EVERY = ("round", "action")


@dataclass
class Row:
    """The state at one point of the game (money in integers)."""

    round: str                  # the round that ended (or in which the action was taken)
    boundary: str               # "round", "action" or "end"
    phase: str
    bank: int
    players: dict               # name -> {cash, shares, privates, net_worth}
    companies: dict             # sym -> {price, treasury, trains, revenue, dividend, dividend_kind}
    action_id: Optional[int] = None
    line: Optional[int] = None
    errors: int = 0             # illegal actions found up to here

    def to_dict(self, step: int) -> dict:
        return {"step": step, "round": self.round, "boundary": self.boundary,
                "action_id": self.action_id, "line": self.line, "phase": self.phase,
                "bank": self.bank, "errors": self.errors, "players": self.players,
                "companies": self.companies}


@dataclass
class History:
    path: str
    title: str
    players: list
    currency: str
    rows: list = field(default_factory=list)
    result: object = None              # engine.Result
    read_findings: list = field(default_factory=list)
    #: why the history ends before the game did ("" for a finished game)
    incomplete: str = ""
    #: hindsight runs (analysis.hindsight.Run), when asked for
    runs: Optional[list] = None

    @property
    def companies(self) -> list[str]:
        """Every company that appears (was started) at some point, in ruleset order."""
        seen = []
        for row in self.rows:
            for sym in row.companies:
                if sym not in seen:
                    seen.append(sym)
        order = [c.sym for c in self.result.game.rules.corporations] if self.result else seen
        return [s for s in order if s in seen]

    @property
    def phase_changes(self) -> list[tuple[int, str]]:
        """(row index, new phase) wherever the phase differs from the row before."""
        out, last = [], None
        for i, row in enumerate(self.rows):
            if row.phase != last:
                out.append((i, row.phase))
                last = row.phase
        return out


class Collector:
    """Watches a Replay and records rows."""

    def __init__(self, every: str = ROUND):
        self.every = every
        self.rows: list[Row] = []
        self.revenue: dict = {}
        self.dividend: dict = {}
        self.kind: dict = {}
        self.label = ""
        self.cash_before = 0

    def attach(self, replay):
        replay.before_action = self.before_action
        replay.on_action = self.on_action
        replay.on_round_end = self.on_round_end
        if self.every == ACTION:
            replay.after_action = self.after_action

    # hooks ------------------------------------------------------------

    def before_action(self, g, action):
        self.label = g.round.label
        self.cash_before = _total(g.known_cash(p) for p in g.players)

    def on_action(self, g, action):
        r = g.round
        if r is None or r.kind != "OR":
            return
        corp = g.corporations.get(action.actor)
        if corp is None:
            return
        for turn in (getattr(r, "turn", None), getattr(r, "closed_turn", None)):
            if turn is not None and turn.corp is corp and turn.revenue is not None:
                self.revenue[corp.sym] = turn.revenue
                break
        if isinstance(action, Dividend):
            after = _total(g.known_cash(p) for p in g.players)
            if after is None or self.cash_before is None:    # a cash not known (1890)
                return
            paid = after - self.cash_before
            self.dividend[corp.sym] = self.dividend.get(corp.sym, 0) + paid
            self.kind[corp.sym] = action.kind

    def on_round_end(self, g, rnd):
        if self.every == ROUND:
            self.add(g, rnd.label, ROUND, g.current_action)
        if rnd.kind == "OR":
            self.revenue, self.dividend, self.kind = {}, {}, {}

    def after_action(self, g, action):
        self.add(g, self.label or (g.round.label if g.round else ""), ACTION, action)

    # rows -------------------------------------------------------------

    def add(self, g, label: str, boundary: str, action):
        row = snapshot_row(g, label, boundary, self.revenue, self.dividend, self.kind)
        if action is not None:
            row.action_id, row.line = action.action_id, action.line
        if boundary == ROUND:
            # a round taken up again (the record went on with it) ends again:
            # its later end replaces the earlier one
            for i, old in enumerate(self.rows):
                if old.round == label:
                    del self.rows[i:]
                    break
        self.rows.append(row)


def _total(amounts):
    """The sum, or None when one amount is not known (a title whose numbers may be
    unknown says None rather than a guess)."""
    out = 0
    for a in amounts:
        if a is None:
            return None
        out += a
    return out


def snapshot_row(g, label: str, boundary: str, revenue=None, dividend=None, kind=None) -> Row:
    players = {}
    for p in g.players:
        players[p.name] = {"cash": g.known_cash(p), "shares": g.share_value(p),
                           "privates": g.company_value(p), "net_worth": g.net_worth(p)}
    companies = {}
    for corp in g.corporations.values():
        if corp.par is None and not corp.floated:
            continue
        companies[corp.sym] = {
            "price": g.known_price(corp) if not corp.closed else None,
            "treasury": g.known_cash(corp),
            "trains": g.trains_listed(corp),
            "revenue": (revenue or {}).get(corp.sym),
            "dividend": (dividend or {}).get(corp.sym),
            "dividend_kind": (kind or {}).get(corp.sym),
            "closed": corp.closed,
        }
    errors = sum(1 for f in g.findings if f.severity == ERROR)
    return Row(round=label, boundary=boundary, phase=g.phase.name, bank=g.known_cash(g.bank),
               players=players, companies=companies, errors=errors)


def history_of(path: str, *, every: str = ROUND, ruleset=None, record=None,
               read_findings=None, on_action=None, board: bool = True) -> History:
    """Replay a game file (notation or export) and gather its history.
    ``on_action(game, action)``: another observer of each action.  Raises
    InputError when the file cannot be read."""
    from ..engine import Replay
    from ..loader import STDIN, STDIN_NAME, load_game

    if record is None:
        record, read_findings = load_game(path, ruleset=ruleset)
    replay = Replay(record, check_board=board or record.from_export)
    collector = Collector(every)
    collector.attach(replay)
    if on_action is not None:
        mine = replay.on_action

        def both(g, action):
            mine(g, action)
            on_action(g, action)
        replay.on_action = both
    result = replay.run()
    g = result.game
    name = STDIN_NAME if path == STDIN else path
    why = "" if g is None else getattr(g, "untracked", None)
    if g is None or why:
        # a title whose numbers may be unknown (1890): no money kept, said so
        from ..findings import InputError
        raise InputError(f"{result.title} games have no history here: railcheck checks their "
                         f"rules but keeps no money, prices or standings"
                         + (f" ({why})" if why else ""), path=name)
    hist = History(path=name, title=result.title, players=list(result.players),
                   currency=result.currency, result=result,
                   read_findings=list(read_findings or []))
    rows = collector.rows
    end = snapshot_row(g, g.round.label if g.round else "", END,
                       collector.revenue, collector.dividend, collector.kind)
    last = g.current_action
    if last is not None:
        end.action_id, end.line = last.action_id, last.line
    if rows and rows[-1].boundary == ROUND and _same_state(rows[-1], end):
        rows[-1].boundary = END
    elif not rows or every == ROUND or _changed(rows[-1], end):
        rows.append(end)
    else:
        rows[-1].boundary = END
    hist.rows = rows
    hist.incomplete = _incomplete(result)
    return hist


def _same_state(a: Row, b: Row) -> bool:
    return (a.bank, a.players, a.phase) == (b.bank, b.players, b.phase) and \
        {k: (v["price"], v["treasury"], v["trains"]) for k, v in a.companies.items()} == \
        {k: (v["price"], v["treasury"], v["trains"]) for k, v in b.companies.items()}


def _changed(a: Row, b: Row) -> bool:
    return not _same_state(a, b)


def _incomplete(result) -> str:
    stop = next((f for f in result.findings if f.rule == "internal.error"), None)
    if stop is not None:
        where = f"line {stop.line}" if stop.line else f"action #{stop.action_id}"
        return f"the replay stopped at {where} (railcheck could not check it)"
    if not result.finished:
        return f"the record ends before the game does (in {result.round})"
    return ""


# ----------------------------------------------------------------------
# output

def columns(hist: History) -> list[str]:
    """The CSV header (documented in docs/history.md)."""
    cols = ["step", "round", "boundary", "action_id", "line", "phase", "bank", "errors"]
    for p in hist.players:
        cols += [f"{p}:{k}" for k in ("cash", "shares", "privates", "net_worth")]
    for c in hist.companies:
        cols += [f"{c}:{k}" for k in ("price", "treasury", "trains", "revenue", "dividend")]
    return cols


def render_csv(hist: History) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(columns(hist))
    for i, row in enumerate(hist.rows):
        vals = [i, row.round, row.boundary, row.action_id, row.line, row.phase, row.bank,
                row.errors]
        for p in hist.players:
            d = row.players.get(p, {})
            vals += [d.get("cash"), d.get("shares"), d.get("privates"), d.get("net_worth")]
        for c in hist.companies:
            d = row.companies.get(c)
            if d is None:
                vals += [None] * 5
            else:
                vals += [d["price"], d["treasury"], " ".join(d["trains"]), d["revenue"],
                         d["dividend"]]
        w.writerow(["" if v is None else v for v in vals])
    return out.getvalue()


def to_json(hist: History) -> dict:
    res = hist.result
    out = {"path": hist.path, "title": hist.title, "players": hist.players,
           "currency": hist.currency, "finished": bool(res and res.finished),
           "end_reason": res.end_reason if res else None, "incomplete": hist.incomplete,
           "errors": sum(1 for f in (res.findings if res else []) if f.severity == ERROR),
           "rows": [row.to_dict(i) for i, row in enumerate(hist.rows)]}
    if hist.runs is not None:
        out["runs"] = [r.to_dict() for r in hist.runs]
    return out


def render_json(hist: History) -> str:
    return json.dumps(to_json(hist), indent=2) + "\n"


def render_text(hist: History) -> str:
    from tabulate import tabulate

    cur = hist.currency
    players = hist.players
    comps = hist.companies
    headers = ["round", "phase", "bank"] + [f"{p} worth" for p in players] + \
        [f"{c} price" for c in comps]
    table = []
    per_action = any(r.boundary == ACTION for r in hist.rows)
    for row in hist.rows:
        label = row.round
        if per_action and (row.action_id is not None or row.line is not None):
            label += " " + (f"#{row.action_id}" if row.action_id is not None
                            else f"l.{row.line}")
        if row.boundary == END:
            label += " (end)"
        vals = [label + (" *" if row.errors else ""), row.phase, _known(row.bank, cur)]
        vals += [_known(row.players[p]["net_worth"], cur) for p in players]
        for c in comps:
            d = row.companies.get(c)
            vals.append("" if d is None or d["price"] is None else _m(d["price"], cur))
        table.append(vals)
    out = [f"{hist.path}: {hist.title}, {len(hist.rows)} rows", "",
           tabulate(table, headers=headers, disable_numparse=True)]
    errs = hist.result.errors if hist.result else []
    if errs:
        out.append("")
        n = len({(f.line, f.column, f.action_id) for f in errs})
        first = "the illegal action" if n == 1 else f"the first of {n} illegal actions"
        out.append(f"* after {first} (the replay skipped what it refused)")
    if hist.incomplete:
        out.append(f"note: {hist.incomplete}")
    if any(row.bank is None or any(v["net_worth"] is None for v in row.players.values())
           for row in hist.rows):
        out.append("unknown: an amount that depends on a number the components file leaves "
                   "unknown (its info findings say which)")
    if hist.runs is not None:
        from .hindsight import render_text as runs_text
        out += ["", runs_text(hist.runs, cur)]
    return "\n".join(out) + "\n"


def _known(amount, cur) -> str:
    """A bank or worth that is always known in a title with all its numbers: 'unknown'
    where it is not (1890's components file)."""
    return "unknown" if amount is None else _m(amount, cur)


def _m(amount, cur) -> str:
    if amount is None:
        return ""
    return f"{cur}{amount}" if amount >= 0 else f"-{cur}{-amount}"
