"""Output formats for CI tools: SARIF 2.1.0 (:mod:`.sarif`) and GitHub workflow commands (:mod:`.github`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional


def relative_posix(path: str, cwd: Optional[str] = None) -> Optional[str]:
    """``path`` relative to ``cwd`` (default: the current directory) with forward slashes, or None when
    the file lies outside it (or on another drive)."""
    try:
        rel = os.path.relpath(path, cwd or os.curdir)
    except ValueError:  # another drive on Windows
        return None
    return None if rel in (os.curdir, os.pardir) or rel.startswith(os.pardir + os.sep) else Path(rel).as_posix()
