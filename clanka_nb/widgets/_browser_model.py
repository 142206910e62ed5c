"""The codebase browser's model: its chunks, the filters' values and what they select, and the pure functions
that make its view model (header, status line, file list) from that state. No widget here: `Browser` holds one."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .. import engine
from ..engine.settings import NONE_IS_NO_LIMIT
from ..engine.source import FrameSource, read_frame
from ._filters import NO_TYPE, TOP_LEVEL, ChunkFilter
from ._paths import LIST_MAX_CHARS, LIST_PATH_CHARS, fit_paths
from ._preview import Preview
from ._source import Texts, file_lines
from ._style import MUTED, UI_FONT, parent_chip, type_chip

_CONTEXT_LINES = 3  # lines shown above a chosen chunk
_PARENT_SUGGESTIONS = 1000  # the parent box suggests the most common parents; any text still filters
ALL_FILES = ""  # the file list's first choice: chunks of every file
_ALL_FILES_LABEL = "(all files)"


@dataclass
class Filters:
    """The values of the browser's filters; empty ones pass everything (see `ChunkFilter.mask`)."""

    types: tuple[str, ...] = ()
    parent: str = ""
    name: str = ""
    language: str = ""
    path: str = ""
    file: str = ALL_FILES  # one file's exact path: only its chunks; ALL_FILES for every file


class BrowserModel:
    """A chunk frame to browse and the filters applied to it.

    State: `data` (all chunks), `said` (what the frame says of its root and settings, as the one reader
    of its attrs gave it: the header shows it without reading them again), `texts`, `filters`,
    `matching` (rows passing every filter but the file), `mask` (those of the picked file too).
    `apply()` recomputes both masks from `filters`; the rest is derived from them.
    """

    def __init__(
        self,
        frame: pd.DataFrame,
        texts: Texts | None = None,
        *,
        said: FrameSource | None = None,
        preview_height: int = 460,
    ) -> None:
        self.data = frame
        self.said = read_frame(frame) if said is None else said
        self.texts = Texts.of_said(self.said) if texts is None else texts
        self.preview_height = preview_height
        self.chunk_filter = ChunkFilter(frame)
        self.filters = Filters()
        self.mask = np.ones(len(frame), dtype=bool)
        self.matching = self.mask
        self._listed: dict[str, str] | None = None

    @property
    def listed_paths(self) -> dict[str, str]:
        """How the file list shows each file's path (`fit_paths` over every file, so a file reads the same
        whatever the filters); made when first asked for."""
        if self._listed is None:
            self._listed = fit_paths(self.chunk_filter.path.categories, LIST_PATH_CHARS)
        return self._listed

    @property
    def list_chars(self) -> int:
        """The characters of the file list's longest label, its count "(n/m)" at its widest, up to
        `LIST_MAX_CHARS` (about 400 px): the list is at least that wide, so no count is cut off at its end."""
        files = self.files
        shown = self.listed_paths
        longest = max((len(shown[p]) + 2 * len(str(t)) + 5 for p, t in zip(files["path"], files["total_chunks"],
                                                                          strict=True)), default=0)
        return min(LIST_MAX_CHARS, max(len(_ALL_FILES_LABEL), longest))

    def __repr__(self) -> str:
        files = len(self.chunk_filter.path.categories)
        return f"Browser({len(self.data):,} chunks in {files:,} files, {int(self.mask.sum()):,} match the filters)"

    def type_options(self) -> list[tuple[str, str]]:
        """(label with its count, type) of each type present; NO_TYPE last when untyped chunks are there."""
        types = self.chunk_filter.type
        counts = np.bincount(types.codes + 1, minlength=len(types.categories) + 1)
        options = [(f"{t} ({counts[i + 1]:,})", t) for i, t in enumerate(types.categories) if counts[i + 1]]
        if counts[0]:
            options.append((f"{NO_TYPE} ({counts[0]:,})", NO_TYPE))
        return options

    def parent_suggestions(self) -> list[str]:
        parent = self.chunk_filter.parent
        if parent is None:
            return [TOP_LEVEL]
        counts = np.bincount(parent.codes[parent.codes >= 0], minlength=len(parent.categories))
        common = np.argsort(-counts, kind="stable")[:_PARENT_SUGGESTIONS]
        return [TOP_LEVEL, *(parent.categories[i] for i in common)]

    def languages(self) -> list[str]:
        language = self.chunk_filter.language
        return language.categories if language is not None else []

    def check(self, types: tuple[str, ...] | list[str] | None, file: str | None) -> None:
        """Refuse a file with no chunks (KeyError) or an unknown type (ValueError) before anything changes."""
        if file:
            self.file_positions(file)
        if types is not None:
            known = {value for _, value in self.type_options()}
            unknown = sorted(set(types) - known)
            if unknown:
                msg = f"no chunks of type {unknown}; the types here are {sorted(known)}"
                raise ValueError(msg)

    def apply(self) -> None:
        """Recompute `matching` and `mask` from `filters`."""
        f = self.filters
        self.matching = self.chunk_filter.mask(
            types=f.types, parent=f.parent.strip(), name=f.name.strip(), language=f.language or None,
            path=f.path.strip(),
        )  # fmt: skip
        self.mask = self.matching.copy()
        if f.file:
            picked = np.zeros(len(self.mask), dtype=bool)
            picked[self.file_positions(f.file)] = True
            self.mask &= picked

    @property
    def files(self) -> pd.DataFrame:
        """Per file with chunks: how many pass the filters (all but the file list's) and how many it has."""
        coded = self.chunk_filter.path
        size = len(coded.categories)
        total = np.bincount(coded.codes, minlength=size)
        matching = np.bincount(coded.codes[self.matching], minlength=size)
        frame = pd.DataFrame({"path": coded.categories, "chunks": matching, "total_chunks": total})
        order = pd.unique(coded.codes)  # the files in the frame's (engine's) order
        return frame.iloc[order[order >= 0]].reset_index(drop=True)

    def file_positions(self, path: str) -> np.ndarray:
        coded = self.chunk_filter.path
        try:
            code = coded.categories.index(path)
        except ValueError:
            msg = f"{path!r} has no chunks here; see browser.model.files for the paths"
            raise KeyError(msg) from None
        return np.flatnonzero(coded.codes == code)

    def preview_of(self, path: str, row: int | None) -> Preview:
        """`path` with all its chunk boundaries; the chunk at row position `row` of `data` outlined, if given."""
        positions = self.file_positions(path)
        chunks = self.data.iloc[positions]
        lines, flags, note = file_lines(self.texts, path, chunks)
        selected = None if row is None else int(np.searchsorted(positions, row))
        start = 1
        if row is not None and int(self.data["start_line"].iloc[row]) > _CONTEXT_LINES * 4:
            # No script may scroll the view, so a chosen chunk deep in the file starts the view instead.
            start = int(self.data["start_line"].iloc[row]) - _CONTEXT_LINES
        return Preview(
            lines, chunks, path=path, language=engine.language_of(path), meaningful=flags, note=note,
            start=min(start, max(1, len(lines))), selected=selected, height=self.preview_height,
        ).in_mode(self.texts.languages)  # fmt: skip


def settings_text(attrs: dict[str, Any]) -> str:
    """The chunk settings recorded in a frame's attrs, as one line."""
    chunking = engine.ChunkSettings.of_attrs(attrs)
    if chunking is None:
        return "settings unknown"
    # The values as the attrs hold them (a frame's: as used; a sweep row's: as requested), none for no limit.
    shown = {name: attrs.get(name, value) for name, value in chunking.columns().items()}
    text = " · ".join(f"{name}={_shown(name, value)}" for name, value in shown.items())
    mode = attrs.get("languages")  # the language mode is never hidden (issue 53 item 5)
    return text if not mode else f"{text} · languages={mode}"


def _shown(name: str, value: object) -> str:
    if name not in NONE_IS_NO_LIMIT:
        return str(value)
    return "none" if value is None else f"{value:,}"


def settings_line(said: FrameSource) -> str:
    """The chunk settings the frame was made with, as the engine used them (clamped), as one line.

    The frame's attrs hold the requested values and the clamped ones beside them; clamping the requested again
    gives the clamped (the one writer of those attrs, `frames.chunks`, does just that), so one read of the
    attrs serves the header too."""
    given = dict(said.settings)
    if said.languages:
        given["languages"] = said.languages
    if "chunk_size" in given:
        try:
            used = engine.ChunkSettings.build(
                given["chunk_size"], given.get("chunk_overlap", 0), given.get("chunk_max_characters"), warn=False
            )
        except (TypeError, ValueError):  # attrs edited by hand: shown as they are, the header is no check
            pass
        else:
            given.update(chunk_size=used.effective_size, chunk_overlap=used.effective_overlap)
    return settings_text(given)


def header_html(model: BrowserModel) -> str:
    root = model.said.root
    where = escape(Path(root).name or str(root)) if root else "chunks"
    files = model.chunk_filter.path.categories
    return (
        f'<div style="{UI_FONT}"><b style="font-size:14px">{where}</b> · {len(files):,} files · '
        f'{len(model.data):,} chunks · <span style="color:{MUTED}">{escape(settings_line(model.said))}</span></div>'
    )


def file_options(model: BrowserModel, files: pd.DataFrame) -> list[tuple[str, str]]:
    """The file list's (label, path): the files with matching chunks (all when nothing is filtered out) and the
    picked one, after "(all files)"; labelled with their counts."""
    chosen = model.filters.file
    filtered = bool(model.matching.size) and not model.matching.all()
    rows = files[(files["chunks"] > 0) | (files["path"] == chosen)] if filtered else files
    triples = zip(rows["path"], rows["chunks"], rows["total_chunks"], strict=True)
    shown = model.listed_paths
    labels = [f"{shown[p]}  ({n}/{t})" if filtered else f"{shown[p]}  ({t})" for p, n, t in triples]
    options = list(zip(labels, rows["path"].tolist(), strict=True))
    if options:
        options.insert(0, (_ALL_FILES_LABEL, ALL_FILES))
    return options


def file_to_show(model: BrowserModel, shown: str | None, listed: list[str]) -> str | None:
    """The file the preview shows after the filters change: the picked one; else the one shown while the filters
    keep it; else the first one listed (None: no file is left)."""
    chosen = model.filters.file
    if chosen:
        return chosen
    if shown is not None and shown in listed:
        return shown
    return listed[0] if listed else None


def status_html(model: BrowserModel, files: pd.DataFrame) -> str:
    chosen = model.filters.file
    matching, total = int(model.mask.sum()), len(model.mask)
    chips = " ".join(type_chip(None if t == NO_TYPE else t) for t in model.filters.types)
    parent = model.filters.parent.strip()
    if parent:
        chips += " " + parent_chip(parent)
    where = (
        f"in <b>{escape(chosen)}</b> (picked in the file list)"
        if chosen
        else f"in {int((files['chunks'] > 0).sum()):,} of {len(files):,} files"
    )
    return f'<div style="{UI_FONT};color:{MUTED}">{matching:,} of {total:,} chunks match, {where} {chips}</div>'
