"""A sweep row's intervals resample clusters of queries (a cluster bootstrap), with the verdict's own counts."""

from __future__ import annotations

import numpy as np

from clanka_nb.decision._verdict import Bootstrap, Outcome, decide, row_intervals
from tests.decision._simulate import sweep_scores, true_means


def _outcome(scores: np.ndarray) -> Outcome:
    """Ranks from simulated reciprocal ranks (0: a miss within the depth of 10)."""
    rank = np.where(scores > 0, np.rint(1 / np.where(scores > 0, scores, 1)), 0).astype(np.int64)
    return Outcome(rank, 10)


def test_row_intervals_cover_with_clustered_queries_only_through_the_cluster_bootstrap() -> None:
    truth = true_means(1, "rr")[0]
    rng = np.random.default_rng(7)
    covered = {"clusters": 0, "queries": 0}
    runs = 150
    for _ in range(runs):
        scores, ids = sweep_scores(rng, 1, 120, 12, "rr")  # 12 targets, about 10 queries each
        outcome = _outcome(scores.to_numpy()[:, 0])
        for name, groups in (("clusters", ids), ("queries", None)):
            found = row_intervals(outcome, ["mrr"], Bootstrap(len(ids), resamples=400, groups=groups), stream=0)
            covered[name] += found["mrr_low"] <= truth <= found["mrr_high"]
    # The cluster bootstrap holds its level (12 clusters make it a little short); resampling queries as if
    # they were independent does not.
    assert covered["clusters"] / runs >= 0.85
    assert covered["queries"] / runs <= covered["clusters"] / runs - 0.15


def test_the_rows_and_the_verdict_resample_the_same_clusters() -> None:
    scores, ids = sweep_scores(np.random.default_rng(3), 2, 80, 20, "rr")
    outcomes = [_outcome(scores.to_numpy()[:, column]) for column in range(2)]
    bootstrap = Bootstrap(len(ids), groups=ids)
    rows = [row_intervals(outcome, ["mrr"], bootstrap, stream=row) for row, outcome in enumerate(outcomes)]
    found = decide(outcomes, [{"chunk_size": 10}, {"chunk_size": 20}], [5, 5], groups=ids, metric="mrr")
    assert found.clusters == len(set(ids.tolist()))
    assert np.allclose([row["mrr_low"] for row in rows], found.low, rtol=0, atol=1e-12)
    assert np.allclose([row["mrr_high"] for row in rows], found.high, rtol=0, atol=1e-12)
