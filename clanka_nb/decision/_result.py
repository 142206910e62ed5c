"""The verdict as a typed object: the decision and the message first, then every number behind them.

`verdict` and `decide` give a `Verdict`; a sweep table keeps `Verdict.as_dict()` in `attrs["verdict"]` (plain
values, so the table still saves to Parquet) and `Verdict.from_dict` reads it back.
"""

from __future__ import annotations

import dataclasses
import numbers
import types
import typing
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
    """The choice checked on the newer half of the commit-message queries: is it within the margin of (or better
    than) each setting it was chosen over? `runner_up`, `difference`, `low` and `high` are the comparison nearest to
    failing (the choice minus that setting, with its one-sided bounds, simultaneous over `against`); `power`, the
    chance of "held" were all settings truly equal; `powered`, whether that reaches 80% (only then is "held" quoted
    as confirming the choice)."""

    older: int
    newer: int
    chosen: Any
    runner_up: Any
    difference: float
    low: float
    high: float
    outcome: str  # "held", "reversed" or "could not tell"
    margin: float | None = None
    power: float | None = None
    powered: bool = False
    against: list[PairDifference] = field(default_factory=list)


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
        cheapest: The cheapest of the confidence set by `costs` (within 2%: the higher mean).
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
        holdout: The choice checked on newer commits (None without commit times).
        edge: The chosen setting's values at the end of a swept range (the advice follows the choice).
        warnings: What limits the verdict (few queries, heavy clusters), in words.
        confidence: The confidence of the intervals and tests.
        resamples: The cluster bootstrap's resamples.
        seed: The seed of every random draw.
        sample: On a sampled sweep, the share of distractor chunks indexed (None: the whole codebase).
        scored_on: "full" when a sample's verdict was confirmed on the whole codebase, "sample" when it was not.
        confirmed: The rows scored again on the whole codebase.
        screened: What the sample's verdict said, kept beside the confirmed one.
        confirmation_embedded: The inputs embedded to confirm.
        widening: How much a few heavy clusters widened the simultaneous critical value (1: not at all); each
            setting's own interval is widened by the same rule at its own level.
        cost_name: What `costs` count ("tokens indexed"), as the message names it (None: not named).
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
    widening: float = 1.0
    cost_name: str | None = None

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> dict[str, Any]:
        """Plain values only (what a sweep table's `attrs["verdict"]` holds, so the table saves to Parquet)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> Verdict:
        """The verdict a sweep table's `attrs["verdict"]` holds (`as_dict`'s), typed again.

        Raises:
            ValueError: `values` is not a verdict: a field is missing or holds the wrong type (the error names it).
        """
        return _typed(cls, values, "verdict")


def _typed(cls: type[Any], values: object, path: str) -> Any:
    """`cls` (a dataclass of this module) from its `as_dict` form, every field's type checked against its hint."""
    if not isinstance(values, Mapping):
        _refuse(path, "a dict of the verdict's fields", values)
    hints = _hints(cls)
    fields = dataclasses.fields(cls)
    missing = sorted(f.name for f in fields if f.name not in values
                     and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)  # fmt: skip
    if missing:
        msg = f"not a verdict: {path} has no {', '.join(missing)}; pass a sweep table's attrs['verdict']"
        raise ValueError(msg)
    given = {f.name: _value(values[f.name], hints[f.name], f"{path}.{f.name}") for f in fields if f.name in values}
    return cls(**given)


def _hints(cls: type[Any]) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


_HINTS: dict[type[Any], dict[str, Any]] = {}


def _value(value: object, hint: Any, path: str) -> Any:
    """`value` checked against `hint` (Any, None, str, int, float, bool, unions, list[...], dict[str, ...] and this
    module's dataclasses), nested dataclasses built from their dicts."""
    if hint is Any:
        return value
    origin, arguments = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in arguments:
            return None
        inner = [argument for argument in arguments if argument is not type(None)]
        return _value(value, inner[0] if len(inner) == 1 else Any, path)
    if origin is list:
        if not isinstance(value, list | tuple):
            _refuse(path, "a list", value)
        return [_value(item, arguments[0], f"{path}[{number}]") for number, item in enumerate(value)]
    if origin is dict:
        if not isinstance(value, Mapping) or not all(isinstance(key, str) for key in value):
            _refuse(path, "a dict with str keys", value)
        return dict(value)
    if dataclasses.is_dataclass(hint):
        return _typed(typing.cast(type[Any], hint), value, path)
    if hint in (float, int):
        kind = numbers.Real if hint is float else numbers.Integral
        if isinstance(value, bool) or not isinstance(value, kind):
            _refuse(path, "a number" if hint is float else "a whole number", value)
        return hint(value)
    if hint in (str, bool) and not isinstance(value, hint):
        _refuse(path, f"a {hint.__name__}", value)
    return value


def _refuse(path: str, what: str, value: object) -> typing.NoReturn:
    msg = f"not a verdict: {path} must be {what}, got {type(value).__name__} {value!r:.60}; pass a sweep table's " \
          "attrs['verdict'] as the sweep wrote it"  # fmt: skip
    raise ValueError(msg)
