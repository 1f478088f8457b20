"""``cudalint dump-ir``: golden IR of a few fixture functions, from both front-ends.

The goldens live in ``tests/golden/ir/<fixture>.<function>.<front-end>.txt``; regenerate them after a
deliberate change of the IR with ``CUDALINT_UPDATE_GOLDEN=1 pytest tests/test_dump_ir.py`` and review the
diff.  Where the two front-ends are expected to agree (every case but those in :data:`DIFFERENT`), the
test also requires both dumps to be identical apart from the header line.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cudalint.cli import main

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "ir"
CASES = [
    ("global/aos_soa.cu", "testInnerStruct"),
    ("shared/transpose_tile.cu", "tileTranspose"),
    ("sync/divergent_exit.cu", "continueBeforeSync"),
    ("sync/divergent_exit.cu", "switchBreakThenSync"),
    ("arith/div_mod.cu", "byDoublingLoopVar"),
    ("shared/matrix_mul_shared.cu", "matrixMulShared"),
]
#: cases whose IR differs between the front-ends, with the reason
DIFFERENT: dict[tuple[str, str], str] = {}


def dump(capsys, fixture: str, function: str, frontend: str) -> str:
    rel = os.path.relpath(ROOT / "fixtures" / fixture)
    assert main(["dump-ir", "--frontend", frontend, f"{rel}:{function}"]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("frontend", ["clang", "tree-sitter"])
@pytest.mark.parametrize("fixture, function", CASES)
def test_golden(capsys, fixture: str, function: str, frontend: str) -> None:
    out = dump(capsys, fixture, function, frontend)
    golden = GOLDEN / f"{Path(fixture).stem}.{function}.{frontend}.txt"
    if os.environ.get("CUDALINT_UPDATE_GOLDEN"):
        golden.write_text(out)
    assert out == golden.read_text()


@pytest.mark.parametrize("fixture, function", [c for c in CASES if c not in DIFFERENT])
def test_front_ends_lower_alike(capsys, fixture: str, function: str) -> None:
    clang = dump(capsys, fixture, function, "clang").splitlines()[1:]
    ts = dump(capsys, fixture, function, "tree-sitter").splitlines()[1:]
    assert clang == ts


def test_dump_ir_errors(capsys) -> None:
    rel = os.path.relpath(ROOT / "fixtures" / "global" / "stride.cu")
    assert main(["dump-ir", f"{rel}:noSuchKernel"]) == 2
    assert capsys.readouterr().err == f"cudalint: error: no function `noSuchKernel` in {rel}\n"
    assert main(["dump-ir", "no/such/file.cu"]) == 2
