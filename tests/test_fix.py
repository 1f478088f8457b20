"""``--fix`` and ``--diff`` (issue 5, item 7): CL201's padding, atomic writes, never writing what does not parse."""

import os
import stat

import pytest

import cudalint.rules.cl201_shared_bank_conflict as cl201
from cudalint.cli import main
from cudalint.diagnostics import Diagnostic, Edit, Fix, Severity
from cudalint.fix import apply_fixes, write_atomic

TRANSPOSE = """\
__global__ void transpose(float* out, const float* in, int n) {
    __shared__ float tile[32][32];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}
"""
FINDING = ("{path}:9:22: CL201 [shared-bank-conflict] 32-way shared-memory bank conflict on load of `tile`: lanes "
           "are 32 words apart, so 32 distinct words fall in one bank and the request takes 32 wavefronts instead "
           "of 1; pad the row: `__shared__ float tile[32][33];`\n")


def run(capsys, *argv):
    code = main([*map(str, argv)])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def kernel(tmp_path):
    f = tmp_path / "transpose.cu"
    f.write_text(TRANSPOSE)
    return f


def test_diff_prints_the_fix_and_writes_nothing(kernel, capsys):
    before = kernel.stat()
    code, out, err = run(capsys, "check", "--diff", kernel)
    assert out == (f"--- {kernel}\n+++ {kernel}\n"
                   "@@ -1,5 +1,5 @@\n"
                   " __global__ void transpose(float* out, const float* in, int n) {\n"
                   "-    __shared__ float tile[32][32];\n"
                   "+    __shared__ float tile[32][33];\n"
                   "     int x = blockIdx.x * 32 + threadIdx.x;\n"
                   "     int y = blockIdx.y * 32 + threadIdx.y;\n"
                   "     tile[threadIdx.y][threadIdx.x] = in[y * n + x];\n")
    assert err == "Would fix 1 finding in 1 file.\n"
    assert code == 1
    assert kernel.read_text() == TRANSPOSE and kernel.stat().st_mtime_ns == before.st_mtime_ns
    assert run(capsys, "check", "--diff", "--exit-zero", kernel)[0] == 0


def test_diff_keeps_a_macro_extent(tmp_path, capsys):
    f = tmp_path / "k.cu"
    f.write_text(TRANSPOSE.replace("#", "").replace("__global__", "#define TILE 32\n__global__", 1)
                 .replace("tile[32][32]", "tile[TILE][TILE]"))
    code, out, _ = run(capsys, "check", "--diff", f)
    assert "-    __shared__ float tile[TILE][TILE];\n+    __shared__ float tile[TILE][TILE + 1];\n" in out


def test_fix_pads_the_tile_and_the_relint_is_clean(kernel, capsys):
    code, out, err = run(capsys, "check", kernel)
    assert (code, out) == (1, FINDING.format(path=kernel) + "Found 1 finding (0 error, 1 warning, 0 info) in 1 file.\n")
    code, out, err = run(capsys, "check", "--fix", kernel)
    assert kernel.read_text() == TRANSPOSE.replace("tile[32][32]", "tile[32][33]")
    assert out == "Fixed 1 finding in 1 file.\nFound 0 findings (0 error, 0 warning, 0 info) in 1 file.\n"
    assert (code, err) == (0, "")
    assert run(capsys, "check", "--fix", kernel)[1] == ("No fixes available.\n"
                                                        "Found 0 findings (0 error, 0 warning, 0 info) in 1 file.\n")


def test_fix_reports_what_remains(tmp_path, capsys):
    f = tmp_path / "k.cu"
    f.write_text(TRANSPOSE.replace("out[y * n + x] =", "out[32 * (y * n + x)] ="))
    code, out, _ = run(capsys, "check", "--fix", f)
    lines = out.splitlines()
    assert lines[0] == "Fixed 1 finding in 1 file."
    assert [ln.split()[1] for ln in lines[1:-1]] == ["CL101"]
    # the transposed store of a 2-D kernel no launch shapes: info, with the 16 x 16 count (session 41)
    assert lines[-1] == "Found 1 finding (0 error, 0 warning, 1 info) in 1 file."
    assert code == 1 and "tile[32][33]" in f.read_text()


def test_fix_with_json_reports_on_stderr(kernel, capsys):
    code, out, err = run(capsys, "check", "--fix", "--format", "json", kernel)
    assert (code, out, err) == (0, "[]\n", "Fixed 1 finding in 1 file.\n")


def test_fix_is_refused_when_the_result_would_not_parse(kernel, capsys, monkeypatch):
    real = cl201.Edit

    def broken(line, column, end_line, end_column, content):  # the fix now writes `tile[32][33 +]`
        return real(line, column, end_line, end_column, content + " +")

    monkeypatch.setattr(cl201, "Edit", broken)
    code, out, err = run(capsys, "check", "--fix", kernel)
    assert kernel.read_text() == TRANSPOSE
    assert err == (f"cudalint: not fixing {kernel}: the fixed text would not parse (expected expression)\n")
    assert out == ("No fixes available.\n" + FINDING.format(path=kernel)
                   + "Found 1 finding (0 error, 1 warning, 0 info) in 1 file.\n")
    assert code == 1
    code, out, err = run(capsys, "check", "--diff", kernel)  # --diff shows only what --fix would write
    assert (code, out) == (0, "")
    assert err.endswith("No fixes available.\n")


def test_errors_the_original_already_has_do_not_block_the_fix(tmp_path, capsys):
    f = tmp_path / "k.cu"
    f.write_text(TRANSPOSE + "void host() { undeclared_function(); }\n")
    assert run(capsys, "check", "--fix", f)[1].startswith("Fixed 1 finding in 1 file.\n")
    assert "tile[32][33]" in f.read_text()


@pytest.mark.parametrize("mode", [0o640, 0o755, 0o600])
def test_fix_writes_atomically_and_keeps_the_mode(kernel, capsys, monkeypatch, mode):
    kernel.chmod(mode)
    replaced = []
    real_replace = os.replace

    def spy(src, dst):
        replaced.append((os.path.dirname(src), stat.S_IMODE(os.stat(src).st_mode), dst))
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    run(capsys, "check", "--no-cache", "--fix", kernel)  # only the fix's write is spied on
    assert replaced == [(str(kernel.parent), mode, str(kernel))]  # a temporary file in the same folder
    assert stat.S_IMODE(kernel.stat().st_mode) == mode
    assert sorted(p.name for p in kernel.parent.iterdir()) == ["transpose.cu"]  # no temporary file left


def test_a_failed_write_leaves_the_file_and_no_temporary(tmp_path, monkeypatch):
    f = tmp_path / "k.cu"
    f.write_text("old\n")

    def boom(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        write_atomic(str(f), b"new\n")
    assert f.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["k.cu"]


def test_fix_through_a_symlink_writes_the_target(kernel, tmp_path, capsys):
    link = tmp_path / "link.cu"
    link.symlink_to(kernel)
    run(capsys, "check", "--fix", link)
    assert link.is_symlink() and "tile[32][33]" in kernel.read_text()


def _diag(line, col, end_col, content, code="CL201"):
    return Diagnostic(code=code, name="x", severity=Severity.WARNING, path="k.cu", line=line, column=col,
                      end_line=line, end_column=end_col, message="m",
                      fix=Fix("f", (Edit(line, col, line, end_col, content),)))


def test_apply_fixes_skips_overlaps_and_shares_identical_edits():
    text = "float a[32][32];\nfloat b[32][32];\n"
    same1, same2 = _diag(1, 13, 15, "33"), _diag(1, 13, 15, "33")
    overlap = _diag(1, 14, 16, "0]")  # starts inside the first edit: taken in source order, so dropped
    other = _diag(2, 13, 15, "34")
    fixed, done = apply_fixes(text, [other, overlap, same1, same2])
    assert fixed == "float a[32][33];\nfloat b[32][34];\n"
    assert done == [same1, same2, other]


def test_apply_fixes_counts_bytes_and_keeps_crlf():
    text = "// \u00e9t\u00e9\r\nfloat a[32][32];\r\n"  # clang's columns count bytes: 'é' is two
    fixed, _ = apply_fixes(text, [_diag(2, 13, 15, "33")])
    assert fixed == "// \u00e9t\u00e9\r\nfloat a[32][33];\r\n"
    fixed, _ = apply_fixes("float \u00e9[32][32];\n", [_diag(1, 14, 16, "33")])
    assert fixed == "float \u00e9[32][33];\n"


def test_fix_keeps_a_byte_order_mark(kernel, capsys):
    kernel.write_bytes(b"\xef\xbb\xbf" + TRANSPOSE.encode())
    run(capsys, "check", "--fix", kernel)
    assert kernel.read_bytes() == b"\xef\xbb\xbf" + TRANSPOSE.replace("tile[32][32]", "tile[32][33]").encode()


def test_diff_is_a_patch_git_apply_takes(tmp_path, capsys, monkeypatch):
    import shutil
    import subprocess
    monkeypatch.chdir(tmp_path)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "transpose.cu").write_text(TRANSPOSE)
    code, out, _ = run(capsys, "check", "--diff", ".")
    assert out.startswith("--- a/src/transpose.cu\n+++ b/src/transpose.cu\n@@ -1,5 +1,5 @@\n")
    if shutil.which("git"):
        (tmp_path / "fix.patch").write_text(out)
        subprocess.run(["git", "init", "-q"], check=True)
        r = subprocess.run(["git", "apply", "fix.patch"], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        assert "tile[32][33]" in (tmp_path / "src" / "transpose.cu").read_text()
