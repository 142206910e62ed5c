"""Parameter sweeps: parse once, chunk at every combination of settings, one row of numbers per setting."""

from __future__ import annotations

import itertools
import numbers
import time
import warnings
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypedDict, Unpack, get_type_hints

import numpy as np
import pandas as pd

from .. import engine
from .._chunk_frames import frame_settings
from .._defaults import DEFAULT_CHUNK_OVERLAP, SWEEP_CHUNK_SIZES
from ..engine._settings import CHUNK_SETTING_NAMES, SETTING_NAMES, Settings, SettingsParameters
from ..index._tokens import token_counter as resolve_counter
from . import _columns
from ._gc import paused_cycle_collection
from ._lines import span_positions
from ._progress import ProgressBar, bar
from ._source import Source, open_source
from ._stats import CodebaseStats, Spans, spans_reusing
from ._sweep_tokens import input_token_columns
from ._tokens import check_limit
from .probe import ProbeSet, Searcher, probe_columns, resolve_searcher
from .probe._search import Embed, searcher_for

Tokenizer = Callable[[str], int]


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
    whole: dict[int, Spans],
) -> dict[str, Any]:
    started = time.perf_counter()
    walked = spans_reusing(codebase, stats.index, stats.declarations, settings, whole)
    starts, ends = span_positions(stats.index, [spans for spans, _ in walked])
    tokens = None
    if tokenizer is not None:
        contents = (
            text.content(s, e)
            for text, (spans, _) in zip(stats.index.texts, walked, strict=True)
            for s, e in spans
        )
        tokens = np.fromiter(map(_checked(tokenizer), contents), dtype=np.float64, count=len(starts))
    ast_files = np.array([chunker == "ast" for _, chunker in walked], dtype=bool)
    row = stats.row(settings, starts, ends, ast_files, tokens)
    row["seconds"] = time.perf_counter() - started
    return row


@SWEEP
def sweep(
    source: Source = None,
    *,
    token_counter: object = None,
    token_limit: int | None = None,
    probe: bool = False,
    searcher: str | Searcher = "bm25",
    k: int | Iterable[int] = (1, 5, 10),
    embed: Embed | None = None,
    progress: ProgressBar = None,
    tokenizer: Tokenizer | None = None,
    **settings: Unpack[SweepSettings],
) -> pd.DataFrame:
    """One row per combination of the settings (in `itertools.product` order), parsing the code once.

    Columns: the requested chunk_size and chunk_overlap, chunk_max_characters (as the engine uses
    it: floored, NA for no limit), effective_size / effective_overlap (after the engine's clamping)
    and `clamped` (True when they differ from the request: such rows are kept, not merged, even
    when two rows end up with the same effective settings); chunks; mean, median and p95 of chunk
    lines and characters; tokens (characters / 4, or with `token_counter=` the tokens of each chunk's
    embedding input) as mean, p95 and total; split_declarations (share of the declarations of
    AST-chunked files that do not fit in one chunk); coverage (share of meaningful lines in some
    chunk); duplication (lines summed over chunks / distinct lines in some chunk: 1.0 means no line
    is embedded twice); seconds.

    With `probe=True`, also how well search finds documented code at each setting (see
    `clanka_nb.probe`): queries, recall@<k> for each cut-off in `k`, mrr and precision, scored
    with `searcher` over the same parsed codebase (queries are extracted once for all rows).
    Queries come from doc comments in every language extended mode knows, also in "clanka" mode
    (whose line windows are then what is scored). With no query the probe columns are NA, a
    `NoProbeQueriesWarning` says why, and so does `attrs["probe_reason"]`.
    `token_counter=` (a callable, a tiktoken encoding, a `tokenizers.Tokenizer` or "cl100k_base")
    counts the tokens of each chunk's embedding input, and `token_limit=` adds `over_limit`, the
    share of chunks over that many tokens. (`tokenizer=`, a count of each chunk's content alone, is
    deprecated: pass `token_counter=`.)
    A chunk frame as the source gives its own chunk settings where none is passed (one row).
    `embed=` (an embedder) scores with vector search over an index of each setting instead;
    inputs shared between settings are embedded once, and `attrs["embedded"]` says how many were.
    """
    values = SWEEP.values(settings)
    if isinstance(source, pd.DataFrame):  # a frame's own chunk settings are the grid where none is given
        values.update({name: value for name, value in frame_settings(source).items()
                       if name in GRID and name not in settings})
    chunk_settings = chunk_grid(values)
    opening = Settings.read({name: value for name, value in settings.items() if name not in GRID})
    if tokenizer is not None:
        warnings.warn(
            "sweep(tokenizer=...) is deprecated: pass token_counter= (a callable, a tiktoken encoding or "
            "'cl100k_base'), which counts the tokens of each chunk's embedding input, what clanka embeds",
            DeprecationWarning, stacklevel=2,
        )  # fmt: skip
        if not callable(tokenizer):
            msg = f"tokenizer must be a function str -> int (e.g. lambda s: len(enc.encode(s))), got {tokenizer!r}"
            raise TypeError(msg)
    counter = None if token_counter is None and token_limit is None else resolve_counter(token_counter)
    limit = check_limit(token_limit)
    if counter is not None and tokenizer is not None:
        msg = "pass either tokenizer= (tokens of the chunk's content) or token_counter=, not both"
        raise ValueError(msg)
    started = time.perf_counter()
    codebase = open_source(source, opening, progress=progress).codebase
    stats = CodebaseStats(codebase)
    probe_set = ProbeSet(codebase) if probe else None
    if embed is not None and not probe:
        msg = "embed= is the probe's embedder: pass probe=True with it"
        raise ValueError(msg)
    engine_searcher = resolve_searcher(searcher_for(searcher, embed)) if probe else None
    parse_seconds = time.perf_counter() - started
    rows = []
    whole: dict[int, Spans] = {}
    with bar(progress, len(chunk_settings), "sweeping settings", unit="setting") as handle, paused_cycle_collection():
        for setting in chunk_settings:
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
