"""How sure a sweep can be: bootstrap intervals of recall and MRR, and the verdict from the queries' scores.

Each probed setting gives every query a rank (the first chunk that hits its target; none within the
deepest cut-off is a miss). A setting's recall@k and MRR are means over the queries, so their
uncertainty is the queries': the interval is a percentile bootstrap over clusters of queries (queries that
share a target or a commit are drawn together, with the verdict's own resampling; 2,000 resamples,
seeded: the same table gives the same numbers), widened about the estimate when a few clusters are heavy by
the verdict's own rule (`_decision.widened`), so a row's interval is the verdict's. The verdict over the rows is
`verdict` (`_decision`) on the rows' per-query scores: simultaneous intervals of every pair, a confidence set of the
best by elimination (each step removing the setting that trails another most clearly), the equivalence within a
margin, the choice by the cost named, the power of the test, a split-half check, the choice checked on newer
commits and the edge of the range at the choice. `compared` says the same test's answer about two settings in
words (the tuning panel's "now vs before"), on the same clusters of queries.

On a sample of the codebase (all chunks that hold some query's target, and a share of the others
as distractors), a query's rank counts only the distractors the sample kept, and each of them
stood for 1/share of the codebase's. The row's recall and MRR are computed from the estimated
full rank, 1 + (always-indexed chunks above the hit) + (sampled distractors above it) / share,
and each bootstrap resample draws the sampled distractors again (binomial thinning of that
estimated count): the interval is wider by what the sample costs in certainty. A query the
sample misses is a miss for the whole codebase too (it only has more chunks to rank above).
The estimated rank is unbiased, but 1/rank, rank <= k and a budget's step are not linear in it, so the
row's MRR, recall and budgeted columns are biased estimates: a sweep's verdict on them is only a screen,
confirmed on the whole codebase when it separates the settings (`_confirm`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..metrics import RECALL, Metric, parse_metric
from ..warning import ClankaWarning
from ._decision import MARGIN, cluster_counts, verdict, widened
from ._result import Verdict

CONFIDENCE = 0.95
RESAMPLES = 2000
SEED = 0
_BLOCK_CELLS = 2_000_000  # resample matrix cells computed at once (about 16 MB)
_KEPT_CELLS = 4_000_000  # resample counts kept for the next metric and row (about 32 MB: 2,000 clusters)


class FlatRecallWarning(ClankaWarning, UserWarning):
    """Recall is the same at every setting of a sweep: its queries do not tell the settings apart."""


@dataclass(frozen=True)
class Outcome:
    """One setting's result per query: `rank` of the first hit (0: none within `depth`); on a sample,
    `ahead_kept`, how many chunks ranked above the hit are always indexed (they hold some target), and
    `share`, the share of the other chunks indexed; `values`, every per-query metric by its column name
    (`_metrics.metric_arrays`: recall@k, mrr, precision, tokens@k, lines@k, budget_found@B, budget_covered@B),
    computed once from the rankings."""

    rank: np.ndarray
    depth: int
    ahead_kept: np.ndarray | None = None
    share: float | None = None
    values: Mapping[str, np.ndarray] = field(default_factory=dict)

    @property
    def sampled(self) -> bool:
        return self.share is not None and self.share < 1


def _score(ranks: np.ndarray, metric: Metric, depth: int) -> np.ndarray:
    """The metric per query from full ranks (np.inf: a miss; a rank past the depth searched is one too)."""
    return metric.of_ranks(np.where(ranks <= depth, ranks, np.inf))


def _check_depth(metric: Metric, depth: int) -> None:
    if metric.at is not None and metric.at > depth:
        msg = f"{metric.name} needs the top {metric.at} results, but only {depth} were searched; search deeper"
        raise ValueError(msg)


def _estimated_ranks(outcome: Outcome, picks: np.ndarray | slice) -> np.ndarray:
    """Full-codebase ranks (np.inf: a miss): observed, or on a sample 1 + the always-indexed chunks above the
    hit + the sampled distractors above it / share (each stood for 1/share of them)."""
    rank = outcome.rank[picks]
    found = rank > 0
    if not outcome.sampled:
        return np.where(found, rank, np.inf).astype(np.float64)
    assert outcome.ahead_kept is not None and outcome.share is not None
    kept = outcome.ahead_kept[picks]
    return np.where(found, 1 + kept + (rank - 1 - kept) / outcome.share, np.inf)


def expected(outcome: Outcome, metric: Metric | str) -> np.ndarray:
    """The metric per query: the observed one, or on a sample its estimate for the whole codebase (a budgeted
    metric's estimate is in `values` already: distractors were charged 1/share times)."""
    metric = parse_metric(metric)
    if metric.name in outcome.values and not (outcome.sampled and metric.from_rank):
        return outcome.values[metric.name]
    if not metric.from_rank:
        msg = f"metric {metric.name!r} is not one this outcome holds ({', '.join(outcome.values) or 'mrr, recall@k'})"
        raise ValueError(msg)
    _check_depth(metric, outcome.depth)
    return _score(_estimated_ranks(outcome, slice(None)), metric, outcome.depth)


def _draws(outcome: Outcome, metric: Metric, picks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The metric of the queries at `picks`; on a sample each draws its sampled distractors again (binomial
    thinning of the estimated full count), so resamples carry what the sample costs in certainty."""
    if not outcome.sampled:
        return _score(_estimated_ranks(outcome, picks), metric, outcome.depth)
    assert outcome.ahead_kept is not None and outcome.share is not None
    rank, kept = outcome.rank[picks], outcome.ahead_kept[picks]
    found = rank > 0
    full = np.rint(np.where(found, (rank - 1 - kept) / outcome.share, 0)).astype(np.int64)
    ranks = np.where(found, 1 + kept + rng.binomial(full, outcome.share) / outcome.share, np.inf)
    return _score(ranks, metric, outcome.depth)


class Bootstrap:
    """Resamples of the queries' clusters (`groups`: a cluster id per query; None: each query its own), made from
    the seed, so the same table always gives the same intervals: kept once made when they fit in
    `_KEPT_CELLS` (every metric of every row reads the same ones), else made again on each use. A cluster
    bootstrap: queries that share a target or a commit are drawn together, with `_decision`'s counts."""

    def __init__(self, queries: int, *, resamples: int = RESAMPLES, seed: int = SEED,
                 groups: np.ndarray | None = None) -> None:  # fmt: skip
        self.queries, self.resamples, self.seed = queries, resamples, seed
        self.groups = np.arange(queries) if groups is None else pd.factorize(np.asarray(groups))[0]
        if len(self.groups) != queries:
            msg = f"groups must have one cluster id per query ({queries}), got {len(self.groups)}"
            raise ValueError(msg)
        self.clusters = int(self.groups.max()) + 1 if queries else 0
        self._kept: np.ndarray | None = None

    def _counts(self) -> np.ndarray:
        if self._kept is not None:
            return self._kept
        counts = cluster_counts(self.clusters, self.resamples, self.seed)
        if counts.size <= _KEPT_CELLS:
            self._kept = counts
        return counts

    def means(self, outcome: Outcome, metric: Metric | str, stream: int) -> np.ndarray:
        """The metric's mean in each resample. `stream` numbers the setting: its draws of the sampled
        distractors (on a sample) are its own."""
        metric = parse_metric(metric)
        counts = self._counts()
        # A budgeted metric's per-query estimate is fixed: only the queries are resampled (see `row_intervals`).
        if not outcome.sampled or not metric.from_rank:
            sizes = np.bincount(self.groups, minlength=self.clusters).astype(np.float64)
            sums = np.bincount(self.groups, weights=expected(outcome, metric), minlength=self.clusters)
            return (counts @ sums) / (counts @ sizes)
        # On a sample each resample also draws every query's distractors again: one block of resamples at a time.
        out = []
        everyone = np.arange(self.queries)
        size = max(1, _BLOCK_CELLS // max(self.queries, 1))
        for number, start in enumerate(range(0, self.resamples, size)):
            block = counts[start : start + size]
            picks = np.broadcast_to(everyone, (len(block), self.queries))
            values = _draws(outcome, metric, picks, np.random.default_rng([self.seed, number, stream, 1]))
            weights = block[:, self.groups]  # each query weighs as often as its cluster was drawn
            out.append((weights * values).sum(axis=1) / weights.sum(axis=1))
        return np.concatenate(out) if out else np.zeros(0)


def interval(values: np.ndarray, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The central `confidence` percentile interval of resampled values."""
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(values, [tail, 100 - tail])
    return float(low), float(high)


def row_intervals(outcome: Outcome, metrics: Sequence[Metric | str], bootstrap: Bootstrap, stream: int,
                  confidence: float = CONFIDENCE) -> dict[str, float | None]:  # fmt: skip
    """`<metric>` (the estimate on a sample), `<metric>_low` and `<metric>_high` for each metric.

    On a sample, recall's and mrr's resamples also draw the distractors again; a budgeted metric's resample
    only the queries (its distractors' cost is the 1/share estimate), so its interval leaves the sample's own
    uncertainty out."""
    out: dict[str, float | None] = {}
    for metric in map(parse_metric, metrics):
        name, (low_name, high_name) = metric.name, metric.interval
        if bootstrap.queries == 0:
            out.update({name: None, low_name: None, high_name: None})
            continue
        low, high = interval(bootstrap.means(outcome, metric, stream), confidence)
        centre = float(expected(outcome, metric).mean())
        sizes = np.bincount(bootstrap.groups, minlength=bootstrap.clusters).astype(np.float64)
        wide_low, wide_high = widened(np.array([centre]), np.array([low]), np.array([high]), sizes, confidence)
        out.update({name: centre, low_name: float(wide_low[0]), high_name: float(wide_high[0])})
    return out


def settings_text(settings: dict[str, Any]) -> str:
    return ", ".join(f"{name}={value}" for name, value in settings.items() if value is not None)


def decide(
    outcomes: Sequence[Outcome],
    settings: Sequence[dict[str, Any]],
    cost: Sequence[float],
    *,
    metric: Metric | str,
    confidence: float = CONFIDENCE,
    resamples: int = RESAMPLES,
    seed: int = SEED,
    groups: np.ndarray | None = None,
    margin: float | None = MARGIN,
    when: np.ndarray | None = None,
    cost_name: str | None = None,
) -> Verdict:
    """The verdict of a sweep from each row's outcome: `verdict` on the rows' per-query scores of `metric` (one
    procedure for the sweep and for users' own tables), ties going to the lowest `cost` (the sweep's: the tokens
    or the chunks indexed, `cost_name` saying which); `groups`, a cluster id per query (None: each query its own);
    `margin`, the smallest difference that matters; `when`, each query's commit time (NaN: not from a commit)."""
    share = outcomes[0].share if outcomes else None
    if outcomes:
        scores = pd.DataFrame({row: expected(outcome, metric) for row, outcome in enumerate(outcomes)})
    else:
        scores = pd.DataFrame({0: np.zeros(0)})  # no row: the same "no queries" verdict
    out = verdict(scores, groups if outcomes else None, settings=dict(enumerate(settings)) if outcomes else None,
                  cost=list(cost) or None, margin=margin, when=when if outcomes else None,
                  confidence=confidence, resamples=resamples, seed=seed, metric_name=str(metric),
                  cost_name=cost_name)  # fmt: skip
    message = out.message
    if share is not None and share < 1 and out.queries:
        message += f"; on a {share:.0%} sample of distractors (estimates for the whole codebase)"
    return dataclasses.replace(out, sample=share, message=message)


def flat_recall(rows: Sequence[dict[str, Any]], cutoffs: Sequence[int]) -> str | None:
    """A sentence when every recall@k has one value across the rows (at least two, with queries), else None."""
    if len(rows) < 2 or not rows[0].get("queries"):
        return None
    recalls = [Metric(RECALL, cutoff).name for cutoff in cutoffs]
    values = {name: {row.get(name) for row in rows} for name in recalls}
    if any(len(seen) > 1 for seen in values.values()):
        return None
    shown = ", ".join(f"{name} = {next(iter(seen)):.3f}" for name, seen in values.items())
    return (f"recall is the same at all {len(rows)} settings ({shown}, {rows[0]['queries']} queries): these "
            "queries do not tell the settings apart (see the verdict)")


def compared(before: Outcome, now: Outcome, metric: Metric | str, groups: np.ndarray | None, *,
             confidence: float = CONFIDENCE, margin: float | None = None,
             resamples: int = RESAMPLES) -> str:  # fmt: skip
    """One setting against another on the same queries, in words (the tuning panel's "now" and "before"): the
    verdict's own test of two settings (`verdict` on their per-query scores), so queries that share a target or a
    commit are one cluster here as in a sweep's verdict, heavy clusters widen the interval by the same rule, and
    with a `margin` a change not told apart from 0 is tested for equivalence within it (two one-sided tests).

    Args:
        before: The setting compared against (per-query outcomes).
        now: The setting compared, on the same queries.
        metric: The metric compared (the verdict's).
        groups: A cluster id per query (the probe set's `groups`); None: each query its own cluster.
        confidence: The confidence of the interval and of the test.
        margin: The smallest difference that matters (None: no equivalence test).
        resamples: The verdict's wild bootstrap draws.

    Returns:
        "now vs before: <metric> <change> [<low>, <high>], <better | worse | the same | not distinguishable |
        equivalent within ±margin> on these <n> queries in <g> clusters (...)", or "" without queries.
    """
    queries = len(now.rank)
    if not queries:
        return ""
    scores = pd.DataFrame({"now": expected(now, metric), "before": expected(before, metric)})
    found = verdict(scores, groups, confidence=confidence, margin=margin, resamples=resamples, splits=0,
                    metric_name=str(metric))  # fmt: skip
    pair = found.pairs[0]  # now minus before: the columns' order
    if found.separable:
        word = "better" if pair.difference > 0 else "worse"
    elif bool(np.all(scores["now"].to_numpy() == scores["before"].to_numpy())):
        word = "the same"
    elif margin is not None and "now" in found.equivalent:
        word = f"equivalent within \u00b1{margin:g} (two one-sided tests)"
    else:
        word = "not distinguishable"
    name = parse_metric(metric).label
    p_value = 1.0 if found.p_value is None else found.p_value
    return (f"now vs before: {name} {pair.difference:+.3f} [{pair.low:+.3f}, {pair.high:+.3f}], {word} on these "
            f"{queries} queries in {found.clusters} clusters (the verdict's clustered test, p = {p_value:.2f})")
