"""SQLite with sqlite-vec loaded (through apsw), and clanka's schema for `.clanka/search.sqlite`."""

from __future__ import annotations

import functools
import os
import re
import reprlib
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..engine.internals import foreign_schema, normalised_sql


class IndexDatabaseError(ValueError):
    """The index database cannot be used as it is (foreign, damaged, locked, or unable to hold the vectors).

    The message names what is wrong and the fix; nothing was written to the file.
    """


MAX_DIMENSIONS = 8192  # the longest vector a sqlite-vec vec0 column holds
BUSY_TIMEOUT = 30.0  # seconds to wait for another process's write (a running clanka or sync) before giving up
# Seconds SQLite may work on one write transaction (or the checks before it) before it is stopped: a backstop
# for whatever a file makes SQLite compute that the schema check does not catch. An honest sync of 100,000 rows
# writes in seconds.
DEADLINE = 600.0
_REBUILD = "move it aside and sync into a new file (clanka rebuilds its index on start), or restore a copy"
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
# clanka-nb's own table beside clanka's (clanka never reads it): which model wrote the vectors (see _trust.py).
RECORD_TABLE = """CREATE TABLE IF NOT EXISTS clanka_nb_index (
          model TEXT NOT NULL,
          dimensions INTEGER NOT NULL,
          rows INTEGER NOT NULL,
          checksum BLOB NOT NULL
        )"""
# SQLite's own tables (AUTOINCREMENT's counter, ANALYZE's statistics), as SQLite makes them.
_SQLITE_TABLES = (
    "CREATE TABLE sqlite_sequence(name,seq)",
    "CREATE TABLE sqlite_stat1(tbl,idx,stat)",
    "CREATE TABLE sqlite_stat4(tbl,idx,neq,nlt,ndlt,sample)",
)
MIGRATIONS = "effect_sql_migrations"  # clanka's migrator's table: never read or written here
_DIMENSIONS = re.compile(r"float\[\s*(\d+)\s*\]", re.IGNORECASE)
_VEC0 = re.compile(r"^\s*CREATE\s+VIRTUAL\s+TABLE\b.*?\bUSING\s+vec0\s*\(\s*vector\s+float\[\s*(\d+)\s*\]",
                   re.IGNORECASE | re.DOTALL)


def _apsw() -> Any:
    try:
        import apsw
        import sqlite_vec
    except ImportError as error:
        msg = f"the semantic index needs apsw and sqlite-vec ({error.name} is missing); {_INSTALL}"
        raise ImportError(msg) from error
    return apsw, sqlite_vec


def connect(path: str | os.PathLike[str], *, read_only: bool = False, must_exist: bool = False,
            busy_timeout: float = BUSY_TIMEOUT) -> Any:
    """An apsw connection with sqlite-vec loaded; `must_exist` refuses to create a new file.

    `busy_timeout` is how many seconds a statement waits while another process holds the write lock.
    """
    apsw, sqlite_vec = _apsw()
    if isinstance(busy_timeout, bool) or not isinstance(busy_timeout, int | float) or not busy_timeout >= 0:
        msg = f"busy_timeout must be a number of seconds (0 or more), got {busy_timeout!r}"
        raise ValueError(msg)
    name = str(path)
    if name != ":memory:":
        file = Path(name)
        if file.is_dir():
            msg = (
                f"db {name!r} is a folder, not a database file; pass a file in it, such as "
                f"{str(file / '.clanka' / 'search.sqlite')!r} (where clanka keeps its index)"
            )
            raise IndexDatabaseError(msg)
        if must_exist and not file.is_file():
            msg = (
                f"no index database at {name!r}; clanka writes it to .clanka/search.sqlite under the folder it "
                "indexes: pass that file, or build one with cn.SemanticIndex(source, embed=..., db=path).sync()"
            )
            raise FileNotFoundError(msg)
        if not read_only:
            file.parent.mkdir(parents=True, exist_ok=True)
    flags = apsw.SQLITE_OPEN_READONLY if read_only else apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE
    with translated(name, busy_timeout):
        connection = apsw.Connection(name, flags=flags)
    connection.set_busy_timeout(int(busy_timeout * 1000))
    connection.enable_load_extension(True)
    connection.load_extension(sqlite_vec.loadable_path())
    connection.enable_load_extension(False)
    return connection


@contextmanager
def translated(where: str, busy_timeout: float = BUSY_TIMEOUT) -> Iterator[None]:
    """SQLite's errors about the file itself (damaged, foreign, locked, read-only, full) as one IndexDatabaseError.

    The statements that failed were rolled back, so the message can say the file was left as it was.
    """
    apsw = _apsw()[0]
    try:
        yield
    except apsw.InterruptError:
        msg = (
            f"SQLite worked on {where} for longer than {DEADLINE:g} s and was stopped (nothing was written): "
            f"something in the file makes every write slow; {_REBUILD}"
        )
        raise IndexDatabaseError(msg) from None
    except apsw.NotADBError as error:
        msg = f"{where} is not an SQLite database ({error}); pass clanka's .clanka/search.sqlite or a new file"
        raise IndexDatabaseError(msg) from None
    except apsw.CorruptError as error:
        msg = f"{where} is damaged (SQLite: {error}); it was left as it was: {_REBUILD}"
        raise IndexDatabaseError(msg) from None
    except apsw.BusyError:
        msg = (
            f"another process kept {where} locked for longer than busy_timeout={busy_timeout:g} s; let it finish "
            "(a running clanka or sync) and try again, or pass a larger busy_timeout="
        )
        raise IndexDatabaseError(msg) from None
    except apsw.ReadOnlyError as error:
        msg = f"{where} cannot be written ({error}); get write access to it and its folder, or pass a new file"
        raise IndexDatabaseError(msg) from None
    except apsw.CantOpenError as error:
        msg = f"cannot open {where} ({error}); check that its folder exists and that you may read and write there"
        raise IndexDatabaseError(msg) from None
    except apsw.FullError as error:
        msg = f"the disk holding {where} is full ({error}); nothing was written: free some space and try again"
        raise IndexDatabaseError(msg) from None
    except apsw.ConnectionClosedError:
        msg = f"the index on {where} was closed (close() or a with block ended); open it again to use it"
        raise IndexDatabaseError(msg) from None
    except apsw.Error as error:  # any other refusal (a constraint the file declares): this file's, one line
        msg = (
            f"SQLite refused to use {where} ({type(error).__name__}: {shown(str(error))}); nothing was written: "
            f"{_REBUILD}"
        )
        raise IndexDatabaseError(msg) from None


@contextmanager
def deadline(connection: Any, seconds: float | None = None) -> Iterator[None]:
    """Stop SQLite (InterruptError, which `translated` names) once it has worked `seconds` (default DEADLINE)."""
    end = time.monotonic() + (DEADLINE if seconds is None else seconds)
    key = object()
    connection.set_progress_handler(lambda: time.monotonic() > end, 1000, id=key)
    try:
        yield
    finally:
        connection.set_progress_handler(None, id=key)


@contextmanager
def writing(connection: Any) -> Iterator[None]:
    """One write transaction that takes the write lock first (BEGIN IMMEDIATE), so it waits for another writer.

    A deferred transaction that has read gets SQLITE_BUSY at once when it then wants to write while another
    process writes (SQLite's deadlock rule skips the busy timeout); taking the lock up front avoids that.
    Inside an open transaction it is a savepoint. Any error rolls every statement back.
    """
    if connection.in_transaction:
        with connection:
            yield
        return
    connection.execute("BEGIN IMMEDIATE")
    try:
        with deadline(connection):
            yield
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise


def tables(connection: Any) -> dict[str, str]:
    """name -> CREATE statement of every table in the database."""
    rows = connection.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'").fetchall()
    return {name: sql or "" for name, sql in rows}


def check_clanka(connection: Any, where: str) -> None:
    """Raise IndexDatabaseError unless the database is new or holds clanka's tables in a usable state; reads only.

    Checks what would otherwise fail later inside SQLite (or, worse, be written into): the `chunks` columns, a
    `chunk_vectors` that is clanka's vec0 table, no schema object but clanka's (and SQLite's, and clanka-nb's
    record), and stored vectors that are whole float32 numbers of one length, the length the vec0 table holds.
    """
    found = tables(connection)
    if not found:
        return
    if "chunks" not in found:
        msg = (
            f"{where} is an SQLite database but not a clanka index (no `chunks` table; it has "
            f"{shown(', '.join(sorted(found)[:5]))}); pass clanka's .clanka/search.sqlite or a new file"
        )
        raise IndexDatabaseError(msg)
    columns = tuple(row[1] for row in connection.execute("PRAGMA table_info(chunks)").fetchall())
    if columns != CHUNK_COLUMNS:
        msg = (
            f"{where} has a `chunks` table with columns {shown(str(columns))}, not clanka's {CHUNK_COLUMNS} "
            "(an index from an older clanka keeps startLine/endLine); let the current clanka rebuild it, "
            "or pass a new file"
        )
        raise IndexDatabaseError(msg)
    _check_triggers(connection, where)
    declared = None
    if "chunk_vectors" in found:
        match = _VEC0.search(found["chunk_vectors"])
        if match is None:
            msg = (
                f"{where}: chunk_vectors is not clanka's vec0 table of vectors (it is "
                f"{shown(found['chunk_vectors'])}); drop it (clanka and sync rebuild it from the chunks' vectors), "
                "or pass a new file"
            )
            raise IndexDatabaseError(msg)
        declared = int(match.group(1))
    _check_objects(connection, where, declared)
    kinds = connection.execute("SELECT DISTINCT typeof(vector), length(vector) FROM chunks LIMIT 3").fetchall()
    for kind, size in kinds:
        if kind != "blob" or size == 0 or size % 4:
            row = connection.execute(
                "SELECT id FROM chunks WHERE typeof(vector) = ? AND length(vector) = ? LIMIT 1", (kind, size)
            ).fetchone()
            msg = (
                f"{where}: row {row[0] if row else '?'} of chunks holds a {size}-byte vector ({kind}), not float32 "
                f"numbers; delete that row (the next sync embeds its input again), or {_REBUILD}"
            )
            raise IndexDatabaseError(msg)
    stored = sorted({size // 4 for _, size in kinds})
    if len(stored) > 1:
        msg = (
            f"{where} holds {stored[0]}-dimensional and {stored[1]}-dimensional vectors: one index holds one "
            f"model's vectors; {_REBUILD}"
        )
        raise IndexDatabaseError(msg)
    if declared is not None and stored and stored[0] != declared:
        msg = (
            f"{where}: chunk_vectors (vec0) holds {declared}-dimensional vectors but chunks holds "
            f"{stored[0]}-dimensional ones; drop chunk_vectors (clanka and sync rebuild it from chunks), or {_REBUILD}"
        )
        raise IndexDatabaseError(msg)
    if stored:
        check_dimensions(stored[0], f"{where} holds")


_CLANKA_TRIGGERS = frozenset(normalised_sql(statement) for statement in TRIGGERS)


@functools.cache
def _vector_objects(dimensions: int) -> frozenset[str]:
    """clanka's vec0 table at this dimension and the shadow tables sqlite-vec makes for it, made in memory by
    the sqlite-vec loaded here (clanka pins the same release)."""
    connection = connect(":memory:")
    try:
        connection.execute(VECTOR_TABLE.format(dimensions=int(dimensions)))
        return frozenset(_canonical(sql) for (sql,) in connection.execute(
            "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL").fetchall())
    finally:
        connection.close()


_PUNCTUATION = re.compile(r"\s*([(),;\[\]])\s*")


def _canonical(sql: str) -> str:
    """A CREATE statement compared case- and spacing-blind, spaces around brackets and commas included (clanka's
    statements and one typed on one line are the same object)."""
    return _PUNCTUATION.sub(r"\1", normalised_sql(sql))


_KNOWN = frozenset(_canonical(sql) for sql in (CHUNKS_TABLE, HASH_INDEX, *TRIGGERS, RECORD_TABLE, *_SQLITE_TABLES))


def _check_objects(connection: Any, where: str, dimensions: int | None) -> None:
    """Refuse any schema object that is not clanka's, clanka-nb's record or SQLite's own, before any row is read.

    A planted index on an expression, a CHECK or DEFAULT in a table's definition, a trigger or a view runs inside
    every write (or read) and may cost hours or fail each one; none of clanka's objects does. The migrator's
    table is taken by name: nothing here reads or writes it.
    """
    known = _KNOWN | (_vector_objects(dimensions) if dimensions is not None else frozenset())
    rows = connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    for kind, name, table, sql in rows:
        if (sql is None and str(name).startswith("sqlite_autoindex_")) or (
                kind in ("table", "index") and table == MIGRATIONS):
            continue
        if _canonical(sql or "") not in known:
            msg = (
                f"{where}: the {kind} {shown(str(name))!r} is not clanka's (it is {shown(sql or '')}); SQLite "
                f"would run it inside every write or read: DROP {str(kind).upper()} it if you trust the file, or "
                f"{_REBUILD}"
            )
            raise IndexDatabaseError(msg)


def _check_triggers(connection: Any, where: str) -> None:
    """Refuse a trigger on `chunks` that is not one of clanka's three: it runs on every row sync writes (a
    recursive query in it never ends, a RAISE fails the sync), and CREATE TRIGGER IF NOT EXISTS keeps it.
    (The caches' files refuse any schema object not their own with the same check.)"""
    found = foreign_schema(connection, _CLANKA_TRIGGERS, types=("trigger",), table="chunks")
    if found is not None:
        _, name, sql = found
        msg = (
            f"{where}: the trigger {shown(name)!r} on chunks is not clanka's (it is {shown(sql)}); it "
            "would run on every row written: DROP TRIGGER it if you trust the file, or pass a new file"
        )
        raise IndexDatabaseError(msg)


def check_intact(connection: Any, where: str) -> None:
    """SQLite's quick_check over every page (about 0.3 s per 100 MB), before anything is written."""
    problems = [row[0] for row in connection.execute("PRAGMA quick_check(3)").fetchall()]
    if problems != ["ok"]:
        found = shown("; ".join(problems))
        msg = f"{where} is damaged (SQLite's quick_check: {found}); nothing was written: {_REBUILD}"
        raise IndexDatabaseError(msg)


def check_dimensions(dimensions: int, who: str) -> None:
    if dimensions > MAX_DIMENSIONS:
        msg = (
            f"{who} {dimensions}-dimensional vectors; sqlite-vec (clanka's index) holds at most {MAX_DIMENSIONS}: "
            "pass dimensions= to an embedder that takes it (such as cn.embedders.openai(..., dimensions=1536)) "
            "or pick a smaller model; nothing was written"
        )
        raise IndexDatabaseError(msg)


_REPR = reprlib.Repr()
_REPR.maxstring = 160


def shown(text: str) -> str:
    """Names and SQL from a foreign file, escaped and cut short for a message."""
    return _REPR.repr(text)[1:-1]


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
    check_dimensions(dimensions, "the index would hold")
    with writing(connection):
        connection.execute(CHUNKS_TABLE)
        connection.execute(HASH_INDEX)
        connection.execute(VECTOR_TABLE.format(dimensions=int(dimensions)))
        for statement in (*TRIGGERS, *BACKFILL):
            connection.execute(statement)
