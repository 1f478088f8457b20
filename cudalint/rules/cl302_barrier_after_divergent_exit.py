"""CL302 barrier-after-divergent-exit: a thread-dependent return/break/continue/goto lets some threads
skip a later barrier.

A barrier waits only for the threads that have not exited (PTX ISA, "Parallel Synchronization and
Communication Instructions: barrier": it "causes executing thread to wait for non-exited threads of all other
warps"), so on NVIDIA GPUs a ``return`` before ``__syncthreads()`` completes the barrier with the threads that
are left, and compute-sanitizer's synccheck does not report it (``fixtures/sync/taken_exit.cu``, measured).  The
CUDA C++ Programming Guide ("Synchronization Functions") still requires every thread of the block to reach the
barrier, and ports to other targets (HIP on AMD GPUs, SYCL) wait for the missing threads.  Severity: info when
every exit leaves its threads out of every later barrier (a ``return``, a ``break`` of whole warps with no
barrier after its loop); warning when one keeps them alive to wait at a barrier again or for the rest of their
warp (a ``continue``, a ``goto``, a ``break`` followed by a barrier or taken by some lanes of a warp).
"""

from __future__ import annotations

from ..analysis import uniformity
from ..model import Barrier, Exit, ExitKind
from . import AnalysisContext, Findings, Rule, Severity, TranslationUnitModel, span_text
from .cl301_barrier_in_divergent_branch import aligned_today, bound_names, chain_text, covered_today, divergent_guards


def skips(e: Exit, b: Barrier) -> bool:
    """Whether exit ``e``, taken by some threads, makes them miss barrier ``b``: an exit before the barrier,
    or one after it in a loop that also holds the barrier (the barrier's later trips are skipped)."""
    leaves = bool(e.loops) and e.loops[-1] in b.loops  # a break / continue: the barrier is in the loop it leaves
    if e.order < b.order:
        return e.kind in (ExitKind.RETURN, ExitKind.GOTO) or leaves
    return bool(set(e.loops) & set(b.loops)) if e.kind == ExitKind.RETURN else e.kind == ExitKind.BREAK and leaves


def waits_elsewhere(e: Exit, barriers, ctx: AnalysisContext, kernel) -> bool:
    """Whether the threads that take exit ``e`` stay alive and may wait at a barrier or for the threads that do
    not take it: a ``continue`` or ``goto``; a ``break`` with a barrier after its loop or in a loop around it, or
    taken by some lanes of a warp only (they wait at the warp's reconvergence point while the others wait at the
    barrier: a per-lane loop bound deadlocks on an H200, ``fixtures/sync/divergent_barrier.cu``).  A ``return``,
    and a ``break`` of whole warps past which they meet no barrier, leave the barriers for good, like exited
    threads (``fixtures/sync/taken_exit.cu``: synccheck silent for the returns, reporting ``breakThenSync``)."""
    if e.kind == ExitKind.RETURN:
        return False
    if e.kind != ExitKind.BREAK or not e.loops:
        return True
    block = ctx.launch_shape(kernel).full
    if not all(uniformity.warp_uniform(v, block, ctx.symbols) for v, _ in e.guards if v is not None):
        return True
    left, outer = e.loops[-1], set(e.loops[:-1])
    return any(left not in b.loops and (b.order > e.order or outer & set(b.loops)) for b in barriers)


def never_taken(e: Exit, lines: list[int], ctx: AnalysisContext, kernel) -> bool:
    """Whether ``e`` is under bounds checks of a global thread index that no block straddles for the launches
    (:func:`~cudalint.rules.cl301_barrier_in_divergent_branch.aligned_today`: the bound a multiple of the block for
    the values they pass; :func:`~cudalint.rules.cl301_barrier_in_divergent_branch.covered_today`: a grid of
    ``n / block`` blocks, rounded down, for ``n`` items): a block's threads all take it or none do, so no barrier is
    left short today.  A ``return`` so guarded is no finding (Professional CUDA C Programming's n-body,
    ``<<<N / block, block>>>`` with ``if (tid >= N) return``: census ``ba``); a ``continue``, ``break`` or ``goto``
    is a latent fault, info, as CL301 says of a barrier under such a check.  ``lines``: its divergent guards'."""
    return bool(lines and bound_names(e.guards, lines, ctx, kernel)) and (
        aligned_today(e.guards, lines, ctx, kernel) is True or covered_today(e.guards, lines, kernel))


class BarrierAfterDivergentExit(Rule):
    code = "CL302"
    name = "barrier-after-divergent-exit"
    default_severity = Severity.WARNING
    summary = "Thread-dependent return/break/continue before a barrier"

    def check(self, model: TranslationUnitModel, ctx: AnalysisContext) -> Findings:
        for kernel in model.kernels:
            where = {id(e): lines for e in kernel.exits if (lines := divergent_guards(e.guards, ctx, kernel))}
            exits = [e for e in kernel.exits if id(e) in where]
            idle = {id(e) for e in exits if never_taken(e, where[id(e)], ctx, kernel)}
            exits = [e for e in exits if not (id(e) in idle and e.kind == ExitKind.RETURN)]
            for b in kernel.barriers:
                if divergent_guards(b.guards, ctx, kernel):
                    continue  # CL301's finding
                hits = [e for e in exits if skips(e, b)]
                if not hits:
                    continue
                e = hits[0]
                stay = [x for x in hits if waits_elsewhere(x, kernel.barriers, ctx, kernel)]
                exited = not stay
                if exited:
                    if all(x.kind == ExitKind.RETURN for x in hits):
                        what = f"lets some threads exit before `{b.name}`{chain_text(kernel, b)}; NVIDIA GPUs"
                    else:
                        what = (f"lets some threads skip `{b.name}`{chain_text(kernel, b)} and meet no barrier "
                                f"after it; NVIDIA GPUs wait for them only until they exit, and")
                    msg = (f"the thread-dependent `{e.kind.value}` on {span_text(e.span, b.span.path)} {what} "
                           f"complete a barrier with the threads that have not exited, but the CUDA model requires "
                           f"every thread of the block to reach it and HIP/SYCL ports hang; keep every thread alive "
                           f"to the barrier (guard the work with `if (i < n) {{ ... }}` instead of `{e.kind.value}`)")
                else:
                    e = stay[0]
                    msg = (f"the thread-dependent `{e.kind.value}` on {span_text(e.span, b.span.path)} keeps "
                           f"some threads alive but short of `{b.name}`{chain_text(kernel, b)}: the block's threads "
                           f"wait at different barriers (undefined behaviour, a hang or a wrong result); keep every "
                           f"thread on the path to the barrier (guard the work with `if (...) {{ ... }}` "
                           f"instead of `{e.kind.value}`)")
                if all(x.kind == ExitKind.RETURN and bound_names(x.guards, where[id(x)], ctx, kernel) for x in hits):
                    msg += ("; the returns are bounds checks of a global thread index, taken only in a block that "
                            "straddles the bound")
                latent = all(id(x) in idle for x in hits)
                if latent:
                    msg += ("; with the launch's grid and bound no block straddles the bound, so no thread takes it "
                            "today (a latent fault if the launch changes)")
                yield self.diagnostic(
                    kernel, b, msg, severity=Severity.INFO if exited or latent else None,
                    assumptions=[f"`{x.kind.value}` at {span_text(x.span, b.span.path)}" for x in hits])
