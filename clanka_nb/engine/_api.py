"""Public chunking functions over text, files and folders."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Unpack

from ._cache import ParseCache, resolve_cache
from ._chunker import CodeChunk, chunks_of, prepare
from ._codebase import chunk_all, warn_if_nothing_listed
from ._listing import list_file_names, resolve_root
from ._reading import relative_path
from .settings import Settings, SourceKeywords, TextKeywords, check_workers, path_list, setting_keywords

StrPath = str | os.PathLike[str]


@setting_keywords
def chunk_file_content(
    path: str, content: str, *,
    settings: Settings | None = None, **given: Unpack[TextKeywords],
) -> list[CodeChunk]:
    """Chunk one file's text exactly as the reference's `chunkFileContent` does.

    Args:
        path: The file name it stands for: its extension picks the parser.
        content: The file's text.

    Returns:
        The chunks.

    Raises:
        TypeError: `content` is not a str (bytes: decode them first).

    Examples:
        >>> engine.chunk_file_content("add.ts", "export const add = (a: number, b: number) => a + b;")
    """
    settings = Settings(**given).over(settings)
    if not isinstance(content, str):
        msg = f"content must be str, got {type(content).__name__}; decode bytes first (e.g. data.decode('utf-8'))"
        raise TypeError(msg)
    return chunks_of(prepare(os.fspath(path), content, settings.mode), settings.chunk)


@setting_keywords
def chunk_files(
    root: StrPath,
    paths: Iterable[StrPath] | StrPath,
    *,
    cache: bool | ParseCache = True,
    workers: int | None = None,  # a text's settings and the worker processes: the files are named, not listed
    settings: Settings | None = None, **given: Unpack[TextKeywords],
) -> Iterator[CodeChunk]:
    """Chunks of the given files (relative to `root`, or absolute inside it; one path alone is a list of one),
    in the order given, files read in `workers` processes (None: one per core, for many files).

    Files outside the root or with names the reference never indexes give nothing; files that
    cannot be read give nothing here and are reported by `Codebase.reports`.

    Args:
        root: The folder.
        paths: The files, relative to `root` (or absolute inside it); one path alone is a list of one.
        cache: True keeps each parse in the persistent parse cache; a `ParseCache`; False parses everything.

    Returns:
        The chunks, lazily, file after file in the order given.

    Raises:
        FileNotFoundError: `root` is no folder.

    Examples:
        >>> list(engine.chunk_files("my-repo", ["src/a.ts", "src/b.ts"], workers=2))
    """
    settings = Settings(**given, workers=workers).over(settings)
    return _chunks_of_files(root, paths, cache, settings)


def _chunks_of_files(root: StrPath, paths: Iterable[StrPath] | StrPath, cache: bool | ParseCache, settings: Settings
                     ) -> Iterator[CodeChunk]:  # fmt: skip
    base = resolve_root(root)
    rels = [rel for rel in (relative_path(base, p) for p in path_list("paths", paths)) if rel is not None]
    return _chunks_of_names(base, rels, cache, settings)


def _chunks_of_names(base: Path, rels: list[str], cache: bool | ParseCache, settings: Settings) -> Iterator[CodeChunk]:
    """Chunks of files named relative to the resolved root `base`, as a listing names them."""
    # Validated here, before the first chunk is asked for: chunk_all is the lazy part.
    parse_cache = resolve_cache(cache)
    return chunk_all(base, rels, settings.mode, settings.chunk, check_workers(settings.workers), parse_cache)


@setting_keywords
def chunk_file(
    root: StrPath,
    path: StrPath | None = None,
    *,
    cache: bool | ParseCache = True,
    settings: Settings | None = None, **given: Unpack[TextKeywords],
) -> list[CodeChunk]:
    """Chunks of one file, read from `root / path` as the reference's `chunkFile` does.

    `chunk_file(path_to_one_file)` chunks that file alone, as `chunk_file(its_folder, its_name)`.

    Args:
        root: The folder, or the path of one file alone.
        path: The file, relative to `root`; None when `root` is the file itself.
        cache: True keeps each parse in the persistent parse cache; a `ParseCache`; False parses everything.

    Returns:
        The file's chunks.

    Raises:
        TypeError: `root` is a folder and no `path` is given.
        FileNotFoundError: The file does not exist.

    Examples:
        >>> engine.chunk_file("my-repo", "src/app.ts", chunk_size=20)
    """
    settings = Settings(**given).over(settings)
    root, path = one_file(root, path)
    return list(_chunks_of_files(root, [path], cache, dataclasses.replace(settings, workers=1)))


@setting_keywords
def chunk_codebase(
    root: StrPath,
    *,
    cache: bool | ParseCache = True,
    settings: Settings | None = None, **given: Unpack[SourceKeywords],
) -> Iterator[CodeChunk]:
    """Chunks of every file `list_files` gives, in its order, each read by its own name.

    Args:
        root: The folder.
        cache: True keeps each parse in the persistent parse cache; a `ParseCache`; False parses everything.

    Returns:
        The chunks, lazily, file after file.

    Raises:
        FileNotFoundError: `root` is no folder.

    Examples:
        >>> from clanka_nb import engine
        >>> chunks = list(engine.chunk_codebase("my-repo", chunk_size=40))
    """
    settings = Settings(**given).over(settings)
    base = resolve_root(root)
    files = warn_if_nothing_listed(base, list_file_names(base, max_file_size=settings.max_file_size))
    # The listing's names are relative to the root and inside it already: not resolved again one by one.
    return _chunks_of_names(base, files, cache, settings)


def one_file(root: StrPath, path: StrPath | None, call: str = "chunk_file") -> tuple[StrPath, StrPath]:
    """`(root, path)` as given, or `(folder, name)` when only the path of one file is given.

    `call` names the function the user called, for the example in the error about a folder alone.
    """
    if path is not None:
        return root, path
    given = Path(root).expanduser()
    if given.is_dir():
        msg = (
            f"{str(given)!r} is a folder; name the file too, e.g. {call}({str(given)!r}, 'src/app.ts'), "
            "or pass the path of one file alone"
        )
        raise TypeError(msg)
    if not given.exists():
        msg = f"file {str(given)!r} does not exist; pass the path of one file, or chunk_file(root, path)"
        raise FileNotFoundError(msg)
    full = Path(os.path.abspath(given))
    return full.parent, full.name
