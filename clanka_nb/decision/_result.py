"""The verdict as a typed object: the decision and the message first, then every number behind them.

`verdict` and `decide` give a `Verdict`; a sweep table keeps `Verdict.as_dict()` in `attrs["verdict"]` (plain
values, so the table still saves to Parquet) and `Verdict.from_dict` reads it back.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class WorseBy:
    """A setting shown worse: the one shown better than it, and by at least how much (the lower bound of their
    simultaneous interval; 0 or less where only the elimination's later steps tell them apart)."""

    setting: Any
    than: Any
    at_least: float


@dataclass(frozen=True)
class PairDifference:
    """One pair of settings: the mean difference a - b and its simultaneous interval."""

    a: Any
    b: Any
    difference: float
    low: float
    high: float


@dataclass(frozen=True)
class Holdout:
    """The choice made on the older commit-message queries, against its runner-up on the newer ones."""

    older: int
    newer: int
    chosen: Any
    runner_up: Any
    difference: float
    low: float
    high: float
    outcome: str  # "confirmed", "reversed" or "not distinguishable"


@dataclass(frozen=True)
class Edge:
    """A numeric setting whose best value is the largest or smallest swept: the best may lie past the range."""

    setting: str
    value: Any
    side: str  # "largest" or "smallest"


@dataclass(frozen=True)
class Verdict:
    """What per-query scores say to do about the settings. `str(verdict)` is `message`.

    The settings are named by their column labels (in a sweep, row positions: `table.iloc[row]`).

    Attributes:
        message: The decision first, then what it rests on, in words.
        decision: The headline: which setting to use, or that the settings are tied (and the cheapest of them).
        choice: The column the decision names (None without queries).
        metric: The score's name ("budget_covered@2000", or the name given to `verdict`).
        queries: The queries scored.
        clusters: The clusters of queries: the unit of every test and interval.
        effective_clusters: How many independent clusters the clusters' sizes are worth.
        columns: The settings' labels, in the scores' column order.
        means: Each setting's mean score, in column order.
        low: The low end of each setting's cluster bootstrap interval.
        high: The high end of each setting's cluster bootstrap interval.
        best: The column with the highest mean.
        best_settings: Its setting values (None when not given).
        confidence_set: Every setting no other is shown better than, best first.
        tied: The confidence set without the best.
        cheapest: The cheapest of the confidence set by `costs`.
        costs: The cost per column as given (None: not given).
        worse: The settings shown worse, best first.
        worse_by: For each setting shown worse, who beats it and by at least how much.
        separable: Whether any setting is shown worse.
        p_value: The p-value of "no pair differs".
        critical: The simultaneous |t| every pair is held to.
        pairs: Every pair's difference and simultaneous interval.
        runner_up: The second best.
        difference: The best's lead over the runner-up.
        difference_low: The low end of that lead's simultaneous interval.
        difference_high: The high end of that lead's simultaneous interval.
        detectable: The lead over the runner-up this test finds with probability `power` (None: no pair differs).
        power: The power `detectable` is computed at (0.8).
        margin: The smallest difference that matters (None: no equivalence test).
        equivalent: The settings within `margin` of the best, best included (two one-sided tests).
        split_agree: In how many of `splits` random halves of the clusters both halves name the same best.
        splits: The split-half checks made.
        holdout: The check on newer commits (None without commit times).
        edge: The bests at the end of a swept range.
        warnings: What limits the verdict (few queries, heavy clusters), in words.
        confidence: The confidence of the intervals and tests.
        resamples: The cluster bootstrap's resamples.
        seed: The seed of every random draw.
        sample: On a sampled sweep, the share of distractor chunks indexed (None: the whole codebase).
        scored_on: "full" when a sample's verdict was confirmed on the whole codebase, "sample" when it was not.
        confirmed: The rows scored again on the whole codebase.
        screened: What the sample's verdict said, kept beside the confirmed one.
        confirmation_embedded: The inputs embedded to confirm.
    """

    message: str
    decision: str | None
    choice: Any
    metric: str
    queries: int
    clusters: int
    effective_clusters: float
    columns: list[Any]
    means: list[float | None]
    low: list[float | None]
    high: list[float | None]
    best: Any
    best_settings: dict[str, Any] | None
    confidence_set: list[Any]
    tied: list[Any]
    cheapest: Any
    costs: list[float] | None
    worse: list[Any]
    worse_by: list[WorseBy]
    separable: bool
    p_value: float | None
    critical: float | None
    pairs: list[PairDifference]
    runner_up: Any
    difference: float | None
    difference_low: float | None
    difference_high: float | None
    detectable: float | None
    power: float
    margin: float | None
    equivalent: list[Any]
    split_agree: int | None
    splits: int
    holdout: Holdout | None
    edge: list[Edge]
    warnings: list[str]
    confidence: float
    resamples: int
    seed: int
    sample: float | None = None
    scored_on: str | None = None
    confirmed: list[int] = field(default_factory=list)
    screened: dict[str, Any] | None = None
    confirmation_embedded: int = 0

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> dict[str, Any]:
        """Plain values only (what a sweep table's `attrs["verdict"]` holds, so the table saves to Parquet)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> Verdict:
        """The verdict a sweep table's `attrs["verdict"]` holds (`as_dict`'s), typed again."""
        known = {f.name for f in dataclasses.fields(cls)}
        given = {name: value for name, value in values.items() if name in known}
        missing = sorted(f.name for f in dataclasses.fields(cls) if f.name not in given
                         and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)  # fmt: skip
        if missing:
            msg = f"not a verdict: it has no {', '.join(missing)}; pass a sweep table's attrs['verdict']"
            raise ValueError(msg)
        holdout = given.get("holdout")
        return cls(**{
            **given,
            "worse_by": [WorseBy(**item) for item in given["worse_by"]],
            "pairs": [PairDifference(**item) for item in given["pairs"]],
            "holdout": None if holdout is None else Holdout(**holdout),
            "edge": [Edge(**item) for item in given["edge"]],
        })  # fmt: skip
