"""Probe queries: taken from the codebase's own doc comments, or given by the user as a frame."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from ... import engine
from ...defaults import MAX_FILE_SIZE
from ...engine.progress import ProgressBar
from ...engine.settings import Settings, checked_keywords, setting_docs
from ...engine.source import open_source
from ...frames import columns as _columns
from ...frames.source import Source
from ._comments import doc_comment
from ._query_text import DROP_REASONS, Judged, judge

QUERIES: _columns.Schema = {
    "query": _columns.STRING,
    "path": _columns.STRING,
    "start_line": _columns.INT,
    "end_line": _columns.INT,
    "name": _columns.STRING,
    "type": _columns.TYPE,
    "comment_start": _columns.INT,
    "comment_end": _columns.INT,
}
REQUIRED = ("query", "path", "start_line", "end_line")
# The doc comments that give no query: the same columns, `query` holding the comment's text, and why.
DROPPED: _columns.Schema = {**QUERIES, "reason": pd.CategoricalDtype(list(DROP_REASONS))}

Masks = dict[str, dict[int, str]]  # path -> line -> the line's text with the doc comment taken out


class Scan(NamedTuple):
    """What `scan` finds: the queries, the doc comments dropped, the lines to mask, and why there are no
    queries (None when there are)."""

    queries: pd.DataFrame
    dropped: pd.DataFrame
    masks: Masks
    reason: str | None


def declared_texts(codebase: engine.Codebase) -> dict[str, engine.PreparedText]:
    """Every file's text with its declarations: the codebase's own parse, or extended mode's.

    Queries and their targets come from declarations and doc comments, which extended mode's
    parsers find in every language of its tables; which chunker cuts a file is another question.
    So a file the codebase's mode does not parse (Python in "clanka" mode) is parsed here in
    extended mode, from the lines already read: its line numbers are the same.
    """
    texts = {path: text for path in codebase.files if (text := codebase.text(path)) is not None and text.lines}
    if codebase.languages == "extended":
        return texts
    unparsed = [path for path, text in texts.items() if text.grammar is None and engine.language_of(path) != "other"]
    if unparsed:
        # The trailing newline keeps a last blank line: the engine drops one empty line at the end.
        extended = engine.Codebase.from_texts(
            {path: "\n".join(texts[path].lines) + "\n" for path in unparsed}, languages="extended"
        )
        for path in unparsed:
            reparsed = extended.text(path)
            if reparsed is not None and reparsed.grammar is not None and reparsed.lines == texts[path].lines:
                texts[path] = reparsed
    return texts


def _reason(files: int, parsed: int, declarations: int, dropped: Counter[str]) -> str:
    """Why a codebase gives no query, from how far the search for them got."""
    if not files:
        return "the codebase has no file with lines"
    if not parsed:
        return (
            f"none of its {files:,} files is in a language the probe reads declarations from "
            "(TypeScript, JavaScript, or one of extended mode's languages: see docs/languages.md)"
        )
    if not declarations:
        return f"its {parsed:,} parsed files have no declarations"
    if not dropped:
        return (
            f"none of its {declarations:,} declarations has a doc comment "
            "(a comment right above it, or a Python docstring)"
        )
    counts = ", ".join(f"{count:,} {reason}" for reason, count in dropped.most_common())
    return (
        f"none of its {dropped.total():,} doc comments gives a query ({counts}; "
        "dropped_queries(...) lists them with the reason)"
    )


def scan(codebase: engine.Codebase, texts: dict[str, engine.PreparedText] | None = None) -> Scan:
    """The queries of every documented declaration, the doc comments dropped (with the reason), every doc
    comment's lines to mask, and why there is no query (if so).

    Every doc comment is masked, also those that give no query: any of them would otherwise let search
    find a declaration by its comment instead of its code. License headers are not masked: they document
    no declaration.
    """
    rows: dict[tuple[str, int], dict[str, Any]] = {}
    masks: Masks = {}
    texts = declared_texts(codebase) if texts is None else texts
    declarations = 0
    for path, text in texts.items():
        if not text.declarations:
            continue
        for start, end, declaration, _ in text.plan():  # the engine's own clamped ranges
            declarations += 1
            found = doc_comment(text.lines, start, end, text.grammar)
            if found is None or (path, found.comment_start) in rows:
                continue
            if found.license:
                judged = Judged(" ".join(" ".join(found.lines).split())[:200], "license")
            else:
                masks.setdefault(path, {}).update(found.masked)
                judged = judge(found.lines, found.kind, text.grammar)
            rows[path, found.comment_start] = {
                "query": judged.text,
                "path": path,
                "start_line": found.target_start,
                "end_line": found.target_end,
                "name": declaration.name,
                "type": declaration.type,
                "comment_start": found.comment_start,
                "comment_end": found.comment_end,
                "reason": judged.reason,
            }
    # A text that documents several declarations cannot say which one it is about: all are dropped.
    seen = Counter(row["query"] for row in rows.values() if row["reason"] is None)
    for row in rows.values():
        if row["reason"] is None and seen[row["query"]] > 1:
            row["reason"] = "duplicate"
    kept = [row for row in rows.values() if row["reason"] is None]
    dropped = [row for row in rows.values() if row["reason"] is not None]
    counts = Counter(row["reason"] for row in dropped)
    attrs = {"root": str(codebase.root), "languages": codebase.languages}
    frame = _columns.build({name: [row[name] for row in kept] for name in QUERIES}, QUERIES,
                           {**attrs, "source": "doc_comments", "dropped": dict(counts.most_common())})  # fmt: skip
    dropped_frame = _columns.build({name: [row[name] for row in dropped] for name in DROPPED}, DROPPED, attrs)
    parsed = sum(text.grammar is not None for text in texts.values())
    reason = None if kept else _reason(len(texts), parsed, declarations, counts)
    return Scan(frame, dropped_frame, masks, reason)


@checked_keywords
@setting_docs
def probe_queries(
    source: Source = None,
    *,
    paths: Iterable[str | os.PathLike[str]] | None = None,
    progress: ProgressBar = None,
    languages: str | None = None, max_file_size: str | int = MAX_FILE_SIZE, workers: int | None = None,
) -> pd.DataFrame:
    """The queries the probe takes from the code itself: one per documented declaration.

    Every declaration with a doc comment (a `/** JSDoc */` or `/* */` block, a run of `//` lines,
    `#` lines in Python, Ruby and shell, `--` in Lua; a Python docstring, which wins over `#`
    comments) gives a query and a target. Declarations are found in every language extended mode
    knows, whatever `languages` is: in "clanka" mode a Python file is still cut into line
    windows, but its queries come from its declarations all the same. The query is the comment's first
    paragraph, cut at the first tag (`@param`) or docstring section (`Args:`), with markers,
    `{@link X}` braces, HTML tags and backticks removed, whitespace collapsed, then cut after
    its second sentence and at 40 words. The target is the declaration's lines after its leading comments.

    Doc comments that are no description of their code give no query: license headers, lint and tool
    directives (`eslint-disable`, `biome-ignore`, `@ts-expect-error`, `prettier-ignore`, `istanbul ignore`,
    `noqa`, `type: ignore`, `pragma`, ...; the directive lines of a comment that also has prose are left
    out of its text), banners (a row of punctuation, a run such as `////`, text mostly not letters), texts
    with comment markers left in (`// /** ... */`), commented-out code (the text parses without an error
    in the file's own tree-sitter grammar and has a bracket, `;`, `=`, `<>` or a leading keyword, so
    prose that happens to parse is kept), texts under 3 words, and texts that document several
    declarations. `attrs["dropped"]` counts them by reason; `dropped_queries` lists them.

    Columns: query, path, start_line, end_line (the target), name and type (of the declaration),
    comment_start, comment_end (the comment's lines, which the probe masks out of the index).
    `attrs["source"]` is "doc_comments". Pass this frame, filtered or edited, as `Probe(queries=...)`.

    Args:
        source: A folder, one file, an `engine.Codebase`, a chunk frame, or None for the sample codebase.
        paths: Only these files; None: every file.
        progress: None shows a bar only for work over a second, False never, True always.

    Returns:
        One row per query: query, path, start_line, end_line, name, type, comment_start, comment_end.

    Examples:
        >>> queries = cn.probe_queries("my-repo")
        >>> cn.probe("my-repo", cn.Probe(queries=queries[queries.path.str.startswith("src/")]))
    """
    settings = Settings(languages=languages, max_file_size=max_file_size, workers=workers).warned()
    return scan(open_source(source, settings, paths=paths, progress=progress).codebase).queries


@checked_keywords
@setting_docs
def dropped_queries(
    source: Source = None,
    *,
    paths: Iterable[str | os.PathLike[str]] | None = None,
    progress: ProgressBar = None,
    languages: str | None = None, max_file_size: str | int = MAX_FILE_SIZE, workers: int | None = None,
) -> pd.DataFrame:
    """The doc comments `probe_queries` leaves out, one row each, with the reason.

    The columns of `probe_queries` (`query` holds the comment's text as far as it was read) and `reason`,
    one of: license, directive, banner, markers, code, short, duplicate (see `probe_queries`).
    `frame.value_counts("reason")` gives `probe_queries(...).attrs["dropped"]`.

    Args:
        source: A folder, one file, an `engine.Codebase`, a chunk frame, or None for the sample codebase.
        paths: Only these files; None: every file.
        progress: None shows a bar only for work over a second, False never, True always.

    Returns:
        One row per doc comment left out, with the columns of `probe_queries` and `reason`.

    Examples:
        >>> cn.dropped_queries("my-repo").value_counts("reason")
    """
    settings = Settings(languages=languages, max_file_size=max_file_size, workers=workers).warned()
    return scan(open_source(source, settings, paths=paths, progress=progress).codebase).dropped


def check_queries(queries: pd.DataFrame, codebase: engine.Codebase) -> pd.DataFrame:
    """User queries as a frame with the required columns (first) and dtypes, every target inside its file."""
    if not isinstance(queries, pd.DataFrame):
        msg = f"queries must be a DataFrame with columns {', '.join(REQUIRED)}, got {type(queries).__name__}"
        raise TypeError(msg)
    missing = [name for name in REQUIRED if name not in queries.columns]
    if missing:
        msg = (
            f"queries has no {', '.join(missing)} column; it needs query, path, start_line, end_line "
            "(the target lines, 1-based inclusive), e.g. probe_queries(codebase)"
        )
        raise KeyError(msg)
    # The other columns (name, commit, source, ...) are kept for whoever reads the probe's queries.
    frame = queries[[*REQUIRED, *(name for name in queries.columns if name not in REQUIRED)]].reset_index(drop=True)
    if frame[list(REQUIRED)].isna().any(axis=None):
        msg = "queries has missing values in query, path, start_line or end_line; drop those rows first"
        raise ValueError(msg)
    frame = frame.astype({"query": _columns.STRING, "path": _columns.STRING,
                          "start_line": _columns.INT, "end_line": _columns.INT})
    frame["path"] = frame["path"].str.replace("\\", "/", regex=False)
    for row in frame.itertuples(index=False):
        text = codebase.text(row.path)  # raises KeyError naming a path the codebase does not have
        count = 0 if text is None else text.line_count
        if not 1 <= row.start_line <= row.end_line <= max(count, 1):
            msg = (
                f"query {row.query!r} targets lines {row.start_line}-{row.end_line} of {row.path}, "
                f"which has {count} lines; targets need 1 <= start_line <= end_line <= the file's lines"
            )
            raise ValueError(msg)
    return frame


def target_arrays(queries: pd.DataFrame, files: dict[str, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """File index, first and last line of every query's target."""
    file = np.fromiter((files[path] for path in queries["path"]), dtype=np.int64, count=len(queries))
    return file, queries["start_line"].to_numpy(np.int64), queries["end_line"].to_numpy(np.int64)
