"""coverage() and line_coverage() against hand-counted examples."""

from __future__ import annotations

import pandas as pd

from clanka_nb import engine, frames

from .conftest import PY_FIVE_LINES, TS_EXAMPLE, TS_MEANINGFUL, TS_MISSED, TS_OVERLAPPED

COVERAGE_DTYPES = {
    "path": "string", "status": "category", "chunker": "category", "meaningful_lines": "Int64",
    "covered_lines": "Int64", "missed_lines": "Int64", "overlapped_lines": "Int64", "coverage": "Float64",
    "missed": "string",
}
LINE_DTYPES = {"path": "string", "line": "Int64", "text": "string", "chunks": "Int64", "status": "category"}


def dtypes(frame: pd.DataFrame) -> dict[str, str]:
    return {name: str(dtype) for name, dtype in frame.dtypes.items()}


def test_per_file_counts_of_the_hand_counted_typescript_file() -> None:
    frame = frames.coverage(engine.Codebase.from_texts({"example.ts": TS_EXAMPLE}))
    assert dtypes(frame) == COVERAGE_DTYPES
    row = frame.iloc[0]
    assert row["meaningful_lines"] == len(TS_MEANINGFUL) == 9
    assert row["missed_lines"] == len(TS_MISSED) == 3
    assert row["covered_lines"] == 6
    assert row["overlapped_lines"] == len(TS_OVERLAPPED) == 2
    assert row["coverage"] == 6 / 9
    assert row["missed"] == "1, 3, 15"
    assert row["chunker"] == "ast"


def test_per_line_rows_of_the_hand_counted_typescript_file() -> None:
    frame = frames.line_coverage(engine.Codebase.from_texts({"example.ts": TS_EXAMPLE}))
    assert dtypes(frame) == LINE_DTYPES
    assert list(frame["status"].cat.categories) == ["missed", "covered", "overlapped"]
    assert frame["line"].tolist() == TS_MEANINGFUL
    status = dict(zip(frame["line"], frame["status"], strict=True))
    assert [line for line, s in status.items() if s == "missed"] == TS_MISSED
    assert [line for line, s in status.items() if s == "overlapped"] == TS_OVERLAPPED
    assert frame.loc[frame["line"] == 1, "text"].item() == 'import { readFile } from "fs"'
    assert frame.loc[frame["line"] == 11, "chunks"].item() == 2  # the class Box and its method open


def test_window_overlap_shows_as_overlapped_lines() -> None:
    # Windows of 3 lines overlapping by 1 over five lines: 1-3 and 3-5, so line 3 is in both.
    frame = frames.line_coverage(engine.Codebase.from_texts({"a.py": PY_FIVE_LINES}), chunk_size=3, chunk_overlap=1)
    assert frame["chunks"].tolist() == [1, 1, 2, 1, 1]
    per_file = frames.coverage(engine.Codebase.from_texts({"a.py": PY_FIVE_LINES}), chunk_size=3, chunk_overlap=1)
    assert per_file[["covered_lines", "overlapped_lines", "missed"]].iloc[0].tolist() == [5, 1, ""]


def test_missed_lines_runs_are_ranges() -> None:
    # Three imports in a row are one missed run; a bare statement after the function another.
    text = 'import a from "a"\nimport b from "b"\nimport c from "c"\nfunction f() {\n  return 1\n}\nf()\n'
    frame = frames.coverage(engine.Codebase.from_texts({"m.ts": text}))
    assert frame["missed"].tolist() == ["1-3, 7"]


def test_files_without_lines_are_listed_with_na_counts(small_tree) -> None:
    frame = frames.coverage(small_tree, workers=1, progress=False)
    by_path = frame.set_index("path")
    assert by_path.loc["src/empty.ts", "status"] == "empty"
    assert pd.isna(by_path.loc["src/empty.ts", "meaningful_lines"])
    assert pd.isna(by_path.loc["src/bundle.js", "missed"])
    assert by_path.loc["docs/rule.md", "meaningful_lines"] == 0
    assert pd.isna(by_path.loc["docs/rule.md", "coverage"])  # nothing to cover: not 0%, not 100%
    assert set(frame["path"]) == set(engine.list_files(small_tree))


def test_line_coverage_counts_agree_with_the_chunk_frame(small_tree) -> None:
    codebase = engine.Codebase(small_tree, workers=1)
    chunks = frames.chunk_codebase(codebase, chunk_size=4, chunk_overlap=2)
    lines = frames.line_coverage(codebase, chunk_size=4, chunk_overlap=2)
    for row in lines.itertuples(index=False):
        in_file = chunks[chunks["path"] == row.path]
        holding = ((in_file["start_line"] <= row.line) & (in_file["end_line"] >= row.line)).sum()
        assert row.chunks == holding


def test_empty_codebase_gives_empty_frames_with_dtypes() -> None:
    empty = engine.Codebase.from_texts({})
    assert dtypes(frames.coverage(empty)) == COVERAGE_DTYPES
    assert dtypes(frames.line_coverage(empty)) == LINE_DTYPES
    assert len(frames.coverage(empty)) == len(frames.line_coverage(empty)) == 0
