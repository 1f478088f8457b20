"""The tree-sitter front-end: the tree-sitter-cuda parse tree -> :mod:`cudalint.ir`, without clang.

Used by ``--frontend tree-sitter``, and by ``--frontend auto`` for a file clang cannot take.  It produces the
IR of :mod:`cudalint.frontend.libclang` for what a parser without a preprocessor or a type checker can see:

* **Types.**  A small table (:class:`TypeTable`) knows the builtin scalars (``size_t`` & co. resolved as clang
  prints them), CUDA's vector types (``shims/vector_types.h``), ``dim3``, the cooperative-groups types,
  pointers, references, constant-extent arrays, the file's typedefs, enums and records (laid out with C rules
  and ``__align__``/``alignas``; base classes are not) and template type parameters (kept symbolic:
  :attr:`~cudalint.ir.types.TypeKind.PARAM`).  Expression types are computed bottom-up from declarations,
  literal suffixes and the usual arithmetic conversions; types from other headers are unknown.
* **The preprocessor.**  Object-like macros (also ``-D``), enumerators, ``const`` integers and ``sizeof`` are
  folded to constants; a macro of the file whose body is an expression is expanded at its use by substituting
  the arguments' text (every node of the expansion has the span of the use); any other macro is an unknown
  name or call.  An ``#if`` that the macros defined before it decide (``__CUDA_ARCH__`` is 900) keeps its taken
  branch; an undecided one keeps every branch at file scope and its first inside a function.  Headers are not
  read: what lives in them is unknown (calls to it have no ``func``).
* **Names.**  Scopes are real (a shadowing local is another Variable), but overloads are told apart by argument
  count only, ``obj.f()`` is never resolved, implicit conversions are not seen, templates never instantiated.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import replace
from typing import Optional

import tree_sitter
import tree_sitter_cuda

from ..ir import nodes as ir
from ..ir import types as irt
from ..ir.consts import c_binary, explicit_instances, fold, join_tokens, launch_from_config
from ..ir.nodes import Span
from ..ir.types import Type, TypeKind
from . import NOT_CODE
from .pragmas import unroll_before

ASSUMPTION = "modelled by the tree-sitter front-end (no type information from clang)"
SYNTAX_ERROR = "syntax the tree-sitter grammar could not parse"
#: Python recursion allowed while lowering (long generated expressions nest deeply)
RECURSION_LIMIT = 12_000

N = tree_sitter.Node
LANGUAGE = tree_sitter.Language(tree_sitter_cuda.language())


def parse(src: bytes) -> tree_sitter.Tree:
    return tree_sitter.Parser(LANGUAGE).parse(src)


# --- types ---------------------------------------------------------------------------------------

_INTS, _FLOATS, _SCALARS = irt.INT_TYPES, irt.FLOAT_TYPES, irt.SCALARS  # (shared with the clang front-end)
_BOOL, _INT, _UINT, _LONG, _ULONG, _CHAR = (_SCALARS[n] for n in ("bool", "int", "unsigned int", "long",
                                                                   "unsigned long", "char"))
_ALIASES = irt.TYPE_ALIASES
#: CUDA runtime enums (driver_types.h) tree-sitter cannot read: name -> (value, enum type)
_CUDA_ENUMS = {**{f"{p}Memcpy{k}": (v, p + "MemcpyKind") for p in ("cuda", "hip")
                  for v, k in enumerate(("HostToHost", "HostToDevice", "DeviceToHost", "DeviceToDevice", "Default"))},
               "cudaSuccess": (0, "cudaError")}
#: CUDA vector types: prefix -> component type (2- and 4-vectors are aligned to their size, at most 16 bytes)
_VECTORS = {"char": "signed char", "uchar": "unsigned char", "short": "short", "ushort": "unsigned short",
            "int": "int", "uint": "unsigned int", "long": "long", "ulong": "unsigned long", "longlong": "long long",
            "ulonglong": "unsigned long long", "float": "float", "double": "double"}
#: cooperative-groups class types (empty classes in the shims); a whole-block group's ``sync()`` is a barrier
GROUP_TYPES = ("thread_block", "grid_group", "cluster_group", "thread_group", "coalesced_group",
               "thread_block_tile", "multi_grid_group")
#: cooperative-groups functions -> the group type they return
_GROUP_CALLS = {"this_thread_block": "thread_block", "this_grid": "grid_group", "this_cluster": "cluster_group",
                "coalesced_threads": "coalesced_group", "binary_partition": "coalesced_group",
                "labeled_partition": "coalesced_group", "tiled_partition": "thread_group"}
#: std class templates whose name the host analysis reads (``std::vector<float>``)
_STD_TEMPLATES = ("vector", "array", "unique_ptr", "shared_ptr", "basic_string", "string")

_QUALIFIERS = re.compile(r"\b(const|volatile|__restrict__|__restrict|restrict|struct|class|union|typename|enum|"
                         r"register|static|extern|inline|constexpr|__device__|__host__|__shared__|__constant__|"
                         r"__managed__|__forceinline__|__noinline__|mutable|thread_local)\b")
_INT_WORDS = ("unsigned", "signed", "short", "long", "int", "char")


def _split_stars(t: str) -> tuple[str, str]:
    base = t.rstrip("*&")  # `float*&` -> (`float`, `*&`)
    return base.strip(), t[len(base):]


def norm_type(text: str) -> str:
    """A type's spelling without qualifiers and namespaces, with C's implicit ``int`` made explicit."""
    t = re.sub(r"\b[A-Za-z_]\w*\s*::\s*", "", _QUALIFIERS.sub(" ", text))  # cg::thread_block, std::size_t
    t = re.sub(r"\s+", " ", t.replace("::", " ")).strip()
    base, tail = _split_stars(re.sub(r"\s*\*\s*", "*", t).replace(" &", "&"))
    words = base.split()
    if words and all(w in _INT_WORDS for w in words):
        longs = {0: "int", 1: "long"}.get(words.count("long"), "long long")
        core = "char" if "char" in words else "short" if "short" in words else longs
        sign = "unsigned " if "unsigned" in words else "signed " if core == "char" and "signed" in words else ""
        base = sign + core
    return base + tail


_RANK = {"bool": 0, "char": 1, "signed char": 1, "unsigned char": 1, "short": 2, "unsigned short": 2,
         "char16_t": 2, "int": 3, "unsigned int": 3, "wchar_t": 3, "char32_t": 3, "long": 4, "unsigned long": 4,
         "long long": 5, "unsigned long long": 5}
_INT_OF_RANK = {3: "int", 4: "long", 5: "long long"}


def arith_type(a: Optional[str], b: Optional[str]) -> Optional[str]:
    """The usual arithmetic conversions of two canonical operand type names, None when unknown."""
    if a is None or b is None:
        return None
    if a in _FLOATS or b in _FLOATS:  # the larger floating type (rank follows size)
        return a if _FLOATS.get(a, 0) >= _FLOATS.get(b, 0) else b
    if a not in _RANK or b not in _RANK:
        return None
    # integer promotion, then the higher rank wins, the unsigned type at equal ranks
    rank, unsigned = max((max(_RANK[x], 3), _RANK[x] >= 3 and not _INTS[x][1]) for x in (a, b))
    return ("unsigned " if unsigned else "") + _INT_OF_RANK[rank]


def _builtin_records() -> dict[str, Type]:
    out: dict[str, Type] = {}
    for prefix, comp in _VECTORS.items():
        ct = _SCALARS[comp]
        for names in ("x", "xy", "xyz", "xyzw"):
            align = ct.size if len(names) % 2 else min(len(names) * ct.size, 16)
            out[f"{prefix}{len(names)}"] = irt.record(f"{prefix}{len(names)}", [(c, ct) for c in names], align)
    out.update({name: irt.record(name, [(c, _UINT) for c in "xyz"]) for name in ("dim3", "uint3")})
    for name, comp in (("__half", None), ("__nv_bfloat16", None), ("__half2", "__half"),
                       ("__nv_bfloat162", "__nv_bfloat16")):
        members = [("__x", _SCALARS["unsigned short"])] if comp is None else [("x", out[comp]), ("y", out[comp])]
        out[name] = irt.record(name, members, align=2 * len(members))  # `struct __align__(2|4)`
    out.update({name: Type(TypeKind.RECORD, name) for name in ("CUstream_st", "CUevent_st")})
    out.update({t: Type(TypeKind.ENUM, t, 4, 4) for _, t in _CUDA_ENUMS.values()})
    return out


_BUILTIN_RECORDS = _builtin_records()


class TypeTable:
    """The types tree-sitter sees (see the module docstring): names -> :class:`~cudalint.ir.types.Type`."""

    def __init__(self) -> None:
        self.named: dict[str, Type] = dict(_BUILTIN_RECORDS)
        self.params: list[set[str]] = [set()]  # template type parameters in scope

    def get(self, text: Optional[str]) -> Type:
        """The type a spelling names (``const float*``, ``u64``, ``std::vector<float>``)."""
        if not text:
            return irt.UNKNOWN
        t, tail = _split_stars(norm_type(text))
        out = self.base(t, text)
        if re.search(r"\bvolatile\b", text.split("*")[0]):  # `volatile float *s`: the pointee
            out = replace(out, volatile=True)
        for c in tail:
            out = irt.pointer_to(out) if c == "*" else irt.reference_to(out)
        return out

    def base(self, t: str, written: str = "") -> Type:
        t = _ALIASES.get(t, t)
        if t.endswith("*"):  # an alias of a pointer type
            return irt.pointer_to(self.base(t[:-1]))
        if t in _SCALARS:
            return _SCALARS[t]
        if any(t in p for p in self.params):
            return Type(TypeKind.PARAM, t)
        if t in self.named:
            return self.named[t]
        head = t.split("<")[0].strip()
        if head in GROUP_TYPES:  # empty classes in cudalint's shims, as clang sees them
            return Type(TypeKind.RECORD, "cooperative_groups::" + t, 1, 1)
        if head == "span" and "<" in t and head not in self.named:  # libcu++'s span: the pointer it views
            arg = _template_args(written if "<" in written else t)[0]   # (frontend.libclang._SPAN)
            elem = self.get(arg)
            elem = replace(elem, const=True) if re.match(r"const\b", arg) or arg.endswith(" const") else elem
            return replace(irt.pointer_to(elem), name=f"cuda::std::span<{arg}>")
        if "<" in t and head in _STD_TEMPLATES and head not in self.named:
            return Type(TypeKind.RECORD, "std::" + re.sub(r"\s*([<>,])\s*", r"\1", t).replace(",", ", "))
        return Type(TypeKind.UNKNOWN, re.sub(r"\s+", " ", _QUALIFIERS.sub(" ", written)).strip().rstrip("*& ") or t)


def _template_args(text: str) -> list[str]:
    """The top-level template arguments of ``text`` (``span<const float, 4>``: ``["const float", "4"]``)."""
    inner, depth, out, cur = text[text.index("<") + 1:text.rindex(">")], 0, [], ""
    for ch in inner:
        depth += (ch in "<([") - (ch in ">)]")
        if ch == "," and depth == 0:
            out, cur = out + [cur.strip()], ""
        else:
            cur += ch
    return out + [cur.strip()]


def is_span(t: Type) -> bool:
    """A ``cuda::std::span`` read as the pointer it views (:meth:`TypeTable.base`)."""
    return t.kind == TypeKind.POINTER and t.name.startswith("cuda::std::span<")


def _deref(t: Type) -> Type:
    return t.pointee if t.kind == TypeKind.REFERENCE and t.pointee is not None else t


def _decay(t: Type) -> Type:
    t = _deref(t)  # references dropped, arrays as pointers
    return irt.pointer_to(t.pointee) if t.kind == TypeKind.ARRAY and t.pointee is not None else t


def _value_type(t: Type) -> Type:
    return _decay(t) if t.kind == TypeKind.REFERENCE else t


def _pointee(t: Type) -> Type:
    return t.pointee if t.kind in (TypeKind.POINTER, TypeKind.ARRAY) and t.pointee is not None else irt.UNKNOWN


def _copy(e: ir.Expr, t: Type) -> ir.Expr:
    # a class object initialised from an lvalue of its type is copy-constructed (`Buf c = b`, `return c`, a
    # by-value argument), as clang shows it
    if t.kind == TypeKind.RECORD and _decay(e.type).name == t.name and (
            isinstance(e, (ir.Ref, ir.Index, ir.Member)) or isinstance(e, ir.Unary) and e.op == "*"):
        return ir.Construct(e.span, [e], type=t, text=e.text)
    return e


def _arith_name(t: Type) -> Optional[str]:
    t = _decay(t)  # an enum promotes to int
    return "int" if t.kind == TypeKind.ENUM else t.name if t.is_integer or t.kind == TypeKind.FLOAT else None


def _arith(a: Type, b: Type = _INT) -> Type:
    """The type of an arithmetic operation on ``a`` and ``b``; ``_arith(t)``: ``t`` promoted."""
    return _SCALARS.get(arith_type(_arith_name(a), _arith_name(b)), irt.UNKNOWN)


def binary_type(op: str, a: Type, b: Type) -> Type:
    if op in ("<", ">", "<=", ">=", "==", "!=", "&&", "||"):
        return _BOOL
    if op in (",", "<<", ">>"):
        return b if op == "," else _arith(a)
    da, db = _decay(a), _decay(b)
    if da.kind == TypeKind.POINTER:
        return _LONG if op == "-" and db.kind == TypeKind.POINTER else da if op in ("+", "-") else irt.UNKNOWN
    return (db if op == "+" else irt.UNKNOWN) if db.kind == TypeKind.POINTER else _arith(a, b)


# --- literals and tokens --------------------------------------------------------------------------

def number_literal(text: str, sp: Span) -> ir.Expr:
    """A floating literal, or an integer literal of the first of its candidate types that holds it ([lex.icon])."""
    t = text.replace("'", "").lower()
    m = re.fullmatch(r"(0x[0-9a-f]+|0b[01]+|0[0-7]*|[1-9][0-9]*)([ulz]*)", t)
    if not m:
        return ir.FloatLit(sp, type=_SCALARS["float" if text.lower().endswith("f") and "x" not in t else "double"])
    digits, suffix = m.groups()
    value = int(digits, {"0x": 16, "0b": 2}.get(digits[:2], 8 if digits[0] == "0" else 10))
    names = []
    for core in ["int", "long", "long long"][min(suffix.count("l") + suffix.count("z"), 2):]:
        if "u" not in suffix:
            names.append(core)
        if "u" in suffix or (digits[0] == "0" and digits != "0"):  # a hex, binary or octal literal
            names.append("unsigned " + core)
    name = next((n for n in names if value < 1 << (_INTS[n][0] * 8 - _INTS[n][1])), names[-1])
    return ir.IntLit(sp, value, type=_SCALARS[name])


def char_value(text: str) -> Optional[int]:
    body = re.sub(r"^(u8|u|U|L)", "", text)[1:-1]
    if len(body) == 1:
        return ord(body)
    try:
        s = body.encode("latin-1", "backslashreplace").decode("unicode_escape")
    except (UnicodeDecodeError, UnicodeEncodeError):
        return None
    return ord(s) if len(s) == 1 else None


_STRING_NODES = ("string_literal", "char_literal", "raw_string_literal", "system_lib_string")
_ALIGN = re.compile(rb"__align__\s*\(\s*(\d+)\s*\)|alignas\s*\(\s*(\d+)\s*\)")
_RESTRICT = re.compile(r"\*[^*]*\b(?:__restrict__|__restrict|restrict)\b")  # `float *__restrict__ p`
_BUILTINS = ("threadIdx", "blockIdx", "blockDim", "gridDim")
_CASTS = ("static_cast", "reinterpret_cast", "const_cast", "dynamic_cast")
_SPACES = {"__shared__": ir.Space.SHARED, "__constant__": ir.Space.CONSTANT, "__managed__": ir.Space.MANAGED,
           "__device__": ir.Space.GLOBAL}
_RECORD_NODES = ("struct_specifier", "class_specifier", "union_specifier")
_SPECIFIERS = _RECORD_NODES + ("enum_specifier",)
_PREPROC_IFS = ("preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef")
_EXPRS = ("identifier", "qualified_identifier", "number_literal", "true", "false", "char_literal", "null",
          "nullptr", "string_literal", "concatenated_string", "initializer_list", "ERROR")
_SKIPPED_STMTS = ("comment", "static_assert_declaration", "using_declaration", "namespace_alias_definition",
                  "preproc_call", "preproc_def", "preproc_function_def", "preproc_include", "template_declaration",
                  "function_definition", ";", "empty_statement", "ERROR")


def _walk(n: Optional[N], tokens: bool = False):
    """``n`` and every node below it in source order; ``tokens``: its tokens only (the leaves, a string or
    character literal as one token, comments left out)."""
    stack = [n] if n is not None else []
    while stack:
        x = stack.pop()
        leaf = tokens and (x.type in _STRING_NODES or x.child_count == 0)
        if not tokens or leaf and x.type != "comment":
            yield x
        if not leaf:
            stack.extend(reversed(x.children))


def _strip(n: Optional[N]) -> Optional[N]:
    while n is not None and n.type == "parenthesized_expression" and n.named_child_count == 1:
        n = n.named_children[0]
    return n


def _op(n: N) -> str:
    o = n.child_by_field_name("operator")
    return o.type if o is not None else next((ch.type for ch in n.children if not ch.is_named), "")


def _named_kids(n: Optional[N]) -> list[N]:
    return [ch for ch in n.named_children if ch.type != "comment"] if n is not None else []


def _first(n: Optional[N]) -> Optional[N]:
    return next(iter(_named_kids(n)), None)


def _kind(words) -> ir.FunctionKind:
    return ir.FunctionKind.of(*(w in words for w in ("__global__", "__device__", "__host__")))


def _internal(c: N, words: set) -> bool:
    """Whether function definition ``c`` has internal linkage: ``static`` (not a class member's), or in an unnamed
    namespace."""
    p = c.parent
    while p is not None:
        if p.type == "namespace_definition" and p.child_by_field_name("name") is None:
            return True
        if p.type in ("field_declaration_list", "class_specifier", "struct_specifier"):
            return False
        p = p.parent
    return "static" in words


# --- the lowering --------------------------------------------------------------------------------

class Lowering:
    """Lower one file to an :class:`~cudalint.ir.nodes.TranslationUnit`.

    Pass 1 reads the file's declarations in source order (macros, types, enums, globals, function
    signatures); pass 2 lowers every function body, so that a call resolves to a function defined later.  A
    scope maps a name to its Variable, or to ``("field", Field)`` for a member of a member function's object."""

    def __init__(self, path: str, text: str, extra_args: Optional[list[str]] = None):
        self.path, self.lines, data = path, text.splitlines(), text.encode("utf-8", "surrogatepass")
        # `__align__(n)` / `alignas(n)` confuse the grammar: blanked out (offsets kept) and remembered
        self.aligns = [(m.start(), int(m.group(1) or m.group(2))) for m in _ALIGN.finditer(data)]
        self.src = _ALIGN.sub(lambda m: b" " * len(m.group(0)), data)
        self.types = TypeTable()
        # what clang's device-side parse for sm_90 predefines, then -D NAME=VALUE; where each is first defined
        self.macros: dict[str, str] = {"__CUDACC__": "1", "__CUDA_ARCH__": "900"}
        self.macro_pos: dict[str, int] = dict.fromkeys(self.macros, -1)
        self.fn_macros: dict[str, tuple[list[str], str]] = {}
        args = list(extra_args or [])
        defines = [nxt if a == "-D" else a[2:] for a, nxt in zip(args, args[1:] + [""]) if a.startswith("-D")]
        for name, _, val in (d.partition("=") for d in defines if d):
            self.macros[name.strip()], self.macro_pos[name.strip()] = val or "1", -1
        self.enums, self.enum_types = {}, {}  # enumerator -> its value, its enum type
        self.records: dict[int, Type] = {}  # record and enum specifiers already read, by position
        self.scopes: list[dict] = [{}]
        self.nontype: list[set[str]] = [set()]  # template value parameters in scope
        self.unknown: dict[str, ir.Variable] = {}
        self.funcs: dict[str, list[ir.Function]] = {}
        self.pending: list[tuple[N, ir.Function, set, set, Optional[Type]]] = []  # bodies for pass 2
        self.lambdas: dict[ir.Lambda, ir.Function] = {}  # each lambda's call operator
        self.host, self.returns = False, irt.UNKNOWN  # of the function being lowered
        self.override: Optional[Span] = None  # the span of every node (in a macro's expansion)
        self.expanding, self.snippets = set(), {}  # macros being expanded; parsed expansions (tree, expression)
        self.unit = ir.TranslationUnit(path=path, frontend="tree-sitter")

    # -- node helpers
    def text_of(self, n: Optional[N]) -> str:
        return self.src[n.start_byte:n.end_byte].decode("utf-8", "replace") if n is not None else ""

    def span(self, n: N, end: Optional[N] = None) -> Span:
        if self.override is not None:
            return self.override
        e = end if end is not None else n
        return Span(self.path, n.start_point[0] + 1, n.start_point[1] + 1, e.end_point[0] + 1, e.end_point[1] + 1)

    def tokens_text(self, n: N, spaced: bool = False) -> str:
        texts = (self.text_of(t) for t in _walk(n, tokens=True))
        return " ".join(texts) if spaced else join_tokens(texts)

    def quals(self, n: N) -> set[str]:
        return {self.text_of(ch).strip() for ch in n.children
                if ch.type in ("type_qualifier", "storage_class_specifier") or not ch.is_named}

    @contextlib.contextmanager
    def scope(self):  # no try/finally: _body drops the scopes after a RecursionError, any other ends lower()
        self.scopes.append({})
        yield
        self.scopes.pop()

    @contextlib.contextmanager
    def template_scope(self, params: list[ir.TemplateParam]):
        self.types.params.append({p.name for p in params if p.is_type})
        self.nontype.append({p.name for p in params if not p.is_type})
        yield
        self.types.params.pop()
        self.nontype.pop()

    # -- entry point
    def lower(self) -> ir.TranslationUnit:
        tree = parse(self.src)
        errors = [n.start_point[0] + 1 for n in _walk(tree.root_node) if n.type == "ERROR" or n.is_missing]
        for n in _walk(tree.root_node):  # the file's macros, wherever they are defined (later ones win)
            if n.type in ("preproc_def", "preproc_function_def"):
                self._macro(n)
        with ir.recursion_limit(RECURSION_LIMIT):
            self._collect(tree.root_node.named_children, [])
            for pending in self.pending:
                self._body(*pending)
        unit = self.unit
        unit.functions = sorted((f for fs in self.funcs.values() for f in fs if f.body is not None),
                                key=lambda f: (f.span.line, f.span.column))
        # errors inside a kernel make it CL000; a host-side misparse does not matter here
        kernels = [f.span for f in unit.functions if f.kind == ir.FunctionKind.KERNEL]
        unit.errors = [(ln, SYNTAX_ERROR) for ln in errors if any(s.line <= ln <= s.end_line for s in kernels)]
        # (no `first_error`: tree-sitter expands no macro, so a launch in a macro's arguments is not read though it
        # compiles; cudalint.analysis.launches.lost_launches would call it lost)
        unit.instances = self._instances()
        return unit

    def _instances(self) -> list[tuple[str, tuple]]:
        """The file's explicit instantiations of function templates (:attr:`ir.TranslationUnit.instances`); an
        argument that names no type the file declares leaves that one out."""
        return explicit_instances("\n".join(self.lines), lambda text: t if (t := self.types.get(text)).kind not in (
            TypeKind.UNKNOWN, TypeKind.PARAM) else None)

    # -- pass 1: declarations
    def _macro(self, n: N) -> None:
        name, val = self.text_of(n.child_by_field_name("name")), n.child_by_field_name("value")
        # comments and line continuations of the body dropped
        body = NOT_CODE.sub(lambda m: m.group(1) or " ", self.text_of(val).replace("\\\n", " ")).strip()
        self.macro_pos.setdefault(name, n.start_byte)
        if n.type == "preproc_def":
            self.macros[name] = body
            self.fn_macros.pop(name, None)
        else:
            self.macros.pop(name, None)
            ps = _named_kids(n.child_by_field_name("parameters"))
            self.fn_macros[name] = ([self.text_of(x) for x in ps if x.type == "identifier"], body)

    def _collect(self, nodes, tparams: list[ir.TemplateParam]) -> None:
        for c in nodes:
            body = c.child_by_field_name("body")
            if c.type in ("namespace_definition", "linkage_specification") and body is not None:
                self._collect([body], [])
            elif c.type == "declaration_list":
                self._collect(c.named_children, [])
            elif c.type in _PREPROC_IFS:
                self._collect(self._branch(c, every=True), tparams)
            elif c.type == "template_declaration":
                params = self._template_params(c)
                for inner in (x for x in c.named_children if x.type != "template_parameter_list"):
                    self._collect_one(inner, params)
            else:
                self._collect_one(c, tparams)

    def _template_params(self, t: N) -> list[ir.TemplateParam]:
        out = []
        for p in _named_kids(t.child_by_field_name("parameters")):
            if "type_parameter_declaration" in p.type:
                nm = p.child_by_field_name("name") or next(
                    (ch for ch in p.named_children if ch.type == "type_identifier"), None)
                if nm is not None:
                    out.append(ir.TemplateParam(self.text_of(nm), True))
            elif p.type in ("parameter_declaration", "optional_parameter_declaration",
                            "variadic_parameter_declaration"):
                if name := self.declarator(p.child_by_field_name("declarator"), irt.UNKNOWN)[0]:
                    out.append(ir.TemplateParam(name, False))
        return out

    def _collect_one(self, c: N, tparams: list[ir.TemplateParam]) -> None:
        with self.template_scope(tparams):
            if c.type == "function_definition":
                self.function(c, tparams)
            elif c.type == "declaration":
                if (ty := c.child_by_field_name("type")) is not None and ty.type in _RECORD_NODES:
                    self.record(ty, tparams)  # a class template's layout
                self.unit.globals += [v for v, _ in self.declaration(c, ir.Storage.FILE)
                                      if v.space != ir.Space.LOCAL or v.type.kind == TypeKind.POINTER]
            else:
                self.type_decl(c, tparams)

    def type_decl(self, c: N, tparams: list[ir.TemplateParam]) -> bool:
        if c.type in _SPECIFIERS:
            self.record(c, tparams)
        elif c.type == "alias_declaration":
            if (name := c.child_by_field_name("name")) is not None:
                self.types.named[self.text_of(name)] = self.type_descriptor(c.child_by_field_name("type"))
        elif c.type == "type_definition":
            ty, decls = c.child_by_field_name("type"), c.children_by_field_name("declarator")
            if ty is not None and ty.type in _RECORD_NODES and ty.child_by_field_name("name") is None:
                first = next((d for d in decls if d.type == "type_identifier"), None)
                self.record(ty, [], self.text_of(first))  # `typedef struct { ... } Name;`
            base = self.base_type(c)
            self.types.named.update((name, t) for name, t, *_ in (self.declarator(d, base) for d in decls) if name)
        else:
            return False
        return True

    def record(self, s: N, tparams: list[ir.TemplateParam], typedef_name: str = "") -> Type:
        """The type of a struct/class/union (laid out, its member functions collected) or enum specifier."""
        if (hit := self.records.get(s.start_byte) if self.override is None else None) is not None:
            return hit
        nm, body = s.child_by_field_name("name"), s.child_by_field_name("body")
        if s.type == "enum_specifier":
            t = Type(TypeKind.ENUM, self.text_of(nm) if nm is not None else "(anonymous)", 4, 4)
            if nm is not None:
                self.types.named[t.name] = t
            nxt = 0
            for en in (x for x in _named_kids(body) if x.type == "enumerator"):
                val = en.child_by_field_name("value")
                if (v := fold(self.expr(val)) if val is not None else nxt) is not None:
                    name = self.text_of(en.child_by_field_name("name"))
                    self.enums[name], self.enum_types[name], nxt = v, t, v + 1
            self.records[s.start_byte] = t
            return t
        name = self.text_of(nm) if nm is not None else typedef_name
        if nm is not None and nm.type == "template_type":
            name = self.text_of(nm.child_by_field_name("name"))
        if body is None:
            return self.types.get(name) if name else irt.UNKNOWN
        members, methods = [], []  # (name, type); (definition, its own template parameters)
        for f in body.named_children:
            if f.type == "field_declaration" and "static" not in self.quals(f):
                base = self.base_type(f)
                for d in f.children_by_field_name("declarator"):
                    fname, t = self.declarator(d, base)[:2]
                    if fname and not any(n.type == "function_declarator" for n in _walk(d)):
                        # a reference member is stored as a pointer
                        members.append((fname, replace(t, size=8, align=8) if t.kind == TypeKind.REFERENCE else t))
                bits = next((x for x in f.named_children if x.type == "bitfield_clause"), None)
                # `uint64_t done : 1;`: the width (None when it is no constant: laid out whole)
                if bits is not None and (d := f.child_by_field_name("declarator")) is not None and members \
                        and members[-1][0] == self.text_of(d):
                    members[-1] = (*members[-1], fold(self.expr(bits.named_children[0]))
                                   if bits.named_children else None)
            elif f.type == "function_definition":
                methods.append((f, []))
            elif f.type == "template_declaration":
                methods += [(m, self._template_params(f)) for m in f.named_children if m.type == "function_definition"]
            else:
                self.type_decl(f, [])
        end = nm.start_byte if nm is not None else body.start_byte
        align = next((a for pos, a in reversed(self.aligns) if s.start_byte <= pos < end), 0)
        rec = irt.record(name or "(anonymous)", members, align, union=s.type == "union_specifier")
        if name:
            self.types.named[name] = rec
        self.records[s.start_byte] = rec
        for m, tps in methods:  # the class's template parameters stay in scope
            with self.template_scope(tparams + tps):
                self.function(m, tps, rec)
        return rec

    def function(self, c: N, tparams: list[ir.TemplateParam], record: Optional[Type] = None) -> None:
        """Create the IR function of a definition (its body is lowered in pass 2)."""
        if c.child_by_field_name("body") is None:
            return
        fd, ret = c.child_by_field_name("declarator"), self.base_type(c)
        while fd is not None and fd.type not in ("function_declarator", "operator_cast"):
            if fd.type in ("pointer_declarator", "reference_declarator"):
                ret = irt.pointer_to(ret) if fd.type == "pointer_declarator" else irt.reference_to(ret)
            fd = fd.child_by_field_name("declarator") or _first(fd)
        if fd is None or fd.type == "operator_cast":  # a conversion operator is never called by name
            return
        name_node = fd.child_by_field_name("declarator")
        name, kind = self.text_of(name_node), name_node.type if name_node is not None else ""
        if kind == "qualified_identifier":  # `S::f` defined outside S
            scope, name = name.rsplit("::", 1)
            rec = self.types.named.get(scope.split("<")[0].split("::")[-1].strip())
            if rec is not None and rec.kind == TypeKind.RECORD:
                record = rec
        elif kind == "template_function":
            name = self.text_of(name_node.child_by_field_name("name"))
        lbs = [ch for ch in c.named_children if ch.type == "launch_bounds"]
        bounds = next((int(x) for x in re.findall(r"\b\d+\b", self.text_of(lbs[-1]))), None) if lbs else None
        span_node = c.parent if c.parent is not None and c.parent.type == "template_declaration" else c
        fn = ir.Function(name=name, kind=_kind(self.quals(c)), span=self.span(span_node), return_type=ret,
                         template_params=list(tparams), launch_bounds=bounds, internal=_internal(c, self.quals(c)))
        with self.scope():
            fn.params = self.params(fd.child_by_field_name("parameters"))
        self.funcs.setdefault(name, []).append(fn)
        self.pending.append((c, fn, set(self.types.params[-1]), set(self.nontype[-1]), record))

    def params(self, plist: Optional[N]) -> list[ir.Variable]:
        out = []
        for p in (p for p in _named_kids(plist)
                  if p.type in ("parameter_declaration", "optional_parameter_declaration")):
            name, t = self.declarator(p.child_by_field_name("declarator"), self.base_type(p))[:2]
            if t.kind == TypeKind.VOID and not name:
                continue
            if t.kind == TypeKind.ARRAY:  # a parameter declared as an array is a pointer
                t = irt.pointer_to(t.pointee or irt.UNKNOWN)
            out.append(ir.Variable(name or "", t, self.span(p), storage=ir.Storage.PARAM,
                                   restrict=t.kind == TypeKind.POINTER and bool(_RESTRICT.search(self.text_of(p)))))
            if name:
                self.scopes[-1][name] = out[-1]
        return out

    # -- pass 2: function bodies
    def _body(self, c: N, fn: ir.Function, tparams: set, nontype: set, record: Optional[Type]) -> None:
        saved, depth = (self.types.params, self.nontype), len(self.scopes)
        self.scopes += [{f.name: ("field", f) for f in (record.fields if record is not None else ())},
                        {p.name: p for p in fn.params if p.name}]
        self.host, self.returns = fn.kind.host, fn.return_type
        self.types.params, self.nontype = [tparams], [nontype]
        try:
            fn.body = self.block(c.child_by_field_name("body"))
        except RecursionError:
            fn.body = ir.Block(fn.span)
            fn.incomplete.append("expression nesting too deep to model")
        finally:
            del self.scopes[depth:]
            self.types.params, self.nontype = saved

    # -- types of declarations
    def base_type(self, decl: N) -> Type:
        """The type a declaration's specifiers name (``const unsigned``, ``Node``, ``std::vector<float>``)."""
        t = decl.child_by_field_name("type")
        quals = self.quals(decl)
        const, volatile = bool(quals & {"const", "constexpr"}), "volatile" in quals
        if t is None:
            return _INT
        nm = t.child_by_field_name("name")
        if t.type in _SPECIFIERS and (t.child_by_field_name("body") is not None or nm is None):
            out = self.record(t, [])  # defined here
        elif t.type == "placeholder_type_specifier":
            out = Type(TypeKind.UNKNOWN, "auto")
        else:
            out = self.types.get(self.text_of(nm if t.type in _SPECIFIERS else t))
        if volatile and not out.volatile:
            out = replace(out, volatile=True)
        return replace(out, const=True) if const and not out.const else out

    def type_descriptor(self, td: Optional[N]) -> Type:
        return self.declarator(td.child_by_field_name("declarator"), self.base_type(td))[1] if td else irt.UNKNOWN

    def declarator(self, d: Optional[N], base: Type):
        """(name, type, name node, initialiser node, array extent nodes) of a declarator over ``base``."""
        t, init, extents = base, None, []
        while d is not None:
            k = d.type
            if k == "init_declarator":
                init, d = d.child_by_field_name("value"), d.child_by_field_name("declarator")
            elif k in ("pointer_declarator", "abstract_pointer_declarator"):
                const = any(self.text_of(q) == "const" for q in d.named_children if q.type == "type_qualifier")
                t, d = irt.pointer_to(t, const=const), d.child_by_field_name("declarator")
            elif k in ("reference_declarator", "abstract_reference_declarator"):
                t, d = irt.reference_to(t), _first(d)
            elif k in ("array_declarator", "abstract_array_declarator"):
                size = d.child_by_field_name("size")
                t = irt.array_of(t, fold(self.expr(size)) if size is not None else None)
                extents.insert(0, (size, d))
                d = d.child_by_field_name("declarator")
            elif k == "function_declarator" and (inner := d.child_by_field_name("declarator")) is not None and \
                    inner.type == "parenthesized_declarator" and \
                    any(x.type == "pointer_declarator" for x in inner.named_children):
                # `typedef R (*Name)(A, B);`, `R (*f)(A, B)`: a pointer to a function type, named as clang spells it
                # (a type nothing is known of: a call through it is opaque in both front-ends)
                kinds = [self.declarator(q.child_by_field_name("declarator"), self.base_type(q))[1].name
                         for q in _named_kids(d.child_by_field_name("parameters")) if q.type == "parameter_declaration"]
                t, d = irt.Type(TypeKind.UNKNOWN, f"{t.name} ({', '.join(kinds)})"), inner
            elif k == "function_declarator":
                params, p = d.child_by_field_name("parameters"), d.parent
                while p is not None and p.type not in ("parameter_list", "field_declaration_list", "translation_unit",
                                                       "compound_statement"):
                    p = p.parent
                if init is not None or p is None or p.type != "compound_statement" or any(
                        p.type != "parameter_declaration" or p.child_by_field_name("declarator") is not None
                        or self.types.get(self.text_of(p)).kind != TypeKind.UNKNOWN for p in _named_kids(params)):
                    break  # a function's declaration
                # `std::vector<float> v(n);` / `dim3 block(BLOCK);` read as a function declaration
                init, d = params, d.child_by_field_name("declarator")
            elif k in ("parenthesized_declarator", "attributed_declarator", "abstract_parenthesized_declarator"):
                d = _first(d)
            elif k in ("identifier", "field_identifier", "type_identifier", "qualified_identifier"):
                return self.text_of(d).split("::")[-1], t, d, init, extents
            else:
                break
        return "", t, None, init, extents

    # -- declarations
    def declaration(self, c: N, storage: ir.Storage) -> list[tuple[ir.Variable, Optional[ir.Expr]]]:
        """The variables of a declaration (added to the innermost scope) with their initialisers."""
        quals, base = self.quals(c), self.base_type(c)
        space = next((s for q, s in _SPACES.items() if q in quals), ir.Space.LOCAL)
        if storage == ir.Storage.LOCAL and "static" in quals:
            storage = ir.Storage.STATIC
        out = []
        for i, d in enumerate(c.children_by_field_name("declarator")):
            name, t, name_node, init_node, extents = self.declarator(d, base)
            if not name:
                continue
            init = self.initializer(init_node, t) if init_node is not None else None
            if init is not None:
                if t.name == "auto" and t.kind == TypeKind.UNKNOWN:  # `auto` deduced: top-level const dropped
                    t = replace(_decay(init.type), const=bool(t.const))   # (`auto sf = times`, `times` constexpr)
                init = _copy(init, t)
            if is_span(t) and isinstance(init, ir.Construct) and init.args and \
                    _deref(init.args[0].type).kind in (TypeKind.POINTER, TypeKind.ARRAY):
                init = init.args[0]  # `span<float> s(p, n)`: the pointer it views
            if isinstance(init, ir.InitList) and init.type.kind == TypeKind.UNKNOWN:
                init.type = t
            if init is None and t.kind == TypeKind.RECORD and t.fields and "extern" not in quals:
                init = ir.Construct(self.span(d), [], type=t)  # default construction, as clang shows it
            # clang's extent of a declarator after the first starts at its name, except at file scope
            start = c if i == 0 or storage == ir.Storage.FILE else name_node
            v = ir.Variable(name, t, self.span(start, d), storage=storage, space=space, init=init,
                            const_value=fold(init) if t.const and t.is_integer else None,
                            extents=self._extents(extents) if t.kind == TypeKind.ARRAY else (),
                            align=next((a for pos, a in reversed(self.aligns)
                                        if c.start_byte <= pos < name_node.start_byte), None)
                            if name_node is not None else None)  # `__shared__ __align__(16) unsigned char s[N]`
            if t.kind == TypeKind.ARRAY and None in (dims := t.array_dims()[0]) and len(extents) == len(dims):
                v.extent_exprs = tuple(self.expr(size) if c is None and size is not None else None
                                       for (size, _), c in zip(extents, dims))  # `T s[BM * BK]` in a template
            self.scopes[-1][name] = v
            out.append((v, init))
        return out

    def _extents(self, extents: list) -> tuple:
        out = []
        for size, arr in extents:
            if size is not None:
                out.append((self.text_of(size), self.span(size)))
                continue
            close = next((ch for ch in arr.children if ch.type == "]"), None)  # `T s[]`: empty, at the `]`
            if close is None:
                return ()
            ln, col = close.start_point[0] + 1, close.start_point[1] + 1
            out.append(("", Span(self.path, ln, col, ln, col)))
        return () if self.override is not None or any(s.line != s.end_line for _, s in out) else tuple(out)

    def initializer(self, n: N, t: Type) -> ir.Expr:
        if n.type not in ("argument_list", "parameter_list"):
            return self.expr(n)
        # `T x(args)`; `(n)` of a vexing parse is a parameter declaration of a type_identifier
        vals = self.args([a.named_children[0] if a.type == "parameter_declaration" and a.named_child_count == 1
                          else a for a in _named_kids(n)])
        return vals[0] if len(vals) == 1 and t.kind != TypeKind.RECORD else self.construct(self.span(n), vals, t)

    @staticmethod
    def construct(sp: Span, vals: list[ir.Expr], t: Type) -> ir.Construct:
        if t.name == "dim3" and 0 < len(vals) < 3:  # dim3's default arguments, as clang lists them
            vals = vals + [ir.IntLit(sp, 1, type=_UINT) for _ in range(3 - len(vals))]
        return ir.Construct(sp, vals, type=t)

    def args(self, nodes: list[N]) -> list[ir.Expr]:
        out = [self.expr(a) for a in nodes]
        for e, a in zip(out, nodes) if self.host else ():
            e.text = self.tokens_text(a)
        return out

    # -- statements
    def block(self, c: Optional[N]) -> ir.Block:
        if c is None:
            return ir.Block(ir.NOWHERE)
        with self.scope():
            return ir.Block(self.span(c), self.stmts(c.named_children))

    def stmts(self, nodes) -> list[ir.Stmt]:
        out: list[ir.Stmt] = []
        for ch in nodes:
            if ch.type == "case_statement":
                value = ch.child_by_field_name("value")
                rest = [x for x in _named_kids(ch) if x != value]
                body = self.stmts(rest[:1])
                case = ir.Case(self.span(ch), self.expr(value) if value is not None else None, body[0] if body else None)
                last = out[-1] if out else None
                while isinstance(last, ir.Case) and isinstance(last.body, ir.Case):
                    last = last.body
                if isinstance(last, ir.Case) and last.body is None:
                    last.body = case  # `case 2: case 3: s;` labels one statement twice, as clang nests them
                else:
                    out.append(case)
                out += self.stmts(rest[1:])
            elif ch.type in _PREPROC_IFS:
                out += self.stmts(self._branch(ch))
            elif (s := self.stmt(ch)) is not None:
                out.append(s)
        return out

    def _branch(self, c: N, every: bool = False) -> list[N]:
        # the nodes of an `#if`/`#ifdef`/`#elif`/`#else` the preprocessor keeps: the taken branch, when the
        # macros defined before it decide; else the first branch (`every`: all of them)
        cond, name, alt = (c.child_by_field_name(f) for f in ("condition", "name", "alternative"))
        body = [x for x in c.named_children if x not in (cond, name, alt)]
        taken: Optional[int] = None
        if name is not None and self.macro_pos.get(self.text_of(name), c.start_byte) < c.start_byte:
            taken = not self.text_of(c.children[0]).startswith("#ifn")
        elif name is None and cond is not None:
            taken = self._pp_value(cond, c.start_byte)
        if taken is not None and not taken:
            return [alt] if alt is not None else []
        return body + ([alt] if every and taken is None and alt is not None else [])

    def _pp_value(self, n: N, pos: int) -> Optional[int]:
        # the value of an `#if` condition at byte `pos`, None when a macro not defined before decides it
        t, kids = n.type, _named_kids(n)
        if t == "preproc_defined":
            return 1 if kids and self.macro_pos.get(self.text_of(kids[0]), pos) < pos else None
        if t == "identifier":
            return self.macro_value(self.text_of(n)) if self.macro_pos.get(self.text_of(n), pos) < pos else None
        if t in ("number_literal", "char_literal"):
            return fold(self.expr(n))
        vals = [self._pp_value(k, pos) for k in kids]
        if None in vals:
            return None
        if t == "parenthesized_expression" and len(vals) == 1:
            return vals[0]
        if t == "unary_expression" and len(vals) == 1:
            return {"-": -vals[0], "+": vals[0], "~": ~vals[0], "!": int(not vals[0])}.get(_op(n))
        return c_binary(_op(n), *vals) if t == "binary_expression" and len(vals) == 2 else None

    def stmt(self, c: Optional[N]) -> Optional[ir.Stmt]:
        if c is None:
            return None
        k, sp, kids = c.type, self.span(c), _named_kids(c)
        if k == "compound_statement":
            return self.block(c)
        if k == "declaration":
            decls = [ir.Decl(v.span, v, init) for v, init in self.declaration(c, ir.Storage.LOCAL)]
            return decls[0] if len(decls) == 1 else ir.Block(sp, decls) if decls else None
        if k == "expression_statement":
            if not kids:
                return None
            if kids[0].type == "gnu_asm_expression":
                return ir.Asm(self.span(kids[0]), self.tokens_text(kids[0], spaced=True))
            return self._misparsed_decl(c, kids[0]) or ir.ExprStmt(self.span(kids[0]), self.expr(kids[0]))
        if k in ("if_statement", "for_statement", "while_statement", "do_statement", "for_range_loop",
                 "switch_statement"):
            with self.scope():
                return self.compound(c, sp)
        if k == "labeled_statement":
            kids = [x for x in kids if x != c.child_by_field_name("label")]
            return ir.Label(sp, self.text_of(c.child_by_field_name("label")), self.stmt(kids[-1]) if kids else None)
        if k == "return_statement":
            value = _copy(self.expr(kids[0]), self.returns) if kids else None
            return ir.Return(self.span(c, kids[-1] if kids else c.children[0]), value)
        if k in ("break_statement", "continue_statement"):
            return ir.Jump(self.span(c.children[0]), ir.JumpKind(k.split("_")[0]))
        if k == "goto_statement":
            label = c.child_by_field_name("label")
            return ir.Jump(self.span(c, label or c), ir.JumpKind.GOTO, self.text_of(label))
        if self.type_decl(c, []) or k in _SKIPPED_STMTS:
            return None
        if k == "throw_statement":  # leaves the function, as clang's CXX_THROW_EXPR
            return ir.ExprStmt(sp, ir.Opaque(sp, "throw", [self.expr(x) for x in kids]))
        if k in ("try_statement", "catch_clause", "seh_try_statement"):
            return ir.Block(sp, self.stmts(x for x in kids if x.type in ("compound_statement", "catch_clause")))
        return ir.ExprStmt(sp, self.expr(c)) if c.is_named else None

    def _misparsed_decl(self, stmt: N, e: N) -> Optional[ir.Decl]:
        """``cg::thread_block_tile<32> tile = ...;``, read by the grammar as ``(a < 32) > (tile = ...)``."""
        lt, rhs = e.child_by_field_name("left"), e.child_by_field_name("right")
        if e.type != "binary_expression" or _op(e) != ">" or lt is None or lt.type != "binary_expression" \
                or _op(lt) != "<" or rhs is None:
            return None
        tmpl, arg = lt.child_by_field_name("left"), lt.child_by_field_name("right")
        head = self.text_of(tmpl).split("::")[-1].strip()
        if tmpl.type not in ("identifier", "qualified_identifier") or head not in GROUP_TYPES + _STD_TEMPLATES:
            return None
        name_n, value = rhs, None
        if rhs.type == "assignment_expression" and _op(rhs) == "=":
            name_n, value = rhs.child_by_field_name("left"), rhs.child_by_field_name("right")
        if name_n is None or name_n.type != "identifier" or self.lookup(self.text_of(name_n)) is not None:
            return None
        t = self.types.get(f"{self.text_of(tmpl)}<{self.text_of(arg)}>")
        init = self.expr(value) if value is not None else None
        v = ir.Variable(self.text_of(name_n), t, self.span(stmt, rhs), init=init)
        self.scopes[-1][v.name] = v
        return ir.Decl(v.span, v, init)

    def condition(self, c: N) -> Optional[ir.Expr]:
        cc = c.child_by_field_name("condition")
        if cc is not None and cc.type == "condition_clause":
            cc = cc.child_by_field_name("value")
        return self.expr(cc) if cc is not None else None

    def compound(self, c: N, sp: Span) -> ir.Stmt:
        k, body_n = c.type, c.child_by_field_name("body")
        if k == "if_statement":
            cond, cons = self.condition(c), c.child_by_field_name("consequence")
            then = self.stmt(cons) or ir.Block(self.span(cons) if cons is not None else sp)
            kids = _named_kids(c.child_by_field_name("alternative"))
            return ir.If(sp, cond, then, (self.stmt(kids[0]) or ir.Block(self.span(kids[0]))) if kids else None,
                         constexpr=any(x.type == "constexpr" for x in c.children))
        if k == "switch_statement":
            return ir.Switch(sp, self.condition(c), ir.Block(self.span(body_n), self.stmts(body_n.named_children))
                             if body_n is not None else ir.Block(sp))
        if k == "for_range_loop":
            base = self.base_type(c)
            rng = self.expr(c.child_by_field_name("right"))
            name, t = self.declarator(c.child_by_field_name("declarator"), base)[:2]
            if "auto" in (t.name, t.pointee.name if t.pointee is not None else ""):
                elem = _decay(rng.type).pointee or irt.UNKNOWN
                t = irt.reference_to(elem) if t.kind == TypeKind.REFERENCE else elem
            self.scopes[-1][name] = var = ir.Variable(name, t, self.span(c.child_by_field_name("type") or c,
                                                                 c.child_by_field_name("declarator")))
            return ir.Loop(sp, ir.LoopKind.RANGE, self.stmt(body_n) or ir.Block(sp), var=var, range=rng)
        if k == "for_statement":
            init = [self.stmt(x) if x.type == "declaration" else ir.ExprStmt(self.span(x), self.expr(x))
                    for x in c.children_by_field_name("initializer")]
            conds = [self.expr(x) for x in c.children_by_field_name("condition")]
            step = [self.expr(x) for x in c.children_by_field_name("update")]
            return ir.Loop(sp, ir.LoopKind.FOR, self.stmt(body_n) or ir.Block(sp), [s for s in init if s is not None],
                           conds[-1] if conds else None, step, unroll=unroll_before(self.path, sp.line, self.lines))
        if k == "do_statement":
            return ir.Loop(sp, ir.LoopKind.DO, self.stmt(body_n) or ir.Block(sp), [],
                           self.expr(c.child_by_field_name("condition")))
        cond = self.condition(c)
        return ir.Loop(sp, ir.LoopKind.WHILE, self.stmt(body_n) or ir.Block(sp), [], cond)

    # -- expressions
    def expr(self, c: Optional[N]) -> ir.Expr:
        if c is None:
            return ir.Opaque(self.override or ir.NOWHERE, "value")
        k, sp = c.type, self.span(c)
        if (method := _EXPR_METHODS.get(k)) is not None:
            return method(self, c, sp)
        if k == "parenthesized_expression":
            kids = _named_kids(c)
            return self.expr(kids[-1]) if kids else ir.Opaque(sp, "value")
        if k in ("true", "false"):
            return ir.IntLit(sp, int(k == "true"), type=_BOOL)
        if k == "char_literal":
            v = char_value(self.text_of(c))
            return ir.IntLit(sp, v, type=_CHAR) if v is not None else ir.Opaque(sp, "value", type=_CHAR)
        if k in ("null", "nullptr"):
            return ir.IntLit(sp, 0, type=Type(TypeKind.POINTER, "nullptr_t", 8, 8))
        if k in ("string_literal", "concatenated_string", "raw_string_literal"):
            return ir.Opaque(sp, "value", type=irt.array_of(replace(_CHAR, const=True), None))
        if k == "cast_expression":
            t = self.type_descriptor(c.child_by_field_name("type"))
            return ir.Cast(sp, self.expr(c.child_by_field_name("value")), type=t)
        if k == "initializer_list":
            return ir.InitList(sp, [self.expr(x) for x in _named_kids(c)])
        if k == "new_expression":
            t, decl = self.base_type(c), c.child_by_field_name("declarator")
            args = [self.expr(x) for x in _named_kids(decl) + _named_kids(c.child_by_field_name("arguments"))]
            return ir.New(sp, decl is not None, c.child_by_field_name("placement") is not None, args,
                          type=irt.pointer_to(t))
        kids = [x for x in _named_kids(c) if x.type in _EXPRS or x.type.endswith("_expression")]
        return ir.Opaque(sp, "delete" if k == "delete_expression" else "value", [self.expr(x) for x in kids])

    def number(self, c: N, sp: Span) -> ir.Expr:
        text = self.text_of(c)
        if text[:1] in "+-":  # the grammar folds a sign into the literal: `-1e30f`
            digits = text[1:].lstrip()
            inner = number_literal(digits, sp if self.override else
                                   replace(sp, column=sp.column + len(text) - len(digits)))
            return ir.Unary(sp, text[0], inner, type=_arith(inner.type))
        return number_literal(text, sp)

    def binary(self, c: N, sp: Span) -> ir.Expr:
        spine = [c]  # `a + b + c ...`: the left spine walked without recursion
        while (left := spine[-1].child_by_field_name("left")) is not None and left.type == "binary_expression":
            spine.append(left)
        a = self.expr(spine[-1].child_by_field_name("left"))
        for n in reversed(spine):
            op, right = _op(n), n.child_by_field_name("right")
            b = self.expr(right)
            if op in ("/", "%"):
                b.text = self.divisor_text(right)
            a = ir.Binary(self.span(n), op, a, b, type=binary_type(op, a.type, b.type)) if op in ir.BINARY_OPS \
                else ir.Opaque(self.span(n), "value", [a, b])
        return a

    def comma(self, c: N, sp: Span) -> ir.Expr:
        parts, rest = [], c  # the grammar nests to the right; C's comma is left-associative
        while rest is not None and rest.type == "comma_expression":
            parts.append(rest.child_by_field_name("left"))
            rest = rest.child_by_field_name("right")
        out = self.expr(parts[0])
        for x in parts[1:] + [rest]:
            b = self.expr(x)
            out = ir.Binary(self.span(parts[0], x), ",", out, b, type=b.type)
        return out

    def assign(self, c: N, sp: Span) -> ir.Expr:
        op = _op(c)
        a, b = self.expr(c.child_by_field_name("left")), self.expr(c.child_by_field_name("right"))
        if op in ("/=", "%="):
            b.text = self.divisor_text(c.child_by_field_name("right"))
        return ir.Assign(sp, op, a, b, type=_value_type(a.type))

    def conditional(self, c: N, sp: Span) -> ir.Expr:
        cond = self.expr(c.child_by_field_name("condition"))
        a, b = self.expr(c.child_by_field_name("consequence")), self.expr(c.child_by_field_name("alternative"))
        t = a.type if a.type == b.type else _arith(a.type, b.type)
        if t.kind == TypeKind.UNKNOWN and _decay(a.type).kind == TypeKind.POINTER:
            t = _decay(a.type)
        return ir.Cond(sp, cond, a, b, type=t)

    def divisor_text(self, n: N) -> str:
        text = self.text_of(n)
        return " ".join(text.split()) if "\n" in text else text

    def lookup(self, name: str):
        return next((s[name] for s in reversed(self.scopes) if s.get(name) is not None), None)

    def name(self, c: N, sp: Span) -> ir.Expr:
        """An identifier: a variable, a template argument, a builtin, an enumerator, a macro, or a name this
        front-end cannot see (a file-scope variable of its own, as clang resolves one from a header)."""
        name = full = self.text_of(c)
        if c.type == "qualified_identifier":
            nm = c.child_by_field_name("name")
            while nm is not None and nm.type in ("qualified_identifier", "template_function"):
                nm = nm.child_by_field_name("name")
            name = self.text_of(nm) if nm is not None else full.split("::")[-1]
        v = self.lookup(name) if c.type != "qualified_identifier" or full.startswith("::") else None
        if isinstance(v, ir.Variable):
            return ir.Ref(sp, v, type=_value_type(v.type))
        if isinstance(v, tuple):  # a member of this object, written without `this->` (as clang lowers it)
            return ir.Member(sp, ir.Opaque(sp, "value"), name, type=v[1].type)
        if any(name in s for s in self.nontype):
            return ir.TemplateArg(sp, name, type=_INT)
        if name == "warpSize":
            return ir.Builtin(sp, "warpSize", type=_INT)
        if name in self.enums:
            return ir.IntLit(sp, self.enums[name], type=self.enum_types[name])
        if name in _CUDA_ENUMS:
            return ir.IntLit(sp, _CUDA_ENUMS[name][0], type=self.types.get(_CUDA_ENUMS[name][1]))
        if name in self.macros and c.type in ("identifier", "type_identifier") and \
                (e := self.expand(name, c, [])) is not None:
            return e
        v = self.unknown.setdefault(name, ir.Variable(name, irt.UNKNOWN, sp, storage=ir.Storage.FILE,
                                                      in_main_file=False))
        return ir.Ref(sp, v, type=v.type)

    def member(self, c: N, sp: Span) -> ir.Expr:
        name = self.member_name(c.child_by_field_name("field"))
        arrow, arg = _op(c) == "->", c.child_by_field_name("argument")
        base_n = _strip(arg)
        if not arrow and base_n is not None and base_n.type == "identifier" and self.text_of(base_n) in _BUILTINS \
                and name in ("x", "y", "z") and self.lookup(self.text_of(base_n)) is None:
            return ir.Builtin(sp, self.text_of(base_n), name, type=_UINT)
        base = self.expr(arg)
        bt = _pointee(_decay(base.type)) if arrow else _decay(base.type)
        f = bt.field(name)  # None unless bt is a record with that member
        return ir.Member(sp, base, name, arrow, f, type=f.type if f else irt.UNKNOWN)

    def member_name(self, f: Optional[N]) -> str:
        return self.text_of(f.child_by_field_name("name") if f is not None and f.type == "template_method" else f)

    def subscript(self, c: N, sp: Span) -> ir.Expr:
        base_n, idx_nodes = c.child_by_field_name("argument"), _named_kids(c.child_by_field_name("indices"))
        base = self.expr(base_n)
        idx = self.expr(idx_nodes[0]) if idx_nodes else ir.Opaque(sp, "value")
        if _decay(base.type).kind == TypeKind.RECORD and idx_nodes:  # an overloaded operator[] (std::vector)
            if self.host:
                base.text, idx.text = self.tokens_text(base_n), self.tokens_text(idx_nodes[0])
            return ir.Call(sp, "operator[]", [base, idx], written=2)
        base_t = _deref(base.type)
        if base_t.kind not in (TypeKind.ARRAY, TypeKind.POINTER) or base_t.pointee is None:
            base_t = _decay(idx.type)  # `i[p]`
        return ir.Index(sp, base, idx, type=_pointee(base_t))

    def unary(self, c: N, sp: Span) -> ir.Expr:
        op, e = _op(c), self.expr(c.child_by_field_name("argument"))
        if c.type == "update_expression":
            return ir.Unary(sp, ("pre" if c.children[0].type in ("++", "--") else "post") + op, e, type=e.type)
        if op in ("*", "&"):
            return ir.Unary(sp, op, e, type=_pointee(_decay(e.type)) if op == "*" else irt.pointer_to(_deref(e.type)))
        if op in ("!", "not"):
            return ir.Unary(sp, "!", e, type=_BOOL)
        if op in ("-", "+", "~", "compl"):
            return ir.Unary(sp, "~" if op == "compl" else op, e, type=_arith(e.type) if _arith_name(e.type) else e.type)
        return ir.Opaque(sp, "value", [e])

    def size_of(self, c: N, sp: Span) -> ir.Expr:
        td, val, t = c.child_by_field_name("type"), c.child_by_field_name("value"), None
        inner = _strip(val)
        if td is not None:
            t = self.type_descriptor(td)
        elif inner is not None and inner.type in ("identifier", "type_identifier") and \
                self.lookup(self.text_of(inner)) is None and (
                    self.types.get(self.text_of(inner)).size
                    or self.types.get(self.text_of(inner)).kind == TypeKind.PARAM):
            t = self.types.get(self.text_of(inner))  # `sizeof(float4)`, `sizeof(T)` parse as an expression
        elif val is not None:
            t = _deref(self.expr(val).type)
        size = None if t is None else t.size if c.type == "sizeof_expression" else t.align
        if size is None and t is not None and t.kind == TypeKind.PARAM and c.type == "sizeof_expression":
            return ir.SizeOf(sp, t, type=_ULONG)  # the instantiation's size, as the clang front-end's
        return ir.IntLit(sp, size, type=_ULONG) if size is not None else ir.Opaque(sp, "value", type=_ULONG)

    def lambda_(self, c: N, sp: Span) -> ir.Expr:
        with self.scope():
            d = c.child_by_field_name("declarator")
            plist = d.child_by_field_name("parameters") if d is not None else None
            params = self.params(plist)
            body = self.block(c.child_by_field_name("body"))
        lam = ir.Lambda(sp, params, body)
        # its call operator, a function of the file once the lambda is called (clang's span starts at the
        # parameter list's `)`); `[] __device__ (...)` is device code, any other lambda host code
        close = next((ch for ch in plist.children if ch.type == ")"), plist) if plist is not None else c
        self.lambdas[lam] = ir.Function("operator()", _kind(self.text_of(c).split("{")[0].split()),
                                        self.span(close, c), params, body)
        return lam

    # -- calls
    def call(self, c: N, sp: Span) -> ir.Expr:
        fn = c.child_by_field_name("function")
        fn_type = fn.type if fn is not None else ""
        arg_nodes = _named_kids(c.child_by_field_name("arguments"))
        if (cfg := next((ch for ch in c.children if ch.type == "kernel_call_syntax"), None)) is not None:
            return self.launch(fn, cfg, arg_nodes, sp)
        if fn_type == "template_function" and len(arg_nodes) == 1 and self.callee_name(fn) in _CASTS:
            targs = _named_kids(fn.child_by_field_name("arguments"))
            return ir.Cast(sp, self.expr(arg_nodes[0]), type=self.type_descriptor(targs[0]) if targs else irt.UNKNOWN)
        if (ctype := self._type_callee(fn)) is not None:  # `int(x)`, `dim3(16, 16)`, `std::vector<float>(n)`
            vals = self.args(arg_nodes)
            return ir.Cast(sp, vals[0], type=ctype) if len(vals) == 1 and ctype.kind != TypeKind.RECORD \
                else self.construct(sp, vals, ctype)
        name = self.callee_name(fn)
        target = self.lookup(name) if fn_type == "identifier" else None
        if fn_type == "identifier" and name in self.fn_macros and target is None and \
                (e := self.expand(name, c, arg_nodes)) is not None:
            return e
        if isinstance(target, ir.Variable) and target.init in self.lambdas:  # `square(x)`: operator()
            op = self.lambdas[target.init]
            if op not in self.funcs.setdefault("operator()", []):
                self.funcs["operator()"].append(op)
            vals = self.args([fn] + arg_nodes)
            return ir.Call(sp, "operator()", vals, op, None, len(vals), type=op.return_type)
        receiver = self.expr(fn.child_by_field_name("argument")) if fn_type == "field_expression" else None
        if receiver is not None and is_span(_deref(receiver.type)):  # a span's own pointer, where it has one
            if name in ("data", "begin", "first") and len(arg_nodes) <= 1:
                return receiver
            if name == "subspan" and arg_nodes:
                return ir.Binary(sp, "+", receiver, self.expr(arg_nodes[0]), type=_deref(receiver.type))
        func = self.resolve(name, len(arg_nodes)) if fn_type != "field_expression" else None
        vals = self.args(arg_nodes)
        if name == "cudaLaunchKernelEx" and len(vals) >= 2 and (launch := self._launch_ex(arg_nodes[1], vals, sp)):
            return launch
        if func is not None:  # a class object passed by value is copied
            vals = [_copy(v, replace(p.type, const=False)) for v, p in zip(vals, func.params)] + vals[len(func.params):]
        targs = tuple(self.template_arg(a) for a in _named_kids(fn.child_by_field_name("arguments"))) \
            if fn_type == "template_function" else ()
        return ir.Call(sp, name, vals, func, receiver, len(vals), type=self.call_type(name, func, vals),
                       template_args=targs)

    def _type_callee(self, fn: Optional[N]) -> Optional[Type]:
        # the type a call's callee names when the call is a functional cast or a construction
        if fn is not None and fn.type in ("primitive_type", "sized_type_specifier", "template_type"):
            return self.types.get(self.text_of(fn))
        if fn is None or fn.type not in ("identifier", "type_identifier", "qualified_identifier"):
            return None
        name = self.text_of(fn).split("::")[-1].strip()
        if self.lookup(name) is not None or name in self.funcs or name in self.macros or name in self.fn_macros:
            return None
        t = self.types.get(self.text_of(fn))
        return t if t.kind != TypeKind.UNKNOWN else None

    def callee_name(self, fn: Optional[N]) -> str:
        if fn is None:
            return ""
        if fn.type == "field_expression":
            return self.member_name(fn.child_by_field_name("field"))
        if fn.type == "template_function":
            return self.callee_name(fn.child_by_field_name("name"))
        text = self.text_of(fn)
        return (text.split("<")[0].split("::")[-1] if fn.type == "qualified_identifier" else text).strip()

    def resolve(self, name: str, nargs: int) -> Optional[ir.Function]:
        """The function of the file a call goes to (overloads told apart by argument count)."""
        cands = self.funcs.get(name) or []
        exact = [f for f in cands if len(f.params) == nargs]
        return exact[0] if exact else cands[0] if len(cands) == 1 else None

    def call_type(self, name: str, func: Optional[ir.Function], vals: list[ir.Expr]) -> Type:
        if func is not None:
            return func.return_type
        if name in _GROUP_CALLS:
            return self.types.get(_GROUP_CALLS[name])
        if name in ("min", "max", "umin", "umax", "llmin", "llmax", "ullmin", "ullmax") and len(vals) == 2:
            return _arith(vals[0].type, vals[1].type)
        if name.startswith("make_") and name[5:] in _BUILTIN_RECORDS:
            return _BUILTIN_RECORDS[name[5:]]
        if name in ("__ldg", "__ldca", "__ldcg", "__ldcs", "__ldlu", "__ldcv") and vals:
            return _pointee(_decay(vals[0].type))
        return irt.UNKNOWN

    def _launch_ex(self, kernel: N, vals: list[ir.Expr], sp: Span) -> Optional[ir.Launch]:
        """``cudaLaunchKernelEx(&config, kernel, args...)`` as a launch
        (:func:`~cudalint.ir.consts.launch_from_config`); ``kernel``: the second argument's node (``k``, ``&k``,
        ``(void *)k``, ``k<T>``)."""
        while kernel.type in ("pointer_expression", "cast_expression", "parenthesized_expression") and \
                (inner := kernel.child_by_field_name("argument") or kernel.child_by_field_name("value")
                 or (_named_kids(kernel) or [None])[-1]) is not None:
            kernel = inner
        if kernel.type not in ("identifier", "qualified_identifier", "template_function"):
            return None
        targs = tuple(self.template_arg(a) for a in _named_kids(kernel.child_by_field_name("arguments"))) \
            if kernel.type == "template_function" else ()
        name = self.callee_name(kernel)
        func = self.resolve(name, len(vals) - 2)
        return launch_from_config(sp, vals, name, func if func is not None and func.kind == ir.FunctionKind.KERNEL
                                  else None, targs)

    def launch(self, fn: Optional[N], cfg: N, arg_nodes: list[N], sp: Span) -> ir.Launch:
        parts = []
        for a in _named_kids(cfg)[:4]:
            parts.append(self.expr(a))
            parts[-1].text = self.tokens_text(a, spaced=True)
        targs = [self.template_arg(a) for a in _named_kids(fn.child_by_field_name("arguments"))] \
            if fn is not None and fn.type == "template_function" else []
        name = self.callee_name(fn)
        func = self.resolve(name, len(arg_nodes))
        return ir.Launch(sp, name, *(parts + [None] * (4 - len(parts))), self.args(arg_nodes),
                         func if func is not None and func.kind == ir.FunctionKind.KERNEL else None, tuple(targs))

    def template_arg(self, a: N):
        """A launch's explicit template argument: an int, a Type, a dependent type's spelling, or an Expr."""
        text = self.text_of(a).strip()
        if a.type == "type_descriptor" and not (re.fullmatch(r"[A-Za-z_]\w*", text) and (
                self.lookup(text) is not None or text in self.macros or text in self.enums
                or any(text in s for s in self.nontype))):
            t = self.type_descriptor(a)
            return t.name if t.kind == TypeKind.PARAM else t
        # `k<BLOCK>`: a value read as a type
        e = self.name(a.child_by_field_name("type") or a, self.span(a)) if a.type == "type_descriptor" else self.expr(a)
        return v if (v := fold(e)) is not None else e

    # -- macros
    def macro_value(self, name: str) -> Optional[int]:
        """The integer value of an object-like macro (tests, tools)."""
        e = self.expand(name, None, [])
        return e.value if isinstance(e, ir.IntLit) else None

    def expand(self, name: str, use: Optional[N], args: list[N]) -> Optional[ir.Expr]:
        """The expression a macro of the file expands to at ``use`` (its body, arguments substituted as text,
        parsed on its own and lowered in the scope of the use, every node with the span of the use; a constant
        is one IntLit); None when it cannot be expanded (unknown, recursive, not an expression)."""
        if name in self.expanding or len(self.expanding) > 8:
            return None
        body = self.macros.get(name, "")
        if name in self.fn_macros and use is not None and use.type == "call_expression":
            params, body = self.fn_macros[name]
            if len(params) != len(args):
                return None
            texts = {p: "(" + self.text_of(a) + ")" for p, a in zip(params, args)}
            body = re.sub(r"\b[A-Za-z_]\w*\b", lambda m: texts.get(m.group(0), m.group(0)), body)
        if not body or "#" in body or ";" in body or "{" in body:
            return None
        snippet = f"int __cudalint_macro = ({body});".encode("utf-8")
        if snippet not in self.snippets:
            tree = parse(snippet)
            self.snippets[snippet] = None if tree.root_node.has_error else (tree, next(
                (n.child_by_field_name("value") for n in _walk(tree.root_node) if n.type == "init_declarator"), None))
        tree, init = self.snippets[snippet] or (None, None)
        if init is None:
            return None
        saved = (self.src, self.override)
        sp = self.override or (self.span(use) if use is not None else ir.NOWHERE)
        self.src, self.override = snippet, sp
        self.expanding.add(name)
        try:
            e = self.expr(init)
        finally:
            self.expanding.discard(name)
            self.src, self.override = saved
        return ir.IntLit(sp, v, type=e.type if e.type.is_integer else _INT) if (v := fold(e)) is not None else e


_EXPR_METHODS = {
    "number_literal": Lowering.number, "identifier": Lowering.name, "type_identifier": Lowering.name,
    "qualified_identifier": Lowering.name, "field_identifier": Lowering.name, "field_expression": Lowering.member,
    "subscript_expression": Lowering.subscript, "binary_expression": Lowering.binary,
    "comma_expression": Lowering.comma, "assignment_expression": Lowering.assign,
    "unary_expression": Lowering.unary, "pointer_expression": Lowering.unary, "update_expression": Lowering.unary,
    "conditional_expression": Lowering.conditional, "call_expression": Lowering.call,
    "sizeof_expression": Lowering.size_of, "alignof_expression": Lowering.size_of,
    "lambda_expression": Lowering.lambda_,
}


def lower(path: str, text: str, extra_args: Optional[list[str]] = None) -> ir.TranslationUnit:
    """Parse ``text`` (the contents of ``path``) with tree-sitter-cuda and lower it to the IR."""
    return Lowering(path, text, extra_args).lower()
