"""Text primitives with JavaScript semantics: whitespace, length, lines, meaning, file names, minified guess."""

from __future__ import annotations

import sys

import pytest

from clanka_nb.engine import (
    Codebase,
    FileStatus,
    chunk_file_content,
    is_meaningful_file,
    is_meaningful_line,
    is_probably_minified,
    js_length,
)
from clanka_nb.engine._text import trim

# JavaScript's `\s`, written out from SPEC.md (not imported from the engine).
JS_WHITESPACE = [
    "\t", "\n", "\v", "\f", "\r", " ", "\u00a0", "\u1680",
    *(chr(cp) for cp in range(0x2000, 0x200B)),
    "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff",
]
# Characters Python's str.isspace (or a naive port) might treat as whitespace, which JS does not.
NOT_JS_WHITESPACE = ["\u0085", "\x1c", "\x1d", "\x1e", "\x1f", "\u200b", "\u180e"]


def spans(chunks):
    return [(c.start_line, c.end_line) for c in chunks]


# --- whitespace and trim -------------------------------------------------------------------


@pytest.mark.parametrize("ch", JS_WHITESPACE, ids=lambda c: f"U+{ord(c):04X}")
def test_trim_strips_every_js_whitespace_character(ch):
    assert trim(f"{ch}{ch}x y{ch}") == "x y"


@pytest.mark.parametrize("ch", NOT_JS_WHITESPACE, ids=lambda c: f"U+{ord(c):04X}")
def test_trim_keeps_characters_js_does_not_call_whitespace(ch):
    assert trim(f"{ch}x{ch}") == f"{ch}x{ch}"


def test_content_of_only_js_whitespace_including_bom_gives_no_chunks():
    content = "\ufeff \u3000\t\u2028\n\u00a0\n"
    assert chunk_file_content("a.md", content) == []
    assert Codebase.from_texts({"a.md": content}).report("a.md").status is FileStatus.EMPTY


@pytest.mark.parametrize("ch", ["\u0085", "\x1c", "\x1f"], ids=lambda c: f"U+{ord(c):04X}")
def test_a_control_character_python_calls_space_is_content(ch):
    # Neither JS whitespace nor punctuation (category Cc), so the file is not empty and the line counts.
    chunks = chunk_file_content("a.md", f"{ch}\n")
    assert spans(chunks) == [(1, 1)]
    assert chunks[0].content == ch


# --- UTF-16 length ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "length"),
    [
        ("", 0),
        ("abc", 3),
        ("é", 1),  # precomposed, one BMP code unit
        ("e\u0301", 2),  # e + combining accent
        ("😀", 2),  # astral: a surrogate pair
        ("𝒜", 2),
        ("a😀b", 4),
        ("中文", 2),
    ],
)
def test_js_length_counts_utf16_code_units(text, length):
    assert js_length(text) == length


def test_max_characters_measures_emoji_as_two():
    # Lines "😀😀" (4) and "ab" (2) joined with LF: 7 UTF-16 units (5 Python characters).
    content = "😀😀\nab"
    assert spans(chunk_file_content("a.md", content, chunk_size=2, chunk_max_characters=6)) == [(1, 1), (2, 2)]
    assert spans(chunk_file_content("a.md", content, chunk_size=2, chunk_max_characters=7)) == [(1, 2)]


# --- lines ------------------------------------------------------------------------------------


def test_only_lf_cr_and_crlf_break_lines():
    content = "a\vb\fc\u2028d\u0085e\u2029f\x1cg"
    chunks = chunk_file_content("a.md", content, chunk_size=1)
    assert spans(chunks) == [(1, 1)]
    assert chunks[0].content == content


def test_crlf_and_lone_cr_become_line_breaks():
    chunks = chunk_file_content("a.md", "a\r\nb\rc\nd", chunk_size=1)
    assert [(c.start_line, c.content) for c in chunks] == [(1, "a"), (2, "b"), (3, "c"), (4, "d")]


def test_cr_cr_lf_is_two_breaks():
    # CRLF is replaced first ("a\r\r\nb" -> "a\r\nb"), then the lone CR: "a\n\nb".
    text = Codebase.from_texts({"a.md": "a\r\r\nb"}).text("a.md")
    assert text.lines == ["a", "", "b"]


@pytest.mark.parametrize(
    ("content", "lines"),
    [
        ("a\nb", ["a", "b"]),
        ("a\nb\n", ["a", "b"]),
        ("a\nb\n\n", ["a", "b", ""]),  # only one trailing empty line is dropped
        ("a\r\n", ["a"]),
        ("\n\nx", ["", "", "x"]),
    ],
)
def test_one_trailing_empty_line_is_dropped(content, lines):
    assert Codebase.from_texts({"a.md": content}).text("a.md").lines == lines


def test_a_window_keeps_trailing_blank_lines_but_not_the_final_newline():
    # "a\n\n\n" -> lines ["a", "", ""]: one window over all three.
    chunks = chunk_file_content("a.md", "a\n\n\n")
    assert spans(chunks) == [(1, 3)]
    assert chunks[0].content == "a\n\n"


def test_leading_blank_lines_are_not_window_starts():
    chunks = chunk_file_content("a.md", "\n\n\nx")
    assert spans(chunks) == [(4, 4)]


# --- meaningful lines ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line", ["_", "-", "#", "*", "/", "@", "«", "»", "%", "&", "\\", "¿", "—", "}", "});", "// --"]
)
def test_punctuation_only_lines_are_not_meaningful(line):
    assert not is_meaningful_line(line)


@pytest.mark.parametrize("line", ["", " ", "\t\u3000\ufeff", "\u00a0 \u2028"])
def test_whitespace_only_lines_are_not_meaningful(line):
    assert not is_meaningful_line(line)


@pytest.mark.parametrize(
    "line",
    ["=", "+", "$", "`", "~", "|", "<", "^", "a", "7", "😀", "\u200b", "\u0085", "  } x", "-- =", "é"],
)
def test_symbols_letters_digits_and_other_characters_are_meaningful(line):
    assert is_meaningful_line(line)


def test_a_file_of_punctuation_lines_is_nothing_meaningful():
    content = "---\n***\n// #\n"
    assert chunk_file_content("notes.md", content) == []
    assert Codebase.from_texts({"notes.md": content}).report("notes.md").status is FileStatus.NOTHING_MEANINGFUL


# --- file names ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "src/a.ts", "src\\a.ts", "A.TS", "notes.TXT", "x.min.ts", ".ts", "foo.d.ts", "dist2/a.ts",
        "x.build/a.go", "docs/guide.mdx", "a.tsx", "b.py", "c.mjs", "q.gql", "style.scss", "doc.asciidoc",
    ],
)
def test_meaningful_file_names(path):
    assert is_meaningful_file(path)


@pytest.mark.parametrize(
    "path",
    [
        "", "src/", "Makefile", "README", "a.", "a.json", "a.cjs", "a.yaml", "a.min.js", "a.MIN.JS",
        "site.min.css", "node_modules/x/a.ts", "NODE_MODULES/a.ts", "build/a.ts", "a/dist/b.ts",
        "src/.git/a.ts", "a\\coverage\\b.ts", ".next/a.js", "target/x.rs", "a/build",
    ],
)
def test_not_meaningful_file_names(path):
    assert not is_meaningful_file(path)


def test_backslash_paths_are_normalised_in_chunks():
    assert [c.path for c in chunk_file_content("src\\docs\\a.md", "x")] == ["src/docs/a.md"]


# --- minified guess -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "minified"),
    [
        ("a" * 1999, False),
        ("a" * 2000, True),
        ("😀" * 999 + "a", False),  # 1999 UTF-16 units
        ("😀" * 1000, True),  # 2000 UTF-16 units, 1000 code points
        ("a" * 999 + "\n" + "a" * 999, False),  # 1999 with the line break
        ("a" * 999 + "\n" + "a" * 1000, True),  # 2000 on 2 lines
        ("a" * 1000 + "\r\n" + "a" * 999, True),  # CRLF counts as one character after normalising
        ("\n".join(["a" * 700] * 3), True),  # 3 lines, all long
        ("\n".join(["a" * 300] * 16 + ["x"] * 4), True),  # 20 lines, exactly 80% long
        ("\n".join(["a" * 300] * 15 + ["x"] * 5), False),  # 75% long
        ("\n".join(["a" * 299] * 20), False),  # no line reaches 300
        ("\n".join(["a" * 300] * 20), True),
        ("\n".join(["a" * 300] * 21), False),  # more than 20 lines
        ("\r".join(["a" * 300] * 21), False),  # lone CR breaks lines too
    ],
)
def test_is_probably_minified_thresholds(content, minified):
    assert is_probably_minified(content) is minified


def test_a_minified_file_gives_no_chunks_and_says_so():
    content = "var a=1;" * 300
    assert chunk_file_content("bundle.js", content) == []
    assert Codebase.from_texts({"bundle.js": content}).report("bundle.js").status is FileStatus.MINIFIED


def test_is_blank_is_trim_to_nothing_for_every_code_point():
    from clanka_nb.engine._text import is_blank, trim

    for code in range(sys.maxunicode + 1):
        char = chr(code)
        assert is_blank(char) == (trim(char) == ""), hex(code)
        assert is_blank(f" {char}\n") == (trim(f" {char}\n") == ""), hex(code)
    assert is_blank("") and is_blank("\ufeff \u3000\n")
