"""Every text colour the viewers use reaches WCAG contrast 4.5 on every background it is drawn on,
in JupyterLab's light and dark themes and outside JupyterLab.

The viewers' colours are CSS expressions over JupyterLab's theme variables (`var(...)` and
`color-mix(in srgb, ...)`); this evaluates them with the variables of the installed JupyterLab's own
theme files, so a JupyterLab release that changes its palette is caught here. The browser test
(tests/browser/test_themes.py) measures the same in a real JupyterLab.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from clanka_nb.widgets import _highlight, _style

THEMES = Path(sys.prefix, "share", "jupyter", "lab", "themes", "@jupyterlab")
NAMED = {"white": "#ffffff", "black": "#000000", "red": "#ff0000", "green": "#008000", "blue": "#0000ff"}


def theme_variables(name: str) -> dict[str, str]:
    css = THEMES / f"theme-{name}-extension" / "index.css"
    if not css.exists():
        pytest.skip(f"JupyterLab's {name} theme is not installed here ({css})")
    return dict(re.findall(r"(--jp-[\w-]+):([^;}]+)", css.read_text(encoding="utf-8")))


def _split_top(text: str) -> list[str]:
    """Split at commas that are not inside parentheses."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    return [*parts, text[start:].strip()]


def evaluate(css: str, variables: dict[str, str]) -> tuple[float, float, float]:
    """An sRGB colour (0-255 floats) from a hex, a named colour, `var(--x,fallback)` or `color-mix`."""
    css = NAMED.get(css.strip(), css.strip())
    if css.startswith("#"):
        digits = css[1:] if len(css) == 7 else "".join(c * 2 for c in css[1:4])
        return tuple(float(int(digits[i : i + 2], 16)) for i in (0, 2, 4))  # type: ignore[return-value]
    if css.startswith("var("):
        name, *fallback = _split_top(css[4:-1])
        if name in variables:
            return evaluate(variables[name], variables)
        assert fallback, f"{name} has no value and no fallback"
        return evaluate(fallback[0], variables)
    if css.startswith("color-mix("):
        space, first, second = _split_top(css[len("color-mix(") : -1])
        assert space == "in srgb"
        colour, share = first.rsplit(" ", 1)
        p = float(share.rstrip("%")) / 100
        a, b = evaluate(colour, variables), evaluate(second, variables)
        return tuple(p * x + (1 - p) * y for x, y in zip(a, b, strict=True))  # type: ignore[return-value]
    raise AssertionError(f"cannot evaluate {css!r}")


def hex_of(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(c):02x}" for c in rgb)


def syntax_colours() -> dict[str, str]:
    return dict(part.split(":", 1) for part in _highlight.SYNTAX_VARIABLES.split(";"))


@pytest.fixture(params=["light", "dark", "outside"])
def variables(request: pytest.FixtureRequest) -> dict[str, str]:
    return {} if request.param == "outside" else theme_variables(request.param)


def test_text_reaches_contrast_on_every_background(variables: dict[str, str]) -> None:
    backgrounds = {
        name: hex_of(evaluate(css, variables))
        for name, css in {
            "paper": _style.PAPER, "surface": _style.SURFACE, "selected": _style.SELECTED,
            "uncovered": _style.UNCOVERED_ROW, "notice": _style.NOTICE_BACKGROUND,
        }.items()
    }  # fmt: skip
    texts = {"text": _style.TEXT, "muted": _style.MUTED, "alert": _style.ALERT, **syntax_colours()}
    low = {
        (text, background): round(_style.contrast(hex_of(evaluate(css, variables)), colour), 2)
        for text, css in texts.items()
        for background, colour in backgrounds.items()
        if _style.contrast(hex_of(evaluate(css, variables)), colour) < 4.5
    }
    assert not low, f"text/background pairs below contrast 4.5: {low}"


def test_the_two_themes_really_differ() -> None:
    """Guard the evaluation itself: the dark theme's page is dark and its text light."""
    dark = theme_variables("dark")
    assert _style.relative_luminance(hex_of(evaluate(_style.PAPER, dark))) < 0.05
    assert _style.relative_luminance(hex_of(evaluate(_style.TEXT, dark))) > 0.6
    assert hex_of(evaluate(_style.PAPER, {})) == "#ffffff"


@pytest.mark.parametrize("chunk_type", [*_style.TYPE_COLOURS, None])
def test_type_labels_reach_contrast_on_their_colour(chunk_type: str | None) -> None:
    assert _style.contrast(_style.type_colour(chunk_type), _style.text_colour(chunk_type)) >= 4.5


def test_notices_follow_the_theme() -> None:
    """A notice's band is light on the light theme and dark on the dark one, its text the theme's own."""
    assert f"background:{_style.NOTICE_BACKGROUND};color:{_style.TEXT}" in _style.NOTICE
    light, dark = theme_variables("light"), theme_variables("dark")
    assert _style.relative_luminance(hex_of(evaluate(_style.NOTICE_BACKGROUND, light))) > 0.7
    assert _style.relative_luminance(hex_of(evaluate(_style.NOTICE_BACKGROUND, dark))) < 0.1
    assert _style.contrast(hex_of(evaluate(_style.NOTICE_BACKGROUND, dark)), hex_of(evaluate(_style.TEXT, dark))) >= 4.5


def test_contrast_matches_wcag_examples() -> None:
    assert _style.contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert _style.contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
