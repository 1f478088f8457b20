"""compile_commands.json as build systems write it (issue 11, item 2): nvcc response files, quoted paths,
nvcc's long options, -Xcompiler lists, headers without an entry, one read per process."""

import json
from pathlib import Path

from cudalint.compiledb import database, parse_flags
from cudalint.runner import RunOptions, lint_file

KERNEL = '#include "layout.h"\n__global__ void k(float* a) { a[STRIDE * threadIdx.x * SCALE] = 0; }\n'


def test_parse_flags_keeps_what_changes_the_parse_in_clang_spelling(tmp_path):
    (tmp_path / "flags.rsp").write_text('-I"inc dir" -isystem /opt/x\n-DN=4 @more.rsp\n')
    (tmp_path / "more.rsp").write_text("--define-macro=M=2 --include-path deep\n")
    args = ["nvcc", "-x", "cu", "-rdc=true", "--expt-relaxed-constexpr", "-Xclang", "-load", "-Xclang", "p.so",
            "-fplugin=evil.so", "--options-file", "flags.rsp", "-Xcompiler", "-DHOST=1,-Wall", "-UOLD",
            "--std", "c++17", "-include", "pre.h", "-Irel", "-c", "k.cu"]
    d = str(tmp_path)
    assert parse_flags(args, d) == [
        f"-I{tmp_path / 'inc dir'}", "-isystem", "/opt/x", "-DN=4", "-DM=2", f"-I{tmp_path / 'deep'}",
        "-DHOST=1", "-UOLD", "-std=c++17", f"-I{tmp_path / 'rel'}"]  # no -include: a file the database names


def test_the_toolkits_own_include_folder_is_left_to_the_shims(tmp_path):
    (tmp_path / "cuda" / "include").mkdir(parents=True)
    (tmp_path / "cuda" / "include" / "cuda_runtime_api.h").write_text("")
    (tmp_path / "mine").mkdir()
    got = parse_flags([f"-isystem{tmp_path / 'cuda' / 'include'}", "-Icuda/include", "-Imine"], str(tmp_path))
    assert got == [f"-I{tmp_path / 'mine'}"]


def test_response_files_nest_at_most_eight_deep_and_a_missing_one_is_skipped(tmp_path):
    for i in range(12):
        (tmp_path / f"r{i}.rsp").write_text(f"-DL{i} @r{i + 1}.rsp\n")
    got = parse_flags(["@r0.rsp", "-optf", "absent.rsp", "-DEND"], str(tmp_path))
    assert got == [f"-DL{i}" for i in range(8)] + ["-DEND"]  # r0..r7 read, r8 is the ninth level


def _cmake_tree(tmp_path: Path) -> tuple[Path, Path]:
    """A CMake-style project: include flags only in CMakeFiles/k.dir/includes_CUDA.rsp, the build outside."""
    src = tmp_path / "src"
    (src / "include").mkdir(parents=True)
    (src / "include" / "layout.h").write_text("#define STRIDE 32\n")
    (src / "k.cu").write_text(KERNEL)
    (src / "tile.cuh").write_text('#include "layout.h"\n__global__ void h(float* a) { a[STRIDE * threadIdx.x] = 0; }\n')
    build = tmp_path / "build"
    (build / "CMakeFiles" / "k.dir").mkdir(parents=True)
    (build / "CMakeFiles" / "k.dir" / "includes_CUDA.rsp").write_text(f'-I"{src / "include"}"\n')
    (build / "compile_commands.json").write_text(json.dumps([{
        "directory": str(build), "file": str(src / "k.cu"),
        "command": f"/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DSCALE=1 --options-file "
                   f"CMakeFiles/k.dir/includes_CUDA.rsp -std=c++17 -x cu -c {src / 'k.cu'} -o k.o"}]))
    return src, build


def test_cmake_response_files_give_the_same_findings_as_explicit_include_paths(tmp_path):
    src, build = _cmake_tree(tmp_path)
    plain = lint_file(str(src / "k.cu"), RunOptions())
    assert [d.code for d in plain] == ["CL000"]  # STRIDE and SCALE unknown without the build's flags
    explicit = lint_file(str(src / "k.cu"), RunOptions(extra_args=[f"-I{src / 'include'}", "-DSCALE=1"]))
    via_db = lint_file(str(src / "k.cu"), RunOptions(compile_db=build / "compile_commands.json"))
    assert [(d.code, d.line, d.column, d.metrics) for d in via_db] == \
        [(d.code, d.line, d.column, d.metrics) for d in explicit]
    assert [(d.code, d.line, d.metrics["sectors_per_request"]) for d in via_db] == [("CL101", 2, 32)]


def test_a_header_without_an_entry_takes_the_flags_of_its_includer_or_its_folder(tmp_path):
    src, build = _cmake_tree(tmp_path)
    db = build / "compile_commands.json"
    (d,) = lint_file(str(src / "tile.cuh"), RunOptions(compile_db=db))  # nothing includes it: same folder
    assert (d.code, d.line, d.metrics["sectors_per_request"]) == ("CL101", 2, 32)
    (src / "k.cu").write_text('#include "tile.cuh"\n' + KERNEL)
    flags = database(db).flags(str(src / "tile.cuh"))
    assert f"-I{src / 'include'}" in flags and "-DSCALE=1" in flags


def test_the_database_is_read_once_per_process(tmp_path, monkeypatch):
    src, build = _cmake_tree(tmp_path)
    db = build / "compile_commands.json"
    reads = []
    real = Path.read_text
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: reads.append(self.name) or real(self, *a, **k))
    for _ in range(3):
        database(db).flags(str(src / "k.cu"))
    assert reads.count("compile_commands.json") <= 1


def test_p_takes_the_build_folder_or_the_database_file_itself(tmp_path, capsys):
    from cudalint.cli import main
    src, build = _cmake_tree(tmp_path)
    for p in (build, build / "compile_commands.json"):
        assert main(["check", "--format", "json", "--no-cache", "-p", str(p), str(src / "k.cu")]) == 1
        (d,) = json.loads(capsys.readouterr().out)
        assert (d["code"], d["line"], d["metrics"]["sectors_per_request"]) == ("CL101", 2, 32)


def test_cl000_names_each_error_of_a_line_once(tmp_path):
    src = tmp_path / "u.cu"
    src.write_text("__global__ void k(float* a) {\n    a[TILE * threadIdx.x + TILE] = 0;\n}\n")
    (d,) = lint_file(str(src), RunOptions())
    assert d.code == "CL000" and d.message.count("line 2: use of undeclared identifier 'TILE'") == 1
