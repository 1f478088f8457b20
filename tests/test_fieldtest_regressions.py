"""Regressions found by running cudalint on public CUDA samples (reproductions written from scratch)."""

from pathlib import Path

from cudalint.runner import RunOptions, build_model, lint_file


def lint(tmp_path: Path, src: str):
    p = tmp_path / "k.cu"
    p.write_text(src)
    return lint_file(str(p), RunOptions())


OFFSET_KERNEL = """
template <class T, unsigned int B>
__global__ void addOffset(T *out, const T *in) {
  unsigned int i = blockIdx.x * (B * 2) + threadIdx.x;
  out[i] = in[i + B];
}
"""


def test_launch_inside_a_template_host_function_binds_shape_and_template_arguments(tmp_path):
    # `k<T, 256><<<g, 256>>>` in `template <class T> void run()` is a dependent call: its name and its
    # integral template argument must still be found, so B = 256 (1024 bytes: aligned) and blockDim = 256.
    src = OFFSET_KERNEL + """
template <class T>
void run(T *out, const T *in, int blocks) {
  addOffset<T, 256><<<blocks, 256>>>(out, in);
}
template void run<float>(float *, const float *, int);
"""
    p = tmp_path / "k.cu"
    p.write_text(src)
    model = build_model(str(p), src, RunOptions())
    site = next(s for s in model.launches if s.kernel == "addOffset")
    assert site.block == (256, 1, 1)
    assert site.template_args == ("T", 256)
    assert [d.code for d in lint_file(str(p), RunOptions())] == []


def test_launch_in_template_host_function_with_unaligned_argument_still_reported(tmp_path):
    src = OFFSET_KERNEL + """
template <class T>
void run(T *out, const T *in, int blocks) {
  addOffset<T, 3><<<blocks, 256>>>(out, in);
}
"""
    diags = lint(tmp_path, src)
    # B = 3: `in[i + 3]` is 12 bytes past a sector, and the block base 6*blockIdx.x floats is too
    assert {d.code for d in diags} == {"CL102"}
    assert any("load of `in`" in d.message for d in diags)


def test_modulo_by_a_product_of_run_time_powers_of_two(tmp_path):
    # `t % (2 * s)` with s doubled each trip divides by a run-time power of two, like `t % s`.
    src = """
__global__ void tree(float *buf) {
  unsigned int t = threadIdx.x;
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if (t % (2 * s) == 0) buf[t] += 1.0f;
    __syncthreads();
  }
}
"""
    diags = [d for d in lint(tmp_path, src) if d.code == "CL501"]
    assert len(diags) == 1 and diags[0].line == 5 and "(2 * s)" in diags[0].message
    assert diags[0].severity.value == "warning" and "once per thread" not in diags[0].message


def test_cl501_index_arithmetic_once_per_thread_is_info(tmp_path):
    src = "__global__ void k(int *o) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i / warpSize] = i; }\n"
    (d,) = [d for d in lint(tmp_path, src) if d.code == "CL501"]
    assert (d.line, d.severity.value, d.metrics) == (1, "info", {"instructions_ratio": 2.99})
    assert d.message.endswith("`>> 5` on an unsigned value; executed once per thread here, outside any loop")


def test_cl102_message_without_a_named_run_time_value_reads_well(tmp_path):
    src = """
__global__ void tree(float *buf) {
  unsigned int t = threadIdx.x;
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    buf[t] += buf[t + s];
    __syncthreads();
  }
}
"""
    # blockDim unknown: s's values are not known, and a run-time misalignment is not a finding (issue 10)
    assert [d for d in lint(tmp_path, src) if d.code == "CL102"] == []
    (d,) = [d for d in lint(tmp_path, src + "int main() { tree<<<1, 256>>>(0); }\n") if d.code == "CL102"]
    # s = 1, 2, 4 put the load 4, 8, 16 bytes into a sector (5 sectors), s = 8 ... 128 do not (4)
    assert (d.line, d.metrics["sectors_per_request"], d.metrics["worst_sectors_per_request"]) == (5, 4.38, 5)
    assert "the loop's trips shift its offset off a 32-byte sector boundary" in d.message


def test_shared_memory_handed_out_by_a_conversion_operator_is_modelled(tmp_path):
    # The samples' `SharedMemory<T>` idiom: a device conversion operator returns `extern __shared__`
    # memory. Its body is inlined like a device function, so the strided store is seen (2 ways).
    src = """
template <class T> struct Scratch {
  __device__ operator T *() { extern __shared__ int words[]; return (T *)words; }
};
__global__ void strided(float *out) {
  float *s = Scratch<float>();
  s[2 * threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
int main() { float *o; strided<<<1, 32, 256>>>(o); }
"""
    diags = lint(tmp_path, src)
    assert [(d.code, d.line, d.metrics.get("bank_conflict_ways")) for d in diags] == [("CL201", 7, 2)]
    assert "`words`" in diags[0].message


def test_conflict_between_the_rows_of_a_warp_is_explained(tmp_path):
    # blockDim (16, 4): each warp holds two rows of a 160-word-wide 1-D tile; unit stride along x, but the
    # two rows land in the same banks (160 = 5 * 32): the message says so instead of "1 words apart".
    src = """
__global__ void rows(float* out) {
    __shared__ float t[4 * 160];
    t[threadIdx.y * 160 + threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = t[threadIdx.x];
}
int main() { float* o; rows<<<1, dim3(16, 4)>>>(o); }
"""
    (d,) = lint(tmp_path, src)
    assert (d.code, d.line, d.metrics["bank_conflict_ways"]) == ("CL201", 4, 2)
    assert "the warp spans several rows (threadIdx.y) whose words land in the same banks" in d.message
    # the pad that removes it: the second row must start 16 banks on (161 words, odd, would still conflict)
    assert d.message.endswith("; pad each row from 160 to 176 elements")
    (d,) = lint(tmp_path, src.replace("160", "17"))  # already odd: 17 + 31 = 48 = 16 (mod 32)
    assert (d.line, d.metrics["bank_conflict_ways"]) == (4, 2)
    assert d.message.endswith("; pad each row from 17 to 48 elements")


def test_reversed_unit_stride_is_a_misalignment_not_a_stride(tmp_path):
    # lanes 4 bytes apart descending: aligned when lane 0 reads a sector's last element (n - 1 - tid)
    src = """__global__ void rev(const float* in, float* out, int n) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    out[tid] = in[n - tid] + in[n - 1 - tid];
}
int main() { float *a, *b; rev<<<4, 256>>>(a, b, 1024); }
"""
    (d,) = lint(tmp_path, src)
    assert (d.code, d.line, d.column, d.metrics) == ("CL102", 3, 16, {
        "sectors_per_request": 5, "ideal_sectors_per_request": 4, "efficiency": 0.8})
    assert "a reversed unit stride) from byte 0 of a 32-byte sector instead of its last element (byte 28)" \
        in d.message and d.message.endswith("subtract 1 from the index so that lane 0 reads the last element "
                                            "of a sector (`n - 1 - tid`, not `n - tid`)")
