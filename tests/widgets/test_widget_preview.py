"""`preview` / `preview_text`: the right file, chunks and lines, HTML without a kernel, paging as a widget."""

from __future__ import annotations

from pathlib import Path

import pytest

from clanka_nb import engine, frames, sample_codebase
from clanka_nb.widgets import Preview, preview, preview_text
from clanka_nb.widgets._render import MAX_LINES

from ._html import parse


def bands(html: str) -> list[tuple[int, int, str]]:
    return sorted(
        (int(e.attrs["data-start"]), int(e.attrs["data-end"]), e.attrs["data-type"])
        for e in parse(html).find_all("data-chunk")
    )


def test_preview_of_a_file_shows_its_lines_and_every_chunk() -> None:
    shown = preview(sample_codebase(), "src/inventory.ts")
    expected = frames.chunk_file(sample_codebase(), "src/inventory.ts")
    assert shown.lines == (sample_codebase() / "src/inventory.ts").read_text().split("\n")[:-1]
    # Every chunk of the file on its whole page (what `save` exports); the notebook's page holds its first lines.
    assert bands(shown.whole().html) == sorted(
        zip(expected["start_line"], expected["end_line"], expected["type"].astype("string").fillna(""), strict=True)
    )
    assert len(shown.lines) > MAX_LINES and shown.html.count("<tr data-line=") == MAX_LINES
    assert shown._repr_html_() == shown.html


def test_preview_settings_change_the_boundaries() -> None:
    shown = preview(sample_codebase(), "src/inventory.ts", chunk_size=5, chunk_overlap=1)
    assert max(end - start + 1 for start, end, _ in bands(shown.html)) <= 5


def test_preview_without_a_path_picks_the_busiest_declaration_file() -> None:
    shown = preview()
    chunks = frames.chunk_codebase(sample_codebase(), progress=False)
    assert shown.path == chunks[chunks["chunker"] == "ast"]["path"].value_counts().index[0]


def test_preview_of_a_frame_and_of_a_codebase() -> None:
    chunked = frames.chunk_codebase(sample_codebase(), chunk_size=10, progress=False)
    from_frame = preview(chunked, "src/pricing.ts")
    from_codebase = preview(engine.Codebase(sample_codebase()), "src/pricing.ts", chunk_size=10)
    assert from_frame.html == from_codebase.html


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.NothingToChunkWarning")  # a file or folder that gives no chunks
def test_unknown_path_is_refused(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"there is no file 'src/missing\.ts' under the root .*relative to"):
        preview(sample_codebase(), "src/missing.ts")
    with pytest.raises(FileNotFoundError, match=r"no file 'src/missing\.ts'"):
        preview(engine.Codebase(sample_codebase()), "src/missing.ts")
    with pytest.raises(FileNotFoundError, match=r"no file '/etc/passwd' under the root"):
        preview(sample_codebase(), "/etc/passwd")
    (tmp_path / "Makefile").write_text("all:\n\techo hi\n")
    with pytest.raises(KeyError, match="not a file the reference indexes"):
        preview(tmp_path, "Makefile")
    with pytest.raises(KeyError, match="not a file of this codebase"):
        preview(engine.Codebase(sample_codebase()), "src/missing.ts")


def test_preview_text_nests_methods_in_their_class() -> None:
    shown = preview_text("class A {\n  m() {\n    return 1\n  }\n}\n")
    assert bands(shown.html) == [(1, 5, "class"), (2, 4, "method")]
    assert shown.path == "snippet.ts"
    columns = {e.attrs["data-type"]: e for e in parse(shown.html).find_all("data-chunk")}
    row = parse(shown.html).find_all("data-line", "2")[0]
    # On line 2 the class band (spanning from line 1) sits in column 0, the method starts in column 1.
    assert [c.attrs.get("data-type") for c in row.children if "data-chunk" in c.attrs] == ["method"]
    assert columns["class"].attrs["rowspan"] == "5"


def test_preview_text_path_picks_the_parser() -> None:
    text = "def f():\n    return 1\n"
    assert bands(preview_text(text, path="a.py").html) == [(1, 2, "")]  # the reference only parses JS/TS
    assert bands(preview_text(text, path="a.py", languages="extended").html)[0][2] == "function"


def test_preview_text_refuses_bytes_and_unknown_settings() -> None:
    with pytest.raises(TypeError, match="decode bytes first"):
        preview_text(b"const a = 1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="unexpected keyword argument 'max_file_size'"):
        preview_text("const a = 1", max_file_size="1M")


def test_long_file_pages_in_the_widget() -> None:
    text = "".join(f"export const v{i} = {i};\n" for i in range(1, 451))
    shown = preview_text(text, path="long.ts", max_lines=200)
    assert len(parse(shown.html).find_all("data-line")) == 200
    pane = shown.widget
    assert pane.pager.layout.display == "flex" and pane.prev_button.disabled
    pane.next_button.click()
    assert pane.preview is not None and pane.preview.start == 201
    pane.next_button.click()
    assert pane.preview.start == 401 and pane.next_button.disabled
    assert [int(e.attrs["data-line"]) for e in parse(pane.html.value).find_all("data-line")] == list(range(401, 451))
    pane.prev_button.click()
    assert pane.preview.start == 201


def test_widget_notices_name_its_buttons_and_the_still_picture_names_start() -> None:
    text = "".join(f"export const v{i} = {i};\n" for i in range(1, 451))
    shown = preview_text(text, path="long.ts", max_lines=200)
    pane = shown.widget
    buttons = {pane.prev_button.description, pane.next_button.description}

    def notices(html: str) -> list[str]:
        return [e.text for e in parse(html).find_all("data-notice")]

    in_widget = notices(pane.html.value)
    assert in_widget == [
        f"Long file: showing lines 1–200 of 450; “{pane.next_button.description}” shows the next page.",
        f"End of page: lines 1–200 of 450; “{pane.next_button.description}” shows more.",
    ]
    pane.next_button.click()
    in_widget = notices(pane.html.value)
    assert f"“{pane.prev_button.description}” the previous one" in in_widget[0]
    assert all("start=" not in text for text in in_widget)
    assert all(any(label in text for label in buttons) for text in in_widget)
    # Where no widget runs (nbviewer, the static _repr_html_), the notices keep the Python argument.
    assert notices(shown._repr_html_())[0] == "Long file: showing lines 1–200 of 450; pass start=201 for the next page."
    assert notices(pane.preview.html)[0].endswith("pass start=401 for the next page or start=1 for the top.")


def test_browser_and_tuner_previews_use_widget_terms(tmp_path: Path) -> None:
    from clanka_nb.widgets import browse, tune

    (tmp_path / "long.ts").write_text("".join(f"export const v{i} = {i};\n" for i in range(1, 2101)))
    for viewer in (browse(tmp_path), tune(tmp_path)):
        shown = viewer.preview.html.value
        assert "later lines ▶" in shown and "pass start=" not in shown


def test_short_file_has_no_pager() -> None:
    pane = preview_text("const a = 1;\n").widget
    assert pane.pager.layout.display == "none"


def test_preview_is_a_plain_object_with_state() -> None:
    shown = preview_text("const a = 1;\n")
    assert isinstance(shown, Preview)
    assert list(shown.frame["name"]) == ["a"] and shown.start == 1 and shown.max_lines == MAX_LINES
    assert repr(shown) == "Preview('snippet.ts', lines=1, chunks=1)"


def test_preview_takes_an_absolute_path_inside_the_root_from_every_source() -> None:
    root = sample_codebase()
    relative = preview(root, "src/inventory.ts")
    absolute = str(Path(root) / "src" / "inventory.ts")
    for source in (root, engine.Codebase(root), frames.chunk_codebase(root)):
        shown = preview(source, absolute)
        assert shown.path == "src/inventory.ts"
        assert bands(shown.html) == bands(relative.html)


@pytest.mark.parametrize(
    ("view", "message"),
    [({"start": 10_000}, r"start must be a line number between 1 and 3 \(the file has 3 lines\), got 10000"),
     ({"start": 0}, "between 1 and 3"), ({"max_lines": 0}, "max_lines must be a positive int, got 0")],
)
def test_a_page_outside_the_file_is_refused_when_made_not_when_shown(view: dict, message: str) -> None:
    frame = frames.chunk_text("a\nb\nc\n", "a.ts")
    with pytest.raises(ValueError, match=message):
        Preview(["a", "b", "c"], frame, path="a.ts", **view)
    with pytest.raises(ValueError, match=message.replace("3", "[0-9]+")):
        preview(sample_codebase(), "src/pricing.ts", **view)


# --- a long file: only what is shown is explained, banded and lexed (issue 24.11) ---------------------


def _long_file(folder: Path, functions: int) -> Path:
    lines = []
    for i in range(functions):
        lines += [f"export function f{i}(a: number): number {{", f"  return a + {i};", "}", ""]
    path = folder / "long.ts"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def test_explain_file_of_some_lines_makes_only_their_chunks() -> None:
    from clanka_nb import engine

    text = engine.Codebase.from_texts({"a.ts": "\n".join(f"function f{i}() {{}}" for i in range(50))}).text("a.ts")
    settings = engine.ChunkSettings.build(30)
    every = engine.explain_file(text, settings)
    some = engine.explain_file(text, settings, lines=(10, 12))
    assert [e.chunk.start_line for e in some] == [10, 11, 12]
    assert some == [e for e in every if 10 <= e.chunk.start_line <= 12]


def test_a_long_file_costs_no_more_than_chunking_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import gc
    import time

    monkeypatch.setenv("CLANKA_NB_CACHE", "off")  # both parse the file, neither reads the other's parse
    # 47,999 lines (no newline at the end), 790,000 characters: under the reference parser's input limit
    # (1,048,576 UTF-16 units; longer JS/TS files get line windows), so every declaration is a chunk.
    path = _long_file(tmp_path, 12_000)

    def timed(call) -> float:  # CPU seconds of this process: the other processes of a busy machine don't count
        gc.collect()  # outside the call: late in the suite a collection of its whole heap is a spike
        began = time.process_time()
        call()
        return time.process_time() - began

    chunking = min(timed(lambda: frames.chunk_file(path)) for _ in range(2))
    # A page of 2,000 lines, ten times the default page (what a notebook saves), as this bound was measured.
    shown = preview(tmp_path, "long.ts", max_lines=2000)
    showing = min(timed(lambda: preview(tmp_path, "long.ts", max_lines=2000).html) for _ in range(2))
    deep = min(timed(lambda: shown.page(40_001).html) for _ in range(2))  # a new page each time: no cache
    # CPU seconds measured on 2 shared cores: the first page 1.4x chunking the file, a deep page 0.36-0.39x; before
    # (every chunk explained and banded, every line above the page lexed) the deep page took 2.7x. On a
    # 1,000,000-line file (line windows) a deep page took 133 s and 1.3 GB before, 0.7 s after.
    assert showing <= 2.5 * chunking, (showing, chunking)
    assert deep <= 1.5 * chunking, (deep, chunking)
    assert shown.frame["chunker"].eq("ast").all() and len(shown.frame) == 12_000
    assert shown.html.count("<tr data-line=") == 2000 and "lines 1–2,000 of 47,999" in shown.html
    page = shown.page(40_001).html
    assert 'data-line="40001"' in page and 'data-line="42000"' in page and "f10000" in page
