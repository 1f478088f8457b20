"""Warp-level hardware model: from a symbolic byte offset to sectors, banks and distinct addresses.

Facts used (DESIGN.md §3, CUDA C++ Programming Guide, "Compute Capability 9.x" / "Global Memory" and
"Shared Memory" sections; confirmed on an H200 in GROUND_TRUTH.md and ``fixtures/measured/``):

* a warp is 32 consecutive linear thread ids, linear id = x + y*Bx + z*Bx*By;
* a global-memory request is served in 32-byte sectors; ``sectors_per_request`` is the number of distinct
  32-byte-aligned segments the active lanes touch; ideal = ceil(active_lanes * size / 32);
* ``cudaMalloc`` bases are aligned to 256 bytes, so an offset's residue modulo 32 bytes decides alignment;
* shared memory has 32 banks of 4 bytes, bank = (byte address / 4) mod 32; the conflict degree of a
  request is the largest number of *distinct* 4-byte words in one bank (same word = broadcast);
  8- and 16-byte accesses are served in 2 and 4 phases of 16 and 8 lanes.

Only this module enumerates lanes.  Sympy is used once per access to split the expression; the lane
loop runs on plain Python integers through :func:`sympy.lambdify`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import itertools
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Optional

import sympy

from .symbols import (BDIM, BID, REPRESENTATIVE_BLOCK_X, REPRESENTATIVE_BLOCK_YZ, REPRESENTATIVE_SCALE, TID, Symbols,
                      int_function, substitute)

WARP = 32
SECTOR = 32
BANKS = 32
BANK_WIDTH = 4
#: blocks pictured when the block index shapes the lanes' pattern (a row break inside a warp: `g + g / (w + 4)`):
#: blockIdx = REPRESENTATIVE_SCALE + j * SAMPLE_BLOCK_STEP for j < SAMPLE_BLOCKS, a step prime to any power of two so
#: the rows the samples fall in take every residue
SAMPLE_BLOCKS = 32
SAMPLE_BLOCK_STEP = 37


@dataclass
class LaunchShape:
    """blockDim as known for one kernel: exact ints, or ``None`` (blockDim.x assumed a multiple of 32).  ``free``:
    the axes a launch leaves to run time (``dim3(4, 8, n)``), given as 1 in ``block``: each warp is whole rows
    of the known axes, so its lanes are known, and blockDim stays a run-time value on those axes."""

    block: Optional[tuple[int, int, int]]
    source: str
    free: tuple[int, ...] = ()
    #: why a block the user gave was not used (over the hardware's threads per block), else ""
    rejected: str = ""

    @property
    def known(self) -> dict:
        """blockDim's known values, for substitution."""
        return {b: v for i, (b, v) in enumerate(zip(BDIM, self.block or ())) if i not in self.free}

    @property
    def full(self) -> Optional[tuple[int, int, int]]:
        """``block`` when every axis is known, else None."""
        return None if self.free else self.block


@dataclass
class WarpPicture:
    """The lanes of every warp of one block, as byte offsets from the array's base.

    ``warps[w][lane]`` is the byte offset of lane ``lane`` of warp ``w`` (``None`` for an inactive lane of a
    partial warp).  ``residues`` are the possible values (mod 32 bytes) of the part of the offset that is
    the same for all lanes (blockIdx, parameters, loop counters); ``exact_residue`` tells whether that set
    is a single known value.  ``stride`` is d(offset)/d(threadIdx.x) in bytes, an int or a sympy expression.
    """

    warps: list[list[int]]
    residues: list[int]
    exact_residue: bool
    stride: object
    assumptions: list[str] = field(default_factory=list)
    #: when every warp is the same lane pattern shifted: (pattern, base offset of each warp)
    shifted: Optional[tuple[list[int], list[int]]] = None
    #: the values of the power-of-two loop variable whose trips ``warps`` holds (empty: no such loop)
    loop_values: tuple[int, ...] = ()
    #: the residues the code itself shows: constants, blockIdx and loop-counter terms, every value equally
    #: likely (a run-time parameter's part taken as a multiple of 32 bytes)
    proven_residues: list[int] = field(default_factory=list)
    #: the residues the block index alone gives (its terms' coefficients), every block equally likely: blocks of 8
    #: 3-byte pixels start at 0, 24, 16 and 8 bytes (a loop counter's values are the trips', not every multiple)
    block_residues: list[int] = field(default_factory=list)
    #: with sample blocks (``g + g / (w + 4)``): how many of ``warps`` are the first block's (blockIdx = 4096), whose
    #: count the rules' verdicts read as before the blocks were averaged (:func:`first_block`); 0 otherwise
    block_warps: int = 0
    #: guards leave some lanes of a warp out (``if (tid & 1)``): fewer requesting lanes, not a stride
    masked: bool = False
    #: the picture of each trip of that loop (or of a loop whose counter a guard compares with threadIdx)
    trips: list = field(default_factory=list)
    #: the run-time values of the lanes' part taken as large samples (REPRESENTATIVE_SCALE): ``{s00}``
    samples: frozenset = frozenset()
    #: when guards leave lanes out: the lane number (0-31) of each entry of each warp of ``warps``; a shared
    #: request of 8 or 16 bytes is split by lane number (half-warps, quarter-warps), not by active-lane order
    lane_ids: list = field(default_factory=list)
    #: the sampled values (of ``samples``) that an int ``stride`` found from the lanes' addresses rests on: the distance
    #: changes when they do (``x[(i / W) * (H * W + 1) ...]``: "67108864 bytes" for H = W = 4096; semseg's psamask)
    stride_samples: tuple = ()


class NotModelled(Exception):
    """The offset cannot be turned into lane addresses (a thread-varying loaded value, a symbolic stride
    in shared memory...).  Rules stay silent on such accesses."""


@functools.lru_cache(maxsize=4096)
def _lane_function(thread_part: sympy.Expr):
    """A plain-int function (x, y, z) -> offset: affine parts as integer coefficients, anything else
    (Mod, floor, Min/Max) through :func:`sympy.lambdify`."""
    coeffs, rest = [], thread_part
    for t in TID:
        c = thread_part.coeff(t, 1) if rest.has(t) else sympy.Integer(0)
        if not c.is_Integer:
            break
        coeffs.append(int(c))
        rest = rest - c * t
    else:
        rest = sympy.expand(rest)
    if len(coeffs) == 3 and rest.is_Integer:
        cx, cy, cz, c0 = *coeffs, int(rest)
        fn = lambda x, y, z: cx * x + cy * y + cz * z + c0  # noqa: E731
        fn.affine = (cx, cy, cz, c0)  # type: ignore[attr-defined]
        return fn
    return int_function(TID, thread_part)


def _loop_values(sym, shape: LaunchShape, symbols: Symbols) -> Optional[list[int]]:
    """The values a power-of-two loop variable takes (start, doubled or halved while the loop condition
    holds), when the condition can be decided with blockDim known; else None."""
    if shape.block is None or sym not in symbols.pow2_loops:
        return None
    start, factor, cond = symbols.pow2_loops[sym]
    known = shape.known
    values, v = [], start
    while v >= 1 and len(values) <= 64:
        holds = cond.xreplace({**known, sym: v})
        if holds is sympy.false:
            break
        if holds is not sympy.true:
            return None
        values.append(v)
        v = v * 2 if factor > 0 else v // 2
    return values or None


#: blocks a guard mixing blockIdx and threadIdx is evaluated in: the same lanes in all of them, or abstain
_SAMPLE_BLOCKS = ((0, 0, 0), (1, 0, 0), (2, 1, 1), (3, 2, 1), (7, 3, 2))


def thread_coords(shape: LaunchShape) -> list[tuple[int, int, int]]:
    """(x, y, z) of each thread of the block by linear id (blockDim unknown: REPRESENTATIVE_BLOCK_X threads in x).
    The list is shared between calls for one block: read it, never change it."""
    return _coords(tuple(shape.block or (REPRESENTATIVE_BLOCK_X, 1, 1)))


@functools.lru_cache(maxsize=64)
def _coords(block: tuple) -> list[tuple[int, int, int]]:
    bx, by, bz = block
    return [(lin % bx, (lin // bx) % by, lin // (bx * by)) for lin in range(bx * by * bz)]


def _active_lanes(guards: tuple, shape: LaunchShape, symbols: Optional[Symbols] = None) -> Optional[list[bool]]:
    """Which threads of a block (by linear id) take every guard that can be decided per lane: a guard of
    threadIdx (and of blockDim once known; only threadIdx.x when blockDim is not known), one that also reads a loop's
    trip counter or an unknown blockDim.x but selects the same lanes for every sampled value of them
    (``(threadIdx.x + k * blockDim.x) % 2 == 0``: CTranslate2's interleaved rotary), a negated one (the
    else branch), an integer used as a truth value (``tid % 2``, ``tid & 1``), or one that also reads
    blockIdx when it selects the same lanes in every sampled block; an equality of a value distinct in every
    lane of a warp with a block-uniform one (``threadIdx.x + blockDim.x * blockIdx.x == total - 1``, the last
    thread's padding: ispass' md5) leaves at most one lane of each warp, counted as its first; one false for the
    launch's values leaves none.  Others (a run-time bound ``i < n``) leave all lanes active.  None: no guard
    restricts the lanes."""
    known = shape.known
    tids = set(TID) if shape.block else {TID[0]}
    coords = thread_coords(shape)
    active: Optional[list[bool]] = None
    box = None   # the smallest and largest threadIdx of the block, per axis
    conjuncts = [c for g in guards if isinstance(g, sympy.Basic) for c in sympy.And.make_args(_nnf(g))]
    if symbols is not None and (narrow := _narrow_interval(conjuncts, coords, tids, symbols)) is not None:
        active = narrow
    for g in conjuncts:
        g = substitute(g, known)
        if isinstance(g, sympy.Expr):
            g = sympy.Ne(g, 0)  # `if (tid % 2)`
        if g is sympy.false:  # false for the launch's values (`(uintptr_t)&b[first + 4 * i] % 16 == 0`, first 1)
            return [False] * len(coords)
        if symbols is not None and (one := _one_lane(g, coords, tids, symbols)) is not None:
            active = one if active is None else [a and m for a, m in zip(active, one)]
            continue
        fs = g.free_symbols
        # sampled besides blockIdx: a loop's trip counter, and blockDim.x where the block is not known (taken as a
        # multiple of 32): `(threadIdx.x + k * blockDim.x) % 2 == 0` selects the even lanes whatever k and blockDim.x
        counters = sorted(fs & (symbols.trip_counters if symbols is not None else set()), key=str)
        width = [BDIM[0]] if BDIM[0] in fs and not shape.block else []
        if not isinstance(g, sympy.logic.boolalg.Boolean) or not fs & tids or len(counters) > 2 \
                or fs - tids - set(BID) - set(counters) - set(width):
            continue
        extra = counters + width
        blocks = _SAMPLE_BLOCKS if fs & set(BID) else _SAMPLE_BLOCKS[:1]
        values = [(0, 1, 2, 5)] * len(counters) + [(WARP * 8, WARP * 3)] * len(width)
        if box is None:
            box = [(min(c[i] for c in coords), max(c[i] for c in coords)) for i in range(3)]
        if (same := _linear_everywhere(g, box, blocks, list(zip(extra, values)))) is not None:
            mask = (same,) * len(coords)   # what the enumeration below finds, without it
            active = list(mask) if active is None else [a and m for a, m in zip(active, mask)]
            continue
        grid = [tuple(b) + tuple(v) for b in blocks for v in itertools.product(*values)]
        try:
            fn = int_function(TID + BID + tuple(extra), g)
            masks = {tuple(bool(fn(x, y, z, *b)) for x, y, z in coords) for b in grid}
        except (TypeError, ValueError, ZeroDivisionError, NameError):
            continue
        if len(masks) != 1:
            continue  # depends on the block: abstain
        mask = masks.pop()
        active = list(mask) if active is None else [a and m for a, m in zip(active, mask)]
    return active


def _linear_everywhere(g, box: list, blocks: tuple, sampled: list) -> Optional[bool]:
    """The one value of the comparison ``g`` in every thread of the block (``box``: the smallest and largest
    threadIdx per axis) and every sampled block and value of
    ``sampled`` ((symbol, values) pairs), when ``g`` compares an expression linear in threadIdx, blockIdx and those
    symbols with integer coefficients, and its smallest and largest values over that box fall on one side: then every
    lane of every sample agrees (a bounds check ``i < n`` with ``n`` from the launch, in a grid-stride loop: 1024
    threads x 5 blocks x 4 trips evaluated one by one before).  None otherwise (then each is evaluated)."""
    if not isinstance(g, (sympy.StrictLessThan, sympy.LessThan, sympy.StrictGreaterThan, sympy.GreaterThan)):
        return None
    d = sympy.expand(g.lhs - g.rhs)
    ranges = dict(zip(TID, box))
    ranges.update({b: (min(x[i] for x in blocks), max(x[i] for x in blocks)) for i, b in enumerate(BID)})
    ranges.update({sym: (min(v), max(v)) for sym, v in sampled})
    lo = hi = 0
    rest = d
    for sym in d.free_symbols:
        c = d.coeff(sym)
        if sym not in ranges or not c.is_Integer:
            return None
        rest -= c * sym
        a, b = c * ranges[sym][0], c * ranges[sym][1]
        lo, hi = lo + min(a, b), hi + max(a, b)
    rest = sympy.expand(rest)
    if not rest.is_Integer:
        return None
    lo, hi = int(lo + rest), int(hi + rest)
    test = {sympy.StrictLessThan: lambda v: v < 0, sympy.LessThan: lambda v: v <= 0,
            sympy.StrictGreaterThan: lambda v: v > 0, sympy.GreaterThan: lambda v: v >= 0}[type(g)]
    at_lo, at_hi = test(lo), test(hi)
    return at_lo if at_lo == at_hi else None


def _nnf(g):
    """A negated guard with the negation pushed inside (``!(t > 3 || (b == 3 && t > 1))`` -> ``t <= 3 && !(b == 3 &&
    t > 1)``), so that its conjuncts that read only threadIdx still select lanes when another reads blockIdx."""
    if isinstance(g, sympy.Not) and isinstance(g.args[0], (sympy.Or, sympy.And)):
        with contextlib.suppress(Exception):  # sympy refuses some operands
            return sympy.logic.boolalg.to_nnf(g, simplify=False)
    return g


def _one_lane(g, coords: list, tids: set, symbols: Symbols) -> Optional[list[bool]]:
    """For ``a == b`` whose sides differ by ``t + u``, ``t`` built from threadIdx only and distinct in the lanes of
    every warp, ``u`` free of threadIdx and not thread-varying: the first lane of each warp (at most one lane can
    hold), else None."""
    if not isinstance(g, sympy.Eq):
        return None
    d = sympy.expand(g.lhs - g.rhs)
    t = sympy.Add(*(x for x in sympy.Add.make_args(d) if x.free_symbols & set(TID)))
    u = d - t
    if t == 0 or t.free_symbols - tids or symbols.is_varying(u):
        return None
    try:
        f = int_function(TID, t)
        values = [f(*c) for c in coords]
    except (TypeError, ValueError, ZeroDivisionError, NameError):
        return None
    warps = [values[i:i + WARP] for i in range(0, len(values), WARP)]
    if any(len(set(w)) != len(w) for w in warps):
        return None
    return [lin % WARP == 0 for lin in range(len(coords))]


def _narrow_interval(conjuncts: list, coords: list, tids: set, symbols: Symbols) -> Optional[list[bool]]:
    """For two comparisons that bound one thread term ``t`` (built from threadIdx only, distinct in the lanes of every
    warp) from both sides, ``t + u1 > 0`` and ``t + u2 < 0`` with ``u1``, ``u2`` free of threadIdx and not
    thread-varying, whose interval ``(-u1, -u2)`` is narrower than the smallest step of ``t`` between two lanes of a
    warp: at most one lane holds both, counted as the first lane of each warp (a vectorised fill's scalar tail,
    ``if (col + 16 <= n) {..} else for (i = 0; i < 16 && col + i < n; i++) out[col + i] = ..`` with ``col = 16 *
    tid``: one lane stores the tail; alibaba/MNN's DequantizeInt4Weight).  None otherwise."""
    lows, highs = [], []
    for c in conjuncts:
        if not isinstance(c, sympy.core.relational.Relational) or isinstance(c, (sympy.Eq, sympy.Ne)):
            continue
        d = sympy.expand(c.lhs - c.rhs)  # c: d > 0, d >= 0, d < 0 or d <= 0
        t = sympy.Add(*(x for x in sympy.Add.make_args(d) if x.free_symbols & set(TID)))
        if t == 0 or t.free_symbols - tids or symbols.is_varying(d - t):
            continue
        above = isinstance(c, (sympy.StrictGreaterThan, sympy.GreaterThan))
        strict = isinstance(c, (sympy.StrictGreaterThan, sympy.StrictLessThan))
        if t.could_extract_minus_sign():  # -t + u > 0: t - u < 0
            t, d, above = -t, -d, not above
        (lows if above else highs).append((t, d - t, strict))
    for t, u1, s1 in lows:
        for t2, u2, s2 in highs:
            if t2 != t:
                continue
            try:
                f = int_function(TID, t)
                values = [f(*c) for c in coords]
            except (TypeError, ValueError, ZeroDivisionError, NameError):
                return None
            warps = [sorted(values[i:i + WARP]) for i in range(0, len(values), WARP)]
            if any(len(set(w)) != len(w) for w in warps):
                return None
            step = min((b - a for w in warps for a, b in zip(w, w[1:])), default=None)
            if not step:  # one lane a warp: nothing to narrow
                return None
            width = sympy.expand(u1 - u2)  # t in (-u1, -u2), or with an end included
            if ((width - step).is_nonpositive if s1 and s2 else (width - step).is_negative):
                return [lin % WARP == 0 for lin in range(len(coords))]
    return None


#: a tensor accessor's run-time extent (:class:`cudalint.analysis.interpreter.Accessor`): ``x.size(1)``
_TENSOR_SIZE = re.compile(r"([\w.]+)\.size\(\d+\)")


def _trip_values(sym, guards: tuple, shape: LaunchShape) -> Optional[list[int]]:
    """The values a loop trip counter takes, from the loop's own condition (a guard of that counter
    alone, blockDim substituted when known): 0, 1, ... while it holds (at most 64 trips), else None."""
    known = shape.known
    conds = [c for c in (substitute(g, known) for g in guards if isinstance(g, sympy.logic.boolalg.Boolean))
             if c.free_symbols == {sym}]
    if not conds:
        return _strided_trips(sym, guards, shape)
    for v in range(65):
        if not all(substitute(c, {sym: v}) is sympy.true for c in conds):
            return list(range(v)) or None
    return None


def _strided_trips(sym, guards: tuple, shape: LaunchShape) -> Optional[list[int]]:
    """The trips of a block-strided loop over a constant bound (``for (ii = threadIdx.x; ii < 8; ii += blockDim.x)``:
    its condition reads the counter, threadIdx and blockDim only) in which some thread of the block takes it: 0, 1,
    ... up to the first trip no thread takes (at most 64 trips), else None.  blockDim unknown: the block
    :func:`thread_coords` enumerates (REPRESENTATIVE_BLOCK_X threads in x), so a bound below 32 leaves the lanes
    past it out of the first trip and makes no second one."""
    dims = dict(zip(BDIM, shape.block or (REPRESENTATIVE_BLOCK_X, 1, 1)))
    conds = [g.xreplace(dims) for g in guards if isinstance(g, sympy.Basic) and isinstance(
        g, sympy.logic.boolalg.Boolean) and sym in g.free_symbols and g.free_symbols <= {sym, *TID, *BDIM}]
    if not conds or any(c.free_symbols - {sym, *TID} for c in conds):
        return None
    coords = thread_coords(shape)
    for v in range(65):
        cs = [c.xreplace({sym: v}) for c in conds]
        if not any(all(c.xreplace(dict(zip(TID, xyz))) is sympy.true for c in cs) for xyz in coords):
            return list(range(v)) or None
    return None


def picture(offset: sympy.Expr, shape: LaunchShape, symbols: Symbols, space: str, guards: tuple = ()) -> WarpPicture:
    """:func:`_picture`; an offset that the sampled values divide by zero (``c % (c / (s * s))`` with the one
    large sample for both ``c`` and ``s``: darknet's reorg kernel; a NaN from ``x / (k - 4096)`` with ``k`` sampled
    as 4096: HeCBench's lut-gemm) is not modelled rather than an internal error.

    Raises :class:`NotModelled` as :func:`_picture` does, and then."""
    try:
        return _picture(offset, shape, symbols, space, guards)
    except ZeroDivisionError as e:
        raise NotModelled(f"the sampled values divide by zero ({e})") from None


def _picture(offset: sympy.Expr, shape: LaunchShape, symbols: Symbols, space: str, guards: tuple = ()) -> WarpPicture:
    """Enumerate the lanes of each warp of a block for a byte ``offset`` expression.

    ``guards`` are the conditions the access sits under: those that can be decided per lane decide which
    lanes are active (:func:`_active_lanes`); warps left with no active lane do not issue the access.  A
    power-of-two loop variable with a constant start (``for (s = 1; s < blockDim.x; s *= 2)``), and a loop
    counter that a guard compares with threadIdx (``for (m = 0; m < 16; m++) if (tx <= m)``), are
    enumerated over their values: the picture then holds the warps of every trip (``trips``: each one's).

    Raises :class:`NotModelled` when the offset depends on a thread-varying opaque value, or (for
    ``space='shared'``) when the stride between lanes depends on a run-time value.
    """
    loop_syms = [s for s in offset.free_symbols if s in symbols.pow2_loops]
    values = _loop_values(loop_syms[0], shape, symbols) if len(loop_syms) == 1 else None
    if values:
        return _trips(offset, loop_syms[0], values, shape, symbols, space, guards,
                      f"loop variable {str(loop_syms[0]).split('#')[0]} takes {', '.join(map(str, values))} "
                      f"(every trip's warps are counted)")
    # A guard comparing threadIdx with a loop counter (`if (tx <= m)`): enumerate the trips.
    for sym in sorted({s for g in guards if isinstance(g, sympy.Basic) for s in g.free_symbols
                       if s in symbols.trip_counters and g.free_symbols & set(TID)}, key=str)[:1]:
        if values := _trip_values(sym, guards, shape):
            return _trips(offset, sym, values, shape, symbols, space, guards, f"the loop's {len(values)} trips are "
                          "counted (the lanes its condition leaves out do not issue the access)")
    assumptions: list[str] = []
    stride_samples: tuple = ()
    expr = sympy.expand(sympy.expand(offset).subs(shape.known))  # blockDim substituted where known
    # blockDim unknown: blockDim.x assumed a multiple of 32, so threadIdx.y/z are the same for the whole warp
    tid = set(TID) if shape.block else {TID[0]}
    samples: frozenset = frozenset()
    if (expr.free_symbols & symbols.varying) - set(TID):
        raise NotModelled("the index depends on a value loaded or computed per thread")

    thread_terms, uniform_terms = [], []
    for term in sympy.Add.make_args(expr):
        (thread_terms if term.free_symbols & tid else uniform_terms).append(term)
    thread_part = sympy.Add(*thread_terms)
    d = sympy.diff(thread_part, TID[0])
    stride = None if d.free_symbols & tid else int(d) if d.is_Integer else d  # None: not linear in threadIdx.x

    unsampled, subs, bid_samples = thread_part, {}, []
    if scale_syms := thread_part.free_symbols - set(TID):
        if space == "shared":
            raise NotModelled("the stride between lanes depends on a run-time value")
        block = dict(zip(BDIM, (REPRESENTATIVE_BLOCK_X, *REPRESENTATIVE_BLOCK_YZ)))
        subs = {s: block.get(s, REPRESENTATIVE_SCALE) for s in sorted(scale_syms, key=str)}
        samples = frozenset(s for s in subs if s not in BID)
        if scale_syms & set(BID):
            # the block index shapes the lanes' pattern, not only its base (`g + g / (w + 4)`, g the global index:
            # rows of w + 5 elements; CloverLeaf's THARR2D): one block's row would stand for all, so
            # SAMPLE_BLOCKS blocks spread over the grid are pictured and their warps averaged
            bid_samples = [REPRESENTATIVE_SCALE + j * SAMPLE_BLOCK_STEP for j in range(SAMPLE_BLOCKS)]
        for s, v in subs.items():
            name = str(s).split("#")[0]
            if s in BID:
                assumptions.append(f"{name} = {bid_samples[0]}, {bid_samples[1]} ... {bid_samples[-1]} "
                                   f"({SAMPLE_BLOCKS} sample blocks, their warps averaged)" if bid_samples
                                   else f"{name} = {v} (a sample block)")
                continue
            why = ("a representative run-time block: at most 1,024 threads" if s in BDIM[1:]
                   else "a representative large run-time value")
            if m := _TENSOR_SIZE.fullmatch(str(s)):
                why += f"; the tensor `{m[1]}` taken as contiguous, its strides the products of its later sizes"
            assumptions.append(f"{name} = {v} ({why})")
        thread_part = thread_part.subs(subs)
        if thread_part.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo):  # `x / (k - 4096)` with k sampled 4096
            raise ZeroDivisionError("a divisor is zero for the samples")

    active = _active_lanes(guards, shape, symbols)

    # Lane enumeration over plain ints.
    f = _lane_function(thread_part)
    coords = thread_coords(shape)
    affine = getattr(f, "affine", None)
    if affine is not None and (shape.block or (REPRESENTATIVE_BLOCK_X,))[0] % WARP == 0 and active is None \
            and not bid_samples:
        # Every warp is 32 consecutive x of one (y, z) row: the same lane pattern, shifted.
        pattern = [affine[0] * lane for lane in range(WARP)]
        bases = [f(*c) for c in coords[::WARP]]
        warps, shifted = [[b + d for d in pattern] for b in bases], (pattern, bases)
    else:
        warps, shifted = [], None
    lane_ids: list = []
    blocks = [f]
    if bid_samples:  # one function of the lanes and the block index, compiled once for every sample block
        bids = tuple(b for b in BID if b in subs)
        by_block = int_function(tuple(TID) + bids, unsampled.xreplace({s: v for s, v in subs.items() if s not in BID}))
        blocks += [lambda x, y, z, v=v: by_block(x, y, z, *(v,) * len(bids)) for v in bid_samples[1:]]
    per_block = (len(coords) + WARP - 1) // WARP  # warps in a block
    for g in blocks:
        for w in range(len(warps) if g is f else 0, per_block):
            lanes = [lin - w * WARP for lin in range(w * WARP, min((w + 1) * WARP, len(coords)))
                     if active is None or active[lin]]
            warps.append([int(g(*coords[w * WARP + lane])) for lane in lanes])
            lane_ids.append(lanes if active is not None else None)

    if stride is None and warps and all(len(w) == WARP for w in warps):
        # not linear in threadIdx.x, yet one step between the lanes of every warp (`t % 32 * 64`, a tile's
        # thread_rank() times a pitch): that step is the lanes' stride
        # (or one step between nearly all: a row break inside some warps, `g + g / (w + 4)` over sample blocks)
        steps = Counter(b - a for w in warps for a, b in zip(w, w[1:]))
        step, count = steps.most_common(1)[0]
        stride = step if len(steps) == 1 or (bid_samples and count >= 0.9 * sum(steps.values())) else None
        if stride is not None and samples:
            stride_samples = _resting_on(unsampled, subs, samples, coords[:2], stride)

    # The uniform part: residues modulo 32 bytes.
    const = 0
    gcd = proven_gcd = block_gcd = SECTOR
    pitch_syms: set[str] = set()
    counters = set(BID) | set(BDIM) | symbols.trip_counters
    for term in uniform_terms:
        if term.is_Integer:
            const += int(term)
            continue
        coeff, rest = term.as_coeff_Mul()  # every value of the term is a multiple of div (blockDim.x, if left, of 32)
        div = (abs(int(coeff)) if coeff.is_Integer else 1) * (WARP if BDIM[0] in rest.free_symbols else 1)
        degree = sum(int(e) if getattr(e, "is_Integer", False) else 1 for e in rest.as_powers_dict().values())
        if degree >= 2 and div % SECTOR:  # a product of two or more run-time symbols is a row pitch (`y*width`)
            pitch_syms.update(str(s).split("#")[0] for s in term.free_symbols
                              if s not in BDIM and not str(s).startswith(("blockIdx", "k@", "threadIdx")))
            continue
        gcd = math.gcd(gcd, div)
        if term.free_symbols <= counters:
            proven_gcd = math.gcd(proven_gcd, div)
        if term.free_symbols <= set(BID) | set(BDIM):
            block_gcd = math.gcd(block_gcd, div)
    if pitch_syms:
        assumptions.append(f"row pitch ({', '.join(sorted(pitch_syms))}) assumed a multiple of 32 bytes")
    residues, proven, by_block = (sorted({(const + k * g) % SECTOR for k in range(SECTOR // g)})
                                  for g in (gcd, proven_gcd, block_gcd))
    return WarpPicture(warps=warps, residues=residues, exact_residue=len(residues) == 1, proven_residues=proven,
                       block_residues=by_block, block_warps=per_block if bid_samples else 0,
                       stride=stride, assumptions=assumptions, shifted=shifted, samples=samples,
                       masked=any(0 < len(w) < WARP for w in warps) and active is not None,
                       lane_ids=lane_ids if active is not None else [], stride_samples=stride_samples)


def _resting_on(part: sympy.Expr, base: dict, samples: frozenset, lanes: list, step: int) -> tuple:
    """The sampled symbols (names, sorted) whose value the distance ``step`` between the first two ``lanes`` of
    ``part`` (the lanes' offset before sampling; ``base``: the values it was sampled at) changes with: each is sampled
    again at twice its value, the others kept."""
    out = []
    for s in sorted(samples & set(base), key=str):
        try:
            f = int_function(TID, part.subs({**base, s: 2 * base[s]}))
            if int(f(*lanes[1])) - int(f(*lanes[0])) != step:
                out.append(str(s).split("#")[0])
        except (TypeError, ValueError, ZeroDivisionError, NameError):
            return ()
    return tuple(out)


def _trips(offset: sympy.Expr, sym, values: list[int], shape: LaunchShape, symbols: Symbols, space: str,
           guards: tuple, note: str) -> WarpPicture:
    """One picture holding the warps of every trip of a loop, ``sym`` taking ``values`` (costs average over
    them; ``trips`` keeps each trip's picture for the worst).  A trip in which a guard cannot hold for any thread
    (an inner loop ``for (j = 0; j < i; ...)`` at ``i = 0``) makes no access and is left out."""
    guards = tuple(g for g in guards if isinstance(g, sympy.Basic))
    values = [v for v in values if not any(g.xreplace({sym: v}) is sympy.false for g in guards)] or values
    pics = [picture(offset.xreplace({sym: v}), shape, symbols, space, tuple(g.xreplace({sym: v}) for g in guards))
            for v in values]
    stride = sympy.diff(sympy.expand(offset), TID[0])
    return WarpPicture(
        warps=[w for p in pics for w in p.warps],
        residues=sorted(set().union(*(p.residues for p in pics))),
        exact_residue=all(p.exact_residue for p in pics) and len({tuple(p.residues) for p in pics}) == 1,
        proven_residues=sorted(set().union(*(p.proven_residues for p in pics))),
        # not linear in threadIdx.x (`2*t - (t & (stride - 1))`, cuda-samples' bitonic sort): no one stride
        stride=int(stride) if stride.is_Integer else (
            pics[0].stride if len({p.stride for p in pics}) == 1 and isinstance(pics[0].stride, int) else None)
        if stride.has(sympy.Derivative) or stride.free_symbols & set(TID) else stride,
        assumptions=[note, *pics[0].assumptions], loop_values=tuple(values), trips=pics,
        masked=any(p.masked for p in pics), samples=frozenset().union(*(p.samples for p in pics)),
        # each trip's lane numbers, so a wide access's phases stay fixed groups of lanes (:func:`bank_ways`)
        lane_ids=[ids for p in pics for ids in (p.lane_ids or [None] * len(p.warps))]
        if any(p.lane_ids for p in pics) else [])


# --- global memory -------------------------------------------------------------------------------

def sectors(lanes: list[int], size: int, residue: int = 0) -> int:
    """Distinct 32-byte sectors touched by ``lanes`` (byte offsets) each moving ``size`` bytes."""
    return len({s for a in lanes for s in range((a + residue) // SECTOR, (a + residue + size - 1) // SECTOR + 1)})


def _distinct_warps(pic: "WarpPicture", period: int) -> list[tuple[list[int], int]]:
    """Group warps that are translates of each other by a multiple of ``period`` bytes (32 keeps the
    sector count, 4 keeps the bank-conflict degree): returns (representative lanes, warps it stands for)."""
    if pic.shifted is not None:
        pattern, bases = pic.shifted
        return [([r + d for d in pattern], k) for r, k in Counter(b % period for b in bases).items()]
    groups: dict[tuple, list] = {}
    for w in filter(None, pic.warps):
        base = min(w) // period * period
        groups.setdefault(tuple(a - base for a in w), [w, 0])[1] += 1
    return [(w, k) for w, k in groups.values()]


def mean_sectors(pic: WarpPicture, size: int, residues: list[int]) -> tuple[float, int]:
    """(sectors per request averaged over the warps and over ``residues`` taken equally likely, the worst
    residue's): a block index times a row of 1200 bytes starts odd blocks 16 bytes into a sector.  A
    picture of a loop's trips averages its trips (each with its own residues); the worst is the worst trip's."""
    if pic.trips:
        per_trip = [mean_sectors(t, size, t.proven_residues) for t in pic.trips if any(t.warps)]
        return sum(m for m, _ in per_trip) / len(per_trip), max(per_trip)[1]
    groups = _distinct_warps(pic, SECTOR)
    n = sum(k for _, k in groups)
    per = [sum(sectors(w, size, r) * k for w, k in groups) / n for r in residues]
    return sum(per) / len(per), residues[per.index(max(per))]


def stated_sectors(pic: WarpPicture, cost: "GlobalCost", size: int) -> float:
    """The sectors per request a finding states: the one residue's where the uniform part is known, else the mean
    over the residues the block index shows (its terms' coefficients: ``blockIdx.x * 8`` 3-byte pixels start
    a block's rows 0, 24, 16 and 8 bytes into a sector, so a warp's four 24-byte rows take 4 or 8 sectors, 6 on
    average; jetson-utils' `uchar3` kernels in 8 x 8 blocks, census `be`), a run-time parameter's part taken as a
    multiple of 32 bytes; otherwise the aligned residue's (a loop counter's residues are its trips', which
    :attr:`WarpPicture.trips` pictures where it enumerates them), and so where the aligned block's count is at most
    one sector over the ideal (a few lanes' minimum: CL101 says so and calls it info)."""
    if pic.exact_residue:
        return cost.sectors_per_request
    if not pic.trips and len(set(pic.block_residues)) > 1 \
            and cost.aligned_sectors_per_request > cost.ideal_sectors_per_request + 1:
        return max(cost.aligned_sectors_per_request, mean_sectors(pic, size, pic.block_residues)[0])
    return cost.aligned_sectors_per_request


def first_block(pic: WarpPicture) -> WarpPicture:
    """``pic`` with only its first sample block's warps (:attr:`WarpPicture.block_warps`), or ``pic`` itself."""
    if not pic.block_warps:
        return pic
    return dataclasses.replace(pic, warps=pic.warps[:pic.block_warps], lane_ids=pic.lane_ids[:pic.block_warps],
                               shifted=None, block_warps=0)


def aligned_residue(pic: WarpPicture, size: int) -> int:
    """The residue of lane 0 that aligns the warp: 0, or the last element of a sector for a reversed unit stride
    (``a[n - 1 - tid]`` with n a multiple of 32 is as good as ``a[tid]``; ``a[n - tid]`` is misaligned)."""
    return -size % SECTOR if pic.stride == -size else 0


def sibling_use(pic: WarpPicture, size: int, parts: list[tuple[int, int]], residue: int) -> float:
    """Fraction of the bytes of the sectors an access's warps touch that the same lanes use through it and
    through ``parts``: (byte delta from this access, size) of the thread's other accesses to the same element
    (``p[i].a``, ``p[i].b`` ... of a struct read field by field).  Such a sector is fetched into L1 once and
    serves every field (stores: L2 merges the partial sector writes), so the fields together cost requests,
    not DRAM bytes (fixtures/global/struct_fields.cu, measured on the H200)."""
    total = n = 0.0
    for w, k in _distinct_warps(pic, SECTOR):
        touched = {b // SECTOR for a in w for b in range(a + residue, a + residue + size)}
        used = {b for a in w for d, s in parts for b in range(a + residue + d, a + residue + d + s)
                if b // SECTOR in touched}
        total += k * len(used) / (len(touched) * SECTOR)
        n += k
    return total / n if n else 0.0


@dataclass
class GlobalCost:
    """Per-request cost of a global access, averaged over the warps of a block."""

    sectors_per_request: float          # worst case over the possible base residues
    aligned_sectors_per_request: float  # with the uniform part aligned to 32 bytes
    ideal_sectors_per_request: float
    efficiency: float                   # requested bytes / (sectors * 32), capped at 1
    worst_residue: int
    worst_trip_sectors: Optional[float] = None  # the costliest loop trip (pictures with ``trips``)


def global_cost(pic: WarpPicture, size: int) -> GlobalCost:
    groups = _distinct_warps(pic, SECTOR)
    n = sum(k for _, k in groups)

    def mean(fn) -> float:
        return sum(fn(w) * k for w, k in groups) / n

    ideal = mean(lambda w: max(1, -(-len(w) * size // SECTOR)))
    aligned = mean(lambda w: sectors(w, size, aligned_residue(pic, size)))
    per = [mean(lambda w: sectors(w, size, r)) for r in pic.residues]
    worst = max(per)
    worst_r = pic.residues[per.index(worst)]
    eff = min(1.0, mean(lambda w: len(w) * size) / (worst * SECTOR))  # requested bytes / moved bytes
    trip = max((global_cost(t, size).sectors_per_request for t in pic.trips if any(t.warps)), default=None)
    return GlobalCost(worst, aligned, ideal, eff, worst_r, trip)


def unique_units(lanes: list[int], size: int, unit: int) -> int:
    """The ``unit``-byte units (sectors, 128-byte wavefronts) the lanes' distinct bytes fill, at least one: the ideal
    Nsight Compute's source counters state, for which lanes that read the same bytes count once."""
    return max(1, -(-len({a + b for a in lanes for b in range(size)}) // unit))


def counted_ideal(pic: WarpPicture, size: int, shared: bool) -> float:
    """The ideal per request as Nsight Compute's source counters count it, averaged over the block's warps as the
    cost is (:func:`global_cost`, :func:`shared_cost`): the sectors (global) or 128-byte wavefronts (shared) the
    active lanes' distinct bytes fill (``memory_l2_theoretical_sectors_global_ideal``,
    ``memory_l1_wavefronts_shared_ideal``). A broadcast load's is 1, not 4 (Rodinia gaussian's ``a_cuda[Size*t+t]``),
    a lone lane's 8-byte shared load 1, not 2 (tests/data/fidelity/template_instances.source.csv). Used by
    ``cudalint verify --report`` to compare with the hardware; 0.0 when no lane makes the access."""
    if shared and pic.lane_ids and phases(size) > 1:
        groups = [(w, 1) for w in pic.warps if w]
    else:
        groups = _distinct_warps(pic, BANK_WIDTH if shared else SECTOR)
    unit = BANKS * BANK_WIDTH if shared else SECTOR
    n = sum(k for _, k in groups)
    return sum(unique_units(w, size, unit) * k for w, k in groups) / n if n else 0.0


# --- shared memory -------------------------------------------------------------------------------

def phases(size: int) -> int:
    """Phases a warp's shared request is split into: 1 for <= 4-byte, 2 for 8-byte, 4 for 16-byte (a size in
    between, which no single instruction moves, as the next larger one: never more phases than lane groups)."""
    return 1 if size <= 4 else 2 if size <= 8 else 4


def bank_ways(lanes: list[int], size: int, ids: Optional[list[int]] = None) -> tuple[int, int]:
    """(conflict ways, wavefronts) of one warp's shared-memory request: the largest count of distinct 4-byte words
    in one bank, of the worst phase and summed over the phases.  ``ids``: the lane number of each entry of
    ``lanes`` when some lanes are inactive; a phase is a fixed group of lane numbers (lanes 0-15 and 16-31 for
    8-byte accesses), and a phase with no active lane costs nothing (measured on the H200 by a field judge: a
    64-bit load by two half-warps of 14 active lanes each, one 16-double row each, takes 2 wavefronts, not the 3
    that active lanes taken in order would give)."""
    per_phase = WARP // phases(size)
    groups: list[list[int]] = [[] for _ in range(phases(size))]
    for i, off in enumerate(lanes):
        groups[(ids[i] if ids is not None else i) // per_phase].append(off)
    ways = []
    for group in groups:
        banks: dict[int, set[int]] = {}
        for off in group:
            for word in range(off // BANK_WIDTH, (off + size - 1) // BANK_WIDTH + 1):
                banks.setdefault(word % BANKS, set()).add(word)
        ways.append(max(map(len, banks.values()), default=0))
    return max(ways), sum(ways)


@dataclass
class SharedCost:
    bank_conflict_ways: int           # worst warp, worst phase (an 8-byte access is 2 phases of 16 lanes)
    wavefronts_per_request: float     # averaged over the block's warps
    worst_wavefronts: int = 0         # the worst warp's wavefronts, summed over its phases
    ideal_wavefronts: int = 1         # one per phase: 1, 2 for 8-byte accesses, 4 for 16-byte


def shared_cost(pic: WarpPicture, size: int) -> SharedCost:
    if pic.lane_ids and phases(size) > 1:  # lanes left out: each warp's phases by lane number
        res = [(bank_ways(w, size, ids), 1) for w, ids in zip(pic.warps, pic.lane_ids) if w]
    else:
        res = [(bank_ways(w, size), k) for w, k in _distinct_warps(pic, BANK_WIDTH)]
    n = sum(k for _, k in res)
    if not n:  # no lane makes the access: no request
        return SharedCost(0, 0.0, 0, phases(size))
    return SharedCost(max(r[0] for r, _ in res), sum(r[1] * k for r, k in res) / n, max(r[1] for r, _ in res),
                      phases(size))


def distinct_addresses(pic: WarpPicture, size: int) -> int:
    """Largest number of distinct addresses one warp reads (constant cache: one request each)."""
    return max(len(set(w)) for w in pic.warps if w)
