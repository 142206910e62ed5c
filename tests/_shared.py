"""Helpers more than one test folder uses: where the reference's conformance set lies (and the one wording of
their skip), a clone of clanka's history from the bundle, and the command run in-process."""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
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


def as_in_a_terminal() -> None:
    """A child's `preexec_fn`: SIGINT delivered as a terminal delivers Ctrl-C, neither ignored nor blocked.

    Both are inherited: a shell without job control starts its background commands with SIGINT ignored, and a
    Python started so never installs its KeyboardInterrupt handler. What the tests check is how clanka-nb
    behaves under a real Ctrl-C, wherever the suite itself was started."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextmanager
def ctrl_c_raises() -> Iterator[None]:
    """In this process, for the block: SIGINT raises KeyboardInterrupt in the main thread (Python's own handler,
    unblocked), as in an interactive session, even where the suite was started with SIGINT ignored."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    mask = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        signal.signal(signal.SIGINT, before)
