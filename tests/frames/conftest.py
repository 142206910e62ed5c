"""Small hand-written codebases for the frames tests, and a helper to read frames back as engine chunks."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from clanka_nb import engine

# Line by line, with what the reference does to it at chunk_size=30 (hand-counted):
TS_EXAMPLE = """import { readFile } from "fs"

console.log("start")

// Adds two numbers.
export function add(a: number, b: number) {
  return a + b
}

export class Box {
  open() {
    return true
  }
}
export { add as plus }
"""
# meaningful: 1 (import: missed), 3 (bare statement: missed), 5-7 (add, with its comment),
# 10-12 (Box; 11-12 also in the method open: overlapped), 15 (export { }: missed).
# Not meaningful: blank 2, 4, 9 and the lone braces 8, 13, 14.
TS_MEANINGFUL = [1, 3, 5, 6, 7, 10, 11, 12, 15]
TS_MISSED = [1, 3, 15]
TS_OVERLAPPED = [11, 12]

PY_FIVE_LINES = "a = 1\nb = 2\nc = 3\nd = 4\ne = 5\n"


def as_code_chunks(frame: pd.DataFrame) -> list[engine.CodeChunk]:
    """The frame's rows as engine chunks (NA back to None), to compare with the engine's output."""
    fields = ["path", "start_line", "end_line", "name", "type", "parent", "content"]
    return [
        engine.CodeChunk(*(None if pd.isna(value) else value for value in row))
        for row in frame[fields].astype(object).itertuples(index=False)
    ]


@pytest.fixture
def small_tree(tmp_path: Path) -> Path:
    """A folder with one file of each fate: AST chunks, windows, empty, minified, nothing meaningful."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "example.ts").write_text(TS_EXAMPLE)
    (tmp_path / "src" / "empty.ts").write_text("  \n\n")
    (tmp_path / "src" / "bundle.js").write_text("var a=1;" * 300)  # 2,400 characters on one line
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "rule.md").write_text("---\n***\n")
    (tmp_path / "tool.py").write_text(PY_FIVE_LINES)
    (tmp_path / "Makefile").write_text("all:\n\techo hi\n")  # never listed: no extension
    return tmp_path
