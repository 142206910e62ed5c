"""Step through the cuts: a pure function builds the steps and each step's view; the widget holds them and the step
shown; the exported page carries every step and moves by key or button (its browser test: tests/browser)."""

from __future__ import annotations

import json

import pytest
from bs4 import BeautifulSoup

import clanka_nb as cn
from clanka_nb.widgets import StepThrough, step_through
from clanka_nb.widgets._steps import step_html, steps_of

GO = """package shapes

type Shape interface {
\tArea() float64
}

type Rect struct{ W, H float64 }

func (r Rect) Area() float64 {
\treturn r.W * r.H
}

func Sum(shapes []Shape) float64 {
\ttotal := 0.0
\tfor _, s := range shapes {
\t\ttotal += s.Area()
\t}
\treturn total
}
"""


def test_the_steps_are_the_chunks_of_explain_in_order_with_their_reasons() -> None:
    steps = steps_of(cn.preview_text(GO, "shapes.go", languages="extended", chunk_size=8))
    explained = cn.explain_text(GO, "shapes.go", languages="extended", chunk_size=8)
    assert [(s.start_line, s.end_line) for s in steps.steps] == list(
        zip(explained["start_line"], explained["end_line"], strict=True)
    )
    assert [s.why for s in steps.steps] == list(explained["why"])
    assert steps.steps[2].heading == "method Area · lines 9–11"


def test_a_steps_view_highlights_its_lines_and_says_why_in_large_type() -> None:
    steps = steps_of(cn.preview_text(GO, "shapes.go", languages="extended", chunk_size=8))
    soup = BeautifulSoup(step_html(steps, 3), "html.parser")
    assert soup.select_one("[data-count]").get_text() == "4 / 4"
    why = soup.select_one("[data-why]")
    assert why.get_text() == steps.steps[3].why and "font-size:26px" in why["style"]
    outlined = soup.select_one("td[data-chunk]")
    assert outlined is not None and "box-shadow" in soup.find("td", attrs={"data-start": "13"})["style"]
    rows = [int(r["data-line"]) for r in soup.select("tr[data-line]")]
    assert rows[0] == 10 and rows[-1] == 19  # the chunk (13-19) with three lines above it; the file ends at 19
    with pytest.raises(IndexError, match=r"step 4 does not exist; shapes\.go has 4 steps"):
        step_html(steps, 4)


def test_the_widget_holds_the_step_and_moves_by_its_buttons() -> None:
    shown = step_through(cn.preview_text(GO, "shapes.go", languages="extended", chunk_size=8))
    assert isinstance(shown, StepThrough) and shown.index == 0 and shown.prev_button.disabled
    shown.next_button.click()
    shown.next_button.click()
    assert shown.index == 2 and shown.view.value == step_html(shown.model, 2)
    shown.go(99)
    assert shown.index == 3 and shown.next_button.disabled and not shown.prev_button.disabled
    shown.prev_button.click()
    assert repr(shown) == "StepThrough('shapes.go', step 3 of 4)"


def test_a_folder_steps_through_as_preview_picks_its_file() -> None:
    shown = cn.step_through(None, chunk_size=20)
    assert len(shown.model) == len(shown.model.preview.frame) > 3
    assert all(step.why for step in shown.model.steps)


def test_the_exported_page_carries_every_step_and_no_text_of_the_file_can_break_it(tmp_path) -> None:
    hostile = "// </script><script>alert(1)</script>\n" + GO
    shown = step_through(cn.preview_text(hostile, "shapes.go", languages="extended", chunk_size=8))
    html = shown.save(tmp_path / "s.html").read_text(encoding="utf-8")
    soup = BeautifulSoup(html, "html.parser")
    data = json.loads(soup.find("script", id="cn-steps").string)
    assert [(d["start"], d["end"]) for d in data] == [(s.start_line, s.end_line) for s in shown.model.steps]
    assert html.count("<script>alert(1)") == 0  # escaped in the lines, "<\/" in the JSON
    assert len(soup.select("tr[data-line]")) == len(hostile.splitlines())
    with pytest.raises(ValueError, match=r"a step-through saves as \.html"):
        shown.save(tmp_path / "s.png")
