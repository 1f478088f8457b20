"""The pipeline for one file and for a run: read -> front-end -> rules -> suppressions -> sorted diagnostics.

Bad input never stops a run: an unreadable or undecodable file, or any internal failure while linting
one file, becomes a CL000 diagnostic for that file and the other files are still linted.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterable, Optional

from .analysis.context import AnalysisContext, Settings
from .analysis.launches import overload_key
from .ir.nodes import recursion_limit
from .diagnostics import UsageError, Diagnostic, Severity, cl000, split_codes  # noqa: F401 - re-exported
from .model import TranslationUnitModel, errors_within
from .rules import CL000, Rule, all_rules

# ``ignore[CODES]`` or a bare ``ignore`` (every code); not ``ignore-file``
_IGNORE = re.compile(r"//\s*cudalint:\s*ignore(?:\[([A-Z0-9,\s]+)\]|(?![\w\[-]|\s*\[))")
_IGNORE_FILE = re.compile(r"//\s*cudalint:\s*ignore-file\[([A-Z0-9,\s]+)\]")


#: Python frames a rule may use (the IR's own limit: code nested 600 blocks deep)
RULE_RECURSION_LIMIT = 50_000
#: CL001 is emitted by the driver with ``--warn-unused-ignores``: a suppression comment that silenced nothing.
CL001 = ("CL001", "unused-suppression", Severity.INFO, "A `cudalint: ignore` comment that suppresses no finding")
#: CL002 is emitted by the driver: a ``// cudalint:`` comment it cannot read (``ignore [CL201]`` with a space,
#: ``ignore[CL999]``, ``ignore[cl101]``, a missing ``]``), which silences nothing of what it names.
CL002 = ("CL002", "invalid-suppression", Severity.WARNING,
         "A `cudalint:` comment that is not a suppression or a hint cudalint reads")
#: a ``// cudalint:`` comment and what follows it on the line
_DIRECTIVE = re.compile(r"//\s*cudalint:\s*(?P<body>.*)")
#: near misses of it: a block comment, or another case (``/* cudalint: ignore */``, ``// CUDALINT: ignore``)
_NEAR_DIRECTIVE = re.compile(r"/\*\s*[cC][uU][dD][aA][lL][iI][nN][tT]\s*:"
                             r"|//\s*(?!cudalint:)[cC][uU][dD][aA][lL][iI][nN][tT]\s*:")
_CODE_TOKEN = re.compile(r"[A-Z][A-Z0-9]*")


@dataclass
class RunOptions:
    select: Optional[list[str]] = None
    ignore: list[str] = field(default_factory=list)
    settings: Settings = field(default_factory=Settings)
    extra_args: list[str] = field(default_factory=list)
    compile_db: Optional[Path] = None
    #: code or prefix -> severity (configuration ``severity``; the longest matching key wins)
    severity: dict[str, Severity] = field(default_factory=dict)
    #: report ``// cudalint: ignore`` comments that suppressed nothing (CL001)
    warn_unused_ignores: bool = False
    #: front-end: "clang", "tree-sitter", or "auto" (clang; tree-sitter for a file clang cannot model)
    frontend: str = "auto"
    #: the folders besides the system headers the clang front-end may read (:mod:`cudalint.frontend.confine`);
    #: None: the linted file's project root
    read_roots: Optional[tuple[str, ...]] = None
    #: the CUDA toolkit the clang front-end parses with (``--cuda-path``), None: cudalint's shims
    cuda_path: Optional[str] = None
    #: with the shims: lower a file they leave partly modelled again with the installed toolkit (the default of
    #: ``cudalint check`` and the language server; :func:`lower`)
    toolkit_fallback: bool = False


def _foreign_unlaunched(model, kernels: list, d: Diagnostic, path: str) -> bool:
    """Whether ``d`` belongs to a kernel defined in a header the linted file ``path`` includes that nothing in its
    program launches or names (:func:`cudalint.analysis.launches.unlaunched_kernels`' first reason): such a kernel
    does not run in this program, and the files that launch it report it with their launches (the book "CUDA by
    Example"'s `book.h`, copied beside each program with a `float_to_color` kernel most of them never launch: four
    findings judged false in census `bh`).  A header linted on its own keeps its findings."""
    from .analysis.launches import unnamed_reason
    if not d.kernel or model.unlaunched.get(d.kernel) != unnamed_reason(d.kernel):
        return False
    here = os.path.realpath(path)
    defs = [k for k in kernels if k.name == d.kernel]
    return bool(defs) and all(os.path.realpath(k.span.path) != here for k in defs)


def _overload_unlaunched(model, kernels: list, d: Diagnostic) -> Optional[str]:
    """Why ``d``'s kernel may never run when it is an overload no launch of its name can run
    (:func:`cudalint.analysis.launches._unlaunched_overloads`): the overload whose definition holds ``d``'s line."""
    for k in kernels:
        if k.name == d.kernel and k.span.path == d.path and k.span.line <= d.line <= (k.span.end_line or k.span.line):
            return model.unlaunched.get(overload_key(k.name, k.span.line))
    return None


def selected(code: str, opts: RunOptions) -> bool:
    """ruff-style prefix selection: ``--select CL1`` selects CL101 and CL102."""
    return (opts.select is None or code.startswith(tuple(opts.select))) and not code.startswith(tuple(opts.ignore))


def internal_error(path: str, component: str, e: BaseException) -> Diagnostic:
    """The CL000 for a crash of one of cudalint's components (``front-end clang``, ``analysis``,
    ``rule CL301``...) on ``path``: it names the component and the exception, and no selection hides it."""
    return cl000(path, f"cannot lint {path}: internal error in {component} ({type(e).__name__}: {e})",
                 internal=True)


#: the largest source file cudalint reads, in bytes: the front-ends' memory grows with the file (a 20 MB
#: generated file took 5.4 GB), and no hand-written kernel file comes near it
MAX_SOURCE_BYTES = 8 << 20


def read_bytes(path: str) -> bytes:
    """The bytes of a regular file of at most :data:`MAX_SOURCE_BYTES`.  Raises OSError for anything else: a
    FIFO or a device (``x.cu`` linked to ``/dev/zero``), which are not read at all, a folder, a larger file, or
    an unreadable one; its ``strerror`` says which."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO opens without waiting for a writer
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = "a FIFO" if stat.S_ISFIFO(st.st_mode) else "a device" if stat.S_ISCHR(st.st_mode) or \
                stat.S_ISBLK(st.st_mode) else "a folder" if stat.S_ISDIR(st.st_mode) else "a socket or other"
            raise OSError(errno.EINVAL, f"not a regular file ({kind}); not read")
        with os.fdopen(os.dup(fd), "rb") as fh:
            data = fh.read(MAX_SOURCE_BYTES + 1)
        if len(data) > MAX_SOURCE_BYTES:
            raise OSError(errno.EFBIG, f"larger than {MAX_SOURCE_BYTES >> 20} MiB ({st.st_size} bytes); not linted")
        return data
    finally:
        os.close(fd)


def read_source(path: str) -> str:
    """Read a file as UTF-8 (a BOM is dropped); a file that is not UTF-8 (a Latin-1 comment in an old source:
    Rodinia's myocyte) is read as Latin-1, one character per byte, as clang reads its bytes (``--fix`` leaves
    such a file alone).  Raises OSError (:func:`read_bytes`)."""
    raw = read_bytes(path)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def compile_flags(path: str, compile_db: Optional[Path]) -> list[str]:
    """Include paths, macros and the standard for ``path`` from a ``compile_commands.json`` (``-p BUILD_DIR``;
    :mod:`cudalint.compiledb`).  Raises :class:`UsageError` when the database cannot be read."""
    if compile_db is None:
        return []
    from .compiledb import database
    try:
        return database(compile_db).flags(path)
    except (OSError, ValueError) as e:
        raise UsageError(f"cannot read {compile_db}: {e}") from e


#: ``k << < grid, block >> > (..)``, which nvcc takes (Rodinia's particlefilter) and clang does not: ``<< <`` can
#: begin nothing else in C++
_SPACED_LAUNCH = re.compile(r"<<([ \t]+)<([^;]*?)>>([ \t]*)>")


def lower(path: str, text: str, opts: RunOptions):
    """Front-end: parse ``text`` (the contents of ``path``) and lower it to the IR
    (:class:`cudalint.ir.nodes.TranslationUnit`) with the front-end ``opts.frontend`` names; ``auto`` is
    clang, and tree-sitter for a file clang cannot take; a file one set of headers leaves partly modelled is
    lowered again with the other (:func:`_other_headers`: the shims after ``--cuda-path``'s toolkit, the installed
    toolkit after the shims by default), and the one clang takes better is kept.  Raises whatever
    the chosen front-end raises."""
    args = opts.extra_args + compile_flags(path, opts.compile_db)
    text = _SPACED_LAUNCH.sub(lambda m: f"<<<{m[1]}{m[2]}>>>{m[3]}", text)  # same length: columns stay
    failure = ""
    if opts.frontend != "tree-sitter":
        from .frontend.confine import Refused
        try:
            from .frontend.libclang import lower as clang_lower
            unit = clang_lower(path, text, args, opts.read_roots, opts.cuda_path)
            if (first := _trouble(unit, text)) and (other := _other_headers(opts)) is not False:
                # the shims' gaps (a header they lack: `cuda/std/complex`) where a toolkit is installed; the toolkit's
                # where the shims take more (a partial toolkit without cuRAND, clang's "initialization is not
                # supported for __shared__ variables" on libcu++'s `cuda::barrier`)
                with contextlib.suppress(Exception):   # noqa: BLE001 - the first lowering stands
                    second = clang_lower(path, text, args, opts.read_roots, other)
                    if _trouble(second, text) < first:
                        return second
            return unit
        except Refused:
            raise
        except Exception as e:
            if opts.frontend != "auto":
                raise
            failure = "" if isinstance(e, (ImportError, OSError, RecursionError)) or type(e).__name__ in (
                "TranslationUnitLoadError", "LibclangError") else f"{type(e).__name__}: {e}"
    from .frontend.treesitter import lower as ts_lower
    unit = ts_lower(path, text, args)
    unit.clang_failure = failure  # a fault of cudalint's own clang lowering: said, not only fallen back from
    return unit


def _other_headers(opts: RunOptions):
    """The headers to lower a partly modelled file with again: the shims (None) after the toolkit's, the installed
    toolkit's root after the shims' where ``opts.toolkit_fallback`` asks and one parses (found and probed once per
    process, :func:`cudalint.frontend.toolkit.resolve`); False for none."""
    if opts.cuda_path:
        return None
    if opts.toolkit_fallback:
        from .frontend.toolkit import resolve
        return resolve("auto")[0] or False
    return False


def _trouble(unit, text: str = "") -> int:
    """How many kernels of a lowered file clang could not fully take (:func:`incomplete_diagnostics`' CL000: an error
    inside the kernel, a part the lowering left out, or a ``__global__`` declaration of ``text`` no kernel came from
    with an error in its first lines, as a parameter of a type the headers lack); errors in host code do not count."""
    from .ir.nodes import FunctionKind
    kernels = [f for f in unit.functions if f.kind == FunctionKind.KERNEL]
    spans = [(f.span.line, f.span.end_line or f.span.line) for f in kernels if f.span.path == unit.path]
    lost = sum(1 for _ in _unparsed_kernels(text.splitlines(), spans, unit.errors))
    return lost + sum(1 for f in kernels if f.incomplete or errors_within(unit.errors, unit.path, f.span))


def external_calls(path: str, unit, opts: RunOptions) -> tuple[dict, list[str], list]:
    """What the program's other files pass the launching functions of ``unit`` that nothing in it calls
    (:func:`cudalint.analysis.launches.open_parameters`): ``{name: {parameter index: (value, call)}}`` for the
    parameters its launches' grids and blocks read, where every call found agrees; the files read for it
    (:func:`cudalint.analysis.launches.caller_files`, parsed with the run's front-end and confinement, one that cannot
    be parsed skipped) with the files their translation units read: the result depends on them (the cache's
    dependencies); and the launches those files make of the kernels of ``unit`` that nothing in it launches
    (:func:`cudalint.analysis.launches.orphan_kernels`: a kernel file launched from the program's main file)."""
    from .analysis.launches import agreed, caller_files, launching_files, open_parameters, orphan_kernels
    needs = open_parameters(unit)
    orphans = frozenset(orphan_kernels(unit))
    if not needs and not orphans:
        return {}, [], []
    from .frontend.confine import inside, project_root
    root = opts.read_roots[0] if opts.read_roots else project_root(path)
    calls: dict = {}
    candidates = dict.fromkeys((caller_files(path, set(needs)) if needs else []) + launching_files(path, set(orphans)))
    files = [f if os.path.isabs(path) else os.path.relpath(f) for f in candidates
             if inside(f, (root,))]  # named as the user named the linted file
    read, foreign = list(files), []
    for f in files:
        named, deps, sites = _calls_in(f, opts, orphans)
        read += deps
        foreign += sites
        for name, found in named.items():
            if name in needs:
                calls.setdefault(name, []).extend(found)
    out = {name: a for name, (n, shape) in needs.items()
           if (a := {i: v for i, v in agreed(calls.get(name, []), n).items() if i in shape})}
    return out, list(dict.fromkeys(read)), foreign


#: :func:`_calls_in`'s results by file, contents (mtime) and options; a few dozen files at most
_CALLS: dict = {}
#: the translation units :func:`_calls_in` lowered, by the same key, with the text they were lowered from: the file's
#: own lint, often next in a run (a program's files lie side by side), takes its unit from here instead of parsing
#: it again (:func:`_lowered`); each is taken once, and only the last few are kept
_UNITS: dict = {}
_KEEP_UNITS = 4


def _calls_key(path: str, opts: RunOptions) -> tuple:
    return (path, os.stat(path).st_mtime_ns, opts.frontend, tuple(opts.extra_args), str(opts.compile_db),
            opts.read_roots)


def _calls_in(path: str, opts: RunOptions, kernels: frozenset = frozenset()) -> tuple[dict, list[str], list]:
    """:func:`cudalint.analysis.launches.passed_by_calls` of the file ``path`` ({} when it cannot be parsed), the
    files its translation unit read, and its launches of ``kernels``
    (:func:`cudalint.analysis.launches.foreign_launches`), kept per file, contents (``mtime``) and options."""
    from .analysis.launches import foreign_launches, passed_by_calls
    key = _calls_key(path, opts)
    if key not in _CALLS:
        if len(_CALLS) >= 64:
            _CALLS.clear()
        try:
            text = read_source(path)
            unit = lower(path, text, opts)
            _CALLS[key] = passed_by_calls(unit), list(unit.dependencies), foreign_launches(unit)
            _UNITS[key] = (text, unit)
            while len(_UNITS) > _KEEP_UNITS:
                del _UNITS[next(iter(_UNITS))]
        except Exception:  # noqa: BLE001 - a caller that cannot be parsed gives nothing
            _CALLS[key] = {}, [], []
    named, deps, launches = _CALLS[key]
    return named, deps, [s for s in launches if s.kernel in kernels]


def _lowered(path: str, text: str, opts: RunOptions):
    """:func:`lower` of ``text`` as ``path``'s contents, or the unit :func:`_calls_in` lowered from that same text
    with the same options when the file was read as another file's caller first (the same front-end call on the same
    input gives the same unit; the walks there read it without changing it)."""
    try:
        key = _calls_key(path, opts)
    except OSError:
        key = None
    kept = _UNITS.pop(key, None) if key is not None else None
    return kept[1] if kept is not None and kept[0] == text else lower(path, text, opts)


def build_model(path: str, text: str, opts: RunOptions) -> TranslationUnitModel:
    """Front-end and analysis: the model of ``text`` (the contents of ``path``).  Raises what they raise."""
    from .analysis.build import build_model as analyse
    return analyse(lower(path, text, opts))


_KERNEL_DECL = re.compile(r"^\s*(?:template\s*<[^>]*>\s*)?(?:static\s+|extern\s+\S+\s+)?__global__\b")


def _unparsed_kernels(lines: list[str], spans: list[tuple[int, int]], errors: list[tuple[int, str]]):
    """(line, up to three "line N: message") for each ``__global__`` definition of ``lines`` outside the kernels'
    ``spans`` with a parse error in its signature (up to the ``{`` that opens the body; a ``;`` first is a prototype,
    not a kernel)."""
    for i, text in enumerate(lines, 1):
        if not _KERNEL_DECL.match(text) or any(a <= i <= b for a, b in spans):
            continue
        j, head = i, ""
        while j <= min(len(lines), i + 10) and "{" not in head and ";" not in head:
            head += lines[j - 1]
            j += 1
        if "{" not in head or ";" in head.split("{", 1)[0]:
            continue
        near = list(dict.fromkeys(f"line {ln}: {msg}" for ln, msg in errors if i <= ln < j))[:3]
        if near:
            yield i, near


def incomplete_diagnostics(model: TranslationUnitModel, lines: Optional[list[str]] = None) -> list[Diagnostic]:
    """CL000 for kernels that clang could not fully parse (errors inside their body), and for a ``__global__``
    declaration of the file (``lines``) that no kernel came from, with an error within its first lines (a
    signature clang could not parse: ``__global__ void k(float *a {``): nothing in it is analysed."""
    out = []
    spans = [(k.span.line, k.span.end_line or k.span.line) for k in model.kernels if k.span.path == model.path]
    for i, near in _unparsed_kernels(lines or [], spans, model.errors):
        out.append(cl000(model.path, f"the kernel declared on line {i} could not be parsed, so nothing in it is "
                                     "analysed: " + "; ".join(near), line=i))
    more = (" (unresolved includes: " + ", ".join(model.missing_includes) + "; add the folder that holds them to "
            "`include-paths` in `.cudalint.toml`, or pass `-p BUILD_DIR` with the build's compile_commands.json)"
            if model.missing_includes else "")
    if model.lost:
        first, error = min(model.lost.values())
        names = ", ".join(f"`{k}` (line {line})" for k, (line, _) in sorted(model.lost.items(), key=lambda x: x[1]))
        from .analysis.launches import MISSING_DEFINE
        out.append(cl000(model.path, f"launches of {names} were not read: the code around them did not compile "
                                     f"({error}); {MISSING_DEFINE}: those kernels' block is not known and their "
                                     "findings are info", line=first))
    for k in model.kernels:
        reasons = list(dict.fromkeys(f"line {ln}: {msg}"
                                     for ln, msg in errors_within(model.errors, model.path, k.span)))[:3]
        reasons += k.incomplete[:3]
        if reasons:
            out.append(cl000(k.span.path, f"kernel `{k.name}` is only partly modelled: " + "; ".join(reasons) + more,
                             line=k.span.line, column=k.span.column, kernel=k.name))
    return out


def _suppressions(lines: list[str]):
    """``ignore-file`` comments (line -> codes) and ``ignore`` comments (line -> (codes or None, match))."""
    files: dict[int, tuple[list[str], re.Match]] = {}
    here: dict[int, tuple[Optional[list[str]], re.Match]] = {}
    for i, ln in enumerate(lines, 1):
        if "cudalint" not in ln:
            continue
        if m := _IGNORE_FILE.search(ln):
            files[i] = (split_codes(m.group(1)), m)
        if m := _IGNORE.search(ln):
            here[i] = (split_codes(m.group(1)) if m.group(1) else None, m)
    return files, here


def _comment(line: str, start: int) -> str:
    """The comment that begins at ``start``: a block comment up to its ``*/``, a line comment to the end."""
    end = line.find("*/", start) + 2 if line.startswith("/*", start) and "*/" in line[start:] else len(line)
    return line[start:end].strip()


def invalid_suppressions(path: str, lines: list[str]) -> list[Diagnostic]:
    """CL002 for each ``// cudalint:`` comment that tries a directive but is not one of the forms cudalint
    reads: ``ignore`` (alone or followed by a space and prose), ``ignore[CODES]``, ``ignore-file[CODES]`` and
    the ``block=(x,y,z)`` hint; and for each code in a list that is not a known code or prefix (the list's
    other codes still apply).  A directive attempt is a body starting with ``ignore``, or a single word, or a
    word followed by ``[``, ``=`` or ``(``; other text after ``cudalint:`` is prose and not reported."""
    from .config import code_problem
    code, name, sev, _ = CL002
    out = []
    for i, ln in enumerate(lines, 1):
        if (near := _NEAR_DIRECTIVE.search(ln)) is not None:
            what = "a block comment" if near.group(0).startswith("/*") else "not in lower case"
            col = len(ln[:near.start()].encode("utf-8")) + 1
            out.append(Diagnostic(code=code, name=name, severity=sev, path=path, line=i, column=col, end_line=i,
                                  end_column=len(ln.rstrip().encode("utf-8")) + 1,
                                  message=f"invalid suppression `{_comment(ln, near.start())}`: it is {what}; cudalint "
                                          "reads only `// cudalint: ...` line comments, so it silences nothing"))
        for m in _DIRECTIVE.finditer(ln) if "cudalint" in ln else ():
            body = m.group("body").rstrip()
            why = None
            if re.match(r"block\s*=", body):
                continue
            if (lm := re.match(r"(ignore-file|ignore)(\s*)\[", body)) is not None:
                close = body.find("]", lm.end())
                if lm.group(2):
                    why = f"no space may stand before `[` (write `{lm.group(1)}[...]`); as written it silences nothing"
                elif close < 0:
                    why = "the code list has no closing `]`; it silences nothing"
                else:
                    codes = split_codes(body[lm.end():close])
                    lower = [c for c in codes if c.upper() != c]
                    if not codes:
                        why = "the code list is empty; it silences nothing"
                    elif lower:
                        why = f"codes are written in capitals (`{lower[0].upper()}`); this list silences nothing"
                    else:
                        bad = [c for c in codes if not _CODE_TOKEN.fullmatch(c) or code_problem(c)]
                        why = f"{code_problem(bad[0]) or f'invalid rule code: {bad[0]!r}'}" if bad else None
            elif re.match(r"ignore(?![\w\[-])", body):
                continue  # a bare `ignore`, maybe followed by prose
            elif re.match(r"ignore-file(?![\w\[-])", body):
                why = "`ignore-file` needs a code list (`ignore-file[CL601]`); it silences nothing"
            elif re.fullmatch(r"[\w-]+|[\w-]+\s*[\[=(].*", body):  # one word, or a word and `[`, `=` or `(`
                word = re.match(r"[\w-]+", body).group(0)  # type: ignore[union-attr]
                why = (f"`{word}` is not a directive cudalint reads (`ignore`, `ignore[CODES]`, `ignore-file[CODES]`, "
                       "`block=(x,y,z)`)")
            # else: prose after `cudalint:` (a note to readers), not a directive
            if why:
                col = len(ln[:m.start()].encode("utf-8")) + 1
                out.append(Diagnostic(code=code, name=name, severity=sev, path=path, line=i, column=col, end_line=i,
                                      end_column=len(ln.rstrip().encode("utf-8")) + 1,
                                      message=f"invalid suppression `{m.group(0).rstrip()}`: {why}"))
    return out


def suppressed(diags: list[Diagnostic], lines: list[str], used: Optional[set] = None) -> list[Diagnostic]:
    """Drop findings silenced by ``// cudalint: ignore[CODE]`` (a bare ``// cudalint: ignore``: every code)
    on their line or the line above, or by ``// cudalint: ignore-file[CODE]`` anywhere in the file.

    ``used`` collects ``(comment line, code)`` (code None for a bare ``ignore``) of the comments that
    silenced something."""
    files, here = _suppressions(lines)
    used = used if used is not None else set()
    out = []
    for d in diags:
        hits: set = set()
        if not d.internal:  # cudalint's own failure is not the code's: never silenced
            hits = {(ln, c) for ln, (codes, _) in files.items() for c in codes if d.code.startswith(c)}
            for ln in (d.line, d.line - 1):
                codes = here[ln][0] if ln in here else []
                hits |= {(ln, None)} if codes is None else {(ln, c) for c in codes if d.code.startswith(c)}
            used |= hits
        if not hits:
            out.append(d)
    return out


def unused_suppressions(path: str, lines: list[str], used: set, checked: Iterable[str]) -> list[Diagnostic]:
    """CL001 for each suppression comment (or code in one) that silenced nothing.  A code is reported only
    when a rule it names was run on the file (``checked``: the codes run), so ``--select`` does not make
    every other comment look unused."""
    checked = list(checked)
    files, here = _suppressions(lines)
    code, name, sev, _ = CL001
    out = []
    for kind, table in (("file", files), ("line", here)):
        for ln, (codes, m) in sorted(table.items()):
            idle = (([] if (ln, None) in used else [None]) if codes is None
                    else [c for c in codes if (ln, c) not in used and any(k.startswith(c) for k in checked)])
            if not idle:
                continue
            what = "finding" if idle == [None] else " or ".join(idle) + " finding"
            where = "in this file" if kind == "file" else "on this line or the next"
            col, end = (len(lines[ln - 1][:i].encode("utf-8")) + 1 for i in m.span())
            out.append(Diagnostic(code=code, name=name, severity=sev, path=path, line=ln, column=col, end_line=ln,
                                  end_column=end, message=f"unused suppression `{m.group(0)}`: no {what} {where} "
                                                          "to silence"))
    return out


def lint_file(path: str, opts: RunOptions, rules: Optional[list[Rule]] = None) -> list[Diagnostic]:
    """Lint one file. Never raises for bad input: failures become CL000 diagnostics."""
    return analyse_file(path, opts, rules)[0]


def lint_text(path: str, text: str, opts: RunOptions, rules: Optional[list[Rule]] = None) -> list[Diagnostic]:
    """Lint ``text`` as the contents of ``path`` (an editor's buffer, which may differ from the file on disk
    or have no file at all), through the same pipeline as :func:`lint_file`. Never raises for bad input."""
    return analyse_file(path, opts, rules, text=text)[0]


def analyse_file(path: str, opts: RunOptions, rules: Optional[list[Rule]] = None, text: Optional[str] = None
                 ) -> tuple[list[Diagnostic], Optional[TranslationUnitModel]]:
    """Lint one file and also return its model (None when the file could not be read or parsed).

    ``text``: the file's contents when they are already in hand (:func:`lint_text`); read from disk if None."""
    diags, model = _lint_file(path, opts, rules, text)
    for d in diags:
        if (best := max((k for k in opts.severity if d.code.startswith(k)), key=len, default=None)) is not None:
            d.severity = opts.severity[best]
    return [d for d in diags if d.internal or selected(d.code, opts)], model


def _lint_file(path: str, opts: RunOptions, rules: Optional[list[Rule]], text: Optional[str] = None):
    rules = rules if rules is not None else all_rules()
    from .frontend.confine import inside, project_root
    root = opts.read_roots[0] if opts.read_roots else project_root(path)
    if text is None and not inside(path, (root,)):  # a committed link out of the tree: neither front-end reads it
        return [cl000(path, f"not linted: `{path}` is a link to `{os.path.realpath(path)}`, outside the project "
                            f"({root})")], None
    try:
        text = read_source(path) if text is None else text
    except OSError as e:
        return [cl000(path, f"cannot read {path}: {e.strerror or e}")], None
    from .frontend.confine import Refused
    try:
        unit = _lowered(path, text, opts)
    except Refused as e:
        return [cl000(path, str(e), line=e.line)], None
    except Exception as e:  # noqa: BLE001 - an internal failure must not stop the run
        return [internal_error(path, f"front-end {'tree-sitter' if opts.frontend == 'tree-sitter' else 'clang'}",
                               e)], None
    try:  # (a caller that cannot be parsed is skipped inside; this catches cudalint's own faults)
        external, callers, foreign, failed = *external_calls(path, unit, opts), []
    except Exception as e:  # noqa: BLE001 - the file is still linted, with the shapes its own launches give
        external, callers, foreign = {}, [], []
        failed = [cl000(path, f"internal error in the search for launch callers in other files ({type(e).__name__}: "
                              f"{e}); linted with the launch shapes of this file only", internal=True)]
    try:
        from .analysis.build import build_model as analyse
        model = analyse(unit, external, foreign)
        model.callers = [c for c in callers if c not in model.dependencies]
    except Exception as e:  # noqa: BLE001
        return [internal_error(path, "analysis", e)], None
    lines = text.splitlines()
    if unit.clang_failure:
        failed.append(cl000(path, f"cannot lint {path} with clang: internal error in front-end clang "
                                  f"({unit.clang_failure}); linted with the tree-sitter front-end instead",
                            internal=True))
    from .analysis.launches import lost_launches, lost_reason, unnamed_kernels
    model.lost = lost_launches(unit, text)
    for name, (line, error) in model.lost.items():
        model.unlaunched.setdefault(name, lost_reason(name, line, error))
    elsewhere = {s.kernel for s in model.launches}  # (another file's launches of them too)
    for name, why in unnamed_kernels(unit, text).items():
        if name not in elsewhere:
            model.unlaunched.setdefault(name, why)
    diags: list[Diagnostic] = incomplete_diagnostics(model, lines) + failed
    layer_of: dict[int, tuple[int, str]] = {}  # id(diagnostic) -> (layer, instantiation label)
    for n, kernels in enumerate(_layers(model)):
        view = model if n == 0 and len(kernels) == len(model.kernels) else replace(model, kernels=kernels)
        ctx = AnalysisContext(model=view, lines=lines, settings=opts.settings)
        for rule in (r for r in rules if selected(r.code, opts)):
            try:
                with recursion_limit(RULE_RECURSION_LIMIT):  # host rules walk functions as deep as they nest
                    found = list(rule.check(view, ctx))
            except Exception as e:  # noqa: BLE001
                found = [internal_error(path, f"rule {rule.code}", e)]
            for d in found:
                layer_of[id(d)] = (n, _label(kernels, d))
                why = model.unlaunched.get(d.kernel or "") or _overload_unlaunched(model, kernels, d) or (
                    model.minor.get(d.kernel or "") if d.code not in ("CL301", "CL302") else None)
                if why and not d.internal:  # a barrier's fault is one wherever the kernel runs
                    d.severity = Severity.INFO
                    d.assumptions.append(why)
            diags.extend(d for d in found if d.internal or not _foreign_unlaunched(model, kernels, d, path))
        diags += [cl000(k.span.path, shape.rejected, line=k.span.line, column=k.span.column, kernel=k.name)
                  for k in kernels if (shape := ctx.launch_shape(k)).rejected and n == 0]
    # the file's findings and those in the user headers whose code it analysed (kernels, helpers)
    files = {path} | {f.span.path for f in unit.functions}
    diags = [d for d in diags if d.internal or (d.path in files and selected(d.code, opts))]
    if model.frontend == "tree-sitter":
        from .frontend.treesitter import ASSUMPTION
        for d in (d for d in diags if ASSUMPTION not in d.assumptions):
            d.assumptions.append(ASSUMPTION)
    used: set = set()
    diags = suppressed([d for d in diags if d.path == path], lines, used) + [
        d for p in files - {path} for d in suppressed([d for d in diags if d.path == p], _lines(p))]
    if selected(CL002[0], opts):
        diags += invalid_suppressions(path, lines)
    if opts.warn_unused_ignores and selected(CL001[0], opts):
        ran = [CL000[0]] + [r.code for r in rules if selected(r.code, opts)]
        diags += unused_suppressions(path, lines, used, ran)
    return sorted(_one_per_site(diags, layer_of, model), key=Diagnostic.sort_key), model


def _lines(path: str) -> list[str]:
    try:
        return read_source(path).splitlines()
    except (OSError, UnicodeDecodeError):
        return []


def _label(kernels: list, d: Diagnostic) -> str:
    """The instantiation a finding belongs to (``fill<double>``), "" for a kernel that is not a template: of the
    kernels named as the finding's, the one whose definition holds its line (explicit specializations share the
    name: ``template <> __global__ void fill<double>(...)``), else the first (a finding in a helper it calls)."""
    named = [k for k in kernels if k.name == (d.kernel or "")]
    inside = [k for k in named if k.span.path == d.path and k.span.line <= d.line <= k.span.end_line]
    k = (inside or named or [None])[0]
    return k.label if k is not None and k.template_args else ""


def _layers(model: TranslationUnitModel) -> list[list]:
    """The kernels split so that each layer holds one instantiation of each template kernel (layer 0:
    every kernel with its first instantiation): rules run once per layer."""
    seen: dict[tuple, int] = {}
    layers: list[list] = []
    for k in model.kernels:
        i = seen[(k.name, k.span)] = seen.get((k.name, k.span), -1) + 1
        layers += [[] for _ in range(i + 1 - len(layers))]
        layers[i].append(k)
    return layers or [[]]


def _one_per_site(diags: list[Diagnostic], layer_of: dict, model: TranslationUnitModel) -> list[Diagnostic]:
    """One finding per site and code (a struct moved as several field accesses; a helper inlined twice):
    the first of each layer, or of the kernels that inline a helper the first of the highest severity (a tiny
    launch's kernel and a full one's: the full one's warning); across a template kernel's instantiations, one
    finding when every instantiation gives the same, else each distinct finding with the instantiations it belongs
    to."""
    groups: dict[tuple, dict] = {}
    for d in diags:
        layer, label = layer_of.get(id(d), (0, ""))
        site = (d.path, d.code, d.line, d.column, d.end_line, d.end_column)
        per_layer = groups.setdefault(site, {})
        kept = per_layer.get(layer)
        if kept is None or kept[0].kernel != d.kernel and d.severity.rank > kept[0].severity.rank:
            per_layer[layer] = (d, label)   # a helper two kernels inline: the costlier kernel's finding
    out = []
    for per_layer in groups.values():
        firsts = list(per_layer.values())
        variants: dict[tuple, list] = {}
        for d, label in firsts:
            variants.setdefault((d.message, str(sorted(d.metrics.items()))), []).append((d, label))
        d0, label0 = firsts[0]
        every = [k.label for k in model.kernels if k.name == d0.kernel and k.template_args]
        if not label0 or len(variants) == 1 and [lab for _, lab in firsts] == every:
            if label0 and len(every) > 1:
                d0.assumptions = [a for a in d0.assumptions if not a.startswith("template instantiation ")] + [
                    "the same for every instantiation launched: " + ", ".join(f"`{lab}`" for lab in every[:4])
                    + (f" ({len(every)} in all)" if len(every) > 4 else "")]
            out.append(d0)
            continue
        for group in variants.values():
            d = group[0][0]
            d.message += " (in " + ", ".join(f"`{lab}`" for _, lab in group) + ")"
            out.append(d)
    return out


def failing(diags: list[Diagnostic], threshold: Severity = Severity.INFO) -> bool:
    return any(d.severity.rank >= threshold.rank for d in diags)
