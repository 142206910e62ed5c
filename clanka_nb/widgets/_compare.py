"""Two settings side by side: both previews of a file and which declarations change chunks."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

import ipywidgets as widgets
import pandas as pd

from .. import engine
from ..chunkers import Chunker
from ..defaults import MAX_FILE_SIZE
from ..engine.settings import Settings, checked_init, checked_keywords, setting_docs
from ..engine.source import open_source
from ._compare_model import CompareModel, declaration_changes, render_side_by_side, render_summary, side_text
from ._export import page, save_view
from ._preview import Preview
from ._render import EARLIER_LINES, LATER_LINES
from ._slide import SLIDE_LINES, Slide, render_svg, side_by_side, slide_of, write_png
from ._source import Source, check_early

__all__ = ["Compare", "CompareModel", "compare", "declaration_changes"]


@checked_init
class Compare(widgets.VBox):
    """Settings A and B on the same codebase: side-by-side previews and the declarations that change.

    Each side may also set `languages` ("clanka" or "extended"), e.g. to see what extended mode
    changes in a Python codebase. State, in `.model` (a `CompareModel`): `.model.a`, `.model.b` (the
    settings), `.model.frame_a`, `.model.frame_b` (all chunks), `.model.changes` (every changed
    declaration), `.model.frame` (the changes of the shown file). Shown here: `.left`, `.right` (the
    `Preview`s; None when the codebase has no file with lines), `.html`. Control: `file_picker` (files
    labelled with their number of changes), `prev_button` / `next_button` (a page of a long file: what a
    notebook saves of it; `save("x.html")` writes every line of the file, `save("x.svg")` / `.png` the lines
    shown, A beside B, for a slide).

    Args:
        codebase: The parsed codebase, or a `CompareModel`.
        a: One side: a dict of chunk settings (and `languages`) or a chunker; None: the defaults.
        b: The other side, as `a`.
        path: The file shown first; None: the one with the most changes.
    """

    def __init__(
        self,
        codebase: engine.Codebase | CompareModel,
        a: Mapping[str, Any] | Chunker | None = None,
        b: Mapping[str, Any] | Chunker | None = None,
        path: str | None = None,
    ) -> None:
        # The model holds the state; this widget holds the model and shows the file its picker names.
        self.model = codebase if isinstance(codebase, CompareModel) else CompareModel(codebase, a, b, path)
        self.file_picker = widgets.Dropdown(
            options=self.model.file_options(), value=self.model.path, description="file",
            layout=widgets.Layout(width="520px"),
        )  # fmt: skip
        self.summary = widgets.HTML()
        self.view = widgets.HTML()
        self.prev_button = widgets.Button(description=EARLIER_LINES, layout=widgets.Layout(width="130px"))
        self.next_button = widgets.Button(description=LATER_LINES, layout=widgets.Layout(width="130px"))
        self.prev_button.on_click(lambda _: self.turn(-1))
        self.next_button.on_click(lambda _: self.turn(1))
        self.pager = widgets.HBox([self.prev_button, self.next_button], layout=widgets.Layout(display="none"))
        self.file_picker.observe(lambda _: self._pick(), "value")
        super().__init__([self.file_picker, self.summary, self.pager, self.view])
        self.add_class("clanka-compare")
        self.show()

    def show(self) -> None:
        """Render the picked file under both settings and its changed declarations."""
        model = self.model
        model.path = self.file_picker.value
        previews = model.previews()
        self.left: Preview | None
        self.right: Preview | None
        self.left, self.right = (None, None) if previews is None else previews
        self.summary.value = render_summary(model, model.frame)
        self.view.value = "" if previews is None else render_side_by_side(*previews, model.a, model.b)
        total = 0 if previews is None else len(previews[0].lines)
        self.pager.layout.display = "flex" if previews is not None and total > previews[0].max_lines else "none"
        if previews is not None:
            self.prev_button.disabled = previews[0].start <= 1
            self.next_button.disabled = previews[0].start + previews[0].max_lines > total

    def _pick(self) -> None:
        self.model.start = 1
        self.show()

    def turn(self, pages: int) -> None:
        """Move `pages` pages down (negative: up) in a long file, both sides together.

        Args:
            pages: How many pages; negative: towards the top.
        """
        if self.left is None:
            return
        start = self.left.start + pages * self.left.max_lines
        self.model.start = max(1, min(len(self.left.lines), start))
        self.show()

    def page_html(self) -> str:
        """The file shown, every line of it under A and B, with the changes: one self-contained page."""
        previews = self.model.previews(whole=True)
        shown = "" if previews is None else render_side_by_side(*previews, self.model.a, self.model.b, height=None)
        title = f"{self.model.path or 'no file'}: A and B"
        return page(title, render_summary(self.model, self.model.frame) + shown)

    def slide(self, lines: int = SLIDE_LINES) -> Slide:
        """The lines shown under A beside those under B, each headed with its side, laid out for a slide.

        Args:
            lines: How many lines at most.

        Returns:
            The layout, which `save` writes as SVG or PNG.

        Raises:
            ValueError: The codebase has no file with lines.
        """
        if self.left is None or self.right is None:
            msg = "the codebase has no file with lines, so there is nothing to draw; compare a source with code"
            raise ValueError(msg)
        # Each side's own language mode, as the comparison's own headers say it (`side_text`).
        a = f"A · {side_text(self.model.a, self.left.mode)}"
        b = f"B · {side_text(self.model.b, self.right.mode)}"
        return side_by_side(slide_of(self.left, header=a, lines=lines), slide_of(self.right, header=b, lines=lines))

    def save(self, path: str | os.PathLike[str], *, theme: str = "light") -> Path:
        """Write the comparison: `.html` the file shown, every line, as a page; `.svg` / `.png` the lines shown.

        Args:
            path: The file to write; its suffix picks the format (.html, .svg or .png).
            theme: A picture's colours, "light" or "dark" (a page follows the reader's system, or its button).

        Returns:
            The path written.

        Raises:
            ValueError: Another suffix, or another theme.
        """
        return save_view(
            path, view="comparison", html=self.page_html, svg=lambda t: render_svg(self.slide(), t),
            png=lambda t, p: write_png(self.slide(), t, p), theme=theme,
        )  # fmt: skip

    def __repr__(self) -> str:
        return repr(self.model)

    @property
    def html(self) -> str:
        return cast("str", self.summary.value + self.view.value)

    def _repr_html_(self) -> str:
        """A still picture of the comparison, for where widgets do not run (nbviewer, GitHub): the lines in view."""
        if self.left is None or self.right is None:
            return self.html
        model = self.model
        sides = render_side_by_side(self.left.in_view(), self.right.in_view(), model.a, model.b)
        return str(self.summary.value) + sides


@checked_keywords
@setting_docs
def compare(
    source: Source = None,
    path: str | None = None,
    *,
    a: Mapping[str, Any] | Chunker | None = None,
    b: Mapping[str, Any] | Chunker | None = None,
    languages: str | None = None, max_file_size: str | int = MAX_FILE_SIZE, workers: int | None = None,
) -> Compare:
    """Compare chunk settings `a` and `b` (dicts of chunk_size, chunk_overlap, chunk_max_characters,
    languages): `compare(src, a={"languages": "clanka"}, b={"languages": "extended"})` shows what
    extended mode changes. Either side may be a whole chunker instead (an adapter of `clanka_nb.chunkers` or
    any callable `(path, text)` -> spans): `compare(src, a={"chunk_size": 30}, b=cn.chunkers.astchunk())` shows
    clanka's boundaries and astchunk's on the same file, a chunker's frame holding its cut of every file (the
    files it does not handle in clanka's line windows at the default settings, as in `sweep(chunkers=)`).

    `source` is a folder, one file, an `engine.Codebase` or a chunk frame (its codebase; its chunk
    settings are both sides' defaults); the sample when None. `path` is the file shown first (default:
    the one with the most changes); `settings` (languages, max_file_size, workers) open the source.

    Args:
        source: A folder, one file, an `engine.Codebase`, a chunk frame, or None for the sample codebase.
        path: The file shown first; None: the one with the most changes.
        a: One side: a dict of chunk settings (chunk_size, chunk_overlap, chunk_max_characters, languages) or a chunker.
        b: The other side, as `a`.

    Returns:
        The comparison widget: the files whose chunks differ, and each file's boundaries side by side.

    Examples:
        >>> cn.compare("my-repo", a={"languages": "clanka"}, b={"languages": "extended"})
    """
    settings = Settings(languages=languages, max_file_size=max_file_size, workers=workers).warned()
    check_early(source, path)
    codebase, opened = open_source(source, settings, progress=False)
    frame_own = opened.chunking() if isinstance(source, pd.DataFrame) else {}
    return Compare(codebase, _with_own(frame_own, a), _with_own(frame_own, b), path)


def _with_own(own: Mapping[str, Any], side: Mapping[str, Any] | Chunker | None) -> Mapping[str, Any] | Chunker:
    """A side's settings over the frame's own; a chunker as it is (it has sizes of its own)."""
    return {**own, **(side or {})} if side is None or isinstance(side, Mapping) else side

