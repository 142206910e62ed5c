"""Retrieval probe: score a chunk setting by how often search finds the code a doc comment describes.

`__all__` holds what users call (the probe, its queries, the BM25 searcher and the warnings to filter);
what the sweep, the tuning panel and Dask build on is in `clanka_nb.retrieval.internals`.
"""

from ._ahead import EmbeddingTimeWarning, SampledProbeWarning
from ._decision import verdict
from ._history import history_queries
from ._options import Probe
from ._probe import NoProbeQueriesWarning, probe, probe_summary
from ._queries import dropped_queries, probe_queries
from ._search import BM25Searcher, Searcher
from ._test_names import unit_test_queries
from ._verdict import FlatRecallWarning

__all__ = [
    "BM25Searcher",
    "EmbeddingTimeWarning",
    "FlatRecallWarning",
    "NoProbeQueriesWarning",
    "Probe",
    "SampledProbeWarning",
    "Searcher",
    "dropped_queries",
    "history_queries",
    "probe",
    "probe_queries",
    "probe_summary",
    "unit_test_queries",
    "verdict",
]
