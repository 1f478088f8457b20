"""Compile-time facts of the IR shared by the front-ends and the analysis: integer constant folding with C's
semantics (truncating ``/`` and ``%``), and an expression's tokens joined as a user writes them."""

from __future__ import annotations

import re
from typing import Iterable, Optional

from . import nodes as ir
from .types import TypeKind

#: an explicit instantiation of a function template: ``template void prefix<float, double>(const float *, ..);``,
#: also across lines (``template void\nConvolutionForwardKernelGPU<float, uint32_t, ..>(``: MinkowskiEngine's)
#: (the function's name, its template arguments' text)
EXPLICIT_INSTANCE = re.compile(r"^[ \t]*template\s+(?=[\w:])(?:[\w:*&\s]|<[^;{}()<>]*>)*?\b(\w+)\s*"
                               r"<([^;{}()<>]*(?:<[^;{}()<>]*>[^;{}()<>]*)*)>\s*\(", re.M)


def template_arg_texts(text: str) -> list[str]:
    """``"label_t, std::pair<int, int>, 4"`` -> ``["label_t", "std::pair<int, int>", "4"]``: split at the commas
    outside angle brackets."""
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += (ch == "<") - (ch == ">")
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return out + [cur.strip()] if cur.strip() else out


def explicit_instances(text: str, resolve) -> list[tuple[str, tuple]]:
    """The explicit instantiations of function templates in a file's ``text`` (:data:`EXPLICIT_INSTANCE`), as
    (the function's name, its template arguments): an integer literal as an int, any other argument as
    ``resolve(spelling)`` (a Type, or None when the front-end cannot name it: a parameter that instantiation
    leaves open, as MinkowskiEngine's allocator argument ``detail::default_allocator<char>``, while its ``float``
    binds)."""
    return [(m.group(1), tuple(int(re.sub(r"[uUlL]+$", "", arg)) if re.fullmatch(r"\d+[uUlL]*", arg) else resolve(arg)
                               for arg in template_arg_texts(m.group(2))))
            for m in EXPLICIT_INSTANCE.finditer(text)]


#: an alignment as a declaration spells it: ``__align__(16)``, ``alignas(16)``, ``__attribute__((aligned(16)))``
ALIGN_SPELLING = re.compile(r"__align__\s*\(\s*(\d+)\s*\)|alignas\s*\(\s*(\d+)\s*\)|aligned\s*\(\s*(\d+)\s*\)")


def c_binary(op: str, a: int, b: int) -> Optional[int]:
    """``a op b`` on C integers (``/`` and ``%`` truncate toward zero); None for a division by zero, a
    shift out of range or an operator without an integer result."""
    if op in ("/", "%"):
        if b == 0:
            return None
        q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
        return q if op == "/" else a - b * q
    if op in ("<<", ">>"):
        return (a << b if op == "<<" else a >> b) if 0 <= b < 128 else None
    return {"+": a + b, "-": a - b, "*": a * b, "&": a & b, "|": a | b, "^": a ^ b, "&&": int(bool(a and b)),
            "||": int(bool(a or b)), "<": int(a < b), ">": int(a > b), "<=": int(a <= b), ">=": int(a >= b),
            "==": int(a == b), "!=": int(a != b), ",": b}.get(op)


def fold(e: Optional[ir.Expr]) -> Optional[int]:
    """The integer value of a constant expression (literals, const variables, arithmetic on them), None when
    not constant."""
    if isinstance(e, ir.IntLit):
        return e.value
    if isinstance(e, ir.Ref):
        return e.var.const_value
    if isinstance(e, ir.Cast):
        return fold(e.operand) if e.type.is_integer or e.type.kind == TypeKind.UNKNOWN else None
    if isinstance(e, ir.Unary) and e.op in ("-", "+", "~", "!"):
        v = fold(e.operand)
        return None if v is None else {"-": -v, "+": v, "~": ~v, "!": int(not v)}[e.op]
    if isinstance(e, ir.Cond):
        c = fold(e.cond)
        return None if c is None else fold(e.then if c else e.else_)
    if isinstance(e, ir.Binary):
        a, b = fold(e.lhs), fold(e.rhs)
        return None if a is None or b is None else c_binary(e.op, a, b)
    return None


def join_tokens(tokens: Iterable[str]) -> str:
    """Tokens re-joined as written: ``h_buf + off``, ``&v[0]``, ``v.data()``, ``f(a, b)``."""
    out = ""
    for t in filter(None, tokens):  # empty tokens dropped
        if out and (out[-1].isalnum() or out[-1] == "_") and (t[0].isalnum() or t[0] == "_"):
            out += " " + t
        elif out and t in ("+", "-", "?", ":", "=", "<<", ">>", "%", "/"):
            out += " " + t + " "
        else:
            out += ", " if t == "," else t
    return re.sub(r"\s+", " ", out).strip()


#: the fields of CUDA's ``cudaLaunchConfig_t`` a launch reads (CUDA Runtime API, cudaLaunchKernelEx), in the order
#: of a ``<<<grid, block, shared_mem, stream>>>`` configuration
LAUNCH_CONFIG_FIELDS = ("gridDim", "blockDim", "dynamicSmemBytes", "stream")


def launch_from_config(sp: ir.Span, vals: list[ir.Expr], kernel: str, func: Optional[ir.Function],
                       template_args: tuple) -> Optional[ir.Launch]:
    """``cudaLaunchKernelEx(&config, kernel, args...)`` as the launch it makes: ``kernel<<<config.gridDim,
    config.blockDim, config.dynamicSmemBytes, config.stream>>>(args...)``, its configuration read from the members of
    the ``cudaLaunchConfig_t`` variable (a local ``config`` passed as ``&config``, or a pointer ``cfg`` read through
    ``cfg->``); None when the configuration is neither (a call's result, an element of an array).  ``vals``: the
    call's lowered arguments; ``kernel``, ``func``, ``template_args``: the kernel named by its second argument."""
    cfg = vals[0]
    while isinstance(cfg, ir.Cast):
        cfg = cfg.operand
    arrow = not (isinstance(cfg, ir.Unary) and cfg.op == "&")
    base = cfg if arrow else cfg.operand
    if not isinstance(base, ir.Ref) or not kernel:
        return None
    record = base.type.pointee if arrow and base.type.pointee is not None else base.type
    fields = {f.name: f for f in record.fields or ()}

    def member(name: str) -> ir.Member:
        f = fields.get(name)
        m = ir.Member(sp, base, name, arrow, f, type=f.type if f is not None else ir.UNKNOWN)
        m.text = f"{base.var.name}{'->' if arrow else '.'}{name}"
        return m

    return ir.Launch(sp, kernel, *(member(n) for n in LAUNCH_CONFIG_FIELDS), list(vals[2:]), func, template_args)
