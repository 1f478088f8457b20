"""The CUDA toolkit mode of the clang front-end (``--cuda-path PATH|auto``): parse with the installed toolkit's own
headers in clang's CUDA mode, as clangd does, instead of cudalint's shims, so that every header of the toolkit
(textures, wmma, libcu++, cooperative groups, cuRAND, Thrust and CUB) resolves as nvcc sees it.

Nothing is run: the toolkit is found by its files (``CUDA_PATH``, ``CUDA_HOME``, the folder above an ``nvcc`` on
``PATH``, ``/usr/local/cuda``), and the host's C++ library is GCC's libstdc++ (the toolkit's headers refuse libc++ on
x86-64 Linux: ``crt/host_defines.h``). Before the first file, a probe (``#include <cuda_runtime.h>``, a kernel and its
launch) is
parsed with these arguments; where libclang cannot take this toolkit version or host library, the run says so once
and keeps the shims (:func:`usable`).
"""

from __future__ import annotations

import functools
import glob
import os
import re
import shutil
from pathlib import Path
from typing import Optional

#: headers clang's CUDA wrapper includes that a partial toolkit may lack (cuRAND's MTGP32 tables): empty stand-ins,
#: searched after every toolkit folder
FALLBACK = Path(__file__).with_name("shims") / "toolkit_fallback"

PROBE = ("#include <cuda_runtime.h>\n__global__ void cudalint_probe(float *p) { p[threadIdx.x] = 0.0f; }\n"
         "int main() { cudalint_probe<<<1, 32>>>(0); }\n")   # a launch: clang needs the configuration call declared


def _is_toolkit(root: str) -> bool:
    return os.path.isfile(os.path.join(root, "include", "cuda_runtime.h"))


def resolve(spec: Optional[str]) -> tuple[Optional[str], Optional[str]]:
    """(the toolkit root to parse with or None, why not) for ``--cuda-path SPEC``: ``none`` (or nothing) is the shims,
    ``auto`` the toolkit :func:`find_toolkit` finds, a folder that one (probed once per process: :func:`usable`).
    Raises ValueError for a named folder that is not a toolkit."""
    if not spec or spec == "none":
        return None, None
    root = find_toolkit(spec)
    why = usable(root) if root is not None else "no CUDA toolkit found (CUDA_PATH, CUDA_HOME, nvcc on PATH, " \
        "/usr/local/cuda)"
    return (None, why) if why else (root, None)


def find_toolkit(spec: str) -> Optional[str]:
    """The toolkit root ``spec`` names (resolved): a folder holding ``include/cuda_runtime.h``, or for ``auto`` the
    first of ``CUDA_PATH``, ``CUDA_HOME``, the folder above the ``bin`` of an ``nvcc`` on ``PATH`` and
    ``/usr/local/cuda`` that is one; None for ``auto`` when there is none. Raises ValueError for a named folder that
    is not a toolkit."""
    if spec != "auto":
        if not _is_toolkit(spec):
            raise ValueError(f"--cuda-path {spec}: no CUDA toolkit there (no include/cuda_runtime.h)")
        return os.path.realpath(spec)
    nvcc = shutil.which("nvcc")
    for cand in (os.environ.get("CUDA_PATH"), os.environ.get("CUDA_HOME"),
                 os.path.dirname(os.path.dirname(os.path.realpath(nvcc))) if nvcc else None, "/usr/local/cuda"):
        if cand and _is_toolkit(cand):
            return os.path.realpath(cand)
    return None


@functools.cache
def host_cxx_args() -> tuple[str, ...]:
    """GCC's libstdc++ as clang would find it on Debian/Ubuntu/Fedora layouts: the newest ``/usr/include/c++/N`` with
    its target folder (``/usr/include/<triple>/c++/N`` or ``.../c++/N/<triple>``); empty when there is none."""
    def version(p: str) -> tuple:
        return tuple(int(x) for x in re.findall(r"\d+", os.path.basename(p)))
    for base in sorted(glob.glob("/usr/include/c++/*"), key=version, reverse=True):
        n = os.path.basename(base)
        target = glob.glob(f"/usr/include/*/c++/{n}") or [d for d in glob.glob(f"{base}/*-linux-gnu")
                                                            if os.path.isdir(d)]
        if os.path.isfile(os.path.join(base, "cstddef")):
            # clang's CUDA wrappers of <new>, <cmath>, <complex> first, as its driver puts them (device placement new)
            return ("-nostdinc++", *_cuda_wrappers(), "-isystem", base,
                    *(x for t in target[:1] for x in ("-isystem", t)))
    return ()


def _cuda_wrappers() -> tuple[str, ...]:
    import clang.cindex as ci
    wrappers = Path(ci.__file__).parent / "native" / "resource" / "include" / "cuda_wrappers"
    return ("-isystem", str(wrappers)) if wrappers.is_dir() else ()


def toolkit_args(root: str) -> list[str]:
    """The clang arguments of the toolkit mode for the toolkit at ``root`` (the shim mode's, with the toolkit's
    headers and the host's libstdc++ instead of cudalint's prelude, shims and libc++)."""
    cccl = os.path.join(root, "include", "cccl")   # CUDA 13 moved libcu++, Thrust and CUB here
    return ["-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90", f"--cuda-path={root}", "-nocudalib",
            "-std=c++17", "-ferror-limit=0", "-w", "-Wno-register", "-Wno-unknown-cuda-version", "-fgpu-rdc",
            "-Wno-reserved-user-defined-literal", *host_cxx_args(),
            *(("-isystem", cccl) if os.path.isdir(cccl) else ()), "-idirafter", str(FALLBACK),
            "-include", str(FALLBACK / "cudalint_toolkit_prelude.h")]


def include_roots(root: str) -> tuple[str, ...]:
    """The folders the toolkit mode reads besides the system ones (:mod:`cudalint.frontend.confine`)."""
    return (os.path.realpath(os.path.join(root, "include")),)


@functools.cache
def usable(root: str) -> Optional[str]:
    """None when libclang parses the probe with the toolkit at ``root`` without an error, else the first error (the
    reason the run keeps the shims)."""
    if not host_cxx_args():
        return "no GCC C++ library (/usr/include/c++/N) to parse the toolkit's headers with"
    from .libclang import parse   # the prelude from its precompiled header where one can be used: 20 ms, not 600
    tu = parse("/cudalint-toolkit-probe.cu", PROBE, [], root)   # never on disk: libclang reads it from memory
    errors = [x for x in tu.diagnostics if x.severity >= 3]
    if errors:
        e = errors[0]
        where = f"{e.location.file.name}:{e.location.line}: " if e.location.file else ""
        return f"{where}{e.spelling}"
    return None
