"""``cudalint verify``: build each fixture, profile it once under Nsight Compute, compare with the predictions.

:func:`measure_fixture` (standard library only, so that ``python3 -m cudalint.verify --measure-only`` runs on a
bare GPU machine) builds a fixture, profiles it with ncu and adds what its family needs (synccheck, SASS opcode
counts, host timings); the record goes to ``fixtures/measured/<family>__<stem>.json``. :func:`compare` (no GPU;
``tests/test_measured.py``) lints the fixture and sets each prediction beside the measurement of its kernel.
Predictions are worst-case claims, so a finding is compared with the kernel's worst launch (``per_launch``) and a
clean kernel must be ideal in every launch.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import datetime
import functools
import itertools
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Optional, Sequence

METRICS = (
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "smsp__sass_inst_executed_op_shared_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "smsp__sass_inst_executed_op_shared_st.sum",
    "idc__requests.sum", "smsp__inst_executed.sum", "gpu__time_duration.sum",
)
# Counted too where this ncu knows them: warps launched (the per-warp denominator), constant-load instructions.
OPTIONAL_METRICS = ("smsp__warps_launched.sum", "smsp__inst_executed_op_ldc.sum", "smsp__sass_inst_executed_op_ldc.sum",
                    "smsp__inst_executed_op_uldc.sum", "idc__requests_lookup_hit.sum")
_PCT = tuple(m for m in METRICS if m.endswith(".pct"))
_DURATION = "gpu__time_duration.sum"
# derived value (for op ld and st) -> numerator, denominator counters
_RATIOS = (("global_{}_sectors_per_request", "l1tex__t_sectors_pipe_lsu_mem_global_op_{}.sum",
            "l1tex__t_requests_pipe_lsu_mem_global_op_{}.sum"),
           ("shared_{}_wavefronts_per_instruction", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{}.sum",
            "smsp__sass_inst_executed_op_shared_{}.sum"))
TOLERANCE = 0.05        # relative, prediction vs measurement
SHARED_CLEAN = 1.2      # wavefronts per instruction a conflict-free 4-byte access may reach (GROUND_TRUTH: 1.16)
CONSTANT_CLEAN = 1.05   # constant-cache requests per executed LDC a warp-uniform kernel may reach (one is ideal)
ARITH_REFERENCE = "shiftMask"   # the free shift/mask kernel of an arith program, the CL501 baseline
ARITH_CLEAN_EXTRA = 2   # instructions per warp a clean kernel may execute beyond the baseline (a run-time shift)
HOST_FACTOR = 10        # a CL601 copy call blocks the host >= 10x the pinned call of the clean programs
BUILD_TIMEOUT = 300
RUN_TIMEOUT = 120       # per program run (ncu, synccheck, a timing run); --timeout changes it
HOST_RUNS = 3           # timing runs of each host (CL601) program
_TIME = {"nsecond": 1.0, "usecond": 1e3, "msecond": 1e6, "second": 1e9}
_PREFIX = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
_PREFIXED = ("sector", "request", "inst", "warp", "byte", "")   # units ncu scales with a K/M/G/T prefix
_SITE = re.compile(r"([\w.+-]+\.(?:cu|cuh|h|hpp|inl)):(\d+)")
_SITE_KEYS = ("file", "line", "kernel", "message")   # one barrier-error site
TIMING_RE = re.compile(r"CL601-timing copy_call_ms=([\d.eE+-]+) window_ms=([\d.eE+-]+) pinned=([01])")


class VerifyError(Exception):
    """A missing tool or GPU, or a fixture that fails to build or profile: one line, exit 2."""


class Timeout(VerifyError):
    """A program ran over its time limit; its process group was killed."""


def _run(argv: list[str], timeout: int, cwd: Optional[str] = None) -> subprocess.CompletedProcess:
    """Run ``argv`` in its own process group; on timeout kill the whole group (a profiler's or sanitizer's
    target process too: a hung kernel must not keep the GPU) and raise :class:`Timeout`."""
    try:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd,
                                start_new_session=True)
    except OSError as e:
        raise VerifyError(f"cannot run {argv[0]}: {e.strerror or e}") from None
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, 9)
        proc.communicate()
        raise Timeout(f"timed out after {timeout} s: {' '.join(argv)}") from None
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


def find_tools(nvcc: Optional[str], ncu: Optional[str], sanitizer: Optional[str]) -> dict[str, Optional[str]]:
    """Resolve the tools (``metrics``: with the :data:`OPTIONAL_METRICS` that ``ncu --query-metrics`` lists) and
    check that a GPU is visible; raise :class:`VerifyError` naming what is missing."""
    given = {"nvcc": nvcc, "ncu": ncu, "compute-sanitizer": sanitizer}
    tools: dict[str, Any] = {name: shutil.which(path or name) for name, path in given.items()}
    missing = [f"{name} ({given[name] or name} not found)" for name in ("nvcc", "ncu") if tools[name] is None]
    smi, r = shutil.which("nvidia-smi"), None
    with contextlib.suppress(VerifyError):
        r = _run([smi, "-L"], 30) if smi else None
    if r is None or r.returncode != 0 or "GPU" not in r.stdout:
        missing.append("a GPU (nvidia-smi -L lists none)" if smi else "a GPU (nvidia-smi not found)")
    if missing:
        raise VerifyError("cannot verify on hardware: missing " + ", ".join(missing))
    tools["ncu_base_units"] = "yes" if "--print-units" in _run([tools["ncu"], "--help"], 60).stdout else None
    cuobjdump = Path(tools["nvcc"]).with_name("cuobjdump")
    tools["cuobjdump"] = str(cuobjdump) if cuobjdump.is_file() else shutil.which("cuobjdump")
    listed: set[str] = set()
    with contextlib.suppress(VerifyError):
        listed = {ln.split()[0] for ln in _run([tools["ncu"], "--query-metrics"], 120).stdout.splitlines()
                  if ln.strip()}
    tools["metrics"] = list(METRICS) + [m for m in OPTIONAL_METRICS if m.rsplit(".", 1)[0] in listed]
    return tools


def environment(tools: dict[str, Optional[str]]) -> dict[str, str]:
    """GPU name, driver, CUDA (nvcc) and Nsight Compute versions, and today's date (UTC)."""
    r = _run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"], 30)
    gpu = r.stdout.strip().splitlines()[0].rpartition(",") if r.returncode == 0 and r.stdout.strip() else ("", "", "")
    cuda = re.search(r"release ([\d.]+), (V[\d.]+)", _run([tools["nvcc"], "--version"], 30).stdout)
    ncu = re.search(r"Version ([\d.]+ \(build \d+\))|Version (\S+)", _run([tools["ncu"], "--version"], 30).stdout)
    return {"gpu": gpu[0].strip(), "driver": gpu[2].strip(),
            "cuda": f"{cuda.group(1)} ({cuda.group(2)})" if cuda else "",
            "ncu": (ncu.group(1) or ncu.group(2)) if ncu else "",
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")}


def _number(text: str) -> Optional[float]:
    text = text.strip().replace(",", "")
    try:
        return None if text.lower() in ("n/a", "nan") else float(text)
    except ValueError:
        return None


def _scale(unit: str) -> float:
    """Factor to base units (ns for time) for ncu's auto-scaled units: "usecond" -> 1000, "Msector" -> 1e6."""
    u = unit.strip()
    return _TIME.get(u) or (_PREFIX[u[0]] if len(u) > 1 and u[0] in _PREFIX and u[1:] in _PREFIXED else 1.0)


def kernel_key(name: str) -> str:
    """``void scale<float>(float *, ...)`` -> ``scale<float>``; ``copyKernel(const float *, ...)`` -> ``copyKernel``."""
    depths = itertools.accumulate((ch == "<") - (ch == ">") for ch in name)
    cut = next((i for i, (ch, depth) in enumerate(zip(name, depths)) if ch == "(" and depth == 0), len(name))
    head = re.sub(r"^(?:void|__global__)\s+", "", name[:cut].strip())
    return head.split("::")[-1] if "<" not in head else head


def kernel_base(key: str) -> str:
    """The plain function name of a kernel key (template arguments dropped): what the linter calls it."""
    return key.split("<", 1)[0].split("::")[-1]


def parse_ncu_csv(text: str) -> list[dict[str, Any]]:
    """The launches of ncu's ``--csv --page raw`` output: header row, units row, one row per kernel launch; lines
    that are not CSV rows (the program's own output, ``==PROF==`` messages) are skipped."""
    lines = [ln for ln in text.splitlines() if ln.startswith('"')]
    start = next((i for i, ln in enumerate(lines) if ln.startswith('"ID"')), None)
    if start is None:
        return []
    header, *body = csv.reader(lines[start:])
    # the units row: "", "", ..., "sector", "nsecond"
    units = dict(zip(header, body.pop(0))) if body and (not body[0] or _number(body[0][0]) is None) else {}
    launches = []
    for rec in (rec for rec in (dict(zip(header, row)) for row in body) if "Kernel Name" in rec):
        values = {m: _number(rec.get(m, "")) for m in METRICS + OPTIONAL_METRICS}
        launches.append({"name": rec["Kernel Name"], "key": kernel_key(rec["Kernel Name"]),
                         "grid": rec.get("Grid Size", ""), "block": rec.get("Block Size", ""),
                         "counters": {m: v * _scale(units.get(m, "")) for m, v in values.items() if v is not None}})
    return launches


def derive(c: dict[str, float], durations: Sequence[float], single: bool = False) -> dict[str, Any]:
    """Sectors per request, efficiency, wavefronts per instruction: only where the denominator is non-zero;
    ``duration_ns``: the launches' durations (ns), one number for a ``single`` launch."""
    d: dict[str, Any] = {name.format(op): c[num.format(op)] / c[den.format(op)] for name, num, den in _RATIOS
                         for op in ("ld", "st") if c.get(num.format(op)) is not None and c.get(den.format(op))}
    for op in ("ld", "st"):
        pct = c.get(f"smsp__sass_average_data_bytes_per_sector_mem_global_op_{op}.pct")
        if c.get(f"l1tex__t_requests_pipe_lsu_mem_global_op_{op}.sum") and pct is not None:
            d[f"global_{op}_efficiency"] = pct / 100.0
    d = {k: round(v, 6) for k, v in d.items() if v is not None}
    if durations:
        d["duration_ns"] = durations[0] if single else list(durations)
    return d


def aggregate(launches: list[dict[str, Any]]) -> dict[str, Any]:
    """Per kernel key: launches, summed counters (the .pct efficiencies weighted by requests), every launch."""
    out: dict[str, Any] = {}
    for key in dict.fromkeys(launch["key"] for launch in launches):
        mine = [launch for launch in launches if launch["key"] == key]
        names = dict.fromkeys(m for launch in mine for m in launch["counters"] if m not in _PCT)
        total = {m: sum((launch["counters"][m] for launch in mine if m in launch["counters"]), 0.0) for m in names}
        for m in _PCT:   # bytes used per sector: a sector-weighted mean over launches
            sec = f"l1tex__t_sectors_pipe_lsu_mem_global_op_{m.split('_op_')[1][:2]}.sum"
            w = [(launch["counters"][m], launch["counters"].get(sec, 0.0)) for launch in mine
                 if launch["counters"].get(m) is not None]
            if w:
                total[m] = sum(p * s for p, s in w) / ssum if (ssum := sum(s for _, s in w)) else w[0][0]
        times = [[la["counters"][_DURATION]] if _DURATION in la["counters"] else [] for la in mine]
        out[key] = {"name": mine[0]["name"], "launches": len(mine), "counters": total,
                    "derived": derive(total, [t for ts in times for t in ts]),
                    "per_launch": [{"grid": la["grid"], "block": la["block"], "counters": la["counters"],
                                    "derived": derive(la["counters"], ts, single=True)} for la, ts in zip(mine, times)]}
    return out


def case_name(fixture: Path) -> str:
    """``<family>__<stem>``; the family (``global``, ``shared``, ``sync``, ...) is the fixture's folder."""
    return f"{fixture.parent.name}__{fixture.stem}"


def build_fixture(fixture: Path, tools: dict[str, Any], arch: str, workdir: str) -> str:
    """``nvcc -O3 -lineinfo -arch=<arch>``; return the executable's path."""
    exe = os.path.join(workdir, case_name(fixture))
    r = _run([tools["nvcc"], "-O3", "-lineinfo", f"-arch={arch}", "-o", exe, str(fixture)], BUILD_TIMEOUT)
    if r.returncode != 0:
        raise VerifyError(f"{fixture}: nvcc failed: {(r.stderr or r.stdout).strip().splitlines()[-1:]}")
    return exe


def measure_fixture(fixture: Path, tools: dict[str, Any], arch: str, env: dict[str, str],
                    workdir: str, exe: str, timeout: int = RUN_TIMEOUT) -> dict[str, Any]:
    """Profile ``exe`` (``fixture`` built by :func:`build_fixture`) once; return the record for ``<case>.json``."""
    wanted = tools.get("metrics") or list(METRICS)
    argv = [tools["ncu"], "--clock-control", "none", "--csv", "--page", "raw"]
    argv += ["--print-units", "base"] if tools.get("ncu_base_units") else []
    for metrics in [wanted, list(METRICS)] if len(wanted) > len(METRICS) else [wanted]:
        r = _run(argv + ["--metrics", ",".join(metrics), exe], timeout, cwd=workdir)
        launches = parse_ncu_csv(r.stdout)
        if r.returncode == 0 and launches:   # else an optional counter may have been refused: try without
            break
    if r.returncode != 0 or not launches:
        tail = (r.stderr.strip() or r.stdout.strip()).splitlines()[-3:]
        raise VerifyError(f"{fixture}: ncu failed (exit {r.returncode}): {' | '.join(tail)}")
    record: dict[str, Any] = dict(
        env, fixture=fixture.as_posix(), build=f"nvcc -O3 -lineinfo -arch={arch}",
        profile=" ".join(["ncu"] + argv[1:] + ["--metrics", ",".join(metrics)]),
        program_output=[ln for ln in r.stdout.splitlines() if not ln.startswith('"') and not ln.startswith("==")][-5:],
        kernels=aggregate(launches))
    family = fixture.parent.name
    if family == "sync" or "expect: CL30" in fixture.read_text(encoding="utf-8", errors="replace"):
        record["synccheck"] = synccheck(exe, tools, workdir, timeout,
                                        kernels=list(dict.fromkeys(kernel_base(k) for k in record["kernels"])))
    if family in ("constant", "arith") and tools.get("cuobjdump"):   # static SASS opcode counts per kernel
        try:
            r = _run([tools["cuobjdump"], "-sass", exe], timeout)
            record["sass"] = (parse_sass(r.stdout) if r.returncode == 0
                              else {"error": (r.stderr or r.stdout).strip()[-300:]})
        except VerifyError as e:
            record["sass"] = {"error": str(e)}
    if family == "host":
        record["host_timing"] = host_timing(exe, workdir, timeout)
    return record


def parse_synccheck(text: str) -> list[dict[str, Any]]:
    """compute-sanitizer synccheck's reports: one dict per "Barrier error" (message, file, line, kernel,
    thread, block), taken from the report's first ``at ...`` line and its ``by thread ... in block ...`` line."""
    out, cur = [], None   # every report, the one being read
    for raw in text.splitlines():
        ln = raw.lstrip("= ").rstrip()
        if "Barrier error" in ln:
            cur = {"message": ln, "file": None, "line": None, "kernel": None}
            out.append(cur)
        elif cur is not None and cur["line"] is None and ln.startswith("at "):
            if m := _SITE.search(ln):
                cur["file"], cur["line"] = os.path.basename(m.group(1)), int(m.group(2))
            if k := re.search(r"(?:^at |:\d+:|\bin )([A-Za-z_][\w:<>, ]*?)\(", ln):
                cur["kernel"] = kernel_base(k.group(1).strip())
        elif cur is not None and ln.startswith("by thread"):
            if m := re.search(r"by thread \(([\d,]+)\) in block \(([\d,]+)\)", ln):
                cur["thread"], cur["block"] = m.group(1), m.group(2)
            cur = None
    return out


def _sites(sites: Sequence[dict[str, Any]]) -> dict[str, Any]:
    return {"sites": sorted(sites, key=lambda x: (str(x["file"]), x["line"] or 0)),
            "lines": sorted({site["line"] for site in sites if site["line"] is not None})}


def _synccheck_run(argv: list[str], workdir: str, timeout: int) -> dict[str, Any]:
    try:
        r = _run(argv, timeout, cwd=workdir)
    except Timeout as e:
        return {"error": str(e), "errors": 0, "sites": [], "lines": []}
    text = r.stdout + r.stderr
    reports = parse_synccheck(text)
    sites = Counter(tuple(rep[k] for k in _SITE_KEYS) for rep in reports)
    summary = re.search(r"ERROR SUMMARY: (\d+) error", text)
    return {"exit": r.returncode, "errors": len(reports), "summary_errors": int(summary.group(1)) if summary else None,
            **_sites([dict(zip(_SITE_KEYS, site), reports=n) for site, n in sites.items()]),
            "output_tail": [ln for ln in text.splitlines() if ln.strip() and "Host Frame" not in ln][-6:]}


def synccheck(exe: str, tools: dict[str, Any], workdir: str, timeout: int = RUN_TIMEOUT,
              kernels: Sequence[str] = ()) -> dict[str, Any]:
    """compute-sanitizer's synccheck reports for barrier fixtures (CL301/CL302), the ``file:line`` of each.
    A reported error ends the program at its next error check, so each kernel is checked in a run of its own
    (``--kernel-name kns=<kernel>``), the whole-program run kept beside them (``whole_program``)."""
    if not tools.get("compute-sanitizer"):
        return {"error": "compute-sanitizer not found"}
    base = [tools["compute-sanitizer"], "--tool", "synccheck"]
    whole = _synccheck_run(base + [exe], workdir, timeout)
    per_kernel = {k: _synccheck_run(base + ["--kernel-name", f"kns={k}", exe], workdir, timeout) for k in kernels}
    runs = list(per_kernel.values()) or [whole]
    sites: dict[tuple, dict[str, Any]] = {}
    for site in (site for run in runs for site in run.get("sites", [])):
        sites.setdefault(tuple(site[k] for k in _SITE_KEYS), site)
    return {"command": "compute-sanitizer --tool synccheck [--kernel-name kns=<kernel>]",
            "errors": sum(run.get("errors", 0) for run in runs), **_sites(list(sites.values())),
            "messages": sorted({site["message"] for site in sites.values()}),
            "per_kernel": per_kernel, "whole_program": whole,
            "timeouts": [k for k, run in {**per_kernel, "(whole program)": whole}.items() if "error" in run]}


def parse_sass(text: str) -> dict[str, dict[str, int]]:
    """``cuobjdump -sass`` output -> {kernel (``_Z12perLaneIndexPf`` -> ``perLaneIndex``): {opcode without its
    modifiers: static count}}, plus ``LDC.c3``/``ULDC.c3``: loads from bank 3 (user ``__constant__`` data; bank 0
    holds the launch parameters). NOPs and the final self-branch are left out."""
    out, cur = {}, None   # kernel -> counts, the kernel being read
    for ln in text.splitlines():
        if m := re.search(r"Function : (\S+)", ln):
            symbol = m.group(1)
            n = re.match(r"_Z(?:N\d+\w+?)?(\d+)", symbol)
            cur = out.setdefault(symbol[n.end():n.end() + int(n.group(1))] if n else symbol, Counter())
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)([.\w]*)\s*(.*?)\s*;", ln)
        if cur is None or not m:
            continue
        addr, op, operands = int(m.group(1), 16), m.group(3), m.group(5)
        if op == "NOP" or (op == "BRA" and re.fullmatch(r"0x[0-9a-f]+", operands) and int(operands, 16) == addr):
            continue
        cur.update([op] + ([op + ".c3"] if op in ("LDC", "ULDC") and "c[0x3]" in operands else []))
    return out


def host_timing(exe: str, workdir: str, timeout: int = RUN_TIMEOUT, runs: int = HOST_RUNS) -> dict[str, Any]:
    """Run a host (CL601) program ``runs`` times on its own; collect its ``CL601-timing`` lines."""
    lines, parsed, errors = [], [], []
    for _ in range(runs):
        try:
            r = _run([exe], timeout, cwd=workdir)
        except Timeout as e:
            errors.append(str(e))
            continue
        hits = [(ln.strip(), m) for ln in r.stdout.splitlines() if (m := TIMING_RE.search(ln))]
        lines += [ln for ln, _ in hits]
        parsed += [{"copy_call_ms": float(m.group(1)), "window_ms": float(m.group(2)), "pinned": int(m.group(3))}
                   for _, m in hits]
        if r.returncode != 0 or not hits:
            errors.append(f"exit {r.returncode}: {(r.stderr or r.stdout).strip()[-200:]}")
    out: dict[str, Any] = {"runs": runs, "lines": lines, "parsed": parsed}
    if parsed:
        for key in ("copy_call_ms", "window_ms"):
            out[f"median_{key}"] = statistics.median_high(p[key] for p in parsed)
        out["pinned"] = parsed[0]["pinned"]
    return out | ({"errors": errors} if errors else {})


def measure_all(fixtures: Sequence[Path], output_dir: Path, arch: str, tools: dict[str, Any],
                log=sys.stderr, timeout: int = RUN_TIMEOUT) -> tuple[dict[Path, dict[str, Any]], list[str]]:
    """Build every fixture (in parallel), then profile them one at a time (one GPU, undisturbed timings);
    return the records and the fixtures that could not be measured."""
    from concurrent.futures import ThreadPoolExecutor
    env = environment(tools)
    output_dir.mkdir(parents=True, exist_ok=True)
    out, failed = {}, []
    with tempfile.TemporaryDirectory(prefix="cudalint-verify-") as tmp:
        with ThreadPoolExecutor(max_workers=max(1, min(len(fixtures), os.cpu_count() or 1))) as pool:
            built = [pool.submit(build_fixture, fx, tools, arch, tmp) for fx in fixtures]
        for fx, exe in zip(fixtures, built):
            try:
                rec = measure_fixture(fx, tools, arch, env, tmp, exe=exe.result(), timeout=timeout)
            except VerifyError as e:   # one broken fixture does not cost the others' measurements
                log.write(f"cudalint: error: {e}\n")
                failed.append(str(fx))
                continue
            dest = output_dir / f"{case_name(fx)}.json"
            dest.write_text(json.dumps(rec, indent=2) + "\n", encoding="utf-8")
            log.write(f"measured {fx}: {len(rec['kernels'])} kernels -> {dest}\n")
            out[fx] = rec
    return out, failed


@dataclass
class Row:
    fixture: str
    kernel: str
    finding: str          # "CL101 at 25", or "clean" or "no finding" for an ideal-or-not check
    quantity: str         # which derived value was compared
    predicted: Optional[float]
    measured: Optional[float]
    agree: bool
    note: str = ""


def _close(pred: float, meas: float) -> bool:
    return abs(meas - pred) <= TOLERANCE * abs(pred)


def _launches(kernels: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [pl for k in kernels for pl in k.get("per_launch", [k])]


def _worst(kernels: list[dict[str, Any]], key: str) -> Optional[float]:
    return max((pl["derived"][key] for pl in _launches(kernels) if key in pl["derived"]), default=None)


def _directions(message: str) -> list[str]:
    """"ld", "st" or both: what a CL101/CL102/CL201 message says the access does ("... global store of `out`",
    "... on store of `s`", "... global load and store of `data`": one finding for a read-modify-write)."""
    head = message.split(" of `", 1)[0]
    ops = [op for word, op in (("load", "ld"), ("store", "st")) if re.search(rf"\b{word}\b", head)]
    return ops or ["ld"]


def _instances(message: str, kernels: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The measured instantiations a finding speaks for: those its message names ("... (in `upsample<2>`)", the
    runner's suffix where a template kernel's instantiations differ), else every one of its kernel's."""
    named = re.search(r" \(in (`[^()]*`(?:, `[^()]*`)*)\)$", message)
    labels = set(re.findall(r"`([^`]*)`", named.group(1))) if named else set()
    picked = [k for k in kernels if _label_of(k) in labels]
    return picked or kernels


def _label_of(kernel: dict[str, Any]) -> str:
    """``upsample<2>`` for ncu's ``void upsample<2>(const float *, float *)``: the label the runner writes."""
    name = kernel.get("name", "")
    name = name.split("(", 1)[0].strip()
    return name.split(" ", 1)[1] if name.startswith("void ") else name


def compare(fixture: str, measurement: dict[str, Any], diags: Sequence[Any],
            shared_width: Optional[dict[str, int]] = None, host_ref: Optional[dict[str, float]] = None) -> list[Row]:
    """Set each prediction (``diags``: ``code``, ``line``, ``kernel``, ``metrics``, ``message``) beside the
    measurement of its kernel. CL101/CL102 ``sectors_per_request`` vs the worst launch's global load (or store)
    sectors per request, CL201 ``wavefronts_per_request`` vs shared wavefronts per load (or store) instruction:
    within 5 %.
    Every quantity no finding explains must be ideal: global sectors per request = requested bytes / 32 within
    5 %, shared wavefronts per instruction <= 1.2 x (access width / 4 bytes; ``shared_width``, default 4). Then
    CL301/CL302, CL401, CL501 and CL601 (``host_ref``: :func:`host_reference`) where measured."""
    row = functools.partial(Row, fixture)
    rows: list[Row] = []
    by_base: dict[str, list[dict[str, Any]]] = {}
    for key, k in measurement["kernels"].items():
        by_base.setdefault(kernel_base(key), []).append(k)
    explained: dict[str, set[str]] = {}
    for d, op in ((d, op) for d in diags if d.code in ("CL101", "CL102", "CL201") for op in _directions(d.message)):
        ks = _instances(d.message, by_base.get(d.kernel or "", []))
        if d.code == "CL201":
            qty = f"shared_{op}_wavefronts_per_instruction"
            pred = d.metrics.get("wavefronts_per_request", d.metrics.get("bank_conflict_ways"))
        else:
            qty, pred = f"global_{op}_sectors_per_request", d.metrics.get("sectors_per_request")
        explained.setdefault(d.kernel or "", set()).add(qty)
        meas = _worst(ks, qty) if ks else None
        ok = meas is not None and isinstance(pred, (int, float))
        note = "" if ok else "nothing to compare" if ks else "kernel not measured"
        rows.append(row(d.kernel or "?", f"{d.code} at {d.line}", qty, float(pred) if ok else pred, meas,
                        ok and _close(float(pred), meas), note))
    for base, ks in by_base.items():
        done, label = explained.get(base, set()), _label(base, diags)
        for op in ("ld", "st"):   # (measured, ideal) per launch: ideal = bytes the lanes asked for / 32
            qty, eff = f"global_{op}_sectors_per_request", f"global_{op}_efficiency"
            pairs = [(d[qty], max(1.0, d[qty] * d[eff])) for d in (pl["derived"] for pl in _launches(ks))
                     if qty not in done and d.get(qty) is not None and d.get(eff) is not None]
            if pairs:
                meas, ideal = max(pairs, key=lambda p: p[0] / p[1])
                rows.append(row(base, label, qty, round(ideal, 3), meas, _close(ideal, meas), "ideal"))
        for qty in (f"shared_{op}_wavefronts_per_instruction" for op in ("ld", "st")):
            if qty not in done and (meas := _worst(ks, qty)) is not None:
                limit = SHARED_CLEAN * max(1.0, (shared_width or {}).get(base, 4) / 4)
                rows.append(row(base, label, qty, limit, meas, meas <= limit, "at most"))
    if "synccheck" in measurement:
        rows += _compare_synccheck(row, measurement["synccheck"], os.path.basename(fixture), diags, by_base)
    if any("smsp__inst_executed_op_ldc.sum" in k["counters"] for k in measurement["kernels"].values()):
        rows += _compare_constant(row, measurement.get("sass"), diags, by_base)
    if ARITH_REFERENCE in by_base:
        rows += _compare_arith(row, diags, by_base)
    if "host_timing" in measurement:
        rows += _compare_host(row, measurement["host_timing"], diags, host_ref)
    return rows


def warps_launched(kernels: list[dict[str, Any]]) -> Optional[float]:
    """Warps of all launches: ``smsp__warps_launched.sum`` where measured, else from the grid and block."""
    total = 0.0
    for pl in _launches(kernels):
        w = pl["counters"].get("smsp__warps_launched.sum")
        if w is None:
            dims = [[int(x) for x in re.findall(r"\d+", pl.get(f, ""))] for f in ("grid", "block")]
            if not all(len(d) == 3 for d in dims):
                return None
            w = math.prod(dims[0]) * -(-math.prod(dims[1]) // 32)
        total += w
    return total


def _counter(kernels: list[dict[str, Any]], metric: str) -> Optional[float]:
    return sum(vals) if (vals := [k["counters"][metric] for k in kernels if metric in k["counters"]]) else None


def _findings(diags: Sequence[Any], code: str) -> dict[str, list[Any]]:
    found: dict[str, list[Any]] = {}
    for d in (d for d in diags if d.code == code):
        found.setdefault(d.kernel or "?", []).append(d)
    return found


def _label(base: str, diags: Sequence[Any]) -> str:   # of a kernel without the finding compared
    return "no finding" if any(d.kernel == base for d in diags) else "clean"


def _at(found: Sequence[Any]) -> str:
    """Where findings of one code are: ``CL501 at 12,20``."""
    return f"{found[0].code} at " + ",".join(str(d.line) for d in found)


def _info(d: Any) -> bool:
    return getattr(d.severity, "value", d.severity) == "info"


def _compare_synccheck(row: Callable[..., Row], sc: dict[str, Any], name: str, diags: Sequence[Any],
                       by_base: dict[str, list[dict[str, Any]]]) -> Iterator[Row]:
    """CL301/CL302 finding lines vs the lines synccheck reports (``sc``) in the fixture file ``name``: a finding
    it does not report disagrees, and so does a reported line without a CL301/CL302 warning or error; an info
    (threads that leave the barriers for good, which NVIDIA GPUs tolerate) must not be reported; a kernel with
    no barrier finding must have no report."""
    if "per_kernel" not in sc:   # compute-sanitizer not found
        yield row("?", "synccheck", "synccheck_line", None, None, False, sc["error"])
        return
    per_kernel = sc["per_kernel"]
    reported = {k: run.get("sites", []) for k, run in per_kernel.items()}     # launched kernel -> reports
    sync = [d for d in diags if d.code in ("CL301", "CL302")]
    for d in sync:
        hit = any(site["line"] == d.line and site["file"] == name for site in reported.get(d.kernel or "", []))
        if _info(d):  # threads (whole warps, for CL301) that leave for good: tolerated, not reported
            yield row(d.kernel or "?", _at([d]) + " (info)", "synccheck_line", None, d.line if hit else None,
                      not hit, f"synccheck reports the split {d.code} calls tolerated" if hit else "")
            continue
        yield row(d.kernel or "?", _at([d]), "synccheck_line", d.line, d.line if hit else None, hit,
                  "" if hit else "not reported by synccheck")
    found = {(d.kernel, d.line) for d in sync if not _info(d)}
    split = {k for k, _ in found}  # a split's report may name either barrier it pairs (breakThenSync's line 82)
    for k, site in ((k, site) for k, sites in reported.items() for site in sites):
        if site["file"] != name or (k, site["line"]) not in found and k not in split:
            yield row(k, "no CL301 finding", "synccheck_line", None, site["line"], False,
                      f"synccheck reports a barrier error at {site['file']}:{site['line']} "
                      f"({site['reports']}x) without a CL301/CL302 warning or error")
    for base in (b for b in by_base if b not in {d.kernel for d in sync}):
        if (run := per_kernel.get(base)) is None:
            yield row(base, "clean", "synccheck_errors", 0, None, False, "kernel not checked")
        else:
            errors, bad = run.get("errors", 0), "error" in run
            yield row(base, "clean", "synccheck_errors", 0, errors, errors == 0 and not bad,
                      run["error"] if bad else "at most")


def _compare_constant(row: Callable[..., Row], sass: Any, diags: Sequence[Any],
                      by_base: dict[str, list[dict[str, Any]]]) -> Iterator[Row]:
    """CL401 ``distinct_addresses_per_warp`` = 1 + (``idc__requests`` - LDCs executed) / warps, for a kernel whose
    SASS has one bank-3 ``LDC`` (``sass``: static opcode counts) and runs each LDC once per warp; a kernel without
    a finding must measure at most :data:`CONSTANT_CLEAN` requests per executed LDC (fixtures/measured/NOTES.md)."""
    found = _findings(diags, "CL401")
    for base, ks in by_base.items():
        req, ldc = _counter(ks, "idc__requests.sum"), _counter(ks, "smsp__inst_executed_op_ldc.sum")
        warps = warps_launched(ks)
        measured = req is not None and ldc and warps
        if base not in found:
            if measured:
                yield row(base, _label(base, diags), "constant_requests_per_ldc", CONSTANT_CLEAN,
                          round(req / ldc, 4), req / ldc <= CONSTANT_CLEAN, "at most")
            continue
        counts = sass.get(base) if isinstance(sass, dict) and isinstance(sass.get(base), dict) else None
        why = ("nothing to compare" if not measured else "no SASS counts" if counts is None
               else f"not comparable: {counts.get('LDC.c3', 0)} LDC from bank 3, {len(found[base])} findings"
               if counts.get("LDC.c3", 0) != 1 or len(found[base]) != 1
               else f"not comparable: {ldc:.0f} LDC executed, not {counts.get('LDC', 0)} per warp"
               if abs(ldc - warps * counts.get("LDC", 0)) > 0.5 else "")
        meas = None if why else round(1 + (req - ldc) / warps, 4)
        for d in found[base]:
            pred = d.metrics.get("distinct_addresses_per_warp")
            ok = meas is not None and isinstance(pred, (int, float)) and _close(float(pred), meas)
            yield row(base, _at([d]), "distinct_addresses_per_warp", pred, meas, ok, why)


def _compare_arith(row: Callable[..., Row], diags: Sequence[Any],
                   by_base: dict[str, list[dict[str, Any]]]) -> Iterator[Row]:
    """CL501 vs instructions executed per warp against the loop-free :data:`ARITH_REFERENCE` kernel: more than
    :data:`ARITH_CLEAN_EXTRA` extra with a finding, at most that many without (fixtures/measured/NOTES.md says
    why); the rule's ``instructions_ratio`` is shown beside, not compared."""
    ref = by_base[ARITH_REFERENCE]
    ref_inst, ref_warps = _counter(ref, "smsp__inst_executed.sum"), warps_launched(ref)
    if not ref_inst or not ref_warps:
        return
    ref_pw = ref_inst / ref_warps
    limit = round(1 + ARITH_CLEAN_EXTRA / ref_pw, 4)
    found = _findings(diags, "CL501")
    for base, ks in by_base.items():
        inst, warps = _counter(ks, "smsp__inst_executed.sum"), warps_launched(ks)
        if base == ARITH_REFERENCE or not inst or not warps:
            continue
        extra, ratio, hit = inst / warps - ref_pw, round(inst / warps / ref_pw, 4), found.get(base)
        yield row(base, _at(hit) if hit else _label(base, diags), f"instructions_vs_{ARITH_REFERENCE}", limit,
                  ratio, extra > ARITH_CLEAN_EXTRA if hit else extra <= ARITH_CLEAN_EXTRA,
                  f"more than; rule estimate {hit[0].metrics.get('instructions_ratio')}" if hit else "at most")


def host_reference(programs: Sequence[tuple[dict[str, Any], Sequence[Any]]]) -> Optional[dict[str, float]]:
    """Over every measured host program (record, diagnostics): the median copy-call time (ms) of the programs
    without a CL601 finding (``pinned_ms``) and with one (``pageable_ms``); one outlier does not move the others."""
    clean, dirty = [], []
    for rec, diags in programs:
        if (t := (rec.get("host_timing") or {}).get("median_copy_call_ms")) is not None:
            (dirty if any(d.code == "CL601" for d in diags) else clean).append(t)
    return {"pinned_ms": statistics.median(clean), "pageable_ms": statistics.median(dirty),
            "clean_programs": len(clean), "pageable_programs": len(dirty)} if clean and dirty else None


def _compare_host(row: Callable[..., Row], ht: dict[str, Any], diags: Sequence[Any],
                  ref: Optional[dict[str, float]]) -> list[Row]:
    """CL601: a program with a finding blocks the host in its copy call >= 10x the median pinned call, a clean one
    <= 1/10 of the median pageable call; the program's own ``pinned=`` label must say the same as the linter."""
    found = [d for d in diags if d.code == "CL601"]
    row = functools.partial(row, "(host)", _at(found) if found else "clean")
    if (t := ht.get("median_copy_call_ms")) is None:
        return [row("copy_call_ms", None, None, False,
                    "no CL601-timing line: " + "; ".join(ht.get("errors", []))[:200])]
    label = 0 if found else 1
    rows = [row("pinned_label", label, ht.get("pinned"), ht.get("pinned") == label, "the program's own pinned= label")]
    if ref is None:
        return rows + [row("copy_call_ms", None, t, False, "no pinned/pageable reference")]
    want = round(HOST_FACTOR * ref["pinned_ms"] if found else ref["pageable_ms"] / HOST_FACTOR, 4)
    return rows + [row("copy_call_ms", want, t, t >= want if found else t <= want, "at least" if found else "at most")]


def lint(fixture: str) -> tuple[Any, Any]:
    """The linter's diagnostics and model for a fixture (default options)."""
    from .runner import RunOptions, analyse_file
    return analyse_file(fixture, RunOptions())


def compare_fixture(fixture: str, measurement: dict[str, Any], host_ref: Optional[dict[str, float]] = None,
                    analysed: Optional[tuple[Any, Any]] = None) -> list[Row]:
    """:func:`compare` with the widest shared-memory access (bytes) of each kernel from the linter's model."""
    from .model import AddressSpace
    diags, model = analysed or lint(fixture)
    widths: dict[str, int] = {}
    for k in (model.kernels if model is not None else []):
        for a in (a for a in k.accesses if a.array.space == AddressSpace.SHARED):
            widths[k.name] = max(widths.get(k.name, 4), a.size)
    return compare(fixture, measurement, diags, widths, host_ref)


def format_table(rows: Sequence[Row]) -> str:
    def num(v: Optional[float]) -> str:
        return "-" if v is None else f"{v:.4g}" if isinstance(v, float) else str(v)

    def bound(note: str) -> str:   # the relation a note states, shown before the predicted value
        return {"at most": "<= ", "at least": ">= "}.get(note, "> " if note.startswith("more than") else "")
    head = ("fixture", "kernel", "finding", "compared", "predicted", "measured", "agree")
    body = [(r.fixture, r.kernel, r.finding, r.quantity, bound(r.note) + num(r.predicted), num(r.measured),
             "yes" if r.agree else "NO" + ("" if bound(r.note) or r.note in ("", "ideal") else f" ({r.note})"))
            for r in rows]
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
    return "\n".join("  ".join(str(x).ljust(w) for x, w in zip(line, widths)).rstrip() for line in [head, *body]) + "\n"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("fixtures", nargs="*", metavar="FIXTURES",
                   help="fixture programs (default: fixtures/**/*.cu); with --run or --report, the sources to lint "
                        "(default: the profiled source files found here)")
    user = p.add_mutually_exclusive_group()
    user.add_argument("--run", metavar="CMD", help="profile your own program (built with -lineinfo) under Nsight "
                      "Compute and compare each access line with cudalint's prediction")
    user.add_argument("--report", metavar="FILE", help="the same from a report you already have (.ncu-rep with "
                      "source counters, or its source page saved as NAME.source.csv)")
    p.add_argument("--kernel", metavar="REGEX", help="with --run: profile only kernels whose mangled name matches")
    p.add_argument("--launch-skip", type=int, default=0, metavar="N", help="with --run: launches to skip first")
    p.add_argument("--launch-count", type=int, metavar="N", help="with --run: launches to profile")
    p.add_argument("--synccheck", action="store_true", help="with --run: also run compute-sanitizer's synccheck "
                   "and put its barrier errors beside the CL301/CL302 findings")
    p.add_argument("--synccheck-log", metavar="FILE", help="with --report: a saved `compute-sanitizer --tool "
                   "synccheck` output of the same program")
    p.add_argument("--format", choices=("text", "json"), default="text", help="with --run or --report")
    p.add_argument("--output-dir", default="fixtures/measured", help="where <family>__<stem>.json go")
    p.add_argument("--arch", default="sm_90")
    for tool in ("--nvcc", "--ncu", "--compute-sanitizer"):
        p.add_argument(tool, metavar="PATH")
    p.add_argument("--timeout", type=int, default=RUN_TIMEOUT, metavar="SECONDS",
                   help=f"limit for each program run (ncu, synccheck, a timing run; default {RUN_TIMEOUT})")


def run_verify(args: argparse.Namespace, out=sys.stdout) -> int:
    """``cudalint verify``: measure, write the JSON files, print the comparison; 1 on any disagreement, 2 when
    something could not be measured. With ``args.measure_only`` nothing is compared.  With ``--run`` or
    ``--report``: :func:`cudalint.fidelity.run` (the user's own program)."""
    if getattr(args, "run", None) is not None or getattr(args, "report", None) is not None:
        from .fidelity import run
        return run(args, out)
    try:
        paths = [Path(f) for f in args.fixtures] or sorted(p for p in Path("fixtures").rglob("*.cu")
                                                            if p.parent.name != "measured")
        if (missing := [p for p in paths if not p.is_file()]) or not paths:
            raise VerifyError(f"no such fixture: {missing[0]}" if missing
                              else "no fixtures found (looked for fixtures/**/*.cu)")
        tools = find_tools(args.nvcc, args.ncu, args.compute_sanitizer)
        records, failed = measure_all(paths, Path(args.output_dir), args.arch, tools, timeout=args.timeout)
    except VerifyError as e:
        sys.stderr.write(f"cudalint: error: {e}\n")
        return 2
    bad = 0
    if not getattr(args, "measure_only", False):
        analysed = {fx: lint(fx.as_posix()) for fx in records}   # host programs are compared with each other
        ref = host_reference([(rec, analysed[fx][0]) for fx, rec in records.items() if "host_timing" in rec])
        rows = [r for fx, rec in records.items() for r in compare_fixture(fx.as_posix(), rec, ref, analysed[fx])]
        out.write(format_table(rows))
        bad = sum(not r.agree for r in rows)
        out.write(f"{len(rows) - bad} of {len(rows)} comparisons agree.\n")
    if failed:
        sys.stderr.write(f"cudalint: error: {len(failed)} fixture(s) could not be measured: {', '.join(failed)}\n")
        return 2
    return 1 if bad else 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python3 -m cudalint.verify [--measure-only] ...``: ``cudalint verify`` (with no comparison)."""
    p = argparse.ArgumentParser(prog="python3 -m cudalint.verify")
    add_arguments(p)
    p.add_argument("--measure-only", action="store_true", help="write the JSON files, compare nothing")
    return run_verify(p.parse_args(argv))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
