"""SQLite with sqlite-vec loaded (through apsw), and clanka's schema for `.clanka/search.sqlite`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

_INSTALL = "install the index extra: pip install 'clanka-nb[index]' (it brings apsw and sqlite-vec)"

# clanka's migration 0001_create_chunks and ChunkRepo's vec0 table and triggers, statement for statement.
CHUNKS_TABLE = """CREATE TABLE IF NOT EXISTS chunks (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          path TEXT NOT NULL,
          content TEXT NOT NULL,
          hash TEXT NOT NULL,
          vector BLOB NOT NULL,
          syncId TEXT NOT NULL
        )"""
HASH_INDEX = "CREATE INDEX IF NOT EXISTS idx_chunks_hash ON chunks (hash)"
VECTOR_TABLE = """CREATE VIRTUAL TABLE IF NOT EXISTS chunk_vectors USING vec0(
        vector float[{dimensions}]
      )"""
TRIGGERS = (
    """CREATE TRIGGER IF NOT EXISTS chunks_vector_insert
        AFTER INSERT ON chunks
        BEGIN
          INSERT INTO chunk_vectors(rowid, vector) VALUES (new.id, new.vector);
        END""",
    """CREATE TRIGGER IF NOT EXISTS chunks_vector_update
        AFTER UPDATE OF vector ON chunks
        BEGIN
          DELETE FROM chunk_vectors WHERE rowid = old.id;
          INSERT INTO chunk_vectors(rowid, vector) VALUES (new.id, new.vector);
        END""",
    """CREATE TRIGGER IF NOT EXISTS chunks_vector_delete
        AFTER DELETE ON chunks
        BEGIN
          DELETE FROM chunk_vectors WHERE rowid = old.id;
        END""",
)
# clanka runs these on start so rows written before the vec0 table existed become searchable.
BACKFILL = (
    "DELETE FROM chunk_vectors WHERE rowid NOT IN (SELECT id FROM chunks)",
    """INSERT INTO chunk_vectors(rowid, vector)
        SELECT id, vector FROM chunks
        WHERE id NOT IN (SELECT rowid FROM chunk_vectors)""",
)
CHUNK_COLUMNS = ("id", "path", "content", "hash", "vector", "syncId")
_DIMENSIONS = re.compile(r"float\[\s*(\d+)\s*\]", re.IGNORECASE)


def _apsw() -> Any:
    try:
        import apsw
        import sqlite_vec
    except ImportError as error:
        msg = f"the semantic index needs apsw and sqlite-vec ({error.name} is missing); {_INSTALL}"
        raise ImportError(msg) from error
    return apsw, sqlite_vec


def connect(path: str | Path, *, read_only: bool = False, must_exist: bool = False) -> Any:
    """An apsw connection with sqlite-vec loaded; `must_exist` refuses to create a new file."""
    apsw, sqlite_vec = _apsw()
    name = str(path)
    if name != ":memory:":
        file = Path(name)
        if must_exist and not file.is_file():
            msg = (
                f"no index database at {name!r}; clanka writes it to .clanka/search.sqlite under the folder it "
                "indexes: pass that file, or build one with cn.SemanticIndex(source, embed=..., db=path).sync()"
            )
            raise FileNotFoundError(msg)
        if not read_only:
            file.parent.mkdir(parents=True, exist_ok=True)
    flags = apsw.SQLITE_OPEN_READONLY if read_only else apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE
    connection = apsw.Connection(name, flags=flags)
    connection.enable_load_extension(True)
    connection.load_extension(sqlite_vec.loadable_path())
    connection.enable_load_extension(False)
    return connection


def tables(connection: Any) -> dict[str, str]:
    """name -> CREATE statement of every table in the database."""
    try:
        rows = connection.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'").fetchall()
    except _apsw()[0].NotADBError as error:
        msg = f"the file is not an SQLite database ({error}); pass clanka's .clanka/search.sqlite"
        raise ValueError(msg) from error
    return {name: sql or "" for name, sql in rows}


def check_clanka(connection: Any, where: str) -> None:
    """Raise unless the database has clanka's `chunks` table (an empty new database passes)."""
    found = tables(connection)
    if not found:
        return
    if "chunks" not in found:
        msg = (
            f"{where} is an SQLite database but not a clanka index (no `chunks` table; it has "
            f"{', '.join(sorted(found)[:5])}); pass clanka's .clanka/search.sqlite or a new file"
        )
        raise ValueError(msg)
    columns = tuple(row[1] for row in connection.execute("PRAGMA table_info(chunks)").fetchall())
    if columns != CHUNK_COLUMNS:
        msg = (
            f"{where} has a `chunks` table with columns {columns}, not clanka's {CHUNK_COLUMNS} "
            "(an index from an older clanka keeps startLine/endLine); let the current clanka rebuild it, "
            "or pass a new file"
        )
        raise ValueError(msg)


def stored_dimensions(connection: Any) -> int | None:
    """The vec0 table's dimension, else the byte length of a stored vector / 4, else None (no rows)."""
    sql = tables(connection).get("chunk_vectors")
    if sql:
        match = _DIMENSIONS.search(sql)
        if match:
            return int(match.group(1))
    row = connection.execute("SELECT length(vector) FROM chunks LIMIT 1").fetchone() if "chunks" in tables(
        connection
    ) else None
    return None if row is None else row[0] // 4


def create_schema(connection: Any, dimensions: int) -> None:
    """clanka's migration, vec0 table, triggers and backfill, in one transaction."""
    with connection:
        connection.execute(CHUNKS_TABLE)
        connection.execute(HASH_INDEX)
        connection.execute(VECTOR_TABLE.format(dimensions=int(dimensions)))
        for statement in (*TRIGGERS, *BACKFILL):
            connection.execute(statement)
