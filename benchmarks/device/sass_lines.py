"""Summarise `nvdisasm --print-line-info` output (benchmarks/device/measure_fixtures.sh) as the memory
instructions nvcc emitted for each source line of each fixture.

    python benchmarks/device/sass_lines.py SASS_DIR > fixtures/measured/sass_lines.json

Output: {"<family>__<stem>": {"<line>": ["LDG.E.64.CONSTANT", "STG.E", ...]}} -- the evidence for the access
sizes cudalint assumes nvcc emits (cudalint/analysis/merge.py: merged vector accesses).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

_LINE = re.compile(r'## File "([^"]+)", line (\d+)')
_MEM = re.compile(r"\b((?:LDG|STG|LDS|STS|LDL|STL|LDC|ATOMS|ATOMG|RED)(?:\.[A-Z0-9_]+)*)\b")


def lines_of(text: str, stem: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    line = None
    for row in text.splitlines():
        m = _LINE.search(row)
        if m:
            line = m.group(2) if Path(m.group(1)).stem == stem else None
            continue
        m = _MEM.search(row)
        if m and line is not None:
            out.setdefault(line, []).append(m.group(1))
    return dict(sorted(out.items(), key=lambda kv: int(kv[0])))


def main(sass_dir: str) -> int:
    result = {}
    for f in sorted(Path(sass_dir).glob("*.sass")):
        result[f.stem] = lines_of(f.read_text(errors="replace"), f.stem.split("__", 1)[1])
    json.dump(result, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
