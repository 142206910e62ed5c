"""The search panel of notebooks/04-semantic-index.ipynb in a real JupyterLab: type a query, see hits and the chunk."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import clanka_nb as cn
from clanka_nb.index import SemanticIndex, VectorCache, embedders

from ._lab import LabServer, open_and_run_all

pytestmark = pytest.mark.browser
pytest.importorskip("apsw")

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "04-semantic-index.ipynb"
PANEL = "#jp-main-dock-panel .jp-NotebookPanel:not(.lm-mod-hidden)"
SEARCH = f"{PANEL} .clanka-search"


def test_typing_a_query_in_the_search_panel(browser_page, lab_server: LabServer, artifacts_dir: Path) -> None:
    page = browser_page
    page.set_viewport_size({"width": 1300, "height": 1500})
    shutil.copy(NOTEBOOK, lab_server.root_dir / NOTEBOOK.name)
    open_and_run_all(page, lab_server, NOTEBOOK.name, timeout=240.0)
    panel = page.locator(SEARCH)
    panel.wait_for(state="visible", timeout=15_000)
    errors = page.locator(f'{PANEL} .jp-OutputArea-output[data-mime-type="application/vnd.jupyter.error"]')
    assert errors.count() == 0, errors.all_inner_texts()

    query = "validate an isbn checksum"
    box = panel.locator("input[type=text]").first
    box.fill(query)
    box.press("Enter")
    # The same query against the same index, built here with the notebook's stand-in embedder.
    index = SemanticIndex(cn.sample_codebase(), embed=embedders.hashed_words(256), cache=VectorCache())
    index.sync()
    expected = index.search(query, limit=10)
    first = expected.iloc[0]
    where = f"{first.path}:{first.start_line}-{first.end_line}"
    page.wait_for_function(
        "([sel, where]) => { const t = document.querySelector(sel + ' table.clanka-hits');"
        " return t && t.querySelector('tbody tr [data-col=where]').innerText.trim() === where; }",
        arg=[SEARCH, where], timeout=15_000,
    )
    shown = panel.locator("table.clanka-hits [data-col=where]").all_inner_texts()
    assert [text.strip() for text in shown] == [f"{r.path}:{r.start_line}-{r.end_line}" for r in expected.itertuples()]
    # The best hit's chunk is outlined in the preview of its file.
    band = panel.locator(f"td[data-start='{first.start_line}'][data-end='{first.end_line}']").first
    assert "box-shadow" in (band.get_attribute("style") or "")
    artifacts_dir.mkdir(parents=True, exist_ok=True)
    panel.screenshot(path=artifacts_dir / "search-panel.png")
