"""The files table: one row per listed file, with why it has no chunks when it has none."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Unpack

import pandas as pd

from .. import engine
from ..engine.internals import sorted_like_js, windowed_grammar_note
from ..engine.progress import ProgressBar
from ..engine.settings import Settings, SourceKeywords, setting_keywords
from . import columns as _columns
from ._coverage import Measured, measure_source, measured_attrs, ratios
from .source import Source

# Reports made from in-memory texts carry no reason; say the same thing the engine says for files.
_DEFAULT_REASONS = {
    engine.FileStatus.EMPTY: "the file holds only whitespace",
    engine.FileStatus.MINIFIED: "looks minified (few very long lines); the reference skips bundles",
    engine.FileStatus.NOTHING_MEANINGFUL: "no line holds a letter, digit or symbol",
    engine.FileStatus.UNREADABLE: "the file could not be read",
    engine.FileStatus.NOT_INDEXED: "the reference never indexes this file name",
}


def files_frame(measured: Measured) -> pd.DataFrame:
    reports = [measured.codebase.report(path) for path in measured.paths]
    known = measured.known.tolist()
    meaningful = measured.per_file(measured.lines.meaningful)
    covered = measured.per_file(measured.lines.meaningful & (measured.counts > 0))
    columns: dict[str, _columns.Column] = {
        "path": measured.paths,
        "language": [engine.language_of(path) for path in measured.paths],
        "bytes": [r.bytes for r in reports],
        "lines": [text.line_count if ok and text is not None else None
                  for text, ok in zip(measured.lines.texts, known, strict=True)],
        "status": [r.status.value for r in reports],
        # A chunked file has a reason only when something about it needs saying (two names, one path).
        "reason": [r.reason or _DEFAULT_REASONS.get(r.status) for r in reports],
        "chunker": measured.chunkers,
        "chunks": [len(spans) for spans in measured.spans],
        "meaningful_lines": meaningful,
        "covered_lines": covered,
        "coverage": ratios(covered, meaningful),
        "binary": [r.binary for r in reports],
    }
    attrs = measured_attrs(measured)
    note = windowed_grammar_note(dict(zip(measured.paths, measured.chunkers, strict=True)), measured.codebase.languages)
    if note is not None:  # the mode is never hidden: most files were windows extended mode would parse
        attrs["mode_note"] = note
    return _columns.build(columns, _columns.FILES, attrs)


def _with_skipped(frame: pd.DataFrame, codebase: engine.Codebase, max_file_size: str | int,
                  only: str | None = None) -> pd.DataFrame:  # fmt: skip
    """`frame` plus a `skipped` row for every other file under the codebase's root, all in listing order; `only`:
    the one file a user passed (its own row if the listing skips it, no other file's)."""
    held = set(frame["path"].tolist())
    skipped = [(path, reason) for path, reason in engine.skipped_files(codebase.root, max_file_size=max_file_size)
               if path not in held and (only is None or path == only)]
    if only is None:
        # A Codebase of chosen paths leaves out the other listable files by that choice.
        listable = engine.list_files(codebase.root, max_file_size=max_file_size)
        skipped += [(path, "not among the paths this Codebase was built from") for path in listable
                    if path not in held]  # fmt: skip
    rows: dict[str, _columns.Column] = {
        "path": [path for path, _ in skipped],
        "language": [engine.language_of(path) for path, _ in skipped],
        "bytes": [_size(codebase.root, path) for path, _ in skipped],
        "status": [engine.FileStatus.SKIPPED.value] * len(skipped),
        "reason": [reason for _, reason in skipped],
        "chunks": [0] * len(skipped),
    }
    missing = [None] * len(skipped)  # nothing was read: lines, chunker, coverage and binary are unknown
    extra = _columns.build({name: rows.get(name, missing) for name in _columns.FILES}, _columns.FILES, {})
    both = pd.concat([frame, extra], ignore_index=True) if len(extra) else frame.copy()
    order = {path: i for i, path in enumerate(sorted_like_js(both["path"].tolist()))}
    both = both.iloc[sorted(range(len(both)), key=lambda i: order[both["path"].iat[i]])].reset_index(drop=True)
    both.attrs.update(frame.attrs)
    return both


def _size(root: Path, path: str) -> int | None:
    try:
        return (root / path).lstat().st_size
    except OSError:
        return None


@setting_keywords
def files(
    source: Source = None,
    *,
    include_skipped: bool = False,
    progress: ProgressBar = None,
    settings: Settings | None = None, **given: Unpack[SourceKeywords],
) -> pd.DataFrame:
    """One row per listed file: path, language, bytes, lines, status, reason, chunker, chunks,
    meaningful_lines (lines the engine counts as meaningful), covered_lines (of those, the ones in
    at least one chunk) and coverage (covered / meaningful).

    `status` says why a file has no chunks ("empty", "minified", "nothing meaningful",
    "unreadable", "not indexed") and `reason` says it in words, so nothing disappears silently.
    Line counts are NA where the engine never split the file into lines. `binary` is True where the
    content looks like binary data (a NUL byte, or mostly bytes that are not UTF-8): the reference
    still chunks it as text, and so does clanka-nb.

    With `include_skipped=True`, every other file under the root gets a row too, with status
    "skipped" and the reason `list_files` leaves it out (an excluded folder, which ignore file and
    pattern, an extension not indexed, over `max_file_size`, a symbolic link, not a regular file);
    see `engine.skipped_files`. Without it the table holds exactly the files the reference lists.

    Args:
        source: A folder, the path of one file, an `engine.Codebase`, a chunk frame, or None for the sample codebase.
        include_skipped: Also a row for every file the listing leaves out, with status "skipped" and why.
        progress: None shows a bar only for work over a second, False never, True always.

    Returns:
        One row per file, with its status, reason, chunker, chunks and coverage.

    Examples:
        >>> table = cn.files("my-repo", include_skipped=True)
        >>> table[table.status != "ok"][["path", "status", "reason"]]
    """
    settings = Settings(**given).over(settings)
    if not isinstance(include_skipped, bool):
        msg = f"include_skipped must be True or False, got {include_skipped!r}"
        raise TypeError(msg)
    measured = measure_source(source, settings, progress)
    frame = files_frame(measured)
    if include_skipped and measured.codebase.root != Path():
        frame = _with_skipped(frame, measured.codebase, measured.settings.max_file_size,
                              only=_one_file(source))  # fmt: skip
    return frame


def _one_file(source: object) -> str | None:
    """The name of the one file a user passed as the source (the resolver makes its folder the root, so its
    name is its path there: `engine.source.resolve`), or None for anything else."""
    if not isinstance(source, str | os.PathLike):
        return None
    given = Path(source).expanduser()
    return given.name if given.is_file() else None
