"""The equivalence and the choice: which settings are shown within the margin of the best, and the one setting the
verdict names (alone in the set; else the cheapest of those shown equivalent; else the cheapest of the tie)."""

from __future__ import annotations

from dataclasses import dataclass

from ._pairs import Pairs, equivalent
from ._set import BestSet


@dataclass(frozen=True)
class Choice:
    """`equal`: the best and the settings shown equivalent to it within the margin, best first (empty without a
    margin); `cheapest`: the cheapest of the confidence set; `choice`: the setting the verdict names."""

    equal: list[int]
    cheapest: int
    choice: int


def choose(pairs: Pairs, found: BestSet, costs: list[float], margin: float | None) -> Choice:
    """The equivalence test against the best, then the choice (see `Choice`); ties of cost go to the higher mean."""
    order = found.order
    best = order[0]
    equal = [] if margin is None else [best, *equivalent(pairs, best, order[1:], margin)]
    cheapest = _cheapest(found.kept, costs, order)
    choice = _cheapest(equal, costs, order) if len(equal) > 1 else best if len(found.kept) == 1 else cheapest
    return Choice(equal, cheapest, choice)


def _cheapest(columns: list[int], costs: list[float], order: list[int]) -> int:
    return min(columns, key=lambda column: (costs[column], order.index(column)))
