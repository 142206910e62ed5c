"""`explain` and `explain_text`: one row per chunk of a file (or of a text) with the rule that made it and why it
starts and ends there."""

from __future__ import annotations

import os
from typing import Unpack

import pandas as pd

from .. import engine
from ..engine.internals import check_file, one_file
from ..engine.settings import Settings, TextKeywords, setting_keywords
from ..engine.source import resolve
from . import columns as _columns
from ._explain_frame import ExplainFrame
from .source import Source

COLUMNS = ["start_line", "end_line", "name", "type", "parent", "rule", "why"]


@setting_keywords
def explain(
    source: Source = None,
    path: str | os.PathLike[str] | None = None,
    *,
    settings: Settings | None = None, **given: Unpack[TextKeywords],
) -> pd.DataFrame:
    """Why each chunk of one file starts and ends where it does: `start_line`, `end_line`, `name`, `type`,
    `parent`, `rule` (declaration, class-head, declaration-piece, character-split or window; see
    docs/explaining-chunks.md) and `why`, a sentence with the numbers. Rows are the file's chunks, in
    the engine's order (the rows of `chunk_file` one for one).

    `source` is a folder (with `path` inside it), the path of one file alone, a `Codebase` or a chunk
    frame (with one of its paths; a frame's settings are the defaults), or None for the sample
    codebase. A file with no chunks gives no rows, and `frame.attrs["reason"]` says why.

    Args:
        source: A folder (with `path`), the path of one file alone, a `Codebase`, a chunk frame, or None for the sample.
        path: The file, relative to the source's root; None when `source` is the file itself.

    Returns:
        One row per chunk of the file, with the rule that cut it and why: a DataFrame (`ExplainFrame`) whose
        views in a notebook and as text show each `why` whole and left-aligned.

    Raises:
        TypeError: `source` is a folder or a Codebase and no `path` is given.

    Examples:
        >>> cn.explain(path="src/chunker.ts", chunk_size=20)[["start_line", "end_line", "rule", "why"]]
    """
    settings = Settings(**given).over(settings)
    if isinstance(source, str | os.PathLike):
        source, path = one_file(source, path, call="explain")
    elif path is None:
        msg = "explain(source) needs the path of one of its files too: explain(source, 'src/app.ts')"
        raise TypeError(msg)
    resolved = resolve(source, settings)
    chunking = resolved.settings.chunk
    if resolved.codebase is not None:
        codebase, rel = resolved.codebase, os.fspath(path)
    else:
        root, rel = resolved.root, os.fspath(path)
        check_file(root, rel)  # missing, a folder or outside the root: an error naming the fix, not 0 rows
        codebase = engine.Codebase(root, paths=[rel], languages=resolved.settings.mode, workers=1)
    return _explained(codebase, rel, chunking)


@setting_keywords
def explain_text(
    content: str,
    path: str = "snippet.ts",
    *,
    settings: Settings | None = None, **given: Unpack[TextKeywords],
) -> pd.DataFrame:
    """`explain` of one text, as if it were the file `path` (its extension picks the parser), beside
    `chunk_text` and `preview_text`: a lesson's snippet in any language, explained without a folder.

    Args:
        content: The text (a str).
        path: The file name it stands for: its extension picks the parser.

    Returns:
        One row per chunk of the text, with the rule that cut it and why (the columns of `explain`).

    Raises:
        TypeError: `content` is not a str (bytes: decode them first).

    Examples:
        >>> cn.explain_text("func Add(a, b int) int { return a + b }", "add.go", languages="extended")
    """
    settings = Settings(**given).over(settings)
    if not isinstance(content, str):
        msg = f"content must be str, got {type(content).__name__}; decode bytes first (e.g. data.decode('utf-8'))"
        raise TypeError(msg)
    codebase = engine.Codebase.from_texts({os.fspath(path): content}, languages=settings.mode)
    return _explained(codebase, os.fspath(path), settings.chunk)


def _explained(codebase: engine.Codebase, rel: str, chunking: engine.ChunkSettings) -> pd.DataFrame:
    """The rows of `explain` for the file `rel` of `codebase`, chunked at `chunking`."""
    text = codebase.text(rel)
    explained = [] if text is None else engine.explain_file(text, chunking)
    rows = [
        (e.chunk.start_line, e.chunk.end_line, e.chunk.name, e.chunk.type, e.chunk.parent, e.rule, e.why)
        for e in explained
    ]
    frame = ExplainFrame(rows, columns=COLUMNS).astype(
        {"start_line": "Int64", "end_line": "Int64", "name": "string", "parent": "string", "why": "string",
         "type": _columns.CHUNKS["type"], "rule": pd.CategoricalDtype(list(engine.RULES))}
    )  # fmt: skip
    report = codebase.report(rel)
    frame.attrs.update(path=report.path, status=str(report.status), reason=report.reason)
    return frame
