"""`explain`: one row per chunk of a file with the rule that made it and why it starts and ends there."""

from __future__ import annotations

import os

import pandas as pd

from .. import engine
from .._sample import sample_codebase
from ..engine._api import one_file
from . import _columns

COLUMNS = ["start_line", "end_line", "name", "type", "parent", "rule", "why"]


def explain(
    source: str | os.PathLike[str] | engine.Codebase | None,
    path: str | os.PathLike[str] | None = None,
    *,
    chunk_size: int = 30,
    chunk_overlap: int = 0,
    chunk_max_characters: float | None = None,
    languages: str | None = None,
) -> pd.DataFrame:
    """Why each chunk of one file starts and ends where it does: `start_line`, `end_line`, `name`, `type`,
    `parent`, `rule` (declaration, class-head, declaration-piece, character-split or window; see
    docs/explaining-chunks.md) and `why`, a sentence with the numbers. Rows are the file's chunks, in
    the engine's order (the rows of `chunk_file` one for one).

    `source` is a folder (with `path` inside it), the path of one file alone, a `Codebase` (with one
    of its paths), or None for the sample codebase. A file with no chunks gives no rows, and
    `frame.attrs["reason"]` says why.
    """
    settings = engine.ChunkSettings.build(chunk_size, chunk_overlap, chunk_max_characters)
    if source is None:
        source = sample_codebase()
    if isinstance(source, engine.Codebase):
        if path is None:
            msg = "explain(codebase) needs the path of one of its files too: explain(codebase, 'src/app.ts')"
            raise TypeError(msg)
        if languages is not None and languages != source.languages:
            msg = f"the codebase was parsed with languages={source.languages!r}; pass that, or a folder"
            raise ValueError(msg)
        codebase, rel = source, os.fspath(path)
    else:
        root, rel = one_file(source, path)
        if not os.path.isfile(os.path.join(root, rel)):
            msg = f"there is no file {os.fspath(rel)!r} under {os.fspath(root)!r}; give a path inside that folder"
            raise FileNotFoundError(msg)
        codebase = engine.Codebase(root, paths=[rel], languages=languages or "clanka", workers=1)
    text = codebase.text(rel)
    explained = [] if text is None else engine.explain_file(text, settings)
    rows = [
        (e.chunk.start_line, e.chunk.end_line, e.chunk.name, e.chunk.type, e.chunk.parent, e.rule, e.why)
        for e in explained
    ]
    frame = pd.DataFrame(rows, columns=COLUMNS).astype(
        {"start_line": "Int64", "end_line": "Int64", "name": "string", "parent": "string", "why": "string",
         "type": _columns.CHUNKS["type"], "rule": pd.CategoricalDtype(list(engine.RULES))}
    )  # fmt: skip
    report = codebase.report(rel)
    frame.attrs.update(path=report.path, status=str(report.status), reason=report.reason)
    return frame
