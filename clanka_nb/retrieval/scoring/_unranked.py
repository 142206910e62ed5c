"""Rows the verdict leaves out of its ranking: a whole chunker that cut nothing of a language the queries'
targets are in (its fallback, clanka's line windows, holds every file of it). Its row there is the line windows'
row to the last digit (issue 52: astchunk on a Go library equalled clanka's line windows and was called "worse
by at least 0.033"), so ranking it would judge the windows under its name. The row keeps its columns; the
verdict is taken over the other rows, with the public `verdict`, and its message names what was left out."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...decision import COST_NAMES, Verdict, verdict  # the public verdict (`clanka_nb.retrieval.verdict`)
from ._options import Probe


def ranked_verdict(
    scores: pd.DataFrame, rows: list[int], settings: Sequence[dict[str, Any]], cost: Sequence[float], *,
    probe: Probe, groups: np.ndarray | None, when: np.ndarray | None, share: float | None,
) -> Verdict:
    """The verdict over `rows` only (its columns are those rows' positions in the sweep, as every sweep
    verdict's are), with the probe's metric, margin and cost as `decide` takes them.

    Args:
        scores: Per query and sweep row, the verdict's metric.
        rows: The rows to rank.
        settings: Every row's settings, for the wording.
        cost: Every row's cost (ties go to the cheapest).
        probe: The probe's options: its verdict's metric, margin and cost's name.
        groups: Each query's cluster (None: each query its own).
        when: Each query's commit time (NaN: not from a commit); None: none.
        share: On a sampled probe, the share of distractors indexed (None: the whole codebase).

    Returns:
        The verdict, said to be on a sample's estimates where it is.
    """
    out = verdict(scores[rows] if rows else pd.DataFrame({0: np.zeros(0)}), groups if rows else None,
                  settings={row: settings[row] for row in rows}, cost={row: cost[row] for row in rows} or None,
                  margin=probe.margin, when=when if rows else None, metric_name=probe.verdict_metric.name,
                  cost_name=COST_NAMES[probe.cost])  # fmt: skip
    if share is not None and share < 1 and out.queries:
        return dataclasses.replace(out, sample=share,
                                   message=out.message + f"; on a {share:.0%} sample of distractors (estimates for "
                                   "the whole codebase)")  # fmt: skip
    return dataclasses.replace(out, sample=share)


def left_out(pooled: Verdict, unranked: dict[int, str]) -> Verdict:
    """The verdict with the rows it left out named after its decision (each by why: "astchunk: no Go grammar, line
    windows")."""
    if not unranked:
        return pooled
    named = "; ".join(unranked.values())
    said = f"left out of the ranking (its row there is clanka's own cut, not the chunker's): {named}"
    rest = pooled.message.removeprefix(pooled.decision or "").removeprefix("; ")
    return dataclasses.replace(pooled, message=f"{pooled.decision}; {said}" + (f"; {rest}" if rest else ""))
