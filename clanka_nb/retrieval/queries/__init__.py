"""The probe's queries: doc comments, test names and commit messages, each with the code it describes
(its target), the clusters queries share and where each came from.

What the other parts of the probe use is named here; the rest stays in its `_` module.
"""

from ._history import TARGETS, history_queries
from ._history_cache import HistoryCache, HistoryCacheWarning, history_cache_path
from ._queries import Masks, check_queries, dropped_queries, probe_queries, target_arrays
from ._sources import all_masks, default_queries
from ._targets import breakdown, query_groups, target_kinds
from ._test_names import unit_test_queries

__all__ = [
    "TARGETS",
    "HistoryCache",
    "HistoryCacheWarning",
    "Masks",
    "all_masks",
    "breakdown",
    "check_queries",
    "default_queries",
    "dropped_queries",
    "history_cache_path",
    "history_queries",
    "probe_queries",
    "query_groups",
    "target_arrays",
    "target_kinds",
    "unit_test_queries",
]
