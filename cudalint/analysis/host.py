"""Host-pointer provenance and async copies over the IR (DESIGN.md §2 "host pointer provenance", §3 "Async
copies").  Nothing here knows a front-end: the input is an :class:`~cudalint.ir.nodes.TranslationUnit`.

Every host function of the file is walked, statements in source order, and each pointer-valued variable or
struct member gets a :class:`Provenance`: pageable (``malloc`` and its kin, ``new``, ``std::vector``/``std::array``
``data()``/``&v[0]``, stack and file-scope arrays, ``&local``), pinned (``cudaMallocHost``, ``cudaHostAlloc``, the
``hip`` twins, and pageable memory from its ``cudaHostRegister`` to its ``cudaHostUnregister``), device
(``cudaMalloc``, ``cudaMallocPitch``, ``cudaMallocAsync``) or managed (``cudaMallocManaged``, ``__managed__``).

Locations (keys of a :data:`HostEnv`) are tuples rooted at the :class:`~cudalint.ir.nodes.Variable`:
``(var,)``, ``(var, "host")`` for ``var.host`` or ``var->host``, ``..., "[]"`` for any element of an array of
pointers, ``..., "*"`` for what a pointer-to-pointer points to; ``this``'s members (``h_``) are rooted at
:data:`THIS`.  Values follow assignments, initialisations, pointer arithmetic, casts, ``?:``, struct copies and
helper functions of the file (:class:`_Fn` summaries: returned pointers, out-parameters ``float**``/``float*&``/
``Buf*``, registered parameters).  Where paths join the environments are merged (:func:`_join`).  A parameter or a
global set elsewhere has no provenance: no finding.  Each async copy call (``cudaMemcpyAsync`` and its
2D/3D/ToSymbol/FromSymbol variants, the ``hip`` twins, ``cuMemcpyHtoDAsync``/``cuMemcpyDtoHAsync``) becomes an
:class:`~cudalint.model.AsyncCopy` with the provenance of its pointers at that point of the function.
"""

from __future__ import annotations

import contextlib
import functools
import re
from dataclasses import dataclass, replace
from typing import Optional

from ..ir import nodes as ir
from ..ir.consts import fold
from ..ir.nodes import Span
from ..ir.types import TypeKind
from ..model import AsyncCopy


#: where a host pointer's memory came from (``null``: the pointer is null; ``value``: not memory, an integer
#: constant kept for a copy's kind, cudaMemcpy3DParms.kind)
PAGEABLE, PINNED, DEVICE, MANAGED, UNKNOWN, NULL, VALUE = ("pageable", "pinned", "device", "managed", "unknown", "null",
                                                           "value")


@dataclass(frozen=True)
class Provenance:
    """Where the memory a pointer points to came from: ``kind`` (one of those above), ``how`` (the allocation:
    ``malloc``, ``new[]``, ``std::vector``, ``stack array``, ``cudaMallocHost``, ...), ``site`` (the allocation
    call or the declaration; it identifies the allocation for ``cudaHostRegister``), ``name`` (the variable the
    memory was first stored in or declared as), ``via`` (the helper function of the file that allocated it),
    ``registered`` (the ``cudaHostRegister`` call that pinned pageable memory), ``bytes`` (the memory's size where
    its declaration gives it: a stack array's ``sizeof``, an upper bound on what a copy can move)."""
    kind: str
    how: str = ""
    site: Optional[Span] = None
    name: str = ""
    via: str = ""
    registered: Optional[Span] = None
    bytes: Optional[int] = None


UNKNOWN_P = Provenance(UNKNOWN)
NULL_P = Provenance(NULL)

MALLOCS = {"malloc", "calloc", "realloc", "aligned_alloc", "valloc", "memalign", "pvalloc", "_aligned_malloc"}
# out-parameter allocators: name -> kind
OUT_ALLOCS = {name: kind for kind, names in (
    (PINNED, "cudaMallocHost cudaHostAlloc hipHostMalloc hipMallocHost hipHostAlloc cuMemAllocHost cuMemHostAlloc"),
    (DEVICE, "cudaMalloc cudaMallocPitch cudaMallocAsync cudaMallocFromPoolAsync hipMalloc hipMallocPitch "
             "hipMallocAsync hipExtMallocWithFlags"),
    (MANAGED, "cudaMallocManaged hipMallocManaged"), (PAGEABLE, "posix_memalign")) for name in names.split()}
REGISTER = {"cudaHostRegister", "hipHostRegister", "cuMemHostRegister"}
UNREGISTER = {"cudaHostUnregister", "hipHostUnregister", "cuMemHostUnregister"}

#: async copy APIs: name -> (dst arg index, src arg index, kind arg index, stream arg index, default kind).
#: An index of None: that side is a device symbol / fixed.  Kind values follow cudaMemcpyKind (hip's are equal);
#: each ``cudaMemcpy*`` has a ``hipMemcpy*`` twin.
_CUDA_COPIES = {
    "cudaMemcpyAsync": (0, 1, 3, 4, None), "cudaMemcpy2DAsync": (0, 2, 6, 7, None),
    "cudaMemcpyToSymbolAsync": (None, 1, 4, 5, 1), "cudaMemcpyFromSymbolAsync": (0, None, 4, 5, 2),
    "cudaMemcpy3DAsync": (None, None, None, 1, None),  # pointers and kind live in the cudaMemcpy3DParms struct
}
COPY_APIS: dict[str, tuple[Optional[int], Optional[int], Optional[int], Optional[int], Optional[int]]] = {
    **_CUDA_COPIES, **{"hip" + name[4:]: v for name, v in _CUDA_COPIES.items()},
    "cuMemcpyHtoDAsync": (None, 1, None, 3, 1), "cuMemcpyDtoHAsync": (0, None, None, 3, 2),
}
KIND_NAMES = {0: "HostToHost", 1: "HostToDevice", 2: "DeviceToHost", 3: "DeviceToDevice", 4: "Default"}

#: the root of the locations of ``this``'s members inside a member function (``h_`` written for ``this->h_``)
THIS = ("this",)
_REG = "@reg"


def host_side(kind: Optional[int], has_dst: bool, has_src: bool) -> tuple[str, ...]:
    """The roles ("dst", "src") that are host memory for a copy of ``kind`` (cudaMemcpyKind value); both for Default
    or a kind not known statically (a pageable pointer can only be the host side of a copy)."""
    roles = {1: ("src",), 2: ("dst",), 3: ()}.get(kind, ("dst", "src"))
    return tuple(r for r in roles if {"dst": has_dst, "src": has_src}[r])


def _merge1(a: Provenance, b: Provenance, registered: bool = False) -> Provenance:
    """One value of two (``c ? a : b``, the returns of a helper; two paths when ``registered`` must agree too):
    the same allocation stays, null gives way to the other, anything else is unknown."""
    if a == b or (b.kind == NULL and a.kind != NULL):
        return a
    if a.kind == NULL:
        return b
    same = (a.kind, a.site) == (b.kind, b.site) and (not registered or a.registered == b.registered)
    return a if same else UNKNOWN_P


def _kind_name(api: str, kind: int) -> str:
    return ("hipMemcpy" if api.startswith("hip") else "cudaMemcpy") + KIND_NAMES.get(kind, str(kind))


#: location -> Provenance at one point of one function (a registration of pageable memory under ``("@reg", site)``)
HostEnv = dict


def _join(env: HostEnv, a: HostEnv, b: HostEnv) -> None:
    """``env`` becomes the environment after two paths join (the two sides of a branch, a loop run or not)."""
    out = {}
    for key in [*a, *(k for k in b if k not in a)]:
        x, y = a.get(key), b.get(key)
        if x is not None and y is not None:
            out[key] = _merge1(x, y, registered=True)
        else:   # set on one side only: a pointer keeps that side's value, a registration is on one path only
            out[key] = UNKNOWN_P if key[0] == _REG and x != y else (x or y)
    env.clear()
    env.update(out)


class _Fn:
    """A host function walked: its parameters (-> index) and, for a helper's summary, what it does to its caller's
    pointers: the values it returns (``returned``: their merge), the out-parameters it sets (``outs``: (param index,
    suffix tuple) -> Provenance), the parameters it passes to cudaHostRegister and cudaHostUnregister."""

    def __init__(self, fn: ir.Function, record: bool):
        self.fn = fn
        self.record = record
        self.params: dict = {p: i for i, p in enumerate(fn.params)}
        self.returns: list[Optional[Provenance]] = []
        self.returned: Optional[Provenance] = None
        self.outs: dict = {}
        self.registers: set = set()
        self.unregisters: set = set()
        self.capturing: set = set()  # streams between cudaStreamBeginCapture and cudaStreamEndCapture

    @functools.cached_property
    def sizes(self) -> dict:
        """The function's containers of known length (:func:`container_sizes`), found at its first async copy."""
        return container_sizes(self.fn.body)


# --- small IR helpers --------------------------------------------------------------------------------

def strip_casts(e: ir.Expr) -> ir.Expr:
    while isinstance(e, ir.Cast):
        e = e.operand
    return e


def _is_api(call: ir.Call) -> bool:
    """The call goes to the API (declared outside this file), not to a same-named function of the file."""
    return call.func is None or not call.func.in_main_file or call.func.body is None


def _written(call: ir.Call, i: int) -> bool:
    """Argument ``i`` is written in the call (not a default argument)."""
    return i < len(call.args) and (call.written < 0 or i < call.written)


def _implicit_this(m: ir.Member) -> bool:
    """A member of ``this`` written without ``this->`` (``h_``): the front-end gives it an opaque object with
    the member's own span (an explicit ``this`` has a span of its own)."""
    b = m.base
    return isinstance(b, ir.Opaque) and not b.children and b.what == "value" and b.span == m.span


_CONTAINER = re.compile(r"(const\s+)?std::(__\d+::)?(vector|array)<")
_ALLOCATOR = re.compile(r"std::(__\d+::)?allocator<")
#: member calls that change a container's element count
_RESIZES = frozenset(("push_back", "emplace_back", "pop_back", "resize", "insert", "emplace", "erase", "clear",
                      "assign", "swap"))


def container_sizes(body: Optional[ir.Stmt]) -> dict:
    """The local ``std::vector``/``std::array`` variables of a function body whose element count the declaration
    fixes and nothing changes (no ``push_back``, ``resize``, ... nor assignment): ``std::vector<double> A = {1.0,
    2.0, 3.0, 4.0}`` -> 4, ``std::vector<int> B(16)`` -> 16 (CUDALibrarySamples' matrices).  Variable -> count."""
    out: dict = {}
    changed: set = set()
    for n in ir.walk(body) if body is not None else ():
        if isinstance(n, ir.Decl) and n.init is not None and _CONTAINER.match(n.var.type.name or ""):
            init = n.init.args[0] if isinstance(n.init, ir.Construct) and len(n.init.args) == 1 and isinstance(
                n.init.args[0], ir.InitList) else n.init
            count = len(init.items) if isinstance(init, ir.InitList) else fold(init.args[0]) if isinstance(
                init, ir.Construct) and init.args and len(init.args) <= 2 and "vector" in n.var.type.name else None
            if isinstance(count, int) and count >= 0:
                out[n.var] = count
        elif isinstance(n, ir.Call) and n.name in _RESIZES and isinstance(n.receiver, ir.Ref):
            changed.add(n.receiver.var)
        elif isinstance(n, ir.Assign) and isinstance(n.target, ir.Ref):
            changed.add(n.target.var)
    return {v: c for v, c in out.items() if v not in changed}


def fold_bytes(e: ir.Expr, sizes: dict) -> Optional[int]:
    """A copy's byte count as an integer: :func:`fold`, with ``v.size()`` of a container of known element count
    (:func:`container_sizes`), through ``*``, ``+`` and ``-``.  None when not constant."""
    if isinstance(e, ir.Call) and e.name == "size" and not e.args and isinstance(e.receiver, ir.Ref):
        return sizes.get(e.receiver.var)
    if isinstance(e, ir.Cast):
        return fold_bytes(e.operand, sizes)
    if isinstance(e, ir.Binary) and e.op in ("*", "+", "-"):
        a, b = fold_bytes(e.lhs, sizes), fold_bytes(e.rhs, sizes)
        return None if a is None or b is None else a * b if e.op == "*" else a + b if e.op == "+" else a - b
    v = fold(e)
    return v if isinstance(v, int) else None


class HostAnalysis:
    """Walk the host functions of one translation unit and collect its async copies."""

    def __init__(self, tu: ir.TranslationUnit):
        self.copies: list[AsyncCopy] = []
        self.summaries: dict = {}
        self.in_progress: set = set()
        self.written: set = set()
        self.registered_anywhere: set = set()
        self.base: HostEnv = {}
        lambdas = [n.span for f in tu.functions for n in ir.walk(f.body) if isinstance(n, ir.Lambda)]
        # a lambda's call operator is walked where the lambda is written, not as a function of its own
        self.functions = [f for f in tu.functions if f.in_main_file and f.kind.host and f.body is not None
                          and not (f.name == "operator()" and any(f.span.within(s) for s in lambdas))]
        self._globals = {(v,): v.init for v in tu.globals
                         if v.in_main_file and v.type.kind == TypeKind.POINTER and v.init is not None}

    # -- driver
    def run(self) -> list[AsyncCopy]:
        # pass 1: which globals are written, which allocations are registered somewhere
        for fn in self.functions:
            self.walk_function(fn, record=False)
        self.base = env = {}
        for key, init in self._globals.items():
            if key not in self.written and (p := self.prov(init, env)) is not None:
                env[key] = p
        for fn in self.functions:
            self.walk_function(fn, record=True)
        return self.copies

    def walk_function(self, fn: ir.Function, record: bool, env: Optional[HostEnv] = None) -> tuple[_Fn, HostEnv]:
        ctx = _Fn(fn, record)
        env = env if env is not None else self.base.copy()
        with contextlib.suppress(RecursionError):  # absurdly nested code
            self.stmt(fn.body, env, ctx)
        return ctx, env

    def summary(self, fn: Optional[ir.Function]) -> Optional[_Fn]:
        """Summary of a host function defined in this file (templates included), None otherwise."""
        if fn is None or fn.body is None or not fn.in_main_file or not fn.kind.host:
            return None
        if fn in self.summaries or fn in self.in_progress:   # a recursive call has no summary
            return self.summaries.get(fn)
        self.in_progress.add(fn)   # walk_function absorbs a RecursionError; any other exception ends the analysis
        ctx, env = self.walk_function(fn, record=False, env={})
        self.in_progress.discard(fn)
        if ctx.returns and all(r is not None for r in ctx.returns):
            if (merged := functools.reduce(_merge1, ctx.returns)).kind not in (UNKNOWN, NULL):
                ctx.returned = replace(merged, via=merged.via or fn.name)
        for loc, p in env.items():
            if loc[0] in ctx.params and (len(loc) > 1 or loc[0].type.kind == TypeKind.REFERENCE):
                known = p.kind not in (UNKNOWN, NULL)
                ctx.outs[(ctx.params[loc[0]], loc[1:])] = replace(p, via=p.via or fn.name) if known else p
        self.summaries[fn] = ctx
        return ctx

    # -- statements
    def stmt(self, s: Optional[ir.Stmt], env: HostEnv, ctx: _Fn) -> None:
        if s is None:
            return
        if isinstance(s, ir.Decl):
            self.expr(s.init, env, ctx)
            self.var_decl(s.var, s.init, env)
        elif isinstance(s, ir.If):
            self.stmt(s.init, env, ctx)
            self.expr(s.cond, env, ctx)
            then, other = env.copy(), env.copy()
            self.stmt(s.then, then, ctx)
            self.stmt(s.else_, other, ctx)
            _join(env, then, other)
        elif isinstance(s, ir.Loop):
            do = s.kind == ir.LoopKind.DO  # runs at least once: no merge
            e = env if do else env.copy()
            if do:
                self.stmt(s.body, e, ctx)
            for x in s.init:
                self.stmt(x, e, ctx)
            if s.var is not None:  # a range for
                self.var_decl(s.var, None, e)
            for x in (s.range, s.cond, *s.step):
                self.expr(x, e, ctx)
            if not do:
                self.stmt(s.body, e, ctx)
                _join(env, env, e)
        elif isinstance(s, ir.Switch):
            e = env.copy()
            self.expr(s.cond, e, ctx)
            self.stmt(s.body, e, ctx)
            _join(env, env, e)
        elif isinstance(s, ir.Return):
            if s.value is not None:
                self.expr(s.value, env, ctx)
                ctx.returns.append(self.prov(s.value, env))
        else:  # a block, an expression statement, a case or a label: its parts in order
            for n in ir.children(s):
                (self.expr if isinstance(n, ir.Expr) else self.stmt)(n, env, ctx)

    def expr(self, e: Optional[ir.Expr], env: HostEnv, ctx: _Fn) -> None:
        """Walk an expression for its effects: assignments, allocations, registrations, copies."""
        if e is None:
            return
        if isinstance(e, ir.Assign) and e.op == "=":
            self.expr(e.value, env, ctx)
            self.assign(e.target, e.value, env)
        elif isinstance(e, ir.Cond):
            self.expr(e.cond, env, ctx)
            a, b = env.copy(), env.copy()
            self.expr(e.then, a, ctx)
            self.expr(e.else_, b, ctx)
            _join(env, a, b)
        elif isinstance(e, ir.Lambda):  # its body runs where it is called: its effects do not stay here
            self.stmt(e.body, env.copy(), ctx)
        else:
            for ch in ir.children(e):
                self.expr(ch, env, ctx)
            if isinstance(e, ir.Call):
                self.call(e, env, ctx)

    def var_decl(self, v: ir.Variable, init: Optional[ir.Expr], env: HostEnv) -> None:
        key = (v,)
        t = v.type
        if t.kind == TypeKind.POINTER or t.kind == TypeKind.REFERENCE and t.pointee is not None \
                and t.pointee.kind == TypeKind.POINTER:
            if init is not None:
                env[key] = self.prov(init, env) or UNKNOWN_P
            else:
                env.pop(key, None)
            self.written.add(key)
        elif init is not None and t.kind == TypeKind.RECORD:
            self._copy_members(init, key, env)

    def _copy_members(self, rhs: ir.Expr, dst: tuple, env: HostEnv) -> None:
        """``Buf c = b;`` / ``c = b;``: the members of ``b`` are the members of ``c``."""
        for loc in [l for l in env if l[:len(dst)] == dst and len(l) > len(dst)]:
            del env[loc]
        while isinstance(rhs, ir.Construct) and len(rhs.args) == 1:  # a copy construction
            rhs = rhs.args[0]
        if (src := self.lvalue(rhs)) is None:
            r = strip_casts(rhs)
            if isinstance(r, ir.Call) and r.name == "make_cudaPitchedPtr" and (p := self.prov(r, env)) is not None:
                env[dst + ("ptr",)] = p
            return
        env.update({dst + loc[len(src):]: p for loc, p in env.items() if loc[:len(src)] == src and len(loc) > len(src)})

    def assign(self, lhs: ir.Expr, rhs: ir.Expr, env: HostEnv) -> None:
        loc = self.lvalue(lhs)
        if loc is None:
            return
        self.written.add(loc[:1])
        k = lhs.type.kind
        if k == TypeKind.POINTER:
            env[loc] = self.prov(rhs, env) or UNKNOWN_P
        elif k == TypeKind.RECORD:
            self._copy_members(rhs, loc, env)
        elif k == TypeKind.ENUM:
            v = fold(rhs)
            env[loc] = Provenance(VALUE, how=str(v)) if v is not None else UNKNOWN_P

    # -- calls
    def call(self, c: ir.Call, env: HostEnv, ctx: _Fn) -> None:
        name, args = c.name, c.args
        if name in OUT_ALLOCS and args and _is_api(c):
            if (loc := self.pointee(args[0])) is not None:
                env[loc] = Provenance(OUT_ALLOCS[name], how=name, site=c.span, name=args[0].text.lstrip("&").strip())
                self.written.add(loc[:1])
        elif (name in REGISTER or name in UNREGISTER) and args:
            self.register(args[0], c, env, ctx, name in REGISTER)
        elif name.endswith(("StreamBeginCapture", "StreamEndCapture")) and args:
            (ctx.capturing.add if "Begin" in name else ctx.capturing.discard)(args[0].text)
        elif name in COPY_APIS and _is_api(c):
            if ctx.record:
                self.copy_call(c, name, env, ctx)
        elif (s := self.summary(c.func)) is not None:
            params = c.func.params
            for (idx, suffix), p in s.outs.items():
                pk = params[idx].type.kind if idx < len(args) and idx < len(params) else None
                base = self.lvalue(args[idx]) if pk == TypeKind.REFERENCE else \
                    self.pointee(args[idx]) if pk == TypeKind.POINTER else None
                if base is not None:  # via a pointer parameter, the callee's `*out` / `out[i]` is its pointee
                    env[base + (suffix[1:] if pk == TypeKind.POINTER and suffix[:1] in (("*",), ("[]",))
                                else suffix)] = p
                    self.written.add(base[:1])
            for idx in sorted(i for i in s.registers | s.unregisters if i < len(args)):
                self.register(args[idx], c, env, ctx, idx in s.registers, via=c.name)

    def register(self, arg: ir.Expr, c: ir.Call, env: HostEnv, ctx: _Fn, on: bool, via: str = "") -> None:
        p = self.prov(arg, env, resolve=False)
        if p is not None and p.kind == PAGEABLE and p.site is not None:
            key = (_REG, p.site)
            if on:
                env[key] = Provenance(PINNED, how=via or c.name, site=c.span)
                self.registered_anywhere.add(p.site)
            else:
                env.pop(key, None)
        elif (loc := self.lvalue(arg)) is not None and len(loc) == 1 and loc[0] in ctx.params:
            (ctx.registers if on else ctx.unregisters).add(ctx.params[loc[0]])
        elif loc is not None:
            env[loc] = Provenance(PINNED, how=c.name, site=c.span) if on else UNKNOWN_P

    def copy_call(self, c: ir.Call, name: str, env: HostEnv, ctx: _Fn) -> None:
        args = c.args
        dst_i, src_i, kind_i, stream_i, default_kind = COPY_APIS[name]
        provs, texts = {}, {}   # role -> provenance, and the pointer's source text
        kind, kind_text = default_kind, None
        if name.endswith("3DAsync"):
            if args and (parms := self.pointee(args[0])) is not None:
                for role, member in (("src", "srcPtr"), ("dst", "dstPtr")):
                    provs[role] = self._resolve(env.get(parms + (member, "ptr")) or env.get(parms + (member,)), env)
                    texts[role] = f"{args[0].text.lstrip('&').strip()}.{member}"
                if (kv := env.get(parms + ("kind",))) is not None and kv.kind == VALUE and kv.how.lstrip("-").isdigit():
                    kind = int(kv.how)
                    kind_text = _kind_name(name, kind)
        else:
            for role, i in (("dst", dst_i), ("src", src_i)):
                if i is not None and i < len(args):
                    provs[role] = self.prov(args[i], env)
                    texts[role] = args[i].text
            if kind_i is not None and _written(c, kind_i):
                kind = fold(args[kind_i])
                kind_text = args[kind_i].text or None
            elif default_kind is not None:
                kind_text = _kind_name(name, default_kind) + (" (default)" if kind_i is not None else "")
        written = stream_i is not None and _written(c, stream_i)
        if written and args[stream_i].text in ctx.capturing:
            return  # recorded into a CUDA graph by stream capture, not executed here
        size_i = (4, 5) if "2D" in name else () if "3D" in name else (2,)
        sizes = [fold_bytes(args[i], ctx.sizes) if i < len(args) else None for i in size_i]
        self.copies.append(AsyncCopy(
            api=name, span=c.span, kind=kind_text, host_side=host_side(kind, "dst" in provs, "src" in provs),
            pointers={r: p or UNKNOWN_P for r, p in provs.items()}, pointer_text=texts,
            stream=(args[stream_i].text or None) if written else None,
            function=ctx.fn.name,
            bytes=functools.reduce(int.__mul__, sizes) if sizes and None not in sizes else None))

    # -- locations
    def lvalue(self, e: ir.Expr) -> Optional[tuple]:
        """The location an lvalue expression names, or None."""
        e = strip_casts(e)
        if isinstance(e, ir.Ref):
            return (e.var,)
        if isinstance(e, ir.Member):
            base, step = ((THIS,) if _implicit_this(e) else self.lvalue(e.base)), e.name
        elif isinstance(e, ir.Index):
            base, step = self.lvalue(e.base), "[]"
        elif isinstance(e, ir.Unary) and e.op == "*":
            base, step = self.lvalue(e.operand), "*"
        else:
            return None
        return base + (step,) if base is not None else None

    def pointee(self, e: ir.Expr) -> Optional[tuple]:
        """The location a pointer-to-pointer expression points to: ``&p`` -> p, ``out`` -> *out."""
        e = strip_casts(e)
        if isinstance(e, ir.Unary) and e.op == "&":
            return self.lvalue(e.operand)
        base = self.lvalue(e)
        return base + ("*",) if base is not None else None

    # -- values
    def prov(self, e: ir.Expr, env: HostEnv, resolve: bool = True) -> Optional[Provenance]:
        p = self._prov(e, env)
        return self._resolve(p, env) if resolve else p

    def _resolve(self, p: Optional[Provenance], env: HostEnv) -> Optional[Provenance]:
        """Pageable memory that was cudaHostRegister'ed by now is pinned."""
        if p is None or p.kind != PAGEABLE or p.site is None:
            return p
        r = env.get((_REG, p.site))
        if r is None:
            elsewhere = p.site in self.registered_anywhere   # a global registered elsewhere: pinned here or not
            return UNKNOWN_P if elsewhere and p.how in ("global array", "global variable") else p
        return replace(p, kind=PINNED, registered=r.site) if r.kind == PINNED else UNKNOWN_P

    def _prov(self, e: ir.Expr, env: HostEnv) -> Optional[Provenance]:
        e = strip_casts(e)
        if isinstance(e, ir.IntLit):
            return NULL_P if e.value == 0 else None
        if isinstance(e, ir.Ref):
            array = e.var.type.kind == TypeKind.ARRAY and e.var.storage != ir.Storage.PARAM
            return self._storage(e.var) if array else env.get((e.var,))
        if isinstance(e, (ir.Member, ir.Index)) or (isinstance(e, ir.Unary) and e.op == "*"):
            if isinstance(e, ir.Member) and e.type.kind == TypeKind.ARRAY and e.type.count is not None:
                return self._object_storage(e)
            return env.get(self.lvalue(e))  # None for no location
        if isinstance(e, ir.Unary) and e.op == "&":
            inner = e.operand
            if isinstance(inner, ir.Index):
                return self._prov(inner.base, env)
            if isinstance(inner, ir.Call) and inner.name == "operator[]":
                return self._container(inner.args[0]) if inner.args else None
            if isinstance(inner, ir.Unary) and inner.op == "*":
                return self._prov(inner.operand, env)
            return self._object_storage(inner)
        if isinstance(e, ir.Binary):
            if e.op == ",":
                return self._prov(e.rhs, env)
            # p + i, i + p, p - i: the pointer operand's memory
            ptr = [c for c in {"+": (e.lhs, e.rhs), "-": (e.lhs,)}.get(e.op, ())
                   if c.type.kind in (TypeKind.POINTER, TypeKind.ARRAY)]
            return self._prov(ptr[0], env) if ptr else None
        if isinstance(e, ir.Assign):
            return self._prov(e.value, env) if e.op == "=" else None
        if isinstance(e, ir.Cond):
            a, b = self._prov(e.then, env), self._prov(e.else_, env)
            return _merge1(a, b) if a is not None and b is not None else None
        if isinstance(e, ir.New):   # placement new: the memory is the placement argument's
            return None if e.placement else Provenance(PAGEABLE, how="new[]" if e.array else "new", site=e.span)
        if isinstance(e, ir.Call):
            if e.name in MALLOCS and _is_api(e):
                return Provenance(PAGEABLE, how=e.name, site=e.span)
            if e.name == "data" and not e.args:
                return self._container(e.receiver) if e.receiver is not None else None
            if e.name == "make_cudaPitchedPtr" and e.args:
                return self._prov(e.args[0], env)
            s = self.summary(e.func)
            return s.returned if s is not None else None
        return None

    def _container(self, obj: ir.Expr) -> Optional[Provenance]:
        """``v.data()`` / ``&v[0]`` of a local ``std::vector`` (std::allocator) or ``std::array``."""
        v = obj.var if isinstance(obj, ir.Ref) else None
        if v is None or v.storage not in (ir.Storage.LOCAL, ir.Storage.STATIC) or v.type.kind == TypeKind.REFERENCE:
            return None
        sp = v.type.name
        m = _CONTAINER.match(sp)
        if m is None or m[3] == "vector" and "allocator" in sp and not _ALLOCATOR.search(sp):
            return None
        return Provenance(PAGEABLE, how="std::" + m[3], site=v.span, name=v.name)

    def _storage(self, v: ir.Variable) -> Optional[Provenance]:
        """The memory of a variable itself (an array used as a pointer, or ``&x``)."""
        if v.space == ir.Space.MANAGED:
            return Provenance(MANAGED, how="__managed__ variable", site=v.span, name=v.name)
        if v.space in (ir.Space.GLOBAL, ir.Space.CONSTANT, ir.Space.SHARED):
            return Provenance(DEVICE, how="device variable", site=v.span, name=v.name)
        if not v.in_main_file or v.storage == ir.Storage.PARAM:
            return None
        how = {ir.Storage.STATIC: ("static array", "static variable"),
               ir.Storage.LOCAL: ("stack array", "local variable")}.get(v.storage, ("global array", "global variable"))
        size = v.type.size
        if size is None and v.type.kind == TypeKind.ARRAY and isinstance(v.init, ir.InitList) and v.type.pointee \
                and v.type.pointee.size is not None:  # `const T *h[]{a, b, c}` in a template: as many as it lists
            size = v.type.pointee.size * len(v.init.items)
        return Provenance(PAGEABLE, how=how[v.type.kind != TypeKind.ARRAY], site=v.span, name=v.name, bytes=size)

    def _object_storage(self, e: ir.Expr) -> Optional[Provenance]:
        """``&x``, ``&s.field``, ``s.arr``: the storage of the root object when it is a variable."""
        while isinstance(e, ir.Member):
            if e.arrow or _implicit_this(e):
                return None  # p->field, this->field: the memory the pointer points to
            e = e.base
        if isinstance(e, ir.Ref) and e.var.storage != ir.Storage.PARAM and e.var.type.kind != TypeKind.REFERENCE:
            return self._storage(e.var)
        return None


def collect_async_copies(tu: ir.TranslationUnit) -> list[AsyncCopy]:
    """The async copies of the file's host functions, with the provenance of their pointers."""
    return HostAnalysis(tu).run()

