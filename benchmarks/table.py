"""Benchmarks of issue 28 (at the table), run by ``benchmarks/run.py`` (or
alone: ``python benchmarks/table.py``):

* ``railcheck next`` on the longest game of the corpus, whole process (CLI,
  start-up included), best of 5: at the end of the record and at a late
  point of it where a company is to act (``--at``); goal under 0.3 s;
* the language server (``railcheck lsp``, started as its own process and
  driven by pygls's LSP client, the time from the change sent to the
  diagnostics received): a 600-line record (the first 600 lines of the
  longest game as notation), 20 edits in its last 20 lines (median; goal
  under 100 ms) and an edit at its top (goal under 300 ms).
"""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def longest_game(corpus: Path) -> Path:
    from railcheck.loader import load_game
    best, n = None, -1
    for path in sorted(corpus.rglob("*.json")):
        if path.name.endswith(".trace.json"):
            continue
        try:
            record, _ = load_game(str(path))
        except Exception:
            continue
        if record.title in ("1830", "1860", "18Ireland") and len(record.actions) > n:
            best, n = path, len(record.actions)
    return best


def late_point(path: Path) -> str:
    """An action id near the end where a company is to act (an operating
    round under way)."""
    from railcheck.loader import load_game
    from railcheck.table.commands import paused_at
    record, _ = load_game(str(path))
    for a in reversed(record.actions[:-10]):
        if a.action_id is None:
            continue
        _, _, rp, _ = paused_at(str(path), str(a.action_id))
        g = rp.game
        if not g.finished and g.round.kind == "OR" and getattr(g.round, "turn", None):
            return str(a.action_id)
    return str(record.actions[-1].action_id)


def _env() -> dict:
    """The environment of the measured commands: Python may keep the
    modules' bytecode (as an installed railcheck does), whatever this shell
    says."""
    import os
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def best_of(n, argv):
    """Best wall time of ``n`` runs (after one to warm the caches), and the
    best CPU time (user + system) of the process (less sensitive to other
    work on the machine)."""
    import resource
    env = _env()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                   env=env)
    best, best_cpu = float("inf"), float("inf")
    for _ in range(n):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                       env=env)
        best = min(best, time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best_cpu = min(best_cpu, after.ru_utime - before.ru_utime
                       + after.ru_stime - before.ru_stime)
    return best, best_cpu


def lines_600(path: Path) -> list[str]:
    """The first 600 lines of the game as notation (an import of the export)."""
    out = subprocess.run([sys.executable, "-m", "railcheck", "import", str(path)],
                         capture_output=True, text=True, check=True).stdout
    return out.split("\n")[:600]


async def _lsp_times(text_lines: list[str], edits: int = 20):
    from lsprotocol import types
    from pygls.lsp.client import LanguageClient

    client = LanguageClient("bench", "1")
    got: asyncio.Queue = asyncio.Queue()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(ls, params):
        got.put_nowait((time.perf_counter(), params))

    await client.start_io(sys.executable, "-m", "railcheck", "lsp", env=_env())
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities()))
    client.initialized(types.InitializedParams())
    uri = "file:///bench/game.18xx"
    text = "\n".join(text_lines)
    t = time.perf_counter()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="18xx", version=1, text=text)))
    done, params = await got.get()
    open_s = done - t
    n_diags = len(params.diagnostics)
    version = 1

    async def change(new_text):
        nonlocal version
        version += 1
        start = time.perf_counter()
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=new_text)]))
        done, params = await got.get()
        return done - start, params

    # edits in the last 20 lines: a comment typed at the end of a line (the
    # record's actions after it unchanged), one line at a time
    end_times = []
    lines = list(text_lines)
    actions = [k for k in range(len(lines) - 20, len(lines)) if lines[k].strip()
               and not lines[k].startswith(("OR ", "SR ", "auction"))]
    for k in range(edits):
        at = actions[k % len(actions)]
        lines = list(text_lines)
        lines[at] = lines[at] + f"  # note {k}"
        seconds, _ = await change("\n".join(lines))
        end_times.append(seconds)
    # an edit at the top: a line inserted after the header (every action moves)
    top = list(text_lines)
    first = next((k for k, line in enumerate(top) if line.strip() == ""), 4)
    top.insert(first, "# a remark")
    top_s, _ = await change("\n".join(top))
    # and back: the original text again
    back_s, _ = await change(text)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return open_s, n_diags, end_times, top_s, back_s


def in_process(text_lines: list[str], edits: int = 20):
    """The same edits given to the server's checking (``lsp.Documents``) in
    this process: CPU time (less sensitive to other work on the machine
    than the round trip's wall time)."""
    from railcheck.table.lsp import Documents
    docs = Documents()
    uri = "file:///bench/game.18xx"
    docs.update(uri, "\n".join(text_lines))
    lines = list(text_lines)
    actions = [k for k in range(len(lines) - 20, len(lines)) if lines[k].strip()
               and not lines[k].startswith(("OR ", "SR ", "auction"))]
    times = []
    for k in range(edits):
        at = actions[k % len(actions)]
        lines = list(text_lines)
        lines[at] = lines[at] + f"  # note {k}"
        t = time.process_time()
        docs.update(uri, "\n".join(lines))
        times.append(time.process_time() - t)
    top = list(text_lines)
    top.insert(next((k for k, line in enumerate(top) if line.strip() == ""), 4), "# a remark")
    t = time.process_time()
    docs.update(uri, "\n".join(top))
    return times, time.process_time() - t


def run(corpus: Path) -> list[tuple]:
    """Rows (measure, result, goal, met)."""
    rows = []
    path = longest_game(corpus)
    if path is None:
        return rows
    from railcheck.loader import load_game
    record, _ = load_game(str(path))
    cli = [sys.executable, "-m", "railcheck"]
    own = Path(sys.executable).parent / "railcheck"
    if own.is_file():
        cli = [str(own)]
    end_s, end_cpu = best_of(5, cli + ["next", str(path)])
    rows.append((f"`railcheck next` on the longest game ({path.name}, {len(record.actions)} "
                 f"actions), at its end, CLI, best of 5: wall", end_s, "< 0.3 s", end_s < 0.3))
    rows.append(("the same, CPU time of the process", end_cpu, "< 0.3 s", end_cpu < 0.3))
    at = late_point(path)
    late_s, late_cpu = best_of(5, cli + ["next", str(path), "--at", at])
    rows.append((f"`railcheck next {path.name} --at {at}` (a company's turn late in the game), "
                 f"CLI, best of 5: wall", late_s, "< 0.3 s", late_s < 0.3))
    rows.append(("the same, CPU time of the process", late_cpu, "< 0.3 s", late_cpu < 0.3))
    try:
        import pygls  # noqa: F401
    except ImportError:
        rows.append(("language server: pygls is not installed", None, "", False))
        return rows
    lines = lines_600(path)
    open_s, n, end_times, top_s, back_s = asyncio.run(_lsp_times(lines))
    med = statistics.median(end_times)
    rows.append((f"language server: open a 600-line record ({n} diagnostics)", open_s, "", True))
    rows.append(("language server: diagnostics after an edit in the last 20 lines, median of "
                 f"{len(end_times)} (max {max(end_times) * 1000:.0f} ms)", med, "< 100 ms",
                 med < 0.1))
    rows.append(("language server: diagnostics after an edit at the top (every line moves)",
                 top_s, "< 300 ms", top_s < 0.3))
    cpu, top_cpu = in_process(lines)
    med = statistics.median(cpu)
    rows.append(("the server's checking in process, CPU time: an edit in the last 20 lines, "
                 f"median of {len(cpu)}", med, "< 100 ms", med < 0.1))
    rows.append(("the same: an edit at the top", top_cpu, "< 300 ms", top_cpu < 0.3))
    return rows


def print_rows(rows) -> None:
    print("| measure (at the table, issue 28) | result | goal | met |")
    print("|---|---:|---|---|")
    for what, secs, goal, ok in rows:
        shown = "—" if secs is None else (f"{secs * 1000:.0f} ms" if secs < 1 else f"{secs:.2f} s")
        print(f"| {what} | {shown} | {goal} | {'yes' if ok else 'no'} |")


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO.parent / "shared" / "corpus" / \
        "18xx.games"
    print_rows(run(corpus))
