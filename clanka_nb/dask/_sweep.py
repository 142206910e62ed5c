"""A settings sweep over many roots: each batch parsed once on a worker, its partial statistics merged exactly."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from distributed import as_completed

from .. import engine
from ..defaults import CHUNK_OVERLAP, CHUNK_SETTING_NAMES, MAX_FILE_SIZE, NO_LIMIT, SWEEP_CHUNK_SIZES
from ..engine.settings import Grid, Settings, setting_values
from ..engine.token_counts import TokenCounter
from ..frames import columns as _columns
from ..retrieval import Searcher, probe_summary
from ..retrieval.internals import (
    Bootstrap,
    Outcome,
    ProbeSet,
    decide,
    probe_frame,
    query_groups,
    resolve_searcher,
    row_intervals,
)
from ..sweeps.table import check_counters, token_counter_name
from ._batch import parse
from ._cluster import ClientLike, resolve_client
from ._frames import FILES_PER_PARTITION, plan
from ._partial import Partial, measure, row
from ._plan import Batch, StrPath

# Histograms of chunk sizes are small, but a thousand batches' worth are merged every this many.
_COMPACT_EVERY = 64


@dataclass(frozen=True)
class SweepTask:
    """Runs on a worker: parse one batch once, then measure it at every setting (and probe it, per root)."""

    settings: tuple[engine.ChunkSettings, ...]
    counter: TokenCounter | None  # pickled with the task (a tiktoken encoding travels by its name)
    searcher: Searcher | None  # set only when probing: then a batch is a whole root
    k: tuple[int, ...]

    def __call__(self, batch: Batch) -> tuple[list[Partial], list[pd.DataFrame], float, list[str]]:
        started = time.perf_counter()
        codebase, failed = parse(batch)  # a file the engine fails on is left out, and named in attrs
        probe_set = ProbeSet(codebase) if self.searcher is not None else None
        parsed = time.perf_counter() - started
        partials = measure(codebase, list(self.settings), self.counter)
        probes = []
        if probe_set is not None:
            for setting, partial in zip(self.settings, partials, strict=True):
                scored = time.perf_counter()
                probes.append(probe_frame(probe_set, setting, self.searcher, self.k))
                partial.seconds += time.perf_counter() - scored
        failures = [f"{batch.root}/{path}: {why}" for path, why in failed.items()]
        if probe_set is not None and probe_set.history_error is not None:  # its other queries are probed
            failures.append(f"{batch.root}: commit messages left out: {probe_set.history_error}")
        return partials, probes, parsed, failures


def pooled_groups(frames: list[pd.DataFrame]) -> np.ndarray:
    """Cluster ids of all roots' queries together: queries sharing a target within one root are one cluster
    (a path of one root is another file than the same path of the next)."""
    groups, offset = [], 0
    for frame in frames:
        found = query_groups(frame)
        groups.append(found + offset)
        offset += int(found.max()) + 1 if len(found) else 0
    return np.concatenate(groups) if groups else np.zeros(0, dtype=np.int64)


def _probe_values(frames: list[pd.DataFrame], k: tuple[int, ...], stream: int) -> tuple[dict[str, Any], Outcome]:
    """The probe columns of all roots' queries together, as `cn.sweep` computes them for one codebase (with
    their intervals), and the per-query outcome the verdict compares."""
    pooled = pd.concat(frames, ignore_index=True)
    summary = probe_summary(pooled, k)
    values = {name: summary[name].iloc[0] for name in summary.columns}
    plain = {name: None if pd.isna(v) else v.item() if hasattr(v, "item") else v for name, v in values.items()}
    outcome = Outcome(pooled["rank"].to_numpy(dtype=np.int64, na_value=0), max(k))
    metrics = [*(f"recall@{cutoff}" for cutoff in k), "mrr"]
    scored = row_intervals(outcome, metrics, Bootstrap(len(pooled), groups=pooled_groups(frames)), stream=stream)
    out: dict[str, Any] = {"queries": plain["queries"]}
    for metric in metrics:
        out.update({name: scored[name] for name in (metric, f"{metric}_low", f"{metric}_high")})
    out["precision"] = plain["precision"]
    return out, outcome


def sweep(
    roots: StrPath | Iterable[StrPath],
    *,
    client: ClientLike = None,
    token_counter: object = None,
    token_limit: int | None = None,
    files_per_partition: int = FILES_PER_PARTITION,
    probe: bool = False,
    searcher: str | Searcher = "bm25",
    k: int | Iterable[int] = (1, 5, 10),
    chunk_size: int | Iterable[int] = SWEEP_CHUNK_SIZES, chunk_overlap: int | Iterable[int] = CHUNK_OVERLAP,
    chunk_max_characters: float | Iterable[float | None] | None = NO_LIMIT,
    languages: str | None = None, max_file_size: str | int = MAX_FILE_SIZE,
) -> pd.DataFrame:
    """`cn.sweep`'s table for all the roots taken together, as if they were one codebase.

    Together means: every chunk of every root is one sample (mean, median and p95 of lines,
    characters and tokens are over all of them), coverage is meaningful lines held by some chunk
    over meaningful lines of all roots, duplication and split_declarations likewise pooled. For one
    root it equals `cn.sweep(root)` (but `seconds`, which here is worker time summed).

    Each batch of `files_per_partition` files is parsed once on a worker and measured at every
    setting; the workers send back counts and exact histograms of chunk sizes, which add up to
    the same numbers as the whole sample (percentiles included). With `probe=True` each root is
    searched on its own (a query only searches its own repository) and a batch is a whole root;
    recall, mrr and precision are over all roots' queries together, with their 95% intervals and
    `attrs["verdict"]` as in `frames.sweep` (the queries of all roots pooled). A file the engine fails on
    is left out and named in `attrs["failed"]`, and so is a root whose history git cannot read when probing
    (no commit yet, a damaged commit: its commit messages are left out, its other queries probed);
    `attrs["roots"]` lists the roots as resolved.

    `token_counter=` (a callable, a tiktoken encoding, a `tokenizers.Tokenizer` or "cl100k_base")
    counts the tokens of each chunk's embedding input on the workers, and `token_limit=` adds
    `over_limit`, the share of chunks over that many tokens, as in `cn.sweep`; the counts merge
    exactly too. As there, the token statistics are `tokens_mean`, `tokens_p95` and `tokens_total` (a whole
    count) when counted, `est_tokens_*` when they are the chars/4 estimate, and `attrs["token_counter"]` says
    which. A chunk's embedding input names its path within its own root, as clanka embeds it
    when it indexes that root. The counter must pickle (a function defined in a notebook does, with
    cloudpickle).
    """
    # Bad values fail here, before listing (the cluster's workers do the work: no `workers` setting).
    grid = tuple(Grid(chunk_size, chunk_overlap, chunk_max_characters).combinations())
    opening = Settings(languages=languages, max_file_size=max_file_size)
    languages = opening.mode
    max_file_size = opening.max_file_size
    counter, limit = check_counters(token_counter, token_limit)
    cutoffs = tuple(sorted(set(setting_values("k", k))))
    resolved = resolve_searcher(searcher) if probe else None
    # Probing searches a whole root at once, so its batch must be the whole root.
    work = plan(roots, client, 2**62 if probe else files_per_partition, max_file_size, languages)
    task = SweepTask(grid, counter, resolved, cutoffs)
    merged = [Partial() for _ in grid]
    probes: list[list[pd.DataFrame]] = [[] for _ in grid]
    parse_seconds = 0.0
    failed: list[str] = []
    running = resolve_client(client)
    for done, future in enumerate(as_completed(running.map(task, work, pure=False)), start=1):
        partials, probe_frames, parsed, failures = future.result()
        parse_seconds += parsed
        failed += failures
        merged = [total + part for total, part in zip(merged, partials, strict=True)]
        for kept, frame in zip(probes, probe_frames, strict=False):  # no frames unless probing
            kept.append(frame)
        if done % _COMPACT_EVERY == 0:
            merged = [partial.compacted() for partial in merged]
        future.release()
    rows, outcomes = [], []
    groups = None  # the same queries, in the same order, at every setting: one cluster id each
    for number, (setting, partial, kept) in enumerate(zip(grid, merged, probes, strict=True)):
        values = row(setting, partial, counter, limit)
        if probe:
            groups = pooled_groups(kept)
            scored, outcome = _probe_values(kept, cutoffs, number)
            values.update(scored)
            outcomes.append(outcome)
        rows.append(values)
    schema = dict(_columns.sweep_schema(estimated=counter is None or counter.estimated))
    if limit is not None:
        schema["over_limit"] = _columns.FLOAT
    if probe and rows:
        extra = [name for name in rows[0] if name not in schema]
        schema.update({name: _columns.INT if name == "queries" else _columns.FLOAT for name in extra})
    attrs = {
        "roots": list(dict.fromkeys(batch.root for batch in work)),
        "languages": languages,
        "token_counter": token_counter_name(counter),
        "parse_seconds": parse_seconds,
        "failed": sorted(failed),  # files the engine failed on, and roots whose history could not be read
    }
    if probe and rows:
        settings_of = [{name: r[name] for name in CHUNK_SETTING_NAMES} for r in rows]
        attrs["verdict"] = decide(outcomes, settings_of, [int(r["chunks"]) for r in rows],
                                  groups=groups).as_dict()
    return _columns.build({name: [r[name] for r in rows] for name in schema}, schema, attrs)
