"""Issue 53 item 5: the language mode is named in every viewer's header (browser, tuner, preview) and on both sides
of a compare."""

from __future__ import annotations

import re

from clanka_nb import engine, frames
from clanka_nb.bundled import sample_codebase
from clanka_nb.widgets import compare, preview, tune

from ._html import parse


def test_the_browser_header_names_the_mode() -> None:
    from clanka_nb.widgets._browser_model import BrowserModel, header_html

    for mode in ("clanka", "extended"):
        chunks = frames.chunk_codebase(sample_codebase(), languages=mode, progress=False)
        assert f"languages={mode}" in header_html(BrowserModel(chunks))


def test_the_tuner_header_names_the_mode() -> None:
    for mode in ("clanka", "extended"):
        tuner = tune(engine.Codebase(sample_codebase(), languages=mode), chunk_size=30)
        assert f"languages={mode}" in tuner.stats_html.value


def test_the_preview_header_names_the_mode() -> None:
    for mode in ("clanka", "extended"):
        shown = preview(sample_codebase(), languages=mode)
        header = re.search(r'data-clanka="preview"[^>]*><div[^>]*>(.*?)</div>', shown.html)
        assert header is not None and f"{mode} mode" in header.group(1)


def test_a_compare_of_two_modes_names_each_side_s_mode() -> None:
    view = compare(engine.Codebase(sample_codebase()), a={"languages": "clanka"}, b={"languages": "extended"})
    assert [side.attrs["data-side"] for side in parse(view.view.value).find_all("data-side")] == ["A", "B"]
    heads = re.findall(r"<b>([AB])</b> · ([^<]*)</div>", view.view.value)
    assert [side for side, _ in heads] == ["A", "B"]
    assert "languages=clanka" in heads[0][1] and "languages=extended" in heads[1][1]
    assert heads[0][1] != heads[1][1]  # two modes, two headers (they were identical)
    same = compare(engine.Codebase(sample_codebase()), a={"chunk_size": 30}, b={"chunk_size": 8})
    assert all("languages=clanka" in text for _, text in re.findall(r"<b>([AB])</b> · ([^<]*)</div>",
                                                                    same.view.value))  # fmt: skip
