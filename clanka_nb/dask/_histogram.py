"""Exact counts of values (chunk sizes are integers): merged by adding, read as numpy's mean, median and percentile."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import cast

import numpy as np


@dataclass(frozen=True)
class Histogram:
    """Every distinct value (sorted) and how often it occurs: the whole sample, in a few kilobytes."""

    values: np.ndarray
    counts: np.ndarray  # int64, same length as values

    @classmethod
    def of(cls, sample: np.ndarray) -> Histogram:
        values, counts = np.unique(sample, return_counts=True)
        return cls(values, counts.astype(np.int64))

    @classmethod
    def merged(cls, parts: list[Histogram], dtype: np.dtype | type) -> Histogram:
        """The histogram of all the parts' samples together: counts of equal values add up."""
        values = np.concatenate([np.zeros(0, dtype=dtype), *(part.values for part in parts)])
        counts = np.concatenate([np.zeros(0, dtype=np.int64), *(part.counts for part in parts)])
        unique, inverse = np.unique(values, return_inverse=True)
        total = np.zeros(len(unique), dtype=np.int64)
        np.add.at(total, inverse, counts)
        return cls(unique, total)

    @property
    def size(self) -> int:
        return int(self.counts.sum())

    def total(self) -> float:
        """Sum of the sample (exact while it stays below 2**53, as chunk sizes do)."""
        return float((self.values.astype(np.float64) * self.counts).sum())

    def _at(self, rank: int) -> np.generic:
        """The value at 0-based position `rank` of the sorted sample."""
        ends = np.cumsum(self.counts)
        return cast("np.generic", self.values[int(np.searchsorted(ends, rank, side="right"))])

    def mean(self) -> float | None:
        return None if not self.size else self.total() / self.size

    def median(self) -> float | None:
        """As `np.median`: the middle value, or the mean of the two middle values."""
        n = self.size
        if not n:
            return None
        if n % 2:
            return float(self._at(n // 2))
        return (float(self._at(n // 2 - 1)) + float(self._at(n // 2))) / 2

    def percentile(self, q: float) -> float | None:
        """As `np.percentile(sample, q)` (linear method), operation for operation, so the float is the same."""
        n = self.size
        if not n:
            return None
        virtual = (n - 1) * (q / 100)
        if virtual >= n - 1:
            return float(self._at(n - 1))
        below = math.floor(virtual)
        a, b = np.float64(self._at(below)), np.float64(self._at(below + 1))
        t = np.float64(virtual - below)
        diff = b - a
        # numpy's _lerp: from the nearer end, so t = 1 gives exactly b.
        return float(b - diff * (1 - t)) if t >= 0.5 else float(a + diff * t)
