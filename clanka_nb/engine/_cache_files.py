"""What the two SQLite caches (the parse cache and the vector cache) share: the user's secret key, the
keyed checksum, opening a cache file safely, the write transaction and the eviction.

A cache file lives in a folder that someone else may be able to write (`CLANKA_NB_CACHE_DIR` pointed at
a shared place). So before anything is written a file is opened only if it is a plain file of this
user's (never a link, never another user's: two users sharing a folder would otherwise remove each
other's entries on every run) and holds nothing but the cache's own tables and indexes (a planted
trigger runs on every write, a view or table is someone else's). Files are made 0600, a folder the
library makes 0700; a folder the user made keeps its mode (it may be shared on purpose). See
docs/security.md, "Cache files".
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import secrets
import sqlite3
import stat
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CACHE_DIR_ENV = "CLANKA_NB_CACHE_DIR"
CONFIG_DIR_ENV = "CLANKA_NB_CONFIG_DIR"  # where the caches' secret key lives (default: the user's config folder)
KEY_FILE_NAME = "parse-cache.key"  # the name it had when only the parse cache used it
CHECK_BYTES = 16
_KEY_BYTES = 32
_SIDE_FILES = ("-wal", "-shm", "-journal")  # SQLite makes them with the database file's mode


@dataclass(frozen=True)
class CacheInfo:
    """What a cache holds (`ParseCache.info()`, `VectorCache.info()`): its file, its entries and their bytes,
    the bytes of its files on disk (the write-ahead log too), its bound, and whether its file is usable.

    Attributes:
        path: The cache's file.
        entries: Its entries.
        bytes: Their bytes.
        file_bytes: The bytes of its files on disk (the write-ahead log too).
        max_bytes: Its bound.
        usable: Whether its file can be opened, read and written.
    """

    path: str
    entries: int
    bytes: int
    file_bytes: int
    max_bytes: int
    usable: bool


class KeyFileError(OSError):
    """The caches' key file is unsafe (a link, not a plain file, another owner, open to others) or malformed."""


class CacheFileError(sqlite3.DatabaseError):
    """A cache file that is not this user's cache (another user's, a link, a planted schema object): left as it is."""


def key_path() -> Path:
    """The file holding the user's secret that keys every cache entry's checksum: `$CLANKA_NB_CONFIG_DIR`, else
    the user's config folder for clanka-nb (platformdirs), never the cache folder."""
    given = os.environ.get(CONFIG_DIR_ENV)
    if given:
        return Path(given).expanduser() / KEY_FILE_NAME
    import platformdirs  # only where a cache is used

    return Path(platformdirs.user_config_dir("clanka-nb", appauthor=False)) / KEY_FILE_NAME


def load_secret(path: Path) -> bytes:
    """The user's secret, made on first use: 32 random bytes in a file only the user can read or write.

    Opened without following a link and without blocking (a FIFO in its place would wait for a writer
    forever), then checked on the open descriptor, so what is checked is what is read. Made under another
    name and linked into place, so two processes starting at once agree on one secret and none reads a
    half-written file. A file that others may read or write, or that another user owns, is refused
    (KeyFileError): with it, they could forge entries.
    """
    fix = f"delete it (a new one is made) or set {CONFIG_DIR_ENV} to a folder of your own"
    try:
        fd = _open_key(path)
    except FileNotFoundError:
        _make_secret(path)
        fd = _open_key(path)
    except PermissionError:
        msg = f"the caches' key file {path} cannot be read by this user (another user's file?); {fix}"
        raise KeyFileError(msg) from None
    except OSError as exc:
        if exc.errno not in (errno.ELOOP, errno.EMLINK):  # what O_NOFOLLOW answers for a link
            raise
        msg = f"the caches' key file {path} is a symbolic link, which is never followed; {fix}"
        raise KeyFileError(msg) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            msg = f"the caches' key file {path} is not a regular file (a FIFO, device or folder); {fix}"
            raise KeyFileError(msg)
        if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
            msg = f"the caches' key file {path} is owned by another user (uid {info.st_uid}); {fix}"
            raise KeyFileError(msg)
        if info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            msg = (
                f"the caches' key file {path} is open to others (mode {stat.S_IMODE(info.st_mode):o}); "
                "delete it (a new one is made) or chmod 600 it"
            )
            raise KeyFileError(msg)
        secret = os.read(fd, _KEY_BYTES + 1)
    finally:
        os.close(fd)
    if len(secret) != _KEY_BYTES:
        msg = f"the caches' key file {path} does not hold a {_KEY_BYTES}-byte key; delete it (a new one is made)"
        raise KeyFileError(msg)
    return secret


def small_regular_file(path: str | os.PathLike[str], limit: int, *, follow: bool = False) -> bytes | None:
    """A small state file's bytes, read without trusting what stands at `path`.

    Opened without waiting (a FIFO in its place would block for good) and, unless `follow`, without following a
    link; only a plain file of at most `limit` bytes is read.

    Args:
        path: The file.
        limit: The most bytes it may hold.
        follow: Whether a link at `path` is followed.

    Returns:
        Its bytes; None when it is unreadable, no plain file, a link (unless `follow`) or over `limit` bytes.

    Raises:
        FileNotFoundError: Nothing is there (also for a parent that is no folder), for the caller to read as absent.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | (0 if follow else getattr(os, "O_NOFOLLOW", 0))
    try:
        fd = os.open(path, flags)
    except NotADirectoryError as exc:
        raise FileNotFoundError(exc.errno, exc.strerror, exc.filename) from exc
    except FileNotFoundError:
        raise
    except OSError:  # a permission, a link (O_NOFOLLOW), a loop: not read, never guessed
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # a folder, a FIFO, a device
            return None
        data = os.read(fd, limit + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data if len(data) <= limit else None


def _open_key(path: Path) -> int:
    return os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))


def _make_secret(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        os.write(fd, secrets.token_bytes(_KEY_BYTES))
    finally:
        os.close(fd)
    try:
        os.link(temporary, path)  # fails if another process made it first: then its secret is the one
    except FileExistsError:
        pass
    finally:
        temporary.unlink()


def keyed_check(secret: bytes, key: bytes, data: bytes) -> bytes:
    """An entry's checksum: BLAKE2b keyed with the user's secret over the entry's key and its value, so an
    entry can neither be forged without the secret nor copied under another key."""
    digest = hashlib.blake2b(key=secret, digest_size=CHECK_BYTES)
    digest.update(key)
    digest.update(data)
    return digest.digest()


# --- opening a cache file ---


def normalised_sql(sql: str) -> str:
    """A CREATE statement as SQLite keeps it in its schema, compared case- and spacing-blind."""
    return " ".join(sql.replace("IF NOT EXISTS ", "").split()).lower()


def statements(script: str) -> frozenset[str]:
    """The normalised statements of a schema script (statements end with ';', none holds one inside)."""
    return frozenset(normalised_sql(part) for part in script.split(";") if part.strip())


def foreign_schema(
    connection: Any, known: frozenset[str], *, types: Sequence[str] = ("table", "index", "view", "trigger"),
    table: str | None = None,
) -> tuple[str, str, str] | None:
    """The first schema object (type, name, SQL) of `types` (on `table`, if given) whose SQL is none of `known`.

    `connection` is sqlite3's or apsw's (the index database's). SQLite's own objects (the automatic
    indexes of constraints, which have no SQL) are never foreign.
    """
    marks = ",".join("?" * len(types))
    query = f"SELECT type, name, sql FROM sqlite_master WHERE type IN ({marks})"
    arguments: tuple[str, ...] = tuple(types)
    if table is not None:
        query += " AND tbl_name = ?"
        arguments += (table,)
    for kind, name, sql in connection.execute(query, arguments).fetchall():
        if sql is None and str(name).startswith("sqlite_autoindex_"):
            continue
        if normalised_sql(sql or "") not in known:
            return kind, name, sql or ""
    return None


def _shown(text: str, limit: int = 160) -> str:
    text = text.encode("unicode_escape").decode("ascii")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def open_cache_file(path: Path, schema: str, *, timeout: float) -> sqlite3.Connection:
    """A connection to this user's cache file at `path` with `schema` set up, WAL mode and a busy timeout.

    Raises CacheFileError (nothing written) for a link, a non-file, another user's file or a file holding
    anything but `schema`'s tables and indexes; sqlite3.Error or OSError for what SQLite or the file
    system refuse. Autocommit: each statement is its own short transaction, so processes writing at once
    wait for each other (busy timeout) instead of failing or corrupting the file.
    """
    _own_file(path)
    db = sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
    try:
        check_schema(db, path, schema)  # before anything is written: WAL mode writes the header
        set_up_wal(db, schema)
    except sqlite3.Error:
        db.close()
        raise
    return db


def check_schema(db: sqlite3.Connection, path: Path | str, schema: str) -> None:
    """Raise CacheFileError if the file holds a schema object not in `schema` (reading the schema also
    finds a file that is no database at all: sqlite3.DatabaseError)."""
    found = foreign_schema(db, statements(schema))
    if found is not None:
        kind, name, sql = found
        msg = (
            f"{path} holds the {kind} {_shown(name)!r} ({_shown(sql)}), which is not the cache's own: it would "
            f"run on (or hide) every write, so the file was left unchanged; delete {path} (it holds only a cache) "
            f"or set {CACHE_DIR_ENV} to a folder of your own"
        )
        raise CacheFileError(msg)


def _own_file(path: Path) -> None:
    """Make the folder (0700) and the file (0600) if missing; refuse what is not this user's plain file."""
    if not path.parent.is_dir():
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600))
    fix = f"set {CACHE_DIR_ENV} to a folder of your own, or delete {path} (it holds only a cache)"
    for each in (path, *(path.with_name(path.name + side) for side in _SIDE_FILES)):
        try:
            info = os.lstat(each)
        except FileNotFoundError:
            continue
        if stat.S_ISLNK(info.st_mode) or not stat.S_ISREG(info.st_mode):
            what = "a symbolic link" if stat.S_ISLNK(info.st_mode) else "not a regular file"
            msg = f"{each} is {what}, so the cache does not use it; {fix}"
            raise CacheFileError(msg)
        if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
            msg = (
                f"{each} belongs to another user (uid {info.st_uid}): the cache keeps one file per user and "
                f"leaves it alone; {fix}"
            )
            raise CacheFileError(msg)
        if info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            os.chmod(each, 0o600)  # an earlier release made it 0644: this user's own file, made private


def set_up_wal(db: sqlite3.Connection, schema: str, attempts: int = 40) -> None:
    """WAL mode and the schema. Switching the journal mode does not wait on the busy timeout, so two processes
    opening a new cache at the same moment ask again for a while instead of failing."""
    for attempt in range(attempts):
        try:
            if db.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(schema)
            return
        except sqlite3.OperationalError as exc:
            if ("locked" not in str(exc) and "busy" not in str(exc)) or attempt == attempts - 1:
                raise
            time.sleep(0.05 * (attempt + 1))


# --- writing ---


def write(db: sqlite3.Connection, *steps: tuple[str, Iterable[Sequence[object]]]) -> None:
    """Run each (statement, rows) with executemany in one transaction that takes the write lock first.

    A failed ROLLBACK is ignored: SQLite rolls back by itself on a full disk, and the error to report is
    the one that made the write fail ("database or disk is full"), not "no transaction is active".
    """
    db.execute("BEGIN IMMEDIATE")  # takes the write lock now (waiting on the busy timeout), not halfway
    try:
        for statement, rows in steps:
            db.executemany(statement, rows)
        db.execute("COMMIT")
    except sqlite3.Error:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        raise


def evict_if_over(db: sqlite3.Connection, table: str, keys: tuple[str, ...], max_bytes: int) -> None:
    """Keep the pages the file's rows use within `max_bytes`, least recently used rows first, down to 90% of it.

    Called after every write, by every process (many short processes each write little, so a bound kept
    by each process's own count of what it wrote was never reached): the test is three pragmas, no scan,
    and only a file over its bound pays for the scan that picks what goes. Pages are what the disk holds;
    the rows' `size` (their keys and values) is always less, so it stays within the bound too. The pages
    an empty cache has (its schema and the roots of its table and index) are not counted.
    `table` and `keys` (its primary key columns) are the caches' own names, never a caller's text.
    """
    page = db.execute("PRAGMA page_size").fetchone()[0]
    pages = db.execute("PRAGMA page_count").fetchone()[0] - db.execute("PRAGMA freelist_count").fetchone()[0]
    used = (pages - _EMPTY_PAGES) * page
    if used <= max_bytes:
        return
    (total,) = db.execute(f"SELECT coalesce(sum(size), 0) FROM {table}").fetchone()
    # The rows' own bytes are a share of the pages they use (the index, free space in pages): keep that
    # share of 90% of the bound, so the next write does not find the file over it again.
    keep = min(max_bytes * 9 // 10, int(max_bytes * 9 // 10 * total / used))
    key = ", ".join(keys)
    db.execute(
        f"DELETE FROM {table} WHERE ({key}) IN (SELECT {key} FROM (SELECT {key}, size, "
        f"sum(size) OVER (ORDER BY used, {key}) AS running FROM {table}) WHERE running - size < ?)",
        (total - keep,),
    )


_EMPTY_PAGES = 3  # the schema page and the root pages of a cache's table and its index


def emptied(db: sqlite3.Connection, table: str) -> int:
    """Delete every row of one of the caches' tables (`cache clear`) and give the file's pages back; how many rows
    there were. `table` is the cache's own name, never a caller's text; the caller checked the schema first."""
    removed = int(db.execute(f"DELETE FROM {table}").rowcount)
    with contextlib.suppress(sqlite3.Error):  # the rows are gone all the same; only the free pages stay in the file
        db.execute("VACUUM")
    return removed


def failure_text(exc: Exception) -> str:
    """How a cache's warning names what made it stop using its file: our own refusals (a foreign file, a bad key
    file) say what is wrong and what to do; SQLite's and the OS's errors get their type's name."""
    return str(exc) if isinstance(exc, (CacheFileError, KeyFileError)) else f"{type(exc).__name__}: {exc}"
