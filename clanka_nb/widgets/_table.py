"""A paged, sortable chunk table: pure HTML for one page, and the widget with its page and sort controls."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

import ipywidgets as widgets
import numpy as np
import pandas as pd

from ..engine.settings import checked_init, checked_keywords
from ._paths import TABLE_PATH_CHARS, fit_paths
from ._style import FONT, MUTED, PAPER, RULE, SELECTED, SURFACE, TEXT, UI_FONT, type_chip

TABLE_COLUMNS = ("path", "start_line", "end_line", "type", "name", "parent", "lines", "characters")
SORTABLE = ("path", "start_line", "lines", "characters", "type", "name", "parent", "language")
ENGINE_ORDER = "engine order"
_PICK = "— pick a row to see it in its file —"  # the row picker's "nothing chosen" entry (value -1)
_HEADINGS = {"start_line": "start", "end_line": "end"}
_COMMENT_STARTS = ("//", "/*", "*")  # a doc comment says less about a chunk than its first statement
_NUMERIC = frozenset({"start_line", "end_line", "lines", "characters"})
# Fixed widths of the short columns; the text columns (path, name, parent, first line) share the rest.
# The path gets a larger share than the other text columns: about TABLE_PATH_CHARS characters at 1,000 px.
_WIDTHS = {"#": "3.5em", "start_line": "4.5em", "end_line": "4.5em", "lines": "4.5em", "characters": "6.5em",
           "type": "7.5em", "language": "7em", "path": "24%"}  # fmt: skip


def _missing(value: Any) -> bool:
    return value is None or value is pd.NA or (isinstance(value, float) and value != value)


def _first_line(content: Any, width: int = 60) -> str:
    """The chunk's first line of code (past blank lines and C-style comments), shortened."""
    if _missing(content):
        return ""
    lines = [line.strip() for line in str(content).split("\n") if line.strip()]
    line = next((line for line in lines if not line.startswith(_COMMENT_STARTS)), lines[0] if lines else "")
    return line if len(line) <= width else line[: width - 1] + "…"


@checked_keywords
def render_table(
    page: pd.DataFrame,
    *,
    offset: int = 0,
    total: int | None = None,
    selected: int | None = None,
    columns: Sequence[str] = TABLE_COLUMNS,
    paths: Mapping[str, str] | None = None,
) -> str:
    """One page of chunk rows as an HTML table (inline styles; each cell has `data-col`).

    `offset` is the position of the page's first row among all `total` rows, so the "#" column
    counts from there; `selected` is a position among all rows, drawn highlighted.

    Args:
        page: The rows of the page.
        offset: The position of the page's first row among all rows.
        total: How many rows there are in all; None: the page's.
        selected: A position among all rows, drawn highlighted; None: none.
        columns: The columns shown.
        paths: How each path is shown (`fit_paths`: cut in the middle, the file name whole); None: the fit of
            the page's own paths.

    Returns:
        The HTML.
    """
    total = len(page) if total is None else total
    shown = [c for c in columns if c in page.columns]
    # Alignment and borders stated on every cell: notebook front ends restyle bare tables. A fixed layout
    # at the output's width: the text columns share what the numbers leave, and a long path or name ends
    # in an ellipsis (whole in the cell's title) instead of pushing the table past a narrow output area.
    cell = (
        # The rule and the muted colour are variables of the table's root: every cell of every row names them.
        "padding:2px 8px;border:none;border-bottom:1px solid var(--cn-rule);white-space:nowrap;vertical-align:top;"
        "overflow:hidden;text-overflow:ellipsis"
    )
    widths = "".join(f'<col style="width:{_WIDTHS[c]}">' if c in _WIDTHS else "<col>" for c in ("#", *shown))
    head = "".join(
        f'<th style="{cell};text-align:{"right" if c in _NUMERIC else "left"};background:{SURFACE}">'
        f"{escape(_HEADINGS.get(c, c))}</th>"
        for c in ("#", *shown, "first line")
    )
    values = {c: page[c].tolist() for c in shown}
    if "path" in values and paths is None:
        paths = fit_paths((str(p) for p in values["path"] if not _missing(p)), TABLE_PATH_CHARS)
    contents = page["content"].tolist() if "content" in page.columns else [None] * len(page)
    rows = []
    for i in range(len(page)):
        position = offset + i
        background = f"background:{SELECTED if position == selected else PAPER}"
        cells = [f'<td data-col="#" style="{cell};text-align:right;color:var(--cn-muted)">{position + 1}</td>']
        for c in shown:
            value = values[c][i]
            if c == "type":
                text = type_chip(None if _missing(value) else str(value))
            elif _missing(value):
                text = '<span style="color:var(--cn-muted)">–</span>'
            elif c == "path" and paths is not None:
                # Cut in the middle already; narrower still, the cell cuts at its left (right to left, the text
                # isolated in <bdi> so its slashes stay in place), so the file name always shows.
                text = f"<bdi>{escape(paths.get(str(value), str(value)))}</bdi>"
            else:
                text = escape(f"{value:,}" if c in {"lines", "characters"} else str(value))
            align = "text-align:right;" if c in _NUMERIC else "text-align:left;"
            if c == "path":
                align += "direction:rtl;"
            title = "" if c in _NUMERIC or c == "type" or _missing(value) else f' title="{escape(str(value))}"'
            cells.append(f'<td data-col="{c}"{title} style="{cell};{align}">{text}</td>')
        first = escape(_first_line(contents[i]))
        style = f"{cell};text-align:left;{FONT};color:var(--cn-muted)"
        cells.append(f'<td data-col="first line" title="{first}" style="{style}">{first}</td>')
        rows.append(f'<tr data-row="{position}" style="{background}">{"".join(cells)}</tr>')
    if not rows:
        colspan = len(shown) + 2
        rows.append(f'<tr><td colspan="{colspan}" style="{cell};color:{MUTED}">No chunks match the filters.</td></tr>')
    return (
        f'<div data-clanka="table" data-total="{total}" style="{UI_FONT};overflow-x:auto;color:{TEXT};'
        f"--cn-rule:{RULE};--cn-muted:{MUTED};"
        f'background:{PAPER}"><table style="border-collapse:collapse;width:100%;table-layout:fixed;margin:0">'
        f"<colgroup>{widths}<col></colgroup><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


# The longest declaration name in the row picker, whose entries also hold the path.
_PICKED_NAME = 32


def _row_label(position: int, row: Any, paths: Mapping[str, str]) -> str:
    kind = row.type if not _missing(row.type) else "lines"
    name = "" if _missing(row.name) else str(row.name)
    name = f" {name if len(name) <= _PICKED_NAME else name[: _PICKED_NAME - 1] + '…'}" if name else ""
    where = paths.get(str(row.path), str(row.path))
    return f"#{position + 1} {kind}{name} · {where}:{row.start_line}–{row.end_line}"


@checked_init
class ChunkTable(widgets.VBox):
    """Pages through rows of a chunk frame given as positions, sorted by a column.

    State: `.positions` (row positions of the data, filtered and sorted), `.page` (0-based),
    `.frame` (the rows on the current page), `.selected` (position among `.positions` or None).
    Controls: `sort_by`, `descending`, `prev_button`, `next_button`, `row_picker`.

    Args:
        data: The chunk frame.
        page_size: Rows per page.
        on_select: Called with a row's position when one is picked; None: nothing.
    """

    def __init__(self, data: pd.DataFrame, *, page_size: int = 15, on_select: Callable[[int], None] | None = None):
        self.data = data
        self.page_size = page_size
        self.on_select = on_select
        self._base = np.arange(len(data))
        self.positions = self._base
        self.page = 0
        self.selected: int | None = None
        self._mask: np.ndarray | None = None
        self._ranks: dict[tuple[str, bool], np.ndarray] = {}
        self._paths: dict[str, str] | None = None
        sortable = [c for c in SORTABLE if c in data.columns]
        self.sort_by = widgets.Dropdown(
            options=[ENGINE_ORDER, *sortable], value=ENGINE_ORDER, description="sort by",
            layout=widgets.Layout(width="210px"),
        )  # fmt: skip
        self.descending = widgets.ToggleButton(
            value=False, description="descending", icon="sort-amount-desc", layout=widgets.Layout(width="120px")
        )
        self.prev_button = widgets.Button(description="◀ previous", layout=widgets.Layout(width="100px"))
        self.next_button = widgets.Button(description="next ▶", layout=widgets.Layout(width="90px"))
        self.page_label = widgets.HTML()
        self.row_picker = widgets.Dropdown(
            options=[(_PICK, -1)], value=-1, description="show",
            layout=widgets.Layout(width="auto", min_width="0"),
        )  # fmt: skip
        self.html = widgets.HTML()
        self._syncing = False
        self.sort_by.observe(self._on_sort, "value")
        self.descending.observe(self._on_sort, "value")
        self.prev_button.on_click(lambda _: self.go(self.page - 1))
        self.next_button.on_click(lambda _: self.go(self.page + 1))
        self.row_picker.observe(self._on_pick, "value")
        bar = widgets.HBox(
            [self.sort_by, self.descending, self.prev_button, self.next_button, self.page_label],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
        )
        super().__init__([bar, self.html, self.row_picker])

    def __repr__(self) -> str:
        return f"ChunkTable({len(self.positions):,} rows, page {self.page + 1} of {self.pages})"

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.positions) // self.page_size))

    @property
    def frame(self) -> pd.DataFrame:
        """The rows on the current page, in the shown order."""
        first = self.page * self.page_size
        return self.data.iloc[self.positions[first : first + self.page_size]]

    @property
    def paths(self) -> dict[str, str]:
        """How each path is shown (`fit_paths` over every file of the data, so a file reads the same on every
        page and in the row picker); made when first asked for."""
        if self._paths is None:
            column = self.data["path"] if "path" in self.data.columns else pd.Series([], dtype=object)
            self._paths = fit_paths((str(p) for p in pd.unique(column.dropna())), TABLE_PATH_CHARS)
        return self._paths

    def show(self, mask: np.ndarray | None = None) -> None:
        """Show the rows where `mask` is true (all when None), sorted by the current sort, from page 1."""
        self._mask = mask
        order = self._order()
        self.positions = order if mask is None else order[mask[order]]
        self.page = 0
        self.selected = None
        self._render()

    def go(self, page: int) -> None:
        """Show page `page` (0-based; clamped to the pages there are)."""
        self.page = max(0, min(self.pages - 1, page))
        self._render()

    def select(self, position: int | None) -> None:
        """Choose the row at `position` among the shown rows (turning to its page), or none."""
        if position is not None and not 0 <= position < len(self.positions):
            msg = f"row {position} does not exist; there are {len(self.positions)} rows (0-based positions)"
            raise IndexError(msg)
        self.selected = position
        if position is not None:
            self.page = position // self.page_size
        self._render()
        if position is not None and self.on_select is not None:
            self.on_select(int(self.positions[position]))

    def _order(self) -> np.ndarray:
        column = self.sort_by.value
        if column == ENGINE_ORDER:
            return self._base[::-1].copy() if self.descending.value else self._base
        key = (column, self.descending.value)
        if key not in self._ranks:
            values = pd.Series(self.data[column].array)
            # Positions sorted by the column; missing values last either way; ties keep engine order.
            ordered = values.sort_values(ascending=not self.descending.value, kind="stable", na_position="last")
            self._ranks[key] = ordered.index.to_numpy()
        return self._ranks[key]

    def _on_sort(self, _change: Any) -> None:
        self.show(self._mask)

    def _on_pick(self, change: Any) -> None:
        if not self._syncing and change["new"] >= 0:
            self.select(change["new"])

    def _render(self) -> None:
        first = self.page * self.page_size
        page = self.frame
        self.html.value = render_table(
            page, offset=first, total=len(self.positions), selected=self.selected, paths=self.paths
        )
        self.prev_button.disabled = self.page == 0
        self.next_button.disabled = self.page >= self.pages - 1
        count = len(self.positions)
        self.page_label.value = (
            f'<span style="{UI_FONT};color:{MUTED};margin-left:8px">page {self.page + 1} of {self.pages} · '
            f"{count:,} row{'s' * (count != 1)}</span>"
        )
        options: list[tuple[str, int]] = [(_PICK, -1)]
        paths = self.paths
        rows = enumerate(page.itertuples(index=False))
        options += [(_row_label(first + i, row, paths), first + i) for i, row in rows]
        self._syncing = True
        try:
            self.row_picker.options = options
            shown = self.selected is not None and first <= self.selected < first + len(page)
            self.row_picker.value = self.selected if shown else -1
        finally:
            self._syncing = False
