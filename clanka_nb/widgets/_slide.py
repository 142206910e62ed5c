"""A picture of the lines a preview shows, for a slide: a pure function lays it out (`slide_of`, `side_by_side`),
then it is written as SVG (`render_svg`) or as PNG (`write_png`, drawn by matplotlib).

PNG is drawn by matplotlib, not by a browser: matplotlib is already a dependency of the viewers (through the
`frames` extra) and draws with the fonts it ships (DejaVu Sans Mono), so a PNG needs nothing downloaded and no
browser installed; Chromium (Playwright) is only the tests'. Both formats come from one layout, so they show
the same bands, lines and hover texts (the SVG's `<title>`s).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._bands import Band, assign_columns, coverage_counts, page_bands
from ._style import text_colour, type_colour

if TYPE_CHECKING:
    from ._preview import Preview

SLIDE_LINES = 40  # lines on one slide at most: 14px type stays legible on a projector
SLIDE_CHARS = 100  # characters of a line at most; longer ones end in "…"
FONT_PX = 14
ROW = 22  # px per line
CHAR = 0.61 * FONT_PX  # px per character of DejaVu Sans Mono (and Menlo, Consolas) at FONT_PX
BAND = 16  # px per gutter column
PAD = 12
HEADER = 30  # px above the first line
MONO = "DejaVu Sans Mono,Menlo,Consolas,monospace"
SANS = "DejaVu Sans,system-ui,Segoe UI,sans-serif"

# (paper, ink, muted, line of code in no chunk) per theme: ink on paper and muted on paper contrast >= 4.5.
THEME_COLOURS = {
    "light": ("#ffffff", "#1a1a1a", "#5c5c5c", "#f8d7da"),
    "dark": ("#111111", "#f0f0f0", "#a6a6a6", "#4a1d22"),
}


@dataclass(frozen=True)
class SlideText:
    """A run of text at its baseline: `role` is header, number, code or label (a band's, turned to read down)."""

    x: float
    y: float
    text: str
    role: str
    colour: str | None = None  # a label's (black or white on its band); None: the theme's


@dataclass(frozen=True)
class SlideBox:
    """A filled rectangle: a chunk's band (with its hover text) or the tint of a line of code in no chunk."""

    x: float
    y: float
    width: float
    height: float
    fill: str | None  # None: the theme's tint of a line in no chunk
    hover: str = ""


@dataclass(frozen=True)
class Slide:
    """The layout of a picture in px: its size, its boxes (drawn first) and its texts."""

    width: float
    height: float
    boxes: tuple[SlideBox, ...]
    texts: tuple[SlideText, ...]


def _band_box(band: Band, column: int, first: int, last: int, top: float, left: float, untyped: str) -> list[Any]:
    """The band of one chunk, cut to the lines shown, and its label written down it."""
    x = left + column * BAND
    y = top + (first - 1) * ROW + 2
    height = (last - first + 1) * ROW - 4
    box = SlideBox(x, y, BAND - 3, height, type_colour(band.type), band.describe(untyped))
    room = int((height - 6) / (0.62 * 10))
    label = band.label if len(band.label) <= room else band.label[: max(0, room - 1)] + "…"
    texts = [SlideText(x + 3, y + 4, label, "label", text_colour(band.type))] if room >= 2 else []
    return [box, *texts]


def slide_of(preview: Preview, *, header: str | None = None, lines: int = SLIDE_LINES) -> Slide:
    """The lines `preview` shows from its first (at most `lines`), numbered, with a band per chunk.

    Args:
        preview: The preview whose page is drawn.
        header: The text above the lines; None: the path and which lines of how many.
        lines: How many lines at most.

    Returns:
        The slide's layout.
    """
    start = preview.start
    stop = min(len(preview.lines), start + min(lines, preview.max_lines) - 1)
    chunks = preview._shown_frame
    bands, firsts, lasts, _ = page_bands(chunks, preview.path, start, stop, None)
    shown = [b for b in bands if b.start_line <= stop and b.end_line >= start and b.start_line <= b.end_line]
    columns = assign_columns(shown)
    digits = len(str(max(stop, 1)))
    gutter = PAD + digits * CHAR + 8
    code_x = gutter + (max(columns, default=-1) + 1) * BAND + 6
    top = PAD + HEADER - (start - 1) * ROW  # so that line n's row starts at top + (n - 1) * ROW
    items: list[Any] = []
    cover = coverage_counts(len(preview.lines), firsts, lasts)
    flags = preview.meaningful
    texts_ = [line.expandtabs(4) for line in preview.lines[start - 1 : stop]]
    texts_ = [t if len(t) <= SLIDE_CHARS else t[: SLIDE_CHARS - 1] + "…" for t in texts_]
    for offset, text in enumerate(texts_):
        line = start + offset
        if not cover[line - 1] and (flags is None or flags[line - 1]) and text.strip():
            items.append(SlideBox(code_x - 3, top + (line - 1) * ROW, CHAR * max(len(text), 1) + 6, ROW, None))
        baseline = top + (line - 1) * ROW + ROW * 0.72
        items.append(SlideText(gutter - 8, baseline, str(line), "number"))
        items.append(SlideText(code_x, baseline, text, "code"))
    for band, column in zip(shown, columns, strict=True):
        first, last = max(start, band.start_line), min(stop, band.end_line)
        items.extend(_band_box(band, column, first, last, top, gutter, preview.untyped))
    total = len(preview.lines)
    said = header or f"{preview.path} · lines {start:,}–{stop:,} of {total:,}"
    items.append(SlideText(PAD, PAD + 18, said, "header"))
    widest = max((len(t) for t in texts_), default=0)
    width = max(code_x + widest * CHAR + PAD, PAD * 2 + len(said) * 0.55 * 16)
    height = PAD + HEADER + (stop - start + 1) * ROW + PAD
    return Slide(
        width=round(width), height=round(height),
        boxes=tuple(i for i in items if isinstance(i, SlideBox)),
        texts=tuple(i for i in items if isinstance(i, SlideText)),
    )  # fmt: skip


def side_by_side(left: Slide, right: Slide, gap: float = 24) -> Slide:
    """Two slides next to each other, tops level (a comparison's A and B)."""
    shift = left.width + gap
    return Slide(
        width=shift + right.width, height=max(left.height, right.height),
        boxes=left.boxes + tuple(replace(b, x=b.x + shift) for b in right.boxes),
        texts=left.texts + tuple(replace(t, x=t.x + shift) for t in right.texts),
    )  # fmt: skip


def _colour(text: SlideText, theme: str) -> str:
    _, ink, muted, _ = THEME_COLOURS[theme]
    return text.colour or (muted if text.role == "number" else ink)


def render_svg(slide: Slide, theme: str = "light") -> str:
    """The slide as a standalone SVG document; each band's hover text is its `<title>`.

    Args:
        slide: The layout.
        theme: "light" or "dark".

    Returns:
        The SVG, the same bytes for the same slide.
    """
    paper, _, _, tint = THEME_COLOURS[theme]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{slide.width}" height="{slide.height}" '
        f'viewBox="0 0 {slide.width} {slide.height}" data-clanka="slide" data-theme="{theme}">',
        f'<rect width="100%" height="100%" fill="{paper}"/>',
    ]
    for box in slide.boxes:
        hover = f"<title>{escape(box.hover)}</title>" if box.hover else ""
        mark = ' data-band=""' if box.hover else ""
        parts.append(
            f'<rect x="{box.x:.1f}" y="{box.y:.1f}" width="{box.width:.1f}" height="{box.height:.1f}" rx="3" '
            f'fill="{box.fill or tint}"{mark}>{hover}</rect>'
        )
    for text in slide.texts:
        colour = _colour(text, theme)
        if text.role == "label":
            parts.append(
                f'<text transform="rotate(90 {text.x:.1f} {text.y:.1f})" x="{text.x:.1f}" y="{text.y:.1f}" '
                f'font-family="{SANS}" font-size="10" fill="{colour}" dominant-baseline="hanging">'
                f"{escape(text.text)}</text>"
            )
            continue
        family, size = (SANS, 16) if text.role == "header" else (MONO, FONT_PX)
        anchor = ' text-anchor="end"' if text.role == "number" else ""
        parts.append(
            f'<text x="{text.x:.1f}" y="{text.y:.1f}" font-family="{family}" font-size="{size}" fill="{colour}"'
            f'{anchor} xml:space="preserve">{escape(text.text)}</text>'
        )
    parts.append("</svg>\n")
    return "".join(parts)


def write_png(slide: Slide, theme: str, path: Path, *, scale: float = 2.0) -> None:
    """Draw the slide with matplotlib (Agg, no window) and write it as PNG, `scale` px per layout px.

    Args:
        slide: The layout.
        theme: "light" or "dark".
        path: The PNG file to write.
        scale: Pixels of the PNG per px of the layout (2: sharp on a projector and a high-density screen).
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyBboxPatch

    paper, _, _, tint = THEME_COLOURS[theme]
    figure = Figure(figsize=(slide.width / 100, slide.height / 100), dpi=100, facecolor=paper)
    FigureCanvasAgg(figure)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, slide.width)
    axes.set_ylim(slide.height, 0)
    axes.set_axis_off()
    points = 0.72  # pt per layout px at 100 dpi
    for box in slide.boxes:
        axes.add_patch(FancyBboxPatch((box.x, box.y), box.width, box.height, boxstyle="round,pad=0,rounding_size=3",
                                      facecolor=box.fill or tint, edgecolor="none"))  # fmt: skip
    for text in slide.texts:
        colour = _colour(text, theme)
        if text.role == "label":
            axes.text(text.x + 5, text.y, text.text, rotation=270, rotation_mode="anchor", ha="left", va="center",
                      fontsize=10 * points, color=colour, family="DejaVu Sans")  # fmt: skip
            continue
        size, family = (16, "DejaVu Sans") if text.role == "header" else (FONT_PX, "DejaVu Sans Mono")
        axes.text(text.x, text.y, text.text, ha="right" if text.role == "number" else "left", va="baseline",
                  fontsize=size * points, color=colour, family=family)  # fmt: skip
    figure.savefig(path, dpi=100 * scale, facecolor=paper, format="png")
