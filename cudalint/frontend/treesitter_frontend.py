"""The tree-sitter front-end: the tree-sitter-cuda grammar -> :mod:`cudalint.model`, without clang.

Used by ``--frontend tree-sitter``, and by ``--frontend auto`` for a file clang cannot model.  It builds the
same :class:`~cudalint.model.TranslationUnitModel` as :mod:`cudalint.frontend.clang_frontend`, and reuses its
front-end independent parts: the model dataclasses, :class:`~cudalint.analysis.symbols.Symbols`, the sympy
construction rules of :meth:`KernelInterpreter.arith` (``floor`` for ``/``, ``Mod`` for ``%``, shifts,
masks) and the branch merge.  The statement and expression walk, the loop/induction logic and the host-side
pointer provenance are re-implemented over tree-sitter nodes.

What tree-sitter cannot see, and how each gap is handled:

* **Types.**  There is no type checker.  A small type table (:class:`TypeTable`) knows the builtin scalar
  types, CUDA's vector types (sizes and alignments of ``shims/vector_types.h``), pointers, ``typedef`` and
  ``using`` of the file, structs/classes defined in the file (fields laid out with C rules, ``__align__``),
  fixed-size arrays with constant extents, and template type parameters (the first instantiation launched in
  the file, else 4 bytes, as the clang front-end does).  Expression types are inferred locally (declared
  types, literal suffixes, the usual arithmetic conversions); types from headers (other than CUDA's own)
  are unknown, so an integer division whose operand types are unknown is not reported.
* **The preprocessor.**  There is none.  Object-like ``#define`` macros with integer values (also ``-D``
  flags), enum constants and ``constexpr``/``const`` integer constants are evaluated; a macro of the file
  whose body is an expression (``#define AT(p, i) ((p)[(i) * 16])``) is expanded at its use by substituting
  the arguments' text, and what it accesses is reported at the use.  Any other macro is an opaque
  (block-uniform) value, or an opaque call whose arguments are still walked; code produced by macros that
  expand to declarations or statements (a kernel defined through a macro) is not seen.  ``#if`` branches are
  all read.  Headers are not read at all: device functions, structs and constants that live in included
  files are unknown (calls become opaque values).
* **Names.**  Variables are resolved by name, not by declaration: a local that shadows another local of
  the same name in an inner block is the same variable to this front-end.  Overloads are told apart by
  argument count only; templates are never instantiated (the kernel's written form is analysed, as clang's
  front-end does).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

import sympy
import tree_sitter
import tree_sitter_cuda

from ..analysis.symbols import BUILTINS, WARP_SIZE, Symbols
from ..model import (
    Access, AddressSpace, ArrayDecl, Barrier, Division, Exit, Kernel, LaunchSite, Span,
    TranslationUnitModel,
)
from .clang_frontend import _OPERATORS, MAX_INLINE_DEPTH, Env, KernelInterpreter, Pointer, _is_condition

ASSUMPTION = "modelled by the tree-sitter front-end (no type information from clang)"

_LANGUAGE = None


def language() -> tree_sitter.Language:
    global _LANGUAGE
    if _LANGUAGE is None:
        _LANGUAGE = tree_sitter.Language(tree_sitter_cuda.language())
    return _LANGUAGE


def parse(text: str) -> tree_sitter.Tree:
    return tree_sitter.Parser(language()).parse(text.encode("utf-8"))


# --- types ---------------------------------------------------------------------------------------

_SCALARS: dict[str, int] = {
    "char": 1, "signed char": 1, "unsigned char": 1, "bool": 1, "int8_t": 1, "uint8_t": 1,
    "short": 2, "unsigned short": 2, "int16_t": 2, "uint16_t": 2, "__half": 2, "half": 2, "__nv_bfloat16": 2,
    "int": 4, "unsigned int": 4, "float": 4, "int32_t": 4, "uint32_t": 4, "__half2": 4, "half2": 4,
    "__nv_bfloat162": 4, "wchar_t": 4, "char32_t": 4, "char16_t": 2,
    "long": 8, "unsigned long": 8, "long long": 8, "unsigned long long": 8, "double": 8, "size_t": 8,
    "ptrdiff_t": 8, "ssize_t": 8, "int64_t": 8, "uint64_t": 8, "intptr_t": 8, "uintptr_t": 8,
    "long double": 16,
}
_SIGNED_INTS = {"char", "signed char", "short", "int", "long", "long long", "int8_t", "int16_t", "int32_t",
                "int64_t", "ptrdiff_t", "ssize_t", "intptr_t", "wchar_t"}
_UNSIGNED_INTS = {"unsigned char", "unsigned short", "unsigned int", "unsigned long", "unsigned long long",
                  "uint8_t", "uint16_t", "uint32_t", "uint64_t", "size_t", "uintptr_t", "bool", "char16_t",
                  "char32_t"}
_FLOATS = {"float": 1, "double": 2, "long double": 3, "__half": 0, "half": 0, "__nv_bfloat16": 0}
_RANK = {"bool": 0, "char": 1, "signed char": 1, "unsigned char": 1, "int8_t": 1, "uint8_t": 1, "short": 2,
         "unsigned short": 2, "int16_t": 2, "uint16_t": 2, "char16_t": 2, "int": 3, "unsigned int": 3,
         "int32_t": 3, "uint32_t": 3, "wchar_t": 3, "char32_t": 3, "long": 4, "unsigned long": 4,
         "size_t": 4, "ptrdiff_t": 4, "ssize_t": 4, "int64_t": 4, "uint64_t": 4, "intptr_t": 4, "uintptr_t": 4,
         "long long": 5, "unsigned long long": 5}
_UNSIGNED_OF = {1: "unsigned char", 2: "unsigned short", 3: "unsigned int", 4: "unsigned long",
                5: "unsigned long long"}

#: CUDA vector types: prefix -> (component type, align of the 2-vector, align of the 4-vector)
_VECTORS = {
    "char": ("signed char", 2, 4), "uchar": ("unsigned char", 2, 4), "short": ("short", 4, 8),
    "ushort": ("unsigned short", 4, 8), "int": ("int", 8, 16), "uint": ("unsigned int", 8, 16),
    "long": ("long", 16, 16), "ulong": ("unsigned long", 16, 16), "longlong": ("long long", 16, 16),
    "ulonglong": ("unsigned long long", 16, 16), "float": ("float", 8, 16), "double": ("double", 16, 16),
}
#: opaque CUDA/cooperative-groups class types (size unknown) that matter for barrier recognition
GROUP_TYPES = {"thread_block", "grid_group", "cluster_group"}

_QUALIFIERS = re.compile(r"\b(const|volatile|__restrict__|__restrict|restrict|struct|class|union|typename|enum|"
                         r"register|static|extern|inline|constexpr|__device__|__host__|__shared__|__constant__|"
                         r"__managed__|__forceinline__|mutable)\b")


def norm_type(text: str) -> str:
    """A type's spelling without qualifiers and namespaces, with C's implicit ``int`` made explicit:
    ``const unsigned`` -> ``unsigned int``, ``std::size_t`` -> ``size_t``, ``float *`` -> ``float*``."""
    t = _QUALIFIERS.sub(" ", text)
    t = re.sub(r"\b[A-Za-z_]\w*\s*::\s*", "", t)  # namespaces (cg::thread_block, std::size_t)
    t = re.sub(r"\s+", " ", t).strip()
    t = re.sub(r"\s*\*\s*", "*", t).replace(" &", "&")
    stars = len(t) - len(t.rstrip("*&"))
    base, tail = t[:len(t) - stars].strip(), t[len(t) - stars:]
    words = base.split()
    if words and all(w in ("unsigned", "signed", "short", "long", "int", "char") for w in words):
        unsigned = "unsigned" in words
        if "char" in words:
            core = "char"
            base = ("unsigned char" if unsigned else "signed char" if "signed" in words else "char")
        else:
            longs = words.count("long")
            core = "short" if "short" in words else ("long long" if longs >= 2 else "long" if longs else "int")
            base = ("unsigned " + core) if unsigned else core
    return base + tail


@dataclass
class Field:
    name: str
    type: str
    dims: tuple[int, ...]
    offset: int
    size: int


@dataclass
class Record:
    name: str
    size: int
    align: int
    fields: list[Field] = field(default_factory=list)


class TypeTable:
    """Sizes, alignments and field layouts of the types tree-sitter sees (see the module docstring)."""

    def __init__(self) -> None:
        self.records: dict[str, Record] = {}
        self.typedefs: dict[str, str] = {}
        self.params: dict[str, int] = {}  # template type parameters -> assumed size
        for prefix, (comp, a2, a4) in _VECTORS.items():
            cs = _SCALARS[comp]
            for n, names, align in ((1, "x", cs), (2, "xy", a2), (3, "xyz", cs), (4, "xyzw", a4)):
                size = -(-cs * n // align) * align
                self.records[f"{prefix}{n}"] = Record(f"{prefix}{n}", size, align,
                                                      [Field(c, comp, (), i * cs, cs) for i, c in enumerate(names)])
        self.records["dim3"] = Record("dim3", 12, 4, [Field(c, "unsigned int", (), i * 4, 4)
                                                      for i, c in enumerate("xyz")])

    def resolve(self, t: Optional[str]) -> Optional[str]:
        if t is None:
            return None
        t = norm_type(t)
        seen = set()
        while True:
            stars = len(t) - len(t.rstrip("*"))
            base = t[:len(t) - stars]
            if base in self.typedefs and base not in seen:
                seen.add(base)
                t = norm_type(self.typedefs[base]) + "*" * stars
                continue
            return t

    def size(self, t: Optional[str]) -> Optional[int]:
        t = self.resolve(t)
        if not t:
            return None
        if t.endswith("*"):
            return 8
        if t in _SCALARS:
            return _SCALARS[t]
        if t in self.records:
            return self.records[t].size
        return self.params.get(t)

    def align(self, t: Optional[str]) -> Optional[int]:
        t = self.resolve(t)
        if not t:
            return None
        if t.endswith("*"):
            return 8
        if t in _SCALARS:
            return min(_SCALARS[t], 16)
        if t in self.records:
            return self.records[t].align
        return self.params.get(t)

    def record(self, t: Optional[str]) -> Optional[Record]:
        t = self.resolve(t)
        return self.records.get(t) if t else None

    def add_record(self, name: str, members: list[tuple[str, str, tuple[int, ...]]], align: int = 0) -> Record:
        """Lay out ``members`` (name, type, array extents) with C rules; ``align`` from ``__align__(n)``."""
        off, max_align, fields = 0, 1, []
        for fname, ftype, dims in members:
            es, ea = self.size(ftype), self.align(ftype)
            if not es or not ea:
                es, ea = 4, 4  # unknown member type: a guess, but layouts after it stay plausible
            n = 1
            for d in dims:
                n *= d
            off = -(-off // ea) * ea
            fields.append(Field(fname, self.resolve(ftype) or ftype, dims, off, es * n))
            off += es * n
            max_align = max(max_align, ea)
        a = max(max_align, align or 1)
        rec = Record(name, max(-(-off // a) * a, a if not fields else 0), a, fields)
        self.records[name] = rec
        return rec


def int_type(t: Optional[str]) -> bool:
    return t in _SIGNED_INTS or t in _UNSIGNED_INTS


def arith_type(a: Optional[str], b: Optional[str]) -> Optional[str]:
    """The usual arithmetic conversions (C++ [expr.arith.conv]) of two operand types, None when unknown."""
    if a is None or b is None:
        return None
    if a in _FLOATS or b in _FLOATS:
        fa, fb = _FLOATS.get(a, -1), _FLOATS.get(b, -1)
        return a if fa >= fb else b
    if not int_type(a) or not int_type(b):
        return None
    ra, rb = max(_RANK.get(a, 3), 3), max(_RANK.get(b, 3), 3)  # integer promotion
    ua, ub = (a in _UNSIGNED_INTS and _RANK.get(a, 3) >= 3), (b in _UNSIGNED_INTS and _RANK.get(b, 3) >= 3)
    if ua == ub:
        r = max(ra, rb)
        return _UNSIGNED_OF[r] if ua else {3: "int", 4: "long", 5: "long long"}[r]
    ru, rs = (ra, rb) if ua else (rb, ra)
    if ru >= rs:
        return _UNSIGNED_OF[ru]
    return {4: "long", 5: "long long"}.get(rs, "int")


# --- values ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TSPointer(Pointer):
    """A :class:`Pointer` that also knows its pointee type (tree-sitter has no types to ask later)."""

    ctype: str = ""


def retyped(p: Pointer, elem_size: int, ctype: str, dims=(), subscripts=None) -> TSPointer:
    return TSPointer(p.array, p.offset, elem_size, dims, p.subscripts if subscripts is None else subscripts,
                     ctype)


def ctype_of(p: Pointer) -> str:
    return p.ctype if isinstance(p, TSPointer) else p.array.elem_type


def key(name: str):
    """Variables are keyed by name (see the module docstring); the shape matches clang's ``decl_key``."""
    return ("", 0, 0, name)


_B = {op: v for op, v in _OPERATORS.items()}
try:  # the operators KernelInterpreter.arith does not fold still map to an enum value for opaque results
    import clang.cindex as _ci
    _B.update({"|": _ci.BinaryOperator.Or, "^": _ci.BinaryOperator.Xor,
               # conditions stay symbolic, as in the clang front-end (guards evaluated per lane)
               "<": _ci.BinaryOperator.LT, ">": _ci.BinaryOperator.GT, "<=": _ci.BinaryOperator.LE,
               ">=": _ci.BinaryOperator.GE, "==": _ci.BinaryOperator.EQ, "!=": _ci.BinaryOperator.NE,
               "&&": _ci.BinaryOperator.LAnd, "||": _ci.BinaryOperator.LOr})
except Exception:  # pragma: no cover
    pass

_COMPARE = {"<", ">", "<=", ">=", "==", "!=", "&&", "||"}


def _int_literal(text: str) -> Optional[int]:
    t = text.replace("'", "")
    m = re.fullmatch(r"(0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)([uUlLzZ]*)", t)
    if not m:
        return None
    digits = m.group(1)
    if digits.lower().startswith("0x"):
        return int(digits, 16)
    if digits.lower().startswith("0b"):
        return int(digits[2:], 2)
    if len(digits) > 1 and digits.startswith("0"):
        return int(digits, 8)
    return int(digits)


def _literal_type(text: str) -> str:
    t = text.replace("'", "").lower()
    if not t.startswith("0x") and ("." in t or "e" in t) or (t.endswith("f") and not t.startswith("0x")):
        return "float" if t.endswith("f") else "double"
    suf = re.sub(r"^[0-9a-fx]+", "", t) if t.startswith("0x") else re.sub(r"^[0-9]+", "", t)
    u = "u" in suf
    longs = suf.count("l")
    core = "long long" if longs >= 2 else "long" if longs else "int"
    return ("unsigned " + core) if u else core


def _c_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


# --- the kernel interpreter over tree-sitter nodes ---------------------------------------------

N = tree_sitter.Node


def strip(n: N) -> N:
    while n is not None and n.type == "parenthesized_expression" and n.named_child_count == 1:
        n = n.named_children[0]
    return n


class TSKernelInterpreter(KernelInterpreter):
    """:class:`KernelInterpreter`'s abstract interpretation, walking tree-sitter nodes.

    Inherited unchanged: :meth:`opaque`, :meth:`tick`, :meth:`merge` and :meth:`arith` (sympy rules)."""

    def __init__(self, fe: "TreeSitterFrontend", kernel: Kernel, types: TypeTable):
        super().__init__(fe, kernel, {})  # type: ignore[arg-type]
        self.fe: TreeSitterFrontend = fe  # type: ignore[assignment]
        self.types = types
        self.vtypes: dict[str, str] = {}
        self.local_consts: dict[str, int] = {}

    # ---- bookkeeping
    def push_guard(self, value, c: N) -> None:  # type: ignore[override]
        self.guards.append((value, c.start_point[0] + 1))

    def barrier(self, name: str, c: N) -> None:  # type: ignore[override]
        self.kernel.barriers.append(Barrier(name, self.fe.span(c), tuple(self.guards), tuple(self.loops),
                                            self.tick(), tuple(self.call_chain)))

    def exit(self, kind: str, c: N) -> None:  # type: ignore[override]
        loops = tuple(self.loops)
        if kind == "break" and self.breakable and self.breakable[-1] == "switch":
            return
        self.kernel.exits.append(Exit(kind, self.fe.span(c), tuple(self.guards), loops, self.tick()))

    def const(self, n: Optional[N]) -> Optional[int]:
        return self.fe.const(n, self.local_consts)

    # ---- statements
    def stmt(self, c: Optional[N], env: Env) -> None:  # type: ignore[override]
        if c is None:
            return
        k = c.type
        if k == "compound_statement":
            for ch in c.named_children:
                self.stmt(ch, env)
        elif k == "declaration":
            self.declaration(c, env)
        elif k == "if_statement":
            cc = c.child_by_field_name("condition")
            init = cc.child_by_field_name("initializer") if cc is not None else None
            if init is not None:
                for ch in init.named_children:
                    self.stmt(ch, env)
            val = cc.child_by_field_name("value") if cc is not None else None
            cond = self.cond_value(val, env)
            self.push_guard(cond, c)
            e_then = env.copy()
            self.stmt(c.child_by_field_name("consequence"), e_then)
            e_else = env.copy()
            alt = c.child_by_field_name("alternative")
            if alt is not None:
                for ch in alt.named_children:
                    self.stmt(ch, e_else)
            self.pop_guard()
            self.merge(env, [e_then, e_else], cond, c)
        elif k in ("for_statement", "while_statement", "do_statement", "for_range_loop"):
            self.loop(c, env)
        elif k == "switch_statement":
            cc = c.child_by_field_name("condition")
            cond = self.cond_value(cc.child_by_field_name("value") if cc is not None else None, env)
            self.push_guard(cond, c)
            self.breakable.append("switch")
            inner = env.copy()
            body = c.child_by_field_name("body")
            if body is not None:
                for ch in body.named_children:
                    self.stmt(ch, inner)
            self.breakable.pop()
            self.pop_guard()
            self.merge(env, [inner, env.copy()], cond, c)
        elif k == "case_statement":
            value = c.child_by_field_name("value")
            for ch in c.named_children:
                if ch != value and ch.type != "comment":
                    self.stmt(ch, env)
        elif k == "labeled_statement":
            kids = [ch for ch in c.named_children if ch.type not in ("statement_identifier", "comment")]
            if kids:
                self.stmt(kids[-1], env)
        elif k == "return_statement":
            kids = [ch for ch in c.named_children if ch.type != "comment"]
            self.returns.append(self.expr(kids[0], env) if kids else None)
            if self.depth == 0:
                self.exit("return", c)
        elif k in ("break_statement", "continue_statement", "goto_statement"):
            self.exit(k.split("_")[0], c)
        elif k == "expression_statement":
            for ch in c.named_children:
                if ch.type == "gnu_asm_expression":
                    text = self.fe.text_of(ch)
                    if "bar.sync" in text or "barrier.sync" in text or "bar.red" in text:
                        self.barrier("bar.sync", ch)
                elif ch.type != "comment":
                    self.expr(ch, env)
        elif k in ("comment", "type_definition", "alias_declaration", "struct_specifier", "class_specifier",
                   "static_assert_declaration", "using_declaration", "namespace_alias_definition") \
                or k.startswith("preproc"):
            if k.startswith("preproc"):
                for ch in c.named_children:
                    if ch.type.endswith("statement") or ch.type in ("declaration", "compound_statement"):
                        self.stmt(ch, env)
            return
        elif k == "ERROR":
            self.incomplete(c, "syntax the tree-sitter grammar could not parse")
        elif c.is_named:
            self.expr(c, env)

    def incomplete(self, c: N, reason: str) -> None:  # type: ignore[override]
        msg = f"line {c.start_point[0] + 1}: {reason}"
        if msg not in self.kernel.incomplete:
            self.kernel.incomplete.append(msg)

    def cond_value(self, val: Optional[N], env: Env):
        if val is None:
            return None
        if val.type == "declaration":
            self.declaration(val, env)
            d = val.child_by_field_name("declarator")
            name = self.fe.declarator(d)[0] if d is not None else None
            return env.vars.get(key(name)) if name else None
        return self.expr(val, env)

    def declaration(self, c: N, env: Env) -> None:
        quals = {self.fe.text_of(q) for q in c.named_children if q.type in ("type_qualifier", "storage_class_specifier")}
        base = self.fe.type_text(c)
        for d in c.children_by_field_name("declarator"):
            name, ptr, ref, dims, value, name_node = self.fe.declarator(d)
            if not name:
                continue
            if dims:
                space = AddressSpace.SHARED if "__shared__" in quals else (
                    AddressSpace.CONSTANT if "__constant__" in quals else AddressSpace.LOCAL)
                arr = self.fe.array_decl(name, base + "*" * ptr, dims, space, c, d, self.types, "extern" in quals)
                self.vtypes[name] = (base + "*" * ptr) + "*" * len(dims)
                if arr is not None:
                    env.vars[key(name)] = TSPointer(arr, sympy.Integer(0), arr.elem_size, arr.dims[1:], (),
                                                    arr.elem_type)
                continue
            t = base + "*" * ptr
            if t in ("auto", "auto*") and value is not None:
                t = self.type_of(value) or t
            self.vtypes[name] = t
            val = None
            init = value
            if init is not None:
                if init.type in ("argument_list", "parameter_list"):
                    args = [a.named_children[0] if a.type == "parameter_declaration" and a.named_child_count == 1
                            else a for a in init.named_children if a.type != "comment"]
                    vals = [self.expr(a, env) for a in args]
                    val = vals[0] if len(args) == 1 and not self.types.record(t) else \
                        (self.opaque("value", *vals) if vals else self.symbols.opaque("value", varying=True))
                elif init.type == "initializer_list":
                    val = self.expr(init, env)
                else:
                    val = self.expr(init, env)
                if ptr and isinstance(val, Pointer):
                    pt = base + "*" * (ptr - 1)
                    psize = self.types.size(pt)
                    if psize and psize != val.elem_size:
                        val = retyped(val, psize, self.types.resolve(pt) or pt, (), ())
                    elif psize:
                        val = retyped(val, val.elem_size, self.types.resolve(pt) or pt, val.dims)
                if ("const" in quals or "constexpr" in quals or "const" in base.split()) and not ptr:
                    cv = self.const(init)
                    if cv is not None:
                        self.local_consts[name] = cv
            if val is None:
                val = self.symbols.opaque(name, varying=init is not None)
            if ref:
                val = self.symbols.opaque(name, varying=True)
            env.vars[key(name)] = val

    # ---- loops
    def _lhs_name(self, n: N) -> Optional[str]:
        n = strip(n)
        return self.fe.text_of(n) if n is not None and n.type == "identifier" else None

    def assigned_in(self, c: Optional[N]) -> set:  # type: ignore[override]
        out = set()
        for n in self.fe.walk(c):
            if n.type == "assignment_expression":
                name = self._lhs_name(n.child_by_field_name("left"))
                if name:
                    out.add(key(name))
            elif n.type == "update_expression":
                name = self._lhs_name(n.child_by_field_name("argument"))
                if name:
                    out.add(key(name))
        return out

    def refs(self, c: Optional[N]) -> set:  # type: ignore[override]
        return {key(self.fe.text_of(n)) for n in self.fe.walk(c) if n.type == "identifier"}

    @staticmethod
    def _op(n: N) -> str:
        o = n.child_by_field_name("operator")
        if o is not None:
            return o.type
        return next((ch.type for ch in n.children if not ch.is_named), "")

    def induction_step(self, roots, k, env: Env, modified: set):  # type: ignore[override]
        step = None
        for root in roots:
            for n in self.fe.walk(root):
                upd = None
                if n.type == "assignment_expression":
                    if key(self._lhs_name(n.child_by_field_name("left")) or "") != k:
                        continue
                    op = self._op(n)
                    if op == "=":
                        return None
                    if op not in ("+=", "-="):
                        return None
                    rhs = n.child_by_field_name("right")
                    if self.refs(rhs) & modified:
                        return None
                    v = self.expr(rhs, env.copy(), record=False)
                    if not isinstance(v, sympy.Basic):
                        return None
                    upd = v if op == "+=" else -v
                elif n.type == "update_expression":
                    if key(self._lhs_name(n.child_by_field_name("argument")) or "") == k:
                        upd = sympy.Integer(1 if self._op(n) == "++" else -1)
                if upd is not None:
                    if step is not None and step != upd:
                        return None
                    step = upd
        return step

    def pow2_updates(self, roots, k) -> bool:  # type: ignore[override]
        for root in roots:
            for n in self.fe.walk(root):
                if n.type != "assignment_expression" or key(self._lhs_name(n.child_by_field_name("left")) or "") != k:
                    continue
                op = self._op(n)
                rhs = n.child_by_field_name("right")
                if op != "=":
                    v = self.const(rhs)
                    if op in ("<<=", ">>=") and v is not None:
                        continue
                    if op in ("*=", "/=") and v is not None and v > 0 and v & (v - 1) == 0:
                        continue
                    return False
                r = strip(rhs)
                if r is not None and r.type == "binary_expression" and self._op(r) in ("*", "/", "<<", ">>"):
                    a = strip(r.child_by_field_name("left"))
                    bv = self.const(r.child_by_field_name("right"))
                    if a is not None and a.type == "identifier" and key(self.fe.text_of(a)) == k \
                            and bv is not None and bv > 0 and (self._op(r) in ("<<", ">>") or bv & (bv - 1) == 0):
                        continue
                return False
        return True

    def _assigned_varying(self, body, inc, k, env: Env, modified) -> bool:  # type: ignore[override]
        for root in [body] + list(inc):
            for n in self.fe.walk(root):
                if n.type != "assignment_expression":
                    continue
                if self._op(n) not in ("=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="):
                    continue
                if key(self._lhs_name(n.child_by_field_name("left")) or "") != k:
                    continue
                rhs = n.child_by_field_name("right")
                v = self.expr(rhs, env.copy(), record=False)
                if v is None or (isinstance(v, sympy.Basic) and self.symbols.is_varying(v)):
                    deps = self.refs(rhs) & modified
                    if v is not None and deps and all(not self.symbols.is_varying(env.vars[d])
                                                      for d in deps if d in env.vars and d != k):
                        continue
                    return True
        return False

    def _doubles(self, roots, k) -> bool:
        """Whether the power-of-two updates of ``k`` grow it (``*=``, ``<<=``, ``v = v * 2``)."""
        for root in roots:
            if root is None:
                continue
            for n in self.fe.walk(root):
                if n.type == "assignment_expression" and \
                        key(self._lhs_name(n.child_by_field_name("left")) or "") == k:
                    op = self._op(n)
                    if op in ("*=", "<<="):
                        return True
                    if op == "=":
                        r = strip(n.child_by_field_name("right"))
                        return r is not None and r.type == "binary_expression" and self._op(r) in ("*", "<<")
                    return False
        return True

    def loop(self, c: N, env: Env) -> None:  # type: ignore[override]
        init, cond, inc = [], [], []
        body = c.child_by_field_name("body")
        if c.type == "for_statement":
            init = [n for n in c.children_by_field_name("initializer")]
            cond = [n for n in c.children_by_field_name("condition")]
            inc = [n for n in c.children_by_field_name("update")]
        elif c.type in ("while_statement", "do_statement"):
            cc = c.child_by_field_name("condition")
            if cc is not None:
                cond = [cc.child_by_field_name("value") or cc] if cc.type == "condition_clause" else [cc]
        for s in init:
            self.stmt(s, env) if s.type == "declaration" else self.expr(s, env)
        modified = self.assigned_in(body) | set().union(*(self.assigned_in(x) for x in inc))
        trip = self.symbols.trip(c.start_point[0] + 1)
        loop_env = env.copy()
        pow2_vars: list = []
        for k in modified:
            if k not in env.vars:
                continue
            v0 = env.vars[k]
            if not isinstance(v0, sympy.Basic):
                loop_env.vars[k] = self.opaque(str(k[3]), v0)
                continue
            step = self.induction_step(inc + [body], k, env, modified)
            if step is not None:
                loop_env.vars[k] = v0 + step * trip
            elif self.symbols.is_pow2(v0) and self.pow2_updates(inc + [body], k):
                sym = self.symbols.opaque(str(k[3]), varying=self.symbols.is_varying(v0), pow2=True)
                loop_env.vars[k] = sym
                pow2_vars.append((sym, v0, 2 if self._doubles(inc + [body], k) else -2))
            else:
                loop_env.vars[k] = self.symbols.opaque(str(k[3]), varying=True)
        probe = loop_env.copy()
        for k in modified:
            if k in env.vars and isinstance(loop_env.vars.get(k), sympy.Symbol) \
                    and loop_env.vars[k] in self.symbols.varying and loop_env.vars[k] not in self.symbols.pow2:
                if not self.symbols.is_varying(env.vars[k]) and not self._assigned_varying(body, inc, k, probe, modified):
                    loop_env.vars[k] = self.symbols.opaque(str(k[3]), varying=False)
        if c.type == "for_range_loop":
            d = c.child_by_field_name("declarator")
            name = self.fe.declarator(d)[0] if d is not None else None
            self.expr(c.child_by_field_name("right"), loop_env) if c.child_by_field_name("right") else None
            if name:
                loop_env.vars[key(name)] = self.symbols.opaque(name, varying=True)
        cond_val = None
        for x in cond:
            cond_val = self.cond_value(x, loop_env) if x.type == "declaration" else self.expr(x, loop_env)
        for sym, v0, factor in pow2_vars:
            if isinstance(v0, sympy.Integer) and _is_condition(cond_val):
                self.symbols.pow2_loops[sym] = (int(v0), factor, cond_val)
        if cond_val is None and not cond and c.type != "for_range_loop":
            cond_val = sympy.Integer(1)
        self.push_guard(cond_val, c)
        self.loops.append(self.tick())
        self.breakable.append("loop")
        self.stmt(body, loop_env)
        for x in inc:
            self.expr(x, loop_env)
        self.breakable.pop()
        self.loops.pop()
        self.pop_guard()
        for k in modified:
            if k in env.vars:
                env.vars[k] = self.opaque(str(k[3]), loop_env.vars.get(k), env.vars[k])

    # ---- expression types
    def type_of(self, n: Optional[N]) -> Optional[str]:
        """The (normalized) static type of an expression, None when it cannot be told without clang."""
        n = strip(n)
        if n is None:
            return None
        t = n.type
        R = self.types.resolve
        if t == "number_literal":
            return _literal_type(self.fe.text_of(n))
        if t in ("true", "false"):
            return "bool"
        if t == "char_literal":
            return "char"
        if t in ("identifier", "qualified_identifier"):
            name = self.fe.text_of(n).split("::")[-1].strip()
            if name in self.vtypes:
                return R(self.vtypes[name])
            if name == "warpSize":
                return "int"
            if name in self.fe.template_values or name in self.fe.macro_text or name in self.fe.enums:
                return self.fe.macro_type(name) if name in self.fe.macro_text else "int"
            if name in self.fe.global_types:
                return R(self.fe.global_types[name])
            return None
        if t == "field_expression":
            arg = strip(n.child_by_field_name("argument"))
            fname = self.fe.text_of(n.child_by_field_name("field"))
            if arg is not None and arg.type == "identifier" and self.fe.text_of(arg) in BUILTINS:
                return "unsigned int"
            at = self.type_of(arg)
            if at is None:
                return None
            if self._op(n) == "->":
                at = at[:-1] if at.endswith("*") else at
            rec = self.types.record(at)
            f = next((f for f in rec.fields if f.name == fname), None) if rec else None
            if f is None:
                return None
            return f.type + "*" * len(f.dims)
        if t == "subscript_expression":
            at = self.type_of(n.child_by_field_name("argument"))
            return at[:-1] if at and at.endswith("*") else None
        if t == "pointer_expression":
            at = self.type_of(n.child_by_field_name("argument"))
            if self._op(n) == "&":
                return at + "*" if at else None
            return at[:-1] if at and at.endswith("*") else None
        if t == "cast_expression":
            return R(self.fe.type_descriptor(n.child_by_field_name("type")))
        if t == "call_expression":
            fn = n.child_by_field_name("function")
            if fn is not None and fn.type == "template_function":
                name = self.fe.text_of(fn.child_by_field_name("name"))
                if name.endswith("_cast"):
                    targs = fn.child_by_field_name("arguments")
                    td = targs.named_children[0] if targs is not None and targs.named_children else None
                    return R(self.fe.type_descriptor(td)) if td is not None else None
            if fn is not None and fn.type in ("primitive_type", "sized_type_specifier", "type_identifier"):
                return R(self.fe.text_of(fn))
            name = self.fe.callee_name(fn)
            if name in ("this_thread_block",):
                return "thread_block"
            if name in ("this_grid",):
                return "grid_group"
            if name in ("this_cluster",):
                return "cluster_group"
            if name in ("min", "max", "umin", "umax"):
                args = self.fe.args(n)
                if len(args) == 2:
                    return arith_type(self.type_of(args[0]), self.type_of(args[1]))
            fn_def = self.fe.device_function(name, len(self.fe.args(n)))
            if fn_def is not None:
                return R(self.fe.type_text(fn_def))
            return None
        if t == "binary_expression":
            op = self._op(n)
            if op in _COMPARE:
                return "bool"
            a, b = self.type_of(n.child_by_field_name("left")), self.type_of(n.child_by_field_name("right"))
            if op in ("<<", ">>"):
                return arith_type(a, "int") if a else None
            if a and a.endswith("*"):
                return a if op in ("+", "-") and (b is None or int_type(b)) else ("long" if op == "-" else None)
            if b and b.endswith("*"):
                return b
            return arith_type(a, b)
        if t == "unary_expression":
            op = self._op(n)
            if op == "!":
                return "bool"
            a = self.type_of(n.child_by_field_name("argument"))
            return arith_type(a, "int") if a and (int_type(a) or a in _FLOATS) else a
        if t in ("update_expression",):
            return self.type_of(n.child_by_field_name("argument"))
        if t == "assignment_expression":
            return self.type_of(n.child_by_field_name("left"))
        if t == "conditional_expression":
            a, b = self.type_of(n.child_by_field_name("consequence")), self.type_of(n.child_by_field_name("alternative"))
            return a if a == b else arith_type(a, b)
        if t in ("sizeof_expression", "alignof_expression"):
            return "unsigned long"
        if t == "comma_expression":
            return self.type_of(n.child_by_field_name("right"))
        return None

    # ---- expressions
    def expr(self, c: Optional[N], env: Env, mode: str = "read", record: bool = True):  # type: ignore[override]
        if c is None:
            return None
        k = c.type
        if k == "parenthesized_expression":
            kids = [ch for ch in c.named_children if ch.type != "comment"]
            if not kids:
                return None
            return self.expr(kids[-1], env, mode, record)
        if k == "cast_expression":
            v = self.expr(c.child_by_field_name("value"), env, mode, record)
            return self.cast(v, self.fe.type_descriptor(c.child_by_field_name("type")))
        if k == "number_literal":
            v = _int_literal(self.fe.text_of(c))
            return sympy.Integer(v) if v is not None else self.symbols.opaque("float", varying=False)
        if k in ("true", "false"):
            return sympy.Integer(1 if k == "true" else 0)
        if k == "char_literal":
            v = self.const(c)
            return sympy.Integer(v) if v is not None else None
        if k in ("null", "nullptr"):
            return sympy.Integer(0)
        if k in ("identifier", "qualified_identifier", "type_identifier"):
            name = self.fe.text_of(c)
            if k == "identifier" and name in self.fe.macro_text and key(name) not in env.vars \
                    and self.const(c) is None:
                done, v = self.fe.expand(name, c, [], self, env, record)  # `#define IDX (threadIdx.x * 2)`
                if done:
                    return v
            return self.decl_ref(c, env)
        if k == "field_expression":
            return self.member_ref(c, env, mode, record)
        if k == "subscript_expression":
            return self.subscript(c, env, mode, record)
        if k == "binary_expression":
            return self.binary(c, env, record)
        if k == "assignment_expression":
            if self._op(c) == "=":
                rhs = self.expr(c.child_by_field_name("right"), env, record=record)
                self.assign(c.child_by_field_name("left"), rhs, env, record, "write")
                return rhs
            return self.compound(c, env, record)
        if k == "comma_expression":
            self.expr(c.child_by_field_name("left"), env, record=record)
            return self.expr(c.child_by_field_name("right"), env, record=record)
        if k in ("unary_expression", "pointer_expression", "update_expression"):
            return self.unary(c, env, mode, record)
        if k == "conditional_expression":
            cond = self.expr(c.child_by_field_name("condition"), env, record=record)
            self.push_guard(cond, c)
            a = self.expr(c.child_by_field_name("consequence"), env, record=record)
            b = self.expr(c.child_by_field_name("alternative"), env, record=record)
            self.pop_guard()
            if isinstance(a, sympy.Basic) and a == b:
                return a
            return self.opaque("select", cond, a, b)
        if k == "call_expression":
            return self.call(c, env, record)
        if k in ("sizeof_expression", "alignof_expression"):
            v = self.const(c)
            return sympy.Integer(v) if v is not None else self.symbols.opaque("sizeof", varying=False)
        if k in ("initializer_list", "lambda_expression", "new_expression", "delete_expression", "this"):
            if k != "lambda_expression":
                for ch in c.named_children:
                    if ch.type != "comment":
                        self.expr(ch, env, record=record)
            return self.symbols.opaque("value", varying=True)
        if k == "ERROR":
            self.incomplete(c, "syntax the tree-sitter grammar could not parse")
        v = self.const(c)
        if v is not None:
            return sympy.Integer(v)
        vals = [self.expr(ch, env, record=record) for ch in c.named_children
                if ch.type not in ("comment", "type_descriptor", "argument_list", "template_argument_list")]
        return self.opaque("value", *vals) if vals else self.symbols.opaque("value", varying=True)

    def cast(self, v, target: Optional[str]):
        t = self.types.resolve(target) if target else None
        if isinstance(v, Pointer) and t and t.endswith("*") and not v.dims:
            pt = t[:-1]
            psize = self.types.size(pt)
            if psize:
                return retyped(v, psize if psize != v.elem_size else v.elem_size, pt, (), v.subscripts)
        return v

    def decl_ref(self, c: N, env: Env):  # type: ignore[override]
        name = self.fe.text_of(c).split("::")[-1].strip()
        if name == "warpSize":
            return WARP_SIZE
        if key(name) in env.vars:
            return env.vars[key(name)]
        if name in self.fe.template_values:
            return sympy.Integer(self.fe.template_values[name])
        if name in self.fe.template_nontype:
            return self.symbols.param(name)
        arr = self.fe.globals.get(name)
        if arr is not None:
            return TSPointer(arr, sympy.Integer(0), arr.elem_size, arr.dims[1:], (), arr.elem_type)
        v = self.const(c)
        if v is not None:
            return sympy.Integer(v)
        return self.symbols.opaque(name, varying=False)

    def member_ref(self, c: N, env: Env, mode: str, record: bool):  # type: ignore[override]
        member = self.fe.text_of(c.child_by_field_name("field"))
        arg = c.child_by_field_name("argument")
        base = strip(arg)
        if base is None:
            return self.symbols.opaque(member, varying=True)
        if base.type == "identifier" and self.fe.text_of(base) in BUILTINS and member in ("x", "y", "z") \
                and key(self.fe.text_of(base)) not in env.vars:
            return BUILTINS[self.fe.text_of(base)]["xyz".index(member)]
        if self._op(c) == "." and (base.type == "subscript_expression"
                                   or (base.type == "pointer_expression" and self._op(base) == "*")):
            ptr = self.subscript(base, env, "addr", record) if base.type == "subscript_expression" \
                else self.unary(base, env, "addr", record)
            if isinstance(ptr, Pointer):
                rec = self.types.record(ctype_of(ptr))
                f = next((f for f in rec.fields if f.name == member), None) if rec else None
                if f is not None and f.size:
                    esize = self.types.size(f.type) or f.size
                    if f.dims:
                        return TSPointer(ptr.array, ptr.offset + f.offset, esize, (), (), f.type)
                    fptr = TSPointer(ptr.array, ptr.offset + f.offset, f.size, (), ptr.subscripts, f.type)
                    if mode == "addr":
                        return fptr
                    return self.load(c, fptr, mode, record, field_offset=f.offset, elem_size=ptr.elem_size)
            return self.opaque(member, ptr)
        v = self.expr(arg, env, record=record)
        return self.opaque(member, v)

    def subscript(self, c: N, env: Env, mode: str, record: bool):  # type: ignore[override]
        idx_list = c.child_by_field_name("indices")
        idx_nodes = [ch for ch in idx_list.named_children if ch.type != "comment"] if idx_list is not None else []
        base = self.expr(c.child_by_field_name("argument"), env, record=record)
        idx = self.expr(idx_nodes[0], env, record=record) if idx_nodes else None
        if isinstance(idx, Pointer):
            base, idx = idx, base
        if not isinstance(base, Pointer):
            return self.opaque("load", base, idx)
        if not isinstance(idx, sympy.Basic):
            idx = self.symbols.opaque("index", varying=True)
        ct = ctype_of(base)
        if base.dims:
            inner = 1
            for d in base.dims:
                inner *= d if d else 1
            esize = base.elem_size
            return TSPointer(base.array, base.offset + idx * inner * esize, esize, base.dims[1:],
                             base.subscripts + (idx,), ct)
        ptr = TSPointer(base.array, base.offset + idx * base.elem_size, base.elem_size, (), base.subscripts + (idx,), ct)
        if mode == "addr":
            return ptr
        return self.load(c, ptr, mode, record)

    def load(self, c: N, ptr: Pointer, mode: str, record: bool, field_offset: int = 0,  # type: ignore[override]
             elem_size: int = 0):
        if record and ptr.array.space != AddressSpace.LOCAL:
            size = ptr.elem_size
            parts = [(0, size)]
            rec = self.types.record(ctype_of(ptr))
            if rec is not None and size and rec.align < size and rec.fields:
                parts = [(f.offset, f.size) for f in rec.fields if f.size] or [(0, size)]
            for off, sz in parts:
                self.kernel.accesses.append(Access(
                    array=ptr.array, offset=sympy.expand(ptr.offset + off), size=sz,
                    is_read=mode in ("read", "rw"), is_write=mode in ("write", "rw"),
                    span=self.fe.span(c), subscripts=ptr.subscripts,
                    field_offset=field_offset + off, elem_size=elem_size or ptr.elem_size, split=len(parts),
                    guards=tuple(g for g, _ in self.guards if isinstance(g, sympy.Basic)),
                ))
        if mode == "write":
            return None
        return self.opaque("load", ptr)

    def binary(self, c: N, env: Env, record: bool):  # type: ignore[override]
        op = self._op(c)
        lhs_c, rhs_c = c.child_by_field_name("left"), c.child_by_field_name("right")
        a = self.expr(lhs_c, env, record=record)
        b = self.expr(rhs_c, env, record=record)
        if op in ("/", "%") and record:
            self.division(op, c, rhs_c, b, a, self.type_of(c))
        return self.arith(_B.get(op), a, b, c)

    def division(self, op: str, c: N, divisor_c: N, b, a, t: Optional[str] = None) -> None:  # type: ignore[override]
        if not int_type(t):
            return
        signed = t in _SIGNED_INTS
        pow2 = isinstance(b, sympy.Basic) and self.symbols.is_pow2(b)
        varying = not isinstance(a, sympy.Basic) or self.symbols.is_varying(a)
        if isinstance(a, sympy.Basic) and a.is_Integer:
            return
        text = self.fe.text_of(divisor_c)
        if "\n" in text:
            text = " ".join(text.split())
        self.kernel.divisions.append(Division(op, self.fe.span(c), signed, b, pow2, text, varying))

    def arith(self, op, a, b, c):  # type: ignore[override]
        if isinstance(a, Pointer) or isinstance(b, Pointer):
            plus, minus = _B.get("+"), _B.get("-")
            if op in (plus, minus) and isinstance(a, Pointer) and isinstance(b, sympy.Basic):
                sign = 1 if op == plus else -1
                return TSPointer(a.array, a.offset + sign * b * a.elem_size, a.elem_size, (), (), ctype_of(a))
            if op == plus and isinstance(b, Pointer) and isinstance(a, sympy.Basic):
                return TSPointer(b.array, b.offset + a * b.elem_size, b.elem_size, (), (), ctype_of(b))
            return self.opaque("ptr", a, b)
        if op is None:
            return self.opaque("value", a, b)
        return super().arith(op, a, b, c)

    def assign(self, lhs_c: N, rhs, env: Env, record: bool, mode: str) -> None:  # type: ignore[override]
        lhs = strip(lhs_c)
        if lhs is not None and lhs.type == "identifier":
            env.vars[key(self.fe.text_of(lhs))] = rhs
            return
        self.expr(lhs, env, mode=mode, record=record)

    def compound(self, c: N, env: Env, record: bool):  # type: ignore[override]
        op = self._op(c)[:-1]
        lhs_c, rhs_c = c.child_by_field_name("left"), c.child_by_field_name("right")
        rhs = self.expr(rhs_c, env, record=record)
        lhs = strip(lhs_c)
        name = self.fe.text_of(lhs) if lhs is not None and lhs.type == "identifier" else None
        if op in ("/", "%") and record:
            cur = env.vars.get(key(name)) if name else None
            self.division(op, c, rhs_c, rhs, cur, self.type_of(lhs_c))
        if name:
            cur = env.vars.get(key(name), self.expr(lhs, env, record=record))
            env.vars[key(name)] = self.arith(_B.get(op), cur, rhs, c)
            return env.vars[key(name)]
        self.expr(lhs, env, mode="rw", record=record)
        return self.opaque("value", rhs)

    def unary(self, c: N, env: Env, mode: str, record: bool):  # type: ignore[override]
        arg = c.child_by_field_name("argument")
        if arg is None:
            return None
        op = self._op(c)
        if c.type == "update_expression":
            lhs = strip(arg)
            delta = 1 if op == "++" else -1
            prefix = c.children[0].type in ("++", "--")
            if lhs is not None and lhs.type == "identifier":
                name = self.fe.text_of(lhs)
                cur = env.vars.get(key(name), self.expr(lhs, env, record=record))
                new = self.arith(_B["+"], cur, sympy.Integer(delta), c)
                env.vars[key(name)] = new
                return new if prefix else cur
            self.expr(lhs, env, mode="rw", record=record)
            return self.symbols.opaque("value", varying=True)
        if op == "&":
            inner = strip(arg)
            if inner.type in ("subscript_expression", "field_expression"):
                return self.expr(inner, env, mode="addr", record=record)
            v = self.expr(inner, env, record=record)
            return v if isinstance(v, Pointer) else self.opaque("addr", v)
        if op == "*":
            p = self.expr(arg, env, record=record)
            if isinstance(p, Pointer):
                if mode == "addr":
                    return p
                return self.load(c, p, mode, record)
            return self.opaque("load", p)
        v = self.expr(arg, env, record=record)
        if op == "-" and isinstance(v, sympy.Basic):
            return -v
        if op == "+" and isinstance(v, sympy.Basic):
            return v
        return self.opaque("value", v)

    def call(self, c: N, env: Env, record: bool):  # type: ignore[override]
        fn = c.child_by_field_name("function")
        args = self.fe.args(c)
        if fn is not None and fn.type == "template_function":
            cname = self.fe.text_of(fn.child_by_field_name("name"))
            if cname in ("static_cast", "reinterpret_cast", "const_cast", "dynamic_cast"):
                v = self.expr(args[0], env, record=record) if args else None
                return self.cast(v, self.type_of(c))
        if fn is not None and fn.type in ("primitive_type", "sized_type_specifier") and len(args) == 1:
            return self.expr(args[0], env, record=record)  # int(x): a functional cast
        name = self.fe.callee_name(fn)
        if fn is not None and fn.type == "identifier" and name in self.fe.fn_macros:
            done, v = self.fe.expand(name, c, args, self, env, record)
            if done:
                return v
        if name in ("__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or"):
            for a in args:
                self.expr(a, env, record=record)
            if record:
                self.barrier(name, c)
            return self.symbols.opaque(name, varying=False)
        if name == "sync" and self._is_group_sync(fn, args):
            if record:
                self.barrier("cooperative_groups sync", c)
            return None
        if name in ("__ldg", "__ldca", "__ldcg", "__ldcs", "__ldlu", "__ldcv") and args:
            p = self.expr(args[0], env, record=record)
            if isinstance(p, Pointer):
                return self.load(c, p, "read", record)
            return self.opaque("load", p)
        if fn is not None and fn.type == "field_expression":
            self.expr(fn.child_by_field_name("argument"), env, record=record)
        vals = [self.expr(a, env, record=record) for a in args]
        if name in ("min", "max", "umin", "umax") and len(vals) == 2 and all(isinstance(v, sympy.Basic) for v in vals):
            return (sympy.Min if "min" in name else sympy.Max)(*vals)
        if name == "dim3":
            return self.opaque("dim3", *vals)
        fdef = self.fe.device_function(name, len(args))
        if fdef is not None and self.depth < MAX_INLINE_DEPTH and fn is not None and fn.type != "field_expression":
            self._call_line = c.start_point[0] + 1
            return self.inline_ts(fdef, vals, name)
        if name in ("atomicAdd", "atomicSub", "atomicExch", "atomicMin", "atomicMax", "atomicInc", "atomicDec",
                    "atomicCAS", "atomicAnd", "atomicOr", "atomicXor", "clock", "clock64", "__activemask"):
            return self.symbols.opaque(name, varying=True)
        return self.opaque(name or "call", *vals) if vals else self.symbols.opaque(name or "call", varying=False)

    def _is_group_sync(self, fn: Optional[N], args: list) -> bool:  # type: ignore[override]
        operands = list(args)
        if fn is not None and fn.type == "field_expression":
            operands.append(fn.child_by_field_name("argument"))
        for o in operands:
            t = self.type_of(o)
            if t and t.rstrip("*&") in GROUP_TYPES:
                return True
        return False

    def inline_ts(self, fdef: N, vals: list, name: str):
        callee_env = Env({})
        saved_types, saved_consts = self.vtypes, self.local_consts
        self.vtypes, self.local_consts = {}, {}
        for (pname, ptype), v in zip(self.fe.params(fdef), vals):
            self.vtypes[pname] = ptype
            if isinstance(v, Pointer) and ptype.endswith("*"):
                pt = ptype[:-1]
                psize = self.types.size(pt)
                if psize and psize != v.elem_size:
                    v = retyped(v, psize, self.types.resolve(pt) or pt, (), ())
                elif psize:
                    v = retyped(v, v.elem_size, self.types.resolve(pt) or pt, v.dims)
            callee_env.vars[key(pname)] = v if v is not None else self.symbols.opaque(pname, varying=True)
        saved = self.returns
        self.returns = []
        self.depth += 1
        self.call_chain.append((name, self._call_line))
        saved_break = self.breakable
        self.breakable = []
        try:
            self.stmt(fdef.child_by_field_name("body"), callee_env)
        finally:
            self.depth -= 1
            self.call_chain.pop()
            self.breakable = saved_break
            rets, self.returns = self.returns, saved
            self.vtypes, self.local_consts = saved_types, saved_consts
        if len(rets) == 1:
            return rets[0]
        if rets and all(isinstance(r, sympy.Basic) and r == rets[0] for r in rets):
            return rets[0]
        return self.opaque(name, *rets) if rets else None


# --- the front-end -----------------------------------------------------------------------------

_ALIGN = re.compile(rb"__align__\s*\(\s*(\d+)\s*\)|alignas\s*\(\s*(\d+)\s*\)")
_QUAL_NODES = ("type_qualifier", "storage_class_specifier")


class TreeSitterFrontend:
    """Parse one file with tree-sitter-cuda and build its :class:`TranslationUnitModel`."""

    def __init__(self, path: str, text: str, extra_args: Optional[list[str]] = None,
                 block_dim: Optional[tuple[int, int, int]] = None):
        self.path = path
        self.text = text
        self.extra_args = list(extra_args or [])
        self.symbols = Symbols()
        self.types = TypeTable()
        self.globals: dict[str, ArrayDecl] = {}
        self.global_types: dict[str, str] = {}
        self.consts: dict[str, int] = {}
        self.enums: dict[str, int] = {}
        self.macro_text: dict[str, str] = {}
        self._macro_cache: dict[str, Optional[int]] = {}
        self.functions: dict[str, list[N]] = {}  # device functions by name
        self.host_functions: list[N] = []
        self.template_values: dict[str, int] = {}
        self.template_nontype: set[str] = set()
        self._aligns: list[tuple[int, int]] = []
        self.fn_macros: dict[str, tuple[list[str], str]] = {}  # function-like macros: name -> (params, body)
        self._span_override: Optional[Span] = None
        self._expanding: set[str] = set()
        # -D NAME=VALUE from the command line / compile_commands.json
        for i, a in enumerate(self.extra_args):
            d = a[2:] if a.startswith("-D") and len(a) > 2 else (
                self.extra_args[i + 1] if a == "-D" and i + 1 < len(self.extra_args) else None)
            if d:
                nm, _, val = d.partition("=")
                self.macro_text[nm.strip()] = val or "1"

    # -- node helpers
    def text_of(self, n: Optional[N]) -> str:
        if n is None:
            return ""
        return self.src[n.start_byte:n.end_byte].decode("utf-8", "replace")

    def span(self, n: N) -> Span:
        if self._span_override is not None:
            return self._span_override
        return Span(self.path, n.start_point[0] + 1, n.start_point[1] + 1, n.end_point[0] + 1, n.end_point[1] + 1)

    @staticmethod
    def walk(n: Optional[N]):
        if n is None:
            return
        stack = [n]
        while stack:
            x = stack.pop()
            yield x
            stack.extend(reversed(x.children))

    @staticmethod
    def args(call: N) -> list[N]:
        al = call.child_by_field_name("arguments")
        return [a for a in al.named_children if a.type != "comment"] if al is not None else []

    def callee_name(self, fn: Optional[N]) -> str:
        if fn is None:
            return ""
        if fn.type == "field_expression":
            return self.text_of(fn.child_by_field_name("field"))
        if fn.type == "template_function":
            return self.callee_name(fn.child_by_field_name("name"))
        if fn.type == "qualified_identifier":
            return self.text_of(fn).split("::")[-1].split("<")[0].strip()
        return self.text_of(fn).strip()

    def type_text(self, decl: N) -> str:
        """The base type of a declaration / parameter / function definition, normalized."""
        t = decl.child_by_field_name("type")
        if t is None:
            return "int"
        if t.type in ("struct_specifier", "class_specifier", "union_specifier", "enum_specifier"):
            nm = t.child_by_field_name("name")
            return norm_type(self.text_of(nm)) if nm is not None else "int"
        txt = self.text_of(t)
        if t.type == "sized_type_specifier" or t.type == "primitive_type":
            # `unsigned` alone, `long long`: the grammar keeps the words in the node
            return norm_type(txt)
        return norm_type(re.sub(r"<.*>", "", txt) if "::" in txt or "<" in txt else txt) \
            if not txt.startswith("std::vector") else "std::vector"

    def type_descriptor(self, td: Optional[N]) -> Optional[str]:
        if td is None:
            return None
        base = self.type_text(td)
        d = td.child_by_field_name("declarator")
        stars = 0
        while d is not None:
            if d.type == "abstract_pointer_declarator":
                stars += 1
            d = d.child_by_field_name("declarator")
        return base + "*" * stars

    def declarator(self, d: N):
        """(name, pointer depth, is reference, array extent nodes, initial value node, name node)."""
        ptr, ref, dims, value = 0, False, [], None
        while d is not None:
            t = d.type
            if t == "init_declarator":
                value = d.child_by_field_name("value")
                d = d.child_by_field_name("declarator")
            elif t == "pointer_declarator":
                ptr += 1
                d = d.child_by_field_name("declarator")
            elif t == "reference_declarator":
                ref = True
                d = next((ch for ch in d.named_children), None)
            elif t == "function_declarator" and value is None and d.parent is not None \
                    and d.parent.type in ("declaration", "init_declarator") and self._in_body(d):
                # `std::vector<float> v(n);` / `dim3 block(BLOCK);` read as a function declaration
                value = d.child_by_field_name("parameters")
                d = d.child_by_field_name("declarator")
            elif t == "array_declarator":
                dims.insert(0, d.child_by_field_name("size"))
                d = d.child_by_field_name("declarator")
            elif t in ("parenthesized_declarator", "attributed_declarator"):
                d = next((ch for ch in d.named_children), None)
            elif t in ("identifier", "field_identifier", "type_identifier"):
                return self.text_of(d), ptr, ref, dims, value, d
            elif t == "qualified_identifier":
                return self.text_of(d).split("::")[-1], ptr, ref, dims, value, d
            else:
                return None, ptr, ref, dims, value, None
        return None, ptr, ref, dims, value, None

    @staticmethod
    def _in_body(n: N) -> bool:
        p = n.parent
        while p is not None:
            if p.type == "compound_statement":
                return True
            p = p.parent
        return False

    def params(self, fdef: N) -> list[tuple[str, str]]:
        fd = fdef.child_by_field_name("declarator")
        while fd is not None and fd.type != "function_declarator":
            fd = fd.child_by_field_name("declarator")
        out = []
        plist = fd.child_by_field_name("parameters") if fd is not None else None
        for p in (plist.named_children if plist is not None else []):
            if p.type not in ("parameter_declaration", "optional_parameter_declaration"):
                continue
            d = p.child_by_field_name("declarator")
            name, ptr, ref, dims, _, _ = self.declarator(d) if d is not None else (None, 0, False, [], None, None)
            if name:
                out.append((name, self.type_text(p) + "*" * (ptr + len(dims)) + ("&" if ref else "")))
        return out

    def fn_name(self, fdef: N) -> str:
        fd = fdef.child_by_field_name("declarator")
        while fd is not None and fd.type != "function_declarator":
            fd = fd.child_by_field_name("declarator")
        nm = fd.child_by_field_name("declarator") if fd is not None else None
        return self.text_of(nm).split("::")[-1] if nm is not None else ""

    def device_function(self, name: str, nargs: int) -> Optional[N]:
        cands = self.functions.get(name) or []
        for f in cands:
            if len(self.params(f)) == nargs:
                return f
        return cands[0] if len(cands) == 1 else None

    def expand(self, name: str, use: N, args: list[N], interp: "TSKernelInterpreter", env: Env, record: bool):
        """Interpret a macro used in device code whose body is an expression: ``STRIDED_READ(p, i)`` with
        ``#define STRIDED_READ(ptr, i) ((ptr)[(i) * 16])``.  The body, arguments substituted as text, is
        parsed on its own; what it accesses is reported at the macro's use.  Returns ``(False, None)`` when
        the macro cannot be expanded (unknown, recursive, not an expression)."""
        if name in self._expanding or len(self._expanding) > 8:
            return False, None
        if name in self.fn_macros:
            params, body = self.fn_macros[name]
            if len(params) != len(args) or not body:
                return False, None
            texts = {p: "(" + self.text_of(a) + ")" for p, a in zip(params, args)}
            body = re.sub(r"\b[A-Za-z_]\w*\b", lambda m: texts.get(m.group(0), m.group(0)), body)
        else:
            body = self.macro_text.get(name, "")
        if not body or "#" in body or ";" in body or "{" in body:
            return False, None
        snippet = f"int __cudalint_macro = ({body});".encode("utf-8")
        tree = tree_sitter.Parser(language()).parse(snippet)
        if tree.root_node.has_error:
            return False, None
        init = next((n.child_by_field_name("value") for n in self.walk(tree.root_node) if n.type == "init_declarator"),
                    None)
        if init is None:
            return False, None
        saved = (self.src, self._span_override)
        outer = self._span_override or self.span(use)
        self.src, self._span_override = snippet, outer
        self._expanding.add(name)
        try:
            return True, interp.expr(init, env, record=record)
        finally:
            self._expanding.discard(name)
            self.src, self._span_override = saved

    # -- constants
    def macro_type(self, name: str) -> str:
        txt = self.macro_text.get(name, "")
        lits = re.findall(r"\b\d[\w.]*", txt)
        return _literal_type(lits[0]) if len(lits) == 1 else "int"

    def macro_value(self, name: str) -> Optional[int]:
        if name in self._macro_cache:
            return self._macro_cache[name]
        self._macro_cache[name] = None  # recursion guard
        text = self.macro_text.get(name)
        val = None
        if text is not None and text.strip():
            tree = parse(f"int __cudalint_macro = ({text});")
            init = None
            for n in self.walk(tree.root_node):
                if n.type == "init_declarator":
                    init = n.child_by_field_name("value")
                    break
            if init is not None and not tree.root_node.has_error:
                saved = self.src
                self.src = f"int __cudalint_macro = ({text});".encode("utf-8")
                try:
                    val = self.const(init, {})
                finally:
                    self.src = saved
        self._macro_cache[name] = val
        return val

    def const(self, n: Optional[N], local: Optional[dict] = None) -> Optional[int]:
        """Constant-fold an expression (macros, enums, constexpr/const integers, sizeof); None if not constant."""
        n = strip(n)
        if n is None:
            return None
        t = n.type
        try:
            if t == "number_literal":
                return _int_literal(self.text_of(n))
            if t in ("true", "false"):
                return 1 if t == "true" else 0
            if t == "char_literal":
                s = self.text_of(n)[1:-1]
                return ord(s) if len(s) == 1 else None
            if t == "parameter_declaration" and n.named_child_count == 1:  # `(N)` of a vexing parse
                return self.const(n.named_children[0], local)
            if t in ("identifier", "qualified_identifier", "type_identifier"):
                name = self.text_of(n).split("::")[-1].strip()
                if local and name in local:
                    return local[name]
                if name in self.template_values:
                    return self.template_values[name]
                if name in self.consts:
                    return self.consts[name]
                if name in self.enums:
                    return self.enums[name]
                if name in self.macro_text:
                    return self.macro_value(name)
                return None
            if t == "cast_expression":
                v = self.const(n.child_by_field_name("value"), local)
                tt = self.types.resolve(self.type_descriptor(n.child_by_field_name("type")))
                return v if v is not None and (int_type(tt) or tt is None) else None
            if t == "call_expression":
                fn = n.child_by_field_name("function")
                args = self.args(n)
                if fn is not None and fn.type == "template_function" and \
                        self.text_of(fn.child_by_field_name("name")) in ("static_cast",) and len(args) == 1:
                    return self.const(args[0], local)
                if fn is not None and fn.type in ("primitive_type", "sized_type_specifier") and len(args) == 1:
                    return self.const(args[0], local)
                return None
            if t in ("sizeof_expression", "alignof_expression"):
                td = n.child_by_field_name("type")
                if td is not None:
                    ty = self.type_descriptor(td)
                    return self.types.size(ty) if t == "sizeof_expression" else self.types.align(ty)
                return None
            if t == "unary_expression":
                v = self.const(n.child_by_field_name("argument"), local)
                if v is None:
                    return None
                op = TSKernelInterpreter._op(n)
                return {"-": -v, "+": v, "~": ~v, "!": int(not v)}.get(op)
            if t == "binary_expression":
                a = self.const(n.child_by_field_name("left"), local)
                b = self.const(n.child_by_field_name("right"), local)
                if a is None or b is None:
                    return None
                op = TSKernelInterpreter._op(n)
                if op in ("/", "%") and b == 0:
                    return None
                return {"+": a + b, "-": a - b, "*": a * b, "/": _c_div(a, b) if b else None,
                        "%": a - b * _c_div(a, b) if b else None, "<<": a << b if 0 <= b < 128 else None,
                        ">>": a >> b if b >= 0 else None, "&": a & b, "|": a | b, "^": a ^ b,
                        "&&": int(bool(a and b)), "||": int(bool(a or b)), "<": int(a < b), ">": int(a > b),
                        "<=": int(a <= b), ">=": int(a >= b), "==": int(a == b), "!=": int(a != b)}.get(op)
            if t == "conditional_expression":
                c = self.const(n.child_by_field_name("condition"), local)
                if c is None:
                    return None
                return self.const(n.child_by_field_name("consequence" if c else "alternative"), local)
        except (TypeError, ValueError, OverflowError):
            return None
        return None

    # -- build
    def build(self) -> TranslationUnitModel:
        data = self.text.encode("utf-8")
        # `__align__(n)` / `alignas(n)` confuse the grammar: blank them out (offsets kept) and remember them
        buf = bytearray(data)
        for m in _ALIGN.finditer(data):
            self._aligns.append((m.start(), int(m.group(1) or m.group(2))))
            buf[m.start():m.end()] = b" " * (m.end() - m.start())
        self.src = bytes(buf)
        tree = tree_sitter.Parser(language()).parse(self.src)
        model = TranslationUnitModel(path=self.path)
        for n in self.walk(tree.root_node):
            if n.type == "ERROR" or n.is_missing:
                model.errors.append((n.start_point[0] + 1, "syntax the tree-sitter grammar could not parse"))
        kernels: list[tuple[N, Kernel, list]] = []
        self._collect(tree.root_node, kernels, [])
        self._find_launches(tree.root_node, model)
        from .host_treesitter import collect_async_copies
        model.copies = collect_async_copies(self, tree.root_node)
        for node, kernel, tparams in kernels:
            self.interpret(node, kernel, tparams, model.launches)
        model.kernels = [k for _, k, _ in kernels]
        # errors inside a kernel make it CL000; keep only those (a host-side misparse does not matter here)
        model.errors = [(ln, msg) for ln, msg in model.errors
                        if any(k.span.line <= ln <= k.span.end_line for k in model.kernels)]
        return model

    def _quals(self, n: N) -> set[str]:
        out = set()
        for ch in n.children:
            if ch.type in _QUAL_NODES or not ch.is_named:
                out.add(self.text_of(ch).strip())
        return out

    def _collect(self, root: N, kernels: list, tparams: list) -> None:
        for c in root.named_children:
            t = c.type
            if t in ("namespace_definition", "linkage_specification", "declaration_list") or \
                    t.startswith("preproc_if") or t in ("preproc_else", "preproc_elif"):
                body = c.child_by_field_name("body")
                self._collect(body if body is not None and t != "preproc_else" else c, kernels, tparams)
                if t.startswith("preproc_if") or t == "preproc_elif":
                    alt = c.child_by_field_name("alternative")
                    if alt is not None:
                        self._collect(alt, kernels, tparams)
                continue
            if t == "preproc_function_def":
                nm, ps, val = (c.child_by_field_name(f) for f in ("name", "parameters", "value"))
                if nm is not None and ps is not None:
                    self.fn_macros[self.text_of(nm)] = ([self.text_of(x) for x in ps.named_children
                                                        if x.type == "identifier"],
                                                       self.text_of(val).strip() if val is not None else "")
                continue
            if t == "preproc_def":
                nm, val = c.child_by_field_name("name"), c.child_by_field_name("value")
                if nm is not None:
                    self.macro_text[self.text_of(nm)] = self.text_of(val).strip() if val is not None else ""
                    self._macro_cache.pop(self.text_of(nm), None)
                continue
            if t == "template_declaration":
                params = []
                plist = c.child_by_field_name("parameters")
                for p in (plist.named_children if plist is not None else []):
                    if p.type in ("type_parameter_declaration", "optional_type_parameter_declaration"):
                        nm = next((ch for ch in p.named_children if ch.type == "type_identifier"), None)
                        if nm is not None:
                            params.append((self.text_of(nm), "type"))
                    elif p.type in ("parameter_declaration", "optional_parameter_declaration"):
                        d = p.child_by_field_name("declarator")
                        nm = self.declarator(d)[0] if d is not None else None
                        if nm:
                            params.append((nm, "value"))
                inner = Wrapper(c)
                self._collect(inner, kernels, params)
                continue
            if t == "function_definition":
                self._function(c, kernels, tparams)
                continue
            if t in ("type_definition",):
                ty = self.type_text(c)
                self._struct(c.child_by_field_name("type"))
                for d in c.children_by_field_name("declarator"):
                    nm, ptr, _, _, _, _ = self.declarator(d)
                    if nm:
                        self.types.typedefs[nm] = ty + "*" * ptr
                continue
            if t == "alias_declaration":
                nm = c.child_by_field_name("name")
                if nm is not None:
                    self.types.typedefs[self.text_of(nm)] = self.type_descriptor(c.child_by_field_name("type")) or "int"
                continue
            if t in ("struct_specifier", "class_specifier", "union_specifier"):
                self._struct(c)
                continue
            if t == "enum_specifier":
                self._enum(c)
                continue
            if t == "declaration":
                self._global_decl(c)
                continue
            if t == "expression_statement":
                continue

    def _function(self, c: N, kernels: list, tparams: list) -> None:
        quals = self._quals(c)
        body = c.child_by_field_name("body")
        ty = c.child_by_field_name("type")
        if ty is not None and ty.type in ("struct_specifier", "class_specifier"):
            self._struct(ty)
        if body is None:
            return
        name = self.fn_name(c)
        if "__global__" in quals:
            kernels.append((c, Kernel(name=name, span=self.span(c.parent if c.parent is not None and
                                                               c.parent.type == "template_declaration" else c),
                                      params=[p for p, _ in self.params(c)]), tparams))
            return
        if "__device__" in quals:
            self.functions.setdefault(name, []).append(c)
        if "__device__" not in quals or "__host__" in quals:
            self.host_functions.append(c)

    def _struct(self, s: Optional[N]) -> None:
        if s is None or s.type not in ("struct_specifier", "class_specifier", "union_specifier"):
            return
        nm = s.child_by_field_name("name")
        body = s.child_by_field_name("body")
        if nm is None or body is None:
            return
        members = []
        for f in body.named_children:
            if f.type != "field_declaration":
                if f.type in ("struct_specifier", "class_specifier"):
                    self._struct(f)
                continue
            ft = f.child_by_field_name("type")
            if ft is not None and ft.type in ("struct_specifier", "class_specifier"):
                self._struct(ft)
            base = self.type_text(f)
            for d in f.children_by_field_name("declarator"):
                fname, ptr, ref, dims, _, _ = self.declarator(d)
                if not fname:
                    continue
                ext = tuple(self.const(x) or 0 for x in dims if x is not None)
                members.append((fname, base + "*" * ptr, ext))
        align = 0
        for pos, a in self._aligns:
            if s.start_byte <= pos < (nm.start_byte if nm is not None else body.start_byte):
                align = a
        name = self.text_of(nm)
        if s.type == "union_specifier":
            size = max((self.types.size(t) or 4) for _, t, _ in members) if members else 1
            al = max([self.types.align(t) or 4 for _, t, _ in members] + [align or 1])
            self.types.records[name] = Record(name, -(-size // al) * al, al,
                                              [Field(f, self.types.resolve(t) or t, d, 0, self.types.size(t) or 4)
                                               for f, t, d in members])
        else:
            self.types.add_record(name, members, align)

    def _enum(self, e: N) -> None:
        body = e.child_by_field_name("body")
        nxt = 0
        for en in (body.named_children if body is not None else []):
            if en.type != "enumerator":
                continue
            nm, val = en.child_by_field_name("name"), en.child_by_field_name("value")
            v = self.const(val) if val is not None else nxt
            if v is None:
                continue
            self.enums[self.text_of(nm)] = v
            nxt = v + 1

    def _global_decl(self, c: N) -> None:
        quals = self._quals(c)
        ty = c.child_by_field_name("type")
        if ty is not None and ty.type in ("struct_specifier", "class_specifier", "union_specifier"):
            self._struct(ty)
        if ty is not None and ty.type == "enum_specifier":
            self._enum(ty)
        base = self.type_text(c)
        space = AddressSpace.SHARED if "__shared__" in quals else (
            AddressSpace.CONSTANT if "__constant__" in quals else (
                AddressSpace.GLOBAL if "__device__" in quals or "__managed__" in quals else None))
        for d in c.children_by_field_name("declarator"):
            name, ptr, ref, dims, value, _ = self.declarator(d)
            if not name:
                continue
            self.global_types[name] = base + "*" * (ptr + len(dims))
            if space is not None:
                arr = self.array_decl(name, base + "*" * ptr, dims, space, c, d, self.types, "extern" in quals)
                if arr is not None:
                    self.globals[name] = arr
            elif value is not None and not dims and not ptr and ("const" in quals or "constexpr" in quals
                                                                 or "const" in self.text_of(ty).split()):
                v = self.const(value)
                if v is not None:
                    self.consts[name] = v

    def array_decl(self, name: str, elem: str, dims: list, space: AddressSpace, decl: N, d: N,
                   types: TypeTable, extern: bool) -> Optional[ArrayDecl]:
        esize = types.size(elem)
        if not esize:
            return None
        ext: list[Optional[int]] = []
        spans, texts = [], []
        levels = [n for n in self.walk(d) if n.type == "array_declarator"][::-1]  # first extent first
        for i, x in enumerate(dims):
            ext.append(self.const(x) if x is not None else None)
            if x is not None:
                spans.append(self.span(x))
                texts.append(self.text_of(x))
            elif i < len(levels):  # `T s[]`: an empty extent at the `]` (as the clang front-end reports it)
                close = next((ch for ch in levels[i].children if ch.type == "]"), None)
                if close is not None:
                    ln, col = close.start_point[0] + 1, close.start_point[1] + 1
                    spans.append(Span(self.path, ln, col, ln, col))
                    texts.append("")
        if len(spans) != len(dims) or any(s.line != s.end_line for s in spans):
            spans, texts = [], []
        resolved = types.resolve(elem) or elem
        return ArrayDecl(name=name, space=space, elem_type=resolved, elem_size=esize, dims=tuple(ext),
                         dim_spans=tuple(spans), dim_texts=tuple(texts), span=self.span(decl), extern=extern)

    # -- launches
    def _local_inits(self, fn: N) -> dict[str, N]:
        out: dict[str, N] = {}
        for n in self.walk(fn):
            if n.type == "declaration":
                for d in n.children_by_field_name("declarator"):
                    name, _, _, dims, value, _ = self.declarator(d)
                    if name and not dims:
                        out[name] = value if value is not None else n
        return out

    def _int(self, n: Optional[N], inits: dict, depth: int = 0) -> Optional[int]:
        v = self.const(n)
        if v is not None or depth > 8:
            return v
        s = strip(n)
        if s is None:
            return None
        if s.type in ("identifier", "type_identifier") and self.text_of(s) in inits:
            init = inits[self.text_of(s)]
            return self._int(init, inits, depth + 1) if init.type != "declaration" else None
        if s.type == "cast_expression":
            return self._int(s.child_by_field_name("value"), inits, depth + 1)
        if s.type == "binary_expression":
            x = self._int(s.child_by_field_name("left"), inits, depth + 1)
            y = self._int(s.child_by_field_name("right"), inits, depth + 1)
            if x is None or y is None:
                return None
            op = TSKernelInterpreter._op(s)
            try:
                return {"+": x + y, "-": x - y, "*": x * y, "/": x // y if y else None,
                        "<<": x << y, ">>": x >> y}.get(op)
            except Exception:
                return None
        return None

    def _dim(self, n: Optional[N], inits: dict, depth: int = 0):
        if n is None:
            return (1, 1, 1)
        s = strip(n)
        if depth > 8:
            return (None, None, None)
        if s.type in ("call_expression", "argument_list", "initializer_list", "compound_literal_expression",
                      "parameter_list"):
            if s.type == "call_expression":
                if self.callee_name(s.child_by_field_name("function")) != "dim3":
                    return (self._int(s, inits), 1, 1)
                args = self.args(s)
            elif s.type == "compound_literal_expression":
                v = s.child_by_field_name("value")
                args = [a for a in v.named_children if a.type != "comment"] if v is not None else []
            else:
                args = [a for a in s.named_children if a.type != "comment"]
            args = [a.named_children[0] if a.type == "parameter_declaration" and a.named_child_count == 1 else a
                    for a in args]
            if len(args) == 1 and strip(args[0]).type in ("identifier", "type_identifier") and self.text_of(strip(args[0])) in inits \
                    and inits[self.text_of(strip(args[0]))].type in ("argument_list", "initializer_list", "call_expression",
                                                                    "declaration", "parameter_list"):
                return self._dim(args[0], inits, depth + 1)
            vals = [self._int(a, inits) for a in args]
            vals += [1] * (3 - len(vals))
            return tuple(vals[:3])
        if s.type in ("identifier", "type_identifier") and self.text_of(s) in inits:
            init = inits[self.text_of(s)]
            if init.type == "declaration":
                return (1, 1, 1) if self.type_text(init) == "dim3" else (None, 1, 1)
            return self._dim(init, inits, depth + 1)
        return (self._int(s, inits), 1, 1)

    def _find_launches(self, root: N, model: TranslationUnitModel) -> None:
        for fn in self.walk(root):
            if fn.type != "function_definition" or "__global__" in self._quals(fn):
                continue
            body = fn.child_by_field_name("body")
            if body is None:
                continue
            inits = None
            for n in self.walk(body):
                if n.type != "call_expression":
                    continue
                cfg = next((ch for ch in n.children if ch.type == "kernel_call_syntax"), None)
                if cfg is None:
                    continue
                if inits is None:
                    inits = self._local_inits(fn)
                cargs = [a for a in cfg.named_children if a.type != "comment"]
                grid = self._dim(cargs[0], inits) if cargs else (None, None, None)
                block = self._dim(cargs[1], inits) if len(cargs) > 1 else (None, None, None)
                shmem = self._int(cargs[2], inits) if len(cargs) > 2 else 0
                stream = None
                if len(cargs) > 3:
                    stream = " ".join(self.text_of(x) for x in self.walk(cargs[3]) if x.child_count == 0) or None
                f = n.child_by_field_name("function")
                targs: tuple = ()
                if f is not None and f.type == "template_function":
                    al = f.child_by_field_name("arguments")
                    vals = []
                    for a in (al.named_children if al is not None else []):
                        if a.type == "type_descriptor":
                            vals.append(self.types.resolve(self.type_descriptor(a)))
                        else:
                            v = self.const(a)
                            vals.append(v if v is not None else self.text_of(a))
                    targs = tuple(vals)
                name = self.callee_name(f)
                model.launches.append(LaunchSite(kernel=name, grid=grid, block=block, shared_mem=shmem,
                                                 stream=stream, span=self.span(n), template_args=targs))

    # -- kernels
    def interpret(self, node: N, kernel: Kernel, tparams: list, launches: list[LaunchSite]) -> None:
        for ch in node.named_children:
            if ch.type == "launch_bounds":
                nums = [int(x) for x in re.findall(r"\b\d+\b", self.text_of(ch))]
                if nums:
                    kernel.launch_bounds = nums[0]
        types = self.types
        types.params = {}
        self.template_values = {}
        self.template_nontype = {n for n, k in tparams if k == "value"}
        kernel.template_params = [n for n, _ in tparams]
        if tparams:
            for site in launches:
                if site.kernel == kernel.name and site.template_args:
                    for (nm, kind), arg in zip(tparams, site.template_args):
                        if isinstance(arg, int):
                            self.template_values[nm] = arg
                        elif kind == "type" and types.size(arg):
                            types.params[nm] = types.size(arg) or 4
                    kernel.instantiation = ", ".join(f"{n} = {a}" for (n, _), a in zip(tparams, site.template_args))
                    break
            for nm, kind in tparams:
                if kind == "type" and nm not in types.params:
                    types.params[nm] = 4
                    kernel.incomplete_assumptions.append(
                        f"template parameter {nm} assumed 4 bytes (no instantiation in this file)")
        interp = TSKernelInterpreter(self, kernel, types)
        env = Env()
        fd = node.child_by_field_name("declarator")
        while fd is not None and fd.type != "function_declarator":
            fd = fd.child_by_field_name("declarator")
        plist = fd.child_by_field_name("parameters") if fd is not None else None
        for p in (plist.named_children if plist is not None else []):
            if p.type not in ("parameter_declaration", "optional_parameter_declaration"):
                continue
            d = p.child_by_field_name("declarator")
            if d is None:
                continue
            name, ptr, ref, dims, _, _ = self.declarator(d)
            if not name:
                continue
            base = self.type_text(p)
            ptr += len(dims)
            interp.vtypes[name] = base + "*" * ptr
            if ptr:
                pt = base + "*" * (ptr - 1)
                esize = types.size(pt)
                if esize:
                    const = "const " if any(self.text_of(q) == "const" for q in p.named_children
                                            if q.type == "type_qualifier") and ptr == 1 else ""
                    arr = ArrayDecl(name=name, space=AddressSpace.GLOBAL, elem_type=const + (types.resolve(pt) or pt),
                                    elem_size=esize, span=self.span(p), is_param=True)
                    env.vars[key(name)] = TSPointer(arr, sympy.Integer(0), esize, (), (), types.resolve(pt) or pt)
                else:
                    env.vars[key(name)] = None
            else:
                env.vars[key(name)] = self.symbols.param(name)
        try:
            interp.stmt(node.child_by_field_name("body"), env)
        except RecursionError:
            kernel.incomplete.append("expression nesting too deep to model")


class Wrapper:
    """The declarations under a ``template <...>`` as a node-like list for :meth:`TreeSitterFrontend._collect`."""

    def __init__(self, t: N):
        self.named_children = [ch for ch in t.named_children if ch.type not in ("template_parameter_list",)]
        self.type = "template_body"

    def child_by_field_name(self, name):
        return None


def build(path: str, text: str, extra_args: Optional[list[str]] = None) -> tuple[TranslationUnitModel, Symbols]:
    fe = TreeSitterFrontend(path, text, extra_args)
    return fe.build(), fe.symbols
