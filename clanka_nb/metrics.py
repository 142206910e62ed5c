"""The retrieval probe's metrics, each defined once: its name, its cut-off or budget, which way is better,
whether it gets an interval and may rank settings, and how its per-query values follow from the ranks.

A leaf (numpy only): the probe computes them, the sweep's columns and intervals, the verdict, the CLI's
`--metric`, the plots and the tuning panel all read this one registry. Per query:

- `recall@k`: 1 when the first hit's rank is 1..k; `mrr`: 1/rank (0 for a miss); both follow from the rank.
- `precision`: the target lines the top 5 chunks hold, over the lines of those chunks.
- `tokens@k`, `lines@k`: what the top k chunks cost (their embedding inputs' tokens, their lines).
- `budget_found@B`: 1 when a chunk taken within B tokens (in rank order, whole chunks) hits the target;
  `budget_covered@B`: the share of the target's lines those chunks hold.

Adding a metric: one `Family` in `FAMILIES` here and its place in `probe_metrics`' column order; a metric that
follows from the rank gives `of_ranks`, any other its per-query array in `retrieval.scoring._metrics`.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

PRECISION_AT = 5  # precision looks at the top 5 results, whatever k is

Parameter = Literal["k", "budget"]


RankValues = Callable[[np.ndarray, "int | None"], np.ndarray]
"""Per-query values from the full ranks of the first hit (floats, np.inf: a miss) and the metric's number."""


def _recall(ranks: np.ndarray, at: int | None) -> np.ndarray:
    assert at is not None
    values: np.ndarray = (ranks <= at).astype(np.float64)
    return values


def _reciprocal(ranks: np.ndarray, _at: int | None) -> np.ndarray:
    values: np.ndarray = np.divide(1.0, ranks, out=np.zeros(ranks.shape), where=np.isfinite(ranks))
    return values


@dataclass(frozen=True)
class Family:
    """A kind of metric: `name` (the column's prefix), what its number after `@` is (`parameter`: a cut-off k,
    a token budget, or None: no number), which way is better, whether it is a quality the sweep gives a 95%
    interval and the verdict may rank settings by (`ranked`; costs and precision are neither), and for those that
    follow from the rank of the first hit alone, how (`of_ranks`; None: `retrieval.scoring._metrics` computes it
    from the ranking)."""

    name: str
    parameter: Parameter | None
    higher_is_better: bool
    ranked: bool
    label: str  # how a sentence names it ("MRR"); "" for the column's own name
    description: str
    of_ranks: RankValues | None = None


RECALL = Family("recall", "k", True, True, "", "the share of queries whose target is in the top k chunks", _recall)
MRR = Family("mrr", None, True, True, "MRR", "the mean of 1/rank of the first chunk that hits the target",
             _reciprocal)
PRECISION = Family("precision", None, True, False, "", "the target lines among the lines of the top 5 chunks")
TOKENS = Family("tokens", "k", False, False, "", "the tokens of the top k chunks' embedding inputs")
LINES = Family("lines", "k", False, False, "", "the lines of the top k chunks")
BUDGET_FOUND = Family("budget_found", "budget", True, True, "",
                      "the share of queries whose target has a line in the chunks taken within B tokens")
BUDGET_COVERED = Family("budget_covered", "budget", True, True, "",
                        "the mean share of the target's lines the chunks taken within B tokens hold")
FAMILIES: tuple[Family, ...] = (RECALL, MRR, PRECISION, TOKENS, LINES, BUDGET_FOUND, BUDGET_COVERED)
_BY_NAME = {family.name: family for family in FAMILIES}


@dataclass(frozen=True)
class Metric:
    """One metric: its family at one cut-off or budget (`at`; None for a family without a number)."""

    family: Family
    at: int | None = None

    @property
    def name(self) -> str:
        """The column's name: "recall@5", "mrr", "budget_covered@2000"."""
        return self.family.name if self.at is None else f"{self.family.name}@{self.at}"

    @property
    def label(self) -> str:
        """How a sentence names it: "MRR", else its column's name."""
        return self.family.label or self.name

    @property
    def higher_is_better(self) -> bool:
        return self.family.higher_is_better

    @property
    def ranked(self) -> bool:
        """Whether the sweep gives it a 95% interval (`<name>_low`, `<name>_high`) and the verdict may rank by it."""
        return self.family.ranked

    @property
    def from_rank(self) -> bool:
        """Whether its per-query values follow from the rank of the first hit alone (recall@k, mrr)."""
        return self.family.of_ranks is not None

    @property
    def interval(self) -> tuple[str, str]:
        """The columns of its 95% interval."""
        return f"{self.name}_low", f"{self.name}_high"

    def of_ranks(self, ranks: np.ndarray) -> np.ndarray:
        """Its per-query values from full ranks (float; np.inf, or 0, for a miss), for recall@k and mrr.

        The one place recall and the reciprocal rank are computed: observed ranks (ints, 0 a miss) and a
        sample's estimated ranks (floats, np.inf a miss) alike."""
        if self.family.of_ranks is None:
            msg = f"{self.name} does not follow from the rank alone"
            raise ValueError(msg)
        ranks = np.asarray(ranks, dtype=np.float64)
        full = np.where(ranks >= 1, ranks, np.inf)  # 0 (an observed miss) and np.inf (an estimated one) alike
        return self.family.of_ranks(full, self.at)

    def values(self, arrays: Mapping[str, np.ndarray]) -> np.ndarray:
        """Its per-query values from a setting's per-query arrays (`retrieval.scoring._metrics.metric_arrays`): its own
        array, or (recall@k, mrr) computed from `rank`."""
        if self.name in arrays:
            return arrays[self.name]
        if self.from_rank and "rank" in arrays:
            return self.of_ranks(arrays["rank"])
        msg = f"metric {self.name!r} is not among these per-query arrays ({', '.join(arrays) or 'none'})"
        raise ValueError(msg)

    def __str__(self) -> str:
        return self.name


def metric_of(name: object) -> Metric | None:
    """The metric a column name names ("recall@5", "mrr", "budget_covered@2000"), None for any other column (an
    interval, a count, a label that is no str): the one reading of a name, which `parse_metric` refuses loudly."""
    if isinstance(name, Metric):
        return name
    if not isinstance(name, str):
        return None
    prefix, at, number = name.partition("@")
    family = _BY_NAME.get(prefix)
    if family is None or (family.parameter is None) != (not at) or (at and not _whole(number)):
        return None
    return Metric(family, int(number) if at else None)


def parse_metric(name: str | Metric) -> Metric:
    """The metric a column name names ("recall@5", "mrr", "budget_covered@2000"); a ValueError naming the closest
    known name otherwise."""
    if not isinstance(name, str | Metric):
        msg = f"a metric is named by a string such as 'recall@5' or 'budget_covered@2000', got {type(name).__name__}"
        raise TypeError(msg)
    found = metric_of(name)
    if found is not None:
        return found
    assert isinstance(name, str)
    prefix, at, number = name.partition("@")
    known = [family.name if family.parameter is None else f"{family.name}@" for family in FAMILIES]
    close = difflib.get_close_matches(prefix + at, known, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0] + (number if close[0].endswith('@') else '')!r}?" if close else ""
    msg = (f"{name!r:.80} is not a metric: one of mrr, precision, recall@K, tokens@K, lines@K, budget_found@B, "
           f"budget_covered@B (K a cut-off, B a token budget){hint}")
    raise ValueError(msg)


def _whole(text: str) -> bool:
    return text.isascii() and text.isdigit() and int(text) >= 1


def probe_metrics(cutoffs: Sequence[int], budgets: Sequence[int]) -> list[Metric]:
    """Every metric a probe with these cut-offs and budgets measures, in the sweep's column order."""
    out = [Metric(RECALL, k) for k in cutoffs]
    out += [Metric(MRR), Metric(PRECISION)]
    out += [Metric(TOKENS, k) for k in cutoffs] + [Metric(LINES, k) for k in cutoffs]
    out += [Metric(family, b) for b in budgets for family in (BUDGET_FOUND, BUDGET_COVERED)]
    return out


def ranked_metrics(cutoffs: Sequence[int], budgets: Sequence[int]) -> list[Metric]:
    """The metrics that get a 95% interval and that the verdict may rank by, in column order."""
    return [metric for metric in probe_metrics(cutoffs, budgets) if metric.ranked]


def default_metric(budgets: Sequence[int]) -> Metric:
    """The one default metric: budget_covered at the smallest budget (every setting pays the same tokens)."""
    return Metric(BUDGET_COVERED, min(budgets))


def chosen_metric(metric: str | Metric | None, cutoffs: Sequence[int], budgets: Sequence[int]) -> Metric:
    """The verdict's metric: `metric` (checked to be one this probe measures and may rank by), or the default."""
    if metric is None:
        return default_metric(budgets)
    ranked = ranked_metrics(cutoffs, budgets)
    allowed = [m for m in ranked if m.family is MRR] + [m for m in ranked if m.family is not MRR]  # mrr first
    names = [m.name for m in allowed]
    if str(metric) in names:
        return allowed[names.index(str(metric))]
    close = difflib.get_close_matches(str(metric), names, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    msg = (f"metric must name one of the probe's columns the verdict can rank by: {', '.join(names)} (a recall@k "
           f"needs k in k=, a budget_*@B needs B in budget=); got {str(metric)!r:.80}{hint}")
    raise ValueError(msg)


def is_metric_column(name: object) -> bool:
    """Whether a sweep column is one of the probe's metrics (not an interval, not a count)."""
    return metric_of(name) is not None


def is_cost(name: object) -> bool:
    """Whether a column is a cost of an answer (tokens@k, lines@k): lower is better, and a plot's x."""
    metric = metric_of(name)
    return metric is not None and not metric.higher_is_better


def trade_off_cost(cutoffs: Sequence[int]) -> str:
    """The cost a trade-off puts on x (the tuning panel's chart, `plot_sweep`'s default on a probed table): tokens@5,
    or the largest cut-off under 5 (else the smallest one)."""
    under = [k for k in cutoffs if k <= 5]
    return Metric(TOKENS, max(under) if under else min(cutoffs)).name


def names(metrics: Iterable[Metric]) -> list[str]:
    return [metric.name for metric in metrics]


def label_of(name: str) -> str:
    """How a sentence names a column or score: a metric's label ("MRR"), any other name as it is."""
    metric = metric_of(name)
    return name if metric is None else metric.label
