"""The probe's columns for each row of a sweep, with their intervals and the verdict over all rows."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pandas as pd

from .. import engine
from ..engine.warn import warn_at_user
from ._probe import ProbeSet, check_k, probe_outcome, probe_summary
from ._search import Searcher
from ._targets import breakdown
from ._verdict import Bootstrap, FlatRecallWarning, Outcome, decide, expected, flat_recall, row_intervals


def scored_row(
    probe_set: ProbeSet, settings: engine.ChunkSettings, searcher: Searcher, cutoffs: tuple[int, ...],
    bootstrap: Bootstrap, *, stream: int = 0,
) -> tuple[dict[str, Any], Outcome, int]:
    """One setting's probe columns with their intervals, its per-query outcome and how many chunks were indexed.

    Columns: queries; recall@<k>, recall@<k>_low, recall@<k>_high for each cut-off; mrr, mrr_low, mrr_high;
    precision. On a sample, recall and mrr are the estimates for the whole codebase.
    """
    frame, outcome = probe_outcome(probe_set, settings, searcher, cutoffs)
    summary = probe_summary(frame)
    plain = {name: summary[name].iloc[0] for name in summary.columns}
    plain = {name: None if pd.isna(value) else value.item() if hasattr(value, "item") else value
             for name, value in plain.items()}  # fmt: skip
    metrics = [*(f"recall@{cutoff}" for cutoff in cutoffs), "mrr"]
    scored = row_intervals(outcome, metrics, bootstrap, stream=stream)
    row: dict[str, Any] = {"queries": plain["queries"]}
    for metric in metrics:
        row.update({name: scored[name] for name in (metric, f"{metric}_low", f"{metric}_high")})
    row["precision"] = plain["precision"]
    return row, outcome, int(frame.attrs["chunks"])


class ProbeScorer:
    """The probe's columns for each row of a sweep: queries extracted once, one searcher re-indexed per setting;
    each row's 95% intervals, and at the end the verdict over all rows (`_verdict`)."""

    integer_columns = frozenset({"queries"})

    def __init__(
        self, codebase: engine.Codebase, searcher: Searcher, k: int | Iterable[int], embedded: bool,
        queries: pd.DataFrame | None = None, sample: float | None = None,
    ) -> None:
        self.probe_set = ProbeSet(codebase, queries, sample=sample)
        self.searcher, self.cutoffs, self.embedded = searcher, check_k(k), embedded
        self.bootstrap = Bootstrap(len(self.probe_set.queries), groups=self.probe_set.groups)
        self.outcomes: list[Outcome] = []
        self.rows: list[dict[str, Any]] = []
        self.settings: list[dict[str, Any]] = []
        self.chunks: list[int] = []
        self.by_source: list[dict[str, Any]] = []
        self.by_kind: list[dict[str, Any]] = []
        self.ahead: dict[str, Any] = {}  # what embedding the inputs ahead of the rows did (`_ahead.embed_ahead`)

    def columns(self, settings: engine.ChunkSettings) -> dict[str, Any]:
        row, outcome, chunks = scored_row(self.probe_set, settings, self.searcher, self.cutoffs, self.bootstrap,
                                          stream=len(self.outcomes))  # fmt: skip
        self.outcomes.append(outcome)
        self.rows.append(row)
        self.settings.append(settings.columns())
        self.chunks.append(chunks)
        metrics = {metric: expected(outcome, metric) for metric in (*(f"recall@{k}" for k in self.cutoffs), "mrr")}
        self.by_source += breakdown(metrics, self.probe_set.sources, "source", len(self.rows) - 1, self.settings[-1])
        self.by_kind += breakdown(metrics, self.probe_set.kinds, "target_kind", len(self.rows) - 1, self.settings[-1])
        return row

    def attrs(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "probe_reason": self.probe_set.reason,  # why there are no queries (None when some)
            "query_sources": self.probe_set.query_sources,  # source -> queries it gave
            "probe_note": self.probe_set.note,
        }
        if self.embedded:
            out.update(embedded=self.searcher.embedded, indexed=self.searcher.indexed)  # type: ignore[attr-defined]
            out.update(self.ahead)
        out["sample"] = self.probe_set.sample
        out.update(dropped=self.probe_set.dropped, by_source=self.by_source, by_kind=self.by_kind)
        verdict = decide(self.outcomes, self.settings, self.chunks, groups=self.probe_set.groups) \
            if self.outcomes else None  # fmt: skip
        out["verdict"] = None if verdict is None else verdict.as_dict()
        flat = flat_recall(self.rows, self.cutoffs)
        if flat is not None:
            warn_at_user(flat, FlatRecallWarning)
        return out
