"""Every layer reads the chunker from the engine's record: chunk frames, files, sweep and the tuning panel agree.

The case that used to split them: in extended mode a file whose first line is a syntax error starts with
an unnamed declaration range (no name, type or parent), which a guess from the first chunk took for a
line window while the engine had chunked the file by its declarations.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import clanka_nb as cn
from clanka_nb import engine, frames

BROKEN_PY = "print(1))\n\ndef long_one():\n" + "".join(f"    a{n} = {n}\n" for n in range(8)) + "    return a0\n\n" \
    "def short():\n    return 2\n"
FILES = {
    "broken.py": BROKEN_PY,  # a syntax error first, then a long and a short function: "ast"
    "broken.go": "func {\npackage main\n\nfunc main() {\n\tprintln(1)\n}\n",  # the same in Go: "ast"
    "fine.py": "def f():\n    return 1\n",  # "ast"
    "notes.md": "# notes\n\nsome text\n",  # never parsed: "window"
    "blank.py": "   \n",  # empty: no chunker
}
EXPECTED = {"broken.py": "ast", "broken.go": "ast", "fine.py": "ast", "notes.md": "window", "blank.py": None}
SIZE = 5  # long_one (11 lines) is split at this size, so the split-declaration figure depends on the chunker


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("broken")
    for name, text in FILES.items():
        (root / name).write_text(text)
    return root


def _per_file(frame) -> dict[str, str | None]:
    """The one chunker of each path of a frame (and a path with two chunkers fails)."""
    out: dict[str, str | None] = {}
    for path, group in frame.groupby("path", observed=True)["chunker"]:
        values = {None if value is None or value != value else str(value) for value in group.astype(object)}
        assert len(values) == 1, (path, values)
        out[str(path)] = values.pop()
    return out


def test_the_broken_file_starts_with_a_chunk_that_carries_no_metadata(folder: Path) -> None:
    # What made the guess go wrong: the first chunk has no name, type or parent.
    chunks = engine.chunk_file(folder / "broken.py", languages="extended", chunk_size=SIZE)
    assert (chunks[0].start_line, chunks[0].name, chunks[0].type, chunks[0].parent) == (1, None, None, None)
    codebase = engine.Codebase(folder, languages="extended")
    assert codebase.file_chunking("broken.py", engine.ChunkSettings.build(SIZE)).chunker == "ast"


def test_chunk_codebase_files_sweep_and_the_panel_name_the_same_chunker(folder: Path) -> None:
    options = {"languages": "extended", "chunk_size": SIZE}
    chunked = cn.chunk_codebase(folder, **options)
    by_frame = _per_file(chunked)
    assert by_frame == {path: chunker for path, chunker in EXPECTED.items() if chunker is not None}

    table = cn.files(folder, **options)
    by_files = {row.path: (None if pd.isna(row.chunker) else row.chunker)
                for row in table[["path", "chunker"]].astype(object).itertuples(index=False)}
    assert by_files == EXPECTED

    # The sweep shows its chunker through split_declarations: the share of the declarations of
    # AST-chunked files that do not fit in one chunk. Counted here by hand from the chunk frame's column.
    codebase = engine.Codebase(folder, languages="extended")
    ranges = [(path, end - start + 1) for path in codebase.files if (text := codebase.text(path)) is not None
              for start, end, _, _ in text.plan()]
    counted = [lines for path, lines in ranges if by_frame.get(path) == "ast"]
    by_hand = sum(lines > SIZE for lines in counted) / len(counted)
    assert any(path == "broken.py" for path, _ in ranges) and by_hand != pytest.approx(
        sum(lines > SIZE for path, lines in ranges if path != "broken.py")
        / sum(1 for path, _ in ranges if path != "broken.py")
    )  # the figure would differ if broken.py were not counted as "ast"
    swept = cn.sweep(folder, chunk_size=[SIZE], languages="extended", progress=False)
    assert swept["split_declarations"].iat[0] == pytest.approx(by_hand)

    panel = cn.tune(folder, **options)
    assert panel.model.stats["split_declarations"] == pytest.approx(by_hand)
    assert _per_file(panel.model.frame) == by_frame
    stats = frames.CodebaseStats(panel.model.codebase)
    assert stats.frame_row(panel.model.frame, panel.settings.chunk)["split_declarations"] == pytest.approx(by_hand)
    panel.file_picker.value = "broken.py"
    assert _per_file(panel.model.file_frame) == {"broken.py": "ast"}
