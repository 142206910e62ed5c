"""The vectorised simultaneous intervals and elimination (clanka_nb/decision) against plain loops (`_loops.py`) on the
same bootstrap draws: the same critical value, the same intervals, the same settings removed."""

from __future__ import annotations

import numpy as np
import pytest

from clanka_nb.decision._pairs import simultaneous
from clanka_nb.decision._set import eliminated
from tests.decision._loops import eliminate, pair_intervals
from tests.decision._simulate import heavy_cluster_scores, noisy_best_scores, sweep_scores

DRAWS = 300


def _cells(scores: np.ndarray, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    sizes = np.bincount(ids).astype(np.float64)
    sums = np.zeros((len(sizes), scores.shape[1]))
    np.add.at(sums, ids, scores)
    return sums[sizes > 0], sizes[sizes > 0]


@pytest.mark.parametrize(("case", "settings"), [("even", 3), ("even", 5), ("heavy", 4), ("noisy", 5)])
def test_the_vectorised_intervals_are_the_loops(case: str, settings: int) -> None:
    rng = np.random.default_rng([7, settings])
    if case == "heavy":  # one cluster holds a quarter of the queries: the Kish widening is in play
        scores, ids = heavy_cluster_scores(rng, np.linspace(0.4, 0.0, settings), "rr")
    elif case == "noisy":  # a noisy best: the elimination must not drop it for a pair it is not in
        scores, ids = noisy_best_scores(rng)
    else:
        scores, ids = sweep_scores(rng, settings, 90, 30, "covered", np.linspace(0.5, 0.0, settings))
    sums, sizes = _cells(scores.to_numpy(), ids)
    fast = simultaneous(sums, sizes, 0.95, DRAWS, seed=3)
    weights = np.random.default_rng([3, 4]).integers(0, 6, size=(DRAWS, len(sizes)))  # `_pair_draws`' draws
    slow = pair_intervals(sums, sizes, weights, 0.95)
    assert [(int(a), int(b)) for a, b in zip(fast.a, fast.b, strict=True)] == slow["pairs"]
    assert fast.difference == pytest.approx(slow["difference"], abs=1e-12)
    assert fast.error == pytest.approx(slow["error"], rel=1e-9)
    assert fast.drawn == pytest.approx(np.array(slow["drawn"]), rel=1e-9)
    assert fast.critical == pytest.approx(slow["critical"], rel=1e-9)
    assert fast.low == pytest.approx(slow["low"], rel=1e-9, abs=1e-12)
    assert fast.high == pytest.approx(slow["high"], rel=1e-9, abs=1e-12)

    order = sorted(range(settings), key=lambda column: (-scores.to_numpy().mean(axis=0)[column], column))
    assert eliminated(fast, order, 0.95) == eliminate(slow, order, 0.95)
    if case != "heavy":
        assert eliminated(fast, order, 0.95), "a case where the elimination removes something"
