"""A precompiled header (PCH) of the prelude every file is parsed with, kept per user and machine.

Every translation unit starts with the same forced include (``-include cudalint_prelude.h``: the shims, libc++'s
``<cstdio>``, ``<cmath>``..., about 28,000 declarations; the toolkit mode's ``cudalint_toolkit_prelude.h`` and the
toolkit's ``cuda_runtime.h``). Parsing it is most of the cost of a small file: 120 ms of a 130 ms parse of a
one-kernel file, against 10 ms with the PCH (libclang 22, this project's 2-core machine; issue 13). clang
serialises the parsed prelude once (``clang_saveTranslationUnit``) and every later parse with the same arguments
loads it (``-include-pch``) instead of reading the headers again; the declarations, macros and source locations it
gives the file are the same, so the findings are too (the test suite and the corpora run both ways).

Where it lives: ``$CUDALINT_PCH_DIR``, else ``$XDG_CACHE_HOME/cudalint/pch``, else ``~/.cache/cudalint/pch``: a
folder of the user's, never the linted repository's (a PCH is a serialised AST that clang trusts: one a pull
request could plant would be untrusted input to clang's reader). A folder or file that another user owns or that
others may write is not used. ``CUDALINT_PCH=0`` turns it off. The name of a PCH is the SHA-256 of everything it
depends on that clang does not check itself: libclang's library, the shim headers (name, size, time) and the whole
argument list (include paths, ``-D``, ``-std``, the toolkit); clang checks the rest when it loads one (each header it
read unchanged in size and modification time, the same language options), and a PCH it refuses is deleted and the
file parsed from its headers. A PCH is made only when the prelude parses without an error and reads no header
outside the system roots (:func:`cudalint.frontend.confine.system_roots`): a project header that an ``-I`` folder
puts in the prelude's way is read, as before, under the confinement checks of every parse. Files are written
atomically (a temporary file, then ``os.replace``): runs and worker processes that build the same PCH at once each
keep a whole one.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import stat
import tempfile
from pathlib import Path
from typing import Optional

import clang.cindex as ci

#: libclang's ``CXTranslationUnit_KeepGoing | CXTranslationUnit_Incomplete`` (the second: a header made into a PCH
#: leaves its templates uninstantiated, as clang's ``-emit-pch`` does)
_BUILD_OPTIONS = 0x200 | 0x02
#: per process: the argument list -> the PCH's path, or None where none can be used
_made: dict[tuple[str, ...], Optional[str]] = {}
#: argument lists whose PCH clang refused once (made again once; refused twice, none is used)
_refused: set[tuple[str, ...]] = set()


def folder() -> Optional[Path]:
    """The user's PCH folder, created (mode 0700) if missing; None when PCHs are turned off or the folder cannot be
    made or is not the user's alone."""
    if os.environ.get("CUDALINT_PCH", "1") == "0":
        return None
    root = os.environ.get("CUDALINT_PCH_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "cudalint", "pch")
    try:
        os.makedirs(root, mode=0o700, exist_ok=True)
        return Path(root) if _own(os.stat(root)) else None
    except OSError:
        return None


def _own(st: os.stat_result) -> bool:
    """Whether a file or folder is the user's and nobody else may write it."""
    return (not hasattr(os, "getuid") or st.st_uid == os.getuid()) and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


@functools.cache
def _headers_fingerprint(shims: Path) -> str:
    """The name, size and modification time of every file under ``shims`` (the toolkit mode's prelude included)."""
    h = hashlib.sha256()
    for p in sorted(p for p in shims.rglob("*") if p.is_file()):
        st = p.stat()
        h.update(f"{p.relative_to(shims)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def _key(args: list[str], shims: Path) -> str:
    lib = ci.conf.lib._name  # the library file libclang was loaded from
    h = hashlib.sha256(_headers_fingerprint(shims).encode())
    with contextlib.suppress(OSError, TypeError):
        st = os.stat(lib)
        h.update(f"{lib}\0{st.st_size}\0{st.st_mtime_ns}".encode())
    for var in ("CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH"):  # clang reads these as include folders
        h.update(f"\0{var}={os.environ.get(var, '')}".encode())
    h.update("\0".join(["", *args]).encode())
    return h.hexdigest()[:32]


def _forced(args: list[str]) -> Optional[int]:
    """The index of the first ``-include`` in ``args`` (the prelude), None when there is none."""
    return next((i for i, a in enumerate(args[:-1]) if a == "-include"), None)


def with_pch(args: list[str], shims: Path) -> Optional[list[str]]:
    """``args`` with its prelude (the first ``-include HEADER``; ``shims``: the folder whose files the PCH's name
    covers) replaced by
    ``-include-pch PATH``, making the PCH on first use; None where no PCH can be used (see the module docstring)."""
    i = _forced(args)
    if i is None:
        return None
    key = tuple(args)
    if key not in _made:
        _made[key] = _make(args, i, shims)
    pch = _made[key]
    return None if pch is None else [*args[:i], "-include-pch", pch, *args[i + 2:]]


def _make(args: list[str], i: int, shims: Path) -> Optional[str]:
    where = folder()
    if where is None:
        return None
    path = where / f"{_key(args, shims)}.pch"
    with contextlib.suppress(OSError):
        if _own(os.stat(path)):
            return str(path)
        return None  # someone else's file under the user's name: not read, not replaced
    # a stub that includes the prelude as clang's `-include` does (a quoted include, found on the search path): its
    # headers are system headers, as in every parse (made the main file, the prelude's declarations would not be)
    stub = "/cudalint-pch-stub.cu"   # never on disk: libclang reads it from memory
    try:
        tu = ci.Index.create().parse(stub, args=[*args[:i], *args[i + 2:]], options=_BUILD_OPTIONS,
                                     unsaved_files=[(stub, f'#include "{args[i + 1]}"\n')])
    except ci.TranslationUnitLoadError:
        return None
    from .confine import inside, system_roots
    roots = system_roots()
    if any(d.severity >= 3 for d in tu.diagnostics) or not all(
            inside(inc.include.name, roots) for inc in tu.get_includes() if inc.include is not None):
        return None
    fd, tmp = tempfile.mkstemp(dir=where, suffix=".tmp")
    os.close(fd)
    try:
        tu.save(tmp)
        os.replace(tmp, path)
        _prune(where, keep=path)
    except (OSError, ci.TranslationUnitSaveError):
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        return None
    return str(path)


#: PCHs kept in the folder (3.7 MB each with the shims, 9.3 MB with a toolkit): the most recently made
KEEP = 24


def _prune(where: Path, keep: Path) -> None:
    """Delete all but the :data:`KEEP` newest PCHs of ``where`` (an edited shim or another argument list makes a
    new one), and temporary files an interrupted run left there over an hour ago."""
    import time
    with contextlib.suppress(OSError):
        entries = [(e.stat().st_mtime, Path(e.path)) for e in os.scandir(where) if e.is_file()]
        pchs = sorted((e for e in entries if e[1].suffix == ".pch" and e[1] != keep), reverse=True)
        stale = [p for t, p in entries if p.suffix == ".tmp" and t < time.time() - 3600]
        for p in [p for _, p in pchs[KEEP - 1:]] + stale:
            with contextlib.suppress(OSError):
                p.unlink()


def refused(args: list[str]) -> None:
    """clang refused the PCH ``args`` names (libclang fails the whole parse: a header it read changed since, other
    language options, a damaged file) while the same file parses from its headers: the PCH is deleted, made again
    at the next :func:`with_pch` of the same arguments, and after a second refusal not used in this process."""
    i = next((j for j, a in enumerate(args[:-1]) if a == "-include-pch"), None)
    if i is None:
        return
    pch = args[i + 1]
    for k, v in list(_made.items()):
        if v == pch:
            if k in _refused:
                _made[k] = None
            else:
                del _made[k]
                _refused.add(k)
    with contextlib.suppress(OSError):
        os.unlink(pch)
