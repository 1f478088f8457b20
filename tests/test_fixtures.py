"""Every fixture gives exactly its inline expectations: nothing more, nothing less, on the right line."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from .expectations import analysed as _analysed, compare, parse

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = sorted((ROOT / "fixtures").rglob("*.cu"))


def analysed(path: Path):
    """Findings and model of a fixture, computed once for all the tests below (and test_measured's)."""
    return _analysed(str(path))


def _id(p: Path) -> str:
    return str(p.relative_to(ROOT / "fixtures"))


#: each fixture's tests run in one worker (``--dist loadgroup`` in pyproject.toml), which lints it once (``analysed``)
GROUPED = [pytest.param(p, id=_id(p), marks=pytest.mark.xdist_group(_id(p))) for p in FIXTURES]


@pytest.mark.parametrize("path", GROUPED)
def test_fixture_findings_match_expectations(path: Path) -> None:
    expects, clean = parse(path)
    assert expects or clean, f"{path} carries no expectation"
    diags, _ = analysed(path)
    problems = compare(expects, diags)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", GROUPED)
def test_clean_kernels_have_no_findings(path: Path) -> None:
    _, clean = parse(path)
    diags, model = analysed(path)
    for line in clean:
        kernel = next((k for k in model.kernels if k.span.line <= line <= k.span.line + 2
                       and k.span.path == str(path)), None)
        assert kernel is not None, f"expect-clean on line {line} is not on a kernel signature"
        inside = [d for d in diags if kernel.span.line <= d.line <= kernel.span.end_line and d.path == str(path)]
        assert not inside, f"kernel {kernel.name} must be clean: {[d.to_text() for d in inside]}"


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")
@pytest.mark.parametrize("path", FIXTURES, ids=_id)
def test_fixture_compiles_with_nvcc(path: Path, tmp_path: Path) -> None:
    """nvcc's front-end checks the whole program (host code included: an undeclared host function, a wrong launch
    argument count fail here) and ptxas assembles the kernels; the host compiler and the link, two thirds of a full
    build's time (0.9 s against 0.3 s for global/stride.cu), are left to `cudalint verify`, which builds and runs
    each fixture on the GPU."""
    r = subprocess.run(["nvcc", "-arch=sm_90", "-cubin", "-o", str(tmp_path / "a.cubin"), str(path)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("path", GROUPED)
def test_no_internal_value_names_in_findings(path: Path) -> None:
    """Opaque values are named `hint#n` inside cudalint; a user never sees the `#n`."""
    import re
    diags, _ = analysed(path)
    for d in diags:
        for text in [d.message, *d.assumptions]:
            assert not re.search(r"#\d*\b", text), text
