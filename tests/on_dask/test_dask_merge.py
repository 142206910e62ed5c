"""However the files are cut into batches, the merged partial statistics give `frames.sweep`'s row (no cluster)."""

from __future__ import annotations

import itertools

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

import clanka_nb as cn
from clanka_nb import engine
from clanka_nb.dask._partial import Partial, measure, row
from clanka_nb.engine.embedding import embedding_text
from clanka_nb.engine.token_counts import token_counter

SAMPLE = cn.sample_codebase()
FILES = cn.list_files(SAMPLE)
GRID = [engine.ChunkSettings.build(size, overlap, limit) for size, overlap, limit in [(7, 0, None), (30, 3, 500)]]


def _words(text: str) -> int:
    return len(text.split())


LIMIT = 40  # words of an embedding input: some of the sample's chunks are over it at both settings


def _expected(counting: str) -> pd.DataFrame:
    """`frames.sweep`'s rows at GRID's two settings, counting tokens as `counting` says."""
    grids = [{"chunk_size": [7], "chunk_overlap": [0]},
             {"chunk_size": [30], "chunk_overlap": [3], "chunk_max_characters": [500]}]  # fmt: skip
    tokens = {"token_counter": _words, "token_limit": LIMIT} if counting == "counter" else {}
    frames = [cn.sweep(SAMPLE, workers=1, progress=False, **tokens, **grid) for grid in grids]
    return pd.concat(frames, ignore_index=True).drop(columns="seconds")


EXPECTED = {counting: _expected(counting) for counting in ("none", "counter")}


@settings(max_examples=25, deadline=None)
@given(
    cuts=st.sets(st.integers(min_value=1, max_value=len(FILES) - 1), max_size=6),
    counting=st.sampled_from(sorted(EXPECTED)),
)
def test_any_batching_merges_to_the_whole_codebase_row(cuts: set[int], counting: str) -> None:
    counter = token_counter(_words) if counting == "counter" else None
    limit = LIMIT if counting == "counter" else None
    bounds = [0, *sorted(cuts), len(FILES)]
    merged = [Partial() for _ in GRID]
    for start, end in itertools.pairwise(bounds):
        batch = engine.Codebase(SAMPLE, paths=FILES[start:end])
        parts = measure(batch, GRID, counter)
        merged = [total + part for total, part in zip(merged, parts, strict=True)]
    got = pd.DataFrame([row(setting, partial, counter, limit)
                        for setting, partial in zip(GRID, merged, strict=True)])  # fmt: skip
    expected_rows = EXPECTED[counting]
    assert ("over_limit" in expected_rows.columns) == (counting == "counter")
    assert list(got.drop(columns="seconds").columns) == list(expected_rows.columns)
    for name in expected_rows.columns:
        want = [None if pd.isna(v) else v for v in expected_rows[name].tolist()]
        have = [None if v is None or pd.isna(v) else v for v in got[name].tolist()]
        assert have == want, name


def test_token_counts_differ_from_the_estimate_and_some_chunks_are_over_the_limit() -> None:
    # Else the "counter" case above could pass by giving the chars/4 estimate.
    assert (EXPECTED["counter"]["tokens_total"] != EXPECTED["none"]["est_tokens_total"]).all()
    assert ((EXPECTED["counter"]["over_limit"] > 0) & (EXPECTED["counter"]["over_limit"] < 1)).all()


def test_compacting_keeps_the_numbers() -> None:
    counter = token_counter(_words)
    parts = [measure(engine.Codebase(SAMPLE, paths=[path]), GRID[:1], counter)[0] for path in FILES]
    total = Partial()
    for part in parts:
        total = total + part
    assert len(total.input_tokens) == len(FILES) and len(total.compacted().input_tokens) == 1
    for counting in ((None, None), (counter, LIMIT)):
        compacted = row(GRID[0], total.compacted(), *counting) | {"seconds": 0}
        assert compacted == row(GRID[0], total, *counting) | {"seconds": 0}


def test_a_partition_counts_each_embedding_input_once_over_its_settings() -> None:
    counted: list[str] = []

    def words(text: str) -> int:
        counted.append(text)
        return len(text.split())

    codebase = engine.Codebase(SAMPLE)
    grid = [engine.ChunkSettings.build(size, 0, None) for size in (30, 31, 32)]  # mostly the same chunks
    partials = measure(codebase, grid, token_counter(words))
    inputs = set()
    for setting, partial in zip(grid, partials, strict=True):
        texts = [
            embedding_text(c.path, c.start_line, c.name, c.type, c.parent, c.content)
            for path in FILES
            for c in codebase.file_chunks(path, setting)
        ]
        assert partial.input_tokens[0].total() == sum(len(t.split()) for t in texts)
        inputs.update(texts)
    assert sorted(counted) == sorted(inputs)
