"""CL101 uncoalesced-global-access: a warp's global load/store touches more 32-byte sectors than needed.

Hardware fact: a warp-wide global access is served in 32-byte sectors (CUDA C++ Programming Guide,
"Device Memory Accesses"); measured on an H200 (GROUND_TRUTH.md): ``a[2*i]`` 8 sectors/request at 50 %,
``a[32*i]`` 32 sectors/request at 12.5 % and 6.0x the time, ``a[i].x`` of ``struct {float x, y}`` 8 sectors.
Severity: warning, info when at least 50 % of the fetched bytes are used.
"""

from __future__ import annotations

from ..analysis.warp import GlobalCost
from ..model import AddressSpace
from . import AnalysisContext, Findings, Rule, Severity, TranslationUnitModel, fmt, metric, pictured, spell


def sector_metrics(cost: GlobalCost, sectors: float) -> tuple[float, dict]:
    """The share of fetched bytes used when a warp touches ``sectors`` per request, and CL101's and CL102's metrics."""
    eff = min(1.0, cost.efficiency * cost.sectors_per_request / sectors)
    return eff, {"sectors_per_request": metric(sectors),
                 "ideal_sectors_per_request": metric(cost.ideal_sectors_per_request), "efficiency": round(eff, 4)}


class UncoalescedGlobalAccess(Rule):
    code = "CL101"
    name = "uncoalesced-global-access"
    default_severity = Severity.WARNING
    summary = "Global access whose lanes touch more sectors than a unit-stride access would"

    def check(self, model: TranslationUnitModel, ctx: AnalysisContext) -> Findings:
        for kernel, acc, pic in pictured(model, ctx, AddressSpace.GLOBAL):
            cost = ctx.global_cost(kernel, acc)
            if cost.aligned_sectors_per_request <= cost.ideal_sectors_per_request:
                continue
            sectors = cost.sectors_per_request if pic.exact_residue else cost.aligned_sectors_per_request
            eff, metrics = sector_metrics(cost, sectors)
            stride = pic.stride
            if cost.worst_trip_sectors is not None and cost.worst_trip_sectors != sectors:
                metrics["worst_sectors_per_request"] = metric(cost.worst_trip_sectors)
            if stride is not None:
                metrics["stride_bytes"] = stride if isinstance(stride, int) else spell(stride)
            used = f"{eff * 100:.1f}".rstrip("0").rstrip(".")
            what = f"uncoalesced global {acc.kind} of `{acc.array.name}`"
            if acc.split > 1:
                why = (f"array of structs: each lane moves its {acc.elem_size}-byte struct as {acc.split} "
                       f"separate {acc.size}-byte accesses, each {stride} bytes apart across lanes")
                fix = ("use a structure of arrays, or align the struct to its size "
                       "(`__align__(" + str(acc.elem_size) + ")`) so it moves in one vector access")
            elif acc.elem_size > acc.size and stride == acc.elem_size:  # an array of structs
                why = (f"array of structs: each lane {'writes' if acc.kind == 'store' else 'reads'} {acc.size} of "
                       f"every {acc.elem_size} bytes (field at byte {acc.field_offset})")
                fix = "store the field in its own array (structure of arrays)"
            elif pic.masked and stride == acc.size:
                why = "the condition leaves lanes of each warp out, so the active ones are spread over it"
                fix = "give the work to consecutive lanes (e.g. index by `tid / 2` in half as many threads)"
            elif stride is not None:
                why = f"lanes are {spell(stride)} bytes apart"
                fix = ("make consecutive threads access consecutive elements (transpose through shared "
                       "memory, or change the data layout)")
            else:
                why = "lanes are scattered"
                fix = "make consecutive threads access consecutive elements"
            trips = (f" on average over the loop's trips ({fmt(cost.worst_trip_sectors)} in the costliest)"
                     if "worst_sectors_per_request" in metrics else "")
            msg = (f"{what}: {why}; a warp touches {fmt(sectors)} sectors per request{trips} instead of "
                   f"{fmt(cost.ideal_sectors_per_request)} ({used}% of fetched bytes used); {fix}")
            yield self.diagnostic(kernel, acc, msg, severity=Severity.INFO if eff >= 0.5 else Severity.WARNING,
                                  metrics=metrics, assumptions=ctx.assumptions(kernel, pic))
