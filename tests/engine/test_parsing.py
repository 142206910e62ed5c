"""Parsing as the reference does: its grammar versions, UTF-16 input, offsets that are JS string indices."""

from __future__ import annotations

from importlib.metadata import version

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clanka_nb.engine import chunk_file_content, js_length
from clanka_nb.engine._declarations import parse_like_reference, reference_parser


def rows(chunks):
    return [(c.start_line, c.end_line, c.name, c.type) for c in chunks]


def test_the_reference_grammar_versions_are_installed():
    assert version("tree-sitter-javascript") == "0.23.1"
    assert version("tree-sitter-typescript") == "0.23.2"


@settings(max_examples=200, deadline=None)
@given(
    st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00\r\n\"\\"), max_size=8),
    st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00\r\n*"), max_size=8),
)
def test_utf16_offsets_are_js_string_indices(before, comment):
    # `const s = "<before>"; /*<comment>*/ function f() {}`: where f starts, in UTF-16 code units
    # (NUL left out: the lexers read it as the end of input).
    head = f'const s = "{before}"; /*{comment}*/ '
    root = parse_like_reference("javascript", head + "function f() {}")
    function = root.named_children[-1]
    assert function.type == "function_declaration"
    assert function.start_byte // 2 == js_length(head)
    assert function.start_point.column // 2 == js_length(head)
    assert function.child_by_field_name("name").text.decode("utf-16-le") == "f"


@pytest.mark.parametrize(
    ("path", "source", "expected"),
    [
        # The reproducers, fixed by the reference's grammar versions and UTF-16 input.
        (
            "x.ts",
            'const D:(<aype = Dayjs, IsMultiple ultiple<Dayjs, Omit<PickerProps<Dayjs>, "picker">,l',
            [(1, 1, None, None)],
        ),
        ("x.js", "function(s e?r:n{const e", [(1, 1, None, None)]),
        # Found by comparing trees with Node's tree-sitter 0.21.1 binding, which parses UTF-16: parsed
        # as UTF-8, the non-ASCII text weighs more and error recovery picks another tree.
        ("x.ts", "} type T<X> =  😀😀😀 interface I {", [(1, 1, "I", "interface"), (1, 1, "T", "type-alias")]),
        ("x.ts", ' :  const x = "ééééé"; @dec enum E {', [(1, 1, "E", "enum"), (1, 1, "x", "variable")]),
        ("x.js", 'async { const x = "ééééé"; class A extends B {\n', [(1, 1, None, None)]),
    ],
)
def test_broken_code_is_cut_as_the_reference_cuts_it(path, source, expected):
    assert rows(chunk_file_content(path, source, chunk_size=30, chunk_overlap=0)) == expected


def test_clanka_mode_and_extended_mode_use_their_own_parsers():
    from clanka_nb.engine._declarations import parser_for

    assert reference_parser("javascript") is not parser_for("javascript")
    assert reference_parser("typescript").language is not None
    assert reference_parser("tsx").language is not None
