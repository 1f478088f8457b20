"""Profile already-built programs on the device with cudalint's own ncu invocation (cudalint.fidelity.profile and
export: the first launch of each kernel, source counters) and pack their source and launch pages:

    python3 benchmarks/fidelity/profile_programs.py PROGRAMS.txt OUT.tar

PROGRAMS.txt: one program a line, ``name | working directory | command line`` (``#`` comments; ``$F`` and other
variables are expanded: the folder the build scripts wrote).  Needs no
cudalint dependency (only the standard library).  The pages are joined with cudalint's predictions where the
sources are (``cudalint verify --report NAME.source.csv PATHS``): benchmarks/fidelity/README.md.
"""
import os
import sys
import tarfile
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))
from cudalint.fidelity import FidelityError, export, profile  # noqa: E402


def main(listing: str, out: str) -> int:
    work = tempfile.mkdtemp()
    names = []
    for raw in open(listing):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        name, cwd, command = (x.strip() for x in raw.split("|", 2))
        report = os.path.join(work, name + ".ncu-rep")
        t = time.time()
        here = os.getcwd()
        try:
            os.chdir(os.path.expandvars(cwd))
            profile(os.path.expandvars(command), report, timeout=150)
            src, raw_page = export(report)
            open(os.path.join(work, name + ".source.csv"), "w").write(src)
            open(os.path.join(work, name + ".raw.csv"), "w").write(raw_page)
            names += [name + ".source.csv", name + ".raw.csv"]
            with tarfile.open(out, "a") as tar:   # kept as it grows: a run cut short keeps what it finished
                for n in names[-2:]:
                    tar.add(os.path.join(work, n), arcname=n)
            print(f"{name}: {src.count('Function Name')} sections, {time.time() - t:.0f} s", flush=True)
        except (FidelityError, OSError) as e:
            print(f"{name}: FAILED {e}", flush=True)
        finally:
            os.chdir(here)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
