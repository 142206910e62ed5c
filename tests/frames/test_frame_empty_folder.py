"""An empty folder gives empty frames with the usual columns, one warning saying it holds no files (issue 28.3),
and no warning from numpy or bm25s."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import clanka_nb as cn
from clanka_nb import engine, frames
from clanka_nb.retrieval import FlatRecallWarning, NoProbeQueriesWarning, probe, probe_queries, probe_summary

SETTINGS = {"chunk_size": [10, 20, 30, 40], "chunk_overlap": [0, 5]}


@pytest.fixture
def empty(tmp_path: Path) -> Path:
    return tmp_path


@pytest.fixture
def sample_columns() -> dict[str, list[str]]:
    """The columns each function gives on a codebase that has chunks and queries."""
    codebase = engine.Codebase.from_texts({"a.ts": "/** Adds two numbers together. */\nexport function add() {}\n"})
    with warnings.catch_warnings():  # one query finds the same at every setting: the flat-recall warning, expected
        warnings.simplefilter("ignore", FlatRecallWarning)
        swept = cn.sweep(codebase, **SETTINGS, probe=True, progress=False)
    return {
        "sweep": list(swept.columns),
        "probe": list(probe(codebase).columns),
        "queries": list(probe_queries(codebase).columns),
        "chunks": list(frames.chunk_codebase(codebase, progress=False).columns),
        "files": list(frames.files(codebase).columns),
        "coverage": list(frames.coverage(codebase).columns),
    }


def test_no_other_warning_than_no_files_without_the_probe(empty: Path, sample_columns: dict[str, list[str]]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("always", engine.NothingToChunkWarning)
        with pytest.warns(engine.NothingToChunkWarning, match="no files to chunk under") as caught:
            table = cn.sweep(empty, **SETTINGS, progress=False)
            chunks = frames.chunk_codebase(empty, progress=False)
            listed = frames.files(empty)
            covered = frames.coverage(empty)
    assert {type(w.message) for w in caught} == {engine.NothingToChunkWarning} and len(caught) == 4  # one a call
    assert len(table) == 8 and (table["chunks"] == 0).all() and table["lines_mean"].isna().all()
    assert chunks.empty and list(chunks.columns) == sample_columns["chunks"]
    assert listed.empty and list(listed.columns) == sample_columns["files"]
    assert covered.empty and list(covered.columns) == sample_columns["coverage"]


def test_the_probe_only_says_it_has_no_queries(empty: Path, sample_columns: dict[str, list[str]]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's "Mean of empty slice" (from bm25s) would fail here
        warnings.simplefilter("always", NoProbeQueriesWarning)
        warnings.simplefilter("ignore", engine.NothingToChunkWarning)  # said once a call: the test above
        with pytest.warns(NoProbeQueriesWarning, match="has no file with lines") as caught:
            table = cn.sweep(empty, **SETTINGS, probe=True, progress=False)
            frame = probe(empty)
            summary = probe_summary(frame)
            queries = probe_queries(empty)
    said = [w for w in caught if not isinstance(w.message, engine.NothingToChunkWarning)]  # the test above
    assert {type(w.message) for w in said} == {NoProbeQueriesWarning} and len(said) == 2
    assert list(table.columns) == sample_columns["sweep"]
    assert (table["queries"] == 0).all() and table["recall@5"].isna().all() and table["mrr"].isna().all()
    assert frame.empty and list(frame.columns) == sample_columns["probe"]
    assert queries.empty and list(queries.columns) == sample_columns["queries"]
    assert summary["queries"].iloc[0] == 0 and summary["recall@5"].isna().all()
