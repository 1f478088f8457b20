"""CL301 barrier-in-divergent-branch: a block barrier under a condition that is not block-uniform.

Hardware fact: ``__syncthreads()`` must be reached by every thread of the block (CUDA C++ Programming
Guide, "Synchronization Functions": "allowed in conditional code but only if the conditional evaluates
identically across the entire thread block").  Measured on an H200 (GROUND_TRUTH.md):
``if (threadIdx.x < 16) __syncthreads();`` makes compute-sanitizer synccheck report "Barrier error
detected. Divergent thread(s) in warp." at the barrier's line.  Severity: error.

Block-uniform (DESIGN.md §3): blockIdx, blockDim, gridDim, kernel and template parameters, constants,
loads from uniform addresses (``__shared__`` flags written by one thread before a barrier included),
loop variables with uniform start/step/bound, and a thread-dependent condition that every thread of the
launched block evaluates alike (a loop whose start depends on the thread but whose trip count does not).
Anything derived from threadIdx, a lane id, a load at a thread-varying address or an atomic's result is
not; a value cudalint cannot model is not reported.  A barrier divergent only through bounds checks of a global
index (``if (ix < imageW)``; a grid-stride loop over rows, one a warp) is a warning: it splits only a block that
straddles the bound, and none when the bound is a multiple of what a block covers of the index.
"""

from __future__ import annotations

import os
from typing import Optional

import sympy

from ..analysis import uniformity
from ..analysis.interpreter import negate
from ..analysis.symbols import BID, GDIM
from ..model import Barrier, Kernel
from . import AnalysisContext, Findings, Rule, Severity, TranslationUnitModel, lines_text


def divergent_guards(guards, ctx: AnalysisContext, kernel: Kernel, run: bool = True) -> list[int]:
    """Lines of the guards (if/switch/?:/loop conditions) not shown block-uniform for the kernel's launch
    (:func:`cudalint.analysis.uniformity.divergent_guards`)."""
    shape = ctx.launch_shape(kernel)
    return uniformity.divergent_guards(guards, shape.full, ctx.symbols, kernel.grid_bound, ctx.block_known(kernel),
                                       ctx.run_time(kernel) if run else None)


def bound_names(guards, lines: list[int], ctx: AnalysisContext, kernel: Kernel) -> list[tuple[str, str]]:
    """The run-time bounds, each with the span of the index one block covers, when every divergent guard (on
    ``lines``) is a bounds check of a global index (:func:`cudalint.analysis.uniformity.bound_checks`), else empty."""
    block = ctx.launch_shape(kernel).full
    found = [uniformity.bound_checks(v, ctx.symbols, block) for v, line in guards if line in lines and v is not None]
    return list(dict.fromkeys(n for names in found for n in names)) if found and all(found) else []


def aligned_today(guards, lines: list[int], ctx: AnalysisContext, kernel: Kernel) -> Optional[bool]:
    """Whether, for the launch's block and the values its launches bind (``nx`` = 4096, gridDim, ``n`` a multiple
    of 1024: :meth:`~cudalint.analysis.context.AnalysisContext.run_multiples`), every divergent
    bounds check (on ``lines``) falls between blocks (:func:`cudalint.analysis.uniformity.bounds_aligned`): True,
    False when one is shown to split a block, None when that is not known."""
    block, run = ctx.launch_shape(kernel).full, {**ctx.run_time(kernel), **ctx.run_multiples(kernel)}
    if block is None and not kernel.block_multiples or not run:
        return None
    found = [uniformity.bounds_aligned(v, ctx.symbols, block, run) for v, line in guards
             if line in lines and v is not None]
    return False if False in found else None if None in found else True


def covered_today(guards, lines: list[int], kernel: Kernel) -> bool:
    """Whether every launch of ``kernel`` runs no more threads along x than the divergent bounds check (on
    ``lines``) admits (:func:`cudalint.analysis.uniformity.covered_exactly`, :attr:`Kernel.launch_values`), the grid
    ending at or before the bound."""
    checks = [v for v, line in guards if line in lines and v is not None]
    return bool(checks and kernel.launch_values) and all(
        uniformity.covered_exactly(v, params, threads) for params, threads in kernel.launch_values for v in checks)


def warp_split(b: Barrier, lines: list[int], ctx: AnalysisContext, kernel: Kernel) -> Optional[tuple[int, int]]:
    """``(line, n)`` when the barrier's only divergent guard is a condition uniform within every warp of the
    launch's block (:func:`cudalint.analysis.uniformity.warp_uniform`: ``threadIdx.x >= 128`` in 256 threads) whose
    other branch holds barriers too, ``n`` in each: warp specialisation, where the block's warps wait at different
    ``__syncthreads()`` calls (synccheck: "Divergent thread(s) in block", fixtures/sync/warp_specialized.cu on the
    H200).  None otherwise: a split inside warps, barriers in one branch only or a different number in each."""
    block = ctx.launch_shape(kernel).full
    if block is None or len(set(lines)) != 1:
        return None
    line = lines[0]
    mine = [v for v, ln in b.guards if ln == line and v is not None]
    if len(mine) != 1 or not uniformity.warp_uniform(mine[0], block, ctx.symbols):
        return None
    cond = mine[0]

    def branch(other: Barrier) -> Optional[bool]:
        for v, ln in other.guards:
            if ln == line and v is not None:
                return True if v == cond else False if opposite(v, cond) else None
        return None

    sides = [branch(o) for o in kernel.barriers]
    same, other = sides.count(True), sides.count(False)
    return (line, same) if same == other else None


def opposite(a, b) -> bool:
    """Whether the guard values ``a`` and ``b`` are a condition and its negation (an if's two branches)."""
    try:
        return sympy.Not(a) == b or sympy.Not(b) == a or negate(a) == b or negate(b) == a
    except TypeError:
        return False


def chain_text(kernel: Kernel, b: Barrier) -> str:
    if not b.call_chain:
        return ""
    hops = " -> ".join(f"`{name}` (called at {lines_text([line], b.span.path)})" for name, line in b.call_chain)
    return f", reached from kernel `{kernel.name}` through {hops}"


def _latent_text(kernel: Kernel, ctx: AnalysisContext, guards) -> list[str]:
    """The values a barrier's guards (``(value, line)``) hold alike in a block for: the parameters the launches
    bind, and gridDim where the guards read blockIdx and the grid is a number of blocks."""
    used = {x for v, _ in guards if hasattr(v, "free_symbols") for x in v.free_symbols}
    run = ctx.run_time(kernel)
    bounds = {a: uniformity.substituted(b, run) for a, b in zip("xyz", (kernel.grid_bound.get(g) for g in GDIM))
              if b is not None}
    grid = [(a, sympy.floor(v)) for a, v in bounds.items() if BID["xyz".index(a)] in used and v.is_number]
    return ctx.bound_values(kernel, guards) + [f"gridDim.{a} <= {v}" for a, v in grid]


class BarrierInDivergentBranch(Rule):
    code = "CL301"
    name = "barrier-in-divergent-branch"
    default_severity = Severity.ERROR
    summary = "Block barrier under a condition that is not block-uniform"

    def _latent(self, kernel: Kernel, b, lines: list[int], ctx: AnalysisContext):
        """The finding for a barrier whose guards split no block only for the values the launches pass (a chunk
        loop over ``MIN(num, start + 16)`` with ``num`` = 4096 and a grid of 128 blocks): info, a latent fault."""
        where = lines_text(lines, b.span.path)
        named = ", ".join(_latent_text(kernel, ctx, [g for g in b.guards if g[1] in lines])) or "values"
        return self.diagnostic(
            kernel, b, f"`{b.name}` is under a thread-dependent condition ({where}){chain_text(kernel, b)} that "
            f"every thread of a block evaluates alike only for the launch's {named} (a latent fault if the values "
            f"change: the block's threads would then reach the barrier a different number of times); give every "
            f"thread of the block the same trips and guard only the work", severity=Severity.INFO,
            assumptions=[f"condition on {where} is thread-dependent"])

    def check(self, model: TranslationUnitModel, ctx: AnalysisContext) -> Findings:
        for kernel in model.kernels:
            for b in kernel.barriers:
                lines = divergent_guards(b.guards, ctx, kernel)
                latent = not lines
                if not lines:  # a split only for other values than the launches pass: latent (info)
                    lines = divergent_guards(b.guards, ctx, kernel, run=False) if kernel.launch_args else []
                    if lines and not bound_names(b.guards, lines, ctx, kernel):
                        yield self._latent(kernel, b, lines, ctx)
                        continue  # (a bounds check: its own message below, with the values)
                if not lines:
                    continue
                where = lines_text(lines, b.span.path)
                in_loop = any(ctx.symbols.is_loop_condition(v) for v, line in b.guards if line in lines)
                fix = ("give every thread of the block the same trips and guard only the work" if in_loop else
                       "move the barrier out of the branch so every thread of the block executes it, and keep only "
                       "the work conditional")
                bounds, values = bound_names(b.guards, lines, ctx, kernel), []
                # no launch: a block covers the stride of blockIdx in the index (`blockIdx.x * 128 + threadIdx.x`)
                strides = list(dict.fromkeys(f"a block covers `{s}` values of the index (blockIdx's stride in it; no launch gives the "
                           f"block)" for _, s in bounds if s and not s.startswith("blockDim")
                           and ctx.launch_shape(kernel).full is None))
                if bounds:
                    # a row index's test (no span): the row where it flips must fall between blocks
                    rows = " and ".join(f"`{n}`" for n, s in bounds if not s)
                    unless = " and ".join([f"`{n}` is a multiple of `{s}`" for n, s in bounds if s] + (
                        [f"the row where the tests against {rows} flip falls between blocks"] if rows else []))
                    if any(v.free_symbols & ctx.symbols.trip_counters for v, line in b.guards if line in lines):
                        fix = ("step the loop over the block's first index (the same trips for every thread of the "
                               "block) and guard only the work with the bound")
                    msg = (f"`{b.name}` is under the bounds check on {where}{chain_text(kernel, b)}: in a block "
                           f"that straddles the bound, the threads past it skip the barrier and leave it incomplete "
                           f"(undefined behaviour, a deadlock on other GPUs) unless {unless}; {fix}")
                    today = aligned_today(b.guards, lines, ctx, kernel)
                    today = True if latent and today is None else today  # uniform for the launch's values
                    covered = today is None and covered_today(b.guards, lines, kernel)
                    values = ctx.bound_values(kernel, [g for g in b.guards if g[1] in lines])
                    values += ctx.multiple_values(kernel, [g for g in b.guards if g[1] in lines]) if today else []
                    named = ", ".join(v.split(" from ")[0].split(" at all ")[0] for v in values) or "values"
                    unseen = sorted({str(x).split("#")[0] for v, line in b.guards if line in lines
                                     for x in getattr(v, "free_symbols", ()) if x in ctx.symbols.unseen})
                    if today is not False and unseen:
                        calls = ", ".join(f"`{n}`" for n in unseen)
                        yield self.diagnostic(
                            kernel, b, msg.replace("; " + fix, f"; the bound comes from {calls}, which cudalint cannot "
                                                   f"see into, so whether it is such a multiple is not known; {fix}"),
                            severity=Severity.INFO, assumptions=[f"condition on {where} is thread-dependent"])
                        continue
                    if today is False:
                        msg = msg.replace("; " + fix, f"; with the launch's {named} a block straddles it; {fix}")
                    elif covered:
                        where_launched = ", ".join(f"{os.path.basename(x.span.path)}:{x.span.line}"
                                                   for x in ctx.sites(kernel))
                        yield self.diagnostic(
                            kernel, b, msg.replace("; " + fix, f"; the launch ({where_launched}) runs no more "
                                                   f"threads along x than the bound admits, so the grid ends at or "
                                                   f"before it and no block straddles it (a latent fault if the "
                                                   f"launch changes); {fix}"),
                            severity=Severity.INFO, assumptions=[f"condition on {where} is thread-dependent"])
                        continue
                    elif today:
                        yield self.diagnostic(
                            kernel, b, msg.replace("; " + fix, f"; with the launch's {named} no block straddles it today (a "
                                                   f"latent fault if the values change); {fix}"),
                            severity=Severity.INFO, assumptions=[f"condition on {where} is thread-dependent",
                                                                 *values])
                        continue
                elif (split := warp_split(b, lines, ctx, kernel)) is not None:
                    at = lines_text([split[0]], b.span.path)
                    msg = (f"`{b.name}` is in one branch of {at}, a condition uniform within each warp"
                           f"{chain_text(kernel, b)}: the block's warps wait at different barriers ({split[1]} in "
                           f"each branch), which the Programming Guide leaves undefined and compute-sanitizer "
                           f"synccheck reports (\"Divergent thread(s) in block\"), though `bar.sync 0` counts the "
                           f"warps that arrive and the kernel may run; give each group of warps its own named barrier "
                           f"(`bar.sync id, count`, `cuda::barrier`) or hoist the barriers out of the branch")
                    yield self.diagnostic(kernel, b, msg,
                                          assumptions=[f"condition on {at} is uniform within each warp of "
                                                       f"the launch's block"])
                    continue
                elif in_loop:
                    msg = (f"`{b.name}` is in a loop whose trips depend on the thread ({where})"
                           f"{chain_text(kernel, b)}: the block's threads run it a different number of times, so "
                           f"its barriers pair up different trips or wait for threads that have left the loop "
                           f"(deadlock or undefined behaviour); {fix}")
                else:
                    msg = (f"`{b.name}` is under a condition that depends on the thread ({where})"
                           f"{chain_text(kernel, b)}: threads that do not reach it leave the block's barrier "
                           f"incomplete (deadlock or undefined behaviour); {fix}")
                yield self.diagnostic(kernel, b, msg, severity=Severity.WARNING if bounds else None,
                                      assumptions=[f"condition on {where} is thread-dependent", *strides,
                                                   *(values if bounds else [])])
