"""A persistent cache of declaration ranges, so a file content is parsed once across sessions.

Parsing is almost all of chunking's cost, and every kernel restart, notebook, CLI run or commit in a
churn analysis meets the same file contents again. What chunking needs from a parse (the grammar used
and the declaration ranges, never the tree) is stored in one SQLite file under the user's cache
folder, keyed by a hash of the file's text, the language mode, the extension (which picks the
grammar) and a fingerprint of the engine's code and the grammar and Unicode versions, so a new
release never reads an old release's entries.

The cache is a convenience and never a source of truth: any failure (a read-only or full disk, a
corrupt file, a damaged entry) falls back to parsing, with one `ParseCacheWarning` per process.
Entries are plain JSON behind a checksum keyed with a secret of the user's (a file in the user's config
folder, outside the cache folder, readable by the user alone): whoever can write the cache folder but
cannot read that file cannot make an entry the engine accepts, nor move one to another file's key.
Nothing is ever unpickled (docs/security.md, "Parse cache").
"""

from __future__ import annotations

import hashlib
import hmac
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
from typing import Any

from ..warning import ClankaWarning
from ._cache_files import (
    CACHE_DIR_ENV,
    CONFIG_DIR_ENV,
    KEY_FILE_NAME,
    CacheFileError,
    CacheInfo,
    KeyFileError,
    check_schema,
    emptied,
    evict_if_over,
    failure_text,
    key_path,
    keyed_check,
    load_secret,
    open_cache_file,
    set_up_wal,
    write,
)
from ._declarations import Declaration, declaration_of
from .settings import checked_init

__all__ = [  # the key file's names stay importable from here, where they were first
    "CACHE_DIR_ENV", "CONFIG_DIR_ENV", "KEY_FILE_NAME", "CacheFileError", "KeyFileError", "key_path", "load_secret",
    "set_up_wal",
]  # fmt: skip
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


class ParseCacheWarning(ClankaWarning, UserWarning):
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


def _check(secret: bytes, key: bytes, data: bytes) -> bytes:
    """The entry's checksum, keyed and bound to the entry's key (one implementation for both caches)."""
    return keyed_check(secret, key, data)


def encode_entry(secret: bytes, key: bytes, grammar: str, declarations: list[Declaration]) -> bytes:
    payload = json.dumps([grammar, declarations], ensure_ascii=False, separators=(",", ":"))
    data = payload.encode("utf-8", "surrogatepass")
    return _check(secret, key, data) + data


def decode_entry(secret: bytes, key: bytes, value: bytes) -> tuple[str, list[Declaration]] | None:
    """The stored parse, or None when the entry is damaged or forged (wrong checksum) or of the wrong shape."""
    check, data = value[:16], value[16:]
    if len(value) < 16 or not hmac.compare_digest(_check(secret, key, data), check):
        return None
    try:
        grammar, rows = json.loads(data.decode("utf-8", "surrogatepass"))
    except (ValueError, TypeError):
        return None
    if not isinstance(grammar, str) or not isinstance(rows, list) or not _well_formed(rows):
        return None
    return grammar, list(map(declaration_of, rows))




def _well_formed(rows: list[Any]) -> bool:
    """Every row six fields: two line numbers, a name, type and parent (text or null), a line number or null.

    One plain loop: a warm reopen checks tens of thousands of rows."""
    for row in rows:
        if type(row) is not list or len(row) != 6:
            return False
        start, end, name, kind, parent, body = row
        if type(start) is not int or type(end) is not int or (body is not None and type(body) is not int):
            return False
        if (name is not None and type(name) is not str) or (kind is not None and type(kind) is not str):
            return False
        if parent is not None and type(parent) is not str:
            return False
    return True


@checked_init
class ParseCache:
    """The cache in one folder, opened on first use in each process (it pickles as its settings).

    Args:
        directory: The cache's folder; None: `$CLANKA_NB_CACHE_DIR`, else the user's cache folder for clanka-nb.
        max_bytes: About the most bytes the cache holds; the least recently used entries go first.

    Raises:
        ValueError: `max_bytes` is not a whole number of bytes >= 0.

    Examples:
        >>> codebase = cn.Codebase("my-repo", cache=cn.engine.ParseCache("/tmp/parses"))
    """

    def __init__(self, directory: str | os.PathLike[str] | None = None, *, max_bytes: int = DEFAULT_MAX_BYTES):
        if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 0:
            msg = f"max_bytes must be a whole number of bytes >= 0, got {max_bytes!r}"
            raise ValueError(msg)
        self.directory = Path(directory).expanduser() if directory is not None else default_directory()
        self.max_bytes = max_bytes
        self._db: sqlite3.Connection | None = None
        self._secret = b""
        self._broken = False

    @property
    def path(self) -> Path:
        return self.directory / FILE_NAME

    def __repr__(self) -> str:
        return f"ParseCache({str(self.directory)!r}, max_bytes={self.max_bytes})"

    def __reduce__(self) -> tuple[Any, ...]:
        # A worker process rebuilds it by its settings and keeps one open connection per folder.
        return (shared_cache, (str(self.directory), self.max_bytes))

    # --- use ---

    def get(self, key: bytes) -> tuple[str, list[Declaration]] | None:
        return self.get_many([key]).get(key)

    def get_many(self, keys: list[bytes]) -> dict[bytes, tuple[str, list[Declaration]]]:
        """The stored parses of those of `keys` that have one; damaged or forged entries are removed."""
        db = self._connection()
        if db is None or not keys:
            return {}
        found: dict[bytes, tuple[str, list[Declaration]]] = {}
        stale: list[bytes] = []
        damaged: list[bytes] = []
        now = time.time()
        try:
            for start in range(0, len(keys), _KEYS_PER_QUERY):
                part = keys[start : start + _KEYS_PER_QUERY]
                # CAST: a damaged value stored as text must come back as bytes (and then fail its checksum).
                rows = db.execute(
                    f"SELECT key, CAST(value AS BLOB), used FROM entries WHERE key IN ({','.join('?' * len(part))})",
                    part,
                ).fetchall()
                for key, value, used in rows:
                    entry = decode_entry(self._secret, key, value)
                    if entry is None:
                        damaged.append(key)
                        continue
                    found[key] = entry
                    if used < now - _TOUCH_SECONDS:
                        stale.append(key)
            if damaged or stale:
                # One short transaction: reading many entries must not write each one on its own.
                write(
                    db,
                    ("DELETE FROM entries WHERE key = ?", [(key,) for key in damaged]),
                    ("UPDATE entries SET used = ? WHERE key = ?", [(now, key) for key in stale]),
                )
        except sqlite3.Error as exc:
            self._fail(exc)
            return {}
        if damaged:
            self._warn(
                "a damaged entry (or one written without this user's key) was found and removed; "
                "that file is parsed again"
            )
        return found

    def put(self, key: bytes, grammar: str, declarations: list[Declaration]) -> None:
        self.put_many([(key, grammar, declarations)])

    def put_many(self, entries: list[tuple[bytes, str, list[Declaration]]]) -> None:
        """Store these parses, in one transaction."""
        db = self._connection()
        if db is None or not entries:
            return
        now = time.time()
        rows = []
        for key, grammar, declarations in entries:
            value = encode_entry(self._secret, key, grammar, declarations)
            rows.append((key, value, len(value) + len(key), now))
        try:
            write(db, ("INSERT OR REPLACE INTO entries (key, value, size, used) VALUES (?, ?, ?, ?)", rows))
            self._evict(db)  # two pragmas unless the file is over its bound: every process keeps it bounded
        except sqlite3.Error as exc:
            self._fail(exc)

    def info(self) -> CacheInfo:
        """Where the cache is, how many entries and bytes it holds, and its bound."""
        entries = size = 0
        db = self._connection(create=False)
        if db is not None:
            try:
                entries, size = db.execute("SELECT count(*), coalesce(sum(size), 0) FROM entries").fetchone()
            except sqlite3.Error as exc:
                self._fail(exc)
        file_bytes = sum(p.stat().st_size for p in self.directory.glob(FILE_NAME + "*") if p.is_file())
        return CacheInfo(str(self.path), entries, size, file_bytes, self.max_bytes, usable=not self._broken)

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
                check_schema(db, self.path, _SCHEMA)  # a planted trigger would run on every row deleted
                removed = emptied(db, "entries")
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
            self._secret = load_secret(key_path())
            db = open_cache_file(self.path, _SCHEMA, timeout=10)
        except (sqlite3.Error, OSError) as exc:
            self._fail(exc)
            return None
        self._db = db
        return db

    def _evict(self, db: sqlite3.Connection) -> None:
        evict_if_over(db, "entries", ("key",), self.max_bytes)

    def _fail(self, exc: Exception) -> None:
        self._broken = True
        self.close()
        self._warn(f"{failure_text(exc)}; parsing without it from now on")

    def _warn(self, what: str) -> None:
        if not _warned:
            _warned.append(what)
            msg = (
                f"parse cache at {self.path}: {what}. Chunks are unaffected. Set {CACHE_DIR_ENV} to a writable "
                "folder, run `clanka-nb cache clear`, or pass cache=False to turn it off"
            )
            warnings.warn(msg, ParseCacheWarning, stacklevel=4)


_warned: list[str] = []  # one warning per process, whatever fails
_KEYS_PER_QUERY = 500  # keys per SELECT, well below SQLite's limit on bound parameters
# How stale an entry's last use may be before a read refreshes it: the eviction order needs no finer
# grain, and a warm reopen then writes nothing.
_TOUCH_SECONDS = 3600.0


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
