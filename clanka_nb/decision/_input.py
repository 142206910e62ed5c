"""The verdict's input, checked once: the scores as a float matrix, the clusters, the costs and the settings in
column order, and every option (`confidence`, `margin`, `resamples`, `splits`, `seed`, the names), each refused
with one error that names the argument and its fix."""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class Table:
    """The checked scores: `values` (queries x settings), plain column `labels`, a cluster id per query (0..G-1),
    `costs` per column (0 when none were given: `costed` False), the settings per column (None: not given),
    whether the caller gave clusters (`grouped`), and the cluster x setting sums every test works on."""

    values: np.ndarray
    labels: list[Any]
    cluster: np.ndarray
    costs: list[float]
    costed: bool
    named: list[Mapping[str, Any]] | None
    grouped: bool

    @property
    def queries(self) -> int:
        return int(self.values.shape[0])

    @property
    def columns(self) -> int:
        return int(self.values.shape[1])

    @property
    def sizes(self) -> np.ndarray:
        """Queries per cluster."""
        return np.bincount(self.cluster, minlength=0).astype(np.float64)

    @property
    def sums(self) -> np.ndarray:
        """Each cluster's sum of each setting's scores (clusters x settings)."""
        out = np.zeros((len(self.sizes), self.columns))
        np.add.at(out, self.cluster, self.values)
        return out

    def pair_squares(self) -> np.ndarray:
        """Each cluster's sum of its queries' squared paired differences (clusters x pairs, `np.triu_indices`
        order): how much the pairs' differences vary within each cluster."""
        a, b = np.triu_indices(self.columns, k=1)
        out = np.zeros((len(self.sizes), len(a)))
        np.add.at(out, self.cluster, (self.values[:, a] - self.values[:, b]) ** 2)
        return out


def checked_table(scores: Any, groups: Any, settings: Any, cost: Any) -> Table:
    """The scores, clusters, costs and settings checked and put in column order (see `Table`)."""
    values = _values(scores)
    labels = [plain(label) for label in scores.columns]
    if len(set(map(repr, labels))) != len(labels):
        raise ValueError("scores has repeated column names: give each setting its own column")
    named = None
    if settings is not None:
        if not isinstance(settings, Mapping):
            raise TypeError(f"settings must map each column to its setting values (a dict of dicts), got "
                            f"{type(settings).__name__}")  # fmt: skip
        missing = [str(c) for c in scores.columns if c not in settings]
        if missing:
            raise ValueError(f"settings has no entry for column(s) {', '.join(missing)}: map every column to its "
                             "setting values")  # fmt: skip
        named = [settings[c] for c in scores.columns]
        if not all(isinstance(row, Mapping) for row in named):
            raise TypeError("settings must map each column to a dict of its setting values, such as "
                            "{'chunk_size': 30}")  # fmt: skip
    return Table(values, labels, _clusters(groups, len(values)), _costs(cost, scores.columns), cost is not None,
                 named, groups is not None)  # fmt: skip


def _values(scores: Any) -> np.ndarray:
    if not isinstance(scores, pd.DataFrame):
        raise TypeError(f"scores must be a pandas DataFrame (one row per query, one column per setting), "
                        f"got {type(scores).__name__}")  # fmt: skip
    if scores.shape[1] == 0:
        raise ValueError("scores has no columns: pass one column per setting")
    try:
        values = scores.to_numpy(dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ValueError(f"scores must be numbers (a per-query score per setting): {error}") from None
    if np.isnan(values).any():
        bad = [str(c) for c, has in zip(scores.columns, np.isnan(values).any(axis=0), strict=True) if has]
        raise ValueError(f"scores has NaN in column(s) {', '.join(bad)}: score every query at every setting, "
                         "or drop the queries that have no score before calling verdict")  # fmt: skip
    if np.isinf(values).any():
        raise ValueError("scores has an infinite value: every score must be a finite number")
    return values


def _clusters(groups: Any, queries: int) -> np.ndarray:
    if groups is None:
        return np.arange(queries)
    if isinstance(groups, str | bytes | Mapping):
        raise TypeError(f"groups must be a sequence of one cluster id per query, got {type(groups).__name__}")
    cluster = np.asarray(groups, dtype=object)
    if cluster.shape != (queries,):
        raise ValueError(f"groups must have one cluster id per query ({queries}), got {cluster.shape}")
    if pd.isna(cluster).any():
        raise ValueError("groups has missing ids: give every query a cluster (its own id if none)")
    try:
        return pd.factorize(cluster)[0]
    except TypeError:
        raise TypeError("groups must hold hashable cluster ids (numbers or strings), one per query") from None


def _costs(cost: Any, columns: pd.Index) -> list[float]:
    if cost is None:
        return [0.0] * len(columns)
    if isinstance(cost, str | bytes):
        raise TypeError(f"cost must be one number per column (a list, or a dict by column), got {cost!r:.60}")
    if isinstance(cost, Mapping):
        missing = [str(c) for c in columns if c not in cost]
        if missing:
            raise ValueError(f"cost has no entry for column(s) {', '.join(missing)}: give every column its cost")
        picked = [cost[c] for c in columns]
    else:
        picked = list(cost)
    if len(picked) != len(columns):
        raise ValueError(f"cost must have one value per column ({len(columns)}), got {len(picked)}")
    for value in picked:
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value) or value < 0:
            raise ValueError(f"cost must be a finite number of 0 or more per column (such as tokens indexed), "
                             f"got {value!r:.60}")  # fmt: skip
    return [float(value) for value in picked]


def plain(value: Any) -> Any:
    """A JSON value: numpy scalars as Python ones, anything else not a str/int/float/bool/None as its str."""
    if isinstance(value, np.generic):
        value = value.item()
    return value if value is None or isinstance(value, str | int | float | bool) else str(value)


def times(when: Any, queries: int) -> np.ndarray:
    """Each query's commit time as a float (NaN: not from a commit)."""
    if isinstance(when, str | bytes | Mapping):
        raise TypeError(f"when must be a sequence of one commit time per query, got {type(when).__name__}")
    out = pd.to_numeric(pd.Series(np.asarray(when, dtype=object)), errors="coerce").to_numpy(dtype=np.float64)
    if out.shape != (queries,):
        raise ValueError(f"when must have one commit time per query ({queries}), got {out.shape}")
    return out


def check_margin(margin: object) -> float | None:
    """`margin` as a float: None, or a finite number between 0 and 1 (the metric's scale), else one error naming it."""
    if margin is None:
        return None
    if isinstance(margin, bool) or not isinstance(margin, numbers.Real) or not 0 < float(margin) < 1:
        msg = (f"margin must be the smallest difference of the metric that matters, a number between 0 and 1 such as "
               f"0.02, or None for no equivalence test; got {margin!r:.80}")
        raise ValueError(msg)
    return float(margin)


def check_confidence(confidence: object) -> float:
    """`confidence` as a float strictly between 0 and 1, else one error naming it."""
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real) or not 0 < float(confidence) < 1:
        raise ValueError(f"confidence must be a number between 0 and 1 such as 0.95, got {confidence!r:.80}")
    return float(confidence)


def check_count(name: str, value: object, least: int, example: int) -> int:
    """`value` as an int of at least `least` (never a bool or a float), else one error naming `name`."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or int(value) < least:
        raise ValueError(f"{name} must be a whole number of at least {least} such as {name}={example}, "
                         f"got {value!r:.80}")  # fmt: skip
    return int(value)


def check_name(name: str, value: object) -> str:
    """`value` as a one-line str, else one error naming `name`."""
    if not isinstance(value, str) or not value.isprintable() or not value.strip():
        raise ValueError(f"{name} must be a short printable name such as 'tokens indexed', got {value!r:.80}")
    return value
