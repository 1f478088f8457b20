"""Host-pointer provenance over the IR (cudalint/analysis/host.py) and the async copies it feeds to CL601."""

import json
from pathlib import Path

from cudalint.analysis.host import collect_async_copies
from cudalint.cli import main
from cudalint.frontend.libclang import lower


def provs(tmp_path: Path, src: str, names) -> dict:
    """name -> (kind, how, allocation line, helper) of what each pointer expression points to at the end of
    ``main``, as an async copy from it made there records it."""
    calls = "".join(f"    cudaMemcpyAsync({n}, {n}, 4, cudaMemcpyHostToDevice, 0);\n" for n in names)
    found = copies(tmp_path, src.replace("    return 0;\n}", calls + "    return 0;\n}"))
    return {c.pointer_text["src"]: (v.kind, v.how, v.site.line if v.site else None, v.via)
            for c in found if c.function == "main" and (v := c.pointers["src"])}


def copies(tmp_path: Path, src: str):
    p = tmp_path / "h.cu"
    p.write_text(src)
    return collect_async_copies(lower(str(p), src))


def test_allocations_assignments_arithmetic_and_casts(tmp_path):
    src = """#include <cstdlib>
int main() {
    size_t n = 1024;
    float* a = (float*)malloc(n);
    float* b = static_cast<float*>(calloc(n, 4));
    float* c = new float[n];
    float* d = new float;
    float* e; cudaMallocHost(&e, n);
    float* f; cudaHostAlloc((void**)&f, n, cudaHostAllocDefault);
    float* g; cudaMalloc(&g, n);
    float* h; size_t pitch; cudaMallocPitch(&h, &pitch, n, 4);
    float* m; cudaMallocManaged(&m, n);
    float* a2 = a + 16;
    float* a3; a3 = (float*)(void*)a2;
    float* r = (float*)realloc(a, 2 * n);
    return 0;
}
"""
    want = {
        "a": ("pageable", "malloc", 4, ""), "b": ("pageable", "calloc", 5, ""),
        "c": ("pageable", "new[]", 6, ""), "d": ("pageable", "new", 7, ""),
        "e": ("pinned", "cudaMallocHost", 8, ""), "f": ("pinned", "cudaHostAlloc", 9, ""),
        "g": ("device", "cudaMalloc", 10, ""), "h": ("device", "cudaMallocPitch", 11, ""),
        "m": ("managed", "cudaMallocManaged", 12, ""),
        "a2": ("pageable", "malloc", 4, ""), "a3": ("pageable", "malloc", 4, ""),
        "r": ("pageable", "realloc", 15, ""),
    }
    assert provs(tmp_path, src, list(want)) == want


def test_helpers_returning_and_out_parameters_and_struct_members(tmp_path):
    src = """#include <cstdlib>
struct Buf { float* host; float* dev; };
float* alloc_pinned(size_t n) { float* p; cudaMallocHost(&p, n); return p; }
float* alloc_pageable(size_t n) { return (float*)malloc(n); }
void make(float** out, size_t n) { *out = (float*)malloc(n); }
void make_pinned(float** out, size_t n) { cudaMallocHost(out, n); }
void make_ref(float*& out, size_t n) { out = new float[n]; }
void init(Buf* b, size_t n) { b->host = (float*)malloc(n); cudaMalloc(&b->dev, n); }
template <typename T> T* talloc(size_t n) { T* p; cudaHostAlloc(&p, n * sizeof(T), 0); return p; }
int main() {
    float* a = alloc_pinned(64);
    float* b = alloc_pageable(64);
    float* c; make(&c, 64);
    float* d; make_pinned(&d, 64);
    float* e; make_ref(e, 64);
    Buf buf; init(&buf, 64);
    Buf other = buf;
    Buf direct; direct.host = new float[4];
    float* t = talloc<float>(64);
    return 0;
}
"""
    got = provs(tmp_path, src, ["a", "b", "c", "d", "e", "buf.host", "buf.dev", "other.host", "direct.host", "t"])
    assert got["a"] == ("pinned", "cudaMallocHost", 3, "alloc_pinned")
    assert got["b"] == ("pageable", "malloc", 4, "alloc_pageable")
    assert got["c"] == ("pageable", "malloc", 5, "make")
    assert got["d"] == ("pinned", "cudaMallocHost", 6, "make_pinned")
    assert got["e"] == ("pageable", "new[]", 7, "make_ref")
    assert got["buf.host"] == ("pageable", "malloc", 8, "init")
    assert got["buf.dev"] == ("device", "cudaMalloc", 8, "init")
    assert got["other.host"] == got["buf.host"]
    assert got["direct.host"] == ("pageable", "new[]", 18, "")
    assert got["t"] == ("pinned", "cudaHostAlloc", 9, "talloc")


def test_register_unregister_branches_and_loops(tmp_path):
    src = """#include <cstdlib>
void pin(float* p, size_t n) { cudaHostRegister(p, n, 0); }
int main(int argc, char** argv) {
    float* f = (float*)malloc(64); pin(f, 64);
    float* g = (float*)malloc(64); cudaHostRegister(g, 64, cudaHostRegisterDefault);
    float* g2 = g + 4;
    float* r = (float*)malloc(64); cudaHostRegister(r, 64, 0); cudaHostUnregister(r);
    float* u;
    if (argc > 1) cudaMallocHost(&u, 64); else u = (float*)malloc(64);
    float* same;
    if (argc > 1) same = g; else same = g2;
    float* v = nullptr;
    if (argc > 2) v = (float*)malloc(64);
    float* w[4];
    for (int k = 0; k < 4; ++k) cudaMallocHost(&w[k], 64);
    float* x = argc ? f : r;
    float* p = argv[0] ? (float*)argv[0] : nullptr;
    return 0;
}
"""
    got = provs(tmp_path, src, ["f", "g", "g2", "r", "u", "same", "v", "w[0]", "x", "p"])
    assert got["f"] == ("pinned", "malloc", 4, "")          # registered by the helper pin()
    assert got["g"] == ("pinned", "malloc", 5, "") and got["g2"] == got["g"]
    assert got["r"] == ("pageable", "malloc", 7, "")        # unregistered again
    assert got["u"][0] == "unknown"                         # pinned on one branch, pageable on the other
    assert got["same"] == got["g"]                          # the same allocation on both branches
    assert got["v"] == ("pageable", "malloc", 13, "")       # null on the other path
    assert got["w[0]"] == ("pinned", "cudaMallocHost", 15, "")
    assert got["x"][0] == "unknown"
    assert got["p"][0] == "unknown"                         # from a parameter


def test_copy_records_direction_provenance_and_kind(tmp_path):
    src = """#include <cstdlib>
#include <vector>
#include <array>
__constant__ float c_tab[64];
__device__ float d_tab[64];
static float g_arr[64];
float* g_ptr;
void set_g() { g_ptr = (float*)malloc(64); }
void upload(float* d, const float* h, cudaStream_t s) { cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); }
int main() {
    float* d; cudaMalloc(&d, 1 << 20);
    float* h = (float*)malloc(1 << 20);
    std::vector<float> v(64);
    std::array<float, 64> arr;
    float stack[64];
    int local = 0;
    cudaStream_t s; cudaStreamCreate(&s);
    cudaMemcpyAsync(d, h + 4, 64, cudaMemcpyHostToDevice, s);
    cudaMemcpyAsync(v.data(), d, 64, cudaMemcpyDeviceToHost, s);
    cudaMemcpyAsync(&v[0], d, 64, cudaMemcpyDefault);
    cudaMemcpyAsync(d, arr.data(), 64, cudaMemcpyHostToDevice);
    cudaMemcpyToSymbolAsync(c_tab, stack, sizeof(stack));
    cudaMemcpyFromSymbolAsync(&local, d_tab, 4);
    cudaMemcpy2DAsync(d, 64, g_arr, 64, 64, 1, cudaMemcpyHostToDevice, s);
    cudaMemcpyAsync(d, g_ptr, 64, cudaMemcpyHostToDevice, s);
    cudaMemcpyAsync(d, d + 4, 64, cudaMemcpyDeviceToDevice, s);
    cudaMemcpyAsync(h, stack, 64, cudaMemcpyHostToHost, s);
    cudaMemcpy3DParms p = {0};
    p.srcPtr = make_cudaPitchedPtr(h, 64, 16, 1);
    p.dstPtr = make_cudaPitchedPtr(d, 64, 16, 1);
    p.kind = cudaMemcpyHostToDevice;
    cudaMemcpy3DAsync(&p, s);
    return 0;
}
"""
    got = [(c.span.line, c.api, c.kind, c.host_side, {r: p.kind for r, p in c.pointers.items()}, c.pointer_text,
            {r: p.how for r, p in c.pointers.items() if p.how}, c.stream, c.function) for c in copies(tmp_path, src)]
    assert got == [
        (9, "cudaMemcpyAsync", "cudaMemcpyHostToDevice", ("src",), {"dst": "unknown", "src": "unknown"},
         {"dst": "d", "src": "h"}, {}, "s", "upload"),
        (18, "cudaMemcpyAsync", "cudaMemcpyHostToDevice", ("src",), {"dst": "device", "src": "pageable"},
         {"dst": "d", "src": "h + 4"}, {"dst": "cudaMalloc", "src": "malloc"}, "s", "main"),
        (19, "cudaMemcpyAsync", "cudaMemcpyDeviceToHost", ("dst",), {"dst": "pageable", "src": "device"},
         {"dst": "v.data()", "src": "d"}, {"dst": "std::vector", "src": "cudaMalloc"}, "s", "main"),
        (20, "cudaMemcpyAsync", "cudaMemcpyDefault", ("dst", "src"), {"dst": "pageable", "src": "device"},
         {"dst": "&v[0]", "src": "d"}, {"dst": "std::vector", "src": "cudaMalloc"}, None, "main"),
        (21, "cudaMemcpyAsync", "cudaMemcpyHostToDevice", ("src",), {"dst": "device", "src": "pageable"},
         {"dst": "d", "src": "arr.data()"}, {"dst": "cudaMalloc", "src": "std::array"}, None, "main"),
        (22, "cudaMemcpyToSymbolAsync", "cudaMemcpyHostToDevice (default)", ("src",), {"src": "pageable"},
         {"src": "stack"}, {"src": "stack array"}, None, "main"),
        (23, "cudaMemcpyFromSymbolAsync", "cudaMemcpyDeviceToHost (default)", ("dst",), {"dst": "pageable"},
         {"dst": "&local"}, {"dst": "local variable"}, None, "main"),
        (24, "cudaMemcpy2DAsync", "cudaMemcpyHostToDevice", ("src",), {"dst": "device", "src": "pageable"},
         {"dst": "d", "src": "g_arr"}, {"dst": "cudaMalloc", "src": "global array"}, "s", "main"),
        (25, "cudaMemcpyAsync", "cudaMemcpyHostToDevice", ("src",), {"dst": "device", "src": "unknown"},
         {"dst": "d", "src": "g_ptr"}, {"dst": "cudaMalloc"}, "s", "main"),
        (26, "cudaMemcpyAsync", "cudaMemcpyDeviceToDevice", (), {"dst": "device", "src": "device"},
         {"dst": "d", "src": "d + 4"}, {"dst": "cudaMalloc", "src": "cudaMalloc"}, "s", "main"),
        (27, "cudaMemcpyAsync", "cudaMemcpyHostToHost", ("dst", "src"), {"dst": "pageable", "src": "pageable"},
         {"dst": "h", "src": "stack"}, {"dst": "malloc", "src": "stack array"}, "s", "main"),
        (32, "cudaMemcpy3DAsync", "cudaMemcpyHostToDevice", ("src",), {"src": "pageable", "dst": "device"},
         {"src": "p.srcPtr", "dst": "p.dstPtr"}, {"src": "malloc", "dst": "cudaMalloc"}, "s", "main"),
    ]


def test_hip_twins(tmp_path):
    src = """#include <cstdlib>
enum hipMemcpyKind { hipMemcpyHostToHost, hipMemcpyHostToDevice, hipMemcpyDeviceToHost };
typedef struct ihipStream_t* hipStream_t;
int hipMalloc(void** p, size_t n);
int hipHostMalloc(void** p, size_t n, unsigned flags = 0);
int hipMemcpyAsync(void* dst, const void* src, size_t n, hipMemcpyKind kind, hipStream_t s = 0);
int main() {
    void* d; hipMalloc(&d, 64);
    void* pinned; hipHostMalloc(&pinned, 64);
    float* h = (float*)malloc(64);
    hipMemcpyAsync(d, h, 64, hipMemcpyHostToDevice);
    hipMemcpyAsync(pinned, d, 64, hipMemcpyDeviceToHost);
    return 0;
}
"""
    got = [(c.span.line, c.api, c.host_side, {r: p.kind for r, p in c.pointers.items()}) for c in copies(tmp_path, src)]
    assert got == [(11, "hipMemcpyAsync", ("src",), {"dst": "device", "src": "pageable"}),
                   (12, "hipMemcpyAsync", ("dst",), {"dst": "pinned", "src": "device"})]


SRC = """#include <cstdlib>
#include <cstdio>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \\
        fprintf(stderr, "%s\\n", cudaGetErrorString(e_)); exit(1); } } while (0)
int main() {
    float* h = (float*)malloc(1 << 20);
    float* d; CHECK(cudaMalloc(&d, 1 << 20));
    cudaStream_t s; CHECK(cudaStreamCreate(&s));
    cudaMemcpyAsync(d, h, 1 << 20, cudaMemcpyHostToDevice, s);
    CHECK(cudaMemcpyAsync(h, d, 1 << 20, cudaMemcpyDeviceToHost, s));
    return 0;
}
"""


def test_json_output_has_the_exact_range_of_the_call(tmp_path, capsys):
    p = tmp_path / "copy.cu"
    p.write_text(SRC)
    code = main(["check", str(p), "--format", "json", "--select", "CL601"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1
    assert [(d["line"], d["column"], d["end_line"], d["end_column"]) for d in out] == [
        (9, 5, 9, 62),      # cudaMemcpyAsync(...); end_column is one past its ')'
        (10, 11, 10, 68),   # inside CHECK(...): the call as written in the macro argument
    ]
    first = out[0]
    assert first["code"] == "CL601" and first["name"] == "pageable-memcpy-async"
    assert first["severity"] == "warning" and first["kernel"] is None and first["fix"] is None
    assert first["metrics"] == {"host_pointer": "h", "allocation": "malloc", "bytes": 1 << 20}
    assert first["assumptions"][0] == "h allocated with malloc at copy.cu:6"
    assert "`h` was allocated with malloc at copy.cu:6" in first["message"]
    assert "36-37 ms" in first["message"] and "cudaHostRegister" in first["message"]
    assert "5-10 GB/s: 0.1-0.21 ms for these 1 MiB" in first["message"]
    assert out[1]["message"].startswith("cudaMemcpyAsync to pageable host memory")



def test_copy_cost_follows_its_size_and_graph_capture_records_copies(tmp_path, capsys):
    """A copy inside cudaStreamBeginCapture/EndCapture of its stream is recorded into a graph (no finding);
    the message costs a copy of known size (info below a pinned call's 0.05 ms); unknown size: measured only."""
    p = tmp_path / "g.cu"
    p.write_text("""#include <cstdlib>
void f(size_t n, cudaStream_t s, cudaStream_t t, cudaGraph_t* g) {
    float* h = (float*)malloc(n);
    float* d; cudaMalloc(&d, n);
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s);
    cudaMemcpyAsync(d, h, 2 * sizeof(float), cudaMemcpyHostToDevice, t);
    cudaStreamEndCapture(s, g);
    cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s);
    cudaMemcpy2DAsync(d, 4096, h, 4096, 4096, 1024, cudaMemcpyHostToDevice, s);
}
""")
    main(["check", str(p), "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert [(d["line"], d["severity"], d["metrics"].get("bytes")) for d in out] == [
        (7, "info", 8), (9, "warning", None), (10, "warning", 4 << 20)]
    assert "5-10 GB/s: under 0.01 ms for these 8 B" in out[0]["message"]
    assert "256 MiB 36-37 ms from pageable memory, vs 0.01-0.05 ms from cudaMallocHost memory)" in out[1]["message"]
    assert "GB/s" not in out[1]["message"]
    assert "5-10 GB/s: 0.42-0.84 ms for these 4 MiB" in out[2]["message"]


def test_a_library_call_through_a_handle_bound_to_the_stream_is_queued_work(tmp_path, capsys):
    """CUDALibrarySamples' pattern: pageable copies, a cuBLAS call through a handle bound to the copy's stream with
    cublasSetStream, a copy back and a synchronize: the host waits for the copies anyway (info, with the line).  A
    handle bound to another stream, or re-bound to it before the copy, queues work that could overlap (warning).
    The library's check macro is kept unexpanded when its header is missing (the tree-sitter front-end)."""
    p = tmp_path / "blas.cu"
    p.write_text("""#include <vector>
#define CUBLAS_CHECK(x) do { if ((x) != 0) throw 1; } while (0)
typedef struct cublasContext* cublasHandle_t;
int cublasSetStream(cublasHandle_t h, cudaStream_t s);
int cublasSgemv(cublasHandle_t h, int n, const float* x, float* y);
void f(int n, cudaStream_t s, cudaStream_t t, cublasHandle_t h, cublasHandle_t g) {
    std::vector<float> a(n), c(n);
    float *d_a, *d_c;
    cudaMalloc(&d_a, n * 4); cudaMalloc(&d_c, n * 4);
    CUBLAS_CHECK(cublasSetStream(h, s));
    CUBLAS_CHECK(cublasSetStream(g, t));
    cudaMemcpyAsync(d_a, a.data(), n * 4, cudaMemcpyHostToDevice, s);
    CUBLAS_CHECK(cublasSgemv(h, n, d_a, d_c));
    cudaMemcpyAsync(c.data(), d_c, n * 4, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    cudaMemcpyAsync(d_a, a.data(), n * 4, cudaMemcpyHostToDevice, s);
    CUBLAS_CHECK(cublasSgemv(g, n, d_a, d_c));
    cudaStreamSynchronize(s);
    CUBLAS_CHECK(cublasSetStream(h, t));
    cudaMemcpyAsync(d_a, a.data(), n * 4, cudaMemcpyHostToDevice, s);
    CUBLAS_CHECK(cublasSgemv(h, n, d_a, d_c));
    cudaStreamSynchronize(s);
}
""")
    for frontend in ("clang", "tree-sitter"):
        main(["check", str(p), "--format", "json", "--select", "CL601", "--frontend", frontend, "--no-cache"])
        out = json.loads(capsys.readouterr().out)
        assert [(d["line"], d["severity"], d["metrics"].get("host_waits_at_line")) for d in out] == [
            (12, "info", 15), (14, "info", 15), (16, "warning", None), (20, "warning", None)], frontend
        assert "the host waits for it anyway at line 15, so only the staging's lower bandwidth is lost" in \
            out[0]["message"]


def test_a_container_of_known_size_gives_the_copy_its_bytes(tmp_path, capsys):
    """CUDALibrarySamples' inputs: `std::vector<double> A = {1.0, 2.0, 3.0, 4.0}` and `std::vector<int> B(16)` copied
    with `sizeof(T) * v.size()`: 32 and 64 bytes, under a pinned call's time (info, with the bytes); a vector that
    grows (`push_back`) keeps an unknown size (warning)."""
    p = tmp_path / "vec.cu"
    p.write_text("""#include <vector>
using data_type = double;
void f(cudaStream_t stream, data_type* d_A, int* d_B, float* d_C) {
    std::vector<data_type> A = {1.0, 2.0, 3.0, 4.0};
    std::vector<int> B(16);
    static std::vector<float> C(8);  // static: it outlives the copy (a local one would die right after it: info)
    C.push_back(1.0f);
    cudaMemcpyAsync(d_A, A.data(), sizeof(data_type) * A.size(), cudaMemcpyHostToDevice, stream);
    cudaMemcpyAsync(d_B, B.data(), sizeof(int) * B.size(), cudaMemcpyHostToDevice, stream);
    cudaMemcpyAsync(d_C, C.data(), sizeof(float) * C.size(), cudaMemcpyHostToDevice, stream);
    cudaMemset(d_A, 0, 8);
}
""")
    for frontend in ("clang", "tree-sitter"):
        main(["check", str(p), "--format", "json", "--select", "CL601", "--frontend", frontend, "--no-cache"])
        out = json.loads(capsys.readouterr().out)
        assert [(d["line"], d["severity"], d["metrics"].get("bytes")) for d in out] == [
            (8, "info", 32), (9, "info", 64), (10, "warning", None)], frontend
        assert "5-10 GB/s: under 0.01 ms for these 32 B" in out[0]["message"]


def test_statements_that_call_nothing_between_a_default_stream_copy_and_the_wait(tmp_path, capsys):
    """HeCBench's bsw: copies on the default stream, then arithmetic, `dim3` declarations, output lines and a launch
    on that stream before `cudaDeviceSynchronize()`: the host waits for the copies anyway (info)."""
    p = tmp_path / "bsw.cu"
    p.write_text("""#include <cstdio>
#include <cstdlib>
__global__ void k(unsigned* a) { a[threadIdx.x] = 0; }
void f(unsigned* d, int n) {
    unsigned* h = (unsigned*)malloc(n * sizeof(unsigned));
    cudaMemcpyAsync(d, h, sizeof(unsigned) * n, cudaMemcpyHostToDevice, 0);
    unsigned m = (n < 256) ? n : 256;
    printf("block %u\\n", m);
    dim3 grid(n / m);
    k<<<grid, m>>>(d);
    cudaDeviceSynchronize();
}
""")
    for frontend in ("clang", "tree-sitter"):
        main(["check", str(p), "--format", "json", "--select", "CL601", "--frontend", frontend, "--no-cache"])
        out = json.loads(capsys.readouterr().out)
        assert [(d["line"], d["severity"], d["metrics"].get("host_waits_at_line")) for d in out] == [
            (6, "info", 11)], frontend


def test_an_argument_that_is_a_macro_is_named_as_written(tmp_path):
    """A copy's argument that is an object-like macro defined above (`BUF`, `STREAM`) is named by the macro as written;
    the cursor's own extent runs from the macro's definition to its use, and its tokens (everything in between:
    2,262 for one argument in cuda-samples' cudaTensorCoreGemm) were taken as the argument's text. An argument written
    inside a macro's argument list keeps its own tokens."""
    src = """#define BUF h_buf
#define STREAM s
#define CHECK(call) do { if ((call) != cudaSuccess) return 1; } while (0)
int main() {
    float *h_buf = (float *)malloc(4096), *d;
    cudaStream_t s;
    cudaMalloc(&d, 4096);
    cudaMemcpyAsync(d, BUF, 4096, cudaMemcpyHostToDevice, STREAM);
    CHECK(cudaMemcpyAsync(d, h_buf + 8, 64, cudaMemcpyHostToDevice, s));
    return 0;
}
"""
    found = copies(tmp_path, src)
    assert [(c.span.line, c.pointer_text["src"], c.stream) for c in found] == [
        (8, "BUF", "STREAM"), (9, "h_buf + 8", "s")]
