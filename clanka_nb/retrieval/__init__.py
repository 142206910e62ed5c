"""Retrieval probe: score a chunk setting by how often search finds the code a doc comment describes.

`__all__` holds what users call (the probe, its queries, the BM25 searcher and the warnings to filter);
what the sweep, the tuning panel and Dask build on is in `clanka_nb.retrieval.internals`.
"""

from ..decision import FlatRecallWarning, Verdict, verdict
from .queries import HistoryCacheWarning, dropped_queries, history_queries, probe_queries, unit_test_queries
from .scoring import EmbeddingTimeWarning, NoProbeQueriesWarning, Probe, SampledProbeWarning, probe, probe_summary
from .search import BM25Searcher, Searcher

__all__ = [
    "BM25Searcher",
    "EmbeddingTimeWarning",
    "FlatRecallWarning",
    "HistoryCacheWarning",
    "NoProbeQueriesWarning",
    "Probe",
    "SampledProbeWarning",
    "Searcher",
    "Verdict",
    "dropped_queries",
    "history_queries",
    "probe",
    "probe_queries",
    "probe_summary",
    "unit_test_queries",
    "verdict",
]
