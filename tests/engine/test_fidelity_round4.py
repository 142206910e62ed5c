"""Fidelity round 4: a declaration name that ends in a lone high surrogate keeps it, as JavaScript's slice does.

Only text passed in memory can carry a lone surrogate (a file on disk is decoded from UTF-8 first). The
reference slices names from its UTF-16 string, so `const \\ud800 = 1` is named "\\ud800"; the engine decodes the
parsed UTF-16 bytes, and a decoder step that is not final held that unit back as half of a pair to come.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clanka_nb import engine

HIGH = ["\ud800", "\ud83d", "\udbff"]


def declarations(path: str, text: str) -> list[tuple[str | None, str, str | None]]:
    return [(c.name, c.type, c.parent) for c in engine.chunk_file_content(path, text)]


@pytest.mark.parametrize("high", HIGH)
@pytest.mark.parametrize("path", ["a.js", "a.jsx", "a.ts", "a.tsx"])
def test_a_trailing_lone_high_surrogate_stays_in_every_kind_of_name(path: str, high: str) -> None:
    assert declarations(path, f"const {high} = 1") == [(high, "variable", None)]
    assert declarations(path, f"function f{high}() {{}}") == [(f"f{high}", "function", None)]
    assert declarations(path, f"class {high} {{\n  m() {{}}\n}}") == [
        (high, "class", None), ("m", "method", f"class {high}"),
    ]
    assert declarations(path, f"class K {{\n  _{high}() {{}}\n}}")[1] == (f"_{high}", "method", "class K")


def test_a_pair_split_only_by_the_end_of_a_name_is_not_joined() -> None:
    # The high half ends one name and a low half starts nothing: each name is its own units, nothing more.
    assert declarations("a.js", "let a\ud83d = 1, b = 2") == [("a\ud83d, b", "variable", None)]


@given(st.text(alphabet="abc_$", min_size=1, max_size=8), st.sampled_from(HIGH))
def test_the_name_is_the_source_text_between_its_ends(stem: str, high: str) -> None:
    name = stem + high
    assert declarations("a.ts", f"function {name}() {{}}") == [(name, "function", None)]
