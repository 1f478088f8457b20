"""Diagnostics: what a rule reports, in the shape of DESIGN.md §5's JSON contract."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from typing import Any, Optional


#: characters a terminal or a CI log acts on rather than shows: C0 and C1 controls, DEL, the Unicode line and
#: paragraph separators and the bidirectional overrides (a file name or a static_assert text from a pull request
#: with ``\n::error ...`` in it would otherwise start a GitHub workflow command in the log)
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def printable(s: str) -> str:
    """``s`` with every control character written as an escape (``\\n``, ``\\x1b``, ``\\u2028``), for
    line-oriented text output."""
    return _UNPRINTABLE.sub(lambda m: {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(
        m.group(), f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}"), s)


class Severity(str, enum.Enum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        return {"info": 0, "warning": 1, "error": 2}[self.value]


@dataclass(frozen=True)
class Edit:
    """Replace the text between (line, column) and (end_line, end_column), 1-based, end exclusive."""
    line: int
    column: int
    end_line: int
    end_column: int
    content: str

    def to_json(self) -> dict[str, Any]:
        return {"content": self.content, "location": {"row": self.line, "column": self.column},
                "end_location": {"row": self.end_line, "column": self.end_column}}


@dataclass(frozen=True)
class Fix:
    message: str
    edits: tuple[Edit, ...]
    applicability: str = "safe"

    def to_json(self) -> dict[str, Any]:
        return {"message": self.message, "applicability": self.applicability,
                "edits": [e.to_json() for e in self.edits]}


@dataclass
class Diagnostic:
    code: str
    name: str
    severity: Severity
    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    message: str
    kernel: Optional[str] = None
    metrics: dict[str, Any] = field(default_factory=dict)
    assumptions: list[str] = field(default_factory=list)
    fix: Optional[Fix] = None
    #: a CL000 reporting cudalint's own failure (a crash in a front-end, the analysis or a rule): never
    #: hidden by ``--select``/``--ignore`` or the configuration
    internal: bool = False

    def sort_key(self) -> tuple:
        return (self.path, self.line, self.column, self.code, self.message)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "name": self.name, "severity": self.severity.value, "path": self.path,
                "line": self.line, "column": self.column, "end_line": self.end_line, "end_column": self.end_column,
                "kernel": self.kernel, "message": self.message, "metrics": dict(self.metrics),
                "assumptions": list(self.assumptions), "fix": self.fix.to_json() if self.fix else None}

    def to_text(self) -> str:
        """One line: ``path:line:col: CODE [name] message``, control characters escaped (:func:`printable`)."""
        return printable(f"{self.path}:{self.line}:{self.column}: {self.code} [{self.name}] {self.message}")

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "Diagnostic":
        """The inverse of :meth:`to_json` (used by the result cache). Raises KeyError/ValueError."""
        f = d.get("fix")
        fix = Fix(message=f["message"], applicability=f.get("applicability", "safe"), edits=tuple(
            Edit(e["location"]["row"], e["location"]["column"], e["end_location"]["row"],
                 e["end_location"]["column"], e["content"]) for e in f["edits"])) if f else None
        return cls(**{k: d[k] for k in ("code", "name", "path", "line", "column", "end_line", "end_column", "message")},
                   severity=Severity(d["severity"]), kernel=d.get("kernel"), metrics=dict(d.get("metrics") or {}),
                   assumptions=list(d.get("assumptions") or []), fix=fix)


class UsageError(Exception):
    """A bad path, option or configuration value: reported as one line, exit code 2."""


#: CL000 is emitted by the driver itself (a file or kernel that could not be modelled).
CL000 = ("CL000", "analysis-incomplete", Severity.INFO, "A file or kernel the front-end could not model")


def cl000(path: str, message: str, line: int = 1, column: int = 1, kernel: Optional[str] = None,
          internal: bool = False) -> Diagnostic:
    """A CL000 finding on ``path`` (``internal``: a crash of cudalint itself, which no selection hides)."""
    code, name, sev, _ = CL000
    return Diagnostic(code=code, name=name, severity=sev, path=path, line=line, column=column,
                      end_line=line, end_column=column, message=message, kernel=kernel, internal=internal)


def split_codes(text: str) -> list[str]:
    """``"CL101, CL2"`` -> ``["CL101", "CL2"]``."""
    return [c.strip() for c in text.split(",") if c.strip()]
