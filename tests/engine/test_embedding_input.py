"""clanka's embedding input and its hash, as its SemanticSearch computes them (Node strings, UTF-8)."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from clanka_nb.engine.embedding import embedding_text, input_hash


def test_header_and_numbered_lines() -> None:
    text = embedding_text("src/a.ts", 7, "f", "function", None, "function f() {\n}")
    assert text == "---\nfile: src/a.ts\nname: f\ntype: function\n---\n\n7: function f() {\n8: }"


def test_a_lone_surrogate_hashes_as_node_encodes_it() -> None:
    # Node's Buffer.from(string, "utf8") writes U+FFFD for an unpaired surrogate.
    assert input_hash("a\ud800b") == hashlib.sha256("a\ufffdb".encode()).hexdigest()
    assert input_hash("a\ud83d\ude00") == hashlib.sha256("a😀".encode()).hexdigest()  # a pair is one character


@given(st.text())
def test_valid_text_hashes_as_its_utf8(text: str) -> None:
    assert input_hash(text) == hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest() or any(
        0xD800 <= ord(c) <= 0xDFFF for c in text
    )
