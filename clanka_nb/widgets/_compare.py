"""Two settings side by side: both previews of a file and which declarations change chunks."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any, Unpack

import ipywidgets as widgets
import pandas as pd

from .. import engine, frames
from ..engine.settings import CHUNK_SETTING_NAMES, OPENING, TEXT_SETTING_NAMES, SourceSettings
from ..engine.source import open_source
from ._browser import settings_text
from ._preview import Preview
from ._source import Source, Texts, check_early, file_lines, pickable
from ._style import MUTED, RULE, TEXT, UI_FONT, type_chip

PANE_MIN_WIDTH = 400  # px: narrower than this, the panes go one above the other
# As wide as the output, whatever the content: a width of 0 keeps wide lines out of the intrinsic
# width the output (a flex item sized to its content's) would otherwise grow to, pushing B off-screen.
FILL_WIDTH = "box-sizing:border-box;width:0;min-width:100%"
CHANGE_COLUMNS = (
    "path", "type", "name", "parent", "start_line", "end_line", "chunks_a", "chunks_b", "ranges_a", "ranges_b",
    "change",
)  # fmt: skip


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


def _chunk_frame(codebase: engine.Codebase, settings: Mapping[str, Any]) -> pd.DataFrame:
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


def declaration_changes(frame_a: pd.DataFrame, frame_b: pd.DataFrame) -> pd.DataFrame:
    """The declarations (and files' line windows) whose chunks differ between two chunk frames."""
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


def render_changes(changes: pd.DataFrame, *, limit: int = 40) -> str:
    """The changed declarations as an HTML table (the first `limit` rows)."""
    cell = f"padding:1px 8px;border-bottom:1px solid {RULE};white-space:nowrap;text-align:left"
    head = "".join(f'<th style="{cell}">{h}</th>' for h in ("lines", "type", "name", "parent", "A", "B", "change"))
    rows = []
    for row in changes.head(limit).itertuples(index=False):
        chunk_type = None if pd.isna(row.type) else str(row.type)
        name = "line windows" if pd.isna(row.name) and chunk_type is None else ("" if pd.isna(row.name) else row.name)
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


def render_side_by_side(
    left: Preview, right: Preview, a: Mapping[str, Any], b: Mapping[str, Any], *, height: int = 640
) -> str:
    """Two previews next to each other when there is room, one above the other when not, in one scroll box.

    Side by side, both previews have equal headers and equal row heights, so one scroll box keeps
    line n of A level with line n of B (no script is needed to scroll them together). Each pane
    is at least `PANE_MIN_WIDTH` px wide: below twice that (plus the gap), B wraps under A. Long
    lines scroll sideways inside their pane, never push the other one out of the output.
    """

    def column(side: str, preview: Preview, settings: Mapping[str, Any]) -> str:
        label = escape(settings_text({**engine.Settings().chunking(), **settings}))
        return (
            f'<div data-side="{side}" style="flex:1 1 {PANE_MIN_WIDTH}px;min-width:0;max-width:100%">'
            # One line, cut if need be, as the previews' own headers: rows side by side stay level.
            f'<div title="{label}" style="{UI_FONT};margin:2px 0 4px;white-space:nowrap;overflow:hidden;'
            f'text-overflow:ellipsis"><b>{side}</b> · {label}</div>{preview.still_html}</div>'
        )

    return (
        f'<div data-clanka="compare" style="{FILL_WIDTH};display:flex;flex-wrap:wrap;gap:8px;'
        f'align-items:flex-start;max-height:{height}px;overflow:auto">'
        f'{column("A", left, a)}{column("B", right, b)}</div>'
    )


class Compare(widgets.VBox):
    """Settings A and B on the same codebase: side-by-side previews and the declarations that change.

    Each side may also set `languages` ("clanka" or "extended"), e.g. to see what extended mode
    changes in a Python codebase. State: `.a`, `.b` (the settings), `.frame_a`, `.frame_b` (all
    chunks), `.changes` (every changed declaration), `.frame` (the changes of the shown file),
    `.left`, `.right` (the `Preview`s; None when the codebase has no file with lines),
    `.html`. Control: `file_picker` (files labelled with their number of changes).
    """

    def __init__(
        self, codebase: engine.Codebase, a: Mapping[str, Any] | None, b: Mapping[str, Any] | None, path: str | None
    ) -> None:
        self.codebase = codebase
        self.texts = Texts(codebase=codebase, languages=codebase.languages)
        self.a, self.b = _settings("a", a), _settings("b", b)
        files = [p for p in codebase.files if (t := codebase.text(p)) is not None and t.lines]
        if path is not None:
            path = pickable(codebase, path, files)  # before chunking twice
        self.frame_a, self.frame_b = _chunk_frame(codebase, self.a), _chunk_frame(codebase, self.b)
        self.changes = declaration_changes(self.frame_a, self.frame_b)
        counts = self.changes["path"].value_counts()
        options = [(f"{p}  ({counts.get(p, 0)} changed)", p) for p in files]
        if path is None:
            path = str(counts.index[0]) if len(counts) else (files[0] if files else None)
        self.file_picker = widgets.Dropdown(
            options=options, value=path, description="file", layout=widgets.Layout(width="520px")
        )
        self.summary = widgets.HTML()
        self.view = widgets.HTML()
        self.file_picker.observe(lambda _: self.show(), "value")
        super().__init__([self.file_picker, self.summary, self.view])
        self.add_class("clanka-compare")
        self.show()

    def show(self) -> None:
        """Render the picked file under both settings and its changed declarations."""
        path = self.file_picker.value
        self.frame = self.changes[self.changes["path"] == path].reset_index(drop=True)
        if path is None:
            self.left = self.right = None
            self.summary.value = f'<div style="{UI_FONT};color:{MUTED}">The codebase has no file with lines.</div>'
            self.view.value = ""
            return
        previews = []
        for chunks in (self.frame_a, self.frame_b):
            file_chunks = chunks[(chunks["path"] == path).to_numpy(dtype=bool)]
            lines, flags, note = file_lines(self.texts, path, file_chunks)
            preview = Preview(
                lines, file_chunks, path=path, language=engine.language_of(path), meaningful=flags, note=note,
                height=None, full_legend=True,
            )  # fmt: skip
            previews.append(preview)
        self.left, self.right = previews
        declared = len(_ranges(pd.concat([self.frame_a, self.frame_b])))
        changed_files = self.changes["path"].nunique()
        self.summary.value = (
            f'<div style="{UI_FONT}"><b>{len(self.changes):,}</b> of {declared:,} declarations change chunks, '
            f"in {changed_files:,} file{'s' * (changed_files != 1)} · A: {len(self.frame_a):,} chunks · "
            f"B: {len(self.frame_b):,} chunks<br><b>{escape(path)}</b>: {len(self.frame):,} changed</div>"
            f"{render_changes(self.frame)}"
        )
        self.view.value = render_side_by_side(self.left, self.right, self.a, self.b)

    def __repr__(self) -> str:
        return f"Compare(a={self.a}, b={self.b}: {len(self.changes):,} declarations change chunks)"

    @property
    def html(self) -> str:
        return self.summary.value + self.view.value

    def _repr_html_(self) -> str:
        return self.html


@OPENING
def compare(
    source: Source = None,
    path: str | None = None,
    *,
    a: Mapping[str, Any] | None = None,
    b: Mapping[str, Any] | None = None,
    **settings: Unpack[SourceSettings],
) -> Compare:
    """Compare chunk settings `a` and `b` (dicts of chunk_size, chunk_overlap, chunk_max_characters,
    languages): `compare(src, a={"languages": "clanka"}, b={"languages": "extended"})` shows what
    extended mode changes.

    `source` is a folder, one file, an `engine.Codebase` or a chunk frame (its codebase; its chunk
    settings are both sides' defaults); the sample when None. `path` is the file shown first (default:
    the one with the most changes); `settings` (languages, max_file_size, workers) open the source.
    """
    given = OPENING.read(settings)
    check_early(source, path)
    codebase, opened = open_source(source, given, progress=False)
    frame_own = opened.chunking() if isinstance(source, pd.DataFrame) else {}
    return Compare(codebase, {**frame_own, **(a or {})}, {**frame_own, **(b or {})}, path)

