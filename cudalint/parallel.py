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


def _lint_worker(path: str, opts) -> tuple[list[Diagnostic], Optional[list[str]]]:
    """Findings of ``path`` and, when the result may be cached, the files its translation unit read."""
    from .runner import analyse_file
    diags, model = analyse_file(path, opts)
    cacheable = (model is not None and not model.missing_includes and model.frontend == "clang"
                 and not any(d.code == "CL000" for d in diags))
    return diags, (list(model.dependencies) if cacheable else None)


def lint_many(tasks: Iterable[tuple[str, object]], jobs: Optional[int] = None,
              timeout: Optional[float] = DEFAULT_FILE_TIMEOUT, cache=None) -> list[Diagnostic]:
    """Lint every ``(path, RunOptions)`` task in worker processes; return all findings, sorted.

    A file whose worker dies or runs past ``timeout`` seconds yields a CL000 naming the file and the
    reason; the other files are unaffected.  With a :class:`cudalint.cache.Cache`, files whose entry is
    still valid are not linted again."""
    from .runner import cl000
    out: list[Diagnostic] = []
    todo = []
    for path, opts in tasks:
        key = cache.key(path, opts) if cache is not None else None
        hit = cache.get(key) if key is not None else None
        if hit is not None:
            out.extend(hit)
        else:
            todo.append((path, opts, key))
    if not todo:
        return sorted(out, key=Diagnostic.sort_key)
    jobs = min(jobs or default_jobs(), len(todo))
    pool = ProcessPool(max_workers=jobs)
    try:
        futures = [(path, key, pool.schedule(_lint_worker, args=(path, opts), timeout=timeout))
                   for path, opts, key in todo]
        for path, key, fut in futures:
            try:
                diags, deps = fut.result()
                out.extend(diags)
                if cache is not None and key is not None and deps is not None:
                    cache.put(key, diags, deps)
            except FutureTimeout:
                out.append(cl000(path, f"cannot lint {path}: it took longer than the {timeout:g} s per-file limit",
                                 internal=True))
            except ProcessExpired as e:
                out.append(cl000(path, f"cannot lint {path}: the front-end crashed on it "
                                       f"(worker exit code {e.exitcode})", internal=True))
            except Exception as e:  # noqa: BLE001 - a worker-side failure must not stop the run
                out.append(cl000(path, f"cannot lint {path}: internal error ({type(e).__name__}: {e})",
                                 internal=True))
    finally:
        # every result is in: stop the workers without waiting for pebble's join, which polls (~0.1 s)
        pool.stop()
    return sorted(out, key=Diagnostic.sort_key)
