"""However the files are cut into batches, the merged partial statistics give `frames.sweep`'s row (no cluster)."""

from __future__ import annotations

import itertools

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

import clanka_nb as cn
from clanka_nb import engine
from clanka_nb.dask._partial import Partial, measure, row

SAMPLE = cn.sample_codebase()
FILES = cn.list_files(SAMPLE)
GRID = [engine.ChunkSettings.build(size, overlap, limit) for size, overlap, limit in [(7, 0, None), (30, 3, 500)]]


def _words(text: str) -> int:
    return len(text.split())


@settings(max_examples=25, deadline=None)
@given(cuts=st.sets(st.integers(min_value=1, max_value=len(FILES) - 1), max_size=6), tokenize=st.booleans())
def test_any_batching_merges_to_the_whole_codebase_row(cuts: set[int], tokenize: bool) -> None:
    tokenizer = _words if tokenize else None
    bounds = [0, *sorted(cuts), len(FILES)]
    merged = [Partial() for _ in GRID]
    for start, end in itertools.pairwise(bounds):
        batch = engine.Codebase(SAMPLE, paths=FILES[start:end])
        merged = [total + part for total, part in zip(merged, measure(batch, GRID, tokenizer), strict=True)]
    got = pd.DataFrame([row(setting, partial, tokenizer) for setting, partial in zip(GRID, merged, strict=True)])
    expected = cn.sweep(
        SAMPLE, chunk_size=[7], chunk_overlap=[0], tokenizer=tokenizer, workers=1, progress=False
    ), cn.sweep(SAMPLE, chunk_size=[30], chunk_overlap=[3], chunk_max_characters=[500], tokenizer=tokenizer,
                workers=1, progress=False)
    expected_rows = pd.concat(expected, ignore_index=True).drop(columns="seconds")
    for name in expected_rows.columns:
        want = [None if pd.isna(v) else v for v in expected_rows[name].tolist()]
        have = [None if v is None or pd.isna(v) else v for v in got[name].tolist()]
        assert have == want, name


def test_compacting_keeps_the_numbers() -> None:
    parts = [measure(engine.Codebase(SAMPLE, paths=[path]), GRID[:1], None)[0] for path in FILES]
    total = Partial()
    for part in parts:
        total = total + part
    assert row(GRID[0], total.compacted(), None) | {"seconds": 0} == row(GRID[0], total, None) | {"seconds": 0}
