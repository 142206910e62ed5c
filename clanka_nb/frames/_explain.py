"""`explain`: one row per chunk of a file with the rule that made it and why it starts and ends there."""

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
