"""Walking a codebase file by file at given settings: each file's text, chunks and the engine's chunker."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from .. import engine


class FileChunks(NamedTuple):
    path: str
    text: engine.PreparedText | None  # None when the file could not be read
    chunks: list[engine.CodeChunk]
    chunker: str | None  # the engine's `FileChunking.chunker`: "ast", "window", or None (no chunks)


def file_chunks(path: str, text: engine.PreparedText | None, settings: engine.ChunkSettings) -> FileChunks:
    """One file's chunks with the chunker the engine reports having used (never guessed from the chunks)."""
    if text is None:
        return FileChunks(path, None, [], None)
    chunks, chunking = text.chunked(settings)
    return FileChunks(path, text, chunks, chunking.chunker)


def walk(codebase: engine.Codebase, paths: Iterable[str], settings: engine.ChunkSettings) -> Iterator[FileChunks]:
    for path in paths:
        yield file_chunks(path, codebase.text(path), settings)
