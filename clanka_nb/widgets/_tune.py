"""The tuning panel: sliders for the chunk settings; statistics, histogram and preview updated together."""

from __future__ import annotations

import asyncio
import contextlib
import time
import warnings
from html import escape
from typing import Any

import ipywidgets as widgets
import pandas as pd

from .. import engine, frames
from ..defaults import CHUNK_OVERLAP, CHUNK_SIZE, MAX_FILE_SIZE, NO_LIMIT
from ..engine.settings import Settings
from ..engine.source import open_source
from ..engine.token_counts import token_counter as resolve_counter
from ..frames.cycles import paused_cycle_collection
from ..retrieval import BM25Searcher, NoProbeQueriesWarning
from ..retrieval.internals import DEFAULT_K, Bootstrap, Outcome, ProbeSet, check_queries, compared, scored_row
from ._browser import settings_text
from ._charts import render_histogram
from ._preview import Preview, PreviewPane
from ._source import Source, Texts, busiest_file, check_early, file_lines, pickable
from ._style import MUTED, TEXT, UI_FONT

# (key, label, format) of the statistics shown; keys are columns of `cn.sweep`.
STAT_ROWS: tuple[tuple[str, str, str], ...] = (
    ("chunks", "chunks", "{:,.0f}"),
    ("lines_mean", "lines: mean", "{:.1f}"),
    ("lines_median", "lines: median", "{:.0f}"),
    ("lines_p95", "lines: p95", "{:.0f}"),
    ("characters_mean", "characters: mean", "{:,.0f}"),
    ("characters_p95", "characters: p95", "{:,.0f}"),
    ("tokens_total", "tokens (≈ chars / 4)", "{:,.0f}"),
    ("split_declarations", "declarations split", "{:.1%}"),
    ("coverage", "meaningful lines covered", "{:.1%}"),
    ("duplication", "duplication (lines embedded / lines)", "{:.2f}×"),
    # Shown only with the retrieval probe on (see clanka_nb.retrieval):
    ("recall@5", "search recall@5 (probe)", "{:.1%}"),
    ("mrr", "search MRR (probe)", "{:.3f}"),
    ("precision", "search precision@5 (probe)", "{:.1%}"),
)
PROBE_STATS = frozenset({"recall@5", "mrr", "precision"})

# Lines of the preview's page: every move redraws it, and the browser takes about 0.5 ms a line
# (a page of 2,000 lines of three.js was 1.7 MB of HTML and 0.9 s in Chromium); the page buttons turn it.
PAGE_LINES = 300

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


def _fmt(value: Any, pattern: str) -> str:
    return "–" if value is None else pattern.format(value)


def render_stats(stats: dict[str, Any], before: dict[str, Any] | None = None) -> str:
    """The statistics of one setting as a small table, with the previous setting's next to them."""
    cell = "padding:1px 8px;text-align:right;white-space:nowrap"
    rows = []
    reason = stats.get("probe_reason")
    for key, label, pattern in STAT_ROWS:
        if key not in stats or (reason and key in PROBE_STATS):
            continue
        if key == "tokens_total" and stats.get("token_counter"):
            label = f"tokens ({stats['token_counter']})"
        now = _fmt(stats.get(key), pattern)
        was = _fmt(before.get(key), pattern) if before is not None else ""
        changed = before is not None and was != now
        if stats.get(f"{key}_low") is not None:  # the probe's 95% interval over its queries
            now += f" ({_fmt(stats[f'{key}_low'], pattern)}–{_fmt(stats[f'{key}_high'], pattern)})"
        style = "font-weight:600" if changed else ""
        rows.append(
            f'<tr data-stat="{key}"><td style="padding:1px 8px 1px 0;white-space:nowrap">{escape(label)}</td>'
            f'<td style="{cell};{style}">{now}</td><td style="{cell};color:{MUTED}">{was}</td></tr>'
        )
    if stats.get("vs_before") and not reason:
        # Whether the move changed search beyond what these queries can tell (a paired test on them).
        rows.append(
            f'<tr data-stat="vs_before"><td colspan="3" style="padding:1px 8px 1px 0;color:{MUTED};max-width:420px;'
            f'white-space:normal">{escape(stats["vs_before"])}</td></tr>'
        )
    if reason and any(key in stats for key in PROBE_STATS):
        # No query: say why instead of a dash in each search row.
        rows.append(
            f'<tr data-stat="probe"><td colspan="3" style="padding:1px 8px 1px 0;color:{MUTED};max-width:420px;'
            f'white-space:normal">search probe (recall, MRR): no queries, because {escape(reason)}</td></tr>'
        )
    settings = escape(settings_text({k: stats[k] for k in ("chunk_size", "chunk_overlap", "chunk_max_characters")}))
    clamped = " (clamped: the engine uses " if stats.get("clamped") else ""
    if clamped:
        clamped += f"size {stats['effective_size']}, overlap {stats['effective_overlap']})"
    return (
        f'<div data-clanka="stats" style="{UI_FONT};color:{TEXT}"><div style="margin-bottom:4px">'
        f'<b>{settings}</b>{escape(clamped)}</div><table style="border-collapse:collapse">'
        f'<tr><th></th><th style="{cell}">now</th><th style="{cell};color:{MUTED}">before</th></tr>'
        f"{''.join(rows)}</table></div>"
    )


class Tuner(widgets.VBox):
    """Move the chunk settings and watch the statistics, the size histogram and one file's boundaries.

    Controls: `chunk_size`, `chunk_overlap` (bounded by chunk_size - 1), `max_characters` with its
    switch `limit_characters`, `file_picker`. Sliders update on release (`continuous_update=False`:
    a drag sends one value, so the kernel never queues updates for positions already left behind).
    Moves from the browser are debounced: one arriving within `debounce` seconds of the last update
    (keys held down, quick releases, messages queued while an update ran) only schedules an update
    at the end of that window, which reads the settings then, so later moves join it and none is
    computed for a position already left behind. Changes made in code update at once.
    State: `.settings` (`engine.ChunkSettings`), `.frame` (all chunks at the settings, with their
    text, built when first read: an update itself works from the engine's spans), `.file_frame`
    (the picked file's), `.stats` (the `cn.sweep` row of the settings), `.before` (the previous stats),
    `.seconds` (time of the last update, shown in `.timing`), `.updates` (how many were made).
    `update()` recomputes everything. With the `probe`
    checkbox on, `.stats` also holds the retrieval probe's recall@k, mrr and precision with the 95%
    intervals of recall and mrr over the queries (`mrr_low`, `mrr_high`...), shown beside them;
    `vs_before`: whether the last move changed MRR beyond what the queries can tell (a paired test on
    the same queries, as the sweep's verdict); and `probe_reason`: why the probe has no query (None
    when it has), shown in place of the scores.
    """

    def __init__(
        self,
        codebase: engine.Codebase,
        *,
        path: str | None = None,
        probe: bool = False,
        queries: pd.DataFrame | None = None,
        token_counter: object = None,
        chunk_size: int = CHUNK_SIZE, chunk_overlap: int = CHUNK_OVERLAP, chunk_max_characters: float | None = NO_LIMIT,
    ) -> None:
        settings = Settings(chunk_size, chunk_overlap, chunk_max_characters).warned().chunk
        files = [p for p in codebase.files if (t := codebase.text(p)) is not None and t.lines]
        if path is not None:
            path = pickable(codebase, path, files)
        self.token_counter = None if token_counter is None else resolve_counter(token_counter)
        self._probe_set: ProbeSet | None = None
        self._outcome: Outcome | None = None  # the probe's per-query result at the last update
        self._queries = queries  # the probe's queries (None: its defaults), checked when it first runs
        self._searcher = BM25Searcher()
        self.codebase = codebase
        self.texts = Texts(codebase=codebase, languages=codebase.languages)
        self._stats = frames.CodebaseStats(codebase)
        self._whole: dict[int, Any] = {}  # spans of files no setting splits, reused by every update
        self._frame: pd.DataFrame | None = None
        self._lines: tuple[str, list[str], list[bool] | None, str | None] | None = None  # the picked file's
        self._shown = settings  # the settings of the last update
        self._busy = False
        self.debounce = DEBOUNCE
        self.updates = 0  # updates made so far
        self._pending: asyncio.TimerHandle | None = None  # the update a debounced move scheduled
        self._done = 0.0  # time.monotonic() at the end of the last update
        self.stats: dict[str, Any] = {}
        self.before: dict[str, Any] | None = None
        self.seconds = 0.0
        slider = {"continuous_update": False, "style": {"description_width": "110px"}}
        slider_layout = {"width": "400px"}
        self.chunk_size = widgets.IntSlider(
            value=settings.chunk_size, min=1, max=max(200, settings.chunk_size), description="chunk_size",
            layout=widgets.Layout(**slider_layout), **slider,
        )  # fmt: skip
        self.chunk_overlap = widgets.IntSlider(
            value=settings.chunk_overlap, min=0, max=max(0, settings.chunk_size - 1), description="chunk_overlap",
            layout=widgets.Layout(**slider_layout), **slider,
        )  # fmt: skip
        limit = settings.chunk_max_characters
        self.limit_characters = widgets.Checkbox(
            value=limit is not None, description="limit characters", indent=False, layout=widgets.Layout(width="140px")
        )
        self.max_characters = widgets.IntSlider(
            value=limit if limit is not None else 2000, min=100, max=max(20000, limit or 0), step=100,
            description="max characters", disabled=limit is None, layout=widgets.Layout(width="300px"), **slider,
        )  # fmt: skip
        self.file_picker = widgets.Dropdown(
            options=files, value=None, description="file", style={"description_width": "110px"},
            layout=widgets.Layout(width="400px"),
        )  # fmt: skip
        # Off by default: scoring search costs about as much as chunking again (BM25 over every chunk).
        self.probe = widgets.Checkbox(
            value=probe, description="retrieval probe (recall@5, MRR)", indent=False,
            layout=widgets.Layout(width="400px"),
        )  # fmt: skip
        self.stats_html = widgets.HTML(layout=widgets.Layout(margin="0 0 0 24px"))
        self.timing = widgets.HTML(layout=widgets.Layout(margin="0 0 0 24px"))  # the last update's time
        self.histogram = widgets.HTML()
        self.preview = PreviewPane()
        for control in (self.chunk_size, self.chunk_overlap, self.limit_characters, self.max_characters, self.probe):
            control.observe(self._on_setting, "value")
        self.file_picker.observe(self._on_file, "value")
        controls = widgets.VBox(
            [self.chunk_size, self.chunk_overlap, widgets.HBox([self.limit_characters, self.max_characters]),
             self.file_picker, self.probe],
        )  # fmt: skip
        top = widgets.HBox(
            [widgets.VBox([controls, self.histogram]), widgets.VBox([self.stats_html, self.timing])],
            layout=widgets.Layout(flex_flow="row wrap"),
        )
        super().__init__([top, self.preview])
        self.add_class("clanka-tune")
        self.update()
        self._busy = True
        try:
            if path is None:
                path = busiest_file(self.frame) or (files[0] if files else None)
            self.file_picker.value = path
        finally:
            self._busy = False
        self._show_file()

    def __repr__(self) -> str:
        settings = self.settings
        return (
            f"Tuner({len(self.codebase.files):,} files, chunk_size={settings.chunk_size}, "
            f"chunk_overlap={settings.chunk_overlap}, chunk_max_characters={settings.chunk_max_characters}: "
            f"{self.stats['chunks']:,} chunks)"
        )

    def _repr_html_(self) -> str:
        """A still picture of the panel, for where widgets do not run (nbviewer, GitHub)."""
        shown = self.preview.preview
        return (
            f'<div style="display:flex;flex-wrap:wrap;gap:24px">{self.histogram.value}{self.stats_html.value}</div>'
            + ("" if shown is None else shown.html)
        )

    @property
    def settings(self) -> engine.ChunkSettings:
        limit = self.max_characters.value if self.limit_characters.value else None
        return engine.ChunkSettings.build(self.chunk_size.value, self.chunk_overlap.value, limit)

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

    @property
    def frame(self) -> pd.DataFrame:
        """All chunks at the settings of the last update, with their text: built when first asked for.

        A slider move does not need it (statistics and histogram come from the engine's spans,
        the preview from the picked file's chunks), so it is made only when read.
        """
        if self._frame is None:
            settings = self._shown
            self._frame = frames.chunk_codebase(
                self.codebase,
                chunk_size=settings.requested_size,
                chunk_overlap=settings.requested_overlap,
                chunk_max_characters=settings.chunk_max_characters,
                progress=False,
                token_counter=self.token_counter,
            )
        return self._frame

    def update(self) -> None:
        """Re-chunk the parsed codebase at the current settings and redraw statistics, histogram and preview."""
        started = time.perf_counter()
        if self._pending is not None:  # this update reads the latest settings already
            self._pending.cancel()
            self._pending = None
        settings = self.settings
        self._shown, self._frame = settings, None
        if self.stats:
            self.before = self.stats
        with paused_cycle_collection():  # tens of thousands of short-lived spans; no user code runs here
            self.stats, lines = self._stats.spans_row(self.codebase, settings, self._whole)
        if self.token_counter is not None:
            # Tokens of each chunk's embedding input by the real tokenizer, not the chars/4 estimate:
            # these need every chunk's text, so the whole frame is built.
            tokens = self.frame["tokens"].to_numpy(dtype="float64")
            self.stats.update(tokens_total=float(tokens.sum()), token_counter=self.token_counter.name,
                              tokens_mean=float(tokens.mean()) if len(tokens) else None)
        if self.probe.value:
            if self._probe_set is None:
                with warnings.catch_warnings():
                    # The panel shows the reason in place of the search rows instead.
                    warnings.simplefilter("ignore", NoProbeQueriesWarning)
                    # Queries extracted (or checked) once for the panel's life.
                    self._probe_set = ProbeSet(self.codebase, self._queries)
            columns, outcome, _ = scored_row(self._probe_set, settings, self._searcher, DEFAULT_K,
                                             Bootstrap(len(self._probe_set.queries),
                                                       groups=self._probe_set.groups))  # fmt: skip
            self.stats.update(columns)
            self.stats["probe_reason"] = self._probe_set.reason
            if self._outcome is not None and self.before is not None and "mrr" in self.before:
                self.stats["vs_before"] = compared(self._outcome, outcome)
            self._outcome = outcome
        else:
            self._outcome = None
        # The numbers first (what a move is for): the browser shows them before the drawing that follows.
        self.stats_html.value = render_stats(self.stats, self.before)
        self.histogram.value = render_histogram(lines, marker=settings.chunk_size)
        # The picked file's chunks and their drawing are many small objects too; a token counter is user code.
        with paused_cycle_collection() if self.token_counter is None else contextlib.nullcontext():
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
        path = self.file_picker.value
        settings = self._shown
        if path is None:
            self.file_frame = frames.chunk_files(self.codebase, [], chunk_size=settings.requested_size,
                                                 chunk_overlap=settings.requested_overlap,
                                                 chunk_max_characters=settings.chunk_max_characters,
                                                 token_counter=self.token_counter)
            self.preview.show(None)
            return
        if self._frame is not None:
            self.file_frame = self._frame[(self._frame["path"] == path).to_numpy(dtype=bool)]
        else:
            # Only the picked file's chunks get their text: the rest of the codebase is not copied.
            self.file_frame = frames.chunk_files(
                self.codebase, [path], chunk_size=settings.requested_size, chunk_overlap=settings.requested_overlap,
                chunk_max_characters=settings.chunk_max_characters, token_counter=self.token_counter,
            )  # fmt: skip
        if self._lines is None or self._lines[0] != path:
            # The codebase does not change under the panel: a file's lines and flags hold for every move.
            self._lines = (path, *file_lines(self.texts, path, self.file_frame))
        _, lines, flags, note = self._lines
        language = engine.language_of(path)
        self.preview.show(
            Preview(lines, self.file_frame, path=path, language=language, meaningful=flags, note=note, height=460,
                    max_lines=PAGE_LINES)
        )


def tune(
    source: Source = None,
    path: str | None = None,
    *,
    probe: bool = False,
    queries: pd.DataFrame | None = None,
    token_counter: object = None,
    chunk_size: int = CHUNK_SIZE, chunk_overlap: int = CHUNK_OVERLAP, chunk_max_characters: float | None = NO_LIMIT,
    languages: str | None = None, max_file_size: str | int = MAX_FILE_SIZE, workers: int | None = None,
) -> Tuner:
    """Open the tuning panel on `source` (a folder, one file, an `engine.Codebase`, a chunk frame; the sample
    when None).

    `path` picks the file to preview; `probe=True` starts with the retrieval probe on, scoring
    `queries=` when given (as in `sweep`: `probe_queries`, `history_queries` or your own frame);
    `token_counter=` ("cl100k_base", a tiktoken encoding, a callable...) counts real tokens of the
    embedding inputs instead of the chars/4 estimate. The chunk settings are where the sliders start
    (a chunk frame's own where none is given).
    """
    # The Tuner warns when a chunk setting is clamped.
    settings = Settings(chunk_size, chunk_overlap, chunk_max_characters, languages, max_file_size, workers)
    check_early(source, path)
    codebase, opened = open_source(source, settings, progress=False)
    if queries is not None:
        check_queries(queries, codebase)  # a wrong frame is an error now, not when the checkbox is ticked
    return Tuner(codebase, path=path, probe=probe, queries=queries, token_counter=token_counter,
                 chunk_size=opened.chunk_size, chunk_overlap=opened.chunk_overlap,
                 chunk_max_characters=opened.chunk_max_characters)  # fmt: skip
