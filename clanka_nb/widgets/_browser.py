"""The codebase browser: files with chunk counts, chunk filters, a paged table and the boundary preview."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Unpack, cast

import ipywidgets as widgets
import pandas as pd

from ..engine.settings import Settings, SourceKeywords, checked_init, checked_keywords, setting_keywords
from ._browser_model import (
    ALL_FILES,
    BrowserModel,
    Filters,
    file_options,
    file_to_show,
    header_html,
    settings_text,
    status_html,
)
from ._export import page, save_view
from ._preview import Preview, PreviewPane
from ._source import Source, Texts, open_chunks
from ._style import MUTED, NOTICE, UI_FONT
from ._table import ChunkTable, render_table

PAGE_ROWS = 1000  # rows of the chunk table an exported page lists at most (a CSV holds them all)

__all__ = ["ALL_FILES", "Browser", "BrowserModel", "browse", "settings_text"]  # settings_text: the panels' import


def _label(text: str, width: str = "70px") -> dict[str, Any]:
    return {"description": text, "style": {"description_width": width}}


@checked_init
class Browser(widgets.VBox):
    """Browse a chunk frame: filter, sort and page its chunks, and see any file with its boundaries.

    State, in `.model` (a `BrowserModel`): `.model.data` (all chunks), `.model.files` (per file: chunks
    passing the other filters, and all its chunks), `.model.mask`. Here: `.frame` (the chunks passing the
    filters, in the table's order), `.file` (the file picked). Controls:
    `type_filter` (several types at once; "(none)" for untyped chunks), `parent_filter`
    (substring, or "(top level)"), `name_filter`, `path_filter` (substrings, any case),
    `language_filter`, `clear_button`, `file_list` (a file: the table shows only its chunks and
    the preview shows it; "(all files)", value "", for every file), `table` (a `ChunkTable`:
    `sort_by`, `descending`, page buttons, `row_picker`) and `preview` (a `PreviewPane`). Setting
    any control's `.value` refreshes the view; `set_filters(...)` sets several with one refresh;
    `save("x.html")` writes the view as a self-contained page (the chunks passing the filters and the whole file
    shown).

    Args:
        frame: A chunk frame, or a `BrowserModel`.
        texts: The files' texts for the preview; None: those the frame's attrs name (its root, read as needed).
        page_size: Rows per page of the table.
        preview_height: The preview's height in px.
    """

    def __init__(
        self,
        frame: pd.DataFrame | BrowserModel,
        texts: Texts | None = None,
        *,
        page_size: int = 15,
        preview_height: int = 460,
    ) -> None:
        # The model holds the state; this widget holds the model, its controls, and copies between them.
        self.model = frame if isinstance(frame, BrowserModel) else BrowserModel(
            frame, texts, preview_height=preview_height
        )
        self._frame: pd.DataFrame | None = None
        self._busy = False
        self._build_controls(page_size)
        self.refresh()  # also shows the first file

    def _build_controls(self, page_size: int) -> None:
        model = self.model
        type_options = model.type_options()
        self.type_filter = widgets.SelectMultiple(
            options=type_options, value=(), rows=min(9, max(2, len(type_options))), **_label("type", "40px"),
            layout=widgets.Layout(width="220px"),
        )  # fmt: skip
        self.parent_filter = widgets.Combobox(
            options=model.parent_suggestions(), placeholder="class StockLedger, Ledger* (contains), (top level)",
            ensure_option=False, **_label("parent"), layout=widgets.Layout(width="340px"),
        )  # fmt: skip
        self.name_filter = widgets.Text(placeholder="part of a name", **_label("name"))
        self.path_filter = widgets.Text(placeholder="part of a path", **_label("path"))
        choices = [("any", ""), *((x, x) for x in model.languages())]
        self.language_filter = widgets.Dropdown(options=choices, **_label("language"))
        self.clear_button = widgets.Button(description="clear filters", icon="times")
        self.clear_button.on_click(lambda _: self.clear_filters())
        for control in self.filters.values():
            control.observe(self._on_filter, "value")
        self.file_list = widgets.Select(options=[], rows=16, layout=widgets.Layout(width="auto", min_width="0"))
        self.file_list.observe(self._on_filter, "value")
        self.table = ChunkTable(model.data, page_size=page_size, on_select=self.select_chunk_at)
        self.table.sort_by.observe(self._forget_frame, "value")
        self.table.descending.observe(self._forget_frame, "value")
        self.preview = PreviewPane()
        self.header = widgets.HTML(header_html(model))
        self.status = widgets.HTML()
        texts = widgets.VBox([self.parent_filter, self.name_filter, self.path_filter, self.language_filter])
        filters = widgets.HBox([self.type_filter, texts, self.clear_button])
        files = widgets.VBox(
            [widgets.HTML(f'<b style="{UI_FONT}">files</b> <span style="{UI_FONT};color:{MUTED}">(chunks) · '
                          "pick one to list only its chunks</span>"),
             self.file_list],
            # At least as wide as its longest label (a "ch" is as wide as a digit, wider than most letters), so
            # the select does not cut off the counts at the labels' end.
            layout=widgets.Layout(flex="1 1 auto", width="26%", min_width=f"calc({model.list_chars}ch + 16px)",
                                  max_width="100%"),
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

    def __repr__(self) -> str:
        return repr(self.model)

    def _repr_html_(self) -> str:
        """A still picture of the browser, for where widgets do not run (nbviewer, GitHub): the lines in view."""
        shown = self.preview.preview
        lines = "" if shown is None else shown.in_view().html
        return str(self.header.value) + str(self.status.value) + str(self.table.html.value) + lines

    def page_html(self) -> str:
        """The browser as one self-contained page: the chunks passing the filters, every line of the file shown."""
        frame = self.frame
        listed = render_table(frame.iloc[:PAGE_ROWS], total=len(frame), paths=self.table.paths)
        cut = (
            f'<div style="{UI_FONT};{NOTICE};padding:4px 8px">The first {PAGE_ROWS:,} of {len(frame):,} chunks; '
            "cn.browse(...).frame.to_csv(...) writes them all.</div>"
            if len(frame) > PAGE_ROWS else ""
        )  # fmt: skip
        shown = self.preview.preview
        whole = "" if shown is None else shown.whole().still_html
        return page(f"{self.model!r}", self.header.value + self.status.value + listed + cut + whole)

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the browser as a self-contained page (`.html`: no server, no kernel; the format from the suffix).

        Args:
            path: The file to write (.html).

        Returns:
            The path written.

        Raises:
            ValueError: Another suffix.
        """
        return save_view(path, view="browser", html=self.page_html)

    @property
    def frame(self) -> pd.DataFrame:
        """The chunks passing the filters, in the table's order."""
        if self._frame is None:
            self._frame = self.model.data.iloc[self.table.positions]
        return self._frame

    @checked_keywords
    def set_filters(
        self,
        *,
        types: str | tuple[str, ...] | list[str] | None = None,
        parent: str | None = None,
        name: str | None = None,
        language: str | None = None,
        path: str | None = None,
        file: str | None = None,
    ) -> None:
        """Set several filters and refresh once; None leaves a filter as it is.

        `types` is one type ("method") or several; `file` picks one file in the file list (its exact path; "" for
        all files). A misspelt keyword (`type=`) is a TypeError naming the closest.
        """
        if isinstance(types, str):  # one type, not its letters
            types = (types,)
        self.model.check(types, file)  # KeyError naming a path with no chunks, ValueError an unknown type
        wanted = {"types": None if types is None else tuple(types), "parent": parent, "name": name,
                  "language": language, "path": path}  # fmt: skip
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
            self.file_list.options = [*self.file_list.options, (self.model.listed_paths.get(path, path), path)]
        self.file_list.value = path

    def _on_filter(self, _change: Any) -> None:
        if not self._busy:
            self.refresh()

    def _forget_frame(self, _change: Any) -> None:
        self._frame = None

    def refresh(self) -> None:
        """Apply the filters: table from page 1, file counts, status line; the picked file in the preview."""
        model = self.model
        model.filters = Filters(
            types=tuple(self.type_filter.value), parent=self.parent_filter.value, name=self.name_filter.value,
            language=self.language_filter.value or "", path=self.path_filter.value, file=self.file,
        )  # fmt: skip
        model.apply()
        self._frame = None
        self.table.show(model.mask)
        files = model.files
        listed = self._update_files(file_options(model, files))
        shown = self.preview.preview
        path = file_to_show(model, None if shown is None else shown.path, listed)
        if path is None:
            self.preview.show(None)
        elif shown is None or shown.path != path:
            self.select_file(path)
        self.status.value = status_html(model, files)

    def _update_files(self, options: list[tuple[str, str]]) -> list[str]:
        """Show `options` in the file list, the picked file kept; the paths listed."""
        if options != list(self.file_list.options):
            self._busy = True
            try:
                self.file_list.options = options
                self.file_list.value = self.model.filters.file if options else None
            finally:
                self._busy = False
        return [path for _, path in options[1:]]

    def select_file(self, path: str) -> Preview:
        """Show `path` with all its chunk boundaries in the preview."""
        return self._show(path, None)

    def select_chunk(self, position: int) -> Preview:
        """Show the chunk at `position` of `.frame` (0-based) outlined in its file."""
        self.table.select(position)  # calls select_chunk_at through the table's on_select
        return cast(Preview, self.preview.preview)

    def select_chunk_at(self, row: int) -> None:
        """Show the chunk at row position `row` of `.model.data` outlined in its file."""
        self._show(str(self.model.data["path"].iloc[row]), row)

    def _show(self, path: str, row: int | None) -> Preview:
        preview = self.model.preview_of(path, row)
        # The file list is a filter: showing another file's chunk leaves the table as it is.
        self.preview.show(preview)
        return preview


@setting_keywords
def browse(
    source: Source = None, *,
    settings: Settings | None = None, **given: Unpack[SourceKeywords],
) -> Browser:
    """Open a codebase browser on `source`: a folder, one file, an `engine.Codebase`, a chunk frame, or
    None for the sample codebase that ships with clanka-nb.

    A chunk frame given alone is shown as it is (filtered or not); with settings, its codebase is
    chunked again at them (the frame's own settings for the rest). Any other source is chunked at
    the settings.

    Args:
        source: A folder, one file, an `engine.Codebase`, a chunk frame, or None for the sample codebase.

    Returns:
        The browser widget (its table of files, the chunks of the file chosen, the source with its boundaries).

    Examples:
        >>> cn.browse("my-repo", chunk_size=40)
    """
    settings = Settings(**given).over(settings)
    viewed = open_chunks(source, settings)
    return Browser(BrowserModel(viewed.frame, viewed.texts, said=viewed.said))
