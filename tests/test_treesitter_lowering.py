"""The tree-sitter lowering (:mod:`cudalint.frontend.treesitter`) against the libclang one: no clang needed,
the same kernel IR on the fixtures, expression types, scopes, macros, launches and host-call texts."""

from __future__ import annotations

import difflib
import functools
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cudalint.frontend.treesitter import SYNTAX_ERROR, lower
from cudalint.ir import nodes as ir
from cudalint.ir.printer import dump
from cudalint.ir.types import TypeKind
from cudalint.runner import RunOptions, analyse_file

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = sorted((ROOT / "fixtures").rglob("*.cu")) + sorted((ROOT / "tests" / "corpus").glob("*.cu"))


@functools.lru_cache(maxsize=None)
def _both(path: Path) -> tuple[ir.TranslationUnit, ir.TranslationUnit]:
    """The libclang and the tree-sitter lowering of a fixture."""
    from cudalint.frontend import libclang
    rel, text = str(path.relative_to(ROOT)), path.read_text()
    return libclang.lower(rel, text), lower(rel, text)


def _walk(unit: ir.TranslationUnit):
    for fn in unit.functions:
        yield from ir.walk(fn.body)


def _fn(unit: ir.TranslationUnit, name: str) -> ir.Function:
    return next(f for f in unit.functions if f.name == name)


def test_runs_without_clang() -> None:
    """The tree-sitter path never imports clang: a fixture's findings with ``clang`` made unimportable."""
    code = """
import sys
sys.modules["clang"] = None  # any `import clang...` now raises ImportError
from cudalint.runner import RunOptions, analyse_file
for fe in ("tree-sitter", "auto"):
    diags, model = analyse_file("fixtures/global/stride.cu", RunOptions(frontend=fe))
    assert model.frontend == "tree-sitter", fe
    assert sorted((d.code, d.line) for d in diags) == [("CL101", 25), ("CL101", 33), ("CL101", 42)], diags
diags, _ = analyse_file("fixtures/host/stack_array.cu", RunOptions(frontend="tree-sitter"))
assert [(d.code, d.line) for d in diags] == [("CL601", 53)], diags
assert not [m for m in sys.modules if m.startswith("clang.") or m.endswith("libclang")], sorted(sys.modules)
print("ok")
"""
    env = dict(os.environ)
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


# Device-side IR lines where the two lowerings differ, fixture -> {line: why}.  Everything else a kernel or
# device function lowers to must print identically (`cudalint dump-ir`).
KNOWN_IR_DIFFERENCES = {
    "global/unseen_loads.cu": dict.fromkeys(
        range(21, 27), "the fields of `vec4t<T>`, a class template's member read through a dependent type: clang "
        "names them (`q.x`), tree-sitter leaves the member unnamed; the stores' addresses and findings are the same"),
    "sync/traits_class.cu": dict.fromkeys(
        (37, 38, 39, 40, 42, 43, 47, 58, 59),
        "a traits class's member `K::COLS`: clang keeps it a template argument each instantiation binds "
        "(frontend/traits.py); tree-sitter reads the member's name (an enumerator, by name alone)"),
    "sync/uniform_barriers.cu": {120: "clang shows the conversion of tiled_partition's result to the tile"},
    "corpus/macros_lambdas.cu": {11: "a kernel defined by a macro is not seen", 12: "same",
                                 22: "a lambda's closure type (clang: `(lambda at ...)`, 1 byte) is unknown"},
    "shared/template_instances.cu": {
        **dict.fromkeys((7, 8, 9, 15, 16, 17), "SharedMemory's conversion operators: tree-sitter sees no implicit "
                                               "conversion, so it never lowers them (README)"),
        27: "clang: the dependent `SharedMemory<T>()` converted by the primary template's operator"},
    "sync/header_template.cu": {19: "the helper is defined in header_template.cuh: tree-sitter cannot see headers, "
                                    "so the call is unresolved (README)"},
    "corpus/softmax.cu": {27: "clang leaves a dependent call in a template unresolved; tree-sitter resolves it",
                          30: "same"},
    "global/cooperative_groups_index.cu": {
        13: "`auto` from a cooperative-groups call: tree-sitter has no type for it (the value is the same)",
        21: "tree-sitter does not know `group_index()` returns a dim3, so `.x` carries no field offset", 22: "same",
        28: "clang shows the conversion of tiled_partition's result to the tile"},
    "global/macro_loop.cu": dict.fromkeys((12, 13, 18), "a loop written by a function-like macro: tree-sitter "
                                                        "expands only object-like macros (README)"),
    "global/tensor_accessor.cu": {
        **dict.fromkeys((22, 24, 37, 38, 39, 56, 70, 71), "the accessor's members: tree-sitter does not resolve "
                                                          "`index_t` or the class's constructors (the interpreter "
                                                          "models accessors by their type, not by these bodies)"),
        **dict.fromkeys((85, 87, 88, 91, 93, 95, 96, 99, 101, 102, 103),
                        "clang spells the alias `PackedTensorAccessor32` as the template it names and an accessor's "
                        "`x[i]` as an operator call; tree-sitter keeps the alias and the subscript (the interpreter "
                        "models both alike)")},
    "sync/switch_bound_block.cu": {
        **dict.fromkeys((20, 21, 22, 23, 24, 25, 26, 28, 35, 36, 37, 38, 39),
                        "a loop written by a function-like macro: tree-sitter expands only object-like macros"),
        19: "clang names the dependent element type of `s[B]` `type-parameter-0-0`"},
}


def _device_dump(unit: ir.TranslationUnit) -> list[str]:
    names = {f.name for f in unit.functions if f.kind != ir.FunctionKind.HOST and f.in_main_file}
    return [ln for name in sorted(names) for ln in dump(unit, name).splitlines()[1:]]


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: str(p.relative_to(p.parents[1])))
def test_device_ir_matches_libclang(path: Path) -> None:
    a, b = map(_device_dump, _both(path))
    known = KNOWN_IR_DIFFERENCES.get(str(path.relative_to(path.parents[1])), {})
    diff = [d for d in difflib.unified_diff(a, b, lineterm="", n=0) if d[:1] in "+-" and d[:3] not in ("---", "+++")]
    unexplained = [d for d in diff if int(d[1:].split(":")[0]) not in known]
    assert not unexplained, "\n".join(unexplained)


def test_host_argument_texts_match_libclang() -> None:
    """``.text`` of host call arguments is joined exactly like libclang's ``token_text``."""
    def texts(unit):
        return {(n.name, n.span.line, n.span.column, i): a.text
                for fn in unit.functions if fn.kind.host for n in ir.walk(fn.body)
                if isinstance(n, ir.Call) for i, a in enumerate(n.args[:n.written])}
    compared = 0
    for path in FIXTURES:
        a, b = map(texts, _both(path))
        # where libclang's tokens are the written ones (not a macro's expansion, `stderr`, CHECK(...)), the
        # texts must be the same, spaces included
        common = {k for k in set(a) & set(b) if a[k] and a[k].replace(" ", "") == b[k].replace(" ", "")}
        compared += len(common)
        assert {k: a[k] for k in common} == {k: b[k] for k in common}, path
    assert compared > 300


def test_negated_guard_is_clean_for_both_front_ends(monkeypatch) -> None:
    path = ROOT / "fixtures" / "shared" / "negated_guard.cu"
    for fe in ("clang", "tree-sitter"):
        diags, model = analyse_file(str(path), RunOptions(frontend=fe))
        assert model.frontend == fe and diags == [], (fe, [d.to_text() for d in diags])
    (guard,) = [n for n in _walk(lower(str(path), path.read_text())) if isinstance(n, ir.If) and n.span.line == 25]
    assert isinstance(guard.cond, ir.Unary) and guard.cond.op == "!"


def test_scopes_make_a_shadowing_local_a_different_variable() -> None:
    unit = lower("t.cu", """
__global__ void k(float* a) {
    int i = threadIdx.x;
    {
        int i = 2 * threadIdx.x;
        a[i] = 1.0f;
    }
    a[i] = 2.0f;
}""")
    decls = [n.var for n in _walk(unit) if isinstance(n, ir.Decl)]
    outer, inner = decls
    refs = [n.index.var for n in _walk(unit) if isinstance(n, ir.Index)]
    assert outer is not inner and refs == [inner, outer]


def test_expression_types() -> None:
    unit = lower("t.cu", """
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
struct P { char c; double d; float v[3]; };
__global__ void k(const float* in, P* p, unsigned n) {
    __shared__ float s[32][33];
    int i = threadIdx.x;
    float4 v = reinterpret_cast<const float4*>(in)[i];
    s[i][0] = i / 4 + n % 8 + p[i].v[1];
    cg::thread_block b = cg::this_thread_block();
    b.sync();
    dim3 d(16);
}""")
    nodes = list(_walk(unit))
    divs = {n.op: n for n in nodes if isinstance(n, ir.Binary) and n.op in ("/", "%")}
    assert (divs["/"].type.kind, divs["/"].type.signed, divs["/"].rhs.text) == (TypeKind.INT, True, "4")
    assert (divs["%"].type.name, divs["%"].type.signed) == ("unsigned int", False)
    s_rows = [n for n in nodes if isinstance(n, ir.Index) and isinstance(n.base, ir.Ref) and n.base.var.name == "s"]
    assert s_rows[0].type.kind == TypeKind.ARRAY and s_rows[0].type.count == 33
    (field,) = [n for n in nodes if isinstance(n, ir.Member) and n.name == "v"]
    assert field.field.offset == 16 and field.type.kind == TypeKind.ARRAY
    (cast,) = [n for n in nodes if isinstance(n, ir.Cast)]
    assert cast.type.kind == TypeKind.POINTER and (cast.type.pointee.name, cast.type.pointee.size) == ("float4", 16)
    (sync,) = [n for n in nodes if isinstance(n, ir.Call) and n.name == "sync"]
    assert sync.func is None and sync.receiver.type.name == "cooperative_groups::thread_block"
    (dim,) = [n for n in nodes if isinstance(n, ir.Construct) and n.type.name == "dim3"]
    assert dim.type.name == "dim3" and [a.value for a in dim.args] == [16, 1, 1]


def test_constants_macros_and_calls() -> None:
    unit = lower("t.cu", """
#define TILE 32 // a comment
#define AT(p, i) ((p)[(i) * TILE])
enum { E0 = 5, E1 };
constexpr int K = TILE * 2;
__device__ float twice(float x) { return 2 * x; }
__global__ void k(const float* in, float* out) {
    const int j = K + E1 + sizeof(float4);
    out[threadIdx.x] = twice(AT(in, threadIdx.x)) + j;
}""", ["-DUNUSED=3"])
    k = _fn(unit, "k")
    decl = k.body.body[0]
    assert decl.var.const_value == 64 + 6 + 16
    (call,) = [n for n in ir.walk(k.body) if isinstance(n, ir.Call)]
    assert call.func is _fn(unit, "twice") and call.written == 1
    (macro,) = call.args
    assert isinstance(macro, ir.Index) and isinstance(macro.index, ir.Binary)
    use = (9, 30, 9, 49)  # every node of the expansion carries the span of the macro's use
    assert {(n.span.line, n.span.column, n.span.end_line, n.span.end_column) for n in ir.walk(macro)} == {use}
    assert [n.value for n in ir.walk(macro) if isinstance(n, ir.IntLit)] == [32]


def test_launches() -> None:
    unit = lower("t.cu", """
#define BLOCK 128
template <typename T, int N> __global__ void k(T* p) { p[threadIdx.x * N] = 0; }
int main() {
    float* p;
    cudaStream_t st;
    int n = 4;
    k<float, BLOCK><<<dim3(n, 2), BLOCK, 64, st>>>(p);
    k<double, 2 * n><<<1, 32>>>(nullptr);
}""")
    first, second = [n for n in _walk(unit) if isinstance(n, ir.Launch)]
    assert first.func is _fn(unit, "k") and first.kernel == "k"
    assert first.template_args[0].name == "float" and first.template_args[1] == 128
    assert (first.grid.type.name, first.block.value, first.shared_mem.value) == ("dim3", 128, 64)
    assert (first.grid.text, first.block.text, first.stream.text) == ("dim3 ( n , 2 )", "BLOCK", "st")
    assert first.args[0].text == "p"
    assert isinstance(second.template_args[1], ir.Binary) and second.stream is None


def test_syntax_errors_are_error_entries_only_inside_kernels() -> None:
    unit = lower("t.cu", """
void host() { int x = ; }
__global__ void k(float* a) {
    a[threadIdx.x] = 1 +* ;
}
""")
    assert unit.errors and all(msg == SYNTAX_ERROR and ln == 4 for ln, msg in unit.errors)
    assert _fn(unit, "k").body is not None


@pytest.mark.parametrize("text", ["", "}", "__global__ void k(", "#define F(x", "template <class T> struct S<",
                                  "__global__ void k() { k<<<; }", "int a[] = {1, 2", "x = y ? : z;",
                                  "__global__ void k() { if (!(threadIdx.x >= 16)) s[2 * threadIdx.x] = 1; }"])
def test_broken_input_never_raises(text: str) -> None:
    unit = lower("t.cu", text)
    assert unit.frontend == "tree-sitter"
