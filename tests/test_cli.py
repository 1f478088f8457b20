"""The command line contract (DESIGN.md §5): output formats, exit codes, bad input."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cudalint.cli import main

ROOT = Path(__file__).resolve().parents[1]
STRIDE = "__global__ void k(float* a) {\n    a[32 * (blockIdx.x * blockDim.x + threadIdx.x)] = 0.0f;\n}\n"
CLEAN = "__global__ void k(float* a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f; }\n"


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "b.cu").write_text(STRIDE)
    (tmp_path / "src" / "a.cuh").write_text(CLEAN)
    (tmp_path / "src" / "notes.txt").write_text("not CUDA")
    return tmp_path


def run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_text_output_and_exit_code_one(tree, capsys):
    code, out, _ = run(["check", str(tree / "src")], capsys)
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith(f"{tree / 'src' / 'b.cu'}:2:5: CL101 [uncoalesced-global-access] ")
    assert lines[-1] == "Found 1 finding (0 error, 1 warning, 0 info) in 1 of 2 files."


def test_quiet_prints_the_findings_and_nothing_else(tree, capsys):
    """ruff's `--quiet`: no summary line (nor fix counts, nor progress), in every text format."""
    code, out, err = run(["check", "-q", str(tree / "src")], capsys)
    assert code == 1 and err == ""
    (line,) = out.splitlines()
    assert line.startswith(f"{tree / 'src' / 'b.cu'}:2:5: CL101 [uncoalesced-global-access] ")
    code, out, _ = run(["check", "-q", "--format", "full", "--color", "never", str(tree / "src")], capsys)
    assert out.splitlines()[0].startswith(f"{tree / 'src' / 'b.cu'}:2:5: warning: ") and "Found" not in out
    assert run(["check", "--quiet", "--statistics", str(tree / "src")], capsys)[1] == \
        "    1\tCL101\t[uncoalesced-global-access]\n"
    assert run(["check", "-q", str(tree / "src" / "a.cuh")], capsys)[:2] == (0, "")
    code, out, err = run(["check", "-q", "--diff", str(tree / "src" / "a.cuh")], capsys)
    assert (code, out, err) == (0, "", "")


def test_json_output_matches_the_contract(tree, capsys):
    code, out, _ = run(["check", "--format", "json", str(tree / "src" / "b.cu")], capsys)
    assert code == 1
    (d,) = json.loads(out)
    assert list(d) == ["code", "name", "severity", "path", "line", "column", "end_line", "end_column",
                       "kernel", "message", "metrics", "assumptions", "fix"]
    assert (d["code"], d["severity"], d["line"], d["column"], d["end_line"], d["end_column"], d["kernel"]) == \
        ("CL101", "warning", 2, 5, 2, 52, "k")
    assert d["metrics"] == {"sectors_per_request": 32, "ideal_sectors_per_request": 4, "efficiency": 0.125,
                            "stride_bytes": 128}
    assert d["assumptions"][0].startswith("blockDim unknown")
    assert d["path"] == str(tree / "src" / "b.cu")


def test_exit_zero_select_ignore(tree, capsys):
    assert run(["check", "--exit-zero", str(tree / "src")], capsys)[0] == 0
    assert run(["check", "--ignore", "CL1", str(tree / "src")], capsys)[0] == 0
    assert run(["check", "--select", "CL201", str(tree / "src")], capsys)[0] == 0
    assert run(["check", "--select", "CL101", str(tree / "src")], capsys)[0] == 1


def test_block_dim_option_changes_the_lanes(tmp_path, capsys):
    f = tmp_path / "k.cu"
    f.write_text("__global__ void k(float* a) { a[threadIdx.x * 32 + threadIdx.y] = 0.0f; }\n")
    # default: blockDim.x a multiple of 32, lanes differ in threadIdx.x -> 128-byte stride
    code, out, _ = run(["check", "--format", "json", str(f)], capsys)
    (d,) = json.loads(out)
    assert (code, d["code"], d["metrics"]["sectors_per_request"]) == (1, "CL101", 32)
    # blockDim (1, 32): lanes differ in threadIdx.y -> unit stride, clean
    code, out, _ = run(["check", "--format", "json", "--block-dim", "1,32", str(f)], capsys)
    assert (code, json.loads(out)) == (0, [])


def test_missing_path_is_a_one_line_usage_error(tmp_path, capsys):
    code, out, err = run(["check", str(tmp_path / "nope.cu")], capsys)
    assert code == 2 and out == ""
    assert err == f"cudalint: error: path does not exist: {tmp_path / 'nope.cu'}\n"


@pytest.mark.parametrize("argv", [["check", "--select", "XY12"], ["check", "--block-dim", "0"],
                                  ["check", "--format", "xml"], ["frobnicate"]])
def test_bad_options_exit_two_with_one_line(argv, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("cudalint: error:")


def test_non_utf8_file_is_read_as_latin1_and_not_fixed(tree, capsys):
    c = tree / "src" / "c.cu"
    raw = b"// caf\xe9 \xff\n" + STRIDE.encode()
    c.write_bytes(raw)
    code, out, _ = run(["check", "--format", "json", str(tree / "src")], capsys)
    got = [(Path(d["path"]).name, d["code"], d["line"]) for d in json.loads(out)]
    b_line = next(line for name, _, line in got if name == "b.cu")
    assert got == [("b.cu", "CL101", b_line), ("c.cu", "CL101", b_line + 1)]  # one line down: the comment
    assert code == 1
    tile = (b"// caf\xe9\n__global__ void t(float* o) {\n    __shared__ float tile[32][32];\n"
            b"    tile[threadIdx.x][threadIdx.y] = o[threadIdx.y * 32 + threadIdx.x];\n    __syncthreads();\n"
            b"    o[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.y][threadIdx.x];\n}\n")
    c.write_bytes(tile)
    _, out, _ = run(["check", "--format", "json", str(c)], capsys)
    assert [(d["code"], d["line"], d["fix"] is not None) for d in json.loads(out)] == [("CL201", 4, True)]
    run(["check", "--fix", str(c)], capsys)
    assert c.read_bytes() == tile  # --fix edits UTF-8 text only: the padding is offered, not written


def test_unreadable_file_yields_cl000(tmp_path, capsys):
    import os
    if os.geteuid() == 0:
        pytest.skip("root can read any file")
    f = tmp_path / "x.cu"
    f.write_text(CLEAN)
    f.chmod(0)
    code, out, _ = run(["check", str(f)], capsys)
    assert "CL000" in out


def test_suppression_comments(tmp_path, capsys):
    f = tmp_path / "k.cu"
    f.write_text("__global__ void k(float* a) {\n    // cudalint: ignore[CL101]\n"
                 "    a[32 * threadIdx.x] = 0.0f;\n    a[64 * threadIdx.x] = 0.0f;  // cudalint: ignore[CL1]\n}\n")
    assert run(["check", str(f)], capsys)[0] == 0


def test_rules_table_lists_every_code(capsys):
    code, out, _ = run(["rules"], capsys)
    assert code == 0
    codes = [line.split()[0] for line in out.splitlines()]
    assert codes == ["CL000", "CL001", "CL002", "CL101", "CL102", "CL201", "CL301", "CL302", "CL401", "CL501", "CL601"]
    assert {"CL101", "CL102", "CL201", "CL301", "CL302", "CL401", "CL501"} <= set(codes)


def test_rule_page_is_printed(capsys):
    code, out, _ = run(["rule", "CL101"], capsys)
    assert code == 0 and out.startswith("# CL101 uncoalesced-global-access")
    assert run(["rule", "CL999"], capsys)[0] == 2


def test_console_script_runs_as_module(tree):
    r = subprocess.run([sys.executable, "-m", "cudalint", "check", str(tree / "src" / "a.cuh")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "Found 0 findings (0 error, 0 warning, 0 info) in 1 file."


def test_fail_on_sets_the_failing_severity(tmp_path, capsys):
    f = tmp_path / "k.cu"
    f.write_text("__global__ void k(float* a) { a[2 * threadIdx.x] = 0.0f; }\n")  # CL101 info (50 %)
    assert run(["check", str(f)], capsys)[0] == 1
    assert run(["check", "--fail-on", "warning", str(f)], capsys)[0] == 0
    f.write_text("__global__ void k(float* a) { a[32 * threadIdx.x] = 0.0f; }\n")  # CL101 warning
    assert run(["check", "--fail-on", "warning", str(f)], capsys)[0] == 1
    assert run(["check", "--fail-on", "error", str(f)], capsys)[0] == 0


def test_statistics_keep_json_parseable(tree, capsys):
    code, out, err = run(["check", "--format", "json", "--statistics", str(tree / "src")], capsys)
    assert [d["code"] for d in json.loads(out)] == ["CL101"]
    assert err == "    1\tCL101\t[uncoalesced-global-access]\n"
    code, out, err = run(["check", "--statistics", str(tree / "src")], capsys)
    # as ruff: the counts instead of the findings, then the summary
    assert out == ("    1\tCL101\t[uncoalesced-global-access]\n"
                   "Found 1 finding (0 error, 1 warning, 0 info) in 1 of 2 files.\n")
    assert code == 1


def test_an_empty_folder_is_said_on_stderr(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("not CUDA")
    code, out, err = run(["check", str(tmp_path)], capsys)
    assert (code, out, err) == (0, "Found 0 findings (0 error, 0 warning, 0 info) in 0 files.\n",
                                f"cudalint: warning: no CUDA files found in {tmp_path}\n")


def test_watch_lints_again_after_a_change(tmp_path, capsys, monkeypatch):
    """`check --watch`: a first run, then one per batch of changes (watchfiles' `watch`, driven here by a stand-in
    that edits the file and reports it), with the same options; a change to another kind of file is filtered."""
    from cudalint import cli
    k = tmp_path / "k.cu"
    k.write_text(STRIDE)
    seen = {}

    def fake_watch(*paths, watch_filter, raise_interrupt):
        seen["paths"], seen["raise_interrupt"] = paths, raise_interrupt
        assert watch_filter(None, str(k)) and watch_filter(None, str(tmp_path / "pyproject.toml"))
        assert not watch_filter(None, str(tmp_path / "notes.txt"))
        k.write_text(CLEAN)
        yield {(2, str(k))}

    args = cli.build_parser().parse_args(["check", "--watch", str(tmp_path)])
    assert cli._watch(args, watch=fake_watch) == 0
    out = capsys.readouterr().out
    assert seen == {"paths": (str(tmp_path),), "raise_interrupt": False}
    first, second = out.split("; linting again\n")
    assert "k.cu:2:5: CL101 [uncoalesced-global-access]" in first
    assert f"changed: {os.path.relpath(k)}" in first.splitlines()[-1]
    assert second == "Found 0 findings (0 error, 0 warning, 0 info) in 1 file.\n"
    code, _, err = run(["check", "--watch", "--fix", str(tmp_path)], capsys)
    assert code == 2 and err == "cudalint: error: --watch cannot be combined with --fix, --diff or --show-settings\n"


def test_rule_page_is_rendered_on_a_terminal_and_markdown_in_a_pipe(capsys, monkeypatch):
    code, out, _ = run(["rule", "CL301"], capsys)
    assert code == 0 and "## What it does" in out    # a pipe: the Markdown itself
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setenv("COLUMNS", "100")
    code, out, _ = run(["rule", "CL301"], capsys)
    assert code == 0 and "What it does" in out and "## What it does" not in out and "```" not in out


def test_bare_command_prints_the_commands_and_exits_two(capsys):
    # the fresh user of stop 52 got only "the following arguments are required: command"
    assert main([]) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: cudalint [-h] [--version]")
    assert "check               lint files and directories" in err
