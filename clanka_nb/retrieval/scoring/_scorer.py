"""The probe's columns for each row of a sweep, with their intervals and the verdict over all rows."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from ... import engine
from ...decision import (
    COST_NAMES,
    Bootstrap,
    FlatRecallWarning,
    Outcome,
    Verdict,
    decide,
    expected,
    flat_recall,
    row_intervals,
)
from ...engine.internals import ChunkHead
from ...engine.progress import ProgressBar
from ...engine.token_counts import TokenCounter
from ...engine.warn import warn_at_user
from ...frames.cycles import paused_cycle_collection
from ...metrics import Metric, is_metric_column, probe_metrics, ranked_metrics
from ..queries import breakdown
from ._ahead import Cut
from ._by_source import SourceVerdict, as_records, source_verdicts, with_sources
from ._confirm import Confirmation, Rescore, confirm, confirmed_verdict, to_confirm, unconfirmed_verdict
from ._model import MODEL_KEY, SEARCHER_COLUMN, ModelConfirmation, ModelStep, model_confirmed
from ._options import Probe
from ._probe import ProbeSet, chunks_outcome, probe_outcome
from ._unranked import left_out, ranked_verdict


def interval_metrics(probe: Probe) -> list[Metric]:
    """The metrics that get a 95% interval, in column order: recall@k, mrr, then the budgeted ones."""
    return ranked_metrics(probe.cutoffs, probe.budgets)


def outcome_row(outcome: Outcome, probe: Probe, bootstrap: Bootstrap, *, stream: int = 0) -> dict[str, Any]:
    """One setting's probe columns from its per-query arrays (each computed once, in `_metrics`): queries;
    recall@<k> (with _low and _high) per cut-off; mrr (with its interval); precision; tokens@<k> and lines@<k>
    per cut-off; budget_found@<B> and budget_covered@<B> (with intervals) per budget. On a sample, recall, mrr
    and the budgeted ones are the estimates for the whole codebase."""
    queries = len(outcome.rank)
    scored = row_intervals(outcome, interval_metrics(probe), bootstrap, stream=stream)
    row: dict[str, Any] = {"queries": queries}
    for metric in probe_metrics(probe.cutoffs, probe.budgets):  # the registry's column order
        if metric.ranked:
            row.update({name: scored[name] for name in (metric.name, *metric.interval)})
        else:
            row[metric.name] = float(np.mean(metric.values(outcome.values))) if queries else None
    return row


def scored_row(
    probe_set: ProbeSet, settings: engine.ChunkSettings, probe: Probe, bootstrap: Bootstrap, *, stream: int = 0,
) -> tuple[dict[str, Any], Outcome, float]:
    """One setting's probe columns with their intervals (`outcome_row`), its per-query outcome, and what its index
    costs (`index_cost`: the verdict's cost in a tie)."""
    return _scored(*probe_outcome(probe_set, settings, probe), probe, bootstrap, stream)


def heads_scored(
    probe_set: ProbeSet, heads: Sequence[Sequence[ChunkHead]], probe: Probe, bootstrap: Bootstrap,
    label_settings: dict[str, Any], *, stream: int = 0,
) -> tuple[dict[str, Any], Outcome, float]:
    """`scored_row` of chunks cut by a whole chunker (one list of heads per file of the codebase, in order):
    the probe columns, the per-query outcome and the tokens indexed; `label_settings` says what cut them."""
    with paused_cycle_collection():
        chunks = probe_set.chunks_of(heads)
    outcome = chunks_outcome(probe_set, chunks, probe, {"chunker": label_settings})
    return _scored(*outcome, probe, bootstrap, stream)


def _scored(frame: pd.DataFrame, outcome: Outcome, probe: Probe, bootstrap: Bootstrap,
            stream: int) -> tuple[dict[str, Any], Outcome, float]:  # fmt: skip
    return outcome_row(outcome, probe, bootstrap, stream=stream), outcome, index_cost(frame, probe)


def index_cost(frame: pd.DataFrame, probe: Probe) -> float:
    """What a probe frame's index costs by `probe.cost`: the tokens or the chunks indexed (on a sample, the
    estimate for the whole codebase)."""
    return float(frame.attrs["index_tokens" if probe.cost == "tokens" else "index_chunks"])


class ProbeScorer:
    """The probe's columns for each row of a sweep: queries extracted once, one searcher re-indexed per setting;
    each row's 95% intervals, and at the end the verdict over all rows (`_verdict`). On a sample, `confirm()`
    scores every row again on the whole codebase when the sample's verdict separates them (`_confirm`), and the
    verdict is then the whole codebase's.
    """

    integer_columns = frozenset({"queries"})
    string_columns = frozenset({"scored_on", SEARCHER_COLUMN})

    def __init__(self, codebase: engine.Codebase, probe: Probe, counter: TokenCounter | None = None) -> None:
        self.probe = probe
        self.probe_set = ProbeSet.of(codebase, probe, counter)
        self.bootstrap = Bootstrap(len(self.probe_set.queries), groups=self.probe_set.groups)
        self.outcomes: list[Outcome] = []
        self.rows: list[dict[str, Any]] = []
        self.settings: list[dict[str, Any]] = []
        self.costs: list[float] = []
        self.by_source: list[dict[str, Any]] = []
        self.by_kind: list[dict[str, Any]] = []
        # Per row: what cut it, to score it again on another probe set (the whole codebase, to confirm a sampled
        # verdict) or with another searcher (the model that confirms BM25's screen).
        self.cuts: list[Cut] = []
        self._verdict: Verdict | None = None
        self.source_verdicts: list[SourceVerdict] = []  # each query source's verdict beside the pooled one
        self.unranked: dict[int, str] = {}  # row -> why the verdict leaves it out (`columns_of`)
        self._confirmation: Confirmation | None = None
        self.model: ModelConfirmation | None = None  # what the model's confirmation did (`Probe(confirm=)`)
        # A Probe may serve several sweeps: this one's counts of embedded and indexed inputs start here.
        searcher = probe.engine
        self._counted = (getattr(searcher, "embedded", 0), getattr(searcher, "indexed", 0)) if probe.embedded \
            else (0, 0)  # fmt: skip

    def columns(self, settings: engine.ChunkSettings, named: dict[str, Any] | None = None) -> dict[str, Any]:
        """One setting's probe columns; `named` is how the verdict names the row (default: its settings)."""
        return self._kept(settings, settings.columns() if named is None else named)

    def columns_of(self, heads: Sequence[Sequence[ChunkHead]], label_settings: dict[str, Any],
                   unranked: str | None = None) -> dict[str, Any]:  # fmt: skip
        """The probe columns of chunks cut by a whole chunker (`ProbeSet.chunks_of`: one list of heads per file of
        the codebase, in order), scored as a setting's are; `label_settings` names the row in the verdict;
        `unranked`, why the row is left out of the verdict (a chunker that cut nothing of a language the queries'
        targets are in: "astchunk: no Go grammar, clanka's cut there"), None to rank it."""
        if unranked is not None:
            self.unranked[len(self.outcomes)] = unranked
        return self._kept(heads, dict(label_settings))

    def _rescored(self, row: int, probe: Probe, probe_set: ProbeSet) -> tuple[dict[str, Any], Outcome, float]:
        """Row `row` scored by `probe`'s searcher on `probe_set` (its cut: a setting, or a whole chunker's heads)."""
        cut = self.cuts[row]
        if isinstance(cut, engine.ChunkSettings):
            return scored_row(probe_set, cut, probe, self.bootstrap, stream=row)
        return heads_scored(probe_set, cut, probe, self.bootstrap, self.settings[row], stream=row)

    def _rescore(self, row: int, probe: Probe) -> Rescore:
        return partial(self._rescored, row, probe)

    def _kept(self, cut: Cut, named: dict[str, Any]) -> dict[str, Any]:
        """Score a new row (what cut it, how the verdict names it), keep its outcome for the verdict and the
        breakdowns and its cut to score it again (`_rescored`), and give its columns."""
        self.cuts.append(cut)
        self.settings.append(named)
        row, outcome, cost = self._rescored(len(self.outcomes), self.probe, self.probe_set)
        self.outcomes.append(outcome)
        self.rows.append(row)
        self.costs.append(cost)
        self._breakdowns(outcome, len(self.rows) - 1)
        if self.probe_set.sample is not None:
            row["scored_on"] = "sample"  # estimates for the whole codebase until `confirm` scores it there
        if self.probe.confirmer is not None:
            row[SEARCHER_COLUMN] = self.probe.searcher_name  # the screen's, until the model re-scores the row
        return row

    def _breakdowns(self, outcome: Outcome, row: int) -> None:
        """By source and by target kind, the same per-query arrays as the row's (on a sample, its estimates)."""
        metrics = {metric.name: expected(outcome, metric) for metric in interval_metrics(self.probe)}
        self.by_source += breakdown(metrics, self.probe_set.sources, "source", row, self.settings[row])
        self.by_kind += breakdown(metrics, self.probe_set.kinds, "target_kind", row, self.settings[row])

    def confirm(self, reference: int | None = None, progress: ProgressBar = None) -> dict[int, dict[str, Any]]:
        """Decide the verdict (once); on a sample whose verdict separates the settings, the rows scored again on
        the whole codebase (row position -> their probe columns, `scored_on` = "full": the sweep's rows take
        them); with `Probe(confirm=)`, the rows the model re-scored (`searcher` names it); else nothing.
        `reference` is clanka's row (the model re-scores it), `progress` the embedding's bar."""
        if self._verdict is not None or not self.outcomes:
            return {} if self._confirmation is None else self._confirmation.rows
        rows = self._decide(reference, progress)
        if self._verdict is not None:
            self._verdict = left_out(self._judged_by_source(self._verdict), self.unranked)
        return rows

    def ranked(self) -> list[int]:
        """The rows the verdict ranks: every row but those `columns_of` was told to leave out."""
        return [row for row in range(len(self.outcomes)) if row not in self.unranked]

    def _scores(self, outcomes: Sequence[Outcome]) -> pd.DataFrame:
        """Per query and row, the verdict's metric."""
        metric = self.probe.verdict_metric
        return pd.DataFrame({row: expected(outcome, metric) for row, outcome in enumerate(outcomes)})

    def _judged_by_source(self, pooled: Verdict) -> Verdict:
        """Each query source's verdict on the scores the pooled verdict used (`_by_source`), and a clause in the
        pooled message for each that decides otherwise."""
        outcomes, costs = list(self.outcomes), list(self.costs)
        ranked = self.ranked()
        if self._confirmation is not None:
            for row, outcome in self._confirmation.outcomes.items():
                outcomes[row], costs[row] = outcome, self._confirmation.costs[row]
            if self.model is not None and self.model.rows:  # the model's verdict: its rows alone, never beside BM25's
                ranked = [row for row in ranked if row in self._confirmation.outcomes]
        scores = self._scores(outcomes)[ranked]
        self.source_verdicts = source_verdicts(pooled, scores, self.probe_set.sources, self.probe_set.groups,
                                               {row: self.settings[row] for row in ranked},
                                               {row: costs[row] for row in ranked}, self.probe_set.times)
        return with_sources(pooled, self.source_verdicts)

    def _decide(self, reference: int | None, progress: ProgressBar) -> dict[int, dict[str, Any]]:
        """The pooled verdict (`_verdict`), confirmed on the whole codebase when a sample separates the rows, or by
        the model (`Probe(confirm=)`) on the rows the screen leaves open."""
        if self.unranked:
            decided = ranked_verdict(self._scores(self.outcomes), self.ranked(), self.settings, self.costs,
                                     probe=self.probe, groups=self.probe_set.groups, when=self.probe_set.times,
                                     share=self.probe_set.sample)  # fmt: skip
        else:
            decided = decide(self.outcomes, self.settings, self.costs, metric=self.probe.verdict_metric,
                             groups=self.probe_set.groups, margin=self.probe.margin, when=self.probe_set.times,
                             cost_name=COST_NAMES[self.probe.cost])  # fmt: skip
        share = self.probe_set.sample
        if share is None and self.probe.confirmer is not None:
            step = ModelStep(self.settings, self.cuts, self.ranked(), reference, self._rescore)
            done, self._verdict, self.model = model_confirmed(decided, step, self.probe_set, self.probe, progress)
            for values in done.rows.values():
                values[SEARCHER_COLUMN] = self.model.model
            return self._take(done)
        if share is None:
            self._verdict = decided
            return {}
        rows = [decided.columns[position] for position in to_confirm(decided)]  # the verdict's columns are rows
        if not rows:  # the sample cannot separate (or has no queries): it names no best, nothing to confirm
            self._verdict = unconfirmed_verdict(decided)
            return {}
        done = confirm(rows, [self._rescore(row, self.probe) for row in range(len(self.cuts))], self.probe_set.whole(),
                       self.probe.engine)  # fmt: skip
        for values in done.rows.values():
            values["scored_on"] = "full"
        self._take(done)
        self._verdict = confirmed_verdict(decided, done, self.settings, metric=self.probe.verdict_metric,
                                          groups=self.probe_set.groups, share=share, margin=self.probe.margin,
                                          when=self.probe_set.times, cost_name=COST_NAMES[self.probe.cost])  # fmt: skip
        return done.rows

    def _take(self, done: Confirmation) -> dict[int, dict[str, Any]]:
        """The rows scored again take their new columns, outcomes and breakdowns (kept as `_confirmation`)."""
        for row, values in done.rows.items():
            self.rows[row] = values
        # The confirmed rows' breakdowns are the whole codebase's too.
        self.by_source = [record for record in self.by_source if record["row"] not in done.rows]
        self.by_kind = [record for record in self.by_kind if record["row"] not in done.rows]
        for row, outcome in done.outcomes.items():
            self._breakdowns(outcome, row)
        self.by_source.sort(key=lambda record: record["row"])
        self.by_kind.sort(key=lambda record: record["row"])
        self._confirmation = done
        return done.rows

    def attrs(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "probe_reason": self.probe_set.reason,  # why there are no queries (None when some)
            "query_sources": self.probe_set.query_sources,  # source -> queries it gave
            "probe_note": self.probe_set.note,
            "budget": list(self.probe.budgets),  # priced by the sweep's attrs["token_counter"], as its token columns
        }
        if self.probe.embedded:
            searcher = self.probe.engine
            out.update(embedded=searcher.embedded - self._counted[0],  # type: ignore[attr-defined]  # embedded: the engine is an IndexSearcher
                       indexed=searcher.indexed - self._counted[1])  # type: ignore[attr-defined]  # the same IndexSearcher
        out["sample"] = self.probe_set.sample
        self.confirm()  # before the breakdowns: confirmed rows replace theirs
        if self.model is not None:  # what the model re-scored, what it embedded and how long it took
            out[MODEL_KEY] = self.model.as_dict()
        elif self._confirmation is not None:
            # What confirming the sample's verdict on the whole codebase cost (the vector cache kept the rest).
            out.update(confirmed_rows=list(self._confirmation.rows), confirmation_embedded=self._confirmation.embedded,
                       confirmation_seconds=self._confirmation.seconds)  # fmt: skip
        out.update(dropped=self.probe_set.dropped, by_source=self.by_source, by_kind=self.by_kind)
        out["verdict"] = None if self._verdict is None else searcher_named(self._verdict, self.probe).as_dict()
        out["verdict_by_source"] = as_records(self.source_verdicts)
        out["unranked"] = {str(row): reason for row, reason in self.unranked.items()}  # row -> why not ranked
        flat = flat_recall(self.rows, self.probe.cutoffs)
        if flat is not None:
            warn_at_user(flat, FlatRecallWarning)
        return out


def searcher_named(verdict: Verdict, probe: Probe) -> Verdict:
    """The verdict with its message naming the searcher that scored it (issue 53 item 6: BM25 by default, while
    clanka searches by embeddings); every number stays the verdict's."""
    if not verdict.queries:
        return verdict
    return dataclasses.replace(verdict, message=f"{verdict.message}; {probe.searcher_clause}")


def frame_outcome(frame: pd.DataFrame, probe: Probe) -> Outcome:
    """The outcome of a probe frame (or of several roots' frames concatenated, as Dask's sweep pools them):
    its rank and per-query columns, recall and mrr following from the rank."""
    rank = frame["rank"].to_numpy(dtype=np.int64, na_value=0)
    values = {"rank": rank}
    values.update({name: frame[name].to_numpy(dtype=np.float64, na_value=0.0) for name in frame.columns
                   if is_metric_column(name)})
    values = {metric.name: metric.values(values) for metric in probe_metrics(probe.cutoffs, probe.budgets)
              if metric.name in values or metric.from_rank}
    return Outcome(rank, probe.cutoffs[-1], values=values)
