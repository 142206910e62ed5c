"""Matplotlib figures of chunk frames and sweeps (matplotlib is imported only when a plot is made)."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ..figures import new_figure

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

_NONE_LABEL = "(none)"


def _require(frame: pd.DataFrame, column: str, what: str, choices: list[str]) -> None:
    if column not in frame.columns:
        msg = f"{what}={column!r} is not a column of this frame; choose one of {choices}"
        raise ValueError(msg)


def _numeric(series: pd.Series) -> np.ndarray:
    return series.to_numpy(dtype=float, na_value=np.nan)


def plot_chunk_sizes(frame: pd.DataFrame, by: str | None = "type", metric: str = "lines", bins: int = 30) -> Figure:
    """A stacked histogram of chunk sizes (`metric`: "lines" or "characters"), one colour per value of `by`.

    `by` is any column of a chunk frame ("type", "language", "chunker", "path"...) or None for one
    series; missing values (e.g. window chunks have no type) are shown as "(none)".
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
    return figure


def plot_sweep(sweep_frame: pd.DataFrame, metric: str = "chunks", x: str = "chunk_size") -> Figure:
    """A metric of a `sweep()` frame against `x` (chunk_size), one line per chunk_overlap (and max characters)."""
    numeric = [name for name in sweep_frame.columns if pd.api.types.is_numeric_dtype(sweep_frame[name])]
    _require(sweep_frame, metric, "metric", numeric)
    _require(sweep_frame, x, "x", numeric)
    figure = new_figure()
    axes = figure.add_subplot()
    axes.set_title(f"{metric.replace('_', ' ')} by {x.replace('_', ' ')}")
    if not np.isfinite(_numeric(sweep_frame[metric])).any():
        _say_nothing_to_plot(axes, sweep_frame, metric)
        return figure
    limits = sweep_frame.get("chunk_max_characters")
    several_limits = limits is not None and limits.nunique(dropna=False) > 1
    keys = ["chunk_overlap", "chunk_max_characters"] if several_limits else ["chunk_overlap"]
    for key, rows in sweep_frame.groupby(keys, sort=True, dropna=False):
        overlap, *limit = key if isinstance(key, tuple) else (key,)
        label = f"overlap {overlap}"
        if limit:
            label += ", no character limit" if pd.isna(limit[0]) else f", max {limit[0]} characters"
        rows = rows.sort_values(x)
        axes.plot(_numeric(rows[x]), _numeric(rows[metric]), marker="o", label=label)
    if len(sweep_frame):
        axes.legend(fontsize="small")
    axes.set_xlabel(x.replace("_", " "))
    axes.set_ylabel(metric.replace("_", " "))
    return figure


def _is_probe_metric(name: str) -> bool:
    return name.startswith(("recall@", "tokens@", "lines@", "budget_found@", "budget_covered@")) or name in (
        "mrr", "precision")


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
