"""explain_file: every chunk with the rule that made it, the same chunks as chunking, in the same order."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clanka_nb import engine

# A file built to hold every case: a documented function, a class whose methods are longer than a chunk,
# a long function that is split with overlap, and lines long enough to be cut by characters.
DOC_FUNCTION = "/** Adds two numbers. */\nexport function add(a: number, b: number) {\n  return a + b;\n}\n\n"
CLASS = "export class Ledger {\n" + "".join(
    f"  m{i}(): number {{\n    return {i};\n  }}\n" for i in range(12)
) + "}\n\n"
LONG = "export function parse(text: string) {\n" + "".join(f"  const v{i} = {i};\n" for i in range(60)) + "}\n\n"
WIDE = "export function wide() {\n" + "".join(f"  const w{i} = '{'x' * 120}';\n" for i in range(8)) + "}\n"
EVERY_CASE = DOC_FUNCTION + CLASS + LONG + WIDE


def explained(path: str, content: str, **options: object) -> list[engine.ExplainedChunk]:
    text = engine.Codebase.from_texts({path: content}).text(path)
    return engine.explain_file(text, engine.ChunkSettings.build(**options))


def test_each_case_gets_its_rule() -> None:
    got = explained("every.ts", EVERY_CASE, chunk_size=20, chunk_overlap=5, chunk_max_characters=500)
    chunks = engine.chunk_file_content("every.ts", EVERY_CASE, chunk_size=20, chunk_overlap=5, chunk_max_characters=500)
    assert [e.chunk for e in got] == chunks
    by_name = {}
    for e in got:
        by_name.setdefault(e.chunk.name, []).append(e)
    (add,) = by_name["add"]
    assert add.rule == "declaration" and "with its leading comment (line 1)" in add.why
    (ledger,) = by_name["Ledger"]
    assert ledger.rule == "class-head" and "its 12 methods are chunks of their own" in ledger.why
    assert {e.rule for e in by_name["parse"]} == {"declaration-piece"}
    assert "piece 2 of 4 of function `parse`" in by_name["parse"][1].why
    assert "cut every 20 lines with 5 lines of overlap" in by_name["parse"][1].why
    # Every piece but the last was ended early by the character limit; the last ends with the function.
    assert [e.rule for e in by_name["wide"]][:-1] == ["character-split"] * (len(by_name["wide"]) - 1)
    assert by_name["wide"][-1].rule == "declaration-piece" and len(by_name["wide"]) > 2
    assert "to stay within 500 characters" in by_name["wide"][0].why


def test_every_why_names_the_lines_of_its_chunk() -> None:
    for e in explained("every.ts", EVERY_CASE, chunk_size=15, chunk_overlap=3, chunk_max_characters=400):
        span = f"line {e.chunk.start_line}" if e.chunk.start_line == e.chunk.end_line else (
            f"lines {e.chunk.start_line}-{e.chunk.end_line}"
        )
        assert e.why.startswith(span + ":"), e.why
        assert e.rule in engine.RULES


def test_markdown_gets_line_windows_and_says_why() -> None:
    text = "".join(f"Line {i} of prose.\n" for i in range(1, 26))
    got = explained("notes.md", text, chunk_size=10, chunk_overlap=2)
    assert [e.rule for e in got] == ["window"] * 3
    assert got[1].why == (
        "lines 9-18: line window 2 of 3, cut every 10 lines with 2 lines of overlap; "
        "files ending .md are not parsed, so they get line windows"
    )


def test_a_parsed_file_without_declarations_says_so() -> None:
    (only,) = explained("run.ts", "console.log(1);\nconsole.log(2);\n", chunk_size=30, chunk_overlap=0)
    assert only.rule == "window" and "the parser found no declaration" in only.why


def test_explaining_costs_the_default_path_nothing() -> None:
    """Chunking itself records nothing: the record list exists only when explain passes one."""
    text = engine.Codebase.from_texts({"every.ts": EVERY_CASE}).text("every.ts")
    assert engine.explain_file(text, engine.ChunkSettings.build(20, 5, 500))  # works on the same text after
    assert text.chunks(engine.ChunkSettings.build(20, 5, 500)) == [
        e.chunk for e in engine.explain_file(text, engine.ChunkSettings.build(20, 5, 500))
    ]


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.SettingClampedWarning")  # settings out of range, on purpose
@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(1, 40), overlap=st.integers(0, 45), limit=st.one_of(st.none(), st.integers(1, 3000)),
    path=st.sampled_from(["every.ts", "every.js", "every.md", "every.py"]),
)
def test_explained_chunks_are_the_chunks_at_any_setting(size: int, overlap: int, limit: int | None, path: str) -> None:
    options = {"chunk_size": size, "chunk_overlap": overlap, "chunk_max_characters": limit}
    got = explained(path, EVERY_CASE, **options)
    assert [e.chunk for e in got] == engine.chunk_file_content(path, EVERY_CASE, **options)
    assert all(re.match(r"lines? \d+", e.why) for e in got)
