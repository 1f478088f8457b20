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
_PCT = ("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
        "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct")
TOLERANCE = 0.05        # relative, prediction vs measurement
SHARED_CLEAN = 1.2      # wavefronts per instruction a conflict-free 4-byte access may reach (GROUND_TRUTH: 1.16)
BUILD_TIMEOUT = 300
RUN_TIMEOUT = 600


class VerifyError(Exception):
    """A missing tool or GPU, or a fixture that fails to build or profile: one line, exit 2."""


class PartialFailure(VerifyError):
    """Some fixtures could not be measured; ``records`` holds the others."""

    def __init__(self, records: dict[Path, dict[str, Any]], failed: list[str]):
        super().__init__(f"{len(failed)} fixture(s) could not be measured: {', '.join(failed)}")
        self.records = records


# ---------------------------------------------------------------- measuring (standard library only)

def _run(argv: list[str], timeout: int, cwd: Optional[str] = None) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, cwd=cwd)
    except subprocess.TimeoutExpired:
        raise VerifyError(f"timed out after {timeout} s: {' '.join(argv)}") from None
    except OSError as e:
        raise VerifyError(f"cannot run {argv[0]}: {e.strerror or e}") from None


def find_tools(nvcc: Optional[str], ncu: Optional[str], sanitizer: Optional[str]) -> dict[str, Optional[str]]:
    """Resolve the tools and check that a GPU is visible; raise :class:`VerifyError` naming what is missing."""
    tools = {"nvcc": shutil.which(nvcc or "nvcc"), "ncu": shutil.which(ncu or "ncu"),
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
    return tools


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
        for m in METRICS:
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


def measure_fixture(fixture: Path, tools: dict[str, Optional[str]], arch: str, env: dict[str, str],
                    workdir: str) -> dict[str, Any]:
    """Build ``fixture`` and profile it once; return the record for ``<case>.json``."""
    exe = os.path.join(workdir, case_name(fixture))
    r = _run([tools["nvcc"], "-O3", "-lineinfo", f"-arch={arch}", "-o", exe, str(fixture)], BUILD_TIMEOUT)
    if r.returncode != 0:
        raise VerifyError(f"{fixture}: nvcc failed: {(r.stderr or r.stdout).strip().splitlines()[-1:]}")
    argv = [tools["ncu"], "--clock-control", "none", "--csv", "--page", "raw"]
    if tools.get("ncu_base_units"):
        argv += ["--print-units", "base"]
    r = _run(argv + ["--metrics", ",".join(METRICS), exe], RUN_TIMEOUT, cwd=workdir)
    launches = parse_ncu_csv(r.stdout)
    if r.returncode != 0 or not launches:
        tail = (r.stderr.strip() or r.stdout.strip()).splitlines()[-3:]
        raise VerifyError(f"{fixture}: ncu failed (exit {r.returncode}): {' | '.join(tail)}")
    record: dict[str, Any] = dict(env)
    record["fixture"] = fixture.as_posix()
    record["build"] = f"nvcc -O3 -lineinfo -arch={arch}"
    record["profile"] = " ".join(["ncu"] + argv[1:] + ["--metrics", ",".join(METRICS)])
    record["program_output"] = [ln for ln in r.stdout.splitlines()
                                if not ln.startswith('"') and not ln.startswith("==")][-5:]
    record["kernels"] = aggregate(launches)
    if "expect: CL30" in fixture.read_text(encoding="utf-8", errors="replace"):
        record["synccheck"] = synccheck(exe, tools, workdir)
    return record


def synccheck(exe: str, tools: dict[str, Optional[str]], workdir: str) -> dict[str, Any]:
    """For barrier fixtures (CL301/CL302): compute-sanitizer's synccheck reports, "file:line" of each."""
    if not tools.get("compute-sanitizer"):
        return {"error": "compute-sanitizer not found"}
    r = _run([tools["compute-sanitizer"], "--tool", "synccheck", exe], RUN_TIMEOUT, cwd=workdir)
    text = r.stdout + r.stderr
    errors = re.findall(r"Barrier error detected[^\n]*", text)
    sites = re.findall(r"at [^\n]*?([\w./-]+\.cu):(\d+)", text)
    return {"errors": len(errors), "messages": sorted(set(errors)),
            "lines": sorted({int(n) for _, n in sites})}


def default_fixtures() -> list[Path]:
    return sorted(p for p in Path("fixtures").rglob("*.cu") if p.parent.name != "measured")


def measure_all(fixtures: Sequence[Path], output_dir: Path, arch: str, tools: dict[str, Optional[str]],
                log=sys.stderr) -> dict[Path, dict[str, Any]]:
    env = environment(tools)
    output_dir.mkdir(parents=True, exist_ok=True)
    out = {}
    failed = []
    with tempfile.TemporaryDirectory(prefix="cudalint-verify-") as tmp:
        for fx in fixtures:
            try:
                rec = measure_fixture(fx, tools, arch, env, tmp)
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
            shared_width: Optional[dict[str, int]] = None) -> list[Row]:
    """Set each prediction beside the measurement of its kernel.

    ``diags`` are the fixture's diagnostics (``code``, ``line``, ``kernel``, ``metrics``, ``message``).
    CL101/CL102: ``sectors_per_request`` vs the worst launch's global load (or store) sectors per request;
    CL201: ``bank_conflict_ways`` vs shared wavefronts per load instruction; both within 5 %.
    Every quantity no finding explains must be ideal: global sectors per request = the requested bytes / 32
    (4 for full-warp 4-byte accesses, 8 for 8-byte, 16 for 16-byte) within 5 %, shared wavefronts per
    instruction <= 1.2 x (access width / 4 bytes; ``shared_width`` gives the width per kernel, default 4)."""
    rows: list[Row] = []
    shared_width = shared_width or {}
    by_base: dict[str, list[dict[str, Any]]] = {}
    for key, k in measurement["kernels"].items():
        by_base.setdefault(kernel_base(key), []).append(k)
    explained: dict[str, set[str]] = {}
    for d in diags:
        if d.code not in ("CL101", "CL102", "CL201"):
            continue
        ks = by_base.get(d.kernel or "", [])
        where = f"{d.code} at {d.line}"
        if d.code == "CL201":
            qty, pred = "shared_ld_wavefronts_per_instruction", d.metrics.get("bank_conflict_ways")
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
        label = "no finding" if done else "clean"
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


def compare_fixture(fixture: str, measurement: dict[str, Any]) -> list[Row]:
    from .runner import RunOptions, analyse_file
    diags, model = analyse_file(fixture, RunOptions())
    return compare(fixture, measurement, diags, shared_widths(model))


def format_table(rows: Sequence[Row]) -> str:
    def num(v: Optional[float]) -> str:
        return "-" if v is None else f"{v:.4g}" if isinstance(v, float) else str(v)
    head = ("fixture", "kernel", "finding", "compared", "predicted", "measured", "agree")
    body = [(r.fixture, r.kernel, r.finding, r.quantity,
             ("<= " if r.note == "at most" else "") + num(r.predicted), num(r.measured),
             "yes" if r.agree else "NO" + (f" ({r.note})" if r.note not in ("", "ideal", "at most") else ""))
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
        records = measure_all(paths, Path(args.output_dir), args.arch, tools)
    except PartialFailure as e:
        records, partial = e.records, e
    except VerifyError as e:
        sys.stderr.write(f"cudalint: error: {e}\n")
        return 2
    rows = [r for fx, rec in records.items() for r in compare_fixture(fx.as_posix(), rec)]
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
                    find_tools(args.nvcc, args.ncu, args.compute_sanitizer))
    except VerifyError as e:
        sys.stderr.write(f"cudalint: error: {e}\n")
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
