"""Parameter sweeps: parse once, chunk at every combination of settings, one row of numbers per setting."""

from __future__ import annotations

import itertools
import numbers
import time
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import pandas as pd

from .. import engine
from ..index._tokens import token_counter as resolve_counter
from . import _columns
from ._gc import paused_cycle_collection
from ._lines import span_positions
from ._progress import Progress, bar
from ._source import Source, open_source
from ._stats import CodebaseStats, ast_files, chunkings_reusing
from ._sweep_tokens import input_token_columns
from ._tokens import check_limit
from .probe import ProbeSet, Searcher, probe_columns, resolve_searcher
from .probe._search import Embed, searcher_for

Tokenizer = Callable[[str], int]


def setting_values(name: str, value: object) -> list[Any]:
    """A setting as a list of values to try (a single value is a list of one); also used by dask and churn."""
    values = list(value) if isinstance(value, Iterable) and not isinstance(value, str) else [value]
    if not values:
        msg = f"{name} is empty; give at least one value to try, e.g. {name}=[30]"
        raise ValueError(msg)
    return values


def _checked(tokenizer: Tokenizer) -> Tokenizer:
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
        tokens = np.fromiter(map(_checked(tokenizer), contents), dtype=np.float64, count=len(starts))
    row = stats.row(settings, starts, ends, ast_files(walked), tokens)
    row["seconds"] = time.perf_counter() - started
    return row


def sweep(
    source: Source,
    *,
    chunk_size: int | Iterable[int] = (10, 20, 30, 40, 60),
    chunk_overlap: int | Iterable[int] = (0,),
    chunk_max_characters: float | Iterable[float | None] | None = (None,),
    tokenizer: Tokenizer | None = None,
    max_file_size: str | int = "1M",
    workers: int | None = None,
    progress: Progress = None,
    languages: str | None = None,
    probe: bool = False,
    searcher: str | Searcher = "bm25",
    k: int | Iterable[int] = (1, 5, 10),
    embed: Embed | None = None,
    token_counter: object = None,
    token_limit: int | None = None,
) -> pd.DataFrame:
    """One row per combination of the settings (in `itertools.product` order), parsing the code once.

    Columns: the requested chunk_size and chunk_overlap, chunk_max_characters (as the engine uses
    it: floored, NA for no limit), effective_size / effective_overlap (after the engine's clamping)
    and `clamped` (True when they differ from the request: such rows are kept, not merged, even
    when two rows end up with the same effective settings); chunks; mean, median and p95 of chunk
    lines and characters; tokens (characters / 4, or `tokenizer(content)` per chunk) as mean, p95
    and total; split_declarations (share of the declarations of AST-chunked files that do not fit
    in one chunk); coverage (share of meaningful lines in some chunk); duplication (lines summed
    over chunks / distinct lines in some chunk: 1.0 means no line is embedded twice); seconds.

    With `probe=True`, also how well search finds documented code at each setting (see
    `clanka_nb.probe`): queries, recall@<k> for each cut-off in `k`, mrr and precision, scored
    with `searcher` over the same parsed codebase (queries are extracted once for all rows).
    Queries come from doc comments in every language extended mode knows, also in "clanka" mode
    (whose line windows are then what is scored). With no query the probe columns are NA, a
    `NoProbeQueriesWarning` says why, and so does `attrs["probe_reason"]`.
    `token_counter=` (a callable, a tiktoken encoding, a `tokenizers.Tokenizer` or "cl100k_base")
    counts the tokens of each chunk's embedding input instead, and `token_limit=` adds `over_limit`,
    the share of chunks over that many tokens.
    `embed=` (an embedder) scores with vector search over an index of each setting instead;
    inputs shared between settings are embedded once, and `attrs["embedded"]` says how many were.
    """
    combos = list(
        itertools.product(
            setting_values("chunk_size", chunk_size),
            setting_values("chunk_overlap", chunk_overlap),
            setting_values("chunk_max_characters", chunk_max_characters),
        )
    )
    settings = [engine.ChunkSettings.build(*combo) for combo in combos]  # bad values fail before parsing
    if tokenizer is not None and not callable(tokenizer):
        msg = f"tokenizer must be a function str -> int (e.g. lambda s: len(enc.encode(s))), got {tokenizer!r}"
        raise TypeError(msg)
    counter = None if token_counter is None and token_limit is None else resolve_counter(token_counter)
    limit = check_limit(token_limit)
    if counter is not None and tokenizer is not None:
        msg = "pass either tokenizer= (tokens of the chunk's content) or token_counter=, not both"
        raise ValueError(msg)
    started = time.perf_counter()
    codebase = open_source(source, max_file_size=max_file_size, workers=workers, languages=languages, progress=progress)
    stats = CodebaseStats(codebase)
    probe_set = ProbeSet(codebase) if probe else None
    if embed is not None and not probe:
        msg = "embed= is the probe's embedder: pass probe=True with it"
        raise ValueError(msg)
    engine_searcher = resolve_searcher(searcher_for(searcher, embed)) if probe else None
    parse_seconds = time.perf_counter() - started
    rows = []
    whole: dict[int, engine.FileChunking] = {}
    with bar(progress, len(settings), "sweeping settings", unit="setting") as handle, paused_cycle_collection():
        for setting in settings:
            row = _row(codebase, stats, setting, tokenizer, whole)
            if counter is not None:
                row.update(input_token_columns(codebase, stats.index.paths, setting, counter, limit))
            if probe_set is not None:
                scored = time.perf_counter()
                row.update(probe_columns(probe_set, setting, engine_searcher, k))
                row["seconds"] += time.perf_counter() - scored
            rows.append(row)
            if handle is not None:
                handle.update(1)
    schema = dict(_columns.SWEEP)
    if limit is not None:
        schema["over_limit"] = _columns.FLOAT
    if rows and probe_set is not None:
        extra = [name for name in rows[0] if name not in schema]
        schema.update({name: _columns.INT if name == "queries" else _columns.FLOAT for name in extra})
    columns = {name: [row[name] for row in rows] for name in schema}
    attrs = {
        "root": str(codebase.root),
        "languages": codebase.languages,
        "tokens": counter.name if counter is not None else "characters / 4" if tokenizer is None
        else getattr(tokenizer, "__name__", repr(tokenizer)),
        "parse_seconds": parse_seconds,
    }
    if probe_set is not None:
        attrs["probe_reason"] = probe_set.reason  # why there are no queries (None when there are)
    if embed is not None:
        attrs.update(embedded=engine_searcher.embedded, indexed=engine_searcher.indexed)  # type: ignore[union-attr]
    return _columns.build(columns, schema, attrs)
