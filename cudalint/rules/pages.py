"""Rule pages (``rules/CLxxx.md``), shipped in the wheel as the package ``cudalint.rule_pages``."""

from __future__ import annotations

import contextlib
from importlib import resources
from pathlib import Path
from typing import Optional


def rule_page(code: str) -> Optional[str]:
    """The Markdown page of ``code`` (e.g. ``"CL101"``), or None when there is none."""
    name = f"{code}.md"
    with contextlib.suppress(ModuleNotFoundError, FileNotFoundError):
        res = resources.files("cudalint.rule_pages").joinpath(name)
        if res.is_file():
            return res.read_text(encoding="utf-8")
    local = Path(__file__).resolve().parents[2] / "rules" / name  # running from a source tree
    return local.read_text(encoding="utf-8") if local.is_file() else None
