"""CL401 non-uniform-constant-read: a ``__constant__`` read whose index differs across a warp's lanes.

Hardware fact: the constant cache serves one address per request; a warp reading n distinct addresses is
split into n requests (CUDA C++ Programming Guide, "Constant Memory" of "Device Memory Accesses").
Measured on an H200 (GROUND_TRUTH.md): 32 distinct addresses per warp -> 268.8 M constant-cache requests,
32.0x the warp-uniform case, 2.78 ms vs 40.7 us (68x) for a block-uniform index.  The count is of distinct byte
addresses whatever the element's width: 32 lanes reading 32 consecutive shorts (16 words) or bytes (8 words) take 32
requests (fixtures/constant/subword_reads.cu, measured).
Severity: warning; info when the read is a small share of the kernel's memory work (:func:`small_share`: a table
staged from constant into shared memory once per thread, then read in the rounds).
"""

from __future__ import annotations

from typing import Optional

import sympy

from ..analysis.warp import distinct_addresses
from ..model import Access, AddressSpace, Kernel
from . import (AnalysisContext, Findings, Rule, Severity, TranslationUnitModel, fmt, pictured, same_site, site_trips,
               thread_trips)


#: how many times a per-lane constant read's serialized requests the kernel's other accesses must be made, per thread,
#: for the read to be a small share.  Measured on the H200 (benchmarks/device/staging_sweep.cu: a 256-entry table staged
#: into shared memory once per thread from constant memory, 32 serialized requests a warp, or from a global copy, then
#: read in R dependent rounds): 2.55x the time at R = 4 (other accesses 0.19 times the requests), 1.91x at R = 16
#: (0.56), 1.02x at R = 64 (2.1), 1.00x at R = 256 and 1024 (8.1, 32); 4 is twice the ratio where the cost is 2 %
STAGING_SHARE = 4


def small_share(kernel: Kernel, acc: Access, n: int, ctx: AnalysisContext) -> Optional[str]:
    """Why a read that costs ``n`` requests per warp each time is a small share of the kernel's memory work, or None:
    the kernel's other accesses (any memory space, each at least one request or wavefront) are made at least
    :data:`STAGING_SHARE` times as often per thread as this read's ``n`` requests, counting loop trips as
    :func:`thread_trips` does, or they repeat in loops of a run-time count this read is not in (a table staged into
    shared memory once, then read in the rounds)."""
    mine = site_trips(kernel, acc, ctx)
    others = [b for b in kernel.accesses if not same_site(b, acc)]
    if mine == 0 or not others:
        return None
    total = sympy.Add(*(thread_trips(kernel, b, ctx) for b in others))
    r = sympy.cancel(total / (n * mine))
    mine_loops = max(b.run_time_loops for b in kernel.accesses if same_site(b, acc))
    deeper = max((b.run_time_loops for b in others), default=0) > mine_loops
    if r.is_Number and r < STAGING_SHARE or not r.is_Number and not deeper:
        return None
    where = ("made once per thread" if not any(b.loop_depth for b in kernel.accesses if same_site(b, acc)) else
             "made outside the loops that carry the kernel")
    many = (f"{fmt(r)} times its {n} requests" if r.is_Number else "in loops of a run-time trip count it is not in")
    return (f"{where}; the kernel's other memory accesses are made {many}, so it is a small share of the "
            f"kernel's memory work")


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
            share = small_share(kernel, acc, n, ctx)
            if share is not None:
                msg += f"; {share}"
            yield self.diagnostic(kernel, acc, msg, metrics={"distinct_addresses_per_warp": n},
                                  severity=Severity.INFO if share is not None else None,
                                  assumptions=ctx.assumptions(kernel, pic))
