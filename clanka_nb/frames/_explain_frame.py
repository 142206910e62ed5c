"""The frame `explain` returns: a DataFrame whose views show its `why` sentences whole and left-aligned.

pandas cuts a text cell at `display.max_colwidth` (50 characters) and JupyterLab right-aligns table cells, so
the one column `explain` exists for showed its first 50 characters against the right edge. Only the views
change: the data, dtypes and attrs are a plain DataFrame's, and every operation keeps the class (so a slice
of the columns still shows `why` whole).
"""

from __future__ import annotations

import itertools

import pandas as pd

_IDS = itertools.count()  # one CSS scope per rendering: two frames in one notebook never style each other


class ExplainFrame(pd.DataFrame):  # type: ignore[misc]  # pandas is untyped here (pyproject): Any to mypy
    """A DataFrame whose `why` column shows whole and left-aligned in a notebook and as text."""

    @property
    def _constructor(self) -> type[ExplainFrame]:
        return ExplainFrame

    def _repr_html_(self) -> str | None:
        with pd.option_context("display.max_colwidth", None):
            html: str | None = super()._repr_html_()
        if html is None or "why" not in self.columns:
            return html
        position = self.columns.get_loc("why")
        if not isinstance(position, int):  # a repeated column name: leave the view as pandas makes it
            return html
        scope = f"clanka-explain-{next(_IDS)}"
        # Data cells are counted among the row's td (the index is a th); the header row has the index's th first.
        style = (
            f"<style>.{scope} tbody td:nth-of-type({position + 1}), .{scope} thead th:nth-of-type({position + 2})"
            "{text-align: left; white-space: normal; min-width: 32em}</style>"
        )
        return f'{style}<div class="{scope}">{html}</div>'

    def __repr__(self) -> str:
        if "why" not in self.columns or not len(self) or not isinstance(self.columns.get_loc("why"), int):
            with pd.option_context("display.max_colwidth", None):
                return str(super().__repr__())
        width = int(self["why"].astype("string").fillna("<NA>").str.len().max())
        return str(self.to_string(
            formatters={"why": lambda text: f"{text!s:<{width}}"}, max_rows=pd.get_option("display.max_rows"),
            max_colwidth=None, justify="left", show_dimensions="truncate",
        ))  # fmt: skip
