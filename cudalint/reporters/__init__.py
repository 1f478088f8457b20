"""Output formats for CI tools: SARIF 2.1.0 (:mod:`.sarif`) and GitHub workflow commands (:mod:`.github`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional


def relative_posix(path: str, cwd: Optional[str] = None) -> Optional[str]:
    """``path`` relative to ``cwd`` (default: the current directory) with forward slashes, or None when
    the file lies outside it (or on another drive)."""
    base = os.path.abspath(cwd or os.getcwd())
    try:
        rel = os.path.relpath(os.path.abspath(path), base)
    except ValueError:  # another drive on Windows
        return None
    if rel == os.curdir or rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return None
    return Path(rel).as_posix()
