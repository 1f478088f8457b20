"""From the IR to the model rules read: launches, host-side async copies, and each kernel interpreted.

:func:`build_model` is the only entry point; the model it returns carries everything rules need (its
:class:`~cudalint.analysis.symbols.Symbols` included).
"""

from __future__ import annotations

import math
from typing import Optional

import sympy

from ..ir import nodes as ir
from ..ir.types import Type, TypeKind
from ..model import Kernel, TranslationUnitModel
from .interpreter import _SPACES, RECURSION_LIMIT, array_decl, interpret
from .host import collect_async_copies, strip_casts
from .merge import merge_accesses
from .registers import keep_in_registers
from .launches import collect_launches, launched_once, template_arg_text, unlaunched_kernels
from .symbols import GDIM, Symbols


def build_model(tu: ir.TranslationUnit, external: Optional[dict] = None,
                foreign: Optional[list] = None) -> TranslationUnitModel:
    """The model of ``tu``; the host walks (launches, copies) and the kernels' interpretation may recurse as
    deep as the code nests (600 nested blocks in a host function), under the IR's recursion limit.
    ``external``: what the program's other files pass the file's launching functions
    (:func:`cudalint.analysis.launches.collect_launches`); ``foreign``: the launches the program's other files make
    of kernels nothing in ``tu`` launches (:func:`cudalint.analysis.launches.foreign_launches`)."""
    with ir.recursion_limit(RECURSION_LIMIT):
        return _build_model(tu, external, foreign or [])


def _build_model(tu: ir.TranslationUnit, external: Optional[dict] = None,
                 foreign: Optional[list] = None) -> TranslationUnitModel:
    symbols = Symbols()
    model = TranslationUnitModel(path=tu.path, frontend=tu.frontend, errors=list(tu.errors),
                                 missing_includes=list(tu.missing_includes), dependencies=list(tu.dependencies),
                                 symbols=symbols, unit=tu,
                                 launches=_fitting(collect_launches(tu, external) + list(foreign or []), tu),
                                 unlaunched=_launched_elsewhere(unlaunched_kernels(tu), foreign or []),
                                 copies=collect_async_copies(tu))
    model.minor = launched_once(model.launches)
    globals_ = {v: arr for v in tu.globals if (space := _SPACES.get(v.space)) is not None
                and (arr := array_decl(v, space, {})) is not None}
    # launches of `k<double>` run an explicit specialization `template <> __global__ void k<double>` where there is one
    special = {(fn.name, fn.specializes) for fn in tu.kernels if fn.specializes}
    arities: dict[str, set] = {}
    for fn in tu.kernels:
        arities.setdefault(fn.name, set()).add(len(fn.template_params))
    for fn in tu.kernels:  # a template: each instantiation launched in this translation unit, in launch order
        arity = len(fn.template_params) if len(arities[fn.name]) > 1 else None  # overloaded: launches of its count
        insts = {fn.specializes: None} if fn.specializes else dict.fromkeys(
            s.template_args for s in model.launches if fn.template_params and s.kernel == fn.name
            and s.template_args and (fn.name, s.template_args) not in special and s.fits(arity))
        if fn.template_params and not fn.specializes:  # `template __global__ void k<4, 512>(..);` (bitsandbytes)
            insts.update(dict.fromkeys(args for name, args in tu.instances if name == fn.name
                                       and len(args) == len(fn.template_params) and None not in args
                                       and (fn.name, args) not in special))
        model.kernels += [_kernel(fn, targs, symbols, globals_) for targs in insts or [()]]
        for k in model.kernels[-len(insts or [()]):]:
            k.template_arity = arity
            consts = _constant_args(fn, k.template_args, model.launches)
            k.launch_args = {p.name: consts[p.name] for p in fn.params if p.name in consts and p.type.is_integer}
            k.default_args = {p.name: i for i, p in enumerate(fn.params) if p.name in k.launch_args}
            k.launch_max = _max_args(fn, k.template_args, model.launches, k.launch_args)
            k.launch_multiples = _multiple_args(fn, k.template_args, model.launches, k.launch_args)
            k.block_multiples = _block_multiple_args(fn, k.template_args, model.launches, k.launch_args,
                                                     k.launch_multiples)
            k.counter_params = frozenset(fn.params[i].name for s in model.launches if s.kernel == fn.name and (
                not k.template_args or s.template_args == k.template_args) for i in s.counters if i < len(fn.params))
            k.grid_bound = _grid_bound(fn, k.template_args, model.launches, symbols)
            k.launch_values = _launch_values(fn, k.template_args, model.launches, symbols)
            null = {p.name for p in fn.params if p.type.kind == TypeKind.POINTER and consts.get(p.name) == 0}
            null &= _null_tested(fn)  # a null placeholder in a launch the kernel does not test is not followed
            k.accesses = [a for a in k.accesses if a.array.name not in null]  # under `if (p != NULL)`: never run
    return model


def _launched_elsewhere(unlaunched: dict, foreign: list) -> dict:
    """:func:`cudalint.analysis.launches.unlaunched_kernels` less the kernels another file of the program launches
    (``foreign``): HeCBench's logic-rewrite defines `factorFromTruth` beside kernels its file launches and launches it
    from refactor_mffc.cu, where it was "neither launched nor named in this translation unit: it may never run"."""
    elsewhere = {s.kernel for s in foreign}
    return {k: why for k, why in unlaunched.items() if k not in elsewhere}


def _fitting(launches: list, tu: ir.TranslationUnit) -> list:
    """The launches that can run a kernel of ``tu``: one naming more template arguments than every kernel template of
    its name has parameters (none of them variadic) is no launch of it. clang does not check a launch inside a host
    template that is never instantiated: cuSZ's stale tuning code launches `hist<T, NWARP, CHUNK, FQ>` of a
    `template <typename T, typename FREQ, int K>` kernel, and its shape was taken as the kernel's."""
    most: dict[str, float] = {}
    for fn in tu.kernels:
        # an explicit specialization (`template <> __global__ void k<float>(..)`) has no parameters of its own and
        # takes its primary's arguments, which may be only declared: it bounds nothing
        variadic = any(p.type.spelling().endswith("...") for p in fn.params) or fn.specializes
        most[fn.name] = max(most.get(fn.name, 0), float("inf") if variadic else len(fn.template_params))
    return [s for s in launches if s.kernel not in most or len(s.template_args) <= most[s.kernel]]


def _sites(fn: ir.Function, targs: tuple, launches: list) -> list:
    """The launches of ``fn`` (of the instantiation ``targs``) in the translation unit."""
    return [s for s in launches if s.kernel == fn.name
            and (s.template_args == targs if targs else s.fits(len(fn.template_params) or None))]


def _launch_values(fn: ir.Function, targs: tuple, launches: list, symbols: Symbols) -> tuple:
    """:attr:`Kernel.launch_values`: per launch, ``({items: blocks*threads}, 8*blocks*threads)``."""
    sites = _sites(fn, targs, launches)
    if any(s.threads is None or len(s.arg_values) != len(fn.params) for s in sites):
        return ()
    return tuple(({symbols.param(p.name): a for p, a in zip(fn.params, s.arg_values) if a is not None}, s.threads)
                 for s in sites)


def _grid_bound(fn: ir.Function, targs: tuple, launches: list, symbols: Symbols) -> dict:
    """gridDim members that every launch of ``fn`` (of that instantiation) bounds alike from above
    (:attr:`LaunchSite.grid_bound`), with the launch's arguments read as the kernel's integer parameters:
    ``{gridDim.x: num/32}``; empty when it is not launched here."""
    sites = _sites(fn, targs, launches)
    if not sites or any(len(s.args) != len(fn.params) or len(s.grid_bound) != 3 for s in sites):
        return {}
    params = {sympy.Symbol(f"arg{i}", positive=True, integer=True): symbols.param(p.name)
              for i, p in enumerate(fn.params) if p.type.is_integer}
    out = {}
    for axis in range(3):
        found = {s.grid_bound[axis] for s in sites}
        g = found.pop() if len(found) == 1 else None
        if isinstance(g, sympy.Expr) and g.free_symbols <= set(params):
            out[GDIM[axis]] = g.xreplace(params)
    return out


def _constant_args(fn: ir.Function, targs: tuple, launches: list) -> dict:
    """The integer (and pointer) parameters of ``fn`` that every launch of it (of that instantiation) in the
    translation unit passes the same constant (a null pointer: 0): name -> value (none when it is not launched
    here).  The warp pictures use them (the addresses and guards of the launch the program makes); the code nvcc
    emits does not know them."""
    sites = _sites(fn, targs, launches)
    if not sites or any(len(s.args) != len(fn.params) for s in sites):
        return {}
    return {p.name: vals.pop() for i, p in enumerate(fn.params) if (p.type.is_integer or p.type.kind ==
            TypeKind.POINTER) and len(vals := {s.args[i] for s in sites}) == 1 and None not in vals}


def _max_args(fn: ir.Function, targs: tuple, launches: list, consts: dict) -> dict:
    """The integer parameters of ``fn`` (not bound to one constant) that every launch of it (of that instantiation)
    passes a value a test of the host bounds from above (:attr:`LaunchSite.arg_max`): name -> (the largest bound, the
    test's span); none when it is not launched here."""
    out = {}
    for p, found in _per_parameter(fn, targs, launches, "arg_max"):
        if p.type.is_integer and p.name not in consts and None not in found:
            out[p.name] = max(found, key=lambda b: b[0])
    return out


def _per_parameter(fn: ir.Function, targs: tuple, launches: list, attr: str) -> list[tuple]:
    """(parameter, what each launch of ``fn`` (of that instantiation) records of its argument in ``attr``) for every
    parameter: empty when it is not launched here or a launch's record does not cover every parameter."""
    sites = _sites(fn, targs, launches)
    if not sites or any(len(getattr(s, attr)) != len(fn.params) for s in sites):
        return []
    return [(p, [getattr(s, attr)[i] for s in sites]) for i, p in enumerate(fn.params)]


def _multiple_args(fn: ir.Function, targs: tuple, launches: list, consts: dict) -> dict:
    """The integer parameters of ``fn`` (not bound to one constant) that every launch of it (of that instantiation)
    in the translation unit passes a multiple of a number greater than 1 (:attr:`LaunchSite.multiples`): name ->
    (the common factor, where it comes from); none when it is not launched here."""
    out = {}
    for p, found in _per_parameter(fn, targs, launches, "multiples"):
        g = math.gcd(*(m for m, _ in found))
        if p.type.is_integer and p.name not in consts and g > 1:
            out[p.name] = (g, next((w for _, w in found if w is not None), None))
    return out


def _block_multiple_args(fn: ir.Function, targs: tuple, launches: list, consts: dict, multiples: dict) -> dict:
    """The integer parameters of ``fn`` that every launch of it (of that instantiation) passes a multiple of that
    launch's own block x size: a number dividing the argument's known factor (:attr:`LaunchSite.multiples`), or a
    host expression the argument's is a whole multiple of (:attr:`LaunchSite.block_sym`: ``batch*heads*channels``
    over ``channels``). mmcv's deformable attention launches ``n = batch*query*heads*channels`` items in blocks of
    ``channels`` threads (or of 512 when 512 divides it): no block straddles ``n``. Name -> the first launch's span.
    Not for a parameter whose common factor (``multiples``, :func:`_multiple_args`) the one numeric block of every
    launch already divides: that factor says more (``n`` a multiple of 1024, where)."""
    sites = _sites(fn, targs, launches)
    if not sites or any(len(s.multiples) != len(fn.params) or len(s.arg_values) != len(fn.params) for s in sites):
        return {}
    blocks = {s.block[0] for s in sites}
    block = blocks.pop() if len(blocks) == 1 else None

    def whole(s, i: int) -> bool:
        b, (m, _) = s.block[0], s.multiples[i]
        if isinstance(b, int) and b > 0:
            return m % b == 0 if m else False
        e, bs = s.arg_values[i], s.block_sym
        if e is None or bs is None or bs.is_number:
            return False
        num, den = sympy.fraction(sympy.cancel(e / bs))
        if den != 1:
            return False
        return bool(num.is_Integer) or num.is_polynomial() and all(c.is_Integer for c in sympy.Poly(num).coeffs())

    return {p.name: sites[0].span for i, p in enumerate(fn.params)
            if p.type.is_integer and p.name not in consts and all(whole(s, i) for s in sites)
            and not (isinstance(block, int) and block > 0 and multiples.get(p.name, (1, None))[0] % block == 0)}


def _null_tested(fn: ir.Function) -> set:
    """The pointers ``fn`` compares with null (``if (probs != NULL)``, ``if (!p)``, ``p ? .. : ..``)."""
    out = set()
    for n in ir.walk(fn.body):
        parts = [n.lhs, n.rhs] if isinstance(n, ir.Binary) and n.op in ("==", "!=") else [n.operand] if isinstance(
            n, ir.Unary) and n.op == "!" else [n.cond] if isinstance(n, (ir.If, ir.Cond)) else []
        out |= {x.var.name for x in map(strip_casts, parts) if isinstance(x, ir.Ref)
                and x.var.type.kind == TypeKind.POINTER}
    return out


def _kernel(fn: ir.Function, targs: tuple, symbols: Symbols, globals_: dict) -> Kernel:
    kernel = Kernel(name=fn.name, span=fn.span, template_args=targs, label=fn.name)
    pairs = list(zip(fn.template_params, targs))
    values = {tp.name: a for tp, a in pairs if isinstance(a, int) and not isinstance(a, bool)}
    # `K::COLS` of a traits class the instantiation passes as `K` (frontend.traits)
    values.update({f"{tp.name}::{m}": v for tp, a in pairs if isinstance(a, Type) for m, v in a.members})
    # what the class template's static_asserts guarantee of a dependent one (`COLS % THREADS_PER_WARP == 0`)
    values.update({f"{tp.name}::{m}": ("multiple", f"{tp.name}::{d}") for tp, a in pairs if isinstance(a, Type)
                   for m, d in a.multiples})
    bindings = {tp.name: a.size for tp, a in pairs if isinstance(a, Type) and a.size and a.kind != TypeKind.PARAM}
    if targs:
        texts = [template_arg_text(a) for a in targs]
        kernel.label = f"{fn.name}<{', '.join(texts)}>"
        # a launch in a host template passes its own parameters (`IdType = IdType`): only the bound ones are told
        bound = [f"{tp.name} = {t}" for tp, t in zip(fn.template_params, texts) if t != tp.name]
        kernel.instantiation = f"`{kernel.label}`" + (f" ({', '.join(bound)})" if bound else "") \
            if fn.template_params else None
    kernel.open_template_params = frozenset(tp.name for tp in fn.template_params
                                            if not tp.is_type and tp.name not in values)
    for tp in (tp for tp in fn.template_params if tp.is_type and tp.name not in bindings):
        bindings[tp.name] = 4
        kernel.incomplete_assumptions.append(
            f"template parameter {tp.name} assumed 4 bytes (no instantiation in this file)")
    kernel.incomplete.extend(fn.incomplete)
    types = {tp.name: a for tp, a in pairs if isinstance(a, Type) and a.kind != TypeKind.PARAM}
    interpret(fn, kernel, symbols, globals_, bindings, values, types)
    keep_in_registers(kernel)
    merge_accesses(kernel, frozenset(symbols.pow2))
    return kernel
