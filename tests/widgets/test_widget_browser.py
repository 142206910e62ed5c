"""The codebase browser driven through its controls' values, as a person would, without a browser."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from clanka_nb import engine, frames, sample_codebase
from clanka_nb.widgets import Browser, browse
from clanka_nb.widgets._render import MAX_LINES

from ._html import parse


@pytest.fixture(scope="module")
def chunks() -> pd.DataFrame:
    return frames.chunk_codebase(sample_codebase(), progress=False)


@pytest.fixture
def browser(chunks: pd.DataFrame) -> Browser:
    return Browser(chunks)


def shown_types(browser: Browser) -> list[str]:
    return [cell.text for cell in parse(browser.table.html.value).find_all("data-col", "type")]


def test_browse_without_a_source_opens_the_sample() -> None:
    opened = browse()
    expected = frames.chunk_codebase(sample_codebase(), progress=False)
    pd.testing.assert_frame_equal(opened.frame, expected)
    assert opened.preview.preview is not None  # the first file is shown straight away


def test_browse_a_folder_with_settings_chunks_it_with_them(tmp_path: Path) -> None:
    (tmp_path / "a.ts").write_text("".join(f"export const v{i} = {i};\n" for i in range(40)))
    (tmp_path / "notes.md").write_text("".join(f"line {i}\n" for i in range(25)))
    opened = browse(tmp_path, chunk_size=10)
    assert opened.model.data.attrs["chunk_size"] == 10
    assert set(opened.model.data["path"]) == {"a.ts", "notes.md"}
    assert opened.model.data.loc[opened.model.data["path"] == "notes.md", "lines"].max() == 10


def test_browse_a_codebase_uses_it_without_parsing_again() -> None:
    codebase = engine.Codebase(sample_codebase())
    opened = browse(codebase)
    assert opened.model.texts.codebase is codebase


def test_type_filter_keeps_only_that_type_in_frame_table_and_files(browser: Browser, chunks: pd.DataFrame) -> None:
    browser.type_filter.value = ("method",)
    assert len(browser.frame) == (chunks["type"] == "method").sum() > 0
    assert set(browser.frame["type"].astype(str)) == {"method"}
    assert set(shown_types(browser)) == {"method"}
    listed = {path for _, path in browser.file_list.options}
    assert listed == {"", *chunks.loc[chunks["type"] == "method", "path"]}  # "": the "(all files)" choice


def test_several_types_at_once(browser: Browser, chunks: pd.DataFrame) -> None:
    browser.type_filter.value = ("class", "interface")
    assert set(browser.frame["type"].astype(str)) == {"class", "interface"}
    assert len(browser.frame) == chunks["type"].isin(["class", "interface"]).sum()


def test_untyped_chunks_have_their_own_choice(browser: Browser, chunks: pd.DataFrame) -> None:
    browser.type_filter.value = ("(none)",)
    assert len(browser.frame) == chunks["type"].isna().sum() > 0
    assert browser.frame["type"].isna().all()


def test_parent_filter_is_a_case_insensitive_substring(browser: Browser, chunks: pd.DataFrame) -> None:
    browser.parent_filter.value = "CLASS stockledger"  # no parent is spelt so: a substring, any case
    expected = chunks["parent"].fillna("").str.lower().str.contains("class stockledger", regex=False)
    assert len(browser.frame) == expected.sum() > 0
    assert set(browser.frame["parent"]) == {"class StockLedger"}


def test_a_parent_picked_from_the_suggestions_matches_only_itself() -> None:
    # "class Gson" picked gave GsonBuilder's and GsonTest's methods too (issue 56, 1).
    texts = {
        f"{name}.ts": f"export class {name} {{\n  a() {{ return 1; }}\n  b() {{ return 2; }}\n}}\n"
        for name in ("Gson", "GsonBuilder", "GsonTest")
    }
    frame = frames.chunk_codebase(engine.Codebase.from_texts(texts), progress=False)
    browser = browse(frame)
    assert "class Gson" in browser.parent_filter.options
    browser.parent_filter.value = "class Gson"
    assert set(browser.frame["parent"]) == {"class Gson"} and len(browser.frame) == 2
    assert "in class Gson</span>" in browser.status.value  # the filter shows as a chip beside the types
    browser.parent_filter.value = "class Gson*"  # the documented way to match every parent containing it
    assert set(browser.frame["parent"]) == {"class Gson", "class GsonBuilder", "class GsonTest"}
    assert "in *class Gson*</span>" in browser.status.value
    browser.parent_filter.value = "gson"  # not a parent's whole name: a substring, any case
    assert len(browser.frame) == 6


def test_parent_filter_top_level(browser: Browser, chunks: pd.DataFrame) -> None:
    browser.parent_filter.value = "(top level)"
    assert len(browser.frame) == chunks["parent"].isna().sum()
    assert browser.frame["parent"].isna().all()
    assert "(top level)" in browser.parent_filter.options


def test_name_filter(browser: Browser, chunks: pd.DataFrame) -> None:
    browser.name_filter.value = "Isbn"
    names = chunks["name"].fillna("")
    assert list(browser.frame.index) == list(chunks.index[names.str.lower().str.contains("isbn")])


def test_language_and_path_filters(browser: Browser, chunks: pd.DataFrame) -> None:
    browser.language_filter.value = "typescript"
    assert set(browser.frame["language"]) == {"typescript"}
    browser.path_filter.value = "INVENTORY"
    assert set(browser.frame["path"]) == {"src/inventory.ts"}


def test_filters_combine_and_clear(browser: Browser, chunks: pd.DataFrame) -> None:
    browser.set_filters(types=["method"], parent="class StockLedger", name="a")
    expected = chunks[
        (chunks["type"] == "method")
        & (chunks["parent"] == "class StockLedger")
        & chunks["name"].fillna("").str.contains("a")
    ]
    assert list(browser.frame.index) == list(expected.index)
    assert f"{len(expected)} of {len(chunks)} chunks match" in browser.status.value
    browser.clear_filters()
    assert len(browser.frame) == len(chunks)
    assert browser.type_filter.value == () and browser.parent_filter.value == ""


def test_set_filters_refuses_an_unknown_type(browser: Browser) -> None:
    with pytest.raises(ValueError, match="no chunks of type"):
        browser.set_filters(types=["klass"])


def test_no_match_shows_an_empty_table(browser: Browser) -> None:
    browser.name_filter.value = "no such name anywhere"
    assert browser.frame.empty
    assert "No chunks match the filters." in browser.table.html.value
    assert browser.file_list.options == ()


def test_the_preview_stays_on_a_file_the_filters_leave(browser: Browser) -> None:
    assert browser.preview.preview is not None and browser.preview.preview.path == "cmd/stockcheck.go"
    browser.type_filter.value = ("method",)
    assert browser.preview.preview.path == browser.file_list.options[1][1] == "src/inventory.ts"
    browser.path_filter.value = "isbn"  # src/legacy/isbn.js still has a match: the preview moves there
    browser.path_filter.value = ""
    assert browser.preview.preview.path == "src/legacy/isbn.js"
    browser.name_filter.value = "no such name"
    assert browser.preview.preview is None and browser.preview.html.value == ""


def test_picking_a_file_lists_only_its_chunks(browser: Browser, chunks: pd.DataFrame) -> None:
    browser.type_filter.value = ("method",)
    assert browser.file_list.options[0] == ("(all files)", "")
    browser.file_list.value = "src/inventory.ts"
    expected = chunks[(chunks["path"] == "src/inventory.ts") & (chunks["type"] == "method")]
    assert list(browser.frame.index) == list(expected.index)
    assert {cell.text for cell in parse(browser.table.html.value).find_all("data-col", "path")} == {"src/inventory.ts"}
    assert browser.preview.preview is not None and browser.preview.preview.path == "src/inventory.ts"
    assert f"{len(expected)} of {len(chunks)} chunks match, in <b>src/inventory.ts</b>" in browser.status.value
    # The other files stay listed with their counts, to pick another one.
    assert len(browser.file_list.options) == 1 + chunks.loc[chunks["type"] == "method", "path"].nunique()
    # A filter that leaves the picked file nothing: it stays picked and shown, the table is empty.
    browser.name_filter.value = "no such name"
    assert browser.frame.empty and browser.file_list.value == "src/inventory.ts"
    assert browser.preview.preview.path == "src/inventory.ts"
    browser.name_filter.value = ""
    browser.file_list.value = ""  # "(all files)": every file's chunks again
    assert len(browser.frame) == len(chunks.loc[chunks["type"] == "method"])
    browser.set_filters(file="src/models.ts")
    assert set(browser.frame["path"]) <= {"src/models.ts"} and browser.file == "src/models.ts"
    browser.clear_filters()
    assert len(browser.frame) == len(chunks) and browser.file == ""
    with pytest.raises(KeyError, match="has no chunks here"):
        browser.set_filters(file="nope.ts")


def test_file_list_counts_matching_and_total_chunks(browser: Browser, chunks: pd.DataFrame) -> None:
    everything = dict(browser.file_list.options)
    assert everything["src/inventory.ts  (28)"] == "src/inventory.ts"
    browser.type_filter.value = ("method",)
    files = browser.model.files.set_index("path")
    methods = (chunks["path"] == "src/inventory.ts") & (chunks["type"] == "method")
    assert files.loc["src/inventory.ts", "chunks"] == methods.sum()
    label = f"src/inventory.ts  ({methods.sum()}/{(chunks['path'] == 'src/inventory.ts').sum()})"
    assert label in dict(browser.file_list.options)


def test_table_pages(chunks: pd.DataFrame) -> None:
    browser = Browser(chunks, page_size=10)
    table = browser.table
    assert table.pages == -(-len(chunks) // 10)
    assert table.prev_button.disabled and not table.next_button.disabled
    table.next_button.click()
    assert list(table.frame.index) == list(chunks.index[10:20])
    assert parse(table.html.value).find_all("data-row")[0].attrs["data-row"] == "10"
    table.go(table.pages - 1)
    assert table.next_button.disabled
    assert len(table.frame) == len(chunks) - 10 * (table.pages - 1)
    browser.type_filter.value = ("class",)  # a new filter starts again from page 1
    assert table.page == 0


def test_sorting_by_a_column_both_ways(browser: Browser, chunks: pd.DataFrame) -> None:
    browser.table.sort_by.value = "lines"
    assert list(browser.frame["lines"]) == sorted(chunks["lines"])
    browser.table.descending.value = True
    assert list(browser.frame["lines"]) == sorted(chunks["lines"], reverse=True)
    browser.type_filter.value = ("method",)  # sorting holds under a filter
    assert list(browser.frame["lines"]) == sorted(chunks.loc[chunks["type"] == "method", "lines"], reverse=True)


def test_sorting_by_name_puts_missing_names_last(browser: Browser) -> None:
    browser.table.sort_by.value = "name"
    names = browser.frame["name"]
    assert names.isna().sum() > 0
    first_missing = int(np.argmax(names.isna().to_numpy()))
    assert names.iloc[first_missing:].isna().all()


def test_picking_a_row_shows_that_chunk_in_its_file(browser: Browser, chunks: pd.DataFrame) -> None:
    browser.set_filters(types=["method"], parent="class StockLedger")
    label, position = browser.table.row_picker.options[2]
    browser.table.row_picker.value = position
    row = browser.frame.iloc[position]
    shown = browser.preview.preview
    assert shown is not None and shown.path == row["path"]
    # The file list is a filter, not where the preview is: picking a row leaves it (and the table) alone.
    assert browser.file_list.value == "" and len(browser.frame) > 1
    assert f"{row['path']}:{row['start_line']}–{row['end_line']}" in label
    outlined = [e for e in parse(shown.html).find_all("data-chunk") if "box-shadow" in e.attrs["style"]]
    assert [(int(e.attrs["data-start"]), int(e.attrs["data-end"])) for e in outlined] == [
        (row["start_line"], row["end_line"])
    ]
    # The preview holds all of the file's chunks, not only the filtered ones: the class band is there too.
    assert len(shown.frame) == (chunks["path"] == row["path"]).sum()
    assert "class" in {e.attrs["data-type"] for e in parse(shown.html).find_all("data-chunk")}
    # No script can scroll the view, so it starts just above the chosen chunk.
    assert shown.start == row["start_line"] - 3


def test_select_chunk_by_position_turns_the_page(chunks: pd.DataFrame) -> None:
    browser = Browser(chunks, page_size=5)
    preview = browser.select_chunk(12)
    assert browser.table.page == 2
    assert preview.path == browser.frame.iloc[12]["path"]
    with pytest.raises(IndexError, match="does not exist"):
        browser.select_chunk(len(chunks))


def test_picking_a_file_shows_its_source_with_every_boundary(browser: Browser, chunks: pd.DataFrame) -> None:
    browser.file_list.value = "src/models.ts"
    shown = browser.preview.preview
    assert shown is not None and shown.path == "src/models.ts"
    mine = chunks[chunks["path"] == "src/models.ts"]
    # The notebook shows a page of its 134 lines; the whole file (its exported page) has every boundary.
    assert len(parse(shown.html).find_all("data-line")) == MAX_LINES < 134
    whole = parse(shown.whole().html).find_all("data-chunk")
    bands = [(int(e.attrs["data-start"]), int(e.attrs["data-end"])) for e in whole]
    assert sorted(bands) == sorted(zip(mine["start_line"], mine["end_line"], strict=True))
    assert shown.lines == (sample_codebase() / "src/models.ts").read_text().split("\n")[:-1]


def test_a_frame_without_its_files_still_previews_from_chunk_contents(tmp_path: Path) -> None:
    root = tmp_path / "code"
    shutil.copytree(sample_codebase() / "src", root)
    frame = frames.chunk_codebase(root, progress=False)
    shutil.rmtree(root)
    browser = Browser(frame)
    preview = browser.select_file("models.ts")
    notices = [e.text for e in parse(preview.html).find_all("data-notice")]
    assert any("not found under the frame's root" in text for text in notices)
    first = frame[frame["path"] == "models.ts"].iloc[0]
    assert preview.lines[first["start_line"] - 1] == first["content"].split("\n")[0]


def test_settings_with_a_frame_chunk_its_codebase_again(chunks: pd.DataFrame) -> None:
    """A frame stands for its codebase: settings given with it chunk that again, the frame's own for the rest."""
    again = browse(chunks, chunk_size=10)
    assert again.model.data.attrs["chunk_size"] == 10
    assert again.model.data.attrs["root"] == chunks.attrs["root"]
    assert again.model.data.attrs["chunk_overlap"] == chunks.attrs["chunk_overlap"]
    assert browse(chunks).model.data is chunks  # alone, the frame is shown as it is
    with pytest.raises(TypeError, match="unexpected keyword argument 'chunk_sise'"):
        browse(None, chunk_sise=10)


def test_short_text_repr_and_a_still_html_picture(browser: Browser, chunks: pd.DataFrame) -> None:
    """Notebooks store text/plain and text/html next to the widget: they must be small and meaningful."""
    browser.type_filter.value = ("enum",)
    assert repr(browser) == f"Browser({len(chunks)} chunks in 13 files, 2 match the filters)"
    still = parse(browser._repr_html_())
    assert [c.text for c in still.find_all("data-col", "type")] == ["enum", "enum"]
    assert len(still.find_all("data-clanka", "preview")) == 1


def test_the_model_filters_and_describes_without_a_widget(chunks: pd.DataFrame) -> None:
    """The browser's state and view model come from `BrowserModel` alone: the widget only holds it."""
    from clanka_nb.widgets._browser_model import BrowserModel, Filters, file_options, header_html, status_html

    model = BrowserModel(chunks)
    model.filters = Filters(types=("enum",))
    model.apply()
    assert int(model.mask.sum()) == int((chunks["type"] == "enum").sum())
    files = model.files
    assert [path for _, path in file_options(model, files)[1:]] == files.loc[files["chunks"] > 0, "path"].tolist()
    assert "2 of" in status_html(model, files)
    # The header shows the settings as used, from the one read of the frame's attrs.
    assert f"chunk_size={chunks.attrs['chunk_size']}" in header_html(model)
    assert header_html(model) == Browser(chunks).header.value


def test_the_header_shows_clamped_settings(tmp_path: Path) -> None:
    (tmp_path / "a.ts").write_text("export const a = 1;\nexport const b = 2;\n")
    with pytest.warns(UserWarning):
        opened = browse(tmp_path, chunk_size=2, chunk_overlap=5)
    assert "chunk_size=2 · chunk_overlap=1" in opened.header.value
