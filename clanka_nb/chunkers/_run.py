"""Chunk every file of a source with a chunker, timed on the same texts every chunker gets."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..defaults import MAX_FILE_SIZE
from ..engine import Codebase, list_file_names
from ..engine.internals import normalize_newlines, normalize_path, one_file, read_text
from ._adapter import Chunker, as_chunker
from ._spans import Span

Source = str | os.PathLike[str] | Codebase | Mapping[str, str]


@dataclass(frozen=True)
class Texts:
    """The files of a source as every chunker gets them: path -> text with LF newlines, in the listing's order,
    and the listed files that could not be read (given to no chunker)."""

    texts: dict[str, str]
    unread: tuple[str, ...] = ()


def read_source(source: Source, *, max_file_size: str | int = MAX_FILE_SIZE) -> Texts:
    """Every file the engine lists under a folder (or the one file a path names, or a Codebase's files, or
    in-memory texts path -> content), decoded as the engine decodes it (UTF-8, a leading BOM dropped, bad bytes
    replaced) with its newlines made LF, so that line numbers mean what the engine's do."""
    if isinstance(source, Mapping):
        return Texts({normalize_path(os.fspath(p)): normalize_newlines(t) for p, t in source.items()})
    if isinstance(source, Codebase):
        if not source.root.is_absolute():  # Codebase.from_texts: no folder, its texts are the lines it kept
            lines = ((path, source.text(path)) for path in source.files)
            return Texts({path: "".join(f"{line}\n" for line in text.lines) for path, text in lines if text})
        return _read(source.root, source.files)
    given = Path(source).expanduser()
    if given.is_file():
        root, name = one_file(given, None, "chunk_with")
        return _read(Path(root), [os.fspath(name)])
    if not given.is_dir():
        msg = f"{str(given)!r} is neither a folder nor a file; pass a codebase's folder, one file, or a Codebase"
        raise FileNotFoundError(msg)
    root = given.resolve()
    return _read(root, list_file_names(root, max_file_size=max_file_size))


def _read(root: Path, names: Iterable[str]) -> Texts:
    texts: dict[str, str] = {}
    unread: list[str] = []
    for name in names:
        content, _ = read_text(root, name)
        if content is None:
            unread.append(normalize_path(name))
        else:
            texts[normalize_path(name)] = normalize_newlines(content)
    return Texts(texts, tuple(unread))


@dataclass(frozen=True)
class ChunkedWith:
    """One chunker's chunks of every file of a source, as line spans per file, and the time it took.

    `spans` has every file the chunker handles (a file it handles with no chunk has an empty list);
    `unhandled` the files it does not (no grammar for the language, or it refused the text), `unread` the
    listed files no chunker got (unreadable). `seconds` is the time spent in the chunker's calls alone
    (reading the files is not counted: it is the same for every chunker).
    """

    label: str
    spans: dict[str, list[Span]]
    seconds: float
    unhandled: tuple[str, ...] = ()
    unread: tuple[str, ...] = ()
    parameters: Mapping[str, Any] = field(default_factory=dict)

    @property
    def chunk_count(self) -> int:
        return sum(map(len, self.spans.values()))


def chunk_with(
    chunker: Chunker | Callable[[str, str], Any],
    source: Source,
    *,
    label: str | None = None,
    max_file_size: str | int = MAX_FILE_SIZE,
) -> ChunkedWith:
    """Chunk every file the engine lists under `source` (a folder, one file, a `Codebase`, or texts
    path -> content) with `chunker`: an adapter of this package or any callable `(path, text)` (see
    `as_chunker`). Every chunker given the same source gets the same files and texts."""
    return chunk_texts(as_chunker(chunker, label), read_source(source, max_file_size=max_file_size))


def chunk_with_each(
    chunkers: Iterable[Chunker | Callable[[str, str], Any]], source: Source, *, max_file_size: str | int = MAX_FILE_SIZE
) -> list[ChunkedWith]:
    """`chunk_with` for several chunkers in turn, the files read once: one result per chunker, in order."""
    texts = read_source(source, max_file_size=max_file_size)
    return [chunk_texts(as_chunker(chunker), texts) for chunker in chunkers]


def chunk_texts(chunker: Chunker, texts: Texts) -> ChunkedWith:
    """One chunker over texts already read (`read_source`)."""
    spans: dict[str, list[Span]] = {}
    unhandled: list[str] = []
    seconds = 0.0
    clock = time.perf_counter
    for path, text in texts.texts.items():
        start = clock()
        found = chunker(path, text)
        seconds += clock() - start
        if found is None:
            unhandled.append(path)
        else:
            spans[path] = list(found)
    parameters = getattr(chunker, "parameters", {})
    return ChunkedWith(chunker.label, spans, seconds, tuple(unhandled), texts.unread, parameters)
