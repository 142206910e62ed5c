"""Finding a declaration's doc comment from its lines: the comment above it, or a Python docstring."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

# Line-comment markers by tree-sitter grammar; every other grammar uses `//` (and `/* */` blocks).
_LINE_MARKERS = {
    "python": ("#",),
    "ruby": ("#",),
    "bash": ("#",),
    "lua": ("--",),
    "php": ("//", "#"),
}
_BLOCKS = frozenset({"python", "ruby", "bash", "lua"})  # grammars without `/* */` comments
_DOCSTRING_OPEN = re.compile(r"""^[rRuUbBfF]{0,2}("{3}|'{3}|"|')""")
_HASH_AFTER_SPACE = re.compile(r"(?<!\s)\s+#")  # from the start of a run of spaces only: linear
_LICENSE = re.compile(r"@license|@preserve|\bcopyright\b|\(c\)\s*\d{4}|spdx-license", re.IGNORECASE)


class DocComment(NamedTuple):
    """A doc comment and the declaration it documents (1-based inclusive lines)."""

    comment_start: int
    comment_end: int
    lines: list[str]  # the comment's source lines, markers still in
    kind: str  # "block", "line" or "docstring"
    target_start: int  # the declaration without its leading comments
    target_end: int
    masked: dict[int, str]  # line -> what is left of it with the comment taken out
    license: bool  # a license header (never a query; not masked either, as it documents no declaration)


def _block_end(lines: Sequence[str], start: int, end: int) -> int | None:
    """Line (1-based) holding the `*/` that closes the block comment opened on `start`."""
    first = lines[start - 1]
    if "*/" in first[first.index("/*") + 2 :]:
        return start
    for number in range(start + 1, end + 1):
        if "*/" in lines[number - 1]:
            return number
    return None


def _leading(lines: Sequence[str], start: int, end: int, grammar: str | None) -> tuple[list[tuple[int, int, str]], int]:
    """Comment groups (first line, last line, kind) at the top of the range, and the first line of code."""
    markers = _LINE_MARKERS.get(grammar or "", ("//",))
    blocks = grammar not in _BLOCKS
    groups: list[tuple[int, int, str]] = []
    number = start
    while number <= end:
        text = lines[number - 1].strip()
        if not text:
            number += 1
        elif blocks and text.startswith("/*"):
            close = _block_end(lines, number, end)
            if close is None:
                break
            groups.append((number, close, "block"))
            tail = lines[close - 1]
            if tail[tail.rindex("*/") + 2 :].strip():
                return groups, close  # `/** doc */ function f() {`: the code starts on that line
            number = close + 1
        elif text.startswith(markers) and not text.startswith("#!"):
            last = number
            while last < end and lines[last].strip().startswith(markers):
                last += 1
            groups.append((number, last, "line"))
            number = last + 1
        else:
            break
    return groups, number


def _without_trailing_comment(line: str) -> str:
    """The line without a trailing `  # comment` that holds no quote (what `\\s+#[^'"]*$` removes, found
    after the last quote in one pass instead of scanning to the end of the line from every `#`)."""
    last_quote = max(line.rfind("'"), line.rfind('"'))
    found = _HASH_AFTER_SPACE.search(line, last_quote + 1)
    return line if found is None else line[: found.start()]


def _docstring(lines: Sequence[str], header: int, end: int) -> tuple[int, int] | None:
    """Lines of the docstring of the `def` or `class` starting at or after `header` (decorators before it)."""
    number = header
    while number <= end and lines[number - 1].strip().startswith("@"):
        number += 1
    if number > end or not lines[number - 1].lstrip().startswith(("def ", "async def ", "class ")):
        return None
    # The signature ends at the first line ending with ":" (a trailing `# comment` aside).
    while number <= end and not _without_trailing_comment(lines[number - 1]).rstrip().endswith(":"):
        number += 1
    first = number + 1
    while first <= end and not lines[first - 1].strip():
        first += 1
    if first > end:
        return None
    opening = _DOCSTRING_OPEN.match(lines[first - 1].strip())
    if opening is None:
        return None
    quote = opening.group(1)
    rest = lines[first - 1].strip()[opening.end() :]
    if quote in rest or len(quote) == 1:
        return first, first
    for last in range(first + 1, end + 1):
        if quote in lines[last - 1]:
            return first, last
    return None


def _masked(lines: Sequence[str], first: int, last: int, kind: str) -> dict[int, str]:
    """The comment's lines blanked; a line where code follows `*/` keeps the code."""
    masked = dict.fromkeys(range(first, last + 1), "")
    if kind == "block":
        tail = lines[last - 1]
        cut = tail.rindex("*/") + 2
        if tail[cut:].strip():
            masked[last] = " " * cut + tail[cut:]
    return masked


def doc_comment(lines: Sequence[str], start: int, end: int, grammar: str | None) -> DocComment | None:
    """The doc comment of the declaration on lines start..end, or None when it has none.

    The engine's declaration ranges already begin at the comments attached above a declaration.
    The doc comment is the group nearest the code (a license header there is returned with
    `license=True`: it gives no query, and a license header further up does not count);
    for Python, a docstring wins over `#` comments. The target is the range without its leading
    comments; it keeps a docstring, which is inside the body.
    """
    groups, header = _leading(lines, start, end, grammar)
    if header > end:
        return None  # the range is only comments
    chosen: tuple[int, int, str] | None = None
    if grammar == "python":
        found = _docstring(lines, header, end)
        if found is not None:
            chosen = (*found, "docstring")
    if chosen is None and groups:
        chosen = groups[-1]
    if chosen is None:
        return None
    first, last, kind = chosen
    text = lines[first - 1 : last]
    license = kind != "docstring" and _LICENSE.search("\n".join(text)) is not None
    return DocComment(first, last, list(text), kind, header, end, _masked(lines, first, last, kind), license)
