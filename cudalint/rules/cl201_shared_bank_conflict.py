"""CL201 shared-bank-conflict: lanes of a warp hit distinct words in the same shared-memory bank.

Hardware fact: shared memory has 32 banks of 4 bytes; distinct words in one bank are served one per
wavefront, the same word is broadcast (CUDA C++ Programming Guide, "Shared Memory" of compute capability
5.x and later).  Measured on an H200 (GROUND_TRUTH.md): column read of ``float t[32][32]`` 32.1 wavefronts
per instruction, 1.16 with ``t[32][33]``; ``t[2*threadIdx.x]`` 2.0.
For 2-D arrays the fix pads the row to the smallest width that makes every access of the kernel to that
array conflict-free.  Severity: warning; info for a one-shot access beside the loops that carry the kernel's
shared traffic, for one block's work (:func:`~cudalint.rules.one_block`), in a kernel whose launches are a
small share of another's (:func:`~cudalint.rules.small_kernel`), in a kernel DRAM limits (:func:`dram_bound`), in
one bound by arithmetic (:func:`~cudalint.rules.compute_bound`: 16 or more operations on data per wavefront and sector),
in one its texture fetches limit (:func:`texture_bound`) and in a launch of at most one block per SM whose conflicts
add few wavefronts (:func:`tiny_conflict`).
"""

from __future__ import annotations

import math
from typing import Optional

import sympy

from ..analysis.symbols import TID
from ..analysis.warp import WARP, NotModelled, picture, shared_cost
from ..diagnostics import Edit, Fix
from ..model import Access, AddressSpace, ArrayDecl, Kernel
from . import (SMS, AnalysisContext, Findings, Rule, Severity, TranslationUnitModel, compute_bound, error_path, fmt,
               metric, one_block, one_shot, outside, pictured, same_site, small_kernel, spell, thread_trips,
               warps_making)

MAX_PAD = 32


def _offset_with_row(acc: Access, arr: ArrayDecl, row: int) -> Optional[sympy.Expr]:
    """Byte offset of ``acc`` if the innermost extent of ``arr`` were ``row``."""
    if len(acc.subscripts) != len(arr.dims) or None in arr.dims[1:]:
        return None
    dims = [*arr.dims[:-1], row]
    off = sum((sub * math.prod(dims[i + 1:]) * arr.elem_size for i, sub in enumerate(acc.subscripts)), sympy.Integer(0))
    return sympy.expand(off + (acc.field_offset if acc.elem_size != arr.elem_size else 0))


def dram_bound(kernel: Kernel, acc: Access, ctx: AnalysisContext) -> Optional[str]:
    """Why a conflict costs no time when the kernel's shared accesses at ``acc``'s loop depth take no more wavefronts
    per warp than its global accesses there move DRAM sectors (each array's costliest load and store, at most at
    their ideal sectors: a lower bound, other accesses of an array may hit the caches, and an uncoalesced access's waste
    would hide the conflict only until it is fixed): DRAM, not the shared pipe, limits it.  Measured on
    the H200 (fixtures/shared/memory_bound_conflict.cu, 8 sectors a warp): 8 wavefronts 2 % more time than 2,
    16 wavefronts 17 %, 64 3.3x.  None when a shared access there is not modelled."""
    level = [a for a in kernel.accesses if a.loop_depth == acc.loop_depth]
    pics = [(a, ctx.picture(kernel, a)) for a in level if a.array.space == AddressSpace.SHARED]
    if any(p is None for _, p in pics):
        return None
    waves = sum(shared_cost(p, a.size).wavefronts_per_request for a, p in pics)
    most: dict = {}
    for a in level:
        if a.array.space == AddressSpace.GLOBAL and (c := ctx.global_cost(kernel, a)) is not None:
            key = (a.array.name, a.is_write)
            most[key] = max(most.get(key, 0), min(c.sectors_per_request, c.ideal_sectors_per_request))
    sectors = sum(most.values())
    where = "made once per thread" if not acc.loop_depth else f"{acc.loop_depth} loop{'s' * (acc.loop_depth > 1)} deep"
    if sectors and waves <= sectors:
        return (f"the kernel's shared accesses {where} take {fmt(waves)} wavefronts per warp, no more than the "
                f"{fmt(sectors)} DRAM sectors its global accesses there move even when coalesced, so DRAM, not shared "
                "memory, limits it")
    return dram_bound_over_trips(kernel, acc, ctx)


def dram_bound_over_trips(kernel: Kernel, acc: Access, ctx: AnalysisContext) -> Optional[str]:
    """:func:`dram_bound` over the whole kernel, each access weighed by how often a thread makes it
    (:func:`~cudalint.rules.thread_trips`): a conflicted store made once, after a loop that reads the kernel's input
    (a column sum transposed through a 32 x 32 tile: lightseq's column_sum_reduce), when the kernel's shared accesses
    take no more wavefronts per warp in all than its global accesses move DRAM sectors (each array's costliest load
    and store per loop trip, at most at their ideal sectors), or when the loops of a run-time trip count that carry
    the global accesses make the sectors grow past the wavefronts.  fixtures/shared/after_global_loop.cu: 33
    wavefronts beside 2,049 sectors, info; the same conflict inside the loop, 16,384 beside 2,052, a warning.  None
    when a shared access is not modelled or the kernel moves no global sector."""
    key = ("dram_over_trips", id(kernel))
    if key not in ctx.memo:   # the kernel's totals, the same for each of its conflicts
        ctx.memo[key] = _kernel_totals(kernel, ctx)
    if ctx.memo[key] is None:
        return None
    waves, sectors = ctx.memo[key]
    r = sympy.cancel(sectors / waves)
    if r.is_Number:
        if r < 1:
            return None
        return (f"the kernel's shared accesses take {fmt(waves)} wavefronts per warp in all, no more than the "
                f"{fmt(sectors)} DRAM sectors its global accesses move even when coalesced, so DRAM, not shared "
                "memory, limits it")
    num, den = sympy.fraction(r)
    grows = not den.free_symbols and all(t.as_coeff_Mul()[0] > 0 for t in sympy.Add.make_args(sympy.expand(num)))
    carried = num.free_symbols - _acc_trips(kernel, acc)
    bulk = next((b for b in kernel.accesses if b.array.space == AddressSpace.GLOBAL and set(b.loop_trips) & carried),
                None)
    if not grows or bulk is None:
        return None
    shared = f"the {fmt(waves)} shared wavefronts per warp" if waves.is_Number else "the shared wavefronts"
    return (f"the kernel's global {bulk.kind} on line {bulk.span.line} repeats in a loop of a run-time trip count this "
            f"access is not in, so the DRAM sectors it moves grow past {shared} the kernel takes: DRAM, not shared "
            "memory, limits it")


def _kernel_totals(kernel: Kernel, ctx: AnalysisContext) -> Optional[tuple[sympy.Expr, sympy.Expr]]:
    """(shared wavefronts, DRAM sectors) per warp over the whole of ``kernel`` for :func:`dram_bound_over_trips`;
    None when a shared access is not modelled or either total is zero."""
    if (shared := _shared_totals(kernel, ctx)) is None:
        return None
    waves = shared[0]
    most: dict = {}
    free = ctx.launch_shape(kernel).free
    for a in (a for a in kernel.accesses if a.array.space == AddressSpace.GLOBAL and not a.compile_time_choice):
        if (c := ctx.global_cost(kernel, a)) is not None and (p := ctx.picture(kernel, a)) is not None:
            key = (a.array.name, a.is_write, a.loop_trips)
            n = thread_trips(kernel, a, ctx) * min(c.sectors_per_request, c.ideal_sectors_per_request) * \
                (warps_making(p) if not _selects_threads(a, p, free) else 0)
            most[key] = n if key not in most else sympy.Max(most[key], n)
    sectors = sympy.Add(*most.values())
    return (waves, sectors) if waves and sectors else None


#: extra wavefronts a block's conflicts may add, in all, in a launch that gives each SM at most one block, for them
#: to be a small share of its time: the SM serves them one per cycle and has nothing else to serve, so they add
#: latency, not throughput.  Measured (fixtures/shared/tiny_launch_conflict.cu, H100, 200 launches, three runs): a
#: diagonal sweep of 16-thread blocks in 128 blocks, 420 extra wavefronts a block, 4.78-4.84 us against 4.45-4.62
#: padded; 16 volatile 32-way reads a warp, 496, 2.99-3.06 against 2.75-2.88; 256 of them, 7,936, 10.6-10.8 against
#: 3.0-3.1 (3.5x).  The same sweep in 16,384 blocks: 59.5 us against 33.8 (1.76x)
TINY_CONFLICT_WAVEFRONTS = 512

#: cycles of the texture unit a warp's texture fetch takes: measured in fixtures/shared/texture_fill_conflict.cu (H100,
#: Nsight Compute's full set): one-byte point-sampled 2-D fetches held L1/TEX at 83 % of its peak at both pitches, 395
#: SM cycles a warp for about 25.6 fetches a warp (12.8 a fetch at the peak), and a 2-way conflict that doubled the
#: shared wavefronts (131 to 271 a warp) cost 1 % (40.6 us against 40.1, 53.8 against 53.3 through a function pointer)
TEX_CYCLES = 12


def _shared_totals(kernel: Kernel, ctx: AnalysisContext) -> Optional[tuple[sympy.Expr, sympy.Expr]]:
    """(wavefronts, extra wavefronts over the ideal) a warp's shared accesses take over the whole of ``kernel``, each
    weighed by how often thread 0 makes it (:func:`~cudalint.rules.thread_trips`) and the share of the block's warps
    that make it; None when a shared access is not modelled.  Computed once per kernel."""
    key = ("shared_totals", id(kernel))
    if key not in ctx.memo:
        waves = extra = sympy.Integer(0)
        for a in (a for a in kernel.accesses if a.array.space == AddressSpace.SHARED and not a.compile_time_choice):
            if (p := ctx.picture(kernel, a)) is None:
                ctx.memo[key] = None
                break
            cost, n = shared_cost(p, a.size), thread_trips(kernel, a, ctx) * warps_making(p)
            waves += n * sympy.nsimplify(cost.wavefronts_per_request)
            extra += n * sympy.nsimplify(max(cost.wavefronts_per_request - cost.ideal_wavefronts, 0))
        else:
            ctx.memo[key] = (waves, extra)
    return ctx.memo[key]


def tiny_conflict(kernel: Kernel, ctx: AnalysisContext) -> Optional[str]:
    """Why the conflicts of a launch of at most :data:`~cudalint.rules.SMS` blocks cost little time: each SM runs one
    block, serves its wavefronts one per cycle and has no other warp's to serve, so a block's extra wavefronts add
    that many cycles, and at most :data:`TINY_CONFLICT_WAVEFRONTS` of them are a small share of a launch (Rodinia's
    nw, 16-thread blocks on a diagonal of at most 128; lud_diagonal's single block).  None for a larger or unknown
    launch, a loop of a run-time trip count around a shared access, or more extra wavefronts."""
    sites = ctx.sites(kernel)
    if not sites or any(None in s.grid or None in s.block for s in sites):
        return None
    blocks = max(math.prod(s.grid) for s in sites)  # type: ignore[arg-type]
    warps = max(-(-math.prod(s.block) // WARP) for s in sites)  # type: ignore[arg-type]
    totals = _shared_totals(kernel, ctx)
    if blocks > SMS or totals is None or not totals[1].is_Number:
        return None
    extra = int(math.ceil(warps * totals[1]))
    if extra > TINY_CONFLICT_WAVEFRONTS:
        return None
    return (f"the launch runs {blocks} block{'s' * (blocks > 1)}, no more than the GPU's {SMS} SMs, so each SM serves "
            f"one block and the kernel's conflicts add about {extra} wavefronts to a block in all: about {extra} "
            f"cycles, a small share of a launch ({TINY_CONFLICT_WAVEFRONTS} or fewer)")


def texture_bound(kernel: Kernel, ctx: AnalysisContext) -> Optional[str]:
    """Why a conflict costs no time in a kernel whose texture fetches keep the texture unit busier than its shared
    accesses keep the shared pipe: a warp's fetches take :data:`TEX_CYCLES` cycles each, and when that is at least the
    wavefronts a warp's shared requests take with their conflicts, the fetches limit it (cuda-samples' SobelFilter
    and FunctionPointers, a byte tile filled from ``tex2D``).  None when a fetch's or a shared access's count is not
    known."""
    fetches = sympy.Integer(0)
    for a in (a for a in kernel.accesses if a.array.elem_type == "texture" and a.is_read):
        fetches += thread_trips(kernel, a, ctx)
    totals = _shared_totals(kernel, ctx)
    if not fetches or not fetches.is_Number or totals is None or not totals[0].is_Number:
        return None
    cycles, waves = int(fetches) * TEX_CYCLES, totals[0]
    if cycles < waves:
        return None
    return (f"its threads make {int(fetches)} texture fetches each, about {cycles} cycles of the texture unit a warp "
            f"({TEX_CYCLES} a fetch), no fewer than the {fmt(waves)} wavefronts a warp's shared requests take with the "
            "conflicts, so texture fetches, not shared memory, limit it")


def _selects_threads(acc: Access, pic, free: tuple) -> bool:
    """Whether a guard of ``acc`` compares a thread index for equality (``threadIdx.y == 0``, ``tid == 0``) that the
    picture cannot tell the share of warps of: every lane of every pictured warp makes it (the guard was not decided
    per lane), or the index is of an axis whose extent is a run-time value (``free``: the picture holds one
    representative warp, fixtures/shared/branch_block.cu's `threadIdx.y == 0` fill with blockDim.y 8 or 16).  A few
    threads make it, not every warp, so its sectors are not counted."""
    eqs = [c for g in acc.guards if isinstance(g, sympy.Basic) for c in sympy.And.make_args(g)
           if isinstance(c, sympy.Eq) and c.free_symbols & set(TID)]
    return bool(eqs) and (any(TID[i] in c.free_symbols for c in eqs for i in free)
                          or all(len(w) == 32 for w in pic.warps))


def _acc_trips(kernel: Kernel, acc: Access) -> set:
    """The trip counters of the loops around ``acc`` (and every inlined copy of it)."""
    return {t for b in kernel.accesses if same_site(b, acc) for t in b.loop_trips}


class SharedBankConflict(Rule):
    code = "CL201"
    name = "shared-bank-conflict"
    default_severity = Severity.WARNING
    summary = "Shared-memory access with an n-way bank conflict (n >= 2)"

    def padding(self, kernel: Kernel, accs: list, ctx: AnalysisContext, shifted) -> Optional[int]:
        """Smallest pad p (1..MAX_PAD) that makes every access of ``accs`` conflict-free, where
        ``shifted(access, p)`` is its offset with rows p elements longer (None: not modelled)."""
        shape = ctx.launch_shape(kernel)
        for pad in range(1, MAX_PAD + 1):
            worst = 1
            for a in accs:
                off = shifted(a, pad)
                if off is None:
                    return None
                try:
                    pic = picture(off, shape, ctx.symbols, "shared", a.guards)
                except NotModelled:
                    return None
                worst = max(worst, shared_cost(pic, a.size).bank_conflict_ways)
            if worst == 1:
                return pad
        return None

    def check(self, model: TranslationUnitModel, ctx: AnalysisContext) -> Findings:
        for kernel, acc, pic in pictured(model, ctx, AddressSpace.SHARED):
            cost = shared_cost(pic, acc.size)
            ways = cost.bank_conflict_ways
            if ways < 2:
                continue
            arr, stride, row_hint, fix = acc.array, pic.stride, "", None
            apart = stride // 4 if isinstance(stride, int) and stride % 4 == 0 else None  # in words
            if apart is not None and (apart == 0 or math.gcd(apart, 32) == 1):
                # consecutive lanes are conflict-free along x (or read one word: a broadcast): the conflict comes
                # from the warp's other rows (threadIdx.y varies inside a warp when blockDim.x < 32) landing in the
                # same banks
                words = "the warp spans several rows (threadIdx.y) whose words land in the same banks"
                es, c = arr.elem_size, sympy.expand(acc.offset).coeff(TID[1])
                pad = self.padding(kernel, [acc], ctx, lambda a, p: a.offset + p * es * TID[1]) \
                    if c.is_Integer and c > 0 and c % es == 0 and len(arr.dims) < 2 else None
                row_hint = f"; pad each row from {c // es} to {c // es + pad} elements" if pad else ""
            elif stride is not None:
                words = f"lanes are {apart if apart is not None else spell(stride / 4)} words apart"
            else:
                words = "lanes map to the same banks"
            article = "an" if acc.size == 8 else "a"
            phased = (f" in its worst phase ({article} {acc.size}-byte request is served in "
                      f"{cost.ideal_wavefronts} phases)" if cost.ideal_wavefronts > 1 else "")
            msg = (f"{ways}-way shared-memory bank conflict on {acc.kind} of `{arr.name}`: {words}, so {ways} "
                   f"distinct words fall in one bank{phased} and the request takes {cost.worst_wavefronts} wavefronts "
                   f"instead of {cost.ideal_wavefronts}")
            if abs(cost.wavefronts_per_request - cost.worst_wavefronts) > 1e-9:
                msg += (f" at worst ({cost.wavefronts_per_request:.2f} wavefronts per request on average "
                        f"over the block's warps{' and the loop trips' if pic.loop_values else ''})")
            msg += row_hint
            pad = self.padding(kernel, [a for a in kernel.accesses if a.array is arr], ctx,
                               lambda a, p: _offset_with_row(a, arr, arr.dims[-1] + p)) \
                if len(arr.dims) >= 2 and arr.dims[-1] is not None else None
            if pad is not None and not arr.dim_spans:
                msg += f"; pad each row from {arr.dims[-1]} to {arr.dims[-1] + pad} elements"
            elif pad is not None:
                span, text, row = arr.dim_spans[-1], arr.dim_texts[-1], arr.dims[-1] + pad
                content = str(row) if text.strip().isdigit() else f"{text} + {pad}"
                dims = "".join(f"[{t}]" for t in arr.dim_texts[:-1]) + f"[{content}]"
                msg += f"; pad the row: `__shared__ {arr.elem_type} {arr.name}{dims};`"
                fix = Fix(message=f"Pad `{arr.name}` to `{arr.name}{dims}`",
                          edits=(Edit(span.line, span.column, span.end_line, span.end_column, content),))
            elif apart is not None and len(arr.dims) < 2 and math.gcd(apart, 32) > 1:
                msg += "; make consecutive lanes use consecutive words (or an odd word stride)"
            metrics = {"bank_conflict_ways": ways, "wavefronts_per_request": metric(cost.wavefronts_per_request)}
            bulk = one_shot(kernel, acc, ctx)
            share = outside(acc, bulk, "shared", ctx) if bulk else error_path(acc.guards) or one_block(
                kernel, acc.guards, ctx) or small_kernel(kernel, acc, ctx) or dram_bound(kernel, acc, ctx) or \
                compute_bound(kernel, ctx) or tiny_conflict(kernel, ctx) or texture_bound(kernel, ctx)
            msg += f"; {share}" if share else ""
            yield self.diagnostic(kernel, acc, msg, severity=Severity.INFO if share else None, metrics=metrics,
                                  assumptions=ctx.assumptions(kernel, pic), fix=fix)
