"""The codebase browser: files with chunk counts, chunk filters, a paged table and the boundary preview."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any, cast

import ipywidgets as widgets
import numpy as np
import pandas as pd

from .. import engine
from ..defaults import CHUNK_OVERLAP, CHUNK_SIZE, MAX_FILE_SIZE, NO_LIMIT
from ..engine.settings import NONE_IS_NO_LIMIT, Settings
from ._filters import NO_TYPE, TOP_LEVEL, ChunkFilter
from ._preview import Preview, PreviewPane
from ._source import Source, Texts, file_lines, open_chunks
from ._style import MUTED, UI_FONT, type_chip
from ._table import ChunkTable, short_path

_CONTEXT_LINES = 3  # lines shown above a chosen chunk
_PARENT_SUGGESTIONS = 1000  # the parent box suggests the most common parents; any text still filters
ALL_FILES = ""  # the file list's first choice: chunks of every file
_ALL_FILES_LABEL = "(all files)"


def settings_text(attrs: dict[str, Any]) -> str:
    """The chunk settings recorded in a frame's attrs, as one line."""
    chunking = engine.ChunkSettings.of_attrs(attrs)
    if chunking is None:
        return "settings unknown"
    # The values as the attrs hold them (a frame's: as used; a sweep row's: as requested), none for no limit.
    shown = {name: attrs.get(name, value) for name, value in chunking.columns().items()}
    return " · ".join(f"{name}={_shown(name, value)}" for name, value in shown.items())


def _shown(name: str, value: object) -> str:
    if name not in NONE_IS_NO_LIMIT:
        return str(value)
    return "none" if value is None else f"{value:,}"


def _label(text: str, width: str = "70px") -> dict[str, Any]:
    return {"description": text, "style": {"description_width": width}}


class Browser(widgets.VBox):
    """Browse a chunk frame: filter, sort and page its chunks, and see any file with its boundaries.

    State: `.data` (all chunks), `.frame` (the chunks passing the filters, in the table's order),
    `.files` (per file: chunks passing the other filters, and all its chunks), `.mask`. Controls:
    `type_filter` (several types at once; "(none)" for untyped chunks), `parent_filter`
    (substring, or "(top level)"), `name_filter`, `path_filter` (substrings, any case),
    `language_filter`, `clear_button`, `file_list` (a file: the table shows only its chunks and
    the preview shows it; "(all files)", value "", for every file), `table` (a `ChunkTable`:
    `sort_by`, `descending`, page buttons, `row_picker`) and `preview` (a `PreviewPane`). Setting
    any control's `.value` refreshes the view; `set_filters(...)` sets several with one refresh.
    """

    def __init__(
        self, frame: pd.DataFrame, texts: Texts | None = None, *, page_size: int = 15, preview_height: int = 460
    ) -> None:
        self.data = frame
        self.preview_height = preview_height
        self.texts = Texts.of_frame(frame) if texts is None else texts
        self._filter = ChunkFilter(frame)
        self.mask = np.ones(len(frame), dtype=bool)
        self._matching = self.mask  # the rows passing every filter but the file list
        self._frame: pd.DataFrame | None = None
        self._busy = False
        self._build_controls(page_size)
        self.refresh()  # also shows the first file

    def _build_controls(self, page_size: int) -> None:
        types = self._filter.type
        counts = np.bincount(types.codes + 1, minlength=len(types.categories) + 1)
        type_options = [(f"{t} ({counts[i + 1]:,})", t) for i, t in enumerate(types.categories) if counts[i + 1]]
        if counts[0]:
            type_options.append((f"{NO_TYPE} ({counts[0]:,})", NO_TYPE))
        self.type_filter = widgets.SelectMultiple(
            options=type_options, value=(), rows=min(9, max(2, len(type_options))), **_label("type", "40px"),
            layout=widgets.Layout(width="220px"),
        )  # fmt: skip
        self.parent_filter = widgets.Combobox(
            options=self._parent_suggestions(), placeholder="e.g. class StockLedger, or (top level)",
            ensure_option=False, **_label("parent"), layout=widgets.Layout(width="340px"),
        )  # fmt: skip
        self.name_filter = widgets.Text(placeholder="part of a name", **_label("name"))
        self.path_filter = widgets.Text(placeholder="part of a path", **_label("path"))
        languages = self._filter.language.categories if self._filter.language is not None else []
        choices = [("any", ""), *((x, x) for x in languages)]
        self.language_filter = widgets.Dropdown(options=choices, **_label("language"))
        self.clear_button = widgets.Button(description="clear filters", icon="times")
        self.clear_button.on_click(lambda _: self.clear_filters())
        for control in self.filters.values():
            control.observe(self._on_filter, "value")
        self.file_list = widgets.Select(options=[], rows=16, layout=widgets.Layout(width="auto", min_width="0"))
        self.file_list.observe(self._on_filter, "value")
        self.table = ChunkTable(self.data, page_size=page_size, on_select=self.select_chunk_at)
        self.table.sort_by.observe(self._forget_frame, "value")
        self.table.descending.observe(self._forget_frame, "value")
        self.preview = PreviewPane()
        self.header = widgets.HTML(self._header())
        self.status = widgets.HTML()
        texts = widgets.VBox([self.parent_filter, self.name_filter, self.path_filter, self.language_filter])
        filters = widgets.HBox([self.type_filter, texts, self.clear_button])
        files = widgets.VBox(
            [widgets.HTML(f'<b style="{UI_FONT}">files</b> <span style="{UI_FONT};color:{MUTED}">(chunks) · '
                          "pick one to list only its chunks</span>"),
             self.file_list],
            layout=widgets.Layout(flex="1 1 auto", width="26%", min_width="260px", max_width="100%"),
        )  # fmt: skip
        # Side by side where there is room; in a narrow output area (JupyterLab's file browser open) the file
        # list goes above the table and each takes the whole width. min_width=0: the table shrinks its
        # columns instead of pushing the output area wider.
        self.table.layout = widgets.Layout(flex="1 1 auto", width="74%", min_width="0", max_width="100%")
        lists = widgets.HBox([files, self.table], layout=widgets.Layout(flex_flow="row wrap"))
        filters.layout = widgets.Layout(flex_flow="row wrap")
        super().__init__([self.header, filters, self.status, lists, self.preview])
        self.add_class("clanka-browser")

    @property
    def filters(self) -> dict[str, widgets.ValueWidget]:
        """The filter controls by name."""
        return {
            "types": self.type_filter,
            "parent": self.parent_filter,
            "name": self.name_filter,
            "language": self.language_filter,
            "path": self.path_filter,
        }

    def _parent_suggestions(self) -> list[str]:
        parent = self._filter.parent
        if parent is None:
            return [TOP_LEVEL]
        counts = np.bincount(parent.codes[parent.codes >= 0], minlength=len(parent.categories))
        common = np.argsort(-counts, kind="stable")[:_PARENT_SUGGESTIONS]
        return [TOP_LEVEL, *(parent.categories[i] for i in common)]

    def _header(self) -> str:
        attrs = self.data.attrs
        root = attrs.get("root")
        where = escape(Path(root).name or str(root)) if root else "chunks"
        files = self._filter.path.categories
        return (
            f'<div style="{UI_FONT}"><b style="font-size:14px">{where}</b> · {len(files):,} files · '
            f'{len(self.data):,} chunks · <span style="color:{MUTED}">{escape(settings_text(attrs))}</span></div>'
        )

    def __repr__(self) -> str:
        files = len(self._filter.path.categories)
        return f"Browser({len(self.data):,} chunks in {files:,} files, {int(self.mask.sum()):,} match the filters)"

    def _repr_html_(self) -> str:
        """A still picture of the browser, for where widgets do not run (nbviewer, GitHub)."""
        shown = self.preview.preview
        return self.header.value + self.status.value + self.table.html.value + ("" if shown is None else shown.html)

    @property
    def frame(self) -> pd.DataFrame:
        """The chunks passing the filters, in the table's order."""
        if self._frame is None:
            self._frame = self.data.iloc[self.table.positions]
        return self._frame

    @property
    def files(self) -> pd.DataFrame:
        """Per file with chunks: how many pass the filters (all but the file list's) and how many it has."""
        coded = self._filter.path
        size = len(coded.categories)
        total = np.bincount(coded.codes, minlength=size)
        matching = np.bincount(coded.codes[self._matching], minlength=size)
        frame = pd.DataFrame({"path": coded.categories, "chunks": matching, "total_chunks": total})
        order = pd.unique(coded.codes)  # the files in the frame's (engine's) order
        return frame.iloc[order[order >= 0]].reset_index(drop=True)

    def set_filters(
        self,
        *,
        types: tuple[str, ...] | list[str] | None = None,
        parent: str | None = None,
        name: str | None = None,
        language: str | None = None,
        path: str | None = None,
        file: str | None = None,
    ) -> None:
        """Set several filters and refresh once; None leaves a filter as it is.

        `file` picks one file in the file list (its exact path; "" for all files).
        """
        wanted = {"types": types, "parent": parent, "name": name, "language": language, "path": path}
        if file:
            self._file_positions(file)  # KeyError naming the path when it has no chunks
        if types is not None:
            known = {value for _, value in self.type_filter.options}
            unknown = sorted(set(types) - known)
            if unknown:
                msg = f"no chunks of type {unknown}; the types here are {sorted(known)}"
                raise ValueError(msg)
            wanted["types"] = tuple(types)
        self._busy = True
        try:
            for key, value in wanted.items():
                if value is not None:
                    self.filters[key].value = value
            if file is not None:
                self._choose_file(file)
        finally:
            self._busy = False
        self.refresh()

    def clear_filters(self) -> None:
        self.set_filters(types=(), parent="", name="", language="", path="", file=ALL_FILES)

    @property
    def file(self) -> str:
        """The file the file list picked ("" for all files)."""
        return self.file_list.value or ALL_FILES

    def _choose_file(self, path: str) -> None:
        """Pick `path` in the file list, adding it to the list if the filters had left it out."""
        if path and path not in {value for _, value in self.file_list.options}:
            self.file_list.options = [*self.file_list.options, (path, path)]
        self.file_list.value = path

    def _on_filter(self, _change: Any) -> None:
        if not self._busy:
            self.refresh()

    def _forget_frame(self, _change: Any) -> None:
        self._frame = None

    def refresh(self) -> None:
        """Apply the filters: table from page 1, file counts, status line; the picked file in the preview."""
        self._matching = self._filter.mask(
            types=self.type_filter.value,
            parent=self.parent_filter.value.strip(),
            name=self.name_filter.value.strip(),
            language=self.language_filter.value or None,
            path=self.path_filter.value.strip(),
        )
        chosen = self.file
        self.mask = self._matching.copy()
        if chosen:
            picked = np.zeros(len(self.mask), dtype=bool)
            picked[self._file_positions(chosen)] = True
            self.mask &= picked
        self._frame = None
        self.table.show(self.mask)
        files = self.files
        listed = self._update_files(files, chosen)
        shown = self.preview.preview
        if chosen:
            if shown is None or shown.path != chosen:
                self.select_file(chosen)
        elif shown is None or shown.path not in listed:
            # Keep the preview on a file the filters leave: the first one listed.
            if listed:
                self.select_file(listed[0])
            else:
                self.preview.show(None)
        matching, total = int(self.mask.sum()), len(self.mask)
        chips = " ".join(type_chip(None if t == NO_TYPE else t) for t in self.type_filter.value)
        where = (
            f"in <b>{escape(chosen)}</b> (picked in the file list)"
            if chosen
            else f"in {int((files['chunks'] > 0).sum()):,} of {len(files):,} files"
        )
        self.status.value = (
            f'<div style="{UI_FONT};color:{MUTED}">{matching:,} of {total:,} chunks match, {where} {chips}</div>'
        )

    def _update_files(self, files: pd.DataFrame, chosen: str) -> list[str]:
        """List the files with matching chunks (all when nothing is filtered out) and the picked one; their paths."""
        filtered = bool(self._matching.size) and not self._matching.all()
        rows = files[(files["chunks"] > 0) | (files["path"] == chosen)] if filtered else files
        triples = zip(rows["path"], rows["chunks"], rows["total_chunks"], strict=True)
        labels = [f"{short_path(p)}  ({n}/{t})" if filtered else f"{short_path(p)}  ({t})" for p, n, t in triples]
        paths = rows["path"].tolist()
        options = list(zip(labels, paths, strict=True))
        if options:
            options.insert(0, (_ALL_FILES_LABEL, ALL_FILES))
        if options != list(self.file_list.options):
            self._busy = True
            try:
                self.file_list.options = options
                self.file_list.value = chosen if options else None
            finally:
                self._busy = False
        return paths

    def _file_positions(self, path: str) -> np.ndarray:
        coded = self._filter.path
        try:
            code = coded.categories.index(path)
        except ValueError:
            msg = f"{path!r} has no chunks here; see browser.files for the paths"
            raise KeyError(msg) from None
        return np.flatnonzero(coded.codes == code)

    def select_file(self, path: str) -> Preview:
        """Show `path` with all its chunk boundaries in the preview."""
        return self._show(path, None)

    def select_chunk(self, position: int) -> Preview:
        """Show the chunk at `position` of `.frame` (0-based) outlined in its file."""
        self.table.select(position)  # calls select_chunk_at through the table's on_select
        return cast(Preview, self.preview.preview)

    def select_chunk_at(self, row: int) -> None:
        """Show the chunk at row position `row` of `.data` outlined in its file."""
        self._show(str(self.data["path"].iloc[row]), row)

    def _show(self, path: str, row: int | None) -> Preview:
        positions = self._file_positions(path)
        chunks = self.data.iloc[positions]
        lines, flags, note = file_lines(self.texts, path, chunks)
        selected = None if row is None else int(np.searchsorted(positions, row))
        start = 1
        if row is not None and int(self.data["start_line"].iloc[row]) > _CONTEXT_LINES * 4:
            # No script may scroll the view, so a chosen chunk deep in the file starts the view instead.
            start = int(self.data["start_line"].iloc[row]) - _CONTEXT_LINES
        preview = Preview(
            lines, chunks, path=path, language=engine.language_of(path), meaningful=flags, note=note,
            start=min(start, max(1, len(lines))), selected=selected, height=self.preview_height,
        )  # fmt: skip
        # The file list is a filter: showing another file's chunk leaves the table as it is.
        self.preview.show(preview)
        return preview


def browse(
    source: Source = None, *,
    chunk_size: int = CHUNK_SIZE, chunk_overlap: int = CHUNK_OVERLAP, chunk_max_characters: float | None = NO_LIMIT,
    languages: str | None = None, max_file_size: str | int = MAX_FILE_SIZE, workers: int | None = None,
    settings: Settings | None = None,
) -> Browser:
    """Open a codebase browser on `source`: a folder, one file, an `engine.Codebase`, a chunk frame, or
    None for the sample codebase that ships with clanka-nb.

    A chunk frame given alone is shown as it is (filtered or not); with settings, its codebase is
    chunked again at them (the frame's own settings for the rest). Any other source is chunked at
    the settings.
    """
    settings = Settings(chunk_size, chunk_overlap, chunk_max_characters, languages, max_file_size,
                        workers).over(settings)
    viewed = open_chunks(source, settings)
    return Browser(viewed.frame, viewed.texts)
