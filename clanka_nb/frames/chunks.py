"""Chunks as a DataFrame: one row per chunk, in the engine's order, with sizes and provenance."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable
from typing import Any, Unpack

import pandas as pd

from .. import engine
from ..engine.embedding import embedding_text
from ..engine.internals import one_file, windowed_grammar_note
from ..engine.progress import ProgressBar, bar
from ..engine.settings import Settings, SourceKeywords, TextKeywords, path_list, setting_keywords
from ..engine.source import Paths, Resolved, listed_names, narrowed, open_resolved, resolve, select
from . import columns as _columns
from ._token_columns import TokenColumns
from ._walk import FileChunks, file_chunks, walk
from .source import Source

StrPath = str | os.PathLike[str]


def settings_attrs(
    codebase: engine.Codebase,
    settings: engine.ChunkSettings,
    max_file_size: str | int | None = None,
    files: list[str] | None = None,
) -> dict[str, Any]:
    """JSON-serialisable description of where a frame comes from (kept by `to_parquet`): `files` are the
    chosen files it stands for (default: the codebase's own when it was opened on chosen files)."""
    if files is None and codebase.selected:
        files = list(codebase.files)
    return _attrs(str(codebase.root), codebase.languages, settings, max_file_size, files)


def _attrs(
    root: str,
    languages: str,
    settings: engine.ChunkSettings,
    max_file_size: str | int | None,
    files: list[str] | None = None,
) -> dict[str, Any]:
    attrs = {
        "root": _columns.readable(root),  # attrs go into Parquet's metadata, as UTF-8
        "languages": languages,
        "max_file_size": max_file_size,
        **settings.attrs(),
    }
    if files is not None:
        # Made from chosen files (one file, `paths=`): passed back as a source, the frame stands for these
        # alone, not for every file its root lists.
        attrs["files"] = [_columns.readable(name) for name in files]
    return attrs


def chunk_frame(
    codebase: engine.Codebase,
    paths: Iterable[str | os.PathLike[str]] | None,
    settings: engine.Settings,
    *,
    embedding: bool = False,
    token_counter: object = None,
    token_limit: int | None = None,
) -> pd.DataFrame:
    """The chunk frame of these files of an already-parsed codebase."""
    chosen = select(codebase, paths)
    files = walk(codebase, chosen, settings.chunk)
    tokens = _tokens(token_counter, token_limit)
    attrs = settings_attrs(codebase, settings.chunk, settings.max_file_size, None if paths is None else chosen)
    return _frame(files, attrs, embedding=embedding, tokens=tokens)


def _tokens(token_counter: object, token_limit: object) -> TokenColumns | None:
    """The token columns asked for, if any (a limit alone counts with the chars/4 estimate)."""
    return None if token_counter is None and token_limit is None else TokenColumns(token_counter, token_limit)


def _streamed(resolved: Resolved, progress: ProgressBar, embedding: bool, tokens: TokenColumns | None) -> pd.DataFrame:
    """The chunk frame of a folder, each file parsed, chunked and let go in turn (no Codebase kept):
    at its peak this holds one window of parsed files and the frame, not every file's lines too."""
    names = listed_names(resolved)
    settings = resolved.settings
    chunking = settings.chunk
    with bar(progress, len(names), "reading and parsing") as handle:
        texts = engine.prepared_texts(
            resolved.root, names, languages=settings.mode, workers=settings.workers,
            progress=None if handle is None else handle.update,
        )  # fmt: skip
        files = (file_chunks(report.path, text, chunking) for text, report in texts)
        root = os.path.abspath(os.path.expanduser(resolved.root))
        attrs = _attrs(root, settings.mode, chunking, settings.max_file_size, resolved.names)
        return _frame(files, attrs, embedding=embedding, tokens=tokens)


def _frame(
    files: Iterable[FileChunks], attrs: dict[str, Any], *, embedding: bool, tokens: TokenColumns | None
) -> pd.DataFrame:
    cols: dict[str, Any] = {name: [] for name in _columns.CHUNKS}
    cutters: dict[str, str | None] = {}  # each chunked file's chunker, for the language mode's note
    # The two big text columns go to Arrow as they grow, so their Python strings do not pile up.
    content = _columns.TextColumn()
    embedded = _columns.TextColumn()
    for path, _text, chunks, chunker in files:
        if not chunks:
            continue
        count = len(chunks)
        cutters[path] = chunker
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
    note = windowed_grammar_note(cutters, str(attrs.get("languages")))
    if note is not None:  # the mode is never hidden: most files were windows extended mode would parse
        attrs["mode_note"] = note
    return _columns.build(cols, schema, attrs)


@setting_keywords
def chunk_codebase(
    source: Source = None,
    *,
    progress: ProgressBar = None,
    embedding: bool = False,
    token_counter: object = None,
    token_limit: int | None = None,
    settings: Settings | None = None, **given: Unpack[SourceKeywords],
) -> pd.DataFrame:
    """Every chunk of a source as a frame, one row per chunk, in the engine's order.

    `source` is a folder, the path of one file, an `engine.Codebase`, a chunk frame (its codebase,
    chunked at the settings given, the frame's own for the rest) or None for the sample codebase.
    Columns: path, start_line, end_line, name, type, parent, content (NA where the chunk has none),
    then lines, characters (JavaScript length, as `chunk_max_characters` counts), language and
    chunker ("ast" or "window"); with `embedding=True` also `embedding_input`; with `token_counter=`
    (a callable, a tiktoken encoding, a `tokenizers.Tokenizer` or "cl100k_base") `tokens`, the tokens
    of the embedding input, and with `token_limit=` `over_limit` (without a counter: the chars/4
    estimate, named in `frame.attrs["token_counter"]`). The settings and the root are in
    `frame.attrs`. `languages=None` is the source's own mode (a Codebase's, a frame's), else
    "clanka"; `max_file_size` and `workers` only matter for a folder (workers=None: one per core,
    none for a few files); `progress=None` shows a bar only for work over a second, False never.

    `type` and `chunker` are categoricals (a closed set of values: `frame["type"].cat.categories`), the
    text columns pandas' `string` dtype, missing values `<NA>`. A categorical takes no value outside its
    set, so `frame["type"].fillna("(none)")` raises pandas' "Cannot setitem on a Categorical with a new
    category": add it first, `frame["type"].cat.add_categories("(none)").fillna("(none)")`, or fill the
    text, `frame["type"].astype("string").fillna("(none)")`.

    Args:
        source: A folder, the path of one file, an `engine.Codebase`, a chunk frame, or None for the sample codebase.
        progress: None shows a bar only for work over a second, False never, True always.
        embedding: Add the `embedding_input` column, the text clanka embeds for each chunk.
        token_counter: A callable, a tiktoken encoding, a `tokenizers.Tokenizer` or "cl100k_base": adds `tokens`.
        token_limit: Adds `over_limit`, whether a chunk's embedding input is over that many tokens.

    Returns:
        The chunk frame, one row per chunk; the settings and the root in `frame.attrs`.

    Raises:
        FileNotFoundError: The source is no folder or file.
        TypeError: A setting or the source is of the wrong type (the message names the fix).
        ValueError: A setting is out of its range (NaN, a size that is no size...).

    Examples:
        >>> import clanka_nb as cn
        >>> frame = cn.chunk_codebase(chunk_size=40)
        >>> frame[["path", "start_line", "end_line", "type"]].head()
    """
    settings = Settings(**given).over(settings)
    resolved = resolve(source, settings)
    tokens = _tokens(token_counter, token_limit)
    if resolved.codebase is None:
        return _streamed(resolved, progress, embedding, tokens)
    return _frame(
        walk(resolved.codebase, list(resolved.codebase.files), resolved.settings.chunk),
        settings_attrs(resolved.codebase, resolved.settings.chunk, resolved.settings.max_file_size),
        embedding=embedding, tokens=tokens,
    )  # fmt: skip


@setting_keywords
def chunk_files(
    source: Source,
    paths: Paths,
    *,
    progress: ProgressBar = None,
    embedding: bool = False,
    token_counter: object = None,
    token_limit: int | None = None,
    settings: Settings | None = None, **given: Unpack[SourceKeywords],
) -> pd.DataFrame:
    """The chunks of the given files (relative to the source's root or absolute inside it, or paths of a
    Codebase) as a frame, in the order given; one path alone is a list of one.

    Files with names the reference never indexes give no rows, as in the engine; a path that is no
    file under the root (missing, a folder, outside it), or that a Codebase does not hold, raises
    `engine.MissingFileError` (a FileNotFoundError) naming the path, the root and the fix.

    Args:
        source: A folder, an `engine.Codebase` or a chunk frame.
        paths: The files, relative to the source's root (or absolute inside it); one path alone is a list of one.
        progress: None shows a bar only for work over a second, False never, True always.
        embedding: Add the `embedding_input` column.
        token_counter: Counts each chunk's embedding input into `tokens` (a callable, an encoding or "cl100k_base").
        token_limit: Adds `over_limit`, whether a chunk's embedding input is over that many tokens.

    Returns:
        The chunk frame of those files, in the order given.

    Raises:
        engine.MissingFileError: A path is no file under the root, or not one the Codebase holds.

    Examples:
        >>> cn.chunk_files("my-repo", ["src/app.ts", "src/util.ts"], chunk_size=40)
    """
    settings = Settings(**given).over(settings)
    resolved = resolve(source, settings)
    return _chosen_files(resolved, path_list("paths", paths), progress, embedding, token_counter, token_limit)


def _chosen_files(
    resolved: Resolved, paths: list[str | os.PathLike[str]], progress: ProgressBar, embedding: bool,
    token_counter: object, token_limit: int | None,
) -> pd.DataFrame:
    """The chunk frame of `paths` of a resolved source, in the order given (chunk_files', chunk_file's)."""
    opened = open_resolved(narrowed(resolved, paths), progress=progress)
    # A Codebase given keeps its files, the paths choosing among them; else it holds exactly the given files.
    chosen = paths if resolved.codebase is not None else None
    return chunk_frame(opened.codebase, chosen, resolved.settings, embedding=embedding, token_counter=token_counter,
                       token_limit=token_limit)


@setting_keywords
def chunk_file(
    source: Source,
    path: StrPath | None = None,
    *,
    embedding: bool = False,
    token_counter: object = None,
    token_limit: int | None = None,
    settings: Settings | None = None, **given: Unpack[TextKeywords],
) -> pd.DataFrame:
    """The chunks of one file (relative to the source's root, or a path of a Codebase) as a frame.

    `chunk_file(path_to_one_file)` chunks that file alone, as `chunk_file(its_folder, its_name)`.

    Args:
        source: A folder, an `engine.Codebase`, a chunk frame, or the path of one file alone.
        path: The file, relative to the source's root; None when `source` is the file itself.
        embedding: Add the `embedding_input` column.
        token_counter: Counts each chunk's embedding input into `tokens` (a callable, an encoding or "cl100k_base").
        token_limit: Adds `over_limit`, whether a chunk's embedding input is over that many tokens.

    Returns:
        The chunk frame of that file.

    Raises:
        TypeError: `source` is a folder or a Codebase and no `path` is given.
        engine.MissingFileError: The file is not there.

    Examples:
        >>> cn.chunk_file("my-repo/src/app.ts", chunk_size=20)
    """
    settings = Settings(**given).over(settings)
    alone = dataclasses.replace(settings, workers=1)
    if isinstance(source, str | os.PathLike):
        source, path = one_file(source, path)
    elif path is None:
        msg = "chunk_file(source) needs the path of one of its files too: chunk_file(source, 'src/app.ts')"
        raise TypeError(msg)
    return _chosen_files(resolve(source, alone), [path], False, embedding, token_counter, token_limit)


@setting_keywords
def chunk_text(
    content: str,
    path: str = "snippet.ts",
    *,
    embedding: bool = False,
    token_counter: object = None,
    token_limit: int | None = None,
    settings: Settings | None = None, **given: Unpack[TextKeywords],
) -> pd.DataFrame:
    """The chunks of one text, as if it were the file `path` (its extension picks the parser).

    Args:
        content: The text to chunk.
        path: The file name it stands for: its extension picks the parser.
        embedding: Add the `embedding_input` column.
        token_counter: Counts each chunk's embedding input into `tokens` (a callable, an encoding or "cl100k_base").
        token_limit: Adds `over_limit`, whether a chunk's embedding input is over that many tokens.

    Returns:
        The chunk frame of the text.

    Raises:
        TypeError: `content` is not a str (bytes: decode them first).

    Examples:
        >>> cn.chunk_text("export function add(a: number, b: number) { return a + b; }", "math.ts")
    """
    settings = Settings(**given).over(settings)
    if not isinstance(content, str):
        msg = f"content must be str, got {type(content).__name__}; decode bytes first (e.g. data.decode('utf-8'))"
        raise TypeError(msg)
    codebase = engine.Codebase.from_texts({os.fspath(path): content}, languages=settings.mode)
    return chunk_frame(codebase, None, settings, embedding=embedding, token_counter=token_counter,
                       token_limit=token_limit)
