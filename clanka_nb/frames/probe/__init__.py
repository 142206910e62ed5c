"""Retrieval probe: score a chunk setting by how often search finds the code a doc comment describes."""

from ._history import history_queries
from ._probe import NoProbeQueriesWarning, ProbeSet, prepare_probe, probe, probe_columns, probe_frame, probe_summary
from ._queries import check_queries, dropped_queries, probe_queries
from ._search import BM25Searcher, EmbeddingSearcher, Searcher, resolve_searcher
from ._sweep import sweep
from ._test_names import unit_test_queries
from ._tokens import code_tokens
from ._verdict import FlatRecallWarning

__all__ = [
    "BM25Searcher",
    "EmbeddingSearcher",
    "FlatRecallWarning",
    "NoProbeQueriesWarning",
    "ProbeSet",
    "Searcher",
    "check_queries",
    "code_tokens",
    "dropped_queries",
    "history_queries",
    "prepare_probe",
    "probe",
    "probe_columns",
    "probe_frame",
    "probe_queries",
    "probe_summary",
    "resolve_searcher",
    "sweep",
    "unit_test_queries",
]
