"""JavaScript string semantics the reference relies on: lengths, whitespace, lines, punctuation."""

from __future__ import annotations

import codecs
import re

from ._unicode_tables import PUNCTUATION, SPACE_SEPARATORS

# The reference's regular expressions follow the Unicode version of Node's ICU (Node 20 LTS: ICU 78,
# Unicode 17.0), not Python's `unicodedata` (3.11: Unicode 14.0), so both classes come from Unicode
# 17.0 tables generated into `_unicode_tables` (tools/make_unicode_tables.py).


def _chars(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(chr(cp) for lo, hi in ranges for cp in range(lo, hi + 1))


def _class(ranges: tuple[tuple[int, int], ...]) -> str:
    """Regex class body matching the code points of `ranges`."""
    return "".join(
        re.escape(chr(lo)) if lo == hi else f"{re.escape(chr(lo))}-{re.escape(chr(hi))}" for lo, hi in ranges
    )


# JavaScript's `\s`: WhiteSpace (TAB, VT, FF, U+FEFF and every space separator Zs) and LineTerminator
# (LF, CR, U+2028, U+2029). Python's str.isspace differs: it accepts U+0085 and U+001C-U+001F, not U+FEFF.
JS_WHITESPACE = "\t\n\v\f\r\u2028\u2029\ufeff" + _chars(SPACE_SEPARATORS)

# A line is meaningful when it holds one character that is neither JS whitespace nor punctuation (`\p{P}`).
_MEANINGFUL = re.compile(f"[^{re.escape(JS_WHITESPACE)}{_class(PUNCTUATION)}]")
_WHITESPACE_RUN = re.compile(f"[{re.escape(JS_WHITESPACE)}]+")
_NOT_WHITESPACE = re.compile(f"[^{re.escape(JS_WHITESPACE)}]")


def to_utf16(text: str) -> bytes:
    """`text` as UTF-16-LE, lone surrogates kept: what JavaScript holds, and what the reference parses."""
    # The codec's own function: `str.encode("utf-16-le")` looks the codec up by name on every call.
    return _encode_utf16(text, "surrogatepass")[0]


_encode_utf16 = codecs.utf_16_le_encode


def js_length(text: str) -> int:
    """Length in UTF-16 code units, as JavaScript's `String.prototype.length`.

    Args:
        text: The text.

    Returns:
        Its length in UTF-16 code units.

    Examples:
        >>> engine.js_length("a😀")
        3
    """
    if text.isascii():
        return len(text)
    # Counting the units the encoder writes is a copy in C: ten times faster than finding astral characters.
    return len(to_utf16(text)) >> 1


def trim(text: str) -> str:
    """JavaScript's `String.prototype.trim`."""
    return text.strip(JS_WHITESPACE)


def is_blank(text: str) -> bool:
    """`trim(text) == ""`, without copying the text (trim copies a whole file to drop its last newline)."""
    return _NOT_WHITESPACE.search(text) is None


def collapse_whitespace(text: str) -> str:
    """Trim, then turn every run of JS whitespace into one space (how names are cleaned)."""
    return _WHITESPACE_RUN.sub(" ", trim(text))


def normalize_newlines(text: str) -> str:
    """CRLF, then lone CR, become LF."""
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


meaningful_match = _MEANINGFUL.search


def is_meaningful_line(line: str) -> bool:
    """True when the line has a character that is neither whitespace nor Unicode punctuation.

    Args:
        line: One line of text.

    Returns:
        Whether it counts as meaningful.

    Examples:
        >>> engine.is_meaningful_line("  });"), engine.is_meaningful_line("return x;")
        (False, True)
    """
    return _MEANINGFUL.search(line) is not None


def normalize_path(path: str) -> str:
    """Every backslash becomes a forward slash."""
    return path.replace("\\", "/")
