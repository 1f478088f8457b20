"""``cudalint dump-ir``: the IR of a translation unit as readable, stable text.

One line per statement, indented by nesting; expressions in C-like syntax with the IR's own structure
visible (``load``/``store`` are not decided here: an :class:`~cudalint.ir.nodes.Index` prints as
``a[i]``).  Types are printed where they matter to the analyses: declarations, casts, constructions,
member offsets (``.x@4``) and each function's signature.  Locations are ``line:column`` of the node's
start (the file is printed once per function when it is not the linted file).
"""

from __future__ import annotations

from typing import Iterator, Optional

from . import nodes as ir
from .types import Type, TypeKind


def type_text(t: Type) -> str:
    return t.spelling() + (f" /*{t.size}B*/" if t.size is not None and t.kind != TypeKind.POINTER else "")


def _list(items) -> str:
    return ", ".join(expr_text(a) for a in items)


def _launch(e: ir.Launch) -> str:
    cfg = _list(x for x in (e.grid, e.block, e.shared_mem, e.stream) if x is not None)
    targs = "<" + ", ".join(a.spelling() if isinstance(a, Type) else expr_text(a) if isinstance(a, ir.Expr)
                            else str(a) for a in e.template_args) + ">" if e.template_args else ""
    return f"{e.kernel}{targs}<<<{cfg}>>>({_list(e.args)})"


#: the text of each kind of expression node
_TEXT = {
    ir.IntLit: lambda e: str(e.value),
    ir.FloatLit: lambda e: "<float>",
    ir.Ref: lambda e: e.var.name,
    ir.Builtin: lambda e: f"{e.name}.{e.axis}" if e.axis else e.name,
    ir.TemplateArg: lambda e: f"<{e.name}>",
    ir.Unary: lambda e: f"({expr_text(e.operand)}{e.op[4:]})" if e.op.startswith("post")
        else f"({e.op[3:] if e.op.startswith('pre') else e.op}{expr_text(e.operand)})",
    ir.Binary: lambda e: f"({expr_text(e.lhs)} {e.op} {expr_text(e.rhs)})",
    ir.Assign: lambda e: f"{expr_text(e.target)} {e.op} {expr_text(e.value)}",
    ir.Cond: lambda e: f"({expr_text(e.cond)} ? {expr_text(e.then)} : {expr_text(e.else_)})",
    ir.Cast: lambda e: f"(({e.type.spelling()}){expr_text(e.operand)})",
    ir.Call: lambda e: (expr_text(e.receiver) + "." if e.receiver is not None else "") + e.name
        + ("" if e.func is None else "@") + f"({_list(e.args[:e.written if e.written >= 0 else None])})",
    ir.Member: lambda e: f"{expr_text(e.base)}{'->' if e.arrow else '.'}{e.name}"
        + (f"@{e.field.offset}" if e.field is not None else ""),
    ir.Index: lambda e: f"{expr_text(e.base)}[{expr_text(e.index)}]",
    ir.Construct: lambda e: f"{e.type.spelling()}({_list(e.args)})",
    ir.InitList: lambda e: "{" + _list(e.items) + "}",
    ir.New: lambda e: f"new{'[]' if e.array else ''}{'(placement)' if e.placement else ''} {e.type.spelling()}",
    ir.Launch: _launch,
    ir.Lambda: lambda e: "[lambda]",
    ir.Opaque: lambda e: f"opaque:{e.what}({_list(e.children)})",
    ir.SizeOf: lambda e: f"sizeof({e.of.spelling()})",
}


def expr_text(e: Optional[ir.Expr]) -> str:
    """C-like text of an expression."""
    if e is None:
        return ""
    text = _TEXT.get(type(e))
    return text(e) if text is not None else f"<{type(e).__name__}>"


#: the line of each statement that prints as one line (above its body, if it has one)
_LINE = {
    ir.Switch: lambda s: f"switch {expr_text(s.cond)}",
    ir.Case: lambda s: f"case {expr_text(s.value)}:" if s.value is not None else "default:",
    ir.Label: lambda s: f"{s.name}:",
    ir.Return: lambda s: f"return {expr_text(s.value)}".rstrip(),
    ir.Jump: lambda s: f"{s.kind.value} {s.label}".rstrip(),
    ir.Asm: lambda s: f"asm {s.text!r}",
}


def _line(depth: int, node, text: str) -> str:
    return f"{node.span.line:>4}:{node.span.column:<3} {'  ' * depth}{text}"


def _var(v: ir.Variable) -> str:
    return (f"{v.space.value} " if v.space != ir.Space.LOCAL else "") + f"{type_text(v.type)} {v.name}"


def _stmt(s: Optional[ir.Stmt], depth: int) -> Iterator[str]:
    """The lines of statement ``s`` nested ``depth`` deep."""
    if isinstance(s, ir.Block):
        for x in s.body:
            yield from _stmt(x, depth)
    elif isinstance(s, ir.Decl):
        const = f" /*={s.var.const_value}*/" if s.var.const_value is not None else ""
        yield _line(depth, s, f"decl {_var(s.var)}{const}" + (f" = {expr_text(s.init)}" if s.init is not None else ""))
    elif isinstance(s, ir.ExprStmt):
        yield _line(depth, s, expr_text(s.expr))
        for n in (n for n in ir.walk(s.expr) if isinstance(n, ir.Lambda) and n.body is not None):
            yield _line(depth + 1, n, "lambda body:")
            yield from _stmt(n.body, depth + 2)
    elif isinstance(s, ir.If):
        if s.init is not None:
            yield _line(depth, s, "if-init:")
            yield from _stmt(s.init, depth + 1)
        yield _line(depth, s, f"if {expr_text(s.cond)}")
        yield from _stmt(s.then, depth + 1)
        if s.else_ is not None:
            yield _line(depth, s.else_, "else")
            yield from _stmt(s.else_, depth + 1)
    elif isinstance(s, ir.Loop):
        if s.kind == ir.LoopKind.RANGE:
            yield _line(depth, s, f"for {s.var.name if s.var is not None else '?'} : {expr_text(s.range)}")
        else:
            for x in s.init:
                yield from _stmt(x, depth)
            step = "; ".join(expr_text(x) for x in s.step)
            yield _line(depth, s, f"{s.kind.value} ({expr_text(s.cond)}; {step})")
        yield from _stmt(s.body, depth + 1)
    elif type(s) in _LINE:
        yield _line(depth, s, _LINE[type(s)](s))
        yield from _stmt(getattr(s, "body", None), depth + 1)


def dump(tu: ir.TranslationUnit, function: Optional[str] = None) -> str:
    """The IR of ``tu`` (only the functions named ``function`` when given)."""
    lines = [f"// {tu.path} (front-end: {tu.frontend})"]
    lines += [_line(0, v, f"global {_var(v)}" + (f" = {expr_text(v.init)}" if v.init is not None else ""))
              for v in tu.globals]
    for fn in (f for f in tu.functions if function is None or f.name == function):
        tps = "template <" + ", ".join(("typename " if t.is_type else "") + t.name for t in fn.template_params) \
            + "> " if fn.template_params else ""
        params = ", ".join(f"{type_text(p.type)} {p.name}" for p in fn.params)
        where = "" if fn.span.path == tu.path else f"  [{fn.span.path}]"
        bounds = f" __launch_bounds__({fn.launch_bounds})" if fn.launch_bounds else ""
        lines.append(_line(0, fn, f"{tps}{fn.kind.value}{bounds} {fn.name}({params}){where}"))
        lines += _stmt(fn.body, 1)
    return "\n".join(lines) + "\n"
