"""Simulated sweeps for the verdict's tests: per-query scores with hard queries hard at every setting."""

from __future__ import annotations

import numpy as np
import pandas as pd


def sweep_scores(rng: np.random.Generator, settings: int, queries: int, clusters: int, kind: str,
                 shift: np.ndarray | None = None, alike: str = "independent") -> tuple[pd.DataFrame, np.ndarray]:
    """Scores (queries x settings) and cluster ids. A cluster shares a difficulty (queries about one target
    are hard together) and each query adds its own, the same at every setting; each setting adds its own
    noise, less `shift` (per setting, in the latent units: positive is better). `kind`: "rr" (1/rank, 0 past
    rank 10), "hit" (hit@5 as 0/1) or "covered" (a share of the target's lines within a budget, as the
    verdict's default metric: whole near the top, in tenths below it, none far down). `alike`: how the settings'
    own noises go together: "independent", "equicorrelated" (0.5 between any two) or "neighbours" (0.9^|i-j|, as
    neighbouring chunk sizes score alike)."""
    ids = np.sort(rng.integers(0, clusters, size=queries))  # uneven cluster sizes
    hard = rng.normal(0, 1.0, size=clusters)[ids] + rng.normal(0, 0.7, size=queries)
    latent = hard[:, None] + 0.8 * _noise(rng, queries, settings, alike)
    if shift is not None:
        latent = latent - shift[None, :]
    return pd.DataFrame(scored(latent, kind), columns=[f"s{j}" for j in range(settings)]), ids


def scored(latent: np.ndarray, kind: str) -> np.ndarray:
    """Scores of the latent ranks (lower is better): 1/rank, hit@5 or the graded share (see `sweep_scores`)."""
    rank = 1 + np.floor(np.exp(latent + 0.5))
    if kind == "rr":
        return np.where(rank <= 10, 1 / rank, 0.0)
    if kind == "hit":
        return (rank <= 5).astype(np.float64)
    return np.round(np.clip(1.2 - 1.2 * np.exp(latent), 0, 1), 1)  # about half 0, a seventh 1, mean 0.34


def heavy_cluster_scores(rng: np.random.Generator, shift: np.ndarray, kind: str,
                         hardness: float | None = None) -> tuple[pd.DataFrame, np.ndarray]:  # fmt: skip
    """200 queries, one cluster holding 50 of them (a quarter of every mean), the rest in 59 clusters. `hardness`:
    the heavy cluster's shared difficulty (None: drawn as every cluster's; -0.5: middling targets, whose scores vary
    most between settings, so that cluster holds more than a quarter of the differences' variance)."""
    ids = np.concatenate([np.zeros(50, dtype=np.int64), np.sort(rng.integers(1, 60, size=150))])
    shared = rng.normal(0, 1.0, size=60)
    if hardness is not None:
        shared[0] = hardness
    hard = shared[ids] + rng.normal(0, 0.7, size=200)
    latent = hard[:, None] + rng.normal(0, 0.8, size=(200, len(shift))) - shift[None, :]
    return pd.DataFrame(scored(latent, kind), columns=[f"s{j}" for j in range(len(shift))]), ids


def additive_scores(rng: np.random.Generator, lead: float, settings: int = 2) -> tuple[pd.DataFrame, np.ndarray]:
    """200 queries in 60 clusters; s0 better than each other setting by `lead` in every query's mean."""
    ids = np.sort(rng.integers(0, 60, size=200))
    base = rng.normal(0.4, 0.15, 60)[ids] + rng.normal(0, 0.1, 200)
    values = base[:, None] + rng.normal(0, 0.2, (200, settings))
    values[:, 0] += lead
    return pd.DataFrame(values, columns=[f"s{j}" for j in range(settings)]), ids


def noisy_best_scores(rng: np.random.Generator, noise: float = 1.0) -> tuple[pd.DataFrame, np.ndarray]:
    """200 queries in 60 clusters, 5 settings ahead of the last by 0.20, 0.16, 0.14, 0.10 and 0: s0 is the true best
    but `noise` times noisier per query than the others (0.05), so its mean often falls below theirs."""
    ids = np.sort(rng.integers(0, 60, size=200))
    base = rng.normal(0.4, 0.15, 60)[ids] + rng.normal(0, 0.1, 200)
    means = np.array([0.10, 0.06, 0.04, 0.0, -0.1])
    spread = np.array([noise, 0.05, 0.05, 0.05, 0.05])
    values = base[:, None] + means[None, :] + rng.normal(0, 1, (200, 5)) * spread[None, :]
    return pd.DataFrame(values, columns=[f"s{j}" for j in range(5)]), ids


def true_means(settings: int, kind: str, shift: np.ndarray | None = None) -> np.ndarray:
    """Each setting's expected score, from a million simulated queries (standard error about 0.0005)."""
    scores, _ = sweep_scores(np.random.default_rng(12345), settings, 1_000_000, 200_000, kind, shift)
    return scores.to_numpy().mean(axis=0)


def _noise(rng: np.random.Generator, queries: int, settings: int, alike: str) -> np.ndarray:
    """Standard normal noise per query and setting, correlated across settings as `alike` says."""
    if alike == "independent":
        return rng.normal(0, 1, size=(queries, settings))
    apart = np.abs(np.subtract.outer(np.arange(settings), np.arange(settings)))
    correlation = np.where(apart == 0, 1.0, 0.5) if alike == "equicorrelated" else 0.9**apart
    return rng.normal(0, 1, size=(queries, settings)) @ np.linalg.cholesky(correlation).T
