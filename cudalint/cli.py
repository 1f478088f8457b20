"""Command line: ``cudalint check|rule|rules`` (DESIGN.md §5).

Exit codes: 0 no finding at or above the failing severity, 1 findings, 2 usage/config/internal error.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from collections import Counter
from dataclasses import fields
from pathlib import Path
from typing import Optional, Sequence

from . import __version__
from .diagnostics import Diagnostic, Severity, UsageError, printable, split_codes

# The rules and the analysis (sympy, libclang) are imported by the commands that run them, not here: the language
# server's process answers the editor without them (its workers lint), 0.35 s sooner.


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2
        self.exit(2, f"cudalint: error: {message}\n")


def _codes(value: str) -> list[str]:
    from .config import code_problem
    codes = [c.upper() for c in split_codes(value)]
    if problem := next(filter(None, map(code_problem, codes)), None):
        raise argparse.ArgumentTypeError(problem)
    return codes


def _positive_int(value: str) -> int:
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value!r}")
    return int(value)


def _block_dim(value: str) -> tuple[int, int, int]:
    from .config import parse_block_dim
    try:
        return parse_block_dim(value)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="cudalint", description="Static analysis for CUDA kernels.")
    p.add_argument("--version", action="version", version=f"cudalint {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    c = sub.add_parser("check", help="lint files and directories")
    c.add_argument("paths", nargs="*", default=["."], metavar="PATHS")
    c.add_argument("--format", "--output-format", dest="format", default="text",
                   choices=["text", "concise", "full", "json", "sarif", "github", "gitlab", "junit"],
                   help="text (= concise): one line per finding; full: as compilers print them, with the source "
                        "line, the assumptions as notes and the fix; json, sarif, github (workflow commands), "
                        "gitlab (Code Quality report), junit (JUnit XML)")
    c.add_argument("--color", choices=["auto", "always", "never"], default="auto",
                   help="colour the full text output (auto: on a terminal, unless NO_COLOR is set)")
    c.add_argument("--show-settings", action="store_true",
                   help="print the settings the first file found is linted with (its configuration file, the "
                        "rules, severities, blockDim, compiler flags, folders read) and exit")
    c.add_argument("-q", "--quiet", action="store_true",
                   help="print the findings and nothing else: no summary line, no fix counts, no progress bar")
    c.add_argument("--no-progress", action="store_true",
                   help="no progress bar (shown on a terminal's stderr for runs longer than a second)")
    c.add_argument("--output-file", metavar="F")
    c.add_argument("--select", type=_codes, metavar="CODES", help="comma-separated codes or prefixes")
    c.add_argument("--extend-select", type=_codes, default=[], metavar="CODES",
                   help="codes or prefixes to add to the selection")
    c.add_argument("--ignore", type=_codes, default=[], metavar="CODES")
    c.add_argument("--config", metavar="FILE",
                   help="use this configuration file (pyproject.toml or .cudalint.toml) for every path")
    c.add_argument("--block-dim", type=_block_dim, metavar="X[,Y[,Z]]",
                   help="blockDim for kernels without a launch or hint")
    c.add_argument("--statistics", action="store_true",
                   help="print the count of findings per code instead of the findings "
                        "(on stderr with json, sarif, github)")
    c.add_argument("--watch", action="store_true",
                   help="lint, then lint again whenever a CUDA file, header or configuration under PATHS changes "
                        "(until Ctrl-C; needs the `watch` extra: pip install 'cudalint[watch]')")
    c.add_argument("--fix", action="store_true",
                   help="apply the fixes (CL201 padding), written atomically, then lint the fixed files again")
    c.add_argument("--diff", action="store_true", help="print the fixes as a unified diff and write nothing")
    c.add_argument("--warn-unused-ignores", action="store_true",
                   help="report suppression comments that silence nothing (CL001)")
    c.add_argument("--exit-zero", action="store_true", help="exit 0 even with findings")
    c.add_argument("--fail-on", choices=["info", "warning", "error"], default="info",
                   help="exit 1 only for findings of this severity or above (default: any finding)")
    c.add_argument("--jobs", "-j", type=_positive_int, metavar="N",
                   help="files linted in N worker processes (default: the CPU count)")
    c.add_argument("--cache-dir", metavar="DIR", help="folder of the per-file result cache (default: .cudalint_cache)")
    c.add_argument("--no-cache", action="store_true", help="lint every file again, ignoring the cache")
    c.add_argument("-p", dest="build_dir", metavar="BUILD_DIR", help="folder holding compile_commands.json")
    c.add_argument("--frontend", choices=["auto", "clang", "tree-sitter"], default="auto",
                   help="clang (libclang), tree-sitter (no type information), or auto: clang, and tree-sitter "
                        "for a file clang cannot model (default)")
    c.add_argument("--cuda-path", metavar="PATH|auto|none", help=_CUDA_PATH_HELP)

    sub.add_parser("rule", help="print a rule's page").add_argument("code")
    sub.add_parser("rules", help="list all rules")
    sub.add_parser("lsp", help="run the language server (LSP over stdio) for editors")

    e = sub.add_parser("explain", help="draw the warp's picture for the accesses on FILE:LINE (a barrier: its conditions and verdict)")
    e.add_argument("location", metavar="FILE:LINE")
    e.add_argument("--warp", type=int, default=0, help="which warp of the block to draw (default 0)")
    e.add_argument("--block-dim", type=_block_dim, metavar="X[,Y[,Z]]")
    e.add_argument("--html", metavar="FILE", help="also save the picture as a standalone HTML page")
    e.add_argument("--cuda-path", metavar="PATH|auto|none", help=_CUDA_PATH_HELP)

    d = sub.add_parser("dump-ir", help="print the IR a front-end lowers a file to")
    d.add_argument("location", metavar="FILE[:FUNCTION]")
    d.add_argument("--frontend", choices=["auto", "clang", "tree-sitter"], default="auto")
    d.add_argument("-p", dest="build_dir", metavar="BUILD_DIR", help="folder holding compile_commands.json")
    d.add_argument("--cuda-path", metavar="PATH|auto|none", help=_CUDA_PATH_HELP)

    from .verify import add_arguments as _verify_arguments
    _verify_arguments(sub.add_parser("verify", help="compile + profile fixtures on a GPU, compare with predictions"))
    return p


def show_settings(path: str, resolver) -> str:
    """What ``cudalint check --show-settings`` prints for ``path``: the configuration file in force and the
    options it resolves to with the command line (:meth:`cudalint.config.Resolver.options_for`)."""
    from .rules import all_rules
    from .runner import compile_flags, selected
    cfg = resolver.config_for_dir(str(Path(path).resolve().parent))
    opts = resolver.options_for(path)
    codes = ["CL000", "CL001", "CL002"] + [r.code for r in all_rules()]
    on = [c for c in codes if c == "CL000" or (c != "CL001" or opts.warn_unused_ignores) and selected(c, opts)]
    block = opts.settings.block_dim
    rows = [("file", path), ("configuration file", str(cfg.path) if cfg.path else "none (defaults)"),
            ("rules run", ", ".join(on)), ("ignore", ", ".join(opts.ignore) or "none"),
            ("severity", ", ".join(f"{k} = {v.value}" for k, v in sorted(opts.severity.items())) or "rule defaults"),
            ("block-dim", f"{block} ({opts.settings.block_dim_source})" if block else "from launches, else unknown"),
            ("frontend", opts.frontend),
            ("compiler flags", " ".join(list(opts.extra_args) + compile_flags(path, opts.compile_db)) or "none"),
            ("compile database", str(opts.compile_db) if opts.compile_db else "none"),
            ("cuda toolkit", opts.cuda_path or (
                "cudalint's shims, and the installed toolkit's headers for a file they leave partly modelled"
                if opts.toolkit_fallback else "none: cudalint's shims stand in for its headers")),
            ("folders read", ", ".join(opts.read_roots or ()) + " and the system headers" + (
                "" if opts.cuda_path else " (cudalint's shims stand in for the CUDA toolkit's)"))]
    return "".join(printable(f"{k:<20} {v}") + "\n" for k, v in rows)


_CUDA_PATH_HELP = ("parse with this CUDA toolkit's headers instead of cudalint's shims (auto: CUDA_PATH, "
                   "CUDA_HOME, the nvcc on PATH, /usr/local/cuda); a toolkit libclang cannot parse is said once and "
                   "the shims kept. Default: the shims, and the installed toolkit for a file they leave partly "
                   "modelled; none: the shims alone")


def _toolkit(args: argparse.Namespace) -> None:
    """Resolve ``--cuda-path`` in place (:func:`cudalint.frontend.toolkit.resolve`): the toolkit's root when its headers
    parse, else None, why not said once on stderr; without the option, the shims, and the installed toolkit for a file
    they leave partly modelled (``toolkit_fallback``); ``none``: the shims alone. Raises UsageError for a named folder
    that is not a toolkit."""
    spec = getattr(args, "cuda_path", None)
    args.toolkit_fallback = spec is None
    from .frontend.toolkit import resolve
    try:
        args.cuda_path, why = resolve(spec)
    except ValueError as e:
        raise UsageError(str(e)) from e
    if why:
        sys.stderr.write(printable(f"cudalint: warning: not parsing with the CUDA toolkit ({why}); using cudalint's "
                                   "shims") + "\n")


def _compile_db(args: argparse.Namespace):
    """``-p BUILD_DIR``'s ``compile_commands.json`` (None without ``-p``); ``-p`` may also name the file."""
    db = None
    if args.build_dir:
        db = Path(args.build_dir)
        db = db if db.is_file() else db / "compile_commands.json"
    if db is not None and not db.is_file():
        raise UsageError(f"no compile_commands.json in {args.build_dir}")
    return db


def _check(args: argparse.Namespace) -> int:
    from . import fix as fixes
    from .config import Overrides, Resolver, discover
    from .runner import failing, read_source
    _toolkit(args)
    given = {f.name for f in fields(Overrides)} & vars(args).keys()   # the options named as Overrides' fields
    resolver = Resolver(Overrides(compile_db=_compile_db(args), **{k: getattr(args, k) for k in given}))
    files = discover(args.paths, resolver)
    if args.show_settings:
        if not files:
            raise UsageError(f"no CUDA files found in {' '.join(args.paths)}")
        sys.stdout.write(show_settings(files[0], resolver))
        return 0
    if not files:  # as ruff does: say so, on stderr, and exit 0
        sys.stderr.write(printable(f"cudalint: warning: no CUDA files found in {' '.join(args.paths)}") + "\n")
    from .cache import DEFAULT_DIR, Cache
    from .parallel import lint_many
    cache = None if args.no_cache else Cache(args.cache_dir or DEFAULT_DIR)

    def lint(paths: list[str]) -> list[Diagnostic]:  # each file with its own configuration, in worker processes
        from .progress import Progress
        with Progress(len(paths), enabled=not (args.no_progress or args.quiet)) as bar:
            return lint_many([(f, resolver.options_for(f)) for f in paths], jobs=args.jobs, cache=cache,
                             progress=bar.advance)
    diags = lint(files)
    fixed_msg = ""
    if args.fix or args.diff:
        plans = fixes.plan(diags, resolver.options_for)
        for plan in (p for p in plans if p.refused):
            sys.stderr.write(printable(f"cudalint: not fixing {plan.path}: {plan.refused}") + "\n")
        applied = [plan for plan in plans if plan.refused is None]
        if args.diff:
            sys.stdout.write("".join(fixes.unified_diff(plan) for plan in applied))
            if not args.quiet:
                sys.stderr.write(fixes.summary(applied, "Would fix"))
            return 1 if applied and not args.exit_zero else 0
        written = []
        for plan in applied:
            try:
                fixes.write_atomic(plan.path, plan.bom + plan.fixed.encode("utf-8"))
                written.append(plan)
            except OSError as e:  # a read-only folder, a full disk: said, and the file stays as it was
                sys.stderr.write(printable(f"cudalint: not fixing {plan.path}: cannot write it "
                                           f"({e.strerror or e})") + "\n")
        applied = written
        again = sorted({plan.path for plan in applied})
        diags = sorted([d for d in diags if d.path not in again] + lint(again), key=Diagnostic.sort_key)
        fixed_msg = fixes.summary(applied)
    if args.format == "json":
        out = json.dumps([d.to_json() for d in diags], indent=2) + "\n"
    elif args.format == "sarif":
        from .reporters.sarif import format_sarif
        out = format_sarif(diags)
    elif args.format == "github":
        from .reporters.github import format_github
        out = format_github(diags)
    elif args.format == "gitlab":
        from .reporters.gitlab import format_gitlab
        out = format_gitlab(diags)
    elif args.format == "junit":
        from .reporters.junit import format_junit
        out = format_junit(diags)
    elif args.format == "full":
        from .reporters.text import format_full, use_color
        out = format_full(diags, len(files), lambda p: read_source(p).splitlines(),
                          color=use_color(args.color, sys.stdout if not args.output_file else None),
                          width=shutil.get_terminal_size((100, 24)).columns)
    else:
        from .reporters.text import format_concise
        out = format_concise(diags, len(files))
    counts = Counter((d.code, d.name) for d in diags) if args.statistics else Counter()
    table = "".join(f"{n:5d}\t{code}\t[{name}]\n" for (code, name), n in sorted(counts.items()))
    if args.format in ("text", "concise", "full"):
        # ruff's --statistics: the count per code instead of the findings, then the summary line
        summary = out.rstrip("\n").rsplit("\n", 1)[-1] + "\n" if out.strip() else ""
        if args.quiet:  # ruff's --quiet: the findings (or the table), nothing else
            out = out[:len(out.rstrip("\n")) - len(summary) + 1] if summary else out
            summary = fixed_msg = ""
        out = fixed_msg + (table + summary if args.statistics else out)
    else:
        sys.stderr.write(table + ("" if args.quiet else fixed_msg))  # keep json/sarif/github output machine-readable
    if args.output_file:
        Path(args.output_file).write_text(out, encoding="utf-8")
    else:
        sys.stdout.write(out)
    if any(d.internal for d in diags):  # cudalint itself failed on a file: not a finding, whatever the options
        return 2
    return 1 if failing(diags, Severity(args.fail_on)) and not args.exit_zero else 0


#: what a change of makes ``--watch`` lint again: sources, headers, configuration, a compilation database
WATCHED = (".cu", ".cuh", ".h", ".hpp", ".inl", ".toml", "compile_commands.json")


def _watch(args: argparse.Namespace, watch=None) -> int:
    """``check --watch``: lint, then lint again after each batch of changes to the files under ``args.paths``
    (:data:`WATCHED`), with the same options, until interrupted; exit 0.  ``watch``: watchfiles' ``watch`` (a
    stand-in in tests).  Raises UsageError without watchfiles or with an option that writes files."""
    if args.fix or args.diff or args.show_settings:
        raise UsageError("--watch cannot be combined with --fix, --diff or --show-settings")
    if watch is None:
        try:
            from watchfiles import watch
        except ImportError:
            raise UsageError("--watch needs the watchfiles package: pip install 'cudalint[watch]'") from None
    _check(args)
    sys.stdout.flush()
    for changes in watch(*args.paths, watch_filter=lambda _change, path: path.endswith(WATCHED),
                         raise_interrupt=False):
        names = sorted({os.path.relpath(p) for _, p in changes})
        sys.stdout.write(printable(f"\n[{time.strftime('%H:%M:%S')}] changed: {', '.join(names)}; linting again")
                         + "\n")
        _check(args)
        sys.stdout.flush()
    return 0


def _dump_ir(args: argparse.Namespace) -> int:
    from .ir.printer import dump
    from .runner import lower, read_source
    path, _, function = args.location.partition(":")
    if not Path(path).is_file() and ":" in args.location:
        path, function = args.location, ""
    try:
        text = read_source(path)
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read {path}: {e}") from e
    # the file's configuration (include-paths, defines), as `check` reads it
    from .config import Overrides, Resolver
    _toolkit(args)
    opts = Resolver(Overrides(compile_db=_compile_db(args), frontend=args.frontend, cuda_path=args.cuda_path,
                              toolkit_fallback=args.toolkit_fallback)).options_for(path)
    unit = lower(path, text, opts)
    if function and not any(f.name == function for f in unit.functions):
        raise UsageError(f"no function `{function}` in {path}")
    sys.stdout.write(dump(unit, function or None))
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    if not (sys.argv[1:] if argv is None else argv):   # bare `cudalint`: the commands, as ruff prints them
        parser.print_help(sys.stderr)
        return 2
    args = parser.parse_args(argv)
    if args.command == "lsp":   # a broken plugin is a CL000 on each document its workers lint
        from .lsp import serve
        return serve()
    from .rules import CL000, RuleError, all_rules, find_rule, rule_classes
    from .rules.pages import rule_page
    from .runner import CL001, CL002
    try:
        if args.command in ("check", "rule", "rules"):
            rule_classes()  # a broken plugin is a one-line error before any work
        if args.command == "check":
            return _watch(args) if args.watch else _check(args)
        if args.command == "rule":
            rule = find_rule(args.code.upper())
            page = rule.page() if rule is not None else rule_page(args.code.upper())
            if page is None:
                raise UsageError(f"unknown rule code: {args.code}")
            if sys.stdout.isatty():  # rendered on a terminal (rich); the Markdown itself in a pipe or a file
                from rich.console import Console
                from rich.markdown import Markdown
                Console().print(Markdown(page))
            else:
                sys.stdout.write(page)
            return 0
        if args.command == "verify":
            from .verify import run_verify
            return run_verify(args)
        if args.command == "explain":
            from .explain import run_explain
            _toolkit(args)
            return run_explain(args.location, warp=args.warp, html=args.html, block_dim=args.block_dim,
                               cuda_path=args.cuda_path, toolkit_fallback=args.toolkit_fallback)
        if args.command == "dump-ir":
            return _dump_ir(args)
        # the one command left (a subcommand is required): rules
        rows = [CL000, CL001, CL002] + [(r.code, r.name, r.default_severity, r.summary) for r in all_rules()]
        sys.stdout.write("".join(f"{code}  {name:<32} {sev.value:<8} {summary}\n" for code, name, sev, summary in rows))
        return 0
    except (UsageError, RuleError) as e:
        sys.stderr.write(printable(f"cudalint: error: {e}") + "\n")
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
