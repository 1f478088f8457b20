"""Configuration (DESIGN.md §5): ``[tool.cudalint]`` in ``pyproject.toml`` or top-level keys in ``.cudalint.toml``.

Like ruff, the configuration of a file is the closest one found by walking up from the file's folder: in
each folder ``.cudalint.toml`` is looked for first, then a ``pyproject.toml`` that has a ``[tool.cudalint]``
table (a ``pyproject.toml`` without one is passed over).  ``--config FILE`` forces one file for every path.
Globs (``include``, ``exclude``, ``per-file-ignores``) and ``include-paths`` are relative to the folder of
the configuration file that holds them.  The command line overrides the file: ``--select`` replaces
``select`` and ``extend-select``, ``--extend-select`` and ``--ignore`` add to them, ``--block-dim``
replaces ``block-dim``.

An unknown key or a value of the wrong type is a :class:`~cudalint.runner.UsageError` (one line naming the
key and the file; exit code 2).

Directory discovery (:func:`discover`) also lives here: ``.gitignore`` files are honoured (from the
repository root, or from the folder given when it is not in a git repository, down to each folder),
hidden folders are skipped, and each folder's configuration chooses the extensions and the
``include``/``exclude`` globs.  Files named on the command line are always linted.
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import itertools
import math
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Optional

import pathspec

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from .analysis.context import Settings
from .diagnostics import Severity
from .reporters import relative_posix
from .rules import CL000, all_rules
from .runner import CL001, CL002, RunOptions, UsageError

DEFAULT_EXTENSIONS = (".cu", ".cuh")
FRONTENDS = ("auto", "clang", "tree-sitter")
KEYS = ("select", "extend-select", "ignore", "per-file-ignores", "severity", "block-dim", "include", "exclude",
        "extensions", "frontend", "include-paths", "defines")
_CODE = re.compile(r"[A-Z]+\d*")
_DEFINE = re.compile(r"[A-Za-z_]\w*(=.*)?", re.S)


def known_codes() -> list[str]:
    return sorted({CL000[0], CL001[0], CL002[0]} | {r.code for r in all_rules()})


def code_problem(code: str, known: Optional[Iterable[str]] = None) -> Optional[str]:
    """Why ``code`` is not a rule code or prefix (``CL1``, ``CL10``, ``CL101``, a plugin's ``ACME1``), or
    None when it is one."""
    if not _CODE.fullmatch(code):
        return f"invalid rule code or prefix: {code!r}"
    if not any(k.startswith(code) for k in (known if known is not None else known_codes())):
        return f"unknown rule code or prefix: {code!r}"
    return None


def parse_block_dim(value: Any) -> tuple[int, int, int]:
    """``[x, y, z]`` (1 to 3 positive integers) or ``"x,y,z"``. Raises ValueError (its message is
    ``--block-dim``'s).  A block over the hardware's 1024 threads is taken here and left out per kernel, with a
    CL000 note (:data:`~cudalint.analysis.context.MAX_THREADS`): GPUVerify's suites give such blocks."""
    dims = None
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            dims = [int(v) for v in value.replace("(", "").replace(")", "").split(",") if v.strip()]
    elif isinstance(value, list) and all(type(v) is int for v in value):
        dims = list(value)
    if dims is None:
        raise ValueError(f"expected X[,Y[,Z]] integers, got {value!r}")
    if not 1 <= len(dims) <= 3 or any(d <= 0 or d >= 1 << 31 for d in dims):
        raise ValueError(f"expected 1-3 positive extents, got {value!r}")
    return (*dims, 1, 1)[:3]


#: at most this many ``*`` in one path segment of a glob: pathspec's regexes backtrack polynomially in the
#: segment's length to the power of its stars (``*a*a*a*a*a*a*a*a*b`` took minutes on a 70-character path)
MAX_STARS = 3


def tame_glob(pattern: str) -> tuple[str, Optional[str]]:
    """``pattern`` with each run of ``*`` inside a path segment written once (``a**b`` is ``a*b`` to git; a
    segment that is exactly ``**`` keeps its meaning), and why it is refused (more than :data:`MAX_STARS`
    stars in one segment), else None."""
    segs = [seg if seg == "**" else re.sub(r"\*{2,}", "*", seg) for seg in pattern.split("/")]
    if any(seg != "**" and seg.count("*") > MAX_STARS for seg in segs):
        return pattern, f"more than {MAX_STARS} `*` in one path segment"
    return "/".join(segs), None


@functools.lru_cache(maxsize=None)
def _spec(*patterns: str) -> pathspec.GitIgnoreSpec:
    return pathspec.GitIgnoreSpec.from_lines(patterns)


@dataclass
class Config:
    """One configuration file's settings (``path`` None: the defaults), patterns relative to ``root``."""
    path: Optional[Path] = None
    root: Path = field(default_factory=Path.cwd)
    select: Optional[list[str]] = None
    extend_select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    per_file_ignores: list[tuple[str, list[str]]] = field(default_factory=list)
    severity: dict[str, Severity] = field(default_factory=dict)
    block_dim: Optional[tuple[int, int, int]] = None
    include: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    extensions: tuple[str, ...] = DEFAULT_EXTENSIONS
    frontend: str = "auto"
    include_paths: list[str] = field(default_factory=list)
    defines: list[str] = field(default_factory=list)

    def matches(self, globs: list[str], path: str, is_dir: bool = False) -> bool:
        """Whether ``path`` (a folder when ``is_dir``) matches one of ``globs``, relative to the configuration's
        folder (a path outside it matches none)."""
        rel = relative_posix(path, str(self.root))
        return bool(globs) and rel is not None and _spec(*globs).match_file(rel + "/" * is_dir)


# -- loading


def _read_toml(path: Path) -> dict:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except OSError as e:
        raise UsageError(f"cannot read configuration {path}: {e.strerror or e}") from e
    except tomllib.TOMLDecodeError as e:
        raise UsageError(f"{path}: invalid TOML: {e}") from e
    except RecursionError:  # `a = [[[[...]]]]` thousands deep: tomllib recurses per level
        raise UsageError(f"{path}: invalid TOML: nested too deeply") from None


def _table(path: Path, data: dict) -> Optional[dict]:
    """The settings table of a configuration file: ``[tool.cudalint]`` of a pyproject, else the top level."""
    if path.name != "pyproject.toml":
        return data
    tool = data.get("tool")
    if not isinstance(tool, dict) or "cudalint" not in tool:
        return None
    if not isinstance(tool["cudalint"], dict):
        raise UsageError(f"{path}: `tool.cudalint` must be a table")
    return tool["cudalint"]


def load_config(path: Path, data: Optional[dict] = None) -> Config:
    """Read and validate one configuration file (raises :class:`UsageError`)."""
    path = Path(os.path.abspath(path))
    table = _table(path, data if data is not None else _read_toml(path)) or {}
    where = f"{path}" + (" [tool.cudalint]" if path.name == "pyproject.toml" else "")
    cfg = Config(path=path, root=path.parent)
    known = known_codes()

    def fail(key: str, what: str, value: Any) -> UsageError:
        shown = value if isinstance(value, (str, int, float, bool, list, dict)) else type(value).__name__
        return UsageError(f"{where}: `{key}` must be {what}, got {_toml_repr(shown)}")

    def strings(key: str, value: Any, what: str = "a list of strings") -> list[str]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise fail(key, what, value)
        return list(value)

    def codes(key: str, value: Any) -> list[str]:
        what = 'a list of rule codes such as ["CL101", "CL2"]'
        return [check(key, v.strip().upper()) for v in strings(key, value, what)]

    def globs(key: str, glob: str) -> str:
        tamed, problem = tame_glob(glob)
        if problem:
            raise UsageError(f"{where}: `{key}`: glob {_toml_repr(glob)} has {problem}")
        return tamed

    def check(key: str, code: str) -> str:
        if problem := code_problem(code, known):
            raise UsageError(f"{where}: `{key}`: {problem}")
        return code

    for key, value in table.items():
        if key not in KEYS:
            near = difflib.get_close_matches(key, KEYS, n=1)
            hint = f" (did you mean `{near[0]}`?)" if near else ""
            if key == "tool" and path.name != "pyproject.toml":
                hint = " (a `.cudalint.toml` holds the settings at its top level; `[tool.cudalint]` is for pyproject.toml)"
            raise UsageError(f"{where}: unknown key `{key}`{hint}")
        if key in ("select", "extend-select", "ignore"):
            value = codes(key, value)
        elif key in ("include", "exclude", "defines"):
            value = strings(key, value)
            if key == "defines" and (bad := next((d for d in value if not _DEFINE.fullmatch(d)), None)) is not None:
                raise fail(key, 'a list of "NAME" or "NAME=VALUE"', bad)
            if key != "defines":
                value = [globs(key, g) for g in value]
        elif key == "per-file-ignores":
            if not isinstance(value, dict):
                raise fail(key, 'a table of glob = ["CODE", ...]', value)
            value = [(globs(key, glob), codes(f"{key}.{_toml_key(glob)}", cs)) for glob, cs in value.items()]
        elif key == "severity":
            if not isinstance(value, dict):
                raise fail(key, 'a table of CODE = "info" | "warning" | "error"', value)
            for code, sev in value.items():
                check(key, code.upper())
                if sev not in ("info", "warning", "error"):
                    raise fail(f"{key}.{code}", '"info", "warning" or "error"', sev)
            value = {code.upper(): Severity(sev) for code, sev in value.items()}
        elif key == "block-dim":
            try:
                value = parse_block_dim(value)
            except ValueError:
                raise fail(key, '[x, y, z] or "x,y,z" (1 to 3 positive integers)',
                           value) from None
        elif key == "extensions":
            value = tuple(e if e.startswith(".") else "." + e for e in strings(key, value) if e)
        elif key == "frontend" and value not in FRONTENDS:
            raise fail(key, '"auto", "clang" or "tree-sitter"', value)
        elif key == "include-paths":
            value = [os.path.normpath(os.path.join(cfg.root, p)) for p in strings(key, value)]
        setattr(cfg, key.replace("-", "_"), value)
    return cfg


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else f'"{key}"'


def _toml_repr(value: Any) -> str:
    """A value as TOML spells it (so the error quotes what the user wrote)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_repr(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_repr(v)}" for k, v in value.items()) + "}"
    return str(value)


def find_config_file(folder: str) -> Optional[tuple[Path, dict]]:
    """The configuration file governing ``folder``: the closest ``.cudalint.toml`` or ``pyproject.toml``
    with ``[tool.cudalint]`` in it or above it (``.cudalint.toml`` first in one folder)."""
    d = Path(os.path.abspath(folder))
    for cand in (d, *d.parents):
        if (dot := cand / ".cudalint.toml").is_file():
            return dot, _read_toml(dot)
        if (py := cand / "pyproject.toml").is_file() and _table(py, data := _read_toml(py)) is not None:
            return py, data
    return None


# -- the command line on top of the files


@dataclass
class Overrides:
    """What the command line says; each field left at its default leaves the file's value in force."""
    select: Optional[list[str]] = None
    extend_select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    block_dim: Optional[tuple[int, int, int]] = None
    compile_db: Optional[Path] = None
    warn_unused_ignores: bool = False
    config: Optional[str] = None
    frontend: str = "auto"  # --frontend auto|clang|tree-sitter
    #: --cuda-path, resolved and probed (:mod:`cudalint.frontend.toolkit`): the machine's toolkit, never a
    #: configuration file's (a repository's settings do not choose which headers outside it are read)
    cuda_path: Optional[str] = None
    #: without ``--cuda-path``: a file the shims leave partly modelled is lowered again with the toolkit ``auto``
    #: finds, where one is installed (:func:`cudalint.runner.lower`)
    toolkit_fallback: bool = False


class Resolver:
    """Finds each file's configuration and turns it, with the command line, into :class:`RunOptions`."""

    def __init__(self, overrides: Optional[Overrides] = None, use_files: bool = True):
        self.overrides = overrides or Overrides()
        self._find = functools.cache(find_config_file)   # each folder looked up once
        self._by_file: dict[Path, Config] = {}
        self._default = Config()
        self.forced: Optional[Config] = None if use_files else self._default   # the one configuration of every path
        if self.overrides.config:
            p = Path(self.overrides.config)
            if not p.is_file():
                raise UsageError(f"configuration file does not exist: {self.overrides.config}")
            self.forced = load_config(p)

    def config_for_dir(self, folder: str) -> Config:
        if self.forced is not None:
            return self.forced
        found = self._find(os.path.abspath(folder))
        if found is not None and found[0] not in self._by_file:
            self._by_file[found[0]] = load_config(*found)
        return self._by_file[found[0]] if found else self._default

    def options_for(self, path: str) -> RunOptions:
        o, cfg = self.overrides, self.config_for_dir(os.path.dirname(os.path.abspath(path)))
        head = o.select if o.select is not None else None if cfg.select is None else cfg.select + cfg.extend_select
        select = None if head is None else list(head) + list(o.extend_select)
        ignore = cfg.ignore + list(o.ignore) + [c for glob, cs in cfg.per_file_ignores if cfg.matches([glob], path)
                                                for c in cs]
        extra = [f"-I{p}" for p in cfg.include_paths] + [f"-D{d}" for d in cfg.defines]
        from .frontend.confine import inside, project_root
        root = project_root(path, str(cfg.path.parent) if cfg.path is not None and self.forced is None else None)
        trusted = [os.path.realpath(p) for p in cfg.include_paths
                   if self.forced is not None or inside(p, (root,))]  # a repository's own: inside it only
        if o.compile_db is not None:
            trusted.append(os.path.realpath(o.compile_db.parent if o.compile_db.suffix == ".json" else o.compile_db))
        block_source = "--block-dim" if o.block_dim else f"`block-dim` in {cfg.path}"
        return RunOptions(select=select, ignore=ignore,
                          settings=Settings(block_dim=o.block_dim or cfg.block_dim, block_dim_source=block_source),
                          extra_args=extra, compile_db=o.compile_db, severity=dict(cfg.severity),
                          warn_unused_ignores=o.warn_unused_ignores,
                          frontend=o.frontend if o.frontend != "auto" else cfg.frontend,
                          read_roots=(root, *trusted), cuda_path=o.cuda_path,
                          toolkit_fallback=o.toolkit_fallback and not o.cuda_path)


# -- discovery


class _GitIgnore:
    """``.gitignore`` files from ``stop`` (the repository root, else the folder walked) down to a folder."""

    def __init__(self, top: str):
        top = os.path.abspath(top)
        self.stop = next((str(c) for c in (Path(top), *Path(top).parents) if (c / ".git").exists()), top)
        self._spec = functools.cache(self._read)   # each folder's patterns read once
        self._folder_ignored = functools.cache(self._folder_ignored_once)

    def _read(self, folder: str) -> list[tuple[bool, re.Pattern]]:
        lines: list[str] = []
        for src in ([".git/info/exclude"] if folder == self.stop else []) + [".gitignore"]:  # low to high
            with contextlib.suppress(OSError):
                lines += Path(folder, src).read_text(encoding="utf-8", errors="replace").splitlines()
        # Each pattern as (ignores, a regex matching only the path itself).  pathspec's regexes also match a
        # path inside a matched folder (their group ``ps_d`` is the folder's slash), and GitIgnoreSpec ranks such
        # a match below a match of the path itself, so `!*/` after `*` did not re-include a folder; the walk
        # below has already kept every folder above the path, so only a match of the path itself decides
        # (gitignore(5): "the last matching pattern decides").
        # A pattern with more stars in one segment than MAX_STARS is passed over (a repository's .gitignore could
        # otherwise make discovery take hours); runs of stars are written once, as git reads them.
        tamed = [t for t, problem in map(tame_glob, lines) if problem is None]
        return [(bool(p.include), re.compile(p.regex.pattern.replace("(?P<ps_d>/)", "(?P<ps_d>/$)")))
                for p in pathspec.GitIgnoreSpec.from_lines(tamed).patterns
                if p.include is not None and p.regex is not None]

    def ignored(self, path: str, is_dir: bool) -> bool:
        """Whether git ignores ``path`` (a file, or a folder with ``is_dir``): a folder above it is ignored, or
        the last pattern that matches the path itself ignores it."""
        path = os.path.abspath(path)
        return self._folder_ignored(os.path.dirname(path)) or self._matched(path, is_dir)

    def _folder_ignored_once(self, folder: str) -> bool:
        if len(folder) <= len(self.stop) or not folder.startswith(self.stop):
            return False
        return self._folder_ignored(os.path.dirname(folder)) or self._matched(folder, True)

    def _matched(self, path: str, is_dir: bool) -> bool:
        parts = Path(os.path.relpath(os.path.dirname(path), self.stop)).parts
        decision = False
        for folder in itertools.accumulate(parts, os.path.join, initial=self.stop):
            rel = os.path.relpath(path, folder).replace(os.sep, "/") + ("/" if is_dir else "")
            for ignores, regex in self._spec(folder):  # a deeper .gitignore overrides a shallower one
                if regex.search(rel):
                    decision = ignores
        return decision


def discover(paths: Iterable[str], resolver: Optional[Resolver] = None) -> list[str]:
    """Expand directories into the files to lint (sorted per folder; each file once), each path without its
    ``.`` parts (``./src/k.cu`` is ``src/k.cu``, as ruff and the SARIF/GitHub reporters write it; ``..`` is kept,
    since ``link/..`` need not be the folder the link is in).

    Without a resolver the defaults apply (``.cu``/``.cuh``, no include/exclude); ``.gitignore`` and hidden
    folders are always honoured.  Raises :class:`UsageError` for a path that does not exist."""
    resolver = resolver or Resolver(use_files=False)
    out: dict[str, str] = {}  # absolute path -> the path as found
    for p in paths:
        if not os.path.exists(p):
            raise UsageError(f"path does not exist: {p}")
        if not os.path.isdir(p):
            out.setdefault(os.path.abspath(p), str(Path(p)))
            continue
        git = _GitIgnore(p)
        for root, dirs, files in os.walk(p):
            cfg = resolver.config_for_dir(root)
            dirs[:] = [d for d in sorted(dirs) if not d.startswith(".") and not git.ignored(os.path.join(root, d), True)
                       and not cfg.matches(cfg.exclude, os.path.join(root, d), True)]
            for f in sorted(files):
                full = os.path.join(root, f)
                if f.endswith(cfg.extensions) and (not cfg.include or cfg.matches(cfg.include, full)) \
                        and not cfg.matches(cfg.exclude, full) and not git.ignored(full, False):
                    out.setdefault(os.path.abspath(full), str(Path(full)))  # `k.cu`, not `./k.cu`
    return list(out.values())
