"""Hypothesis: any text, in any extended language, chunks without error into chunks that are its lines."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clanka_nb.engine import CHUNK_TYPES, chunk_file_content
from clanka_nb.engine._language_specs import SPECS_BY_EXTENSION

# One extension per grammar.
EXTENSIONS = sorted({spec.grammar: ext for ext, spec in SPECS_BY_EXTENSION.items()}.values())
# Code-like fragments, so that random files hold declarations, nesting and broken syntax.
FRAGMENTS = [
    "class A",
    "def f(x):",
    "fn g() {",
    "func (s *S) M() {",
    "struct S {",
    "impl S {",
    "namespace N {",
    "module M",
    "function h() {",
    "end",
    "}",
    "{",
    "(",
    ")",
    "//c",
    "# c",
    "/* c */",
    "-- c",
    "@dec",
    "#[attr]",
    "x = 1",
    "const y = () => 1;",
    "export default {",
    "  ",
    "\t",
    "return",
    ";",
    "<?php",
    "package p",
    "template <T>",
    "\u00e9",
    "\U0001f600",
    "\r",
    "\r\n",
]
texts = st.lists(st.sampled_from(FRAGMENTS), max_size=40).map(lambda parts: "\n".join(parts))


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.SettingClampedWarning")  # settings out of range, on purpose
@settings(max_examples=25, deadline=None)
@given(ext=st.sampled_from(EXTENSIONS), text=texts, size=st.integers(1, 12), overlap=st.integers(0, 4))
def test_chunks_are_lines_of_the_file(ext, text, size, overlap):
    out = chunk_file_content(f"f.{ext}", text, chunk_size=size, chunk_overlap=overlap, languages="extended")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for chunk in out:
        assert 1 <= chunk.start_line <= chunk.end_line <= len(lines)
        assert chunk.end_line - chunk.start_line < size
        assert chunk.content == "\n".join(lines[chunk.start_line - 1 : chunk.end_line])
        assert chunk.type in (*CHUNK_TYPES, None)
    assert [(c.start_line, c.end_line) for c in out] == sorted((c.start_line, c.end_line) for c in out)
