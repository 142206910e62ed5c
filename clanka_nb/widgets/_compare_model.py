"""The comparison's model: two settings, both chunk frames of one codebase, the declarations that change, the
file shown; and the pure functions that make its view model (changes table, side-by-side previews, summary) from
that state. No widget here: `Compare` holds one."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from typing import Any

import pandas as pd

from .. import engine, frames
from ..chunkers import Chunker, as_chunker
from ..defaults import CHUNK_SETTING_NAMES
from ..engine.settings import TEXT_SETTING_NAMES, checked_keywords
from ..frames import columns as _columns
from ..sweeps import run_chunker
from ._bands import LINE_WINDOW
from ._browser_model import settings_text
from ._paths import COMPARE_PATH_CHARS, fit_paths
from ._preview import Preview
from ._render import MAX_LINES
from ._source import Texts, file_lines, first_made_by_hand, pickable
from ._style import MUTED, RULE, TEXT, UI_FONT, type_chip

PANE_MIN_WIDTH = 400  # px: narrower than this, the panes go one above the other
# As wide as the output, whatever the content: a width of 0 keeps wide lines out of the intrinsic
# width the output (a flex item sized to its content's) would otherwise grow to, pushing B off-screen.
FILL_WIDTH = "box-sizing:border-box;width:0;min-width:100%"
CHANGE_COLUMNS = (
    "path", "type", "name", "parent", "start_line", "end_line", "chunks_a", "chunks_b", "ranges_a", "ranges_b",
    "change",
)  # fmt: skip


# A side of the comparison: chunk settings of the engine, or a whole chunker (`clanka_nb.chunkers`, or a callable).
Side = dict[str, Any] | Chunker


def _side(side: str, given: object) -> Side:
    """A side as given: settings (a dict, None for the defaults), or a chunker, its cut of every file shown."""
    if given is None or isinstance(given, Mapping):
        return _settings(side, given)
    if not callable(given):
        msg = (f"{side}= must be chunk settings (a dict such as {{'chunk_size': 30}}) or a chunker "
               f"(cn.chunkers.astchunk(), or a callable (path, text) -> spans), got {type(given).__name__}")
        raise TypeError(msg)
    return as_chunker(given)


def _settings(side: str, given: Mapping[str, Any] | None) -> dict[str, Any]:
    given = dict(given or {})
    unknown = sorted(set(given) - set(TEXT_SETTING_NAMES))
    if unknown:
        msg = f"{side}= has unknown setting(s) {unknown}; use {', '.join(CHUNK_SETTING_NAMES)} or languages"
        raise TypeError(msg)
    engine.ChunkSettings.build(**{k: v for k, v in given.items() if k in CHUNK_SETTING_NAMES})  # fail early
    if "languages" in given and given["languages"] not in engine.LANGUAGE_MODES:
        msg = f"{side}= languages must be one of {engine.LANGUAGE_MODES}, got {given['languages']!r}"
        raise ValueError(msg)
    return given


def _in_mode(codebase: engine.Codebase, languages: str | None) -> engine.Codebase:
    """The same files chunked with `languages` (the codebase itself when that is its own mode).

    Built from the lines already read, so comparing "clanka" with "extended" reads nothing again.
    """
    if languages is None or languages == codebase.languages:
        return codebase
    texts = {path: "\n".join(text.lines) for path in codebase.files if (text := codebase.text(path)) is not None}
    return engine.Codebase.from_texts(texts, languages=languages)


def side_text(side: Side, mode: str | None = None) -> str:
    """A side in one line: its settings (with its language mode: the side's own, else `mode`, the codebase's), or
    the chunker's label and size parameters."""
    if isinstance(side, Mapping):
        settings = {**engine.Settings().chunking(), **side}
        if mode is not None:
            settings.setdefault("languages", mode)
        return settings_text(settings)
    parameters = getattr(side, "parameters", {}) or {}
    shown = " · ".join(f"{name}={value}" for name, value in parameters.items() if name != "version")
    return f"{side.label}" + (f" · {shown}" if shown else "")


def chunker_frame(codebase: engine.Codebase, chunker: Chunker) -> pd.DataFrame:
    """A whole chunker's chunks of every file as a chunk frame (the columns of `chunk_codebase`'s): the files it
    does not handle in clanka's line windows at the default settings, as the sweep's chunker rows cut them.
    `chunker` is "window" on those, NA on the chunker's own (neither the engine's declarations nor its windows)."""
    run = run_chunker(codebase, list(codebase.files), chunker, engine.ChunkSettings.build(warn=False))
    columns: dict[str, list[Any]] = {name: [] for name in _columns.CHUNKS}
    for heads in run.heads:
        if not heads:
            continue
        text = codebase.text(heads[0].path)
        assert text is not None  # only readable files have heads
        handled = run.handled(heads[0].path)
        for head in heads:
            content = "\n".join(text.lines[head.start_line - 1 : head.end_line])
            values = (head.path, head.start_line, head.end_line, head.name, head.type, head.parent, content,
                      head.end_line - head.start_line + 1, engine.js_length(content), engine.language_of(head.path),
                      None if handled else "window")  # fmt: skip
            for name, value in zip(_columns.CHUNKS, values, strict=True):
                columns[name].append(value)
    attrs = {"root": str(codebase.root), "languages": codebase.languages, "chunker_label": run.label,
             "chunker_parameters": dict(run.parameters), "fallback_files": run.fallback_files}  # fmt: skip
    return _columns.build(columns, _columns.CHUNKS, attrs)


@dataclass(frozen=True)
class Untyped:
    """What one side calls its chunks with no type: clanka's line windows, or a peer chunker's own chunks (named by
    its label: "astchunk chunk") in the files it handles (`fallback`: those it does not, cut into line windows)."""

    peer: str | None = None
    fallback: frozenset[str] = frozenset()

    def name(self, path: str) -> str:
        return LINE_WINDOW if self.peer is None or path in self.fallback else f"{self.peer} chunk"


CLANKA = Untyped()  # the engine's side: its chunks with no type are its line windows


def untyped_of(side: Side, frame: pd.DataFrame) -> Untyped:
    """A side's `Untyped`: the engine's (settings, or `chunkers.clanka`/`line_windows`) or a peer's, from its frame."""
    if isinstance(side, Mapping) or getattr(side, "windows", False):
        return CLANKA
    fallback = frame.loc[(frame["chunker"] == "window").to_numpy(dtype=bool), "path"]
    return Untyped(side.label, frozenset(str(path) for path in fallback))


def _untyped_row(path: str, counts: tuple[int, int], untyped: tuple[Untyped, Untyped]) -> str:
    """The name of a file's chunks with no type in the changes table: each side's that has some."""
    names = {side: f"{sort.name(path)}s" for side, count, sort in zip("AB", counts, untyped, strict=True) if count}
    if len(set(names.values())) <= 1:
        return next(iter(names.values()), f"{LINE_WINDOW}s")
    return ", ".join(f"{name} ({side})" for side, name in names.items())


def _chunk_frame(codebase: engine.Codebase, settings: Side) -> pd.DataFrame:
    if not isinstance(settings, Mapping):
        return chunker_frame(codebase, settings)
    chunk_settings = {k: v for k, v in settings.items() if k in CHUNK_SETTING_NAMES}
    return frames.chunk_codebase(_in_mode(codebase, settings.get("languages")), progress=False, **chunk_settings)


def _ranges(frame: pd.DataFrame) -> pd.DataFrame:
    """Chunk line ranges grouped by declaration (path, type, name, parent); line windows form one group."""
    keys = ["path", "type", "name", "parent"]
    work = frame[[*keys, "start_line", "end_line"]].astype({"type": "string"}).fillna({k: "" for k in keys})
    work["range"] = work["start_line"].astype(str) + "–" + work["end_line"].astype(str)
    grouped = work.groupby(keys, sort=False, dropna=False)
    return pd.DataFrame(
        {
            "start_line": grouped["start_line"].min(),
            "end_line": grouped["end_line"].max(),
            "chunks": grouped.size(),
            "ranges": grouped["range"].agg(", ".join),
        }
    )


def _change(row: pd.Series) -> str:
    a, b = row["chunks_a"], row["chunks_b"]
    if a == 0:
        return "only chunked in B"
    if b == 0:
        return "only chunked in A"
    if b > a:
        return "more chunks in B"
    if b < a:
        return "fewer chunks in B"
    return "cut differently"


@checked_keywords
def declaration_changes(frame_a: pd.DataFrame, frame_b: pd.DataFrame) -> pd.DataFrame:
    """The declarations (and files' line windows) whose chunks differ between two chunk frames.

    Args:
        frame_a: One side's chunk frame.
        frame_b: The other's.

    Returns:
        One row per declaration or line window whose chunks differ.
    """
    a, b = _ranges(frame_a), _ranges(frame_b)
    both = pd.merge(a, b, how="outer", left_index=True, right_index=True, suffixes=("_a", "_b"))
    both = both[both["ranges_a"].fillna("") != both["ranges_b"].fillna("")].copy()
    both["chunks_a"] = both["chunks_a"].fillna(0).astype("int64")
    both["chunks_b"] = both["chunks_b"].fillna(0).astype("int64")
    both["start_line"] = both[["start_line_a", "start_line_b"]].min(axis=1).astype("int64")
    both["end_line"] = both[["end_line_a", "end_line_b"]].max(axis=1).astype("int64")
    both["change"] = both.apply(_change, axis=1) if len(both) else pd.Series(dtype="string")
    out = both.reset_index()
    for column in ("type", "name", "parent"):
        out[column] = out[column].replace("", pd.NA).astype("string")
    out = out.sort_values(["path", "start_line", "end_line"], kind="stable").reset_index(drop=True)
    return out[list(CHANGE_COLUMNS)]


def render_changes(
    changes: pd.DataFrame, *, limit: int = 40, untyped: tuple[Untyped, Untyped] = (CLANKA, CLANKA)
) -> str:
    """The changed declarations as an HTML table (the first `limit` rows); chunks with no type are named by what
    each side calls them (`untyped`: A's and B's; clanka's line windows, or a peer chunker's chunks)."""
    cell = f"padding:1px 8px;border-bottom:1px solid {RULE};white-space:nowrap;text-align:left"
    head = "".join(f'<th style="{cell}">{h}</th>' for h in ("lines", "type", "name", "parent", "A", "B", "change"))
    rows = []
    for row in changes.head(limit).itertuples(index=False):
        chunk_type = None if pd.isna(row.type) else str(row.type)
        if pd.isna(row.name):
            counts = (int(row.chunks_a), int(row.chunks_b))
            name = _untyped_row(str(row.path), counts, untyped) if chunk_type is None else ""
        else:
            name = row.name
        rows.append(
            f'<tr data-path="{escape(row.path)}"><td style="{cell}">{row.start_line}–{row.end_line}</td>'
            f'<td style="{cell}">{type_chip(chunk_type)}</td><td style="{cell}">{escape(str(name))}</td>'
            f'<td style="{cell};color:{MUTED}">{escape("" if pd.isna(row.parent) else str(row.parent))}</td>'
            f'<td style="{cell}" title="{escape(str(row.ranges_a or ""))}">{row.chunks_a}</td>'
            f'<td style="{cell}" title="{escape(str(row.ranges_b or ""))}">{row.chunks_b}</td>'
            f'<td style="{cell}">{escape(row.change)}</td></tr>'
        )
    more = (
        f'<div style="color:{MUTED}">… and {len(changes) - limit:,} more (see .changes)</div>'
        if len(changes) > limit
        else ""
    )
    if not rows:
        return f'<div style="{UI_FONT};color:{MUTED}">No declaration of this file changes chunks.</div>'
    return (
        f'<div style="{UI_FONT};color:{TEXT};{FILL_WIDTH};overflow-x:auto"><table style="border-collapse:collapse">'
        f'{head}{"".join(rows)}</table>{more}</div>'
    )


def render_side_by_side(left: Preview, right: Preview, a: Side, b: Side, *, height: int | None = 640) -> str:
    """Two previews next to each other when there is room, one above the other when not, in one scroll box.

    Side by side, both previews have equal headers and equal row heights, so one scroll box keeps
    line n of A level with line n of B (no script is needed to scroll them together). Each pane
    is at least `PANE_MIN_WIDTH` px wide: below twice that (plus the gap), B wraps under A. Long
    lines scroll sideways inside their pane, never push the other one out of the output. `height` None: as
    tall as the lines (an exported page scrolls as a whole).
    """

    def column(side: str, preview: Preview, settings: Side) -> str:
        label = escape(side_text(settings, preview.mode))  # each side's own mode
        return (
            f'<div data-side="{side}" style="flex:1 1 {PANE_MIN_WIDTH}px;min-width:0;max-width:100%">'
            # One line, cut if need be, as the previews' own headers: rows side by side stay level.
            f'<div title="{label}" style="{UI_FONT};margin:2px 0 4px;white-space:nowrap;overflow:hidden;'
            f'text-overflow:ellipsis"><b>{side}</b> · {label}</div>{preview.still_html}</div>'
        )

    return (
        f'<div data-clanka="compare" style="{FILL_WIDTH};display:flex;flex-wrap:wrap;gap:8px;'
        f'align-items:flex-start;{"" if height is None else f"max-height:{height}px;"}overflow:auto">'
        f'{column("A", left, a)}{column("B", right, b)}</div>'
    )


def _shown(side: Side) -> str:
    return str(side) if isinstance(side, Mapping) else repr(side.label)


class CompareModel:
    """Settings A and B on one codebase, and the file shown; either side may be a whole chunker instead.

    State: `codebase`, `texts`, `a`, `b` (the settings, checked; or a side's `Chunker`), `files` (those with
    lines), `frame_a`, `frame_b` (all chunks; a chunker's as `chunker_frame` makes them), `untyped` (what A and B
    call their chunks with no type: clanka's line windows or a peer's chunks), `changes` (every
    changed declaration), `path` (the file shown, None when the codebase has no file with lines). Derived:
    `frame` (the changes of `path`), `previews()` (A's and B's).
    """

    def __init__(
        self, codebase: engine.Codebase, a: Mapping[str, Any] | Chunker | None, b: Mapping[str, Any] | Chunker | None,
        path: str | None,
    ) -> None:
        self.codebase = codebase
        self.texts = Texts(codebase=codebase, languages=codebase.languages)
        self.a, self.b = _side("a", a), _side("b", b)
        self.files = [p for p in codebase.files if (t := codebase.text(p)) is not None and t.lines]
        if path is not None:
            path = pickable(codebase, path, self.files)  # before chunking twice
        self.frame_a, self.frame_b = _chunk_frame(codebase, self.a), _chunk_frame(codebase, self.b)
        self.untyped = (untyped_of(self.a, self.frame_a), untyped_of(self.b, self.frame_b))
        self.changes = declaration_changes(self.frame_a, self.frame_b)
        counts = self.changes["path"].value_counts()
        self.counts = {str(p): int(n) for p, n in counts.items()}  # changes per file, most first
        if path is None:
            # The file with the most changes that is no tool's output (types.gen.ts); else the first file.
            busiest = first_made_by_hand((str(p) for p in counts.index), self.texts)
            path = busiest or (self.files[0] if self.files else None)
        self.path: str | None = path
        self.start = 1  # the first line of the page shown (a notebook saves a page, its exported page every line)

    def __repr__(self) -> str:
        return f"Compare(a={_shown(self.a)}, b={_shown(self.b)}: {len(self.changes):,} declarations change chunks)"

    def file_options(self) -> list[tuple[str, str]]:
        """The file picker's (label with its number of changes, path)."""
        shown = fit_paths(self.files, COMPARE_PATH_CHARS)  # cut in the middle: the file name and its package show
        return [(f"{shown[p]}  ({self.counts.get(p, 0)} changed)", p) for p in self.files]

    @property
    def frame(self) -> pd.DataFrame:
        """The changes of the file shown."""
        return self.changes[self.changes["path"] == self.path].reset_index(drop=True)

    def previews(self, *, whole: bool = False) -> tuple[Preview, Preview] | None:
        """The page shown of the file under A and under B (None when there is no file); `whole`: every line."""
        path = self.path
        if path is None:
            return None
        previews = []
        for chunks, untyped in zip((self.frame_a, self.frame_b), self.untyped, strict=True):
            file_chunks = chunks[(chunks["path"] == path).to_numpy(dtype=bool)]
            lines, flags, note = file_lines(self.texts, path, file_chunks)
            start = 1 if whole else max(1, min(self.start, len(lines)))
            preview = Preview(
                lines, file_chunks, path=path, language=engine.language_of(path), meaningful=flags, note=note,
                height=None, full_legend=True, untyped=untyped.name(path), start=start,
                max_lines=max(1, len(lines)) if whole else MAX_LINES,
            ).in_mode(chunks.attrs.get("languages"))  # fmt: skip  # each side's frame, made here: its own mode
            previews.append(preview)
        left, right = previews
        return left, right


def render_summary(model: CompareModel, changed: pd.DataFrame) -> str:
    """The counts of both sides and the changed declarations of the file shown (`changed`: `model.frame`)."""
    if model.path is None:
        return f'<div style="{UI_FONT};color:{MUTED}">The codebase has no file with lines.</div>'
    declared = len(_ranges(pd.concat([model.frame_a, model.frame_b])))
    changed_files = model.changes["path"].nunique()
    return (
        f'<div style="{UI_FONT}"><b>{len(model.changes):,}</b> of {declared:,} declarations change chunks, '
        f"in {changed_files:,} file{'s' * (changed_files != 1)} · A: {len(model.frame_a):,} chunks · "
        f"B: {len(model.frame_b):,} chunks<br><b>{escape(model.path)}</b>: {len(changed):,} changed</div>"
        f"{render_changes(changed, untyped=model.untyped)}"
    )
