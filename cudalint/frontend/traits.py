"""The integer constants of a class a kernel template is instantiated with (a *traits* class).

``template <typename K> __global__ void k(..)`` reads ``K::COLS``, ``K::THREADS_PER_WARP``: enumerators and
``static const``/``constexpr`` members of the class each launch passes (apex's ``Kernel_traits_finalize<768, ..>``,
CUTLASS-style tile shapes).  libclang does not visit the members of an implicit class template instantiation,
so they are evaluated here from the class template's own declarations with the instantiation's arguments
bound: enumerators (an omitted initialiser is the previous one plus 1), static data members with an
initialiser, and the members of base classes (a base that is a template type parameter takes the argument's
class).  Integer arithmetic only (C++ semantics: truncating ``/`` and ``%``); anything else leaves the member
out, and the interpreter keeps it a run-time value.
"""

from __future__ import annotations

from typing import Optional, Union

import clang.cindex as ci

K = ci.CursorKind
DEPTH = 8  # base classes and nested traits followed at most this deep

_BINARY = {
    "Mul": lambda a, b: a * b, "Add": lambda a, b: a + b, "Sub": lambda a, b: a - b,
    "Div": lambda a, b: _cdiv(a, b), "Rem": lambda a, b: a - b * _cdiv(a, b),
    "Shl": lambda a, b: a << b, "Shr": lambda a, b: a >> b, "And": lambda a, b: a & b, "Or": lambda a, b: a | b,
    "Xor": lambda a, b: a ^ b, "LT": lambda a, b: int(a < b), "GT": lambda a, b: int(a > b),
    "LE": lambda a, b: int(a <= b), "GE": lambda a, b: int(a >= b), "EQ": lambda a, b: int(a == b),
    "NE": lambda a, b: int(a != b), "LAnd": lambda a, b: int(bool(a and b)), "LOr": lambda a, b: int(bool(a or b)),
}

_SPELLED = {"*": "Mul", "+": "Add", "-": "Sub", "/": "Div", "%": "Rem", "<<": "Shl", ">>": "Shr", "&": "And",
            "|": "Or", "^": "Xor", "<": "LT", ">": "GT", "<=": "LE", ">=": "GE", "==": "EQ", "!=": "NE",
            "&&": "LAnd", "||": "LOr"}

Binding = Union[int, ci.Type]
_PARAMS = (K.TEMPLATE_TYPE_PARAMETER, K.TEMPLATE_NON_TYPE_PARAMETER, K.TEMPLATE_TEMPLATE_PARAMETER)


def _cdiv(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def record_constants(decl: ci.Cursor, memo: Optional[dict] = None, depth: int = 0) -> dict[str, int]:
    """``{member: value}`` for the class declaration ``decl`` (a struct, class or class template instantiation):
    its integer enumerators and static constant data members, then its bases' (a derived class's own member
    shadows a base's).  Empty when ``decl`` is not a class."""
    if memo is None:
        memo = {}
    if depth > DEPTH or decl is None or decl.kind not in (K.STRUCT_DECL, K.CLASS_DECL, K.CLASS_TEMPLATE):
        return {}
    key = decl.type.get_canonical().spelling if decl.kind != K.CLASS_TEMPLATE else decl.displayname
    if key in memo:
        return memo[key]
    memo[key] = {}  # a class that names itself while being read
    env: dict[str, Binding] = {}
    pattern = decl
    try:
        n = decl.get_num_template_arguments()
    except Exception:
        n = -1
    if n > 0:
        try:
            tmpl = ci.conf.lib.clang_getSpecializedCursorTemplate(decl)
            tmpl._tu = decl._tu
            if tmpl.kind != K.CLASS_TEMPLATE:
                return {}
        except Exception:  # no template (an explicit specialization's own members are visited) or a null cursor
            return {}
        params = [c for c in tmpl.get_children() if c.kind in _PARAMS]
        for j, p in enumerate(params[:n]):
            kind = decl.get_template_argument_kind(j)
            if kind == ci.TemplateArgumentKind.INTEGRAL:
                env[p.spelling] = decl.get_template_argument_value(j)
            elif kind == ci.TemplateArgumentKind.TYPE:
                env[p.spelling] = decl.get_template_argument_type(j)
        pattern = tmpl
    out: dict[str, int] = {}
    ev = _Evaluator(env, out, memo, depth)
    bases = []
    for c in pattern.get_children():
        if c.kind == K.ENUM_DECL:
            prev = -1
            for e in c.get_children():
                if e.kind != K.ENUM_CONSTANT_DECL:
                    continue
                init = next((x for x in e.get_children() if x.kind.is_expression()), None)
                v = ev.value(init) if init is not None else prev + 1 if prev is not None else None
                if v is not None:
                    out[e.spelling] = v
                prev = v
        elif c.kind == K.VAR_DECL:
            init = next((x for x in c.get_children() if x.kind.is_expression()), None)
            if init is not None and (v := ev.value(init)) is not None:
                out[c.spelling] = v
        elif c.kind == K.CXX_BASE_SPECIFIER:
            bases.append(c)
    for b in bases:
        for name, v in ev.class_of(b).items():
            out.setdefault(name, v)
    memo[key] = out
    return out


def static_multiples(decl: ci.Cursor) -> tuple[tuple[str, str], ...]:
    """``(member, divisor)`` for each ``static_assert(A % B == 0)`` of a class template's own declaration whose
    ``A`` and ``B`` are members (its own, or a base's ``Base::X``): every instantiation that compiles has ``A`` a
    multiple of ``B`` (apex's ``static_assert(COLS % Base::THREADS_PER_WARP == 0)``, "Condition for the whole CTA to
    participate in syncthreads"); and for each member defined as a product with another (``STRIDE = CTAS *
    Base::WARP``).  ``decl``: the class template, or an instantiation of one."""
    try:
        if decl.kind != K.CLASS_TEMPLATE:
            tmpl = ci.conf.lib.clang_getSpecializedCursorTemplate(decl)
            tmpl._tu = decl._tu
            decl = tmpl
        if decl.kind != K.CLASS_TEMPLATE:
            return ()
    except Exception:
        return ()
    out = []
    for c in decl.get_children():
        # a member defined as a product with another (`enum { STRIDE = CTAS * Base::WARP };`) is a multiple of it
        for e in (list(c.get_children()) if c.kind == K.ENUM_DECL else [c] if c.kind == K.VAR_DECL else []):
            init = next((x for x in e.get_children() if x.kind.is_expression()), None)
            factors = _operands(init, "*")
            out += [(e.spelling, n) for n in map(_member_name, factors or ()) if n is not None]
        if c.kind != K.STATIC_ASSERT:
            continue
        cond = next((x for x in c.get_children() if x.kind.is_expression()), None)
        parts = _operands(cond, "==")
        if parts is None or (zero := _strip(parts[1])).kind != K.INTEGER_LITERAL or \
                next(iter(zero.get_tokens())).spelling.rstrip("uUlL") != "0":
            continue
        rem = _operands(parts[0], "%")
        names = [_member_name(x) for x in rem] if rem is not None else [None]
        if None not in names:
            out.append((names[0], names[1]))
    return tuple(out)


def _strip(c: ci.Cursor) -> ci.Cursor:
    while c.kind in (K.UNEXPOSED_EXPR, K.PAREN_EXPR, K.CSTYLE_CAST_EXPR) and \
            len(kids := [x for x in c.get_children() if x.kind.is_expression()]) == 1:
        c = kids[0]
    return c


def _operands(c: Optional[ci.Cursor], op: str) -> Optional[tuple[ci.Cursor, ci.Cursor]]:
    """The two operands of ``c`` when it is the binary ``op`` (written, or a dependent operand's unresolved
    ``operator`` call)."""
    if c is None:
        return None
    c = _strip(c)
    kids = [x for x in c.get_children() if x.kind.is_expression()]
    if c.kind == K.BINARY_OPERATOR and len(kids) == 2 and _SPELLED.get(op) == c.binary_operator.name:
        return kids[0], kids[1]
    if c.kind == K.CALL_EXPR and len(kids) == 3 and kids[1].kind == K.DECL_REF_EXPR and \
            kids[1].spelling.removeprefix("operator") in ("", op) and \
            "".join(t.spelling for t in kids[1].get_tokens()) == op:
        return kids[0], kids[2]
    return None


def _member_name(c: ci.Cursor) -> Optional[str]:
    """The member a class template's expression names: ``COLS`` (an enumerator or static member of its own) or
    ``Base::THREADS_PER_WARP`` (a dependent base's); None for anything else."""
    c = _strip(c)
    if c.kind != K.DECL_REF_EXPR:
        return None
    if c.referenced is not None:
        return c.spelling if c.referenced.kind in (K.ENUM_CONSTANT_DECL, K.VAR_DECL) else None
    toks = [t.spelling for t in c.get_tokens()]
    return toks[2] if len(toks) == 3 and toks[1] == "::" else None


def type_constants(t: ci.Type, memo: Optional[dict] = None) -> dict[str, int]:
    """:func:`record_constants` of the class type ``t`` (empty for any other type)."""
    try:
        decl = t.get_canonical().get_declaration()
    except Exception:
        return {}
    return record_constants(decl, memo) if decl is not None and decl.kind != K.NO_DECL_FOUND else {}


class _Evaluator:
    """Integer values of a class template's member initialisers with its template parameters bound (``env``)
    and its members read so far (``members``)."""

    def __init__(self, env: dict, members: dict, memo: dict, depth: int):
        self.env, self.members, self.memo, self.depth = env, members, memo, depth

    def class_of(self, c: ci.Cursor) -> dict[str, int]:
        """The constants of the class a base specifier, type reference or scope names (a template type parameter
        bound to its argument's class)."""
        toks = [t.spelling for t in c.get_tokens()]
        name = next((t for t in toks if t not in ("public", "private", "protected", "virtual")), "")
        bound = self.env.get(name)
        if isinstance(bound, ci.Type):
            return type_constants(bound, self.memo) if self.depth < DEPTH else {}
        try:
            decl = c.type.get_canonical().get_declaration()
        except Exception:
            return {}
        return record_constants(decl, self.memo, self.depth + 1) if decl.kind != K.NO_DECL_FOUND else {}

    def value(self, c: Optional[ci.Cursor]) -> Optional[int]:
        try:
            return self._value(c)
        except (ArithmeticError, ValueError, TypeError, AttributeError):
            return None

    def _value(self, c: Optional[ci.Cursor]) -> Optional[int]:
        if c is None:
            return None
        k = c.kind
        kids = [x for x in c.get_children()]
        if k == K.INTEGER_LITERAL:
            text = next(iter(c.get_tokens())).spelling.rstrip("uUlL")
            return int(text, 0) if not (len(text) > 1 and text[0] == "0" and text[1].isdigit()) else int(text, 8)
        if k == K.CXX_BOOL_LITERAL_EXPR:
            return int(next(iter(c.get_tokens())).spelling == "true")
        if k in (K.UNEXPOSED_EXPR, K.PAREN_EXPR, K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR,
                 K.CXX_FUNCTIONAL_CAST_EXPR) and kids:
            exprs = [x for x in kids if x.kind.is_expression()]
            return self._value(exprs[-1]) if exprs else None
        if k == K.DECL_REF_EXPR:
            return self.name(c)
        if k == K.BINARY_OPERATOR and len(kids) == 2:
            a, b = self._value(kids[0]), self._value(kids[1])
            f = _BINARY.get(c.binary_operator.name)
            return f(a, b) if f is not None and a is not None and b is not None else None
        if k == K.CALL_EXPR and len(kids) == 3 and kids[1].kind == K.DECL_REF_EXPR:
            # a dependent operand's operator: `B::THREADS / B::THREADS_PER_WARP`, an unresolved `operator/` call
            op = _SPELLED.get(kids[1].spelling.removeprefix("operator") or
                              "".join(t.spelling for t in kids[1].get_tokens()))
            a, b = self._value(kids[0]), self._value(kids[2])
            return _BINARY[op](a, b) if op is not None and a is not None and b is not None else None
        if k == K.UNARY_OPERATOR and len(kids) == 1:
            op, v = next(iter(c.get_tokens())).spelling, self._value(kids[0])
            return None if v is None else {"-": -v, "+": v, "~": ~v, "!": int(not v)}.get(op)
        if k == K.CONDITIONAL_OPERATOR and len(kids) == 3:
            cond = self._value(kids[0])
            return None if cond is None else self._value(kids[1] if cond else kids[2])
        if k == K.CXX_UNARY_EXPR:  # sizeof(T), alignof(T)
            toks = [t.spelling for t in c.get_tokens()]
            if len(toks) == 4 and toks[0] == "sizeof" and isinstance(t := self.env.get(toks[2]), ci.Type):
                size = t.get_size()
                return size if size > 0 else None
        from .libclang import evaluate_int
        return evaluate_int(c)

    def name(self, c: ci.Cursor) -> Optional[int]:
        ref = c.referenced
        if ref is None:  # `B::THREADS_PER_WARP`, B a template type parameter: its argument's member
            toks = [t.spelling for t in c.get_tokens()]
            if len(toks) == 3 and toks[1] == "::" and isinstance(t := self.env.get(toks[0]), ci.Type):
                return type_constants(t, self.memo).get(toks[2])
            return None
        if ref.kind == K.TEMPLATE_NON_TYPE_PARAMETER:
            v = self.env.get(ref.spelling)
            return v if isinstance(v, int) else None
        if ref.kind in (K.ENUM_CONSTANT_DECL, K.VAR_DECL) and ref.spelling in self.members:
            return self.members[ref.spelling]
        from .libclang import evaluate_int
        return evaluate_int(c)
