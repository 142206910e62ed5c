"""Side-by-side compare: which declarations change chunks between two settings, and both previews."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from clanka_nb import engine, frames, sample_codebase
from clanka_nb.widgets import Compare, compare, declaration_changes
from clanka_nb.widgets._render import MAX_LINES

from ._html import parse

LEDGER = """\
export class Ledger {
  private rows: number[] = [];

  add(value: number): void {
    this.rows.push(value);
    this.rows.sort();
    this.rows.reverse();
    this.rows.pop();
  }

  size(): number {
    return this.rows.length;
  }
}

export const LIMIT = 10;
"""


def test_changes_name_the_declarations_cut_differently() -> None:
    a = frames.chunk_text(LEDGER, "ledger.ts", chunk_size=30)
    b = frames.chunk_text(LEDGER, "ledger.ts", chunk_size=3)
    changes = declaration_changes(a, b).set_index("name")
    # The class is 14 lines: cut to its first 3 lines; `add` (6 lines) in 2 pieces; `size` (3) and LIMIT fit.
    assert set(changes.index) == {"Ledger", "add"}
    assert changes.loc["Ledger", ["chunks_a", "chunks_b", "ranges_a", "ranges_b"]].tolist() == [1, 1, "1–14", "1–3"]
    assert changes.loc["Ledger", "change"] == "cut differently"
    assert changes.loc["add", ["chunks_a", "chunks_b", "change"]].tolist() == [1, 2, "more chunks in B"]
    assert changes.loc["add", ["start_line", "end_line"]].tolist() == [4, 9]


def test_equal_settings_change_nothing() -> None:
    a = frames.chunk_text(LEDGER, "ledger.ts")
    assert declaration_changes(a, a.copy()).empty


def test_line_windows_compare_as_one_group_per_file() -> None:
    text = "".join(f"line {i}\n" for i in range(20))
    a = frames.chunk_text(text, "notes.md", chunk_size=10)
    b = frames.chunk_text(text, "notes.md", chunk_size=5)
    changes = declaration_changes(a, b)
    assert len(changes) == 1
    assert changes.iloc[0][["chunks_a", "chunks_b"]].tolist() == [2, 4]
    assert pd.isna(changes.iloc[0]["type"]) and pd.isna(changes.iloc[0]["name"])


@pytest.fixture(scope="module")
def codebase() -> engine.Codebase:
    return engine.Codebase(sample_codebase())


def test_compare_shows_the_file_with_most_changes_side_by_side(codebase: engine.Codebase) -> None:
    view = compare(codebase, a={"chunk_size": 30}, b={"chunk_size": 8})
    busiest = view.model.changes["path"].value_counts().index[0]
    assert view.file_picker.value == busiest
    assert list(view.model.frame.columns) == list(view.model.changes.columns)
    shown = view.model.frame
    assert set(shown["path"]) == {busiest} and len(shown) == (view.model.changes["path"] == busiest).sum()
    sides = parse(view.view.value).find_all("data-side")
    assert [s.attrs["data-side"] for s in sides] == ["A", "B"]
    a_bands, b_bands = ({(e.attrs["data-start"], e.attrs["data-end"]) for e in s.find_all("data-chunk")} for s in sides)
    assert a_bands != b_bands
    assert max(int(end) - int(start) + 1 for start, end in b_bands) <= 8
    assert f"<b>{len(view.model.changes):,}</b> of" in view.summary.value


def test_picking_another_file_redraws_both_sides(codebase: engine.Codebase) -> None:
    view = Compare(codebase, {"chunk_size": 30}, {"chunk_size": 8}, "src/models.ts")
    assert view.left.path == view.right.path == "src/models.ts"
    view.file_picker.value = "src/pricing.ts"
    assert view.left.path == view.right.path == "src/pricing.ts"
    assert set(view.model.frame["path"]) <= {"src/pricing.ts"}
    assert "src/pricing.ts" in view.html and "src/pricing.ts" in view._repr_html_()
    # The still picture (nbviewer, GitHub) holds the lines in view, the widget a page, the exported page every line.
    assert view._repr_html_().count("<tr data-line=") == 2 * min(40, len(view.left.lines))
    assert view.html.count("<tr data-line=") == 2 * min(MAX_LINES, len(view.left.lines))
    assert view.page_html().count("<tr data-line=") == 2 * len(view.left.lines)


def test_bad_settings_are_refused_before_chunking(codebase: engine.Codebase) -> None:
    with pytest.raises(TypeError, match="b= has unknown setting"):
        compare(codebase, a={}, b={"size": 3})
    with pytest.raises(TypeError, match="chunk_size must be an int"):
        compare(codebase, a={"chunk_size": "30"}, b={})
    with pytest.raises(FileNotFoundError, match=r"no file 'nope\.ts' under the root .*paths are relative"):
        compare(codebase, a={}, b={}, path="nope.ts")
    with pytest.raises(FileNotFoundError, match=r"no file 'nope\.ts' under the root"):
        compare(sample_codebase(), "nope.ts", a={}, b={})


def test_a_file_without_lines_is_refused_by_name(tmp_path: Path) -> None:
    (tmp_path / "empty.ts").write_text("  \n")
    (tmp_path / "full.ts").write_text("export const a = 1;\n")
    with pytest.raises(ValueError, match=r"'empty\.ts' has no lines to show \(the file holds only whitespace\)"):
        compare(tmp_path, "empty.ts", a={}, b={})


def test_both_sides_scroll_together_with_level_rows(codebase: engine.Codebase) -> None:
    """One scroll box around both previews; equal legends and one-line headers keep line n level on both sides."""
    view = Compare(codebase, {"chunk_size": 30}, {"chunk_size": 8}, "src/inventory.ts")
    assert view.left.height is None and view.right.height is None
    root = parse(view.view.value).find_all("data-clanka", "compare")[0]
    assert "max-height" in root.attrs["style"] and "overflow:auto" in root.attrs["style"]
    legends = [e.text for e in root.find_all("data-legend")]
    assert len(legends) == 2 and legends[0] == legends[1]
    assert {e.attrs["data-legend"] for e in root.find_all("data-legend")} == {""}


def test_panes_wrap_instead_of_growing_past_the_output(codebase: engine.Codebase) -> None:
    """The layout rules the browser test checks on screen (tests/browser/test_compare_layout.py)."""
    view = Compare(codebase, {"chunk_size": 30}, {"chunk_size": 8}, "src/inventory.ts")
    root = parse(view.view.value).find_all("data-clanka", "compare")[0]
    style = root.attrs["style"]
    # As wide as the output and no wider, whatever its lines; B goes under A when there is no room.
    assert "width:0;min-width:100%" in style and "flex-wrap:wrap" in style
    for side in root.find_all("data-side"):
        assert "min-width:0" in side.attrs["style"] and "flex:1 1 400px" in side.attrs["style"]
        label = side.children[0]
        assert "white-space:nowrap" in label.attrs["style"]  # one line on both sides: rows stay level


def test_compare_clanka_with_extended_languages_on_python():
    source = {
        "tools/report.py": (
            'def total(rows):\n    """Sum the rows."""\n    return sum(rows)\n\n\n'
            "class Shelf:\n    def count(self):\n        return 3\n"
        )
    }
    view = compare(engine.Codebase.from_texts(source), a={"languages": "clanka"}, b={"languages": "extended"})
    assert view.model.frame_a["chunker"].tolist() == ["window"]
    b = view.model.frame_b.astype({"type": "string"}).fillna({"parent": ""})
    assert b[["name", "type", "parent"]].to_numpy().tolist() == [
        ["total", "function", ""], ["Shelf", "class", ""], ["count", "method", "class Shelf"]
    ]
    assert {"only chunked in B"} <= set(view.model.changes["change"])


def test_compare_rejects_an_unknown_languages_mode():
    with pytest.raises(ValueError, match="languages must be one of"):
        compare(a={"languages": "python"})


def test_compare_of_a_long_file_gives_no_paging_instructions_it_cannot_follow(tmp_path) -> None:
    """compare shows one page, turned by its own buttons, both sides together: its notices name the lines shown,
    nothing to pass; what a notebook saves is that page, its exported page every line."""
    from clanka_nb.widgets import compare

    (tmp_path / "long.ts").write_text("".join(f"export const v{i} = {i};\n" for i in range(2500)))
    shown = compare(tmp_path, "long.ts", a={"chunk_size": 30}, b={"chunk_size": 10})
    html = shown.html
    assert f"showing lines 1–{MAX_LINES} of 2,500." in html and html.count("<tr data-line=") == 2 * MAX_LINES
    assert "pass start=" not in html and "later lines" not in html and "for more" not in html
    assert shown.pager.layout.display == "flex" and shown.prev_button.disabled and not shown.next_button.disabled
    shown.next_button.click()
    assert shown.left.start == shown.right.start == MAX_LINES + 1
    assert f"showing lines {MAX_LINES + 1}–{2 * MAX_LINES} of 2,500." in shown.html
    shown.file_picker.value = shown.file_picker.value  # the same file: the page stays
    assert shown.left.start == MAX_LINES + 1
    assert shown.page_html().count("<tr data-line=") == 5000  # both sides, every line


def test_the_model_compares_without_a_widget() -> None:
    """The comparison's state and view model come from `CompareModel` alone: the widget only holds it."""
    from clanka_nb import engine, sample_codebase
    from clanka_nb.widgets._compare_model import CompareModel, render_side_by_side, render_summary

    model = CompareModel(engine.Codebase(sample_codebase()), {"chunk_size": 30}, {"chunk_size": 3}, None)
    assert model.path == model.changes["path"].value_counts().index[0]  # the file with the most changes
    assert set(model.frame["path"]) == {model.path}
    shown = Compare(model)
    assert shown.model is model and shown.model.changes is model.changes
    left, right = model.previews()
    assert shown.html == render_summary(model, model.frame) + render_side_by_side(left, right, model.a, model.b)
