"""The per-setting helper a sweep calls agrees with separate probe calls."""

from __future__ import annotations

from pathlib import Path

import pytest

from clanka_nb import engine
from clanka_nb.retrieval import Probe
from clanka_nb.retrieval.scoring._probe import ProbeSet, probe, probe_columns, probe_summary
from clanka_nb.retrieval.search._search import BM25Searcher

SAMPLE = Path(__file__).parents[2] / "clanka_nb" / "sample"
SETTINGS = [(10, 0, None), (30, 0, None), (20, 5, 800), (60, 10, None)]


@pytest.fixture(scope="module")
def codebase() -> engine.Codebase:
    return engine.Codebase(SAMPLE)


def test_probe_columns_agree_with_separate_probe_calls_in_any_order(codebase):
    prepared = ProbeSet(codebase)
    options = Probe(searcher=BM25Searcher())  # one searcher re-indexed at every setting, as a sweep does
    columns = {combo: probe_columns(prepared, engine.ChunkSettings.build(*combo), options) for combo in SETTINGS[::-1]}
    for size, overlap, limit in SETTINGS:
        alone = probe(codebase, chunk_size=size, chunk_overlap=overlap, chunk_max_characters=limit)
        expected = probe_summary(alone).iloc[0].to_dict()
        got = columns[size, overlap, limit]
        assert list(got) == ["queries", "recall@1", "recall@5", "recall@10", "mrr", "precision", "tokens@1",
                             "tokens@5", "tokens@10", "lines@1", "lines@5", "lines@10", "budget_found@2000",
                             "budget_covered@2000"]  # fmt: skip
        assert got == pytest.approx(expected)
        assert type(got["queries"]) is int and got["queries"] == len(alone)
        assert all(type(value) is float for name, value in got.items() if name != "queries")


def test_probe_columns_follow_k(codebase):
    got = probe_columns(ProbeSet(codebase), engine.ChunkSettings.build(30), Probe(k=(3, 5)))
    assert list(got) == ["queries", "recall@3", "recall@5", "mrr", "precision", "tokens@3", "tokens@5", "lines@3",
                         "lines@5", "budget_found@2000", "budget_covered@2000"]  # fmt: skip
    assert got["recall@3"] <= got["recall@5"]


def test_sweep_probe_columns_equal_separate_probe_calls(codebase):
    from clanka_nb import sweep

    table = sweep(codebase, chunk_size=[10, 30], chunk_overlap=[0, 5], probe=True, progress=False)
    assert {"queries", "recall@1", "recall@5", "recall@10", "mrr", "precision"} <= set(table.columns)
    assert str(table["recall@5"].dtype) == "Float64" and str(table["queries"].dtype) == "Int64"
    for row in table.itertuples(index=False):
        alone = probe_summary(probe(codebase, chunk_size=row.chunk_size, chunk_overlap=row.chunk_overlap))
        assert row.queries == alone["queries"].iloc[0]
        assert table.loc[(table.chunk_size == row.chunk_size) & (table.chunk_overlap == row.chunk_overlap),
                         ["recall@5", "mrr", "precision"]].iloc[0].tolist() == pytest.approx(
            alone[["recall@5", "mrr", "precision"]].iloc[0].tolist())


def test_sweep_without_probe_has_no_probe_columns(codebase):
    from clanka_nb import sweep

    table = sweep(codebase, chunk_size=[30], progress=False)
    assert "recall@5" not in table.columns and "mrr" not in table.columns
