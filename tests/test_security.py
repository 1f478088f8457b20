"""Untrusted repositories (issue 15): a pull request's code or configuration cannot make cudalint read a file of
the CI runner into its output (cudalint.frontend.confine)."""

from __future__ import annotations

import json
import os

import pytest

from cudalint.cli import main
from cudalint.frontend.confine import summarise

KERNEL = "__global__ void k(float *a) { a[threadIdx.x * 32] = 0; }\n"
SECRET = "ghs_SECRETTOKEN"
#: a 32-way column conflict whose fix pads the tile: a file --fix wants to write
TILE = ("__global__ void k(float *a) {\n    __shared__ float t[32][32];\n"
        "    t[threadIdx.x][0] = a[threadIdx.x];\n    __syncthreads();\n"
        "    a[threadIdx.x] = t[threadIdx.x][1];\n}\n")


@pytest.fixture
def layout(tmp_path, monkeypatch):
    """``proj/`` (a git checkout: ``.git/config`` holds a token) beside ``outside/secret.h`` (a runner file)."""
    proj, outside = tmp_path / "proj", tmp_path / "outside"
    (proj / ".git").mkdir(parents=True)
    (proj / ".git" / "config").write_text(f"{SECRET} x;\n")
    outside.mkdir()
    (outside / "secret.h").write_text(f"{SECRET} y;\n")
    (outside / "v").write_text("v")  # one byte: 118
    monkeypatch.chdir(proj)
    return proj, outside


def _check(capsys, *args):
    code = main(["check", "--no-cache", "--format", "json", "--exit-zero", *args])
    out = capsys.readouterr().out
    return code, json.loads(out), out


def test_embed_is_refused_and_no_byte_of_the_file_is_printed(layout, capsys):
    proj, outside = layout
    (proj / "k.cu").write_text("template <int N> struct Show;\n__global__ void k(float *a) {\n  Show<\n"
                               f'#embed "{outside / "v"}"\n  > s;\n  a[threadIdx.x * 32] = 0;\n}}\n')
    _, found, out = _check(capsys, "k.cu")
    assert [(d["code"], d["line"]) for d in found] == [("CL000", 4)]
    assert found[0]["message"].startswith("not linted: `#embed`/`__has_embed` reads a file's bytes")
    # the byte's value, outside the temporary folder's name (pytest numbers its folders: pytest-118)
    assert "118" not in out.replace(str(proj.parent), "") and "Show<" not in out


@pytest.mark.parametrize("directive", ["# /* */ embed", "#\\\nembed"])
def test_embed_behind_a_comment_or_a_line_splice_is_refused(layout, capsys, directive):
    proj, outside = layout
    (proj / "k.cu").write_text(f'{directive} "{outside / "v"}"\n' + KERNEL)
    _, found, _ = _check(capsys, "k.cu")
    assert [(d["code"], d["message"][:22]) for d in found] == [("CL000", "not linted: `#embed`/`")]


def test_an_include_outside_the_project_is_refused(layout, capsys):
    proj, outside = layout
    (proj / "k.cu").write_text(f'\n#include "{outside / "secret.h"}"\n' + KERNEL)
    _, found, out = _check(capsys, "k.cu")
    assert [(d["code"], d["line"]) for d in found] == [("CL000", 2)]
    assert found[0]["message"] == (
        f"not linted: it includes `{outside / 'secret.h'}`, outside the project ({os.path.realpath(proj)}) and "
        "the system headers; cudalint reads no other file (add its folder to `include-paths` of a configuration "
        "given with --config to allow it)")
    assert SECRET not in out


def test_a_symlink_out_of_the_project_and_git_metadata_are_refused(layout, capsys):
    proj, outside = layout
    (proj / "inc.h").symlink_to(outside / "secret.h")
    (proj / "a.cu").write_text('#include "inc.h"\n' + KERNEL)
    (proj / "b.cu").write_text('#include ".git/config"\n' + KERNEL)
    _, found, out = _check(capsys, "a.cu", "b.cu")
    assert [(d["path"], d["code"], d["message"][:25]) for d in found] == [
        ("a.cu", "CL000", "not linted: it includes `"), ("b.cu", "CL000", "not linted: it includes `")]
    assert SECRET not in out


def test_a_repository_configuration_cannot_widen_what_is_read(layout, capsys, tmp_path):
    proj, outside = layout
    (proj / "k.cu").write_text('#include "secret.h"\n' + KERNEL)
    (proj / ".cudalint.toml").write_text(f'include-paths = ["{outside}"]\n')
    _, found, out = _check(capsys, "k.cu")
    assert [d["message"][:25] for d in found] == ["not linted: it includes `"]
    assert SECRET not in out
    # the user's own configuration, given with --config, is trusted: the header is read (and is not CUDA)
    mine = tmp_path / "mine.toml"
    mine.write_text(f'include-paths = ["{outside}"]\n')
    _, found, _ = _check(capsys, "--config", str(mine), "k.cu")
    assert [d["code"] for d in found] == ["CL101"]


def test_headers_inside_the_project_and_system_headers_are_read(layout, capsys):
    proj, _ = layout
    (proj / "inc").mkdir()
    (proj / "inc" / "tile.h").write_text("#define STRIDE 32\n")
    (proj / "k.cu").write_text('#include <stdio.h>\n#include "inc/tile.h"\n'
                               "__global__ void k(float *a) { a[threadIdx.x * STRIDE] = 0; }\n")
    _, found, _ = _check(capsys, "k.cu")
    assert [(d["code"], d["line"], d["metrics"]["sectors_per_request"]) for d in found] == [("CL101", 3, 32)]


def test_clang_diagnostics_keep_only_identifiers_the_file_spells():
    src = "__global__ void k() { Show<N> s; TILE x; }"
    assert summarise("implicit instantiation of undefined template 'Show<118>'", src) == \
        "implicit instantiation of undefined template '…'"
    assert summarise("unknown type name 'root'", src) == "unknown type name '…'"
    assert summarise("unknown type name 'TILE'", src) == "unknown type name 'TILE'"
    assert summarise("static assertion failed: ghs_abc", src) == "static assertion failed"


def test_a_linted_file_that_links_out_of_the_project_is_refused(layout, capsys):
    proj, outside = layout
    (proj / "x.cu").symlink_to(outside / "secret.h")
    _, found, out = _check(capsys, ".")
    assert [(d["path"], d["code"]) for d in found] == [("x.cu", "CL000")]
    assert found[0]["message"] == (f"not linted: `x.cu` is a link to `{outside / 'secret.h'}`, outside "
                                   f"the project ({os.path.realpath(proj)})")
    assert SECRET not in out


def test_fifos_devices_and_huge_files_are_not_read(layout, capsys):
    from cudalint.runner import MAX_SOURCE_BYTES
    proj, _ = layout
    os.mkfifo(proj / "fifo.cu")                 # reading it would block the run for ever
    (proj / "zero.cu").symlink_to("/dev/zero")  # reading it would fill the memory
    (proj / "big.cu").write_bytes(b" " * (MAX_SOURCE_BYTES + 1))
    (proj / "ok.cu").write_text(KERNEL)
    _, found, _ = _check(capsys, ".")
    assert [(d["path"], d["code"], d["message"]) for d in found] == [
        ("big.cu", "CL000", f"cannot read big.cu: larger than 8 MiB ({MAX_SOURCE_BYTES + 1} bytes); not linted"),
        ("fifo.cu", "CL000", "cannot read fifo.cu: not a regular file (a FIFO); not read"),
        ("ok.cu", "CL101", found[2]["message"]),
        ("zero.cu", "CL000", f"not linted: `zero.cu` is a link to `/dev/zero`, outside the project "
                               f"({os.path.realpath(proj)})")]
    from cudalint.runner import read_bytes
    with pytest.raises(OSError, match=r"not a regular file \(a device\); not read"):
        read_bytes("/dev/zero")


def test_links_out_of_the_project_are_not_read_by_either_front_end_nor_fixed(layout, capsys):
    proj, outside = layout
    victim = outside / "victim.cu"
    victim.write_text("__global__ void k(float *a) {\n    __shared__ float t[32][32];\n"
                      "    t[threadIdx.x][0] = a[threadIdx.x];\n    a[threadIdx.x] = t[0][threadIdx.x];\n}\n")
    (proj / "v.cu").symlink_to(victim)
    before = victim.read_text()
    for front in ("clang", "tree-sitter"):
        main(["check", "--no-cache", "--fix", "--frontend", front, "."])
        out = capsys.readouterr().out
        assert "\nv.cu:1:1: CL000 [analysis-incomplete] not linted: `v.cu` is a link to " in "\n" + out
    assert victim.read_text() == before


def test_fix_leaves_a_read_only_file_untouched(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    f = tmp_path / "k.cu"
    f.write_text(TILE)
    before = f.read_text()
    f.chmod(0o444)
    main(["check", "--no-cache", "--fix", "k.cu"])
    err = capsys.readouterr().err
    assert err.startswith("cudalint: not fixing k.cu: it is read-only")
    assert f.read_text() == before and (f.stat().st_mode & 0o777) == 0o444


def test_fix_in_a_folder_it_cannot_write_says_so_and_changes_nothing(tmp_path, capsys, monkeypatch):
    import cudalint.fix as fix_mod
    monkeypatch.chdir(tmp_path)
    f = tmp_path / "k.cu"
    src = TILE
    f.write_text(src)

    def full_disk(path, data):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(fix_mod, "write_atomic", full_disk)
    main(["check", "--no-cache", "--fix", "k.cu"])
    out, err = capsys.readouterr()
    assert err == "cudalint: not fixing k.cu: cannot write it (No space left on device)\n"
    assert out.startswith("No fixes available.\n") and f.read_text() == src


def test_fix_removes_temporary_files_a_killed_run_left(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    f = tmp_path / "k.cu"
    f.write_text(TILE)
    stale = tmp_path / ".k.cu.abc123.cudalint-fix"
    stale.write_text("half a file")
    main(["check", "--no-cache", "--fix", "k.cu"])
    assert "t[32][33]" in f.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.cu"]


def test_headers_that_are_fifos_devices_or_huge_are_refused_before_clang_opens_them(layout, capsys):
    """A first user's trial: `#include "p.h"` of a FIFO hung the run (clang blocks opening it), an included link
    to /dev/zero was read until the worker was killed, and a 9 MiB header was read; the checks covered only the
    linted files themselves."""
    proj, _ = layout
    (proj / "g").mkdir()
    os.mkfifo(proj / "g" / "p.h")
    (proj / "zero.h").symlink_to("/dev/zero")
    (proj / "g" / "big.h").write_bytes(b" " * (9 << 20))
    for name, inc in (("a.cu", "p.h"), ("b.cu", "../zero.h"), ("c.cu", "big.h"), ("d.cu", "../.git/config")):
        (proj / "g" / name).write_text(f'#include "{inc}"\n' + KERNEL)
    _, found, _ = _check(capsys, "g")
    assert [(d["path"], d["line"], d["code"], d["message"]) for d in found] == [
        ("g/a.cu", 1, "CL000", f"not linted: it includes `{proj / 'g' / 'p.h'}`, not a regular file (a FIFO or a "
                               "device: clang would block on it or read it without end); cudalint reads no such file"),
        ("g/b.cu", 1, "CL000", f"not linted: it includes `{proj / 'zero.h'}` (a link to `/dev/zero`), outside the "
                               f"project ({os.path.realpath(proj)}) and the system headers; cudalint reads no other "
                               "file (add its folder to `include-paths` of a configuration given with --config to "
                               "allow it)"),
        ("g/c.cu", 1, "CL000", f"not linted: it includes `{proj / 'g' / 'big.h'}`, larger than 8 MiB (9437184 bytes); "
                               "cudalint reads no such file"),
        ("g/d.cu", 1, "CL000", f"not linted: it includes `{proj / '.git' / 'config'}`, inside a `.git` folder "
                               "(repository metadata, which can hold credentials); cudalint reads no such file")]


def test_a_header_that_embeds_a_file_is_refused_before_the_parse(layout, capsys):
    proj, outside = layout
    (proj / "e.h").write_text(f'static const char bytes[] = {{\n#embed "{outside / "v"}"\n}};\n')
    (proj / "k.cu").write_text('#include "e.h"\n' + KERNEL)
    _, found, out = _check(capsys, "k.cu")
    assert [(d["line"], d["message"]) for d in found] == [
        (1, f"not linted: the header `{proj / 'e.h'}` uses `#embed`/`__has_embed`, which reads a file's bytes into "
            "the program")]
    assert "118" not in out.replace(str(proj.parent), "")


def test_headers_are_resolved_as_realpath_resolves_them(tmp_path):
    """check_reads resolves each header's folder once and the name after it by one lstat (speed: a translation
    unit names a thousand headers): the same answer as os.path.realpath for links to folders, links to files, links
    with `..` in them and paths through them."""
    from cudalint.frontend.confine import _RealPaths
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "f.h").write_text("")
    os.symlink(tmp_path / "a" / "b", tmp_path / "lnk")
    os.symlink("b/f.h", tmp_path / "a" / "g.h")
    os.symlink("../..", tmp_path / "a" / "b" / "up")
    real = _RealPaths()
    for p in ("lnk/f.h", "a/g.h", "lnk/../x.h", "a/b/up/a/b/f.h", "lnk/up/lnk/f.h", "a/./b/f.h", "lnk/"):
        assert real(str(tmp_path / p)) == os.path.realpath(tmp_path / p), p
    assert real(str(tmp_path / "lnk/f.h")) == str(tmp_path / "a" / "b" / "f.h")
    assert real(str(tmp_path / "lnk/../x.h")) == str(tmp_path / "a" / "x.h")   # `..` after the link, not before it


def test_a_header_through_a_link_out_of_the_project_is_refused_however_often_it_is_included(tmp_path):
    """The memo of resolved folders must not let a link out of the project through (checked once, refused)."""
    from cudalint.frontend.confine import Refused, check_reads
    proj, out = tmp_path / "proj", tmp_path / "elsewhere"
    proj.mkdir()
    out.mkdir()
    (out / "h.h").write_text("")
    (proj / "k.cu").write_text("")
    (proj / "inc").symlink_to(out)
    inside = str(proj / "k.cu")
    with pytest.raises(Refused, match="outside the project"):
        check_reads([(str(proj / "inc" / "h.h"), 1)] * 3, (str(proj),), inside)
