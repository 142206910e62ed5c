"""`cn.sweep(chunkers=...)`: whole chunkers as rows beside the engine's, scored through the same probe set, with
one verdict over all rows (issue 37)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import clanka_nb as cn
from clanka_nb.bundled import sample_codebase
from clanka_nb.retrieval import FlatRecallWarning
from tests.chunkers._files import need_peer

pytest.importorskip("bm25s")

# What only the cutting decides: equal on the engine's row and the clanka adapter's at the same settings.
SAME = ["chunks", "lines_mean", "lines_p95", "characters_mean", "characters_p95", "est_tokens_total", "coverage",
        "duplication", "queries", "recall@1", "recall@5", "mrr", "tokens@5", "lines@5", "budget_found@2000",
        "budget_found@2000_low", "budget_found@2000_high", "budget_covered@2000", "budget_covered@2000_low",
        "budget_covered@2000_high"]  # fmt: skip
ENGINE_ONLY = ["chunk_size", "chunk_overlap", "effective_size", "effective_overlap", "clamped", "split_declarations"]


@pytest.fixture(scope="module")
def sample_table() -> pd.DataFrame:
    return cn.sweep(sample_codebase(), chunk_size=[20, 40], probe=True, progress=False, chunkers={
        "clanka at 40": cn.chunkers.clanka(40), "windows": cn.chunkers.line_windows(40),
        "halves": halves})  # fmt: skip


def halves(path: str, text: str) -> list[tuple[int, int]]:
    """A user's chunker: each file in two halves of its lines."""
    count = max(1, text.count("\n") + (0 if text.endswith("\n") else 1))
    middle = max(1, count // 2)
    return [(1, middle)] if count == 1 else [(1, middle), (middle + 1, count)]


def test_the_engine_rows_then_one_per_chunker(sample_table: pd.DataFrame) -> None:
    # The grid's rows, clanka's own setting (issue 53: every probed sweep scores it), then the chunkers.
    assert sample_table["chunker_label"].tolist() == ["clanka"] * 3 + ["clanka at 40", "windows", "halves"]
    assert sample_table["reference"].tolist() == [False, False, True, False, False, False]
    assert list(sample_table.columns[:3]) == ["chunker_label", "chunker_parameters", "fallback_files"]
    peers = sample_table.iloc[3:]
    assert peers[ENGINE_ONLY].isna().all().all()  # the engine's settings are not a peer's
    assert sample_table.iloc[:3][ENGINE_ONLY[:-1]].notna().all().all()
    assert json.loads(peers["chunker_parameters"].iloc[1])["chunk_size"] == 40
    assert (sample_table["seconds"] >= 0).all()


def test_the_clanka_adapter_s_row_equals_the_engine_s_at_the_same_settings(sample_table: pd.DataFrame) -> None:
    engine_row, adapter_row = sample_table.iloc[1], sample_table.iloc[3]
    assert engine_row["chunk_size"] == 40
    for column in SAME:
        assert engine_row[column] == pytest.approx(adapter_row[column], rel=1e-12, abs=1e-12), column


def test_a_user_callable_s_row(sample_table: pd.DataFrame) -> None:
    row = sample_table.iloc[5]
    assert row["chunks"] <= 2 * len(cn.list_files(sample_codebase())) and row["fallback_files"] == 0
    assert row["duplication"] == 1.0 and row["lines_p95"] > sample_table["lines_p95"].iloc[1]
    assert row["coverage"] == 1.0 and row["queries"] == sample_table["queries"].iloc[0]  # same queries


def test_one_verdict_names_rows_of_engine_and_chunkers(sample_table: pd.DataFrame) -> None:
    verdict = sample_table.attrs["verdict"]
    assert verdict["columns"] == list(range(len(sample_table)))
    message = verdict["message"]
    assert "chunker=" in message
    named = [label for label in ("chunker=clanka", "chunker=windows", "chunker=halves") if label in message]
    assert len(named) >= 2, message


def test_without_chunkers_the_table_has_no_chunker_column() -> None:
    table = cn.sweep(chunk_size=[20], progress=False)
    assert not {"chunker_label", "chunker_parameters", "fallback_files"} & set(table.columns)


def test_a_file_the_chunker_does_not_handle_falls_back_and_is_counted(tmp_path) -> None:
    (tmp_path / "a.ts").write_text("".join(f"export const v{i} = {i};\n" for i in range(50)))
    (tmp_path / "b.md").write_text("# Title\n\nSome words.\n")

    def ts_only(path: str, text: str) -> list[tuple[int, int]] | None:
        return [(1, 25), (26, 50)] if path.endswith(".ts") else None

    table = cn.sweep(tmp_path, chunk_size=[30], progress=False, chunkers={"ts only": ts_only})
    row = table.iloc[1]
    assert row["fallback_files"] == 1 and row["chunks"] == 3  # b.md in one window of clanka's line windows
    assert row["coverage"] == 1.0


def test_a_counter_counts_a_chunker_s_embedding_inputs(tmp_path) -> None:
    (tmp_path / "a.ts").write_text("".join(f"export const v{i} = {i};\n" for i in range(40)))
    table = cn.sweep(tmp_path, chunk_size=[40], token_counter=lambda text: len(text.split()), progress=False,
                     chunkers={"same": cn.chunkers.clanka(40)})  # fmt: skip
    assert table["tokens_total"].iloc[0] == table["tokens_total"].iloc[1]
    assert "est_tokens_total" not in table.columns


def test_a_peer_s_row() -> None:
    need_peer("astchunk")
    budget = cn.chunkers.Budget(800, characters_per_non_whitespace=1.25)  # 640 non-whitespace characters
    table = cn.sweep(sample_codebase(), chunk_size=[30], probe=True, progress=False,
                     chunkers={"astchunk": cn.chunkers.astchunk(budget)})  # fmt: skip
    row = table.iloc[2]  # after the grid's row and clanka's own setting's
    assert row["chunker_label"] == "astchunk" and row["chunks"] > 0
    assert json.loads(row["chunker_parameters"])["max_chunk_size"] == 640
    # astchunk parses TypeScript and JavaScript: the sample's other files (Markdown, JSON...) fall back.
    assert 0 < row["fallback_files"] < len(cn.list_files(sample_codebase()))
    assert row["queries"] == table["queries"].iloc[0] and 0 <= row["budget_covered@2000"] <= 1


@pytest.mark.parametrize(
    ("chunkers", "error", "words"),
    [
        ([cn.chunkers.line_windows()], TypeError, "dict of label -> chunker"),
        ({}, TypeError, "dict of label -> chunker"),
        ({"": cn.chunkers.line_windows()}, ValueError, "non-empty string"),
        ({"x": 3}, TypeError, "not callable"),
        ({"clanka": cn.chunkers.clanka()}, ValueError, "names the engine's own rows"),
    ],
)
def test_bad_chunkers_fail_once_with_the_fix(tmp_path, chunkers, error, words) -> None:
    with pytest.raises(error, match=words):
        cn.sweep(tmp_path / "not there", chunkers=chunkers, progress=False)  # checked before the source is opened


def test_dask_s_sweep_refuses_chunkers(tmp_path) -> None:
    pytest.importorskip("distributed")
    from clanka_nb.dask import sweep as dask_sweep

    with pytest.raises(TypeError, match=r"cn\.sweep\(root, chunkers="):
        dask_sweep(tmp_path, chunkers={"w": cn.chunkers.line_windows()})


def test_an_embedding_probe_scores_a_chunker_s_row_by_its_vectors(tmp_path) -> None:
    pytest.importorskip("sqlite_vec")
    from tests.retrieval.conftest import hashed_embed

    class Embedder:
        model_id = "test/chunker-rows"

        def __call__(self, texts):
            return hashed_embed(texts)

    for number in range(3):
        (tmp_path / f"documented{number}.ts").write_text(
            f"/** Merge the {number} retry policies of a client into one. */\n"
            f"export function merge{number}(a: number[], b: number[]) {{\n  return a.concat(b);\n}}\n"
        )
    with pytest.warns(FlatRecallWarning):  # the same chunks: the same recall, as it should be
        table = cn.sweep(tmp_path, chunk_size=[30], probe=cn.Probe(embed=Embedder()), progress=False,
                         chunkers={"same": cn.chunkers.clanka(30)})  # fmt: skip
    assert table["queries"].tolist() == [3, 3, 3]  # the grid's, clanka's own setting's, the chunker's
    assert table["mrr"].iloc[0] == table["mrr"].iloc[2]  # the same chunks, the same vectors


def test_clanka_as_a_chunker_takes_the_sweeps_language_mode_and_equals_its_row(tmp_path):
    # Issue 46 item 1: in extended mode the chunker labelled clanka cut Python into clanka-mode line windows.
    (tmp_path / "shop.py").write_text("def price(x):\n    return x * 2\n\n\nclass Cart:\n    def total(self):\n"
                                      "        return 3\n" + "\n".join(f"# line {i}" for i in range(40)) + "\n")
    for mode in ("clanka", "extended"):
        table = cn.sweep(tmp_path, chunk_size=[30], languages=mode, progress=False,
                         chunkers={"mine": cn.chunkers.clanka(30)})  # fmt: skip
        rows = table.set_index("chunker_label")
        assert rows.loc["mine", "chunks"] == rows.loc["clanka", "chunks"], mode
        assert json.loads(rows.loc["mine", "chunker_parameters"])["languages"] == mode
    named = cn.chunkers.named_chunkers(["clanka"], cn.chunkers.Budget(1200), languages="extended")
    assert list(named) == ["clanka (extended), at most 1200 chars"]
