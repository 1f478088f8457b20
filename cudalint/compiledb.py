"""Compile flags from a ``compile_commands.json`` (``-p BUILD_DIR``), as CMake and other build systems write it.

Each entry gives a file's compiler command (``arguments`` list or ``command`` string) and its working
``directory``.  Only the flags that change how the file parses are kept, never anything that could load or run
code or put a file's contents into the output (plugins, ``-Xclang``, ``-load``, compiler launchers, forced
``-include`` files): include paths (``-I``, ``-isystem``, ``-iquote``, ``-idirafter``, ``--include-path``; quoted
or not), macros (``-D``/``-U``, ``--define-macro``/``--undefine-macro``) and the language standard (``-std``).
nvcc's response files are read in place: ``--options-file F``/``-optf F`` and ``@F`` (CMake writes the include
flags of a CUDA target to ``CMakeFiles/<target>.dir/includes_CUDA.rsp``), relative to the entry's directory,
nested at most :data:`MAX_DEPTH` deep; ``-Xcompiler``/``--compiler-options`` lists are read for the same flags.
A relative include path is made absolute against the entry's directory; the CUDA toolkit's own include folder is
dropped (cudalint's shims stand in for its headers).

A header with no entry of its own takes the flags of a source file of the database that includes it by name
(``#include "name.cuh"``), else of an entry in the same folder.  The database is read once per process.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from functools import lru_cache
from pathlib import Path
from typing import Iterator, Optional

#: nested response files followed at most this deep
MAX_DEPTH = 8
#: a response file larger than this (bytes) is not read
MAX_RESPONSE_BYTES = 1 << 20

_PATH_FLAGS = {"-I": "-I", "--include-path": "-I", "-isystem": "-isystem", "-iquote": "-iquote",
               "-idirafter": "-idirafter", "--system-include": "-isystem"}
_MACRO_FLAGS = {"-D": "-D", "--define-macro": "-D", "-U": "-U", "--undefine-macro": "-U"}
_RESPONSE_FLAGS = ("--options-file", "-optf")
_COMPILER_OPTIONS = ("-Xcompiler", "--compiler-options")


_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]', re.M)


def _toolkit_include(folder: str) -> bool:
    """Whether ``folder`` is a CUDA toolkit's include folder (it holds ``cuda_runtime_api.h``).  CMake adds it to
    every CUDA target; parsed beside cudalint's shims, its headers declare the same functions twice
    (``call to 'surf2Dwrite' is ambiguous``)."""
    return os.path.isfile(os.path.join(folder, "cuda_runtime_api.h"))


class CompileDatabase:
    """The entries of one ``compile_commands.json``, by the real path of their file.

    Raises :class:`ValueError` or :class:`OSError` when the file cannot be read or is not a JSON list."""

    def __init__(self, path: Path) -> None:
        entries = json.loads(Path(path).read_text(encoding="utf-8"))
        if not isinstance(entries, list):
            raise ValueError("not a JSON list of entries")
        self.entries: dict[str, dict] = {}
        for e in entries:
            if isinstance(e, dict) and isinstance(e.get("file"), str):
                key = os.path.realpath(os.path.join(str(e.get("directory", ".")), e["file"]))
                self.entries.setdefault(key, e)
        self._flags: dict[str, list[str]] = {}
        self._includes: dict[str, set[str]] = {}  # an entry's file -> the names it includes, read once

    def flags(self, path: str) -> list[str]:
        """The parse flags of ``path`` (:func:`parse_flags` of its entry, or of an includer's for a header)."""
        target = os.path.realpath(path)
        if target not in self._flags:
            e = self.entries.get(target) or self._includer(target)
            self._flags[target] = parse_flags(entry_arguments(e), str(e.get("directory", "."))) if e else []
        return self._flags[target]

    def _includer(self, target: str) -> Optional[dict]:
        """An entry whose source includes ``target`` by its name, else one in the same folder."""
        name, folder, same = os.path.basename(target), os.path.dirname(target), None
        for key, e in self.entries.items():
            if key not in self._includes:
                try:
                    with open(key, encoding="utf-8", errors="replace") as fh:  # the first MiB
                        self._includes[key] = {os.path.basename(m) for m in _INCLUDE.findall(fh.read(1 << 20))}
                except OSError:
                    self._includes[key] = set()
            if name in self._includes[key]:
                return e
            if same is None and os.path.dirname(key) == folder:
                same = e
        return same


@lru_cache(maxsize=8)
def _database(path: str, mtime: float) -> CompileDatabase:
    return CompileDatabase(Path(path))


def database(path: Path) -> CompileDatabase:
    """The database at ``path``, read once per process (again when the file changes).  Raises as
    :class:`CompileDatabase` does."""
    return _database(str(path), os.stat(path).st_mtime)


def entry_arguments(e: dict) -> list[str]:
    """An entry's command as a list of arguments (``arguments``, else ``command`` split as a shell would)."""
    args = e.get("arguments")
    if isinstance(args, list):
        return [str(a) for a in args]
    try:
        return shlex.split(str(e.get("command", "")))
    except ValueError:
        return str(e.get("command", "")).split()


def _expand(args: list[str], directory: str, depth: int = 0) -> Iterator[str]:
    """``args`` with every response file (``--options-file F``, ``-optf F``, ``--options-file=F``, ``@F``)
    replaced by its contents, and ``-Xcompiler a,b`` by ``a b``."""
    it = iter(args)
    for a in it:
        rsp = None
        if a in _RESPONSE_FLAGS:
            rsp = next(it, None)
        elif a.startswith("--options-file="):
            rsp = a.split("=", 1)[1]
        elif a.startswith("@") and len(a) > 1:
            rsp = a[1:]
        elif a in _COMPILER_OPTIONS:
            if (v := next(it, None)) is not None:
                yield from _expand([x for x in v.split(",") if x], directory, depth)
            continue
        elif a.startswith(("-Xcompiler=", "--compiler-options=")):
            yield from _expand([x for x in a.split("=", 1)[1].split(",") if x], directory, depth)
            continue
        else:
            yield a
            continue
        if rsp is None or depth >= MAX_DEPTH:
            continue
        f = Path(rsp) if os.path.isabs(rsp) else Path(directory) / rsp
        try:
            if not f.is_file() or f.stat().st_size > MAX_RESPONSE_BYTES:
                continue
            text = f.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        try:
            inner = shlex.split(text, comments=False)
        except ValueError:
            inner = text.split()
        yield from _expand(inner, directory, depth + 1)


def parse_flags(args: list[str], directory: str) -> list[str]:
    """The flags of a compiler command ``args`` (run in ``directory``) that change how the file parses, in
    clang's spelling: ``["-I/abs/include", "-DN=4", "-std=c++17", ...]``."""
    out: list[str] = []
    it = _expand(args, directory)
    for a in it:
        flag, val = None, None
        for table in (_PATH_FLAGS, _MACRO_FLAGS):
            for spelled, clang in table.items():
                if a == spelled:
                    flag, val = clang, next(it, None)
                elif a.startswith(spelled + "=") and spelled.startswith("--"):
                    flag, val = clang, a[len(spelled) + 1:]
                elif not spelled.startswith("--") and a.startswith(spelled) \
                        and len(a) > len(spelled):  # -Iinclude, -DN=4, -isystem/usr/include
                    flag, val = clang, a[len(spelled):]
                if flag:
                    break
            if flag:
                break
        if flag is None:
            if a.startswith(("-std=", "--std=")):
                out.append("-std=" + a.split("=", 1)[1])
            elif a in ("-std", "--std") and (v := next(it, None)) is not None:
                out.append("-std=" + v)
            continue
        if val is None:
            continue
        if len(val) >= 2 and val[0] == val[-1] == '"':
            val = val[1:-1]
        if flag in _PATH_FLAGS.values():
            val = val if os.path.isabs(val) else os.path.normpath(os.path.join(directory, val))
            if _toolkit_include(val):
                continue  # the CUDA toolkit's own headers: the shims stand in for them
        out += [flag + val] if flag in ("-I", "-D", "-U") else [flag, val]
    return out
