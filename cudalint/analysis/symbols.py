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

import itertools

import sympy

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
        self.loop_spans: dict = {}  # power-of-two loop variable -> its loop's span (for `#pragma unroll`)
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

    def trip(self, line: int) -> sympy.Symbol:
        s = sympy.Symbol(f"k@{line}.{next(self._counter)}", integer=True, nonnegative=True)
        self.trip_counters.add(s)
        return s

    def is_loop_condition(self, value) -> bool:
        """Whether ``value`` is the condition of the loop one of its trip counters counts (a false value ends
        that loop's trips), not a branch inside it."""
        syms = getattr(value, "free_symbols", set()) & self.trip_counters
        return any(self.loop_conds.get(t) == value for t in syms)

    def opaque(self, hint: str, varying: bool, pow2: bool = False) -> sympy.Symbol:
        s = sympy.Symbol(f"{hint}#{next(self._counter)}", integer=True)
        if varying:
            self.varying.add(s)
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
