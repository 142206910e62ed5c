"""`verdict`: what a table of per-query scores says to do, holding the family-wise error for any number of settings.

The procedure, in order (docs/tuning-verdict.md says why each step is there):

1. **Every pair at once** (`_pairs.py`): each pair of settings' mean difference with a cluster-robust (jackknife)
   standard error, and one critical value for all pairs from the largest |t| over the pairs in a studentized wild
   cluster bootstrap (queries sharing a target or a commit are one cluster). Intervals are simultaneous: the chance
   that any misses is held at 1 - confidence, whatever the number of settings and however alike neighbouring
   settings score. With a few heavy clusters the critical value is widened as Student's t would be at the effective
   number of clusters; below `FEW_EFFECTIVE` the verdict says its intervals may not cover.
2. **The confidence set of the best**: every setting no other is shown better than. The true best is in it unless
   some interval misses, so with truly equal settings a winner is named at most 1 - confidence of the time.
3. **The decision**: one setting when it is alone in the set; else the settings are tied within the noise and the
   cheapest of them (by `cost`) is named. With a `margin`, the settings shown equivalent to the best within it (two
   one-sided tests, by the same simultaneous intervals) are named, and the cheapest of them is the pick.
4. **Power**: the true lead over the runner-up this same test finds 80% of the time, (c + z(0.8)) x its error.
5. **Cluster bootstrap intervals** of each setting's mean (resampled clusters), for the rows.
6. **A split-half check**: clusters split in two at random (seeded), each half's best compared.
7. **Newer commits** (`_holdout.py`): with commit times, the choice made on the older commit-message queries is
   scored against its runner-up on the newer ones.
8. **The edge of the range**: a best at the largest or smallest value swept of a numeric setting (never below a
   setting's own floor: overlap 0, size 1).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...defaults import SETTINGS, VERDICT_MARGIN
from ...engine.settings import checked_keywords
from ...metrics import label_of
from ._holdout import holdout
from ._pairs import POWER, Pairs, effective_clusters, eliminated, equivalent, simultaneous
from ._result import Verdict

CONFIDENCE = 0.95
RESAMPLES = 2000  # cluster bootstrap resamples of the intervals, and wild bootstrap draws of the max-t
SPLITS = 10  # split-half checks
SEED = 0
MARGIN = VERDICT_MARGIN  # the smallest difference that matters, by default
FEW = 30  # fewer queries (or clusters) than this: warned
HEAVY = 0.2  # one cluster holding more than this share of the queries: warned (it weighs as much in every mean)
FEW_EFFECTIVE = 8  # fewer effective clusters than this: the intervals may cover less than they say (simulated)
# A numeric setting's own floor (the settings table's): a best there is not advice to sweep past it.
FLOORS = {setting.name: setting.floor for setting in SETTINGS if setting.floor is not None}


@checked_keywords
def verdict(
    scores: pd.DataFrame,
    groups: Sequence[Hashable] | np.ndarray | pd.Series | None = None,
    *,
    settings: Mapping[Hashable, Mapping[str, Any]] | None = None,
    cost: Sequence[float] | Mapping[Hashable, float] | None = None,
    confidence: float = CONFIDENCE,
    margin: float | None = MARGIN,
    when: Sequence[float] | np.ndarray | pd.Series | None = None,
    resamples: int = RESAMPLES,
    splits: int = SPLITS,
    seed: int = SEED,
    metric_name: str = "score",
) -> Verdict:
    """What per-query scores say to do about the settings (see the module docstring), as a `Verdict`.

    Args:
        scores: One row per query, one column per setting, higher is better.
        groups: A cluster id per query (queries sharing a target or a commit are one unit); None: each query its own.
        settings: Column -> its setting values (for the wording and the edge check).
        cost: Per column (e.g. tokens indexed): the cheapest of a tie is named, and ties of the mean go to it.
        confidence: The confidence of the intervals and of the tests.
        margin: The smallest difference that matters (None: no equivalence test).
        when: Per query, its commit's time (NaN for a query not from a commit), for the check on newer commits.
        resamples: The cluster bootstrap's resamples.
        splits: How many random halves of the clusters are checked for picking the same best (`split_agree`).
        seed: The seed of every random draw, so a call gives the same answer on every machine.
        metric_name: The metric's name, for the wording.

    Returns:
        The verdict: `Verdict` says what each of its fields holds, the message and the decision first.
    """
    values, labels, cluster, costs, named = _checked(scores, groups, settings, cost, confidence)
    queries, columns = values.shape
    sizes = np.bincount(cluster, minlength=0).astype(np.float64)
    sums = np.zeros((len(sizes), columns))
    np.add.at(sums, cluster, values)  # cluster x setting sums: every test and resample works on these
    out: dict[str, Any] = {
        "metric": metric_name, "queries": queries, "clusters": len(sizes), "columns": labels,
        "confidence": confidence, "resamples": resamples, "seed": seed, "splits": splits, "power": POWER,
        "margin": margin, "effective_clusters": round(effective_clusters(sizes), 1),
        "costs": None if cost is None else costs,
    }  # fmt: skip
    empty: dict[str, Any] = {
             "means": [], "low": [], "high": [], "best": None, "best_settings": None, "confidence_set": [],
             "tied": [], "cheapest": None, "worse": [], "worse_by": [], "separable": False, "p_value": None,
             "critical": None, "pairs": [], "runner_up": None, "difference": None, "difference_low": None,
             "difference_high": None, "detectable": None, "equivalent": [], "split_agree": None, "holdout": None,
             "edge": [], "warnings": [], "decision": None, "choice": None}  # fmt: skip
    if not queries:
        nothing = [None] * columns
        return Verdict.from_dict({**out, **empty, "means": nothing, "low": nothing, "high": nothing,
                                  "message": "no queries: the scores cannot judge the settings"})
    means = sums.sum(axis=0) / queries
    order = sorted(range(columns), key=lambda column: (-means[column], costs[column], column))
    boot = _bootstrap(sums, sizes, resamples, seed)
    low, high = _intervals(boot, confidence)
    out.update(empty, means=means.tolist(), low=low.tolist(), high=high.tolist())
    best = order[0]
    out.update(best=labels[best], best_settings=None if named is None else dict(named[best]))
    out["warnings"] = _warnings(queries, sizes, groups is not None)
    name = label_of(metric_name)
    level = f"{confidence:.0%}"
    if columns == 1:
        out.update(confidence_set=[labels[best]], cheapest=labels[best], choice=labels[best])
        out["decision"] = f"one setting: nothing to compare ({name} {means[best]:.3f}, {level} interval " \
                          f"{low[best]:.3f}-{high[best]:.3f})"  # fmt: skip
        out["message"] = _joined(out["decision"], out["warnings"])
        return Verdict.from_dict(out)
    pairs = simultaneous(sums, sizes, confidence, resamples, seed)
    beaten = _beaten(pairs, eliminated(pairs, order, confidence), order)  # setting -> (shown better than it, by)
    kept = [column for column in order if column not in beaten]
    cheapest = min(kept, key=lambda column: (costs[column], order.index(column)))
    runner = order[1]
    difference, d_low, d_high, _ = pairs.between(best, runner)
    # The detectable lead needs a pair that differs: a runner-up identical to the best on every query (a setting
    # that changes no chunk the queries reach) has no spread and would promise 0.
    differing = next((c for c in order[1:] if np.any(values[:, c] != values[:, best])), None)
    equal = [] if margin is None else [best, *equivalent(pairs, best, [c for c in order if c != best], margin)]
    timed = None if when is None else holdout(values, cluster, _times(when, queries), costs, confidence)
    out.update(
        confidence_set=[labels[c] for c in kept], tied=[labels[c] for c in kept if c != best],
        cheapest=labels[cheapest], worse=[labels[c] for c in order if c in beaten],
        worse_by=[{"setting": labels[c], "than": labels[beaten[c][0]], "at_least": beaten[c][1]}
                  for c in order if c in beaten],
        separable=len(kept) < columns, p_value=pairs.p_value, critical=pairs.critical,
        pairs=[{"a": labels[a], "b": labels[b], "difference": float(d), "low": float(lo), "high": float(hi)}
               for a, b, d, lo, hi in zip(pairs.a, pairs.b, pairs.difference, pairs.low, pairs.high, strict=True)],
        runner_up=labels[runner], difference=difference, difference_low=d_low, difference_high=d_high,
        detectable=None if differing is None else pairs.detectable(best, differing),
        equivalent=[labels[c] for c in equal], split_agree=_split_agreement(sums, costs, splits, seed),
        holdout=None if timed is None else {
            "older": timed.older, "newer": timed.newer, "chosen": labels[timed.chosen],
            "runner_up": labels[timed.runner_up], "difference": timed.difference, "low": timed.low,
            "high": timed.high, "outcome": timed.outcome},
        edge=_edge(best, named),
    )  # fmt: skip
    if out["effective_clusters"] < FEW_EFFECTIVE and len(sizes) > 1:
        out["warnings"].append(
            f"the {queries} queries fall in {len(sizes)} clusters, the largest holding {sizes.max() / queries:.0%}: "
            f"they count as {out['effective_clusters']:g} independent ones, too few for these intervals to be "
            f"trusted to cover {level} (simulated: about 91% at 4); more queries from other targets or commits "
            "would")  # fmt: skip
    alike = bool(np.all(np.ptp(values, axis=1) == 0))
    if len(equal) > 1:  # equivalent settings: the cheapest of them
        choice = min(equal, key=lambda column: (costs[column], order.index(column)))
    else:
        choice = best if len(kept) == 1 else cheapest
    out["choice"] = labels[choice]
    text = _Words(labels, named)
    out["decision"] = _decision(out, text, cost is not None, alike)
    out["message"] = _message(out, order, text, name, level, means, low, high, alike)
    return Verdict.from_dict(out)


def _beaten(pairs: Pairs, gone: list[int], order: list[int]) -> dict[int, tuple[int, float]]:
    """Each setting the elimination removed: the setting whose simultaneous interval shows it most clearly worse
    (the best when none does), and that interval's lower bound of the difference (0 or less where only the
    elimination's later, smaller critical values tell it apart)."""
    out: dict[int, tuple[int, float]] = {}
    for worse in gone:
        bounds = [(pairs.between(better, worse)[1], better) for better in order if better != worse]
        bound, better = max(bounds, key=lambda item: (item[0], item[1] == order[0]))
        out[worse] = (better if bound > 0 else order[0], bound if bound > 0 else pairs.between(order[0], worse)[1])
    return out


def _times(when: Any, queries: int) -> np.ndarray:
    times = pd.to_numeric(pd.Series(np.asarray(when, dtype=object)), errors="coerce").to_numpy(dtype=np.float64)
    if times.shape != (queries,):
        raise ValueError(f"when must have one commit time per query ({queries}), got {times.shape}")
    return times


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
        swept = [v for v in (row.get(key) for row in named) if isinstance(v, int | float) and not isinstance(v, bool)]
        if len(swept) < len(named) or len(set(swept)) < 2:  # a setting not numeric at every row has no edge
            continue
        if value == max(swept):
            out.append({"setting": key, "value": _plain(value), "side": "largest"})
        elif value == min(swept) and not (key in FLOORS and value <= FLOORS[key]):  # nothing below a floor to sweep
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


class _Words:
    """A setting in words: by the values that differ between the columns, from its label."""

    def __init__(self, labels: list[Any], named: list[Mapping[str, Any]] | None) -> None:
        self.labels, self.named = labels, named
        self.index = {repr(label): column for column, label in enumerate(labels)}

    def __call__(self, label: Any) -> str:
        return _label(self.index[repr(label)], self.labels, self.named)

    def full(self, label: Any) -> str:
        """Every setting value of the column (what a user copies), or its label."""
        if self.named is None:
            return str(label)
        row = self.named[self.index[repr(label)]]
        return ", ".join(f"{k}={v}" for k, v in row.items() if v is not None) or str(label)


def _decision(out: dict[str, Any], text: _Words, costed: bool, alike: bool) -> str:
    """The first sentence: what to do."""
    best, queries, kept = out["best"], out["queries"], out["confidence_set"]
    equal = out["equivalent"]
    if alike:
        return f"these {queries} queries cannot separate the settings: every setting gives each query the same score"
    if len(equal) > 1:
        which = "the cheapest of them" if costed else "the best of them"
        return (f"use {text.full(out['choice'])}: {len(equal)} settings are equivalent to the best within "
                f"\u00b1{out['margin']:g} (two one-sided tests) and it is {which} ({' | '.join(map(text, equal))})")
    if len(kept) == 1:
        return f"use {text.full(best)}: it is better than every other setting swept"
    if not costed:
        return f"{len(kept)} settings are tied within the noise ({' | '.join(map(text, kept))}); none is shown best"
    return (f"{len(kept)} settings are tied within the noise: take the cheapest, {text.full(out['cheapest'])} "
            f"(tied: {' | '.join(map(text, kept))})")


def _message(out: dict[str, Any], order: list[int], text: _Words, name: str, level: str, means: np.ndarray,
             low: np.ndarray, high: np.ndarray, alike: bool) -> str:  # fmt: skip
    """The decision, then every number that backs it, each clause as the numbers say."""
    labels, best, columns, queries = out["columns"], order[0], len(order), out["queries"]
    parts = [out["decision"]]
    if alike:
        parts.append("more queries like these would not either")
        return _joined("; ".join(parts), out["warnings"])
    family = f"{level}, simultaneous over {columns} settings"
    parts.append(f"best: {text(out['best'])} ({name} {means[best]:.3f}, {level} interval {low[best]:.3f}-"
                 f"{high[best]:.3f}, {queries} queries)")  # fmt: skip
    if out["separable"]:
        parts.append(f"confidence set of the best ({level}, by elimination over {columns} settings): "
                     f"{' | '.join(map(text, out['confidence_set']))}")
        worse = [f"{text(row['setting'])} ("
                 + (f"by at least {row['at_least']:.3f}" if row["at_least"] > 0 else "shown by the elimination")
                 + ("" if row["than"] == labels[best] else f" than {text(row['than'])}") + ")"
                 for row in out["worse_by"]]  # fmt: skip
        parts.append(f"worse: {' | '.join(worse)}")
    else:
        parts.append(f"no setting is shown better than another ({family}, p = {out['p_value']:.2f})")
    said = f"best minus runner-up ({text(out['runner_up'])}): {out['difference']:+.3f} " \
           f"[{out['difference_low']:+.3f}, {out['difference_high']:+.3f}]"  # fmt: skip
    if out["runner_up"] in out["worse"] and out["difference_low"] <= 0:
        said += " (the elimination tells them apart; this all-pairs interval alone does not)"
    parts.append(said)
    if out["detectable"] is not None:
        parts.append(f"power: a true lead of {out['detectable']:.3f} over the runner-up would be found {POWER:.0%} "
                     f"of the time by the all-pairs test over {columns} settings at these queries' spread (at least "
                     "as often by the elimination)")  # fmt: skip
    margin = out["margin"]
    if margin is not None and len(out["equivalent"]) < 2 and len(out["confidence_set"]) > 1:
        parts.append(f"not shown equivalent within \u00b1{margin:g}: the tie is the noise of {queries} queries, "
                     "not a difference smaller than the margin")  # fmt: skip
    agree, splits = out["split_agree"], out["splits"]
    if agree is not None and splits:
        parts.append(f"two random halves of the queries picked the same best in {agree} of {splits} splits")
    timed = out["holdout"]
    if timed is not None:
        parts.append(_held(timed, text))
    for edge in out["edge"] if out["separable"] else []:
        way = "larger" if edge["side"] == "largest" else "smaller"
        parts.append(f"{edge['setting']}={edge['value']} is the {edge['side']} {edge['setting']} swept: sweep "
                     f"past it ({way} values) before taking it")  # fmt: skip
    return _joined("; ".join(parts), out["warnings"])


def _held(timed: dict[str, Any], text: _Words) -> str:
    chosen, runner = text(timed["chosen"]), text(timed["runner_up"])
    what = {"held": f"{chosen} kept its lead over {runner}", "reversed": f"{chosen} fell behind {runner}",
            "could not tell": f"{chosen}'s lead over {runner} cannot be told from 0"}[timed["outcome"]]  # fmt: skip
    return (f"on newer commits: chosen on the older {timed['older']} commit-message queries, {what} on the newer "
            f"{timed['newer']} ({timed['difference']:+.3f} [{timed['low']:+.3f}, {timed['high']:+.3f}])")
