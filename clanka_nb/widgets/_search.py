"""The search panel: a query box over a semantic index, the ranked hits, and the hit's chunk in its file."""

from __future__ import annotations

from html import escape
from pathlib import Path

import ipywidgets as widgets
import pandas as pd

from ..engine.settings import checked_init, checked_keywords
from ..index import IndexView
from ._preview import Preview, PreviewPane, preview
from ._style import MUTED, type_chip

_CELL = "padding:2px 8px;border:none;border-bottom:1px solid #eaeef2;white-space:nowrap;vertical-align:top"


@checked_keywords
def render_hits(hits: pd.DataFrame, selected: int | None = None) -> str:
    """The ranked hits as an HTML table: rank, distance, path:lines, type, name (inline styles).

    Args:
        hits: The search's hits (`SemanticIndex.search`).
        selected: The row to highlight; None: none.

    Returns:
        The HTML.
    """
    if hits.empty:
        return f'<div style="color:{MUTED};padding:4px">no hits</div>'
    head = "".join(f'<th style="{_CELL};text-align:left;background:#f6f8fa">{name}</th>'
                   for name in ("#", "distance", "where", "type", "name"))
    rows = []
    for rank, row in enumerate(hits.itertuples(index=False)):
        background = "#fff8c5" if rank == selected else "#fff"
        kind = None if pd.isna(row.type) else str(row.type)
        name = "" if pd.isna(row.name) else escape(str(row.name))
        where = escape(f"{row.path}:{row.start_line}-{row.end_line}")
        rows.append(
            f'<tr style="background:{background}"><td data-col="#" style="{_CELL};color:{MUTED}">{rank + 1}</td>'
            f'<td data-col="distance" style="{_CELL};text-align:right">{row.distance:.4f}</td>'
            f'<td data-col="where" style="{_CELL}"><code>{where}</code></td>'
            f'<td data-col="type" style="{_CELL}">{type_chip(kind)}</td><td data-col="name" style="{_CELL}">{name}</td>'
            "</tr>"
        )
    return (f'<table class="clanka-hits" style="border-collapse:collapse;font-size:12px"><thead><tr>{head}</tr>'
            f"</thead><tbody>{''.join(rows)}</tbody></table>")


@checked_init
class SearchPanel(widgets.VBox):
    """Query box, ranked hits with distance, and the preview of the picked hit's chunk boundaries.

    State: `index`, `hits` (the last search's DataFrame), `selected` (row of `hits` shown) and the
    widgets `query`, `limit`, `results`, `pick`, `pane`. `search(text)` runs a query as the box does.

    Args:
        index: A `SemanticIndex`, or an index opened with `open_index(..., embed=...)`.
        limit: How many hits are shown.
        query: The query the box starts with.
    """

    def __init__(self, index: IndexView, *, limit: int = 10, query: str = "") -> None:
        self.index = index
        self.hits = pd.DataFrame()
        self.selected: int | None = None
        self.query = widgets.Text(value=query, placeholder="search the index...", continuous_update=False,
                                  layout=widgets.Layout(width="420px"))
        self.limit = widgets.BoundedIntText(value=limit, min=1, max=100, description="hits",
                                            layout=widgets.Layout(width="130px"))
        self.button = widgets.Button(description="search", button_style="primary", layout=widgets.Layout(width="90px"))
        self.status = widgets.HTML()
        self.results = widgets.HTML()
        self.pick = widgets.Dropdown(options=[], description="show", layout=widgets.Layout(width="520px"))
        self.pane = PreviewPane()
        self.button.on_click(lambda _: self.search(self.query.value))
        self.query.observe(lambda change: self.search(change["new"]), names="value")
        self.pick.observe(lambda change: self.show(change["new"]), names="value")
        super().__init__([widgets.HBox([self.query, self.limit, self.button]), self.status, self.results, self.pick,
                          self.pane])
        self.add_class("clanka-search")
        if query:
            self.search(query)

    def __repr__(self) -> str:
        return f"SearchPanel({self.index!r}, hits={len(self.hits)})"

    def search(self, text: str) -> pd.DataFrame:
        """Run `text` against the index; shows the hits and the best hit's chunk."""
        if not text.strip():
            return self.hits
        try:
            self.hits = self.index.search(text, limit=int(self.limit.value))
        except ValueError as error:
            self.status.value = f'<span style="color:#cf222e">{escape(str(error))}</span>'
            return self.hits
        self.status.value = f'<span style="color:{MUTED}">{len(self.hits)} hits for {escape(text)!r}</span>'
        self.pick.options = [(f"{i + 1}. {row.path}:{row.start_line}-{row.end_line}", i)
                             for i, row in enumerate(self.hits.itertuples(index=False))]
        self.show(0 if len(self.hits) else None)
        return self.hits

    def show(self, position: int | None) -> None:
        """Outline hit `position` (a row of `hits`) in its file."""
        self.selected = position
        self.results.value = render_hits(self.hits, position)
        if position is None or position >= len(self.hits):
            self.pane.show(None)
            return
        if self.pick.value != position:
            self.pick.value = position
        self.pane.show(self._preview(self.hits.iloc[position]))

    def _preview(self, hit: pd.Series) -> Preview:
        root = getattr(self.index, "root", None)
        settings = getattr(self.index, "settings", {})
        path, start, end = str(hit["path"]), int(hit["start_line"]), int(hit["end_line"])
        if root is not None and (Path(root) / path).is_file():
            whole = preview(root, path, **settings)
            match = whole.frame.reset_index(drop=True)
            found = match.index[(match["start_line"] == start) & (match["end_line"] == end)].tolist()
            return Preview(whole.lines, whole.frame, path=path, language=whole.language, meaningful=whole.meaningful,
                           note=whole.note, start=max(1, start - 3), selected=found[0] if found else None)
        # No source folder (an index opened without root=): the stored chunk alone, at its own lines.
        lines = str(hit["content"]).split("\n")
        frame = pd.DataFrame([{"path": path, "start_line": 1, "end_line": len(lines), "name": hit["name"],
                               "type": hit["type"], "parent": hit["parent"]}])
        return Preview(lines, frame, path=path, note=f"lines {start}-{end} as stored in the index (no root= given)",
                       selected=0)


@checked_keywords
def search_panel(index: IndexView, *, limit: int = 10, query: str = "") -> SearchPanel:
    """A search box over a `SemanticIndex` (or an `open_index(..., embed=...)`): hits, distances, the hit's chunk.

    Args:
        index: A `SemanticIndex`, or an index opened with `open_index(..., embed=...)`.
        limit: How many hits are shown.
        query: The query the box starts with.

    Returns:
        The search panel widget.

    Raises:
        TypeError: `index` is not an index (`SemanticIndex`, `open_index`).

    Examples:
        >>> index = cn.SemanticIndex("my-repo", embed=cn.embedders.hashed_words())
        >>> cn.search_panel(index, query="parse the config")
    """
    if not isinstance(index, IndexView):
        msg = f"search_panel takes a cn.SemanticIndex or cn.open_index(...), got {type(index).__name__}"
        raise TypeError(msg)
    return SearchPanel(index, limit=limit, query=query)
