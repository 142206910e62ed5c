"""ChunkBM25 ranks a setting's chunks exactly as bm25s does, without building bm25s's index per setting."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clanka_nb import engine, sample_codebase
from clanka_nb.engine._chunker import heads_of
from clanka_nb.frames.lines import LineIndex
from clanka_nb.retrieval import BM25Searcher, NoProbeQueriesWarning, Probe
from clanka_nb.retrieval.internals import ProbeSet, probe_frame
from clanka_nb.retrieval.queries._queries import scan
from clanka_nb.retrieval.search._bm25 import ChunkBM25
from clanka_nb.retrieval.search._index import Chunks, LineTokens, MaskedText
from clanka_nb.retrieval.search._search_words import code_tokens

pytest.importorskip("bm25s")

REPO = Path(__file__).resolve().parents[2]


def _parts(codebase: engine.Codebase, mask: bool = True) -> tuple[LineIndex, LineTokens]:
    index = LineIndex(codebase, codebase.files)
    masks = scan(codebase).masks if mask else {}
    return index, LineTokens(MaskedText(index, masks))


def _chunks(index: LineIndex, setting: engine.ChunkSettings) -> Chunks:
    return Chunks(index, [[] if text is None else heads_of(text, setting) for text in index.texts])


def _indexed(tokens: LineTokens, chunks: Chunks, **bm25: float) -> BM25Searcher:
    """bm25s's index of the chunks' token ids, in the searcher the probe used before ChunkBM25."""
    searcher = BM25Searcher(**bm25)
    searcher.index_ids(tokens.documents(chunks), tokens.vocab)
    return searcher


def _same_scores(mine: ChunkBM25, searcher: BM25Searcher, chunks: Chunks, queries: list[str]) -> None:
    for row, query in enumerate(queries):
        words = code_tokens(query)
        if words:  # bm25s's get_scores needs a token
            expected = searcher._model.get_scores(words)
            got = mine.scores(chunks, row)
            assert got.dtype == expected.dtype == np.float32
            assert got.tobytes() == expected.tobytes(), query


def _reference(tokens: LineTokens, chunks: Chunks, queries: list[str], depth: int, **bm25: float) -> np.ndarray:
    """bm25s's rankings: its index of the chunks' token ids, searched by `BM25Searcher`."""
    searcher = _indexed(tokens, chunks, **bm25)
    ids = np.full((len(queries), depth), -1, dtype=np.int64)
    for row, hits in enumerate(searcher.search_many(queries, depth)):
        ids[row, : len(hits)] = hits
    return ids


@pytest.mark.parametrize(
    ("root", "setting"),
    [
        (None, (30, 0, None)),
        (None, (8, 3, None)),
        (None, (12, 0, 300)),
        ("clanka_nb/frames", (30, 0, None)),
        ("clanka_nb/frames", (5, 0, None)),
        ("clanka_nb/engine", (20, 10, None)),
    ],
)
def test_rankings_equal_bm25s_on_real_code(root: str | None, setting: tuple) -> None:
    codebase = engine.Codebase(sample_codebase() if root is None else REPO / root)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoProbeQueriesWarning)
        queries = ProbeSet(codebase).queries["query"].tolist()
    assert len(queries) > 10
    index, tokens = _parts(codebase)
    chunks = _chunks(index, engine.ChunkSettings.build(*setting))
    scorer = ChunkBM25(tokens, queries)
    mine = scorer.rankings(chunks, 10)
    assert (mine >= 0).any()
    np.testing.assert_array_equal(mine, _reference(tokens, chunks, queries, 10))
    _same_scores(scorer, _indexed(tokens, chunks), chunks, queries)


WORDS = ["alpha", "beta", "gamma", "getUser", "user_name", "setValue", "value", "delta", "x1"]
line = st.lists(st.sampled_from(WORDS), max_size=4).map(" ".join)
source = st.lists(line, min_size=1, max_size=40).map(lambda lines: "\n".join(lines) + "\n")


@settings(max_examples=40, deadline=None)
@given(
    files=st.lists(source, min_size=1, max_size=4),
    queries=st.lists(st.lists(st.sampled_from([*WORDS, "missing"]), max_size=5).map(" ".join), min_size=1, max_size=6),
    size=st.integers(min_value=1, max_value=15),
    overlap=st.integers(min_value=0, max_value=5),
    depth=st.integers(min_value=1, max_value=12),
    k1=st.sampled_from([1.5, 1.2, 0.9]),
    b=st.sampled_from([0.75, 0.3, 1.0]),
)
def test_rankings_equal_bm25s_with_many_ties(
    files: list[str], queries: list[str], size: int, overlap: int, depth: int, k1: float, b: float
) -> None:
    # Few words, short lines: equal scores everywhere, so the order of float32 sums and ties matters.
    codebase = engine.Codebase.from_texts({f"notes{i}.md": text for i, text in enumerate(files)})
    index, tokens = _parts(codebase, mask=False)
    setting = engine.ChunkSettings.build(size, min(overlap, size - 1), None)
    chunks = _chunks(index, setting)
    scorer = ChunkBM25(tokens, queries, k1=k1, b=b)
    expected = _reference(tokens, chunks, queries, depth, k1=k1, b=b)
    np.testing.assert_array_equal(scorer.rankings(chunks, depth), expected)
    if len(chunks):  # (bm25s is given no empty corpus)
        _same_scores(scorer, _indexed(tokens, chunks, k1=k1, b=b), chunks, queries)


def test_the_probe_scores_each_setting_from_one_set_of_tokens() -> None:
    prepared = ProbeSet(engine.Codebase(sample_codebase()))
    first = probe_frame(prepared, engine.ChunkSettings.build(30, 0, None))
    built = prepared._bm25
    again = probe_frame(prepared, engine.ChunkSettings.build(10, 2, None))
    assert prepared._bm25 is built  # queries and occurrences kept for the next setting
    assert first.attrs["chunks"] != again.attrs["chunks"]
    # A searcher with other BM25 parameters gets its own scoring, equal to bm25s's over the chunks' texts
    # (a tokenizer other than code_tokens itself makes the probe index texts with bm25s).
    setting = engine.ChunkSettings.build(10, 2, None)
    other = probe_frame(prepared, setting, Probe(searcher=BM25Searcher(k1=0.5, b=0.2)))
    assert prepared._bm25 is not built and (prepared._bm25.k1, prepared._bm25.b) == (0.5, 0.2)
    texts = probe_frame(prepared, setting, Probe(searcher=BM25Searcher(lambda text: code_tokens(text), k1=0.5, b=0.2)))
    assert other["rank"].notna().any()
    pd.testing.assert_series_equal(other["rank"], texts["rank"])
    pd.testing.assert_series_equal(other["precision"], texts["precision"])
