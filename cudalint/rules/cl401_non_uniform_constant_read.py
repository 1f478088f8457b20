"""CL401 non-uniform-constant-read: a ``__constant__`` read whose index differs across a warp's lanes.

Hardware fact: the constant cache serves one address per request; a warp reading n distinct addresses is
split into n requests (CUDA C++ Programming Guide, "Constant Memory" of "Device Memory Accesses").
Measured on an H200 (GROUND_TRUTH.md): 32 distinct addresses per warp -> 268.8 M constant-cache requests,
32.0x the warp-uniform case, 2.78 ms vs 40.7 us (68x) for a block-uniform index.
Severity: warning; info when the read is a small share of the kernel's memory work (:func:`one_shot` over every
memory space: a table staged from constant into shared memory once per thread, then read in the rounds that
run 16 or more times as often).
"""

from __future__ import annotations

from ..analysis.warp import distinct_addresses
from ..model import AddressSpace
from . import AnalysisContext, Findings, Rule, Severity, TranslationUnitModel, one_shot, outside, pictured


class NonUniformConstantRead(Rule):
    code = "CL401"
    name = "non-uniform-constant-read"
    default_severity = Severity.WARNING
    summary = "__constant__ read whose index is not warp-uniform"

    def check(self, model: TranslationUnitModel, ctx: AnalysisContext) -> Findings:
        for kernel, acc, pic in pictured(model, ctx, AddressSpace.CONSTANT, reads=True):
            n = distinct_addresses(pic, acc.size)
            if n <= 1:
                continue
            msg = (f"`__constant__` read of `{acc.array.name}` with a per-lane index: a warp reads {n} "
                   f"distinct addresses, so the constant cache serves it as {n} serialized requests "
                   f"instead of one broadcast; index it with a warp-uniform value, or move the table to "
                   f"global memory (`const __restrict__` / `__ldg`) or shared memory")
            bulk = one_shot(kernel, acc, ctx, any_space=True)
            if bulk is not None:
                msg += f"; {outside(acc, bulk, 'memory', ctx)}"
            yield self.diagnostic(kernel, acc, msg, metrics={"distinct_addresses_per_warp": n},
                                  severity=Severity.INFO if bulk is not None else None,
                                  assumptions=ctx.assumptions(kernel, pic))
