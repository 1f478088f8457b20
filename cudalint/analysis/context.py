"""What rules receive besides the model: launch shapes per kernel and cached warp pictures."""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from typing import Optional

import sympy

from ..model import Access, Kernel, LaunchSite, TranslationUnitModel
from .symbols import BDIM, GDIM, Symbols, substitute
from .warp import WARP, LaunchShape, NotModelled, WarpPicture, global_cost, picture

#: threads per block a GPU runs at most (CUDA C++ Programming Guide, "Compute Capabilities", Table 21: 1024 on
#: every compute capability since 2.0)
MAX_THREADS = 1024
_HINT = re.compile(r"//\s*cudalint:\s*block\s*=\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?(?:,\s*(\d+)\s*)?\)")


def _whole(block: tuple) -> int:
    """How many leading axes of a launch's ``block`` (known ints, then the first None) hold whole warps: 3 when
    none is None or the known ones before it do not make a multiple of 32."""
    n = next((i for i, v in enumerate(block) if v is None), 3)
    return n if n < 3 and all(isinstance(v, int) and v > 0 for v in block[:n]) and math.prod(block[:n]) % WARP == 0 \
        else 3


def _short(block: tuple) -> Optional[tuple[int, int]]:
    """For a launch whose leading known axes hold less than whole warps and whose next axis is a run-time value
    (``dim3(1, n)``, ``dim3(16, n)``: SHOC's stencil2d): (the threads of those known axes, the run-time axis's
    index); else None."""
    n = next((i for i, v in enumerate(block) if v is None), 3)
    if not 0 < n < 3 or not all(isinstance(v, int) and v > 0 for v in block[:n]):
        return None
    lead = math.prod(block[:n])
    return (lead, n) if lead % WARP else None


@dataclass
class Settings:
    """Run-wide options rules may read (from the command line / configuration)."""

    block_dim: Optional[tuple[int, int, int]] = None
    block_dim_source: str = "--block-dim"


def default_note(site: LaunchSite, role) -> str:
    """`` (`blocksize`: the program's default; the command line can set it on line 135)`` when the launch's
    ``role`` ("grid", "block" or an argument's index) takes a value a command-line branch of ``main`` can
    override; `` (passed by the call at fit_tsne.cu:398)`` when an argument's value comes from a call in another
    file (:attr:`LaunchSite.args_from`); else ""."""
    found = [(name, line) for r, name, line in site.defaults if r == role]
    if not found:
        call = site.args_from[role] if isinstance(role, int) and role < len(site.args_from) else None
        return f" (passed by the call at {call.path}:{call.line})" if call is not None and \
            call.path != site.span.path else ""
    names = ", ".join(f"`{n}`" for n, _ in found)
    lines = ", ".join(sorted({str(ln) for _, ln in found}, key=int))
    return f" ({names}: the program's default; the command line can set it on line {lines})"


@dataclass
class AnalysisContext:
    model: TranslationUnitModel
    lines: list[str]
    settings: Settings = field(default_factory=Settings)
    _shapes: dict = field(default_factory=dict)
    _pictures: dict = field(default_factory=dict)
    _costs: dict = field(default_factory=dict)
    _grids: dict = field(default_factory=dict)
    #: per-kernel answers rules compute once (``rules.small_kernel``): key -> value
    memo: dict = field(default_factory=dict)

    @property
    def symbols(self) -> Symbols:
        """The symbols of the model's index expressions (which are thread-varying, powers of two...)."""
        assert self.model.symbols is not None
        return self.model.symbols

    def launch_shape(self, kernel: Kernel) -> LaunchShape:
        """blockDim for ``kernel``: a ``<<<>>>`` launch of it (of its instantiation) with a constant block,
        then a ``// cudalint: block=(x,y,z)`` hint above the kernel, then ``--block-dim`` (or the
        configuration's ``block-dim``), else unknown.  The source says which, and when a launch's block
        differs from ``--block-dim`` or a launch's block is known only at run time."""
        key = id(kernel)
        if key in self._shapes:
            return self._shapes[key]
        sites = self.sites(kernel)
        known = [s for s in sites if all(isinstance(v, int) and v > 0 for v in s.block)]
        user, src = self.settings.block_dim, self.settings.block_dim_source
        shape = None
        if known:
            site = known[0]
            text = f"blockDim = {tuple(site.block)} from launch at {site.span.path}:{site.span.line}" + \
                (f" (passed by the call at {site.block_from.path}:{site.block_from.line})" if site.block_from else "") \
                + default_note(site, "block")
            others = sorted({tuple(s.block) for s in known} - {tuple(site.block)})
            if others:
                text += f" (other launches use {', '.join(map(str, others))})"
            if user and tuple(user) != tuple(site.block):
                text += f"; {src} {tuple(user)} not used: the launch gives the block"
            shape = LaunchShape(tuple(site.block), text)  # type: ignore[arg-type]
        rejected = ""
        if not known:
            for ln in range(max(1, kernel.span.line - 3), kernel.span.line + 1):
                m = _HINT.search(self.lines[ln - 1]) if ln - 1 < len(self.lines) else None
                if m:
                    dims = tuple(int(g) if g else 1 for g in m.groups())
                    if math.prod(dims) > MAX_THREADS:
                        rejected = f"the hint on line {ln}, blockDim = {dims}"
                        break
                    shape = LaunchShape(dims, f"blockDim = {dims} from the hint on line {ln}")  # type: ignore[arg-type]
        s = sites[0] if sites else None
        lost = self.model.lost.get(kernel.name)
        why = (f"the launch at {s.span.path}:{s.span.line} has a run-time block"
               + (f" `{s.block_text}`" if s.block_text else "")) if s else (
            f"the launch on line {lost[0]} was not read: the code around it did not compile") if lost else \
            "no launch in this file" + (
            # clang drops a launch whose host code does not compile (arrayfire's, behind a missing af/version.h)
            "; some includes were not found, and a launch in it may be lost" if self.model.missing_includes else "")
        part = next((s for s in sites if _whole(s.block) < 3), None) if shape is None else None
        if part is not None:  # `dim3(4, 8, n)`: the known axes hold whole warps
            free = tuple(i for i, v in enumerate(part.block) if v is None)
            dims = ", ".join("?" if v is None else str(v) for v in part.block)
            names = " and ".join(f"blockDim.{'xyz'[i]}" for i in free)
            text = (f"blockDim = ({dims}) from launch at {part.span.path}:{part.span.line} ({names} known only at run "
                    "time; each warp lies in one row of the known axes)")
            shape = LaunchShape(tuple(v or 1 for v in part.block), text, free)  # type: ignore[arg-type]
        short = next((s for s in sites if _short(s.block) is not None), None) if shape is None else None
        if short is not None:  # `dim3(1, n)`: the warp runs along the first run-time axis
            lead, axis = _short(short.block)
            block = list(v or 1 for v in short.block)
            block[axis] = WARP // math.gcd(lead, WARP)  # the fewest threads along it that make whole warps
            dims = ", ".join("?" if v is None else str(v) for v in short.block)
            name = f"blockDim.{'xyz'[axis]}"
            text = (f"blockDim = ({dims}) from launch at {short.span.path}:{short.span.line} ({name} known only at "
                    f"run time: a warp is {block[axis]} consecutive threadIdx.{'xyz'[axis]} of the known "
                    f"{'x' if axis == 1 else 'x, y'} extent, {name} assumed a multiple of {block[axis]})")
            shape = LaunchShape(tuple(block), text, tuple(i for i, v in enumerate(short.block) if v is None))
        if shape is None and user and math.prod(user) > MAX_THREADS:
            rejected = rejected or f"{src} {tuple(user)}"
        elif shape is None and user:
            shape = LaunchShape(user, f"blockDim = {user} from {src}" + (f" ({why})" if sites else ""))
        if shape is None:
            shape = LaunchShape(None, f"blockDim unknown ({why}): blockDim.x assumed a multiple of 32; give "
                                      "`// cudalint: block=(x,y,z)` or --block-dim")
        if rejected:
            shape.rejected = (f"{rejected} is not used for `{kernel.name}`: it has more than {MAX_THREADS} threads, "
                              "which no GPU runs in one block")
        grids = {s.grid for s in sites}
        self._grids[key] = {GDIM[i]: g for i, g in enumerate(next(iter(grids)))
                            if isinstance(g, int) and g > 0} if len(grids) == 1 else {}
        self._shapes[key] = shape
        return shape

    def defaults_note(self, kernel: Kernel, role) -> str:
        """:func:`default_note` of the kernel's launches for ``role`` (the first launch that has one)."""
        return next((n for s in self.sites(kernel) if (n := default_note(s, role))), "")

    def sites(self, kernel: Kernel) -> list[LaunchSite]:
        """The launches of ``kernel`` (of its instantiation) in the translation unit."""
        return [s for s in self.model.launches if s.kernel == kernel.name
                and (not kernel.template_args or s.template_args == kernel.template_args)
                and s.fits(kernel.template_arity)]

    def block_known(self, kernel: Kernel) -> dict:
        """The blockDim members known for ``kernel``: the launch shape's (:attr:`LaunchShape.known`), else each
        member on which all its launches agree (``dim3 b(n, 2)``: ``{blockDim.y: 2, blockDim.z: 1}``)."""
        known = self.launch_shape(kernel).known
        sites = self.sites(kernel)
        if known or not sites:
            return known
        return {BDIM[i]: vals.pop() for i in range(3)
                if len(vals := {s.block[i] for s in sites}) == 1 and isinstance(next(iter(vals)), int)
                and next(iter(vals)) > 0}

    def grid(self, kernel: Kernel) -> dict:
        """gridDim of the kernel's launches where they agree on a constant: ``{gridDim.x: 4096}``."""
        self.launch_shape(kernel)
        return self._grids[id(kernel)]

    def run_multiples(self, kernel: Kernel) -> dict:
        """The integer parameters every launch passes a multiple of ``m`` (:attr:`Kernel.launch_multiples`), each as
        ``m`` times a positive integer: ``{num_paths: 1024*num_paths/1024}``."""
        out = {self.symbols.param(n): m * sympy.Symbol(f"{n}/{m}", positive=True, integer=True)
               for n, (m, _) in kernel.launch_multiples.items()}
        # a multiple of each launch's own block (Kernel.block_multiples): what a bounds check against it needs
        return out | {self.symbols.param(n): BDIM[0] * sympy.Symbol(f"{n}/blockDim.x", positive=True, integer=True)
                      for n in kernel.block_multiples}

    def multiple_values(self, kernel: Kernel, exprs) -> list[str]:
        """The parameters in ``exprs`` (``(value, line)`` guards) that every launch passes a multiple of a number,
        as assumptions: ``["`num_paths` a multiple of 1024 from the launch at main.cu:940 (main.cu:1133)"]``."""
        used, where = _symbols_in(exprs), self._launches_text(kernel, os.path.basename)
        return [f"`{n}` a multiple of {m} {where}" + (f" ({os.path.basename(w.path)}:{w.line})" if w else "")
                for n, (m, w) in kernel.launch_multiples.items() if self.symbols.param(n) in used
                and n not in kernel.block_multiples] + [
            f"`{n}` a multiple of the launch's blockDim.x {where}" for n in kernel.block_multiples
            if self.symbols.param(n) in used]

    def _launches_text(self, kernel: Kernel, path=str) -> str:
        """Where the kernel's launches are, for an assumption: ``from the launch at k.cu:31``, ``at all 2 launches``
        (``path`` spells the file)."""
        sites = self.sites(kernel)
        return (f"from the launch at {path(sites[0].span.path)}:{sites[0].span.line}" if len(sites) == 1
                else f"at all {len(sites)} launches")

    def run_time(self, kernel: Kernel) -> dict:
        """The values the launches give the kernel's symbols: gridDim (:meth:`grid`) and the integer parameters
        every launch passes the same constant (``n`` -> 1024)."""
        return {**self.grid(kernel), **{self.symbols.param(n): v for n, v in kernel.launch_args.items()}}

    def pictured_values(self, kernel: Kernel) -> dict:
        """:meth:`run_time` and, for the warp pictures only, each parameter the host bounds from above at its largest
        value (:attr:`Kernel.launch_max`: the costliest layout it allows; a barrier's verdict does not take it)."""
        return {**{self.symbols.param(n): v for n, (v, _) in kernel.launch_max.items()}, **self.run_time(kernel)}

    def picture(self, kernel: Kernel, access: Access) -> Optional[WarpPicture]:
        """The warp picture of ``access`` under the kernel's launch shape, None when not modelled or when no lane
        of the launch makes the access (``if (threadIdx.x >= 64)`` in a 32-thread launch)."""
        key = id(access)
        if key not in self._pictures:
            try:
                shape, run = self.launch_shape(kernel), self.pictured_values(kernel)
                guards = tuple(substitute(g, run) for g in access.guards)
                self._pictures[key] = pic = picture(access.offset.xreplace(run), shape, self.symbols,
                                                    access.array.space.value, guards) \
                    if access.offset is not None else None
                if pic is not None and not any(pic.warps):
                    pic = self._pictures[key] = None  # no lane of the launch makes it: nothing to cost
                if pic is not None:
                    pic.assumptions += self._bound_args(kernel, access)
            except NotModelled:
                self._pictures[key] = None
        return self._pictures[key]

    def cost_in(self, kernel: Kernel, access: Access, block: tuple[int, int, int]):
        """:func:`~cudalint.analysis.warp.global_cost` of ``access`` were the kernel launched with ``block`` (a shape the
        launch may have where cudalint does not know it), None when not modelled."""
        try:
            run = self.pictured_values(kernel)
            guards = tuple(g.xreplace(run) if run and hasattr(g, "xreplace") else g for g in access.guards)
            pic = picture(access.offset.xreplace(run), LaunchShape(block, f"blockDim = {block}"), self.symbols,
                          access.array.space.value, guards) if access.offset is not None else None
        except NotModelled:
            return None
        return global_cost(pic, access.size) if pic is not None and any(pic.warps) else None

    def _bound_args(self, kernel: Kernel, access: Access) -> list[str]:
        """The parameters of the access's address or guards that the launches bind to a constant, as
        assumptions: ``["`height` = 777 from the launch at k.cu:31"]``."""
        return self.bound_values(kernel, (access.offset, *access.guards))

    def bound_values(self, kernel: Kernel, exprs) -> list[str]:
        """The parameters in ``exprs`` (expressions, or ``(value, line)`` guards) that the launches bind to a
        constant, as assumptions (:meth:`_bound_args`)."""
        used, where = _symbols_in(exprs), self._launches_text(kernel)
        index = kernel.default_args
        return [f"`{n}` = {v} {where}" + (self.defaults_note(kernel, index[n]) if n in index else "")
                for n, v in kernel.launch_args.items() if self.symbols.param(n) in used] + [
            f"`{n}` = {v}, the largest value the host passes: the test at {at.path}:{at.line} leaves the function for "
            "larger ones" for n, (v, at) in kernel.launch_max.items() if self.symbols.param(n) in used]

    def global_cost(self, kernel: Kernel, access: Access):
        """:func:`~cudalint.analysis.warp.global_cost` of the access, cached (CL101 and CL102 share it)."""
        key = id(access)
        if key not in self._costs:
            pic = self.picture(kernel, access)
            self._costs[key] = global_cost(pic, access.size) if pic is not None else None
        return self._costs[key]

    def assumptions(self, kernel: Kernel, pic: WarpPicture) -> list[str]:
        inst = [f"template instantiation {kernel.instantiation}"] if kernel.instantiation else []
        own = [re.sub(r"\(a representative large run-time value\)$", "(a template parameter no instantiation in this "
                      "file binds, taken as a large sample)", a)
               if a.split(" = ", 1)[0] in kernel.open_template_params else a for a in pic.assumptions]
        return [self.launch_shape(kernel).source, *inst, *kernel.incomplete_assumptions, *own]


def _symbols_in(exprs) -> set:
    """The free symbols of ``exprs``: sympy values, or ``(value, line)`` guards."""
    return {x for e in exprs for v in (e if isinstance(e, tuple) else (e,)) if hasattr(v, "free_symbols")
            for x in v.free_symbols}
