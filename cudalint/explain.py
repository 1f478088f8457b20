"""``cudalint explain FILE:LINE``: the warp's picture for the accesses on one line.

Global memory: the 32 lanes with their thread coordinates and byte offsets, the 32-byte sectors and
128-byte lines they touch.  Shared memory: the 32 banks with the words each lane hits and the conflict
degree.  Constant memory: the distinct addresses a warp reads.  The same facts as the rules'
(``cudalint.analysis.warp``), drawn with rich; ``--html`` saves the picture as a standalone page.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from typing import Optional

import sympy
from rich.console import Console
from rich.table import Column, Table
from rich.text import Text

from .analysis.context import AnalysisContext
from .analysis.symbols import TID
from .analysis.warp import BANKS, SECTOR, WARP, bank_ways, global_cost, phases, shared_cost, thread_coords
from .diagnostics import Severity
from .explain_svg import phase_banks, touched_lines
from .model import Access, AddressSpace, Kernel
from .rules import spell
from .runner import UsageError, analyse_file, read_source, selected

LINE = 128


def parse_location(text: str) -> tuple[str, int]:
    """``path:line`` -> (path, line). Raises UsageError."""
    path, sep, line = text.rpartition(":")
    if not sep or not line.isdigit() or int(line) < 1:
        raise UsageError(f"expected FILE:LINE, got {text!r}")
    return path, int(line)


def _global(console: Console, size: int, lanes: list[int], coords, residue: int) -> None:
    table = Table(*(Column(col, justify="right") for col in ("lane", "threadIdx", "byte offset", "sector(s)",
                                                              "128-B line")), title="lanes -> 32-byte sectors")
    for lane, (off, c) in enumerate(zip(lanes, coords)):
        a = off + residue
        first, last = a // SECTOR, (a + size - 1) // SECTOR
        sec = str(first) if first == last else f"{first}-{last}"
        table.add_row(str(lane), f"({c[0]},{c[1]},{c[2]})", str(a), sec, str(a // LINE))
    console.print(table)
    lines = touched_lines(size, [off + residue for off in lanes])   # 128-byte line -> the sectors touched in it
    grid = Text()
    for ln in sorted(lines)[:64]:
        cells = "".join("[#]" if i in lines[ln] else "[ ]" for i in range(LINE // SECTOR))
        grid.append(f"line {ln:>8} (byte {ln * LINE:>10}): {cells}\n")
    if len(lines) > 64:
        grid.append(f"... {len(lines) - 64} more lines\n")
    console.print(grid)


def _uniform_bytes(acc: Access, ctx: AnalysisContext, kernel: Kernel) -> Optional[int]:
    """The part of a shared access's byte offset that is the same in every lane, where it is a number (``12`` of
    ``s[2 * threadIdx.x + 3]``): it moves every lane's word, and so the banks shown; None where it is not one."""
    offset = sympy.expand(acc.offset.xreplace(ctx.pictured_values(kernel)))
    uniform = sympy.Add(*(t for t in sympy.Add.make_args(offset) if not t.free_symbols & set(TID)))
    uniform = uniform.xreplace(ctx.launch_shape(kernel).known)
    return int(uniform) if uniform.is_Integer else None


def _shared(console: Console, size: int, lanes: list[int], shift: Optional[int] = 0) -> None:
    """The banks of the warp's words; ``shift``: the bytes every lane's offset adds (None: not a number, the words
    are then numbered from the lanes' own part and the banks shown are relative)."""
    if shift is None:
        console.print("the part of the offset every lane shares is not a number: words are numbered from it, so the "
                      "banks shown are relative (the conflict is the same wherever it starts)")
    n_phases = phases(size)
    per = WARP // n_phases
    for p in range(n_phases):
        banks = phase_banks(size, [x + (shift or 0) if x is not None else None
                                   for x in lanes[p * per:(p + 1) * per]], p * per)
        title = "32 banks x 4 bytes" + (f" (phase {p + 1} of {n_phases}, lanes {p * per}-{(p + 1) * per - 1})"
                                        if n_phases > 1 else "")
        table = Table("bank", "words (lanes)", "distinct words", title=title)
        for b, words in sorted(banks.items()):
            desc = ", ".join(f"w{w} ({','.join(map(str, ls))})" for w, ls in sorted(words.items()))
            table.add_row(str(b), desc, Text(str(len(words)), style="bold red" if len(words) > 1 else ""))
        console.print(table)
        if len(banks) < BANKS:
            console.print(f"banks not used: {BANKS - len(banks)}")
    ways, wavefronts = bank_ways(lanes, size)
    console.print(f"conflict degree: {ways}-way; {wavefronts} wavefront(s) for this warp's request")


def _constant(console: Console, lanes: list[int]) -> None:
    addrs: dict[int, list[int]] = {}
    for lane, off in enumerate(lanes):
        addrs.setdefault(off, []).append(lane)
    table = Table(Column("byte offset", justify="right"), "lanes",
                  title="distinct constant addresses (one request each)")
    for off, ls in sorted(addrs.items()):
        table.add_row(str(off), ",".join(map(str, ls)))
    console.print(table)
    console.print(f"{len(addrs)} distinct address(es) -> {len(addrs)} request(s) per warp")


def explain_access(console: Console, ctx: AnalysisContext, kernel: Kernel, acc: Access, warp: int,
                   draw: bool = False) -> list:
    """Print the access's picture for warp ``warp``; with ``draw``, returns the same picture as SVG elements for
    ``--html`` (:mod:`cudalint.explain_svg`; empty where the lanes are not modelled, or without ``draw``).  Raises
    UsageError for a warp out of range."""
    from . import explain_svg
    pic = ctx.picture(kernel, acc)
    if pic is not None and not 0 <= warp < len(pic.warps):   # said before anything is drawn
        raise UsageError(f"warp {warp} out of range: the block has {len(pic.warps)} warps")
    console.rule(f"{kernel.name}: {acc.kind} of `{acc.array.name}` ({acc.array.space.value}, {acc.size} bytes)")
    # whole lines (soft wrap): a location or an assumption cut at the width of a pipe cannot be copied
    console.print(f"at {acc.span.path}:{acc.span.line}:{acc.span.column}", soft_wrap=True, highlight=False)
    console.print(f"offset (bytes) = {spell(acc.offset)}", soft_wrap=True, highlight=False)
    if pic is None:
        console.print("[yellow]not modelled: the lanes' addresses depend on values known only at run time "
                      "(a loaded index, or a run-time stride in shared memory)[/yellow]")
        return []
    for a in ctx.assumptions(kernel, pic):
        console.print(f"assumption: {spell(a)}", soft_wrap=True, highlight=False)
    lanes = pic.warps[warp]
    console.print(f"warp {warp} of {len(pic.warps)}")
    if acc.array.space == AddressSpace.GLOBAL:
        cost = global_cost(pic, acc.size)
        if not pic.exact_residue:
            console.print(f"base offset taken at its worst residue: +{cost.worst_residue} bytes mod 32")
        _global(console, acc.size, lanes, thread_coords(ctx.launch_shape(kernel))[warp * WARP:], cost.worst_residue)
        console.print(f"sectors/request {cost.sectors_per_request:g} (ideal {cost.ideal_sectors_per_request:g}), "
                      f"efficiency {cost.efficiency:.1%}")
        return [explain_svg.global_svg(acc.size, lanes, cost.worst_residue)] if draw else []
    if acc.array.space == AddressSpace.SHARED:
        shift = _uniform_bytes(acc, ctx, kernel)
        _shared(console, acc.size, lanes, shift)
        cost = shared_cost(pic, acc.size)
        console.print(f"block: worst {cost.bank_conflict_ways}-way, "
                      f"{cost.wavefronts_per_request:g} wavefronts per request on average")
        return explain_svg.shared_svgs(acc.size, lanes, shift or 0) if draw else []
    if acc.array.space == AddressSpace.CONSTANT:
        _constant(console, lanes)
        return [explain_svg.constant_svg(lanes)] if draw else []
    return []


def run_explain(location: str, warp: int = 0, html: Optional[str] = None,
                block_dim: Optional[tuple[int, int, int]] = None, console: Optional[Console] = None,
                cuda_path: Optional[str] = None, toolkit_fallback: bool = False) -> int:
    """Draw every access on ``location`` (``FILE:LINE``); returns the exit code (0, or 1 when no access
    is on that line); ``cuda_path`` and ``toolkit_fallback``: the headers, as ``check`` takes them. Raises
    UsageError for a bad location or an unreadable file."""
    path, line = parse_location(location)
    try:
        text = read_source(path)
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read {path}: {e}") from e
    if line > (n := len(text.splitlines())):
        raise UsageError(f"{path} has {n} lines: line {line} is past its end")
    from .config import Overrides, Resolver
    # include-paths and defines, as `check` reads them
    configured = Resolver(Overrides(block_dim=block_dim, cuda_path=cuda_path,
                                    toolkit_fallback=toolkit_fallback)).options_for(path)
    # every rule, whatever the configuration selects: what the code is; a finding it hides is said to be hidden (a
    # new user's `ignore = ["CL302"]` made the barrier's verdict "no thread is shown to leave before it")
    opts = dataclasses.replace(configured, select=None, ignore=[])
    # one analysis, as `check` makes it (launches in other files too): the pictures' model and the line's findings
    diags, model = analyse_file(path, opts, text=text)
    if model is None:
        raise UsageError(next((d.message for d in diags), f"cannot model {path}"))
    ctx = AnalysisContext(model=model, lines=text.splitlines(), settings=opts.settings)
    console = console or Console(record=html is not None)
    found = [(k, a) for k in model.kernels for a in k.accesses
             if any(s.line == line and s.path == path for s in (a.span, *a.members))]
    sections = []    # for --html: (heading, SVG pictures, the terminal text of that part)
    for kernel, acc in found:
        if acc.span.line != line:   # merged into the vector access written first (a user's `dst[i].y = ..` line)
            console.print(f"nvcc merges the {acc.kind} on this line with the one on line {acc.span.line} into one "
                          f"{acc.size}-byte {acc.kind}: drawn as that access", soft_wrap=True, highlight=False)
        pictures = explain_access(console, ctx, kernel, acc, warp, draw=html is not None)
        sections.append((f"{kernel.name}: {acc.kind} of {acc.array.name} ({acc.array.space.value}, {acc.size} bytes), "
                         f"warp {warp}", pictures, console.export_text(clear=True) if console.record else ""))
    barriers = [(k, b) for k in model.kernels for b in k.barriers if b.span.line == line and b.span.path == path]
    others = []
    if barriers or not found:   # a barrier's verdict, or what else the rules say of the line (CL501, CL601)
        here = os.path.realpath(path)
        others = [d for d in diags if d.line == line and os.path.realpath(d.path) == here
                  and d.code != "CL000" and not any(d.line == a.span.line and d.column == a.span.column
                                                   for _, a in found)]
    explain_barriers(console, ctx, barriers, others)
    for d in others:
        explain_finding(console, d, hidden=not selected(d.code, configured))
    if not (found or barriers or others):
        console.print(f"no global, shared or constant access, barrier or finding on {path}:{line}")
    if html:
        rest = console.export_text(clear=True) if console.record else ""
        if rest.strip():
            sections.append(("barriers and other findings" if barriers or others else "nothing to draw", [], rest))
        from .explain_svg import page
        try:
            with open(html, "w", encoding="utf-8") as fh:
                fh.write(page(f"cudalint explain {path}:{line}", sections))
        except OSError as e:
            raise UsageError(f"cannot write {html}: {e}") from e
        sys.stderr.write(f"cudalint: wrote {html}\n")
    return 0 if found or barriers or others else 1


def explain_barriers(console: Console, ctx: AnalysisContext, barriers: list, findings: list) -> None:
    """Each barrier with the conditions it sits under, each marked thread-dependent or not (CL301's own test,
    :func:`cudalint.rules.cl301_barrier_in_divergent_branch.divergent_guards`); one that no CL301/CL302 finding
    names is reached by every thread of the block or by none, as far as cudalint can show."""
    from .rules.cl301_barrier_in_divergent_branch import divergent_guards
    for kernel, b in barriers:
        console.rule(f"{kernel.name}: barrier `{b.name}`")
        console.print(f"at {b.span.path}:{b.span.line}:{b.span.column}", soft_wrap=True, highlight=False)
        if b.call_chain:
            console.print("reached through " + " -> ".join(f"{n} (line {ln})" for n, ln in b.call_chain),
                          soft_wrap=True, highlight=False)
        guards = [(v, line) for v, line in b.guards if v is not True]
        varying = set(divergent_guards(guards, ctx, kernel))
        for v, line in guards:
            what = "not modelled" if v is None else spell(v)
            console.print(f"under the condition on line {int(line)}: {what} "
                          f"({'depends on the thread' if line in varying else 'uniform or unknown'})",
                          soft_wrap=True, highlight=False)
        if not any(d.code in ("CL301", "CL302") and d.column == b.span.column for d in findings):
            console.print("no finding: " + ("no condition encloses it" if not guards else
                          "no condition above is shown to depend on the thread") +
                          ", and no thread is shown to leave before it", soft_wrap=True, highlight=False)


def explain_finding(console: Console, d, hidden: bool = False) -> None:
    """A finding on the line that has no picture (a barrier's verdict, a division, a copy): its message and the
    assumptions it rests on; ``hidden``: the configuration does not select its code (``check`` does not report it)."""
    console.print(f"{d.code} {Severity(d.severity).value} at {d.path}:{d.line}:{d.column}: {d.message}"
                  + (f" (not reported by `check` here: the configuration does not select {d.code})" if hidden else ""),
                  soft_wrap=True, highlight=False)
    for a in d.assumptions:
        console.print(f"assumption: {a}", soft_wrap=True, highlight=False)
