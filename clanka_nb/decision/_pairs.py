"""Every pair of settings at once: simultaneous intervals of their differences, and what a true difference of a
given size would be found with, from one studentized max-t procedure over clustered queries.

For each pair (a, b) of settings the difference of their mean scores gets a cluster-robust standard error (CR1:
the clusters' residual sums, G/(G-1)), and t = difference / error. One critical value c serves every pair: the
95th percentile of the largest |t| over all pairs when the clusters' residuals are drawn again with random
weights (a wild cluster bootstrap with Webb's six-point weights, studentized within each draw, so the error's
own noise with few clusters is carried). Because the largest |t| over every pair is one statistic, the chance
that any interval misses its truth is held at 5% whatever the number of settings and however alike their scores
are (neighbouring chunk sizes are correlated, and the max-t's critical value follows their correlation: it is
simulated from the data). Intervals are difference +- c x error; a pair is told apart when its interval leaves 0.

The same c says what the procedure can find: a true difference D between two settings is found (|t| > c) with
probability about Phi(D / error - c), so the difference found 80% of the time is (c + z(0.8)) x error. That is the
power of this procedure at this number of settings, at the spread of these queries: neither a Bonferroni bound
nor an assumption of independent settings.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

POWER = 0.8
_WEBB = np.array([-math.sqrt(1.5), -1.0, -math.sqrt(0.5), math.sqrt(0.5), 1.0, math.sqrt(1.5)])
_BLOCK_CELLS = 4_000_000  # draw x cluster x pair cells computed at once (about 32 MB)


@dataclass(frozen=True)
class Pairs:
    """Every pair (a < b) of settings: the difference of their means (a minus b), its cluster-robust standard
    error (0 when the two differ by the same amount in every cluster), and the one critical value of |t|."""

    a: np.ndarray
    b: np.ndarray
    difference: np.ndarray
    error: np.ndarray
    critical: float
    p_value: float  # of "no pair differs": how often the largest |t| drawn is at least the one seen
    seen: np.ndarray  # per pair: |t| (inf: the same nonzero lead in every cluster; 0: no spread, no lead)
    drawn: np.ndarray  # per wild-bootstrap draw and pair: |t| under "no pair differs" (draws x pairs)
    widening: float = 1.0  # how much a few heavy clusters widened the critical value (`_few_clusters`)
    effective: float = 0.0  # the effective number of clusters the widening used (by size and by spread)

    @property
    def low(self) -> np.ndarray:
        return self.difference - self._reach()

    @property
    def high(self) -> np.ndarray:
        return self.difference + self._reach()

    def _reach(self) -> np.ndarray:
        # No spread, no reach (an infinite critical value with one cluster included).
        return np.where(self.error > 0, self.critical * np.where(self.error > 0, self.error, 1.0), 0.0)

    def between(self, first: int, second: int) -> tuple[float, float, float, float]:
        """(difference, low, high, error) of `first` minus `second`."""
        hit = np.flatnonzero(((self.a == first) & (self.b == second)) | ((self.a == second) & (self.b == first)))
        index = int(hit[0])
        sign = 1.0 if self.a[index] == first else -1.0
        d, low, high = (sign * float(x[index]) for x in (self.difference, self.low, self.high))
        return d, min(low, high), max(low, high), float(self.error[index])

    def detectable(self, first: int, second: int) -> float | None:
        """The true difference between these two that the all-pairs test finds with POWER (None: no spread):
        (c + z(POWER)) x their error, c being simulated from these queries at this number of settings."""
        error = self.between(first, second)[3]
        if error == 0:
            return None
        return (self.critical + NormalDist().inv_cdf(POWER)) * error


def simultaneous(sums: np.ndarray, sizes: np.ndarray, confidence: float, resamples: int, seed: int,
                 squares: np.ndarray | None = None) -> Pairs:  # fmt: skip
    """The pairs of the settings whose per-cluster score sums are `sums` (clusters x settings), `sizes` queries
    per cluster: differences, errors and the max-t critical value at `confidence`. `squares` (clusters x pairs, the
    pairs in `np.triu_indices` order): each cluster's sum of its queries' squared paired differences, so that a
    cluster whose queries vary more weighs more in the effective number of clusters (None: by its size alone)."""
    clusters, settings = sums.shape
    a, b = np.triu_indices(settings, k=1)
    queries = float(sizes.sum())
    paired = sums[:, a] - sums[:, b]  # clusters x pairs
    difference = paired.sum(axis=0) / queries
    residual = paired - sizes[:, None] * difference[None, :]
    error = jackknife(paired[None], sizes)[0] if clusters > 1 else np.zeros_like(difference)
    error = np.where(error < 1e-12 * np.maximum(np.abs(difference), 1.0), 0.0, error)
    spread = error > 0
    # The same lead in every cluster is certain on these queries (|t| infinite); no spread and no lead is no |t|.
    seen = np.where(spread, np.abs(difference) / np.where(spread, error, 1.0), np.where(difference != 0, np.inf, 0.0))
    if clusters < 2 or not spread.any():
        none = np.zeros((1, len(a)))
        return Pairs(a, b, difference, error, math.inf if clusters < 2 else 0.0, 1.0 if clusters < 2 else 0.0,
                     seen if clusters >= 2 else np.zeros_like(seen), none)  # fmt: skip
    moved, errors = (np.zeros((resamples, len(a))) for _ in range(2))
    moved[:, spread], errors[:, spread] = _pair_draws(residual[:, spread], sizes, queries, resamples, seed)
    with np.errstate(divide="ignore", invalid="ignore"):
        drawn = np.where(errors > 0, np.abs(moved) / np.where(errors > 0, errors, 1.0), 0.0)
    effective = effective_clusters(sizes)
    if squares is not None:
        effective = min(effective, effective_clusters(variance_weights(paired, squares, sizes)))
    widening = _few_clusters(drawn.max(axis=1), len(sizes), effective, confidence)
    drawn *= widening
    largest = drawn.max(axis=1)
    critical = float(np.quantile(largest, confidence, method="higher"))
    p_value = float((1 + np.count_nonzero(largest >= seen.max() * (1 - 1e-12))) / (resamples + 1))
    return Pairs(a, b, difference, error, critical, p_value, seen, drawn, widening, effective)


def _few_clusters(largest: np.ndarray, clusters: int, effective: float, confidence: float) -> float:
    """How much wider than the bootstrap's the critical value must be when a few clusters hold much of the queries'
    variance.

    The draws treat the G clusters as G units; queries piled in a few clusters are fewer. The critical value is
    scaled as Student's t would scale it from G - 1 to `effective` - 1 degrees of freedom at the same tail.
    `effective` is the smaller of Kish's effective number by the clusters' sizes and the same count with each
    cluster weighed by its share of the differences' variance (`variance_weights`): a heavy cluster whose queries
    vary more than the others' holds more than its share of queries of the error's own noise. By simulation with
    one cluster holding a quarter of 200 queries, false winners at 2 settings were 5.1% [4.7%, 5.6%] of 10,000 by
    size alone, 6.1% of 2,000 where that cluster's targets were of middling difficulty (the most variable); with the
    spread counted 5.0% [4.4%, 5.5%] and 4.4% [3.9%, 4.9%] of 6,000 each (tests/decision/test_verdict_statistics.py,
    benchmarks/bench_verdict_sim.py)."""
    if clusters < 3 or effective >= clusters - 0.5:
        return 1.0
    tail = (1 - NormalDist().cdf(float(np.quantile(largest, confidence, method="higher")))) * 2
    return t_quantile(1 - tail / 2, max(effective - 1, 1.0)) / t_quantile(1 - tail / 2, clusters - 1)


SHRINK = 2.0  # pseudo-queries of the pooled within-cluster variance added to each cluster's own


def variance_weights(paired: np.ndarray, squares: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Each cluster's share of the variance of the pairs' mean differences, as a weight per cluster: its queries
    times their variance about the cluster's own mean (shrunk toward the pooled within-cluster variance by `SHRINK`
    pseudo-queries, so a cluster of two is not weighed by one difference), averaged over the pairs. The spread
    within a cluster says nothing about its mean, so these weights are independent of the t's they widen."""
    within = np.maximum(squares - paired**2 / sizes[:, None], 0.0)  # clusters x pairs
    freedom = sizes - 1
    pooled = within.sum(axis=0) / max(float(freedom.sum()), 1.0)  # per pair
    own = (within + SHRINK * pooled[None, :]) / (freedom + SHRINK)[:, None]
    share = sizes[:, None] * own
    total = share.sum(axis=0)
    usable = total > 0
    if not usable.any():
        return sizes
    return (share[:, usable] / total[None, usable]).mean(axis=1)


def row_widening(sizes: np.ndarray, confidence: float) -> float:
    """How much wider than the cluster bootstrap's a setting's own interval must be when a few clusters hold many
    queries: Student's t at Kish's effective clusters less one over t at the clusters less one, at the interval's
    tail (the pairs' rule, `_few_clusters`, at the row's own level). 1 when the clusters are about even.

    By simulation with one cluster holding a quarter of 200 queries (tests/decision/test_verdict_statistics.py),
    each setting's 95% interval covered 92.6-93.9% of the time as the bootstrap gives it and 94.7-96.3% widened."""
    clusters = len(sizes)
    kish = effective_clusters(sizes)
    if clusters < 3 or kish >= clusters - 0.5:
        return 1.0
    level = 1 - (1 - confidence) / 2
    return t_quantile(level, max(kish - 1, 1.0)) / t_quantile(level, clusters - 1)


def t_quantile(level: float, freedom: float) -> float:
    """Student's t quantile by the Cornish-Fisher expansion in 1/freedom (within 1% from 3 degrees on)."""
    z = NormalDist().inv_cdf(level)
    v = freedom
    return (z + (z**3 + z) / (4 * v) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3))  # fmt: skip


def jackknife(paired: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """The cluster jackknife standard error of each mean difference (draws x clusters x pairs -> draws x pairs):
    the spread of the mean with each cluster left out in turn. A heavy cluster moves the mean most when it is left
    out, so it widens the error as much as it weighs (the sandwich error's own error grows with it)."""
    clusters = paired.shape[1]
    total = paired.sum(axis=1, keepdims=True)
    left = (total - paired) / (sizes.sum() - sizes)[None, :, None]
    centred = left - left.mean(axis=1, keepdims=True)
    return np.sqrt((clusters - 1) / clusters * np.sum(centred**2, axis=1))


def _pair_draws(residual: np.ndarray, sizes: np.ndarray, queries: float, resamples: int,
                seed: int) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Each pair's difference and its own jackknife error in each of `resamples` wild-bootstrap draws (residuals
    centred: the null), draws x pairs each."""
    clusters, pairs = residual.shape
    rng = np.random.default_rng([seed, 4])
    out, out_errors = np.empty((resamples, pairs)), np.empty((resamples, pairs))
    rows = max(1, _BLOCK_CELLS // (clusters * pairs + 1))
    for start in range(0, resamples, rows):
        count = min(rows, resamples - start)
        weights = _WEBB[rng.integers(0, 6, size=(count, clusters))]
        drawn = weights[:, :, None] * residual[None, :, :]  # draws x clusters x pairs
        out[start : start + count] = drawn.sum(axis=1) / queries
        out_errors[start : start + count] = jackknife(drawn, sizes)
    return out, out_errors


def equivalent(pairs: Pairs, best: int, others: list[int], margin: float) -> list[int]:
    """The settings of `others` whose difference from `best` lies within (-margin, +margin) by the simultaneous
    intervals: two one-sided tests for each, at the family's level (each interval's ends are one-sided bounds at
    half its miss rate or less, so "equivalent" is said wrongly at most that often, for all of them together)."""
    out = []
    for other in others:
        _, low, high, _ = pairs.between(best, other)
        if -margin < low and high < margin:
            out.append(other)
    return out


def effective_clusters(sizes: np.ndarray) -> float:
    """Kish's effective number of clusters, (sum n)^2 / sum n^2: a few heavy clusters count as few."""
    total = float(sizes.sum())
    return total * total / float(np.sum(sizes.astype(np.float64) ** 2)) if total else 0.0
