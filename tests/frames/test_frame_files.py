"""The files table: one row per listed file, with its fate and its coverage."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from clanka_nb import engine, frames

FILES_DTYPES = {
    "path": "string", "language": "string", "bytes": "Int64", "lines": "Int64", "status": "category",
    "reason": "string", "chunker": "category", "chunks": "Int64", "meaningful_lines": "Int64",
    "covered_lines": "Int64", "coverage": "Float64", "binary": "boolean",
}


def test_every_listed_file_is_a_row_with_its_fate(small_tree: Path) -> None:
    frame = frames.files(small_tree, workers=1, progress=False)
    assert {name: str(dtype) for name, dtype in frame.dtypes.items()} == FILES_DTYPES
    assert list(frame["status"].cat.categories) == [status.value for status in engine.FileStatus]
    assert frame["path"].tolist() == engine.list_files(small_tree)
    rows = frame.set_index("path")
    assert rows["status"].astype(str).to_dict() == {
        "docs/rule.md": "nothing meaningful",
        "src/bundle.js": "minified",
        "src/empty.ts": "empty",
        "src/example.ts": "chunked",
        "tool.py": "chunked",
    }
    assert rows.loc["src/example.ts", "reason"] is pd.NA
    assert "minified" in rows.loc["src/bundle.js", "reason"]
    assert "whitespace" in rows.loc["src/empty.ts", "reason"]
    assert rows.loc["src/bundle.js", "chunks"] == 0


def test_counts_of_the_hand_counted_files(small_tree: Path) -> None:
    rows = frames.files(small_tree, workers=1, progress=False).set_index("path")
    example = rows.loc["src/example.ts"]
    # 15 lines; function add, class Box and its method open; 9 meaningful of which 6 are in a chunk.
    assert example[["lines", "chunks", "meaningful_lines", "covered_lines"]].tolist() == [15, 3, 9, 6]
    assert example["coverage"] == 6 / 9
    assert example["chunker"] == "ast"
    assert example["language"] == "typescript"
    assert example["bytes"] == (small_tree / "src" / "example.ts").stat().st_size
    tool = rows.loc["tool.py"]
    assert tool[["lines", "chunks", "meaningful_lines", "covered_lines", "coverage"]].tolist() == [5, 1, 5, 5, 1.0]
    assert tool["chunker"] == "window"
    rule = rows.loc["docs/rule.md"]
    assert rule[["lines", "meaningful_lines", "covered_lines"]].tolist() == [2, 0, 0]
    assert pd.isna(rule["coverage"])
    for unsplit in ("src/bundle.js", "src/empty.ts"):
        assert rows.loc[unsplit, ["lines", "meaningful_lines", "covered_lines", "coverage"]].isna().all()
        assert pd.isna(rows.loc[unsplit, "chunker"])


def test_chunk_counts_follow_the_settings(small_tree: Path) -> None:
    codebase = engine.Codebase(small_tree, workers=1)
    frame = frames.files(codebase, chunk_size=2)
    chunks = frames.chunk_codebase(codebase, chunk_size=2)
    counted = chunks.groupby("path", observed=True).size()
    for row in frame.itertuples(index=False):
        assert row.chunks == counted.get(row.path, 0)
    assert frame.attrs["chunk_size"] == 2


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.NothingToChunkWarning")  # a file or folder that gives no chunks
@pytest.mark.filterwarnings("ignore::clanka_nb.engine.UnreadableFileWarning")  # a file that cannot be read, on purpose
def test_unreadable_and_never_indexed_files_do_not_disappear(small_tree: Path) -> None:
    (small_tree / "folder.ts").mkdir()
    codebase = engine.Codebase(small_tree, paths=["tool.py", "folder.ts", "Makefile"], workers=1)
    rows = frames.files(codebase).set_index("path")
    assert rows["status"].astype(str).to_dict() == {
        "tool.py": "chunked", "folder.ts": "unreadable", "Makefile": "not indexed",
    }
    assert rows.loc[["folder.ts", "Makefile"], "reason"].notna().all()
    assert rows.loc[["folder.ts", "Makefile"], "chunks"].tolist() == [0, 0]


def test_in_memory_files_get_a_reason_too() -> None:
    rows = frames.files(engine.Codebase.from_texts({"e.ts": " \n", "a.ts": "const a = 1\n"})).set_index("path")
    assert "whitespace" in rows.loc["e.ts", "reason"]
    assert rows.loc["a.ts", "reason"] is pd.NA


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.NothingToChunkWarning")  # a file or folder that gives no chunks
def test_empty_folder_gives_an_empty_table(tmp_path: Path) -> None:
    frame = frames.files(tmp_path, workers=1, progress=False)
    assert len(frame) == 0
    assert {name: str(dtype) for name, dtype in frame.dtypes.items()} == FILES_DTYPES
