"""The toolkit mode of the clang front-end (`--cuda-path PATH|auto|none`, `auto` by default): the installed CUDA
toolkit's headers instead of cudalint's shims. The tests that parse with a real toolkit are skipped where none is installed or libclang cannot
take it (they run on the developers' machines, where nvcc is)."""

import json
from pathlib import Path

import pytest

from cudalint.cli import main
from cudalint.frontend.toolkit import find_toolkit, usable

ROOT = Path(__file__).resolve().parents[1]
TOOLKIT = find_toolkit("auto")
REAL = pytest.mark.skipif(TOOLKIT is None or usable(TOOLKIT) is not None,
                          reason=f"no CUDA toolkit libclang can parse ({TOOLKIT}: "
                                 f"{usable(TOOLKIT) if TOOLKIT else 'none found'})")

# one or more fixtures of every rule family; the toolkit mode must give exactly the shims' findings on them
SAME = ["global/stride.cu", "global/misaligned.cu", "global/aos_soa.cu", "global/runtime_stride.cu",
        "shared/transpose_tile.cu", "shared/stride2.cu", "sync/divergent_barrier.cu", "constant/constant_reads.cu",
        "arith/div_mod.cu", "arith/unrolled_loop.cu", "host/streams_pageable.cu", "host/streams_pinned.cu",
        # builtins written by a macro (libclang spells their property members only through the tokens)
        "global/macro_loop.cu", "sync/switch_bound_block.cu"]


def findings(capsys, *args) -> tuple[list, str]:
    code = main(["check", "--no-cache", "--format", "json", "--exit-zero", *args])
    out = capsys.readouterr()
    assert code == 0
    return [(d["path"], d["line"], d["column"], d["code"], d["severity"], d["message"]) for d in json.loads(out.out)], \
        out.err


def test_a_folder_that_is_no_toolkit_is_a_usage_error(tmp_path, capsys):
    assert main(["check", "--cuda-path", str(tmp_path), str(ROOT / "fixtures/shared/stride2.cu")]) == 2
    assert capsys.readouterr().err == (f"cudalint: error: --cuda-path {tmp_path}: no CUDA toolkit there "
                                       "(no include/cuda_runtime.h)\n")


def test_a_toolkit_libclang_cannot_parse_is_said_once_and_the_shims_kept(tmp_path, capsys):
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "cuda_runtime.h").write_text("#error this toolkit is from the future\n")
    files = [str(ROOT / "fixtures" / f) for f in ("shared/stride2.cu", "global/stride.cu")]
    shims, _ = findings(capsys, "--cuda-path", "none", *files)
    broken, err = findings(capsys, "--cuda-path", str(tmp_path), *files)
    assert broken == shims and len(shims) == 4
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "cudalint: warning: not parsing with the CUDA toolkit (") and lines[0].endswith("; using cudalint's shims")
    # the first error libclang gives for it (here: not a whole installation, so clang stops before the #error)
    assert "cannot find CUDA installation" in lines[0] or "this toolkit is from the future" in lines[0]


@REAL
def test_the_toolkit_mode_gives_the_shims_findings_on_every_rule_family(capsys):
    files = [str(ROOT / "fixtures" / f) for f in SAME]
    shims, _ = findings(capsys, "--cuda-path", "none", *files)
    toolkit, err = findings(capsys, "--cuda-path", "auto", *files)
    assert err == "" and toolkit == shims
    assert {c for _, _, _, c, _, _ in shims} >= {"CL101", "CL102", "CL201", "CL301", "CL401", "CL501", "CL601"}


@REAL
def test_the_toolkit_mode_resolves_headers_the_shims_do_not_have(tmp_path, capsys):
    src = tmp_path / "k.cu"
    src.write_text("#include <cuda/std/bit>\n"
                   "__global__ void k(float *out, const float *in, int n) {\n"
                   "  unsigned s = cuda::std::popcount(unsigned(n));\n"
                   "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                   "  out[i] = in[2 * i] + s;\n"
                   "}\n"
                   "int main() { k<<<4096, 256>>>(0, 0, 0); }\n")
    shims, _ = findings(capsys, "--cuda-path", "none", str(src))
    # `cuda/std/bit` is not shimmed: `popcount` unknown, the kernel partly modelled, its load still seen
    assert [(c, line) for _, line, _, c, _, _ in shims] == [("CL000", 2), ("CL101", 5)]
    toolkit, _ = findings(capsys, "--cuda-path", "auto", str(src))
    assert [(c, line, col) for _, line, col, c, _, _ in toolkit] == [("CL101", 5, 12)]
    assert "a warp touches 8 sectors per request instead of 4" in toolkit[0][5]
    # by default the shims, and the toolkit for a file they leave partly modelled
    assert findings(capsys, str(src)) == (toolkit, "")


BARRIER = ("#include <cuda/barrier>\n"
           "__global__ void k(float *out, const float *in) {\n"
           "  __shared__ cuda::barrier<cuda::thread_scope_block> bar;\n"
           "  if (threadIdx.x == 0) init(&bar, blockDim.x);\n"
           "  __syncthreads();\n"
           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  out[i] = in[2 * i];\n"
           "  bar.arrive_and_wait();\n"
           "}\n"
           "int main() { k<<<4096, 256>>>(0, 0); }\n")


@REAL
def test_a_file_the_toolkit_headers_leave_partly_modelled_is_lowered_with_the_shims(tmp_path, capsys, monkeypatch):
    """clang refuses libcu++'s `__shared__ cuda::barrier` (its constructor: "initialization is not supported for
    __shared__ variables"), which nvcc and the shims take: the file is lowered again with the shims."""
    src = tmp_path / "k.cu"
    src.write_text(BARRIER)
    shims, _ = findings(capsys, "--cuda-path", "none", str(src))
    assert [(c, line, col) for _, line, col, c, _, _ in shims] == [("CL101", 7, 12)]
    assert findings(capsys, "--cuda-path", "auto", str(src)) == (shims, "")
    from cudalint import runner
    monkeypatch.setattr(runner, "_trouble", lambda *a: 0)   # without the second lowering: partly modelled
    toolkit, _ = findings(capsys, "--cuda-path", "auto", str(src))
    assert [(c, line) for _, line, _, c, _, _ in toolkit] == [("CL000", 2), ("CL101", 7)]
    assert toolkit[0][5] == ("kernel `k` is only partly modelled: line 3: initialization is not supported for "
                             "__shared__ variables")


def test_the_default_keeps_the_shims_answer_quietly_where_no_toolkit_parses(tmp_path, capsys, monkeypatch):
    """Without `--cuda-path`, a file the shims leave partly modelled is lowered again with the installed toolkit; where
    the one found (here CUDA_PATH's, the first place looked) does not parse, the shims' answer stands, without a word,
    as on a machine with no toolkit."""
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "cuda_runtime.h").write_text("#error this toolkit is from the future\n")
    monkeypatch.setenv("CUDA_PATH", str(tmp_path))
    src = tmp_path / "k.cu"
    src.write_text("#include <cuda/std/bit>\n__global__ void k(float *o, const float *in, int n) {\n"
                   "  unsigned s = cuda::std::popcount(unsigned(n));\n  o[threadIdx.x] = in[2 * threadIdx.x] + s;\n}\n")
    shims, _ = findings(capsys, "--cuda-path", "none", str(src))
    assert [(c, line) for _, line, _, c, _, _ in shims] == [("CL000", 2), ("CL101", 4)]
    assert findings(capsys, str(src)) == (shims, "")


@REAL
def test_device_placement_new_resolves_through_clangs_cuda_wrappers(tmp_path, capsys):
    """cuda-samples' newdelete: `new (p) T(..)` in a kernel needs clang's device `operator new` from its CUDA wrapper of
    <new>, which `-nostdinc++` left out ("no matching function for non-allocating placement new": a CL000)."""
    src = tmp_path / "k.cu"
    src.write_text("#include <new>\n"
                   "struct V { float x; __device__ V(float v) : x(v) {} };\n"
                   "__global__ void k(V *out) {\n"
                   "  __shared__ unsigned char buf[sizeof(V) * 32];\n"
                   "  V *v = new (buf + sizeof(V) * (threadIdx.x % 32)) V(1.0f);\n"
                   "  out[threadIdx.x * 2] = *v;\n"
                   "}\n"
                   "int main() { k<<<64, 256>>>(0); }\n")
    toolkit, _ = findings(capsys, "--cuda-path", "auto", str(src))
    assert [c for _, _, _, c, _, _ in toolkit] == ["CL101"]


def test_a_second_lowering_that_fails_leaves_the_first(tmp_path, monkeypatch):
    """The second set of headers is a second opinion: when lowering with it raises, the first lowering stands (the
    file is not handed to tree-sitter, nor lost)."""
    from cudalint import runner
    from cudalint.frontend import libclang
    src = tmp_path / "k.cu"
    text = ("#include <cuda/std/bit>\n__global__ void k(float *o, const float *in, int n) {\n"
            "  unsigned s = cuda::std::popcount(unsigned(n));\n  o[threadIdx.x] = in[2 * threadIdx.x] + s;\n}\n")
    src.write_text(text)
    real, asked = libclang.lower, []

    def lower(path, text, args, roots, cuda_path):
        asked.append(cuda_path)
        if cuda_path:
            raise RuntimeError("the toolkit's headers exploded")
        return real(path, text, args, roots, cuda_path)
    monkeypatch.setattr(libclang, "lower", lower)
    monkeypatch.setattr(runner, "_other_headers", lambda opts: "/some/toolkit")
    unit = runner.lower(str(src), text, runner.RunOptions(toolkit_fallback=True))
    assert asked == [None, "/some/toolkit"] and unit.frontend == "clang" and runner._trouble(unit) == 1


@REAL
def test_a_kernel_whose_declaration_the_shims_cannot_parse_is_lowered_with_the_toolkit(tmp_path, capsys):
    """A parameter of a type the shims lack (`cuda::std::complex`) loses the whole kernel (a CL000 for its declaration,
    no kernel lowered): that counts as partly modelled, so the default lowers the file again with the toolkit (a
    fresh user's trial: only errors inside a lowered kernel's body used to)."""
    src = tmp_path / "k.cu"
    src.write_text("#include <cuda/std/complex>\n"
                   "__global__ void gather(cuda::std::complex<float> *out, const cuda::std::complex<float> *in) {\n"
                   "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                   "  out[i] = in[2 * i];\n"
                   "}\n"
                   "int main() { gather<<<16, 256>>>(0, 0); }\n")
    shims, _ = findings(capsys, "--cuda-path", "none", str(src))
    assert [(c, line) for _, line, _, c, _, _ in shims] == [("CL000", 2)]
    assert shims[0][5].startswith("the kernel declared on line 2 could not be parsed, so nothing in it is analysed")
    toolkit, err = findings(capsys, "--cuda-path", "auto", str(src))
    assert [(c, line, col) for _, line, col, c, _, _ in toolkit] == [("CL101", 4, 12)] and err == ""
    assert "lanes are 16 bytes apart; a warp touches 16 sectors per request instead of 8" in toolkit[0][5]
    assert findings(capsys, str(src)) == (toolkit, "")
