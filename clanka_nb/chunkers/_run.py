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
from ..engine.settings import checked_keywords, setting_docs
from ..engine.warn import warn_at_user
from ..warning import ClankaWarning
from ._adapter import Chunker, as_chunker
from ._guard import FILE_SECONDS, TOTAL_SECONDS
from ._process import runner
from ._spans import Span

NAMED_AT_MOST = 10  # files a fallback warning names (ChunkedWith.failed has them all)


class ChunkerFallbackWarning(ClankaWarning, UserWarning):
    """A chunker failed on some files (an error, too deep, too slow): they count as not handled by it."""

Source = str | os.PathLike[str] | Codebase | Mapping[str, str]


@dataclass(frozen=True)
class Texts:
    """The files of a source as every chunker gets them: path -> text with LF newlines, in the listing's order,
    and the listed files that could not be read (given to no chunker)."""

    texts: dict[str, str]
    unread: tuple[str, ...] = ()


@checked_keywords
@setting_docs
def read_source(source: Source, *, max_file_size: str | int = MAX_FILE_SIZE) -> Texts:
    """Every file the engine lists under a folder (or the one file a path names, or a Codebase's files, or
    in-memory texts path -> content), decoded as the engine decodes it (UTF-8, a leading BOM dropped, bad bytes
    replaced) with its newlines made LF, so that line numbers mean what the engine's do.

    Args:
        source: A folder, one file, a `Codebase`, or texts path -> content.

    Returns:
        The decoded texts by path, in the listing's order.
    """
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
    `unhandled` the files it does not (no grammar for the language, or it refused the text), `failed` the files
    it failed on, each with the reason (it raised, the file was past its input bounds, or it ran past its time
    limit or its budget: `_guard.py`), `timed_out` those of them it could not cut in time, `unread` the listed files
    no chunker got (unreadable). `seconds` is the time spent in the chunker's calls alone (reading the files is not
    counted: it is the same for every chunker).

    Attributes:
        label: The chunker's label.
        spans: Each file the chunker handles, with its chunks' line spans.
        seconds: The time spent in the chunker's calls alone.
        unhandled: The files it does not handle.
        unread: The listed files no chunker got (unreadable).
        parameters: The chunker's own size parameters.
        failed: The files it failed on, each with the reason.
        timed_out: The files of `failed` it ran past its time limit or its budget on.
    """

    label: str
    spans: dict[str, list[Span]]
    seconds: float
    unhandled: tuple[str, ...] = ()
    unread: tuple[str, ...] = ()
    parameters: Mapping[str, Any] = field(default_factory=dict)
    failed: Mapping[str, str] = field(default_factory=dict)
    timed_out: tuple[str, ...] = ()

    @property
    def chunk_count(self) -> int:
        return sum(map(len, self.spans.values()))


@checked_keywords
@setting_docs
def chunk_with(
    chunker: Chunker | Callable[[str, str], Any],
    source: Source,
    *,
    label: str | None = None,
    max_file_size: str | int = MAX_FILE_SIZE,
) -> ChunkedWith:
    """Chunk every file the engine lists under `source` (a folder, one file, a `Codebase`, or texts
    path -> content) with `chunker`: an adapter of this package or any callable `(path, text)` (see
    `as_chunker`). Every chunker given the same source gets the same files and texts.

    Args:
        chunker: An adapter of this package, or any callable `(path, text)` (see `as_chunker`).
        source: A folder, one file, a `Codebase`, or texts path -> content.
        label: Its label; None: the chunker's own.

    Returns:
        The chunker's spans of every file, the files it did not handle or failed on, and its time.

    Examples:
        >>> result = chunkers.chunk_with(chunkers.line_windows(20), "my-repo")
        >>> len(result.spans)
    """
    return chunk_texts(as_chunker(chunker, label), read_source(source, max_file_size=max_file_size))


@checked_keywords
@setting_docs
def chunk_with_each(
    chunkers: Iterable[Chunker | Callable[[str, str], Any]], source: Source, *, max_file_size: str | int = MAX_FILE_SIZE
) -> list[ChunkedWith]:
    """`chunk_with` for several chunkers in turn, the files read once: one result per chunker, in order.

    Args:
        chunkers: The chunkers, each an adapter or a callable `(path, text)`.
        source: A folder, one file, a `Codebase`, or texts path -> content.

    Returns:
        One result per chunker, in order.
    """
    texts = read_source(source, max_file_size=max_file_size)
    return [chunk_texts(as_chunker(chunker), texts) for chunker in chunkers]


def chunk_texts(chunker: Chunker, texts: Texts) -> ChunkedWith:
    """One chunker over texts already read (`read_source`), each file guarded (`_guard.py`; a peer in a process of
    its own, `_process.py`) and the whole run within the chunker's `total_seconds`: a file it fails on is in
    `failed` with the reason, and one `ChunkerFallbackWarning` names them."""
    spans: dict[str, list[Span]] = {}
    unhandled: list[str] = []
    failed: dict[str, str] = {}
    timed_out: list[str] = []
    seconds = 0.0
    limit = getattr(chunker, "file_seconds", FILE_SECONDS)
    budget = getattr(chunker, "total_seconds", TOTAL_SECONDS)
    began = time.perf_counter()
    run = runner(chunker)
    try:
        for path, text in texts.texts.items():
            left = budget - (time.perf_counter() - began)
            if left <= 0:  # the budget is spent: the files left are not given to it
                failed[path] = _spent(budget)
                timed_out.append(path)
                continue
            answer = run(path, text, min(limit, left), left)
            seconds += answer.seconds
            if answer.reason is not None:
                spent = answer.timed_out and time.perf_counter() - began >= budget  # the budget cut it short
                failed[path] = _spent(budget) if spent else answer.reason
                if answer.timed_out:
                    timed_out.append(path)
            elif answer.result is None:
                unhandled.append(path)
            else:
                spans[path] = list(answer.result)
    finally:
        run.close()
    parameters = getattr(chunker, "parameters", {})
    _warn_failed(chunker.label, failed, len(texts.texts))
    return ChunkedWith(chunker.label, spans, seconds, tuple(unhandled), texts.unread, parameters, failed,
                       tuple(timed_out))  # fmt: skip


def _spent(budget: float) -> str:
    return f"its time budget of {budget:g} s per sweep was spent (total_seconds)"


def _warn_failed(label: str, failed: Mapping[str, str], total: int) -> None:
    if not failed:
        return
    named = "; ".join(f"{path!r} ({reason})" for path, reason in list(failed.items())[:NAMED_AT_MOST])
    more = f"; and {len(failed) - NAMED_AT_MOST} more" if len(failed) > NAMED_AT_MOST else ""
    msg = (f"chunker {label!r} failed on {len(failed)} of {total} files, which count as not handled by it (a sweep "
           f"cuts them into clanka's line windows, in fallback_files): {named}{more}")  # fmt: skip
    warn_at_user(msg, ChunkerFallbackWarning)
