"""Retrieval probe: score a chunk setting by how often search finds the code a doc comment describes."""

from ._history import history_queries
from ._probe import (
    NoProbeQueriesWarning,
    ProbeSet,
    check_sample,
    prepare_probe,
    probe,
    probe_columns,
    probe_frame,
    probe_summary,
)
from ._queries import check_queries, dropped_queries, probe_queries
from ._scorer import ProbeScorer
from ._search import BM25Searcher, Embed, EmbeddingSearcher, Searcher, resolve_searcher, searcher_for
from ._search_words import code_tokens
from ._test_names import unit_test_queries
from ._verdict import FlatRecallWarning

__all__ = [
    "BM25Searcher",
    "Embed",
    "EmbeddingSearcher",
    "FlatRecallWarning",
    "NoProbeQueriesWarning",
    "ProbeScorer",
    "ProbeSet",
    "Searcher",
    "check_queries",
    "check_sample",
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
    "searcher_for",
    "unit_test_queries",
]
