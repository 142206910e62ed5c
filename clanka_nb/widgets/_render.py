"""The boundary preview as pure HTML: numbered, highlighted lines and one gutter band per chunk (the bands come
from `_bands`, the colours from `_highlight`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

import numpy as np

from ..engine import is_meaningful_line
from ..engine.settings import checked_keywords
from ._bands import LINE_WINDOW, Band, assign_columns, coverage_counts, page_bands
from ._highlight import MAX_LINE_CHARS, SYNTAX_VARIABLES, highlight_lines
from ._style import (
    ALERT,
    FONT,
    MUTED,
    NOTICE,
    PAPER,
    RULE,
    SELECTED,
    SURFACE,
    TEXT,
    TYPE_COLOURS,
    UI_FONT,
    UNCOVERED_BLANK,
    UNCOVERED_CODE,
    UNCOVERED_ROW,
    UNTYPED_COLOUR,
    text_colour,
    type_colour,
)

# Lines lexed above a page at most, for colours that span lines (a block comment opened further up is not seen).
LEX_CONTEXT = 1000
# A page of the preview, more than its scroll box shows at once: what a notebook saves of a view, twice (the still
# picture and the widget's state), so seven viewer cells on files of 2,000 lines stay under 1 MB; the whole file
# goes to the exported page (`save`).
MAX_LINES = 80
# What a notebook's still picture of a widget (`_repr_html_`: nbviewer, GitHub) holds of its file: about what its
# scroll box shows at once, from the line the widget shows first.
STILL_LINES = 40
BAND_WIDTH = 15  # px: wide enough for a rotated 10px label
# The preview widget's page buttons; its notices name them instead of the `start=` argument.
EARLIER_LINES = "◀ earlier lines"
LATER_LINES = "later lines ▶"


@dataclass(frozen=True)
class PageTurns:
    """What the notices of a long file say to turn the page: `next` and `more` may name `{start}`, the first line
    of the next page; an empty text leaves that hint out (a view that cannot turn pages names only its lines)."""

    next: str
    previous: str
    more: str


# By the `start=` argument (a still picture); by the preview widget's page buttons; not at all.
BY_ARGUMENT = PageTurns("pass start={start} for the next page", "start=1 for the top", "; pass start={start} for more")
BY_BUTTONS = PageTurns(
    f"“{LATER_LINES}” shows the next page", f"“{EARLIER_LINES}” the previous one", f"; “{LATER_LINES}” shows more"
)
NO_TURNS = PageTurns("", "", "")

# Every cell states its alignment, padding, border and line height: notebook front ends style bare
# tables (JupyterLab right-aligns cells, pads them and stripes rows), and only inline styles win.
_CELL = "border:none;vertical-align:top;line-height:18px"
# A row's two colours are variables of the preview's root (`_ROW_COLOURS`), named in each row's cells: a page
# of lines repeats them in every row, and a saved notebook holds every byte of its pages.
_ROW_COLOURS = f"--cn-text:{TEXT};--cn-muted:{MUTED}"
_NUMBER = f"{_CELL};color:var(--cn-muted);text-align:right;padding:0 6px 0 8px;user-select:none"
_MARK = "border:none;padding:0;width:4px;min-width:4px;"
_GAP = "border:none;padding:0"
_CODE = f"{_CELL};color:var(--cn-text);white-space:pre;text-align:left;padding:0 8px"
_TABLE = (
    f"{FONT};border-collapse:separate;border-spacing:0;table-layout:auto;width:auto;border:none;"
    f"margin:4px 0;background:{PAPER}"
)


def _legend(
    present: set[str | None], uncovered_code: int, uncovered_blank: int, full: bool, untyped: str = LINE_WINDOW
) -> str:
    """Swatches of what the view shows, its chunk types `present` (of everything it can show when `full`); chunks
    with no type are `untyped` (clanka's line windows, or a peer chunker's own chunks)."""
    items = [
        (f"background:{colour}", chunk_type)
        for chunk_type, colour in TYPE_COLOURS.items()
        if full or chunk_type in present
    ]
    if full or None in present or any(t not in TYPE_COLOURS for t in present if t):
        items.append((f"background:{UNTYPED_COLOUR}", f"no type ({untyped})"))
    if full or uncovered_code:
        items.append((f"background:{UNCOVERED_CODE}", "code in no chunk"))
    if full or uncovered_blank:
        items.append((f"background:{UNCOVERED_BLANK}", "blank or punctuation in no chunk"))
    swatches = "".join(
        f'<span style="margin-right:10px;white-space:nowrap"><span style="display:inline-block;width:10px;'
        f'height:10px;{style};border-radius:2px;vertical-align:-1px;margin-right:3px"></span>{escape(label)}</span>'
        for style, label in items
    )
    return f'<div data-legend="" style="padding:4px 8px;color:{MUTED}">{swatches}</div>'


def _notice(text: str) -> str:
    return f'<div data-notice="" style="padding:4px 8px;{NOTICE}">{escape(text)}</div>'


def _band_cell(band: Band, rowspan: int, selected: bool, untyped: str) -> str:
    colour = type_colour(band.type)
    outline = f"box-shadow:inset 0 0 0 2px {TEXT};" if selected else ""
    return (
        f'<td rowspan="{rowspan}" data-chunk="{band.index}" data-start="{band.start_line}" '
        f'data-end="{band.end_line}" data-type="{escape(band.type or "")}" title="{escape(band.describe(untyped))}" '
        f'style="position:relative;width:{BAND_WIDTH}px;min-width:{BAND_WIDTH}px;padding:0;'
        f'background:{colour};border:1px solid {PAPER};border-radius:4px;{outline}vertical-align:top">'
        # text-align:start keeps the label at the band's top even where the page right-aligns cells.
        f'<div style="position:absolute;top:0;bottom:0;left:0;right:0;overflow:hidden;writing-mode:vertical-rl;'
        "text-align:start;"
        f"color:{text_colour(band.type)};font-size:10px;line-height:{BAND_WIDTH - 2}px;white-space:nowrap;"
        f'padding-top:2px">{escape(band.label)}</div></td>'
    )


def check_page(start: object, max_lines: object, total: int) -> None:
    """Raise unless `max_lines` is a positive int and `start` a line number of a file of `total` lines."""
    if isinstance(max_lines, bool) or not isinstance(max_lines, int) or max_lines < 1:
        msg = f"max_lines must be a positive int, got {max_lines!r}; pass e.g. max_lines=2000"
        raise ValueError(msg)
    if isinstance(start, bool) or not isinstance(start, int) or not 1 <= start <= max(1, total):
        msg = f"start must be a line number between 1 and {max(1, total)} (the file has {total} lines), got {start!r}"
        raise ValueError(msg)


@checked_keywords
def render_preview(
    lines: Sequence[str],
    chunks: Any,
    *,
    path: str,
    language: str | None = None,
    max_lines: int = MAX_LINES,
    start: int = 1,
    selected: int | None = None,
    meaningful: Sequence[bool] | None = None,
    note: str | None = None,
    height: int | None = None,
    full_legend: bool = False,
    page_turns: PageTurns = BY_ARGUMENT,
    untyped: str = LINE_WINDOW,
) -> str:
    """HTML of `lines` with a gutter band for every chunk; inline styles only, same input -> same bytes.

    `chunks` is a chunk frame, a list of `CodeChunk`s or dicts with `start_line`/`end_line` (and
    optionally type, name, parent, characters, chunker); rows of other paths are left out.
    Lines `start` .. `start + max_lines - 1` are shown, with a notice when the file has more.
    `selected` (position in `chunks`) outlines one chunk; `meaningful` (one flag per line) defaults
    to the reference's rule; `note` is shown above the lines (e.g. why a file has no chunks);
    `height` (px) makes the lines a scroll box of at most that height, under a fixed header;
    `full_legend` lists every colour and mark, not only those shown (equal headers side by side);
    A chunk frame's language mode (`attrs["languages"]`) is named in the header: the mode is never hidden.
    `page_turns` is what the notices of a long file say to turn the page (`BY_ARGUMENT`: the `start=`
    argument, `BY_BUTTONS`, `NO_TURNS`); `untyped` names the chunks with no type (clanka's line windows by
    default; a peer chunker's own, such as "astchunk chunk", in a comparison).

    Args:
        lines: The file's lines.
        chunks: A chunk frame, a list of `CodeChunk`s, or dicts with `start_line` and `end_line`.
        path: The file's path; rows of other paths are left out.
        language: Its language, for the highlighting; None: from the path.
        max_lines: How many lines are shown.
        start: The first line shown.
        selected: The position in `chunks` of a chunk to outline; None: none.
        meaningful: One flag per line; None: the reference's rule.
        note: Shown above the lines; None: none.
        height: The px height of the scroll box holding the lines; None: as tall as the lines.
        full_legend: List every colour and mark, not only those shown.
        page_turns: What the notices of a long file say to turn the page.
        untyped: The name of chunks with no type (clanka's line windows by default).

    Returns:
        The HTML; the same input gives the same bytes.
    """
    check_page(start, max_lines, len(lines))
    total = len(lines)
    if meaningful is not None and len(meaningful) != total:
        msg = f"meaningful has {len(meaningful)} flags for {total} lines; pass one flag per line or None"
        raise ValueError(msg)
    stop = min(total, start + max_lines - 1)
    bands, firsts, lasts, types = page_bands(chunks, path, start, stop, selected)
    flags = list(meaningful) if meaningful is not None else [is_meaningful_line(line) for line in lines]
    cover = coverage_counts(total, firsts, lasts)
    bare, marked = cover == 0, np.asarray(flags, dtype=bool)
    uncovered_code, uncovered_blank = int((bare & marked).sum()), int((bare & ~marked).sum())
    shown = [b for b in bands if b.start_line <= stop and b.end_line >= start and b.start_line <= b.end_line]
    chosen = next((b for b in shown if b.index == selected), None)
    gutter = _gutter(shown, start, stop, chosen, untyped)
    code = _page_code(lines, path, language, start, stop, firsts)
    rows = _rows(lines, code, start, stop, cover, flags, chosen, gutter)
    parts = [
        _header(path, language, total, len(firsts), uncovered_code, getattr(chunks, "attrs", {}).get("languages")),
        _legend(types, uncovered_code, uncovered_blank, full_legend, untyped),
        _why(next((band for band in bands if band.index == selected), None)),
        _notice(note) if note else "",
        _page_notice(start, stop, total, max_lines, page_turns),
        _lines_box(rows, height),
        _end_notice(start, stop, total, page_turns),
        "</div>",
    ]
    return "".join(parts)


def _gutter(
    shown: list[Band], start: int, stop: int, chosen: Band | None, untyped: str
) -> list[dict[int, tuple[int, str]]]:
    """Per gutter column, the cells starting on each row of the page: a band (clipped to the page) or the gap
    before it, as (rows spanned, html)."""
    columns = assign_columns(shown)
    width = max(columns, default=-1) + 1
    starts: list[dict[int, tuple[int, str]]] = [{} for _ in range(width)]
    for band, column in zip(shown, columns, strict=True):
        first, last = max(start, band.start_line), min(stop, band.end_line)
        starts[column][first] = (last - first + 1, _band_cell(band, last - first + 1, band is chosen, untyped))
    for cells in starts:
        row = start
        for first in sorted(cells):
            if first > row:
                cells[row] = (first - row, f'<td rowspan="{first - row}" style="{_GAP}"></td>')
            row = first + cells[first][0]
        if row <= stop:
            cells[row] = (stop - row + 1, f'<td rowspan="{stop - row + 1}" style="{_GAP}"></td>')
    return starts


def _page_code(
    lines: Sequence[str], path: str, language: str | None, start: int, stop: int, firsts: np.ndarray,
) -> list[str]:
    """The highlighted HTML of lines `start` .. `stop`, one item each."""
    # Lexed from a chunk's first line shortly above the page (a declaration starts where no comment or string
    # is open), not from line 1: a page deep in a long file costs a page, not the whole file before it.
    above = firsts[(firsts <= start) & (firsts >= start - LEX_CONTEXT)]
    lex_from = int(above.max()) if len(above) else max(1, start - LEX_CONTEXT)
    return highlight_lines(lines[lex_from - 1 : stop], path, language)[start - lex_from :]


def _rows(
    lines: Sequence[str],
    code: Sequence[str],
    start: int,
    stop: int,
    cover: np.ndarray,
    flags: Sequence[bool],
    chosen: Band | None,
    gutter: list[dict[int, tuple[int, str]]],
) -> list[str]:
    """The page's table rows: number, coverage mark, gutter cells and highlighted code (`code`, from line `start`)
    of each line."""
    rows = []
    for line in range(start, stop + 1):
        covered, flag = cover[line - 1], flags[line - 1]
        mark = ""
        code_style = _CODE
        if not covered:
            mark = f"background:{UNCOVERED_CODE if flag else UNCOVERED_BLANK}"
            if flag:
                code_style += f";background:{UNCOVERED_ROW}"
        if chosen is not None and chosen.start_line <= line <= chosen.end_line:
            code_style += f";background:{SELECTED}"
        cells = "".join(column[line][1] for column in gutter if line in column)
        cut = len(lines[line - 1]) - MAX_LINE_CHARS
        more = f'<span style="color:{MUTED}"> … {cut:,} more characters</span>' if cut > 0 else ""
        uncovered = "" if covered else f' data-uncovered="{"code" if flag else "blank"}"'
        rows.append(
            f'<tr data-line="{line}"{uncovered} style="background:{PAPER}"><td style="{_NUMBER}">{line}</td>'
            f'<td style="{_MARK}{mark}"></td>{cells}<td style="{code_style}">{code[line - start]}{more}</td></tr>'
        )
    return rows


def _header(path: str, language: str | None, total: int, chunks: int, uncovered_code: int,
            mode: str | None = None) -> str:  # fmt: skip
    """The preview's opening tag and its one-line header: path, language, the language mode it was chunked in (when
    the chunks' frame says), lines, chunks, code in no chunk."""
    head = [f"<b>{escape(path)}</b>"]
    if language:
        head.append(escape(language))
    if mode:
        head.append(f"{escape(str(mode))} mode")
    head.append(f"{total:,} line{'s' * (total != 1)}")
    head.append(f"{chunks:,} chunk{'s' * (chunks != 1)}")
    if uncovered_code:
        head.append(f'<span style="color:{ALERT}">{uncovered_code:,} line(s) of code in no chunk</span>')
    return (
        f'<div data-clanka="preview" data-path="{escape(path)}" style="{UI_FONT};color:{TEXT};background:{PAPER};'
        f'border:1px solid {RULE};border-radius:6px;max-width:100%;overflow:auto;{_ROW_COLOURS};{SYNTAX_VARIABLES}">'
        # One line, cut if need be: previews shown side by side keep their rows level.
        f'<div style="padding:6px 8px;background:{SURFACE};border-bottom:1px solid {RULE};white-space:nowrap;'
        f'overflow:hidden;text-overflow:ellipsis">{" · ".join(head)}</div>'
    )


def _why(picked: Band | None) -> str:
    """The side panel of the selected chunk: why it starts and ends where it does (empty when not known)."""
    if picked is None or not picked.why:
        return ""
    return (
        f'<div data-why="" style="padding:4px 8px;border-bottom:1px solid {RULE};background:{SELECTED}">'
        f"<b>why</b> {escape(picked.why)}</div>"
    )


def _page_notice(start: int, stop: int, total: int, max_lines: int, page_turns: PageTurns) -> str:
    """Above the lines of a file longer than the page: which lines are shown, and how to turn the page."""
    if total <= stop - start + 1:
        return ""
    long = "Long file: showing" if total > max_lines else "Showing"
    hints = [page_turns.next.format(start=stop + 1)] if stop < total and page_turns.next else []
    hints += [page_turns.previous] if start > 1 and page_turns.previous else []
    turn = f"; {' or '.join(hints)}" if hints else ""
    return _notice(f"{long} lines {start:,}–{stop:,} of {total:,}{turn}.")


def _lines_box(rows: list[str], height: int | None) -> str:
    """The table of lines, in a scroll box of at most `height` px when given."""
    if not rows:
        return f'<div style="padding:6px 8px;color:{MUTED}">No lines to show.</div>'
    scroll = f"max-height:{height}px;overflow:auto" if height is not None else ""
    return f'<div data-lines="" style="{scroll}"><table style="{_TABLE}">{"".join(rows)}</table></div>'


def _end_notice(start: int, stop: int, total: int, page_turns: PageTurns) -> str:
    """Below the lines when the file goes on: where the page ends, and how to see more."""
    if stop >= total:
        return ""
    more = page_turns.more.format(start=stop + 1)
    return _notice(f"End of page: lines {start:,}–{stop:,} of {total:,}{more}.")
