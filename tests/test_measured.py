"""Predictions vs the H200 measurements recorded in ``fixtures/measured/`` (no GPU needed).

One test per measured kernel.  For each CL101/CL102 finding, ``sectors_per_request`` must equal the measured
global load (or store, when the message says store) sectors per request of its kernel within 5 %; for each
CL201 finding, ``bank_conflict_ways`` must equal the measured shared wavefronts per load instruction within
5 %.  Every quantity no finding explains must be ideal: global sectors per request = bytes asked for / 32
(4 for full-warp 4-byte accesses, 8 for 8-byte, 16 for 16-byte) within 5 %, shared wavefronts per
instruction <= 1.2 (x 2 for 8-byte accesses).  Changing a prediction in the model makes this test fail.

Measurements that disagree are listed in ``KNOWN`` with the reason (see fixtures/measured/NOTES.md); they are
strict xfails, so they fail loudly once they start to agree (re-measured, or the linter learned the case).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from cudalint.verify import Row, case_name, compare_fixture, kernel_base

ROOT = Path(__file__).resolve().parents[1]
MEASURED = ROOT / "fixtures" / "measured"
FIXTURES = sorted(p for p in (ROOT / "fixtures").rglob("*.cu"))

# (case, kernel) -> why the measurement disagrees; keep in step with fixtures/measured/NOTES.md
KNOWN = {
    ("shared__dynamic_shared", "reduceInterleaved"):
        "expect-clean (the conflict degree depends on the run-time loop value `stride`, so the linter makes no "
        "claim), but the H200 measures 3.87 shared wavefronts per load instruction: interleaved addressing "
        "s[2*stride*tid] is 2- to 16-way conflicted as stride doubles. A false negative by design.",
    ("shared__matrix_mul_shared", "matrixMulShared"):
        "conflict-free as predicted, but 1.2012 wavefronts per load instruction is just over the 1.2 bound: "
        "nvcc turns tileA[ty][k..k+3] into LDS.128 (4 of the 20 shared loads per tile), each 2 wavefronts for "
        "its two half-warp broadcast addresses, so the conflict-free ideal is (16*1 + 4*2)/20 = 1.2 exactly.",
}


def _measurement(fixture: Path):
    f = MEASURED / f"{case_name(fixture)}.json"
    return json.loads(f.read_text(encoding="utf-8")) if f.is_file() else None


@functools.lru_cache(maxsize=None)
def _rows(fixture: str) -> tuple[Row, ...]:
    return tuple(compare_fixture(fixture, _measurement(Path(fixture))))


def _params():
    out = []
    for fx in FIXTURES:
        m = _measurement(fx)
        if m is None:
            out.append(pytest.param(fx, None, id=f"{case_name(fx)}",
                                    marks=pytest.mark.skip(reason="not measured yet: run `cudalint verify`")))
            continue
        for kernel in dict.fromkeys(kernel_base(k) for k in m["kernels"]):
            case = case_name(fx)
            marks = ()
            if (case, kernel) in KNOWN:
                marks = pytest.mark.xfail(strict=True, reason=KNOWN[(case, kernel)])
            out.append(pytest.param(fx, kernel, id=f"{case}::{kernel}", marks=marks))
    return out


def _describe(r: Row) -> str:
    if r.finding in ("clean", "no finding"):
        want = f"<= {r.predicted:.3g}" if r.note == "at most" else f"ideal {r.predicted:.3g}"
        what = "kernel marked clean" if r.finding == "clean" else "no finding explains it"
        return f"{r.kernel}: {what}, but {r.quantity} measured {r.measured:.4g} (want {want})"
    return (f"{r.kernel}: {r.finding} predicts {r.quantity} = {r.predicted}, measured "
            f"{'-' if r.measured is None else format(r.measured, '.4g')} ({r.note or 'off by more than 5 %'})")


@pytest.mark.parametrize("fixture, kernel", _params())
def test_prediction_matches_measurement(fixture: Path, kernel: str) -> None:
    rows = [r for r in _rows(str(fixture)) if r.kernel == kernel]
    assert rows, f"{kernel}: measured, but nothing to compare (no finding, no counter)"
    bad = [_describe(r) for r in rows if not r.agree]
    assert not bad, "measurement disagrees with the linter:\n" + "\n".join(bad)


@pytest.mark.parametrize("fixture", [f for f in FIXTURES if _measurement(f) is not None],
                         ids=lambda f: case_name(f))
def test_every_finding_has_a_measured_kernel(fixture: Path) -> None:
    missing = [f"{r.finding} in {r.kernel}" for r in _rows(str(fixture)) if r.note == "kernel not measured"]
    assert not missing, f"findings whose kernel has no measurement: {missing} (re-run `cudalint verify`)"


def test_known_disagreements_are_measured() -> None:
    cases = {case_name(f) for f in FIXTURES if _measurement(f) is not None}
    assert {case for case, _ in KNOWN} <= cases, "KNOWN lists a case that is no longer measured"
