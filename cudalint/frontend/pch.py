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

The preamble (:func:`with_preamble`): a file's own leading ``#include`` lines are most of the rest of a parse where
they reach heavy headers (cuda-samples' ``helper_cuda.h`` pulls in libc++'s streams and strings: 0.75 s of
vectorAdd's 0.76 s parse with the prelude's PCH, 0.11 s with its preamble's). The prelude and those lines are
precompiled together into ``p-KEY.pch`` (the stub that holds them has the file's line numbers and lies, in memory, in
the file's folder, so a quoted name resolves as in the file), and the file is parsed with that PCH and its preamble
made blank (spaces: the same lines and columns), so clang reads each preamble line once, from the PCH, in the same
order as from the headers. ``p-KEY.json`` beside it lists the headers it read (the translation unit that loads a
PCH does not list them: the confinement checks and the findings cache need them) and the size and time to the
nanosecond of each project header, checked at every use (clang checks times in whole seconds). A preamble is made
on its second sighting only: a parse slower than :data:`SLOW_PARSE` leaves an empty ``p-KEY.seen``, so a file
linted once (a clean CI run) pays nothing, and a preamble PCH (5-20 MB) is kept only where it saves time; one whose
headers give an error is marked unfit in that file and not tried again for :data:`RETRY_UNFIT` seconds. The
least recently used past :data:`PREAMBLE_BUDGET` bytes (``CUDALINT_PCH_MB``) are deleted. A preamble whose
headers do not parse cleanly is never made: the file is parsed from its headers, which reports the error.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import stat
import tempfile
import time
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
    if not _write(path, tu.save):
        return None
    _prune(where, keep=path)
    return str(path)


def _write(target: Path, write) -> bool:
    """Write ``target`` atomically: ``write(temporary path)`` in its folder, then ``os.replace`` (runs and workers
    that make the same file at once each leave a whole one); False, and no file left, where that fails."""
    fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, target)
        return True
    except (OSError, ci.TranslationUnitSaveError):
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        return False


#: prelude PCHs kept in the folder (3.7 MB each with the shims, 9.3 MB with a toolkit): the most recently made
KEEP = 24
#: bytes of preamble PCHs kept (the least recently used go first; 5-20 MB each); ``CUDALINT_PCH_MB`` sets it
PREAMBLE_BUDGET = 1024 << 20
#: sightings of preambles kept (empty files; the oldest go first)
KEEP_SEEN = 4096


def _prune(where: Path, keep: Path) -> None:
    """Delete all but the :data:`KEEP` newest prelude PCHs of ``where`` (an edited shim or another argument list
    makes a new one), the least recently used preamble PCHs past :data:`PREAMBLE_BUDGET` bytes, the oldest
    sightings past :data:`KEEP_SEEN`, and temporary files an interrupted run left there over an hour ago."""
    with contextlib.suppress(OSError):
        entries = [(e.stat(), Path(e.path)) for e in os.scandir(where) if e.is_file()]
        pchs = sorted(((st.st_mtime, p) for st, p in entries if p.suffix == ".pch" and p != keep
                       and not p.name.startswith("p-")), reverse=True)
        stale = [p for st, p in entries if p.suffix == ".tmp" and st.st_mtime < time.time() - 3600]
        seen = sorted(((st.st_mtime, p) for st, p in entries if p.suffix == ".seen"), reverse=True)
        drop = [p for _, p in pchs[KEEP - 1:]] + stale + [p for _, p in seen[KEEP_SEEN:]]
        budget = _budget()
        for st, p in sorted(((st, p) for st, p in entries if p.suffix == ".pch" and p.name.startswith("p-")),
                            key=lambda e: (e[1] != keep, -e[0].st_mtime)):   # the new one, then the newest use
            budget -= st.st_size
            if budget < 0 and p != keep:
                drop += [p, p.with_suffix(".json")]
        for p in drop:
            with contextlib.suppress(OSError):
                p.unlink()


def _budget() -> int:
    with contextlib.suppress(ValueError):
        return int(os.environ["CUDALINT_PCH_MB"]) << 20 if os.environ.get("CUDALINT_PCH_MB") else PREAMBLE_BUDGET
    return PREAMBLE_BUDGET


# -- the preamble: the file's own leading #include lines, precompiled with the prelude

_INCLUDE_LINE = re.compile(r'#\s*include\s*(<[^>\n]+>|"[^"\n]+")')
#: a preamble PCH is worth its disk (5-20 MB) only where the parse it saves is slow: seconds of a parse from the
#: prelude's PCH at or over which a file's preamble is noted as seen (:func:`sighted`)
SLOW_PARSE = 0.25
#: per process: preamble key -> (the PCH's path, the (header, line) pairs it read, the project headers' stamps:
#: :func:`_stamps`), or None where it is not to be used
_preambles: dict[str, Optional[tuple[str, list, list]]] = {}


def preamble(text: str) -> int:
    """How many leading lines of ``text`` form its preamble: blank lines, comments and ``#include`` lines that name
    their header literally, up to the last such ``#include``; 0 where there is none.  Anything else (a ``#define``,
    an ``#if``, a continued line, code) ends it: what follows may change what a later header means."""
    last, in_block = 0, False
    for n, line in enumerate(text.split("\n"), 1):
        if line.rstrip().endswith("\\"):
            break
        code, i = [], 0
        while i < len(line):
            if in_block:
                j = line.find("*/", i)
                in_block, i = j < 0, len(line) if j < 0 else j + 2
            elif line.startswith("/*", i):
                in_block, i = True, i + 2
            elif line.startswith("//", i):
                break
            else:
                code.append(line[i])
                i += 1
        stripped = "".join(code).strip()
        if not stripped:
            continue
        if not _INCLUDE_LINE.fullmatch(stripped):
            break
        last = n
    return last


def _preamble_key(args: list[str], shims: Path, path: str, pre: str) -> str:
    """The name of a preamble's PCH: the prelude's key (:func:`_key`), the preamble's text, the working folder
    (relative ``-I`` folders) and, where the preamble names a header in quotes, the file's folder (where clang looks
    for it first); a preamble of ``<...>`` headers alone is shared by every file that starts with it."""
    h = hashlib.sha256(f"{_key(args, shims)}\0{os.getcwd()}\0".encode())
    if '"' in pre:
        h.update(os.path.dirname(os.path.abspath(path)).encode())
    h.update(b"\0" + pre.encode("utf-8", "surrogateescape"))
    return "p-" + h.hexdigest()[:32]


def _split(text: str) -> Optional[tuple[str, str]]:
    """(the preamble's text, ``text`` with the preamble's characters made spaces: the same lines and columns), None
    where the file has no preamble."""
    n = preamble(text)
    if not n:
        return None
    lines = text.split("\n")
    return "\n".join(lines[:n]) + "\n", "\n".join(re.sub(r"[^\r]", " ", ln) for ln in lines[:n]) + "\n" + \
        "\n".join(lines[n:])


def with_preamble(args: list[str], shims: Path, path: str, text: str
                  ) -> Optional[tuple[list[str], str, list[tuple[str, int]]]]:
    """Where ``text`` (the file ``path``) starts with a preamble (:func:`preamble`) whose PCH exists, or was seen
    before (:func:`sighted`) and can be made now: (``args`` with the prelude replaced by ``-include-pch PATH``,
    ``text`` with the preamble blanked, the (header, line) pairs the preamble read, as
    :func:`cudalint.frontend.confine.inclusions` gives them: a PCH's own inclusions are not listed by the translation
    unit that loads it); else None.  The file parsed so has the declarations, macros and locations it has when parsed
    from its headers: the preamble's lines are read from the PCH and are blank in the text clang reads after it."""
    i, parts = _forced(args), _split(text)
    where = folder()
    if i is None or parts is None or where is None:
        return None
    pre, blank = parts
    key = _preamble_key(args, shims, path, pre)
    made = _preambles.get(key)
    if made is not None and not _current(made[2]):
        del _preambles[key]   # a project header it read was edited since (clang checks times in whole seconds)
    if key not in _preambles:
        made = _load_preamble(where, key)
        if made is None:
            seen = where / f"{key}.seen"
            if not _due(seen):
                return None   # not seen before, or found unfit lately: a later sighting makes it
            made = _make_preamble(where, key, args, path, pre)
            if made is None:   # its headers do not parse cleanly: not tried again for a day
                with contextlib.suppress(OSError):
                    seen.write_text("unfit\n")
        _preambles[key] = made
    if made is None:
        return None
    with contextlib.suppress(OSError):
        os.utime(made[0])   # used: the budget keeps the most recently used
    return [*args[:i], "-include-pch", made[0], *args[i + 2:]], blank, made[1]


#: seconds after which a preamble that could not be made is tried again (a missing header may have been added)
RETRY_UNFIT = 24 * 3600


def _due(seen: Path) -> bool:
    """Whether the preamble whose sighting is ``seen`` is to be made now: seen before, and not found unfit (its
    headers gave an error) in the last :data:`RETRY_UNFIT` seconds."""
    try:
        st = os.stat(seen)
    except OSError:
        return False
    return st.st_size == 0 or st.st_mtime < time.time() - RETRY_UNFIT


def _stamps(includes: list) -> list:
    """[name, size, modification time in ns] of each header ``includes`` names outside the system roots."""
    from .confine import inside, system_roots
    roots, out = system_roots(), []
    for name in sorted({name for name, _ in includes}):
        if not inside(name, roots):
            st = os.stat(name)
            out.append([name, st.st_size, st.st_mtime_ns])
    return out


def _current(stamps: list) -> bool:
    try:
        return all((st := os.stat(name)).st_size == size and st.st_mtime_ns == ns for name, size, ns in stamps)
    except OSError:
        return False


def sighted(args: list[str], shims: Path, path: str, text: str) -> None:
    """Note that the preamble of ``text`` was parsed (slowly) from its headers: the next parse of a file that starts
    with it makes its PCH (one seen once is never made: a file linted once, as in a clean CI run, pays nothing)."""
    parts, where = _split(text), folder()
    if parts is not None and where is not None and _forced(args) is not None:
        with contextlib.suppress(OSError):   # (one found unfit keeps its time: :func:`_due`)
            seen = where / f"{_preamble_key(args, shims, path, parts[0])}.seen"
            if not seen.exists():
                seen.touch(mode=0o600)


def _load_preamble(where: Path, key: str) -> Optional[tuple[str, list]]:
    pch, side = where / f"{key}.pch", where / f"{key}.json"
    try:
        if not (_own(os.stat(pch)) and _own(os.stat(side))):
            return None
        saved = json.loads(side.read_text())
        includes = [(str(name), int(line)) for name, line in saved["includes"]]
        stamps = [[str(name), int(size), int(ns)] for name, size, ns in saved["stamps"]]
    except (OSError, ValueError, TypeError, KeyError):
        return None
    return (str(pch), includes, stamps) if _current(stamps) else None


def _make_preamble(where: Path, key: str, args: list[str], path: str, pre: str) -> Optional[tuple[str, list, list]]:
    # the stub: the preamble as the file's first lines (same line numbers), in the file's folder (where a quoted name
    # is looked for first), never on disk
    stub = os.path.join(os.path.dirname(os.path.abspath(path)), f".cudalint-preamble-{key}.cu")
    try:
        tu = ci.Index.create().parse(stub, args=args, options=_BUILD_OPTIONS, unsaved_files=[(stub, pre)])
    except ci.TranslationUnitLoadError:
        return None
    if any(d.severity >= 3 for d in tu.diagnostics):
        return None   # a missing header, an error in one: the file is parsed from its headers, which reports it
    from .confine import inclusions
    includes = inclusions(tu)
    try:
        stamps = _stamps(includes)
    except OSError:
        return None
    pch, saved = where / f"{key}.pch", json.dumps({"includes": includes, "stamps": stamps})
    if not (_write(pch, tu.save) and _write(where / f"{key}.json", lambda tmp: Path(tmp).write_text(saved))):
        return None
    _prune(where, keep=pch)
    return str(pch), includes, stamps


def refused(args: list[str]) -> None:
    """clang refused the PCH ``args`` names (libclang fails the whole parse: a header it read changed since, other
    language options, a damaged file) while the same file parses from its headers: the PCH is deleted, made again
    at the next :func:`with_pch` of the same arguments, and after a second refusal not used in this process."""
    i = next((j for j, a in enumerate(args[:-1]) if a == "-include-pch"), None)
    if i is None:
        return
    pch = args[i + 1]
    for k, v in list(_preambles.items()):   # a preamble's: made again at its next sighting
        if v is not None and v[0] == pch:
            _preambles[k] = None   # not again in this process: the next one makes it anew (it was seen)
            with contextlib.suppress(OSError):
                os.unlink(Path(pch).with_suffix(".json"))
    for k, v in list(_made.items()):
        if v == pch:
            if k in _refused:
                _made[k] = None
            else:
                del _made[k]
                _refused.add(k)
    with contextlib.suppress(OSError):
        os.unlink(pch)
