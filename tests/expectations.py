"""Parse the inline expectations of a fixture (fixtures/README.md) and compare them with findings."""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from cudalint.diagnostics import Diagnostic

@functools.lru_cache(maxsize=None)
def analysed(path: str):
    """``(diagnostics, model)`` of a fixture with ``--warn-unused-ignores`` (CL001 for an ignore comment that hides
    nothing), computed once per test process for every test that reads it: the fixture tests and the measured
    comparisons (which leave CL001 out), grouped per fixture in one worker (``xdist_group``)."""
    from cudalint.runner import RunOptions, analyse_file
    return analyse_file(path, RunOptions(warn_unused_ignores=True))


_EXPECT = re.compile(r"expect:\s*(CL\d{3})((?:\s+[a-z_]+=[^\s/]+)*)")
_CLEAN = re.compile(r"//.*\bexpect-clean\b")
_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


@dataclass
class Expectation:
    code: str
    line: int
    keys: dict[str, str] = field(default_factory=dict)
    #: the file the expectation is written in (a fixture, or a header next to it that it includes)
    path: str = ""

    def matches(self, d: Diagnostic) -> bool:
        if d.code != self.code or d.line != self.line or self.path and os.path.realpath(d.path) != self.path:
            return False
        for k, v in self.keys.items():
            if k == "col":
                if d.column != int(v):
                    return False
            elif k == "severity":
                if d.severity.value != v:
                    return False
            else:
                if k not in d.metrics:
                    return False
                got = d.metrics[k]
                if isinstance(got, (int, float)) and not isinstance(got, bool):
                    decimals = len(v.split(".")[1]) if "." in v else 0
                    if round(float(got), decimals) != float(v):
                        return False
                elif str(got) != v:
                    return False
        return True

    def __str__(self) -> str:
        return f"line {self.line}: {self.code} " + " ".join(f"{k}={v}" for k, v in self.keys.items())


def parse(path: Path) -> tuple[list[Expectation], list[int]]:
    """Return the expectations (the fixture's and those of the headers next to it that it includes, whose
    findings come through the fixture) and the fixture's lines carrying ``expect-clean``."""
    expects, clean = [], []
    text = path.read_text(encoding="utf-8")
    files = [path] + [path.parent / h for h in _INCLUDE.findall(text) if (path.parent / h).is_file()]
    for f in files:
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            comment = line[line.find("//"):] if "//" in line else ""
            for m in _EXPECT.finditer(comment):
                keys = dict(kv.split("=", 1) for kv in m.group(2).split())
                expects.append(Expectation(m.group(1), n, keys, os.path.realpath(f)))
            if f == path and _CLEAN.search(line):
                clean.append(n)
    return expects, clean


def compare(expects: list[Expectation], diags: list[Diagnostic]) -> list[str]:
    """Problems: expectations without a finding and findings without an expectation (one-to-one)."""
    problems = []
    unmatched = list(diags)
    for e in expects:
        hit = next((d for d in unmatched if e.matches(d)), None)
        if hit is None:
            near = [f"{d.code} {d.metrics}" for d in diags if d.line == e.line]
            problems.append(f"missing: {e}" + (f" (got {near})" if near else ""))
        else:
            unmatched.remove(hit)
    for d in unmatched:
        problems.append(f"unexpected: {d.to_text()} {d.metrics}")
    return problems
