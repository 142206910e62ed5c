"""Public chunking functions over text, files and folders."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator

from ._chunker import CodeChunk, chunks_of, prepare
from ._codebase import check_workers, chunk_all
from ._declarations import check_languages
from ._listing import list_file_names, resolve_root
from ._reading import relative_path
from ._settings import DEFAULT_CHUNK_OVERLAP, DEFAULT_CHUNK_SIZE, ChunkSettings

StrPath = str | os.PathLike[str]


def chunk_file_content(
    path: str,
    content: str,
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    chunk_overlap: int = DEFAULT_CHUNK_OVERLAP,
    chunk_max_characters: float | None = None,
    languages: str = "clanka",
) -> list[CodeChunk]:
    """Chunk one file's text exactly as the reference's `chunkFileContent` does."""
    settings = ChunkSettings.build(chunk_size, chunk_overlap, chunk_max_characters)
    if not isinstance(content, str):
        msg = f"content must be str, got {type(content).__name__}; decode bytes first (e.g. data.decode('utf-8'))"
        raise TypeError(msg)
    return chunks_of(prepare(os.fspath(path), content, check_languages(languages)), settings)


def chunk_files(
    root: StrPath,
    paths: Iterable[StrPath],
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    chunk_overlap: int = DEFAULT_CHUNK_OVERLAP,
    chunk_max_characters: float | None = None,
    languages: str = "clanka",
    workers: int | None = 1,
) -> Iterator[CodeChunk]:
    """Chunks of the given files (relative to `root`), in the order given, files read in `workers` processes.

    Files outside the root or with names the reference never indexes give nothing; files that
    cannot be read give nothing here and are reported by `Codebase.reports`.
    """
    settings = ChunkSettings.build(chunk_size, chunk_overlap, chunk_max_characters)
    base = resolve_root(root)
    rels = [rel for rel in (relative_path(base, p) for p in paths) if rel is not None]
    # Validated here, before the first chunk is asked for: chunk_all is the lazy part.
    return chunk_all(base, rels, check_languages(languages), settings, check_workers(workers))


def chunk_file(
    root: StrPath,
    path: StrPath,
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    chunk_overlap: int = DEFAULT_CHUNK_OVERLAP,
    chunk_max_characters: float | None = None,
    languages: str = "clanka",
) -> list[CodeChunk]:
    """Chunks of one file, read from `root / path` as the reference's `chunkFile` does."""
    return list(
        chunk_files(
            root, [path], chunk_size=chunk_size, chunk_overlap=chunk_overlap,
            chunk_max_characters=chunk_max_characters, languages=languages,
        )
    )


def chunk_codebase(
    root: StrPath,
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    chunk_overlap: int = DEFAULT_CHUNK_OVERLAP,
    chunk_max_characters: float | None = None,
    max_file_size: str | int = "1M",
    languages: str = "clanka",
    workers: int | None = 1,
) -> Iterator[CodeChunk]:
    """Chunks of every file `list_files` gives, in its order, each read by its own name."""
    ChunkSettings.build(chunk_size, chunk_overlap, chunk_max_characters)  # fail before listing
    files = list_file_names(root, max_file_size=max_file_size)
    return chunk_files(
        root, files, chunk_size=chunk_size, chunk_overlap=chunk_overlap,
        chunk_max_characters=chunk_max_characters, languages=languages, workers=workers,
    )
