"""Kernel launches of a translation unit: ``k<<<grid, block, shmem, stream>>>`` and ``cudaLaunchKernel((void *)k,
grid, block, ...)`` sites with the launch shape read by a flow-sensitive constant propagation over each host
function's IR up to the launch: declarations, assignments (``threads.x = 256``), compound assignments, branches
(values that differ merge to unknown, or to the value each arm gives when the condition reads only variables the
function never assigns: a launch under a branch that decides that condition takes its arm, :class:`_Phi`), loops
and switches (what they assign is unknown), ``&v`` passed to a call (unknown after it).  In ``main``, a branch on
the command line (``if (argc > 1) n = atoi(argv[1]);``, ``if (checkCmdLineFlag(argc, argv, "n"))``) keeps the value the program runs with when given no arguments (its
default); the launch names each such value (:attr:`~cudalint.model.LaunchSite.defaults`).

Beside values, the walk keeps what each integer is known to be a multiple of, for every run of the program
(``n *= 1024`` after ``n = strtol(argv[i], ...)``: 1024), through the host functions of the file that the launches
are in (``do_run(..., n, ...)`` passes the multiple to ``do_run``'s parameter when every call of it in the file
does): :attr:`~cudalint.model.LaunchSite.multiples`.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import operator
import os
import re
import time
from dataclasses import dataclass
from typing import Optional

import sympy

from ..frontend import blank_non_code
from ..ir import nodes as ir
from ..ir.consts import LAUNCH_CONFIG_FIELDS, c_binary, fold, template_arg_texts
from ..ir.printer import expr_text
from ..ir.types import Type, TypeKind, scalar_named
from ..model import LaunchSite
from .host import strip_casts

Dims = tuple[Optional[int], Optional[int], Optional[int]]
_DIM3 = ("dim3", "uint3")
_AXES = {"x": 0, "y": 1, "z": 2}
_MAIN = re.compile(rb"\bmain\s*\(")
_SOURCES = (".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp")
_TESTS = ("<", ">", "<=", ">=", "==", "!=", "&&", "||")
_NUMBERS = (TypeKind.INT, TypeKind.FLOAT)
_FLOAT_OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}
#: integer min/max calls a host computes a launch shape with (`ntcol = max(1, ntcol)`)
_MIN_MAX = {"max": max, "min": min, "umax": max, "umin": min, "imax": max, "imin": min}
#: runtime calls that launch the kernel named by their first argument with (grid, block) next
_LAUNCH_APIS = ("cudaLaunchKernel", "cudaLaunchCooperativeKernel", "hipLaunchKernel", "hipLaunchCooperativeKernel")


#: a comparison with its sides swapped, and negated
_FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}
_NEGATE = {"<": ">=", ">": "<=", "<=": ">", ">=": "<", "==": "!=", "!=": "=="}


@dataclass(frozen=True)
class _Link:
    """The value a variable held when it was copied (``dim3 b(threads)``): known where a ``case`` of a
    ``switch (threads)`` binds it, forgotten when the variable is assigned."""
    var: ir.Variable


@dataclass(frozen=True, eq=False)
class _Phi:
    """An integer that two branches set apart (``if (colors > 3) bx = 32; else bx = 16;``): ``then`` where ``cond``
    holds, ``else_`` where it does not (each an int or another :class:`_Phi`).  Known at a launch under a branch
    that decides ``cond`` (cuda-convnet2's ``else if (colors <= 3)`` launches take ``bx = 16``,
    :meth:`_Env.resolve`).  Made only when ``cond`` reads variables the host function never assigns after their
    declaration, so that deciding it later decides it as it was."""
    cond: ir.Expr
    then: object
    else_: object


def _dim3_args(e: ir.Expr) -> Optional[list]:
    """The arguments of a dim3 built in place (``dim3(g, 1)``, ``{g, 1}``), None for any other expression."""
    if isinstance(e, (ir.Construct, ir.InitList)) and e.type.name in _DIM3 \
            or isinstance(e, ir.Call) and e.name == "dim3":
        # (a call of another function that returns a dim3, `pick(n)`, is not one built from its arguments)
        return e.items if isinstance(e, ir.InitList) else e.args
    return None


def _launch_config(t: Type) -> bool:
    """Whether ``t`` is CUDA's ``cudaLaunchConfig_t`` (a record with ``gridDim`` and ``blockDim`` members)."""
    names = {f.name for f in t.fields or ()}
    return t.kind == TypeKind.RECORD and {"gridDim", "blockDim"} <= names or \
        t.name.replace("struct ", "").replace("const ", "").strip() in ("cudaLaunchConfig_t", "cudaLaunchConfig_st")


def _field_key(e: Optional[ir.Expr]) -> Optional[tuple]:
    """``("field", variable, member)`` for ``config.gridDim`` / ``config.blockDim`` of a local
    ``cudaLaunchConfig_t config`` (the key :class:`_Env` keeps its value under), None for any other expression."""
    if isinstance(e, ir.Member) and not e.arrow and e.name in LAUNCH_CONFIG_FIELDS[:2] \
            and isinstance(e.base, ir.Ref) and _launch_config(e.base.type):
        return ("field", e.base.var, e.name)
    return None


class _Env:
    """Known values of the host function's variables (int, or a dim3 as a 3-tuple of int/None)."""

    def __init__(self, vals: Optional[dict] = None, absent: frozenset = frozenset()):
        self.vals = dict(vals or {})
        #: :meth:`sym` gives an upper bound (:meth:`upper`): ``ceil`` exact, no difference of run-time values
        self.strict = False
        #: ``main``'s parameters while evaluating a condition as the program runs without arguments: a call
        #: reading them (``checkCmdLineFlag(argc, argv, "n")``) is 0, ``argc`` is 1
        self.absent = absent
        #: parameters whose value the calls of the function give (:func:`_seeds`): :meth:`sym` keeps them symbolic,
        #: so a grid is still bounded in the launch's arguments (``num / 32`` blocks for ``num``) whatever they are
        self.seeded: frozenset = frozenset()

    def value(self, e: Optional[ir.Expr], depth: int = 0):
        if e is None or depth > 32:
            return None
        v = fold(e)
        if v is not None:
            return v
        if isinstance(e, ir.Ref):
            if self.vals.get(e.var) is not None:
                return self.vals[e.var]
            if e.var.storage == ir.Storage.FILE and e.var.init is not None:
                return self.value(e.var.init, depth + 1)
            return _Link(e.var) if e.var.type.is_integer else None
        if isinstance(e, ir.Cast):  # `(float)n` and `(unsigned)ceil(..)` convert; other casts keep the value
            v = self.value(e.operand, depth + 1)
            return float(v) if e.type.kind == TypeKind.FLOAT and isinstance(v, int) else \
                int(v) if e.type.is_integer and isinstance(v, float) else v
        if isinstance(e, ir.Call) and e.name in ("ceil", "ceilf", "floor", "floorf") and len(e.args) == 1:
            v = self.value(e.args[0], depth + 1)
            return float((math.ceil if "ceil" in e.name else math.floor)(v)) if isinstance(v, (int, float)) else None
        if isinstance(e, ir.Call) and (pick := _MIN_MAX.get(e.name.rsplit("::", 1)[-1])) and len(e.args) == 2:
            x, y = self.value(e.args[0], depth + 1), self.value(e.args[1], depth + 1)  # `ntcol = max(1, ntcol)`
            return pick(x, y) if isinstance(x, int) and isinstance(y, int) else None
        if isinstance(e, ir.Call) and self.absent and _reads(e, self.absent):
            return 0
        if isinstance(e, ir.Member) and e.name in _AXES and not e.arrow:
            b = self.value(e.base, depth + 1)
            return b[_AXES[e.name]] if isinstance(b, tuple) else None
        if (key := _field_key(e)) is not None:  # `config.blockDim` of a `cudaLaunchConfig_t config`
            return self.vals.get(key)
        if isinstance(e, ir.Binary) and e.op in ("+", "-", "*", "/", "%", "<<", ">>", "&", "|", "<", ">", "<=",
                                                 ">=", "==", "!="):
            x, y = self.value(e.lhs, depth + 1), self.value(e.rhs, depth + 1)
            if e.op in _FLIP and not (isinstance(x, int) and isinstance(y, int)) and self.vals.get(("holds?",)):
                known = self.vals.get(("holds", expr_text(e)))  # a branch around this point took it
                negated = self.vals.get(("holds", expr_text(ir.Binary(e.span, _NEGATE[e.op], e.lhs, e.rhs,
                                                                       type=e.type))))
                if known is not None or negated is not None:
                    return known if known is not None else 1 - negated
            if e.op in _FLIP and (isinstance(x, int) != isinstance(y, int)):   # one side a variable a branch bounds
                return self._decided(e)
            if float in (type(x), type(y)) and all(isinstance(v, (int, float)) for v in (x, y)):  # `(float)n / b`
                return _FLOAT_OPS[e.op](x, y) if e.op in _FLOAT_OPS and (y or e.op != "/") else None
            return c_binary(e.op, x, y) if isinstance(x, int) and isinstance(y, int) else None
        if isinstance(e, ir.Cond):
            c = self.value(e.cond, depth + 1)
            if isinstance(c, int):
                return self.value(e.then if c else e.else_, depth + 1)
            a, b = self.value(e.then, depth + 1), self.value(e.else_, depth + 1)
            if a != b and all(isinstance(x, (int, _Phi)) for x in (a, b)) and _stable(e.cond, self.written):
                return _Phi(e.cond, a, b)  # `bx = filters % 128 == 0 ? 32 : 16`: decided where a branch decides it
            return a if a == b else None
        if (args := _dim3_args(e)) is not None:
            if len(args) == 1 and args[0].type.name in _DIM3:
                return self.value(args[0], depth + 1)
            vals = [self.value(a, depth + 1) for a in args[:3]] + [1, 1, 1]
            return tuple(v if isinstance(v, (int, _Link, _Phi)) else None for v in vals[:3])
        return None

    def bind(self, var: ir.Variable, value: int, where: ir.Span) -> None:
        """``var`` is ``value`` here (a ``case`` label, at ``where``), and so are the variables declared from it
        before (``num_threads = channels > 512 ? 512 : channels``, ``n = batch * channels`` read again in
        ``switch (channels) { case 64: ... }``: mmcv's deformable-attention launches)."""
        self.vals[var], self.vals[("sym", var)] = value, sympy.Integer(value)
        self.vals[("mult", var)] = (abs(value), where) if abs(value) > 1 else (abs(value), None)
        self._reread({var}, where)

    def assume(self, cond: Optional[ir.Expr], holds: bool, where: ir.Span) -> None:
        """What a branch taken on ``cond`` (``holds``: its then-branch) shows of the variables it reads, and of the
        variables declared from them before: ``channels > 512`` bounds ``channels`` (a ``?:`` on it is decided),
        ``(channels & 511) == 0`` and ``channels % 512 == 0`` make it a multiple of 512 (mmcv's launches pick the
        block by such tests); ``a && b`` holds both, ``!(a || b)`` neither."""
        cond = strip_casts(cond) if cond is not None else None
        if isinstance(cond, ir.Unary) and cond.op == "!":
            return self.assume(cond.operand, not holds, where)
        if isinstance(cond, ir.Binary) and cond.op in ("&&", "||") and holds == (cond.op == "&&"):
            self.assume(cond.lhs, holds, where)
            self.assume(cond.rhs, holds, where)
            return
        if not isinstance(cond, ir.Binary) or cond.op not in _FLIP:
            return
        if _stable(cond, self.written):  # the comparison itself, decided wherever it is read again below
            self.vals[("holds", expr_text(cond))] = int(holds)
            self.vals[("holds?",)] = True
        op, lhs, rhs = cond.op, strip_casts(cond.lhs), strip_casts(cond.rhs)
        if fold(lhs) is not None:
            op, lhs, rhs = _FLIP[op], rhs, lhs
        k = fold(rhs)
        if k is None:
            return
        op = op if holds else _NEGATE[op]
        if isinstance(lhs, ir.Ref) and lhs.var.type.is_integer and not isinstance(self.vals.get(lhs.var), int):
            lo, hi = self.vals.get(("range", lhs.var)) or (None, None)
            lo = max(lo, k + (op == ">")) if op in (">", ">=", "==") and lo is not None else \
                k + (op == ">") if op in (">", ">=", "==") else lo
            hi = min(hi, k - (op == "<")) if op in ("<", "<=", "==") and hi is not None else \
                k - (op == "<") if op in ("<", "<=", "==") else hi
            if hi is not None and hi != (self.vals.get(("range", lhs.var)) or (None, None))[1]:
                self.vals[("range_at", lhs.var)] = where   # the test that bounds it from above
            self.vals[("range", lhs.var)] = (lo, hi)
            self._reread({lhs.var}, where)
        elif op == "==" and k == 0 and isinstance(lhs, ir.Binary) and isinstance(v := strip_casts(lhs.lhs), ir.Ref) \
                and (m := fold(lhs.rhs)) is not None and m > 0 and (
                    lhs.op == "%" or lhs.op == "&" and not m & (m + 1)):   # `n % M == 0`, `(n & (M - 1)) == 0`
            m = m if lhs.op == "%" else m + 1
            if m > 1 and self.vals.get(("mult", v.var), (1, None))[0] % m:
                self.vals[("mult", v.var)] = (m, where)
                self._reread({v.var}, where)

    def _reread(self, changed: set, where: ir.Span) -> None:
        """Evaluate again the variables declared from ``changed`` ones, in declaration order."""
        changed = set(changed)
        for k in [k for k in self.vals if isinstance(k, tuple) and k[0] == "init"]:
            v, init = k[1], self.vals[k]
            if not _reads(init, changed):
                continue
            self.vals[v] = self.value(init)
            m = self.multiple(init)
            self.vals[("mult", v)] = (m[0], m[1] or where) if m[0] > 1 else m
            sv = self.sym(init)
            if sv is not None:
                self.vals[("sym", v)] = sv
            changed.add(v)

    def _decided(self, e: ir.Binary) -> Optional[int]:
        """``var OP k`` (or ``k OP var``) decided by the range a branch put ``var`` in (:meth:`assume`), else None."""
        op, lhs, rhs = e.op, strip_casts(e.lhs), strip_casts(e.rhs)
        if fold(lhs) is not None:
            op, lhs, rhs = _FLIP[op], rhs, lhs
        k = fold(rhs)
        if k is None or not isinstance(lhs, ir.Ref) or not self.vals.get(("range", lhs.var)):
            return None
        lo, hi = self.vals[("range", lhs.var)]
        always = {">": lo is not None and lo > k, ">=": lo is not None and lo >= k, "<": hi is not None and hi < k,
                  "<=": hi is not None and hi <= k, "==": lo == hi == k, "!=": lo is not None and lo > k or
                  hi is not None and hi < k}
        if always[op]:
            return 1
        return 0 if always[_NEGATE[op]] else None

    def multiple(self, e: Optional[ir.Expr]) -> tuple[int, Optional[ir.Span]]:
        """What the integer ``e`` is a multiple of in every run (0: it is 0; 1: nothing known), with the
        assignment that made it so (``n *= 1024``), None for a constant or for 1: products multiply, sums,
        differences and remainders keep the common factor, ``<< k`` multiplies by 2**k, ``/ d`` divides a
        multiple of ``d``."""
        m, where = self._multiple(e)
        return (m, where) if m != 1 else (1, None)

    def _multiple(self, e: Optional[ir.Expr], depth: int = 0) -> tuple[int, Optional[ir.Span]]:
        if e is None or depth > 32:
            return 1, None
        v = fold(e)
        if v is not None:
            return abs(v), None
        if isinstance(e, ir.Ref):
            m = self.vals.get(("mult", e.var))
            if m is not None:
                return m
            if e.var.storage == ir.Storage.FILE and e.var.init is not None:
                return self._multiple(e.var.init, depth + 1)
            return 1, None
        rec = functools.partial(self._multiple, depth=depth + 1)
        if isinstance(e, ir.Cast):
            return rec(e.operand) if e.type.is_integer and e.operand.type.is_integer else (1, None)
        if isinstance(e, ir.Unary) and e.op in ("-", "+"):
            return rec(e.operand)
        if isinstance(e, ir.Cond):
            (a, x), (b, y) = rec(e.then), rec(e.else_)
            return math.gcd(a, b), x or y
        if isinstance(e, ir.Binary) and e.op in ("*", "+", "-", "%", "<<", "/"):
            (a, x), (b, y) = rec(e.lhs), rec(e.rhs)
            k = fold(e.rhs)
            if e.op == "*":
                return a * b, x or y
            if e.op in ("+", "-", "%"):
                return math.gcd(a, b), x or y
            if e.op == "<<" and isinstance(k, int) and 0 <= k < 63:
                return a << k, x
            if e.op == "/" and isinstance(k, int) and k and a % k == 0:
                return a // abs(k), x
        return 1, None

    def dims(self, e: Optional[ir.Expr]) -> Dims:
        """A launch's grid or block: (x, y, z), None where not known; ``(1, 1, 1)`` for an absent one."""
        if e is None:
            return (1, 1, 1)
        v = self.value(e)
        v = v if isinstance(v, tuple) else (v, 1, 1) if e.type.name not in _DIM3 else (None, None, None)
        v = tuple(self.vals.get(c.var) if isinstance(c, _Link) else self.resolve(c) for c in v)
        return tuple(c if isinstance(c, int) else None for c in v)  # type: ignore[return-value]

    @property
    def written(self) -> Optional[frozenset]:
        """The variables the host function assigns (:func:`_written`; kept in :attr:`vals`, which each branch's
        environment copies), None outside a host function's walk."""
        return self.vals.get(("written",))

    def resolve(self, v, depth: int = 0):
        """``v`` with each :class:`_Phi` whose condition this point's branches decide replaced by its arm."""
        while isinstance(v, _Phi) and depth < 16:
            c = self.value(v.cond)
            if not isinstance(c, int):
                return None
            v, depth = v.then if c else v.else_, depth + 1
        return v if not isinstance(v, _Phi) else None

    def sym(self, e: Optional[ir.Expr], bind: Optional[dict] = None, depth: int = 0):
        """``e`` as a sympy expression of the host's run-time values, to compare launch sizes: a variable read and
        not assigned since its declaration is a positive symbol (a value assigned later, or in a loop, is unknown),
        ``/`` divides exactly, of ``?:`` arms a constant apart the larger counts, a host function returning one
        expression is inlined (``iDivUp(n, 256)``); a dim3 is a 3-tuple; None where not expressible."""
        rec = functools.partial(self.sym, bind=bind, depth=depth + 1)
        c = fold(e) if e is not None and depth < 24 else None
        if e is None or depth >= 24 or c is not None:
            return sympy.Integer(c) if c is not None else None
        if isinstance(e, ir.Ref):
            v = self.vals.get(e.var) if bind is None else bind.get(e.var)
            if bind is None and e.var in self.seeded and ("sym", e.var) not in self.vals:
                return sympy.Symbol(e.var.name, positive=True) if e.var.type.kind in _NUMBERS else None
            if bind is not None or isinstance(v, (int, float)):
                return sympy.nsimplify(v) if isinstance(v, (int, float)) else v
            if (key := ("upper" if self.strict else "sym", e.var)) in self.vals:
                return self.vals[key]
            if isinstance(v, tuple):
                return tuple(sympy.Integer(c) if isinstance(c, int) else None for c in v)
            if e.var.storage == ir.Storage.FILE and e.var.init is not None:
                return rec(e.var.init)
            return sympy.Symbol(e.var.name, positive=True) if e.var.type.kind in _NUMBERS else None
        if self.strict and isinstance(e, ir.Unary) and e.op == "-":
            return None
        if isinstance(e, ir.Cast) or isinstance(e, ir.Unary) and e.op in ("+", "-"):
            x = rec(e.operand)
            return -x if isinstance(x, sympy.Expr) and getattr(e, "op", "") == "-" else x
        if isinstance(e, ir.Unary) and e.op == "!" or isinstance(e, ir.Binary) and e.op in _TESTS:
            return sympy.Integer(1)  # 0 or 1: its upper bound
        if isinstance(e, ir.Member) and e.name in _AXES and not e.arrow:
            b = rec(e.base)
            return b[_AXES[e.name]] if isinstance(b, tuple) else None
        if (key := _field_key(e)) is not None:
            return self.vals.get(("sym", *key)) if bind is None else None
        if isinstance(e, ir.Binary) and e.op in ("+", "-", "*", "/", "<<", ">>"):
            x, y = rec(e.lhs), rec(e.rhs)
            if not isinstance(x, sympy.Expr) or not isinstance(y, sympy.Expr) or e.op == "/" and y == 0:
                return None
            if e.op in ("<<", ">>"):
                return (x * 2 ** y if e.op == "<<" else x / 2 ** y) if y.is_Integer and 0 <= y < 64 else None
            if self.strict and e.op == "-" and not y.is_number:
                return None  # an upper bound of x - y needs a lower bound of y
            if e.op == "/" and x.is_Integer and y.is_Integer and e.type.is_integer:  # C truncates: 4127 / 32 is 128
                return sympy.Integer(int(x / y))
            return _FLOAT_OPS[e.op](x, y)
        if isinstance(e, ir.Cond):
            if isinstance(c := self.value(e.cond), int):   # decided by a branch around (:meth:`assume`)
                return rec(e.then if c else e.else_)
            a, b = rec(e.then), rec(e.else_)
            d = a - b if isinstance(a, sympy.Expr) and isinstance(b, sympy.Expr) else None
            return (a if d >= 0 else b) if d is not None and d.is_number else None
        if (args := _dim3_args(e)) is not None:
            if len(args) == 1 and args[0].type.name in _DIM3:
                return rec(args[0])
            return tuple([rec(a) for a in args[:3]] + [sympy.Integer(1)] * (3 - len(args[:3])))
        if isinstance(e, ir.Call) and e.name in ("ceil", "ceilf", "floor", "floorf") and len(e.args) == 1:
            x = rec(e.args[0])
            return sympy.ceiling(x) if self.strict and e.name.startswith("ceil") and isinstance(x, sympy.Expr) else x
        f = e.func if isinstance(e, ir.Call) else None
        body = f.body.body if f is not None and f.body is not None and len(f.params) == len(e.args) else []
        if len(body) == 1 and isinstance(body[0], ir.Return) and f.kind != ir.FunctionKind.KERNEL:
            args = [rec(a) for a in e.args]
            return self.sym(body[0].value, dict(zip(f.params, args)), depth + 1) if None not in args else None
        return None

    def upper(self, e: Optional[ir.Expr]):
        """:meth:`sym` of ``e`` where it is an upper bound of the value the program computes: integer ``/`` exact
        (at least the truncated quotient of nonnegative operands), ``ceil`` kept, ``floor`` and ``?:`` (the larger
        arm) bounded from above, and no subtraction of a run-time value; None otherwise."""
        self.strict = True
        try:
            return self.sym(e)
        finally:
            self.strict = False

    def threads(self, grid: Optional[ir.Expr], block: Optional[ir.Expr]) -> Optional[sympy.Expr]:
        """The threads a launch runs (:meth:`sym` of its grid times its block), None where not known."""
        dims = [d if isinstance(d, tuple) else (d,)
                for d in (self.sym(x) if x is not None else () for x in (grid, block))]
        vals = [v for d in dims for v in d]
        return sympy.Mul(*vals) if all(isinstance(v, sympy.Expr) and v != 0 for v in vals) else None

    def defaults(self, e: Optional[ir.Expr]) -> tuple:
        """The command-line defaults ``e`` reads: ((name, line of the branch that can override it), ...)."""
        out = {}
        for n in ir.walk(e) if e is not None else ():
            if isinstance(n, ir.Ref):
                for d in self.vals.get(("default", n.var)) or ():
                    out.setdefault(d[0], d)
        return tuple(out.values())

    def assign(self, target: ir.Expr, v, s=None, src: Optional[ir.Expr] = None, mult: tuple = (1, None)) -> None:
        """``target = v`` (``s``: the value as :meth:`sym` reads it, None when unknown; ``src``: the expression
        assigned, whose command-line defaults the target inherits; ``mult``: what the value is a multiple of,
        :meth:`multiple`)."""
        target = strip_casts(target)
        if isinstance(target, ir.Ref):
            self.vals[("mult", target.var)] = mult
            self.vals.pop(("range", target.var), None)   # a new value: what a test showed of the old one is gone
            self.vals.pop(("range_at", target.var), None)
            self.vals.pop(("init", target.var), None)
            for k in [k for k in self.vals if isinstance(k, tuple) and k[0] == "init" and _reads(self.vals[k],
                                                                                                {target.var})]:
                del self.vals[k]   # computed from the value before: no longer its expression
        base = target.base if isinstance(target, ir.Member) else target
        if isinstance(base, ir.Ref) and not isinstance(target, ir.Member):
            self.vals.pop(("default", base.var), None)
        if isinstance(base, ir.Ref) and src is not None and (d := self.defaults(src)):
            self.vals[("default", base.var)] = d
        if isinstance(target, ir.Ref):
            self.vals[("sym", target.var)] = s
            self.vals[("upper", target.var)] = self.upper(src) if s is not None and src is not None else None
            gone = _Link(target.var)
            for k, old in list(self.vals.items()):  # copies of its previous value are no longer linked
                if old == gone or isinstance(old, tuple) and gone in old:
                    self.vals[k] = tuple(None if c == gone else c for c in old) if isinstance(old, tuple) else None
            self.vals[target.var] = None if v == gone else v
            if _launch_config(target.var.type):   # assigned whole: its fields are gone
                self.forget_fields(target.var)
        elif (key := _field_key(target)) is not None:   # `config.gridDim = grid`
            self.vals[key], self.vals[("sym", *key)] = v if isinstance(v, tuple) else None, \
                s if isinstance(s, tuple) else None
        elif isinstance(target, ir.Member) and target.name in _AXES and (key := _field_key(target.base)):
            cur = list(self.vals.get(key) or (None, None, None))   # `config.blockDim.x = 256`
            cur_s = list(self.vals.get(("sym", *key)) or (None, None, None))
            cur[_AXES[target.name]], cur_s[_AXES[target.name]] = v if isinstance(v, int) else None, s
            self.vals[key], self.vals[("sym", *key)] = tuple(cur), tuple(cur_s)
        elif isinstance(target, ir.Member) and isinstance(target.base, ir.Ref) and target.name in _AXES:
            old, olds, oldu = self.vals.get(target.base.var), self.sym(target.base), self.upper(target.base)
            cur = list(old) if isinstance(old, tuple) else [None, None, None]
            cur_s = list(olds) if isinstance(olds, tuple) else [None, None, None]
            cur_u = list(oldu) if isinstance(oldu, tuple) else [None, None, None]
            cur[_AXES[target.name]], cur_s[_AXES[target.name]] = v if isinstance(v, int) else None, s
            cur_u[_AXES[target.name]] = self.upper(src) if s is not None and src is not None else None
            self.vals[target.base.var], self.vals[("sym", target.base.var)] = tuple(cur), tuple(cur_s)
            self.vals[("upper", target.base.var)] = tuple(cur_u)
        else:
            for n in ir.walk(target):  # `*p = ...`, `a[i] = ...`: forget what is written through
                if isinstance(n, ir.Ref) and n.var in self.vals and not isinstance(self.vals[n.var], int):
                    self.vals.pop(n.var, None)

    def forget_fields(self, var: ir.Variable) -> None:
        """Forget the launch-configuration members kept for ``var`` (:func:`_field_key`)."""
        for name in LAUNCH_CONFIG_FIELDS[:2]:
            self.vals.pop(("field", var, name), None)
            self.vals.pop(("sym", "field", var, name), None)

    def kill(self, node: Optional[ir.Node]) -> None:
        """Forget every variable ``node`` may write (loop bodies, switch bodies)."""
        for n in ir.walk(node):
            if isinstance(n, ir.Assign):
                self.assign(n.target, None)
            elif isinstance(n, ir.Unary) and n.op in ("pre++", "pre--", "post++", "post--", "&"):
                self.assign(n.operand, None)
            elif isinstance(n, ir.Decl):
                self.vals.pop(n.var, None)
                self.vals[("sym", n.var)] = self.vals[("upper", n.var)] = None

    def merge(self, *others: "_Env") -> None:
        keys = set(self.vals).union(*(o.vals for o in others))
        for k in keys:
            vs = [o.vals.get(k) for o in others]
            if isinstance(k, tuple) and k[0] == "mult":  # a multiple on every path: of their common factor
                self.vals[k] = _common(vs)
            elif isinstance(vs[0], tuple) and all(isinstance(v, tuple) for v in vs):
                self.vals[k] = tuple(c if all(v[i] == c for v in vs) else None for i, c in enumerate(vs[0]))
            else:
                self.vals[k] = vs[0] if all(v == vs[0] for v in vs) else None


class _Walker:
    def __init__(self, seeds: Optional[dict] = None):
        self.out: list[LaunchSite] = []
        #: host function -> {parameter: ((multiple, where), value, call)} that every call of it in the file passes
        #: (:func:`_seeds`)
        self.seeds: dict = seeds or {}
        #: host function -> the ((multiple, where), constant, call that passed it) of each argument of each call
        self.calls: dict = {}
        self.fn, self.loops = "", ()  # the host function walked, the loops around the statement (their lines)
        self.stepped: frozenset = frozenset()  # the variables the loops around the statement step
        self.argv: frozenset = frozenset()  # main's parameters (argc, argv) when walking main
        self.written: frozenset = frozenset()  # the variables the host function walked assigns (:func:`_written`)
        #: function name -> (what each argument is, :func:`_passed`; the call that passed it) of each call of a
        #: function of that name, defined in the file or not (:func:`passed_by_calls`)
        self.named: dict = {}

    def _without_arguments(self, cond: ir.Expr, env: _Env) -> Optional[int]:
        """Whether ``cond`` holds when the program runs without arguments (``argc`` 1, a call reading ``argv``
        0), None when ``cond`` does not read the command line or its value is not known."""
        if not self.argv or not _reads(cond, self.argv):
            return None
        probe = _Env(env.vals, self.argv)
        probe.vals.update({p: 1 for p in self.argv if p.type.is_integer})
        c = probe.value(cond)
        return c if isinstance(c, int) else None

    def expr(self, e: Optional[ir.Expr], env: _Env) -> None:
        """Record the launches in ``e`` (in evaluation order) and apply its side effects to ``env``."""
        if e is None:
            return
        if isinstance(e, ir.Lambda):
            # its body runs where the lambda is called, here or in a callee (PyTorch's `AT_DISPATCH_*(.., [&] {
            # k<scalar_t><<<g, b>>>(..); })`): its launches are recorded with what it captures; what it assigns is
            # forgotten, as it may run any number of times
            self.stmt(e.body, _Env(env.vals, env.absent))
            env.kill(e.body)
            return
        if isinstance(e, ir.Launch):
            for a in (e.grid, e.block, e.shared_mem, e.stream, *e.args):
                self.expr(a, env)
            # a non-type parameter of the launching function template keeps its name (`crop<T, channels>`), for
            # its instantiations to replace (:func:`host_instances`)
            targs = tuple(a if not isinstance(a, ir.Expr) else v if isinstance(v := env.value(a), int) else
                          a.name if isinstance(a, ir.TemplateArg) else "?" for a in e.template_args)
            passed = env.vals.get(("from", r.var)) if isinstance(r := _copied(e.block), ir.Ref) else None
            self.out.append(LaunchSite(kernel=e.kernel, grid=env.dims(e.grid), block=env.dims(e.block), span=e.span,
                                       block_from=passed, block_sym=_x(env.sym(e.block)) if e.block else None,
                                       args_from=tuple(env.vals.get(("from", r.var)) if isinstance(
                                           r := strip_casts(a), ir.Ref) else None for a in e.args),
                                       template_args=targs, block_text=_as_written(e.block),
                                       grid_text=_as_written(e.grid), function=self.fn,
                                       loops=self.loops, threads=env.threads(e.grid, e.block),
                                       args=tuple(_argument(a, env) for a in e.args),
                                       arg_values=tuple(v if isinstance(v := env.sym(a), sympy.Expr) and
                                                        a.type.is_integer else None for a in e.args),
                                       grid_bound=_grid_bound(env, e.grid, e.args),
                                       defaults=_launch_defaults(env, e.grid, e.block, e.args),
                                       counters=tuple(i for i, a in enumerate(e.args)
                                                      if isinstance(r := strip_casts(a), ir.Ref)
                                                      and r.var in self.stepped),
                                       multiples=tuple(env.multiple(a) if a.type.is_integer else (1, None)
                                                       for a in e.args),
                                       arg_max=tuple(_argument_max(a, env) for a in e.args)))
            return
        if isinstance(e, ir.Cond):
            self.expr(e.cond, env)
            a, b = _Env(env.vals), _Env(env.vals)
            self.expr(e.then, a)
            self.expr(e.else_, b)
            env.merge(a, b)
            return
        for c in ir.children(e):
            self.expr(c, env)
        if isinstance(e, ir.Assign):
            v = env.value(e.value)
            mult = env.multiple(e.value) if e.op == "=" else env.multiple(ir.Binary(
                e.span, e.op[:-1], e.target, e.value, type=e.target.type)) if e.op[:-1] in ("*", "+", "-", "<<", "/") \
                else (1, None)
            if e.op != "=":
                old = env.value(e.target)
                v = c_binary(e.op[:-1], old, v) if isinstance(old, int) and isinstance(v, int) else None
            env.assign(e.target, v, env.sym(e.value) if e.op == "=" else None, e.value,
                       (mult[0], mult[1] or e.span) if mult[0] > 1 else mult)
        elif isinstance(e, ir.Unary) and e.op in ("pre++", "pre--", "post++", "post--"):
            old = env.value(e.operand)
            env.assign(e.operand, old + (1 if "++" in e.op else -1) if isinstance(old, int) else None)
        elif isinstance(e, ir.Call):
            k = strip_casts(e.args[0]) if e.name in _LAUNCH_APIS and len(e.args) >= 3 else None
            if isinstance(k, ir.Opaque) and len(k.children) == 1:  # `k<NTX>` a front-end leaves unresolved
                k = k.children[0]
            if isinstance(k, ir.Ref) and k.var.name:  # cudaLaunchKernel((void *)kernel, grid, block, args, ...)
                self.out.append(LaunchSite(kernel=k.var.name, grid=env.dims(e.args[1]), block=env.dims(e.args[2]),
                                           span=e.span, block_text=_as_written(e.args[2]), function=self.fn,
                                           loops=self.loops, threads=env.threads(e.args[1], e.args[2]),
                                           defaults=_launch_defaults(env, e.args[1], e.args[2], ())))
            params = e.func.params if e.func is not None else []
            passed = tuple((_passed(a, env), env.vals.get(("from", r.var), e.span)
                            if isinstance(r := _copied(a), ir.Ref) else e.span) for a in e.args)
            self.named.setdefault(e.name, []).append(passed)
            if e.func is not None and e.func.body is not None and e.func.kind == ir.FunctionKind.HOST \
                    and len(params) == len(e.args):
                self.calls.setdefault(e.func, []).append(tuple(
                    ((m, w or e.span) if (m, w) != (1, None) else (1, None), *given)
                    for given, (m, w) in zip(passed, (env.multiple(a) if a.type.is_integer else (1, None)
                                                      for a in e.args))))
            for i, a in enumerate(e.args):  # `&n` or a reference parameter: the callee may write it
                if isinstance(a := strip_casts(a), ir.Unary) and a.op == "&":
                    env.assign(a.operand, None)
                elif i < len(params) and params[i].type.kind == TypeKind.REFERENCE:
                    env.assign(a, None)

    def _branch_values(self, cond: ir.Expr, a: _Env, b: _Env, env: _Env) -> None:
        """After ``if (cond)``: each variable the two branches (``a``, ``b``) set to different integers (or dim3
        members) holds a :class:`_Phi` of them, when ``cond`` is a comparison of variables the function never
        assigns after their declaration."""
        if not _stable(cond, self.written):
            return

        def arm(x) -> bool:
            return isinstance(x, (int, _Phi)) and not isinstance(x, bool)

        for k in set(a.vals) | set(b.vals):
            if not isinstance(k, ir.Variable) or (x := a.vals.get(k)) is (y := b.vals.get(k)) or x == y:
                continue
            if arm(x) and arm(y):
                env.vals[k] = _Phi(cond, x, y)
            elif isinstance(x, tuple) and isinstance(y, tuple) and len(x) == len(y) == 3:
                env.vals[k] = tuple(p if p == q else _Phi(cond, p, q) if arm(p) and arm(q) else None
                                    for p, q in zip(x, y))

    def _switch(self, s: ir.Switch, env: _Env) -> None:
        """Each ``case N:`` region from the switch's entry (merged with the previous region where it falls
        through), the switch's variable bound to N when entered only by its label."""
        self.expr(s.cond, env)
        cond = s.cond.operand if isinstance(s.cond, ir.Cast) else s.cond
        entry, regions, prev, items = _Env(env.vals), [], None, s.body.body
        while len(items) == 1 and isinstance(items[0], ir.Block):
            items = items[0].body
        for x in items:
            if isinstance(x, ir.Case):
                region = _Env(entry.vals)
                if regions and not (isinstance(prev, ir.Jump) and prev.kind == ir.JumpKind.BREAK):
                    region.merge(_Env(entry.vals), regions[-1])
                elif isinstance(cond, ir.Ref) and fold(x.value) is not None:
                    region.bind(cond.var, fold(x.value), x.span)
                regions.append(region)
            self.stmt(x, regions[-1] if regions else _Env(entry.vals))
            prev = x.body if isinstance(x, ir.Case) else x
        env.merge(entry, *regions)

    def stmt(self, s: Optional[ir.Stmt], env: _Env) -> None:
        if s is None:
            return
        if isinstance(s, ir.Decl):
            chosen = None
            if isinstance(s.init, ir.Cond) and (plain := self._without_arguments(s.init.cond, env)) is not None:
                # `int w = argc > 1 ? atoi(argv[1]) : 1920;`: the value the program runs with given no arguments, a
                # default as `if (argc > 1) w = atoi(argv[1]);` after `int w = 1920;` is (a new user's trial)
                s, chosen = dataclasses.replace(s, init=s.init.then if plain else s.init.else_), s
            self.expr(s.init, env)
            default = (1, 1, 1) if s.var.type.name in _DIM3 else None  # `dim3 b;` is (1, 1, 1)
            env.vals[s.var] = env.value(s.init) if s.init is not None else default
            env.forget_fields(s.var)
            for name, item in zip(LAUNCH_CONFIG_FIELDS[:2], s.init.items if isinstance(s.init, ir.InitList)
                                  and _launch_config(s.var.type) else ()):
                # `cudaLaunchConfig_t config = {grid, block, shmem, stream}`
                v, sv = env.value(item), env.sym(item)
                env.vals[("field", s.var, name)] = v if isinstance(v, tuple) else \
                    (v, 1, 1) if isinstance(v, int) and v > 0 else None
                env.vals[("sym", "field", s.var, name)] = sv if isinstance(sv, tuple) else \
                    (sv, sympy.Integer(1), sympy.Integer(1)) if isinstance(sv, sympy.Expr) and sv != 0 else None
            if s.init is not None and s.var.type.is_integer:  # read again where a `case` binds what it reads
                env.vals[("init", s.var)] = s.init
            m = env.multiple(s.init) if s.init is not None and s.var.type.is_integer else (1, None)
            env.vals[("mult", s.var)] = (m[0], m[1] or s.span) if m[0] > 1 else m
            env.vals.pop(("default", s.var), None)
            if d := env.defaults(s.init):
                env.vals[("default", s.var)] = d
            if chosen is not None:
                env.vals[("default", s.var)] = ((s.var.name, s.span.line),)
            if s.init is not None:  # its run-time value, unless an expression of others
                v = env.sym(s.init)
                own = sympy.Symbol(s.var.name, positive=True) if s.var.type.kind in _NUMBERS else None
                env.vals[("sym", s.var)] = own if v is None else v
                u = env.upper(s.init)
                env.vals[("upper", s.var)] = own if u is None and v is None else u
        elif isinstance(s, ir.If):
            self.stmt(s.init, env)
            self.expr(s.cond, env)
            c = env.value(s.cond)
            if isinstance(c, int):
                self.stmt(s.then if c else s.else_, env)
                return
            a, b = _Env(env.vals), _Env(env.vals)
            a.assume(s.cond, True, s.span)
            b.assume(s.cond, False, s.span)
            self.stmt(s.then, a)
            self.stmt(s.else_, b)
            plain = self._without_arguments(s.cond, env)
            taken = None if plain is None else (s.then if plain else s.else_)
            if plain is not None and not _leaves(taken):  # the program's defaults: the branch run without arguments
                run, given = (a, b) if plain else (b, a)
                for k in set(run.vals) | set(given.vals):
                    if isinstance(k, ir.Variable) and run.vals.get(k) != given.vals.get(k):
                        run.vals[("default", k)] = ((k.name, s.span.line),)
                    elif isinstance(k, tuple) and k[0] == "mult":  # a multiple with and without arguments
                        run.vals[k] = _common([run.vals.get(k), given.vals.get(k)])
                env.vals = run.vals
            elif s.else_ is None and _exits(s.then):
                # `if (channels > 4) { log; return ERROR; }`: what follows runs only where the test failed, so the
                # range it shows holds there (CVCUDA's gamma_contrast: channels <= 4 at the launch below)
                env.vals = b.vals
            else:
                env.merge(a, b)
                self._branch_values(s.cond, a, b, env)
        elif isinstance(s, ir.Switch) and isinstance(s.body, ir.Block):
            self._switch(s, env)
        elif isinstance(s, (ir.Loop, ir.Switch)):
            for x in getattr(s, "init", []):
                self.stmt(x, env)
            env.kill(s)
            outer, self.loops = self.loops, self.loops + ((s.span.line, s.span.column),) * isinstance(s, ir.Loop)
            stepped, self.stepped = self.stepped, self.stepped | _stepped(s)
            for n in ir.children(s):
                if n not in getattr(s, "init", []):
                    (self.expr if isinstance(n, ir.Expr) else self.stmt)(n, env)
            self.loops, self.stepped = outer, stepped
            env.kill(s)
        else:  # a block, an expression statement, a return, a case or a label: its parts in order
            for n in ir.children(s):
                (self.expr if isinstance(n, ir.Expr) else self.stmt)(n, env)


def _written(fn: ir.Function) -> frozenset:
    """The variables ``fn``'s body assigns (``=``, compound assignments, ``++``/``--``), passes by address or binds
    to a callee's reference parameter (a callee not resolved: every argument that is a plain variable)."""
    out = set()
    for n in ir.walk(fn.body):
        targets = [n.target] if isinstance(n, ir.Assign) else [n.operand] if isinstance(n, ir.Unary) and n.op in (
            "pre++", "pre--", "post++", "post--", "&") else []
        if isinstance(n, ir.Call):
            params = n.func.params if n.func is not None else None
            targets += [a for i, a in enumerate(n.args) if params is None or i < len(params)
                        and params[i].type.kind == TypeKind.REFERENCE]
        for target in targets:
            while isinstance(target, (ir.Member, ir.Index)):
                target = target.base
            if isinstance(target := strip_casts(target) if target is not None else None, ir.Ref):
                out.add(target.var)
    return frozenset(out)


def _stable(cond: Optional[ir.Expr], written: Optional[frozenset]) -> bool:
    """Whether ``cond`` is made of comparisons and arithmetic of constants and variables not in ``written``
    (False when that is not known: None)."""
    if written is None:
        return False
    cond = strip_casts(cond) if cond is not None else None
    if isinstance(cond, ir.IntLit):
        return True
    if isinstance(cond, ir.Ref):
        return cond.var.type.is_integer and cond.var not in written
    if isinstance(cond, ir.Binary):
        return _stable(cond.lhs, written) and _stable(cond.rhs, written)
    if isinstance(cond, ir.Unary) and cond.op in ("!", "-"):
        return _stable(cond.operand, written)
    return False


def _copied(e: Optional[ir.Expr]) -> Optional[ir.Expr]:
    """``e`` without casts and dim3 copies (``dim3(b)``, the copy clang writes for a dim3 passed by value)."""
    e = strip_casts(e) if e is not None else None
    while (args := _dim3_args(e)) is not None and len(args) == 1 and args[0].type.name in _DIM3:
        e = strip_casts(args[0])
    return e


def _passed(a: ir.Expr, env: _Env):
    """The constant a call passes as argument ``a``: an integer, or a dim3 whose members are all known
    (``run_tr(grid, dim3(16, 16), ..)``); None for anything else or a value the command line can override."""
    if env.defaults(a):
        return None
    if a.type.name in _DIM3:
        d = env.dims(a)
        return d if None not in d else None
    return v if isinstance(v := env.value(a), int) else None


def _x(v) -> Optional[sympy.Expr]:
    """The x member of a launch dimension as :meth:`_Env.sym` reads it (a 3-tuple for a dim3)."""
    v = v[0] if isinstance(v, tuple) and v else v
    return v if isinstance(v, sympy.Expr) else None


def _reads(e: Optional[ir.Node], variables: frozenset) -> bool:
    """Whether ``e`` reads one of ``variables``."""
    return any(isinstance(n, ir.Ref) and n.var in variables for n in ir.walk(e))


def _leaves(s: Optional[ir.Stmt]) -> bool:
    """Whether ``s`` may leave the function (a ``return``, ``exit(...)``, a ``throw``): what it assigns is not a
    default."""
    return any(isinstance(n, ir.Return) or isinstance(n, ir.Call) and n.name in ("exit", "abort", "_exit")
               or isinstance(n, ir.Opaque) and n.what == "throw" for n in ir.walk(s))


def _exits(s: Optional[ir.Stmt]) -> bool:
    """Whether ``s`` always leaves the function: it ends in a ``return``, a ``throw``, ``exit(...)`` or an ``if``
    whose both branches do."""
    if isinstance(s, ir.Block):
        return bool(s.body) and _exits(s.body[-1])
    if isinstance(s, ir.Return):
        return True
    if isinstance(s, ir.ExprStmt):
        e = s.expr
        return isinstance(e, ir.Opaque) and e.what == "throw" or \
            isinstance(e, ir.Call) and e.name in ("exit", "abort", "_exit")
    if isinstance(s, ir.If):
        return s.else_ is not None and _exits(s.then) and _exits(s.else_)
    return False


def _argument_max(a: ir.Expr, env: "_Env") -> Optional[tuple[int, ir.Span]]:
    """The largest value a launch argument can have where a test the host passed before bounds it (``if (channels >
    4) return ..;``): (the bound, the test), None when unbounded or a constant."""
    r = strip_casts(a)
    if not isinstance(r, ir.Ref) or not a.type.is_integer or isinstance(env.vals.get(r.var), int):
        return None
    hi = (env.vals.get(("range", r.var)) or (None, None))[1]
    at = env.vals.get(("range_at", r.var))
    return (hi, at) if hi is not None and at is not None else None


def _launch_defaults(env: _Env, grid, block, args) -> tuple:
    """What the launch takes from the program's command-line defaults: ((role, name, line), ...), role
    ``"grid"``, ``"block"`` or the argument's index."""
    out = [(role, name, line) for role, e in (("grid", grid), ("block", block), *enumerate(args))
           for name, line in env.defaults(e)]
    return tuple(out)


def _stepped(s) -> frozenset:
    """The variables a loop steps: those its step expressions assign or increment (``t`` of
    ``for (t = 0; t < n - 1; t++)``), and a range-for's variable; none for other statements."""
    if not isinstance(s, ir.Loop):
        return frozenset()
    out = {s.var} if s.var is not None else set()
    todo = list(s.step)
    while todo:
        e = todo.pop()
        target = e.target if isinstance(e, ir.Assign) else e.operand if isinstance(e, ir.Unary) and e.op in (
            "pre++", "pre--", "post++", "post--") else None
        if isinstance(target, ir.Ref):
            out.add(target.var)
        todo += [c for c in ir.children(e) if isinstance(c, ir.Expr)]
    return frozenset(out)


def _grid_bound(env: _Env, grid: Optional[ir.Expr], args) -> tuple:
    """Each gridDim member of a launch as an upper bound (:meth:`_Env.upper`) in the launch's own integer arguments,
    ``arg0``, ``arg1``, ... by position (``num / (4 * 16)`` with ``num`` passed third: ``arg2/64``); None for a
    member that reads a run-time value not passed to the kernel."""
    if grid is None:
        return (sympy.Integer(1),) * 3
    dims = env.upper(grid)
    if not isinstance(dims, tuple):  # a number of blocks (x), or a dim3 not known: nothing of y and z then
        dims = (dims, sympy.Integer(1), sympy.Integer(1)) if grid.type.name not in _DIM3 else (None, None, None)
    passed = {}
    for i, a in enumerate(args):
        s = env.sym(a) if a.type.is_integer and isinstance(strip_casts(a), ir.Ref) else None
        if isinstance(s, sympy.Symbol) and s not in passed:
            passed[s] = sympy.Symbol(f"arg{i}", positive=True, integer=True)
    return tuple(d.xreplace(passed) if isinstance(d, sympy.Expr) and d.free_symbols <= set(passed) else None
                 for d in dims[:3])


def _argument(a: ir.Expr, env: _Env) -> Optional[int]:
    """A launch argument's value: an integer's where known, 0 for a null pointer written as such (``NULL``,
    ``nullptr``; a pointer variable's value is not followed: ``cudaMalloc`` writes it), else None."""
    if a.type.kind == TypeKind.POINTER:
        return 0 if fold(strip_casts(a)) == 0 else None
    return v if isinstance(v := env.value(a), int) else None


def collect_launches(tu: ir.TranslationUnit, external: Optional[dict] = None) -> list[LaunchSite]:
    """Every launch written in a non-kernel function of the translation unit, in source order, with its
    grid and block as known at the launch.  In a program's main file (one that defines ``main``), what a host
    function's integer parameters are multiples of, and the constant every call passes one, comes from its calls
    in the file (the common factor of every call's argument), found by walking again until they no longer change
    (at most :data:`_SEED_ROUNDS` walks; none kept if they still do).  ``external``: what the calls in the
    program's other files pass the launching functions that nothing in this file calls (:func:`open_parameters`,
    :func:`agreed`): ``{function name: {parameter index: (value, call)}}``."""
    fixed = _external_seeds(tu, external or {})
    # outside a program's main file a helper's callers may be in the program's other files: only the helpers with
    # internal linkage (`static`, an unnamed namespace), whose every call is in this file, are seeded by them
    every = any(f.name == "main" and f.body is not None for f in tu.functions)
    return through_parameters(tu, through_pointers(tu, host_instances(tu, _settled(tu, fixed, every).out)))


def _function_named(e: ir.Expr) -> ir.Expr:
    """The expression a function designator stands for, without casts and the address-of that may be written before a
    function's name (``kernel = &transposeNaive;``, ``linear_kernel((K)&eval_image<3>, ..)``)."""
    v = strip_casts(e)
    return strip_casts(v.operand) if isinstance(v, ir.Unary) and v.op == "&" else v


def through_pointers(tu: ir.TranslationUnit, launches: list[LaunchSite]) -> list[LaunchSite]:
    """A launch through a function-pointer variable (``kernel<<<grid, threads>>>(..)`` after ``kernel =
    &transposeNaive;`` in a `switch` over the variants: cuda-samples' transpose, whose seven kernels had no launch
    and so no block) is a launch of each kernel the function assigns to that variable, with the launch's shape.  A
    launch through a variable nothing in its function assigns a kernel to is kept as it is."""
    kernels = {f.name for f in tu.functions if f.kind == ir.FunctionKind.KERNEL}
    targets: dict[tuple, list[str]] = {}   # (function, variable name) -> the kernels assigned to it, in order
    for fn in tu.functions:
        if fn.body is None or fn.kind == ir.FunctionKind.KERNEL:
            continue
        for n in ir.walk(fn.body):
            pairs = [(n.target.var if isinstance(n.target, ir.Ref) else None, n.value)] \
                if isinstance(n, ir.Assign) and n.op == "=" else [(n.var, n.init)] if isinstance(n, ir.Decl) else []
            for var, value in pairs:
                v = _function_named(value) if value is not None else None
                if var is not None and isinstance(v, ir.Ref) and v.var.name in kernels:
                    names = targets.setdefault((fn.name, var.name), [])
                    if v.var.name not in names:
                        names.append(v.var.name)
    out = []
    for site in launches:
        names = targets.get((site.function, site.kernel)) if site.kernel not in kernels else None
        out += [dataclasses.replace(site, kernel=k) for k in names] if names else [site]
    return out


def _as_written(e: Optional[ir.Expr]) -> str:
    """A launch argument's text for a message, "" where the front-end's token range runs past the argument (a launch
    written by a macro: FasterTransformer's ``ADD_BIAS_GELU(256, 1)`` cases quoted the rest of the function)."""
    text = e.text if e is not None else ""
    return "" if len(text) > 80 or any(t in text for t in (";", "<<<", ">>>", "{", "}")) else text


def through_parameters(tu: ir.TranslationUnit, launches: list[LaunchSite]) -> list[LaunchSite]:
    """A launch through a parameter of a host helper (``kernel<<<n_blocks_linear(n), N_THREADS_LINEAR>>>(n, args..)``
    in tiny-cuda-nn's ``template <typename K, ..> void linear_kernel(K kernel, ..)``) is a launch of each kernel the
    file's calls pass that parameter (``linear_kernel(eval_image<3>, 0, stream, n, ..)``), with the helper's shape and
    the template arguments the call spells: an integer literal, a constant of the calling function
    (``eval_image<n_output_dims>`` after ``const uint32_t n_output_dims = 3;``) or a scalar type; any other argument
    left open.  A
    launch through a parameter no call passes a kernel is kept as it is."""
    kernels = {f.name for f in tu.functions if f.kind == ir.FunctionKind.KERNEL}
    helpers = {f.name: f for f in tu.functions if f.body is not None and f.kind != ir.FunctionKind.KERNEL}
    passed: dict[tuple, list] = {}   # (helper, parameter name) -> [(kernel, template arguments)], in order
    for fn in tu.functions:
        consts = None
        for n in ir.walk(fn.body) if fn.body is not None else ():
            if not isinstance(n, ir.Call) or (helper := helpers.get(n.name)) is None:
                continue
            for p, a in zip(helper.params, n.args):
                v = _function_named(a)
                # `k<3>` is a reference to the kernel (clang) or an expression whose text names it (tree-sitter)
                m = re.fullmatch(r"\s*&?\s*(?:\w+::)*(\w+)\s*(?:<(.*)>)?\s*", v.text or "", re.S)
                name = v.var.name if isinstance(v, ir.Ref) else m.group(1) if m else None
                if name not in kernels:
                    continue
                if consts is None:
                    consts = {d.var.name: c for d in ir.walk(fn.body) if isinstance(d, ir.Decl)
                              and d.var.type.const and isinstance(c := fold(d.init), int)}
                texts = template_arg_texts(m.group(2)) if m and m.group(2) else []
                targs = tuple(int(re.sub(r"[uUlL]+$", "", t)) if re.fullmatch(r"\d+[uUlL]*", t) else
                              consts.get(t) if t in consts else scalar_named(t) or t for t in texts)
                entry = passed.setdefault((helper.name, p.name), [])
                if (name, targs) not in entry:
                    entry.append((name, targs))
    out = []
    for site in launches:
        names = passed.get((site.function, site.kernel)) if site.kernel not in kernels else None
        out += [dataclasses.replace(site, kernel=k, template_args=t) for k, t in names] if names else [site]
    return out


def host_instances(tu: ir.TranslationUnit, launches: list[LaunchSite]) -> list[LaunchSite]:
    """A launch in a host function template whose template arguments name the function's own type parameters
    or non-type parameters (``testKernel<TData><<<64, 256>>>`` in ``template <class TData> int runTest(..)``;
    ``crop<T, channels>`` in mmdeploy's ``template <typename T, int channels> void Crop(..)``) is a launch of each
    instantiation the file's calls of that function name (``runTest<RGBA8_misaligned>(4, size)``: cuda-samples'
    alignedTypes, whose misaligned structs the kernel moves at two to four times the ideal sectors, measured in
    benchmarks/fidelity): one launch site per distinct set of arguments, the parameter replaced by the call's type.
    An explicit instantiation (``template void GlobalInclusiveArgPrefixSum<label_t, double, data_size_t>(..);``,
    LightGBM's, :attr:`ir.TranslationUnit.instances`) counts as such a call; an argument it could not name (None)
    leaves that parameter open.  A launch whose function no call instantiates keeps its parameter (a picture with
    the type left open)."""
    calls: dict[str, list] = {}
    for fn in tu.functions:
        for n in ir.walk(fn.body) if fn.body is not None else ():
            if isinstance(n, ir.Call) and n.func is not None and n.func.template_params \
                    and len(n.template_args) == len(n.func.template_params):
                calls.setdefault(n.func.name, []).append((n.func.template_params, n.template_args))
    templates = {f.name: f for f in tu.functions if f.template_params and f.kind != ir.FunctionKind.KERNEL}
    for name, args in tu.instances:   # `template void prefix<float, double>(..);` instantiates as a call would
        if (fn := templates.get(name)) is not None and len(args) == len(fn.template_params):
            calls.setdefault(name, []).append((fn.template_params, args))
    out = []
    for site in launches:
        made = calls.get(site.function, [])
        params = made[0][0] if made else []
        names = {tp.name: i for i, tp in enumerate(params)}
        if not any(isinstance(a, str) and a in names for a in site.template_args):
            out.append(site)
            continue
        seen = set()
        for _, args in made:
            targs = tuple(args[names[a]] if isinstance(a, str) and a in names and args[names[a]] is not None else a
                          for a in site.template_args)
            if (key := tuple(map(template_arg_text, targs))) not in seen:
                seen.add(key)
                out.append(dataclasses.replace(site, template_args=targs))
    return out


def _settled(tu: ir.TranslationUnit, fixed: dict, every: bool = True) -> "_Walker":
    """The walk of ``tu`` whose helpers' parameters are seeded by their calls in the file (:func:`_seeds`) until
    the seeds no longer change, ``fixed`` seeds kept; with ``fixed`` only if they still change.  ``every``: seed
    every helper (a program's main file), else only those with internal linkage (:attr:`ir.Function.internal`)."""
    seeds: dict = dict(fixed)
    for _ in range(_SEED_ROUNDS):
        w = _walk(tu, seeds)
        found = {fn: ps for fn, calls in w.calls.items() if (every or fn.internal) and (ps := _seeds(fn, calls))} \
            | fixed
        if found == seeds:
            return w
        seeds = found
    return _walk(tu, fixed)


def _external_seeds(tu: ir.TranslationUnit, external: dict) -> dict:
    out = {}
    for fn in tu.functions:
        if fn.name in external and fn.body is not None and fn.kind == ir.FunctionKind.HOST:
            out[fn] = {fn.params[i]: ((1, None), value, where) for i, (value, where) in external[fn.name].items()
                       if i < len(fn.params)}
    return out


def open_parameters(tu: ir.TranslationUnit) -> dict[str, tuple[int, frozenset]]:
    """The host functions defined in the file that launch a kernel with a block, or an argument, that is one of their
    parameters (``void run_tr(dim3 g, dim3 b, ..) { tr<<<g, b>>>(..); }``, ``int threads``; ``k<<<B, 256>>>(.., n_terms)``)
    and that nothing in the file calls: ``{name: (number of parameters, the indices of those its launches' grids and
    blocks read, or that they pass a kernel as an argument as they are)}``; their callers in the program's other files
    may say what they pass (kaldi's ``cudaF_*`` launchers, HeCBench bm3d's ``extern "C" run_*``; tsne's
    ``ComputeChargesQij``, whose one caller passes ``n_terms`` = 4, a row of 4 floats the kernel's lanes were taken as
    4096 floats apart for: judged false, census `at`).  :func:`agreed` keeps only a value every call passes."""
    called = {n.name for fn in tu.functions if fn.body is not None for n in ir.walk(fn.body) if isinstance(n, ir.Call)}
    out = {}
    for fn in tu.functions:
        if fn.kind != ir.FunctionKind.HOST or fn.body is None or fn.name in called or fn.name == "main":
            continue
        launches = [n for n in ir.walk(fn.body) if isinstance(n, ir.Launch)]
        passed = {r.var for n in launches for a in n.args if isinstance(r := strip_casts(a), ir.Ref)}
        if any(isinstance(r := _copied(n.block), ir.Ref) and r.var in fn.params for n in launches) or \
                passed & set(fn.params):
            shape = {r.var for n in launches for x in (n.grid, n.block) for r in ir.walk(x) if isinstance(r, ir.Ref)}
            out[fn.name] = (len(fn.params), frozenset(i for i, p in enumerate(fn.params) if p in shape | passed))
    return out


def orphan_kernels(tu: ir.TranslationUnit) -> set[str]:
    """The kernels of ``tu`` (defined in its own file) that no host code of it launches or names: a kernel file whose
    launches are in another file of the program, reached through a header's declaration (Parboil's ``sad4.cu``,
    launched from ``main.cu``), whose launches :func:`foreign_launches` takes from there."""
    named = {x for fn in tu.functions if fn.kind != ir.FunctionKind.KERNEL and fn.body is not None
             for n in ir.walk(fn.body) for x in _names(n)}
    return {k.name for k in tu.kernels if k.span.path == tu.path and k.name not in named}


def foreign_launches(tu: ir.TranslationUnit) -> list[LaunchSite]:
    """The launches of ``tu`` (another file of the program, :func:`caller_files`), with their grids and blocks as
    known there (:func:`collect_launches`), for the kernel files whose kernels they launch (:func:`orphan_kernels`:
    declared through a header, or defined in the kernel file ``tu`` includes); [] when it launches none."""
    if not any(isinstance(n, ir.Launch) for fn in tu.functions if fn.body is not None for n in ir.walk(fn.body)):
        return []
    return collect_launches(tu)


def passed_by_calls(tu: ir.TranslationUnit) -> dict:
    """What every call in ``tu``'s host code passes, by callee name: ``{name: [((passed, call), ...) per call]}``
    (:func:`_passed`; ``call``: the call that gave the value, through the file's own helpers), the file's helpers
    seeded by their calls in it as in a program's main file (:func:`_settled`)."""
    return _settled(tu, {}).named


def agreed(calls: list, params: int) -> dict:
    """``{parameter index: (value, call)}`` for the parameters that every one of ``calls`` (of a function with
    ``params`` parameters: :func:`passed_by_calls`) passes the same known value; {} when there is no call."""
    calls = [c for c in calls if len(c) == params]
    out = {}
    for i in range(params) if calls else ():
        vals = {c[i][0] for c in calls}
        if len(vals) == 1 and None not in vals:
            out[i] = (vals.pop(), calls[0][i][1])
    return out


def _seeds(fn: ir.Function, calls: list) -> dict:
    """What every call of ``fn`` in the file passes each integer or dim3 parameter: ``{param: ((multiple, where),
    value, call)}``, the value where all calls pass one constant that is not a command-line default (a dim3 with
    every member known), else None, and the first call that passes it (or passed it on: ``run(b)`` -> ``launch(b)``);
    parameters of which nothing is known are left out."""
    out = {}
    for p, col in zip(fn.params, zip(*calls)):
        mult = _common([m for m, _, _ in col])
        vals = {v for _, v, _ in col}
        value = vals.pop() if len(vals) == 1 and None not in vals else None
        if mult[0] > 1 or value is not None:
            out[p] = (mult, value, col[0][2])
    return out


#: walks of the file's host functions before the multiples of their parameters settle (main -> run -> launch: 3)
_SEED_ROUNDS = 4


def _walk(tu: ir.TranslationUnit, seeds: dict) -> _Walker:
    w = _Walker(seeds)
    lambdas = [n.span for f in tu.functions for n in ir.walk(f.body) if isinstance(n, ir.Lambda)]
    for fn in tu.functions:
        # a lambda's call operator is walked where the lambda is written (:meth:`_Walker.expr`), not on its own
        if fn.name == "operator()" and any(fn.span.within(s) for s in lambdas):
            continue
        if fn.kind != ir.FunctionKind.KERNEL and fn.body is not None:
            w.fn = fn.name
            w.argv = frozenset(fn.params) if fn.name == "main" else frozenset()
            w.written = _written(fn)
            env = _Env()
            env.vals[("written",)] = w.written
            for p, (mult, value, where) in seeds.get(fn, {}).items():
                env.vals[("mult", p)] = mult
                if value is not None:  # `run(1 << 20, ...)`, its only call
                    env.vals[p] = value
                    env.vals[("from", p)] = where  # (the first call that passes it)
                    env.seeded |= {p}
            w.stmt(fn.body, env)
    return w


def _common(found) -> tuple[int, Optional[ir.Span]]:
    """The common factor of several (multiple, where) pairs (None: nothing known), with the first place that
    made one of them a multiple."""
    ms = [m if m is not None else (1, None) for m in found]
    g = functools.reduce(math.gcd, (m for m, _ in ms), 0) if ms else 1
    return (g, next((w for m, w in ms if w is not None), None)) if g > 1 else (1 if g != 0 or not ms else 0, None)


def _names(n: ir.Node) -> list[str]:
    return [n.kernel] if isinstance(n, ir.Launch) else [n.var.name] if isinstance(n, ir.Ref) else \
        [n.name] if isinstance(n, ir.Call) else []


@functools.cache
def _used_in(path: str, stamp: tuple) -> frozenset:
    """The identifiers a source file uses, other than the names it declares functions by (tree-sitter), and
    ``main()`` when it defines ``main``; a member named through an object (``plan.setup``) by its name.  A name used
    with a scope is given with the scope's last part
    (``cusph::Resety`` -> ``cusph::Resety``, ``a::b::f`` -> ``b::f``, ``::f`` -> ``::f``), and ``namespace=`` is in
    the set when the file defines a namespace alias (a scope may then name any namespace: :func:`_uses`)."""
    from ..frontend.treesitter import parse
    with open(path, "rb") as f:
        stack, out = [parse(f.read(1 << 21)).root_node], set()
    while stack:
        n = stack.pop()
        stack.extend(n.children)
        if n.type == "namespace_alias_definition":
            out.add("namespace=")
        if n.type == "field_identifier" and n.parent is not None and n.parent.type == "field_expression":
            out.add(n.text.decode(errors="replace"))   # `plan.setup(..)`, `p->run(..)`: a member through an object
        elif n.type == "identifier":
            name = n.text.decode(errors="replace")
            up = n.parent
            declares = up is not None and up.type == "function_declarator"
            if up is not None and up.type == "qualified_identifier" and up.child_by_field_name("name") == n:
                scope = up.child_by_field_name("scope")
                name = f"{scope.text.decode(errors='replace') if scope is not None else ''}::{name}"
            out.add("main()" if declares and name == "main" else "" if declares else name)
    return frozenset(out)


def _uses(used: frozenset, name: str, space: Optional[str]) -> bool:
    """Whether a file that uses ``used`` (:func:`_used_in`) uses the function ``name`` of namespace ``space`` (None:
    not in one, or not known): unqualified, or qualified with that namespace (any scope when ``space`` is None, or
    where the file defines a namespace alias).  DualSPHysics' ``cusph::Resety`` is not a use of ``cusphs::Resety``."""
    if name in used:
        return True
    scoped = [u for u in used if u.endswith("::" + name)]
    return bool(scoped) and (space is None or "namespace=" in used or f"{space}::{name}" in scoped)


def _namespace_of(fn: ir.Function) -> Optional[str]:
    """The innermost namespace ``fn`` is defined in, read from its file (tree-sitter): ``namespace cusphs { void
    Resety(..) {..} }`` or ``void cusphs::Resety(..) {..}``; None when it is in none (or is a class member, whose
    callers name the class or an object), or it cannot be told."""
    try:
        st = os.stat(fn.span.path)
        defined = _defined_in(fn.span.path, (st.st_mtime_ns, st.st_size))
    except OSError:
        return None
    return next((space for name, first, last, space in defined if name == fn.name and first <= fn.span.line <= last),
                None)


@functools.cache
def _defined_in(path: str, stamp: tuple) -> tuple:
    """``(name, first line, last line, namespace or None)`` of each function a file defines, its file parsed once
    (tree-sitter) for all the launchers of a translation unit (:func:`_namespace_of`)."""
    from ..frontend.treesitter import parse
    with open(path, "rb") as f:
        stack, out = [(parse(f.read(1 << 21)).root_node, ())], []
    while stack:
        n, names = stack.pop()
        if n.type == "namespace_definition":
            ident = n.child_by_field_name("name")
            names = names + ((ident.text.decode(errors="replace") if ident is not None else ""),)
        elif n.type in ("class_specifier", "struct_specifier", "union_specifier"):
            names = names + ("",)   # a member: its callers name the class (or an object), not the namespace
        if n.type == "function_definition":
            decl = n.child_by_field_name("declarator")
            while decl is not None and decl.type not in ("identifier", "qualified_identifier"):
                decl = decl.child_by_field_name("declarator")
            if decl is not None:
                space = names[-1] if names else ""
                if decl.type == "qualified_identifier" and (scope := decl.child_by_field_name("scope")) is not None:
                    space = scope.text.decode(errors="replace").split("::")[-1]
                    decl = decl.child_by_field_name("name")
                if decl is not None:
                    out.append((decl.text.decode(errors="replace"), n.start_point[0] + 1, n.end_point[0] + 1,
                                space or None))
        stack.extend((c, names) for c in n.children)
    return tuple(out)


def _program_root(path: str) -> str:
    """The directory above ``path``'s, where :func:`_called_elsewhere` and :func:`caller_files` look for the rest of its
    program; ``path``'s own when the one above is outside its project (:func:`cudalint.frontend.confine.project_root`:
    the git checkout, else the working directory): cudalint reads no source outside the project (a fresh user's file at
    the top of a folder had every sibling folder of it searched)."""
    from ..frontend.confine import inside, project_root
    here = os.path.dirname(os.path.abspath(path))
    up = os.path.dirname(here)
    return up if inside(up, [project_root(path)]) else here


#: the most source files one search of a program's tree reads
_MAX_SOURCES = 2000


def _sources(top: str, here: str, deep: bool = True, extensions: tuple = _SOURCES):
    """``(folder, path, text)`` of the source files (named with one of ``extensions``) under ``top`` (only ``top``
    itself unless ``deep``), in sorted order, ``here`` and hidden folders left out, the first 2 MiB of each; regular
    files only (a FIFO named ``x.cu`` in a pull request must not block the run).  Past :data:`_MAX_SOURCES` files it
    yields ``None`` and stops."""
    seen = 0
    for root, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".")) if deep else []
        for p in (os.path.join(root, f) for f in sorted(files) if os.path.splitext(f)[1] in extensions):
            seen += 1
            if seen > _MAX_SOURCES:
                yield None
                return
            if p == here or not os.path.isfile(p):
                continue
            try:
                with open(p, "rb") as fh:
                    text = fh.read(1 << 21)
            except OSError:
                continue
            yield root, p, text


def _called_elsewhere(path: str, names: set, spaces: Optional[dict] = None) -> Optional[bool]:
    """Whether another source of ``path``'s program uses one of ``names`` (:func:`_used_in`), looked for in the
    tree of the directory above ``path``'s (a wrapper's ``main.c`` one level up): True (also past 2,000 files),
    False when none does though a source of that directory or of ``path``'s own defines ``main`` (the program is
    there and never calls them), None when none does (a library, or its ``main`` is elsewhere)."""
    here, main = os.path.abspath(path), False
    near = (os.path.dirname(here), _program_root(path))
    for found in _sources(near[1], here):
        if found is None:
            return True
        root, p, text = found
        if any(n.encode() in text for n in names) or root in near and _MAIN.search(text):
            try:
                st = os.stat(p)
                used = _used_in(p, (st.st_mtime_ns, st.st_size))   # a file rewritten within the clock's tick
            except OSError:   # gone since it was listed (a compiler's temporary file beside the program)
                continue
            if any(_uses(used, n, (spaces or {}).get(n)) for n in names):
                return True
            main = main or root in near and "main()" in used
    return False if main else None


#: files that can call a host function by its name besides C and C++ sources: Python (ctypes, cffi, a binding's
#: string), Cython, SWIG, and the other languages' foreign-function declarations
_BINDINGS = (".py", ".pyx", ".pxd", ".pxi", ".i", ".swg", ".cs", ".java", ".rs", ".go", ".jl", ".m", ".mm")
_IDENTIFIER = re.compile(rb"[A-Za-z_][A-Za-z_0-9]*")
#: how long one reading of a project's names is kept, in seconds
_NAMES_FOR = 30


@functools.lru_cache(maxsize=4)
def _project_names(root: str, epoch: int) -> Optional[tuple[dict, int]]:
    """The identifiers of the source and binding files under ``root`` (hidden folders left out), each with the
    number of files that name it, and the number of files read; None past :data:`_MAX_SOURCES` files (a project too
    large to search: nothing is concluded).  Read once per ``epoch`` (:data:`_NAMES_FOR` seconds: a language
    server sees a call the user adds within that time)."""
    counts: dict = {}
    files = 0
    for found in _sources(root, "", extensions=_SOURCES + _BINDINGS):
        if found is None:
            return None
        files += 1
        for name in set(_IDENTIFIER.findall(found[2])):
            counts[name] = counts.get(name, 0) + 1
    return counts, files


def _named_in_project(path: str, names: set) -> Optional[tuple[bool, str, int]]:
    """Whether a file of ``path``'s project other than ``path`` names one of ``names`` (host functions that
    nothing in ``path``'s translation unit calls): a header declaring one, a source calling it, a Python binding or
    ``ctypes`` call naming it.  ``(named, project folder, files searched)``; None when ``path`` is in no git
    checkout (:func:`cudalint.frontend.confine.project_root` would be a guess) or the project has more than
    :data:`_MAX_SOURCES` source files."""
    from ..frontend.confine import project_root
    root = project_root(path)
    if not os.path.isdir(os.path.join(root, ".git")) or \
            (found := _project_names(root, int(time.monotonic() // _NAMES_FOR))) is None:
        return None
    counts, files = found
    try:
        with open(path, "rb") as fh:
            own = set(_IDENTIFIER.findall(fh.read(1 << 21)))
    except OSError:
        return None
    named = any(counts.get(n.encode(), 0) > (n.encode() in own) for n in names)
    return named, os.path.basename(root), files


_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)
_HEADERS = (".h", ".hpp", ".cuh", ".hh", ".hxx")


def caller_files(path: str, names: set, limit: int = 8) -> list[str]:
    """The sources of ``path``'s program that may call one of ``names``: those that name one, or include (by
    file name) a header that names one (kaldi's ``.cc`` files call ``cudaF_*`` through ``cu-kernels.h``'s inline
    wrappers).  Looked for in ``path``'s folder, else in the tree of the folder above (:func:`_sources`); at most
    ``limit``, ``path``'s folder first."""
    here = os.path.abspath(path)
    keys = [n.encode() for n in names]
    for top, deep in ((os.path.dirname(here), False), (_program_root(path), True)):
        texts = {found[1]: found[2] for found in _sources(top, here, deep) if found is not None}
        naming = {p for p, t in texts.items() if any(k in t for k in keys)}
        headers = {os.path.basename(p) for p in naming if p.endswith(_HEADERS)}
        found = [p for p, t in texts.items() if not p.endswith(_HEADERS) and
                 (p in naming or any(os.path.basename(i.decode(errors="replace")) in headers
                                     for i in _INCLUDE.findall(t)))]
        if found:
            return sorted(found, key=lambda p: (os.path.dirname(p) != os.path.dirname(here), p))[:limit]
    return []


def launching_files(path: str, names: set, limit: int = 8) -> list[str]:
    """The sources of ``path``'s program that launch one of the kernels ``names`` with ``<<<`` (``k<<<``,
    ``k<T, 4><<<``; a name as a whole identifier), looked for as :func:`caller_files` does; at most ``limit``,
    ``path``'s folder first."""
    if not names:
        return []
    launch = re.compile(rb"(?<![A-Za-z0-9_])(?:" + b"|".join(re.escape(n.encode()) for n in sorted(names))
                        + rb")\s*(?:<[^;{}()]*>\s*)?<<<")
    here = os.path.abspath(path)
    for top, deep in ((os.path.dirname(here), False), (_program_root(path), True)):
        found = [p for _, p, t in (f for f in _sources(top, here, deep) if f is not None)
                 if not p.endswith(_HEADERS) and launch.search(t)]
        if found:
            return sorted(found, key=lambda p: (os.path.dirname(p) != os.path.dirname(here), p))[:limit]
    return []


def unnamed_reason(kernel: str) -> str:
    """Why ``kernel`` may never run when nothing in its translation unit launches or names it
    (:func:`unlaunched_kernels`' first reason)."""
    return (f"`{kernel}` is neither launched nor named in this translation unit, which launches other kernels: it may "
            "never run")


def unlaunched_kernels(tu: ir.TranslationUnit) -> dict[str, str]:
    """Kernels of the translation unit that may never run, when it launches others, with the reason: nothing in it
    launches or names them (``k<<<..>>>``, ``cudaLaunchKernel((void *)k, ..)``, a function pointer, a template
    argument: a leftover, or another file's), or only host functions launch them that nothing in the translation
    unit or under the directory above its own calls, though a ``main`` is there (boxFilter's ``boxFilter()``,
    which its ``.cpp`` declares but never calls); in a library without ``main``, only host functions that no other
    file of its git checkout names (no header declares them, no source or Python binding calls them: kaolin's
    ``coords_to_trilinear_jacobian_cuda_impl``, :func:`_named_in_project`).  Their findings are only info."""
    used: dict[str, set] = {}  # overloads pooled: a later `f(uchar3*, ..)` must not hide what `f(float3*, ..)` calls
    for fn in tu.functions:
        # a function's own name is no use of it (recursion), but a host function launching its namesake kernel
        # (hoomd's `gpu::hpmc_shift` launches `kernel::hpmc_shift`) uses that kernel
        nodes = list(ir.walk(fn.body))
        launches_own = fn.kind != ir.FunctionKind.KERNEL and any(isinstance(n, ir.Launch) and n.kernel == fn.name
                                                               for n in nodes)
        used.setdefault(fn.name, set()).update({x for n in nodes for x in _names(n)}
                                               - (set() if launches_own else {fn.name}))
    if not any(isinstance(n, ir.Launch) for fn in tu.functions for n in ir.walk(fn.body)):
        return {}
    out = {}
    for k in tu.kernels:
        by = sorted(f for f, names in used.items() if k.name in names)
        if not by:
            out[k.name] = unnamed_reason(k.name)
        elif "main" not in by and not any(f in names for f in by for g, names in used.items() if g != f):
            defined = {fn.name: fn for fn in tu.functions if fn.body is not None and fn.name in by}
            called = _called_elsewhere(tu.path, set(by), {f: _namespace_of(fn) for f, fn in defined.items()})
            callers = ", ".join(f"`{f}()`" for f in by)
            if called is False or called is None and "main" in used:
                top = os.path.basename(_program_root(tu.path))
                out[k.name] = (f"`{k.name}` is launched only from {callers}, which nothing in this translation unit or "
                               f"under `{top}/` calls: it may never run")
            elif called is None and (project := _named_in_project(tu.path, set(by))) and not project[0]:
                out[k.name] = (f"`{k.name}` is launched only from {callers}, which no other file of the project "
                               f"(`{project[1]}/`, {project[2]} files searched, headers and bindings included) names: "
                               f"it may never run")
    out.update(_unlaunched_overloads(tu))
    return out


def lost_launches(tu: ir.TranslationUnit, text: str) -> dict[str, tuple[int, str]]:
    """Kernels the file's text launches (``k<<<``, ``k<double, true>\\n<<<``, outside comments and strings) where the
    front-end read no launch of them, when the translation unit has a parse error: clang drops a statement that does
    not compile, often with no error of its own (cp2k's launches pass a member of a class whose members need
    ``offloadStream_t`` from a header behind the build's ``-D__OFFLOAD_CUDA``: the errors are the header's;
    NVIDIA/warp's launch whose arguments name a ``cub::DoubleBuffer`` the shims lack), so the kernel's launch shape is
    not known though the file writes it.  Not a launch in a branch the file's own ``#if`` leaves out (cuda-samples'
    recursiveGaussian: ``#define USE_SIMPLE_FILTER 0`` ... ``#if USE_SIMPLE_FILTER``, :func:`inactive_lines`); one
    behind a condition the file does not decide counts.  ``{kernel: (line of its first such launch, the error cited:
    the launch's own, else the file's last one before it, else the translation unit's first, as
    "path:line: message")}``."""
    if not tu.first_error or "<<<" not in text:
        return {}
    read = {n.kernel for fn in tu.functions for n in ir.walk(fn.body) if isinstance(n, ir.Launch)}
    code = blank_non_code(text)
    skipped = inactive_lines(code)
    out = {}
    for k in tu.kernels:
        if k.name in read or k.name in out:
            continue
        for m in re.finditer(rf"(?<![\w.]){re.escape(k.name)}\s*(?:<[^;{{}}]*?>\s*)?<<<", code):
            line = code.count("\n", 0, m.start()) + 1
            last = line + code.count("\n", m.start(), code.find(";", m.start()) % (len(code) + 1))
            if line in skipped:
                continue
            own = [(ln, msg) for ln, msg in tu.errors if line <= ln <= last]
            near = own[0] if own else max(((ln, msg) for ln, msg in tu.errors if line - 200 <= ln <= line),
                                          default=None)
            out[k.name] = (line, f"{tu.path}:{near[0]}: {near[1]}" if near else tu.first_error)
            break
    return out


_DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)\s+(\d+)[uUlL]*\s*$")
_UNDEF = re.compile(r"^\s*#\s*undef\s+(\w+)")
_COND = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$")


def inactive_lines(code: str) -> set[int]:
    """The lines (1-based) of ``code`` inside an ``#if`` branch the file itself decides is not compiled: ``#if 0``,
    ``#if NAME`` / ``#if !NAME`` where the file ``#define``s NAME as an integer above it, and the ``#else`` of a
    branch so decided.  A condition on anything else (a macro of a header or the command line, ``defined(X)``) is
    undecided: its lines count as compiled."""
    values: dict[str, int] = {}
    stack: list[Optional[bool]] = []   # each open conditional: its branch's truth (None undecided)
    out: set[int] = set()
    for i, line in enumerate(code.split("\n"), 1):
        if (m := _COND.match(line)) is not None:
            what, rest = m[1], m[2].split("//")[0].strip()
            if what in ("if", "ifdef", "ifndef"):
                stack.append(_decide(what, rest, values) if all(v is not False for v in stack) else None)
            elif what == "elif" and stack:
                stack[-1] = None if stack[-1] is not True else False
            elif what == "else" and stack:
                stack[-1] = None if stack[-1] is None else not stack[-1]
            elif what == "endif" and stack:
                stack.pop()
            continue
        if any(v is False for v in stack):
            out.add(i)
        elif (d := _DEFINE.match(line)) is not None:
            values[d[1]] = int(d[2])
        elif (u := _UNDEF.match(line)) is not None:
            values.pop(u[1], None)
    return out


def _decide(what: str, cond: str, values: dict[str, int]) -> Optional[bool]:
    """An ``#if``'s truth where the file decides it (:func:`inactive_lines`), else None."""
    if what != "if":
        return None
    neg = cond.startswith("!")
    name = cond[1:].strip() if neg else cond
    if name.isdigit():
        v: Optional[int] = int(name)
    elif name.isidentifier():
        v = values.get(name)
    else:
        return None
    return None if v is None else (v == 0) if neg else (v != 0)


#: what a lost launch's reasons advise (:func:`lost_reason` and the file's CL000)
MISSING_DEFINE = ("a define or include the build passes may be missing (`defines` or `include-paths` in "
                  ".cudalint.toml, or `-p`)")


def unnamed_kernels(tu: ir.TranslationUnit, text: str) -> dict[str, str]:
    """Kernels defined in the file ``text`` whose name it writes nowhere but at their definition, when the front-end
    read no launch at all because the code did not compile, though the file writes launches (``name<<<``, outside
    comments, strings and branches its own ``#if`` leaves out) of other names: How_to_optimize_in_GPU's spmm.cu
    launches ``My_spmm_csr_vector_kernel<..><<<..>>>``, a name no kernel has, and defines ``.._v0`` and ``.._v1``,
    which nothing launches (a barrier finding in ``_v1`` was judged false: census ``ba``).  Their findings are info,
    as :func:`unlaunched_kernels` makes them where the launches are read.  A name written twice (a prototype, a
    macro, a function pointer) counts as named."""
    if not tu.first_error or "<<<" not in text or any(
            isinstance(n, ir.Launch) for fn in tu.functions for n in ir.walk(fn.body)):
        return {}
    code = blank_non_code(text)
    skipped = inactive_lines(code)
    live = lambda m: code.count("\n", 0, m.start()) + 1 not in skipped  # noqa: E731
    # template arguments of names, numbers and `<>` only: `if (x < y) k<T><<<` is no launch of `x`
    launched = sorted({m.group(1) for m in re.finditer(r"(?<![\w.])(\w+)\s*(?:<(?!<)[\w\s,:*&<>]*?>\s*)?<<<(?!<)",
                                                        code) if live(m)})
    if not launched:
        return {}
    where = ", ".join(f"`{n}`" for n in launched[:3]) + (", ..." if len(launched) > 3 else "")
    out = {}
    for k in tu.kernels:
        if k.span.path != tu.path or k.name in launched:
            continue
        if sum(1 for m in re.finditer(rf"(?<![\w.]){re.escape(k.name)}(?!\w)", code) if live(m)) == 1:
            out[k.name] = (f"`{k.name}` is neither launched nor named in this file, whose launches (of {where}) did "
                           f"not compile: it may never run")
    return out


def lost_reason(kernel: str, line: int, error: str) -> str:
    """Why a kernel :func:`lost_launches` found has no known block (an assumption of its findings)."""
    return (f"the launch of `{kernel}` on line {line} was not read: the code around it did not compile ({error}; "
            f"{MISSING_DEFINE}), so its block is not known")


def _unlaunched_overloads(tu: ir.TranslationUnit) -> dict[str, str]:
    """Overloaded kernels of one name that none of the name's launches can run (nor is the name read otherwise: a
    function pointer, ``cudaLaunchKernel``): where clang resolved every launch to a definition, the overloads none of
    them is (Open3D's two ``roipool3d_forward``, one taking ``const float *boxes3d``, the other, the one launched,
    ``const int *pts_idx``); else where each launch names explicit template arguments, the overloads with another
    number of template parameters (DeepSpeed's ``template <typename T, int iterations> attn_softmax_v2(T *, ..)``
    beside ``template <int iterations> attn_softmax_v2(float *, ..)``).  Keyed ``name@line`` (the overload's definition
    line): :func:`overload_key`."""
    out: dict[str, str] = {}
    by_name: dict[str, list] = {}
    for k in tu.kernels:
        by_name.setdefault(k.name, []).append(k)
    nodes = None
    for name, ks in by_name.items():
        if len(ks) < 2:
            continue
        nodes = [n for fn in tu.functions for n in ir.walk(fn.body)] if nodes is None else nodes
        launches = [n for n in nodes if isinstance(n, ir.Launch) and n.kernel == name]
        if not launches or any(isinstance(n, (ir.Ref, ir.Call)) and name in _names(n) for n in nodes):
            continue
        if all(n.func is not None for n in launches):  # clang resolved each launch to its overload's definition
            run = {(n.func.span.path, n.func.span.line) for n in launches}
            for k in ks:
                if (k.span.path, k.span.line) not in run:
                    lines = ", ".join(sorted({str(n.span.line) for n in launches}, key=int))
                    out[overload_key(name, k.span.line)] = (
                        f"this overload of `{name}` is run by no launch: the launch{'es' * (',' in lines)} on line"
                        f"{'s' * (',' in lines)} {lines} call{'s' * (',' not in lines)} another, by its parameters' types")
            continue
        counts = {len(n.args) for n in launches}
        takes = {id(k): len(k.params) for k in ks if not any("..." in (p.type.name or "") for p in k.params)}
        if len(takes) == len(ks) and all(sum(t == c for t in takes.values()) == 1 for c in counts):
            # each launch's argument count fits one overload's parameters: a launch in a host template, which
            # clang leaves unresolved (ParRes/Kernels' `init<<<..>>>(order, d_a, d_b, d_c)` in `run<T>`, beside a
            # two-parameter `init(order, C)` nothing launches)
            for k in ks:
                if takes[id(k)] not in counts:
                    out[overload_key(name, k.span.line)] = (
                        f"this overload of `{name}` ({takes[id(k)]} parameter{'s' * (takes[id(k)] != 1)}) is run by no "
                        f"launch: each passes {' or '.join(map(str, sorted(counts)))} arguments")
            continue
        if len({len(k.template_params) for k in ks}) < 2 or any(not n.template_args for n in launches):
            continue
        for k in ks:
            if not any(len(n.template_args) == len(k.template_params) for n in launches):
                arities = sorted({len(n.template_args) for n in launches})
                out[overload_key(name, k.span.line)] = (
                    f"this overload of `{name}` ({len(k.template_params)} template parameter"
                    f"{'s' * (len(k.template_params) != 1)}) is run by no launch: each names "
                    f"{' or '.join(map(str, arities))} template arguments")
    return out


def overload_key(name: str, line: int) -> str:
    """The key of an overload :func:`_unlaunched_overloads` found never launched: its name and definition line."""
    return f"{name}@{line}"


def launched_once(launches: list[LaunchSite]) -> dict[str, str]:
    """Kernels every launch of which runs once (in no loop of its host function) while the same function launches
    another kernel with the same grid in a loop (dct8x8's IDCT after ten timed DCTs): a small share of that
    function's GPU work, with the reason."""
    out = {}
    for k in dict.fromkeys(s.kernel for s in launches):
        loops = [None if m.in_loop else next((s for s in launches if s.kernel != k and s.in_loop and s.function ==
                                              m.function and s.grid_text == m.grid_text != ""), None)
                 for m in launches if m.kernel == k]
        if all(loops):
            s = loops[0]
            out[k] = (f"`{k}` is launched once, while `{s.function}()` launches `{s.kernel}` with the same grid "
                      f"`{s.grid_text}` in a loop (line {s.span.line}): a small share of its GPU work")
    return out


def template_arg_text(a) -> str:
    return a.spelling() if isinstance(a, Type) else str(a)
