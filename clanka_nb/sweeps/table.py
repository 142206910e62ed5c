"""The sweep table: parse once, chunk at every combination of settings, one row of numbers per setting (with the
retrieval probe's columns when asked, `sweep_rows`), and the table of those rows (`table_of`, the one assembly of
every sweep); `clanka_nb.sweeps.sweep` opens the source and calls both, Dask's sweep merges its own rows and reuses
`table_of` and the token helpers."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .. import engine
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
from ..retrieval.internals import Ahead, ProbeScorer
from ._chunkers import (
    CHUNKER_COLUMNS,
    ENGINE_LABEL,
    ChunkerRun,
    WholeCuts,
    chunker_row,
    engine_chunker_columns,
    uncut_reason,
)
from ._reference import REFERENCE_COLUMN, reference_cut, reference_position, reference_row, reference_settings

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
    return _token_columns(head_tokens(codebase, heads, counter), counter, limit)


def head_tokens(codebase: engine.Codebase, heads: Sequence[Sequence[ChunkHead]], counter: TokenCounter) -> np.ndarray:
    """The tokens of each embedding input of chunks cut by a whole chunker, in order (also the Dask sweep's)."""
    texts = []
    for per_file in heads:
        for head in per_file:
            text = codebase.text(head.path)
            assert text is not None  # only readable files have heads
            content = "\n".join(text.lines[head.start_line - 1 : head.end_line])
            texts.append(embedding_text(head.path, head.start_line, head.name, head.type, head.parent, content))
    return np.asarray(counter.count_many(texts), dtype=np.float64)


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
    codebase: engine.Codebase, stats: CodebaseStats, label: str, run: ChunkerRun, counting: TokenCounter | None,
    limit: int | None, scorer: ProbeScorer | None,
) -> dict[str, Any]:
    """One whole chunker's row: its cut of every file (`run`, `whole_cuts`), sized and, when probed, scored through
    the same probe set as the engine's rows (only the cutting differs). `seconds` is the chunker's own time."""
    row = chunker_row(stats, run)
    if counting is not None:
        _counted(row, head_token_columns(codebase, run.heads, counting, limit))
    if scorer is not None:
        # A language the chunker cut nothing of, where queries' targets are: its row there is clanka's own cut.
        held = {engine.language_of(str(path)) for path in scorer.probe_set.queries["path"]}
        left = [language for language in row["uncut_languages"].split(",") if language in held]
        row.update(scorer.columns_of(run.heads, {"chunker": label}, uncut_reason(label, left) if left else None))
        row["ranked"] = not left
    return row


@checked_keywords
def sweep_rows(
    codebase: engine.Codebase,
    settings: list[engine.ChunkSettings],
    *,
    counter: TokenCounter | None,
    limit: int | None,
    progress: ProgressBar,
    scorer: ProbeScorer | None = None,
    cuts: WholeCuts | None = None,
) -> list[dict[str, Any]]:
    """The rows of an opened codebase's sweep: one per setting (see `clanka_nb.sweeps.sweep` for the columns), then
    one per chunker of `cuts` (`whole_cuts`: each chunker's cut, by label) with the chunker columns; when probed, a
    sampled verdict that separates is confirmed on the whole codebase and those rows take its values.
    `table_of` makes them the table.

    Args:
        codebase: The opened codebase.
        settings: The chunk settings, one row each.
        counter: The token counter; None: the chars/4 estimate.
        limit: Adds `over_limit` for chunks over that many tokens; None: no column.
        progress: None shows a bar only for work over a second, False never, True always.
        scorer: The probe's scorer; None: no probe columns.
        cuts: The whole chunkers' cuts (and clanka's own setting's, when it is scored apart); None: none.

    Returns:
        The rows, the settings' first.
    """
    stats = CodebaseStats(codebase)
    rows = []
    whole: dict[int, engine.FileChunking] = {}
    counting = None if counter is None else remembering(counter)  # inputs shared by settings: counted once
    peers = {} if cuts is None else cuts.peers
    # Probed, clanka's own setting is a row (`_reference`): one of the grid's in clanka's mode (the caller added it
    # when the grid lacked it), else cut apart in clanka's mode after the grid's rows.
    referenced = scorer is not None and scorer.probe.reference
    position = reference_position(settings, codebase.languages) if referenced else None
    apart = referenced and position is None
    with bar(progress, len(settings) + len(peers) + apart, "sweeping settings", unit="setting") as handle, \
            paused_cycle_collection():  # fmt: skip
        for setting in settings:
            rows.append(_setting_row(codebase, stats, setting, whole, counting, limit, scorer, peers=bool(peers)))
            if handle is not None:
                handle.update(1)
        if apart and scorer is not None:
            position = len(rows)
            cut = cuts.reference if cuts is not None else None
            if cut is None:  # not cut ahead by the caller (`whole_cuts`): cut here
                cut = reference_cut(codebase, stats.index.paths)
            rows.append(_apart_row(codebase, stats, scorer, cut, counting, limit, peers=bool(peers)))
            if handle is not None:
                handle.update(1)
        for label, run in peers.items():
            rows.append(_chunker_row(codebase, stats, label, run, counting, limit, scorer))
            if handle is not None:
                handle.update(1)
        if scorer is not None:
            # A sampled verdict that separates is confirmed on the whole codebase, BM25's screen by the model
            # (`Probe(confirm=)`) on the rows it leaves open: those rows take its values.
            for number, values in scorer.confirm(position if referenced else None, progress).items():
                rows[number].update(values)
    if referenced:
        for number, row in enumerate(rows):
            row[REFERENCE_COLUMN] = number == position
    return rows


def _setting_row(
    codebase: engine.Codebase, stats: CodebaseStats, setting: engine.ChunkSettings,
    whole: dict[int, engine.FileChunking], counting: TokenCounter | None, limit: int | None,
    scorer: ProbeScorer | None, *, peers: bool,
) -> dict[str, Any]:
    """One setting's row: its statistics, token columns when counted, the probe's columns when probed (timed into
    its seconds) and, beside whole chunkers, the engine's chunker columns."""
    row = _row(codebase, stats, setting, whole)
    if counting is not None:
        _counted(row, input_token_columns(codebase, stats.index.paths, setting, counting, limit))
    if scorer is not None:
        scored = time.perf_counter()
        named = None if not peers else {"chunker": ENGINE_LABEL, **setting.columns()}
        row.update(scorer.columns(setting, named))
        row["seconds"] += time.perf_counter() - scored
    if peers:
        row.update(engine_chunker_columns(setting))
        if scorer is not None:
            row["ranked"] = True  # the engine's rows are always ranked; a chunker's may not be (`_chunker_row`)
    return row


def _apart_row(
    codebase: engine.Codebase, stats: CodebaseStats, scorer: ProbeScorer, run: ChunkerRun,
    counting: TokenCounter | None, limit: int | None, *, peers: bool,
) -> dict[str, Any]:
    """clanka's setting in clanka's own mode, for a sweep in another (`_reference.reference_row`), with the token
    counter's columns and, beside whole chunkers, the engine's chunker columns."""
    row, heads = reference_row(codebase, stats, scorer, run)
    if counting is not None:
        _counted(row, head_token_columns(codebase, heads, counting, limit))
    if peers:
        row.update(engine_chunker_columns(reference_settings()), ranked=True)
    return row


def column_type(name: str) -> pd.api.extensions.ExtensionDtype:
    """The dtype of a sweep column outside the sweep's own schema (the probe's, `truncated`): one rule for every
    sweep, local or on Dask: whole numbers for the probe's counts, text for its labels, floats for the rest."""
    if name in ProbeScorer.integer_columns:
        return _columns.INT
    return _columns.STRING if name in ProbeScorer.string_columns else _columns.FLOAT


@checked_keywords
def table_of(
    rows: Sequence[Mapping[str, Any]],
    *,
    counter: TokenCounter | None,
    limit: int | None,
    attrs: Mapping[str, Any],
    ahead: Ahead | None = None,
    chunkers: bool = False,
) -> pd.DataFrame:
    """A sweep's table from its rows: the one assembly of `cn.sweep` and Dask's sweep.

    The columns: the chunker columns first when chunkers were compared, then the sweep's own (`tokens_*` when
    counted, `est_tokens_*` for the chars/4 estimate), `over_limit` with a limit, `truncated` when embedding
    ahead measured it, then every other column a row has, in the order they first appear, typed by
    `column_type`. A row without a column (a chunker's, which has no engine settings) is NA there.

    Args:
        rows: The sweep's rows, one dict each (`sweep_rows`, or Dask's merged partials).
        counter: The token counter; None: the chars/4 estimate (`attrs["token_counter"]` names it).
        limit: The token limit of `over_limit`; None: no such column.
        attrs: The sweep's own attrs: what was swept (root or roots, languages), its times, the probe's verdict.
        ahead: What embedding the inputs ahead of the rows did: its attrs, and the `truncated` of each setting's
            row (the first rows, in order); None: nothing embedded ahead.
        chunkers: Whether whole chunkers were compared (the chunker columns lead).

    Returns:
        The sweep's table.
    """
    schema = dict(CHUNKER_COLUMNS) if chunkers else {}
    if chunkers and any(row.get("ranked") is not None for row in rows):
        schema["ranked"] = _columns.BOOL  # probed: False for a row left out of the verdict (`attrs["unranked"]`)
    schema.update(_columns.sweep_schema(estimated=counter is None or counter.estimated))
    if limit is not None:
        schema["over_limit"] = _columns.FLOAT
    if any(REFERENCE_COLUMN in row for row in rows):
        schema[REFERENCE_COLUMN] = _columns.BOOL  # probed: True on clanka's own setting's row
    columns = {}
    if ahead is not None and ahead.truncated is not None:
        schema["truncated"] = _columns.FLOAT  # measured for the settings' rows: a chunker's row has none
        columns["truncated"] = [*ahead.truncated, *[None] * (len(rows) - len(ahead.truncated))]
    extra = dict.fromkeys(name for row in rows for name in row if name not in schema)
    schema.update({name: column_type(name) for name in extra})
    columns.update({name: [row.get(name) for row in rows] for name in schema if name not in columns})
    described = {"token_counter": token_counter_name(counter), **attrs, **(ahead.attrs if ahead is not None else {})}
    return _columns.build(columns, schema, _confirmation_counted(described))


def _confirmation_counted(described: dict[str, Any]) -> dict[str, Any]:
    """The attrs with a sampled sweep's confirmation among its distinct inputs: embedding ahead counted the
    sample's, and confirming on the whole codebase embeds inputs the sample never held (`confirmation_embedded`,
    each new to the vector cache), which `embedded` counts too; so "embedded" never exceeds "inputs_distinct"."""
    confirming = described.get("confirmation_embedded")
    if confirming and isinstance(described.get("inputs_distinct"), int):
        described["inputs_distinct"] += int(confirming)
    return described
