"""The sweep table: parse once, chunk at every combination of settings, one row of numbers per setting (with the
retrieval probe's columns when asked); `clanka_nb.sweeps.sweep` opens the source and calls it, Dask's sweep reuses
its parts."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .. import engine
from ..chunkers import Chunker, read_source
from ..defaults import CHUNK_SETTING_NAMES
from ..engine.embedding import embedding_text
from ..engine.internals import ChunkHead
from ..engine.progress import ProgressBar, bar
from ..engine.settings import checked_keywords
from ..engine.token_counts import ESTIMATE, TokenCounter, check_limit, remembering
from ..engine.token_counts import token_counter as resolve_counter
from ..frames import columns as _columns
from ..frames.cycles import paused_cycle_collection
from ..frames.lines import span_positions
from ..frames.stats import CodebaseStats, ast_files, chunkings_reusing, token_stats
from ..retrieval.internals import ProbeScorer
from ._answer import answer_attrs
from ._chunkers import CHUNKER_COLUMNS, ENGINE_LABEL, chunker_row, engine_chunker_columns, run_chunker
from ._reference import (
    REFERENCE_COLUMN,
    is_reference,
    reference_position,
    reference_row,
    reference_settings,
    with_reference,
)

# What a sweep that leaves chunk_max_characters at no limit says: clanka's index never chunks so.
_LIMIT = CHUNK_SETTING_NAMES[-1]
NO_LIMIT_NOTE = (f"{_LIMIT} was left at no limit, but clanka indexes with 10,000 (SemanticSearch's chunkMaxCharacters "
                 f"default), the one chunk setting SemanticSearch.layer() takes: sweep it too, e.g. {_LIMIT}=[None, "
                 "2000, 10000] (--max-chars none,2000,10000)")


def _row(
    codebase: engine.Codebase,
    stats: CodebaseStats,
    settings: engine.ChunkSettings,
    whole: dict[int, engine.FileChunking],
) -> dict[str, Any]:
    started = time.perf_counter()
    walked = chunkings_reusing(codebase, stats.index, stats.declarations, settings, whole)
    starts, ends = span_positions(stats.index, [chunking.spans for chunking in walked])
    row = stats.row(settings, starts, ends, ast_files(walked))
    row["seconds"] = time.perf_counter() - started
    return row


def check_counters(token_counter: object, token_limit: int | None) -> tuple[TokenCounter | None, int | None]:
    """The token counter (None: the chars/4 estimate of each chunk's content) and limit of a sweep, checked."""
    counter = None if token_counter is None and token_limit is None else resolve_counter(token_counter)
    return counter, check_limit(token_limit)


def token_counter_name(counter: TokenCounter | None) -> str:
    """What counted a sweep's tokens, for `attrs["token_counter"]` (as chunk frames name it)."""
    return (counter or ESTIMATE).name


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


def head_token_columns(
    codebase: engine.Codebase, heads: Sequence[Sequence[ChunkHead]], counter: TokenCounter, limit: int | None,
) -> dict[str, Any]:
    """`input_token_columns` of chunks cut by a whole chunker: each head's embedding input built as the engine
    builds its own (path header and lines), so that only the cutting differs."""
    texts = []
    for per_file in heads:
        for head in per_file:
            text = codebase.text(head.path)
            assert text is not None  # only readable files have heads
            content = "\n".join(text.lines[head.start_line - 1 : head.end_line])
            texts.append(embedding_text(head.path, head.start_line, head.name, head.type, head.parent, content))
    return _token_columns(np.asarray(counter.count_many(texts), dtype=np.float64), counter, limit)


def _token_columns(tokens: np.ndarray, counter: TokenCounter, limit: int | None) -> dict[str, Any]:
    row = token_stats(tokens, estimated=counter.estimated)
    if limit is not None:
        row["over_limit"] = float((tokens > limit).mean()) if len(tokens) else None
    return row


def input_token_columns(
    codebase: engine.Codebase, paths: Sequence[str], settings: engine.ChunkSettings, counter: TokenCounter,
    limit: int | None,
) -> dict[str, Any]:
    """tokens_mean, tokens_p95, tokens_total (est_tokens_* when `counter` is the chars/4 estimate, as a limit alone
    gives) and over_limit, the share of chunks over `limit`, at one setting."""
    return _token_columns(input_tokens(codebase, paths, settings, counter), counter, limit)


def _counted(row: dict[str, Any], columns: dict[str, Any]) -> None:
    """The counter's statistics in place of the chars/4 estimate of the content: one set per row."""
    for stat in _columns.TOKEN_STATS:
        del row[_columns.token_stat(stat, estimated=True)]
    row.update(columns)


def _chunker_row(
    codebase: engine.Codebase, stats: CodebaseStats, label: str, chunker: Chunker, counting: TokenCounter | None,
    limit: int | None, scorer: ProbeScorer | None, texts: Mapping[str, str],
) -> dict[str, Any]:
    """One whole chunker's row: its cut of every file (`run_chunker`, on `texts`, the files read once for all the
    chunkers), sized and, when probed, scored through the same probe set as the engine's rows (only the cutting
    differs). `seconds` is the chunker's own time."""
    run = run_chunker(codebase, stats.index.paths, chunker, engine.ChunkSettings.build(warn=False), texts)
    row = chunker_row(stats, run)
    if counting is not None:
        _counted(row, head_token_columns(codebase, run.heads, counting, limit))
    if scorer is not None:
        row.update(scorer.columns_of(run.heads, {"chunker": label}))
    return row


@checked_keywords
def sweep_table(
    codebase: engine.Codebase,
    settings: list[engine.ChunkSettings],
    *,
    counter: TokenCounter | None,
    limit: int | None,
    progress: ProgressBar,
    parse_seconds: float,
    queries_seconds: float | None = None,
    scorer: ProbeScorer | None = None,
    chunkers: Mapping[str, Chunker] | None = None,
    reference: bool = True,
) -> pd.DataFrame:
    """The sweep of an opened codebase: one row per setting (see `clanka_nb.sweeps.sweep` for the columns), then
    one per chunker of `chunkers` (label -> chunker, checked: `check_chunkers`) with the chunker columns.
    Probed (and with `reference`), clanka's own setting is a row too (`_reference`: after the grid's when the grid
    lacks it), marked in the boolean column `reference`, and `attrs["clanka_answer"]` (first in the attrs) says
    whether to keep it (`_answer`).

    `parse_seconds` (opening and parsing the codebase) and `queries_seconds` (the probe's queries and masks, a
    git history read included; None: not probed) are timed by the caller and kept in the attrs as they are.

    Args:
        codebase: The opened codebase.
        settings: The chunk settings, one row each.
        counter: The token counter; None: the chars/4 estimate.
        limit: Adds `over_limit` for chunks over that many tokens; None: no column.
        progress: None shows a bar only for work over a second, False never, True always.
        parse_seconds: Seconds opening and parsing the codebase took.
        queries_seconds: Seconds the probe's queries and masks took; None: not probed.
        scorer: The probe's scorer; None: no probe columns.
        chunkers: Whole chunkers to compare, by label; None: none.
        reference: With a scorer, score clanka's own setting as a marked row and answer about it.

    Returns:
        The sweep's table.
    """
    stats = CodebaseStats(codebase)
    rows = []
    whole: dict[int, engine.FileChunking] = {}
    counting = None if counter is None else remembering(counter)  # inputs shared by settings: counted once
    peers = dict(chunkers or {})
    referenced = reference and scorer is not None
    if referenced:
        settings = with_reference(settings, codebase.languages)
    position = reference_position(settings, codebase.languages) if referenced else None
    apart = referenced and position is None  # clanka's mode is not the sweep's: its row is cut apart
    with bar(progress, len(settings) + len(peers) + apart, "sweeping settings", unit="setting") as handle, \
            paused_cycle_collection():  # fmt: skip
        truncated = scorer.ahead.pop("truncated", None) if scorer is not None else None
        for number, setting in enumerate(settings):
            row = _row(codebase, stats, setting, whole)
            if truncated is not None and number < len(truncated):
                row["truncated"] = truncated[number]  # the share of its inputs the model cuts (`embed_ahead`)
            if counting is not None:
                _counted(row, input_token_columns(codebase, stats.index.paths, setting, counting, limit))
            if scorer is not None:
                scored = time.perf_counter()
                named = None if not peers else {"chunker": ENGINE_LABEL, **setting.columns()}
                row.update(scorer.columns(setting, named))
                row["seconds"] += time.perf_counter() - scored
            if peers:
                row.update(engine_chunker_columns(setting))
            rows.append(row)
            if handle is not None:
                handle.update(1)
        texts = read_source(codebase).texts if peers or apart else {}  # every chunker gets the same texts, read once
        if apart and scorer is not None:
            position = len(rows)
            rows.append(_apart_row(codebase, stats, scorer, texts, counting, limit, peers=bool(peers)))
            if handle is not None:
                handle.update(1)
        for label, chunker in peers.items():
            rows.append(_chunker_row(codebase, stats, label, chunker, counting, limit, scorer, texts))
            if handle is not None:
                handle.update(1)
        if scorer is not None:
            # A sampled verdict that separates is confirmed on the whole codebase: those rows take its values.
            for number, values in scorer.confirm().items():
                rows[number].update(values)
    schema = dict(CHUNKER_COLUMNS) if peers else {}
    schema.update(_columns.sweep_schema(estimated=counter is None or counter.estimated))
    if limit is not None:
        schema["over_limit"] = _columns.FLOAT
    if referenced:
        schema[REFERENCE_COLUMN] = _columns.BOOL
        for number, row in enumerate(rows):
            row[REFERENCE_COLUMN] = number == position
    if rows and scorer is not None:
        extra = [name for name in rows[0] if name not in schema]
        schema.update({name: _columns.INT if name in scorer.integer_columns else _columns.STRING
                       if name in scorer.string_columns else _columns.FLOAT for name in extra})  # fmt: skip
    columns = {name: [row.get(name) for row in rows] for name in schema}  # a chunker row has no engine settings
    attrs = {
        "root": str(codebase.root),
        "languages": codebase.languages,
        "token_counter": token_counter_name(counter),
        "parse_seconds": parse_seconds,
    }
    if queries_seconds is not None:
        attrs["queries_seconds"] = queries_seconds
    grid = [setting for setting in settings if not is_reference(setting, codebase.languages)]  # as the user gave it
    if grid and all(setting.effective_max_characters is None for setting in grid):
        attrs["max_characters_note"] = NO_LIMIT_NOTE
    if scorer is not None:
        attrs.update(scorer.attrs())
    table = _columns.build(columns, schema, attrs)
    if referenced and scorer is not None:
        table.attrs = answer_attrs(table, scorer.probe)  # the answer first: what a clanka user reads
    return table


def _apart_row(
    codebase: engine.Codebase, stats: CodebaseStats, scorer: ProbeScorer, texts: Mapping[str, str],
    counting: TokenCounter | None, limit: int | None, *, peers: bool,
) -> dict[str, Any]:
    """clanka's setting in clanka's own mode, for a sweep in another (`_reference.reference_row`), with the token
    counter's columns and, beside whole chunkers, the engine's chunker columns."""
    row, heads = reference_row(codebase, stats, scorer, texts)
    if counting is not None:
        _counted(row, head_token_columns(codebase, heads, counting, limit))
    if peers:
        row.update(engine_chunker_columns(reference_settings()))
    return row
