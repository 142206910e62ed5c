"""Every notebook runs top to bottom in a fresh kernel with no error, so none can rot unnoticed, and from a folder
outside the clone: a notebook copied out of the repository (or opened beside a pip install) must run too. The docs
site runs them again inside the clone (`mkdocs build`)."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb"))


def test_the_four_notebooks_exist() -> None:
    names = {path.name for path in PATHS}
    assert {"01-quickstart.ipynb", "02-tuning.ipynb", "03-how-chunking-works.ipynb", "04-semantic-index.ipynb"} <= names


@pytest.mark.slow
@pytest.mark.parametrize("path", PATHS, ids=[path.name for path in PATHS])
def test_notebook_runs_without_errors(path: Path, tmp_path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    outside = tmp_path / "opened-here"  # no clone above it: nothing of the repository can be found from here
    outside.mkdir()
    client = NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(outside)}}
    )
    client.execute()  # raises CellExecutionError, naming the cell, on the first error
    errors = [
        output
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if output.output_type == "error"
    ]
    assert errors == []
    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(cell.execution_count is not None for cell in code_cells), "some code cell did not run"
    # A plot must reach the reader as an image, not as "<Figure size 700x400 with 1 Axes>".
    plots = [cell for cell in code_cells if ".plot_" in cell.source]
    for cell in plots:
        kinds = {kind for output in cell.outputs for kind in output.get("data", {})}
        assert "image/png" in kinds, f"no image from {cell.source.splitlines()[-1]!r}: {sorted(kinds)}"
