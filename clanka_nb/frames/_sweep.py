"""Parameter sweeps: parse once, chunk at every combination of settings, one row of numbers per setting.

The public `sweep` is `frames.probe.sweep`, which adds the retrieval probe's columns through a `RowScorer`:
the probe stands on frames, so nothing here imports it.
"""

from __future__ import annotations

import itertools
import numbers
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol, TypedDict, get_type_hints

import numpy as np
import pandas as pd

from .. import engine
from .._defaults import DEFAULT_CHUNK_OVERLAP, SWEEP_CHUNK_SIZES
from ..engine._settings import CHUNK_SETTING_NAMES, SETTING_NAMES, SettingsParameters
from ..index._tokens import token_counter as resolve_counter
from . import _columns
from ._gc import paused_cycle_collection
from ._lines import span_positions
from ._progress import ProgressBar, bar
from ._stats import CodebaseStats, ast_files, chunkings_reusing
from ._sweep_tokens import input_token_columns, remembering
from ._tokens import check_limit

Tokenizer = Callable[[str], int]
# What `sweep(tokenizer=...)`'s deprecation (frames' and Dask's) says to pass instead.
TOKEN_COUNTER_INSTEAD = (
    "token_counter= (a callable, a tiktoken encoding or 'cl100k_base'), which counts the tokens of each chunk's "
    "embedding input, what clanka embeds"
)


class GridSettings(TypedDict, total=False):
    """The settings of a sweep: each chunk setting one value or a list of values to try (the grid)."""

    chunk_size: int | Iterable[int]
    chunk_overlap: int | Iterable[int]
    chunk_max_characters: float | Iterable[float | None] | None
    languages: str | None
    max_file_size: str | int


class SweepSettings(GridSettings, total=False):
    """A sweep's settings in one process: also its workers."""

    workers: int | None


# The grid tried when a chunk setting is not given; also the Dask sweep's.
GRID = CHUNK_SETTING_NAMES
SWEEP = SettingsParameters(
    SETTING_NAMES,
    defaults={
        "chunk_size": SWEEP_CHUNK_SIZES, "chunk_overlap": (DEFAULT_CHUNK_OVERLAP,), "chunk_max_characters": (None,)
    },
    annotations={name: get_type_hints(SweepSettings)[name] for name in GRID},
)


def setting_values(name: str, value: object) -> list[Any]:
    """A setting as a list of values to try (a single value is a list of one); also used by dask and churn."""
    values = list(value) if isinstance(value, Iterable) and not isinstance(value, str) else [value]
    if not values:
        msg = f"{name} is empty; give at least one value to try, e.g. {name}=[30]"
        raise ValueError(msg)
    return values


def chunk_grid(values: Mapping[str, object]) -> list[engine.ChunkSettings]:
    """Every combination of the chunk settings' values (each one value or a list), in `itertools.product`
    order, each checked (bad values fail before any parsing); also used by dask and churn."""
    combos = itertools.product(*(setting_values(name, values[name]) for name in GRID))
    return [engine.ChunkSettings.build(*combo) for combo in combos]


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


class RowScorer(Protocol):
    """More columns for each row of a sweep, computed from the same parsed codebase (the retrieval probe's)."""

    integer_columns: frozenset[str]  # the added columns that are counts (the others are ratios)

    def columns(self, settings: engine.ChunkSettings) -> dict[str, Any]: ...

    def attrs(self) -> dict[str, Any]: ...


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


def sweep_table(
    codebase: engine.Codebase,
    settings: list[engine.ChunkSettings],
    *,
    tokenizer: Tokenizer | None,
    counter: Any,
    limit: int | None,
    progress: ProgressBar,
    started: float,
    scorer: RowScorer | None = None,
) -> pd.DataFrame:
    """The sweep of an opened codebase: one row per setting (see `frames.probe.sweep` for the columns).

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
