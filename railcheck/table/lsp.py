"""``railcheck lsp``: a language server over standard input and output.

* diagnostics: the findings of the text as it is in the editor (unsaved),
  re-checked at each change from the nearest valid snapshot of the replay
  (``incremental.Checker``); a record that is not yet a complete game (no
  title or players yet, a line that does not parse) gets diagnostics too;
* hover on a line: the state after it (round, whose turn, the players' cash,
  the acting company's treasury, trains and price);
* completion: the verbs, and the actions ``railcheck next`` offers at the
  cursor's line (the state after the lines above it).

The checking is in :class:`Documents` (no LSP types), so that it is tested
and measured on its own; the server maps it to the protocol.  Needs the
optional ``pygls`` (``pip install 'railcheck[lsp]'``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Optional

from ..findings import ERROR, INFO, WARNING, Finding, InputError
from .incremental import Checker


@dataclass
class Diag:
    line: int               # 0-based
    column: int             # 0-based
    end: int                # 0-based end column on the line
    severity: str
    rule: str
    message: str


@dataclass
class DocState:
    path: str
    text: str = ""
    record: object = None
    checker: Checker = field(default_factory=Checker)
    diags: list = field(default_factory=list)
    seconds: float = 0.0


def _path_of(uri: str) -> str:
    if uri.startswith("file://"):
        from urllib.parse import unquote, urlparse
        return unquote(urlparse(uri).path)
    return uri


class Documents:
    """The open records, each with its checker and its last findings."""

    def __init__(self):
        self.docs: dict[str, DocState] = {}

    def update(self, uri: str, text: str) -> list[Diag]:
        doc = self.docs.get(uri)
        if doc is None:
            doc = self.docs[uri] = DocState(_path_of(uri))
        doc.text = text
        start = time.perf_counter()
        doc.diags = self._check(doc)
        doc.seconds = time.perf_counter() - start
        return doc.diags

    def close(self, uri: str) -> None:
        self.docs.pop(uri, None)

    # ------------------------------------------------------------------

    def _check(self, doc: DocState) -> list[Diag]:
        from ..loader import load_game
        lines = doc.text.split("\n")
        doc.record = None
        try:
            record, read = load_game(doc.path, text=doc.text)
        except InputError as exc:
            # not yet a game (no title, no players, a title railcheck lacks)
            line = (exc.line or 1) - 1
            return [self._diag(lines, line, (exc.column or 1) - 1, ERROR, "input",
                               exc.bare)]
        doc.record = record
        findings = list(read)
        if record.title and record.players:
            try:
                result = doc.checker.check(record)
                findings.extend(result.findings)
            except InputError as exc:
                line = (exc.line or 1) - 1
                findings.append(Finding(severity=ERROR, rule="input", message=exc.bare,
                                        line=line + 1, column=exc.column))
        last = max((a.line for a in record.actions if a.line is not None), default=1)
        out = []
        for f in findings:
            if f.line is None:
                if f.severity == INFO:
                    continue        # (what the title leaves unchecked: not a line's)
                line = last - 1     # the end of the game: at the record's last action
            else:
                line = f.line - 1
            out.append(self._diag(lines, line, (f.column or 1) - 1, f.severity, f.rule,
                                  f.message))
        return out

    @staticmethod
    def _diag(lines, line: int, column: int, severity: str, rule: str, message: str) -> Diag:
        line = max(0, min(line, len(lines) - 1))
        text = lines[line] if lines else ""
        end = len(text.rstrip())
        column = max(0, min(column, end))
        return Diag(line, column, max(end, column + 1), severity, rule, message)

    # ------------------------------------------------------------------
    # the state at a line

    def _count_through(self, doc: DocState, line: int, inclusive: bool) -> int:
        """How many of the record's actions are written up to 0-based ``line``."""
        n = 0
        for a in doc.record.actions:
            if a.line is None:
                n += 1
                continue
            if a.line - 1 < line or (inclusive and a.line - 1 == line):
                n += 1
            else:
                break
        return n

    def _kansai(self, uri: str, line: int, inclusive: bool):
        """(the title's own table module, record, rules, count) when the
        record is 1890's (replayed by its own checker: titles/kansai/table.py),
        else None."""
        doc = self.docs.get(uri)
        if doc is None or doc.record is None or not doc.record.title \
                or not doc.record.players:
            return None
        try:
            rules = doc.checker._rules_for(doc.record)
        except InputError:
            return None
        own = getattr(rules.title_class, "own_table", None)
        if own is None:
            return None
        return own(), doc.record, rules, self._count_through(doc, line, inclusive)

    def paused(self, uri: str, line: int, inclusive: bool):
        doc = self.docs.get(uri)
        if doc is None or doc.record is None or not doc.record.title \
                or not doc.record.players:
            return None
        count = self._count_through(doc, line, inclusive)
        try:
            rp = doc.checker.paused(doc.record, count)
        except InputError:
            return None
        g = getattr(rp, "game", None)
        if g is None or not hasattr(g, "corporations"):
            return None
        return rp

    def hover(self, uri: str, line: int) -> Optional[str]:
        """Markdown: the state after the line."""
        kansai = self._kansai(uri, line, inclusive=True)
        if kansai is not None:
            table, *where = kansai
            return table.kansai_hover(*where)
        rp = self.paused(uri, line, inclusive=True)
        if rp is None:
            return None
        from . import adapter
        g = rp.game
        sit = adapter.situation(g)
        doc = self.docs[uri]
        out = []
        if sit.finished:
            out.append(f"**game over** ({g.end_reason or ''})")
        else:
            turn = f"**{sit.round}**, phase {g.phase.name}"
            if sit.actor:
                turn += f": {sit.actor} to act" + (f" ({sit.step})" if sit.step else "")
            out.append(turn)
        out.append("")
        out.append("| player | cash |")
        out.append("|---|---|")
        for p in g.players:
            out.append(f"| {p.name} | {g.money(p.cash)} |")
        # the company the line is about, else the one to act
        action = next((a for a in doc.record.actions if a.line == line + 1), None)
        name = getattr(action, "actor", None)
        corp = g.corporations.get(name) if name else None
        if corp is None and sit.actor_kind == "company":
            corp = g.corporations.get(sit.actor)
        if corp is not None:
            price = g.money(corp.price.price) if corp.price is not None else "no price"
            trains = ", ".join(t.name for t in corp.trains) or "none"
            out.append("")
            out.append(f"**{corp.sym}**: treasury {g.money(corp.cash)}, trains {trains}, "
                       f"price {price}, president "
                       f"{corp.president.name if corp.president else 'nobody'}")
        return "\n".join(out)

    def completions(self, uri: str, line: int) -> list[tuple[str, str]]:
        """(label, detail): the actions ``next`` offers before the line, then
        the verbs."""
        out: list = []
        kansai = self._kansai(uri, line, inclusive=False)
        rp = self.paused(uri, line, inclusive=False) if kansai is None else None
        if kansai is not None:
            table, *where = kansai
            out.extend(table.completion_items(*where))
        if rp is not None:
            from .nextmove import next_moves
            nm = next_moves(rp, run_limit=0.3)
            for o in nm.legal:
                if o.kind == "par":
                    from ..notation import _write_action
                    from ..actions import Par
                    for p in o.info["prices"]:
                        a = Par(actor=o.action.actor, corporation=o.action.corporation, price=p)
                        out.append((_write_action(a), f"legal now: {o.kind}"))
                else:
                    out.append((o.text, f"legal now: {o.kind}"))
        from ..verbs import VERBS
        for v in VERBS:
            for example in getattr(v, "examples", ()) or ():
                out.append((example, f"verb {v.key}"))
        return out


def make_server():
    """The pygls server (imported here: ``pygls`` is needed by this command
    only)."""
    try:
        from lsprotocol import types
        from pygls.lsp.server import LanguageServer
    except ImportError:
        raise SystemExit("railcheck lsp needs pygls: pip install 'railcheck[lsp]'") from None
    server = LanguageServer("railcheck", "0.1.0")
    docs = Documents()
    server.railcheck_docs = docs
    severity = {ERROR: types.DiagnosticSeverity.Error,
                WARNING: types.DiagnosticSeverity.Warning,
                INFO: types.DiagnosticSeverity.Information}

    def publish(uri: str, text: str):
        diags = docs.update(uri, text)
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, diagnostics=[
                types.Diagnostic(
                    range=types.Range(start=types.Position(line=d.line, character=d.column),
                                      end=types.Position(line=d.line, character=d.end)),
                    message=d.message, severity=severity.get(d.severity),
                    code=d.rule, source="railcheck")
                for d in diags]))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls, params: types.DidOpenTextDocumentParams):
        publish(params.text_document.uri, params.text_document.text)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls, params: types.DidChangeTextDocumentParams):
        doc = ls.workspace.get_text_document(params.text_document.uri)
        publish(params.text_document.uri, doc.source)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls, params: types.DidSaveTextDocumentParams):
        doc = ls.workspace.get_text_document(params.text_document.uri)
        publish(params.text_document.uri, doc.source)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls, params: types.DidCloseTextDocumentParams):
        docs.close(params.text_document.uri)
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=params.text_document.uri, diagnostics=[]))

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls, params: types.HoverParams):
        text = docs.hover(params.text_document.uri, params.position.line)
        if text is None:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                        value=text))

    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=[" "]))
    def completion(ls, params: types.CompletionParams):
        line = params.position.line
        doc = ls.workspace.get_text_document(params.text_document.uri)
        lines = doc.source.split("\n")
        current = lines[line] if line < len(lines) else ""
        # replace what is typed on the line up to the cursor
        rng = types.Range(start=types.Position(line=line, character=0),
                          end=types.Position(line=line, character=params.position.character))
        typed = current[:params.position.character]
        items = []
        for k, (label, detail) in enumerate(docs.completions(params.text_document.uri, line)):
            items.append(types.CompletionItem(
                label=label, detail=detail, sort_text=f"{k:05d}",
                filter_text=label, kind=types.CompletionItemKind.Value
                if detail.startswith("legal") else types.CompletionItemKind.Keyword,
                text_edit=types.TextEdit(range=rng, new_text=label)))
        del typed
        return types.CompletionList(is_incomplete=False, items=items)

    return server


def main() -> None:
    make_server().start_io()
