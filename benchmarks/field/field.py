"""Field tests on public CUDA code: lint a checkout, draw a random sample of findings, summarise judgments.

    python benchmarks/field/field.py lint CHECKOUT --repository OWNER/NAME --out F.json [-- CUDALINT ARGS]
    python benchmarks/field/field.py sample F.json [F2.json ...] --n 100 --seed 10 --out SAMPLE.jsonl
    python benchmarks/field/field.py summary JUDGMENTS.jsonl [...]
    python benchmarks/field/field.py gpuverify GPUVERIFY_CHECKOUT --out F.jsonl

``gpuverify`` lints every kernel of GPUVerify's testsuite/CUDA with its own ``--blockDim`` and lists, per
file, its expected verdict (``//pass``: no divergent barrier; ``//xfail``: the reason follows) and the
CL301/CL302 findings: a ``//pass`` file with a CL301 is a false finding unless it rests on a precondition
only GPUVerify can see (``__requires``).

``lint`` runs ``cudalint check --format json`` in the checkout (paths relative to it) and stores the findings
with the repository's name and commit.  ``sample`` draws, with a fixed seed, findings of severity warning or
error (``--all-severities`` for info too; ``--code`` to restrict), one line of JSON each, ready to be judged:
a judge adds ``verdict`` (true / false / debatable) and ``reason``.  Only the judgments are committed
(``benchmarks/field/*.jsonl``: repository, commit, path, line, code, verdict, reason; never the code).
``summary`` prints the verdicts per code and in all.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import subprocess
import sys
from pathlib import Path

KEEP = ("repository", "commit", "path", "line", "code", "severity", "message", "metrics", "assumptions")


def lint(checkout: str, repository: str, out: str, extra: list[str]) -> int:
    commit = subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"], capture_output=True, text=True,
                            check=True).stdout.strip()
    r = subprocess.run([sys.executable, "-m", "cudalint", "check", "--format", "json", "--no-cache",
                        "--exit-zero", *extra, "."], cwd=checkout, capture_output=True, text=True)
    if r.returncode not in (0, 2) or not r.stdout.strip():  # 2 with output: an internal error on some file
        sys.stderr.write(r.stderr)
        return r.returncode or 1
    findings = json.loads(r.stdout)
    for d in findings:
        d["repository"], d["commit"] = repository, commit
    Path(out).write_text(json.dumps(findings, indent=1))
    counts = collections.Counter(d["code"] for d in findings)
    print(f"{len(findings)} findings in {repository}@{commit[:10]}: {dict(sorted(counts.items()))}")
    return 0


def sample(files: list[str], n: int, seed: int, out: str, all_severities: bool, codes: list[str]) -> int:
    pool = []
    for f in files:
        for d in json.loads(Path(f).read_text()):
            if not all_severities and d["severity"] not in ("warning", "error"):
                continue
            if codes and d["code"] not in codes:
                continue
            pool.append({k: d.get(k) for k in KEEP})
    pool.sort(key=lambda d: (d["repository"], d["path"], d["line"], d["code"]))
    picked = random.Random(seed).sample(pool, min(n, len(pool)))
    with open(out, "w") as fh:
        for d in picked:
            fh.write(json.dumps(d) + "\n")
    print(f"{len(picked)} of {len(pool)} findings -> {out}")
    return 0


def summary(files: list[str]) -> int:
    rows = [json.loads(line) for f in files for line in Path(f).read_text().splitlines() if line.strip()]
    by_code: dict = collections.defaultdict(collections.Counter)
    for r in rows:
        by_code[r["code"]][r["verdict"]] += 1
        by_code["all"][r["verdict"]] += 1
    for code in sorted(by_code, key=lambda c: (c == "all", c)):
        c = by_code[code]
        total = sum(c.values())
        print(f"{code:6} {total:4d} judged: {c['true']:3d} true ({c['true'] / total:.0%}), "
              f"{c['debatable']:3d} debatable, {c['false']:3d} false ({c['false'] / total:.0%})")
    return 0


def gpuverify(checkout: str, out: str) -> int:
    import re
    root = Path(checkout) / "testsuite" / "CUDA"
    rows = []
    for f in sorted(root.rglob("*.cu")):
        head = f.read_text(errors="replace").splitlines()[:3] + ["", ""]
        verdict = head[0].strip().lstrip("/").split()[0] if head[0].startswith("//") else "?"
        m = re.search(r"--blockDim=\[?(\d+)(?:,(\d+))?(?:,(\d+))?", head[1])
        extra = ["--block-dim", ",".join(g for g in m.groups() if g)] if m else []
        r = subprocess.run([sys.executable, "-m", "cudalint", "check", "--format", "json", "--no-cache",
                            "--exit-zero", "--select", "CL301,CL302", *extra, f.name], cwd=f.parent,
                           capture_output=True, text=True)
        found = json.loads(r.stdout) if r.stdout.strip() else []  # rc 2 with output: an internal error
        rows.append({"path": str(f.relative_to(Path(checkout))), "expected": verdict,
                     "reason": head[1].strip() if verdict == "xfail" else "",
                     "findings": [(d["code"], d["line"]) for d in found if d["code"] in ("CL301", "CL302")]})
    Path(out).write_text("".join(json.dumps(r) + "\n" for r in rows))
    for v in sorted({r["expected"] for r in rows}):
        got = [r for r in rows if r["expected"] == v]
        hit = [r for r in got if any(c == "CL301" for c, _ in r["findings"])]
        print(f"{v:6} {len(got):4d} files, {len(hit):3d} with CL301: {[r['path'] for r in hit] if v == 'pass' else ''}")
    return 0


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("lint")
    a.add_argument("checkout")
    a.add_argument("--repository", required=True)
    a.add_argument("--out", required=True)
    a.add_argument("extra", nargs="*")
    s = sub.add_parser("sample")
    s.add_argument("files", nargs="+")
    s.add_argument("--n", type=int, default=100)
    s.add_argument("--seed", type=int, required=True)
    s.add_argument("--out", required=True)
    s.add_argument("--all-severities", action="store_true")
    s.add_argument("--code", action="append", default=[])
    m = sub.add_parser("summary")
    m.add_argument("files", nargs="+")
    g = sub.add_parser("gpuverify")
    g.add_argument("checkout")
    g.add_argument("--out", required=True)
    args = p.parse_args(argv)
    if args.cmd == "gpuverify":
        return gpuverify(args.checkout, args.out)
    if args.cmd == "lint":
        return lint(args.checkout, args.repository, args.out, args.extra)
    if args.cmd == "sample":
        return sample(args.files, args.n, args.seed, args.out, args.all_severities, args.code)
    return summary(args.files)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
