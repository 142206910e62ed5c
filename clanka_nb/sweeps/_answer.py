"""The answer a clanka user acts on, composed on top of a sweep's verdict: keep clanka's setting or change it, by how
much and at what cost, and what applies the chosen setting in clanka (`CarryBack`).

Every number comes from the verdict's public result (`Verdict`: its confidence set, equivalence within the margin,
the simultaneous pair intervals, the costs) and from the table (the `reference` row, chunks): the statistics stay
the verdict's; this module only reads them from clanka's side.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..defaults import CHUNK_SETTING_NAMES
from ..keywords import checked_init, checked_keywords
from ..retrieval import Probe, Verdict
from ._carry import CarryBack, Chosen, carry_back
from ._reference import CLANKA_COMMIT, CLANKA_MODE, REFERENCE_COLUMN

ANSWER_KEY = "clanka_answer"  # the sweep table's attrs key of the answer (first in the attrs)
KEEP, CHANGE, UNDECIDED = "keep", "change", "undecided"


@checked_init
@dataclass(frozen=True)
class ClankaAnswer:
    """Whether a clanka user should keep clanka's own setting, read from the verdict. `str(answer)` is `message`.

    Attributes:
        message: The sentence a clanka user acts on: keep or change, by how much, at what cost, and how to apply it.
        action: "keep", "change" or "undecided" (no queries: the verdict names nothing).
        why: Why, in a few words ("equivalent to the best within ±0.02", "shown worse than ...").
        reference: The table row of clanka's setting.
        chosen: The row whose setting to use (the reference's when kept; None when undecided).
        chosen_settings: That row's settings (with its language mode, and its chunker's label for a chunker's row).
        metric: The verdict's metric.
        searcher: What scored the queries ("BM25", or the embedder's name).
        gain: The chosen setting's mean minus the reference's (None when kept or undecided).
        gain_low: The low end of that difference's simultaneous interval (the verdict's pairs).
        gain_high: Its high end.
        tokens_indexed: Tokens of the chunks the chosen setting indexes (the verdict's cost).
        reference_tokens_indexed: Tokens of the chunks clanka's setting indexes.
        vectors: Chunks (vectors stored) at the chosen setting.
        reference_vectors: Chunks (vectors stored) at clanka's setting.
        carry: What applies the chosen setting in clanka, by kind of user.
        commit: The clanka commit these facts were read from.
    """

    message: str
    action: str
    why: str
    reference: int
    chosen: int | None
    chosen_settings: dict[str, Any] | None
    metric: str
    searcher: str
    gain: float | None
    gain_low: float | None
    gain_high: float | None
    tokens_indexed: float | None
    reference_tokens_indexed: float | None
    vectors: int | None
    reference_vectors: int | None
    carry: CarryBack | None
    commit: str = CLANKA_COMMIT

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> dict[str, Any]:
        """Plain values only (what a sweep table's `attrs["clanka_answer"]` holds, so it saves to Parquet)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> ClankaAnswer:
        """The answer a sweep table's `attrs["clanka_answer"]` holds, typed again."""
        carry = values.get("carry")
        return cls(**{**values, "carry": None if carry is None else CarryBack(**carry)})


def searcher_name(probe: Probe) -> str:
    """What scored the rows the verdict decides on, in words: "BM25" (the default), the embedder's name (the
    confirming model's with `Probe(confirm=)`), or the searcher's type."""
    return probe.decided_by


def _number(value: Any) -> float | None:
    return None if value is None or pd.isna(value) else float(value)


def _row_settings(table: pd.DataFrame, row: int) -> dict[str, Any]:
    """A row's settings as clanka sees them: size, overlap, character limit (None: none), language mode, and the
    chunker's label on a whole chunker's row."""
    record = table.iloc[row]
    label = record.get("chunker_label")
    reference = bool(record.get(REFERENCE_COLUMN, False))
    out: dict[str, Any] = {"languages": CLANKA_MODE if reference else str(table.attrs.get("languages", CLANKA_MODE))}
    if label is not None and not pd.isna(label) and label != "clanka":
        return {"chunker": str(label), **out}
    values = {name: None if pd.isna(record.get(name)) else int(record[name]) for name in CHUNK_SETTING_NAMES}
    return {**values, **out}


def _gain(verdict: Verdict, chosen: int, reference: int) -> tuple[float | None, float | None, float | None]:
    """chosen - reference on the verdict's metric, with its simultaneous interval (the verdict's pairs)."""
    for pair in verdict.pairs:
        if (pair.a, pair.b) == (chosen, reference):
            return pair.difference, pair.low, pair.high
        if (pair.a, pair.b) == (reference, chosen):
            return -pair.difference, -pair.high, -pair.low
    return None, None, None


def _keep_reason(verdict: Verdict, reference: int) -> str | None:
    """Why clanka's setting may be kept (None: it is shown worse than some setting)."""
    margin = verdict.margin
    if reference == verdict.best:
        return "it scores best"
    if reference in verdict.equivalent and margin is not None:
        return f"it is equivalent to the best within \u00b1{margin:g}"
    if reference in verdict.confidence_set:
        return "no setting is shown better than it (tied within the noise)"
    return None


@checked_keywords
def clanka_answer(table: pd.DataFrame, verdict: Verdict, probe: Probe) -> ClankaAnswer:
    """The answer about clanka's setting (the table's `reference` row) from the sweep's verdict.

    Args:
        table: A probed sweep table with the `reference` column.
        verdict: Its verdict (`Verdict.from_dict(table.attrs["verdict"])`).
        probe: The probe's options (which searcher scored).

    Returns:
        The answer: keep or change clanka's setting, the gain and cost, and how to apply it.

    Raises:
        ValueError: The table has no reference row.
    """
    marked = table[REFERENCE_COLUMN].fillna(False).to_numpy(dtype=bool) if REFERENCE_COLUMN in table else []
    if not any(marked):
        msg = "this sweep has no reference row (clanka's setting): sweep with probe=True to have one"
        raise ValueError(msg)
    reference = int(next(number for number, flag in enumerate(marked) if flag))
    if verdict.choice is None:
        action, why, chosen = UNDECIDED, "no queries", None
    else:
        kept = _keep_reason(verdict, reference)
        chosen = reference if kept is not None else int(verdict.choice)
        action, why = (KEEP, kept) if kept is not None else (CHANGE, _worse_reason(table, verdict, reference, chosen))
    settings = None if chosen is None else _row_settings(table, chosen)
    gain = _gain(verdict, chosen, reference) if action == CHANGE and chosen is not None else (None, None, None)
    answer = ClankaAnswer(
        "", action, why, reference, chosen, settings, verdict.metric, searcher_name(probe), *gain,
        tokens_indexed=None if chosen is None else _cost(verdict, chosen),
        reference_tokens_indexed=_cost(verdict, reference),
        vectors=None if chosen is None else _chunks(table, chosen), reference_vectors=_chunks(table, reference),
        carry=None if settings is None else carry_back(Chosen.of(settings, kept=action == KEEP)),
    )
    message = f"clanka's setting cannot be judged: {verdict.message}" if action == UNDECIDED else _message(answer)
    return dataclasses.replace(answer, message=message)


def _worse_reason(table: pd.DataFrame, verdict: Verdict, reference: int, chosen: int) -> str:
    """Why clanka's setting is changed: the setting shown better than it, "it" when that is the one chosen (the
    sentence names the chosen one already)."""
    beaten = next((item for item in verdict.worse_by if item.setting == reference), None)
    if beaten is None:
        return "clanka's setting is shown worse than another"
    better = "it" if int(beaten.than) == chosen else settings_words(_row_settings(table, int(beaten.than)))
    return f"{better} is shown better than clanka's setting by at least {beaten.at_least:.3f}"


def _cost(verdict: Verdict, row: int) -> float | None:
    """A row's cost in the verdict: its costs are in its columns' order (a verdict over some rows, as the model's
    confirmation gives, has fewer columns than the table has rows)."""
    if verdict.costs is None or row not in verdict.columns:
        return None
    return _number(verdict.costs[verdict.columns.index(row)])


def _chunks(table: pd.DataFrame, row: int) -> int | None:
    value = _number(table["chunks"].iloc[row]) if "chunks" in table else None
    return None if value is None else int(value)


def _amount(value: float | None) -> str:
    return "?" if value is None or not math.isfinite(value) else f"{value:,.0f}"


def settings_words(settings: Mapping[str, Any]) -> str:
    """A row's settings as the answer names them ("chunk_size=60, chunk_overlap=0, no character limit")."""
    return Chosen.of(settings).words()


def _message(answer: ClankaAnswer) -> str:
    scored = f"{answer.metric}, scored by {answer.searcher}"
    cost = (f"{_amount(answer.tokens_indexed)} tokens indexed and {_amount(answer.vectors)} vectors stored "
            f"(clanka's setting: {_amount(answer.reference_tokens_indexed)} and {_amount(answer.reference_vectors)})")
    carry = "" if answer.carry is None else f"; in clanka: {answer.carry.clause}"
    if answer.action == KEEP:
        return (f"keep clanka's setting ({settings_words(answer.chosen_settings or {})}): {answer.why}, on "
                f"{scored}; it indexes {_amount(answer.reference_tokens_indexed)} tokens in "
                f"{_amount(answer.reference_vectors)} vectors{carry}")
    assert answer.chosen_settings is not None
    gain = "?" if answer.gain is None else (f"{answer.gain:+.3f} [{answer.gain_low:+.3f}, {answer.gain_high:+.3f}] "
                                            "(simultaneous 95%)")
    return (f"change clanka's setting to {settings_words(answer.chosen_settings)}: {answer.why}; it would gain "
            f"{gain} {scored}, at {cost}{carry}")


def answer_attrs(table: pd.DataFrame, probe: Probe) -> dict[str, Any]:
    """The table's attrs with `clanka_answer` first (None without a verdict), the verdict and the rest after it."""
    attrs = dict(table.attrs)
    verdict = attrs.get("verdict")
    answer = None if verdict is None else clanka_answer(table, Verdict.from_dict(verdict), probe).as_dict()
    return {ANSWER_KEY: answer, **attrs}
