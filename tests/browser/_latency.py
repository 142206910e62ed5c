"""Slider release -> statistics updated, timed in the page: the tuning panel in a real JupyterLab.

Shared by tests/browser/test_tune_latency.py (one release on the sample, checked against the chunk
frame) and benchmarks/bench_latency.py (several releases on the sample and on three.js). The clock is
the page's: `performance.now()` at the pointer's release (a capturing listener, before the slider
sees it), when a MutationObserver sees the statistics' text change, and when the update's last
widget (its timing) changes, so Playwright's own round trips are not counted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ._lab import LabServer, open_and_run_all

PANEL = "#jp-main-dock-panel .jp-NotebookPanel:not(.lm-mod-hidden)"
TUNE = f"{PANEL} .clanka-tune"
STATS = f"{TUNE} [data-clanka=stats]"
TIMING = f"{TUNE} [data-update]"

_ARM = """([tune, stats, timing]) => {
    const state = {up: null, changed: null, drawn: null, old: document.querySelector(stats).innerText,
                   update: document.querySelector(timing).dataset.update};
    window.__release = state;
    const up = () => { if (state.up === null) state.up = performance.now(); };
    document.addEventListener('pointerup', up, {capture: true, once: true});
    document.addEventListener('mouseup', up, {capture: true, once: true});
    const observer = new MutationObserver(() => {
        const el = document.querySelector(stats);
        if (state.up !== null && state.changed === null && el && el.innerText !== state.old) {
            state.changed = performance.now();
        }
        const done = document.querySelector(timing);
        if (state.up !== null && done && done.dataset.update !== state.update) {
            state.drawn = performance.now();  // the update's last widget: everything before it is drawn
            observer.disconnect();
        }
    });
    observer.observe(document.querySelector(tune), {subtree: true, childList: true, characterData: true});
}"""


@dataclass(frozen=True)
class Release:
    """One slider release: the size it set, the page's latency and the kernel's own update time."""

    chunk_size: int
    latency_ms: float  # pointer released -> statistics text changed, in the page
    drawn_ms: float  # pointer released -> the whole update drawn (histogram and preview too)
    kernel_ms: float  # the panel's update in the kernel (its `seconds`), as it reports it
    stats_text: str


def tune_notebook(folder: Path, name: str, source: Path | None) -> str:
    """Write a notebook opening `cn.tune` on `source` (the sample when None) into `folder`; its name."""
    argument = "" if source is None else repr(str(source))
    cells = [
        "import clanka_nb as cn",
        f"tuner = cn.tune({argument})\ntuner",
    ]
    notebook = {
        "cells": [
            {"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {}, "outputs": [], "source": code}
            for i, code in enumerate(cells)
        ],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (folder / name).write_text(json.dumps(notebook))
    return name


def open_tuner(page, server: LabServer, source: Path | None, *, name: str = "tune-latency.ipynb") -> None:
    """Open a notebook showing the tuning panel on `source` and wait until the panel is on screen."""
    open_and_run_all(page, server, tune_notebook(server.root_dir, name, source), timeout=300.0)
    page.locator(TUNE).wait_for(state="visible", timeout=30_000)
    page.locator(TUNE).scroll_into_view_if_needed()  # the mouse works in view coordinates


def release_chunk_size(page, fraction: float, *, timeout: float = 30.0) -> Release:
    """Drag the chunk_size handle to `fraction` of its track, release it, wait for the statistics to change."""
    slider = page.locator(f"{TUNE} .widget-slider").first
    handle, track = slider.locator(".noUi-handle").first, slider.locator(".noUi-target").first
    handle_box, track_box = handle.bounding_box(), track.bounding_box()
    if handle_box is None or track_box is None:
        raise AssertionError("the chunk_size slider is not on screen")
    y = handle_box["y"] + handle_box["height"] / 2
    page.mouse.move(handle_box["x"] + handle_box["width"] / 2, y)
    page.mouse.down()
    page.mouse.move(track_box["x"] + track_box["width"] * fraction, y, steps=8)
    page.evaluate(_ARM, [TUNE, STATS, TIMING])
    page.mouse.up()
    page.wait_for_function(
        "() => window.__release.changed !== null && window.__release.drawn !== null",
        timeout=timeout * 1000, polling=20,
    )
    state = page.evaluate("() => window.__release")
    size = int(slider.locator(".widget-readout").inner_text().strip())
    kernel = page.locator(TIMING).get_attribute("data-update-ms")
    return Release(
        chunk_size=size,
        latency_ms=state["changed"] - state["up"],
        drawn_ms=state["drawn"] - state["up"],
        kernel_ms=float(kernel or "nan"),
        stats_text=page.locator(STATS).inner_text(),
    )
