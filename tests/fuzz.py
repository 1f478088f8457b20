"""Mutation fuzzing of the whole pipeline (issue 15): mutants of the fixtures and of ``tests/corpus/`` through
both front-ends and every rule; any internal error (a CL000 naming an exception) is a failure.

    python tests/fuzz.py [--mutants N] [--seed S] [--frontend clang|tree-sitter|both]   # the long mode

``tests/test_fuzz.py`` runs a fixed-seed sample in CI.  Mutations: truncation, line deletion and duplication,
brace and bracket flips, macro garbage, deep nesting, huge literals and shifts, NUL bytes, invalid UTF-8, CRLF
mixes, token swaps.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEEDS = sorted([*ROOT.glob("fixtures/*/*.cu"), *ROOT.glob("fixtures/*/*.cuh"), *ROOT.glob("tests/corpus/*.cu")])


def _lines(b: bytes) -> list[bytes]:
    return b.split(b"\n")


def mutate(src: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One mutant of ``src``: (the mutation's name, the bytes)."""
    lines = _lines(src)
    i = rng.randrange(len(lines))
    op = rng.choice(["truncate", "delete", "duplicate", "brace", "macro", "nest", "literal", "nul", "utf8",
                     "crlf", "swap", "shift"])
    if op == "truncate":
        return op, src[:rng.randrange(len(src) + 1)]
    if op == "delete":
        return op, b"\n".join(lines[:i] + lines[i + rng.randint(1, 3):])
    if op == "duplicate":
        return op, b"\n".join(lines[:i + 1] + lines[i:i + rng.randint(1, 4)] + lines[i + 1:])
    if op == "brace":
        pairs = [(b"{", b"}"), (b"}", b"{"), (b"(", b")"), (b"[", b"]"), (b")", b"("), (b"<<<", b">>>")]
        a, b = rng.choice(pairs)
        return op, b"\n".join(lines[:i] + [lines[i].replace(a, b, 1)] + lines[i + 1:])
    if op == "macro":
        junk = rng.choice([b"#define threadIdx blockIdx", b"#define x y", b"#define __syncthreads() return",
                           b"#define if while", b"#define float int", b"#define TILE", b"#define int",
                           b"#undef __global__", b"#define for(a) if(a)", b"#if 1"])
        return op, b"\n".join(lines[:i] + [junk] + lines[i:])
    if op == "nest":
        depth = rng.choice([50, 200, 600])
        kind = rng.choice([(b"(", b")"), (b"{", b"}"), (b"if (threadIdx.x) {", b"}")])
        return op, b"\n".join(lines[:i] + [kind[0] * depth + kind[1] * depth] + lines[i:])
    if op == "literal":
        big = rng.choice([b"18446744073709551616", b"99999999999999999999999999", b"0x7fffffffffffffffffff",
                          b"1e999", b"-2147483648"])
        return op, b"\n".join(lines[:i] + [rng.choice([b"", b"__global__ void z(int *a) { a["]) + big
                                           + rng.choice([b"", b"] = 0; }"])] + lines[i:])
    if op == "shift":
        return op, src.replace(b"threadIdx.x", b"(threadIdx.x << 4000000000)", 1)
    if op == "nul":
        at = rng.randrange(len(src) + 1)
        return op, src[:at] + b"\0" + src[at:]
    if op == "utf8":
        at = rng.randrange(len(src) + 1)
        return op, src[:at] + rng.choice([b"\xff\xfe", b"\xc3", b"\xed\xa0\x80"]) + src[at:]
    if op == "crlf":
        return op, b"\n".join(ln + b"\r" if rng.random() < 0.5 else ln for ln in lines)
    # swap two tokens of a line
    toks = lines[i].split(b" ")
    if len(toks) > 2:
        a, b = rng.sample(range(len(toks)), 2)
        toks[a], toks[b] = toks[b], toks[a]
    return op, b"\n".join(lines[:i] + [b" ".join(toks)] + lines[i + 1:])


def run(mutants: int, seed: int, frontends: list[str], jobs: int = 2, timeout: float = 60.0,
        out=sys.stdout) -> list[tuple[str, str, str, str]]:
    """Lint ``mutants`` mutants (seed ``seed``) through each front-end in worker processes (a crash or a file
    past ``timeout`` seconds is an internal error too); return the internal errors as (seed file, mutation,
    front-end, message)."""
    from cudalint.parallel import lint_many
    from cudalint.runner import RunOptions
    rng = random.Random(seed)
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        made = {}
        for n in range(mutants):
            seed_file = rng.choice(SEEDS)
            op, data = mutate(seed_file.read_bytes(), rng)
            p = Path(tmp) / f"m{n}{seed_file.suffix}"
            p.write_bytes(data)
            made[str(p)] = (str(seed_file.relative_to(ROOT)), op)
        for fe in frontends:
            found = lint_many([(p, RunOptions(frontend=fe)) for p in made], jobs=jobs, timeout=timeout)
            for d in (d for d in found if d.internal):
                origin, op = made.get(d.path, (d.path, "?"))
                failures.append((origin, op, fe, d.message))
                print(f"{origin} {op} {fe}: {d.message}", file=out)
    return failures


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mutants", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--frontend", choices=["clang", "tree-sitter", "both"], default="both")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args(argv)
    fes = ["clang", "tree-sitter"] if a.frontend == "both" else [a.frontend]
    failures = run(a.mutants, a.seed, fes, jobs=a.jobs)
    print(f"{len(failures)} internal errors in {a.mutants} mutants x {len(fes)} front-end(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
