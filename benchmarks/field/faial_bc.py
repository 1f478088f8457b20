"""cudalint against faial's expected costs (elliotsayes/faial, examples/bc/test.ml), as data.

    python benchmarks/field/faial_bc.py FAIAL_CHECKOUT > benchmarks/field/faial_bc.jsonl

faial's ``bc_tests`` give a kernel's total bank-conflict cost (ways - 1 per shared access, summed over the
accesses and loop trips) and, for ``ua-*`` files, the sectors of a global access; ``per_request_tests``
give the ways of one request.  Each row holds faial's number, cudalint's worst ways (CL201) or sectors per
request (CL101), and ``agree`` where the two are comparable (single accesses without loops or symbolic
costs; for global accesses, only those cudalint reports).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path


def main(checkout: str) -> int:
    bc = Path(checkout) / "examples" / "bc"
    commit = subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    text = (bc / "test.ml").read_text()
    per_request = text.split("let bc_tests")[0]
    for f, opts, cost in re.findall(r'"([\w\-.]+\.cu)", \[([^\]]*)\], "(\d+)"', text):
        m = re.search(r'--blockDim=\[?(\d+)(?:,(\d+))?', opts) or re.search(r'"--block-dim"; "(\d+)"', opts)
        block = ",".join(g for g in m.groups() if g) if m else None
        if '"-p"' in opts or "gridDim=2" in opts:
            continue  # parameters bound on faial's command line: no cudalint equivalent
        code = "CL101" if f.startswith("ua-") else "CL201"
        r = subprocess.run([sys.executable, "-m", "cudalint", "check", "--format", "json", "--no-cache",
                            "--exit-zero", "--select", code, *(["--block-dim", block] if block else []), f],
                           cwd=bc, capture_output=True, text=True)
        found = json.loads(r.stdout)
        only = "reads" if "only-reads" in opts else "writes" if "only-writes" in opts else None
        if only:
            found = [d for d in found if d["message"].split(" on ")[-1].startswith("load") == (only == "reads")]
        if code == "CL201":
            ours = max([d["metrics"]["bank_conflict_ways"] for d in found], default=1)
            want = int(cost) if only else int(cost) + 1  # per request: ways; total: ways - 1
        else:
            ours = max([d["metrics"]["sectors_per_request"] for d in found], default=4)
            want = int(cost)
        # comparable: one access, no loop or symbolic cost; for global accesses only where cudalint reports
        # (it does not report a run-time offset as misaligned, faial costs its worst case: issue 10, cause 7)
        single = (only is not None or not re.search(r"loop|ifs|unkn|assume|data-dep", f)) \
            and (code == "CL201" or bool(found))
        print(json.dumps({"repository": "elliotsayes/faial", "commit": commit, "path": f"examples/bc/{f}",
                          "faial_options": opts, "block_dim": block, "code": code, "faial": int(cost),
                          "faial_as_cudalint": want, "cudalint": ours, "agree": ours == want if single else None}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
