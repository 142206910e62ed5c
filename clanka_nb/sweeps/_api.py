"""`sweep`: open a source once and give its sweep table, with the retrieval probe's columns when asked."""

from __future__ import annotations

import time
from collections.abc import Iterable

import pandas as pd

from ..defaults import CHUNK_OVERLAP, MAX_FILE_SIZE, NO_LIMIT, SWEEP_CHUNK_SIZES
from ..engine.progress import ProgressBar
from ..engine.settings import Grid, Settings
from ..engine.source import open_resolved, resolve
from ..frames.source import Source
from ..retrieval import Embed, Searcher
from ..retrieval.internals import (
    ProbeScorer,
    check_sample,
    check_time_budget,
    embed_ahead,
    resolve_searcher,
    searcher_for,
)
from .table import check_counters, sweep_table


def sweep(
    source: Source = None,
    *,
    token_counter: object = None,
    token_limit: int | None = None,
    probe: bool = False,
    queries: pd.DataFrame | None = None,
    searcher: str | Searcher = "bm25",
    k: int | Iterable[int] = (1, 5, 10),
    embed: Embed | None = None,
    sample: float | None = None,
    time_budget: float | None = None,
    progress: ProgressBar = None,
    chunk_size: int | Iterable[int] = SWEEP_CHUNK_SIZES, chunk_overlap: int | Iterable[int] = CHUNK_OVERLAP,
    chunk_max_characters: float | Iterable[float | None] | None = NO_LIMIT,
    languages: str | None = None, max_file_size: str | int = MAX_FILE_SIZE, workers: int | None = None,
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
    `clanka_nb.retrieval.probe`): queries, recall@<k> for each cut-off in `k`, mrr and precision, scored
    with `searcher` over the same parsed codebase (queries are extracted once for all rows).
    Queries come from doc comments in every language extended mode knows, also in "clanka" mode
    (whose line windows are then what is scored), and, when the source's root is the top of a git
    clone, from its commit messages (`history_queries`); `attrs["query_sources"]` counts the queries
    of each source and `attrs["probe_note"]` says it in words. Or pass `queries=`, a frame with
    query, path, start_line, end_line (`probe_queries`, `history_queries`, both concatenated, or
    your own). With no query the probe columns are NA, a `NoProbeQueriesWarning` says why, and so
    does `attrs["probe_reason"]`.
    `token_counter=` (a callable, a tiktoken encoding, a `tokenizers.Tokenizer` or "cl100k_base")
    counts the tokens of each chunk's embedding input, and `token_limit=` adds `over_limit`, the
    share of chunks over that many tokens.
    A chunk frame as the source gives its own chunk settings where none is passed (one row).
    `embed=` (an embedder) scores with vector search over an index of each setting instead;
    inputs shared between settings are embedded once (and kept in the vector cache on disk, so a
    rerun in a new process embeds nothing), and `attrs["embedded"]` says how many were:
    every distinct input is embedded before the first row, longest first, with a progress bar
    (inputs/s, time left); `attrs["inputs_total"]` (summed over settings) and `attrs["inputs_distinct"]`
    say what sharing saved, `attrs["embedding_rate"]` / `["embedding_seconds"]` / `["embedding_note"]` how
    it went, and a first run estimated at over 30 s says how many inputs and about how long (measured on
    the first call) in an `EmbeddingTimeWarning`. `time_budget=` (seconds; default None, no bound, so that
    a call gives the same rows on every machine) probes on a sample when embedding the whole codebase would
    take longer: every query's target and the largest share of the other chunks that fits, said in a
    `SampledProbeWarning` and in `attrs["sample"]` (the intervals then include the sample's uncertainty).
    Each probed row also has a 95% interval for every recall@<k> and for mrr (`recall@5_low`,
    `recall@5_high`, `mrr_low`, `mrr_high`: a bootstrap over the queries, seeded), and
    `attrs["verdict"]` says what the queries can tell: the best setting by MRR, the settings a
    paired test over the same queries cannot tell from it, or that the queries cannot separate the
    settings and about how many would (`str`: `attrs["verdict"]["message"]`; see docs/tuning-verdict.md).
    A `FlatRecallWarning` says when every recall@k is the same at all settings.
    `sample=` (a share such as 0.2) indexes, at each setting, every chunk holding a query's target and
    that share of the other chunks (the same ones in every run): embedding costs about that share,
    recall and mrr become estimates for the whole codebase, and their intervals widen by what the
    sample costs in certainty.
    """
    grid = Grid(chunk_size, chunk_overlap, chunk_max_characters)
    opening = Settings(languages=languages, max_file_size=max_file_size, workers=workers)
    resolved = resolve(source, opening)  # a chunk frame's attrs are read here, once
    if resolved.frame is not None:  # a frame's own chunk settings are the grid where none is given
        grid = grid.filled_from(resolved.frame.settings)
    chunk_settings = grid.combinations()
    counter, limit = check_counters(token_counter, token_limit)
    if embed is not None and not probe:
        msg = "embed= is the probe's embedder: pass probe=True with it"
        raise ValueError(msg)
    if queries is not None and not probe:
        msg = "queries= are the probe's queries: pass probe=True with them"
        raise ValueError(msg)
    if sample is not None and not probe:
        msg = "sample= is the share of chunks the probe indexes: pass probe=True with it"
        raise ValueError(msg)
    sample = check_sample(sample)
    budget = check_time_budget(time_budget)
    if budget is not None and embed is None:
        msg = "time_budget= bounds the probe's embedding: pass embed= (and probe=True) with it"
        raise ValueError(msg)
    engine_searcher = resolve_searcher(searcher_for(searcher, embed)) if probe else None
    started = time.perf_counter()
    codebase = open_resolved(resolved, progress=progress).codebase
    scorer = None if engine_searcher is None else \
        ProbeScorer(codebase, engine_searcher, k, embed is not None, queries, sample)
    if scorer is not None and embed is not None:
        scorer.ahead = embed_ahead(scorer.probe_set, chunk_settings, engine_searcher, budget, progress)
    return sweep_table(
        codebase, chunk_settings, counter=counter, limit=limit, progress=progress,
        started=started, scorer=scorer,
    )
