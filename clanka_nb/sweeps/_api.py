"""`sweep`: open a source once and give its sweep table, with the retrieval probe's columns when asked."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Unpack

import pandas as pd

from ..defaults import MAX_FILE_SIZE
from ..engine.progress import ProgressBar
from ..engine.settings import Grid, GridKeywords, Settings, setting_keywords
from ..engine.source import open_resolved, resolve
from ..frames.source import Source
from ..retrieval import Probe
from ..retrieval.internals import ProbeScorer, as_probe, embed_ahead
from ._chunkers import check_chunkers
from ._reference import with_reference
from .table import check_counters, sweep_table


@setting_keywords
def sweep(
    source: Source = None,
    *,
    token_counter: object = None,
    token_limit: int | None = None,
    probe: bool | Probe = False,
    chunkers: Mapping[str, object] | None = None,
    progress: ProgressBar = None,
    reference: bool = True,
    languages: str | None = None, max_file_size: str | int = MAX_FILE_SIZE, workers: int | None = None,
    **given: Unpack[GridKeywords],
) -> pd.DataFrame:
    """One row per combination of the settings (in `itertools.product` order), parsing the code once.

    Columns: the requested chunk_size and chunk_overlap, chunk_max_characters (as the engine uses
    it: floored, NA for no limit), effective_size / effective_overlap (after the engine's clamping)
    and `clamped` (True when they differ from the request: such rows are kept, not merged, even
    when two rows end up with the same effective settings); chunks; mean, median and p95 of chunk
    lines and characters; the tokens per chunk as `est_tokens_mean`, `est_tokens_p95` and
    `est_tokens_total` (the characters / 4 estimate) or, with `token_counter=`, `tokens_mean`,
    `tokens_p95` and `tokens_total` (a whole count of each chunk's embedding input), `attrs["token_counter"]`
    naming which; split_declarations (share of the declarations of
    AST-chunked files that do not fit in one chunk); coverage (share of meaningful lines in some
    chunk); duplication (lines summed over chunks / distinct lines in some chunk: 1.0 means no line
    is embedded twice); seconds.

    With `probe=True` (the defaults) or `probe=Probe(...)` (its options: searcher, k, embed, queries, sample,
    time_budget, budget, metric, targets, mask; see `clanka_nb.Probe`), also how well search finds the code
    a query is about at each setting (see `clanka_nb.retrieval.probe`), scored over the same parsed codebase
    (queries are extracted once for all rows): queries; recall@<k> for each cut-off, mrr and precision;
    tokens@<k> and lines@<k>, what the top k chunks cost on average (tokens of their embedding inputs, by
    `token_counter=` when given, else the chars/4 estimate: `attrs["token_counter"]` names it); and for each
    token budget B (`Probe(budget=)`, default 2000), budget_found@<B>, the share of queries whose target has a
    line in the chunks taken in rank order within B tokens, and budget_covered@<B>, the mean share of the
    target's lines they hold (graded relevance: a setting is judged at equal cost, so larger chunks do not win
    by holding more lines; docs/tuning-verdict.md).
    Queries come from doc comments in every language extended mode knows, also in "clanka" mode
    (whose line windows are then what is scored), from test names, and, when the source's root is the top
    of a git clone, from its commit messages (`history_queries`, its `targets=` as the Probe's);
    `attrs["query_sources"]` counts the queries of each source and `attrs["probe_note"]` says it in words.
    `attrs["parse_seconds"]` is the parse alone; a probed sweep's `attrs["queries_seconds"]` is finding the
    queries, a history read included (kept per commit in the cache folder: the same commit is read once).
    Or pass `Probe(queries=...)`, a frame with query, path, start_line, end_line (`probe_queries`,
    `history_queries`, both concatenated, or your own). With no query the probe columns are NA, a
    `NoProbeQueriesWarning` says why, and so does `attrs["probe_reason"]`.
    `token_counter=` (a callable, a tiktoken encoding, a `tokenizers.Tokenizer` or "cl100k_base")
    counts the tokens of each chunk's embedding input, and `token_limit=` adds `over_limit`, the
    share of chunks over that many tokens.
    A chunk frame as the source gives its own chunk settings where none is passed (one row).
    `Probe(embed=)` (an embedder) scores with vector search over an index of each setting instead;
    inputs shared between settings are embedded once (and kept in the vector cache on disk, so a
    rerun in a new process embeds nothing), and `attrs["embedded"]` says how many were:
    every distinct input is embedded before the first row, longest first, with a progress bar
    (inputs/s, time left); `attrs["inputs_total"]` (summed over settings) and `attrs["inputs_distinct"]`
    say what sharing saved, `attrs["embedding_rate"]` / `["embedding_seconds"]` / `["embedding_note"]` how
    it went, and a first run estimated at over 30 s says how many inputs and about how long (measured on
    the first call) in an `EmbeddingTimeWarning`. When the embedder has an input limit
    (`cn.embedders.sentence_transformers`: its `max_input_tokens`), the column `truncated` is the share
    of each setting's chunk inputs the model cuts at that limit (it reads only their start: a large
    chunk scored by its lines is partly unseen by the model). `Probe(time_budget=)` (seconds; default None, no bound, so
    that a call gives the same rows on every machine) probes on a sample when embedding the whole codebase
    would take longer: every query's target and the largest share of the other chunks that fits, said in a
    `SampledProbeWarning` and in `attrs["sample"]` (and then as `Probe(sample=)` below: a verdict that
    separates on the sample is confirmed on the whole codebase).
    Each probed row also has a 95% interval for every recall@<k>, for mrr and for every budgeted column
    (`recall@5_low`, `recall@5_high`, `budget_covered@2000_low`...: a cluster bootstrap over the queries,
    seeded), and `attrs["verdict"]` says what the queries can tell about the Probe's metric (default
    budget_covered at the smallest budget; `attrs["verdict"]["metric"]` names it), its decision first: the one
    setting better than every other, the cheapest of those equivalent within `Probe(margin=)`, or the cheapest
    (fewest tokens indexed) of a tie (`attrs["verdict"]["message"]`; see docs/tuning-verdict.md).
    A `FlatRecallWarning` says when every recall@k is the same at all settings.
    A probed sweep always scores clanka's own setting (chunk_size 30, chunk_overlap 0, chunk_max_characters 10,000,
    the "clanka" language mode: what clanka's SemanticSearch indexes with) as a row of the verdict, after the grid's
    when the grid lacks it (in extended mode it is cut in clanka's mode, its split_declarations NA); the boolean
    column `reference` marks it, and `attrs["clanka_answer"]` (first in the attrs; `ClankaAnswer.from_dict`) says,
    from the verdict, whether to keep it or change it, by how much (with the simultaneous interval), at what cost
    (tokens indexed, vectors stored), and what applies the chosen setting in clanka (`carry`, docs/clanka.md).
    `chunkers=` (label -> chunker: an adapter of `clanka_nb.chunkers`, such as `cn.chunkers.astchunk(budget)`,
    or any callable `(path, text)` -> spans, `(start_line, end_line)` pairs or chunk texts) compares whole
    chunkers with the engine: the table gets `chunker_label` ("clanka" on the engine's rows, one per setting),
    `chunker_parameters` (JSON of the chunker's own size parameters; the engine's settings on its rows) and
    `fallback_files` (files the chunker does not handle, cut into clanka's line windows at the default settings
    instead, so that every chunker is scored on the same files), then one row per chunker after the engine's:
    every size statistic and coverage of its cut of every file the engine lists, and with a probe the same
    columns as a setting's, its chunks scored through the same queries, targets, masking and embedding input
    (path header and lines): only the cutting differs. The engine's setting columns (chunk_size... clamped) and
    split_declarations are NA on a chunker's row, and its `seconds` is the chunker's own time cutting every file
    (its parse included; an engine row's seconds leave the shared parse out, `attrs["parse_seconds"]`: add
    `cn.chunkers.clanka()` as a chunker to time clanka as the peers are timed). The verdict is one over all
    rows, a chunker's row named `chunker=<label>`. Without `chunkers=` the table has no chunker column.
    `Probe(sample=)` (a share such as 0.2) indexes, at each setting, every chunk holding a query's target and
    that share of the other chunks (the same ones in every run): embedding costs about that share, and
    recall, mrr and the budgeted columns become estimates for the whole codebase (the rank is estimated as
    1 + target-holding chunks above + sampled distractors above / share; within a budget each sampled
    distractor ranked above costs its tokens 1/share times), whose intervals widen by what the sample costs in
    certainty, while tokens@<k> and lines@<k> are what the sample's own top k cost. These estimates are
    biased (the rank's estimate is unbiased, 1/rank, rank <= k and a budget's step are not; the direction
    depends on the chunk size), so the sample never decides alone: its verdict is a screen
    (`attrs["verdict"]["screened"]`). When it cannot separate the settings, that is the verdict (it names no
    best) and every row says `scored_on` = "sample". When it separates, every setting is scored again on the
    whole codebase (same queries; the vector cache keeps what the sample embedded, and
    `attrs["confirmation_embedded"]` counts what confirming added): the rows take those values (`scored_on` =
    "full") and the verdict is the full sweep's, so a sampled verdict never names a best the whole codebase
    would not (docs/tuning-verdict.md, "Probing on a sample").

    Args:
        source: A folder, one file, an `engine.Codebase`, a chunk frame, or None for the sample codebase.
        token_counter: Counts each chunk's embedding input (a callable, a tiktoken encoding or "cl100k_base").
        token_limit: Adds `over_limit`, the share of chunks over that many tokens.
        probe: True scores retrieval at each setting with the defaults; a `Probe` with its options.
        chunkers: Whole chunkers to compare with the engine, by label (adapters of `clanka_nb.chunkers` or callables).
        progress: None shows a bar only for work over a second, False never, True always.
        reference: Probed, score clanka's own setting too (the `reference` row and `attrs["clanka_answer"]`);
            False sweeps the grid exactly as given (to study the verdict on a grid of your own).

    Returns:
        One row per combination of the settings (and one per chunker); the verdict in `attrs["verdict"]`.

    Raises:
        ValueError: A setting's list of values is empty, or a value is out of range.

    Examples:
        >>> table = cn.sweep("my-repo", chunk_size=[20, 30, 40], chunk_overlap=[0, 5], probe=True)
        >>> table.attrs["verdict"]["message"]
    """
    peers = check_chunkers(chunkers)  # before the source is opened: a bad value fails at once
    grid = Grid(**given)
    opening = Settings(languages=languages, max_file_size=max_file_size, workers=workers)
    resolved = resolve(source, opening)  # a chunk frame's attrs are read here, once
    if resolved.frame is not None:  # a frame's own chunk settings are the grid where none is given
        grid = grid.filled_from(resolved.frame.settings)
    chunk_settings = grid.combinations()
    counter, limit = check_counters(token_counter, token_limit)
    options = as_probe(probe)
    started = time.perf_counter()
    codebase = open_resolved(resolved, progress=progress).codebase
    parsed = time.perf_counter()
    if options is not None and reference:  # clanka's own setting is scored too (embedded ahead with the grid)
        chunk_settings = with_reference(chunk_settings, codebase.languages)
    scorer = None if options is None else ProbeScorer(codebase, options, counter)
    queried = None if scorer is None else time.perf_counter() - parsed  # the queries (a history read) and masks
    if scorer is not None and options is not None and options.embedded:
        scorer.ahead = embed_ahead(scorer.probe_set, chunk_settings, options.engine, options.time_budget, progress)
    return sweep_table(
        codebase, chunk_settings, counter=counter, limit=limit, progress=progress,
        parse_seconds=parsed - started, queries_seconds=queried, scorer=scorer, chunkers=peers, reference=reference,
    )
