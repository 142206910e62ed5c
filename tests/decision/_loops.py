"""The verdict's simultaneous intervals and its elimination written again as plain loops, one number at a time, from
the same bootstrap draws: the vectorised code in clanka_nb/decision (matrix products, broadcasting, masks) is checked
against this reading of its docstrings."""

from __future__ import annotations

import math

import numpy as np

from clanka_nb.decision._pairs import t_quantile

WEBB = [-math.sqrt(1.5), -1.0, -math.sqrt(0.5), math.sqrt(0.5), 1.0, math.sqrt(1.5)]


def jackknife_error(per_cluster: list[float], sizes: list[float]) -> float:
    """The spread of the mean difference with each cluster left out in turn (per_cluster: each cluster's sum)."""
    total, queries, count = sum(per_cluster), sum(sizes), len(sizes)
    left = [(total - per_cluster[c]) / (queries - sizes[c]) for c in range(count)]
    centre = sum(left) / count
    return math.sqrt((count - 1) / count * sum((value - centre) ** 2 for value in left))


def pair_intervals(sums: np.ndarray, sizes: np.ndarray, weights: np.ndarray, confidence: float) -> dict:
    """Per pair (a, b), a < b: difference, error, |t| seen, |t| in each wild draw; the critical value; intervals.

    `weights`: the draws' Webb weight indices (draws x clusters), as the vectorised code drew them."""
    clusters, settings = sums.shape
    queries = float(sum(sizes))
    pairs = [(a, b) for a in range(settings) for b in range(a + 1, settings)]
    out: dict = {"pairs": pairs, "difference": [], "error": [], "drawn": [[] for _ in range(len(weights))]}
    for a, b in pairs:
        paired = [float(sums[c, a] - sums[c, b]) for c in range(clusters)]
        difference = sum(paired) / queries
        error = jackknife_error(paired, list(sizes))
        out["difference"].append(difference)
        out["error"].append(error)
        residual = [paired[c] - sizes[c] * difference for c in range(clusters)]
        for draw, row in enumerate(weights):
            moved = [WEBB[row[c]] * residual[c] for c in range(clusters)]
            drawn_error = jackknife_error(moved, list(sizes))
            out["drawn"][draw].append(abs(sum(moved) / queries) / drawn_error if drawn_error > 0 else 0.0)
    largest = [max(row) for row in out["drawn"]]
    widen = kish_widening(largest, list(sizes), confidence)
    out["drawn"] = [[value * widen for value in row] for row in out["drawn"]]
    out["critical"] = higher_quantile([max(row) for row in out["drawn"]], confidence)
    out["seen"] = [abs(d) / e if e > 0 else 0.0 for d, e in zip(out["difference"], out["error"], strict=True)]
    out["low"] = [d - out["critical"] * e for d, e in zip(out["difference"], out["error"], strict=True)]
    out["high"] = [d + out["critical"] * e for d, e in zip(out["difference"], out["error"], strict=True)]
    return out


def higher_quantile(values: list[float], level: float) -> float:
    """numpy's quantile, method "higher": the value at index ceil(level * (n - 1)) of the sorted values."""
    ordered = sorted(values)
    return ordered[math.ceil(level * (len(ordered) - 1) - 1e-12)]


def kish_widening(largest: list[float], sizes: list[float], confidence: float) -> float:
    """Student's t at the effective clusters less one over t at the clusters less one, at the draws' own tail."""
    total = sum(sizes)
    kish = total * total / sum(size * size for size in sizes)
    if len(sizes) < 3 or kish >= len(sizes) - 0.5:
        return 1.0
    normal = 0.5 * (1 + math.erf(higher_quantile(largest, confidence) / math.sqrt(2)))
    tail = (1 - normal) * 2
    return t_quantile(1 - tail / 2, max(kish - 1, 1.0)) / t_quantile(1 - tail / 2, len(sizes) - 1)


def eliminate(found: dict, order: list[int], confidence: float) -> list[int]:
    """The elimination, one comparison at a time: while the largest |t| among the pairs of the settings left beats
    the quantile of its own drawn maximum, the setting that trails another most clearly (largest t) leaves."""
    left, out = list(order), []
    while len(left) > 1:
        inside = [number for number, (a, b) in enumerate(found["pairs"]) if a in left and b in left]
        drawn_max = [max(row[number] for number in inside) for row in found["drawn"]]
        if not max(found["seen"][number] for number in inside) > higher_quantile(drawn_max, confidence):
            break
        worst, worst_t = None, -math.inf
        for setting in reversed(left):  # the lowest mean first, so a tie goes to it
            trailing = -math.inf
            for number, (a, b) in enumerate(found["pairs"]):
                if setting in (a, b) and a in left and b in left:
                    ahead = found["difference"][number] if setting == b else -found["difference"][number]
                    error = found["error"][number]
                    t = ahead / error if error > 0 else math.inf if ahead > 0 else -math.inf if ahead < 0 else 0.0
                    trailing = max(trailing, t)
            if trailing > worst_t:
                worst, worst_t = setting, trailing
        left.remove(worst)
        out.append(worst)
    return out
