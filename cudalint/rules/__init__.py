"""Rules, built-in and third-party (plugins), and the one registry that finds them.

A rule is a :class:`Rule` subclass with ``code``, ``name``, ``default_severity``, ``summary`` and
``check(model, context)`` yielding :class:`~cudalint.diagnostics.Diagnostic`.  Built-in rules are the
modules ``cudalint/rules/clNNN_<name>.py`` of this package, one rule each: adding one touches its module,
its page (``rules/CLNNN.md``) and its fixtures, nothing else.  Third-party rules register on the entry-point
group ``cudalint.rules`` (the entry point names the Rule class) and own a code prefix of their own
(``ACME101``: letters then digits; ``CL`` is cudalint's), as plugins do in ruff.  A plugin that fails to
load, a duplicate code or a code outside a plugin's own prefix is a :class:`RuleError` (a one-line usage
error, exit 2).  Every rule sees the same model (:class:`~cudalint.model.TranslationUnitModel`, built from
the IR, which it carries as ``model.unit``).  What a rule's ``check`` signature names is importable from here.
"""

from __future__ import annotations

import math
import os
import pkgutil
import re
from functools import lru_cache
from importlib import import_module
from importlib.metadata import entry_points
from typing import Iterable, Iterator, Optional

import sympy

from ..analysis.context import AnalysisContext
from ..analysis.symbols import BDIM, BID, GDIM, TID, TRIP_PREFIX, substitute
from ..analysis.warp import BANK_WIDTH, SECTOR, WARP, WarpPicture, shared_cost
from ..diagnostics import CL000, Diagnostic, Fix, Severity
from ..model import Access, AddressSpace, Kernel, SourceLine, TranslationUnitModel

CODE = re.compile(r"([A-Z]+)(\d+)")
#: what :meth:`Rule.check` yields
Findings = Iterator[Diagnostic]
_BUILTIN_MODULE = re.compile(r"cl\d{3}_\w+")


class RuleError(Exception):
    """A plugin that cannot be used (fails to load, duplicate code, bad code): one line for the user."""


class Rule:
    code: str = ""
    name: str = ""
    default_severity: Severity = Severity.WARNING
    summary: str = ""

    def check(self, model: TranslationUnitModel, ctx: AnalysisContext) -> Findings:
        raise NotImplementedError

    def page(self) -> Optional[str]:
        """The rule's documentation page (Markdown): a built-in rule's ``rules/CODE.md``; a plugin's
        ``page`` attribute, else its module's docstring."""
        mod = type(self).__module__
        if mod.startswith("cudalint.rules."):
            from .pages import rule_page
            return rule_page(self.code)
        return getattr(type(self), "page_text", None) or getattr(import_module(mod), "__doc__", None) or None

    def diagnostic(self, kernel: Optional[Kernel], site, message: str, *,
                   severity: Optional[Severity] = None, metrics: Optional[dict] = None,
                   assumptions: Iterable[str] = (), fix: Optional[Fix] = None) -> Diagnostic:
        """A finding at ``site`` (anything with a ``span``: an access, a barrier, a division, a copy)."""
        s = site.span
        if getattr(site, "compile_time_choice", False):  # a branch of an undecided `if constexpr`: maybe not compiled
            severity = Severity.INFO
            assumptions = [*assumptions, "in a branch of an `if constexpr` whose condition cudalint could not evaluate "
                           "(a dependent `sizeof`, a trait): the branch may not be compiled for this instantiation"]
        return Diagnostic(code=self.code, name=self.name, severity=severity or self.default_severity,
                          path=s.path, line=s.line, column=s.column, end_line=s.end_line,
                          end_column=s.end_column, message=message, kernel=kernel.name if kernel else None,
                          metrics=metrics or {}, assumptions=list(assumptions), fix=fix)


def _builtin() -> dict[str, type]:
    mods = [import_module(f"{__name__}.{m.name}") for m in pkgutil.iter_modules(__path__)
            if _BUILTIN_MODULE.fullmatch(m.name)]
    return {obj.code: obj for mod in mods for obj in vars(mod).values()
            if isinstance(obj, type) and issubclass(obj, Rule) and obj.__module__ == mod.__name__ and obj.code}


@lru_cache(maxsize=1)
def rule_classes() -> tuple[type, ...]:
    """Every registered rule class, built-in then plugins, sorted by code.  Raises :class:`RuleError`."""
    found = _builtin()
    owner = {c: "cudalint" for c in found}
    try:
        eps = list(entry_points(group="cudalint.rules"))
    except Exception as e:  # pragma: no cover - broken package metadata
        raise RuleError(f"cannot read the installed plugins ({type(e).__name__}: {e})") from e
    for ep in eps:
        where = f"plugin `{ep.name}` ({ep.value})"
        try:
            cls = ep.load()
        except Exception as e:  # noqa: BLE001 - any failure of a plugin is reported, never raised
            raise RuleError(f"{where} failed to load: {type(e).__name__}: {e}") from e
        if not (isinstance(cls, type) and issubclass(cls, Rule)):
            raise RuleError(f"{where} is not a cudalint.rules.Rule subclass")
        code = str(getattr(cls, "code", ""))
        m = CODE.fullmatch(code)
        if not m:
            raise RuleError(f"{where}: invalid rule code {code!r} (expected letters then digits, e.g. ACME101)")
        if m.group(1) == "CL":
            raise RuleError(f"{where}: code {code} uses the prefix CL, which is cudalint's own")
        if code in found:
            raise RuleError(f"{where}: duplicate rule code {code} (also registered by {owner[code]})")
        found[code], owner[code] = cls, where
    return tuple(found[c] for c in sorted(found))


def all_rules() -> list[Rule]:
    """An instance of every registered rule, sorted by code.  Raises :class:`RuleError`."""
    return [cls() for cls in rule_classes()]


def find_rule(code: str) -> Optional[Rule]:
    return next((r for r in all_rules() if r.code == code), None)


def pictured(model: TranslationUnitModel, ctx: AnalysisContext, space: AddressSpace,
             reads: bool = False) -> Iterator[tuple[Kernel, Access, WarpPicture]]:
    """Each access to ``space`` (only loads with ``reads``) whose warp picture is modelled, with its kernel."""
    return ((kernel, acc, pic) for kernel in model.kernels for acc in kernel.accesses
            if acc.array.space == space and (acc.is_read or not reads) and (pic := ctx.picture(kernel, acc)))


def one_shot(kernel: Kernel, acc: Access, ctx: AnalysisContext) -> Optional[Access]:
    """An access of ``kernel`` to ``acc``'s memory space that a thread makes at least 16 times as often as ``acc``, or
    that repeats in loops of a run-time trip count ``acc`` is not in (``acc`` made once per thread, or a fixed number
    of times in loops nvcc unrolls, or in a loop around a deeper one): it carries the kernel's traffic in that space,
    so ``acc`` is a small share of it (an SGEMM epilogue's stores in its 8-trip loops, after the loop over K).  The
    counts are the products of the loops' trips (:func:`thread_trips`), a loop of a run-time count standing for itself:
    a strided store beside 4 loads in a 4-trip loop is 1 against 4, not a small share;
    fixtures/shared/register_tile.cu's epilogue (64 stores a thread, 32 sectors each) beside 4 loads in each of the
    64 trips over ``K = 512`` is 64 against 256 and moves as many sectors as they (fixtures/global/fixed_trip_loops.cu,
    measured on the H200).  Else None."""
    n = site_trips(kernel, acc, ctx)
    for b in (b for b in kernel.accesses if not same_site(b, acc) and b.array.space == acc.array.space
              and not b.compile_time_choice):  # a branch of an undecided `if constexpr` may not be compiled
        m = thread_trips(kernel, b, ctx)
        if m == 0 or n == 0:
            continue
        r = sympy.cancel(m / n)
        den = sympy.fraction(r)[1]
        if r.is_Number and r >= 16 or not r.is_Number and not den.free_symbols or \
                den.free_symbols and b.run_time_loops > acc.run_time_loops:
            ctx.memo[("one_shot", id(acc))] = r
            return b
    return None


def warps_making(pic: WarpPicture) -> sympy.Rational:
    """The share of a block's warps with a lane that makes the pictured access: a tile filled under
    ``if (threadIdx.y == 0)`` is loaded by one warp in eight of a 16 x 16 block (fixtures/shared/branch_block.cu's
    fill beside a conflicted read every warp makes); 1 for a picture of one representative warp."""
    making = sum(1 for w in pic.warps if any(x is not None for x in w))
    return sympy.Rational(making, len(pic.warps)) if pic.warps else sympy.Integer(1)


def few_warps(kernel: Kernel, acc: Access, ctx: AnalysisContext) -> Optional[str]:
    """Why a global access that at most a quarter of a block's warps make is a small share of the kernel's global
    traffic: the sectors it moves a block (its sectors per request, times how often a thread makes it, times the
    share of warps with a lane that makes it) are at most 1/16 of what the kernel's other global accesses move at
    their ideal sectors (a lower bound), as :func:`one_shot` compares counts (Parboil's radix sort: 16 threads of a
    256-thread block store the block's 16 digit counts, 16 sectors, once, beside every thread's 8 key and value
    stores and its loads).  None when the block is not known (one warp pictured), a count is not a number, or the
    share is larger."""
    pic = ctx.picture(kernel, acc)
    cost = ctx.global_cost(kernel, acc)
    if pic is None or cost is None or len(pic.warps) < 2:
        return None
    share = warps_making(pic)
    if not share or share > sympy.Rational(1, 4):
        return None
    mine = site_trips(kernel, acc, ctx) * share * sympy.nsimplify(cost.sectors_per_request)
    others = sympy.Integer(0)
    for b in (b for b in kernel.accesses if b.array.space == AddressSpace.GLOBAL and not same_site(b, acc)
              and not b.compile_time_choice):
        pb, cb = ctx.picture(kernel, b), ctx.global_cost(kernel, b)
        if pb is None or cb is None:
            continue
        others += thread_trips(kernel, b, ctx) * warps_making(pb) * sympy.nsimplify(
            min(cb.sectors_per_request, cb.ideal_sectors_per_request))
    if not mine or not others.is_Number or not mine.is_Number or others < 16 * mine:
        return None
    w = len(pic.warps)
    return (f"made by {share * w} of the block's {w} warps: {fmt(mine * w)} sectors a block against the "
            f"{fmt(others * w)} or more the kernel's other global accesses move, a small share of its global traffic")


#: loops found to run more trips than this are taken as run-time ones by :func:`thread_trips`
MAX_TRIPS = 1 << 20


def same_site(a: Access, b: Access) -> bool:
    """Whether two accesses are one access of the source reached through different calls of a helper."""
    return a is b or (a.span.path, a.span.line, a.span.column, a.array.name, a.kind) == \
        (b.span.path, b.span.line, b.span.column, b.array.name, b.kind)


def site_trips(kernel: Kernel, acc: Access, ctx: AnalysisContext) -> sympy.Expr:
    """How many times thread 0 makes the source access ``acc`` is, over every call of the helper that holds it
    (one :class:`Access` per inlined call: HeCBench lci's ``alpha()``, called once outside and in a 63 x 63 loop)."""
    return sympy.Add(*(thread_trips(kernel, b, ctx) for b in kernel.accesses if same_site(b, acc)))


def thread_trips(kernel: Kernel, acc: Access, ctx: AnalysisContext) -> sympy.Expr:
    """How many times thread 0 makes ``acc``: the product of its loops' trip counts with the launch's constant
    arguments and block (``for (t = 0; t < K; t += 8)`` with ``K = 512`` from the launch: 64), a loop whose count
    depends on a value the launch does not fix (or exceeds :data:`MAX_TRIPS`) standing as its trip counter's symbol.
    A loop whose bound is an outer loop's counter (``for (i = 0; i < 15; i++) for (j = 0; j < i; j++)``, Rodinia's
    lud_diagonal) counts its trips for each of the outer one's: 105, not 15 x 15, when at most
    :data:`ENUMERATED_TRIPS` outer trips are walked.  Assumes each loop's condition holds for its first trips only (a
    counted loop)."""
    run, n = _run_values(kernel, ctx), sympy.Integer(1)
    conds = [ctx.symbols.loop_conds.get(trip) for trip in acc.loop_trips]
    walked = _walked_trips(acc.loop_trips, conds, run)
    if walked is not None:
        return sympy.Integer(walked)
    for trip, cond in zip(acc.loop_trips, conds):
        count = _trips(trip, cond, run)
        n *= trip if count is None else count
    return n


#: outer trips :func:`thread_trips` walks to count a loop whose bound is an outer loop's counter
ENUMERATED_TRIPS = 4096


def _walked_trips(trips: tuple, conds: list, run: dict) -> Optional[int]:
    """The trips of the innermost of ``trips`` (outermost first) in all, each loop's count taken for every trip of the
    loops around it, when an inner loop's condition names an outer loop's counter and no more than
    :data:`ENUMERATED_TRIPS` outer trips need walking; None otherwise (the plain product is the count then)."""
    if not any(hasattr(cond, "xreplace") and substitute(cond, run).free_symbols & set(trips[:i])
               for i, cond in enumerate(conds)):
        return None   # no loop's bound is an outer counter
    budget = [ENUMERATED_TRIPS]

    def walk(i: int, env: dict) -> Optional[int]:
        cond = conds[i]
        count = _trips(trips[i], substitute(cond, env), run)
        if count is None:
            return None
        if i == len(trips) - 1:
            return count
        budget[0] -= count
        if budget[0] < 0:
            return None
        total = 0
        for t in range(count):
            inner = walk(i + 1, {**env, trips[i]: t})
            if inner is None:
                return None
            total += inner
        return total

    return walk(0, {})


#: operations on data a thread makes per unit of memory work its warp does (a global sector or a shared wavefront), at
#: and above which a kernel is bound by arithmetic and the extra requests of an uncoalesced access, or the extra
#: wavefronts of a bank conflict, hide behind it.  Measured on the H200: 64 bytes a thread stored as an array of
#: structs (32 sectors per request against 4; fixtures/global/compute_bound_store.cu,
#: benchmarks/device/compute_bound_store.cu) take 5.1x the coalesced store's time at 1.0 SASS instruction per sector
#: moved, 1.7x at 3.8, 1.00x at 15 (the two meet at 6.7); a 32-way conflicted shared read (benchmarks/device/
#: conflict_compute.cu) 11x the conflict-free one's time at 0.25 instructions per wavefront, 1.74x at 1.9, 1.00x at 6.8,
#: and a 2-way one 1.00x from 4.  cudalint counts source operations (1.4 per SASS instruction in the first, 1 in the
#: second), so 16 leaves a margin of 1.7 or more
COMPUTE_BOUND_OPS = 16


def compute_bound(kernel: Kernel, ctx: AnalysisContext) -> Optional[str]:
    """Why ``kernel``'s memory requests are not what limits it: its threads make at least :data:`COMPUTE_BOUND_OPS`
    operations on data (:attr:`Kernel.ops`, weighed by the trips of the loops around them) per unit of memory work
    their warp does: each global access's sectors per request and each shared access's wavefronts per request, times
    its trips (32 where its lanes are not pictured).  None when a loop around an operation or an access runs a count
    the launch does not fix, or the kernel does no memory work.  Computed once per kernel."""
    key = ("compute_bound", id(kernel))
    if key not in ctx.memo:
        ctx.memo[key] = _compute_bound(kernel, ctx)
    return ctx.memo[key]


def _compute_bound(kernel: Kernel, ctx: AnalysisContext) -> Optional[str]:
    run = _run_values(kernel, ctx)
    ops = 0
    for trips, n in kernel.ops.items():
        weight = 1
        for trip in trips:
            count = _trips(trip, ctx.symbols.loop_conds.get(trip), run)
            if count is None:
                return None
            weight *= count
        ops += n * weight
    units = {AddressSpace.GLOBAL: 0.0, AddressSpace.SHARED: 0.0}
    for b in (b for b in kernel.accesses if b.array.space in units):
        m = thread_trips(kernel, b, ctx)
        if not m.is_Number:
            return None
        per = float(WARP)
        if b.offset is not None and b.size and (pic := ctx.picture(kernel, b)) is not None:
            per = float(ctx.global_cost(kernel, b).sectors_per_request if b.array.space == AddressSpace.GLOBAL
                        else shared_cost(pic, b.size).wavefronts_per_request)
        units[b.array.space] += float(m) * per
    total = sum(units.values())
    if not total or ops < COMPUTE_BOUND_OPS * total:
        return None
    work = " and ".join(f"{fmt(v)} {'sectors' if space == AddressSpace.GLOBAL else 'shared wavefronts'}"
                        for space, v in units.items() if v)
    unit = " or ".join("sector" if space == AddressSpace.GLOBAL else "wavefront" for space, v in units.items() if v)
    return (f"its threads make about {ops} operations on data each against {work} per warp: {ops / total:.0f} "
            f"operations per {unit} ({COMPUTE_BOUND_OPS} or more), so the kernel is bound by arithmetic and the extra "
            "requests hide behind it")


def _run_values(kernel: Kernel, ctx: AnalysisContext) -> dict:
    """The values thread 0 runs ``kernel`` with: the launch's constant arguments and block, threadIdx 0."""
    key = ("thread_trips", id(kernel))
    if key not in ctx.memo:
        ctx.memo[key] = {**ctx.run_time(kernel), **ctx.launch_shape(kernel).known, **{t: 0 for t in TID}}
    return ctx.memo[key]


def _trips(trip: sympy.Symbol, cond, run: dict) -> Optional[int]:
    """The trips of the loop counted by ``trip`` whose condition is ``cond``, with ``run``'s values; None unknown."""
    if not hasattr(cond, "xreplace") or (cond := substitute(cond, run)).free_symbols - {trip}:
        return None
    try:
        holds = lambda t: bool(substitute(cond, {trip: t}))  # noqa: E731
        if not holds(0):
            return 0
        hi = 1
        while holds(hi):
            hi *= 2
            if hi > MAX_TRIPS:
                return None
        lo = hi // 2  # holds at lo, not at hi
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if holds(mid) else (lo, mid)
    except TypeError:
        return None
    return hi


def outside(acc: Access, deeper: Access, space: str, ctx: AnalysisContext) -> str:
    """Why an access that :func:`one_shot` found a deeper one for is a small share of the kernel's traffic."""
    n = acc.run_time_loops
    where = ("made once per thread" if not acc.loop_depth else
             "made a fixed number of times per thread (in loops of at most 16 constant trips)" if not n else
             f"in {n} loop{'s' * (n > 1)} of a run-time trip count")
    r = ctx.memo.get(("one_shot", id(acc)))
    if r is not None and r.is_Number:
        return (f"{where}; the {deeper.kind} on line {deeper.span.line} runs {fmt(r)} times as often, so this is a "
                f"small share of the kernel's {space} traffic")
    m = deeper.run_time_loops
    return (f"{where}, outside the loops that carry the kernel's {space} traffic (line {deeper.span.line}, nested in "
            f"{m} loop{'s' * (m > 1)} of a run-time or over 16 trips), so it is a small share of it")


#: streaming multiprocessors of the H200 (cudaGetDeviceProperties on the device that measured the fixtures)
SMS = 132


def one_block(kernel: Kernel, guards: tuple, ctx: AnalysisContext) -> Optional[str]:
    """Why a site whose guards let one block of the grid through (``blockIdx.x == gridDim.x - 1``, ``bx == 0 &&
    tid == 0``) is a small share of the kernel's work, unless the launch's grid has one block on that axis."""
    grid = ctx.grid(kernel)
    for c in (c for g in guards for c in (g.args if isinstance(g, sympy.And) else (g,)) if isinstance(c, sympy.Eq)):
        d = sympy.expand(c.lhs - c.rhs)
        for b, n in zip(BID, GDIM):
            if abs(d.coeff(b)) == 1 and not (d - d.coeff(b) * b).free_symbols & {*TID, *BID} and grid.get(n) != 1:
                return f"only the block with `{spell(c.lhs)} == {spell(c.rhs)}` runs it, one block of the grid"
    return None


#: a thread's rank in the grid, as the interpreter writes cooperative groups' ``this_grid().thread_rank()``: blocks
#: in x, then y, then z, each block's threads likewise
GRID_RANK = sympy.expand(BDIM[0] * BDIM[1] * BDIM[2] * (BID[0] + BID[1] * GDIM[0] + BID[2] * GDIM[0] * GDIM[1])
                         + BDIM[0] * BDIM[1] * TID[2] + BDIM[0] * TID[1] + TID[0])


def _count(c: sympy.Expr) -> bool:
    """Whether ``c``, a global index's coefficient in a bounds check, is a positive number or such a number times
    named constants (``N_READS`` elements a thread: MLX's ``if ((index + 1) * N_READS > size)``), none of them a
    thread or block coordinate: a count of elements, taken as positive."""
    num, rest = c.as_coeff_Mul()
    return bool(num.is_positive) and (rest == 1 or all(
        isinstance(f, sympy.Symbol) and f not in {*TID, *BID, *BDIM} for f in sympy.Mul.make_args(rest)))


def bounds_tail(guards: tuple, symbols=None, block: Optional[tuple] = None) -> Optional[str]:
    """Why a site that only threads past a run-time bound reach (the ``else`` of ``if (4*gid + 3 < n)``: SHOC's
    scan, which reads a uint4 when it can and single elements only at the array's end) is a small share of the
    work: the grid is sized to the bound, so only the block that straddles it has such threads.  With ``symbols``
    (and the launch's ``block``), any global index :func:`cudalint.analysis.uniformity.bound_checks` reads counts,
    not only ``threadIdx.x + blockIdx.x * blockDim.x`` (TransformerEngine's scalar fallback after
    ``if (base + 7 < M_packed)``, ``base = blockIdx.x * 32 + (tid % 4) * 8``).  None otherwise."""
    from ..analysis import uniformity
    found = None
    for g in guards:
        if not isinstance(g, sympy.logic.boolalg.Boolean):
            continue
        if symbols is not None and symbols.is_loop_condition(g):
            continue  # a loop's own condition (bh's `while (k >= bottom)`, k falling): every thread runs the body
        nnf = sympy.to_nnf(g)
        for c in (nnf.args if isinstance(nnf, sympy.And) else (nnf,)):
            if not isinstance(c, (sympy.GreaterThan, sympy.StrictGreaterThan, sympy.LessThan, sympy.StrictLessThan)):
                continue
            high = isinstance(c, (sympy.GreaterThan, sympy.StrictGreaterThan))
            d = sympy.expand(c.lhs - c.rhs if high else c.rhs - c.lhs)  # d >= 0 (or > 0) past the bound
            ct, cb = d.coeff(TID[0]), d.coeff(BID[0])
            rest = d - ct * TID[0] - cb * BID[0]
            if (cb / ct).free_symbols != {BDIM[0]} and _count(ct):  # the grid's linear rank (`this_grid()
                rest, cb = sympy.expand(d - ct * GRID_RANK), ct * BDIM[0]  # .thread_rank()`: MLX's binary_vv)
            fixed = not rest.free_symbols & set(GDIM) and not any(  # a bound no loop moves (not a grid-stride
                str(x).startswith(TRIP_PREFIX) for x in rest.free_symbols)  # loop's, not `x + j - win >= 0`)
            if _count(ct) and (cb / ct).free_symbols == {BDIM[0]} and rest.free_symbols and fixed and \
                    not rest.free_symbols & {*TID, *BID}:
                return (f"only the threads past the bound (`{spell(c)}`) run it: the tail of the one block that "
                        "straddles it")
            if found is not None or symbols is None:
                continue
            tid_left = bool(c.lhs.free_symbols & set(TID)) and not c.rhs.free_symbols & set(TID)
            tid_right = bool(c.rhs.free_symbols & set(TID)) and not c.lhs.free_symbols & set(TID)
            past = high if tid_left else (not high) if tid_right else False   # the index at or past the bound
            if past and uniformity.bound_checks(c, symbols, block):
                names = ", ".join(f"`{spell(x)}`" for x in sorted((c.rhs if tid_left else c.lhs).free_symbols, key=str))
                found = (f"only the threads whose index reaches the run-time bound on {names} run it (the other "
                         "side of a bounds check): the tail of the one block that straddles it")
    return found


#: tests of a value for NaN or infinity (CUDA Math API, "Single/Double Precision Mathematical Functions"),
#: true only on an error path
NONFINITE_TESTS = {"isnan", "isinf", "isnanf", "isinff", "__isnan", "__isnanf", "__isnand", "__isinf",
                   "__isinff", "__isinfd"}
#: tests for a finite value: false only on an error path
FINITE_TESTS = {"isfinite", "__finite", "__finitef", "__isfinited"}


def error_path(guards: tuple) -> Optional[str]:
    """Why a site under a guard that holds only for a NaN or infinite value (``if (isnan(v))``,
    ``else if (isinf(v) == 1)``, ``if (!isfinite(v))``) is a small share of the work: only the lanes whose value
    is not finite take it, an error path (Rodinia myocyte's ``finavalu[i] = 0.0001`` fix-ups).  None otherwise."""
    def test(x) -> str:
        return x.name.split("#", 1)[0] if isinstance(x, sympy.Symbol) else ""
    for c in (c for g in guards for c in (g.args if isinstance(g, sympy.And) else (g,))):
        if isinstance(c, sympy.Symbol):
            nonfinite = test(c) in NONFINITE_TESTS
        elif isinstance(c, (sympy.Eq, sympy.Ne)) and c.rhs.is_Number:
            holds = (c.rhs != 0) == isinstance(c, sympy.Eq)  # the test's result is nonzero
            nonfinite = test(c.lhs) in NONFINITE_TESTS and holds or test(c.lhs) in FINITE_TESTS and not holds
        elif isinstance(c, sympy.Not):
            nonfinite = test(c.args[0]) in FINITE_TESTS
        else:
            nonfinite = False
        if nonfinite:
            return "it runs only for values that are NaN or infinite, an error path few lanes take"
    return None


def tiny_launch(kernel: Kernel, ctx: AnalysisContext) -> Optional[str]:
    """Why a global access made once per thread costs no time in a launch of at most :data:`SMS` warps: no SM
    queues a second request, so latency, not sectors, sets the time (fixtures/global/tiny_launch.cu, measured on
    the H200: 8 warps of 32-sector loads 2.18 us, coalesced 2.02 us).  None for a larger or unknown grid."""
    sites = ctx.sites(kernel)
    if not sites or any(None in s.grid or None in s.block for s in sites):
        return None
    warps = max(math.prod(s.grid) * -(-math.prod(s.block) // WARP) for s in sites)  # type: ignore[arg-type]
    return (f"the launch runs {warps} warp{'s' * (warps > 1)}, no more than the GPU's {SMS} SMs, so latency, not "
            "sectors, sets its time") if warps <= SMS else None


def small_kernel(kernel: Kernel, acc: Access, ctx: AnalysisContext) -> Optional[str]:
    """Why an access of a kernel that makes each of its accesses to that memory space once per thread is a small
    share of the program's traffic there: each launch of it moves at most a sector (a wavefront in shared memory)
    per access and lane, and that is at most 1/16 of what a kernel the same host function launches beside it (in
    every loop it is in) moves at least, its threads times its widest access coalesced, as the run-time sizes
    grow together, and bounded as each grows alone (gaussian's Fan1, ``Size`` threads, beside Fan2's ``Size*Size``;
    fixtures/global/small_kernel.cu, measured on the H200).  None when a launch's threads are not known as an
    expression (:meth:`~cudalint.analysis.launches._Env.sym`).  Computed once per kernel and memory space."""
    key = ("small_kernel", id(kernel), acc.array.space)
    if key not in ctx.memo:
        ctx.memo[key] = _small_kernel(kernel, acc.array.space, ctx)
    return ctx.memo[key]


def _small_kernel(kernel: Kernel, space: AddressSpace, ctx: AnalysisContext) -> Optional[str]:
    sites = ctx.sites(kernel)
    n = sum(a.array.space == space for a in kernel.accesses)
    if not sites or any(a.loop_depth for a in kernel.accesses if a.array.space == space):
        return None
    unit = SECTOR if space == AddressSpace.GLOBAL else BANK_WIDTH * WARP  # bytes of a lane's ideal unit
    least: dict[str, float] = {}
    for k in (k for k in ctx.model.kernels if k.name != kernel.name):  # its widest access most threads make
        for a in (a for a in k.accesses if a.array.space == space and not any(
                isinstance(c, sympy.Eq) for g in a.guards for c in sympy.And.make_args(g))):
            least[k.name] = max(least.get(k.name, 0), a.size / unit)
    big = [next((t for t in ctx.model.launches if t.kernel in least and t.function == s.function
                 and t.loops[:len(s.loops)] == s.loops and t.threads is not None
                 and _share(n * s.threads, t.threads * least[t.kernel])), None) if s.threads is not None else None
           for s in sites]
    if not all(big):
        return None
    s, t = sites[0], big[0]
    unit_name = "sector" if space == AddressSpace.GLOBAL else "wavefront"
    return (f"its launch, `{spell(s.threads)}` threads of {n} {space.value} access{'es' * (n > 1)}, moves at most a "
            f"{unit_name} per access and lane, under 1/16 of what `{t.kernel}` moves, which `{t.function}()` launches "
            f"beside it with `{spell(t.threads)}` threads (line {t.span.line}), as the sizes grow")


def _share(a: sympy.Expr, b: sympy.Expr) -> bool:
    """``a <= b / 16`` as the symbols grow together, and ``a / b`` bounded as each grows alone."""
    t = sympy.Dummy("t", positive=True)
    try:
        r = sympy.cancel(a / b)
        syms = r.free_symbols
        lim = sympy.limit(r.xreplace({x: t for x in syms}), t, sympy.oo) if syms else r
        return bool(lim <= sympy.Rational(1, 16)) and all(
            sympy.limit(r.xreplace({y: 1 for y in syms - {x}}), x, sympy.oo).is_finite for x in syms)
    except (TypeError, ValueError, NotImplementedError, sympy.PolynomialError):
        return False


def lines_text(lines: Iterable[int], here: str) -> str:
    """``line 40``, ``lines 40, 42``: the lines a finding at ``here`` (a path) refers to, each file other than
    ``here`` named (``line 12 of `reduce.cuh```) where a line remembers its file
    (:class:`~cudalint.model.SourceLine`: a guard or a call in a header, a barrier in the kernel's file)."""
    groups: dict[str, list[int]] = {}
    for n in sorted(set(lines)):
        groups.setdefault(getattr(n, "path", "") or here, []).append(int(n))
    parts = []
    for path, ns in sorted(groups.items(), key=lambda kv: (kv[0] != here, kv[0])):
        text = f"line{'s' * (len(ns) > 1)} {', '.join(map(str, ns))}"
        parts.append(text if path == here else f"{text} of `{os.path.basename(path)}`")
    return " and ".join(parts)


def span_text(span, here: str) -> str:
    """:func:`lines_text` of one source span (an exit's, a call's)."""
    return lines_text([SourceLine.of(span)], here)


def spell(expr) -> str:
    """An expression as a user reads it: sympy's spelling without the ``#n`` that keeps cudalint's
    internal value names unique (``8*stride#12`` -> ``8*stride``), a loop's trip counter named by the loop's
    own counter (``k@j:12.3`` -> ``j``) or by its line (``k@12.3`` -> ``trip12``: 0, 1, ... of the loop on
    line 12)."""
    text = re.sub(r"k@(\w+):\d+\.\d+", r"\1", re.sub(r"#\d+", "", str(expr)))
    return re.sub(r"k@(\d+)\.\d+", r"trip\1", text)


def spell_bytes(x) -> str:
    """A distance in bytes as a message states it: ``64 bytes``, ``4*n bytes``, or, when it rests on a value the
    kernel loads from memory (the interpreter's ``load#n``, which has no name in the source), ``a run-time distance
    (loaded from memory)`` (gvdb-voxels' node pools: ``each load#16924 bytes apart`` before)."""
    if isinstance(x, int):
        return f"{x} bytes"
    text = spell(x)
    return "a run-time distance (loaded from memory)" if re.search(r"\bload\b", text) else f"{text} bytes"


def fmt(x: float) -> str:
    """Format a metric for a message: integers without decimals."""
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}"


def metric(x: float, nd: int = 2):
    """A metric value for JSON: an int when integral, else rounded to ``nd`` decimals."""
    return int(x) if float(x).is_integer() else round(x, nd)
