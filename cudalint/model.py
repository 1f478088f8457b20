"""The kernel model: what the analyses and rules see of a translation unit.

Front-end independent (DESIGN.md §2): rules never touch clang or tree-sitter objects, only these
dataclasses.  Index expressions are sympy expressions over the symbols of :mod:`cudalint.analysis.symbols`
(threadIdx/blockIdx/blockDim/gridDim, kernel parameters, loop trip counters, opaque values).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Optional

import sympy


@dataclass(frozen=True, order=True)
class Span:
    """A source range, 1-based lines and columns, end inclusive of the last character + 1 (clang style)."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int


class AddressSpace(str, enum.Enum):
    GLOBAL = "global"
    SHARED = "shared"
    CONSTANT = "constant"
    LOCAL = "local"
    GENERIC = "generic"


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
    span: Optional[Span] = None
    extern: bool = False
    is_param: bool = False


@dataclass
class Access:
    """One memory access site: a load, a store, or both (``a[i] += x``).

    ``offset`` is the byte offset from the array's base as a sympy expression; ``size`` the bytes one lane
    moves (4 for ``float``, 16 for ``float4``, the field's size for ``a[i].x``).  ``subscripts`` holds the
    per-dimension element indices of a multi-dimensional array (to recompute the offset with a padded
    row), ``field_offset`` the byte offset of the accessed struct field inside the element.
    ``split`` > 1 when a whole struct is moved as that many separate field accesses (its alignment is
    smaller than its size, as for ``struct {float x, y;}``).  ``unknown`` names why the offset could not be modelled (an indirect index, a call result...).
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
    unknown: Optional[str] = None
    split: int = 1
    guards: tuple[sympy.Basic, ...] = ()

    @property
    def kind(self) -> str:
        if self.is_read and self.is_write:
            return "load and store"
        return "store" if self.is_write else "load"


@dataclass
class Barrier:
    name: str
    span: Span
    guards: tuple[object, ...] = ()


@dataclass
class LaunchSite:
    """A ``kernel<<<grid, block, shmem, stream>>>(...)`` site; dims are ints where constant, else None."""

    kernel: str
    grid: tuple[Optional[int], Optional[int], Optional[int]]
    block: tuple[Optional[int], Optional[int], Optional[int]]
    shared_mem: Optional[int]
    stream: Optional[str]
    span: Span
    template_args: tuple[str, ...] = ()


@dataclass
class Kernel:
    name: str
    span: Span
    params: list[str] = field(default_factory=list)
    launch_bounds: Optional[int] = None
    block_hint: Optional[tuple[int, int, int]] = None
    accesses: list[Access] = field(default_factory=list)
    barriers: list[Barrier] = field(default_factory=list)
    incomplete: list[str] = field(default_factory=list)
    template_params: list[str] = field(default_factory=list)
    instantiation: Optional[str] = None
    incomplete_assumptions: list[str] = field(default_factory=list)


@dataclass
class TranslationUnitModel:
    path: str
    kernels: list[Kernel] = field(default_factory=list)
    launches: list[LaunchSite] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    missing_includes: list[str] = field(default_factory=list)
