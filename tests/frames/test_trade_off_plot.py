"""The trade-off plot of a sweep: quality against the cost of an answer, one point per setting, the frontier."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from matplotlib.backend_bases import RendererBase
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text
from matplotlib.transforms import Bbox

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
    figure = frames.plot_sweep(frame, "recall@5", x="tokens@5")
    drawn(figure)  # issue 46 item 8: the labels are placed when drawn, once the layout has sized the axes
    offsets = {text.get_text(): text.xyann for text in figure.axes[0].texts}
    assert offsets["size 10"] != offsets["size 20"]  # the twins' labels are apart
    assert offsets["size 30"] == (4, 4)  # a lone point keeps the plain offset
    # The last point sits at the right edge: its label turns left to stay inside the axes (it used to run out).
    assert offsets["size 60"][0] < 0


def drawn(figure: Figure, dpi: float = 100) -> RendererBase:
    """Draw `figure` as a PNG would be (the Agg renderer) at `dpi`; the renderer, to measure texts with."""
    figure.set_dpi(dpi)
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    return canvas.get_renderer()


def label_boxes(figure: Figure, renderer: RendererBase) -> dict[str, Bbox]:
    """The rendered box of each label shown, its text alone (not its leader line)."""
    return {text.get_text(): Text.get_window_extent(text, renderer) for text in figure.axes[0].texts
            if text.get_visible()}  # fmt: skip


def assert_apart(boxes: dict[str, Bbox]) -> None:
    for (one, a), (other, b) in itertools.combinations(boxes.items(), 2):
        assert not a.overlaps(b), f"{one!r} {a.bounds} prints over {other!r} {b.bounds}"


def ten_close_settings() -> pd.DataFrame:
    # Issue 46 item 8 (trpc/trpc): ten settings of nearly the same cost and quality, as a probed sweep of a repository
    # gives; "size 60, overlap 0" printed over "size 60, overlap 5" and 30 over 40.
    sizes, overlaps = [10, 20, 30, 40, 60] * 2, [0] * 5 + [5] * 5
    return pd.DataFrame({
        "chunk_size": sizes, "chunk_overlap": overlaps,
        "tokens@5": [1890.0, 1902.0, 1911.0, 1915.0, 1921.0, 1893.0, 1904.0, 1912.0, 1916.0, 1922.0],
        "budget_covered@2000": [0.412, 0.415, 0.418, 0.418, 0.419, 0.412, 0.416, 0.418, 0.419, 0.419],
    })  # fmt: skip


@pytest.mark.parametrize("dpi", [100, 200])
def test_labels_of_ten_close_settings_never_overprint(dpi: float) -> None:
    figure = frames.plot_sweep(ten_close_settings(), "budget_covered@2000", x="tokens@5")
    renderer = drawn(figure, dpi)
    boxes = label_boxes(figure, renderer)
    assert sorted(boxes) == sorted(f"size {s}, overlap {o}" for s in (10, 20, 30, 40, 60) for o in (0, 5))
    assert_apart(boxes)
    inside = figure.axes[0].get_window_extent(renderer)
    assert all(inside.x0 <= box.x0 and box.x1 <= inside.x1 and inside.y0 <= box.y0 and box.y1 <= inside.y1
               for box in boxes.values())  # fmt: skip
    # Nor over a point or across the frontier: no box holds a point, or a point along the frontier's segments.
    axes = figure.axes[0]
    (front,) = [line for line in axes.lines if line.get_label() == "frontier"]
    joined = axes.transData.transform(np.column_stack([front.get_xdata(), front.get_ydata()]))
    along = np.concatenate([a + np.linspace(0, 1, 200)[:, None] * (b - a) for a, b in itertools.pairwise(joined)])
    frame = ten_close_settings()
    dots = axes.transData.transform(frame[["tokens@5", "budget_covered@2000"]].to_numpy())
    for name, box in boxes.items():
        assert not any(box.contains(*spot) for spot in np.concatenate([along, dots])), name


def test_labels_of_settings_at_one_point_are_spread_around_it() -> None:
    frame = ten_close_settings().assign(**{"tokens@5": 1900.0, "budget_covered@2000": 0.4})
    figure = frames.plot_sweep(frame, "budget_covered@2000", x="tokens@5")
    boxes = label_boxes(figure, drawn(figure))
    assert len(boxes) == 10
    assert_apart(boxes)
    # Labels away from their point (over 8 points from it: 11 pixels) are joined to it by a leader line, each from
    # the edge of its box towards the point; those beside it need none.
    point = figure.axes[0].transData.transform((1900.0, 0.4))
    edges = [np.clip(point, box.min, box.max) for box in boxes.values()]
    far = [edge for edge in edges if np.hypot(*(edge - point)) > 8 * 100 / 72]
    (leaders,) = [c for c in figure.axes[0].collections if c.get_gid() == "leader lines"]
    assert far and len(leaders.get_segments()) == len(far)
    for start, end in leaders.get_segments():
        assert min(np.hypot(*(start - edge)) for edge in far) < 1e-6
        assert np.hypot(*(end - point)) < np.hypot(*(start - point))


def test_labels_with_no_room_are_left_out_with_a_note_never_printed_over() -> None:
    frame = pd.DataFrame({"chunk_size": range(1, 121), "chunk_overlap": [0, 1] * 60, "tokens@5": 100.0,
                          "recall@5": 0.5})  # fmt: skip
    figure = frames.plot_sweep(frame, "recall@5", x="tokens@5")
    figure.set_size_inches(4, 3)  # a small figure: fewer labels to fill it, a faster test
    renderer = drawn(figure)
    boxes = label_boxes(figure, renderer)
    assert 5 < len(boxes) < 120
    assert_apart(boxes)
    (note,) = [text for text in figure.texts if text.get_visible()]
    assert "labels left out" in note.get_text()
    assert all(not box.overlaps(note.get_window_extent(renderer)) for box in boxes.values())


@pytest.mark.parametrize("metric", ["recall@5", "budget_covered@2000", "budget_covered@123456789012345678"])
def test_the_title_fits_the_figure_for_long_metric_names(metric: str) -> None:
    cost = "tokens@1234567890123" if "1234567" in metric else "tokens@5"
    frame = table().rename(columns={"recall@5": metric, "tokens@5": cost}).drop(columns=["recall@5_low",
                                                                                           "recall@5_high"])
    for figure in (frames.plot_sweep(frame, metric, x=cost), frames.plot_sweep(frame, metric, x="chunk_size")):
        renderer = drawn(figure)
        title = figure.axes[0].title
        box, page = title.get_window_extent(renderer), figure.bbox
        assert page.x0 <= box.x0 and box.x1 <= page.x1 and page.y0 <= box.y0 and box.y1 <= page.y1, title.get_text()
        # Nothing of the name is lost to the wrapping (which breaks at spaces, or inside a name too long for a line).
        assert "".join(metric.replace("_", " ").split()) in "".join(title.get_text().split())


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


def test_a_setting_without_a_score_has_no_point_and_no_label() -> None:
    frame = table().assign(**{"recall@5": [0.40, np.nan, 0.55, 0.55]})
    figure = frames.plot_sweep(frame, "recall@5", x="tokens@5")
    assert sorted(t.get_text() for t in figure.axes[0].texts) == ["size 10", "size 30", "size 60"]
    assert sorted(label_boxes(figure, drawn(figure))) == ["size 10", "size 30", "size 60"]
