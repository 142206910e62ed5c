"""Embedding a probed sweep's inputs ahead of its rows: each distinct input once, the wait shown and estimated,
and a sample instead of the whole codebase when embedding it all would take longer than `time_budget`."""

from __future__ import annotations

import bisect
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ... import engine
from ...engine.embedding import input_hash
from ...engine.internals import ChunkHead
from ...engine.progress import ProgressBar, bar
from ...engine.warn import warn_at_user
from ...frames.cycles import paused_cycle_collection
from ...warning import ClankaWarning
from ._probe import ProbeSet

# A first run whose embedding is estimated to take longer than this is announced before it starts.
LONG_RUN_SECONDS = 30.0
# The smallest share of the other chunks a time budget samples: below it the verdict says little.
MIN_SHARE = 0.02
MEASURED = 64  # at least this many inputs measure the rate (the embedder's first calls also warm it up)


class EmbeddingTimeWarning(ClankaWarning, UserWarning):
    """A probed sweep's first run will embed many inputs: how many, and about how long at the measured rate."""


class SampledProbeWarning(ClankaWarning, UserWarning):
    """Embedding the whole codebase would take longer than `time_budget`: the probe runs on a sample instead."""


Heads = Sequence[Sequence[Sequence[ChunkHead]]]  # per whole chunker, its chunks' heads per file
# What a sweep row indexes: the engine's chunks at a setting, or a whole chunker's heads (one list per file, in order).
Cut = engine.ChunkSettings | Sequence[Sequence[ChunkHead]]


def _inputs(probe_set: ProbeSet, settings: Sequence[engine.ChunkSettings], heads: Heads = (), *,
            share: float | None) -> list[list[str]]:  # fmt: skip
    """The texts indexed at each setting, then for each whole chunker's cut (`heads`), with `share` as the probe's
    sample (the queries not included)."""
    probe_set.sample = share
    with paused_cycle_collection():
        return [probe_set.masked.texts(probe_set.chunks(setting)) for setting in settings] + \
            [probe_set.masked.texts(probe_set.chunks_of(cut)) for cut in heads]


def _spread(by_hash: dict[str, str], count: int, run: int = 1) -> dict[str, str]:
    """`count` of the texts spread over their lengths: the lengths cut into `count // run` equal shares, and from
    each the `run` texts (one of the model's batches) of neighbouring lengths around the share's mean length. A
    rate measured on them holds for all, also for a model that pads each batch to its longest text: a batch of
    lengths from short to long costs it far more per input than the rest, whose batches are of like lengths, and
    a share's middle text is shorter than its mean where lengths are skewed (issue 56 item 10)."""
    ordered = sorted(by_hash, key=lambda digest: len(by_hash[digest]))
    lengths = [len(by_hash[digest]) for digest in ordered]
    run = max(1, min(run, count))
    shares = max(1, count // run)
    picked: dict[str, str] = {}
    for number in range(shares):
        low, high = len(ordered) * number // shares, max(len(ordered) * (number + 1) // shares, 1)
        mean = sum(lengths[low:high]) / max(high - low, 1)
        start = min(max(0, bisect.bisect_left(lengths, mean, low, high) - run // 2), len(ordered) - run)
        picked.update((digest, by_hash[digest]) for digest in ordered[start : start + run])
    return picked


def _batch(searcher: Any) -> int:
    """How many texts the model embeds at once (its own `batch_size`; 1 when it names none)."""
    size = getattr(searcher.embed, "batch_size", None)
    return size if isinstance(size, int) and not isinstance(size, bool) and size > 0 else 1


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.1f} min" if seconds < 5400 else \
        f"{seconds / 3600:.1f} h"


@dataclass(frozen=True)
class Ahead:
    """What embedding a probed sweep's inputs ahead of its rows did (`embed_ahead`), for its table (`table_of`).

    `attrs` are the sweep's attrs: inputs_total (what the settings and the whole chunkers index and search, summed
    over them), inputs_distinct, embedding_rate (inputs/s, measured on the first call; None when nothing was embedded),
    embedding_estimate_seconds (what the rest was expected to take), embedding_seconds, embedding_note (what
    was done, in words), and sampled_by_budget when `time_budget` chose a sample. `truncated` is, per setting in
    the order given, the share of the chunk inputs indexed that the model cuts at its input limit (the sweep's
    column `truncated`); None when the embedder names no limit (`max_input_tokens` and `truncated_share`, as
    `cn.embedders.sentence_transformers` does).
    """

    attrs: dict[str, Any]
    truncated: list[float | None] | None = None


def embed_ahead(
    probe_set: ProbeSet, settings: Sequence[engine.ChunkSettings], searcher: Any, time_budget: float | None,
    progress: ProgressBar, *, heads: Heads = (),
) -> Ahead:
    """Embed every distinct input of the sweep before its first row (the rows then read the vector cache): the
    settings', the whole chunkers' (`heads`: each one's cut, one list of heads per file) and the queries'.

    Returns what it did (`Ahead`): the sweep's attrs, and per setting the share of its inputs the model cuts.
    `probe_set.sample` is set to the sample chosen.
    """
    attrs = _embed_ahead(probe_set, settings, searcher, time_budget, progress, heads)
    share = getattr(searcher.embed, "truncated_share", None)
    if not callable(share) or getattr(searcher.embed, "max_input_tokens", None) is None:
        return Ahead(attrs)
    # The inputs of the sample finally probed: a 60-line chunk the model reads only the start of is another
    # chunk than the one scored by its lines, and the table should say how often that happens.
    return Ahead(attrs, [share(texts) for texts in _inputs(probe_set, settings, share=probe_set.sample)])


def _embed_ahead(
    probe_set: ProbeSet, settings: Sequence[engine.ChunkSettings], searcher: Any, time_budget: float | None,
    progress: ProgressBar, heads: Heads,
) -> dict[str, Any]:
    started = time.perf_counter()
    queries = probe_set.queries["query"].tolist()
    given = probe_set.sample
    per = _inputs(probe_set, settings, heads, share=given)
    total = sum(map(len, per)) + len(queries) * len(per)
    distinct = {input_hash(text) for group in [queries, *per] for text in group}
    missing = searcher.missing([text for group in [queries, *per] for text in group])
    attrs: dict[str, Any] = {"inputs_total": total, "inputs_distinct": len(distinct), "embedding_rate": None}
    over = f"{len(settings)} settings" + (f" and {len(heads)} whole chunkers" if heads else "")
    notes = [f"{total:,} inputs over {over}, {len(distinct):,} distinct, "
             f"{len(distinct) - len(missing):,} of them already in the vector cache"]
    if not missing:
        attrs.update(embedding_seconds=time.perf_counter() - started, embedding_note="; ".join(notes))
        return attrs
    first = _spread(missing, min(len(missing), max(MEASURED, searcher.call_size())), _batch(searcher))
    measuring = time.perf_counter()
    searcher.embed_missing(first)
    rate = len(first) / max(time.perf_counter() - measuring, 1e-9)
    attrs["embedding_rate"] = rate
    missing = {digest: text for digest, text in missing.items() if digest not in first}
    full = len(missing) / rate
    spent = time.perf_counter() - started
    # Nothing left once the measuring call is done: there is nothing a sample would save.
    if time_budget is not None and given is None and missing and full > time_budget - spent:
        share, missing, why = _fit(probe_set, (settings, heads), searcher, queries,
                                   rate * max(time_budget - spent, 0.0), len(missing))
        notes.append(why)
        attrs["sampled_by_budget"] = share  # the share time_budget chose (attrs["sample"] is what was probed)
        warn_at_user(f"{why}; pass time_budget=None to embed them all", SampledProbeWarning)
    else:
        probe_set.sample = given
    estimate = len(missing) / rate
    attrs["embedding_estimate_seconds"] = estimate  # for the inputs after the first call's
    if estimate > LONG_RUN_SECONDS:
        said = (f"embedding {len(missing) + len(first):,} inputs, about {_duration(estimate)} at the "
                f"{rate:.0f} inputs/s measured on the first {len(first)} (a rerun reads them from the vector cache)")
        notes.append(said)
        warn_at_user(said, EmbeddingTimeWarning)
    # Longest first: the bar's time left starts high and falls, and batches of like lengths pad little.
    ordered = dict(sorted(missing.items(), key=lambda item: -len(item[1])))
    with bar(progress, len(ordered), "embedding", unit="input") as handle:
        searcher.embed_missing(ordered, None if handle is None else handle.update)
    attrs.update(embedding_seconds=time.perf_counter() - started, embedding_note="; ".join(notes))
    return attrs


def embed_inputs(probe_set: ProbeSet, cuts: Sequence[Cut], searcher: Any, progress: ProgressBar) -> dict[str, Any]:
    """`embed_ahead`'s work for some rows (settings or whole chunkers' cuts) without a time budget or the truncation
    shares: their distinct inputs and the queries embedded through the vector cache, the wait estimated at a first
    call's rate (an `EmbeddingTimeWarning` when long) and shown; its attrs (`Ahead.attrs`)."""
    settings = [cut for cut in cuts if isinstance(cut, engine.ChunkSettings)]
    heads = [cut for cut in cuts if not isinstance(cut, engine.ChunkSettings)]
    return _embed_ahead(probe_set, settings, searcher, None, progress, heads)


def _fit(
    probe_set: ProbeSet, cut: tuple[Sequence[engine.ChunkSettings], Heads], searcher: Any, queries: list[str],
    allowed: float, whole: int,
) -> tuple[float, dict[str, str], str]:
    """The largest share (of a few tried) whose inputs (the settings' and the whole chunkers' of `cut`) embed within
    `allowed` inputs, those inputs, and a note."""
    share = min(0.5, max(MIN_SHARE, allowed / max(whole, 1)))
    missing: dict[str, str] = {}
    for attempt in range(6):  # each try shrinks by what the last one missed by: a few land within the budget
        per = _inputs(probe_set, *cut, share=share)
        missing = searcher.missing([text for group in [queries, *per] for text in group])
        if len(missing) <= allowed or share <= MIN_SHARE or attempt == 5:
            break
        share = max(MIN_SHARE, share * allowed / len(missing) * 0.95)
    within = "" if len(missing) <= allowed else \
        f" (the smallest sample, {MIN_SHARE:.0%}: the chunks holding the queries' targets alone exceed the budget)"
    why = (f"time_budget: embedding all {whole:,} inputs would take longer, so the probe runs on a sample{within}: "
           f"every query's target and {share:.0%} of the other chunks ({len(missing):,} inputs to embed); recall "
           "and mrr are estimates for the whole codebase, their 95% intervals include the sample's uncertainty "
           "(wider than a full run's), so the verdict may tell fewer settings apart; if it separates them, every "
           "setting is embedded and scored on the whole codebase to confirm it")
    return share, missing, why

