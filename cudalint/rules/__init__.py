"""Rule plugins.

A rule is a class with ``code``, ``name``, ``default_severity`` and ``check(model, context)`` yielding
:class:`~cudalint.diagnostics.Diagnostic`.  Built-in rules register through the ``cudalint.rules``
entry-point group exactly as third-party rules do; :data:`BUILTIN` is the fallback used when the package
metadata is not installed (running from a source tree).
"""

from __future__ import annotations

import re
from importlib import import_module
from importlib.metadata import entry_points
from typing import Iterable, Iterator, Optional

from ..analysis.context import AnalysisContext
from ..diagnostics import Diagnostic, Fix, Severity
from ..model import Access, Kernel, TranslationUnitModel

BUILTIN = {
    "CL101": "cudalint.rules.cl101_uncoalesced_global_access:UncoalescedGlobalAccess",
    "CL102": "cudalint.rules.cl102_misaligned_global_access:MisalignedGlobalAccess",
    "CL201": "cudalint.rules.cl201_shared_bank_conflict:SharedBankConflict",
    "CL301": "cudalint.rules.cl301_barrier_in_divergent_branch:BarrierInDivergentBranch",
    "CL302": "cudalint.rules.cl302_barrier_after_divergent_exit:BarrierAfterDivergentExit",
    "CL401": "cudalint.rules.cl401_non_uniform_constant_read:NonUniformConstantRead",
    "CL501": "cudalint.rules.cl501_slow_int_div_mod:SlowIntDivMod",
    "CL601": "cudalint.rules.cl601_pageable_memcpy_async:PageableMemcpyAsync",
}

#: CL000 is emitted by the driver itself (a file or kernel that could not be modelled).
CL000 = ("CL000", "analysis-incomplete", Severity.INFO, "A file or kernel the front-end could not model")


class Rule:
    code: str = ""
    name: str = ""
    default_severity: Severity = Severity.WARNING
    summary: str = ""

    def check(self, model: TranslationUnitModel, ctx: AnalysisContext) -> Iterator[Diagnostic]:
        raise NotImplementedError

    def diagnostic(self, kernel: Optional[Kernel], access: Access, message: str, *,
                   severity: Optional[Severity] = None, metrics: Optional[dict] = None,
                   assumptions: Iterable[str] = (), fix: Optional[Fix] = None) -> Diagnostic:
        s = access.span
        return Diagnostic(code=self.code, name=self.name, severity=severity or self.default_severity,
                          path=s.path, line=s.line, column=s.column, end_line=s.end_line,
                          end_column=s.end_column, message=message, kernel=kernel.name if kernel else None,
                          metrics=metrics or {}, assumptions=list(assumptions), fix=fix)


def _load(spec: str) -> type:
    mod, _, attr = spec.partition(":")
    return getattr(import_module(mod), attr)


def all_rules() -> list[Rule]:
    """Every registered rule, built-in and third-party, sorted by code."""
    found: dict[str, type] = {}
    try:
        for ep in entry_points(group="cudalint.rules"):
            try:
                found[ep.name] = ep.load()
            except Exception:  # a broken third-party plugin must not stop the run
                continue
    except Exception:  # pragma: no cover
        pass
    for code, spec in BUILTIN.items():
        found.setdefault(code, _load(spec))
    return [found[c]() for c in sorted(found)]


def spell(expr) -> str:
    """An expression as a user reads it: sympy's spelling without the ``#n`` that keeps cudalint's
    internal value names unique (``8*stride#12`` -> ``8*stride``)."""
    return re.sub(r"#\d+", "", str(expr))


def fmt(x: float) -> str:
    """Format a metric for a message: integers without decimals."""
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}"


def metric(x: float, nd: int = 2):
    """A metric value for JSON: an int when integral, else rounded to ``nd`` decimals."""
    return int(x) if float(x).is_integer() else round(x, nd)
