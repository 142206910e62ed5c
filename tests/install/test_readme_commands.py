"""The README's two commands work on a fresh clone in a fresh virtual environment.

Followed literally, with two substitutions so the test ends: `clanka-nb lab` runs with `--dry-run`
(it prints the JupyterLab command instead of starting a server that never exits; tests/cli shows the
server starts), and `python -m pytest` runs two files of the clone's suite (the engine's rules, and the frames'
export, which needs the extras) rather than the whole suite again from inside the suite: that the command installs
a suite that runs is the point here, and three venvs of .ci/run run the engine's tests already (this test ran
them all too until 2026-12; .ci/run's venv without extras takes 28-40 s for them). See conftest.py for how the
venv reuses installed wheels.
`.[test]` brings no torch, so the command works on a machine with no local torch wheel.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SETUP = 'python -m pip install -e ".[lab]" && clanka-nb lab'
TESTS = 'python -m pip install -e ".[test]" && python -m pytest'


def test_the_readme_gives_these_two_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert SETUP in readme
    assert TESTS in readme


@pytest.mark.slow
def test_readme_commands_in_a_fresh_venv(clone: Path, venv) -> None:  # venv: conftest.Venv
    setup = SETUP.replace("clanka-nb lab", "clanka-nb lab --dry-run")
    printed = venv.run(setup, cwd=clone).stdout.strip().splitlines()[-1]
    command = shlex.split(printed)
    assert Path(command[0]).parent == venv.path / "bin"  # JupyterLab would run with the venv's Python
    assert command[1:3] == ["-m", "jupyterlab"]
    assert f"--ServerApp.root_dir={clone / 'notebooks'}" in command

    where = venv.run(["python", "-c", "import clanka_nb; print(clanka_nb.__file__)"], cwd=clone.parent).stdout
    assert Path(where.strip()).is_relative_to(clone)  # the editable install points at the clone

    run = "python -m pytest tests/engine/test_rules.py tests/frames/test_frame_export.py -q -x -p no:cacheprovider"
    tests = TESTS.replace("python -m pytest", run)
    summary = venv.run(tests, cwd=clone).stdout.strip().splitlines()[-1]
    assert " passed" in summary and "failed" not in summary
