"""Uniformity analysis on its own: which values vary across the threads of a block (DESIGN.md §3)."""

from pathlib import Path

import pytest

from cudalint.runner import RunOptions, build_model


def guards_of_barriers(tmp_path: Path, body: str, helpers: str = ""):
    src = helpers + "\n__global__ void k(float* a, int n, bool flag) {\n" + body + "\n}\n" \
        "int main() { float* a; k<<<8, 256>>>(a, 4, true); }\n"
    p = tmp_path / "u.cu"
    p.write_text(src)
    model = build_model(str(p), src, RunOptions())
    syms = model.symbols
    k = model.kernels[0]
    return [[syms.is_varying(v) for v, _ in b.guards if v is not None] for b in k.barriers], k, syms


@pytest.mark.parametrize("cond,varying", [
    ("threadIdx.x < 16", True),
    ("threadIdx.x / 32 == 0", True),          # warp-uniform, still divergent across the block
    ("blockIdx.x == 0", False),
    ("blockDim.x >= 64", False),
    ("n > 3", False),
    ("flag", False),
    ("a[blockIdx.x] > 0.0f", False),           # load from a block-uniform address
    ("a[threadIdx.x] > 0.0f", True),           # load from a thread-varying address
    ("atomicAdd(&a[0], 1.0f) > 0.0f", True),  # atomics' results vary
    ("(blockIdx.x & 1) && n", False),
    ("threadIdx.y || n", True),
])
def test_condition_uniformity(tmp_path, cond, varying):
    got, _, _ = guards_of_barriers(tmp_path, f"if ({cond}) __syncthreads();")
    assert got == [[varying]]


def test_loop_variables_with_uniform_start_step_bound_are_uniform(tmp_path):
    got, _, _ = guards_of_barriers(tmp_path, """
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) __syncthreads();
    int half = blockDim.x / 2;
    while (half != 0) { __syncthreads(); half /= 2; }
    for (int i = threadIdx.x; i < n; i += blockDim.x) __syncthreads();
""")
    assert got == [[False], [False], [True]]


def test_device_function_parameters_take_the_arguments_uniformity(tmp_path):
    helper = "__device__ void stage(bool sync) { if (sync) __syncthreads(); }"
    got, k, _ = guards_of_barriers(tmp_path, "stage(true); stage(threadIdx.x < 3);", helper)
    assert got == [[False], [True]]
    assert [b.call_chain for b in k.barriers] == [(("stage", 3),), (("stage", 3),)]


def test_merged_values_keep_the_condition_uniformity(tmp_path):
    got, _, _ = guards_of_barriers(tmp_path, """
    int m = 0;
    if (threadIdx.x > 4) m = 1;
    if (m) __syncthreads();
    int u = 0;
    if (n > 4) u = 1;
    if (u) __syncthreads();
""")
    assert got == [[True], [False]]


def test_powers_of_two_are_tracked(tmp_path):
    src = """__global__ void k(unsigned* a, int n, unsigned e) {
    unsigned v = a[threadIdx.x];
    for (int s = 1; s < n; s *= 2) a[0] += v / s;
    unsigned m = 1u << e;
    a[1] = v % m;
    a[2] = v / (unsigned)n;
}
"""
    p = tmp_path / "p.cu"
    p.write_text(src)
    model = build_model(str(p), src, RunOptions())
    syms = model.symbols
    divs = model.kernels[0].divisions
    # `1u << e` is not tagged: nvcc sees the shift and emits shift/mask itself (measured, fixtures/arith)
    assert [(d.span.line, d.op, d.pow2, d.signed) for d in divs] == [(3, "/", True, False), (5, "%", False, False),
                                                                    (6, "/", False, False)]
