"""CL102 misaligned-global-access: unit-stride global access whose base is not 32-byte aligned.

Hardware fact: ``cudaMalloc`` returns 256-byte-aligned bases and sectors are 32 bytes (CUDA C++
Programming Guide, "Device Memory Accesses"), so a warp reading 128 contiguous bytes that start off a
32-byte boundary touches 5 sectors instead of 4.  Measured on an H200 (GROUND_TRUTH.md): ``a[i+1]``
5 sectors/request, 80 % efficiency; seed 001's readOffset with offset 11: the same.
Severity: info.
"""

from __future__ import annotations

from typing import Iterator

from ..analysis.context import AnalysisContext
from ..diagnostics import Diagnostic, Severity
from ..model import AddressSpace, TranslationUnitModel
from . import Rule, fmt, metric


class MisalignedGlobalAccess(Rule):
    code = "CL102"
    name = "misaligned-global-access"
    default_severity = Severity.INFO
    summary = "Unit-stride global access whose offset is not a multiple of 32 bytes"

    def check(self, model: TranslationUnitModel, ctx: AnalysisContext) -> Iterator[Diagnostic]:
        for kernel in model.kernels:
            for acc in kernel.accesses:
                if acc.array.space != AddressSpace.GLOBAL:
                    continue
                pic = ctx.picture(kernel, acc)
                if pic is None:
                    continue
                cost = ctx.global_cost(kernel, acc)
                if cost.aligned_sectors_per_request > cost.ideal_sectors_per_request:
                    continue  # CL101's finding
                if cost.sectors_per_request <= cost.ideal_sectors_per_request:
                    continue
                metrics = {
                    "sectors_per_request": metric(cost.sectors_per_request),
                    "ideal_sectors_per_request": metric(cost.ideal_sectors_per_request),
                    "efficiency": round(cost.efficiency, 4),
                }
                runtime = sorted(str(s) for s in acc.offset.free_symbols if s in ctx.symbols.params)
                if pic.exact_residue:
                    why = f"its offset is {cost.worst_residue} bytes past a 32-byte sector boundary"
                    fix = "shift the index to a multiple of 32 bytes or pad the array's start"
                else:
                    names = ", ".join(f"`{n}`" for n in runtime)
                    why = (f"the run-time offset {names} need not be a multiple of 32 bytes" if names
                           else "a run-time part of the offset need not be a multiple of 32 bytes")
                    fix = ("keep offsets a multiple of 32 bytes (e.g. round to 8 floats) or load the aligned "
                           "block and shift in registers/shared memory")
                msg = (f"misaligned global {acc.kind} of `{acc.array.name}`: {why}; a warp touches up to "
                       f"{fmt(cost.sectors_per_request)} sectors per request instead of "
                       f"{fmt(cost.ideal_sectors_per_request)} ({cost.efficiency * 100:.0f}% of fetched bytes "
                       f"used); {fix}")
                assumptions = ctx.assumptions(kernel, pic)
                if not pic.exact_residue:
                    assumptions.append("worst case over the run-time offset's possible residues modulo 32 "
                                       f"bytes ({len(pic.residues)} values)")
                yield self.diagnostic(kernel, acc, msg, metrics=metrics, assumptions=assumptions)
