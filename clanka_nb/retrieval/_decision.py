"""`verdict`: which settings a table of per-query scores can tell apart, holding the family-wise error.

The procedure, in order (docs/tuning-verdict.md says why each step is there):

1. **A confidence set of the best settings, by step-down elimination.** Start with every setting. Test
   the null "the remaining settings are exchangeable" (equal in every respect, hence in mean) with a
   joint randomization test: within each cluster of queries, the settings' labels are permuted together
   (one permutation per cluster, for all its queries), and the statistic is the range (max - min) of the
   settings' mean scores. For two settings this is exactly the paired (cluster) sign-flip test. If the
   p-value is at most 1 - confidence, the worst remaining setting is eliminated and the test is repeated
   on the rest; what remains when a test does not reject is the confidence set of the best.
   *Why it holds the family-wise error*: the first test is an exact level-α test of the global null
   (every permutation is equally likely under it), so with truly equal settings a winner is named with
   probability at most α, whatever the number of settings: the range is one statistic for all of them,
   so choosing the best is already inside the test. When some settings are better, a best setting can be
   dropped only (a) when the set has shrunk to the best ones and their exact test rejects (probability
   at most α), or (b) when a best setting is observed worst in a set that still holds a truly worse one,
   which becomes unlikely as queries grow: the model confidence set of Hansen, Lunde and Nason
   (Econometrica 2011) uses this elimination rule, and part (b) is what makes its guarantee asymptotic.
   Exact enumeration of all permutations when there are few, else seeded random permutations with
   (count + 1) / (B + 1) p-values (valid at any B).
2. **Intervals from a cluster bootstrap**: clusters are resampled with replacement (a query that shares
   its target with others is not an independent draw), each setting's mean over the resampled queries.
3. **The smallest detectable difference** between the best and the runner-up (the first one whose scores
   differ from the best's on some query: a twin of the best has no spread to measure), from the cluster-level
   standard error of their paired differences (never from the difference seen): (z(1 - α'/2) + z(power))
   times that standard error, with α' = α / (pairs of settings), Bonferroni: the range test compares all
   pairs at once, and its critical value is at most the Bonferroni one, so the number errs toward "cannot
   be seen".
4. **A split-half check**: clusters split in two at random (seeded), each half's best compared.
5. **The edge of the range**: a best at the largest or smallest value swept of a numeric setting.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Mapping, Sequence
from statistics import NormalDist
from typing import Any

import numpy as np
import pandas as pd

CONFIDENCE = 0.95
RESAMPLES = 2000  # cluster bootstrap resamples of the intervals
PERMUTATIONS = 2000  # random label permutations per test (p-values step by 1/2001: fine at 5%)
EXACT_UP_TO = 4096  # permutation assignments up to which every one is tried
SPLITS = 10  # split-half checks
SEED = 0
POWER = 0.8  # of the minimal detectable difference
FEW = 30  # fewer queries (or clusters) than this: warned
HEAVY = 0.2  # one cluster holding more than this share of the queries: warned (it weighs as much in every mean)
_BLOCK_CELLS = 2_000_000  # permutation x cluster x setting cells computed at once (about 16 MB)


def verdict(
    scores: pd.DataFrame,
    groups: Sequence[Hashable] | np.ndarray | pd.Series | None = None,
    *,
    settings: Mapping[Hashable, Mapping[str, Any]] | None = None,
    cost: Sequence[float] | Mapping[Hashable, float] | None = None,
    confidence: float = CONFIDENCE,
    resamples: int = RESAMPLES,
    permutations: int = PERMUTATIONS,
    splits: int = SPLITS,
    seed: int = SEED,
    metric_name: str = "score",
) -> dict[str, Any]:
    """What per-query scores can tell about the settings, as a dict of plain values (see the module docstring).

    `scores`: one row per query, one column per setting, higher is better. `groups`: a cluster id per
    query (queries sharing a target or a commit are one unit); None: each query its own. `settings`: column
    -> its setting values (for the wording and the edge check). `cost`: per column (e.g. tokens), only to
    break ties of the mean (cheaper first, then column order).

    Keys: message, metric, queries, clusters, columns, means, low, high (cluster bootstrap intervals, in
    column order), best, best_settings, confidence_set (best first), tied (the set without the best),
    worse (excluded, best first), separable, p_value (of the first, global test), steps, runner_up,
    difference, difference_low, difference_high, mde, mde_alpha, power, split_agree, splits, edge,
    warnings, confidence, resamples, permutations, seed.
    """
    values, labels, cluster, costs, named = _checked(scores, groups, settings, cost, confidence)
    alpha = 1 - confidence
    queries, columns = values.shape
    sizes = np.bincount(cluster, minlength=0).astype(np.float64)
    sums = np.zeros((len(sizes), columns))
    np.add.at(sums, cluster, values)  # cluster x setting sums: every test and resample works on these
    out: dict[str, Any] = {
        "metric": metric_name, "queries": queries, "clusters": len(sizes), "columns": labels,
        "confidence": confidence, "resamples": resamples, "permutations": permutations, "seed": seed,
        "splits": splits, "power": POWER,
    }  # fmt: skip
    empty = {"means": [], "low": [], "high": [], "best": None, "best_settings": None, "confidence_set": [],
             "tied": [], "worse": [], "separable": False, "p_value": None, "steps": [], "runner_up": None,
             "difference": None, "difference_low": None, "difference_high": None, "mde": None,
             "mde_alpha": None, "split_agree": None, "edge": [], "warnings": []}  # fmt: skip
    if not queries:
        return {**out, **empty, "means": [None] * columns, "low": [None] * columns, "high": [None] * columns,
                "message": "no queries: the scores cannot judge the settings"}  # fmt: skip
    means = sums.sum(axis=0) / queries
    order = sorted(range(columns), key=lambda column: (-means[column], costs[column], column))
    boot = _bootstrap(sums, sizes, resamples, seed)
    low, high = _intervals(boot, confidence)
    out.update(empty, means=means.tolist(), low=low.tolist(), high=high.tolist())
    best = order[0]
    out.update(best=labels[best], best_settings=None if named is None else dict(named[best]))
    out["warnings"] = _warnings(queries, sizes, groups is not None)
    name = "MRR" if metric_name == "mrr" else metric_name
    level = f"{confidence:.0%}"
    if columns == 1:
        out.update(confidence_set=[labels[best]])
        out["message"] = _joined(f"one setting: nothing to compare ({name} {means[best]:.3f}, {level} interval "
                                 f"{low[best]:.3f}-{high[best]:.3f})", out["warnings"])  # fmt: skip
        return out
    remaining, steps = list(order), []
    while len(remaining) > 1:
        p_value = _range_p_value(sums[:, remaining], permutations, seed)
        worst = remaining[-1]
        rejected = p_value <= alpha
        steps.append({"set": [labels[c] for c in remaining], "p_value": p_value,
                      "eliminated": labels[worst] if rejected else None})  # fmt: skip
        if not rejected:
            break
        remaining.pop()
    kept = set(remaining)
    runner = order[1]
    difference = boot[:, best] - boot[:, runner]
    d_low, d_high = _intervals(difference[:, None], confidence)
    pairs = columns * (columns - 1) // 2
    mde_alpha = alpha / pairs
    # The detectable difference needs a pair that differs: a runner-up identical to the best on every query
    # (a setting that changes no chunk the queries reach) has no spread and would promise 0.
    differing = next((c for c in order[1:] if np.any(values[:, c] != values[:, best])), None)
    mde = None if differing is None else _mde(sums[:, best] - sums[:, differing], sizes, mde_alpha)
    agree = _split_agreement(sums, costs, splits, seed)
    out.update(
        confidence_set=[labels[c] for c in order if c in kept], tied=[labels[c] for c in order[1:] if c in kept],
        worse=[labels[c] for c in order if c not in kept], separable=len(kept) < columns,
        p_value=steps[0]["p_value"], steps=steps, runner_up=labels[runner],
        difference=float(means[best] - means[runner]), difference_low=float(d_low[0]),
        difference_high=float(d_high[0]), mde=mde, mde_alpha=mde_alpha, split_agree=agree,
        edge=_edge(best, named),
    )  # fmt: skip
    alike = bool(np.all(np.ptp(values, axis=1) == 0))
    out["message"] = _message(out, order, named, name, level, means, low, high, alike)
    return out


def _checked(
    scores: pd.DataFrame, groups: Any, settings: Any, cost: Any, confidence: float,
) -> tuple[np.ndarray, list[Any], np.ndarray, list[float], list[Mapping[str, Any]] | None]:
    """The scores as a float matrix, plain column labels, cluster ids, costs and settings in column order."""
    if not isinstance(scores, pd.DataFrame):
        raise TypeError(f"scores must be a pandas DataFrame (one row per query, one column per setting), "
                        f"got {type(scores).__name__}")  # fmt: skip
    if scores.shape[1] == 0:
        raise ValueError("scores has no columns: pass one column per setting")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1 (such as 0.95), got {confidence!r}")
    try:
        values = scores.to_numpy(dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ValueError(f"scores must be numbers (a per-query score per setting): {error}") from None
    if np.isnan(values).any():
        bad = [str(c) for c, has in zip(scores.columns, np.isnan(values).any(axis=0), strict=True) if has]
        raise ValueError(f"scores has NaN in column(s) {', '.join(bad)}: score every query at every setting, "
                         "or drop the queries that have no score before calling verdict")  # fmt: skip
    labels = [_plain(label) for label in scores.columns]
    if len(set(map(repr, labels))) != len(labels):
        raise ValueError("scores has repeated column names: give each setting its own column")
    if groups is None:
        cluster = np.arange(len(values))
    else:
        cluster = np.asarray(groups, dtype=object)
        if cluster.shape != (len(values),):
            raise ValueError(f"groups must have one cluster id per query ({len(values)}), got {cluster.shape}")
        if pd.isna(cluster).any():
            raise ValueError("groups has missing ids: give every query a cluster (its own id if none)")
        cluster = pd.factorize(cluster)[0]
    if cost is None:
        costs = [0.0] * len(labels)
    else:
        picked = [cost[c] for c in scores.columns] if isinstance(cost, Mapping) else list(cost)
        if len(picked) != len(labels):
            raise ValueError(f"cost must have one value per column ({len(labels)}), got {len(picked)}")
        costs = [float(value) for value in picked]
    named = None
    if settings is not None:
        missing = [str(c) for c in scores.columns if c not in settings]
        if missing:
            raise ValueError(f"settings has no entry for column(s) {', '.join(missing)}: map every column to its "
                             "setting values")  # fmt: skip
        named = [settings[c] for c in scores.columns]
    return values, labels, cluster, costs, named


def _plain(value: Any) -> Any:
    """A JSON value: numpy scalars as Python ones, anything else not a str/int/float/bool/None as its str."""
    if isinstance(value, np.generic):
        value = value.item()
    return value if value is None or isinstance(value, str | int | float | bool) else str(value)


def cluster_counts(clusters: int, resamples: int, seed: int) -> np.ndarray:
    """How often each cluster is drawn in each resample of a cluster bootstrap (resamples x clusters): the
    one resampling of the verdict's intervals and of a sweep row's (`_verdict.Bootstrap`), so both agree."""
    return np.random.default_rng([seed, 1]).multinomial(clusters, np.full(clusters, 1 / clusters),
                                                        size=resamples).astype(np.float64)  # fmt: skip


def _bootstrap(sums: np.ndarray, sizes: np.ndarray, resamples: int, seed: int) -> np.ndarray:
    """Each setting's mean over resampled clusters (resamples x settings): multinomial counts per cluster."""
    counts = cluster_counts(len(sizes), resamples, seed)
    return (counts @ sums) / (counts @ sizes)[:, None]


def _intervals(resampled: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(resampled, [tail, 100 - tail], axis=0)
    return low, high


def _range_p_value(sums: np.ndarray, permutations: int, seed: int) -> float:
    """P-value of the range of the settings' means when each cluster's labels are permuted (exact when few)."""
    # A cluster whose sums are equal at every setting adds the same to every mean under any permutation.
    sums = sums[np.ptp(sums, axis=1) > 0]
    if not len(sums):
        return 1.0
    clusters, settings = sums.shape
    total = sums.sum(axis=0)
    seen = float(np.ptp(total)) * (1 - 1e-9)  # permuted ranges equal to the seen one, up to rounding, count
    if seen <= 0:
        return 1.0
    orders = np.array(list(itertools.permutations(range(settings)))) if settings <= 6 else None
    if orders is not None and len(orders) ** clusters <= EXACT_UP_TO:
        # Every assignment of a permutation to each cluster: mixed-radix digits of 0 .. P**clusters - 1.
        digits = (np.arange(len(orders) ** clusters)[:, None] // len(orders) ** np.arange(clusters)) % len(orders)
        picked = orders[digits]  # assignments x clusters x settings
        moved = np.take_along_axis(np.broadcast_to(sums, picked.shape), picked, axis=2).sum(axis=1)
        return float(np.mean(np.ptp(moved, axis=1) >= seen))
    rng = np.random.default_rng([seed, 2, settings])
    rows = max(1, _BLOCK_CELLS // (clusters * settings))
    as_far = 0
    for start in range(0, permutations, rows):
        count = min(rows, permutations - start)
        picked = rng.permuted(np.broadcast_to(np.arange(settings), (count, clusters, settings)), axis=2)
        moved = np.take_along_axis(np.broadcast_to(sums, picked.shape), picked, axis=2).sum(axis=1)
        as_far += int(np.count_nonzero(np.ptp(moved, axis=1) >= seen))
    return (as_far + 1) / (permutations + 1)


def _mde(differences: np.ndarray, sizes: np.ndarray, alpha: float) -> float | None:
    """(z(1 - alpha/2) + z(POWER)) x the cluster-robust standard error of the mean paired difference.

    `differences` are per-cluster sums of the paired differences; None with one cluster (no spread)."""
    clusters = len(sizes)
    if clusters < 2:
        return None
    queries = sizes.sum()
    mean = differences.sum() / queries
    spread = float(np.sum((differences - sizes * mean) ** 2))
    error = math.sqrt(clusters / (clusters - 1) * spread) / queries
    z = NormalDist().inv_cdf(1 - alpha / 2) + NormalDist().inv_cdf(POWER)
    return z * error


def _split_agreement(sums: np.ndarray, costs: list[float], splits: int, seed: int) -> int | None:
    """In how many of `splits` random halves of the clusters both halves pick the same best (None: < 2 clusters)."""
    clusters, settings = sums.shape
    if clusters < 2 or splits < 1:
        return None
    sizes_half = clusters // 2
    rng = np.random.default_rng([seed, 3])
    tie = np.asarray(costs, dtype=np.float64)
    agree = 0
    for _ in range(splits):
        mask = np.zeros(clusters, dtype=bool)
        mask[rng.permutation(clusters)[:sizes_half]] = True
        # Sum, not mean, ranks the same within a half; lexsort: the last key is the first one compared.
        first, second = (int(np.lexsort((np.arange(settings), tie, -sums[half].sum(axis=0)))[0])
                         for half in (mask, ~mask))  # fmt: skip
        agree += first == second
    return agree


def _edge(best: int, named: list[Mapping[str, Any]] | None) -> list[dict[str, Any]]:
    """Each numeric setting whose best value is the largest or smallest swept (of at least two values)."""
    if named is None:
        return []
    out = []
    for key, value in named[best].items():
        swept = [row.get(key) for row in named]
        if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in swept) or len(set(swept)) < 2:
            continue
        if value == max(swept):
            out.append({"setting": key, "value": _plain(value), "side": "largest"})
        elif value == min(swept):
            out.append({"setting": key, "value": _plain(value), "side": "smallest"})
    return out


def _warnings(queries: int, sizes: np.ndarray, grouped: bool) -> list[str]:
    out = []
    if queries < FEW:
        out.append(f"only {queries} queries (fewer than {FEW}): the intervals and the test are rough")
    if grouped and len(sizes) < FEW:
        out.append(f"only {len(sizes)} clusters of queries (fewer than {FEW}): clusters, not queries, are the "
                   "unit of the test and of the intervals")  # fmt: skip
    if grouped and sizes.max() > HEAVY * queries and len(sizes) > 1:
        out.append(f"one cluster holds {int(sizes.max())} of the {queries} queries ({sizes.max() / queries:.0%}, "
                   f"over {HEAVY:.0%}): it weighs that much in every mean")  # fmt: skip
    return out


def _label(column: int, labels: list[Any], named: list[Mapping[str, Any]] | None) -> str:
    """A setting by the values that differ between the columns (all of them for one column)."""
    if named is None:
        return str(labels[column])
    varying = [key for key in named[column] if len({repr(row.get(key)) for row in named}) > 1]
    shown = {key: named[column][key] for key in (varying or named[column])}
    return ", ".join(f"{key}={value}" for key, value in shown.items() if value is not None) or str(labels[column])


def _joined(message: str, warnings: list[str]) -> str:
    return "; ".join([message, *(f"warning: {text}" for text in warnings)])


def _message(out: dict[str, Any], order: list[int], named: list[Mapping[str, Any]] | None, name: str,
             level: str, means: np.ndarray, low: np.ndarray, high: np.ndarray, alike: bool) -> str:  # fmt: skip
    labels, best, columns = out["columns"], order[0], len(order)
    queries = out["queries"]
    index = {repr(label): column for column, label in enumerate(labels)}

    def text(label: Any) -> str:
        return _label(index[repr(label)], labels, named)

    if alike:
        return _joined(f"these {queries} queries cannot separate the settings: every setting gives each query "
                       f"the same {name}, so more queries like these would not either", out["warnings"])  # fmt: skip
    family = f"{level}, family-wise over {columns} settings"
    if out["separable"]:
        full = ", ".join(f"{k}={v}" for k, v in (named[best] if named else {}).items() if v is not None)
        parts = [f"best: {full or text(out['best'])} ({name} {means[best]:.3f}, {level} interval "
                 f"{low[best]:.3f}-{high[best]:.3f}, {queries} queries)",
                 f"confidence set of the best ({family}): {' | '.join(map(text, out['confidence_set']))}",
                 f"worse: {' | '.join(map(text, out['worse']))}"]  # fmt: skip
    else:
        parts = [f"these {queries} queries cannot separate the settings (joint randomization test over "
                 f"{columns} settings, {level}, p = {out['p_value']:.2f})"]  # fmt: skip
    parts.append(f"best minus runner-up ({text(out['runner_up'])}): {out['difference']:+.3f} "
                 f"[{out['difference_low']:+.3f}, {out['difference_high']:+.3f}]")  # fmt: skip
    if out["mde"] is not None:
        parts.append(f"a difference smaller than {out['mde']:.3f} cannot be seen with these {queries} queries "
                     f"({POWER:.0%} power, alpha {out['mde_alpha']:.3g} for {columns * (columns - 1) // 2} "
                     "pairs)")  # fmt: skip
    agree, splits = out["split_agree"], out["splits"]
    if agree is not None and (agree < splits or out["separable"]):
        said = "agree on" if agree == splits else "disagree on"
        parts.append(f"two random halves of the queries {said} the best ({agree} of {splits} splits pick the "
                     "same)")  # fmt: skip
    if out["separable"]:
        for edge in out["edge"]:
            way = "larger" if edge["side"] == "largest" else "smaller"
            parts.append(f"{edge['setting']}={edge['value']} is the {edge['side']} {edge['setting']} swept: sweep "
                         f"past it ({way} values) before taking it")  # fmt: skip
    return _joined("; ".join(parts), out["warnings"])
