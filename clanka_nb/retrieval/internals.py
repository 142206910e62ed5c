"""The probe's own helpers that the floors above build on (the sweep's columns, the tuning panel, Dask's sweep).

Not the user's API (that is `clanka_nb.retrieval`'s `__all__`): one place that says which parts of the
probe's `_` modules other packages may use, so none of them imports those modules directly.
"""

from ..decision import COST_NAMES, Bootstrap, Outcome, compared, decide
from .queries import HistoryCache, check_queries, history_cache_path, query_groups
from .scoring import (
    Ahead,
    ProbeScorer,
    ProbeSet,
    as_probe,
    embed_ahead,
    frame_outcome,
    heads_frame,
    heads_scored,
    index_cost,
    outcome_row,
    probe_frame,
    scored_row,
    searcher_named,
)

__all__ = [
    "COST_NAMES",
    "Ahead",
    "Bootstrap",
    "HistoryCache",
    "Outcome",
    "ProbeScorer",
    "ProbeSet",
    "as_probe",
    "check_queries",
    "compared",
    "decide",
    "embed_ahead",
    "frame_outcome",
    "heads_frame",
    "heads_scored",
    "history_cache_path",
    "index_cost",
    "outcome_row",
    "probe_frame",
    "query_groups",
    "scored_row",
    "searcher_named",
]
