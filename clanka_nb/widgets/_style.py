"""Colours and inline-style snippets shared by every renderer (no CSS file: output must work without one)."""

from __future__ import annotations

from html import escape

# One fixed colour per chunk type (Tableau 10), so a type looks the same in every view and screenshot.
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
# Text on the light bands (yellow, teal) needs to be dark to stay readable.
_DARK_TEXT = frozenset({"enum", "type-alias"})

FONT = "font-family:SFMono-Regular,Menlo,Consolas,'DejaVu Sans Mono',monospace;font-size:12px"
# line-height is stated because the HTML widget's container sets a tall one for form controls.
UI_FONT = "font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;font-size:12px;line-height:1.5"
MUTED = "#6e7781"
# Hatching for meaningful lines no chunk covers: they are missing from the index.
UNCOVERED_CODE = "repeating-linear-gradient(135deg,#d1242f 0 2px,transparent 2px 4px)"
UNCOVERED_BLANK = "#d0d7de"


def type_colour(chunk_type: str | None) -> str:
    return TYPE_COLOURS.get(chunk_type or "", UNTYPED_COLOUR)


def text_colour(chunk_type: str | None) -> str:
    return "#24292f" if chunk_type in _DARK_TEXT else "#ffffff"


def type_chip(chunk_type: str | None) -> str:
    """A small coloured label for a type (or "window" when the chunk has none)."""
    label = escape(chunk_type) if chunk_type else "none"
    return (
        f'<span style="background:{type_colour(chunk_type)};color:{text_colour(chunk_type)};'
        f'border-radius:3px;padding:0 4px;white-space:nowrap">{label}</span>'
    )
