"""Launch shapes read by constant propagation over host code, kernels of included files, and each template
instantiation analysed with its arguments (issue 10, causes 3, 8 and 9)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
import sympy

from cudalint.analysis.context import Settings
from cudalint.analysis.symbols import BDIM
from cudalint.parallel import lint_many
from cudalint.runner import RunOptions, build_model, lint_file, lint_text

ROOT = Path(__file__).resolve().parents[1]
KERNEL = """
__global__ void k(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[threadIdx.x * gridDim.x];
}
"""


def _write(tmp_path: Path, host: str, name: str = "k.cu") -> Path:
    p = tmp_path / name
    p.write_text(KERNEL + host)
    return p


def _blocks(tmp_path: Path, host: str):
    p = _write(tmp_path, host)
    return [(s.grid, s.block) for s in build_model(str(p), p.read_text(), RunOptions()).launches]


def test_dim3_members_assigned_after_the_declaration(tmp_path):
    host = """
int main() { float *a, *b; dim3 t; t.x = 16; t.y = 8; dim3 g; g.x = 4 * 2; k<<<g, t>>>(a, b);
             t.y = 2; k<<<g, t>>>(a, b); }"""
    assert _blocks(tmp_path, host) == [((8, 1, 1), (16, 8, 1)), ((8, 1, 1), (16, 2, 1))]


def test_cuda_launch_kernel_ex_reads_the_config_members(tmp_path):
    host = """
int run(int argc) {
  float *a, *b; cudaStream_t s; cudaStreamCreate(&s);
  cudaLaunchConfig_t c = {dim3(8, 2), dim3(16, 16), 0, s};
  cudaLaunchKernelEx(&c, k, (const float *)a, b);
  cudaLaunchConfig_t d = {};
  d.gridDim = 40; d.blockDim = dim3(128);
  cudaLaunchKernelEx(&d, k, (const float *)a, b);
  d.blockDim.y = 2;
  cudaLaunchKernelEx(&d, k, (const float *)a, b);
  if (argc > 1) d.blockDim = dim3(64);
  cudaLaunchKernelEx(&d, k, (const float *)a, b);     // (128, 2) or (64, 1): unknown
  d = c;
  cudaLaunchKernelEx(&d, k, (const float *)a, b);     // assigned whole: not followed
  cudaLaunchConfig_t *p = &c;
  cudaLaunchKernelEx(p, k, (const float *)a, b);      // through a pointer: not followed
}"""
    p = _write(tmp_path, host)
    sites = build_model(str(p), p.read_text(), RunOptions()).launches
    assert [(s.kernel, s.grid, s.block, s.span.line) for s in sites] == [
        ("k", (8, 2, 1), (16, 16, 1), 10), ("k", (40, 1, 1), (128, 1, 1), 13),
        ("k", (40, 1, 1), (128, 2, 1), 15), ("k", (40, 1, 1), (None, None, 1), 17),
        ("k", (None, None, None), (None, None, None), 19), ("k", (None, None, None), (None, None, None), 21)]
    assert sites[1].threads == 40 * 128 and sites[0].block_text == "c.blockDim"


def test_branches_loops_and_writes_through_pointers(tmp_path):
    host = """
void fill(dim3 *d);
int run(int argc, char **) {
  float *a, *b; dim3 t(32); int n = 64;
  if (argc > 1) t.x = 64; else t.x = 64;
  k<<<1, t>>>(a, b);                 // both branches agree: 64
  if (argc > 2) t.x = 128;
  k<<<1, t>>>(a, b);                 // 64 or 128: unknown
  for (int r = 0; r < 3; r++) n *= 2;
  k<<<1, n>>>(a, b);                 // assigned in a loop: unknown
  dim3 u(256); fill(&u);
  k<<<1, u>>>(a, b);                 // its address escaped: unknown
  if (1) n = 32;
  k<<<1, n>>>(a, b);                 // a constant condition takes one branch
}"""
    assert [b for _, b in _blocks(tmp_path, host)] == [
        (64, 1, 1), (None, 1, 1), (None, 1, 1), (None, None, None), (32, 1, 1)]


def test_main_runs_with_its_command_line_defaults(tmp_path):
    # The value main keeps when run without arguments is the launch's, named as a default; a branch that
    # exits without arguments (`if (argc < 2) return 1;`) leaves no default, nor does a helper's `argc`.
    host = """
bool checkCmdLineFlag(int argc, const char **argv, const char *name);
int getCmdLineArgumentInt(int argc, const char **argv, const char *name);
int atoi(const char *);
int main(int argc, char **argv) {
  float *a, *b; int blocksize = 512;
  if (argc > 1) blocksize = atoi(argv[1]);
  dim3 block(blocksize, 1);
  k<<<1, block>>>(a, b);
  int t = 64;
  if (checkCmdLineFlag(argc, (const char **)argv, "t")) t = getCmdLineArgumentInt(argc, (const char **)argv, "t");
  else t = 128;
  k<<<2, t>>>(a, b);
  int u = 32;
  if (argc < 2) return 1;
  u = atoi(argv[1]);
  k<<<1, u>>>(a, b);
}"""
    p = _write(tmp_path, host)
    sites = build_model(str(p), p.read_text(), RunOptions()).launches
    assert [(s.block, s.defaults) for s in sites] == [
        ((512, 1, 1), (("block", "blocksize", 12),)), ((128, 1, 1), (("block", "t", 16),)), ((None, 1, 1), ())]
    d = lint_file(str(p), RunOptions())
    assert d[0].assumptions[0] == (f"blockDim = (512, 1, 1) from launch at {p}:14 (`blocksize`: the program's "
                                   "default; the command line can set it on line 12) (other launches use (128, 1, 1))")


def test_a_block_over_1024_threads_is_a_note_for_its_kernels_not_a_usage_error(tmp_path, capsys):
    # GPUVerify's suites give --blockDim=[64,32]: one CL000 per kernel it would apply to, the kernel analysed
    # with an unknown block, the other kernels (launched with a block of their own) as before
    from cudalint.cli import main
    p = tmp_path / "k.cu"
    p.write_text("__global__ void a(float *x) { x[threadIdx.x * 32] = 0; }\n"
                 "// cudalint: block=(64,32,1)\n__global__ void b(float *x) { x[threadIdx.x * 32] = 0; }\n"
                 "__global__ void c(float *x) { x[threadIdx.x * 32] = 0; }\n"
                 "int main() { float *x; c<<<1, 64>>>(x); }\n")
    assert main(["check", "--no-cache", "--format", "json", "--block-dim", "64,32", str(p)]) == 1
    found = [(d["line"], d["code"], d["message"] if d["code"] == "CL000" else d["assumptions"][0][:28])
             for d in json.loads(capsys.readouterr().out)]
    assert found == [
        (1, "CL000", "--block-dim (64, 32, 1) is not used for `a`: it has more than 1024 threads, which no GPU runs "
                     "in one block"),
        (1, "CL101", "blockDim unknown (no launch "),
        (3, "CL000", "the hint on line 2, blockDim = (64, 32, 1) is not used for `b`: it has more than 1024 threads, "
                     "which no GPU runs in one block"),
        (3, "CL101", "blockDim unknown (no launch "),
        (4, "CL101", "blockDim = (64, 1, 1) from l")]


def test_a_run_time_block_is_a_launch_with_unknown_block(tmp_path):
    p = _write(tmp_path, "\nvoid run(float *a, float *b, int threads) { k<<<2, threads>>>(a, b); }")
    d = lint_file(str(p), RunOptions())
    assert [x.code for x in d] == ["CL101"]
    assert d[0].assumptions[0].startswith(f"blockDim unknown (the launch at {p}:7 has a run-time block "
                                          "`threads`): blockDim.x assumed a multiple of 32")
    d = lint_file(str(p), RunOptions(settings=Settings(block_dim=(64, 1, 1))))
    assert d[0].assumptions[0] == (f"blockDim = (64, 1, 1) from --block-dim (the launch at {p}:7 has a "
                                   "run-time block `threads`)")


def test_a_launch_block_is_not_silently_preferred_to_block_dim(tmp_path):
    p = _write(tmp_path, "\nint main() { float *a, *b; dim3 t; t.x = 256; k<<<64, t>>>(a, b); }")
    d = lint_file(str(p), RunOptions(settings=Settings(block_dim=(128, 1, 1))))
    assert d[0].assumptions[0] == (f"blockDim = (256, 1, 1) from launch at {p}:7; --block-dim (128, 1, 1) "
                                   "not used: the launch gives the block")


def test_grid_dim_of_the_launch_is_bound(tmp_path):
    # in[threadIdx.x * gridDim.x]: with the launch's 2 blocks lanes are 8 bytes apart (8 sectors), not the
    # representative large stride (32 sectors) of an unknown gridDim.
    p = _write(tmp_path, "\nint main() { float *a, *b; dim3 g(2); k<<<g, 256>>>(a, b); }")
    d = lint_file(str(p), RunOptions())
    assert [(x.code, x.metrics["sectors_per_request"], x.metrics["stride_bytes"]) for x in d] == [("CL101", 8, 8)]
    p = _write(tmp_path, "\nint main(int c, char**) { float *a, *b; k<<<c, 256>>>(a, b); }")
    assert [x.metrics["sectors_per_request"] for x in lint_file(str(p), RunOptions())] == [32]


def test_each_instantiation_is_analysed_and_named_when_findings_differ():
    path = ROOT / "fixtures" / "shared" / "template_instances.cu"
    d = lint_file(str(path), RunOptions())
    msgs = {(x.line, x.column, x.metrics.get("bank_conflict_ways")): x for x in d}
    assert msgs[(35, 13, 8)].message.endswith("(in `reduceInterleaved<int, 256>`)")
    assert msgs[(35, 13, 16)].message.endswith("(in `reduceInterleaved<double, 256>`)")
    assert "template instantiation `reduceInterleaved<double, 256>` (T = double, blockSize = 256)" in \
        msgs[(35, 13, 16)].assumptions
    strided = msgs[(47, 14, None)]
    assert strided.message.endswith("(in `strided<4>`)") and strided.metrics["sectors_per_request"] == 16
    same = msgs[(54, 14, None)]
    assert "(in " not in same.message
    assert same.assumptions[-1] == "the same for every instantiation launched: `everyOther<float>`, `everyOther<int>`"


def test_a_finding_in_an_explicit_specialization_is_not_named_after_another(tmp_path):
    # HeCBench fma-cuda: the bf16 specialization's finding said `(in `implicit_fma_kernel<__half>`)`, the
    # name of another specialization of the same template
    body = ("    __shared__ float s[1024];\n    s[threadIdx.x * {k}] = (float)b[threadIdx.x];\n    __syncthreads();\n"
            "    out[threadIdx.x] = s[threadIdx.x];\n}}\n")
    src = ("template <typename T>\n__global__ void fill(const T* b, float* out) {\n" + body.format(k=8)
           + "template <>\n__global__ void fill<float>(const float* b, float* out) {\n" + body.format(k=2)
           + "template <>\n__global__ void fill<double>(const double* b, float* out) {\n" + body.format(k=4)
           + "int main() {\n    float *f, *o; double *d; int *i;\n    fill<float><<<1, 256>>>(f, o);\n"
           "    fill<double><<<1, 256>>>(d, o);\n    fill<int><<<1, 256>>>(i, o);\n}\n")
    (tmp_path / "k.cu").write_text(src)
    d = [(x.line, x.metrics["bank_conflict_ways"], x.message[-40:])
         for x in lint_file(str(tmp_path / "k.cu"), RunOptions())]
    assert [(line, ways) for line, ways, _ in d] == [(4, 8), (11, 2), (18, 4)]
    # the launches of fill<float> and fill<double> run the specializations, not the primary template
    assert [m.rsplit("(in ", 1)[-1] for _, _, m in d] == ["`fill<int>`)", "`fill<float>`)", "`fill<double>`)"]


def test_a_header_kernel_is_analysed_in_its_includer_and_reported_once(tmp_path):
    (tmp_path / "k.cuh").write_text("#pragma once\n" + KERNEL.replace("gridDim.x", "STRIDE"))
    main = tmp_path / "main.cu"
    main.write_text('#define STRIDE 2\n#include "k.cuh"\n'
                    "int main() { float *a, *b; dim3 t; t.x = 64; k<<<1, t>>>(a, b); }\n")
    both = lint_many([(str(tmp_path / "k.cuh"), RunOptions()), (str(main), RunOptions())], jobs=1)
    assert [(x.path, x.line, x.code, x.metrics["sectors_per_request"]) for x in both] == [
        (str(tmp_path / "k.cuh"), 5, "CL101", 8)]
    assert both[0].assumptions[0] == f"blockDim = (64, 1, 1) from launch at {main}:3"
    alone = lint_file(str(tmp_path / "k.cuh"), RunOptions())  # STRIDE undeclared: partly modelled
    assert [x.code for x in alone] == ["CL000"]


def test_a_partly_modelled_header_kernel_is_reported_at_the_header(tmp_path):
    (tmp_path / "k.cuh").write_text("__global__ void h(float *o) { o[threadIdx.x] = undeclared_thing; }\n")
    main = tmp_path / "main.cu"
    main.write_text('#include "k.cuh"\nint main() { float *o; h<<<1, 32>>>(o); }\n')
    d = [x for x in lint_file(str(main), RunOptions()) if x.code == "CL000"]
    assert [(x.path, x.line) for x in d] == [(str(tmp_path / "k.cuh"), 1)]


def test_a_case_binds_the_switched_variable_copied_into_the_block(tmp_path):
    # cuda-samples' reduction: `dim3 b(threads); switch (threads) { case 256: k<256><<<g, b>>>` runs 256 threads.
    host = """
void run(float *a, float *b, int threads) {
  dim3 blk(threads, 1, 1);
  switch (threads) {
  case 256: k<<<1, blk>>>(a, b); break;
  case 32: threads = 5; k<<<1, blk>>>(a, b);   // assigned after the copy: unknown
  case 16: k<<<1, blk>>>(a, b); break;         // also reached by falling through: unknown
  }
  k<<<1, blk>>>(a, b);
}"""
    assert [b for _, b in _blocks(tmp_path, host)] == [(256, 1, 1), (None, 1, 1), (None, 1, 1), (None, 1, 1)]


def test_findings_at_the_same_line_of_two_headers_are_both_kept(tmp_path):
    """Two included headers with a kernel on the same line: one finding each, whatever the order."""
    body = "\n" * 4 + "__global__ void {0}(float* a) {{ a[32 * threadIdx.x] = 0; }}\n"
    (tmp_path / "one.cuh").write_text(body.format("kernA"))
    (tmp_path / "two.cuh").write_text(body.format("kernB"))
    main = tmp_path / "m.cu"
    main.write_text('#include "one.cuh"\n#include "two.cuh"\n'
                    "int main() { float* a; kernA<<<1, 32>>>(a); kernB<<<1, 32>>>(a); }\n")
    got = sorted((Path(d.path).name, d.line, d.code) for d in lint_file(str(main), RunOptions()))
    assert got == [("one.cuh", 5, "CL101"), ("two.cuh", 5, "CL101")]


def test_cuda_launch_kernel_is_a_launch(tmp_path):
    host = """
int main() { float *a, *b; void *args[] = {&a, &b}; dim3 t(64, 2);
             cudaLaunchKernel((void *)k, dim3(8), t, args, 0, 0);
             cudaLaunchCooperativeKernel((const void *)k, 4, 128, args, 0, 0); }"""
    assert _blocks(tmp_path, host) == [((8, 1, 1), (64, 2, 1)), ((4, 1, 1), (128, 1, 1))]


def test_a_grid_rounded_up_in_float_is_read(tmp_path):
    # cuda-samples' `(unsigned int)ceil((float)N_LINES / (float)BLOCK_DIM)`; a float expression of run-time
    # values stays unknown
    host = """
int main() { float *a, *b; int n = atoi("7");
    k<<<(unsigned int)ceil((float)250 / (float)64), 64>>>(a, b);
    k<<<(unsigned)floorf((float)41 / 4), dim3(32, 2)>>>(a, b);
    k<<<(unsigned)ceil((float)n / 64.0f), 64>>>(a, b); }"""
    assert _blocks(tmp_path, host) == [((4, 1, 1), (64, 1, 1)), ((10, 1, 1), (32, 2, 1)), ((None, 1, 1), (64, 1, 1))]


def test_a_launch_spelled_with_spaces_between_the_angle_brackets_is_read(tmp_path):
    # Rodinia's particlefilter: `k << < blocks, threads >> > (...)`, which nvcc accepts
    p = _write(tmp_path, "\nint main() { float *a, *b; k << < 8, 128 >> > (a, b); }\n")
    d = lint_file(str(p), RunOptions())
    assert [(x.code, x.line, x.column) for x in d] == [("CL101", 4, 12)]
    assert d[0].assumptions[0] == f"blockDim = (128, 1, 1) from launch at {p}:7"


def _threads(tmp_path: Path, host: str, frontend: str = "clang"):
    p = _write(tmp_path, host)
    model = build_model(str(p), p.read_text(), RunOptions(frontend=frontend))
    return [str(s.threads) for s in model.launches]


def test_threads_as_expressions_of_run_time_values(tmp_path):
    host = """
static unsigned iDivUp(unsigned a, unsigned b) { return (a % b == 0) ? a / b : a / b + 1; }
int Size;
void run(float *a, float *b, int n, int m) {
  k<<<iDivUp(n * m, 256), 256>>>(a, b);          // inlined: the larger arm
  int g = (Size / 512) + (!(Size % 512) ? 0 : 1);
  dim3 grid(g, g), block(16, 16);
  k<<<grid, block>>>(a, b);
  int h = n; h = h / 2;
  k<<<(h + 127) / 128, 128>>>(a, b);              // assigned in straight-line code: its value
  for (int r = 0; r < 3; r++) h = h + n;
  k<<<h, 32>>>(a, b);                             // assigned in a loop: unknown
  k<<<n % 7, 32>>>(a, b);                         // a remainder: not an expression of n
}"""
    want = ["m*n + 256", "256*(Size/512 + 1)**2", "n/2 + 127", "None", "None"]
    assert _threads(tmp_path, host) == want
    assert _threads(tmp_path, host, "tree-sitter") == want


SMALL = """
__global__ void col(const float *a, float *m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  m[i * n] = a[i * n];
}
__global__ void colLoop(const float *a, float *m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; ++j) m[i * n + j * 7] = a[i * n];
}
__global__ void big(const float4 *a, float4 *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  b[i] = a[i];
}
"""


def _severities(tmp_path: Path, host: str) -> list[tuple[str, int, str]]:
    p = tmp_path / "s.cu"
    p.write_text(SMALL + host)
    return sorted((d.kernel, d.line, d.severity.value, "under 1/16 of what `big` moves" in d.message)
                  for d in lint_file(str(p), RunOptions()) if d.code == "CL101" and d.kernel != "big")


def test_a_kernel_beside_a_larger_one_is_a_small_share(tmp_path):
    # N / 1024 threads of 2 accesses, at most a sector each, beside N / 4 threads of 16-byte accesses: 1/64
    host = """
void run(float *a, float *m, float4 *x, float4 *y, int N) {
  for (int t = 0; t < 10; ++t) {
    col<<<N / 1024 / 256, 256>>>(a, m, N);
    big<<<N / 4 / 256, 256>>>(x, y);
  }
}"""
    assert _severities(tmp_path, host)[:2] == [("col", 4, "info", True), ("col", 4, "info", True)]


@pytest.mark.parametrize("launch", [
    "col<<<N / 4 / 256, 256>>>(a, m, N); big<<<N / 4 / 256, 256>>>(x, y);",  # as many threads as big's
    "col<<<N / 256, 256>>>(a, m, N); big<<<M * M / 256, 256>>>(x, y);",      # N grows alone: unbounded
    "for (int t = 0; t < N; ++t) col<<<N / 1024, 256>>>(a, m, N); big<<<N / 4, 256>>>(x, y);",  # a loop big is not in
    "col<<<N / 1024, 256>>>(a, m, N); big<<<grid, 256>>>(x, y);",            # big's threads unknown
    "col<<<N / 1024, 256>>>(a, m, N); other(x, y, N);",                      # big launched by another function
    "colLoop<<<N / 1024, 256>>>(a, m, N); big<<<N / 4, 256>>>(x, y);",       # its accesses are in a loop
])
def test_no_small_share_without_a_larger_kernel_beside_it(tmp_path, launch):
    host = f"""
void other(float4 *x, float4 *y, int N) {{ big<<<N * N, 256>>>(x, y); }}
void run(float *a, float *m, float4 *x, float4 *y, int N, int M, dim3 grid) {{ {launch} }}"""
    found = [f for f in _severities(tmp_path, host) if f[0] == re.search(r"(\w+)<<<", launch).group(1)]
    assert len(found) == 2 and not any(small for *_, small in found), found


def test_a_block_known_on_the_axes_that_hold_whole_warps(tmp_path):
    # llm.c's dim3(4, 8, block_size / 32): a warp is one z slice of 4 x 8 threads, whatever blockDim.z is
    src = """
__global__ void k(float *out) {
  __shared__ float s[4][8];
  s[threadIdx.x][threadIdx.y] = out[0];
  out[threadIdx.x] = s[threadIdx.x][threadIdx.y];
}
void run(float *out, int block_size) { %s }
"""
    def cl201(host):
        p = tmp_path / "w.cu"
        p.write_text(src % host)
        return [(d.line, d.metrics["bank_conflict_ways"], d.assumptions[0])
                for d in lint_file(str(p), RunOptions()) if d.code == "CL201"]
    assert cl201("dim3 b = {4, 8, (unsigned)block_size / 32}; k<<<1, b>>>(out);") == []
    assert cl201("dim3 b(32, block_size / 32); k<<<1, b>>>(out);") == [
        (4, 8, f"blockDim = (32, ?, 1) from launch at {tmp_path / 'w.cu'}:7 (blockDim.y known only at run time; each "
               "warp lies in one row of the known axes)")]
    # warps span y (session 26): a warp is 16 consecutive threadIdx.y of the 2 x, so s[x][y] takes words 8x + y,
    # and the words two lanes share a bank with are the same word (a broadcast): no conflict. Read before as
    # "blockDim.x assumed a multiple of 32", 8-way
    assert cl201("dim3 b(2, block_size / 2); k<<<1, b>>>(out);") == []
    from cudalint.analysis.context import AnalysisContext
    p = tmp_path / "w.cu"
    model = build_model(str(p), p.read_text(), RunOptions())
    shape = AnalysisContext(model=model, lines=p.read_text().splitlines(), settings=Settings()).launch_shape(
        model.kernels[0])
    assert (shape.block, shape.free, shape.known) == ((2, 16, 1), (1,), {BDIM[0]: 2, BDIM[2]: 1})
    assert shape.source == (
        f"blockDim = (2, ?, 1) from launch at {tmp_path / 'w.cu'}:7 (blockDim.y known only at run time: a warp is "
        "16 consecutive threadIdx.y of the known x extent, blockDim.y assumed a multiple of 16)")


def test_constant_launch_arguments(tmp_path):
    # an integer every launch passes is bound in the picture; a pointer every launch passes as null is never
    # dereferenced (llm.c's fused_classifier_kernel2 with probs = NULL); launches that disagree bind nothing
    p = tmp_path / "c.cu"
    p.write_text("""
__global__ void k(float *out, float *probs, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * n];
  if (probs != NULL) probs[i * 32] = in[i];
}
__global__ void k2(float *out, float *probs, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * n];
  if (probs != nullptr) probs[i * 32] = in[i];
}
__global__ void k3(float *out) { out[threadIdx.x * 32] = 0.0f; }
void run(float *o, float *p, const float *in, int n) {
  float *d = NULL;
  cudaMalloc((void **)&d, 1 << 20);      // a pointer variable is not followed: cudaMalloc writes it
  k3<<<1, 256>>>(d);
  k<<<4096, 256>>>(o, NULL, in, 1000);
  k2<<<4096, 256>>>(o, nullptr, in, n);
  k2<<<4096, 256>>>(o, p, in, 8);
}
""")
    found = [(d.kernel, d.line, d.metrics["stride_bytes"])
             for d in lint_file(str(p), RunOptions()) if d.code == "CL101"]
    assert found == [("k", 4, 4000), ("k2", 9, "4*n"), ("k2", 10, 128), ("k3", 12, 128)]


def test_an_address_that_changes_only_across_the_rows_of_a_warp(tmp_path):
    p = tmp_path / "r.cu"
    p.write_text("""
__global__ void k(float *out, int n) {
  if (threadIdx.x == 0) out[blockIdx.x * 256 + threadIdx.y * 16] = 1.0f;
}
void run(float *o, int n) { k<<<n, dim3(4, 8, n)>>>(o, n); }
""")
    [d] = [d for d in lint_file(str(p), RunOptions()) if d.code == "CL101"]
    assert (d.line, d.metrics) == (3, {"sectors_per_request": 8, "ideal_sectors_per_request": 1, "efficiency": 0.125})
    assert d.message.startswith("uncoalesced global store of `out`: the address changes only with the rows "
                                "(threadIdx.y, threadIdx.z) the warp spans; a warp touches 8 sectors per request")


def test_bool_template_arguments_and_if_constexpr(tmp_path):
    # llm.c's matmul_backward_bias_kernel8<OutFloat, Atomic>, Atomic deduced from std::bool_constant<true>{}
    # (libclang gives true as -1); the instantiation drops the `if constexpr` branch it does not take
    p = tmp_path / "t.cu"
    p.write_text("""
#include <type_traits>
template<typename T, bool Atomic>
__global__ void k(T* out, std::bool_constant<Atomic>) {
  if constexpr (!Atomic) out[threadIdx.x * 32] = (T)1;
  else out[threadIdx.x * 64] = (T)2;
}
void run(float *o, int n) {
  k<<<n, 256>>>(o, std::bool_constant<false>{});
  k<<<n, 256>>>(o, std::bool_constant<true>{});
}
""")
    found = [(d.line, d.message.rsplit("(in ", 1)[-1]) for d in lint_file(str(p), RunOptions()) if d.code == "CL101"]
    assert found == [(5, "`k<float, 0>`)"), (6, "`k<float, 1>`)")]


def test_arguments_a_host_loop_steps_are_counters(tmp_path):
    # LaunchSite.counters: the arguments that a loop around the launch steps (Rodinia gaussian's column `t`),
    # not a value the loop only reads, nor one stepped by a loop that has ended, nor an expression of the counter
    p = tmp_path / "k.cu"
    p.write_text("__global__ void c(float *m, int n, int t) { m[(blockIdx.x * blockDim.x + threadIdx.x) * n + t] = 0; }\n"
                 "void run(float *m, int n, int off) {\n"
                 "  for (int t = 0; t < n - 1; t++) { c<<<n / 256, 256>>>(m, n, t); c<<<1, 256>>>(m, n, off); }\n"
                 "  for (int s = n; s > 1; s /= 2) c<<<1, 256>>>(m, s, s + 1);\n"
                 "  for (int r = 0; r < 4; ++r) {}\n"
                 "  int r = 3; c<<<1, 256>>>(m, n, r);\n}\n")
    sites = build_model(str(p), p.read_text(), RunOptions()).launches
    assert [s.counters for s in sites] == [(2,), (), (1,), ()]
    k = build_model(str(p), p.read_text(), RunOptions()).kernels[0]
    assert k.counter_params == frozenset({"t", "n"})


@pytest.mark.parametrize("grid,bound", [
    ("n / 256", "n/256"),                        # truncated: at most n / 256
    ("(n + 255) / 256", "n/256 + 255/256"),      # rounded up
    ("(int)ceil(n / 256)", "ceiling(n/256)"),    # ceil is kept, never dropped (it is not an upper bound)
    ("(int)ceil(n / 256.0)", "None"),            # a floating-point quotient is not followed
    ("dim3(n / (2 * 16), 1)", "n/32"),
    ("n - m", "None"),                            # a difference of run-time values: no upper bound
    ("m / 4", "None"),                            # m is not passed to the kernel
])
def test_grid_bound_in_the_kernels_parameters(tmp_path, grid, bound):
    """Each gridDim member as an upper bound in the kernel's integer parameters (the launch passes `n` as `n`)."""
    src = ("#include <cmath>\n__global__ void k(float *a, int n) { a[blockIdx.x] = 0; }\n"
           f"void run(float *a, int n, int m) {{ k<<<{grid}, 256>>>(a, n); }}\n")
    p = tmp_path / "g.cu"
    p.write_text(src)
    kernel = build_model(str(p), src, RunOptions()).kernels[0]
    assert str(kernel.grid_bound.get(sympy.Symbol("gridDim.x", integer=True, positive=True))) == bound


def test_template_dependent_shared_extents_are_evaluated_per_instantiation(tmp_path):
    """`__shared__ float s[R][C + 1]` with template R, C: each instantiation's dims are numbers (a row's pitch for
    the picture, the arrays' sizes for ptxas's layout), and the declaration position is kept."""
    src = ("template <int R, int C> __global__ void k(float *out) {\n"
           "  __shared__ float a[R * C];\n  __shared__ float s[R][C + 1];\n"
           "  __shared__ float b[4][C];\n"
           "  s[threadIdx.y][threadIdx.x] = a[threadIdx.x] + b[1][threadIdx.x];\n"
           "  out[threadIdx.x] = s[threadIdx.x][0];\n}\n"
           "void run(float *o) { k<8, 32><<<1, dim3(32, 8)>>>(o); k<4, 16><<<1, dim3(16, 4)>>>(o); }\n")
    p = tmp_path / "t.cu"
    p.write_text(src)
    kernels = build_model(str(p), src, RunOptions()).kernels
    dims = {k.label: sorted({(a.array.name, a.array.dims, a.array.declared_at.line) for a in k.accesses
                             if a.array.space.value == "shared"}) for k in kernels}
    assert dims == {"k<8, 32>": [("a", (256,), 2), ("b", (4, 32), 4), ("s", (8, 33), 3)],
                    "k<4, 16>": [("a", (64,), 2), ("b", (4, 16), 4), ("s", (4, 17), 3)]}


def test_an_unknown_dim3_grid_bounds_no_axis(tmp_path):
    """A grid whose dim3 is not known (a helper's result) bounds no member: gridDim.y is not taken as 1."""
    src = ("dim3 pick(int n);\n__global__ void k(float *a, int n) { a[blockIdx.y] = 0; }\n"
           "void run(float *a, int n) { dim3 g = pick(n); k<<<g, 256>>>(a, n); k<<<pick(n), 256>>>(a, n); }\n")
    p = tmp_path / "g.cu"
    p.write_text(src)
    model = build_model(str(p), src, RunOptions())
    assert [s.grid_bound for s in model.launches] == [(None, None, None), (None, None, None)]
    assert model.kernels[0].grid_bound == {}


def _multiples(tmp_path: Path, host: str) -> list[list[tuple]]:
    """Per launch of `m(int n, int s)`: each integer argument's (multiple, line of the assignment that made it)."""
    p = tmp_path / "m.cu"
    p.write_text("#include <cstdlib>\n__global__ void m(float *a, int n, int s) { a[threadIdx.x % n + s] = 0; }\n"
                 + host)
    return [[(k, w.line if w else None) for k, w in s.multiples[1:]]
            for s in build_model(str(p), p.read_text(), RunOptions()).launches]


def test_what_each_launch_argument_is_a_multiple_of_in_every_run(tmp_path):
    # HeCBench aop: `num_paths *= 1024` after the command line, launched from a helper: a multiple of 1024 in every
    # run, whatever the command line says
    host = """
static void run(float *a, int n, int s) { m<<<1, 256>>>(a, n, s); m<<<1, 256>>>(a, n * 3, s + 1); }
int main(int argc, char **argv) {
    float *a; int n = 32, s = 64;
    if (argc > 1) n = atoi(argv[1]);
    n *= 1024;
    run(a, n, s << 2);
    run(a, n * 6, s << 2);
}"""
    # run's n: the common factor of n (1024) and n * 6 (6144); its s: 64 << 2, from the declaration on line 6
    assert _multiples(tmp_path, host) == [[(1024, 8), (256, 6)], [(3072, 8), (1, None)]]


def test_multiples_are_forgotten_where_the_program_may_change_them(tmp_path):
    host = """
int main(int argc, char **argv) {
    float *a; int n = atoi(argv[1]) << 8, s = 4096;
    m<<<1, 256>>>(a, n, s);
    for (int i = 0; i < argc; i++) s += i;
    if (argc > 2) n = n + 1;
    m<<<1, 256>>>(a, n, s);
    n = n / 4;
    m<<<1, 256>>>(a, n, s * 2);
}"""
    # the command line may add 1 to n; the loop adds to s; n / 4 of an unknown n is not known; s * 2 is even
    assert _multiples(tmp_path, host) == [[(256, 5), (4096, 5)], [(1, None), (1, None)], [(1, None), (2, None)]]


def test_a_grid_of_as_many_blocks_as_a_constant_passed_through_a_helper(tmp_path):
    # HeCBench sosfil: gridDim.x bounded by the argument `n` that the launches bind to 8 crashed CL301 (CL000)
    p = tmp_path / "g.cu"
    p.write_text("""__global__ void k(float *out, int n) {
    __shared__ float s[64];
    if (blockIdx.x * 64 + threadIdx.x < n * 64 - 3) {
        s[threadIdx.x] = 1.0f;
        __syncthreads();
        out[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
    }
}
static void run(float *out, int n) { k<<<n, 64>>>(out, n); }
int main() { float *out; run(out, 8); }
""")
    d = lint_file(str(p), RunOptions())
    assert [(x.code, x.line, x.severity.value) for x in d] == [("CL301", 5, "warning")]
    assert "unless `64*n - 3` is a multiple of `64`; with the launch's `n` = 8 a block straddles it;" in d[0].message
    assert d[0].assumptions == ["condition on line 3 is thread-dependent", f"`n` = 8 from the launch at {p}:9"]


LAUNCHER = """
__global__ void tr(const float *in, float *out, int n) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * n + x] = in[x * n + y];
}
extern "C" void run_tr(dim3 grid, dim3 block, const float *in, float *out, int n) {
    tr<<<grid, block>>>(in, out, n);
}
"""


@pytest.mark.parametrize("frontend", ["clang", "tree-sitter"])
def test_a_launcher_called_from_another_file_takes_the_block_every_call_passes(tmp_path, frontend):
    # HeCBench bm3d's `extern "C" run_DCT2D8x8(.., num_threads, num_blocks)`, kaldi's `cudaF_*(Gr, Bl, ..)`: the
    # kernel file launches with the launcher's parameters and main.cu (another translation unit) picks them.
    # With 16 x 16 blocks the transposed read touches 16 rows per warp: 16 sectors, not the 32 of a block
    # assumed 32 lanes wide.
    (tmp_path / "kernels.cu").write_text(LAUNCHER)
    main = tmp_path / "main.cu"
    main.write_text('#define TILE 16\nextern "C" void run_tr(dim3, dim3, const float *, float *, int);\n'
                    "int main() {\n    float *a, *b;\n    dim3 threads(TILE, TILE);\n"
                    "    run_tr(dim3(128, 128), threads, a, b, 2048);\n}\n")
    d, = [d for d in lint_file(str(tmp_path / "kernels.cu"), RunOptions(frontend=frontend)) if d.code == "CL101"]
    assert (d.line, d.metrics["sectors_per_request"], d.metrics["ideal_sectors_per_request"]) == (4, 16, 4)
    assert d.assumptions[0] == (f"blockDim = (16, 16, 1) from launch at {tmp_path / 'kernels.cu'}:7 (passed by the "
                                f"call at {main}:6)")
    # the sizes every call passes too (HeCBench's tsne: `n_terms` = 4 from fit_tsne.cu, a row of 4 floats its lanes
    # were taken as 4096 floats apart for: judged false, census `at`)
    assert d.assumptions[1] == (f"`n` = 2048 from the launch at {tmp_path / 'kernels.cu'}:7 (passed by the call at "
                                f"{main}:6)")
    # a second caller with another block: the shape is not known (blockDim.x assumed a multiple of 32)
    (tmp_path / "other.cu").write_text('extern "C" void run_tr(dim3, dim3, const float *, float *, int);\n'
                                       "void f(float *a) { run_tr(dim3(64, 256), dim3(32, 8), a, a, 2048); }\n")
    d, = [d for d in lint_file(str(tmp_path / "kernels.cu"), RunOptions(frontend=frontend)) if d.code == "CL101"]
    assert d.metrics["sectors_per_request"] == 32
    assert d.assumptions[0].startswith("blockDim unknown (the launch at")


def test_a_caller_file_parsed_for_another_is_not_parsed_again_for_its_own_lint(tmp_path, monkeypatch):
    # issue 13: a run over a program parses main.cu as kernels.cu's caller, then lints main.cu itself; the unit
    # lowered the first time serves the second (cuda-samples: 17 of the 92 caller parses came before the file's own
    # lint), and only when the text and options are the same
    import cudalint.runner as runner
    (tmp_path / "kernels.cu").write_text(LAUNCHER)
    main = tmp_path / "main.cu"
    main.write_text('extern "C" void run_tr(dim3, dim3, const float *, float *, int);\n'
                    "__global__ void fill(float *a) { a[threadIdx.x * 32] = 0; }\n"
                    "int main() {\n    float *a, *b;\n    fill<<<1, 64>>>(a);\n"
                    "    run_tr(dim3(128, 128), dim3(16, 16), a, b, 2048);\n}\n")
    fresh = [d.to_text() for d in lint_file(str(main), RunOptions())]
    lowered = []
    real = runner.lower
    monkeypatch.setattr(runner, "lower", lambda path, text, opts: lowered.append(path) or real(path, text, opts))
    monkeypatch.setattr(runner, "_UNITS", {})
    monkeypatch.setattr(runner, "_CALLS", {})
    lint_file(str(tmp_path / "kernels.cu"), RunOptions())
    assert lowered == [str(tmp_path / "kernels.cu"), str(main)]
    assert [d.to_text() for d in lint_file(str(main), RunOptions())] == fresh and len(lowered) == 2
    assert not runner._UNITS   # taken once
    assert [d.to_text() for d in lint_file(str(main), RunOptions())] == fresh and len(lowered) == 3
    lint_file(str(tmp_path / "kernels.cu"), RunOptions(extra_args=["-DX=1"]))   # other options: parsed again
    assert lowered[3:] == [str(tmp_path / "kernels.cu"), str(main)]
    lint_text(str(main), main.read_text() + "\n", RunOptions(extra_args=["-DX=1"]))   # another text: parsed again
    assert len(lowered) == 6


@pytest.mark.parametrize("frontend", ["clang", "tree-sitter"])
def test_a_kernel_launched_only_from_another_file_takes_that_launch(tmp_path, frontend):
    # Parboil's sad: `mb_sad_calc` is defined in sad4.cu, declared in sad4.h and launched from main.cu with
    # CEIL(1089, 18) = 61 threads; "no launch in this file", its block was taken as a multiple of 32, and a store
    # conflict-free in the 61-thread block was a 2-way conflict (judged false, census `au`)
    (tmp_path / "k.h").write_text("__global__ void calc(float *out);\n")
    (tmp_path / "k.cu").write_text('#include "k.h"\n__global__ void calc(float *out) {\n'
                                   "    out[2 * (blockIdx.x * blockDim.x + threadIdx.x)] = 0.0f;\n}\n")
    main = tmp_path / "main.cu"
    main.write_text('#include "k.h"\nint main() {\n    float *o;\n    calc<<<4096, 61>>>(o);\n}\n')
    d, = lint_file(str(tmp_path / "k.cu"), RunOptions(frontend=frontend))
    # blocks of 61 threads start 488 bytes apart: 0, 8, 16 or 24 bytes into a sector, a full warp's 256 bytes in 8
    # sectors in the first kind and 9 in the others (stated as the mean over those residues since stop 54)
    assert (d.code, d.line, d.metrics["sectors_per_request"]) == ("CL101", 3, 8.38)
    assert d.assumptions[0] == f"blockDim = (61, 1, 1) from launch at {main}:4"
    # beside a kernel its own file launches, it is not one that "may never run" (HeCBench's logic-rewrite)
    (tmp_path / "k.cu").write_text((tmp_path / "k.cu").read_text() + "__global__ void other(float *a) { a[0] = 1; }\n"
                                   "void run(float *a) { other<<<1, 1>>>(a); }\n")
    d = [x for x in lint_file(str(tmp_path / "k.cu"), RunOptions(frontend=frontend)) if x.line == 3]
    assert [(x.code, x.severity.value) for x in d] == [("CL101", "warning")]
    assert not any("may never run" in a for a in d[0].assumptions)
    # the main file gone: no launch is known
    main.unlink()
    d, = lint_file(str(tmp_path / "k.cu"), RunOptions(frontend=frontend))
    assert d.assumptions[0].startswith("blockDim unknown (no launch in this file)")


def test_a_declaration_whose_initialiser_clang_drops_is_not_default_constructed(tmp_path):
    # kaldi's `dim3 dimGrid(n_blocks(dim, CU2DBLOCK), ..)` in a class template's member, `n_blocks` returning
    # `int32` (a type from a header not found): clang drops the invalid initialiser, which read as `dim3 dimGrid;`,
    # a grid of (1, 1, 1).
    p = tmp_path / "k.cu"
    p.write_text("__global__ void k(float *a) { a[threadIdx.x] = 0; }\n"
                 "inline int32 blocks(int32 n) { return (n + 255) / 256; }\n"
                 "template <typename T> struct M {\n    T *data;\n    void run() {\n        int32 dim = 1000;\n"
                 "        dim3 grid(blocks(dim), blocks(dim));\n        dim3 none;\n"
                 "        k<<<grid, 256>>>(data);\n        k<<<none, 256>>>(data);\n    }\n};\n"
                 "template struct M<float>;\n")
    model = build_model(str(p), p.read_text(), RunOptions(frontend="clang"))
    assert [s.grid for s in model.launches] == [(None, None, None), (1, 1, 1)]


def test_a_fault_in_the_caller_search_is_a_cl000_and_the_file_is_still_linted(tmp_path, monkeypatch):
    import cudalint.analysis.launches as launches

    def broken(path, names, limit=8):
        raise OSError("disk on fire")
    monkeypatch.setattr(launches, "caller_files", broken)
    (tmp_path / "kernels.cu").write_text(LAUNCHER)
    got = lint_file(str(tmp_path / "kernels.cu"), RunOptions(select=["CL101"]))
    assert [(d.code, d.line) for d in got] == [("CL000", 1), ("CL101", 4)]
    assert got[0].message == ("internal error in the search for launch callers in other files (OSError: disk on "
                              "fire); linted with the launch shapes of this file only")


LIBRARY = """#include <cuda_runtime.h>
template <int NTX>
__global__ void band(const float *a, float *out, int batchCount) {
    __shared__ float s[NTX];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int batchid = blockIdx.x * blockDim.y + ty;
    if (batchid >= batchCount) return;
    s[tx] = a[batchid * NTX + tx];
    __syncthreads();
    if (a[batchid] > s[0]) {
        s[tx] += 1.0f;
        __syncthreads();
    }
    out[batchid * NTX + tx] = s[tx];
}

template <int NTX>
static int driver(const float *a, float *out, int nthreads, int ntcol, int batchCount) {
    ntcol = max(1, ntcol);
    dim3 threads(nthreads, ntcol, 1), grid((batchCount + ntcol - 1) / ntcol, 1, 1);
    void *args[] = {&a, &out, &batchCount};
    return cudaLaunchKernel((void *)band<NTX>, grid, threads, args, 0, 0) == cudaSuccess ? 0 : -1;
}

STORAGE int pick(const float *a, float *out, int nthreads, int ntcol, int batchCount) {
    switch (nthreads) {
        case 32: return driver<32>(a, out, nthreads, ntcol, batchCount);
        case 64: return driver<64>(a, out, nthreads, ntcol, batchCount);
        default: return -1;
    }
}

int factor(const float *a, float *out, int nthreads, int batchCount) {
    int ntcol = 1;  // one problem per block
    return pick(a, out, nthreads, ntcol, batchCount);
}
"""


@pytest.mark.parametrize("frontend", ["clang", "tree-sitter"])
def test_a_library_files_static_helpers_take_what_their_calls_pass(tmp_path, frontend):
    # MAGMA's zgbtrf sliding-window kernels: `factor` (public) -> `pick` (static) -> `driver<NTX>` (static
    # template) -> `cudaLaunchKernel((void *)band<NTX>, grid, dim3(nthreads, ntcol))` with `ntcol = max(1, 1)`: one
    # row of threads, so `batchid` is blockIdx.x and both barriers are uniform. A file without `main` seeds only
    # the helpers with internal linkage: every call of those is in the file; a public one's may be elsewhere.
    p = tmp_path / "band.cu"
    p.write_text(LIBRARY.replace("STORAGE", "static"))
    model = build_model(str(p), p.read_text(), RunOptions(frontend=frontend))
    assert [(s.kernel, s.block) for s in model.launches] == [("band", (None, 1, 1))]
    assert [d.code for d in lint_file(str(p), RunOptions(frontend=frontend))] == []
    # `pick` public: another file may call it with two problems per block; the per-thread exit and the
    # barrier under a condition on the problem's own data are then real
    p.write_text(LIBRARY.replace("STORAGE ", ""))
    model = build_model(str(p), p.read_text(), RunOptions(frontend=frontend))
    assert [(s.kernel, s.block) for s in model.launches] == [("band", (None, None, 1))]
    assert [(d.code, d.line) for d in lint_file(str(p), RunOptions(frontend=frontend))] == [("CL302", 9),
                                                                                          ("CL301", 12)]


def test_a_file_read_for_its_calls_is_not_an_included_one(tmp_path):
    # graphdeco-inria/diff-gaussian-rasterization: forward.cu and backward.cu each define a launcher `render`
    # (FORWARD::render, BACKWARD::render) whose block rasterizer_impl.cu passes. The search for backward.cu's
    # callers reads forward.cu (it names `render`), and the run took that for an include: forward.cu's own findings
    # were dropped as a header's, and `cudalint check .` printed none of its 34 findings.
    for ns in ("A", "B"):
        (tmp_path / f"{ns.lower()}.cu").write_text(
            f"__global__ void k{ns}(const float *in, float *out) {{ out[threadIdx.x] = in[threadIdx.x * 32]; }}\n"
            f"namespace {ns} {{\nvoid render(dim3 block, const float *in, float *out) {{ k{ns}<<<1, block>>>(in, out); }}\n}}\n")
    (tmp_path / "main.cu").write_text("namespace A { void render(dim3, const float *, float *); }\n"
                                      "namespace B { void render(dim3, const float *, float *); }\n"
                                      "int main() { float *p; A::render(dim3(64), p, p); B::render(dim3(64), p, p); }\n")
    both = lint_many([(str(tmp_path / f), RunOptions()) for f in ("a.cu", "b.cu", "main.cu")], jobs=1)
    assert [(os.path.basename(d.path), d.line, d.code, d.metrics["sectors_per_request"]) for d in both] == [
        ("a.cu", 1, "CL101", 32), ("b.cu", 1, "CL101", 32)]


def _channel_sums(tmp_path):
    """fixtures/sync/switch_bound_block.cu's kernels and launcher without its main (whose constant calls would bind
    the sizes), instantiated for float: the file and its model."""
    src = Path(__file__).resolve().parents[1] / "fixtures" / "sync" / "switch_bound_block.cu"
    p = tmp_path / "k.cu"
    p.write_text(src.read_text().split("int main(")[0] + "template void channelSums<float>(const float *, float *, "
                                                          "int, int, int);\n")
    return p, build_model(str(p), p.read_text(), RunOptions())


def test_a_case_reads_again_the_variables_declared_from_the_switched_one(tmp_path):
    # open-mmlab/mmcv's `num_threads = channels > 512 ? 512 : channels; n = batch * heads * channels; switch (channels)
    # { case 64: k<T, 64><<<g, num_threads>>>(n, ..) }`: in the case, the block is 64 threads and n a multiple of 64
    # (fixtures/sync/switch_bound_block.cu, whose main then passes constants)
    p, model = _channel_sums(tmp_path)
    sites = [(s.template_args[1], s.block, s.multiples[0][0], s.multiples[0][1].line, sympy.factor(s.arg_values[0]))
             for s in model.launches if s.kernel == "channelSum"]
    b, h = sympy.symbols("batch heads", positive=True)
    assert sites == [(64, (64, 1, 1), 64, 48, 64 * b * h), (128, (128, 1, 1), 128, 51, 128 * b * h)]
    # the case's numeric multiple (64, at line 48) already covers the one numeric block: no weaker "a multiple of
    # the launch's blockDim.x" beside it
    assert [(dict(k.launch_multiples)["n"][0], k.block_multiples) for k in model.kernels if k.name == "channelSum"] \
        == [(64, {}), (128, {})]


def test_a_branch_on_a_size_decides_the_blocks_picked_from_it(tmp_path):
    # mmcv's `num_threads = channels > 512 ? 512 : channels`, then `if (channels > 512) { if ((channels & 511) == 0)
    # k<<<g, num_threads>>>(n, ..) } else k<<<g, num_threads>>>(n, ..)` with `n = batch * heads * channels`: 512
    # threads and n a multiple of 512 in the first launch, `channels` threads and n a whole multiple of them in the
    # second; every launch passes n as a multiple of its own block, and the barriers are latent faults (info)
    p, model = _channel_sums(tmp_path)
    sites = [(s.span.line, s.block, s.block_sym, s.multiples[0][0]) for s in model.launches if s.kernel == "anySum"]
    assert sites == [(57, (512, 1, 1), 512, 512), (59, (None, 1, 1), sympy.Symbol("channels", positive=True), 1)]
    k, = [k for k in model.kernels if k.name == "anySum"]
    assert list(k.block_multiples) == ["n"]
    found = [(d.line, d.severity.value, d.assumptions[-1]) for d in lint_file(str(p), RunOptions()) if d.line > 30]
    assert found == [(37, "info", "`n` a multiple of the launch's blockDim.x at all 2 launches"),
                     (39, "info", "`n` a multiple of the launch's blockDim.x at all 2 launches")]


def test_a_block_set_in_branches_is_the_one_the_launchs_own_branch_decides(tmp_path):
    # cuda-convnet2's weight-gradient launches: `if (colors > 3) { bx = .. ? 32 : 16; } else { bx = 16; .. }`, then
    # `threads = dim3(bx, by)` and the launches under `else if (colors <= 3)`: bx is 16 there (cudalint read a
    # run-time block and pictured 32 lanes a row: 2-way and 4-way conflicts where the 16-wide block has 0 and 2)
    host = """
void run(int colors, int filters, float *a, float *b) {
  dim3 threads; int bx, by;
  if (colors > 3) { bx = filters % 128 == 0 ? 32 : 16; by = 4; }
  else { bx = 16; by = filters % 64 == 0 ? 16 : 8; }
  threads = dim3(bx, by);
  k<<<1, threads>>>(a, b);                      // either branch: unknown
  if (colors <= 3) k<<<1, threads>>>(a, b);     // the else branch: 16, by still unknown
  if (colors > 3 && filters % 128 != 0) k<<<1, threads>>>(a, b);  // 16 and 4
  if (colors > 5) { if (filters % 128 == 0) k<<<1, dim3(bx)>>>(a, b); }  // 32
}
void again(int colors, float *a, float *b) {
  int bx = 16;
  if (colors > 3) bx = 32;
  colors = 0;                                   // the condition's variable changes: its test no longer decides
  if (colors <= 3) k<<<1, bx>>>(a, b);
}
"""
    assert _blocks(tmp_path, host) == [((1, 1, 1), (None, None, 1)), ((1, 1, 1), (16, None, 1)),
                                       ((1, 1, 1), (16, 4, 1)), ((1, 1, 1), (32, 1, 1)),
                                       ((1, 1, 1), (None, 1, 1))]
