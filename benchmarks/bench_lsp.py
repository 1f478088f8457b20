"""Language-server latency with a real client (issue 13): ``python benchmarks/bench_lsp.py [FILE ...]``.

Starts ``python -m cudalint lsp`` over stdio as an editor does (pygls's client, as tests/test_lsp.py drives it),
opens each file (the generated 516-line file of bench_check.py when none is given), then edits one line inside the
last kernel and saves, several times, and prints for each the seconds from the notification to the server's
``textDocument/publishDiagnostics``:

* open: from ``didOpen`` (clang front-end; the server's worker process starts and imports cudalint on the first
  open, the preamble's precompiled header is made on its second sighting, see cudalint/frontend/pch.py);
* edit: from ``didChange``, less the server's debounce (``cudalint.lsp.DEBOUNCE_S``: it waits that long for the
  typing to stop), so the number is the lint itself (tree-sitter front-end while typing);
* save: from ``didSave`` (clang front-end).

Targets (issue 13): open <= 0.6 s, edit <= 150 ms, save <= 300 ms on a 600-line file with headers.  Run it from
the project the files belong to (its ``.cudalint.toml`` applies).  The server uses the user's PCH folder
(``CUDALINT_PCH_DIR``); set it to an empty folder for a cold run.
"""

from __future__ import annotations

import asyncio
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_check import generated  # noqa: E402

from cudalint.lsp import DEBOUNCE_S  # noqa: E402

EDITS = 5


class Client(LanguageClient):
    def __init__(self) -> None:
        super().__init__("bench-lsp", "1")
        self.published: asyncio.Queue = asyncio.Queue()

        @self.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _published(params: lsp.PublishDiagnosticsParams) -> None:
            self.published.put_nowait((time.perf_counter(), params))


async def _wait(client: Client, uri: str, version: int) -> tuple[float, int]:
    """(time of the publish for ``uri`` at ``version`` or later, number of diagnostics)."""
    while True:
        t, p = await asyncio.wait_for(client.published.get(), timeout=120)
        if p.uri == uri and (p.version is None or p.version >= version):
            return t, len(p.diagnostics)


def _edit_point(text: str) -> lsp.Position:
    """Just after the last ``;`` from the last kernel's first line on (the end of a statement, where a space changes
    nothing the linter reports)."""
    lines = text.splitlines()
    last = max(i for i, s in enumerate(lines) if "__global__" in s)
    line = max(i for i in range(last, len(lines)) if ";" in lines[i])
    return lsp.Position(line=line, character=lines[line].rindex(";") + 1)


async def measure(path: Path) -> dict[str, list[float]]:
    client = Client()
    await client.start_io(sys.executable, "-m", "cudalint", "lsp")
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    client.initialized(lsp.InitializedParams())
    uri, text = path.resolve().as_uri(), path.read_text()
    out: dict[str, list[float]] = {"open": [], "edit": [], "save": []}
    try:
        for round_ in range(2):  # the first open starts the worker; a reopen shows the warm server
            t = time.perf_counter()
            client.text_document_did_open(lsp.DidOpenTextDocumentParams(
                text_document=lsp.TextDocumentItem(uri=uri, language_id="cuda-cpp", version=1, text=text)))
            done, n = await _wait(client, uri, 1)
            out["open"].append(done - t)
            at, version = _edit_point(text), 1
            for i in range(EDITS):
                version += 1
                t = time.perf_counter()
                client.text_document_did_change(lsp.DidChangeTextDocumentParams(
                    text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[lsp.TextDocumentContentChangePartial(
                        range=lsp.Range(start=at, end=at), text=" ")]))
                done, _ = await _wait(client, uri, version)
                out["edit"].append(done - t - DEBOUNCE_S)
                at = lsp.Position(line=at.line, character=at.character + 1)
                t = time.perf_counter()
                client.text_document_did_save(lsp.DidSaveTextDocumentParams(
                    text_document=lsp.TextDocumentIdentifier(uri=uri)))
                done, _ = await _wait(client, uri, version)
                out["save"].append(done - t)
            client.text_document_did_close(lsp.DidCloseTextDocumentParams(
                text_document=lsp.TextDocumentIdentifier(uri=uri)))
            await _wait(client, uri, 0)  # the close clears the document's diagnostics
        print(f"{path} ({text.count(chr(10))} lines, {n} diagnostics)")
        for what, xs in out.items():
            print(f"  {what:<5} " + " ".join(f"{x * 1000:.0f}" for x in xs)
                  + f" ms; median {statistics.median(xs) * 1000:.0f} ms")
    finally:
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
    return out


def main() -> None:
    print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, Python {platform.python_version()}; "
          f"edit latencies exclude the {DEBOUNCE_S * 1000:.0f} ms debounce")
    files = [Path(p) for p in sys.argv[1:]]
    with tempfile.TemporaryDirectory() as d:
        if not files:
            files = [Path(d) / "generated.cu"]
            files[0].write_text(generated(480) + "__global__ void edit(float* a, int i) { a[32 * i] = 0; }\n")
        for f in files:
            asyncio.run(measure(f))


if __name__ == "__main__":
    main()
