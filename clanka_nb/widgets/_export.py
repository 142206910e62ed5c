"""Every view leaves the notebook the same way: `view.save(path)` writes one self-contained page (styles and
scripts inline: no server, no kernel, no network) and, for the views of a file's lines, a picture for a slide.

The format comes from the path's suffix (`.html`, and for previews and comparisons `.svg` or `.png`); any other
suffix is one `ValueError` naming those a view writes. The page's colours are the viewers' own CSS variables
(`_style`), set to JupyterLab's light values, to its dark ones where the reader's system is dark, and to either
by the page's theme button (or `?theme=dark` in its address).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from html import escape
from pathlib import Path

THEMES = ("light", "dark")
PAGE = ".html"
PICTURES = (".svg", ".png")

# JupyterLab Dark's editor colours (JupyterLab 4's theme-dark-extension): the light ones are the fallbacks.
_DARK_EDITOR = {
    "attribute": "#64b5f6", "builtin": "#43a047", "comment": "#408080", "def": "#1e88e5", "error": "#ff0000",
    "header": "#2196f3", "keyword": "#4caf50", "meta": "#aa22ff", "number": "#66bb6a", "operator": "#d48fff",
    "property": "#42a5f5", "punctuation": "#42a5f5", "string": "#ff7070", "string-2": "#ba68c8", "tag": "#388e3c",
    "variable-3": "#43a047",
}  # fmt: skip

# The variables every viewer's colours are mixed from (see _style), per theme: JupyterLab Light's and Dark's.
_THEME_VARIABLES = {
    "light": "--jp-layout-color0:#fff;--jp-content-font-color0:#000;color-scheme:light",
    "dark": (
        "--jp-layout-color0:#111;--jp-content-font-color0:#fff;--jp-error-color1:#f44336;--jp-warn-color1:#ff9800;"
        + "".join(f"--jp-mirror-editor-{name}-color:{colour};" for name, colour in _DARK_EDITOR.items())
        + "color-scheme:dark"
    ),
}

# The page's own style: its theme (the system's, or the one picked), its body and its theme button.
_PAGE_STYLE = (
    (
        ":root{%(light)s}"
        "@media (prefers-color-scheme:dark){:root:not([data-theme=light]){%(dark)s}}"
        ":root[data-theme=light]{%(light)s}:root[data-theme=dark]{%(dark)s}"
        "body{margin:16px;background:var(--jp-layout-color0);color:var(--jp-content-font-color0);"
        "font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;font-size:13px}"
        "h1{font-size:18px;margin:0 0 8px}"
        "#cn-theme{position:fixed;top:8px;right:12px;font:inherit;padding:2px 8px;cursor:pointer;"
        "background:var(--jp-layout-color0);color:var(--jp-content-font-color0);"
        "border:1px solid color-mix(in srgb,var(--jp-content-font-color0) 30%,var(--jp-layout-color0));"
        "border-radius:4px}"
    )
    .replace("%(light)s", _THEME_VARIABLES["light"])
    .replace("%(dark)s", _THEME_VARIABLES["dark"])
)

# The theme button cycles system -> light -> dark; `?theme=light|dark` in the address starts on one.
_THEME_SCRIPT = (
    "(function(){var root=document.documentElement,button=document.getElementById('cn-theme');"
    "var asked=new URLSearchParams(location.search).get('theme');"
    "if(asked==='light'||asked==='dark'){root.dataset.theme=asked;}"
    "function say(){button.textContent='theme: '+(root.dataset.theme||'system');}"
    "button.addEventListener('click',function(){var now=root.dataset.theme;"
    "if(!now){root.dataset.theme='light';}else if(now==='light'){root.dataset.theme='dark';}"
    "else{delete root.dataset.theme;}say();});say();})();"
)


def page(title: str, body: str, *, script: str = "") -> str:
    """A whole HTML document around `body`: its title, its theme (system, light or dark) and `script`, all inline.

    Args:
        title: The page's title (escaped here).
        body: The view's HTML.
        script: JavaScript run at the end of the page (the view's keys and buttons); "" for none.

    Returns:
        The page, which needs nothing but a browser.
    """
    scripts = f"<script>{_THEME_SCRIPT}</script>" + (f"<script>{script}</script>" if script else "")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_PAGE_STYLE}</style></head>"
        f'<body><button id="cn-theme" type="button">theme</button><h1>{escape(title)}</h1>{body}{scripts}'
        "</body></html>\n"
    )


def check_theme(theme: object) -> str:
    """`theme` when it is "light" or "dark"; else a ValueError naming both."""
    if theme not in THEMES:
        msg = f"theme must be 'light' or 'dark', got {theme!r}"
        raise ValueError(msg)
    return str(theme)


def save_view(
    path: str | os.PathLike[str],
    *,
    view: str,
    html: Callable[[], str],
    svg: Callable[[str], str] | None = None,
    png: Callable[[str, Path], None] | None = None,
    theme: str = "light",
) -> Path:
    """Write a view to `path` in the format its suffix names; the file written.

    Args:
        path: Where to write; its suffix picks the format (.html; .svg and .png where the view draws pictures).
        view: The view's name, for the error of a suffix it does not write.
        html: Makes the self-contained page.
        svg: Makes the picture as SVG in a theme; None: the view draws no picture.
        png: Writes the picture as PNG in a theme to a path; None: the view draws no picture.
        theme: "light" or "dark": the picture's colours (a page follows the reader's system and its button).

    Returns:
        The path written.

    Raises:
        ValueError: The suffix is not one the view writes, or the theme is neither light nor dark.
    """
    target = Path(path)
    suffix = target.suffix.lower()
    known = (PAGE, *(PICTURES if svg is not None and png is not None else ()))
    if suffix not in known:
        said = f"'{target.suffix}'" if target.suffix else "no suffix"
        example = view.replace(" ", "-") + known[-1]
        msg = f"a {view} saves as {' or '.join(known)}, and {str(target)!r} has {said}; name the file e.g. {example}"
        raise ValueError(msg)
    theme = check_theme(theme)
    if suffix == PAGE:
        target.write_text(html(), encoding="utf-8")
    elif suffix == ".svg" and svg is not None:
        target.write_text(svg(theme), encoding="utf-8")
    elif png is not None:
        png(theme, target)
    return target
