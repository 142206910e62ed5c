"""The verdict of a sweep: which setting to use, said so it can be defended. It imports nothing else of the
probe: any table of per-query scores can be judged (`verdict`), the probe's outcomes too (`decide`).

What the other parts of the probe use is named here; the rest stays in its `_` module.
"""

from ._decision import CONFIDENCE, MARGIN, SEED, verdict
from ._result import Edge, Holdout, PairDifference, Verdict, WorseBy
from ._verdict import (
    Bootstrap,
    FlatRecallWarning,
    Outcome,
    compared,
    decide,
    expected,
    flat_recall,
    row_intervals,
)

__all__ = [
    "CONFIDENCE",
    "MARGIN",
    "SEED",
    "Bootstrap",
    "Edge",
    "FlatRecallWarning",
    "Holdout",
    "Outcome",
    "PairDifference",
    "Verdict",
    "WorseBy",
    "compared",
    "decide",
    "expected",
    "flat_recall",
    "row_intervals",
    "verdict",
]
