"""CL101 uncoalesced-global-access: a warp's global load/store touches more 32-byte sectors than needed.

Hardware fact: a warp-wide global access is served in 32-byte sectors (CUDA C++ Programming Guide,
"Device Memory Accesses"); measured on an H200 (GROUND_TRUTH.md): ``a[2*i]`` 8 sectors/request at 50 %,
``a[32*i]`` 32 sectors/request at 12.5 % and 6.0x the time, ``a[i].x`` of ``struct {float x, y}`` 8 sectors.
Severity: warning, info when at least 50 % of the fetched bytes are used, by this access or by the thread's
accesses to the other fields of the same element (:func:`~cudalint.analysis.warp.sibling_use`), for an
access made once per thread in a kernel whose loops carry its global traffic, for one block's work, in a
launch of at most 132 warps and in a kernel whose launches are a small share of another's beside it
(:func:`~cudalint.rules.one_block`, :func:`~cudalint.rules.tiny_launch`, :func:`~cudalint.rules.small_kernel`),
on an error path taken only for NaN or infinite values (:func:`~cudalint.rules.error_path`), in a kernel bound by
arithmetic (:func:`~cudalint.rules.compute_bound`: 16 or more operations on data per sector moved, measured with
fixtures/global/compute_bound_store.cu), and when a request touches at most one sector more than the ideal (two
lanes of a column halo in two rows).
"""

from __future__ import annotations

import contextlib
import os
import re
from collections import Counter
from typing import Optional

import sympy

from ..analysis.symbols import BID, TID, TRIP_PREFIX
from ..analysis.warp import (SECTOR, WARP, GlobalCost, aligned_residue, first_block, global_cost, sibling_use,
                             stated_sectors)
from ..model import Access, AddressSpace, Kernel, errors_within
from . import (AnalysisContext, Findings, Rule, Severity, TranslationUnitModel, bounds_tail, compute_bound, error_path,
               few_warps, fmt, metric, one_block, one_shot, outside, pictured, small_kernel, spell, spell_bytes,
               tiny_launch)


#: a store whose sectors the thread's own other stores fill costs nothing measurable while its requests touch at
#: most this many times the ideal sectors (4-byte words 16 bytes apart: 1.00x), and 3x-10x the time above it
#: (24, 32, 64 bytes apart: 2.99x, 7.75x, 9.71x; benchmarks/device/neighbour_cost.cu on an H100, session 37)
STORE_AMPLIFICATION = 4
#: ... and up to this many times in a kernel whose threads also load at least as many bytes of global data as the
#: element they store: the loads' DRAM traffic bounds it, and the stores' partial sector writes hide behind it
#: (benchmarks/device/store_share.cu on an H100, session 39: 6 floats 24 bytes apart beside a float4 and three floats
#: loaded 1.00x the time of coalesced stores, 2.92x with nothing loaded; 9 floats, 32 sectors a request, 3.31x)
STORE_AMPLIFICATION_BESIDE_LOADS = 6


def loaded_bytes(kernel: Kernel, acc: Access, model: Optional[TranslationUnitModel] = None) -> Optional[int]:
    """Bytes of global data each thread loads at ``acc``'s loop depth at an address that depends on the thread (a
    warp-uniform load is one sector for the whole warp); None when the kernel hands a thread's global pointer at that
    depth to a call cudalint cannot follow (:attr:`Kernel.unsized_reads`), or when its body has statements clang
    could not compile (``model.errors`` inside it, :attr:`Kernel.incomplete`: the loads of a type from a header the
    lint did not find, diff-gaussian-rasterization's ``glm::vec3`` scales, are not accesses): how much it loads is not
    known.  A loop nvcc unrolls completely is straight-line code (:attr:`Access.run_time_loops`): a zeroing loop of 6
    stores (``for (i = 0; i < 6; i++) dL_dcov[6 * idx + i] = 0;``, diff-gaussian-rasterization) is beside the
    thread's loads before it, and a load in such a loop counts once per trip of its innermost one."""
    depth = acc.run_time_loops
    if any(d == acc.loop_depth and varying for _, d, varying in kernel.unsized_reads):
        return None
    if kernel.incomplete or model is not None and errors_within(model.errors, model.path, kernel.span):
        return None
    return sum(b.size * (b.unrolled[1] if b.unrolled else 1) for b in kernel.accesses
               if b.array.space == AddressSpace.GLOBAL and b.is_read and not b.is_write and b.size
               and b.run_time_loops == depth and b.offset is not None and b.offset.free_symbols & set(TID))


def share_of(acc: Access) -> str:
    """What the efficiency is a share of: the bytes a load fetches, the bytes of the sectors a store writes."""
    return "fetched bytes used" if acc.is_read else "the sectors' bytes written"


#: the share of an access's sectors the thread's other accesses must use for the waste to count as requests, not
#: DRAM bytes: half, less a sample's rounding (a red-black sweep's two loads use 50 %, 49.8 % over 32 sample blocks)
HALF_USED = 0.49


def sector_metrics(cost: GlobalCost, sectors: float) -> tuple[float, dict]:
    """The share of fetched bytes used when a warp touches ``sectors`` per request, and CL101's and CL102's metrics."""
    eff = min(1.0, cost.efficiency * cost.sectors_per_request / sectors)
    return eff, {"sectors_per_request": metric(sectors),
                 "ideal_sectors_per_request": metric(cost.ideal_sectors_per_request), "efficiency": round(eff, 4)}


def neighbours(kernel: Kernel, acc: Access, ctx: AnalysisContext) -> tuple[list[Access], list[Access]]:
    """The thread's other accesses to ``acc``'s array: its loads (stores, for a store) of the same element (a
    constant byte distance, or one that depends only on the trip counters of the loops nvcc unrolls around ``acc``
    and around the other access: :func:`neighbour_parts` enumerates those trips; made whenever ``acc`` is: their
    thread-dependent guards are among its guards; a block-uniform one, ``if (face % 2)``, picks a path for the whole
    block, and the paths of real code write the same fields), and those of its kind at a block-uniform but unknown
    distance (``pixel[face / 2]`` next to ``pixel[0]`` ... ``pixel[3]``: whether they fill ``acc``'s sectors is
    unknown) or, for a load, made only when a condition on loaded data holds (HeCBench's sheath: a particle's `alive`
    flag, read by every thread, beside its `x` and `v`, read when it is set: how many lanes use the rest of the
    sectors, from L1, depends on the data)."""
    same, unsure = [], []
    loaded = set(ctx.symbols.sources)
    for b in kernel.accesses:
        d = b.offset - acc.offset if b is not acc and b.array is acc.array and b.offset is not None \
            and not acc.alternative_to(b) else None
        if d is None:
            continue
        unrolled = {x.unrolled[0] for x in (acc, b) if x.unrolled}
        enumerable = d.is_Integer or (d.free_symbols and d.free_symbols <= unrolled)
        kind = (acc.is_write and b.is_write) if not acc.is_read else b.is_read
        extra = [g for g in b.guards if ctx.symbols.is_varying(g) and not (g in acc.guards or
                                                                            _shifted_bound(g, acc.guards))]
        if enumerable and kind and not extra:
            same.append(b)
        elif enumerable and kind and not acc.is_write and not (d.is_Integer and 0 <= d and d + b.size <= acc.size) \
                and all(isinstance(g, sympy.Basic) and g.free_symbols & loaded for g in extra):
            unsure.append(b)   # a load's sectors wait in L1 for them (stores under their own conditions on loaded
            # values are not known to be made together: their partial sector writes cost, segsort's test)
        elif not enumerable and (b.is_read, b.is_write) == (acc.is_read, acc.is_write) \
                and not ctx.symbols.is_varying(d) and not d.free_symbols & ctx.symbols.trip_counters:
            unsure.append(b)
    return same, unsure


def neighbour_parts(acc: Access, same: list[Access]) -> list[tuple[int, list[tuple[int, int]]]]:
    """For each trip of the loop nvcc unrolls around ``acc`` (one entry when there is none): the bytes that trip
    moves ``acc`` from its first trip's address, and (byte distance from ``acc``, size) of the thread's accesses to
    its element then: ``acc`` itself at distance 0, its own other trips (``out[i * K + k]`` for ``k < K``: the K
    stores of one thread) and each of ``same`` (:func:`neighbours`) at every trip of its own unrolled loop
    (``out[d]`` before a loop storing ``out[d + k]``).  The same SASS as straight-line code: nvcc unrolls the loop
    (benchmarks/device/neighbour_cost.cu)."""
    own, trips, step = None, 1, 0
    if acc.unrolled and acc.offset is not None and (c := trip_step(acc, acc.unrolled[0])) is not None:
        own, trips, step = acc.unrolled[0], int(acc.unrolled[1]), c
    out = []
    for here in range(trips):
        parts = [(0, acc.size)] + [((j - here) * step, acc.size) for j in range(trips) if j != here and step]
        for b in same:
            d = b.offset - acc.offset
            if own is not None:
                d = d.subs(own, here)
            if d.is_Integer:
                parts.append((int(d), b.size))
            elif b.unrolled and d.free_symbols == {b.unrolled[0]}:
                parts += [(int(v), b.size) for u in range(int(b.unrolled[1]))
                          if (v := d.subs(b.unrolled[0], u)).is_Integer]
        out.append((here * step, parts))
    return out


def _shifted_bound(g, guards) -> bool:
    """Whether ``g`` is one of ``guards`` shifted by a constant (``4*t + 1 < n`` beside ``4*t < n``): the bounds checks
    of a thread's neighbouring elements, which differ only for the one thread at the array's end (HeCBench's segsort
    writes each key of a thread under its own check)."""
    if not isinstance(g, sympy.core.relational.Relational):
        return False
    for h in guards:
        if type(h) is type(g):
            with contextlib.suppress(TypeError, ValueError):
                if sympy.expand((g.lhs - g.rhs) - (h.lhs - h.rhs)).is_Integer:
                    return True
    return False


def walk_step(acc: Access, ctx: AnalysisContext) -> Optional[int]:
    """The bytes each trip of a loop moves the thread along its own run of elements, when fewer than a sector's
    (``in[i * n + j]`` in ``for (j ...)``): for a load, the thread's neighbouring trips use the rest of
    each sector a trip touches, from L1.  Not for stores: L2 receives each partial sector write on its own
    (fixtures/global/row_walk.cu, measured on the H200: loads move the array's bytes once, stores 1.8x in DRAM
    writes and 12x the time)."""
    return next((c for _, c in row_trips(acc, ctx)), None)


def trip_step(acc: Access, k) -> Optional[int]:
    """The bytes each trip of the loop counted by ``k`` moves ``acc`` (its offset linear in ``k`` with a constant
    coefficient), else None."""
    c = sympy.diff(acc.offset, k)
    return int(c) if c.is_Integer and k not in (acc.offset - c * k).free_symbols else None


def row_trips(acc: Access, ctx: AnalysisContext):
    """(trip counter, bytes a trip) of the loops whose trips move ``acc`` along the thread's own run of elements by
    less than a sector, in a deterministic order."""
    for k in sorted(acc.offset.free_symbols & ctx.symbols.trip_counters, key=str):
        if (c := trip_step(acc, k)) is not None and 0 < abs(c) < SECTOR:
            yield k, c


def few_threads(kernel: Kernel, acc: Access, ctx: AnalysisContext) -> Optional[str]:
    """Why only a few threads make ``acc`` (an error path, the bounds tail of the grid), or None; once per access."""
    key = ("few_threads", id(acc))
    if key not in ctx.memo:
        ctx.memo[key] = error_path(acc.guards) or bounds_tail(acc.guards, ctx.symbols, ctx.launch_shape(kernel).full)
    return ctx.memo[key]


def demotion(kernel: Kernel, acc: Access, ctx: AnalysisContext) -> Optional[str]:
    """Why the waste of ``acc`` costs little in this kernel (an error path, a bounds tail, one block's work, a tiny
    launch or small kernel for an access made once per thread, a kernel bound by arithmetic), or None."""
    return (few_threads(kernel, acc, ctx)
            or one_block(kernel, acc.guards, ctx) or few_warps(kernel, acc, ctx)
            or (tiny_launch(kernel, ctx) or small_kernel(kernel, acc, ctx) if not acc.loop_depth else None)
            or compute_bound(kernel, ctx))


def own_row(acc: Access, pic, ctx: AnalysisContext) -> Optional[tuple[int, str]]:
    """A store that walks the thread's own row (``out[pidx * p.numAttr + i]`` in ``for (i = 0; i < p.numAttr;
    i++)``: nvdiffrast's attribute and channel loops; the loop's condition reads the row's length) whose lanes'
    distance depends only on run-time values the picture took as large samples: (bytes a trip, their names).  How
    much the layout costs rests on those values: a row of at most 16 bytes costs nothing, a wider one 3x-10x the time
    (benchmarks/device/neighbour_cost.cu), and the finding, a warning with the representative large value every
    run-time pitch takes (cuda-samples' boxFilter row pass, `od[y * w + x]` over `x < w`: an image row), says so.
    None otherwise."""
    stride = pic.stride
    if not pic.samples or not acc.loop_depth or not isinstance(stride, sympy.Expr) or stride.is_Number:
        return None
    lane = stride.free_symbols - set(TID)
    return row_walk(acc, lane, ctx) if lane and lane <= set(pic.samples) else None


def row_walk(acc: Access, lane: set, ctx: AnalysisContext) -> Optional[tuple[int, str]]:
    """(bytes a trip, the row's names) where a loop around ``acc`` whose condition reads the run-time values ``lane``
    (the lanes' distance) steps through the thread's own row, else None (:func:`own_row`, :func:`short_row`)."""
    for k, c in row_trips(acc, ctx):
        if getattr(ctx.symbols.loop_conds.get(k), "free_symbols", set()) & lane:  # the loop runs over the row
            return abs(c), ", ".join(sorted(f"`{spell(s)}`" for s in lane))
    return None


def short_row(kernel: Kernel, acc: Access, pic, ctx: AnalysisContext) -> Optional[tuple[int, str, int]]:
    """A store that walks the thread's own row (as :func:`own_row`) whose length a test of the host bounds so that a
    row is at most 16 bytes (CVCUDA's gamma_contrast: `out[index * channelCount + i]` over `i < channelCount`, the
    host returning first when `channels > 4`; judged false at 32 sectors in census 43): its stores fill their sectors
    at no measurable cost (benchmarks/device/neighbour_cost.cu). (bytes a trip, the row's names, the row's largest
    width in bytes), None otherwise."""
    if not acc.loop_depth or not isinstance(pic.stride, int) or not 0 < abs(pic.stride) <= 16 or acc.offset is None:
        return None
    bounded = {ctx.symbols.param(n) for n in kernel.launch_max}
    with contextlib.suppress(TypeError, ValueError, sympy.PolynomialError):
        lane = set(sympy.diff(sympy.expand(acc.offset), TID[0]).free_symbols) - set(TID)
        if lane and lane <= bounded and (walk := row_walk(acc, lane, ctx)) is not None:
            return (*walk, abs(pic.stride))
    return None


def is_counter(s, walking: frozenset = frozenset()) -> bool:
    """Whether ``s`` is an index that walks through an array: blockIdx, threadIdx.y/z, a loop's trip counter
    (``k@LINE.COL``), or one of ``walking``, the parameters a launch passes a host loop's counter (Rodinia
    gaussian's column ``t``).  Another parameter added at unit stride (``Y[OFFY + i*INCY]``: darknet's BLAS
    kernels) is a base offset, not a walking index: it says nothing about the lanes' stride."""
    return s.is_Symbol and (s in BID or s in TID[1:] or str(s).startswith("k@") or s in walking)


def run_time_layout(acc: Access, pic, walking: frozenset = frozenset()) -> Optional[str]:
    """Why the cost rests on a guess: the lanes' distance (``4*s00``) or their pattern (``% ne0``) depends on a
    run-time value the picture took as a large sample, and no other index of the address moves by one element,
    so that value may be the array's unit stride (ggml's ``src[i3*s03 + i2*s02 + i1*s01 + i0*s00]`` with
    ``s00 = nb00 / type_size``, 1 for every contiguous tensor: a judged false warning).  None when the address
    shows its unit-stride index elsewhere (``od[y * w + x]``: ``w`` is a row pitch) or uses no such sample."""
    if not pic.samples:
        return None
    with contextlib.suppress(TypeError, ValueError, sympy.PolynomialError):
        offset = sympy.expand(acc.offset)
        if offset.is_polynomial(TID[0]) and sympy.degree(offset, TID[0]) == 1 \
                and not sympy.diff(offset, TID[0]).free_symbols & set(pic.samples):
            return None  # the lanes' distance is known (`16 * px` beside a sampled row pitch `p.width * py`)
    stride = pic.stride
    lane = stride.free_symbols - set(TID) if isinstance(stride, sympy.Expr) and not stride.is_Number else set()
    for t in sympy.Add.make_args(sympy.expand(acc.offset)):
        c, rest = t.as_coeff_Mul()
        if TID[0] in t.free_symbols or rest == 1 or rest.free_symbols & lane:
            continue  # the lanes' own term (threadIdx.y of a 2-D block is another index, as a counter is)
        if abs(c) == acc.size and is_counter(rest, walking):  # another index walks by one element: the lanes' is a pitch
            return None
    names = ", ".join(sorted(f"`{spell(s)}`" for s in pic.samples))
    if pic.stride in (acc.size, -acc.size):  # consecutive already: the samples place the rows (`g / (w + 4)`)
        return (f"the lanes' pattern rests on run-time values ({names}) taken as large samples; where they are a few "
                "elements the warp spans other rows and the count changes")
    return (f"the lanes' addresses rest on run-time values ({names}) taken as large samples, and no other index of "
            "the address moves by one element: with a unit stride there the access is coalesced")


#: the vector types nvcc moves in one 8- or 16-byte access, by the scalar a lane's run is made of (Programming Guide,
#: "Built-in Vector Types": their alignment equals their size)
VECTOR_OF = {"float": "float", "int": "int", "unsigned int": "uint", "double": "double", "long long": "longlong",
             "unsigned char": "uchar", "char": "char", "short": "short", "unsigned short": "ushort"}


def run_fix(acc: Access, run: int) -> str:
    """The advice for the ``run`` bytes a thread's unrolled trips move element by element (``x[i * 4 + k]`` for
    ``k < 4``): one vector access where the run is 8 or 16 bytes (nvcc merges such trips itself only where it knows
    the array's alignment, as for shared arrays: :func:`cudalint.analysis.merge.vectorize_unrolled`; a pointer
    parameter is aligned only to its element), a layout across lanes where it is longer than a lane can move."""
    if run > 16:
        return ("each thread's run is wider than the 16 bytes a lane can move: only a layout where consecutive lanes "
                "read consecutive pieces removes the extra requests")
    if run % acc.size or run & (run - 1):  # 12 bytes (`x[i * 3 + k]`): no one access moves them
        pad = 1 << (run - 1).bit_length()
        return (f"no single access moves {run} bytes: pad each thread's run to {pad} bytes to move it in one "
                f"{pad}-byte vector access")
    # the array's element type names the vector only where the access moves whole elements of it (cuda-samples'
    # simpleD3D11Texture writes floats through an `unsigned char *surface`: `uchar4` was advised for 16 bytes)
    base = VECTOR_OF.get(acc.array.elem_type.replace("const ", "").strip()) \
        if acc.array.elem_size == acc.size else None
    n = run // acc.size
    vec = f"`{base}{n}`" if base and n in (2, 4) and (base, n) not in {("double", 4), ("longlong", 4)} \
        else f"a {run}-byte vector type"
    return (f"move the thread's {run} bytes in one access ({vec}, through `reinterpret_cast` where the address is "
            f"{run}-byte aligned)")


def bin_search(acc: Access, ctx: AnalysisContext) -> Optional[str]:
    """Why the lanes that make ``acc`` at one trip of a loop around it are a few the data pick: a guard tests a value
    the thread loaded before the loop against bounds that change with the trip (loaded from the trip's address, or
    the trip counter itself), from both sides or for equality (GPUMD's angular RDF: a thread's pair distance against
    each bin's edges, `d2 > r_low * r_low && d2 <= r_up * r_up`; `key == b`).  A bin search: each lane passes in
    the few trips whose bin holds its value, so a request carries the lanes the data put in one bin, and one lane
    alone moves one sector whatever the layout (judged false as a warning in census `ax`).  None otherwise."""
    trips = set(acc.loop_trips)
    if not trips:
        return None
    syms = ctx.symbols
    memo: dict = {}

    def loops_of(expr, seen=frozenset()) -> frozenset:  # the trip counters of `trips` a value is made from
        found = set()
        for x in getattr(expr, "free_symbols", ()):
            if x in trips:
                found.add(x)
            elif x not in seen:
                if x not in memo:
                    made = syms.sources.get(x, ()) + syms.uniform_sources.get(x, ())
                    memo[x] = frozenset().union(*(loops_of(v, seen | {x}) for v in made)) if made else frozenset()
                found |= memo[x]
        return frozenset(found)

    def split(rel):  # (the loaded value's terms, +1 for a lower bound / -1 an upper bound / 0 equal, the bin's loop)
        if isinstance(rel, (sympy.StrictGreaterThan, sympy.GreaterThan, sympy.Equality)):
            e = rel.lhs - rel.rhs
        elif isinstance(rel, (sympy.StrictLessThan, sympy.LessThan)):
            e = rel.rhs - rel.lhs
        else:
            return None
        mine, bound = [], []
        for t in sympy.Add.make_args(sympy.expand(e)):
            fs = t.free_symbols
            if fs and fs <= syms.varying and not fs & set(TID):
                mine.append(t)
            elif not fs & syms.varying:
                bound.append(t)
            else:
                return None
        if not mine or not bound:
            return None
        a = sympy.Add(*mine)
        loops = [k for k in acc.loop_trips if k in loops_of(sympy.Add(*bound)) - loops_of(a)]
        if not loops:
            return None
        flip = str(-a) < str(a)
        return str(-a if flip else a), 0 if isinstance(rel, sympy.Equality) else (-1 if flip else 1), loops[-1]

    seen: dict = {}
    for g in acc.guards:
        if not isinstance(g, sympy.logic.boolalg.Boolean) or syms.is_loop_condition(g):
            continue   # a loop's own condition (`x < count - 1`): the lanes leave it in turn, no bin is picked
        for c in sympy.And.make_args(g):
            part = split(c)
            if part is None:
                continue
            key, side, loop = part
            sides = seen.setdefault((key, loop), set())   # both edges must move with the same loop's trip
            sides.add(side)
            if side == 0 or {-1, 1} <= sides:
                name = loop.name[len(TRIP_PREFIX):]
                line = name.split(":")[-1].split(".")[0]
                return (f"at a trip of the loop on line {line} only the lanes whose loaded value falls in that trip's "
                        "bin make it (a bin search): a request carries the lanes the data put in one bin, and a "
                        "lane alone moves one sector in any layout, so the sectors above are those of a full warp, "
                        "not shown to be spent")
    return None


def open_template(kernel: Kernel, pic, acc: Optional[Access] = None, unseen=frozenset()) -> Optional[str]:
    """Why the cost rests on a template parameter no instantiation in the file binds (:attr:`Kernel.open_template_params`:
    Open3D's ``voxel_coords[i * NDIM + d]``, NDIM 1 to 8 in the includer's `switch`; bitsandbytes'
    ``ITEMS_PER_THREAD``, 4): the lanes' distance is a compile-time constant of unknown value, taken as a large
    sample, and such constants are usually small (judged false twice in census 43 as warnings).  Also when such a
    parameter only shapes how the lanes map to elements (a term of ``acc``'s address holding threadIdx and it, as
    ``floor(task / (N / read_width)) * M * N``): the samples then fix a mapping the real values need not give (MLX's
    ``hadamard_m``, its header linted alone: ``N = read_width`` = 4096 made one task a batch and the lanes 64 MiB
    apart, where ``read_width`` is a vector's width: census ``bb``).  Or when the distance rests on the result of a
    call cudalint cannot see into (``unseen``, :attr:`Symbols.unseen`: MLX's dependent ``get_bytes_per_pack<bits>()``,
    3 or 5 bytes, sampled as 4096: census ``bb``).  None otherwise."""
    stride = pic.stride
    used = set(getattr(stride, "free_symbols", ()))
    if acc is not None and acc.offset is not None and kernel.open_template_params:
        used |= {x for t in sympy.Add.make_args(sympy.expand(acc.offset)) if t.free_symbols & set(TID)
                 for x in t.free_symbols}
    names = sorted({str(x).split("#")[0] for x in used} & kernel.open_template_params)
    calls = sorted({str(x).split("#")[0] for x in getattr(stride, "free_symbols", ()) if x in unseen})
    if names:
        spelled = ", ".join(f"`{n}`" for n in names)
        return (f"the lanes' distance rests on the template parameter{'s' * (len(names) > 1)} {spelled}, which no "
                "instantiation in this file binds: a compile-time constant, here taken as a large sample")
    if calls:
        spelled = ", ".join(f"`{n}`" for n in calls)
        return (f"the lanes' distance rests on what {spelled} returns{'' if len(calls) == 1 else ' (each)'}, a call "
                "cudalint cannot see into: not shown to be large, here taken as a large sample")
    return None


#: CUDA's three-component vector types (vector_types.h): built-in, so `__align__` cannot be added to them
_VECTOR3 = re.compile(r"(?:const\s+|volatile\s+)*((?:u?char|u?short|u?int|u?long|u?longlong|float|double))3")


def vector_width(size: int) -> int:
    """The bytes of the vector access that moves an element of ``size`` bytes whole: its size rounded up to a power of
    two (Programming Guide, "Device Memory Accesses": 1, 2, 4, 8 or 16 bytes, naturally aligned; over 16 bytes it
    moves in 16-byte pieces)."""
    return 1 << max(size - 1, 0).bit_length()


def vector3_fix(acc: Access) -> Optional[str]:
    """The advice for a ``float3``-like element (a built-in type, which takes no ``__align__``): its four-component
    twin, one vector access of 4/3 its size where that is at most 16 bytes (Programming Guide, "Device Memory
    Accesses": 1, 2, 4, 8 or 16 bytes, naturally aligned); None for other elements."""
    m = _VECTOR3.fullmatch(acc.array.elem_type.strip()) if acc.array.elem_size == acc.elem_size else None
    if m is None or acc.elem_size * 4 // 3 > 16:
        return None
    return (f"`{m[1]}3` is a built-in type, which takes no `__align__`: store it as `{m[1]}4` (the fourth component "
            f"unused) so it moves in one {acc.elem_size * 4 // 3}-byte access")


def _consecutive_run(pic, size: int) -> Optional[str]:
    """What breaks a run of consecutive lanes, when at least 90 % of the neighbouring lanes' steps are ``size`` bytes
    (the book "CUDA by Example"'s `a[(i - 1) % 256]`, judged false as "scattered" in census `bh`): the run's start off
    a sector boundary in most warps, and the share of steps elsewhere (an index that wraps); None otherwise."""
    steps = [b - a for w in pic.warps for a, b in zip(w, w[1:])]
    other = sum(1 for d in steps if d != size)
    if not steps or other > 0.1 * len(steps):
        return None
    starts = Counter(w[0] % SECTOR for w in pic.warps if w)
    off, n = starts.most_common(1)[0]
    parts = [f"most warps' runs start {off} bytes past a 32-byte sector boundary"] if off and 2 * n > len(pic.warps) \
        else []
    if other:
        parts.append(f"the run breaks at {100 * other / len(steps):.2g}% of the neighbouring lanes "
                     "(an index that wraps)")
    return " and ".join(parts) or "their runs straddle sectors"


def whole_element_fix(acc: Access) -> str:
    """The advice for an element a thread moves in several pieces: an alignment that lets nvcc move it in pieces as
    wide as the element (at most 16 bytes: `__align__(8)` for an 8-byte struct of two floats), or, when each piece
    is already 16 bytes, the widest a lane can move, a layout across lanes (cuda-samples' alignedTypes `RGBA32_2`,
    32 bytes `__align__(16)`: two 16-byte requests per element, as a judge checked in its PTX); for the bytes of a
    device `memcpy` (nvcc copies them one by one: fixtures/global/unseen_loads.cu's SASS), a load of the element's
    type."""
    if acc.copied:
        return ("nvcc copies a device `memcpy` a byte at a time: read the element through a pointer of its own type "
                "instead (one `float4` load where the address is 16-byte aligned)")
    if acc.size >= 16:
        return ("each piece is already 16 bytes, the widest a lane can move: only a structure of arrays (lanes reading "
                "consecutive 16-byte pieces) removes the extra requests")
    if (vec := vector3_fix(acc)) is not None:
        return vec
    width = min(16, vector_width(acc.elem_size)) if acc.elem_size else 16
    if acc.split > 1:  # already moved whole, field by field: only its alignment holds nvcc to narrow pieces
        return f"`__align__({width})` on its type lets nvcc move the element in {width}-byte pieces"
    return (f"move the element whole (`auto e = a[i];` / `a[i] = e;`; `__align__({width})` lets nvcc move it in "
            f"{width}-byte pieces)")


#: the block a two-dimensional kernel is pictured in besides the 32-wide one when no launch gives its shape
SQUARE_BLOCK = (16, 16, 1)


def two_dimensional(kernel: Kernel) -> bool:
    """Whether the kernel's addresses or conditions use threadIdx.y or threadIdx.z: how its block's threads split
    into warps (along x, or x and y) decides which lanes share sectors."""
    rows = {TID[1], TID[2]}
    return any(a.offset is not None and a.offset.free_symbols & rows
               or any(getattr(g, "free_symbols", set()) & rows for g in a.guards) for a in kernel.accesses)


def unknown_shape(kernel: Kernel, acc: Access, ctx: AnalysisContext) -> Optional[str]:
    """Why the number rests on a guess, for a two-dimensional kernel whose block no launch, hint or setting gives
    (a launcher that takes `dim3 Bl` from callers in other files, as Kaldi's `cuda_*` wrappers do): a warp is pictured
    as 32 threads along x, but 2-D kernels are as often launched 16 x 16 (16 rows of 2 per warp: about half the
    sectors) or 1 wide in x (the warp then runs along y). Judged on Kaldi, nvdiffrast and mmcv (censuses 37, 38, 41):
    of 21 such warnings 1 true, 14 debatable, 6 false, the number wrong in most. None when the shape is known or the
    kernel is one-dimensional."""
    if ctx.launch_shape(kernel).block is not None or not two_dimensional(kernel):
        return None
    alt = ctx.cost_in(kernel, acc, SQUARE_BLOCK)
    if alt is None:
        square = "the count in other shapes is not known"
    elif alt.sectors_per_request <= alt.ideal_sectors_per_request * 1.1:
        square = "in 16 x 16 blocks it is coalesced"
    else:
        square = (f"in 16 x 16 blocks it touches {fmt(alt.sectors_per_request)} sectors per request instead of "
                  f"{fmt(alt.ideal_sectors_per_request)}")
    return (f"the kernel is two-dimensional and its block is not known, so a warp was taken as 32 threads along x: "
            f"{square}; a block 1 thread wide in x makes the warp run along y")


def data_lanes(acc: Access, ctx: AnalysisContext) -> list[str]:
    """The assumption behind a full warp's sectors where a guard tests values loaded at run time (HeCBench's sheath:
    `if (part->x < X0 || part->x >= XMAX) part->alive = false;`, 24 sectors per request for 32 lanes, 5 measured on
    an H100 because few particles leave: benchmarks/fidelity): the lanes that make the access are known only then."""
    loaded = set(ctx.symbols.sources)
    conds = [g for g in acc.guards if isinstance(g, sympy.Basic) and g.free_symbols & loaded]
    return ["every lane taken to pass the condition on loaded data around it (fewer lanes move fewer sectors a "
            "request)"] if conds else []


class UncoalescedGlobalAccess(Rule):
    code = "CL101"
    name = "uncoalesced-global-access"
    default_severity = Severity.WARNING
    summary = "Global access whose lanes touch more sectors than a unit-stride access would"

    def check(self, model: TranslationUnitModel, ctx: AnalysisContext) -> Findings:
        for kernel, acc, pic in pictured(model, ctx, AddressSpace.GLOBAL):
            cost = ctx.global_cost(kernel, acc)
            if cost.aligned_sectors_per_request <= cost.ideal_sectors_per_request:
                continue
            sectors = stated_sectors(pic, cost, acc.size)
            eff, metrics = sector_metrics(cost, sectors)
            # the thresholds below (neighbours, one-shot, demotions, info) read one block's count at one residue, as
            # before the stated count averaged the blocks' (stop 54): the mean moves a number, not a verdict
            one_pic = first_block(pic)  # the first sample block's picture (``pic`` itself without sample blocks)
            one = global_cost(one_pic, acc.size) if pic.block_warps else cost
            gate = sector_metrics(one, one.sectors_per_request if pic.exact_residue
                                  else one.aligned_sectors_per_request)[0]
            stride = pic.stride
            if cost.worst_trip_sectors is not None and cost.worst_trip_sectors != sectors:
                metrics["worst_sectors_per_request"] = metric(cost.worst_trip_sectors)
            if stride is not None and stride != 0:
                metrics["stride_bytes"] = stride if isinstance(stride, int) else spell(stride)
            used = f"{eff * 100:.1f}".rstrip("0").rstrip(".")
            if acc.split > 1:
                why = (f"array of structs: each lane moves its {acc.elem_size}-byte struct as {acc.split} "
                       f"separate {acc.size}-byte accesses, each {spell_bytes(stride)} apart across lanes")
                align = vector_width(acc.elem_size)
                fix = "use a structure of arrays, or " + (vector3_fix(acc) or (
                    f"align the struct to {align} bytes (`__align__({align})`) so it moves in one vector access"
                    if align <= 16 else "align the struct to 16 bytes (`__align__(16)`) so it moves in 16-byte pieces"))
            elif acc.elem_size > acc.size and stride == acc.elem_size:  # an array of structs
                why = (f"array of structs: each lane {'writes' if acc.kind == 'store' else 'reads'} {acc.size} of "
                       f"every {acc.elem_size} bytes (field at byte {acc.field_offset})")
                fix = "store the field in its own array (structure of arrays)"
            elif pic.masked and stride == acc.size:
                why = "the condition leaves lanes of each warp out, so the active ones are spread over it"
                fix = "give the work to consecutive lanes (e.g. index by `tid / 2` in half as many threads)"
            elif stride in (acc.size, -acc.size):  # consecutive lanes: the rows the warp covers are off the sectors
                bx = (ctx.launch_shape(kernel).full or (WARP,))[0]
                if bx < WARP and bx * acc.size < SECTOR:
                    why = (f"lanes are {acc.size} bytes apart in rows of {bx} lanes, {bx * acc.size} bytes each: "
                           f"each row the warp covers takes a sector of its own")
                    fix = (f"let consecutive lanes cover at least a sector of one row (a block {SECTOR // acc.size} "
                           f"or more lanes wide in x)")
                else:
                    why = (f"lanes are {acc.size} bytes apart, consecutive{' (walking backwards)' * (stride < 0)}, "
                           f"but the rows they start at are not all aligned to 32 bytes")
                    per = f"{SECTOR // acc.size} elements" if SECTOR % acc.size == 0 else "32 bytes"
                    fix = (f"pad the rows to a multiple of 32 bytes (`cudaMallocPitch`, or a row width that is a "
                           f"multiple of {per})")
            elif stride == 0:
                why = "the address changes only with the rows (threadIdx.y, threadIdx.z) the warp spans"
                fix = "make consecutive threads access consecutive elements (index by threadIdx.x)"
            elif stride is not None:
                why = f"lanes are {spell_bytes(stride)} apart" + (
                    f" with the sampled {' and '.join(f'`{s}`' for s in pic.stride_samples)} (the distance changes "
                    "with them)" if pic.stride_samples else "")
                fix = ("make consecutive threads access consecutive elements (transpose through shared "
                       "memory, or change the data layout)")
            elif (run := _consecutive_run(pic, acc.size)) is not None:
                # `a[(i + 1) % 256]`, `a[(i - 1) % 256]`: consecutive lanes, off a sector boundary, the run broken
                # where the index wraps
                why = f"lanes are {acc.size} bytes apart, consecutive, but " + run
                fix = ("start each warp's run on a 32-byte boundary and wrap the index at a multiple of 32 elements "
                       "(or accept the sector: it is one a request)")
            else:
                why = "lanes are scattered"
                fix = "make consecutive threads access consecutive elements"
            trips = (f" on average over the loop's trips ({fmt(cost.worst_trip_sectors)} in the costliest)"
                     if "worst_sectors_per_request" in metrics else "")
            sibs, unsure = neighbours(kernel, acc, ctx) if gate <= 0.5 else ([], [])
            by_trip = neighbour_parts(acc, sibs)
            walk = (walk_step(acc, ctx) if gate < 0.5 and acc.loop_depth and not acc.is_write and len(by_trip) == 1
                    else None)
            if walk:  # the trips before and after this one, as far as a sector reaches
                by_trip[0][1].extend((j * walk, acc.size) for j in range(-SECTOR, SECTOR + 1)
                                     if j and abs(j * walk) < SECTOR)
            res = cost.worst_residue if pic.exact_residue else aligned_residue(pic, acc.size)
            use = (sum(sibling_use(one_pic, acc.size, parts, (res + shift) % SECTOR) for shift, parts in by_trip)
                   / len(by_trip) if any(len(parts) > 1 for _, parts in by_trip) else 0.0)
            # the L1-to-L2 write traffic of stores whose sectors the thread's other stores fill: free up to 4x the
            # ideal sectors a request (4-byte words 16 bytes apart), 3x-10x the time from 6x up
            # (benchmarks/device/neighbour_cost.cu, measured on an H100 in session 37)
            element = abs(stride) if isinstance(stride, int) else None  # the bytes of the element a lane writes
            loaded = loaded_bytes(kernel, acc, model)   # None: a call cudalint cannot follow may load them
            limit = STORE_AMPLIFICATION_BESIDE_LOADS if element and (loaded is None or loaded >= element) \
                else STORE_AMPLIFICATION
            amplified, costly = acc.is_write and sectors > limit * cost.ideal_sectors_per_request, False
            earlier = set(map(id, kernel.accesses[:next(i for i, x in enumerate(kernel.accesses) if x is acc)]))
            again = [b for b in sibs
                     if acc.is_read and b.offset == acc.offset and b.size >= acc.size and id(b) in earlier]
            bulk = one_shot(kernel, acc, ctx) if gate < 0.5 else None
            moves, note = "loads" if acc.is_read else "stores", ""
            if bulk is not None:
                note = f"; {outside(acc, bulk, 'global', ctx)}"
                if use >= HALF_USED and (near := sorted({(b.span.path != acc.span.path, b.span.path, b.span.line)
                                                   for b in sibs})):
                    # a once-per-thread `float2` row of three (DualSPHysics' `tauff[p1*3 + k]`): the other two use the
                    # rest of its sectors (judged "between debatable and false" without it, census `ay`); a line of
                    # another file (a helper the kernel inlines: Rodinia myocyte's) is named with its file
                    metrics["sibling_use"] = round(use, 4)
                    spelled = [str(ln) if not other else f"{os.path.basename(path)}:{ln}" for other, path, ln in near]
                    lines = ", ".join(spelled[:8]) + (f" and {len(near) - 8} more" if len(near) > 8 else "")
                    note += (f"; the thread's {moves} of neighbouring elements on line{'s' * (len(near) > 1)} {lines} "
                             f"use {use * 100:.0f}% of those sectors")
            elif again:  # nvcc loads it again (a store in between may alias), but the sectors are in L1
                note = (f"; the thread loaded this address on line {again[0].span.line}, so the sectors are in L1: "
                        "the waste is a request, not DRAM bytes")
            elif use >= HALF_USED:
                metrics["sibling_use"] = round(use, 4)
                lines = ", ".join(sorted({str(b.span.line) for b in sibs}, key=int))
                trips_too = len(by_trip) > 1
                if lines or trips_too:
                    where = (f"on line{'s' * (',' in lines)} {lines}" if lines else "")
                    if trips_too:
                        where = f"in the unrolled loop's other trips{' and ' + where if where else ''}"
                    who = f"{moves} of the same element {where}"
                    fix = (run_fix(acc, abs(stride)) if trips_too and not lines and isinstance(stride, int)
                           and abs(stride) > acc.elem_size else whole_element_fix(acc))
                    if lines and acc.elem_size and acc.elem_size <= acc.size and not acc.copied:
                        # scalar elements: the thread's other accesses are its neighbouring elements, which no
                        # alignment merges with this one: a run as wide as the lanes' distance is one vector access
                        # (HeCBench's segsort: 4 ints a thread, 16 bytes apart); a farther one (a stencil's taps
                        # `in[(i + di) * n + j + dj]` with rows by threadIdx.x, ParRes/Kernels) needs the mapping
                        who = f"{moves} of neighbouring elements {where}"
                        fix = run_fix(acc, abs(stride)) if isinstance(stride, int) and abs(stride) <= 16 else (
                            "make consecutive threads access consecutive elements (transpose through shared memory, "
                            "or change the data layout)")
                else:
                    who = f"{moves} in the loop's next and previous trips ({abs(walk)} bytes a trip)"
                    fix = ("stage the rows through shared memory with coalesced accesses if the requests "
                           "(L1 wavefronts) limit the kernel")
                if amplified:
                    costly = True
                    note = (f"; the thread's {who} fill {use * 100:.0f}% of those sectors, so DRAM writes each byte "
                            f"once, but each request writes {fmt(sectors)} partial sectors into L2 for "
                            f"{fmt(cost.ideal_sectors_per_request)} sectors' bytes: above {limit}x the ideal such "
                            "stores take 3x-10x the time of a coalesced layout (measured)")
                    if gate < 0.5 and (share := demotion(kernel, acc, ctx)):
                        note += f"; {share}"
                        costly = False
                else:
                    note = (f"; the thread's {who} use {use * 100:.0f}% of those sectors, so the waste is requests, "
                            "not DRAM bytes")
                    if acc.is_write and loaded is None and sectors > STORE_AMPLIFICATION * cost.ideal_sectors_per_request:
                        calls = sorted({n for n, d, v in kernel.unsized_reads if d == acc.loop_depth and v})
                        who = " and ".join(calls) if calls else \
                            "the statements of the kernel cudalint could not model (its CL000)"
                        note += (f"; {who} may load as many bytes a thread, and such stores then hide "
                                 "behind the loads' DRAM traffic (measured; with fewer bytes loaded they take 3x the "
                                 "time of a coalesced layout)")
            elif (row := short_row(kernel, acc, pic, ctx) if acc.is_write else None) is not None:
                step, names, width = row
                note = (f"; the thread writes its own row of {names} elements, {step} bytes a trip, at most {width} "
                        "bytes for the values the host passes: rows of at most 16 bytes cost nothing measurable "
                        "(measured)")
            elif (row := own_row(acc, pic, ctx) if gate < 0.5 and acc.is_write else None) is not None:
                step, names = row
                costly = True  # a representative large row, as for every run-time pitch; the note says when it is not
                note = (f"; the thread writes its own row of {names} elements, {step} bytes a trip: rows of at most "
                        f"{SECTOR // 2} bytes would cost nothing measurable, longer ones take 3x-10x the time of a "
                        "coalesced layout (measured)")
                if share := demotion(kernel, acc, ctx):
                    note += f"; {share}"
                    costly = False
            elif unsure:
                lines = ", ".join(sorted({str(b.span.line) for b in unsure}, key=int))
                names = ", ".join(sorted({f"`{spell(x)}`" for b in unsure
                                          for x in (b.offset - acc.offset).free_symbols}))
                how = (f"lie at a distance from this one that depends on {names}" if names else
                       "are made when a condition on loaded data holds")
                note = (f"; the thread's {moves} of `{acc.array.name}` on line{'s' * (',' in lines)} {lines} {how}, "
                        "so they may use the rest of those sectors")
            elif gate < 0.5 and (share := demotion(kernel, acc, ctx)):
                note = f"; {share}"
            walking = frozenset(ctx.symbols.param(n) for n in kernel.counter_params)
            if not note and (sample := run_time_layout(acc, pic, walking)) is not None:
                note = f"; {sample}"
            if not note and sectors - cost.ideal_sectors_per_request <= 1:
                # a few lanes in different rows (a stencil's column halo: 2 lanes, 2 rows): the layout's minimum,
                # 32 bytes a request at most (HeCBench's jacobi, judged false as a warning)
                note = f"; that is one sector more than the ideal, at most {SECTOR} bytes a request"
            if gate < 0.5 and (tail := few_threads(kernel, acc, ctx)) and tail not in note:
                note, costly = f"{note}; {tail}", False  # whatever else is said: a path few threads take
            if gate < 0.5 and (tmpl := open_template(kernel, pic, acc, ctx.symbols.unseen)):
                note, costly = f"{note}; {tmpl}", False
            if gate < 0.5 and (binned := bin_search(acc, ctx)):
                note, costly = f"; {binned}", False   # what a full warp's row or share would cost does not apply
            info = gate >= 0.5 or (note and not costly)
            if not info and (guess := unknown_shape(kernel, acc, ctx)):
                note, info = f"{note}; {guess}", True
            msg = (f"uncoalesced global {acc.kind} of `{acc.array.name}`: {why}; a warp touches {fmt(sectors)} sectors "
                   f"per request{trips} instead of {fmt(cost.ideal_sectors_per_request)} ({used}% of "
                   f"{share_of(acc)}){note}; {fix}")
            yield self.diagnostic(kernel, acc, msg, severity=Severity.INFO if info else None,
                                  metrics=metrics, assumptions=ctx.assumptions(kernel, pic) + data_lanes(acc, ctx))
