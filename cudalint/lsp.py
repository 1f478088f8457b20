"""``cudalint lsp``: a language server over stdio (pygls 2.x, lsprotocol types).

* Diagnostics are published on ``didOpen`` and ``didSave`` at once, and on ``didChange`` once the editor
  has been quiet for :data:`DEBOUNCE_S` (a newer change cancels the pending lint). The *editor's buffer*
  is linted (:func:`cudalint.runner.lint_text`), not the file on disk, with the configuration found by
  walking up from the file, like ``cudalint check``.
* Each diagnostic carries the rule code, a link to the rule page (``codeDescription``), ``source``
  ``"cudalint"``, the assumptions as ``relatedInformation`` and, in ``data``, the fix (edits in LSP
  positions).
* Code actions: the fix as a preferred quickfix, and "Suppress CLxxx on this line" for every finding.
* Linting runs in a worker process (pebble) so the server stays responsive; it never brings the server
  down: an exception, a time-out or a crash of libclang itself becomes a CL000 diagnostic for the document.

Positions: cudalint's lines and columns are 1-based and its columns count UTF-8 bytes (clang's); LSP's
are 0-based and count code units of the negotiated position encoding (UTF-16 unless the client offers
another), converted here against the text that was linted.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import re
import sys
from typing import Any, Optional, Sequence

from lsprotocol import types as lsp
from lsprotocol.converters import get_converter
from pebble import ProcessExpired, ProcessPool
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace.position_codec import PositionCodec

from . import __version__
from .diagnostics import Diagnostic, Severity, cl000, split_codes

log = logging.getLogger(__name__)

SOURCE = "cudalint"
RULE_URL = "https://github.com/cudalint/cudalint/blob/main/rules/{code}.md"
#: seconds of quiet after the last ``didChange`` before the buffer is linted
DEBOUNCE_S = 0.3
#: Seconds one lint of a buffer may take in a worker process before it is abandoned (CL000): an editor's
#: answer is worth little later, and `cudalint check` has the 300 s per-file limit for such a file
LINT_TIMEOUT_S = 30.0
#: worker processes linting buffers side by side (each holds one libclang parse at a time)
WORKERS = 2
CUDA_EXTENSIONS = (".cu", ".cuh", ".cuda")
#: language ids linted whatever the file name (an untitled buffer, a header with another extension)
CUDA_LANGUAGES = ("cuda-cpp", "cuda")
#: language ids linted when the file name has a CUDA extension
CPP_LANGUAGES = ("cpp", "c++")

_SEVERITY = {
    Severity.ERROR: lsp.DiagnosticSeverity.Error,
    Severity.WARNING: lsp.DiagnosticSeverity.Warning,
    Severity.INFO: lsp.DiagnosticSeverity.Information,
}
_CODE = re.compile(r"CL\d{3}\Z")
_CONVERTER = get_converter()
# an existing ``// cudalint: ignore[...]`` on the line, to extend rather than add a second one
_IGNORE_LIST = re.compile(r"//\s*cudalint:\s*ignore\[([A-Z0-9,\s]*)\]")


def is_cuda_document(uri: str, language_id: Optional[str]) -> bool:
    """Whether a document is linted: a ``.cu``/``.cuh``/``.cuda`` file (language ``cuda-cpp``, ``cuda``,
    ``cpp`` or none given), or any document whose language is ``cuda-cpp``/``cuda``."""
    has_ext = (to_fs_path(uri) or uri).lower().endswith(CUDA_EXTENSIONS)
    return language_id in CUDA_LANGUAGES or has_ext and (not language_id or language_id in CPP_LANGUAGES)


def document_path(uri: str) -> str:
    """A file system path for the front-end; an untitled buffer gets a ``.cu`` name in the working folder."""
    if (path := to_fs_path(uri)) and uri.startswith("file:"):
        return path
    name = re.sub(r"[^\w.-]+", "_", uri.split(":", 1)[-1]).strip("_") or "untitled"
    return os.path.join(os.getcwd(), name if name.endswith(CUDA_EXTENSIONS) else name + ".cu")


# -- positions


class Positions:
    """Converts cudalint's (1-based line, 1-based UTF-8 byte column) to LSP positions for one text."""

    def __init__(self, text: str, encoding: Optional[str] = None):
        self.lines = text.splitlines()
        self.codec = PositionCodec(encoding=encoding or lsp.PositionEncodingKind.Utf16)

    def position(self, line: int, column: int) -> lsp.Position:
        row = max(line - 1, 0)
        raw = self.lines[row].encode("utf-8")[:max(column - 1, 0)] if row < len(self.lines) else b""
        return lsp.Position(line=row, character=self.codec.client_num_units(raw.decode("utf-8", errors="ignore")))

    def range(self, line: int, column: int, end_line: int, end_column: int) -> lsp.Range:
        start, end = self.position(line, column), self.position(end_line, end_column)
        return lsp.Range(start=start, end=end if (end.line, end.character) >= (start.line, start.character) else start)

    def text_in(self, rng: lsp.Range) -> Optional[str]:
        """The text of a single-line range (None for a multi-line or out-of-range one)."""
        if rng.start.line != rng.end.line or rng.start.line >= len(self.lines):
            return None
        text = self.lines[rng.start.line]
        start, end = (self.codec.position_from_client_units([text], lsp.Position(line=0, character=p.character))
                      .character for p in (rng.start, rng.end))
        return text[start:end]


def to_lsp(d: Diagnostic, pos: Positions, uri: str) -> lsp.Diagnostic:
    """One cudalint finding as an LSP diagnostic."""
    rng = pos.range(d.line, d.column, d.end_line, d.end_column)
    data: dict[str, Any] = {"name": d.name, "kernel": d.kernel, "fix": None}
    if d.fix is not None:
        ranges = [(e, pos.range(e.line, e.column, e.end_line, e.end_column)) for e in d.fix.edits]
        edits = [{"range": _CONVERTER.unstructure(r), "newText": e.content, "oldText": pos.text_in(r)}
                 for e, r in ranges]
        data["fix"] = {"message": d.fix.message, "applicability": d.fix.applicability, "edits": edits}
    related = [lsp.DiagnosticRelatedInformation(location=lsp.Location(uri=uri, range=rng), message=a)
               for a in d.assumptions] or None
    return lsp.Diagnostic(
        range=rng, severity=_SEVERITY.get(d.severity, lsp.DiagnosticSeverity.Warning), code=d.code,
        code_description=lsp.CodeDescription(href=RULE_URL.format(code=d.code)), source=SOURCE,
        message=d.message, related_information=related, data=data)


# -- linting (runs in the worker process)


def lint_document(path: str, text: str, typing: bool = False) -> list[Diagnostic]:
    """Lint an editor buffer with the configuration that applies to ``path``. Never raises: a failure
    (a broken configuration file included) becomes a CL000 diagnostic.

    ``typing``: a lint after an edit. It uses the tree-sitter front-end (about 0.1 s for a 500-line buffer
    against about 0.4 s for clang; both give the same findings on every fixture, see
    tests/test_frontend_parity.py), unless the configuration names a front-end; opening and saving use
    the configured one (clang by default: exact types and headers)."""
    from .config import Overrides, Resolver
    from .runner import lint_text
    try:
        # a fresh resolver (configuration files may change while editing); the headers as `cudalint check` takes them
        opts = Resolver(Overrides(toolkit_fallback=True)).options_for(path)
        if typing and opts.frontend == "auto":
            opts.frontend = "tree-sitter"
        return lint_text(path, text, opts)
    except Exception as e:  # noqa: BLE001 - the server must survive anything
        log.exception("linting %s failed", path)
        return [cl000(path, f"cudalint failed on this document ({type(e).__name__}: {e})")]


def warm_up() -> None:
    """Run in each worker when the client is initialised, before its first document arrives: import the pipeline
    (sympy, libclang, the rules) and lint an empty buffer, which loads the prelude's precompiled header (made where
    missing), so that the first open is not also the worker's start (``benchmarks/bench_lsp.py``)."""
    from .runner import RunOptions, lint_text
    with contextlib.suppress(Exception):   # noqa: BLE001 - only a head start
        lint_text(os.path.join(os.getcwd(), "cudalint-warm-up.cu"), "", RunOptions())


# -- the server


class CudalintServer(LanguageServer):
    def __init__(self, debounce: float = DEBOUNCE_S) -> None:
        super().__init__("cudalint", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.debounce = debounce
        # worker processes: a buffer that crashes libclang (a native stack overflow) kills a worker, not the
        # server; two of them, so that one slow buffer (bounded by LINT_TIMEOUT_S) does not hold back the
        # diagnostics of every other document; a newer edit of a document cancels its running lint
        # ("spawn": a forked copy of a process running an asyncio loop and pygls's threads can deadlock)
        self.executor = ProcessPool(max_workers=WORKERS, context=multiprocessing.get_context("spawn"))
        #: uri -> its lint; a change, a save or a close replaces or removes it, and a late result is dropped
        self.pending: dict[str, asyncio.Task] = {}
        #: uri -> the LSP diagnostics last published for it
        self.published: dict[str, list[lsp.Diagnostic]] = {}

    def shutdown(self):
        for task in list(self.pending.values()):
            with contextlib.suppress(RuntimeError):  # the event loop is already closed
                task.cancel()
        self.executor.stop()
        super().shutdown()

    # scheduling
    def schedule(self, uri: str, delay: float, typing: bool = False) -> None:
        """Lint ``uri`` (if it is a CUDA document) after ``delay`` seconds, cancelling a lint still waiting for it."""
        if is_cuda_document(uri, self.workspace.get_text_document(uri).language_id):
            self._cancel(uri)
            self.pending[uri] = asyncio.get_running_loop().create_task(self._lint_later(uri, delay, typing))

    def _cancel(self, uri: str) -> None:
        if (task := self.pending.pop(uri, None)) is not None:
            task.cancel()

    async def _lint_later(self, uri: str, delay: float, typing: bool) -> None:
        try:
            if delay > 0:
                await asyncio.sleep(delay)
            try:
                doc = self.workspace.get_text_document(uri)
                text, version = doc.source, doc.version
            except Exception as e:  # noqa: BLE001
                log.warning("cannot read %s from the workspace: %s", uri, e)
                return
            path = document_path(uri)
            try:
                future = self.executor.schedule(lint_document, args=(path, text, typing), timeout=LINT_TIMEOUT_S)
                diags = await asyncio.wrap_future(future)
            except Exception as e:  # noqa: BLE001 - a crash, a time-out, or the pool shut down
                diags = [cl000(path, f"the front-end crashed on this document (worker exit code {e.exitcode})"
                               if isinstance(e, ProcessExpired) else
                               f"cudalint failed on this document ({type(e).__name__}: {e})")]
            if self.pending.get(uri) is not asyncio.current_task():
                return  # changed, saved again or closed meanwhile: a newer lint publishes
            pos = Positions(text, self.workspace.position_encoding)
            self.published[uri] = items = [to_lsp(d, pos, uri) for d in diags]
            self.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(uri=uri, diagnostics=items, version=version))
        except asyncio.CancelledError:
            pass
        finally:
            if self.pending.get(uri) is asyncio.current_task():
                del self.pending[uri]


def code_actions(uri: str, text: str, diagnostics: Sequence[lsp.Diagnostic],
                 encoding: Optional[str] = None) -> list[lsp.CodeAction]:
    """The quickfix (when the finding has a fix whose text is still in place) and the suppression action
    for each cudalint diagnostic, against the document's current ``text``."""
    pos = Positions(text, encoding)
    fixes: dict[tuple, lsp.CodeAction] = {}      # (message, edits) -> the first diagnostic's action
    suppress: dict[tuple, lsp.CodeAction] = {}   # (code, line) -> the first diagnostic's action
    for d in diagnostics:
        code = str(d.code) if d.code is not None else ""
        if d.source != SOURCE or not _CODE.match(code):
            continue
        if (fix := (d.data or {}).get("fix") if isinstance(d.data, dict) else None) and fix.get("edits"):
            ranges = [(e, _CONVERTER.structure(e["range"], lsp.Range)) for e in fix["edits"]]
            edits = [lsp.TextEdit(range=r, new_text=e["newText"]) for e, r in ranges]
            # the buffer changed under the finding (stale): the next lint offers it again
            if all(e.get("oldText") is None or pos.text_in(r) == e["oldText"] for e, r in ranges):
                fixes.setdefault((fix["message"], repr(edits)), lsp.CodeAction(
                    title=fix["message"], kind=lsp.CodeActionKind.QuickFix, diagnostics=[d], is_preferred=True,
                    edit=lsp.WorkspaceEdit(changes={uri: edits})))
        row = d.range.start.line
        if code != "CL000" and (code, row) not in suppress and (edit := suppression_edit(pos, row, code)) is not None:
            suppress[code, row] = lsp.CodeAction(title=f"Suppress {code} on this line",
                                                 kind=lsp.CodeActionKind.QuickFix, diagnostics=[d],
                                                 edit=lsp.WorkspaceEdit(changes={uri: [edit]}))
    return [*fixes.values(), *suppress.values()]


def suppression_edit(pos: Positions, row: int, code: str) -> Optional[lsp.TextEdit]:
    """``// cudalint: ignore[CODE]`` at the end of 0-based ``row``, or ``,CODE`` added to the
    ``ignore[...]`` comment already there. None for a line continued with a backslash (a macro)."""
    text = pos.lines[row] if row < len(pos.lines) else ""
    if m := _IGNORE_LIST.search(text):
        codes = split_codes(m.group(1))
        if code in codes:
            return None
        where = lsp.Position(line=row, character=pos.codec.client_num_units(text[:m.end(1)].rstrip()))  # after codes
        return lsp.TextEdit(range=lsp.Range(start=where, end=where), new_text=("," if codes else "") + code)
    if text.rstrip().endswith("\\"):
        return None
    end = lsp.Position(line=row, character=pos.codec.client_num_units(text.rstrip()))  # after the last non-blank
    sep = " " if text.strip() else ""
    return lsp.TextEdit(range=lsp.Range(start=end, end=end), new_text=f"{sep}// cudalint: ignore[{code}]")


def make_server(debounce: float = DEBOUNCE_S) -> CudalintServer:
    server = CudalintServer(debounce=debounce)

    @server.feature(lsp.INITIALIZED)
    def initialized(ls: CudalintServer, params: lsp.InitializedParams) -> None:
        for _ in range(WORKERS):
            ls.executor.schedule(warm_up, timeout=LINT_TIMEOUT_S)

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE, lsp.SaveOptions(include_text=False))
    async def did_open_or_save(ls: CudalintServer,
                               params: lsp.DidOpenTextDocumentParams | lsp.DidSaveTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: CudalintServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, ls.debounce, typing=True)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: CudalintServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        was = ls.published.pop(uri, None) is not None or uri in ls.pending   # a CUDA document, being linted
        ls._cancel(uri)
        if was:
            ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
    def code_action(ls: CudalintServer, params: lsp.CodeActionParams) -> Optional[list[lsp.CodeAction]]:
        uri = params.text_document.uri
        if params.context.only and lsp.CodeActionKind.QuickFix not in params.context.only:
            return None  # quickfix is a top-level kind: only "quickfix" itself asks for it
        try:
            text = ls.workspace.get_text_document(uri).source
        except Exception:  # noqa: BLE001
            return None
        # clients that drop ``data`` on the way back: take the published diagnostic of the same code and range
        published = ls.published.get(uri, [])
        diags = [next((p for p in published if p.code == d.code and p.range == d.range), d)
                 if d.source == SOURCE and not d.data else d for d in params.context.diagnostics]
        return code_actions(uri, text, diags, ls.workspace.position_encoding) or None

    return server


#: the largest LSP message body the server reads, in bytes: a header claiming more (``Content-Length:
#: 99999999999``) would be allocated whole and end the server with a MemoryError
MAX_MESSAGE_BYTES = 64 << 20


class BoundedStdin:
    """stdin as pygls reads it, bounded: a header line is at most 1 MiB, and a body longer than
    :data:`MAX_MESSAGE_BYTES` is not read: pygls gets a byte that is not JSON, logs it and goes on reading
    headers, so the client's next well-framed message is answered."""

    def __init__(self, raw):
        self.raw = raw

    def readline(self) -> bytes:
        return self.raw.readline(1 << 20)

    def read(self, n: int = -1) -> bytes:
        if n is None or n < 0 or n > MAX_MESSAGE_BYTES:
            log.warning("a message of %s bytes is over the %d-byte limit: not read", n, MAX_MESSAGE_BYTES)
            return b"\0"
        return self.raw.read(n)


def serve() -> int:
    """Run the language server on stdin/stdout until the client says exit."""
    logging.basicConfig(level=logging.WARNING, format="cudalint lsp: %(levelname)s %(message)s")
    make_server().start_io(stdin=BoundedStdin(sys.stdin.buffer), stdout=sys.stdout.buffer)
    return 0
