"""The trade-off plot of a sweep: quality against the cost of an answer, one point per setting, the frontier."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from clanka_nb import frames
from clanka_nb.frames.plots import frontier


def table() -> pd.DataFrame:
    # size 10 is cheap and good, 20 dearer and worse (beaten), 30 dearer and best, 60 dearest and no better.
    return pd.DataFrame({
        "chunk_size": [10, 20, 30, 60], "chunk_overlap": [0, 0, 0, 0],
        "tokens@5": [400.0, 800.0, 1200.0, 2400.0], "recall@5": [0.40, 0.35, 0.55, 0.55],
        "recall@5_low": [0.30, 0.25, 0.45, 0.44], "recall@5_high": [0.50, 0.45, 0.65, 0.66],
    })  # fmt: skip


def test_the_frontier_is_what_nothing_beats_on_both() -> None:
    assert frontier(np.array([400, 800, 1200, 2400]), np.array([0.4, 0.35, 0.55, 0.55])).tolist() == [
        True, False, True, False]  # fmt: skip
    # Equal points do not beat each other; NaN is never on the frontier and beats nothing.
    assert frontier(np.array([1.0, 1.0, np.nan]), np.array([0.5, 0.5, 0.9])).tolist() == [True, True, False]
    assert frontier(np.array([]), np.array([])).tolist() == []


def test_a_cost_on_x_draws_one_point_per_setting_and_joins_the_frontier() -> None:
    axes = frames.plot_sweep(table(), "recall@5", x="tokens@5").axes[0]
    (line,) = [line for line in axes.lines if line.get_label() == "frontier"]
    assert line.get_xdata().tolist() == [400.0, 1200.0]
    assert line.get_ydata().tolist() == [0.40, 0.55]
    beaten = next(c for c in axes.collections if c.get_label() == "beaten on both")
    assert beaten.get_offsets().tolist() == [[800.0, 0.35], [2400.0, 0.55]]
    assert sorted(t.get_text() for t in axes.texts) == ["size 10", "size 20", "size 30", "size 60"]
    assert "95% interval" in [handle.get_label() for handle in axes.get_legend_handles_labels()[0]]
    assert "tokens@5" in axes.get_xlabel() and "paid" in axes.get_title()


def test_the_labels_name_every_setting_that_varies() -> None:
    frame = table().assign(chunk_overlap=[0, 5, 0, 5])
    axes = frames.plot_sweep(frame, "recall@5", x="tokens@5").axes[0]
    assert "size 20, overlap 5" in [t.get_text() for t in axes.texts]


def test_a_whole_chunker_s_point_is_named_by_its_label_alone() -> None:
    # sweep(chunkers=): the engine's rows, then a chunker's row with no engine settings.
    frame = table().assign(chunker_label=["clanka", "clanka", "clanka", "astchunk"])
    frame["chunk_size"] = frame["chunk_size"].astype("Int64").mask(frame.index == 3)
    frame["chunk_overlap"] = frame["chunk_overlap"].astype("Int64").mask(frame.index == 3)
    axes = frames.plot_sweep(frame, "recall@5", x="tokens@5").axes[0]
    assert [t.get_text() for t in axes.texts] == ["clanka, size 10", "clanka, size 20", "clanka, size 30", "astchunk"]


def test_without_intervals_there_are_no_bars() -> None:
    frame = table().drop(columns=["recall@5_low", "recall@5_high"])
    axes = frames.plot_sweep(frame, "recall@5", x="tokens@5").axes[0]
    assert not axes.containers


def test_a_cost_that_is_not_a_column_names_the_choices() -> None:
    with pytest.raises(ValueError, match="x='tokens@50' is not a column"):
        frames.plot_sweep(table(), "recall@5", x="tokens@50")


def test_labels_of_points_close_together_do_not_sit_on_each_other() -> None:
    frame = table().assign(**{"tokens@5": [400.0, 401.0, 1200.0, 2400.0], "recall@5": [0.40, 0.40, 0.55, 0.1]})
    axes = frames.plot_sweep(frame, "recall@5", x="tokens@5").axes[0]
    offsets = {text.get_text(): text.xyann for text in axes.texts}
    assert offsets["size 10"] != offsets["size 20"]  # the twins' labels are a line apart
    assert offsets["size 30"] == offsets["size 60"] == (4, 4)  # lone points keep the plain offset


def test_chunker_labels_are_drawn_as_written_never_as_math() -> None:
    # Issue 42 item 10: `$x$` was set as math, and 2,000 nested braces between dollars raised RecursionError.
    labels = ["$x$", "$" + "{" * 2000 + "}" * 2000 + "$", "plain"]
    frame = pd.DataFrame({"chunker_label": labels, "tokens@5": [400.0, 800.0, 1200.0],
                          "recall@5": [0.4, 0.5, 0.6]})  # fmt: skip
    figure = frames.plot_sweep(frame, "recall@5", x="tokens@5")
    figure.canvas.draw()  # the layout and the texts are made here: it must not raise
    drawn = {t.get_text() for t in figure.axes[0].texts}
    assert drawn == set(labels)
    assert not any(text.get_parse_math() for text in figure.findobj(lambda a: hasattr(a, "get_parse_math")))
