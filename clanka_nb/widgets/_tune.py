"""The tuning panel: sliders for the chunk settings; statistics, histogram and preview updated together."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from pathlib import Path
from typing import Any, Unpack

import ipywidgets as widgets

from .. import engine
from ..engine.settings import ChunkKeywords, ChunkSettings, Settings, SourceKeywords, setting_keywords
from ..engine.source import open_source
from ..engine.token_counts import token_counter as resolve_counter
from ..frames.cycles import paused_cycle_collection
from ..retrieval import Probe
from ..retrieval.internals import as_probe, check_queries
from ._browser_model import settings_text
from ._charts import render_histogram, render_trade_off
from ._export import page, save_view
from ._paths import PICKER_PATH_CHARS, fit_paths
from ._preview import PreviewPane
from ._source import Source, busiest_file, check_early, pickable
from ._style import MUTED, UI_FONT
from ._tune_model import PAGE_LINES, REFERENCE_POINT, TunerModel, render_stats

__all__ = ["PAGE_LINES", "Tuner", "TunerModel", "render_stats", "tune"]

# Seconds after an update during which further moves from the browser are gathered into one update.
DEBOUNCE = 0.1


def _from_browser(control: widgets.Widget) -> bool:
    """Whether the change being notified came from the browser (ipywidgets locks the property while it sets it)."""
    return "value" in getattr(control, "_property_lock", {})


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:  # a plain script: no kernel loop to come back to
        return None


class Tuner(widgets.VBox):
    """Move the chunk settings and watch the statistics, the size histogram and one file's boundaries.

    Controls: `chunk_size`, `chunk_overlap` (bounded by chunk_size - 1), `max_characters` with its
    switch `limit_characters`, `file_picker`. Sliders update on release (`continuous_update=False`:
    a drag sends one value, so the kernel never queues updates for positions already left behind).
    Moves from the browser are debounced: one arriving within `debounce` seconds of the last update
    (keys held down, quick releases, messages queued while an update ran) only schedules an update
    at the end of that window, which reads the settings then, so later moves join it and none is
    computed for a position already left behind. Changes made in code update at once.
    State, in `.model` (a `TunerModel`): `.model.frame` (all chunks at the settings, with their
    text, built when first read: an update itself works from the engine's spans), `.model.file_frame`
    (the picked file's), `.model.stats` (the `cn.sweep` row of the settings), `.model.before` (the previous
    stats), `.model.codebase`, `.model.token_counter`. Here: `.settings` (the sliders' `Settings`),
    `.seconds` (time of the last update, shown in `.timing`), `.updates` (how many were made).
    `update()` recomputes everything. With the `probe`
    checkbox on, `.model.stats` also holds the retrieval probe's columns (recall@k, mrr, precision, tokens@k, lines@k,
    budget_found@B, budget_covered@B) with the 95% intervals over the queries (`mrr_low`, `mrr_high`...),
    shown beside them, and `.trade_off` draws the verdict's metric against tokens@5 of every setting probed so
    far (the model's `points`, the current one ringed); `vs_before`: whether the last move changed the verdict's
    metric (the Probe's `metric`) beyond what the queries can tell (a paired test on the same queries, as the
    sweep's verdict); and `probe_reason`: why the probe has no query (None when it has), shown in place of the
    scores.
    """

    @setting_keywords
    def __init__(
        self,
        codebase: engine.Codebase,
        *,
        path: str | None = None,
        probe: bool | Probe = False,
        token_counter: object = None,
        settings: Settings | None = None, **given: Unpack[ChunkKeywords],
    ) -> None:
        """Open the panel on a parsed codebase, the sliders at the chunk settings given.

        Args:
            codebase: The parsed codebase.
            path: The file to preview; None picks one.
            probe: True starts with the retrieval probe on; a `Probe` with its options too.
            token_counter: Counts real tokens of the embedding inputs ("cl100k_base", a tiktoken encoding, a callable).
        """
        settings = Settings(**given).over(settings)
        files = [p for p in codebase.files if (t := codebase.text(p)) is not None and t.lines]
        if path is not None:
            path = pickable(codebase, path, files)
        # The model holds the state; this widget holds the model, its controls, and the debounce of their moves.
        options = as_probe(probe)
        if options is not None and options.confirm is not None:
            msg = ("Probe(confirm=) screens a sweep's grid with BM25 and confirms it with your model; the tuner scores "
                   "one setting at a time: pass Probe(embed=model) to score it by your model, or use cn.sweep")
            raise ValueError(msg)
        self.model = TunerModel(codebase, settings, probe=options,
                                token_counter=None if token_counter is None else resolve_counter(token_counter))
        self._busy = False
        self.debounce = DEBOUNCE
        self.updates = 0  # updates made so far
        self._pending: asyncio.TimerHandle | None = None  # the update a debounced move scheduled
        self._done = 0.0  # time.monotonic() at the end of the last update
        self.seconds = 0.0
        self._add_controls(settings.chunk, files, probe=options is not None)
        self.stats_html = widgets.HTML(layout=widgets.Layout(margin="0 0 0 24px"))
        self.timing = widgets.HTML(layout=widgets.Layout(margin="0 0 0 24px"))  # the last update's time
        self.histogram = widgets.HTML()
        self.trade_off = widgets.HTML()  # quality against tokens paid, one dot per setting probed
        self.preview = PreviewPane()
        super().__init__([self._top(), self.preview])
        self.add_class("clanka-tune")
        self.update()
        self._open_first(path, files)

    def _add_controls(self, chunk: ChunkSettings, files: list[str], *, probe: bool) -> None:
        """The sliders (at the values the engine uses), the file picker and the probe's switch, observed."""
        slider = {"continuous_update": False, "style": {"description_width": "110px"}}
        slider_layout = {"width": "400px"}
        self.chunk_size = widgets.IntSlider(
            value=chunk.effective_size, min=1, max=max(200, chunk.effective_size), description="chunk_size",
            layout=widgets.Layout(**slider_layout), **slider,
        )  # fmt: skip
        self.chunk_overlap = widgets.IntSlider(
            value=chunk.effective_overlap, min=0, max=max(0, chunk.effective_size - 1), description="chunk_overlap",
            layout=widgets.Layout(**slider_layout), **slider,
        )  # fmt: skip
        limit = chunk.effective_max_characters
        self.limit_characters = widgets.Checkbox(
            value=limit is not None, description="limit characters", indent=False, layout=widgets.Layout(width="140px")
        )
        self.max_characters = widgets.IntSlider(
            value=limit if limit is not None else 2000, min=100, max=max(20000, limit or 0), step=100,
            description="max characters", disabled=limit is None, layout=widgets.Layout(width="300px"), **slider,
        )  # fmt: skip
        shown = fit_paths(files, PICKER_PATH_CHARS)  # cut in the middle: the file name and its package show
        self.file_picker = widgets.Dropdown(
            options=[(shown[p], p) for p in files], value=None, description="file",
            style={"description_width": "110px"},
            layout=widgets.Layout(width="400px"),
        )  # fmt: skip
        # Off by default: scoring search costs about as much as chunking again (BM25 over every chunk).
        self.probe = widgets.Checkbox(
            value=probe, description="retrieval probe (recall@5, MRR, budget)", indent=False,
            layout=widgets.Layout(width="400px"),
        )  # fmt: skip
        for control in (self.chunk_size, self.chunk_overlap, self.limit_characters, self.max_characters, self.probe):
            control.observe(self._on_setting, "value")
        self.file_picker.observe(self._on_file, "value")

    def _top(self) -> widgets.HBox:
        """The panel above the preview: the controls over the histogram and trade-off, the statistics beside them."""
        controls = widgets.VBox(
            [self.chunk_size, self.chunk_overlap, widgets.HBox([self.limit_characters, self.max_characters]),
             self.file_picker, self.probe],
        )  # fmt: skip
        return widgets.HBox(
            [widgets.VBox([controls, widgets.HBox([self.histogram, self.trade_off],
                                                  layout=widgets.Layout(flex_flow="row wrap"))]),
             widgets.VBox([self.stats_html, self.timing])],
            layout=widgets.Layout(flex_flow="row wrap"),
        )

    def _open_first(self, path: str | None, files: list[str]) -> None:
        """Pick `path` (None: the file with the most chunks) without an update of its own, and show it."""
        self._busy = True
        try:
            if path is None:
                path = busiest_file(self.model.frame, self.model.texts) or (files[0] if files else None)
            self.file_picker.value = path
        finally:
            self._busy = False
        self._show_file()

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value}" for name, value in self.settings.chunking().items())
        return f"Tuner({len(self.model.codebase.files):,} files, {shown}: {self.model.stats['chunks']:,} chunks)"

    def _repr_html_(self) -> str:
        """A still picture of the panel, for where widgets do not run (nbviewer, GitHub): the lines in view."""
        shown = self.preview.preview
        return self._charts_html() + ("" if shown is None else shown.in_view().html)

    def _charts_html(self) -> str:
        """The histogram, the trade-off (once a setting was probed: where nothing runs, "turn the probe on" is no
        use) and the statistics, side by side."""
        trade_off = self.trade_off.value if self.model.points else ""
        return (
            f'<div style="display:flex;flex-wrap:wrap;gap:24px">{self.histogram.value}{trade_off}'
            f"{self.stats_html.value}</div>"
        )

    def page_html(self) -> str:
        """The panel as one self-contained page: its settings, statistics and charts, every line of the file."""
        shown = self.preview.preview
        whole = "" if shown is None else shown.whole().still_html
        said = f'<p style="{UI_FONT}"><b>settings</b> {settings_text(self.settings.chunking())}</p>'
        return page(repr(self), said + self._charts_html() + whole)

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the panel as a self-contained page (`.html`: no server, no kernel; the format from the suffix).

        Args:
            path: The file to write (.html).

        Returns:
            The path written.

        Raises:
            ValueError: Another suffix.
        """
        return save_view(path, view="tuning panel", html=self.page_html)

    @property
    def settings(self) -> Settings:
        """The sliders' settings (in range: the sliders keep them there, so nothing is clamped)."""
        limit = self.max_characters.value if self.limit_characters.value else None
        return Settings(self.chunk_size.value, self.chunk_overlap.value, limit)

    def _on_setting(self, change: Any) -> None:
        if self._busy:
            return
        if change["owner"] is self.chunk_size:
            # Overlap stays below the size, as the engine would clamp it anyway.
            self._busy = True
            try:
                self.chunk_overlap.value = min(self.chunk_overlap.value, max(0, self.chunk_size.value - 1))
                self.chunk_overlap.max = max(0, self.chunk_size.value - 1)
            finally:
                self._busy = False
        self.max_characters.disabled = not self.limit_characters.value
        self._request_update(change["owner"])

    def _request_update(self, control: widgets.Widget) -> None:
        """Update now, or, for a move from the browser soon after the last update, once its window ends."""
        loop = _running_loop()
        if loop is None or not _from_browser(control):
            self.update()
            return
        if self._pending is not None:
            return  # the scheduled update will read this move's settings
        wait = self._done + self.debounce - time.monotonic()
        if wait <= 0:
            self.update()
        else:
            self._pending = loop.call_later(wait, self._run_pending)

    def _run_pending(self) -> None:
        self._pending = None
        self.update()

    def _on_file(self, _change: Any) -> None:
        if not self._busy:
            self._show_file()

    def update(self) -> None:
        """Re-chunk the parsed codebase at the current settings and redraw statistics, histogram and preview."""
        started = time.perf_counter()
        if self._pending is not None:  # this update reads the latest settings already
            self._pending.cancel()
            self._pending = None
        model = self.model
        model.update(self.settings, probe=self.probe.value)
        # The numbers first (what a move is for): the browser shows them before the drawing that follows.
        self.stats_html.value = render_stats(model.stats, model.before, model.codebase.languages)
        self.histogram.value = render_histogram(model.lines, marker=model.shown.chunk.effective_size)
        # Redrawn on every update: a move without the probe un-rings the last setting, its dots stay.
        self.trade_off.value = render_trade_off(model.points, current=model.current, cost=model.cost,
                                                quality=model.quality, reference=REFERENCE_POINT)
        # The picked file's chunks and their drawing are many small objects too; a token counter is user code.
        with paused_cycle_collection() if model.token_counter is None else contextlib.nullcontext():
            self._show_file()
        self.seconds = time.perf_counter() - started
        self.updates += 1
        self.timing.value = (  # last: in the browser, this changes once everything before it is drawn
            f'<div data-update="{self.updates}" data-update-ms="{self.seconds * 1000:.1f}" '
            f'style="{UI_FONT};color:{MUTED};margin-top:4px">'
            f"updated in {self.seconds * 1000:.0f} ms</div>"
        )
        self._done = time.monotonic()

    def _show_file(self) -> None:
        self.preview.show(self.model.show_file(self.file_picker.value))


@setting_keywords
def tune(
    source: Source = None,
    path: str | None = None,
    *,
    probe: bool | Probe = False,
    token_counter: object = None,
    settings: Settings | None = None, **given: Unpack[SourceKeywords],
) -> Tuner:
    """Open the tuning panel on `source` (a folder, one file, an `engine.Codebase`, a chunk frame; the sample
    when None).

    `path` picks the file to preview; `probe=True` starts with the retrieval probe on, and `probe=Probe(...)`
    with its options too (as in `sweep`: `Probe(queries=..., budget=...)`; the checkbox then probes with them);
    `token_counter=` ("cl100k_base", a tiktoken encoding, a callable...) counts real tokens of the
    embedding inputs instead of the chars/4 estimate. The chunk settings are where the sliders start
    (a chunk frame's own where none is given).

    Args:
        source: A folder, one file, an `engine.Codebase`, a chunk frame, or None for the sample codebase.
        path: The file to preview; None picks one.
        probe: True starts with the retrieval probe on; a `Probe` with its options too.
        token_counter: Counts real tokens of the embedding inputs ("cl100k_base", a tiktoken encoding, a callable).

    Returns:
        The tuning panel: sliders for the chunk settings, the statistics and the preview, redrawn as they move.

    Examples:
        >>> cn.tune("my-repo", probe=True)
    """
    # The Tuner warns when a chunk setting is clamped.
    settings = Settings(**given).over(settings, warn=False)
    check_early(source, path)
    codebase, opened = open_source(source, settings, progress=False)
    options = as_probe(probe)
    if options is not None and options.queries is not None:
        check_queries(options.queries, codebase)  # a wrong frame is an error now, not when the checkbox is ticked
    return Tuner(codebase, path=path, probe=probe, token_counter=token_counter, settings=opened)
