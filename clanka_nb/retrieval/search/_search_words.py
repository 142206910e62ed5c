"""Code-aware tokens for lexical search: words split at camelCase and snake_case, the compound kept too."""

from __future__ import annotations

import re
from functools import lru_cache

# A word is a run of letters, digits and underscores (any script); tokens never span lines.
_WORD = re.compile(r"\w+")
# Parts of a word: `HTTPResponse` -> HTTP, Response; `vector3` -> vector, 3. Only ASCII capitals
# start a part: other letters (`größe`, `名前`) continue the one they are in.
_LOWER = r"[^\W\d_A-Z]"
_PART = re.compile(rf"[A-Z]+(?!{_LOWER})|[A-Z]{_LOWER}*|{_LOWER}+|\d+")

# English words too common in doc comments to tell code apart (bm25s's English list, kept here so
# tokenizing does not import bm25s).
STOPWORDS = frozenset(
    "a an and are as at be but by for if in into is it no not of on or such that the their then there "
    "these they this to was will with".split()
)


@lru_cache(maxsize=1 << 16)
def word_tokens(word: str) -> tuple[str, ...]:
    """Tokens of one word: its lower-cased parts, then the whole word when it has several parts.

    Tokens of one character, digits alone and stopwords are dropped: they match almost anything.
    """
    parts = [p.lower() for p in _PART.findall(word)]
    if len(parts) > 1:
        parts.append(word.strip("_").lower())
    return tuple(p for p in parts if len(p) > 1 and not p.isdigit() and p not in STOPWORDS)


def code_tokens(text: str) -> list[str]:
    """Search tokens of `text`: `getUserName` gives get, user, name, getusername; `MAX_SIZE` max, size, max_size.

    Line numbers and other bare numbers give no token, so numbering a chunk's lines (as clanka's
    embedding input does) leaves its tokens unchanged.
    """
    return [token for word in _WORD.findall(text) for token in word_tokens(word)]
