"""A planted index database runs no schema of its own: every object that is not clanka's is refused first.

Issue 50, item 4: only the `chunks` columns, its triggers and the vec0 table were checked, so a shipped
`.clanka/search.sqlite` with an index on an expensive expression held the write lock for hours, and a CHECK
constraint came back as a raw `apsw.ConstraintError`.
"""

from __future__ import annotations

from pathlib import Path

import apsw
import pytest
import sqlite_vec

import clanka_nb as cn
from clanka_nb.index import IndexDatabaseError, SemanticIndex, VectorCache, _db

from .conftest import Counting


def _built(sample: Path, tmp_path: Path) -> Path:
    db = tmp_path / "search.sqlite"
    with SemanticIndex(sample, embed=Counting(8), db=db, cache=VectorCache()) as index:
        index.sync()
    return db


def _edit(db: Path, *statements: str) -> None:
    connection = apsw.Connection(str(db))
    connection.enable_load_extension(True)
    connection.load_extension(sqlite_vec.loadable_path())
    for statement in statements:
        connection.execute(statement)
    connection.close()


def _state(path: Path) -> tuple[bytes, int]:
    return path.read_bytes(), path.stat().st_mtime_ns


CHECKED_CHUNKS = (
    "CREATE TABLE chunks (id INTEGER PRIMARY KEY AUTOINCREMENT, path TEXT NOT NULL, content TEXT NOT NULL, "
    "hash TEXT NOT NULL, vector BLOB NOT NULL, syncId TEXT NOT NULL, CHECK (length(path) < {}))"
)

PLANTED = {
    # An index on an expression runs for every row written (the cost 21 s per row; cheap here).
    "expression index": (("CREATE INDEX planted ON chunks (lower(content))",), r"index 'planted'"),
    "index on a shadow table": (("CREATE INDEX planted ON chunk_vectors_rowids (id + 1)",), r"index 'planted'"),
    # A CHECK constraint made every sync fail with a raw apsw.ConstraintError.
    "check constraint": (("ALTER TABLE chunks RENAME TO old", CHECKED_CHUNKS.format(1000),
                          "INSERT INTO chunks SELECT * FROM old", "DROP TABLE old"), r"table 'chunks'"),
    "trigger on a shadow table": (
        ("CREATE TRIGGER planted AFTER INSERT ON chunk_vectors_rowids BEGIN SELECT 1; END",), r"trigger 'planted'"),
    "view": (("CREATE VIEW planted AS SELECT * FROM chunks",), r"view 'planted'"),
    "table": (("CREATE TABLE planted (x)",), r"table 'planted'"),
    # A shadow table of sqlite-vec rewritten in the schema itself (writable_schema): its CHECK runs on every insert.
    "rewritten shadow table": (
        ("PRAGMA writable_schema = ON",
         "UPDATE sqlite_master SET sql = 'CREATE TABLE \"chunk_vectors_rowids\"(rowid INTEGER PRIMARY KEY "
         "AUTOINCREMENT,id,chunk_id INTEGER,chunk_offset INTEGER CHECK (chunk_offset < 0))' "
         "WHERE name = 'chunk_vectors_rowids'"),
        r"table 'chunk_vectors_rowids'"),
}


@pytest.mark.parametrize("planted", sorted(PLANTED))
def test_a_schema_object_clanka_does_not_make_is_refused_before_anything_is_written(sample, tmp_path, planted):
    statements, named = PLANTED[planted]
    db = _built(sample, tmp_path)
    _edit(db, *statements)
    (sample / "new_file.ts").write_text("export function added() { return 1; }\n")  # so sync writes a row
    before = _state(db)
    with pytest.raises(IndexDatabaseError, match=rf"{named} is not clanka's.*DROP .* if you trust the file") as caught:
        SemanticIndex(sample, embed=Counting(8), db=db, cache=VectorCache()).sync()
    assert "\n" not in str(caught.value)
    with pytest.raises(IndexDatabaseError, match=named):
        cn.open_index(db)
    assert _state(db) == before


def test_clankas_own_objects_and_its_migrators_table_are_accepted(sample, tmp_path):
    db = _built(sample, tmp_path)
    # What clanka's migrator (effect's SqliteMigrator) adds beside the migration's table, and ANALYZE's statistics.
    _edit(db, 'CREATE TABLE IF NOT EXISTS "effect_sql_migrations" (migration_id integer PRIMARY KEY NOT NULL, '
              "created_at datetime NOT NULL DEFAULT current_timestamp, name VARCHAR(255) NOT NULL)",
          "ANALYZE")
    with SemanticIndex(sample, embed=Counting(8), db=db, cache=VectorCache()) as index:
        assert index.sync().embedded == 0
        rows = len(index)
    with cn.open_index(db) as opened:
        assert len(opened.rows()) == rows > 0


def test_any_other_database_error_is_one_index_error(sample, tmp_path, monkeypatch):
    """Whatever SQLite refuses that the checks did not foresee is one IndexDatabaseError, not apsw's own."""
    db = _built(sample, tmp_path)
    _edit(db, "ALTER TABLE chunks RENAME TO old", CHECKED_CHUNKS.format(4), "DROP TABLE old")
    monkeypatch.setattr(_db, "_check_objects", lambda *args: None)  # as if the check had missed it
    with pytest.raises(IndexDatabaseError, match=r"SQLite refused .*ConstraintError.*CHECK constraint failed"):
        SemanticIndex(sample, embed=Counting(8), db=db, cache=VectorCache()).sync()


def test_a_write_that_runs_past_the_deadline_is_stopped_and_rolled_back(sample, tmp_path, monkeypatch):
    """The backstop for what the schema check cannot see: SQLite's progress handler stops a write at DEADLINE."""
    db = _built(sample, tmp_path)
    # About a few ms per row: every row a sync inserts pays it (a sync of the whole sample: hundreds of rows).
    _edit(db, "CREATE INDEX planted ON chunks (length(replace(hex(zeroblob(2000000)), '0', 'ab')))")
    for path in sorted(sample.rglob("*.ts")):
        path.write_text("// shifted\n" + path.read_text())  # every input new: a sync inserts every row
    before = _state(db)
    monkeypatch.setattr(_db, "_check_objects", lambda *args: None)
    monkeypatch.setattr(_db, "DEADLINE", 0.05)
    with pytest.raises(IndexDatabaseError, match=r"longer than 0.05 s and was stopped"):
        SemanticIndex(sample, embed=Counting(8), db=db, cache=VectorCache()).sync()
    assert _state(db) == before


def test_an_index_used_after_close_says_so(sample, tmp_path):
    db = _built(sample, tmp_path)
    index = SemanticIndex(sample, embed=Counting(8), db=db, cache=VectorCache())
    index.close()
    with pytest.raises(IndexDatabaseError, match=r"was closed .*open it again"):
        index.sync()
