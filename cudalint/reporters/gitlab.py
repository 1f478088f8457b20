"""GitLab Code Quality reports (``--format gitlab``): the JSON array GitLab reads from a job's
``artifacts:reports:codequality`` and shows on merge requests.

Each finding is an issue with ``description`` (``CODE message``), ``check_name`` (the code), ``fingerprint``
(the SARIF output's line hash: rule, file, kernel and normalised line text, so an issue survives lines moving
above it), ``severity`` (error: ``critical``, warning: ``major``, info: ``info``) and ``location`` (``path``
relative to the working directory, the repository root in CI; ``lines.begin``/``end``).  CL000 is left out unless
it is an internal error (a file that could not be modelled is not a code quality issue; SARIF makes it a tool
notification).  Format: https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format
"""

from __future__ import annotations

import functools
import json
from typing import Any, Iterable, Optional

from ..diagnostics import Diagnostic, Severity
from . import relative_posix
from .sarif import _fingerprint, _read_lines

SEVERITY = {Severity.ERROR: "critical", Severity.WARNING: "major", Severity.INFO: "info"}


def to_gitlab(diags: Iterable[Diagnostic], cwd: Optional[str] = None) -> list[dict[str, Any]]:
    """The Code Quality issues (a list of dicts) for ``diags``; paths relative to ``cwd`` (default: the current
    directory; a file outside it keeps its path as given)."""
    read = functools.cache(_read_lines)
    seen: dict = {}
    issues = []
    for d in diags:
        if d.code == "CL000" and not d.internal:
            continue
        path = relative_posix(d.path, cwd) or d.path
        issues.append({
            "description": f"{d.code} {d.message}",
            "check_name": d.code,
            "fingerprint": _fingerprint(d, {"uri": path}, read(d.path), seen),
            "severity": SEVERITY[Severity(d.severity)],
            "location": {"path": path, "lines": {"begin": max(1, d.line), "end": max(d.line, d.end_line, 1)}},
        })
    return issues


def format_gitlab(diags: Iterable[Diagnostic], cwd: Optional[str] = None) -> str:
    return json.dumps(to_gitlab(diags, cwd), indent=2, ensure_ascii=False) + "\n"
