"""The kernel IR: what both front-ends lower a translation unit to, and the only input of the analyses.

Nothing here knows clang or tree-sitter.  Every node carries the :class:`Span` it came from, in the file
it was written in (a header's own path, not the includer's); an expression produced by a macro carries the
span of the macro's use.  Expressions carry their resolved :class:`~cudalint.ir.types.Type`
(:data:`~cudalint.ir.types.UNKNOWN` where the front-end could not tell).

A :class:`TranslationUnit` holds functions (kernels, device and host functions, members included) and
file-scope variables; a :class:`Function` its parameters and a :class:`Block` body.  All nodes are
dataclasses, their lists in source order.

Variables are identified by object identity (``eq=False``): a front-end creates one :class:`Variable` per
declaration and every :class:`Ref` to it points to that object.
"""

from __future__ import annotations

import contextlib
import enum
import sys
from dataclasses import dataclass, field
from typing import Optional, Union

from .types import UNKNOWN, Field, Type


@dataclass(frozen=True, order=True)
class Span:
    """A source range, 1-based lines and columns, the end one past the last character (clang style)."""
    path: str
    line: int
    column: int
    end_line: int
    end_column: int

    def within(self, outer: "Span") -> bool:
        """Whether this range lies inside ``outer`` (the same file)."""
        return self.path == outer.path and (outer.line, outer.column) <= (self.line, self.column) \
            and (self.end_line, self.end_column) <= (outer.end_line, outer.end_column)


NOWHERE = Span("", 0, 0, 0, 0)


class Space(str, enum.Enum):
    """Where a variable lives (CUDA C++ Programming Guide, "Variable Memory Space Specifiers")."""
    LOCAL = "local"          # automatic variables of device code; host variables
    SHARED = "shared"        # __shared__
    CONSTANT = "constant"    # __constant__
    GLOBAL = "global"        # __device__ variables; what kernel pointer parameters point to
    MANAGED = "managed"      # __managed__


class Storage(str, enum.Enum):
    LOCAL = "local"          # automatic (function scope)
    STATIC = "static"        # static local
    PARAM = "param"          # function parameter
    FILE = "file"            # namespace / file scope


@dataclass(eq=False)
class Variable:
    """One declared variable (identity = the declaration).

    ``const_value``: the integer value of a ``const``/``constexpr`` variable with a constant initialiser
    (None otherwise).  ``extents``: for an array declaration, the spelling and span of each ``[...]``
    extent as written (``("TILE", span)``), for the padding fix; empty when the front-end cannot give them.
    ``in_main_file``: declared in the linted file itself (not in an included header).
    """
    name: str
    type: Type
    span: Span
    storage: Storage = Storage.LOCAL
    space: Space = Space.LOCAL
    const_value: Optional[int] = None
    extents: tuple[tuple[str, Span], ...] = ()
    in_main_file: bool = True
    #: a file-scope variable's initialiser (host-pointer provenance of globals)
    init: Optional["Expr"] = None
    #: the extents of an array whose type leaves some to a template's arguments (``T s[BM * BK]``), as
    #: expressions, outermost first, None where ``type`` has the number (empty when not known)
    extent_exprs: tuple = ()
    #: the alignment in bytes the declaration itself asks for (``__shared__ __align__(16) unsigned char s[N]``,
    #: ``alignas(16)``, ``__attribute__((aligned(16)))``), None when it asks for none
    align: Optional[int] = None
    #: a pointer parameter declared ``__restrict__``: no other pointer of the kernel reaches what it points to
    restrict: bool = False

    def __repr__(self) -> str:
        return f"Variable({self.name}: {self.type.spelling()})"


# --- expressions --------------------------------------------------------------------------------

@dataclass(eq=False)
class Expr:
    span: Span
    type: Type = field(default=UNKNOWN, kw_only=True)
    #: the expression's tokens joined as written (``h_buf + off``); set by the front-ends on call and
    #: launch arguments and on the divisor of ``/`` and ``%``, empty elsewhere
    text: str = field(default="", kw_only=True)


@dataclass(eq=False)
class IntLit(Expr):
    """An integer constant: a literal, ``true``/``false``, a character, an enumerator, ``sizeof``, or any
    integer expression the front-end folded (a macro such as ``TILE``)."""
    value: int


@dataclass(eq=False)
class SizeOf(Expr):
    """``sizeof`` of a type whose size depends on the instantiation (``sizeof(T)`` of a template type parameter):
    ``of`` is that type, sized by the interpreter with the kernel's bindings (:meth:`Type.size_with`)."""
    of: Type


@dataclass(eq=False)
class FloatLit(Expr):
    """A floating-point literal (its value is not modelled)."""


@dataclass(eq=False)
class Ref(Expr):
    """A use of a variable."""
    var: Variable


@dataclass(eq=False)
class Builtin(Expr):
    """``threadIdx.x`` ... ``gridDim.z`` (``axis`` "x"/"y"/"z") and ``warpSize`` (``axis`` None)."""
    name: str
    axis: Optional[str] = None


@dataclass(eq=False)
class TemplateArg(Expr):
    """A use of a non-type template parameter (``BLOCK`` in ``template <int BLOCK>``)."""
    name: str


@dataclass(eq=False)
class Unary(Expr):
    """``op`` is one of ``- + ! ~ * & pre++ pre-- post++ post--`` (``*`` dereferences, ``&`` takes the address)."""
    op: str
    operand: Expr


BINARY_OPS = ("+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "<", ">", "<=", ">=", "==", "!=", "&&", "||", ",")


@dataclass(eq=False)
class Binary(Expr):
    """``op`` is one of :data:`BINARY_OPS`; overloaded operators on class types are lowered to this too."""
    op: str
    lhs: Expr
    rhs: Expr


@dataclass(eq=False)
class Assign(Expr):
    """``target op value``: ``op`` is ``=`` or a compound assignment (``+=``, ``<<=`` ...)."""
    op: str
    target: Expr
    value: Expr


@dataclass(eq=False)
class Cond(Expr):
    """``cond ? then : else_``."""
    cond: Expr
    then: Expr
    else_: Expr


@dataclass(eq=False)
class Cast(Expr):
    """An explicit conversion (C-style, functional ``int(x)``, ``static_cast`` ...) to ``self.type``."""
    operand: Expr


@dataclass(eq=False)
class Call(Expr):
    """A call.  ``name``: the callee's unqualified name (``__syncthreads``, ``atomicAdd``, ``sync``);
    ``func``: its definition when this translation unit has one (a device helper to inline, a host helper
    to summarise), else None (an API such as ``cudaMemcpyAsync``); ``receiver``: the object of a member call
    (``block`` in ``block.sync()``; an overloaded operator's object is its first argument instead);
    ``args``: the arguments, default arguments included after the written ones."""
    name: str
    args: list[Expr] = field(default_factory=list)
    func: Optional["Function"] = None
    receiver: Optional[Expr] = None
    #: how many of ``args`` are written in the call (the rest are default arguments)
    written: int = -1
    #: a function template's arguments at this call (``mix<8>(s)``: ``(8,)``; ints and Types), else ``()``
    template_args: tuple = ()


@dataclass(eq=False)
class Member(Expr):
    """``base.name`` / ``base->name`` (``arrow``).  ``field`` is the resolved data member (its type and byte
    offset in the record) when the base's record type is known."""
    base: Expr
    name: str
    arrow: bool = False
    field: Optional[Field] = None


@dataclass(eq=False)
class Index(Expr):
    """``base[index]`` (also written ``index[base]``: front-ends keep the written order)."""
    base: Expr
    index: Expr


@dataclass(eq=False)
class Construct(Expr):
    """An object built from arguments: ``dim3(16, 16)``, ``float4{...}``, ``Buf c = b`` (a copy),
    ``std::vector<float> v(n)``."""
    args: list[Expr] = field(default_factory=list)


@dataclass(eq=False)
class InitList(Expr):
    """``{a, b, c}``."""
    items: list[Expr] = field(default_factory=list)


@dataclass(eq=False)
class New(Expr):
    """``new T`` / ``new T[n]`` (``array``); ``placement``: ``new (p) T``."""
    array: bool = False
    placement: bool = False
    args: list[Expr] = field(default_factory=list)


#: an explicit template argument of a launch: an int, a type, the spelling of a dependent type (``T``),
#: or an expression the front-end could not fold (evaluated like the launch's dimensions)
LaunchTemplateArg = Union[int, Type, str, "Expr"]


@dataclass(eq=False)
class Launch(Expr):
    """``kernel<<<grid, block, shared_mem, stream>>>(args)``; ``template_args``: its explicit template arguments."""
    kernel: str
    grid: Optional[Expr] = None
    block: Optional[Expr] = None
    shared_mem: Optional[Expr] = None
    stream: Optional[Expr] = None
    args: list[Expr] = field(default_factory=list)
    func: Optional["Function"] = None
    template_args: tuple[LaunchTemplateArg, ...] = ()


@dataclass(eq=False)
class Lambda(Expr):
    """A lambda expression; its body runs where the lambda is called, not where it is written."""
    params: list[Variable] = field(default_factory=list)
    body: Optional["Block"] = None


@dataclass(eq=False)
class Opaque(Expr):
    """Anything the IR does not model (``this``, ``delete``, a GNU statement expression, an unresolved
    construct): ``what`` names it (the hint of the opaque value it evaluates to); ``children`` are still
    evaluated for their accesses."""
    what: str
    children: list[Expr] = field(default_factory=list)


# --- statements ---------------------------------------------------------------------------------

@dataclass(eq=False)
class Stmt:
    span: Span


@dataclass(eq=False)
class Block(Stmt):
    body: list[Stmt] = field(default_factory=list)


@dataclass(eq=False)
class Decl(Stmt):
    """A variable's declaration with its initialiser (``T x = e``, ``T x(args)`` as a :class:`Construct`,
    ``T x{...}`` as an :class:`InitList`)."""
    var: Variable
    init: Optional[Expr] = None


@dataclass(eq=False)
class ExprStmt(Stmt):
    expr: Expr


@dataclass(eq=False)
class If(Stmt):
    """``if (init; cond) then else else_``; a condition declaration (``if (T x = e)``) is an ``init``
    :class:`Decl` and a ``cond`` :class:`Ref` to it."""
    cond: Optional[Expr]
    then: Stmt
    else_: Optional[Stmt] = None
    init: Optional[Stmt] = None
    #: ``if constexpr``: only the branch its condition selects is compiled
    constexpr: bool = False


class LoopKind(str, enum.Enum):
    FOR = "for"
    WHILE = "while"
    DO = "do"
    RANGE = "range-for"


@dataclass(eq=False)
class Loop(Stmt):
    """``for (init; cond; step) body``, ``while (cond) body``, ``do body while (cond)``, and the range
    ``for (var : range) body``.  ``cond`` None: no condition written (``for (;;)``)."""
    kind: LoopKind
    body: Stmt
    init: list[Stmt] = field(default_factory=list)
    cond: Optional[Expr] = None
    step: list[Expr] = field(default_factory=list)
    var: Optional[Variable] = None
    range: Optional[Expr] = None
    #: ``#pragma unroll`` written before it: 0 unroll completely, N by N (1: not at all); None: no pragma
    unroll: Optional[int] = None


@dataclass(eq=False)
class Switch(Stmt):
    cond: Optional[Expr]
    body: Stmt


@dataclass(eq=False)
class Case(Stmt):
    """A ``case value:`` (``value`` None: ``default:``) label and the statement it labels."""
    value: Optional[Expr]
    body: Optional[Stmt]


@dataclass(eq=False)
class Label(Stmt):
    name: str
    body: Optional[Stmt]


@dataclass(eq=False)
class Return(Stmt):
    value: Optional[Expr] = None


class JumpKind(str, enum.Enum):
    BREAK = "break"
    CONTINUE = "continue"
    GOTO = "goto"


@dataclass(eq=False)
class Jump(Stmt):
    kind: JumpKind
    label: str = ""


@dataclass(eq=False)
class Asm(Stmt):
    """Inline assembly; ``text`` is its template string(s) as written."""
    text: str


# --- functions and the translation unit -------------------------------------------------------------

class FunctionKind(str, enum.Enum):
    KERNEL = "__global__"
    DEVICE = "__device__"
    HOST = "__host__"
    HOST_DEVICE = "__host__ __device__"

    @classmethod
    def of(cls, kernel: bool, device: bool, host: bool) -> "FunctionKind":
        """The kind of a function declared ``__global__`` / ``__device__`` / ``__host__``."""
        return cls.KERNEL if kernel else cls.HOST if not device else cls.HOST_DEVICE if host else cls.DEVICE

    @property
    def device(self) -> bool:
        return self in (FunctionKind.DEVICE, FunctionKind.HOST_DEVICE)

    @property
    def host(self) -> bool:
        return self in (FunctionKind.HOST, FunctionKind.HOST_DEVICE)


@dataclass(frozen=True)
class TemplateParam:
    name: str
    is_type: bool


@dataclass(eq=False)
class Function:
    """A function definition.  ``span``: the whole definition.
    ``launch_bounds``: the first argument of ``__launch_bounds__`` (max threads per block)."""
    name: str
    kind: FunctionKind
    span: Span
    params: list[Variable] = field(default_factory=list)
    body: Optional[Block] = None
    return_type: Type = UNKNOWN
    template_params: list[TemplateParam] = field(default_factory=list)
    launch_bounds: Optional[int] = None
    in_main_file: bool = True
    #: why parts of the body could not be lowered (``expression nesting too deep to model``)
    incomplete: list[str] = field(default_factory=list)
    #: the template arguments of an explicit specialization (``template <> __global__ void k<double>(...)``: the
    #: double type), which launches of ``k<double>`` run instead of the primary template; () otherwise
    specializes: tuple = ()
    #: internal linkage (``static``, or in an unnamed namespace): every call of it is in this translation unit
    internal: bool = False

    def __repr__(self) -> str:
        return f"Function({self.kind.value} {self.name})"


@dataclass
class TranslationUnit:
    """One linted file as the front-end saw it.

    ``errors``: (line, message) of the file's parse errors; ``missing_includes``: ``#include`` targets not
    found; ``dependencies``: every file included (absolute paths, for the result cache); ``frontend``: which
    front-end lowered it ("clang" or "tree-sitter")."""
    path: str
    frontend: str
    functions: list[Function] = field(default_factory=list)
    globals: list[Variable] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    missing_includes: list[str] = field(default_factory=list)
    dependencies: list[str] = field(default_factory=list)
    #: the translation unit's first parse error, in the file or a header it includes (``path:line: message``), "" none
    first_error: str = ""
    #: the exception cudalint's clang lowering raised where the tree-sitter front-end took over (``auto``), "" none
    clang_failure: str = ""
    #: the file's explicit instantiations of function templates (``template void prefix<float, double>(..);``):
    #: (the function's name, its template arguments: Types and ints), as a call with those arguments would give
    instances: list[tuple[str, tuple]] = field(default_factory=list)

    @property
    def kernels(self) -> list[Function]:
        return [f for f in self.functions if f.kind == FunctionKind.KERNEL and f.body]  # headers' too


Node = Union[Expr, Stmt]


#: each node class's sub-node fields in source order (a list field is spread)
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {
    Block: ("body",), Decl: ("init",), ExprStmt: ("expr",), If: ("init", "cond", "then", "else_"),
    Loop: ("init", "range", "cond", "body", "step"), Switch: ("cond", "body"), Case: ("value", "body"),
    Label: ("body",), Return: ("value",), Unary: ("operand",), Binary: ("lhs", "rhs"), Assign: ("target", "value"),
    Cond: ("cond", "then", "else_"), Cast: ("operand",), Call: ("receiver", "args"), Member: ("base",),
    Index: ("base", "index"), Construct: ("args",), New: ("args",), InitList: ("items",),
    Launch: ("grid", "block", "shared_mem", "stream", "args"), Opaque: ("children",), Lambda: ("body",)}


def children(n: Node) -> list[Node]:
    """The direct sub-nodes of ``n`` in source order (for walks)."""
    out: list = []
    for name in _CHILD_FIELDS.get(type(n), ()):
        v = getattr(n, name)
        out += [c for c in v if c is not None] if isinstance(v, (list, tuple)) else [v] if v is not None else []
    return out


@contextlib.contextmanager
def recursion_limit(limit: int):
    """Python recursion allowed up to ``limit`` frames while the block runs (deeply nested code)."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def walk(n: Optional[Node]):
    """Pre-order walk over ``n`` and everything below it."""
    stack = [n] if n is not None else []
    while stack:
        x = stack.pop()
        yield x
        stack.extend(reversed(children(x)))
