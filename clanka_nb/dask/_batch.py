"""Parsing one batch on a worker so that a file the engine fails on becomes a status row, not a lost partition."""

from __future__ import annotations

from typing import NamedTuple

import pandas as pd

from .. import engine
from ._plan import Batch

# What a bug in the engine (or a pathological file) raises while preparing one file. Anything else
# (MemoryError, KeyboardInterrupt, a killed worker) fails the task, so Dask retries it elsewhere.
FILE_ERRORS = (RecursionError, ValueError, TypeError, IndexError, KeyError, AttributeError, OSError)


class Parsed(NamedTuple):
    codebase: engine.Codebase
    failed: dict[str, str]  # path -> what went wrong, for files the engine could not prepare


def _codebase(batch: Batch, paths: tuple[str, ...] | list[str]) -> engine.Codebase:
    return engine.Codebase(batch.root, paths=paths, workers=1, languages=batch.languages)


def parse(batch: Batch) -> Parsed:
    """The batch's Codebase; when a file breaks it, the others parsed without it and the culprit named."""
    try:
        return Parsed(_codebase(batch, batch.paths), {})
    except FILE_ERRORS:
        pass  # found below, file by file (only on this rare path is anything parsed twice)
    good, failed = [], {}
    for path in batch.paths:
        try:
            _codebase(batch, [path])
        except FILE_ERRORS as exc:
            failed[path] = f"the engine failed on this file ({type(exc).__name__}: {exc})"
        else:
            good.append(path)
    return Parsed(_codebase(batch, good), failed)


def with_failed(frame: pd.DataFrame, batch: Batch, failed: dict[str, str]) -> pd.DataFrame:
    """A files frame with one `unreadable` row per failed file, all rows back in the batch's order."""
    if not failed:
        return frame
    status = engine.FileStatus.UNREADABLE.value
    rows = pd.DataFrame({"path": list(failed), "status": status, "reason": list(failed.values())})
    rows = rows.reindex(columns=frame.columns).astype(frame.dtypes.to_dict())
    rows["language"] = pd.array([engine.language_of(path) for path in failed], dtype=frame["language"].dtype)
    both = pd.concat([frame, rows], ignore_index=True)
    order = {path: i for i, path in enumerate(batch.paths)}
    both = both.iloc[sorted(range(len(both)), key=lambda i: order[both["path"].iat[i]])].reset_index(drop=True)
    both.attrs = dict(frame.attrs)
    return both
