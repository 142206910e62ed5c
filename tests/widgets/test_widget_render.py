"""The pure renderers: band layout, the preview's rows and bands, escaping, paging, the chunk table."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from clanka_nb import engine, frames
from clanka_nb.widgets import assign_columns, render_preview, render_table
from clanka_nb.widgets._bands import Band, chunk_bands
from clanka_nb.widgets._highlight import highlight_lines
from clanka_nb.widgets._style import SELECTED

from ._html import parse

CLASS_TS = """\
export class Shelf {
  constructor(readonly code: string) {}

  /** How many fit. */
  capacity(): number {
    return 30;
  }
}
"""


def bands_of(html: str) -> list[tuple[int, int, str]]:
    return [
        (int(e.attrs["data-start"]), int(e.attrs["data-end"]), e.attrs["data-type"])
        for e in parse(html).find_all("data-chunk")
    ]


def render(text: str, path: str = "shelf.ts", **view) -> tuple[list[engine.CodeChunk], str]:
    chunks = engine.chunk_file_content(path, text, **view.pop("settings", {}))
    return chunks, render_preview(text.split("\n")[:-1], chunks, path=path, **view)


intervals = st.lists(
    st.tuples(st.integers(1, 60), st.integers(0, 25)).map(lambda t: Band(0, t[0], t[0] + t[1])), max_size=25
)


@given(intervals)
def test_overlapping_bands_never_share_a_column_and_no_column_is_wasted(bands: list[Band]) -> None:
    columns = assign_columns(bands)
    for i, a in enumerate(bands):
        for j, b in enumerate(bands[:i]):
            if a.start_line <= b.end_line and b.start_line <= a.end_line:
                assert columns[i] != columns[j]
    # Greedy colouring by start is optimal for intervals: as many columns as chunks on the busiest line.
    depth = max((sum(b.start_line <= line <= b.end_line for b in bands) for line in range(1, 90)), default=0)
    assert max(columns, default=-1) + 1 == depth


def test_a_class_sits_left_of_its_methods() -> None:
    chunks = engine.chunk_file_content("shelf.ts", CLASS_TS)
    columns = dict(zip([c.type for c in chunks], assign_columns(chunk_bands(chunks)), strict=False))
    assert columns == {"class": 0, "method": 1}


def test_every_chunk_is_one_band_spanning_exactly_its_lines() -> None:
    chunks, html = render(CLASS_TS)
    assert sorted(bands_of(html)) == sorted((c.start_line, c.end_line, c.type or "") for c in chunks)
    for element in parse(html).find_all("data-chunk"):
        rows = int(element.attrs["rowspan"])
        assert rows == int(element.attrs["data-end"]) - int(element.attrs["data-start"]) + 1


def test_every_line_is_a_numbered_row_with_its_text() -> None:
    _, html = render(CLASS_TS)
    rows = parse(html).find_all("data-line")
    assert [int(r.attrs["data-line"]) for r in rows] == list(range(1, 9))
    for row, line in zip(rows, CLASS_TS.split("\n"), strict=False):
        assert line in row.text, (row.attrs["data-line"], row.text)


def test_rows_have_equal_cell_counts_so_the_table_is_rectangular() -> None:
    """Each row: number, coverage mark, gutter columns (spanned), code: the gutter never shifts the code."""
    _, html = render(CLASS_TS)
    rows = parse(html).find_all("data-line")
    width = 2 + 2 + 1  # two gutter columns (class, method)
    occupied = {r: 0 for r in range(1, len(rows) + 1)}
    for row in rows:
        line = int(row.attrs["data-line"])
        for cell in row.children:
            span = int(cell.attrs.get("rowspan", "1"))
            for covered in range(line, line + span):
                occupied[covered] += 1
    assert set(occupied.values()) == {width}


def test_hover_title_holds_the_chunk_metadata() -> None:
    _, html = render(CLASS_TS)
    method = next(e for e in parse(html).find_all("data-type", "method") if e.attrs["data-start"] == "4")
    assert method.attrs["title"].split("\n") == ["method capacity", "parent: class Shelf", "lines 4–7 (4 lines)"]
    assert "method capacity 4–7" in method.text


def test_lines_no_chunk_covers_are_marked_code_or_blank() -> None:
    text = 'import { a } from "./a";\n\nexport function f() {\n  return a;\n}\nf();\n'
    _, html = render(text, "main.ts")
    marks = {int(r.attrs["data-line"]): r.attrs["data-uncovered"] for r in parse(html).find_all("data-uncovered")}
    assert marks == {1: "code", 2: "blank", 6: "code"}
    assert "2 line(s) of code in no chunk" in html
    assert "code in no chunk" in parse(html).find_all("data-legend")[0].text


def test_overlapping_windows_get_stacked_bands() -> None:
    text = "".join(f"step{i}();\n" for i in range(1, 11))
    chunks, html = render(text, "steps.mjs", settings={"chunk_size": 4, "chunk_overlap": 2})
    assert [(c.start_line, c.end_line) for c in chunks] == [(1, 4), (3, 6), (5, 8), (7, 10)]
    assert sorted(bands_of(html)) == [(1, 4, ""), (3, 6, ""), (5, 8, ""), (7, 10, "")]
    assert len(parse(html).find_all("data-chunk")) == 4


def test_code_and_names_are_escaped() -> None:
    text = 'export const tag = "<script>alert(1)</script>";\n'
    chunks = [{"start_line": 1, "end_line": 1, "type": "variable", "name": '<img src=x onerror="y">'}]
    html = render_preview(text.split("\n")[:-1], chunks, path="<b>.ts")
    assert "<script>" not in html and "<img" not in html and "<b>.ts" not in html
    assert "&lt;script&gt;" in html or "&lt;</span>" in html


def test_output_is_inline_styled_and_deterministic() -> None:
    _, first = render(CLASS_TS)
    _, second = render(CLASS_TS)
    assert first == second
    for forbidden in ("<style", "<script", "<link", "class="):
        assert forbidden not in first


def test_a_multi_line_token_is_coloured_on_each_of_its_lines() -> None:
    lines = ["const a = `first", "second`;", "/* one", "two */"]
    html_lines = highlight_lines(lines, "t.ts")
    assert len(html_lines) == 4
    assert all(line.startswith("<span") or "<span" in line for line in html_lines)
    assert html_lines[1].count("<span") == html_lines[1].count("</span>")


def test_blank_lines_at_the_edges_keep_their_numbers() -> None:
    lines = ["", "", "const a = 1;", ""]
    assert [line.strip() == "" for line in highlight_lines(lines, "t.ts")] == [True, True, False, True]


def test_long_files_are_paged_with_a_notice() -> None:
    lines = [f"let v{i} = {i};" for i in range(1, 5001)]
    chunks = [{"start_line": 1, "end_line": 5000, "type": None}]
    html = render_preview(lines, chunks, path="big.ts", max_lines=2000)
    rows = parse(html).find_all("data-line")
    assert len(rows) == 2000 and rows[-1].attrs["data-line"] == "2000"
    assert "Long file: showing lines 1–2,000 of 5,000; pass start=2001 for the next page." in html
    last = render_preview(lines, chunks, path="big.ts", max_lines=2000, start=4001)
    assert [int(r.attrs["data-line"]) for r in parse(last).find_all("data-line")] == list(range(4001, 5001))
    # The band is clipped to the page and still names the whole chunk.
    band = parse(last).find_all("data-chunk")[0]
    assert band.attrs["rowspan"] == "1000" and band.attrs["data-start"] == "1"


def test_very_long_lines_are_cut_for_display() -> None:
    html = render_preview(["x" * 50_000], [], path="min.txt")
    assert "49,000 more characters" in html
    assert len(html) < 10_000


def test_selected_chunk_is_outlined() -> None:
    chunks, _ = render(CLASS_TS)
    html = render_preview(CLASS_TS.split("\n")[:-1], chunks, path="shelf.ts", selected=1)
    outlined = [e for e in parse(html).find_all("data-chunk") if "box-shadow" in e.attrs["style"]]
    assert [e.attrs["data-chunk"] for e in outlined] == ["1"]


def test_chunks_as_frame_list_or_dicts_give_the_same_html() -> None:
    frame = frames.chunk_text(CLASS_TS, "shelf.ts")
    lines = CLASS_TS.split("\n")[:-1]
    dropped = frame.drop(columns=["characters", "chunker"])
    from_list = render_preview(lines, engine.chunk_file_content("shelf.ts", CLASS_TS), path="shelf.ts")
    # A chunk frame's language mode is named in the header (the mode is never hidden); a list has none to name.
    assert "clanka mode" in render_preview(lines, dropped, path="shelf.ts") and "clanka mode" not in from_list
    dropped.attrs = {}
    assert render_preview(lines, dropped, path="shelf.ts") == from_list


def test_rows_of_other_files_are_left_out() -> None:
    other = {"path": "other.ts", "start_line": 1, "end_line": 2, "type": "class"}
    mine = {"path": "shelf.ts", "start_line": 2, "end_line": 3, "type": "method"}
    html = render_preview(CLASS_TS.split("\n")[:-1], [other, mine], path="shelf.ts")
    assert bands_of(html) == [(2, 3, "method")]


@pytest.mark.parametrize(
    ("view", "message"),
    [({"max_lines": 0}, "max_lines must be a positive int"), ({"start": 99}, "start must be a line number")],
)
def test_bad_view_arguments_name_the_fix(view: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        render_preview(["a"], [], path="a.ts", **view)


def test_table_page_has_one_row_per_chunk_with_typed_cells() -> None:
    frame = frames.chunk_text(CLASS_TS, "shelf.ts")
    html = render_table(frame, offset=10, total=40, selected=11)
    rows = parse(html).find_all("data-row")
    assert [r.attrs["data-row"] for r in rows] == ["10", "11", "12"]
    assert [c.text for c in parse(html).find_all("data-col", "type")] == list(frame["type"].astype(str))
    assert [c.text for c in parse(html).find_all("data-col", "#")] == ["11", "12", "13"]
    assert rows[1].attrs["style"] == f"background:{SELECTED}" != rows[0].attrs["style"]
    first_lines = [c.text for c in parse(html).find_all("data-col", "first line")]
    assert first_lines[2] == "capacity(): number {"  # past the doc comment


def test_empty_table_says_so() -> None:
    empty = frames.chunk_text("", "a.ts")
    assert "No chunks match the filters." in render_table(empty)


def test_missing_values_in_a_frame_are_none() -> None:
    frame = pd.DataFrame(
        {"start_line": [1], "end_line": [1], "type": [pd.NA], "name": [None], "parent": [float("nan")]}
    )
    assert chunk_bands(frame) == [Band(0, 1, 1)]


def test_the_page_turn_words_are_data_not_a_caller_name() -> None:
    from clanka_nb.widgets._render import BY_ARGUMENT, NO_TURNS, PageTurns

    lines = [f"line {i}" for i in range(1, 31)]
    middle = dict(path="n.txt", max_lines=10, start=11)
    turns = PageTurns("press N for {start}", "press P", "; N for {start}")
    said = render_preview(lines, [], **middle, page_turns=turns)
    assert "press N for 21 or press P" in said and "End of page: lines 11–20 of 30; N for 21." in said
    assert "pass start=21 for the next page or start=1 for the top" in render_preview(lines, [], **middle)
    assert render_preview(lines, [], **middle) == render_preview(lines, [], **middle, page_turns=BY_ARGUMENT)
    quiet = render_preview(lines, [], **middle, page_turns=NO_TURNS)
    assert "Long file: showing lines 11–20 of 30." in quiet and "End of page: lines 11–20 of 30." in quiet
