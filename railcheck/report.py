"""Reports of validation results: text, JSON, JUnit XML, GitHub annotations.

The JSON schema is documented in docs/report-schema.md; ``SCHEMA_VERSION``
changes only when a field is removed or changes meaning.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Optional

from .findings import (ERROR, MAX_FINDINGS, WARNING, Finding, InputError, dropped_counts,
                       plural)

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def escape(text: str) -> str:
    """XML text; characters XML 1.0 forbids (control characters) become U+FFFD.
    (Written here: xml.sax.saxutils would load urllib and http at start-up.)"""
    text = _NOT_XML.sub("\ufffd", text)
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(text: str) -> str:
    """An XML attribute value with its quotes (as xml.sax.saxutils.quoteattr)."""
    text = escape(text).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return '"' + text.replace('"', "&quot;") + '"'


SCHEMA_VERSION = 1


@dataclass
class FileReport:
    """What one input file gave: a replay result, or an input error."""

    path: str
    result: object = None                  # engine.Result
    error: Optional[InputError] = None
    read_findings: list = field(default_factory=list)
    seconds: float = 0.0
    #: the error is an export of a title railcheck has no ruleset for
    unsupported: bool = False
    #: the map (tile lays, stations, routes) was checked
    board_checked: bool = True
    #: the file is no game record (a JSON file with no actions: an engine
    #: trace, railcheck's own report); skipped when found in a folder
    not_a_game: bool = False
    #: the path was named on the command line (not found in a folder)
    named: bool = False

    @property
    def findings(self) -> list[Finding]:
        out = list(self.read_findings)
        if self.result is not None:
            out.extend(self.result.findings)
        return out

    @property
    def not_kept(self) -> dict:
        """Findings counted but not kept (past ``findings.MAX_FINDINGS`` of
        one list), by severity."""
        return dropped_counts(self.read_findings,
                              self.result.findings if self.result is not None else None)

    def count(self, severity: str) -> int:
        return (sum(1 for f in self.findings if f.severity == severity)
                + self.not_kept.get(severity, 0))

    @property
    def status(self) -> str:
        if self.error is not None:
            if self.not_a_game and not self.named:
                return "not_a_game"
            return "unsupported" if self.unsupported else "unreadable"
        if self.count(ERROR):
            return "findings"
        if self.count(WARNING):
            return "warnings"
        return "legal"

    def to_dict(self) -> dict:
        if self.error is not None:
            e = self.error
            return {"path": self.path, "status": self.status, "title": None, "ruleset": None,
                    "players": [],
                    "finished": False, "end_reason": None, "actions": None, "round": None,
                    "phase": None, "bank": None,
                    "error": {"message": e.bare, "line": e.line, "column": e.column},
                    "findings": [], "findings_not_kept": 0, "standings": [], "companies": []}
        r = self.result
        d = r.to_dict()
        d["path"] = self.path
        d["status"] = self.status
        d["findings"] = [f.to_dict() for f in self.findings]
        # ``follows`` counts in the replay's own findings; the reading ones come first here
        offset = len(self.read_findings)
        for f in d["findings"][offset:]:
            if f.get("follows") is not None:
                f["follows"] += offset
        d["error"] = None
        #: findings counted but not kept (past the first MAX_FINDINGS of the file)
        d["findings_not_kept"] = sum(self.not_kept.values())
        return d


# ---------------------------------------------------------------------------
# text

class Style:
    def __init__(self, color: bool):
        self.color = color

    def _c(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.color else text

    def red(self, t): return self._c("31", t)
    def yellow(self, t): return self._c("33", t)
    def green(self, t): return self._c("32", t)
    def bold(self, t): return self._c("1", t)
    def dim(self, t): return self._c("2", t)


def money(amount, currency="$") -> str:
    if amount is None:
        return "-"
    return f"{currency}{amount:,}" if amount >= 0 else f"-{currency}{-amount:,}"


def location(path: str, f: Finding) -> str:
    """``path:line:col`` for a notation line, ``path:#id`` for an export's
    action (its id), ``path`` for a whole-game finding."""
    if f.line is not None:
        loc = f"{path}:{f.line}"
        if f.column is not None:
            loc += f":{f.column}"
        return loc
    if f.action_id is not None:
        return f"{path}:#{f.action_id}"
    return path


def message(f: Finding) -> str:
    """The message; a finding located by line that also has an export id
    (notation imported from 18xx.games) names the id first."""
    if f.line is not None and f.action_id is not None:
        return f"action {f.action_id}: {f.message}"
    return f.message


def finding_line(path: str, f: Finding, sev: Optional[str] = None) -> str:
    """``path:line:col: severity [rule] message``: the one line form of a finding."""
    return f"{location(path, f)}: {sev or f.severity} [{f.rule}] {message(f)}"


def roots(rep: FileReport) -> list[int]:
    """For each finding of ``rep.findings``, the index of the finding it is
    folded under (its own index when it stands alone).  A consequential
    finding follows the finding named by its ``follows`` (an index into the
    replay's findings) or, without one, the last error before it that is not
    itself consequential."""
    fs = rep.findings
    offset = len(rep.read_findings)
    root = list(range(len(fs)))
    last_root_error = None
    for i, f in enumerate(fs):
        parent = None
        if getattr(f, "consequential", False):
            follows = getattr(f, "follows", None)
            if isinstance(follows, int) and i >= offset and 0 <= follows + offset < i:
                parent = follows + offset
            else:
                parent = last_root_error
        if parent is not None:
            root[i] = root[parent]
        elif f.severity == ERROR:
            last_root_error = i
    return root


SEVERITY_RANK = {"info": 0, WARNING: 1, ERROR: 2}


def record_order(f: Finding) -> tuple:
    """Where a finding stands in the record: its line (a notation file) or
    its action id (an export); a whole-game finding after every action."""
    if f.line is not None:
        return (0, f.line, f.column or 0)
    if f.action_id is not None:
        return (0, f.action_id, 0)
    return (1, 0, 0)


def same_action(a: Finding, b: Finding) -> bool:
    """Two errors of the same action (printed on one line: every rule it
    breaks); warnings and notes keep a line each."""
    return (a.severity == b.severity == ERROR and (a.line, a.column, a.action_id)
            == (b.line, b.column, b.action_id) and (a.line is not None or a.action_id is not None))


def joined_message(group: list) -> str:
    """The messages of the findings of one action on one line: the first's,
    then ``also [RULE] ...`` for each other; a closing clause all of them
    share (``; taken as bought, as the record says``) is said once, at the end."""
    msgs = [message(f) if k == 0 else f.message for k, f in enumerate(group)]
    if len(group) == 1:
        return msgs[0]
    tail = ""
    last = msgs[-1]
    cut = last.rfind("; ")
    if cut > 0 and all(m.endswith(last[cut:]) for m in msgs):
        tail = last[cut:]
        msgs = [m[: len(m) - len(tail)] for m in msgs]
    text = msgs[0] + "".join(f"; also [{f.rule}] {m}" for f, m in zip(group[1:], msgs[1:]))
    return text + tail


def _where(path: str, f: Finding) -> str:
    if f.line is not None:
        return f"line {f.line}"
    if f.action_id is not None:
        return f"#{f.action_id}"
    return "an earlier finding"


@dataclass
class TextOptions:
    """How the text report is printed."""

    color: bool = False
    quiet: bool = False            # no tables, no verdict line for a legal game of several
    standings: Optional[bool] = None   # tables; None: only for a single file (not --quiet)
    show_all: bool = False         # consequential findings in full, not folded
    max_findings: Optional[int] = None  # at most this many finding lines in the whole run
    min_severity: str = "info"     # the lowest severity printed (--quiet: warning)
    single: bool = True            # the run has one file
    skip_unsupported: bool = False
    no_board: bool = False


class TextReporter:
    """Prints the text report file by file (as each file is checked) and a
    summary at the end; counts what it leaves out."""

    def __init__(self, opts: TextOptions):
        self.o = opts
        self.style = Style(opts.color)
        self.shown = 0
        self.hidden = 0       # over --max-findings
        self.folded = 0       # consequential findings not shown (no --all)
        self.below = 0        # findings under --severity (info, with --quiet)

    def _take(self) -> bool:
        if self.o.max_findings is not None and self.shown >= self.o.max_findings:
            self.hidden += 1
            return False
        self.shown += 1
        return True

    def findings(self, rep: FileReport) -> list[str]:
        """The finding lines of one file, in the order of the record (by line,
        or an export's action id; whole-game findings last).  The findings of
        one action (every rule it breaks, flagged by one check) share one
        line; a finding that follows from an earlier one is folded under it
        (``--all``: shown, in its place)."""
        style, out = self.style, []
        fs = rep.findings
        root = roots(rep)
        children: dict[int, int] = {}
        for i, r in enumerate(root):
            if r != i:
                children[r] = children.get(r, 0) + 1
        shown = [i for i in range(len(fs))
                 if SEVERITY_RANK[fs[i].severity] >= SEVERITY_RANK[self.o.min_severity]]
        hidden_low = len(fs) - len(shown)
        self.below += hidden_low
        kept = []
        for i in shown:
            if root[i] != i and not self.o.show_all:
                self.folded += 1
                continue
            kept.append(i)
        kept.sort(key=lambda i: record_order(fs[i]))
        groups: list[list[int]] = []
        for i in kept:
            last = groups[-1][-1] if groups else None
            if (last is not None and same_action(fs[last], fs[i])
                    and (root[i] == i) == (root[last] == last)):
                groups[-1].append(i)
            else:
                groups.append([i])
        for group in groups:
            if not self._take():
                self.hidden += len(group) - 1
                continue
            i = group[0]
            f = fs[i]
            sev = style.red("error") if f.severity == ERROR else style.yellow(f.severity)
            note = ""
            if root[i] != i:
                note = style.dim(f" (may follow from the finding at "
                                 f"{_where(rep.path, fs[root[i]])})")
            out.append(f"{location(rep.path, f)}: {sev} [{f.rule}] "
                       f"{joined_message([fs[j] for j in group])}" + note)
            if f.text and not self.o.quiet:
                out.append(style.dim(f"    {f.text}"))
            n = sum(children.get(j, 0) for j in group)
            if n and not self.o.show_all:
                more = ("1 more finding that follows" if n == 1
                        else f"{n} more findings that follow")
                out.append(style.dim(f"    … and {more} from it (--all to show)"))
        lost = rep.not_kept
        limit = getattr(rep.result.findings if rep.result is not None else None, "limit",
                        MAX_FINDINGS)
        if lost:
            total = sum(lost.values())
            parts = ", ".join(f"{n:,} {sev}{'s' if n != 1 else ''}"
                              for sev, n in sorted(lost.items(),
                                                   key=lambda x: -SEVERITY_RANK[x[0]]))
            out.append(style.dim(f"… and {total:,} more finding{'s' if total != 1 else ''} "
                                 f"({parts}) past the first {limit:,} of this file, "
                                 f"counted but not kept"))
        return out

    def verdict(self, rep: FileReport) -> str:
        style, r = self.style, rep.result
        errors, warnings = rep.count(ERROR), rep.count(WARNING)
        verdict = style.green("legal") if not errors else style.red(
            f"{errors} error{'s' if errors != 1 else ''}")
        if warnings:
            verdict += style.yellow(f", {warnings} warning{'s' if warnings != 1 else ''}")
        return (style.bold(f"{rep.path}") + f": {ruleset_label(r)}, "
                f"{plural(len(r.players), 'player')}, {plural(r.actions, 'action')}, "
                f"{describe_end(r)} — {verdict}")

    def file(self, rep: FileReport) -> str:
        """The lines of one file, ending with a newline ('' for nothing)."""
        style, o = self.style, self.o
        out: list[str] = []
        if rep.error is not None:
            if rep.status == "not_a_game":
                return "" if o.quiet else style.dim(f"skipped: {rep.error}") + "\n"
            if rep.unsupported:
                label = style.yellow("skipped") if o.skip_unsupported else style.red("unsupported")
                out.append(f"{label}: {rep.error}")
            else:
                out.append(f"{style.red('error')}: {rep.error}")
            return "\n".join(out) + "\n"
        r = rep.result
        tables = o.standings if o.standings is not None else (o.single and not o.quiet)
        if not (o.quiet and not o.single and rep.status == "legal" and not tables):
            out.append(self.verdict(rep))
        out.extend(self.findings(rep))
        if o.single and not rep.board_checked:
            out.append(style.dim("note: the map (tile lays, stations, routes) was not "
                                 "checked (--no-board)"))
        if tables and r.standings:
            out.append("")
            out.append(text_standings(r, r.currency))
            if r.companies:
                out.append("")
                out.append(text_companies(r, r.currency))
            if not o.single:
                out.append("")
        return ("\n".join(out) + "\n") if out else ""

    def summary(self, reports: list[FileReport], seconds: Optional[float] = None) -> str:
        """The closing lines: what was left out, then (for several files) the
        counts, always the last line."""
        style, o = self.style, self.o
        lines = []
        if self.folded:
            lines.append(f"{self.folded} finding{'s' if self.folded != 1 else ''} that follow"
                         f"{'s' if self.folded == 1 else ''} from earlier ones "
                         f"{'was' if self.folded == 1 else 'were'} folded (--all to show)")
        if self.below and not o.quiet:
            lines.append(f"{self.below} finding{'s' if self.below != 1 else ''} below "
                         f"{o.min_severity} not shown (--severity info shows them)")
        if self.hidden:
            lines.append(f"{self.hidden} more finding{'s' if self.hidden != 1 else ''} not "
                         f"shown (--max-findings {o.max_findings})")
        if not o.single:
            unchecked = sum(1 for r in reports if r.result is not None and not r.board_checked)
            if unchecked:
                lines.append(f"the map (tile lays, stations, routes) was not checked in "
                             f"{unchecked} hand-written log{'s' if unchecked != 1 else ''} "
                             f"(--no-board)")
            c = summary_counts(reports)
            parts = [f"{c['legal']} legal", f"{c['with_findings']} with findings"]
            if c["unsupported"]:
                parts.append(f"{c['unsupported']} unsupported"
                             + (" (skipped)" if o.skip_unsupported else ""))
            parts.append(f"{c['unreadable']} unreadable")
            if c["not_game_records"]:
                parts.append(f"{c['not_game_records']} not game records (skipped)")
            text = f"{c['files']} files: " + ", ".join(parts)
            if seconds is not None:
                text += f" in {seconds:.2f} s"
            lines.append(style.bold(text))
        return ("\n".join(lines) + "\n") if lines else ""


#: what ended a game, in the same words for every title (the keys are the
#: ruleset's ``end:`` keys, which every title's replay gives as its end reason;
#: ``dnf`` is an export's stop by 18xx.games of a game still going after turn 100)
END_REASONS = {
    "bank": "bank broken",
    "bankrupt": "bankruptcy",
    "stock_market": "share price at the end of the market",
    "nationalization": "nationalisation",
    "game_turns": "last game turn",
    "dnf": "stopped by 18xx.games after turn 100 (dnf)",
}


def end_reason_text(reason) -> str:
    """A game's end reason in words (``END_REASONS``; an unknown one as given,
    with its underscores read as spaces)."""
    if not reason:
        return ""
    return END_REASONS.get(reason, str(reason).replace("_", " "))


def describe_end(r) -> str:
    if r.finished:
        reason = end_reason_text(r.end_reason)
        return f"game over: {reason}" if reason else "game over"
    return f"not finished (stopped in {r.round}, phase {r.phase})"


def ruleset_label(r) -> str:
    """The title, and the user's ruleset file when one played the game."""
    rs = r.ruleset or {}
    if not rs.get("path"):
        return str(r.title)
    return f"{r.title} (ruleset {rs['path']}, extends {rs['extends']})"


def text_standings(result, currency="$") -> str:
    from tabulate import tabulate
    rows = [[r["rank"], r["player"], money(r["cash"], currency), money(r["shares"], currency),
             money(r["privates"], currency), money(r["net_worth"], currency)]
            for r in result.standings]
    return tabulate(rows, headers=["rank", "player", "cash", "shares", "privates", "net worth"],
                    colalign=("right", "left", "right", "right", "right", "right"))


def text_companies(result, currency="$") -> str:
    from tabulate import tabulate
    rows = []
    for c in result.companies:
        rows.append([c["company"], money(c["price"], currency), money(c["treasury"], currency),
                     " ".join(c["trains"]) or "-", c["president"] or "-",
                     f"{c['ipo_percent']}%", f"{c['pool_percent']}%"])
    return tabulate(rows, headers=["company", "price", "treasury", "trains", "president",
                                   "IPO", "pool"],
                    colalign=("left", "right", "right", "left", "left", "right", "right"))


def render_text(reports: list[FileReport], opts: Optional[TextOptions] = None,
                seconds: Optional[float] = None) -> str:
    """The whole text report at once (what ``validate`` prints file by file)."""
    if opts is None:
        opts = TextOptions(single=len(reports) == 1)
    rep_ = TextReporter(opts)
    out = "".join(rep_.file(r) for r in reports)
    return out + rep_.summary(reports, seconds)


def summary_counts(reports: list[FileReport]) -> dict:
    return {
        "files": len(reports),
        "legal": sum(1 for r in reports if r.status in ("legal", "warnings")),
        "with_findings": sum(1 for r in reports if r.status == "findings"),
        "unsupported": sum(1 for r in reports if r.status == "unsupported"),
        "unreadable": sum(1 for r in reports if r.status == "unreadable"),
        "not_game_records": sum(1 for r in reports if r.status == "not_a_game"),
    }


def render_score(rep: FileReport) -> str:
    r = rep.result
    currency = r.currency
    out = f"{rep.path}: {ruleset_label(r)}, {describe_end(r)}\n"
    if r.standings:
        out += text_standings(r, currency) + "\n"
    else:
        out += ("no standings: this title's checker does not track money (see its "
                "'info [*.unchecked]' finding)\n")
    errors = [f for f in rep.findings if f.severity == ERROR]
    if errors:
        n = len({(f.line, f.column, f.action_id) for f in errors})
        out += (f"note: this game has {n} illegal action{'s' if n != 1 else ''}: these "
                f"standings are those of the replay, not a legal result "
                f"('railcheck validate' lists {'them' if n != 1 else 'it'}); the first:\n"
                f"{location(rep.path, errors[0])}: error [{errors[0].rule}] "
                f"{joined_message([f for f in errors if same_action(f, errors[0])])}\n")
    for row in r.standings or []:
        if row["cash"] is not None and row["cash"] < 0:
            over = [f for f in errors if f.rule.endswith(".cash")
                    and row["player"] in f.message]
            why = (f"the action at {_where(rep.path, over[0])} was taken over their cash, as "
                   f"the record says" if over else "an action was taken over their cash, as "
                   "the record says")
            out += (f"note: {row['player']} ends with {money(row['cash'], currency)} in "
                    f"cash: {why}\n")
    return out


# ---------------------------------------------------------------------------
# machine formats

def render_json(reports: list[FileReport]) -> str:
    doc = {"schema_version": SCHEMA_VERSION,
           "files": [r.to_dict() for r in reports],
           "summary": summary_counts(reports)}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def render_junit(reports: list[FileReport]) -> str:
    failures = sum(1 for r in reports if r.status == "findings")
    errors = sum(1 for r in reports if r.status == "unreadable")
    skipped = sum(1 for r in reports if r.status in ("unsupported", "not_a_game"))
    total_time = sum(r.seconds for r in reports)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<testsuites name="railcheck" tests="{len(reports)}" failures="{failures}" '
           f'errors="{errors}" skipped="{skipped}" time="{total_time:.3f}">',
           f'  <testsuite name="railcheck" tests="{len(reports)}" failures="{failures}" '
           f'errors="{errors}" skipped="{skipped}" time="{total_time:.3f}">']
    for rep in reports:
        name = quoteattr(rep.path)
        title = rep.result.title if rep.result is not None else "unknown"
        out.append(f'    <testcase classname={quoteattr("railcheck." + str(title))} '
                   f'name={name} time="{rep.seconds:.3f}">')
        if rep.unsupported or rep.status == "not_a_game":
            out.append(f'      <skipped message={quoteattr(rep.error.bare)}/>')
        elif rep.error is not None:
            out.append(f'      <error message={quoteattr(rep.error.bare)}>'
                       f'{escape(str(rep.error))}</error>')
        else:
            errs = [f for f in rep.findings if f.severity == ERROR]
            if errs:
                body = "\n".join(finding_line(rep.path, f) for f in errs)
                out.append(f'      <failure message={quoteattr(plural(len(errs), "error"))} '
                           f'type="railcheck.findings">{escape(body)}</failure>')
            warns = [f for f in rep.findings if f.severity != ERROR]
            if warns:
                body = "\n".join(finding_line(rep.path, f) for f in warns)
                out.append(f"      <system-out>{escape(body)}</system-out>")
        out.append("    </testcase>")
    out.append("  </testsuite>")
    out.append("</testsuites>")
    return "\n".join(out) + "\n"


def _gh_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def render_github(reports: list[FileReport], *, show_all: bool = False,
                  skip_unsupported: bool = False) -> str:
    """One workflow command per finding (consequential findings folded into
    the one they follow from, unless ``show_all``), then the summary line."""
    out = []
    for rep in reports:
        if rep.status == "not_a_game":
            continue
        if rep.error is not None:
            e = rep.error
            props = f"file={_gh_escape(rep.path, True)}"
            if e.line:
                props += f",line={e.line}"
                if e.column:
                    props += f",col={e.column}"
            kind = "warning" if rep.unsupported and skip_unsupported else "error"
            title = "railcheck unsupported" if rep.unsupported else "railcheck"
            out.append(f"::{kind} {props},title={title}::{_gh_escape(e.bare)}")
            continue
        root = roots(rep)
        fs = rep.findings
        for i in sorted(range(len(fs)), key=lambda i: record_order(fs[i])):
            f = fs[i]
            if root[i] != i and not show_all:
                continue
            kind = "error" if f.severity == ERROR else ("warning" if f.severity == WARNING
                                                        else "notice")
            props = f"file={_gh_escape(rep.path, True)}"
            if f.line:
                props += f",line={f.line}"
                if f.column:
                    props += f",col={f.column}"
            title = _gh_escape(f"railcheck {f.rule}", True)
            msg = f.message if f.action_id is None else f"action {f.action_id}: {f.message}"
            n = sum(1 for j, r in enumerate(root) if r == i and j != i)
            if n and not show_all:
                msg += (f" (and {n} more finding{'s' if n != 1 else ''} that "
                        f"follow{'' if n != 1 else 's'} from it)")
            out.append(f"::{kind} {props},title={title}::{_gh_escape(msg)}")
    c = summary_counts(reports)
    text = (f"railcheck: {c['files']} files, {c['legal']} legal, "
            f"{c['with_findings']} with findings")
    if c["unsupported"]:
        text += f", {c['unsupported']} unsupported"
    text += f", {c['unreadable']} unreadable"
    if c["not_game_records"]:
        text += f", {c['not_game_records']} not game records (skipped)"
    out.append(text)
    return "\n".join(out) + "\n"
