"""A worker process that dies names the files it may have been reading, in the library and the CLI."""

from __future__ import annotations

import multiprocessing
import os
import signal
from concurrent.futures.process import BrokenProcessPool
from importlib.util import find_spec
from pathlib import Path

import pytest

from clanka_nb.engine import _codebase, chunk_codebase

# The frames layer (and so the command line) is an extra: the engine-alone venv of .ci/run has no pandas.
NEEDS_FRAMES = pytest.mark.skipif(find_spec("pandas") is None, reason="needs the frames extra (pandas)")

pytestmark = pytest.mark.skipif(
    multiprocessing.get_start_method() != "fork", reason="the poisoned loader reaches workers only when they fork"
)

FILES = 40


@pytest.fixture
def poisoned(tmp_path: Path, monkeypatch) -> Path:
    """A tree whose file `f20.ts` kills the worker process that reads it (SIGKILL, as the OOM killer does)."""
    for i in range(FILES):
        (tmp_path / f"f{i:02d}.ts").write_text(f"export const v{i} = {i};\n", encoding="utf-8")
    real = _codebase.parse
    parent = os.getpid()

    def parse(file, languages):
        if file.path == "f20.ts" and os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(file, languages)

    monkeypatch.setattr(_codebase, "parse", parse)
    # Parsed afresh, so every file goes to a worker (a parse cache filled earlier would serve them here).
    monkeypatch.setenv("CLANKA_NB_CACHE", "off")
    return tmp_path


def test_a_killed_worker_names_the_files_it_may_have_held(poisoned: Path) -> None:
    with pytest.raises(BrokenProcessPool, match="worker process died") as raised:
        list(chunk_codebase(poisoned, workers=2))
    message = str(raised.value)
    assert "f20.ts" in message.split(";")[0]  # the dead file is among those named
    assert "workers=1" in message


@NEEDS_FRAMES
def test_the_cli_says_it_in_one_line(poisoned: Path, capsys) -> None:
    from clanka_nb.cli import main

    status = main(["chunk", str(poisoned), "--workers", "2", "--format", "jsonl"])
    err = capsys.readouterr().err
    assert status == 1
    assert err.count("\n") == 1 and err.startswith("clanka-nb: error: a worker process died")
    assert "--workers 1" in err
