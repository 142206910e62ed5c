"""cn.explain: one row per chunk of a file with its rule and a sentence naming its lines."""

from __future__ import annotations

from pathlib import Path

import pytest

import clanka_nb as cn
from clanka_nb import engine, frames

FILE = (
    "/** Adds. */\nexport function add(a: number, b: number) {\n  return a + b;\n}\n\n"
    "export class Ledger {\n" + "".join(f"  m{i}() {{\n    return {i};\n  }}\n" for i in range(10)) + "}\n\n"
    "export function parse(t: string) {\n" + "".join(f"  const v{i} = {i};\n" for i in range(40)) + "}\n"
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "every.ts").write_text(FILE, encoding="utf-8")
    (tmp_path / "notes.md").write_text("".join(f"line {i}\n" for i in range(30)), encoding="utf-8")
    return tmp_path


def test_rows_are_chunk_files_rows_with_rule_and_why(root: Path) -> None:
    frame = cn.explain(root, "src/every.ts", chunk_size=15, chunk_overlap=4)
    chunks = frames.chunk_file(root, "src/every.ts", chunk_size=15, chunk_overlap=4)
    columns = ["start_line", "end_line", "name", "type", "parent"]
    assert frame[columns].astype(object).values.tolist() == chunks[columns].astype(object).values.tolist()
    assert list(frame.columns) == [*columns, "rule", "why"]
    assert set(frame["rule"]) == {"declaration", "class-head", "declaration-piece"}
    assert all(why.startswith(("line ", "lines ")) for why in frame["why"])


def test_markdown_rows_are_windows(root: Path) -> None:
    frame = cn.explain(root / "notes.md", chunk_size=10)
    assert frame["rule"].tolist() == ["window"] * 3 and "line windows" in frame["why"].iloc[0]


def test_a_file_with_no_chunks_says_why_and_a_missing_one_is_an_error(root: Path) -> None:
    (root / "empty.ts").write_text("   \n", encoding="utf-8")
    frame = cn.explain(root, "empty.ts")
    assert frame.empty and frame.attrs["status"] == "empty" and "whitespace" in frame.attrs["reason"]
    with pytest.raises(FileNotFoundError, match=r"no file 'nope\.ts'"):
        cn.explain(root, "nope.ts")


def test_a_codebase_source_needs_a_path() -> None:
    codebase = engine.Codebase(cn.sample_codebase())
    assert len(cn.explain(codebase, "src/inventory.ts")) == len(frames.chunk_file(codebase, "src/inventory.ts"))
    with pytest.raises(TypeError, match="needs the path"):
        cn.explain(codebase)


def test_the_preview_shows_why_on_hover_and_for_the_selected_chunk(root: Path) -> None:
    preview = cn.preview(root, "src/every.ts", chunk_size=15, chunk_overlap=4)
    assert preview.html.count('why: ') == len(cn.explain(root, "src/every.ts", chunk_size=15, chunk_overlap=4))
    picked = preview.page(1)
    picked.selected = 0
    assert "data-why" in picked.html and "with its leading comment (line 1)" in picked.html


def test_the_command_line_explains_a_file(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from clanka_nb.cli import main

    assert main(["explain", str(root), "src/every.ts", "--chunk-size", "15", "-q"]) == 0
    out = capsys.readouterr().out
    assert "class-head" in out and "declaration-piece" in out
    assert main(["explain", str(root), "nope.ts", "-q"]) == 1
