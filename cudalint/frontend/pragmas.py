"""``#pragma unroll`` written before a loop, read from the source text (both front-ends: clang keeps the pragma as
an attribute its Python bindings do not expose, tree-sitter as a separate preprocessor node)."""

from __future__ import annotations

import functools
import re
from typing import Optional, Sequence

_PRAGMA = re.compile(r"\s*#\s*pragma\s+unroll\b\s*(\(?\s*(\d+)\s*\)?)?\s*$")
_SKIP = re.compile(r"\s*(//.*)?$")


@functools.lru_cache(maxsize=64)
def _lines(path: str) -> tuple[str, ...]:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return tuple(f.read().splitlines())
    except OSError:
        return ()


def unroll_before(path: str, line: int, lines: Optional[Sequence[str]] = None) -> Optional[int]:
    """The ``#pragma unroll`` on the lines just above ``line`` (1-based; blank and ``//`` comment lines skipped) of
    ``path`` (or of ``lines`` when given: the text the front-end parsed): 0 for ``#pragma unroll`` (unroll
    completely), N for ``#pragma unroll N`` (``1``: do not unroll); None when there is none (CUDA C++ Programming
    Guide, "#pragma unroll")."""
    lines = lines if lines is not None else _lines(path)
    i = line - 2
    while 0 <= i < len(lines):
        m = _PRAGMA.match(lines[i])
        if m:
            return int(m.group(2)) if m.group(2) else 0
        if not _SKIP.match(lines[i]):
            return None
        i -= 1
    return None
