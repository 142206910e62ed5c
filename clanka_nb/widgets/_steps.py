"""Step through the cuts, for a projector: one chunk at a time, its lines highlighted in the file and its `why` in
large type, next and previous by button (and by key in the exported page).

The model and the view are apart: `steps_of` (pure) makes a `Steps` from a preview, `step_html` (pure) the view of
one step; `StepThrough` holds the model and the step shown; `Steps.page_html` is the exported page, the whole file
once and a small inline script that moves the highlight (arrow keys, space, Home/End, or its buttons).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Unpack

import ipywidgets as widgets
import pandas as pd

from ..engine.settings import Settings, SourceKeywords, checked_init, checked_keywords, setting_keywords
from ._export import page, save_view
from ._preview import Preview, preview
from ._render import NO_TURNS, render_preview
from ._source import Source
from ._style import MUTED, RULE, SELECTED, TEXT, UI_FONT

CONTEXT = 3  # lines shown above and below a chunk in the notebook's view
MOST_LINES = 40  # lines of a chunk shown at most in the notebook's view (a projector's screen)
WHY_TYPE = "font-size:26px;line-height:1.35"  # the reason, legible from the back of a room


@dataclass(frozen=True)
class Step:
    """One chunk: its position among the file's chunks, its lines, a heading (type, name, lines) and why.

    Args:
        position: Its position among the file's chunks (0-based).
        start_line: Its first line.
        end_line: Its last line.
        heading: Type, name and lines, in words.
        why: Why it starts and ends where it does ("" when not known).
    """

    position: int
    start_line: int
    end_line: int
    heading: str
    why: str


@dataclass(frozen=True)
class Steps:
    """The chunks of one file, in the engine's order, and the preview they come from (lines, bands, highlighting).

    Args:
        path: The file's path.
        preview: The whole file's preview (every line on one page).
        steps: One per chunk, in the engine's order.
    """

    path: str
    preview: Preview
    steps: tuple[Step, ...]

    def __len__(self) -> int:
        return len(self.steps)

    def page_html(self) -> str:
        """Every step on one self-contained page: the whole file, the reason in large type, keys and buttons."""
        return page(f"{self.path}: step through the cuts", _page_body(self), script=_PAGE_SCRIPT)


def _heading(row: pd.Series) -> str:
    words = [str(row[c]) for c in ("type", "name") if c in row and not pd.isna(row[c])]
    lines = f"lines {int(row['start_line'])}–{int(row['end_line'])}"
    return " ".join(words) + (" · " if words else "") + lines


@checked_keywords
def steps_of(shown: Preview) -> Steps:
    """The steps of the file `shown` previews: one per chunk, each with why it starts and ends where it does.

    Args:
        shown: A preview (its file and chunks; its reasons where it knows them).

    Returns:
        The steps, in the engine's order.
    """
    whole = shown.whole()
    frame = whole._shown_frame
    steps = tuple(
        Step(
            position=position, start_line=int(row["start_line"]), end_line=int(row["end_line"]),
            heading=_heading(row),
            why="" if "why" not in frame.columns or pd.isna(row["why"]) else str(row["why"]),
        )
        for position, (_, row) in enumerate(frame.iterrows())
    )
    return Steps(path=shown.path, preview=whole, steps=steps)


def step_html(steps: Steps, index: int) -> str:
    """The view of step `index` (0-based): where it is, the reason in large type, its lines highlighted in context.

    Args:
        steps: The steps of a file.
        index: Which step.

    Returns:
        The HTML (inline styles only).

    Raises:
        IndexError: No such step.
    """
    if not steps.steps:
        return f'<div style="{UI_FONT};color:{MUTED}">{escape(steps.path)} has no chunks to step through.</div>'
    if not 0 <= index < len(steps):
        msg = f"step {index} does not exist; {steps.path} has {len(steps)} steps (0-based)"
        raise IndexError(msg)
    step = steps.steps[index]
    shown = steps.preview
    first = max(1, step.start_line - CONTEXT)
    last = min(len(shown.lines), step.end_line + CONTEXT, first + MOST_LINES - 1)
    lines = render_preview(
        shown.lines, shown.rendered_frame(), path=shown.path, language=shown.language, start=first,
        max_lines=last - first + 1, selected=step.position, meaningful=shown.meaningful, height=None,
        page_turns=NO_TURNS, untyped=shown.untyped,
    )  # fmt: skip
    return _reason(f"{index + 1} / {len(steps)}", step.heading, step.why) + lines


def _reason(count: str, heading: str, why: str) -> str:
    return (
        f'<div data-step="" style="{UI_FONT};color:{TEXT};padding:8px 4px;border-bottom:1px solid {RULE}">'
        f'<div style="color:{MUTED}"><span data-count="">{escape(count)}</span> · '
        f'<b data-heading="">{escape(heading)}</b></div>'
        f'<div data-why="" style="{WHY_TYPE}">{escape(why or "(no reason recorded)")}</div></div>'
    )


def _page_body(steps: Steps) -> str:
    data = [{"start": s.start_line, "end": s.end_line, "heading": s.heading, "why": s.why} for s in steps.steps]
    buttons = (
        '<div style="position:sticky;top:0;z-index:1;background:var(--jp-layout-color0);padding:4px 0">'
        '<button type="button" data-go="-1">◀ previous</button> <button type="button" data-go="1">next ▶</button>'
        f' <span style="{UI_FONT};color:{MUTED}">← → or space to step, Home and End for the ends</span>'
        + _reason("", "", "")
        + "</div>"
    )
    highlight = json.dumps(SELECTED)
    listed = json.dumps(data).replace("</", "<\\/")  # in a script element: no text of the file can close it
    return (
        f'<div data-clanka="steps" data-highlight="{escape(highlight)}">{buttons}{steps.preview.still_html}</div>'
        f'<script type="application/json" id="cn-steps">{listed}</script>'
    )


# Moves the highlight: rows between the step's lines get the selection colour, the first is scrolled to the middle.
_PAGE_SCRIPT = """(function(){
var steps=JSON.parse(document.getElementById('cn-steps').textContent);
var view=document.querySelector('[data-clanka=steps]');
var colour=JSON.parse(view.dataset.highlight),at=-1,lit=[];
function show(i){if(!steps.length){return;}at=Math.max(0,Math.min(steps.length-1,i));var s=steps[at];
lit.forEach(function(r){r.style.removeProperty('box-shadow');r.removeAttribute('data-lit');});lit=[];
for(var n=s.start;n<=s.end;n++){var r=view.querySelector('tr[data-line="'+n+'"]');
if(r){r.style.boxShadow='inset 0 0 0 9999px '+colour;r.setAttribute('data-lit','');lit.push(r);}}
view.querySelector('[data-count]').textContent=(at+1)+' / '+steps.length;
view.querySelector('[data-heading]').textContent=s.heading;
view.querySelector('[data-why]').textContent=s.why||'(no reason recorded)';
if(lit.length){lit[0].scrollIntoView({block:'center'});}}
view.querySelectorAll('[data-go]').forEach(function(b){b.addEventListener('click',function(){show(at+Number(b.dataset.go));});});
document.addEventListener('keydown',function(e){var k=e.key;
if(k==='ArrowRight'||k==='ArrowDown'||k===' '||k==='PageDown'){show(at+1);}
else if(k==='ArrowLeft'||k==='ArrowUp'||k==='PageUp'){show(at-1);}
else if(k==='Home'){show(0);}else if(k==='End'){show(steps.length-1);}else{return;}e.preventDefault();});
show(0);})();"""


@checked_init
class StepThrough(widgets.VBox):
    """One chunk at a time, for a projector: `prev_button` / `next_button` move, `view` shows the step.

    State: `.model` (the `Steps`), `.index` (the step shown, 0-based). `go(index)` shows another step;
    `save("x.html")` writes every step as a self-contained page (arrow keys, space, Home/End, or its buttons).

    Args:
        steps: The steps of one file (`steps_of`).
    """

    def __init__(self, steps: Steps) -> None:
        self.model = steps
        self.index = 0
        self.prev_button = widgets.Button(description="◀ previous", layout=widgets.Layout(width="130px"))
        self.next_button = widgets.Button(description="next ▶", layout=widgets.Layout(width="130px"))
        self.prev_button.on_click(lambda _: self.go(self.index - 1))
        self.next_button.on_click(lambda _: self.go(self.index + 1))
        self.view = widgets.HTML()
        super().__init__([widgets.HBox([self.prev_button, self.next_button]), self.view])
        self.add_class("clanka-steps")
        self.go(0)

    def __repr__(self) -> str:
        return f"StepThrough({self.model.path!r}, step {self.index + 1} of {len(self.model)})"

    def _repr_html_(self) -> str:
        return str(self.view.value)

    def go(self, index: int) -> None:
        """Show step `index` (clamped to the steps there are).

        Args:
            index: The step, 0-based.
        """
        self.index = max(0, min(len(self.model) - 1, index))
        self.view.value = step_html(self.model, self.index)
        self.prev_button.disabled = self.index <= 0
        self.next_button.disabled = self.index >= len(self.model) - 1

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write every step as a self-contained page (`.html`; the format from the suffix).

        Args:
            path: The file to write (.html).

        Returns:
            The path written.

        Raises:
            ValueError: Another suffix.
        """
        return save_view(path, view="step-through", html=self.model.page_html)


@setting_keywords
def step_through(
    source: Source | Preview = None,
    path: str | None = None,
    *,
    settings: Settings | None = None, **given: Unpack[SourceKeywords],
) -> StepThrough:
    """Step through the cuts of one file, one chunk at a time, its `why` in large type: for a lesson or a demo.

    `source` is what `preview` takes (a folder, one file, a `Codebase`, a chunk frame, None for the sample), or a
    `Preview` itself (`cn.preview_text(snippet, "a.go")`: a snippet in any language).

    Args:
        source: A folder, one file, an `engine.Codebase`, a chunk frame, a `Preview`, or None for the sample.
        path: The file, relative to the source's root; None: as `preview` picks it.

    Returns:
        The widget: previous / next buttons and the step shown; `.save("x.html")` for a page of every step.

    Examples:
        >>> cn.step_through(cn.preview_text(snippet, "shapes.go", chunk_size=8))
    """
    shown = source if isinstance(source, Preview) else preview(source, path, settings=Settings(**given).over(settings))
    return StepThrough(steps_of(shown))
