"""``--fix`` and ``--diff``: apply the fixes findings carry (today CL201's padding of 2-D shared arrays).

Per file, fixes are taken in source order and a fix is skipped when one of its edits overlaps an edit
already taken (an identical edit is shared: two findings on one array carry the same padding).  The
fixed text must parse: it is parsed with libclang with the same flags as the lint, and a fix is never
written when that reports an error-severity diagnostic the original text did not have.  ``--fix`` writes
atomically (a temporary file in the same folder, the original file's mode, ``os.replace``) and the
written files are linted again; ``--diff`` prints a unified diff and writes nothing.
"""

from __future__ import annotations

import contextlib
import difflib
import glob
import os
import stat
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Optional

from .diagnostics import Diagnostic, Edit
from .runner import RunOptions, compile_flags

_BOM = b"\xef\xbb\xbf"


@dataclass
class FilePlan:
    path: str
    original: str
    fixed: str
    findings: list[Diagnostic]  # the findings whose fix is in ``fixed``
    bom: bytes = b""
    refused: Optional[str] = None  # why the fixed text is not used


def summary(applied: list[FilePlan], verb: str = "Fixed") -> str:
    n, files = sum(len(p.findings) for p in applied), len(applied)
    if n == 0:   # not "Would fix 0 findings in 0 files." (a new user's trial); ruff says it this way
        return "No fixes available.\n"
    return f"{verb} {n} finding{'s' if n != 1 else ''} in {files} file{'s' if files != 1 else ''}.\n"


def _span(e: Edit, starts: list[int]) -> tuple[int, int]:
    """Byte offsets of an edit (clang's columns count bytes)."""
    return starts[e.line - 1] + e.column - 1, starts[e.end_line - 1] + e.end_column - 1


def apply_fixes(text: str, diags: Iterable[Diagnostic]) -> tuple[str, list[Diagnostic]]:
    """``text`` with the non-overlapping fixes of ``diags`` applied, and the findings they fix."""
    data = text.encode("utf-8")
    starts = [0] + [i + 1 for i, b in enumerate(data) if b == 0x0A]   # starts[n - 1]: line n's byte offset
    taken: dict[tuple[int, int], str] = {}
    fixed: list[Diagnostic] = []
    for d in sorted((d for d in diags if d.fix is not None and d.fix.edits),
                    key=lambda d: min(_span(e, starts) for e in d.fix.edits)):  # type: ignore[union-attr]
        spans = []
        for e in d.fix.edits:  # type: ignore[union-attr]
            if not (1 <= e.line <= len(starts) and 1 <= e.end_line <= len(starts)):
                break
            s, t = _span(e, starts)
            if s > t or t > len(data):
                break
            if taken.get((s, t)) == e.content:
                continue  # the same edit from another finding
            if any(s < b and a < t or s == t == a or (s == a and t == b) for a, b in taken):
                break
            spans.append(((s, t), e.content))
        else:  # every edit fits
            taken.update(spans)
            fixed.append(d)
    out = data
    for (s, t), content in sorted(taken.items(), reverse=True):
        out = out[:s] + content.encode("utf-8") + out[t:]
    return out.decode("utf-8"), fixed


def parse_errors(path: str, text: str, extra_args: list[str]) -> Counter:
    """Error-severity clang diagnostics of ``text`` parsed as ``path``: (message, count)."""
    from .frontend.libclang import file_diagnostics, parse
    errors, missing = file_diagnostics(path, parse(path, text, extra_args))
    return Counter(msg for _, msg in errors) + Counter(f"'{h}' file not found" for h in missing)


def _not_writable(path: str, opts: RunOptions) -> Optional[str]:
    """Why ``--fix`` must leave ``path`` alone: a link to a file outside the project, not a regular file, or
    a file without write permission (a read-only file stays untouched); None when it may be written."""
    from .frontend.confine import inside, project_root
    root = opts.read_roots[0] if opts.read_roots else project_root(path)
    if not inside(path, (root,)):
        return f"it is a link to `{os.path.realpath(path)}`, outside the project ({root})"
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        return "it is not a regular file"
    if not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(path, os.W_OK):
        return "it is read-only"
    return None


def plan(diags: list[Diagnostic], options_for: Callable[[str], RunOptions]) -> list[FilePlan]:
    """Work out the fixes of every file that has fixable findings (nothing is written); a plan that is
    ``refused`` is not to be written."""
    by_path: dict[str, list[Diagnostic]] = {}
    for d in (d for d in diags if d.fix is not None):
        by_path.setdefault(d.path, []).append(d)
    plans = []
    for path in sorted(by_path):
        try:
            raw = Path(path).read_bytes()
            original = raw.removeprefix(_BOM).decode("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        fixed, fixed_diags = apply_fixes(original, by_path[path])
        if fixed == original:
            continue
        opts = options_for(path)
        why = _not_writable(path, opts)
        args = opts.extra_args + compile_flags(path, opts.compile_db)
        errors = [] if why else sorted(
            (parse_errors(path, fixed, args) - parse_errors(path, original, args)).elements())  # new ones
        plans.append(FilePlan(path, original, fixed, fixed_diags, _BOM if raw.startswith(_BOM) else b"",
                              why or (f"the fixed text would not parse ({errors[0]})" if errors else None)))
    return plans


def unified_diff(p: FilePlan) -> str:
    """The plan as a unified diff that ``git apply`` takes: ``a/`` and ``b/`` before the path relative to the
    working directory (``./k.cu`` is ``a/k.cu``); a file outside it keeps its absolute path."""
    rel = os.path.relpath(os.path.abspath(p.path))
    old, new = (p.path, p.path) if rel.startswith("..") else (f"a/{Path(rel).as_posix()}", f"b/{Path(rel).as_posix()}")
    lines = difflib.unified_diff(p.original.splitlines(keepends=True), p.fixed.splitlines(keepends=True),
                                 fromfile=old, tofile=new)
    return "".join(ln if ln.endswith("\n") else ln + "\n\\ No newline at end of file\n" for ln in lines)


def write_atomic(path: str, data: bytes) -> None:
    """Replace the contents of ``path`` (a link's target) with ``data`` atomically, keeping its mode: the
    data goes to ``.<name>.<random>.cudalint-fix`` beside it, then replaces it; such files left by a run that
    was killed mid-write are removed first.  Raises OSError."""
    target = os.path.realpath(path)
    mode = stat.S_IMODE(os.stat(target).st_mode)
    folder = os.path.dirname(target) or "."
    prefix = "." + os.path.basename(target) + "."
    for stale in Path(folder).glob(glob.escape(prefix) + "*.cudalint-fix"):  # left by a killed earlier --fix
        with contextlib.suppress(OSError):
            if stale.is_file() and not stale.is_symlink():
                stale.unlink()
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=prefix, suffix=".cudalint-fix")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
