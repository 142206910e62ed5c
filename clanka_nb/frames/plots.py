"""Matplotlib figures of chunk frames and sweeps (matplotlib is imported only when a plot is made)."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, cast

import numpy as np
import pandas as pd

from ..engine.settings import checked_keywords
from ..figures import fitted_title, literal_text, new_figure
from ..metrics import TOKENS, is_cost, is_metric_column, metric_of, trade_off_cost

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

_NONE_LABEL = "(none)"


def _require(frame: pd.DataFrame, column: str, what: str, choices: list[str]) -> None:
    if column not in frame.columns:
        msg = f"{what}={column!r} is not a column of this frame; choose one of {choices}"
        raise ValueError(msg)


def _numeric(series: pd.Series) -> np.ndarray:
    return cast("np.ndarray", series.to_numpy(dtype=float, na_value=np.nan))


@checked_keywords
def plot_chunk_sizes(frame: pd.DataFrame, by: str | None = "type", metric: str = "lines", bins: int = 30) -> Figure:
    """A stacked histogram of chunk sizes (`metric`: "lines" or "characters"), one colour per value of `by`.

    `by` is any column of a chunk frame ("type", "language", "chunker", "path"...) or None for one
    series; missing values (e.g. window chunks have no type) are shown as "(none)".

    Args:
        frame: A chunk frame (`chunk_codebase`...).
        by: The column whose values get a colour each ("type", "language", "chunker", "path"...), None for one series.
        metric: "lines" or "characters".
        bins: How many bins.

    Returns:
        The matplotlib figure.

    Raises:
        ValueError: `metric` or `by` is not a column of the frame.

    Examples:
        >>> cn.plot_chunk_sizes(cn.chunk_codebase(), by="language")
    """
    sizes = [name for name in frame.columns if pd.api.types.is_numeric_dtype(frame[name])]
    _require(frame, metric, "metric", sizes)
    figure = new_figure()
    axes = figure.add_subplot()
    if by is None:
        groups: dict[str, np.ndarray] = {"all chunks": _numeric(frame[metric])}
    else:
        _require(frame, by, "by", list(frame.columns))
        labels = frame[by].astype("string").fillna(_NONE_LABEL)
        groups = {str(key): _numeric(values) for key, values in frame[metric].groupby(labels, sort=True)}
    if groups and any(len(values) for values in groups.values()):
        axes.hist(list(groups.values()), bins=bins, stacked=True, label=list(groups))
        if by is not None:
            axes.legend(title=by, fontsize="small")
    else:
        axes.text(0.5, 0.5, "no chunks", ha="center", va="center", transform=axes.transAxes)
    axes.set_xlabel(f"chunk {metric}")
    axes.set_ylabel("chunks")
    axes.set_title(f"Chunk sizes ({metric})" + (f" by {by}" if by else ""))
    return literal_text(figure)


@checked_keywords
def plot_sweep(sweep_frame: pd.DataFrame, metric: str | None = None, x: str | None = None) -> Figure:
    """A metric of a `sweep()` frame against `x` (chunk_size), one line per chunk_overlap (and max characters).

    By default, a probed sweep (one with `attrs["verdict"]`) draws the verdict's metric against its cost (the
    trade-off below: `tokens@5`, or the largest cut-off under 5), any other sweep `chunks` against chunk_size.

    With a cost as `x` (`tokens@<k>` or `lines@<k>`: what a top-k answer costs) it is the trade-off plot
    instead: quality against cost paid, one point per setting (labelled with the settings that vary), its
    95% interval as a bar where the frame has `<metric>_low` / `<metric>_high`, and the frontier marked: the
    settings no other setting beats on both (as good or better for no more cost). E.g.
    `plot_sweep(table, "recall@5", x="tokens@5")`. The labels are placed each time the figure is drawn, so that
    none prints over another, a point or the frontier (away from a crowded point with a leader line; left out,
    with a note, when the axes have no room).

    Args:
        sweep_frame: A `sweep()` frame.
        metric: The column to plot ("chunks", "coverage", "recall@5"...); None: the verdict's metric on a probed
            sweep, else "chunks".
        x: The column along x: a setting (chunk_size) or a cost (`tokens@<k>`, `lines@<k>`) for the trade-off plot;
            None: the cost when `metric` is the verdict's by default, else "chunk_size".

    Returns:
        The matplotlib figure.

    Raises:
        ValueError: `metric` or `x` is not a column of the frame.

    Examples:
        >>> table = cn.sweep(chunk_size=[20, 30, 40])
        >>> cn.plot_sweep(table, "recall@5", x="tokens@5")
    """
    metric, x = _default_axes(sweep_frame, metric, x)
    sweep_frame, left_out = _ranked_rows(sweep_frame)
    notes = [f"not ranked: {left_out}"] if left_out else []
    if _is_probe_metric(metric) or _is_probe_metric(x):
        sweep_frame, screened = _decided_rows(sweep_frame)
        notes += [screened] if screened else []
    numeric = [name for name in sweep_frame.columns if pd.api.types.is_numeric_dtype(sweep_frame[name])]
    _require(sweep_frame, metric, "metric", numeric)
    _require(sweep_frame, x, "x", numeric)
    figure = new_figure()
    axes = figure.add_subplot()
    if not np.isfinite(_numeric(sweep_frame[metric])).any():
        axes.set_title(fitted_title(figure, f"{metric.replace('_', ' ')} by {x.replace('_', ' ')}"))
        _say_nothing_to_plot(axes, sweep_frame, metric)
        return literal_text(figure)
    if notes:
        figure.text(0.01, 0.005, "; ".join(notes), fontsize="x-small", color="0.35", va="bottom")
    if _is_cost(x):
        _trade_off(axes, sweep_frame, metric, x)
        return literal_text(figure)
    axes.set_title(fitted_title(figure, f"{metric.replace('_', ' ')} by {x.replace('_', ' ')}"))
    reference = _reference_rows(sweep_frame)
    # clanka's own setting, added to a grid that lacks it, is a star of its own, not a line of one point.
    grid = sweep_frame[~reference] if reference.any() and (~reference).any() else sweep_frame
    limits = grid.get("chunk_max_characters")
    several_limits = limits is not None and limits.nunique(dropna=False) > 1
    keys = ["chunk_overlap", "chunk_max_characters"] if several_limits else ["chunk_overlap"]
    for key, rows in grid.groupby(keys, sort=True, dropna=False):
        overlap, *limit = key if isinstance(key, tuple) else (key,)
        label = f"overlap {overlap}"
        if limit:
            label += ", no character limit" if pd.isna(limit[0]) else f", max {limit[0]} characters"
        rows = rows.sort_values(x)
        axes.plot(_numeric(rows[x]), _numeric(rows[metric]), marker="o", label=label)
    _star_reference(axes, sweep_frame, x, metric)
    if len(sweep_frame):
        axes.legend(fontsize="small")
    axes.set_xlabel(x.replace("_", " "))
    axes.set_ylabel(metric.replace("_", " "))
    return literal_text(figure)


def _ranked_rows(frame: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    """The rows the verdict ranks, and the others in words: a whole chunker that cut nothing of a language the
    queries' targets are in (`ranked` False; `attrs["unranked"]` says why: "astchunk: no Go grammar,
    clanka's cut there") is clanka's own cut there, so it is neither plotted nor on the frontier."""
    if "ranked" not in frame.columns:
        return frame, ""
    out = frame["ranked"].astype("boolean").eq(False).fillna(False).to_numpy(dtype=bool)  # NA: ranked (no probe)
    if not out.any():
        return frame, ""
    unranked = frame.attrs.get("unranked") or {}
    said = "; ".join(str(reason) for reason in unranked.values()) or ", ".join(
        frame.loc[out, "chunker_label"].astype(str))  # fmt: skip
    return frame[~out], said


def _decided_rows(frame: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    """A sweep whose model confirmed BM25's screen (`Probe(confirm=)`, the column `searcher`): the rows the model
    scored, and the others in words. Those keep BM25's scores, which one plot must not set beside the model's."""
    model = (frame.attrs.get("model_confirmation") or {}).get("model")
    if "searcher" not in frame.columns or model is None:
        return frame, ""
    decided = frame["searcher"].astype("string").eq(str(model)).fillna(False).to_numpy(dtype=bool)
    if decided.all() or not decided.any():
        return frame, ""
    labels = [label for label, kept in zip(_setting_labels(frame), decided, strict=True) if not kept]
    return frame[decided], f"screened out by BM25 (its scores, not {model}'s): {' | '.join(labels)}"


REFERENCE_LABEL = "clanka's setting (30 lines, 10,000 characters)"


def _reference_rows(frame: pd.DataFrame) -> np.ndarray:
    """Which rows are clanka's own setting (a probed sweep's `reference` column; none without it)."""
    column = frame.get("reference")
    return np.zeros(len(frame), dtype=bool) if column is None else column.fillna(False).to_numpy(dtype=bool)


def _star_reference(axes: Axes, frame: pd.DataFrame, x: str, metric: str) -> None:
    """clanka's own setting marked as such: a star over its point, named in the legend."""
    reference = _reference_rows(frame)
    if reference.any():
        rows = frame[reference]
        axes.scatter(_numeric(rows[x]), _numeric(rows[metric]), marker="*", s=220, color="C3", edgecolor="black",
                     zorder=5, label=REFERENCE_LABEL)  # fmt: skip


def _default_axes(frame: pd.DataFrame, metric: str | None, x: str | None) -> tuple[str, str]:
    """What `plot_sweep` draws when not told: on a probed sweep the verdict's metric against the cost the trade-off
    puts on x (as the tuning panel's chart), on any other `chunks` against chunk_size."""
    verdict = frame.attrs.get("verdict")
    chosen = verdict.get("metric") if isinstance(verdict, dict) else None
    costs = [metric.at for metric in map(metric_of, frame.columns) if metric is not None and metric.family is TOKENS]
    if metric is None and isinstance(chosen, str) and chosen in frame.columns and costs:
        return chosen, x if x is not None else trade_off_cost([at for at in costs if at is not None])
    return metric if metric is not None else "chunks", x if x is not None else "chunk_size"


def _is_cost(name: str) -> bool:
    return is_cost(name)


def frontier(cost: np.ndarray, quality: np.ndarray) -> np.ndarray:
    """Which points are on the frontier of a trade-off: no other point has at most their cost and at least their
    quality with one of the two strictly better. NaN points are never on it."""
    cost, quality = np.asarray(cost, dtype=float), np.asarray(quality, dtype=float)
    valid = np.isfinite(cost) & np.isfinite(quality)
    # A point is beaten when some valid point is no worse on both and better on one: pairwise, fine for a sweep.
    no_worse = (cost[None, :] <= cost[:, None]) & (quality[None, :] >= quality[:, None]) & valid[None, :]
    better = (cost[None, :] < cost[:, None]) | (quality[None, :] > quality[:, None])
    return cast("np.ndarray", valid & ~(no_worse & better).any(axis=1))


def _setting_labels(frame: pd.DataFrame) -> list[str]:
    """Each row by the setting columns whose values differ between rows (chunk_size alone when none does)."""
    names = [name for name in ("chunker_label", "chunk_size", "chunk_overlap", "chunk_max_characters")
             if name in frame.columns]  # fmt: skip
    # With whole chunkers' rows (sweep(chunkers=)), the engine's rows alone say which settings vary.
    chunkers = "chunker_label" in frame.columns and "chunk_size" in frame.columns
    settings = frame[frame["chunk_size"].notna()] if chunkers else frame
    varying = [name for name in names if (name == "chunker_label" and chunkers)
               or settings[name].nunique(dropna=False) > 1] or names[:1]  # fmt: skip
    short = {"chunker_label": "", "chunk_size": "size ", "chunk_overlap": "overlap ", "chunk_max_characters": "max "}
    shown = [["no limit" if pd.isna(value) else value for value in frame[name].tolist()] for name in varying]
    labels = [", ".join(f"{short[name]}{value}" for name, value in zip(varying, row, strict=True))
              for row in zip(*shown, strict=True)]  # fmt: skip
    labels = [f"clanka: {label}" if marked else label
              for label, marked in zip(labels, _reference_rows(frame), strict=True)]  # fmt: skip
    if not chunkers:
        return labels
    # A whole chunker's row (sweep(chunkers=)) has no engine settings: its label alone names it.
    whole = frame["chunk_size"].isna().tolist()
    return [str(label) if alone else text for label, alone, text in zip(frame["chunker_label"], whole, labels,
                                                                         strict=True)]  # fmt: skip


def _trade_off(axes: Axes, frame: pd.DataFrame, metric: str, cost: str) -> None:
    """Quality against cost, one point per setting, its interval where known, the frontier joined and marked."""
    x, y = _numeric(frame[cost]), _numeric(frame[metric])
    low, high = frame.get(f"{metric}_low"), frame.get(f"{metric}_high")
    if low is not None and high is not None:
        below, above = np.clip(y - _numeric(low), 0, None), np.clip(_numeric(high) - y, 0, None)
        axes.errorbar(x, y, yerr=[np.nan_to_num(below), np.nan_to_num(above)], fmt="none", ecolor="0.6",
                      elinewidth=1, capsize=2, label="95% interval")  # fmt: skip
    on = frontier(x, y)
    axes.scatter(x[~on], y[~on], color="0.45", zorder=3, label="beaten on both")
    order = np.argsort(x[on], kind="stable")
    axes.plot(x[on][order], y[on][order], marker="o", color="C0", zorder=4, label="frontier")
    _star_reference(axes, frame, cost, metric)
    # The labels keep clear of the points and of the frontier's segments; they may cross the thin grey bars of the
    # intervals (settings a few tokens apart have bars closer than a label is wide: kept clear, labels went far).
    joined = np.column_stack([x[on][order], y[on][order]])
    _label_points(axes, frame, x, y, on, np.stack([joined[:-1], joined[1:]], axis=1))
    # Beside the axes, not in them: a legend inside would sit where the labels are placed (it avoids points only).
    axes.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    title = f"{metric.replace('_', ' ')} against {cost.replace('_', ' ')} paid (one point per setting)"
    axes.set_title(fitted_title(_figure_of(axes), title))
    axes.set_xlabel(f"{cost} (cost of a top-k answer)")
    axes.set_ylabel(metric.replace("_", " "))


def _label_points(axes: Axes, frame: pd.DataFrame, x: np.ndarray, y: np.ndarray, on: np.ndarray,
                  lines: np.ndarray) -> None:  # fmt: skip
    """Each point labelled with its setting; the places are chosen when the figure is drawn (`_labels`), so that no
    label prints over another, over a point or across one of the `lines` (n, 2, 2: the frontier's segments), the
    frontier's first, then the others by quality."""
    from . import _labels

    drawn = np.isfinite(x) & np.isfinite(y)  # a setting with no score has no point, so no label
    labels = {row: axes.annotate(label, (x[row], y[row]), textcoords="offset points", xytext=(_labels.GAP, _labels.GAP),
                                 fontsize="small", ha="left", va="bottom")
              for row, label in enumerate(_setting_labels(frame)) if drawn[row]}  # fmt: skip
    for label in labels.values():
        label.set_in_layout(False)  # placed inside the axes when drawn: the layout need not measure them
    # The frontier first, better first.
    order = [row for row in np.lexsort((-np.nan_to_num(y, nan=-np.inf), ~on)).tolist() if drawn[row]]
    figure = _figure_of(axes)
    # A text of the figure, not of the axes (whose texts are the labels), shown only when labels were left out.
    note = figure.text(0.01, 0.99, _labels.LEFT_OUT, transform=axes.transAxes, ha="left", va="top",
                       fontsize="x-small", color="0.35", visible=False)  # fmt: skip
    axes.add_artist(_labels.LabelPlacer(axes, [labels[row] for row in order], np.column_stack([x, y])[order], lines,
                                            note))


def _figure_of(axes: Axes) -> Figure:
    from matplotlib.figure import Figure

    figure = axes.figure
    assert isinstance(figure, Figure)  # every plot here draws on a figure of `new_figure`, never a subfigure
    return figure


def _is_probe_metric(name: str) -> bool:
    return is_metric_column(name)


def _say_nothing_to_plot(axes: Axes, sweep_frame: pd.DataFrame, metric: str) -> None:
    """A message in place of an empty plot (whose axes would run from -0.04 to 0.04)."""
    if not len(sweep_frame):
        why = "the sweep has no rows"
    else:
        why = f"{metric} is NA in all {len(sweep_frame):,} rows"
        reason = sweep_frame.attrs.get("probe_reason")
        if _is_probe_metric(metric) and reason:
            why += f": the retrieval probe had no queries, because {reason}"
        elif _is_probe_metric(metric):
            why += ": the retrieval probe had no queries"
    text = textwrap.fill(f"Nothing to plot: {why}.", width=60)
    axes.text(0.5, 0.5, text, ha="center", va="center", transform=axes.transAxes, wrap=True)
    axes.set_axis_off()
