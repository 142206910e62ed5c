"""Every per-query metric of one setting, computed once from its rankings: the frame, the row and the verdict
all read these arrays.

A chunk hits a query when it is of the target's file and holds some of its lines. Per query:

- `rank`: the 1-based position of the first hit within the deepest cut-off (0: none).
- `recall@k`: 1 when `rank` is 1..k; `mrr`: 1/rank (0 for a miss): its mean is the mean reciprocal rank.
- `precision`: the target lines the top 5 chunks hold, summed, over the lines of those chunks.
- `tokens@k`, `lines@k`: what the top k chunks cost (their embedding inputs' tokens, their lines).
- For a budget of B tokens, chunks are taken in rank order while their summed tokens stay within B (whole
  chunks: a first chunk over B takes nothing). `budget_found@B`: 1 when a taken chunk hits the target;
  `budget_covered@B`: the share of the target's lines the taken chunks hold (graded: a 1-line touch of a
  10-line target is 0.1; a line two overlapping chunks hold counts once).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np

from ...metrics import MRR, PRECISION_AT, RECALL, Metric


def first_hit(rank_hits: np.ndarray) -> np.ndarray:
    """The 1-based position of the first True of each row (0: none)."""
    return np.where(rank_hits.any(axis=1), rank_hits.argmax(axis=1) + 1, 0)


def covered_lines(low: np.ndarray, high: np.ndarray, taken: np.ndarray) -> np.ndarray:
    """Per row, how many distinct lines the taken intervals [low, high] cover (an empty one has high < low)."""
    high = np.where(taken & (high >= low), high, -1)
    order = np.argsort(np.where(high >= 0, low, np.iinfo(np.int64).max), axis=1, kind="stable")
    low, high = np.take_along_axis(low, order, axis=1), np.take_along_axis(high, order, axis=1)
    # Sorted by first line, an interval adds the lines past the furthest line any earlier one reached.
    reached = np.maximum.accumulate(high, axis=1)
    before = np.concatenate([np.full((len(high), 1), -1), reached[:, :-1]], axis=1) if high.size else reached
    return cast("np.ndarray", np.clip(high - np.maximum(low - 1, before), 0, None).sum(axis=1))


def metric_arrays(
    ids: np.ndarray, chunks: tuple[np.ndarray, np.ndarray, np.ndarray], tokens: np.ndarray, charged: np.ndarray,
    target: tuple[np.ndarray, np.ndarray, np.ndarray], cutoffs: Sequence[int], budgets: Sequence[int],
) -> dict[str, np.ndarray]:
    """Every per-query metric (the module docstring says each) from `ids`, the ranked chunk ids per query
    (-1: none). `chunks` is each chunk's file, first and last line; `tokens` each chunk's cost; `charged`, what it
    costs within a budget (on a sample, a distractor's tokens 1/share times); `target`, each query's file, first
    and last line."""
    chunk_file, chunk_start, chunk_end = chunks
    queries = len(ids)
    target_file, target_start, target_end = (values[:, None] for values in target)
    found = ids >= 0
    safe = np.where(found, ids, 0)
    if len(chunk_file):
        file, start, end = chunk_file[safe], chunk_start[safe], chunk_end[safe]
        cost, price = np.where(found, tokens[safe], 0.0), np.where(found, charged[safe], 0.0)
    else:  # nothing indexed: every query finds nothing
        found = np.zeros_like(found)
        file = start = end = np.zeros_like(ids)
        cost = price = np.zeros(ids.shape)
    same = found & (file == target_file)
    low, high = np.maximum(start, target_start), np.minimum(end, target_end)
    shared = np.clip(high - low + 1, 0, None) * same  # target lines each ranked chunk holds
    rank = first_hit(shared[:, : cutoffs[-1]] > 0)
    top = slice(0, PRECISION_AT)
    lines = (end - start + 1) * found  # each ranked chunk's lines (0 past the end of the ranking)
    retrieved = lines[:, top].sum(axis=1)
    out: dict[str, np.ndarray] = {
        "rank": rank,
        "precision": np.divide(shared[:, top].sum(axis=1), retrieved, out=np.zeros(queries), where=retrieved > 0),
    }
    for cutoff in cutoffs:
        out[f"recall@{cutoff}"] = Metric(RECALL, cutoff).of_ranks(rank)
    out["mrr"] = Metric(MRR).of_ranks(rank)
    for cutoff in cutoffs:
        out[f"tokens@{cutoff}"] = cost[:, :cutoff].sum(axis=1)
    for cutoff in cutoffs:
        out[f"lines@{cutoff}"] = lines[:, :cutoff].sum(axis=1).astype(np.float64)
    spent = np.cumsum(price, axis=1)
    length = (target_end - target_start + 1)[:, 0].astype(np.float64)
    for budget in budgets:
        # Costs are never negative, so the chunks within the budget are a prefix of the ranking.
        taken = found & (spent <= budget)
        out[f"budget_found@{budget}"] = ((shared > 0) & taken).any(axis=1).astype(np.float64)
        held = covered_lines(low, high, taken & same)
        out[f"budget_covered@{budget}"] = np.divide(held, length, out=np.zeros(queries), where=length > 0)
    return out
