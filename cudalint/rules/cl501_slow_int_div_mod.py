"""CL501 slow-int-div-mod: integer ``/`` or ``%`` by a power of two that does not compile to shift/mask.

Hardware fact: integer division and modulo are expensive; by a power of two n, ``i / n`` is ``i >> log2(n)``
and ``i % n`` is ``i & (n - 1)`` (CUDA C++ Programming Guide, "Arithmetic Instructions"), but only when the
compiler sees a constant power of two and an unsigned operand.  Measured on an H200 (GROUND_TRUTH.md),
instructions executed relative to ``v >> 5`` / ``v & 31`` (175 M): signed ``v / 32`` 206 M (1.18x, 1.7x the
time), ``v / warpSize`` 523 M (2.99x, 3.1x the time; warpSize is a run-time register), a run-time power of
two 653 M (3.73x, 4.1x the time).  Unsigned by a constant power of two is free: no finding.
``v % (1u << k)`` is not reported: nvcc sees the shift and emits a mask itself (measured on the H200,
fixtures/arith/div_mod.cu kernel byShiftedParameter: 2.62 M instructions vs 2.36 M for shift/mask).
Severity: warning for warpSize and run-time powers of two inside a loop; info when executed once per thread
(index arithmetic), in one block of the grid (:func:`~cudalint.rules.one_block`), for signed operands.
A signed division (or any of these) whose dividend is block-uniform (``n / TILE``, ``blockDim.x / warpSize``) is
computed once and hoisted out of loops: not reported; one inside a loop whose operands the loop does not change
(``tid / warpSize`` in a loop over ``k``) runs once per thread before it (the PTX has one ``div.s32`` ahead of the
loop): info; nor is a power-of-two loop variable of a loop nvcc unrolls
completely (constant start and bound, at most 16 trips: :func:`unrolled`).
"""

from __future__ import annotations

import re

import sympy

from ..analysis.interpreter import constant_trips
from ..analysis.symbols import WARP_SIZE
from . import AnalysisContext, Findings, Rule, Severity, TranslationUnitModel, one_block

RATIO_SIGNED = 1.18     # 206 M / 175 M instructions (GROUND_TRUTH.md)
RATIO_WARPSIZE = 2.99   # 523 M / 175 M
RATIO_RUNTIME = 3.73    # 653 M / 175 M
#: what a ratio counts: a measured kernel's instructions against its shift-and-mask twin's (its loads, stores and
#: index arithmetic dilute it: the division's own sequence is several times a shift's)
WHOLE = ("x the instructions of a shift and mask in a kernel that does only this; a smaller share of a kernel with "
         "other work")


#: trips of a loop with constant bounds that nvcc -O3 unrolls completely (checked at 9: srad's 2..512 doubling)
UNROLLED_TRIPS = 16


def unrolled(divisor, ctx: AnalysisContext):
    """The values of a power-of-two loop variable whose loop has a constant start and a constant bound and at most
    :data:`UNROLLED_TRIPS` trips (``for (i = 2; i <= 512; i *= 2) .. % i``): nvcc unrolls such a loop completely,
    so each trip divides by a constant (no ``rem`` in the PTX; fixtures/arith/unrolled_loop.cu), unless the line above
the loop is ``#pragma unroll 1``.  Else None."""
    syms = getattr(divisor, "free_symbols", set())
    v = next(iter(syms)) if len(syms) == 1 else None
    if v not in ctx.symbols.pow2_loops:
        return None
    start, factor, cond = ctx.symbols.pow2_loops[v]
    span = ctx.symbols.loop_spans.get(v)
    above = ctx.lines[span.line - 2] if span and span.path == ctx.model.path and 2 <= span.line <= len(ctx.lines) + 1 \
        else ""
    if re.match(r"\s*#\s*pragma\s+unroll\s*\(?\s*1\s*\)?\s*$", above):
        return None  # `#pragma unroll 1` keeps it a loop (fixtures/arith/div_mod.cu byDoublingLoopVar)
    counter = next(iter(cond.free_symbols)) if len(cond.free_symbols) == 1 else None
    if counter is not None and counter != v and (n := constant_trips(counter, cond)):
        # a doubling companion of a loop counted by another variable (cuSZ's Huffman shuffle:
        # `for (sf = 8, stride = 1; sf > 0; sf--, stride *= 2)`): its values on the loop's constant trips
        trips = [start * 2 ** i if factor > 0 else start // 2 ** i for i in range(n)]
        return trips if all(trips) else None
    values, x = [], start
    while cond.free_symbols <= {v} and len(values) <= UNROLLED_TRIPS and x >= 1:
        holds = cond.xreplace({v: x})
        if holds is not sympy.true:
            return values if holds is sympy.false and values else None
        values.append(x)
        x = x * 2 if factor > 0 else x // 2
    if values and x == 0 and len(values) <= UNROLLED_TRIPS and cond.xreplace({v: 0}) is sympy.false:
        return values  # halved down to 0, where the loop ends (`while (half >= 1) { .. half >>= 1; }`)
    return None


class SlowIntDivMod(Rule):
    code = "CL501"
    name = "slow-int-div-mod"
    default_severity = Severity.WARNING
    summary = "/ or % by warpSize, a run-time power of two, or a signed operand by a constant power of two"

    def check(self, model: TranslationUnitModel, ctx: AnalysisContext) -> Findings:
        for kernel in model.kernels:
            for d in kernel.divisions:
                if not d.dividend_varying:
                    continue  # computed once per thread from block-uniform values and hoisted
                op = "division" if d.op == "/" else "modulo"
                if d.divisor == WARP_SIZE:
                    sev, ratio = Severity.WARNING, RATIO_WARPSIZE
                    msg = (f"integer {op} by `warpSize`: warpSize is read from a register at run time, so "
                           f"this compiles to a full integer {op} (~{ratio}" + WHOLE + "); "
                           f"use a constant (`constexpr unsigned kWarpSize = 32;`) and "
                           f"`{'>> 5' if d.op == '/' else '& 31'}` on an unsigned value")
                elif d.pow2 and not getattr(d.divisor, "is_Integer", False):
                    if unrolled(d.divisor, ctx) is not None:
                        continue  # a constant on each trip of the unrolled loop
                    sev, ratio = Severity.WARNING, RATIO_RUNTIME
                    msg = (f"integer {op} by `{d.divisor_text}`, a power of two known only at run time: the "
                           f"compiler emits a full integer {op} (~{ratio}" + WHOLE + "); keep its "
                           f"base-2 logarithm (a variable `log2_div` with `{d.divisor_text} == 1 << log2_div`) and "
                           f"use {'`v >> log2_div`' if d.op == '/' else f'`v & ({d.divisor_text} - 1)`'} on an "
                           "unsigned value")
                elif d.pow2 and d.signed and int(d.divisor) > 1:
                    sev, ratio = Severity.INFO, RATIO_SIGNED
                    msg = (f"signed integer {op} by {int(d.divisor)}: rounding toward zero needs a sign "
                           f"fix-up around the shift (~{ratio}" + WHOLE + "); make the operand "
                           f"unsigned if it is never negative")
                else:
                    continue
                share = one_block(kernel, d.guards, ctx) or ("nothing it reads changes in the loop around it, so "
                                                             "nvcc computes it once per thread, before the loop"
                                                             if d.hoisted else None)
                if share or not d.in_loop:
                    sev, msg = Severity.INFO, msg + f"; {share or 'executed once per thread here, outside any loop'}"
                yield self.diagnostic(kernel, d, msg, severity=sev, metrics={"instructions_ratio": ratio})
