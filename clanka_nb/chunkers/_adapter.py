"""What a chunker is here: a callable `(path, text) -> spans` with a label, and a user's callable made into one."""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, SupportsIndex, runtime_checkable

from ..engine.settings import checked_keywords
from ._guard import FILE_SECONDS, TOTAL_SECONDS, ChunkerAnswerError, InputLimits, check_seconds
from ._spans import Span, place_texts, warn_unplaced

# What a chunker gives for one file: its spans, or None when it does not handle the file at all (no grammar
# for the language, or it refuses the text) so that a comparison can tell "not handled" from "no chunks".
Result = Sequence[Span] | None


@runtime_checkable
class Chunker(Protocol):
    """A chunker: a label, and a call from a file's path and text (LF newlines) to the spans of its chunks."""

    @property
    def label(self) -> str: ...

    def __call__(self, path: str, text: str) -> Result: ...


@dataclass(frozen=True)
class Adapter:
    """A chunker made of a function, with its label and the parameters it runs with (stated, for tables).

    `texts`, where the chunker has texts of its own (the peers), gives them for one file as it made them
    (None: not handled), so that what a span covers can be checked against what the chunker cut.
    `file_seconds` is its time limit per file, `total_seconds` its time budget over all the files of one run and
    `limits` the bounds of the input it is given (None: any), all applied by `chunk_with` and the sweep
    (`_guard.py`): a file past them is cut into clanka's line windows. `isolated`, for a peer, builds the same
    adapter again in a process of its own, where it runs, killed at its time limit (`_process.py`).
    `in_mode`, for a chunker that takes the language mode of the source it runs on (clanka's, given no
    `languages=`), makes it again in a mode: the sweep passes its codebase's, so the row is the engine's row.
    `windows` says its chunks without a type are clanka's line windows (the engine's own adapters); a view names
    a peer's untyped chunks by its label instead.

    Args:
        label: The chunker's name in tables.
        split: The function `(path, text)` -> the chunks' spans (None: the file is not handled).
        parameters: The parameters it runs with, stated for tables.
        texts: `(path, text)` -> the chunk texts it made, to check what a span covers; None for a chunker with none.
        file_seconds: Its time limit per file; past it, the file is cut into clanka's line windows.
        limits: The bounds of the input it is given; None: any.
        in_mode: For a chunker that takes the source's language mode: the adapter for a mode; None otherwise.
        windows: Whether its chunks without a type are clanka's line windows (the engine's own adapters).
        total_seconds: Its time budget over all the files of one run; the files left once it is spent are cut into
            clanka's line windows.
        isolated: For a peer: a picklable call that builds this adapter again, in the process it runs in; None: it
            runs in the caller's process.
    """

    label: str
    split: Callable[[str, str], Result] = field(repr=False)
    parameters: Mapping[str, Any] = field(default_factory=dict)
    texts: Callable[[str, str], list[str] | None] | None = field(default=None, repr=False)
    file_seconds: float = FILE_SECONDS
    limits: InputLimits | None = None
    in_mode: Callable[[str], Adapter] | None = field(default=None, repr=False)
    windows: bool = field(default=False, repr=False)
    total_seconds: float = TOTAL_SECONDS
    isolated: Callable[[], Adapter] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        for name in ("file_seconds", "total_seconds"):
            object.__setattr__(self, name, check_seconds(name, getattr(self, name)))

    def __call__(self, path: str, text: str) -> Result:
        return self.split(path, text)


@checked_keywords
def as_chunker(chunker: object, label: str | None = None, *, file_seconds: float | None = None,
               total_seconds: float | None = None) -> Chunker:  # fmt: skip
    """A `Chunker` from what a user passes: one already (kept, relabelled when `label` is given), or any callable
    `(path, text)` returning, per chunk, a `Span`, an object with `start_line` and `end_line` (a `CodeChunk`), a
    `(start_line, end_line)` pair, or the chunk's text (placed on the file's lines, in order); or None.
    `file_seconds`: its time limit per file (None: the adapter's own, else `FILE_SECONDS`, 10 s); `total_seconds`:
    its time budget over all the files of one run (None: the adapter's own, else `TOTAL_SECONDS`, 600 s).

    Args:
        chunker: A `Chunker`, or a callable `(path, text)` returning spans, `(start_line, end_line)` pairs or texts.
        label: Its label; None: its own (a function's name).
        file_seconds: Its time limit per file; None: the adapter's own, else `FILE_SECONDS`.
        total_seconds: Its time budget over all the files of one run; None: the adapter's own, else `TOTAL_SECONDS`.

    Returns:
        The chunker.

    Raises:
        TypeError: `chunker` is neither a chunker nor callable.

    Examples:
        >>> chunkers.as_chunker(lambda path, text: [(1, 10)], label="first ten lines")
    """
    if not callable(chunker):
        msg = f"a chunker is a callable (path, text) -> spans, got {type(chunker).__name__} {chunker!r}"
        raise TypeError(msg)
    if isinstance(chunker, Adapter):  # this package's own: its answers are spans already
        changes: dict[str, Any] = {} if label is None else {"label": label}
        limits = {"file_seconds": file_seconds, "total_seconds": total_seconds}
        changes.update((name, value) for name, value in limits.items() if value is not None)
        return dataclasses.replace(chunker, **changes) if changes else chunker
    own = getattr(chunker, "label", None)
    fallback = str(getattr(chunker, "__name__", type(chunker).__name__))
    name = label or (own if isinstance(own, str) else None) or fallback
    parameters = getattr(chunker, "parameters", None)
    parameters = dict(parameters) if isinstance(parameters, Mapping) else {}

    def split(path: str, text: str) -> Result:
        return spans_from(name, path, text, chunker(path, text))

    return Adapter(name, split, parameters, file_seconds=FILE_SECONDS if file_seconds is None else file_seconds,
                   total_seconds=TOTAL_SECONDS if total_seconds is None else total_seconds)


def spans_from(label: str, path: str, text: str, given: object) -> Result:
    """A user chunker's answer for one file as spans, each checked to lie inside the file."""
    if given is None:
        return None
    if isinstance(given, str | bytes | Mapping) or not isinstance(given, Iterable):
        # A dict iterates over its keys and a string over its letters: neither is a list of chunks.
        msg = f"chunker {label!r} gave {type(given).__name__} for {path!r}; give a list of spans, texts or None"
        raise ChunkerAnswerError(msg)
    given = list(given)
    count = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    texts = [piece for piece in given if isinstance(piece, str)]
    if texts:
        if len(texts) != len(given):
            msg = f"chunker {label!r} gave {path!r} a mix of texts and spans; give one or the other"
            raise ChunkerAnswerError(msg)
        placed = place_texts(text, texts)
        warn_unplaced(label, path, placed.unplaced, len(texts))
        return placed.spans
    return [_span(label, path, piece, count) for piece in given]


def _span(label: str, path: str, piece: object, count: int) -> Span:
    if isinstance(piece, Span):
        bounds: tuple[object, object] = (piece.start_line, piece.end_line)
        rest = (piece.name, piece.type, piece.parent)
    elif hasattr(piece, "start_line") and hasattr(piece, "end_line"):
        bounds = (piece.start_line, piece.end_line)
        rest = (getattr(piece, "name", None), getattr(piece, "type", None), getattr(piece, "parent", None))
    elif isinstance(piece, tuple) and len(piece) == 2:
        bounds, rest = (piece[0], piece[1]), (None, None, None)
    else:
        msg = (
            f"chunker {label!r} gave {piece!r:.80} for {path!r}: a chunk is a Span, an object with start_line and "
            "end_line, a (start_line, end_line) pair or the chunk's text"
        )
        raise ChunkerAnswerError(msg)
    start, end = (_line_number(label, path, value) for value in bounds)
    if not 1 <= start <= end <= max(count, 1):
        msg = f"chunker {label!r} gave lines {start}..{end} for {path!r}, which has {count} lines (1-based, inclusive)"
        raise ChunkerAnswerError(msg)
    return Span(start, end, *rest)


def _line_number(label: str, path: str, value: object) -> int:
    """A line number as a whole number: an int or a numpy integer; never a bool, a float or a numeric string."""
    if isinstance(value, SupportsIndex) and not isinstance(value, bool):
        return operator.index(value)
    msg = (f"chunker {label!r} gave the line number {value!r:.40} ({type(value).__name__}) for {path!r}; "
           "line numbers are whole numbers (int), 1-based")  # fmt: skip
    raise ChunkerAnswerError(msg)
