"""The quickstart's outputs are legible in JupyterLab's light and dark themes, measured in Chromium.

Runs notebooks/01-quickstart.ipynb once, then, in "JupyterLab Light" and in "JupyterLab Dark", takes
every text run drawn in the notebook's outputs and measures the WCAG contrast of its colour against
the background it really sits on (the element's and its ancestors' backgrounds, alpha composited).
Screenshots of the browser in both themes go to tests/.artifacts/ (and docs/screenshots/ with
CLANKA_UPDATE_SCREENSHOTS=1).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ._lab import LabServer, open_and_run_all, save_element

pytestmark = pytest.mark.browser

QUICKSTART = Path(__file__).resolve().parents[2] / "notebooks" / "01-quickstart.ipynb"
PANEL = "#jp-main-dock-panel .jp-NotebookPanel:not(.lm-mod-hidden)"

# For each visible text node in the outputs: its text, its colour and its background as the screen
# shows them, and their contrast. Colours are read back through a 1-pixel canvas, which turns any CSS
# colour syntax (rgb(), color(srgb ...), color-mix results) into sRGB bytes.
MEASURE = """(panel) => {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const ctx = canvas.getContext('2d', {willReadFrequently: true});
    const rgba = (css) => {
        ctx.clearRect(0, 0, 1, 1);
        ctx.fillStyle = 'rgba(0, 0, 0, 0)';
        ctx.fillStyle = css;
        ctx.fillRect(0, 0, 1, 1);
        const d = ctx.getImageData(0, 0, 1, 1).data;
        return [d[0], d[1], d[2], d[3] / 255];
    };
    const over = (top, bottom) => {  // top composited over an opaque bottom
        const a = top[3];
        return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat([1]);
    };
    const background = (el) => {
        const layers = [];
        for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
            const c = rgba(getComputedStyle(e).backgroundColor);
            if (c[3] > 0) layers.push(c);
            if (c[3] >= 1) break;
        }
        let result = rgba(getComputedStyle(document.body).backgroundColor);
        if (result[3] < 1) result = over(result, [255, 255, 255, 1]);
        for (const layer of layers.reverse()) result = over(layer, result);
        return result;
    };
    const luminance = (c) => {
        const [r, g, b] = c.slice(0, 3).map((v) => {
            v /= 255;
            return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const runs = [];
    const root = document.querySelector(panel);
    for (const output of root.querySelectorAll('.jp-OutputArea-output')) {
        const walker = document.createTreeWalker(output, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const text = node.textContent.trim();
            const el = node.parentElement;
            if (!text || !el) continue;
            const style = getComputedStyle(el);
            const range = document.createRange();
            range.selectNodeContents(node);
            const box = range.getBoundingClientRect();
            if (box.width === 0 || box.height === 0 || style.visibility !== 'visible') continue;
            const svg = el.namespaceURI === 'http://www.w3.org/2000/svg';
            const bg = background(svg ? el.ownerSVGElement || el : el);
            const fg = over(rgba(svg ? style.fill : style.color), bg);
            const [hi, lo] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
            runs.push({text: text.slice(0, 40), contrast: (hi + 0.05) / (lo + 0.05),
                       fg: fg.slice(0, 3).map(Math.round), bg: bg.slice(0, 3).map(Math.round)});
        }
    }
    return runs;
}"""


def _set_theme(page, name: str, light: bool) -> None:
    page.evaluate("(name) => window.jupyterapp.commands.execute('apputils:change-theme', {theme: name})", name)
    page.wait_for_function(
        "(light) => document.body.dataset.jpThemeLight === String(light)", arg=light, timeout=30_000
    )
    page.wait_for_timeout(500)  # the theme's stylesheet applies after the attribute flips


def _measure(page) -> list[dict]:
    runs = page.evaluate(MEASURE, PANEL)
    assert len(runs) > 500, f"only {len(runs)} text runs found in the outputs: did the notebook render?"
    return runs


def _check(runs: list[dict], theme: str) -> None:
    below = [run for run in runs if run["contrast"] < 4.5]
    share = 1 - len(below) / len(runs)
    worst = sorted(below, key=lambda run: run["contrast"])[:10]
    assert share >= 0.99, f"{theme}: {len(below)} of {len(runs)} text runs below 4.5, e.g. {worst}"
    assert not [run for run in runs if run["contrast"] < 3], f"{theme}: runs below 3: {worst}"


def test_quickstart_is_legible_in_light_and_dark(browser_page, lab_server: LabServer, artifacts_dir: Path) -> None:
    page = browser_page
    page.set_viewport_size({"width": 1300, "height": 1500})
    shutil.copy(QUICKSTART, lab_server.root_dir / QUICKSTART.name)
    open_and_run_all(page, lab_server, QUICKSTART.name)
    browser = page.locator(f"{PANEL} .clanka-browser")
    browser.wait_for(state="visible", timeout=15_000)
    try:
        _set_theme(page, "JupyterLab Light", light=True)
        light = _measure(page)
        save_element(browser, "theme-light", artifacts_dir)
        _set_theme(page, "JupyterLab Dark", light=False)
        dark = _measure(page)
        save_element(browser, "theme-dark", artifacts_dir)
    finally:  # the theme is a user setting of the shared server: put it back for the other tests
        _set_theme(page, "JupyterLab Light", light=True)
    # The measurement itself: in the dark theme, the page behind most text really is dark.
    assert sum(sum(run["bg"]) < 150 for run in dark) > len(dark) / 2
    assert sum(sum(run["bg"]) > 600 for run in light) > len(light) / 2
    _check(light, "JupyterLab Light")
    _check(dark, "JupyterLab Dark")
