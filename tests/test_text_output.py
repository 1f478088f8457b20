"""Text output (issue 14): `--format full` prints each finding as compilers do (severity, source line with the
access underlined, the assumptions as notes, the fix), coloured only when asked or on a terminal without
NO_COLOR; `concise` (= `text`) is DESIGN.md's one line per finding; a progress bar only on a terminal."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

from cudalint.cli import main
from cudalint.diagnostics import Diagnostic, Severity
from cudalint.progress import Progress
from cudalint.reporters.text import format_full, use_color

ROOT = Path(__file__).resolve().parents[1]


def _copy(tmp_path, rel):
    dst = tmp_path / Path(rel).name
    shutil.copy(ROOT / rel, dst)
    return dst


def test_full_output_has_severity_source_line_caret_notes_and_fix(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _copy(tmp_path, "fixtures/shared/transpose_tile.cu")
    assert main(["check", "--no-cache", "--output-format", "full", "--color", "never", "transpose_tile.cu"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("transpose_tile.cu:23:26: warning: 32-way shared-memory bank conflict on load of "
                               "`tile`: ")
    assert lines[0].endswith("pad the row: `__shared__ float tile[32][33];` [CL201]")
    assert lines[1] == (" 23 |     out[y * width + x] = tile[threadIdx.x][threadIdx.y]; "
                        "// expect: CL201 bank_conflict_ways=32")
    assert lines[2] == "    |                          ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~"  # column 26 to the access's end
    assert lines[3] == "  note: blockDim = (32, 32, 1) from launch at transpose_tile.cu:50"
    assert lines[4] == "  fix: Pad `tile` to `tile[32][33]`"
    assert lines[5] == "Found 1 finding (0 error, 1 warning, 0 info) in 1 file."
    assert "\x1b[" not in "\n".join(lines)


def test_concise_is_the_one_line_format(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _copy(tmp_path, "fixtures/shared/transpose_tile.cu")
    main(["check", "--no-cache", "--format", "concise", "transpose_tile.cu"])
    concise = capsys.readouterr().out
    main(["check", "--no-cache", "transpose_tile.cu"])
    assert capsys.readouterr().out == concise
    assert concise.splitlines()[0].startswith("transpose_tile.cu:23:26: CL201 [shared-bank-conflict] 32-way")


def test_colour_always_styles_the_severity_and_never_does_not():
    d = Diagnostic("CL101", "uncoalesced-global-access", Severity.WARNING, "k.cu", 1, 3, 1, 7, "lanes apart")
    lines = ["  a[i*32] = 0;"]
    coloured = format_full([d], 1, lambda p: lines, color=True)
    assert "\x1b[1;35mwarning:\x1b[0m" in coloured
    plain = format_full([d], 1, lambda p: lines, color=False)
    assert plain.splitlines()[:3] == ["k.cu:1:3: warning: lanes apart [CL101]", " 1 |   a[i*32] = 0;", "   |   ^~~~"]


def test_no_color_and_dumb_terminals_turn_auto_colour_off(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self):
            return True
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert use_color("auto", Tty()) and not use_color("auto", io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_color("auto", Tty()) and use_color("always", io.StringIO())
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("TERM", "dumb")
    assert not use_color("auto", Tty()) and not use_color("never", Tty())


def test_source_text_and_paths_are_escaped_and_tabs_keep_the_caret_aligned():
    d = Diagnostic("CL101", "uncoalesced-global-access", Severity.INFO, "x\x1b]0;.cu", 1, 3, 1, 5, "m\nn")
    out = format_full([d], 1, lambda p: ["\t\ta[i]\x1b[2J"], color=False).splitlines()
    assert out[0] == "x\\x1b]0;.cu:1:3: info: m\\nn [CL101]"
    assert out[1] == " 1 |                 a[i]\\x1b[2J"  # tabs as 8 columns, as clang shows them
    assert out[2] == "   |                 ^~"


def test_a_missing_file_or_line_leaves_the_snippet_out():
    d = Diagnostic("CL000", "could-not-model", Severity.INFO, "gone.cu", 9, 1, 9, 1, "cannot read")

    def unreadable(p):
        raise OSError("gone")
    assert format_full([d], 1, unreadable).splitlines() == [
        "gone.cu:9:1: info: cannot read [CL000]", "Found 1 finding (0 error, 0 warning, 1 info) in 1 file."]


def test_progress_bar_only_on_a_terminal_after_the_delay():
    class Tty(io.StringIO):
        def isatty(self):
            return True
    tty, pipe = Tty(), io.StringIO()
    for stream in (tty, pipe):
        with Progress(3, stream=stream, delay=0.0) as bar:
            bar.advance()
            bar.advance()
            bar.advance()
    assert "linting" in tty.getvalue() and "3/3" in tty.getvalue() and pipe.getvalue() == ""
    quiet = Tty()
    with Progress(3, stream=quiet, delay=3600.0) as bar:  # a run shorter than the delay shows nothing
        bar.advance()
    assert quiet.getvalue() == ""


def test_show_settings_names_the_configuration_and_what_it_resolves_to(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    (tmp_path / "inc").mkdir()
    (tmp_path / ".cudalint.toml").write_text('ignore = ["CL501"]\ninclude-paths = ["inc"]\ndefines = ["GPU"]\n'
                                             '[severity]\nCL102 = "warning"\n')
    (tmp_path / "k.cu").write_text("__global__ void k(float *a) { a[threadIdx.x] = 0; }\n")
    assert main(["check", "--show-settings", "--block-dim", "128", "--select", "CL1,CL5", "."]) == 0
    rows = dict(line.split(None, 1) if not line.startswith(("configuration", "rules", "compiler", "folders", "cuda"))
                else line.split("  ", 1) for line in capsys.readouterr().out.splitlines())
    rows = {k.strip(): v.strip() for k, v in rows.items()}
    assert rows["file"] == "k.cu"
    assert rows["configuration file"] == str(tmp_path / ".cudalint.toml")
    assert rows["rules run"] == "CL000, CL101, CL102"  # --select CL1,CL5 with CL501 ignored
    assert rows["ignore"] == "CL501"
    assert rows["severity"] == "CL102 = warning"
    assert rows["block-dim"] == "(128, 1, 1) (--block-dim)"
    assert rows["compiler flags"] == f"-I{tmp_path / 'inc'} -DGPU"
    assert rows["folders read"] == (f"{tmp_path}, {tmp_path / 'inc'} and the system headers (cudalint's shims stand "
                                    "in for the CUDA toolkit's)")
    assert rows["cuda toolkit"] == ("cudalint's shims, and the installed toolkit's headers for a file they leave "
                                    "partly modelled")
    assert main(["check", "--show-settings", "--cuda-path", "none", "."]) == 0
    assert "cuda toolkit         none: cudalint's shims stand in for its headers\n" in capsys.readouterr().out


def test_show_settings_lists_the_compile_database_flags_of_the_file(tmp_path, capsys, monkeypatch):
    # a fresh user's trial: `-p` applied `-DSTRIDE=32` but --show-settings printed "compiler flags none"
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    (tmp_path / "k.cu").write_text("__global__ void k(float *a) { a[threadIdx.x * STRIDE] = 0; }\n")
    (tmp_path / "compile_commands.json").write_text(json.dumps([{
        "directory": str(tmp_path), "file": "k.cu", "command": "nvcc -DSTRIDE=32 -Iinc -c k.cu"}]))
    assert main(["check", "--show-settings", "-p", str(tmp_path), "k.cu"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("compiler flags"))
    assert "-DSTRIDE=32" in row and f"-I{tmp_path / 'inc'}" in row
