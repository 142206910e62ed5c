"""One file's text to chunks: declaration ranges split by the settings, or sliding line windows."""

from __future__ import annotations

import functools
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from itertools import accumulate, groupby, starmap
from operator import itemgetter
from typing import Any, NamedTuple

from ._cache import ParseCache, entry_key
from ._collation import collation_key
from ._declarations import Declaration, parent_label
from ._files import extension, looks_minified
from ._languages import find_declarations, grammar_for
from ._reading import FileStatus
from ._text import is_blank, js_length, meaningful_match, normalize_newlines, normalize_path
from .settings import ChunkSettings


class CodeChunk(NamedTuple):
    """One chunk as the reference emits it. Lines are 1-based and inclusive; None where it has undefined.

    A named tuple, immutable as a frozen dataclass: a codebase makes tens of thousands at once, and a
    tuple of strings and numbers is made at a third of the cost, and left alone by Python's cycle
    collector once it has seen it.

    Attributes:
        path: The file's path, relative to the root, with forward slashes.
        start_line: The chunk's first line (1-based).
        end_line: Its last line (inclusive).
        name: The declaration's name; None for a line window or an unnamed range.
        type: The declaration's kind ("function", "class"...); None for a line window.
        parent: The name of the declaration holding it (a method's class); None when none does.
        content: The chunk's text, its lines joined with LF.
    """

    path: str
    start_line: int
    end_line: int
    name: str | None
    type: str | None
    parent: str | None
    content: str


# A CodeChunk from a tuple of its fields, without the Python call `CodeChunk(...)` is (see `declaration_of`).
chunk_of = functools.partial(tuple.__new__, CodeChunk)


class PreparedText:
    """What chunking needs of one file, computed once: lines, prefix sums of lengths and meaning.

    Everything here is independent of the chunk settings, so re-chunking at new settings only
    does arithmetic on these arrays and joins lines.

    Args:
        path: The file's path, relative to the root.
        lines: The file's lines, as the reference splits them.
        grammar: The tree-sitter grammar that parsed it; None for a file chunked in line windows.
        decls: The declaration ranges the parse gave.
        status: Why the file gives chunks or none.
        meaningful: Whether the file has a meaningful line; None: computed from `lines`.
        mode: The language mode it was parsed in ("clanka" or "extended"): in extended mode a declaration's
            head chunk always reaches its own first line (`head_start`).
    """

    __slots__ = (
        "_char_ends", "_meaningful_before", "_plan", "declarations", "grammar", "lines", "mode", "path", "status",
    )  # fmt: skip

    def __init__(
        self,
        path: str,
        lines: list[str],
        grammar: str | None,
        decls: list[Declaration],
        status: FileStatus = FileStatus.CHUNKED,
        *,
        meaningful: bool | None = None,
        mode: str = "clanka",
    ):
        self.path = path
        self.mode = mode
        self.lines = lines
        self.grammar = grammar
        self.declarations = decls
        # The prefix sums are made on first use: at the default settings declaration chunks need neither
        # (no character limit; a declaration's first line is checked alone), and they were a tenth of a
        # cold open. `meaningful`, when the caller knows it, is whether any line is meaningful.
        self._char_ends: list[int] | None = None
        self._meaningful_before: list[int] | None = None
        if meaningful is None:
            meaningful = any(map(meaningful_match, lines))
        if status is FileStatus.CHUNKED and not meaningful:
            status = FileStatus.NOTHING_MEANINGFUL
        self.status = status
        self._plan: list[Range] | None = None

    def plan(self) -> list[Range]:
        """Clamped declaration ranges with their truncation flags (computed on first use)."""
        if self._plan is None:
            self._plan = plan_ranges(self)
        return self._plan

    def chunks(self, settings: ChunkSettings) -> list[CodeChunk]:
        """This file's chunks at already-built settings (none unless its status is `chunked`)."""
        return chunks_of(self, settings)

    def chunking(self, settings: ChunkSettings) -> FileChunking:
        """Which chunker the engine uses for this file at these settings, and its chunks' lines (no text)."""
        return chunking_of(self, settings)

    def chunked(self, settings: ChunkSettings) -> tuple[list[CodeChunk], FileChunking]:
        """This file's chunks and the engine's record of how it made them, from one pass."""
        return chunked(self, settings)

    def __getstate__(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        for name, value in zip(self.__slots__, state, strict=True):
            setattr(self, name, value)

    @property
    def length_prefix(self) -> list[int]:
        """`length_prefix[i]`: JS length of the first i lines with one LF after each (read-only)."""
        if self._char_ends is None:
            lines = self.lines
            lengths = map(len if all(map(str.isascii, lines)) else js_length, lines)
            # map() and accumulate keep the loop in C.
            self._char_ends = [0, *accumulate(map((1).__add__, lengths))]
        return self._char_ends

    @property
    def meaningful_prefix(self) -> list[int]:
        """`meaningful_prefix[i]`: how many of the first i lines are meaningful (read-only)."""
        if self._meaningful_before is None:
            self._meaningful_before = [0, *accumulate(map(bool, map(meaningful_match, self.lines)))]
        return self._meaningful_before

    @property
    def meaningful_lines(self) -> int:
        return self.meaningful_prefix[-1]

    @property
    def line_count(self) -> int:
        return len(self.lines)

    def is_meaningful(self, line: int) -> bool:
        """Whether 1-based `line` is meaningful."""
        before = self.meaningful_prefix
        return before[line] != before[line - 1]

    def any_meaningful(self, start: int, end: int) -> bool:
        """Whether one of lines start..end is meaningful, looking from the first (usually meaningful) line on."""
        if self._meaningful_before is not None:
            return self._meaningful_before[end] != self._meaningful_before[start - 1]
        # A slice, not islice: islice walks the list from its start to reach `start`.
        return any(map(meaningful_match, self.lines[start - 1 : end]))

    def length(self, start: int, end: int) -> int:
        """JS length of lines start..end joined with LF."""
        char_ends = self.length_prefix
        return char_ends[end] - char_ends[start - 1] - 1

    def segment_end(self, start: int, cap: int, limit: int | None) -> int:
        """`cap`, pulled back one line at a time while after `start` and longer than `limit`.

        Length grows with the end, so a bisection finds the same line as the reference's loop.
        """
        if limit is None or self.length(start, cap) <= limit:
            return cap
        # Largest end in [start, cap] with _char_ends[end] <= limit + 1 + _char_ends[start - 1].
        char_ends = self.length_prefix
        end = bisect_right(char_ends, limit + 1 + char_ends[start - 1], start, cap + 1) - 1
        return max(start, end)

    def content(self, start: int, end: int) -> str:
        return "\n".join(self.lines[start - 1 : end])


class Front(NamedTuple):
    """Steps 1-2 of the reference on one file, before any parse: its path, normalised text and lines."""

    path: str
    text: str
    lines: list[str]
    status: FileStatus  # CHUNKED (to parse or window), EMPTY or MINIFIED (then no lines)


def front(path: str, content: str) -> Front:
    """A file's path with `/`, its text with LF newlines split into lines once, or why it gives no chunks."""
    path = normalize_path(path)
    if is_blank(content):
        return Front(path, "", [], FileStatus.EMPTY)
    text = normalize_newlines(content)
    lines = text.split("\n")
    if looks_minified(text, lines):
        return Front(path, "", [], FileStatus.MINIFIED)
    if lines[-1] == "":
        lines.pop()
    return Front(path, text, lines, FileStatus.CHUNKED)


def prepared(file: Front, grammar: str | None, decls: list[Declaration], languages: str = "clanka") -> PreparedText:
    """The PreparedText of a file's front and its parse (or none), in the language mode it was parsed in."""
    if file.status is not FileStatus.CHUNKED:
        return PreparedText(file.path, [], None, [], file.status)
    meaningful = meaningful_match(file.text) is not None
    return PreparedText(file.path, file.lines, grammar, decls, meaningful=meaningful, mode=languages)


def parse(file: Front, languages: str) -> tuple[str | None, list[Declaration]]:
    """The grammar a file's front is parsed with (None: not parsed) and its declaration ranges."""
    if file.status is not FileStatus.CHUNKED:
        return None, []
    return find_declarations(file.path, file.text, file.lines, languages)


def prepare(path: str, content: str, languages: str = "clanka", cache: ParseCache | None = None) -> PreparedText:
    """Steps 1-2 of the reference and the parse: everything that does not depend on the settings.

    With a `cache`, a text parsed before (in any session) is not parsed again.
    """
    file = front(path, content)
    if file.status is not FileStatus.CHUNKED:
        return prepared(file, None, [])
    key = None if cache is None else cache_key(file, languages)
    if cache is None or key is None:
        return prepared(file, *parse(file, languages), languages)
    found = cache.get(key)
    if found is not None:
        return prepared(file, *found, languages)
    grammar, declarations = parse(file, languages)
    if grammar is not None:
        cache.put(key, grammar, declarations)
    return prepared(file, grammar, declarations, languages)


def cache_key(file: Front, languages: str) -> bytes | None:
    """The parse cache's key for a file that is parsed (None: no grammar, or nothing to parse)."""
    if file.status is not FileStatus.CHUNKED or grammar_for(file.path, languages) is None:
        return None
    return entry_key(file.text, extension(file.path), languages)


def _segments(text: PreparedText, start: int, end: int, settings: ChunkSettings) -> list[tuple[int, int]]:
    """The splitting rule: a declaration range in pieces of at most `chunk_size` lines (and, with a limit, at most
    `chunk_max_characters`), each starting `chunk_size - chunk_overlap` lines after the one before (with a limit:
    `chunk_overlap` lines before the previous piece's end, and at least one line on), the last ending at `end`.

    Its numpy twin for settings without a character limit is `frames._segments.SegmentPlan.spans`
    (every file's ranges at once); `tests/frames/test_frame_segments.py` pins the two to each other.
    """
    size, overlap, limit = settings.effective_size, settings.effective_overlap, settings.effective_max_characters
    if end - start + 1 <= size and (limit is None or text.length(start, end) <= limit):
        return [(start, end)]
    if limit is None:
        # Without a character limit every piece but the last is `size` lines and the next starts
        # `size - overlap` later (overlap is at most size - 1), so the loop below is a range.
        step = size - overlap
        pieces = -(-(end - size + 1 - start) // step)  # ceil: pieces before the one reaching `end`
        return [(s, min(end, s + size - 1)) for s in range(start, start + pieces * step + 1, step)]
    out = []
    while True:
        stop = text.segment_end(start, min(end, start + size - 1), limit)
        out.append((start, stop))
        if stop >= end:
            return out
        start = max(start + 1, stop - overlap + 1)


def head_start(text: PreparedText, start: int, end: int, own: int, settings: ChunkSettings) -> int:
    """Extended mode's head rule: where the pieces of a declaration range start so that the first reaches the
    declaration's own first line `own` (its signature), when its leading comments would fill that piece.

    Then the pieces start half a chunk above `own` (at `own` itself where long comment lines would still end the
    first piece before it under a character limit): the head chunk holds the end of the comment and the
    signature, and the comment lines above it fall in no chunk (`explain` names them). clanka mode never
    moves a range: the reference keeps the comment pieces. Its numpy twin is in `frames._segments.SegmentPlan`.
    """
    size, limit = settings.effective_size, settings.effective_max_characters
    if start + size - 1 >= own and (limit is None or text.segment_end(start, min(end, start + size - 1), limit) >= own):
        return start
    moved = max(start, own - size // 2)
    if limit is not None and text.segment_end(moved, min(end, moved + size - 1), limit) < own:
        return own
    return moved


_lines_of = itemgetter(0, 1)


def in_reference_order(segments: list[Any]) -> list[Any]:
    """Segments (or `Cut`s: start, end, declaration, ...) sorted as the reference sorts its chunks: by start,
    end, then name under ICU collation, keeping their order where all three tie."""
    segments.sort(key=_lines_of)
    out = []
    for _, group in groupby(segments, key=_lines_of):
        tied = list(group)
        if len(tied) > 1:
            tied.sort(key=lambda segment: collation_key(segment[2].name or ""))
        out.extend(tied)
    return out


class Range(NamedTuple):
    """A declaration clamped into the file, and whether a split cuts it to its first segment."""

    start: int
    end: int
    declaration: Declaration
    first_segment_only: bool


def plan_ranges(text: PreparedText) -> list[Range]:
    """The settings-independent part of declaration chunking, worked out once per file."""
    count = text.line_count
    decls = text.declarations
    methods: dict[str | None, list[tuple[int, int]]] = {}
    for d in decls:
        # Only ranges typed "method" count: a bodiless signature (type None) does not truncate,
        # which is what the reference's output shows although SPEC.md says "method range".
        if d[3] == "method":  # d.type (by index: this loop runs for every declaration of a codebase)
            methods.setdefault(d[4], []).append((d[0], d[1]))
    # A class truncates when one of its methods lies within it: some method starting at or after the
    # class's start ends by its end. Per parent, methods by start with the least end from each one on
    # answer that with one bisection (thousands of same-named classes made a scan quadratic).
    inside: dict[str | None, tuple[list[int], list[int]]] = {}
    for parent, spans in methods.items():
        spans.sort()
        least_ends = list(accumulate(reversed([end for _, end in spans]), min))[::-1]
        inside[parent] = ([start for start, _ in spans], least_ends)
    plan = []
    new = tuple.__new__
    for d in decls:
        start, end = d[0], d[1]
        if start < 1 or end > count or end < start:  # rare: a range reaching past the file, or reversed
            start, end = max(1, min(count, start)), max(1, min(count, end))
            if end < start:
                continue
        truncates = False
        if inside and d[3] == "class":
            starts, least_ends = inside.get(parent_label("class", d.name), ([], []))
            first = bisect_left(starts, d.start_line)
            truncates = first < len(starts) and least_ends[first] <= d.end_line
        plan.append(new(Range, (start, end, d, truncates)))
    return plan


class Cut(NamedTuple):
    """How one declaration chunk came about, recorded only when `explain` asks (see `_explain`)."""

    start: int
    end: int
    declaration: Declaration
    range_start: int  # the declaration's clamped range
    range_end: int
    piece: int  # 1-based, among the pieces the range was split into
    pieces: int
    head_only: bool  # a class split in pieces and cut to its first, as its methods are chunks


def _chunk_key(start: int, end: int, d: Declaration) -> tuple[int, int, str | None, str | None, str | None]:
    """What makes two declaration chunks the same chunk (the reference keeps the first of them)."""
    return (start, end, d.name, d.type, d.parent)


def declaration_segments(
    text: PreparedText, settings: ChunkSettings, record: list[Cut] | None = None
) -> list[tuple[int, int, Declaration]]:
    """The (start, end, declaration) of every declaration chunk in the reference's order (`in_reference_order`):
    split, truncated, deduplicated and stripped of segments with no meaningful line, as the reference does.
    With `record`, how each chunk came about is appended to it too (in the order they were cut)."""
    size, limit = settings.effective_size, settings.effective_max_characters
    # Prefix sums read directly: this loop runs once per declaration and setting in a sweep. Without a
    # character limit the lengths are not needed at all.
    char_ends = text.length_prefix if limit is not None else []
    any_meaningful = text.any_meaningful
    lines = text.lines
    extended = text.mode == "extended"
    out: list[tuple[int, int, Declaration]] = []
    # Declarations come in the file's order, so segments nearly always do too: while each one kept lies
    # after the last (by start, then end) it cannot repeat an earlier one, and no sort is needed. Only
    # from the first that does not is every kept chunk's key remembered, to drop repeats, and the whole
    # list sorted at the end.
    last_start = last_end = 0
    emitted: set[tuple[int, int, str | None, str | None, str | None]] | None = None
    for start, end, d, truncates in text.plan():
        if end - start < size and (limit is None or char_ends[end] - char_ends[start - 1] - 1 <= limit):
            # Fits whole: the common case, without the splitting loop. Its first or second line is nearly
            # always meaningful (a name; after a "/**", the comment's words): that settles it without the
            # prefix sums.
            if (
                meaningful_match(lines[start - 1]) is None
                and (start == end or meaningful_match(lines[start]) is None)
                and not any_meaningful(start, end)
            ):
                continue
            segments: list[tuple[int, int]] | tuple[tuple[int, int]] = ((start, end),)
            pieces, checked = 1, True
        else:
            if extended and d[5] is not None and d[5] > start:  # d.body_start
                segments = _segments(text, head_start(text, start, end, d[5], settings), end, settings)
            else:
                segments = _segments(text, start, end, settings)
            pieces, checked = len(segments), False
            if truncates:
                segments = segments[:1]
        for piece, (s, e) in enumerate(segments, 1):
            if not checked and meaningful_match(lines[s - 1]) is None and not any_meaningful(s, e):
                continue
            if s > last_start or (s == last_start and e > last_end):
                last_start, last_end = s, e
                if emitted is not None:
                    emitted.add(_chunk_key(s, e, d))
            else:
                if emitted is None:
                    emitted = set(starmap(_chunk_key, out))
                key = _chunk_key(s, e, d)
                if key in emitted:
                    continue
                emitted.add(key)
            out.append((s, e, d))
            if record is not None:
                record.append(Cut(s, e, d, start, end, piece, pieces, truncates and pieces > 1))
    return out if emitted is None else in_reference_order(out)


def window_segments(text: PreparedText, settings: ChunkSettings) -> list[tuple[int, int]]:
    """(start, end) of the sliding line windows, which start at meaningful lines."""
    count, size, overlap = text.line_count, settings.effective_size, settings.effective_overlap
    out: list[tuple[int, int]] = []
    start = 1
    while start <= count:
        if not text.is_meaningful(start):
            start += 1
            continue
        end = text.segment_end(start, min(count, start + size - 1), settings.effective_max_characters)
        out.append((start, end))
        if end >= count:
            break
        start = max(start + 1, end - overlap + 1)
    return out


# What made a file's chunks: its declaration ranges, or sliding line windows.
CHUNKERS = ("ast", "window")


@dataclass(frozen=True, slots=True)
class FileChunking:
    """How the engine chunked one file at one setting: which chunker it used and where the chunks are.

    `chunker` is "ast" when the file's declaration ranges gave chunks (also an unnamed range kept
    for a syntax error in extended mode), "window" when it fell back to line windows, and None when
    the file gives no chunks, `status` saying why. `spans` are the chunks' (start_line, end_line),
    in the chunks' order when made with them (`chunked`), else in no particular order.

    Attributes:
        path: The file's path, relative to the root.
        status: Why the file gives chunks or none.
        chunker: "ast", "window", or None when the file gives no chunks.
        spans: The chunks' (start_line, end_line).
    """

    path: str
    status: FileStatus
    chunker: str | None
    spans: tuple[tuple[int, int], ...]

    @classmethod
    def unread(cls, path: str, status: FileStatus) -> FileChunking:
        """The record of a file that was never prepared (unreadable, not indexed): no chunker, no spans."""
        return cls(path, status, None, ())


class Segments(NamedTuple):
    """A file's cut as the engine chose it: `chunker` "ast" with `declared` (start, end, declaration),
    "window" with `windows` (start, end), or None (the file is not chunked) with neither."""

    chunker: str | None
    declared: list[tuple[int, int, Declaration]]
    windows: list[tuple[int, int]]


def chosen_segments(text: PreparedText, settings: ChunkSettings, record: list[Cut] | None = None) -> Segments:
    """The one place that decides a file's chunker: declaration segments when there are any, else windows.

    `record` is passed to `declaration_segments`.
    """
    if text.status is not FileStatus.CHUNKED:
        return Segments(None, [], [])
    if text.declarations:
        segments = declaration_segments(text, settings, record)
        if segments:
            return Segments("ast", segments, [])
    return Segments("window", [], window_segments(text, settings))


def _chunks(text: PreparedText, chosen: Segments) -> list[CodeChunk]:
    path, lines = text.path, text.lines
    join = "\n".join
    if chosen.chunker == "ast":
        return [chunk_of((path, s, e, d.name, d.type, d.parent, join(lines[s - 1 : e]))) for s, e, d in chosen.declared]
    return [chunk_of((path, s, e, None, None, None, join(lines[s - 1 : e]))) for s, e in chosen.windows]


def chunked(text: PreparedText, settings: ChunkSettings) -> tuple[list[CodeChunk], FileChunking]:
    """The file's chunks (as `chunks_of` gives them) and the engine's record of how it made them."""
    chosen = chosen_segments(text, settings)
    chunks = _chunks(text, chosen)
    return chunks, FileChunking(
        text.path, text.status, chosen.chunker, tuple((c.start_line, c.end_line) for c in chunks)
    )


def chunks_of(text: PreparedText, settings: ChunkSettings) -> list[CodeChunk]:
    """Declaration chunks when there are any, else line windows."""
    return _chunks(text, chosen_segments(text, settings))


class ChunkHead(NamedTuple):
    """A chunk without its text: what `chunks_of` gives, less `content` (no lines are joined)."""

    path: str
    start_line: int
    end_line: int
    name: str | None
    type: str | None
    parent: str | None


def heads_of(text: PreparedText, settings: ChunkSettings) -> list[ChunkHead]:
    """`chunks_of`'s chunks, in its order, without their content: for indexes that read the lines themselves."""
    chosen = chosen_segments(text, settings)
    path = text.path
    if chosen.chunker == "ast":
        return [ChunkHead(path, s, e, d.name, d.type, d.parent) for s, e, d in chosen.declared]
    return [ChunkHead(path, s, e, None, None, None) for s, e in chosen.windows]


def chunking_of(text: PreparedText, settings: ChunkSettings) -> FileChunking:
    """The engine's record of how it chunks the file, spans in no particular order: no content is joined and
    no chunk object made, as statistics over many settings need only where chunks start and end."""
    chosen = chosen_segments(text, settings)
    # Declaration segments carry their declaration; windows are already (start, end).
    spans = tuple([(s, e) for s, e, _ in chosen.declared]) if chosen.chunker == "ast" else tuple(chosen.windows)
    return FileChunking(text.path, text.status, chosen.chunker, spans)
