"""What a viewer shows: the chunk frame of a source (opened by `frames`' one opener) and the text behind it."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from .. import engine
from ..engine.internals import check_file
from ..engine.source import FrameSource, open_resolved, open_source, read_frame, resolve
from ..frames.chunks import chunk_frame
from ..frames.source import Source
from ._paths import HEADER_LINES, is_generated, is_test_path

__all__ = ["Source"]


def open_chunks(source: Source, settings: engine.Settings) -> Viewed:
    """The chunk frame of `source` and its texts: a chunk frame given with no setting is shown as it is
    (filtered or not), any other source is opened and chunked at `settings` (a frame's own as defaults)."""
    if isinstance(source, pd.DataFrame) and not settings.passed:
        missing = {"path", "start_line", "end_line", "type"} - set(source.columns)
        if missing:
            msg = f"the frame has no {sorted(missing)} column(s); pass a frame from frames.chunk_codebase"
            raise ValueError(msg)
        said = read_frame(source)  # the one read of its attrs: the viewer keeps it
        return Viewed(source, Texts.of_said(said), None, said)
    codebase, opened = open_source(source, settings, progress=False)
    return Viewed(chunk_frame(codebase, None, opened), Texts(codebase=codebase, languages=codebase.languages), codebase)


def inside_root(path: str | os.PathLike[str] | None, root: str | None) -> str | None:
    """`path` relative to `root` when it is an absolute path inside it; any other path unchanged."""
    if path is None:
        return None
    text = os.fspath(path)
    if root is None or not os.path.isabs(text):
        return text
    rel = os.path.relpath(os.path.normpath(text), os.path.abspath(root)).replace(os.sep, "/")
    return text if rel == ".." or rel.startswith("../") else rel


def check_early(source: Source, path: str | os.PathLike[str] | None) -> None:
    """Refuse a path that is no file under a folder given as the source before the folder is parsed."""
    if path is not None and isinstance(source, str | os.PathLike) and os.path.isdir(source):
        check_file(source, path)


def pickable(codebase: engine.Codebase, path: str | os.PathLike[str], files: list[str]) -> str:
    """`path` as a viewer's file picker names it (`files`: those with lines); a clear error when it is no
    file of the codebase (`engine.MissingFileError`) or has no lines to show (ValueError)."""
    report = codebase.report(path)  # MissingFileError naming the path, the root and the fix
    if report.path not in files:
        reason = report.reason or report.status
        msg = f"{report.path!r} has no lines to show ({reason}); pick a file with lines, e.g. {files[:3]}"
        raise ValueError(msg)
    return report.path


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
        return cls.of_said(read_frame(frame))

    @classmethod
    def of_said(cls, said: FrameSource) -> Texts:
        """The texts behind a chunk frame, from what `read_frame` read of it."""
        return cls(root=None if said.root is None else Path(said.root), languages=said.languages or "clanka")

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
        resolved = resolve(self.root, engine.Settings(languages=self.languages, workers=1), paths=[path])
        codebase = open_resolved(resolved).codebase
        try:
            return codebase.text(path)
        except KeyError:
            return None


@dataclass
class Viewed:
    """Chunks and where their text comes from."""

    frame: pd.DataFrame
    texts: Texts
    codebase: engine.Codebase | None
    said: FrameSource | None = None  # a frame given as it is: what its attrs say, as read once


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


def first_made_by_hand(candidates: Iterable[str], texts: Texts | None = None) -> str | None:
    """The first of `candidates` that is source code made by hand: no generated file (by its name, and by its
    header when `texts` has it: `_paths.is_generated`) and no test (`_paths.is_test_path`); else the first that
    is not generated; else the first candidate; None when there is none.

    A viewer opens on it: a tool's output (`types.gen.ts`, 2,619 lines of types) has the most chunks of a
    monorepo and says nothing of how its own code is cut; a library's tests (`command_test.go`,
    `JsonReaderTest.java`) often have the most declarations, and show how tests are cut, not the library."""
    first = not_generated = None
    for path in candidates:
        first = path if first is None else first
        text = texts.text(path) if texts is not None else None
        if is_generated(path, text.lines[:HEADER_LINES] if text is not None else ()):
            continue
        if not is_test_path(path):
            return path
        not_generated = path if not_generated is None else not_generated
    return not_generated if not_generated is not None else first


def busiest_file(frame: pd.DataFrame, texts: Texts | None = None) -> str | None:
    """The file with the most declarations (the pieces of a split declaration counted once; with no
    declaration anywhere, the file with the most chunks), generated files last (`first_made_by_hand`): it
    shows the most of how code is cut. A data file of one huge constant split into 87 pieces shows little."""
    if frame.empty:
        return None
    ast = frame[(frame["chunker"] == "ast").to_numpy(dtype=bool)] if "chunker" in frame.columns else frame.iloc[:0]
    if len(ast):
        ast = ast.drop_duplicates([c for c in ("path", "type", "name", "parent") if c in ast.columns])
    counts = (ast if len(ast) else frame)["path"].value_counts(sort=True)
    return first_made_by_hand((str(p) for p in counts.index), texts)
