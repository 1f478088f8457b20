"""CL601 pageable-memcpy-async: an async copy from or to pageable host memory is staged and blocks the host.

Hardware fact (CUDA C++ Programming Guide, "Asynchronous Concurrent Execution" and the runtime API's
"API synchronization behavior"): a cudaMemcpyAsync whose host side is pageable memory (malloc, new,
std::vector, stack arrays) is staged through a pinned driver buffer and returns only once the source has been
copied, so it cannot overlap kernels or other copies.  Measured on an H200 (GROUND_TRUTH.md, fixtures/host):
the call blocks the host about the copy's size at 5-10 GB/s (1 MiB 0.11 ms, 64 MiB 11 ms, 256 MiB 36-37 ms);
from cudaMallocHost memory it returns in 0.01-0.05 ms.  A copy whose size folds to a constant is costed (info
when below that 0.05 ms), and so is one the host waits for at once (:func:`waited_at`).  The provenance of
the pointers comes from :mod:`cudalint.analysis.host`.
"""

from __future__ import annotations

import os
import re
from typing import Optional

from ..analysis.host import MALLOCS
from ..ir import nodes as ir
from ..ir.types import TypeKind
from ..model import AsyncCopy, Span
from . import AnalysisContext, Findings, Rule, Severity, TranslationUnitModel

_ALLOCATED = MALLOCS | {"posix_memalign", "new", "new[]"}


def _where(span: Optional[Span]) -> str:
    return f"{os.path.basename(span.path)}:{span.line}" if span is not None else "an unknown place"


def _cost(copy: AsyncCopy, roles: list) -> tuple[str, bool]:
    """The measured host cost for the message, and whether it is small (below a pinned call's 0.05 ms).  A copy
    whose size does not fold moves at most the declared size of its host memory (a stack array's ``sizeof``)."""
    measured = "H200, measured: 1 MiB 0.11 ms, 64 MiB 11 ms, 256 MiB 36-37 ms from pageable memory"
    bound = min((b for r in roles if (b := copy.pointers[r].bytes) is not None), default=None)
    n = copy.bytes if copy.bytes is not None else bound
    if n is None:
        return f"{measured}, vs 0.01-0.05 ms from cudaMallocHost memory", False
    lo, hi = n / 1e7, n / 5e6   # ms at 10 and 5 GB/s
    est = f"{lo:.2g}-{hi:.2g} ms" if hi >= 0.01 else "under 0.01 ms"
    size = next(f"{n / u:g} {name}" for u, name in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB"),
                                                    (1, "B")) if n >= u or u == 1)
    size = f"these {size}" if copy.bytes is not None else \
        f"at most {size}, the size of `{next(copy.pointers[r].name for r in roles if copy.pointers[r].bytes == n)}`"
    return (f"{measured}, i.e. 5-10 GB/s: {est} for {size}, vs 0.01-0.05 ms for a "
            f"cudaMallocHost call"), hi < 0.05


#: calls that queue more work on the copy's stream without the host waiting on the GPU
_QUEUED = ("MemcpyAsync", "Memcpy2DAsync", "Memcpy3DAsync", "MemsetAsync", "FreeAsync", "EventRecord", "LaunchHostFunc")
#: calls that block the host until the device's earlier work is done (a blocking copy on the legacy default stream
#: waits for every blocking stream's work; cudaFree synchronizes the device): CUDA Runtime API, "API
#: synchronization behavior" and "Implicit Synchronization" in the Programming Guide
_BLOCKING = ("Memcpy", "Memcpy2D", "Memcpy3D", "MemcpyToSymbol", "MemcpyFromSymbol", "Free", "FreeHost", "DeviceReset")
#: host calls that take microseconds (a line of output): nothing worth overlapping with a copy
_BRIEF = ("printf", "fprintf", "puts", "fputs", "fflush")


def _path(s: Optional[ir.Stmt], line: int, out: list) -> bool:
    """Fill ``out`` with the (block, index) pairs from ``s`` down to the run-once statement holding ``line``: an
    expression, a declaration, or a ``do { .. } while (0)`` macro body."""
    for b in (n for n in ir.children(s) if isinstance(n, ir.Stmt)) if s is not None else ():
        if isinstance(s, ir.Block):
            out.append((s, s.body.index(b)))
            once = isinstance(b, (ir.ExprStmt, ir.Decl)) or isinstance(b, ir.Loop) and _once(b)
            if once and b.span.line <= line <= b.span.end_line or _path(b, line, out):
                return True
            out.pop()
        elif _path(b, line, out):
            return True
    return False


#: the libraries' calls that bind a handle to a stream: cublasSetStream(_v2), cusolverDnSetStream, cusparseSetStream,
#: cufftSetStream, curandSetStream, ... (each library's API reference, "...SetStream")
_SET_STREAM = re.compile(r"[a-z]+[A-Za-z]*SetStream(?:_v2)?")


def strip(text: Optional[str]) -> str:
    """An argument's text without spaces and a leading ``&`` or ``*``."""
    return re.sub(r"\s+", "", text or "").lstrip("&*")


def _effective(call: ir.Call) -> tuple[str, list[str]]:
    """A call's name and argument texts; for a macro the front-end left unexpanded around one call (its header
    missing: ``CUDA_CHECK(cudaMemcpyAsync(d, h, n, kind, stream))``, ``CUBLAS_CHECK(cublasGemmEx(cublasH, ...))``),
    the inner call's, read from the argument's text."""
    text = call.args[0].text if len(call.args) == 1 else None
    m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*\((.*)\)\s*", text or "", re.S) if call.name.isupper() else None
    return (m.group(1), _split(m.group(2))) if m else (call.name, [a.text or "" for a in call.args])


def _split(text: str) -> list[str]:
    """Top-level comma-separated parts of an argument list's text."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    return [p.strip() for p in parts + [cur] if p.strip()]


def _stream(text: Optional[str]) -> str:
    """A stream argument's text without spaces (a launch's is written token by token: ``context_ -> GetStream ( )``),
    the default stream's spellings as ``0``."""
    text = re.sub(r"\s+", "", text or "")
    return "0" if not text or text in ("NULL", "__null", "nullptr", "cudaStreamLegacy", "(cudaStream_t)0") else text


#: calls that end the program: an error exit (C++ [support.start.term])
_EXITS = ("exit", "abort", "_exit", "_Exit", "quick_exit", "std::exit", "std::abort")


def _error_check(st: ir.Stmt) -> bool:
    """``if (result != cudaSuccess) { ...; return 1; }`` (or ``exit(1)``, ``abort()``): an error exit that does not
    touch the GPU."""
    return isinstance(st, ir.If) and st.else_ is None and not any(
        isinstance(c, ir.Call) and c.name.startswith(("cuda", "hip")) and "Error" not in c.name
        for c in ir.walk(st.cond)) and any(
        isinstance(n, ir.Return) or isinstance(n, ir.Call) and n.name in _EXITS for n in ir.walk(st.then))


#: work a call queues on a stream named among its arguments (CUDA Runtime API: kernel launches, graph launches)
_QUEUED_WORK = _QUEUED + ("LaunchKernel", "LaunchKernelExC", "LaunchCooperativeKernel", "GraphLaunch")
_WAIT, _QUEUE, _WORK, _BOOK = "wait", "queue", "work", "bookkeeping"


def _once(loop: ir.Loop) -> bool:
    """``do { .. } while (0)``: a macro's body, run once."""
    return loop.kind == ir.LoopKind.DO and isinstance(loop.cond, ir.IntLit) and loop.cond.value == 0


def _host_work(call: ir.Call, depth: int = 3) -> bool:
    """Whether a call of a host function defined in this translation unit does work worth overlapping: its body
    has a loop or a kernel launch, or calls such a function.  An error-check wrapper (`check(cudaMalloc(..), ..)`,
    an argument of it a call) and a helper that only calls the runtime and prints (cuda-samples'
    `__getLastCudaError`) are not."""
    fn = call.func
    if fn is None or fn.body is None or depth == 0 or any(isinstance(c, ir.Call)
                                                          for a in call.args for c in ir.walk(a)):
        return False
    return any(isinstance(n, ir.Loop) and not _once(n) or isinstance(n, ir.Launch)
               or isinstance(n, ir.Call) and _host_work(n, depth - 1) for n in ir.walk(fn.body))


def _classify(st: ir.Stmt, stream: str, bound: set, elsewhere: set, in_loop: bool = False,
              joined: frozenset = frozenset(), events: frozenset = frozenset()) -> str:
    """What a statement after a pageable copy does, for :func:`waited_at`:

    - ``wait``: the host waits for the GPU (a synchronize of the copy's stream or the device, a blocking call);
    - ``work``: something could have run while the staged copy held the host: a kernel or async call queued on
      another stream, a call through a library handle bound to another stream, a call of a host function
      defined in this file (the user's own host code), a loop doing host computation;
    - ``queue``: neither: work queued on the copy's stream, an error check, a line of output, runtime and
      library bookkeeping (``cudaMalloc``, ``cudaEventCreate``, ``cublasCreate``, a workspace query), a
      statement that calls nothing.

    ``joined``: the streams an event made wait for the copy (:func:`_join`), whose work and synchronizes count as
    the copy's stream's; ``events``: the events recorded on those streams after the copy, whose
    ``cudaEventSynchronize`` is a wait.
    """
    streams = {stream, *joined}
    if _error_check(st):
        return _QUEUE
    if isinstance(st, ir.Loop):
        kinds = {_classify(b, stream, bound, elsewhere, in_loop or not _once(st), joined, events)
                 for b in (st.body.body if isinstance(st.body, ir.Block) else [st.body])}
        return _WAIT if _WAIT in kinds else _WORK if _WORK in kinds else _QUEUE
    kinds = set()
    for n in ir.walk(st):
        if isinstance(n, ir.Launch):
            kinds.add(_QUEUE if _stream(n.stream.text if n.stream is not None else None) in streams else _WORK)
        elif isinstance(n, ir.Call):
            name, args = _effective(n)
            if name in _BRIEF:
                continue
            texts = {strip(_stream(a)) for a in args}
            if name.startswith(("cuda", "hip")):
                api, args = name[4:] if name.startswith("cuda") else name[3:], [_stream(a) for a in args]
                if api == "DeviceSynchronize" or api == "StreamSynchronize" and (args or ["0"])[0] in streams \
                        or api == "EventSynchronize" and strip((args or [""])[0]) in events or api in _BLOCKING:
                    return _WAIT
                # queued on another stream or on this one, else runtime bookkeeping
                kinds.add((_QUEUE if not streams.isdisjoint(args) or stream == "0" else _WORK)
                          if api.endswith(_QUEUED_WORK) else _BOOK)
            elif stream != "0" and not (streams | bound).isdisjoint(texts):
                kinds.add(_QUEUE)  # a library queueing on the copy's stream (`cudlaSubmitTask`, a bound cuBLAS handle)
            else:  # the user's own host code, a handle bound elsewhere; else a library's bookkeeping
                kinds.add(_WORK if not elsewhere.isdisjoint(texts) or name == n.name and _host_work(n) else _BOOK)
    if _QUEUE not in kinds and in_loop and not isinstance(st, (ir.Decl, ir.Loop)) and not all(
            a.target.type.kind == TypeKind.POINTER for a in ir.walk(st) if isinstance(a, ir.Assign)):
        return _WORK  # host computation repeated in a loop (filling a table of buffer addresses is bookkeeping)
    return _WORK if _WORK in kinds else _QUEUE


def _join(st: ir.Stmt, joined: set, events: set) -> None:
    """Follow the events of ``st`` in source order: ``cudaEventRecord(ev, s)`` on the copy's stream or a stream
    already joined adds ``ev`` to ``events`` (it completes after the copy); ``cudaStreamWaitEvent(s2, ev, ..)`` of
    such an event adds ``s2`` to ``joined`` (CUDA Runtime API, cudaStreamWaitEvent: "all future work submitted to
    stream wait for all work captured in event"); recording an event again on another stream takes it out.
    ``joined`` holds the copy's own stream on entry."""
    for n in (n for n in ir.walk(st) if isinstance(n, ir.Call)):
        name, args = _effective(n)
        api = name[4:] if name.startswith("cuda") else name[3:] if name.startswith("hip") else ""
        if api in ("EventRecord", "EventRecordWithFlags") and args:
            if _stream(args[1] if len(args) > 1 else None) in joined:
                events.add(strip(args[0]))
            else:
                events.discard(strip(args[0]))
        elif api == "StreamWaitEvent" and len(args) >= 2 and strip(args[1]) in events:
            joined.add(_stream(args[0]))


#: calls that release host memory
_FREES = ("free", "std::free", "cudaFreeHost")


def _refs(e, name: str) -> bool:
    return any(isinstance(n, ir.Ref) and n.var.name == name for n in ir.walk(e))


def needs_done(st: ir.Stmt, copy: AsyncCopy, roles: list) -> Optional[str]:
    """What ``st`` does that needs the pageable copy finished, so that a pinned buffer would need the host to wait
    at the same place: it reads the memory a device-to-host copy wrote (any use of the variable outside a CUDA call:
    FasterTransformer's T5 plugin hands the values on at once), or frees or overwrites the memory a host-to-device
    copy read (``delete[] arr`` after a staged copy is safe only because the copy is staged: the Runtime API's "API
    synchronization behavior", pageable source).  None when it does neither."""
    for r in roles:
        name = _root(copy, r)
        if not name.isidentifier() or not _refs(st, name):
            continue
        outside = [n for n in ir.walk(st) if isinstance(n, ir.Ref) and n.var.name == name
                   and not any(isinstance(c, ir.Call) and c.name.startswith(("cuda", "hip")) and
                               any(n is m for a in c.args for m in ir.walk(a)) for c in ir.walk(st))]
        if r == "dst" and outside:
            return f"reads `{name}`"
        if r == "src" and any(isinstance(n, ir.Opaque) and n.what == "delete" and _refs(n, name)
                              or isinstance(n, ir.Call) and n.name in _FREES and n.args and _refs(n.args[0], name)
                              for n in ir.walk(st)):
            return f"frees `{name}`"
        if r == "src" and any(isinstance(n, ir.Assign) and _refs(n.target, name) for n in ir.walk(st)):
            return f"overwrites `{name}`"
    return None


#: the host memory whose life ends with the block that declares it
_SCOPED = ("stack array", "std::vector", "std::array", "local variable")


def _scope_ends(block: ir.Block, at: int, copy: AsyncCopy, roles) -> Optional[tuple[Span, str]]:
    """Where the block holding the copy (its statement ``at``) ends, when it declares the host memory a
    host-to-device copy reads (a stack array, a local ``std::vector``; not a ``static`` one): the memory dies there,
    which a staged copy allows and a pinned one would not without a synchronize first (TNN's layers copy a local
    ``dims`` vector, whose scope ends two lines later)."""
    for r in roles:
        p = copy.pointers[r]
        if r == "src" and p.how in _SCOPED and p.name and any(
                isinstance(st, ir.Decl) and st.var.name == p.name and st.var.storage == ir.Storage.LOCAL
                for st in block.body[:at]):
            end = block.span
            return Span(end.path, end.end_line, end.end_column, end.end_line, end.end_column), \
                f"destroys `{p.name}` (its scope ends)"
    return None


def waited_at(unit: Optional[ir.TranslationUnit], copy: AsyncCopy,
              roles: tuple = ()) -> Optional[tuple[Span, Optional[str]]]:
    """Where the host waits for the copy right after issuing it: the statements that follow it (in its block, then
    past the end of an enclosing loop over more such copies) reach a synchronize of its stream or of the device,
    or a blocking call (:data:`_BLOCKING`: ``cudaMemcpy``, ``cudaFree``), with nothing on the way that could have
    run while the staged copy held the host (:func:`_classify`: work on other streams, the user's own host
    functions, host loops), past the end of an ``if`` branch too.  Nothing could overlap the copy then, so the
    staging costs only its slower bandwidth.  So is a statement that needs the copy finished
    (:func:`needs_done`, for the pageable ``roles``): a pinned buffer would need a wait there.  Library handles count
    as bound to the stream their last ``...SetStream`` before the copy names (``cublasSetStream(cublasH, stream)``:
    cuBLAS, cuSOLVER, cuSPARSE, cuFFT, cuRAND).  ``(where, what the statement does)``: the second None for a
    wait."""
    stream = _stream(copy.stream)
    for f in (f for f in (unit.functions if unit else ()) if f.name == copy.function):
        # a copy in a lambda (`auto reset = [&](cudaStream_t s) { cudaMemcpyAsync(..); .. }`) is followed by
        # the lambda's own statements: it runs where it is called
        root = min((n.body for n in ir.walk(f.body) if isinstance(n, ir.Lambda) and n.body is not None
                    and n.body.span.line <= copy.span.line <= n.body.span.end_line),
                   key=lambda b: b.span.end_line - b.span.line, default=f.body)
        path: list = []
        if not _path(root, copy.span.line, path):
            continue
        sets = sorted(((c.span.line, c.span.column), strip(c.args[0].text), _stream(c.args[1].text))
                      for c in ir.walk(f.body) if isinstance(c, ir.Call) and len(c.args) == 2
                      and _SET_STREAM.fullmatch(c.name) and c.span.line < copy.span.line)
        last = {h: st for _, h, st in sets}
        bound = {h for h, st in last.items() if st == stream != "0"}
        elsewhere = {h for h, st in last.items() if st != stream}
        joined, events = {stream}, set()
        for i, (b, at) in reversed(list(enumerate(path))):
            for st in b.body[at + 1:]:
                _join(st, joined, events)
                kind = _classify(st, stream, bound, elsewhere, False, frozenset(joined), frozenset(events))
                if kind == _WAIT:
                    return st.span, None
                if (needs := needs_done(st, copy, list(roles))) is not None:
                    return st.span, needs
                if kind == _WORK:
                    return None
            if (dies := _scope_ends(b, at, copy, roles)) is not None:
                return dies
            if i == 0 or not isinstance(path[i - 1][0].body[path[i - 1][1]], (ir.Loop, ir.Block, ir.If)):
                return None  # past the end of a switch's case: the next case may follow
    return None


def describe(copy: AsyncCopy, role: str) -> str:
    """``h_in` was allocated with malloc at main.cu:12`` and its variants."""
    ptr, p = copy.pointer_text.get(role, "?"), copy.pointers[role]
    how, site, in_helper = p.how, _where(p.site), f" in `{p.via}()`" if p.via else ""
    if how in _ALLOCATED:
        return f"`{ptr}` was allocated with {how}{in_helper} at {site}"
    if how in ("std::vector", "std::array"):
        return f"`{ptr}` is the storage of the {how} `{p.name}` declared at {site}"
    if how.endswith("array"):
        return f"`{ptr}` is the {how} `{p.name}` declared at {site}"
    if how.endswith("variable"):
        return f"`{ptr}` is the address of the {how} `{p.name}` declared at {site}"
    return f"`{ptr}` is pageable memory from {how or 'an allocation'}{in_helper} at {site}"


def _root(copy: AsyncCopy, role: str) -> str:
    """The variable (or member) behind a pointer argument: ``h_buf + off`` -> ``h_buf``, ``v.data()`` -> ``v``."""
    p = copy.pointers[role]
    if p.how not in _ALLOCATED and p.name:
        return p.name
    m = re.search(r"[A-Za-z_]\w*(?:(?:\.|->)(?!data\b)[A-Za-z_]\w*)*", copy.pointer_text.get(role, ""))
    return m.group(0) if m else copy.pointer_text.get(role, "?")


class PageableMemcpyAsync(Rule):
    code = "CL601"
    name = "pageable-memcpy-async"
    default_severity = Severity.WARNING
    summary = "Async copy from or to pageable host memory: staged, blocks the host, no overlap"

    def check(self, model: TranslationUnitModel, ctx: AnalysisContext) -> Findings:
        for copy in model.copies:
            roles = [r for r in copy.host_side if copy.pointers[r].kind == "pageable"]
            if not roles:
                continue
            direction = " and ".join({"src": "from", "dst": "to"}[r] for r in sorted(roles, reverse=True))
            what = "; ".join(describe(copy, r) for r in roles)
            fixes = [f"allocate `{_root(copy, r)}` with cudaMallocHost or cudaHostAlloc (free it with cudaFreeHost), "
                     f"or cudaHostRegister the existing range" if copy.pointers[r].how in _ALLOCATED else
                     f"copy through a buffer allocated with cudaMallocHost or cudaHostAlloc, or cudaHostRegister "
                     f"the range of `{_root(copy, r)}` before the copy" for r in roles]
            cost, small = _cost(copy, roles)
            waits = waited_at(model.unit, copy, tuple(roles))
            wait = waits[0] if waits else None
            blocks = ("the call blocks the host until it is done, so it overlaps neither kernels nor other copies"
                      if waits is None else f"the host waits for it anyway at line {wait.line}, so only the "
                      "staging's lower bandwidth is lost" if waits[1] is None else
                      f"the host {waits[1]} at line {wait.line}, which needs the copy done (from a pinned buffer "
                      f"it would need a synchronize there), so only the staging's lower bandwidth is lost")
            msg = (f"{copy.api} {direction} pageable host memory: {what}. The copy is staged through a driver "
                   f"buffer and {blocks} ({cost}); " + "; ".join(dict.fromkeys(fixes)))
            assumptions = []
            for r in roles:
                p, ptr = copy.pointers[r], copy.pointer_text.get(r, "?")
                how, via = p.how or "pageable memory", f" in {p.via}()" if p.via else ""
                verb = "allocated with" if how in _ALLOCATED else "is"
                assumptions += [f"{ptr} {verb} {how}{via} at {_where(p.site)}",
                                f"{ptr} not registered with cudaHostRegister before the copy in "
                                f"{copy.function or 'this function'}"]
            assumptions.append(f"copy kind {copy.kind}" if copy.kind
                               else "copy kind not known statically: both pointers checked")
            metrics = {"host_pointer": copy.pointer_text.get(roles[0], "?"),
                       "allocation": copy.pointers[roles[0]].how.replace(" ", "-"),
                       **({"bytes": copy.bytes} if copy.bytes is not None else {}),
                       **({"host_waits_at_line": wait.line} if wait else {})}
            yield self.diagnostic(None, copy, msg, severity=Severity.INFO if small or wait else None, metrics=metrics,
                                  assumptions=assumptions)
