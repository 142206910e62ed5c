"""The tuning panel's trade-off chart: one dot per setting probed, the frontier joined, the current one ringed."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from clanka_nb.widgets._charts import render_trade_off

SVG = "{http://www.w3.org/2000/svg}"
POINTS = [("size 10", 400.0, 0.40), ("size 20", 800.0, 0.35), ("size 30", 1200.0, 0.55), ("size 60", 2400.0, 0.55)]


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_one_dot_per_setting_and_the_frontier_through_the_unbeaten() -> None:
    root = parse(render_trade_off(POINTS, current="size 20", quality="budget_covered@2000"))
    dots = root.findall(f"{SVG}circle")
    assert len(dots) == 4
    titles = [dot.find(f"{SVG}title").text for dot in dots]
    assert [title.endswith("(frontier)") for title in titles] == [True, False, True, False]
    (line,) = root.findall(f"{SVG}polyline")
    xs = [float(point.split(",")[0]) for point in line.get("points").split()]
    assert len(xs) == 2 and xs == sorted(xs)  # size 10 then size 30, left to right
    ringed = [dot for dot in dots if "stroke" in (dot.get("style") or "")]
    assert [dot.find(f"{SVG}title").text.split(":")[0] for dot in ringed] == ["size 20"]
    # Higher quality is drawn higher: size 30's dot sits above size 10's.
    assert float(dots[2].get("cy")) < float(dots[0].get("cy"))


def test_before_any_probe_it_says_how_to_get_points() -> None:
    root = parse(render_trade_off([]))
    assert not root.findall(f"{SVG}circle")
    assert any("turn the probe on" in (text.text or "") for text in root.findall(f"{SVG}text"))
    # NaN scores (no queries) are not dots either.
    assert not parse(render_trade_off([("size 10", 400.0, math.nan)])).findall(f"{SVG}circle")


def test_labels_from_the_code_are_escaped() -> None:
    svg = render_trade_off([("<script>alert(1)</script>", 10.0, 0.5)], quality="a&b")
    root = parse(svg)  # still well-formed
    assert "<script>" not in svg
    assert root.find(f"{SVG}circle").find(f"{SVG}title").text.startswith("<script>")


def test_one_setting_or_equal_costs_still_draw_inside_the_plot() -> None:
    root = parse(render_trade_off([("a", 500.0, 0.2), ("b", 500.0, 0.3)], width=380))
    for dot in root.findall(f"{SVG}circle"):
        assert 0 < float(dot.get("cx")) < 380


@pytest.mark.parametrize("quality", ["recall@5", "budget_covered@2000", "budget_covered@123456789012345678901234"])
def test_the_title_fits_the_chart_for_long_metric_names(quality: str) -> None:
    # Issue 46 item 8: "budget_covered@2000 against tokens@5 paid (0 settin" was cut at the chart's right edge.
    # Measured in DejaVu Sans, wider than the usual UI fonts the browser draws it in.
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    for points in ([], POINTS):
        root = parse(render_trade_off(points, quality=quality, width=380, height=184))
        width, height = float(root.get("width")), float(root.get("height"))
        texts = root.findall(f"{SVG}text")
        titles = [text for text in texts if text.get("data-title") is not None] or texts[:1]
        for title in titles:
            size = float(title.get("font-size"))
            measured, _, _ = TextToPath().get_text_width_height_descent(title.text, FontProperties(
                family="DejaVu Sans", size=size), ismath=False)  # fmt: skip
            x, y = float(title.get("x")), float(title.get("y"))
            assert x >= 0 and x + measured <= width, f"{title.text!r} runs {x + measured - width:.0f} px past the edge"
            assert size <= y <= height
        shown = " ".join(title.text for title in titles)
        assert "".join(shown.split()) == "".join(f"{quality} against tokens@5 paid ({len(points)} settings)".split())
        # The plot starts below the title's last line.
        lowest = max(float(title.get("y")) for title in titles)
        assert all(float(dot.get("cy")) - 4 > lowest for dot in root.findall(f"{SVG}circle"))


def test_the_quality_axis_fits_the_points_not_zero() -> None:
    # Probed scores of 0.45-0.65 sat against the top edge of an axis from 0 (issue 56, 7): they spread over the
    # plot's height now, none on an edge, and the axis' labels bracket them.
    points = [("a", 400.0, 0.45), ("b", 800.0, 0.52), ("c", 1200.0, 0.65)]
    root = parse(render_trade_off(points, height=184))
    ys = sorted(float(dot.get("cy")) for dot in root.findall(f"{SVG}circle"))
    axis = max(float(line.get("y1")) for line in root.findall(f"{SVG}line"))
    titles_end = max(float(text.get("y")) for text in root.findall(f"{SVG}text") if text.get("data-title") is not None)
    assert titles_end < ys[0] and ys[-1] < axis  # inside the plot, off both edges
    assert ys[-1] - ys[0] > 0.6 * (axis - titles_end)  # the scores' range takes most of the plot's height
    labels = [float(t.text) for t in root.findall(f"{SVG}text") if t.text and t.get("text-anchor") == "end"]
    assert min(labels) < 0.45 and max(labels) > 0.65 and min(labels) > 0.3
