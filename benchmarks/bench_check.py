"""Speed of `cudalint check` against the floor: one bare libclang parse of the same file.

Run: .venv/bin/python benchmarks/bench_check.py
Reports
* for the fixtures and for a generated 10,000-line file: seconds for a bare libclang parse (same arguments
  as the front-end), seconds for the whole lint in-process (parse + model + analyses + rules), the ratio;
* single-file latency of the real command (`cudalint check` on a 500-line file, interpreter start and
  worker pool included) and its peak memory (max RSS of the command and its workers);
* language-server re-lint latency: `lint_text` of a 500-line buffer after a one-line change.
Targets (issues 2 and 6): ratio <= 1.5, single file <= 0.5 s, re-lint <= 150 ms, peak memory <= 500 MB.

With ``--corpus DIR [PATHS...]`` (issue 13) it measures a real corpus instead, in one run: every file the command
would lint under ``DIR`` (its configuration files read as `cudalint check` reads them), parsed bare by libclang
with the exact arguments cudalint gives that file, serially in one process; then `cudalint check --no-cache` on
the same paths with ``--jobs 1`` and ``--jobs 2`` (each a fresh interpreter, start-up and worker pool included;
the bare parse reads the prelude from its headers; the commands use a fresh PCH folder: ``--jobs 1`` cold (the
prelude's PCH made by the first file, slow preambles noted), again (the preambles' PCHs made), again warm, and
``--jobs 2`` warm; ``CUDALINT_PCH=0`` measures them without), their ratios to the bare parse, and the peak memory of
the command and its workers.  E.g. NVIDIA/cuda-samples
with its `.cudalint.toml` (``include-paths = ["Common"]``): ``bench_check.py --corpus CHECKOUT Samples``.
Targets (issue 13): ``--jobs 1`` <= 1.2x the bare parse, ``--jobs 2`` <= 0.6x ``--jobs 1``, memory <= 500 MB.
Not a test: numbers depend on the machine.
"""

from __future__ import annotations

import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import clang.cindex as ci

ROOT = Path(__file__).resolve().parents[1]
if not os.environ.get("PYTHONPATH"):  # PYTHONPATH=SNAPSHOT measures another copy of cudalint (its workers too)
    sys.path.insert(0, str(ROOT))

from cudalint.frontend.libclang import PARSE_OPTIONS, base_args  # noqa: E402
from cudalint.rules import all_rules  # noqa: E402
from cudalint.runner import RunOptions, lint_file, lint_text  # noqa: E402

KERNEL = """
__global__ void k{n}(const float* __restrict__ in, float* __restrict__ out, int width, int n)
{{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    float acc = 0.0f;
    for (int i = x; i < n; i += blockDim.x * gridDim.x) {{
        acc += in[i] * 0.5f + in[2 * i];
    }}
    tile[threadIdx.y][threadIdx.x] = in[y * width + x] + acc;
    __syncthreads();
    out[y * width + x] = tile[threadIdx.x][threadIdx.y];
    if (x + {n} < n) out[x + 1] = in[x * width];
}}
"""


def generated(lines: int) -> str:
    parts, n = ["#include <cstdio>\n"], 0
    while sum(p.count("\n") for p in parts) < lines:
        parts.append(KERNEL.format(n=n))
        n += 1
    parts.append("int main() { float* d = nullptr; dim3 b(32, 32);\n")
    parts += [f"  k{i}<<<64, b>>>(d, d, 1024, 1 << 20);\n" for i in range(n)]
    parts.append("  return 0; }\n")
    return "".join(parts)


def bare_parse(path: str) -> float:
    t = time.perf_counter()
    ci.Index.create().parse(path, args=base_args(), options=PARSE_OPTIONS)
    return time.perf_counter() - t


def lint(path: str, rules) -> float:
    t = time.perf_counter()
    lint_file(path, RunOptions(), rules)
    return time.perf_counter() - t


def measure(files: list[str], repeat: int = 3) -> tuple[float, float]:
    rules = all_rules()
    lint(files[0], rules)  # warm up imports
    parse = min(sum(bare_parse(f) for f in files) for _ in range(repeat))
    full = min(sum(lint(f, rules) for f in files) for _ in range(repeat))
    return parse, full


def command_latency(path: str, repeat: int = 3) -> tuple[float, float]:
    """(best wall seconds, peak RSS in MB) of `python -m cudalint check --no-cache PATH` in a fresh interpreter
    (without ``--no-cache`` the second run reads the first's results: issue 13 asks for the run without the cache)."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "cudalint", "check", "--no-cache", "--exit-zero", path],
                       capture_output=True, check=True)
        best = min(best, time.perf_counter() - t)
    rss_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return best, rss_kb / 1024


def relint_latency(path: str, frontend: str, repeat: int = 5) -> float:
    """Best seconds to re-lint a buffer after changing one line (what the language server does: with the
    tree-sitter front-end while typing, clang on open and save)."""
    text = Path(path).read_text()
    opts = RunOptions(frontend=frontend)
    rules = all_rules()
    lint_text(path, text, opts, rules)
    best = float("inf")
    for i in range(repeat):
        changed = text.replace("a[32 * i] = 0;", f"a[32 * i] = {i};", 1)
        t = time.perf_counter()
        lint_text(path, changed, opts, rules)
        best = min(best, time.perf_counter() - t)
    return best


def corpus(root: str, paths: list[str]) -> None:
    """The ``--corpus`` measurement (module docstring); run from ``root`` as a user runs cudalint there."""
    from cudalint.config import Resolver, discover
    from cudalint.frontend.libclang import _parse, base_args
    from cudalint.runner import compile_flags
    os.chdir(root)
    resolver = Resolver()
    files = discover(paths or ["."], resolver)
    t = time.perf_counter()
    for f in files:
        opts = resolver.options_for(f)
        # the prelude parsed from its headers, as without cudalint's precompiled header (frontend/pch.py)
        _parse(f, Path(f).read_text(encoding="utf-8", errors="replace"),
               base_args(opts.cuda_path) + opts.extra_args + compile_flags(f, opts.compile_db))
    bare = time.perf_counter() - t
    print(f"{len(files)} files under {root}: bare libclang parse (one process, serial) {bare:.1f} s")
    walls = {}
    # a fresh PCH folder: the first run finds none (cold: the prelude's made, slow preambles noted), the second makes
    # the preambles' PCHs (each seen once before), the third and fourth find them all (warm)
    env = {**os.environ, "CUDALINT_PCH_DIR": tempfile.mkdtemp(prefix="cudalint-bench-pch-"),
           "CUDALINT_PCH_MB": os.environ.get("CUDALINT_PCH_MB", "8192")}
    for run, jobs in (("cold", 1), ("second", 1), ("warm", 1), ("warm", 2)):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "cudalint", "check", "--no-cache", "--exit-zero", "--jobs", str(jobs),
                        "--quiet", *(paths or ["."])], capture_output=True, check=True, env=env)
        walls[run, jobs] = time.perf_counter() - t
        print(f"`cudalint check --jobs {jobs}` ({run} PCH folder): {walls[run, jobs]:.1f} s, "
              f"{walls[run, jobs] / bare:.2f}x the bare parse")
    import shutil
    pchs = sum(f.stat().st_size for f in Path(env["CUDALINT_PCH_DIR"]).iterdir())
    shutil.rmtree(env["CUDALINT_PCH_DIR"], ignore_errors=True)
    print(f"PCH folder after the runs: {pchs / 2**20:.0f} MB")
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"--jobs 2 / --jobs 1 (warm): {walls['warm', 2] / walls['warm', 1]:.2f}; peak memory of one process "
          f"(command or worker): {rss:.0f} MB")


def main() -> None:
    print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, Python {platform.python_version()}")
    if len(sys.argv) > 2 and sys.argv[1] == "--corpus":
        corpus(sys.argv[2], sys.argv[3:])
        return
    fixtures = sorted(str(p) for p in (ROOT / "fixtures").rglob("*.cu"))
    with tempfile.TemporaryDirectory() as d:
        big = Path(d) / "generated.cu"
        big.write_text(generated(10_000))
        n_lines = big.read_text().count("\n")
        rows = [(f"fixtures ({len(fixtures)} files)", fixtures), (f"generated ({n_lines} lines)", [str(big)])]
        print(f"{'corpus':<28} {'libclang parse s':>17} {'cudalint s':>11} {'ratio':>6}")
        for name, files in rows:
            parse, full = measure(files)
            print(f"{name:<28} {parse:>17.3f} {full:>11.3f} {full / parse:>6.2f}")
        five = Path(d) / "five_hundred.cu"
        five.write_text(generated(480) + "__global__ void edit(float* a, int i) { a[32 * i] = 0; }\n")
        n5 = five.read_text().count("\n")
        latency, rss = command_latency(str(five))
        print(f"single file ({n5} lines), `cudalint check` incl. interpreter start: {latency:.3f} s, "
              f"peak memory {rss:.0f} MB")
        for fe, when in (("tree-sitter", "while typing"), ("clang", "on save")):
            print(f"language-server re-lint of that buffer after a one-line change, {when} ({fe}): "
                  f"{relint_latency(str(five), fe) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
