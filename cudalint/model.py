"""The kernel model: what the analyses and rules see of a translation unit.

Front-end independent (DESIGN.md §2): rules never touch clang or tree-sitter objects, only these
dataclasses.  Index expressions are sympy expressions over the symbols of :mod:`cudalint.analysis.symbols`
(threadIdx/blockIdx/blockDim/gridDim, kernel parameters, loop trip counters, opaque values).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Optional

import sympy

from .ir.nodes import Span

if TYPE_CHECKING:
    from .analysis.host import Provenance
    from .analysis.symbols import Symbols
    from .ir.nodes import TranslationUnit


class AddressSpace(str, enum.Enum):
    GLOBAL = "global"
    SHARED = "shared"
    CONSTANT = "constant"
    LOCAL = "local"


@dataclass
class ArrayDecl:
    """A declared array or pointer that accesses go through.

    ``dims`` holds the declared extents of a multi-dimensional array (``T a[R][C]`` -> ``(R, C)``), ``None``
    for an unsized dimension (``extern __shared__ T s[]``) or a pointer.  ``dim_spans`` holds the source
    range of each extent's expression (for the padding fix) and ``dim_texts`` its spelling.
    """
    name: str
    space: AddressSpace
    elem_type: str
    elem_size: int
    dims: tuple[Optional[int], ...] = ()
    dim_spans: tuple[Optional[Span], ...] = ()
    dim_texts: tuple[str, ...] = ()
    #: where the array is declared (ptxas lays a kernel's static shared arrays out in declaration order)
    declared_at: Optional[Span] = None
    #: the alignment in bytes the declaration asks for (``__align__(16)``), None when it asks for none
    align: Optional[int] = None
    #: a kernel's ``__restrict__`` pointer parameter: no store or atomic through another pointer reaches its bytes
    restrict: bool = False


@dataclass
class Access:
    """One memory access site: a load, a store, or both (``a[i] += x``).

    ``offset`` is the byte offset from the array's base as a sympy expression; ``size`` the bytes one lane
    moves (4 for ``float``, 16 for ``float4``, the field's size for ``a[i].x``).  ``subscripts`` holds the
    per-dimension element indices of a multi-dimensional array (to recompute the offset with a padded
    row), ``field_offset`` the byte offset of the accessed struct field inside the element.
    ``split`` > 1 when a whole struct is moved as that many separate field accesses (its alignment is
    smaller than its size, as for ``struct {float x, y;}``).
    """
    array: ArrayDecl
    offset: Optional[sympy.Expr]
    size: int
    is_read: bool
    is_write: bool
    span: Span
    subscripts: tuple[sympy.Expr, ...] = ()
    field_offset: int = 0
    elem_size: int = 0
    split: int = 1
    guards: tuple[sympy.Basic, ...] = ()
    #: alignment in bytes of the element the access lies in (the struct's for a field; 0 unknown)
    align: int = 0
    #: accesses with the same region have no barrier, atomic or loop boundary between them
    region: int = 0
    #: how many loops of the kernel (and of the helpers it calls there) enclose the access
    loop_depth: int = 0
    #: ``(trip, T)`` when the innermost loop around it runs a constant ``T`` trips counted by ``trip`` and nvcc
    #: unrolls it (:func:`cudalint.analysis.merge.vectorize_unrolled`), else ``()``
    unrolled: tuple = ()
    #: how many of those loops run a constant number of trips that nvcc unrolls completely
    #: (:func:`cudalint.analysis.interpreter.constant_trips`): straight-line code, not a loop that repeats it
    fixed_loops: int = 0
    #: the trip counters of those loops, outermost first (their conditions: ``Symbols.loop_conds``)
    loop_trips: tuple = ()
    #: accesses with the same epoch have no barrier, atomic, fence, inline assembly or call of a function
    #: cudalint cannot see into between them (loop boundaries do not count: :mod:`cudalint.analysis.registers`)
    epoch: int = 0
    #: how many ``return``/``break``/``continue``/``goto`` statements the interpreter passed before the access
    exits: int = 0
    #: made through a volatile-qualified lvalue: never kept in a register
    volatile: bool = False
    #: one byte of a device ``memcpy``, which nvcc copies a byte at a time
    copied: bool = False
    #: the branches of ``if constexpr`` statements whose condition cudalint could not evaluate that the access is
    #: in, as (statement id, 0 for then / 1 for else), outermost first: only one branch of each is compiled, so two
    #: accesses in different branches of one are alternatives, never both made (lmdeploy's ``Load``/``Store``
    #: helpers, one branch per vector width)
    choices: tuple = ()
    #: the spans of the accesses of other lines or columns that nvcc merges into this one vector access
    #: (:func:`cudalint.analysis.merge.merge_accesses`; ``dst[i].y = ..`` on the line after ``dst[i].x = ..``)
    members: tuple = ()

    @property
    def compile_time_choice(self) -> bool:
        """Made in a branch of an ``if constexpr`` cudalint could not decide: it may not be compiled at all."""
        return bool(self.choices)

    def alternative_to(self, other: "Access") -> bool:
        """Whether ``other`` is in another branch of an undecided ``if constexpr`` this access is in (:attr:`choices`)."""
        mine = dict(self.choices)
        return any(k in mine and mine[k] != b for k, b in other.choices)

    @property
    def run_time_loops(self) -> int:
        """How many loops whose trip count is a run-time value (or above 16) enclose the access: the ones that
        repeat it as the problem grows."""
        return self.loop_depth - self.fixed_loops

    @property
    def kind(self) -> str:
        return "load and store" if self.is_read and self.is_write else "store" if self.is_write else "load"


class SourceLine(int):
    """A line number that remembers its file: the line of a guard or a call a barrier or an exit sits under, which
    may be in another file than the finding (a helper in a header called from the kernel's file).  Compares and
    hashes as the number; :func:`cudalint.rules.lines_text` names the file where it differs from the finding's."""

    path: str

    def __new__(cls, line: int, path: str = "") -> "SourceLine":
        obj = super().__new__(cls, line)
        obj.path = path
        return obj

    def __reduce__(self):
        return SourceLine, (int(self), self.path)

    @classmethod
    def of(cls, span: Span) -> "SourceLine":
        return cls(span.line, span.path)


@dataclass
class Barrier:
    """A block-wide barrier (``__syncthreads*``, cooperative-groups block/grid sync, ``bar.sync``).

    ``guards`` are the conditions (sympy values) of every if/switch/?:/loop it sits under, ``loops`` the
    ids of its enclosing loops, ``order`` its position in the interpreter's visit order, ``call_chain`` the
    device functions it was reached through (outermost first)."""
    name: str
    span: Span
    guards: tuple[object, ...] = ()
    loops: tuple[int, ...] = ()
    order: int = 0
    call_chain: tuple[tuple[str, int], ...] = ()


class ExitKind(str, enum.Enum):
    RETURN = "return"
    BREAK = "break"
    CONTINUE = "continue"
    GOTO = "goto"


@dataclass
class Exit:
    """A ``return`` (of the kernel itself), ``break``, ``continue`` or ``goto``, with its guards."""
    kind: ExitKind
    span: Span
    guards: tuple[object, ...] = ()
    loops: tuple[int, ...] = ()
    order: int = 0


@dataclass
class Division:
    """An integer ``/`` or ``%`` (also ``/=``, ``%=``) in device code.

    ``signed``: the operation's type is a signed integer; ``divisor``: its sympy value;
    ``pow2``: the divisor is known to be a power of two (constant, ``1 << k``, or a loop variable doubled
    or halved each trip); ``divisor_text``: its spelling; ``dividend_varying``: the dividend differs between
    threads (a block-uniform dividend is computed once and hoisted, so its cost does not matter)."""
    op: str
    span: Span
    signed: bool
    divisor: object
    pow2: bool
    divisor_text: str
    dividend_varying: bool = True
    in_loop: bool = False  # inside a loop of the kernel (or of a helper it calls there) and varying there
    guards: tuple[sympy.Basic, ...] = ()
    #: inside a loop, but nothing it reads changes there: nvcc computes it once before the loops
    hoisted: bool = False


@dataclass
class LaunchSite:
    """A ``kernel<<<grid, block, ...>>>(...)`` site; dims are ints where constant, else None."""
    kernel: str
    grid: tuple[Optional[int], Optional[int], Optional[int]]
    block: tuple[Optional[int], Optional[int], Optional[int]]
    span: Span
    template_args: tuple = ()
    #: the block argument as written (``threads``), for a block known only at run time
    block_text: str = ""
    grid_text: str = ""
    function: str = ""  # the host function the launch is in
    #: the loops of that function around it, outermost first: (line, column) of each
    loops: tuple[tuple[int, int], ...] = ()
    #: the threads it runs as an expression of the host's run-time values (``512*(Size/512 + 1)``), None unknown
    threads: Optional[sympy.Expr] = None
    #: each argument's value where a constant integer (``n`` bound to 1024), else None
    args: tuple[Optional[int], ...] = ()
    #: each integer argument as an expression of the host's run-time values, in the terms of :attr:`threads`
    #: (``blocks*threads``), else None
    arg_values: tuple = ()
    #: each gridDim member as an upper bound in the launch's integer arguments (``arg2/64``: the third argument
    #: over 64), None where it reads a value not passed (:func:`cudalint.analysis.launches._grid_bound`)
    grid_bound: tuple = ()
    #: the values taken from the program's defaults, which a command-line branch of ``main`` can override:
    #: ``(("block", "blocksize", 135), (2, "n", 40))`` (role: "grid", "block" or the argument's index; the name
    #: of the variable; the line of the branch)
    defaults: tuple = ()
    #: the indices of the arguments that are a variable a loop around the launch steps (``t`` of
    #: ``for (t = 0; t < n; t++) k<<<g, b>>>(m, n, t);``): an index that walks the data, launch by launch
    counters: tuple[int, ...] = ()
    #: what each argument is a multiple of in every run, with the host assignment that made it one:
    #: ``((1024, Span of `n *= 1024`), (1, None), ...)`` (1: nothing known; 0: the argument is 0)
    multiples: tuple = ()
    #: the call that passed :attr:`block` to the launching function's parameter (``run_tr(g, dim3(16, 16))`` for
    #: ``void run_tr(dim3 g, dim3 b) { k<<<g, b>>>(); }``), None when the block is not a parameter's value
    block_from: Optional[Span] = None
    #: for each argument, the call in another file that passed its value to the launching function's parameter
    #: (tsne's ``ComputeChargesQij(.., n_terms)``, called from fit_tsne.cu with 4), else None
    args_from: tuple = ()
    #: the block's x as an expression of the host's run-time values (``channels``), None where not expressible
    block_sym: Optional[sympy.Expr] = None
    #: each argument's largest value where a test the host passed before the launch bounds it (``if (channels > 4)
    #: return ..;``): (the bound, the test's span), else None
    arg_max: tuple = ()

    @property
    def in_loop(self) -> bool:
        return bool(self.loops)

    def fits(self, arity: Optional[int]) -> bool:
        """Whether this launch can be of a kernel template with ``arity`` template parameters (None: of any): its
        explicit template arguments, if any, are that many (overloaded kernel templates, NVIDIA/AMGX's
        ``estimate_c_hat_size_kernel<CTA, WARP>`` and ``<ROW, CTA, WARP>``)."""
        return arity is None or not self.template_args or len(self.template_args) == arity


@dataclass
class Kernel:
    name: str
    span: Span
    accesses: list[Access] = field(default_factory=list)
    barriers: list[Barrier] = field(default_factory=list)
    exits: list[Exit] = field(default_factory=list)
    divisions: list[Division] = field(default_factory=list)
    incomplete: list[str] = field(default_factory=list)
    instantiation: Optional[str] = None
    #: the launched template arguments this kernel was analysed with (one Kernel per instantiation)
    template_args: tuple = ()
    #: the number of its template parameters where another kernel template of the translation unit has its name (an
    #: overload: a launch with explicit template arguments is of the one whose count they match), else None
    template_arity: Optional[int] = None
    #: integer parameters every launch in the translation unit passes the same constant: name -> value
    launch_args: dict = field(default_factory=dict)
    #: integer parameters every launch passes a value the host bounds from above before it (:attr:`LaunchSite.arg_max`):
    #: name -> (the largest bound, the test that gives it)
    launch_max: dict = field(default_factory=dict)
    #: the index of each of those parameters among the launch's arguments (to name the ones a launch takes
    #: from the program's command-line defaults: :attr:`LaunchSite.defaults`)
    default_args: dict = field(default_factory=dict)
    #: integer parameters every launch in the translation unit passes a multiple of a number greater than 1 (and
    #: not one constant): name -> (the common factor, the host assignment that made it one)
    #: (:attr:`LaunchSite.multiples`)
    launch_multiples: dict = field(default_factory=dict)
    #: integer parameters every launch passes a multiple of its own block's x size (``n = batch * channels`` with
    #: ``channels`` threads a block), where that size is not one number for all: name -> the first such launch's span
    block_multiples: dict = field(default_factory=dict)
    #: the parameters a launch passes a loop's counter (:attr:`LaunchSite.counters`): indices that walk the data
    counter_params: frozenset = frozenset()
    #: gridDim members every launch bounds alike from above, in the kernel's parameters: ``{gridDim.x: num/32}``
    #: (:attr:`LaunchSite.grid_bound`)
    grid_bound: dict = field(default_factory=dict)
    #: per launch (of this instantiation): its integer arguments as host expressions keyed by the kernel's parameter
    #: symbols, and the threads it runs (:attr:`LaunchSite.arg_values`, :attr:`LaunchSite.threads`); empty when a
    #: launch's threads are not known
    launch_values: tuple = ()
    #: ``k<float, 256>`` for an instantiation, else the name
    label: str = ""
    #: the non-type template parameters no instantiation of the translation unit binds (``NDIM`` of Open3D's
    #: ``template <class T, int NDIM> __global__ void ComputeVoxelCoordsKernel``, launched from a host template the
    #: includer calls in a `switch` over 1..8): compile-time constants of unknown value, usually small
    open_template_params: frozenset = frozenset()
    incomplete_assumptions: list[str] = field(default_factory=list)
    #: the operations on data (values loaded from memory or not followed: a hash round, floating-point math), counted
    #: once per source operation and keyed by the trip counters of the loops around them, outermost first, the
    #: costlier branch of an ``if`` only (:func:`cudalint.rules.compute_bound` weighs them by the loops' trips)
    ops: dict = field(default_factory=dict)
    #: global memory the kernel may read where cudalint cannot say how many bytes: a call it cannot see into that is
    #: given a pointer to global memory (``glm::make_vec4(quats)`` whose ``memcpy`` size is a dependent ``sizeof``),
    #: as (the call described for a message, its loop depth, whether the pointer's offset depends on the thread)
    unsized_reads: list = field(default_factory=list)


@dataclass
class AsyncCopy:
    """An async host<->device copy call in host code (``cudaMemcpyAsync``, 2D/3D/ToSymbol/FromSymbol, ``hip*``).

    Roles are ``"dst"`` and ``"src"`` (a symbol side has no role).  ``kind``: the cudaMemcpyKind as written
    (``"cudaMemcpyHostToDevice"``; ``"... (default)"`` when the API's default applies; None when not known
    statically).  ``host_side``: the roles that are host memory for that kind (both for Default or an
    unknown kind).  ``pointers``: role -> the :class:`~cudalint.analysis.host.Provenance` of its memory as seen
    at the call (cudaHostRegister'ed pageable memory is ``pinned``).  ``pointer_text``: role -> the argument's
    text.  ``stream``: the stream argument's text (None: default stream).  ``function``: the host function the
    call is in.
    """
    api: str
    span: Span
    kind: Optional[str]
    host_side: tuple[str, ...]
    pointers: dict[str, "Provenance"]
    pointer_text: dict[str, str]
    stream: Optional[str]
    function: str
    bytes: Optional[int] = None  # the size copied, when it folds to a constant


def errors_within(errors: list, path: str, span: Span) -> list[tuple[int, str]]:
    """The ``(line, message)`` of a translation unit's ``errors`` (those of its file ``path``) that lie inside
    ``span``: a kernel's body clang could not compile (its statements dropped), which the kernel's CL000 names."""
    return [(ln, m) for ln, m in errors if span.path == path and span.line <= ln <= (span.end_line or span.line)]


@dataclass
class TranslationUnitModel:
    path: str
    kernels: list[Kernel] = field(default_factory=list)
    launches: list[LaunchSite] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    missing_includes: list[str] = field(default_factory=list)
    copies: list[AsyncCopy] = field(default_factory=list)
    #: which front-end built the model: "clang" or "tree-sitter"
    frontend: str = "clang"
    #: every file the translation unit included (absolute paths), for the result cache
    dependencies: list[str] = field(default_factory=list)
    #: the program's other files read for the launch shapes passed to this unit's launching functions
    #: (:func:`cudalint.runner.external_calls`): the result depends on them too, but this unit does not include them
    callers: list[str] = field(default_factory=list)
    #: the symbols index expressions are built from, and which of them are thread-varying
    symbols: Optional["Symbols"] = None
    #: kernels that may never run, though the translation unit launches others, with the reason (findings: info)
    unlaunched: dict[str, str] = field(default_factory=dict)
    #: kernels whose launch the file's text writes but the front-end did not read (the code around it did not
    #: compile): ``{kernel: (line, the error cited)}`` (:func:`cudalint.analysis.launches.lost_launches`; their
    #: findings are info)
    lost: dict[str, tuple[int, str]] = field(default_factory=dict)
    #: kernels launched once beside a loop that launches another with the same grid, with the reason (findings of
    #: cost rules: info)
    minor: dict[str, str] = field(default_factory=dict)
    #: the IR the model was built from (for rules that look at code the model does not summarise)
    unit: Optional["TranslationUnit"] = None
