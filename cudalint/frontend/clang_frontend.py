"""The clang front-end: libclang (``clang.cindex`` from the libclang-ng wheel) -> :mod:`cudalint.model`.

The file is parsed as CUDA device code for sm_90 with cudalint's own shim headers (never the CUDA
toolkit's), libc++ from the wheel, and ``KeepGoing`` so that an ``#include`` that cannot be found is
skipped instead of stopping the parse.  Kernel bodies are then interpreted abstractly: every integer
value becomes a sympy expression of threadIdx/blockIdx/blockDim/gridDim, parameters, loop trip counters
and opaque values, and every load/store through a pointer or array becomes an :class:`~cudalint.model.Access`.
"""

from __future__ import annotations

import ctypes
import os
import sys
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Union

import sympy
import clang.cindex as ci

from ..analysis.symbols import BUILTINS, WARP_SIZE, Symbols
from ..model import (
    Access, AddressSpace, ArrayDecl, Barrier, Division, Exit, Kernel, LaunchSite, Span, TranslationUnitModel,
)

K = ci.CursorKind
SHIMS = Path(__file__).with_name("shims")
PARSE_OPTIONS = 0x01 | 0x200  # DetailedPreprocessingRecord | KeepGoing
MAX_INLINE_DEPTH = 4
#: Python recursion allowed while interpreting a kernel (long generated expressions nest deeply; a
#: deeper one becomes CL000, and the worker process isolates any native stack overflow).
RECURSION_LIMIT = 12_000

_lib = ci.conf.lib
_lib.clang_Cursor_Evaluate.argtypes = [ci.Cursor]
_lib.clang_Cursor_Evaluate.restype = ctypes.c_void_p
_lib.clang_EvalResult_getKind.argtypes = [ctypes.c_void_p]
_lib.clang_EvalResult_getKind.restype = ctypes.c_int
_lib.clang_EvalResult_getAsLongLong.argtypes = [ctypes.c_void_p]
_lib.clang_EvalResult_getAsLongLong.restype = ctypes.c_longlong
_lib.clang_EvalResult_dispose.argtypes = [ctypes.c_void_p]


def _fast_is_null(self: ci.Cursor) -> bool:
    """``Cursor.is_null`` without a round trip into libclang.

    The bindings guard every cursor property with ``is_null()``, implemented as ``clang_equalCursors``
    against the null cursor (kind CXCursor_InvalidFile = 70, null data): a ctypes call per property access
    that was the largest single cost of linting (profiled on a 10,000-line file).  The null cursor is
    recognised here from the same fields."""
    return self._kind_id == 70 and not self.data[0] and not self.data[1] and not self.data[2]


ci.Cursor.is_null = _fast_is_null  # type: ignore[method-assign]


def libcxx_dir() -> Path:
    return Path(ci.__file__).parent / "native" / "libcxx"


def base_args() -> list[str]:
    """The clang arguments every file is parsed with (see module docstring)."""
    return [
        "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90", "-nocudainc", "-nocudalib",
        "--cuda-path=/nonexistent/cudalint", "-std=c++17", "-ferror-limit=0", "-w",
        "-nostdinc++", "-isystem", str(libcxx_dir()), "-isystem", str(SHIMS),
        "-include", "cudalint_prelude.h", "-idirafter", str(SHIMS / "fallback"),
    ]


def evaluate_int(c: ci.Cursor) -> Optional[int]:
    """Constant-fold an expression cursor with clang (macros, enums, constexpr); None if not constant."""
    try:
        r = _lib.clang_Cursor_Evaluate(c)
    except Exception:  # pragma: no cover - defensive: libclang raising on odd cursors
        return None
    if not r:
        return None
    try:
        if _lib.clang_EvalResult_getKind(r) != 1:  # CXEval_Int
            return None
        return int(_lib.clang_EvalResult_getAsLongLong(r))
    finally:
        _lib.clang_EvalResult_dispose(r)


def span_of(c: ci.Cursor, path: str) -> Span:
    s, e = c.extent.start, c.extent.end
    return Span(path, s.line, s.column, e.line, e.column)


def file_of(c: ci.Cursor) -> Optional[str]:
    f = c.location.file
    return f.name if f else None


# --- values the interpreter computes -------------------------------------------------------------

@dataclass(frozen=True)
class Pointer:
    """A pointer (or array) value: base array, byte offset expression, pointee size and remaining dims."""

    array: ArrayDecl
    offset: sympy.Expr
    elem_size: int
    dims: tuple = ()  # remaining inner extents for multi-dim arrays: (C,) for T a[R][C] after a[i]
    subscripts: tuple = ()


Value = Union[sympy.Expr, Pointer, None]


@dataclass
class Env:
    vars: dict = field(default_factory=dict)

    def copy(self) -> "Env":
        return Env(dict(self.vars))


def decl_key(c: ci.Cursor):
    loc = c.location
    return (loc.file.name if loc.file else "", loc.line, loc.column, c.spelling)


def _type_size(t: ci.Type, tmap: dict[str, int]) -> Optional[int]:
    canon = t.get_canonical()
    n = canon.get_size()
    if n and n > 0:
        return n
    name = t.spelling.replace("const ", "").replace("volatile ", "").strip()
    return tmap.get(name) or tmap.get(canon.spelling.replace("const ", "").strip())


def _strip(c: ci.Cursor) -> ci.Cursor:
    """Skip implicit casts and parentheses."""
    while c.kind in (K.UNEXPOSED_EXPR, K.PAREN_EXPR):
        kids = [k for k in c.get_children()]
        if len(kids) != 1:
            break
        c = kids[0]
    return c


class KernelInterpreter:
    """Abstract interpretation of one kernel body (and the device functions it calls)."""

    def __init__(self, fe: "ClangFrontend", kernel: Kernel, tmap: dict[str, int]):
        self.fe = fe
        self.kernel = kernel
        self.symbols = fe.symbols
        self.tmap = tmap
        self.guards: list[object] = []
        self.depth = 0
        self.returns: list[Value] = []
        self.loops: list[int] = []          # ids of the enclosing loops
        self.breakable: list[str] = []      # 'loop' / 'switch': what a `break` leaves
        self.call_chain: list[tuple[str, int]] = []
        self.order = 0
        self._call_line = 0

    def push_guard(self, value: Value, c: ci.Cursor) -> None:
        """Enter a condition (if/switch/?:/loop) whose value is ``value``; its line is kept for messages."""
        self.guards.append((value, c.location.line))

    def pop_guard(self) -> None:
        self.guards.pop()

    def tick(self) -> int:
        self.order += 1
        return self.order

    def barrier(self, name: str, c: ci.Cursor) -> None:
        self.kernel.barriers.append(Barrier(name, span_of(c, self.fe.path), tuple(self.guards),
                                            tuple(self.loops), self.tick(), tuple(self.call_chain)))

    def exit(self, kind: str, c: ci.Cursor) -> None:
        loops = tuple(self.loops)
        if kind == "break" and self.breakable and self.breakable[-1] == "switch":
            return  # leaves a switch, not a loop
        self.kernel.exits.append(Exit(kind, span_of(c, self.fe.path), tuple(self.guards), loops, self.tick()))

    # ---- helpers
    def opaque(self, hint: str, *deps: Value) -> sympy.Symbol:
        varying = any(isinstance(d, sympy.Basic) and self.symbols.is_varying(d) for d in deps) or \
            any(isinstance(d, Pointer) and self.symbols.is_varying(d.offset) for d in deps) or \
            any(d is None for d in deps)
        return self.symbols.opaque(hint, varying)

    def incomplete(self, c: ci.Cursor, reason: str) -> None:
        msg = f"line {c.location.line}: {reason}"
        if msg not in self.kernel.incomplete:
            self.kernel.incomplete.append(msg)

    # ---- statements
    def stmt(self, c: ci.Cursor, env: Env) -> None:
        k = c.kind
        if k == K.COMPOUND_STMT:
            for ch in c.get_children():
                self.stmt(ch, env)
        elif k == K.DECL_STMT:
            for d in c.get_children():
                if d.kind == K.VAR_DECL:
                    self.var_decl(d, env)
        elif k == K.IF_STMT:
            kids = list(c.get_children())
            # children: [init-decl?] cond then [else]
            if kids and kids[0].kind == K.DECL_STMT and len(kids) > 2:
                self.stmt(kids[0], env)
                kids = kids[1:]
            cond = self.expr(kids[0], env)
            self.push_guard(cond, c)
            e_then = env.copy()
            self.stmt(kids[1], e_then)
            e_else = env.copy()
            if len(kids) > 2:
                self.stmt(kids[2], e_else)
            self.pop_guard()
            self.merge(env, [e_then, e_else], cond, c)
        elif k in (K.FOR_STMT, K.WHILE_STMT, K.DO_STMT, K.CXX_FOR_RANGE_STMT):
            self.loop(c, env)
        elif k == K.SWITCH_STMT:
            kids = list(c.get_children())
            cond = self.expr(kids[0], env)
            self.push_guard(cond, c)
            self.breakable.append("switch")
            inner = env.copy()
            for ch in kids[1:]:
                self.stmt(ch, inner)
            self.breakable.pop()
            self.pop_guard()
            self.merge(env, [inner, env.copy()], cond, c)
        elif k in (K.CASE_STMT, K.DEFAULT_STMT, K.LABEL_STMT):
            kids = list(c.get_children())
            if kids:
                self.stmt(kids[-1], env)
        elif k == K.RETURN_STMT:
            kids = list(c.get_children())
            self.returns.append(self.expr(kids[0], env) if kids else None)
            if self.depth == 0:
                self.exit("return", c)
        elif k in (K.BREAK_STMT, K.CONTINUE_STMT, K.GOTO_STMT):
            self.exit({K.BREAK_STMT: "break", K.CONTINUE_STMT: "continue", K.GOTO_STMT: "goto"}[k], c)
        elif k in (K.NULL_STMT, K.ASM_STMT):
            if k == K.ASM_STMT:
                text = " ".join(t.spelling for t in c.get_tokens())
                if "bar.sync" in text or "barrier.sync" in text or "bar.red" in text:
                    self.barrier("bar.sync", c)
        else:
            self.expr(c, env)

    def var_decl(self, d: ci.Cursor, env: Env) -> None:
        t = d.type.get_canonical()
        kids = list(d.get_children())
        attrs = {ch.kind for ch in kids}
        if t.kind in (ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY):
            space = AddressSpace.SHARED if K.CUDASHARED_ATTR in attrs else (
                AddressSpace.CONSTANT if K.CUDACONSTANT_ATTR in attrs else AddressSpace.LOCAL)
            arr = self.fe.array_decl(d, space, self.tmap)
            if arr is not None:
                env.vars[decl_key(d)] = Pointer(arr, sympy.Integer(0), arr.elem_size, arr.dims[1:])
            return
        init = [ch for ch in kids if ch.kind not in (K.TYPE_REF, K.NAMESPACE_REF, K.TEMPLATE_REF)
                and not ch.kind.is_attribute()]
        val: Value = None
        if init:
            val = self.expr(init[-1], env)
            if t.kind == ci.TypeKind.POINTER and isinstance(val, Pointer):
                psize = _type_size(t.get_pointee(), self.tmap)
                if psize and psize != val.elem_size:
                    val = Pointer(val.array, val.offset, psize, (), ())
        if val is None:
            val = self.symbols.opaque(d.spelling, varying=bool(init))
        if t.kind == ci.TypeKind.LVALUEREFERENCE:
            val = self.symbols.opaque(d.spelling, varying=True)
        env.vars[decl_key(d)] = val

    def merge(self, env: Env, branches: list[Env], cond: Value, c: ci.Cursor) -> None:
        keys = set()
        for b in branches:
            keys |= set(b.vars)
        for key in keys:
            vals = [b.vars.get(key) for b in branches]
            if all(v == vals[0] for v in vals) and key in env.vars or (key not in env.vars and len(set(map(id, vals))) == 1):
                env.vars[key] = vals[0]
                continue
            if all(isinstance(v, sympy.Basic) and v == vals[0] for v in vals):
                env.vars[key] = vals[0]
                continue
            if all(isinstance(v, Pointer) for v in vals) and len({v.array.name for v in vals}) == 1 \
                    and all(v.offset == vals[0].offset for v in vals):
                env.vars[key] = vals[0]
                continue
            env.vars[key] = self.opaque(str(key[3]), cond, *vals)

    def loop_updates(self, roots: list[ci.Cursor]) -> dict:
        """One walk over a loop's body and increment: for every local variable assigned there, the list of
        its updates as ``(form, node, rhs, op)``, form being "assign", "compound" or "incdec"
        (``op``: the compound operator, or +1/-1 for ``++``/``--``)."""
        out: dict = {}
        B = ci.BinaryOperator
        for root in roots:
            for n in root.walk_preorder():
                k = n.kind
                if k == K.COMPOUND_ASSIGNMENT_OPERATOR or (k == K.BINARY_OPERATOR and n.binary_operator == B.Assign):
                    lhs, rhs = list(n.get_children())
                    lhs = _strip(lhs)
                    if lhs.kind == K.DECL_REF_EXPR and lhs.referenced is not None:
                        form = "compound" if k == K.COMPOUND_ASSIGNMENT_OPERATOR else "assign"
                        op = n.binary_operator if form == "compound" else None
                        out.setdefault(decl_key(lhs.referenced), []).append((form, n, rhs, op))
                elif k == K.UNARY_OPERATOR:
                    toks = [t.spelling for t in n.get_tokens()]
                    if toks and (toks[0] in ("++", "--") or toks[-1] in ("++", "--")):
                        kids = list(n.get_children())
                        lhs = _strip(kids[0]) if kids else None
                        if lhs is not None and lhs.kind == K.DECL_REF_EXPR and lhs.referenced is not None:
                            delta = 1 if "++" in (toks[0], toks[-1]) else -1
                            out.setdefault(decl_key(lhs.referenced), []).append(("incdec", n, None, delta))
        return out

    def induction_step(self, updates: list, env: Env, modified: set) -> Optional[sympy.Expr]:
        """If every update adds a loop-invariant amount (``+=``, ``-=``, ``++``, ``--``), return it."""
        step = None
        B = ci.BinaryOperator
        for form, _n, rhs, op in updates:
            if form == "assign":
                return None
            if form == "incdec":
                upd = sympy.Integer(op)
            else:
                if op not in (B.AddAssign, B.SubAssign) or self.refs(rhs) & modified:
                    return None
                v = self.expr(rhs, env.copy(), record=False)
                if not isinstance(v, sympy.Basic):
                    return None
                upd = v if op == B.AddAssign else -v
            if step is not None and step != upd:
                return None
            step = upd
        return step

    def pow2_updates(self, updates: list, key) -> bool:
        """Whether every update keeps a power of two a power of two
        (``*= 2``, ``<<= 1``, ``>>= 1``, ``/= 2``, ``v = v * 2``...)."""
        B = ci.BinaryOperator
        for form, _n, rhs, op in updates:
            if form == "compound":
                v = evaluate_int(rhs)
                if op in (B.ShlAssign, B.ShrAssign) and v is not None:
                    continue
                if op in (B.MulAssign, B.DivAssign) and v is not None and v > 0 and v & (v - 1) == 0:
                    continue
                return False
            if form == "assign":
                r = _strip(rhs)
                if r.kind == K.BINARY_OPERATOR and r.binary_operator in (B.Mul, B.Div, B.Shl, B.Shr):
                    a, b = list(r.get_children())
                    a = _strip(a)
                    bv = evaluate_int(b)
                    if a.kind == K.DECL_REF_EXPR and a.referenced is not None and decl_key(a.referenced) == key \
                            and bv is not None and bv > 0 and (r.binary_operator in (B.Shl, B.Shr) or bv & (bv - 1) == 0):
                        continue
                return False
            if form == "incdec":
                return False
        return True

    def refs(self, c: ci.Cursor) -> set:
        return {decl_key(n.referenced) for n in c.walk_preorder()
                if n.kind == K.DECL_REF_EXPR and n.referenced is not None}

    def loop_parts(self, c: ci.Cursor):
        """Split a for statement's children into (init, cond, inc, body) using the header's ';'."""
        kids = list(c.get_children())
        body = kids[-1]
        if c.kind != K.FOR_STMT:
            return [], [k for k in kids[:-1]], [], body
        semis, depth = [], 0
        for t in c.get_tokens():
            if t.spelling == "(":
                depth += 1
            elif t.spelling == ")":
                depth -= 1
                if depth == 0:
                    break
            elif t.spelling == ";" and depth == 1:
                semis.append(t.extent.start.offset)
        init, cond, inc = [], [], []
        for ch in kids[:-1]:
            off = ch.extent.start.offset
            if len(semis) >= 1 and off < semis[0]:
                init.append(ch)
            elif len(semis) >= 2 and off < semis[1]:
                cond.append(ch)
            else:
                inc.append(ch)
        return init, cond, inc, body

    def loop(self, c: ci.Cursor, env: Env) -> None:
        init, cond, inc, body = self.loop_parts(c)
        if c.kind == K.DO_STMT:
            kids = list(c.get_children())
            body, cond = kids[0], kids[1:]
        for s in init:
            self.stmt(s, env)
        updates = self.loop_updates(inc + [body])
        modified = set(updates)
        trip = self.symbols.trip(c.location.line)
        loop_env = env.copy()
        pow2_loop_vars: list = []
        for key in modified:
            if key not in env.vars:
                continue
            v0 = env.vars[key]
            if not isinstance(v0, sympy.Basic):
                loop_env.vars[key] = self.opaque(str(key[3]), v0)
                continue
            step = self.induction_step(updates[key], env, modified)
            if step is not None:
                loop_env.vars[key] = v0 + step * trip
            elif self.symbols.is_pow2(v0) and self.pow2_updates(updates[key], key):
                sym = self.symbols.opaque(str(key[3]), varying=self.symbols.is_varying(v0), pow2=True)
                loop_env.vars[key] = sym
                doubling = updates[key][0][3] in (ci.BinaryOperator.MulAssign, ci.BinaryOperator.ShlAssign) \
                    or updates[key][0][0] == "assign" and _strip(updates[key][0][2]).binary_operator in (
                        ci.BinaryOperator.Mul, ci.BinaryOperator.Shl)
                pow2_loop_vars.append((sym, v0, 2 if doubling else -2))
            else:
                loop_env.vars[key] = self.symbols.opaque(str(key[3]), varying=True)
        # Second pass: a non-induction variable stays uniform when every value assigned to it is.
        probe = loop_env.copy()
        for key in modified:
            if key in env.vars and isinstance(loop_env.vars.get(key), sympy.Symbol) \
                    and loop_env.vars[key] in self.symbols.varying and loop_env.vars[key] not in self.symbols.pow2:
                if not self.symbols.is_varying(env.vars[key]) and not self._assigned_varying(updates[key], key, probe, modified):
                    u = self.symbols.opaque(str(key[3]), varying=False)
                    loop_env.vars[key] = u
        if c.kind == K.CXX_FOR_RANGE_STMT:
            for ch in c.get_children():
                if ch.kind == K.VAR_DECL:
                    loop_env.vars[decl_key(ch)] = self.symbols.opaque(ch.spelling, varying=True)
        cond_val = None
        for x in cond:
            cond_val = self.expr(x, loop_env)
        for sym, v0, factor in pow2_loop_vars:
            if isinstance(v0, sympy.Integer) and _is_condition(cond_val):
                # the trips' values are known once blockDim is (enumerated by the warp model)
                self.symbols.pow2_loops[sym] = (int(v0), factor, cond_val)
        if cond_val is None and not cond and c.kind != K.CXX_FOR_RANGE_STMT:
            cond_val = sympy.Integer(1)  # for (;;): exits only through break/return
        self.push_guard(cond_val, c)
        self.loops.append(self.tick())
        self.breakable.append("loop")
        self.stmt(body, loop_env)
        for x in inc:
            self.expr(x, loop_env)
        self.breakable.pop()
        self.loops.pop()
        self.pop_guard()
        for key in modified:
            if key in env.vars:
                env.vars[key] = self.opaque(str(key[3]), loop_env.vars.get(key), env.vars[key])

    def _assigned_varying(self, updates: list, key, env: Env, modified) -> bool:
        """Whether any value assigned in ``updates`` is thread-varying (evaluated once, with every modified
        variable taken as uniform unless it starts varying)."""
        for form, _n, rhs, _op in updates:
            if form == "incdec":
                continue
            v = self.expr(rhs, env.copy(), record=False)
            if v is None or (isinstance(v, sympy.Basic) and self.symbols.is_varying(v)):
                # varying only because of another modified var that is itself uniform?
                deps = self.refs(rhs) & modified
                if v is not None and deps and all(not self.symbols.is_varying(env.vars[d])
                                                  for d in deps if d in env.vars and d != key):
                    continue
                return True
        return False

    # ---- expressions
    def expr(self, c: ci.Cursor, env: Env, mode: str = "read", record: bool = True) -> Value:
        k = c.kind
        if k in (K.UNEXPOSED_EXPR, K.PAREN_EXPR, K.CXX_FUNCTIONAL_CAST_EXPR, K.CSTYLE_CAST_EXPR,
                 K.CXX_STATIC_CAST_EXPR, K.CXX_REINTERPRET_CAST_EXPR, K.CXX_CONST_CAST_EXPR,
                 K.CXX_DYNAMIC_CAST_EXPR):
            kids = [ch for ch in c.get_children() if ch.kind not in (K.TYPE_REF, K.NAMESPACE_REF, K.TEMPLATE_REF)]
            if not kids:
                v = evaluate_int(c)
                return sympy.Integer(v) if v is not None else None
            if len(kids) > 1 and k == K.UNEXPOSED_EXPR:
                # e.g. an unresolved call: evaluate operands for their accesses
                vals = [self.expr(ch, env, record=record) for ch in kids]
                return self.opaque("call", *vals)
            v = self.expr(kids[-1], env, mode, record)
            if isinstance(v, Pointer) and not v.dims and c.type.get_canonical().kind == ci.TypeKind.POINTER:
                psize = _type_size(c.type.get_pointee(), self.tmap)
                if psize and psize != v.elem_size:
                    v = Pointer(v.array, v.offset, psize, (), v.subscripts)
            return v
        if k in (K.INTEGER_LITERAL, K.CXX_BOOL_LITERAL_EXPR, K.CHARACTER_LITERAL):
            v = evaluate_int(c)
            return sympy.Integer(v) if v is not None else None
        if k == K.FLOATING_LITERAL:
            return self.symbols.opaque("float", varying=False)
        if k == K.DECL_REF_EXPR:
            return self.decl_ref(c, env)
        if k == K.MEMBER_REF_EXPR:
            return self.member_ref(c, env, mode, record)
        if k == K.ARRAY_SUBSCRIPT_EXPR:
            return self.subscript(c, env, mode, record)
        if k == K.BINARY_OPERATOR:
            return self.binary(c, env, record)
        if k == K.COMPOUND_ASSIGNMENT_OPERATOR:
            return self.compound(c, env, record)
        if k == K.UNARY_OPERATOR:
            return self.unary(c, env, mode, record)
        if k == K.CONDITIONAL_OPERATOR:
            kids = list(c.get_children())
            cond = self.expr(kids[0], env, record=record)
            self.push_guard(cond, c)
            a = self.expr(kids[1], env, record=record)
            b = self.expr(kids[2], env, record=record)
            self.pop_guard()
            if isinstance(a, sympy.Basic) and a == b:
                return a
            return self.opaque("select", cond, a, b)
        if k == K.CALL_EXPR:
            return self.call(c, env, record)
        if k in (K.CXX_NULL_PTR_LITERAL_EXPR, K.GNU_NULL_EXPR):
            return sympy.Integer(0)
        if k in (K.INIT_LIST_EXPR, K.LAMBDA_EXPR, K.CXX_NEW_EXPR, K.CXX_DELETE_EXPR, K.CXX_THIS_EXPR):
            for ch in c.get_children():
                if k != K.LAMBDA_EXPR:
                    self.expr(ch, env, record=record)
            return self.symbols.opaque("value", varying=True)
        v = evaluate_int(c) if c.kind.is_expression() else None
        if v is not None:
            return sympy.Integer(v)
        vals = [self.expr(ch, env, record=record) for ch in c.get_children() if ch.kind.is_expression()]
        if not c.kind.is_expression():
            for ch in c.get_children():
                if ch.kind.is_statement():
                    self.stmt(ch, env)
        return self.opaque("value", *vals) if vals else self.symbols.opaque("value", varying=True)

    def decl_ref(self, c: ci.Cursor, env: Env) -> Value:
        ref = c.referenced
        name = c.spelling
        if name == "warpSize":
            return WARP_SIZE
        if ref is None:
            return None
        key = decl_key(ref)
        if key in env.vars:
            return env.vars[key]
        if ref.kind == K.ENUM_CONSTANT_DECL:
            return sympy.Integer(ref.enum_value)
        if ref.kind == K.TEMPLATE_NON_TYPE_PARAMETER:
            val = self.fe.template_values.get(name)
            return sympy.Integer(val) if val is not None else self.symbols.param(name)
        if ref.kind == K.VAR_DECL:
            arr = self.fe.globals.get(key)
            if arr is not None:
                return Pointer(arr, sympy.Integer(0), arr.elem_size, arr.dims[1:])
            v = evaluate_int(c)
            if v is not None:
                return sympy.Integer(v)
            init = [ch for ch in ref.get_children() if ch.kind.is_expression()]
            if init and ref.type.is_const_qualified():
                v = evaluate_int(init[-1])
                if v is not None:
                    return sympy.Integer(v)
            return self.symbols.opaque(name, varying=False)
        v = evaluate_int(c)
        if v is not None:
            return sympy.Integer(v)
        return self.symbols.opaque(name, varying=False)

    def member_ref(self, c: ci.Cursor, env: Env, mode: str, record: bool) -> Value:
        kids = list(c.get_children())
        member = c.spelling
        if kids:
            base = _strip(kids[0])
            if base.kind == K.DECL_REF_EXPR and base.spelling in BUILTINS and member in ("x", "y", "z"):
                return BUILTINS[base.spelling]["xyz".index(member)]
            if base.kind == K.ARRAY_SUBSCRIPT_EXPR or (base.kind == K.UNARY_OPERATOR and self._is_deref(base)):
                ptr = self.subscript(base, env, "addr", record) if base.kind == K.ARRAY_SUBSCRIPT_EXPR \
                    else self.unary(base, env, "addr", record)
                ref = c.referenced
                if isinstance(ptr, Pointer) and ref is not None and ref.kind == K.FIELD_DECL:
                    foff = ref.get_field_offsetof()
                    fsize = _type_size(ref.type, self.tmap)
                    if foff is not None and foff >= 0 and fsize:
                        fptr = Pointer(ptr.array, ptr.offset + foff // 8, fsize, (), ptr.subscripts)
                        if mode == "addr":
                            return fptr
                        if ref.type.get_canonical().kind in (ci.TypeKind.CONSTANTARRAY,):
                            et = ref.type.get_canonical().element_type
                            return Pointer(ptr.array, ptr.offset + foff // 8, _type_size(et, self.tmap) or 1, (), ())
                        return self.load(c, fptr, mode, record, field_offset=foff // 8, elem_size=ptr.elem_size)
                return self.opaque(member, ptr)
            v = self.expr(kids[0], env, record=record)
            if isinstance(v, Pointer) and c.type.get_canonical().kind == ci.TypeKind.POINTER:
                return self.opaque(member, v)
            return self.opaque(member, v)
        return self.symbols.opaque(member, varying=True)

    @staticmethod
    def _is_deref(c: ci.Cursor) -> bool:
        toks = [t.spelling for t in c.get_tokens()]
        return bool(toks) and toks[0] == "*"

    def subscript(self, c: ci.Cursor, env: Env, mode: str, record: bool) -> Value:
        base_c, idx_c = list(c.get_children())
        base = self.expr(base_c, env, record=record)
        idx = self.expr(idx_c, env, record=record)
        if isinstance(idx, Pointer):  # i[a] spelling
            base, idx = idx, base
        if not isinstance(base, Pointer):
            return self.opaque("load", base, idx)
        if not isinstance(idx, sympy.Basic):
            idx = self.symbols.opaque("index", varying=True)
        t = c.type.get_canonical()
        if base.dims:
            inner = 1
            for d in base.dims:
                inner *= d if d else 1
            esize = base.elem_size
            ptr = Pointer(base.array, base.offset + idx * inner * esize, esize, base.dims[1:],
                          base.subscripts + (idx,))
            if t.kind == ci.TypeKind.CONSTANTARRAY:
                return ptr
        else:
            esize = base.elem_size
            ptr = Pointer(base.array, base.offset + idx * esize, esize, (), base.subscripts + (idx,))
        if mode == "addr":
            return ptr
        return self.load(c, ptr, mode, record)

    def load(self, c: ci.Cursor, ptr: Pointer, mode: str, record: bool, field_offset: int = 0,
             elem_size: int = 0) -> Value:
        """Record the access at ``ptr`` (a load unless ``mode`` says store) and return the loaded value."""
        if record and ptr.array.space != AddressSpace.LOCAL:
            t = c.type.get_canonical()
            size = ptr.elem_size
            parts = [(0, size)]
            if t.kind == ci.TypeKind.RECORD and size:
                align = t.get_align()
                if align and align < size:
                    parts = []
                    for f in t.get_fields():
                        fs = _type_size(f.type, self.tmap)
                        off = f.get_field_offsetof()
                        if fs and off is not None and off >= 0:
                            parts.append((off // 8, fs))
                    parts = parts or [(0, size)]
            for off, sz in parts:
                self.kernel.accesses.append(Access(
                    array=ptr.array, offset=sympy.expand(ptr.offset + off), size=sz,
                    is_read=mode in ("read", "rw"), is_write=mode in ("write", "rw"),
                    span=span_of(c, self.fe.path), subscripts=ptr.subscripts,
                    field_offset=field_offset + off, elem_size=elem_size or ptr.elem_size, split=len(parts),
                    guards=tuple(g for g, _ in self.guards if isinstance(g, sympy.Basic)),
                ))
        if mode == "write":
            return None
        return self.opaque("load", ptr)

    def binary(self, c: ci.Cursor, env: Env, record: bool) -> Value:
        op = c.binary_operator
        B = ci.BinaryOperator
        lhs_c, rhs_c = list(c.get_children())
        if op == B.Assign:
            rhs = self.expr(rhs_c, env, record=record)
            self.assign(lhs_c, rhs, env, record, "write")
            return rhs
        if op == B.Comma:
            self.expr(lhs_c, env, record=record)
            return self.expr(rhs_c, env, record=record)
        a = self.expr(lhs_c, env, record=record)
        b = self.expr(rhs_c, env, record=record)
        if op in (B.Div, B.Rem) and record:
            self.division("/" if op == B.Div else "%", c, rhs_c, b, a)
        return self.arith(op, a, b, c)

    def division(self, op: str, c: ci.Cursor, divisor_c: ci.Cursor, b: Value, a: Value) -> None:
        t = c.type.get_canonical().kind
        T = ci.TypeKind
        if t not in (T.INT, T.LONG, T.LONGLONG, T.SHORT, T.SCHAR, T.CHAR_S, T.UINT, T.ULONG, T.ULONGLONG,
                     T.USHORT, T.UCHAR, T.CHAR_U, T.INT128, T.UINT128):
            return
        signed = t in (T.INT, T.LONG, T.LONGLONG, T.SHORT, T.SCHAR, T.CHAR_S, T.INT128)
        text = self.fe.source_text(divisor_c)
        pow2 = isinstance(b, sympy.Basic) and self.symbols.is_pow2(b)
        varying = not isinstance(a, sympy.Basic) or self.symbols.is_varying(a)
        if isinstance(a, sympy.Basic) and a.is_Integer:
            return  # folded by the compiler
        self.kernel.divisions.append(Division(op, span_of(c, self.fe.path), signed, b, pow2, text, varying))

    def arith(self, op, a: Value, b: Value, c: ci.Cursor) -> Value:
        B = ci.BinaryOperator
        if isinstance(a, Pointer) or isinstance(b, Pointer):
            if op in (B.Add, B.Sub) and isinstance(a, Pointer) and isinstance(b, sympy.Basic):
                sign = 1 if op == B.Add else -1
                return Pointer(a.array, a.offset + sign * b * a.elem_size, a.elem_size, (), ())
            if op == B.Add and isinstance(b, Pointer) and isinstance(a, sympy.Basic):
                return Pointer(b.array, b.offset + a * b.elem_size, b.elem_size, (), ())
            return self.opaque("ptr", a, b)
        if not isinstance(a, sympy.Basic) or not isinstance(b, sympy.Basic):
            return self.opaque("value", a, b)
        try:
            if op == B.Add:
                return a + b
            if op == B.Sub:
                return a - b
            if op == B.Mul:
                return a * b
            if op == B.Div:
                if b == 0:
                    return self.opaque("div", a, b)
                if b.is_Integer and b == 1:
                    return a
                return sympy.floor(a / b)
            if op == B.Rem:
                if b == 0:
                    return self.opaque("rem", a, b)
                return sympy.Mod(a, b)
            if op == B.Shl and b.is_Integer:
                return a * 2 ** int(b)
            if op == B.Shr and b.is_Integer:
                return sympy.floor(a / 2 ** int(b))
            if op == B.And and b.is_Integer and int(b) >= 0 and (int(b) + 1) & int(b) == 0:
                return sympy.Mod(a, int(b) + 1)
            if op == B.And and a.is_Integer and int(a) >= 0 and (int(a) + 1) & int(a) == 0:
                return sympy.Mod(b, int(a) + 1)
            # Conditions stay symbolic so that a guard can be evaluated per lane (active lanes) and a
            # loop bound per trip; their uniformity is that of their free symbols, as for any value.
            rel = _RELATIONS.get(getattr(op, "name", ""))
            if rel is not None and not _is_condition(a) and not _is_condition(b):
                return rel(a, b)
            if op in (B.LAnd, B.LOr) and all(_is_condition(v) or v.is_Symbol for v in (a, b)):
                return (sympy.And if op == B.LAnd else sympy.Or)(a, b)
        except (TypeError, ValueError):
            pass
        return self.opaque("value", a, b)

    def assign(self, lhs_c: ci.Cursor, rhs: Value, env: Env, record: bool, mode: str) -> None:
        lhs = _strip(lhs_c)
        if lhs.kind == K.DECL_REF_EXPR and lhs.referenced is not None:
            env.vars[decl_key(lhs.referenced)] = rhs
            return
        self.expr(lhs, env, mode=mode, record=record)

    def compound(self, c: ci.Cursor, env: Env, record: bool) -> Value:
        B = ci.BinaryOperator
        lhs_c, rhs_c = list(c.get_children())
        rhs = self.expr(rhs_c, env, record=record)
        lhs = _strip(lhs_c)
        base = {B.AddAssign: B.Add, B.SubAssign: B.Sub, B.MulAssign: B.Mul, B.DivAssign: B.Div,
                B.RemAssign: B.Rem, B.ShlAssign: B.Shl, B.ShrAssign: B.Shr, B.AndAssign: B.And,
                B.OrAssign: B.Or, B.XorAssign: B.Xor}.get(c.binary_operator)
        if c.binary_operator in (B.DivAssign, B.RemAssign) and record:
            cur = env.vars.get(decl_key(lhs.referenced)) if lhs.kind == K.DECL_REF_EXPR and lhs.referenced is not None else None
            self.division("/" if c.binary_operator == B.DivAssign else "%", c, rhs_c, rhs, cur)
        if lhs.kind == K.DECL_REF_EXPR and lhs.referenced is not None:
            key = decl_key(lhs.referenced)
            cur = env.vars.get(key, self.expr(lhs, env, record=record))
            env.vars[key] = self.arith(base, cur, rhs, c)
            return env.vars[key]
        self.expr(lhs, env, mode="rw", record=record)
        return self.opaque("value", rhs)

    def unary(self, c: ci.Cursor, env: Env, mode: str, record: bool) -> Value:
        toks = [t.spelling for t in c.get_tokens()]
        kids = list(c.get_children())
        if not kids:
            return None
        op = toks[0] if toks else ""
        postfix = toks[-1] if toks else ""
        if op in ("++", "--") or postfix in ("++", "--"):
            lhs = _strip(kids[0])
            delta = 1 if "++" in (op, postfix) else -1
            if lhs.kind == K.DECL_REF_EXPR and lhs.referenced is not None:
                key = decl_key(lhs.referenced)
                cur = env.vars.get(key, self.expr(lhs, env, record=record))
                new = self.arith(ci.BinaryOperator.Add, cur, sympy.Integer(delta), c)
                env.vars[key] = new
                return new if op in ("++", "--") else cur
            self.expr(lhs, env, mode="rw", record=record)
            return self.symbols.opaque("value", varying=True)
        if op == "&":
            inner = _strip(kids[0])
            if inner.kind in (K.ARRAY_SUBSCRIPT_EXPR, K.MEMBER_REF_EXPR):
                return self.expr(inner, env, mode="addr", record=record)
            v = self.expr(inner, env, record=record)
            return v if isinstance(v, Pointer) else self.opaque("addr", v)
        if op == "*":
            p = self.expr(kids[0], env, record=record)
            if isinstance(p, Pointer):
                if mode == "addr":
                    return p
                return self.load(c, p, mode, record)
            return self.opaque("load", p)
        v = self.expr(kids[0], env, record=record)
        if op == "!" and _is_condition(v):
            return sympy.Not(v)
        if op == "-" and isinstance(v, sympy.Basic):
            return -v
        if op == "+" and isinstance(v, sympy.Basic):
            return v
        return self.opaque("value", v)

    def call(self, c: ci.Cursor, env: Env, record: bool) -> Value:
        name = c.spelling
        kids = list(c.get_children())
        args = list(c.get_arguments())
        if not name and kids:
            # A call in a template's written form (dependent): callee and operands are plain children.
            for i, kid in enumerate(kids):
                ref = next((n for n in kid.walk_preorder() if n.kind == K.OVERLOADED_DECL_REF), None)
                if kid.kind == K.DECL_REF_EXPR and ref is not None:
                    name = ref.spelling
                    args = kids[:i] + kids[i + 1:]
                    break
            else:
                args = kids[1:]
        if name in ("__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or"):
            for a in args:
                self.expr(a, env, record=record)
            if record:
                self.barrier(name, c)
            return self.symbols.opaque(name, varying=False)
        if name == "sync" and self._is_group_sync(c, args):
            if record:
                self.barrier("cooperative_groups sync", c)
            return None
        if name.startswith("operator") and name[8:].strip() in ("=", "+=", "-=", "*=", "/=") and len(args) == 2:
            rhs = self.expr(args[1], env, record=record)
            mode = "write" if name[8:].strip() == "=" else "rw"
            lhs = _strip(args[0])
            if lhs.kind == K.DECL_REF_EXPR and lhs.referenced is not None and mode == "write":
                env.vars[decl_key(lhs.referenced)] = rhs
            else:
                self.expr(lhs, env, mode=mode, record=record)
            return rhs
        binop = _OPERATORS.get(name[8:].strip()) if name.startswith("operator") else None
        if binop is not None and len(args) == 2:
            a = self.expr(args[0], env, record=record)
            b = self.expr(args[1], env, record=record)
            return self.arith(binop, a, b, c)
        if name in ("__ldg", "__ldca", "__ldcg", "__ldcs", "__ldlu", "__ldcv") and args:
            p = self.expr(args[0], env, record=record)
            if isinstance(p, Pointer):
                return self.load(c, p, "read", record)
            return self.opaque("load", p)
        vals = [self.expr(a, env, record=record) for a in args]
        if name in ("min", "max", "umin", "umax") and len(vals) == 2 and all(isinstance(v, sympy.Basic) for v in vals):
            return (sympy.Min if "min" in name else sympy.Max)(*vals)
        if name == "dim3" or (c.type.spelling in ("dim3", "uint3")):
            return self.opaque("dim3", *vals)
        ref = c.referenced
        if ref is not None and self.depth < MAX_INLINE_DEPTH:
            body = self.fe.device_function_body(ref)
            if body is not None:
                self._call_line = c.location.line
                return self.inline(ref, body, vals, env)
        if not kids:
            return None
        callee_varies = name in ("atomicAdd", "atomicSub", "atomicExch", "atomicMin", "atomicMax",
                                 "atomicInc", "atomicDec", "atomicCAS", "atomicAnd", "atomicOr",
                                 "atomicXor", "clock", "clock64", "__activemask")
        if callee_varies:
            return self.symbols.opaque(name, varying=True)
        return self.opaque(name or "call", *vals) if vals else self.symbols.opaque(name or "call", varying=False)

    @staticmethod
    def _is_group_sync(c: ci.Cursor, args: list) -> bool:
        """``block.sync()``, ``this_thread_block().sync()``, ``cg::sync(block)``, ``grid.sync()`` — a
        whole-block (or grid) barrier; tile and coalesced-group syncs are warp-level and not counted."""
        operands = list(args)
        for ch in c.get_children():
            if ch.kind == K.MEMBER_REF_EXPR:
                operands += [k for k in ch.get_children()]
        for o in operands:
            t = o.type.get_canonical().spelling.replace("const ", "").replace("&", "").strip()
            t = t.split("::")[-1]
            if t in ("thread_block", "grid_group", "cluster_group"):
                return True
        return False

    def inline(self, fn: ci.Cursor, body: ci.Cursor, vals: list[Value], env: Env) -> Value:
        callee_env = Env({})
        params = [p for p in fn.get_children() if p.kind == K.PARM_DECL]
        for p, v in zip(params, vals):
            if isinstance(v, Pointer) and p.type.get_canonical().kind == ci.TypeKind.POINTER:
                psize = _type_size(p.type.get_pointee(), self.tmap)
                if psize and psize != v.elem_size:
                    v = Pointer(v.array, v.offset, psize, (), ())
            callee_env.vars[decl_key(p)] = v if v is not None else self.symbols.opaque(p.spelling, varying=True)
        saved = self.returns
        self.returns = []
        self.depth += 1
        self.call_chain.append((fn.spelling, self._call_line))
        saved_break = self.breakable
        self.breakable = []
        try:
            self.stmt(body, callee_env)
        finally:
            self.depth -= 1
            self.call_chain.pop()
            self.breakable = saved_break
            rets, self.returns = self.returns, saved
        if len(rets) == 1:
            return rets[0]
        if rets and all(isinstance(r, sympy.Basic) and r == rets[0] for r in rets):
            return rets[0]
        return self.opaque(fn.spelling, *rets) if rets else None


class ClangFrontend:
    """Parse one file and build its :class:`TranslationUnitModel`."""

    def __init__(self, path: str, text: str, extra_args: Optional[list[str]] = None,
                 block_dim: Optional[tuple[int, int, int]] = None):
        self.path = path
        self.text = text
        self.extra_args = list(extra_args or [])
        self.symbols = Symbols()
        self.globals: dict = {}
        self.device_functions: dict = {}
        self.template_values: dict[str, int] = {}
        self.abs_path = os.path.abspath(path)

    # -- parse
    def parse(self) -> tuple[TranslationUnitModel, ci.TranslationUnit]:
        index = ci.Index.create()
        args = base_args() + self.extra_args
        tu = index.parse(self.abs_path, args=args, unsaved_files=[(self.abs_path, self.text)],
                         options=PARSE_OPTIONS)
        model = TranslationUnitModel(path=self.path)
        for d in tu.diagnostics:
            if d.severity >= 3 and d.location.file and os.path.abspath(d.location.file.name) == self.abs_path:
                m = re.match(r"'(.+)' file not found", d.spelling)
                if m:
                    model.missing_includes.append(m.group(1))
                else:
                    model.errors.append((d.location.line, d.spelling))
        model.dependencies = sorted({inc.include.name for inc in tu.get_includes() if inc.include is not None})
        return model, tu

    def source_text(self, c: ci.Cursor) -> str:
        """The text of ``c`` as written in the file (one line), else its tokens joined."""
        s, e = c.extent.start, c.extent.end
        if s.file and e.file and s.line == e.line and os.path.abspath(s.file.name) == self.abs_path:
            lines = self.text.splitlines()
            if s.line - 1 < len(lines):
                return lines[s.line - 1][s.column - 1:e.column - 1]
        return " ".join(t.spelling for t in c.get_tokens())

    def in_file(self, c: ci.Cursor) -> bool:
        f = file_of(c)
        return f is not None and os.path.abspath(f) == self.abs_path

    def build(self) -> TranslationUnitModel:
        model, tu = self.parse()
        kernels: list[tuple[ci.Cursor, Kernel]] = []
        self._collect(tu.cursor, model, kernels)
        from .host import collect_async_copies  # here, not at the top: host.py imports this module
        model.copies = collect_async_copies(tu.cursor, self)
        launches = model.launches
        for cur, kernel in kernels:
            self.interpret(cur, kernel, launches)
        model.kernels = [k for _, k in kernels]
        return model

    def _collect(self, root: ci.Cursor, model: TranslationUnitModel, kernels: list) -> None:
        for c in root.get_children():
            if c.location.is_in_system_header:
                continue  # libc++, the CUDA shims, -isystem paths: nothing of the user's to model
            k = c.kind
            if k in (K.NAMESPACE, K.LINKAGE_SPEC, K.UNEXPOSED_DECL):
                self._collect(c, model, kernels)
                continue
            if k == K.VAR_DECL:
                attrs = {ch.kind for ch in c.get_children()}
                space = AddressSpace.SHARED if K.CUDASHARED_ATTR in attrs else (
                    AddressSpace.CONSTANT if K.CUDACONSTANT_ATTR in attrs else None)
                if space is None and K.CUDADEVICE_ATTR in attrs:
                    space = AddressSpace.GLOBAL
                if space is not None:
                    arr = self.array_decl(c, space, {})
                    if arr is not None:
                        self.globals[decl_key(c)] = arr
                continue
            if k in (K.FUNCTION_DECL, K.FUNCTION_TEMPLATE):
                attrs = {ch.kind for ch in c.get_children()}
                body = next((ch for ch in c.get_children() if ch.kind == K.COMPOUND_STMT), None)
                if K.CUDAGLOBAL_ATTR in attrs and body is not None and self.in_file(c):
                    kernels.append((c, Kernel(name=c.spelling, span=span_of(c, self.path),
                                              params=[p.spelling for p in c.get_children() if p.kind == K.PARM_DECL])))
                elif body is not None and K.CUDADEVICE_ATTR in attrs:
                    self.device_functions[decl_key(c)] = body
                if body is not None and (K.CUDAGLOBAL_ATTR not in attrs) and self.in_file(c):
                    self._find_launches(body, model)
            elif k in (K.CLASS_DECL, K.STRUCT_DECL, K.CLASS_TEMPLATE):
                for m in c.get_children():
                    if m.kind not in (K.CXX_METHOD, K.CONVERSION_FUNCTION, K.FUNCTION_TEMPLATE):
                        continue
                    body = next((ch for ch in m.get_children() if ch.kind == K.COMPOUND_STMT), None)
                    if body is None:
                        continue
                    if K.CUDADEVICE_ATTR in {ch.kind for ch in m.get_children()}:
                        # member functions are inlined like free device functions (e.g. the
                        # `SharedMemory<T>` conversion operator that hands out `extern __shared__` memory)
                        self.device_functions[decl_key(m)] = body
                    elif self.in_file(m):
                        self._find_launches(body, model)

    def device_function_body(self, ref: ci.Cursor) -> Optional[ci.Cursor]:
        """The body of a ``__device__`` function defined in this translation unit (templates included)."""
        try:
            cands = [ref, ref.get_definition(), ci.conf.lib.clang_getSpecializedCursorTemplate(ref)]
            for cand in cands:
                if cand is not None and not cand == ci.conf.lib.clang_getNullCursor() \
                        and decl_key(cand) in self.device_functions:
                    return self.device_functions[decl_key(cand)]
        except Exception:  # libclang raises on null cursors
            return None
        return None

    def array_decl(self, d: ci.Cursor, space: AddressSpace, tmap: dict) -> Optional[ArrayDecl]:
        t = d.type.get_canonical()
        dims: list[Optional[int]] = []
        while t.kind in (ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY):
            dims.append(t.element_count if t.kind == ci.TypeKind.CONSTANTARRAY else None)
            t = t.element_type
        esize = _type_size(t, tmap)
        if not esize:
            return None
        dim_spans, dim_texts = self._extent_spans(d, len(dims))
        return ArrayDecl(name=d.spelling, space=space, elem_type=t.spelling, elem_size=esize,
                         dims=tuple(dims) if dims else (), dim_spans=dim_spans, dim_texts=dim_texts,
                         span=span_of(d, self.path),
                         extern=d.storage_class == ci.StorageClass.EXTERN)

    def _extent_spans(self, d: ci.Cursor, n: int) -> tuple[tuple, tuple]:
        """Source spans and spellings of the ``[...]`` extents of declaration ``d``, read from the file's
        text (not from macro-expanded tokens), so a fix can rewrite ``[TILE]`` as ``[TILE + 1]``."""
        if not n or not self.in_file(d):
            return (), ()
        line = d.location.line
        lines = self.text.splitlines()
        if line - 1 >= len(lines):
            return (), ()
        text = lines[line - 1]
        m = re.compile(r"\b" + re.escape(d.spelling) + r"\s*((?:\[[^\[\]]*\]\s*)+)").search(text, max(0, d.location.column - 1))
        if not m:
            return (), ()
        spans, texts = [], []
        for g in re.finditer(r"\[([^\[\]]*)\]", m.group(1)):
            start = m.start(1) + g.start(1)
            inner = g.group(1)
            lead = len(inner) - len(inner.lstrip())
            body = inner.strip()
            col = start + lead + 1
            spans.append(Span(self.path, line, col, line, col + len(body)))
            texts.append(body)
        if len(spans) != n:
            return (), ()
        return tuple(spans), tuple(texts)

    # -- launches
    def _dim(self, c: Optional[ci.Cursor], env_decls: dict) -> tuple[Optional[int], Optional[int], Optional[int]]:
        if c is None:
            return (1, 1, 1)
        c = _strip(c)
        if c.kind == K.CALL_EXPR and c.spelling == "dim3":
            args = list(c.get_arguments())
            if len(args) == 1:
                inner = _strip(args[0])
                if inner.kind == K.DECL_REF_EXPR:
                    return self._dim(inner, env_decls)
                if inner.type.get_canonical().spelling in ("dim3", "uint3", "struct dim3"):
                    return self._dim(inner, env_decls)
            vals = [self._int(a, env_decls) for a in args]
            vals += [1] * (3 - len(vals))
            return tuple(vals[:3])  # type: ignore[return-value]
        if c.kind == K.DECL_REF_EXPR and c.referenced is not None:
            ref = c.referenced
            key = decl_key(ref)
            if key in env_decls:
                return self._dim(env_decls[key], env_decls)
            init = [ch for ch in ref.get_children() if ch.kind.is_expression()]
            if init:
                return self._dim(init[-1], env_decls)
            if ref.type.get_canonical().spelling.endswith("dim3"):
                return (1, 1, 1)
        if c.kind in (K.INIT_LIST_EXPR,):
            vals = [self._int(a, env_decls) for a in c.get_children()]
            vals += [1] * (3 - len(vals))
            return tuple(vals[:3])  # type: ignore[return-value]
        v = self._int(c, env_decls)
        return (v, 1, 1)

    def _int(self, c: ci.Cursor, env_decls: dict) -> Optional[int]:
        v = evaluate_int(c)
        if v is not None:
            return v
        s = _strip(c)
        if s.kind == K.DECL_REF_EXPR and s.referenced is not None:
            init = [ch for ch in s.referenced.get_children() if ch.kind.is_expression()]
            if init:
                return self._int(init[-1], env_decls)
        if s.kind == K.BINARY_OPERATOR:
            a, b = list(s.get_children())
            x, y = self._int(a, env_decls), self._int(b, env_decls)
            if x is None or y is None:
                return None
            op = s.binary_operator
            B = ci.BinaryOperator
            try:
                return {B.Add: x + y, B.Sub: x - y, B.Mul: x * y, B.Div: x // y if y else None,
                        B.Shl: x << y, B.Shr: x >> y}.get(op)
            except Exception:
                return None
        return None

    def _find_launches(self, body: ci.Cursor, model: TranslationUnitModel) -> None:
        for n in body.walk_preorder():
            if n.kind != K.CALL_EXPR:
                continue
            config = None
            for ch in n.get_children():
                if ch.kind == K.CALL_EXPR and ch.spelling in ("cudaConfigureCall", "__cudaPushCallConfiguration"):
                    config = ch
                    break
            if config is None:
                continue
            cargs = list(config.get_arguments())
            grid = self._dim(cargs[0], {}) if cargs else (None, None, None)
            block = self._dim(cargs[1], {}) if len(cargs) > 1 else (None, None, None)
            shmem = self._int(cargs[2], {}) if len(cargs) > 2 else 0
            stream = None
            if len(cargs) > 3:
                toks = [t.spelling for t in cargs[3].get_tokens()]
                stream = " ".join(toks) if toks else None
            targs: tuple = ()
            ref = n.referenced
            if ref is not None:
                try:
                    vals = []
                    for i in range(max(ref.get_num_template_arguments(), 0)):
                        if ref.get_template_argument_kind(i) == ci.TemplateArgumentKind.INTEGRAL:
                            vals.append(ref.get_template_argument_value(i))
                        else:
                            vals.append(ref.get_template_argument_type(i).get_canonical().spelling)
                    targs = tuple(vals)
                except Exception:
                    targs = ()
            name = n.spelling
            if not name:
                # A launch inside a template whose arguments depend on its parameters (``k<T, 256><<<...>>>``
                # in ``template <class T> void run()``): the callee is an unresolved overload reference; take
                # the kernel's name from it and the explicit template arguments that follow it (an integral
                # argument clang can evaluate, else the type's spelling; ``?`` where neither is known).
                name, targs = self._dependent_callee(n)
            model.launches.append(LaunchSite(kernel=name, grid=grid, block=block, shared_mem=shmem,
                                             stream=stream, span=span_of(n, self.path), template_args=targs))

    def _dependent_callee(self, call: ci.Cursor) -> tuple[str, tuple]:
        callee = next(iter(call.get_children()), None)
        while callee is not None and callee.kind == K.UNEXPOSED_EXPR:
            callee = next(iter(callee.get_children()), None)
        if callee is None:
            return "", ()
        kids = list(callee.get_children())
        ref = next((i for i, ch in enumerate(kids) if ch.kind == K.OVERLOADED_DECL_REF), None)
        if ref is None:
            return callee.spelling or "", ()
        vals: list = []
        for ch in kids[ref + 1:]:
            if ch.kind == K.TYPE_REF:
                vals.append(ch.spelling)  # a dependent type (`T`): no size known, the kernel assumes 4 bytes
            else:
                v = self._int(ch, {})
                vals.append(v if v is not None else "?")
        return kids[ref].spelling, tuple(vals)

    # -- kernels
    def interpret(self, cur: ci.Cursor, kernel: Kernel, launches: list[LaunchSite]) -> None:
        body = next(ch for ch in cur.get_children() if ch.kind == K.COMPOUND_STMT)
        type_params: set[str] = set()
        for ch in cur.get_children():
            if ch.kind == K.UNEXPOSED_ATTR or ch.kind.is_attribute():
                toks = [t.spelling for t in ch.get_tokens()]
                if "__launch_bounds__" in toks or "launch_bounds" in toks:
                    nums = [int(t) for t in toks if t.isdigit()]
                    if nums:
                        kernel.launch_bounds = nums[0]
            if ch.kind in (K.TEMPLATE_TYPE_PARAMETER, K.TEMPLATE_NON_TYPE_PARAMETER):
                kernel.template_params.append(ch.spelling)
                if ch.kind == K.TEMPLATE_TYPE_PARAMETER:
                    type_params.add(ch.spelling)
        tmap: dict[str, int] = {}
        self.template_values = {}
        if kernel.template_params:
            # Analyse the written form with the first instantiation launched in this file.
            for site in launches:
                if site.kernel == kernel.name and site.template_args:
                    for name, arg in zip(kernel.template_params, site.template_args):
                        if isinstance(arg, int):
                            self.template_values[name] = arg
                        elif _builtin_size(arg):
                            tmap[name] = _builtin_size(arg)
                    kernel.instantiation = ", ".join(f"{n} = {a}" for n, a in zip(kernel.template_params, site.template_args))
                    break
            for name in type_params:
                if name not in tmap:
                    tmap[name] = 4
                    kernel.incomplete_assumptions.append(f"template parameter {name} assumed 4 bytes (no instantiation in this file)")
        interp = KernelInterpreter(self, kernel, tmap)
        env = Env()
        for p in cur.get_children():
            if p.kind != K.PARM_DECL:
                continue
            t = p.type.get_canonical()
            if t.kind == ci.TypeKind.POINTER:
                esize = _type_size(t.get_pointee(), tmap) or _type_size(p.type.get_pointee(), tmap)
                if esize:
                    arr = ArrayDecl(name=p.spelling, space=AddressSpace.GLOBAL,
                                    elem_type=t.get_pointee().spelling, elem_size=esize,
                                    span=span_of(p, self.path), is_param=True)
                    env.vars[decl_key(p)] = Pointer(arr, sympy.Integer(0), esize)
                else:
                    env.vars[decl_key(p)] = None
            else:
                env.vars[decl_key(p)] = self.symbols.param(p.spelling)
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, RECURSION_LIMIT))
        try:
            interp.stmt(body, env)
        except RecursionError:
            kernel.incomplete.append("expression nesting too deep to model")
        finally:
            sys.setrecursionlimit(limit)


def _is_condition(v) -> bool:
    """A symbolic truth value (a comparison, and/or/not of them, true/false) — not a plain symbol, which
    sympy also counts as Boolean."""
    return isinstance(v, (sympy.core.relational.Relational, sympy.logic.boolalg.BooleanFunction,
                          sympy.logic.boolalg.BooleanAtom))


_RELATIONS = {  # keyed by the operator's name: the bindings' enumeration values are not reliably hashable
    "LT": sympy.Lt, "GT": sympy.Gt, "LE": sympy.Le, "GE": sympy.Ge, "EQ": sympy.Eq, "NE": sympy.Ne,
}

_OPERATORS = {
    "+": ci.BinaryOperator.Add, "-": ci.BinaryOperator.Sub, "*": ci.BinaryOperator.Mul,
    "/": ci.BinaryOperator.Div, "%": ci.BinaryOperator.Rem, "<<": ci.BinaryOperator.Shl,
    ">>": ci.BinaryOperator.Shr, "&": ci.BinaryOperator.And,
}

_BUILTIN_SIZES = {
    "char": 1, "signed char": 1, "unsigned char": 1, "bool": 1, "short": 2, "unsigned short": 2,
    "__half": 2, "half": 2, "__nv_bfloat16": 2, "int": 4, "unsigned int": 4, "float": 4,
    "long": 8, "unsigned long": 8, "long long": 8, "unsigned long long": 8, "double": 8,
    "size_t": 8, "float2": 8, "int2": 8, "float4": 16, "int4": 16, "double2": 16, "uint4": 16,
    "half2": 4, "__half2": 4,
}


def _builtin_size(spelling: str) -> Optional[int]:
    return _BUILTIN_SIZES.get(spelling.replace("const ", "").strip())
