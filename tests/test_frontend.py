"""The clang front-end: index expressions followed through the code, launch shapes, struct layouts."""

from pathlib import Path

import pytest

from cudalint.analysis.context import AnalysisContext
from cudalint.runner import RunOptions, build_model, lint_file


def model_of(tmp_path: Path, src: str):
    p = tmp_path / "k.cu"
    p.write_text(src)
    return build_model(str(p), src, RunOptions())


def offsets(tmp_path, src, kernel=None):
    model = model_of(tmp_path, src)
    k = model.kernels[0] if kernel is None else next(k for k in model.kernels if k.name == kernel)
    return [(a.span.line, a.array.name, a.kind, a.size, str(a.offset)) for a in k.accesses]


def test_locals_compound_assignments_casts_and_pointer_arithmetic(tmp_path):
    src = """
__global__ void k(float* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = i;
    j *= 2;
    j += 1;
    float* p = a + 8;
    p[(unsigned)j] = 0.0f;
}
"""
    assert offsets(tmp_path, src) == [(8, "a", "store", 4, "8*blockDim.x*blockIdx.x + 8*threadIdx.x + 36")]


def test_compound_assignment_on_array_is_load_and_store(tmp_path):
    src = "__global__ void k(float* a) { a[threadIdx.x] += 1.0f; }\n"
    assert offsets(tmp_path, src) == [(1, "a", "load and store", 4, "4*threadIdx.x")]


def test_two_dimensional_shared_array_and_float4(tmp_path):
    src = """
__global__ void k(const float4* v, float* out) {
    __shared__ float t[8][33];
    float4 x = v[threadIdx.x];
    t[threadIdx.y][threadIdx.x] = x.x;
    out[threadIdx.x] = t[threadIdx.x % 8][threadIdx.y];
}
"""
    got = offsets(tmp_path, src)
    assert got[0] == (4, "v", "load", 16, "16*threadIdx.x")
    assert got[1] == (5, "t", "store", 4, "4*threadIdx.x + 132*threadIdx.y")
    assert (got[2][1], got[2][4]) == ("t", "4*threadIdx.y + 132*(Mod(threadIdx.x, 8))")


def test_array_of_structs_field_offset(tmp_path):
    src = """
struct P { float x, y, z; };
__global__ void k(const P* p, float* out) { out[threadIdx.x] = p[threadIdx.x].z; }
"""
    model = model_of(tmp_path, src)
    acc = model.kernels[0].accesses[0]
    assert (acc.array.name, acc.size, acc.elem_size, acc.field_offset, str(acc.offset)) == \
        ("p", 4, 12, 8, "12*threadIdx.x + 8")


def test_grid_stride_loop_variable_is_start_plus_trip_times_step(tmp_path):
    src = """
__global__ void k(float* a, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        a[i] = 0.0f;
}
"""
    (line, name, kind, size, off), = offsets(tmp_path, src)
    assert off.startswith("4*blockDim.x*blockIdx.x + 4*blockDim.x*gridDim.x*k@3")
    assert off.endswith("+ 4*threadIdx.x")


def test_device_function_is_inlined_with_its_arguments(tmp_path):
    src = """
__device__ float load2(const float* p, int i) { return p[2 * i]; }
__global__ void k(const float* a, float* out) { out[threadIdx.x] = load2(a, threadIdx.x + 1); }
"""
    got = offsets(tmp_path, src)
    assert (2, "a", "load", 4, "8*threadIdx.x + 8") in got


def test_template_kernel_uses_the_launched_instantiation(tmp_path):
    src = """
template <typename T> __global__ void k(T* a) { a[2 * threadIdx.x] = T(0); }
int main() { double* d; k<double><<<1, 64>>>(d); }
"""
    model = model_of(tmp_path, src)
    kern = model.kernels[0]
    assert (kern.instantiation, kern.label) == ("`k<double>` (T = double)", "k<double>")
    assert (kern.accesses[0].size, str(kern.accesses[0].offset)) == (8, "16*threadIdx.x")


@pytest.mark.parametrize("launch,block", [
    ("k<<<100, 128>>>(a);", (128, 1, 1)),
    ("dim3 b(16, 16); k<<<100, b>>>(a);", (16, 16, 1)),
    ("k<<<dim3(4, 4), dim3(TX, 8)>>>(a);", (32, 8, 1)),
    ("const int threads = 2 * TX; k<<<10, threads>>>(a);", (64, 1, 1)),
])
def test_launch_shapes_from_literals_dim3_variables_and_macros(tmp_path, launch, block):
    src = f"#define TX 32\n__global__ void k(float* a) {{ a[threadIdx.x] = 0; }}\nint main() {{ float* a; {launch} }}\n"
    model = model_of(tmp_path, src)
    assert model.launches[0].block == block
    ctx = AnalysisContext(model, src.splitlines())
    assert ctx.launch_shape(model.kernels[0]).block == block


def test_block_hint_comment(tmp_path):
    src = "// cudalint: block=(16,16)\n__global__ void k(float* a) { a[threadIdx.x] = 0; }\n"
    model = model_of(tmp_path, src)
    shape = AnalysisContext(model, src.splitlines()).launch_shape(model.kernels[0])
    assert shape.block == (16, 16, 1) and "hint on line 1" in shape.source


def test_unresolved_includes_do_not_stop_the_file(tmp_path):
    src = """#include <thrust/device_vector.h>
#include "project/missing.h"
__global__ void k(float* a) { a[32 * threadIdx.x] = 0; }
"""
    p = tmp_path / "k.cu"
    p.write_text(src)
    diags = lint_file(str(p), RunOptions())
    assert [(d.code, d.line, d.column) for d in diags] == [("CL101", 3, 31)]
    assert diags[0].metrics["sectors_per_request"] == 32


def test_realistic_file_with_missing_headers_is_linted(tmp_path):
    """tests/data/realworld/reduce_sum.cu: thrust/cub/project includes are absent; templates, float4,
    extern __shared__, __ldg and a grid-stride loop are modelled; CL000 only for the kernel that uses a
    macro from the missing project header."""
    path = str(Path(__file__).parent / "data" / "realworld" / "reduce_sum.cu")
    diags = lint_file(path, RunOptions())
    assert [(d.code, d.line, d.column, d.kernel) for d in diags] == [
        ("CL000", 33, 1, "gatherColumns"), ("CL101", 36, 28, "gatherColumns")]
    assert "CHECK_DEVICE" in diags[0].message and "common/check.h" in diags[0].message
    assert diags[1].metrics["stride_bytes"] == 4096  # ld = 1024 at the only launch


def test_compile_commands_supply_include_paths_and_defines(tmp_path):
    import json

    inc = tmp_path / "include"
    inc.mkdir()
    (inc / "layout.h").write_text("#define STRIDE 32\n")
    src = tmp_path / "k.cu"
    src.write_text('#include "layout.h"\n__global__ void k(float* a) { a[STRIDE * threadIdx.x * SCALE] = 0; }\n')
    build = tmp_path / "build"
    build.mkdir()
    (build / "compile_commands.json").write_text(json.dumps([{
        "directory": str(tmp_path), "file": "k.cu",
        "command": "nvcc -Iinclude -DSCALE=1 -c k.cu -o k.o"}]))
    plain = lint_file(str(src), RunOptions())
    assert [d.code for d in plain] == ["CL000"]  # STRIDE and SCALE unknown without the build flags
    opts = RunOptions(compile_db=build / "compile_commands.json")
    (d,) = lint_file(str(src), opts)
    assert (d.code, d.line, d.metrics["sectors_per_request"]) == ("CL101", 2, 32)


def test_static_members_of_two_instantiations_of_one_template_keep_their_values(tmp_path):
    # llm.c's Packed128<float>::size (4) and Packed128<bf16>::size (8) share one declaration and its location
    src = """
template<class E> struct alignas(16) Packed128 { static constexpr const size_t size = sizeof(int4) / sizeof(E); };
typedef Packed128<float> f128;
typedef Packed128<short> x128;
__global__ void k(short* dst) {
    size_t i = (blockIdx.x * blockDim.x + threadIdx.x) * f128::size;
    dst[i] = 0;
    size_t j = (blockIdx.x * blockDim.x + threadIdx.x) * x128::size;
    dst[j] = 1;
}
"""
    assert [o[-1] for o in offsets(tmp_path, src)] == ["8*blockDim.x*blockIdx.x + 8*threadIdx.x",
                                                        "16*blockDim.x*blockIdx.x + 16*threadIdx.x"]


def test_function_template_arguments_bind_in_the_helper(tmp_path):
    # `row<16>(a)`: the helper's `W` is 16 at this call, so its loop's address is a number of the call, not `W`
    src = """
template <int W> __device__ void row(float* a) { a[threadIdx.x * W] = 0.0f; }
__global__ void k(float* a) { row<16>(a); row<4>(a + 1); }
"""
    assert offsets(tmp_path, src) == [(2, "a", "store", 4, "64*threadIdx.x"), (2, "a", "store", 4, "16*threadIdx.x + 4")]


def test_volatile_pointee_is_kept_on_the_access(tmp_path):
    src = "__global__ void k(volatile int* f, int* g) { f[threadIdx.x] = 1; g[threadIdx.x] = 1; }\n"
    k = model_of(tmp_path, src).kernels[0]
    assert [(a.array.name, a.volatile) for a in k.accesses] == [("f", True), ("g", False)]


def test_cursor_is_null_answered_in_python_agrees_with_libclang():
    """The front-end answers the bindings' `Cursor.is_null` (called before every cursor property) in Python; it
    must agree with libclang's `clang_equalCursors(c, null)` on the null cursor and on every cursor of a file."""
    import clang.cindex as ci
    from cudalint.frontend import libclang as L
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "shared" / "hoisted_load.cu"
    tu = ci.Index.create().parse(str(fixture), args=L.base_args(), options=L.PARSE_OPTIONS)
    null = ci.conf.null_cursor
    assert ci.Cursor.is_null is L._is_null
    assert L._is_null(null) and bool(ci.conf.lib.clang_equalCursors(null, null))
    seen = 0
    for c in tu.cursor.walk_preorder():
        for x in (c, c.semantic_parent, c.referenced):
            if x is not None:
                seen += 1
                assert L._is_null(x) == bool(ci.conf.lib.clang_equalCursors(x, null))
    assert seen > 1000
