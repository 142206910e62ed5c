"""The probe's queries by default: doc comments, plus commit messages when the codebase is a git clone's top."""

from __future__ import annotations

from typing import NamedTuple

import pandas as pd

from ... import engine
from ...history._git import ChurnError, repository
from ._history import DEFAULT_REVS, HISTORY, history_query_rows
from ._queries import Masks, scan

# The default queries' columns: those of history_queries (comment lines NA for commits, commit NA for
# comments) and which source each came from.
SOURCES = ("doc_comments", "history")
COMBINED = {**HISTORY, "source": pd.StringDtype()}


class Sources(NamedTuple):
    """The default queries, the doc comments to mask, the count each source gave, a note saying so, and why
    there is no query (None when there is one)."""

    queries: pd.DataFrame
    masks: Masks
    counts: dict[str, int]
    note: str
    reason: str | None


def history_skipped(codebase: engine.Codebase) -> str | None:
    """Why the default leaves commit messages out for this codebase (None: it uses them)."""
    try:
        _, prefix = repository(codebase.root)
    except ChurnError as error:
        return str(error).split(";")[0]
    if prefix:
        # A folder inside a bigger clone (the sample inside a clone of clanka-nb): its history is its parent's,
        # so the default stays the same wherever the folder lives. history_queries(folder) reads it when asked.
        return f"{str(codebase.root)!r} is a folder inside a git clone, not its top; pass queries= to use its history"
    return None


def default_queries(codebase: engine.Codebase) -> Sources:
    """Doc-comment queries, and commit-message queries (`history_queries` at its defaults) when the
    codebase's root is the top of a git clone; with a `source` column naming each row's source."""
    found = scan(codebase)
    frames = [found.queries.assign(commit=pd.NA, source="doc_comments")]
    counts = {"doc_comments": len(found.queries)}
    skipped = history_skipped(codebase)
    parts = [f"{len(found.queries):,} from doc comments"]
    if skipped is None:
        history, _ = history_query_rows(codebase, DEFAULT_REVS, progress=False)
        frames.append(history.assign(source="history"))
        counts["history"] = len(history)
        parts.append(f"{len(history):,} from commit messages ({DEFAULT_REVS}, {history.attrs['commits']:,} commits)")
    else:
        parts.append(f"none from commit messages: {skipped}")
    queries = pd.concat([frame for frame in frames if len(frame)] or frames[:1], ignore_index=True)
    queries = queries.astype({name: dtype for name, dtype in COMBINED.items() if name in queries.columns})
    queries.attrs = {"root": str(codebase.root), "languages": codebase.languages, "query_sources": counts}
    note = "queries: " + "; ".join(parts)
    reason = None
    if not len(queries):
        reason = found.reason or "none of its doc comments gives a query"
        reason += "" if skipped is not None else f", and no commit of {DEFAULT_REVS} gives one"
    return Sources(queries, found.masks, counts, note, reason)
