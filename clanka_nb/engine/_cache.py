"""A persistent cache of declaration ranges, so a file content is parsed once across sessions.

Parsing is almost all of chunking's cost, and every kernel restart, notebook, CLI run or commit in a
churn analysis meets the same file contents again. What chunking needs from a parse (the grammar used
and the declaration ranges, never the tree) is stored in one SQLite file under the user's cache
folder, keyed by a hash of the file's text, the language mode, the extension (which picks the
grammar) and a fingerprint of the engine's code and the grammar and Unicode versions, so a new
release never reads an old release's entries.

The cache is a convenience and never a source of truth: any failure (a read-only or full disk, a
corrupt file, a damaged entry) falls back to parsing, with one `ParseCacheWarning` per process.
Entries are plain JSON behind a checksum; nothing is ever unpickled.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import json
import os
import sqlite3
import sys
import time
import unicodedata
import warnings
from functools import cache
from pathlib import Path

from ._declarations import Declaration

CACHE_DIR_ENV = "CLANKA_NB_CACHE_DIR"
CACHE_SWITCH_ENV = "CLANKA_NB_CACHE"  # "off" (or 0, false, no): cache=True parses without it
DEFAULT_MAX_BYTES = 512 * 2**20
FILE_NAME = "parse-cache.sqlite3"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    key BLOB PRIMARY KEY,
    value BLOB NOT NULL,
    size INTEGER NOT NULL,
    used REAL NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS entries_used ON entries(used);
"""
# Packages whose release changes what a parse gives: the parser core and the grammars. (The Unicode
# tables are engine source, already in the fingerprint.)
_VERSIONED = ("tree-sitter", "tree-sitter-language-pack", "tree-sitter-javascript", "tree-sitter-typescript")


class ParseCacheError(OSError):
    """`ParseCache.clear()` left entries behind; the message says how many, why and what to do."""


class ParseCacheWarning(UserWarning):
    """The parse cache could not be used (it falls back to parsing; chunks are unaffected)."""


def default_directory() -> Path:
    """`$CLANKA_NB_CACHE_DIR`, else the user's cache folder for clanka-nb (platformdirs)."""
    given = os.environ.get(CACHE_DIR_ENV)
    if given:
        return Path(given).expanduser()
    import platformdirs  # only where a cache is used

    return Path(platformdirs.user_cache_dir("clanka-nb", appauthor=False))


@cache
def fingerprint() -> str:
    """A digest of everything that decides a parse's result: the engine's source and its dependencies."""
    digest = hashlib.sha256()
    for source in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(source.name.encode())
        digest.update(source.read_bytes())
    for name in _VERSIONED:
        try:
            version = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            version = "-"
        digest.update(f"{name}={version};".encode())
    digest.update(f"python={sys.version_info[:2]};unicode={unicodedata.unidata_version}".encode())
    return digest.hexdigest()


def entry_key(text: str, extension: str, languages: str) -> bytes:
    """The cache key of one file's (newline-normalised) text."""
    digest = hashlib.blake2b(digest_size=32)
    digest.update(f"{fingerprint()}\0{languages}\0{extension}\0".encode())
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.digest()


def encode_entry(grammar: str, declarations: list[Declaration]) -> bytes:
    payload = json.dumps([grammar, [list(d) for d in declarations]], ensure_ascii=False, separators=(",", ":"))
    data = payload.encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=16).digest() + data


def decode_entry(value: bytes) -> tuple[str, list[Declaration]] | None:
    """The stored parse, or None when the entry is damaged (wrong checksum or shape)."""
    check, data = value[:16], value[16:]
    if len(value) < 16 or hashlib.blake2b(data, digest_size=16).digest() != check:
        return None
    try:
        grammar, rows = json.loads(data.decode("utf-8", "surrogatepass"))
        declarations = [Declaration(*row) for row in rows]
    except (ValueError, TypeError):
        return None
    if not isinstance(grammar, str) or not all(_well_formed(d) for d in declarations):
        return None
    return grammar, declarations


def _well_formed(d: Declaration) -> bool:
    return (
        type(d.start_line) is int
        and type(d.end_line) is int
        and (d.body_start is None or type(d.body_start) is int)
        and all(v is None or isinstance(v, str) for v in (d.name, d.type, d.parent))
    )


class ParseCache:
    """The cache in one folder, opened on first use in each process (it pickles as its settings)."""

    def __init__(self, directory: str | os.PathLike[str] | None = None, *, max_bytes: int = DEFAULT_MAX_BYTES):
        if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 0:
            msg = f"max_bytes must be a whole number of bytes >= 0, got {max_bytes!r}"
            raise ValueError(msg)
        self.directory = Path(directory).expanduser() if directory is not None else default_directory()
        self.max_bytes = max_bytes
        self._db: sqlite3.Connection | None = None
        self._broken = False
        self._written = 0

    @property
    def path(self) -> Path:
        return self.directory / FILE_NAME

    def __repr__(self) -> str:
        return f"ParseCache({str(self.directory)!r}, max_bytes={self.max_bytes})"

    def __reduce__(self) -> tuple:
        # A worker process rebuilds it by its settings and keeps one open connection per folder.
        return (shared_cache, (str(self.directory), self.max_bytes))

    # --- use ---

    def get(self, key: bytes) -> tuple[str, list[Declaration]] | None:
        db = self._connection()
        if db is None:
            return None
        try:
            # CAST: a damaged value stored as text must come back as bytes (and then fail its checksum).
            row = db.execute("SELECT CAST(value AS BLOB) FROM entries WHERE key = ?", (key,)).fetchone()
            if row is None:
                return None
            found = decode_entry(row[0])
            if found is None:
                db.execute("DELETE FROM entries WHERE key = ?", (key,))
                self._warn("a damaged entry was found and removed; that file is parsed again")
                return None
            db.execute("UPDATE entries SET used = ? WHERE key = ?", (time.time(), key))
        except sqlite3.Error as exc:
            self._fail(exc)
            return None
        return found

    def put(self, key: bytes, grammar: str, declarations: list[Declaration]) -> None:
        db = self._connection()
        if db is None:
            return
        value = encode_entry(grammar, declarations)
        try:
            db.execute(
                "INSERT OR REPLACE INTO entries (key, value, size, used) VALUES (?, ?, ?, ?)",
                (key, value, len(value) + len(key), time.time()),
            )
            self._written += len(value)
            if self._written > max(self.max_bytes // 20, 1):  # now and then, not on every write
                self._written = 0
                self._evict(db)
        except sqlite3.Error as exc:
            self._fail(exc)

    def info(self) -> dict[str, object]:
        """Where the cache is, how many entries and bytes it holds, and its bound."""
        entries = size = 0
        db = self._connection(create=False)
        if db is not None:
            try:
                entries, size = db.execute("SELECT count(*), coalesce(sum(size), 0) FROM entries").fetchone()
            except sqlite3.Error as exc:
                self._fail(exc)
        file_bytes = sum(p.stat().st_size for p in self.directory.glob(FILE_NAME + "*") if p.is_file())
        return {
            "path": str(self.path), "entries": entries, "bytes": size, "file_bytes": file_bytes,
            "max_bytes": self.max_bytes, "usable": not self._broken,
        }  # fmt: skip

    def clear(self) -> int:
        """Delete every entry; returns how many there were.

        Raises `ParseCacheError` when entries stay behind (a full disk, a folder or a foreign file where the
        cache file should be, a file this user may not write), saying how many and what to do.
        """
        self.close()  # its own connection: a failure here is the answer, never a silent fallback to parsing
        if not self.path.exists() and not self.path.is_symlink():
            return 0
        try:
            db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
            try:
                removed = db.execute("DELETE FROM entries").rowcount
                # If this fails the entries are gone all the same; only the file's free pages are not given back.
                with contextlib.suppress(sqlite3.Error):
                    db.execute("VACUUM")
            finally:
                db.close()
        except sqlite3.Error as exc:
            raise self._not_cleared(exc) from None
        return removed

    def _not_cleared(self, exc: sqlite3.Error) -> ParseCacheError:
        if self.path.is_dir():
            what = "it is a folder, not the cache's SQLite file"
        else:
            left = self._count_read_only()
            what = f"{exc}; {'its entries' if left is None else f'{left:,} entries'} are still there"
        msg = (
            f"could not clear the parse cache {str(self.path)!r}: {what}; free some disk space and run it again, "
            f"or delete {str(self.path)!r} (and any -wal/-shm beside it) by hand: it holds only a cache"
        )
        return ParseCacheError(msg)

    def _count_read_only(self) -> int | None:
        try:
            db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, timeout=1)
            try:
                return int(db.execute("SELECT count(*) FROM entries").fetchone()[0])
            finally:
                db.close()
        except sqlite3.Error:
            return None

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    # --- inside ---

    def _connection(self, *, create: bool = True) -> sqlite3.Connection | None:
        if self._db is not None or self._broken:
            return self._db
        if not create and not self.path.exists():
            return None
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            # autocommit: each statement is its own short transaction, so two processes writing at
            # once wait for each other (busy timeout) instead of failing or corrupting the file.
            db = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
            set_up_wal(db)
        except (sqlite3.Error, OSError) as exc:
            self._fail(exc)
            return None
        self._db = db
        return db

    def _evict(self, db: sqlite3.Connection) -> None:
        """Least recently used entries go first, down to 90% of the bound."""
        (total,) = db.execute("SELECT coalesce(sum(size), 0) FROM entries").fetchone()
        if total <= self.max_bytes:
            return
        excess = total - self.max_bytes * 9 // 10
        db.execute(
            "DELETE FROM entries WHERE key IN (SELECT key FROM (SELECT key, size, "
            "sum(size) OVER (ORDER BY used, key) AS running FROM entries) WHERE running - size < ?)",
            (excess,),
        )

    def _fail(self, exc: Exception) -> None:
        self._broken = True
        self.close()
        self._warn(f"{type(exc).__name__}: {exc}; parsing without it from now on")

    def _warn(self, what: str) -> None:
        if not _warned:
            _warned.append(what)
            msg = (
                f"parse cache at {self.path}: {what}. Chunks are unaffected. Set {CACHE_DIR_ENV} to a writable "
                "folder, run `clanka-nb cache clear`, or pass cache=False to turn it off"
            )
            warnings.warn(msg, ParseCacheWarning, stacklevel=4)


_warned: list[str] = []  # one warning per process, whatever fails


def set_up_wal(db: sqlite3.Connection, schema: str = _SCHEMA, attempts: int = 40) -> None:
    """WAL mode and the schema (the parse cache's, or the vector cache's). Switching the journal mode does
    not wait on the busy timeout, so two processes opening a new cache at the same moment ask again for a
    while instead of failing."""
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


def resolve_cache(cache: bool | ParseCache | None) -> ParseCache | None:
    """The `cache=` argument of the entry points: True (the default folder), False/None, or a ParseCache.

    `CLANKA_NB_CACHE=off` in the environment makes True mean False (benchmarks of parsing use it).
    """
    if cache is True and os.environ.get(CACHE_SWITCH_ENV, "").strip().lower() in ("off", "0", "false", "no"):
        return None
    if cache is True:
        return shared_cache(str(default_directory()), DEFAULT_MAX_BYTES)
    if cache is False or cache is None:
        return None
    if isinstance(cache, ParseCache):
        return cache
    msg = f"cache must be True, False or a ParseCache, got {cache!r}; pass cache=False to parse every file afresh"
    raise TypeError(msg)


@cache
def shared_cache(directory: str, max_bytes: int) -> ParseCache:
    """One ParseCache (and so one connection) per folder and bound in each process."""
    return ParseCache(directory, max_bytes=max_bytes)
