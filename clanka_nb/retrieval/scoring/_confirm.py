"""A sampled sweep's verdict, confirmed on the whole codebase: the sample screens, the whole codebase decides.

On a sample (every chunk holding a query's target, a share of the others), a query's rank is estimated as
1 + kept + (rank - 1 - kept) / share: unbiased for the rank, but not for what is computed from it (1/rank,
rank <= k, what fits in a token budget are not linear in the rank). Issue 36 measured MRR +0.02-0.06 and
recall@1 +0.03-0.08 on two real repositories, and a sampled verdict naming a best the whole codebase did not.
No correction of the thinning model removes that bias for every metric and searcher (BM25's own statistics
change with the chunks indexed; a budget is a step in the summed cost, and charging each sampled distractor
1/share times its tokens makes large chunks overflow it: on the bundled sample, budget_covered@2000 at
chunk_size 40 is 0.676 on a 20% sample against 0.854 on the whole codebase, whose best it is). So the sample
only decides whether the whole codebase is needed:

1. The verdict over the sample's estimates (`decide`). When it cannot separate the settings, that is the
   answer: it names no best, so it cannot contradict the whole codebase.
2. When it separates, every setting is scored again on the whole codebase (`ProbeSet.whole()`: the same
   queries, targets and clusters; with an embedder, the vector cache keeps what the sample embedded) and the
   verdict is the one over those scores: the full sweep's verdict, exactly. Confirming only the sample's
   confidence set (and its runner-up) was tried first and fails: on the bundled sample the sample screened out
   chunk_size 40, the whole codebase's best, and the confirmed verdict then named chunk_size 8.

The confirmed rows carry their full-codebase values (`scored_on` = "full"); a sample that cannot separate keeps
its estimates (`scored_on` = "sample"). `tests/retrieval/test_sample_confirmed.py` and
`benchmarks/bench_tuning.py` measure both.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ...decision import CONFIDENCE, MARGIN, Outcome, Verdict, expected, verdict
from ...metrics import Metric
from ._probe import ProbeSet

# Rescore one sweep row on a probe set: its probe columns, its per-query outcome and the tokens it indexed.
Rescore = Callable[[ProbeSet], tuple[dict[str, Any], Outcome, float]]


@dataclass
class Confirmation:
    """What confirming a sampled verdict did: the rows scored on the whole codebase (row position -> their
    probe columns), their outcomes and costs, the inputs embedded for them and the seconds it took."""

    rows: dict[int, dict[str, Any]] = field(default_factory=dict)
    outcomes: dict[int, Outcome] = field(default_factory=dict)
    costs: dict[int, float] = field(default_factory=dict)
    embedded: int = 0
    seconds: float = 0.0


def to_confirm(screen: Verdict) -> list[int]:
    """The rows a sample verdict sends to the whole codebase: all of them when it separates the settings (its
    biased estimates may have screened out the true best: see the module docstring), none when it does not."""
    return list(range(len(screen.columns))) if screen.separable else []


def confirmed_verdict(
    screen: Verdict, confirmation: Confirmation, settings: Sequence[dict[str, Any]], *, metric: Metric,
    groups: np.ndarray | None, share: float, margin: float | None = MARGIN, when: np.ndarray | None = None,
    cost_name: str | None = None,
) -> Verdict:
    """The verdict over the confirmed rows' full-codebase scores (its columns: their row positions), with what
    the sample screened out said in its message and kept in `screened`."""
    rows = list(confirmation.outcomes)
    scores = pd.DataFrame({row: expected(confirmation.outcomes[row], metric) for row in rows})
    out = verdict(scores, groups, settings={row: settings[row] for row in rows},
                  cost={row: confirmation.costs[row] for row in rows}, confidence=CONFIDENCE, margin=margin,
                  when=when, metric_name=metric.name, cost_name=cost_name)  # fmt: skip
    left = [row for row in range(len(settings)) if row not in confirmation.outcomes]
    said = f"a {share:.0%} sample of distractors separates the settings, so they were scored on the whole codebase"
    if left:
        said += f" (but {' | '.join(setting_text(settings, row) for row in left)}, screened out there)"
    # The decision stays first; what the sample did comes right after it.
    rest = out.message.removeprefix(out.decision or "").removeprefix("; ")
    return dataclasses.replace(
        out, sample=share, scored_on="full", confirmed=rows, screened=screened_answer(screen),
        confirmation_embedded=confirmation.embedded, message=f"{out.decision}; {said}; on the whole codebase: {rest}",
    )


def unconfirmed_verdict(screen: Verdict) -> Verdict:
    """A sample verdict that cannot separate: said so, with no best named and nothing confirmed."""
    message = screen.message
    if screen.queries and len(screen.columns) > 1:
        message += ("; the sample names no best, so none was scored on the whole codebase (sample=None "
                    "scores every setting there)")  # fmt: skip
    return dataclasses.replace(screen, scored_on="sample", confirmed=[], screened=screened_answer(screen),
                               confirmation_embedded=0, message=message)


def screened_answer(screen: Verdict) -> dict[str, Any]:
    """The sample verdict's answer, kept beside the confirmed one (plain values: the table saves to Parquet)."""
    return {name: getattr(screen, name) for name in ("separable", "best", "confidence_set", "worse", "p_value",
                                                     "means", "message")}  # fmt: skip


def setting_text(settings: Sequence[dict[str, Any]], row: int) -> str:
    """A row by the settings that differ between the rows (all of them for one row)."""
    varying = [key for key in settings[row] if len({repr(other.get(key)) for other in settings}) > 1]
    shown = {key: settings[row][key] for key in (varying or settings[row])}
    return ", ".join(f"{key}={value}" for key, value in shown.items() if value is not None) or f"row {row}"


def confirm(rows: Sequence[int], rescore: Sequence[Rescore], whole: ProbeSet, searcher: Any) -> Confirmation:
    """Score `rows` again on the whole codebase (`whole`), counting what the searcher embeds for them (the vector
    cache keeps what the sample already embedded, so only the inputs it left out are new)."""
    started = time.perf_counter()
    before = int(getattr(searcher, "embedded", 0))
    out = Confirmation()
    for row in rows:
        out.rows[row], out.outcomes[row], out.costs[row] = rescore[row](whole)
    out.embedded = int(getattr(searcher, "embedded", 0)) - before
    out.seconds = time.perf_counter() - started
    return out
