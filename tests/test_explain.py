"""`cudalint explain FILE:LINE`: the warp's picture, as plain text (rich without colour)."""

import io
from pathlib import Path

from rich.console import Console

from cudalint.cli import main
from cudalint.explain import run_explain

ROOT = Path(__file__).resolve().parents[1]


def picture(location: str, **kw):
    buf = io.StringIO()
    console = Console(file=buf, width=200, record=True, color_system=None, force_terminal=False)
    code = run_explain(location, console=console, **kw)
    return code, buf.getvalue()


def test_shared_column_read_puts_all_lanes_in_bank_zero():
    code, out = picture(f"{ROOT}/fixtures/shared/transpose_tile.cu:23")
    assert code == 0
    assert "offset (bytes) = 128*threadIdx.x + 4*threadIdx.y" in out
    assert "│ 0    │ w0 (0), w32 (1), w64 (2)" in out
    assert "banks not used: 31" in out
    assert "conflict degree: 32-way; 32 wavefront(s) for this warp's request" in out


def test_global_stride_two_lists_lanes_sectors_and_lines():
    code, out = picture(f"{ROOT}/fixtures/global/stride.cu:25")
    assert code == 0
    # lane 5 of warp 0 reads byte 40 -> sector 1, line 0
    assert "│    5 │   (5,0,0) │          40 │         1 │          0 │" in out
    assert "sectors/request 8 (ideal 4), efficiency 50.0%" in out
    assert "line        0 (byte          0): [#][#][#][#]" in out


def test_misaligned_offset_is_drawn_at_its_residue():
    code, out = picture(f"{ROOT}/fixtures/global/misaligned.cu:22")
    assert "│    0 │   (0,0,0) │           4 │         0 │" in out
    assert "sectors/request 5 (ideal 4), efficiency 80.0%" in out


def test_constant_reads_count_distinct_addresses():
    code, out = picture(f"{ROOT}/fixtures/constant/constant_reads.cu:47")
    assert "4 distinct address(es) -> 4 request(s) per warp" in out


def test_html_page_and_usage_errors(tmp_path, capsys):
    html = tmp_path / "warp.html"
    code, _ = picture(f"{ROOT}/fixtures/shared/stride2.cu:26", html=str(html))
    page = html.read_text()
    assert code == 0 and page.lower().startswith("<!doctype html>") and "conflict degree:" in page
    assert main(["explain", "fixtures/shared/stride2.cu"]) == 2
    assert "expected FILE:LINE" in capsys.readouterr().err
    code, out = picture(f"{ROOT}/fixtures/shared/stride2.cu:1")
    assert code == 1 and "no global, shared or constant access, barrier or finding" in out


def test_loop_counters_are_the_users_names_and_lines_are_whole_at_80_columns():
    """A loop's trip counter is shown as the loop's own counter (`j`, `t`), never as cudalint's internal
    `k@12.3`; the location and the assumptions are whole lines even at the 80 columns of a pipe."""
    buf = io.StringIO()
    console = Console(file=buf, width=80, color_system=None, force_terminal=False)
    assert run_explain(f"{ROOT}/fixtures/global/fixed_trip_loops.cu:12", console=console) == 0
    out = buf.getvalue()
    assert "offset (bytes) = 4*blockDim.x*blockIdx.x + 4*j*width + 16*t*width + 4*threadIdx.x\n" in out
    assert f"at {ROOT}/fixtures/global/fixed_trip_loops.cu:12:47\n" in out
    assert f"assumption: blockDim = (256, 1, 1) from launch at {ROOT}/fixtures/global/fixed_trip_loops.cu:38\n" in out
    assert "k@" not in out


def test_a_loop_without_a_unit_counter_is_named_by_its_line():
    from cudalint.rules import spell
    import sympy
    k = sympy.Symbol("k@17.4")
    assert spell(4 * k + sympy.Symbol("stride#12")) == "4*trip17 + stride"
    assert spell(sympy.Symbol("k@row:9.2") * 8) == "8*row"


def test_a_shared_offset_every_lane_adds_moves_the_banks_shown(tmp_path):
    # a new user's `s[2 * threadIdx.x + 3]`: lane 0 reads word 3 (bank 3), lane 16 word 35 (bank 3); the table
    # numbered words from the lanes' own part (w0 in bank 0) and said so nowhere
    src = tmp_path / "b.cu"
    src.write_text("__global__ void k(float *out, int base) {\n  __shared__ float s[256];\n"
                   "  s[threadIdx.x] = threadIdx.x;\n  __syncthreads();\n"
                   "  out[threadIdx.x] = s[2 * threadIdx.x + 3] + s[2 * threadIdx.x + base];\n}\n"
                   "int main() { float *o; k<<<1, 32>>>(o, 7); k<<<1, 32>>>(o, 9); }\n")
    code, out = picture(f"{src}:5")
    assert code == 0
    assert "│ 3    │ w3 (0), w35 (16)   │ 2              │" in out
    assert "│ 1    │ w33 (15), w65 (31) │ 2              │" in out
    # `base` differs between the launches: the words are numbered from it, and the output says so
    assert ("the part of the offset every lane shares is not a number: words are numbered from it, so the banks shown "
            "are relative (the conflict is the same wherever it starts)") in out
    assert "conflict degree: 2-way; 2 wavefront(s) for this warp's request" in out


BARRIERS = """\
__global__ void k(float *out, int n) {
  __shared__ float t[256];
  if (threadIdx.x < n) {
    t[threadIdx.x] = 1.0f;
    __syncthreads();
  }
  if (n > 4)
    __syncthreads();
  out[threadIdx.x] = t[threadIdx.x];
}
void h(float *o, int n) { k<<<1, 256>>>(o, n); }
"""


def test_a_barrier_line_shows_its_conditions_and_verdict(tmp_path):
    """A new user's `explain` on a CL301 line said "no access modelled" and exited 1: a barrier is explained by
    the conditions it sits under, each marked, and the finding with its assumption."""
    f = tmp_path / "b.cu"
    f.write_text(BARRIERS)
    code, out = picture(f"{f}:5")
    assert code == 0
    assert "k: barrier `__syncthreads`" in out and f"at {f}:5:5\n" in out
    assert "under the condition on line 3: threadIdx.x < n (depends on the thread)\n" in out
    assert f"CL301 error at {f}:5:5: `__syncthreads` is under a condition that depends on the thread (line 3)" in out
    assert "assumption: condition on line 3 is thread-dependent\n" in out
    code, out = picture(f"{f}:8")
    assert code == 0 and "CL301" not in out
    assert "under the condition on line 7: n > 4 (uniform or unknown)\n" in out
    assert "no finding: no condition above is shown to depend on the thread" in out
    code, out = picture(f"{f}:6")
    assert code == 1 and "no global, shared or constant access, barrier or finding on" in out


def test_a_finding_the_configuration_ignores_is_explained_and_said_to_be_hidden(tmp_path):
    # a new user's trial: with `ignore = ["CL302"]` in .cudalint.toml, `explain` on the barrier said "no finding: ...
    # no thread is shown to leave before it", contradicting what the code is (the early `return` on line 4); the
    # launch's last block straddles n (8000 items in 63 blocks of 128: with 8192 no thread returns, no CL302)
    (tmp_path / "multi.cu").write_text(
        "__global__ void k(float *out, int n) {\n  __shared__ float s[128];\n  int t = threadIdx.x;\n"
        "  if (blockIdx.x * 128 + t >= n) return;\n  s[t] = out[blockIdx.x * 128 + t];\n  __syncthreads();\n"
        "  out[blockIdx.x * 128 + t] = s[127 - t];\n}\nint main() { k<<<63, 128>>>(0, 8000); }\n")
    (tmp_path / ".cudalint.toml").write_text('ignore = ["CL302"]\n')
    code, text = picture(f"{tmp_path}/multi.cu:6")
    assert code == 0
    assert "no finding" not in text
    assert "CL302 info at" in text and text.rstrip().endswith(
        "(not reported by `check` here: the configuration does not select CL302)\nassumption: `return` at line 4")


def test_a_line_nvcc_merges_into_the_line_above_is_drawn_as_the_merged_access(tmp_path):
    # `out[i].x = ..` and `out[i].y = ..` of a float2 on two lines are one STG.E.64 (fixtures/global/component_lines.cu)
    src = tmp_path / "k.cu"
    src.write_text("__global__ void k(float2 *out, const float *a) {\n"
                   "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                   "    out[i].x = a[i];\n"
                   "    out[i].y = 2.0f * a[i];\n"
                   "}\n"
                   "int main() { float2 *o; float *a; k<<<64, 256>>>(o, a); }\n")
    code, out = picture(f"{src}:4")
    assert code == 0
    assert "nvcc merges the store on this line with the one on line 3 into one 8-byte store: drawn as that access" in out
    assert "sectors/request 8 (ideal 8), efficiency 100.0%" in out
    code, out = picture(f"{src}:3")
    assert "nvcc merges" not in out and "sectors/request 8 (ideal 8)" in out
