"""BM25 screens, the user's model confirms (`Probe(confirm=)`, issue 53 item 6).

clanka searches by embeddings; BM25 scores a whole grid in seconds, a model in an hour. Measured on Go, Rust and
Java libraries, the two agree on chunk size (each one's choice lies in the other's confidence set) and disagree on
overlap (BM25 calls overlap worse than the model does, by 0.03 with intervals clear of 0). So BM25 scores the whole
grid, and the model re-scores what BM25 leaves open or may misjudge:

- every setting of BM25's confidence set (BM25 cannot tell them apart: the model decides among them);
- clanka's reference row (the answer is about it);
- every setting with chunk_overlap > 0, and its overlap-0 twin (same size and character limit) where the grid has
  it, so that the overlap question is the model's on both sides.

The verdict is the model's over those rows alone (no comparison mixes two searchers' scores); the rows BM25
eliminated otherwise are never embedded. What the model embedded is counted through the keyed vector cache, and
the wait is estimated at a first call's rate before it starts (`embed_inputs`).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ...decision import CONFIDENCE, COST_NAMES, Verdict, expected, verdict
from ...engine.progress import ProgressBar
from ._ahead import Cut, embed_inputs
from ._confirm import Confirmation, Rescore, confirm, screened_answer, setting_text
from ._options import Probe
from ._probe import ProbeSet

MODEL_KEY = "model_confirmation"  # the sweep table's attrs key of what the model's confirmation did
SEARCHER_COLUMN = "searcher"  # the sweep table's column: which searcher scored each row

# Why a row is re-scored by the model, in the order the reasons are given.
OPEN, REFERENCE, OVERLAP, TWIN = ("in the screen's confidence set", "clanka's setting", "overlap > 0",
                                  "overlap-0 twin of an overlap setting")  # fmt: skip


@dataclass(frozen=True)
class ModelConfirmation:
    """What re-scoring the screen's open rows with the model did (a sweep's `attrs["model_confirmation"]`).

    Attributes:
        model: The model's name (what scored the rows the verdict decides on).
        screen: The screening searcher's name ("BM25").
        rows: The rows the model re-scored, in order.
        why: For each of them (by its position, as text: the attrs save to Parquet), why it was re-scored.
        screened_out: The ranked rows the screen eliminated: never embedded (none without queries: nothing judged).
        screen_choice: The row the screen alone would have chosen (None without queries).
        choice: The row the model's verdict chose.
        embedded: The inputs the model computed for those rows (the vector cache kept the others).
        inputs_distinct: The distinct inputs of those rows and the queries.
        estimate_seconds: What embedding them was expected to take, at a first call's rate (None: nothing to embed).
        seconds: What re-scoring took, embedding included.
        note: The embedding's note, in words.
    """

    model: str
    screen: str
    rows: list[int]
    why: dict[str, list[str]]
    screened_out: list[int]
    screen_choice: int | None
    choice: int | None
    embedded: int
    inputs_distinct: int
    estimate_seconds: float | None
    seconds: float
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        """Plain values only (what the sweep table's attrs hold)."""
        return dataclasses.asdict(self)


@dataclass
class ModelStep:
    """What the scorer needs to re-score rows with the model: the rows' settings (as the verdict names them), what
    cut each row, which rows the verdict ranks, clanka's row, and how to score a row with another probe."""

    settings: Sequence[dict[str, Any]]
    cuts: Sequence[Cut]
    ranked: list[int]
    reference: int | None
    rescored: Callable[[int, Probe], Rescore]


def model_rows(screen: Verdict, settings: Sequence[Mapping[str, Any]], reference: int | None,
               ranked: Sequence[int]) -> dict[int, list[str]]:  # fmt: skip
    """The rows the model re-scores, each with why: the screen's confidence set, clanka's row, every ranked row with
    chunk_overlap > 0 and its overlap-0 twin (the ranked row whose settings are the same but for overlap 0)."""
    out: dict[int, list[str]] = {}

    def add(row: int, why: str) -> None:
        out.setdefault(row, []).append(why)

    for row in screen.confidence_set:
        add(int(row), OPEN)
    if reference is not None:
        add(reference, REFERENCE)
    for row in ranked:
        if (settings[row].get("chunk_overlap") or 0) > 0:
            add(row, OVERLAP)
            twin = {**settings[row], "chunk_overlap": 0}
            found = next((other for other in ranked if dict(settings[other]) == twin), None)
            if found is not None:
                add(found, TWIN)
    return dict(sorted(out.items()))


def model_confirmed(
    screen: Verdict, step: ModelStep, whole: ProbeSet, probe: Probe, progress: ProgressBar,
) -> tuple[Confirmation, Verdict, ModelConfirmation]:
    """Re-score the screen's open rows with `probe.confirmer` (`model_rows`; the inputs embedded ahead with the wait
    estimated and shown), and the model's verdict over them alone, its message naming both searchers."""
    model = probe.confirmer
    assert model is not None  # only a probe with confirm= gets here
    started, before = time.perf_counter(), int(getattr(model.engine, "embedded", 0))  # it may serve several sweeps
    why = model_rows(screen, step.settings, step.reference, step.ranked) if screen.queries else {}
    rows = list(why)
    ahead = embed_inputs(whole, [step.cuts[row] for row in rows], model.engine, progress) if rows else {}
    rescore = [step.rescored(row, model) for row in range(len(step.settings))]
    done = confirm(rows, rescore, whole, model.engine)
    done.seconds = time.perf_counter() - started
    done.embedded = int(getattr(model.engine, "embedded", 0)) - before
    out = _verdict(screen, done, step, probe, whole) if rows else screen
    screened_out = [row for row in step.ranked if row not in why] if why else []  # nothing judged without queries
    record = ModelConfirmation(
        model.searcher_name, probe.searcher_name, rows, {str(row): reasons for row, reasons in why.items()},
        screened_out, None if screen.choice is None else int(screen.choice),
        None if out.choice is None else int(out.choice), done.embedded, int(ahead.get("inputs_distinct", 0)),
        ahead.get("embedding_estimate_seconds"), done.seconds, str(ahead.get("embedding_note", "")),
    )
    return done, dataclasses.replace(out, confirmation_embedded=done.embedded), record


def _verdict(screen: Verdict, done: Confirmation, step: ModelStep, probe: Probe, whole: ProbeSet) -> Verdict:
    """The model's verdict over its rows, said after the decision: what the screen left open, what it screened out
    (never embedded) and what it alone would have chosen."""
    model = probe.decided_by
    rows = list(done.outcomes)
    metric = probe.verdict_metric
    scores = pd.DataFrame({row: expected(done.outcomes[row], metric) for row in rows})
    out = verdict(scores, whole.groups, settings={row: dict(step.settings[row]) for row in rows},
                  cost={row: done.costs[row] for row in rows}, confidence=CONFIDENCE, margin=probe.margin,
                  when=whole.times, metric_name=metric.name, cost_name=COST_NAMES[probe.cost])  # fmt: skip
    said = (f"{probe.searcher_name} screened all {len(step.ranked)} settings and {model} re-scored {len(rows)} of "
            "them (the screen's confidence set, clanka's setting, every overlap setting and its overlap-0 twin)")
    left = [row for row in step.ranked if row not in done.outcomes]
    if left:
        said += f"; {probe.searcher_name} screened out {' | '.join(setting_text(step.settings, row) for row in left)}"
    if screen.choice is not None and screen.choice != out.choice:
        said += f"; {probe.searcher_name} alone would have chosen {setting_text(step.settings, int(screen.choice))}"
    rest = out.message.removeprefix(out.decision or "").removeprefix("; ")
    return dataclasses.replace(out, confirmed=rows, screened=screened_answer(screen),
                               message=f"{out.decision}; {said}; by {model}: {rest}")
