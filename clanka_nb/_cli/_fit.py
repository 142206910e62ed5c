"""A table printed to the terminal fits `TABLE_WIDTH` columns: long text cut, the columns that matter least left out.

The order of work:

1. the essential columns, their text cut to `_TEXT_ROOM` and then, only while they do not fit, down to
   `_NARROWEST_TEXT` (a path keeps its end, where the file's name is; other text its start); when even that is
   too wide, the last essential columns go, down to one;
2. the other columns, most important first, each where it fits (text narrowed to the room left);
3. the room left goes back to the cut text columns, in the frame's order.

A footer line names what was left out and how to get every column (`-o` with a data format). Files written
with `-o` are not fitted: they have every column, whole. Widths are terminal cells, not characters (`cells`): a
CJK or emoji path takes two cells a character, a combining accent none.
"""

from __future__ import annotations

import functools
import textwrap
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from ._terminal import visible

TABLE_WIDTH = 100
_GAP = "  "
_WIDEST_CELL = 60  # any table, fitted or not: a cell is a glance, the files hold the whole text
_TEXT_ROOM = 40
_NARROWEST_TEXT = 12
# Columns whose values are paths: cut at the start, so the file's own name stays.
_PATH_COLUMNS = frozenset({"path", "root", "file", "old_path", "new_path"})


@dataclass(eq=False)  # compared by identity: two columns may hold the same cells
class _Column:
    name: str
    cells: list[str]  # escaped, on one line, whole: cut only when rendered
    numeric: bool
    room: int  # the width the column is shown at

    @property
    def text(self) -> bool:
        return not self.numeric

    def needed(self) -> int:
        return max(cells(self.name), *(cells(cell) for cell in self.cells))

    def rendered(self) -> list[str]:
        shown = [_cut(cell, self.room, at_start=self.name in _PATH_COLUMNS) for cell in self.cells]
        return [_pad(text, self.room, right=self.numeric) for text in (self.name, *shown)]


def cells(text: str) -> int:
    """The terminal cells `text` takes: 2 for an East Asian wide or fullwidth character (CJK, most emoji), 0 for a
    combining mark or an invisible format character (a zero-width joiner, a variation selector), else 1."""
    return len(text) if text.isascii() else sum(map(_character_cells, text))


@functools.lru_cache(maxsize=4096)
def _character_cells(character: str) -> int:
    if unicodedata.combining(character) or unicodedata.category(character) in {"Mn", "Me", "Cf"}:
        return 0
    return 2 if unicodedata.east_asian_width(character) in {"W", "F"} else 1


def _pad(text: str, room: int, *, right: bool) -> str:
    """`text` padded with spaces to `room` cells (numbers to the right, text to the left)."""
    spaces = " " * max(0, room - cells(text))
    return spaces + text if right else text + spaces


def render(
    frame: pd.DataFrame, *, width: int | None = None, essential: Sequence[str] = (), priority: Sequence[str] = ()
) -> str:
    """`frame` as columns padded to their widest cell (text left, numbers right), within `width` when given.

    `essential` names the columns left out last, `priority` orders the others, most important first (columns
    it does not name come after, in the frame's order). The shown columns keep the frame's order.
    """
    if frame.empty:
        return "(no rows)\n"
    columns = [_column(str(name), frame[name]) for name in frame.columns]
    left_out = [] if width is None else _fit(columns, width, essential, priority)
    shown = [column for column in columns if column.name not in left_out]
    lines = ["  ".join(row).rstrip() for row in zip(*(column.rendered() for column in shown), strict=True)]
    if left_out:
        footer = (f"(left out to fit {width} columns: {', '.join(left_out)}; "
                  "-o FILE.csv, .jsonl or .parquet writes every column)")  # fmt: skip
        # After a blank line, so that a reader of the rows stops at the first empty line.
        lines += ["", *textwrap.wrap(footer, width=width or TABLE_WIDTH, break_on_hyphens=False)]
    return "".join(line + "\n" for line in lines)


def _column(name: str, values: pd.Series) -> _Column:
    texts = ["" if _missing(value) else _one_line(_cell(value)) for value in values]
    column = _Column(name, texts, numeric=values.dtype.kind in "iuf", room=0)
    column.room = column.needed() if column.numeric else min(column.needed(), max(_WIDEST_CELL, cells(name)))
    return column


def _total(columns: list[_Column]) -> int:
    return sum(column.room for column in columns) + len(_GAP) * (len(columns) - 1)


def _fit(columns: list[_Column], width: int, essential: Sequence[str], priority: Sequence[str]) -> list[str]:
    """Cut text and choose the columns left out (returned in the frame's order)."""
    by_name = {column.name: column for column in columns}
    kept = [by_name[name] for name in dict.fromkeys(essential) if name in by_name] or columns[:1]
    for column in kept:
        if column.text:
            column.room = min(column.room, max(_TEXT_ROOM, cells(column.name)))
    _narrow(kept, width, floor=_NARROWEST_TEXT)
    while _total(kept) > width and len(kept) > 1:  # not even the essential columns fit: the last go
        kept.pop()
    # The others, most important first, each where it fits (a text column narrowed to the room left).
    for name in dict.fromkeys((*priority, *by_name)):
        other = by_name.get(name)
        if other is None or other in kept:
            continue
        left = width - _total(kept) - len(_GAP)
        if other.text:
            other.room = min(other.room, _TEXT_ROOM, left)
        narrowest = min(other.needed(), max(cells(other.name), _NARROWEST_TEXT)) if other.text else other.room
        if narrowest <= other.room <= left:
            kept.append(other)
    _widen(kept, by_name, width)
    return [column.name for column in columns if column not in kept]


def _narrow(columns: list[_Column], width: int, *, floor: int) -> None:
    """Narrow the widest text column by one, again and again (never below `floor`, nor below the header), until
    the table fits: the text columns share the cut; of two as wide, the later (less important) goes first."""
    while _total(columns) > width:  # bounded: each turn narrows a column, which stops at its floor
        narrowable = [column for column in columns if column.text and column.room > max(floor, cells(column.name))]
        if not narrowable:
            return
        widest = max(reversed(narrowable), key=lambda column: column.room)
        widest.room -= 1


def _widen(kept: list[_Column], by_name: dict[str, _Column], width: int) -> None:
    """Give the room left to the cut text columns, most important first, up to the whole cell (or 60)."""
    for column in sorted(kept, key=list(by_name.values()).index):
        left = width - _total(kept)
        if left <= 0:
            return
        if column.text:
            column.room = min(column.needed(), _WIDEST_CELL, column.room + left)


def _cut(text: str, room: int, *, at_start: bool) -> str:
    """`text` within `room` cells: cut with "…" at its start (a path keeps its end) or at its end; a wide
    character that would straddle the edge goes whole, so the cut may be a cell short."""
    if cells(text) <= room:
        return text
    kept, used = [], 1  # the ellipsis's cell
    for character in reversed(text) if at_start else text:
        used += _character_cells(character)
        if used > room:
            break
        kept.append(character)
    if not at_start:
        return "".join(kept) + "…"
    kept.reverse()
    while kept and not _character_cells(kept[0]):  # a mark whose base was cut off would sit on the ellipsis
        kept.pop(0)
    return "…" + "".join(kept)


def _missing(value: object) -> bool:
    return not isinstance(value, (list, tuple, dict)) and bool(pd.isna(value))


def _cell(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.4g}" if abs(value) < 1e4 else f"{value:.0f}"
    return str(value)


def _one_line(text: str) -> str:
    # Escaped before it is measured, so the columns stay aligned (the stream would escape it anyway).
    return visible(" ".join(text.split()))
