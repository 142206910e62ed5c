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
# A notebook that must end on what a reader acts on: its last cell is code, whose Markdown output holds these.
ENDS_ON = {
    # Issue 53: the answer's sentence for each codebase and the snippet that applies it in clanka (both runs keep or
    # change clanka's setting; clanka's own code in clanka mode gets the SemanticSearch snippet).
    "09-what-to-tell-clanka.ipynb": ("**clanka's own code, clanka mode**: ", " clanka's setting", "```ts\n",
                                     "SemanticSearch.layer({ directory, chunkMaxCharacters: ", "**other library, "),
}


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
    if path.name in ENDS_ON:
        last = notebook.cells[-1]
        assert last.cell_type == "code", f"{path.name} must end on its answer's cell, not on prose after it"
        shown = "".join(output.get("data", {}).get("text/markdown", "") for output in last.outputs)
        missing = [text for text in ENDS_ON[path.name] if text not in shown]
        assert missing == [], f"{path.name} ends on {shown[:300]!r}, without {missing}"
    # A plot must reach the reader as an image, not as "<Figure size 700x400 with 1 Axes>".
    plots = [cell for cell in code_cells if ".plot_" in cell.source]
    for cell in plots:
        kinds = {kind for output in cell.outputs for kind in output.get("data", {})}
        assert "image/png" in kinds, f"no image from {cell.source.splitlines()[-1]!r}: {sorted(kinds)}"
