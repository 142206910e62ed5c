"""The tuning panel's SVG histogram: bars as counted, and the chunk_size label clear of every bar."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from clanka_nb.widgets._charts import render_histogram

from ._html import parse

FONT_DESCENT = 3  # px below the baseline a 10 px font may draw (g, p, y)
FONT_ASCENT = 10  # px above it, at most the font size


def _drawn(svg: str) -> tuple[list, object, object]:
    root = parse(svg)
    rects = [e for e in _all(root) if e.tag == "rect"]
    texts = [e for e in _all(root) if e.tag == "text"]
    label = next((e for e in texts if "data-marker" in e.attrs), None)
    title = texts[0]
    return rects, label, title


def _all(element):
    yield element
    for child in element.children:
        yield from _all(child)


@settings(max_examples=60, deadline=None)
@given(
    lines=st.lists(st.integers(1, 400), min_size=1, max_size=300),
    marker=st.integers(1, 400),
)
def test_the_chunk_size_label_sits_above_the_tallest_bar(lines: list[int], marker: int) -> None:
    svg = render_histogram(np.array(lines), marker=marker)
    rects, label, title = _drawn(svg)
    assert label is not None and label.text == f"chunk_size {marker}"
    y = float(label.attrs["y"])
    tallest = min(float(r.attrs["y"]) for r in rects)  # SVG y grows downwards: the tallest bar's top
    assert y + FONT_DESCENT <= tallest
    assert y - FONT_ASCENT >= float(title.attrs["y"]) + FONT_DESCENT  # and clear of the title above it
    assert sum(int(r.children[0].text.split(": ")[1].split()[0].replace(",", "")) for r in rects) == len(lines)


def test_label_of_a_histogram_whose_tallest_bar_is_at_the_marker() -> None:
    # The case the issue saw: every chunk as long as chunk_size, one bar as tall as the plot, under the label.
    svg = render_histogram(np.full(500, 30), marker=30)
    rects, label, _ = _drawn(svg)
    (bar,) = rects
    x, width = float(bar.attrs["x"]), float(bar.attrs["width"])
    assert x <= float(label.attrs["x"]) <= x + width + 4  # the label starts at the bar (the marker's line)
    assert float(label.attrs["y"]) + FONT_DESCENT <= float(bar.attrs["y"])
