"""Retrieval probe: score a chunk setting by how often search finds the code a doc comment describes."""

from ._ahead import EmbeddingTimeWarning, SampledProbeWarning, check_time_budget, embed_ahead
from ._history import history_queries
from ._probe import (
    DEFAULT_K,
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
from ._scorer import ProbeScorer, scored_row
from ._search import BM25Searcher, Embed, EmbeddingSearcher, Searcher, resolve_searcher, searcher_for
from ._search_words import code_tokens
from ._test_names import unit_test_queries
from ._verdict import Bootstrap, FlatRecallWarning, Outcome, compared, decide, row_intervals

__all__ = [
    "DEFAULT_K",
    "BM25Searcher",
    "Bootstrap",
    "Embed",
    "EmbeddingSearcher",
    "EmbeddingTimeWarning",
    "FlatRecallWarning",
    "NoProbeQueriesWarning",
    "Outcome",
    "ProbeScorer",
    "ProbeSet",
    "SampledProbeWarning",
    "Searcher",
    "check_queries",
    "check_sample",
    "check_time_budget",
    "code_tokens",
    "compared",
    "decide",
    "dropped_queries",
    "embed_ahead",
    "history_queries",
    "prepare_probe",
    "probe",
    "probe_columns",
    "probe_frame",
    "probe_queries",
    "probe_summary",
    "resolve_searcher",
    "row_intervals",
    "scored_row",
    "searcher_for",
    "unit_test_queries",
]
