"""Every view leaves the notebook: `save` writes a self-contained page (and, for previews and comparisons, an SVG
or a PNG of the lines shown); the format comes from the suffix and any other suffix is one clear error."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from bs4 import BeautifulSoup

import clanka_nb as cn
from clanka_nb.widgets import Browser, Compare, Preview, Tuner
from clanka_nb.widgets._render import MAX_LINES

SVG = "{http://www.w3.org/2000/svg}"
LONG = "".join(f"export function f{i}(a: number): number {{\n  return a + {i};\n}}\n\n" for i in range(300))


def _self_contained(html: str) -> BeautifulSoup:
    """The page parsed, after checking that it needs nothing but a browser: no address outside it."""
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    soup = BeautifulSoup(html, "html.parser")
    assert not soup.find_all("link") and not soup.find_all("iframe")
    assert all(not tag.get("src") for tag in soup.find_all(["script", "img"]))
    for tag in soup.find_all(True):  # nothing fetched: no address in a link or a style (code's text may name any)
        assert not tag.get("href") and "url(" not in str(tag.get("style", "")), tag.name
    assert "@import" not in html and "url(" not in "".join(style.get_text() for style in soup.find_all("style"))
    return soup


def test_a_preview_page_holds_every_line_and_every_bands_hover_text(tmp_path) -> None:
    """The notebook keeps a page of lines; the exported page keeps the whole file, each band titled with its why."""
    shown = cn.preview_text(LONG, "long.ts")
    assert shown.html.count("<tr data-line=") == MAX_LINES  # what a notebook saves
    soup = _self_contained(shown.save(tmp_path / "p.html").read_text(encoding="utf-8"))
    assert len(soup.select("tr[data-line]")) == 1200
    bands = soup.select("td[data-chunk]")
    assert len(bands) == len(shown.frame) == 300
    assert all("why:" in band["title"] for band in bands)  # the hover of every band, its reason included
    assert {int(band["data-start"]) for band in bands} == set(shown.frame["start_line"])


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_preview_picture_draws_the_lines_shown_with_their_bands(tmp_path, theme) -> None:
    shown = cn.preview_text(LONG, "long.ts").page(9)
    root = ET.parse(shown.save(tmp_path / "p.svg", theme=theme)).getroot()
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert "9" in texts and "48" in texts and "49" not in texts  # lines 9-48: a slide's 40
    assert "export function f2(a: number): number {" in texts
    bands = [r for r in root.iter(f"{SVG}rect") if r.get("data-band") is not None]
    on_slide = shown.frame[(shown.frame["start_line"] <= 48) & (shown.frame["end_line"] >= 9)]
    assert len(bands) == len(on_slide) == 10
    assert all("why:" in (band.find(f"{SVG}title").text or "") for band in bands)
    paper = root.find(f"{SVG}rect").get("fill")
    assert paper == ("#ffffff" if theme == "light" else "#111111")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_picture_as_png_is_drawn_at_twice_the_layout_and_in_its_theme(tmp_path, theme) -> None:
    from matplotlib.image import imread

    shown = cn.preview_text(LONG, "long.ts")
    slide = shown.slide()
    pixels = imread(shown.save(tmp_path / "p.png", theme=theme))
    assert pixels.shape[:2] == (2 * slide.height, 2 * slide.width)
    corner = float(np.mean(pixels[2, 2, :3]))
    assert corner > 0.95 if theme == "light" else corner < 0.1
    # Some ink: the lines are drawn, not a blank page.
    ink = np.mean(np.abs(pixels[..., :3] - pixels[2, 2, :3]).sum(axis=2) > 0.5)
    assert 0.01 < ink < 0.5


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_pictures_colours_are_legible(theme) -> None:
    from clanka_nb.widgets._slide import THEME_COLOURS
    from clanka_nb.widgets._style import TYPE_COLOURS, UNTYPED_COLOUR, contrast, text_colour

    paper, ink, muted, tint = THEME_COLOURS[theme]
    assert min(contrast(ink, paper), contrast(ink, tint), contrast(muted, paper)) >= 4.5
    for chunk_type, colour in [*TYPE_COLOURS.items(), (None, UNTYPED_COLOUR)]:
        assert contrast(text_colour(chunk_type), colour) >= 4.5  # a band's label on its band


def test_a_comparison_saves_a_page_and_a_picture_whose_headers_name_each_side(tmp_path) -> None:
    shown = cn.compare(None, a={"languages": "clanka"}, b={"languages": "extended"})
    assert isinstance(shown, Compare)
    soup = _self_contained(shown.save(tmp_path / "c.html").read_text(encoding="utf-8"))
    sides = soup.select("[data-side]")
    assert [s["data-side"] for s in sides] == ["A", "B"]
    headers = [s.find("div").get_text() for s in sides]  # each side's header says its mode
    assert "languages=clanka" in headers[0] and "languages=extended" in headers[1]
    assert len(soup.select('[data-side="A"] tr[data-line]')) == len(shown.left.lines)
    root = ET.parse(shown.save(tmp_path / "c.svg")).getroot()
    headers = [t.text or "" for t in root.iter(f"{SVG}text") if (t.text or "").startswith(("A · ", "B · "))]
    assert len(headers) == 2 and "languages=clanka" in headers[0] and "languages=extended" in headers[1]
    assert shown.save(tmp_path / "c.png").stat().st_size > 10_000


def test_the_browser_and_the_panel_save_pages(tmp_path) -> None:
    browser = cn.browse(None)
    assert isinstance(browser, Browser)
    browser.set_filters(types="method")
    soup = _self_contained(browser.save(tmp_path / "b.html").read_text(encoding="utf-8"))
    assert len(soup.select("tr[data-row]")) or soup.find("table")  # the chunk table
    assert soup.find(attrs={"data-clanka": "preview"}) is not None
    listed = browser.page_html()
    assert all(f">{name}<" in listed or name in listed for name in browser.frame["name"].dropna().head(20))
    panel = cn.tune(None, chunk_size=25)
    assert isinstance(panel, Tuner)
    soup = _self_contained(panel.save(tmp_path / "t.html").read_text(encoding="utf-8"))
    assert "chunk_size=25" in soup.get_text() and soup.find("svg", attrs={"data-clanka": "histogram"})
    shown = panel.preview.preview
    assert shown is not None and len(soup.select("tr[data-line]")) == len(shown.lines)


@pytest.mark.parametrize(
    ("view", "name", "said"),
    [
        (lambda: cn.preview_text("const a = 1;\n"), "x.pdf", "a preview saves as .html or .svg or .png"),
        (lambda: cn.preview_text("const a = 1;\n"), "x", "has no suffix"),
        (lambda: cn.browse(None), "x.svg", "a browser saves as .html, and"),
    ],
)
def test_another_suffix_is_one_clear_error(tmp_path, view, name, said) -> None:
    with pytest.raises(ValueError, match=re.escape(said)):
        view().save(tmp_path / name)
    assert not (tmp_path / name).exists()


def test_a_picture_in_another_theme_is_refused(tmp_path) -> None:
    shown: Preview = cn.preview_text("const a = 1;\n")
    with pytest.raises(ValueError, match="theme must be 'light' or 'dark', got 'blue'"):
        shown.save(tmp_path / "x.svg", theme="blue")
