"""Notebooks are committed without outputs or execution counts, so diffs show only what a person wrote."""

from __future__ import annotations

import subprocess
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _committed_notebooks() -> list[str]:
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--", "notebooks/*.ipynb"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        listed = []
    # Outside a git checkout (e.g. an sdist), check the files on disk instead.
    return listed or sorted(str(p.relative_to(ROOT)) for p in (ROOT / "notebooks").glob("*.ipynb"))


NOTEBOOKS = _committed_notebooks()


@pytest.mark.parametrize("relative", NOTEBOOKS)
def test_notebook_has_no_outputs_or_counts(relative: str) -> None:
    notebook = nbformat.read(ROOT / relative, as_version=4)
    nbformat.validate(notebook)
    dirty = [
        index
        for index, cell in enumerate(notebook.cells)
        if cell.cell_type == "code" and (cell.outputs or cell.execution_count is not None)
    ]
    assert dirty == [], f"{relative}: cells {dirty} keep outputs; clear them (Edit > Clear Outputs of All Cells)"


@pytest.mark.parametrize("relative", NOTEBOOKS)
def test_notebook_keeps_no_saved_widget_state(relative: str) -> None:
    notebook = nbformat.read(ROOT / relative, as_version=4)
    # JupyterLab saves every live widget's state here when "Save Widget State" is on: kilobytes of noise.
    assert "widgets" not in notebook.metadata, f"{relative}: turn off Settings > Save Widget State Automatically"
