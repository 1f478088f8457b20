"""CL102 misaligned-global-access: unit-stride global access whose base the code shows is not 32-byte aligned.

Hardware fact: ``cudaMalloc`` returns 256-byte-aligned bases and sectors are 32 bytes (CUDA C++
Programming Guide, "Device Memory Accesses"), so a warp reading 128 contiguous bytes that start off a
32-byte boundary touches 5 sectors instead of 4.  Measured on an H200 (GROUND_TRUTH.md): ``a[i+1]``
5 sectors/request, 80 % efficiency; seed 001's readOffset with offset 11: the same.
Only a misalignment the code shows is reported: a constant offset that is not a multiple of 32 bytes, or
a block index / loop counter times a row that is not (their values taken equally likely: rows of 1200
bytes start odd blocks 16 bytes into a sector, 4.5 sectors per request on average).  A run-time
parameter may well be a multiple of 32 bytes: taken as one (listed in ``assumptions``), never a finding.
A pointer that the code shows is not an allocation's start (the first thread reads before it:
``*(p + tid - 1)`` with no guard) has an unknown alignment: no finding.
Severity: info.
"""

from __future__ import annotations

import sympy

from ..analysis.symbols import BDIM, BID, TID
from ..analysis.warp import aligned_residue, mean_sectors
from ..model import Access, AddressSpace
from . import AnalysisContext, Findings, Rule, Severity, TranslationUnitModel, fmt, metric, pictured
from .cl101_uncoalesced_global_access import sector_metrics, share_of


def reaches_below_base(acc: Access) -> bool:
    """Whether the first thread of the first block, in the first trip of each loop, reads before the pointer it
    indexes (``*(g_s + i + threadIdx.x - 1)`` from ``i = 0``) with no guard keeping it out: the pointer then points
    into its allocation, not at its start (cuda-samples' eigenvalues passes ``g_b_raw + 1``; measured on an H100,
    benchmarks/fidelity: 1.0 of the ideal sectors where a 32-byte-aligned base would give 1.25), so the
    allocation's alignment says nothing of the pointer's.  A stencil's ``if (i > 0) .. in[i - 1]`` keeps thread 0
    out: not such a read."""
    if acc.offset is None:
        return False
    zero = {s: 0 for s in acc.offset.free_symbols if s in TID or s in BID or str(s).startswith("k@")}
    first = acc.offset.subs(zero)
    if not (first.is_number and first < 0):
        return False
    return not any(g.subs(zero) is sympy.false for g in acc.guards if isinstance(g, sympy.Basic))


def sampled_split(acc: Access, pic) -> bool:
    """Whether a run-time value the lane picture took as a large sample divides the lanes' index into rows
    (``g / depth``, ``g % depth``): which lanes share a row, and so the pattern itself, then rests on the sample. A
    sample that only scales a term (``imageW * threadIdx.y``, a row pitch) leaves the pattern's shape alone."""
    sampled = {s for s in pic.samples if s not in BDIM}
    return bool(sampled) and any(a.free_symbols & sampled and a.free_symbols & set(TID)
                                 for a in sympy.expand(acc.offset).atoms(sympy.floor, sympy.Mod))


class MisalignedGlobalAccess(Rule):
    code = "CL102"
    name = "misaligned-global-access"
    default_severity = Severity.INFO
    summary = "Unit-stride global access whose offset is not a multiple of 32 bytes"

    def check(self, model: TranslationUnitModel, ctx: AnalysisContext) -> Findings:
        for kernel, acc, pic in pictured(model, ctx, AddressSpace.GLOBAL):
            cost = ctx.global_cost(kernel, acc)
            if cost.aligned_sectors_per_request > cost.ideal_sectors_per_request:
                continue  # CL101's finding
            if pic.proven_residues == [aligned_residue(pic, acc.size)]:
                continue  # only a run-time value could misalign it: not shown by the code
            if reaches_below_base(acc):
                continue  # the pointer is not an allocation's start: its alignment is unknown
            if sampled_split(acc, pic):
                # the lanes' pattern rests on a run-time value taken as a large sample (CloverLeaf's halo update,
                # `row = g / depth`, `column = g % depth`: a reversed unit stride for depth >= 32, one row a lane
                # for the depth of 1 or 2 its runs pass): no misalignment is shown
                continue
            mean, worst_r = mean_sectors(pic, acc.size, pic.proven_residues)
            if mean <= cost.ideal_sectors_per_request:
                continue
            worst = max(mean_sectors(t, acc.size, t.proven_residues)[0] for t in pic.trips if any(t.warps)) \
                if pic.trips else mean_sectors(pic, acc.size, [worst_r])[0]
            eff, metrics = sector_metrics(cost, mean)
            if pic.trips:
                metrics["worst_sectors_per_request"] = metric(worst)
                why = "the loop's trips shift its offset off a 32-byte sector boundary in some trips"
                fix = ("keep each trip's offset a multiple of 32 bytes, or load the aligned block and shift in "
                       "registers/shared memory")
                how = f"{fmt(mean)} sectors per request on average over the trips ({fmt(worst)} in the worst)"
            elif len(pic.proven_residues) == 1:
                why = f"its offset is {worst_r} bytes past a 32-byte sector boundary"
                fix = "shift the index to a multiple of 32 bytes or pad the array's start"
                how = f"{fmt(mean)} sectors per request"
            else:
                metrics["worst_sectors_per_request"] = metric(worst)
                shown = ", ".join(str(r) for r in pic.proven_residues)
                why = (f"the block index or loop counter in its offset starts warps {shown} bytes past a "
                       "32-byte sector boundary")
                fix = "pad each row (or block's chunk) to a multiple of 32 bytes"
                how = f"{fmt(mean)} sectors per request on average ({fmt(worst)} in the worst case)"
            if acc.offset is not None and pic.stride == -acc.size:
                why = "lanes walk the array backwards (a reversed unit stride), so " + why
                ref = aligned_residue(pic, acc.size)
                if len(pic.proven_residues) == 1 and not pic.trips:
                    why = (f"lanes walk the array backwards (a reversed unit stride) from byte {worst_r} of a "
                           f"32-byte sector instead of its last element (byte {ref})")
                    fix = (f"subtract {(worst_r - ref) % 32 // acc.size} from the index so that lane 0 reads "
                           f"the last element of a sector (`n - 1 - tid`, not `n - tid`)")
            msg = (f"misaligned global {acc.kind} of `{acc.array.name}`: {why}; a warp touches {how} instead of "
                   f"{fmt(cost.ideal_sectors_per_request)} ({eff * 100:.0f}% of {share_of(acc)}); {fix}")
            assumptions = ctx.assumptions(kernel, pic)
            if pic.residues != pic.proven_residues:
                assumptions.append("run-time parts of the offset (kernel parameters) taken as multiples of 32 bytes")
            yield self.diagnostic(kernel, acc, msg, metrics=metrics, assumptions=assumptions)
