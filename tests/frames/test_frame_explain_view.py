"""explain's frame shows its `why` sentences whole and left-aligned, in a notebook (HTML) and as text."""

from __future__ import annotations

import re

import pandas as pd

import clanka_nb as cn


def _frame() -> pd.DataFrame:
    return cn.explain(None, "src/pricing.ts", chunk_size=10)


def test_the_html_view_holds_every_sentence_whole_left_aligned() -> None:
    frame = _frame()
    longest = max(frame["why"], key=len)
    assert len(longest) > 50  # pandas' default cut
    html = frame._repr_html_()
    assert longest.replace("`", "`") in html.replace("&#x27;", "'")
    position = list(frame.columns).index("why") + 1
    assert re.search(rf"tbody td:nth-of-type\({position}\)[^{{]*\{{text-align: left", html)
    # A slice of the columns keeps the view, with the rule aimed at where `why` now is.
    sliced = frame[["start_line", "why"]]._repr_html_()
    assert longest in sliced.replace("&#x27;", "'") and "tbody td:nth-of-type(2)" in sliced


def test_the_text_view_holds_every_sentence_whole() -> None:
    frame = _frame()
    text = repr(frame)
    assert all(sentence in text for sentence in frame["why"])
    assert "..." not in text.splitlines()[1]


def test_the_data_is_a_plain_frames() -> None:
    frame = _frame()
    assert isinstance(frame, pd.DataFrame)
    pd.testing.assert_frame_equal(pd.DataFrame(frame), frame, check_frame_type=False)
    assert frame.attrs["path"] == "src/pricing.ts"
