"""Colours and inline-style snippets shared by every renderer (no CSS file: output must work without one).

Every colour follows the JupyterLab theme through its CSS variables: the page colour ("paper",
`--jp-layout-color0`) and the text colour ("ink", `--jp-content-font-color0`), with the other tones
mixed from those two. Outside JupyterLab (exported HTML, nbviewer) the variables are undefined and
their fallbacks, the light theme's values, apply. `tests/widgets/test_widget_palette.py` checks the
contrast of every pairing in both the light and the dark theme.
"""

from __future__ import annotations

from html import escape

PAPER = "var(--jp-layout-color0,#fff)"
INK = "var(--jp-content-font-color0,#000)"


def ink(share: int) -> str:
    """A grey: `share` percent ink on paper (a light grey on a light theme, a dark one on a dark theme)."""
    return f"color-mix(in srgb,{INK} {share}%,{PAPER})"


def accent(colour: str) -> str:
    """A hue for text: mixed towards the ink, so darker on light paper and lighter on dark paper."""
    return f"color-mix(in srgb,{colour} {ACCENT_SHARE}%,{INK})"


ACCENT_SHARE = 60  # the hue's share: 40% ink brings every JupyterLab editor colour to contrast 4.5
TEXT = ink(87)
MUTED = ink(62)
SURFACE = ink(5)  # header bars and table heads
RULE = ink(18)  # borders between rows
ALERT = accent("var(--jp-error-color1,#d32f2f)")  # "code in no chunk"
SELECTED = f"color-mix(in srgb,#d4a72c 18%,{PAPER})"  # the row or chunk picked
UNCOVERED_ROW = f"color-mix(in srgb,#d1242f 12%,{PAPER})"  # a line of code that no chunk covers
# A notice ("Long file: showing lines 1-300..."): JupyterLab's warning hue, faint on the theme's own paper, in
# its own ink, so a dark theme gets a dark band (a fixed light yellow glared in JupyterLab Dark).
WARN = "var(--jp-warn-color1,#f57c00)"
NOTICE_BACKGROUND = f"color-mix(in srgb,{WARN} 16%,{PAPER})"
NOTICE = f"background:{NOTICE_BACKGROUND};color:{TEXT};border-left:3px solid {WARN}"

# One fixed colour per chunk type (Tableau 10), so a type looks the same in every view and screenshot.
# Labels on them are black or white, whichever contrasts more (at least 4.5 for each of these).
TYPE_COLOURS: dict[str, str] = {
    "class": "#4e79a7",
    "method": "#f28e2b",
    "function": "#59a14f",
    "interface": "#b07aa1",
    "type-alias": "#76b7b2",
    "enum": "#edc948",
    "namespace": "#9c755f",
    "variable": "#e15759",
}
UNTYPED_COLOUR = "#8a94a6"  # line windows and declarations the reference gives no type

FONT = "font-family:SFMono-Regular,Menlo,Consolas,'DejaVu Sans Mono',monospace;font-size:12px"
# line-height is stated because the HTML widget's container sets a tall one for form controls.
UI_FONT = "font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;font-size:12px;line-height:1.5"
# Hatching for meaningful lines no chunk covers: they are missing from the index.
UNCOVERED_CODE = "repeating-linear-gradient(135deg,#d1242f 0 2px,transparent 2px 4px)"
UNCOVERED_BLANK = ink(18)


def relative_luminance(hex_colour: str) -> float:
    """WCAG 2 relative luminance of `#rrggbb`."""
    channels = (int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two `#rrggbb` colours (1 to 21)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def type_colour(chunk_type: str | None) -> str:
    return TYPE_COLOURS.get(chunk_type or "", UNTYPED_COLOUR)


def text_colour(chunk_type: str | None) -> str:
    """Black or white for a label on this type's colour, whichever contrasts more."""
    background = type_colour(chunk_type)
    return "#000000" if contrast(background, "#000000") >= contrast(background, "#ffffff") else "#ffffff"


def parent_chip(parent: str) -> str:
    """A label for the parent filter in force, beside the type chips: "in class Gson" (a trailing `*`: "in *Gson*",
    every parent containing the text)."""
    shown = f"*{parent.removesuffix('*').strip()}*" if parent.endswith("*") else parent
    return (
        f'<span style="border:1px solid {MUTED};border-radius:3px;padding:0 4px;white-space:nowrap">'
        f"in {escape(shown)}</span>"
    )


def type_chip(chunk_type: str | None) -> str:
    """A small coloured label for a type (or "none" when the chunk has none)."""
    label = escape(chunk_type) if chunk_type else "none"
    return (
        f'<span style="background:{type_colour(chunk_type)};color:{text_colour(chunk_type)};'
        f'border-radius:3px;padding:0 4px;white-space:nowrap">{label}</span>'
    )
