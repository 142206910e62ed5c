"""The boundary preview as pure HTML: numbered, highlighted lines and one gutter band per chunk."""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

import numpy as np
import pandas as pd
from pygments.lexer import Lexer
from pygments.lexers import TextLexer, get_lexer_by_name, get_lexer_for_filename
from pygments.token import Token
from pygments.util import ClassNotFound

from ..engine import is_meaningful_line
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
    accent,
    text_colour,
    type_colour,
)

# Lines lexed above a page at most, for colours that span lines (a block comment opened further up is not seen).
LEX_CONTEXT = 1000
MAX_LINES = 2000  # a page of the preview: more rows than this makes the browser sluggish
MAX_LINE_CHARS = 1000  # longer lines are cut for display (a minified line would be one huge row)
BAND_WIDTH = 15  # px: wide enough for a rotated 10px label
# The preview widget's page buttons; its notices name them instead of the `start=` argument.
EARLIER_LINES = "◀ earlier lines"
LATER_LINES = "later lines ▶"
PAGE_HINTS = ("start", "buttons", "none")
# Every cell states its alignment, padding, border and line height: notebook front ends style bare
# tables (JupyterLab right-aligns cells, pads them and stripes rows), and only inline styles win.
_CELL = "border:none;vertical-align:top;line-height:18px"
_NUMBER = f"{_CELL};color:{MUTED};text-align:right;padding:0 6px 0 8px;user-select:none"
_MARK = "border:none;padding:0;width:4px;min-width:4px;"
_GAP = "border:none;padding:0"
_CODE = f"{_CELL};color:{TEXT};white-space:pre;text-align:left;padding:0 8px"
_TABLE = (
    f"{FONT};border-collapse:separate;border-spacing:0;table-layout:auto;width:auto;border:none;"
    f"margin:4px 0;background:{PAPER}"
)


@dataclass(frozen=True, slots=True)
class Band:
    """One chunk as the preview draws it; `index` is its position in the chunks given."""

    index: int
    start_line: int
    end_line: int
    type: str | None = None
    name: str | None = None
    parent: str | None = None
    characters: int | None = None
    chunker: str | None = None
    why: str | None = None  # the rule that made the chunk, in words (engine.explain_file)

    @property
    def label(self) -> str:
        """Short text written in the band: type, name and lines."""
        words = [self.type or ("lines" if self.name is None else "untyped")]
        if self.name:
            words.append(self.name)
        words.append(f"{self.start_line}–{self.end_line}")
        return " ".join(words)

    @property
    def title(self) -> str:
        """Hover text: everything known about the chunk, one fact per line."""
        head = " ".join(part for part in (self.type, self.name) if part) or "line window (no declaration)"
        facts = [head]
        if self.parent:
            facts.append(f"parent: {self.parent}")
        count = self.end_line - self.start_line + 1
        facts.append(f"lines {self.start_line}–{self.end_line} ({count} line{'s' * (count != 1)})")
        if self.characters is not None:
            facts.append(f"{self.characters:,} characters")
        if self.chunker:
            facts.append(f"chunker: {self.chunker}")
        if self.why:
            facts.append(f"why: {self.why}")
        return "\n".join(facts)


def _value(value: Any) -> Any:
    """None for every spelling of missing (None, NaN, pd.NA) in a frame cell."""
    if value is None:
        return None
    try:
        missing = pd.isna(value)
    except (TypeError, ValueError):
        return value
    return None if missing is True else value


def _text(value: Any) -> str | None:
    value = _value(value)
    return None if value is None else str(value)


def chunk_bands(chunks: Any, path: str | None = None) -> list[Band]:
    """Bands from a chunk frame, `CodeChunk`s or dicts; only those of `path` when they carry paths."""
    fields = ("path", "start_line", "end_line", "type", "name", "parent", "characters", "chunker", "why")
    if isinstance(chunks, pd.DataFrame):
        missing = {"start_line", "end_line"} - set(chunks.columns)
        if missing:
            msg = f"the chunk frame has no {sorted(missing)} column(s); pass a frame from frames.chunk_codebase"
            raise ValueError(msg)
        return _frame_bands(chunks, path)
    rows: Iterable[dict[str, Any]] = (
        item if isinstance(item, dict) else {name: getattr(item, name, None) for name in fields} for item in chunks
    )
    bands = []
    for index, row in enumerate(rows):
        row_path = _text(row.get("path"))
        if path is not None and row_path is not None and row_path != path:
            continue
        characters = _value(row.get("characters"))
        bands.append(
            Band(
                index,
                int(row["start_line"]),
                int(row["end_line"]),
                _text(row.get("type")),
                _text(row.get("name")),
                _text(row.get("parent")),
                None if characters is None else int(characters),
                _text(row.get("chunker")),
                _text(row.get("why")),
            )
        )
    return bands


def _column(chunks: pd.DataFrame, name: str, text: bool) -> list[Any]:
    """A frame column as Python values with None for every spelling of missing, one null test per column."""
    if name not in chunks.columns:
        return [None] * len(chunks)
    column = chunks[name]
    values = column.tolist()
    missing = column.isna().to_numpy(dtype=bool)
    if missing.any():
        values = [None if gone else value for value, gone in zip(values, missing.tolist(), strict=True)]
    if text:
        return [None if value is None else str(value) for value in values]
    return values


def _page_bands(
    chunks: Any, path: str, start: int, stop: int, selected: int | None
) -> tuple[list[Band], np.ndarray, np.ndarray, set[str | None]]:
    """The bands of lines `start`-`stop` (and the selected chunk's), and every band's first and last line and
    the types present. For a frame only the rows shown become `Band`s: a file of a million lines has a
    quarter of a million chunks, and a page shows a few hundred."""
    if not isinstance(chunks, pd.DataFrame):
        bands = chunk_bands(chunks, path)
        firsts = np.fromiter((b.start_line for b in bands), np.int64, len(bands))
        lasts = np.fromiter((b.end_line for b in bands), np.int64, len(bands))
        return bands, firsts, lasts, {b.type for b in bands}
    chunk_bands(chunks.iloc[:0], path)  # the same check of the columns
    # Without its attrs: pandas deep-copies a frame's attrs on every column read and row selection, which
    # cost more than the rest here (the panel redraws this on every slider move).
    chunks = chunks.copy(deep=False)
    chunks.attrs = {}
    ours = np.ones(len(chunks), dtype=bool)
    if "path" in chunks.columns:
        paths = chunks["path"]
        ours = (paths.isna() | (paths == path)).to_numpy(dtype=bool)
    positions = np.flatnonzero(ours)
    firsts = chunks["start_line"].to_numpy(dtype=np.int64)[positions]
    lasts = chunks["end_line"].to_numpy(dtype=np.int64)[positions]
    keep = (firsts <= stop) & (lasts >= start) & (firsts <= lasts)
    if selected is not None:
        keep |= positions == selected
    types: set[str | None] = set()
    if "type" in chunks.columns and len(positions):
        column = chunks["type"].iloc[positions]
        types = {str(t) for t in column.dropna().unique()} | ({None} if column.isna().any() else set())
    elif len(positions):
        types = {None}
    return _frame_bands(chunks, None, positions[keep]), firsts, lasts, types


def _frame_bands(chunks: pd.DataFrame, path: str | None, rows: np.ndarray | None = None) -> list[Band]:
    """`chunk_bands` of a chunk frame, column by column: a preview of a long file has thousands of rows.
    `rows` (positions) builds only those, each keeping its position in the whole frame as its index."""
    if rows is not None:
        return [
            dataclasses.replace(band, index=int(rows[i]))
            for i, band in enumerate(_frame_bands(chunks.iloc[rows], path))
        ]
    paths = _column(chunks, "path", True)
    starts, ends = chunks["start_line"].tolist(), chunks["end_line"].tolist()
    texts = [_column(chunks, name, True) for name in ("type", "name", "parent")]
    characters = [None if value is None else int(value) for value in _column(chunks, "characters", False)]
    chunker, why = _column(chunks, "chunker", True), _column(chunks, "why", True)
    return [
        Band(index, int(starts[index]), int(ends[index]), texts[0][index], texts[1][index], texts[2][index],
             characters[index], chunker[index], why[index])
        for index, row_path in enumerate(paths)
        if path is None or row_path is None or row_path == path
    ]  # fmt: skip


def assign_columns(bands: Sequence[Band]) -> list[int]:
    """A gutter column per band such that bands sharing a line never share a column.

    Greedy interval colouring: by start (longest first), each band takes the lowest column whose
    last band ended above it. Outer declarations therefore sit left of what they contain.
    """
    order = sorted(range(len(bands)), key=lambda i: (bands[i].start_line, -bands[i].end_line, i))
    column_ends: list[int] = []
    columns = [0] * len(bands)
    for i in order:
        band = bands[i]
        for column, end in enumerate(column_ends):
            if end < band.start_line:
                column_ends[column] = band.end_line
                columns[i] = column
                break
        else:
            columns[i] = len(column_ends)
            column_ends.append(band.end_line)
    return columns


def _lexer(path: str, language: str | None) -> Lexer:
    return _lexer_for(os.path.basename(path), language)


@functools.lru_cache(maxsize=64)
def _lexer_for(path: str, language: str | None) -> Lexer:  # by the file's name: pygments scans every pattern
    # stripnl=False: the lexer must not drop leading/trailing blank lines, or line numbers shift.
    try:
        return get_lexer_for_filename(path, stripnl=False)
    except ClassNotFound:
        pass
    if language:
        try:
            return get_lexer_by_name(language, stripnl=False)
        except ClassNotFound:
            pass
    return TextLexer(stripnl=False)


def _clip(line: str) -> str:
    if len(line) <= MAX_LINE_CHARS:
        return line
    return line[:MAX_LINE_CHARS]


# Token kinds -> JupyterLab's editor colour variables (so code looks as it does in a notebook cell, in
# every theme), with the light theme's value as the fallback outside JupyterLab. Checked first to last:
# the first kind a token is a subtype of wins; a token of none of them keeps the text colour.
_EDITOR_COLOURS: tuple[tuple[Any, str, str], ...] = (
    (Token.Comment, "comment", "#408080"),
    (Token.Keyword.Type, "variable-3", "#085"),
    (Token.Keyword, "keyword", "#008000"),
    (Token.Operator.Word, "keyword", "#008000"),
    (Token.Operator, "operator", "#7800c2"),
    (Token.Punctuation, "punctuation", "#05a"),
    (Token.Literal.String.Regex, "string-2", "#708"),
    (Token.Literal.String.Escape, "string-2", "#708"),
    (Token.Literal.String, "string", "#ba2121"),
    (Token.Literal.Number, "number", "#080"),
    (Token.Name.Builtin, "builtin", "#008000"),
    (Token.Name.Function, "def", "#00f"),
    (Token.Name.Class, "def", "#00f"),
    (Token.Name.Decorator, "meta", "#a2f"),
    (Token.Name.Tag, "tag", "#170"),
    (Token.Name.Attribute, "attribute", "#00c"),
    (Token.Name.Property, "property", "#05a"),
    (Token.Generic.Heading, "header", "#00f"),
    (Token.Generic.Subheading, "header", "#00f"),
    (Token.Error, "error", "#f00"),
)


# Declared once on the preview's root element; each highlighted span then only names its variable.
SYNTAX_VARIABLES = ";".join(
    f"--cn-{name}:{accent(f'var(--jp-mirror-editor-{name}-color,{fallback})')}"
    for name, fallback in dict((name, fallback) for _, name, fallback in _EDITOR_COLOURS).items()
)


@functools.cache
def _token_style(token: Any) -> str:  # a pygments token type
    """Inline CSS for one token type: the variable of its editor colour (see SYNTAX_VARIABLES)."""
    for kind, name, _ in _EDITOR_COLOURS:
        if token in kind:
            return f"color:var(--cn-{name});font-style:italic" if kind is Token.Comment else f"color:var(--cn-{name})"
    return ""


def highlight_lines(lines: Sequence[str], path: str, language: str | None = None) -> list[str]:
    """Each line as HTML with inline syntax colours.

    The text is lexed as a whole (a block comment or template string spanning lines stays one
    token), then each token is cut at newlines into per-line spans. The HTML is written here from
    Pygments' token stream, not by its HtmlFormatter, so escaping, markup and colours are this
    project's and do not change with the Pygments release.
    """
    if not lines:
        return []
    clipped = [_clip(line) for line in lines]
    # A slider move redraws the same file with other bands: its colours are lexed once, not per move.
    done = _highlighted("\n".join(clipped), len(clipped), path, language)
    if done is None:
        # A lexer that rewrote line breaks: fall back to plain escaped text rather than misnumber lines.
        return [escape(line, quote=False) for line in clipped]
    return list(done)


@functools.lru_cache(maxsize=8)
def _highlighted(text: str, count: int, path: str, language: str | None) -> tuple[str, ...] | None:
    """`highlight_lines` of `count` (clipped) lines joined with LF; None when the lexer's lines do not match."""
    rows: list[list[tuple[str, str]]] = [[]]
    for token, value in _lexer(path, language).get_tokens(text + "\n"):
        css = _token_style(token)
        for k, piece in enumerate(value.split("\n")):
            if k:
                rows.append([])
            if not piece:
                continue
            row = rows[-1]
            # Neighbours of one colour become one span, and so does white space (its colour is invisible).
            if row and (row[-1][0] == css or piece.isspace()):
                row[-1] = (row[-1][0], row[-1][1] + piece)
            else:
                row.append((css, piece))
    if len(rows) != count + 1 or rows[-1]:
        return None
    return tuple("".join(_span(css, piece) for css, piece in row) for row in rows[:-1])


def _span(css: str, text: str) -> str:
    text = escape(text, quote=False)
    return f'<span style="{css}">{text}</span>' if css else text


def _coverage(line_count: int, firsts: np.ndarray, lasts: np.ndarray) -> np.ndarray:
    """How many chunks cover each line (index 0 = line 1), by a difference array."""
    delta = np.zeros(line_count + 2, dtype=np.int64)
    starts = firsts.clip(1, None)
    ends = lasts.clip(None, line_count)
    inside = starts <= ends
    np.add.at(delta, starts[inside], 1)
    np.add.at(delta, ends[inside] + 1, -1)
    return np.cumsum(delta)[1 : line_count + 1]


def _legend(present: set[str | None], uncovered_code: int, uncovered_blank: int, full: bool) -> str:
    """Swatches of what the view shows, its chunk types `present` (of everything it can show when `full`)."""
    items = [
        (f"background:{colour}", chunk_type)
        for chunk_type, colour in TYPE_COLOURS.items()
        if full or chunk_type in present
    ]
    if full or None in present or any(t not in TYPE_COLOURS for t in present if t):
        items.append((f"background:{UNTYPED_COLOUR}", "no type (line window)"))
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


def _band_cell(band: Band, rowspan: int, selected: bool) -> str:
    colour = type_colour(band.type)
    outline = f"box-shadow:inset 0 0 0 2px {TEXT};" if selected else ""
    return (
        f'<td rowspan="{rowspan}" data-chunk="{band.index}" data-start="{band.start_line}" '
        f'data-end="{band.end_line}" data-type="{escape(band.type or "")}" title="{escape(band.title)}" '
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
    page_hints: str = "start",
) -> str:
    """HTML of `lines` with a gutter band for every chunk; inline styles only, same input -> same bytes.

    `chunks` is a chunk frame, a list of `CodeChunk`s or dicts with `start_line`/`end_line` (and
    optionally type, name, parent, characters, chunker); rows of other paths are left out.
    Lines `start` .. `start + max_lines - 1` are shown, with a notice when the file has more.
    `selected` (position in `chunks`) outlines one chunk; `meaningful` (one flag per line) defaults
    to the reference's rule; `note` is shown above the lines (e.g. why a file has no chunks);
    `height` (px) makes the lines a scroll box of at most that height, under a fixed header;
    `full_legend` lists every colour and mark, not only those shown (equal headers side by side);
    `page_hints` is how the notices of a long file say to turn the page: "start" (the `start=`
    argument, for a still picture), "buttons" (the preview widget's page buttons) or "none" (a view
    that cannot turn pages: only the lines shown are named).
    """
    if page_hints not in PAGE_HINTS:
        msg = f"page_hints must be one of {PAGE_HINTS}, got {page_hints!r}"
        raise ValueError(msg)
    check_page(start, max_lines, len(lines))
    total = len(lines)
    if meaningful is not None and len(meaningful) != total:
        msg = f"meaningful has {len(meaningful)} flags for {total} lines; pass one flag per line or None"
        raise ValueError(msg)
    stop = min(total, start + max_lines - 1)
    bands, firsts, lasts, types = _page_bands(chunks, path, start, stop, selected)
    flags = list(meaningful) if meaningful is not None else [is_meaningful_line(line) for line in lines]
    cover = _coverage(total, firsts, lasts)
    bare, marked = cover == 0, np.asarray(flags, dtype=bool)
    uncovered_code, uncovered_blank = int((bare & marked).sum()), int((bare & ~marked).sum())

    shown = [b for b in bands if b.start_line <= stop and b.end_line >= start and b.start_line <= b.end_line]
    columns = assign_columns(shown)
    width = max(columns, default=-1) + 1
    # Per gutter column, the cells starting on each row: a band (clipped to the page) or the gap
    # before it, as (rows spanned, html).
    starts: list[dict[int, tuple[int, str]]] = [{} for _ in range(width)]
    chosen = next((b for b in shown if b.index == selected), None)
    for band, column in zip(shown, columns, strict=True):
        first, last = max(start, band.start_line), min(stop, band.end_line)
        starts[column][first] = (last - first + 1, _band_cell(band, last - first + 1, band is chosen))
    for cells in starts:
        row = start
        for first in sorted(cells):
            if first > row:
                cells[row] = (first - row, f'<td rowspan="{first - row}" style="{_GAP}"></td>')
            row = first + cells[first][0]
        if row <= stop:
            cells[row] = (stop - row + 1, f'<td rowspan="{stop - row + 1}" style="{_GAP}"></td>')

    # Lexed from a chunk's first line shortly above the page (a declaration starts where no comment or string
    # is open), not from line 1: a page deep in a long file costs a page, not the whole file before it.
    above = firsts[(firsts <= start) & (firsts >= start - LEX_CONTEXT)]
    lex_from = int(above.max()) if len(above) else max(1, start - LEX_CONTEXT)
    code = highlight_lines(lines[lex_from - 1 : stop], path, language)
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
        gutter = "".join(cells[line][1] for cells in starts if line in cells)
        cut = len(lines[line - 1]) - MAX_LINE_CHARS
        more = f'<span style="color:{MUTED}"> … {cut:,} more characters</span>' if cut > 0 else ""
        uncovered = "" if covered else f' data-uncovered="{"code" if flag else "blank"}"'
        rows.append(
            f'<tr data-line="{line}"{uncovered} style="background:{PAPER}"><td style="{_NUMBER}">{line}</td>'
            f'<td style="{_MARK}{mark}"></td>{gutter}<td style="{code_style}">{code[line - lex_from]}{more}</td></tr>'
        )

    head = [f"<b>{escape(path)}</b>"]
    if language:
        head.append(escape(language))
    head.append(f"{total:,} line{'s' * (total != 1)}")
    head.append(f"{len(firsts):,} chunk{'s' * (len(firsts) != 1)}")
    if uncovered_code:
        head.append(f'<span style="color:{ALERT}">{uncovered_code:,} line(s) of code in no chunk</span>')
    parts = [
        f'<div data-clanka="preview" data-path="{escape(path)}" style="{UI_FONT};color:{TEXT};background:{PAPER};'
        f'border:1px solid {RULE};border-radius:6px;max-width:100%;overflow:auto;{SYNTAX_VARIABLES}">',
        # One line, cut if need be: previews shown side by side keep their rows level.
        f'<div style="padding:6px 8px;background:{SURFACE};border-bottom:1px solid {RULE};white-space:nowrap;'
        f'overflow:hidden;text-overflow:ellipsis">{" · ".join(head)}</div>',
        _legend(types, uncovered_code, uncovered_blank, full_legend),
    ]
    picked = next((band for band in bands if band.index == selected), None)
    if picked is not None and picked.why:
        # The side panel of the selected chunk: why it starts and ends where it does.
        parts.append(
            f'<div data-why="" style="padding:4px 8px;border-bottom:1px solid {RULE};background:{SELECTED}">'
            f"<b>why</b> {escape(picked.why)}</div>"
        )
    if note:
        parts.append(_notice(note))
    paged = total > stop - start + 1
    if paged:
        long = "Long file: showing" if total > max_lines else "Showing"
        if page_hints == "buttons":
            hints = [f"“{LATER_LINES}” shows the next page"] if stop < total else []
            hints += [f"“{EARLIER_LINES}” the previous one"] if start > 1 else []
        elif page_hints == "none":  # a view that cannot turn pages says only what it shows
            hints = []
        else:
            hints = [f"pass start={stop + 1} for the next page"] if stop < total else []
            hints += ["start=1 for the top"] if start > 1 else []
        turn = f"; {' or '.join(hints)}" if hints else ""
        parts.append(_notice(f"{long} lines {start:,}–{stop:,} of {total:,}{turn}."))
    if total:
        scroll = f"max-height:{height}px;overflow:auto" if height is not None else ""
        parts.append(f'<div data-lines="" style="{scroll}"><table style="{_TABLE}">{"".join(rows)}</table></div>')
    else:
        parts.append(f'<div style="padding:6px 8px;color:{MUTED}">No lines to show.</div>')
    if stop < total:
        more = {"buttons": f"; “{LATER_LINES}” shows more", "start": f"; pass start={stop + 1} for more"}
        parts.append(_notice(f"End of page: lines {start:,}–{stop:,} of {total:,}{more.get(page_hints, '')}."))
    parts.append("</div>")
    return "".join(parts)
