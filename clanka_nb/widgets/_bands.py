"""Chunks as the preview's gutter bands: from a chunk frame, `CodeChunk`s or dicts, one page at a time, each band
in a column of its own where bands overlap, and how many chunks cover each line."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..engine.settings import checked_keywords

# What clanka calls a chunk with no type; a peer chunker's own untyped chunks are named by its label instead.
LINE_WINDOW = "line window"


@dataclass(frozen=True, slots=True)
class Band:
    """One chunk as the preview draws it; `index` is its position in the chunks given."""

    index: int
    start_line: int
    end_line: int
    type: str | None = None
    name: str | None = None
    parent: str | None = None
    characters: int | None = None
    chunker: str | None = None
    why: str | None = None  # the rule that made the chunk, in words (engine.explain_file)

    @property
    def label(self) -> str:
        """Short text written in the band: type, name and lines."""
        words = [self.type or ("lines" if self.name is None else "untyped")]
        if self.name:
            words.append(self.name)
        words.append(f"{self.start_line}–{self.end_line}")
        return " ".join(words)

    @property
    def title(self) -> str:
        """Hover text: everything known about the chunk, one fact per line."""
        return self.describe()

    def describe(self, untyped: str = LINE_WINDOW) -> str:
        """The hover text, a chunk with neither type nor name called `untyped` (a peer's: "astchunk chunk")."""
        head = " ".join(part for part in (self.type, self.name) if part) or f"{untyped} (no declaration)"
        facts = [head]
        if self.parent:
            facts.append(f"parent: {self.parent}")
        count = self.end_line - self.start_line + 1
        facts.append(f"lines {self.start_line}–{self.end_line} ({count} line{'s' * (count != 1)})")
        if self.characters is not None:
            facts.append(f"{self.characters:,} characters")
        if self.chunker:
            facts.append(f"chunker: {self.chunker}")
        if self.why:
            facts.append(f"why: {self.why}")
        return "\n".join(facts)


def _value(value: Any) -> Any:
    """None for every spelling of missing (None, NaN, pd.NA) in a frame cell."""
    if value is None:
        return None
    try:
        missing = pd.isna(value)
    except (TypeError, ValueError):
        return value
    return None if missing is True else value


def _text(value: Any) -> str | None:
    value = _value(value)
    return None if value is None else str(value)


def chunk_bands(chunks: Any, path: str | None = None) -> list[Band]:
    """Bands from a chunk frame, `CodeChunk`s or dicts; only those of `path` when they carry paths."""
    fields = ("path", "start_line", "end_line", "type", "name", "parent", "characters", "chunker", "why")
    if isinstance(chunks, pd.DataFrame):
        missing = {"start_line", "end_line"} - set(chunks.columns)
        if missing:
            msg = f"the chunk frame has no {sorted(missing)} column(s); pass a frame from frames.chunk_codebase"
            raise ValueError(msg)
        return _frame_bands(chunks, path)
    rows: Iterable[dict[str, Any]] = (
        item if isinstance(item, dict) else {name: getattr(item, name, None) for name in fields} for item in chunks
    )
    bands = []
    for index, row in enumerate(rows):
        row_path = _text(row.get("path"))
        if path is not None and row_path is not None and row_path != path:
            continue
        characters = _value(row.get("characters"))
        bands.append(
            Band(
                index,
                int(row["start_line"]),
                int(row["end_line"]),
                _text(row.get("type")),
                _text(row.get("name")),
                _text(row.get("parent")),
                None if characters is None else int(characters),
                _text(row.get("chunker")),
                _text(row.get("why")),
            )
        )
    return bands


def _column(chunks: pd.DataFrame, name: str, text: bool) -> list[Any]:
    """A frame column as Python values with None for every spelling of missing, one null test per column."""
    if name not in chunks.columns:
        return [None] * len(chunks)
    column = chunks[name]
    values: list[Any] = column.tolist()
    missing = column.isna().to_numpy(dtype=bool)
    if missing.any():
        values = [None if gone else value for value, gone in zip(values, missing.tolist(), strict=True)]
    if text:
        return [None if value is None else str(value) for value in values]
    return values


def page_bands(
    chunks: Any, path: str, start: int, stop: int, selected: int | None
) -> tuple[list[Band], np.ndarray, np.ndarray, set[str | None]]:
    """The bands of lines `start`-`stop` (and the selected chunk's), and every band's first and last line and
    the types present. For a frame only the rows shown become `Band`s: a file of a million lines has a
    quarter of a million chunks, and a page shows a few hundred."""
    if not isinstance(chunks, pd.DataFrame):
        bands = chunk_bands(chunks, path)
        firsts = np.fromiter((b.start_line for b in bands), np.int64, len(bands))
        lasts = np.fromiter((b.end_line for b in bands), np.int64, len(bands))
        return bands, firsts, lasts, {b.type for b in bands}
    chunk_bands(chunks.iloc[:0], path)  # the same check of the columns
    # Without its attrs: pandas deep-copies a frame's attrs on every column read and row selection, which
    # cost more than the rest here (the panel redraws this on every slider move).
    chunks = chunks.copy(deep=False)
    chunks.attrs = {}
    ours = np.ones(len(chunks), dtype=bool)
    if "path" in chunks.columns:
        paths = chunks["path"]
        ours = (paths.isna() | (paths == path)).to_numpy(dtype=bool)
    positions = np.flatnonzero(ours)
    firsts = chunks["start_line"].to_numpy(dtype=np.int64)[positions]
    lasts = chunks["end_line"].to_numpy(dtype=np.int64)[positions]
    keep = (firsts <= stop) & (lasts >= start) & (firsts <= lasts)
    if selected is not None:
        keep |= positions == selected
    types: set[str | None] = set()
    if "type" in chunks.columns and len(positions):
        column = chunks["type"].iloc[positions]
        types = {str(t) for t in column.dropna().unique()} | ({None} if column.isna().any() else set())
    elif len(positions):
        types = {None}
    return _frame_bands(chunks, None, positions[keep]), firsts, lasts, types


def _frame_bands(chunks: pd.DataFrame, path: str | None, rows: np.ndarray | None = None) -> list[Band]:
    """`chunk_bands` of a chunk frame, column by column: a preview of a long file has thousands of rows.
    `rows` (positions) builds only those, each keeping its position in the whole frame as its index."""
    if rows is not None:
        return [
            dataclasses.replace(band, index=int(rows[i]))
            for i, band in enumerate(_frame_bands(chunks.iloc[rows], path))
        ]
    paths = _column(chunks, "path", True)
    starts, ends = chunks["start_line"].tolist(), chunks["end_line"].tolist()
    texts = [_column(chunks, name, True) for name in ("type", "name", "parent")]
    characters = [None if value is None else int(value) for value in _column(chunks, "characters", False)]
    chunker, why = _column(chunks, "chunker", True), _column(chunks, "why", True)
    return [
        Band(index, int(starts[index]), int(ends[index]), texts[0][index], texts[1][index], texts[2][index],
             characters[index], chunker[index], why[index])
        for index, row_path in enumerate(paths)
        if path is None or row_path is None or row_path == path
    ]  # fmt: skip


@checked_keywords
def assign_columns(bands: Sequence[Band]) -> list[int]:
    """A gutter column per band such that bands sharing a line never share a column.

    Greedy interval colouring: by start (longest first), each band takes the lowest column whose
    last band ended above it. Outer declarations therefore sit left of what they contain.

    Args:
        bands: The chunks as the preview draws them, each with its first and last line.

    Returns:
        One column per band, in the bands' order.
    """
    order = sorted(range(len(bands)), key=lambda i: (bands[i].start_line, -bands[i].end_line, i))
    column_ends: list[int] = []
    columns = [0] * len(bands)
    for i in order:
        band = bands[i]
        for column, end in enumerate(column_ends):
            if end < band.start_line:
                column_ends[column] = band.end_line
                columns[i] = column
                break
        else:
            columns[i] = len(column_ends)
            column_ends.append(band.end_line)
    return columns


def coverage_counts(line_count: int, firsts: np.ndarray, lasts: np.ndarray) -> np.ndarray:
    """How many chunks cover each line (index 0 = line 1), by a difference array."""
    delta = np.zeros(line_count + 2, dtype=np.int64)
    starts = firsts.clip(1, None)
    ends = lasts.clip(None, line_count)
    inside = starts <= ends
    np.add.at(delta, starts[inside], 1)
    np.add.at(delta, ends[inside] + 1, -1)
    return np.cumsum(delta)[1 : line_count + 1]
