"""A settings sweep over many roots: each batch parsed once on a worker, its partial statistics merged exactly."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Unpack

import numpy as np
import pandas as pd
from distributed import Client, as_completed

from .. import engine
from ..defaults import CHUNK_SETTING_NAMES, MAX_FILE_SIZE
from ..engine.settings import Grid, GridKeywords, Settings, setting_keywords
from ..engine.token_counts import TokenCounter
from ..retrieval import Probe
from ..retrieval.internals import (
    COST_NAMES,
    Bootstrap,
    Outcome,
    ProbeSet,
    as_probe,
    decide,
    frame_outcome,
    heads_frame,
    index_cost,
    outcome_row,
    probe_frame,
    query_groups,
    searcher_named,
)
from ..sweeps.internals import (
    REFERENCE_COLUMN,
    answer_attrs,
    reference_cut,
    reference_named,
    reference_position,
    reference_settings,
    with_reference,
)
from ..sweeps.table import NO_LIMIT_NOTE, check_counters, table_of
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
    probe: Probe | None  # set only when probing: then a batch is a whole root
    apart: bool = False  # clanka's own cut too, after the settings' (a probed sweep in another mode than clanka's)

    def __call__(self, batch: Batch) -> tuple[list[Partial], list[pd.DataFrame], float, float, list[str]]:
        started = time.perf_counter()
        codebase, failed = parse(batch)  # a file the engine fails on is left out, and named in attrs
        parsed = time.perf_counter()
        probe_set = ProbeSet.of(codebase, self.probe, self.counter) if self.probe is not None else None
        queried = time.perf_counter() - parsed  # the queries (a history read included) and masks
        cut = reference_cut(codebase, probe_set.index.paths) if self.apart and probe_set is not None else None
        partials = measure(codebase, list(self.settings), self.counter, cut)
        probes = []
        if probe_set is not None and self.probe is not None:
            for setting, partial in zip(self.settings, partials, strict=False):
                scored = time.perf_counter()
                probes.append(probe_frame(probe_set, setting, self.probe))
                partial.seconds += time.perf_counter() - scored
            if cut is not None:  # scored through the same probe set: only the cutting differs
                scored = time.perf_counter()
                probes.append(heads_frame(probe_set, cut.heads, self.probe, reference_named(codebase.languages)))
                partials[-1].seconds += time.perf_counter() - scored
        failures = [f"{batch.root}/{path}: {why}" for path, why in failed.items()]
        if probe_set is not None and probe_set.history_error is not None:  # its other queries are probed
            failures.append(f"{batch.root}: commit messages left out: {probe_set.history_error}")
        return partials, probes, parsed - started, queried, failures


def pooled_groups(frames: list[pd.DataFrame]) -> np.ndarray:
    """Cluster ids of all roots' queries together: queries sharing a target within one root are one cluster
    (a path of one root is another file than the same path of the next)."""
    groups, offset = [], 0
    for frame in frames:
        found = query_groups(frame)
        groups.append(found + offset)
        offset += int(found.max()) + 1 if len(found) else 0
    return np.concatenate(groups) if groups else np.zeros(0, dtype=np.int64)


def _probe_values(frames: list[pd.DataFrame], probe: Probe, stream: int) -> tuple[dict[str, Any], Outcome, float]:
    """The probe columns of all roots' queries together, as `cn.sweep` computes them for one codebase (with
    their intervals), the per-query outcome the verdict compares, and what the index costs (its tie-break)."""
    pooled = pd.concat(frames, ignore_index=True)
    outcome = frame_outcome(pooled, probe)
    row = outcome_row(outcome, probe, Bootstrap(len(pooled), groups=pooled_groups(frames)), stream=stream)
    return row, outcome, sum(index_cost(frame, probe) for frame in frames)


def _dask_probe(probe: object) -> Probe | None:
    """The sweep's `Probe`: each root probes its own default queries, on its whole index."""
    options = as_probe(probe)
    if options is not None:
        given = [name for name in ("queries", "embed", "sample", "time_budget", "confirm")
                 if getattr(options, name) is not None]
        if given:
            msg = (f"Dask's sweep probes each root's own default queries on its whole BM25 index: drop "
                   f"{', '.join(f'{name}=' for name in given)} from the Probe, or run cn.sweep on one codebase")
            raise ValueError(msg)
    return options


@setting_keywords
def sweep(
    roots: StrPath | Iterable[StrPath],
    *,
    client: ClientLike = None,
    token_counter: object = None,
    token_limit: int | None = None,
    files_per_partition: int = FILES_PER_PARTITION,
    probe: bool | Probe = False,
    chunkers: object = None,
    languages: str | None = None, max_file_size: str | int = MAX_FILE_SIZE,
    **given: Unpack[GridKeywords],
) -> pd.DataFrame:
    """`cn.sweep`'s table for all the roots taken together, as if they were one codebase.

    Together means: every chunk of every root is one sample (mean, median and p95 of lines,
    characters and tokens are over all of them), coverage is meaningful lines held by some chunk
    over meaningful lines of all roots, duplication and split_declarations likewise pooled. For one
    root it equals `cn.sweep(root)` (but `seconds`, which here is worker time summed).

    Each batch of `files_per_partition` files is parsed once on a worker and measured at every
    setting; the workers send back counts and exact histograms of chunk sizes, which add up to
    the same numbers as the whole sample (percentiles included). With `probe=True` or `probe=Probe(...)`
    (its searcher, k, budget, metric, targets and mask; not queries, embed, sample, time_budget or confirm, which
    are one codebase's) each root is searched on its own (a query only searches its own repository) and a
    batch is a whole root; the probe's columns are over all roots' queries together, with their 95%
    intervals and `attrs["verdict"]` as in `cn.sweep` (the queries of all roots pooled), and clanka's own setting is
    a marked `reference` row in every language mode, with `attrs["clanka_answer"]`, as there (in extended mode
    clanka's own cut of each root, made on its worker; `Probe(reference=False)` leaves it out). A file the engine
    fails on is left out and named in `attrs["failed"]`, and so is a root whose history git cannot read when probing
    (no commit yet, a damaged commit: its commit messages are left out, its other queries probed);
    `attrs["roots"]` lists the roots as resolved. `attrs["parse_seconds"]` adds up the workers' parses alone, and
    when probing `attrs["queries_seconds"]` their finding the queries (a history read included).

    `token_counter=` (a callable, a tiktoken encoding, a `tokenizers.Tokenizer` or "cl100k_base")
    counts the tokens of each chunk's embedding input on the workers, and `token_limit=` adds
    `over_limit`, the share of chunks over that many tokens, as in `cn.sweep`; the counts merge
    exactly too. As there, the token statistics are `tokens_mean`, `tokens_p95` and `tokens_total` (a whole
    count) when counted, `est_tokens_*` when they are the chars/4 estimate, and `attrs["token_counter"]` says
    which. A chunk's embedding input names its path within its own root, as clanka embeds it
    when it indexes that root. The counter must pickle (a function defined in a notebook does, with
    cloudpickle).

    `chunkers=` (whole chunkers compared with the engine) is `cn.sweep`'s alone: it is refused here, as the
    workers merge the engine's own statistics; sweep each root with `cn.sweep(root, chunkers=...)` instead.

    Args:
        roots: One folder or several; every worker must see them at the same absolute paths.
        client: A `distributed.Client`, a scheduler address, or None for the current client (else a new `LocalCluster`).
        token_counter: Counts each chunk's embedding input on the workers (it must pickle).
        token_limit: Adds `over_limit`, the share of chunks over that many tokens.
        files_per_partition: Files parsed per task (with a probe, a task is a whole root).
        probe: True scores retrieval with the defaults; a `Probe` with its options (not queries, embed, sample).
        chunkers: Refused here (a TypeError naming `cn.sweep(root, chunkers=...)`).

    Returns:
        `cn.sweep`'s table for all the roots taken together.

    Raises:
        TypeError: `chunkers=` is given.
        ValueError: A setting is out of range.

    Examples:
        >>> cnd.sweep(["repo-a", "repo-b"], chunk_size=[20, 30, 40], probe=True)
    """
    if chunkers is not None:
        # The workers send back the engine's histograms per setting; a peer's cut would need its own partials.
        msg = ("Dask's sweep does not take chunkers=: compare chunkers with cn.sweep(root, chunkers={...}, "
               "probe=True), one root at a time")
        raise TypeError(msg)
    # Bad values fail here, before listing (the cluster's workers do the work: no `workers` setting).
    grid = tuple(Grid(**given).combinations())
    unlimited = all(setting.effective_max_characters is None for setting in grid)  # before clanka's own is added
    opening = Settings(languages=languages, max_file_size=max_file_size)
    counter, limit = check_counters(token_counter, token_limit)
    options = _dask_probe(probe)
    referenced = options is not None and options.reference  # clanka's own setting is scored too, as cn.sweep does
    if referenced:  # in clanka's mode a setting of the grid; in another, clanka's own cut apart, after the grid's
        grid = tuple(with_reference(grid, opening.mode))
    position = reference_position(grid, opening.mode) if referenced else None
    apart = referenced and position is None
    # Probing searches a whole root at once, so its batch must be the whole root.
    work = plan(roots, client, 2**62 if options is not None else files_per_partition, opening.max_file_size,
                opening.mode)  # fmt: skip
    gathered = _gather(resolve_client(client), SweepTask(grid, counter, options, apart), work)
    rows = [row(setting, partial, counter, limit) for setting, partial in
            zip((*grid, *[reference_settings()] * apart), gathered.merged, strict=True)]  # fmt: skip
    attrs: dict[str, Any] = {
        "roots": list(dict.fromkeys(batch.root for batch in work)),
        "languages": opening.mode,
        "parse_seconds": gathered.parse_seconds,
        "failed": sorted(gathered.failed),  # files the engine failed on, and roots whose history could not be read
    }
    if unlimited:
        attrs["max_characters_note"] = NO_LIMIT_NOTE  # as cn.sweep says it: clanka indexes with 10,000
    if options is not None:
        attrs["queries_seconds"] = gathered.queries_seconds
        named = {}
        if apart:
            position = len(grid)
            rows[position]["split_declarations"] = None  # the sweep's declarations are another mode's
            named[position] = reference_named(opening.mode)
        attrs.update(_probed(rows, gathered.probes, options, named=named))
        if referenced:  # clanka's own setting's row, marked as cn.sweep marks it
            for number, values in enumerate(rows):
                values[REFERENCE_COLUMN] = number == position
    table = table_of(rows, counter=counter, limit=limit, attrs=attrs)
    if options is not None and REFERENCE_COLUMN in table.columns:
        table.attrs = answer_attrs(table, options)  # the answer about clanka's setting first, as cn.sweep's
    return table


@dataclass
class Gathered:
    """What the workers of a sweep sent back, merged: per setting its partial statistics and its probe frames
    (one per root; none unless probing), the seconds the workers parsed and found queries, what failed."""

    merged: list[Partial]
    probes: list[list[pd.DataFrame]]
    parse_seconds: float = 0.0
    queries_seconds: float = 0.0
    failed: list[str] = field(default_factory=list)


def _gather(running: Client, task: SweepTask, work: list[Batch]) -> Gathered:
    """Run `task` on every batch and merge the results as they come (histograms compacted now and then)."""
    rows = len(task.settings) + task.apart
    gathered = Gathered([Partial() for _ in range(rows)], [[] for _ in range(rows)])
    for done, future in enumerate(as_completed(running.map(task, work, pure=False)), start=1):
        partials, probe_frames, parsed, queried, failures = future.result()
        gathered.parse_seconds += parsed
        gathered.queries_seconds += queried
        gathered.failed += failures
        gathered.merged = [total + part for total, part in zip(gathered.merged, partials, strict=True)]
        for kept, frame in zip(gathered.probes, probe_frames, strict=False):  # no frames unless probing
            kept.append(frame)
        if done % _COMPACT_EVERY == 0:
            gathered.merged = [partial.compacted() for partial in gathered.merged]
        future.release()
    return gathered


def _probed(
    rows: list[dict[str, Any]], probes: list[list[pd.DataFrame]], probe: Probe, *, named: dict[int, dict[str, Any]],
) -> dict[str, Any]:
    """Each setting's probe columns over all roots' queries (added to its row in place), and the sweep's probe
    attrs: the budgets and the verdict over the settings, as `cn.sweep` gives them. `named`: how the verdict
    names a row other than by its settings (clanka's own cut, apart: its settings and clanka's mode)."""
    outcomes, costs = [], []
    for number, (values, kept) in enumerate(zip(rows, probes, strict=True)):
        scored, outcome, cost = _probe_values(kept, probe, number)
        values.update(scored)
        outcomes.append(outcome)
        costs.append(cost)
    # The same queries, in the same order, at every setting: one cluster id each.
    groups = pooled_groups(probes[-1]) if probes else None
    settings_of = [named.get(number) or {name: r[name] for name in CHUNK_SETTING_NAMES}
                   for number, r in enumerate(rows)]  # fmt: skip
    verdict = decide(outcomes, settings_of, costs, metric=probe.verdict_metric, groups=groups, margin=probe.margin,
                     cost_name=COST_NAMES[probe.cost])
    return {"budget": list(probe.budgets),  # priced by attrs["token_counter"], as the token columns
            "verdict": searcher_named(verdict, probe).as_dict()}  # the message names the searcher
