"""The real pre-commit hook (``.pre-commit-hooks.yaml``) run by the real ``pre-commit run``, as a user's repository runs it.

The throw-away git repository's ``.pre-commit-config.yaml`` names this checkout at its committed HEAD (uncommitted
work in the checkout is left out, so the test sees what a user's ``rev:`` would); pre-commit clones it, builds
cudalint into a fresh virtualenv under ``PRE_COMMIT_HOME`` and runs hook ``cudalint`` on the given files.  The first
run builds the environment (15 s to a minute or two); the later ones reuse it (the module's tests share one worker,
``xdist_group``: ``pre-commit try-repo`` cloned and built it again for every run).
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FAULTY = ("__global__ void scale(float* a) {\n"
          "    a[32 * threadIdx.x] = 2.0f * a[32 * threadIdx.x];\n"
          "}\n")
CLEAN = ("__global__ void scale(float* a) {\n"
         "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "    a[i] = 2.0f * a[i];\n"
         "}\n")

try:
    import pre_commit  # noqa: F401
    HAVE_PRE_COMMIT = True
except ImportError:
    HAVE_PRE_COMMIT = False

pytestmark = [
    pytest.mark.skipif(not HAVE_PRE_COMMIT, reason="pre-commit is not installed (it is in the dev extra)"),
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
    pytest.mark.xdist_group("precommit"),
]


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    base = tmp_path_factory.mktemp("precommit")
    repo = base / "project"
    repo.mkdir()
    (repo / "faulty.cu").write_text(FAULTY)
    (repo / "clean.cu").write_text(CLEAN)
    (repo / "notes.txt").write_text("not CUDA\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") and k != "PRE_COMMIT"}
    env.update(PRE_COMMIT_HOME=str(base / "cache"), GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com", NO_COLOR="1")
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, env=env, capture_output=True, text=True)
    if head.returncode != 0:
        pytest.fail(f"{ROOT} is not a git checkout with a commit, which pre-commit needs: {head.stderr}")
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {ROOT.as_uri()}\n  rev: {head.stdout.strip()}\n  hooks:\n  - id: cudalint\n")
    for cmd in (["git", "init", "-q"], ["git", "add", "."]):
        subprocess.run(cmd, cwd=repo, env=env, check=True, capture_output=True)
    return repo, env


def run_hook(project, *files):
    repo, env = project
    cmd = [sys.executable, "-m", "pre_commit", "run", "cudalint", "--color", "never", "--verbose", "--files", *files]
    p = subprocess.run(cmd, cwd=repo, env=env, capture_output=True, text=True, timeout=900)
    return p.returncode, p.stdout + p.stderr


@pytest.mark.slow
def test_hook_fails_on_the_faulty_kernel_with_the_finding(project):
    code, out = run_hook(project, "faulty.cu")
    assert code == 1, out
    assert "cudalint" in out and "Failed" in out, out
    assert "faulty.cu:2:5: CL101 [uncoalesced-global-access]" in out, out
    assert "32 sectors per request instead of 4" in out, out


def test_hook_passes_on_the_clean_kernel(project):
    code, out = run_hook(project, "clean.cu")
    assert code == 0, out
    assert "Passed" in out and "CL101" not in out, out


@pytest.mark.slow
def test_hook_skips_files_that_are_not_cuda(project):
    code, out = run_hook(project, "notes.txt")
    assert code == 0, out
    assert "(no files to check)Skipped" in out.replace(".", ""), out
