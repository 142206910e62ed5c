"""Public chunking functions over text, files and folders."""

from __future__ import annotations

from ._chunker import CodeChunk, chunks_of, prepare
from ._settings import DEFAULT_CHUNK_OVERLAP, DEFAULT_CHUNK_SIZE, ChunkSettings


def chunk_file_content(
    path: str,
    content: str,
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    chunk_overlap: int = DEFAULT_CHUNK_OVERLAP,
    chunk_max_characters: float | None = None,
) -> list[CodeChunk]:
    """Chunk one file's text exactly as the reference's `chunkFileContent` does."""
    settings = ChunkSettings.build(chunk_size, chunk_overlap, chunk_max_characters)
    text = prepare(path, content)
    return [] if text is None else chunks_of(text, settings)
