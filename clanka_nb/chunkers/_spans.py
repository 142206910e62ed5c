"""A chunk as the lines it covers (`Span`), and the placing of a peer's chunks back on the file's lines."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from typing import NamedTuple

from ..engine.settings import checked_keywords
from ..engine.warn import warn_at_user
from ..warning import ClankaWarning


class Span(NamedTuple):
    """One chunk as the lines of its file it covers: 1-based and inclusive, as the engine's `CodeChunk`.

    `name`, `type` and `parent` are the declaration's where the chunker says (clanka's chunks do), else None: the
    embedding input's header carries them, so clanka's chunks are indexed as the engine indexes them.

    Attributes:
        start_line: The first line the chunk covers (1-based).
        end_line: The last line it covers (inclusive).
        name: The declaration's name where the chunker says, else None.
        type: The declaration's kind where the chunker says, else None.
        parent: The name of the declaration holding it where the chunker says, else None.
    """

    start_line: int
    end_line: int
    name: str | None = None
    type: str | None = None
    parent: str | None = None


class UnplacedChunkWarning(ClankaWarning, UserWarning):
    """A chunker gave chunks whose text is not in the file as given, so they have no lines and are left out."""


class LineMap:
    """Character offsets of one text to its 1-based line numbers (the text's lines split on LF)."""

    __slots__ = ("_starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        # The offset where each line starts: a bisection then names the line of any offset.
        self._starts = [0, *(match.end() for match in re.finditer("\n", text))]

    def line(self, offset: int) -> int:
        """The line holding the character at `offset`."""
        return bisect_right(self._starts, offset)

    def span(self, start: int, end: int) -> Span | None:
        """The lines of characters start..end (end exclusive), without the whitespace at either end: a chunk that
        begins with the previous line's newline or ends with its own covers only the lines its content is on.
        None when the characters are whitespace alone (no line of content)."""
        text = self.text
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start >= end:
            return None
        return Span(self.line(start), self.line(end - 1))


def spans_at_offsets(text: str, ranges: Iterable[tuple[int, int]]) -> list[Span]:
    """Spans of chunks the chunker placed itself, as (start, end) character offsets into `text` (end exclusive)."""
    lines = LineMap(text)
    return [span for span in (lines.span(start, end) for start, end in ranges) if span is not None]


def spans_at_lines(text: str, pairs: Iterable[tuple[int, int]]) -> list[Span]:
    """Spans of chunks the chunker gave as (start_line, end_line), without blank lines at either end (as spans at
    offsets are trimmed of whitespace); a chunk of blank lines alone covers no line of content and gives none."""
    rows = text.split("\n")
    out = []
    for start, end in pairs:
        while start < end and not rows[start - 1].strip():
            start += 1
        while end > start and not rows[end - 1].strip():
            end -= 1
        if rows[start - 1].strip():
            out.append(Span(start, end))
    return out


def _loose(piece: str) -> re.Pattern[str]:
    """`piece` as a pattern where every run of whitespace matches any run: for a chunker that rewraps or trims
    the whitespace inside its chunks (the file's text is still all there, in the same order)."""
    return re.compile(r"\s+".join(map(re.escape, piece.split())))


class Placed(NamedTuple):
    """Texts placed on a file's lines: the spans found, in the chunks' order, and how many could not be."""

    spans: list[Span]
    unplaced: int


@checked_keywords
def place_texts(text: str, pieces: Iterable[str]) -> Placed:
    """Find each chunk's text in `text`, in order, and give the lines it covers.

    Each chunk is looked for from just after where the one before began (so overlapping chunks and repeated
    texts land on their own place), first as given less its outer whitespace, then with any whitespace inside
    it matching any whitespace of the file. A chunk of whitespace alone covers no line and is passed over; one
    found nowhere after the previous is counted in `unplaced`.

    Args:
        text: The file's text.
        pieces: The chunks' texts, in order.

    Returns:
        The spans found, in the chunks' order, and how many could not be placed.
    """
    lines = LineMap(text)
    spans: list[Span] = []
    unplaced = 0
    position = 0
    for piece in pieces:
        core = piece.strip()
        if not core:
            continue
        found = text.find(core, position)
        end = found + len(core)
        if found < 0:
            match = _loose(core).search(text, position)
            if match is None:
                unplaced += 1
                continue
            found, end = match.span()
        span = lines.span(found, end)
        if span is not None:
            spans.append(span)
        position = found + 1
    return Placed(spans, unplaced)


def warn_unplaced(label: str, path: str, unplaced: int, total: int) -> None:
    """The one warning for a file whose chunks could not all be placed: never a silent drop."""
    if unplaced:
        msg = (
            f"chunker {label!r}: {unplaced} of its {total} chunks of {path!r} could not be placed on the file's "
            "lines (their text is not in the file as given, in order); they are left out of its spans"
        )
        warn_at_user(msg, UnplacedChunkWarning)
