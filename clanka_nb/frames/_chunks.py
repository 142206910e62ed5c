"""Chunks as a DataFrame: one row per chunk, in the engine's order, with sizes and provenance."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

import pandas as pd

from .. import engine
from ..engine._api import one_file
from ..engine._settings import path_list
from . import _columns
from ._embedding import embedding_text
from ._progress import Progress, bar
from ._source import Source, open_source, select
from ._tokens import TokenColumns
from ._walk import FileChunks, file_chunks, walk

StrPath = str | os.PathLike[str]


def settings_attrs(codebase: engine.Codebase, settings: engine.ChunkSettings) -> dict[str, Any]:
    """JSON-serialisable description of where a frame comes from (kept by `to_parquet`)."""
    return _attrs(str(codebase.root), codebase.languages, settings)


def _attrs(root: str, languages: str, settings: engine.ChunkSettings) -> dict[str, Any]:
    return {
        "root": _columns.readable(root),  # attrs go into Parquet's metadata, as UTF-8
        "languages": languages,
        "chunk_size": settings.chunk_size,
        "chunk_overlap": settings.chunk_overlap,
        "chunk_max_characters": settings.chunk_max_characters,
        "requested_chunk_size": settings.requested_size,
        "requested_chunk_overlap": settings.requested_overlap,
        "clamped": settings.clamped,
    }


def chunk_frame(
    codebase: engine.Codebase,
    paths: Iterable[str] | None,
    settings: engine.ChunkSettings,
    *,
    embedding: bool = False,
    token_counter: object = None,
    token_limit: int | None = None,
) -> pd.DataFrame:
    """The chunk frame of these files of an already-parsed codebase."""
    files = walk(codebase, select(codebase, paths), settings)
    tokens = _tokens(token_counter, token_limit)
    return _frame(files, settings_attrs(codebase, settings), embedding=embedding, tokens=tokens)


def _tokens(token_counter: object, token_limit: object) -> TokenColumns | None:
    """The token columns asked for, if any (a limit alone counts with the chars/4 estimate)."""
    return None if token_counter is None and token_limit is None else TokenColumns(token_counter, token_limit)


def _streamed(
    root: StrPath, settings: engine.ChunkSettings, max_file_size: str | int, workers: int | None,
    progress: Progress, languages: str, embedding: bool, tokens: TokenColumns | None,
) -> pd.DataFrame:
    """The chunk frame of a folder, each file parsed, chunked and let go in turn (no Codebase kept):
    at its peak this holds one window of parsed files and the frame, not every file's lines too."""
    names = engine.list_file_names(root, max_file_size=max_file_size)
    with bar(progress, len(names), "reading and parsing") as handle:
        texts = engine.prepared_texts(
            root, names, languages=languages, workers=workers, progress=None if handle is None else handle.update
        )
        files = (file_chunks(report.path, text, settings) for text, report in texts)
        attrs = _attrs(os.path.abspath(os.path.expanduser(root)), languages, settings)
        return _frame(files, attrs, embedding=embedding, tokens=tokens)


def _frame(
    files: Iterable[FileChunks], attrs: dict[str, Any], *, embedding: bool, tokens: TokenColumns | None
) -> pd.DataFrame:
    cols: dict[str, Any] = {name: [] for name in _columns.CHUNKS}
    # The two big text columns go to Arrow as they grow, so their Python strings do not pile up.
    content = _columns.TextColumn()
    embedded = _columns.TextColumn()
    for path, _text, chunks, chunker in files:
        if not chunks:
            continue
        count = len(chunks)
        cols["path"] += [c.path for c in chunks]
        cols["start_line"] += [c.start_line for c in chunks]
        cols["end_line"] += [c.end_line for c in chunks]
        cols["name"] += [c.name for c in chunks]
        cols["type"] += [c.type for c in chunks]
        cols["parent"] += [c.parent for c in chunks]
        content.extend([c.content for c in chunks])
        cols["lines"] += [c.end_line - c.start_line + 1 for c in chunks]
        cols["characters"] += [engine.js_length(c.content) for c in chunks]
        cols["language"] += [engine.language_of(path)] * count
        cols["chunker"] += [chunker] * count
        if embedding:
            embedded.extend([
                embedding_text(c.path, c.start_line, c.name, c.type, c.parent, c.content) for c in chunks
            ])
        if tokens is not None:
            tokens.count(chunks)
    unknown = set(cols["type"]) - set(engine.CHUNK_TYPES) - {None}
    if unknown:
        # A categorical would turn them into NA without a word; say so instead.
        msg = f"the engine gave chunk types {sorted(unknown)} outside engine.CHUNK_TYPES; add them there"
        raise ValueError(msg)
    cols["content"] = content.array()
    if embedding:
        cols[_columns.EMBEDDING_COLUMN] = embedded.array()
    schema = _columns.CHUNKS
    if tokens is not None:
        schema, counted = tokens.add_to(cols)
        attrs.update(counted)
    return _columns.build(cols, schema, attrs)


def chunk_codebase(
    root: Source,
    *,
    chunk_size: int = 30,
    chunk_overlap: int = 0,
    chunk_max_characters: float | None = None,
    max_file_size: str | int = "1M",
    workers: int | None = None,
    progress: Progress = None,
    languages: str | None = None,
    embedding: bool = False,
    token_counter: object = None,
    token_limit: int | None = None,
) -> pd.DataFrame:
    """Every chunk of a folder (or of an `engine.Codebase`) as a frame, one row per chunk, in the engine's order.

    Columns: path, start_line, end_line, name, type, parent, content (NA where the chunk has none),
    then lines, characters (JavaScript length, as `chunk_max_characters` counts), language and
    chunker ("ast" or "window"); with `embedding=True` also `embedding_input`; with `token_counter=`
    (a callable, a tiktoken encoding, a `tokenizers.Tokenizer` or "cl100k_base") `tokens`, the tokens
    of the embedding input, and with `token_limit=` `over_limit` (without a counter: the chars/4
    estimate, named in `frame.attrs["token_counter"]`). The settings and the
    root are in `frame.attrs`. `languages` defaults to "clanka" for a folder and to the codebase's
    own for a Codebase; `max_file_size` and `workers` only matter for a folder (one worker per core
    when None); `progress=None` shows a bar only for work over a second, False never.
    """
    settings = engine.ChunkSettings.build(chunk_size, chunk_overlap, chunk_max_characters)
    if not isinstance(root, engine.Codebase):
        tokens = _tokens(token_counter, token_limit)
        return _streamed(root, settings, max_file_size, workers, progress, languages or "clanka", embedding, tokens)
    codebase = open_source(
        root, max_file_size=max_file_size, workers=workers, languages=languages, progress=progress
    )
    return chunk_frame(codebase, None, settings, embedding=embedding, token_counter=token_counter,
                       token_limit=token_limit)


def chunk_files(
    root: Source,
    paths: Iterable[StrPath] | StrPath,
    *,
    chunk_size: int = 30,
    chunk_overlap: int = 0,
    chunk_max_characters: float | None = None,
    workers: int | None = None,
    progress: Progress = None,
    languages: str | None = None,
    embedding: bool = False,
    token_counter: object = None,
    token_limit: int | None = None,
) -> pd.DataFrame:
    """The chunks of the given files (relative to `root` or absolute inside it, or paths of a Codebase) as a
    frame, in the order given; one path alone is a list of one.

    With a folder, files outside it or with names the reference never indexes give no rows, as in
    the engine; with a Codebase, a path it does not hold raises KeyError.
    """
    settings = engine.ChunkSettings.build(chunk_size, chunk_overlap, chunk_max_characters)
    paths = path_list("paths", paths)
    if isinstance(root, engine.Codebase):
        codebase, chosen = open_source(root, languages=languages), paths
    else:
        codebase = open_source(root, paths=paths, workers=workers, languages=languages, progress=progress)
        chosen = None  # the codebase holds exactly the given files, in order, already normalised
    return chunk_frame(codebase, chosen, settings, embedding=embedding, token_counter=token_counter,
                       token_limit=token_limit)


def chunk_file(
    root: Source,
    path: StrPath | None = None,
    *,
    chunk_size: int = 30,
    chunk_overlap: int = 0,
    chunk_max_characters: float | None = None,
    languages: str | None = None,
    embedding: bool = False,
    token_counter: object = None,
    token_limit: int | None = None,
) -> pd.DataFrame:
    """The chunks of one file (relative to `root`, or a path of a Codebase) as a frame.

    `chunk_file(path_to_one_file)` chunks that file alone, as `chunk_file(its_folder, its_name)`.
    """
    if not isinstance(root, engine.Codebase):
        root, path = one_file(root, path)
    elif path is None:
        msg = "chunk_file(codebase) needs the path of one of its files too: chunk_file(codebase, 'src/app.ts')"
        raise TypeError(msg)
    return chunk_files(
        root, [path], chunk_size=chunk_size, chunk_overlap=chunk_overlap, chunk_max_characters=chunk_max_characters,
        workers=1, progress=False, languages=languages, embedding=embedding, token_counter=token_counter,
        token_limit=token_limit,
    )


def chunk_text(
    content: str,
    path: str = "snippet.ts",
    *,
    chunk_size: int = 30,
    chunk_overlap: int = 0,
    chunk_max_characters: float | None = None,
    languages: str = "clanka",
    embedding: bool = False,
    token_counter: object = None,
    token_limit: int | None = None,
) -> pd.DataFrame:
    """The chunks of one text, as if it were the file `path` (its extension picks the parser)."""
    settings = engine.ChunkSettings.build(chunk_size, chunk_overlap, chunk_max_characters)
    if not isinstance(content, str):
        msg = f"content must be str, got {type(content).__name__}; decode bytes first (e.g. data.decode('utf-8'))"
        raise TypeError(msg)
    codebase = engine.Codebase.from_texts({os.fspath(path): content}, languages=languages)
    return chunk_frame(codebase, None, settings, embedding=embedding, token_counter=token_counter,
                       token_limit=token_limit)
