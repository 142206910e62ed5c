"""Smoke test: a real JupyterLab in headless Chromium runs a notebook and renders an ipywidget."""

from __future__ import annotations

import nbformat
import pytest

from ._lab import open_and_run_all, screenshot

pytestmark = pytest.mark.browser


def test_lab_runs_notebook_and_renders_widget(browser_page, lab_server, artifacts_dir):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    nb.cells = [
        nbformat.v4.new_code_cell('import ipywidgets as w; s = w.IntSlider(value=3, description="size"); s'),
        nbformat.v4.new_code_cell("print(s.value * 2)"),
    ]
    nbformat.write(nb, lab_server.root_dir / "smoke.ipynb")

    page = browser_page
    open_and_run_all(page, lab_server, "smoke.ipynb")

    cells = page.locator("#jp-main-dock-panel .jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell")
    slider = cells.nth(0).locator(".jupyter-widgets.widget-slider")
    slider.wait_for(state="visible", timeout=15_000)
    assert "size" in slider.inner_text()
    assert cells.nth(0).locator(".widget-readout").inner_text().strip() == "3"
    assert cells.nth(1).locator(".jp-OutputArea-output").inner_text().strip() == "6"

    assert page.get_by_text("Loading widget").count() == 0
    errors = page.locator(
        '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"],'
        ' .jp-OutputArea-output[data-mime-type="application/vnd.jupyter.error"]'
    )
    assert errors.count() == 0, errors.all_inner_texts()
    assert page.locator(".Toastify__toast").count() == 0, page.locator(".Toastify__toast").all_inner_texts()

    screenshot(page, "lab-smoke", artifacts_dir)
