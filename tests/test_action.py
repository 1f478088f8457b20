"""The composite GitHub Action (action.yml): its structure, and that no input is spliced into a script."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
ACTION = yaml.safe_load((ROOT / "action.yml").read_text())


def test_a_composite_action_that_installs_this_repository():
    assert ACTION["runs"]["using"] == "composite"
    assert set(ACTION["inputs"]) == {"paths", "args", "sarif", "python-version"}
    steps = ACTION["runs"]["steps"]
    install = next(s for s in steps if s.get("name") == "Install cudalint")
    assert install["env"]["CUDALINT_SOURCE"] == "${{ github.action_path }}"
    assert '"$CUDALINT_SOURCE"' in install["run"]
    annotate = next(s for s in steps if s.get("name") == "Annotate the pull request")
    assert "cudalint check --format github" in annotate["run"]
    upload = steps[-1]
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["with"]["sarif_file"] == "cudalint.sarif"


def test_every_script_step_names_its_shell_and_takes_inputs_only_through_the_environment():
    """GitHub requires `shell` on a composite action's run steps; an `${{ inputs.x }}` inside a script would let
    a workflow's input (or a pull request title passed to it) inject commands."""
    for step in ACTION["runs"]["steps"]:
        if "run" in step:
            assert step["shell"] == "bash"
            assert not re.search(r"\$\{\{", step["run"]), step["run"]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_the_scripts_split_paths_and_arguments_without_evaluating_them(tmp_path):
    """The annotate step's script, run by bash with a stand-in `cudalint`, receives the inputs as words: a `$(...)`
    or `;` in an input stays text."""
    step = next(s for s in ACTION["runs"]["steps"] if s.get("name") == "Annotate the pull request")
    stub = tmp_path / "bin"
    stub.mkdir()
    (stub / "cudalint").write_text('#!/bin/sh\nfor a in "$@"; do printf "[%s]" "$a"; done\n')
    (stub / "cudalint").chmod(0o755)
    env = {"PATH": f"{stub}:/usr/bin:/bin", "CUDALINT_PATHS": "src kernels/a.cu",
           "CUDALINT_ARGS": "--select CL3 $(touch pwned); rm -rf x"}
    out = subprocess.run(["bash", "-c", step["run"]], env=env, cwd=tmp_path, capture_output=True, text=True,
                         check=True).stdout
    assert out == ("[check][--format][github][--no-progress][--select][CL3][$(touch][pwned);][rm][-rf][x]"
                   "[src][kernels/a.cu]")
    assert not (tmp_path / "pwned").exists()
