"""Whether a choice holds on newer commits: the setting chosen on the older commit-message queries, scored against
the runner-up there, on the newer ones (a temporal hold-out: what a user's future queries look like).

The index is built for the commits to come, not for those already made. Split the queries that come from commit
messages at the median commit time: choose the best and the runner-up on the older half alone, then ask whether
the choice still leads on the newer half, with a 95% interval of the difference (cluster jackknife, Student's t at
the newer half's clusters less one). It held when the interval is above 0, it was reversed when below, and these
queries cannot tell otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._pairs import jackknife, t_quantile

MIN_QUERIES = 20  # on each side of the split: fewer says nothing a user should act on


@dataclass(frozen=True)
class Timed:
    older: int
    newer: int
    chosen: int
    runner_up: int
    difference: float
    low: float
    high: float

    @property
    def outcome(self) -> str:
        """"held", "reversed" or "could not tell"."""
        return "held" if self.low > 0 else "reversed" if self.high < 0 else "could not tell"


def holdout(values: np.ndarray, cluster: np.ndarray, when: np.ndarray, costs: list[float],
            confidence: float) -> Timed | None:  # fmt: skip
    """The temporal hold-out of a verdict's scores (queries x settings), None with too few timed queries."""
    timed = np.isfinite(when)
    if timed.sum() < 2 * MIN_QUERIES:
        return None
    cut = float(np.median(when[timed]))
    older, newer = timed & (when <= cut), timed & (when > cut)
    if older.sum() < MIN_QUERIES or newer.sum() < MIN_QUERIES:
        return None
    means = values[older].mean(axis=0)
    order = sorted(range(values.shape[1]), key=lambda column: (-means[column], costs[column], column))
    chosen, runner = order[0], order[1]
    paired = values[newer, chosen] - values[newer, runner]
    ids = np.unique(cluster[newer], return_inverse=True)[1]
    sums = np.bincount(ids, weights=paired)
    sizes = np.bincount(ids).astype(np.float64)
    difference = float(paired.mean())
    # The pair's jackknife error and Student's t at the newer half's clusters less one: `_pairs`' own.
    error = float(jackknife(sums[None, :, None], sizes)[0, 0]) if len(sizes) > 1 else 0.0
    if error == 0:
        return Timed(int(older.sum()), int(newer.sum()), chosen, runner, difference, difference, difference)
    t = t_quantile(1 - (1 - confidence) / 2, len(sizes) - 1)
    return Timed(int(older.sum()), int(newer.sum()), chosen, runner, difference, difference - t * error,
                   difference + t * error)  # fmt: skip

