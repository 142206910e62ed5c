"""`sweep`: open a source once and give its sweep table, with the retrieval probe's columns when asked."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, Unpack

import pandas as pd

from ..defaults import MAX_FILE_SIZE
from ..engine.progress import ProgressBar
from ..engine.settings import Grid, GridKeywords, Settings, setting_keywords
from ..engine.source import open_resolved, resolve
from ..frames.source import Source
from ..retrieval import Probe
from ..retrieval.internals import ProbeScorer, as_probe, embed_ahead
from ._answer import answer_attrs
from ._chunkers import check_chunkers, whole_cuts
from ._reference import reference_chunker, reference_position, reference_settings, with_reference
from .table import NO_LIMIT_NOTE, check_counters, sweep_rows, table_of


@setting_keywords
def sweep(
    source: Source = None,
    *,
    token_counter: object = None,
    token_limit: int | None = None,
    probe: bool | Probe = False,
    chunkers: Mapping[str, object] | None = None,
    progress: ProgressBar = None,
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
    is embedded twice); seconds (`attrs["parse_seconds"]` is the shared parse alone).
    `token_counter=` (a callable, a tiktoken encoding, a `tokenizers.Tokenizer` or "cl100k_base")
    counts the tokens of each chunk's embedding input, and `token_limit=` adds `over_limit`, the
    share of chunks over that many tokens.
    A chunk frame as the source gives its own chunk settings where none is passed (one row).

    With `probe=True` (the defaults) or `probe=Probe(...)` (its options: see `clanka_nb.Probe`), also how well
    search finds the code a query is about at each setting, the queries extracted once for all rows: queries;
    recall@<k> for each cut-off, mrr and precision; tokens@<k> and lines@<k> (what the top k chunks cost);
    budget_found@<B> and budget_covered@<B> for each token budget (what the chunks taken in rank order within B
    tokens find and hold: a setting is judged at equal cost); a 95% interval (`mrr_low`, `mrr_high`...) for
    recall, mrr and the budgeted columns; and `attrs["verdict"]`, what the queries can tell about the Probe's
    metric, its decision first (`attrs["verdict"]["message"]`), and `attrs["verdict_by_source"]`, each query
    source's own verdict (the message says where one decides otherwise). With no query the probe columns are NA, and a
    `NoProbeQueriesWarning` and `attrs["probe_reason"]` say why; a `FlatRecallWarning` when every recall@k is
    the same at all settings. Where the queries come from (`attrs["query_sources"]`, `attrs["probe_note"]`,
    `attrs["queries_seconds"]`): docs/queries.md. How the columns, intervals and verdict are computed, and
    what `Probe(sample=)` does (every row's `scored_on`; a sampled verdict that separates the settings is
    confirmed on the whole codebase): docs/tuning-verdict.md. What `Probe(embed=)` and `Probe(time_budget=)`
    embed, sample and report (`attrs["embedded"]`, `attrs["inputs_distinct"]`...; the column `truncated`
    for a model with an input limit): docs/performance.md, "Tuning with a real embedding model". With
    `Probe(confirm=model)` BM25 scores every row and the model re-scores what BM25 leaves open or may misjudge (its
    confidence set, clanka's row, every overlap setting and its overlap-0 twin); the verdict is the model's over
    those rows, the column `searcher` names who scored each row, and `attrs["model_confirmation"]` what it embedded:
    docs/tuning-verdict.md, "BM25 screens, your model confirms".
    A probed sweep also scores clanka's own setting (chunk_size 30, chunk_overlap 0, chunk_max_characters 10,000,
    the "clanka" language mode: what clanka's SemanticSearch indexes with) as a row of the verdict, after the grid's
    when the grid lacks it (in extended mode it is cut in clanka's mode, its split_declarations NA; `Probe(
    reference=False)` sweeps the grid as given); the boolean column `reference` marks it, and
    `attrs["clanka_answer"]` (first in the attrs; `ClankaAnswer.from_dict`) says, from the verdict, whether to keep
    it or change it, by how much (with the simultaneous interval), at what cost (tokens indexed, vectors stored),
    and what applies the chosen setting in clanka (`carry`, docs/clanka.md). A grid left at no
    chunk_max_characters says in `attrs["max_characters_note"]` that clanka indexes with 10,000.

    `chunkers=` (label -> chunker: an adapter of `clanka_nb.chunkers`, such as `cn.chunkers.astchunk(budget)`,
    or any callable `(path, text)` -> spans) adds one row per whole chunker after the engine's, measured and
    probed as a setting is, with the columns `chunker_label`, `chunker_parameters`, `fallback_files`,
    `timed_out_files`, `uncut_languages` and `ranked` (a chunker that cut nothing of a language holding queries'
    targets is left out of the ranking), and one verdict over the ranked rows: docs/chunkers.md, "Comparing
    chunkers in a sweep".

    Args:
        source: A folder, one file, an `engine.Codebase`, a chunk frame, or None for the sample codebase.
        token_counter: Counts each chunk's embedding input (a callable, a tiktoken encoding or "cl100k_base").
        token_limit: Adds `over_limit`, the share of chunks over that many tokens.
        probe: True scores retrieval at each setting with the defaults; a `Probe` with its options.
        chunkers: Whole chunkers to compare with the engine, by label (adapters of `clanka_nb.chunkers` or callables).
        progress: None shows a bar only for work over a second, False never, True always.

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
    attrs: dict[str, Any] = {"root": str(codebase.root), "languages": codebase.languages,
                             "parse_seconds": time.perf_counter() - started}  # fmt: skip
    if all(setting.effective_max_characters is None for setting in chunk_settings):
        attrs["max_characters_note"] = NO_LIMIT_NOTE  # before the reference row, which has clanka's 10,000
    scorer, ahead = None, None
    if options is not None and options.reference:  # clanka's own setting is scored too (embedded ahead with the grid)
        chunk_settings = with_reference(chunk_settings, codebase.languages)
    # The whole chunkers cut first: their inputs are embedded ahead with the settings' (counted and estimated).
    apart = options is not None and options.reference and reference_position(chunk_settings, codebase.languages) is None
    cuts = whole_cuts(codebase, list(codebase.files), peers,
                      (reference_chunker(), reference_settings()) if apart else None, progress)  # fmt: skip
    if options is not None:
        parsed = time.perf_counter()
        scorer = ProbeScorer(codebase, options, counter)
        attrs["queries_seconds"] = time.perf_counter() - parsed  # the queries (a history read included) and masks
        if options.embedded:
            ahead = embed_ahead(scorer.probe_set, chunk_settings, options.engine, options.time_budget, progress,
                                heads=cuts.heads())  # fmt: skip
    rows = sweep_rows(codebase, chunk_settings, counter=counter, limit=limit, progress=progress, scorer=scorer,
                      cuts=cuts)  # fmt: skip
    if scorer is not None:
        attrs.update(scorer.attrs())  # after the rows: the verdict over all of them
    table = table_of(rows, counter=counter, limit=limit, attrs=attrs, ahead=ahead, chunkers=bool(peers))
    if scorer is not None and scorer.probe.reference:
        table.attrs = answer_attrs(table, scorer.probe)  # the answer first: what a clanka user reads
    return table
