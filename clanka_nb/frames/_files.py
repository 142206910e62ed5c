"""The files table: one row per listed file, with why it has no chunks when it has none."""

from __future__ import annotations

import pandas as pd

from .. import engine
from . import _columns
from ._chunks import settings_attrs
from ._coverage import Measured, measure_source, ratios
from ._progress import Progress
from ._source import Source

# Reports made from in-memory texts carry no reason; say the same thing the engine says for files.
_DEFAULT_REASONS = {
    engine.FileStatus.EMPTY: "the file holds only whitespace",
    engine.FileStatus.MINIFIED: "looks minified (few very long lines); the reference skips bundles",
    engine.FileStatus.NOTHING_MEANINGFUL: "no line holds a letter, digit or symbol",
    engine.FileStatus.UNREADABLE: "the file could not be read",
    engine.FileStatus.NOT_INDEXED: "the reference never indexes this file name",
}


def files_frame(measured: Measured) -> pd.DataFrame:
    reports = [measured.codebase.report(f.path) for f in measured.files]
    known = measured.known().tolist()
    meaningful = measured.per_file(measured.index.meaningful)
    covered = measured.per_file(measured.index.meaningful & (measured.counts > 0))
    columns = {
        "path": [f.path for f in measured.files],
        "language": [engine.language_of(f.path) for f in measured.files],
        "bytes": [r.bytes for r in reports],
        "lines": [f.text.line_count if ok else None for f, ok in zip(measured.files, known, strict=True)],
        "status": [r.status.value for r in reports],
        # A chunked file has a reason only when something about it needs saying (two names, one path).
        "reason": [r.reason or _DEFAULT_REASONS.get(r.status) for r in reports],
        "chunker": [f.chunker for f in measured.files],
        "chunks": [len(f.chunks) for f in measured.files],
        "meaningful_lines": meaningful,
        "covered_lines": covered,
        "coverage": ratios(covered, meaningful),
    }
    return _columns.build(columns, _columns.FILES, settings_attrs(measured.codebase, measured.settings))


def files(
    source: Source,
    *,
    chunk_size: int = 30,
    chunk_overlap: int = 0,
    chunk_max_characters: float | None = None,
    max_file_size: str | int = "1M",
    workers: int | None = None,
    progress: Progress = None,
    languages: str | None = None,
) -> pd.DataFrame:
    """One row per listed file: path, language, bytes, lines, status, reason, chunker, chunks,
    meaningful_lines (lines the engine counts as meaningful), covered_lines (of those, the ones in
    at least one chunk) and coverage (covered / meaningful).

    `status` says why a file has no chunks ("empty", "minified", "nothing meaningful",
    "unreadable", "not indexed") and `reason` says it in words, so nothing disappears silently.
    Line counts are NA where the engine never split the file into lines.
    """
    measured = measure_source(
        source, chunk_size, chunk_overlap, chunk_max_characters, max_file_size, workers, progress, languages
    )
    return files_frame(measured)
