"""Linting many files in worker processes (pebble's ProcessPool).

Each file is one task in a pool of ``jobs`` processes with a per-file time limit.  A worker that crashes
(libclang overflows its stack on pathological input, e.g. thousands of nested parentheses) or runs past
the limit costs only that file: it becomes a CL000 diagnostic naming the file and what happened, and the
run goes on.  Results are sorted exactly like a serial run.
"""

from __future__ import annotations

import functools
import os
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Callable, Iterable, Optional

from pebble import ProcessExpired, ProcessPool

from .diagnostics import Diagnostic
from .runner import analyse_file, cl000

#: Seconds one file may take before it is abandoned (a 50,000-line file lints in well under this).
DEFAULT_FILE_TIMEOUT = 300.0


def _lint_worker(path: str, opts) -> tuple[list[Diagnostic], list[str], list[str], bool]:
    """Findings of ``path``, the files its translation unit included, the other files its result depends on
    (callers read for launch shapes) and whether the result may be cached."""
    diags, model = analyse_file(path, opts)
    cacheable = (model is not None and not model.missing_includes and model.frontend == "clang"
                 and not any(d.code == "CL000" for d in diags))
    return (diags, list(model.dependencies) if model is not None else [],
            list(model.callers) if model is not None else [], cacheable)


def merge_includes(results: list[tuple[str, list[Diagnostic], list[str]]]) -> list[Diagnostic]:
    """All findings of a run (``results``: each linted file, its findings and the files it *included*): a file
    that another linted file includes (a header, a ``.cu`` of a unity build) has its kernels analysed in the
    includer, with its launches, types and macros, so its own kernel findings (linted alone) are dropped; a
    header's finding given by several includers is kept once. A file read only for the launch shapes its calls
    pass (a caller) is not included: its kernels' findings stay (before, a program whose two kernel files shared
    a launcher name dropped each other's findings)."""
    rp = functools.lru_cache(maxsize=None)(os.path.realpath)  # each header is named by every file including it
    included = {rp(dep) for path, _, deps in results for dep in deps if rp(dep) != rp(path)}
    superseded = _partial_elsewhere_whole(results)
    out, seen = [], set()
    for path, diags, _ in results:
        alone = rp(path) in included
        for d in diags:
            if alone and d.kernel and not d.internal:
                continue
            if d.path != path and (d.kernel, rp(path)) in superseded and not d.internal:
                continue
            # a header kernel's CL000 "only partly modelled" once, whatever each includer lacks besides
            key = (rp(d.path), d.line, d.column, d.code,
                   d.kernel if d.code == "CL000" and d.kernel and d.path != path else d.message)
            if d.path != path and key in seen:
                continue
            seen.add(key)
            out.append(d)
    return out


def _partial_elsewhere_whole(results: list[tuple[str, list[Diagnostic], list[str]]]) -> set[tuple[str, str]]:
    """(kernel, includer) pairs whose findings give way: a header's kernel that one includer models only in part (a
    CL000 "only partly modelled": it lacks the operators or macros the header expects from its includer, as
    NVIDIA/gvdb-voxels' OptiX header does for `int3 - int3`) while another includer of the same header models it
    whole. The whole analysis is the answer; the partial one's CL000 and findings for that kernel are dropped. An
    includer that failed as a whole (a file-level CL000) models nothing."""
    rp = functools.lru_cache(maxsize=None)(os.path.realpath)
    includers: dict[str, set[str]] = {}
    failed = {rp(path) for path, diags, _ in results if any(d.code == "CL000" and not d.kernel for d in diags)}
    for path, _, deps in results:
        for dep in deps:
            if rp(dep) != rp(path):
                includers.setdefault(rp(dep), set()).add(rp(path))
    partial: dict[tuple[str, str], set[str]] = {}   # (header, kernel) -> includers that model it in part
    for path, diags, _ in results:
        for d in diags:
            if d.code == "CL000" and d.kernel and not d.internal and d.path != path \
                    and "only partly modelled" in d.message:
                partial.setdefault((rp(d.path), d.kernel), set()).add(rp(path))
    return {(kernel, tu) for (header, kernel), tus in partial.items()
            if includers.get(header, set()) - tus - failed for tu in tus}


def _collect(path: str, opts, key, fut, timeout: Optional[float], cache) -> tuple[str, list[Diagnostic], list[str]]:
    """The result of one file's worker: its findings and dependencies (stored in ``cache``), or a CL000 saying
    why there are none (a time-out, a crashed worker, a worker-side exception)."""
    try:
        diags, deps, callers, cacheable = fut.result()
    except FutureTimeout:
        why = f"it took longer than the {timeout:g} s per-file limit"
    except ProcessExpired as e:
        why = f"the front-end crashed on it (worker exit code {e.exitcode})"
    except Exception as e:  # noqa: BLE001 - a worker-side failure must not stop the run
        why = f"internal error ({type(e).__name__}: {e})"
    else:
        if cache is not None and key is not None and cacheable:
            from .cache import search_folders
            cache.put(key, diags, deps, search_folders(path, opts, deps), also=callers)
        return path, diags, deps
    return path, [cl000(path, f"cannot lint {path}: {why}", internal=True)], []


def lint_many(tasks: Iterable[tuple[str, object]], jobs: Optional[int] = None,
              timeout: Optional[float] = DEFAULT_FILE_TIMEOUT, cache=None,
              progress: Optional[Callable[[], None]] = None) -> list[Diagnostic]:
    """Lint every ``(path, RunOptions)`` task in worker processes (see the module docstring); return all findings,
    sorted.  With a :class:`cudalint.cache.Cache`, files whose entry is still valid are not linted again.
    ``progress()`` is called once per file done (a cache hit included), in the calling process."""
    progress = progress or (lambda: None)
    results: list[tuple[str, list[Diagnostic], list[str]]] = []
    todo = []
    for path, opts in tasks:
        key = cache.key(path, opts) if cache is not None else None
        if (hit := cache.get(key) if key is not None else None) is not None:
            results.append((path, *hit))
            progress()
        else:
            todo.append((path, opts, key))
    pool = ProcessPool(max_workers=min(jobs or os.cpu_count() or 1, len(todo))) if todo else None
    try:
        futures = [(path, opts, key, pool.schedule(_lint_worker, args=(path, opts), timeout=timeout))
                   for path, opts, key in todo]
        for path, opts, key, fut in futures:
            results.append(_collect(path, opts, key, fut, timeout, cache))
            progress()  # done, timed out or crashed alike
    finally:
        if pool is not None:  # every result is in: stop the workers without waiting for pebble's join (polls)
            pool.stop()
    return sorted(merge_includes(results), key=Diagnostic.sort_key)
