"""What nvcc emits: adjacent accesses of one thread merged into one vector access.

Rules, each from nvcc 13 ``-arch=sm_90 -O3`` SASS (``cuobjdump -sass``; fixtures/global/vector_merge.cu):

* accesses under the same guards, of the same array, loads with loads and stores with stores, with no
  store to that memory space, barrier, atomic or loop boundary between them, whose byte offsets differ by
  constants, are packed greedily into contiguous chunks of 2, 4, 8 or 16 bytes, on one line or on several
  (``dst[i].x = ..; dst[i].y = ..; dst[i].z = ..; dst[i].w = ..;`` of a ``uchar4`` on four lines -> one
  ``STG.E``, of a ``float4`` -> one ``STG.E.128``: fixtures/global/component_lines.cu, measured 4.0 and 16.0
  sectors per request, 100 %);
* a chunk needs its start provably aligned to its size: for global memory the element type's alignment
  (``p[i].x`` + ``p[i].y`` of ``float2`` -> ``LDG.E.64``, stores ``STG.E.64``; the four bytes of a
  ``uchar4`` -> ``LDG.E``; ``float4`` x..w -> ``LDG.E.128``; ``float4`` y, z -> two ``LDG.E``; through a
  ``float *`` ``in[2*i]`` + ``in[2*i+1]`` -> two ``LDG.E``, as a pointer parameter is only 4-byte
  aligned; ``struct {float x, y;}`` (align 4) -> two ``LDG.E``); for shared memory the element alignment,
  or 16 bytes for the only shared array a kernel uses or an ``extern __shared__`` one, with every term of
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

import sympy

from ..model import Access, AddressSpace, Kernel


def merge_accesses(kernel: Kernel) -> None:
    """Replace, in ``kernel.accesses``, each group of accesses nvcc moves as one vector access by it."""
    accs = kernel.accesses
    shared = len({id(a.array) for a in accs if a.array.space == AddressSpace.SHARED})
    out: list[Access] = []
    used: set[int] = set()
    for i, a in enumerate(accs):
        if id(a) in used:
            continue
        group = [a]
        if a.is_read != a.is_write and a.offset is not None:
            for b in accs[i + 1:]:
                if b.region != a.region:
                    break  # a barrier, an atomic or a loop boundary between them
                if b.guards == a.guards and b.array is a.array and (b.is_read, b.is_write) == \
                        (a.is_read, a.is_write) and b.offset is not None and (b.offset - a.offset).is_Integer \
                        and id(b) not in used:
                    group.append(b)
                elif b.is_write and b.array.space == a.array.space:
                    break  # a store between them: nvcc keeps the order
        used.update(id(g) for g in group)
        # the only shared array of the kernel, or an `extern __shared__` one, starts 16-byte aligned
        sole = a.array.space == AddressSpace.SHARED and (shared == 1 or a.array.dims[:1] == (None,))
        out.extend(_pack(group, 16 if sole else a.align) if len(group) > 1 else group)
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
            widen = acc.is_read and end - off > chunk // 2 and n - k > 1 and (n == len(parts) or parts[n][0][0] != end)
            if end == off + chunk or widen:
                step, merged = n - k, replace(acc, size=chunk, split=1)
                break
        out.append(merged)
        k += step
    return out
