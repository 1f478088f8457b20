"""The per-file result cache: hits skip linting, any change to the file, a header it includes, the options
or cudalint's version misses; broken or concurrent entries are harmless."""

import json
from pathlib import Path

from cudalint.cache import Cache
from cudalint.cli import main
from cudalint.runner import RunOptions

KERNEL = '#include "stride.h"\n__global__ void k(float* a) {\n    a[STRIDE * threadIdx.x] = 0.0f;\n}\n'


def check(capsys, *args):
    code = main(["check", "--format", "json", *args])
    return code, json.loads(capsys.readouterr().out)


def setup(tmp_path):
    (tmp_path / "stride.h").write_text("#define STRIDE 32\n")
    f = tmp_path / "k.cu"
    f.write_text(KERNEL)
    return f, tmp_path / "cache"


def test_hit_returns_the_same_findings_without_linting(tmp_path, capsys, monkeypatch):
    f, cache = setup(tmp_path)
    _, first = check(capsys, "--cache-dir", str(cache), str(f))
    assert [(d["code"], d["metrics"]["sectors_per_request"]) for d in first] == [("CL101", 32)]
    import cudalint.parallel as par

    def boom(*a, **k):
        raise AssertionError("linted again despite a valid cache entry")
    monkeypatch.setattr(par, "ProcessPool", boom)
    _, second = check(capsys, "--cache-dir", str(cache), str(f))
    assert second == first


def test_changes_to_the_file_a_header_or_the_options_miss(tmp_path, capsys):
    f, cache = setup(tmp_path)
    check(capsys, "--cache-dir", str(cache), str(f))
    (tmp_path / "stride.h").write_text("#define STRIDE 2\n")  # header edited: re-lint
    _, got = check(capsys, "--cache-dir", str(cache), str(f))
    assert got[0]["metrics"]["sectors_per_request"] == 8
    _, got = check(capsys, "--cache-dir", str(cache), "--ignore", "CL101", str(f))  # other options
    assert got == []
    f.write_text(KERNEL.replace("STRIDE * ", ""))  # file edited
    _, got = check(capsys, "--cache-dir", str(cache), str(f))
    assert got == []


def test_no_cache_and_corrupt_entries(tmp_path, capsys):
    f, cache = setup(tmp_path)
    check(capsys, "--cache-dir", str(cache), str(f))
    entries = [p for p in cache.rglob("*") if p.is_file() and p.name != ".gitignore"]
    assert len(entries) == 1
    entries[0].write_text("{ not json")
    _, got = check(capsys, "--cache-dir", str(cache), str(f))
    assert [d["code"] for d in got] == ["CL101"]
    assert (cache / ".gitignore").read_text().endswith("*\n")
    nocache = tmp_path / "unused"
    check(capsys, "--no-cache", "--cache-dir", str(nocache), str(f))
    assert not nocache.exists()


def test_files_with_unresolved_includes_are_not_cached(tmp_path):
    f = tmp_path / "m.cu"
    f.write_text('#include "missing.h"\n__global__ void k(float* a) { a[2 * threadIdx.x] = 0; }\n')
    c = Cache(tmp_path / "cache")
    from cudalint.parallel import lint_many
    lint_many([(str(f), RunOptions())], cache=c)
    assert not any(p.is_file() and p.name != ".gitignore" for p in (tmp_path / "cache").rglob("*"))


def test_entries_of_other_code_are_not_reused(tmp_path, capsys, monkeypatch):
    """The cache folder is named after cudalint's version and a fingerprint of its files: results computed
    by other code (an edited rule, a newer release) are never read."""
    import cudalint.cache as cache_mod
    f, cache = setup(tmp_path)
    check(capsys, "--cache-dir", str(cache), str(f))
    first = {p.name for p in cache.iterdir() if p.is_dir()}
    assert first == {cache_mod.code_fingerprint()} and first.pop().startswith("0.1.0-")
    monkeypatch.setattr(cache_mod, "code_fingerprint", lambda: "0.1.0-edited")
    check(capsys, "--cache-dir", str(cache), str(f))
    assert (cache / "0.1.0-edited").is_dir()  # linted again into the new code's folder


def test_stale_results_the_old_key_gave_now_miss(tmp_path, capsys):
    """Issue 15: a compile command's new -D, a header that now shadows the one read, and a header edited with
    its size and mtime kept each gave the old answer from the cache."""
    import os
    f, cache = tmp_path / "k.cu", tmp_path / "cache"
    f.write_text('#include "stride.h"\n__global__ void k(float* a) {\n    a[STRIDE * LANE * threadIdx.x] = 0.0f;\n}\n')
    (tmp_path / "late").mkdir()
    (tmp_path / "early").mkdir()
    (tmp_path / "late" / "stride.h").write_text("#define STRIDE 32\n")
    db = tmp_path / "build" / "compile_commands.json"
    db.parent.mkdir()

    def entry(lane):
        db.write_text(json.dumps([{"directory": str(tmp_path), "file": str(f), "command":
                                   f"nvcc -I{tmp_path / 'early'} -I{tmp_path / 'late'} -DLANE={lane} -c {f}"}]))

    def sectors():
        _, got = check(capsys, "--cache-dir", str(cache), "-p", str(db.parent), str(f))
        return [d["metrics"]["sectors_per_request"] for d in got]
    entry(1)
    assert sectors() == [32]
    entry(0)                                                    # the compile command's macro changed
    assert sectors() == []
    entry(1)
    assert sectors() == [32]
    (tmp_path / "early" / "stride.h").write_text("#define STRIDE 2\n")  # shadows late/stride.h
    assert sectors() == [8]
    h = tmp_path / "early" / "stride.h"
    st = h.stat()
    h.write_text("#define STRIDE 4\n")                          # same size, same mtime
    os.utime(h, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert sectors() == [16]


def test_links_in_a_checkout_cannot_aim_the_cache_writes_elsewhere(tmp_path, capsys):
    f, cache = setup(tmp_path)
    target = tmp_path / "elsewhere" / "planted"
    cache.mkdir()
    (cache / ".gitignore").symlink_to(target)      # dangling: writing it would create `planted`
    check(capsys, "--cache-dir", str(cache), str(f))
    assert not target.exists() and not target.parent.exists()
    linked = tmp_path / "linked_cache"
    linked.symlink_to(tmp_path / "elsewhere2", target_is_directory=True)
    check(capsys, "--cache-dir", str(linked), str(f))
    assert not (tmp_path / "elsewhere2").exists()
