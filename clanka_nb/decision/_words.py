"""The verdict in words: the decision (what to do) first, then every number that backs it, each clause written from
the typed `Verdict` it describes, so a sentence cannot say what the numbers beside it do not."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._choice import COST_TOLERANCE
from ._result import Holdout, Verdict


class Words:
    """A setting in words: by the values that differ between the columns, from its label."""

    def __init__(self, labels: list[Any], named: list[Mapping[str, Any]] | None) -> None:
        self.labels, self.named = labels, named
        self.index = {repr(label): column for column, label in enumerate(labels)}

    def __call__(self, label: Any) -> str:
        """The values that differ between the columns (all of them for one column), or the label."""
        column = self.index[repr(label)]
        if self.named is None:
            return str(label)
        row = self.named[column]
        varying = [key for key in row if len({repr(other.get(key)) for other in self.named}) > 1]
        shown = {key: row[key] for key in (varying or row)}
        return ", ".join(f"{key}={value}" for key, value in shown.items() if value is not None) or str(label)

    def full(self, label: Any) -> str:
        """Every setting value of the column (what a user copies), or its label."""
        if self.named is None:
            return str(label)
        row = self.named[self.index[repr(label)]]
        return ", ".join(f"{k}={v}" for k, v in row.items() if v is not None) or str(label)

    def listed(self, labels: list[Any]) -> str:
        return " | ".join(map(self, labels))


def joined(message: str, warnings: list[str]) -> str:
    return "; ".join([message, *(f"warning: {text}" for text in warnings)])


def decision_text(found: Verdict, text: Words, alike: bool) -> str:
    """The first sentence: what to do, about the setting it names (`choice`)."""
    kept, equal = found.confidence_set, found.equivalent
    if alike:
        return f"these {found.queries} queries cannot separate the settings: every setting gives each query the same " \
               "score"  # fmt: skip
    if len(equal) > 1:
        said = (f"use {text.full(found.choice)}: {len(equal)} settings are equivalent to the best within "
                f"\u00b1{found.margin:g} (two one-sided tests) and it is {cheapest_words(found, equal)} "
                f"({text.listed(equal)})")
        unresolved = [label for label in kept if label not in equal]
        if unresolved:
            are = "is" if len(unresolved) == 1 else "are"
            said += f", and {len(unresolved)} more tied with the best {are} not shown equivalent " \
                    f"({text.listed(unresolved)})"  # fmt: skip
        return said
    if len(kept) == 1:
        return f"use {text.full(found.best)}: it is better than every other setting swept"
    if found.costs is None:
        return f"{len(kept)} settings are tied within the noise ({text.listed(kept)}); none is shown best"
    return (f"{len(kept)} settings are tied within the noise: take {cheapest_words(found, kept)}, "
            f"{text.full(found.choice)} (tied: {text.listed(kept)})")


def cheapest_words(found: Verdict, among: list[Any]) -> str:
    """"the cheapest of them by tokens indexed", or how the choice stands among near-equal costs."""
    if found.costs is None:
        return "the best of them"
    by = found.cost_name or "the cost given"
    costs = {repr(label): cost for label, cost in zip(found.columns, found.costs, strict=True)}
    lowest = min(costs[repr(label)] for label in among)
    if costs[repr(found.choice)] <= lowest:
        return f"the cheapest of them by {by}"
    over = costs[repr(found.choice)] / lowest - 1 if lowest > 0 else 0.0
    return f"the best of them within {COST_TOLERANCE:.0%} of the cheapest by {by} ({over:.1%} more)"


def message_text(found: Verdict, text: Words, name: str, alike: bool) -> str:
    """The decision, then every number that backs it, each clause as the numbers say."""
    parts = [found.decision or ""]
    if alike:
        parts.append("more queries like these would not either")
        return joined("; ".join(parts), found.warnings)
    level, columns = f"{found.confidence:.0%}", len(found.columns)
    best = found.columns.index(found.best)
    parts.append(f"best: {text(found.best)} ({name} {found.means[best]:.3f}, {level} interval {found.low[best]:.3f}-"
                 f"{found.high[best]:.3f}, {found.queries} queries)")  # fmt: skip
    parts.extend(_set_clauses(found, text, level))
    said = f"best minus runner-up ({text(found.runner_up)}): {found.difference:+.3f} " \
           f"[{found.difference_low:+.3f}, {found.difference_high:+.3f}]"  # fmt: skip
    if found.runner_up in found.worse and (found.difference_low or 0) <= 0:
        said += " (the elimination tells them apart; this all-pairs interval alone does not)"
    parts.append(said)
    if found.detectable is not None:
        parts.append(f"power: a true lead of {found.detectable:.3f} over the runner-up would be found "
                     f"{found.power:.0%} of the time by the all-pairs test over {columns} settings at these queries' "
                     "spread (at least as often by the elimination)")  # fmt: skip
    if found.margin is not None and len(found.equivalent) < 2 and len(found.confidence_set) > 1:
        parts.append(f"not shown equivalent within \u00b1{found.margin:g}: the tie is the noise of {found.queries} "
                     "queries, not a difference smaller than the margin")  # fmt: skip
    if found.split_agree is not None and found.splits:
        parts.append(f"two random halves of the queries picked the same best in {found.split_agree} of "
                     f"{found.splits} splits")  # fmt: skip
    if found.holdout is not None:
        parts.append(held_text(found.holdout, text))
    for edge in found.edge if found.separable or len(found.equivalent) > 1 else []:
        way = "larger" if edge.side == "largest" else "smaller"
        parts.append(f"{edge.setting}={edge.value} is the {edge.side} {edge.setting} swept: sweep past it ({way} "
                     "values) before taking it")  # fmt: skip
    return joined("; ".join(parts), found.warnings)


def _set_clauses(found: Verdict, text: Words, level: str) -> list[str]:
    """The confidence set and who is worse (by how much), or that no setting is shown better than another."""
    columns = len(found.columns)
    if not found.separable:
        return [f"no setting is shown better than another ({level}, simultaneous over {columns} settings, "
                f"p = {found.p_value:.2f})"]  # fmt: skip
    worse = [f"{text(row.setting)} (" + (f"by at least {row.at_least:.3f}" if row.at_least > 0
                                          else "shown by the elimination")
             + ("" if row.than == found.best else f" than {text(row.than)}") + ")"
             for row in found.worse_by]  # fmt: skip
    return [f"confidence set of the best ({level}, by elimination over {columns} settings): "
            f"{text.listed(found.confidence_set)}", f"worse: {' | '.join(worse)}"]


def held_text(timed: Holdout, text: Words) -> str:
    """The newer commits' check in words: "held" only where its power reaches 80% at the margin."""
    chosen, runner, newer = text(timed.chosen), text(timed.runner_up), timed.newer
    bounds = f"{chosen} minus {runner} {timed.difference:+.3f} [{timed.low:+.3f}, {timed.high:+.3f}]"
    margin, power = f"\u00b1{timed.margin:g}", f"{timed.power or 0:.0%}"
    if timed.outcome == "reversed":
        return f"on newer commits: {runner} beats {chosen} by more than {margin} on the newer {newer} " \
               f"commit-message queries ({bounds})"  # fmt: skip
    if not timed.powered:
        return (f"on newer commits: the newer {newer} commit-message queries cannot check {chosen} within {margin} "
                f"reliably (power {power}, under 80%: the numbers are in `holdout`, not a confirmation)")
    if timed.outcome == "held":
        return (f"on newer commits: {chosen} is within {margin} of or better than each of the {len(timed.against)} "
                f"settings it was chosen over on the newer {newer} commit-message queries (nearest: {bounds}; "
                f"power {power})")
    return (f"on newer commits: whether {chosen} is within {margin} of each setting it was chosen over cannot be "
            f"told from the newer {newer} commit-message queries (nearest: {bounds}; power {power})")
