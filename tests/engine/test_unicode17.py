"""Unicode 17.0 data for `\\p{P}` and JS whitespace, as Node 20 LTS (ICU 78) has it, not Python's older unicodedata."""

from __future__ import annotations

import sys
import unicodedata

import pytest

from clanka_nb.engine import Codebase, FileStatus, chunk_file_content, is_meaningful_line
from clanka_nb.engine._text import JS_WHITESPACE, trim
from clanka_nb.engine._unicode_tables import PUNCTUATION, SPACE_SEPARATORS, UNICODE_VERSION

try:  # a test extra; the engine-only CI venv has none
    import unicodedata2
except ImportError:
    unicodedata2 = None

# Punctuation added in Unicode 15.0-17.0 (the issue's list): unassigned in Python 3.11's Unicode 14.
NEW_PUNCTUATION = [
    *range(0x11B00, 0x11B0A), *range(0x11F43, 0x11F50), 0x1B4E, 0x1B4F, 0x1B7F, 0x10D6E, 0x10ED0, 0x113D4, 0x11BE1,
    0x16D6D, 0x1E5FF,
]


def _code_points(ranges):
    return {cp for lo, hi in ranges for cp in range(lo, hi + 1)}


def test_tables_are_unicode_17():
    assert UNICODE_VERSION == "17.0.0"


@pytest.mark.skipif(
    getattr(unicodedata2, "unidata_version", None) != UNICODE_VERSION, reason="needs unicodedata2 for Unicode 17.0"
)
def test_tables_equal_the_unicode_17_categories():
    # tools/make_unicode_tables.py wrote them; this catches a hand edit or a run with other data.
    categories = [unicodedata2.category(chr(cp)) for cp in range(sys.maxunicode + 1)]
    assert _code_points(PUNCTUATION) == {cp for cp, c in enumerate(categories) if c.startswith("P")}
    assert _code_points(SPACE_SEPARATORS) == {cp for cp, c in enumerate(categories) if c == "Zs"}


@pytest.mark.parametrize("cp", NEW_PUNCTUATION, ids=lambda cp: f"U+{cp:04X}")
def test_punctuation_new_since_unicode_14_is_not_meaningful(cp):
    ch = chr(cp)
    assert any(lo <= cp <= hi for lo, hi in PUNCTUATION)
    assert not is_meaningful_line(ch)
    assert not is_meaningful_line(f"  {ch}{ch} -- {ch}")
    assert is_meaningful_line(f"{ch} x")


def test_the_new_punctuation_is_unassigned_in_the_old_data_this_fixes():
    if unicodedata.unidata_version >= "15":
        pytest.skip(f"this Python's unicodedata is {unicodedata.unidata_version}")
    assert {unicodedata.category(chr(cp)) for cp in NEW_PUNCTUATION} == {"Cn"}


def test_a_line_of_new_punctuation_starts_no_window():
    content = "".join(map(chr, NEW_PUNCTUATION[:5])) + "\nword\n" + chr(0x1E5FF) + "\n"
    assert [(c.start_line, c.end_line) for c in chunk_file_content("doc/a.md", content, chunk_size=1)] == [(2, 2)]
    only = chr(0x11B00) * 3 + "\n" + chr(0x1B7F) + "\n"
    assert chunk_file_content("src/a.ts", only) == []
    assert Codebase.from_texts({"a.md": only}).report("a.md").status is FileStatus.NOTHING_MEANINGFUL


def test_js_whitespace_is_spec_list_and_nothing_else():
    spec = {0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029, 0x202F, 0x205F,
            0x3000, 0xFEFF}
    assert set(map(ord, JS_WHITESPACE)) == spec
    assert trim("\u180e x \u180e") == "\u180e x \u180e"  # Mongolian vowel separator left Zs in Unicode 6.3
