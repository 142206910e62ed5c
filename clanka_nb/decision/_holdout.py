"""Whether the choice holds on newer commits: on the newer half of the commit-message queries, is the setting the
verdict chose within the margin of (or better than) each setting it was chosen over? (A temporal check: the
index is built for the commits to come, not for those already made.)

The queries from commit messages are split at the median commit time. On the newer half, the choice minus each
other setting gets a cluster jackknife error and a one-sided bound at 1 - confidence shared among the comparisons
(Bonferroni; Student's t at the newer half's clusters less one). It **held** when every lower bound is above
-margin (non-inferiority: nothing the choice was preferred to beats it by the margin), it was **reversed** when
some setting beats it by more than the margin (an upper bound below -margin), and otherwise these queries cannot
tell. Its **power** is the chance it says "held" when the choice and every other setting are truly equal, at these
errors: at least 1 - the sum over the comparisons of each one's miss chance, Phi(margin / error - t). Below `POWERED`
the check is kept in the verdict's `holdout` but never quoted as confirming the choice.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from ._pairs import jackknife, t_quantile

MIN_QUERIES = 20  # on each side of the split: fewer says nothing a user should act on
POWERED = 0.8  # the power from which "held" is said as confirming the choice


@dataclass(frozen=True)
class Timed:
    """The newer half's comparisons of the choice with each other setting: (setting, choice minus it, low, high)."""

    older: int
    newer: int
    chosen: int
    against: list[tuple[int, float, float, float]]
    margin: float
    power: float

    @property
    def closest(self) -> tuple[int, float, float, float]:
        """The comparison nearest to failing: the lowest lower bound."""
        return min(self.against, key=lambda item: item[2])

    @property
    def outcome(self) -> str:
        """"held", "reversed" or "could not tell"."""
        if all(low > -self.margin for _, _, low, _ in self.against):
            return "held"
        if any(high < -self.margin for _, _, _, high in self.against):
            return "reversed"
        return "could not tell"


def holdout(values: np.ndarray, cluster: np.ndarray, when: np.ndarray, chosen: int, margin: float,
            confidence: float) -> Timed | None:  # fmt: skip
    """The newer commits' check of `chosen` (a column of `values`, queries x settings), None with too few timed
    queries on either side of the median commit time."""
    timed = np.isfinite(when)
    if timed.sum() < 2 * MIN_QUERIES:
        return None
    cut = float(np.median(when[timed]))
    older, newer = timed & (when <= cut), timed & (when > cut)
    if older.sum() < MIN_QUERIES or newer.sum() < MIN_QUERIES:
        return None
    ids = np.unique(cluster[newer], return_inverse=True)[1]
    sizes = np.bincount(ids).astype(np.float64)
    others = [column for column in range(values.shape[1]) if column != chosen]
    # One-sided at (1 - confidence) / comparisons each: every bound holds at once at `confidence`.
    t = t_quantile(1 - (1 - confidence) / len(others), len(sizes) - 1) if len(sizes) > 1 else np.inf
    against, misses = [], 0.0
    for other in others:
        paired = values[newer, chosen] - values[newer, other]
        difference = float(paired.mean())
        sums = np.bincount(ids, weights=paired)
        error = float(jackknife(sums[None, :, None], sizes)[0, 0]) if len(sizes) > 1 else 0.0
        reach = t * error if error > 0 else 0.0
        against.append((other, difference, difference - reach, difference + reach))
        misses += 1 - (NormalDist().cdf(margin / error - t) if error > 0 and np.isfinite(t) else 0.0)
    return Timed(int(older.sum()), int(newer.sum()), chosen, against, margin, max(0.0, 1 - misses))
