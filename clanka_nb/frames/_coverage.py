"""Which meaningful lines no chunk holds (never indexed) and which several hold, per file or per line."""

from __future__ import annotations

from typing import Any, NamedTuple, Unpack

import numpy as np
import pandas as pd

from .. import engine
from ..engine.progress import ProgressBar
from ..engine.settings import Settings, SourceKeywords, setting_keywords
from ..engine.source import open_source
from . import columns as _columns
from .chunks import settings_attrs
from .lines import LineIndex, span_positions
from .source import Source

# Files whose lines the engine never looked at: their line counts are unknown (NA), not zero.
_UNSPLIT = frozenset(
    [engine.FileStatus.EMPTY, engine.FileStatus.MINIFIED, engine.FileStatus.UNREADABLE, engine.FileStatus.NOT_INDEXED]
)


class Measured(NamedTuple):
    """A codebase chunked at one setting as spans (no chunk text), with per-line chunk counts."""

    codebase: engine.Codebase
    settings: engine.Settings
    paths: list[str]
    spans: list[tuple[tuple[int, int], ...]]  # each file's chunks as (start_line, end_line), unsorted
    chunkers: list[str | None]  # "ast", "window", or None when the file gives no chunks
    lines: LineIndex  # per global line position: its file, and whether it is meaningful
    counts: np.ndarray  # chunks holding each global line position
    known: np.ndarray  # per file: whether its lines were looked at (so line counts mean something)

    def per_file(self, mask: np.ndarray) -> list[int | None]:
        """Per file: how many positions of the mask it holds; None where its lines are unknown."""
        sums = self.lines.per_file(mask).tolist()
        return [value if known else None for value, known in zip(sums, self.known.tolist(), strict=True)]


def measure(codebase: engine.Codebase, settings: engine.Settings) -> Measured:
    # Spans, not chunks: coverage needs where chunks start and end, never their text.
    paths = list(codebase.files)
    chunking = settings.chunk
    walked = [codebase.file_chunking(path, chunking) for path in paths]
    spans = [found.spans for found in walked]
    index = LineIndex(codebase, paths)
    starts, ends = span_positions(index, spans)
    known = np.array([codebase.report(path).status not in _UNSPLIT for path in paths], dtype=bool)
    return Measured(
        codebase, settings, paths, spans, [found.chunker for found in walked], index,
        index.chunk_counts(starts, ends), known,
    )  # fmt: skip


def measure_source(source: Source, settings: Settings, progress: ProgressBar) -> Measured:
    """The source opened with the settings a call passed, measured."""
    opened = open_source(source, settings, progress=progress)
    return measure(opened.codebase, opened.settings)


def measured_attrs(measured: Measured) -> dict[str, Any]:
    return settings_attrs(measured.codebase, measured.settings.chunk, measured.settings.max_file_size)


def _ranges(lines: np.ndarray) -> str:
    """1-based line numbers as "1, 4-6, 9"."""
    if not len(lines):
        return ""
    breaks = np.flatnonzero(np.diff(lines) != 1) + 1
    parts = []
    for run in np.split(lines, breaks):
        first, last = int(run[0]), int(run[-1])
        parts.append(str(first) if first == last else f"{first}-{last}")
    return ", ".join(parts)


def coverage_frame(measured: Measured) -> pd.DataFrame:
    index, counts = measured.lines, measured.counts
    meaningful = index.meaningful
    missed = meaningful & (counts == 0)
    known = measured.known.tolist()
    meaningful_lines = measured.per_file(meaningful)
    covered = measured.per_file(meaningful & (counts > 0))
    missed_ranges = []
    for i, is_known in enumerate(known):
        lo, hi = int(index.offsets[i]), int(index.offsets[i + 1])
        missed_ranges.append(_ranges(np.flatnonzero(missed[lo:hi]) + 1) if is_known else None)
    columns: dict[str, _columns.Column] = {
        "path": measured.paths,
        "status": [measured.codebase.report(path).status.value for path in measured.paths],
        "chunker": measured.chunkers,
        "meaningful_lines": meaningful_lines,
        "covered_lines": covered,
        "missed_lines": measured.per_file(missed),
        "overlapped_lines": measured.per_file(meaningful & (counts > 1)),
        "coverage": ratios(covered, meaningful_lines),
        "missed": missed_ranges,
    }
    return _columns.build(columns, _columns.COVERAGE, measured_attrs(measured))


def ratios(part: list[int | None], whole: list[int | None]) -> list[float | None]:
    """part / whole, None where unknown or where whole is 0 (nothing to cover)."""
    return [None if p is None or not w else p / w for p, w in zip(part, whole, strict=True)]


def line_coverage_frame(measured: Measured) -> pd.DataFrame:
    index, counts = measured.lines, measured.counts
    positions = np.flatnonzero(index.meaningful)
    files = index.file_of(positions)
    all_lines = [line for text in index.texts if text is not None for line in text.lines]
    held = counts[positions]
    columns: dict[str, _columns.Column] = {
        "path": np.asarray(index.paths, dtype=object)[files] if len(index.paths) else [],
        "line": positions - index.offsets[files] + 1,
        "text": [all_lines[p] for p in positions.tolist()],
        "chunks": held,
        "status": np.select([held == 0, held == 1], ["missed", "covered"], "overlapped"),
    }
    return _columns.build(columns, _columns.LINES, measured_attrs(measured))


@setting_keywords
def coverage(
    source: Source = None, *, progress: ProgressBar = None,
    settings: Settings | None = None, **given: Unpack[SourceKeywords],
) -> pd.DataFrame:
    """Per listed file: how many meaningful lines no chunk holds and how many several chunks hold.

    Columns: path, status, chunker, meaningful_lines, covered_lines (in at least one chunk),
    missed_lines (in none: in AST mode imports, bare statements, abstract classes, `export { }`
    are never indexed), overlapped_lines (in two or more: overlap, or a class and its method),
    coverage (covered / meaningful) and missed (the missed line numbers as "3, 7-9"). Counts are
    NA for files whose lines the engine never read (empty, minified, unreadable).

    Args:
        source: A folder, the path of one file, an `engine.Codebase`, a chunk frame, or None for the sample codebase.
        progress: None shows a bar only for work over a second, False never, True always.

    Returns:
        One row per listed file: its meaningful, covered, missed and overlapped lines.

    Examples:
        >>> cn.coverage(chunk_size=40).sort_values("coverage").head()
    """
    settings = Settings(**given).over(settings)
    measured = measure_source(source, settings, progress)
    return coverage_frame(measured)


@setting_keywords
def line_coverage(
    source: Source = None, *, progress: ProgressBar = None,
    settings: Settings | None = None, **given: Unpack[SourceKeywords],
) -> pd.DataFrame:
    """One row per meaningful line of every file: path, line, text, chunks (how many hold it) and status.

    `status` is "missed" (no chunk: never indexed), "covered" (one chunk) or "overlapped" (several).
    Filter `frame[frame.status == "missed"]` to see what semantic search can never find.

    Args:
        source: A folder, the path of one file, an `engine.Codebase`, a chunk frame, or None for the sample codebase.
        progress: None shows a bar only for work over a second, False never, True always.

    Returns:
        One row per meaningful line: path, line, text, chunks and status.

    Examples:
        >>> lines = cn.line_coverage()
        >>> lines[lines.status == "missed"].head()
    """
    settings = Settings(**given).over(settings)
    measured = measure_source(source, settings, progress)
    return line_coverage_frame(measured)
