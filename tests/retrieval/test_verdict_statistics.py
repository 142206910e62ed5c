"""`retrieval.verdict` by simulation: the family-wise error it promises, its power, its intervals' coverage with
clustered queries, the smallest detectable difference, and what it says about split halves and the range's edge.

Simulations use fewer resamples and permutations than the defaults (passed as arguments): the procedure is the
same, the p-values only step more coarsely. Bounds allow Monte Carlo noise: 2.5 standard errors of the rate.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from clanka_nb.retrieval import verdict
from tests.retrieval._simulate import sweep_scores, true_means

FAST = {"resamples": 200, "permutations": 300, "splits": 4}


def _noise(rate: float, sims: int) -> float:
    return 2.5 * math.sqrt(rate * (1 - rate) / sims)


@pytest.mark.parametrize("kind", ["rr", "hit", "covered"])
@pytest.mark.parametrize("settings", [2, 4, 8, 16])
def test_identical_settings_name_a_winner_at_most_five_percent_of_the_time(settings: int, kind: str) -> None:
    # 80 queries in 30 clusters of uneven size, hard queries hard at every setting: the settings are truly equal.
    sims = 300
    rng = np.random.default_rng([settings, len(kind)])
    named = 0
    for _ in range(sims):
        scores, groups = sweep_scores(rng, settings, 80, 30, kind)
        named += verdict(scores, groups, **FAST)["separable"]
    assert named / sims <= 0.05 + _noise(0.05, sims)


@pytest.mark.parametrize("settings", [2, 4, 8, 16])
def test_a_setting_better_by_a_known_amount_is_alone_in_the_set(settings: int) -> None:
    # s0 is better by about 0.14 in MRR (0.6 in the latent rank); 200 queries in 60 clusters.
    shift = np.zeros(settings)
    shift[0] = 0.6
    sims = 40 if settings == 16 else 60
    rng = np.random.default_rng([settings, 9])
    alone = kept = 0
    for _ in range(sims):
        scores, groups = sweep_scores(rng, settings, 200, 60, "rr", shift)
        found = verdict(scores, groups, **FAST)
        alone += found["confidence_set"] == ["s0"]
        kept += "s0" in found["confidence_set"]
    assert alone / sims >= 0.9 and kept == sims


@pytest.mark.parametrize("kind", ["rr", "covered"])
def test_the_intervals_cover_with_clustered_queries(kind: str) -> None:
    # Three settings apart (shifts 0.6, 0.3, 0): the best and the runner-up are s0 and s1 almost always.
    shift = np.array([0.6, 0.3, 0.0])
    truth = true_means(3, kind, shift)
    sims = 300
    rng = np.random.default_rng(21)
    rows = difference = 0
    for _ in range(sims):
        scores, groups = sweep_scores(rng, 3, 200, 60, kind, shift)
        found = verdict(scores, groups, resamples=500, permutations=100, splits=1)
        rows += np.mean((np.array(found["low"]) <= truth) & (truth <= np.array(found["high"])))
        best, runner = int(found["best"][1:]), int(found["runner_up"][1:])
        difference += found["difference_low"] <= truth[best] - truth[runner] <= found["difference_high"]
    assert rows / sims >= 0.95 - _noise(0.95, sims) - 0.01  # 0.01: 500 resamples' percentile noise
    assert difference / sims >= 0.95 - _noise(0.95, sims) - 0.01


def test_the_smallest_detectable_difference_shrinks_as_one_over_root_n_and_ignores_the_effect_seen() -> None:
    rng = np.random.default_rng(5)
    small, groups = sweep_scores(rng, 2, 400, 400, "rr")
    large, groups_large = sweep_scores(rng, 2, 1600, 1600, "rr")
    few, many = (verdict(s, g, **FAST)["mde"] for s, g in ((small, groups), (large, groups_large)))
    assert 0.4 < many / few < 0.6  # four times the queries: half the difference
    moved = small.assign(s1=small["s1"] + 0.05)  # a real difference, the same spread of paired differences
    found = verdict(moved, groups, **FAST)
    assert found["mde"] == pytest.approx(verdict(small, groups, **FAST)["mde"])
    assert f"a difference smaller than {found['mde']:.3f} cannot be seen with these 400 queries" in found["message"]


def _additive(rng: np.random.Generator, difference: float) -> tuple[pd.DataFrame, np.ndarray]:
    """Two settings, 200 queries in 60 clusters, b better than a by `difference` in every query's mean."""
    ids = np.sort(rng.integers(0, 60, size=200))
    base = rng.normal(0.4, 0.15, 60)[ids] + rng.normal(0, 0.1, 200)
    return pd.DataFrame({"a": base + rng.normal(0, 0.2, 200), "b": base + difference + rng.normal(0, 0.2, 200)}), ids


def test_a_true_difference_of_the_detectable_size_is_found_with_the_power_it_promises() -> None:
    # "A difference smaller than X cannot be seen": at a true difference of X the test separates the settings
    # about 80% of the time (POWER), at half of it far less often. X from A/A draws (it ignores the effect).
    rng = np.random.default_rng(3)
    size = float(np.median([verdict(*_additive(rng, 0.0), **FAST)["mde"] for _ in range(50)]))
    sims = 300
    at = np.mean([verdict(*_additive(rng, size), **FAST)["separable"] for _ in range(sims)])
    half = np.mean([verdict(*_additive(rng, size / 2), **FAST)["separable"] for _ in range(sims)])
    assert at >= 0.8 - _noise(0.8, sims) - 0.02  # 0.02: the normal approximation behind X
    assert half <= 0.5


def test_a_twin_of_the_best_does_not_make_the_detectable_difference_zero() -> None:
    rng = np.random.default_rng(6)
    scores, groups = sweep_scores(rng, 2, 200, 200, "rr")
    best = scores.mean().idxmax()
    twins = scores.assign(twin=scores[best])  # a setting that changes no chunk the queries reach
    alone = verdict(scores, groups, **FAST)
    with_twin = verdict(twins, groups, **FAST)
    assert with_twin["mde"] is not None and with_twin["mde"] > 0
    # The same pair measured: the twin is skipped, the other setting differs; only alpha's share of pairs moves.
    assert with_twin["mde"] > alone["mde"]
    assert "smaller than 0.000" not in with_twin["message"]
    assert verdict(pd.DataFrame({"a": [0.5, 1.0], "b": [0.5, 1.0]}), **FAST)["mde"] is None


def test_a_best_at_the_edge_of_the_range_says_to_sweep_past_it() -> None:
    rng = np.random.default_rng(3)
    scores, groups = sweep_scores(rng, 3, 200, 200, "rr", np.array([0.0, 0.4, 0.8]))
    settings = {f"s{j}": {"chunk_size": size, "chunk_overlap": 0} for j, size in enumerate((10, 30, 60))}
    found = verdict(scores, groups, settings=settings, metric_name="mrr", **FAST)
    assert found["best"] == "s2" and found["edge"] == [{"setting": "chunk_size", "value": 60, "side": "largest"}]
    assert "chunk_size=60 is the largest chunk_size swept: sweep past it" in found["message"]
    assert found["message"].startswith("best: chunk_size=60, chunk_overlap=0 (MRR")
    assert "worse: chunk_size=30 | chunk_size=10" in found["message"]  # named, not "2 of 3"


def test_halves_that_disagree_on_the_best_are_reported() -> None:
    scores, groups = sweep_scores(np.random.default_rng(8), 4, 60, 30, "rr")
    found = verdict(scores, groups, resamples=200, permutations=300, splits=10)
    assert found["split_agree"] < 10
    assert f"two random halves of the queries disagree on the best ({found['split_agree']} of 10" in found["message"]


def test_the_same_table_gives_the_same_plain_verdict() -> None:
    scores, groups = sweep_scores(np.random.default_rng(4), 5, 100, 40, "hit")
    once = verdict(scores, groups, **FAST)
    assert once == verdict(scores, groups, **FAST)
    assert json.loads(json.dumps(once)) == once  # plain JSON: lists, no tuples or numpy scalars


def test_warnings_for_few_queries_few_clusters_and_a_heavy_cluster() -> None:
    scores = pd.DataFrame({"a": np.linspace(0, 1, 20), "b": np.linspace(1, 0, 20)})
    groups = [0] * 10 + list(range(1, 11))
    found = verdict(scores, groups, **FAST)
    assert len(found["warnings"]) == 3 and all(f"warning: {text}" in found["message"] for text in found["warnings"])
    assert "one cluster holds 10 of the 20 queries (50%, over 20%)" in found["message"]


def test_one_setting_ties_and_bad_input() -> None:
    one = verdict(pd.DataFrame({"a": [0.5, 1.0]}))
    assert one["best"] == "a" and one["message"].startswith("one setting: nothing to compare")
    tied = verdict(pd.DataFrame({"a": [1.0, 0.0], "b": [1.0, 0.0]}), cost=[5, 2], **FAST)
    assert tied["best"] == "b" and not tied["separable"]  # equal: the cheaper first
    assert verdict(pd.DataFrame({"a": [], "b": []}))["message"].startswith("no queries")
    with pytest.raises(ValueError, match="NaN in column"):
        verdict(pd.DataFrame({"a": [1.0, np.nan], "b": [1.0, 0.0]}))
    with pytest.raises(ValueError, match="one cluster id per query"):
        verdict(pd.DataFrame({"a": [1.0, 0.0], "b": [1.0, 0.0]}), groups=[1])
    with pytest.raises(ValueError, match="no columns"):
        verdict(pd.DataFrame(index=range(3)))
    with pytest.raises(ValueError, match="settings has no entry for column"):
        verdict(pd.DataFrame({"a": [1.0], "b": [0.0]}), settings={"a": {"chunk_size": 10}})
