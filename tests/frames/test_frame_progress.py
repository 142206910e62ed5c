"""Progress bars: tqdm on stderr when asked, silent when off, hidden for quick work by default."""

from __future__ import annotations

from pathlib import Path

import pytest

import clanka_nb as cn
from clanka_nb import frames
from clanka_nb.engine import progress as _progress

from .conftest import PY_FIVE_LINES


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for i in range(3):
        (tmp_path / f"m{i}.py").write_text(PY_FIVE_LINES)
    return tmp_path


CALLS = {
    "chunk_codebase": lambda root, progress: frames.chunk_codebase(root, workers=1, progress=progress),
    "chunk_files": lambda root, progress: frames.chunk_files(root, ["m0.py"], workers=1, progress=progress),
    "files": lambda root, progress: frames.files(root, workers=1, progress=progress),
    "coverage": lambda root, progress: frames.coverage(root, workers=1, progress=progress),
    "line_coverage": lambda root, progress: frames.line_coverage(root, workers=1, progress=progress),
    "sweep": lambda root, progress: cn.sweep(root, chunk_size=[2, 3], workers=1, progress=progress),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_progress_false_prints_nothing(tree: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    CALLS[name](tree, False)
    assert capsys.readouterr() == ("", "")


@pytest.mark.parametrize("name", list(CALLS))
def test_quick_work_shows_no_bar_by_default(tree: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    CALLS[name](tree, None)
    assert capsys.readouterr() == ("", "")


def test_progress_true_shows_files_read(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    frames.chunk_codebase(tree, workers=1, progress=True)
    err = capsys.readouterr().err
    assert "reading and parsing" in err
    assert "3/3" in err


def test_sweep_bar_counts_settings(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cn.sweep(tree, chunk_size=[2, 3, 4], chunk_overlap=[0, 1], workers=1, progress=True)
    assert "6/6" in capsys.readouterr().err


def test_slow_work_shows_a_bar_after_the_delay(
    tree: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_progress, "AUTO_DELAY_SECONDS", 0.0)  # as if the work had taken over a second
    monkeypatch.setattr(_progress, "_watched", lambda: True)  # stderr a terminal (capsys's is not)
    frames.chunk_codebase(tree, workers=1, progress=None)
    assert "reading and parsing" in capsys.readouterr().err


def test_slow_work_writes_no_bar_into_a_pipe_or_a_log(
    tree: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 46 item 13: `python script.py 2>&1 | tee log` got every redraw of the bar as a line.
    monkeypatch.setattr(_progress, "AUTO_DELAY_SECONDS", 0.0)
    assert not _progress._watched()  # capsys's stderr: neither a terminal nor a notebook
    frames.chunk_codebase(tree, workers=1, progress=None)
    assert capsys.readouterr().err == ""
    frames.chunk_codebase(tree, workers=1, progress=True)  # asked for: shown wherever stderr goes
    assert "reading and parsing" in capsys.readouterr().err


def test_bad_progress_value_names_the_choices(tree: Path) -> None:
    with pytest.raises(TypeError, match="progress must be True, False or None"):
        frames.chunk_codebase(tree, workers=1, progress="yes")  # type: ignore[arg-type]
