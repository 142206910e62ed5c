"""Which model wrote an index's vectors, recorded beside clanka's tables where clanka never looks.

A stored vector is kept by a sync only while its input is unchanged, so nothing in the rows says which model
made it: after a switch to another model of the same width, or in a `.clanka/search.sqlite` that a repository
ships, the old (or planted) vectors would stay for good. So every write of `SemanticIndex` records its model in
the table `clanka_nb_index` (one row: model, dimensions, rows and a checksum), in the same transaction as the
rows. The checksum is HMAC-SHA256 keyed with the user's secret (the caches' key file) over the model and every row
of `chunks` and of the vec0 table's storage: a file written by anyone else (clanka itself, another user, a repository's
author), or changed since, fails it, and its rows are then embedded again rather than trusted.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..engine.internals import key_path, load_secret
from . import _db

_TABLE = "clanka_nb_index"
_LABEL = b"clanka-nb index record\0"
# Where sqlite-vec keeps chunk_vectors' rows: which row is where, and the vectors in blocks (the schema check
# makes sure these are sqlite-vec's own tables). Search reads these, so the record covers them too.
_VECTOR_STORE = ("chunk_vectors_chunks", "chunk_vectors_rowids", "chunk_vectors_vector_chunks00")


@dataclass(frozen=True)
class Provenance:
    """Whether an index's rows may be kept as they are for a model.

    Attributes:
        trusted: The rows were written by this toolkit, with this model, and are unchanged since.
        reason: Why not, in a few words ("" when trusted).
    """

    trusted: bool
    reason: str = ""


TRUSTED = Provenance(True)


def _feed(update: Callable[[bytes], object], row: Iterable[object]) -> None:
    """One stored row into the checksum, each value behind its type and length, so no two rows of different
    values hash alike (a few C calls per value: a 300 MB index takes about a second)."""
    for value in row:
        if isinstance(value, bytes):
            update(b"b%d:" % len(value))
            update(value)
            continue
        data = value.encode("utf-8", "surrogatepass") if isinstance(value, str) else repr(value).encode(
            "ascii", "backslashreplace")
        update(b"s%d:" % len(data) if isinstance(value, str) else b"o%d:" % len(data))
        update(data)


def _checksum(connection: Any, model: str) -> tuple[int, bytes]:
    """Rows of `chunks` and the keyed checksum (HMAC-SHA256 with the caches' secret) over the model, those rows
    and the vec0 table's storage, in order."""
    mac = hmac.new(load_secret(key_path()), digestmod="sha256")
    mac.update(_LABEL)
    _feed(mac.update, (model,))
    rows = 0
    for row in connection.execute("SELECT id, path, content, hash, vector FROM chunks ORDER BY id"):
        _feed(mac.update, row)
        rows += 1
    found = _db.tables(connection)
    for table in _VECTOR_STORE:  # the vec0 table's own storage, read as plain tables (through vec0: minutes)
        if table in found:
            _feed(mac.update, (table,))
            for row in connection.execute(f"SELECT * FROM {table} ORDER BY rowid"):  # our own names, never a file's
                _feed(mac.update, row)
    return rows, mac.digest()


def provenance(connection: Any, model: str) -> Provenance:
    """Whether the rows of the database are this toolkit's, written with `model` and unchanged since.

    A database without rows is trusted (there is nothing to keep). Reads every row once (about as long as
    SQLite's quick_check) unless the record is missing or counts other rows.
    """
    found = _db.tables(connection)
    if "chunks" not in found or connection.execute("SELECT 1 FROM chunks LIMIT 1").fetchone() is None:
        return TRUSTED
    if _TABLE not in found:
        return Provenance(False, "no record of its model: not written by clanka-nb")
    records = connection.execute(f"SELECT model, rows, checksum FROM {_TABLE} LIMIT 2").fetchall()
    if len(records) != 1 or not isinstance(records[0][0], str) or not isinstance(records[0][2], bytes):
        return Provenance(False, "a damaged record of its model")
    recorded, count, check = records[0]
    if count != connection.execute("SELECT count(*) FROM chunks").fetchone()[0]:
        return Provenance(False, "rows changed since clanka-nb wrote it")
    if not hmac.compare_digest(_checksum(connection, recorded)[1], check):
        return Provenance(False, "rows changed since clanka-nb wrote it, or a record it did not write")
    if recorded != model:
        return Provenance(False, f"vectors of another model, {_db.shown(recorded)}")
    return TRUSTED


def record(connection: Any, model: str, dimensions: int | None) -> None:
    """Write the record of `model` over the rows as they are now (inside the caller's write transaction)."""
    connection.execute(_db.RECORD_TABLE)
    connection.execute(f"DELETE FROM {_TABLE}")
    rows, check = _checksum(connection, model)
    connection.execute(f"INSERT INTO {_TABLE} (model, dimensions, rows, checksum) VALUES (?, ?, ?, ?)",
                       (model, dimensions or 0, rows, check))
