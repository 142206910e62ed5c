"""What a chunker is here: a callable `(path, text) -> spans` with a label, and a user's callable made into one."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from ._spans import Span, place_texts, warn_unplaced

# What a chunker gives for one file: its spans, or None when it does not handle the file at all (no grammar
# for the language, or it refuses the text) so that a comparison can tell "not handled" from "no chunks".
Result = Sequence[Span] | None


@runtime_checkable
class Chunker(Protocol):
    """A chunker: a label, and a call from a file's path and text (LF newlines) to the spans of its chunks."""

    label: str

    def __call__(self, path: str, text: str) -> Result: ...


@dataclass(frozen=True)
class Adapter:
    """A chunker made of a function, with its label and the parameters it runs with (stated, for tables).

    `texts`, where the chunker has texts of its own (the peers), gives them for one file as it made them
    (None: not handled), so that what a span covers can be checked against what the chunker cut.
    """

    label: str
    split: Callable[[str, str], Result] = field(repr=False)
    parameters: Mapping[str, Any] = field(default_factory=dict)
    texts: Callable[[str, str], list[str] | None] | None = field(default=None, repr=False)

    def __call__(self, path: str, text: str) -> Result:
        return self.split(path, text)


def as_chunker(chunker: object, label: str | None = None) -> Chunker:
    """A `Chunker` from what a user passes: one already (kept, relabelled when `label` is given), or any callable
    `(path, text)` returning, per chunk, a `Span`, an object with `start_line` and `end_line` (a `CodeChunk`), a
    `(start_line, end_line)` pair, or the chunk's text (placed on the file's lines, in order); or None."""
    if not callable(chunker):
        msg = f"a chunker is a callable (path, text) -> spans, got {type(chunker).__name__} {chunker!r}"
        raise TypeError(msg)
    if isinstance(chunker, Adapter):  # this package's own: its answers are spans already
        return chunker if label is None else dataclasses.replace(chunker, label=label)
    own = getattr(chunker, "label", None)
    name = label or (own if isinstance(own, str) else None) or getattr(chunker, "__name__", type(chunker).__name__)
    parameters = getattr(chunker, "parameters", None)
    parameters = dict(parameters) if isinstance(parameters, Mapping) else {}

    def split(path: str, text: str) -> Result:
        return spans_from(name, path, text, chunker(path, text))

    return Adapter(name, split, parameters)


def spans_from(label: str, path: str, text: str, given: object) -> Result:
    """A user chunker's answer for one file as spans, each checked to lie inside the file."""
    if given is None:
        return None
    if isinstance(given, str | bytes) or not isinstance(given, Iterable):
        msg = f"chunker {label!r} gave {type(given).__name__} for {path!r}; give a list of spans, texts or None"
        raise TypeError(msg)
    given = list(given)
    count = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    texts = [piece for piece in given if isinstance(piece, str)]
    if texts:
        if len(texts) != len(given):
            msg = f"chunker {label!r} gave {path!r} a mix of texts and spans; give one or the other"
            raise TypeError(msg)
        placed = place_texts(text, texts)
        warn_unplaced(label, path, placed.unplaced, len(texts))
        return placed.spans
    return [_span(label, path, piece, count) for piece in given]


def _span(label: str, path: str, piece: object, count: int) -> Span:
    if isinstance(piece, Span):
        span = piece
    elif hasattr(piece, "start_line") and hasattr(piece, "end_line"):
        span = Span(piece.start_line, piece.end_line, getattr(piece, "name", None), getattr(piece, "type", None),
                    getattr(piece, "parent", None))
    elif isinstance(piece, tuple) and len(piece) == 2:
        span = Span(*piece)
    else:
        msg = (
            f"chunker {label!r} gave {piece!r} for {path!r}: a chunk is a Span, an object with start_line and "
            "end_line, a (start_line, end_line) pair or the chunk's text"
        )
        raise TypeError(msg)
    start, end = span.start_line, span.end_line
    if not (isinstance(start, int) and isinstance(end, int) and 1 <= start <= end <= max(count, 1)):
        msg = f"chunker {label!r} gave lines {start}..{end} for {path!r}, which has {count} lines (1-based, inclusive)"
        raise ValueError(msg)
    return span
