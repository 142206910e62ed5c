"""The retrieval probe: how often search finds the code a query is about, at given chunk settings."""

from __future__ import annotations

import copy
import os
import zlib
from collections.abc import Iterable, Sequence
from typing import Any, Unpack, cast

import numpy as np
import pandas as pd

from ... import engine
from ...decision import SEED, Outcome
from ...defaults import MAX_FILE_SIZE
from ...engine.internals import ChunkHead, heads_of
from ...engine.progress import ProgressBar
from ...engine.settings import Settings, SourceKeywords, checked_keywords, setting_keywords
from ...engine.source import open_source
from ...engine.token_counts import TokenCounter
from ...engine.warn import warn_at_user
from ...frames import columns as _columns
from ...frames.chunks import settings_attrs
from ...frames.cycles import paused_cycle_collection
from ...frames.lines import LineIndex
from ...frames.source import Source
from ...metrics import PRECISION_AT, metric_of, parse_metric, probe_metrics
from ...warning import ClankaWarning
from ..queries import all_masks, check_queries, default_queries, query_groups, target_arrays, target_kinds
from ..search import BM25Searcher, ChunkBM25, Chunks, LineTokens, MaskedText, Searcher, code_tokens, search_many
from ._cost import ChunkCosts, budget_depth, charged
from ._metrics import metric_arrays
from ._options import DEFAULT_K, Probe, check_k, check_sample

PROBE: _columns.Schema = {
    "query": _columns.STRING,
    "path": _columns.STRING,
    "start_line": _columns.INT,
    "end_line": _columns.INT,
    "rank": _columns.INT,
    "precision": _columns.FLOAT,
}


class NoProbeQueriesWarning(ClankaWarning, UserWarning):
    """The probe has no query to score: its recall, MRR and precision are NA. The message says why."""


class ProbeSet:
    """A parsed codebase, its queries and its masked lines: all the probe needs that no setting changes.

    Build it once with `prepare_probe`, then score any number of settings with `probe_frame` or
    `probe_columns`: nothing is parsed, extracted or (for BM25) tokenized again. When there is no
    query, `.reason` says why and a `NoProbeQueriesWarning` is issued (once, here).

    Without `queries`, the queries are the doc comments' and the test names' and, when the codebase's root
    is the top of a git clone, the commit messages' (`history_queries` at its defaults), with a `source`
    column. Doc comments and test names are blanked out of the index whatever the queries.
    `.query_sources` counts the queries of each source, `.note` says it in words.
    """

    def __init__(
        self, codebase: engine.Codebase, queries: pd.DataFrame | None = None, *, mask: bool = True,
        sample: float | None = None, targets: str = "code", counter: TokenCounter | None = None,
        header: str = "chunker",
    ) -> None:
        if not isinstance(codebase, engine.Codebase):
            msg = f"ProbeSet needs an engine.Codebase, got {type(codebase).__name__}; prepare_probe(folder) parses one"
            raise TypeError(msg)
        self.codebase = codebase
        given_attrs = dict(queries.attrs) if isinstance(queries, pd.DataFrame) else {}
        if queries is None:
            found = default_queries(codebase, targets)
            self.queries, masks, reason = found.queries, found.masks, found.reason
            self.dropped: dict[str, dict[str, int]] = dict(found.queries.attrs.get("dropped", {}))
            self.query_sources, self.note = found.counts, found.note
            self.history_error = found.history_error  # why a clone's history was left out (None: read or not asked)
        else:
            masks = all_masks(codebase) if mask else {}
            self.history_error = None
            self.queries = check_queries(queries, codebase)
            reason = None if len(self.queries) else "the queries frame given has no rows"
            given = self.queries["source"].astype("string").fillna("given") if "source" in self.queries else None
            self.query_sources = {"given": len(self.queries)} if given is None else given.value_counts().to_dict()
            self.note = f"queries: {len(self.queries):,} given" + ("" if given is None else " (" + ", ".join(
                f"{count:,} {name}" for name, count in self.query_sources.items()) + ")")  # fmt: skip
            self.dropped = _given_dropped(given_attrs)
        # Per query: its cluster (queries sharing a target or a commit are one unit of the verdict), the source
        # it came from and the kind of its target (the sweep reports its metrics by both).
        self.groups = query_groups(self.queries)
        # Each query's commit time (NaN: not from a commit), for the verdict's check on newer commits.
        self.times = None if "committed" not in self.queries else \
            pd.to_numeric(self.queries["committed"], errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
        label = str(given_attrs.get("source", "given"))
        self.sources = self.queries["source"].astype("string").fillna(label) if "source" in self.queries \
            else pd.Series(label, index=self.queries.index, dtype="string")  # fmt: skip
        self.kinds = target_kinds(self.queries)
        self.reason = reason  # why there are no queries (None when there are)
        if reason is not None:
            msg = f"the retrieval probe has no queries, so recall, MRR and precision are NA: {reason}"
            warn_at_user(msg, NoProbeQueriesWarning)
        self.mask = mask
        self.index = LineIndex(codebase, codebase.files)
        self.masked = MaskedText(self.index, masks if mask else {}, header)
        files = {path: i for i, path in enumerate(self.index.paths)}
        self.target_file, self.target_start, self.target_end = target_arrays(self.queries, files)
        self._tokens: LineTokens | None = None
        self._bm25: ChunkBM25 | None = None
        self.sample = check_sample(sample)
        self._targets: np.ndarray | None = None  # prefix sums of "some query's target" over global lines
        self.costs = ChunkCosts(self.masked, counter)  # each chunk's tokens and lines, for the budgeted metrics

    @classmethod
    def of(cls, codebase: engine.Codebase, probe: Probe, counter: TokenCounter | None = None) -> ProbeSet:
        """The probe set of `probe`'s options (queries, mask, sample, targets); `counter` prices the chunks."""
        return cls(codebase, probe.queries, mask=probe.mask, sample=probe.sample, targets=probe.targets,
                   counter=counter, header=probe.header)  # fmt: skip

    def __repr__(self) -> str:
        sample = "" if self.sample is None else f", sample={self.sample}"
        return f"ProbeSet({self.codebase!r}, queries={len(self.queries)}, mask={self.mask}{sample})"

    def whole(self) -> ProbeSet:
        """This probe set over the whole codebase (no sample): the same queries, targets, masks, clusters and
        tokenized lines, shared rather than extracted again, so confirming a sampled verdict costs only the
        rankings (and, with an embedder, the inputs the sample left out)."""
        out = copy.copy(self)  # shallow: every array and cache is read-only or keyed by the chunks searched
        out.sample = None
        return out

    def chunks(self, settings: engine.ChunkSettings) -> Chunks:
        """The chunks indexed at one setting: all, or on a sample those holding a target and a share of the rest."""
        # Heads, not chunks: the index reads (masked) lines itself, so no chunk's text is joined here.
        return self.chunks_of([[] if text is None else heads_of(text, settings) for text in self.index.texts])

    def chunks_of(self, heads_per_file: Sequence[Sequence[ChunkHead]]) -> Chunks:
        """The chunks indexed for heads cut by anyone (a whole chunker's, one list per file of `index.paths`, in
        that order), sampled as `chunks` samples the engine's: only the cutting differs."""
        if len(heads_per_file) != len(self.index.paths):
            msg = (f"chunks_of needs one list of heads per file of the probe's codebase ({len(self.index.paths)}), "
                   f"got {len(heads_per_file)}: cut every file of index.paths, in order")
            raise ValueError(msg)
        chunks = Chunks(self.index, heads_per_file)
        if self.sample is None:
            return chunks
        if self._targets is None:
            starts = self.index.positions(self.target_file, self.target_start)
            ends = self.index.positions(self.target_file, self.target_end)
            held = self.index.chunk_counts(starts, ends) > 0
            self._targets = np.concatenate([[0], np.cumsum(held, dtype=np.int64)])
        last = chunks.position + (chunks.end - chunks.start)
        always = self._targets[last + 1] - self._targets[chunks.position] > 0
        keys = np.asarray([zlib.crc32(path.encode("utf-8", "surrogatepass")) for path in self.index.paths],
                          dtype=np.uint64)  # fmt: skip
        return chunks.subset(always | drawn(keys[chunks.file], chunks.start, chunks.end, self.sample), always)

    def rankings(self, chunks: Chunks, searcher: Searcher, depth: int) -> np.ndarray:
        """Ids of the top `depth` chunks for every query (one row each, -1 where fewer were found)."""
        if isinstance(searcher, BM25Searcher) and searcher.tokenizer is code_tokens:
            # Each line's tokens, and where the queries' tokens are, are found once for all settings:
            # a setting is scored from its chunks' line ranges (the same rankings as bm25s's index).
            with paused_cycle_collection():
                if self._tokens is None:
                    self._tokens = LineTokens(self.masked)
                if self._bm25 is None or (self._bm25.k1, self._bm25.b) != (searcher.k1, searcher.b):
                    self._bm25 = ChunkBM25(self._tokens, self.queries["query"].tolist(), k1=searcher.k1, b=searcher.b)
                return self._bm25.rankings(chunks, depth)
        searcher.index(self.masked.texts(chunks))
        found = search_many(searcher, self.queries["query"].tolist(), depth)
        ids = np.full((len(self.queries), depth), -1, dtype=np.int64)
        for row, hits in enumerate(found):
            hits = list(hits)[:depth]
            ids[row, : len(hits)] = hits
        if ids.size and (ids.max() >= len(chunks) or ids.min() < -1):
            msg = (
                f"{searcher!r} returned ids outside 0..{len(chunks) - 1}; "
                "search must return positions in the list of indexed texts"
            )
            raise ValueError(msg)
        return ids


def _given_dropped(attrs: dict[str, Any]) -> dict[str, dict[str, int]]:
    """What a given queries frame's attrs say was dropped, by source: a source's own frame counts reasons
    (`attrs["source"]` names it), a combined one (the default queries) already holds them by source."""
    dropped = attrs.get("dropped")
    if not isinstance(dropped, dict) or not dropped:
        return {}
    if all(isinstance(value, dict) for value in dropped.values()):
        return {str(source): dict(reasons) for source, reasons in dropped.items()}
    return {str(attrs.get("source", "given")): dict(dropped)}


def prepare_probe(
    source: Source = None,
    probe: Probe | None = None,
    *,
    paths: Iterable[str | os.PathLike[str]] | None = None,
    progress: ProgressBar = None,
    languages: str | None = None, max_file_size: str | int = MAX_FILE_SIZE, workers: int | None = None,
) -> ProbeSet:
    """Parse (unless `source` is a Codebase) and extract the queries once, for scoring many settings: the probe
    set of `probe`'s options (`ProbeSet.of`: its queries, mask, sample, targets and header; None is `Probe()`)."""
    checked = _checked(probe)  # before the parse: a wrong type fails at once
    settings = Settings(languages=languages, max_file_size=max_file_size, workers=workers).warned()
    opened = open_source(source, settings, paths=paths, progress=progress)
    return ProbeSet.of(opened.codebase, checked)


def drawn(keys: np.ndarray, starts: np.ndarray, ends: np.ndarray, share: float, seed: int = SEED) -> np.ndarray:
    """Whether each chunk (its file's key, first and last line) is in a sample of `share`: a hash of the three,
    so a chunk that several settings share is in or out of all their samples alike, in every run."""
    mixed = (keys * np.uint64(0x9E3779B97F4A7C15)) ^ (starts.astype(np.uint64) * np.uint64(0xBF58476D1CE4E5B9)) \
        ^ (ends.astype(np.uint64) * np.uint64(0x94D049BB133111EB)) ^ np.uint64(seed)
    for shift, factor in ((30, 0xBF58476D1CE4E5B9), (27, 0x94D049BB133111EB)):  # splitmix64's finalizer
        mixed = (mixed ^ (mixed >> np.uint64(shift))) * np.uint64(factor)
    mixed ^= mixed >> np.uint64(31)
    return cast("np.ndarray", (mixed >> np.uint64(11)).astype(np.float64) / 2.0**53 < share)


def _ahead_kept(chunks: Chunks, ids: np.ndarray, rank: np.ndarray) -> np.ndarray | None:
    """On a sample: per query, how many chunks ranked above its first hit are always indexed."""
    if chunks.always is None:
        return None
    found = ids >= 0
    kept = np.cumsum(found & chunks.always[np.where(found, ids, 0)], axis=1)
    before = np.clip(rank - 2, 0, None)
    ahead = np.take_along_axis(kept, before[:, None], axis=1)[:, 0] if kept.size else np.zeros(len(rank), np.int64)
    return np.where(rank > 1, ahead, 0)


def probe_frame(prepared: ProbeSet, settings: engine.ChunkSettings, probe: Probe | None = None) -> pd.DataFrame:
    """The per-query probe frame at one setting of an already prepared probe (see `probe`)."""
    return probe_outcome(prepared, settings, probe)[0]


def heads_frame(
    prepared: ProbeSet, heads: Sequence[Sequence[ChunkHead]], probe: Probe, label_settings: dict[str, Any],
) -> pd.DataFrame:
    """The per-query probe frame of chunks cut by a whole chunker (one list of heads per file of the prepared
    codebase, in order), as `probe_frame` gives a setting's: Dask's sweep pools such frames of every root.
    `label_settings` says what cut them (the frame's `attrs["chunker"]`)."""
    with paused_cycle_collection():
        chunks = prepared.chunks_of(heads)
    return chunks_outcome(prepared, chunks, probe, {"chunker": label_settings})[0]


def _checked(probe: object) -> Probe:
    if probe is None:
        return Probe()
    if not isinstance(probe, Probe):
        msg = f"probe must be a Probe(...) of the probe's options (searcher, k, queries...), got {probe!r}"
        raise TypeError(msg)
    return probe


def _depth(probe: Probe, costs: np.ndarray, count: int) -> int:
    """How deep to search: the deepest cut-off, precision's 5 and as many chunks as the largest budget can take
    of the cheapest ones (so no budget stops short for want of ranked chunks), never more than every chunk."""
    wanted = max(probe.cutoffs[-1], PRECISION_AT, budget_depth(costs, probe.budgets[-1]))
    return max(1, min(wanted, count))


def probe_outcome(
    prepared: ProbeSet, settings: engine.ChunkSettings, probe: Probe | None = None,
) -> tuple[pd.DataFrame, Outcome]:
    """`probe_frame`, and the per-query outcome (every metric's array) the sweep's columns, intervals and verdict
    are computed from. `frame.attrs["index_tokens"]` is the tokens of every chunk indexed (on a sample, the
    estimate for the whole codebase): the verdict's cost when it breaks a tie."""
    checked = _checked(probe)  # checked before any chunking
    with paused_cycle_collection():
        chunks = prepared.chunks(settings)
    return chunks_outcome(prepared, chunks, checked, settings_attrs(prepared.codebase, settings))


def chunks_outcome(
    prepared: ProbeSet, chunks: Chunks, probe: Probe | None, attrs: dict[str, Any],
) -> tuple[pd.DataFrame, Outcome]:
    """`probe_outcome` of chunks already chosen (`ProbeSet.chunks` or `.chunks_of`): one code path for the engine's
    settings and for whole chunkers' cuts; `attrs` says what cut them (the settings' attrs, or a chunker's)."""
    probe = _checked(probe)
    tokens = prepared.costs.tokens(chunks)
    price = charged(tokens, chunks, prepared.sample)
    ids = prepared.rankings(chunks, probe.engine, _depth(probe, price, len(chunks)))
    target = (prepared.target_file, prepared.target_start, prepared.target_end)
    values = metric_arrays(ids, (chunks.file, chunks.start, chunks.end), tokens, price, target, probe.cutoffs,
                           probe.budgets)  # fmt: skip
    rank = values.pop("rank")
    outcome = Outcome(rank, probe.cutoffs[-1], _ahead_kept(chunks, ids, rank), prepared.sample, values)
    queries = prepared.queries
    columns: dict[str, Any] = {name: queries[name] for name in ("query", "path", "start_line", "end_line")}
    columns["rank"] = pd.arrays.IntegerArray(rank, rank == 0)  # 0 stands for "not found": NA
    schema = dict(PROBE)
    for name, array in values.items():
        if not parse_metric(name).from_rank:  # recall and mrr follow from rank, which the frame has
            columns[name] = array
            schema[name] = _columns.FLOAT
    attrs = {
        **attrs,
        "k": list(probe.cutoffs),
        "budget": list(probe.budgets),
        "metric": probe.metric,
        "searcher": repr(probe.engine),
        "mask": prepared.mask,
        "chunks": len(chunks),
        "index_tokens": float(price.sum()),
        "index_chunks": float(charged(np.ones(len(chunks)), chunks, prepared.sample).sum()),
        "token_counter": prepared.costs.name,  # what counted the tokens of tokens@k and the budgets
        "probe_reason": prepared.reason,  # why there are no queries (None when there are)
        "query_sources": prepared.query_sources,  # source -> queries it gave
        "probe_note": prepared.note,
        "sample": prepared.sample,  # the share of the other chunks indexed beside the targets (None: all)
    }
    return _columns.build(columns, schema, attrs), outcome


@checked_keywords
def probe_summary(frame: pd.DataFrame, k: int | Iterable[int] | None = None) -> pd.DataFrame:
    """One row: queries, recall@k for every cut-off, mrr, precision, and the means of the frame's tokens@k,
    lines@k, budget_found@B and budget_covered@B columns, of a `probe` frame.

    recall@k is the share of queries whose target is in the top k chunks; mrr the mean of 1/rank
    (0 for a query whose target is not in the top max(k)); the rest the means of the per-query columns
    (see `probe`). `k` defaults to the frame's own cut-offs (`frame.attrs["k"]`), else (1, 5, 10);
    none may exceed the depth the frame was searched to. All are NA when there are no queries.

    Args:
        frame: A `probe` frame.
        k: The cut-offs of recall@k; None: the frame's own (`frame.attrs["k"]`), else (1, 5, 10).

    Returns:
        One row: queries, recall@k, mrr, precision and the means of the cost and budget columns.

    Raises:
        ValueError: A cut-off exceeds the depth the frame was searched to.

    Examples:
        >>> cn.probe_summary(cn.probe(chunk_size=40), k=[1, 5])
    """
    missing = [name for name in ("rank", "precision") if name not in frame.columns]
    if missing:
        msg = f"the frame has no {', '.join(missing)} column; pass the frame probe() returns"
        raise KeyError(msg)
    searched = frame.attrs.get("k", DEFAULT_K)
    cutoffs = check_k(searched if k is None else k)
    if cutoffs[-1] > max(searched):
        msg = f"k={cutoffs[-1]} is deeper than the probe searched (up to {max(searched)}); run probe(..., k=...) again"
        raise ValueError(msg)
    count = len(frame)
    rank = frame["rank"].to_numpy(dtype=np.int64, na_value=0)
    row: dict[str, Any] = {"queries": count}
    for metric in probe_metrics(cutoffs, ()):
        if metric.from_rank:
            row[metric.name] = float(metric.of_ranks(rank).mean()) if count else None
    # The frame's own per-query columns: precision, its budgets', and the costs at the cut-offs asked for.
    kept = [name for name, metric in zip(frame.columns, map(metric_of, frame.columns), strict=True)
            if metric is not None and not metric.from_rank
            and (metric.higher_is_better or metric.at in cutoffs)]  # fmt: skip
    for name in kept:
        row[name] = float(frame[name].astype("float64").mean()) if count else None
    schema = {name: _columns.INT if name == "queries" else _columns.FLOAT for name in row}
    return _columns.build({name: [value] for name, value in row.items()}, schema, dict(frame.attrs))


def probe_columns(
    prepared: ProbeSet, settings: engine.ChunkSettings, probe: Probe | None = None,
) -> dict[str, float | int | None]:
    """The `probe_summary` row of one setting as a dict (keys: queries, recall@<k>, mrr, precision, tokens@<k>,
    lines@<k>, budget_found@<B>, budget_covered@<B>). Pass one `Probe` for all settings (its searcher is
    re-indexed at each)."""
    summary = probe_summary(probe_frame(prepared, settings, probe))
    values = {name: summary[name].iloc[0] for name in summary.columns}  # per column: queries stays an int
    return {name: None if pd.isna(value) else value.item() if hasattr(value, "item") else value
            for name, value in values.items()}


@setting_keywords
def probe(
    source: Source = None,
    probe: Probe | None = None,
    *,
    paths: Iterable[str | os.PathLike[str]] | None = None,
    progress: ProgressBar = None,
    settings: Settings | None = None, **given: Unpack[SourceKeywords],
) -> pd.DataFrame:
    """How well search finds the code each query is about, with the chunks of one setting.

    `source` is a folder, one file, a parsed `engine.Codebase` (reused: nothing is parsed again), a
    chunk frame (its codebase at its settings, unless given) or None for the sample.
    `probe` is a `Probe` (default `Probe()`): its searcher, cut-offs, budgets, queries, mask, targets, the same
    object every other function takes as `probe=`.
    The queries default to `probe_queries(source)`: one per documented declaration, the target
    being the declaration's code, in every language extended mode knows (whatever `languages`
    is: it only decides how the files are chunked), plus test names and commit messages. With no query
    at all, a `NoProbeQueriesWarning` says why (and so does `frame.attrs["probe_reason"]`).
    The chunks are indexed as clanka embeds them (metadata header, numbered lines); with
    `mask=True` every doc comment's lines are blanked first, so a hit means the code was found,
    not the comment the query was taken from.

    One row per query: query, path, start_line, end_line (the target); rank, the 1-based
    position of the first retrieved chunk of that file overlapping the target lines (NA when none
    is in the top max(k)); precision, the target lines among the lines of the top 5 chunks (lines
    of the target each chunk holds, summed, over the lines of those chunks; 0 when nothing was
    found): small chunks that hit count more than huge ones; tokens@<k> and lines@<k>, what the top k
    chunks cost (tokens of their embedding inputs by the chars/4 estimate, `attrs["token_counter"]`);
    for each budget B, budget_found@<B> (1 when a chunk taken within B tokens, in rank order, hits the
    target) and budget_covered@<B> (the share of the target's lines those chunks hold).
    `probe_summary(frame)` sums it up.

    Args:
        source: A folder, one file, an `engine.Codebase`, a chunk frame, or None for the sample codebase.
        probe: The probe's options (`Probe`); None is `Probe()`.
        paths: Only the queries whose targets are in these files; None: every file.
        progress: None shows a bar only for work over a second, False never, True always.

    Returns:
        One row per query: its target, the rank of the first chunk that holds it, and what the top chunks cost.

    Examples:
        >>> frame = cn.probe("my-repo", chunk_size=40)
        >>> cn.probe_summary(frame)
    """
    checked = _checked(probe)
    if checked.confirm is not None:
        msg = ("Probe(confirm=) screens a sweep's grid with BM25 and confirms it with your model; cn.probe scores one "
               "setting: pass Probe(embed=model) to score it by your model, or use cn.sweep")
        raise ValueError(msg)
    settings = Settings(**given).over(settings)
    opened = open_source(source, settings, paths=paths, progress=progress)
    return probe_frame(ProbeSet.of(opened.codebase, checked), opened.settings.chunk, checked)
