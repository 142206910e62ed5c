"""embedding_input: the exact text clanka embeds, checked against hand-written expectations."""

from __future__ import annotations

import pandas as pd
import pytest

from clanka_nb import engine, frames

from .conftest import TS_EXAMPLE


def test_method_chunk_has_every_header_field() -> None:
    frame = frames.chunk_text(TS_EXAMPLE, path="src/example.ts")
    method = frame[frame["type"] == "method"].iloc[0]
    assert frames.embedding_input(method) == (
        "---\n"
        "file: src/example.ts\n"
        "name: open\n"
        "type: method\n"
        "parent: class Box\n"
        "---\n"
        "\n"
        "11:   open() {\n"
        "12:     return true\n"
        "13:   }"
    )


def test_top_level_function_has_no_parent_line() -> None:
    frame = frames.chunk_text(TS_EXAMPLE, path="src/example.ts")
    function = frame[frame["name"] == "add"].iloc[0]
    assert frames.embedding_input(function) == (
        "---\nfile: src/example.ts\nname: add\ntype: function\n---\n\n"
        "5: // Adds two numbers.\n"
        "6: export function add(a: number, b: number) {\n"
        "7:   return a + b\n"
        "8: }"
    )


def test_window_chunk_has_only_the_file() -> None:
    chunk = engine.CodeChunk("docs/notes.md", 3, 4, None, None, None, "# Notes\n")
    assert frames.embedding_input(chunk) == "---\nfile: docs/notes.md\n---\n\n3: # Notes\n4: "


def test_signature_chunk_with_only_a_parent() -> None:
    chunk = engine.CodeChunk("s.ts", 2, 2, None, None, "class S", "  sig(): void")
    assert frames.embedding_input(chunk) == "---\nfile: s.ts\nparent: class S\n---\n\n2:   sig(): void"


def test_row_chunk_and_mapping_agree() -> None:
    frame = frames.chunk_text(TS_EXAMPLE)
    for chunk, (_, row) in zip(engine.chunk_file_content("snippet.ts", TS_EXAMPLE), frame.iterrows(), strict=True):
        assert frames.embedding_input(row) == frames.embedding_input(chunk)
        assert frames.embedding_input(row.to_dict()) == frames.embedding_input(chunk)


def test_bad_input_names_what_to_pass() -> None:
    with pytest.raises(KeyError, match="no content"):
        frames.embedding_input(pd.Series({"path": "a.ts", "start_line": 1}))
    with pytest.raises(TypeError, match="chunk-frame row"):
        frames.embedding_input("just text")  # type: ignore[arg-type]
