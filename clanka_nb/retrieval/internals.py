"""The probe's own helpers that the floors above build on (the sweep's columns, the tuning panel, Dask's sweep).

Not the user's API (that is `clanka_nb.retrieval`'s `__all__`): one place that says which parts of the
probe's `_` modules other packages may use, so none of them imports those modules directly.
"""

from ._ahead import check_time_budget, embed_ahead
from ._probe import DEFAULT_K, ProbeSet, check_sample, probe_frame
from ._queries import check_queries
from ._scorer import ProbeScorer, scored_row
from ._search import resolve_searcher, searcher_for
from ._targets import query_groups
from ._verdict import Bootstrap, Outcome, compared, decide, row_intervals

__all__ = [
    "DEFAULT_K",
    "Bootstrap",
    "Outcome",
    "ProbeScorer",
    "ProbeSet",
    "check_queries",
    "check_sample",
    "check_time_budget",
    "compared",
    "decide",
    "embed_ahead",
    "probe_frame",
    "query_groups",
    "resolve_searcher",
    "row_intervals",
    "scored_row",
    "searcher_for",
]
