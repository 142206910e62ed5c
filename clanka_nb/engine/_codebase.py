"""A parsed codebase: every file listed, read and parsed once, re-chunkable at any settings."""

from __future__ import annotations

import dataclasses
import functools
import gc
import os
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from ..defaults import CHUNK_OVERLAP, CHUNK_SIZE, DEFAULT_LANGUAGES, MAX_FILE_SIZE, NO_LIMIT
from ..warning import ClankaWarning
from ._cache import ParseCache, resolve_cache
from ._chunker import (
    CodeChunk,
    FileChunking,
    Front,
    PreparedText,
    cache_key,
    chunk_of,
    chunks_of,
    front,
    parse,
    prepare,
    prepared,
)
from ._declarations import Declaration, declaration_of
from ._languages import check_languages, grammar_for, load_grammars
from ._listing import list_file_names, resolve_root
from ._reading import (
    CONTENT_REASONS,
    NEVER_INDEXED,
    OUTSIDE_ROOT,
    FileReport,
    FileStatus,
    MissingFileError,
    looks_binary,
    missing_file,
    read_text,
    relative_path,
)
from ._text import meaningful_match, normalize_path
from ._workers import ordered_map
from .settings import ChunkSettings, Settings, check_workers, checked_init, checked_keywords, path_list, setting_docs
from .warn import warn_at_user

Progress = Callable[[int], None]


def load(
    root: Path, rel: str, languages: str, cache: ParseCache | None = None
) -> tuple[PreparedText | None, FileReport]:
    """Read and prepare one file on its own (a codebase's files go through `_outcomes`)."""
    content, report = read_text(root, rel)
    if content is None:
        return None, report
    text = prepare(rel, content, languages, cache)
    return text, _content_report(text, report)


def _content_report(text: PreparedText, report: FileReport) -> FileReport:
    return FileReport(report.path, text.status, report.bytes, CONTENT_REASONS.get(text.status), report.binary)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cycle collector held off while a codebase's objects are made, and let run after.

    Lines, declarations and chunks hold no reference cycles, but tens of thousands of them made at once
    set off collector passes that walk them all again: a fifth of a warm reopen's time. Only around
    loops that return (never across a `yield`, where the caller's code would run without collection).
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


class UnreadableFileWarning(ClankaWarning, UserWarning):
    """A listed file could not be read (or was refused: it resolves outside the root), so it gives no chunks."""


def _warn_unreadable(report: FileReport) -> None:
    if report.status is FileStatus.UNREADABLE or (report.reason or "").startswith(OUTSIDE_ROOT):
        msg = f"{report.path}: {report.reason}; it gives no chunks (Codebase(root).reports lists every file's fate)"
        warn_at_user(msg, UnreadableFileWarning)


class BinaryFileWarning(ClankaWarning, UserWarning):
    """Listed files look binary (NUL bytes, mostly undecodable): chunked as the reference does, said once."""


class NothingToChunkWarning(ClankaWarning, UserWarning):
    """A folder lists no file to chunk, or a chosen file has a name the reference never indexes."""


# Files named in one warning before "and N more": the message stays one readable line.
_NAMED_IN_WARNING = 5


class _Fates:
    """What the files of one call came to that the caller should hear about: told once, at the end."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.binary: list[str] = []
        self.unnamed: list[str] = []

    def see(self, report: FileReport) -> None:
        _warn_unreadable(report)
        if report.binary and report.status is FileStatus.CHUNKED:
            self.binary.append(report.path)
        elif report.status is FileStatus.NOT_INDEXED and report.reason == NEVER_INDEXED:
            self.unnamed.append(report.path)

    def tell(self) -> None:
        if self.binary:
            msg = (
                f"{_some(self.binary)} {'looks' if len(self.binary) == 1 else 'look'} binary (NUL bytes or mostly "
                "undecodable), not source code; chunked all the same, as the reference does "
                "(the `binary` column of files() marks them; exclude them with an ignore file)"
            )
            warn_at_user(msg, BinaryFileWarning)
        if self.unnamed:
            msg = (
                f"{_some(self.unnamed)}: {NEVER_INDEXED} (by its extension), so no chunks; "
                f"{'it also looks binary; ' if _sniff_binary(self.root / self.unnamed[0]) else ''}"
                "pass a source file (engine.is_meaningful_file says which names are)"
            )
            warn_at_user(msg, NothingToChunkWarning)

    def told(self, items: Iterable[Any], report_at: int) -> Iterator[Any]:
        """`items` passed on as they come, each one's report seen; told once the last has passed."""
        for item in items:
            self.see(item[report_at])
            yield item
        self.tell()


def _some(paths: list[str]) -> str:
    named = ", ".join(repr(path) for path in paths[:_NAMED_IN_WARNING])
    more = len(paths) - _NAMED_IN_WARNING
    return named + (f" and {more:,} more" if more > 0 else "")


def _sniff_binary(path: Path) -> bool:
    """Whether a file's first bytes hold a NUL (only to say why a file with such a name has no chunks)."""
    try:
        with open(path, "rb") as handle:
            return b"\x00" in handle.read(8192)
    except OSError:
        return False


def warn_if_nothing_listed(root: Path, names: list[str]) -> list[str]:
    """`names` as given; a warning first when the listing of `root` holds no file at all (say why, not `(no rows)`)."""
    if not names:
        msg = (
            f"no files to chunk under {str(root)!r}: the listing keeps none (an empty folder, or every file "
            "ignored, excluded, too big or not source code); files(root, include_skipped=True) says why for each"
        )
        warn_at_user(msg, NothingToChunkWarning)
    return names


# The one threshold of the workers policy: worker processes start only when at least this many files are
# left to parse (files with a grammar; with the parse cache, those it does not hold), whatever `workers`
# says, since starting them and sending them work costs more than they save below it; a reopen that the
# cache serves stays in this process. benchmarks/bench_workers.py (real JS/TS files, cache off, two
# processes forced / one) shows where they start to pay on the shared 2-core machine.
MIN_FILES_FOR_PROCESSES = 200
# Parses found for the cache are written this many at a time, each batch one transaction.
_PUT_BATCH = 256


def _parallel(workers: int, parses: int) -> bool:
    return workers > 1 and parses >= max(2, MIN_FILES_FOR_PROCESSES)


class _Context(NamedTuple):
    """What every job of one run shares, sent to each worker once when it starts (not with every file)."""

    root: Path
    languages: str
    settings: ChunkSettings | None  # None: send the parse back (Codebase); settings: send the chunks


# A worker's answer for one file: plain tuples and strings only, cheap to pickle and to rebuild:
# (report row or None when the parent read the file, status, grammar, declaration rows,
#  chunk rows with settings / the file's text when the parent has not read it / None).
_Answer = tuple[tuple[Any, ...] | None, str, str | None, list[tuple[Any, ...]], list[tuple[Any, ...]] | str | None]


def _work(context: _Context, job: tuple[str, str | None]) -> _Answer:
    """One file in a worker: read it unless the parent sent its text, parse it, and chunk it with settings."""
    rel, content = job
    row = None
    if content is None:
        content, report = read_text(context.root, rel)
        if content is None:
            return (report.path, report.status.value, report.bytes, report.reason, report.binary), "", None, [], None
        row = (report.path, report.status.value, report.bytes, report.reason, report.binary)
    file = front(rel, content)
    grammar, decls = parse(file, context.languages)
    if context.settings is not None:
        text = prepared(file, grammar, decls, context.languages)
        # Plain tuples: unpickling a named tuple calls its Python __new__; the parent makes them without one.
        rows = list(map(tuple, chunks_of(text, context.settings)))
        # The declarations go back only for the parent's cache, which holds the texts it sends.
        return row, text.status.value, grammar, [] if row is not None else list(map(tuple, decls)), rows
    status = file.status
    if status is FileStatus.CHUNKED and meaningful_match(file.text) is None:
        status = FileStatus.NOTHING_MEANINGFUL
    # The text crosses as one string and is split again where it is used: far cheaper than pickling its lines.
    back = file.text if row is not None and file.status is FileStatus.CHUNKED else None
    return row, status.value, grammar, list(map(tuple, decls)), back


def _from_text(
    path: str, text: str, status: FileStatus, grammar: str | None, decls: list[Declaration], languages: str
) -> PreparedText:
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return PreparedText(path, lines, grammar, decls, status, meaningful=True, mode=languages)


def _pool(context: _Context, jobs: list[tuple[str, str | None]], workers: int) -> Generator[_Answer, None, None]:
    if context.languages == "extended":
        load_grammars([rel for rel, _ in jobs], context.languages)
    # Batches amortise the cost of sending work and results between processes; cut by the files' sizes
    # (parsing costs about what a file weighs), they keep both processes busy to the end even when a
    # few files are much bigger than the rest (three.js's Emscripten builds: a third of its parse).
    batch = max(1, min(16, len(jobs) // (workers * 8)))
    weights = [_size(context.root, rel) if text is None else len(text) for rel, text in jobs]
    # Every job's first item is the file's path: errors name the files a dead worker held.
    work = functools.partial(_work, context)
    large = any(text is not None for _, text in jobs)  # texts the parent read (the parse cache's misses)
    return ordered_map(work, jobs, workers, batch, describe=lambda job: str(job[0]), weights=weights, large=large)


def _size(root: Path, rel: str) -> int:
    try:
        return os.stat(os.path.join(root, rel)).st_size
    except OSError:  # gone or unreadable: the worker says so; it costs next to nothing
        return 0


# One file's outcome: its report, and its PreparedText (without settings) or its chunks (with settings);
# None for both when it was not read.
_Outcome = tuple[FileReport, PreparedText | None, list[CodeChunk] | None]


def _outcomes(
    root: Path, rels: list[str], languages: str, workers: int, cache: ParseCache | None, settings: ChunkSettings | None
) -> Iterator[_Outcome]:
    """Every file of `rels`, in order, read, parsed (or found in the cache) and, with settings, chunked.

    Worker processes are used only for what is left to parse: without a cache, the files with a grammar;
    with one, every file is read here first, the cache asked for all of them at once, and only what it
    lacks is parsed, in workers when that is many files.
    """
    if cache is None:
        parses = sum(1 for rel in rels if grammar_for(rel, languages) is not None)
        if not _parallel(workers, parses):
            for rel in rels:
                yield _local(root, rel, languages, settings)
            return
        context = _Context(root, languages, settings)
        for answer in _pool(context, [(rel, None) for rel in rels], workers):
            yield _outcome(answer, None, None, settings, languages)
        return
    yield from _cached_outcomes(root, rels, languages, workers, cache, settings)


def _local(root: Path, rel: str, languages: str, settings: ChunkSettings | None) -> _Outcome:
    text, report = load(root, rel, languages)
    if text is None:
        return report, None, None
    return report, text, None if settings is None else chunks_of(text, settings)


def _outcome(
    answer: _Answer, file: Front | None, report: FileReport | None, settings: ChunkSettings | None, languages: str
) -> _Outcome:
    """A worker's answer as the outcome of one file (`file` and `report`: what the parent read itself)."""
    row, status_value, grammar, decl_rows, back = answer
    if report is None:
        report = FileReport(row[0], FileStatus(row[1]), *row[2:])  # type: ignore[index]  # a worker's answer is plain tuples (pickled): row holds FileReport's fields
        if status_value == "":
            return report, None, None
    status = FileStatus(status_value)
    report = FileReport(report.path, status, report.bytes, CONTENT_REASONS.get(status), report.binary)
    if settings is not None:
        return report, None, list(map(chunk_of, back))  # type: ignore[arg-type]  # with settings, the worker sent chunk rows in `back`
    decls = list(map(declaration_of, decl_rows))
    if file is not None:
        return report, prepared(file, grammar, decls, languages), None
    path = normalize_path(report.path)
    if status in (FileStatus.EMPTY, FileStatus.MINIFIED):
        return report, PreparedText(path, [], None, [], status), None
    return report, _from_text(path, back, status, grammar, decls, languages), None  # type: ignore[arg-type]  # without settings, the worker sent the text in `back`


def _cached_outcomes(
    root: Path, rels: list[str], languages: str, workers: int, cache: ParseCache, settings: ChunkSettings | None
) -> Iterator[_Outcome]:
    read: deque[tuple[FileReport, Front | None, bytes | None]] = deque()
    for rel in rels:
        content, report = read_text(root, rel)
        file = None if content is None else front(rel, content)
        read.append((report, file, None if file is None else cache_key(file, languages)))
    found = cache.get_many([key for _, _, key in read if key is not None])
    misses = [(file.path, file.text) for _, file, key in read if key is not None and key not in found]  # type: ignore[union-attr]  # a key is made only for a file read
    pooled = _pool(_Context(root, languages, settings), misses, workers) if _parallel(workers, len(misses)) else None
    puts: list[tuple[bytes, str, list[Declaration]]] = []
    try:
        while read:
            report, file, key = read.popleft()  # let each text go once it is done
            if file is None:
                yield report, None, None
                continue
            if key is not None and key not in found and pooled is not None:
                answer = next(pooled)
                if answer[2] is not None:
                    puts.append((key, answer[2], list(map(declaration_of, answer[3]))))
                yield _outcome(answer, file, report, settings, languages)
            else:
                grammar: str | None
                if key is not None and key in found:
                    grammar, decls = found[key]
                else:
                    grammar, decls = parse(file, languages)
                    if key is not None and grammar is not None:
                        puts.append((key, grammar, decls))
                text = prepared(file, grammar, decls, languages)
                yield _content_report(text, report), text, None if settings is None else chunks_of(text, settings)
            if len(puts) >= _PUT_BATCH:
                cache.put_many(puts)
                puts = []
    finally:
        cache.put_many(puts)
        if pooled is not None:
            pooled.close()


def load_all(
    root: Path,
    paths: Iterable[str],
    languages: str,
    workers: int,
    progress: Progress | None = None,
    cache: ParseCache | None = None,
) -> Iterator[tuple[PreparedText | None, FileReport]]:
    """Read and prepare files in the given order; binary files and names never indexed are told once, at the end."""
    fates = _Fates(root)
    for report, text, _ in _outcomes(root, list(paths), languages, workers, cache, None):
        fates.see(report)
        if progress is not None:
            progress(1)
        yield text, report
    fates.tell()


@checked_keywords
@setting_docs
def prepared_texts(
    root: str | os.PathLike[str],
    paths: Iterable[str],
    *,
    languages: str | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    cache: bool | ParseCache = True,
) -> Iterator[tuple[PreparedText | None, FileReport]]:
    """Each file of `paths` (names relative to `root`, e.g. from `list_file_names`) read and prepared, in
    order, in `workers` processes, keeping none: a frame built file by file needs one at a time. A name
    that resolves outside the root is refused and reported, as everywhere.

    Args:
        root: The folder.
        paths: The files' names, relative to `root` (`list_file_names`).
        progress: A progress bar to advance per file; None: none.
        cache: True keeps each parse in the persistent parse cache; a `ParseCache`; False parses everything.

    Returns:
        For each file, in order, its prepared text (None when it gives none) and its report.
    """
    base = resolve_root(root)
    languages, workers = check_languages(DEFAULT_LANGUAGES if languages is None else languages), check_workers(workers)
    return load_all(base, list(paths), languages, workers, progress, resolve_cache(cache))


def chunk_all(
    root: Path,
    paths: Iterable[str],
    languages: str,
    settings: ChunkSettings,
    workers: int,
    cache: ParseCache | None = None,
) -> Iterator[CodeChunk]:
    """Chunks of the files in the given order, each file chunked where it was parsed."""
    fates = _Fates(root)
    for report, _, chunks in _outcomes(root, list(paths), languages, workers, cache, settings):
        fates.see(report)
        if chunks:
            yield from chunks
    fates.tell()


@checked_init
class Codebase:
    """Every listed file of `root`, read and parsed once; `.chunks(...)` re-chunks without parsing.

    Ranges, lines and meaning do not depend on the settings, so a sweep or a slider only does
    arithmetic here. `reports` says, for every listed file, whether it gives chunks and why not.
    `cache` (default True) keeps each parse in the persistent parse cache (`ParseCache`), so a file
    content met again, in this session or another, is not parsed again; False parses everything.
    `selected` is True when it was opened on given `paths` rather than the root's listing (a chunk frame
    of it then stands for those files alone). A path it does not hold raises `MissingFileError`.
    """

    @setting_docs
    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        max_file_size: str | int = MAX_FILE_SIZE,
        workers: int | None = None,
        languages: str | None = None,
        paths: Iterable[str | os.PathLike[str]] | str | os.PathLike[str] | None = None,
        progress: Progress | None = None,
        cache: bool | ParseCache = True,
    ) -> None:
        """List, read and parse the files of `root` (or the given `paths` alone).

        Args:
            root: The folder.
            paths: Only these files (relative to the root, or absolute inside it); None: every listed file.
            progress: A progress bar to advance per file; None: none.
            cache: True keeps each parse in the persistent parse cache; a `ParseCache`; False parses everything.

        Raises:
            FileNotFoundError: `root` is no folder.
            MissingFileError: A path of `paths` is no file under the root.

        Examples:
            >>> codebase = cn.Codebase("my-repo", languages="extended")
            >>> codebase.chunks(40)[:3]
        """
        self.root = resolve_root(root)
        self.languages = check_languages(DEFAULT_LANGUAGES if languages is None else languages)
        parse_cache = resolve_cache(cache)
        self._texts: dict[str, PreparedText] = {}
        self._reports: dict[str, FileReport] = {}
        # Opened on given files rather than the root's listing: a chunk frame of it stands for those alone.
        self.selected = paths is not None
        if paths is None:
            # Read by their names on disk: two names may give one reported path (see _flag_collisions).
            listed = warn_if_nothing_listed(self.root, list_file_names(self.root, max_file_size=max_file_size))
            self.files: list[str] = listed
        else:
            listed, self.files = [], []
            for given in path_list("paths", paths):
                rel = relative_path(self.root, given)
                if rel is None:  # kept and reported, so a path given by mistake is not lost silently
                    shown = os.fspath(given).replace("\\", "/")
                    self._reports[shown] = FileReport(shown, FileStatus.NOT_INDEXED, 0, "outside the root folder")
                    self.files.append(shown)
                else:
                    listed.append(rel)
                    self.files.append(rel)
        jobs = load_all(self.root, listed, self.languages, check_workers(workers), progress, parse_cache)
        with gc_paused():
            for text, report in jobs:
                self._reports[report.path] = report
                if text is not None:
                    self._texts[report.path] = text
        self._flag_collisions()

    def _flag_collisions(self) -> None:
        """Say so in the reports when two files' chunks carry one path (`back\\slash.ts`, `back/slash.ts`)."""
        names: dict[str, set[str]] = {}
        for name in self.files:
            names.setdefault(name.replace("\\", "/"), set()).add(name)
        for shown, group in names.items():
            if len(group) < 2:
                continue
            others = ", ".join(repr(name) for name in sorted(group))
            note = f"files {others} are all reported as {shown!r} (a '\\' in a name becomes '/', as in the reference)"
            for name in group:
                report = self._reports[name]
                reason = note if report.reason is None else f"{report.reason}; {note}"
                self._reports[name] = dataclasses.replace(report, reason=reason)

    @classmethod
    def from_texts(cls, texts: Mapping[str, str], *, languages: str | None = None) -> Codebase:
        """A codebase made of in-memory files (path -> content), e.g. snippets in a lesson."""
        self = cls.__new__(cls)
        self.root = Path()
        self.languages = check_languages(DEFAULT_LANGUAGES if languages is None else languages)
        self._texts = {}
        self._reports = {}
        self.selected = False
        for path, content in texts.items():
            text = prepare(path, content, self.languages)
            self._texts[text.path] = text
            size = len(content.encode("utf-8", "replace"))
            reason = CONTENT_REASONS.get(text.status)
            self._reports[text.path] = FileReport(text.path, text.status, size, reason, looks_binary(content))
        self.files = list(self._texts)
        return self

    def __repr__(self) -> str:
        return f"Codebase({str(self.root)!r}, files={len(self.files)}, languages={self.languages!r})"

    @property
    def reports(self) -> list[FileReport]:
        """One report per listed file, in `files` order."""
        return [self._reports[path] for path in self.files]

    def report(self, path: str | os.PathLike[str]) -> FileReport:
        return self._reports[self._known(path)]

    def text(self, path: str | os.PathLike[str]) -> PreparedText | None:
        """What chunking knows of one file (lines, declarations); None when it could not be read."""
        return self._texts.get(self._known(path))

    def _known(self, path: str | os.PathLike[str]) -> str:
        given = os.fspath(path)
        # A file's own name first (`back\\slash.ts` is not `back/slash.ts`), then the reported path.
        key = given if given in self._reports else given.replace("\\", "/")
        if key not in self._reports and os.path.isabs(key) and self.root != Path():
            key = relative_path(self.root, key) or key  # an absolute path inside the root names the same file
        if key not in self._reports:
            error = missing_file(path, self.root)
            msg = f"{path!r} is not a file of this codebase; see Codebase.files for the listed paths ({error})"
            raise MissingFileError(msg)
        return key

    @setting_docs
    def chunks(
        self,
        chunk_size: int = CHUNK_SIZE,
        chunk_overlap: int = CHUNK_OVERLAP,
        chunk_max_characters: float | None = NO_LIMIT,
        *,
        settings: Settings | None = None,
    ) -> list[CodeChunk]:
        """All chunks at these settings (keywords, or one `settings=`), files in `files` order; nothing is parsed
        again.

        Returns:
            The chunks, file after file.

        Examples:
            >>> codebase = cn.Codebase("my-repo")
            >>> [len(codebase.chunks(size)) for size in (20, 40)]
        """
        chunking = Settings(chunk_size, chunk_overlap, chunk_max_characters).over(settings).chunk
        out: list[CodeChunk] = []
        with gc_paused():
            for path in self.files:
                text = self._texts.get(path)
                if text is not None:
                    out.extend(chunks_of(text, chunking))
        return out

    def file_chunking(self, path: str | os.PathLike[str], settings: ChunkSettings) -> FileChunking:
        """Which chunker the engine uses for one file at these settings ("ast", "window", or None with the
        status saying why it gives no chunks) and where its chunks start and end (unsorted): no text is copied."""
        key = self._known(path)
        text = self._texts.get(key)
        return FileChunking.unread(key, self._reports[key].status) if text is None else text.chunking(settings)

    def file_chunks(self, path: str, settings: ChunkSettings) -> list[CodeChunk]:
        """One file's chunks at already-built settings."""
        text = self.text(path)
        return [] if text is None else chunks_of(text, settings)
