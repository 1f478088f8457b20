"""The per-program agreement table of ``cudalint verify --report`` over saved pages (profile_programs.py):

    cd CHECKOUT && python3 /path/to/benchmarks/fidelity/table.py PAGES_DIR REPOSITORY COMMIT > rows.jsonl

Run from the checkout the programs were built from (the pages name its files; each program's profiled files
under the current directory are linted with the checkout's own configuration).  One JSON line per program with
the totals of :func:`cudalint.fidelity.summary`, then one per access line (``"row"``), never source code.
"""
import json
import os
import sys
from pathlib import Path

from cudalint.fidelity import FidelityError, compare_pages, load_pages, summary


def main(pages: str, repository: str, commit: str) -> int:
    for src in sorted(Path(pages).glob("*.source.csv")):
        name = src.name.removesuffix(".source.csv")
        try:
            rows = compare_pages(*load_pages(str(src)), root=os.getcwd())
        except FidelityError as e:
            print(json.dumps({"program": name, "error": str(e)}))
            continue
        print(json.dumps({"program": name, "repository": repository, "commit": commit, **summary(rows)}))
        for r in rows:
            print(json.dumps({"program": name, "row": {
                "path": os.path.relpath(r.file), "line": r.line, "kernel": r.kernel, "access": f"{r.space} {r.operation}",
                "sass": r.sass, "findings": r.findings, "predicted": r.predicted, "measured": r.measured,
                "verdict": r.verdict, "launches": r.launches}}))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
