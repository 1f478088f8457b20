"""The real pre-commit hook (``.pre-commit-hooks.yaml``) run by the real ``pre-commit try-repo``.

try-repo clones this checkout at its committed HEAD (``--ref``: uncommitted work in the checkout is left
out, so the test sees what a user's ``rev:`` would), builds cudalint into a fresh virtualenv under
``PRE_COMMIT_HOME`` and runs hook ``cudalint`` on the files of a throw-away git repository.  The first run
builds the environment (a minute or two); the later ones reuse it.
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
    for cmd in (["git", "init", "-q"], ["git", "add", "."]):
        subprocess.run(cmd, cwd=repo, env=env, check=True, capture_output=True)
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, env=env, capture_output=True, text=True)
    if head.returncode != 0:
        pytest.fail(f"{ROOT} is not a git checkout with a commit, which pre-commit try-repo needs: {head.stderr}")
    return repo, env, head.stdout.strip()


def try_repo(project, *files):
    repo, env, ref = project
    cmd = [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "cudalint", "--ref", ref,
           "--color", "never", "--verbose", "--files", *files]
    p = subprocess.run(cmd, cwd=repo, env=env, capture_output=True, text=True, timeout=900)
    return p.returncode, p.stdout + p.stderr


def test_hook_fails_on_the_faulty_kernel_with_the_finding(project):
    code, out = try_repo(project, "faulty.cu")
    assert code == 1, out
    assert "cudalint" in out and "Failed" in out, out
    assert "faulty.cu:2:5: CL101 [uncoalesced-global-access]" in out, out
    assert "32 sectors per request instead of 4" in out, out


def test_hook_passes_on_the_clean_kernel(project):
    code, out = try_repo(project, "clean.cu")
    assert code == 0, out
    assert "Passed" in out and "CL101" not in out, out


def test_hook_skips_files_that_are_not_cuda(project):
    code, out = try_repo(project, "notes.txt")
    assert code == 0, out
    assert "(no files to check)Skipped" in out.replace(".", ""), out
