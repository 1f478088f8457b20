"""``cudalint lsp`` driven by a real LSP client (pytest-lsp) over stdio, the server in a subprocess.

Every wait is for the server's ``textDocument/publishDiagnostics`` notification, never a sleep."""

from __future__ import annotations

import sys

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from cudalint import lsp as server_lsp
from cudalint.diagnostics import Diagnostic, Severity

PUBLISH = lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS
RULES = "https://github.com/cudalint/cudalint/blob/main/rules/"

# the editor's buffer (the file on disk holds something else: the buffer is what is linted)
DOC = """\
__global__ void k(float* a) {
    a[32 * threadIdx.x] = 0.0f;
    if (threadIdx.x < 16) {
        __syncthreads();
    }
}

__global__ void transpose(float* out, const float* in) {
    __shared__ float tile[32][32];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
    __syncthreads();
    out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

void host(float* a, float* b) {
    k<<<4096, 32>>>(a);
    transpose<<<1, dim3(32, 32)>>>(b, a);
}
"""


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "cudalint", "lsp"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


def rng(l1, c1, l2, c2) -> lsp.Range:
    return lsp.Range(start=lsp.Position(line=l1, character=c1), end=lsp.Position(line=l2, character=c2))


async def open_doc(client: LanguageClient, uri: str, text: str, language: str = "cuda-cpp"):
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)))
    return await client.wait_for_notification(PUBLISH)


def change(client: LanguageClient, uri: str, version: int, r: lsp.Range, text: str) -> None:
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[lsp.TextDocumentContentChangePartial(range=r, text=text)]))


@pytest.fixture
def doc_uri(tmp_path):
    path = tmp_path / "kernels.cu"
    path.write_text("// on disk: nothing to report\n")
    return path.as_uri()


@pytest.mark.asyncio
async def test_open_publishes_codes_ranges_severities_and_links(client: LanguageClient, doc_uri):
    params = await open_doc(client, doc_uri, DOC)
    assert params.uri == doc_uri and params.version == 1
    got = {d.code: d for d in params.diagnostics}
    assert sorted(got) == ["CL101", "CL201", "CL301"]
    assert [(d.code, d.range, d.severity) for d in params.diagnostics] == [
        ("CL101", rng(1, 4, 1, 23), lsp.DiagnosticSeverity.Warning),
        ("CL301", rng(3, 8, 3, 23), lsp.DiagnosticSeverity.Error),
        ("CL201", rng(11, 42, 11, 72), lsp.DiagnosticSeverity.Warning),
    ]
    for code, d in got.items():
        assert d.source == "cudalint"
        assert d.code_description.href == RULES + code + ".md"
    assert got["CL101"].message.startswith("uncoalesced global store of `a`: lanes are 128 bytes apart")
    # the assumptions, each as related information at the diagnostic's own range
    (info,) = got["CL101"].related_information
    assert info.message == "blockDim = (32, 1, 1) from launch at " + server_lsp.document_path(doc_uri) + ":16"
    assert info.location.uri == doc_uri and info.location.range == got["CL101"].range
    assert [i.message for i in got["CL301"].related_information] == ["condition on line 3 is thread-dependent"]
    # the fix travels in ``data``, its edits in LSP positions
    assert got["CL201"].data["fix"]["message"] == "Pad `tile` to `tile[32][33]`"
    assert got["CL201"].data["fix"]["edits"] == [
        {"range": {"start": {"line": 8, "character": 30}, "end": {"line": 8, "character": 32}},
         "newText": "33", "oldText": "32"}]
    assert got["CL101"].data["fix"] is None


@pytest.mark.asyncio
async def test_change_fixing_the_stride_drops_cl101_after_the_debounce(client: LanguageClient, doc_uri):
    await open_doc(client, doc_uri, DOC)
    # two quick edits: the first leaves a half-typed line, the second fixes the stride; the debounce
    # cancels the first lint, so the one publish that follows is for version 3
    change(client, doc_uri, 2, rng(1, 6, 1, 11), "3")     # a[3threadIdx.x]
    change(client, doc_uri, 3, rng(1, 6, 1, 7), "")       # a[threadIdx.x]
    params = await client.wait_for_notification(PUBLISH)
    assert params.version == 3
    assert [d.code for d in params.diagnostics] == ["CL301", "CL201"]
    assert params.diagnostics[0].range == rng(3, 8, 3, 23)


@pytest.mark.asyncio
async def test_code_actions_padding_fix_and_suppression(client: LanguageClient, doc_uri):
    params = await open_doc(client, doc_uri, DOC)
    cl201 = next(d for d in params.diagnostics if d.code == "CL201")
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=doc_uri), range=cl201.range,
        context=lsp.CodeActionContext(diagnostics=[cl201])))
    titles = [a.title for a in actions]
    assert titles == ["Pad `tile` to `tile[32][33]`", "Suppress CL201 on this line"]
    pad, suppress = actions
    assert pad.kind == lsp.CodeActionKind.QuickFix and pad.is_preferred
    assert pad.diagnostics[0].code == "CL201"
    assert list(pad.edit.changes) == [doc_uri]
    assert list(pad.edit.changes[doc_uri]) == [lsp.TextEdit(range=rng(8, 30, 8, 32), new_text="33")]
    assert suppress.kind == lsp.CodeActionKind.QuickFix and not suppress.is_preferred
    line = DOC.splitlines()[11]
    assert list(suppress.edit.changes[doc_uri]) == [lsp.TextEdit(range=rng(11, len(line), 11, len(line)),
                                                                  new_text=" // cudalint: ignore[CL201]")]

    # applying the padding fix in the editor clears the conflict at the next lint
    change(client, doc_uri, 2, pad.edit.changes[doc_uri][0].range, "33")
    params = await client.wait_for_notification(PUBLISH)
    assert params.version == 2 and [d.code for d in params.diagnostics] == ["CL101", "CL301"]

    # a finding without a fix offers only the suppression, which the next lint honours
    cl101 = params.diagnostics[0]
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri=doc_uri), range=cl101.range,
        context=lsp.CodeActionContext(diagnostics=[cl101])))
    assert [a.title for a in actions] == ["Suppress CL101 on this line"]
    (edit,) = actions[0].edit.changes[doc_uri]
    assert edit.range == rng(1, 31, 1, 31) and edit.new_text == " // cudalint: ignore[CL101]"
    change(client, doc_uri, 3, edit.range, edit.new_text)
    params = await client.wait_for_notification(PUBLISH)
    assert params.version == 3 and [d.code for d in params.diagnostics] == ["CL301"]


@pytest.mark.asyncio
async def test_save_relints_close_clears_and_other_files_are_left_alone(client: LanguageClient, doc_uri, tmp_path):
    # a non-CUDA document is never linted: the first publish is for the CUDA one opened after it
    notes = (tmp_path / "notes.py").as_uri()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        text_document=lsp.TextDocumentItem(uri=notes, language_id="python", version=1, text="a = 1\n")))
    params = await open_doc(client, doc_uri, DOC, language="cpp")
    assert params.uri == doc_uri and len(params.diagnostics) == 3

    client.text_document_did_save(lsp.DidSaveTextDocumentParams(
        text_document=lsp.TextDocumentIdentifier(uri=doc_uri)))
    params = await client.wait_for_notification(PUBLISH)
    assert params.uri == doc_uri and len(params.diagnostics) == 3

    client.text_document_did_close(lsp.DidCloseTextDocumentParams(
        text_document=lsp.TextDocumentIdentifier(uri=doc_uri)))
    params = await client.wait_for_notification(PUBLISH)
    assert params.uri == doc_uri and list(params.diagnostics) == []
    assert list(client.diagnostics[doc_uri]) == []
    assert notes not in client.diagnostics


@pytest.mark.asyncio
async def test_an_unparsable_buffer_without_a_file_on_disk_is_answered(client: LanguageClient, tmp_path):
    uri = (tmp_path / "broken.cuh").as_uri()  # never written: only the buffer exists
    params = await open_doc(client, uri, "__global__ void k(float* a) { a[threadIdx.x] = ; }\n")
    assert params.uri == uri
    (d,) = params.diagnostics
    assert (d.code, d.source, d.range) == ("CL000", "cudalint", rng(0, 0, 0, 0))
    assert "expected expression" in d.message


# -- the pieces, without a client


def test_a_linter_failure_becomes_cl000(monkeypatch):
    import cudalint.runner as runner

    def boom(*_a, **_k):
        raise RuntimeError("kaboom")

    monkeypatch.setattr(runner, "lint_text", boom)
    (d,) = server_lsp.lint_document("/tmp/x.cu", "")
    assert d.code == "CL000" and "RuntimeError: kaboom" in d.message


def test_suppression_extends_an_existing_comment_and_skips_macro_lines():
    text = "x = a[i];  // cudalint: ignore[CL102]\ny = b[i];\n#define F(p) p[32 * threadIdx.x] \\\n"
    pos = server_lsp.Positions(text)
    e = server_lsp.suppression_edit(pos, 0, "CL101")
    assert e.range == rng(0, 36, 0, 36) and e.new_text == ",CL101"
    assert server_lsp.suppression_edit(pos, 0, "CL102") is None
    e = server_lsp.suppression_edit(pos, 1, "CL101")
    assert e.range == rng(1, 9, 1, 9) and e.new_text == " // cudalint: ignore[CL101]"
    assert server_lsp.suppression_edit(pos, 2, "CL101") is None


def test_byte_columns_become_utf16_characters():
    text = "// é😋\nfloat é = a[32 * i];\n"
    pos = server_lsp.Positions(text)  # UTF-16, the LSP default
    col = len("float é = ".encode()) + 1
    assert pos.position(2, col) == lsp.Position(line=1, character=len("float é = "))
    assert server_lsp.Positions(text, lsp.PositionEncodingKind.Utf8).position(2, col).character == col - 1
    d = Diagnostic(code="CL101", name="n", severity=Severity.INFO, path="p.cu", line=1, column=6, end_line=1,
                   end_column=10, message="m")
    out = server_lsp.to_lsp(d, pos, "file:///p.cu")
    assert out.range == rng(0, 4, 0, 6)  # "é" is 2 bytes, 1 UTF-16 unit; "😋" 4 bytes, 2 units
    assert out.severity == lsp.DiagnosticSeverity.Information and out.related_information is None


def test_which_documents_are_linted():
    assert server_lsp.is_cuda_document("file:///a/k.cu", "cuda-cpp")
    assert server_lsp.is_cuda_document("file:///a/k.cuh", "cpp")
    assert server_lsp.is_cuda_document("file:///a/k.cuda", None)
    assert server_lsp.is_cuda_document("untitled:Untitled-1", "cuda")
    assert not server_lsp.is_cuda_document("file:///a/k.cpp", "cpp")
    assert not server_lsp.is_cuda_document("file:///a/k.py", "python")
    assert not server_lsp.is_cuda_document("file:///a/k.cu", "python")


def test_a_buffer_that_crashes_libclang_does_not_kill_the_server():
    """3,000 nested parentheses overflow libclang's parser stack: the worker process dies, the document
    gets a CL000, and the server goes on linting the next buffer."""
    import asyncio

    from cudalint.lsp import CudalintServer

    async def go():
        server = CudalintServer(debounce=0)
        try:
            crash = "__global__ void k(float* a){ a[" + "(" * 3000 + "threadIdx.x" + ")" * 3000 + "] = 0; }\n"
            fut = server.executor.schedule(_lint_document_entry, args=("/tmp/crash.cu", crash))
            try:
                await asyncio.wrap_future(fut)
                crashed = False
            except Exception as e:  # ProcessExpired
                crashed = type(e).__name__ == "ProcessExpired"
            ok = await asyncio.wrap_future(server.executor.schedule(
                _lint_document_entry, args=("/tmp/ok.cu", "__global__ void k(float* a) { a[32 * threadIdx.x] = 0; }\n")))
            return crashed, [d.code for d in ok]
        finally:
            server.executor.stop()

    crashed, codes = asyncio.run(go())
    assert crashed and codes == ["CL101"]


def _lint_document_entry(path, text):
    from cudalint.lsp import lint_document
    return lint_document(path, text)


def test_typing_lints_use_tree_sitter_and_saves_use_clang(tmp_path):
    from cudalint.lsp import lint_document
    path = str(tmp_path / "k.cu")
    text = "__global__ void k(float* a) { a[32 * threadIdx.x] = 0.0f; }\n"
    (typed,) = lint_document(path, text, typing=True)
    (saved,) = lint_document(path, text)
    assert (typed.code, typed.line, typed.column, typed.metrics) == (saved.code, saved.line, saved.column,
                                                                     saved.metrics)
    assert any("tree-sitter" in a for a in typed.assumptions)
    assert not any("tree-sitter" in a for a in saved.assumptions)
    (tmp_path / ".cudalint.toml").write_text('frontend = "clang"\n')  # a configured front-end wins
    (typed,) = lint_document(path, text, typing=True)
    assert not any("tree-sitter" in a for a in typed.assumptions)


def test_a_huge_content_length_is_skipped_and_the_next_message_answered():
    """Issue 15: `Content-Length: 99999999999` made the server allocate it and die (MemoryError)."""
    import json
    import subprocess
    import sys

    def frame(obj) -> bytes:
        body = json.dumps(obj).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"capabilities": {}, "processId": None, "rootUri": None}}
    data = (b'Content-Length: 99999999999\r\n\r\n{"jsonrpc":"2.0"}\r\n' + frame(init)
            + frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
            + frame({"jsonrpc": "2.0", "method": "exit", "params": None}))
    r = subprocess.run([sys.executable, "-m", "cudalint", "lsp"], input=data, capture_output=True, timeout=60)
    # each frame's body runs from its blank line to the next frame's header
    bodies = [json.loads(chunk.split(b"Content-Length")[0]) for chunk in r.stdout.split(b"\r\n\r\n")[1:]]
    assert [b.get("id") for b in bodies if "id" in b] == [1, 2]
    assert bodies[[b.get("id") for b in bodies].index(1)]["result"]["serverInfo"]["name"] == "cudalint"
    assert b"MemoryError" not in r.stderr


def test_the_workers_warm_up_without_writing_anything(tmp_path, monkeypatch):
    # the server has each worker import the pipeline and lint an empty buffer once the client is initialised (the
    # first edit after an open went to a worker still starting: 0.8-1.1 s against 0.05-0.1 s, benchmarks/bench_lsp.py)
    import cudalint.runner as runner
    monkeypatch.chdir(tmp_path)
    calls = []
    real = runner.lint_text
    monkeypatch.setattr(runner, "lint_text", lambda path, text, opts: calls.append((path, text)) or real(path, text,
                                                                                                           opts))
    assert server_lsp.warm_up() is None
    assert calls == [(str(tmp_path / "cudalint-warm-up.cu"), "")]
    assert list(tmp_path.iterdir()) == []
