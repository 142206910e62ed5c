"""Every exported page and picture, opened from a file in the real Chromium (no server, no kernel, no network), in
the light and the dark colour scheme: legible (WCAG contrast of every text run against what it sits on), and the
step-through page steps by key and by button. Screenshots go to tests/.artifacts/ (and to docs/screenshots/ with
CLANKA_UPDATE_SCREENSHOTS=1, where docs/teaching.md shows them)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

import clanka_nb as cn

from ._lab import ARTIFACTS_DIR, SCREENSHOTS
from .test_themes import MEASURE

pytestmark = pytest.mark.browser

# The quickstart's measurement, over a page's body instead of a notebook's outputs.
MEASURE_PAGE = MEASURE.replace("root.querySelectorAll('.jp-OutputArea-output')", "[root]")
VIEWS = ("report", "steps", "preview", "compare", "browse", "tune")


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each view of the sample codebase saved as its page, and the preview and the comparison as SVG pictures."""
    out = tmp_path_factory.mktemp("exported")
    compared = cn.compare(None, a={"languages": "clanka"}, b={"languages": "extended"})
    saved = {
        "report": cn.report(cn.sweep(None, chunk_size=[10, 20, 40], probe=True, progress=False)).save(
            out / "report.html"
        ),
        "steps": cn.step_through(None, "src/models.ts", chunk_size=20).save(out / "steps.html"),
        "preview": cn.preview(None, "src/models.ts", chunk_size=20).save(out / "preview.html"),
        "compare": compared.save(out / "compare.html"),
        "browse": cn.browse(None).save(out / "browse.html"),
        "tune": cn.tune(None).save(out / "tune.html"),
    }
    for theme in ("light", "dark"):
        saved[f"slide-preview-{theme}"] = cn.preview(None, "src/models.ts", chunk_size=20).save(
            out / f"preview-{theme}.svg", theme=theme
        )
        saved[f"slide-compare-{theme}"] = compared.save(out / f"compare-{theme}.svg", theme=theme)
    return saved


@pytest.fixture(params=["light", "dark"])
def scheme(request: pytest.FixtureRequest, chromium_browser) -> Iterator[tuple[str, object]]:
    """A page in a context whose system colour scheme is light or dark."""
    context = chromium_browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme=request.param)
    try:
        yield request.param, context.new_page()
    finally:
        context.close()


def _still(page, name: str) -> None:
    """What the screen shows, to the artifacts (and docs/screenshots with CLANKA_UPDATE_SCREENSHOTS=1)."""
    ARTIFACTS_DIR.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS_DIR / f"{name}.png"
    page.screenshot(path=path)
    if os.environ.get("CLANKA_UPDATE_SCREENSHOTS") == "1":
        from PIL import Image

        image = Image.open(path).convert("RGB")
        image = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        image.save(SCREENSHOTS / f"{name}.png", optimize=True)


def _legible(page, theme: str) -> None:
    runs = page.evaluate(MEASURE_PAGE, "body")
    assert len(runs) > 20, f"only {len(runs)} text runs: did the page render?"
    below = sorted((run for run in runs if run["contrast"] < 4.5), key=lambda run: run["contrast"])
    assert len(below) <= len(runs) / 100, f"{theme}: {len(below)} of {len(runs)} runs below 4.5, e.g. {below[:8]}"
    assert not [run for run in runs if run["contrast"] < 3], f"{theme}: runs below 3: {below[:8]}"
    dark = sum(sum(run["bg"]) < 150 for run in runs)
    assert dark > len(runs) / 2 if theme == "dark" else dark < len(runs) / 10


@pytest.mark.parametrize("view", VIEWS)
def test_each_page_opens_from_a_file_legible_in_both_schemes(exported, scheme, view) -> None:
    theme, page = scheme
    failed: list[str] = []
    page.on("requestfailed", lambda request: failed.append(request.url))
    page.on("pageerror", lambda error: failed.append(str(error)))
    page.goto(exported[view].as_uri())
    page.wait_for_load_state("load")
    _legible(page, theme)
    assert not failed
    _still(page, f"export-{view}-{theme}")


def test_the_theme_button_overrides_the_system(exported, scheme) -> None:
    _, page = scheme
    page.goto(exported["report"].as_uri())
    button = page.locator("#cn-theme")
    assert button.inner_text() == "theme: system"
    button.click()  # light
    _legible(page, "light")
    button.click()  # dark
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    _legible(page, "dark")
    page.goto(exported["report"].as_uri() + "?theme=light")
    _legible(page, "light")


def test_the_steps_page_steps_by_key_and_by_button(exported, scheme) -> None:
    theme, page = scheme
    page.goto(exported["steps"].as_uri())
    steps = page.evaluate("JSON.parse(document.getElementById('cn-steps').textContent)")
    count = page.locator("[data-count]")

    def lit() -> list[int]:
        return page.evaluate("[...document.querySelectorAll('tr[data-lit]')].map((r) => Number(r.dataset.line))")

    assert count.inner_text() == f"1 / {len(steps)}" and lit() == list(range(steps[0]["start"], steps[0]["end"] + 1))
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    third = steps[2]
    assert count.inner_text() == f"3 / {len(steps)}"
    assert lit() == list(range(third["start"], third["end"] + 1))
    assert page.locator("[data-why]").first.inner_text() == third["why"]
    page.locator("[data-go='-1']").click()
    assert count.inner_text() == f"2 / {len(steps)}"
    page.keyboard.press("End")
    assert count.inner_text() == f"{len(steps)} / {len(steps)}"
    page.keyboard.press("ArrowRight")  # past the end: stays
    assert count.inner_text() == f"{len(steps)} / {len(steps)}"
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    _legible(page, theme)
    _still(page, f"export-steps-second-{theme}")


@pytest.mark.parametrize("picture", ["preview", "compare"])
def test_a_slide_picture_shows_its_bands_hover_text(exported, chromium_browser, picture) -> None:
    for theme in ("light", "dark"):
        context = chromium_browser.new_context(viewport={"width": 1400, "height": 1000})
        try:
            page = context.new_page()
            page.goto(exported[f"slide-{picture}-{theme}"].as_uri())
            bands = page.evaluate("[...document.querySelectorAll('rect[data-band] > title')].map((t) => t.textContent)")
            assert bands and all("lines " in hover for hover in bands)
            # Its colours' contrast: tests/widgets/test_widget_export.py (an SVG's paper is a rect, not a CSS
            # background, which the measurement of a page reads).
            _still(page, f"slide-{picture}-{theme}")
        finally:
            context.close()
