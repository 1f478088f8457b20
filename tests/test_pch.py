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
