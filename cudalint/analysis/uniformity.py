"""Which conditions of a kernel are block-uniform: the verdict CL301 and CL302 rest on.

A condition is thread-dependent when its value depends on ``threadIdx`` or on a thread-varying value
(:meth:`Symbols.is_varying`).  That is not yet divergence: with the launch's blockDim known, a condition
over threadIdx, blockDim and one loop's trip counter is evaluated for every thread of the block.  A loop
condition linear in its trip counter (``p = threadIdx.x; p < 256; p += 256``) holds for a prefix of the
trips, so each thread's trip count is found by bisection; any other is evaluated trip by trip up to
:data:`MAX_TRIPS` (a loop condition still true for some thread then is undecided, a branch taken alike by
every thread on each of those trips is uniform).  When every thread runs the same trips (with 256 threads, one
trip everywhere) the condition is uniform.  A branch inside the loop (``if (threadIdx.x >= 16 && k == 2)
break;``) is uniform only when every thread takes it on the same trips: false for all threads on the first
trip says nothing of the third.  A thread-dependent condition that cannot be evaluated (parameters, loaded
values) stays divergent.
"""

from __future__ import annotations

import bisect
import re
from functools import lru_cache
from typing import Optional

import sympy

from .symbols import BDIM, BID, GDIM, TID, TRIP_PREFIX, Symbols, int_function

#: threads of a warp
WARP = 32

#: trips of a loop evaluated per thread before its outcome counts as undecided
MAX_TRIPS = 64


def evaluates_uniformly(cond: sympy.Basic, block: Optional[tuple[int, int, int]], symbols: Symbols,
                        within: Optional[int] = None, loop: Optional[bool] = None) -> bool:
    """Whether ``cond`` takes, on every trip, one value for all threads of a block of shape ``block`` (for all
    threads of each group of ``within`` consecutive threads: 32 asks whether it is warp-uniform); when it is its
    loop's own condition, a thread for which it is false runs no further trip.

    False when it cannot be decided: unknown blockDim, symbols other than threadIdx/blockDim and one loop
    trip counter, more than :data:`MAX_TRIPS` trips, or an expression Python cannot evaluate."""
    if block is None or not isinstance(cond, sympy.Basic):
        return False
    trips = cond.free_symbols & symbols.trip_counters
    trip = next(iter(trips), None)
    loop = symbols.is_loop_condition(cond) if loop is None else loop
    cond = cond.subs(dict(zip(BDIM, block)))
    return len(trips) <= 1 and not cond.free_symbols - trips - set(TID) \
        and _uniform(cond, block, trip, loop, within or block[0] * block[1] * block[2])


def warp_uniform(cond: sympy.Basic, block: Optional[tuple[int, int, int]], symbols: Symbols) -> bool:
    """Whether ``cond`` takes one value for all lanes of each warp of a block of shape ``block``, whatever the
    block-uniform values in it (``n``, ``blockIdx``, a loop's trip): every comparison in it compares values
    whose thread-dependent part is the same for the lanes of a warp (``threadIdx.z + blockIdx.x * 8 < n`` with
    32-wide rows, ``threadIdx.x / 32 < m``); else :func:`evaluates_uniformly` within 32.  False for unknown
    blockDim or a thread-varying value it cannot see through (a load)."""
    if not isinstance(cond, sympy.Basic) or not symbols.is_varying(cond):
        return True
    if block is None:
        return False
    if isinstance(cond, (sympy.And, sympy.Or, sympy.Not)):
        return all(warp_uniform(c, block, symbols) for c in cond.args)
    if isinstance(cond, sympy.core.relational.Relational) and cond.subs(dict(zip(BDIM, block))).free_symbols \
            - set(TID) - symbols.trip_counters:  # other values: their thread-dependent part must agree
        return _warp_constant(sympy.expand((cond.lhs - cond.rhs).subs(dict(zip(BDIM, block)))), block, symbols)
    return evaluates_uniformly(cond, block, symbols, WARP)  # threadIdx and a trip only: enumerated


def _warp_constant(d: sympy.Expr, block: tuple[int, int, int], symbols: Symbols) -> bool:
    """Whether the threadIdx-dependent terms of ``d`` take one value (an expression of the other symbols) for
    all lanes of each warp."""
    g = sympy.Add(*(t for t in sympy.Add.make_args(d) if t.free_symbols & set(TID)))
    if g == 0:
        return not any(symbols.is_varying(x) for x in d.free_symbols)
    if any(symbols.is_varying(x) for x in g.free_symbols - set(TID)):
        return False  # a loaded value, a lane's own result
    return _lanes_agree(g, block)


@lru_cache(maxsize=256)
def _lanes_agree(g: sympy.Expr, block: tuple[int, int, int]) -> bool:
    try:
        # the other symbols are arguments too, passed as themselves: printed by name in the function's source, an
        # interpreter name such as `nthreads#1` (an identifier nothing declares) would not compile (fuzzing found it)
        others = sorted(g.free_symbols - set(TID), key=str)
        f = sympy.lambdify(list(TID) + others, g, modules="sympy", dummify=True)
        threads = [(x, y, z) for z in range(block[2]) for y in range(block[1]) for x in range(block[0])]
        for i in range(0, len(threads), WARP):
            warp = threads[i:i + WARP]
            first = sympy.expand(f(*warp[0], *others))
            if any(sympy.expand(f(*t, *others)) != first for t in warp[1:]):
                return False
        return True
    except (TypeError, ValueError, ZeroDivisionError, NameError, AttributeError):
        return False


@lru_cache(maxsize=1024)
def _uniform(cond: sympy.Basic, block: tuple[int, int, int], trip_counter: Optional[sympy.Symbol],
             loop: bool = False, group: int = 0) -> bool:
    """:func:`evaluates_uniformly` for a condition over threadIdx and at most ``trip_counter`` (cached:
    CL301 and CL302 ask about the same guards); ``loop``: ``cond`` is that loop's own condition, and a thread
    for which it is false runs no further trip; ``group``: the threads that must agree, consecutive in
    thread order (0: the whole block)."""
    trips = trip_counter is not None
    k = trip_counter if trips else sympy.Symbol("k")
    try:
        f = int_function([*TID, k], cond)
        threads = [(x, y, z) for z in range(block[2]) for y in range(block[1]) for x in range(block[0])]
        group = group or len(threads)
        groups = [threads[i:i + group] for i in range(0, len(threads), group)]
        if trips and _linear_in(cond, k):
            return all(len({_trip_count(f, t) if loop else _flip(f, t) for t in g}) == 1 for g in groups)
        for trip in range(MAX_TRIPS if trips else 1):
            outcomes = [{bool(f(*t, trip)) for t in g} for g in groups]
            if any(len(o) > 1 for o in outcomes):
                return False
            if loop and all(o == {False} for o in outcomes):
                return True  # every thread leaves the loop on this trip
        return not (trips and loop)  # a branch: one value for all threads on each of the first MAX_TRIPS trips
    except (TypeError, ValueError, ZeroDivisionError, NameError, AttributeError):
        return False


def _linear_in(cond: sympy.Basic, k: sympy.Symbol) -> bool:
    """A comparison whose sides differ by ``a + b*k``, ``b`` a nonzero constant: true on a prefix of the
    trips (or on a suffix, which a loop never reaches past its first false trip)."""
    if not isinstance(cond, sympy.core.relational.Relational) or isinstance(cond, (sympy.Eq, sympy.Ne)):
        return False
    diff = sympy.expand(cond.lhs - cond.rhs)
    b = diff.coeff(k)
    return b.is_Number and b != 0 and not (diff - b * k).has(k)


def _trip_count(f, t: tuple[int, int, int], limit: int = 1 << 31) -> int:
    """The first trip on which ``f(*t, trip)`` is false (``limit`` if none), by bisection."""
    if not f(*t, 0):
        return 0  # also a condition true on a suffix only: the bisection below needs a true prefix
    return bisect.bisect_left(range(limit), True, key=lambda trip: not f(*t, trip))


def _flip(f, t: tuple[int, int, int], limit: int = 1 << 31) -> tuple[bool, int]:
    """A branch's value on the first trip and the first trip on which it changes (``limit`` if none), by
    bisection: a condition linear in the trip counter changes at most once."""
    first = bool(f(*t, 0))
    return first, bisect.bisect_left(range(limit), True, key=lambda trip: bool(f(*t, trip)) != first)


def depends_on_thread(value, symbols: Symbols, block: Optional[tuple[int, int, int]] = None) -> bool:
    """Whether a condition's value can differ between threads (of a block of shape ``block``, when known:
    :meth:`Symbols.varies_in_block`): a comparison only when its two sides differ by a thread-varying amount
    (``t < end + threadIdx.x`` with ``t = start + threadIdx.x + k * C``: the lanes' offsets cancel, every thread
    runs the same trips: ggml's rwkv_wkv_f32), and/or/not when one of its parts does."""
    if isinstance(value, (sympy.And, sympy.Or, sympy.Not)):
        return any(depends_on_thread(a, symbols, block) for a in value.args)
    if isinstance(value, sympy.core.relational.Relational) and symbols.is_varying(value):
        try:
            return symbols.varies_in_block(sympy.expand(value.lhs - value.rhs), block)
        except (TypeError, ValueError):
            return True
    return symbols.varies_in_block(value, block)


def divergent_guards(guards, block: Optional[tuple[int, int, int]], symbols: Symbols,
                     grid: Optional[dict] = None, known: Optional[dict] = None,
                     run: Optional[dict] = None) -> list[int]:
    """Lines of the guards ``(value, line)`` (if/switch/?:/loop conditions enclosing a barrier or an exit)
    that are thread-dependent (:func:`depends_on_thread`; threadIdx is 0 on an axis ``known`` gives one thread,
    whatever the others) and not shown to evaluate uniformly for the launch's
    ``block``, once the comparisons that hold in every thread of the launch's grid (:func:`holds_in_grid`, with
    ``grid`` the launches' upper bounds of gridDim, ``known`` the blockDim members known and ``run`` the values the
    launches give the kernel's parameters, ``num`` -> 4096) are dropped."""
    known = known if known is not None else dict(zip(BDIM, block)) if block else {}
    # an axis the launch gives one thread (`dim3 threads(n, 1)`) has threadIdx 0 there in every thread
    single = any(known.get(b) == 1 for b in BDIM)
    partial = tuple(known.get(b, b) for b in BDIM)  # the known members as numbers, the others symbolic
    out = []
    for value, line in guards:
        if value is None:
            continue
        loop = symbols.is_loop_condition(value)
        value = floor_bounds(value)
        if block is None and single and not depends_on_thread(value, symbols, partial):
            continue
        value = without_grid_facts(value, known, symbols, grid or {}, run or {})
        if depends_on_thread(value, symbols, block) and not evaluates_uniformly(value, block, symbols, loop=loop) \
                and not bounds_between_blocks(value, symbols, block):
            out.append(line)
    return out


def without_grid_facts(value: sympy.Basic, known: dict, symbols: Symbols, grid: dict, run: Optional[dict] = None
                       ) -> sympy.Basic:
    """``value`` less the comparisons of its conjunction that hold in every thread of every block of the launch
    where the others hold (:func:`holds_in_grid`): ``m < num && m < start + 16`` with ``m = start + 2*k``,
    ``start = blockIdx.x * 32 + threadIdx.y * 16`` and a grid of ``num / 32`` blocks is ``m < start + 16`` (the
    chunk never reaches past ``num``: HeCBench's hexciton; or a grid of 128 blocks with ``num`` = 4096, ``run``);
    a lone comparison that always holds is true."""
    if not grid:
        return value
    parts = list(value.args) if isinstance(value, sympy.And) else [value]
    bound = [c.xreplace(run) if run else c for c in parts]
    if run:  # gridDim is an integer: at most the floor of its bound (`(num + 31) / 32` blocks for num = 4096: 128)
        grid = {g: sympy.floor(v) if (v := substituted(b, run)).is_number else b for g, b in grid.items()}
    kept = [c for i, c in enumerate(parts)
            if not holds_in_grid(bound[i], bound[:i] + bound[i + 1:], known, symbols, grid)]
    return value if len(kept) == len(parts) else sympy.And(*kept)


def substituted(e, run: dict) -> sympy.Basic:
    """``e`` with the values ``run`` substituted, a sympy object even when it is one of them (a plain int)."""
    return sympy.sympify(sympy.sympify(e).xreplace(run))


def holds_in_grid(c: sympy.Basic, others: list, known: dict, symbols: Symbols, grid: dict) -> bool:
    """Whether the comparison ``c``, linear in threadIdx, blockIdx and loop trip counters with coefficients of
    known sign, holds for every thread of a block (``known``: the blockDim members known, others symbolic), every
    block below the launches' upper
    bound of gridDim (``grid``: ``{gridDim.x: num/32}`` in the kernel's parameters) and every trip on which the
    comparisons ``others`` bound the counter (``2*k < 16``: ``k <= 7``): its worst case, each variable at the end of
    its range that its coefficient's sign picks, must hold for sympy whatever the parameters.  False when a term
    is not linear, a range is not known or a value varies otherwise (a load)."""
    d, strict = _as_negative(c)
    if d is None:
        return False
    d = sympy.expand(d.xreplace(known))
    worst = {}
    bent = set().union(*(f.free_symbols for f in d.atoms(sympy.Mod, sympy.floor, sympy.ceiling, sympy.Min, sympy.Max,
                                                          sympy.Piecewise)))
    for v in d.free_symbols - set(BDIM):
        a = sympy.diff(d, v)
        if v in bent or a.has(v) or not (a.is_positive or a.is_negative):
            return False  # not monotone in v (`threadIdx.x % 32` is largest at 31, not at blockDim.x - 1)
        high = bool(a.is_positive)
        if v in TID:
            worst[v] = known.get(BDIM[TID.index(v)], BDIM[TID.index(v)]) - 1 if high else 0
        elif v in BID:
            g = grid.get(GDIM[BID.index(v)])
            if high and g is None:
                return False
            worst[v] = g - 1 if high else 0
        elif v in symbols.trip_counters:
            top = _trip_bound(v, others, symbols) if high else 0
            if top is None:
                return False
            worst[v] = top
        elif symbols.is_varying(v):
            return False
    bound = sympy.expand(d.xreplace(worst))
    return bool((bound < 0) if strict else (bound <= 0)) if bound.is_number else \
        (bound < 0 if strict else bound <= 0) is sympy.true


def _as_negative(c: sympy.Basic) -> tuple[Optional[sympy.Expr], bool]:
    """``(d, strict)`` with ``c`` equivalent to ``d < 0`` (``d <= 0`` when not strict); ``(None, False)`` for
    anything but ``<, <=, >, >=``."""
    if isinstance(c, (sympy.StrictLessThan, sympy.LessThan)):
        return c.lhs - c.rhs, isinstance(c, sympy.StrictLessThan)
    if isinstance(c, (sympy.StrictGreaterThan, sympy.GreaterThan)):
        return c.rhs - c.lhs, isinstance(c, sympy.StrictGreaterThan)
    return None, False


def _trip_bound(k: sympy.Symbol, others: list, symbols: Symbols) -> Optional[sympy.Expr]:
    """The largest trip ``k`` that one of the comparisons ``others`` allows (``2*k - 16 < 0``: 7), free of
    threadIdx, blockIdx and thread-varying values; None when none bounds it so."""
    for o in others:
        d, strict = _as_negative(o)
        if d is None:
            continue
        d = sympy.expand(d)
        b = sympy.diff(d, k)
        rest = sympy.expand(d - b * k)
        if not b.is_positive or b.has(k) or rest.has(k) or rest.free_symbols & (set(TID) | set(BID)) \
                or any(symbols.is_varying(x) for x in rest.free_symbols):
            continue
        return sympy.ceiling(-rest / b) - 1 if strict else sympy.floor(-rest / b)
    return None


def bounds_between_blocks(value: sympy.Basic, symbols: Symbols, block: Optional[tuple] = None) -> bool:
    """Whether ``value`` is a bounds check (:func:`bound_checks`) whose every edge is, whatever the run-time values,
    a multiple of the span of the index one block covers, so that it never splits a block: a tile loop
    ``j = threadIdx.x; j < SDIV(width, 128) * 128; j += 128`` with 128 threads (HeCBench's bmf), a grid-stride loop
    over a size rounded up to the whole grid (``((n - 1) / (B * G * 4) + 1) * B * G * 4``: HeCBench's dropout).
    The edge's quotient by the span must be an integer for sympy (a sum of integer multiples of integer symbols,
    ``floor`` and ``ceiling``); a bound that merely happens to be a multiple (``n`` = 4096) is
    :func:`bounds_aligned`'s question."""
    known = dict(zip(BDIM, block)) if block else {}
    tests = [c for c in _tests(value) if c.free_symbols & set(TID)]
    for c in tests:  # each a bounds check (:func:`bound_checks`; a number for the edge too: `gid + i * T < 2^20`)
        found = _edge(c, known)
        if found is None or found[2] is None or found[1].free_symbols & set(TID) or symbols.is_varying(found[1]) \
                or not multiple_of(found[1].xreplace(known), found[2]):
            return False
    return bool(tests)


def multiple_of(edge: sympy.Expr, span: sympy.Expr) -> bool:
    """Whether ``edge`` is a multiple of ``span`` whatever the run-time values: ``edge / span`` an integer for sympy
    once each ``Mod`` is written out (:func:`without_mod`) and each ``floor``/``ceiling`` is taken as an integer
    (``floor(n / B)`` with ``B`` a template parameter sympy cannot rule out to be 0)."""
    q = sympy.expand(without_mod(edge) / span)
    return q.replace(lambda x: isinstance(x, (sympy.floor, sympy.ceiling)),
                     lambda x: sympy.Dummy(integer=True)).is_integer is True


def without_mod(e: sympy.Expr) -> sympy.Expr:
    """``e`` with each ``Mod(a, b)`` written ``a - b*floor(a/b)``, so that a size rounded down to the block is seen
    to be a multiple of it: ``n - (n & (B - 1))`` and ``n - n % B`` are ``B*floor(n/B)`` (cusp's segmented reduction in
    AMGX loops ``i = threadIdx.x; i < end; i += B`` with ``end = n - (n & (B - 1))``: the same trips for every
    thread).  C's truncating ``%`` differs from sympy's floored ``Mod`` only in the multiple of ``b`` taken, so what
    is a multiple of ``b`` stays one."""
    if not isinstance(e, sympy.Basic) or not e.has(sympy.Mod):
        return e
    return e.replace(lambda x: isinstance(x, sympy.Mod),
                     lambda x: x.args[0] - x.args[1] * sympy.floor(x.args[0] / x.args[1]))


def floor_bounds(value: sympy.Basic) -> sympy.Basic:
    """``value`` with each comparison of an integer with a floored quotient, ``x < floor(p / q)`` (``q`` positive),
    written as the comparison of products it is, ``q * (x + 1) <= p``, the terms that read threadIdx, blockIdx or a
    loop's trip counter on one side: a trip count rounded up over the grid (tromp/cuckoo's `nloops = (N - gid +
    nthreads - 1) / nthreads; for (i = 0; i < nloops; i++)`) is then the bounds check ``gid + i * nthreads < N`` it
    counts, which a block splits only where ``N`` falls inside it."""
    if isinstance(value, (sympy.And, sympy.Or, sympy.Not)):
        args = tuple(floor_bounds(a) for a in value.args)
        return value if args == value.args else value.func(*args)
    if not isinstance(value, (sympy.StrictLessThan, sympy.StrictGreaterThan, sympy.LessThan, sympy.GreaterThan)):
        return value
    strict = isinstance(value, (sympy.StrictLessThan, sympy.StrictGreaterThan))
    small, big = (value.lhs, value.rhs) if isinstance(value, (sympy.StrictLessThan, sympy.LessThan)) \
        else (value.rhs, value.lhs)  # small < big, or small <= big
    f, x = (big, small) if isinstance(big, sympy.floor) else (small, big)
    if not isinstance(f, sympy.floor) or isinstance(x, sympy.floor) or x.is_integer is not True:
        return value
    num, den = sympy.fraction(sympy.together(f.args[0]))
    if den.is_positive is not True or den == 1:
        return value
    if f is big:  # x < floor(p/q) <=> q*(x + 1) <= p;  x <= floor(p/q) <=> q*x <= p
        d, strict = sympy.expand(den * (x + (1 if strict else 0)) - num), False
    else:  # floor(p/q) < x <=> p < q*x;  floor(p/q) <= x <=> p < q*(x + 1)
        d, strict = sympy.expand(num - den * (x + (0 if strict else 1))), True
    rest = _offset(d)
    idx = sympy.expand(d - rest)  # idx + rest < 0 (or <= 0)
    if idx.could_extract_minus_sign():
        return (sympy.Gt if strict else sympy.Ge)(-idx, rest)
    return (sympy.Lt if strict else sympy.Le)(idx, -rest)


def _tests(value: sympy.Basic) -> tuple:
    """The comparisons a condition combines with one ``&&`` or ``||``, through a negation (an ``else`` branch's
    ``!(i >= n || j < 0)``: the same comparisons flip at the same edges)."""
    value = floor_bounds(value)
    while isinstance(value, sympy.Not):
        value = value.args[0]
    return value.args if isinstance(value, (sympy.And, sympy.Or)) else (value,)


def bound_checks(value: sympy.Basic, symbols: Symbols, block: Optional[tuple] = None) -> list[tuple[str, str]]:
    """The run-time bounds of a thread-dependent condition made only of comparisons of a global index with a
    block-uniform run-time value, each with the span one block covers of the index: ``ix < imageW && iy < imageH``
    -> ``[("imageW", "blockDim.x"), ("imageH", "blockDim.y")]``; empty for any other condition.  A global index is
    ``g + R + c``: ``g`` a thread term with values in ``[0, S)`` (:func:`_extent`: ``threadIdx.b``, a warp's index
    ``threadIdx.b / 32``, a tiled ``(threadIdx.y * blockDim.x + threadIdx.x) % blockDim.y``), ``R`` a nonzero
    multiple of ``S`` free of threadIdx (``blockIdx.a * S``, a loop's ``k * S`` or ``k * gridDim.x * S``), ``c`` a
    number.  Such a condition splits the threads of a block only where the bound falls inside the ``S`` values
    they cover: never when the bound's edge (:func:`_edge`: ``n - c``, ``n + 1 - c`` for ``<=``) is a multiple of
    ``S`` (a number for the launch's ``block`` when known); the bound is named by its edge."""
    out: list[tuple[str, str]] = []
    known = dict(zip(BDIM, block)) if block else {}
    for c in _tests(value):
        if not c.free_symbols & set(TID):
            continue
        found = _edge(c, known)
        if found is None or found[1].free_symbols & set(TID) or found[1].is_Number and found[2] is not None \
                or symbols.is_varying(found[1]) \
                or found[2] is None and symbols.is_varying(found[0].xreplace({t: 1 for t in TID})):  # w and R
            return []
        # a row index's test (:func:`_row_index`): no span, the bound named as written; an edge a loop's trips
        # move is named by its first trip's edge and the loop's step (each must be a multiple of the span)
        start, steps = trip_step_names(found[1]) if found[2] is not None else (found[1], [])
        for name in (start, *steps):
            out.append((re.sub(r"#\d+", "", str(name)), "" if found[2] is None else str(found[2])))
    return out


def bounds_aligned(value: sympy.Basic, symbols: Symbols, block: tuple, run: dict) -> Optional[bool]:
    """Whether every comparison of the bounds check ``value`` (:func:`bound_checks`) falls between blocks for
    the values ``run`` the launches give (``nx`` -> 4096, or a multiple: ``n`` -> ``1024*k``): with a number ``S``
    for the span of the index one block covers, no block is split when the bound's edge is a multiple of ``S``.
    A span that is not a number (``blockDim.x`` of a run-time block) is crossed by no block when the edge is a
    multiple of it whatever the values (``n`` -> ``blockDim.x*k``: each launch passes a multiple of its own block,
    :attr:`~cudalint.model.Kernel.block_multiples`). False when an edge is not (a block straddles it), None when
    an edge is neither a number nor a multiple of its span whatever the run-time values."""
    known, aligned = {b: v for b, v in zip(BDIM, block or ()) if isinstance(v, int)}, True
    for c in _tests(value):
        if not c.free_symbols & set(TID):
            continue
        found = _edge(c, known)
        if found is None or found[2] is None:
            return None
        edge, span = sympy.sympify(found[1].xreplace(run)).xreplace(known), found[2]
        if not (span.is_Integer and span > 0):  # blockDim not a number: aligned only if a multiple whatever it is
            if multiple_of(edge, span):          # (`n` a multiple of the launch's own block: mmcv)
                continue
            return None
        if edge.is_Integer:
            aligned = aligned and not edge % span
        elif not multiple_of(edge, span):  # `1024*k` over 256: a multiple whatever k is
            return None
    return aligned


def covered_exactly(value: sympy.Basic, params: dict, threads: sympy.Expr) -> bool:
    """Whether the bounds check ``value`` (:func:`bound_checks`) is one comparison of the grid's linear x index
    (``blockIdx.x * blockDim.x + threadIdx.x``, a group of lanes per item too) whose edge, with the kernel's
    parameters replaced by a launch's arguments (``params``: ``{items: blocks*threads}``), is the ``threads`` that
    launch runs, or a known number of threads past it: the grid ends at or before the bound, so no block straddles
    it (ccminer's cryptonight launches ``blocks`` blocks of ``threads << 3`` lanes for ``blocks*threads`` items,
    eight lanes each; for ``blocks*threads + 1`` items no thread fails the check either)."""
    found = [c for c in (value.args if isinstance(value, sympy.And) else (value,)) if c.free_symbols & set(TID)]
    if len(found) != 1 or (e := _edge(found[0], {})) is None:
        return False
    idx, edge, span = e
    if span != BDIM[0] or sympy.expand(idx - TID[0] - BID[0] * BDIM[0]) != 0:
        return False
    host = edge.xreplace(params)
    past = sympy.expand(host - threads)  # how far the bound lies past the grid's last thread (0: at its end)
    return not host.free_symbols & set(params) and bool(past.is_number and past >= 0)


def _edge(c: sympy.Basic, known: dict) -> Optional[tuple[sympy.Expr, sympy.Expr, sympy.Expr]]:
    """``(idx, edge, S)`` for a comparison of a global index ``idx = g + R + c`` (:func:`bound_checks`) with a
    bound ``B`` free of threadIdx: the condition changes between ``idx = edge - 1`` and ``idx = edge`` (``idx < B``
    and ``idx >= B``: ``B``; ``idx <= B`` and ``idx > B``: ``B + 1``), with ``c`` moved to the edge so the
    comparison is of ``g + R`` (``i + 1 < n`` -> edge ``n - 1``).  None for anything else."""
    if not isinstance(c, sympy.core.relational.Relational) or isinstance(c, (sympy.Eq, sympy.Ne)):
        return None
    below = isinstance(c, (sympy.LessThan, sympy.StrictLessThan))  # lhs below rhs
    inclusive = isinstance(c, (sympy.LessThan, sympy.GreaterThan))
    for idx, bound, idx_below in ((c.lhs, c.rhs, below), (c.rhs, c.lhs, not below)):
        if bound.free_symbols & set(TID) or not idx.free_symbols & set(TID):
            continue
        idx = sympy.expand(idx.xreplace(known))
        # idx < B, idx >= B: edge B; idx <= B, idx > B: B + 1; the index's offset that is the same for every
        # block and trip (a number, `nnodes + 1`: HeCBench bh's `k = nnodes + 1 - dec + tid + bid * bdim`) moves
        # to the edge
        edge = sympy.expand(bound + (1 if inclusive == idx_below else 0) - _offset(idx))
        num, den = sympy.fraction(sympy.together(idx.args[0])) if isinstance(idx, sympy.floor) else (None, None)
        if den is not None and den.is_Integer and den > 1:  # a group of lanes per item (`gid >> 3 < n`: ccminer's
            idx = sympy.expand(num)  # cryptonight): floor(e / c) flips at E exactly where e flips at c*E
            edge = sympy.expand(den * edge - idx.as_coeff_Add()[0])
        span = _span(idx, known)
        steps = _trip_terms(idx, blocks=False)
        if span is None and (steps == 0 or _span(sympy.expand(idx - steps), known) is None):
            steps = _trip_terms(idx)  # the block's place too, when the trips alone leave no tile
        if span is None and steps != 0:
            # a loop stepping by a uniform value that is not a multiple of what a block covers (apex's
            # `col = blockIdx.x * 32 + lane; col < COLS; col += COL_STRIDE`, the step a traits class's constant), a
            # block's own row of a run-time width (DeepSpeed's `blockIdx.x * token_size + threadIdx.x`): each block's
            # (and trip's) test is a bounds check of the thread term against its own edge, `COLS - k*COL_STRIDE`
            rest = sympy.expand(idx - steps)
            g = sympy.Add(*(t for t in sympy.Add.make_args(rest) if t.free_symbols & set(TID)))
            span = _span(rest, known)
            if span is None and steps.free_symbols & set(BID) and not (rest - g).free_symbols & set(BID) and not any(
                    s.name.startswith(TRIP_PREFIX) for s in (rest - g).free_symbols):
                span = _extent(g, known)
            if span is not None:
                idx, edge = rest, sympy.expand(edge - steps)
        if span is None:  # a scaled global index (`4 * gid < n`: ans' decoder): c*p >= E exactly when p >= ceil(E / c)
            scale, scaled = (idx - idx.as_coeff_Add()[0]).as_content_primitive()
            span = _span(scaled, known) if scale.is_Integer and scale > 1 else None
            if span is None:
                return (idx, bound, None) if _row_index(idx) else None
            idx, edge = scaled, sympy.ceiling(edge / scale)
        return idx, edge, span
    return None


def _trip_terms(idx: sympy.Expr, blocks: bool = True) -> sympy.Expr:
    """The terms of ``idx`` that are a loop's trip counter, or blockIdx, times a run-time factor free of threadIdx and
    blockIdx (the loop's uniform step, ``k*COL_STRIDE``; a block's row of a run-time width, ``blockIdx.x *
    token_size``); 0 when a term mixes such a counter with threadIdx or another counter, or steps by a number (``r +=
    7`` off a block's span: every block's threads make different trips, a divergence, not a bound)."""
    def counters(t):
        return {s for s in t.free_symbols if s.name.startswith(TRIP_PREFIX) or blocks and s in BID}

    def tile(t):  # `blockIdx.x * blockDim.x`, `blockIdx.x * 32`: the block's tile, :func:`_span`'s own case
        return counters(t) <= set(BID) and (t / sympy.Mul(*counters(t))).free_symbols <= set(BDIM)
    terms = [t for t in sympy.Add.make_args(idx) if counters(t) and not tile(t)]
    steps = sympy.expand(sympy.Add(*terms))
    if any(t.free_symbols & set(TID) or len(counters(t)) > 1 for t in terms) or any(
            steps.coeff(k).is_Number or steps.coeff(k).free_symbols & set(TID + BID) for k in counters(steps)):
        return sympy.Integer(0)
    return steps


def trip_step_names(edge: sympy.Expr) -> tuple[sympy.Expr, list[sympy.Expr]]:
    """``(start, steps)`` of a bounds check's edge that a loop's trips or the block's place move (:func:`_edge`:
    ``COLS - k*COL_STRIDE`` -> ``(COLS, [COL_STRIDE])``, ``n - blockIdx.x*w`` -> ``(n, [w])``): the edge of the first
    trip in block 0 and each step."""
    trips = sorted((s for s in edge.free_symbols if s.name.startswith(TRIP_PREFIX) or s in BID), key=str)
    start = edge.xreplace({k: 0 for k in trips})
    return start, [-sympy.expand(edge).coeff(k) for k in trips]


def _row_index(idx: sympy.Expr) -> bool:
    """Whether ``idx`` is ``w * threadIdx.b + R``: one thread coordinate times a positive run-time factor ``w``
    free of blockIdx (a row pitch), plus a part ``R`` free of threadIdx that reads blockIdx (the block's place in
    the grid): a row-major element index ``cols * (16 * blockIdx.y + threadIdx.y) + 16 * blockIdx.x - 1`` (Altis'
    srad boundary tests).  A comparison of it with a bound free of threadIdx flips at one value of the coordinate,
    the same for every thread of the block: it splits a block only where that value falls inside the block."""
    g = sympy.Add(*(t for t in sympy.Add.make_args(idx) if t.free_symbols & set(TID)))
    w, t = g.as_independent(*TID, as_Add=False)
    rest = idx - g
    return t in TID and not w.is_Number and not w.free_symbols & set(TID + BID) and w.is_nonpositive is not True \
        and bool(rest.free_symbols & set(BID)) and not rest.free_symbols & set(TID)


def _span(idx: sympy.Expr, known: dict) -> Optional[sympy.Expr]:
    """``S`` when ``idx`` is a global index ``g + R`` (:func:`bound_checks`), else None."""
    g = sympy.Add(*(t for t in sympy.Add.make_args(idx) if t.free_symbols & set(TID)))
    span, rest = _extent(g, known), idx - g
    if span is None:
        return None
    rest -= _offset(rest)
    if rest == 0:
        return None
    if _divides(span, rest):
        return span
    # blockDim unknown, the block's own stride written as a number or a template parameter
    # (`blockIdx.x * 128 + threadIdx.x`, `blockIdx.x * BLOCK + threadIdx.x`): the code's tile is its block
    if span in BDIM and g == TID[BDIM.index(span)]:
        stride = sympy.expand(rest).coeff(BID[BDIM.index(span)])
        if stride == 0:  # a block-strided loop `i = threadIdx.x; ..; i += BLOCK_SIZE`: the loop's step is the tile
            steps = {sympy.expand(rest).coeff(k) for k in rest.free_symbols if k.name.startswith(TRIP_PREFIX)}
            stride = steps.pop() if len(steps) == 1 else 0
        if stride != 0 and not stride.free_symbols & set(TID + BID) and (stride.is_Number and stride > 1 or
                                                                       stride.is_Symbol and not stride.is_nonpositive) \
                and _divides(stride, rest):
            return stride
    return None


def _offset(idx: sympy.Expr) -> sympy.Expr:
    """The terms of ``idx`` free of threadIdx, blockIdx and loop trip counters (``k@..``): the same for every
    thread, block and trip (a number, a parameter)."""
    return sympy.Add(*(t for t in sympy.Add.make_args(idx) if not t.free_symbols & set(TID + BID)
                       and not any(s.name.startswith(TRIP_PREFIX) for s in t.free_symbols)))


def _divides(span: sympy.Expr, rest: sympy.Expr) -> bool:
    """Whether ``rest / span`` is a polynomial (no denominator): ``1024*blockIdx.x + 1024*gridDim.x*k`` over 256
    is, over 1021 it is not (``cancel`` leaves a sum of fractions, whose ``fraction`` has denominator 1)."""
    return sympy.fraction(sympy.together(sympy.cancel(rest / span)))[1] == 1


def _extent(g: sympy.Expr, known: dict) -> Optional[sympy.Expr]:
    """``U`` with ``0 <= g < U`` for every thread of a block, when ``g`` is built from threadIdx with
    nonnegative block-uniform factors (blockDim, numbers), sums, ``Mod(e, m)`` (``m``) and ``floor(e / c)``
    (``U(e) / c`` when ``c`` divides it: ``(threadIdx.y * blockDim.x + threadIdx.x) / blockDim.y`` ->
    ``blockDim.x``; else ``floor(U(e) / c)``, as a warp index ``threadIdx.x / 32`` beside the code's own
    ``blockDim.x / 32`` assumes); None for anything else (a parameter factor, a difference, a load).  ``known``: the
    launch's blockDim members that are numbers."""
    if g in TID:
        return sympy.sympify(known.get(BDIM[TID.index(g)], BDIM[TID.index(g)]))
    if isinstance(g, sympy.Mod):  # a lane index `threadIdx.x % 32`, `% K::THREADS_PER_WARP` (a traits constant)
        m = g.args[1]
        return m if _extent(g.args[0], known) is not None and (_nonneg_uniform(m) or _parameter(m)) else None
    if isinstance(g, sympy.floor):  # a warp index `threadIdx.x / 32`, rows of a run-time width `wid / (w >> 5)`
        num, den = sympy.fraction(sympy.together(g.args[0]))
        u = _extent(sympy.expand(num), known) if _nonneg_uniform(den) or _divisor(den) else None
        if u is None:
            return None
        q = sympy.cancel(u / den)  # floor(u / den) otherwise: exact when blockDim is a multiple of den, as a
        return q if sympy.fraction(q)[1] == 1 else sympy.floor(u / den)  # warp index's `blockDim.x / 32` takes
    if isinstance(g, sympy.Add):
        parts = [_extent(t, known) for t in g.args]
        return None if None in parts else sympy.Add(*(u - 1 for u in parts)) + 1
    if isinstance(g, sympy.Mul):
        thread = [f for f in g.args if f.free_symbols & set(TID)]
        factor = sympy.Mul(*(f for f in g.args if not f.free_symbols & set(TID)))
        u = _extent(thread[0], known) if len(thread) == 1 and _nonneg_uniform(factor) else None
        return None if u is None else factor * (u - 1) + 1
    return None


def _divisor(x: sympy.Expr) -> bool:
    """A divisor built from kernel parameters, blockDim and numbers (``floor(reduceWidth/32)``): uniform, and positive
    where it divides (zero is undefined behaviour, a negative row width is not one)."""
    return bool(x.free_symbols) and all(_parameter(v) or v in BDIM for v in x.free_symbols) \
        and not x.free_symbols & set(TID + BID)


def _parameter(x: sympy.Expr) -> bool:
    """A kernel or template parameter (``K::THREADS_PER_WARP`` of a traits class no launch binds): uniform, and
    positive where it is a ``%``'s divisor (zero is undefined behaviour)."""
    return isinstance(x, sympy.Symbol) and "#" not in x.name and not x.name.startswith(TRIP_PREFIX) \
        and x not in BDIM + TID + BID + GDIM


def _nonneg_uniform(x: sympy.Expr) -> bool:
    """A positive number or a product of them and blockDim members."""
    return all(f.is_Number and f > 0 or f in BDIM for f in sympy.Mul.make_args(x))
