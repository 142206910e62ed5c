"""Walking a codebase file by file at given settings: each file's text, chunks and chunker."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from .. import engine


class FileChunks(NamedTuple):
    path: str
    text: engine.PreparedText | None  # None when the file could not be read
    chunks: list[engine.CodeChunk]
    chunker: str | None  # "ast", "window", or None when the file gives no chunks


def chunker_of(text: engine.PreparedText, chunks: list[engine.CodeChunk]) -> str | None:
    """Whether the file's chunks came from its declarations ("ast") or from line windows.

    The engine uses declaration chunks whenever they yield anything, and every declaration chunk
    carries a name, a type or a parent (nodes with neither name nor type are skipped, methods
    always have a parent), while windows carry none: so the first chunk tells, in O(1).
    """
    if not chunks:
        return None
    first = chunks[0]
    has_metadata = first.name is not None or first.type is not None or first.parent is not None
    return "ast" if text.declarations and has_metadata else "window"


def file_chunks(codebase: engine.Codebase, path: str, settings: engine.ChunkSettings) -> FileChunks:
    text = codebase.text(path)
    chunks = codebase.file_chunks(path, settings) if text is not None else []
    return FileChunks(path, text, chunks, None if text is None else chunker_of(text, chunks))


def walk(codebase: engine.Codebase, paths: Iterable[str], settings: engine.ChunkSettings) -> Iterator[FileChunks]:
    for path in paths:
        yield file_chunks(codebase, path, settings)
