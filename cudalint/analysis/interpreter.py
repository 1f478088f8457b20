"""The abstract interpreter: one kernel of the IR -> its accesses, barriers, exits and divisions.

Every integer value becomes a sympy expression of ``threadIdx``/``blockIdx``/``blockDim``/``gridDim``,
kernel parameters, loop trip counters and opaque values (:mod:`cudalint.analysis.symbols`); every load or
store through a pointer or an array becomes an :class:`~cudalint.model.Access` whose ``offset`` is its byte
offset from the array's base.  Values are followed through locals, compound assignments, casts, pointer
arithmetic, multi-dimensional and ``extern __shared__`` arrays, struct fields, ``__device__`` helpers
(inlined, up to :data:`MAX_INLINE_DEPTH` deep) and template parameters (bound from the launch).

Uniformity rides on the symbols: a value is thread-varying when it depends on ``threadIdx``, on a value
loaded at a thread-varying address, or on an atomic's result (:meth:`Symbols.is_varying`).  A load at a
block-uniform address is uniform (in a race-free program every thread reading one address between two
barriers sees one value: GPUVerify's assumption); ``__shared__`` and ``__device__`` scalars are memory,
not locals.  What the interpreter cannot model (an unknown value) is not thread-varying: rules report
only proven thread dependence.  The conditions of every if/switch/?:/loop are kept, with their line, on
each barrier, exit and access they enclose (an ``else`` branch under the negated condition).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
import operator
import re
from dataclasses import dataclass, field, replace
from typing import Optional, Union

import sympy

from ..ir import nodes as ir
from ..ir.consts import fold
from ..ir.types import Type, TypeKind, pointer_to
from ..model import Access, AddressSpace, ArrayDecl, Barrier, Division, Exit, ExitKind, Kernel, SourceLine
from .merge import disjoint
from .symbols import BDIM, BID, BUILTINS, GDIM, TID, WARP_SIZE, Symbols, evaluated_relation, recombine_divmod

MAX_INLINE_DEPTH = 4
#: Python recursion allowed while interpreting a kernel (long generated expressions nest deeply; a deeper
#: one becomes CL000, and the worker process isolates any native stack overflow).
RECURSION_LIMIT = 50_000

BARRIERS = ("__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or")
#: whole-block (or grid) groups whose ``sync()`` is a block barrier; tile and coalesced-group syncs are
#: warp-level and not counted
BLOCK_GROUPS = ("thread_block", "grid_group", "cluster_group")
_TILE = re.compile(r"thread_block_tile<\s*(\d+)")


class Dim3(tuple):
    """A ``dim3`` a cooperative group returns (``block.thread_index()``, ``grid.block_index()``): its x, y, z
    values, read by a member access (``.x``)."""


def group_value(type_name: str, method: str) -> Union[sympy.Expr, Dim3, None]:
    """The value of a cooperative group's accessor ``method`` (``thread_rank``, ``group_index``, ...) for a
    group of type ``type_name`` (``thread_block``, ``grid_group``, ``thread_block_tile<32>``), in
    threadIdx/blockIdx/blockDim/gridDim, as the toolkit defines it (``cooperative_groups/details/helpers.h``;
    CUDA C++ Programming Guide, "Cooperative Groups": a block's thread_rank is ``threadIdx`` linearised x
    fastest, a grid's is its block's rank times the block size plus that). None for an accessor or group not
    modelled (a run-time ``tiled_partition(block, n)``, a coalesced group)."""
    kind = type_name.split("<", 1)[0].split("::")[-1].strip()
    rank = TID[0] + TID[1] * BDIM[0] + TID[2] * BDIM[0] * BDIM[1]
    size = BDIM[0] * BDIM[1] * BDIM[2]
    if kind == "thread_block":
        return {"thread_rank": rank, "size": size, "num_threads": size, "group_index": Dim3(BID),
                "thread_index": Dim3(TID), "group_dim": Dim3(BDIM), "dim_threads": Dim3(BDIM),
                "block_dim": Dim3(BDIM)}.get(method)
    if kind == "grid_group":
        block_rank = BID[0] + BID[1] * GDIM[0] + BID[2] * GDIM[0] * GDIM[1]
        blocks = GDIM[0] * GDIM[1] * GDIM[2]
        return {"thread_rank": block_rank * size + rank, "block_rank": block_rank, "size": blocks * size,
                "num_threads": blocks * size, "num_blocks": blocks, "block_index": Dim3(BID),
                "dim_blocks": Dim3(GDIM), "group_dim": Dim3(GDIM),
                "dim_threads": Dim3(g * b for g, b in zip(GDIM, BDIM)),
                "thread_index": Dim3(i * b + t for i, b, t in zip(BID, BDIM, TID))}.get(method)
    if kind == "thread_block_tile" and (m := _TILE.search(type_name)):
        n = int(m.group(1))
        return {"thread_rank": rank % n, "size": sympy.Integer(n), "num_threads": sympy.Integer(n),
                "meta_group_rank": sympy.floor(rank / n), "meta_group_size": sympy.ceiling(size / n)}.get(method)
    return None


LOADS = ("__ldg", "__ldca", "__ldcg", "__ldcs", "__ldlu", "__ldcv")
#: texture and surface fetches (CUDA C++ Programming Guide, "Texture and Surface Memory")
TEXTURE = re.compile(r"tex(1D|2D|3D|Cubemap)\w*|surf(1D|2D|3D|Cubemap)\w*(read|write)")
#: PTX memory instructions in inline assembly, a pattern per space (PTX ISA: ld, st, ldmatrix, stmatrix, cp.async,
#: atom, red): traffic the kernel makes whose lanes cudalint does not model
ASM_MEMORY = {
    AddressSpace.SHARED: re.compile(r"\b(?:ld|st|atom|red)\.shared\b|\bldmatrix\b|\bstmatrix\b|\bcp\.async\b"),
    AddressSpace.GLOBAL: re.compile(r"\b(?:ld|st|atom|red)\.global\b|\bcp\.async\.c[ag]\b"),
}
#: calls that order memory accesses (CUDA C++ Programming Guide, "Memory Fence Functions", "Warp Sync Function"):
#: no access is kept in a register across them
FENCES = ("__threadfence", "__threadfence_block", "__threadfence_system", "__syncwarp")
#: a scoped atomic's suffix (`atomicAdd_system`, `atomicAdd_block`): the same operation
_SCOPED = re.compile(r"_(system|block)$")


def _reads_only(name: str, vals: list) -> bool:
    """Whether atomic ``name`` with argument values ``vals`` leaves memory as it was: adding, subtracting, or-ing or
    xor-ing 0, or a compare-and-swap that writes back the value it compares with."""
    if name in ("atomicAdd", "atomicSub", "atomicOr", "atomicXor") and len(vals) == 2:
        return isinstance(vals[1], sympy.Basic) and vals[1] == 0
    return name == "atomicCAS" and len(vals) == 3 and isinstance(vals[1], sympy.Basic) and vals[1] == vals[2]


#: calls whose result differs between threads even with uniform arguments (an atomic that leaves memory as it was
#: is a read: :func:`_reads_only`)
VARYING_CALLS = ("atomicAdd", "atomicSub", "atomicExch", "atomicMin", "atomicMax", "atomicInc", "atomicDec",
                 "atomicCAS", "atomicAnd", "atomicOr", "atomicXor", "clock", "clock64", "__activemask")
_SPACES = {ir.Space.SHARED: AddressSpace.SHARED, ir.Space.CONSTANT: AddressSpace.CONSTANT,
           ir.Space.GLOBAL: AddressSpace.GLOBAL, ir.Space.MANAGED: AddressSpace.GLOBAL}


@dataclass(frozen=True)
class Pointer:
    """A pointer (or array) value: base array, byte offset expression, pointee size, the remaining inner
    extents of a multi-dimensional array (``(C,)`` for ``T a[R][C]`` after ``a[i]``), the subscripts so far
    and the pointee type."""

    array: ArrayDecl
    offset: sympy.Expr
    elem_size: int
    dims: tuple = ()
    subscripts: tuple = ()
    pointee: Optional[Type] = None
    #: for the address of a (nested) field (`&p[i].pos`): the size of the array element it lies in and its byte
    #: offset there, so `p[i].pos.y` is reported as byte 4 of the 16-byte element, not of a 12-byte `float3`
    outer: tuple = field(default=(), compare=False)


@dataclass(frozen=True)
class Alias:
    """A reference bound to memory (``Node& n = nodes[blockIdx.x]``, a ``T&`` parameter bound to ``s[i]``):
    reading it loads at ``ptr``, writing it stores there."""

    ptr: Pointer


@dataclass(frozen=True)
class Record:
    """A struct kernel parameter (``Params p``: nvdiffrast's and OptiX-style kernels take their pointers and sizes
    in one struct), or a field of one that is itself a struct: the same for every thread.  Its scalar fields read
    as the run-time values ``p.width``, one symbol per field, and its pointer fields as global arrays ``p.out``, one
    per field, as pointer parameters do (:meth:`KernelInterpreter.record_field`)."""

    name: str
    type: Type = field(compare=False)


#: a PyTorch tensor accessor's type (`at::GenericPackedTensorAccessor<float, 2, at::RestrictPtrTraits, int>`,
#: `torch::PackedTensorAccessor32<scalar_t, 3, ...>`, `TensorAccessor<T, 1, ...>`): its element type and dimensions
ACCESSOR = re.compile(r"(?:\w+::)*(?:Generic)?(?:Packed)?TensorAccessor(?:32|64)?<\s*([\w:]+(?:\s+\w+)*)\s*,\s*(\d+)")
_SCALAR_BYTES = {"float": 4, "double": 8, "Half": 2, "half": 2, "__half": 2, "BFloat16": 2, "__nv_bfloat16": 2,
                 "int": 4, "unsigned int": 4, "int32_t": 4, "uint32_t": 4, "unsigned": 4, "long": 8, "int64_t": 8,
                 "long long": 8, "uint64_t": 8, "short": 2, "int16_t": 2, "char": 1, "int8_t": 1, "uint8_t": 1,
                 "unsigned char": 1, "bool": 1}


@dataclass(frozen=True)
class Accessor:
    """A PyTorch tensor accessor (``PackedTensorAccessor32<float, 3, RestrictPtrTraits> x``, or ``x[i]`` of one):
    ``ptr`` the element it starts at, ``sizes`` the extents of its remaining dimensions (``x.size(1)``, run-time
    values).  ``x[i][j]`` is the element at ``i * x.stride(0) + j * x.stride(1)``; the tensor is taken as contiguous
    (``stride(d)`` the product of the later sizes: what ``.contiguous()`` before ``packed_accessor32`` makes, the
    common case in extension code), so the last index moves by one element."""

    ptr: Pointer
    sizes: tuple

    def stride(self, d: int) -> sympy.Expr:
        """Elements between consecutive indices of dimension ``d`` (0: this accessor's first)."""
        return sympy.Mul(*self.sizes[d + 1:])


Value = Union[sympy.Expr, Pointer, Alias, Dim3, Record, Accessor, None]
#: a variable (:class:`~cudalint.ir.nodes.Variable`) -> its value, at one point of the kernel
Env = dict


def is_condition(v) -> bool:
    """A symbolic truth value (a comparison, and/or/not of them, true/false) -- not a plain symbol, which
    sympy also counts as Boolean."""
    return isinstance(v, (sympy.core.relational.Relational, sympy.logic.boolalg.BooleanFunction,
                          sympy.logic.boolalg.BooleanAtom))


def _words(size: int, align: Optional[int]) -> list[tuple[int, int]]:
    """The accesses nvcc moves a field of ``size`` bytes and alignment ``align`` with: one where its size is a
    power of two no larger than 16 and not above its alignment, else ``align``-byte words (a ``float3`` with no
    fields in the type, 12 bytes aligned to 4: three 4-byte words; PCL's ``Mat33`` of three ``float3``)."""
    if not align or align >= size or size in (1, 2, 4, 8, 16) and size <= align or size % align:
        return [(0, size)]
    return [(o, align) for o in range(0, size, align)]


#: calls that do more than compute their value (memory, synchronization, output, time): a declaration whose
#: initializer makes one is kept even when nothing reads the variable
_EFFECT_CALLS = re.compile(r"atomic|sync|fence|printf|assert|trap|brkpt|nanosleep|clock|malloc|free|memcpy|memset|"
                           r"__st[a-z]*$|_store|_write|^__prof|red\.|barrier|arrive|wait")


def used_variables(fn: ir.Function) -> tuple[set, str]:
    """The variables ``fn`` and the device functions it calls (transitively) read or write by name, and the text
    of their inline assembly (which names variables only in its operands' text)."""
    seen, used, asm, todo = set(), set(), [], [fn]
    while todo:
        f = todo.pop()
        if id(f) in seen or f.body is None:
            continue
        seen.add(id(f))
        for n in ir.walk(f.body):
            if isinstance(n, ir.Ref):
                used.add(n.var)
            elif isinstance(n, ir.Call) and n.func is not None:
                todo.append(n.func)
            elif isinstance(n, ir.Asm):
                asm.append(n.text)
    return used, "\n".join(asm)


def pure(e: Optional[ir.Node], depth: int = 0) -> bool:
    """Whether evaluating ``e`` only computes a value: no store through a pointer or to a variable outside the
    function, no volatile access, no call with an effect (:data:`_EFFECT_CALLS`), no member call, launch, ``new``,
    assembly or construct the front-end left opaque; calls of device functions whose bodies are pure (three deep).
    nvcc deletes the loads of such an expression when nothing reads its value (dead-code elimination: a
    non-volatile load has no effect of its own)."""
    for n in ir.walk(e) if e is not None else ():
        if isinstance(n, (ir.Launch, ir.New, ir.Lambda, ir.Opaque, ir.Asm)) or \
                getattr(getattr(n, "type", None), "volatile", False):
            return False
        if isinstance(n, ir.Assign) or isinstance(n, ir.Unary) and n.op in ("pre++", "pre--", "post++", "post--"):
            root = n.target if isinstance(n, ir.Assign) else n.operand
            while isinstance(root, (ir.Member, ir.Index)) and not getattr(root, "arrow", False) \
                    and root.base.type.kind != TypeKind.POINTER:
                root = root.base
            if not (isinstance(root, ir.Ref) and root.var.storage == ir.Storage.LOCAL
                    and root.var.space == ir.Space.LOCAL and root.var.type.kind != TypeKind.REFERENCE):
                return False
        if isinstance(n, ir.Call):
            if n.receiver is not None or _EFFECT_CALLS.search(n.name):
                return False
            if n.func is not None and (n.func.body is None or depth >= 3 or not pure(n.func.body, depth + 1)):
                return False
    return True


def as_number(v):
    """``v`` where C++ reads it as an integer (an index, an operand of arithmetic): a comparison or its and/or
    is 1 where it holds and 0 elsewhere (``a[threadIdx.x > 16]``, ``c += (d <= 1.0f)``); any other value as it is."""
    return sympy.Piecewise((1, v), (0, True)) if is_condition(v) else v


_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul}
_RELATIONS = {"<": sympy.Lt, ">": sympy.Gt, "<=": sympy.Le, ">=": sympy.Ge, "==": sympy.Eq, "!=": sympy.Ne}
#: loops of at most this many constant trips are taken as unrolled by nvcc (:meth:`KernelInterpreter.mark_unrolled`)
UNROLLED_TRIPS = 16

#: shifts by at least this many bits are not modelled: C++ leaves a shift by the operand's width or more
#: undefined (the widest integer is 64 bits), and ``2 ** 4000000000`` would not finish
MAX_SHIFT = 64


def constant_trips(trip: sympy.Symbol, cond) -> Optional[int]:
    """How many trips a loop runs whose condition ``cond`` depends on its trip counter ``trip`` only and holds for a
    constant number of trips, at most :data:`UNROLLED_TRIPS` (``for (i = 0; i < 8; ++i)``: 8): nvcc unrolls it
    completely into straight-line code.  None for any other loop (a run-time bound, more trips, no condition)."""
    if not is_condition(cond) or cond.free_symbols != {trip}:
        return None
    try:
        holds = [bool(cond.xreplace({trip: t})) for t in range(UNROLLED_TRIPS + 2)]
    except TypeError:
        return None
    trips = holds.index(False) if False in holds else None
    return None if trips is None or any(holds[trips:]) else trips


def fixed_trips(trip: sympy.Symbol, cond) -> Optional[int]:
    """The most trips a thread makes in a loop whose count no run-time value sets: :func:`constant_trips` of its
    condition, for thread 0 when the condition also depends on threadIdx (a block-strided loop
    ``for (l = threadIdx.x; l < 1024; l += 256)``: 4).  None when the loop's bound is a run-time value (a kernel
    parameter, blockDim, a loaded value) or it runs more than :data:`UNROLLED_TRIPS` trips."""
    if not is_condition(cond) or trip not in cond.free_symbols or not cond.free_symbols - {trip} <= set(TID):
        return None
    return constant_trips(trip, cond.xreplace({t: 0 for t in TID}))


_COMPOUND = {op + "=": op for op in ("+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^")}


def array_decl(var: ir.Variable, space: AddressSpace, bindings: dict) -> Optional[ArrayDecl]:
    """The :class:`ArrayDecl` of an array variable (None when its element size is unknown)."""
    dims, elem = var.type.array_dims()
    esize = elem.size_with(bindings)
    if not esize:
        return None
    spans = tuple(s for _, s in var.extents) if len(var.extents) == len(dims) else ()
    texts = tuple(t for t, _ in var.extents) if spans else ()
    return ArrayDecl(name=var.name, space=space, elem_type=elem.spelling(), elem_size=esize, dims=dims,
                     dim_spans=spans, dim_texts=texts, declared_at=var.span, align=var.align)


class KernelInterpreter:
    """Abstract interpretation of one kernel body (and the device functions it calls)."""

    def __init__(self, kernel: Kernel, symbols: Symbols, globals_: dict, bindings: dict, values: dict,
                 types: Optional[dict] = None):
        self.kernel = kernel
        self.symbols = symbols
        self.globals = globals_          # Variable -> ArrayDecl of file-scope arrays
        self.bindings = bindings          # template type parameter -> size in bytes
        self.values = values              # template non-type parameter -> int (a traits member: ("multiple", of))
        self.types = types or {}          # template type parameter -> the launched Type (its fields and alignment)
        self.sizes: dict = {}             # value -> the operations it was built from (:data:`MAX_OPERATIONS`)
        self.ranged: set = set()          # values nvcc knows the range of (:meth:`known_nonnegative`)
        self.loop_marks: list = []        # the symbol mark at the start of each loop around (Symbols.mark)
        self.guards: list[tuple[Value, int]] = []
        self.exit_guards: set[int] = set()  # ids of the entries of guards that earlier exits entered (block_item)
        self.left: Value = None           # `!c` of the `if (c) return;` just walked (block_item)
        self.depth = 0
        self.returns: list[Value] = []
        self.loops: list[int] = []        # ids of the enclosing loops
        self.trips: list[sympy.Symbol] = []  # their trip counters (Symbols.loop_conds holds each one's condition)
        self.choices: list[tuple[int, int]] = []  # the undecided `if constexpr` branches around (Access.choices)
        self.storing: Value = None        # the value the store being evaluated writes
        # thread-private arrays a thread-varying value was stored to: id -> the constant byte offsets it went to, or
        # None where an offset was not constant
        self.local_varying: dict[int, set] = {}
        self.breakable: list[str] = []    # 'loop' / 'switch': what a `break` leaves
        self.call_chain: list[tuple[str, int]] = []
        self.order = itertools.count(1)   # the visit order of barriers, exits and loops
        self.fence = 0                    # accesses before this index may not serve a later load again
        self.zero_tests: set[int] = set()  # ids of `x % c` nodes compared with 0 (`t % 16 == 0`)
        self.atomics: list[tuple[int, ArrayDecl]] = []  # (accesses made before it, its array) of each atomic since
        self.region = 0                   # counts the barriers, atomics and loop boundaries passed
        self.constant_pointers: dict = {}  # (constant array, offset, field) -> the pointer loaded there
        self.record_arrays: dict = {}  # `p.out` of a struct parameter -> the global array it points to
        self.member_arrays: dict = {}  # the opaque value of `p.dims`, an array member of one -> "p.dims"
        self.bases: dict[int, sympy.Symbol] = {}  # array id -> its base address over its alignment (:meth:`address`)
        self.epoch = 0                    # counts barriers, atomics, fences, assembly, unseen calls (Access.epoch)
        self.jumps = 0                    # counts the exit statements passed (Access.exits)
        self.tail: Optional[ir.Stmt] = None  # the helper's closing `return`, which skips nothing
        self.used: set = set()            # the variables the kernel and its helpers name (:func:`used_variables`)
        self.asm_text = ""                # their inline assembly's text

    # ---- bookkeeping
    def push_guard(self, value: Value, line: int) -> None:
        """Enter a condition (if/switch/?:/loop) whose value is ``value``; its line is kept for messages."""
        if isinstance(value, (Pointer, Alias)):
            value = self.opaque("pointer", value)  # `if (p)`: as uniform as the pointer
        if isinstance(value, sympy.Basic) and not is_condition(value):
            value = sympy.Ne(value, 0)  # `if (n)`, `if (tid & 1)`
        self.guards.append((value, line))

    def cut(self) -> None:
        """A barrier, an atomic or a loop boundary: no access before it is merged with or reused by one
        after it (:meth:`reloads`, :mod:`cudalint.analysis.merge`)."""
        self.fence = len(self.kernel.accesses)
        self.region += 1

    def barrier(self, name: str, node: ir.Node) -> None:
        self.cut()
        self.epoch += 1
        self.kernel.barriers.append(Barrier(name, node.span, self.branch_guards(), tuple(self.loops), next(self.order),
                                            tuple(self.call_chain)))

    def exit(self, kind: ExitKind, node: ir.Node) -> None:
        if kind == ExitKind.BREAK and self.breakable and self.breakable[-1] == "switch":
            return  # leaves a switch, not a loop
        self.kernel.exits.append(Exit(kind, node.span, self.branch_guards(), tuple(self.loops), next(self.order)))

    def opaque(self, hint: str, *deps: Value, unseen: bool = False) -> sympy.Symbol:
        """A fresh opaque value, thread-varying when any of ``deps`` is proven to be (an unknown dependency
        is not); ``unseen``: the result of a call cudalint cannot see into (:meth:`Symbols.opaque`)."""
        deps = tuple(x for d in deps for x in (d if isinstance(d, Dim3) else (d,)))
        values = [d.ptr.offset if isinstance(d, Alias) else d.offset if isinstance(d, Pointer) else d for d in deps]
        varying = any(isinstance(v, sympy.Basic) and self.symbols.is_varying(v) for v in values)
        return self.symbols.opaque(hint, varying, sources=tuple(v for v in values if isinstance(v, sympy.Basic)),
                                   unseen=unseen)

    def size_of(self, t: Optional[Type]) -> Optional[int]:
        return t.size_with(self.bindings) if t is not None else None

    # ---- statements
    def stmt(self, s: Optional[ir.Stmt], env: Env) -> None:
        if s is None:
            return
        if isinstance(s, ir.Block):
            pushed = 0
            for x in s.body:
                pushed += self.block_item(x, env)
            self.leave_exits(pushed)
        elif isinstance(s, ir.Decl):
            self.decl(s, env)
        elif isinstance(s, ir.ExprStmt):
            self.expr(s.expr, env)
        elif isinstance(s, ir.If):
            self.stmt(s.init, env)
            cond = self.expr(s.cond, env)
            known = cond if cond in (sympy.true, sympy.false) else cond != 0 if isinstance(cond, sympy.Number) else None
            if known is not None:  # `if constexpr (!Atomic)` of an instantiation, `if (0)`: only the branch taken
                self.stmt(s.then if known else s.else_, env)
                return
            branches, ops = [env.copy(), env.copy()], []
            before = dict(self.kernel.ops)
            for i, (guard, body, b_env) in enumerate(zip((cond, negate(cond)), (s.then, s.else_), branches)):
                self.push_guard(guard, SourceLine.of(s.span))  # the else branch runs where the condition fails
                self.kernel.ops = dict(before)
                # `if constexpr .. else ..`: one branch is compiled, which one cudalint cannot tell (without an else,
                # the body is compiled or not as a whole: an architecture guard around a kernel's body is left as is)
                alternatives = s.constexpr and s.else_ is not None
                if alternatives:
                    self.choices.append((id(s), i))
                self.stmt(body, b_env)
                if alternatives:
                    self.choices.pop()
                ops.append(self.kernel.ops)
                self.guards.pop()
            # a thread runs one branch: the operations of the costlier one count (Kernel.ops)
            self.kernel.ops = {k: max(o.get(k, 0) for o in ops) for k in ops[0].keys() | ops[1].keys()}
            self.merge(env, branches, cond)
            if s.else_ is None and _jumps(s.then):  # `if (c) return;`: the rest of the block runs where c fails
                self.left = negate(cond)
        elif isinstance(s, ir.Loop):
            self.loop(s, env)
        elif isinstance(s, ir.Switch):
            cond = self.expr(s.cond, env)
            self.breakable.append("switch")
            inner = env.copy()
            if not self.cases(s, cond, inner):
                self.push_guard(cond, SourceLine.of(s.span))
                self.stmt(s.body, inner)
                self.guards.pop()
            self.breakable.pop()
            self.merge(env, [inner, env.copy()], cond)
        elif isinstance(s, (ir.Case, ir.Label)):
            self.stmt(s.body, env)
        elif isinstance(s, ir.Return):
            self.returns.append(self.expr(s.value, env))
            self.jumps += s is not self.tail
            if self.depth == 0:
                self.exit(ExitKind.RETURN, s)
        elif isinstance(s, ir.Jump):
            self.jumps += 1
            self.exit(ExitKind(s.kind.value), s)
        elif isinstance(s, ir.Asm):
            self.epoch += 1
            # each PTX instruction of the assembly is an operation (ccminer's `lop3.b32`, `shf.r.wrap.b32`)
            self.work(True, None, n=max(1, len([x for x in re.sub(r"//[^\n]*", "", s.text).split(";") if x.strip()])))
            if any(b in s.text for b in ("bar.sync", "barrier.sync", "bar.red")):
                self.barrier("bar.sync", s)
            for space, pattern in ASM_MEMORY.items():  # memory traffic one_shot counts; its lanes are not modelled
                if pattern.search(s.text):
                    self.kernel.accesses.append(Access(
                        ArrayDecl("asm", space, "asm", 0), None, 0, True, False, s.span,
                        loop_depth=len(self.loops), loop_trips=tuple(self.trips)))

    def block_item(self, x: ir.Stmt, env: Env) -> int:
        """Walk ``x``, a statement of a block; when it is ``if (c) return;`` (or ``break``, ``continue``), enter
        ``!c`` for the accesses of the statements after it in the block (:attr:`exit_guards`): 1, else 0.  A lane
        that took the exit makes none of them (HeCBench's resnet winograd: ``if (Inx > 3 ...) return;`` leaves at
        most 4 of a row's 6 lanes: fixtures/global/switch_cases.cu)."""
        self.left = None
        self.stmt(x, env)
        left, self.left = self.left, None
        if left is None or not isinstance(x, ir.If) or not isinstance(left, sympy.Basic):
            return 0
        self.guards.append(entry := (left, SourceLine.of(x.span)))
        self.exit_guards.add(id(entry))
        return 1

    def leave_exits(self, n: int) -> None:
        """Drop the last ``n`` guards :meth:`block_item` entered (the end of their block)."""
        for _ in range(n):
            self.exit_guards.discard(id(self.guards.pop()))

    def branch_guards(self) -> tuple:
        """The guards of the branches around the current statement, without those of earlier exits
        (:meth:`block_item`): what a barrier, an exit or a division sits under."""
        return tuple(e for e in self.guards if id(e) not in self.exit_guards)

    def cases(self, s: ir.Switch, cond: Value, env: Env) -> bool:
        """Walk the body of ``switch (cond)`` region by region, each under the condition that enters it: ``cond ==
        v`` after ``case v:``, or'ed with the previous region's where that one falls through, none of the values
        after ``default:`` (HeCBench's resnet winograd kernels store one output row per ``case`` of
        ``threadIdx.y``: fixtures/global/switch_cases.cu).  False, walking nothing, for a switch whose labels are
        not all constants directly in its body (a ``case`` nested in a block: Duff's device)."""
        items = s.body.body if isinstance(s.body, ir.Block) else None
        while items is not None and len(items) == 1 and isinstance(items[0], ir.Block):
            items = items[0].body
        if items is None or not isinstance(cond, sympy.Basic) or is_condition(cond):
            return False
        labels = []  # per item: the case values it carries (None for default), or None for a plain statement
        for x in items:
            vals = []
            while isinstance(x, ir.Case):
                v = self.expr(x.value, env, record=False) if x.value is not None else None
                if x.value is not None and not (isinstance(v, sympy.Basic) and v.is_Integer):
                    return False
                vals.append(v)
                x = x.body
            if any(isinstance(n, ir.Case) for n in ir.walk(x)):
                return False
            labels.append(vals or None)
        every = [v for vals in labels if vals for v in vals if v is not None]
        region, pushed, prev, exits = None, False, None, 0
        for x, vals in zip(items, labels):
            if vals is not None:
                g = sympy.Or(*(sympy.Eq(cond, v) if v is not None else
                               sympy.And(*(sympy.Ne(cond, w) for w in every)) for v in vals))
                if region is not None and not _jumps(prev):
                    g = sympy.Or(region, g)  # reached by falling through from the region above too
                self.leave_exits(exits)
                exits = 0
                if pushed:
                    self.guards.pop()
                self.push_guard(g, SourceLine.of(x.span))
                region, pushed = g, True
            inner = x
            while isinstance(inner, ir.Case):  # `case 2: if (t == 3) break;`: the if is the region's first item
                inner = inner.body
            exits += self.block_item(inner, env)
            prev = x
        self.leave_exits(exits)
        if pushed:
            self.guards.pop()
        return True

    def instantiate_extents(self, arr: ArrayDecl, var: ir.Variable, env: Env) -> ArrayDecl:
        """``arr`` with the extents its type leaves to the template's arguments (``float As[BM * BK]``) evaluated
        for this instantiation, where they come out as positive integers."""
        if len(var.extent_exprs) != len(arr.dims) or None not in arr.dims:
            return arr
        dims = tuple(d if d is not None or x is None else self.expr(x, env, record=False)
                     for d, x in zip(arr.dims, var.extent_exprs))
        dims = tuple(int(d) if isinstance(d, sympy.Integer) and d > 0 else d if isinstance(d, int) else None
                     for d in dims)
        return replace(arr, dims=dims) if dims != arr.dims else arr

    def decl(self, d: ir.Decl, env: Env) -> None:
        var, t = d.var, d.var.type
        if t.kind == TypeKind.ARRAY:
            space = {ir.Space.SHARED: AddressSpace.SHARED, ir.Space.CONSTANT: AddressSpace.CONSTANT}.get(
                var.space, AddressSpace.LOCAL)
            if (arr := array_decl(var, space, self.bindings)) is not None:
                arr = self.instantiate_extents(arr, var, env)
                env[var] = Pointer(arr, sympy.Integer(0), arr.elem_size, arr.dims[1:], (), var.type.array_dims()[1])
            self.array_init(d.init, env[var] if arr is not None else None, env)
            return
        if is_memory(var):
            return  # a `__shared__`/static scalar: every read is a load at one address
        # a variable nothing reads, initialized without effects: nvcc deletes its loads (``pure``)
        dead = d.init is not None and var not in self.used and pure(d.init) and \
            not re.search(rf"\b{re.escape(var.name)}\b", self.asm_text)
        val = self.bind(d.init, env) if t.kind == TypeKind.REFERENCE and d.init is not None else \
            self.expr(d.init, env, record=not dead)
        if t.kind == TypeKind.POINTER and isinstance(val, Pointer):
            val = self.retype(val, t.pointee)
        env[var] = val if val is not None else self.symbols.opaque(var.name, varying=False)

    def address(self, p: Pointer) -> Value:
        """The address ``p`` holds, as an integer (``reinterpret_cast<uintptr_t>(p)``): ``A * base + offset``
        with ``A`` a block-uniform integer and ``base`` the alignment the array's start is known to have, 256 bytes
        for global memory (CUDA C++ Programming Guide, "Device Memory Accesses": an address returned by the
        runtime's allocation routines is always aligned to at least 256 bytes), 16 for dynamic shared memory
        (``extern __shared__``, which nvcc aligns for any vector type), the element's alignment for a static
        shared array; so that a test of the pointer's alignment (``% 16 == 0``, ``& 15``) at an offset that is a
        multiple of 16 bytes holds, and the misaligned fallback it guards is never taken
        (fixtures/shared/alignment_test.cu).  An opaque value for other memory."""
        arr = p.array
        if arr.space == AddressSpace.GLOBAL:
            base = 256
        elif arr.space == AddressSpace.SHARED:
            base = 16 if arr.dims[:1] == (None,) else max(1, min(16, arr.elem_size & -arr.elem_size))
        else:
            return self.opaque("address", p)
        sym = self.bases.setdefault(id(arr), self.symbols.opaque(f"&{arr.name}", varying=False))
        return base * sym + p.offset

    def array_init(self, init: Optional[ir.Expr], arr: Optional[Pointer], env: Env) -> None:
        """Evaluate an array's initialiser (``const float a[7] = {x, p[0], p[1]}``): the loads it makes are the
        kernel's accesses, and a thread's own array (``arr`` local) has the element at each constant position
        marked as :meth:`private` does for a store of a thread-varying value."""
        if init is None:
            return
        items = init.items if isinstance(init, ir.InitList) else None
        if items is None or arr is None or arr.array.space != AddressSpace.LOCAL or not arr.elem_size or arr.dims:
            self.expr(init, env)
            return
        for i, x in enumerate(items):
            self.storing = self.expr(x, env)
            self.private(id(arr.array), sympy.Integer(i * arr.elem_size), "write")
            self.storing = None

    def bind(self, init: ir.Expr, env: Env, record: bool = True) -> Value:
        """What a reference bound to ``init`` is: an :class:`Alias` of the memory it names, or (bound to a
        local or a temporary) its value."""
        if isinstance(init, (ir.Index, ir.Member)) or (isinstance(init, ir.Unary) and init.op == "*"):
            p = self.expr(init, env, mode="addr", record=record)
            if isinstance(p, Pointer):
                return Alias(p)
        if isinstance(init, ir.Ref) and isinstance(env.get(init.var), Alias):
            return env[init.var]
        return self.expr(init, env, record=record)

    def retype(self, p: Pointer, pointee: Optional[Type], keep_dims: bool = False) -> Pointer:
        """``p`` seen as a pointer to ``pointee`` (a cast, an initialisation or a parameter of another
        pointer type): elements of the new type's size when it differs."""
        psize = self.size_of(pointee)
        return Pointer(p.array, p.offset, psize, (), p.subscripts if keep_dims else (), pointee) \
            if psize and psize != p.elem_size else p

    def merge(self, env: Env, branches: list[Env], cond: Value) -> None:
        for key in functools.reduce(operator.or_, map(set, branches)):
            vals = [b.get(key) for b in branches]
            v0 = vals[0]
            same = all(v == v0 for v in vals) and (key in env or isinstance(v0, sympy.Basic)
                                                   or all(v is v0 for v in vals))
            # pointers into one array at one offset (element sizes may differ)
            same = same or all(isinstance(v, Pointer) and v.array.name == v0.array.name and v.offset == v0.offset
                               for v in vals)
            env[key] = v0 if same else self.opaque(key.name, cond, *vals)

    # ---- loops
    @staticmethod
    def loop_updates(roots: list[ir.Node], carried: bool = False) -> dict:
        """One walk over a loop's body and step: for every variable assigned there, the list of its
        updates as ``(form, rhs, op)``, form being "assign", "compound" or "incdec" (``op``: the compound
        operator, or +1/-1 for ``++``/``--``).  ``carried``: only the updates that can reach the next trip, not
        those in a block that always leaves the loop (lmdeploy's top-p/min-p scan: `if (count != 0) { if (..) { ++i;
        ..; } break; }` beside the loop's `i += BLOCK_SIZE`, a CL301 error judged against its uniform trips)."""
        out: dict = {}
        for root in roots:
            for n in (_carried_walk(root) if carried else ir.walk(root)):
                if isinstance(n, ir.Assign) and isinstance(n.target, ir.Ref):
                    out.setdefault(n.target.var, []).append(("assign" if n.op == "=" else "compound", n.value, n.op))
                elif isinstance(n, ir.Unary) and n.op in ("pre++", "pre--", "post++", "post--") \
                        and isinstance(n.operand, ir.Ref):
                    out.setdefault(n.operand.var, []).append(("incdec", None, 1 if n.op.endswith("++") else -1))
        return out

    def induction_step(self, updates: list, var: ir.Variable, env: Env, modified: set) -> Optional[sympy.Expr]:
        """If every update adds a loop-invariant amount (``+=``, ``-=``, ``++``, ``--``, ``v = v + c``),
        return it."""
        step = None
        for form, rhs, op in updates:
            if form == "assign":  # `v = v + c`, `v = c + v`, `v = v - c`
                if not (isinstance(rhs, ir.Binary) and rhs.op in ("+", "-")):
                    return None
                own = [isinstance(x, ir.Ref) and x.var is var for x in (rhs.lhs, rhs.rhs)]
                if not own[0] and not (own[1] and rhs.op == "+"):
                    return None
                form, op, rhs = "compound", rhs.op + "=", rhs.rhs if own[0] else rhs.lhs
            if form == "incdec":
                upd = sympy.Integer(op)
            elif op not in ("+=", "-=") or refs(rhs) & modified \
                    or not isinstance(v := self.expr(rhs, env.copy(), record=False), sympy.Expr):  # not `x < y`
                return None
            else:
                upd = v if op == "+=" else -v
            if step is not None and step != upd:
                return None
            step = upd
        return step

    @staticmethod
    def pow2_factor(updates: list, var: ir.Variable) -> int:
        """When every update keeps a power of two a power of two (``*= 2``, ``<<= 1``, ``>>= 1``, ``/= 2``,
        ``v = v * 2``...): 2 if the first one grows the variable, -2 if it shrinks it; else 0."""
        for form, rhs, op in updates:
            if form == "compound":
                v = fold(rhs)
                ok = v is not None and (op in ("<<=", ">>=") or op in ("*=", "/=") and v > 0 and v & (v - 1) == 0)
            elif form == "assign" and isinstance(rhs, ir.Binary) and rhs.op in ("*", "/", "<<", ">>"):
                own, other = rhs.lhs, rhs.rhs  # `v = v * 2`, `v = 2 * v`, `v = v >> 1`...
                if rhs.op == "*" and not (isinstance(own, ir.Ref) and own.var is var):
                    own, other = other, own
                v = fold(other) if isinstance(own, ir.Ref) and own.var is var else None
                ok = v is not None and v > 0 and (rhs.op in ("<<", ">>") or v & (v - 1) == 0)
            else:
                ok = False  # `++`, `--`, any other assignment
            if not ok:
                return 0
        form, rhs, op = updates[0]
        return 2 if (op in ("*=", "<<=") if form == "compound" else rhs.op in ("*", "<<")) else -2

    def loop(self, s: ir.Loop, env: Env) -> None:
        for x in s.init:
            self.stmt(x, env)
        updates = self.loop_updates(list(s.step) + [s.body])
        carried = self.loop_updates(list(s.step) + [s.body], carried=True)
        modified = set(updates)
        mark, first, barriers = self.symbols.mark(), len(self.kernel.accesses), len(self.kernel.barriers)
        # the trip counter takes the name of a counter that starts at 0 and steps by 1 (`for (j = 0; ..; ++j)`):
        # it is that variable, and the name a user reads in `explain` and in messages
        counting = [v.name for v, ups in updates.items() if v in env and env[v] == 0 and ups and all(
            form == "incdec" and op == 1 or form == "compound" and op == "+=" and fold(rhs) == 1
            for form, rhs, op in ups)]
        trip = self.symbols.trip(s.span.line, counting[0] if len(counting) == 1 else None)
        loop_env = env.copy()
        pow2_loop_vars: list = []
        fresh = []  # variables given a varying opaque value, uniform again if every value assigned is
        for var in (v for v in updates if v in env):  # in the order the loop writes them (a set's order varies)
            v0 = env[var]
            if not carried.get(var):
                continue  # written only on the way out of the loop: each trip starts with the value before it
            step = self.induction_step(carried[var], var, env, modified)
            if isinstance(v0, Pointer) and step is not None:  # `q++` on a pointer: element steps
                loop_env[var] = replace(v0, offset=v0.offset + step * trip * v0.elem_size, dims=(), subscripts=())
            elif not isinstance(v0, sympy.Basic):
                loop_env[var] = self.opaque(var.name, v0)
            elif step is not None:
                loop_env[var] = as_number(v0) + step * trip   # a `bool` counted up (arrayfire's reductions)
            elif self.symbols.is_pow2(v0) and (factor := self.pow2_factor(carried[var], var)):
                loop_env[var] = sym = self.symbols.opaque(var.name, varying=self.symbols.is_varying(v0), pow2=True)
                pow2_loop_vars.append((sym, v0, factor))
            else:
                loop_env[var] = self.symbols.opaque(var.name, varying=True)
                fresh.append(var)
        # Second pass: a non-induction variable stays uniform when every value assigned to it is, the others
        # taken as they are found: a least fixpoint from the variables that start varying (`kbc += 1` in one
        # path and `kbc += 2` in another, `stop = n - kbc` after either: both uniform; ggml's mul_mat_q loop).
        varying = {var for var in fresh if self.symbols.is_varying(env[var])}
        live = {var: self.back_edge_updates(s, var, carried[var]) for var in fresh}
        grew = True
        while grew:
            probe = loop_env.copy()
            for var in fresh:
                probe[var] = self.symbols.opaque(var.name, varying=var in varying)
            found = {var for var in fresh if var not in varying
                     and self._assigned_varying(live[var], var, probe, modified)}
            varying |= found
            grew = bool(found)
        for var in fresh:
            if var not in varying:
                loop_env[var] = self.symbols.opaque(var.name, varying=False)
            elif isinstance(loop_env[var], sympy.Symbol):  # varying: through its start or the values assigned
                assigned = [self.expr(rhs, loop_env.copy(), record=False) for form, rhs, _ in updates[var]
                            if form != "incdec"]
                if all(isinstance(v, sympy.Basic) for v in [env[var], *assigned]):
                    self.symbols.sources[loop_env[var]] = (env[var], *assigned)
        if s.kind == ir.LoopKind.RANGE:
            cond_val = self.expr(s.range, loop_env)
            if s.var is not None:
                loop_env[s.var] = self.opaque(s.var.name, cond_val)
        else:  # for (;;): exits only through break/return
            cond_val = self.expr(s.cond, loop_env) if s.cond is not None else sympy.Integer(1)
        trip_cond = None
        if is_condition(cond_val) and cond_val.free_symbols == {trip} and constant_trips(trip, cond_val) == 1:
            # one trip (`for (i = 0; i < channels; ++i)` in `crop<float, 1>`): nvcc leaves straight-line code, the
            # counters at their first values; its trips counted as one (the condition at trip 0 is `True`, which
            # `thread_trips` would take for a loop of a run-time count: convolutionSeparable's one-step halo loops)
            trip_cond = sympy.StrictLessThan(trip, 1)
            once = {trip: sympy.Integer(0)}
            for var, v in list(loop_env.items()):
                if isinstance(v, sympy.Basic):
                    loop_env[var] = v.xreplace(once)
                elif isinstance(v, Pointer) and isinstance(v.offset, sympy.Basic):
                    loop_env[var] = replace(v, offset=v.offset.xreplace(once))
            cond_val = cond_val.xreplace(once)
        for sym, v0, factor in pow2_loop_vars:
            if isinstance(v0, sympy.Integer) and is_condition(cond_val):
                # the trips' values are known once blockDim is (enumerated by the warp model)
                self.symbols.pow2_loops[sym] = (int(v0), factor, cond_val)
                self.symbols.loop_spans[sym] = s.span
        self.symbols.loop_conds[trip] = cond_val if trip_cond is None else trip_cond
        self.push_guard(cond_val, SourceLine.of(s.span))
        entry_guards = len([g for g, _ in self.guards if isinstance(g, sympy.Basic)])
        self.loops.append(next(self.order))
        self.loop_marks.append(mark)
        self.trips.append(trip)
        self.cut()
        self.breakable.append("loop")
        self.stmt(s.body, loop_env)
        for x in s.step:
            self.expr(x, loop_env)
        self.breakable.pop()
        self.hoist_constant(self.kernel.accesses[first:], mark, entry_guards)
        if len(self.kernel.barriers) == barriers:
            self.hoist(self.kernel.accesses[first:], mark)
            self.mark_unrolled(self.kernel.accesses[first:], trip, cond_val, s.unroll)
        if fixed_trips(trip, cond_val) is not None:
            for a in self.kernel.accesses[first:]:
                if a.loop_depth >= len(self.loops):  # still in this loop (not hoisted out of it)
                    a.fixed_loops += 1
        self.loops.pop()
        self.loop_marks.pop()
        self.trips.pop()
        self.cut()
        self.guards.pop()
        for var in (v for v in updates if v in env):  # in the order the loop writes them (a set's order varies)
            env[var] = self.opaque(var.name, loop_env.get(var), env[var])

    def mark_unrolled(self, body: list[Access], trip: sympy.Symbol, cond, pragma: Optional[int] = None) -> None:
        """Mark the loads of the loop just ended (``body``: its accesses; no barrier in it) that nvcc unrolls with
        it: the loop's condition depends on its trip only and holds for a constant number of trips, at most
        :data:`UNROLLED_TRIPS` (``for (i = 0; i < 8; ++i) r[i] = s[base + i];``), the load lies in no inner loop (or,
        when ``pragma`` (the loop's ``#pragma unroll``) unrolls it completely, only in inner loops nvcc unrolls as
        well, along which it is not consecutive), and the loop stores nothing to its array; and the stores of the
        loop (in no inner loop) to an array it loads nothing from
        (:func:`cudalint.analysis.merge.vectorize_unrolled` decides what the consecutive loads become)."""
        trips = constant_trips(trip, cond)
        if not trips or trips < 2 or pragma == 1:  # `#pragma unroll 1`: nvcc keeps the loop, one access a trip
            return
        written = {id(a.array) for a in body if a.is_write}
        read = {id(a.array) for a in body if a.is_read}
        depth = len(self.loops)
        for a in body:
            if a.loop_depth == depth and a.is_write and not a.is_read and id(a.array) not in read:
                a.unrolled = (trip, trips)  # a store, to an array the loop does not read (the SASS of
                continue                    # fixtures/shared/alignment_test.cu: `s[i*4 + j]`, j < 4 -> STS.128)
            if not a.is_read or id(a.array) in written or a.loop_depth < depth:
                continue
            if a.loop_depth == depth:
                a.unrolled = (trip, trips)
            elif (pragma == 0 or pragma is not None and pragma >= trips) and a.offset is not None and \
                    sympy.diff(a.offset, trip) == a.size and (
                    not a.unrolled or sympy.diff(a.offset, a.unrolled[0]) != a.size) and all(
                    constant_trips(t, self.symbols.loop_conds.get(t)) for t in a.loop_trips[depth:]):
                # in loops nvcc unrolls too, consecutive along the trips of this one only, which `#pragma unroll`
                # unrolls (`s_a[ty*8 + m][k]` in the loops over k, m and n, hoisted out of n: `LDS.128` of k..k+3;
                # without the pragma nvcc keeps a loop around 64 FMAs: fixtures/shared/register_tile.cu's `As`)
                a.unrolled = (trip, trips)

    def hoist(self, body: list[Access], mark: int) -> None:
        """Take out of the loop just ended (``body``: its accesses; no barrier in it) the shared accesses whose
        address no value of the loop changes (every symbol born before ``mark``), of an array the loop does not
        write or accesses at that address only: nvcc loads them once before the loop, keeps the value in a
        register and stores it once after (lavaMD's ``rA_shared[wtx]`` in the loop over ``j``;
        fixtures/shared/hoisted_load.cu, PTX and counters measured on the H200)."""
        same: dict[int, list[Access]] = {}  # the loop's accesses per array, grouped once
        for a in body:
            same.setdefault(id(a.array), []).append(a)
        for a in body:
            if a.array.space == AddressSpace.SHARED and self.invariant_here(a, mark) \
                    and (all(b.offset == a.offset for b in same[id(a.array)])
                         or not any(b.is_write for b in same[id(a.array)])):
                self.lift(a)

    def hoist_constant(self, body: list[Access], mark: int, entry_guards: int) -> None:
        """Take out of the loop just ended (``body``: its accesses) the ``__constant__`` reads whose address no value
        of the loop changes (every symbol born before ``mark``) and that no branch inside the loop guards (the loop's
        own condition is the ``entry_guards``-th guard): nothing writes constant memory while a kernel runs, so nvcc
        loads the value once before the loop and keeps it in a register, barriers in the loop or not (popsift's
        ``desc_tile[threadIdx.x]`` in its loop over the rows; fixtures/constant/hoisted_read.cu, whose PTX has the
        ``ld.const`` ahead of the loop).  A read under a branch of the loop is left in it (a load nvcc cannot show
        in bounds is not speculated)."""
        for a in body:
            if a.array.space == AddressSpace.CONSTANT and not a.is_write and len(a.guards) <= entry_guards \
                    and self.invariant_here(a, mark):
                self.lift(a)

    def invariant_here(self, a: Access, mark: int) -> bool:
        """Whether ``a`` lies in the loop just ended (no deeper one) at an address no value of the loop changes (every
        symbol of its offset born before the loop's ``mark``)."""
        return a.loop_depth == len(self.loops) and a.offset is not None \
            and all(self.symbols.born(x) < mark for x in a.offset.free_symbols)

    @staticmethod
    def lift(a: Access) -> None:
        """Count ``a`` as made once, outside the loop just ended (nvcc keeps its value in a register)."""
        a.loop_depth -= 1
        a.loop_trips = a.loop_trips[:-1]

    def back_edge_updates(self, s: ir.Loop, var: ir.Variable, updates: list) -> list:
        """The updates of ``var`` (:meth:`loop_updates`) whose value can reach the loop's next trip: those from
        the last plain assignment ``var = e`` that the body makes unconditionally (a statement of its own block)
        on, and the step's; all of them when there is none, or when a ``continue`` may come before it.  MAGMA's
        Jacobi sweeps: ``converge &= !noconv[ty]`` in the loop over pairs, then ``converge = 1`` and a reduction
        over every ``noconv[i]``: the sweep loop's condition reads the reduction only (block-uniform)."""
        body = s.body.body if isinstance(s.body, ir.Block) else [s.body]
        kills = [i for i, x in enumerate(body) if isinstance(x, ir.ExprStmt) and isinstance(x.expr, ir.Assign)
                 and x.expr.op == "=" and isinstance(x.expr.target, ir.Ref) and x.expr.target.var is var]
        if not kills or any(isinstance(n, ir.Jump) and n.kind == ir.JumpKind.CONTINUE
                            for x in body[:kills[-1]] for n in ir.walk(x)):
            return updates
        return self.loop_updates(body[kills[-1]:] + list(s.step)).get(var, [])

    def _assigned_varying(self, updates: list, var: ir.Variable, env: Env, modified: set) -> bool:
        """Whether any value assigned in ``updates`` is thread-varying (evaluated once, with every modified
        variable taken as uniform unless it starts varying)."""
        for rhs in (rhs for form, rhs, _ in updates if form != "incdec"):
            v = self.expr(rhs, env.copy(), record=False)
            if v is None or (isinstance(v, sympy.Basic) and self.symbols.is_varying(v)):
                deps = refs(rhs) & modified
                if v is not None and deps and all(not self.symbols.is_varying(env[d])
                                                  for d in deps if d in env and d is not var):
                    continue
                return True
        return False

    # ---- expressions
    def expr(self, e: Optional[ir.Expr], env: Env, mode: str = "read", record: bool = True) -> Value:
        """The value of ``e``; ``mode`` "read", "write", "rw" (the access it makes) or "addr" (its address,
        for ``&a[i]`` and member bases); ``record`` False evaluates without recording anything."""
        if e is None:
            return None
        if (method := _EXPR_METHODS.get(type(e))) is not None:
            return method(self, e, env, mode, record)
        if isinstance(e, ir.IntLit):
            return sympy.Integer(e.value)
        if isinstance(e, ir.FloatLit):
            return self.symbols.opaque("float", varying=False)
        if isinstance(e, ir.Builtin):
            if e.name == "warpSize":
                return WARP_SIZE
            if e.axis is not None and e.name in BUILTINS:
                return BUILTINS[e.name]["xyz".index(e.axis)]
            return self.symbols.opaque(e.name, varying=False)
        if isinstance(e, ir.TemplateArg):
            val = self.values.get(e.name)
            if isinstance(val, tuple):  # a multiple of another member, as a static_assert of its class says
                d = self.values.get(val[1])
                d = sympy.Integer(d) if isinstance(d, int) else self.symbols.param(val[1])
                return d * self.symbols.param(f"{e.name}/{val[1]}")
            return sympy.Integer(val) if val is not None else self.symbols.param(e.name)
        if isinstance(e, ir.Cast):
            v = self.expr(e.operand, env, mode, record)
            if isinstance(v, Pointer) and not v.dims and e.type.kind == TypeKind.POINTER:
                v = self.retype(v, e.type.pointee, keep_dims=True)
            elif isinstance(v, Pointer) and e.type.kind == TypeKind.POINTER and e.type.pointee is not None \
                    and e.type.pointee.kind != TypeKind.ARRAY and (size := self.size_of(e.type.pointee)):
                # a multi-dimensional array seen as a flat pointer (`((half*)tile)[w * 320 + i * 32 + lane]`,
                # CUDA-PointPillars): its elements one after another, not its rows
                v = Pointer(v.array, v.offset, size, (), (), e.type.pointee)
            if isinstance(v, Pointer) and e.type.is_integer:  # `(uintptr_t)p`: an address
                return self.address(v)
            return v
        if isinstance(e, ir.Cond):
            cond = self.expr(e.cond, env, record=record)
            vals = []
            for guard, x in zip((cond, negate(cond)), (e.then, e.else_)):
                self.push_guard(guard, SourceLine.of(e.span))  # the else operand where the condition fails
                vals.append(self.expr(x, env, record=record))
                self.guards.pop()
            a, b = vals
            if isinstance(a, sympy.Basic) and a == b:
                return a
            return picked if (picked := min_max(cond, a, b)) is not None else self.opaque("select", cond, a, b)
        if isinstance(e, ir.Construct):
            vals = [self.expr(a, env, record=record) for a in e.args]
            if len(vals) == 1 and isinstance(vals[0], Record):  # a copy of a struct parameter (`Params(p)`)
                return vals[0]
            if e.type.name in ("dim3", "uint3"):
                return self.opaque("dim3", *vals)
            return self.opaque(e.type.name or "value", *vals) if vals else None
        if isinstance(e, ir.SizeOf):   # `sizeof(T)`: the instantiation's T (4 for an unbound T, as its accesses)
            return sympy.Integer(size) if (size := self.size_of(e.of)) else self.symbols.opaque("sizeof", varying=False)
        if isinstance(e, (ir.InitList, ir.New, ir.Launch, ir.Opaque)):
            return self.opaque(getattr(e, "what", "value"), *(self.expr(x, env, record=record) for x in ir.children(e)))
        return self.symbols.opaque("value", varying=False)

    def ref(self, e: ir.Ref, env: Env, mode: str, record: bool) -> Value:
        var = e.var
        if var in env:
            v = env[var]
            if isinstance(v, Alias):
                return v.ptr if mode == "addr" else self.load(e, v.ptr, mode, record)
            return v
        if (arr := self.globals.get(var)) is not None:
            ptr = Pointer(arr, sympy.Integer(0), arr.elem_size, arr.dims[1:], (), var.type.array_dims()[1])
            if var.type.kind == TypeKind.ARRAY or mode == "addr":
                return ptr
            if var.const_value is not None and mode == "read":  # `__constant__ const int N = 16`: folded by nvcc
                return sympy.Integer(var.const_value)
            # a file-scope scalar (`__constant__ float *d_vals`, `__device__ int count`): its name reads (writes)
            # the memory it lives in, at one address; a pointer read there is a new global array
            # (ethminer's `__constant__ hash128_t *d_dag`: `d_dag[r]` is a global load, not a constant one)
            return self.load(e, ptr, mode, record, hint=var.name)
        if var.const_value is not None:
            return sympy.Integer(var.const_value)
        return self.symbols.opaque(var.name, varying=False)

    def member(self, e: ir.Member, env: Env, mode: str, record: bool) -> Value:
        base = e.base
        if e.arrow or isinstance(base, ir.Index) or (isinstance(base, ir.Unary) and base.op == "*") \
                or (isinstance(base, ir.Ref) and (isinstance(env.get(base.var), Alias) or (
                    base.var not in env and base.var.type.kind != TypeKind.ARRAY and base.var in self.globals))):
            # the struct's address: `p->f` (p a pointer), `a[i].f`, `(*p).f`, `r.f` (r a reference to memory)
            ptr = self.expr(base, env, mode="read" if e.arrow else "addr", record=record)
            if isinstance(ptr, Pointer) and (fv := self.field_at(e, ptr, mode, record)) is not None:
                return fv
            return self.opaque(e.name, ptr)
        if isinstance(base, ir.Member):  # `out.max.x`, `p[i].pos.y`: the inner member's address when it is memory
            v = self.expr(base, env, mode="addr", record=record)
            if isinstance(v, Pointer) and (fv := self.field_at(e, v, mode, record)) is not None:
                return fv
        else:
            v = self.expr(base, env, record=record)
        if isinstance(v, Record) and (f := e.field) is not None and mode in ("read", "addr"):
            return self.record_field(v, f)
        if isinstance(v, Dim3) and e.name in ("x", "y", "z"):  # `block.thread_index().x`
            return v["xyz".index(e.name)]
        # a member of a variable whose type is not known here (`C.height`, `C` a `matrix_t<T>` of a kernel
        # template): named as written
        return self.opaque(f"{base.var.name}.{e.name}" if isinstance(base, ir.Ref) and e.name else e.name, v)

    def field_at(self, e: ir.Member, ptr: Pointer, mode: str, record: bool) -> Value:
        """Field ``e.field`` of the struct at ``ptr``: its address (``mode`` "addr"), a pointer to the first element
        of a member array, else its access (a load, or the store ``mode`` says); None when the field's size is
        unknown."""
        f = e.field
        if f is None or not (fsize := self.size_of(f.type)):
            return None
        outer_size, outer_off = ptr.outer or (ptr.elem_size, 0)
        fptr = Pointer(ptr.array, ptr.offset + f.offset, fsize, (), ptr.subscripts, f.type,
                       (outer_size, outer_off + f.offset))
        if mode == "addr":
            return fptr
        if f.type.kind == TypeKind.ARRAY:  # a member array: a pointer to its first element
            return Pointer(ptr.array, fptr.offset, self.size_of(f.type.pointee) or 1, (), (), f.type.pointee)
        return self.load(e, fptr, mode, record, field_offset=outer_off + f.offset, elem_size=outer_size,
                         align=(ptr.pointee.align or 0) if ptr.pointee is not None else 0, hint=e.name)

    def accessor(self, name: str, t: Type) -> Optional[Accessor]:
        """A tensor accessor parameter ``name`` of type ``t`` (:data:`ACCESSOR`): a global array of its elements,
        its sizes the run-time values ``name.size(d)``; None for another type or an element type of unknown size."""
        t = t.pointee if t.kind == TypeKind.REFERENCE and t.pointee is not None else t
        if not (m := ACCESSOR.match(t.name or "")):
            return None
        elem = m[1].split("::")[-1] if "::" in m[1] else m[1]
        esize = _SCALAR_BYTES.get(elem) or self.bindings.get(elem)
        if not esize:
            return None
        arr = ArrayDecl(name=name, space=AddressSpace.GLOBAL, elem_type=elem, elem_size=esize)
        sizes = tuple(self.symbols.param(f"{name}.size({d})") for d in range(int(m[2])))
        return Accessor(Pointer(arr, sympy.Integer(0), esize, (), (), None), sizes)

    def accessor_call(self, e: ir.Call, env: Env, mode: str, record: bool) -> tuple[bool, Value]:
        """``x[i]``, ``x.size(d)``, ``x.stride(d)``, ``x.data()`` of a tensor accessor ``x``: (True, its value), or
        (False, None) when ``e`` is no such call (nothing evaluated)."""
        obj_expr = e.args[0] if e.name == "operator[]" and len(e.args) == 2 else e.receiver
        if obj_expr is None or e.name not in ("operator[]", "size", "stride", "data"):
            return False, None
        ot = obj_expr.type
        ot = ot.pointee if ot is not None and ot.kind == TypeKind.REFERENCE and ot.pointee is not None else ot
        if ot is None or not ACCESSOR.match(ot.name or ""):
            return False, None
        obj = self.expr(obj_expr, env, record=record)
        if not isinstance(obj, Accessor):
            for a in e.args[1:] if e.name == "operator[]" else e.args:
                self.expr(a, env, record=record)
            return True, self.opaque("load", obj)
        if e.name == "data":
            return True, obj.ptr
        if e.name in ("size", "stride"):
            d = self.expr(e.args[0], env, record=record) if e.args else None
            if not (isinstance(d, sympy.Integer) and 0 <= int(d) < len(obj.sizes)):
                return True, self.symbols.opaque(e.name, varying=False)
            return True, obj.sizes[int(d)] if e.name == "size" else obj.stride(int(d))
        return True, self.accessor_index(e, obj, self.expr(e.args[1], env, record=record), mode, record)

    def accessor_index(self, e: ir.Expr, obj: Accessor, idx: Value, mode: str, record: bool) -> Value:
        """``obj[idx]`` (``e``): the accessor of the remaining dimensions, or the element's access."""
        if not isinstance(idx, sympy.Basic) or is_condition(idx):
            idx = self.opaque("index", idx)
        p = obj.ptr
        ptr = Pointer(p.array, p.offset + as_number(idx) * obj.stride(0) * p.elem_size, p.elem_size, (),
                      p.subscripts + (idx,), None)
        if len(obj.sizes) > 1:
            return Accessor(ptr, obj.sizes[1:])
        return ptr if mode == "addr" else self.load(e, ptr, mode, record)

    def record_field(self, r: Record, f) -> Value:
        """Field ``f`` of the struct parameter ``r``: a global array for a pointer (the same array at every read),
        a :class:`Record` for a struct, the run-time value ``r.f`` for a scalar, an opaque uniform value for a
        member array (not modelled)."""
        name, t = f"{r.name}.{f.name}", f.type
        if t.kind == TypeKind.POINTER:
            if (esize := self.size_of(t.pointee)) is None or not esize:
                return None
            if name not in self.record_arrays:
                arr = ArrayDecl(name=name, space=AddressSpace.GLOBAL, elem_type=t.pointee.spelling(), elem_size=esize)
                self.record_arrays[name] = Pointer(arr, sympy.Integer(0), esize, (), (), t.pointee)
            return self.record_arrays[name]
        if t.kind == TypeKind.RECORD and t.fields:
            return Record(name, t)
        if t.kind == TypeKind.ARRAY:
            sym = self.symbols.opaque(name, varying=False)
            self.member_arrays[sym] = name
            return sym
        return self.symbols.param(name)

    def subscript(self, e: ir.Index, env: Env, mode: str, record: bool) -> Value:
        base, idx = (self.expr(x, env, record=record) for x in (e.base, e.index))
        if isinstance(idx, Pointer):  # i[a] spelling
            base, idx = idx, base
        if isinstance(base, Accessor):  # a tensor accessor's `x[i]` as tree-sitter lowers it (no operator call)
            return self.accessor_index(e, base, idx, mode, record)
        if not isinstance(base, Pointer):
            if base in self.member_arrays and isinstance(idx, sympy.Integer):
                # `err.dims[0]` of a struct parameter (arrayfire's Param<T>): a run-time value of the launch, the
                # same at every read, named as the user wrote it (it was `load`)
                return self.symbols.param(f"{self.member_arrays[base]}[{int(idx)}]")
            if isinstance(e.base, ir.Ref) and e.base.var.type.kind == TypeKind.ARRAY and \
                    e.base.var.space == ir.Space.LOCAL and \
                    (own := self.private(id(e.base.var), None, mode)) is not None:  # `T key[4]`: type not modelled
                return own
            return self.opaque("load", base, idx)
        if not isinstance(idx, sympy.Basic):
            idx = self.opaque("index", idx)
        idx = as_number(idx)
        esize, inner = base.elem_size, math.prod(d or 1 for d in base.dims)  # elements per step of idx
        ptr = Pointer(base.array, base.offset + idx * inner * esize, esize, base.dims[1:], base.subscripts + (idx,),
                      base.pointee)
        if mode != "addr" and not base.dims and e.type is not None and e.type.kind == TypeKind.ARRAY \
                and e.type.pointee is not None and (row := self.size_of(e.type.pointee)):
            # a row of a member array (`a[t].e[i]` of `Complx e[3][3]`) is no load: it decays to a pointer to its
            # first element, which `[j]` then indexes (HeCBench's dslash: the row was read as one 48-byte access)
            return Pointer(base.array, ptr.offset, row, (), ptr.subscripts, e.type.pointee)
        return ptr if mode == "addr" or base.dims and e.type.kind == TypeKind.ARRAY else self.load(e, ptr, mode, record)

    def copy_in(self, e: ir.Call, env: Env, record: bool) -> Value:
        """``memcpy(dst, src, n)`` in device code with ``src`` in global, shared or constant memory and ``n`` a constant
        of at most 64 bytes: ``n`` loads of one byte, which is what nvcc emits whatever the pointers' types (PTX
        ``ld.global.u8`` x16 for a 16-byte copy from a ``const float *``, a ``const float4 *`` or a struct pointer; SASS
        ``LDG.E.U8`` x16 + x12 for the quaternion and scale copies of fixtures/global/unseen_loads.cu on the H100).
        glm's ``make_vec4(ptr)`` copies so: gsplat's kernels read every quaternion and scale a byte at a time.  A copy
        whose size cudalint cannot evaluate is noted as one it cannot follow (:meth:`unsized`).  Returns ``dst``."""
        dst, src, n = (self.expr(x, env, record=record) for x in e.args)
        if isinstance(src, Pointer) and src.array.space != AddressSpace.LOCAL and isinstance(n, sympy.Basic) \
                and n.is_Integer and 0 < n <= 64:
            for k in range(int(n)):
                byte_ptr = replace(src, offset=sympy.expand(src.offset + k), elem_size=1, dims=(), subscripts=())
                self.load(e, byte_ptr, "read", record, align=1, copied=True)
        elif isinstance(src, Pointer) and record:
            where = f" in `{self.call_chain[-1][0]}`" if self.call_chain else ""
            self.unsized(f"the `{e.name}`{where}, whose size cudalint cannot evaluate,", [src])
        return dst

    def field_parts(self, t: Type, base: int = 0, depth: int = 0) -> list[tuple[int, int]]:
        """The scalar pieces (byte offset, bytes) a struct moved field by field is made of: an array field is its
        elements and a nested struct its fields (``curandStateXORWOW``'s ``unsigned int v[5]`` is five 4-byte words,
        which nvcc pairs into 8-byte accesses where aligned: :func:`cudalint.analysis.merge.merge_accesses`), never one
        access of the array's 20 bytes."""
        parts: list[tuple[int, int]] = []
        for f in t.fields:
            ft, size = f.type, self.size_of(f.type)
            if not size:
                continue
            if depth < 4 and ft.kind == TypeKind.ARRAY and ft.count and ft.pointee is not None \
                    and (es := self.size_of(ft.pointee)) and es * ft.count == size:
                sub = (self.field_parts(ft.pointee, 0, depth + 1) if ft.pointee.kind == TypeKind.RECORD
                       and ft.pointee.fields else _words(es, ft.pointee.align))
                parts += [(base + f.offset + i * es + o, n) for i in range(ft.count) for o, n in sub]
            elif depth < 4 and ft.kind == TypeKind.RECORD and ft.fields and ft.align and ft.align < size:
                parts += self.field_parts(ft, base + f.offset, depth + 1)
            else:
                parts += [(base + f.offset + o, n) for o, n in _words(size, ft.align)]
        ends = sorted(parts)
        if any(b[0] < a[0] + a[1] for a, b in zip(ends, ends[1:])) and (size := self.size_of(t)):
            # members that overlap (a union: hoomd's `union { unsigned int tag[3]; unsigned int idx[3]; }`): nvcc
            # copies its bytes, in words of its alignment, once
            return [(base + o, n) for o, n in _words(size, t.align)]
        return parts

    def unsized(self, what: str, vals: list) -> None:
        """Note the global memory a call cudalint cannot follow may read (:attr:`Kernel.unsized_reads`): each pointer
        among ``vals`` into global memory; ``what`` names the call for a message."""
        for v in vals:
            if isinstance(v, Pointer) and v.array.space == AddressSpace.GLOBAL and v.array.elem_type != "texture":
                self.kernel.unsized_reads.append((what, len(self.loops), self.symbols.is_varying(v.offset)))

    def load(self, e: ir.Expr, ptr: Pointer, mode: str, record: bool, field_offset: int = 0,
             elem_size: int = 0, align: int = 0, hint: str = "load", copied: bool = False) -> Value:
        """Record the access at ``ptr`` (a load unless ``mode`` says store) and return the loaded value
        (``copied``: a byte of a device ``memcpy``, :attr:`Access.copied`).

        A struct whose alignment is smaller than its size (``struct {float x, y;}``) is moved by nvcc as
        separate field accesses: one :class:`Access` per field, ``split`` = their count."""
        t = e.type
        if t is not None and t.kind == TypeKind.PARAM and t.name in self.types:
            t = self.types[t.name]   # `d_odata[pos] = d_idata[pos]` of a launched `TData` (its fields, its alignment)
        if record and ptr.array.space != AddressSpace.LOCAL:
            size = ptr.elem_size
            parts = [(0, size)]
            if t.kind == TypeKind.RECORD and size and t.align and t.align < size and t.fields:
                parts = self.field_parts(t) or [(0, size)]
            guards = tuple(g for g, _ in self.guards if isinstance(g, sympy.Basic))
            for off, sz in parts:
                offset = recombine_divmod(ptr.offset + off)
                if mode in ("read", "write") and not (t is not None and t.volatile) and \
                        self.reloads(ptr.array, offset, sz, guards, store=mode == "write"):
                    continue
                self.kernel.accesses.append(Access(
                    array=ptr.array, offset=offset, size=sz,
                    is_read=mode in ("read", "rw"), is_write=mode in ("write", "rw"), span=e.span,
                    subscripts=ptr.subscripts, field_offset=field_offset + off,
                    elem_size=elem_size or ptr.elem_size, split=len(parts), guards=guards, region=self.region,
                    loop_depth=len(self.loops), loop_trips=tuple(self.trips), epoch=self.epoch, exits=self.jumps,
                    volatile=t is not None and t.volatile, copied=copied, choices=tuple(self.choices),
                    align=align or ((ptr.pointee.align or 0) if ptr.pointee is not None else 0)))
        if ptr.array.space == AddressSpace.LOCAL and (own := self.private(
                id(ptr.array), ptr.offset if isinstance(ptr.offset, sympy.Integer) else None, mode)) is not None:
            return own
        if mode == "write":
            return None
        if t.kind == TypeKind.POINTER and self.size_of(t.pointee):
            # a pointer loaded from memory (`s[b].ptr`): a new global array, its base unknown but uniform
            # when the load's address is (else the accesses through it cannot be pictured)
            # (one array per address of `__constant__` memory, which a kernel never writes: the pointer it
            # holds is the same at each load, `c.ptr[i] = v; w = c.ptr[i];` is a store and a reload)
            key = (id(ptr.array), sympy.expand(ptr.offset), getattr(e, "name", ""))
            if ptr.array.space == AddressSpace.CONSTANT and key in self.constant_pointers:
                return self.constant_pointers[key]
            name = f"{ptr.array.name}.{e.name}" if isinstance(e, ir.Member) else \
                ptr.array.name if isinstance(e, ir.Ref) else f"{ptr.array.name}[]"
            arr = ArrayDecl(name, AddressSpace.GLOBAL, t.pointee.spelling(), self.size_of(t.pointee))
            base = self.opaque("base", ptr) if self.symbols.is_varying(ptr.offset) else sympy.Integer(0)
            loaded = Pointer(arr, base, arr.elem_size, (), (), t.pointee)
            if ptr.array.space == AddressSpace.CONSTANT:
                self.constant_pointers[key] = loaded
            return loaded
        return self.opaque(hint, ptr)

    def private(self, key: int, at: Optional[sympy.Integer], mode: str) -> Optional[sympy.Symbol]:
        """An access to a thread's own array (registers or local memory; ``key`` names it, ``at`` is the constant
        byte offset, None when not constant): a store of a thread-varying value (:attr:`storing`) marks that element
        (all of them for ``at`` None); a load of a marked element returns a fresh thread-varying value, since each
        thread reads its own even at a uniform index (fixtures/sync/private_array.cu).  None otherwise."""
        if mode in ("write", "rw") and isinstance(self.storing, sympy.Basic) and self.symbols.is_varying(self.storing):
            self.local_varying.setdefault(key, set()).add(at)
        stored = self.local_varying.get(key)
        if mode != "write" and stored and (at is None or at in stored or None in stored):
            return self.symbols.opaque("load", True)
        return None

    def reloads(self, arr: ArrayDecl, offset: sympy.Expr, size: int, guards: tuple, store: bool = False) -> bool:
        """Whether a load repeats an earlier load or store of the same thread (same address and size, under
        guards that enclose this load's: it dominates it) with no store that may overlap it, barrier or loop boundary
        in between (``(lat - p->lat) * (lat - p->lat)``, a field read again on the next line): nvcc keeps the
        value in a register.  A store between them that provably misses the bytes (:func:`merge.disjoint`:
        ``b[o + 2] = 5`` between ``b[o] = ..`` and ``.. = b[o]``) does not stop it, nor, for a ``__restrict__``
        parameter (:attr:`ArrayDecl.restrict`) or two distinct static shared arrays, a store or an atomic through
        another array (SASS on the H100: fixtures/global/store_reload.cu; HeCBench p4's ``data[k] =
        box_input[box_offset + k]`` after its ``atomicAdd``: no load at those lines).  With ``store``: whether a
        store repeats such an earlier store (``a[i] = v; if (a[i] >= m) a[i] = 0;``): nvcc selects the value and
        stores once.  A load of ``__constant__`` memory, which no thread writes, repeats any earlier load of the
        address whose guards dominate it, across barriers and stores (ispass' AES reads ``posIdx_E[16 + mod4tx*4]``
        in each of its rounds; one ``ld.const`` in the PTX: fixtures/constant/reused_index.cu)."""
        if arr.space == AddressSpace.CONSTANT and not store:
            return any(a.array is arr and a.size == size and a.offset == offset and guards[:len(a.guards)] == a.guards
                       for a in self.kernel.accesses)
        probe = Access(array=arr, offset=offset, size=size, is_read=True, is_write=False,
                       span=ir.Span("", 0, 0, 0, 0))
        accs = self.kernel.accesses
        atomics = [(at, other) for at, other in self.atomics if at > self.fence]
        for i in range(len(accs) - 1, self.fence - 1, -1):
            a = accs[i]
            if any(at > i and not self.separate(arr, other) for at, other in atomics):
                return False   # an atomic after this access may have written the bytes
            if a.array is arr and a.size == size and a.offset == offset and guards[:len(a.guards)] == a.guards \
                    and (a.is_write or not store) and not a.volatile:
                # loaded before, or stored by this thread (``d[p] = d[p] + s; t = d[p];``); a global store under the
                # same guards is the one nvcc makes, the earlier one dead (cudalint.analysis.registers)
                return not (store and arr.space == AddressSpace.GLOBAL and len(a.guards) == len(guards))
            if a.volatile:
                return False
            if a.is_write and not store and not (
                    disjoint(a, probe) if a.array is arr else self.separate(arr, a.array)):
                return False
            if a.is_write and store:
                return False
        return False

    @staticmethod
    def separate(arr: ArrayDecl, other: ArrayDecl) -> bool:
        """Whether no access through ``other`` can reach the bytes of ``arr``: ``arr`` is a ``__restrict__`` kernel
        parameter, or both are distinct shared arrays the kernel declares (not ``extern``, not pointers)."""
        if other is arr:
            return False
        if arr.restrict:
            return True
        return all(x.space == AddressSpace.SHARED and x.declared_at is not None and x.dims and x.dims[0] is not None
                   for x in (arr, other))

    def work(self, record: bool, *operands: Value, t: Optional[Type] = None, n: int = 1) -> None:
        """Count ``n`` operations on data (:attr:`Kernel.ops`) when an operand is a value cudalint does not follow
        (loaded from memory, floating-point, a call's result); arithmetic on indices, which nvcc folds into addresses
        or unrolls away, is not counted.  An operation on 64-bit integers (``t``) counts 2: the SASS has no 64-bit
        integer ALU and issues each as two 32-bit instructions (``IADD3`` + ``IADD3.X``, a ``SHF`` pair)."""
        if record and any(v is None or isinstance(v, sympy.Basic) and any("#" in x.name for x in v.free_symbols)
                          for v in operands):
            if t is not None and t.kind == TypeKind.INT and t.size == 8:
                n *= 2
            key = tuple(self.trips)
            self.kernel.ops[key] = self.kernel.ops.get(key, 0) + n

    def binary(self, e: ir.Binary, env: Env, _mode: str, record: bool) -> Value:
        if e.op == ",":
            self.expr(e.lhs, env, record=record)
            return self.expr(e.rhs, env, record=record)
        if e.op in ("==", "!=") and record:  # `t % 16 == 0`: the low bits' test, whatever the sign (no fix-up)
            for x, y in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
                if isinstance(x, ir.Binary) and x.op == "%" and fold(y) == 0:
                    self.zero_tests.add(id(x))
        a, b = (self.expr(x, env, record=record) for x in (e.lhs, e.rhs))
        if e.op not in ("&&", "||"):
            self.work(record, a, b, t=e.type)
        if e.op in ("/", "%") and record:
            self.division(e.op, e, e.rhs, b, a)
        if e.type is not None and e.type.kind == TypeKind.FLOAT and e.op in _FLOAT_OPS:
            # floating-point arithmetic is never an address: only its uniformity is kept. Followed symbolically,
            # SHOC MaxFlops' 32 registers updated 6,400 times (`s0 = s10*s0 + s1`) grew sympy expressions past the
            # per-file time limit
            return self.opaque("float", a, b)
        v = self.bounded(self.arith(e.op, a, b), a, b)
        if isinstance(v, sympy.Basic) and e.type is not None and e.type.kind == TypeKind.INT and (
                e.op == "&" and any(isinstance(x, sympy.Basic) and x.is_Integer and x >= 0 for x in (a, b))
                or e.op == "%" and isinstance(b, sympy.Basic) and b.is_Integer and b > 0 and (
                    not e.type.signed or self.known_nonnegative(a))
                or e.op in ("/", ">>") and isinstance(b, sympy.Basic) and b.is_Integer and b > 0
                and self.known_nonnegative(a)
                # a 32-bit unsigned quotient (`threadIdx.x / 32`, `>> 5`) is below 2^31: non-negative as an int too
                # (PTX: `int w = threadIdx.x / 32; (w * 4 + y) / 16` is a `shr.u32`; fixtures/arith/known_range.cu)
                or e.op in ("/", ">>") and not e.type.signed and e.type.size == 4 and isinstance(b, sympy.Basic)
                and b.is_Integer and (b >= 2 if e.op == "/" else b >= 1)):
            self.ranged.add(v)
        return v

    def known_nonnegative(self, v: Value) -> bool:
        """Whether nvcc can tell that ``v`` is never negative: a constant, a value an unsigned ``%`` or a mask made
        (``threadIdx.x % 16``, ``(int)gid & 1023``: a known range) or one built from such values by ``+``, ``*`` by
        non-negative constants, ``/`` and ``>>``, a 32-bit unsigned quotient, a loop's trip counter (a counter from a
        non-negative start stepping up is one).  threadIdx itself is not one: the PTX of ``(int)threadIdx.x % 16``
        keeps the sign fix-up of a signed remainder, that of ``tx = threadIdx.x % 16; (ty * 16 + tx) % 64`` is an
        ``and.b32`` (CUDA 13.0, -O3; fixtures/measured/NOTES.md, sessions 38 and 39)."""
        if not isinstance(v, sympy.Basic):
            return False
        if v.is_Integer:
            return v >= 0
        if v in self.ranged or v in self.symbols.trip_counters:
            # a trip counter is 0, 1, ...: `for (int i = 0; i < n; i++) .. i / 16` is a `shr.u32` (nvcc's induction
            # variable analysis; fixtures/arith/known_range.cu)
            return True
        if isinstance(v, (sympy.Add, sympy.Mul)):
            return all(self.known_nonnegative(x) for x in v.args)
        return False

    def bounded(self, v: Value, a: Value, b: Value) -> Value:
        """``v``, the result of an operation on ``a`` and ``b``, or a fresh opaque value (as varying as they are)
        once it has been built from more than :data:`MAX_OPERATIONS` operations: a value recomputed from itself
        in unrolled code (SHOC MaxFlops' ``s = s*s*v`` 240 times a loop, in a template whose ``T`` is float)
        doubles in size at each step, and is no address anyone writes."""
        if not isinstance(v, sympy.Basic) or v.is_Atom:
            return v
        n = sum(self.sizes.get(x, 0) for x in (a, b) if isinstance(x, sympy.Basic)) + 1
        if n > MAX_OPERATIONS:  # the estimate only grows (`i + 1 + 1 ...` folds to `i + 501`): count the nodes
            n = sum(1 for _ in itertools.islice(sympy.preorder_traversal(v), MAX_OPERATIONS + 1))
        if n > MAX_OPERATIONS:
            return self.opaque("value", a, b)
        self.sizes[v] = max(n, self.sizes.get(v, 0))
        return v

    def division(self, op: str, e: ir.Expr, divisor: ir.Expr, b: Value, a: Value) -> None:
        if e.type.kind != TypeKind.INT or isinstance(a, sympy.Basic) and a.is_Integer:
            return  # not an integer division, or one the compiler folds
        if op == "%" and id(e) in self.zero_tests and isinstance(b, sympy.Integer) and self.symbols.is_pow2(b):
            return  # `t % 16 == 0` is `(t & 15) == 0` for any sign: one AND (SASS: LOP3; exllamav2, a judge)
        pow2 = isinstance(b, sympy.Basic) and self.symbols.is_pow2(b)
        varying = not isinstance(a, sympy.Basic) or self.symbols.is_varying(a)
        signed = e.type.signed and not self.known_nonnegative(a)  # a known range: nvcc drops the sign fix-up
        guards = tuple(g for g, _ in self.branch_guards() if isinstance(g, sympy.Basic))
        hoisted = bool(self.loops) and self.loop_invariant(
            a, b, *(g for g in guards if not self.symbols.is_loop_condition(g)))
        self.kernel.divisions.append(Division(op, e.span, signed, b, pow2, divisor.text, varying,
                                              bool(self.loops) and not hoisted, guards, hoisted))

    def loop_invariant(self, *values: Value) -> bool:
        """Whether ``values`` (a division's operands and the conditions it runs under) were all made before the
        outermost loop around: nvcc computes such a division once, before the loops (the PTX of ``tid / warpSize``
        in a loop over ``k`` has one ``div.s32`` ahead of the loop: a new user's report, session 39)."""
        if not self.loop_marks:
            return False
        return all(isinstance(v, sympy.Basic) and all(self.symbols.born(x) < self.loop_marks[0]
                                                      for x in v.free_symbols) for v in values)

    def arith(self, op: Optional[str], a: Value, b: Value) -> Value:
        if isinstance(a, Pointer) and isinstance(b, Pointer) and a.array is b.array and a.elem_size == b.elem_size:
            # two pointers into one array (MAGMA's `do { ..; B += 16; } while (B < Blast)` with `Blast = B + jb`):
            # their difference and order are those of their offsets, so a common thread-dependent start cancels
            if op == "-":
                return sympy.expand((a.offset - b.offset) / a.elem_size)
            if (rel := _RELATIONS.get(op)) is not None:  # in elements, the terms both offsets share left out
                x, y = (sympy.Add.make_args(sympy.expand(p.offset / a.elem_size)) for p in (a, b))
                common = set(x) & set(y)
                return relation(rel, sympy.Add(*(t for t in x if t not in common)),
                                sympy.Add(*(t for t in y if t not in common)))
        if isinstance(a, Pointer) or isinstance(b, Pointer):
            if op == "+" and isinstance(b, Pointer):
                a, b = b, a  # i + p
            if op in ("+", "-") and isinstance(a, Pointer) and isinstance(b, sympy.Basic):
                return replace(a, offset=a.offset + (b if op == "+" else -b) * a.elem_size, dims=(), subscripts=())
            return self.opaque("ptr", a, b)
        if op is None or not isinstance(a, sympy.Basic) or not isinstance(b, sympy.Basic):
            return self.opaque("value", a, b)
        with contextlib.suppress(TypeError, ValueError):  # sympy refuses some operands
            if op in _ARITH:
                return _ARITH[op](as_number(a), as_number(b))
            if op in ("/", "%") and b == 0:
                return self.opaque("div" if op == "/" else "rem", a, b)
            if op == "/":
                return a if b.is_Integer and b == 1 else sympy.floor(a / b)
            if op == "%":
                return sympy.Mod(a, b)
            if op in ("<<", ">>") and b.is_Integer and not 0 <= int(b) < MAX_SHIFT:
                return self.opaque("value", a, b)  # undefined in C++ past the width (and 2**4000000000 never ends)
            if op == "<<" and b.is_Integer:
                return a * 2 ** int(b)
            if op == ">>" and b.is_Integer:
                return sympy.floor(a / 2 ** int(b))
            # `n & (2^k - 1)` is `n % 2^k`, and so is `n & (B - 1)` with B a run-time or template value (the idiom
            # says B is a power of two: cusp's `num_warps & (BLOCK_SIZE - 1)` in NVIDIA/AMGX)
            for x, m in ((a, b), (b, a)) if op == "&" else ():
                if m.is_Integer and int(m) >= 0 and (int(m) + 1) & int(m) == 0 or not m.is_Number and (
                        (m + 1).is_Symbol or self.symbols.is_pow2(m + 1)) and not self.symbols.is_varying(m):
                    return sympy.Mod(x, m + 1)
            # Conditions stay symbolic so that a guard can be evaluated per lane (active lanes) and a
            # loop bound per trip; their uniformity is that of their free symbols, as for any value.
            if (rel := _RELATIONS.get(op)) is not None and not is_condition(a) and not is_condition(b):
                return relation(rel, a, b)
            if op in ("==", "!=") and is_condition(a) != is_condition(b):  # `flag == 0` of `bool flag = t >= 128`
                c, n = (a, b) if is_condition(a) else (b, a)
                if n.is_Integer and int(n) in (0, 1):
                    return c if (int(n) == 1) == (op == "==") else sympy.Not(c)
            if op in ("&&", "||") and all(is_condition(v) or v.is_Symbol for v in (a, b)):
                return (sympy.And if op == "&&" else sympy.Or)(a, b)
        return self.opaque("value", a, b)

    def local(self, target: ir.Expr, env: Env) -> Optional[ir.Variable]:
        """The local variable an assignment to ``target`` updates (None: it stores to memory)."""
        return target.var if isinstance(target, ir.Ref) and not is_memory(target.var) \
            and not isinstance(env.get(target.var), Alias) else None

    def update(self, target: ir.Expr, op: Optional[str], rhs: Value, env: Env, record: bool) -> tuple[Value, Value]:
        """``target op= rhs`` (``++``/``--``: ``+`` of 1 or -1): the value before and the value after."""
        var = self.local(target, env)
        if var is None:
            self.storing = rhs
        cur = (env[var] if var in env else self.expr(target, env, record=record)) \
            if var is not None else self.expr(target, env, mode="rw", record=record)
        self.storing = None
        new = self.arith(op, cur, rhs)
        self.work(record, cur, rhs, t=target.type)
        if var is not None:
            env[var] = new
        return cur, new

    def assign(self, e: ir.Assign, env: Env, _mode: str, record: bool) -> Value:
        rhs = self.expr(e.value, env, record=record)
        if e.op == "=":
            if (var := self.local(e.target, env)) is not None:
                env[var] = rhs
            else:
                self.storing = rhs
                self.expr(e.target, env, mode="write", record=record)
                self.storing = None
            return rhs
        cur, new = self.update(e.target, _COMPOUND.get(e.op), rhs, env, record)
        if e.op in ("/=", "%=") and record:
            self.division(e.op[0], e, e.value, rhs, cur)
        return new

    def unary(self, e: ir.Unary, env: Env, mode: str, record: bool) -> Value:
        op = e.op
        if op in ("pre++", "pre--", "post++", "post--"):
            cur, new = self.update(e.operand, "+", sympy.Integer(1 if op.endswith("++") else -1), env, record)
            return new if op.startswith("pre") else cur
        if op == "&":
            inner = e.operand
            if isinstance(inner, (ir.Index, ir.Member)) or isinstance(inner, ir.Call) and inner.name == "operator[]":
                return self.expr(inner, env, mode="addr", record=record)
            v = self.expr(inner, env, record=record)
            return v if isinstance(v, Pointer) else self.opaque("addr", v)
        if op == "*":
            p = self.expr(e.operand, env, record=record)
            if not isinstance(p, Pointer):
                return self.opaque("load", p)
            return p if mode == "addr" else self.load(e, p, mode, record)
        v = self.expr(e.operand, env, record=record)
        if op in ("-", "~"):
            self.work(record, v, t=e.type)
        if op == "!" and isinstance(v, sympy.Basic) and (is_condition(v) or v.is_integer):
            return negate(v)
        if op in ("+", "-") and isinstance(v, sympy.Basic):
            return as_number(v) if op == "+" else -as_number(v)   # `-(a < b)`: 0 or -1 (arrayfire's FAST)
        return self.opaque("value", v)

    def call(self, e: ir.Call, env: Env, _mode: str, record: bool) -> Value:
        name = e.name
        if name in BARRIERS:
            for a in e.args:
                self.expr(a, env, record=record)
            if record:
                self.barrier(name, e)
            return self.symbols.opaque(name, varying=False)
        types = [o.type.pointee if o.type.kind in (TypeKind.REFERENCE, TypeKind.POINTER) else o.type
                 for o in (e.receiver, *e.args) if o is not None] if name == "sync" else []
        if any(t is not None and t.name.split("::")[-1] in BLOCK_GROUPS for t in types):
            # `block.sync()`, `this_thread_block().sync()`, `cg::sync(block)`, `grid.sync()`
            if record:
                self.barrier("cooperative_groups sync", e)
            return None
        group = e.receiver if e.receiver is not None else e.args[0] if name in ("thread_rank", "group_size") \
            and len(e.args) == 1 else None   # `block.thread_rank()`, `cg::thread_rank(block)`
        if group is not None and (gt := group.type.pointee if group.type.kind in (TypeKind.REFERENCE,
                                                                                   TypeKind.POINTER) else group.type):
            if (v := group_value(gt.name, "size" if name == "group_size" else name)) is not None:
                return v
        done, v = self.accessor_call(e, env, _mode, record)
        if done:
            return v
        if name in LOADS and e.args:
            p = self.expr(e.args[0], env, record=record)
            return self.load(e, p, "read", record) if isinstance(p, Pointer) else self.opaque("load", p)
        if name in ("memcpy", "__builtin_memcpy") and len(e.args) == 3:
            return self.copy_in(e, env, record)
        if record and TEXTURE.fullmatch(name or ""):  # memory traffic one_shot counts; its lanes are not modelled
            tex = ArrayDecl(name, AddressSpace.GLOBAL, "texture", 0)
            self.kernel.accesses.append(Access(tex, None, 0, "write" not in name, "write" in name, e.span,
                                               loop_depth=len(self.loops), loop_trips=tuple(self.trips)))
        fn = e.func
        if fn is not None and fn.body is not None and fn.kind.device and self.depth < MAX_INLINE_DEPTH:
            return self.inline(fn, e.args, env, SourceLine.of(e.span), record, e.template_args)
        vals = [self.expr(a, env, record=record) for a in e.args]
        if len(vals) == 2 and all(isinstance(v, sympy.Basic) and not is_condition(v) for v in vals):
            if name in ("min", "max", "umin", "umax", "llmin", "llmax", "ullmin", "ullmax"):
                return (sympy.Min if "min" in name else sympy.Max)(*vals)
            if name in ("__mul24", "__umul24"):  # exact for the 24-bit operands they are used with
                return vals[0] * vals[1]
        if name == "dim3" or e.type.name in ("dim3", "uint3"):
            return self.opaque("dim3", *vals)
        if (base := _SCOPED.sub("", name or "")) in VARYING_CALLS:  # `atomicAdd_system` is an atomicAdd
            if vals and isinstance(vals[0], Pointer):
                self.region += 1  # nothing is merged across it; a load of another array may still reuse a value
                self.atomics.append((len(self.kernel.accesses), vals[0].array))
            else:
                self.cut()
            self.epoch += 1
            if _reads_only(base, vals) and isinstance(vals[0], Pointer):
                # `atomicAdd(p, 0)`, `atomicCAS(p, 0, 0)`: a read of *p (chai's `n_t_local = atomicAdd(n_t, 0)`),
                # as uniform as a load of that address (the returned old value is the same in every thread that
                # makes it while no one writes *p)
                return self.opaque("load", vals[0])
            return self.symbols.opaque(name, varying=True)
        if name and not name.startswith(("operator", "make_")) and name != "dim3":
            self.work(record, None)  # an intrinsic or a function not seen into: an operation (`__byte_perm`, `rotl`)
        if name in FENCES:
            self.cut()  # nothing is merged with, or served again to, an access on the other side
        if name in FENCES or any(isinstance(v, (Pointer, Alias)) for v in vals):
            self.epoch += 1  # a fence, or a function cudalint cannot see into that may read or write memory
        if record and name not in FENCES:
            self.unsized(f"`{name or 'a call'}`, which cudalint cannot see into,", vals)
        # a function defined nowhere cudalint reads (not an intrinsic: those start with `__`, nor an operator)
        unseen = fn is None and bool(name) and not name.startswith(("__", "operator")) and name not in FENCES
        return self.opaque(name or "call", *vals, unseen=unseen)

    def inline(self, fn: ir.Function, args: list[ir.Expr], env: Env, line: int, record: bool,
               targs: tuple = ()) -> Value:
        """Interpret ``fn``'s body with its parameters bound to ``args`` and its template parameters to ``targs``
        (``mix<8>(s)``: ``ROUNDS`` = 8 in its loops); a reference parameter bound to a local is copied in and written
        back (out-parameters), one bound to memory aliases it."""
        saved_values, saved_bindings, saved_types = self.values, self.bindings, self.types
        if fn.template_params:
            given = list(zip(fn.template_params, targs))
            named = {tp.name for tp, _ in given}
            pairs = given + [(tp, t) for tp in fn.template_params if tp.name not in named
                             and (t := self.deduced(fn, args, tp.name)) is not None]
            self.types = {**self.types, **{tp.name: a for tp, a in pairs if isinstance(a, Type)
                                           and a.kind != TypeKind.PARAM}}
            self.values = {**self.values, **{tp.name: a for tp, a in pairs
                                             if isinstance(a, int) and not isinstance(a, bool)}}
            self.bindings = {**self.bindings, **{tp.name: a.size for tp, a in pairs if isinstance(a, Type) and a.size
                                                 and a.kind != TypeKind.PARAM}}
        out = self._inline(fn, args, env, line, record)  # an exception ends the kernel's interpretation
        self.values, self.bindings, self.types = saved_values, saved_bindings, saved_types
        return out

    def deduced(self, fn: ir.Function, args: list[ir.Expr], name: str) -> Optional[Type]:
        """The type a call's arguments deduce for ``fn``'s template type parameter ``name`` (C++ [temp.deduct.call],
        the pointer and reference cases): a parameter ``const T *val`` given a ``__half2 *`` is ``T`` = ``__half2``,
        the argument's own template parameters read as the caller binds them.  None when no parameter deduces it
        (the caller's binding of the same name, if any, stays: FasterTransformer's ``ldg<T>(const T *)`` called with a
        ``const T2 *`` in a kernel whose own ``T`` is ``__half`` was read as a 2-byte load)."""
        for p, a in zip(fn.params, args):
            pt, at = p.type, _written_type(a)
            while pt.kind in (TypeKind.POINTER, TypeKind.REFERENCE) and pt.pointee is not None:
                if pt.kind == TypeKind.POINTER:
                    if at.kind not in (TypeKind.POINTER, TypeKind.ARRAY) or at.pointee is None:
                        break
                    at = at.pointee
                pt = pt.pointee
            if pt.kind == TypeKind.PARAM and pt.name == name:
                at = self.types.get(at.name, at) if at.kind == TypeKind.PARAM else at
                return at if at.kind not in (TypeKind.PARAM, TypeKind.UNKNOWN) and at.size else None
        return None

    def _inline(self, fn: ir.Function, args: list[ir.Expr], env: Env, line: int, record: bool) -> Value:
        callee_env: Env = {}
        out: list[tuple[ir.Variable, ir.Variable]] = []
        for i, a in enumerate(args):
            p = fn.params[i] if i < len(fn.params) else None
            if p is not None and p.type.kind == TypeKind.REFERENCE:
                v = self.bind(a, env, record)
                if self.local(a, env) is not None:
                    out.append((p, a.var))
            else:
                v = self.expr(a, env, record=record)
            if p is None:
                continue
            if isinstance(v, Pointer) and p.type.kind == TypeKind.POINTER:
                v = self.retype(v, p.type.pointee)
            callee_env[p] = v if v is not None else self.symbols.opaque(p.name, varying=False)
        saved, saved_break, saved_tail = self.returns, self.breakable, self.tail
        self.returns, self.breakable = [], []
        body = fn.body.body if isinstance(fn.body, ir.Block) else []
        self.tail = body[-1] if body and isinstance(body[-1], ir.Return) else None
        self.depth += 1  # no try/finally: an exception ends the kernel's interpretation (interpret())
        self.call_chain.append((fn.name, line))
        self.stmt(fn.body, callee_env)
        for p, var in out:
            env[var] = callee_env[p]
        self.depth -= 1
        self.call_chain.pop()
        self.breakable, self.tail = saved_break, saved_tail
        rets, self.returns = self.returns, saved
        if len(rets) == 1 or rets and all(isinstance(r, sympy.Basic) and r == rets[0] for r in rets):
            return rets[0]
        return self.opaque(fn.name, *rets) if rets else None


#: the expressions interpreted by a method of their own, called as ``method(interpreter, e, env, mode, record)``
_EXPR_METHODS = {ir.Ref: KernelInterpreter.ref, ir.Member: KernelInterpreter.member, ir.Unary: KernelInterpreter.unary,
                 ir.Index: KernelInterpreter.subscript, ir.Binary: KernelInterpreter.binary,
                 ir.Assign: KernelInterpreter.assign, ir.Call: KernelInterpreter.call}


#: operations a value may be built from before it is an opaque value (:meth:`KernelInterpreter.bounded`); the
#: deepest value of the fixtures takes 13 (tileTranspose's guard)
MAX_OPERATIONS = 400
#: the operators whose floating-point result is a fresh opaque value (comparisons stay relations)
_FLOAT_OPS = frozenset(("+", "-", "*", "/"))


def _jumps(s: Optional[ir.Stmt]) -> bool:
    """Whether ``s`` ends in a jump (``break``, ``continue``, ``return``, ``goto``): control does not fall past it."""
    while isinstance(s, (ir.Case, ir.Label)):
        s = s.body
    while isinstance(s, ir.Block) and s.body:
        s = s.body[-1]
    return isinstance(s, (ir.Jump, ir.Return))


def is_memory(var: ir.Variable) -> bool:
    """A scalar that lives in memory shared between threads (``__shared__``, ``__device__``, a static or
    file-scope variable), not in a thread's registers."""
    if var.type.kind == TypeKind.ARRAY:
        return False
    if var.storage == ir.Storage.STATIC and var.space == ir.Space.LOCAL and var.type.const:
        # a function's `static constexpr int kElems = 16 / sizeof(T);` (TransformerEngine): never written, its
        # initialiser's value at every read, as a `constexpr` local's
        return False
    return var.space not in (ir.Space.LOCAL, ir.Space.CONSTANT) or var.storage in (ir.Storage.FILE, ir.Storage.STATIC)


def min_max(cond: Value, a: Value, b: Value) -> Optional[sympy.Expr]:
    """``cond ? a : b`` as ``Min(a, b)`` or ``Max(a, b)`` when ``cond`` compares ``a`` with ``b`` (``x < y ? x :
    y``, a ``MIN`` macro), else None."""
    if not isinstance(cond, (sympy.StrictLessThan, sympy.LessThan, sympy.StrictGreaterThan, sympy.GreaterThan)) \
            or not isinstance(a, sympy.Expr) or not isinstance(b, sympy.Expr):
        return None
    below = isinstance(cond, (sympy.StrictLessThan, sympy.LessThan))
    if (cond.lhs, cond.rhs) == (a, b):
        return sympy.Min(a, b) if below else sympy.Max(a, b)
    if (cond.lhs, cond.rhs) == (b, a):
        return sympy.Max(a, b) if below else sympy.Min(a, b)
    return None


def relation(rel, a: sympy.Expr, b: sympy.Expr) -> sympy.Basic:
    """``rel(a, b)`` with a ``Min``/``Max`` side written as the and/or of the comparisons with its arguments
    (``m < Min(n, s + 16)``: ``m < n && m < s + 16``), so each can be judged on its own (a bound every thread
    meets, a trip count that is the same for all)."""
    if rel in (sympy.Eq, sympy.Ne):
        return evaluated_relation(rel, a, b)
    below = rel in (sympy.Lt, sympy.Le)
    if isinstance(b, (sympy.Min, sympy.Max)):  # a < Min: all; a < Max: any (a > Min: any; a > Max: all)
        every = isinstance(b, sympy.Min) == below
        return (sympy.And if every else sympy.Or)(*(relation(rel, a, x) for x in b.args))
    if isinstance(a, (sympy.Min, sympy.Max)):  # Min < b: any; Max < b: all (Min > b: all; Max > b: any)
        every = isinstance(a, sympy.Max) == below
        return (sympy.And if every else sympy.Or)(*(relation(rel, x, b) for x in a.args))
    return evaluated_relation(rel, a, b)


def negate(v: Value) -> Value:
    """The truth value of ``!v``: Not of a condition, ``v == 0`` of an integer (``!(tid & 1)``); any
    other value unchanged (an opaque truth value: as uniform as ``v``)."""
    if is_condition(v):
        return sympy.Not(v)
    if isinstance(v, sympy.Expr) and v.is_integer:
        return sympy.Eq(v, 0)
    return v


def _leaves_loop(b: ir.Block) -> bool:
    """Whether the block always leaves the loop around it: it ends in a ``break`` or ``return`` (a ``throw``), and no
    ``continue`` of that loop in it can skip to the next trip."""
    last = b.body[-1] if b.body else None
    ends = isinstance(last, ir.Return) or isinstance(last, ir.Jump) and last.kind == ir.JumpKind.BREAK or \
        isinstance(last, ir.ExprStmt) and isinstance(last.expr, ir.Opaque) and last.expr.what == "throw"
    if not ends:
        return False
    stack = list(b.body)
    while stack:
        n = stack.pop()
        if isinstance(n, ir.Jump) and n.kind == ir.JumpKind.CONTINUE:
            return False
        if not isinstance(n, (ir.Loop, ir.Switch)):  # their own `continue`/`break` stay inside them
            stack.extend(ir.children(n))
    return True


def _carried_walk(root: ir.Node):
    """:func:`ir.walk` of a loop's body without the blocks that always leave the loop (:func:`_leaves_loop`): what is
    assigned there never reaches the loop's next trip.  Nested loops and switches are walked whole."""
    stack = [root]
    while stack:
        x = stack.pop()
        if isinstance(x, (ir.Loop, ir.Switch)):
            yield from ir.walk(x)
        elif not (isinstance(x, ir.Block) and _leaves_loop(x)):
            yield x
            stack.extend(reversed(ir.children(x)))


def refs(e: Optional[ir.Node]) -> set:
    """The variables an expression reads."""
    return {n.var for n in ir.walk(e) if isinstance(n, ir.Ref)}


def _written_type(e: ir.Expr) -> Type:
    """An argument's type where a template leaves it dependent: ``attn_mask + i`` is ``attn_mask``'s pointer type
    (pointer arithmetic), ``c ? p : q`` the first branch's, ``&x`` a pointer to ``x``'s."""
    if e.type.kind != TypeKind.UNKNOWN:
        return e.type
    if isinstance(e, ir.Binary) and e.op in ("+", "-"):
        return next((t for t in (_written_type(e.lhs), _written_type(e.rhs)) if t.kind == TypeKind.POINTER), e.type)
    if isinstance(e, ir.Cond):
        return _written_type(e.then)
    if isinstance(e, ir.Unary) and e.op == "&":
        return pointer_to(_written_type(e.operand))
    return e.type


def interpret(fn: ir.Function, kernel: Kernel, symbols: Symbols, globals_: dict, bindings: dict, values: dict,
              types: Optional[dict] = None) -> None:
    """Interpret kernel ``fn`` into ``kernel`` (its accesses, barriers, exits and divisions).

    ``globals_``: file-scope arrays (Variable -> ArrayDecl); ``bindings``: template type parameters ->
    size in bytes; ``values``: template non-type parameters -> int; ``types``: template type parameters -> the
    launched type (a struct's fields and alignment decide how nvcc moves it)."""
    interp = KernelInterpreter(kernel, symbols, globals_, bindings, values, types)
    interp.used, interp.asm_text = used_variables(fn)
    env: Env = {}
    for p in fn.params:
        t = p.type
        esize = interp.size_of(t.pointee) if t.kind == TypeKind.POINTER else None
        if esize:
            arr = ArrayDecl(name=p.name, space=AddressSpace.GLOBAL, elem_type=t.pointee.spelling(), elem_size=esize,
                            restrict=p.restrict)
            env[p] = Pointer(arr, sympy.Integer(0), esize, (), (), t.pointee)
        elif (acc := interp.accessor(p.name, t)) is not None:
            env[p] = acc
        elif t.kind == TypeKind.RECORD and t.fields and t.name not in ("dim3", "uint3"):
            env[p] = Record(p.name, t)
        else:
            env[p] = None if t.kind == TypeKind.POINTER else symbols.param(p.name)
    with ir.recursion_limit(RECURSION_LIMIT):
        try:
            interp.stmt(fn.body, env)
        except RecursionError:
            kernel.incomplete.append("expression nesting too deep to model")
