"""The browser's file list in a real JupyterLab: clicking a file lists only its chunks in the table."""

from __future__ import annotations

import nbformat
import pytest

from clanka_nb import frames, sample_codebase

from ._lab import LabServer, open_and_run_all

pytestmark = pytest.mark.browser

PANEL = "#jp-main-dock-panel .jp-NotebookPanel:not(.lm-mod-hidden)"
BROWSER = f"{PANEL} .clanka-browser"
PATH_CELLS = f"{BROWSER} [data-clanka=table] [data-col=path]"


def test_clicking_a_file_filters_the_table(browser_page, lab_server: LabServer) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell("import clanka_nb as cn\ncn.browse()")]
    nbformat.write(nb, lab_server.root_dir / "files.ipynb")
    page = browser_page
    page.set_viewport_size({"width": 1400, "height": 1200})
    open_and_run_all(page, lab_server, "files.ipynb")
    page.locator(BROWSER).wait_for(state="visible", timeout=15_000)
    assert len(set(page.locator(PATH_CELLS).all_inner_texts())) > 1  # every file's chunks at first

    chunks = frames.chunk_codebase(sample_codebase(), progress=False)
    models = int((chunks["path"] == "src/models.ts").sum())
    page.locator(f"{BROWSER} .widget-select select option").filter(has_text="src/models.ts").click()
    page.wait_for_function(
        """([sel, preview]) => { const cells = [...document.querySelectorAll(sel)];
            const shown = document.querySelector(preview);
            return cells.length > 0 && cells.every((c) => c.innerText.trim() === 'src/models.ts')
                && shown && shown.dataset.path === 'src/models.ts'; }""",
        arg=[PATH_CELLS, f"{BROWSER} [data-clanka=preview]"],
        timeout=10_000,
    )
    assert f"{models} of {len(chunks)} chunks match, in src/models.ts" in page.locator(BROWSER).inner_text()

    page.locator(f"{BROWSER} .widget-select select option").filter(has_text="(all files)").click()
    page.wait_for_function(
        "(sel) => new Set([...document.querySelectorAll(sel)].map((c) => c.innerText.trim())).size > 1",
        arg=PATH_CELLS,
        timeout=10_000,
    )
