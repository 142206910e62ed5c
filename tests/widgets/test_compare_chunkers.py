"""`cn.compare` with a whole chunker on a side: its boundaries beside the engine's on the same file (state only)."""

from __future__ import annotations

import pytest

from clanka_nb import chunkers, frames
from clanka_nb.widgets import Compare, compare

from ._html import parse

LEDGER = "".join(f"export function f{i}(x: number): number {{\n  return x + {i};\n}}\n\n" for i in range(12))


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "ledger.ts").write_text(LEDGER)
    (tmp_path / "notes.md").write_text("# Notes\n\nSome words.\n")
    return tmp_path


def thirds(path: str, text: str) -> list[tuple[int, int]] | None:
    """A user's chunker: .ts files in pieces of 16 lines; it handles no other file."""
    if not path.endswith(".ts"):
        return None
    count = text.count("\n")
    return [(start, min(start + 15, count)) for start in range(1, count + 1, 16)]


def test_a_chunker_side_is_its_cut_of_the_file(folder) -> None:
    view = compare(folder, "ledger.ts", a={"chunk_size": 30}, b=thirds)
    assert isinstance(view, Compare) and view.model.b.label == "thirds"
    shown = view.model.frame_b[view.model.frame_b["path"] == "ledger.ts"]
    assert list(zip(shown["start_line"], shown["end_line"], strict=True)) == [(1, 16), (17, 32), (33, 48)]
    assert shown["chunker"].isna().all()  # neither the engine's declarations nor its windows
    # The file it does not handle is in clanka's line windows, as the sweep's chunker rows cut it.
    notes = view.model.frame_b[view.model.frame_b["path"] == "notes.md"]
    assert notes["chunker"].tolist() == ["window"] and view.model.frame_b.attrs["fallback_files"] == 1
    # Side A is the engine's own chunks at its settings, unchanged.
    engine_side = frames.chunk_codebase(folder, chunk_size=30, progress=False)
    spans = ["path", "start_line", "end_line"]
    assert view.model.frame_a[spans].equals(engine_side[spans])


def test_both_previews_and_the_headers_name_the_sides(folder) -> None:
    view = compare(folder, "ledger.ts", a={"chunk_size": 30}, b=chunkers.line_windows(10))
    assert view.left is not None and view.right is not None
    windows = view.model.frame_b[view.model.frame_b["path"] == "ledger.ts"]
    lines = ["start_line", "end_line"]
    assert view.right.frame[lines].to_numpy().tolist() == windows[lines].to_numpy().tolist()
    sides = parse(view.html).find_all("data-side")
    assert [side.attrs["data-side"] for side in sides] == ["A", "B"]
    assert "line windows" in view.html and "chunk_size=10" in view.html and "chunk_size=30" in view.html
    assert len(view.model.changes) > 0  # the engine's declarations against the windows


def test_clanka_as_a_chunker_changes_nothing(folder) -> None:
    view = compare(folder, a=chunkers.clanka(30), b={"chunk_size": 30})
    assert len(view.model.changes) == 0
    assert view.model.frame_a[["start_line", "end_line", "name", "type", "parent"]].equals(
        view.model.frame_b[["start_line", "end_line", "name", "type", "parent"]])  # fmt: skip


def test_a_peer_side(folder) -> None:
    pytest.importorskip("astchunk", reason="astchunk is not installed: pip install -e '.[chunkers]'")
    view = compare(folder, "ledger.ts", a={"chunk_size": 30}, b=chunkers.astchunk(chunkers.Budget(
        200, characters_per_non_whitespace=1.3)))  # fmt: skip
    assert view.model.b.label == "astchunk" and len(view.model.frame_b) > 0 and "max_chunk_size=" in view.html


def test_a_side_that_is_neither_settings_nor_a_chunker_says_what_to_pass(folder) -> None:
    with pytest.raises(TypeError, match=r"b= must be chunk settings .* or a chunker"):
        compare(folder, b=30)


def _untyped_rows(html: str, path: str) -> list[list[str]]:
    """The changes table's rows of `path`'s chunks with no type, as the text of their cells."""
    rows = [[cell.text for cell in row.children] for row in parse(html).find_all("data-path", path) if row.tag == "tr"]
    return [row for row in rows if row[1] == "none"]


def _legend(html: str, side: str) -> str:
    pane = parse(html).find_all("data-side", side)[0]
    return pane.find_all("data-legend")[0].text


def test_a_chunkers_untyped_chunks_are_named_by_it_not_called_line_windows(folder) -> None:
    # A peer's chunks carry no type, but they are its own cut, not clanka's line windows (issue 46).
    (folder / "plain.ts").write_text("".join(f"console.log({i});\n" for i in range(40)))  # no declaration
    view = compare(folder, "ledger.ts", a={"chunk_size": 30}, b=thirds)
    (row,) = _untyped_rows(view.html, "ledger.ts")
    assert row[2] == "thirds chunks" and row[-1] == "only chunked in B"
    assert "no type (thirds chunk)" in _legend(view.html, "B")
    assert "no type (line window)" in _legend(view.html, "A") and "line window" not in _legend(view.html, "B")
    titles = [band.attrs["title"] for band in parse(view.html).find_all("data-side", "B")[0].find_all("data-chunk")]
    assert titles and all(title.startswith("thirds chunk (no declaration)") for title in titles)
    # A file that A cuts into line windows and the chunker into its own pieces: each side's name.
    view.file_picker.value = "plain.ts"
    (row,) = _untyped_rows(view.html, "plain.ts")
    assert row[2] == "line windows (A), thirds chunks (B)"
    # The file the chunker does not handle is in clanka's line windows on its side too.
    assert view.model.untyped[1].name("notes.md") == "line window"


def test_the_engines_own_chunkers_still_make_line_windows(folder) -> None:
    view = compare(folder, "ledger.ts", a={"chunk_size": 30}, b=chunkers.line_windows(10))
    (row,) = _untyped_rows(view.html, "ledger.ts")
    assert row[2] == "line windows"
    assert "no type (line window)" in _legend(view.html, "B")


def test_a_peers_chunks_are_named_by_the_peer(folder) -> None:
    pytest.importorskip("astchunk", reason="astchunk is not installed: pip install -e '.[chunkers]'")
    view = compare(folder, "ledger.ts", a={"chunk_size": 30}, b=chunkers.astchunk(chunkers.Budget(
        200, characters_per_non_whitespace=1.3)))  # fmt: skip
    rows = _untyped_rows(view.html, "ledger.ts")
    assert rows and all(row[2] == "astchunk chunks" for row in rows)
    assert "no type (astchunk chunk)" in _legend(view.html, "B")
