"""CL302 barrier-after-divergent-exit: a thread-dependent return/break/continue/goto lets some threads
skip a later barrier.

NVIDIA hardware today counts exited threads as arrived at ``__syncthreads()`` (CUDA C++ Programming Guide,
"Synchronization Functions", and compute-sanitizer's synccheck does not flag it), but the code is undefined
by the CUDA model and hangs on other targets (HIP on AMD GPUs, SYCL ports) and under independent
thread scheduling when the exited threads still belong to a live warp.  Severity: warning; info when every
exit is a ``return`` under a bounds check of a global thread index (``if (i >= n) return;``), taken only in a
block that straddles the bound (a ``continue`` or ``break`` leaves the threads alive, short of the barrier).
"""

from __future__ import annotations

from ..model import Barrier, Exit, ExitKind
from . import AnalysisContext, Findings, Rule, Severity, TranslationUnitModel
from .cl301_barrier_in_divergent_branch import bound_names, chain_text, divergent_guards


def skips(e: Exit, b: Barrier) -> bool:
    """Whether exit ``e``, taken by some threads, makes them miss barrier ``b``: an exit before the barrier,
    or one after it in a loop that also holds the barrier (the barrier's later trips are skipped)."""
    leaves = bool(e.loops) and e.loops[-1] in b.loops  # a break / continue: the barrier is in the loop it leaves
    if e.order < b.order:
        return e.kind in (ExitKind.RETURN, ExitKind.GOTO) or leaves
    return bool(set(e.loops) & set(b.loops)) if e.kind == ExitKind.RETURN else e.kind == ExitKind.BREAK and leaves


class BarrierAfterDivergentExit(Rule):
    code = "CL302"
    name = "barrier-after-divergent-exit"
    default_severity = Severity.WARNING
    summary = "Thread-dependent return/break/continue before a barrier"

    def check(self, model: TranslationUnitModel, ctx: AnalysisContext) -> Findings:
        for kernel in model.kernels:
            exits = [e for e in kernel.exits if divergent_guards(e.guards, ctx, kernel)]
            for b in kernel.barriers:
                if divergent_guards(b.guards, ctx, kernel):
                    continue  # CL301's finding
                hits = [e for e in exits if skips(e, b)]
                if not hits:
                    continue
                e = hits[0]
                msg = (f"the thread-dependent `{e.kind.value}` on line {e.span.line} lets some threads skip "
                       f"`{b.name}`{chain_text(kernel, b)}; NVIDIA hardware tolerates exited threads today, "
                       f"but the CUDA model leaves it undefined and HIP/SYCL ports hang; keep every thread "
                       f"alive to the barrier (guard the work with `if (i < n) {{ ... }}` instead of "
                       f"`{e.kind.value}`)")
                bounds = all(x.kind == ExitKind.RETURN and bound_names(
                    x.guards, divergent_guards(x.guards, ctx, kernel), ctx, kernel) for x in hits)
                if bounds:
                    msg += ("; the returns are bounds checks of a global thread index, taken only in a block that "
                            "straddles the bound")
                yield self.diagnostic(kernel, b, msg, severity=Severity.INFO if bounds else None,
                                      assumptions=[f"`{x.kind.value}` at line {x.span.line}" for x in hits])
