"""The probe itself: its options (`Probe`), the per-query metrics of one setting, what chunks cost,
the rows and intervals of a sweep, a sample confirmed on the whole codebase, and embedding ahead.

What the other parts of the probe use is named here; the rest stays in its `_` module.
"""

from ._ahead import Ahead, EmbeddingTimeWarning, SampledProbeWarning, embed_ahead
from ._options import Probe, as_probe
from ._probe import NoProbeQueriesWarning, ProbeSet, heads_frame, probe, probe_frame, probe_summary
from ._scorer import ProbeScorer, frame_outcome, heads_scored, index_cost, outcome_row, scored_row, searcher_named

__all__ = [
    "Ahead",
    "EmbeddingTimeWarning",
    "NoProbeQueriesWarning",
    "Probe",
    "ProbeScorer",
    "ProbeSet",
    "SampledProbeWarning",
    "as_probe",
    "embed_ahead",
    "frame_outcome",
    "heads_frame",
    "heads_scored",
    "index_cost",
    "outcome_row",
    "probe",
    "probe_frame",
    "probe_summary",
    "scored_row",
    "searcher_named",
]
