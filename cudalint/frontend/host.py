"""Host-pointer provenance and async copies (DESIGN.md §2 "host pointer provenance", §3 "Async copies").

Every host function body of the file is walked with libclang cursors, statements in source order, and each
pointer-valued variable or struct member gets a :class:`Provenance`: where the memory it points to came from.

* pageable: ``malloc/calloc/realloc/aligned_alloc/posix_memalign``, ``new T[n]``/``new T``,
  ``std::vector<T>::data()``/``&v[0]``, ``std::array<T, N>::data()``, stack (and file-scope) arrays, ``&local``;
* pinned: ``cudaMallocHost(&p, ...)``, ``cudaHostAlloc(&p, ...)`` (and the ``hip`` twins), and pageable memory
  passed to ``cudaHostRegister`` (pinned from that call on, until ``cudaHostUnregister``);
* device: ``cudaMalloc``, ``cudaMallocPitch``, ``cudaMallocAsync``; managed: ``cudaMallocManaged``,
  ``__managed__`` variables.

Locations (keys of :class:`HostEnv`) are tuples: ``(decl_key(var),)`` for a variable, ``decl_key(var), "host"``
for a member ``var.host`` (or ``var->host``), ``..., "[]"`` for any element of an array of pointers, ``..., "*"``
for what a pointer-to-pointer points to (out-parameters).  Values follow assignments, initialisations, pointer
arithmetic, casts, ``?:``, struct copies, helper functions of the same file that return the pointer or write it
through an out-parameter (``float**``, ``float*&``, ``Buf*``) and helpers that ``cudaHostRegister`` a parameter.
At branches and loops the environments are merged flow-insensitively: the same provenance on both sides stays,
different ones become ``unknown``.  A parameter or a global set elsewhere has no provenance: no finding.

Each async copy call (``cudaMemcpyAsync`` and its 2D/3D/ToSymbol/FromSymbol variants, the ``hip`` twins and the
driver API's ``cuMemcpyHtoDAsync``/``cuMemcpyDtoHAsync``) becomes an :class:`~cudalint.model.AsyncCopy` with the
provenance of its pointers as seen at that point of the function.
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass, field, replace
from typing import Optional

import clang.cindex as ci

from ..model import AsyncCopy, Span
from .clang_frontend import _strip, decl_key, evaluate_int, span_of

K = ci.CursorKind
T = ci.TypeKind

PAGEABLE, PINNED, DEVICE, MANAGED, UNKNOWN, NULL = "pageable", "pinned", "device", "managed", "unknown", "null"


@dataclass(frozen=True)
class Provenance:
    """Where the memory a pointer points to came from.

    ``kind``: pageable | pinned | device | managed | unknown | null.  ``how``: the allocation, e.g. ``malloc``,
    ``new[]``, ``std::vector``, ``stack array``, ``cudaMallocHost``.  ``site``: the allocation call, or the
    declaration of the array/vector/local; it identifies the allocation (for ``cudaHostRegister``).
    ``name``: the variable the memory was first stored in or declared as.  ``via``: the helper function of
    the file that made the allocation.  ``registered``: the ``cudaHostRegister`` call that pinned pageable
    memory.
    """

    kind: str
    how: str = ""
    site: Optional[Span] = None
    name: str = ""
    via: str = ""
    registered: Optional[Span] = None


UNKNOWN_P = Provenance(UNKNOWN)
NULL_P = Provenance(NULL)

MALLOCS = {"malloc", "calloc", "realloc", "aligned_alloc", "valloc", "memalign", "pvalloc", "_aligned_malloc"}
# out-parameter allocators: name -> kind
OUT_ALLOCS = {
    "cudaMallocHost": PINNED, "cudaHostAlloc": PINNED, "hipHostMalloc": PINNED, "hipMallocHost": PINNED,
    "hipHostAlloc": PINNED, "cuMemAllocHost": PINNED, "cuMemHostAlloc": PINNED,
    "cudaMalloc": DEVICE, "cudaMallocPitch": DEVICE, "cudaMallocAsync": DEVICE, "cudaMallocFromPoolAsync": DEVICE,
    "hipMalloc": DEVICE, "hipMallocPitch": DEVICE, "hipMallocAsync": DEVICE, "hipExtMallocWithFlags": DEVICE,
    "cudaMallocManaged": MANAGED, "hipMallocManaged": MANAGED,
    "posix_memalign": PAGEABLE,
}
REGISTER = {"cudaHostRegister", "hipHostRegister", "cuMemHostRegister"}
UNREGISTER = {"cudaHostUnregister", "hipHostUnregister", "cuMemHostUnregister"}

#: async copy APIs: name -> (dst arg index, src arg index, kind arg index, stream arg index, default kind).
#: An index of None: that side is a device symbol / fixed.  Kind values follow cudaMemcpyKind (hip's are equal).
COPY_APIS: dict[str, tuple[Optional[int], Optional[int], Optional[int], Optional[int], Optional[int]]] = {
    "cudaMemcpyAsync": (0, 1, 3, 4, None),
    "cudaMemcpy2DAsync": (0, 2, 6, 7, None),
    "cudaMemcpyToSymbolAsync": (None, 1, 4, 5, 1),
    "cudaMemcpyFromSymbolAsync": (0, None, 4, 5, 2),
    "hipMemcpyAsync": (0, 1, 3, 4, None),
    "hipMemcpy2DAsync": (0, 2, 6, 7, None),
    "hipMemcpyToSymbolAsync": (None, 1, 4, 5, 1),
    "hipMemcpyFromSymbolAsync": (0, None, 4, 5, 2),
    "cuMemcpyHtoDAsync": (None, 1, None, 3, 1),
    "cuMemcpyDtoHAsync": (0, None, None, 3, 2),
    "cudaMemcpy3DAsync": (None, None, None, 1, None),  # pointers and kind live in the cudaMemcpy3DParms struct
    "hipMemcpy3DAsync": (None, None, None, 1, None),
}
KIND_NAMES = {0: "HostToHost", 1: "HostToDevice", 2: "DeviceToHost", 3: "DeviceToDevice", 4: "Default"}

_CASTS = {K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.CXX_REINTERPRET_CAST_EXPR, K.CXX_CONST_CAST_EXPR,
          K.CXX_FUNCTIONAL_CAST_EXPR}
_FUNCS = {K.FUNCTION_DECL, K.FUNCTION_TEMPLATE, K.CXX_METHOD, K.CONSTRUCTOR, K.DESTRUCTOR}
_SCOPES = {K.NAMESPACE, K.LINKAGE_SPEC, K.UNEXPOSED_DECL, K.CLASS_DECL, K.STRUCT_DECL, K.CLASS_TEMPLATE,
           K.UNION_DECL}
_LOOPS = {K.FOR_STMT, K.WHILE_STMT, K.CXX_FOR_RANGE_STMT, K.SWITCH_STMT}


def host_side(kind: Optional[int], has_dst: bool, has_src: bool) -> tuple[str, ...]:
    """The roles ("dst", "src") that are host memory for a copy of ``kind`` (cudaMemcpyKind value).

    HostToDevice: the source; DeviceToHost: the destination; HostToHost: both; DeviceToDevice: none;
    Default or a kind not known statically: both pointers are checked (a pageable pointer can only be the host
    side of a copy)."""
    if kind == 1:
        roles = ("src",)
    elif kind == 2:
        roles = ("dst",)
    elif kind == 3:
        roles = ()
    else:
        roles = ("dst", "src")
    return tuple(r for r in roles if (r == "dst" and has_dst) or (r == "src" and has_src))


class HostEnv:
    """Location -> Provenance, for one point of one function."""

    def __init__(self, vars: Optional[dict] = None):
        self.vars: dict = dict(vars or {})

    def copy(self) -> "HostEnv":
        return HostEnv(self.vars)

    @staticmethod
    def merge(a: "HostEnv", b: "HostEnv") -> "HostEnv":
        out = {}
        for key in set(a.vars) | set(b.vars):
            x, y = a.vars.get(key), b.vars.get(key)
            registration = key[0] == "@reg"
            if x == y:
                out[key] = x
            elif x is None or y is None:
                # a location set on one side only: for a pointer that side's value (the other side had none:
                # uninitialised or never written here); for a registration, registered on one path only
                out[key] = UNKNOWN_P if registration else (x or y)
            elif x.kind == NULL:
                out[key] = y
            elif y.kind == NULL:
                out[key] = x
            elif (x.kind, x.site, x.registered) == (y.kind, y.site, y.registered):
                out[key] = x
            else:
                out[key] = UNKNOWN_P
        return HostEnv(out)


@dataclass
class Summary:
    """What a helper function of the file does to its caller's pointers."""

    returns: Optional[Provenance] = None
    outs: dict = field(default_factory=dict)  # (param index, suffix tuple) -> Provenance
    registers: set = field(default_factory=set)  # param indices passed to cudaHostRegister
    unregisters: set = field(default_factory=set)


class _Fn:
    """The function being walked: its parameters (for summaries) and its return values."""

    def __init__(self, cur: Optional[ci.Cursor], record: bool):
        self.cur = cur
        self.record = record
        self.params: dict = {}
        if cur is not None:
            for i, p in enumerate(ch for ch in cur.get_children() if ch.kind == K.PARM_DECL):
                self.params[decl_key(p)] = (i, p)
        self.returns: list[Optional[Provenance]] = []
        self.registers: set = set()
        self.unregisters: set = set()


class HostAnalysis:
    """Walk the host functions of one translation unit and collect its async copies."""

    def __init__(self, root: ci.Cursor, fe):
        self.root = root
        self.fe = fe
        self.path = fe.path
        self.copies: list[AsyncCopy] = []
        self.functions: list[ci.Cursor] = []
        self.summaries: dict = {}
        self.in_progress: set = set()
        self.written: set = set()
        self.registered_anywhere: set = set()
        self.base = HostEnv()
        self._globals: dict = {}
        self._gather(root)

    # -- discovery
    def _gather(self, c: ci.Cursor) -> None:
        for ch in c.get_children():
            if ch.location.is_in_system_header:
                continue  # library and shim declarations: no host code of the user's
            k = ch.kind
            if k in _SCOPES:
                self._gather(ch)
            elif k in _FUNCS:
                if self.fe.in_file(ch) and self._is_host(ch) and self._body(ch) is not None:
                    self.functions.append(ch)
            elif k == K.VAR_DECL and c.kind in (K.TRANSLATION_UNIT, K.NAMESPACE, K.LINKAGE_SPEC, K.UNEXPOSED_DECL):
                if self.fe.in_file(ch) and ch.type.get_canonical().kind == T.POINTER:
                    init = [x for x in ch.get_children() if x.kind.is_expression()]
                    if init:
                        self._globals[(decl_key(ch),)] = init[-1]

    @staticmethod
    def _body(fn: ci.Cursor) -> Optional[ci.Cursor]:
        return next((ch for ch in fn.get_children() if ch.kind == K.COMPOUND_STMT), None)

    @staticmethod
    def _is_host(fn: ci.Cursor) -> bool:
        attrs = {ch.kind for ch in fn.get_children()}
        if K.CUDAGLOBAL_ATTR in attrs:
            return False
        return K.CUDADEVICE_ATTR not in attrs or K.CUDAHOST_ATTR in attrs

    # -- driver
    def run(self) -> list[AsyncCopy]:
        # pass 1: which globals are written, which allocations are registered somewhere
        for fn in self.functions:
            self.walk_function(fn, record=False)
        env = HostEnv()
        for key, init in self._globals.items():
            if key not in self.written:
                p = self.prov(init, env)
                if p is not None:
                    env.vars[key] = p
        self.base = env
        self.copies = []
        for fn in self.functions:
            self.walk_function(fn, record=True)
        return self.copies

    def walk_function(self, fn: ci.Cursor, record: bool, env: Optional[HostEnv] = None) -> tuple[_Fn, HostEnv]:
        ctx = _Fn(fn, record)
        env = env or self.base.copy()
        body = self._body(fn)
        if body is not None:
            try:
                self.stmt(body, env, ctx)
            except RecursionError:  # pragma: no cover - absurdly nested code
                pass
        return ctx, env

    def summary(self, fn: Optional[ci.Cursor]) -> Optional[Summary]:
        """Summary of a host function defined in this file (templates included), None otherwise."""
        if fn is None:
            return None
        try:
            tmpl = ci.conf.lib.clang_getSpecializedCursorTemplate(fn)
            if tmpl is not None and not tmpl == ci.conf.lib.clang_getNullCursor():
                tmpl._tu = fn._tu  # raw libclang results carry no translation unit
            else:
                tmpl = None
            cands = [fn, fn.get_definition(), tmpl]
        except Exception:
            return None
        target = None
        for cand in cands:
            if cand is None:
                continue
            if cand.kind in _FUNCS and self._body(cand) is not None and self.fe.in_file(cand) \
                    and self._is_host(cand):
                target = cand
                break
        if target is None:
            return None
        key = decl_key(target)
        if key in self.summaries:
            return self.summaries[key]
        if key in self.in_progress:
            return None
        self.in_progress.add(key)
        try:
            ctx, env = self.walk_function(target, record=False, env=HostEnv())
        finally:
            self.in_progress.discard(key)
        s = Summary()
        rets = [r for r in ctx.returns]
        if rets and all(r is not None for r in rets):
            merged = rets[0]
            for r in rets[1:]:
                merged = _merge1(merged, r)
            if merged.kind not in (UNKNOWN, NULL):
                s.returns = replace(merged, via=merged.via or target.spelling)
        for loc, p in env.vars.items():
            if loc[0] in ctx.params and (len(loc) > 1 or ctx.params[loc[0]][1].type.get_canonical().kind
                                         == T.LVALUEREFERENCE):
                idx = ctx.params[loc[0]][0]
                if p.kind not in (UNKNOWN, NULL):
                    p = replace(p, via=p.via or target.spelling)
                s.outs[(idx, loc[1:])] = p
        s.registers = set(ctx.registers)
        s.unregisters = set(ctx.unregisters)
        self.summaries[key] = s
        return s

    # -- statements
    def stmt(self, c: ci.Cursor, env: HostEnv, ctx: _Fn) -> None:
        k = c.kind
        if k == K.IF_STMT:
            kids = list(c.get_children())
            has_else = len(kids) >= 3 and self._preceded_by_else(c, kids[-1])
            branches = kids[-2:] if has_else else kids[-1:]
            for pre in kids[:len(kids) - len(branches)]:
                self.stmt(pre, env, ctx)
            envs = []
            for b in branches:
                e = env.copy()
                self.stmt(b, e, ctx)
                envs.append(e)
            if len(envs) == 1:
                envs.append(env.copy())
            env.vars = HostEnv.merge(envs[0], envs[1]).vars
            return
        if k in _LOOPS:
            e = env.copy()
            for ch in c.get_children():
                self.stmt(ch, e, ctx)
            env.vars = HostEnv.merge(env, e).vars
            return
        if k == K.DO_STMT:
            for ch in c.get_children():
                self.stmt(ch, env, ctx)
            return
        if k == K.LAMBDA_EXPR:
            e = env.copy()
            for ch in c.get_children():
                self.stmt(ch, e, ctx)
            return
        if k == K.RETURN_STMT:
            kids = [ch for ch in c.get_children() if ch.kind.is_expression()]
            for ch in kids:
                self.stmt(ch, env, ctx)
            if kids:
                ctx.returns.append(self.prov(kids[-1], env))
            return
        if k == K.VAR_DECL:
            for ch in c.get_children():
                self.stmt(ch, env, ctx)
            self.var_decl(c, env)
            return
        if k == K.BINARY_OPERATOR:
            kids = list(c.get_children())
            if len(kids) == 2 and c.binary_operator == ci.BinaryOperator.Assign:
                self.stmt(kids[1], env, ctx)
                self.assign(kids[0], kids[1], env, ctx)
                return
        if k == K.CONDITIONAL_OPERATOR:
            kids = list(c.get_children())
            if len(kids) == 3:
                self.stmt(kids[0], env, ctx)
                a, b = env.copy(), env.copy()
                self.stmt(kids[1], a, ctx)
                self.stmt(kids[2], b, ctx)
                env.vars = HostEnv.merge(a, b).vars
                return
        if k == K.CALL_EXPR and c.spelling == "operator=":
            kids = [ch for ch in c.get_children() if ch.kind.is_expression()]
            if len(kids) == 3:  # a struct assignment: lhs, the operator, rhs
                self.stmt(kids[2], env, ctx)
                self.assign(kids[0], kids[2], env, ctx)
                return
        for ch in c.get_children():
            self.stmt(ch, env, ctx)
        if k == K.CALL_EXPR:
            self.call(c, env, ctx)

    @staticmethod
    def _preceded_by_else(ifc: ci.Cursor, last: ci.Cursor) -> bool:
        start = last.extent.start.offset
        prev = None
        for t in ifc.get_tokens():
            if t.extent.start.offset >= start:
                break
            prev = t.spelling
        return prev == "else"

    def var_decl(self, d: ci.Cursor, env: HostEnv) -> None:
        key = (decl_key(d),)
        init = [ch for ch in d.get_children() if ch.kind.is_expression()]
        t = d.type.get_canonical()
        if t.kind == T.POINTER or t.kind == T.LVALUEREFERENCE and t.get_pointee().kind == T.POINTER:
            if init:
                env.vars[key] = self.prov(init[-1], env) or UNKNOWN_P
            else:
                env.vars.pop(key, None)
            self.written.add(key)
        elif init and t.kind == T.RECORD:
            self._copy_members(init[-1], key, env)

    def _copy_members(self, rhs: ci.Cursor, dst: tuple, env: HostEnv) -> None:
        """``Buf c = b;`` / ``c = b;``: the members of ``b`` are the members of ``c``."""
        for loc in [l for l in env.vars if l[:len(dst)] == dst and len(l) > len(dst)]:
            del env.vars[loc]
        rhs = _unwrap_ctor(rhs)
        src = self.lvalue(rhs)
        if src is None:
            r = _strip_casts(rhs)
            p = self.prov(r, env) if r.kind == K.CALL_EXPR and r.spelling in ("make_cudaPitchedPtr",) else None
            if p is not None:
                env.vars[dst + ("ptr",)] = p
            return
        for loc, p in list(env.vars.items()):
            if loc[:len(src)] == src and len(loc) > len(src):
                env.vars[dst + loc[len(src):]] = p

    def assign(self, lhs: ci.Cursor, rhs: ci.Cursor, env: HostEnv, ctx: _Fn) -> None:
        loc = self.lvalue(lhs)
        if loc is None:
            return
        self.written.add(loc[:1])
        t = _strip(lhs).type.get_canonical()
        if t.kind == T.POINTER:
            env.vars[loc] = self.prov(rhs, env) or UNKNOWN_P
        elif t.kind == T.RECORD:
            self._copy_members(rhs, loc, env)
        elif t.kind == T.ENUM:
            v = evaluate_int(rhs)
            env.vars[loc] = Provenance("value", how=str(v)) if v is not None else UNKNOWN_P

    # -- calls
    def call(self, c: ci.Cursor, env: HostEnv, ctx: _Fn) -> None:
        name = c.spelling
        args = list(c.get_arguments())
        if name in OUT_ALLOCS and args and self._callee_is_api(c):
            loc = self.pointee(args[0])
            if loc is not None:
                env.vars[loc] = Provenance(OUT_ALLOCS[name], how=name, site=span_of(c, self.path),
                                           name=_text(args[0]).lstrip("&").strip() or "")
                self.written.add(loc[:1])
            return
        if name in REGISTER and args:
            self.register(args[0], c, env, ctx, True)
            return
        if name in UNREGISTER and args:
            self.register(args[0], c, env, ctx, False)
            return
        if name in COPY_APIS and self._callee_is_api(c):
            if ctx.record:
                self.copy_call(c, name, args, env, ctx)
            return
        s = self.summary(c.referenced)
        if s is None:
            return
        params = [p for p in (self._params_of(c.referenced))]
        for (idx, suffix), p in s.outs.items():
            if idx >= len(args) or idx >= len(params):
                continue
            pt = params[idx].type.get_canonical()
            if pt.kind == T.LVALUEREFERENCE:
                base = self.lvalue(args[idx])
            elif pt.kind == T.POINTER:
                base = self.pointee(args[idx])
                if suffix and suffix[0] in ("*", "[]"):
                    suffix = suffix[1:]
            else:
                continue
            if base is None:
                continue
            env.vars[base + suffix] = p
            self.written.add(base[:1])
        for idx in s.registers | s.unregisters:
            if idx < len(args):
                self.register(args[idx], c, env, ctx, idx in s.registers, via=c.spelling)

    def _params_of(self, fn: Optional[ci.Cursor]) -> list:
        if fn is None:
            return []
        return [ch for ch in fn.get_children() if ch.kind == K.PARM_DECL]

    def _callee_is_api(self, c: ci.Cursor) -> bool:
        """The call goes to the API (declared outside this file), not to a same-named function of the file."""
        ref = c.referenced
        return ref is None or not self.fe.in_file(ref) or self._body(ref) is None

    def register(self, arg: ci.Cursor, c: ci.Cursor, env: HostEnv, ctx: _Fn, on: bool, via: str = "") -> None:
        p = self.prov(arg, env, resolve=False)
        if p is not None and p.kind == PAGEABLE and p.site is not None:
            key = ("@reg", p.site)
            if on:
                env.vars[key] = Provenance(PINNED, how=via or c.spelling, site=span_of(c, self.path))
                self.registered_anywhere.add(p.site)
            else:
                env.vars.pop(key, None)
            return
        loc = self.lvalue(arg)
        if loc is not None and len(loc) == 1 and loc[0] in ctx.params:
            (ctx.registers if on else ctx.unregisters).add(ctx.params[loc[0]][0])
            return
        if loc is not None:
            env.vars[loc] = Provenance(PINNED, how=c.spelling, site=span_of(c, self.path)) if on else UNKNOWN_P

    def copy_call(self, c: ci.Cursor, name: str, args: list, env: HostEnv, ctx: _Fn) -> None:
        dst_i, src_i, kind_i, stream_i, default_kind = COPY_APIS[name]
        provs: dict[str, Optional[Provenance]] = {}
        texts: dict[str, str] = {}
        kind: Optional[int] = default_kind
        kind_text: Optional[str] = None
        if name.endswith("3DAsync"):
            parms = self.pointee(args[0]) if args else None
            if parms is not None:
                for role, member in (("src", "srcPtr"), ("dst", "dstPtr")):
                    p = env.vars.get(parms + (member, "ptr")) or env.vars.get(parms + (member,))
                    provs[role] = self._resolve(p, env) if p is not None else None
                    texts[role] = f"{_text(args[0]).lstrip('&').strip()}.{member}"
                kv = env.vars.get(parms + ("kind",))
                if kv is not None and kv.kind == "value" and kv.how.lstrip("-").isdigit():
                    kind = int(kv.how)
                    kind_text = _kind_name(name, kind)
        else:
            for role, i in (("dst", dst_i), ("src", src_i)):
                if i is not None and i < len(args):
                    provs[role] = self.prov(args[i], env)
                    texts[role] = _text(args[i])
            if kind_i is not None and kind_i < len(args) and _written(args[kind_i]):
                kind = evaluate_int(args[kind_i])
                kind_text = _text(args[kind_i]) or None
            elif default_kind is not None:
                kind_text = _kind_name(name, default_kind) + " (default)" if kind_i is not None \
                    else _kind_name(name, default_kind)
        stream = None
        if stream_i is not None and stream_i < len(args) and _written(args[stream_i]):
            stream = _text(args[stream_i]) or None
        roles = host_side(kind, "dst" in provs, "src" in provs)
        provenance = {r: (p.kind if p is not None else UNKNOWN) for r, p in provs.items()}
        self.copies.append(AsyncCopy(
            api=name, span=call_span(c, self.path), kind=kind_text, host_side=roles, provenance=provenance,
            pointer_text=texts,
            alloc_site={r: (p.site if p is not None else None) for r, p in provs.items()},
            allocation={r: p.how for r, p in provs.items() if p is not None and p.how},
            alloc_name={r: p.name for r, p in provs.items() if p is not None and p.name},
            helper={r: p.via for r, p in provs.items() if p is not None and p.via},
            registered_at={r: p.registered for r, p in provs.items() if p is not None and p.registered},
            stream=stream, function=ctx.cur.spelling if ctx.cur is not None else ""))

    # -- locations
    def lvalue(self, c: ci.Cursor) -> Optional[tuple]:
        """The location an lvalue expression names, or None."""
        c = _strip(c)
        k = c.kind
        if k == K.DECL_REF_EXPR:
            ref = c.referenced
            if ref is not None and ref.kind in (K.VAR_DECL, K.PARM_DECL):
                return (decl_key(ref),)
            return None
        if k == K.MEMBER_REF_EXPR:
            kids = [ch for ch in c.get_children() if ch.kind.is_expression()]
            if kids:
                base = self.lvalue(kids[0])
            else:
                base = (("this",),)
            return base + (c.spelling,) if base is not None else None
        if k == K.ARRAY_SUBSCRIPT_EXPR:
            kids = list(c.get_children())
            base = self.lvalue(kids[0]) if kids else None
            return base + ("[]",) if base is not None else None
        if k == K.UNARY_OPERATOR and _op(c) == "*":
            kids = list(c.get_children())
            base = self.lvalue(kids[0]) if kids else None
            return base + ("*",) if base is not None else None
        if k in _CASTS:
            kids = [ch for ch in c.get_children() if ch.kind.is_expression()]
            return self.lvalue(kids[-1]) if kids else None
        return None

    def pointee(self, c: ci.Cursor) -> Optional[tuple]:
        """The location a pointer-to-pointer expression points to: ``&p`` -> p, ``out`` -> *out."""
        c = _strip_casts(c)
        if c.kind == K.UNARY_OPERATOR and _op(c) == "&":
            kids = list(c.get_children())
            return self.lvalue(kids[0]) if kids else None
        base = self.lvalue(c)
        return base + ("*",) if base is not None else None

    # -- values
    def prov(self, c: ci.Cursor, env: HostEnv, resolve: bool = True) -> Optional[Provenance]:
        p = self._prov(c, env)
        return self._resolve(p, env) if resolve else p

    def _resolve(self, p: Optional[Provenance], env: HostEnv) -> Optional[Provenance]:
        """Pageable memory that was cudaHostRegister'ed by now is pinned."""
        if p is None or p.kind != PAGEABLE or p.site is None:
            return p
        r = env.vars.get(("@reg", p.site))
        if r is None:
            return UNKNOWN_P if p.site in self.registered_anywhere and not self._local_site(p) else p
        if r.kind == PINNED:
            return replace(p, kind=PINNED, registered=r.site)
        return UNKNOWN_P

    @staticmethod
    def _local_site(p: Provenance) -> bool:
        return p.how not in ("global array", "global variable")

    def _prov(self, c: ci.Cursor, env: HostEnv) -> Optional[Provenance]:
        c = _strip_casts(c)
        k = c.kind
        if k in (K.CXX_NULL_PTR_LITERAL_EXPR, K.GNU_NULL_EXPR):
            return NULL_P
        if k == K.INTEGER_LITERAL:
            return NULL_P if evaluate_int(c) == 0 else None
        if k == K.DECL_REF_EXPR:
            ref = c.referenced
            if ref is None:
                return None
            if ref.kind == K.VAR_DECL and ref.type.get_canonical().kind in (T.CONSTANTARRAY, T.INCOMPLETEARRAY,
                                                                             T.VARIABLEARRAY):
                return self._storage(ref)
            return env.vars.get((decl_key(ref),))
        if k in (K.MEMBER_REF_EXPR, K.ARRAY_SUBSCRIPT_EXPR) or (k == K.UNARY_OPERATOR and _op(c) == "*"):
            if k == K.MEMBER_REF_EXPR and c.type.get_canonical().kind == T.CONSTANTARRAY:
                return self._object_storage(c)
            loc = self.lvalue(c)
            return env.vars.get(loc) if loc is not None else None
        if k == K.UNARY_OPERATOR and _op(c) == "&":
            kids = list(c.get_children())
            if not kids:
                return None
            inner = _strip(kids[0])
            if inner.kind == K.ARRAY_SUBSCRIPT_EXPR:
                base = list(inner.get_children())
                return self._prov(base[0], env) if base else None
            if inner.kind == K.CALL_EXPR and inner.spelling == "operator[]":
                obj = next(iter(inner.get_children()), None)
                return self._container(obj) if obj is not None else None
            if inner.kind == K.UNARY_OPERATOR and _op(inner) == "*":
                kk = list(inner.get_children())
                return self._prov(kk[0], env) if kk else None
            return self._object_storage(inner)
        if k == K.BINARY_OPERATOR:
            kids = list(c.get_children())
            if len(kids) != 2:
                return None
            op = c.binary_operator
            B = ci.BinaryOperator
            if op in (B.Add, B.Sub):
                for i, ch in enumerate(kids):
                    if op == B.Sub and i == 1:
                        break
                    if _is_pointerish(ch):
                        return self._prov(ch, env)
                return None
            if op in (B.Comma, B.Assign):
                return self._prov(kids[1], env)
            return None
        if k == K.CONDITIONAL_OPERATOR:
            kids = list(c.get_children())
            if len(kids) != 3:
                return None
            a, b = self._prov(kids[1], env), self._prov(kids[2], env)
            if a is None or b is None:
                return None
            return _merge1(a, b)
        if k == K.CXX_NEW_EXPR:
            toks = [t.spelling for t in c.get_tokens()]
            if len(toks) > 1 and toks[1] == "(" and "nothrow" not in toks[:6]:
                return None  # placement new: the memory is the placement argument's
            depth, array = 0, False
            for t in toks[1:]:
                if t in "({":
                    depth += 1
                elif t in ")}":
                    depth -= 1
                elif t == "[" and depth == 0:
                    array = True
                    break
            return Provenance(PAGEABLE, how="new[]" if array else "new", site=span_of(c, self.path))
        if k == K.CALL_EXPR:
            name = c.spelling
            args = list(c.get_arguments())
            if name in MALLOCS and self._callee_is_api(c):
                return Provenance(PAGEABLE, how=name, site=span_of(c, self.path))
            if name == "data" and not args:
                obj = next((ch for ch in c.get_children() if ch.kind == K.MEMBER_REF_EXPR), None)
                base = next(iter(obj.get_children()), None) if obj is not None else None
                return self._container(base) if base is not None else None
            if name == "make_cudaPitchedPtr" and args:
                return self._prov(args[0], env)
            s = self.summary(c.referenced)
            if s is not None:
                return s.returns
            return None
        return None

    def _container(self, obj: ci.Cursor) -> Optional[Provenance]:
        """``v.data()`` / ``&v[0]`` of a local ``std::vector`` (std::allocator) or ``std::array``."""
        obj = _strip(obj)
        if obj.kind != K.DECL_REF_EXPR or obj.referenced is None or obj.referenced.kind != K.VAR_DECL:
            return None
        ref = obj.referenced
        t = ref.type.get_canonical()
        if t.kind == T.LVALUEREFERENCE or not _is_local(ref):
            return None
        sp = t.spelling
        if re.match(r"(const\s+)?std::(__\d+::)?vector<", sp):
            if "allocator" in sp and not re.search(r"std::(__\d+::)?allocator<", sp):
                return None
            return Provenance(PAGEABLE, how="std::vector", site=span_of(ref, self.path), name=ref.spelling)
        if re.match(r"(const\s+)?std::(__\d+::)?array<", sp):
            return Provenance(PAGEABLE, how="std::array", site=span_of(ref, self.path), name=ref.spelling)
        return None

    def _storage(self, ref: ci.Cursor) -> Optional[Provenance]:
        """The memory of a variable itself (an array used as a pointer, or ``&x``)."""
        attrs = {ch.kind for ch in ref.get_children()}
        if self._managed(ref):
            return Provenance(MANAGED, how="__managed__ variable", site=span_of(ref, self.path), name=ref.spelling)
        if attrs & {K.CUDADEVICE_ATTR, K.CUDACONSTANT_ATTR, K.CUDASHARED_ATTR}:
            return Provenance(DEVICE, how="device variable", site=span_of(ref, self.path), name=ref.spelling)
        if not self.fe.in_file(ref):
            return None
        if ref.kind == K.PARM_DECL:
            return None
        is_array = ref.type.get_canonical().kind in (T.CONSTANTARRAY, T.INCOMPLETEARRAY, T.VARIABLEARRAY)
        if _is_local(ref):
            if ref.storage_class == ci.StorageClass.STATIC:
                how = "static array" if is_array else "static variable"
            else:
                how = "stack array" if is_array else "local variable"
        else:
            how = "global array" if is_array else "global variable"
        return Provenance(PAGEABLE, how=how, site=span_of(ref, self.path), name=ref.spelling)

    def _managed(self, ref: ci.Cursor) -> bool:
        """``__managed__`` is not exposed as an attribute by libclang: read the declaration's line."""
        if not self.fe.in_file(ref):
            return False
        lines = self.fe.text.splitlines()
        line = ref.location.line
        if not 1 <= line <= len(lines):
            return False
        head = lines[line - 1][:max(ref.location.column - 1, 0)]
        return "__managed__" in head or "managed" in head and "__attribute__" in head

    def _object_storage(self, c: ci.Cursor) -> Optional[Provenance]:
        """``&x``, ``&s.field``, ``s.arr``: the storage of the root object when it is a variable."""
        c = _strip(c)
        while c.kind == K.MEMBER_REF_EXPR:
            kids = [ch for ch in c.get_children() if ch.kind.is_expression()]
            if not kids:
                return None
            base = _strip(kids[0])
            if base.type.get_canonical().kind == T.POINTER:
                return None  # p->field: the memory p points to
            c = base
        if c.kind == K.DECL_REF_EXPR and c.referenced is not None and c.referenced.kind == K.VAR_DECL:
            if c.referenced.type.get_canonical().kind == T.LVALUEREFERENCE:
                return None
            return self._storage(c.referenced)
        return None


def _merge1(a: Provenance, b: Provenance) -> Provenance:
    if a == b:
        return a
    if a.kind == NULL:
        return b
    if b.kind == NULL:
        return a
    if (a.kind, a.site) == (b.kind, b.site):
        return a
    return UNKNOWN_P


def _loc(fn: str, loc: ci.SourceLocation) -> tuple[Optional[int], int, int]:
    f, line, col, off = ctypes.c_void_p(), ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
    getattr(ci.conf.lib, fn)(loc, ctypes.byref(f), ctypes.byref(line), ctypes.byref(col), ctypes.byref(off))
    return f.value, line.value, col.value


def call_span(c: ci.Cursor, path: str) -> Span:
    """The source range of a call; inside a macro argument (``CHECK(cudaMemcpyAsync(...))``) the range of
    the call as written in the argument, not the empty range of the macro's expansion point."""
    sp = span_of(c, path)
    if (sp.line, sp.column) != (sp.end_line, sp.end_column):
        return sp
    try:
        fe, _, _ = _loc("clang_getExpansionLocation", c.extent.start)
        f1, l1, c1 = _loc("clang_getSpellingLocation", c.extent.start)
        f2, l2, c2 = _loc("clang_getSpellingLocation", c.extent.end)
    except Exception:  # pragma: no cover - bindings without these entry points
        return sp
    if fe and f1 == fe == f2 and (l1, c1) >= (sp.line, sp.column) and (l2, c2) > (l1, c1):
        return Span(path, l1, c1, l2, c2)
    return sp


def _unwrap_ctor(c: ci.Cursor) -> ci.Cursor:
    """``Buf c = b`` is a copy-constructor call on ``b``: return ``b``."""
    c = _strip(c)
    while c.kind == K.CALL_EXPR and c.referenced is not None and c.referenced.kind == K.CONSTRUCTOR:
        args = list(c.get_arguments())
        if len(args) != 1:
            break
        c = _strip(args[0])
    return c


def _strip_casts(c: ci.Cursor) -> ci.Cursor:
    while True:
        c = _strip(c)
        if c.kind in _CASTS or (c.kind == K.UNEXPOSED_EXPR and len(list(c.get_children())) == 1):
            kids = [ch for ch in c.get_children() if ch.kind.is_expression()]
            if not kids:
                return c
            c = kids[-1]
            continue
        return c


def _op(c: ci.Cursor) -> str:
    toks = list(c.get_tokens())
    return toks[0].spelling if toks else ""


def _is_pointerish(c: ci.Cursor) -> bool:
    return c.type.get_canonical().kind in (T.POINTER, T.CONSTANTARRAY, T.INCOMPLETEARRAY, T.VARIABLEARRAY)


def _is_local(ref: ci.Cursor) -> bool:
    p = ref.semantic_parent
    return p is not None and p.kind in _FUNCS | {K.LAMBDA_EXPR}


def _text(c: ci.Cursor) -> str:
    """The source text of an expression, tokens re-joined: ``h_buf + off``, ``&v[0]``, ``v.data()``."""
    out = ""
    for t in (t.spelling for t in c.get_tokens()):
        if out and (out[-1].isalnum() or out[-1] == "_") and (t[0].isalnum() or t[0] == "_"):
            out += " "
        elif out and t in ("+", "-", "?", ":", "=", "<<", ">>", "%", "/"):
            out += " " + t + " "
            continue
        elif t == ",":
            out += ", "
            continue
        out += t
    return re.sub(r"\s+", " ", out).strip()


def _written(a: ci.Cursor) -> bool:
    """An argument written in the call (not a default argument, which has no source range)."""
    return a.extent.start.line > 0 and a.extent.start.file is not None


def _kind_name(api: str, kind: int) -> str:
    prefix = "hipMemcpy" if api.startswith("hip") else "cudaMemcpy"
    return prefix + KIND_NAMES.get(kind, str(kind))


def collect_async_copies(root: ci.Cursor, fe) -> list[AsyncCopy]:
    """The async copies of the file's host functions, with the provenance of their pointers."""
    return HostAnalysis(root, fe).run()


def provenances(root: ci.Cursor, fe, function: str) -> dict[str, Provenance]:
    """For tests and ``explain``: the provenance of each named pointer variable at the end of ``function``."""
    ha = HostAnalysis(root, fe)
    ha.run()
    fn = next(f for f in ha.functions if f.spelling == function)
    _, env = ha.walk_function(fn, record=False)
    names: dict[str, Provenance] = {}
    for loc, p in env.vars.items():
        if loc[0] == "@reg" or not isinstance(loc[0], tuple) or len(loc[0]) != 4:
            continue
        label = loc[0][3] + "".join("." + s if s not in ("[]", "*") else s for s in loc[1:])
        names[label] = ha._resolve(p, env)
    return names
