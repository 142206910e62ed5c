"""Honest statistics of a probed sweep: intervals per row, a verdict from paired tests, flat recall warned."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

import clanka_nb as cn
from clanka_nb import engine
from clanka_nb.decision._verdict import Bootstrap, Outcome, decide, row_intervals
from clanka_nb.retrieval import FlatRecallWarning
from clanka_nb.retrieval.internals import ProbeSet
from tests.retrieval.conftest import hashed_embed

SETTINGS = [{"chunk_size": 30, "chunk_overlap": 0, "chunk_max_characters": None},
            {"chunk_size": 40, "chunk_overlap": 0, "chunk_max_characters": None}]  # fmt: skip


def _ranks(seed: int, queries: int) -> np.ndarray:
    """Ranks 1..10 or 0 (a miss), as a middling search gives them."""
    return np.random.default_rng(seed).choice(np.arange(0, 11), size=queries)


def test_two_settings_closer_than_the_noise_are_not_distinguishable():
    a = _ranks(1, 40)
    b = a.copy()
    b[:2] = np.where(b[:2] == 1, 2, 1)  # two queries of 40 move by one place: far below the noise
    verdict = decide([Outcome(a, 10), Outcome(b, 10)], SETTINGS, [100, 100], metric="mrr")
    assert not verdict.separable and verdict.tied == [1 - verdict.best] and verdict.worse == []
    # The decision first: a tie, and the cheapest of it (equal costs: the first of the set).
    assert verdict.message.startswith("2 settings are tied within the noise: take the cheapest of them by the cost "
                                      "given, chunk_size=")
    assert "queries would" not in verdict.message  # no observed-power promise
    assert "cannot be seen" not in str(verdict)  # a power statement instead of a false bound
    assert verdict.detectable > 0 and (f"a true lead of {verdict.detectable:.3f} over the runner-up would be "
                                          "found 80% of the time by the all-pairs test over 2 settings") in str(verdict)


def test_a_clearly_better_setting_is_named_best():
    good = np.ones(40, dtype=np.int64)
    good[::8] = 3
    bad = _ranks(2, 40)
    verdict = decide([Outcome(bad, 10), Outcome(good, 10)], SETTINGS, [100, 100], metric="mrr")
    assert verdict.best == 1 and verdict.separable and verdict.worse == [0] and verdict.tied == []
    assert verdict.message.startswith("use chunk_size=40, chunk_overlap=0: it is better than every other setting "
                                         "swept; best: chunk_size=40 (MRR")  # fmt: skip
    assert verdict.confidence_set == [1]


def test_settings_every_query_scores_alike_need_other_queries_not_more():
    same = _ranks(3, 30)
    verdict = decide([Outcome(same, 10), Outcome(same.copy(), 10)], SETTINGS, [120, 100], metric="mrr")
    assert verdict.best == 1  # equal scores: the fewer chunks
    assert not verdict.separable and verdict.detectable is None  # no pair differs: nothing to detect
    assert "more queries like these would not either" in verdict.message


def test_intervals_are_seeded_hold_the_estimate_and_narrow_with_more_queries():
    small, large = Outcome(_ranks(4, 30), 10), Outcome(_ranks(4, 600), 10)
    metrics = ["recall@5", "mrr"]
    once = row_intervals(small, metrics, Bootstrap(30), stream=0)
    assert once == row_intervals(small, metrics, Bootstrap(30), stream=0)
    wide = row_intervals(large, metrics, Bootstrap(600), stream=0)
    for metric in metrics:
        assert 0 <= once[f"{metric}_low"] <= once[metric] <= once[f"{metric}_high"] <= 1
        assert wide[f"{metric}_high"] - wide[f"{metric}_low"] < once[f"{metric}_high"] - once[f"{metric}_low"]


def test_a_sample_widens_the_interval_by_what_it_costs():
    sampled_rank = _ranks(5, 200)
    kept = np.zeros(200, dtype=np.int64)
    # The whole codebase giving exactly the sample's estimate: rank 1 + (sampled distractors above) / share.
    full_rank = np.where(sampled_rank > 0, 1 + (sampled_rank - 1) * 2, 0)
    sampled = row_intervals(Outcome(sampled_rank, 30, kept, 0.5), ["mrr"], Bootstrap(200), stream=0)
    full = row_intervals(Outcome(full_rank, 30), ["mrr"], Bootstrap(200), stream=0)
    assert sampled["mrr"] == pytest.approx(full["mrr"])
    assert sampled["mrr_high"] - sampled["mrr_low"] > full["mrr_high"] - full["mrr_low"]


def test_a_probed_sweep_has_intervals_and_a_verdict_in_attrs():
    table = cn.sweep(chunk_size=[10, 30, 60], probe=True, progress=False)
    for metric in ("recall@1", "recall@5", "recall@10", "mrr", "budget_found@2000", "budget_covered@2000"):
        assert (table[f"{metric}_low"] <= table[metric]).all() and (table[metric] <= table[f"{metric}_high"]).all()
    verdict = table.attrs["verdict"]
    # By default the verdict ranks by the budgeted, graded metric: every setting pays the same tokens.
    assert verdict["queries"] == table["queries"].iloc[0] > 0 and verdict["metric"] == "budget_covered@2000"
    assert table["budget_covered@2000"].iloc[verdict["best"]] == table["budget_covered@2000"].max()
    # The grid's three and clanka's own setting (30 lines, 10,000 characters: not in this grid), judged together.
    assert sorted([verdict["best"], *verdict["tied"], *verdict["worse"]]) == [0, 1, 2, 3]
    json.dumps(table.attrs["verdict"])  # plain values: the table saves to Parquet with its attrs


def test_without_the_probe_there_is_no_verdict_and_a_bad_sample_is_refused_by_the_probe():
    assert "verdict" not in cn.sweep(chunk_size=[10, 30], progress=False).attrs
    for bad in (0, 1.5, -0.1, "half", True):
        with pytest.raises(ValueError, match=r"a number in \(0, 1\]"):
            cn.Probe(sample=bad)  # refused where the option is given, before any parsing
    with pytest.raises(TypeError, match="probe must be True, False or a Probe"):
        cn.sweep(chunk_size=[10], probe="yes", progress=False)


def test_recall_flat_across_settings_is_warned(tmp_path):
    # Every declaration is shorter than the smallest chunk_size: all settings cut the same chunks.
    for number in range(6):
        (tmp_path / f"m{number}.ts").write_text(
            f"/** Parse the {number} header fields of a request. */\nexport function parse{number}(x: string) {{\n"
            f"  return x.split(':')[{number}];\n}}\n"
        )
    with pytest.warns(FlatRecallWarning, match="recall is the same at all 2 settings"):
        table = cn.sweep(tmp_path, chunk_size=[10, 30], probe=cn.Probe(reference=False), progress=False)
    assert table.attrs["verdict"]["separable"] is False


def test_a_sample_keeps_every_target_and_a_share_of_the_rest_the_same_each_time():
    codebase = engine.Codebase(cn.sample_codebase())
    settings = engine.ChunkSettings.build(10, 0, None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        whole = ProbeSet(codebase).chunks(settings)
        sampled = ProbeSet(codebase, sample=0.3).chunks(settings)
        again = ProbeSet(codebase, sample=0.3).chunks(settings)
    assert [(c.path, c.start_line) for c in sampled.items] == [(c.path, c.start_line) for c in again.items]
    assert sampled.always is not None
    targets = ProbeSet(codebase, sample=0.3)
    held = {(c.path, c.start_line) for c, always in zip(sampled.items, sampled.always, strict=True) if always}
    for path, start, end in zip(targets.queries["path"], targets.queries["start_line"], targets.queries["end_line"],
                                strict=True):  # fmt: skip
        overlapping = {(c.path, c.start_line) for c in whole.items
                       if c.path == path and c.start_line <= end and c.end_line >= start}  # fmt: skip
        assert overlapping <= held
    others = len(whole) - int(sampled.always.sum())
    assert 0.15 * others < len(sampled) - int(sampled.always.sum()) < 0.45 * others


@pytest.mark.filterwarnings("ignore::clanka_nb.retrieval.FlatRecallWarning")  # 4 queries, 2 settings
def test_an_embedding_sweep_on_a_sample_embeds_less(tmp_path, monkeypatch):
    monkeypatch.setenv("CLANKA_NB_CACHE", "off")
    pytest.importorskip("sqlite_vec")

    class Counting:
        def __init__(self, name: str) -> None:
            self.model_id = f"test/{name}"  # its own vectors: the other sweep's are not found in the cache
            self.count = 0

        def __call__(self, texts):
            self.count += len(texts)
            return hashed_embed(texts)

    for number in range(4):
        (tmp_path / f"documented{number}.ts").write_text(
            f"/** Merge the {number} retry policies of a client into one. */\n"
            f"export function merge{number}(a: number[], b: number[]) {{\n  return a.concat(b);\n}}\n"
        )
    for number in range(60):  # undocumented code: distractors only
        (tmp_path / f"other{number}.ts").write_text(
            f"export function other{number}(x: number) {{\n  return x * {number};\n}}\n"
        )
    whole, part = Counting("whole"), Counting("part")
    full = cn.sweep(tmp_path, chunk_size=[10, 30], probe=cn.Probe(reference=False, embed=whole), progress=False)
    sampled = cn.sweep(tmp_path, chunk_size=[10, 30], probe=cn.Probe(reference=False, embed=part, sample=0.25),
                       progress=False)
    assert 0 < part.count < 0.5 * whole.count
    assert sampled.attrs["sample"] == 0.25 and full.attrs["sample"] is None
    width = (sampled["mrr_high"] - sampled["mrr_low"]).mean()
    assert width > 0


def test_the_cli_prints_the_verdict_and_mrrs_interval(capsys):
    from clanka_nb.cli import main

    assert main(["sweep", str(cn.sample_codebase()), "--probe", "--chunk-size", "10,60", "--metric", "mrr"]) == 0
    captured = capsys.readouterr()
    assert "mrr_low" in captured.out.splitlines()[0] and "recall@5_low" not in captured.out
    last = captured.err.splitlines()[-1]
    assert last.startswith("clanka-nb: note: verdict: use chunk_size=") and "; best: chunk_size=" in last


def test_on_a_real_sweep_a_near_setting_is_not_distinguishable_and_a_far_one_is():
    near = cn.sweep(chunk_size=[55, 60], probe=cn.Probe(reference=False, metric="mrr"), progress=False)
    assert near["mrr"].iloc[0] != near["mrr"].iloc[1]  # they differ, by less than these queries can tell
    assert near.attrs["verdict"]["separable"] is False and len(near.attrs["verdict"]["tied"]) == 1
    assert near.attrs["verdict"]["detectable"] > abs(near.attrs["verdict"]["difference"])
    far = cn.sweep(chunk_size=[10, 60], probe=cn.Probe(reference=False, metric="mrr"), progress=False)
    best = int(far["mrr"].to_numpy().argmax())
    assert far.attrs["verdict"]["best"] == best and far.attrs["verdict"]["worse"] == [1 - best]


def test_the_cli_probes_on_a_sample_and_refuses_a_bad_share(capsys):
    from clanka_nb.cli import main

    sample = str(cn.sample_codebase())
    assert main(["sweep", sample, "--probe", "--chunk-size", "10,60", "--sample", "0.5", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    expected = cn.sweep(sample, chunk_size=[10, 60], probe=cn.Probe(sample=0.5), progress=False)
    assert [row["mrr_low"] for row in rows] == pytest.approx(expected["mrr_low"].tolist())
    for bad in ("0", "1.5", "half"):
        with pytest.raises(SystemExit) as stopped:
            main(["sweep", sample, "--probe", "--sample", bad])
        assert stopped.value.code == 2 and "is not a share" in capsys.readouterr().err
    assert main(["sweep", sample, "--sample", "0.5"]) == 2
    assert "add --probe" in capsys.readouterr().err


def test_on_the_bundled_sample_a_tie_opens_with_the_cheapest_not_a_best():
    # Issue 44: chunk_size 10/20/40 x overlap 0/5 opened with "best: chunk_size=20, chunk_overlap=0" while 5 of the
    # 6 settings were in the confidence set.
    table = cn.sweep(chunk_size=[10, 20, 40], chunk_overlap=[0, 5], probe=True, progress=False)
    verdict = table.attrs["verdict"]
    tied = verdict["confidence_set"]
    assert len(tied) > 1 and not verdict["message"].startswith("best")
    assert verdict["message"].startswith(f"{len(tied)} settings are tied within the noise: take the cheapest of them "
                                         "by tokens indexed, ")
    # The tokens each setting's index holds; costs within 2% of the lowest count as equal (the better mean of them).
    lowest = min(verdict["costs"][row] for row in tied)
    cheapest = next(row for row in tied if verdict["costs"][row] <= lowest * 1.02)  # the set is best first
    assert verdict["choice"] == cheapest == verdict["cheapest"] and verdict["cost_name"] == "tokens indexed"


def test_the_cheapest_can_be_by_chunks_and_is_named():
    table = cn.sweep(chunk_size=[10, 40], probe=cn.Probe(cost="chunks"), progress=False)
    verdict = table.attrs["verdict"]
    assert verdict["cost_name"] == "chunks indexed"
    assert verdict["costs"] == [float(count) for count in table["chunks"]]  # the whole codebase: every chunk
    assert "by chunks indexed" in verdict["message"] or verdict["separable"]
    with pytest.raises(ValueError, match="cost must be one of 'tokens', 'chunks'"):
        cn.Probe(cost="lines")
    assert "sweep past it (smaller values)" not in verdict["message"] or "chunk_overlap=0 is" not in verdict["message"]
