"""`compare` in a real JupyterLab: both panes inside a 1,400 px window, side by side with level lines, or stacked."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from ._lab import LabServer, open_and_run_all, screenshot

pytestmark = pytest.mark.browser

PANEL = "#jp-main-dock-panel .jp-NotebookPanel:not(.lm-mod-hidden)"
COMPARE = f"{PANEL} .clanka-compare [data-clanka=compare]"

# A file with a line far wider than any window: what pushed pane B off-screen.
SETUP = '''
from pathlib import Path
import clanka_nb as cn
wide = Path("wide_code")
wide.mkdir(exist_ok=True)
body = "".join(f"export function f{i}(a: number): number {{\\n  return a + {i}\\n}}\\n\\n" for i in range(30))
long = "export const table = [" + ", ".join(str(i) for i in range(600)) + "]\\n"
(wide / "long.ts").write_text(long + body)
'''
SHOW = 'view = cn.compare("wide_code", a={"chunk_size": 30}, b={"chunk_size": 4}, path="long.ts"); view'

BOXES = """(sel) => {
    const root = document.querySelector(sel);
    const box = (el) => { const r = el.getBoundingClientRect();
        return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width}; };
    const side = (name) => root.querySelector(`[data-side="${name}"]`);
    const line = (name, n) => box(side(name).querySelector(`tr[data-line="${n}"]`));
    const output = root.closest('.jp-OutputArea-output');
    return {window: window.innerWidth, a: box(side('A')), b: box(side('B')),
            a5: line('A', 5), b5: line('B', 5), a40: line('A', 40), b40: line('B', 40),
            outputScroll: output.scrollWidth, outputWidth: output.clientWidth};
}"""


def _boxes(page) -> dict:
    return page.evaluate(BOXES, COMPARE)


def _inside(box: dict, width: float) -> bool:
    return box["left"] >= 0 and box["right"] <= width and box["width"] > 100


def test_compare_panes_fit_the_window(browser_page, lab_server: LabServer, artifacts_dir: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(SETUP), nbformat.v4.new_code_cell(SHOW)]
    nbformat.write(nb, lab_server.root_dir / "compare.ipynb")

    page = browser_page
    page.set_viewport_size({"width": 1400, "height": 900})
    open_and_run_all(page, lab_server, "compare.ipynb")
    page.locator(COMPARE).wait_for(state="visible", timeout=15_000)

    # Room for both: side by side, both wholly inside the window, line n of A level with line n of B.
    boxes = _boxes(page)
    assert _inside(boxes["a"], 1400) and _inside(boxes["b"], 1400), boxes
    assert boxes["b"]["left"] >= boxes["a"]["right"] and abs(boxes["a"]["top"] - boxes["b"]["top"]) <= 1, boxes
    for n in (5, 40):
        assert abs(boxes[f"a{n}"]["top"] - boxes[f"b{n}"]["top"]) <= 1, boxes
    assert boxes["outputScroll"] <= boxes["outputWidth"] + 1, boxes  # nothing to scroll sideways to
    screenshot(page, "compare-wide", artifacts_dir, selector=COMPARE)

    # No room: one above the other, each as wide as the output and still inside the window.
    page.set_viewport_size({"width": 760, "height": 900})
    page.wait_for_function(
        "(sel) => { const r = document.querySelector(sel); const a = r.querySelector('[data-side=A]');"
        " const b = r.querySelector('[data-side=B]');"
        " return b.getBoundingClientRect().top >= a.getBoundingClientRect().bottom; }",
        arg=COMPARE,
        timeout=10_000,
    )
    boxes = _boxes(page)
    assert _inside(boxes["a"], 760) and _inside(boxes["b"], 760), boxes
    assert abs(boxes["a"]["width"] - boxes["b"]["width"]) <= 1 and boxes["b"]["top"] >= boxes["a"]["bottom"], boxes
    assert boxes["outputScroll"] <= boxes["outputWidth"] + 1, boxes
    screenshot(page, "compare-narrow", artifacts_dir, selector=COMPARE)
