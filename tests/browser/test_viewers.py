"""The quickstart notebook in a real JupyterLab, in headless Chromium: what a person sees and does.

Runs all cells of notebooks/01-quickstart.ipynb, then checks that every widget rendered, picks the
type "method" in the browser, compares the preview's bands with the chunk frame on screen, and
drags the chunk_size slider. Screenshots go to tests/.artifacts/; to refresh the README's copies in
docs/screenshots/, run

    CLANKA_UPDATE_SCREENSHOTS=1 python -m pytest tests/browser/test_viewers.py
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from clanka_nb import frames, sample_codebase
from clanka_nb.widgets._render import MAX_LINES

from ._lab import LabServer, open_and_run_all, save_element

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
QUICKSTART = REPO / "notebooks" / "01-quickstart.ipynb"
PANEL = "#jp-main-dock-panel .jp-NotebookPanel:not(.lm-mod-hidden)"
BROWSER = f"{PANEL} .clanka-browser"
TUNE = f"{PANEL} .clanka-tune"


def _scroll_lines(preview, line: int) -> None:
    """Scroll a preview's lines so that `line` is at the top, as a person would with the wheel."""
    preview.evaluate(
        "(root, line) => { const box = root.querySelector('[data-lines]');"
        " box.scrollTop = root.querySelector(`tr[data-line='${line}']`).offsetTop; }",
        line,
    )


def _cell_output(page, code: str):
    """The output area of the code cell whose source contains `code`."""
    cell = page.locator(f"{PANEL} .jp-CodeCell").filter(has_text=code)
    assert cell.count() == 1, f"expected one cell containing {code!r}, found {cell.count()}"
    return cell.locator(".jp-OutputArea-output")


def test_quickstart_viewers_in_jupyterlab(browser_page, lab_server: LabServer, artifacts_dir: Path) -> None:
    page = browser_page
    page.set_viewport_size({"width": 1300, "height": 1500})  # widgets fit whole in the view for screenshots
    shutil.copy(QUICKSTART, lab_server.root_dir / QUICKSTART.name)
    open_and_run_all(page, lab_server, QUICKSTART.name)
    page.evaluate("() => window.jupyterapp.commands.execute('application:toggle-left-area')")  # room to show

    # Everything rendered: no widget left loading, no error or stderr output, no error toast.
    page.locator(BROWSER).wait_for(state="visible", timeout=15_000)
    page.locator(TUNE).wait_for(state="visible", timeout=15_000)
    assert page.get_by_text("Loading widget").count() == 0
    errors = page.locator(
        f'{PANEL} .jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"],'
        f' {PANEL} .jp-OutputArea-output[data-mime-type="application/vnd.jupyter.error"]'
    )
    assert errors.count() == 0, errors.all_inner_texts()

    chunks = frames.chunk_codebase(sample_codebase(), progress=False)
    methods = int((chunks["type"] == "method").sum())

    # The browser: clear the notebook's own filter, then pick the type "method" as a person would.
    type_cells = page.locator(f"{BROWSER} [data-clanka=table] [data-col=type]")
    page.locator(BROWSER).get_by_role("button", name="clear filters").click()
    page.wait_for_function(
        "(sel) => [...document.querySelectorAll(sel)].some((c) => c.innerText.trim() !== 'method')",
        arg=f"{BROWSER} [data-clanka=table] [data-col=type]",
    )
    page.locator(f"{BROWSER} .widget-select-multiple select option").filter(has_text="method (").click()
    page.wait_for_function(
        """(sel) => {
            const cells = [...document.querySelectorAll(sel)];
            return cells.length > 0 && cells.every((c) => c.innerText.trim() === 'method');
        }""",
        arg=f"{BROWSER} [data-clanka=table] [data-col=type]",
        timeout=10_000,
    )
    assert type_cells.count() == min(15, methods)
    assert f"{methods} of {len(chunks)} chunks match" in page.locator(BROWSER).inner_text()

    # Choosing a row shows that chunk, outlined, in its file.
    apply = chunks[(chunks["type"] == "method") & (chunks["name"] == "apply")].iloc[0]
    picker = (
        page.locator(f"{BROWSER} .widget-dropdown").filter(has=page.get_by_text("show", exact=True)).locator("select")
    )
    # ipywidgets writes option labels with no-break spaces.
    labels = [text.replace("\xa0", " ") for text in picker.locator("option").all_text_contents()]
    picker.select_option(index=next(i for i, text in enumerate(labels) if " method apply " in text))
    outlined = f"{BROWSER} [data-clanka=preview] [data-chunk][style*='box-shadow']"
    page.wait_for_selector(outlined, timeout=10_000)
    band = page.locator(outlined)
    assert (band.get_attribute("data-start"), band.get_attribute("data-end")) == (
        str(apply["start_line"]),
        str(apply["end_line"]),
    )
    assert page.locator(f"{BROWSER} [data-clanka=preview]").get_attribute("data-path") == apply["path"]
    save_element(page.locator(BROWSER), "browse", artifacts_dir)

    # The preview: one band per chunk of its page (the file's first MAX_LINES lines: what a notebook saves), drawn
    # from its start line's row to its end line's; a chunk that goes on past the page is drawn to the page's end.
    preview = _cell_output(page, 'cn.preview(source, "src/inventory.ts")').locator("[data-clanka=preview]")
    file_chunks = chunks[chunks["path"] == "src/inventory.ts"]
    expected = file_chunks[file_chunks["end_line"] <= MAX_LINES]
    drawn = preview.evaluate(
        """(root) => [...root.querySelectorAll('[data-chunk]')].flatMap((band) => {
            const box = band.getBoundingClientRect();
            const first = root.querySelector(`tr[data-line="${band.dataset.start}"]`);
            const last = root.querySelector(`tr[data-line="${band.dataset.end}"]`);
            if (!first || !last) return [];  // beyond the page
            return [{start: +band.dataset.start, end: +band.dataset.end, title: band.title,
                     top: box.top - first.getBoundingClientRect().top,
                     bottom: box.bottom - last.getBoundingClientRect().bottom, width: box.width}];
        })"""
    )
    assert sorted((b["start"], b["end"]) for b in drawn) == sorted(
        zip(expected["start_line"].tolist(), expected["end_line"].tolist(), strict=True)
    )
    for band in drawn:
        assert abs(band["top"]) <= 2 and abs(band["bottom"]) <= 2, band  # on its lines, not beside them
        assert band["width"] > 5, band
    apply = next(b for b in drawn if b["title"].startswith("method apply"))
    assert "parent: class StockLedger" in apply["title"]
    _scroll_lines(preview, min(104, MAX_LINES - 20))  # towards the nested namespaces (line 104 on a long page)
    save_element(preview, "preview", artifacts_dir)

    # The tuning panel: drag the chunk_size handle to the left and release; the statistics change.
    stats = page.locator(f"{TUNE} [data-clanka=stats]")
    before = stats.inner_text()
    slider = page.locator(f"{TUNE} .widget-slider").first
    handle, track = slider.locator(".noUi-handle").first, slider.locator(".noUi-target").first
    page.locator(TUNE).scroll_into_view_if_needed()  # the mouse works in view coordinates
    handle_box, track_box = handle.bounding_box(), track.bounding_box()
    assert handle_box is not None and track_box is not None
    page.mouse.move(handle_box["x"] + handle_box["width"] / 2, handle_box["y"] + handle_box["height"] / 2)
    page.mouse.down()
    page.mouse.move(track_box["x"] + track_box["width"] * 0.04, handle_box["y"] + handle_box["height"] / 2, steps=8)
    page.mouse.up()
    page.wait_for_function(
        "([sel, old]) => { const el = document.querySelector(sel); return el && el.innerText !== old; }",
        arg=[f"{TUNE} [data-clanka=stats]", before],
        timeout=10_000,
    )
    size = int(slider.locator(".widget-readout").inner_text().strip())
    assert size < 30
    assert f"chunk_size={size}" in stats.inner_text()
    expected_chunks = len(frames.chunk_codebase(sample_codebase(), chunk_size=size, progress=False))
    now, was = (stats.locator("[data-stat=chunks] td").nth(i).inner_text() for i in (1, 2))
    assert (now, was) == (f"{expected_chunks:,}", f"{len(chunks):,}")
    assert page.locator(f"{TUNE} [data-clanka=histogram]").text_content().count(f"chunk_size {size}") == 1
    _scroll_lines(page.locator(f"{TUNE} [data-clanka=preview]"), 38)
    save_element(page.locator(TUNE), "tune", artifacts_dir)
