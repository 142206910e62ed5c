"""The sweep table: parse once, chunk at every combination of settings, one row of numbers per setting (with the
retrieval probe's columns when asked); `clanka_nb.sweeps.sweep` opens the source and calls it, Dask's sweep reuses
its parts."""

from __future__ import annotations

import numbers
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .. import engine
from ..engine.embedding import embedding_text
from ..engine.progress import ProgressBar, bar
from ..engine.token_counts import TokenCounter, check_limit, remembering
from ..engine.token_counts import token_counter as resolve_counter
from ..frames import columns as _columns
from ..frames.cycles import paused_cycle_collection
from ..frames.lines import span_positions
from ..frames.stats import CodebaseStats, ast_files, chunkings_reusing, summary
from ..retrieval import ProbeScorer

Tokenizer = Callable[[str], int]
# What `sweep(tokenizer=...)`'s deprecation (frames' and Dask's) says to pass instead.
TOKEN_COUNTER_INSTEAD = (
    "token_counter= (a callable, a tiktoken encoding or 'cl100k_base'), which counts the tokens of each chunk's "
    "embedding input, what clanka embeds"
)


def checked_tokenizer(tokenizer: Tokenizer) -> Tokenizer:
    """`tokenizer` whose every answer must be a count of tokens (a None or a text would become NA silently)."""

    def count(content: str) -> int:
        tokens = tokenizer(content)
        if isinstance(tokens, bool) or not isinstance(tokens, numbers.Real) or not tokens >= 0:
            msg = (
                f"tokenizer {getattr(tokenizer, '__name__', tokenizer)!r} returned {tokens!r} for a chunk; it must "
                "return the number of tokens as an int, e.g. lambda s: len(enc.encode(s))"
            )
            raise TypeError(msg)
        return tokens

    return count


def _row(
    codebase: engine.Codebase,
    stats: CodebaseStats,
    settings: engine.ChunkSettings,
    tokenizer: Tokenizer | None,
    whole: dict[int, engine.FileChunking],
) -> dict[str, Any]:
    started = time.perf_counter()
    walked = chunkings_reusing(codebase, stats.index, stats.declarations, settings, whole)
    starts, ends = span_positions(stats.index, [chunking.spans for chunking in walked])
    tokens = None
    if tokenizer is not None:
        contents = (
            text.content(s, e)
            for text, chunking in zip(stats.index.texts, walked, strict=True)
            for s, e in chunking.spans
        )
        tokens = np.fromiter(map(checked_tokenizer(tokenizer), contents), dtype=np.float64, count=len(starts))
    row = stats.row(settings, starts, ends, ast_files(walked), tokens)
    row["seconds"] = time.perf_counter() - started
    return row


def check_counters(
    tokenizer: Tokenizer | None, token_counter: object, token_limit: int | None
) -> tuple[Any, int | None]:
    """The token counter (None: characters / 4 or `tokenizer`) and limit of a sweep, checked."""
    if tokenizer is not None and not callable(tokenizer):
        msg = f"tokenizer must be a function str -> int (e.g. lambda s: len(enc.encode(s))), got {tokenizer!r}"
        raise TypeError(msg)
    counter = None if token_counter is None and token_limit is None else resolve_counter(token_counter)
    limit = check_limit(token_limit)
    if counter is not None and tokenizer is not None:
        msg = "pass either tokenizer= (tokens of the chunk's content) or token_counter=, not both"
        raise ValueError(msg)
    return counter, limit


def input_tokens(
    codebase: engine.Codebase, paths: Sequence[str], settings: engine.ChunkSettings, counter: TokenCounter
) -> np.ndarray:
    """The tokens of each chunk's embedding input at one setting, in chunk order (also the Dask sweep's)."""
    texts = [
        embedding_text(c.path, c.start_line, c.name, c.type, c.parent, c.content)
        for path in paths
        for c in codebase.file_chunks(path, settings)
    ]
    return np.asarray(counter.count_many(texts), dtype=np.float64)


def input_token_columns(
    codebase: engine.Codebase, paths: Sequence[str], settings: engine.ChunkSettings, counter: TokenCounter,
    limit: int | None,
) -> dict[str, Any]:
    """tokens_mean, tokens_p95, tokens_total (and over_limit, the share of chunks over `limit`) at one setting."""
    tokens = input_tokens(codebase, paths, settings, counter)
    mean, _, p95 = summary(tokens)
    row: dict[str, Any] = {"tokens_mean": mean, "tokens_p95": p95, "tokens_total": float(tokens.sum())}
    if limit is not None:
        row["over_limit"] = float((tokens > limit).mean()) if len(tokens) else None
    return row


def sweep_table(
    codebase: engine.Codebase,
    settings: list[engine.ChunkSettings],
    *,
    tokenizer: Tokenizer | None,
    counter: Any,
    limit: int | None,
    progress: ProgressBar,
    started: float,
    scorer: ProbeScorer | None = None,
) -> pd.DataFrame:
    """The sweep of an opened codebase: one row per setting (see `clanka_nb.sweeps.sweep` for the columns).

    `started` is the `time.perf_counter()` at which opening the codebase began: `attrs["parse_seconds"]`
    counts from there to the first setting.
    """
    stats = CodebaseStats(codebase)
    parse_seconds = time.perf_counter() - started
    rows = []
    whole: dict[int, engine.FileChunking] = {}
    counting = None if counter is None else remembering(counter)  # inputs shared by settings: counted once
    with bar(progress, len(settings), "sweeping settings", unit="setting") as handle, paused_cycle_collection():
        for setting in settings:
            row = _row(codebase, stats, setting, tokenizer, whole)
            if counting is not None:
                row.update(input_token_columns(codebase, stats.index.paths, setting, counting, limit))
            if scorer is not None:
                scored = time.perf_counter()
                row.update(scorer.columns(setting))
                row["seconds"] += time.perf_counter() - scored
            rows.append(row)
            if handle is not None:
                handle.update(1)
    schema = dict(_columns.SWEEP)
    if limit is not None:
        schema["over_limit"] = _columns.FLOAT
    if rows and scorer is not None:
        extra = [name for name in rows[0] if name not in schema]
        schema.update({name: _columns.INT if name in scorer.integer_columns else _columns.FLOAT for name in extra})
    columns = {name: [row[name] for row in rows] for name in schema}
    attrs = {
        "root": str(codebase.root),
        "languages": codebase.languages,
        "tokens": counter.name if counter is not None else "characters / 4" if tokenizer is None
        else getattr(tokenizer, "__name__", repr(tokenizer)),
        "parse_seconds": parse_seconds,
    }
    if scorer is not None:
        attrs.update(scorer.attrs())
    return _columns.build(columns, schema, attrs)
