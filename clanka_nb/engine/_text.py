"""JavaScript string semantics the reference relies on: lengths, whitespace, lines, punctuation."""

from __future__ import annotations

import re
import sys
import unicodedata

# JavaScript's `\s`. Python's str.isspace differs (it accepts U+0085 and U+001C-U+001F, and not U+FEFF).
JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def _punctuation_class() -> str:
    """Regex class body for every code point of general category P* (what `\\p{P}` matches)."""
    parts: list[str] = []
    start = prev = -2
    for cp in range(sys.maxunicode + 1):
        if unicodedata.category(chr(cp)).startswith("P"):
            if cp != prev + 1:
                if start >= 0:
                    parts.append(_range(start, prev))
                start = cp
            prev = cp
    parts.append(_range(start, prev))
    return "".join(parts)


def _range(lo: int, hi: int) -> str:
    return re.escape(chr(lo)) if lo == hi else f"{re.escape(chr(lo))}-{re.escape(chr(hi))}"


# A line is meaningful when it holds one character that is neither JS whitespace nor punctuation.
_MEANINGFUL = re.compile(f"[^{re.escape(JS_WHITESPACE)}{_punctuation_class()}]")
_WHITESPACE_RUN = re.compile(f"[{re.escape(JS_WHITESPACE)}]+")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def js_length(text: str) -> int:
    """Length in UTF-16 code units, as JavaScript's `String.prototype.length`."""
    if text.isascii():
        return len(text)
    return len(text) + len(_ASTRAL.findall(text))


def trim(text: str) -> str:
    """JavaScript's `String.prototype.trim`."""
    return text.strip(JS_WHITESPACE)


def collapse_whitespace(text: str) -> str:
    """Trim, then turn every run of JS whitespace into one space (how names are cleaned)."""
    return _WHITESPACE_RUN.sub(" ", trim(text))


def normalize_newlines(text: str) -> str:
    """CRLF, then lone CR, become LF."""
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def split_lines(text: str) -> list[str]:
    """Normalise newlines and split on LF only (never `str.splitlines`, which breaks on more)."""
    return normalize_newlines(text).split("\n")


meaningful_match = _MEANINGFUL.search


def is_meaningful_line(line: str) -> bool:
    """True when the line has a character that is neither whitespace nor Unicode punctuation."""
    return _MEANINGFUL.search(line) is not None


def normalize_path(path: str) -> str:
    """Every backslash becomes a forward slash."""
    return path.replace("\\", "/")
