"""The equivalence and the choice: which settings are shown within the margin of the best, and the one setting the
verdict names (alone in the set; else the cheapest of those shown equivalent; else the cheapest of the tie).

"The cheapest" is by one cost, the caller's (`verdict(cost=, cost_name=)`; a sweep's `Probe(cost=)`: the tokens or
the chunks each setting indexes), and it is named in the message. Costs within `COST_TOLERANCE` of the lowest
among the candidates count as equal (an index 1% larger is no reason to take a worse mean), and among those the
higher mean is taken.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._pairs import Pairs, equivalent
from ._set import BestSet

COST_TOLERANCE = 0.02  # costs within 2% of the lowest count as equal
COST_NAMES = {"tokens": "tokens indexed", "chunks": "chunks indexed"}  # a sweep's costs (`Probe(cost=)`)


@dataclass(frozen=True)
class Choice:
    """`equal`: the best and the settings shown equivalent to it within the margin, best first (empty without a
    margin); `cheapest`: the cheapest of the confidence set; `choice`: the setting the verdict names."""

    equal: list[int]
    cheapest: int
    choice: int


def choose(pairs: Pairs, found: BestSet, costs: list[float], margin: float | None) -> Choice:
    """The equivalence test against the best, then the choice (see `Choice` and the module docstring)."""
    order = found.order
    best = order[0]
    equal = [] if margin is None else [best, *equivalent(pairs, best, order[1:], margin)]
    cheapest = cheapest_of(found.kept, costs, order)
    choice = cheapest_of(equal, costs, order) if len(equal) > 1 else best if len(found.kept) == 1 else cheapest
    return Choice(equal, cheapest, choice)


def cheapest_of(columns: list[int], costs: list[float], order: list[int]) -> int:
    """The first of `columns` in `order` (best mean first) whose cost is within `COST_TOLERANCE` of their lowest."""
    lowest = min(costs[column] for column in columns)
    near = [column for column in columns if costs[column] <= lowest * (1 + COST_TOLERANCE)]
    return min(near, key=order.index)
