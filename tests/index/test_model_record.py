"""Vectors never outlive their model: the model is recorded beside clanka's tables, and rows this toolkit did not
write with this model are embedded again (issue 50, item 2)."""

from __future__ import annotations

from pathlib import Path

import apsw
import numpy as np
import pytest
import sqlite_vec

import clanka_nb as cn
from clanka_nb.index import SemanticIndex, VectorCache, embedders

from .conftest import Counting


class Other(Counting):
    """Another stand-in model of the same width: the hashed-words vectors, negated (not a language model)."""

    def __init__(self, dimensions: int = 16) -> None:
        super().__init__(dimensions)
        self.model_id = f"other-model-{dimensions}"

    def __call__(self, texts: list[str]) -> np.ndarray:
        return -super().__call__(texts)


def _vectors(db: Path) -> dict[str, np.ndarray]:
    """input -> stored vector, from chunks and from the vec0 table that search reads."""
    with cn.open_index(db) as index:
        ids, vectors = index.vectors()
        inputs = dict(index._db.execute("SELECT id, content FROM chunks").fetchall())
        searched = dict(index._db.execute("SELECT rowid, vector FROM chunk_vectors").fetchall())
    for row, vector in zip(ids, vectors, strict=True):
        assert np.frombuffer(searched[int(row)], dtype=np.float32).tolist() == vector.tolist()
    return {inputs[int(row)]: vector for row, vector in zip(ids, vectors, strict=True)}


def _all_of(model: Counting, db: Path) -> bool:
    stored = _vectors(db)
    texts = list(stored)
    return bool(stored) and np.array_equal(np.stack([stored[t] for t in texts]), model.inner(texts) * (
        -1 if isinstance(model, Other) else 1))


def _edit(db: Path, *statements: str) -> None:
    connection = apsw.Connection(str(db))
    connection.enable_load_extension(True)
    connection.load_extension(sqlite_vec.loadable_path())
    for statement in statements:
        connection.execute(statement)
    connection.close()


def test_another_model_of_the_same_width_re_embeds_every_row(sample, tmp_path):
    db = tmp_path / "search.sqlite"
    first = Counting(16)
    with SemanticIndex(sample, embed=first, db=db, cache=VectorCache()) as index:
        built = index.sync()
    assert _all_of(first, db)
    other = Other(16)
    with SemanticIndex(sample, embed=other, db=db, cache=VectorCache()) as index:
        switched = index.sync()
        again = index.sync()
    assert switched.embedded == built.inputs and switched.reused == 0 and switched.deleted == built.inputs
    assert _all_of(other, db)  # every row, in chunks and in the vec0 table: none of the first model's is left
    assert again.embedded == 0 and again.reused == built.inputs  # then it is this model's index, kept as it is
    with SemanticIndex(sample, embed=Other(16), db=db, cache=VectorCache()) as index:  # a new process, as it were
        assert index.sync().embedded == 0


def test_a_shipped_database_with_planted_vectors_is_embedded_again(sample, tmp_path):
    """A repository's own `.clanka/search.sqlite`: clanka's schema, the right inputs and hashes, its own vectors."""
    db = sample / ".clanka" / "search.sqlite"
    planter = Counting(16)
    with SemanticIndex(sample, embed=planter, db=db, cache=VectorCache()) as index:
        index.sync()
    _edit(db, "DROP TABLE clanka_nb_index", "UPDATE chunks SET vector = zeroblob(64)")  # as another tool writes it
    model = Other(16)
    cache = VectorCache()
    with SemanticIndex(sample, embed=model, db=db, cache=cache) as index:
        report = index.sync()
    assert report.reused == 0 and report.embedded == report.inputs > 0
    assert _all_of(model, db)
    # Embedded again means from the vector cache first: the model's own vectors cost no call the second time.
    _edit(db, "DROP TABLE clanka_nb_index")
    again = Other(16)
    with SemanticIndex(sample, embed=again, db=db, cache=cache) as index:
        report = index.sync()
    assert report.embedded == 0 and report.cached == report.inputs and again.calls == 0
    assert _all_of(model, db)


def test_a_record_kept_over_changed_rows_is_not_trusted(sample, tmp_path):
    """The record is keyed over every row: a vector changed after this toolkit wrote it (in chunks or in the vec0
    table search reads), with the record left in place, is found and embedded again."""
    db = tmp_path / "search.sqlite"
    model = Counting(16)
    with SemanticIndex(sample, embed=model, db=db, cache=VectorCache()) as index:
        built = index.sync()
    for statement in ("UPDATE chunks SET vector = zeroblob(64) WHERE id = (SELECT min(id) FROM chunks)",
                      "UPDATE chunk_vectors SET vector = zeroblob(64) WHERE rowid = (SELECT max(id) FROM chunks)"):
        _edit(db, statement)
        with SemanticIndex(sample, embed=Counting(16), db=db, cache=VectorCache()) as index:
            report = index.sync()
        assert report.reused == 0 and report.embedded == built.inputs
        assert _all_of(model, db)


def test_a_record_copied_from_another_index_is_not_trusted(sample, tmp_path):
    """A record this user wrote, copied into another file (say, one published in a repository) vouches for nothing
    there."""
    model = Counting(16)
    mine, planted = tmp_path / "mine.sqlite", tmp_path / "planted.sqlite"
    for db in (mine, planted):
        with SemanticIndex(sample, embed=model, db=db, cache=VectorCache()) as index:
            index.sync()
    _edit(planted, "UPDATE chunks SET vector = zeroblob(64)", f"ATTACH '{mine}' AS mine",
          "DELETE FROM clanka_nb_index", "INSERT INTO clanka_nb_index SELECT * FROM mine.clanka_nb_index")
    with SemanticIndex(sample, embed=Counting(16), db=planted, cache=VectorCache()) as index:
        assert index.sync().reused == 0
    assert _all_of(model, planted)


def test_update_file_reuses_no_untrusted_vector_and_vouches_for_none(sample, tmp_path):
    db = tmp_path / "search.sqlite"
    with SemanticIndex(sample, embed=Counting(16), db=db, cache=VectorCache()) as index:
        index.sync()
    _edit(db, "UPDATE chunks SET vector = zeroblob(64)")
    model = Other(16)
    with SemanticIndex(sample, embed=model, db=db, cache=VectorCache()) as index:
        report = index.update_file("src/pricing.ts")
        assert report.reused == 0 and report.embedded == report.inputs > 0
        rows = index.rows()
        _, vectors = index.vectors()
        mine = (rows["path"] == "src/pricing.ts").to_numpy()
        assert np.array_equal(vectors[mine], -model.inner(list(rows["input"][mine])))
        index.sync()  # the next sync replaces the other files' rows
    assert _all_of(model, db)


def test_clanka_still_reads_the_index_and_finds_only_its_own_schema_beside_the_record(sample, tmp_path):
    db = tmp_path / "search.sqlite"
    model = Counting(16)
    with SemanticIndex(sample, embed=model, db=db, cache=VectorCache()) as index:
        index.sync()
    connection = apsw.Connection(str(db), flags=apsw.SQLITE_OPEN_READONLY)
    connection.enable_load_extension(True)
    connection.load_extension(sqlite_vec.loadable_path())
    names = {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE sql IS NOT NULL")}
    assert names - {"chunks", "idx_chunks_hash", "sqlite_sequence", "chunks_vector_insert", "chunks_vector_update",
                    "chunks_vector_delete"} - {n for n in names if n.startswith("chunk_vectors")} == {"clanka_nb_index"}
    # clanka's own KNN query (ChunkRepo.search), word for word, on the file as written here.
    query = embedders.hashed_words(16)(["the price with a discount"])[0]
    found = connection.execute(
        """select chunks.path, chunks.content, chunk_vectors.distance
          from chunk_vectors
          JOIN chunks ON chunks.id = chunk_vectors.rowid
          WHERE chunk_vectors.vector MATCH ?
          AND k = CAST(? AS INTEGER)
          ORDER BY chunk_vectors.distance""", (query.astype(np.float32).tobytes(), 5)).fetchall()
    connection.close()
    assert len(found) == 5


def test_an_unsafe_key_file_stops_a_sync_with_its_own_error_and_writes_nothing(sample, tmp_path, monkeypatch):
    from clanka_nb.engine._cache_files import KEY_FILE_NAME

    config = tmp_path / "config"
    config.mkdir()
    (config / KEY_FILE_NAME).write_bytes(bytes(32))
    (config / KEY_FILE_NAME).chmod(0o644)  # others may read it: they could forge a record
    monkeypatch.setenv("CLANKA_NB_CONFIG_DIR", str(config))
    monkeypatch.setenv("CLANKA_NB_CACHE", "off")  # the parse cache would refuse the key too (and warn)
    db = tmp_path / "search.sqlite"
    with SemanticIndex(sample, embed=Counting(16), db=db, cache=VectorCache()) as index:
        with pytest.raises(OSError, match=r"open to others.*chmod 600"):
            index.sync()
        assert len(index) == 0
