"""Issue 10, causes 4, 5, 7 and 11: active lanes, vector merging, proven misalignment, costs in proportion.

Each test lints a kernel of our own (as a user runs cudalint) and asserts the finding's code, line,
metrics and message; the fixtures in fixtures/global/ hold the measured-style programs."""

from pathlib import Path

from cudalint.runner import RunOptions, lint_file


def lint(tmp_path: Path, src: str):
    p = tmp_path / "k.cu"
    p.write_text(src)
    return lint_file(str(p), RunOptions())


def found(diags, code=None):
    return [(d.code, d.line, d.metrics) for d in diags if code is None or d.code == code]


# --- cause 4: active lanes -------------------------------------------------------------------------

def test_one_active_lane_is_its_own_ideal_without_a_launch(tmp_path):
    # no launch: blockDim unknown, yet `threadIdx.x == 0` leaves one lane, which needs one sector
    src = """
__global__ void k(const float *in, float *out) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) out[blockIdx.x] = in[tid * 64];
  out[tid] = in[tid * 64];
}
"""
    assert found(lint(tmp_path, src)) == [
        ("CL101", 5, {"sectors_per_request": 32, "ideal_sectors_per_request": 4, "efficiency": 0.125,
                      "stride_bytes": 256})]


def test_else_branch_gets_the_lanes_the_condition_leaves_out(tmp_path):
    src = """
__global__ void k(float *a, float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 32 < 8) a[32 * i] = 1.0f;
  else b[32 * i] = 2.0f;
}
int main() { k<<<64, 256>>>(0, 0); }
"""
    got = found(lint(tmp_path, src))
    assert [(c, ln, m["sectors_per_request"], m["ideal_sectors_per_request"]) for c, ln, m in got] == [
        ("CL101", 4, 8, 1), ("CL101", 5, 24, 3)]


def test_bit_test_guard_message_says_lanes_are_left_out_not_a_stride(tmp_path):
    src = """
__global__ void k(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x & 1) out[i] = 1.0f;
}
int main() { k<<<64, 256>>>(0, 0); }
"""
    (d,) = lint(tmp_path, src)
    assert (d.code, d.line, d.metrics["sectors_per_request"], d.metrics["ideal_sectors_per_request"]) == \
        ("CL101", 4, 4, 2)
    assert "the condition leaves lanes of each warp out" in d.message
    assert "index by `tid / 2`" in d.message and "bytes apart" not in d.message


def test_guard_depending_on_the_block_abstains(tmp_path):
    # blocks differ in which lanes take `i < 1000`: every lane is counted (no 24-lane guess)
    src = """
__global__ void k(float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 1000) b[32 * i] = 2.0f;
}
int main() { k<<<64, 256>>>(0); }
"""
    assert found(lint(tmp_path, src))[0][2]["sectors_per_request"] == 32


def test_loop_counter_guard_states_average_and_worst_trip(tmp_path):
    src = """
__global__ void k(const float *in, float *out) {
  float acc = 0.0f;
  for (int m = 0; m < 16; m++)
    if (threadIdx.x <= m) acc += in[threadIdx.x * 16 + m];
  out[threadIdx.x] = acc;
}
int main() { k<<<1, 16>>>(0, 0); }
"""
    d = lint(tmp_path, src)[0]
    # trip m: lanes 0..m, 64 bytes apart (m + 1 sectors); 8.5 on average, 16 in the last trip
    assert (d.code, d.line) == ("CL101", 5)
    assert d.metrics["sectors_per_request"] == 8.5 and d.metrics["worst_sectors_per_request"] == 16
    assert "8.50 sectors per request on average over the loop's trips (16 in the costliest)" in d.message


# --- cause 7: CL102 only on a misalignment the code shows -------------------------------------------

def test_run_time_offset_alone_is_not_a_finding_but_a_constant_or_odd_rows_are(tmp_path):
    src = """
__global__ void k(const float *in, float *out, int offset, int width) {
  int i = blockIdx.x * 256 + threadIdx.x;
  out[i] = in[i + offset];
  out[i] = in[blockIdx.x * width + threadIdx.x];
  out[i] = in[i + 3];
  out[i] = in[blockIdx.x * 300 + threadIdx.x];
}
int main() { k<<<64, 256>>>(0, 0, 32, 4096); }
"""
    got = [(d.code, d.line, d.metrics, d.message) for d in lint(tmp_path, src)]
    assert [(c, ln, m["sectors_per_request"]) for c, ln, m, _ in got] == [("CL102", 6, 5), ("CL102", 7, 4.5)]
    assert "its offset is 12 bytes past a 32-byte sector boundary" in got[0][3]
    assert got[1][2]["worst_sectors_per_request"] == 5
    assert "starts warps 0, 16 bytes past a 32-byte sector boundary" in got[1][3]
    assert "4.50 sectors per request on average (5 in the worst case)" in got[1][3]
    # the message never names a symbol it assumes aligned
    assert all("width" not in msg and "offset`" not in msg for *_, msg in got)


# --- cause 5: what nvcc emits (SASS evidence in cudalint/analysis/merge.py) --------------------------

def test_vector_fields_merge_into_one_access_as_nvcc_emits(tmp_path):
    src = """
struct P { float x, y; };
__global__ void k(const float2 *p, const float4 *q, const P *r, const float *f, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[i].x + p[i].y;
  out[i] = q[i].x + q[i].z;
  out[i] = r[i].x + r[i].y;
  out[i] = f[2 * i] + f[2 * i + 1];
}
__global__ void s(float *out) {
  __shared__ float t[512];
  t[threadIdx.x] = 0.0f;
  __syncthreads();
  out[threadIdx.x] = t[2 * threadIdx.x] + t[2 * threadIdx.x + 1];
}
int main() { k<<<64, 256>>>(0, 0, 0, 0, 0); s<<<64, 256>>>(0); }
"""
    got = [(d.code, d.line, d.metrics["sectors_per_request"]) for d in lint(tmp_path, src)]
    # float2 .x + .y: one LDG.E.64 (clean); float4 .x + .z: two LDG.E (16 sectors each, a gap between);
    # struct {float x, y} (align 4): two LDG.E; through float*: two LDG.E; shared t[2t], t[2t+1]: LDS.64
    assert got == [("CL101", 6, 16), ("CL101", 6, 16), ("CL101", 7, 8), ("CL101", 7, 8),
                   ("CL101", 8, 8), ("CL101", 8, 8)]


def test_an_8_byte_conflict_counts_wavefronts_over_its_two_phases(tmp_path):
    # A first user's trial: `16-way ... takes 16 wavefronts instead of 1 at worst (32.00 ... on average)`, a worst
    # below the average. An 8-byte request is served in 2 phases of 16 lanes: 16 ways in each, 32 wavefronts, 2 ideal.
    d = lint(tmp_path, "__global__ void t(double *o) {\n  __shared__ double c[32][32];\n"
                       "  c[threadIdx.x][threadIdx.y] = 1.0;\n  __syncthreads();\n"
                       "  o[threadIdx.y * 32 + threadIdx.x] = c[threadIdx.y][threadIdx.x];\n}\n"
                       "int main() { double *o; t<<<1, dim3(32, 32)>>>(o); }\n")
    assert found(d, "CL201") == [("CL201", 3, {"bank_conflict_ways": 16, "wavefronts_per_request": 32})]
    assert d[0].message == (
        "16-way shared-memory bank conflict on store of `c`: lanes are 64 words apart, so 16 distinct words fall in "
        "one bank in its worst phase (an 8-byte request is served in 2 phases) and the request takes 32 wavefronts "
        "instead of 2; pad the row: `__shared__ double c[32][33];`")


def test_field_updates_merge_when_the_stores_between_cannot_overlap(tmp_path):
    # HeCBench's f16sp (judged false: "2-way"): `v[l].x += v[l + i].x; v[l].y += v[l + i].y;` on a float2 is
    # LDS.64 + STS.64 (fixtures/shared/field_update.cu); the store to `v[l].x` lies 8*i + 4 bytes from `v[l + i].y`
    src = """
__global__ void k(const float2 *in, float *out, int i) {
  __shared__ float2 v[256];
  const int l = threadIdx.x;
  v[l] = in[blockIdx.x * 256 + l];
  __syncthreads();
  v[l].x += v[l + i].x;
  v[l].y += v[l + i].y;
  __syncthreads();
  out[blockIdx.x * 256 + l] = v[l].x;
}
__global__ void m(float *f, float *out, int i) {
  __shared__ float v[512];
  const int l = threadIdx.x;
  v[2 * l] = f[l];
  __syncthreads();
  v[2 * l] += v[2 * l + i];
  v[2 * l + 1] += v[2 * l + 1 + i];
  __syncthreads();
  out[l] = v[2 * l];
}
int main() { k<<<64, 256>>>(0, 0, 1); m<<<64, 256>>>(0, 0, 1); }
"""
    # k: the updates on lines 7-8 merge (no finding); `v[l].x` alone on line 10 is a 4-byte load at an 8-byte
    # stride (2-way, as nvcc issues it). m: the load at `2*l + i` may start mid-pair (no LDS.64), and the store to
    # `v[2*l]` may be what `v[2*l + 1 + i]` reads (i = -1): every access stays 4 bytes, 2 words apart (2-way)
    got = [(d.line, d.column, d.metrics.get("bank_conflict_ways")) for d in lint(tmp_path, src) if d.code == "CL201"]
    assert got == [(10, 31, 2), (15, 3, 2), (17, 3, 2), (17, 15, 2), (18, 3, 2), (18, 19, 2), (20, 12, 2)]


def test_disjoint_offsets():
    import sympy

    from cudalint.analysis.merge import disjoint
    from cudalint.model import Access, AddressSpace, ArrayDecl
    from cudalint.analysis.symbols import TID

    t, i = TID[0], sympy.Symbol("i", integer=True)
    arr = ArrayDecl("v", AddressSpace.SHARED, "float", 4)

    def acc(off, size=4):
        return Access(array=arr, offset=sympy.sympify(off), size=size, is_read=True, is_write=False, span=None)

    assert disjoint(acc(8 * t), acc(8 * t + 4))                      # the next field
    assert not disjoint(acc(8 * t), acc(8 * t + 2))                  # overlapping bytes
    assert disjoint(acc(8 * t), acc(8 * t + 8 * i + 4))              # 8*i + 4: never 0 .. 3
    assert not disjoint(acc(8 * t), acc(8 * t + 8 * i))              # i may be 0
    assert disjoint(acc(8 * t), acc(8 * t + 8 * i), frozenset({i}))  # i at least 1
    assert not disjoint(acc(8 * t, 8), acc(8 * t + 8 * i + 4))       # an 8-byte access covers the 4
