"""CL601 pageable-memcpy-async: an async copy from or to pageable host memory is staged and blocks the host.

Hardware fact (CUDA C++ Programming Guide, "Asynchronous Concurrent Execution" and the runtime API's
"API synchronization behavior"): a cudaMemcpyAsync whose host side is pageable memory (malloc, new,
std::vector, stack arrays) is staged through a pinned driver buffer and returns only once the source has been
copied, so it cannot overlap kernels or other copies.  Measured on an H200 (GROUND_TRUTH.md, fixtures/host):
the call blocks the host about the copy's size at 5-10 GB/s (1 MiB 0.11 ms, 64 MiB 11 ms, 256 MiB 36-37 ms);
from cudaMallocHost memory it returns in 0.01-0.05 ms.  A copy whose size folds to a constant is costed (info
when below that 0.05 ms).  The provenance of the pointers comes from :mod:`cudalint.analysis.host`.
"""

from __future__ import annotations

import os
import re
from typing import Optional

from ..analysis.host import MALLOCS
from ..model import AsyncCopy, Span
from . import AnalysisContext, Findings, Rule, Severity, TranslationUnitModel

_ALLOCATED = MALLOCS | {"posix_memalign", "new", "new[]"}


def _where(span: Optional[Span]) -> str:
    return f"{os.path.basename(span.path)}:{span.line}" if span is not None else "an unknown place"


def _size(n: int) -> str:
    return next(f"{n / u:g} {name}" for u, name in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB"), (1, "B"))
                if n >= u or u == 1)


def _cost(copy: AsyncCopy) -> tuple[str, bool]:
    """The measured host cost for the message, and whether it is small (below a pinned call's 0.05 ms)."""
    measured = "H200, measured: 1 MiB 0.11 ms, 64 MiB 11 ms, 256 MiB 36-37 ms from pageable memory"
    if copy.bytes is None:
        return f"{measured}, vs 0.01-0.05 ms from cudaMallocHost memory", False
    lo, hi = copy.bytes / 1e7, copy.bytes / 5e6   # ms at 10 and 5 GB/s
    est = f"{lo:.2g}-{hi:.2g} ms" if hi >= 0.01 else "under 0.01 ms"
    return (f"{measured}, i.e. 5-10 GB/s: {est} for these {_size(copy.bytes)}, vs 0.01-0.05 ms for a "
            f"cudaMallocHost call"), hi < 0.05


def describe(copy: AsyncCopy, role: str) -> str:
    """``h_in` was allocated with malloc at main.cu:12`` and its variants."""
    ptr = copy.pointer_text.get(role, "?")
    how = copy.allocation.get(role, "")
    site = _where(copy.alloc_site.get(role))
    name = copy.alloc_name.get(role, "")
    in_helper = f" in `{copy.helper[role]}()`" if copy.helper.get(role) else ""
    if how in _ALLOCATED:
        return f"`{ptr}` was allocated with {how}{in_helper} at {site}"
    if how in ("std::vector", "std::array"):
        return f"`{ptr}` is the storage of the {how} `{name}` declared at {site}"
    if how.endswith("array"):
        return f"`{ptr}` is the {how} `{name}` declared at {site}"
    if how.endswith("variable"):
        return f"`{ptr}` is the address of the {how} `{name}` declared at {site}"
    return f"`{ptr}` is pageable memory from {how or 'an allocation'}{in_helper} at {site}"


def _root(copy: AsyncCopy, role: str) -> str:
    """The variable (or member) behind a pointer argument: ``h_buf + off`` -> ``h_buf``, ``v.data()`` -> ``v``."""
    name = copy.alloc_name.get(role, "")
    if copy.allocation.get(role, "") not in _ALLOCATED and name:
        return name
    m = re.search(r"[A-Za-z_]\w*(?:(?:\.|->)(?!data\b)[A-Za-z_]\w*)*", copy.pointer_text.get(role, ""))
    return m.group(0) if m else copy.pointer_text.get(role, "?")


class PageableMemcpyAsync(Rule):
    code = "CL601"
    name = "pageable-memcpy-async"
    default_severity = Severity.WARNING
    summary = "Async copy from or to pageable host memory: staged, blocks the host, no overlap"

    def check(self, model: TranslationUnitModel, ctx: AnalysisContext) -> Findings:
        for copy in model.copies:
            roles = [r for r in copy.host_side if copy.provenance.get(r) == "pageable"]
            if not roles:
                continue
            direction = " and ".join({"src": "from", "dst": "to"}[r] for r in sorted(roles, reverse=True))
            what = "; ".join(describe(copy, r) for r in roles)
            fixes = [f"allocate `{_root(copy, r)}` with cudaMallocHost or cudaHostAlloc (free it with cudaFreeHost), "
                     f"or cudaHostRegister the existing range" if copy.allocation.get(r, "") in _ALLOCATED else
                     f"copy through a buffer allocated with cudaMallocHost or cudaHostAlloc, or cudaHostRegister "
                     f"the range of `{_root(copy, r)}` before the copy" for r in roles]
            cost, small = _cost(copy)
            msg = (f"{copy.api} {direction} pageable host memory: {what}. The copy is staged through a driver "
                   f"buffer and the call blocks the host until it is done, so it overlaps neither kernels nor "
                   f"other copies ({cost}); " + "; ".join(dict.fromkeys(fixes)))
            assumptions = []
            for r in roles:
                how = copy.allocation.get(r, "pageable memory")
                ptr = copy.pointer_text.get(r, "?")
                helper = copy.helper.get(r, "")
                via = f" in {helper}()" if helper else ""
                verb = "allocated with" if how in _ALLOCATED else "is"
                assumptions.append(f"{ptr} {verb} {how}{via} at {_where(copy.alloc_site.get(r))}")
                assumptions.append(f"{ptr} not registered with cudaHostRegister before the copy in "
                                   f"{copy.function or 'this function'}")
            assumptions.append(f"copy kind {copy.kind}" if copy.kind
                               else "copy kind not known statically: both pointers checked")
            metrics = {"host_pointer": copy.pointer_text.get(roles[0], "?"),
                       "allocation": copy.allocation.get(roles[0], "").replace(" ", "-"),
                       **({"bytes": copy.bytes} if copy.bytes is not None else {})}
            yield self.diagnostic(None, copy, msg, severity=Severity.INFO if small else None, metrics=metrics,
                                  assumptions=assumptions)
