"""What the clang front-end may read: the files of the project being linted and the system headers, nothing else.

cudalint runs in CI on pull requests, where the code, its ``.cudalint.toml`` and its compile commands come from
strangers.  clang reads every file the code names (``#include "/proc/self/environ"``, ``#embed "../.git/config"``)
and quotes what it read in its diagnostics, so a pull request could print a file of the CI runner into the
findings.  The front-end therefore reads a file only when it lies under one of the allowed roots, and refuses
the translation unit otherwise (:class:`Refused`, reported as CL000; the file is not linted):

- the project root of the linted file: the closest folder above it holding ``.git``, else the folder of its
  configuration file, else the working directory when the file lies under it, else the file's own folder;
- the folders the user trusts (``RunOptions.read_roots``: the ``include-paths`` of a ``--config`` file, the
  ``-p`` build folder), and the ``include-paths`` of a discovered configuration that lie inside the project;
- the system and toolkit headers: clang's own (libc++, its resource folder), cudalint's shims, ``/usr/include``,
  ``/usr/local/include``, ``/usr/lib/gcc``, the CUDA toolkit's ``include`` folders;

never a file below a ``.git`` folder, and never ``#embed`` or ``__has_embed`` (they read any file's bytes into
the program).  Paths are compared after resolving symbolic links.  clang's diagnostics are shown only through
:func:`summarise`.
"""

from __future__ import annotations

import functools
import glob
import os
import re
import stat
from pathlib import Path
from typing import Iterable, Optional

#: ``#embed`` (C23, clang 19+) and ``__has_embed``: a directive may hide a comment or a line splice after `#`
_EMBED = re.compile(r"^[ \t]*#(?:[ \t]|/\*.*?\*/|\\\r?\n)*embed\b|\b__has_embed\b", re.M | re.S)
#: a quoted operand in a clang diagnostic: ``'Show<118>'``, ``'int (float *)'``
_QUOTED = re.compile(r"'([^']*)'")
_IDENT = re.compile(r"[A-Za-z_]\w*")


class Refused(Exception):
    """The translation unit reads a file outside the allowed roots (or uses ``#embed``): not linted.
    ``line``: the line of the linted file the refusal points at."""

    def __init__(self, message: str, line: int = 1):
        super().__init__(message)
        self.line = line


@functools.cache
def system_roots() -> tuple[str, ...]:
    """The system and toolkit header folders (resolved): clang's package (libc++, resource headers), the
    shims, the C library's and compiler's folders, every installed CUDA toolkit's ``include``."""
    import clang.cindex as ci
    cands = [Path(ci.__file__).parent, Path(__file__).with_name("shims"), "/usr/include", "/usr/local/include", "/usr/lib/gcc",
             *glob.glob("/usr/local/cuda*/include"), *glob.glob("/usr/local/cuda*/targets/*/include"),
             *(os.path.join(os.environ[v], "include") for v in ("CUDA_PATH", "CUDA_HOME") if os.environ.get(v))]
    return tuple(dict.fromkeys(os.path.realpath(str(c)) for c in cands))


def project_root(path: str, config_dir: Optional[str] = None) -> str:
    """The project root of ``path`` (resolved): the closest folder above it holding ``.git``, else
    ``config_dir`` (its configuration file's folder), else the working directory when ``path`` lies under it,
    else the file's own folder."""
    p = Path(os.path.abspath(path)).parent  # as named, not where a link points: a link is checked against it
    git = next((c for c in (p, *p.parents) if (c / ".git").exists()), None)
    if git is not None or config_dir:
        return os.path.realpath(git if git is not None else config_dir)  # type: ignore[arg-type]
    cwd = os.getcwd()
    return os.path.realpath(cwd if str(p) == cwd or str(p).startswith(cwd.rstrip(os.sep) + os.sep) else p)


def inside(path: str, roots: Iterable[str]) -> bool:
    """Whether ``path`` (resolved) lies under one of ``roots`` (resolved) and below no ``.git`` folder."""
    return _inside_real(os.path.realpath(path), roots)


def _inside_real(real: str, roots: Iterable[str]) -> bool:
    """:func:`inside` for a path already resolved."""
    if f"{os.sep}.git{os.sep}" in f"{os.sep}{real}{os.sep}":  # a `.git` component
        return False
    return any(real == r or real.startswith(r.rstrip(os.sep) + os.sep) for r in roots)


def include_dirs(args: list[str]) -> list[str]:
    """The folders ``-I``/``-isystem``/``-iquote``/``-idirafter`` name in clang arguments (joined or split)."""
    out, flags = [], ("-I", "-isystem", "-iquote", "-idirafter")
    for i, a in enumerate(args):
        for f in flags:
            if a == f and i + 1 < len(args):
                out.append(args[i + 1])
            elif a.startswith(f) and len(a) > len(f) and not a.startswith("-isysroot"):
                out.append(a[len(f):])
    return out


def check_text(text: str) -> None:
    """Raise :class:`Refused` when ``text`` uses ``#embed`` or ``__has_embed``."""
    if m := _EMBED.search(text):
        raise Refused("not linted: `#embed`/`__has_embed` reads a file's bytes into the program, and cudalint "
                      "reads no file the code names outside its headers", text.count("\n", 0, m.start()) + 1)


#: ``#include "x.h"`` / ``#include <x.h>`` (a computed ``#include MACRO`` is left to the check after the parse)
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include(?:_next)?[ \t]*([<"])([^>"\n]+)[>"]', re.M)
#: the largest header cudalint lets clang read, in bytes (the linted file's own limit)
MAX_HEADER_BYTES = 8 << 20


def check_includes(path: str, text: str, args: list[str], roots: tuple[str, ...]) -> set[str]:
    """Before clang opens anything: follow the ``#include`` lines of ``text`` (and of each header they reach,
    outside the system roots) as clang would resolve them (the includer's folder for quoted names, then the
    ``-iquote``/``-I``/``-isystem``/``-idirafter`` folders of ``args``), and raise :class:`Refused` for a header
    clang must not open: not a regular file (a FIFO would block the run, a link to ``/dev/zero`` fill its
    memory), over :data:`MAX_HEADER_BYTES`, outside ``roots`` and the system roots (an absolute path, ``..``,
    a link out), or using ``#embed``.  A name no folder holds is clang's to report.  Returns the headers read
    (resolved), which :func:`check_reads` need not read again."""
    dirs = include_dirs(args)
    allowed = roots + system_roots()
    todo, seen = [(os.path.abspath(path), text)], set()
    while todo:
        includer, src = todo.pop()
        for m in _INCLUDE.finditer(src):
            quoted, name = m.group(1) == '"', m.group(2).strip()
            line = src.count("\n", 0, m.start()) + 1 if includer == os.path.abspath(path) else 1
            cands = [name] if os.path.isabs(name) else \
                [os.path.join(d, name) for d in ([os.path.dirname(includer)] if quoted else []) + dirs]
            found = next((os.path.normpath(c) for c in cands if os.path.lexists(c)), None)
            if found is None or os.path.realpath(found) in seen:
                continue
            seen.add(os.path.realpath(found))
            if inside(found, system_roots()):
                continue  # the toolkit's and the C library's headers: trusted, and not followed
            why = None
            try:
                st = os.stat(found)  # follows a link: stat never blocks, even on a FIFO
            except OSError:
                continue
            if ".git" in Path(os.path.realpath(found)).parts:
                why = "inside a `.git` folder (repository metadata, which can hold credentials)"
            elif not inside(found, allowed):
                why = "outside the project"
            elif not stat.S_ISREG(st.st_mode):
                why = "not a regular file (a FIFO or a device: clang would block on it or read it without end)"
            elif st.st_size > MAX_HEADER_BYTES:
                why = f"larger than {MAX_HEADER_BYTES >> 20} MiB ({st.st_size} bytes)"
            if why:
                link = f" (a link to `{os.path.realpath(found)}`)" if os.path.realpath(found) != os.path.abspath(found) \
                    else ""
                if why == "outside the project":
                    raise Refused(_outside(found, link, roots), line)
                raise Refused(f"not linted: it includes `{found}`{link}, {why}; cudalint reads no such file", line)
            try:
                with open(found, encoding="latin-1") as fh:
                    header = fh.read(MAX_HEADER_BYTES)
            except OSError:
                continue
            try:
                check_text(header)
            except Refused as e:
                raise Refused(f"not linted: the header `{found}` uses `#embed`/`__has_embed`, which reads a file's "
                              "bytes into the program", line) from e
            todo.append((os.path.abspath(found), header))
    return seen


def _outside(f: str, link: str, roots: tuple[str, ...]) -> str:
    return (f"not linted: it includes `{f}`{link}, outside the project ({roots[0] if roots else '?'}) and the system "
            "headers; cudalint reads no other file (add its folder to `include-paths` of a configuration given with "
            "--config to allow it)")


def inclusions(tu) -> list[tuple[str, int]]:
    """The headers a libclang translation unit read, as :func:`check_reads` takes them: (path, the line of the linted
    file that includes it, 1 for a nested include), read once (a thousand inclusions, each a Python callback)."""
    return [(inc.include.name, inc.location.line if inc.depth == 1 else 1) for inc in tu.get_includes()
            if inc.include is not None]


def check_reads(files: Iterable[tuple[str, int]], roots: tuple[str, ...], main: str,
                scanned: frozenset = frozenset()) -> None:
    """Raise :class:`Refused` when a file the translation unit read lies outside ``roots`` (and the system
    roots), or a header read under the project uses ``#embed`` (``scanned``: headers :func:`check_includes`
    already read).  ``files``: (path, the line of the linted file that includes it, 1 for a nested include)."""
    system = system_roots()   # resolved once per call: a translation unit reads hundreds of headers
    allowed = roots + system
    real_main = os.path.realpath(main)
    realpath = _RealPaths()
    done: set[str] = set()
    if not _inside_real(real_main, roots[:1] or allowed):
        raise Refused(f"not linted: `{main}` is a link to `{real_main}`, outside the project "
                      f"({roots[0] if roots else '?'})")
    for f, line in files:
        if f in done:   # a header included from several places is checked once
            continue
        done.add(f)
        real = realpath(f)
        if real == real_main:
            continue
        if not _inside_real(real, allowed):
            link = f" (a link to `{real}`)" if real != os.path.abspath(f) else ""
            if ".git" in Path(real).parts:
                raise Refused(f"not linted: it includes `{f}`{link}, inside a `.git` folder (repository metadata, which "
                              "can hold credentials); cudalint reads no such file", line)
            raise Refused(_outside(f, link, roots), line)
        if not _inside_real(real, system) and real not in scanned:
            try:
                with open(f, encoding="latin-1") as fh:
                    check_text(fh.read(1 << 22))
            except OSError:
                continue
            except Refused as e:
                raise Refused(f"not linted: the header `{f}` uses `#embed`/`__has_embed`, which reads a file's bytes "
                              "into the program", line) from e


class _RealPaths:
    """``os.path.realpath`` of many files in few folders: each folder resolved once, then one ``lstat`` per file
    (its own name may be a link).  The same answer: ``realpath`` resolves a path's components in order, so the
    folder's part is ``realpath(folder)`` whatever the name after it."""

    def __init__(self) -> None:
        self.folders: dict[str, str] = {}

    def __call__(self, path: str) -> str:
        folder, name = os.path.split(path)
        if not folder or name in ("", ".", ".."):
            return os.path.realpath(path)
        if (real := self.folders.get(folder)) is None:
            real = self.folders[folder] = os.path.realpath(folder)
        joined = os.path.join(real, name)
        return os.path.realpath(joined) if os.path.islink(joined) else joined


def summarise(message: str, source: str) -> str:
    """A clang diagnostic as cudalint shows it: each quoted operand kept only when it is an identifier the
    linted file itself spells (``'TILE'``), else ``'…'``; the text of a failed ``static_assert`` dropped.
    clang quotes the values it computed (template arguments, types, expression results), which may be the
    bytes of a file the code read."""
    if message.startswith("static assertion failed"):
        return "static assertion failed"
    words = set(_IDENT.findall(source))
    return _QUOTED.sub(lambda m: m.group(0) if _IDENT.fullmatch(m.group(1)) and m.group(1) in words else "'…'",
                       message)
