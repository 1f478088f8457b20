"""JUnit XML reports (``--format junit``) for CI systems that show test results (Jenkins, GitLab, Azure
Pipelines, CircleCI).

As ruff writes them: one ``<testsuite>`` per file with findings, one ``<testcase>`` per finding named
``cudalint.CODE`` with the file as ``classname`` and a ``<failure>`` whose message is the finding's message and
whose text is ``line L, col C, SEVERITY: message``; a run without findings is one passing test case (``No
findings``).  A file cudalint could not model (CL000) is a ``<skipped>`` test case, an internal error an
``<error>`` one.  Written with the standard library's :mod:`xml.etree.ElementTree`, which escapes every
attribute and text (a file name with ``<``, ``&`` or quotes cannot break the document).
"""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from typing import Iterable

from ..diagnostics import Diagnostic, Severity


#: characters XML 1.0 does not allow even escaped (a control character in a file name or a kernel's name)
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _x(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def _kind(d: Diagnostic) -> str:
    """A finding is a failure, an internal error an error, a file cudalint could not model (CL000) skipped."""
    return "failure" if d.code != "CL000" else "error" if d.internal else "skipped"


def _counts(diags: list[Diagnostic]) -> dict[str, str]:
    kinds = [_kind(d) for d in diags]
    return {"failures": str(kinds.count("failure")), "errors": str(kinds.count("error")),
            "skipped": str(kinds.count("skipped"))}


def to_junit(diags: Iterable[Diagnostic]) -> ET.Element:
    """The ``<testsuites>`` element for ``diags`` (sorted as the other formats sort them)."""
    diags = sorted(diags, key=Diagnostic.sort_key)
    root = ET.Element("testsuites", name="cudalint", tests=str(max(1, len(diags))), **_counts(diags))
    if not diags:
        suite = ET.SubElement(root, "testsuite", name="cudalint", tests="1", failures="0", errors="0")
        ET.SubElement(suite, "testcase", name="No findings", classname="cudalint")
        return root
    for path, group in itertools.groupby(diags, key=lambda d: d.path):
        group = list(group)
        path = _x(path)
        suite = ET.SubElement(root, "testsuite", name=path, tests=str(len(group)), **_counts(group))
        for d in group:
            case = ET.SubElement(suite, "testcase", name=f"cudalint.{d.code}", classname=path,
                                 file=path, line=str(d.line))
            text = _x(f"line {d.line}, col {d.column}, {Severity(d.severity).value}: {d.message}")
            kind = _kind(d)
            ET.SubElement(case, kind, message=_x(d.message), **({"type": d.code} if kind != "skipped" else {})).text = text
    return root


def format_junit(diags: Iterable[Diagnostic]) -> str:
    root = to_junit(diags)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
