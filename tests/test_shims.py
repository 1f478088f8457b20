"""The CUDA shim headers (cudalint/frontend/shims) parse real-looking CUDA code.

Every snippet in tests/data/shims/*.cu is parsed with exactly the arguments the
front-end uses, once against the platform's C library and once with
-nostdlibinc (no platform headers: the prelude switches to shims/fallback/),
and must produce no diagnostic of severity error or fatal.  No GPU, no CUDA
toolkit and no system clang are needed: only the libclang-ng wheel.
"""
from __future__ import annotations

import fnmatch
import sys
from pathlib import Path

import clang.cindex as ci
import pytest

from cudalint.frontend.libclang import base_args

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[1]
SHIMS = REPO / "cudalint" / "frontend" / "shims"
DATA = Path(__file__).resolve().parent / "data" / "shims"
SNIPPETS = sorted(DATA.glob("*.cu"))

ARGS = base_args()  # the arguments cudalint parses every file with
OPTIONS = 0x1 | 0x200  # detailed preprocessing record | keep going
MODES = {"platform": [], "fallback": ["-nostdlibinc"]}


def parse(path: Path, extra=()) -> ci.TranslationUnit:
    return ci.Index.create().parse(str(path), args=ARGS + list(extra), options=OPTIONS)


def parse_source(tmp_path: Path, source: str, extra=()) -> ci.TranslationUnit:
    p = tmp_path / "snippet.cu"
    p.write_text(source)
    return parse(p, extra)


def errors(tu: ci.TranslationUnit) -> list[str]:
    return [f"{d.location.file}:{d.location.line}: {d.spelling}"
            for d in tu.diagnostics if d.severity >= 3]


def markers(path: Path) -> set[str]:
    return {line.split(":", 1)[1].strip() for line in path.read_text().splitlines()
            if line.startswith("// cudalint-test:")}


def walk(cursor):
    yield cursor
    for child in cursor.get_children():
        yield from walk(child)


def in_main_file(tu: ci.TranslationUnit):
    name = tu.spelling
    return [c for c in walk(tu.cursor) if c.location.file and c.location.file.name == name]


def test_snippets_exist():
    assert len(SNIPPETS) >= 6


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("snippet", SNIPPETS, ids=lambda p: p.stem)
def test_snippet_parses_without_errors(snippet: Path, mode: str):
    tags = markers(snippet)
    if "unresolved-include" in tags:
        pytest.skip("checked by test_unresolved_includes_keep_going")
    if mode == "fallback" and "platform-only" in tags:
        pytest.skip("uses headers that have no minimal fallback")
    tu = parse(snippet, MODES[mode])
    assert errors(tu) == []
    # sanity: the file's own declarations made it into the AST
    assert any(c.kind == ci.CursorKind.FUNCTION_DECL for c in in_main_file(tu))


@pytest.mark.parametrize("mode", sorted(MODES))
def test_unresolved_includes_keep_going(mode: str):
    tu = parse(DATA / "unresolved_include.cu", MODES[mode])
    errs = errors(tu)
    assert errs and all("file not found" in e for e in errs), errs
    names = {c.spelling for c in in_main_file(tu) if c.kind == ci.CursorKind.FUNCTION_DECL}
    assert {"kernel_after_missing_include", "main"} <= names
    calls = {c.spelling for c in in_main_file(tu) if c.kind == ci.CursorKind.CALL_EXPR}
    assert "kernel_after_missing_include" in calls


@pytest.mark.parametrize("mode", sorted(MODES))
def test_fallback_headers_used_only_without_platform_libc(mode: str):
    tu = parse(DATA / "std_headers.cu", MODES[mode])
    included = {str(inc.include.name) for inc in tu.get_includes()}
    fallback = [f for f in included if f.startswith(str(SHIMS / "fallback"))]
    if mode == "fallback":
        assert str(SHIMS / "fallback" / "vector") in included
    else:
        assert fallback == []


BUILTIN_SRC = """
__global__ void k(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + threadIdx.y + gridDim.z + warpSize;
}
int main() {
  dim3 g(4, 2), b(128);
  float *a = 0;
  k<<<g, b>>>(a, a, 10);
  k<<<g, b, 256, 0>>>(a, a, 10);
  return 0;
}
"""


@pytest.mark.parametrize("mode", sorted(MODES))
def test_builtin_variables_are_member_refs_of_decl_refs(tmp_path: Path, mode: str):
    tu = parse_source(tmp_path, BUILTIN_SRC, MODES[mode])
    assert errors(tu) == []
    pairs = set()
    for c in in_main_file(tu):
        if c.kind == ci.CursorKind.MEMBER_REF_EXPR:
            kids = [k for k in c.get_children()]
            base = kids[0] if kids else None
            while base is not None and base.kind == ci.CursorKind.UNEXPOSED_EXPR:
                inner = list(base.get_children())
                base = inner[0] if inner else None
            if base is not None and base.kind == ci.CursorKind.DECL_REF_EXPR:
                pairs.add((base.spelling, c.spelling))
    assert {("threadIdx", "x"), ("blockIdx", "x"), ("blockDim", "x"),
            ("threadIdx", "y"), ("gridDim", "z")} <= pairs
    # and specifically: MEMBER_REF_EXPR x whose direct child is DECL_REF_EXPR threadIdx
    direct = [c for c in in_main_file(tu) if c.kind == ci.CursorKind.MEMBER_REF_EXPR
              and c.spelling == "x"
              and any(k.kind == ci.CursorKind.DECL_REF_EXPR and k.spelling == "threadIdx"
                      for k in c.get_children())]
    assert direct


@pytest.mark.parametrize("mode", sorted(MODES))
def test_kernel_launch_is_call_expr(tmp_path: Path, mode: str):
    tu = parse_source(tmp_path, BUILTIN_SRC, MODES[mode])
    launches = [c for c in in_main_file(tu)
                if c.kind == ci.CursorKind.CALL_EXPR and c.spelling == "k"]
    assert len(launches) == 2
    for launch in launches:
        args = [a.spelling for a in launch.get_arguments()]
        assert len(args) == 3


def test_errors_are_still_reported(tmp_path: Path):
    """The shims must not hide real mistakes (or the checks above are vacuous)."""
    tu = parse_source(tmp_path, """
        static_assert(sizeof(float4) == 12, "wrong on purpose");
        __global__ void k(float *p) { p[threadIdx.w] = undeclared_function(); }
    """)
    errs = "\n".join(errors(tu))
    assert "static assertion failed" in errs
    assert "undeclared_function" in errs
    assert "threadIdx" in errs or "no member named 'w'" in errs


def test_shims_are_package_data():
    cfg = tomllib.loads((REPO / "pyproject.toml").read_text())
    patterns = cfg["tool"]["setuptools"]["package-data"]["cudalint.frontend"]
    base = SHIMS.parent
    files = [p.relative_to(base).as_posix() for p in SHIMS.rglob("*") if p.is_file()
             and "__pycache__" not in p.parts]
    assert files
    # setuptools globs: '*' does not cross '/'
    uncovered = [f for f in files
                 if not any(fnmatch.fnmatch(f, pat) and f.count("/") == pat.count("/")
                            for pat in patterns)]
    assert uncovered == []
