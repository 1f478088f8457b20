"""Kernel launches of a translation unit: ``k<<<grid, block, shmem, stream>>>`` sites with the launch shape
read from the IR (constants, ``dim3`` variables and their initialisers, macros folded by the front-end).
"""

from __future__ import annotations

from typing import Optional

from ..ir import nodes as ir
from ..ir.consts import c_binary, fold
from ..ir.types import Type
from ..model import LaunchSite

_MAX_DEPTH = 8
Dims = tuple[Optional[int], Optional[int], Optional[int]]


def int_value(e: Optional[ir.Expr], depth: int = 0) -> Optional[int]:
    """An integer the expression is known to hold: a constant, or a variable whose initialiser is one
    (flow-insensitive: the declaration's initialiser), through ``+ - * / << >>``."""
    v = fold(e)
    if v is not None or e is None or depth > _MAX_DEPTH:
        return v
    if isinstance(e, ir.Ref) and e.var.init is not None:
        return int_value(e.var.init, depth + 1)
    if isinstance(e, ir.Cast):
        return int_value(e.operand, depth + 1)
    if isinstance(e, ir.Binary) and e.op in ("+", "-", "*", "/", "<<", ">>"):
        x, y = int_value(e.lhs, depth + 1), int_value(e.rhs, depth + 1)
        return None if x is None or y is None else c_binary(e.op, x, y)
    return None


def dim3_value(e: Optional[ir.Expr], depth: int = 0) -> Dims:
    """The (x, y, z) of a launch's grid or block argument; None where not constant; ``(1, 1, 1)`` for an
    absent argument or a default-constructed ``dim3``."""
    if e is None:
        return (1, 1, 1)
    if depth > _MAX_DEPTH:
        return (None, None, None)
    if isinstance(e, ir.Cast) and e.type.name in ("dim3", "uint3"):
        return dim3_value(e.operand, depth + 1)
    if isinstance(e, (ir.Construct, ir.Call)) and (e.type.name in ("dim3", "uint3")
                                                  or isinstance(e, ir.Call) and e.name == "dim3"):
        args = e.args
        if len(args) == 1 and (isinstance(args[0], ir.Ref) or args[0].type.name in ("dim3", "uint3")):
            return dim3_value(args[0], depth + 1)
        vals = [int_value(a) for a in args] + [1, 1, 1]
        return (vals[0], vals[1], vals[2])
    if isinstance(e, ir.Ref):
        if e.var.init is not None:
            return dim3_value(e.var.init, depth + 1)
        if e.var.type.name in ("dim3", "uint3"):
            return (1, 1, 1)
    if isinstance(e, ir.InitList):
        vals = [int_value(a) for a in e.items] + [1, 1, 1]
        return (vals[0], vals[1], vals[2])
    return (int_value(e), 1, 1)


def _template_arg(a: ir.LaunchTemplateArg):
    if isinstance(a, ir.Expr):
        v = int_value(a)
        return v if v is not None else "?"
    return a


def collect_launches(tu: ir.TranslationUnit) -> list[LaunchSite]:
    """Every launch written in a non-kernel function of the linted file, in source order."""
    out = []
    for fn in tu.functions:
        if fn.kind == ir.FunctionKind.KERNEL or not fn.in_main_file or fn.body is None:
            continue
        for n in ir.walk(fn.body):
            if not isinstance(n, ir.Launch):
                continue
            out.append(LaunchSite(kernel=n.kernel, grid=dim3_value(n.grid), block=dim3_value(n.block),
                                  span=n.span, template_args=tuple(_template_arg(a) for a in n.template_args)))
    return out


def template_arg_text(a) -> str:
    return a.spelling() if isinstance(a, Type) else str(a)
