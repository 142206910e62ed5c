"""A sweep's report: one self-contained page a team reads without Python. The decision first, then the trade-off
(the verdict's metric with its 95% interval against the tokens each setting indexes, inline SVG), the settings
table, the queries per source, what was swept and on which commit, and the commands that reproduce it.

`report_model` (pure, but for reading the root's commit) gathers what the page says from the table and its attrs;
`render_report` writes the HTML; `Report` holds both and saves the page (`save("x.html")`).
"""

from __future__ import annotations

import math
import os
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

import pandas as pd

from ..defaults import CHUNK_SETTING_NAMES
from ..defaults import SETTINGS as SETTING_TABLE
from ..engine.settings import checked_init, checked_keywords
from ..history.internals import ChurnError, git, repository
from ..metrics import metric_of
from ._export import page, save_view
from ._style import ALERT, MUTED, PAPER, RULE, SURFACE, TEXT, UI_FONT

SETTINGS = ("chunker_label", *CHUNK_SETTING_NAMES)
SIZE = CHUNK_SETTING_NAMES[0]  # a row of the engine's (a chunker's row has none)
SHOWN = ("chunks", "coverage", "lines_mean", "est_tokens_total", "tokens_total", "queries", "searcher")
_POINT = "#4e79a7"
_CHOSEN = "#e15759"


@dataclass(frozen=True)
class ReportModel:
    """What a sweep's report says, gathered once from the table and its attrs.

    Args:
        decision: The verdict's decision in a sentence ("" when the sweep was not probed).
        message: The verdict's whole message (or why there is none).
        metric: The column the verdict ranks by (None: no probe).
        labels: Each row's setting, in words.
        chosen: The row the verdict takes (None: none).
        points: Per row (label, tokens indexed, metric, low, high) for the trade-off; NaN where unknown.
        table: The settings table: the settings, the main measures and the metric with its interval.
        sources: Queries per source (doc comments, test names, commit messages...).
        swept: Each setting swept and its values.
        root: The folder swept (None: unknown).
        commit: The commit checked out in the root when the report was written, or why there is none.
        commands: The command line and the Python call that sweep it again.
    """

    decision: str
    message: str
    metric: str | None
    labels: tuple[str, ...]
    chosen: int | None
    points: tuple[tuple[str, float, float, float, float], ...]
    table: pd.DataFrame = field(repr=False)
    sources: Mapping[str, int]
    swept: Mapping[str, tuple[Any, ...]]
    root: str | None
    commit: str
    commands: tuple[str, str]


def _labels(table: pd.DataFrame) -> list[str]:
    """Each row by the settings that differ between rows (the size when none does); a chunker's row by its label."""
    rows = table[table[SIZE].notna()] if SIZE in table.columns else table
    settings = [c for c in SETTINGS[1:] if c in table.columns]
    shown = [c for c in settings if rows[c].nunique(dropna=False) > 1] or settings[:1]
    labels = []
    for _, row in table.iterrows():
        if "chunker_label" in table.columns and pd.isna(row.get(SIZE)):
            labels.append(str(row["chunker_label"]))
            continue
        parts = [f"{c}={'none' if pd.isna(row[c]) else int(row[c])}" for c in shown]
        labels.append(", ".join(parts))
    return labels


def _number(value: object) -> float:
    try:
        number = float(value)  # type: ignore[arg-type]  # a table's cell: any value; float() refuses what is no number
    except (TypeError, ValueError):
        return math.nan
    return number


def commit_of(root: str | None) -> str:
    """The commit checked out in `root` (with "+ changes not committed" when its files differ), or why none.

    Args:
        root: The folder swept.

    Returns:
        A sentence-sized text for the report.
    """
    if root is None:
        return "unknown: the table does not name the folder swept"
    try:
        top, _ = repository(root)
        head = git(top, "rev-parse", "HEAD").strip()
        dirty = git(top, "status", "--porcelain", "--untracked-files=no").strip()
    except (ChurnError, OSError) as error:
        return f"none: {error}"
    return head + (" + changes not committed" if dirty else "")


def _commands(table: pd.DataFrame, swept: Mapping[str, tuple[Any, ...]], metric: str | None) -> tuple[str, str]:
    """The `clanka-nb sweep` command line and the `cn.sweep` call of the same sweep."""
    attrs = table.attrs
    root = str(attrs.get("root") or ".")
    flags = {setting.name: setting.flag for setting in SETTING_TABLE}
    line = ["clanka-nb", "sweep", shlex.quote(root)]
    call = [repr(root)]
    for name, values in swept.items():
        line += [flags[name], ",".join("none" if v is None else str(v) for v in values)]
        call.append(f"{name}={list(values)!r}")
    languages = attrs.get("languages")
    if languages:
        line += ["--languages", shlex.quote(str(languages))]
        call.append(f"languages={languages!r}")
    if metric is not None:
        verdict = attrs.get("verdict") or {}
        cutoffs = [m.at for c in table.columns if (m := metric_of(c)) is not None and m.name == f"recall@{m.at}"]
        budgets = list(attrs.get("budget") or [])
        margin = verdict.get("margin")
        line += ["--probe", "--metric", metric]
        options = [f"metric={metric!r}"]
        if cutoffs:
            line += ["--k", ",".join(str(k) for k in cutoffs)]
            options.append(f"k={cutoffs!r}")
        if budgets:
            line += ["--budget", ",".join(str(b) for b in budgets)]
            options.append(f"budget={budgets!r}")
        line += ["--margin", "none" if margin is None else f"{margin:g}"]
        options.append(f"margin={margin!r}")
        if attrs.get("sample") is not None:
            line += ["--sample", f"{attrs['sample']}"]
        call.append(f"probe=cn.Probe({', '.join(options)})")
    if "chunker_label" in table.columns:
        chunkers = [str(c) for c in table["chunker_label"].dropna().unique() if str(c) != "clanka"]
        if chunkers:
            line += ["--chunkers", ",".join(chunkers)]
            call.append("chunkers=...  # the chunkers of --chunkers")
    return " ".join(line), f"table = cn.sweep({', '.join(call)})"


def _swept(table: pd.DataFrame) -> dict[str, tuple[Any, ...]]:
    """The grid's values of each setting, as the user swept them: clanka's own setting's row (`reference`, which
    every probed sweep scores again by itself) is left out unless it is the only one."""
    swept: dict[str, tuple[Any, ...]] = {}
    rows = table[table[SIZE].notna()] if SIZE in table.columns else table.iloc[:0]
    if "reference" in rows.columns:
        grid = rows[~rows["reference"].fillna(False).to_numpy(dtype=bool)]
        rows = grid if len(grid) else rows
    for name in SETTINGS[1:]:
        if name in rows.columns:
            values = [None if pd.isna(v) else int(v) for v in pd.unique(rows[name])]
            swept[name] = tuple(values)
    return swept


@checked_keywords
def report_model(table: pd.DataFrame) -> ReportModel:
    """Gather what a sweep's report says from `table` (a `cn.sweep` table) and its attrs.

    Args:
        table: A sweep table (`cn.sweep`, `clanka-nb sweep`), probed or not.

    Returns:
        The report's model.

    Raises:
        TypeError: `table` is not a DataFrame.
        ValueError: It has no rows, or no column a sweep writes.
    """
    if not isinstance(table, pd.DataFrame):
        msg = f"report needs the table cn.sweep returns, got {type(table).__name__}; pass cn.sweep(...)'s result"
        raise TypeError(msg)
    if table.empty or "chunks" not in table.columns:
        msg = f"report needs a sweep table with rows ({SIZE}, chunks...); pass the result of cn.sweep(...)"
        raise ValueError(msg)
    table = table.reset_index(drop=True)
    labels = _labels(table)
    verdict = table.attrs.get("verdict") or None
    metric = None if verdict is None else str(verdict.get("metric"))
    points, chosen = [], None
    if verdict is not None and metric in table.columns:
        cost = next((c for c in ("tokens_total", "est_tokens_total") if c in table.columns), "chunks")
        for label, (_, row) in zip(labels, table.iterrows(), strict=True):
            low, high = row.get(f"{metric}_low"), row.get(f"{metric}_high")
            points.append((label, _number(row[cost]), _number(row[metric]), _number(low), _number(high)))
        best = verdict.get("choice")
        chosen = None if best is None else int(best)
    message = str(verdict["message"]) if verdict else str(
        table.attrs.get("probe_reason") or "the sweep was not probed, so no setting is chosen: sweep with "
        "probe=True (clanka-nb sweep --probe) to have a verdict"
    )
    shown = [c for c in (*SETTINGS, *SHOWN) if c in table.columns]
    if metric is not None and metric in table.columns:
        shown += [c for c in (metric, f"{metric}_low", f"{metric}_high") if c in table.columns]
    swept = _swept(table)
    root = table.attrs.get("root")
    return ReportModel(
        decision=str(verdict.get("decision") or "") if verdict else "", message=message, metric=metric,
        labels=tuple(labels), chosen=chosen, points=tuple(points), table=table[shown],
        sources=dict(table.attrs.get("query_sources") or {}), swept=swept,
        root=None if root is None else str(root), commit=commit_of(None if root is None else str(root)),
        commands=_commands(table, swept, metric),
    )  # fmt: skip


def render_trade_off_intervals(
    points: Sequence[tuple[str, float, float, float, float]], *, chosen: int | None, metric: str,
    width: int = 640, height: int = 320,
) -> str:
    """The verdict's metric (with its 95% interval) against the tokens each setting indexes, as inline SVG.

    Args:
        points: Per setting (label, tokens indexed, metric, low, high).
        chosen: The position of the setting the verdict takes, drawn in its own colour; None: none.
        metric: The metric's name, for the axis.
        width: The chart's width in px.
        height: The chart's height in px.

    Returns:
        The SVG; every point's `<title>` gives its setting, cost and interval.
    """
    usable = [(i, p) for i, p in enumerate(points) if all(math.isfinite(v) for v in p[1:3])]
    if not usable:
        return f'<p style="{UI_FONT};color:{MUTED}">No setting has a score to draw.</p>'
    left, right, top, bottom = 64, 24, 16, 44
    xs = [p[1] for _, p in usable]
    lows = [p[3] if math.isfinite(p[3]) else p[2] for _, p in usable]
    highs = [p[4] if math.isfinite(p[4]) else p[2] for _, p in usable]
    x0, x1 = min(xs), max(xs)
    pad = (x1 - x0) * 0.08 or max(abs(x1) * 0.1, 1.0)
    x0, x1 = x0 - pad, x1 + pad
    y0, y1 = max(0.0, min(lows) - 0.05), min(1.0, max(highs) + 0.05) if max(highs) <= 1 else max(highs) * 1.05
    y1 = y1 if y1 > y0 else y0 + 1

    def x(value: float) -> float:
        return left + (value - x0) / (x1 - x0) * (width - left - right)

    def y(value: float) -> float:
        return top + (y1 - value) / (y1 - y0) * (height - top - bottom)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'data-clanka="report-trade-off" role="img" style="{UI_FONT};background:{PAPER};max-width:100%">',
        f'<line x1="{left}" y1="{height - bottom}" x2="{width - right}" y2="{height - bottom}" '
        f'style="stroke:{MUTED}"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{height - bottom}" style="stroke:{MUTED}"/>',
        f'<text x="{(left + width - right) / 2}" y="{height - 8}" text-anchor="middle" font-size="12" '
        f'style="fill:{TEXT}">tokens indexed (fewer is cheaper)</text>',
        f'<text x="14" y="{(top + height - bottom) / 2}" text-anchor="middle" font-size="12" '
        f'transform="rotate(-90 14 {(top + height - bottom) / 2})" style="fill:{TEXT}">{escape(metric)} (95% interval)'
        "</text>",
    ]
    parts += [f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end" font-size="11" '
              f'style="fill:{MUTED}">{tick:.2f}</text>' for tick in (y0, (y0 + y1) / 2, y1)]
    parts += [f'<text x="{x(tick):.1f}" y="{height - bottom + 16}" text-anchor="middle" font-size="11" '
              f'style="fill:{MUTED}">{tick:,.0f}</text>' for tick in (x0 + pad, (x0 + x1) / 2, x1 - pad)]
    for (i, (label, cost, value, _, _)), low, high in zip(usable, lows, highs, strict=True):
        colour = _CHOSEN if i == chosen else _POINT
        hover = f"{label}: {metric} {value:.3f} [{low:.3f}, {high:.3f}], {cost:,.0f} tokens"
        parts.append(
            f'<g data-point="{i}"><title>{escape(hover)}</title>'
            f'<line x1="{x(cost):.1f}" y1="{y(low):.1f}" x2="{x(cost):.1f}" y2="{y(high):.1f}" '
            f'style="stroke:{colour};stroke-width:2"/>'
            f'<circle cx="{x(cost):.1f}" cy="{y(value):.1f}" r="{6 if i == chosen else 4}" style="fill:{colour}"/>'
            f'<text x="{x(cost) + 8:.1f}" y="{y(value) - 6:.1f}" font-size="11" style="fill:{TEXT}">'
            f"{escape(label)}</text></g>"
        )
    parts.append("</svg>")
    return "".join(parts)


_CELL = f"padding:3px 8px;border-bottom:1px solid {RULE};text-align:right;white-space:nowrap"
_HEAD = f"{_CELL};background:{SURFACE};color:{TEXT}"
_CODE = f"display:block;padding:6px 8px;background:{SURFACE};border:1px solid {RULE};border-radius:4px;" \
    "white-space:pre-wrap;word-break:break-all;font-family:SFMono-Regular,Menlo,Consolas,'DejaVu Sans Mono',monospace"


def _cell(value: object) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return "—"
    if isinstance(value, float):
        return f"{value:,.3f}" if abs(value) < 10 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    return escape(str(value))


def _settings_table(model: ReportModel) -> str:
    table = model.table
    head = "".join(f'<th style="{_HEAD}">{escape(c)}</th>' for c in ["setting", *table.columns])
    rows = []
    for i, (label, (_, row)) in enumerate(zip(model.labels, table.iterrows(), strict=True)):
        chosen = i == model.chosen
        mark = f";background:color-mix(in srgb,{_CHOSEN} 14%,{PAPER})" if chosen else ""
        cells = "".join(f'<td style="{_CELL}">{_cell(v)}</td>' for v in row.tolist())
        said = f'<td style="{_CELL};text-align:left"><b>{escape(label)}</b>{" ← chosen" * chosen}</td>'
        flag = " data-chosen" if chosen else ""
        rows.append(f'<tr data-row="{i}"{flag} style="color:{TEXT}{mark}">{said}{cells}</tr>')
    return (f'<div style="overflow-x:auto"><table data-report="settings" style="border-collapse:collapse;{UI_FONT}">'
            f"<tr>{head}</tr>{''.join(rows)}</table></div>")


def _section(title: str, body: str, key: str) -> str:
    return f'<section data-section="{key}" style="margin:18px 0"><h2 style="font-size:15px;margin:0 0 6px">' \
        f"{escape(title)}</h2>{body}</section>"


@checked_keywords
def render_report(model: ReportModel) -> str:
    """The report's HTML (inline styles only): decision, trade-off, settings, queries, what was swept, commands.

    Args:
        model: What the report says (`report_model`).

    Returns:
        The HTML, the body of the exported page.
    """
    decision = model.decision or "No decision"
    verdict = (f'<div data-section="decision" style="{UI_FONT};font-size:18px;line-height:1.4;padding:10px 12px;'
               f'border-left:4px solid {_CHOSEN if model.chosen is not None else ALERT};background:{SURFACE}">'
               f"<b>{escape(decision)}</b></div>"
               f'<p data-section="verdict" style="{UI_FONT};color:{TEXT}">{escape(model.message)}</p>')
    chart = (render_trade_off_intervals(model.points, chosen=model.chosen, metric=model.metric or "")
             if model.points else f'<p style="{UI_FONT};color:{MUTED}">No probe, so no scores to draw.</p>')
    sources = "".join(f"<li>{escape(str(k)).replace('_', ' ')}: {v:,}</li>" for k, v in model.sources.items())
    swept = "".join(f"<li>{escape(name)}: {', '.join('none' if v is None else str(v) for v in values)}</li>"
                    for name, values in model.swept.items())
    where = (f"<li>folder: <code>{escape(model.root or 'unknown')}</code></li>"
             f"<li>commit: <code data-commit>{escape(model.commit)}</code></li>")
    line, call = model.commands
    commands = (f'<p style="{UI_FONT}">On the command line:</p><code data-command="cli" style="{_CODE}">'
                f"{escape(line)}</code><p style=\"{UI_FONT}\">In Python (<code>import clanka_nb as cn</code>):</p>"
                f'<code data-command="python" style="{_CODE}">{escape(call)}</code>')
    return (
        f'<div data-clanka="report" style="{UI_FONT};color:{TEXT};max-width:1100px">{verdict}'
        + _section("The trade-off", chart, "trade-off")
        + _section("The settings", _settings_table(model), "settings")
        + _section("The queries, per source", f"<ul>{sources or '<li>none: the sweep was not probed</li>'}</ul>",
                   "queries")
        + _section("What was swept", f"<ul>{swept}{where}</ul>", "swept")
        + _section("To reproduce it", commands, "commands")
        + "</div>"
    )  # fmt: skip


@checked_init
class Report:
    """A sweep's report: `.model` (a `ReportModel`), `.html` (its HTML); shows itself in a notebook, and
    `save("x.html")` writes the self-contained page a team reads without Python.

    Args:
        table: A sweep table (`cn.sweep`).
    """

    def __init__(self, table: pd.DataFrame) -> None:
        self.model = report_model(table)
        self.html = render_report(self.model)

    def __repr__(self) -> str:
        return f"Report({len(self.model.labels)} settings: {self.model.decision or 'no decision'})"

    def _repr_html_(self) -> str:
        return self.html

    def page_html(self) -> str:
        """The report as one self-contained page."""
        return page("Chunk settings: what the sweep decided", self.html)

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the report as a self-contained page (`.html`; the format from the suffix).

        Args:
            path: The file to write (.html).

        Returns:
            The path written.

        Raises:
            ValueError: Another suffix.
        """
        return save_view(path, view="report", html=self.page_html)


@checked_keywords
def report(table: pd.DataFrame) -> Report:
    """The report of a sweep, for a team that reads it without Python: the decision first, the trade-off with
    intervals, the settings table, the queries per source, what was swept and on which commit, and the commands
    that reproduce it. `report(table).save("report.html")` writes it as one self-contained page.

    Args:
        table: A sweep table (`cn.sweep`, probed or not).

    Returns:
        The report: shows as HTML in a notebook; `.save("x.html")` writes the page.

    Raises:
        TypeError: `table` is not a DataFrame.
        ValueError: It is not a sweep table with rows.

    Examples:
        >>> cn.report(cn.sweep("my-repo", chunk_size=[20, 40, 80], probe=True)).save("report.html")
    """
    return Report(table)
