"""Snapshot and compare cudalint's JSON findings (refactoring guard, issue 9).

    python benchmarks/compare_findings.py snapshot OUT.json [--frontend F] [--] PATHS...
    python benchmarks/compare_findings.py compare BEFORE.json AFTER.json

``snapshot`` lints PATHS with the cudalint importable by this interpreter (``PYTHONPATH=/other/tree`` runs an
older checkout) through the real CLI (``check --format json --no-cache --exit-zero``) and writes the findings,
sorted, one object per finding.  ``compare`` prints every finding present in one snapshot only, or whose
fields differ, and exits 1 when there is any difference.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import sys


def snapshot(out: str, paths: list[str], frontend: str) -> int:
    from cudalint.cli import main
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        main(["check", "--format", "json", "--no-cache", "--exit-zero", "--frontend", frontend, *paths])
    findings = json.loads(buf.getvalue())
    findings.sort(key=lambda d: (d["path"], d["line"], d["column"], d["code"], d["message"]))
    with open(out, "w") as fh:
        json.dump(findings, fh, indent=1, sort_keys=True)
    print(f"{len(findings)} findings -> {out}")
    return 0


def _normal(d: dict) -> dict:
    """Internal value names (``stride#12``) differ between runs of different code: compare them without
    their counter; the tree-sitter front-end's marker assumption is dropped so that the two front-ends
    compare."""
    d = json.loads(re.sub(r"#\d+", "#", json.dumps(d)))
    d["assumptions"] = [a for a in d["assumptions"] if not a.startswith("modelled by the tree-sitter front-end")]
    return d


def _key(d: dict) -> tuple:
    return (d["path"], d["line"], d["column"], d["code"])


def compare(before: str, after: str) -> int:
    with open(before) as fh:
        a = [_normal(d) for d in json.load(fh)]
    with open(after) as fh:
        b = [_normal(d) for d in json.load(fh)]
    ka: dict = {}
    for d in a:
        ka.setdefault(_key(d), []).append(d)
    kb: dict = {}
    for d in b:
        kb.setdefault(_key(d), []).append(d)
    diffs = 0
    for k in sorted(set(ka) | set(kb)):
        xs, ys = ka.get(k, []), kb.get(k, [])
        if xs == ys:
            continue
        diffs += 1
        print(f"== {k[0]}:{k[1]}:{k[2]} {k[3]}")
        for x in xs:
            if x not in ys:
                print("  - " + json.dumps(x, sort_keys=True))
        for y in ys:
            if y not in xs:
                print("  + " + json.dumps(y, sort_keys=True))
    print(f"{len(a)} findings before, {len(b)} after, {diffs} site(s) differ")
    return 1 if diffs else 0


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("snapshot")
    s.add_argument("out")
    s.add_argument("--frontend", default="clang", choices=["auto", "clang", "tree-sitter"])
    s.add_argument("paths", nargs="+")
    c = sub.add_parser("compare")
    c.add_argument("before")
    c.add_argument("after")
    args = p.parse_args(argv)
    if args.cmd == "snapshot":
        return snapshot(args.out, args.paths, args.frontend)
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
