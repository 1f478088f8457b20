"""What rules receive besides the model: launch shapes per kernel and cached warp pictures."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from ..model import Access, Kernel, TranslationUnitModel
from .symbols import Symbols
from .warp import LaunchShape, NotModelled, WarpPicture, global_cost, picture

_HINT = re.compile(r"//\s*cudalint:\s*block\s*=\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?(?:,\s*(\d+)\s*)?\)")


@dataclass
class Settings:
    """Run-wide options rules may read (from the command line / configuration)."""

    block_dim: Optional[tuple[int, int, int]] = None
    block_dim_source: str = "--block-dim"


@dataclass
class AnalysisContext:
    model: TranslationUnitModel
    lines: list[str]
    settings: Settings = field(default_factory=Settings)
    _shapes: dict = field(default_factory=dict)
    _pictures: dict = field(default_factory=dict)
    _costs: dict = field(default_factory=dict)

    @property
    def symbols(self) -> Symbols:
        """The symbols of the model's index expressions (which are thread-varying, powers of two...)."""
        assert self.model.symbols is not None
        return self.model.symbols

    def launch_shape(self, kernel: Kernel) -> LaunchShape:
        """blockDim for ``kernel``: a ``<<<>>>`` site in the file with a constant block, then a
        ``// cudalint: block=(x,y,z)`` hint above the kernel, then ``--block-dim``, else unknown."""
        if kernel.name in self._shapes:
            return self._shapes[kernel.name]
        shape = None
        for site in self.model.launches:
            if site.kernel == kernel.name and all(isinstance(v, int) and v > 0 for v in site.block):
                shape = LaunchShape(tuple(site.block),  # type: ignore[arg-type]
                                    f"blockDim = {tuple(site.block)} from launch at "
                                    f"{site.span.path}:{site.span.line}")
                break
        if shape is None:
            first = kernel.span.line
            for ln in range(max(1, first - 3), first + 1):
                m = _HINT.search(self.lines[ln - 1]) if ln - 1 < len(self.lines) else None
                if m:
                    dims = tuple(int(g) if g else 1 for g in m.groups())
                    shape = LaunchShape(dims, f"blockDim = {dims} from the hint on line {ln}")  # type: ignore[arg-type]
        if shape is None and self.settings.block_dim:
            shape = LaunchShape(self.settings.block_dim, f"blockDim = {self.settings.block_dim} from {self.settings.block_dim_source}")
        if shape is None:
            shape = LaunchShape(None, "blockDim unknown (no launch in this file): blockDim.x assumed a "
                                      "multiple of 32; give `// cudalint: block=(x,y,z)` or --block-dim")
        self._shapes[kernel.name] = shape
        return shape

    def picture(self, kernel: Kernel, access: Access) -> Optional[WarpPicture]:
        """The warp picture of ``access`` under the kernel's launch shape, None when not modelled."""
        key = id(access)
        if key not in self._pictures:
            try:
                self._pictures[key] = picture(access.offset, self.launch_shape(kernel), self.symbols,
                                              access.array.space.value, access.guards) \
                    if access.offset is not None else None
            except NotModelled:
                self._pictures[key] = None
        return self._pictures[key]

    def global_cost(self, kernel: Kernel, access: Access):
        """:func:`~cudalint.analysis.warp.global_cost` of the access, cached (CL101 and CL102 share it)."""
        key = id(access)
        if key not in self._costs:
            pic = self.picture(kernel, access)
            self._costs[key] = global_cost(pic, access.size) if pic is not None else None
        return self._costs[key]

    def assumptions(self, kernel: Kernel, pic: WarpPicture) -> list[str]:
        out = [self.launch_shape(kernel).source]
        if kernel.instantiation:
            out.append(f"template instantiation {kernel.instantiation} (first launch in this file)")
        return out + list(kernel.incomplete_assumptions) + list(pic.assumptions)
