"""Linting many files in worker processes (pebble's ProcessPool).

Each file is one task in a pool of ``jobs`` processes with a per-file time limit.  A worker that crashes
(libclang overflows its stack on pathological input, e.g. thousands of nested parentheses) or runs past
the limit costs only that file: it becomes a CL000 diagnostic naming the file and what happened, and the
run goes on.  Results are sorted exactly like a serial run.
"""

from __future__ import annotations

import os
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Iterable, Optional

from pebble import ProcessExpired, ProcessPool

from .diagnostics import Diagnostic

#: Seconds one file may take before it is abandoned (a 50,000-line file lints in well under this).
DEFAULT_FILE_TIMEOUT = 300.0


def default_jobs() -> int:
    return max(1, os.cpu_count() or 1)


def _lint_worker(path: str, opts) -> list[Diagnostic]:
    from .runner import lint_file
    return lint_file(path, opts)


def lint_many(tasks: Iterable[tuple[str, object]], jobs: Optional[int] = None,
              timeout: Optional[float] = DEFAULT_FILE_TIMEOUT) -> list[Diagnostic]:
    """Lint every ``(path, RunOptions)`` task in worker processes; return all findings, sorted.

    A file whose worker dies or runs past ``timeout`` seconds yields a CL000 naming the file and the
    reason; the other files are unaffected."""
    from .runner import cl000
    tasks = list(tasks)
    if not tasks:
        return []
    jobs = min(jobs or default_jobs(), len(tasks))
    out: list[Diagnostic] = []
    pool = ProcessPool(max_workers=jobs)
    try:
        futures = [(path, pool.schedule(_lint_worker, args=(path, opts), timeout=timeout))
                   for path, opts in tasks]
        for path, fut in futures:
            try:
                out.extend(fut.result())
            except FutureTimeout:
                out.append(cl000(path, f"cannot lint {path}: it took longer than the {timeout:g} s per-file limit"))
            except ProcessExpired as e:
                out.append(cl000(path, f"cannot lint {path}: the front-end crashed on it "
                                       f"(worker exit code {e.exitcode})"))
            except Exception as e:  # noqa: BLE001 - a worker-side failure must not stop the run
                out.append(cl000(path, f"cannot lint {path}: internal error ({type(e).__name__}: {e})"))
    finally:
        # every result is in: stop the workers without waiting for pebble's join, which polls (~0.1 s)
        pool.stop()
    return sorted(out, key=Diagnostic.sort_key)
