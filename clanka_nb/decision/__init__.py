"""The verdict of a sweep: which setting to use, said so it can be defended. A library on the ground floor: it
imports only the leaves (`metrics`, `defaults`, `keywords`), numpy and pandas, never the engine or tree-sitter, so
any table of per-query scores can be judged (`verdict`) without the chunker, the probe's outcomes too (`decide`).
`clanka_nb.retrieval.verdict` is its public door.

What the probe uses is named here; the rest stays in its `_` module.
"""

from ._choice import COST_NAMES
from ._decision import CONFIDENCE, MARGIN, SEED, verdict
from ._input import check_margin
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
    "COST_NAMES",
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
    "check_margin",
    "compared",
    "decide",
    "expected",
    "flat_recall",
    "row_intervals",
    "verdict",
]
