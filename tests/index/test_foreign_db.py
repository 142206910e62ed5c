"""Databases clanka-nb did not write as expected: one error of ours naming the problem and the fix, file unchanged."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import apsw
import pytest
import sqlite_vec

import clanka_nb as cn
from clanka_nb.index import IndexDatabaseError, SemanticIndex, VectorCache, embedders

from .conftest import Counting

CHUNKS = ("CREATE TABLE chunks (id INTEGER PRIMARY KEY AUTOINCREMENT, path TEXT NOT NULL, content TEXT NOT NULL, "
          "hash TEXT NOT NULL, vector BLOB NOT NULL, syncId TEXT NOT NULL)")  # clanka's migration 0001


def _state(path: Path) -> tuple[bytes, int]:
    return path.read_bytes(), path.stat().st_mtime_ns


def _built(sample: Path, tmp_path: Path, dimensions: int = 8) -> Path:
    db = tmp_path / "search.sqlite"
    index = SemanticIndex(sample, embed=Counting(dimensions), db=db, cache=VectorCache())
    index.sync()
    index.close()
    return db


def _edit(db: Path, *statements: str) -> None:
    """Change the database behind clanka-nb's back, with sqlite-vec loaded as clanka has it."""
    connection = apsw.Connection(str(db))
    connection.enable_load_extension(True)
    connection.load_extension(sqlite_vec.loadable_path())
    for statement in statements:
        connection.execute(statement)
    connection.close()


def _every_way_in_fails(sample: Path, db: Path, message: str, dimensions: int = 8) -> None:
    """SemanticIndex(), its sync(), open_index() and its reads: each one IndexDatabaseError; the file as it was."""
    before = _state(db)
    with pytest.raises(IndexDatabaseError, match=message):
        SemanticIndex(sample, embed=Counting(dimensions), db=db, cache=VectorCache()).sync()
    with pytest.raises(IndexDatabaseError, match=message), cn.open_index(db, embed=Counting(dimensions)) as opened:
        opened.rows()
        opened.search("price")
    assert _state(db) == before


def test_a_vec0_table_of_another_dimension(sample, tmp_path):
    db = _built(sample, tmp_path)
    _edit(db, "DROP TABLE chunk_vectors", "CREATE VIRTUAL TABLE chunk_vectors USING vec0(vector float[16])")
    _every_way_in_fails(sample, db, r"chunk_vectors .*16-dimensional.* 8-dimensional")


def test_chunk_vectors_as_a_plain_table(sample, tmp_path):
    db = _built(sample, tmp_path)
    _edit(db, "DROP TABLE chunk_vectors", "CREATE TABLE chunk_vectors (vector BLOB)",
          "INSERT INTO chunk_vectors SELECT vector FROM chunks")
    _every_way_in_fails(sample, db, r"chunk_vectors is not .*vec0")


def test_a_vector_blob_of_five_bytes(sample, tmp_path):
    db = tmp_path / "search.sqlite"
    with sqlite3.connect(db) as connection:
        connection.execute(CHUNKS)
        connection.execute("INSERT INTO chunks (path, content, hash, vector, syncId) VALUES ('a.ts', 'x', 'h', "
                           "x'0102030405', 's')")
    connection.close()
    _every_way_in_fails(sample, db, r"5-byte vector")


def test_vectors_of_two_lengths_without_a_vec0_table(sample, tmp_path):
    db = tmp_path / "search.sqlite"
    with sqlite3.connect(db) as connection:
        connection.execute(CHUNKS)
        connection.executemany("INSERT INTO chunks (path, content, hash, vector, syncId) VALUES ('a.ts', 'x', ?, ?, "
                               "'s')", [("h1", bytes(32)), ("h2", bytes(64))])
    connection.close()
    _every_way_in_fails(sample, db, r"8-dimensional .*16-dimensional|16-dimensional .*8-dimensional")


def test_a_folder_as_db(sample, tmp_path):
    folder = tmp_path / "not-a-file"
    folder.mkdir()
    with pytest.raises(IndexDatabaseError, match="is a folder"):
        SemanticIndex(sample, embed=Counting(), db=folder)
    assert list(folder.iterdir()) == []


def test_corrupt_pages(sample, tmp_path):
    db = _built(sample, tmp_path)
    page = 4096
    raw = bytearray(db.read_bytes())
    assert len(raw) >= 8 * page
    noise = random.Random(7)
    for start in range(2 * page, len(raw), 3 * page):  # every third page from the third on: headers and cells
        raw[start : start + page] = bytes(noise.randrange(256) for _ in range(page))
    db.write_bytes(bytes(raw))
    _every_way_in_fails(sample, db, "damaged")


def test_an_embedder_over_sqlite_vecs_largest_dimension(sample, tmp_path):
    db = tmp_path / "search.sqlite"
    index = SemanticIndex(sample, embed=embedders.hashed_words(8200), db=db, cache=VectorCache())
    before = _state(db)
    with pytest.raises(IndexDatabaseError, match=r"8200-dimensional.* 8192.*dimensions="):
        index.sync()
    index.close()
    assert _state(db) == before



@pytest.mark.parametrize("trigger", [
    # Runs on every row sync() writes: a raw SQLite error, or (with a recursive query) a sync that never ends.
    "CREATE TRIGGER audit BEFORE INSERT ON chunks BEGIN SELECT RAISE(ABORT, 'no'); END",
    # One of clanka's own names, another body: CREATE TRIGGER IF NOT EXISTS would keep it.
    "DROP TRIGGER chunks_vector_insert; CREATE TRIGGER chunks_vector_insert AFTER INSERT ON chunks "
    "BEGIN SELECT RAISE(ABORT, 'no'); END",
])
def test_a_trigger_clanka_does_not_make_is_refused_before_anything_is_written(sample, tmp_path, trigger):
    db = _built(sample, tmp_path)
    _edit(db, trigger)
    (sample / "new_file.ts").write_text("export function added() { return 1; }\n")  # so sync writes a row
    before = _state(db)
    with pytest.raises(IndexDatabaseError, match=r"trigger .* not clanka's.*DROP TRIGGER"):
        SemanticIndex(sample, embed=Counting(8), db=db, cache=VectorCache()).sync()
    assert _state(db) == before
