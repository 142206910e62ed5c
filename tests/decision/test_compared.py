"""`compared`, the tuning panel's "now vs before", by simulation: the verdict's clusters, not independent queries."""

from __future__ import annotations

import math

import numpy as np
import pytest

from clanka_nb.decision import Outcome, compared, verdict


def _pair(rng: np.random.Generator, lead: float = 0.0) -> tuple[Outcome, Outcome, np.ndarray]:
    """120 queries, one cluster holding 40 of them (a target many queries share), the rest in 40 pairs. Each
    cluster moves "now" against "before" by its own amount (a target one chunking serves better), mean `lead`
    over clusters: with lead 0 neither setting is better, whatever the heavy cluster happened to draw."""
    ids = np.concatenate([np.zeros(40, dtype=np.int64), np.repeat(np.arange(1, 41), 2)])
    base = rng.normal(0.4, 0.15, 41)[ids] + rng.normal(0, 0.05, 120)
    moved = lead + rng.normal(0, 0.08, 41)[ids] + rng.normal(0, 0.03, 120)
    before = Outcome(np.ones(120, dtype=np.int64), 10, values={"mrr": base})
    now = Outcome(np.ones(120, dtype=np.int64), 10, values={"mrr": base + moved})
    return before, now, ids


def test_a_heavy_cluster_does_not_make_a_move_look_better_or_worse() -> None:
    # Per query, the heavy cluster's 40 queries look like 40 independent witnesses of its one draw: a test that
    # treats queries as independent says "better" or "worse" in most of these null moves (62% of these 300 with
    # the per-query sign-flip test this replaced). Clustered as the verdict clusters them: at most 5%.
    rng = np.random.default_rng(52)
    sims = 300
    claimed = 0
    for _ in range(sims):
        before, now, ids = _pair(rng)
        said = compared(before, now, "mrr", ids, resamples=400)
        claimed += ", better on" in said or ", worse on" in said
    assert claimed / sims <= 0.05 + 2.5 * math.sqrt(0.05 * 0.95 / sims)


def test_the_words_are_the_verdicts_on_the_two_settings() -> None:
    before, now, ids = _pair(np.random.default_rng(3), lead=0.2)
    said = compared(before, now, "mrr", ids, margin=0.02)
    found = verdict(__import__("pandas").DataFrame({"now": now.values["mrr"], "before": before.values["mrr"]}), ids,
                    splits=0, metric_name="mrr")  # fmt: skip
    pair = found.pairs[0]
    assert found.separable and pair.low > 0
    assert said == (f"now vs before: MRR {pair.difference:+.3f} [{pair.low:+.3f}, {pair.high:+.3f}], better on these "
                    f"120 queries in 41 clusters (the verdict's clustered test, p = {found.p_value:.2f})")  # fmt: skip
    assert ", the same on these 120 queries" in compared(before, before, "mrr", ids)
    assert compared(Outcome(np.zeros(0), 10, values={"mrr": np.zeros(0)}),
                    Outcome(np.zeros(0), 10, values={"mrr": np.zeros(0)}), "mrr", None) == ""  # fmt: skip


def test_a_move_within_the_margin_is_equivalent_when_the_clusters_can_show_it() -> None:
    rng = np.random.default_rng(8)
    ids = np.repeat(np.arange(300), 2)
    base = rng.normal(0.4, 0.15, 300)[ids]
    before = Outcome(np.ones(600, dtype=np.int64), 10, values={"mrr": base})
    now = Outcome(np.ones(600, dtype=np.int64), 10, values={"mrr": base + rng.normal(0, 0.01, 600)})
    assert "equivalent within \u00b10.02 (two one-sided tests)" in compared(before, now, "mrr", ids, margin=0.02)
    assert "not distinguishable" in compared(before, now, "mrr", ids, margin=None)
    with pytest.raises(ValueError, match="one cluster id per query"):
        compared(before, now, "mrr", ids[:10])
