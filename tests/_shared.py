"""Helpers more than one test folder uses: where the reference's conformance set lies (and the one wording of
their skip), a clone of clanka's history from the bundle, and the command run in-process."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from clanka_nb.cli import main

# The reference's recorded output is kept outside this repository: CI lays it beside the clone.
SHARED_CONFORMANCE = Path(__file__).resolve().parents[1].parent / "shared" / "conformance"
NEEDS_CONFORMANCE = (
    f"needs the reference's conformance set at {SHARED_CONFORMANCE}, beside the clone as CI lays it out "
    "(docs/testing.md names the tests that use it)"
)


# clanka's own git history (MIT), shipped in the package: the churn tests and the commit-message queries read it.
HISTORY_BUNDLE = Path(__file__).resolve().parents[1] / "clanka_nb" / "data" / "clanka-history.bundle"


def clone_history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh clone of clanka's history from the bundle (skipped, naming it, when the bundle is not there)."""
    if not HISTORY_BUNDLE.is_file():
        pytest.skip(f"needs {HISTORY_BUNDLE} (it ships in the package)")
    clone = tmp_path_factory.mktemp("history") / "clanka"
    subprocess.run(["git", "clone", "-q", str(HISTORY_BUNDLE), str(clone)], check=True)
    return clone


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """The `clanka-nb` command run in this process: (exit code, stdout, stderr)."""
    try:
        code = main(list(argv))
    except SystemExit as stop:
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err
