"""Retrieval probe: score a chunk setting by how often search finds the code a doc comment describes."""

from ._probe import NoProbeQueriesWarning, ProbeSet, prepare_probe, probe, probe_columns, probe_frame, probe_summary
from ._queries import dropped_queries, probe_queries
from ._search import BM25Searcher, Embed, EmbeddingSearcher, Searcher, resolve_searcher, searcher_for
from ._search_words import code_tokens

__all__ = [
    "BM25Searcher",
    "Embed",
    "EmbeddingSearcher",
    "NoProbeQueriesWarning",
    "ProbeSet",
    "Searcher",
    "code_tokens",
    "dropped_queries",
    "prepare_probe",
    "probe",
    "probe_columns",
    "probe_frame",
    "probe_queries",
    "probe_summary",
    "resolve_searcher",
    "searcher_for",
]
