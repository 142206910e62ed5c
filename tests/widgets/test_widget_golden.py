"""Golden HTML of the boundary preview: `render_preview` output compared with tests/data/*.html.

The output must not change by accident: it is what exported notebooks, nbviewer and GitHub show.
Everything this project writes is compared byte for byte. What Pygments decides (which token gets
which colour) is not ours and changes between its releases, so the colour spans inside code cells
are taken out before comparing; `test_code_cells_are_highlighted_and_escaped` checks them by
behaviour instead. After an intended change, look at the new files in a browser and regenerate them with

    CLANKA_UPDATE_GOLDEN=1 python -m pytest tests/widgets/test_widget_golden.py

then review the diff before committing.
"""

from __future__ import annotations

import itertools
import os
import re
from html import escape
from pathlib import Path

import pytest

from clanka_nb import engine
from clanka_nb.widgets import render_preview

DATA = Path(__file__).resolve().parents[1] / "data"
# A code cell of the preview and the highlighting spans inside it.
CODE_CELL = re.compile(r'(<td style="[^"]*white-space:pre[^"]*">)(.*?)(</td>)')
COLOUR_SPAN = re.compile(r'<span style="[^"<>]*">|</span>')
UPDATE = os.environ.get("CLANKA_UPDATE_GOLDEN") == "1"

NESTING = """\
/** A cart. */
export class Cart {
  private items: string[] = [];

  /** Adds one item. */
  add(item: string): void {
    this.items.push(item);
  }

  count(): number {
    return this.items.length;
  }
}

export function total(cart: Cart): number {
  return cart.count();
}
"""

UNCOVERED = """\
import { Cart } from "./cart";

const cart = new Cart();
cart.add("book <b>");

/* a block comment
   over two lines */
export interface Shelf {
  code: string;
}
console.log(cart);
"""

# An .mjs file is not parsed: it is cut into line windows, which overlap with chunk_overlap > 0.
OVERLAP = "".join(f"export const step{i} = {i} * 2; // step {i}\n" for i in range(1, 13))

LONG = "".join(f"function f{i}() {{ return {i}; }}\n" for i in range(1, 61))

CASES = {
    "preview_nesting": dict(path="cart.ts", text=NESTING, settings={}, view={}),
    "preview_uncovered": dict(path="main.ts", text=UNCOVERED, settings={}, view={}),
    "preview_overlap": dict(path="steps.mjs", text=OVERLAP, settings={"chunk_size": 5, "chunk_overlap": 2}, view={}),
    "preview_truncated": dict(path="many.ts", text=LONG, settings={}, view={"max_lines": 20, "start": 21}),
}


def render_case(name: str) -> str:
    case = CASES[name]
    chunks = engine.chunk_file_content(case["path"], case["text"], **case["settings"])
    lines = case["text"].split("\n")[:-1]
    language = engine.language_of(case["path"])
    return render_preview(lines, chunks, path=case["path"], language=language, **case["view"])


def without_highlighting(html: str) -> str:
    """The preview with the highlighter's colour spans removed from its code cells (and only there)."""
    return CODE_CELL.sub(lambda m: m[1] + COLOUR_SPAN.sub("", m[2]) + m[3], html)


@pytest.mark.parametrize("name", sorted(CASES))
def test_preview_matches_golden_file(name: str) -> None:
    html = render_case(name)
    golden = DATA / f"{name}.html"
    if UPDATE:
        golden.write_text(html, encoding="utf-8")
    assert golden.exists(), f"{golden} is missing; create it with CLANKA_UPDATE_GOLDEN=1"
    assert without_highlighting(html) == without_highlighting(golden.read_text(encoding="utf-8")), (
        f"render_preview output for {name} differs from {golden.name}; if intended, regenerate with "
        "CLANKA_UPDATE_GOLDEN=1 and review the diff"
    )


def test_golden_cases_show_what_they_are_named_for() -> None:
    """Guard the fixtures themselves: each golden file must contain the feature it is meant to pin down."""
    nesting = render_case("preview_nesting")
    assert 'data-type="class"' in nesting and 'data-type="method"' in nesting
    uncovered = render_case("preview_uncovered")
    assert 'data-uncovered="code"' in uncovered
    overlap_chunks = engine.chunk_file_content("steps.mjs", OVERLAP, chunk_size=5, chunk_overlap=2)
    assert any(a.end_line >= b.start_line for a, b in itertools.pairwise(overlap_chunks))
    truncated = render_case("preview_truncated")
    assert "Long file: showing lines 21–40 of 60" in truncated


def test_code_cells_are_highlighted_and_escaped() -> None:
    """What the golden comparison leaves out: keywords, strings and comments are coloured, and each
    code cell, without its colour spans, is exactly its source line, escaped."""
    html = render_case("preview_uncovered")
    cells = [m[2] for m in CODE_CELL.finditer(html)]
    expected = [escape(line, quote=False) for line in UNCOVERED.split("\n")[:-1]]
    assert [COLOUR_SPAN.sub("", cell) for cell in cells] == expected
    keyword = re.search(r'<span style="([^"]*)">import\s*</span>', cells[0])
    string = re.search(r'<span style="([^"]*)">"book &lt;b&gt;"</span>', cells[3])
    comment = re.search(r'<span style="([^"]*)">/\* a block comment</span>', cells[5])
    assert keyword and string and comment, cells
    colours = {m[1] for m in (keyword, string, comment)}
    assert colours == {"color:var(--cn-keyword)", "color:var(--cn-string)", "color:var(--cn-comment);font-style:italic"}
    # Each colour a span names is declared on the preview's root, from JupyterLab's editor colour.
    root_style = re.match(r'<div data-clanka="preview"[^>]*style="([^"]*)"', html)[1]
    for name in ("keyword", "string", "comment"):
        assert f"--cn-{name}:color-mix(in srgb,var(--jp-mirror-editor-{name}-color," in root_style


def test_unknown_extension_is_escaped_plain_text() -> None:
    html = render_preview(["<b>&amp;</b>"], [], path="notes.unknownext", language=None)
    cell = CODE_CELL.search(html)
    assert cell and COLOUR_SPAN.sub("", cell[2]) == "&lt;b&gt;&amp;amp;&lt;/b&gt;"
