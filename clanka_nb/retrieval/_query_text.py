"""A doc comment's text as a search query: markers and tags out, the first paragraph's first two sentences."""

from __future__ import annotations

import re
from collections.abc import Sequence

MIN_WORDS = 3
MAX_SENTENCES = 2
MAX_WORDS = 40

_BLOCK_OPEN = re.compile(r"^\s*/\*+!?")
_BLOCK_CLOSE = re.compile(r"\*+/.*$")
_BLOCK_STAR = re.compile(r"^\s*\*+(?!/)")
_LINE_MARKER = re.compile(r"^\s*(?://+!?|#+|--+)")
_DOCSTRING_OPEN = re.compile(r"""^\s*[rRuUbBfF]{0,2}("{3}|'{3}|"|')""")
_DOCSTRING_CLOSE = re.compile(r"""("{3}|'{3}|"|')\s*$""")
# Lines that start a docstring's sections or are tool directives, not prose.
_SECTION = re.compile(
    r"^(?:@|:(?:param|type|return|rtype|raises)\b|(?:Args|Arguments|Parameters|Returns|Yields|Raises|Examples?"
    r"|Notes?|Attributes|See Also)\s*:?\s*$|-{3,}$|={3,}$|eslint|prettier-ignore|istanbul|c8 |jshint|"
    r"global |noqa|pylint:|type: ?ignore|#?region\b|#?endregion\b)",
    re.IGNORECASE,
)
_INLINE_TAG = re.compile(r"\{@\w+\s*([^}]*)\}")  # {@link Vector3 the vector} -> Vector3 the vector
_HTML_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_SPACE = re.compile(r"\s+")
# A sentence ends at . ! or ? followed by a space and a word that does not start in lower case,
# unless the dot closes an initial ("A. Author") or a common abbreviation.
_SENTENCE_END = re.compile(r"(?<!\b\w)(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)[.!?](?=\s+(?![a-z]))")
_CODE_LIKE = re.compile(r"[;{}]\s*$|=>|\(\);|^\s*(?:const|let|var|import|return)\s")


def comment_lines(lines: Sequence[str], kind: str) -> list[str]:
    """The comment's lines with their markers (`/**`, `*`, `*/`, `//`, `#`, quotes) removed."""
    out = []
    for i, line in enumerate(lines):
        if kind == "block":
            line = _BLOCK_STAR.sub("", _BLOCK_CLOSE.sub("", _BLOCK_OPEN.sub("", line)))
        elif kind == "line":
            line = _LINE_MARKER.sub("", line)
        else:  # a docstring: quotes open its first line and close its last
            line = _DOCSTRING_OPEN.sub("", line) if i == 0 else line
            line = _DOCSTRING_CLOSE.sub("", line) if i == len(lines) - 1 else line
        out.append(line.strip())
    return out


def first_paragraph(lines: Sequence[str]) -> str:
    """Text up to the first blank line, tag (`@param`) or section heading, whitespace collapsed."""
    kept: list[str] = []
    for line in lines:
        if _SECTION.match(line) or (not line and kept):
            break
        if line:
            kept.append(line)
    text = _HTML_TAG.sub("", _INLINE_TAG.sub(r"\1", " ".join(kept))).replace("`", "")
    return _SPACE.sub(" ", text).strip()


def first_sentences(text: str, count: int = MAX_SENTENCES, max_words: int = MAX_WORDS) -> str:
    """The first `count` sentences of `text`, at most `max_words` words."""
    ends = [match.end() for match in _SENTENCE_END.finditer(text)]
    if len(ends) >= count:
        text = text[: ends[count - 1]]
    words = text.split()
    return " ".join(words[:max_words])


def query_text(lines: Sequence[str], kind: str) -> str | None:
    """The query a doc comment gives, or None when it gives none (fewer than 3 words, or code)."""
    text = first_sentences(first_paragraph(comment_lines(lines, kind)))
    if len(re.findall(r"\w+", text)) < MIN_WORDS or _CODE_LIKE.search(text):
        return None
    return text
