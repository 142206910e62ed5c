"""`verdict`: what a table of per-query scores says to do, holding the family-wise error for any number of settings.

`verdict()` checks its input once (`_input`) and builds the typed `Verdict` from typed steps, in order
(docs/tuning-verdict.md says why each step is there):

1. **Each setting's interval** (here): a cluster bootstrap of its mean (queries sharing a target or a commit are one
   cluster), widened as Student's t widens at Kish's effective number of clusters when a few clusters are heavy.
2. **Every pair at once** (`_pairs`): each pair's mean difference with a cluster jackknife standard error, and one
   critical value for all pairs from the largest |t| over the pairs in a studentized wild cluster bootstrap, widened
   the same way for heavy clusters (counted by their sizes and by how much their queries' differences vary).
   Intervals are simultaneous: the chance that any misses is held at 1 - confidence, whatever the number of
   settings and however alike neighbouring settings score.
3. **The confidence set of the best** (`_set`): by elimination, each step testing "the settings left are equal" by
   the largest |t| among them and, when that rejects, removing the setting that trails another most clearly (its own
   t). With truly equal settings a winner is named at most 1 - confidence of the time.
4. **The equivalence and the choice** (`_choice`): the settings shown within `margin` of the best (two one-sided
   tests by the same intervals); the setting named is the one alone in the set, else the cheapest of those shown
   equivalent, else the cheapest of the tie, by the one cost given (`cost`, named by `cost_name`; costs within 2%
   count as equal, the higher mean taken among them).
5. **Power**: the true lead over the runner-up this same test finds 80% of the time, (c + z(0.8)) x its error.
6. **The checks** (`_checks`, `_holdout`): random halves of the clusters; with commit times, the choice checked on
   the newer commits (within the margin of each setting it was chosen over, with the check's own power); the edge
   of the range at the choice (never below a setting's floor: overlap 0, size 1); and the warnings (few queries or
   clusters, a heavy cluster, too few effective clusters, a widening that costs power).
7. **The words** (`_words`): the decision first, then every number behind it, each clause written from the typed
   fields it states.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..defaults import VERDICT_MARGIN
from ..keywords import checked_keywords
from ..metrics import label_of
from ._checks import edges, few_effective, query_warnings, split_agreement, widening_costs
from ._choice import Choice, choose
from ._holdout import POWERED, holdout
from ._input import Table, check_confidence, check_count, check_margin, check_name, checked_table, times
from ._pairs import POWER, Pairs, effective_clusters, row_widening, simultaneous
from ._result import Holdout, PairDifference, Verdict, WorseBy
from ._set import BestSet, best_set
from ._words import Words, decision_text, joined, message_text

CONFIDENCE = 0.95
RESAMPLES = 2000  # cluster bootstrap resamples of the intervals, and wild bootstrap draws of the max-t
SPLITS = 10  # split-half checks
SEED = 0
MARGIN = VERDICT_MARGIN  # the smallest difference that matters, by default


@dataclass(frozen=True)
class Options:
    """The verdict's options, checked once (`checked_options`)."""

    confidence: float
    margin: float | None
    resamples: int
    splits: int
    seed: int
    metric_name: str


@dataclass(frozen=True)
class Rows:
    """Each setting's mean and cluster bootstrap interval, and the settings best first (by mean, then cost)."""

    means: np.ndarray
    low: np.ndarray
    high: np.ndarray
    order: list[int]


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
    cost_name: str | None = None,
) -> Verdict:
    """What per-query scores say to do about the settings (see the module docstring), as a `Verdict`.

    Args:
        scores: One row per query, one column per setting, higher is better.
        groups: A cluster id per query (queries sharing a target or a commit are one unit); None: each query its own.
        settings: Column -> its setting values (for the wording and the edge check).
        cost: Per column (e.g. tokens indexed): the cheapest of a tie is named (costs within 2% of the lowest count
            as equal, and the higher mean is taken among them), and ties of the mean go to it.
        confidence: The confidence of the intervals and of the tests.
        margin: The smallest difference that matters (None: no equivalence test).
        when: Per query, its commit's time (NaN for a query not from a commit), for the check on newer commits.
        resamples: The cluster bootstrap's resamples.
        splits: How many random halves of the clusters are checked for picking the same best (`split_agree`).
        seed: The seed of every random draw, so a call gives the same answer on every machine.
        metric_name: The metric's name, for the wording.
        cost_name: What `cost` counts, named in the message ("the cheapest of them by tokens indexed"); None: "the
            cost given".

    Returns:
        The verdict: `Verdict` says what each of its fields holds, the message and the decision first.

    Raises:
        TypeError: `scores` is not a DataFrame, or an argument has the wrong type.
        ValueError: An argument is out of range (each error names it and the fix).
    """
    options = checked_options(confidence, margin, resamples, splits, seed, metric_name)
    cost_name = None if cost_name is None else check_name("cost_name", cost_name)
    table = checked_table(scores, groups, settings, cost)
    timed = None if when is None else times(when, table.queries)
    if not table.queries:
        nothing: list[float | None] = [None] * table.columns
        return dataclasses.replace(_blank(table, options), means=nothing, low=nothing, high=nothing,
                                   message="no queries: the scores cannot judge the settings")  # fmt: skip
    rows = _rows(table, options)
    if table.columns == 1:
        return _one_setting(table, options, rows)
    return _compared(table, options, rows, timed, cost_name if table.costed else None)


def checked_options(confidence: object, margin: object, resamples: object, splits: object, seed: object,
                    metric_name: object) -> Options:  # fmt: skip
    """Every option of `verdict` checked, each error naming its argument."""
    return Options(check_confidence(confidence), check_margin(margin), check_count("resamples", resamples, 1, 2000),
                   check_count("splits", splits, 0, 10), check_count("seed", seed, 0, 0),
                   check_name("metric_name", metric_name))  # fmt: skip


def _rows(table: Table, options: Options) -> Rows:
    sums, sizes = table.sums, table.sizes
    means = sums.sum(axis=0) / table.queries
    order = sorted(range(table.columns), key=lambda column: (-means[column], table.costs[column], column))
    counts = cluster_counts(len(sizes), options.resamples, options.seed)
    resampled = (counts @ sums) / (counts @ sizes)[:, None]  # each setting's mean over resampled clusters
    tail = (1 - options.confidence) / 2 * 100
    low, high = np.percentile(resampled, [tail, 100 - tail], axis=0)
    low, high = widened(means, low, high, sizes, options.confidence)
    return Rows(means, low, high, order)


def widened(centre: np.ndarray, low: np.ndarray, high: np.ndarray, sizes: np.ndarray,
            confidence: float) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """A percentile interval's ends moved away from the estimate by `row_widening` (a few heavy clusters): the one
    rule of the verdict's rows and of a sweep row's intervals, so the two agree."""
    factor = row_widening(sizes, confidence)
    return centre - factor * (centre - low), centre + factor * (high - centre)


def _blank(table: Table, options: Options) -> Verdict:
    """The verdict's fields that every outcome shares, the others empty (no queries: this is the verdict)."""
    sizes = table.sizes
    return Verdict(
        message="", decision=None, choice=None, metric=options.metric_name, queries=table.queries,
        clusters=len(sizes), effective_clusters=round(effective_clusters(sizes), 1), columns=table.labels,
        means=[], low=[], high=[], best=None, best_settings=None, confidence_set=[], tied=[], cheapest=None,
        costs=table.costs if table.costed else None, worse=[], worse_by=[], separable=False, p_value=None,
        critical=None, pairs=[], runner_up=None, difference=None, difference_low=None, difference_high=None,
        detectable=None, power=POWER, margin=options.margin, equivalent=[], split_agree=None, splits=options.splits,
        holdout=None, edge=[], warnings=[], confidence=options.confidence, resamples=options.resamples,
        seed=options.seed,
    )  # fmt: skip


def _with_rows(table: Table, options: Options, rows: Rows) -> Verdict:
    best = rows.order[0]
    return dataclasses.replace(
        _blank(table, options), means=rows.means.tolist(), low=rows.low.tolist(), high=rows.high.tolist(),
        best=table.labels[best], best_settings=None if table.named is None else dict(table.named[best]),
        warnings=query_warnings(table.queries, table.sizes, table.grouped),
    )  # fmt: skip


def _one_setting(table: Table, options: Options, rows: Rows) -> Verdict:
    found = _with_rows(table, options, rows)
    name = label_of(options.metric_name)
    decision = (f"one setting: nothing to compare ({name} {rows.means[0]:.3f}, {options.confidence:.0%} interval "
                f"{rows.low[0]:.3f}-{rows.high[0]:.3f})")  # fmt: skip
    return dataclasses.replace(found, confidence_set=[found.best], cheapest=found.best, choice=found.best,
                               decision=decision, message=joined(decision, found.warnings))  # fmt: skip


def _compared(table: Table, options: Options, rows: Rows, when: np.ndarray | None, cost_name: str | None) -> Verdict:
    """Two settings or more: the pairs, the set, the equivalence and the choice, the checks, then the words."""
    pairs = simultaneous(table.sums, table.sizes, options.confidence, options.resamples, options.seed,
                         table.pair_squares())  # fmt: skip
    found = best_set(pairs, rows.order, options.confidence)
    picked = choose(pairs, found, table.costs, options.margin)
    result = _set_fields(_with_rows(table, options, rows), table, pairs, found, picked)
    result = dataclasses.replace(result, cost_name=cost_name)
    result = _checked_fields(result, table, options, picked.choice, pairs, when)
    alike = bool(np.all(np.ptp(table.values, axis=1) == 0))
    text = Words(table.labels, table.named)
    result = dataclasses.replace(result, decision=decision_text(result, text, alike))
    return dataclasses.replace(result, message=message_text(result, text, label_of(options.metric_name), alike))


def _set_fields(result: Verdict, table: Table, pairs: Pairs, found: BestSet, picked: Choice) -> Verdict:
    """The pairs, the confidence set, the lead over the runner-up, its power and the choice, as the verdict's."""
    labels, order = table.labels, found.order
    best, runner = order[0], order[1]
    difference, d_low, d_high, _ = pairs.between(best, runner)
    # The detectable lead needs a pair that differs: a runner-up identical to the best on every query (a setting
    # that changes no chunk the queries reach) has no spread and would promise 0.
    differing = next((c for c in order[1:] if np.any(table.values[:, c] != table.values[:, best])), None)
    return dataclasses.replace(
        result, confidence_set=[labels[c] for c in found.kept], tied=[labels[c] for c in found.kept if c != best],
        cheapest=labels[picked.cheapest], worse=[labels[c] for c in found.removed],
        worse_by=[WorseBy(labels[c], labels[found.beaten[c][0]], found.beaten[c][1]) for c in found.removed],
        separable=len(found.kept) < table.columns, p_value=pairs.p_value, critical=pairs.critical,
        pairs=[PairDifference(labels[a], labels[b], float(d), float(lo), float(hi))
               for a, b, d, lo, hi in zip(pairs.a, pairs.b, pairs.difference, pairs.low, pairs.high, strict=True)],
        runner_up=labels[runner], difference=difference, difference_low=d_low, difference_high=d_high,
        detectable=None if differing is None else pairs.detectable(best, differing),
        equivalent=[labels[c] for c in picked.equal], choice=labels[picked.choice],
    )  # fmt: skip


def _checked_fields(result: Verdict, table: Table, options: Options, choice: int, pairs: Pairs,
                    when: np.ndarray | None) -> Verdict:  # fmt: skip
    """The halves, the newer commits, the edge of the range at the choice, and the warnings."""
    return dataclasses.replace(
        result, split_agree=split_agreement(table.sums, table.costs, options.splits, options.seed),
        holdout=None if when is None else _newer(table, options, choice, when), edge=edges(choice, table.named),
        warnings=result.warnings + few_effective(table.sizes, f"{options.confidence:.0%}")
        + widening_costs(table.sizes, pairs, options.confidence), widening=pairs.widening,
    )  # fmt: skip


def _newer(table: Table, options: Options, choice: int, when: np.ndarray) -> Holdout | None:
    """The choice checked on the newer commits, within the margin (the default one when the verdict has none)."""
    margin = MARGIN if options.margin is None else options.margin
    timed = holdout(table.values, table.cluster, when, choice, margin, options.confidence)
    if timed is None:
        return None
    labels, chosen = table.labels, table.labels[choice]
    other, difference, low, high = timed.closest
    return Holdout(timed.older, timed.newer, chosen, labels[other], difference, low, high, timed.outcome, margin,
                   timed.power, timed.power >= POWERED,
                   [PairDifference(chosen, labels[o], d, lo, hi) for o, d, lo, hi in timed.against])  # fmt: skip


def cluster_counts(clusters: int, resamples: int, seed: int) -> np.ndarray:
    """How often each cluster is drawn in each resample of a cluster bootstrap (resamples x clusters): the
    one resampling of the verdict's intervals and of a sweep row's (`_verdict.Bootstrap`), so both agree."""
    return np.random.default_rng([seed, 1]).multinomial(clusters, np.full(clusters, 1 / clusters),
                                                        size=resamples).astype(np.float64)  # fmt: skip
