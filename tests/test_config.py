"""Configuration files (``[tool.cudalint]`` / ``.cudalint.toml``), discovery, suppressions (issue 5, items 5-7)."""

import json
import os
from pathlib import Path

import pytest

from cudalint.cli import main
from cudalint.config import Overrides, Resolver, discover
from cudalint.diagnostics import Severity

STRIDE = "__global__ void k(float* a) {\n    a[32 * (blockIdx.x * blockDim.x + threadIdx.x)] = 0.0f;\n}\n"
CLEAN = "__global__ void k(float* a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f; }\n"
# lanes differ in threadIdx.x by default (128-byte stride); with blockDim (1, 32) in threadIdx.y (unit stride)
LANES = "__global__ void k(float* a) { a[threadIdx.x * 32 + threadIdx.y] = 0.0f; }\n"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def check(capsys, *argv):
    code = main(["check", "--format", "json", *map(str, argv)])
    out = capsys.readouterr()
    return code, (json.loads(out.out) if out.out else None), out.err


def found(capsys, *argv):
    """(code, severity, file name) of each finding."""
    _, diags, _ = check(capsys, *argv)
    return [(d["code"], d["severity"], Path(d["path"]).name) for d in diags]


# -- discovery of the configuration


def test_nearest_configuration_wins(tmp_path, capsys):
    write(tmp_path / "pyproject.toml", '[project]\nname = "x"\n\n[tool.cudalint]\nignore = ["CL101"]\n')
    write(tmp_path / "sub" / ".cudalint.toml", 'severity = { CL101 = "error" }\n')
    top = write(tmp_path / "top.cu", STRIDE)
    deep = write(tmp_path / "sub" / "deeper" / "deep.cu", STRIDE)
    r = Resolver()
    assert r.config_for_dir(str(top.parent)).path == tmp_path / "pyproject.toml"
    assert r.config_for_dir(str(deep.parent)).path == tmp_path / "sub" / ".cudalint.toml"
    # the closest file replaces the farther one (no merging): the ignore of the pyproject does not reach sub/
    assert found(capsys, tmp_path) == [("CL101", "error", "deep.cu")]


def test_cudalint_toml_beats_pyproject_in_the_same_folder(tmp_path, capsys):
    write(tmp_path / "pyproject.toml", '[tool.cudalint]\nignore = ["CL101"]\n')
    write(tmp_path / ".cudalint.toml", 'severity = { CL1 = "error" }\n')
    f = write(tmp_path / "k.cu", STRIDE)
    assert Resolver().config_for_dir(str(f.parent)).path == tmp_path / ".cudalint.toml"
    assert found(capsys, f) == [("CL101", "error", "k.cu")]


def test_pyproject_without_a_cudalint_table_is_passed_over(tmp_path, capsys):
    write(tmp_path / ".cudalint.toml", 'ignore = ["CL101"]\n')
    write(tmp_path / "pkg" / "pyproject.toml", '[project]\nname = "pkg"\n')
    f = write(tmp_path / "pkg" / "k.cu", STRIDE)
    assert Resolver().config_for_dir(str(f.parent)).path == tmp_path / ".cudalint.toml"
    assert found(capsys, f) == []


def test_config_option_forces_one_file(tmp_path, capsys):
    write(tmp_path / ".cudalint.toml", 'ignore = ["CL101"]\n')
    other = write(tmp_path / "elsewhere" / "strict.toml", 'severity = { CL101 = "error" }\n')
    f = write(tmp_path / "k.cu", STRIDE)
    assert found(capsys, f) == []
    assert found(capsys, "--config", other, f) == [("CL101", "error", "k.cu")]
    forced_pyproject = write(tmp_path / "elsewhere" / "pyproject.toml", '[tool.cudalint]\nselect = ["CL2"]\n')
    assert found(capsys, "--config", forced_pyproject, f) == []
    code, _, err = check(capsys, "--config", tmp_path / "nope.toml", f)
    assert (code, err) == (2, f"cudalint: error: configuration file does not exist: {tmp_path / 'nope.toml'}\n")


# -- each key on real findings


def test_ignore_removes_the_stride_finding(tmp_path, capsys):
    f = write(tmp_path / "k.cu", STRIDE)
    assert found(capsys, f) == [("CL101", "warning", "k.cu")]
    write(tmp_path / ".cudalint.toml", 'ignore = ["CL101"]\n')
    code, diags, _ = check(capsys, f)
    assert (code, diags) == (0, [])


def test_select_and_extend_select(tmp_path, capsys):
    f = write(tmp_path / "k.cu", STRIDE)
    write(tmp_path / ".cudalint.toml", 'select = ["CL2"]\n')
    assert found(capsys, f) == []
    write(tmp_path / ".cudalint.toml", 'select = ["CL2"]\nextend-select = ["CL101"]\n')
    assert found(capsys, f) == [("CL101", "warning", "k.cu")]


def test_per_file_ignores_are_globs_relative_to_the_config_folder(tmp_path, capsys):
    write(tmp_path / "proj" / "pyproject.toml",
          '[tool.cudalint.per-file-ignores]\n"generated/*.cu" = ["CL101"]\n"**/legacy_*.cu" = ["CL1"]\n')
    write(tmp_path / "proj" / "generated" / "gen.cu", STRIDE)
    write(tmp_path / "proj" / "src" / "legacy_a.cu", STRIDE)
    write(tmp_path / "proj" / "src" / "new.cu", STRIDE)
    write(tmp_path / "proj" / "src" / "generated" / "nested.cu", STRIDE)  # "generated/*.cu" is anchored
    assert found(capsys, tmp_path / "proj") == [("CL101", "warning", "nested.cu"), ("CL101", "warning", "new.cu")]


def test_severity_override_changes_the_reported_severity_and_exit_code(tmp_path, capsys):
    f = write(tmp_path / "k.cu", STRIDE)
    write(tmp_path / ".cudalint.toml", '[severity]\nCL101 = "error"\n')
    code, diags, _ = check(capsys, f)
    assert code == 1 and [(d["code"], d["severity"]) for d in diags] == [("CL101", "error")]
    capsys.readouterr()
    main(["check", str(f)])
    assert capsys.readouterr().out.splitlines()[-1] == "Found 1 finding (1 error, 0 warning, 0 info) in 1 file."


def test_block_dim_changes_the_lanes_and_the_command_line_wins(tmp_path, capsys):
    f = write(tmp_path / "k.cu", LANES)
    (d,) = check(capsys, f)[1]
    assert d["metrics"]["sectors_per_request"] == 32
    for value in ("[1, 32]", '"1,32"', "[1, 32, 1]"):
        write(tmp_path / ".cudalint.toml", f"block-dim = {value}\n")
        assert check(capsys, f)[:2] == (0, [])
    (d,) = check(capsys, "--block-dim", "32,1", f)[1]  # the command line overrides the file
    assert d["code"] == "CL101" and "--block-dim" in d["assumptions"][0]
    write(tmp_path / ".cudalint.toml", "block-dim = [32, 1]\n")
    (d,) = check(capsys, f)[1]
    assert d["assumptions"][0] == f"blockDim = (32, 1, 1) from `block-dim` in {tmp_path / '.cudalint.toml'}"


def test_include_paths_and_defines_resolve_a_header_and_a_macro(tmp_path, capsys):
    write(tmp_path / "inc" / "layout.h", "#define STRIDE 32\n")
    f = write(tmp_path / "src" / "k.cu", '#include "layout.h"\n'
              "__global__ void k(float* a) { a[STRIDE * threadIdx.x * SCALE] = 0; }\n")
    ((code, _, _),) = found(capsys, f)
    assert code == "CL000"  # layout.h and SCALE unknown
    write(tmp_path / "pyproject.toml", '[tool.cudalint]\ninclude-paths = ["inc"]\ndefines = ["SCALE=1", "NDEBUG"]\n')
    _, (d,), _ = check(capsys, f)
    assert (d["code"], d["line"], d["metrics"]["sectors_per_request"]) == ("CL101", 2, 32)


def test_command_line_overrides_the_file(tmp_path, capsys):
    f = write(tmp_path / "k.cu", STRIDE)
    write(tmp_path / ".cudalint.toml", 'select = ["CL2"]\n')
    assert found(capsys, "--select", "CL1", f) == [("CL101", "warning", "k.cu")]       # --select replaces
    assert found(capsys, "--extend-select", "CL101", f) == [("CL101", "warning", "k.cu")]  # adds
    write(tmp_path / ".cudalint.toml", 'select = ["CL1"]\n')
    assert found(capsys, "--ignore", "CL101", f) == []                                  # adds
    r = Resolver(Overrides(select=["CL3"], extend_select=["CL4"], ignore=["CL302"]))
    opts = r.options_for(str(f))
    assert (opts.select, opts.ignore) == (["CL3", "CL4"], ["CL302"])


def test_extensions_include_and_exclude_in_discovery(tmp_path):
    write(tmp_path / ".cudalint.toml", 'extensions = [".cu", ".cuda"]\nexclude = ["third_party", "*_gen.cu"]\n'
                                       'include = ["src/**"]\n')
    for name in ("src/a.cu", "src/b.cuda", "src/c.cuh", "src/d_gen.cu", "src/third_party/e.cu", "tools/f.cu"):
        write(tmp_path / name, CLEAN)
    got = [os.path.relpath(f, tmp_path) for f in discover([str(tmp_path)], Resolver())]
    assert got == ["src/a.cu", "src/b.cuda"]
    # a file named on the command line is linted whatever the globs say
    assert discover([str(tmp_path / "tools" / "f.cu")], Resolver()) == [str(tmp_path / "tools" / "f.cu")]


def test_gitignored_files_and_hidden_folders_are_skipped(tmp_path, capsys):
    (tmp_path / ".git").mkdir()  # the repository root: .gitignore files from here down apply
    write(tmp_path / ".gitignore", "build/\n*.gen.cu\n")
    write(tmp_path / "src" / ".gitignore", "scratch.cu\n!keep.gen.cu\n")
    for name in ("src/a.cu", "src/scratch.cu", "src/x.gen.cu", "src/keep.gen.cu", "build/b.cu", ".cache/c.cu",
                 "other/scratch.cu"):
        write(tmp_path / name, STRIDE)
    got = sorted(os.path.relpath(f, tmp_path) for f in discover([str(tmp_path / "src"), str(tmp_path / "build"),
                                                                  str(tmp_path / "other"), str(tmp_path)]))
    assert got == ["other/scratch.cu", "src/a.cu", "src/keep.gen.cu"]
    assert [n for _, _, n in found(capsys, tmp_path)] == ["scratch.cu", "a.cu", "keep.gen.cu"]


def test_gitignore_negations_re_include_as_git_does(tmp_path):
    # A .gitignore that ignores everything and re-includes files with an extension and every folder
    # (PacktPublishing/Learn-CUDA-Programming's): pathspec's GitIgnoreSpec ranked `!*/` below `*` for a
    # folder, so discovery found 0 files.  The expected list is what `git ls-files -o --exclude-standard`
    # gives for this tree (git 2.43).
    (tmp_path / ".git").mkdir()
    write(tmp_path / ".gitignore", "*\n!*.*\n!*/\nbuild/\n*.gen.cu\n")
    write(tmp_path / "deep" / ".gitignore", "!keep.gen.cu\nb/\n")
    for name in ("Chapter01/x/a.cu", "src/build/b.cu", "src/k.cu", "deep/a/b/c.cu", "deep/a/d.cu",
                 "deep/keep.gen.cu", "deep/other.gen.cu", "keep/gen/z.cuh", "build/y.cu", "noext.cu/inner.cu"):
        write(tmp_path / name, CLEAN)
    got = sorted(os.path.relpath(f, tmp_path) for f in discover([str(tmp_path)]))
    assert got == ["Chapter01/x/a.cu", "deep/a/d.cu", "deep/keep.gen.cu", "keep/gen/z.cuh", "noext.cu/inner.cu",
                   "src/k.cu"]


# -- errors: one line naming the key and the file, exit 2


@pytest.mark.parametrize("name,text,message", [
    (".cudalint.toml", 'colour = "red"\n', "unknown key `colour`"),
    (".cudalint.toml", 'selct = ["CL1"]\n', "unknown key `selct` (did you mean `select`?)"),
    ("pyproject.toml", '[tool.cudalint]\nblockdim = [32]\n', "unknown key `blockdim` (did you mean `block-dim`?)"),
    (".cudalint.toml", 'select = "CL101"\n',
     '`select` must be a list of rule codes such as ["CL101", "CL2"], got "CL101"'),
    (".cudalint.toml", 'block-dim = "abc"\n',
     '`block-dim` must be [x, y, z] or "x,y,z" (1 to 3 positive integers), got "abc"'),
    ("pyproject.toml", "[tool.cudalint]\nblock-dim = [64, 0]\n",
     '`block-dim` must be [x, y, z] or "x,y,z" (1 to 3 positive integers), got [64, 0]'),
    (".cudalint.toml", "extensions = true\n", "`extensions` must be a list of strings, got true"),
    (".cudalint.toml", 'frontend = "gcc"\n', '`frontend` must be "auto", "clang" or "tree-sitter", got "gcc"'),
    (".cudalint.toml", 'severity = { CL101 = "fatal" }\n',
     '`severity.CL101` must be "info", "warning" or "error", got "fatal"'),
    (".cudalint.toml", 'ignore = ["CL999"]\n', "`ignore`: unknown rule code or prefix: 'CL999'"),
    (".cudalint.toml", 'per-file-ignores = { "gen/*.cu" = ["E501"] }\n',
     "`per-file-ignores.\"gen/*.cu\"`: unknown rule code or prefix: 'E501'"),
    (".cudalint.toml", 'per-file-ignores = { "gen/*.cu" = ["CL-1"] }\n',
     "`per-file-ignores.\"gen/*.cu\"`: invalid rule code or prefix: 'CL-1'"),
    (".cudalint.toml", 'defines = ["1X=2"]\n', '`defines` must be a list of "NAME" or "NAME=VALUE", got "1X=2"'),
])
def test_bad_configuration_is_one_line_naming_key_and_file(tmp_path, capsys, name, text, message):
    cfg = write(tmp_path / name, text)
    f = write(tmp_path / "k.cu", STRIDE)
    code, out, err = check(capsys, f)
    where = f"{cfg} [tool.cudalint]" if name == "pyproject.toml" else f"{cfg}"
    assert (code, out) == (2, None)
    assert err == f"cudalint: error: {where}: {message}\n"


def test_invalid_toml_is_a_usage_error(tmp_path, capsys):
    cfg = write(tmp_path / ".cudalint.toml", "select = [\n")
    code, _, err = check(capsys, write(tmp_path / "k.cu", STRIDE))
    assert code == 2 and err.startswith(f"cudalint: error: {cfg}: invalid TOML: ") and err.count("\n") == 1


def test_unknown_code_on_the_command_line(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        main(["check", "--extend-select", "CL9", str(tmp_path)])
    assert e.value.code == 2
    assert capsys.readouterr().err == ("cudalint: error: argument --extend-select: "
                                       "unknown rule code or prefix: 'CL9'\n")


def test_resolver_reads_every_key(tmp_path):
    cfg = write(tmp_path / "pyproject.toml", """
[tool.cudalint]
select = ["CL1", "cl2"]
extend-select = ["CL301"]
ignore = ["CL102"]
per-file-ignores = { "tests/*.cu" = ["CL101"] }
severity = { CL1 = "error", CL102 = "info" }
block-dim = "256"
include = ["src/**"]
exclude = ["build"]
extensions = ["cu", ".cuh", ".cuda"]
frontend = "clang"
include-paths = ["include", "/opt/cuda/include"]
defines = ["TILE=32", "NDEBUG"]
""")
    c = Resolver().config_for_dir(str(tmp_path / "tests"))
    assert c.path == cfg and c.select == ["CL1", "CL2"] and c.block_dim == (256, 1, 1)
    assert c.extensions == (".cu", ".cuh", ".cuda") and c.frontend == "clang"
    opts = Resolver().options_for(str(tmp_path / "tests" / "a.cu"))
    assert opts.severity == c.severity == {"CL1": Severity.ERROR, "CL102": Severity.INFO}
    assert opts.select == ["CL1", "CL2", "CL301"] and opts.ignore == ["CL102", "CL101"]
    assert opts.extra_args == [f"-I{tmp_path / 'include'}", "-I/opt/cuda/include", "-DTILE=32", "-DNDEBUG"]
    assert Resolver().options_for(str(tmp_path / "src" / "a.cu")).ignore == ["CL102"]


# -- suppressions


def test_bare_ignore_suppresses_every_code(tmp_path, capsys):
    f = write(tmp_path / "k.cu", "__global__ void k(float* a, const int* in) {\n"
              "    a[32 * threadIdx.x] = in[threadIdx.x] / 32;  // cudalint: ignore\n}\n")
    assert found(capsys, f) == []
    f.write_text(f.read_text().replace("  // cudalint: ignore", ""))
    assert sorted(c for c, _, _ in found(capsys, f)) == ["CL101", "CL501"]


def test_warn_unused_ignores(tmp_path, capsys):
    # a comment covers its own line and the next one, so the statements are kept apart by blank lines
    f = write(tmp_path / "k.cu", """// cudalint: ignore-file[CL601]
__global__ void k(float* a) {
    // cudalint: ignore[CL101]
    a[32 * threadIdx.x] = 0.0f;

    a[threadIdx.x] = 1.0f;  // cudalint: ignore[CL101]

    a[64 * threadIdx.x] = 2.0f;  // cudalint: ignore[CL101, CL201]

    a[threadIdx.x] = 3.0f;  // cudalint: ignore

    a[threadIdx.x] = 4.0f;  // cudalint: ignore[CL301]
}
""")
    assert check(capsys, f)[:2] == (0, [])  # without the flag nothing is reported
    code, diags, _ = check(capsys, "--warn-unused-ignores", f)
    got = [(d["code"], d["name"], d["severity"], d["line"], d["column"], d["end_column"], d["message"])
           for d in diags]
    assert got == [
        ("CL001", "unused-suppression", "info", 1, 1, 32,
         "unused suppression `// cudalint: ignore-file[CL601]`: no CL601 finding in this file to silence"),
        ("CL001", "unused-suppression", "info", 6, 29, 55,
         "unused suppression `// cudalint: ignore[CL101]`: no CL101 finding on this line or the next to silence"),
        ("CL001", "unused-suppression", "info", 8, 34, 67,
         "unused suppression `// cudalint: ignore[CL101, CL201]`: no CL201 finding on this line or the next "
         "to silence"),
        ("CL001", "unused-suppression", "info", 10, 29, 48,
         "unused suppression `// cudalint: ignore`: no finding on this line or the next to silence"),
        ("CL001", "unused-suppression", "info", 12, 29, 55,
         "unused suppression `// cudalint: ignore[CL301]`: no CL301 finding on this line or the next to silence"),
    ]
    assert code == 1
    # a code whose rule did not run (CL201 and CL301 here) is not called unused; CL001 obeys --ignore and
    # the configuration
    assert [d["line"] for d in check(capsys, "--warn-unused-ignores", "--select", "CL1,CL001", f)[1]] == [6, 10]
    assert check(capsys, "--warn-unused-ignores", "--ignore", "CL001", f)[:2] == (0, [])
    write(tmp_path / ".cudalint.toml", 'severity = { CL001 = "warning" }\n')
    assert {d["severity"] for d in check(capsys, "--warn-unused-ignores", f)[1]} == {"warning"}


def test_rules_table_and_page_of_cl001(capsys):
    assert main(["rules"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[:3] == ["CL001", "unused-suppression", "info"]
    assert main(["rule", "CL001"]) == 0
    assert capsys.readouterr().out.startswith("# CL001 unused-suppression")


def test_globs_that_would_take_minutes_to_match_are_tamed_or_refused(tmp_path, capsys):
    """Issue 15: `exclude = ["**********b"]` took minutes per path in discovery (pathspec's regex backtracks);
    runs of stars are one star, as git reads them, and more than 3 stars in one segment is a config error (a
    .gitignore pattern of that kind is passed over)."""
    from cudalint.config import tame_glob
    assert tame_glob("**********b") == ("*b", None) and tame_glob("a/**/b**c") == ("a/**/b*c", None)
    deep = tmp_path / ("a" * 60) / ("c" * 60)
    write(deep / "k.cu", STRIDE)
    write(tmp_path / ".cudalint.toml", 'exclude = ["**********b"]\n')
    write(tmp_path / ".gitignore", "*a*a*a*a*a*a*a*a*a*a*a*b\n")
    assert found(capsys, tmp_path) == [("CL101", "warning", "k.cu")]  # minutes before
    write(tmp_path / ".cudalint.toml", 'exclude = ["*a*a*a*a*b"]\n')
    code, _, err = check(capsys, tmp_path)
    assert (code, err) == (2, f"cudalint: error: {tmp_path / '.cudalint.toml'}: `exclude`: glob \"*a*a*a*a*b\" has "
                              "more than 3 `*` in one path segment\n")


def test_a_deeply_nested_toml_array_is_a_one_line_error(tmp_path, capsys):
    write(tmp_path / ".cudalint.toml", "select = " + "[" * 50000 + "]" * 50000 + "\n")
    f = write(tmp_path / "k.cu", STRIDE)
    code, _, err = check(capsys, f)
    assert (code, err) == (2, f"cudalint: error: {tmp_path / '.cudalint.toml'}: invalid TOML: nested too deeply\n")


def test_invalid_suppressions_are_findings_and_silence_nothing(tmp_path, capsys):
    """Issue 14: `ignore [CL101]` (a space) silenced every code; an unknown or lower-case code, a missing `]`
    or an unknown directive silently did nothing. One strict grammar; anything else is CL002."""
    lines = ["__global__ void k(float *a) {",
             "    a[threadIdx.x * 32] = 0;  // cudalint: ignore [CL101]",
             "}",
             "__global__ void m(float *a) {",
             "    a[threadIdx.x * 32] = 0;  // cudalint: ignore[CL101, CL999]",
             "    a[threadIdx.x] = 1;  // cudalint: ignore[cl101]",
             "    a[threadIdx.x] = 1;  // cudalint: ignore[CL101",
             "    a[threadIdx.x] = 2;  // cudalint: disable",
             "    a[threadIdx.x] = 3;  // cudalint: ignore because the layout is fixed",
             "}",
             "// cudalint: ignore-file"]
    f = write(tmp_path / "k.cu", "\n".join(lines) + "\n")
    _, diags, _ = check(capsys, f)
    got = [(d["line"], d["column"], d["code"], d["severity"], d["message"]) for d in diags]
    assert [g[:4] for g in got] == [(2, 5, "CL101", "warning"), (2, 31, "CL002", "warning"),
                                    (5, 31, "CL002", "warning"), (6, 26, "CL002", "warning"),
                                    (7, 26, "CL002", "warning"), (8, 26, "CL002", "warning"),
                                    (11, 1, "CL002", "warning")]
    assert [g[4] for g in got[1:]] == [
        "invalid suppression `// cudalint: ignore [CL101]`: no space may stand before `[` (write `ignore[...]`); "
        "as written it silences nothing",
        "invalid suppression `// cudalint: ignore[CL101, CL999]`: unknown rule code or prefix: 'CL999'",
        "invalid suppression `// cudalint: ignore[cl101]`: codes are written in capitals (`CL101`); this list "
        "silences nothing",
        "invalid suppression `// cudalint: ignore[CL101`: the code list has no closing `]`; it silences nothing",
        "invalid suppression `// cudalint: disable`: `disable` is not a directive cudalint reads (`ignore`, "
        "`ignore[CODES]`, `ignore-file[CODES]`, `block=(x,y,z)`)",
        "invalid suppression `// cudalint: ignore-file`: `ignore-file` needs a code list (`ignore-file[CL601]`); it "
        "silences nothing"]
    _, diags, _ = check(capsys, "--ignore", "CL002", f)  # selectable like any code
    assert [d["code"] for d in diags] == ["CL101"]
    # near misses a first user tried: a block comment, capitals
    g = write(tmp_path / "g.cu", "__global__ void k(float *a) {\n"
                                 "    a[threadIdx.x * 32] = 0;  /* cudalint: ignore[CL101] */\n"
                                 "    a[threadIdx.x * 64] = 0;  // CUDALINT: ignore[CL101]\n}\n")
    _, diags, _ = check(capsys, "--select", "CL002", g)
    assert [(d["line"], d["column"], d["message"]) for d in diags] == [
        (2, 31, "invalid suppression `/* cudalint: ignore[CL101] */`: it is a block comment; cudalint reads only "
                "`// cudalint: ...` line comments, so it silences nothing"),
        (3, 31, "invalid suppression `// CUDALINT: ignore[CL101]`: it is not in lower case; cudalint reads only "
                "`// cudalint: ...` line comments, so it silences nothing")]
