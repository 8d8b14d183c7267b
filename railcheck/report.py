"""Reports of validation results: text, JSON, JUnit XML, GitHub annotations.

The JSON schema is documented in docs/report-schema.md; ``SCHEMA_VERSION``
changes only when a field is removed or changes meaning.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Optional
from xml.sax.saxutils import escape as _escape, quoteattr as _quoteattr

from .findings import ERROR, WARNING, Finding, InputError

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def escape(text: str) -> str:
    """XML text; characters XML 1.0 forbids (control characters) become U+FFFD."""
    return _escape(_NOT_XML.sub("\ufffd", text))


def quoteattr(text: str) -> str:
    return _quoteattr(_NOT_XML.sub("\ufffd", text))


SCHEMA_VERSION = 1


@dataclass
class FileReport:
    """What one input file gave: a replay result, or an input error."""

    path: str
    result: object = None                  # engine.Result
    error: Optional[InputError] = None
    read_findings: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def findings(self) -> list[Finding]:
        out = list(self.read_findings)
        if self.result is not None:
            out.extend(self.result.findings)
        return out

    def count(self, severity: str) -> int:
        return sum(1 for f in self.findings if f.severity == severity)

    @property
    def status(self) -> str:
        if self.error is not None:
            return "unreadable"
        if self.count(ERROR):
            return "findings"
        if self.count(WARNING):
            return "warnings"
        return "legal"

    def to_dict(self) -> dict:
        if self.error is not None:
            e = self.error
            return {"path": self.path, "status": "unreadable", "title": None, "ruleset": None,
                    "players": [],
                    "finished": False, "end_reason": None, "actions": None, "round": None,
                    "phase": None, "bank": None,
                    "error": {"message": e.bare, "line": e.line, "column": e.column},
                    "findings": [], "standings": [], "companies": []}
        r = self.result
        d = r.to_dict()
        d["path"] = self.path
        d["status"] = self.status
        d["findings"] = [f.to_dict() for f in self.findings]
        d["error"] = None
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
    loc = path
    if f.line is not None:
        loc += f":{f.line}"
        if f.column is not None:
            loc += f":{f.column}"
    if f.action_id is not None:
        loc += f" (action {f.action_id})"
    return loc


def describe_end(r) -> str:
    if r.finished:
        reason = {"bank": "bank broken", "bankrupt": "bankruptcy"}.get(r.end_reason,
                                                                         r.end_reason or "")
        return f"game over: {reason}"
    return f"not finished (stopped in {r.round}, phase {r.phase})"


def ruleset_label(r) -> str:
    """The title, and the user's ruleset file when one played the game."""
    rs = r.ruleset or {}
    if not rs.get("path"):
        return str(r.title)
    return f"{r.title} (ruleset {rs['path']}, extends {rs['extends']})"


def text_findings(rep: FileReport, style: Style, *, quiet: bool = False) -> list[str]:
    lines = []
    first_error = None
    for f in rep.findings:
        sev = style.red("error") if f.severity == ERROR else style.yellow(f.severity)
        note = ""
        if f.consequential and first_error is not None and f.severity == ERROR:
            where = f"line {first_error.line}" if first_error.line else \
                f"action {first_error.action_id}"
            note = style.dim(f" (may follow from the finding at {where})")
        lines.append(f"{location(rep.path, f)}: {sev} [{f.rule}] {f.message}{note}")
        if f.text and not quiet:
            lines.append(style.dim(f"    {f.text}"))
        if f.severity == ERROR and first_error is None:
            first_error = f
    return lines


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


def render_text(reports: list[FileReport], *, color: bool = False, quiet: bool = False,
                standings: bool = True) -> str:
    style = Style(color)
    out: list[str] = []
    for rep in reports:
        if rep.error is not None:
            out.append(f"{style.red('error')}: {rep.error}")
            continue
        r = rep.result
        currency = r.currency
        errors, warnings = rep.count(ERROR), rep.count(WARNING)
        verdict = style.green("legal") if not errors else style.red(
            f"{errors} error{'s' if errors != 1 else ''}")
        if warnings:
            verdict += style.yellow(f", {warnings} warning{'s' if warnings != 1 else ''}")
        out.append(style.bold(f"{rep.path}") + f": {ruleset_label(r)}, {len(r.players)} players, "
                   f"{r.actions} actions, {describe_end(r)} — {verdict}")
        out.extend(text_findings(rep, style, quiet=quiet))
        if standings and not quiet:
            out.append("")
            out.append(text_standings(r, currency))
            if r.companies:
                out.append("")
                out.append(text_companies(r, currency))
            out.append("")
    if len(reports) > 1:
        out.append(summary_table(reports))
    return "\n".join(out).rstrip() + "\n"


def summary_counts(reports: list[FileReport]) -> dict:
    return {
        "files": len(reports),
        "legal": sum(1 for r in reports if r.status in ("legal", "warnings")),
        "with_findings": sum(1 for r in reports if r.status == "findings"),
        "unreadable": sum(1 for r in reports if r.status == "unreadable"),
    }


def summary_table(reports: list[FileReport]) -> str:
    from tabulate import tabulate
    c = summary_counts(reports)
    return tabulate([[c["files"], c["legal"], c["with_findings"], c["unreadable"]]],
                    headers=["files", "legal", "with findings", "unreadable"])


def render_score(rep: FileReport) -> str:
    r = rep.result
    currency = r.currency
    return (f"{rep.path}: {ruleset_label(r)}, {describe_end(r)}\n" + text_standings(r, currency)
            + "\n")


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
    total_time = sum(r.seconds for r in reports)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<testsuites name="railcheck" tests="{len(reports)}" failures="{failures}" '
           f'errors="{errors}" time="{total_time:.3f}">',
           f'  <testsuite name="railcheck" tests="{len(reports)}" failures="{failures}" '
           f'errors="{errors}" time="{total_time:.3f}">']
    for rep in reports:
        name = quoteattr(rep.path)
        title = rep.result.title if rep.result is not None else "unknown"
        out.append(f'    <testcase classname={quoteattr("railcheck." + str(title))} '
                   f'name={name} time="{rep.seconds:.3f}">')
        if rep.error is not None:
            out.append(f'      <error message={quoteattr(rep.error.bare)}>'
                       f'{escape(str(rep.error))}</error>')
        else:
            errs = [f for f in rep.findings if f.severity == ERROR]
            if errs:
                body = "\n".join(f"{location(rep.path, f)}: [{f.rule}] {f.message}" for f in errs)
                out.append(f'      <failure message={quoteattr(f"{len(errs)} error(s)")} '
                           f'type="railcheck.findings">{escape(body)}</failure>')
            warns = [f for f in rep.findings if f.severity != ERROR]
            if warns:
                body = "\n".join(f"{location(rep.path, f)}: [{f.rule}] {f.message}" for f in warns)
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


def render_github(reports: list[FileReport]) -> str:
    out = []
    for rep in reports:
        if rep.error is not None:
            e = rep.error
            props = f"file={_gh_escape(rep.path, True)}"
            if e.line:
                props += f",line={e.line}"
                if e.column:
                    props += f",col={e.column}"
            out.append(f"::error {props},title=railcheck::{_gh_escape(e.bare)}")
            continue
        for f in rep.findings:
            kind = "error" if f.severity == ERROR else ("warning" if f.severity == WARNING
                                                        else "notice")
            props = f"file={_gh_escape(rep.path, True)}"
            if f.line:
                props += f",line={f.line}"
                if f.column:
                    props += f",col={f.column}"
            title = _gh_escape(f"railcheck {f.rule}", True)
            msg = f.message if f.action_id is None else f"action {f.action_id}: {f.message}"
            out.append(f"::{kind} {props},title={title}::{_gh_escape(msg)}")
    c = summary_counts(reports)
    out.append(f"railcheck: {c['files']} files, {c['legal']} legal, "
               f"{c['with_findings']} with findings, {c['unreadable']} unreadable")
    return "\n".join(out) + "\n"
