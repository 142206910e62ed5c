"""Bad databases, bad embedders and bad arguments: a clear error naming the fix, and the database unchanged."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

import clanka_nb as cn
from clanka_nb.index import SemanticIndex, VectorCache

from .conftest import Counting


def _snapshot(db) -> list:
    index = cn.open_index(db)
    try:
        ids, vectors = index.vectors()
        return [*map(tuple, index.rows().itertuples(index=False)), ids.tolist(), vectors.tolist()]
    finally:
        index.close()


class FailsAfter:
    """Embeds `good` batches with the stand-in, then raises: a model server dying mid-sync."""

    def __init__(self, good: int) -> None:
        self.inner = Counting()
        self.model_id = "stand-in/fails-after"
        self.good = good

    def __call__(self, texts):
        if self.good == 0:
            raise ConnectionError("the model server went away")
        self.good -= 1
        return self.inner(texts)


def test_a_failed_sync_leaves_the_database_as_it_was(sample, tmp_path):
    db = tmp_path / "search.sqlite"
    SemanticIndex(sample, embed=Counting(), db=db, cache=VectorCache()).sync()
    before = _snapshot(db)
    for path in sorted(sample.rglob("*.ts")):
        path.write_text("// shifted\n" + path.read_text())
    index = SemanticIndex(sample, embed=FailsAfter(1), db=db, cache=VectorCache(), batch_size=5)
    with pytest.raises(ConnectionError):
        index.sync()
    index.close()
    assert _snapshot(db) == before


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (lambda texts: np.zeros((len(texts) + 1, 8)), "one row per text"),
        (lambda texts: np.zeros(len(texts)), "one row per text"),
        (lambda texts: np.full((len(texts), 8), np.nan), "NaN"),
        (lambda texts: [["a"] * 8 for _ in texts], "not numbers"),
    ],
)
def test_a_bad_embedder_is_refused_and_nothing_is_stored(sample, tmp_path, answer, message):
    db = tmp_path / "search.sqlite"
    SemanticIndex(sample, embed=Counting(8), db=db, cache=VectorCache()).sync()
    before = _snapshot(db)
    (sample / "src" / "index.ts").write_text("export const changed = 2\n")
    index = SemanticIndex(sample, embed=answer, db=db, cache=VectorCache())
    with pytest.raises(ValueError, match=message):
        index.sync()
    index.close()
    assert _snapshot(db) == before


def test_an_embedder_of_another_dimension_is_refused(sample, tmp_path):
    db = tmp_path / "search.sqlite"
    SemanticIndex(sample, embed=Counting(8), db=db, cache=VectorCache()).sync()
    before = _snapshot(db)
    (sample / "src" / "index.ts").write_text("export const changed = 2\n")
    other = SemanticIndex(sample, embed=Counting(12), db=db, cache=VectorCache())
    with pytest.raises(ValueError, match=r"12-dimensional .* stores 8"):
        other.sync()
    with pytest.raises(ValueError, match=r"12-dimensional .* stores 8"):
        other.search("anything")
    other.close()
    assert _snapshot(db) == before


def test_not_a_clanka_database(sample, tmp_path):
    db = tmp_path / "other.sqlite"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE notes (body TEXT)")
    connection.close()
    with pytest.raises(ValueError, match="not a clanka index"):
        SemanticIndex(sample, embed=Counting(), db=db)
    with pytest.raises(ValueError, match="not a clanka index"):
        cn.open_index(db)


def test_an_older_clanka_schema_is_named(tmp_path):
    db = tmp_path / "old.sqlite"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE chunks (id INTEGER PRIMARY KEY, path TEXT, startLine INTEGER, endLine "
                           "INTEGER, content TEXT, hash TEXT, vector BLOB, syncId TEXT)")
    connection.close()
    with pytest.raises(ValueError, match="startLine/endLine"):
        cn.open_index(db)


def test_a_file_that_is_not_sqlite(tmp_path):
    db = tmp_path / "search.sqlite"
    db.write_bytes(b"this is not a database at all, just some bytes" * 40)
    with pytest.raises(ValueError, match="not an SQLite database"):
        cn.open_index(db)
    assert db.read_bytes() == b"this is not a database at all, just some bytes" * 40


def test_a_missing_database(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"\.clanka/search\.sqlite"):
        cn.open_index(tmp_path / "nope.sqlite")
    with pytest.raises(FileNotFoundError, match="no index database"):
        cn.open_index(tmp_path)  # a folder without .clanka/


def test_bad_arguments(sample):
    with pytest.raises(TypeError, match="callable"):
        SemanticIndex(sample, embed="text-embedding-3-small")
    with pytest.raises(NotADirectoryError, match="not a folder"):
        SemanticIndex(sample / "nope", embed=Counting())
    index = SemanticIndex(sample, embed=Counting(), cache=VectorCache())
    index.sync()
    with pytest.raises(ValueError, match="limit must be"):
        index.search("x", limit=0)
    with pytest.raises(ValueError, match="non-empty"):
        index.search("  ")
    with pytest.raises(TypeError, match="chunk_size"):
        SemanticIndex(sample, embed=Counting(), chunk_size="30")


def test_searching_without_an_embedder_says_how(sample, tmp_path):
    db = tmp_path / "search.sqlite"
    SemanticIndex(sample, embed=Counting(), db=db, cache=VectorCache()).sync()
    with pytest.raises(ValueError, match="pass embed="):
        cn.open_index(db).search("query")
