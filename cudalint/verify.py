"""``cudalint verify``: build each fixture, profile it once under Nsight Compute, compare with the predictions.

Two halves, so that each runs where it can:

* :func:`measure_fixture` (standard library only) builds a fixture with ``nvcc -O3 -lineinfo -arch=<arch>``,
  runs it once under ``ncu --clock-control none --csv --page raw --metrics ...`` and returns the record that
  is written to ``fixtures/measured/<family>__<stem>.json``.  ``python3 -m cudalint.verify --measure-only``
  runs just this half, so a GPU machine needs neither sympy nor libclang.
* :func:`compare` (no GPU) lints the fixture and sets each prediction beside the measurement of its kernel;
  ``tests/test_measured.py`` runs it in CI over the recorded measurements.

A kernel launched several times keeps every launch (``per_launch``) and is summed per kernel (``counters``).
Predictions are worst-case claims (a run-time offset may or may not be aligned), so a finding is compared with
the kernel's worst launch, and a clean kernel must be ideal in every launch.

Per rule family, beyond the ncu counters:

* ``sync`` (CL301/CL302): ``compute-sanitizer --tool synccheck`` on the program; every "Barrier error" with the
  ``file:line`` and kernel it names (``synccheck``).
* ``constant`` (CL401) and ``arith`` (CL501): the static SASS opcode counts of each kernel (``cuobjdump -sass``),
  so that a comparison can check that two kernels differ only in the instructions under test (``sass``).
* ``host`` (CL601): the program run on its own (not under ncu, which serialises it) ``HOST_RUNS`` times; each
  run prints ``CL601-timing copy_call_ms=<float> window_ms=<float> pinned=<0|1>`` (``host_timing``).

Every program runs under a per-program time limit (``--timeout``): a divergent barrier can hang a GPU program,
and the whole process group (ncu's or the sanitizer's target too) is killed when it runs over.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence

METRICS = (
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "idc__requests.sum",
    "smsp__inst_executed.sum",
    "gpu__time_duration.sum",
)
# Counted too where this ncu knows them (``ncu --query-metrics``): warps launched (the denominator of per-warp
# values) and candidates for executed constant-load instructions.
OPTIONAL_METRICS = (
    "smsp__warps_launched.sum",
    "smsp__inst_executed_op_ldc.sum",
    "smsp__sass_inst_executed_op_ldc.sum",
    "smsp__inst_executed_op_uldc.sum",
    "idc__requests_lookup_hit.sum",
)
_PCT = ("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
        "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct")
TOLERANCE = 0.05        # relative, prediction vs measurement
SHARED_CLEAN = 1.2      # wavefronts per instruction a conflict-free 4-byte access may reach (GROUND_TRUTH: 1.16)
CONSTANT_CLEAN = 1.05   # constant-cache requests per executed LDC a warp-uniform kernel may reach (one is ideal)
ARITH_REFERENCE = "shiftMask"   # the free shift/mask kernel of an arith program, the CL501 baseline
ARITH_CLEAN_EXTRA = 2   # instructions per warp a clean kernel may execute beyond the baseline (see below)
HOST_FACTOR = 10        # a CL601 copy call blocks the host >= 10x the pinned call of the clean programs
BUILD_TIMEOUT = 300
RUN_TIMEOUT = 120       # per program run (ncu, synccheck, a timing run); --timeout changes it
HOST_RUNS = 3           # timing runs of each host (CL601) program
TIMING_RE = re.compile(r"CL601-timing copy_call_ms=([\d.eE+-]+) window_ms=([\d.eE+-]+) pinned=([01])")


class VerifyError(Exception):
    """A missing tool or GPU, or a fixture that fails to build or profile: one line, exit 2."""


class PartialFailure(VerifyError):
    """Some fixtures could not be measured; ``records`` holds the others."""

    def __init__(self, records: dict[Path, dict[str, Any]], failed: list[str]):
        super().__init__(f"{len(failed)} fixture(s) could not be measured: {', '.join(failed)}")
        self.records = records


# ---------------------------------------------------------------- measuring (standard library only)

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
        try:
            os.killpg(proc.pid, 9)
        except OSError:
            pass
        proc.communicate()
        raise Timeout(f"timed out after {timeout} s: {' '.join(argv)}") from None
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


def find_tools(nvcc: Optional[str], ncu: Optional[str], sanitizer: Optional[str]) -> dict[str, Optional[str]]:
    """Resolve the tools and check that a GPU is visible; raise :class:`VerifyError` naming what is missing."""
    tools: dict[str, Any] = {"nvcc": shutil.which(nvcc or "nvcc"), "ncu": shutil.which(ncu or "ncu"),
                             "compute-sanitizer": shutil.which(sanitizer or "compute-sanitizer")}
    missing = [f"{name} ({given or name} not found)" for name, given in
               (("nvcc", nvcc), ("ncu", ncu)) if tools[name] is None]
    smi = shutil.which("nvidia-smi")
    gpu = False
    if smi:
        try:
            r = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30)
            gpu = r.returncode == 0 and "GPU" in r.stdout
        except (OSError, subprocess.TimeoutExpired):
            gpu = False
    if not gpu:
        missing.append("a GPU (nvidia-smi -L lists none)" if smi else "a GPU (nvidia-smi not found)")
    if missing:
        raise VerifyError("cannot verify on hardware: missing " + ", ".join(missing))
    helptext = _run([tools["ncu"], "--help"], 60).stdout
    tools["ncu_base_units"] = "yes" if "--print-units" in helptext else None
    cuobjdump = Path(tools["nvcc"]).with_name("cuobjdump")
    tools["cuobjdump"] = str(cuobjdump) if cuobjdump.is_file() else shutil.which("cuobjdump")
    tools["metrics"] = list(METRICS) + _known_optional_metrics(tools["ncu"])
    return tools


def _known_optional_metrics(ncu: str) -> list[str]:
    """The :data:`OPTIONAL_METRICS` this ncu lists for the GPU (``ncu --query-metrics``); none if it cannot say."""
    try:
        r = _run([ncu, "--query-metrics"], 120)
    except VerifyError:
        return []
    names = {ln.split()[0] for ln in r.stdout.splitlines() if ln.strip()}
    return [m for m in OPTIONAL_METRICS if m.rsplit(".", 1)[0] in names]


def environment(tools: dict[str, Optional[str]]) -> dict[str, str]:
    """GPU name, driver, CUDA (nvcc) and Nsight Compute versions, and today's date (UTC)."""
    env = {"gpu": "", "driver": "", "cuda": "", "ncu": ""}
    r = _run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"], 30)
    if r.returncode == 0 and r.stdout.strip():
        name, _, driver = r.stdout.strip().splitlines()[0].rpartition(",")
        env["gpu"], env["driver"] = name.strip(), driver.strip()
    m = re.search(r"release ([\d.]+), (V[\d.]+)", _run([tools["nvcc"], "--version"], 30).stdout)
    env["cuda"] = f"{m.group(1)} ({m.group(2)})" if m else ""
    m = re.search(r"Version ([\d.]+ \(build \d+\))|Version (\S+)", _run([tools["ncu"], "--version"], 30).stdout)
    env["ncu"] = (m.group(1) or m.group(2)) if m else ""
    env["date"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    return env


def _number(text: str) -> Optional[float]:
    text = text.strip().replace(",", "")
    if not text or text.lower() in ("n/a", "nan"):
        return None
    try:
        return float(text)
    except ValueError:
        return None


_TIME = {"nsecond": 1.0, "usecond": 1e3, "msecond": 1e6, "second": 1e9}
_PREFIX = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


def _scale(unit: str) -> float:
    """Factor to base units (ns for time) for ncu's auto-scaled units: "usecond" -> 1000, "Msector" -> 1e6."""
    unit = unit.strip()
    if unit in _TIME:
        return _TIME[unit]
    if len(unit) > 1 and unit[0] in _PREFIX and unit[1:] in ("sector", "request", "inst", "warp", "byte", ""):
        return _PREFIX[unit[0]]
    return 1.0


def kernel_key(name: str) -> str:
    """``void scale<float>(float *, ...)`` -> ``scale<float>``; ``copyKernel(const float *, ...)`` -> ``copyKernel``."""
    depth, cut = 0, len(name)
    for i, ch in enumerate(name):
        depth += ch == "<"
        depth -= ch == ">"
        if ch == "(" and depth == 0:
            cut = i
            break
    head = name[:cut].strip()
    head = re.sub(r"^(?:void|__global__)\s+", "", head)
    return head.split("::")[-1] if "<" not in head else head


def kernel_base(key: str) -> str:
    """The plain function name of a kernel key (template arguments dropped): what the linter calls it."""
    return key.split("<", 1)[0].split("::")[-1]


def parse_ncu_csv(text: str) -> list[dict[str, Any]]:
    """The launches of ncu's ``--csv --page raw`` output: header row, units row, one row per kernel launch.

    Lines that are not CSV rows (the program's own output, ``==PROF==`` messages) are skipped."""
    lines = [ln for ln in text.splitlines() if ln.startswith('"')]
    start = next((i for i, ln in enumerate(lines) if ln.startswith('"ID"')), None)
    if start is None:
        return []
    rows = list(csv.reader(io.StringIO("\n".join(lines[start:]))))
    header, body = rows[0], rows[1:]
    units: dict[str, str] = {}
    if body and (not body[0] or _number(body[0][0]) is None):   # units row: "", "", ..., "sector", "nsecond"
        units = dict(zip(header, body[0]))
        body = body[1:]
    launches = []
    for row in body:
        rec = dict(zip(header, row))
        if "Kernel Name" not in rec:
            continue
        counters = {}
        for m in METRICS + OPTIONAL_METRICS:
            v = _number(rec.get(m, ""))
            if v is not None:
                counters[m] = v * _scale(units.get(m, ""))
        launches.append({"name": rec["Kernel Name"], "key": kernel_key(rec["Kernel Name"]),
                         "grid": rec.get("Grid Size", ""), "block": rec.get("Block Size", ""),
                         "counters": counters})
    return launches


def _ratio(a: Optional[float], b: Optional[float]) -> Optional[float]:
    return a / b if a is not None and b else None


def derive(c: dict[str, float], durations: Sequence[float]) -> dict[str, Any]:
    """Sectors per request, efficiency, wavefronts per instruction: only where the denominator is non-zero."""
    d: dict[str, Any] = {
        "global_ld_sectors_per_request": _ratio(c.get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
                                                c.get("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")),
        "global_st_sectors_per_request": _ratio(c.get("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
                                                c.get("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum")),
        "shared_ld_wavefronts_per_instruction": _ratio(c.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
                                                       c.get("smsp__sass_inst_executed_op_shared_ld.sum")),
        "shared_st_wavefronts_per_instruction": _ratio(c.get("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
                                                       c.get("smsp__sass_inst_executed_op_shared_st.sum")),
    }
    for op in ("ld", "st"):
        pct = c.get(f"smsp__sass_average_data_bytes_per_sector_mem_global_op_{op}.pct")
        if c.get(f"l1tex__t_requests_pipe_lsu_mem_global_op_{op}.sum") and pct is not None:
            d[f"global_{op}_efficiency"] = pct / 100.0
    if durations:
        d["duration_ns"] = list(durations)
    return {k: (round(v, 6) if isinstance(v, float) else v) for k, v in d.items() if v is not None}


def _durations(launches: list[dict[str, Any]]) -> list[float]:
    return [la["counters"]["gpu__time_duration.sum"] for la in launches if "gpu__time_duration.sum" in la["counters"]]


def _single(d: dict[str, Any]) -> dict[str, Any]:
    if "duration_ns" in d:
        d["duration_ns"] = d["duration_ns"][0]
    return d


def aggregate(launches: list[dict[str, Any]]) -> dict[str, Any]:
    """Per kernel key: launches, summed counters (the .pct efficiencies weighted by requests), every launch."""
    out: dict[str, Any] = {}
    for key in dict.fromkeys(launch["key"] for launch in launches):
        mine = [launch for launch in launches if launch["key"] == key]
        total: dict[str, float] = {}
        for launch in mine:
            for m, v in launch["counters"].items():
                if m not in _PCT:
                    total[m] = total.get(m, 0.0) + v
        for m in _PCT:   # bytes used per sector: a sector-weighted mean over launches
            op = m.split("_op_")[1][:2]
            sec = f"l1tex__t_sectors_pipe_lsu_mem_global_op_{op}.sum"
            w = [(launch["counters"].get(m), launch["counters"].get(sec, 0.0)) for launch in mine]
            w = [(p, s) for p, s in w if p is not None]
            if w:
                ssum = sum(s for _, s in w)
                total[m] = sum(p * s for p, s in w) / ssum if ssum else w[0][0]
        durations = _durations(mine)
        out[key] = {
            "name": mine[0]["name"],
            "launches": len(mine),
            "counters": total,
            "derived": derive(total, durations),
            "per_launch": [{"grid": launch["grid"], "block": launch["block"], "counters": launch["counters"],
                            "derived": _single(derive(launch["counters"], _durations([launch])))}
                           for launch in mine],
        }
    return out


def case_name(fixture: Path) -> str:
    return f"{fixture.parent.name}__{fixture.stem}"


def family(fixture: Path) -> str:
    """The rule family of a fixture: the name of its folder (``global``, ``shared``, ``sync``, ``constant``,
    ``arith``, ``host``)."""
    return fixture.parent.name


def build_fixture(fixture: Path, tools: dict[str, Any], arch: str, workdir: str) -> str:
    """``nvcc -O3 -lineinfo -arch=<arch>``; return the executable's path."""
    exe = os.path.join(workdir, case_name(fixture))
    r = _run([tools["nvcc"], "-O3", "-lineinfo", f"-arch={arch}", "-o", exe, str(fixture)], BUILD_TIMEOUT)
    if r.returncode != 0:
        raise VerifyError(f"{fixture}: nvcc failed: {(r.stderr or r.stdout).strip().splitlines()[-1:]}")
    return exe


def measure_fixture(fixture: Path, tools: dict[str, Any], arch: str, env: dict[str, str],
                    workdir: str, exe: Optional[str] = None, timeout: int = RUN_TIMEOUT) -> dict[str, Any]:
    """Build ``fixture`` (unless ``exe`` is given) and profile it once; return the record for ``<case>.json``."""
    exe = exe or build_fixture(fixture, tools, arch, workdir)
    metrics = tools.get("metrics") or list(METRICS)
    argv = [tools["ncu"], "--clock-control", "none", "--csv", "--page", "raw"]
    if tools.get("ncu_base_units"):
        argv += ["--print-units", "base"]
    r = _run(argv + ["--metrics", ",".join(metrics), exe], timeout, cwd=workdir)
    launches = parse_ncu_csv(r.stdout)
    if (r.returncode != 0 or not launches) and len(metrics) > len(METRICS):   # an optional counter refused
        metrics = list(METRICS)
        r = _run(argv + ["--metrics", ",".join(metrics), exe], timeout, cwd=workdir)
        launches = parse_ncu_csv(r.stdout)
    if r.returncode != 0 or not launches:
        tail = (r.stderr.strip() or r.stdout.strip()).splitlines()[-3:]
        raise VerifyError(f"{fixture}: ncu failed (exit {r.returncode}): {' | '.join(tail)}")
    record: dict[str, Any] = dict(env)
    record["fixture"] = fixture.as_posix()
    record["build"] = f"nvcc -O3 -lineinfo -arch={arch}"
    record["profile"] = " ".join(["ncu"] + argv[1:] + ["--metrics", ",".join(metrics)])
    record["program_output"] = [ln for ln in r.stdout.splitlines()
                                if not ln.startswith('"') and not ln.startswith("==")][-5:]
    record["kernels"] = aggregate(launches)
    fam = family(fixture)
    if fam == "sync" or "expect: CL30" in fixture.read_text(encoding="utf-8", errors="replace"):
        record["synccheck"] = synccheck(exe, tools, workdir, timeout,
                                        kernels=list(dict.fromkeys(kernel_base(k) for k in record["kernels"])))
    if fam in ("constant", "arith") and tools.get("cuobjdump"):
        record["sass"] = sass_opcodes(exe, tools, timeout)
    if fam == "host":
        record["host_timing"] = host_timing(exe, workdir, timeout)
    return record


_SITE = re.compile(r"([\w.+-]+\.(?:cu|cuh|h|hpp|inl)):(\d+)")


def parse_synccheck(text: str) -> list[dict[str, Any]]:
    """compute-sanitizer synccheck's reports: one dict per "Barrier error" (message, file, line, kernel,
    thread, block), taken from the report's first ``at ...`` line and its ``by thread ... in block ...`` line."""
    out: list[dict[str, Any]] = []
    cur: Optional[dict[str, Any]] = None
    for raw in text.splitlines():
        ln = raw.lstrip("= ").rstrip()
        if "Barrier error" in ln:
            cur = {"message": ln, "file": None, "line": None, "kernel": None}
            out.append(cur)
        elif cur is not None and cur["line"] is None and ln.startswith("at "):
            m = _SITE.search(ln)
            if m:
                cur["file"], cur["line"] = os.path.basename(m.group(1)), int(m.group(2))
            k = re.search(r"(?:^at |:\d+:|\bin )([A-Za-z_][\w:<>, ]*?)\(", ln)
            if k:
                cur["kernel"] = kernel_base(k.group(1).strip())
        elif cur is not None and ln.startswith("by thread"):
            m = re.search(r"by thread \(([\d,]+)\) in block \(([\d,]+)\)", ln)
            if m:
                cur["thread"], cur["block"] = m.group(1), m.group(2)
            cur = None
    return out


def _synccheck_run(argv: list[str], workdir: str, timeout: int) -> dict[str, Any]:
    try:
        r = _run(argv, timeout, cwd=workdir)
    except Timeout as e:
        return {"error": str(e), "errors": 0, "sites": [], "lines": []}
    text = r.stdout + r.stderr
    reports = parse_synccheck(text)
    sites: dict[tuple, dict[str, Any]] = {}
    for rep in reports:
        key = (rep["file"], rep["line"], rep["kernel"], rep["message"])
        site = sites.setdefault(key, {"file": rep["file"], "line": rep["line"], "kernel": rep["kernel"],
                                      "message": rep["message"], "reports": 0})
        site["reports"] += 1
    summary = re.search(r"ERROR SUMMARY: (\d+) error", text)
    return {"exit": r.returncode, "errors": len(reports),
            "summary_errors": int(summary.group(1)) if summary else None,
            "sites": sorted(sites.values(), key=lambda x: (str(x["file"]), x["line"] or 0)),
            "lines": sorted({rep["line"] for rep in reports if rep["line"] is not None}),
            "output_tail": [ln for ln in text.splitlines() if ln.strip() and "Host Frame" not in ln][-6:]}


def synccheck(exe: str, tools: dict[str, Any], workdir: str, timeout: int = RUN_TIMEOUT,
              kernels: Sequence[str] = ()) -> dict[str, Any]:
    """For barrier fixtures (CL301/CL302): compute-sanitizer's synccheck reports, the ``file:line`` of each.

    A reported barrier error ends the kernel with a launch failure, so the program stops at its next error check
    and the kernels after the first faulty one are never checked in a whole-program run. So each kernel is
    checked in a run of its own (``--kernel-name kns=<kernel>``: the others run uninstrumented), and the
    whole-program run is kept beside them (``whole_program``)."""
    if not tools.get("compute-sanitizer"):
        return {"error": "compute-sanitizer not found"}
    base = [tools["compute-sanitizer"], "--tool", "synccheck"]
    whole = _synccheck_run(base + [exe], workdir, timeout)
    per_kernel = {}
    for k in kernels:
        per_kernel[k] = _synccheck_run(base + ["--kernel-name", f"kns={k}", exe], workdir, timeout)
    runs = list(per_kernel.values()) or [whole]
    sites: dict[tuple, dict[str, Any]] = {}
    for run in runs:
        for site in run.get("sites", []):
            sites.setdefault((site["file"], site["line"], site["kernel"], site["message"]), site)
    return {"command": "compute-sanitizer --tool synccheck [--kernel-name kns=<kernel>]",
            "errors": sum(run.get("errors", 0) for run in runs),
            "sites": sorted(sites.values(), key=lambda x: (str(x["file"]), x["line"] or 0)),
            "lines": sorted({site["line"] for site in sites.values() if site["line"] is not None}),
            "messages": sorted({site["message"] for site in sites.values()}),
            "per_kernel": per_kernel, "whole_program": whole,
            "timeouts": [k for k, run in per_kernel.items() if "error" in run] + (["(whole program)"]
                                                                                  if "error" in whole else [])}


def demangle_base(symbol: str) -> str:
    """``_Z12perLaneIndexPf`` -> ``perLaneIndex`` (the plain name; enough to match a kernel)."""
    m = re.match(r"_Z(?:N\d+\w+?)?(\d+)", symbol)
    if not m:
        return symbol
    n = int(m.group(1))
    return symbol[m.end():m.end() + n]


def parse_sass(text: str) -> dict[str, dict[str, int]]:
    """``cuobjdump -sass`` output -> {kernel: {opcode (with its modifiers dropped): static count}}, plus the
    ``LDC.c3``/``ULDC.c3`` counts of loads from bank 3 (user ``__constant__`` data; bank 0 holds the launch
    parameters). NOPs and the final self-branch are left out."""
    out: dict[str, dict[str, int]] = {}
    cur: Optional[dict[str, int]] = None
    for ln in text.splitlines():
        m = re.search(r"Function : (\S+)", ln)
        if m:
            cur = out.setdefault(demangle_base(m.group(1)), {})
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)([.\w]*)\s*(.*?)\s*;", ln)
        if cur is None or not m:
            continue
        addr, op, operands = int(m.group(1), 16), m.group(3), m.group(5)
        if op == "NOP" or (op == "BRA" and re.fullmatch(r"0x[0-9a-f]+", operands)
                           and int(operands, 16) == addr):
            continue
        cur[op] = cur.get(op, 0) + 1
        if op in ("LDC", "ULDC") and "c[0x3]" in operands:
            cur[op + ".c3"] = cur.get(op + ".c3", 0) + 1
    return out


def sass_opcodes(exe: str, tools: dict[str, Any], timeout: int = RUN_TIMEOUT) -> dict[str, Any]:
    """Static SASS opcode counts per kernel of the built program (``cuobjdump -sass``)."""
    try:
        r = _run([tools["cuobjdump"], "-sass", exe], timeout)
    except VerifyError as e:
        return {"error": str(e)}
    if r.returncode != 0:
        return {"error": (r.stderr or r.stdout).strip()[-300:]}
    return parse_sass(r.stdout)


def host_timing(exe: str, workdir: str, timeout: int = RUN_TIMEOUT, runs: int = HOST_RUNS) -> dict[str, Any]:
    """Run a host (CL601) program ``runs`` times on its own; collect its ``CL601-timing`` lines."""
    lines: list[str] = []
    parsed: list[dict[str, Any]] = []
    errors: list[str] = []
    for _ in range(runs):
        try:
            r = _run([exe], timeout, cwd=workdir)
        except Timeout as e:
            errors.append(str(e))
            continue
        found = False
        for ln in r.stdout.splitlines():
            m = TIMING_RE.search(ln)
            if m:
                found = True
                lines.append(ln.strip())
                parsed.append({"copy_call_ms": float(m.group(1)), "window_ms": float(m.group(2)),
                               "pinned": int(m.group(3))})
        if r.returncode != 0 or not found:
            errors.append(f"exit {r.returncode}: {(r.stderr or r.stdout).strip()[-200:]}")
    out: dict[str, Any] = {"runs": runs, "lines": lines, "parsed": parsed}
    if parsed:
        for key in ("copy_call_ms", "window_ms"):
            vals = sorted(p[key] for p in parsed)
            out[f"median_{key}"] = vals[len(vals) // 2]
        out["pinned"] = parsed[0]["pinned"]
    if errors:
        out["errors"] = errors
    return out


def default_fixtures() -> list[Path]:
    return sorted(p for p in Path("fixtures").rglob("*.cu") if p.parent.name != "measured")


def measure_all(fixtures: Sequence[Path], output_dir: Path, arch: str, tools: dict[str, Any],
                log=sys.stderr, timeout: int = RUN_TIMEOUT) -> dict[Path, dict[str, Any]]:
    """Build every fixture (in parallel), then profile them one at a time (one GPU, undisturbed timings)."""
    from concurrent.futures import ThreadPoolExecutor
    env = environment(tools)
    output_dir.mkdir(parents=True, exist_ok=True)
    out = {}
    failed = []
    with tempfile.TemporaryDirectory(prefix="cudalint-verify-") as tmp:
        def build(fx: Path) -> Any:
            try:
                return build_fixture(fx, tools, arch, tmp)
            except VerifyError as e:
                return e
        with ThreadPoolExecutor(max_workers=max(1, min(len(fixtures), os.cpu_count() or 1))) as pool:
            built = list(pool.map(build, fixtures))
        for fx, exe in zip(fixtures, built):
            try:
                if isinstance(exe, VerifyError):
                    raise exe
                rec = measure_fixture(fx, tools, arch, env, tmp, exe=exe, timeout=timeout)
            except VerifyError as e:   # one broken fixture does not cost the others' measurements
                log.write(f"cudalint: error: {e}\n")
                failed.append(str(fx))
                continue
            dest = output_dir / f"{case_name(fx)}.json"
            dest.write_text(json.dumps(rec, indent=2) + "\n", encoding="utf-8")
            log.write(f"measured {fx}: {len(rec['kernels'])} kernels -> {dest}\n")
            out[fx] = rec
    if failed:
        raise PartialFailure(out, failed)
    return out


# ---------------------------------------------------------------- comparing (no GPU)

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


def _worst(kernels: list[dict[str, Any]], key: str) -> Optional[float]:
    vals = [pl["derived"][key] for k in kernels for pl in k.get("per_launch", [k]) if key in pl["derived"]]
    return max(vals) if vals else None


def _ideal_global(kernels: list[dict[str, Any]], op: str) -> list[tuple[float, float]]:
    """(measured, ideal) sectors per request for every launch: ideal = bytes the lanes asked for / 32."""
    out = []
    for k in kernels:
        for pl in k.get("per_launch", [k]):
            d = pl["derived"]
            spr, eff = d.get(f"global_{op}_sectors_per_request"), d.get(f"global_{op}_efficiency")
            if spr is not None and eff is not None:
                out.append((spr, max(1.0, spr * eff)))
    return out


def compare(fixture: str, measurement: dict[str, Any], diags: Sequence[Any],
            shared_width: Optional[dict[str, int]] = None, host_ref: Optional[dict[str, float]] = None) -> list[Row]:
    """Set each prediction beside the measurement of its kernel.

    ``diags`` are the fixture's diagnostics (``code``, ``line``, ``kernel``, ``metrics``, ``message``).
    CL101/CL102: ``sectors_per_request`` vs the worst launch's global load (or store) sectors per request;
    CL201: ``wavefronts_per_request`` (the conflict degree averaged over warps and loop trips; equal to
    ``bank_conflict_ways`` for one fixed pattern) vs shared wavefronts per load instruction; both within 5 %.
    Every quantity no finding explains must be ideal: global sectors per request = the requested bytes / 32
    (4 for full-warp 4-byte accesses, 8 for 8-byte, 16 for 16-byte) within 5 %, shared wavefronts per
    instruction <= 1.2 x (access width / 4 bytes; ``shared_width`` gives the width per kernel, default 4).
    Then, where measured: CL301/CL302 vs synccheck, CL401 vs constant-cache requests, CL501 vs instructions
    executed, CL601 vs host timings (``host_ref``: :func:`host_reference` over all host programs)."""
    rows: list[Row] = []
    shared_width = shared_width or {}
    by_base: dict[str, list[dict[str, Any]]] = {}
    for key, k in measurement["kernels"].items():
        by_base.setdefault(kernel_base(key), []).append(k)
    explained: dict[str, set[str]] = {}
    with_finding = {d.kernel for d in diags if d.kernel}
    for d in diags:
        if d.code not in ("CL101", "CL102", "CL201"):
            continue
        ks = by_base.get(d.kernel or "", [])
        where = f"{d.code} at {d.line}"
        if d.code == "CL201":
            # wavefronts per request averaged over the block's warps (and a loop's trips) is what ncu's
            # wavefronts per instruction measures; for one fixed pattern it equals the conflict degree
            qty = "shared_ld_wavefronts_per_instruction"
            pred = d.metrics.get("wavefronts_per_request", d.metrics.get("bank_conflict_ways"))
        else:
            m = re.search(r"\b(load|store)\b", d.message)   # "... global store of `out`: ..."
            op = "st" if m and m.group(1) == "store" else "ld"
            qty, pred = f"global_{op}_sectors_per_request", d.metrics.get("sectors_per_request")
        explained.setdefault(d.kernel or "", set()).add(qty)
        meas = _worst(ks, qty) if ks else None
        if not ks:
            rows.append(Row(fixture, d.kernel or "?", where, qty, pred, None, False, "kernel not measured"))
        elif meas is None or not isinstance(pred, (int, float)):
            rows.append(Row(fixture, d.kernel or "?", where, qty, pred, meas, False, "nothing to compare"))
        else:
            rows.append(Row(fixture, d.kernel or "?", where, qty, float(pred), meas, _close(float(pred), meas)))
    for base, ks in by_base.items():
        done = explained.get(base, set())
        label = "no finding" if done or base in with_finding else "clean"
        for op in ("ld", "st"):
            qty = f"global_{op}_sectors_per_request"
            if qty in done:
                continue
            pairs = _ideal_global(ks, op)
            if pairs:
                meas, ideal = max(pairs, key=lambda p: p[0] / p[1])
                rows.append(Row(fixture, base, label, qty, round(ideal, 3), meas, _close(ideal, meas), "ideal"))
        for op in ("ld", "st"):
            qty = f"shared_{op}_wavefronts_per_instruction"
            meas = _worst(ks, qty)
            if qty in done or meas is None:
                continue
            limit = SHARED_CLEAN * max(1.0, shared_width.get(base, 4) / 4)
            rows.append(Row(fixture, base, label, qty, limit, meas, meas <= limit, "at most"))
    if "synccheck" in measurement:
        rows += _compare_synccheck(fixture, measurement, diags, by_base)
    if any("smsp__inst_executed_op_ldc.sum" in k["counters"] for k in measurement["kernels"].values()):
        rows += _compare_constant(fixture, measurement, diags, by_base)
    if ARITH_REFERENCE in by_base:
        rows += _compare_arith(fixture, diags, by_base)
    if "host_timing" in measurement:
        rows += _compare_host(fixture, measurement, diags, host_ref)
    return rows


def warps_launched(kernels: list[dict[str, Any]]) -> Optional[float]:
    """Warps of all launches: ``smsp__warps_launched.sum`` where measured, else from the grid and block."""
    total = 0.0
    for k in kernels:
        for pl in k.get("per_launch", [k]):
            w = pl["counters"].get("smsp__warps_launched.sum")
            if w is None:
                dims = [[int(x) for x in re.findall(r"\d+", pl.get(f, ""))] for f in ("grid", "block")]
                if not all(len(d) == 3 for d in dims):
                    return None
                g, b = dims
                w = g[0] * g[1] * g[2] * -(-(b[0] * b[1] * b[2]) // 32)
            total += w
    return total


def _counter(kernels: list[dict[str, Any]], metric: str) -> Optional[float]:
    vals = [k["counters"][metric] for k in kernels if metric in k["counters"]]
    return sum(vals) if vals else None


def _compare_synccheck(fixture: str, measurement: dict[str, Any], diags: Sequence[Any],
                       by_base: dict[str, list[dict[str, Any]]]) -> list[Row]:
    """CL301/CL302 finding lines vs the lines synccheck reports.

    A finding synccheck confirms agrees; a finding it does not report is a disagreement (a known limitation
    of synccheck where listed); a reported line without a CL301 finding is a disagreement; a kernel with no
    barrier finding must have no report at all."""
    sc = measurement["synccheck"]
    rows: list[Row] = []
    if "error" in sc and "sites" not in sc:
        return [Row(fixture, "?", "synccheck", "synccheck_line", None, None, False, sc["error"])]
    name = os.path.basename(fixture)
    per_kernel = sc.get("per_kernel") or {}
    reported: dict[str, list[dict[str, Any]]] = {}      # launched kernel -> its reports
    if per_kernel:
        for k, run in per_kernel.items():
            reported[k] = list(run.get("sites", []))
    else:
        for site in sc.get("sites", []):
            reported.setdefault(site.get("kernel") or "?", []).append(site)
    sync = [d for d in diags if d.code in ("CL301", "CL302")]
    for d in sync:
        sites = reported.get(d.kernel or "", [])
        hit = any(site["line"] == d.line and site["file"] == name for site in sites)
        rows.append(Row(fixture, d.kernel or "?", f"{d.code} at {d.line}", "synccheck_line", d.line,
                        d.line if hit else None, hit, "" if hit else "not reported by synccheck"))
    cl301 = {(d.kernel, d.line) for d in sync if d.code == "CL301"}
    for k, sites in reported.items():
        for site in sites:
            if (k, site["line"]) in cl301 and site["file"] == name:
                continue
            where = f"{site['file']}:{site['line']}"
            rows.append(Row(fixture, k, "no CL301 finding", "synccheck_line", None, site["line"], False,
                            f"synccheck reports a barrier error at {where} ({site['reports']}x) without a CL301 finding"))
    flagged = {d.kernel for d in sync}
    for base in by_base:
        if base in flagged:
            continue
        run = per_kernel.get(base)
        if run is None and per_kernel:
            rows.append(Row(fixture, base, "clean", "synccheck_errors", 0, None, False, "kernel not checked"))
            continue
        errors = run.get("errors", 0) if run else sum(s["reports"] for s in reported.get(base, []))
        bad = run is not None and "error" in run
        rows.append(Row(fixture, base, "clean", "synccheck_errors", 0, errors, errors == 0 and not bad,
                        run["error"] if bad else "at most"))
    return rows


def _ldc_counts(measurement: dict[str, Any], base: str) -> Optional[dict[str, int]]:
    sass = measurement.get("sass")
    return sass.get(base) if isinstance(sass, dict) and isinstance(sass.get(base), dict) else None


def _compare_constant(fixture: str, measurement: dict[str, Any], diags: Sequence[Any],
                      by_base: dict[str, list[dict[str, Any]]]) -> list[Row]:
    """CL401 ``distinct_addresses_per_warp`` vs constant-cache requests.

    ``idc__requests`` counts one request per distinct address of each executed ``LDC`` (``ULDC``, the
    uniform-datapath load of a uniform address, is not counted); every kernel also executes ``LDC``s of its
    launch parameters (bank 0, one address each). So the requests beyond one per executed LDC,
    ``idc__requests - smsp__inst_executed_op_ldc``, are the extra addresses of divergent loads, and for a kernel
    whose only per-lane constant read is the finding's (one ``LDC`` from bank 3 in its SASS, every LDC executed
    once per warp): distinct addresses per warp = 1 + (requests - LDCs executed) / warps.
    A kernel without a CL401 finding must measure at most 1.05 requests per executed LDC."""
    rows: list[Row] = []
    found: dict[str, list[Any]] = {}
    for d in diags:
        if d.code == "CL401":
            found.setdefault(d.kernel or "?", []).append(d)
    for base, ks in by_base.items():
        req = _counter(ks, "idc__requests.sum")
        ldc = _counter(ks, "smsp__inst_executed_op_ldc.sum")
        warps = warps_launched(ks)
        if req is None or not ldc or not warps:
            if base in found:
                rows += [Row(fixture, base, f"CL401 at {d.line}", "distinct_addresses_per_warp",
                             d.metrics.get("distinct_addresses_per_warp"), None, False, "nothing to compare")
                         for d in found[base]]
            continue
        if base not in found:
            label = "no finding" if any(d.kernel == base for d in diags) else "clean"
            rows.append(Row(fixture, base, label, "constant_requests_per_ldc", CONSTANT_CLEAN,
                            round(req / ldc, 4), req / ldc <= CONSTANT_CLEAN, "at most"))
            continue
        counts = _ldc_counts(measurement, base)
        why = ""
        if counts is None:
            why = "no SASS counts"
        elif counts.get("LDC.c3", 0) != 1 or len(found[base]) != 1:
            why = f"not comparable: {counts.get('LDC.c3', 0)} LDC from bank 3, {len(found[base])} findings"
        elif abs(ldc - warps * counts.get("LDC", 0)) > 0.5:
            why = f"not comparable: {ldc:.0f} LDC executed, not {counts.get('LDC', 0)} per warp"
        meas = None if why else round(1 + (req - ldc) / warps, 4)
        for d in found[base]:
            pred = d.metrics.get("distinct_addresses_per_warp")
            ok = meas is not None and isinstance(pred, (int, float)) and _close(float(pred), meas)
            rows.append(Row(fixture, base, f"CL401 at {d.line}", "distinct_addresses_per_warp", pred, meas, ok, why))
    return rows


def _compare_arith(fixture: str, diags: Sequence[Any], by_base: dict[str, list[dict[str, Any]]]) -> list[Row]:
    """CL501 vs instructions executed per warp, against the program's shift/mask kernel (:data:`ARITH_REFERENCE`).

    The fixture kernels are the same loop-free kernel apart from the division (18 instructions per warp for
    shiftMask), and ``smsp__inst_executed`` is an exact count. A kernel with a CL501 finding must execute more
    than :data:`ARITH_CLEAN_EXTRA` instructions per warp beyond the baseline; a clean kernel at most that many:
    two instructions is what preparing a run-time operand of a shift or mask costs (``1u << k``: UMOV + USHF),
    while the cheapest reported pattern, a signed division by a constant power of two, adds a sign fix-up of
    three per operation and a division sequence adds over fifteen. The measured ratio is reported beside the
    rule's ``instructions_ratio`` (estimated from GROUND_TRUTH's kernels, not required to match)."""
    ref = by_base[ARITH_REFERENCE]
    ref_inst, ref_warps = _counter(ref, "smsp__inst_executed.sum"), warps_launched(ref)
    if not ref_inst or not ref_warps:
        return []
    ref_pw = ref_inst / ref_warps
    limit = round(1 + ARITH_CLEAN_EXTRA / ref_pw, 4)
    found: dict[str, list[Any]] = {}
    for d in diags:
        if d.code == "CL501":
            found.setdefault(d.kernel or "?", []).append(d)
    rows: list[Row] = []
    for base, ks in by_base.items():
        inst, warps = _counter(ks, "smsp__inst_executed.sum"), warps_launched(ks)
        if base == ARITH_REFERENCE or not inst or not warps:
            continue
        extra = inst / warps - ref_pw
        ratio = round(inst / warps / ref_pw, 4)
        if base in found:
            lines = ",".join(str(d.line) for d in found[base])
            pred = found[base][0].metrics.get("instructions_ratio")
            rows.append(Row(fixture, base, f"CL501 at {lines}", f"instructions_vs_{ARITH_REFERENCE}", limit, ratio,
                            extra > ARITH_CLEAN_EXTRA, f"more than; rule estimate {pred}"))
        else:
            label = "no finding" if any(d.kernel == base for d in diags) else "clean"
            rows.append(Row(fixture, base, label, f"instructions_vs_{ARITH_REFERENCE}", limit, ratio,
                            extra <= ARITH_CLEAN_EXTRA, "at most"))
    return rows


def host_reference(programs: Sequence[tuple[dict[str, Any], Sequence[Any]]]) -> Optional[dict[str, float]]:
    """From every measured host program (record, diagnostics): the median host time of the copy call of the
    programs without a CL601 finding (``pinned_ms``) and of those with one (``pageable_ms``). Medians, so
    that one program that disagrees shows up as its own disagreement rather than moving every other one."""
    clean, dirty = [], []
    for rec, diags in programs:
        t = (rec.get("host_timing") or {}).get("median_copy_call_ms")
        if t is None:
            continue
        (dirty if any(d.code == "CL601" for d in diags) else clean).append(t)
    if not clean or not dirty:
        return None
    med = lambda v: sorted(v)[len(v) // 2] if len(v) % 2 else sum(sorted(v)[len(v) // 2 - 1:len(v) // 2 + 1]) / 2
    return {"pinned_ms": med(clean), "pageable_ms": med(dirty), "clean_programs": len(clean),
            "pageable_programs": len(dirty)}


def _compare_host(fixture: str, measurement: dict[str, Any], diags: Sequence[Any],
                  ref: Optional[dict[str, float]]) -> list[Row]:
    """CL601: a program with a finding must block the host in its copy call at least 10x the (median) pinned
    call of the clean programs; a clean program at most 1/10 of the (median) pageable call. The program's own
    ``pinned=`` label must say the same as the linter."""
    ht = measurement["host_timing"]
    found = [d for d in diags if d.code == "CL601"]
    where = ("CL601 at " + ",".join(str(d.line) for d in found)) if found else "clean"
    t = ht.get("median_copy_call_ms")
    if t is None:
        return [Row(fixture, "(host)", where, "copy_call_ms", None, None, False,
                    "no CL601-timing line: " + "; ".join(ht.get("errors", []))[:200])]
    rows = [Row(fixture, "(host)", where, "pinned_label", 0 if found else 1, ht.get("pinned"),
                ht.get("pinned") == (0 if found else 1), "the program's own pinned= label")]
    if ref is None:
        rows.append(Row(fixture, "(host)", where, "copy_call_ms", None, t, False, "no pinned/pageable reference"))
    elif found:
        want = round(HOST_FACTOR * ref["pinned_ms"], 4)
        rows.append(Row(fixture, "(host)", where, "copy_call_ms", want, t, t >= want, "at least"))
    else:
        want = round(ref["pageable_ms"] / HOST_FACTOR, 4)
        rows.append(Row(fixture, "(host)", where, "copy_call_ms", want, t, t <= want, "at most"))
    return rows


def shared_widths(model) -> dict[str, int]:
    """Widest shared-memory access (bytes) per kernel, from the linter's model."""
    from .model import AddressSpace
    out: dict[str, int] = {}
    for k in (model.kernels if model is not None else []):
        for a in k.accesses:
            if a.array.space == AddressSpace.SHARED:
                out[k.name] = max(out.get(k.name, 4), a.size)
    return out


def lint(fixture: str) -> tuple[Any, Any]:
    """The linter's diagnostics and model for a fixture (default options)."""
    from .runner import RunOptions, analyse_file
    return analyse_file(fixture, RunOptions())


def compare_fixture(fixture: str, measurement: dict[str, Any], host_ref: Optional[dict[str, float]] = None,
                    analysed: Optional[tuple[Any, Any]] = None) -> list[Row]:
    diags, model = analysed or lint(fixture)
    return compare(fixture, measurement, diags, shared_widths(model), host_ref)


def compare_all(records: dict[str, dict[str, Any]]) -> list[Row]:
    """Lint every measured fixture once, then compare each (host programs against each other's timings)."""
    analysed = {fx: lint(fx) for fx in records}
    ref = host_reference([(rec, analysed[fx][0]) for fx, rec in records.items() if "host_timing" in rec])
    return [r for fx, rec in records.items() for r in compare_fixture(fx, rec, ref, analysed[fx])]


def format_table(rows: Sequence[Row]) -> str:
    def num(v: Optional[float]) -> str:
        return "-" if v is None else f"{v:.4g}" if isinstance(v, float) else str(v)
    head = ("fixture", "kernel", "finding", "compared", "predicted", "measured", "agree")
    body = [(r.fixture, r.kernel, r.finding, r.quantity,
             {"at most": "<= ", "at least": ">= "}.get(r.note, "> " if r.note.startswith("more than") else "")
            + num(r.predicted), num(r.measured),
            "yes" if r.agree else "NO" + (f" ({r.note})" if r.note not in ("", "ideal", "at most", "at least")
                                          and not r.note.startswith("more than") else ""))
            for r in rows]
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body)]
    return "\n".join("  ".join(str(x).ljust(w) for x, w in zip(line, widths)).rstrip()
                     for line in [head, *body]) + "\n"


# ---------------------------------------------------------------- entry points

def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("fixtures", nargs="*", metavar="FIXTURES", help="fixture programs (default: fixtures/**/*.cu)")
    p.add_argument("--output-dir", default="fixtures/measured", help="where <family>__<stem>.json go")
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--nvcc", metavar="PATH")
    p.add_argument("--ncu", metavar="PATH")
    p.add_argument("--compute-sanitizer", dest="compute_sanitizer", metavar="PATH")
    p.add_argument("--timeout", type=int, default=RUN_TIMEOUT, metavar="SECONDS",
                   help=f"limit for each program run (ncu, synccheck, a timing run; default {RUN_TIMEOUT})")


def _fixture_paths(args: argparse.Namespace) -> list[Path]:
    paths = [Path(f) for f in args.fixtures] or default_fixtures()
    for p in paths:
        if not p.is_file():
            raise VerifyError(f"no such fixture: {p}")
    if not paths:
        raise VerifyError("no fixtures found (looked for fixtures/**/*.cu)")
    return paths


def run_verify(args: argparse.Namespace, out=sys.stdout) -> int:
    """``cudalint verify``: measure, write the JSON files, print the comparison; 1 on any disagreement."""
    partial = None
    try:
        paths = _fixture_paths(args)
        tools = find_tools(args.nvcc, args.ncu, args.compute_sanitizer)
        records = measure_all(paths, Path(args.output_dir), args.arch, tools, timeout=args.timeout)
    except PartialFailure as e:
        records, partial = e.records, e
    except VerifyError as e:
        sys.stderr.write(f"cudalint: error: {e}\n")
        return 2
    rows = compare_all({fx.as_posix(): rec for fx, rec in records.items()})
    out.write(format_table(rows))
    bad = sum(not r.agree for r in rows)
    out.write(f"{len(rows) - bad} of {len(rows)} comparisons agree.\n")
    if partial is not None:
        sys.stderr.write(f"cudalint: error: {partial}\n")
        return 2
    return 1 if bad else 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python3 -m cudalint.verify [--measure-only] ...``: the same as ``cudalint verify``; with
    ``--measure-only`` only build and profile (standard library only, for a bare GPU machine)."""
    p = argparse.ArgumentParser(prog="python3 -m cudalint.verify")
    add_arguments(p)
    p.add_argument("--measure-only", action="store_true", help="write the JSON files, compare nothing")
    args = p.parse_args(argv)
    if not args.measure_only:
        return run_verify(args)
    try:
        measure_all(_fixture_paths(args), Path(args.output_dir), args.arch,
                    find_tools(args.nvcc, args.ncu, args.compute_sanitizer), timeout=args.timeout)
    except VerifyError as e:
        sys.stderr.write(f"cudalint: error: {e}\n")
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
