"""The prelude's precompiled header (:mod:`cudalint.frontend.pch`): made once per argument list in the user's folder,
the same findings as without it, never read from a folder or file others may write, and a PCH clang refuses is
replaced without losing the file."""

import json
import os

import pytest

from cudalint.cli import main
from cudalint.frontend import confine, libclang, pch

KERNEL = "__global__ void k(float *a) {\n  a[threadIdx.x * 32] = 0;\n}\n"


@pytest.fixture
def pchdir(tmp_path, monkeypatch):
    where = tmp_path / "pch"
    monkeypatch.setenv("CUDALINT_PCH_DIR", str(where))
    monkeypatch.delenv("CUDALINT_PCH", raising=False)
    monkeypatch.setattr(pch, "_made", {})
    monkeypatch.setattr(pch, "_refused", set())
    return where


def _findings(capsys, path):
    main(["check", "--no-cache", "--format", "json", "--exit-zero", str(path)])
    return [(d["code"], d["line"], d["column"], d["message"]) for d in json.loads(capsys.readouterr().out)]


def test_the_prelude_is_parsed_once_and_the_findings_are_the_same(pchdir, tmp_path, capsys, monkeypatch):
    src = tmp_path / "k.cu"
    src.write_text(KERNEL)
    monkeypatch.setenv("CUDALINT_PCH", "0")
    plain = _findings(capsys, src)
    assert not pchdir.exists()
    monkeypatch.setenv("CUDALINT_PCH", "1")
    fast = _findings(capsys, src)
    assert fast == plain and [c for c, *_ in fast] == ["CL101"]
    made = list(pchdir.glob("*.pch"))
    assert len(made) == 1 and oct(pchdir.stat().st_mode & 0o777) == "0o700"
    args = pch.with_pch(libclang.base_args(), libclang.SHIMS)
    assert args[args.index("-include-pch") + 1] == str(made[0]) and "-include" not in args
    tu = libclang.parse(str(src), KERNEL, [])
    assert [d.spelling for d in tu.diagnostics] == []
    # the prelude's declarations come from the PCH: the same as parsed from the headers
    monkeypatch.setattr(pch, "with_pch", lambda *a: None)
    names = lambda t: sorted(c.spelling for c in t.cursor.get_children())  # noqa: E731
    assert names(tu) == names(libclang.parse(str(src), KERNEL, []))


def test_no_pch_where_others_may_write(pchdir, tmp_path):
    pchdir.mkdir(mode=0o700)
    os.chmod(pchdir, 0o777)
    assert pch.folder() is None and pch.with_pch(libclang.base_args(), libclang.SHIMS) is None
    os.chmod(pchdir, 0o700)
    pch._made.clear()
    args = pch.with_pch(libclang.base_args(), libclang.SHIMS)
    made = args[args.index("-include-pch") + 1]
    os.chmod(made, 0o666)   # a PCH others may write is neither read nor replaced
    pch._made.clear()
    assert pch.with_pch(libclang.base_args(), libclang.SHIMS) is None
    assert oct(os.stat(made).st_mode & 0o777) == "0o666"


def test_no_pch_when_the_prelude_reads_a_project_header(pchdir, tmp_path, capsys):
    """An ``-I`` folder holding a header the prelude includes (``<stdint.h>``) puts project code in it: no PCH,
    and the file is parsed from its headers as before."""
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "stdint.h").write_text("#pragma once\ntypedef int int32_t;\n")
    args = [*libclang.base_args(), "-I", str(proj)]
    assert pch.with_pch(args, libclang.SHIMS) is None
    assert not list(pchdir.glob("*.pch"))


@pytest.mark.parametrize("damage", ["garbage", "changed header"])
def test_a_refused_pch_is_replaced_and_the_file_still_parsed(pchdir, tmp_path, monkeypatch, damage):
    prelude = tmp_path / "pre.h"
    prelude.write_text('#include "cudalint_prelude.h"\nstatic const int X = 32;\n')
    base = libclang.base_args()
    i = base.index("-include")
    args = [*base[:i], "-include", str(prelude), *base[i + 2:]]
    monkeypatch.setattr(libclang, "base_args", lambda cuda_path=None: list(args))
    roots = confine.system_roots()   # a PCH is made only of headers under the system roots
    monkeypatch.setattr(confine, "system_roots", lambda: (*roots, os.path.realpath(tmp_path)))
    src, path = "__global__ void k(float *a) { a[threadIdx.x * X] = 0; }\n", str(tmp_path / "k.cu")

    def x_value(tu):
        x = next(c for c in tu.cursor.get_children() if c.spelling == "X")
        return [t.spelling for t in x.get_tokens()][-1]

    assert x_value(libclang.parse(path, src, [])) == "32"
    made = pch.with_pch(args, libclang.SHIMS)
    made = made[made.index("-include-pch") + 1]
    if damage == "garbage":
        with open(made, "wb") as f:
            f.write(b"not an AST file" * 64)
    else:   # clang checks each header's size and time (in seconds) against those it was made from
        prelude.write_text('#include "cudalint_prelude.h"\nstatic const int X = 640;\n')
    tu = libclang.parse(path, src, [])   # libclang refuses the PCH: parsed from the headers
    assert [d.spelling for d in tu.diagnostics] == []
    assert x_value(tu) == ("32" if damage == "garbage" else "640")
    assert not os.path.exists(made)
    libclang.parse(path, src, [])   # made again
    assert os.path.exists(made) and tuple(args) in pch._made and tuple(args) in pch._refused


def test_old_pchs_are_pruned(pchdir):
    pchdir.mkdir(mode=0o700)
    for n in range(pch.KEEP + 5):
        (pchdir / f"{n:02d}.pch").write_bytes(b"x")
        os.utime(pchdir / f"{n:02d}.pch", (1000 + n, 1000 + n))
    (pchdir / "left.tmp").write_bytes(b"x")
    os.utime(pchdir / "left.tmp", (1000, 1000))
    pch.with_pch(libclang.base_args(), libclang.SHIMS)
    kept = {p.name for p in pchdir.iterdir()}
    old = {f"{n:02d}.pch" for n in range(6, pch.KEEP + 5)}   # the newest 23 of the 29 old ones, beside the new one
    assert len(kept) == pch.KEEP and old < kept and len(new := (kept - old).pop()) == 36 and new.endswith(".pch")


# -- the preamble's PCH: the file's leading #include lines with the prelude

@pytest.mark.parametrize("text, lines", [
    ("#include <cstdio>\n#include \"a.h\" // why\n\n__global__ void k() {}\n", 2),
    ("/* licence\n   #include <nothing.h>\n*/\n// c\n#include <cstdio>\n/* x */ #include <cmath>\nint x;\n", 6),
    ("#include <cstdio>\n#define N 4\n#include <cmath>\n", 1),      # a macro may change what a later header means
    ("#include <cstdio>\n#include \\\n  <cmath>\n", 1),              # a continued line ends it
    ("#include HEADER\n#include <cstdio>\n", 0),                      # a computed name
    ("// only comments\nint x;\n#include <cstdio>\n", 0),
    ("#include <cstdio>\r\n#include <cmath>\r\nint x;\r\n", 2),
])
def test_the_preamble_is_the_leading_include_lines(text, lines):
    assert pch.preamble(text) == lines


HEADER = "#pragma once\n#define STRIDE 32\n__global__ void fromHeader(float *a) { a[threadIdx.x * STRIDE] = 1; }\n"
MAIN = ('// leading comment\n#include <cstdio>\n#include "h.cuh"\n\n'
        "__global__ void k(float *a) {\n  a[threadIdx.x * STRIDE] = 0;\n}\n"
        "int main() { float *a; cudaMalloc(&a, 1 << 20); k<<<1, 32>>>(a); fromHeader<<<1, 32>>>(a); }\n")


def _model_and_findings(path):
    from cudalint.runner import RunOptions, analyse_file
    diags, model = analyse_file(str(path), RunOptions())
    return [(d.code, d.path, d.line, d.column, d.message) for d in diags], model


def test_a_preamble_seen_twice_is_precompiled_and_gives_the_same_findings(pchdir, tmp_path, monkeypatch):
    monkeypatch.setattr(pch, "_preambles", {})
    monkeypatch.setattr(pch, "SLOW_PARSE", 0.0)   # every parse counts as slow here
    (tmp_path / "h.cuh").write_text(HEADER)
    src = tmp_path / "k.cu"
    src.write_text(MAIN)
    first, model = _model_and_findings(src)   # parsed from the headers; the preamble noted as seen
    assert sorted((c, os.path.basename(p), ln, col) for c, p, ln, col, _ in first) == [
        ("CL101", "h.cuh", 3, 40), ("CL101", "k.cu", 6, 3)]
    assert list(pchdir.glob("p-*.seen")) and not list(pchdir.glob("p-*.pch"))
    second, model2 = _model_and_findings(src)   # seen before: made, then used
    made = list(pchdir.glob("p-*.pch"))
    assert len(made) == 1 and second == first
    assert str(tmp_path / "h.cuh") in model2.dependencies   # the findings cache still sees the header
    args = [*libclang.base_args()]
    fast, blank, reads = pch.with_preamble(args, libclang.SHIMS, str(src), MAIN)
    assert fast[fast.index("-include-pch") + 1] == str(made[0]) and "-include" not in fast
    assert blank.split("\n")[3:] == MAIN.split("\n")[3:] and [len(ln) for ln in blank.split("\n")[:3]] == [
        len(ln) for ln in MAIN.split("\n")[:3]] and not "".join(blank.split("\n")[:3]).strip()
    assert (str(tmp_path / "h.cuh"), 3) in reads
    # the same declarations as parsed from the headers
    tu = libclang.parse(str(src), MAIN, [])
    assert [d.spelling for d in tu.diagnostics] == []
    names = lambda t: sorted(c.spelling for c in t.cursor.get_children())  # noqa: E731
    monkeypatch.setenv("CUDALINT_PCH", "0")
    assert names(tu) == names(libclang.parse(str(src), MAIN, []))


def test_an_edited_header_of_the_preamble_is_read_again(pchdir, tmp_path, monkeypatch):
    """clang checks a PCH's headers by size and time in whole seconds; cudalint checks the project's headers to the
    nanosecond: an edit within the same second, to the same size, is seen too."""
    monkeypatch.setattr(pch, "_preambles", {})
    monkeypatch.setattr(pch, "SLOW_PARSE", 0.0)
    header = tmp_path / "h.cuh"
    header.write_text(HEADER)
    src = tmp_path / "k.cu"
    src.write_text(MAIN)
    _model_and_findings(src)
    _model_and_findings(src)
    assert list(pchdir.glob("p-*.pch"))
    st = header.stat()
    header.write_text(HEADER.replace("32", "01"))   # the same size
    os.utime(header, ns=(st.st_atime_ns, st.st_mtime_ns + 1))
    found, _ = _model_and_findings(src)
    assert [(c, ln) for c, _, ln, _, _ in found] == []   # stride 1: coalesced, in the kernel and the header


def test_no_preamble_pch_for_a_missing_header(pchdir, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(pch, "_preambles", {})
    monkeypatch.setattr(pch, "SLOW_PARSE", 0.0)
    src = tmp_path / "k.cu"
    src.write_text(MAIN)   # h.cuh is not there
    for _ in range(2):   # (shims alone: the toolkit's probe would make a preamble PCH of its own)
        main(["check", "--no-cache", "--format", "json", "--exit-zero", "--cuda-path", "none", str(src)])
        found = [(d["code"], d["line"], d["column"], d["message"]) for d in json.loads(capsys.readouterr().out)]
        assert [(c, ln) for c, ln, _, _ in found] == [("CL000", 5)] and "unresolved includes: h.cuh" in found[0][3]
    assert list(pchdir.glob("p-*.seen")) and not list(pchdir.glob("p-*.pch"))


def test_preamble_pchs_past_the_budget_are_pruned_least_recently_used_first(pchdir, monkeypatch):
    pchdir.mkdir(mode=0o700)
    monkeypatch.setenv("CUDALINT_PCH_MB", "3")
    for n in range(6):
        for ext in (".pch", ".json"):
            (pchdir / f"p-{n}{ext}").write_bytes(b"x" * (1 << 20 if ext == ".pch" else 10))
            os.utime(pchdir / f"p-{n}{ext}", (1000 + n, 1000 + n))
    pch._prune(pchdir, keep=pchdir / "p-0.pch")   # the one just made stays whatever its time
    assert sorted(p.name for p in pchdir.iterdir()) == [
        "p-0.json", "p-0.pch", "p-4.json", "p-4.pch", "p-5.json", "p-5.pch"]


def test_a_preamble_that_cannot_be_made_is_not_tried_again(pchdir, tmp_path, monkeypatch):
    monkeypatch.setattr(pch, "_preambles", {})
    monkeypatch.setattr(pch, "SLOW_PARSE", 0.0)
    src = tmp_path / "k.cu"
    src.write_text(MAIN)   # h.cuh is not there
    tries = []
    make = pch._make_preamble
    monkeypatch.setattr(pch, "_make_preamble", lambda *a: tries.append(1) or make(*a))
    for _ in range(3):
        libclang.parse(str(src), MAIN, [])
    seen = next(pchdir.glob("p-*.seen"))
    assert tries == [1] and seen.read_text() == "unfit\n"
    pch._preambles.clear()   # another run: not tried again
    libclang.parse(str(src), MAIN, [])
    assert tries == [1]
    os.utime(seen, (0, 0))   # a day later: tried again, with the header there now
    (tmp_path / "h.cuh").write_text(HEADER)
    pch._preambles.clear()
    libclang.parse(str(src), MAIN, [])
    assert tries == [1, 1] and list(pchdir.glob("p-*.pch"))
