"""The inline boundary view: `Preview` renders without a kernel, `PreviewPane` is its paged widget."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any, Unpack

import ipywidgets as widgets
import pandas as pd

from .. import engine
from ..engine.internals import check_file
from ..engine.settings import Settings, SourceKeywords, TextKeywords, checked_init, setting_keywords
from ..engine.source import narrowed, open_resolved, resolve
from ..frames.chunks import chunk_frame
from ._bands import LINE_WINDOW
from ._export import page, save_view
from ._render import (
    BY_ARGUMENT,
    BY_BUTTONS,
    EARLIER_LINES,
    LATER_LINES,
    MAX_LINES,
    NO_TURNS,
    STILL_LINES,
    PageTurns,
    check_page,
    render_preview,
)
from ._slide import SLIDE_LINES, Slide, render_svg, slide_of, write_png
from ._source import Source, Texts, busiest_file, file_lines, inside_root, open_chunks

HEIGHT = 560  # px: a preview scrolls inside the notebook instead of making the page very long


@checked_init
class Preview:
    """One file with its chunk boundaries; shows itself as HTML (`_repr_html_`) with or without a kernel.

    State: `path`, `lines`, `frame` (the file's chunks), `start`, `max_lines` (a page: what a notebook saves of
    it), `html`; `height`
    is the px height of the scroll box holding the lines (None: as tall as the lines); `untyped` names its
    chunks with no type ("line window", clanka's; a peer chunker's own in a comparison, e.g. "astchunk chunk").
    `page(start)` returns the same preview from another line; `.widget` is a paged widget of it;
    `save("x.html")` writes the whole file as a page, `save("x.svg")` / `save("x.png")` the lines shown as a
    picture for a slide (`slide()`).

    Args:
        lines: The file's lines.
        frame: The file's chunks (a chunk frame).
        path: The file's path, as shown.
        language: Its language, for the highlighting; None: from the path.
        meaningful: One flag per line; None: the reference's rule.
        note: Shown above the lines (why a file has no chunks...); None: none.
        start: The first line shown.
        max_lines: How many lines are shown at a time.
        selected: The position of a chunk to outline; None: none.
        height: The px height of the scroll box holding the lines; None: as tall as the lines.
        full_legend: List every colour and mark, not only those shown.
        explain: `(frame, first, last)` -> the rows of `explain` for those lines; None: no explanation.
        untyped: The name of chunks with no type (clanka's line windows by default; a peer's own).
    """

    def __init__(
        self,
        lines: Sequence[str],
        frame: pd.DataFrame,
        *,
        path: str,
        language: str | None = None,
        meaningful: Sequence[bool] | None = None,
        note: str | None = None,
        start: int = 1,
        max_lines: int = MAX_LINES,
        selected: int | None = None,
        height: int | None = HEIGHT,
        full_legend: bool = False,
        explain: Callable[[pd.DataFrame, int, int], pd.DataFrame] | None = None,
        untyped: str = LINE_WINDOW,
    ) -> None:
        self.lines = list(lines)
        check_page(start, max_lines, len(self.lines))  # here, not first when shown
        self.frame = frame
        self.path = path
        self.language = language
        self.meaningful = None if meaningful is None else list(meaningful)
        self.note = note
        self.start = start
        self.max_lines = max_lines
        self.selected = selected
        self.height = height
        self.full_legend = full_legend
        self.untyped = untyped  # what its chunks with no type are: clanka's line windows, or a peer's chunks
        # The language mode its chunks were cut in, named in its header (the mode is never hidden): set by the view
        # that made it from what it resolved (a chunk frame's attrs are read once, by the resolver); None: not named.
        self.mode: str | None = None
        # Adds `why` to the chunks of the lines shown: a page of a long file explains its own chunks only.
        self._explain = explain
        self._widget: PreviewPane | None = None

    @cached_property
    def _shown_frame(self) -> pd.DataFrame:
        if self._explain is None:
            return self.frame
        return self._explain(self.frame, self.start, min(len(self.lines), self.start + self.max_lines - 1))

    def rendered_frame(self) -> pd.DataFrame:
        """The chunks shown, as a frame of its own for `render_preview`, which names the mode its attrs give in the
        header: the frame the preview was given keeps its attrs unread."""
        shown = pd.DataFrame(self._shown_frame)
        shown.attrs = {} if self.mode is None else {"languages": self.mode}
        return shown

    def _render(self, page_turns: PageTurns) -> str:
        return render_preview(
            self.lines, self.rendered_frame(), path=self.path, language=self.language, max_lines=self.max_lines,
            start=self.start, selected=self.selected, meaningful=self.meaningful, note=self.note, height=self.height,
            full_legend=self.full_legend, page_turns=page_turns, untyped=self.untyped,
        )  # fmt: skip

    @cached_property
    def html(self) -> str:
        """The preview as HTML; a long file's notices say which `start=` shows the next page."""
        return self._render(BY_ARGUMENT)

    @cached_property
    def still_html(self) -> str:
        """The same HTML for a view that cannot turn pages (compare): its notices give only the lines shown."""
        return self._render(NO_TURNS)

    @cached_property
    def pane_html(self) -> str:
        """The same HTML for the preview widget: its notices name the page buttons instead."""
        return self._render(BY_BUTTONS)

    def __repr__(self) -> str:
        return f"Preview({self.path!r}, lines={len(self.lines)}, chunks={len(self.frame)})"

    def _repr_html_(self) -> str:
        return self.html

    def page(self, start: int) -> Preview:
        """The same file shown from line `start`."""
        return self._copy(start=start, max_lines=self.max_lines, height=self.height)

    def _copy(self, *, start: int, max_lines: int, height: int | None) -> Preview:
        return Preview(
            self.lines, self.frame, path=self.path, language=self.language, meaningful=self.meaningful,
            note=self.note, start=start, max_lines=max_lines, selected=self.selected, height=height,
            full_legend=self.full_legend, explain=self._explain, untyped=self.untyped,
        ).in_mode(self.mode)

    def in_mode(self, mode: str | None) -> Preview:
        """This preview with the language mode its header names (`mode`); itself, for a maker's chained call."""
        self.mode = mode
        return self

    def in_view(self, lines: int = STILL_LINES) -> Preview:
        """The same file from the same line, `lines` at most: what a widget's still picture holds (about what its
        scroll box shows), its notices saying how to see more.

        Args:
            lines: How many lines at most.

        Returns:
            The shorter preview.
        """
        return self._copy(start=self.start, max_lines=min(self.max_lines, lines), height=self.height)

    def whole(self) -> Preview:
        """The same file with every line on one page (what an exported page shows), as tall as its lines."""
        return self._copy(start=1, max_lines=max(1, len(self.lines)), height=None)

    def page_html(self) -> str:
        """The whole file as one self-contained page: every line, and every band with its hover text."""
        return page(self.path, self.whole().still_html)

    def slide(self, lines: int = SLIDE_LINES) -> Slide:
        """The lines shown (from `start`, `lines` at most) laid out as a picture for a slide.

        Args:
            lines: How many lines at most.

        Returns:
            The layout, which `save` writes as SVG or PNG.
        """
        return slide_of(self, lines=lines)

    def save(self, path: str | os.PathLike[str], *, theme: str = "light") -> Path:
        """Write the preview: `.html` the whole file as a self-contained page; `.svg` or `.png` the lines shown.

        Args:
            path: The file to write; its suffix picks the format (.html, .svg or .png).
            theme: A picture's colours, "light" or "dark" (a page follows the reader's system, or its button).

        Returns:
            The path written.

        Raises:
            ValueError: Another suffix, or another theme.
        """
        return save_view(
            path, view="preview", html=self.page_html, svg=lambda t: render_svg(self.slide(), t),
            png=lambda t, p: write_png(self.slide(), t, p), theme=theme,
        )  # fmt: skip

    @property
    def widget(self) -> PreviewPane:
        """This preview as a widget, with page buttons when the file is longer than a page."""
        if self._widget is None:
            self._widget = PreviewPane()
            self._widget.show(self)
        return self._widget


class PreviewPane(widgets.VBox):
    """Shows a `Preview` in an HTML widget, with previous/next page buttons for long files.

    State: `.preview` (the `Preview` shown, or None) and `.html` (the HTML widget).

    Args:
        **kwargs: ipywidgets' own keywords of a `VBox` (layout...).
    """

    def __init__(self, **kwargs: Any) -> None:
        self.preview: Preview | None = None
        self.html = widgets.HTML()
        self.prev_button = widgets.Button(description=EARLIER_LINES, layout=widgets.Layout(width="130px"))
        self.next_button = widgets.Button(description=LATER_LINES, layout=widgets.Layout(width="130px"))
        self.prev_button.on_click(lambda _: self.turn(-1))
        self.next_button.on_click(lambda _: self.turn(1))
        self.pager = widgets.HBox([self.prev_button, self.next_button], layout=widgets.Layout(display="none"))
        super().__init__([self.pager, self.html], **kwargs)

    def __repr__(self) -> str:
        return f"PreviewPane({self.preview!r})"

    def show(self, preview: Preview | None) -> None:
        self.preview = preview
        # contain:inline-size: the preview takes the pane's width and scrolls its long lines inside, instead
        # of widening the pane (and the notebook's output area) to its longest line.
        self.html.value = "" if preview is None else f'<div style="contain:inline-size">{preview.pane_html}</div>'
        paged = preview is not None and (preview.start > 1 or len(preview.lines) > preview.max_lines)
        self.pager.layout.display = "flex" if paged else "none"
        if preview is not None:
            self.prev_button.disabled = preview.start <= 1
            self.next_button.disabled = preview.start + preview.max_lines > len(preview.lines)

    def turn(self, pages: int) -> None:
        """Move `pages` pages down (negative: up) in a long file."""
        if self.preview is None:
            return
        start = self.preview.start + pages * self.preview.max_lines
        self.show(self.preview.page(max(1, min(len(self.preview.lines), start))))


def _has_lines(codebase: engine.Codebase, path: str) -> bool:
    text = codebase.text(path)
    return text is not None and bool(text.lines)


def _preview_of(
    frame: pd.DataFrame, texts: Texts, path: str, *, start: int, max_lines: int, cut: engine.ChunkSettings | None,
    selected: int | None = None,
) -> Preview:
    """The preview of `path` among `frame`'s chunks; `cut`, the settings they were cut at, gives each shown chunk's
    `why` (None: no `why`): a frame made here says them in its attrs, a user's frame in what its one read said."""
    path = path.replace("\\", "/")
    chunks = frame[(frame["path"] == path).to_numpy(dtype=bool)]
    lines, flags, note = file_lines(texts, path, chunks)
    return Preview(
        lines, chunks, path=path, language=engine.language_of(path), meaningful=flags, note=note,
        start=start, max_lines=max_lines, selected=selected,
        explain=lambda shown, first, last: _with_why(shown, texts, path, first, last, cut),
    ).in_mode(texts.languages)  # fmt: skip


def _with_why(
    chunks: pd.DataFrame, texts: Texts, path: str, first: int, last: int, cut: engine.ChunkSettings | None
) -> pd.DataFrame:
    """The file's chunks with `why` (engine.explain_file, at `cut`, the settings they were cut at) for those on
    lines `first`-`last` (the page shown, for the bands' hover text and the side panel); None for the others,
    which the page does not show."""
    text = texts.text(path)
    settings = None if "why" in chunks.columns else cut
    if settings is None or text is None:
        return chunks
    # Matched by lines and metadata, so a filtered frame (the browser's) still finds its rows' reasons.
    reasons = {
        (e.chunk.start_line, e.chunk.end_line, e.chunk.name, e.chunk.type, e.chunk.parent): e.why
        for e in engine.explain_file(text, settings, lines=(first, last))
    }
    on_page = ((chunks["start_line"] <= last) & (chunks["end_line"] >= first)).to_numpy(dtype=bool)
    page = chunks[on_page]
    columns = [
        [None if pd.isna(v) else v for v in page[c].tolist()] if c in page else [None] * len(page)
        for c in ("start_line", "end_line", "name", "type", "parent")
    ]
    why = pd.Series(pd.NA, index=chunks.index, dtype="string")
    why[on_page] = [reasons.get(row) for row in zip(*columns, strict=True)]
    return chunks.assign(why=why)


@setting_keywords
def preview(
    source: Source = None,
    path: str | None = None,
    *,
    start: int = 1,
    max_lines: int = MAX_LINES,
    settings: Settings | None = None, **given: Unpack[SourceKeywords],
) -> Preview:
    """One file of `source` with its chunk boundaries (a `Preview`: shows as HTML, `.widget` for paging).

    `source` is a folder, one file, an `engine.Codebase`, a chunk frame (shown as it is when no
    setting is given) or None for the sample; `path` is relative to its root (default: the
    file with the most declarations that no tool generated). Long files are shown `max_lines` lines at a time
    from `start`.

    Args:
        source: A folder, one file, an `engine.Codebase`, a chunk frame, or None for the sample codebase.
        path: The file, relative to the source's root; None: the file with the most declarations that no tool generated.
        start: The first line shown.
        max_lines: How many lines are shown at a time.

    Returns:
        The preview: shows as HTML in a notebook, `.widget` for paging.

    Examples:
        >>> cn.preview("my-repo", "src/app.ts", chunk_size=20)
    """
    settings = Settings(**given).over(settings)
    if isinstance(source, pd.DataFrame) and not settings.passed:
        viewed = open_chunks(source, settings)
        root = viewed.texts.root  # the frame's root, as the one reader of its attrs gave it
        path = inside_root(path, None if root is None else str(root)) or busiest_file(viewed.frame, viewed.texts)
        if path is None:
            msg = "the chunk frame has no rows, so no file to preview; pass preview(frame, path) or a frame with chunks"
            raise ValueError(msg)
        said = viewed.said.settings if viewed.said is not None else {}
        return _preview_of(viewed.frame, viewed.texts, path, start=start, max_lines=max_lines,
                           cut=engine.ChunkSettings.of_attrs(said))  # fmt: skip
    resolved = resolve(source, settings)
    if path is not None and resolved.codebase is None and resolved.names is None:
        # One file asked for: parse only that file, not the whole folder.
        check_file(resolved.root, path)  # MissingFileError naming the path, the root and the fix
        codebase, opened = open_resolved(narrowed(resolved, [path]))
        if codebase.report(path).status is engine.FileStatus.NOT_INDEXED:
            msg = f"{path!r} is not a file the reference indexes (see engine.is_meaningful_file)"
            raise KeyError(msg)
    else:
        codebase, opened = open_resolved(resolved)
    frame = chunk_frame(codebase, None, opened)
    texts = Texts(codebase=codebase, languages=codebase.languages)
    if path is None:
        path = busiest_file(frame, texts) or next((p for p in codebase.files if _has_lines(codebase, p)), None)
        if path is None:
            msg = f"{codebase!r} has no file with lines to preview"
            raise ValueError(msg)
    else:
        # MissingFileError naming the path when it is not in the codebase; an absolute path becomes its listed name.
        path = codebase.report(path).path
    return _preview_of(frame, texts, path, start=start, max_lines=max_lines,
                       cut=engine.ChunkSettings.of_attrs(frame.attrs))  # a frame made here: its own attrs


@setting_keywords
def preview_text(
    content: str | None = None,
    path: str = "snippet.ts",
    *,
    start: int = 1,
    max_lines: int = MAX_LINES,
    settings: Settings | None = None, **given: Unpack[TextKeywords],
) -> Preview:
    """The chunk boundaries of `content` as if it were the file `path` (its extension picks the parser).

    Args:
        content: The text (a str).
        path: The file name it stands for: its extension picks the parser.
        start: The first line shown.
        max_lines: How many lines are shown at a time.

    Returns:
        The preview: shows as HTML in a notebook, `.widget` for paging.

    Raises:
        TypeError: `content` is not a str (bytes: decode them first).

    Examples:
        >>> cn.preview_text("export const add = (a: number, b: number) => a + b;", "add.ts")
    """
    settings = Settings(**given).over(settings)
    if not isinstance(content, str):
        msg = f"content must be str, got {type(content).__name__}; decode bytes first (e.g. data.decode('utf-8'))"
        raise TypeError(msg)
    codebase = engine.Codebase.from_texts({path: content}, languages=settings.mode)
    frame = chunk_frame(codebase, None, settings)
    texts = Texts(codebase=codebase, languages=codebase.languages)
    return _preview_of(frame, texts, path, start=start, max_lines=max_lines,
                       cut=engine.ChunkSettings.of_attrs(frame.attrs))  # a frame made here: its own attrs
