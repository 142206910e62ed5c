"""`cn.browse` and the quickstart's first table in a 1,400 x 900 JupyterLab with the file browser open.

That leaves the notebook's output area about 712 px wide. Neither may overflow it sideways: the browser's
columns shrink, and a long file name or declaration name is cut with an ellipsis and shown whole in its
`title` (a tooltip).
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from ._lab import LabServer, open_and_run_all, screenshot

pytestmark = pytest.mark.browser

PANEL = "#jp-main-dock-panel .jp-NotebookPanel:not(.lm-mod-hidden)"
BROWSER = f"{PANEL} .clanka-browser"
QUICKSTART = Path(__file__).resolve().parents[2] / "notebooks" / "01-quickstart.ipynb"

# A codebase with zod-like long paths and names.
SETUP = '''
from pathlib import Path
import clanka_nb as cn
root = Path("long_names")
deep = root / "packages" / "zod" / "src" / "v4" / "core" / "json-schema-generator-internals"
deep.mkdir(parents=True, exist_ok=True)
for i in range(6):
    methods = "".join(
        f"  processDiscriminatedUnionOptionWithAVeryLongName{j}(input: unknown): unknown "
        f"{{\\n    return input;\\n  }}\\n"
        for j in range(3)
    )
    text = (f"export class ZodDiscriminatedUnionSchemaDefinitionBuilder{i} {{\\n{methods}}}\\n"
            f"export const aVeryLongConstantNameThatDescribesTheDefaultErrorMapOfTheLibrary{i} = "
            + "{ message: 'x'.repeat(10), code: 'invalid_type', path: ['a', 'b', 'c'] };\\n")
    (deep / f"discriminated-union-schema-definition-builder-{i}.ts").write_text(text)
'''
SHOW = 'browser = cn.browse("long_names"); browser'

FITS = """([sel, label]) => {
    const el = document.querySelector(sel);
    const output = el.closest('.jp-OutputArea-output');
    const out = output.getBoundingClientRect(), box = el.getBoundingClientRect();
    // Wider than the output area and not inside a box of its own that clips or scrolls it (long code lines
    // scroll inside the preview; that is not the output area overflowing).
    const clipped = (x) => { for (let a = x.parentElement; a && a !== output; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== 'visible') return a.getBoundingClientRect().right <= out.right + 1;
    } return false; };
    const wide = [...el.querySelectorAll('*')]
        .filter((x) => x.getBoundingClientRect().right > out.right + 1 && !clipped(x))
        .map((x) => x.tagName + '.' + x.className + ' ' + Math.round(x.getBoundingClientRect().left) + '-'
            + Math.round(x.getBoundingClientRect().right) + ' ' + (x.innerText || '').slice(0, 30));
    return {label, output: output.clientWidth, width: box.width, right: box.right, outRight: out.right,
            scroll: output.scrollWidth, wide: wide.slice(0, 5)};
}"""


OUTPUT_WIDTH = 712  # px: the output area the issue measured with the file browser open


def _open_file_browser(page, output: str) -> None:
    """Open the file browser and widen it by its split handle, as a user does, until `output` is 712 px wide."""
    page.evaluate("() => window.jupyterapp.commands.execute('filebrowser:activate')")
    page.locator("#filebrowser").wait_for(state="visible", timeout=10_000)
    page.wait_for_timeout(300)
    width = page.evaluate("(sel) => document.querySelector(sel).closest('.jp-OutputArea-output').clientWidth", output)
    handle = page.locator("#jp-main-split-panel > .lm-SplitPanel-handle:not(.lm-mod-hidden)").first
    box = handle.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + width - OUTPUT_WIDTH, y, steps=5)
    page.mouse.up()
    page.wait_for_timeout(500)  # the dock panel lays out again


def test_browse_and_the_quickstart_table_fit_the_output_area(
    browser_page, lab_server: LabServer, artifacts_dir: Path
) -> None:
    quickstart = [c for c in json.loads(QUICKSTART.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "code"]
    first_table = "".join(quickstart[0]["source"]) + "\n" + "".join(quickstart[1]["source"])
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(SETUP), nbformat.v4.new_code_cell(SHOW),
                nbformat.v4.new_code_cell(first_table)]  # fmt: skip
    nbformat.write(nb, lab_server.root_dir / "fit.ipynb")

    page = browser_page
    page.set_viewport_size({"width": 1400, "height": 900})
    open_and_run_all(page, lab_server, "fit.ipynb")
    page.locator(BROWSER).wait_for(state="visible", timeout=15_000)
    _open_file_browser(page, BROWSER)
    table = f"{PANEL} .jp-Cell:nth-child(3) .jp-OutputArea-output table.dataframe"
    page.locator(table).wait_for(state="visible", timeout=15_000)
    screenshot(page, "browse-fits")

    for selector, label in ((BROWSER, "browse"), (table, "quickstart table")):
        fit = page.evaluate(FITS, [selector, label])
        assert abs(fit["output"] - OUTPUT_WIDTH) <= 12, fit
        assert fit["right"] <= fit["outRight"] + 1 and fit["scroll"] <= fit["output"] + 1, fit
        assert not fit["wide"], fit

    # Long names are cut, and whole in their title.
    cells = page.locator(f"{BROWSER} [data-clanka=table] td[data-col=path]")
    title = cells.first.get_attribute("title") or ""
    assert title.startswith("packages/zod/src/v4/core/json-schema-generator-internals/discriminated-union")
    clipped = page.evaluate(
        "(sel) => { const c = document.querySelector(sel); return c.scrollWidth > c.clientWidth; }",
        f"{BROWSER} [data-clanka=table] td[data-col=path]",
    )
    assert clipped  # too long to show whole at this width: the ellipsis and the title say the rest
    # The file list (an HTML select: its options take no title) shows the end of a long name, which tells
    # the files apart, after "…/"; at this width it sits above the table, as wide as the output area.
    options = [o for o in page.locator(f"{BROWSER} .widget-select select option").all_inner_texts() if "…" in o]
    assert len(options) == 6 and all(o.startswith("…/discriminated-union-schema-definition-builder-") for o in options)
    lists = page.evaluate(
        """(sel) => { const box = (e) => e.getBoundingClientRect();
            const files = [...document.querySelectorAll(sel + ' .widget-select')]
                .find((e) => e.innerText.includes('(all'));
            const table = document.querySelector(sel + ' [data-clanka=table]');
            return {filesBottom: box(files).bottom, tableTop: box(table).top, filesWidth: box(files).width}; }""",
        BROWSER,
    )
    assert lists["filesBottom"] <= lists["tableTop"] and lists["filesWidth"] >= OUTPUT_WIDTH - 40, lists
