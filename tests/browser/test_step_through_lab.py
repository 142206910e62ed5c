"""The step-through widget in a real JupyterLab: its buttons move the step, and its outlined chunk and its reason
follow (its exported page: tests/browser/test_exported_pages.py)."""

from __future__ import annotations

import nbformat
import pytest

import clanka_nb as cn

from ._lab import LabServer, open_and_run_all

pytestmark = pytest.mark.browser

PANEL = "#jp-main-dock-panel .jp-NotebookPanel:not(.lm-mod-hidden)"
STEPS = f"{PANEL} .clanka-steps"


def test_the_buttons_step_through_the_cuts(browser_page, lab_server: LabServer) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    code = 'import clanka_nb as cn\ncn.step_through(None, "src/models.ts", chunk_size=20)'
    nb.cells = [nbformat.v4.new_code_cell(code)]
    nbformat.write(nb, lab_server.root_dir / "steps.ipynb")
    page = browser_page
    open_and_run_all(page, lab_server, "steps.ipynb")
    page.locator(STEPS).wait_for(state="visible", timeout=15_000)
    steps = cn.step_through(None, "src/models.ts", chunk_size=20).model.steps
    count = page.locator(f"{STEPS} [data-count]")
    assert count.inner_text() == f"1 / {len(steps)}"
    for _ in range(2):
        page.locator(f"{STEPS} button").filter(has_text="next").click()
    page.wait_for_function(
        "([sel, want]) => document.querySelector(sel)?.innerText === want",
        arg=[f"{STEPS} [data-count]", f"3 / {len(steps)}"], timeout=10_000,
    )
    assert page.locator(f"{STEPS} [data-why]").first.inner_text() == steps[2].why
    outlined = page.locator(f"{STEPS} td[data-chunk][data-start='{steps[2].start_line}']")
    assert "box-shadow" in (outlined.first.get_attribute("style") or "")  # the chunk shown is outlined
    page.locator(f"{STEPS} button").filter(has_text="previous").click()
    page.wait_for_function(
        "([sel, want]) => document.querySelector(sel)?.innerText === want",
        arg=[f"{STEPS} [data-count]", f"2 / {len(steps)}"], timeout=10_000,
    )
