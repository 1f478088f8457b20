"""Per-file result cache (like ruff's ``.ruff_cache``).

An entry is keyed by the file's path as given, its bytes, the run's options (rules selected, blockDim, include
paths, defines, front-end...) and cudalint's code (its version and a fingerprint of its files). It stores the
findings and every file the translation unit included (headers: path, mtime in ns, size); a hit is used only
while each of those is unchanged, so editing a header re-lints the files that include it. Files with an
unresolved ``#include`` or a CL000 are never cached (the missing header may appear). Entries are written
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
    with contextlib.suppress(OSError):
        st = os.stat(path)
        return [path, st.st_mtime_ns, st.st_size]
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


class Cache:
    def __init__(self, root: str | os.PathLike = DEFAULT_DIR):
        self.root = Path(root) / code_fingerprint()

    def key(self, path: str, opts) -> Optional[str]:
        """The entry key of ``path`` linted with ``opts``; None when the file cannot be read."""
        try:
            data = Path(path).read_bytes()
        except OSError:
            return None
        head = "".join(f"{part}\0" for part in (__version__, path, repr(opts)))
        return hashlib.sha256(head.encode() + data).hexdigest()

    def get(self, key: str) -> Optional[tuple[list[Diagnostic], list[str]]]:
        """The entry's findings and the files it depends on; None when absent or stale."""
        try:
            entry = json.loads((self.root / key[:2] / key).read_text(encoding="utf-8"))
            found, deps = [Diagnostic.from_json(d) for d in entry["diagnostics"]], entry.get("dependencies", [])
        except (OSError, KeyError, TypeError, ValueError):
            return None
        return None if any(_stamp(dep[0]) != dep for dep in deps) else (found, [dep[0] for dep in deps])

    def put(self, key: str, diags: list[Diagnostic], dependencies: list[str]) -> None:
        stamps = [_stamp(p) for p in dependencies]
        if any(s is None for s in stamps):
            return
        folder = self.root / key[:2]
        with contextlib.suppress(OSError):  # a read-only or full disk: the cache is only an optimisation
            folder.mkdir(parents=True, exist_ok=True)
            if not (gitignore := self.root.parent / ".gitignore").exists():
                gitignore.write_text("# created by cudalint\n*\n")
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump({"dependencies": stamps, "diagnostics": [d.to_json() for d in diags]}, fh)
            os.replace(tmp, folder / key)
