"""What a viewer is given (nothing, a folder, a Codebase or a chunk frame) turned into chunks and text."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from .. import engine, frames
from .._sample import sample_codebase

Source = str | os.PathLike[str] | engine.Codebase | pd.DataFrame | None

CHUNK_SETTINGS = ("chunk_size", "chunk_overlap", "chunk_max_characters")
OPEN_SETTINGS = ("languages", "max_file_size", "workers")
# Below this many files a process pool costs more than it saves.
_POOL_FROM = 200


def check_settings(settings: Mapping[str, Any], allowed: tuple[str, ...] = CHUNK_SETTINGS + OPEN_SETTINGS) -> None:
    unknown = sorted(set(settings) - set(allowed))
    if unknown:
        msg = f"unknown setting(s) {unknown}; the settings are {', '.join(allowed)}"
        raise TypeError(msg)


def frame_root(frame: pd.DataFrame) -> str | None:
    """The folder a chunk frame's paths are relative to: `attrs["root"]`, else its one-valued `root` column.

    Frames of many roots (`clanka_nb.dask`) carry a `root` column, which survives Parquet where a
    per-root attribute would not; one frame shows one root at a time.
    """
    if "root" in frame.columns:
        roots = frame["root"].dropna().unique()
        if len(roots) > 1:
            msg = (
                f"this frame holds chunks of {len(roots)} roots (its `root` column); a viewer shows one: "
                f"pass frame[frame['root'] == {str(roots[0])!r}]"
            )
            raise ValueError(msg)
        if len(roots) == 1:
            return str(roots[0])
    root = frame.attrs.get("root")
    return None if root is None else str(root)


def open_codebase(source: Source, **settings: Any) -> engine.Codebase:
    """A parsed Codebase of `source` (the bundled sample when None); a Codebase is returned as is."""
    check_settings(settings, OPEN_SETTINGS)
    if isinstance(source, engine.Codebase):
        languages = settings.get("languages")
        if languages is not None and languages != source.languages:
            msg = (
                f"languages={languages!r} but the Codebase was parsed with {source.languages!r}; "
                "leave languages out or build the Codebase again"
            )
            raise ValueError(msg)
        return source
    if isinstance(source, pd.DataFrame):
        root = frame_root(source)
        if root is None:
            msg = "this chunk frame names no root (attrs or a root column), so it cannot be re-chunked; pass the folder"
            raise ValueError(msg)
        settings = {**settings, "languages": settings.get("languages") or source.attrs.get("languages")}
        source = root
    root = sample_codebase() if source is None else source
    max_file_size = settings.get("max_file_size", "1M")
    listed = engine.list_file_names(root, max_file_size=max_file_size)
    workers = settings.get("workers")
    if workers is None:
        workers = 1 if len(listed) < _POOL_FROM else None
    return engine.Codebase(root, paths=listed, workers=workers, languages=settings.get("languages") or "clanka")


def inside_root(path: str | os.PathLike[str] | None, root: str | None) -> str | None:
    """`path` relative to `root` when it is an absolute path inside it; any other path unchanged."""
    if path is None:
        return None
    text = os.fspath(path)
    if root is None or not os.path.isabs(text):
        return text
    rel = os.path.relpath(os.path.normpath(text), os.path.abspath(root)).replace(os.sep, "/")
    return text if rel == ".." or rel.startswith("../") else rel


@dataclass
class Texts:
    """The text of the files behind a chunk frame, for previews: from a Codebase, else read under the root."""

    codebase: engine.Codebase | None = None
    root: Path | None = None
    languages: str = "clanka"
    _cache: dict[str, engine.PreparedText | None] = field(default_factory=dict)

    @classmethod
    def of_frame(cls, frame: pd.DataFrame) -> Texts:
        """The texts behind a chunk frame: its files, read under `frame.attrs["root"]` when they are there."""
        root = frame_root(frame)
        return cls(root=None if root is None else Path(root), languages=frame.attrs.get("languages") or "clanka")

    def text(self, path: str) -> engine.PreparedText | None:
        if self.codebase is not None:
            try:
                return self.codebase.text(path)
            except KeyError:
                return None
        if path not in self._cache:
            self._cache[path] = self._read(path)
        return self._cache[path]

    def _read(self, path: str) -> engine.PreparedText | None:
        if self.root is None or not (self.root / path).is_file():
            return None
        codebase = engine.Codebase(self.root, paths=[path], workers=1, languages=self.languages)
        try:
            return codebase.text(path)
        except KeyError:
            return None


@dataclass
class Opened:
    """Chunks and where their text comes from."""

    frame: pd.DataFrame
    texts: Texts
    codebase: engine.Codebase | None


def open_chunks(source: Source, **settings: Any) -> Opened:
    """The chunk frame of `source` (chunked with `settings` unless it is a frame already) and its texts."""
    check_settings(settings)
    if isinstance(source, pd.DataFrame):
        if settings:
            msg = (
                f"settings {sorted(settings)} were given with a chunk frame, which is chunked already; "
                "pass the folder or Codebase to chunk it with these settings"
            )
            raise TypeError(msg)
        missing = {"path", "start_line", "end_line", "type"} - set(source.columns)
        if missing:
            msg = f"the frame has no {sorted(missing)} column(s); pass a frame from frames.chunk_codebase"
            raise ValueError(msg)
        return Opened(source, Texts.of_frame(source), None)
    chunk_settings = {k: v for k, v in settings.items() if k in CHUNK_SETTINGS}
    open_settings = {k: v for k, v in settings.items() if k in OPEN_SETTINGS}
    codebase = open_codebase(source, **open_settings)
    frame = frames.chunk_codebase(codebase, progress=False, **chunk_settings)
    return Opened(frame, Texts(codebase=codebase, languages=codebase.languages), codebase)


def file_lines(texts: Texts, path: str, chunks: pd.DataFrame) -> tuple[list[str], list[bool] | None, str | None]:
    """Lines of `path`, their meaning flags and a note; rebuilt from chunk contents when the file is gone."""
    text = texts.text(path)
    if text is not None and text.lines:
        lines = list(text.lines)
        # From the engine's prefix sums: a line is meaningful where the count goes up.
        before = text.meaningful_prefix
        flags = list(map(int.__ne__, before[:-1], before[1:]))
        note = None
        checked = chunks.head(3) if "content" in chunks.columns else chunks.head(0)
        for row in checked.itertuples(index=False):
            if "\n".join(lines[row.start_line - 1 : row.end_line]) != row.content:
                note = "The file on disk differs from the chunk frame (changed since it was chunked?)."
                break
        return lines, flags, note
    if text is not None:
        return [], None, f"No lines: the file is {text.status.value}."
    if chunks.empty or "content" not in chunks.columns:
        return [], None, "The file's text is not available."
    count = int(chunks["end_line"].max())
    lines = [""] * count
    for row in chunks.itertuples(index=False):
        for offset, line in enumerate(str(row.content).split("\n")):
            lines[row.start_line - 1 + offset] = line
    note = "The file was not found under the frame's root: lines outside chunks are shown blank."
    return lines, None, note


def busiest_file(frame: pd.DataFrame) -> str | None:
    """The declaration-chunked file with the most chunks (else the file with the most): it shows the most."""
    if frame.empty:
        return None
    ast = frame[(frame["chunker"] == "ast").to_numpy(dtype=bool)] if "chunker" in frame.columns else frame.iloc[:0]
    counts = (ast if len(ast) else frame)["path"].value_counts(sort=True)
    return str(counts.index[0])
