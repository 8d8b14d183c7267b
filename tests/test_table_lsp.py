"""``railcheck lsp`` end to end, with a real LSP client (pytest-lsp starts the
server as its own process and speaks the protocol over its stdin/stdout):
open a record, see its finding as a diagnostic, change it (unsaved) and see
the diagnostic go, hover for the state at a line, complete a line with the
actions ``railcheck next`` offers."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest_lsp = pytest.importorskip("pytest_lsp")
from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

HERE = Path(__file__).resolve().parent
EXAMPLE = HERE.parent / "examples" / "1830" / "illegal" / "out-of-turn.18xx"
URI = EXAMPLE.as_uri()


@pytest_lsp.fixture(config=ClientServerConfig(
    server_command=[sys.executable, "-m", "railcheck", "lsp"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(),
        root_uri=(HERE.parent).as_uri()))
    yield
    await lsp_client.shutdown_session()


def _open(client, text: str):
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=URI, language_id="18xx", version=1,
                                             text=text)))


def _change(client, text: str, version: int):
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


@pytest.mark.asyncio
async def test_diagnostics_hover_completion(client: LanguageClient):
    text = EXAMPLE.read_text()
    _open(client, text)
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    diags = client.diagnostics[URI]
    # Bob's par on line 27 (0-based 26): out of turn, Alice's turn
    assert [(d.range.start.line, d.code, d.severity) for d in diags] == \
        [(26, "turn.order", types.DiagnosticSeverity.Error)]
    assert diags[0].message == "Bob acted out of turn: it is Alice's turn in SR 1"
    print("diagnostic:", diags[0].range.start.line + 1, diags[0].code, diags[0].message)

    # the last line changed in the editor (not saved): Alice's par instead
    fixed = text.replace("Bob par PRR 100", "Alice par PRR 100")
    _change(client, fixed, 2)
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(client.diagnostics[URI]) == []

    # hover on Carol's par (line 26): SR 1, Alice to act; from $800 each,
    # Alice paid 50 (CS), Bob 195 + 75 (CA, DH), Carol 225 + 110 + 20 (B&O, MH,
    # SV; B&O's par gives her its president's certificate with the private)
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=URI),
        position=types.Position(line=25, character=3)))
    value = hover.contents.value
    print("hover:", value)
    assert "**SR 1**, phase 2: Alice to act" in value
    assert "| Alice | $750 |\n| Bob | $530 |\n| Carol | $445 |" in value

    # completion on a new last line: what Bob may do after Alice's par
    _change(client, fixed + "\n", 3)
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    got = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=URI),
        position=types.Position(line=len(fixed.split("\n")), character=0)))
    labels = [i.label for i in got.items]
    print("completion:", labels[:12])
    legal = [i.label for i in got.items if i.detail.startswith("legal")]
    assert "Bob pass" in legal
    assert "Bob par NYC 67" in legal and "Bob par NYC 100" in legal
    assert "Bob buy PRR ipo" in legal                  # $100, Bob has $530
    assert "Bob buy B&O ipo" in legal                  # Carol's par at $100
    # six companies not started, each at the six par prices of 1830
    assert len([a for a in legal if " par " in a]) == 36
    assert "pass" in labels                            # the verbs follow
