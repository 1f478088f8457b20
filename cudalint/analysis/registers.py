"""What nvcc keeps in a register: a thread's repeated accesses to one global address.

nvcc's optimiser forwards a value the thread stored or loaded to a later load of the same address, and drops a
store the thread overwrites before anything can read it (LLVM's GVN and dead-store elimination at ``-O3``).  A hash
kernel's finalisation writes each output word in steps (``b[i] = s[i]; for (j..) b[i] ^= s[i + 8*j];
b[i] = swab(b[i]);``): the PTX and SASS have one ``st.global`` per word, at the last step, and no load
(fixtures/global/register_update.cu; ccminer's Luffa, two false CL101 in census ``o``).  The rules, for global
memory (the interpreter's :meth:`~cudalint.analysis.interpreter.KernelInterpreter.reloads` already removes a load
or store repeated on straight-line code; these follow them across the loops nvcc unrolls and through
load-and-stores such as ``b[i] ^= x``):

* **forwarded load**: a load of an address (same array, byte offset and size) that the thread accessed before,
  where that access runs whenever the load does (its guards enclose the load's and it lies in no loop the load is
  outside of), with no store in between that may overlap the address (a store to another global array may alias
  it; every trip of a loop around the load and not around the earlier access is in between), is no request;
* **dead store**: a store to an address that the thread stores again later, where the later store runs whenever
  this one does, with no load left in between that may read the address, is no request: only the last is made.

Nothing is kept across a barrier, an atomic, a fence, ``__syncwarp()``, inline assembly or a call of a function
whose body cudalint cannot see (:attr:`cudalint.model.Access.epoch`); no store is dropped past a ``return``,
``break``, ``continue`` or ``goto`` (:attr:`~cudalint.model.Access.exits`: conservative, nvcc may still store once a
value selected by the branch); a volatile access is never removed and ends every window.  (The interpreter's
straight-line rule also sees past an atomic or a store through another pointer when the array is a ``__restrict__``
parameter: fixtures/global/store_reload.cu.)  Shared memory keeps the interpreter's straight-line rule only (its measured fixtures do not
cover these windows yet).
"""

from __future__ import annotations

import functools
from dataclasses import replace

import sympy

from ..model import Access, AddressSpace, Kernel
from .merge import disjoint


def keep_in_registers(kernel: Kernel) -> None:
    """Remove from ``kernel.accesses`` the load and store parts that nvcc keeps in registers (module docstring):
    a load-and-store (``b[i] ^= x``) whose load is forwarded becomes a store, a store whose value is overwritten
    disappears."""
    accs = kernel.accesses
    if not any(_candidate(a) for a in accs):
        return
    spans = _loop_spans(accs)
    for i, b in enumerate(accs):  # loads first: a forwarded load no longer keeps an earlier store alive
        if b.is_read and _candidate(b) and _forwarded(accs, i, spans):
            accs[i] = replace(b, is_read=False)
    for i, a in enumerate(accs):
        if a.is_write and _candidate(a) and _overwritten(accs, i, spans):
            accs[i] = replace(a, is_write=False)
    kernel.accesses = [a for a in accs if a.is_read or a.is_write]


def _candidate(a: Access) -> bool:
    return a.array.space == AddressSpace.GLOBAL and a.offset is not None and not a.volatile and a.size > 0


#: an offset's expanded form, computed once per expression: comparing two accesses by ``expand(a - b) == 0`` was
#: quadratic in sympy's expansion (cp2k's grid_gpu_integrate.cu: 121,000 pairs, 80 s of a 90 s profile)
_expanded = functools.lru_cache(maxsize=4096)(sympy.expand)


def _same(a: Access, b: Access) -> bool:
    return a.array is b.array and a.size == b.size and a.offset is not None and b.offset is not None and \
        (a.offset == b.offset or _expanded(a.offset) == _expanded(b.offset))


def _encloses(outer: tuple, inner: tuple) -> bool:
    return inner[:len(outer)] == outer


def _loop_spans(accs: list[Access]) -> dict:
    """Each trip counter -> (first, last) index of the accesses made in its loop (a loop's accesses are
    contiguous: the interpreter walks its body once)."""
    spans: dict = {}
    for i, a in enumerate(accs):
        for t in a.loop_trips:
            first, _ = spans.get(t, (i, i))
            spans[t] = (first, i)
    return spans


def _window(accs: list[Access], lo: int, hi: int, extra: tuple, spans: dict) -> list[Access]:
    """The accesses strictly between indices ``lo`` and ``hi``, with every access of the loops ``extra`` (trip
    counters: the loops one end lies in and the other does not, whose later trips come in between)."""
    idx = set(range(lo + 1, hi))
    for t in extra:
        first, last = spans.get(t, (lo, lo))
        idx.update(range(first, last + 1))
    idx.discard(lo)
    idx.discard(hi)
    return [accs[k] for k in sorted(idx)]


def _may_overlap(w: Access, a: Access) -> bool:
    """Whether ``w`` may touch a byte of ``a``'s address (another global array may alias: pointers are not known
    apart), other than at exactly ``a``'s address."""
    if w.array.space != a.array.space:
        return False
    if w.array is not a.array or w.offset is None:
        return True
    return not _same(w, a) and not disjoint(w, a) and not disjoint(a, w)


def _forwarded(accs: list[Access], i: int, spans: dict) -> bool:
    b = accs[i]
    for j in range(i - 1, -1, -1):
        a = accs[j]
        if a.epoch != b.epoch:
            return False
        if not _same(a, b) or a.volatile:
            continue
        if not (_encloses(a.guards, b.guards) and _encloses(a.loop_trips, b.loop_trips)):
            continue  # may not have run when the load does
        extra = b.loop_trips[len(a.loop_trips):]
        between = _window(accs, j, i, extra, spans)
        return not any(w.volatile or w.is_write and _may_overlap(w, b) for w in between)
    return False


def _overwritten(accs: list[Access], i: int, spans: dict) -> bool:
    a = accs[i]
    for k in range(i + 1, len(accs)):
        c = accs[k]
        if c.epoch != a.epoch or c.exits != a.exits:
            return False
        if not (c.is_write and _same(a, c)) or c.volatile:
            continue
        if not (_encloses(c.guards, a.guards) and _encloses(c.loop_trips, a.loop_trips)):
            continue  # may not run when this store does
        extra = a.loop_trips[len(c.loop_trips):]
        if extra and a.is_read:
            return False  # a load-and-store in a loop the later store is outside of: its next trip reads this one
        between = _window(accs, i, k, extra, spans)
        return not any(w.volatile or w.is_read and (_same(w, a) or _may_overlap(w, a)) for w in between)
    return False
