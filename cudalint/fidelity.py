"""``cudalint verify --run CMD`` / ``--report FILE``: cudalint's predictions beside the user's own program's counters.

Nsight Compute measures each SASS instruction of a kernel (its ``SourceCounters`` section); a program built with
``-lineinfo`` maps each instruction to a source line.  This module joins those counters to the accesses cudalint
models on the same line, normalised by the ideal so that partly active warps compare fairly:

- global memory: L2 theoretical sectors per request (``memory_l2_theoretical_sectors_global``, requests = the
  memory instruction's warp-level executions) against the ideal (``..._global_ideal``);
- shared memory: L1 wavefronts per request (``memory_l1_wavefronts_shared``) against the ideal
  (``..._shared_ideal``: one per phase of the access).

Data flows one way: ncu's CSV source page (:func:`parse_source_page`) and raw page (:func:`parse_launch_page`) ->
:class:`Measured` per (kernel, file, line, space, operation) -> joined with :class:`Predicted` from cudalint's model
(:func:`predictions`) -> :class:`Row` with a verdict -> text or JSON.  Running ncu is the only step that needs a GPU
(:func:`profile`, :func:`export`); everything after it runs on the pages, so it is tested without one on committed
extracts (``tests/data/fidelity``).

Sources of the hardware facts: the metrics are Nsight Compute's (Kernel Profiling Guide, "Source Counters"; the
page's column labels are the ones ``ncu --page source --csv --print-source cuda,sass`` writes, seen with
Nsight Compute 2025.3 on an H100 and an H200: ``tests/data/fidelity/*.csv``).
"""

from __future__ import annotations

import csv
import json
import os
import re
import shlex
import shutil
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence

from .verify import Timeout, VerifyError, _number, _run, kernel_key, parse_ncu_csv

#: an access whose measured cost is more than this factor above its ideal is wasteful in hardware; a prediction
#: agrees when it is within this share of the measured factor (the issue's "within 10 %")
TOLERANCE = 0.10

#: the source page's column labels (Nsight Compute 2025.3)
_COLUMNS = {
    "executed": "Instructions Executed",
    "threads": "Avg. Threads Executed",
    "space": "Address Space",
    "operation": "Access Operation",
    "size": "Access Size",
    "sectors": "L2 Theoretical Sectors Global",
    "sectors_ideal": "L2 Theoretical Sectors Global Ideal",
    "wavefronts": "L1 Wavefronts Shared",
    "wavefronts_ideal": "L1 Wavefronts Shared Ideal",
}
_SPACES = {"Global": "global", "Shared": "shared"}
_OPERATIONS = {"Load": "load", "Store": "store"}


class FidelityError(Exception):
    """A report or program that cannot be read or profiled: one line for the user (exit 2)."""


@dataclass
class Instruction:
    """One SASS memory instruction of one profiled launch, with its source line and counters (totals over the
    launch: ``executed`` warp-level executions = requests; ``sectors``, ``wavefronts`` and their ideals)."""
    address: str
    sass: str            # the opcode with its modifiers: ``LDG.E.64``, ``LDS.128``
    file: str
    line: int
    space: str           # "global" or "shared"
    operation: str       # "load" or "store"
    executed: float
    threads: float       # average active threads per execution
    cost: float          # sectors (global) or wavefronts (shared)
    ideal: float


@dataclass
class Launch:
    """One profiled launch: the kernel's name as ncu prints it, its launch configuration when the raw page gave it,
    and its memory instructions."""
    name: str
    grid: str = ""
    block: str = ""
    instructions: list[Instruction] = field(default_factory=list)
    files: set[str] = field(default_factory=set)

    @property
    def label(self) -> str:
        return kernel_label(self.name)


def kernel_label(name: str) -> str:
    """ncu's ``void strided<(int)8>(const float *, float *)`` -> ``strided<8>``, the label cudalint gives the
    instantiation (``reduceInterleaved<int, (unsigned int)256>`` -> ``reduceInterleaved<int, 256>``, ``(bool)1`` ->
    ``1``): :func:`cudalint.verify.kernel_key` without ncu's casts of integral arguments and without a namespace."""
    head = re.sub(r"\((?:unsigned |signed |long |short )*(?:int|long|char|short|bool|unsigned)\)\s*", "",
                  kernel_key(name))
    base, sep, args = head.partition("<")
    return base.split("::")[-1] + sep + args


def parse_source_page(text: str) -> list[Launch]:
    """The launches of ``ncu --page source --csv --print-source cuda,sass``: for each launch, a ``File Path`` and
    ``Function Name`` pair per source file its code comes from (a helper inlined from a header is a second file),
    then per source line a row with the line number and the rows of its SASS instructions (each may appear twice).
    A launch starts where the function changes or names a file again.  Raises FidelityError when the page has no
    source lines (a program built without ``-lineinfo``)."""
    launches: list[Launch] = []
    path = header = None
    line = 0
    seen: set[str] = set()
    counted = False
    for row in csv.reader(text.splitlines()):
        if len(row) == 2 and row[0] == "File Path":
            path = row[1]
        elif len(row) == 2 and row[0] == "Function Name":
            cur = launches[-1] if launches else None
            if cur is None or cur.name != row[1] or path in cur.files:
                launches.append(Launch(row[1]))
                seen = set()
            launches[-1].files.add(path or "")
        elif row and row[0] == "Line No":
            header = {name: i for i, name in reversed(list(enumerate(row)))}   # the first of a repeated label
            counted = counted or _COLUMNS["executed"] in header
            header["Address"] = row.index("Address")
        elif header is not None and launches and len(row) > header["Address"] + 1:
            if row[0].strip().isdigit():
                line = int(row[0])
                continue
            address = row[header["Address"]]
            if not address.startswith("0x") or address in seen:
                continue
            seen.add(address)
            ins = _instruction(row, header, address, path or "", line)
            if ins is not None:
                launches[-1].instructions.append(ins)
    if launches and not any(path for la in launches for path in la.files):
        raise FidelityError("the report has no source lines: rebuild the program with `nvcc -lineinfo`")
    if launches and not counted:
        raise FidelityError("the report has no source counters: profile with `ncu --section SourceCounters`")
    return launches


def _instruction(row: list[str], header: dict[str, int], address: str, path: str, line: int
                 ) -> Optional[Instruction]:
    def col(key: str) -> str:
        i = header.get(_COLUMNS[key])
        return row[i].strip() if i is not None and i < len(row) else ""
    space, operation = _SPACES.get(col("space")), _OPERATIONS.get(col("operation"))
    if space is None or operation is None:
        return None   # not a global or shared load/store (atomics, local memory, other instructions)
    cost, ideal = ("sectors", "sectors_ideal") if space == "global" else ("wavefronts", "wavefronts_ideal")
    source = row[header["Address"] + 1].split()
    opcode = next((w for w in source if not w.startswith("@")), "")
    return Instruction(address, opcode, path, line, space, operation, _number(col("executed")) or 0.0,
                       _number(col("threads")) or 0.0, _number(col(cost)) or 0.0, _number(col(ideal)) or 0.0)


def parse_launch_page(text: str) -> list[dict[str, str]]:
    """Kernel name, grid and block of each launch, in order, from ``ncu --page raw --csv``
    (:func:`cudalint.verify.parse_ncu_csv`)."""
    return [{"name": la["name"], "grid": la["grid"], "block": la["block"]} for la in parse_ncu_csv(text)]


def attach_launches(launches: list[Launch], config: list[dict[str, str]]) -> None:
    """Give each launch of the source page its grid and block: both pages list the launches in the same order."""
    if len(config) == len(launches) and all(kernel_label(c["name"]) == la.label for c, la in zip(config, launches)):
        for la, c in zip(launches, config):
            la.grid, la.block = c["grid"], c["block"]


@dataclass
class Measured:
    """One kind of access on one source line of one kernel, summed over the launches profiled: ``requests``
    (warp-level executions of its instructions), ``cost`` (sectors or wavefronts), ``ideal``, the SASS opcodes
    (opcode -> instructions) and the launch configurations."""
    kernel: str
    file: str
    line: int
    space: str
    operation: str
    requests: float = 0.0
    cost: float = 0.0
    ideal: float = 0.0
    sass: dict[str, int] = field(default_factory=dict)
    launches: list[str] = field(default_factory=list)

    @property
    def per_request(self) -> Optional[float]:
        return self.cost / self.requests if self.requests else None

    @property
    def factor(self) -> Optional[float]:
        """Measured cost over the ideal (1.0: as cheap as the lanes' bytes allow)."""
        return self.cost / self.ideal if self.ideal else None


def measured(launches: Iterable[Launch]) -> dict[tuple, Measured]:
    """Per (kernel label, real file path, line, space, operation): the :class:`Measured` totals; instructions that
    never ran are left out (code the launch did not reach)."""
    out: dict[tuple, Measured] = {}
    seen: set[tuple] = set()   # (key, address): an instruction counted once however many launches ran it
    for la in launches:
        config = f"<<<{la.grid}, {la.block}>>>" if la.grid else ""
        for ins in la.instructions:
            if not ins.executed:
                continue
            key = (la.label, _real(ins.file), ins.line, ins.space, ins.operation)
            m = out.setdefault(key, Measured(la.label, ins.file, ins.line, ins.space, ins.operation))
            m.requests += ins.executed
            m.cost += ins.cost
            m.ideal += ins.ideal
            if (key, ins.address) not in seen:
                seen.add((key, ins.address))
                m.sass[ins.sass] = m.sass.get(ins.sass, 0) + 1
            if config and config not in m.launches:
                m.launches.append(config)
    return out


def _real(path: str) -> str:
    return os.path.realpath(path) if path else ""


@dataclass
class Predicted:
    """cudalint's picture of the accesses of one kind on one line of one kernel: the mean per-request cost and
    ideal over its accesses there (sectors or wavefronts), the findings reported there (``CL101``...), and the
    block shape the picture assumed."""
    kernel: str
    file: str
    line: int
    space: str
    operation: str
    per_request: Optional[float] = None
    ideal: Optional[float] = None
    findings: list[str] = field(default_factory=list)
    block: str = ""
    modelled: int = 0
    accesses: int = 0
    #: the template arguments of the instantiation pictured, None where a type was left to run time (a kernel
    #: launched from a host template: ``reduce4<T, 256>`` stands for ``reduce4<int, 256>`` and ``<float, 256>``)
    pattern: tuple = ()

    @property
    def factor(self) -> Optional[float]:
        return self.per_request / self.ideal if self.per_request is not None and self.ideal else None


_FLAGS = {"global": ("CL101", "CL102"), "shared": ("CL201",)}
_BARRIER_CODES = ("CL301", "CL302")


def _instances(message: str, label: str) -> list[str]:
    """The instantiations a finding names at its end (``... (in `strided<8>`)``), else ``[label]``: it holds for
    every instantiation (cudalint.runner._one_per_site)."""
    m = re.search(r" \(in (`[^()]*`(?:, `[^()]*`)*)\)$", message)
    return re.findall(r"`([^`]+)`", m.group(1)) if m else [label]


def predictions(paths: Sequence[str], opts: Any = None, barriers: Optional[list] = None) -> dict[tuple, Predicted]:
    """Lint ``paths`` as ``cudalint check`` does and picture every global and shared access: per (kernel label, real
    path, line, space, operation), a :class:`Predicted`.  An access seen from several translation units (a kernel
    file linted alone and through the file that includes it and launches the kernel) takes the picture of the one
    that sees a launch of its kernel.  ``barriers``, when given, receives each CL301/CL302 finding (once per site)."""
    from .analysis.context import AnalysisContext
    from .analysis.launches import template_arg_text
    from .analysis.warp import counted_ideal, shared_cost, stated_sectors
    from .config import Overrides, Resolver
    from .ir.types import TypeKind
    from .model import AddressSpace
    from .runner import analyse_file, read_source

    resolver = Resolver(Overrides())
    sites: dict[tuple, tuple] = {}   # site -> (launch seen, label, pattern, block, space, ops, cost, ideal, found)
    for path in paths:
        o = opts or resolver.options_for(path)
        diags, model = analyse_file(path, o)
        if model is None:
            continue
        ctx = AnalysisContext(model=model, lines=read_source(path).splitlines(), settings=o.settings)
        if barriers is not None:
            barriers += [d for d in diags if d.code in _BARRIER_CODES and not any(
                (b.path, b.line, b.code) == (d.path, d.line, d.code) for b in barriers)]
        at: dict[tuple, list] = {}   # (real path, line, column) -> the access findings there
        for d in diags:
            if d.code in _FLAGS["global"] + _FLAGS["shared"]:
                at.setdefault((_real(d.path), d.line, d.column), []).append(d)
        for k in model.kernels:
            label = k.label if k.template_args else k.name
            pattern = tuple(None if isinstance(a, str) or getattr(a, "kind", None) == TypeKind.PARAM
                            else template_arg_text(a) for a in k.template_args)
            shape = ctx.launch_shape(k)
            launched = "from launch" in shape.source
            for acc in k.accesses:
                space = {AddressSpace.GLOBAL: "global", AddressSpace.SHARED: "shared"}.get(acc.array.space)
                site = (label, _real(acc.span.path), acc.span.line, acc.span.column, acc.is_read, acc.is_write)
                if space is None or site in sites and (sites[site][0] or not launched):
                    continue
                pic = ctx.picture(k, acc)
                cost = ideal = None
                if pic is not None and space == "global" and (c := ctx.global_cost(k, acc)) is not None:
                    cost = stated_sectors(pic, c, acc.size)
                elif pic is not None and space == "shared":
                    cost = shared_cost(pic, acc.size).wavefronts_per_request
                if cost is not None:
                    ideal = counted_ideal(pic, acc.size, shared=space == "shared")
                hits = [d for d in at.get(site[1:4], []) if d.code in _FLAGS[space] and d.kernel == k.name
                        and label in _instances(d.message, label)]
                stated = [d.metrics.get("sectors_per_request", d.metrics.get("wavefronts_per_request")) for d in hits]
                if stated and all(isinstance(v, (int, float)) for v in stated) and ideal:
                    cost = max(stated)   # the number the finding states (CL102's worst residue, say)
                ops = [op for op, on in (("load", acc.is_read), ("store", acc.is_write)) if on]
                block = "x".join(map(str, shape.block)) if shape.block else ""
                sites[site] = (launched, label, pattern, block, space, ops, cost, ideal, [d.code for d in hits],
                               acc.span.path)
    out: dict[tuple, Predicted] = {}
    sums: dict[tuple, list[float]] = {}
    for site, (_, label, pattern, block, space, ops, cost, ideal, found, path) in sites.items():
        for op in ops:
            key = (label, site[1], site[2], space, op)
            p = out.setdefault(key, Predicted(label, path, site[2], space, op, block=block, pattern=pattern))
            p.accesses += 1
            p.findings += [c for c in found if c not in p.findings]
            if cost is not None:
                s = sums.setdefault(key, [0.0, 0.0])
                s[0] += cost
                s[1] += ideal
                p.modelled += 1
    for key, (c, i) in sums.items():
        p = out[key]
        p.per_request, p.ideal = c / p.modelled, i / p.modelled
    return out


@dataclass
class Row:
    """One access line: what cudalint said and what the hardware did, and the verdict."""
    kernel: str
    file: str
    line: int
    space: str
    operation: str
    verdict: str
    predicted: Optional[float] = None         # cost over ideal
    measured: Optional[float] = None          # cost over ideal
    predicted_per_request: Optional[float] = None
    measured_per_request: Optional[float] = None
    findings: list[str] = field(default_factory=list)
    sass: str = ""
    block_assumed: str = ""
    launches: list[str] = field(default_factory=list)


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= TOLERANCE * b


def verdict(p: Optional[Predicted], m: Optional[Measured]) -> str:
    """``confirmed`` (flagged, wasteful, the size right), ``off by X`` (flagged and wasteful, predicted X times the
    measured factor), ``clean in hardware`` (flagged, the hardware within 10 % of ideal), ``missed`` (wasteful,
    not flagged), ``clean`` (neither), ``not seen in this run`` (flagged, no instruction on the line ran)."""
    flagged = bool(p and p.findings)
    if m is None or m.factor is None:
        return "not seen in this run" if flagged else "not run"
    wasteful = m.factor > 1 + TOLERANCE
    if flagged and not wasteful:
        return "clean in hardware"
    if not flagged and not wasteful:
        return "clean"
    if not flagged:
        return "missed (not modelled)" if p is None or p.factor is None else \
            "missed (predicted, not reported)" if p.factor > 1 + TOLERANCE else "missed"
    if p.factor is not None and not _close(p.factor, m.factor):
        return f"off by {p.factor / m.factor:.2g}x"
    return "confirmed"


def instances(measured_labels: Iterable[str], patterns: dict[str, tuple]) -> list[tuple[str, str]]:
    """(measured label, cudalint's label) for each profiled instantiation cudalint pictured only in general: the
    same kernel and template arguments, a type it could not resolve matching any (``reduce4<int, 256>`` for
    ``reduce4<T, 256>``)."""
    out = []
    for label in measured_labels:
        if label in patterns:
            continue
        base, _, rest = label.partition("<")
        args = [a.strip() for a in _split_args(rest[:-1])] if rest else []
        for general, pattern in patterns.items():
            if general.partition("<")[0] == base and len(pattern) == len(args) and None in pattern \
                    and all(p is None or _same_arg(p, a) for p, a in zip(pattern, args)):
                out.append((label, general))
                break
    return out


def _same_arg(a: str, b: str) -> bool:
    bools = {"true": "1", "false": "0"}
    return bools.get(a, a) == bools.get(b, b)


def _split_args(text: str) -> list[str]:
    """``int, Pair<a, b>, 4`` -> ``["int", "Pair<a, b>", "4"]``."""
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += (ch in "<(") - (ch in ">)")
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return out + [cur] if cur.strip() else out


def same_files(measured_files: Iterable[str], linted_files: Iterable[str]) -> dict[str, str]:
    """Each profiled file's linted counterpart: the same real path, else the linted file with the same name whose
    path shares the longest tail with it (a report profiled on another machine, or in another checkout)."""
    linted = list(dict.fromkeys(linted_files))
    out = {}
    for f in dict.fromkeys(measured_files):
        if f in linted:
            out[f] = f
            continue
        parts = Path(f).parts

        def tail(g: str) -> int:
            n = 0
            for a, b in zip(reversed(parts), reversed(Path(g).parts)):
                if a != b:
                    break
                n += 1
            return n
        best = max(linted, key=tail, default=None)
        if best is not None and tail(best) > 0:
            out[f] = best
    return out


def join(predicted: dict[tuple, Predicted], measured_: dict[tuple, Measured]) -> list[Row]:
    """A :class:`Row` for each access line measured or flagged; lines neither flagged nor run are left out.
    Profiled files are matched to linted ones by :func:`same_files`."""
    rename = same_files({k[1] for k in measured_}, {k[1] for k in predicted})
    measured_ = {(k[0], rename[k[1]], *k[2:]): m for k, m in measured_.items() if k[1] in rename}
    predicted = dict(predicted)
    for label, general in instances({k[0] for k in measured_}, {p.kernel: p.pattern for p in predicted.values()}):
        for k, p in list(predicted.items()):
            if k[0] == general:
                predicted[(label, *k[1:])] = Predicted(**{**asdict(p), "kernel": label})
    rows = []
    labels = {k[0] for k in measured_}
    for key in sorted(set(predicted) | set(measured_), key=lambda k: (k[1], k[2], k[0], k[3], k[4])):
        p, m = predicted.get(key), measured_.get(key)
        if m is None and not (p and p.findings and p.kernel in labels | {lab.split("<")[0] for lab in labels}):
            continue   # a kernel this run did not launch, or a line it never reached and nobody flagged
        v = verdict(p, m)
        if v == "not run":
            continue
        rows.append(Row(key[0], p.file if p else key[1], key[2], key[3], key[4], v,
                        predicted=_round(p.factor if p else None), measured=_round(m.factor if m else None),
                        predicted_per_request=_round(p.per_request if p else None),
                        measured_per_request=_round(m.per_request if m else None),
                        findings=list(p.findings) if p else [],
                        sass=", ".join(f"{op} x{n}" if n > 1 else op for op, n in m.sass.items()) if m else "",
                        block_assumed=p.block if p else "", launches=list(m.launches) if m else []))
    return rows


def join_barriers(findings: Sequence[Any], reports: Sequence[dict], linted: Sequence[str] = ()) -> list[Row]:
    """compute-sanitizer synccheck's barrier errors (:func:`cudalint.verify.parse_synccheck`: file name, line,
    kernel) beside the CL301/CL302 findings: ``confirmed`` (a finding at a line synccheck reports), ``not seen in
    this run`` (a finding whose barrier no thread of this run left incomplete: a bounds check the input never
    straddles, a kernel not launched), ``missed`` (a reported line with no finding).  ``measured``: the errors
    reported at that line; a reported line's file is the linted one of that name (synccheck names files alone)."""
    counts: dict[tuple, int] = {}
    kernels: dict[tuple, str] = {}
    for r in reports:
        if r.get("line") is not None:
            key = (r.get("file") or "", r["line"])
            counts[key] = counts.get(key, 0) + 1
            kernels.setdefault(key, r.get("kernel") or "")
    rows, seen = [], set()
    for d in findings:
        key = (Path(d.path).name, d.line)
        seen.add(key)
        rows.append(Row(d.kernel or "", d.path, d.line, "barrier", "sync", "confirmed" if key in counts else
                        "not seen in this run", measured=float(counts.get(key, 0)), findings=[d.code]))
    named = {Path(f).name: f for f in linted}
    rows += [Row(kernels[key], named.get(key[0], key[0]), key[1], "barrier", "sync", "missed", measured=float(n))
             for key, n in sorted(counts.items()) if key not in seen]
    return rows


def _round(v: Optional[float]) -> Optional[float]:
    return None if v is None else round(v, 3)


def summary(rows: Sequence[Row]) -> dict[str, int]:
    """The agreement table's totals: accesses measured, predictions within 10 %, wasteful in hardware, of those
    flagged with the right size, missed, flags clean in hardware, findings on lines that did not run."""
    bars = [r for r in rows if r.space == "barrier"]
    rows = [r for r in rows if r.space != "barrier"]
    run = [r for r in rows if r.measured is not None]
    predicted = [r for r in run if r.predicted is not None]
    barrier = {f"barrier_{v.replace(' ', '_')}": sum(r.verdict == v for r in bars)
               for v in ("confirmed", "not seen in this run", "missed")} if bars else {}
    return {**barrier,
        "measured": len(run),
        "predicted": len(predicted),
        "within_10pct": sum(_close(r.predicted, r.measured) for r in predicted),
        "wasteful": sum(r.measured > 1 + TOLERANCE for r in run),
        "flagged_right_size": sum(r.verdict == "confirmed" for r in run),
        "missed": sum(r.verdict.startswith("missed") for r in run),
        "missed_unmodelled": sum(r.verdict == "missed (not modelled)" for r in run),
        "missed_unreported": sum(r.verdict == "missed (predicted, not reported)" for r in run),
        "flags": sum(bool(r.findings) for r in run),
        "clean_in_hardware": sum(r.verdict == "clean in hardware" for r in run),
        "not_seen": sum(r.verdict == "not seen in this run" for r in rows),
    }


def format_text(rows: Sequence[Row], root: Optional[str] = None) -> str:
    """The side-by-side table (cost over ideal: sectors for global, wavefronts for shared) and the totals."""
    def num(v: Optional[float]) -> str:
        return "-" if v is None else f"{v:.3g}"

    def where(path: str) -> str:
        return os.path.relpath(path, root) if root and os.path.isabs(path) else path
    head = ("location", "kernel", "access", "SASS", "finding", "predicted", "measured", "verdict")
    body = [(f"{where(r.file)}:{r.line}", r.kernel, f"{r.space} {r.operation}", r.sass or "-",
             ",".join(r.findings) or "-", num(r.predicted), num(r.measured), r.verdict) for r in rows]
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
    out = "\n".join("  ".join(str(x).ljust(w) for x, w in zip(line, widths)).rstrip() for line in [head, *body])
    s = summary(rows)
    out += ("\n\npredicted and measured: cost per request over the ideal (1 = as few sectors or wavefronts as the "
            "lanes' bytes need)\n"
            f"{s['measured']} access lines measured, {s['predicted']} pictured by cudalint, {s['within_10pct']} of "
            f"them within 10 %; {s['wasteful']} wasteful in hardware, {s['flagged_right_size']} flagged with the "
            f"right size, {s['missed']} missed ({s['missed_unmodelled']} not modelled, {s['missed_unreported']} "
            f"predicted but not reported); {s['flags']} flagged, "
            f"{s['clean_in_hardware']} clean in hardware; {s['not_seen']} flagged line(s) not run.\n")
    if "barrier_confirmed" in s:
        out += (f"barriers (compute-sanitizer synccheck): {s['barrier_confirmed']} CL301/CL302 confirmed, "
                f"{s['barrier_not_seen_in_this_run']} not seen in this run, {s['barrier_missed']} reported and "
                "not flagged (their `measured`: synccheck's errors at that line)\n")
    launches = sorted({la for r in rows for la in r.launches})
    blocks = sorted({r.block_assumed for r in rows if r.block_assumed})
    if launches:
        out += f"launches measured: {', '.join(launches[:6])}{' ...' if len(launches) > 6 else ''}; "
        out += f"block shapes cudalint assumed: {', '.join(blocks) or 'none'}\n"
    return out


def to_json(rows: Sequence[Row]) -> str:
    return json.dumps({"rows": [asdict(r) for r in rows], "summary": summary(rows)}, indent=1) + "\n"


# --- running Nsight Compute -------------------------------------------------------------------------------------

PROFILE_ARGS = ["--clock-control", "none", "--section", "SourceCounters", "--section", "LaunchStats",
                "--kernel-name-base", "mangled"]


def _tool(path: str, argv: list[str], timeout: int, what: str, option: str):
    """Run a profiling tool through :func:`cudalint.verify._run` (its own process group, the whole group killed on
    timeout: a hung kernel must not keep the GPU). Raises FidelityError."""
    try:
        return _run([path, *argv], timeout)
    except Timeout as e:
        raise FidelityError(f"{Path(path).name} ran past {timeout} s (--timeout)") from e
    except VerifyError as e:
        if shutil.which(path) is None:
            raise FidelityError(f"{what} not found ({path}): install it or pass {option} PATH") from e
        raise FidelityError(str(e)) from e


def _ncu(ncu: str, argv: list[str], timeout: int):
    return _tool(ncu, argv, timeout, "Nsight Compute", "--ncu")


def split_command(command: str) -> list[str]:
    """A command line split as a POSIX shell would (never run through one). Raises FidelityError for an empty
    command or a quote left open."""
    try:
        argv = shlex.split(command)
    except ValueError as e:
        raise FidelityError(f"cannot split the command {command!r}: {e}") from e
    if not argv:
        raise FidelityError("--run needs a command: the program to profile and its arguments")
    return argv


def profile(command: str, report: str, ncu: str = "ncu", kernel: Optional[str] = None, launch_skip: int = 0,
            launch_count: Optional[int] = None, timeout: int = 600) -> None:
    """Run ``command`` (a shell-style command line, split with :func:`shlex.split`, never through a shell) under
    ncu with source counters, writing ``report`` (``.ncu-rep``).  By default the first launch of each kernel
    (each template instantiation: names are matched mangled); ``kernel`` (a regex on the mangled name),
    ``launch_skip`` and ``launch_count`` as ncu's own options.  Raises FidelityError with ncu's reason."""
    argv = [*PROFILE_ARGS, "-f", "-o", report.removesuffix(".ncu-rep")]
    if kernel:
        argv += ["-k", f"regex:{kernel}"]
    if launch_skip or launch_count or kernel:
        argv += ["--launch-skip", str(launch_skip)] + (["--launch-count", str(launch_count)] if launch_count else [])
    else:
        argv += ["--kernel-id", ":::1"]
    r = _ncu(ncu, argv + ["--", *split_command(command)], timeout)
    text = r.stdout + r.stderr
    if "ERR_NVGPUCTRPERM" in text:
        raise FidelityError("profiling is not permitted on this GPU (ERR_NVGPUCTRPERM): see "
                            "https://developer.nvidia.com/ERR_NVGPUCTRPERM")
    if not Path(report).is_file():
        errors = [ln for ln in text.splitlines() if "==ERROR==" in ln] or text.strip().splitlines()[-1:]
        raise FidelityError(f"ncu wrote no report (exit {r.returncode}): {' | '.join(errors)[:300]}")


def export(report: str, ncu: str = "ncu", timeout: int = 600) -> tuple[str, str]:
    """The source page and the launch page of a ``.ncu-rep`` (``ncu -i``; needs no GPU)."""
    src = _ncu(ncu, ["-i", report, "--page", "source", "--csv", "--print-source", "cuda,sass"], timeout)
    raw = _ncu(ncu, ["-i", report, "--page", "raw", "--csv", "--metrics", "launch__grid_size"], timeout)
    if src.returncode != 0:
        raise FidelityError(f"ncu could not read {report}: {(src.stderr or src.stdout).strip()[:300]}")
    return src.stdout, raw.stdout


def load_pages(report: str, ncu: str = "ncu", timeout: int = 600) -> tuple[str, str]:
    """A report's two pages: exported from a ``.ncu-rep``, or read from a saved source page (``NAME.source.csv``,
    with ``NAME.raw.csv`` beside it when there is one).  Raises FidelityError."""
    p = Path(report)
    if not p.is_file():
        raise FidelityError(f"no such report: {report}")
    if p.suffix == ".ncu-rep":
        return export(report, ncu, timeout)
    raw = p.with_name(p.name.replace(".source.csv", ".raw.csv"))
    return p.read_text(errors="replace"), raw.read_text(errors="replace") if raw != p and raw.is_file() else ""


def compare_pages(source_page: str, launch_page: str, paths: Sequence[str] = (), opts: Any = None,
                  root: Optional[str] = None, synccheck: Optional[str] = None) -> list[Row]:
    """Parse the pages and join them with cudalint's predictions for ``paths`` (folders stand for the ``.cu`` and
    ``.cuh`` files in them; default: the profiled source files, found where the page says or, for a page made in
    another checkout, under ``root`` by their names and path tails, and the ``.cu`` files beside them: the includer
    that launches a kernel file's kernels); with ``synccheck`` (the output of ``compute-sanitizer --tool
    synccheck`` on the same program) also :func:`join_barriers`.  Raises FidelityError for a page that is not a
    source page, a source path that does not exist, or sources none of whose files the page measured."""
    launches = parse_source_page(source_page)
    if not launches and not synccheck:
        raise FidelityError("not an Nsight Compute source page (no `File Path` and `Function Name` rows): export it "
                            "with `ncu -i REPORT --page source --csv --print-source cuda,sass`")
    attach_launches(launches, parse_launch_page(launch_page))
    profiled = {f for la in launches for f in la.files if f}
    if paths:
        paths = sources(paths)
    else:
        here = {f: f if Path(f).is_file() else _found_under(f, root) for f in profiled}
        files = {g for g in here.values() if g}
        near = {str(g) for f in files for g in Path(f).parent.glob("*.cu")}
        paths = sorted(f for f in files | near if Path(f).suffix in (".cu", ".cuh")
                       and (root is None or _real(f).startswith(_real(root))))
    barriers: list = []
    predicted = predictions(paths, opts, barriers)
    if profiled and not same_files(profiled, {k[1] for k in predicted}) and predicted:
        raise FidelityError("none of the profiled files (" + ", ".join(sorted(Path(f).name for f in profiled)[:4])
                            + ") is among the sources linted: pass them (or their folder) as paths")
    if profiled and not paths:
        raise FidelityError("the profiled files (" + ", ".join(sorted(Path(f).name for f in profiled)[:4])
                            + ") are not here: run from the checkout that built the program, or pass its sources")
    rows = join(predicted, measured(launches))
    if synccheck is not None:
        from .verify import parse_synccheck
        rows += join_barriers(barriers, parse_synccheck(synccheck), paths)
    return rows


def sources(paths: Sequence[str]) -> list[str]:
    """The files ``paths`` name, a folder standing for its ``.cu`` and ``.cuh`` files. Raises FidelityError for a
    path that does not exist."""
    out: list[str] = []
    for p in paths:
        q = Path(p)
        if q.is_dir():
            out += sorted(str(f) for f in q.rglob("*") if f.suffix in (".cu", ".cuh") and f.is_file()
                          and not set(f.relative_to(q).parts) & {".git", ".venv", "node_modules"})
        elif q.is_file():
            out.append(p)
        else:
            raise FidelityError(f"path does not exist: {p}")
    return out


def _found_under(path: str, root: Optional[str]) -> Optional[str]:
    """The file under ``root`` with ``path``'s name whose path shares the longest tail with it (a page profiled in
    another checkout), None when there is none."""
    if root is None:
        return None
    name = Path(path).name
    found = [str(f) for f in Path(root).rglob(name) if f.is_file() and not set(f.relative_to(root).parts) & {
        ".git", ".venv", "node_modules"}]
    return same_files([path], found).get(path)


def run_synccheck(command: str, sanitizer: str = "compute-sanitizer", timeout: int = 600) -> str:
    """compute-sanitizer's synccheck output for ``command`` (split with :func:`shlex.split`, never through a
    shell).  Raises FidelityError when the tool is missing or the run outlasts ``timeout``."""
    r = _tool(sanitizer, ["--tool", "synccheck", *split_command(command)], timeout, "compute-sanitizer",
              "--compute-sanitizer")
    return r.stdout + r.stderr


def run(args: Any, out: Any) -> int:
    """``cudalint verify --run CMD`` / ``--report FILE``: print the table (or JSON); 0, or 2 with one line on
    stderr when the program cannot be profiled or the report read."""
    import sys
    try:
        misplaced = [opt for opt, on in (("--kernel", args.kernel), ("--launch-skip", args.launch_skip),
                                         ("--launch-count", args.launch_count),
                                         ("--synccheck", getattr(args, "synccheck", False))) if on and args.run is None]
        misplaced += ["--synccheck-log"] if getattr(args, "synccheck_log", None) and args.report is None else []
        if misplaced:
            raise FidelityError(f"{misplaced[0]} goes with " + ("--report" if misplaced[0] == "--synccheck-log"
                                                                else "--run"))
        sync = None
        if getattr(args, "synccheck_log", None):
            try:
                sync = Path(args.synccheck_log).read_text(errors="replace")
            except OSError as e:
                raise FidelityError(f"cannot read {args.synccheck_log}: {e.strerror}") from e
        if args.run is not None:
            split_command(args.run)
            if getattr(args, "synccheck", False):
                sync = run_synccheck(args.run, args.compute_sanitizer or "compute-sanitizer", args.timeout)
            with tempfile.TemporaryDirectory() as tmp:
                report = os.path.join(tmp, "cudalint.ncu-rep")
                profile(args.run, report, args.ncu or "ncu", args.kernel, args.launch_skip, args.launch_count,
                        args.timeout)
                pages = export(report, args.ncu or "ncu", args.timeout)
        else:
            pages = load_pages(args.report, args.ncu or "ncu", args.timeout)
        rows = compare_pages(*pages, paths=args.fixtures, root=os.getcwd(), synccheck=sync)
    except FidelityError as e:
        sys.stderr.write(f"cudalint: error: {e}\n")
        return 2
    out.write(to_json(rows) if args.format == "json" else format_text(rows, os.getcwd()))
    return 0
