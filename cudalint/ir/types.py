"""Resolved C++ types of the kernel IR: sizes, alignments and struct layouts as nvcc lays them out.

A front-end gives every expression and variable a :class:`Type`.  Sizes and alignments are in bytes and
follow the CUDA ABI for sm_90 (CUDA C++ Programming Guide, "Built-in Vector Types" for ``float4`` & co.;
the Itanium C++ layout rules for structs, which nvcc follows: each field at the next multiple of its
alignment, the size rounded up to the largest alignment).  ``None`` means the front-end could not tell
(a type from a header tree-sitter cannot read, a dependent type).

Template type parameters stay symbolic (:attr:`TypeKind.PARAM`): the interpreter binds them per launched
instantiation (:meth:`Type.size_with`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Mapping, Optional


class TypeKind(str, enum.Enum):
    VOID = "void"
    BOOL = "bool"
    INT = "int"
    FLOAT = "float"
    POINTER = "pointer"
    REFERENCE = "reference"
    ARRAY = "array"
    RECORD = "record"       # struct, class, union, CUDA vector types, std::vector<...>
    ENUM = "enum"
    PARAM = "param"         # a template type parameter (``T``), bound per instantiation
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Field:
    """A data member of a record: its name, type and byte offset from the record's start."""
    name: str
    type: "Type"
    offset: int


@dataclass(frozen=True)
class Type:
    """One resolved type.

    * ``name``: the spelling a user reads, without qualifiers (``float``, ``unsigned int``, ``float4``,
      ``Node``, ``std::vector<float>``; inline namespaces such as libc++'s ``__1`` removed).
    * ``size`` / ``align``: bytes, ``None`` when unknown.
    * ``signed``: for :attr:`TypeKind.INT` (``char`` is signed on the targets nvcc supports).
    * ``pointee``: the pointed-to / referenced type (POINTER, REFERENCE) or the element type (ARRAY).
    * ``count``: an ARRAY's extent (``None`` for ``T a[]``).
    * ``fields``: a RECORD's data members in declaration order; a field whose type would refer back to
      its own record (``Node *next``) holds a record with no fields (a cycle is never built).
    * ``const``: the object is const-qualified (``const float *p``: the pointee is const).
    * ``volatile``: the object is volatile-qualified: every access to it is made, none kept in a register
      (:mod:`cudalint.analysis.registers`).
    * ``members``: a class's integer constants ``(name, value)`` (enumerators, ``static constexpr`` members, its
      bases'), where a front-end read them: set on a kernel template's type arguments, whose ``K::COLS`` each
      instantiation binds (:mod:`cudalint.frontend.traits`).  Not part of the type's identity.
    * ``multiples``: ``(member, divisor)`` pairs a class template's ``static_assert(A % B == 0)`` guarantees, set on a
      dependent type argument whose members are not known (:func:`cudalint.frontend.traits.static_multiples`).
    """
    kind: TypeKind
    name: str
    size: Optional[int] = None
    align: Optional[int] = None
    signed: bool = False
    pointee: Optional["Type"] = None
    count: Optional[int] = None
    fields: tuple[Field, ...] = ()
    const: bool = False
    volatile: bool = False
    members: tuple[tuple[str, int], ...] = field(default=(), compare=False, repr=False)
    multiples: tuple[tuple[str, str], ...] = field(default=(), compare=False, repr=False)

    # -- queries
    @property
    def is_integer(self) -> bool:
        return self.kind in (TypeKind.INT, TypeKind.BOOL, TypeKind.ENUM)

    def field(self, name: str) -> Optional[Field]:
        return next((f for f in self.fields if f.name == name), None)

    def size_with(self, bindings: Mapping[str, int]) -> Optional[int]:
        """The size in bytes, template type parameters taken from ``bindings`` (name -> bytes)."""
        if self.kind == TypeKind.PARAM:
            return bindings.get(self.name)
        if self.kind == TypeKind.ARRAY and self.pointee is not None and self.count is not None:
            return inner * self.count if (inner := self.pointee.size_with(bindings)) is not None else None
        return self.size

    def array_dims(self) -> tuple[tuple[Optional[int], ...], "Type"]:
        """``T a[R][C]`` -> ``((R, C), T)``; a non-array -> ``((), self)``."""
        dims: list[Optional[int]] = []
        t: Type = self
        while t.kind == TypeKind.ARRAY and t.pointee is not None:
            dims.append(t.count)
            t = t.pointee
        return tuple(dims), t

    def spelling(self) -> str:
        """C-like spelling: ``const float*``, ``float[32][33]``, ``T&``."""
        if self.kind in (TypeKind.POINTER, TypeKind.REFERENCE) and self.pointee is not None:
            return self.pointee.spelling() + ("*" if self.kind == TypeKind.POINTER else "&")
        if self.kind == TypeKind.ARRAY:
            dims, elem = self.array_dims()
            return elem.spelling() + "".join(f"[{d if d is not None else ''}]" for d in dims)
        return ("const " if self.const else "") + self.name


# -- constructors shared by the front-ends ----------------------------------------------------------

UNKNOWN = Type(TypeKind.UNKNOWN, "?")
VOID = Type(TypeKind.VOID, "void")


def scalar(name: str, size: int, kind: TypeKind = TypeKind.INT, signed: bool = False, const: bool = False) -> Type:
    return Type(kind, name, size, min(size, 16), signed, const=const)


#: canonical integer types -> (size, signed), as clang names them on x86-64 Linux
INT_TYPES = {"char": (1, True), "signed char": (1, True), "unsigned char": (1, False), "short": (2, True),
             "unsigned short": (2, False), "int": (4, True), "unsigned int": (4, False), "long": (8, True),
             "unsigned long": (8, False), "long long": (8, True), "unsigned long long": (8, False),
             "wchar_t": (4, True), "char16_t": (2, False), "char32_t": (4, False), "__int128": (16, True),
             "unsigned __int128": (16, False)}
FLOAT_TYPES = {"float": 4, "double": 8, "long double": 16}
#: the canonical scalar types by name
SCALARS = {**{n: scalar(n, size, signed=signed) for n, (size, signed) in INT_TYPES.items()},
           **{n: scalar(n, size, TypeKind.FLOAT) for n, size in FLOAT_TYPES.items()},
           "bool": scalar("bool", 1, TypeKind.BOOL), "void": VOID}
#: typedefs of the C/C++ and CUDA headers -> the canonical type clang resolves them to (x86-64 Linux)
TYPE_ALIASES = {"size_t": "unsigned long", "ssize_t": "long", "ptrdiff_t": "long", "intptr_t": "long",
                "uintptr_t": "unsigned long", "int8_t": "signed char", "uint8_t": "unsigned char", "int16_t": "short",
                "uint16_t": "unsigned short", "int32_t": "int", "uint32_t": "unsigned int", "int64_t": "long",
                "uint64_t": "unsigned long", "half": "__half", "half2": "__half2", "nv_bfloat16": "__nv_bfloat16",
                "nv_bfloat162": "__nv_bfloat162", "cudaError_t": "cudaError", "cudaStream_t": "CUstream_st*",
                "cudaEvent_t": "CUevent_st*", "cudaTextureObject_t": "unsigned long long",
                "cudaSurfaceObject_t": "unsigned long long", "clock_t": "long", "time_t": "long"}


def scalar_named(name: str) -> Optional[Type]:
    """The canonical scalar type ``name`` spells (``uint32_t`` -> ``unsigned int``; ``std::`` dropped, ``unsigned``
    alone is ``unsigned int``), None for any other name (a typedef of the program, a record, ``void``)."""
    name = " ".join(name.replace("std::", "").split())
    name = TYPE_ALIASES.get({"unsigned": "unsigned int", "signed": "int"}.get(name, name), name)
    return SCALARS.get(name) if name != "void" else None


def pointer_to(t: Type, const: bool = False) -> Type:
    return Type(TypeKind.POINTER, t.name + "*", 8, 8, pointee=t, const=const)


def reference_to(t: Type) -> Type:
    return Type(TypeKind.REFERENCE, t.name + "&", t.size, t.align, pointee=t)


def array_of(t: Type, count: Optional[int]) -> Type:
    size = t.size * count if t.size is not None and count is not None else None
    return Type(TypeKind.ARRAY, f"{t.name}[{count if count is not None else ''}]", size, t.align, pointee=t,
                count=count)


def record(name: str, members: list[tuple], align: int = 0, union: bool = False) -> Type:
    """Lay out a struct (or union) from ``(name, type)`` members, or ``(name, type, bits)`` for a bitfield of ``bits``
    bits, with C rules (the Itanium C++ ABI's for bitfields: a bitfield shares the storage unit of its declared type
    that it fits in, else starts the next; its :class:`Field` offset is that unit's, the memory an access of it moves);
    ``align`` from ``__align__(n)``/``alignas(n)``.  A member of unknown size is taken as 4 bytes so that the layout of
    the members after it stays plausible."""
    bit, max_align, fields = 0, 1, []   # bit: the end of the last member, in bits
    for fname, ftype, *width in members:
        size, al = (ftype.size, ftype.align) if ftype.size and ftype.align else (4, 4)
        if width and width[0] is not None and width[0] <= 8 * size:
            w, unit = width[0], 8 * size
            at_bit = 0 if union else bit if w and bit // unit == (bit + w - 1) // unit else -(-bit // unit) * unit
            if fname:
                fields.append(Field(fname, ftype, at_bit // unit * size))
            bit = max(bit, at_bit + w)
            max_align = max(max_align, al) if w else max_align
            continue
        at = 0 if union else -(-bit // (8 * al)) * al
        fields.append(Field(fname, ftype, at))
        bit = max(bit, 8 * (at + size))
        max_align = max(max_align, al)
    off = -(-bit // 8)
    a = max(max_align, align or 1)
    size = max(-(-off // a) * a, a if not fields else 0)
    return Type(TypeKind.RECORD, name, size, a, fields=tuple(fields))
