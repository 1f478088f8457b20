"""Symbols that index expressions are built from, and their uniformity.

Every value the front-end cannot reduce to a constant is a sympy ``Symbol``:

* the built-in variables ``threadIdx.x`` ... ``gridDim.z`` (CUDA Programming Guide §"Built-in Variables");
* kernel parameters (block-uniform);
* loop trip counters ``k@<line>`` (uniform when the loop's start, step and bound are);
* opaque values (a load, a call result, a value merged from two branches), either uniform or
  thread-varying.

``Symbols.varying`` is the set of symbols whose value differs between the lanes of a warp.
"""

from __future__ import annotations

import functools
import itertools
import math
from functools import lru_cache
from typing import Optional

import sympy

#: the start of every loop trip counter's name (:meth:`Symbols.trip`: ``k@12.3``), which code without the
#: :class:`Symbols` at hand tells them by (:func:`cudalint.analysis.uniformity._offset`)
TRIP_PREFIX = "k@"
TID = tuple(sympy.Symbol(f"threadIdx.{a}", integer=True, nonnegative=True) for a in "xyz")
BID = tuple(sympy.Symbol(f"blockIdx.{a}", integer=True, nonnegative=True) for a in "xyz")
BDIM = tuple(sympy.Symbol(f"blockDim.{a}", integer=True, positive=True) for a in "xyz")
GDIM = tuple(sympy.Symbol(f"gridDim.{a}", integer=True, positive=True) for a in "xyz")
WARP_SIZE = sympy.Symbol("warpSize", integer=True, positive=True)

BUILTINS = {"threadIdx": TID, "blockIdx": BID, "blockDim": BDIM, "gridDim": GDIM}

#: Values substituted for run-time quantities that scale an index (a row pitch ``width``, a stride
#: ``n``): large and a multiple of 32 bytes, like the 4096 of GROUND_TRUTH.md's ``a[i*n]`` measurement.
#: Listed in a finding's ``assumptions`` whenever used.
REPRESENTATIVE_SCALE = 4096
REPRESENTATIVE_BLOCK_X = 256
#: blockDim.y and blockDim.z where the block is not known: a block holds at most 1,024 threads (Programming Guide,
#: "Thread Hierarchy"), so with REPRESENTATIVE_BLOCK_X in x, 4 rows and one slice (never the 4096 of a pitch)
REPRESENTATIVE_BLOCK_YZ = (1024 // REPRESENTATIVE_BLOCK_X, 1)


class Symbols:
    """Factory and registry of the symbols of one translation unit."""

    def __init__(self) -> None:
        self.varying: set[sympy.Symbol] = set(TID)
        self.trip_counters: set[sympy.Symbol] = set()
        self.loop_conds: dict[sympy.Symbol, object] = {}  # trip counter -> its loop's condition
        self.pow2: set[sympy.Symbol] = set()
        #: power-of-two loop variables with a constant start: symbol -> (start, 2 or -2 for doubling or
        #: halving each trip, the loop condition); their values are enumerable once blockDim is known
        self.pow2_loops: dict[sympy.Symbol, tuple[int, int, object]] = {}
        self.unseen: set[sympy.Symbol] = set()  # results of calls cudalint cannot see into (:meth:`opaque`)
        self.loop_spans: dict = {}  # power-of-two loop variable -> its loop's span (for `#pragma unroll`)
        #: varying opaque value -> the values it was made from (a load: its address), to decide it again for a
        #: launch's block (:meth:`varies_in_block`); a varying value without sources (an atomic, a lane id) stays so
        self.sources: dict[sympy.Symbol, tuple] = {}
        #: uniform opaque value -> the values it was made from (a load: its address): the bound a loop's trip reads
        #: (`edges[w]`) is told from one loaded before the loop (:func:`cudalint.rules.cl101_uncoalesced_global_access.
        #: bin_search`)
        self.uniform_sources: dict[sympy.Symbol, tuple] = {}
        self._counter = itertools.count()

    def mark(self) -> int:
        """A point in the order symbols are made in: :meth:`born` of every later one is at least this."""
        return next(self._counter)

    @staticmethod
    def born(s: sympy.Symbol) -> int:
        """When ``s`` was made (its ``#n`` or ``.n`` suffix); -1 for a built-in or a parameter."""
        tail = s.name.rsplit("#", 1)[-1] if "#" in s.name else s.name.rsplit(".", 1)[-1] if "@" in s.name else ""
        return int(tail) if tail.isdigit() else -1

    def param(self, name: str) -> sympy.Symbol:
        return sympy.Symbol(name, integer=True)

    def trip(self, line: int, counter: Optional[str] = None) -> sympy.Symbol:
        """The trip counter (0, 1, ...) of the loop on ``line``: ``k@12.3``, or ``k@j:12.3`` when the loop's own
        counter ``j`` starts at 0 and steps by 1 (:func:`cudalint.rules.spell` shows ``j``)."""
        name = f"{TRIP_PREFIX}{counter}:{line}" if counter else f"{TRIP_PREFIX}{line}"
        s = sympy.Symbol(f"{name}.{next(self._counter)}", integer=True, nonnegative=True)
        self.trip_counters.add(s)
        return s

    def is_loop_condition(self, value) -> bool:
        """Whether ``value`` is the condition of the loop one of its trip counters counts (a false value ends
        that loop's trips), not a branch inside it."""
        syms = getattr(value, "free_symbols", set()) & self.trip_counters
        return any(self.loop_conds.get(t) == value for t in syms)

    def opaque(self, hint: str, varying: bool, pow2: bool = False, sources: Optional[tuple] = None,
               unseen: bool = False) -> sympy.Symbol:
        """A fresh value; ``unseen``: the result of a call cudalint cannot see into (its body is not in the
        translation unit, or a dependent call it could not resolve), remembered in :attr:`unseen`: nothing is known
        of it, not even that it is not a multiple of 32."""
        s = sympy.Symbol(f"{hint}#{next(self._counter)}", integer=True)
        if unseen:
            self.unseen.add(s)
        if varying:
            self.varying.add(s)
            if sources is not None:
                self.sources[s] = tuple(sources)
        elif sources:
            self.uniform_sources[s] = tuple(sources)
        if pow2:
            self.pow2.add(s)
        return s

    def is_pow2(self, expr) -> bool:
        """Known to be a power of two: a constant 2^k, ``1 << k``, a loop variable doubled or halved each trip."""
        if not isinstance(expr, sympy.Basic):
            return False
        if expr.is_Integer:
            return (v := int(expr)) > 0 and v & (v - 1) == 0
        if expr.is_Mul:  # a product of powers of two (`2 * s` with `s` doubled each trip)
            return all(self.is_pow2(f) for f in expr.args)
        return expr in self.pow2

    def is_varying(self, expr) -> bool:
        """Whether ``expr`` (a sympy value, or a pointer: its offset) differs between the lanes of a warp."""
        return bool(getattr(getattr(expr, "offset", expr), "free_symbols", set()) & self.varying)

    def varies_in_block(self, expr, block: Optional[tuple[int, int, int]]) -> bool:
        """:meth:`is_varying` decided again for a launch's ``block`` (its shape, numbers): thread terms that take one
        value in every thread of it (:func:`pin_threads`: ``threadIdx.x / 128`` with 128 threads, ``threadIdx.y`` in
        a one-row block) are not thread dependence, and an opaque value made from varying values (a load, a
        loop-carried value) varies only when one of its :attr:`sources` still does (HeCBench's word2vec:
        ``word = threadIdx.x / 128 + blockIdx.x`` with 128 threads, ``seed = seeds[word]`` is block-uniform).
        ``block`` None: :meth:`is_varying`."""
        if block is None or not self.is_varying(expr):
            return self.is_varying(expr)
        return self._varies(getattr(expr, "offset", expr), tuple(block), frozenset())

    def _varies(self, expr, block: tuple, seen: frozenset) -> bool:
        if not isinstance(expr, sympy.Basic):
            return self.is_varying(expr)
        for s in pin_threads(expr, block).free_symbols & self.varying:
            if s in TID or s not in self.sources:
                return True
            # a value that depends on itself (a loop-carried one) through no other varying value does not vary
            if s not in seen and any(self._varies(getattr(v, "offset", v), block, seen | {s}) for v in self.sources[s]):
                return True
        return False


@lru_cache(maxsize=4096)
def pin_threads(expr: sympy.Basic, block: tuple[int, int, int]) -> sympy.Basic:
    """``expr`` for the threads of one block of shape ``block`` (numbers; a member left symbolic where only the
    others are known): blockDim as numbers, a threadIdx member
    of extent 1 as 0, and ``floor(a + g)`` as ``a`` when ``a`` is a thread-free integer and the thread part ``g``
    (threadIdx members with nonnegative number factors) is in ``[0, 1)`` for every thread of the block
    (``floor(threadIdx.x / 128)`` with 128 threads: 0).  Exact: C's truncating division of nonnegative values is
    the floor the interpreter writes."""
    # numbers as sympy's: `threadIdx.y` itself with one row pinned to a Python 0 had no `.has` (DGL's labor sampling)
    e = expr.xreplace({d: sympy.sympify(n) for d, n in zip(BDIM, block)}).xreplace(
        {t: sympy.Integer(0) for t, n in zip(TID, block) if n == 1})

    def fold(x):
        x = sympy.expand(x)
        g = sympy.Add(*(t for t in sympy.Add.make_args(x) if t.free_symbols & set(TID)))
        a = x - g
        top = 0
        for t in sympy.Add.make_args(g):
            c, rest = t.as_coeff_Mul()
            if rest not in TID or not c.is_Number or c < 0 or not isinstance(block[TID.index(rest)], int):
                return sympy.floor(x)
            top += c * (block[TID.index(rest)] - 1)
        return a if a.is_integer and top < 1 else sympy.floor(x)

    return e.replace(sympy.floor, fold) if e.has(sympy.floor) else e


#: ``Mod`` written as a call for :func:`int_function`: sympy's Python printer writes ``4*Mod(x, 32)`` as
#: ``4*x % 32``, which Python reads as ``(4*x) % 32`` (a warp scan's ``2*t - (t & 31)`` gave lane 8 the word of
#: lane 16: false 2-way conflicts in HeCBench's radix sort and split)
_CMOD = sympy.Function("c_mod")
_INT_MODULES = [{"floor": math.floor, "ceiling": math.ceil, "c_mod": lambda a, b: a % b, "Min": min, "Max": max},
                "math"]


def int_function(args, expr: sympy.Basic):
    """``expr`` as a Python function of ``args`` on plain numbers (``floor``, ``Mod``, ``Min``/``Max`` included),
    every ``Mod`` evaluated as a call (:data:`_CMOD`), never through the ``%`` operator's precedence.  Made once per
    ``(args, expr)`` and process (:func:`sympy.lambdify` prints and compiles source, about 1.4 ms a call here; four
    cuda-samples files asked for 412 functions of 28 expressions)."""
    return _int_function(tuple(args), expr)


@functools.lru_cache(maxsize=4096)
def _int_function(args: tuple, expr: sympy.Basic):
    if expr.has(sympy.Mod):
        expr = expr.replace(sympy.Mod, lambda a, b: _CMOD(a, b))
    return sympy.lambdify(args, expr, modules=_INT_MODULES)


def substitute(expr, mapping: dict):
    """``expr.xreplace(mapping)``, each comparison in it rebuilt through :func:`evaluated_relation` (the same value:
    sympy evaluates a comparison it builds, asking the assumptions of ``lhs - rhs``, about 1-3 ms a comparison here,
    and the same guard is substituted for every access under it: 0.49 of 2.9 s of a 500-line file's profile).  Any
    other value: ``xreplace`` itself."""
    if not mapping or not isinstance(expr, sympy.Basic):
        return expr
    if isinstance(expr, sympy.core.relational.Relational):
        return evaluated_relation(expr.func, expr.lhs.xreplace(mapping), expr.rhs.xreplace(mapping))
    if isinstance(expr, (sympy.And, sympy.Or, sympy.Not)):
        return expr.func(*(substitute(a, mapping) for a in expr.args))
    return expr.xreplace(mapping)


_ORDER = {sympy.StrictLessThan: lambda d: d < 0, sympy.LessThan: lambda d: d <= 0,
          sympy.StrictGreaterThan: lambda d: d > 0, sympy.GreaterThan: lambda d: d >= 0,
          sympy.Equality: lambda d: d == 0, sympy.Unequality: lambda d: d != 0}


@functools.lru_cache(maxsize=16384)
def evaluated_relation(func, lhs, rhs):
    """``func(lhs, rhs)`` as sympy evaluates it (``sympy.true``, ``sympy.false`` or the comparison itself), once
    per process for each comparison, and without sympy's assumption queries where their answer is known:

    * ``lhs - rhs`` a rational number: the comparison of that number with 0;
    * an order (``<``, ``<=``, ``>``, ``>=``) whose ``lhs - rhs`` has at least two free symbols and either a term
      of no known sign (``threadIdx.x - n``, ``n`` a kernel parameter) or two terms of opposite known signs
      (``threadIdx.x - 4*blockIdx.x``: a coefficient times a product of nonnegative symbols): sympy's sign of a sum
      (``Add._eval_is_extended_negative`` and its kin) gives no answer for such a sum, so the comparison stays as
      written.

    Anything else is sympy's own evaluation (about 3 ms a comparison of kernel symbols: 0.56 of 3.3 s in a 500-line
    file's profile, for comparisons the second case answers).  ``tests/test_symbols.py`` checks both cases against
    sympy."""
    check = _ORDER.get(func)
    if check is not None and isinstance(lhs, sympy.Expr) and isinstance(rhs, sympy.Expr):
        d = lhs - rhs
        if isinstance(d, sympy.Rational):
            return sympy.true if check(d) else sympy.false
        if func not in (sympy.Equality, sympy.Unequality) and isinstance(d, sympy.Add) \
                and len(d.free_symbols) >= 2 and _no_sign(d):
            return func(lhs, rhs, evaluate=False)
    return func(lhs, rhs)


def _no_sign(d) -> bool:
    """Whether sympy's sign queries of the sum ``d`` (two free symbols or more) answer nothing: a term of unknown sign,
    or two terms of opposite known signs (:func:`_term_sign`), leave ``Add._eval_is_extended_negative`` and its kin
    without an answer."""
    signs = {_term_sign(t) for t in d.args}
    return "?" in signs or {-1, 1} <= signs


def _term_sign(term):
    """The sign of ``term`` as sympy's assumptions see it, when ``term`` is a rational coefficient times a product of
    symbols: 1 or -1 (the coefficient's sign) when every symbol is nonnegative (to positive integer powers), ``"?"``
    when a symbol of no known sign appears to the first power (a kernel parameter ``n``: sympy knows no sign of the
    term); None when not of that form."""
    coeff, rest = term.as_coeff_Mul()
    if not isinstance(coeff, sympy.Rational) or coeff == 0 or rest == 1:
        return None
    unknown = False
    for f in sympy.Mul.make_args(rest):
        base, exp = f.as_base_exp()
        if not isinstance(base, sympy.Symbol) or not isinstance(exp, sympy.Integer) or exp <= 0:
            return None
        if base.is_nonnegative:
            continue
        if exp == 1 and base.is_nonnegative is None and base.is_nonpositive is None:
            unknown = True
            continue
        return None
    if unknown:
        return "?"
    return 1 if coeff > 0 else -1


def recombine_divmod(expr: sympy.Expr, rounds: int = 8) -> sympy.Expr:
    """``expr`` expanded, with each pair ``a*Mod(X, q) + a*q*floor(X/q)`` written as ``a*X``.

    Code that splits a flat index into coordinates and puts them back (``k = id % c; b = id / c;
    in[w*h*(k + b*c) + i]``: darknet's pooling kernels) addresses ``w*h*id + i``; without the identity the
    lanes' pattern is a Mod and a floor of run-time values, priced from samples as "scattered".  The identity
    ``q*(X/q) + X%q == X`` is exact for C's truncating division (C++ [expr.mul]/4) as for the floor and Mod
    the interpreter writes, so nothing is assumed.  At most ``rounds`` pairs are joined (nested splits
    ``id % c``, ``id / c % h``, ``id / c / h`` join one pair per round)."""
    expr = sympy.expand(expr)
    for _ in range(rounds):
        if not (expr.has(sympy.Mod) and expr.has(sympy.floor)):
            return expr
        joined = _join_one(sympy.Add.make_args(expr))
        if joined is None:
            return expr
        expr = joined
    return expr


def _join_one(terms: tuple) -> "sympy.Expr | None":
    for i, t in enumerate(terms):
        for m in (f for f in sympy.Mul.make_args(t) if isinstance(f, sympy.Mod)):
            x, q = m.args
            coeff = t / m
            want = sympy.expand(coeff * q)
            for j, u in enumerate(terms):
                if j == i:
                    continue
                for f in (f for f in sympy.Mul.make_args(u) if isinstance(f, sympy.floor)):
                    if sympy.expand(f.args[0] * q - x) == 0 and sympy.expand(u / f - want) == 0:
                        rest = [v for k, v in enumerate(terms) if k not in (i, j)]
                        return sympy.expand(sympy.Add(*rest) + coeff * x)
    return None
