"""`files()` and `coverage()` work from spans; they must give what a direct count over the chunk frame gives."""

from __future__ import annotations

import pandas as pd
import pytest

import clanka_nb as cn
from clanka_nb import engine, frames

from .conftest import PY_FIVE_LINES, TS_EXAMPLE

SETTINGS = [
    {"chunk_size": 30, "chunk_overlap": 0},
    {"chunk_size": 4, "chunk_overlap": 2},
    {"chunk_size": 1, "chunk_overlap": 0},
    {"chunk_size": 12, "chunk_overlap": 3, "chunk_max_characters": 60},
]

EDGE_FILES = {
    "src/app.ts": TS_EXAMPLE,
    "src/only_imports.ts": 'import { a } from "a"\nimport { b } from "b"\n',  # declarations none: windows
    "src/empty.ts": "   \n\n",
    "src/braces.ts": "{\n}\n\n{}\n",  # nothing meaningful
    "src/bundle.js": "var a=1;" * 4000,  # minified
    "src/tool.py": PY_FIVE_LINES,  # clanka mode: windows
    "src/crlf.ts": "export function f() {\r\n  return 1\r\n}\r\n\r\nexport const x = 2\r\n",
    "src/long.ts": "export function long() {\n" + "  step()\n" * 70 + "}\n",  # split in pieces
    "src/nested.ts": "export class A {\n  m() {\n    return 1\n  }\n}\nnamespace N {\n  export const y = 1\n}\n",
}


def _ranges(lines: list[int]) -> str:
    parts: list[str] = []
    for line in lines:
        if parts and int(parts[-1].split("-")[-1]) == line - 1:
            parts[-1] = f"{parts[-1].split('-')[0]}-{line}"
        else:
            parts.append(str(line))
    return ", ".join(parts)


def _expected(codebase: engine.Codebase, settings: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The files and coverage tables counted line by line from `chunk_codebase`'s rows (the plain way)."""
    chunks = frames.chunk_codebase(codebase, **settings)
    unsplit = {"empty", "minified", "unreadable", "not indexed"}
    files_rows, coverage_rows = [], []
    for path in codebase.files:
        report, text = codebase.report(path), codebase.text(path)
        mine = chunks[chunks["path"] == path]
        spans = list(zip(mine["start_line"], mine["end_line"], strict=True))
        known = report.status.value not in unsplit
        chunker = mine["chunker"].iat[0] if len(mine) else None
        if known:
            meaningful = [n for n in range(1, text.line_count + 1) if text.is_meaningful(n)]
            held = {n: sum(s <= n <= e for s, e in spans) for n in meaningful}
            covered = sum(1 for n in meaningful if held[n])
            missed = [n for n in meaningful if not held[n]]
            overlapped = sum(1 for n in meaningful if held[n] > 1)
            share = covered / len(meaningful) if meaningful else None
            counts = (len(meaningful), covered, len(missed), overlapped, share, _ranges(missed), text.line_count)
        else:
            counts = (None,) * 7
        files_rows.append({"path": path, "lines": counts[6], "status": report.status.value, "chunker": chunker,
                           "chunks": len(spans), "meaningful_lines": counts[0], "covered_lines": counts[1],
                           "coverage": counts[4]})
        coverage_rows.append({"path": path, "status": report.status.value, "chunker": chunker,
                              "meaningful_lines": counts[0], "covered_lines": counts[1], "missed_lines": counts[2],
                              "overlapped_lines": counts[3], "coverage": counts[4], "missed": counts[5]})
    return pd.DataFrame(files_rows), pd.DataFrame(coverage_rows)


def _plain(frame: pd.DataFrame, columns: list[str]) -> list[tuple]:
    return [tuple(None if pd.isna(v) else v for v in row) for row in frame[columns].itertuples(index=False)]


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: "-".join(map(str, s.values())))
@pytest.mark.parametrize("source", ["sample", "edges", "edges-extended"])
def test_files_and_coverage_agree_with_a_count_over_the_chunk_frame(source: str, settings: dict) -> None:
    if source == "sample":
        codebase = engine.Codebase(cn.sample_codebase(), workers=1)
    else:
        languages = "extended" if source.endswith("extended") else "clanka"
        codebase = engine.Codebase.from_texts(EDGE_FILES, languages=languages)
    expected_files, expected_coverage = _expected(codebase, settings)
    assert len(expected_files) >= 9 and (expected_files["chunks"] > 0).any()
    got_files = frames.files(codebase, **settings)
    got_coverage = frames.coverage(codebase, **settings)
    assert _plain(got_files, list(expected_files.columns)) == _plain(expected_files, list(expected_files.columns))
    assert _plain(got_coverage, list(expected_coverage.columns)) == _plain(
        expected_coverage, list(expected_coverage.columns)
    )
    # The engine's own chunk count per file, too (not only the frame's view of it).
    built = _settings(settings)
    assert got_files["chunks"].tolist() == [len(codebase.file_chunks(path, built)) for path in codebase.files]


def _settings(settings: dict) -> engine.ChunkSettings:
    return engine.ChunkSettings.build(
        settings["chunk_size"], settings["chunk_overlap"], settings.get("chunk_max_characters")
    )
