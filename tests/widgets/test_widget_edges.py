"""Every viewer opens on a folder with nothing to chunk, and says so instead of failing."""

from __future__ import annotations

from pathlib import Path

import pytest

from clanka_nb.widgets import browse, compare, preview, tune


@pytest.fixture
def nothing(tmp_path: Path) -> Path:
    (tmp_path / "blank.ts").write_text("   \n\n")
    (tmp_path / "image.png").write_bytes(b"\x89PNG")
    return tmp_path


def test_browse_an_empty_codebase(nothing: Path) -> None:
    opened = browse(nothing)
    assert opened.frame.empty and opened.file_list.options == ()
    assert opened.preview.preview is None
    assert "0 of 0 chunks match" in opened.status.value


def test_tune_an_empty_codebase(nothing: Path) -> None:
    panel = tune(nothing)
    assert panel.model.stats["chunks"] == 0 and panel.model.stats["coverage"] is None
    assert panel.file_picker.value is None and panel.preview.preview is None
    panel.chunk_size.value = 5
    assert panel.model.stats["chunk_size"] == 5
    assert "(0 chunks)" in panel.histogram.value


def test_compare_an_empty_codebase(nothing: Path) -> None:
    view = compare(nothing, a={}, b={"chunk_size": 5})
    assert view.model.changes.empty and view.left is None
    assert "no file with lines" in view.summary.value


def test_preview_an_empty_codebase(nothing: Path) -> None:
    with pytest.raises(ValueError, match="no file with lines to preview"):
        preview(nothing)
    blank = preview(nothing, "blank.ts")
    assert blank.lines == [] and "No lines to show." in blank.html
    assert "the file is empty" in blank.html
