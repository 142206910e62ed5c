"""Merged histograms give numpy's mean, median and percentiles of the pooled sample, to the last bit."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from clanka_nb.dask._histogram import Histogram

sizes = st.lists(st.integers(min_value=1, max_value=5000), min_size=1, max_size=300)


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(sizes, min_size=1, max_size=6), q=st.sampled_from([0, 5, 50, 90, 95, 99, 100]))
def test_merged_integer_histograms_match_numpy_on_the_pooled_sample(parts: list[list[int]], q: int) -> None:
    pooled = np.concatenate([np.asarray(part, dtype=np.int64) for part in parts])
    merged = Histogram.merged([Histogram.of(np.asarray(part, dtype=np.int64)) for part in parts], np.int64)
    assert merged.size == len(pooled)
    assert merged.mean() == float(pooled.mean())
    assert merged.median() == float(np.median(pooled))
    assert merged.percentile(q) == float(np.percentile(pooled, q))
    assert merged.total() == float(pooled.sum())


@settings(max_examples=200, deadline=None)
@given(parts=st.lists(sizes, min_size=1, max_size=4))
def test_quarter_values_as_tokens_match_numpy(parts: list[list[int]]) -> None:
    # frames estimates tokens as characters / 4: the histogram of characters scaled must agree.
    pooled = np.concatenate([np.asarray(part, dtype=np.int64) for part in parts]) / 4
    characters = Histogram.merged([Histogram.of(np.asarray(part, dtype=np.int64)) for part in parts], np.int64)
    tokens = Histogram(characters.values / 4, characters.counts)
    assert tokens.mean() == float(pooled.mean())
    assert tokens.percentile(95) == float(np.percentile(pooled, 95))
    assert tokens.total() == float(pooled.sum())


def test_an_empty_sample_has_no_statistics() -> None:
    empty = Histogram.merged([], np.int64)
    assert (empty.size, empty.mean(), empty.median(), empty.percentile(95), empty.total()) == (0, None, None, None, 0.0)
