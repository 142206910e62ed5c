"""The tuning panel's probe: each score with its 95% interval, and whether a move changed search beyond the noise."""

from __future__ import annotations

import numpy as np

from clanka_nb import Probe, engine, sample_codebase, tune
from clanka_nb.decision import compared
from clanka_nb.retrieval.internals import ProbeSet
from clanka_nb.retrieval.scoring._probe import probe_outcome
from tests.widgets._html import parse


def test_the_probe_shows_intervals_and_the_paired_test_of_each_move():
    codebase = engine.Codebase(sample_codebase())
    tuner = tune(codebase, chunk_size=30, probe=Probe(metric="mrr"))  # each move's test is on the Probe's metric
    stats = tuner.model.stats
    assert stats["mrr_low"] < stats["mrr"] < stats["mrr_high"]
    assert stats["recall@5_low"] <= stats["recall@5"] <= stats["recall@5_high"]
    shown = parse(tuner.stats_html.value)
    (mrr,) = shown.find_all("data-stat", "mrr")
    assert f"({stats['mrr_low']:.3f}–{stats['mrr_high']:.3f})" in mrr.text
    assert not shown.find_all("data-stat", "vs_before")  # nothing to compare with yet

    tuner.chunk_size.value = 60
    probe_set = ProbeSet(codebase)
    before = probe_outcome(probe_set, engine.ChunkSettings.build(30, 0, None))[1]
    now = probe_outcome(probe_set, engine.ChunkSettings.build(60, 0, None))[1]
    rr = [np.where(o.rank > 0, 1 / np.maximum(o.rank, 1), 0.0) for o in (before, now)]
    (row,) = parse(tuner.stats_html.value).find_all("data-stat", "vs_before")
    assert "budget_covered@2000" in tuner.model.stats  # the budgeted columns are shown whatever the metric
    # The verdict's test on the probe set's clusters (queries sharing a target or a commit are one), not per query.
    said = compared(before, now, "mrr", probe_set.groups, margin=Probe().margin)
    assert row.text.strip() == said
    assert f"MRR {rr[1].mean() - rr[0].mean():+.3f} [" in said
    assert f"on these {len(rr[0])} queries in {len(set(probe_set.groups.tolist()))} clusters" in said

    tuner.chunk_size.value = 60  # no move: no change
    tuner.update()
    assert "the same on these" in tuner.model.stats["vs_before"]


def test_the_panel_probes_with_the_probe_s_budget_and_shows_each_budgeted_row():
    tuner = tune(engine.Codebase(sample_codebase()), chunk_size=30, probe=Probe(budget=[500, 1500]))
    stats = tuner.model.stats
    assert stats["budget_covered@500"] <= stats["budget_covered@1500"] and "budget_covered@2000" not in stats
    assert stats["budget_covered@500_low"] <= stats["budget_covered@500"] <= stats["budget_covered@500_high"]
    shown = parse(tuner.stats_html.value)
    (row,) = shown.find_all("data-stat", "budget_covered@500")
    assert "lines covered within 500 tokens" in row.text
    assert shown.find_all("data-stat", "budget_found@1500") and shown.find_all("data-stat", "tokens@5")


def test_the_model_keeps_one_trade_off_point_per_setting_probed():
    from clanka_nb.widgets._tune_model import REFERENCE_POINT, TunerModel

    codebase = engine.Codebase(sample_codebase())
    model = TunerModel(codebase, engine.Settings(30, 0, None), probe=Probe(budget=1500))
    model.update(engine.Settings(30, 0, None))  # the probe off: no point
    assert model.points == [] and model.current is None
    for size in (30, 10, 60, 10):  # 10 twice: one point, not two
        model.update(engine.Settings(size, 0, None), probe=True)
    assert model.cost == "tokens@5" and model.quality == "budget_covered@1500"
    assert model.points[0][0] == REFERENCE_POINT  # clanka's own setting, scored when the probe first ran
    labels = [label for label, _, _ in model.points[1:]]
    assert len(labels) == 3
    assert all(f"chunk_size={size}" in label for label, size in zip(labels, (30, 10, 60), strict=True))
    assert model.current == labels[1]  # the last probed setting: size 10
    (point,) = [p for p in model.points if p[0] == model.current]
    assert point[1:] == (model.stats["tokens@5"], model.stats["budget_covered@1500"])
    model.update(engine.Settings(20, 0, None))  # moved without the probe: no dot added, none ringed
    assert len(model.points) == 4 and model.current is None


def test_the_model_prices_the_largest_cut_off_under_five():
    from clanka_nb.widgets._tune_model import TunerModel

    model = TunerModel(engine.Codebase(sample_codebase()), engine.Settings(30, 0, None), probe=Probe(k=[1, 3, 10]))
    assert model.cost == "tokens@3"
    model.update(engine.Settings(30, 0, None), probe=True)
    assert model.points[1][1] == model.stats["tokens@3"]  # after clanka's own setting's point


def test_the_panel_draws_one_dot_per_setting_probed_with_the_current_one_ringed():
    import xml.etree.ElementTree as ET

    from clanka_nb.widgets._tune_model import REFERENCE_POINT

    svg_ns = "{http://www.w3.org/2000/svg}"
    tuner = tune(engine.Codebase(sample_codebase()), chunk_size=30)  # the probe off: a note, no dot
    assert not ET.fromstring(tuner.trade_off.value).findall(f"{svg_ns}circle")
    tuner.probe.value = True
    for size in (10, 60, 10):
        tuner.chunk_size.value = size
    root = ET.fromstring(tuner.trade_off.value)
    dots = root.findall(f"{svg_ns}circle")
    assert len(dots) == len(tuner.model.points) - 1 == 3  # sizes 30, 10 and 60; clanka's setting is a square
    (square,) = root.findall(f"{svg_ns}rect[@data-reference]")
    assert square.find(f"{svg_ns}title").text.startswith(REFERENCE_POINT)
    ringed = [dot.find(f"{svg_ns}title").text for dot in dots if "stroke" in (dot.get("style") or "")]
    assert len(ringed) == 1 and ringed[0].startswith(tuner.model.current) and "chunk_size=10" in ringed[0]
    assert "budget_covered@2000 against tokens@5" in "".join(t.text or "" for t in root.findall(f"{svg_ns}text"))
    assert tuner.trade_off.value in tuner._repr_html_()  # the still picture shows it too


def test_the_panel_says_a_move_within_the_margin_is_equivalent():
    codebase = engine.Codebase(sample_codebase())
    tuner = tune(codebase, chunk_size=30, probe=Probe(metric="mrr", margin=0.5))  # half the scale: any small move
    tuner.chunk_size.value = 32
    said = tuner.model.stats["vs_before"]
    assert "equivalent within \u00b10.5 (two one-sided tests)" in said or "the same on these" in said
    assert "not distinguishable" not in said
    strict = tune(codebase, chunk_size=30, probe=Probe(metric="mrr", margin=None))
    strict.chunk_size.value = 32
    assert "equivalent" not in strict.model.stats["vs_before"]


def test_the_panel_answers_against_clanka_s_setting_first_and_says_how_to_apply_the_shown_one():
    # Issue 53 items 1-2: the panel compares the shown setting with clanka's own and says what applies it in clanka.
    from clanka_nb.widgets._tune_model import TunerModel, render_stats

    model = TunerModel(engine.Codebase(sample_codebase()), engine.Settings(30, 0, None))
    model.update(engine.Settings(30, 0, 10_000), probe=True)  # clanka's own setting: the same, nothing to change
    assert "vs clanka's setting" in model.stats["vs_clanka"] and "the same" in model.stats["vs_clanka"]
    assert model.stats["carry"].startswith("its default, nothing to change")
    model.update(engine.Settings(60, 5, None), probe=True)
    assert "resolveChunkConfig" in model.stats["carry"] and "chunkSize: 60, chunkOverlap: 5" in model.stats["carry"]
    shown = render_stats(model.stats, model.before)
    assert shown.index('data-stat="vs_clanka"') < shown.index('data-stat="carry"') < shown.index('data-stat="chunks"')
    extended = TunerModel(engine.Codebase(sample_codebase(), languages="extended"), engine.Settings(30, 0, 10_000))
    extended.update(engine.Settings(30, 0, 10_000), probe=True)
    assert "extended mode" in extended.stats["carry"] and "TS/JS only" in extended.stats["carry"]
