"""Third-party rules (plugins) registered on the ``cudalint.rules`` entry-point group, installed for real
(a distribution's metadata on ``PYTHONPATH``) and driven through the command line in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PLUGIN = '''"""# ACME101 kernel-count

## What it does
Reports every kernel once, with the number of functions in the IR of its file.
"""
from cudalint.diagnostics import Diagnostic, Severity
from cudalint.rules import Rule


class KernelCount(Rule):
    code = "ACME101"
    name = "kernel-count"
    default_severity = Severity.WARNING
    summary = "Every kernel, once"

    def check(self, model, ctx):
        for k in model.kernels:
            s = k.span
            yield Diagnostic(code=self.code, name=self.name, severity=self.default_severity, path=s.path,
                             line=s.line, column=s.column, end_line=s.line, end_column=s.column + 1,
                             message=f"kernel {k.name}: {len(k.accesses)} accesses, "
                                     f"{len(model.unit.functions)} functions in the IR",
                             kernel=k.name)


class Clash(KernelCount):
    code = "CL999"


class Twin(KernelCount):
    pass
'''

KERNEL = """__global__ void scale(float* a) {
    a[threadIdx.x] *= 2.0f;
}
int main() { scale<<<1, 32>>>(nullptr); return 0; }
"""


def install(site: Path, entries: dict[str, str]) -> None:
    """A distribution `acme-rules` on ``site`` whose entry points are ``entries`` (name -> object)."""
    site.mkdir(parents=True, exist_ok=True)
    (site / "acme_rules.py").write_text(PLUGIN)
    (site / "broken_rules.py").write_text("raise ImportError('no module named acme_backend')\n")
    info = site / "acme_rules-1.0.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-rules\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[cudalint.rules]\n" + "".join(f"{k} = {v}\n" for k, v in entries.items()))


def run(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(site))
    return subprocess.run([sys.executable, "-m", "cudalint", *args], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=300)


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "k.cu").write_text(KERNEL)
    return tmp_path


def test_plugin_codes_work_like_builtin_ones(project: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    install(site, {"ACME101": "acme_rules:KernelCount"})
    r = run(site, "check", "--no-cache", "--select", "ACME", "k.cu", cwd=project)
    assert r.returncode == 1, r.stderr
    assert r.stdout.splitlines()[0] == ("k.cu:1:1: ACME101 [kernel-count] kernel scale: 1 accesses, "
                                        "2 functions in the IR")
    assert run(site, "check", "--no-cache", "--select", "ACME", "--ignore", "ACME101", "k.cu",
               cwd=project).returncode == 0
    (project / ".cudalint.toml").write_text('select = ["ACME1"]\n')
    r = run(site, "check", "--no-cache", "k.cu", cwd=project)
    assert [ln.split()[1] for ln in r.stdout.splitlines()[:-1]] == ["ACME101"]
    (project / "k.cu").write_text("// cudalint: ignore[ACME101]\n" + KERNEL)
    assert run(site, "check", "--no-cache", "k.cu", cwd=project).returncode == 0
    rules = run(site, "rules", cwd=project).stdout
    assert "ACME101  kernel-count" in rules
    page = run(site, "rule", "acme101", cwd=project)
    assert page.returncode == 0 and page.stdout.startswith("# ACME101 kernel-count")


@pytest.mark.parametrize("entries, message", [
    ({"CL999": "acme_rules:Clash"},
     "cudalint: error: plugin `CL999` (acme_rules:Clash): code CL999 uses the prefix CL, which is cudalint's own"),
    ({"broken": "broken_rules:Rule"},
     "cudalint: error: plugin `broken` (broken_rules:Rule) failed to load: ImportError: no module named acme_backend"),
    ({"ACME101": "acme_rules:KernelCount", "twin": "acme_rules:Twin"},
     "cudalint: error: plugin `twin` (acme_rules:Twin): duplicate rule code ACME101 (also registered by plugin "
     "`ACME101` (acme_rules:KernelCount))"),
])
def test_a_plugin_that_cannot_be_used_is_a_one_line_error(project: Path, tmp_path: Path, entries, message) -> None:
    site = tmp_path / "site"
    install(site, entries)
    for args in (["check", "k.cu"], ["rules"]):
        r = run(site, *args, cwd=project)
        assert r.returncode == 2
        assert r.stderr == message + "\n"
        assert r.stdout == ""


def test_the_language_server_says_a_broken_plugin_on_each_document(project: Path, tmp_path: Path) -> None:
    # `cudalint lsp` starts without loading the rules (its process answers the editor; its workers lint): a plugin
    # that cannot be used is a CL000 on each document they lint, naming it, and the server keeps running
    site = tmp_path / "site"
    install(site, {"broken": "broken_rules:Rule"})
    code = ("import json, sys\nfrom cudalint.lsp import lint_document\n"
            "d = lint_document(sys.argv[1], open(sys.argv[1]).read())\n"
            "print(json.dumps([(x.code, x.message) for x in d]))\n")
    r = subprocess.run([sys.executable, "-c", code, str(project / "k.cu")], capture_output=True, text=True,
                       cwd=project, env=dict(os.environ, PYTHONPATH=str(site)), timeout=300)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == [["CL000", "cudalint failed on this document (RuleError: plugin `broken` "
                                              "(broken_rules:Rule) failed to load: ImportError: no module named "
                                              "acme_backend)"]]
