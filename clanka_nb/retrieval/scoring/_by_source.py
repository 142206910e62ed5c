"""The verdict of each query source beside the pooled one.

The sources draw their targets differently: a doc comment's and a test name's target is a declaration that
clanka's own parser drew (extended mode's tree-sitter walker), so a chunker that cuts at those declarations
is favoured by construction; a commit message's target is the lines the commit changed, which no parser drew.
Issue 52 measured a pooled lead (+0.054) that the doc comments carried (+0.072) while the commit messages
tied (+0.014 [-0.039, +0.067]). So each source is judged alone, by the same public function
(`clanka_nb.retrieval.verdict`) on that source's queries, and the pooled message says where a source decides
otherwise. The pooled verdict itself is unchanged.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from statistics import StatisticsError
from typing import Any

import numpy as np
import pandas as pd

from ...decision import Verdict, verdict  # the public verdict (`clanka_nb.retrieval.verdict`), by its package

# Who drew each source's targets, for the attrs and the message.
TARGETS_DRAWN_BY = {
    "doc_comments": "declarations drawn by clanka's own parser",
    "test_names": "declarations drawn by clanka's own parser",
    "history": "the lines each commit changed (no parser)",
}
_LABELS = {"doc_comments": "doc comments", "test_names": "test names", "history": "commit messages"}
# Fewer queries than this are not judged alone: the verdict itself calls fewer than 30 queries rough, and a source
# that small says nothing the pooled verdict does not (its own verdict is kept out of the table and the message).
MIN_ALONE = 30


@dataclass(frozen=True)
class SourceVerdict:
    """One source's verdict beside the pooled one.

    Attributes:
        source: The source's name ("doc_comments", "test_names", "history", or a given frame's label).
        queries: Its queries.
        targets: Who drew its targets, in words.
        decision: Its verdict's decision (None without queries).
        choice: The row its decision names.
        separable: Whether it shows any setting worse.
        worse: The rows it shows worse.
        agreement: "agrees" (it chooses the pooled choice, and separates the settings where the pooled verdict
            does), "contradicts" (it shows the pooled choice worse), "differs" (it chooses another row, or ties
            what the pooled verdict separates, without showing the pooled choice worse), "too_few" (under
            `MIN_ALONE` queries: not judged alone) or "not_judged" (the verdict failed on its queries alone; the
            message says how).
        message: Its verdict's message.
    """

    source: str
    queries: int
    targets: str
    decision: str | None
    choice: Any
    separable: bool
    worse: list[Any]
    agreement: str
    message: str

    def clause(self) -> str:
        """This source in the pooled message: what it decides and who drew its targets."""
        label = _LABELS.get(self.source, self.source)
        said = "show the choice worse" if self.agreement == "contradicts" else "decide otherwise"
        return f"{label} alone ({self.queries:,} queries; targets: {self.targets}) {said}: {self.decision}"


def _agreement(pooled: Verdict, alone: Verdict) -> str:
    if pooled.choice in alone.worse:
        return "contradicts"
    if alone.choice == pooled.choice and (alone.separable or not pooled.separable):
        return "agrees"  # the same choice, as sure or surer
    return "differs"


def source_verdicts(
    pooled: Verdict, scores: pd.DataFrame, sources: pd.Series, groups: np.ndarray | None,
    settings: Mapping[int, dict[str, Any]], cost: Mapping[int, float], when: np.ndarray | None,
) -> list[SourceVerdict]:
    """Each source's verdict on its own queries, by the public `verdict` at the pooled verdict's margin,
    confidence and metric; none when the queries come from one source only (the pooled verdict is its own).

    Args:
        pooled: The verdict over every query.
        scores: Per query (rows, in the probe's order) and sweep row (columns, the rows the pooled verdict ranks):
            the pooled verdict's scores.
        sources: Each query's source.
        groups: Each query's cluster (None: each query its own).
        settings: Each ranked sweep row's settings, for the wording.
        cost: Each ranked sweep row's cost (ties go to the cheapest, as in the pooled verdict).
        when: Each query's commit time (NaN: not from a commit); None: none.

    Returns:
        One `SourceVerdict` per source with queries, in the order the sources first appear.
    """
    names = [str(name) for name in pd.unique(sources.astype(str))]
    if len(names) < 2 or not len(scores.columns):
        return []
    out = []
    named: dict[Hashable, Mapping[str, Any]] = dict(settings.items())
    costs: dict[Hashable, float] = dict(cost.items())
    for name in names:
        keep = (sources.astype(str) == name).to_numpy()
        if keep.sum() < MIN_ALONE:
            out.append(SourceVerdict(name, int(keep.sum()), TARGETS_DRAWN_BY.get(name, "as given"), None, None, False,
                                     [], "too_few", f"only {int(keep.sum())} queries (fewer than {MIN_ALONE}): "
                                     "not judged alone"))  # fmt: skip
            continue
        try:
            alone = verdict(
                scores.loc[keep].reset_index(drop=True), None if groups is None else np.asarray(groups)[keep],
                settings=named, cost=costs, confidence=pooled.confidence,
                margin=pooled.margin, when=None if when is None else np.asarray(when)[keep], metric_name=pooled.metric,
            )  # fmt: skip
        except StatisticsError as failed:  # the few-cluster widening's t quantile at a tail of 0 (a known defect)
            out.append(SourceVerdict(name, int(keep.sum()), TARGETS_DRAWN_BY.get(name, "as given"), None, None, False,
                                     [], "not_judged", f"not judged alone: the verdict failed on these queries "
                                     f"({failed})"))  # fmt: skip
            continue
        out.append(SourceVerdict(name, int(keep.sum()), TARGETS_DRAWN_BY.get(name, "as given"), alone.decision,
                                 alone.choice, bool(alone.separable), list(alone.worse), _agreement(pooled, alone),
                                 alone.message))  # fmt: skip
    return out


def with_sources(pooled: Verdict, by_source: list[SourceVerdict]) -> Verdict:
    """The pooled verdict with a clause for each source that decides otherwise (after the decision, which
    stays first)."""
    others = [found.clause() for found in by_source if found.agreement in ("differs", "contradicts")]
    if not others:
        return pooled
    return dataclasses.replace(pooled, message=f"{pooled.message}; by source: {'; '.join(others)}")


def as_records(by_source: list[SourceVerdict]) -> list[dict[str, Any]]:
    """Plain values for the table's attrs (the table still saves to Parquet)."""
    return [dataclasses.asdict(found) for found in by_source]
