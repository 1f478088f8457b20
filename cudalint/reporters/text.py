"""Text output: ``concise`` (one line per finding, docs/DESIGN.md §"CLI") and ``full`` (as compilers print
diagnostics: the severity, the source line with the access underlined, then one ``note:`` per assumption and
the fix), with an optional ANSI colour (rich) and a closing summary that counts the files with findings.

Every piece of text that comes from the linted code or its paths goes through
:func:`cudalint.diagnostics.printable` (a file name cannot start a terminal escape or a CI workflow command),
and rich prints it with markup off: a ``[bold]`` in a file name is printed as written."""

from __future__ import annotations

import io
import os
from collections import Counter
from typing import Callable, Optional

from ..diagnostics import Diagnostic, Severity, printable

#: the severity's colour, as clang and ruff show them
_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "bold magenta", Severity.INFO: "bold cyan"}


def summary(diags: list[Diagnostic], n_files: int) -> str:
    """``Found N findings (E error, W warning, I info) in H of N files.``: ``in 2 files`` when every checked
    file has findings."""
    counts = Counter(d.severity for d in diags)
    hit = len({d.path for d in diags})
    where = f"{hit} of {n_files} files" if 0 < hit < n_files else f"{n_files} file{'s' if n_files != 1 else ''}"
    return (f"Found {len(diags)} finding{'s' if len(diags) != 1 else ''} "
            f"({counts[Severity.ERROR]} error, {counts[Severity.WARNING]} warning, "
            f"{counts[Severity.INFO]} info) in {where}.")


def format_concise(diags: list[Diagnostic], n_files: int) -> str:
    """One line per finding (``path:line:col: CODE [name] message``), then :func:`summary`."""
    return "".join(d.to_text() + "\n" for d in diags) + summary(diags, n_files) + "\n"


def use_color(choice: str, stream) -> bool:
    """Whether to colour: ``always``/``never`` as said; ``auto`` when ``stream`` is a terminal, ``NO_COLOR``
    is unset or empty (https://no-color.org) and ``TERM`` is not ``dumb``; ``FORCE_COLOR`` turns it on."""
    if choice in ("always", "never"):
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return bool(getattr(stream, "isatty", lambda: False)()) and os.environ.get("TERM") != "dumb"


def _snippet(d: Diagnostic, lines: list[str]) -> Optional[tuple[str, str]]:
    """(the finding's source line, its underline: ``^`` at the column, ``~`` to the end column on that
    line), tabs expanded to 8 columns as clang shows them, control characters escaped.  None when the line is
    not in the file."""
    if not 1 <= d.line <= len(lines):
        return None
    text = lines[d.line - 1].rstrip("\r\n")
    start = min(max(d.column - 1, 0), len(text))
    end = d.end_column - 1 if d.end_line == d.line and d.end_column > d.column else len(text.rstrip())
    end = max(min(end, len(text)), start + 1)
    shown = [printable(text[:k].expandtabs(8)) for k in (start, end)]
    return printable(text.expandtabs(8)), " " * len(shown[0]) + "^" + "~" * max(len(shown[1]) - len(shown[0]) - 1, 0)


def format_full(diags: list[Diagnostic], n_files: int, read_lines: Callable[[str], list[str]],
                color: bool = False, width: int = 100) -> str:
    """Each finding as a compiler prints it::

        k.cu:12:5: warning: uncoalesced global store of `out`: ... [CL101]
           12 |     out[i * 32] = v;
              |     ^~~~~~~~~~~
           note: blockDim = (256, 1, 1) from launch at k.cu:30
           fix: ...

    then :func:`summary`.  ``read_lines(path)`` gives a file's lines (an OSError leaves the snippet out).
    ``color`` adds ANSI styles through rich; the text is otherwise the same."""
    from rich.console import Console
    from rich.text import Text
    out = io.StringIO()
    console = Console(file=out, force_terminal=color, no_color=not color, color_system="standard" if color else None,
                      width=max(width, 40), soft_wrap=True, highlight=False, emoji=False, markup=False)
    cache: dict[str, list[str]] = {}
    for d in diags:
        head = Text()
        head.append(printable(f"{d.path}:{d.line}:{d.column}:"), style="bold")
        head.append(" ")
        head.append(f"{d.severity.value}:", style=_STYLE[d.severity])
        head.append(printable(f" {d.message} "))
        head.append(f"[{d.code}]", style="bold")
        console.print(head)
        if d.path not in cache:
            try:
                cache[d.path] = read_lines(d.path)
            except (OSError, ValueError):
                cache[d.path] = []
        if (snip := _snippet(d, cache[d.path])) is not None:
            gutter = " " * len(str(d.line))
            line = Text()
            line.append(f" {d.line} | ", style="blue")
            line.append(snip[0])
            console.print(line)
            mark = Text()
            mark.append(f" {gutter} | ", style="blue")
            mark.append(snip[1], style=_STYLE[d.severity])
            console.print(mark)
        for a in d.assumptions:
            note = Text()
            note.append("  note: ", style="bold")
            note.append(printable(a))
            console.print(note)
        if d.fix is not None:
            fix = Text()
            fix.append("  fix: ", style="bold green")
            fix.append(printable(d.fix.message))
            console.print(fix)
    console.print(Text(summary(diags, n_files)))
    return out.getvalue()
