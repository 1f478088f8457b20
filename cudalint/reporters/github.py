"""``--format github``: GitHub Actions workflow commands, one line per finding.

``::error file=PATH,line=L,col=C,endLine=EL,endColumn=EC,title=CODE name::message`` (warning ->
``::warning``, info -> ``::notice``).  Escaping follows ``@actions/core`` (``escapeData`` and
``escapeProperty`` in ``command.ts``): ``%``, ``\\r`` and ``\\n`` everywhere, and ``:`` and ``,`` in
property values.  Paths are made relative to the current directory (the workspace when the job runs
``cudalint check`` from the checkout root), which is what GitHub needs to place the annotation on the diff.
"""

from __future__ import annotations

from typing import Iterable, Optional

from ..diagnostics import Diagnostic, Severity
from . import relative_posix

COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(s: str) -> str:
    return escape_data(s).replace(":", "%3A").replace(",", "%2C")


def format_github(diags: Iterable[Diagnostic], cwd: Optional[str] = None) -> str:
    out = []
    for d in diags:
        path = relative_posix(d.path, cwd) or d.path.replace("\\", "/")
        props = [("file", path), ("line", str(d.line)), ("col", str(d.column)), ("endLine", str(d.end_line)),
                 ("endColumn", str(d.end_column)), ("title", f"{d.code} {d.name}")]
        head = ",".join(f"{k}={escape_property(v)}" for k, v in props)
        out.append(f"::{COMMAND[Severity(d.severity)]} {head}::{escape_data(d.message)}\n")
    return "".join(out)
