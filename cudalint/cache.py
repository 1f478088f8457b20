"""Per-file result cache (like ruff's ``.ruff_cache``).

An entry is keyed by the file's path as given, its bytes, the run's options (rules selected, blockDim, include
paths, defines, front-end...), the flags its compile command gives it (``-p``: the contents of
``compile_commands.json`` and its response files, not only their name) and cudalint's code (its version and a
fingerprint of its files). It stores the findings and what the result depends on: every file the translation
unit included, by the SHA-256 of its contents (the system and toolkit headers by path, mtime in ns and size),
and every folder on the include search path by its mtime, so a header added there that would shadow the one
read misses too. A hit is used only while each of those is unchanged, so editing a header (even keeping its
size and time) re-lints the files that include it. Files with an unresolved ``#include`` or a CL000 are never
cached (the missing header may appear). An entry is data (JSON), never code; one that does not validate is
ignored. Entries are written
atomically (a temporary file in the cache folder, then ``os.replace``), so runs sharing a cache never see half
an entry; the worst two concurrent runs can do is both compute the same entry.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Optional

from . import __version__
from .diagnostics import Diagnostic

DEFAULT_DIR = ".cudalint_cache"


def _stamp(path: str) -> Optional[list]:
    """What a result depends on in ``path``: [path, mtime in ns, size] for a folder or a system header, [path,
    "sha256:..."] for any other file; None when it cannot be read."""
    from .frontend.confine import inside, system_roots
    with contextlib.suppress(OSError):
        st = os.stat(path)
        if os.path.isdir(path) or inside(path, system_roots()):
            return [path, st.st_mtime_ns, st.st_size]
        from .runner import read_bytes
        return [path, "sha256:" + hashlib.sha256(read_bytes(path)).hexdigest()]
    return None


@functools.cache
def code_fingerprint() -> str:
    """cudalint's version plus the name, size and mtime of every file of the package (rules, shims...):
    an edited checkout never reuses results computed by older code."""
    h = hashlib.sha256(__version__.encode())
    pkg = Path(__file__).parent
    for p in (p for p in sorted(pkg.rglob("*")) if p.is_file() and "__pycache__" not in p.parts):
        st = p.stat()
        h.update(f"{p.relative_to(pkg)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return f"{__version__}-{h.hexdigest()[:16]}"


def search_folders(path: str, opts, dependencies: list[str]) -> list[str]:
    """The folders a new header could appear in and shadow one the translation unit read: the file's own, the
    folder of each header it read outside the system roots (quoted includes look there first) and every
    ``-I``/``-isystem``/``-iquote``/``-idirafter`` folder of its options and compile command."""
    from .frontend.confine import include_dirs, inside, system_roots
    from .runner import UsageError, compile_flags
    try:
        flags = compile_flags(path, opts.compile_db)
    except UsageError:
        flags = []
    heads = [os.path.dirname(d) for d in dependencies if not inside(d, system_roots())]
    return [f for f in dict.fromkeys([os.path.dirname(os.path.abspath(path)), *heads,
                                      *include_dirs([*opts.extra_args, *flags])]) if os.path.isdir(f)]


class Cache:
    def __init__(self, root: str | os.PathLike = DEFAULT_DIR):
        self.root = Path(root) / code_fingerprint()

    def key(self, path: str, opts) -> Optional[str]:
        """The entry key of ``path`` linted with ``opts``; None when the file cannot be read."""
        from .runner import UsageError, compile_flags, read_bytes
        try:
            data = read_bytes(path)
            flags = compile_flags(path, opts.compile_db)
        except (OSError, UsageError):
            return None
        head = "".join(f"{part}\0" for part in (__version__, path, repr(opts), repr(flags)))
        return hashlib.sha256(head.encode() + data).hexdigest()

    def get(self, key: str) -> Optional[tuple[list[Diagnostic], list[str]]]:
        """The entry's findings and the files its unit included; None when absent or stale (any file it
        depends on changed: those, the include folders, the callers read)."""
        try:
            entry = json.loads((self.root / key[:2] / key).read_text(encoding="utf-8"))
            found, deps = [Diagnostic.from_json(d) for d in entry["diagnostics"]], entry.get("dependencies", [])
            also = entry.get("also", [])
        except (OSError, KeyError, TypeError, ValueError, AttributeError):
            return None
        if not all(isinstance(x, list) and all(isinstance(d, list) and d and isinstance(d[0], str) for d in x)
                   for x in (deps, also)):
            return None
        return None if any(_stamp(dep[0]) != dep for dep in deps + also) else (
            found, [dep[0] for dep in deps if not os.path.isdir(dep[0])])

    def put(self, key: str, diags: list[Diagnostic], dependencies: list[str], folders: list[str] = (),
            also: list[str] = ()) -> None:
        """Store ``diags`` under ``key``, valid while ``dependencies`` (the files the unit included, which
        :meth:`get` returns), ``also`` (other files read: callers) and ``folders`` (the include search path) are
        unchanged (:func:`_stamp`)."""
        folder, top = self.root / key[:2], self.root.parent
        if any(p.is_symlink() for p in (top, self.root, folder)):  # a checkout's link would aim the writes elsewhere
            return
        with contextlib.suppress(OSError):  # a read-only or full disk: the cache is only an optimisation
            folder.mkdir(parents=True, exist_ok=True)  # first: creating the cache folder changes its parent's mtime
            if not (gitignore := top / ".gitignore").is_symlink() and not gitignore.exists():
                fd = os.open(gitignore, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
                with os.fdopen(fd, "w", encoding="utf-8") as fh:  # O_EXCL: never through a (dangling) link
                    fh.write("# created by cudalint\n*\n")
            stamps = [_stamp(p) for p in [*dependencies, *dict.fromkeys(folders)]]
            others = [_stamp(p) for p in also]
            if any(s is None for s in stamps + others):
                return
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump({"dependencies": stamps, "also": others, "diagnostics": [d.to_json() for d in diags]}, fh)
            os.replace(tmp, folder / key)
