"""A chunk-size histogram as inline SVG: a few ms per slider move and visible without a kernel.

(`frames.plot_chunk_sizes` draws the full matplotlib figure for reports; rasterising one takes
longer than the tuning panel's whole update budget.)
"""

from __future__ import annotations

from html import escape
from typing import cast

import numpy as np

from ..frames.plots import frontier
from ._style import ALERT, MUTED, PAPER, TEXT, UI_FONT

_BAR = "#4e79a7"
_TITLE_X = 6  # px from the left edge (and at least as much room on the right) for a chart's title


def bin_edges(values: np.ndarray, most: int = 40, include: int | None = None) -> np.ndarray:
    """Integer-aligned bin edges from 1 to past the largest value (and `include`), at most `most` bins."""
    top = max(int(values.max()) if len(values) else 1, include or 1)
    width = max(1, -(-top // most))
    return np.arange(1, top + width + 1, width)


def render_histogram(
    lines: np.ndarray, *, marker: int | None = None, width: int = 380, height: int = 184, title: str = "chunk lines"
) -> str:
    """Bars of how many chunks have each number of lines; a dashed line at `marker` (e.g. chunk_size).

    The marker's label sits in a band between the title and the plot, where no bar reaches.
    """
    values = np.asarray(lines, dtype=np.int64)
    edges = bin_edges(values, include=marker)
    counts, _ = np.histogram(values, bins=edges)
    left, right, top, bottom = 40, 10, 34, 28
    plot_w, plot_h = width - left - right, height - top - bottom
    peak = int(counts.max()) if len(counts) and counts.max() else 1
    span = float(edges[-1] - edges[0])

    def x(value: float) -> float:
        return cast("float", left + (value - edges[0]) / span * plot_w)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'data-clanka="histogram" style="{UI_FONT};background:{PAPER}">',
        f'<text x="{left}" y="13" font-size="12" style="fill:{TEXT}">{escape(title)} ({len(values):,} chunks)</text>',
    ]
    for count, lo, hi in zip(counts.tolist(), edges[:-1].tolist(), edges[1:].tolist(), strict=True):
        if count:
            h = count / peak * plot_h
            label = f"{lo}" if hi - lo == 1 else f"{lo}–{hi - 1}"
            parts.append(
                f'<rect x="{x(lo) + 0.5:.1f}" y="{top + plot_h - h:.1f}" width="{max(1.0, x(hi) - x(lo) - 1):.1f}" '
                f'height="{h:.1f}" fill="{_BAR}"><title>{label} lines: {count:,} chunks</title></rect>'
            )
    axis_y = top + plot_h
    parts.append(f'<line x1="{left}" y1="{axis_y}" x2="{left + plot_w}" y2="{axis_y}" style="stroke:{MUTED}"/>')
    ticks = np.unique(np.linspace(edges[0], edges[-1] - 1, 5).round().astype(int)).tolist()
    parts.extend(
        f'<text x="{x(tick + 0.5):.1f}" y="{axis_y + 14}" font-size="10" style="fill:{MUTED}" '
        f'text-anchor="middle">{tick}</text>'
        for tick in ticks
    )
    small = f'font-size="10" style="fill:{MUTED}" text-anchor="end"'
    parts.append(f'<text x="{left - 4}" y="{top + 8}" {small}>{peak:,}</text>')
    parts.append(f'<text x="{left - 4}" y="{axis_y}" {small}>0</text>')
    if marker is not None and edges[0] <= marker <= edges[-1]:
        mx = x(marker + 0.5)
        flip = "start" if mx < left + plot_w * 0.7 else "end"  # keep the label inside the plot
        parts.append(
            f'<line x1="{mx:.1f}" y1="{top - 12}" x2="{mx:.1f}" y2="{axis_y}" style="stroke:{ALERT}" '
            'stroke-dasharray="4 3"/>'
            # Above the plot: the tallest bar reaches `top`, the label's baseline is 4 px higher.
            f'<text data-marker="" x="{mx + (3 if flip == "start" else -3):.1f}" y="{top - 4}" font-size="10" '
            f'style="fill:{ALERT}" text-anchor="{flip}">chunk_size {marker}</text>'
        )
    parts.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{height - 2}" font-size="10" style="fill:{MUTED}" '
        'text-anchor="middle">lines per chunk</text></svg>'
    )
    return "".join(parts)


# Widths in em of the characters a chart's title may hold, each at least its width in DejaVu Sans (wider than the
# usual system UI fonts), so that a title measured with them is never longer than the browser draws it.
_NARROW = frozenset("ijlrtf.,:;'!|() /\\-")
_WIDE = frozenset("mwMW@%#&+=~<>^")


def text_width(text: str, size: float) -> float:
    """An upper bound of `text`'s width in pixels at font size `size` (px): the SVG cannot be measured here."""
    ems = sum(0.42 if c in _NARROW else 1.0 if c in _WIDE else 1.2 if not c.isascii()
              else 0.8 if c.isupper() else 0.64 for c in text)  # fmt: skip
    return ems * size


def wrapped(words: list[str], room: float, size: float) -> list[str]:
    """`words` (each kept whole on a line where it fits: "(4 settings)" is one) in lines at most `room` pixels wide at
    font size `size`, a space between two words on a line; a word wider than a line is cut where it stops fitting."""
    lines: list[str] = []
    for word in words:
        if lines and text_width(f"{lines[-1]} {word}", size) <= room:
            lines[-1] = f"{lines[-1]} {word}"
            continue
        while len(word) > 1 and text_width(word, size) > room:
            widths = np.cumsum([text_width(c, size) for c in word])  # widths add up: each head's in one pass
            cut = max(1, int(np.searchsorted(widths, room, side="right")))
            lines.append(word[:cut])
            word = word[cut:]
        lines.append(word)
    return lines


def render_trade_off(
    points: list[tuple[str, float, float]], *, current: str | None = None, cost: str = "tokens@5",
    quality: str = "quality", width: int = 380, height: int = 184, reference: str | None = None,
) -> str:
    """Quality against the cost paid, one dot per setting probed so far (`points`: label, cost, quality), the
    frontier (settings no other beats on both) joined, the setting shown now (`current`) ringed.

    Empty (a note) until a setting has been probed: the panel adds a point each time the probe runs. The point
    labelled `reference` (clanka's own setting) is a square of its own.
    """
    # The title starts at the left edge, not the plot's, and takes as many lines as the names need: a metric's
    # name such as budget_covered@2000 made one line longer than the chart, cut off at its right edge.
    title = [quality, "against", cost, "paid", f"({len(points)} setting{'' if len(points) == 1 else 's'})"]
    lines = wrapped(title, width - 2 * _TITLE_X, 12)
    left, right, top, bottom = 44, 14, 22 + 15 * (len(lines) - 1), 28
    plot_w, plot_h = width - left - right, height - top - bottom
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'data-clanka="trade-off" style="{UI_FONT};background:{PAPER}">',
        *(f'<text data-title="" x="{_TITLE_X}" y="{13 + 15 * number}" font-size="12" style="fill:{TEXT}">'
          f'{escape(line)}</text>' for number, line in enumerate(lines)),
    ]
    finite = [(label, c, q) for label, c, q in points if np.isfinite(c) and np.isfinite(q)]
    if not finite:
        note = "turn the probe on: each setting probed adds a point"
        parts.append(f'<text x="{width / 2}" y="{height / 2}" font-size="11" style="fill:{MUTED}" '
                     f'text-anchor="middle">{note}</text></svg>')  # fmt: skip
        return "".join(parts)
    costs = np.array([c for _, c, _ in finite])
    qualities = np.array([q for _, _, q in finite])
    on = frontier(costs, qualities)
    lo_c, hi_c = float(costs.min()), float(costs.max())
    # Both axes fit the points with a margin, as a scatter of probed settings should: from 0, quality scores of
    # 0.45-0.65 sat in a band against the top edge and their differences were a few pixels (issue 56, 7).
    pad_c = (hi_c - lo_c) * 0.08 or max(hi_c * 0.1, 1.0)
    q_min, q_max = float(qualities.min()), float(qualities.max())
    pad_q = (q_max - q_min) * 0.12 or max(abs(q_max) * 0.05, 0.01)
    lo_q, hi_q = q_min - pad_q, q_max + pad_q

    def x(value: float) -> float:
        return left + (value - lo_c + pad_c) / (hi_c - lo_c + 2 * pad_c) * plot_w

    def y(value: float) -> float:
        return top + plot_h - (value - lo_q) / (hi_q - lo_q) * plot_h

    order = np.argsort(costs[on], kind="stable")
    joined = " ".join(f"{x(c):.1f},{y(q):.1f}" for c, q in zip(costs[on][order], qualities[on][order], strict=True))
    parts.append(f'<polyline data-frontier="" points="{joined}" fill="none" style="stroke:{_BAR}" stroke-width="1.5"/>')
    for (label, c, q), front in zip(finite, on.tolist(), strict=True):
        colour = _BAR if front else MUTED
        ring = f' style="stroke:{ALERT}" stroke-width="2"' if label == current else ""
        if label == reference:  # clanka's own setting: a square, marked as such
            parts.append(f'<rect data-reference="" x="{x(c) - 5:.1f}" y="{y(q) - 5:.1f}" width="10" height="10" '
                         f'fill="none" style="stroke:{ALERT}" stroke-width="1.5"><title>{escape(label)}: '
                         f'{escape(quality)} {q:.3f}, {escape(cost)} {c:,.0f}</title></rect>')  # fmt: skip
            continue
        parts.append(f'<circle cx="{x(c):.1f}" cy="{y(q):.1f}" r="4" fill="{colour}"{ring}><title>{escape(label)}: '
                     f'{escape(quality)} {q:.3f}, {escape(cost)} {c:,.0f}'
                     f'{" (frontier)" if front else ""}</title></circle>')  # fmt: skip
    axis_y = top + plot_h
    parts.append(f'<line x1="{left}" y1="{axis_y}" x2="{left + plot_w}" y2="{axis_y}" style="stroke:{MUTED}"/>')
    small = f'font-size="10" style="fill:{MUTED}"'
    parts.append(f'<text x="{left - 4}" y="{top + 8}" {small} text-anchor="end">{hi_q:.2f}</text>')
    parts.append(f'<text x="{left - 4}" y="{axis_y}" {small} text-anchor="end">{lo_q:.2f}</text>')
    parts.append(f'<text x="{x(lo_c):.1f}" y="{axis_y + 14}" {small} text-anchor="middle">{lo_c:,.0f}</text>')
    if hi_c > lo_c:
        parts.append(f'<text x="{x(hi_c):.1f}" y="{axis_y + 14}" {small} text-anchor="middle">{hi_c:,.0f}</text>')
    # The cost is tokens@k of the probe's cut-offs: say which top-k it prices.
    what = f" (tokens of a top-{cost.partition('@')[2]} answer)" if cost.startswith("tokens@") else ""
    parts.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 2}" {small} text-anchor="middle">{escape(cost)}'
                 f'{escape(what)}</text></svg>')  # fmt: skip
    return "".join(parts)
