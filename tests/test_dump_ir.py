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


def test_dump_ir_and_explain_read_the_project_configuration(tmp_path, monkeypatch, capsys) -> None:
    # a kernel whose index macro lives in a folder only `.cudalint.toml` names: `check` found it, `dump-ir` and
    # `explain` lowered the file without it (a loop over an undeclared call, nothing pictured)
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "loop.h").write_text(
        "#define KLOOP(i, n) for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)\n")
    (tmp_path / ".cudalint.toml").write_text('include-paths = ["inc"]\n')
    (tmp_path / "k.cu").write_text('#include "loop.h"\n__global__ void k(int n, float *o) {\n'
                                   "  KLOOP(index, n) { o[index * 2] = 0; }\n}\n")
    monkeypatch.chdir(tmp_path)
    assert main(["dump-ir", "k.cu:k"]) == 0
    out = capsys.readouterr().out
    assert "decl int /*4B*/ index = ((blockIdx.x * blockDim.x) + threadIdx.x)" in out
    assert main(["explain", "k.cu:3"]) == 0
    assert "store of `o` (global, 4 bytes)" in capsys.readouterr().out
