"""Point labels that never print over each other: each label's box is placed when the figure is drawn.

A sweep's settings often cost and score alike (size 60 at overlap 0 and at overlap 5), so a label at a fixed
offset from its point lands on its neighbour's. The place is chosen at draw time, after the constrained layout
has sized the axes, in display pixels: the label's box is measured once, then candidate boxes are tried in
order of preference (beside the point first, then farther away with a leader line back to it), and the first
that stays inside the axes and clears every box already placed and every point is taken. A label with no free
place anywhere in the axes is left out, and a note in the corner says labels were left out (never one printed
over another).

Imported by `plots` when a trade-off is drawn (it imports matplotlib). Only the boxes' arithmetic is ours:
matplotlib measures the text and draws it (no other library).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import numpy as np
from matplotlib.artist import Artist  # this module is imported only when a plot is made

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.backend_bases import RendererBase
    from matplotlib.text import Annotation, Text

GAP = 4.0  # points between a point and its label's box (the first candidate's offset: (4, 4))
POINT = 4.0  # points either side of a point's centre that a label keeps clear of (a marker of 6 points, and air)
BESIDE = 8  # the candidates right beside the point, which need no leader line
LEFT_OUT = "some labels left out: no room (the table has every setting)"


def _near(w: float, h: float, gap: float) -> list[tuple[float, float]]:
    """Lower-left corners, relative to the point, of a (w, h) box beside it: above right first, as labels read."""
    return [(gap, gap), (-w - gap, gap), (gap, -h - gap), (-w - gap, -h - gap),
            (gap, -h / 2), (-w - gap, -h / 2), (-w / 2, gap), (-w / 2, -h - gap)]  # fmt: skip


class _Cells:
    """What is taken of the axes, counted on a grid of cells of one point: a box takes every cell it touches (so two
    boxes that share no cell never overlap), and the sum over a box's cells, from the grid's running sums, says in
    one step how much of it is taken, for thousands of candidate boxes at once."""

    def __init__(self, area: np.ndarray, cell: float) -> None:
        self.origin, self.cell = area[:2], cell
        self.shape = (int(np.ceil((area[3] - area[1]) / cell)), int(np.ceil((area[2] - area[0]) / cell)))
        self.count = np.zeros(self.shape, dtype=np.int32)
        self._sums: np.ndarray | None = None

    def span(self, boxes: np.ndarray) -> np.ndarray:
        """The cells (n, 4: first column, first row, past the last column, past the last row) each box touches."""
        low = np.floor((boxes[:, :2] - self.origin) / self.cell)
        high = np.ceil((boxes[:, 2:] - self.origin) / self.cell)
        span = np.concatenate([low, high], axis=1)
        span = np.nan_to_num(span, nan=0.0)  # a point not drawn takes no cell
        limit = np.array([self.shape[1], self.shape[0]] * 2)
        return cast("np.ndarray", np.clip(span, 0, limit).astype(np.int64))

    def add(self, box: np.ndarray) -> None:
        i0, j0, i1, j1 = self.span(box[None, :])[0]
        self.count[j0:j1, i0:i1] += 1
        self._sums = None

    def add_lines(self, segments: np.ndarray) -> None:
        """Take the cells along each segment (n, 2, 2: from, to), one cell either side (a line of a point or so)."""
        for start, end in segments:
            if not np.isfinite([start, end]).all():
                continue
            steps = int(min(np.ceil(np.hypot(*(end - start)) / self.cell * 2), 100_000)) + 1
            along = start + np.linspace(0.0, 1.0, steps)[:, None] * (end - start)
            cells = np.floor((along - self.origin) / self.cell).astype(np.int64)
            mask = np.zeros(self.shape, dtype=bool)  # each cell once per line, however many samples fall in it
            for dj in (-1, 0, 1):
                for di in (-1, 0, 1):
                    j, i = cells[:, 1] + dj, cells[:, 0] + di
                    keep = (j >= 0) & (j < self.shape[0]) & (i >= 0) & (i < self.shape[1])
                    mask[j[keep], i[keep]] = True
            self.count += mask
        self._sums = None

    def taken(self, spans: np.ndarray) -> np.ndarray:
        """How many taken cells (counted once per box that took them) each span holds."""
        if self._sums is None:
            self._sums = np.zeros((self.shape[0] + 1, self.shape[1] + 1), dtype=np.int64)
            self._sums[1:, 1:] = self.count.cumsum(axis=0).cumsum(axis=1)
        s, (i0, j0, i1, j1) = self._sums, spans.T
        taken: np.ndarray = s[j1, i1] - s[j0, i1] - s[j1, i0] + s[j0, i0]
        return taken


def _shared(spans: np.ndarray, own: np.ndarray) -> np.ndarray:
    """How many cells each span shares with the span `own`."""
    wide = np.clip(np.minimum(spans[:, 2], own[2]) - np.maximum(spans[:, 0], own[0]), 0, None)
    tall = np.clip(np.minimum(spans[:, 3], own[3]) - np.maximum(spans[:, 1], own[1]), 0, None)
    shared: np.ndarray = wide * tall
    return shared


def _candidates(w: float, h: float, scale: float, area: np.ndarray, point: np.ndarray) -> np.ndarray:
    """Candidate lower-left corners (absolute pixels) for a (w, h) box labelling `point`: beside it (the first
    `BESIDE`), a little farther, then a grid over the whole `area` (x0, y0, x1, y1) nearest first."""
    near = [corner for far in (1.0, 3.0, 6.0) for corner in _near(w, h, GAP * scale * far)]
    xs = np.arange(area[0], max(area[0], area[2] - w) + 1e-9, max(h, 1.0))
    ys = np.arange(area[1], max(area[1], area[3] - h) + 1e-9, max(h / 2, 1.0))
    grid = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    centre = grid + np.array([w / 2, h / 2])
    grid = grid[np.argsort(np.hypot(*(centre - point).T), kind="stable")]
    return np.concatenate([point + np.array(near), grid])


def place(axes: Axes, labels: list[Annotation], points: np.ndarray, lines: np.ndarray, note: Text,
          renderer: RendererBase) -> np.ndarray:  # fmt: skip
    """Place `labels` (annotations at `points`, data coordinates, in order of importance) so no two boxes overlap,
    none covers a point or crosses one of the `lines` (n, 2, 2, data coordinates: the frontier, the intervals), all
    inside the axes; `note` says when some had to be left out. The leader lines, in display pixels (n, 2, 2), of the
    labels placed away from their point."""
    scale = axes.figure.dpi / 72.0  # pixels per point
    box = axes.get_window_extent(renderer)
    area = np.array([box.x0, box.y0, box.x1, box.y1]) + np.array([0.5, 0.5, -0.5, -0.5])  # clear of the spines
    at = axes.transData.transform(points) if len(points) else np.empty((0, 2))
    # One box per point, in the labels' order (a point not drawn, NaN, overlaps nothing).
    marks = np.concatenate([at - POINT * scale, at + POINT * scale], axis=1)
    drawn = axes.transData.transform(lines.reshape(-1, 2)).reshape(-1, 2, 2) if len(lines) else lines
    sizes = []
    for label in labels:
        label.set_visible(True)
        extent = label.get_window_extent(renderer)
        sizes.append((extent.width, extent.height))
    note.set_visible(False)
    left_out, leaders = _place_all(labels, at, sizes, area, marks, drawn, scale)
    if left_out:  # the note takes the top-left corner, and the labels are placed again around it
        note.set_visible(True)
        note_box = note.get_window_extent(renderer)
        marks = np.concatenate([marks, [[note_box.x0, note_box.y0, note_box.x1, note_box.y1]]])
        left_out, leaders = _place_all(labels, at, sizes, area, marks, drawn, scale)
    return np.array(leaders).reshape(-1, 2, 2)


def _place_all(labels: list[Annotation], at: np.ndarray, sizes: list[tuple[float, float]], area: np.ndarray,
               marks: np.ndarray, lines: np.ndarray, scale: float) -> tuple[int, list[np.ndarray]]:  # fmt: skip
    """Place each label in turn (the boxes placed so far and `marks` are obstacles: the points' boxes, in the
    labels' order, then any other); how many found no room, and the leader lines of those placed away."""
    cells = _Cells(area, cell=scale)
    pad = np.array([-scale, -scale, scale, scale])  # a point of air around every box placed
    for mark in marks:
        if np.isfinite(mark).all():
            cells.add(mark)
    cells.add_lines(lines)
    points = cells.span(marks[: len(at)])
    left_out, leaders = 0, []
    for label, point, own, (w, h) in zip(labels, at, points, sizes, strict=True):
        if not np.isfinite(point).all():
            label.set_visible(False)
            continue
        corners = _candidates(w, h, scale, area, point)
        boxes = np.concatenate([corners, corners + np.array([w, h])], axis=1)
        inside = (boxes[:, 0] >= area[0]) & (boxes[:, 1] >= area[1]) & (boxes[:, 2] <= area[2]) \
            & (boxes[:, 3] <= area[3])  # fmt: skip
        spans = cells.span(boxes)
        # Free: no cell taken but by its own point's box (its label sits beside it: GAP > the marker's radius).
        ok = np.flatnonzero(inside & (cells.taken(spans) - _shared(spans, own) == 0))
        if not len(ok):
            label.set_visible(False)
            left_out += 1
            continue
        label.set_visible(True)
        label.xyann = tuple(np.round((corners[ok[0]] - point) / scale, 6).tolist())  # (4, 4), not 4.000000000000001
        if ok[0] >= BESIDE:
            leaders.append(_leader(boxes[ok[0]], point, POINT * scale))
        cells.add(boxes[ok[0]] + pad)
    return left_out, leaders


def _leader(box: np.ndarray, point: np.ndarray, clear: float) -> np.ndarray:
    """A line from the box's nearest edge to the point, stopping `clear` pixels short of it (the marker's edge)."""
    edge = np.clip(point, box[:2], box[2:])
    along = edge - point
    length = float(np.hypot(*along))
    return np.array([edge, point + along * min(1.0, clear / length)]) if length else np.array([edge, edge])


class LabelPlacer(Artist):
    """An artist of the axes that places the labels each time the figure is drawn, before they are drawn (its
    zorder is below every other artist's), once the layout has fixed where the axes are."""

    def __init__(self, axes: Axes, labels: list[Annotation], points: np.ndarray, lines: np.ndarray, note: Text) -> None:
        from matplotlib.collections import LineCollection
        from matplotlib.transforms import IdentityTransform

        super().__init__()
        self._axes, self._labels, self._points, self._lines, self._note = axes, labels, points, lines, note
        self.set_zorder(-100)
        self.set_in_layout(False)
        # Drawn from the places found at each draw, in display pixels; under the points and the texts. (matplotlib's
        # own annotation arrows clip their path to the text's box: ~20 ms a label.)
        self.leaders = LineCollection([], colors="0.6", linewidths=0.6, zorder=2.5, transform=IdentityTransform(),
                                      gid="leader lines")  # fmt: skip
        self.leaders.set_in_layout(False)
        axes.add_collection(self.leaders, autolim=False)

    def draw(self, renderer: RendererBase) -> None:
        if self.get_visible():
            self.leaders.set_segments(list(place(self._axes, self._labels, self._points, self._lines, self._note,
                                                  renderer)))
