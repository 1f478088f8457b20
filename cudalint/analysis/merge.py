"""What nvcc emits: adjacent accesses of one thread merged into one vector access.

Rules, each from nvcc 13 ``-arch=sm_90 -O3`` SASS (``cuobjdump -sass``; fixtures/global/vector_merge.cu):

* accesses under the same guards, of the same array, loads with loads, stores with stores and load-and-stores
  (``v[t].x += ..``) with load-and-stores, with no barrier, atomic or loop boundary between them and no store
  between them that may overlap the bytes a later member loads (:func:`disjoint`: ``v[t].x += v[t + i].x;
  v[t].y += v[t + i].y;`` of a ``float2`` is ``LDS.64`` + ``STS.64``, as ``v[t].x`` lies ``8*i + 4`` bytes from
  ``v[t + i].y``: fixtures/shared/field_update.cu; a store to another array of the space, which may alias, ends the
  group), whose byte offsets differ by
  constants, are packed greedily into contiguous chunks of 2, 4, 8 or 16 bytes, on one line or on several
  (``dst[i].x = ..; dst[i].y = ..; dst[i].z = ..; dst[i].w = ..;`` of a ``uchar4`` on four lines -> one
  ``STG.E``, of a ``float4`` -> one ``STG.E.128``: fixtures/global/component_lines.cu, measured 4.0 and 16.0
  sectors per request, 100 %);
* a chunk needs its start provably aligned to its size: for global memory the element type's alignment
  (``p[i].x`` + ``p[i].y`` of ``float2`` -> ``LDG.E.64``, stores ``STG.E.64``; the four bytes of a
  ``uchar4`` -> ``LDG.E``; ``float4`` x..w -> ``LDG.E.128``; ``float4`` y, z -> two ``LDG.E``; through a
  ``float *`` ``in[2*i]`` + ``in[2*i+1]`` -> two ``LDG.E``, as a pointer parameter is only 4-byte
  aligned; ``struct {float x, y;}`` (align 4) -> two ``LDG.E``); for shared memory the element alignment,
  or 16 bytes for the only shared array a kernel uses (of 2-byte or wider elements: bytes keep their declared
  alignment, :func:`shared_alignment`) or an ``extern __shared__`` one, with every term of
  the offset a multiple of the chunk (``s[2*t]`` + ``s[2*t+1]`` -> ``LDS.64``; ``s[4*t]`` ..
  ``s[4*t+3]`` -> ``LDS.128``; ``s[r][2*c]`` of ``float s[16][65]`` -> two ``LDS``, the odd row pitch;
  a second shared array in the kernel -> two ``LDS``);
* a load of a contiguous run longer than half an aligned chunk, from its start, is widened to it
  (``float4`` x, y, z -> ``LDG.E.128``); ``float4`` x, z (a gap) stay two ``LDG.E``; a store is never
  widened (``uchar4`` x, y, z -> ``STG.E.U16`` + ``STG.E.U8``);
* an access made twice (``p[i].x`` read twice) is one load: the interpreter records it once
  (``KernelInterpreter.reloads``).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Optional

import sympy

from ..model import Access, AddressSpace, Kernel


def disjoint(a: Access, b: Access, positive: frozenset = frozenset()) -> bool:
    """Whether ``a`` and ``b`` (of one array) provably touch no common byte, whatever the run-time values: their
    offsets differ by a constant at least the earlier one's size, by ``g*k + c`` with integer ``k`` and ``c mod g``
    clear of both sizes (``v[t].y`` and ``v[t + i].x`` of a ``float2``: ``8*i + 4``), or by a multiple of a value in
    ``positive`` (a power-of-two loop variable, at least 1) at least both sizes apart (``v[t]`` and ``v[t + i]``)."""
    if a.offset is None or b.offset is None:
        return False
    d = sympy.expand(b.offset - a.offset)
    c, rest = d.as_coeff_Add()
    if rest == 0:
        return c >= a.size or -c >= b.size
    terms = [t.as_coeff_Mul() for t in sympy.Add.make_args(rest)]
    if not all(k.is_Integer and x.is_integer for k, x in terms):
        return False
    if len(terms) == 1 and c == 0 and terms[0][1] in positive:
        return abs(int(terms[0][0])) >= max(a.size, b.size)
    g = math.gcd(*(int(k) for k, _ in terms))
    r = int(c) % g if c.is_Integer else -1
    return r >= a.size and g - r >= b.size


def shared_alignment(accs: list[Access]) -> dict[int, int]:
    """The alignment in bytes (at most 16) of the start of each shared array the accesses use (by ``id``), as far as
    the merging of accesses may rely on it: 16 for an ``extern __shared__`` array (the PTX declares it ``.align
    16``: its bytes are merged into ``st.shared.v4``); for a static array of 2-, 4-, 8- or 16-byte elements, ptxas's
    layout, which ptxas itself merges into: 16 for a kernel's only one, else the arrays one after another in
    declaration order from a 16-byte boundary, each at its alignment (``float As[1024]`` then ``float Bs[1024]``: Bs
    at byte 4096, 16-byte aligned: the ``LDS.128`` of fixtures/shared/register_tile.cu; ``unsigned short`` pairs ->
    ``STS``: fixtures/shared/byte_tile.cu).  A static array of 1-byte elements keeps the alignment it is declared
    with (its element's, or ``__align__(16)``): ptxas merges no byte accesses, and NVVM merges only as far as the
    PTX declaration allows (``unsigned char s[4096]`` is ``.align 1``: sixteen ``STS.U8`` for ``f[i]``, ``i < 16``,
    where ``__align__(16)`` gives one ``STS.128``: SASS on the H100, fixtures/shared/byte_tile.cu).  Past an array
    whose size is not known, or without a declaration position, an array gets its declared alignment."""
    arrays: dict[int, tuple] = {}
    for a in accs:
        if a.array.space == AddressSpace.SHARED:
            arrays.setdefault(id(a.array), (a.array, max(a.array.align or 0, a.align or a.array.elem_size)))

    def extern(arr) -> bool:
        return arr.dims[:1] == (None,) and (not arr.dim_texts or not arr.dim_texts[0])

    def laid_out(arr) -> bool:   # ptxas's placement is what merging may rely on
        return arr.elem_size >= 2

    out = {k: 16 if extern(arr) or len(arrays) == 1 and laid_out(arr) else min(16, align)
           for k, (arr, align) in arrays.items()}
    static = [(k, arr, align) for k, (arr, align) in arrays.items() if not extern(arr) and arr.declared_at]
    at: Optional[int] = 0
    for k, arr, align in sorted(static, key=lambda p: (p[1].declared_at.path, p[1].declared_at.line,
                                                       p[1].declared_at.column)):
        if at is None:
            break
        at = -(-at // max(align, 1)) * max(align, 1)
        if laid_out(arr):
            out[k] = min(16, at & -at) if at else 16
        at = at + math.prod(arr.dims) * arr.elem_size if arr.dims and None not in arr.dims else None
    return out


def vectorize_unrolled(a: Access, align: int) -> Access:
    """A load or store in a loop nvcc unrolls (:attr:`Access.unrolled`: ``T`` constant trips counted by ``trip``)
    whose offset grows by its own size each trip (``r[i] = s[base + i]``, ``i < 8``) moved ``w`` bytes at a time, the
    largest of 16, 8 and 4 bytes that the ``T`` trips fill, the array's alignment ``align`` allows and every term
    of ``base`` is a multiple of: one access of ``w`` bytes at ``base + w*trip`` (``Bs[k*128 + col*8 + i]`` of
    ``float`` for ``i < 8`` is two ``LDS.128``: fixtures/shared/register_tile.cu, SASS on the H200; the stores
    ``s[i*4 + j]`` for ``j < 4`` to dynamic shared memory are one ``STS.128``: fixtures/shared/alignment_test.cu,
    SASS and 4.0 wavefronts per store instruction on the H100).  Unchanged otherwise."""
    if not a.unrolled or a.offset is None or a.split != 1:
        return a
    trip, trips = a.unrolled
    step = sympy.diff(a.offset, trip)
    if step != a.size:
        return a
    base = sympy.expand(a.offset.xreplace({trip: 0}))
    coeffs = [t.as_coeff_Mul()[0] for t in sympy.Add.make_args(base)]
    if not all(c.is_Integer for c in coeffs):
        return a
    gcd = math.gcd(*map(int, coeffs))
    for w in (16, 8, 4):
        if a.size < w <= min(align, trips * a.size) and gcd % w == 0:
            return replace(a, size=w, offset=base + w * trip)
    return a


def speculated(a: Access, b: Access) -> bool:
    """Whether ptxas loads ``b`` together with ``a`` though ``b`` sits under one more condition: two 4-byte shared
    loads of one array, the second in a branch just inside the first's (``if (*cur > *next) { ..; x = *(next + 1); }``)
    and in the aligned 8 bytes the first starts (``s[2 * k]`` and ``s[2 * k + 1]``). ptxas if-converts the short
    branch, predicates its stores and makes the two loads one ``LDS.64``, a conflict-free request of 8-byte lanes
    (CVCUDA's min_area_rect, whose two 2-way conflicts were judged false in census 43;
    fixtures/shared/speculated_pair.cu, SASS on the H100).  The pairing in 8 bytes is left to :func:`_pack`."""
    return (a.is_read and not a.is_write and b.is_read and not b.is_write and b.array is a.array
            and a.array.space == AddressSpace.SHARED and a.size == b.size == 4 and a.split == b.split == 1
            and len(b.guards) == len(a.guards) + 1 and b.guards[:len(a.guards)] == a.guards
            and a.offset is not None and b.offset is not None and (b.offset - a.offset) in (4, -4))


def merge_accesses(kernel: Kernel, positive: frozenset = frozenset()) -> None:
    """Replace, in ``kernel.accesses``, each group of accesses nvcc moves as one vector access by it (an unrolled
    loop's consecutive loads included: :func:`vectorize_unrolled`).  ``positive``: symbols known to be at least 1
    (:func:`disjoint`)."""
    aligned = shared_alignment(kernel.accesses)
    accs = kernel.accesses = [vectorize_unrolled(a, aligned.get(id(a.array), a.align)) for a in kernel.accesses]
    out: list[Access] = []
    used: set[int] = set()
    for i, a in enumerate(accs):
        if id(a) in used:
            continue
        group = [a]
        hoisted: dict[int, Access] = {}  # a speculated load's copy under `a`'s guards -> the load as written
        if a.offset is not None:
            stores = [a] if a.is_write else []  # the stores of the window, members included
            for b in accs[i + 1:]:
                if b.region != a.region:
                    break  # a barrier, an atomic or a loop boundary between them
                if speculated(a, b) and id(b) not in used and all(disjoint(w, b, positive) for w in stores):
                    up = replace(b, guards=a.guards)
                    hoisted[id(up)] = b
                    group.append(up)
                elif b.guards == a.guards and b.array is a.array and (b.is_read, b.is_write) == \
                        (a.is_read, a.is_write) and b.offset is not None and (b.offset - a.offset).is_Integer \
                        and id(b) not in used and all(disjoint(w, b, positive) for w in stores) \
                        and (not b.is_write or all(disjoint(m, b, positive) for m in group)):
                    group.append(b)  # (a load and store, `v[t].x += ..`, with the next field's)
                elif b.is_write and b.array.space == a.array.space and (b.array is not a.array or (
                        a.is_write and not all(disjoint(m, b, positive) for m in group))):
                    break  # a store that may overlap them: nvcc keeps the order (a later load is checked against
                    # the stores before it when it joins: it moves up past them)
                elif a.is_write and b.is_read and b.array is a.array and \
                        not all(disjoint(m, b, positive) for m in group):
                    break  # a load that may read what the group stores: the stores cannot wait for the merge (a
                    # load of another array between them does not stop nvcc: fixtures/global/component_lines.cu)
                if b.is_write:  # `v[t].x += v[t + i].x;` between the loads of `.x` and `.y` of `v[t + i]`
                    stores.append(b)
        used.update(id(hoisted.get(id(g), g)) for g in group)
        packed = _pack(group, aligned.get(id(a.array), a.align)) if len(group) > 1 else group
        out.extend(hoisted.get(id(g), g) for g in packed)  # a hoisted copy nothing merged stays under its branch
    kernel.accesses = out


def _pack(group: list[Access], align: int) -> list[Access]:
    """Greedy: at each access, the largest aligned chunk its successors fill exactly becomes one access."""
    base = group[0].offset
    parts = sorted({(int(g.offset - base), g.size): g for g in group}.items(), key=lambda p: p[0])
    out: list[Access] = []
    k = 0
    while k < len(parts):
        (off, size), acc = parts[k]
        step, merged = 1, acc
        coeffs = [term.as_coeff_Mul()[0] for term in sympy.Add.make_args(sympy.expand(base + off))]
        gcd = math.gcd(*map(int, coeffs)) if all(c.is_Integer for c in coeffs) else 1  # of every value of the offset
        for chunk in (16, 8, 4, 2):
            if chunk > align or chunk <= size or gcd % chunk:
                continue
            end, n = off, k
            while n < len(parts) and parts[n][0][0] == end and end + parts[n][0][1] <= off + chunk:
                end += parts[n][0][1]
                n += 1
            # a load of a contiguous run from the chunk's start is widened to the chunk (x, y, z of a
            # float4 -> LDG.E.128); a store never writes bytes it was not given (x, y, z of a uchar4 ->
            # STG.E.U16 + STG.E.U8)
            widen = acc.is_read and not acc.is_write and end - off > chunk // 2 and n - k > 1 and (
                n == len(parts) or parts[n][0][0] != end)
            if end == off + chunk or widen:
                spans = tuple(dict.fromkeys(p[1].span for p in parts[k + 1:n] if p[1].span != acc.span))
                step, merged = n - k, replace(acc, size=chunk, split=1, members=acc.members + spans)
                break
        out.append(merged)
        k += step
    return out
