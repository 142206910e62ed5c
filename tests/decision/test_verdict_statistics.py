"""`retrieval.verdict` by simulation with a known truth: the family-wise error it promises (false winners) for every
number of settings and however alike the settings score, the power it states, its equivalence test's error, its
intervals' coverage with clustered and heavy-clustered queries, and what it says about halves, newer commits and the
range's edge.

Simulations use fewer resamples than the default (passed as arguments): the procedure is the same, its critical
value only noisier. Bounds allow Monte Carlo noise: 2.5 standard errors of the rate.
"""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pandas as pd
import pytest

from clanka_nb.decision import Edge
from clanka_nb.retrieval import Verdict, verdict
from tests.decision._simulate import additive_scores, heavy_cluster_scores, noisy_best_scores, sweep_scores, true_means

FAST = {"resamples": 200, "splits": 0}


def _noise(rate: float, sims: int) -> float:
    return 2.5 * math.sqrt(rate * (1 - rate) / sims)


@pytest.mark.parametrize(("kind", "alike"), [("rr", "independent"), ("hit", "independent"),
                                           ("covered", "independent"), ("covered", "equicorrelated"),
                                           ("covered", "neighbours")])  # fmt: skip
@pytest.mark.parametrize("settings", [2, 4, 8, 16])
def test_identical_settings_name_a_winner_at_most_five_percent_of_the_time(settings: int, kind: str,
                                                                          alike: str) -> None:
    # 80 queries in 30 clusters of uneven size, hard queries hard at every setting: the settings are truly equal;
    # their own noises independent, all alike (0.5) or neighbours alike (0.9^|i-j|, as chunk sizes are).
    sims = 300
    rng = np.random.default_rng([settings, len(kind), len(alike)])
    named = 0
    for _ in range(sims):
        scores, groups = sweep_scores(rng, settings, 80, 30, kind, alike=alike)
        named += verdict(scores, groups, **FAST).separable
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
        alone += found.confidence_set == ["s0"]
        kept += "s0" in found.confidence_set
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
        found = verdict(scores, groups, resamples=500, splits=1)
        rows += np.mean((np.array(found.low) <= truth) & (truth <= np.array(found.high)))
        best, runner = int(found.best[1:]), int(found.runner_up[1:])
        difference += found.difference_low <= truth[best] - truth[runner] <= found.difference_high
    assert rows / sims >= 0.95 - _noise(0.95, sims) - 0.01  # 0.01: 500 resamples' percentile noise
    assert difference / sims >= 0.95 - _noise(0.95, sims) - 0.01


def test_the_detectable_lead_shrinks_as_one_over_root_n_and_ignores_the_effect_seen() -> None:
    rng = np.random.default_rng(5)
    small, groups = sweep_scores(rng, 2, 400, 400, "rr")
    large, groups_large = sweep_scores(rng, 2, 1600, 1600, "rr")
    few, many = (verdict(s, g, **FAST).detectable for s, g in ((small, groups), (large, groups_large)))
    assert 0.4 < many / few < 0.6  # four times the queries: half the difference
    moved = small.assign(s1=small["s1"] + 0.05)  # a real difference, the same spread of paired differences
    found = verdict(moved, groups, **FAST)
    assert found.detectable == pytest.approx(verdict(small, groups, **FAST).detectable)
    assert f"a true lead of {found.detectable:.3f} over the runner-up would be found 80% of the time by the" in \
        found.message  # fmt: skip
    assert "cannot be seen" not in found.message


@pytest.mark.parametrize("settings", [2, 4, 8])
def test_a_true_lead_of_the_stated_size_is_found_with_the_power_stated(settings: int) -> None:
    # "A true lead of X over the runner-up would be found 80% of the time": at a true lead of X (the median X of
    # equal-setting draws: X does not depend on the effect), the test tells s0 from s1 80% (+-5 points) of the time.
    rng = np.random.default_rng([3, settings])
    size = float(np.median([verdict(*additive_scores(rng, 0.0, settings), **FAST).detectable for _ in range(100)]))
    sims = 600
    found = 0
    for _ in range(sims):
        result = verdict(*additive_scores(rng, size, settings), **FAST)
        pair = next(p for p in result.pairs if (p.a, p.b) == ("s0", "s1"))
        found += pair.low > 0
    assert abs(found / sims - 0.8) <= 0.05 + _noise(0.8, sims)  # the 5 points, and Monte Carlo noise


@pytest.mark.parametrize("settings", [2, 4])
def test_settings_a_margin_apart_are_called_equivalent_at_most_five_percent_of_the_time(settings: int) -> None:
    # The truth: s0 ahead of every other by exactly the margin, so "equivalent within the margin" is false.
    rng = np.random.default_rng([11, settings])
    sims = 300
    said = 0
    for _ in range(sims):
        scores, groups = additive_scores(rng, 0.02, settings)
        said += len(verdict(scores, groups, margin=0.02, **FAST).equivalent) > 1
    assert said / sims <= 0.05 + _noise(0.05, sims)


def test_settings_truly_alike_are_shown_equivalent_and_the_cheapest_is_taken() -> None:
    rng = np.random.default_rng(12)
    ids = np.repeat(np.arange(400), 2)
    base = rng.normal(0.4, 0.15, 400)[ids]
    scores = pd.DataFrame({"a": base + rng.normal(0, 0.01, 800), "b": base + rng.normal(0, 0.01, 800)})
    found = verdict(scores, ids, cost=[200, 100], margin=0.02, **FAST)
    assert sorted(found.equivalent) == ["a", "b"] and found.choice == "b"
    assert found.message.startswith("use b: 2 settings are equivalent to the best within \u00b10.02 (two one-sided "
                                       "tests) and it is the cheapest of them")  # fmt: skip
    assert verdict(scores, ids, cost=[200, 100], margin=None, **FAST).equivalent == []


def test_a_twin_of_the_best_does_not_make_the_detectable_lead_zero() -> None:
    rng = np.random.default_rng(6)
    scores, groups = sweep_scores(rng, 2, 200, 200, "rr")
    best = scores.mean().idxmax()
    twins = scores.assign(twin=scores[best])  # a setting that changes no chunk the queries reach
    alone = verdict(scores, groups, **FAST)
    with_twin = verdict(twins, groups, **FAST)
    assert with_twin.detectable is not None and with_twin.detectable > 0
    # The same pair measured: the twin is skipped, the other setting differs; and the twin's pair, with no spread,
    # adds nothing to the largest |t|, so the critical value and the detectable lead stay what they were.
    assert with_twin.detectable == pytest.approx(alone.detectable)
    assert "lead of 0.000" not in with_twin.message
    assert verdict(pd.DataFrame({"a": [0.5, 1.0], "b": [0.5, 1.0]}), **FAST).detectable is None


@pytest.mark.parametrize("kind", ["rr", "covered"])
def test_every_pairs_interval_covers_at_once_when_one_cluster_holds_a_quarter_of_the_queries(kind: str) -> None:
    # 200 queries, one cluster holding 50 of them (it weighs a quarter in every mean): all three pairs' simultaneous
    # intervals hold their true differences together 95% of the time (86.5-87.7% for the old difference interval).
    shift = np.array([0.6, 0.3, 0.0])
    truth = true_means(3, kind, shift)
    rng = np.random.default_rng([17, len(kind)])
    sims = 300
    covered = rows = 0
    for _ in range(sims):
        found = verdict(*heavy_cluster_scores(rng, shift, kind), resamples=400, splits=0)
        index = {"s0": 0, "s1": 1, "s2": 2}
        covered += all(p.low <= truth[index[p.a]] - truth[index[p.b]] <= p.high for p in found.pairs)
        rows += np.mean((np.array(found.low) <= truth) & (truth <= np.array(found.high)))
    assert covered / sims >= 0.95 - _noise(0.95, sims) - 0.01  # 0.01: 400 draws' quantile noise
    # Each setting's own interval is widened by the same rule (it covered 89.5-90.3% in issue 52 without it).
    assert rows / sims >= 0.93


def test_a_noisy_true_best_stays_in_the_confidence_set() -> None:
    # s0 is the true best, but its scores are 20 times noisier than the others': its mean often falls below the
    # runner-up's. The elimination removes the worse member of the pair that rejects (by its own t), so the true best
    # leaves only when a pair about it is told apart: kept at least 93% (80.5% when the lowest mean left instead).
    rng = np.random.default_rng(31)
    sims = 200
    kept = sum("s0" in verdict(*noisy_best_scores(rng), **FAST).confidence_set for _ in range(sims))
    assert kept / sims >= 0.93


def test_a_heavy_cluster_widens_the_test_and_says_what_it_costs() -> None:
    # Equal settings, one cluster holding a quarter of the queries: the widening keeps false winners at or below 5%
    # (0.5-1.5% in issue 52: it is over-conservative), and the verdict warns that the widening costs power.
    rng = np.random.default_rng(33)
    sims = 200
    named = warned = 0
    for _ in range(sims):
        found = verdict(*heavy_cluster_scores(rng, np.zeros(4), "covered"), **FAST)
        named += found.separable
        warned += any("which costs power" in text for text in found.warnings) and found.widening > 1.05
    assert named / sims <= 0.05 + _noise(0.05, sims)
    assert warned / sims >= 0.9


def test_a_heavy_cluster_whose_queries_vary_more_widens_the_test_more() -> None:
    # Two tables with the same clusters (one holding a quarter of 200 queries): in the first the heavy cluster's
    # paired differences vary like the others', in the second three times as much, so it holds most of the
    # differences' variance and the error's own noise is that of fewer clusters. Counting clusters by their sizes
    # alone widened both alike (false winners 6.1% at 2 settings where the heavy cluster's targets were middling);
    # weighed by their spread too, the second counts as fewer and is widened more.
    rng = np.random.default_rng(52)
    ids = np.concatenate([np.zeros(50, dtype=np.int64), np.repeat(np.arange(1, 51), 3)])
    base = rng.normal(0.4, 0.1, 51)[ids]
    noise = rng.normal(0, 0.05, (200, 2))
    even = pd.DataFrame(base[:, None] + noise, columns=["a", "b"])
    spread = noise * np.where(ids == 0, 3.0, 1.0)[:, None]
    loud = pd.DataFrame(base[:, None] + spread, columns=["a", "b"])
    calm, wide = (verdict(table, ids, **FAST) for table in (even, loud))
    assert calm.effective_clusters == wide.effective_clusters  # the same sizes
    assert wide.widening > calm.widening + 0.1
    assert "count as" in wide.message and f"{wide.effective_clusters:.1f} independent clusters" not in wide.message


@pytest.mark.parametrize("settings", [2, 3, 4])
def test_a_heavy_cluster_of_middling_targets_names_a_winner_at_most_five_percent_of_the_time(settings: int) -> None:
    # The heavy cluster's targets of middling difficulty (its scores vary most between settings): the case where
    # counting clusters by their sizes alone named false winners 6.1% of the time at 2 settings (10,000 sweeps).
    rng = np.random.default_rng([settings, 53])
    sims = 1000
    named = sum(verdict(*heavy_cluster_scores(rng, np.zeros(settings), "covered", -0.5), **FAST).separable
                for _ in range(sims))  # fmt: skip
    assert named / sims <= 0.05 + _noise(0.05, sims)


def test_queries_piled_in_a_few_clusters_are_said_to_be_too_few() -> None:
    rng = np.random.default_rng(2)
    ids = np.concatenate([np.zeros(100, dtype=np.int64), np.ones(60, dtype=np.int64), np.arange(2, 42)])
    scores = pd.DataFrame(rng.random((200, 2)), columns=["a", "b"])
    found = verdict(scores, ids, **FAST)
    assert found.effective_clusters < 8
    assert "they count as" in found.message and "too few for these intervals to be trusted" in found.message


def _timed(rng: np.random.Generator, newer_lead: float, older_lead: float = 0.0, queries: int = 400,
           settings: int = 3, spread: float = 0.03) -> tuple[pd.DataFrame, np.ndarray]:
    """Commit-message queries over time (one commit each): s0 leads every other setting by `older_lead` on the older
    half and by `newer_lead` on the newer half (negative: it trails); `spread`, each setting's own noise."""
    when = np.arange(float(queries))
    base = rng.normal(0.4, 0.1, queries)
    values = base[:, None] + rng.normal(0, spread, (queries, settings))
    values[:, 0] += np.where(when < queries / 2, older_lead, newer_lead)
    return pd.DataFrame(values, columns=[f"s{j}" for j in range(settings)]), when


def test_the_newer_commits_check_tests_the_choice_and_says_held_as_often_as_its_power() -> None:
    # Every setting truly equal on the newer commits: the check asks whether the verdict's own choice is within the
    # margin of each setting it was chosen over; it says "held" at least as often as the power it states.
    rng = np.random.default_rng(41)
    sims = 200
    held = power = 0.0
    for _ in range(sims):
        found = verdict(*_timed(rng, 0.0, spread=0.06)[:1], when=np.arange(400.0), margin=0.02, **FAST)
        assert found.holdout is not None and found.holdout.chosen == found.choice
        assert {p.b for p in found.holdout.against} == set(found.columns) - {found.choice}
        held += found.holdout.outcome == "held"
        power += found.holdout.power
    assert held / sims >= power / sims - _noise(power / sims, sims)
    assert 0.4 <= power / sims <= 0.95  # a power in between, so that the comparison bites


def test_a_choice_that_falls_behind_on_newer_commits_is_not_said_to_hold() -> None:
    # s0 leads by 0.15 on the older commits (so it is chosen) but trails by twice the margin on the newer ones:
    # "held" is said at most 5% of the time, and "reversed" most of the time.
    rng = np.random.default_rng(42)
    sims = 200
    held = reversed_ = 0
    for _ in range(sims):
        scores, when = _timed(rng, -0.04, 0.15)
        found = verdict(scores, when=when, margin=0.02, **FAST)
        assert found.choice == "s0"
        held += found.holdout.outcome == "held"
        reversed_ += found.holdout.outcome == "reversed"
    assert held / sims <= 0.05 + _noise(0.05, sims)
    assert reversed_ / sims >= 0.5


def test_the_newer_commits_check_below_its_power_confirms_nothing() -> None:
    rng = np.random.default_rng(4)
    when = np.arange(120.0)
    base = rng.normal(0.4, 0.1, 120)
    noisy = pd.DataFrame({"s0": base + 0.15 + rng.normal(0, 0.2, 120), "s1": base + rng.normal(0, 0.2, 120)})
    found = verdict(noisy, when=when, **FAST)
    assert found.holdout is not None and found.holdout.chosen == found.choice == "s0"
    assert found.holdout.power < 0.8 and not found.holdout.powered
    assert "on newer commits: the newer 60 commit-message queries cannot check s0 within \u00b10.02 reliably (power " \
        in found.message  # fmt: skip
    assert "within \u00b10.02 of or better than" not in found.message and "held" not in found.message
    steady = pd.DataFrame({"s0": base + 0.15 + rng.normal(0, 0.005, 120), "s1": base + rng.normal(0, 0.005, 120)})
    sure = verdict(steady, when=when, **FAST)
    assert sure.holdout.powered and sure.holdout.outcome == "held"
    assert "on newer commits: s0 is within \u00b10.02 of or better than each of the 1 settings it was chosen over " \
        "on the newer 60 commit-message queries" in sure.message  # fmt: skip
    untimed = verdict(steady, when=np.full(120, np.nan), **FAST)
    assert untimed.holdout is None and "newer commits" not in untimed.message


def test_the_message_leads_with_the_cheapest_of_a_tie() -> None:
    rng = np.random.default_rng(1)
    scores, groups = sweep_scores(rng, 4, 120, 50, "covered")
    settings = {f"s{j}": {"chunk_size": size, "chunk_overlap": 0} for j, size in enumerate((10, 20, 40, 80))}
    found = verdict(scores, groups, settings=settings, cost=[40, 30, 20, 10], **FAST)
    assert not found.separable and found.choice == "s3"
    assert found.message.startswith("4 settings are tied within the noise: take the cheapest of them by the cost "
                                    "given, chunk_size=80, "
                                       "chunk_overlap=0 (tied: ")  # fmt: skip
    assert "best:" not in found.message.split(";")[0]


def test_no_advice_to_sweep_below_a_settings_floor() -> None:
    rng = np.random.default_rng(3)
    scores, groups = sweep_scores(rng, 3, 200, 200, "rr", np.array([0.8, 0.4, 0.0]))
    settings = {f"s{j}": {"chunk_size": 30, "chunk_overlap": overlap} for j, overlap in enumerate((0, 5, 10))}
    found = verdict(scores, groups, settings=settings, metric_name="mrr", **FAST)
    assert found.best == "s0" and found.separable and found.edge == []
    assert "sweep past it" not in found.message


def test_a_best_at_the_edge_of_the_range_says_to_sweep_past_it() -> None:
    rng = np.random.default_rng(3)
    scores, groups = sweep_scores(rng, 3, 200, 200, "rr", np.array([0.0, 0.4, 0.8]))
    settings = {f"s{j}": {"chunk_size": size, "chunk_overlap": 0} for j, size in enumerate((10, 30, 60))}
    found = verdict(scores, groups, settings=settings, metric_name="mrr", **FAST)
    assert found.best == "s2" and found.edge == [Edge("chunk_size", 60, "largest")]
    assert "chunk_size=60 is the largest chunk_size swept: sweep past it" in found.message
    assert "; best: chunk_size=60 (MRR" in found.message
    assert "worse: chunk_size=30 (" in found.message and "| chunk_size=10 (by at least" in \
        found.message  # named, not "2 of 3"  # fmt: skip


def test_halves_are_described_by_what_they_show() -> None:
    scores, groups = sweep_scores(np.random.default_rng(8), 4, 60, 30, "rr")
    found = verdict(scores, groups, resamples=200, splits=10)
    assert found.split_agree < 10
    assert f"two random halves of the queries picked the same best in {found.split_agree} of 10 splits" in \
        found.message  # fmt: skip
    assert "disagree" not in found.message


def test_the_same_table_gives_the_same_plain_verdict() -> None:
    scores, groups = sweep_scores(np.random.default_rng(4), 5, 100, 40, "hit")
    once = verdict(scores, groups, **FAST)
    assert once == verdict(scores, groups, **FAST)
    assert json.loads(json.dumps(once.as_dict())) == once.as_dict()  # plain JSON: lists, no tuples or numpy scalars
    assert Verdict.from_dict(once.as_dict()) == once  # what a sweep table's attrs keep reads back as the same verdict


def test_warnings_for_few_queries_few_clusters_and_a_heavy_cluster() -> None:
    scores = pd.DataFrame({"a": np.linspace(0, 1, 20), "b": np.linspace(1, 0, 20)})
    groups = [0] * 10 + list(range(1, 11))
    found = verdict(scores, groups, **FAST)
    assert len(found.warnings) == 4 and all(f"warning: {text}" in found.message for text in found.warnings)
    assert "they count as 3.6 independent ones, too few for these intervals to be trusted" in found.message
    assert "one cluster holds 10 of the 20 queries (50%, over 20%)" in found.message


def test_one_setting_ties_and_bad_input() -> None:
    one = verdict(pd.DataFrame({"a": [0.5, 1.0]}))
    assert one.best == "a" and one.message.startswith("one setting: nothing to compare")
    tied = verdict(pd.DataFrame({"a": [1.0, 0.0], "b": [1.0, 0.0]}), cost=[5, 2], **FAST)
    assert tied.best == "b" and not tied.separable  # equal: the cheaper first
    assert verdict(pd.DataFrame({"a": [], "b": []})).message.startswith("no queries")
    with pytest.raises(ValueError, match="NaN in column"):
        verdict(pd.DataFrame({"a": [1.0, np.nan], "b": [1.0, 0.0]}))
    with pytest.raises(ValueError, match="one cluster id per query"):
        verdict(pd.DataFrame({"a": [1.0, 0.0], "b": [1.0, 0.0]}), groups=[1])
    with pytest.raises(ValueError, match="no columns"):
        verdict(pd.DataFrame(index=range(3)))
    with pytest.raises(ValueError, match="settings has no entry for column"):
        verdict(pd.DataFrame({"a": [1.0], "b": [0.0]}), settings={"a": {"chunk_size": 10}})


@pytest.mark.parametrize(("change", "named"), [
    ({"queries": "x"}, "verdict.queries must be a whole number"),
    ({"means": "abc"}, "verdict.means must be a list"),
    ({"pairs": [3]}, "verdict.pairs[0] must be a dict"),
    ({"pairs": [{"a": "s0"}]}, "verdict.pairs[0] has no b, difference, high, low"),
    ({"worse_by": None}, "verdict.worse_by must be a list"),
    ({"edge": [{"setting": 1, "value": 2, "side": "largest"}]}, "verdict.edge[0].setting must be a str"),
    ({"holdout": [1]}, "verdict.holdout must be a dict"),
    ({"separable": "yes"}, "verdict.separable must be a bool"),
    ({"critical": True}, "verdict.critical must be a number"),
])  # fmt: skip
def test_a_verdict_read_back_is_checked_field_by_field(change: dict, named: str) -> None:
    # A sweep table's attrs come from a file: garbage in any field is one error naming the field, never a raw
    # TypeError from deep inside the constructor.
    kept = verdict(*sweep_scores(np.random.default_rng(4), 3, 60, 30, "rr"), when=np.arange(60.0), **FAST).as_dict()
    with pytest.raises(ValueError, match=re.escape(named)):
        Verdict.from_dict({**kept, **change})
    with pytest.raises(ValueError, match="verdict must be a dict"):
        Verdict.from_dict(5)  # type: ignore[arg-type]


def test_the_edge_advice_follows_the_choice_not_the_best() -> None:
    # chunk_size 10 scores best by a hair, but 10, 20 and 60 are equivalent within the margin and 60 is the
    # cheapest: the message says "use chunk_size=60" and its edge advice is about 60 (the largest swept), not 10.
    rng = np.random.default_rng(12)
    ids = np.repeat(np.arange(400), 2)
    base = rng.normal(0.4, 0.15, 400)[ids]
    leads = (0.004, 0.002, 0)
    scores = pd.DataFrame({f"s{j}": base + lead + rng.normal(0, 0.005, 800) for j, lead in enumerate(leads)})
    settings = {f"s{j}": {"chunk_size": size, "chunk_overlap": 0} for j, size in enumerate((10, 20, 60))}
    found = verdict(scores, ids, settings=settings, cost=[300, 200, 100], cost_name="tokens indexed", **FAST)
    assert found.best == "s0" and found.choice == "s2" and len(found.equivalent) == 3
    assert found.message.startswith("use chunk_size=60, chunk_overlap=0: 3 settings are equivalent to the best "
                                    "within \u00b10.02 (two one-sided tests) and it is the cheapest of them by tokens "
                                    "indexed")  # fmt: skip
    assert found.edge == [Edge("chunk_size", 60, "largest")]
    assert "chunk_size=60 is the largest chunk_size swept: sweep past it" in found.message
    assert "chunk_size=10 is the smallest" not in found.message


def test_a_headline_with_equivalent_and_unresolved_settings_counts_both() -> None:
    # a and b alike (shown equivalent); c is tied with them but too noisy to be shown within the margin.
    rng = np.random.default_rng(13)
    ids = np.repeat(np.arange(300), 2)
    base = rng.normal(0.4, 0.15, 300)[ids]
    scores = pd.DataFrame({"a": base + rng.normal(0, 0.005, 600), "b": base + rng.normal(0, 0.005, 600),
                           "c": base - 0.015 + rng.normal(0, 0.3, 600)})  # fmt: skip
    found = verdict(scores, ids, cost=[2, 1, 3], cost_name="chunks indexed", **FAST)
    assert sorted(found.equivalent) == ["a", "b"] and "c" in found.confidence_set
    assert found.decision.startswith("use b: 2 settings are equivalent to the best within \u00b10.02")
    assert found.decision.endswith(", and 1 more tied with the best is not shown equivalent (c)")


def test_near_equal_costs_count_as_equal_and_the_better_mean_is_taken() -> None:
    # Two settings tied within the noise whose indexes differ by 1%: the cost rule takes the better mean, and the
    # message says so with the numbers.
    rng = np.random.default_rng(14)
    scores, groups = sweep_scores(rng, 2, 60, 30, "covered")
    better, worse = ("s0", "s1") if scores["s0"].mean() > scores["s1"].mean() else ("s1", "s0")
    cost = {better: 101.0, worse: 100.0}
    found = verdict(scores, groups, cost=cost, cost_name="tokens indexed", **FAST)
    assert not found.separable and found.choice == better == found.cheapest
    assert found.decision.startswith("2 settings are tied within the noise: take the best of them within 2% of the "
                                     "cheapest by tokens indexed (1.0% more), ")  # fmt: skip
    apart = verdict(scores, groups, cost={better: 110.0, worse: 100.0}, cost_name="tokens indexed", **FAST)
    assert apart.choice == worse and "take the cheapest of them by tokens indexed, " in apart.decision
