"""Notebook viewers (ipywidgets): codebase browser, chunk-boundary preview, tuning panel, compare, search panel.

Nothing below this layer imports it. Every viewer keeps its state in public attributes and its
HTML comes from pure functions (`render_preview`, `render_table`, ...), so both are testable
without a browser; `Preview` also renders without a kernel (exported HTML, nbviewer, GitHub).
"""

from ..extras import require

# Before anything imports them: a missing library is one line naming the extra, not a traceback.
require("clanka_nb.widgets", "widgets", "pandas", "ipywidgets", "pygments")

from ._bands import assign_columns
from ._browser import Browser, browse
from ._compare import Compare, compare, declaration_changes
from ._preview import Preview, PreviewPane, preview, preview_text
from ._render import render_preview
from ._report import Report, report
from ._search import SearchPanel, render_hits, search_panel
from ._steps import StepThrough, step_through
from ._table import ChunkTable, render_table
from ._tune import Tuner, tune

__all__ = [
    "Browser",
    "ChunkTable",
    "Compare",
    "Preview",
    "PreviewPane",
    "Report",
    "SearchPanel",
    "StepThrough",
    "Tuner",
    "assign_columns",
    "browse",
    "compare",
    "declaration_changes",
    "preview",
    "preview_text",
    "render_hits",
    "render_preview",
    "render_table",
    "report",
    "search_panel",
    "step_through",
    "tune",
]
