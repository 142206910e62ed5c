"""The checks beside the decision: random halves of the clusters, the edge of the range swept, and the warnings
about the queries themselves (few of them, few clusters, a heavy cluster, few effective clusters)."""

from __future__ import annotations

from collections.abc import Mapping
from statistics import NormalDist
from typing import Any

import numpy as np

from ..defaults import SETTINGS
from ._input import plain
from ._pairs import POWER, Pairs, effective_clusters
from ._result import Edge

FEW = 30  # fewer queries (or clusters) than this: warned
HEAVY = 0.2  # one cluster holding more than this share of the queries: warned (it weighs as much in every mean)
FEW_EFFECTIVE = 8  # fewer effective clusters than this: the intervals may cover less than they say (simulated)
# A numeric setting's own floor (the settings table's): a choice there is not advice to sweep past it.
FLOORS = {setting.name: setting.floor for setting in SETTINGS if setting.floor is not None}


def split_agreement(sums: np.ndarray, costs: list[float], splits: int, seed: int) -> int | None:
    """In how many of `splits` random halves of the clusters both halves pick the same best (None: < 2 clusters)."""
    clusters, settings = sums.shape
    if clusters < 2 or splits < 1:
        return None
    sizes_half = clusters // 2
    rng = np.random.default_rng([seed, 3])
    tie = np.asarray(costs, dtype=np.float64)
    agree = 0
    for _ in range(splits):
        mask = np.zeros(clusters, dtype=bool)
        mask[rng.permutation(clusters)[:sizes_half]] = True
        # Sum, not mean, ranks the same within a half; lexsort: the last key is the first one compared.
        first, second = (int(np.lexsort((np.arange(settings), tie, -sums[half].sum(axis=0)))[0])
                         for half in (mask, ~mask))  # fmt: skip
        agree += first == second
    return agree


def edges(column: int, named: list[Mapping[str, Any]] | None) -> list[Edge]:
    """Each numeric setting whose value at `column` is the largest or smallest swept (of at least two values)."""
    if named is None:
        return []
    out = []
    for key, value in named[column].items():
        swept = [v for v in (row.get(key) for row in named) if isinstance(v, int | float) and not isinstance(v, bool)]
        if len(swept) < len(named) or len(set(swept)) < 2:  # a setting not numeric at every row has no edge
            continue
        if value == max(swept):
            out.append(Edge(str(key), plain(value), "largest"))
        elif value == min(swept) and not (key in FLOORS and value <= FLOORS[key]):  # nothing below a floor to sweep
            out.append(Edge(str(key), plain(value), "smallest"))
    return out


def query_warnings(queries: int, sizes: np.ndarray, grouped: bool) -> list[str]:
    """What the queries themselves limit: few queries, few clusters, one heavy cluster."""
    out = []
    if queries < FEW:
        out.append(f"only {queries} queries (fewer than {FEW}): the intervals and the test are rough")
    if grouped and len(sizes) < FEW:
        out.append(f"only {len(sizes)} clusters of queries (fewer than {FEW}): clusters, not queries, are the "
                   "unit of the test and of the intervals")  # fmt: skip
    if grouped and sizes.max() > HEAVY * queries and len(sizes) > 1:
        out.append(f"one cluster holds {int(sizes.max())} of the {queries} queries ({sizes.max() / queries:.0%}, "
                   f"over {HEAVY:.0%}): it weighs that much in every mean")  # fmt: skip
    return out


def few_effective(sizes: np.ndarray, level: str) -> list[str]:
    """The warning when the clusters' sizes are worth fewer than `FEW_EFFECTIVE` independent ones."""
    effective = round(effective_clusters(sizes), 1)
    queries = int(sizes.sum())
    if effective >= FEW_EFFECTIVE or len(sizes) < 2:
        return []
    return [f"the {queries} queries fall in {len(sizes)} clusters, the largest holding {sizes.max() / queries:.0%}: "
            f"they count as {effective:g} independent ones, too few for these intervals to be trusted to cover "
            f"{level} (simulated: about 91% at 4); more queries from other targets or commits would"]  # fmt: skip


WIDENED = 1.05  # a widening of the critical value from this on is said: it costs the test power


def widening_costs(sizes: np.ndarray, pairs: Pairs, confidence: float) -> list[str]:
    """The warning when a few heavy clusters widened the critical value (and the rows' intervals) enough to cost
    power: a lead must be larger to be found (and with more than two settings the test names a winner among equal
    settings less often than it may: 0.5-2.5% against 5% by simulation with one cluster holding a quarter of the
    queries). Below `FEW_EFFECTIVE` effective clusters `few_effective` says the opposite risk instead."""
    if pairs.widening < WIDENED or effective_clusters(sizes) < FEW_EFFECTIVE or not np.isfinite(pairs.critical):
        return []
    z = NormalDist().inv_cdf(POWER)
    cost = pairs.critical * (1 - 1 / pairs.widening) / (pairs.critical / pairs.widening + z)
    return [f"the clusters' sizes and spreads make the {int(sizes.sum())} queries count as {pairs.effective:.1f} "
            f"independent clusters, so the intervals of the pairs are widened {pairs.widening - 1:.0%} (each "
            f"setting's own by the same rule at its clusters' sizes) to hold {confidence:.0%}, which costs power: a "
            f"lead must be {cost:.0%} larger to be found {POWER:.0%} of the time; queries from more targets or "
            "commits would narrow it"]
