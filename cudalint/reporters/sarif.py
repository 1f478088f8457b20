"""``--format sarif``: SARIF 2.1.0 (OASIS), the format GitHub code scanning and other viewers read.

One run whose ``tool.driver`` lists every registered rule and CL000 (id, name, short description = the
rule's summary, full description = the first paragraph of the page's "What it does", help = the page, the
page's URL, default level), and one result per finding.  The object is built as plain JSON: the SARIF
object-model package on PyPI (``sarif-om``) has not been released since 2019 and needs its own serializer,
so the tests validate this output against the official 2.1.0 schema instead.

CL000 (a file or kernel cudalint could not model, an internal error) is a fact about the run, not about the
code, so it goes to ``invocations[0].toolExecutionNotifications`` (shown by code scanning as a tool status,
never as an alert); ``executionSuccessful`` is false when one is an internal error.  Each result carries
``partialFingerprints["cudalintLineHash/v1"]``, a hash of its rule, file, kernel and the text of its line (with
the count of earlier results of the same text), so an alert survives lines moving above it.

Locations are relative to the current directory with forward slashes and ``uriBaseId`` ``%SRCROOT%``
(``originalUriBaseIds`` says what that is); a file outside it gets an absolute ``file://`` URI.  cudalint
reports columns in bytes of the UTF-8 text (clang's columns); SARIF's default column kind is UTF-16 code
units, so columns are converted when the file can be read again (identical for ASCII lines).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any, Iterable, Optional
from urllib.parse import quote

from .. import __version__
from ..diagnostics import Diagnostic, Severity
from ..rules import CL000, all_rules
from ..runner import CL001, CL002
from ..rules.pages import rule_page
from . import relative_posix

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
INFORMATION_URI = "https://github.com/cudalint/cudalint"
PAGE_URI = INFORMATION_URI + "/blob/main/rules/{code}.md"
SRCROOT = "%SRCROOT%"
LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def what_it_does(page: Optional[str]) -> Optional[str]:
    """The first paragraph under ``## What it does`` of a rule page, its lines joined with spaces; one that ends in a
    colon goes on with the paragraph or list after it (CL000's "It fires when:" and its cases)."""
    m = re.search(r"^##\s+What it does\s*$(.*?)(?=^##\s|\Z)", page or "", re.M | re.S)
    paras = [t for p in (re.split(r"\n\s*\n", m.group(1).strip()) if m else [])
             if (t := " ".join(ln.strip() for ln in p.splitlines() if ln.strip()))]
    out = ""
    for t in paras:
        out = f"{out} {t}".strip() if out else t
        if not out.endswith(":"):
            break
    return out or None


def _rule_descriptor(code: str, name: str, severity: Severity, summary: str,
                     page: Optional[str] = None, help: bool = True) -> dict[str, Any]:
    """The ``reportingDescriptor`` of one code; its whole rule page as ``help.markdown`` (``help.text``: the page's
    first paragraph, SARIF's plain-text fallback) only where ``help`` (a rule with results: every page embedded
    twice made a one-finding log 278 KB)."""
    page = page if page is not None else rule_page(code)
    full = what_it_does(page)
    return {"id": code, "name": name, "shortDescription": {"text": summary or name},
            **({"fullDescription": {"text": full}} if full else {}),
            **({"help": {"text": full or summary or name, "markdown": page}} if page and help else {}),
            "helpUri": PAGE_URI.format(code=code), "defaultConfiguration": {"level": LEVEL[Severity(severity)]}}


def _read_lines(path: str) -> Optional[list[str]]:
    try:
        return Path(path).read_bytes().decode("utf-8-sig").split("\n")
    except (OSError, UnicodeDecodeError):
        return None


def _region(at: Any, lines: Optional[list[str]]) -> dict[str, int]:
    """The region of ``at`` (a finding or an edit: ``line``, ``column``, ``end_line``, ``end_column``), its byte
    columns (clang's) as UTF-16 code units (SARIF's default) where the file's ``lines`` could be read."""
    def col(line: int, column: int) -> int:
        if lines is None or not 1 <= line <= len(lines) or column < 1:
            return column
        raw = lines[line - 1].encode("utf-8")
        units = len(raw[:column - 1].decode("utf-8", errors="replace").encode("utf-16-le")) // 2
        return units + max(0, column - 1 - len(raw)) + 1
    region = {"startLine": max(1, at.line)}
    if at.column >= 1:
        region["startColumn"] = col(at.line, at.column)
    if at.end_line >= at.line:
        region["endLine"] = at.end_line
        if at.end_column >= 1 and (at.end_line, at.end_column) >= (at.line, at.column):
            region["endColumn"] = col(at.end_line, at.end_column)
    return region


def _artifact_location(path: str, cwd: Optional[str]) -> dict[str, Any]:
    if (rel := relative_posix(path, cwd)) is not None:
        return {"uri": quote(rel, safe="/"), "uriBaseId": SRCROOT}
    return {"uri": Path(os.path.abspath(path)).as_uri()}


def to_sarif(diags: Iterable[Diagnostic], cwd: Optional[str] = None) -> dict[str, Any]:
    """The SARIF log (a dict) for ``diags``; URIs are relative to ``cwd`` (default: the current directory). Every
    code is a rule of the driver; the rule page rides along as ``help`` only for codes that have results."""
    diags = list(diags)
    used = {d.code for d in diags}
    rules = [_rule_descriptor(*c, help=c[0] in used) for c in (CL000, CL001, CL002)] + [
        _rule_descriptor(r.code, r.name, r.default_severity, r.summary, r.page(), help=r.code in used)
        for r in all_rules()]   # the driver's codes first: the order ``ruleIndex`` refers to
    index = {r["id"]: i for i, r in enumerate(rules)}
    read = functools.cache(_read_lines)   # each file read once
    results, notes, seen = [], [], {}
    for d in diags:
        where, lines = _artifact_location(d.path, cwd), read(d.path)
        if d.code == CL000[0]:
            notes.append({"level": "error" if d.internal else "note", "message": {"text": d.message},
                          "locations": [{"physicalLocation": {"artifactLocation": where, "region": _region(d, lines)}}],
                          "associatedRule": {"id": d.code, "index": index[d.code]}})
            continue
        result: dict[str, Any] = {
            "ruleId": d.code, **({"ruleIndex": index[d.code]} if d.code in index else {}),
            "level": LEVEL[Severity(d.severity)], "message": {"text": d.message},
            "locations": [{"physicalLocation": {"artifactLocation": where, "region": _region(d, lines)}}],
            "partialFingerprints": {"cudalintLineHash/v1": _fingerprint(d, where, lines, seen)},
            "properties": {**({"kernel": d.kernel} if d.kernel else {}), "metrics": dict(d.metrics),
                           "assumptions": list(d.assumptions)}}
        if d.fix is not None and d.fix.edits:
            changes = [{"artifactLocation": where, "replacements": [
                {"deletedRegion": _region(e, lines), "insertedContent": {"text": e.content}} for e in d.fix.edits]}]
            result["fixes"] = [{"description": {"text": d.fix.message}, "artifactChanges": changes}]
        results.append(result)
    base = Path(os.path.abspath(cwd or os.getcwd())).as_uri().rstrip("/") + "/"
    driver = {"name": "cudalint", "version": __version__, "semanticVersion": __version__,
              "informationUri": INFORMATION_URI, "rules": rules}
    invocation = {"executionSuccessful": not any(d.internal for d in diags if d.code == CL000[0]),
                  **({"toolExecutionNotifications": notes} if notes else {})}
    return {"$schema": SCHEMA_URI, "version": "2.1.0",
            "runs": [{"tool": {"driver": driver}, "invocations": [invocation],
                      "originalUriBaseIds": {SRCROOT: {"uri": base}},
                      "columnKind": "utf16CodeUnits", "results": results}]}


def _fingerprint(d: Diagnostic, where: dict, lines: Optional[list[str]], seen: dict) -> str:
    """A hash of the finding's rule, file, kernel and line text (whitespace squeezed), and how many earlier
    findings had the same: stable while other lines move."""
    text = " ".join(lines[d.line - 1].split()) if lines is not None and 1 <= d.line <= len(lines) else ""
    key = (d.code, where.get("uri", ""), d.kernel or "", text)
    seen[key] = n = seen.get(key, -1) + 1
    return hashlib.sha256("\0".join((*key, str(n))).encode("utf-8")).hexdigest()[:32] + f":{n + 1}"


def format_sarif(diags: Iterable[Diagnostic], cwd: Optional[str] = None) -> str:
    return json.dumps(to_sarif(diags, cwd), indent=2, ensure_ascii=False) + "\n"
